// The one place that knows every message between the page and its two kinds of Python worker.
//
// - The grader worker (web/src/grader_worker.js) is trusted: it never runs learner code. It loads a lesson's hidden
//   graders and reference solutions, prepares each Check (the plan: inputs only; the key: expected outcomes, which
//   never leave it), and judges run results as untrusted data.
// - A learner worker (web/src/worker.js) is untrusted: it runs learner code, with a plan, and sends back run results.
//   It never loads grading data, and it removes network and code-loading APIs from its own scope before any learner
//   code runs.
//
// Requests go page -> worker, responses worker -> page. Every message carries the schema version, its type and the
// runId of the request it belongs to. The page drops every response that is malformed, has another schema, does not
// carry the id of the request it is waiting for, or comes from the wrong kind of worker (a verdict is only ever taken
// from the grader worker), so a message that learner code forges inside its worker decides nothing.

/** Version of the message format; bump it when a field changes meaning. */
export const SCHEMA = 3;

/** Request types (page -> worker). */
export const Req = Object.freeze({
  // both kinds
  INIT: "init", // learner: {lessonId?, runtime?: WebAssembly.Module, the runtime another learner worker compiled,
  //   numpy?: numpy's wheel as the grader worker unpacked and compiled it (packWheel)}; grader: {lessonId?, lang?,
  //   runtime?}
  // learner worker
  RUN: "run", // {source, plan: JSON text, timeLimit, planId?}: run learner code under a plan ({"mode": "run"} or a
  //   Check's; planId: the id of a Check's plan, which the worker may have parsed already: KEEP)
  KEEP: "keep", // {plan: JSON text, planId}: a Check's plan, parsed now while the worker waits in the pool, so a RUN
  //   naming it does not parse it inside the learner's click -> KEPT
  // grader worker
  PREPARE: "prepare", // {lessonId, checkpoint, lang}: the checkpoint's cases (example data in `lang`; the same for
  //   every Check) -> PREPARED
  JUDGE: "judge", // {lessonId, checkpoint, runJson, lang}: judge an untrusted run result -> VERDICT
  SHRINK: "shrink", // {lessonId, checkpoint, lang, phase: "start"|"pick", runJson, verdict, shrinkId?}: a
  //   failing case, shown on a smaller input or called on its own: "start" after the verdict, "pick" after each
  //   round's run
  PLOT: "plot", // {lessonId, checkpoint, lang, runJson}: the checkpoint's plot data for a run -> PLOTTED
  EARLY: "early", // {lessonId, checkpoint, lang, runJson}: a part of a Check's run (PARTIAL): its first failure ->
  //   EARLY
  REHEARSE: "rehearse", // {lessonId, checkpoint, lang}: run the checkpoint's reference over its plan and judge it,
  //   keeping nothing, so the page's first Check of it runs on code made hot -> REHEARSED
});

/** Response types (worker -> page). */
export const Res = Object.freeze({
  PROGRESS: "progress", // {stage, percent, loaded, total}
  RUNTIME: "runtime", // learner, while it boots: {module}: the runtime it compiled (WebAssembly.Module), for the next
  //   learner workers; sent before Python starts, so before any learner code could exist
  NUMPY: "numpy", // grader, after READY: {wheel}: numpy's wheel as it unpacked it (packWheel), for the learner workers
  //   the page starts from then on
  PYTHON: "python", // learner: Python is usable (code that does not import numpy can run); numpy still loads
  READY: "ready", // {version, sharedRuntime, sharedNumpy?, sharedLibraries?, speed?}: everything this worker needs
  //   is loaded; sharedRuntime: it instantiated the runtime its INIT carried instead of compiling its own;
  //   sharedNumpy: it installed the numpy its INIT carried instead of fetching and unpacking the wheel;
  //   sharedLibraries: how many of numpy's shared libraries it instantiated from that numpy's compiled copies;
  //   speed (learner): milliseconds its Python takes for a fixed piece of work, measured before any learner code
  //   (graders/hosts/pyodide.py speed)
  STARTED: "started", // learner: {kept}: learner code starts now; kept: on a plan parsed ahead (KEEP)
  OUTPUT: "output", // learner: {stream: "stdout"|"stderr", text, truncated}
  RESULT: "result", // learner: {runJson}: the run result, JSON text (untrusted)
  KEPT: "kept", // learner: the plan of a KEEP is parsed (or left, when a RUN came first)
  PARTIAL: "partial", // learner, while a Check runs: {runJson}: the outcomes of the cases since the last PARTIAL
  //   (graders/engine/runner.py PROGRESS_AT), JSON text (untrusted); only ever used to show a failure early
  PREPARED: "prepared", // grader: {plan: JSON text, or "" for an author error; plotCase; timeLimit: seconds}
  VERDICT: "verdict", // grader: {verdict}
  PLOTTED: "plotted", // grader: {plot: object or null}
  EARLY: "early", // grader: {verdict: an early failing verdict (graders/engine/judge.py judge_early), or null}
  REHEARSED: "rehearsed", // grader: {source?: the reference it ran, as a learner worker would run it}
  SHRUNK: "shrunk", // grader: {verdict, plan: the next round's plan (JSON text), or "" when shrinking is over, shrinkId}
  FAILURE: "failure", // {message, fatal}: the worker could not do what was asked
});

