// Interactive figure "risk-coverage" (lesson claims-abstention): five synthetic cases with confidence scores,
// a keyboard-operable threshold slider, an SVG of which cases are answered plus the risk-coverage curve, and a
// live text readout. Everything is built with DOM calls and textContent; no innerHTML.

import { decimal, fill, t } from "../i18n.js";
import { SVG_NS } from "./dom.js";

/** The lesson's five synthetic cases: scores .3, .5, .6, .8 and .9; only the answer scored .6 is wrong, so raising
 * the threshold first removes right answers (the risk rises) and only then the wrong one (it drops to 0). */
export const CASES = Object.freeze([
  Object.freeze({ score: 0.3, correct: true }),
  Object.freeze({ score: 0.5, correct: true }),
  Object.freeze({ score: 0.6, correct: false }),
  Object.freeze({ score: 0.8, correct: true }),
  Object.freeze({ score: 0.9, correct: true }),
]);

let mounted = 0;

/** The figure's texts from the UI catalog (web/src/i18n.js). */
function strings() {
  return {
    title: t("fig_rc_title"),
    threshold: t("fig_rc_threshold"),
    scores: t("fig_rc_scores"),
    curve: t("fig_rc_curve"),
    coverageAxis: t("fig_rc_coverage_axis"),
    riskAxis: t("fig_rc_risk_axis"),
    caseLine: t("fig_rc_case_line"),
    right: t("fig_rc_right"),
    wrong: t("fig_rc_wrong"),
    answered: t("fig_rc_answered"),
    abstained: t("fig_rc_abstained"),
    summary: t("fig_rc_summary"),
    risk: t("fig_rc_risk"),
    noRisk: t("fig_rc_no_risk"),
    noRiskShort: t("fig_rc_no_risk_short"),
    svgLabel: t("fig_rc_svg_label"),
  };
}

/** A case is answered when its score reaches the threshold (score >= threshold), else the system abstains. */
export function isAnswered(item, threshold) {
  return item.score >= threshold;
}

/** Answer the cases with score >= threshold: {answered, correct, coverage, risk}; risk is null when none is answered. */
export function summarize(cases, threshold) {
  let answered = 0;
  let correct = 0;
  for (const item of cases) {
    if (isAnswered(item, threshold)) {
      answered += 1;
      if (item.correct) correct += 1;
    }
  }
  return {
    answered,
    correct,
    coverage: answered / cases.length,
    risk: answered > 0 ? (answered - correct) / answered : null,
  };
}

/** A fraction as a percentage with at most one decimal, "25 %" / "33,3 %" (decimal comma for nl). */
export function formatPercent(value, lang) {
  const text = (Math.round(value * 1000) / 10).toFixed(1).replace(/\.0$/, "");
  return `${decimal(text, lang)} %`;
}

/** A threshold or score with two decimals ("0.50", or "0,50" for nl). */
export function formatNumber(value, lang) {
  return decimal(value.toFixed(2), lang);
}

function svg(name, attributes = {}, text = null) {
  const node = document.createElementNS(SVG_NS, name);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, String(value));
  if (text !== null) node.textContent = text;
  return node;
}

function html(name, attributes = {}, text = null) {
  const node = document.createElement(name);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, String(value));
  if (text !== null) node.textContent = text;
  return node;
}

// Geometry of the two panels inside a 640 x 250 viewBox.
const SCORE_X0 = 40;
const SCORE_X1 = 280;
const SCORE_Y = 150;
const PLOT_X0 = 390;
const PLOT_X1 = 610;
const PLOT_Y0 = 200; // risk 0
const PLOT_Y1 = 50; // risk 1

const scoreX = (score) => SCORE_X0 + score * (SCORE_X1 - SCORE_X0);
const plotX = (coverage) => PLOT_X0 + coverage * (PLOT_X1 - PLOT_X0);
const plotY = (risk) => PLOT_Y0 - risk * (PLOT_Y0 - PLOT_Y1);

/** The distinct operating points of the curve: one per case score (and 0), where the answered set changes. */
export function curvePoints(cases) {
  const thresholds = [0, ...cases.map((item) => item.score)].sort((a, b) => a - b);
  const seen = new Set();
  const points = [];
  for (const threshold of thresholds) {
    const point = summarize(cases, threshold);
    if (point.risk === null || seen.has(point.answered)) continue;
    seen.add(point.answered);
    points.push(point);
  }
  return points;
}

