// A learner worker (untrusted): boots Pyodide, locks its own scope down, and runs learner code under a plan.
//
// It never loads grading data: the plan of a Check holds the inputs of its cases only, and the page sends the run
// result (JSON text, untrusted) to the grader worker (grader_worker.js) to be judged. Before Python is usable (and so
// before any learner code can exist here) it locks its own scope down to an allow-list (lockdown.js): no network, no
// storage, no code from strings. Whatever it loads after that (numpy, the lesson's wheels) it fetches with the fetch
// it kept in this module and unpacks itself (pyboot.js), so nothing learner code can reach ever fetches. Python
// becomes usable (PYTHON) before numpy has loaded; READY follows when numpy and the lesson's wheels are in. A worker
// serves one job, Run or Check: once learner code has run here, the page ignores it and terminates it (runtime.js).

import { Req, Res, response, unpackWheel, validate } from "./protocol.js";
import {
  canUnpack,
  fetchEngine,
  fetchLessonWheel,
  fetchWheel,
  installWheel,
  isFatal,
  loadNumpy,
  meteredFetch,
  PYODIDE_URL,
  startPyodide,
  writeEngine,
} from "./pyboot.js";
import { lockdown } from "./lockdown.js";
import { internals } from "./pyodide_private.js";

/* global SETTINGS */
// captured before learner code could replace them
const post = self.postMessage.bind(self);
const nativeFetch = self.fetch.bind(self);
/**
 * Set just before learner code first runs here. From then on this worker's own fetch refuses every request: its boot
 * may still be loading numpy and the lesson's wheels when a Run starts (Python is usable before that), and that code
 * reads globals learner code can replace (URL, DataView, ...), so a URL it computes after learner code ran is the
 * learner's. The worker serves that one job and is then discarded: it needs nothing more.
 */
let learnerRan = false;
const realFetch = async (input, init) => {
  if (learnerRan) throw new TypeError("this worker fetches nothing once learner code has run");
  return nativeFetch(input, init);
};
const OUTPUT_CAP = SETTINGS.outputLimit; // characters forwarded per run; the engine cuts at the same limit
const FLUSH_CHARS = 8192;
const FLUSH_MS = 60;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

let pyodide = null;
let bridge = null;
let booting = null;
let complete = null; // Promise: numpy and the lesson's wheels are loaded (true: numpy came with INIT)
let requirementNames = [];
let sealed = false; // the lockdown is done: learner code may run
let markSealed = () => {};
const sealing = new Promise((resolve) => {
  markSealed = resolve;
});

// ------------------------------------------------------------------ output batching

let sink = null; // {runId, pending: [stream, text][], size, sent, last, truncated}

function openSink(runId) {
  sink = { runId, pending: [], size: 0, sent: 0, last: 0, truncated: false };
}

function emit(stream, text) {
  if (!sink || !text) return;
  if (sink.sent + sink.size >= OUTPUT_CAP) {
    sink.truncated = true;
    return;
  }
  sink.pending.push([stream === "stderr" ? "stderr" : "stdout", String(text)]);
  sink.size += text.length;
  if (sink.size >= FLUSH_CHARS || Date.now() - sink.last >= FLUSH_MS) flush();
}

function flush() {
  if (!sink || !sink.pending.length) return;
  let stream = sink.pending[0][0];
  let parts = [];
  const send = () => {
    if (parts.length)
      post(response(Res.OUTPUT, sink.runId, { stream, text: parts.join(""), truncated: sink.truncated }));
  };
  for (const [s, text] of sink.pending) {
    if (s !== stream) {
      send();
      stream = s;
      parts = [];
    }
    parts.push(text);
  }
  send();
  sink.sent += sink.size;
  sink.pending = [];
  sink.size = 0;
  sink.last = Date.now();
}

function closeSink() {
  flush();
  const truncated = sink ? sink.truncated : false;
  sink = null;
  return truncated;
}

/** on_output for bridge.run: (stream, text); ("truncated", "") when the engine's limit cut output. */
function onOutput(stream, text) {
  if (String(stream) === "truncated") {
    if (sink && !sink.truncated) {
      const pending = sink.pending.length > 0;
      sink.truncated = true;
      if (pending) flush();
      else post(response(Res.OUTPUT, sink.runId, { stream: "stdout", text: "", truncated: true }));
    }
    return;
  }
  emit(String(stream), String(text));
}

// ------------------------------------------------------------------ boot

