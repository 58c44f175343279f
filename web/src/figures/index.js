// The one registry of figures and plots. A name maps to what it offers:
//   mount(element, lang)          an interactive figure placed in lesson text with a ```figure NAME``` fence;
//   plot(container, plot, lang)   a verdict plot drawn after a Check or a Run for checkpoints with `plot = "NAME"`
//                                 in lesson.toml (plot = {kind: NAME, expected, actual|null}, plain numbers).
// tests/test_site.py checks every figure fence and plot name of the lessons against this table (via node).

import * as fusionRecall from "./fusion_recall.js";
import * as reliability from "./reliability.js";
import { renderReliabilityPlot } from "./reliability_plot.js";
import * as riskCoverage from "./risk_coverage.js";
import { el } from "./dom.js";

export const REGISTRY = Object.freeze({
  "fusion-recall": Object.freeze({ mount: fusionRecall.mount, plot: fusionRecall.renderFusionPlot }),
  "risk-coverage": Object.freeze({ mount: riskCoverage.mount }),
  reliability: Object.freeze({ mount: reliability.mount, plot: renderReliabilityPlot }),
});

/** Mount every `[data-figure]` element under `root`; unknown names and failing figures keep their fallback. */
export function mountFigures(root, lang) {
  for (const element of root.querySelectorAll("[data-figure]")) {
    const entry = REGISTRY[element.dataset.figure];
    if (!entry || typeof entry.mount !== "function") {
      console.warn(`no figure named ${element.dataset.figure}`);
      continue;
    }
    try {
      entry.mount(element, lang);
      element.dataset.mounted = "true";
    } catch (error) {
      console.error(`figure ${element.dataset.figure} failed`, error);
    }
  }
}

/** Append the plot `plot` ({kind, expected, actual}) to `area`; false when its kind has no plot drawer. */
export function renderPlot(area, plot, lang) {
  const entry = plot && REGISTRY[plot.kind];
  if (!entry || typeof entry.plot !== "function") return false;
  const container = el("div", "verdict-plot");
  container.dir = "ltr";
  area.append(container);
  try {
    entry.plot(container, plot, lang);
    return true;
  } catch (error) {
    console.error(`plot ${plot.kind} failed`, error);
    container.remove();
    return false;
  }
}