function buildScorePanel(root, s, lang) {
  root.append(svg("text", { x: SCORE_X0 - 10, y: 30, class: "rc-panel-title", fill: "currentColor" }, s.scores));
  root.append(
    svg("rect", {
      class: "rc-answer-zone",
      x: SCORE_X0,
      y: 60,
      width: 0,
      height: 110,
      fill: "currentColor",
      "fill-opacity": 0.08,
    }),
  );
  root.append(
    svg("line", {
      x1: SCORE_X0,
      y1: SCORE_Y + 25,
      x2: SCORE_X1,
      y2: SCORE_Y + 25,
      stroke: "currentColor",
      "stroke-width": 1,
    }),
  );
  for (const tick of [0, 0.5, 1]) {
    root.append(
      svg("line", {
        x1: scoreX(tick),
        y1: SCORE_Y + 21,
        x2: scoreX(tick),
        y2: SCORE_Y + 29,
        stroke: "currentColor",
      }),
    );
    root.append(
      svg(
        "text",
        {
          x: scoreX(tick),
          y: SCORE_Y + 45,
          "text-anchor": "middle",
          "font-size": 12,
          fill: "currentColor",
        },
        formatNumber(tick, lang).replace(/[.,]00$/, ""),
      ),
    );
  }
  const markers = CASES.map((item, index) => {
    const group = svg("g", { class: "rc-case" });
    const x = scoreX(item.score);
    const y = SCORE_Y - (index % 2 === 0 ? 0 : 40);
    group.append(svg("circle", { cx: x, cy: y, r: 14, stroke: "currentColor", "stroke-width": 2 }));
    group.append(
      svg(
        "text",
        {
          x,
          y: y + 5,
          "text-anchor": "middle",
          "font-size": 15,
          "font-weight": "bold",
          fill: "currentColor",
        },
        item.correct ? "✓" : "✗",
      ),
    );
    group.append(
      svg(
        "text",
        {
          x,
          y: y - 19,
          "text-anchor": "middle",
          "font-size": 11,
          fill: "currentColor",
        },
        `${index + 1} · ${formatNumber(item.score, lang).replace(/0$/, "")}`,
      ),
    );
    root.append(group);
    return group;
  });
  const line = svg("line", { y1: 55, y2: SCORE_Y + 30, stroke: "currentColor", "stroke-width": 2.5 });
  const label = svg("text", { y: SCORE_Y + 64, "text-anchor": "middle", "font-size": 12, fill: "currentColor" });
  root.append(line, label);
  return { markers, line, label, zone: root.querySelector(".rc-answer-zone") };
}

function buildCurvePanel(root, s, lang) {
  root.append(svg("text", { x: PLOT_X0 - 40, y: 30, class: "rc-panel-title", fill: "currentColor" }, s.curve));
  for (const level of [0, 0.5, 1]) {
    root.append(
      svg("line", {
        x1: PLOT_X0,
        y1: plotY(level),
        x2: PLOT_X1,
        y2: plotY(level),
        stroke: "currentColor",
        "stroke-opacity": level === 0 ? 0.8 : 0.2,
      }),
    );
    root.append(
      svg(
        "text",
        {
          x: PLOT_X0 - 6,
          y: plotY(level) + 4,
          "text-anchor": "end",
          "font-size": 11,
          fill: "currentColor",
        },
        formatPercent(level, lang),
      ),
    );
    root.append(
      svg(
        "text",
        {
          x: plotX(level),
          y: PLOT_Y0 + 16,
          "text-anchor": "middle",
          "font-size": 11,
          fill: "currentColor",
        },
        formatPercent(level, lang),
      ),
    );
  }
  root.append(
    svg("line", {
      x1: PLOT_X0,
      y1: PLOT_Y0,
      x2: PLOT_X0,
      y2: PLOT_Y1,
      stroke: "currentColor",
      "stroke-opacity": 0.8,
    }),
  );
  root.append(
    svg(
      "text",
      {
        x: (PLOT_X0 + PLOT_X1) / 2,
        y: PLOT_Y0 + 34,
        "text-anchor": "middle",
        "font-size": 12,
        fill: "currentColor",
      },
      s.coverageAxis,
    ),
  );
  const middle = (PLOT_Y0 + PLOT_Y1) / 2;
  root.append(
    svg(
      "text",
      {
        x: PLOT_X0 - 52,
        y: middle,
        "text-anchor": "middle",
        "font-size": 12,
        fill: "currentColor",
        transform: `rotate(-90 ${PLOT_X0 - 52} ${middle})`,
      },
      s.riskAxis,
    ),
  );
  const points = curvePoints(CASES);
  root.append(
    svg("polyline", {
      points: points.map((p) => `${plotX(p.coverage)},${plotY(p.risk)}`).join(" "),
      fill: "none",
      stroke: "currentColor",
      "stroke-opacity": 0.5,
      "stroke-width": 1.5,
    }),
  );
  for (const p of points) {
    root.append(svg("circle", { cx: plotX(p.coverage), cy: plotY(p.risk), r: 3.5, fill: "currentColor" }));
  }
  const current = svg("circle", {
    class: "rc-current",
    r: 8,
    fill: "none",
    stroke: "currentColor",
    "stroke-width": 3,
  });
  const none = svg(
    "text",
    {
      class: "rc-no-risk",
      x: (PLOT_X0 + PLOT_X1) / 2,
      y: PLOT_Y1 + 25,
      "text-anchor": "middle",
      "font-size": 13,
      fill: "currentColor",
    },
    s.noRiskShort,
  );
  root.append(current, none);
  return { current, none };
}

