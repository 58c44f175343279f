// Unit tests for the page's runner in web/src/runtime.js: a grader worker and learner workers, scripted fakes.
import assert from "node:assert/strict";
import { test } from "node:test";

globalThis.SETTINGS = {
  runTimeLimit: 30,
  leastRoundSeconds: 0.25,
  defaultTimeLimit: 5,
  outputLimit: 200000,
  fallbackLanguage: "en",
  runResultLimit: 1000,
}; // esbuild defines it in the site
const { Req, Res, packWheel, response } = await import("../src/protocol.js");
const {
  FILL_IDLE_MS,
  JSC_FAST_MEMORIES,
  MAX_SLOWNESS,
  POOL_DEPTH,
  RETIRE_MS,
  Runtime,
  SPEED_BASE_MS,
  WARMUP_ROUNDS,
  poolDepth,
  rehearses,
  runtimeAttribute,
  slowness,
} = await import("../src/runtime.js");

/** A stand-in Worker: records requests; `script(msg, worker)` answers them. */
class FakeWorker {
  constructor(role, script) {
    this.role = role;
    this.script = script;
    this.sent = [];
    this.terminated = false;
    this.onmessage = null;
    this.onerror = null;
  }
  postMessage(msg) {
    this.sent.push(msg);
    queueMicrotask(() => this.script(msg, this));
  }
  reply(msg) {
    if (!this.terminated && this.onmessage) this.onmessage({ data: msg });
  }
  terminate() {
    this.terminated = true;
  }
}

const PLAN = JSON.stringify({ mode: "check", cases: [{ id: "a" }], time_limit: 5 });

/**
 * Workers that boot at once. Learner RUN answers with `run(msg, worker)` (default: an ok result); KEEP with KEPT,
 * or with `keep(msg, worker)`.
 */
function scripted({ run, boot, keep } = {}) {
  return (msg, worker) => {
    if (msg.type === Req.KEEP) {
      if (keep) keep(msg, worker);
      else worker.reply(response(Res.KEPT, msg.runId, {}));
    } else if (msg.type === Req.INIT) {
      if (boot && boot(msg, worker) === false) return;
      worker.reply(response(Res.PROGRESS, msg.runId, { stage: "runtime", percent: 50, loaded: 0, total: 0 }));
      if (worker.role === "learner") worker.reply(response(Res.PYTHON, msg.runId, {}));
      worker.reply(response(Res.READY, msg.runId, {}));
    } else if (worker.role === "grader") {
      if (msg.type === Req.PREPARE)
        worker.reply(response(Res.PREPARED, msg.runId, { plan: PLAN, plotCase: "", timeLimit: 7 }));
      else if (msg.type === Req.JUDGE) {
        const run = JSON.parse(msg.runJson);
        worker.reply(response(Res.VERDICT, msg.runId, { verdict: { status: run.status === "ok" ? "pass" : "fail" } }));
      }
    } else if (run) {
      run(msg, worker);
    } else {
      worker.reply(response(Res.STARTED, msg.runId, {}));
      worker.reply(response(Res.OUTPUT, msg.runId, { stream: "stdout", text: "hi\n" }));
      worker.reply(response(Res.RESULT, msg.runId, { runJson: '{"status": "ok"}' }));
    }
  };
}

