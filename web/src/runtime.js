// The page side of Python: one grader worker (trusted) and learner workers (untrusted), behind one state machine.
//
// Workers (see protocol.js):
//   grader   grader_worker.js: holds each checkpoint's Check (plan + key, made by the build; the key never leaves it)
//            and judges run results.
//   current  the learner worker (worker.js) that serves Runs; it may be dirty (it ran learner code before).
//   spare    a pristine learner worker booting or ready in the background once the page is ready.
// Every Check runs on a pristine learner worker (never ran learner code): the current one if still pristine, else
// the spare, which is then promoted (the dirty one is ignored from then on and terminated with the verdict, see
// RETIRE_MS; a new spare boots then). Runs reuse the current one.
// So whatever learner code does to its worker, the next Check is judged by untouched code.
//
// States (`state`, shown as body[data-runtime] by runtimeAttribute):
//   off        nothing started                                        -> loading
//   booting    first boot: not everything a Check needs is loaded yet -> loading
//   idle       a Check would start at once (grader ready, a pristine learner worker ready) -> ready
//   warming    a Run would start at once, but a Check waits for the spare to finish booting -> loading
//              (after a Check used up the pristine worker)
//   running    a job runs; stopping: Stop was asked (isolated: KeyboardInterrupt, GRACE_MS to answer) -> running
//   restarting after Stop or a crash, while the replacement learner worker is not ready for a Check -> restarting
//   failed     the first boot failed                                  -> failed
// body[data-python] = "ready" as soon as a learner worker can run code that does not import numpy (numpy and the
// grader may still be loading), "loading" otherwise. body[data-spare] = "ready" while a pristine spare learner
// worker is ready (Stop and the next Check after a dirty one are then instant), "loading" otherwise. Jobs submitted before they can start wait in a queue (FIFO).
// Every job ends exactly once.

import { Req, Res, belongsTo, newRunId, request } from "./protocol.js";

/* global SETTINGS, WORKER_VERSION */
/** Seconds a free Run may take before it is stopped (Check uses the grader's limit). */
export const RUN_TIME_LIMIT = SETTINGS.runTimeLimit;
/** How long an interrupted run may take to answer before the worker is replaced. */
export const GRACE_MS = 1000;
const SLACK_MS = 300; // message latency on top of a time limit
const PREPARE_LIMIT_MS = 60_000;
/**
 * How long a dirty learner worker that a Check's switch to the spare took out of use may stay alive, at most (ms).
 * Terminating a worker tears down its isolate and its WebAssembly memory on a thread of its own, which on two cores
 * takes the core the Check's run needs and slows that Check. So the page stops listening to it at once, and only
 * the termination waits: for the verdict or this long, whichever comes first (so its own leftover timers cannot
 * busy a core for longer).
 */
export const RETIRE_MS = 250;
/**
 * Whether the grader worker's boot waits for the learner worker's (staged) rather than starting beside it. On two
 * cores it waits for the runtime the learner worker compiles (RUNTIME), which it starts from: the page is ready
 * sooner than when the grader waits for the learner's Python, for a slightly later "Python usable". On a visit that
 * compiles that runtime from scratch (`coldRuntime`, a first visit) it waits until the learner's Python is usable:
 * two Pythons starting at once on code not yet optimised, beside V8's background compiles, are ready later, with
 * longer main-thread tasks. With more cores each boot has its own.
 */
export function stagedBoot(cores = typeof navigator !== "undefined" ? navigator.hardwareConcurrency : 0) {
  return !(Number(cores) > 2);
}
const STAGED = stagedBoot();

/** Map a runner state to the page's `data-runtime` value. */
export function runtimeAttribute(state) {
  return (
    {
      off: "loading",
      booting: "loading",
      warming: "loading",
      idle: "ready",
      running: "running",
      stopping: "running",
      restarting: "restarting",
      failed: "failed",
    }[state] || "loading"
  );
}

function workerUrl(role) {
  const version = typeof WORKER_VERSION === "string" ? WORKER_VERSION : "";
  const url = new URL(role === "grader" ? "./grader_worker.js" : "./worker.js", import.meta.url);
  if (version) url.searchParams.set("v", version);
  return url;
}

/** A performance mark (the benchmark reads them to time each boot stage); never fails. */
function mark(name) {
  try {
    performance.mark(name);
  } catch {
    /* no User Timing here */
  }
}