async function boot(runId, lessonId, runtime, numpy) {
  const progress = (stage, percent) => post(response(Res.PROGRESS, runId, { stage, percent, loaded: 0, total: 0 }));
  progress("runtime", 1);
  // numpy as the grader worker unpacked it (kept by the page, runtime.js), read beside the runtime
  const givenNumpy = unpackWheel(numpy).then((wheel) => (wheel && wheel.name === "numpy" ? wheel : null));
  // fetched and decoded beside the runtime (whenever loadPyodide leaves this thread a moment)
  const engineReady = fetchEngine(realFetch);
  // the first learner worker of a page compiles the runtime and hands it to the page for the next ones (before any
  // learner code exists); a later one instantiates what the page gives it
  const onCompiled = (module) => post(response(Res.RUNTIME, runId, { module }));
  const started = await startPyodide({ post, runId, emit, fetchFn: realFetch, runtime, onCompiled });
  pyodide = started.pyodide;
  const engine = await engineReady;
  writeEngine(pyodide, engine.files);
  bridge = pyodide.pyimport("graders.hosts.pyodide");
  const requirements = (lessonId && engine.requirements && engine.requirements[lessonId]) || [];
  requirementNames = requirements.map((r) => String(r.name));
  const api = internals(pyodide); // kept here for installing numpy and the wheels: the lockdown takes it off `pyodide`
  const numpyMeter = meteredFetch(post, runId, "numpy", 70, 92, 3_000_000, realFetch); // the numpy wheel, ~3 MB
  if (!canUnpack()) {
    // a browser that cannot inflate a wheel itself: Pyodide's loader (which fetches through the global fetch) loads
    // numpy now, before the lockdown, so before any learner code can exist; Python is usable later there
    await loadNumpy(pyodide, Promise.reject(new Error("no DecompressionStream")), {
      loadPackage: pyodide.loadPackage.bind(pyodide),
      fetchFn: await lockFetch(numpyMeter),
    });
  }
  const { stuck } = lockdown(self, pyodide);
  if (stuck.length) console.warn(`werkbank: the lockdown could not remove ${stuck.join(", ")}`);
  sealed = true;
  markSealed();
  post(response(Res.PYTHON, runId, { version: pyodide.version }));
  complete = (async () => {
    // numpy and the lesson's wheels, with the fetch this module kept: learner code (which may run from here on)
    // reaches no fetch and no loader
    // numpy as the grader worker unpacked it, else fetched and unpacked here
    let given = null;
    let libraries = [];
    if (!pyodide.loadedPackages.numpy) {
      given = await givenNumpy;
      libraries = await installWheel(pyodide, given || (await fetchWheel("numpy", numpyMeter)), api);
    }
    for (const requirement of requirements)
      await installWheel(pyodide, await fetchLessonWheel(requirement, realFetch), api);
    // The engine was imported before numpy existed: its values module takes numpy's types now (the only module
    // that keeps them), rather than the whole engine being imported again.
    pyodide.runPython(
      "from graders.engine import values as _v\nif not _v.bind_numpy(): raise ImportError('numpy')\ndel _v",
    );
    // what every run imports before learner code (the runner's PRELOAD), now rather than inside the first Check
    pyodide.runPython("from graders.engine import runner as _r\nfor _n in _r.PRELOAD: __import__(_n)\ndel _r, _n");
    progress("engine", 100);
    return { sharedNumpy: Boolean(given), sharedLibraries: libraries.filter((library) => library.shared).length };
  })();
  let shared = { sharedNumpy: false, sharedLibraries: 0 };
  try {
    shared = await complete;
  } catch (error) {
    if (learnerRan) return; // a Run began before numpy was in: its job is this worker's last, nothing failed
    throw error;
  }
  if (learnerRan) return; // never READY for another job: learner code ran here
  const speed = Number(bridge.speed()); // before any learner code: the page scales time limits by it (runtime.js)
  post(response(Res.READY, runId, { version: pyodide.version, sharedRuntime: started.shared, ...shared, speed }));
}

/**
 * A fetch for Pyodide's own loader before the lockdown: exactly the files pyodide-lock.json names under ../pyodide/
 * (compared as whole URLs, so no spelling of a path reaches anything else), through `base`.
 */
async function lockFetch(base) {
  const lockUrl = new URL("pyodide-lock.json", PYODIDE_URL).href;
  const lock = await (await realFetch(lockUrl)).json();
  const files = new Set([lockUrl]);
  for (const entry of Object.values(lock.packages || {})) {
    if (entry && /^[\w.+-]+\.whl$/.test(entry.file_name)) files.add(new URL(entry.file_name, PYODIDE_URL).href);
  }
  return (input, init) => {
    const href = new URL(String(input && typeof input === "object" && "url" in input ? input.url : input), PYODIDE_URL)
      .href;
    if (!files.has(href)) return Promise.reject(new TypeError(`not a file of the runtime: ${href}`));
    return base(href, init && typeof init === "object" && init.integrity ? { integrity: init.integrity } : undefined);
  };
}

