// A learner worker (untrusted): boots Pyodide, locks its own scope down, and runs learner code under a plan.
//
// It never loads grading data: the plan of a Check holds the inputs of its cases only, and the page sends the run
// result (JSON text, untrusted) to the grader worker (grader_worker.js) to be judged. Before the first learner code
// it removes network and code-loading APIs from its own scope (lockdown.js). Python becomes usable (PYTHON) before
// numpy has loaded; READY follows when numpy and the lesson's wheels are in. A worker serves one job, Run or Check:
// once learner code has run here, the page ignores it and terminates it (runtime.js).

import { Req, Res, response, validate } from "./protocol.js";
import { fetchEngine, fetchWheel, isFatal, loadNumpy, meteredFetch, PYODIDE_URL, startPyodide, WHEELS_URL, writeEngine } from "./pyboot.js";
import { lockdown } from "./lockdown.js";

/* global SETTINGS */
// captured before learner code could replace them
const post = self.postMessage.bind(self);
const realFetch = self.fetch.bind(self);
const OUTPUT_CAP = SETTINGS.outputLimit; // characters forwarded per run; the engine cuts at the same limit
const FLUSH_CHARS = 8192;
const FLUSH_MS = 60;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

let pyodide = null;
let bridge = null;
let booting = null;
let complete = null; // Promise: numpy and the lesson's wheels are loaded
let requirementNames = [];
let running = false;

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
    if (parts.length) post(response(Res.OUTPUT, sink.runId, { stream, text: parts.join(""), truncated: sink.truncated }));
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

async function boot(runId, lessonId, runtime) {
  const progress = (stage, percent) => post(response(Res.PROGRESS, runId, { stage, percent, loaded: 0, total: 0 }));
  progress("runtime", 1);
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
  const loadPackage = pyodide.loadPackage.bind(pyodide); // kept here: lockdown takes it off the pyodide object
  let stageFetch = realFetch;
  const { seal } = lockdown(self, pyodide, {
    allowed: [PYODIDE_URL, WHEELS_URL],
    isRunning: () => running,
    fetch: (href, init) => stageFetch(href, init),
  });
  post(response(Res.PYTHON, runId, { version: pyodide.version }));
  complete = (async () => {
    // numpy (and micropip for the lesson's wheels) through the guarded fetch, metered for the progress bar
    stageFetch = meteredFetch(post, runId, "numpy", 70, 92, 3_000_000, realFetch); // the numpy wheel, ~3 MB
    await loadNumpy(pyodide, fetchWheel("numpy", stageFetch), { loadPackage }); // (the global fetch is the guard)
    if (requirements.length) await loadPackage(["micropip"], { messageCallback: () => {}, errorCallback: (m) => console.warn(m) });
    stageFetch = realFetch;
    if (requirements.length) await bridge.install_requirements(JSON.stringify({ requirements }), WHEELS_URL);
    // The engine was imported before numpy existed: its values module takes numpy's types now (the only module
    // that keeps them), rather than the whole engine being imported again.
    pyodide.runPython("from graders.engine import values as _v\nif not _v.bind_numpy(): raise ImportError('numpy')\ndel _v");
    // what every run imports before learner code (the runner's PRELOAD), now rather than inside the first Check
    pyodide.runPython("from graders.engine import runner as _r\nfor _n in _r.PRELOAD: __import__(_n)\ndel _r, _n");
    seal();
    progress("engine", 100);
  })();
  await complete;
  const speed = Number(bridge.speed()); // before any learner code: the page scales time limits by it (runtime.js)
  post(response(Res.READY, runId, { version: pyodide.version, sharedRuntime: started.shared, speed }));
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

async function run(msg) {
  if (needsEverything(msg.source, msg.plan)) await complete;
  openSink(msg.runId);
  post(response(Res.STARTED, msg.runId, {}));
  let runJson;
  running = true;
  try {
    // UTF-8 both ways: a Uint8Array crosses into Python as one copy, a long string a character at a time
    const out = bridge.run_encoded(msg.source, encoder.encode(msg.plan), onOutput);
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
  } finally {
    running = false;
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
      booting = boot(msg.runId, typeof msg.lessonId === "string" ? msg.lessonId : "", msg.runtime);
      booting.catch((error) => fail(msg, error, true));
    }
    return;
  }
  queue = queue.then(() => handle(msg));
});

function fail(msg, error, fatal) {
  if (sink) closeSink();
  const message = String((error && error.message) || error);
  post(response(Res.FAILURE, msg.runId, { message, fatal: fatal || isFatal(pyodide, error) }));
}

async function handle(msg) {
  try {
    if (!bridge) await booting;
    if (!bridge) throw new Error("Python is not loaded yet");
    if (msg.type === Req.RUN) await run(msg);
    else throw new Error(`a learner worker does not do ${msg.type}`);
  } catch (error) {
    fail(msg, error, false);
  }
}
