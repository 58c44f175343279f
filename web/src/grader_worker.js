// The grader worker (trusted): never runs learner code.
//
// It boots Pyodide + numpy + the engine, loads grading/<lesson>.json (hidden graders and reference solutions) into
// graders.hosts.pyodide_grader, and grading/<lesson>.<lang>.checks: every checkpoint's cases and expected outcomes,
// which the build computed once (werkbank/build.py prepared_checks). PREPARE hands the page a checkpoint's plan
// (inputs only); the key with the expected outcomes stays here; JUDGE judges the run result a learner worker
// produced, which the engine treats as untrusted data. Every Check of a checkpoint runs the same cases: the ones
// `werkbank grade` runs. Learner code never runs in this interpreter, so nothing it does can change a verdict.

import { packWheel, Req, Res, response, validate } from "./protocol.js";
import {
  fetchEngine,
  fetchText,
  fetchWheel,
  fromPython,
  isFatal,
  loadNumpy,
  startPyodide,
  WHEELS_URL,
  writeEngine,
} from "./pyboot.js";

const post = self.postMessage.bind(self);
const realFetch = self.fetch.bind(self);

// What needs no Python starts as soon as the worker runs, before INIT (the page may start this worker early and
// send INIT later, see runtime.js): the engine's files decoded, numpy's wheel fetched and unpacked.
const early = {
  engine: fetchEngine(realFetch),
  numpy: fetchWheel("numpy", realFetch),
};
early.numpy.catch(() => {});

let pyodide = null;
let grader = null;
let booting = null;
const lessons = new Map(); // lesson id -> Promise (loaded, requirements installed)
const checkFiles = new Map(); // "lesson.lang" -> Promise of the build's prepared Checks ({checkpoint: entry}) or null
const keys = new Map(); // "lesson/checkpoint/lang" -> the prepared Check (see prepared())

async function boot(runId, lessonId, lang, runtime) {
  const progress = (stage, percent) => post(response(Res.PROGRESS, runId, { stage, percent, loaded: 0, total: 0 }));
  progress("runtime", 1);
  const lessonText = lessonId ? fetchText(`../grading/${lessonId}.json`, realFetch) : null;
  if (lessonText) lessonText.catch(() => {});
  if (lessonId && lang) checksOf(lessonId, lang); // fetched and inflated while Python boots
  const started = await startPyodide({ post, runId, emit: () => {}, fetchFn: realFetch, runtime });
  pyodide = started.pyodide;
  const compiled = await loadNumpy(pyodide, early.numpy, {
    loadPackage: pyodide.loadPackage.bind(pyodide),
    fetchFn: realFetch,
  });
  progress("numpy", 92);
  writeEngine(pyodide, (await early.engine).files);
  const numpy = await early.numpy.catch(() => null); // null: it came through loadPackage
  early.numpy = early.engine = null; // the unpacked copies (~13 MB) are in Pyodide's file system now
  grader = pyodide.pyimport("graders.hosts.pyodide_grader");
  if (lessonId) await lesson(lessonId, lessonText);
  progress("engine", 100);
  post(response(Res.READY, runId, { version: pyodide.version, sharedRuntime: started.shared }));
  // then numpy as unpacked and compiled here, for the page to hand to the learner workers it starts from now on (they
  // then neither fetch nor inflate the wheel, nor compile its libraries): after READY, so the copy into a Blob never
  // delays the page's readiness
  if (numpy) post(response(Res.NUMPY, runId, { wheel: packWheel(numpy, compiled) }));
}

/** Load a lesson's grading bundle once (and install its wheels: reference solutions may import them). */
function lesson(lessonId, text = null) {
  if (!/^[a-z0-9-]+$/.test(lessonId)) return Promise.reject(new Error(`bad lesson id ${lessonId}`));
  if (!lessons.has(lessonId)) {
    const ready = (async () => {
      const bundle = await (text || fetchText(`../grading/${lessonId}.json`, realFetch));
      const data = JSON.parse(bundle);
      if (Array.isArray(data.requirements) && data.requirements.length) {
        await pyodide.loadPackage("micropip", { messageCallback: () => {} });
        const host = pyodide.pyimport("graders.hosts.pyodide"); // the same installer as the learner workers'
        await host.install_requirements(bundle, WHEELS_URL);
        host.destroy();
      }
      fromPython(grader.load_lesson(bundle), "load_lesson");
    })();
    ready.catch(() => lessons.delete(lessonId));
    lessons.set(lessonId, ready);
  }
  return lessons.get(lessonId);
}

