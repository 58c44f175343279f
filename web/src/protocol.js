// The one place that knows every message between the page and the Python worker.
//
// Requests go page -> worker, responses worker -> page. Every message carries the schema version, its type and the
// runId of the request it belongs to. The page drops every response that is malformed, has another schema or does
// not carry the id of the run it is waiting for: learner code can call `js.postMessage(...)` from inside the worker,
// but it does not know the run's random id, so a forged "verdict" is ignored.

/** Version of the message format; bump it when a field changes meaning. */
export const SCHEMA = 1;

/** Request types (page -> worker). */
export const Req = Object.freeze({
  INIT: "init", // boot Pyodide; {interruptBuffer?: Uint8Array over a SharedArrayBuffer}
  RUN: "run", // {source, timeLimit, lessonId?}: run learner code freely (with the lesson's extra packages)
  CHECK: "check", // {lessonId, checkpoint, source, lang, seed}: prepare -> run -> judge
  PREPARE: "prepare", // {lessonId, checkpoint, seed}: compute a Check's expected values ahead of time; no reply
});

/** Response types (worker -> page). */
export const Res = Object.freeze({
  PROGRESS: "progress", // {stage, percent, loaded, total}
  READY: "ready", // {version}
  STARTED: "started", // {timeLimit}: learner code starts now, the page starts the clock
  OUTPUT: "output", // {stream: "stdout"|"stderr", text, truncated}
  RESULT: "result", // {run, plot?}: the bridge's run JSON (Run), and the checkpoint's plot data when it has one
  VERDICT: "verdict", // {verdict}: the verdict JSON (Check)
  FAILURE: "failure", // {message, fatal}: the worker could not do what was asked
});

const FIELDS = {
  [Req.INIT]: {},
  [Req.RUN]: { source: "string", timeLimit: "number" },
  [Req.CHECK]: { lessonId: "string", checkpoint: "string", source: "string", lang: "string", seed: "number" },
  [Req.PREPARE]: { lessonId: "string", checkpoint: "string", seed: "number" },
  [Res.PROGRESS]: { stage: "string", percent: "number" },
  [Res.READY]: {},
  [Res.STARTED]: { timeLimit: "number" },
  [Res.OUTPUT]: { stream: "string", text: "string" },
  [Res.RESULT]: { run: "object" },
  [Res.VERDICT]: { verdict: "object" },
  [Res.FAILURE]: { message: "string", fatal: "boolean" },
};

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

/** True when `message` is a valid response that belongs to the run `runId`. */
export function belongsTo(message, runId) {
  return typeof runId === "string" && validate(message, "response") && message.runId === runId;
}
