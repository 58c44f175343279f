// The page side of Python: one grader worker (trusted) and learner workers (untrusted), behind one state machine.
//
// Workers (see protocol.js):
//   grader   grader_worker.js: holds each checkpoint's Check (plan + key, made by the build; the key never leaves it)
//            and judges run results.
//   pool     learner workers (worker.js), pristine (none ever ran learner code), booting or ready, oldest first:
//            the first boots with the page, a second once it is ready, and the others (up to `depth`, POOL_DEPTH)
//            one at a time once the learner edits code or runs it (engage).
// Every job, Run or Check, takes a pristine learner worker from the pool and gives it back to nobody: when the job
// ends, the page stops listening to it at once and terminates it (RETIRE_MS), and a new one boots. So whatever
// learner code does to its worker (patch Python or JavaScript, leave tasks or timers behind), no later Run or Check
// of any checkpoint ever runs there.
//
// States (`state`, shown as body[data-runtime] by runtimeAttribute):
//   off        nothing started                                        -> loading
//   booting    first boot: not everything a Check needs is loaded yet -> loading
//   idle       a Check would start at once (grader ready, a pristine learner worker ready) -> ready
//   warming    a Run would start at once, but a Check waits for the next learner worker to finish booting -> loading
//              (after jobs used up the ready ones)
//   running    a job runs                                             -> running
//   restarting after Stop or a crash, while no learner worker is ready for a Check yet -> restarting
//   failed     the first boot failed                                  -> failed
// body[data-python] = "ready" as soon as a learner worker can run code that does not import numpy (numpy and the
// grader may still be loading), "loading" otherwise. body[data-spare] = "ready" while at least two pristine learner
// workers are ready (two jobs in a row then start at once), body[data-pool] = "ready" while the whole pool is,
// "loading" otherwise. Jobs submitted before they can start wait in a queue (FIFO). Every job ends exactly once.

import { Req, Res, belongsTo, isPackedWheel, newRunId, request } from "./protocol.js";

/* global SETTINGS, WORKER_VERSION */
/** Seconds a free Run may take before it is stopped (Check uses the grader's limit). */
export const RUN_TIME_LIMIT = SETTINGS.runTimeLimit;
const SLACK_MS = 300; // message latency on top of a time limit
/** A shrink round with less than this left of the rounds' shared time limit is not started (the CLI's too). */
const LEAST_ROUND_MS = SETTINGS.leastRoundSeconds * 1000;
/** How many parts of one Check's run are judged early (the learner worker sends one per PROGRESS_AT mark). */
const EARLY_PARTS = 3;
/**
 * Milliseconds of a learner worker's speed measure (graders/hosts/pyodide.py speed) that its time limits are set for:
 * Chromium on an unloaded machine of the kind werkbank is built on takes less. A worker that takes longer, in a
 * slower engine (WebKit runs Python several times slower) or on a busier machine, gets time limits that many times
 * longer, up to MAX_SLOWNESS: a time limit is there to end endless loops, and code that finishes in time in one
 * browser must not be stopped in another.
 */
export const SPEED_BASE_MS = 20;
export const MAX_SLOWNESS = 8;
/**
 * How many pristine learner workers a page keeps, ready or booting. Each job takes one and each new one takes a boot
 * (~0.5-1 s of a core), so a learner who presses Check again as soon as each verdict shows (fixing a typo) uses them
 * up faster than they boot, and on two cores a boot beside a run slows the run. With six, five such Checks in a row
 * after an earlier one each find one ready and run with no boot beside them. Each costs a Python's memory (~25 MB in
 * Chromium) and a boot: a page keeps two until the learner edits code or runs it (Runtime.engage), so a visit that
 * only reads, or a reload soon after a visit, boots no more than before; they boot one at a time (see Runtime._fill).
 * JavaScriptCore gives only four WebAssembly memories of a process guard pages, so in WebKit the later Pythons run
 * slower code; the depth is the same there all the same, as with two the Checks pressed in a row wait for its slow
 * boots (docs/performance.md).
 */
export const POOL_DEPTH = 6;

/**
 * The pool depth for this device: POOL_DEPTH, or two where the browser reports 2 GiB of memory or less
 * (`navigator.deviceMemory`, which only Chromium has; elsewhere it is undefined and the depth is POOL_DEPTH).
 */
export function poolDepth(memoryGiB = typeof navigator !== "undefined" ? navigator.deviceMemory : undefined) {
  const gib = Number(memoryGiB);
  return Number.isFinite(gib) && gib > 0 && gib <= 2 ? 2 : POOL_DEPTH;
}

/** A time limit in seconds, `factor` times longer, to a tenth of a second (the learner may read it). */
function scaled(seconds, factor) {
  return Math.round(seconds * factor * 10) / 10;
}

/** The middle of three load measures (one can meet a moment's burst). */
function median3(readings) {
  return [...readings].sort((a, b) => a - b)[1];
}

/** How many times longer a job on a worker whose speed measure took `ms` may take (1 to MAX_SLOWNESS). */
export function slowness(ms) {
  const value = Number(ms);
  if (!Number.isFinite(value) || value <= 0) return 1;
  return Math.min(MAX_SLOWNESS, Math.max(1, value / SPEED_BASE_MS));
}
const PREPARE_LIMIT_MS = 60_000;
/** How much slower the page must run now than its job's time limit assumed for the limit to grow (_limitReached). */
const GROWN = 1.25;
/**
 * Milliseconds of a fixed piece of plain JavaScript on this thread (integer arithmetic: no allocation, so no
 * collector in it): the page's load measure. Its own figure means little; how much slower it runs than it did
 * earlier on the same page says how much busier the machine has become (Runtime._limitReached).
 */
