// Figure and verdict plot "fusion-recall" (lesson retrieval-evaluation): recall@k against the cutoff k for two
// rankings of one query and for their reciprocal rank fusion. In the lesson text the learner picks the RRF constant
// and the cutoff; after a Run or a Check of checkpoint 3 the same chart shows the learner's own fused ranking of the
// lesson's example beside the reference's. Every text goes in through textContent. The chart's text alternatives
// are a live summary and a data table; its axes stay left to right on a right-to-left page.

import { isRtl, t } from "../i18n.js";
import { el, labelled, select, svg, textBlock } from "./dom.js";

/** The query of the interactive figure: a keyword ranking and an embedding ranking (best first) and the documents a
 * person judged relevant. Keyword search finds two of the four, embedding search three; with the RRF constant at 60
 * the fusion trails embedding search at cutoffs 2 and 3 and is the only one to find all four, from cutoff 7 on. */
export const QUERY = Object.freeze({
  keyword: Object.freeze(["d1", "d5", "d2", "d6", "d7", "d8", "d9", "d10"]),
  embedding: Object.freeze(["d3", "d2", "d5", "d11", "d4", "d12", "d6", "d13"]),
  relevant: Object.freeze(["d1", "d2", "d3", "d4"]),
});

/** The lesson's worked example that checkpoint 3's plot case fuses (PLOT_CASE "worked-example" in
 * graders/retrieval_evaluation/rank_fusion.py), with the relevance judgement the prose gives it: a and d. */
export const PLOT_QUERY = Object.freeze({
  rankings: Object.freeze([Object.freeze(["a", "b", "c"]), Object.freeze(["b", "c", "d"])]),
  relevant: Object.freeze(["a", "d"]),
});

/** The RRF constants the figure offers (60 is Cormack et al.'s and the checkpoint's default). */
export const CONSTANTS = Object.freeze([0, 1, 10, 60]);

const byId = (a, b) => (a < b ? -1 : a > b ? 1 : 0);
const twelve = (x) => Number(x.toFixed(12));

/** Reciprocal rank fusion as checkpoint 3 defines it: [doc, score] pairs, every ranking adding 1 / (constant +
 * place) with places from 1; the highest score first, scores equal to 12 decimals in the order of their ids. */
export function fuse(rankings, constant) {
  const scores = new Map();
  for (const ranking of rankings) {
    ranking.forEach((doc, index) => {
      scores.set(doc, (scores.get(doc) || 0) + 1 / (constant + index + 1));
    });
  }
  return [...scores.entries()].sort((a, b) => twelve(b[1]) - twelve(a[1]) || byId(a[0], b[0]));
}

/** recall@k for k = 1 .. length: the share of the relevant documents among the first k of `ranking` (a document
 * named twice counts once). */
export function recallCurve(ranking, relevant, length) {
  const wanted = new Set(relevant);
  const seen = new Set();
  const out = [];
  for (let k = 1; k <= length; k += 1) {
    const doc = ranking[k - 1];
    if (k <= ranking.length && wanted.has(doc)) seen.add(doc);
    out.push(seen.size / wanted.size);
  }
  return out;
}

/** The documents of a fused result as returned by the learner's function and carried as plain JSON: a list of
 * [document, score] pairs (tuples arrive as lists); null when it is not one. */
export function fusedDocuments(value) {
  if (!Array.isArray(value)) return null;
  const docs = [];
  for (const item of value) {
    if (!Array.isArray(item) || item.length !== 2 || typeof item[0] !== "string") return null;
    docs.push(item[0]);
  }
  return docs;
}

// The three kinds of line, told apart by their dash pattern and marker as well as by colour.
const STYLES = Object.freeze({
  keyword: { stroke: "var(--muted)", dash: "7 4", width: 2, marker: "square" },
  embedding: { stroke: "var(--muted)", dash: "2 3", width: 2, marker: "triangle" },
  reference: { stroke: "var(--fg)", dash: "none", width: 2, marker: "square" },
  fused: { stroke: "var(--accent)", dash: "none", width: 3.5, marker: "circle" },
});

