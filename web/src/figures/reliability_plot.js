// The verdict plot of kind "reliability": after a Check or a Run, the learner's reliability diagram beside the
// reference's, with a data table and a note when the learner's result cannot be drawn.
// The engine hands plots plain numbers: {kind, expected, actual|null}, where `expected`/`actual` are what the
// functions returned as plain JSON (any container arrives as a list; NaN and infinities arrive as null).

import { isRtl, t } from "../i18n.js";
import { el, textBlock } from "./dom.js";
import { dataTable, drawDiagram } from "./reliability_chart.js";

// One plain series of numbers (null stands for NaN or an infinity), or null when it is not one.
function series(values) {
  if (!Array.isArray(values) || !values.every((v) => v === null || typeof v === "number" || typeof v === "boolean")) {
    return null;
  }
  return values.map((v) => (v === null ? NaN : Number(v)));
}

/**
 * {conf, acc, count} from a plot's `expected` or `actual`: three equally long, non-empty lists of numbers; null
 * otherwise (the learner's result then cannot be drawn, and the plot says so).
 */
export function toTriple(value) {
  if (!Array.isArray(value) || value.length !== 3) return null;
  const [conf, acc, count] = value.map(series);
  if (!conf || !acc || !count) return null;
  if (conf.length !== acc.length || acc.length !== count.length || conf.length === 0) return null;
  return { conf, acc, count };
}

function panel(data, title, muted) {
  const box = el("figure", "reliability-panel");
  box.append(el("figcaption", "reliability-title", title), drawDiagram(data, title, muted));
  return box;
}

/** Draw a verdict's reliability plot into `container` (left-to-right; texts follow the page language). */
export function renderReliabilityPlot(container, plot, lang) {
  container.replaceChildren();
  container.classList.add("reliability-plot");
  const dir = isRtl(lang) ? "rtl" : "ltr";
  const expected = plot ? toTriple(plot.expected) : null;
  const missing = !plot || plot.actual === null || plot.actual === undefined;
  const actual = missing ? null : toTriple(plot.actual);
  const notes = [];
  if (plot && typeof plot.note === "string" && plot.note) notes.push(plot.note);
  if (missing) notes.push(t("fig_rel_no_result"));
  else if (!actual) notes.push(t("fig_rel_unusable"));
  if (expected || actual) {
    const row = el("div", "reliability-row");
    row.dir = dir; // the panels' order follows the page; each plot keeps its axes left to right
    if (actual) row.append(panel(actual, t("fig_rel_yours")));
    if (expected) row.append(panel(expected, t("fig_rel_reference"), Boolean(actual)));
    container.append(row, textBlock("p", "reliability-legend", t("fig_rel_diagonal"), dir));
  }
  for (const note of notes) container.append(textBlock("p", "reliability-note", note, dir));
  if (expected || actual) {
    const details = el("details", "reliability-data");
    details.dir = dir;
    details.append(el("summary", null, t("fig_rel_show_table")), dataTable(actual, expected, lang));
    container.append(details);
  }
  return container;
}
