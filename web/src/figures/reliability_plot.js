// The verdict plot of kind "reliability": after a Check or a Run, the learner's reliability diagram beside the
// reference's, with a data table and a note when the learner's result cannot be drawn.
//
// The engine hands plots as {kind, expected, actual|null}. `expected`/`actual` are plain numbers: three equally
// long lists (mean confidence, accuracy, count), as a list/tuple or as an object. Until the engine's plain plot data
// lands everywhere, toTriple() also reads the engine's older wire encoding (a thin adapter, nothing more).

import { isRtl, t } from "../i18n.js";
import { el, textBlock } from "./dom.js";
import { dataTable, drawDiagram } from "./reliability_chart.js";

function plainNumber(value) {
  if (typeof value === "number") return value;
  if (typeof value === "boolean") return value ? 1 : 0;
  if (value === "nan") return NaN;
  if (value === "inf") return Infinity;
  if (value === "-inf") return -Infinity;
  if (typeof value === "string" && /^-?\d+$/.test(value)) return Number(value);
  return null;
}

// One sequence of numbers: a plain list, or (adapter) a wire-encoded list/tuple/1-D ndarray.
function series(value) {
  if (!Array.isArray(value)) return null;
  const tag = value[0];
  if (tag === "ndarray") {
    const [, , , shape, items] = value;
    if (!Array.isArray(shape) || shape.length !== 1 || !Array.isArray(items)) return null;
    const out = items.map(plainNumber);
    return out.every((v) => v !== null) ? out : null;
  }
  if ((tag === "list" || tag === "tuple") && Array.isArray(value[1])) {
    const out = value[1].map((item) => {
      if (!Array.isArray(item)) return null;
      if (item[0] === "float" || item[0] === "int" || item[0] === "bool") return plainNumber(item[1]);
      if (item[0] === "npscalar") return plainNumber(item[3]);
      return null;
    });
    return out.every((v) => v !== null) ? out : null;
  }
  const out = value.map(plainNumber);
  return out.every((v) => v !== null) ? out : null;
}

const PARTS = [/conf/i, /acc/i, /count/i];

/**
 * {conf, acc, count} from a plot's `expected` or `actual`, or null when it is not three equally long, non-empty
 * sequences of numbers. Accepts [conf, acc, count], {conf..., acc..., count...} and (adapter) the wire encoding.
 */
export function toTriple(value) {
  let parts = null;
  if (Array.isArray(value) && (value[0] === "tuple" || value[0] === "list") && Array.isArray(value[1])) {
    parts = value[1]; // wire-encoded container
  } else if (Array.isArray(value)) {
    parts = value;
  } else if (value && typeof value === "object") {
    const keys = Object.keys(value);
    parts = PARTS.map((pattern) => value[keys.find((k) => pattern.test(k))]);
  }
  if (!parts || parts.length !== 3) return null;
  const [conf, acc, count] = parts.map(series);
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