const W = 420;
const H = 240;
const PAD = { left: 62, right: 14, top: 12, bottom: 40 };

function marker(kind, x, y, color) {
  const style = { fill: color, stroke: "var(--bg)" };
  if (kind === "circle") return svg("circle", { cx: x, cy: y, r: 3.8 }, style);
  if (kind === "square") return svg("rect", { x: x - 3.2, y: y - 3.2, width: 6.4, height: 6.4 }, style);
  return svg("polygon", { points: `${x},${y - 4.2} ${x - 4},${y + 3.2} ${x + 4},${y + 3.2}` }, style);
}

/**
 * The chart: one line per series ({key, label, values}; values[k - 1] is recall@k), the cutoff `cutoff` marked
 * (null for none). Returns an <svg> whose label sums it up.
 */
export function drawChart(series, cutoff, label) {
  const kMax = Math.max(1, ...series.map((s) => s.values.length));
  const root = svg("svg", { viewBox: `0 0 ${W} ${H}`, width: W, height: H, role: "img", class: "fusion-svg" });
  root.style.direction = "ltr";
  root.setAttribute("aria-label", label);
  root.append(svg("title", {}, {}, label));
  const x = (k) => PAD.left + ((k - 1) / Math.max(1, kMax - 1)) * (W - PAD.left - PAD.right);
  const y = (v) => PAD.top + (1 - v) * (H - PAD.top - PAD.bottom);
  const ink = { fill: "currentColor" };
  for (const level of [0, 0.25, 0.5, 0.75, 1]) {
    root.append(
      svg(
        "line",
        { x1: x(1), y1: y(level), x2: x(kMax), y2: y(level) },
        { stroke: "currentColor", "stroke-opacity": level === 0 ? "0.7" : "0.15" },
      ),
    );
    root.append(
      svg("text", { x: PAD.left - 6, y: y(level) + 4, "text-anchor": "end", "font-size": 11 }, ink, `${level * 100} %`),
    );
  }
  for (let k = 1; k <= kMax; k += 1) {
    root.append(svg("text", { x: x(k), y: H - PAD.bottom + 15, "text-anchor": "middle", "font-size": 11 }, ink, k));
  }
  root.append(
    svg(
      "text",
      { x: (PAD.left + W - PAD.right) / 2, y: H - 6, "text-anchor": "middle", "font-size": 12 },
      ink,
      t("fig_fr_k_axis"),
    ),
  );
  root.append(
    svg(
      "text",
      {
        x: 14,
        y: y(0.5),
        "text-anchor": "middle",
        "font-size": 12,
        transform: `rotate(-90 14 ${y(0.5)})`,
      },
      ink,
      t("fig_fr_recall_axis"),
    ),
  );
  if (cutoff !== null) {
    root.append(
      svg(
        "line",
        { class: "fusion-cutoff", x1: x(cutoff), y1: y(1) - 6, x2: x(cutoff), y2: y(0) },
        { stroke: "currentColor", "stroke-width": "1.5", "stroke-dasharray": "3 3" },
      ),
    );
  }
  for (const item of series) {
    const style = STYLES[item.key];
    const points = item.values.map((v, i) => `${x(i + 1)},${y(v)}`).join(" ");
    root.append(
      svg(
        "polyline",
        { points, fill: "none", class: `fusion-line fusion-${item.key}` },
        {
          stroke: style.stroke,
          "stroke-width": String(style.width),
          "stroke-dasharray": style.dash,
        },
      ),
    );
    item.values.forEach((v, i) => {
      root.append(marker(style.marker, x(i + 1), y(v), style.stroke));
    });
  }
  return root;
}

const percent = (v) => `${Math.round(v * 1000) / 10} %`;

