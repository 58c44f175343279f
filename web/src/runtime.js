// The page side of the Python worker: one explicit state machine.
//
//   off --boot()--> booting --ready--> idle --execute()--> running --result--> idle
//                                        running --stop()/time limit--> stopping --answer--> idle
//                                        stopping --no answer in GRACE_MS--> restarting --ready--> idle
//   any --worker crash--> restarting --ready--> idle          booting --failure--> failed --execute()--> booting
//
// Jobs submitted while booting, restarting or running wait in a queue and start when Python is idle, so a Check
// pressed while Python loads runs as soon as it is ready. Every job ends exactly once: a run is never left
// "running".

import { Req, Res, belongsTo, newRunId, request } from "./protocol.js";

/** Seconds a free Run may take before it is stopped (Check uses the grader's limit). */
export const RUN_TIME_LIMIT = 30;
/** How long an interrupted run may take to answer before the worker is replaced. */
export const GRACE_MS = 1000;
const SLACK_MS = 300; // message latency on top of a time limit
/** A random 32-bit seed for a checkpoint's random cases. */
function newSeed() {
  return crypto.getRandomValues(new Uint32Array(1))[0];
}

const PREPARE_LIMIT_MS = 60_000; // prepare (reference solution on every case) before learner code starts

/** Map a runner state to the page's `data-runtime` value. */
export function runtimeAttribute(state) {
  return (
    {
      off: "loading",
      booting: "loading",
      idle: "ready",
      running: "running",
      stopping: "running",
      restarting: "restarting",
      failed: "failed",
    }[state] || "loading"
  );
}

function workerUrl() {
  const version = typeof WORKER_VERSION === "string" ? WORKER_VERSION : "";
  const url = new URL("./worker.js", import.meta.url);
  if (version) url.searchParams.set("v", version);
  return url;
}

/**
 * Runs learner code in a module Web Worker. Callbacks: onState(state), onProgress(percent, stage),
 * onNotice(key) for events the learner should hear about ("runtime_crashed").
 */
export class Runtime {
  /** Create a runner; nothing loads until boot() or the first execute(). */
  constructor({ onState = () => {}, onProgress = () => {}, onNotice = () => {}, createWorker = null } = {}) {
    this.warmList = null; // {lessonId, checkpoints} to prepare whenever a worker is ready
    this.seeds = new Map(); // "lesson/checkpoint" -> the seed of its next Check
    this.state = "off";
    this.onState = onState;
    this.onProgress = onProgress;
    this.onNotice = onNotice;
    this.createWorker = createWorker || (() => new Worker(workerUrl(), { type: "module" }));
    this.worker = null;
    this.bootId = null;
    this.job = null;
    this.queue = [];
    this.failure = null;
    this.isolated = typeof crossOriginIsolated !== "undefined" && crossOriginIsolated && typeof SharedArrayBuffer === "function";
    this.interrupt = null;
    this.timers = new Set();
  }

  _set(state) {
    if (this.state === state) return;
    this.state = state;
    this.onState(state);
  }

  _timer(fn, ms) {
    const id = setTimeout(() => {
      this.timers.delete(id);
      fn();
    }, ms);
    this.timers.add(id);
    return id;
  }

  _clearTimers() {
    for (const id of this.timers) clearTimeout(id);
    this.timers.clear();
  }

  /** Start Python in the background (no-op when it is already loading or loaded). */
  boot() {
    if (this.state === "off" || this.state === "failed") this._spawn("booting");
  }

  _spawn(state) {
    this._set(state);
    this.failure = null;
    this.bootId = newRunId();
    let worker;
    try {
      worker = this.createWorker();
    } catch (error) {
      this._bootFailed(String(error && error.message ? error.message : error));
      return;
    }
    this.worker = worker;
    this.interrupt = this.isolated ? new Uint8Array(new SharedArrayBuffer(1)) : null;
    worker.onmessage = (event) => this._receive(worker, event.data);
    worker.onerror = (event) => {
      if (event && typeof event.preventDefault === "function") event.preventDefault();
      this._crashed(worker, (event && event.message) || "worker error");
    };
    worker.onmessageerror = () => {};
    const init = request(Req.INIT, this.bootId, this.interrupt ? { interruptBuffer: this.interrupt } : {});
    worker.postMessage(init);
  }