function makeRuntime(script, options = {}) {
  const workers = [];
  const states = [];
  const notices = [];
  const progress = [];
  const runtime = new Runtime({
    depth: 2, // most tests here are about one job's worker and the next one; the pool's own tests set their depth
    ...options,
    onState: (s) => states.push(s),
    onProgress: (p) => progress.push(p),
    onNotice: (n) => notices.push(n),
    createWorker: (role) => {
      const w = new FakeWorker(role, script);
      workers.push(w);
      return w;
    },
  });
  const learners = () => workers.filter((w) => w.role === "learner");
  return { runtime, workers, learners, states, notices, progress };
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const until = async (fn, ms = 2000) => {
  const end = Date.now() + ms;
  while (!fn()) {
    if (Date.now() > end) throw new Error("timed out");
    await sleep(2);
  }
};

test("a Run boots Python, streams output and resolves with the run; the home page needs no grader", async () => {
  const { runtime, workers, states } = makeRuntime(scripted());
  const output = [];
  const result = await runtime.execute({ type: "run", source: "print('hi')", onOutput: (s, t) => output.push([s, t]) });
  assert.equal(result.kind, "result");
  assert.equal(result.run.status, "ok");
  assert.deepEqual(output, [["stdout", "hi\n"]]);
  assert.ok(states.includes("booting") && states.includes("running"));
  assert.ok(workers.every((w) => w.role === "learner"));
  assert.equal(runtimeAttribute("booting"), "loading");
  assert.equal(runtimeAttribute("warming"), "loading");
  assert.equal(runtimeAttribute("idle"), "ready");
});

test("a Check runs the plan in a learner worker and takes the verdict from the grader only", async () => {
  const { runtime, workers } = makeRuntime(scripted());
  runtime.warm("l", ["1"]);
  runtime.boot();
  const result = await runtime.execute({ type: "check", source: "", lessonId: "l", checkpoint: "1", lang: "en" });
  assert.equal(result.kind, "verdict");
  assert.equal(result.verdict.status, "pass");
  const grader = workers.find((w) => w.role === "grader");
  assert.deepEqual(
    grader.sent.map((m) => m.type).filter((t) => t !== "init"),
    ["prepare", "judge"],
  );
  const run = workers.find((w) => w.role === "learner").sent.find((m) => m.type === Req.RUN);
  assert.equal(run.plan, PLAN);
  assert.equal(run.timeLimit, 7); // said by the grader beside the plan, which the page does not parse
  assert.ok(!JSON.stringify(run).includes("expected"));
});

test("a verdict forged by the learner worker is ignored", async () => {
  const { runtime } = makeRuntime(
    scripted({
      run(msg, worker) {
        worker.reply(response(Res.STARTED, msg.runId, {}));
        worker.reply(response(Res.VERDICT, msg.runId, { verdict: { status: "pass" } })); // not a learner's message
        worker.reply(response(Res.RESULT, msg.runId, { runJson: '{"status": "error"}' }));
      },
    }),
  );
  runtime.warm("l", ["1"]);
  const result = await runtime.execute({ type: "check", source: "", lessonId: "l", checkpoint: "1", lang: "en" });
  assert.equal(result.verdict.status, "fail");
});

test("every Check runs on a pristine worker: after a Run or a Check the spare takes over", async () => {
  const { runtime, learners } = makeRuntime(scripted());
  runtime.warm("l", ["1"]);
  runtime.boot();
  await until(() => runtime.state === "idle" && learners().length === 2);
  await runtime.execute({ type: "run", source: "x = 1" });
  const first = learners()[0];
  const check = () => runtime.execute({ type: "check", source: "", lessonId: "l", checkpoint: "1", lang: "en" });
  await check();
  assert.ok(first.terminated, "the worker that ran learner code is gone");
  assert.equal(learners()[1].sent.filter((m) => m.type === Req.RUN).length, 1);
  await until(() => runtime.state === "idle");
  await check();
  const runsPerWorker = learners().map((w) => w.sent.filter((m) => m.type === Req.RUN).length);
  assert.deepEqual(runsPerWorker.slice(0, 3), [1, 1, 1]);
});

test("every Check of a checkpoint runs the one plan the grader holds for it: prepared once, the same cases each time", async () => {
  const { runtime, workers, learners } = makeRuntime(scripted());
  runtime.warm("l", ["1"]);
  runtime.boot();
  const check = (lang) => runtime.execute({ type: "check", source: "", lessonId: "l", checkpoint: "1", lang });
  for (let i = 0; i < 3; i++) {
    await until(() => runtime.state === "idle");
    assert.equal((await check("en")).verdict.status, "pass");
  }
  const grader = workers.find((w) => w.role === "grader");
  const prepares = grader.sent.filter((m) => m.type === Req.PREPARE);
  assert.equal(prepares.length, 1, "prepared once, not once per Check");
  assert.ok(!("seed" in prepares[0]), "no seed: the cases are the build's");
  const plans = learners().flatMap((w) => w.sent.filter((m) => m.type === Req.RUN).map((m) => m.plan));
  assert.deepEqual(plans, [PLAN, PLAN, PLAN]);
  await until(() => runtime.state === "idle");
  await check("nl"); // another language's example data: its own plan
  assert.equal(grader.sent.filter((m) => m.type === Req.PREPARE).length, 2);
});

test("a job's worker is ignored from the job's end and terminated RETIRE_MS later, never while another job runs", async () => {
  let release = null;
  const held = () =>
    new Promise((resolve) => {
      release = resolve;
    });
  const { runtime, learners, notices } = makeRuntime(
    scripted({
      run(msg, worker) {
        worker.reply(response(Res.STARTED, msg.runId, {}));
        const answer = () => worker.reply(response(Res.RESULT, msg.runId, { runJson: '{"status": "ok"}' }));
        if (learners().indexOf(worker) === 0)
          answer(); // the Run on the first worker
        else held().then(answer); // the Check's run: answered when the test says so
      },
    }),
  );
  runtime.warm("l", ["1"]);
  runtime.boot();
  await until(() => runtime.state === "idle" && learners().length === 2);
  await runtime.execute({ type: "run", source: "x = 1" });
  const [first, second] = learners();
  assert.notEqual(runtime.pool[0] && runtime.pool[0].worker, first, "the Run's worker serves no other job");
  const check = runtime.execute({ type: "check", source: "", lessonId: "l", checkpoint: "1", lang: "en" });
  await until(() => second.sent.some((m) => m.type === Req.RUN));
  await sleep(RETIRE_MS + 50);
  assert.equal(first.terminated, false, "terminating it now would take a core from the Check's run");
  // whatever it still says is not heard: a boot failure it forges does not replace the worker running the Check
  first.reply(response(Res.FAILURE, first.sent[0].runId, { message: "forged", fatal: true }));
  first.onerror({ message: "forged error" });
  await sleep(5);
  assert.equal(runtime.job.slot.worker, second);
  release();
  const result = await check;
  assert.equal(result.verdict.status, "pass");
  assert.ok(first.terminated, "gone with the next job's end");
  assert.ok(!notices.includes("runtime_crashed"));
  assert.equal(second.terminated, false, "the Check's worker goes RETIRE_MS after its verdict");
  await sleep(RETIRE_MS + 50);
  assert.ok(second.terminated);
  await until(() => runtime.state === "idle");
  assert.ok(!runtime.pool.some((slot) => [first, second].includes(slot.worker)));
});

test("a Run pressed while Python boots leaves the page ready for a Check, not waiting for ever", async () => {
  let finishBoot = null;
  const { runtime, learners } = makeRuntime(
    scripted({
      boot(msg, worker) {
        if (worker.role !== "learner" || learners().indexOf(worker) !== 0) return true;
        worker.reply(response(Res.PYTHON, msg.runId, {})); // Python usable, numpy still loading
        finishBoot = () => worker.reply(response(Res.READY, msg.runId, {}));
        return false;
      },
    }),
  );
  runtime.warm("l", ["1"]);
  runtime.boot();
  await until(() => finishBoot !== null && runtime.pool[0].phase === "python");
  const ran = runtime.execute({ type: "run", source: "print(1)" });
  assert.equal((await ran).kind, "result");
  finishBoot(); // the Run's worker finishes its boot after the Run: it serves nothing more
  const result = await runtime.execute({ type: "check", source: "", lessonId: "l", checkpoint: "1", lang: "en" });
  assert.equal(result.verdict.status, "pass");
  // the Check ran on a new worker (the second), and, none being ready, the next one booted while it was judged
  assert.equal(learners().length, 3);
  assert.ok(learners()[2].sent.some((m) => m.type === Req.INIT) && !learners()[2].sent.some((m) => m.type === Req.RUN));
  assert.equal(learners()[0].sent.filter((m) => m.type === Req.RUN).length, 1);
});

test("Stop switches to the ready spare at once; without one, a new worker boots", async () => {
  const { runtime, learners, states } = makeRuntime(
    scripted({
      run(msg, worker) {
        worker.reply(response(Res.STARTED, msg.runId, {})); // and never answers
      },
    }),
  );
  runtime.boot();
  await until(() => runtime.state === "idle" && learners().length === 2);
  const pending = runtime.execute({ type: "run", source: "while True: pass", owner: "me" });
  await until(() => runtime.state === "running");
  runtime.stop("me");
  assert.equal((await pending).kind, "stopped");
  assert.equal(runtime.state, "idle", "the spare was ready: no restart to wait for");
  assert.ok(learners()[0].terminated);
  // now no spare is ready yet: a Stop has to wait for a new worker
  const again = runtime.execute({ type: "run", source: "while True: pass", owner: "me" });
  await until(() => runtime.state === "running");
  states.length = 0;
  runtime.stop("me");
  assert.equal((await again).kind, "stopped");
  await until(() => runtime.state === "idle");
});

test("without a ready worker, Stop ends the job at once and a new worker boots (no interrupt, in every engine)", async () => {
  const { runtime, learners, states } = makeRuntime(
    scripted({
      run(msg, worker) {
        worker.reply(response(Res.STARTED, msg.runId, {}));
      },
    }),
  );
  runtime.boot();
  await until(() => runtime.state === "idle");
  const first = learners()[0];
  runtime._fill = () => {}; // no spare
  for (const slot of runtime.pool.splice(1)) runtime._kill(slot);
  const pending = runtime.execute({ type: "run", source: "...", owner: "me" });
  await until(() => runtime.state === "running");
  runtime.stop("me");
  assert.equal((await pending).kind, "stopped");
  assert.ok(first.terminated);
  assert.ok(!first.sent.some((m) => "interruptBuffer" in m), "no SharedArrayBuffer needed");
  delete runtime._fill;
  runtime._fill();
  await until(() => runtime.state === "idle");
  assert.ok(states.includes("restarting"));
});

test("a worker crash ends the job as crashed, says so, and the next job runs", async () => {
  let crash = true;
  const { runtime, notices } = makeRuntime(
    scripted({
      run(msg, worker) {
        if (crash) {
          crash = false;
          worker.onerror({ message: "boom", preventDefault() {} });
          return;
        }
        worker.reply(response(Res.STARTED, msg.runId, {}));
        worker.reply(response(Res.RESULT, msg.runId, { runJson: '{"status": "ok"}' }));
      },
    }),
  );
  const first = await runtime.execute({ type: "run", source: "" });
  assert.equal(first.kind, "crashed");
  assert.deepEqual(notices, ["runtime_crashed"]);
  assert.equal((await runtime.execute({ type: "run", source: "" })).kind, "result");
});

test("a failed first boot fails queued jobs, and the next job boots again", async () => {
  let fail = true;
  const { runtime, states } = makeRuntime(
    scripted({
      boot(msg, worker) {
        if (!fail) return true;
        worker.reply(response(Res.FAILURE, msg.runId, { message: "no wasm", fatal: true }));
        return false;
      },
    }),
  );
  const result = await runtime.execute({ type: "run", source: "" });
  assert.equal(result.kind, "failed");
  assert.equal(runtime.state, "failed");
  assert.ok(states.includes("failed"));
  fail = false;
  assert.equal((await runtime.execute({ type: "run", source: "" })).kind, "result");
});

test("a Run's time limit stops it as timeout", async () => {
  const { runtime } = makeRuntime(
    scripted({
      run(msg, worker) {
        worker.reply(response(Res.STARTED, msg.runId, {}));
      },
    }),
  );
  const result = await runtime.execute({ type: "run", source: "", timeLimit: 0.01 });
  assert.equal(result.kind, "timeout");
});

test("queued jobs of an owner are cancelled by stop(owner)", async () => {
  const { runtime } = makeRuntime(scripted({ boot: () => false })); // never boots
  const pending = runtime.execute({ type: "run", source: "", owner: "a" });
  runtime.stop("a");
  assert.equal((await pending).kind, "cancelled");
});

test("Python is usable before a Check could run: Runs start on PYTHON, Checks wait for READY", async () => {
  const { runtime } = makeRuntime(
    scripted({
      boot(msg, worker) {
        worker.reply(response(Res.PYTHON, msg.runId, {}));
        worker.readyLater = () => worker.reply(response(Res.READY, msg.runId, {}));
        return false;
      },
    }),
  );
  runtime.boot();
  const ran = await runtime.execute({ type: "run", source: "print(1)" });
  assert.equal(ran.kind, "result");
  assert.equal(runtime.state, "booting");
});

test("a failing generated case is shrunk: the grader proposes and picks, the Check's learner worker runs the rounds", async () => {
  const fail = { status: "fail", failure: { case: "g-1", generated: true } };
  const base = scripted();
  const outputs = [];
  const { runtime, workers } = makeRuntime((msg, worker) => {
    if (worker.role === "grader" && msg.type === Req.JUDGE) {
      worker.reply(response(Res.VERDICT, msg.runId, { verdict: fail }));
    } else if (worker.role === "grader" && msg.type === Req.SHRINK) {
      const first = msg.phase === "start";
      const verdict = first ? msg.verdict : { ...msg.verdict, failure: { ...msg.verdict.failure, shrunk: true } };
      worker.reply(
        response(Res.SHRUNK, msg.runId, {
          verdict,
          plan: first ? '{"mode": "check", "cases": []}' : "",
          shrinkId: "1",
        }),
      );
    } else {
      base(msg, worker);
    }
  });
  runtime.warm("l", ["1"]);
  const result = await runtime.execute({
    type: "check",
    source: "",
    lessonId: "l",
    checkpoint: "1",
    lang: "en",
    onOutput: (_s, t) => outputs.push(t),
  });
  assert.equal(result.verdict.failure.shrunk, true);
  const learner = workers.find((w) => w.role === "learner" && w.sent.some((m) => m.type === Req.RUN));
  assert.equal(learner.sent.filter((m) => m.type === Req.RUN).length, 2, "the Check and one shrink round");
  assert.deepEqual(outputs, ["hi\n"], "a shrink round's output is not shown");
});

test("a grader whose interpreter failed fatally is replaced: the next Check is judged by a new one", async () => {
  let judged = 0;
  const base = scripted();
  const { runtime, workers, notices } = makeRuntime((msg, worker) => {
    if (worker.role === "grader" && msg.type === Req.JUDGE && ++judged === 1) {
      worker.reply(response(Res.FAILURE, msg.runId, { message: "Pyodide has suffered a fatal error", fatal: true }));
    } else {
      base(msg, worker);
    }
  });
  runtime.warm("l", ["1"]);
  const check = { type: "check", source: "", lessonId: "l", checkpoint: "1", lang: "en" };
  assert.equal((await runtime.execute(check)).kind, "crashed");
  assert.ok(notices.includes("runtime_crashed"));
  const second = await runtime.execute(check);
  assert.equal(second.verdict.status, "pass");
  const graders = workers.filter((w) => w.role === "grader");
  assert.equal(graders.length, 2);
  assert.ok(graders[0].terminated, "the broken grader was terminated");
  assert.equal(graders[1].sent.filter((m) => m.type === Req.JUDGE).length, 1, "the new grader judged the second Check");
});

test("a learner worker that dies after its Check's run is in does not take the verdict with it", async () => {
  const fail = { status: "fail", failure: { case: "g-1", generated: true } };
  const base = scripted();
  const { runtime, notices } = makeRuntime((msg, worker) => {
    if (worker.role === "grader" && msg.type === Req.JUDGE) {
      worker.reply(response(Res.VERDICT, msg.runId, { verdict: fail }));
    } else if (worker.role === "grader" && msg.type === Req.SHRINK) {
      worker.reply(
        response(Res.SHRUNK, msg.runId, {
          verdict: msg.verdict,
          plan: '{"mode": "check", "cases": []}',
          shrinkId: "1",
        }),
      );
    } else if (worker.role === "learner" && msg.type === Req.RUN && msg.plan.includes('"cases": []')) {
      worker.onerror({ message: "out of memory in a shrink round", preventDefault() {} }); // the round's run
    } else {
      base(msg, worker);
    }
  });
  runtime.warm("l", ["1"]);
  const result = await runtime.execute({ type: "check", source: "", lessonId: "l", checkpoint: "1", lang: "en" });
  assert.equal(result.kind, "verdict");
  assert.deepEqual(result.verdict, fail);
  assert.deepEqual(notices, []);
  assert.equal((await runtime.execute({ type: "run", source: "" })).kind, "result");
});

test("a Run's result longer than the grader would read is not parsed: it is an unreadable result", async () => {
  const { runtime } = makeRuntime(
    scripted({
      run(msg, worker) {
        worker.reply(response(Res.STARTED, msg.runId, {}));
        worker.reply(
          response(Res.RESULT, msg.runId, { runJson: JSON.stringify({ status: "ok", pad: "x".repeat(2000) }) }),
        );
      },
    }),
  );
  const result = await runtime.execute({ type: "run", source: "" });
  assert.equal(result.kind, "result");
  assert.equal(result.run.status, "error");
  assert.match(result.run.traceback, /not readable/);
});

/** An early learner worker as web/src/early.js leaves it: booting, its replies so far buffered. */
function earlyWorker(lessonId, script = scripted()) {
  const worker = new FakeWorker("learner", () => {});
  const early = { worker, bootId: "early-boot-id-0001", interrupt: null, lessonId, messages: [], errors: [] };
  worker.onmessage = (event) => early.messages.push(event.data);
  // it had answered INIT before the page's bundle ran: PROGRESS and PYTHON are waiting in the buffer
  worker.script = script;
  worker.postMessage({ schema: 2, type: Req.INIT, runId: early.bootId, lessonId });
  return early;
}

/** A Runtime given `early`, whose own workers are scripted fakes recorded in `workers`. */
function runtimeWith(early) {
  const workers = [];
  const runtime = new Runtime({
    early,
    createWorker: (role) => {
      const w = new FakeWorker(role, scripted());
      workers.push(w);
      return w;
    },
  });
  return { runtime, workers };
}

test("the learner worker early.js started is adopted, with the messages it sent before the page ran", async () => {
  const early = earlyWorker("l");
  await sleep(1);
  assert.ok(early.messages.some((m) => m.type === Res.PYTHON)); // said before anyone listened
  const { runtime, workers } = runtimeWith(early);
  runtime.warm("l", ["1"]);
  runtime.boot();
  assert.equal(runtime.pool[0].worker, early.worker);
  await until(() => runtime.state === "idle");
  assert.deepEqual(workers.map((w) => w.role).slice(0, 1), ["grader"]); // no second learner worker for the first boot
  const result = await runtime.execute({ type: "check", source: "", lessonId: "l", checkpoint: "1", lang: "en" });
  assert.equal(result.verdict.status, "pass");
  assert.ok(early.worker.sent.some((m) => m.type === Req.RUN));
});

test("an early learner worker started for another lesson is terminated, not used", async () => {
  const early = earlyWorker("other");
  const { runtime, workers } = runtimeWith(early);
  const learners = () => workers.filter((w) => w.role === "learner");
  runtime.warm("l", ["1"]);
  runtime.boot();
  assert.ok(early.worker.terminated);
  assert.equal(runtime.pool[0].worker, learners()[0]);
  await until(() => runtime.state === "idle");
});

test("a first visit holds the grader until the learner's Python is usable only where there are two cores or fewer", async () => {
  const { stagedBoot } = await import("../src/runtime.js");
  assert.equal(stagedBoot(2), true);
  assert.equal(stagedBoot(1), true);
  assert.equal(stagedBoot(undefined), true); // unknown: stage
  assert.equal(stagedBoot(4), false);
});

test("staged: the grader worker starts with the learner but gets INIT only when the learner's Python is usable", async () => {
  let releasePython = null;
  const script = scripted({
    boot: (msg, worker) => {
      if (worker.role !== "learner") return true;
      releasePython = () => {
        worker.reply(response(Res.PYTHON, msg.runId, {}));
        worker.reply(response(Res.READY, msg.runId, {}));
      };
      return false; // the learner's Python comes when the test says so
    },
  });
  const { runtime, workers } = makeRuntime(script);
  runtime.warm("lesson-x", ["1"]);
  runtime.boot();
  await sleep(10);
  const grader = workers.find((w) => w.role === "grader");
  assert.ok(grader, "the grader worker exists from the start (it fetches and unpacks what needs no Python)");
  assert.deepEqual(
    grader.sent.map((m) => m.type),
    [],
    "no INIT before the learner's Python is usable",
  );
  assert.equal(runtime.state, "booting");
  releasePython();
  await until(() => grader.sent.some((m) => m.type === Req.INIT));
  assert.equal(grader.sent.filter((m) => m.type === Req.INIT).length, 1);
  assert.equal(grader.sent[0].lessonId, "lesson-x");
  await until(() => runtime.state === "idle");
});

test("staged: the grader gets INIT with the runtime the learner compiled, or on a cold visit once Python is usable", async () => {
  const compiled = new WebAssembly.Module(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0]));
  for (const coldRuntime of [false, true]) {
    let releasePython = null;
    const script = scripted({
      boot: (msg, worker) => {
        if (worker.role !== "learner") return true;
        worker.reply(response(Res.RUNTIME, msg.runId, { module: compiled }));
        releasePython = () => {
          worker.reply(response(Res.PYTHON, msg.runId, {}));
          worker.reply(response(Res.READY, msg.runId, {}));
        };
        return false; // the learner's Python comes when the test says so
      },
    });
    const { runtime, workers } = makeRuntime(script, { coldRuntime });
    runtime.warm("lesson-x", ["1"]);
    runtime.boot();
    await sleep(10);
    const grader = workers.find((w) => w.role === "grader");
    const inits = () => grader.sent.filter((m) => m.type === Req.INIT);
    if (coldRuntime) {
      assert.deepEqual(inits(), [], "a cold visit: no INIT before the learner's Python is usable");
    } else {
      assert.equal(inits().length, 1, "a warm visit: INIT as soon as the learner's runtime is compiled");
      assert.equal(inits()[0].runtime, compiled);
    }
    releasePython();
    await until(() => runtime.state === "idle");
    assert.equal(inits().length, 1, "one INIT either way");
    assert.equal(inits()[0].runtime, compiled);
  }
});

