// The page's side of the service worker (dist/sw.js): register it, reload once into cross-origin isolation on a
// plain static host, ask for the full offline copy, and report when a newer build is ready.
//
// Everything here is best effort: without service workers (old browsers, private modes, file: URLs, plain http on
// a non-localhost origin) or when registration fails, the site works exactly as without this module.
//
// While the page runs, <html data-offline="..."> says how far the offline copy is: "dev" (a development page of
// `werkbank serve --watch`: no service worker), "unsupported", "failed",
// "caching" (the service worker controls the page and is saving the build), "ready" (the whole build is saved).
// <html data-update="available"> appears when a newer build is saved and waiting ("activated": another tab
// switched to it), alongside the onUpdate callback.

const RELOAD_GUARD = "werkbank-isolation-reload"; // sessionStorage: set while the one isolation reload is spent
const CONTROL_WAIT_MS = 4000; // how long a first visit waits for the fresh service worker to activate
const UPDATE_CHECK_MS = 60 * 60 * 1000; // look for a newer build at most this often while the page is open

function mark(state) {
  document.documentElement.dataset.offline = state;
}

/** True when the tab's session holds `key`, or when there is no session storage (then nothing reloads by itself:
 * a reload loop would have no brake). */
function flagged(key) {
  try {
    return window.sessionStorage.getItem(key) !== null;
  } catch {
    return true;
  }
}

/** Set or clear `key` in the tab's session; false when session storage is not available. */
function flag(key, on) {
  try {
    if (on) window.sessionStorage.setItem(key, String(Date.now()));
    else window.sessionStorage.removeItem(key);
    return true;
  } catch {
    return false;
  }
}

const DEV_RELOAD = "werkbank-dev-reload"; // sessionStorage: the development page's one reload past an old worker

/** The folder the built site lives in (where sw.js is): the parent of the assets/ folder this bundle runs from. */
export function siteRoot() {
  return new URL("../", import.meta.url);
}

/**
 * Resolve to true once the registration has an active worker (a navigation would then be controlled by it), or
 * to false after `ms`. After a shift+reload the worker is already active and this resolves at once.
 */
function activated(registration, ms) {
  if (registration.active) return Promise.resolve(true);
  return new Promise((resolve) => {
    let timer = null;
    const finish = (value) => {
      clearTimeout(timer);
      resolve(value);
    };
    timer = setTimeout(() => finish(Boolean(registration.active)), ms);
    const follow = (worker) => {
      if (!worker) return;
      worker.addEventListener("statechange", () => {
        if (registration.active) finish(true);
        else if (worker.state === "redundant") finish(false);
      });
    };
    follow(registration.installing || registration.waiting);
    registration.addEventListener("updatefound", () => follow(registration.installing));
  });
}

/** Ask the controlling worker to save the rest of the build; marks <html data-offline> as it goes. */
function requestPrecache(onCached) {
  const sw = navigator.serviceWorker;
  if (!sw.controller) return;
  mark("caching");
  sw.addEventListener("message", (event) => {
    const data = event.data;
    if (!data || data.type !== "precached") return;
    const ok = Array.isArray(data.errors) && data.errors.length === 0;
    mark(ok ? "ready" : "failed");
    onCached(data);
  });
  sw.controller.postMessage({ type: "precache" });
}