export function loadMeter() {
  const start = performance.now();
  let x = 2463534242;
  for (let i = 0; i < 4_000_000; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
  }
  const took = performance.now() - start;
  return x === 0.5 ? -took : took; // (never true: the loop's result is used)
}
/**
 * How long a learner worker whose job has ended may stay alive before it is terminated (ms). Terminating a worker
 * tears down its isolate and its WebAssembly memory on a thread of its own, which on two cores takes the core a
 * running job needs. So the page stops listening to it at once; the termination waits this long, or until the job
 * running then ends (so its own leftover timers cannot busy a core for longer, and no job shares its core with it).
 */
export const RETIRE_MS = 250;
/** How long after a job's end the pool waits before it boots another worker while one or more are ready (ms). */
export const FILL_IDLE_MS = 400;
/**
 * The grader worker's boot always waits for the runtime the learner worker compiles (RUNTIME) and starts from it:
 * compiling the same 10 MB twice, side by side, gains nothing on any machine (the grader's own compile takes as long
 * as the wait) and on two cores halves the learner's share. It cannot depend on `hardwareConcurrency`: WebKit
 * reports a bucket, not the core count (4 on a two-core machine).
 *
 * stagedBoot(): whether, on top of that, a visit that compiles the runtime from scratch (`coldRuntime`, a first
 * visit) holds the grader until the learner's Python is usable: two Pythons starting at once on code not yet
 * optimised, beside V8's background compiles, are ready later, with longer main-thread tasks. With more cores each
 * boot has its own.
 */
export function stagedBoot(cores = typeof navigator !== "undefined" ? navigator.hardwareConcurrency : 0) {
  return !(Number(cores) > 2);
}
const STAGED = stagedBoot();

/**
 * Whether this browser's engine is JavaScriptCore (Safari, and every browser on iOS and iPadOS): only there does a
 * page's first run of new code take much longer than later ones (it optimises WebAssembly only as it runs hot and
 * keeps nothing between visits), so only there does the grader rehearse the page's Checks (Runtime._rehearse).
 * Elsewhere a rehearsal would spend CPU beside the learner and make no Check faster (docs/performance.md). A
 * performance choice, not a feature: a wrong answer only makes first Checks slower or costs a little CPU.
 */
export function rehearses(ua = typeof navigator !== "undefined" ? String(navigator.userAgent || "") : "") {
  return /AppleWebKit/.test(ua) && !/Chrome|Chromium|Edg|OPR|Android/.test(ua);
}

/**
 * How many WebAssembly memories JavaScriptCore gives one process bounds checks by guard pages (its "fast memories",
 * `maxNumWebAssemblyFastMemories`); a Python started while that many are held gets a memory whose bounds are checked
 * in code. The engine compiles code for each kind of memory apart, so the first run in a worker of the other kind
 * compiles everything hot again, on a core of its own: that Check took twice as long (docs/performance.md). See
 * Runtime._warmLearner.
 */
export const JSC_FAST_MEMORIES = 4;
/** How many times over a learner worker's rehearsal runs each reference (Runtime._warmLearner). */
export const WARMUP_ROUNDS = 2;

/** The id of a checkpoint's Check in one language: its plan (Runtime.plans) and its rehearsal (Runtime.rehearsed). */
function planId(lessonId, checkpoint, lang) {
  return `${lessonId}/${checkpoint}/${lang}`;
}