test("more than two cores: the grader still gets INIT only with the runtime the learner compiled, cold or warm", async () => {
  // compiling the runtime twice side by side gains nothing (and WebKit's hardwareConcurrency is not a core count):
  // a separate instance of runtime.js, loaded where the browser reports four cores, as WebKit does on two
  const had = Object.getOwnPropertyDescriptor(globalThis, "navigator");
  Object.defineProperty(globalThis, "navigator", {
    value: { hardwareConcurrency: 4 },
    configurable: true,
    writable: true,
  });
  let FourCores;
  try {
    FourCores = (await import("../src/runtime.js?cores=4")).Runtime;
  } finally {
    if (had) Object.defineProperty(globalThis, "navigator", had);
    else delete globalThis.navigator;
  }
  const compiled = new WebAssembly.Module(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0]));
  for (const coldRuntime of [false, true]) {
    let releaseRuntime = null;
    const script = scripted({
      boot: (msg, worker) => {
        if (worker.role !== "learner") return true;
        releaseRuntime = () => {
          worker.reply(response(Res.RUNTIME, msg.runId, { module: compiled }));
          worker.reply(response(Res.PYTHON, msg.runId, {}));
          worker.reply(response(Res.READY, msg.runId, {}));
        };
        return false; // the learner's runtime comes when the test says so
      },
    });
    const workers = [];
    const runtime = new FourCores({
      coldRuntime,
      createWorker: (role) => {
        const w = new FakeWorker(role, script);
        workers.push(w);
        return w;
      },
    });
    runtime.warm("lesson-x", ["1"]);
    runtime.boot();
    await sleep(10);
    const grader = workers.find((w) => w.role === "grader");
    const inits = () => grader.sent.filter((m) => m.type === Req.INIT);
    assert.deepEqual(inits(), [], "no INIT before the learner's runtime is compiled");
    releaseRuntime();
    await until(() => runtime.state === "idle");
    assert.equal(inits().length, 1);
    assert.equal(inits()[0].runtime, compiled, "the grader instantiates the learner's runtime, compiling nothing");
  }
});

