// The reliability diagram itself, shared by the verdict plot (reliability_plot.js) and the lesson figure
// (reliability.js): an SVG of accuracy against mean confidence per bin, and a data table as its text alternative.
// data = {conf: number[], acc: number[], count: number[]} (one entry per bin).

import { isRtl, t } from "../i18n.js";
import { el, formatNumber, svg } from "./dom.js";

const SIZE = 240;
const PAD = { left: 40, right: 10, top: 10, bottom: 34 };

const clamp01 = (v) => Math.min(1, Math.max(0, v));

/** Draw one reliability diagram as an <svg>; `muted` draws it in neutral tones (the reference beside yours). */
export function drawDiagram(data, title, muted = false) {
  const width = SIZE + PAD.left + PAD.right;
  const height = SIZE + PAD.top + PAD.bottom;
  const root = svg("svg", { viewBox: `0 0 ${width} ${height}`, width, height, role: "img", class: "reliability-svg" });
  root.style.direction = "ltr";
  const bins = data.conf.length;
  const populated = data.count.filter((c) => c > 0).length;
  const n = data.count.reduce((a, b) => a + (Number.isFinite(b) ? b : 0), 0);
  const label = t("fig_rel_summary", { title, bins, populated, n });
  root.setAttribute("aria-label", label);
  root.append(svg("title", {}, {}, label));

  const x = (v) => PAD.left + clamp01(v) * SIZE;
  const y = (v) => PAD.top + (1 - clamp01(v)) * SIZE;
  const ink = { fill: "currentColor" };

  root.append(
    svg(
      "rect",
      { x: PAD.left, y: PAD.top, width: SIZE, height: SIZE, fill: "none" },
      { stroke: "currentColor", "stroke-opacity": "0.5" },
    ),
  );
  for (const tick of [0, 0.25, 0.5, 0.75, 1]) {
    root.append(svg("line", { x1: x(tick), y1: y(0), x2: x(tick), y2: y(0) + 4 }, { stroke: "currentColor" }));
    root.append(svg("line", { x1: x(0) - 4, y1: y(tick), x2: x(0), y2: y(tick) }, { stroke: "currentColor" }));
    if (tick === 0 || tick === 0.5 || tick === 1) {
      root.append(svg("text", { x: x(tick), y: y(0) + 15, "text-anchor": "middle", "font-size": 11 }, ink, tick));
      root.append(svg("text", { x: x(0) - 7, y: y(tick) + 4, "text-anchor": "end", "font-size": 11 }, ink, tick));
    }
  }
  root.append(
    svg("text", { x: x(0.5), y: height - 4, "text-anchor": "middle", "font-size": 12 }, ink, t("fig_rel_confidence")),
  );
  root.append(
    svg(
      "text",
      {
        x: 12,
        y: y(0.5),
        "text-anchor": "middle",
        "font-size": 12,
        transform: `rotate(-90 12 ${y(0.5)})`,
      },
      ink,
      t("fig_rel_accuracy"),
    ),
  );

  // bars: the accuracy of every populated bin over the bin's interval
  const barColor = muted ? "var(--muted)" : "var(--accent)";
  const barStyle = { fill: barColor, "fill-opacity": "0.3", stroke: barColor };
  for (let b = 0; b < bins; b += 1) {
    if (!(data.count[b] > 0) || !Number.isFinite(data.acc[b])) continue;
    const top = y(data.acc[b]);
    root.append(
      svg(
        "rect",
        {
          x: x(b / bins),
          y: top,
          width: Math.max(0.5, x((b + 1) / bins) - x(b / bins)),
          height: y(0) - top,
        },
        barStyle,
      ),
    );
  }
  root.append(
    svg(
      "line",
      { x1: x(0), y1: y(0), x2: x(1), y2: y(1) },
      { stroke: "currentColor", "stroke-dasharray": "5 4", "stroke-opacity": "0.8" },
    ),
  );
  for (let b = 0; b < bins; b += 1) {
    if (!(data.count[b] > 0) || !Number.isFinite(data.conf[b]) || !Number.isFinite(data.acc[b])) continue;
    root.append(
      svg(
        "circle",
        { cx: x(data.conf[b]), cy: y(data.acc[b]), r: 3.5 },
        { fill: muted ? "var(--fg)" : "var(--accent)", stroke: "var(--bg)" },
      ),
    );
  }
  return root;
}

function binRange(b, bins) {
  return `${formatNumber(b / bins, 2)}–${formatNumber((b + 1) / bins, 2)}`;
}

/**
 * The text alternative: one row per bin with count, mean confidence and accuracy of the learner's result (when
 * given) and the reference's. Without a learner result the columns carry no "yours/reference" prefix.
 */
export function dataTable(actual, expected, lang) {
  const refPrefix = actual ? t("fig_rel_ref_prefix") : "";
  const table = el("table", "reliability-table");
  table.dir = isRtl(lang) ? "rtl" : "ltr";
  table.append(el("caption", null, t("fig_rel_table_caption")));
  const head = el("tr");
  const columns = [t("fig_rel_bin")];
  const yours = t("fig_rel_your_prefix");
  if (actual) columns.push(yours + t("fig_rel_count"), yours + t("fig_rel_mean_conf"), yours + t("fig_rel_acc"));
  columns.push(refPrefix + t("fig_rel_count"), refPrefix + t("fig_rel_mean_conf"), refPrefix + t("fig_rel_acc"));
  for (const name of columns) {
    const th = el("th", null, name);
    th.scope = "col";
    head.append(th);
  }
  const thead = el("thead");
  thead.append(head);
  table.append(thead);
  const body = el("tbody");
  const rows = Math.max(actual ? actual.conf.length : 0, expected ? expected.conf.length : 0);
  const bins = expected ? expected.conf.length : rows;
  for (let b = 0; b < rows; b += 1) {
    const tr = el("tr");
    const th = el("th", null, b < bins ? binRange(b, bins) : String(b));
    th.scope = "row";
    th.dir = "ltr";
    tr.append(th);
    for (const data of actual ? [actual, expected] : [expected]) {
      const cells =
        data && b < data.conf.length
          ? [formatNumber(data.count[b], 0), formatNumber(data.conf[b]), formatNumber(data.acc[b])]
          : ["—", "—", "—"];
      for (const text of cells) {
        const td = el("td", null, text);
        td.dir = "ltr";
        tr.append(td);
      }
    }
    body.append(tr);
  }
  table.append(body);
  return table;
}