const encoder = new TextEncoder();
/* global SETTINGS */
/** What stands for a run result too long to read (graders/engine/judge.py read_run: the same status and problem). */
const TOO_LARGE = '{"status": "unreadable", "problem": "too large"}';

/**
 * A run result (untrusted JSON text) as UTF-8 bytes: a Uint8Array crosses into Python as one copy. One longer than
 * the judge reads (SETTINGS.runResultLimit, in bytes; UTF-8 takes at least a byte a character) is not copied at all:
 * the judge gets TOO_LARGE instead, and says so.
 */
const utf8 = (text) => {
  const value = String(text);
  return encoder.encode(value.length > SETTINGS.runResultLimit ? TOO_LARGE : value);
};

/**
 * The build's prepared Checks of a lesson in a language (grading/<lesson>.<lang>.checks, gzip-compressed JSON):
 * resolves to {checkpoint id: {plan, key, time_limit, plot_case} | {author_error}}, or null when the build has none
 * (then each Check is prepared here). Fetched once.
 */
function checksOf(lessonId, lang) {
  const id = `${lessonId}.${lang}`;
  if (!checkFiles.has(id)) {
    const ready = (async () => {
      if (!/^[a-z0-9-]+$/.test(lessonId) || !/^[a-z]{2,3}$/.test(lang)) return null;
      const res = await realFetch(new URL(`../grading/${id}.checks`, import.meta.url).href);
      if (!res.ok || !res.body) return null;
      const text = await new Response(res.body.pipeThrough(new DecompressionStream("gzip"))).text();
      const data = JSON.parse(text);
      return data && typeof data.checks === "object" && data.checks ? data.checks : null;
    })().catch(() => null);
    checkFiles.set(id, ready);
  }
  return checkFiles.get(id);
}

/**
 * The prepared Check of a checkpoint in a language: {ref, planJson, plotCase, timeLimit}, or {ref, author: true} for
 * an author error. The key stays in Python under `ref`: the build's (graders.hosts.pyodide_grader.load_check), or,
 * when the build shipped none, one prepared here (pyodide_grader.prepare). Every Check of the checkpoint uses it.
 */
async function prepared(msg) {
  const id = `${msg.lessonId}/${msg.checkpoint}/${msg.lang}`;
  if (keys.has(id)) return keys.get(id);
  await lesson(msg.lessonId);
  const built = await checksOf(msg.lessonId, String(msg.lang));
  const check = built ? built[String(msg.checkpoint)] : null;
  let entry;
  if (check && typeof check === "object") {
    const ref = grader.ref_of(msg.lessonId, String(msg.checkpoint), String(msg.lang));
    const author = typeof check.author_error === "string" ? check.author_error : "";
    fromPython(grader.load_check(ref, utf8(check.plan || ""), utf8(check.key || ""), author), "load_check");
    entry = author
      ? { ref, author: true, planJson: "", plotCase: "", timeLimit: 0 }
      : {
          ref,
          author: false,
          planJson: String(check.plan),
          plotCase: String(check.plot_case || ""),
          timeLimit: Number(check.time_limit) || 0,
        };
  } else {
    const view = fromPython(grader.prepare(msg.lessonId, String(msg.checkpoint), String(msg.lang)), "prepare");
    entry =
      typeof view.author_error === "string"
        ? { ref: String(view.ref), author: true, planJson: "", plotCase: "", timeLimit: 0 }
        : {
            ref: String(view.ref),
            author: false,
            planJson: JSON.stringify(view.plan),
            plotCase: typeof view.plot_case === "string" ? view.plot_case : "",
            timeLimit: Number(view.time_limit) || 0,
          };
  }
  keys.set(id, entry);
  return entry;
}

const rounds = new Map(); // shrink id -> {preparedJson, stateJson}: the round whose plan a learner worker runs now
let shrinkCount = 0;