const FIELDS = {
  [Req.INIT]: {},
  [Req.RUN]: { source: "string", plan: "string", timeLimit: "number" },
  [Req.KEEP]: { plan: "string", planId: "string" },
  [Req.PREPARE]: { lessonId: "string", checkpoint: "string", lang: "string" },
  [Req.JUDGE]: { lessonId: "string", checkpoint: "string", runJson: "string", lang: "string" },
  [Req.SHRINK]: {
    lessonId: "string",
    checkpoint: "string",
    lang: "string",
    phase: "string",
    runJson: "string",
    verdict: "object",
  },
  [Req.PLOT]: { lessonId: "string", checkpoint: "string", lang: "string", runJson: "string" },
  [Req.EARLY]: { lessonId: "string", checkpoint: "string", lang: "string", runJson: "string" },
  [Req.REHEARSE]: { lessonId: "string", checkpoint: "string", lang: "string" },
  [Res.PROGRESS]: { stage: "string", percent: "number" },
  [Res.RUNTIME]: { module: "object" },
  [Res.NUMPY]: { wheel: "object" },
  [Res.PYTHON]: {},
  [Res.READY]: {},
  [Res.STARTED]: {},
  [Res.OUTPUT]: { stream: "string", text: "string" },
  [Res.RESULT]: { runJson: "string" },
  [Res.PARTIAL]: { runJson: "string" },
  [Res.KEPT]: {},
  [Res.PREPARED]: { plan: "string" },
  [Res.VERDICT]: { verdict: "object" },
  [Res.PLOTTED]: {},
  [Res.EARLY]: {},
  [Res.REHEARSED]: {},
  [Res.SHRUNK]: { verdict: "object", plan: "string" },
  [Res.FAILURE]: { message: "string", fatal: "boolean" },
};

/** The responses each kind of worker may send; anything else from it is dropped. */
export const FROM = Object.freeze({
  learner: new Set([
    Res.PROGRESS,
    Res.RUNTIME,
    Res.PYTHON,
    Res.READY,
    Res.STARTED,
    Res.OUTPUT,
    Res.RESULT,
    Res.PARTIAL,
    Res.KEPT,
    Res.FAILURE,
  ]),
  grader: new Set([
    Res.PROGRESS,
    Res.READY,
    Res.NUMPY,
    Res.PREPARED,
    Res.VERDICT,
    Res.PLOTTED,
    Res.SHRUNK,
    Res.EARLY,
    Res.REHEARSED,
    Res.FAILURE,
  ]),
});

const REQUESTS = new Set(Object.values(Req));
const RESPONSES = new Set(Object.values(Res));