test("a request to a held grader worker sends its INIT first", async () => {
  const script = scripted({ boot: (_msg, worker) => worker.role !== "learner" });
  const { runtime, workers } = makeRuntime(script);
  runtime.warm("lesson-x", ["1"]);
  runtime.boot();
  await sleep(10);
  const grader = workers.find((w) => w.role === "grader");
  assert.deepEqual(grader.sent, []);
  const plan = runtime._plan("lesson-x", "1", 7);
  await until(() => grader.sent.length >= 2);
  assert.deepEqual(
    grader.sent.slice(0, 2).map((m) => m.type),
    [Req.INIT, Req.PREPARE],
  );
  assert.equal((await plan).timeLimit, 7);
});

test("the runtime the first learner worker compiled goes to the grader and every later learner worker", async () => {
  const compiled = new WebAssembly.Module(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0])); // an empty module
  const forged = new WebAssembly.Module(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0]));
  let first = true;
  const script = scripted({
    boot: (msg, worker) => {
      if (worker.role !== "learner" || !first) return true;
      first = false;
      worker.reply(response(Res.RUNTIME, msg.runId, { module: { not: "a module" } })); // ignored: not a module
      worker.reply(response(Res.RUNTIME, msg.runId, { module: compiled }));
      worker.reply(response(Res.PYTHON, msg.runId, {}));
      // after PYTHON learner code may run: whatever it sends is not taken
      worker.reply(response(Res.RUNTIME, msg.runId, { module: forged }));
      worker.reply(response(Res.READY, msg.runId, {}));
      return false;
    },
  });
  const { runtime, workers, learners } = makeRuntime(script);
  runtime.warm("l", ["1"]);
  runtime.boot();
  await until(() => runtime.state === "idle" && learners().length === 2);
  const init = (w) => w.sent.find((m) => m.type === Req.INIT);
  assert.equal(init(learners()[0]).runtime, undefined, "the first compiles its own");
  assert.equal(init(workers.find((w) => w.role === "grader")).runtime, compiled, "the held grader gets it at INIT");
  assert.equal(init(learners()[1]).runtime, compiled, "so does the spare");
  const check = () => runtime.execute({ type: "check", source: "", lessonId: "l", checkpoint: "1", lang: "en" });
  await check();
  await check(); // each job takes a pristine worker: new ones boot after them
  await until(() => learners().length >= 4);
  for (const later of learners().slice(2)) assert.equal(init(later).runtime, compiled, "and every worker after");
});

test("a runtime sent by a worker that is past its boot, or by the grader, is not kept", async () => {
  const module = new WebAssembly.Module(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0]));
  const script = scripted({
    boot: (msg, worker) => {
      worker.reply(response(Res.PROGRESS, msg.runId, { stage: "runtime", percent: 50, loaded: 0, total: 0 }));
      if (worker.role === "learner") worker.reply(response(Res.PYTHON, msg.runId, {}));
      worker.reply(response(Res.RUNTIME, msg.runId, { module })); // the learner: after PYTHON; the grader: never
      worker.reply(response(Res.READY, msg.runId, {}));
      return false;
    },
  });
  const { runtime, learners } = makeRuntime(script);
  runtime.warm("l", ["1"]);
  runtime.boot();
  await until(() => runtime.state === "idle" && learners().length === 2);
  assert.equal(runtime.runtimeModule, null);
  assert.equal(learners()[1].sent.find((m) => m.type === Req.INIT).runtime, undefined);
});

test("numpy as the grader worker unpacked it goes to every learner worker started after it, never from a learner", async () => {
  const wheel = packWheel({
    name: "numpy",
    fileName: "numpy-2-py3-none-any.whl",
    files: [{ path: "numpy/__init__.py", data: new Uint8Array([35, 10]) }],
  });
  const forged = packWheel({
    name: "numpy",
    fileName: "f.whl",
    files: [{ path: "numpy/x.py", data: new Uint8Array(1) }],
  });
  const script = scripted({
    boot: (msg, worker) => {
      worker.reply(response(Res.PROGRESS, msg.runId, { stage: "runtime", percent: 50, loaded: 0, total: 0 }));
      if (worker.role === "learner") {
        worker.reply(response(Res.PYTHON, msg.runId, {}));
        worker.reply(response(Res.NUMPY, msg.runId, { wheel: forged })); // not a grader's: dropped
        worker.reply(response(Res.READY, msg.runId, {}));
        return false;
      }
      worker.reply(response(Res.READY, msg.runId, {}));
      worker.reply(response(Res.NUMPY, msg.runId, { wheel: { ...wheel, sizes: [3] } })); // ignored: sizes do not add up
      worker.reply(response(Res.NUMPY, msg.runId, { wheel }));
      worker.reply(response(Res.NUMPY, msg.runId, { wheel: forged })); // ignored: only the first is kept
      return false;
    },
  });
  const { runtime, workers, learners } = makeRuntime(script);
  runtime.warm("l", ["1"]);
  runtime.boot();
  await until(() => runtime.state === "idle" && learners().length === 2);
  assert.equal(runtime.numpyWheel, wheel);
  const init = (w) => w.sent.find((m) => m.type === Req.INIT);
  assert.equal(init(learners()[0]).numpy, undefined, "the first starts before the grader has numpy");
  assert.equal(init(workers.find((w) => w.role === "grader")).numpy, undefined, "the grader unpacks its own");
  const check = () => runtime.execute({ type: "check", source: "", lessonId: "l", checkpoint: "1", lang: "en" });
  await check();
  await check();
  await until(() => learners().length >= 4);
  for (const later of learners().slice(2)) assert.equal(init(later).numpy, wheel, "every learner worker after it");
});