// ------------------------------------------------------------------ runs

/** Longer plans are a Check's (a Run's plan is a few lines): they wait for everything without being parsed here. */
const RUN_PLAN_MAX = 64 * 1024;

/** True when a run must wait for numpy and the lesson's wheels: a Check's plan, a plot case, or code naming them. */
function needsEverything(source, planJson) {
  if (planJson.length > RUN_PLAN_MAX) return true;
  let plan;
  try {
    plan = JSON.parse(planJson);
  } catch {
    return true;
  }
  if (!plan || plan.mode !== "run" || plan.cases) return true;
  const text = `${source}\n${typeof plan.after === "string" ? plan.after : ""}`;
  if (/numpy|\bnp\b/.test(text)) return true;
  return requirementNames.some((name) => text.includes(name));
}

/**
 * Check plans parsed ahead of the click (KEEP), by the page's id of each (lesson, checkpoint, language): a RUN that
 * names one runs that plan without parsing its text (graders/hosts/pyodide.py keep_plan). The page's plan for an id
 * never changes, so the id stands for the text. The worker runs one job, so nothing here is reused once learner code
 * ran.
 */
const keptPlans = new Map();
/** RUN requests that arrived and have not started: a KEEP still queued then is left, as the run parses its own. */
let runsWaiting = 0;

async function keep(msg) {
  await complete;
  const id = typeof msg.planId === "string" ? msg.planId : "";
  if (id && !learnerRan && runsWaiting === 0 && !keptPlans.has(id)) {
    keptPlans.set(id, bridge.keep_plan(encoder.encode(msg.plan)));
  }
  post(response(Res.KEPT, msg.runId, {}));
}

async function run(msg) {
  runsWaiting -= 1;
  if (needsEverything(msg.source, msg.plan)) await complete;
  openSink(msg.runId);
  // a plan parsed ahead, unless learner code ran here already (a shrink round: its plan is new anyway)
  const kept = learnerRan || typeof msg.planId !== "string" ? undefined : keptPlans.get(msg.planId);
  learnerRan = true;
  post(response(Res.STARTED, msg.runId, { kept: Boolean(kept) }));
  let runJson;
  // UTF-8 both ways: a Uint8Array crosses into Python as one copy, a long string a character at a time
  // a Check's early parts (the outcomes so far, as UTF-8 JSON bytes: a PyProxy for the length of this call)
  const onPartial = (bytes) => {
    const view = bytes.getBuffer("u8");
    try {
      post(response(Res.PARTIAL, msg.runId, { runJson: decoder.decode(view.data) }));
    } finally {
      view.release();
    }
  };
  const out = bridge.run_encoded(msg.source, kept || encoder.encode(msg.plan), onOutput, onPartial);
  try {
    const bytes = out.getBuffer("u8");
    try {
      runJson = decoder.decode(bytes.data);
    } finally {
      bytes.release();
    }
  } finally {
    out.destroy();
  }
  const truncated = closeSink();
  post(response(Res.RESULT, msg.runId, { runJson, truncated })); // the grader reads it as untrusted JSON text
}

let queue = Promise.resolve();

self.addEventListener("message", (event) => {
  const msg = event.data;
  if (!validate(msg, "request")) return;
  if (msg.type === Req.INIT) {
    // not queued behind anything: INIT comes first
    if (!booting) {
      booting = boot(msg.runId, typeof msg.lessonId === "string" ? msg.lessonId : "", msg.runtime, msg.numpy);
      booting.catch((error) => fail(msg, error, true));
    }
    return;
  }
  if (msg.type === Req.RUN) runsWaiting += 1;
  queue = queue.then(() => handle(msg));
});

function fail(msg, error, fatal) {
  if (sink) closeSink();
  const message = String((error && error.message) || error);
  post(response(Res.FAILURE, msg.runId, { message, fatal: fatal || isFatal(pyodide, error) }));
}

async function handle(msg) {
  try {
    if (!sealed) await Promise.race([sealing, booting]); // no learner code before the lockdown
    if (!sealed || !bridge) throw new Error("Python is not loaded yet");
    if (msg.type === Req.RUN) await run(msg);
    else if (msg.type === Req.KEEP) await keep(msg);
    else throw new Error(`a learner worker does not do ${msg.type}`);
  } catch (error) {
    fail(msg, error, false);
  }
}
