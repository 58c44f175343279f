// Interactive figure "reliability" in the lesson text: a slider for over- or underconfidence, the number of bins
// and the sample size; the reliability diagram, ECE and Brier update live. Drawing: reliability_chart.js.

import { isRtl, t } from "../i18n.js";
import { el, labelled, select } from "./dom.js";
import { dataTable, drawDiagram } from "./reliability_chart.js";

// A small seeded generator (mulberry32), so the same settings always show the same sample.
function generator(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = a;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Simulate `n` predictions: a true probability q per prediction, the outcome drawn from q, and a stated confidence
 * that stretches q's log-odds by `sharpness` (1 = calibrated, above 1 overconfident, below 1 underconfident).
 */
export function simulate(n, sharpness, seed) {
  const random = generator(seed);
  const conf = new Float64Array(n);
  const right = new Uint8Array(n);
  for (let i = 0; i < n; i += 1) {
    const q = 0.15 + 0.84 * random();
    const logit = Math.log(q / (1 - q)) * sharpness;
    conf[i] = 1 / (1 + Math.exp(-logit));
    right[i] = random() < q ? 1 : 0;
  }
  return { conf, right };
}

/** Bin predictions the lesson's way (inner edges go up, 1.0 joins the last bin); returns the triple, ECE and Brier. */
export function summarize(conf, right, bins) {
  const sumConf = new Array(bins).fill(0);
  const sumAcc = new Array(bins).fill(0);
  const count = new Array(bins).fill(0);
  let brier = 0;
  const n = conf.length;
  const step = 1 / bins;
  const edge = (k) => (k === bins ? 1 : k * step); // the values of np.linspace(0, 1, bins + 1)
  for (let i = 0; i < n; i += 1) {
    // searchsorted(edges, p, side="right") - 1, clipped: count the inner edges that are <= p
    let b = 0;
    while (b + 1 < bins && edge(b + 1) <= conf[i]) b += 1;
    sumConf[b] += conf[i];
    sumAcc[b] += right[i];
    count[b] += 1;
    brier += (conf[i] - right[i]) ** 2;
  }
  const data = { conf: [], acc: [], count };
  let ece = 0;
  for (let b = 0; b < bins; b += 1) {
    const meanConf = count[b] ? sumConf[b] / count[b] : 0;
    const acc = count[b] ? sumAcc[b] / count[b] : 0;
    data.conf.push(meanConf);
    data.acc.push(acc);
    if (n) ece += (count[b] / n) * Math.abs(meanConf - acc);
  }
  return { data, ece, brier: n ? brier / n : 0, populated: count.filter((c) => c > 0).length };
}

/** Mount the figure into a ```figure reliability``` element. */
export function mount(element, lang) {
  const caption = element.querySelector("figcaption");
  const box = el("div", "reliability-figure");
  const controls = el("div", "figure-controls");

  const slider = el("input");
  slider.type = "range";
  slider.min = "0.4";
  slider.max = "2.5";
  slider.step = "0.1";
  slider.value = "1.6";
  const sliderState = el("output");
  const binsSelect = select([5, 10, 15, 20], 10);
  const sizeSelect = select([100, 1000, 10000], 1000);
  const again = el("button", "btn", t("fig_rel_resample"));
  again.type = "button";
  controls.append(
    labelled(t("fig_rel_slider"), slider),
    sliderState,
    labelled(t("fig_rel_bins"), binsSelect),
    labelled(t("fig_rel_size"), sizeSelect),
    again,
  );

  const stats = el("p", "reliability-stats");
  stats.setAttribute("aria-live", "polite");
  stats.dir = isRtl(lang) ? "rtl" : "ltr";
  const plotBox = el("div", "reliability-figure-plot");
  plotBox.dir = "ltr";
  const details = el("details", "reliability-data");
  box.append(controls, stats, plotBox, details);
  if (caption) element.insertBefore(box, caption);
  else element.append(box);

  let seed = 73;
  const update = () => {
    const sharpness = Number(slider.value);
    const bins = Number(binsSelect.value);
    const n = Number(sizeSelect.value);
    const word = sharpness > 1.05 ? t("fig_rel_over") : sharpness < 0.95 ? t("fig_rel_under") : t("fig_rel_calibrated");
    sliderState.textContent = `${sharpness.toFixed(1)} (${word})`;
    const { conf, right } = simulate(n, sharpness, seed);
    const result = summarize(conf, right, bins);
    stats.textContent = t("fig_rel_stats", {
      ece: result.ece.toFixed(3),
      brier: result.brier.toFixed(3),
      populated: result.populated,
      bins,
    });
    plotBox.replaceChildren(drawDiagram(result.data, t("fig_rel_figure_title")));
    details.replaceChildren(el("summary", null, t("fig_rel_show_table")), dataTable(null, result.data, lang));
  };
  slider.addEventListener("input", update);
  binsSelect.addEventListener("change", update);
  sizeSelect.addEventListener("change", update);
  again.addEventListener("click", () => {
    seed += 1;
    update();
  });
  update();
  return box;
}
