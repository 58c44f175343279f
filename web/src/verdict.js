// The verdict area of a checkpoint: what the grader (or a Run) said, in the learner's language, as text nodes only.
//
// Order of a failing verdict: the headline; how many cases failed, by kind; a Python error raised in the learner's
// own code, explained; then where it happened (the case's label, the complete call with "Try this case", expected, got, why, hint);
// the traceback; notes; the plot. The headline is what the page announces (once per run).

import { renderPlot } from "./figures/index.js";
import { t } from "./i18n.js";

const TRACEBACK_LINES = 30;

export function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined && text !== null) node.textContent = String(text);
  return node;
}

function codeBlock(text, className = "verdict-code") {
  const pre = el("pre", className, text);
  pre.dir = "ltr";
  return pre;
}

/** Keep the end of a long traceback (where the error is), with a marker for what was cut. */
export function trimTraceback(text) {
  const lines = String(text || "").replace(/\s+$/, "").split("\n");
  if (lines.length <= TRACEBACK_LINES) return lines.join("\n");
  return ["…", ...lines.slice(-TRACEBACK_LINES)].join("\n");
}

/**
 * Rename the learner's files in a traceback: `main.py` line numbers belong to the segments the source was made of
 * (code carried over from an earlier checkpoint, the checkpoint's own code, or each checkpoint's code before the free
 * editor); `example.py` is the example/case snippet. `segments` = [{file, start, lines}], `snippet` its file name.
 */
export function relabelTraceback(text, segments = [], snippet = "example.py") {
  let out = String(text || "").replace(/File "main\.py", line (\d+)/g, (whole, n) => {
    const where = locate(segments, Number(n));
    return where ? `File "${where.file}", line ${where.line}` : whole;
  });
  if (snippet !== "example.py") out = out.replace(/File "example\.py"/g, `File "${snippet}"`);
  return out;
}

/** The segment holding line `line` of the composed source, with the line number inside it; null outside. */
export function locate(segments, line) {
  if (!Number.isInteger(line)) return null;
  for (const segment of segments) {
    if (line >= segment.start && line < segment.start + segment.lines) {
      return { ...segment, line: line - segment.start + 1 };
    }
  }
  return null;
}

/** The line of `snippet` (default example.py) where a traceback ends, or null. */
export function snippetLine(traceback, snippet = "example.py") {
  const pattern = new RegExp(`File "${snippet.replace(/\./g, "\\.")}", line (\\d+)`, "g");
  let line = null;
  for (const match of String(traceback || "").matchAll(pattern)) line = Number(match[1]);
  return line;
}

/** Set the area to a simple state ("idle" | "running" | "error" | "timeout" | ...) with one line of text. */
export function showStatus(area, status, text = "") {
  area.dataset.verdict = status;
  area.replaceChildren();
  if (text) area.append(el("p", "verdict-line", text));
  return text;
}

function row(dl, label, value, { code = false, after = null, nodes = null } = {}) {
  if (value === undefined || value === null || value === "") return;
  dl.append(el("dt", null, label));
  const dd = el("dd");
  if (code) dd.append(codeBlock(value));
  else if (nodes && nodes.length) dd.append(...nodes);
  else dd.textContent = String(value);
  if (after) dd.append(after);
  dl.append(dd);
}

/**
 * A declared mistake's feedback as nodes: its parts (`failure.feedback_parts`, the author's markdown read at build
 * time by werkbank/markdown.py inline_parts: [{text, code?, em?, strong?, href?}]) become text inside code, em,
 * strong and link elements. Text only, never HTML; a link only to http(s). `make(tag, className, text)` and
 * `text(string)` build the nodes (the DOM's by default).
 */
export function feedbackNodes(parts, make = el, text = (s) => document.createTextNode(s)) {
  const out = [];
  for (const part of Array.isArray(parts) ? parts : []) {
    if (!part || typeof part.text !== "string") continue;
    let node = part.code ? make("code", null, part.text) : text(part.text);
    for (const tag of ["em", "strong"]) {
      if (part[tag] === true) {
        const wrap = make(tag, null);
        wrap.append(node);
        node = wrap;
      }
    }
    if (typeof part.href === "string" && /^https?:\/\//i.test(part.href)) {
      const link = make("a", null);
      link.href = part.href;
      link.rel = "noopener noreferrer";
      link.target = "_blank";
      link.append(node);
      node = link;
    }
    out.push(node);
  }
  return out;
}

/**
 * The Python error to explain first, as {exc, message, line, explain}, or null. The engine decides and explains it
 * (graders/engine/judge.py explain_error, in the learner's language): `failure.python_error` when a case failed
 * because the learner's code raised something the case did not expect, `python_error` when the code stopped before
 * or between the cases, and a Run's `python_error` (graders/hosts/pyodide.py).
 */
export function pythonError(verdict) {
  const failure = verdict.failure;
  if (failure && failure.python_error) return failure.python_error;
  return verdict.python_error || null;
}

/**
 * The box explaining a Python error: "{exc} on line N of your code", Python's message, and what it means.
 * `where` is {line, label} from the caller's line mapping (label: null for the learner's own code).
 */
export function pythonErrorBox(error, where) {
  const box = el("div", "python-error");
  box.dataset.pythonError = error.exc;
  const title = where && where.label ? where.label
    : where && Number.isInteger(where.line) ? t("python_error_line", { exc: error.exc, line: where.line })
      : t("python_error", { exc: error.exc });
  box.append(el("p", "python-error-title", title));
  if (error.message) box.append(codeBlock(`${error.exc}: ${error.message}`, "python-error-message"));
  if (error.explain) box.append(el("p", "python-error-explain", error.explain));
  return box;
}

