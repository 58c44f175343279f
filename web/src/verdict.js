// The verdict area of a checkpoint: what the grader (or a Run) said, in the learner's language, as text nodes only.
//
// Order of a failing verdict: the headline; a Python error raised in the learner's own code, explained; how many
// cases failed, by kind; then where it happened (the case's label, the complete call with "Try this case" and "Trace
// this case", expected, got, why, hint); the list of every failing case (the first ones with their calls, each to try
// or trace); the traceback; notes; the plot. The page announces the headline with the first failing case's label
// and why it failed (once per run; `announcement`).
//
// Text that mixes right-to-left words with code, numbers or intervals (an Arabic case text) has its left-to-right
// runs isolated (web/src/bidi.js), each in an element of its own; code stays in `pre`/`code` with dir="ltr".

import { setIsolatedText } from "./bidi.js";
import { renderPlot } from "./figures/index.js";
import { t } from "./i18n.js";

const TRACEBACK_LINES = 30;
/** A failing call longer than this (characters of source) is shown in its bounded form. */
const LONG_CALL = 600;
/* global SETTINGS */
/**
 * Characters of learner text shown at most per piece (a Run's result is made in the learner's worker, so nothing
 * bounds it but this): the engine's own limits for messages and tracebacks, and for a Run's value.
 */
const SHOWN = { message: SETTINGS.messageLimit, traceback: SETTINGS.tracebackLimit, value: 20_000, name: 200 };

/** `text` cut to `limit` characters, with a marker. */
export function cut(text, limit) {
  const value = String(text ?? "");
  return value.length <= limit ? value : `${value.slice(0, limit)}…`;
}

/** An element with `text` as text nodes (left-to-right runs of right-to-left text isolated: web/src/bidi.js). */
export function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined && text !== null) setIsolatedText(node, String(text));
  return node;
}

// ---------------------------------------------------------------- learner text, direction-isolated
//
// Text learner code chose (an exception's name and message, an exit code, a result's repr, attribute and class
// names) can hold right-to-left letters and direction controls (U+202E reverses what follows it). Each such piece
// sits in an element of its own that isolates it (<bdi>, or a block: <pre>), so it can never reorder the page's
// text around it. The engine marks what it filled into its sentences the same way (Unicode's FSI ... PDI, see
// graders/engine/i18n.py isolate): `bidiNodes` turns those spans into <bdi> elements.

const FSI = "\u2068";
const PDI = "\u2069";
const OPENS_ISOLATE = new Set(["\u2066", "\u2067", "\u2068"]);

/** `text` with every isolate it opens closed and every closing one it did not open dropped (so an element that
 * isolates it is not ended from inside). */
export function balanced(text) {
  let depth = 0;
  let out = "";
  for (const ch of String(text)) {
    if (OPENS_ISOLATE.has(ch)) depth += 1;
    else if (ch === PDI) {
      if (depth === 0) continue;
      depth -= 1;
    }
    out += ch;
  }
  return out + PDI.repeat(depth);
}

/** A <bdi> holding learner text; `dir` "ltr" for Python source (a value's repr reads left to right on any page). */
export function bdi(text, dir = null) {
  const node = el("bdi", null, balanced(text ?? ""));
  if (dir) node.dir = dir;
  return node;
}

/** The nodes of an engine sentence: its text, with each FSI ... PDI span (a value filled in) as a <bdi>. */
export function bidiNodes(text) {
  const source = String(text ?? "");
  const nodes = [];
  let plain = "";
  let depth = 0;
  let inner = "";
  for (const ch of source) {
    if (depth === 0) {
      if (ch === FSI) {
        depth = 1;
        inner = "";
      } else if (ch !== PDI) {
        plain += ch;
      }
      continue;
    }
    if (OPENS_ISOLATE.has(ch)) depth += 1;
    else if (ch === PDI) depth -= 1;
    if (depth === 0) {
      if (plain) nodes.push(setIsolatedText(document.createDocumentFragment(), plain));
      nodes.push(bdi(inner));
      plain = "";
    } else {
      inner += ch;
    }
  }
  if (depth > 0) plain += FSI + inner; // an unclosed span: kept as text
  if (plain) nodes.push(setIsolatedText(document.createDocumentFragment(), balanced(plain)));
  return nodes;
}

