// Unit tests of the learner UI's pure parts (run by `node --test web/test/`, which tests/test_site.py calls):
// the translation rule, right-to-left comment runs, composed sources and their line mapping, verdict helpers, and
// the figure/plot registry against the lessons.
import assert from "node:assert/strict";
import { readFileSync, readdirSync, existsSync } from "node:fs";
import { test } from "node:test";

globalThis.SETTINGS = {
  languages: ["nl", "en", "ar"],
  rtlLanguages: ["ar"],
  fallbackLanguage: "en",
  outputLimit: 200000,
  messageLimit: 2000,
  tracebackLimit: 20000,
};

const { fill, loadStrings, t, isRtl } = await import("../src/i18n.js");
const { isMostlyRtl, ltrRuns } = await import("../src/editor.js");
const { compose, countsAsTried } = await import("../src/checkpoint.js");
const { balanced, cut, feedbackNodes, locate, pythonError, relabelTraceback, snippetLine, tryableSource } =
  await import("../src/verdict.js");
const { REGISTRY } = await import("../src/figures/index.js");
const { toTriple } = await import("../src/figures/reliability_plot.js");

test("t(): own language, then the fallback language, then the key itself (logged as a bug)", () => {
  loadStrings(null, { lang: "ar", strings: { run: "تشغيل", n: "{a} من {b}" }, fallback: { check: "Check" } });
  assert.equal(t("run"), "تشغيل");
  assert.equal(t("check"), "Check");
  assert.equal(t("n", { a: 1, b: 3 }), "1 من 3");
  const error = console.error;
  let logged = "";
  console.error = (message) => (logged = message);
  assert.equal(t("nope"), "nope");
  console.error = error;
  assert.match(logged, /nope/);
  assert.equal(fill("{x} and {y}", { x: 1 }), "1 and {y}");
  assert.ok(isRtl("ar") && !isRtl("nl"));
});

test("t(): a number that is not whole is written with the page language's decimal separator", () => {
  loadStrings(null, { lang: "nl", strings: { limit: "Tijdslimiet bereikt ({seconds} s), {n} gevallen" } });
  assert.equal(t("limit", { seconds: 21.2, n: 3 }), "Tijdslimiet bereikt (21,2 s), 3 gevallen");
  assert.equal(t("limit", { seconds: "21.2", n: 3 }), "Tijdslimiet bereikt (21.2 s), 3 gevallen"); // text stays text
  loadStrings(null, { lang: "en", strings: { limit: "Time limit reached ({seconds} s)" } });
  assert.equal(t("limit", { seconds: 21.2 }), "Time limit reached (21.2 s)");
});

test("right-to-left comments: which are, and the left-to-right runs inside them", () => {
  assert.ok(isMostlyRtl("مثال: [0, 1]"));
  assert.ok(!isMostlyRtl("print the list [0, 1] here"));
  const text = "(و bins <= 0 يرفع ValueError هنا أيضًا). القيم [0, 1]، ثم f(x).";
  const runs = ltrRuns(text).map(([a, b]) => text.slice(a, b));
  assert.deepEqual(runs, ["bins <= 0", "ValueError", "[0, 1]", "f(x)"]);
  assert.deepEqual(ltrRuns("فقط عربي").length, 0);
});

test("compose(): parts become one module, and every line maps back to its editor", () => {
  const { source, segments } = compose([
    { file: "checkpoint2.py", kind: "carried", text: "a = 1\nb = 2" },
    { file: "main.py", kind: "own", text: "c = 3\n" },
    { file: "empty.py", kind: "own", text: "" },
  ]);
  assert.equal(source, "a = 1\nb = 2\nc = 3\n");
  assert.deepEqual(locate(segments, 2), { file: "checkpoint2.py", kind: "carried", start: 1, lines: 2, line: 2 });
  assert.equal(locate(segments, 3).file, "main.py");
  assert.equal(locate(segments, 3).line, 1);
  assert.equal(locate(segments, 4), null);
  const tb = 'Traceback:\n  File "main.py", line 3, in f\n  File "example.py", line 2, in <module>\nNameError: x';
  assert.equal(
    relabelTraceback(tb, segments, "playground.py"),
    'Traceback:\n  File "main.py", line 1, in f\n  File "playground.py", line 2, in <module>\nNameError: x',
  );
  assert.equal(snippetLine(tb), 2);
});

test("verdict helpers: the Python error to explain first (the engine's), the call to try", () => {
  const error = { exc: "TypeError", message: "bad", line: 4, explain: "A TypeError means ..." };
  const fail = {
    status: "fail",
    traceback: "...\nTypeError: bad",
    error_line: 4,
    failure: { actual: "TypeError('bad')", expected: "[1, 2]", call: "f([1, … 2 more])", python_error: error },
  };
  assert.deepEqual(pythonError(fail), error);
  // no engine field: nothing is guessed from the traceback
  assert.equal(pythonError({ ...fail, failure: { ...fail.failure, python_error: null } }), null);
  // an error before any case ran, and a Run's error
  assert.deepEqual(pythonError({ status: "error", failure: null, python_error: error }), error);
  assert.equal(pythonError({ status: "error", failure: null, python_error: null }), null);
  assert.equal(tryableSource(fail.failure), null); // cut off: not runnable
  assert.equal(tryableSource({ call: "f([1, 2])" }), "f([1, 2])");
  assert.equal(
    tryableSource({ call: "f([1, …])", call_source: "import numpy as np\nf(np.arange(3))" }),
    "import numpy as np\nf(np.arange(3))",
  );
});

