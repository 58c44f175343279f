// The verdict area of a checkpoint: what the grader said, in the learner's language, as text nodes only.

import { renderReliability } from "./figures/reliability.js";
import { t } from "./i18n.js";

const TRACEBACK_LINES = 30;

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined && text !== null) node.textContent = String(text);
  return node;
}

/** Keep the end of a long traceback (where the error is), with a marker for what was cut. */
export function trimTraceback(text) {
  const lines = String(text || "").replace(/\s+$/, "").split("\n");
  if (lines.length <= TRACEBACK_LINES) return lines.join("\n");
  return ["…", ...lines.slice(-TRACEBACK_LINES)].join("\n");
}

/** Set the area to a simple state ("idle" | "running" | "error" | "timeout" | ...) with one line of text. */
export function showStatus(area, status, text = "") {
  area.dataset.verdict = status;
  area.replaceChildren();
  if (text) area.append(el("p", "verdict-line", text));
}

function row(dl, label, value, { code = false } = {}) {
  if (value === undefined || value === null || value === "") return;
  dl.append(el("dt", null, label));
  const dd = el("dd");
  if (code) {
    const pre = el("pre", "verdict-code", value);
    pre.dir = "ltr";
    dd.append(pre);
  } else {
    dd.textContent = String(value);
  }
  dl.append(dd);
}

/**
 * Render a grader verdict (format in notes/common.md) into `area`; returns the verdict's status.
 * pass: "✓ passed/total cases"; fail: the call, expected vs got, why, hint; error: the trimmed traceback;
 * timeout: the limit. A `plot` is drawn with renderReliability().
 */
export function renderVerdict(area, verdict, lang, timeLimit) {
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
  if (verdict.message && verdict.message !== headline) area.append(el("p", "verdict-message", verdict.message));
  const failure = verdict.failure;
  if (verdict.status === "fail" && failure) {
    const dl = el("dl", "verdict-details");
    row(dl, t("call"), failure.call, { code: true });
    row(dl, t("expected"), failure.expected, { code: true });
    row(dl, t("got"), failure.actual, { code: true });
    row(dl, t("why"), failure.reason);
    row(dl, "", failure.explanation);
    row(dl, t("case_hint"), failure.hint);
    area.append(dl);
  }
  if (verdict.traceback && verdict.status !== "pass") {
    const details = el("details", "verdict-traceback");
    details.open = verdict.status === "error";
    details.append(el("summary", null, t("traceback")));
    const pre = el("pre", null, trimTraceback(verdict.traceback));
    pre.dir = "ltr";
    details.append(pre);
    area.append(details);
  }
  for (const note of verdict.notes || []) area.append(el("p", "verdict-note", note));
  if (verdict.plot) renderPlot(area, verdict.plot, lang);
  return status;
}

/** Append a checkpoint's plot (the learner's result beside the reference's) to `area`; after a Check or a Run. */
export function renderPlot(area, plot, lang) {
  const container = el("div", "verdict-plot");
  container.dir = "ltr";
  area.append(container);
  try {
    renderReliability(container, plot, lang);
  } catch (error) {
    console.error("reliability plot failed", error);
    container.remove();
  }
}