/** An element with an engine sentence (see bidiNodes). */
function sentence(tag, className, text) {
  const node = el(tag, className);
  node.append(...bidiNodes(text));
  return node;
}

/**
 * The nodes of the UI string `key` with `values` filled in, each value (learner text) in a <bdi>; and that text as
 * one string, for the announcer. The values named in `source` are Python source: their <bdi> is left to right.
 */
export function templated(key, values = {}, source = []) {
  const marked = {};
  for (const name of Object.keys(values)) marked[name] = `\ue000${name}\ue001`;
  const nodes = [];
  for (const [i, part] of t(key, marked)
    .split(/\ue000(\w+)\ue001/)
    .entries()) {
    if (i % 2 === 0) {
      if (part) nodes.push(document.createTextNode(part));
    } else {
      nodes.push(bdi(values[part], source.includes(part) ? "ltr" : null));
    }
  }
  return { nodes, text: t(key, values) };
}

/** Like showStatus, with the line made by `templated(key, values, source)`; returns its text. */
export function showTemplated(area, status, key, values, source = []) {
  const { nodes, text } = templated(key, values, source);
  area.dataset.verdict = status;
  const line = el("p", "verdict-line");
  line.append(...nodes);
  area.replaceChildren(line);
  return text;
}

function codeBlock(text, className = "verdict-code") {
  const pre = el("pre", className, text);
  pre.dir = "ltr";
  return pre;
}