/**
 * Render a grader verdict into `area`; returns {status, headline}.
 * Options: lang, timeLimit, where(line) -> {line, label} for a line of the composed source, relabel(traceback),
 * onTryCase({source, expected}) (offered when the failure carries a complete call). Plots go through the figure
 * registry (web/src/figures/index.js).
 */
export function renderVerdict(area, verdict, {
  lang, timeLimit, where = (line) => ({ line, label: null }), relabel = (text) => text, onTryCase = null,
} = {}) {
  const status = ["pass", "fail", "error", "timeout"].includes(verdict.status) ? verdict.status : "error";
  area.dataset.verdict = status;
  area.replaceChildren();
  const counts = { passed: verdict.passed ?? 0, total: verdict.total ?? 0 };
  let headline;
  if (verdict.status === "pass") headline = t("verdict_pass", counts);
  else if (verdict.status === "fail") headline = t("verdict_fail", counts);
  else if (verdict.status === "timeout") headline = t("verdict_timeout", { seconds: timeLimit ?? "?" });
  else if (verdict.status === "author_error") headline = t("verdict_author_error");
  else headline = t("verdict_error");
  area.append(el("p", "verdict-line", headline));
  // A failing verdict's engine message repeats the counts and names the raw case id: the headline and the case's
  // label say it better. Other statuses' messages (syntax error on line N, exit code, ...) are shown.
  if (verdict.status !== "fail" && verdict.message && verdict.message !== headline) {
    area.append(el("p", "verdict-message", verdict.message));
  }
  if (verdict.status === "fail" && typeof verdict.summary_text === "string" && verdict.summary_text) {
    // every failing case counted by kind (graders/engine/judge.py summary), before the first one is shown
    const summary = el("p", "verdict-summary", verdict.summary_text);
    summary.dataset.summary = "";
    area.append(summary);
  }
  const error = status === "pass" ? null : pythonError(verdict);
  if (error) area.append(pythonErrorBox(error, Number.isInteger(error.line) ? where(error.line) : null));
  const failure = verdict.failure;
  if (verdict.status === "fail" && failure) {
    const details = el("div", "case-details");
    if (error) details.append(el("p", "case-details-title", t("case_details")));
    if (failure.case_label) {
      // the case's label in the learner's language (never the raw case id), and how the case came about
      const kind = [failure.generated ? t("case_generated") : "", failure.shrunk ? t("case_shrunk") : ""].filter(Boolean);
      const label = el("p", "case-label");
      label.append(el("span", "case-label-name", `${t("case")}: `),
        el("span", null, `${failure.case_label}${kind.length ? ` (${kind.join(", ")})` : ""}`));
      details.append(label);
    }
    const dl = el("dl", "verdict-details");
    const source = tryableSource(failure);
    let tryButton = null;
    if (source && onTryCase) {
      tryButton = el("button", "btn try-case", t("try_case"));
      tryButton.type = "button";
      tryButton.dataset.action = "try-case";
      tryButton.addEventListener("click", () => onTryCase({ source, expected: failure.expected }));
    }
    row(dl, t("call"), source || failure.call, { code: true, after: tryButton });
    row(dl, t("expected"), failure.expected, { code: true });
    row(dl, t("got"), failure.actual, { code: true });
    row(dl, t("got_later"), failure.actual_later, { code: true });
    row(dl, t("why"), failure.reason);
    row(dl, "", failure.explanation);
    row(dl, t("case_hint"), failure.hint);
    // a declared mistake that fails exactly like this (engine), its markdown shown as code, emphasis and links
    row(dl, t("known_mistake"), failure.feedback, { nodes: feedbackNodes(failure.feedback_parts) });
    details.append(dl);
    area.append(details);
  }
  if (verdict.traceback && verdict.status !== "pass") {
    const details = el("details", "verdict-traceback");
    details.open = verdict.status === "error" && !error;
    details.append(el("summary", null, t("traceback")));
    details.append(codeBlock(trimTraceback(relabel(verdict.traceback)), ""));
    area.append(details);
  }
  for (const note of verdict.notes || []) area.append(el("p", "verdict-note", note));
  if (verdict.plot) renderPlot(area, verdict.plot, lang);
  return { status, headline };
}

/** The failing call as runnable Python: the engine's complete `call_source`, else the shown call when nothing in it
 * was cut ("…"), else null. */
export function tryableSource(failure) {
  if (!failure) return null;
  if (typeof failure.call_source === "string" && failure.call_source.trim()) {
    // an engine without a source for this case repeats the bounded call, which is not runnable when cut off
    const cut = failure.call_source === failure.call && failure.call.includes("…");
    if (!cut) return failure.call_source;
  }
  if (typeof failure.call === "string" && failure.call && !failure.call.includes("…")) return failure.call;
  return null;
}

/**
 * After a Run: the value of the snippet's last line, or, for a case being tried, the learner's result beside the
 * expected one.
 */
export function renderRunValue(area, value, expected = null) {
  const box = el("dl", expected !== null ? "run-result compare" : "run-result");
  box.dataset.result = "";
  const add = (label, text, name) => {
    const group = el("div", "run-result-item");
    group.dataset.resultPart = name;
    const dd = el("dd");
    dd.append(codeBlock(text));
    group.append(el("dt", null, label), dd);
    box.append(group);
  };
  if (expected !== null) {
    add(t("your_result"), value ?? "", "yours");
    add(t("expected_result"), expected, "expected");
  } else {
    add(t("result"), value ?? "", "value");
  }
  area.append(box);
  return box;
}