/** Report a waiting worker (a newer build, completely saved) to `onUpdate` once; never reloads by itself. */
function watchUpdates(registration, onUpdate) {
  const sw = navigator.serviceWorker;
  const announced = new Set();
  let applying = false;
  const apply = (worker) => () => {
    if (applying) return;
    applying = true;
    sw.addEventListener("controllerchange", () => window.location.reload(), { once: true });
    worker.postMessage({ type: "skip-waiting" });
  };
  const announce = (worker) => {
    if (!worker || announced.has(worker) || !sw.controller) return; // a first install is not an update
    announced.add(worker);
    document.documentElement.dataset.update = "available";
    onUpdate({ apply: apply(worker) });
  };
  announce(registration.waiting);
  registration.addEventListener("updatefound", () => {
    const worker = registration.installing;
    if (!worker) return;
    worker.addEventListener("statechange", () => {
      if (worker.state === "installed") announce(worker);
    });
  });
  // Another tab applied an update: this page still runs the old build, so offer a reload (the page decides).
  let hadController = Boolean(sw.controller);
  sw.addEventListener("controllerchange", () => {
    if (hadController && !applying) {
      document.documentElement.dataset.update = "activated";
      onUpdate({ apply: () => window.location.reload(), activated: true });
    }
    hadController = true;
  });
  let lastCheck = Date.now();
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible" && Date.now() - lastCheck > UPDATE_CHECK_MS) {
      lastCheck = Date.now();
      registration.update().catch(() => {});
    }
  });
}

/**
 * True when the page itself came through a service worker (its navigation did), and so has the headers the worker
 * adds. A worker that took control of the page later (clients.claim(), on a first visit) changed no header.
 */
function loadedThroughWorker(win) {
  const entry =
    win.performance && typeof win.performance.getEntriesByType === "function"
      ? win.performance.getEntriesByType("navigation")[0]
      : null;
  if (entry && typeof entry.workerStart === "number") return entry.workerStart > 0;
  return Boolean(win.navigator.serviceWorker.controller);
}

/**
 * True when this page may still reload itself once into isolation (see setUp: a service worker is possible here,
 * and the page is neither isolated nor came through one), so a Python worker started now would be thrown away.
 */
export function mayReload(win = globalThis) {
  const nav = win.navigator || {};
  if (win.crossOriginIsolated) return false;
  if (win.document && win.document.querySelector('meta[name="werkbank-dev"]')) return false; // no service worker
  if (!("serviceWorker" in nav) || !win.isSecureContext) return false;
  return !loadedThroughWorker(win);
}

/**
 * True when this page load is the one reload into isolation of a first visit (the reload guard was set moments
 * ago): the service worker has just saved Python's runtime, so this page compiles it from scratch.
 */
export function reloadedIntoIsolation(win = globalThis) {
  const entry =
    win.performance && typeof win.performance.getEntriesByType === "function"
      ? win.performance.getEntriesByType("navigation")[0]
      : null;
  if (!entry || entry.type !== "reload") return false;
  let since;
  try {
    since = Number(win.sessionStorage.getItem(RELOAD_GUARD));
  } catch {
    return false;
  }
  return since > 0 && Date.now() - since < 60_000;
}

const PENDING_RELOAD = "__werkbankIsolationReload"; // window: the one decision, shared by early.js's bundle and app.js's

/**
 * Reload the page once into isolation as soon as `registration` has an active worker (within `waitMs`); resolves to
 * true when the page is reloading. early.js calls it from <head> on a first visit, so the reload comes as soon as the
 * fresh worker activates rather than once app.js has been fetched, run and has registered again; setUp joins the
 * same decision. The session guard stops a reload loop where isolation cannot work.
 */
export function reloadIntoIsolation(registration, waitMs = CONTROL_WAIT_MS) {
  if (window[PENDING_RELOAD]) return window[PENDING_RELOAD];
  const decision = activated(registration, waitMs).then((active) => {
    if (active && !flagged(RELOAD_GUARD) && flag(RELOAD_GUARD, true)) {
      window.location.reload();
      return true;
    }
    return false;
  });
  Object.defineProperty(window, PENDING_RELOAD, { value: decision, configurable: true });
  return decision;
}

/**
 * Register the site's service worker (`root`/sw.js, scoped to the site); resolves to the registration. Calling it
 * again with the same root joins the same registration: early.js starts it from <head> on a first visit, so the
 * isolation reload comes sooner, and registerServiceWorker carries on with it.
 */
export function register(root) {
  const base = new URL(root, globalThis.location.href);
  return navigator.serviceWorker.register(new URL("sw.js", base).href, {
    scope: base.pathname,
    updateViaCache: "none",
  });
}

