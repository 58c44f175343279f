// Applies the remembered light/dark choice before the first paint (no flash). Classic script, no modules.
(() => {
  try {
    const theme = localStorage.getItem("werkbank:theme");
    if (theme === "light" || theme === "dark") document.documentElement.dataset.theme = theme;
  } catch (_e) {
    /* storage blocked: follow the system setting */
  }
})();