test("time limits grow with a slow learner worker's speed measure, within bounds, and never shrink", async () => {
  assert.equal(slowness(SPEED_BASE_MS / 2), 1);
  assert.equal(slowness(SPEED_BASE_MS * 3), 3);
  assert.equal(slowness(SPEED_BASE_MS * 100), MAX_SLOWNESS);
  for (const junk of [undefined, null, "fast", -1, 0, Infinity, NaN]) assert.equal(slowness(junk), 1);
  let speed = SPEED_BASE_MS * 4; // a worker four times slower than the measure's base (WebKit, a busy machine)
  const { runtime, learners } = makeRuntime(
    scripted({
      boot(msg, worker) {
        if (worker.role !== "learner") return true;
        worker.speed = speed;
        worker.reply(response(Res.PYTHON, msg.runId, {}));
        worker.reply(response(Res.READY, msg.runId, { speed }));
        return false;
      },
      run(msg, worker) {
        worker.reply(response(Res.STARTED, msg.runId, {}));
        worker.reply(response(Res.RESULT, msg.runId, { runJson: '{"status": "ok"}' }));
      },
    }),
  );
  runtime.warm("l", ["1"]);
  runtime.boot();
  await until(() => runtime.state === "idle");
  await runtime.execute({ type: "check", source: "", lessonId: "l", checkpoint: "1", lang: "en" });
  speed = 1; // the workers booted from now on are fast
  for (let i = 0; i < 3; i++) {
    await until(() => runtime.state === "idle");
    await runtime.execute({ type: "run", source: "" });
  }
  const limits = learners().flatMap((w) => w.sent.filter((m) => m.type === Req.RUN).map((m) => [w.speed, m]));
  assert.equal(limits.length, 4);
  const [[, check], ...runs] = limits;
  assert.equal(check.timeLimit, 7 * 4, "the grader's 7 s, four times");
  for (const [workerSpeed, run] of runs) assert.equal(run.timeLimit, 30 * slowness(workerSpeed));
  assert.ok(
    runs.some(([workerSpeed]) => workerSpeed === 1),
    "a fast worker keeps the plain limit",
  );
});

test("a job at its time limit goes on when the page measures the machine slower now than at its quickest", async () => {
  const outcome = async (factor, runMs = 600, bootLoad = 10, burst = null) => {
    let load = 10; // ms of the load measure; `factor` times that once the job runs
    let booted = 0; // learner workers that said READY: from the first on, the load is `bootLoad`
    let bursting = false; // the next reading meets a moment's burst: it takes `burst` ms
    const { runtime } = makeRuntime(
      scripted({
        boot(msg, worker) {
          if (worker.role !== "learner") return true;
          worker.reply(response(Res.PYTHON, msg.runId, {}));
          setTimeout(() => {
            booted += 1;
            if (booted === 1) load = bootLoad;
            bursting = burst !== null;
            worker.reply(response(Res.READY, msg.runId, { speed: SPEED_BASE_MS })); // as fast as the limits assume
          }, 20); // after the page's own quickest reading (at the grader's READY)
          return false;
        },
        run(msg, worker) {
          worker.reply(response(Res.STARTED, msg.runId, {}));
          load = 10 * factor;
          if (runMs !== null)
            setTimeout(() => worker.reply(response(Res.RESULT, msg.runId, { runJson: '{"status": "ok"}' })), runMs);
        },
      }),
      {
        meter: () => {
          if (!bursting) return load;
          bursting = false;
          return burst;
        },
      },
    );
    runtime.warm("l", ["1"]);
    runtime.boot();
    await until(() => runtime.state === "idle");
    await sleep(100); // the base and the workers' readings, measured when Python is ready
    let checks = 0; // how often the time limit was reached and the load measured again
    const reached = runtime._limitReached.bind(runtime);
    runtime._limitReached = (job) => {
      checks += 1;
      reached(job);
    };
    // 0.1 s (with its slack, 0.4 s): the run's 0.6 s are past it unless the limit grows
    const result = await runtime.execute({ type: "run", source: "", timeLimit: 0.1 });
    return { kind: result.kind, timeLimit: result.timeLimit, checks };
  };
  // each outcome has a runtime, workers and a load of its own: they run side by side, as most of their time is
  // spent waiting for time limits
  const [slower, same, bounded, loadedAtBoot, burstAtBoot, endless] = await Promise.all([
    outcome(MAX_SLOWNESS), // a busy machine: the limit grows, the run ends within it
    outcome(1.1), // as fast as before (within GROWN): the limit stands
    outcome(2), // it grows only as much as the page slowed: 0.1 s, then 0.2 s
    // a worker that booted under the load it meets at the limit measured its speed under it already: no growth
    outcome(4, 600, 40),
    // one reading beside a worker's READY that met a burst as slow as the load at the limit: the load came after the
    // boot all the same, so the limit grows (the worker's reading is the median of three)
    outcome(MAX_SLOWNESS, 600, 10, 10 * MAX_SLOWNESS),
    outcome(MAX_SLOWNESS * 4, null), // never past MAX_SLOWNESS times the limit
  ]);
  assert.deepEqual(slower, { kind: "result", timeLimit: undefined, checks: 1 });
  assert.deepEqual(same, { kind: "timeout", timeLimit: 0.1, checks: 1 });
  assert.deepEqual(bounded, { kind: "timeout", timeLimit: 0.2, checks: 2 });
  assert.deepEqual(loadedAtBoot, { kind: "timeout", timeLimit: 0.1, checks: 1 });
  assert.deepEqual(burstAtBoot, { kind: "result", timeLimit: undefined, checks: 1 });
  assert.deepEqual(endless, { kind: "timeout", timeLimit: 0.1 * MAX_SLOWNESS, checks: 2 });
});

/** A small seeded generator (mulberry32): the same seed, the same sequence of operations. */
function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

test("any order of Run, Check, Stop and boot states, with workers that hang, crash or fail, leads back to ready", async () => {
  const ENDINGS = ["ok", "ok", "hang", "crash", "fatal", "slow"];
  // each seed drives a runtime of its own; they run side by side, since most of a seed's time is spent waiting for
  // time limits and retirements
  const storm = async (seed) => {
    const rand = random(seed);
    const pick = (items) => items[Math.floor(rand() * items.length)];
    let calm = false; // after the storm: every worker behaves
    const base = scripted();
    const { runtime, learners } = makeRuntime((msg, worker) => {
      if (msg.type === Req.INIT && !calm) {
        // boots take a moment, or a few: jobs arrive while Python loads, is usable, or is ready
        setTimeout(() => base(msg, worker), Math.floor(rand() * 4));
        return;
      }
      if (worker.role === "grader") {
        if (msg.type === Req.PREPARE) {
          worker.reply(response(Res.PREPARED, msg.runId, { plan: PLAN, plotCase: "", timeLimit: 0.05 }));
        } else if (msg.type === Req.JUDGE && !calm && rand() < 0.1) {
          worker.reply(response(Res.FAILURE, msg.runId, { message: "fatal", fatal: true }));
        } else {
          base(msg, worker);
        }
        return;
      }
      if (msg.type !== Req.RUN || calm) {
        base(msg, worker);
        return;
      }
      const ending = pick(ENDINGS);
      worker.reply(response(Res.STARTED, msg.runId, {}));
      if (ending === "ok") worker.reply(response(Res.RESULT, msg.runId, { runJson: '{"status": "ok"}' }));
      else if (ending === "crash") worker.onerror({ message: "boom", preventDefault() {} });
      else if (ending === "fatal") worker.reply(response(Res.FAILURE, msg.runId, { message: "fatal", fatal: true }));
      else if (ending === "slow") {
        setTimeout(() => worker.reply(response(Res.RESULT, msg.runId, { runJson: '{"status": "ok"}' })), 5);
      } // "hang": never answers; the time limit or a Stop ends it
    });
    runtime.warm("l", ["1"]);
    if (rand() < 0.7) runtime.boot();
    const jobs = [];
    for (let step = 0; step < 10; step += 1) {
      const what = pick(["run", "run", "check", "check", "stop", "stop-all", "wait"]);
      const owner = pick(["a", "b"]);
      if (what === "run") jobs.push(runtime.execute({ type: "run", source: "", owner, timeLimit: 0.05 }));
      else if (what === "check") {
        jobs.push(runtime.execute({ type: "check", source: "", lessonId: "l", checkpoint: "1", lang: "en", owner }));
      } else if (what === "stop") runtime.stop(owner);
      else if (what === "stop-all") runtime.stop();
      else await sleep(Math.floor(rand() * 6));
    }
    const kinds = ["result", "verdict", "stopped", "timeout", "crashed", "cancelled", "failure", "failed"];
    let timer;
    const stuck = new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(`seed ${seed}: a job never ended (state "${runtime.state}")`)), 10_000);
    });
    const results = await Promise.race([Promise.all(jobs), stuck]);
    clearTimeout(timer);
    for (const result of results) assert.ok(kinds.includes(result.kind), `seed ${seed}: ${result.kind}`);
    calm = true;
    await until(() => runtime.state === "idle", 5000).catch(() => {
      throw new Error(`seed ${seed}: the page stayed "${runtime.state}"`);
    });
    const last = await runtime.execute({ type: "check", source: "", lessonId: "l", checkpoint: "1", lang: "en" });
    assert.equal(last.kind, "verdict", `seed ${seed}`);
    assert.equal(last.verdict.status, "pass", `seed ${seed}`);
    assert.ok(learners().length >= 1);
    runtime.stop();
  };
  await Promise.all(Array.from({ length: 30 }, (_, i) => storm(i + 1)));
});

