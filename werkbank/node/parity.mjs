// Pyodide parity for `werkbank check`: grade lesson files in Pyodide 0.27.7 under Node, the way the site's workers
// do, with no browser. Run by werkbank/parity.py; not a command of its own.
//
//   node werkbank/node/parity.mjs JOBS.json
//
// JOBS.json: {indexURL, wheels: [path], requirementWheels: {file: path}, engine: {path: text},
//             lessons: {id: bundle text}, prepare: [{lesson, checkpoint, seed, lang}],
//             jobs: [{id, lesson, checkpoint, seed, source, lang}], slackMs}
// stdout: one JSON object a line: {type: "prepared", lesson, checkpoint, seed, expected | author_error},
//         {type: "result", id, verdict, outcomes}, and at the end {type: "done", boots}.
//
// Python runs in a worker thread, so the main thread can interrupt a runaway run (as the page does with its
// interrupt buffer) and, if the interrupt is not heard, replace the worker (as the page replaces a stuck worker).
// Prepare, the learner file and judge use one interpreter: graders/hosts/pyodide_grader.py for prepare and judge
// (which keeps each prepared Check by ref, as in the grader worker: a replaced worker prepares again), and
// graders/hosts/pyodide.py run_encoded() for the learner file, whose sandbox restores the interpreter after every run.

import { Worker, isMainThread, parentPort, workerData } from "node:worker_threads";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const LIB = "/werkbank";
const PREPARE_LIMIT_MS = 60_000;
const KILL_AFTER_MS = 3_000; // an interrupt not heard within this long: replace the worker

if (isMainThread) {
  await main(process.argv[2]);
} else {
  await workerMain(workerData);
}

// ------------------------------------------------------------------ main thread

function emit(obj) {
  process.stdout.write(JSON.stringify(obj) + "\n");
}

async function main(jobsPath) {
  const spec = JSON.parse(readFileSync(jobsPath, "utf8"));
  const slack = spec.slackMs ?? 300;
  let boots = 0;
  let py = null;

  async function start() {
    boots += 1;
    const interrupt = new Uint8Array(new SharedArrayBuffer(1));
    const worker = new Worker(fileURLToPath(import.meta.url), {
      workerData: { ...spec, jobs: undefined, prepare: undefined, interrupt },
    });
    const pending = new Map();
    let nextId = 0;
    let failed = null;
    worker.on("message", (msg) => {
      const waiter = pending.get(msg.id);
      if (waiter) {
        pending.delete(msg.id);
        waiter.resolve(msg);
      }
    });
    const fail = (error) => {
      failed = error;
      for (const waiter of pending.values()) waiter.reject(error);
      pending.clear();
    };
    worker.on("error", fail);
    worker.on("exit", (code) => fail(new Error(`the Pyodide worker exited (${code})`)));
    const call = (message) =>
      new Promise((resolve, reject) => {
        if (failed) return reject(failed);
        const id = ++nextId;
        pending.set(id, { resolve, reject });
        worker.postMessage({ ...message, id });
      });
    const ready = await call({ type: "boot" });
    if (ready.error) throw new Error(ready.error);
    return { worker, interrupt, call };
  }

  async function timed(message, limitMs) {
    // Send `message`; after `limitMs` interrupt Python, and after KILL_AFTER_MS more replace the worker.
    let timedOut = false;
    let killed = false;
    const current = py;
    const timer = setTimeout(() => {
      timedOut = true;
      current.interrupt[0] = 2; // SIGINT
    }, limitMs);
    const killer = setTimeout(() => {
      killed = true;
      current.worker.terminate();
    }, limitMs + KILL_AFTER_MS);
    try {
      const reply = await current.call(message);
      return { reply, timedOut };
    } catch (error) {
      if (killed) return { reply: null, timedOut: true };
      throw error;
    } finally {
      clearTimeout(timer);
      clearTimeout(killer);
      current.interrupt[0] = 0;
      if (killed) py = await start();
    }
  }

  py = await start();
  const prepared = new Map(); // "lesson/checkpoint/seed" -> {item, ref, plan, expected} | {author_error}
  async function prepare(item) {
    const { reply, timedOut } = await timed({ type: "prepare", ...item }, PREPARE_LIMIT_MS);
    if (!reply || timedOut) return { author_error: `preparing the checkpoint took longer than ${PREPARE_LIMIT_MS / 1000} s` };
    return { item, boot: boots, ...JSON.parse(reply.prepared) };
  }
  for (const item of spec.prepare) {
    const data = await prepare(item);
    prepared.set(`${item.lesson}/${item.checkpoint}/${item.seed}`, data);
    emit({ type: "prepared", ...item, ...(data.author_error ? { author_error: data.author_error } : { expected: data.expected }) });
  }
  for (const job of spec.jobs) {
    const where = `${job.lesson}/${job.checkpoint}/${job.seed}`;
    let data = prepared.get(where);
    if (data && data.ref && data.boot !== boots) {
      // the worker was replaced since: its Checks went with it (the grader keeps them by ref), so prepare again
      data = await prepare(data.item);
      prepared.set(where, data);
    }
    if (!data || !data.ref || data.author_error) {
      const message = data && data.ref
        ? { type: "judge", ref: data.ref, run: "{}", lang: job.lang }
        : { type: "author_error", detail: (data && data.author_error) || "not prepared", lang: job.lang };
      const { reply } = await timed(message, 10_000);
      emit({ type: "result", id: job.id, verdict: JSON.parse(reply.verdict), outcomes: [] });
      continue;
    }
    const limit = data.time_limit * 1000 + slack;
    const { reply, timedOut } = await timed({ type: "run", source: job.source, plan: JSON.stringify(data.plan) }, limit);
    let run;
    if (timedOut || !reply) run = { status: "timeout", stdout: "", stderr: "", outcomes: [] };
    else run = JSON.parse(reply.run);
    if (data.boot !== boots) data = await prepare(data.item); // the run's worker was replaced
    prepared.set(where, data);
    const judged = await timed({ type: "judge", ref: data.ref, run: JSON.stringify(run), lang: job.lang }, 30_000);
    const outcomes = (run.outcomes || []).map(({ traceback, error_line, ...rest }) => rest);
    emit({ type: "result", id: job.id, verdict: JSON.parse(judged.reply.verdict), outcomes });
  }
  emit({ type: "done", boots });
  await py.worker.terminate();
}

