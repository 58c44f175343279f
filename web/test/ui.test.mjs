// Unit tests of the learner UI's pure parts (run by `node --test web/test/`, which tests/test_site.py calls):
// the translation rule, right-to-left comment runs, composed sources and their line mapping, verdict helpers, and
// the figure/plot registry against the lessons.
import assert from "node:assert/strict";
import { readFileSync, readdirSync, existsSync } from "node:fs";
import { test } from "node:test";

globalThis.SETTINGS = { languages: ["nl", "en", "ar"], rtlLanguages: ["ar"], fallbackLanguage: "en", outputLimit: 200000 };

const { fill, loadStrings, t, isRtl } = await import("../src/i18n.js");
const { isMostlyRtl, ltrRuns } = await import("../src/editor.js");
const { compose } = await import("../src/checkpoint.js");
const { locate, parseException, pythonError, relabelTraceback, snippetLine, tryableSource } = await import(
  "../src/verdict.js"
);
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
  assert.equal(relabelTraceback(tb, segments, "playground.py"),
    'Traceback:\n  File "main.py", line 1, in f\n  File "playground.py", line 2, in <module>\nNameError: x');
  assert.equal(snippetLine(tb), 2);
});

test("verdict helpers: the exception, the Python error to explain first, the call to try", () => {
  assert.deepEqual(parseException("Traceback...\nNameError: name 'x' is not defined"),
    { exc: "NameError", message: "name 'x' is not defined" });
  assert.equal(parseException("all good"), null);
  const fail = {
    status: "fail", traceback: "...\nTypeError: bad", error_line: 4,
    failure: { actual: "TypeError('bad')", expected: "[1, 2]", call: "f([1, … 2 more])" },
  };
  assert.deepEqual(pythonError(fail), { exc: "TypeError", message: "bad", line: 4 });
  // an exception the case expected is not a bug in the learner's code
  assert.equal(pythonError({ ...fail, failure: { ...fail.failure, expected: "TypeError('x')" } }), null);
  // the engine's own field wins, null included
  assert.equal(pythonError({ ...fail, failure: { ...fail.failure, python_error: null } }), null);
  assert.equal(tryableSource(fail.failure), null); // cut off: not runnable
  assert.equal(tryableSource({ call: "f([1, 2])" }), "f([1, 2])");
  assert.equal(tryableSource({ call: "f([1, …])", call_source: "import numpy as np\nf(np.arange(3))" }),
    "import numpy as np\nf(np.arange(3))");
});

test("plot data: three plain lists of numbers; null stands for NaN", () => {
  assert.deepEqual(toTriple([[0.1, 0.9], [0, 1], [3, 2]]), { conf: [0.1, 0.9], acc: [0, 1], count: [3, 2] });
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