/** "a and d", "a en d", "a و d": the names joined as the page's language joins a list. */
function listed(names, lang) {
  try {
    return new Intl.ListFormat(lang, { type: "conjunction" }).format(names);
  } catch {
    return names.join(", ");
  }
}

/** The legend: each series' name beside a sample of its line, as text (the chart is not the only carrier). */
function legend(series, dir) {
  const list = el("ul", "fusion-legend");
  list.dir = dir;
  for (const item of series) {
    const style = STYLES[item.key];
    const sample = svg("svg", { width: 34, height: 12, "aria-hidden": "true" });
    sample.append(
      svg(
        "line",
        { x1: 2, y1: 6, x2: 32, y2: 6 },
        { stroke: style.stroke, "stroke-width": String(style.width), "stroke-dasharray": style.dash },
      ),
    );
    const entry = el("li");
    entry.append(sample, document.createTextNode(` ${item.label}`));
    list.append(entry);
  }
  return list;
}

/** The text alternative: one row per cutoff with each series' recall@k. */
export function dataTable(series, dir) {
  const table = el("table", "fusion-table");
  table.dir = dir;
  table.append(el("caption", null, t("fig_fr_table_caption")));
  const head = el("tr");
  for (const name of [t("fig_fr_k"), ...series.map((s) => s.label)]) {
    const th = el("th", null, name);
    th.scope = "col";
    head.append(th);
  }
  const thead = el("thead");
  thead.append(head);
  const body = el("tbody");
  const kMax = Math.max(0, ...series.map((s) => s.values.length));
  for (let k = 1; k <= kMax; k += 1) {
    const tr = el("tr");
    const th = el("th", null, String(k));
    th.scope = "row";
    tr.append(th);
    for (const item of series) {
      const td = el("td", null, k <= item.values.length ? percent(item.values[k - 1]) : "—");
      td.dir = "ltr";
      tr.append(td);
    }
    body.append(tr);
  }
  table.append(thead, body);
  return table;
}

/** The first `cutoff` documents of a ranking as a list, relevant ones marked in words. */
function topList(title, ranking, relevant, cutoff, dir) {
  const box = el("div", "fusion-top");
  box.dir = dir;
  box.append(el("p", "fusion-top-title", title));
  const list = el("ol");
  for (const doc of ranking.slice(0, cutoff)) {
    const item = el("li", null, relevant.has(doc) ? `${doc} · ${t("fig_fr_relevant")}` : doc);
    item.dataset.relevant = relevant.has(doc) ? "true" : "false";
    list.append(item);
  }
  box.append(list);
  return box;
}

