// The default home page (dist/index.html) on a first visit: follow the browser's preferred languages among the
// site's languages; after the learner picked a language with the switch, keep that pick. Runs before the first
// paint (classic script, no modules). Without JavaScript the page simply stays in the default language.
(() => {
  const KEY = "werkbank:lang";
  const html = document.documentElement;
  const own = html.lang;
  const offered = [];
  const links = document.querySelectorAll('link[rel="alternate"][hreflang]');
  for (let i = 0; i < links.length; i += 1) offered.push(links[i].getAttribute("hreflang"));
  function target(lang) {
    for (let j = 0; j < links.length; j += 1) {
      if (links[j].getAttribute("hreflang") === lang) return links[j].getAttribute("href");
    }
    return null;
  }
  let chosen = null;
  try {
    chosen = localStorage.getItem(KEY);
  } catch (_e) {
    chosen = null;
  }
  if (offered.indexOf(chosen) < 0) chosen = null; // not a pick of the switch (damaged storage): as if none
  if (!chosen) {
    const wanted = navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language || ""];
    for (let k = 0; k < wanted.length && !chosen; k += 1) {
      const base = String(wanted[k]).toLowerCase().split("-")[0];
      if (offered.indexOf(base) >= 0) chosen = base;
    }
  }
  if (chosen && chosen !== own) {
    const href = target(chosen);
    if (href) window.location.replace(href + window.location.search + window.location.hash);
  }
})();