  _bootFailed(message) {
    this.failure = message;
    if (this.worker) this.worker.terminate();
    this.worker = null;
    this._set("failed");
    const waiting = this.queue.splice(0);
    for (const job of waiting) job.resolve({ kind: "failed", message });
  }

  _receive(worker, msg) {
    if (worker !== this.worker) return;
    if (this.state === "booting" || this.state === "restarting") {
      if (!belongsTo(msg, this.bootId)) return;
      if (msg.type === Res.PROGRESS) this.onProgress(msg.percent, msg.stage);
      else if (msg.type === Res.READY) {
        this.onProgress(100, "ready");
        this._set("idle");
        this._next();
        this._sendWarm();
      } else if (msg.type === Res.FAILURE) {
        this._bootFailed(msg.message);
      }
      return;
    }
    const job = this.job;
    if (!job || !belongsTo(msg, job.runId)) return; // stale, foreign or forged: ignore
    switch (msg.type) {
      case Res.STARTED:
        if (this.state === "running") {
          clearTimeout(job.prepareTimer);
          const limit = job.type === Req.RUN ? job.timeLimit : msg.timeLimit;
          job.timeLimit = limit;
          job.limitTimer = this._timer(() => this._interrupt("timeout"), limit * 1000 + SLACK_MS);
        }
        break;
      case Res.OUTPUT:
        if (job.onOutput) job.onOutput(msg.stream, msg.text, Boolean(msg.truncated));
        break;
      case Res.RESULT:
        this._finish(job.stopReason ? { kind: job.stopReason, timeLimit: job.timeLimit } : { kind: "result", run: msg.run, ...(msg.plot ? { plot: msg.plot } : {}) });
        break;
      case Res.VERDICT:
        this._finish(job.stopReason ? { kind: job.stopReason, timeLimit: job.timeLimit } : { kind: "verdict", verdict: msg.verdict });
        this.seeds.set(`${job.lessonId}/${job.checkpoint}`, newSeed()); // random cases change with every Check
        if (this.worker && !job.stopReason) this._prepare(job.lessonId, job.checkpoint);
        break;
      case Res.FAILURE:
        if (msg.fatal) {
          this._finish({ kind: "crashed", message: msg.message });
          this._restart(true);
        } else {
          this._finish(job.stopReason ? { kind: job.stopReason, timeLimit: job.timeLimit } : { kind: "failure", message: msg.message });
        }
        break;
      default:
        break;
    }
  }

  _crashed(worker, message) {
    if (worker !== this.worker) return;
    if (this.state === "booting") {
      this._bootFailed(message);
      return;
    }
    if (this.job) this._finish({ kind: "crashed", message });
    this._restart(true);
  }

  _restart(notify) {
    this._clearTimers();
    if (this.worker) this.worker.terminate();
    this.worker = null;
    if (notify) this.onNotice("runtime_crashed");
    this._spawn("restarting");
  }

  /**
   * Queue a job and resolve when it ends. job: {type: "run"|"check", source, lessonId, checkpoint, lang, seed,
   * onOutput(stream, text, truncated)}. Resolves to {kind: "result"|"verdict"|"stopped"|"timeout"|"crashed"|
   * "failure"|"failed"|"cancelled", ...}; never rejects.
   */
  execute(job) {
    return new Promise((resolve) => {
      this.queue.push({ ...job, resolve });
      if (this.state === "off" || this.state === "failed") this.boot();
      else if (this.state === "idle") this._next();
    });
  }