/** Keep the end of a long traceback (where the error is), with a marker for what was cut. */
export function trimTraceback(text) {
  const lines = cut(text || "", SHOWN.traceback)
    .replace(/\s+$/, "")
    .split("\n");
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

function row(dl, label, value, { code = false, after = null, nodes = null, name = "" } = {}) {
  if (value === undefined || value === null || value === "") return;
  dl.append(el("dt", null, label));
  const dd = el("dd");
  if (name) dd.dataset.row = name; // what the page brings into view after a Check (checkpoint.js _revealVerdict)
  if (code) dd.append(codeBlock(value));
  else if (nodes && nodes.length) dd.append(...nodes);
  else dd.append(...bidiNodes(value));
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
  error = { ...error, exc: cut(error.exc, SHOWN.name), message: cut(error.message || "", SHOWN.message) };
  box.dataset.pythonError = error.exc;
  const title = el("p", "python-error-title");
  if (where && where.label) title.textContent = where.label;
  else {
    const line = where && Number.isInteger(where.line) ? where.line : null;
    title.append(...templated(line !== null ? "python_error_line" : "python_error", { exc: error.exc, line }).nodes);
  }
  box.append(title);
  if (error.message) {
    const message = codeBlock("", "python-error-message");
    message.append(bdi(error.exc), ": ", bdi(error.message));
    box.append(message);
  }
  if (error.explain) box.append(el("p", "python-error-explain", error.explain));
  return box;
}

/**
 * Render a grader verdict into `area`; returns {status, headline, announcement}.
 * Options: lang, timeLimit, where(line) -> {line, label} for a line of the composed source, relabel(traceback),
 * onTryCase({source, expected, label}) and onTraceCase({source, expected, label}) (offered for the failing case and
 * each listed one that carries a complete call), idPrefix (unique ids in the page). Plots go through the figure
 * registry (web/src/figures/index.js).
 */
export function renderVerdict(
  area,
  verdict,
  {
    lang,
    timeLimit,
    where = (line) => ({ line, label: null }),
    relabel = (text) => text,
    onTryCase = null,
    onTraceCase = null,
    idPrefix = "verdict",
  } = {},
) {
  const status = ["pass", "fail", "error", "timeout"].includes(verdict.status) ? verdict.status : "error";
  area.dataset.verdict = status;
  area.replaceChildren();
  const counts = { passed: verdict.passed ?? 0, total: verdict.total ?? 0 };
  let headline;
  if (verdict.status === "pass") headline = t("verdict_pass", counts);
  else if (verdict.status === "fail" && verdict.early === true) headline = t("verdict_fail_early");
  else if (verdict.status === "fail") headline = t("verdict_fail", counts);
  else if (verdict.status === "timeout") headline = t("verdict_timeout", { seconds: timeLimit ?? "?" });
  else if (verdict.status === "author_error") headline = t("verdict_author_error");
  else headline = t("verdict_error");
  area.append(el("p", "verdict-line", headline));
  // an error Python raised in the learner's code comes first: its line is the most direct thing to fix
  const error = status === "pass" ? null : pythonError(verdict);
  // A failing verdict's engine message repeats the counts and names the raw case id: the headline and the case's
  // label say it better. Other statuses' messages (exit code, an error before the cases, ...) are shown, but not the
  // engine's "a syntax error on line N": N is a line of the composed source (code carried over from an earlier
  // checkpoint comes first), and the error's own box below names the line of the editor it is in. The engine flags
  // that verdict: a SyntaxError the learner's code raises itself keeps its sentence.
  const syntax = error && verdict.syntax_error === true && verdict.python_error === error;
  if (verdict.status !== "fail" && verdict.message && verdict.message !== headline && !syntax) {
    area.append(sentence("p", "verdict-message", verdict.message));
  }
  let errorTitle = null;
  if (error) {
    const box = pythonErrorBox(error, Number.isInteger(error.line) ? where(error.line) : null);
    errorTitle = box.querySelector(".python-error-title").textContent;
    area.append(box);
  }
  if (verdict.status === "fail" && typeof verdict.summary_text === "string" && verdict.summary_text) {
    // every failing case counted by kind (graders/engine/judge.py summary), before the first one is shown
    const summary = sentence("p", "verdict-summary", verdict.summary_text); // its kinds are a filled-in value
    summary.dataset.summary = "";
    area.append(summary);
  }
  const failure = verdict.failure;
  if (verdict.status === "fail" && failure) {
    const details = el("div", "case-details");
    if (error) details.append(el("p", "case-details-title", t("case_details")));
    if (failure.case_label) {
      // the case's label in the learner's language (never the raw case id), and how the case came about
      const kind = [failure.generated ? t("case_generated") : "", failure.shrunk ? t("case_shrunk") : ""].filter(
        Boolean,
      );
      const label = el("p", "case-label");
      label.append(
        el("span", "case-label-name", `${t("case")}: `),
        sentence("span", null, `${failure.case_label}${kind.length ? ` (${kind.join(", ")})` : ""}`),
      );
      details.append(label);
    }
    const dl = el("dl", "verdict-details");
    const source = tryableSource(failure);
    const buttons = source
      ? caseButtons({ source, expected: failure.expected, label: failure.case_label || "" }, { onTryCase, onTraceCase })
      : null;
    // a long call (hundreds of items) is shown bounded; "Try this case" takes the complete one
    const shown = source && (source.length <= LONG_CALL || !failure.call) ? source : failure.call || source;
    // no complete call to run: say why there is nothing to try or trace (a kept verdict lost its sources, or the
    // call is too long to carry)
    const why = !source && (onTryCase || onTraceCase) ? noSourceNote(verdict) : null;
    row(dl, t("call"), shown, { code: true, after: buttons || why });
    row(dl, t("expected"), failure.expected, { code: true });
    row(dl, t("got"), failure.actual, { code: true, name: "got" });
    row(dl, t("got_later"), failure.actual_later, { code: true });
    row(dl, t("why"), failure.reason, { name: "why" });
    row(dl, "", failure.explanation);
    row(dl, t("case_hint"), failure.hint);
    // a declared mistake that fails exactly like this (engine), its markdown shown as code, emphasis and links
    row(dl, t("known_mistake"), failure.feedback, { nodes: feedbackNodes(failure.feedback_parts) });
    details.append(dl);
    area.append(details);
  }
  if (verdict.status === "fail") {
    const list = failingList(verdict, { onTryCase, onTraceCase, idPrefix });
    if (list) area.append(list);
  }
  if (verdict.traceback && verdict.status !== "pass") {
    const details = el("details", "verdict-traceback");
    details.open = verdict.status === "error" && !error;
    details.append(el("summary", null, t("traceback")));
    details.append(codeBlock(trimTraceback(relabel(verdict.traceback)), ""));
    area.append(details);
  }
  for (const note of verdict.notes || []) area.append(sentence("p", "verdict-note", note));
  if (verdict.plot) renderPlot(area, verdict.plot, lang);
  return { status, headline, announcement: announcement(verdict, headline, errorTitle) };
}

/** The first sentence of `text` (up to its first full stop followed by a space), at most 200 characters. */
function firstSentence(text) {
  const value = String(text || "")
    .replace(/\s+/g, " ")
    .trim();
  const match = value.match(/^.+?[.!?؟。](?=\s|$)/u);
  const sentence = match ? match[0] : value;
  return sentence.length > 200 ? `${sentence.slice(0, 199)}…` : sentence;
}

/**
 * What the page announces for a verdict: the headline (pass or fail, with the counts), and for a failing one the
 * first failing case's label and the first sentence of why it failed (the learner's own Python error, else the
 * reason, else the case's explanation).
 */
export function announcement(verdict, headline, errorTitle = null) {
  const failure = verdict.failure;
  if (verdict.status !== "fail" || !failure) return headline;
  const why = firstSentence(errorTitle || failure.reason || failure.explanation || "");
  const label = failure.case_label || "";
  return `${headline}. ${t("announce_case", { label, why }).trim()}`;
}

/** "Try this case" and "Trace this case" for one case ({source, expected, label}), as those the page offers: the
 * first failing case's are data-action="try-case" and "trace-case", a listed case's "try-listed" and "trace-listed". */
function caseButtons(item, { onTryCase, onTraceCase }, describedBy = null, listed = false) {
  if (!onTryCase && !onTraceCase) return null;
  const box = el("div", "case-buttons");
  const add = (kind, text, fn) => {
    const action = listed ? `${kind}-listed` : `${kind}-case`;
    if (!fn) return;
    const button = el("button", `btn ${kind}-case`, text);
    button.type = "button";
    button.dataset.action = action;
    if (describedBy) button.setAttribute("aria-describedby", describedBy);
    button.addEventListener("click", () => fn(item));
    box.append(button);
  };
  add("try", t("try_case"), onTryCase);
  add("trace", t("trace_case"), onTraceCase);
  return box;
}

/** Why a case offers no "Try this case" or "Trace this case": its complete call is not there, because the verdict
 * was kept over a reload without its calls (storage.js compactVerdict), or because it is too long to carry. */
function noSourceNote(verdict) {
  const key = verdict.kept_without_sources ? "failing_no_source_kept" : "failing_no_source";
  return el("p", "failing-note failing-no-source", t(key));
}

/** Keys that move between the rows of the list of failing cases (see `roveRows`). */
const ROW_KEYS = new Set(["ArrowDown", "ArrowUp", "Home", "End", "PageDown", "PageUp"]);
const PAGE_ROWS = 10;

/**
 * The list's rows as one stop in the Tab order (a roving tabindex, as in a toolbar or a grid): only the buttons of
 * the current row (the first, then the last one used) are in the Tab order; the arrow keys Up and Down move to the
 * same button of the row before or after, Page Up/Down ten rows, Home and End to the first and last row. Every
 * button stays in the page for screen readers (their browse mode reads and presses any row) and for the mouse.
 */
function roveRows(list) {
  const rows = () => Array.from(list.children).filter((li) => li.querySelector("button"));
  const current = (li) => {
    for (const button of list.querySelectorAll("button")) button.tabIndex = button.closest("li") === li ? 0 : -1;
  };
  const first = rows()[0];
  if (!first) return;
  current(first);
  list.addEventListener("focusin", (event) => {
    if (event.target instanceof HTMLButtonElement) current(event.target.closest("li"));
  });
  list.addEventListener("keydown", (event) => {
    const button = event.target;
    if (!ROW_KEYS.has(event.key) || !(button instanceof HTMLButtonElement) || event.altKey || event.ctrlKey) return;
    const all = rows();
    const at = all.indexOf(button.closest("li"));
    if (at < 0) return;
    const last = all.length - 1;
    const to = {
      ArrowDown: Math.min(at + 1, last),
      ArrowUp: Math.max(at - 1, 0),
      PageDown: Math.min(at + PAGE_ROWS, last),
      PageUp: Math.max(at - PAGE_ROWS, 0),
      Home: 0,
      End: last,
    }[event.key];
    event.preventDefault();
    const column = Array.from(all[at].querySelectorAll("button")).indexOf(button);
    const targets = all[to].querySelectorAll("button");
    targets[Math.min(column, targets.length - 1)].focus();
  });
}

/**
 * Every failing case, the first ones listed with their calls (the engine's `failing`, see graders/engine/judge.py
 * failing_list): a fold the learner opens, each case with its label, its kind and its call, to try or trace (one
 * Tab stop for the whole list, the arrow keys between its rows: `roveRows`), or a note saying why it cannot be. Null
 * when the verdict lists none.
 */
export function failingList(verdict, { onTryCase = null, onTraceCase = null, idPrefix = "verdict" } = {}) {
  const listed = Array.isArray(verdict.failing) ? verdict.failing : [];
  const total = Array.isArray(verdict.failed_cases)
    ? verdict.failed_cases.length
    : Number.isInteger(verdict.failed_count) // a kept verdict (storage.js compactVerdict)
      ? verdict.failed_count
      : listed.length;
  if (!listed.length) return null;
  const box = el("details", "failing-list");
  box.dataset.failing = String(total);
  box.append(el("summary", null, t("failing_title", { n: total })));
  if (listed.length < total)
    box.append(el("p", "failing-note failing-count", t("failing_first", { shown: listed.length, n: total })));
  const offers = Boolean(onTryCase || onTraceCase);
  const list = el("ol");
  listed.forEach((item, index) => {
    const li = el("li");
    li.dataset.case = String(item.case || "");
    const head = el("div", "failing-item-head");
    const labelId = `${idPrefix}-failing-${index + 1}`;
    const label = sentence("span", "failing-label", item.label || item.case || "");
    label.id = labelId;
    head.append(label);
    if (item.kind) head.append(el("span", "failing-kind", t(`kind_${item.kind}`)));
    li.append(head);
    const call = el("code", "failing-call");
    call.dir = "ltr";
    call.textContent = String(item.call || "");
    li.append(call);
    const source = tryableSource(item);
    if (source && offers) {
      li.append(
        caseButtons(
          { source, expected: item.expected ?? null, label: item.label || "" },
          { onTryCase, onTraceCase },
          labelId,
          true,
        ),
      );
    } else if (offers) {
      li.append(noSourceNote(verdict));
    }
    list.append(li);
  });
  if (offers && list.querySelector("button")) {
    const keysId = `${idPrefix}-failing-keys`;
    const keys = el("p", "failing-note failing-keys", t("failing_keys"));
    keys.id = keysId;
    box.append(keys);
    list.setAttribute("aria-describedby", keysId);
    roveRows(list);
  }
  box.append(list);
  return box;
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
    add(t("your_result"), cut(value ?? "", SHOWN.value), "yours");
    add(t("expected_result"), expected, "expected");
  } else {
    add(t("result"), cut(value ?? "", SHOWN.value), "value");
  }
  area.append(box);
  return box;
}