test("feedback parts become text inside code, em, strong and link elements; a link only to http(s)", () => {
  // a stand-in for the DOM: an element is {tag, children, text}; a text node is a string
  const make = (tag, _className, text) => ({
    tag,
    children: text === undefined ? [] : [String(text)],
    append(node) {
      this.children.push(node);
    },
  });
  const show = (node) =>
    typeof node === "string"
      ? node
      : `<${node.tag}${node.href ? ` href=${node.href}` : ""}>${node.children.map(show).join("")}</${node.tag}>`;
  const parts = [
    { text: "Divide by " },
    { text: "how many", strong: true },
    { text: " values, " },
    { text: "len(values)", code: true },
    { text: "; " },
    { text: "both", em: true, strong: true },
    { text: " see " },
    { text: "the docs", href: "https://docs.python.org/3/" },
    { text: "<b>x</b>" },
    { text: "bad", href: "javascript:alert(1)" },
    { nope: 1 },
    null,
  ];
  const shown = feedbackNodes(parts, make, (s) => s)
    .map(show)
    .join("");
  assert.equal(
    shown,
    "Divide by <strong>how many</strong> values, <code>len(values)</code>; " +
      "<strong><em>both</em></strong> see <a href=https://docs.python.org/3/>the docs</a><b>x</b>bad",
  );
  assert.deepEqual(
    feedbackNodes(undefined, make, (s) => s),
    [],
  );
});

test("plot data: three plain lists of numbers; null stands for NaN", () => {
  assert.deepEqual(
    toTriple([
      [0.1, 0.9],
      [0, 1],
      [3, 2],
    ]),
    { conf: [0.1, 0.9], acc: [0, 1], count: [3, 2] },
  );
  const nan = toTriple([[null], [1], [4]]);
  assert.ok(Number.isNaN(nan.conf[0]));
  assert.equal(toTriple([[1], [1, 2], [1]]), null);
  assert.equal(toTriple({ conf: [1], acc: [1], count: [1] }), null);
  assert.equal(toTriple([["a"], [1], [1]]), null);
});

test("the one figure registry knows every figure and plot the lessons use", () => {
  const root = new URL("../../exercises/", import.meta.url);
  const used = { figure: new Set(), plot: new Set() };
  for (const lesson of readdirSync(root, { withFileTypes: true })) {
    if (!lesson.isDirectory()) continue;
    const dir = new URL(`${lesson.name}/`, root);
    for (const name of readdirSync(dir)) {
      if (name.endsWith(".md")) {
        for (const match of readFileSync(new URL(name, dir), "utf8").matchAll(/^```figure\s+([a-z0-9-]+)/gm)) {
          used.figure.add(match[1]);
        }
      }
    }
    const toml = new URL("lesson.toml", dir);
    if (existsSync(toml)) {
      for (const match of readFileSync(toml, "utf8").matchAll(/^plot\s*=\s*"([^"]*)"/gm)) {
        if (match[1]) used.plot.add(match[1]);
      }
    }
  }
  for (const name of used.figure) assert.equal(typeof REGISTRY[name]?.mount, "function", `figure ${name}`);
  for (const name of used.plot) assert.equal(typeof REGISTRY[name]?.plot, "function", `plot ${name}`);
  assert.ok(used.plot.has("reliability"));
});

test("importInStages: one module after the other, a task apart, resolving to the last; a failure stops the rest", async () => {
  const { importInStages } = await import("../src/checkpoint.js");
  const log = [];
  const load = (name) => {
    log.push(`import ${name}`);
    return new Promise((resolve) =>
      setTimeout(() => {
        log.push(`loaded ${name}`);
        resolve({ name });
      }, 5),
    );
  };
  const between = async () => log.push("task");
  const last = await importInStages(["view", "language", "editor"], load, between);
  assert.deepEqual(last, { name: "editor" });
  assert.deepEqual(log, [
    "import view",
    "loaded view",
    "task",
    "import language",
    "loaded language",
    "task",
    "import editor",
    "loaded editor",
  ]);

  log.length = 0;
  const failing = (name) => (name === "language" ? Promise.reject(new Error("offline")) : load(name));
  await assert.rejects(importInStages(["view", "language", "editor"], failing, between), /offline/);
  assert.deepEqual(log, ["import view", "loaded view", "task"]);

  // the default pause is a task boundary, not a microtask: work queued as microtasks by one stage all runs first
  let chained = 0;
  const seen = [];
  await importInStages(["a", "b"], async (name) => {
    seen.push([name, chained]);
    if (name === "a") {
      (async () => {
        for (let i = 0; i < 100; i++) await null;
        chained = 100;
      })();
    }
  });
  assert.deepEqual(seen, [
    ["a", 0],
    ["b", 100],
  ]);
});

test("learner text cannot end the element that isolates it, and is shown within a limit", () => {
  const RLO = "\u202e";
  const PDI = "\u2069";
  const FSI = "\u2068";
  assert.equal(balanced(`Bad${RLO}Error`), `Bad${RLO}Error`); // an override ends with its element
  assert.equal(balanced(`x${PDI}${RLO}y`), `x${RLO}y`); // a closing isolate it did not open is dropped
  assert.equal(balanced(`${FSI}open`), `${FSI}open${PDI}`); // one it opened is closed
  assert.equal(cut("abc", 5), "abc");
  assert.equal(cut("abcdef", 3), "abc…");
});

test("a Check counts as the learner's try unless it passed or the checkpoint's grader is broken", () => {
  for (const status of ["fail", "error", "timeout"]) assert.ok(countsAsTried({ status }), status);
  for (const status of ["pass", "author_error"]) assert.ok(!countsAsTried({ status }), status);
  assert.ok(!countsAsTried(null));
});