/** Map a runner state to the page's `data-runtime` value. */
export function runtimeAttribute(state) {
  return (
    {
      off: "loading",
      booting: "loading",
      warming: "loading",
      idle: "ready",
      running: "running",
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

/** A performance mark (the benchmark reads them to time each boot stage; tests read `detail`); never fails. */
function mark(name, detail) {
  try {
    performance.mark(name, detail === undefined ? undefined : { detail });
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
  constructor(role, worker) {
    this.role = role;
    this.worker = worker;
    this.bootId = newRunId();
    this.phase = "booting";
    this.dirty = false;
    this.percent = 0;
    this.peers = 0; // the page's other Python workers alive when this one was started (see JSC_FAST_MEMORIES)
    this.kept = new Set(); // planIds of the Check plans sent to it to parse ahead (Runtime._keepPlans)
  }
}

/**
 * Runs learner code in learner workers and grades it in the grader worker. Callbacks: onState(state),
 * onProgress(percent, stage), onNotice(key) for events the learner should hear about ("runtime_crashed").
 * createWorker(role) makes a Worker for "learner" or "grader" (tests pass a fake). `early`: a learner worker that is
 * booting already ({worker, bootId, lessonId, messages, errors}, see takeEarlyWorker): the first learner worker the
 * runtime needs is that one, when it was started for the same lesson. `coldRuntime`: this
 * page compiles Python's runtime from scratch (a first visit), so the grader waits longer (see stagedBoot).
 * `meter`: the load measure, milliseconds (loadMeter; tests pass a fake).
 */
export class Runtime {
  constructor({
    onState = () => {},
    onProgress = () => {},
    onNotice = () => {},
    createWorker = null,
    early = null,
    coldRuntime = false,
    staged = STAGED,
    depth = poolDepth(),
    meter = loadMeter,
    rehearse = rehearses(),
  } = {}) {
    /** How many pristine learner workers to keep (at least one; see POOL_DEPTH). */
    this.depth = Math.max(1, Math.floor(Number(depth)) || 1);
    this.early = early;
    this.coldRuntime = coldRuntime;
    this.staged = staged; // see stagedBoot
    this.warmList = null; // {lessonId, checkpoints}
    this.plans = new Map(); // "lesson/checkpoint/lang" -> Promise of {plan, plotCase, timeLimit}: the same every Check
    this.state = "off";
    this.onState = onState;
    this.onProgress = onProgress;
    this.onNotice = onNotice;
    this.createWorker = createWorker || ((role) => new Worker(workerUrl(role), { type: "module" }));
    this.meter = meter;
    this.meterBase = 0; // the quickest load measure so far (ms; see _limitReached)
    /** Pristine learner workers (Slot), booting or ready, oldest first: jobs take the first that fits. */
    this.pool = [];
    /** Learner workers whose job ended, terminated after RETIRE_MS or when the running job ends. */
    this.retired = [];
    this.retireTimer = 0;
    /** The runtime (WebAssembly.Module) the first learner worker compiled; each later learner worker instantiates it. */
    this.runtimeModule = null;
    /**
     * numpy's wheel as the grader worker unpacked it (protocol.js packWheel, its bytes in a Blob the page never reads):
     * each learner worker started after it came installs it from there instead of fetching and inflating the wheel.
     */
    this.numpyWheel = null;
    this.grader = null;
    this.started = false;
    this.everReady = false;
    this.job = null;
    this.jobEnded = 0; // Date.now() when the last job ended
    this.engaged = false; // the learner edited code or ran a job: the pool keeps `depth` workers (engage)
    this.rehearse = Boolean(rehearse); // see rehearses
    this.rehearsed = new Set(); // planIds the grader rehearsed or is rehearsing
    this.rehearsing = false; // a rehearsal is under way (_rehearse)
    this.rehearsalSources = new Map(); // planId -> the reference the grader rehearsed, as a learner worker runs it
    this.warmup = null; // a rehearsal in a learner worker under way: {slot, runs, runId, done, timer} (_warmLearner)
    this.warmupTries = 0;
    this.learnerWarm = false; // a learner worker's rehearsal came back (_warmLearner)
    this.keeping = null; // a plan a pristine learner worker parses ahead: {slot, runId} (_keepPlans)
    this.fillTimer = 0;
    this.queue = [];
    this.failure = null;
    this.timers = new Set();
    this.pending = new Map(); // grader request id -> {resolve, reject}
    // the language of the page: a Check's example data are in it (a job's own `lang` wins)
    this.lang =
      (typeof document !== "undefined" && document.documentElement && document.documentElement.lang) ||
      SETTINGS.fallbackLanguage;
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
    const learner = this.pool.some(pristine);
    return learner && (!this._needsGrader() || (this.grader && this.grader.phase === "ready"));
  }

  _usable(slot) {
    return Boolean(slot) && (slot.phase === "python" || slot.phase === "ready");
  }

  _refresh() {
    let state;
    if (this.failure) state = "failed";
    else if (this.job) state = "running";
    else if (!this.started) state = "off";
    else if (this._checkReady()) state = "idle";
    else if (!this.everReady) state = "booting";
    else state = this.replacing || !this.pool.some((s) => this._usable(s)) ? "restarting" : "warming";
    if (state === "idle") this.replacing = false;
    if (state === "idle" && !this.everReady) {
      this.everReady = true;
      mark("werkbank:ready");
    }
    this._setPython(this.pool.some((s) => this._usable(s)));
    this._set(state);
  }

  _setPython(ready) {
    if (ready && !this.pythonMarked) {
      this.pythonMarked = true;
      mark("werkbank:python");
    }
    if (typeof document === "undefined" || !document.body) return;
    document.body.dataset.python = ready ? "ready" : "loading";
    const count = this.pool.filter((s) => s.phase === "ready").length;
    document.body.dataset.spare = count >= Math.min(2, this.depth) ? "ready" : "loading";
    document.body.dataset.pool = count >= this._target() ? "ready" : "loading";
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
    if (!this.pool.length) this._grow();
    // The grader boots once the learner worker has compiled the runtime, or, on two cores and a cold visit, once its
    // Python is usable (see stagedBoot and _bootMessage). Its worker starts now all the same, held (no INIT yet):
    // what needs no Python, numpy's wheel fetched and unpacked, is done by then (grader_worker.js).
    if (this._needsGrader() && !this.grader) this.grader = this._spawn("grader", { held: true });
    this._refresh();
  }

  /** Create a worker for `role` and send it INIT, unless `held`: then INIT waits for _release(slot). */
  _spawn(role, { held = false } = {}) {
    if (role === "learner" && this.early) {
      const early = this.early;
      this.early = null;
      const lessonId = this.warmList ? this.warmList.lessonId : "";
      if (early.lessonId === lessonId) return this._adopt(early);
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
    const slot = new Slot(role, worker);
    slot.peers = this._pythons();
    worker.onmessage = (event) => this._receive(slot, event.data);
    worker.onerror = (event) => {
      if (event && typeof event.preventDefault === "function") event.preventDefault();
      this._crashed(slot, (event && event.message) || "worker error");
    };
    worker.onmessageerror = () => {};
    const lessonId = this.warmList ? this.warmList.lessonId : undefined;
    const payload = { ...(lessonId ? { lessonId } : {}), ...(role === "grader" ? { lang: String(this.lang) } : {}) };
    if (held) slot.held = payload;
    else this._init(slot, payload);
    return slot;
  }

  _init(slot, payload) {
    if (slot.role === "grader") mark("werkbank:grader:init"); // the grader's Python starts booting now
    const runtime = this.runtimeModule ? { runtime: this.runtimeModule } : {};
    const numpy = slot.role === "learner" && this.numpyWheel ? { numpy: this.numpyWheel } : {};
    slot.worker.postMessage(request(Req.INIT, slot.bootId, { ...payload, ...runtime, ...numpy }));
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
    const slot = new Slot("learner", early.worker);
    slot.bootId = early.bootId;
    slot.peers = this._pythons();
    early.worker.onmessage = (event) => this._receive(slot, event.data);
    early.worker.onerror = (event) => {
      if (event && typeof event.preventDefault === "function") event.preventDefault();
      this._crashed(slot, (event && event.message) || "worker error");
    };
    early.worker.onmessageerror = () => {};
    // after the caller has stored the slot (in the pool): the replayed messages are judged as if they came now
    queueMicrotask(() => {
      for (const msg of early.messages.splice(0)) this._receive(slot, msg);
      for (const message of early.errors.splice(0)) this._crashed(slot, message);
    });
    return slot;
  }

  /** How many of the page's Python workers are alive: booting, ready, running or retired (not yet terminated). */
  _pythons() {
    const slots = [this.grader, ...this.pool, this.job && this.job.slot, this.warmup && this.warmup.slot];
    return slots.filter((s) => s && s.phase !== "dead").length + this.retired.length;
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

  /** Take a learner worker whose job ended out of use now (the page ignores it from here); terminate it later. */
  _retire(slot) {
    if (!slot || slot.phase === "dead") return;
    slot.phase = "dead";
    this.retired.push(slot);
    clearTimeout(this.retireTimer);
    this.retireTimer = setTimeout(() => {
      if (!this.job) this._dropRetired(); // else when that job ends
    }, RETIRE_MS);
  }

  /** Terminate the retired learner workers. */
  _dropRetired() {
    clearTimeout(this.retireTimer);
    for (const slot of this.retired.splice(0)) this._kill(slot);
  }

  _bootFailed(message) {
    this.failure = message;
    clearTimeout(this.fillTimer);
    this._dropRetired();
    for (const slot of [...this.pool, this.grader, this.job && this.job.slot]) this._kill(slot);
    this._endWarmup();
    this.pool = [];
    this.grader = null;
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
      if (msg.type === Res.FAILURE) {
        waiter.reject(Object.assign(new Error(msg.message), { fatal: msg.fatal }));
        if (msg.fatal) this._crashed(slot, msg.message); // a broken interpreter judges nothing more: a new grader
      } else {
        waiter.resolve(msg);
      }
      return;
    }
    if (this.warmup && this.warmup.slot === slot) {
      if (belongsTo(msg, this.warmup.runId, "learner")) this._warmupMessage(msg);
      return;
    }
    const keeping = this.keeping;
    if (keeping && keeping.slot === slot && belongsTo(msg, keeping.runId, "learner")) {
      if (msg.type === Res.KEPT || msg.type === Res.FAILURE) {
        if (msg.type === Res.KEPT) mark("werkbank:learner:kept");
        this.keeping = null;
        this._keepPlans();
      }
      return;
    }
    const job = this.job;
    if (!job || job.slot !== slot || !belongsTo(msg, job.runId, "learner")) return; // stale, foreign or forged
    this._jobMessage(job, msg);
  }

  _bootMessage(slot, msg) {
    if (msg.type === Res.PYTHON || msg.type === Res.READY) mark(`werkbank:${slot.role}:${msg.type}`);
    if (msg.type === Res.READY && msg.sharedRuntime === true) mark(`werkbank:${slot.role}:shared-runtime`);
    if (msg.type === Res.READY && msg.sharedNumpy === true) mark(`werkbank:${slot.role}:shared-numpy`);
    if (msg.type === Res.READY && msg.sharedLibraries > 0) mark(`werkbank:${slot.role}:shared-libraries`);
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
        const waitForPython = this.coldRuntime && this.staged;
        if (slot === this.pool[0] && this.grader && !waitForPython && this._needsGrader()) this._release(this.grader);
      }
    } else if (msg.type === Res.NUMPY) {
      // numpy unpacked, from the (trusted) grader worker, for the learner workers started from now on
      if (slot.role === "grader" && !this.numpyWheel && isPackedWheel(msg.wheel)) {
        this.numpyWheel = msg.wheel;
        mark("werkbank:grader:numpy");
      }
    } else if (msg.type === Res.PYTHON) {
      if (slot.phase === "booting") slot.phase = "python";
      if (slot === this.pool[0] && this._needsGrader()) {
        if (!this.grader) this.grader = this._spawn("grader");
        else this._release(this.grader);
      }
    } else if (msg.type === Res.READY) {
      slot.phase = "ready";
      if (slot.role === "learner") {
        slot.slowness = slowness(msg.speed); // said before any learner code ran there
        // the page's load beside that measure: a time limit grows only by the load that came after it. The median of
        // three readings, a task each, as at the limit: one reading can meet a moment's burst, and a reading too high
        // here would keep the limit from growing for the load that comes later
        const readings = [];
        const read = () => {
          if (slot.phase === "dead") return;
          readings.push(this._measure());
          if (readings.length < 3) setTimeout(read, 0);
          else slot.meter = median3(readings);
        };
        setTimeout(read, 0);
      }
      slot.percent = 100;
      if (slot.role === "grader") {
        this._sendWarm();
        for (let i = 0; i < 3; i++) setTimeout(() => this._measure(), 0); // the quickest of three, a task each
      }
      this._progress("ready");
    } else if (msg.type === Res.FAILURE) {
      if (!this.everReady) this._bootFailed(msg.message);
      else this._crashed(slot, msg.message);
      return;
    }
    this._refresh();
    this._next();
    this._fill();
    this._rehearse();
    this._keepPlans();
  }

  _progress(stage) {
    if (this.state !== "booting" && this.state !== "restarting" && this.state !== "off") return;
    const parts = [this.pool[0], this._needsGrader() ? this.grader : null].filter(Boolean);
    if (!parts.length) return;
    const percent = parts.reduce((sum, s) => sum + s.percent, 0) / parts.length;
    this.onProgress(Math.round(percent), stage);
  }

  /**
   * Keep the pool's target of pristine learner workers (`_target`: two, `depth` once engaged), booting or ready, one
   * booting at a time: the first with the page, the others once the page has been ready once. No boot starts while learner code runs: it would take the core the run
   * needs. While one or more are ready, none starts while a Check is judged or within FILL_IDLE_MS of a job's end
   * either: a learner fixing a typo presses Check again as the verdict shows, and that Check then runs alone. With
   * none ready, the next one boots at once (while a Check is judged, too).
   */
  _fill() {
    if (this.failure || !this.started) return;
    if (this.job && !this.job.resultSeen) return; // learner code runs
    if (this.warmup) return; // a learner worker rehearses (_warmLearner): its end calls again
    if (!this.pool.length) {
      this._grow();
      return;
    }
    if (this.pool.length >= this._target() || !this.everReady) return;
    if (this.pool.some((s) => s.phase !== "ready")) return; // one boot at a time
    if (this.job) return; // judging: the next Check finds one ready, and runs alone; the job's end calls again
    const wait = this.jobEnded + FILL_IDLE_MS - Date.now();
    if (wait > 0) {
      clearTimeout(this.fillTimer);
      this.fillTimer = setTimeout(() => this._fill(), wait);
      return;
    }
    this._grow();
  }

  /** How many pristine learner workers the pool keeps now: `depth` once engaged, two before (at most `depth`). */
  _target() {
    return this.engaged ? this.depth : Math.min(2, this.depth);
  }

  /**
   * The learner began working on code (an edit in a checkpoint's editor; every Run and Check engages too): from now
   * on the pool keeps `depth` pristine learner workers, booting the others in the background while they type.
   */
  engage() {
    if (this.engaged) return;
    this.engaged = true;
    this._refresh();
    this._fill();
    this._rehearse();
  }

  /**
   * In JavaScriptCore (see rehearses), once the learner works on code, the grader rehearses each of the page's
   * Checks (the warm list's, one at a time, while no job runs or waits): it runs the checkpoint's reference over the
   * plan and judges that run, keeping nothing (Req.REHEARSE). A page's first Check of a checkpoint runs code its engine
   * has not made hot yet, which WebKit runs much slower than later Checks (docs/performance.md); the workers share
   * their compiled code, so the learner's first Check then runs like a later one. A Check pressed meanwhile waits for
   * at most one rehearsal's end to be judged. While no learner worker is ready (after a Stop, say) the boot the learner
   * waits for comes first: a rehearsal would take the cores it needs.
   */
  _rehearse() {
    if (!this.rehearse || !this.engaged || !this.warmList || this.failure || this.rehearsing) return;
    if (this.job || this.queue.length) return;
    if (!this.grader || this.grader.phase !== "ready") return;
    if (!this.pool.some((s) => s.phase === "ready")) return;
    const { lessonId, checkpoints } = this.warmList;
    const lang = String(this.lang);
    const checkpoint = checkpoints.find((c) => !this.rehearsed.has(planId(lessonId, c, lang)));
    if (checkpoint === undefined) {
      this._warmLearner();
      return;
    }
    const id = planId(lessonId, checkpoint, lang);
    this.rehearsed.add(id);
    this.rehearsing = true;
    const next = () => {
      this.rehearsing = false;
      this._rehearse();
    };
    const done = (msg) => {
      if (msg && typeof msg.source === "string") this.rehearsalSources.set(id, msg.source);
      next();
    };
    this._ask(Req.REHEARSE, { lessonId, checkpoint: String(checkpoint), lang }).then(done, next);
  }

  /**
   * In JavaScriptCore, a rehearsal in a learner worker too. The grader's rehearsals make hot the code of the grader's
   * kind of memory only, and a learner worker started while the page held JSC_FAST_MEMORIES or more Pythons runs the
   * other kind: its first Check compiled everything hot again. So once the grader has rehearsed every checkpoint and
   * the pool is full, the newest such worker runs each reference the grader rehearsed over its plan, one after
   * another, WARMUP_ROUNDS times over (after one round the first Checks there still compiled much of checkpoint 3's
   * code again), keeping nothing; then it is terminated (it is no longer pristine) and the pool boots its
   * replacement. No boot starts meanwhile, and a job queued meanwhile ends it at once, so the learner's Check runs
   * alone. Once one of its runs has come back the page does it no more; it gives up after two tries.
   */
  _warmLearner() {
    if (!this.rehearse || !this.engaged || !this.warmList || this.failure || this.warmup || this.learnerWarm) return;
    if (this.warmupTries >= 2 || this.rehearsing || this.job || this.queue.length) return;
    const { lessonId, checkpoints } = this.warmList;
    const lang = String(this.lang);
    const runs = checkpoints
      .map((c) => [c, this.rehearsalSources.get(planId(lessonId, c, lang))])
      .filter(([, source]) => typeof source === "string");
    if (!runs.length) return;
    if (this.pool.length < this._target() || this.pool.some((s) => s.phase !== "ready")) return;
    const slot = [...this.pool].reverse().find((s) => s.peers >= JSC_FAST_MEMORIES);
    if (!slot) return;
    this.warmupTries += 1;
    const rounds = Array.from({ length: WARMUP_ROUNDS }, () => runs).flat();
    this.warmup = { slot: this._take(slot), runs: rounds, runId: "", done: 0, timer: 0 };
    this._refresh();
    this._warmNext();
  }

  /** Send the learner worker's rehearsal its next run, or end it when none is left. */
  async _warmNext() {
    const warmup = this.warmup;
    if (!warmup) return;
    const next = warmup.runs.shift();
    if (!next) {
      this._endWarmup();
      return;
    }
    const [checkpoint, source] = next;
    const prepared = await this._plan(this.warmList.lessonId, checkpoint).catch(() => null);
    if (this.warmup !== warmup) return;
    if (!prepared || !prepared.plan) {
      this._warmNext();
      return;
    }
    warmup.runId = newRunId();
    clearTimeout(warmup.timer);
    const limit = prepared.timeLimit * 1000 * MAX_SLOWNESS + SLACK_MS;
    warmup.timer = setTimeout(() => this.warmup === warmup && this._endWarmup(), limit);
    const id = planId(this.warmList.lessonId, checkpoint, String(this.lang));
    const payload = { source, plan: prepared.plan, timeLimit: prepared.timeLimit, planId: id };
    warmup.slot.worker.postMessage(request(Req.RUN, warmup.runId, payload));
  }

  _warmupMessage(msg) {
    if (msg.type === Res.RESULT) {
      this.warmup.done += 1;
      this._warmNext();
    } else if (msg.type === Res.FAILURE) {
      this._endWarmup();
    }
  }

  /**
   * End the learner worker's rehearsal (if one is under way): its worker is terminated and, unless `refill` is false
   * (a job is about to start), the pool refills.
   */
  _endWarmup({ refill = true } = {}) {
    const warmup = this.warmup;
    if (!warmup) return;
    this.warmup = null;
    clearTimeout(warmup.timer);
    if (warmup.done > 0) this.learnerWarm = true;
    mark("werkbank:learner:rehearsed", { runs: warmup.done });
    this._kill(warmup.slot);
    this._refresh();
    if (refill) {
      this._fill();
      this._keepPlans();
    }
  }

  /**
   * Have the pristine learner workers parse the page's Check plans ahead of the click (Req.KEEP, one plan at a time,
   * oldest worker first, as jobs take them), so that a Check only runs its cases: parsing a plan of ~10^5 objects
   * took a tenth of a Check's run. Never beside a job or a learner worker's rehearsal, as a boot: the run needs the
   * cores. A job that takes the worker meanwhile runs after that one plan (or parses its own, if it came first).
   */
  _keepPlans() {
    if (this.keeping && this.keeping.slot.phase !== "dead" && !this.keeping.slot.dirty) return;
    this.keeping = null;
    if (this.failure || !this.warmList || this.job || this.warmup || this.queue.length) return;
    if (!this.grader || this.grader.phase !== "ready") return; // the plans come from the grader
    const { lessonId, checkpoints } = this.warmList;
    const lang = String(this.lang);
    for (const slot of this.pool) {
      if (slot.phase !== "ready" || slot.dirty) continue;
      const checkpoint = checkpoints.find((c) => !slot.kept.has(planId(lessonId, c, lang)));
      if (checkpoint === undefined) continue;
      const id = planId(lessonId, checkpoint, lang);
      slot.kept.add(id);
      const keeping = { slot, runId: newRunId() };
      this.keeping = keeping;
      const send = (prepared) => {
        if (this.keeping !== keeping) return;
        if (!prepared || !prepared.plan) {
          this.keeping = null; // nothing to parse (an author error): on to the next plan
          this._keepPlans();
        } else if (slot.phase === "ready" && !slot.dirty && !this.job && !this.warmup) {
          slot.worker.postMessage(request(Req.KEEP, keeping.runId, { plan: prepared.plan, planId: id }));
        } else {
          slot.kept.delete(id); // a job came first: asked for again once it ends
          this.keeping = null;
        }
      };
      this._plan(lessonId, checkpoint, lang).then(send, () => send(null));
      return;
    }
  }

  /** Start one more pristine learner worker at the pool's end. */
  _grow() {
    const slot = this._spawn("learner");
    if (slot) this.pool.push(slot);
  }

  /** The pristine learner worker a job of `type` could take now, or null: ready for a Check, usable for a Run. */
  _free(type) {
    const fits = (slot) => Boolean(slot) && (type === "check" ? slot.phase === "ready" : this._usable(slot));
    return this.pool.find((s) => s.phase === "ready") || this.pool.find(fits) || null;
  }

  /** Hand `slot` to a job: it leaves the pool for good. */
  _take(slot) {
    this.pool = this.pool.filter((s) => s !== slot);
    slot.dirty = true; // from now on learner code may run in it
    return slot;
  }

  _crashed(slot, message) {
    if (slot.phase === "dead") return;
    if (this.warmup && this.warmup.slot === slot) {
      this._endWarmup(); // a rehearsal only: nothing the learner asked for was lost
      return;
    }
    if (!this.everReady && slot.phase === "booting" && (slot === this.pool[0] || slot === this.grader)) {
      this._bootFailed(message);
      return;
    }
    const job = this.job;
    if (job && job.slot === slot && job.resultSeen) {
      // the learner's run of the Check is in: the verdict goes on without this worker (a shrink round it was
      // running ends now, and the verdict so far stands)
      this._kill(slot);
      if (job.shrinking && job.onResult) job.onResult(null);
      this._refresh();
      this._fill();
      return;
    }
    const hit = job && (job.slot === slot || slot.role === "grader");
    if (slot.role === "grader") {
      this._kill(slot);
      this.grader = this._spawn("grader");
      this.plans.clear();
      for (const waiter of this.pending.values()) waiter.reject(new Error(message));
      this.pending.clear();
    } else {
      this._kill(slot);
      this.pool = this.pool.filter((s) => s !== slot);
      if (hit) this.replacing = true;
    }
    if (hit) this._finish({ kind: "crashed", message });
    this.onNotice("runtime_crashed");
    this._refresh();
    this._next();
    this._fill();
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
    const id = planId(lessonId, checkpoint, lang);
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
   * after?, trace? ({steps}: a Run whose `after` runs under the line tracer), onOutput(stream, text, truncated),
   * onEarly?(verdict) (a Check: a failure found while the other cases still run, see _early)}. Resolves to {kind: "result"|"verdict"|"stopped"|"timeout"|"crashed"|
   * "failure"|"failed"|"cancelled", ...}; never rejects.
   */
  execute(job) {
    return new Promise((resolve) => {
      this.queue.push({ ...job, resolve });
      this.engaged = true; // see engage: the job's end fills the pool
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
    this._endWarmup({ refill: false }); // the learner's job runs alone
    const head = this.queue[0];
    if (head.type === "check" && (!this.grader || this.grader.phase !== "ready")) return;
    const slot = this._free(head.type);
    if (!slot) return;
    this.queue.shift();
    const job = head;
    job.runId = newRunId();
    job.slot = this._take(slot);
    job.slowness = slot.slowness || 1;
    job.bootSlowness = job.slowness;
    job.bootMeter = slot.meter || 0;
    job.stopReason = null;
    this.job = job;
    this._refresh();
    job.prepareTimer = this._timer(() => this._interrupt(job, "timeout"), PREPARE_LIMIT_MS);
    (job.type === "check" ? this._check(job) : this._run(job)).catch((error) => {
      if (this.job === job)
        this._finish(
          error && error.fatal
            ? { kind: "crashed", message: error.message }
            : { kind: "failure", message: String((error && error.message) || error) },
        );
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
    job.baseLimit = timeLimit;
    job.timeLimit = scaled(timeLimit, job.slowness); // the grader says it beside the plan, which the page does not parse
    mark("werkbank:check:run");
    const runJson = await this._learnerRun(job, plan, job.timeLimit, planId(job.lessonId, checkpoint, lang));
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
   * the same learner code ran there; each run starts from a fresh module), the grader picks. The first round also
   * calls the failing case on its own, first, so a failure that comes only from earlier calls is told as one.
   * All rounds together get the Check's time limit once (code that hangs on smaller inputs delays the verdict by at
   * most that); whatever goes wrong, the verdict so far stands.
   */
  async _shrink(job, where, runJson, verdict) {
    if (!verdict || verdict.status !== "fail" || !verdict.failure) return verdict;
    let msg = await this._ask(Req.SHRINK, { ...where, phase: "start", runJson, verdict }).catch(() => null);
    job.shrinking = true; // no output and no time-limit verdict from these runs
    const deadline = performance.now() + job.timeLimit * 1000;
    while (msg && msg.plan && this.job === job && job.slot.phase !== "dead") {
      verdict = msg.verdict;
      const left = deadline - performance.now();
      if (left < LEAST_ROUND_MS) break;
      const shrinkId = msg.shrinkId;
      job.runId = newRunId(); // each round is a run of its own for the learner worker
      let timer;
      const late = new Promise((resolve) => {
        timer = setTimeout(() => resolve(null), left + SLACK_MS);
      });
      const roundRun = await Promise.race([this._learnerRun(job, msg.plan, left / 1000), late]);
      clearTimeout(timer);
      if (this.job !== job) return verdict;
      if (roundRun === null) {
        // the learner's code is stuck on a candidate: that worker goes now, the verdict so far stands
        this._kill(job.slot);
        return verdict;
      }
      msg = await this._ask(Req.SHRINK, { ...where, phase: "pick", runJson: roundRun, verdict, shrinkId }).catch(
        () => null,
      );
    }
    return msg && msg.verdict ? msg.verdict : verdict;
  }

  async _run(job) {
    job.baseLimit = job.timeLimit || RUN_TIME_LIMIT;
    job.timeLimit = scaled(job.baseLimit, job.slowness);
    let plan = { mode: "run" };
    let plot = null;
    const checkpoint = typeof job.checkpoint === "string" ? job.checkpoint : null;
    if (checkpoint && typeof job.lessonId === "string" && this.grader) {
      // a checkpoint with a plot: after the module ran, call the plot's case too, so Run draws the learner's result
      const prepared =
        this.grader.phase === "ready" ? await this._plan(job.lessonId, checkpoint).catch(() => null) : null;
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
      // not parsed past the size the grader would read either (SETTINGS.runResultLimit, in bytes: UTF-8 takes at
      // least a byte a character)
      if (typeof runJson !== "string" || runJson.length > SETTINGS.runResultLimit) throw new Error("too large");
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

  /**
   * Send RUN to the job's learner worker; resolves to the run JSON text. `id`: the plan's planId, for a Check's plan
   * (the worker may have parsed it already, _keepPlans).
   */
  _learnerRun(job, plan, timeLimit, id) {
    return new Promise((resolve) => {
      job.onResult = resolve;
      const payload = { source: job.source, plan, timeLimit, ...(id ? { planId: id } : {}) };
      job.slot.worker.postMessage(request(Req.RUN, job.runId, payload));
    });
  }

  _jobMessage(job, msg) {
    switch (msg.type) {
      case Res.STARTED:
        if (job.type === "check" && !job.shrinking && msg.kept === true) mark("werkbank:check:kept");
        if (!job.stopReason && !job.limitTimer && !job.shrinking) {
          clearTimeout(job.prepareTimer);
          job.startedAt = performance.now();
          job.limitTimer = this._timer(() => this._limitReached(job), job.timeLimit * 1000 + SLACK_MS);
        }
        break;
      case Res.OUTPUT:
        if (job.onOutput && !job.shrinking) job.onOutput(msg.stream, msg.text, Boolean(msg.truncated));
        break;
      case Res.RESULT:
        clearTimeout(job.limitTimer);
        if (job.type === "check") job.resultSeen = true;
        if (job.onResult) job.onResult(msg.runJson);
        this._fill();
        break;
      case Res.PARTIAL:
        this._early(job, msg.runJson);
        break;
      case Res.FAILURE:
        if (msg.fatal)
          this._crashed(job.slot, msg.message); // ends the job as "crashed"
        else this._finish({ kind: "failure", message: msg.message });
        break;
      default:
        break;
    }
  }

  /**
   * A part of a Check's run (PARTIAL, graders/engine/runner.py PROGRESS_AT): the grader judges it while the other
   * cases still run, and the first failure it shows goes to job.onEarly, so a failing Check says so before its last
   * case has run. Parts are judged one at a time and in order, at most EARLY_PARTS a job, and none once a failure was
   * shown, the whole result is in, or shrinking began. Only a failure is ever shown early: the verdict of the whole
   * run always follows, and it alone counts (a pass needs every case).
   */
  _early(job, runJson) {
    if (job.type !== "check" || typeof job.onEarly !== "function" || job.early || job.resultSeen || job.shrinking)
      return;
    job.parts = (job.parts || 0) + 1;
    if (job.parts > EARLY_PARTS) return;
    const where = { lessonId: job.lessonId, checkpoint: String(job.checkpoint), lang: String(job.lang || this.lang) };
    const moot = () => this.job !== job || job.early || job.resultSeen;
    job.earlyParts = (job.earlyParts || Promise.resolve()).then(async () => {
      if (moot()) return;
      const msg = await this._ask(Req.EARLY, { ...where, runJson }).catch(() => null);
      const verdict = msg && msg.verdict;
      if (moot() || !verdict || typeof verdict !== "object" || verdict.status !== "fail") return;
      job.early = true;
      mark("werkbank:check:early");
      job.onEarly(verdict);
    });
  }

  /**
   * A job's run has reached its time limit. The limit was scaled by its worker's speed measure at boot, but a machine
   * can get busier after that (another program, another tab, the browser's own work), and code that finishes in time
   * on a quiet machine must not time out on a busy one: the same code gets the same verdict. So before the job is
   * stopped the page measures its own speed again (Runtime.meter); when it runs slower now than when the worker took
   * its measure (the page's reading then; else its quickest), the limit grows by as much (never past MAX_SLOWNESS
   * times the unscaled limit) and the run goes on, to be measured again at its new limit. An endless loop keeps one
   * core; the measure runs on another (or shares that one), so it still ends, at most that much later.
   */
  _limitReached(job) {
    if (this.job !== job || job.stopReason) return;
    const reading = median3([this._measure(), this._measure(), this._measure()]);
    // slower than when the worker measured its speed (which holds the load of that moment), else than the quickest
    const then = Math.max(this.meterBase, job.bootMeter);
    const now = Math.min(MAX_SLOWNESS, job.bootSlowness * Math.max(1, reading / then) || 1);
    const limit = scaled(job.baseLimit, now);
    const left = limit * 1000 + SLACK_MS - (performance.now() - job.startedAt);
    const grows = now > job.slowness * GROWN && left > 0;
    mark("werkbank:limit", { then, now: reading, limit: grows ? limit : null });
    if (grows) {
      job.slowness = now;
      job.timeLimit = limit;
      job.limitTimer = this._timer(() => this._limitReached(job), left);
      return;
    }
    this._interrupt(job, "timeout");
  }

  /** One load measure (ms); the page's quickest so far (`meterBase`, see _limitReached) is the lowest of them. */
  _measure() {
    const ms = this.meter();
    if (ms > 0 && !(ms >= this.meterBase && this.meterBase > 0)) this.meterBase = ms;
    return ms;
  }

  _finish(result) {
    const job = this.job;
    if (!job) return;
    this.job = null;
    this.jobEnded = Date.now();
    this._clearTimers();
    job.resolve(result);
    this._dropRetired(); // the workers of earlier jobs
    this._retire(job.slot); // this job's, after RETIRE_MS (or with the next job's end)
    this._refresh();
    this._fill();
    queueMicrotask(() => {
      this._next();
      this._rehearse();
      this._keepPlans();
    });
  }

  /** Stop the running job of `owner` (or any running job when owner is omitted); queued jobs are cancelled. */
  stop(owner) {
    if (owner !== undefined) this.cancelQueued(owner);
    if (this.job && (owner === undefined || this.job.owner === owner)) this._interrupt(this.job, "stopped");
  }

  /**
   * End a job now (Stop, or its time limit): its learner worker is terminated, and the next job takes a pristine one.
   * No job ever goes on in a worker learner code ran in, so nothing has to be interrupted and kept: every engine
   * stops the same way, with or without SharedArrayBuffer.
   */
  _interrupt(job, reason) {
    if (this.job !== job || job.stopReason) return;
    job.stopReason = reason;
    this._clearTimers();
    this.replacing = true;
    this._kill(job.slot);
    this._finish({ kind: reason, timeLimit: job.timeLimit });
  }
}