/** Build the figure into `element`: SVG, threshold slider and live readout, with texts from the UI catalog and numbers formatted for `lang`. */
export function mount(element, lang) {
  const s = strings();
  const locale = lang;
  mounted += 1;
  const id = `rc-${mounted}`;

  const box = html("div", { class: "rc-figure" });
  const heading = html("p", { class: "rc-title", id: `${id}-title` }, s.title);

  const drawing = svg("svg", {
    viewBox: "0 0 640 250",
    width: "100%",
    role: "img",
    "aria-labelledby": `${id}-svg-label`,
    class: "rc-svg",
  });
  const svgLabel = svg("title", { id: `${id}-svg-label` });
  drawing.append(svgLabel);
  const scorePanel = buildScorePanel(drawing, s, locale);
  const curvePanel = buildCurvePanel(drawing, s, locale);

  const control = html("div", { class: "rc-control" });
  const label = html("label", { for: `${id}-threshold` }, `${s.threshold} `);
  const input = html("input", {
    type: "range",
    id: `${id}-threshold`,
    min: "0",
    max: "1",
    step: "0.01",
    value: "0.5",
  });
  const shown = html("output", { for: `${id}-threshold`, class: "rc-threshold-value" });
  control.append(label, input, html("span", {}, " "), shown);

  const readout = html("p", { class: "rc-readout", "aria-live": "polite", id: `${id}-readout` });
  const list = html("ul", { class: "rc-cases" });
  const rows = CASES.map(() => {
    const item = html("li");
    list.append(item);
    return item;
  });

  function update() {
    const threshold = Math.min(1, Math.max(0, Number.parseFloat(input.value) || 0));
    const result = summarize(CASES, threshold);
    const t = formatNumber(threshold, locale);
    const values = {
      t,
      a: result.answered,
      n: CASES.length,
      coverage: formatPercent(result.coverage, locale),
      risk: result.risk === null ? s.noRisk : fill(s.risk, { value: formatPercent(result.risk, locale) }),
    };
    shown.textContent = t;
    readout.textContent = fill(s.summary, values);
    svgLabel.textContent = fill(s.svgLabel, values);
    CASES.forEach((item, index) => {
      const answered = isAnswered(item, threshold);
      rows[index].textContent = fill(s.caseLine, {
        n: index + 1,
        score: formatNumber(item.score, locale).replace(/0$/, ""),
        truth: item.correct ? s.right : s.wrong,
        state: answered ? s.answered : s.abstained,
      });
      rows[index].dataset.state = answered ? "answered" : "abstained";
      const circle = scorePanel.markers[index].querySelector("circle");
      circle.setAttribute("fill", answered ? "currentColor" : "none");
      circle.setAttribute("fill-opacity", answered ? "0.25" : "0");
      circle.setAttribute("stroke-dasharray", answered ? "none" : "4 3");
      scorePanel.markers[index].setAttribute("data-state", answered ? "answered" : "abstained");
    });
    const x = scoreX(threshold);
    scorePanel.line.setAttribute("x1", x);
    scorePanel.line.setAttribute("x2", x);
    scorePanel.label.setAttribute("x", x);
    scorePanel.label.textContent = `${s.threshold.toLowerCase()} ${t}`;
    scorePanel.zone.setAttribute("x", x);
    scorePanel.zone.setAttribute("width", Math.max(0, SCORE_X1 + 20 - x));
    if (result.risk === null) {
      curvePanel.current.setAttribute("visibility", "hidden");
      curvePanel.none.setAttribute("visibility", "visible");
    } else {
      curvePanel.current.setAttribute("visibility", "visible");
      curvePanel.current.setAttribute("cx", plotX(result.coverage));
      curvePanel.current.setAttribute("cy", plotY(result.risk));
      curvePanel.none.setAttribute("visibility", "hidden");
    }
  }

  input.addEventListener("input", update);
  input.addEventListener("change", update);
  box.append(heading, drawing, control, readout, list);
  // Keep the build's caption (the readable fallback) after the interactive part.
  const caption = element.querySelector("figcaption");
  if (caption) element.insertBefore(box, caption);
  else element.append(box);
  update();
  return { input, readout, update };
}