test("a failure in a part of a Check's run is shown early; the whole run's verdict follows and alone counts", async () => {
  const early = { status: "fail", early: true, failure: { case: "a" } };
  const final = { status: "fail", passed: 0, total: 3 };
  const base = scripted();
  const seen = [];
  let release = null;
  const { runtime, workers } = makeRuntime((msg, worker) => {
    if (worker.role === "grader" && msg.type === Req.EARLY) {
      // the first part passes, the second shows a failure, a third is never asked for
      const part = JSON.parse(msg.runJson);
      worker.reply(response(Res.EARLY, msg.runId, { verdict: part.outcomes[0].id === "b" ? early : null }));
    } else if (worker.role === "grader" && msg.type === Req.JUDGE) {
      seen.push("judge");
      worker.reply(response(Res.VERDICT, msg.runId, { verdict: final }));
    } else if (worker.role === "learner" && msg.type === Req.RUN) {
      worker.reply(response(Res.STARTED, msg.runId, {}));
      for (const id of ["a", "b", "c"]) {
        const runJson = JSON.stringify({ status: "ok", outcomes: [{ id, kind: "return", value: 1 }] });
        worker.reply(response(Res.PARTIAL, msg.runId, { runJson }));
      }
      release = () => worker.reply(response(Res.RESULT, msg.runId, { runJson: '{"status": "ok"}' }));
    } else {
      base(msg, worker);
    }
  });
  runtime.warm("l", ["1"]);
  const pending = runtime.execute({
    type: "check",
    source: "",
    lessonId: "l",
    checkpoint: "1",
    lang: "en",
    onEarly: (verdict) => seen.push(verdict),
  });
  await until(() => seen.length === 1);
  assert.deepEqual(seen, [early], "the early failure comes while the run goes on");
  assert.equal(runtime.state, "running");
  release();
  const result = await pending;
  assert.deepEqual(result.verdict, final);
  assert.deepEqual(seen, [early, "judge"]);
  const grader = workers.find((w) => w.role === "grader");
  assert.deepEqual(
    grader.sent.map((m) => m.type).filter((t) => t === Req.EARLY || t === Req.JUDGE),
    [Req.EARLY, Req.EARLY, Req.JUDGE],
    "parts are judged in order, none after a failure was shown",
  );
});

test("a pass is never shown early, and parts after the run's result are not judged", async () => {
  const base = scripted();
  const early = [];
  const { runtime, workers } = makeRuntime((msg, worker) => {
    if (worker.role === "grader" && msg.type === Req.EARLY) {
      worker.reply(response(Res.EARLY, msg.runId, { verdict: { status: "pass" } })); // a forged or wrong answer
    } else if (worker.role === "learner" && msg.type === Req.RUN) {
      worker.reply(response(Res.STARTED, msg.runId, {}));
      worker.reply(response(Res.PARTIAL, msg.runId, { runJson: '{"status": "ok", "outcomes": []}' }));
      worker.reply(response(Res.RESULT, msg.runId, { runJson: '{"status": "ok"}' }));
      worker.reply(response(Res.PARTIAL, msg.runId, { runJson: '{"status": "ok", "outcomes": []}' }));
    } else {
      base(msg, worker);
    }
  });
  runtime.warm("l", ["1"]);
  const result = await runtime.execute({
    type: "check",
    source: "",
    lessonId: "l",
    checkpoint: "1",
    lang: "en",
    onEarly: (verdict) => early.push(verdict),
  });
  assert.equal(result.verdict.status, "pass");
  assert.deepEqual(early, []);
  const grader = workers.find((w) => w.role === "grader");
  assert.ok(grader.sent.filter((m) => m.type === Req.EARLY).length <= 1);
});

test("with none ready, the next learner worker boots once a Check's run is in, while the grader judges; not while learner code runs", async () => {
  let judge = null;
  let result = null;
  const base = scripted();
  const { runtime, learners } = makeRuntime(
    (msg, worker) => {
      if (worker.role === "grader" && msg.type === Req.JUDGE) {
        judge = () => worker.reply(response(Res.VERDICT, msg.runId, { verdict: { status: "pass" } }));
      } else if (worker.role === "learner" && msg.type === Req.RUN) {
        worker.reply(response(Res.STARTED, msg.runId, {}));
        result = () => worker.reply(response(Res.RESULT, msg.runId, { runJson: '{"status": "ok"}' }));
      } else {
        base(msg, worker);
      }
    },
    { depth: 1 },
  ); // the Check takes the only pristine worker
  runtime.warm("l", ["1"]);
  runtime.boot();
  await until(() => runtime.state === "idle");
  const before = learners().length; // the one, ready
  const pending = runtime.execute({ type: "check", source: "", lessonId: "l", checkpoint: "1", lang: "en" });
  await until(() => result !== null);
  await sleep(5);
  assert.equal(learners().length, before, "no boot while the learner's code runs");
  result();
  await until(() => judge !== null);
  await sleep(5);
  assert.equal(learners().length, before + 1, "the next one boots while the grader judges");
  judge();
  assert.equal((await pending).verdict.status, "pass");
});

/** Learner workers booting now (INIT sent, READY not yet). */
function bootingLearners(learners) {
  return learners().filter((w) => !w.terminated && w.sent.length > 0 && !w.readySent).length;
}

/** scripted(), with each learner's READY held until `finish(worker)`; `onInit(worker)` is told of each INIT. */
function heldBoots(onInit) {
  const base = scripted();
  const waiting = [];
  const script = (msg, worker) => {
    if (worker.role === "learner" && msg.type === Req.INIT) {
      onInit(worker);
      waiting.push(() => {
        worker.readySent = true;
        worker.reply(response(Res.PYTHON, msg.runId, {}));
        worker.reply(response(Res.READY, msg.runId, {}));
      });
      return;
    }
    base(msg, worker);
  };
  return { script, next: () => waiting.shift()(), waiting };
}

test("the pool keeps two workers until the learner engages, then `depth`, booting one at a time", async () => {
  let most = 0;
  let learners = null;
  const held = heldBoots(() => {
    most = Math.max(most, bootingLearners(learners));
  });
  const made = makeRuntime(held.script, { depth: 4 });
  learners = made.learners;
  const { runtime } = made;
  runtime.warm("l", ["1"]);
  runtime.boot();
  for (let ready = 0; ready < 2; ready++) {
    await until(() => held.waiting.length === 1);
    assert.equal(learners().length, ready + 1, "the next one boots only once the one before is ready");
    held.next();
  }
  await until(() => runtime.pool.filter((s) => s.phase === "ready").length === 2);
  await sleep(FILL_IDLE_MS + 20);
  assert.equal(learners().length, 2, "a learner who only reads gets two");
  runtime.engage(); // an edit
  for (let ready = 2; ready < 4; ready++) {
    await until(() => held.waiting.length === 1);
    assert.equal(learners().length, ready + 1, "the next one boots only once the one before is ready");
    held.next();
  }
  await until(() => runtime.pool.length === 4 && runtime.pool.every((s) => s.phase === "ready"));
  await sleep(FILL_IDLE_MS + 20);
  assert.equal(learners().length, 4, "no more than the depth");
  assert.equal(most, 1, "never two booting at once");
});

