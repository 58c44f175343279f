// Unit tests for the runner state machine in web/src/runtime.js, with a scripted fake worker.
import assert from "node:assert/strict";
import { test } from "node:test";

import { Req, Res, response } from "../src/protocol.js";
import { GRACE_MS, Runtime, runtimeAttribute } from "../src/runtime.js";

/** A stand-in Worker: records requests; `script(msg, worker)` answers them. */
class FakeWorker {
  constructor(script) {
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

/** Boots instantly; Run answers with `run(msg, worker)` (default: an ok result). */
function scripted({ run } = {}) {
  return (msg, worker) => {
    if (msg.type === Req.INIT) {
      worker.reply(response(Res.PROGRESS, msg.runId, { stage: "runtime", percent: 50, loaded: 0, total: 0 }));
      worker.reply(response(Res.READY, msg.runId, {}));
    } else if (run) {
      run(msg, worker);
    } else {
      worker.reply(response(Res.STARTED, msg.runId, { timeLimit: 5 }));
      worker.reply(response(Res.OUTPUT, msg.runId, { stream: "stdout", text: "hi\n" }));
      worker.reply(response(Res.RESULT, msg.runId, { run: { status: "ok" } }));
    }
  };
}

function makeRuntime(script) {
  const workers = [];
  const states = [];
  const notices = [];
  const progress = [];
  const runtime = new Runtime({
    onState: (s) => states.push(s),
    onProgress: (p) => progress.push(p),
    onNotice: (n) => notices.push(n),
    createWorker: () => {
      const w = new FakeWorker(script);
      workers.push(w);
      return w;
    },
  });
  return { runtime, workers, states, notices, progress };
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

test("a job submitted before boot is queued and runs once Python is ready", async () => {
  const { runtime, states, progress } = makeRuntime(scripted());
  const output = [];
  const result = await runtime.execute({ type: "run", source: "print('hi')", onOutput: (s, t) => output.push([s, t]) });
  assert.deepEqual(result, { kind: "result", run: { status: "ok" } });
  assert.deepEqual(output, [["stdout", "hi\n"]]);
  assert.deepEqual(states, ["booting", "idle", "running", "idle"]);
  assert.deepEqual(progress, [50, 100]);
  assert.equal(runtimeAttribute("booting"), "loading");
  assert.equal(runtimeAttribute("idle"), "ready");
});

test("responses with another run id (forged or stale) are ignored", async () => {
  const { runtime } = makeRuntime(
    scripted({
      run(msg, worker) {
        worker.reply(response(Res.VERDICT, "f".repeat(32), { verdict: { status: "pass" } }));
        worker.reply({ type: "verdict", verdict: { status: "pass" } });
        worker.reply({ ...response(Res.VERDICT, msg.runId, { verdict: { status: "pass" } }), schema: 2 });
        worker.reply(response(Res.VERDICT, msg.runId, { verdict: { status: "fail" } }));
      },
    }),
  );
  const result = await runtime.execute({ type: "check", source: "", lessonId: "l", checkpoint: "1", lang: "en", seed: 1 });
  assert.deepEqual(result, { kind: "verdict", verdict: { status: "fail" } });
});

test("stop without an interrupt buffer terminates and restarts the worker; the next job works", async () => {
  let hang = true;
  const { runtime, workers, states } = makeRuntime(
    scripted({
      run(msg, worker) {
        if (hang) return; // `while True: pass`: never answers
        worker.reply(response(Res.RESULT, msg.runId, { run: { status: "ok" } }));
      },
    }),
  );
  const pending = runtime.execute({ type: "run", source: "while True: pass", owner: "me" });
  await sleep(10);
  assert.equal(runtime.state, "running");
  runtime.stop("me");
  const result = await pending;
  assert.equal(result.kind, "stopped");
  assert.equal(workers[0].terminated, true);
  assert.ok(states.includes("restarting"));
  hang = false;
  const next = await runtime.execute({ type: "run", source: "print(1)" });
  assert.equal(next.kind, "result");
  assert.equal(workers.length, 2);
  assert.equal(runtime.state, "idle");
});

test("with an interrupt buffer, a run that answers in the grace period keeps its worker", async () => {
  const { runtime, workers } = makeRuntime(
    scripted({
      run(msg, worker) {
        worker.reply(response(Res.STARTED, msg.runId, { timeLimit: 30 }));
        const poll = setInterval(() => {
          if (runtime.interrupt[0] === 2) {
            clearInterval(poll);
            worker.reply(response(Res.RESULT, msg.runId, { run: { status: "interrupted" } }));
          }
        }, 5);
      },
    }),
  );
  runtime.isolated = true; // as if crossOriginIsolated
  const pending = runtime.execute({ type: "run", source: "while True: pass", owner: "me" });
  await sleep(20);
  runtime.stop("me");
  assert.equal(runtime.state, "stopping");
  const result = await pending;
  assert.equal(result.kind, "stopped");
  assert.equal(workers.length, 1);
  assert.equal(workers[0].terminated, false);
  assert.equal(runtime.state, "idle");
});

test("with an interrupt buffer, a run that swallows the interrupt is replaced after the grace period", async () => {
  const { runtime, workers } = makeRuntime(scripted({ run() {} }));
  runtime.isolated = true;
  const pending = runtime.execute({ type: "run", source: "...", owner: "me" });
  await sleep(10);
  const t0 = Date.now();
  runtime.stop("me");
  const result = await pending;
  assert.equal(result.kind, "stopped");
  assert.ok(Date.now() - t0 >= GRACE_MS - 20);
  assert.equal(workers[0].terminated, true);
  assert.equal(workers.length, 2);
});

test("a Check that exceeds the grader's time limit ends as timeout", async () => {
  const { runtime } = makeRuntime(
    scripted({
      run(msg, worker) {
        worker.reply(response(Res.STARTED, msg.runId, { timeLimit: 0.05 }));
      },
    }),
  );
  const result = await runtime.execute({ type: "check", source: "", lessonId: "l", checkpoint: "1", lang: "en", seed: 1 });
  assert.equal(result.kind, "timeout");
  assert.equal(result.timeLimit, 0.05);
});

test("a worker error during a run restarts Python and tells the learner", async () => {
  const { runtime, notices, workers } = makeRuntime(
    scripted({
      run(msg, worker) {
        worker.onerror({ message: "boom", preventDefault() {} });
      },
    }),
  );
  const result = await runtime.execute({ type: "run", source: "" });
  assert.equal(result.kind, "crashed");
  assert.deepEqual(notices, ["runtime_crashed"]);
  await sleep(5);
  assert.equal(workers.length, 2);
});

test("a boot failure ends queued jobs as failed; the next job tries again", async () => {
  let fail = true;
  const { runtime } = makeRuntime((msg, worker) => {
    if (msg.type === Req.INIT && fail) worker.reply(response(Res.FAILURE, msg.runId, { message: "no wasm", fatal: true }));
    else scripted()(msg, worker);
  });
  const first = await runtime.execute({ type: "run", source: "" });
  assert.deepEqual(first, { kind: "failed", message: "no wasm" });
  assert.equal(runtime.state, "failed");
  fail = false;
  const second = await runtime.execute({ type: "run", source: "" });
  assert.equal(second.kind, "result");
});

test("jobs run one at a time, in order, and a queued job can be cancelled", async () => {
  const order = [];
  const { runtime } = makeRuntime(
    scripted({
      run(msg, worker) {
        order.push(msg.source);
        setTimeout(() => worker.reply(response(Res.RESULT, msg.runId, { run: { status: "ok" } })), 5);
      },
    }),
  );
  const a = runtime.execute({ type: "run", source: "a", owner: "A" });
  const b = runtime.execute({ type: "run", source: "b", owner: "B" });
  const c = runtime.execute({ type: "run", source: "c", owner: "C" });
  runtime.stop("B");
  assert.equal((await b).kind, "cancelled");
  assert.equal((await a).kind, "result");
  assert.equal((await c).kind, "result");
  assert.deepEqual(order, ["a", "c"]);
});

test("checkpoints to warm are prepared once Python is ready, after queued jobs, and again after a restart", async () => {
  const { runtime, workers } = makeRuntime(scripted());
  runtime.warm("claims-abstention", ["1", "2", "3"]);
  assert.equal(workers.length, 0); // nothing to send before a worker exists
  await runtime.execute({ type: "check", source: "x = 1", lessonId: "claims-abstention", checkpoint: "2", lang: "en", seed: 1 });
  const types = workers[0].sent.map((m) => m.type);
  assert.deepEqual(types, [Req.INIT, Req.CHECK, Req.PREPARE, Req.PREPARE, Req.PREPARE]);
  assert.deepEqual(workers[0].sent.slice(2).map((m) => [m.lessonId, m.checkpoint]),
    [["claims-abstention", "1"], ["claims-abstention", "2"], ["claims-abstention", "3"]]);
  runtime._restart(false);
  await sleep(10);
  assert.deepEqual(workers[1].sent.map((m) => m.type), [Req.INIT, Req.PREPARE, Req.PREPARE, Req.PREPARE]);
});

test("a Run result carries the checkpoint's plot only when the worker sent one", async () => {
  const plot = { kind: "reliability", expected: ["none"], actual: null };
  const { runtime } = makeRuntime(scripted({
    run(msg, worker) {
      worker.reply(response(Res.STARTED, msg.runId, { timeLimit: 5 }));
      worker.reply(response(Res.RESULT, msg.runId, { run: { status: "ok" }, plot }));
    },
  }));
  const result = await runtime.execute({ type: "run", source: "x = 1", lessonId: "l", checkpoint: "3" });
  assert.deepEqual(result, { kind: "result", run: { status: "ok" }, plot });
});

test("each Check uses the seed prepared ahead, then a new seed is prepared for the next Check", async () => {
  const { runtime, workers } = makeRuntime(scripted({
    run(msg, worker) {
      worker.reply(response(Res.STARTED, msg.runId, { timeLimit: 5 }));
      worker.reply(response(Res.VERDICT, msg.runId, { verdict: { status: "fail", seed: msg.seed } }));
    },
  }));
  runtime.warm("lesson", ["1"]);
  const first = runtime.seedFor("lesson", "1");
  const job = { type: "check", source: "x = 1", lessonId: "lesson", checkpoint: "1", lang: "en" };
  await runtime.execute({ ...job, seed: runtime.seedFor("lesson", "1") });
  const sent = workers[0].sent;
  const check = sent.find((m) => m.type === Req.CHECK);
  const prepares = sent.filter((m) => m.type === Req.PREPARE);
  assert.equal(check.seed, first);
  assert.equal(prepares[0].seed, first); // prepared ahead with the seed the Check then used
  const next = runtime.seedFor("lesson", "1");
  assert.notEqual(next, first);
  assert.equal(prepares.at(-1).seed, next); // and the next Check's seed is prepared right after the verdict
});
