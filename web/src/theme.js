// Light/dark theme: follows prefers-color-scheme until the learner picks one; the pick is remembered.
// web/static/theme-boot.js applies the remembered pick before the first paint.

/** localStorage key of the remembered theme ("light" | "dark"). */
export const THEME_KEY = "werkbank:theme";

function systemTheme() {
  return window.matchMedia && window.matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light";
}

/** The theme in effect now. */
export function currentTheme() {
  return document.documentElement.dataset.theme || systemTheme();
}

function apply(theme, button) {
  document.documentElement.dataset.theme = theme;
  if (button) button.setAttribute("aria-pressed", String(theme === "dark"));
}

/** Wire the `[data-theme-toggle]` button: toggles and remembers the theme. */
export function setupTheme(root = document) {
  const button = root.querySelector("[data-theme-toggle]");
  let stored = null;
  try {
    stored = localStorage.getItem(THEME_KEY);
  } catch {
    stored = null;
  }
  apply(stored === "light" || stored === "dark" ? stored : systemTheme(), button);
  if (!stored && window.matchMedia) {
    window.matchMedia("(prefers-color-scheme: dark)").addEventListener("change", () => {
      let pick = null;
      try {
        pick = localStorage.getItem(THEME_KEY);
      } catch {
        pick = null;
      }
      if (!pick) apply(systemTheme(), button);
    });
  }
  if (!button) return;
  button.addEventListener("click", () => {
    const next = currentTheme() === "dark" ? "light" : "dark";
    apply(next, button);
    try {
      localStorage.setItem(THEME_KEY, next);
    } catch {
      /* storage blocked: the toggle still works for this page */
    }
  });
}