test("Checks pressed as each verdict shows each start on a ready worker, with no boot beside them while one is ready", async () => {
  let learners = null;
  const held = heldBoots(() => {});
  const made = makeRuntime(held.script, { depth: 4 });
  learners = made.learners;
  const { runtime } = made;
  runtime.warm("l", ["1"]);
  runtime.boot();
  runtime.engage();
  while (runtime.pool.length < 4 || runtime.pool.some((s) => s.phase !== "ready")) {
    await until(() => held.waiting.length === 1 || runtime.pool.filter((s) => s.phase === "ready").length === 4);
    if (held.waiting.length) held.next();
  }
  const check = () => runtime.execute({ type: "check", source: "", lessonId: "l", checkpoint: "1", lang: "en" });
  const used = [];
  for (let i = 0; i < 4; i++) {
    const pending = check();
    assert.equal(runtime.state, "running", `Check ${i + 1} started at once`);
    used.push(runtime.job.slot.worker);
    assert.equal((await pending).verdict.status, "pass");
    if (i < 3) assert.equal(learners().length, 4, `no boot by Check ${i + 1}'s verdict: ${3 - i} still ready`);
  }
  assert.equal(new Set(used).size, 4, "each on its own worker");
  assert.ok(used.every((w) => w.sent.filter((m) => m.type === Req.RUN).length === 1));
  // none left: the next one began to boot while the fourth was judged
  assert.equal(learners().length, 5);
  assert.equal(bootingLearners(learners), 1);
  held.next();
  await until(() => runtime.pool.filter((s) => s.phase === "ready").length === 1);
});

test("with one or more ready, the pool refills once no job has run for FILL_IDLE_MS", async () => {
  const { runtime, learners } = makeRuntime(scripted(), { depth: 3 });
  runtime.warm("l", ["1"]);
  runtime.boot();
  runtime.engage();
  await until(() => runtime.state === "idle" && runtime.pool.filter((s) => s.phase === "ready").length === 3);
  const result = await runtime.execute({ type: "check", source: "", lessonId: "l", checkpoint: "1", lang: "en" });
  assert.equal(result.verdict.status, "pass");
  assert.equal(learners().length, 3, "not at the verdict: a Check pressed at once runs alone");
  await until(() => learners().length === 4, FILL_IDLE_MS + 1000);
  await until(() => runtime.pool.filter((s) => s.phase === "ready").length === 3);
});

test("poolDepth: POOL_DEPTH, or two on a device that reports 2 GiB of memory or less", () => {
  assert.ok(POOL_DEPTH >= 5, "five Checks in a row each find a ready worker");
  assert.equal(poolDepth(undefined), POOL_DEPTH);
  assert.equal(poolDepth(8), POOL_DEPTH);
  assert.equal(poolDepth(4), POOL_DEPTH);
  assert.equal(poolDepth(2), 2);
  assert.equal(poolDepth(0.5), 2);
  assert.equal(poolDepth("nonsense"), POOL_DEPTH);
  assert.equal(new Runtime({ depth: 0 }).depth, 1);
});

test("once the learner works on code the grader rehearses each Check once, one at a time, never beside a job", async () => {
  const rehearsals = []; // [msg, worker] not answered yet
  let held = null; // a learner RUN not answered yet
  const base = scripted({ run: (msg, worker) => (held = [msg, worker]) });
  const { runtime, workers } = makeRuntime(
    (msg, worker) => {
      if (worker.role === "grader" && msg.type === Req.REHEARSE) rehearsals.push([msg, worker]);
      else base(msg, worker);
    },
    { rehearse: true },
  );
  const answer = () => {
    const [msg, worker] = rehearsals.shift();
    worker.reply(response(Res.REHEARSED, msg.runId, {}));
  };
  const sent = () => workers.find((w) => w.role === "grader").sent.filter((m) => m.type === Req.REHEARSE);
  runtime.warm("l", ["1", "2"]);
  runtime.boot();
  await until(() => runtime.state === "idle");
  await sleep(20);
  assert.equal(sent().length, 0); // a learner who only reads costs no rehearsal
  // a job first: nothing is rehearsed while it runs
  const check = runtime.execute({ type: "check", source: "", lessonId: "l", checkpoint: "2", lang: "en" });
  await until(() => held !== null);
  await sleep(20);
  assert.equal(sent().length, 0);
  const [msg, worker] = held;
  worker.reply(response(Res.STARTED, msg.runId, {}));
  worker.reply(response(Res.RESULT, msg.runId, { runJson: '{"status": "ok"}' }));
  assert.equal((await check).verdict.status, "pass");
  await until(() => sent().length === 1);
  assert.deepEqual([sent()[0].lessonId, sent()[0].checkpoint, sent()[0].lang], ["l", "1", "en"]);
  await sleep(20);
  assert.equal(sent().length, 1); // one at a time
  answer();
  await until(() => sent().length === 2);
  assert.equal(sent()[1].checkpoint, "2");
  answer();
  runtime.engage();
  await sleep(20);
  assert.equal(sent().length, 2); // each once
});

test("no rehearsal while no learner worker is ready: after a Stop the boot the learner waits for runs alone", async () => {
  const rehearsals = [];
  const heldBoots = []; // learner INITs not answered yet
  let hold = false;
  const base = scripted({
    boot: (msg, worker) => {
      if (hold && worker.role === "learner") {
        heldBoots.push([msg, worker]);
        return false;
      }
    },
    run: (msg, worker) => worker.reply(response(Res.STARTED, msg.runId, {})), // an endless loop
  });
  const { runtime, workers } = makeRuntime(
    (msg, worker) => {
      if (worker.role === "grader" && msg.type === Req.REHEARSE) rehearsals.push([msg, worker]);
      else base(msg, worker);
    },
    { rehearse: true, depth: 1 },
  );
  const sent = () => workers.find((w) => w.role === "grader").sent.filter((m) => m.type === Req.REHEARSE);
  runtime.warm("l", ["1"]);
  runtime.boot();
  await until(() => runtime.state === "idle" && runtime.grader && runtime.grader.phase === "ready");
  hold = true;
  const run = runtime.execute({ type: "run", source: "while True: pass" }); // engages
  await until(() => runtime.state === "running");
  runtime.stop();
  assert.equal((await run).kind, "stopped");
  await until(() => heldBoots.length === 1);
  await sleep(20);
  assert.equal(sent().length, 0, "the grader waits while the learner's next worker boots");
  const [msg, worker] = heldBoots[0];
  worker.reply(response(Res.PYTHON, msg.runId, {}));
  worker.reply(response(Res.READY, msg.runId, {}));
  await until(() => sent().length === 1);
});

test("only JavaScriptCore rehearses: Safari and every iOS browser, not Chromium, Edge, Android or Firefox", async () => {
  const safari =
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15";
  const ipad =
    "Mozilla/5.0 (iPad; CPU OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/131.0 Mobile/15E148 Safari/604.1";
  const gtk =
    "Mozilla/5.0 (X11; Ubuntu; Linux x86_64) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Safari/605.1.15";
  const chrome =
    "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
  const android =
    "Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/26.0 Safari/537.36";
  const firefox = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0";
  assert.deepEqual(
    [safari, ipad, gtk].map((ua) => rehearses(ua)),
    [true, true, true],
  );
  assert.deepEqual(
    [chrome, android, firefox, ""].map((ua) => rehearses(ua)),
    [false, false, false, false],
  );
  const { runtime, workers } = makeRuntime(scripted(), { rehearse: false });
  runtime.warm("l", ["1"]);
  runtime.engage();
  await runtime.execute({ type: "check", source: "", lessonId: "l", checkpoint: "1", lang: "en" });
  await sleep(20);
  assert.ok(!workers.find((w) => w.role === "grader").sent.some((m) => m.type === Req.REHEARSE));
});

/** A runtime whose grader rehearses at once, answering with the reference `reference <checkpoint>`. */
function rehearsing(run, options = {}) {
  const base = scripted({ run });
  return makeRuntime(
    (msg, worker) => {
      if (worker.role === "grader" && msg.type === Req.REHEARSE)
        worker.reply(response(Res.REHEARSED, msg.runId, { source: `reference ${msg.checkpoint}` }));
      else base(msg, worker);
    },
    { rehearse: true, depth: 6, ...options },
  );
}
const answerOk = (msg, worker) => {
  worker.reply(response(Res.STARTED, msg.runId, {}));
  worker.reply(response(Res.RESULT, msg.runId, { runJson: '{"status": "ok"}' }));
};
const rehearsalRuns = (runs) => runs.filter(([msg]) => msg.source.startsWith("reference "));

