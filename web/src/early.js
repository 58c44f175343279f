// The first learner worker, started from the page's <head> (dist/assets/early.js, a classic script), so
// Python's boot (fetching and compiling the runtime) begins before the page's main script is fetched, parsed and
// run. It is a plain (blocking) script, so it has run before app.js, a module script, starts; it is 3 KB. runtime.js
// adopts the worker (takeEarlyWorker) and replays what it said meanwhile.
//
// It starts no worker when the page may still reload itself once into cross-origin isolation (a plain host's first
// visit: service workers supported, the page neither controlled by one nor isolated; see offline.js), nor when the
// learner asked to save data. Then runtime.js boots Python itself, after the page's load. On such a first visit it
// registers the service worker instead and reloads the page as soon as that worker is active (offline.js), well
// before app.js, fetched and run after the head, could have registered it.
//
// On lesson pages it also preloads the editor's modules (preloadEditor), under the same rule: not on a page that may
// still reload itself.

import { mayReload, register, reloadIntoIsolation } from "./offline.js";
import { Req, newRunId, request } from "./protocol.js";

/* global WORKER_VERSION */
const KEY = "__werkbankEarlyWorker";

/**
 * Preload the editor's modules (`data-modules` on this script: the shared chunks, then the stages, as
 * werkbank/site.py lists them), so app.js's imports find them fetched and compiled. start() skips it on a page
 * that may still reload itself into isolation, which would fetch and compile them for nothing.
 */
function preloadEditor(script) {
  const modules = (script.dataset.modules || "").split(" ").filter(Boolean);
  for (const href of modules) {
    const link = document.createElement("link");
    link.rel = "modulepreload";
    link.href = href;
    document.head.append(link);
  }
}

function start() {
  const script = document.currentScript;
  if (!script) return;
  const reloading = mayReload(window);
  if (!reloading) preloadEditor(script);
  if (window[KEY] || typeof Worker !== "function") return;
  if (reloading) {
    // reload into isolation as soon as the fresh service worker is active; app.js registers again, joins the same
    // reload decision and reports any failure
    register(new URL("../", script.src))
      .then((registration) => registration && reloadIntoIsolation(registration))
      .catch(() => {});
    return;
  }
  if (navigator.connection && navigator.connection.saveData) return;
  const url = new URL("./worker.js", script.src);
  if (typeof WORKER_VERSION === "string" && WORKER_VERSION) url.searchParams.set("v", WORKER_VERSION);
  const lessonId = script.dataset.lesson || "";
  const worker = new Worker(url, { type: "module" });
  const early = { worker, bootId: newRunId(), lessonId, messages: [], errors: [] };
  worker.onmessage = (event) => early.messages.push(event.data);
  worker.onerror = (event) => {
    if (event && typeof event.preventDefault === "function") event.preventDefault();
    early.errors.push((event && event.message) || "worker error");
  };
  worker.postMessage(request(Req.INIT, early.bootId, lessonId ? { lessonId } : {}));
  if (performance.mark) performance.mark("werkbank:early"); // the benchmark and the tests read it
  Object.defineProperty(window, KEY, { value: early, configurable: true });
}

try {
  start();
} catch (error) {
  console.warn("werkbank: the early learner worker did not start:", (error && error.message) || error); // runtime.js boots one
}