  /**
   * Ask the worker to prepare these checkpoints' next Checks while it is idle, so a Check only runs and judges.
   * Sent once Python is ready, and again after every restart (a new worker starts with nothing prepared).
   */
  warm(lessonId, checkpoints) {
    this.warmList = { lessonId, checkpoints: checkpoints.map(String) };
    if (this.state === "idle" || this.state === "running") this._sendWarm();
  }

  /** The seed of the next Check of a checkpoint (the one prepared ahead); a new one after every Check. */
  seedFor(lessonId, checkpoint) {
    const key = `${lessonId}/${checkpoint}`;
    if (!this.seeds.has(key)) this.seeds.set(key, newSeed());
    return this.seeds.get(key);
  }

  _prepare(lessonId, checkpoint) {
    const seed = this.seedFor(lessonId, checkpoint);
    this.worker.postMessage(request(Req.PREPARE, newRunId(), { lessonId, checkpoint: String(checkpoint), seed }));
  }

  _sendWarm() {
    if (!this.worker || !this.warmList) return;
    for (const checkpoint of this.warmList.checkpoints) this._prepare(this.warmList.lessonId, checkpoint);
  }

  /** True while a job is queued for `owner` (an opaque key the caller passed as job.owner). */
  isQueued(owner) {
    return this.queue.some((job) => job.owner === owner);
  }

  /** Drop a queued job of `owner` that has not started; it resolves as "cancelled". */
  cancelQueued(owner) {
    const keep = [];
    for (const job of this.queue) {
      if (job.owner === owner) job.resolve({ kind: "cancelled" });
      else keep.push(job);
    }
    this.queue = keep;
  }

  _next() {
    if (this.state !== "idle" || this.job || !this.queue.length) return;
    const job = this.queue.shift();
    job.runId = newRunId();
    job.stopReason = null;
    this.job = job;
    this._set("running");
    if (this.interrupt) this.interrupt[0] = 0;
    if (job.type === "check") {
      this.worker.postMessage(
        request(Req.CHECK, job.runId, {
          lessonId: job.lessonId,
          checkpoint: String(job.checkpoint),
          source: job.source,
          lang: job.lang,
          seed: job.seed >>> 0,
        }),
      );
    } else {
      job.timeLimit = job.timeLimit || RUN_TIME_LIMIT;
      job.type = Req.RUN;
      const payload = { source: job.source, timeLimit: job.timeLimit };
      if (typeof job.lessonId === "string") payload.lessonId = job.lessonId;
      if (typeof job.checkpoint === "string") payload.checkpoint = job.checkpoint;
      if (typeof job.after === "string") payload.after = job.after; // the example/case snippet run after the module
      this.worker.postMessage(request(Req.RUN, job.runId, payload));
    }
    job.prepareTimer = this._timer(() => this._interrupt("timeout"), PREPARE_LIMIT_MS);
  }

  _finish(result) {
    const job = this.job;
    if (!job) return;
    this.job = null;
    this._clearTimers();
    if (this.state === "running" || this.state === "stopping") this._set("idle");
    job.resolve(result);
    queueMicrotask(() => this._next());
  }

  /** Stop the running job of `owner` (or any running job when owner is omitted); queued jobs are cancelled. */
  stop(owner) {
    if (owner !== undefined) this.cancelQueued(owner);
    if (this.job && (owner === undefined || this.job.owner === owner)) this._interrupt("stopped");
  }

  _interrupt(reason) {
    const job = this.job;
    if (!job || this.state !== "running") return;
    job.stopReason = reason;
    this._clearTimers();
    if (this.interrupt) {
      this._set("stopping");
      this.interrupt[0] = 2; // SIGINT: Python raises KeyboardInterrupt at the next bytecode
      this._timer(() => {
        if (this.job === job) this._hardStop(reason);
      }, GRACE_MS);
    } else {
      this._hardStop(reason);
    }
  }

  _hardStop(reason) {
    const job = this.job;
    if (this.worker) this.worker.terminate();
    this.worker = null;
    this.job = null;
    this._clearTimers();
    this._spawn("restarting");
    if (job) job.resolve({ kind: reason, timeLimit: job.timeLimit });
  }
}