/**
 * Register dist/sw.js for the whole site and settle the page's isolation.
 *
 * Options: onUpdate({apply, activated?}) is called when a newer build is saved and waiting (call apply() to switch
 * to it: the page reloads into the new build); onCached(report) when the offline copy is complete or failed;
 * root: the site root URL (default: the parent of this bundle's folder); waitMs: how long to wait for control.
 *
 * Resolves (never rejects) to {supported, registration, reloading}. When `reloading` is true the page is about to
 * reload itself once (a plain host, first visit: the new worker adds the isolation headers after the reload), so
 * the caller should not start anything expensive such as booting Python.
 */
export async function registerServiceWorker(options = {}) {
  try {
    return await setUp(options);
  } catch (error) {
    // Whatever goes wrong here must not keep the page from working: report it and carry on without the worker.
    mark("failed");
    console.warn("werkbank: service worker setup failed:", (error && error.message) || error);
    return { supported: false, registration: null, reloading: false };
  }
}

async function setUp({ onUpdate = () => {}, onCached = () => {}, root, waitMs } = {}) {
  if (document.querySelector('meta[name="werkbank-dev"]')) {
    // `werkbank serve --watch`: pages must always come from the server. Register nothing; remove what an earlier
    // visit registered and saved.
    const sw = "serviceWorker" in navigator ? navigator.serviceWorker : null;
    if (sw) for (const registration of await sw.getRegistrations()) await registration.unregister();
    if (window.caches) {
      for (const key of await caches.keys()) if (key.startsWith("werkbank-")) await caches.delete(key);
    }
    // Reached through an old worker (werkbank/watch.py's replacement asked for a reload before it took over): once
    // more, now that no worker is registered, so the page comes from the server itself. Once per tab session.
    if (sw && sw.controller && !flagged(DEV_RELOAD) && flag(DEV_RELOAD, true)) {
      window.location.reload();
      return { supported: false, registration: null, reloading: true };
    }
    mark("dev");
    return { supported: false, registration: null, reloading: false };
  }
  if (!("serviceWorker" in navigator) || !window.isSecureContext) {
    mark("unsupported");
    return { supported: false, registration: null, reloading: false };
  }
  const base = new URL(root || siteRoot(), window.location.href);
  const sw = navigator.serviceWorker;
  // `werkbank serve --watch` replaced the offline copy's worker by one that removes itself (werkbank/watch.py): come
  // from the development server now rather than when the old worker lets the new one take over.
  sw.addEventListener("message", (event) => {
    if (event.data && event.data.type === "werkbank-dev") window.location.reload();
  });
  const wasControlled = loadedThroughWorker(window); // (early.js may have registered it, and it may control the page)
  let registration;
  try {
    registration = await register(base); // the same registration early.js may have started already
    if (!registration) throw new Error("register() gave no registration"); // e.g. blocked by an automation tool
  } catch (error) {
    mark("failed");
    console.warn("werkbank: service worker not registered:", (error && error.message) || error);
    return { supported: true, registration: null, reloading: false };
  }
  watchUpdates(registration, onUpdate);

  if (window.crossOriginIsolated) {
    flag(RELOAD_GUARD, false); // isolation works: a later uncontrolled load (shift+reload) may reload once again
  } else if (!wasControlled) {
    // Not isolated and not controlled: the first visit on a plain host (or a shift+reload). Once the worker is
    // active, one reload lets it answer the page with the isolation headers. The guard stops a reload loop where
    // isolation cannot work (the flag stays set for the tab's session unless isolation succeeds).
    if (await reloadIntoIsolation(registration, waitMs ?? CONTROL_WAIT_MS)) {
      return { supported: true, registration, reloading: true };
    }
  }
  const start = () => {
    if (sw.controller) requestPrecache(onCached);
    else sw.addEventListener("controllerchange", () => requestPrecache(onCached), { once: true });
  };
  if (document.readyState === "complete") start();
  else window.addEventListener("load", start, { once: true });
  return { supported: true, registration, reloading: false };
}