/** Mount the interactive figure into a ```figure fusion-recall``` element. */
export function mount(element, lang) {
  const dir = isRtl(lang) ? "rtl" : "ltr";
  const caption = element.querySelector("figcaption");
  const box = el("div", "fusion-figure");
  const controls = el("div", "figure-controls");
  const constant = select(CONSTANTS, 60);
  const fusedLength = fuse([QUERY.keyword, QUERY.embedding], 60).length;
  const cutoff = el("input");
  cutoff.type = "range";
  cutoff.min = "1";
  cutoff.max = String(fusedLength);
  cutoff.step = "1";
  cutoff.value = "3";
  const cutoffShown = el("output");
  controls.append(labelled(t("fig_fr_constant"), constant), labelled(t("fig_fr_cutoff"), cutoff), cutoffShown);
  const summary = el("p", "fusion-summary");
  summary.setAttribute("aria-live", "polite");
  summary.dir = dir;
  const chartBox = el("div", "fusion-chart");
  chartBox.dir = "ltr";
  const lists = el("div", "fusion-lists");
  lists.dir = dir;
  const details = el("details", "fusion-data");
  details.dir = dir;
  box.append(controls, summary, chartBox, lists, details);
  if (caption) element.insertBefore(box, caption);
  else element.append(box);

  const relevant = new Set(QUERY.relevant);
  const update = () => {
    const c = Number(constant.value);
    const k = Math.min(fusedLength, Math.max(1, Math.round(Number(cutoff.value)) || 1));
    const fused = fuse([QUERY.keyword, QUERY.embedding], c).map(([doc]) => doc);
    const series = [
      { key: "keyword", label: t("fig_fr_keyword"), values: recallCurve(QUERY.keyword, QUERY.relevant, fused.length) },
      {
        key: "embedding",
        label: t("fig_fr_embedding"),
        values: recallCurve(QUERY.embedding, QUERY.relevant, fused.length),
      },
      { key: "fused", label: t("fig_fr_fused", { c }), values: recallCurve(fused, QUERY.relevant, fused.length) },
    ];
    cutoffShown.textContent = String(k);
    const text = t("fig_fr_summary", {
      k,
      c,
      keyword: percent(series[0].values[k - 1]),
      embedding: percent(series[1].values[k - 1]),
      fused: percent(series[2].values[k - 1]),
      relevant: QUERY.relevant.length,
    });
    summary.textContent = text;
    chartBox.replaceChildren(drawChart(series, k, text), legend(series, dir));
    lists.replaceChildren(
      topList(t("fig_fr_keyword"), QUERY.keyword, relevant, k, dir),
      topList(t("fig_fr_embedding"), QUERY.embedding, relevant, k, dir),
      topList(t("fig_fr_fused", { c }), fused, relevant, k, dir),
    );
    details.replaceChildren(el("summary", null, t("fig_fr_show_table")), dataTable(series, dir));
  };
  constant.addEventListener("change", update);
  cutoff.addEventListener("input", update);
  cutoff.addEventListener("change", update);
  update();
  return { constant, cutoff, summary, update };
}

/** Draw checkpoint 3's verdict plot: recall@k of the two input rankings of the lesson's example, of the reference's
 * fusion and of the learner's (plot = {kind, expected, actual|null}, as plain JSON). */
export function renderFusionPlot(container, plot, lang) {
  const dir = isRtl(lang) ? "rtl" : "ltr";
  container.replaceChildren();
  container.classList.add("fusion-plot");
  const expected = plot ? fusedDocuments(plot.expected) : null;
  const missing = !plot || plot.actual === null || plot.actual === undefined;
  const actual = missing ? null : fusedDocuments(plot.actual);
  const [keyword, embedding] = PLOT_QUERY.rankings;
  const length = Math.max(keyword.length, embedding.length, expected ? expected.length : 0, actual ? actual.length : 0);
  const series = [
    { key: "keyword", label: t("fig_fr_keyword"), values: recallCurve(keyword, PLOT_QUERY.relevant, length) },
    { key: "embedding", label: t("fig_fr_embedding"), values: recallCurve(embedding, PLOT_QUERY.relevant, length) },
  ];
  if (expected) {
    series.push({
      key: "reference",
      label: t("fig_fr_reference"),
      values: recallCurve(expected, PLOT_QUERY.relevant, length),
    });
  }
  if (actual) {
    series.push({ key: "fused", label: t("fig_fr_yours"), values: recallCurve(actual, PLOT_QUERY.relevant, length) });
  }
  const about = t("fig_fr_plot_query", { relevant: listed(PLOT_QUERY.relevant, lang) });
  container.append(textBlock("p", "fusion-note", about, dir));
  const chartBox = el("div", "fusion-chart");
  chartBox.dir = "ltr";
  chartBox.append(drawChart(series, null, about), legend(series, dir));
  container.append(chartBox);
  if (missing) container.append(textBlock("p", "fusion-note", t("fig_fr_no_result"), dir));
  else if (!actual) container.append(textBlock("p", "fusion-note", t("fig_fr_unusable"), dir));
  const details = el("details", "fusion-data");
  details.dir = dir;
  details.append(el("summary", null, t("fig_fr_show_table")), dataTable(series, dir));
  container.append(details);
  return container;
}
