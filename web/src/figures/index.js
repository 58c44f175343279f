// Registry of the interactive figures a lesson places with a ```figure NAME``` fence.
// Each figure module exports mount(element, lang); the lesson helpers write the modules.

import * as reliability from "./reliability.js";
import * as riskCoverage from "./risk_coverage.js";

const FIGURES = {
  "risk-coverage": riskCoverage,
  reliability,
};

/** Mount every `[data-figure]` element under `root`; unknown names and failing figures keep their fallback. */
export function mountFigures(root, lang) {
  for (const element of root.querySelectorAll("[data-figure]")) {
    const figure = FIGURES[element.dataset.figure];
    if (!figure || typeof figure.mount !== "function") {
      console.warn(`no figure named ${element.dataset.figure}`);
      continue;
    }
    try {
      figure.mount(element, lang);
      element.dataset.mounted = "true";
    } catch (error) {
      console.error(`figure ${element.dataset.figure} failed`, error);
    }
  }
}
