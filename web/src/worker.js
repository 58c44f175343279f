// The Python worker: boots Pyodide from this site, loads the grading engine and runs learner code.
//
// Loaded as a module worker from dist/assets/worker.js; everything else is addressed relative to it:
// ../pyodide/ (runtime + numpy), ../grading/ (engine and lesson data), ../wheels/ (lesson requirements).
// Lesson data (with hidden graders and reference solutions) and prepared plans (with expected values) stay in
// module-scoped variables here: never on globalThis, never handed to Python while learner code runs.

import { Req, Res, response, validate } from "./protocol.js";

const post = self.postMessage.bind(self); // captured before learner code could replace globalThis.postMessage
const HERE = import.meta.url;
const LIB = "/lib/werkbank";
const OUTPUT_CAP = 1_000_000; // characters forwarded per run; the page shows less and says so
const FLUSH_CHARS = 8192;
const FLUSH_MS = 60;

let pyodide = null;
let bridge = null;
let booting = null;
const lessonReady = new Map(); // lesson id -> Promise of the text of grading/<id>.json (requirements installed)

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
  // merge consecutive chunks of one stream into one message each
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

/** on_output for bridge.run: a JS function (stream, text); ("truncated", "") when the engine's limit cut output. */
function onOutput(stream, text) {
  if (String(stream) === "truncated") {
    // tell the page now, not when the run ends: a program that keeps printing may only end by Stop
    if (sink && !sink.truncated) {
      const pending = sink.pending.length > 0;
      sink.truncated = true;
      if (pending) flush(); // its messages carry truncated: true
      else post(response(Res.OUTPUT, sink.runId, { stream: "stdout", text: "", truncated: true }));
    }
    return;
  }
  emit(String(stream), String(text));
}

// ------------------------------------------------------------------ boot

/**
 * fetch that reports bytes received for the big runtime files, as a percentage between `from` and `to`.
 * `expected` is a floor for the total (bytes), so the first small file does not look like the whole stage.
 */
function meteredFetch(runId, stage, from, to, expected) {
  const original = self.fetch.bind(self);
  let loaded = 0;
  let total = 0;
  const report = () => {
    const part = Math.min(1, loaded / Math.max(total, expected, 1));
    post(response(Res.PROGRESS, runId, { stage, percent: Math.round(from + (to - from) * part), loaded, total }));
  };
  return async (input, init) => {
    const res = await original(input, init);
    const length = Number(res.headers.get("content-length")) || 0;
    if (!res.ok || !res.body || !length) return res;
    total += length;
    if (res.headers.get("content-encoding")) {
      // compressed on the wire: the body yields more bytes than content-length says; count the file when done
      res
        .clone()
        .arrayBuffer()
        .then(() => {
          loaded += length;
          report();
        })
        .catch(() => {});
      return res;
    }
    const reader = res.body.getReader();
    let lastReport = 0;
    const body = new ReadableStream({
      async pull(controller) {
        const { done, value } = await reader.read();
        if (done) {
          controller.close();
          report();
          return;
        }
        loaded += value.byteLength;
        if (Date.now() - lastReport > 100) {
          lastReport = Date.now();
          report();
        }
        controller.enqueue(value);
      },
      cancel(reason) {
        return reader.cancel(reason);
      },
    });
    return new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
  };
}

async function fetchText(relative) {
  const url = new URL(relative, HERE);
  const res = await fetch(url);
  if (!res.ok) throw new Error(`${url.pathname}: HTTP ${res.status}`);
  return res.text();
}

/** Write the engine's {path: source} files below /lib/werkbank in the Pyodide file system. */
function writeFiles(files) {
  const entries = Array.isArray(files)
    ? files.map((f) => [f.path, f.content])
    : Object.entries(files || {});
  for (const [path, content] of entries) {
    if (typeof path !== "string" || path.includes("..") || path.startsWith("/")) continue;
    const full = `${LIB}/${path}`;
    pyodide.FS.mkdirTree(full.slice(0, full.lastIndexOf("/")));
    pyodide.FS.writeFile(full, String(content));
  }
}

