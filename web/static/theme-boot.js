// Applies the remembered light/dark choice before the first paint (no flash). Classic script, no modules.
(function () {
  try {
    var theme = localStorage.getItem("werkbank:theme");
    if (theme === "light" || theme === "dark") document.documentElement.dataset.theme = theme;
  } catch (e) {
    /* storage blocked: follow the system setting */
  }
})();