test("in JavaScriptCore the newest learner worker started among four or more Pythons rehearses too, once", async () => {
  const runs = []; // learner RUNs: [msg, worker]
  const { runtime, learners, notices } = rehearsing((msg, worker) => {
    runs.push([msg, worker]);
    answerOk(msg, worker);
  });
  runtime.warm("l", ["1", "2"]);
  runtime.boot();
  await until(() => runtime.state === "idle");
  await sleep(20);
  assert.equal(runs.length, 0); // a learner who only reads costs nothing
  runtime.engage();
  await until(() => runs.length === 2 * WARMUP_ROUNDS);
  // one worker runs each reference the grader rehearsed, in order, over the checkpoint's plan, WARMUP_ROUNDS times
  assert.ok(WARMUP_ROUNDS >= 2);
  assert.deepEqual(
    runs.map(([msg]) => [msg.source, msg.plan]),
    Array.from({ length: WARMUP_ROUNDS }, () => [
      ["reference 1", PLAN],
      ["reference 2", PLAN],
    ]).flat(),
  );
  const rehearser = runs[0][1];
  assert.ok(runs.every(([, worker]) => worker === rehearser));
  // the pool's sixth: the grader and five learner workers were alive when it started (the third and later qualify)
  assert.equal(learners().indexOf(rehearser), 5);
  assert.ok(JSC_FAST_MEMORIES <= 4);
  await until(() => rehearser.terminated); // no longer pristine
  await until(() => runtime.pool.length === 6 && runtime.pool.every((s) => s.phase === "ready"));
  assert.ok(!runtime.pool.some((s) => s.worker === rehearser));
  const check = await runtime.execute({ type: "check", source: "x", lessonId: "l", checkpoint: "1", lang: "en" });
  assert.equal(check.verdict.status, "pass");
  assert.notEqual(runs.at(-1)[1], rehearser);
  await until(() => runtime.pool.length === 6 && runtime.pool.every((s) => s.phase === "ready"), 3000);
  await sleep(50);
  assert.equal(rehearsalRuns(runs).length, 2 * WARMUP_ROUNDS, "once a page");
  assert.deepEqual(notices, []);
});

test("a job queued while a learner worker rehearses ends that rehearsal at once and runs with no boot beside it", async () => {
  const runs = [];
  const { runtime, learners } = rehearsing((msg, worker) => {
    runs.push([msg, worker]);
    if (!msg.source.startsWith("reference ")) answerOk(msg, worker); // the rehearsal's run never ends by itself
  });
  runtime.warm("l", ["1"]);
  runtime.boot();
  await until(() => runtime.state === "idle");
  runtime.engage();
  await until(() => rehearsalRuns(runs).length === 1);
  const rehearser = runs[0][1];
  const started = learners().length;
  const check = runtime.execute({ type: "check", source: "x", lessonId: "l", checkpoint: "1", lang: "en" });
  assert.ok(rehearser.terminated, "ended as the job was queued");
  await until(() => runs.length === 2);
  assert.notEqual(runs[1][1], rehearser);
  assert.equal(learners().length, started, "no boot while the job's code runs");
  assert.equal((await check).verdict.status, "pass");
  // it came back with nothing: the page tries once more when idle with a full pool, then no more
  await until(() => rehearsalRuns(runs).length === 2, 4000);
  runtime.execute({ type: "run", source: "y" });
  await until(() => runs.length === 4);
  await until(() => runtime.pool.length === 6 && runtime.pool.every((s) => s.phase === "ready"), 4000);
  await sleep(50);
  assert.equal(rehearsalRuns(runs).length, 2, "two tries at most");
});

test("a learner worker's rehearsal that crashes is dropped without a word; none when no worker runs the other memory", async () => {
  const runs = [];
  const { runtime, notices } = rehearsing((msg, worker) => {
    runs.push([msg, worker]);
    if (msg.source.startsWith("reference ")) worker.onerror({ message: "boom" });
    else answerOk(msg, worker);
  });
  runtime.warm("l", ["1"]);
  runtime.boot();
  await until(() => runtime.state === "idle");
  runtime.engage();
  await until(() => rehearsalRuns(runs).length >= 1);
  await until(() => runtime.pool.length === 6 && runtime.pool.every((s) => s.phase === "ready"), 3000);
  await sleep(50);
  assert.equal(rehearsalRuns(runs).length, 2, "tried twice, then no more");
  assert.deepEqual(notices, []);
  assert.equal(runtime.state, "idle");
  assert.equal((await runtime.execute({ type: "check", source: "x", lessonId: "l", checkpoint: "1" })).kind, "verdict");
  // three Pythons at most (the grader and two learner workers): every one has the grader's kind of memory
  const few = [];
  const small = rehearsing(
    (msg, worker) => {
      few.push([msg, worker]);
      answerOk(msg, worker);
    },
    { depth: 2 },
  );
  small.runtime.warm("l", ["1"]);
  small.runtime.boot();
  await until(() => small.runtime.state === "idle");
  small.runtime.engage();
  await until(() => small.workers.find((w) => w.role === "grader").sent.some((m) => m.type === Req.REHEARSE));
  await sleep(50);
  assert.equal(rehearsalRuns(few).length, 0);
});

test("pristine learner workers parse the page's Check plans ahead of the click: one at a time, oldest first, no job beside", async () => {
  const keeps = []; // [msg, worker], answered by hand
  let release = null; // ends the running Check's run
  const { runtime, learners } = makeRuntime(
    scripted({
      keep: (msg, worker) => keeps.push([msg, worker]),
      run: (msg, worker) => {
        worker.reply(response(Res.STARTED, msg.runId, {}));
        release = () => worker.reply(response(Res.RESULT, msg.runId, { runJson: '{"status": "ok"}' }));
      },
    }),
    { depth: 3 },
  );
  const answer = async (count) => {
    await until(() => keeps.length === count);
    const [msg, worker] = keeps.at(-1);
    worker.reply(response(Res.KEPT, msg.runId, {}));
    return worker;
  };
  runtime.warm("l", ["1", "2"]);
  runtime.boot();
  await until(() => runtime.state === "idle" && keeps.length === 1);
  runtime.engage(); // a third worker boots and is ready while the first parses
  await until(() => learners().length === 3 && runtime.pool.every((s) => s.phase === "ready"));
  await sleep(20);
  assert.equal(keeps.length, 1, "one at a time");
  assert.equal(keeps[0][0].plan, PLAN);
  const order = [];
  for (let count = 1; count <= 6; count++) {
    const worker = await answer(count);
    order.push(learners().indexOf(worker));
  }
  assert.deepEqual(order, [0, 0, 1, 1, 2, 2], "oldest first (the next job takes it), each plan once a worker");
  await sleep(20);
  assert.equal(keeps.length, 6);
  // a Check takes the oldest worker; its replacement boots but parses nothing while learner code runs
  const check = runtime.execute({ type: "check", source: "x", lessonId: "l", checkpoint: "1", lang: "en" });
  await until(() => release !== null);
  // its RUN names the plan the worker parsed for checkpoint 1 (the first it was sent), and still carries the text
  const run = learners()[0].sent.find((m) => m.type === Req.RUN);
  assert.equal(run.plan, PLAN);
  assert.equal(run.planId, keeps[0][0].planId);
  assert.notEqual(keeps[0][0].planId, keeps[1][0].planId);
  await sleep(FILL_IDLE_MS + 50);
  assert.equal(keeps.length, 6, "nothing parsed beside the run");
  release();
  assert.equal((await check).verdict.status, "pass");
  const seventh = await answer(7);
  assert.equal(learners().indexOf(seventh), 3, "the new worker, once the job is over");
  const eighth = await answer(8);
  assert.equal(eighth, seventh);
});

test("a job that takes a worker while it parses a plan runs there next; that worker's KEPT starts nothing beside it", async () => {
  const keeps = [];
  const runs = [];
  const { runtime, learners } = makeRuntime(
    scripted({
      keep: (msg, worker) => keeps.push([msg, worker]),
      run: (msg, worker) => {
        runs.push([msg, worker]);
        worker.reply(response(Res.STARTED, msg.runId, {}));
      },
    }),
  );
  runtime.warm("l", ["1", "2"]);
  runtime.boot();
  await until(() => runtime.state === "idle" && keeps.length === 1);
  const check = runtime.execute({ type: "check", source: "x", lessonId: "l", checkpoint: "2", lang: "en" });
  await until(() => runs.length === 1);
  const [msg, worker] = keeps[0];
  assert.equal(runs[0][1], worker, "the oldest worker, though it was parsing");
  worker.reply(response(Res.KEPT, msg.runId, {})); // the worker answers the KEEP before it runs the job
  await sleep(30);
  assert.equal(keeps.length, 1, "no plan is sent to another worker while the job runs");
  assert.equal(runtime.job.slot.worker, worker);
  worker.reply(response(Res.RESULT, runs[0][0].runId, { runJson: '{"status": "ok"}' }));
  assert.equal((await check).verdict.status, "pass");
  await until(() => keeps.length === 2);
  assert.equal(keeps[1][1], learners()[1]);
});