// ------------------------------------------------------------------ worker thread: one Pyodide interpreter

async function workerMain(spec) {
  let grader = null;
  let host = null;
  let expectedOf = null;
  let authorError = null;
  parentPort.on("message", async (msg) => {
    const reply = (data) => parentPort.postMessage({ id: msg.id, ...data });
    try {
      if (msg.type === "boot") {
        ({ grader, host, expectedOf, authorError } = await boot(spec));
        reply({ ok: true });
      } else if (msg.type === "prepare") {
        // what the page gets (the plan) and, for the comparison with CPython, the expected outcomes kept by ref
        const view = JSON.parse(grader.prepare(msg.lesson, String(msg.checkpoint), msg.lang, msg.seed));
        if (!view.author_error) view.expected = JSON.parse(expectedOf(view.ref));
        reply({ prepared: JSON.stringify(view) });
      } else if (msg.type === "run") {
        // the learner worker's own entry point: the plan and the run result as UTF-8 JSON (web/src/worker.js)
        const out = host.run_encoded(msg.source, new TextEncoder().encode(msg.plan), null);
        try {
          reply({ run: new TextDecoder().decode(out.toJs()) });
        } finally {
          out.destroy();
        }
      } else if (msg.type === "judge") {
        reply({ verdict: grader.judge(msg.ref, msg.run, msg.lang) });
      } else if (msg.type === "author_error") {
        reply({ verdict: authorError(msg.detail, msg.lang) });
      }
    } catch (error) {
      const text = String((error && error.message) || error).split("\n").slice(-3).join(" ");
      if (msg.type === "boot") reply({ error: text });
      else if (msg.type === "prepare") reply({ prepared: JSON.stringify({ author_error: text }) });
      else if (msg.type === "run") reply({ run: JSON.stringify({ status: "error", stdout: "", stderr: "", traceback: text, outcomes: [] }) });
      else reply({ verdict: JSON.stringify({ status: "error", message: text, failed_cases: [] }) });
    }
  });
}

async function boot(spec) {
  const { loadPyodide } = await import(new URL("pyodide.mjs", spec.indexURL).href);
  // the hash seed of the site's workers (web/src/pyboot.js HASH_SEED) and of the command line's child processes
  const pyodide = await loadPyodide({ indexURL: fileURLToPath(spec.indexURL), stdout: () => {}, stderr: () => {},
    env: { PYTHONHASHSEED: "0" } });
  for (const wheel of spec.wheels) {
    await pyodide.loadPackage(wheel, { messageCallback: () => {}, errorCallback: () => {} });
  }
  pyodide.setInterruptBuffer(spec.interrupt);
  for (const [path, content] of Object.entries(spec.engine)) {
    const full = `${LIB}/${path}`;
    pyodide.FS.mkdirTree(full.slice(0, full.lastIndexOf("/")));
    pyodide.FS.writeFile(full, content);
  }
  pyodide.runPython(`import sys\nif ${JSON.stringify(LIB)} not in sys.path: sys.path.insert(0, ${JSON.stringify(LIB)})`);
  const grader = pyodide.pyimport("graders.hosts.pyodide_grader");
  const host = pyodide.pyimport("graders.hosts.pyodide");
  const wheels = Object.entries(spec.requirementWheels || {});
  if (wheels.length) {
    pyodide.FS.mkdirTree("/wheels");
    for (const [file, path] of wheels) pyodide.FS.writeFile(`/wheels/${file}`, readFileSync(path));
  }
  for (const text of Object.values(spec.lessons)) {
    grader.load_lesson(text);
    const bundle = JSON.parse(text);
    if (Array.isArray(bundle.requirements) && bundle.requirements.length) {
      await host.install_requirements(text, "emfs:/wheels/");
    }
  }
  pyodide.runPython(`
import json as _json
from graders.engine.judge import author_error as _author_error
from graders.hosts import pyodide_grader as _grader
def _expected_of(ref):
    return _json.dumps(_grader.prepared(ref)["key"]["expected"])
def _author_error_json(detail, lang):
    return _json.dumps(_author_error(detail, lang))
`);
  return { grader, host, expectedOf: pyodide.globals.get("_expected_of"), authorError: pyodide.globals.get("_author_error_json") };
}