/** One step of shrinking a failing case, or calling it on its own (graders.hosts.pyodide_grader: shrink_start/round/pick). */
async function shrink(msg) {
  let verdict = msg.verdict;
  let stateJson;
  if (msg.phase === "start") {
    const entry = await prepared(msg);
    if (entry.author) return { verdict, plan: "", shrinkId: "" };
    stateJson = grader.shrink_start(entry.ref, utf8(msg.runJson), JSON.stringify(verdict));
  } else {
    const round = rounds.get(msg.shrinkId);
    rounds.delete(msg.shrinkId);
    if (!round) return { verdict, plan: "", shrinkId: "" };
    const picked = fromPython(
      grader.shrink_pick(
        round.preparedJson,
        utf8(msg.runJson),
        JSON.stringify(verdict),
        round.stateJson,
        String(msg.lang),
      ),
      "shrink_pick",
    );
    verdict = picked.verdict;
    stateJson = JSON.stringify(picked.state);
  }
  if (!stateJson || stateJson === "null") return { verdict, plan: "", shrinkId: "" };
  const preparedJson = grader.shrink_round(msg.lessonId, String(msg.checkpoint), stateJson);
  if (!preparedJson || preparedJson === "null") return { verdict, plan: "", shrinkId: "" };
  const shrinkId = String(++shrinkCount);
  rounds.clear(); // one shrink at a time
  rounds.set(shrinkId, { preparedJson, stateJson });
  return { verdict, plan: JSON.stringify(JSON.parse(preparedJson).plan), shrinkId };
}

async function handle(msg) {
  try {
    if (!grader) await booting;
    if (msg.type === Req.PREPARE) {
      const entry = await prepared(msg);
      post(
        response(Res.PREPARED, msg.runId, {
          plan: entry.planJson,
          plotCase: entry.plotCase,
          timeLimit: entry.timeLimit,
        }),
      );
    } else if (msg.type === Req.JUDGE) {
      const entry = await prepared(msg);
      const verdict = fromPython(grader.judge(entry.ref, utf8(msg.runJson), msg.lang), "judge");
      post(response(Res.VERDICT, msg.runId, { verdict }));
    } else if (msg.type === Req.EARLY) {
      const entry = await prepared(msg);
      const verdict = entry.author
        ? null
        : fromPython(grader.judge_early(entry.ref, utf8(msg.runJson), msg.lang), "early");
      post(response(Res.EARLY, msg.runId, { verdict }));
    } else if (msg.type === Req.SHRINK) {
      post(response(Res.SHRUNK, msg.runId, await shrink(msg)));
    } else if (msg.type === Req.REHEARSE) {
      const entry = await prepared(msg);
      const done = entry.author
        ? null
        : fromPython(grader.rehearse(msg.lessonId, String(msg.checkpoint), String(msg.lang)), "rehearse");
      post(response(Res.REHEARSED, msg.runId, done && typeof done.source === "string" ? { source: done.source } : {}));
    } else if (msg.type === Req.PLOT) {
      const entry = await prepared(msg);
      const plot = entry.author ? null : fromPython(grader.plot(entry.ref, utf8(msg.runJson)), "plot");
      post(response(Res.PLOTTED, msg.runId, { plot }));
    } else {
      throw new Error(`the grader worker does not do ${msg.type}`);
    }
  } catch (error) {
    post(
      response(Res.FAILURE, msg.runId, {
        message: String((error && error.message) || error),
        fatal: isFatal(pyodide, error),
      }),
    );
  }
}

let queue = Promise.resolve();

self.addEventListener("message", (event) => {
  const msg = event.data;
  if (!validate(msg, "request")) return;
  if (msg.type === Req.INIT) {
    if (!booting) {
      // the runtime the page's first learner worker compiled before any learner code existed (runtime.js; startPyodide
      // takes only a WebAssembly.Module)
      booting = boot(
        msg.runId,
        typeof msg.lessonId === "string" ? msg.lessonId : "",
        typeof msg.lang === "string" ? msg.lang : "",
        msg.runtime,
      );
      booting.catch((error) =>
        post(response(Res.FAILURE, msg.runId, { message: String((error && error.message) || error), fatal: true })),
      );
    }
    return;
  }
  queue = queue.then(() => handle(msg));
});