async function boot(runId, interruptBuffer) {
  const progress = (stage, percent) => post(response(Res.PROGRESS, runId, { stage, percent, loaded: 0, total: 0 }));
  const plainFetch = self.fetch;
  progress("runtime", 1);
  const { loadPyodide } = await import("../pyodide/pyodide.mjs");
  self.fetch = meteredFetch(runId, "runtime", 2, 70, 12_000_000); // wasm + stdlib, about 12.5 MB
  try {
    pyodide = await loadPyodide({
      indexURL: new URL("../pyodide/", HERE).href,
      stdout: (line) => emit("stdout", line + "\n"),
      stderr: (line) => emit("stderr", line + "\n"),
    });
    self.fetch = meteredFetch(runId, "numpy", 70, 92, 3_000_000); // the numpy wheel, about 3 MB
    await pyodide.loadPackage("numpy", { messageCallback: () => {}, errorCallback: (m) => console.warn(m) });
  } finally {
    self.fetch = plainFetch;
  }
  if (interruptBuffer) pyodide.setInterruptBuffer(interruptBuffer);
  progress("engine", 94);
  const engine = JSON.parse(await fetchText("../grading/engine.json"));
  writeFiles(engine.files || engine);
  pyodide.runPython(`import sys\nif ${JSON.stringify(LIB)} not in sys.path: sys.path.insert(0, ${JSON.stringify(LIB)})`);
  bridge = pyodide.pyimport("graders.hosts.pyodide");
  progress("engine", 100);
  post(response(Res.READY, runId, { version: pyodide.version }));
}

/**
 * Fetch a lesson's grading data once and install its requirements. The grader modules and reference solutions stay
 * in this JS string: bridge.prepare() imports them from memory, so they are never files learner code could open.
 */
function lessonText(lessonId) {
  if (!/^[a-z0-9-]+$/.test(lessonId)) return Promise.reject(new Error(`bad lesson id ${lessonId}`));
  if (!lessonReady.has(lessonId)) {
    const ready = (async () => {
      const text = await fetchText(`../grading/${lessonId}.json`);
      const data = JSON.parse(text);
      if (Array.isArray(data.requirements) && data.requirements.length) {
        await pyodide.loadPackage("micropip", { messageCallback: () => {} });
        await bridge.install_requirements(text, new URL("../wheels/", HERE).href);
      }
      return text;
    })();
    ready.catch(() => lessonReady.delete(lessonId));
    lessonReady.set(lessonId, ready);
  }
  return lessonReady.get(lessonId);
}

// ------------------------------------------------------------------ runs

function clearInterrupt(buffer) {
  if (buffer) buffer[0] = 0;
}

let interruptView = null;

/** Prepared checkpoints, the latest seed each: "lesson/checkpoint" -> {seed, plan, keyJson, plotCase} or {authorJson}. */
const prepared = new Map();

/** Run the reference on every case of a checkpoint; the expected values stay in this JS object. */
async function prepareEntry(lessonId, checkpoint, seed) {
  const text = await lessonText(lessonId);
  const json = bridge.prepare(text, checkpoint, seed >>> 0);
  const parsed = fromBridge(json, "prepare");
  if (parsed.author_error) return { seed, authorJson: json };
  const plotCase = parsed.key.plot ? parsed.key.plot.case : null;
  return { seed, plan: parsed.plan, keyJson: JSON.stringify(parsed.key), plotCase };
}

/** The prepared checkpoint for `seed`: the one waiting when its seed matches, else prepared now (and kept). */
async function preparedFor(lessonId, checkpoint, seed) {
  const key = `${lessonId}/${checkpoint}`;
  const waiting = prepared.get(key);
  if (waiting && waiting.seed === seed >>> 0) return waiting;
  const entry = await prepareEntry(lessonId, checkpoint, seed >>> 0);
  prepared.set(key, entry);
  return entry;
}