/** A fresh, unguessable run id. */
export function newRunId() {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** Build a request message of `type` for run `runId` with the given payload fields. */
export function request(type, runId, payload = {}) {
  if (!REQUESTS.has(type)) throw new Error(`unknown request type ${type}`);
  return { ...payload, schema: SCHEMA, type, runId };
}

/** Build a response message of `type` for run `runId` with the given payload fields. */
export function response(type, runId, payload = {}) {
  if (!RESPONSES.has(type)) throw new Error(`unknown response type ${type}`);
  return { ...payload, schema: SCHEMA, type, runId };
}

/**
 * True when `message` is a well-formed message of this schema; `direction` is "request" or "response".
 * Checks the schema version, the type, the run id and the type of every required field.
 */
export function validate(message, direction) {
  if (!message || typeof message !== "object" || Array.isArray(message)) return false;
  if (message.schema !== SCHEMA || typeof message.runId !== "string" || message.runId.length < 8) return false;
  const allowed = direction === "request" ? REQUESTS : RESPONSES;
  if (!allowed.has(message.type)) return false;
  for (const [field, kind] of Object.entries(FIELDS[message.type])) {
    const value = message[field];
    if (kind === "object" ? value === null || typeof value !== "object" : typeof value !== kind) return false;
  }
  return true;
}

/** The most bytes a packed wheel may hold (numpy's unpacked wheel is about 13 MB). */
export const WHEEL_LIMIT = 64 * 1024 * 1024;

/**
 * An unpacked wheel ({name, fileName, files: [{path, data: Uint8Array}]}, as pyboot.js fetchWheel resolves) as one
 * object to post between threads: {name, fileName, paths, sizes, blob}, every file's bytes in one Blob. A message
 * carries a Blob by reference, so neither the page nor a worker copies the bytes to pass them on; only the worker
 * that installs them reads them (unpackWheel). `compiled`: its shared libraries as the packing worker compiled them
 * ([{print, module}], pyboot.js installWheel), carried along as `compiled` (a WebAssembly.Module crosses threads as
 * compiled code, not bytes).
 */
export function packWheel(wheel, compiled = null) {
  return {
    name: wheel.name,
    fileName: wheel.fileName,
    paths: wheel.files.map((file) => file.path),
    sizes: wheel.files.map((file) => file.data.length),
    blob: new Blob(wheel.files.map((file) => file.data)),
    ...(Array.isArray(compiled) && compiled.length ? { compiled } : {}),
  };
}

/** True when `compiled` is a list of shared libraries as pyodide_private.js loadSharedLibraries resolves to. */
function isCompiledList(compiled) {
  if (!Array.isArray(compiled) || compiled.length > 1000) return false;
  const isModule = (value) => typeof WebAssembly === "object" && value instanceof WebAssembly.Module;
  return compiled.every((entry) => entry && typeof entry.print === "string" && isModule(entry.module));
}

/**
 * True when `packed` is what packWheel makes: strings where names go, whole sizes that add up to the Blob's size, at
 * most WHEEL_LIMIT bytes.
 */
export function isPackedWheel(packed) {
  if (!packed || typeof packed !== "object") return false;
  const { name, fileName, paths, sizes, blob, compiled } = packed;
  if (typeof name !== "string" || typeof fileName !== "string") return false;
  if (compiled !== undefined && !isCompiledList(compiled)) return false;
  if (typeof Blob !== "function" || !(blob instanceof Blob) || blob.size > WHEEL_LIMIT) return false;
  if (!Array.isArray(paths) || !Array.isArray(sizes) || paths.length !== sizes.length) return false;
  let total = 0;
  for (let i = 0; i < paths.length; i++) {
    if (typeof paths[i] !== "string" || !Number.isInteger(sizes[i]) || sizes[i] < 0) return false;
    total += sizes[i];
  }
  return total === blob.size;
}

/**
 * Resolve to the wheel `packed` holds (packWheel's inverse; each file's data a view into one buffer), or to null when
 * it is not a packed wheel (isPackedWheel) or its bytes cannot be read.
 */
export async function unpackWheel(packed) {
  if (!isPackedWheel(packed)) return null;
  let bytes;
  try {
    bytes = new Uint8Array(await packed.blob.arrayBuffer());
  } catch {
    return null;
  }
  if (bytes.length !== packed.blob.size) return null;
  const files = [];
  let at = 0;
  for (let i = 0; i < packed.paths.length; i++) {
    files.push({ path: packed.paths[i], data: bytes.subarray(at, at + packed.sizes[i]) });
    at += packed.sizes[i];
  }
  return {
    name: packed.name,
    fileName: packed.fileName,
    files,
    ...(packed.compiled ? { compiled: packed.compiled } : {}),
  };
}

/** True when `message` is a valid response that belongs to the run `runId` (and, given `role`, may come from it). */
export function belongsTo(message, runId, role) {
  if (typeof runId !== "string" || !validate(message, "response") || message.runId !== runId) return false;
  return role === undefined || (FROM[role] && FROM[role].has(message.type));
}
