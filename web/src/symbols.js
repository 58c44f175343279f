// Phone: a row of symbol keys above the on-screen keyboard while an editor has focus (Tab, brackets, colon, quotes,
// ...), which phone keyboards hide behind one or two layers. Shown only on touch screens (pointer: coarse). The keys
// never take focus from the editor (pointerdown is not allowed to move it) and type through the editor's own API, so
// every key is one undoable change. The row sits above the keyboard: its distance from the bottom follows the
// visual viewport (the part of the page the keyboard leaves visible).

import { t } from "./i18n.js";

const KEYS = [
  { action: "indent", text: "⇥", label: () => t("symbol_tab") },
  { action: "dedent", text: "⇤", label: () => t("symbol_dedent") },
  ..."()[]{}:'\"=_#,.<>+-*/".split("").map((ch) => ({ action: "type", text: ch, label: () => ch })),
];

/**
 * Set up the symbol row for the page's editors. `editor` is the loaded editor module (web/src/editor.js: viewOf,
 * typeText, indent). `coarse` may be given for tests; by default `(pointer: coarse)`.
 */
export function setupSymbolBar(editor, { coarse = matchMedia("(pointer: coarse)") } = {}) {
  const bar = document.createElement("div");
  bar.className = "symbol-bar";
  bar.dataset.symbols = "";
  bar.setAttribute("role", "toolbar");
  bar.setAttribute("aria-label", t("symbols_label"));
  bar.hidden = true;
  let target = null; // the editor's content element that had focus
  for (const key of KEYS) {
    const button = document.createElement("button");
    button.type = "button";
    button.tabIndex = -1; // a touch key, not a stop for Tab: the editor keeps focus
    button.textContent = key.text;
    button.dataset.symbol = key.text;
    button.setAttribute("aria-label", key.label());
    button.addEventListener("pointerdown", (event) => event.preventDefault()); // focus stays in the editor
    button.addEventListener("mousedown", (event) => event.preventDefault());
    button.addEventListener("click", () => {
      const view = editor.viewOf(target);
      if (!view) return;
      if (key.action === "indent") editor.indent(view);
      else if (key.action === "dedent") editor.indent(view, true);
      else editor.typeText(view, key.text);
      view.focus();
    });
    bar.append(button);
  }
  document.body.append(bar);

  const place = () => {
    const vv = window.visualViewport;
    const inset = vv ? Math.max(0, window.innerHeight - (vv.height + vv.offsetTop)) : 0;
    document.documentElement.style.setProperty("--keyboard-inset", `${Math.round(inset)}px`);
    document.documentElement.style.setProperty("--symbols-height", bar.hidden ? "0px" : `${bar.offsetHeight}px`);
  };
  const show = (node) => {
    target = node;
    bar.hidden = !(node && coarse.matches);
    place();
  };
  document.addEventListener("focusin", (event) => {
    const node = event.target;
    if (node && node.classList && node.classList.contains("cm-content") && node.closest("main")) show(node);
    else if (!bar.contains(node)) show(null);
  });
  document.addEventListener("focusout", (event) => {
    if (!event.relatedTarget)
      setTimeout(() => {
        if (!document.activeElement || !document.activeElement.classList.contains("cm-content")) show(null);
      }, 0);
  });
  if (window.visualViewport) {
    window.visualViewport.addEventListener("resize", place);
    window.visualViewport.addEventListener("scroll", place);
  }
  return bar;
}