async function run(msg) {
  let plotEntry = null;
  if (msg.lessonId) {
    try {
      const text = await lessonText(msg.lessonId); // installs the lesson's extra packages, so Run can import them too
      const meta = typeof msg.checkpoint === "string" ? (JSON.parse(text).checkpoints || {})[msg.checkpoint] : null;
      if (meta && meta.plot) {
        const waiting = prepared.get(`${msg.lessonId}/${msg.checkpoint}`);
        plotEntry = await preparedFor(msg.lessonId, msg.checkpoint, waiting ? waiting.seed : 0);
      }
    } catch (error) {
      console.warn(`lesson ${msg.lessonId}: ${error && error.message}`);
    }
  }
  const runPlan = { mode: "run" };
  if (typeof msg.after === "string") runPlan.after = msg.after; // the example or case snippet (graders/engine/runner.py)
  if (plotEntry && plotEntry.plotCase) {
    // A checkpoint with a plot: after the module ran, call the plot's case too, so Run can draw the learner's result.
    runPlan.cases = plotEntry.plan.cases.filter((c) => c.id === plotEntry.plotCase);
    runPlan.attrs = plotEntry.plan.attrs;
  }
  const plan = JSON.stringify(runPlan);
  openSink(msg.runId);
  clearInterrupt(interruptView);
  post(response(Res.STARTED, msg.runId, { timeLimit: msg.timeLimit }));
  const runJson = bridge.run(msg.source, plan, onOutput);
  const truncated = closeSink();
  const result = fromBridge(runJson, "run");
  const plot = plotEntry && plotEntry.keyJson ? fromBridge(bridge.plot(plotEntry.keyJson, runJson), "plot") : null;
  post(response(Res.RESULT, msg.runId, plot ? { run: result, truncated, plot } : { run: result, truncated }));
}

async function check(msg) {
  const entry = await preparedFor(msg.lessonId, msg.checkpoint, msg.seed);
  if (entry.authorJson) {
    const verdict = fromBridge(bridge.judge(entry.authorJson, "{}", msg.lang), "judge");
    post(response(Res.VERDICT, msg.runId, { verdict, truncated: false }));
    return;
  }
  const limit = Number(entry.plan.time_limit) > 0 ? Number(entry.plan.time_limit) : 5;
  openSink(msg.runId);
  clearInterrupt(interruptView);
  post(response(Res.STARTED, msg.runId, { timeLimit: limit }));
  const runJson = bridge.run(msg.source, JSON.stringify(entry.plan), onOutput);
  const truncated = closeSink();
  if (typeof runJson !== "string") throw new Error("bridge.run returned no JSON text");
  const verdict = fromBridge(bridge.judge(entry.keyJson, runJson, msg.lang), "judge");
  post(response(Res.VERDICT, msg.runId, { verdict, truncated }));
}

/** True when Pyodide can no longer be used (its fatal error handler ran, or it stopped answering). */
function isFatal(error) {
  if (error && (error.pyodide_fatal_error || /fatal(ly)? (error|failed)/i.test(String(error.message || "")))) return true;
  if (!pyodide) return false;
  try {
    pyodide.runPython("None");
    return false;
  } catch {
    return true;
  }
}

/** Parse a JSON string the bridge returned; anything else is an error. */
function fromBridge(value, what) {
  if (typeof value !== "string") throw new Error(`bridge.${what} returned ${typeof value}, not JSON text`);
  return JSON.parse(value);
}

let queue = Promise.resolve();

self.addEventListener("message", (event) => {
  const msg = event.data;
  if (!validate(msg, "request")) return;
  queue = queue.then(() => handle(msg));
});

async function handle(msg) {
  try {
    if (msg.type === Req.INIT) {
      if (!booting) {
        interruptView = msg.interruptBuffer instanceof Uint8Array ? msg.interruptBuffer : null;
        booting = boot(msg.runId, interruptView);
      }
      await booting;
      return;
    }
    if (!bridge) throw new Error("Python is not loaded yet");
    if (msg.type === Req.RUN) await run(msg);
    else if (msg.type === Req.CHECK) await check(msg);
    else if (msg.type === Req.PREPARE) {
      // No reply: if this fails, the Check with this seed prepares again and reports the problem then.
      await preparedFor(msg.lessonId, msg.checkpoint, msg.seed).catch(() => {});
    }
  } catch (error) {
    if (sink) closeSink();
    const message = String((error && error.message) || error);
    post(response(Res.FAILURE, msg.runId, { message, fatal: isFatal(error) || (msg.type === Req.INIT) }));
  }
}