/**
 * The learner worker web/src/early.js started from the page's <head> (before this bundle ran), or null; taken once.
 * Pass it to the Runtime as `early`.
 */
export function takeEarlyWorker(win = typeof window !== "undefined" ? window : null) {
  const early = win ? win.__werkbankEarlyWorker : null;
  if (!early) return null;
  delete win.__werkbankEarlyWorker;
  return early;
}

/** A learner or grader worker and where its boot is: booting -> python (learner only) -> ready; dead. */
class Slot {
  constructor(role, worker, interrupt) {
    this.role = role;
    this.worker = worker;
    this.interrupt = interrupt;
    this.bootId = newRunId();
    this.phase = "booting";
    this.dirty = false;
    this.percent = 0;
  }
}

/**
 * Runs learner code in learner workers and grades it in the grader worker. Callbacks: onState(state),
 * onProgress(percent, stage), onNotice(key) for events the learner should hear about ("runtime_crashed").
 * createWorker(role) makes a Worker for "learner" or "grader" (tests pass a fake). `early`: a learner worker that is
 * booting already ({worker, bootId, interrupt, lessonId, messages, errors}, see takeEarlyWorker): the first learner
 * worker the runtime needs is that one, when it was started for the same lesson and isolation. `coldRuntime`: this
 * page compiles Python's runtime from scratch (a first visit), so the grader waits longer (see stagedBoot).
 */
export class Runtime {
  constructor({ onState = () => {}, onProgress = () => {}, onNotice = () => {}, createWorker = null, early = null,
    coldRuntime = false } = {}) {
    this.early = early;
    this.coldRuntime = coldRuntime;
    this.warmList = null; // {lessonId, checkpoints}
    this.plans = new Map(); // "lesson/checkpoint/lang" -> Promise of {plan, plotCase, timeLimit}: the same every Check
    this.state = "off";
    this.onState = onState;
    this.onProgress = onProgress;
    this.onNotice = onNotice;
    this.createWorker = createWorker || ((role) => new Worker(workerUrl(role), { type: "module" }));
    this.current = null;
    this.spare = null;
    /** A dirty learner worker out of use, terminated after the running Check (see RETIRE_MS). */
    this.retired = null;
    this.retireTimer = 0;
    /** The runtime (WebAssembly.Module) the first learner worker compiled; each later learner worker instantiates it. */
    this.runtimeModule = null;
    this.grader = null;
    this.started = false;
    this.everReady = false;
    this.job = null;
    this.queue = [];
    this.failure = null;
    this.isolated = typeof crossOriginIsolated !== "undefined" && crossOriginIsolated && typeof SharedArrayBuffer === "function";
    this.timers = new Set();
    this.pending = new Map(); // grader request id -> {resolve, reject}
    // the language of the page: a Check's example data are in it (a job's own `lang` wins)
    this.lang = (typeof document !== "undefined" && document.documentElement && document.documentElement.lang) || SETTINGS.fallbackLanguage;
  }

  // ---------------------------------------------------------------- state

  _set(state) {
    if (this.state === state) return;
    this.state = state;
    this.onState(state);
  }

  _needsGrader() {
    return Boolean(this.warmList) || this.queue.some((job) => job.type === "check");
  }

  /** True when a Check could start at once. */
  _checkReady() {
    const pristine = (s) => s && s.phase === "ready" && !s.dirty;
    const learner = pristine(this.current) || pristine(this.spare);
    return learner && (!this._needsGrader() || (this.grader && this.grader.phase === "ready"));
  }

  _usable(slot) {
    return Boolean(slot) && (slot.phase === "python" || slot.phase === "ready");
  }

  _refresh() {
    let state;
    if (this.failure) state = "failed";
    else if (this.job) state = this.job.stopping ? "stopping" : "running";
    else if (!this.started) state = "off";
    else if (this._checkReady()) state = "idle";
    else if (!this.everReady) state = "booting";
    else state = this.replacing || !this._usable(this.current) ? "restarting" : "warming";
    if (state === "idle") this.replacing = false;
    if (state === "idle" && !this.everReady) {
      this.everReady = true;
      mark("werkbank:ready");
    }
    this._setPython(this._usable(this.current) || this._usable(this.spare));
    this._set(state);
  }

  _setPython(ready) {
    if (ready && !this.pythonMarked) {
      this.pythonMarked = true;
      mark("werkbank:python");
    }
    if (typeof document === "undefined" || !document.body) return;
    document.body.dataset.python = ready ? "ready" : "loading";
    document.body.dataset.spare = this.spare && this.spare.phase === "ready" ? "ready" : "loading";
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

  // ---------------------------------------------------------------- workers

  /** Start Python in the background (no-op when it is already loading or loaded). */
  boot() {
    if (this.started && !this.failure) return;
    this.started = true;
    this.failure = null;
    if (!this.current) this.current = this._spawn("learner");
    // On two cores the grader boots once the learner worker has compiled the runtime, or on a cold visit once its
    // Python is usable (see stagedBoot and _bootMessage). Its worker starts now all the same, held (no INIT yet):
    // what needs no Python, numpy's wheel fetched and unpacked, is done by then (grader_worker.js).
    if (this._needsGrader() && !this.grader) this.grader = this._spawn("grader", { held: STAGED });
    this._refresh();
  }

  /** Create a worker for `role` and send it INIT, unless `held`: then INIT waits for _release(slot). */
  _spawn(role, { held = false } = {}) {
    if (role === "learner" && this.early) {
      const early = this.early;
      this.early = null;
      const lessonId = this.warmList ? this.warmList.lessonId : "";
      if (early.lessonId === lessonId && Boolean(early.interrupt) === Boolean(this.isolated)) return this._adopt(early);
      try {
        early.worker.terminate();
      } catch {
        /* gone already */
      }
    }
    let worker;
    try {
      worker = this.createWorker(role);
    } catch (error) {
      queueMicrotask(() => this._bootFailed(String(error && error.message ? error.message : error)));
      return null;
    }
    const interrupt = role === "learner" && this.isolated ? new Uint8Array(new SharedArrayBuffer(1)) : null;
    const slot = new Slot(role, worker, interrupt);
    worker.onmessage = (event) => this._receive(slot, event.data);
    worker.onerror = (event) => {
      if (event && typeof event.preventDefault === "function") event.preventDefault();
      this._crashed(slot, (event && event.message) || "worker error");
    };
    worker.onmessageerror = () => {};
    const lessonId = this.warmList ? this.warmList.lessonId : undefined;
    const payload = { ...(interrupt ? { interruptBuffer: interrupt } : {}), ...(lessonId ? { lessonId } : {}),
      ...(role === "grader" ? { lang: String(this.lang) } : {}) };
    if (held) slot.held = payload;
    else this._init(slot, payload);
    return slot;
  }

  _init(slot, payload) {
    if (slot.role === "grader") mark("werkbank:grader:init"); // the grader's Python starts booting now
    const runtime = this.runtimeModule ? { runtime: this.runtimeModule } : {};
    slot.worker.postMessage(request(Req.INIT, slot.bootId, { ...payload, ...runtime }));
  }

  /** Send a held worker its INIT (see _spawn); no-op for any other. */
  _release(slot) {
    if (!slot || !slot.held || slot.phase === "dead") return;
    const payload = slot.held;
    slot.held = null;
    this._init(slot, payload);
  }

  /** Take over the early learner worker: its boot id, its handlers, and the messages it sent before this ran. */
  _adopt(early) {
    const slot = new Slot("learner", early.worker, early.interrupt);
    slot.bootId = early.bootId;
    early.worker.onmessage = (event) => this._receive(slot, event.data);
    early.worker.onerror = (event) => {
      if (event && typeof event.preventDefault === "function") event.preventDefault();
      this._crashed(slot, (event && event.message) || "worker error");
    };
    early.worker.onmessageerror = () => {};
    // after the caller has stored the slot (as `current`): the replayed messages are judged as if they came now
    queueMicrotask(() => {
      for (const msg of early.messages.splice(0)) this._receive(slot, msg);
      for (const message of early.errors.splice(0)) this._crashed(slot, message);
    });
    return slot;
  }

  _kill(slot) {
    if (!slot) return;
    slot.phase = "dead";
    try {
      slot.worker.terminate();
    } catch {
      /* gone already */
    }
  }

  /** Take a dirty learner worker out of use now (the page ignores it from here) and terminate it later. */
  _retire(slot) {
    if (!slot) return;
    slot.phase = "dead";
    this._dropRetired();
    this.retired = slot;
    this.retireTimer = setTimeout(() => this._dropRetired(), RETIRE_MS);
  }

  /** Terminate the retired learner worker, if there is one. */
  _dropRetired() {
    clearTimeout(this.retireTimer);
    const slot = this.retired;
    this.retired = null;
    this._kill(slot);
  }

  _bootFailed(message) {
    this.failure = message;
    this._dropRetired();
    for (const slot of [this.current, this.spare, this.grader]) this._kill(slot);
    this.current = this.spare = this.grader = null;
    this.started = false;
    if (this.job) {
      const job = this.job;
      this.job = null;
      this._clearTimers();
      job.resolve({ kind: "failed", message });
    }
    const waiting = this.queue.splice(0);
    for (const job of waiting) job.resolve({ kind: "failed", message });
    this._refresh();
  }

  _receive(slot, msg) {
    if (slot.phase === "dead") return;
    if (belongsTo(msg, slot.bootId, slot.role)) {
      this._bootMessage(slot, msg);
      return;
    }
    if (slot.role === "grader") {
      const waiter = msg && typeof msg.runId === "string" ? this.pending.get(msg.runId) : null;
      if (!waiter || !belongsTo(msg, msg.runId, "grader")) return;
      this.pending.delete(msg.runId);
      if (msg.type === Res.FAILURE) waiter.reject(Object.assign(new Error(msg.message), { fatal: msg.fatal }));
      else waiter.resolve(msg);
      return;
    }
    const job = this.job;
    if (!job || job.slot !== slot || !belongsTo(msg, job.runId, "learner")) return; // stale, foreign or forged
    this._jobMessage(job, msg);
  }

  _bootMessage(slot, msg) {
    if (msg.type === Res.PYTHON || msg.type === Res.READY) mark(`werkbank:${slot.role}:${msg.type}`);
    if (msg.type === Res.READY && msg.sharedRuntime === true) mark(`werkbank:${slot.role}:shared-runtime`);
    if (msg.type === Res.PROGRESS) {
      slot.percent = msg.percent;
      this._progress(msg.stage);
    } else if (msg.type === Res.RUNTIME) {
      // the compiled runtime, kept for the next learner workers: only from a learner still booting (Python, and so
      // learner code, starts after it), only once, and only a real module
      const module = msg.module;
      const isModule = typeof WebAssembly === "object" && module instanceof WebAssembly.Module;
      if (slot.role === "learner" && slot.phase === "booting" && !this.runtimeModule && isModule) {
        this.runtimeModule = module;
        mark("werkbank:learner:runtime");
        // the held grader starts from it now, its Python beside the learner's (see stagedBoot)
        if (slot === this.current && this.grader && !this.coldRuntime && this._needsGrader()) this._release(this.grader);
      }
    } else if (msg.type === Res.PYTHON) {
      if (slot.phase === "booting") slot.phase = "python";
      if (slot === this.current && this._needsGrader()) {
        if (!this.grader) this.grader = this._spawn("grader");
        else this._release(this.grader);
      }
    } else if (msg.type === Res.READY) {
      slot.phase = "ready";
      slot.percent = 100;
      if (slot.role === "grader") this._sendWarm();
      this._progress("ready");
    } else if (msg.type === Res.FAILURE) {
      if (!this.everReady) this._bootFailed(msg.message);
      else this._crashed(slot, msg.message);
      return;
    }
    this._refresh();
    this._next();
    this._ensureSpare();
  }

  _progress(stage) {
    if (this.state !== "booting" && this.state !== "restarting" && this.state !== "off") return;
    const parts = [this.current || this.spare, this._needsGrader() ? this.grader : null].filter(Boolean);
    if (!parts.length) return;
    const percent = parts.reduce((sum, s) => sum + s.percent, 0) / parts.length;
    this.onProgress(Math.round(percent), stage);
  }

  /** Boot a pristine spare learner worker once everything else is ready. */
  _ensureSpare() {
    if (this.spare || !this.everReady || this.failure || !this.current) return;
    if (this.current.phase !== "ready") return; // one boot at a time
    this.spare = this._spawn("learner");
  }

  /** A pristine, ready learner worker for a Check (promoting the spare), or null. */
  _pristine() {
    const cur = this.current;
    if (cur && cur.phase === "ready" && !cur.dirty) return cur;
    const spare = this.spare;
    if (spare && spare.phase === "ready") {
      this._retire(cur); // terminated once this Check has its verdict (RETIRE_MS)
      this.current = spare;
      this.spare = null;
      return spare;
    }
    return null;
  }

  /** Replace the current learner worker (after Stop or a crash): the spare takes over, or a new one boots. Until a
   * Check could run again the state is "restarting". */
  _replaceCurrent() {
    this.replacing = true;
    this._kill(this.current);
    if (this.spare) {
      this.current = this.spare;
      this.spare = null;
    } else {
      this.current = this._spawn("learner");
    }
  }

  _crashed(slot, message) {
    if (slot.phase === "dead") return;
    if (!this.everReady && slot.phase === "booting" && (slot === this.current || slot === this.grader)) {
      this._bootFailed(message);
      return;
    }
    const job = this.job;
    const hit = job && (job.slot === slot || slot.role === "grader");
    if (slot.role === "grader") {
      this._kill(slot);
      this.grader = this._spawn("grader");
      this.plans.clear();
      for (const waiter of this.pending.values()) waiter.reject(new Error(message));
      this.pending.clear();
    } else if (slot === this.spare) {
      this._kill(slot);
      this.spare = null;
    } else {
      this._replaceCurrent();
    }
    if (hit) this._finish({ kind: "crashed", message });
    this.onNotice("runtime_crashed");
    this._refresh();
    this._next();
    this._ensureSpare();
  }

  // ---------------------------------------------------------------- grader requests and prepared Checks

  _ask(type, payload) {
    return new Promise((resolve, reject) => {
      if (!this.grader) this.grader = this._spawn("grader");
      this._release(this.grader); // a request may not wait for the learner's Python
      if (!this.grader) {
        reject(new Error("no grader worker"));
        return;
      }
      const runId = newRunId();
      this.pending.set(runId, { resolve, reject });
      this.grader.worker.postMessage(request(type, runId, payload));
    });
  }

  /**
   * The plan of a checkpoint's Check: {plan: JSON text ("" for an author error), plotCase, timeLimit (seconds)};
   * example data in `lang`. The cases are fixed by the build, so every Check of the checkpoint runs this plan.
   */
  _plan(lessonId, checkpoint, lang = this.lang) {
    const id = `${lessonId}/${checkpoint}/${lang}`;
    if (!this.plans.has(id)) {
      const payload = { lessonId, checkpoint: String(checkpoint), lang: String(lang) };
      const promise = this._ask(Req.PREPARE, payload).then((msg) => ({
        plan: msg.plan,
        plotCase: typeof msg.plotCase === "string" ? msg.plotCase : "",
        timeLimit: Number(msg.timeLimit) > 0 ? Number(msg.timeLimit) : SETTINGS.defaultTimeLimit,
      }));
      promise.catch(() => this.plans.delete(id));
      this.plans.set(id, promise);
    }
    return this.plans.get(id);
  }

  /**
   * Ask for these checkpoints' Checks to be made ready while the learner reads, so a Check only runs and judges.
   * Also tells the workers which lesson the page shows (its wheels load with Python).
   */
  warm(lessonId, checkpoints) {
    this.warmList = { lessonId, checkpoints: checkpoints.map(String) };
    if (this.grader && this.grader.phase === "ready") this._sendWarm();
  }

  _sendWarm() {
    if (!this.warmList) return;
    for (const checkpoint of this.warmList.checkpoints) {
      this._plan(this.warmList.lessonId, checkpoint).catch(() => {});
    }
  }

  // ---------------------------------------------------------------- jobs

  /**
   * Queue a job and resolve when it ends. job: {type: "run"|"check", source, lessonId, checkpoint, lang,
   * after?, trace? ({steps}: a Run whose `after` runs under the line tracer), onOutput(stream, text, truncated)}. Resolves to {kind: "result"|"verdict"|"stopped"|"timeout"|"crashed"|
   * "failure"|"failed"|"cancelled", ...}; never rejects.
   */
  execute(job) {
    return new Promise((resolve) => {
      this.queue.push({ ...job, resolve });
      if (!this.started || this.failure) this.boot();
      else if (job.type === "check" && !this.grader) this.grader = this._spawn("grader");
      this._refresh();
      this._next();
    });
  }

  /** Drop a queued job of `owner` that has not started; it resolves as "cancelled". */
  cancelQueued(owner) {
    const keep = [];
    for (const job of this.queue) {
      if (job.owner === owner) job.resolve({ kind: "cancelled" });
      else keep.push(job);
    }
    this.queue = keep;
    this._refresh();
  }

  _next() {
    if (this.job || !this.queue.length || this.failure) return;
    const head = this.queue[0];
    let slot;
    if (head.type === "check") {
      if (!this.grader || this.grader.phase !== "ready") return;
      slot = this._pristine();
    } else {
      slot = this._usable(this.current) ? this.current : null;
    }
    if (!slot) return;
    this.queue.shift();
    const job = head;
    job.runId = newRunId();
    job.slot = slot;
    job.stopping = false;
    job.stopReason = null;
    slot.dirty = true; // from now on learner code may have run in it
    this.job = job;
    this._refresh();
    if (slot.interrupt) slot.interrupt[0] = 0;
    job.prepareTimer = this._timer(() => this._interrupt(job, "timeout"), PREPARE_LIMIT_MS);
    (job.type === "check" ? this._check(job) : this._run(job)).catch((error) => {
      if (this.job === job) this._finish(error && error.fatal ? { kind: "crashed", message: error.message } : { kind: "failure", message: String((error && error.message) || error) });
    });
  }

  async _check(job) {
    const checkpoint = String(job.checkpoint);
    mark("werkbank:check:start");
    const lang = String(job.lang || this.lang);
    const { plan, timeLimit } = await this._plan(job.lessonId, checkpoint, lang);
    if (this.job !== job) return;
    const judge = (runJson) => this._ask(Req.JUDGE, { lessonId: job.lessonId, checkpoint, runJson, lang });
    if (!plan) {
      const msg = await judge("{}"); // an author error: the grader says so in the learner's language
      if (this.job === job) this._finish({ kind: "verdict", verdict: msg.verdict });
      return;
    }
    job.timeLimit = timeLimit; // the grader says it beside the plan: a plan is a few hundred kB to parse
    mark("werkbank:check:run");
    const runJson = await this._learnerRun(job, plan, timeLimit);
    if (this.job !== job) return;
    mark("werkbank:check:judge");
    const msg = await judge(runJson);
    if (this.job !== job) return;
    mark("werkbank:check:verdict");
    const verdict = await this._shrink(job, { lessonId: job.lessonId, checkpoint, lang }, runJson, msg.verdict);
    if (this.job !== job) return;
    this._finish({ kind: "verdict", verdict });
  }

  /**
   * A failing generated case is shown on the smallest input that fails the same way: the grader proposes each round's
   * candidates (with their expected outcomes), the learner worker that ran this Check runs them (it is dirty already:
   * the same learner code ran there), the grader picks. Whatever goes wrong, the verdict so far stands.
   */
  async _shrink(job, where, runJson, verdict) {
    if (!verdict || verdict.status !== "fail" || !verdict.failure || !verdict.failure.generated) return verdict;
    let msg = await this._ask(Req.SHRINK, { ...where, phase: "start", runJson, verdict }).catch(() => null);
    job.shrinking = true; // no output and no time-limit verdict from these runs
    while (msg && msg.plan && this.job === job && job.slot.phase !== "dead") {
      verdict = msg.verdict;
      const shrinkId = msg.shrinkId;
      job.runId = newRunId(); // each round is a run of its own for the learner worker
      let timer;
      const late = new Promise((resolve) => {
        timer = setTimeout(() => resolve(null), job.timeLimit * 1000 + SLACK_MS);
      });
      const roundRun = await Promise.race([this._learnerRun(job, msg.plan, job.timeLimit), late]);
      clearTimeout(timer);
      if (this.job !== job) return verdict;
      if (roundRun === null) {
        // the learner's code is stuck on a candidate: replace that worker, keep the verdict so far
        if (job.slot === this.current) this._replaceCurrent();
        else this._kill(job.slot);
        return verdict;
      }
      msg = await this._ask(Req.SHRINK, { ...where, phase: "pick", runJson: roundRun, verdict, shrinkId }).catch(() => null);
    }
    return msg && msg.verdict ? msg.verdict : verdict;
  }

  async _run(job) {
    job.timeLimit = job.timeLimit || RUN_TIME_LIMIT;
    let plan = { mode: "run" };
    let plot = null;
    const checkpoint = typeof job.checkpoint === "string" ? job.checkpoint : null;
    if (checkpoint && typeof job.lessonId === "string" && this.grader) {
      // a checkpoint with a plot: after the module ran, call the plot's case too, so Run draws the learner's result
      const prepared = this.grader.phase === "ready" ? await this._plan(job.lessonId, checkpoint).catch(() => null) : null;
      if (this.job !== job) return;
      if (prepared && prepared.plan && prepared.plotCase) {
        const full = JSON.parse(prepared.plan);
        plan = { mode: "run", cases: full.cases.filter((c) => c.id === prepared.plotCase), attrs: full.attrs };
        plot = { checkpoint };
      }
    }
    if (typeof job.after === "string") plan.after = job.after; // the example or case snippet (graders/engine/runner.py)
    if (typeof job.lang === "string") plan.lang = job.lang; // the language run.python_error is explained in
    if (job.trace && typeof job.trace === "object") plan.trace = { steps: Number(job.trace.steps) || 0 }; // "Trace this case"
    const planJson = Object.keys(plan).length > 1 ? JSON.stringify(plan) : '{"mode": "run"}';
    const runJson = await this._learnerRun(job, planJson, job.timeLimit);
    if (this.job !== job) return;
    let run;
    try {
      run = JSON.parse(runJson);
    } catch {
      run = { status: "error", traceback: "the run result was not readable" };
    }
    let plotData = null;
    if (plot) {
      const payload = { lessonId: job.lessonId, checkpoint: plot.checkpoint, lang: this.lang, runJson };
      const msg = await this._ask(Req.PLOT, payload).catch(() => null);
      if (this.job !== job) return;
      plotData = msg && msg.plot ? msg.plot : null;
    }
    this._finish({ kind: "result", run, ...(plotData ? { plot: plotData } : {}) });
  }

  /** Send RUN to the job's learner worker; resolves to the run JSON text. */
  _learnerRun(job, plan, timeLimit) {
    return new Promise((resolve) => {
      job.onResult = resolve;
      job.slot.worker.postMessage(request(Req.RUN, job.runId, { source: job.source, plan, timeLimit }));
    });
  }

  _jobMessage(job, msg) {
    switch (msg.type) {
      case Res.STARTED:
        if (!job.stopping && !job.limitTimer && !job.shrinking) {
          clearTimeout(job.prepareTimer);
          job.limitTimer = this._timer(() => this._interrupt(job, "timeout"), job.timeLimit * 1000 + SLACK_MS);
        }
        break;
      case Res.OUTPUT:
        if (job.onOutput && !job.shrinking) job.onOutput(msg.stream, msg.text, Boolean(msg.truncated));
        break;
      case Res.RESULT:
        clearTimeout(job.limitTimer);
        if (job.stopReason) this._finish({ kind: job.stopReason, timeLimit: job.timeLimit });
        else if (job.onResult) job.onResult(msg.runJson);
        break;
      case Res.FAILURE:
        if (msg.fatal) {
          this._finish({ kind: "crashed", message: msg.message });
          this._crashed(job.slot, msg.message);
        } else {
          this._finish(job.stopReason ? { kind: job.stopReason, timeLimit: job.timeLimit } : { kind: "failure", message: msg.message });
        }
        break;
      default:
        break;
    }
  }

  _finish(result) {
    const job = this.job;
    if (!job) return;
    this.job = null;
    this._clearTimers();
    job.resolve(result);
    this._dropRetired();
    this._refresh();
    this._ensureSpare();
    queueMicrotask(() => this._next());
  }

  /** Stop the running job of `owner` (or any running job when owner is omitted); queued jobs are cancelled. */
  stop(owner) {
    if (owner !== undefined) this.cancelQueued(owner);
    if (this.job && (owner === undefined || this.job.owner === owner)) this._interrupt(this.job, "stopped");
  }

  _interrupt(job, reason) {
    if (this.job !== job || job.stopping) return;
    job.stopReason = reason;
    this._clearTimers();
    const slot = job.slot;
    const spareReady = this.spare && this.spare.phase === "ready";
    if (!spareReady && slot.interrupt && slot === this.current && slot.phase !== "dead") {
      // isolated, and no spare to switch to: KeyboardInterrupt at the next bytecode, then a grace period
      job.stopping = true;
      this._refresh();
      slot.interrupt[0] = 2;
      this._timer(() => {
        if (this.job === job) this._hardStop(job, reason);
      }, GRACE_MS);
      return;
    }
    this._hardStop(job, reason);
  }

  /** End the job now: terminate its learner worker and carry on with the spare (or a new worker). */
  _hardStop(job, reason) {
    if (job.slot === this.current) this._replaceCurrent();
    else this._kill(job.slot);
    this._finish({ kind: reason, timeLimit: job.timeLimit });
  }
}
