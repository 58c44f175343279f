// Entry point of every page: theme, UI strings, progress, the Python runner and, on lesson pages, the editors.

import { CheckpointView, laterTask, loadEditor } from "./checkpoint.js";
import { mountFigures } from "./figures/index.js";
import { loadStrings, pageLang, t } from "./i18n.js";
import { setupCheckpointTabs } from "./layout.js";
import {
  renderHomeProgress,
  renderLessonEnd,
  renderLessonProgress,
  renderStartCard,
  renderStepper,
} from "./progress.js";
import { Runtime, runtimeAttribute, takeEarlyWorker } from "./runtime.js";
import { mayReload, registerServiceWorker, reloadedIntoIsolation } from "./offline.js";
import { KEY, ProgressStore, readImport, recoverFromVerdicts, VerdictStore } from "./storage.js";
import { setupSymbolBar } from "./symbols.js";
import { setupTheme } from "./theme.js";

function readJson(id) {
  const node = document.getElementById(id);
  if (!node) return null;
  try {
    return JSON.parse(node.textContent);
  } catch {
    return null;
  }
}

function showWarning(key) {
  const box = document.querySelector("[data-warnings]");
  if (!box || box.querySelector(`[data-warning="${key}"]`)) return;
  const p = document.createElement("p");
  p.className = "warning";
  p.dataset.warning = key;
  p.textContent = t(key);
  box.append(p);
}

/** Download the progress document as a JSON file. */
function exportProgress(store) {
  download(`werkbank-progress-${new Date().toISOString().slice(0, 10)}.json`, store.exportJson());
}

function showStoreWarnings(store) {
  for (const key of store.warnings) showWarning(key);
  // Progress that lives only in this page's memory is lost with the page: offer the export right beside the
  // warning (the home page has its own export button).
  const memory = document.querySelector(
    '[data-warning="storage_warning_memory"], [data-warning="storage_warning_damaged_kept"]',
  );
  if (memory && !document.querySelector('[data-action="export"]')) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "btn";
    button.dataset.action = "export";
    button.textContent = t("export");
    button.addEventListener("click", () => exportProgress(store));
    memory.append(" ", button);
  }
}

/** The runtime indicator: "Python: loading… 45 %" / ready / running / restarting. */
function runtimeIndicator(runtime) {
  const label = document.querySelector("[data-runtime-label]");
  const bar = document.querySelector("[data-runtime-progress]");
  let percent = 0;
  const paint = () => {
    const state = runtime.state;
    if (state === "idle" || state === "running") percent = 0; // the next boot (a restart) counts from 0 again
    document.body.dataset.runtime = runtimeAttribute(state);
    if (!label) return;
    if (state === "booting" || state === "off") {
      label.textContent = percent > 0 ? t("runtime_loading_pct", { pct: percent }) : t("runtime_loading");
    } else if (state === "idle" || state === "warming") label.textContent = t("runtime_ready");
    else if (state === "running" || state === "stopping") label.textContent = t("runtime_running");
    else if (state === "restarting") label.textContent = t("runtime_restarting");
    else if (state === "failed") label.textContent = t("runtime_failed", { message: runtime.failure || "" });
    if (bar) {
      bar.hidden = !(state === "booting" || state === "restarting");
      bar.value = percent;
      bar.setAttribute("aria-label", label.textContent);
    }
  };
  return {
    state: () => paint(),
    progress: (value) => {
      // never step back within one boot (files arrive in any order); a new boot starts again from 0
      if (runtime.state === "booting" || runtime.state === "restarting") {
        percent = Math.max(percent, Math.min(100, Math.round(value)));
      }
      paint();
    },
  };
}

/** The learner's language pick (the language switch) is remembered; web/static/lang-boot.js follows it. */
function rememberLanguageChoice() {
  for (const link of document.querySelectorAll("a[data-lang-choice]")) {
    link.addEventListener("click", () => {
      try {
        localStorage.setItem("werkbank:lang", link.dataset.langChoice);
      } catch {
        /* storage blocked: the link still works */
      }
    });
  }
}

/** One polite live region for the whole page: each run announces once (its headline), hints when revealed. */
function announcer() {
  const node = document.querySelector("[data-announcer]");
  let last = "";
  return (text) => {
    if (!node || !text) return;
    // the same text twice in a row would not be read again: make it differ invisibly
    const next = text === last.replace(/\u00a0$/, "") && !last.endsWith("\u00a0") ? `${text}\u00a0` : text;
    node.textContent = next;
    last = next;
  };
}

/**
 * Scrolled regions (code and formula blocks wider than the column) must be reachable by keyboard
 * (axe: scrollable-region-focusable): they get tabindex=0 and a name while they overflow, and lose them when not.
 */
function focusableScrollers(root = document) {
  const candidates = root.querySelectorAll(
    "main pre:not([data-output]):not(.editor-fallback), main .math-display, main .math-inline-wide, main table",
  );
  const check = (node) => {
    const scrolls = node.scrollWidth > node.clientWidth + 1 || node.scrollHeight > node.clientHeight + 1;
    if (scrolls && !node.hasAttribute("tabindex")) {
      node.tabIndex = 0;
      node.dataset.scrollFocus = "";
      if (!node.hasAttribute("role") && node.tagName !== "TABLE") {
        node.setAttribute("role", "group");
        const math = node.classList.contains("math-display") || node.classList.contains("math-inline-wide");
        node.setAttribute("aria-label", t(math ? "scroll_math" : "scroll_code"));
      }
    } else if (!scrolls && node.hasAttribute("data-scroll-focus")) {
      node.removeAttribute("tabindex");
      delete node.dataset.scrollFocus;
      if (node.getAttribute("role") === "group") {
        node.removeAttribute("role");
        node.removeAttribute("aria-label");
      }
    }
  };
  if (typeof ResizeObserver === "function") {
    const observer = new ResizeObserver((entries) => {
      for (const entry of entries) check(entry.target);
    });
    for (const node of candidates) observer.observe(node);
  }
  candidates.forEach(check);
}

/** The sticky top bar's height, for anchors to land below it (CSS var --topbar-height). */
function trackTopbar() {
  const bar = document.querySelector(".topbar");
  if (!bar) return;
  const set = () => document.documentElement.style.setProperty("--topbar-height", `${bar.offsetHeight}px`);
  // Read once the page has been laid out anyway: a ResizeObserver reports the bar's first size after layout, so the
  // page's start-up does not force an early layout of the whole document.
  if (typeof ResizeObserver === "function") new ResizeObserver(set).observe(bar);
  else requestAnimationFrame(set);
}

/** In-page jumps (stepper, start card, "Next: checkpoint N", the lesson's end): scroll there and move focus to the
 * section's heading. */
function jumpLinks() {
  document.addEventListener("click", (event) => {
    const link =
      event.target.closest && event.target.closest('a[href^="#checkpoint-"], a[href="#try"], a[href="#lesson-end"]');
    if (!link || event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey)
      return;
    const section = document.getElementById(link.getAttribute("href").slice(1));
    if (!section) return;
    event.preventDefault();
    history.pushState(null, "", link.getAttribute("href"));
    const heading = section.querySelector("h2[tabindex]") || section;
    section.scrollIntoView({ block: "start" });
    heading.focus({ preventScroll: true });
  });
}

function keepPlaceOnLanguageSwitch() {
  for (const link of document.querySelectorAll("a[data-keep-place]")) {
    link.addEventListener("click", () => {
      // the last section or heading that begins above the upper part of the viewport (below the sticky top bar), where
      // the learner reads now: the address's anchor may be where they came in, long scrolled past. One that is hidden
      // has no place on the page (the end of an unfinished lesson, which comes last and would always win).
      const bar = document.querySelector(".topbar");
      const limit = (bar ? bar.getBoundingClientRect().bottom : 0) + Math.min(window.innerHeight / 4, 200);
      const marks = document.querySelectorAll("main h1[id], main h2[id], main h3[id], main section[id]");
      let best = null;
      for (const mark of marks)
        if (mark.getClientRects().length && mark.getBoundingClientRect().top <= limit) best = mark;
      const hash = best ? `#${best.id}` : window.location.hash;
      if (hash) link.href = `${link.href.split("#")[0]}${hash}`;
    });
  }
}

function download(name, text) {
  const url = URL.createObjectURL(new Blob([text], { type: "application/json" }));
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

function progressTools(store, verdicts) {
  const message = document.querySelector("[data-progress-message]");
  const say = (text) => {
    if (message) message.textContent = text;
  };
  document.querySelector('[data-action="export"]')?.addEventListener("click", () => exportProgress(store));
  document.querySelector('[data-action="import"]')?.addEventListener("change", async (event) => {
    const file = event.target.files && event.target.files[0];
    if (!file) return;
    let imported = null;
    try {
      imported = readImport(await file.text());
    } catch (error) {
      say(t(`import_failed_${error.code || "not_progress"}`));
    }
    if (imported) {
      // an editor with a draft here and another in the file: the learner says which to keep (nothing goes unasked)
      const conflicts = store.draftConflicts(imported);
      const preferFile = conflicts > 0 && window.confirm(t("import_conflict", { n: conflicts }));
      store.importDoc(imported, { preferFile });
      say(t(conflicts === 0 ? "import_done" : preferFile ? "import_done_file_drafts" : "import_done_own_drafts"));
    }
    event.target.value = "";
  });
  document.querySelector('[data-action="reset-all"]')?.addEventListener("click", () => {
    if (!window.confirm(t("confirm_reset_all"))) return;
    store.resetAll();
    verdicts.clear();
    say(t("reset_all_done"));
  });
}

/** "A newer version is ready" with a button; the page never reloads by itself (drafts are flushed on pagehide). */
function showUpdate(update) {
  const box = document.querySelector("[data-warnings]");
  if (!box || box.querySelector('[data-action="apply-update"]')) return;
  const p = document.createElement("p");
  p.className = "notice";
  p.dataset.warning = "update_available";
  p.textContent = `${t("update_available")} `;
  const button = document.createElement("button");
  button.type = "button";
  button.className = "btn";
  button.dataset.action = "apply-update";
  button.textContent = t("update_apply");
  button.addEventListener("click", () => update.apply());
  p.append(button);
  box.append(p);
}

/** Let the browser handle input, rendering and messages before the next slice of start-up work. */
function nextSlice() {
  if (typeof scheduler !== "undefined" && typeof scheduler.yield === "function") return scheduler.yield();
  return laterTask();
}

/**
 * Resolves once the browser has rendered the page's first frame (or after FIRST_FRAME_MS at most: a hidden tab
 * renders no frames). Until then the document has never been laid out, and the first editor would force that whole
 * layout (a long task on a long lesson) inside its own slice.
 */
const FIRST_FRAME_MS = 200;
function firstFrame() {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, FIRST_FRAME_MS);
    requestAnimationFrame(() => {
      // rAF runs just before that frame's style and layout; the message after it, once the frame is done
      nextSlice().then(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  });
}

/**
 * Run start-up work without long main-thread tasks (none over 50 ms): `work` holds functions (which may
 * return a promise to wait for) and iterators of steps (a checkpoint's editors, one per step); after every function
 * or step that ends past SLICE_MS the page gets the main thread back. Order is kept.
 */
const SLICE_MS = 12;
async function inSlices(work) {
  await firstFrame(); // the page's first layout happens in the browser's own rendering step, not inside a slice
  let start = performance.now();
  const pause = async () => {
    if (performance.now() - start < SLICE_MS) return;
    await nextSlice();
    start = performance.now();
  };
  for (const item of work) {
    if (typeof item === "function") {
      await item(); // a function may return a promise (the editor module's load): the next items wait for it
      await pause();
    } else {
      for (const _ of item) await pause(); // eslint-disable-line no-unused-vars
    }
  }
}

function main() {
  loadStrings();
  setupTheme();
  const coldRuntime = reloadedIntoIsolation(window); // read before the service worker's setup clears the guard
  const serviceWorker = registerServiceWorker({ onUpdate: showUpdate });
  const lang = pageLang();
  const store = new ProgressStore();
  const verdicts = new VerdictStore();
  recoverFromVerdicts(store, verdicts);
  showStoreWarnings(store);
  window.addEventListener("storage", (event) => {
    if (event.key === KEY || event.key === null) store.syncFromStorage();
  });

  const views = [];
  const later = []; // start-up work done in slices once the page is usable: functions, or iterators of steps
  let indicator = null;
  const runtime = new Runtime({
    onState: () => {
      if (indicator) indicator.state();
      for (const view of views) view.refreshButtons();
    },
    onProgress: (percent) => indicator && indicator.progress(percent),
    onNotice: (key) => showWarning(key),
    early: takeEarlyWorker(), // the learner worker early.js started in <head>, if it did
    coldRuntime,
  });
  indicator = runtimeIndicator(runtime);
  indicator.state();

  const page = document.body.dataset.page;
  const announce = announcer();
  const lesson = page === "lesson" ? readJson("lesson-data") : null;
  if (lesson)
    runtime.warm(
      lesson.id,
      lesson.checkpoints.map((cp) => cp.id),
    ); // expected values are computed while the learner reads
  const boot = bootPython(runtime, serviceWorker);
  if (page === "lesson") {
    if (lesson) {
      const ids = lesson.checkpoints.map((cp) => cp.id);
      const byId = new Map(lesson.checkpoints.map((cp) => [cp.id, cp]));
      const byKey = new Map();
      let paintSoon = null;
      const context = {
        announce,
        numberOf: (id) => ids.indexOf(String(id)) + 1,
        view: (id) => byKey.get(String(id)) || null,
        checkpointViews: () => ids.map((id) => byKey.get(id)).filter(Boolean),
        busyView: () => views.find((view) => view.busy) || null,
        changed: () => {
          runtime.engage(); // the learner works on code: keep the whole pool of learner workers (runtime.js)
          clearTimeout(paintSoon);
          paintSoon = setTimeout(() => paintStepper(), 300);
        },
        scrollables: (root) => focusableScrollers(root),
        verdicts,
        lessonDone: () => store.passedCount(lesson.id, ids) === ids.length,
        // where the learner works: the home page offers to continue there
        markLast: (view) => {
          if (view.data) store.markLast(lesson.id, lang, view.data.id);
        },
      };
      const sections = Array.from(document.querySelectorAll("[data-checkpoint], [data-playground]"));
      // earlier checkpoints first, so carried-over code finds their editors; the free editor last
      sections.sort(
        (a, b) =>
          (a.hasAttribute("data-playground") ? 1 : 0) - (b.hasAttribute("data-playground") ? 1 : 0) ||
          ids.indexOf(a.dataset.checkpoint) - ids.indexOf(b.dataset.checkpoint),
      );
      // A learner's action on a section builds it (and the sections before it) at once, out of turn.
      context.ready = (view) => {
        for (const other of views) {
          other.build();
          if (other === view) break;
        }
      };
      for (const section of sections) {
        const data = section.hasAttribute("data-checkpoint") ? byId.get(section.dataset.checkpoint) : null;
        if (section.hasAttribute("data-checkpoint") && !data) continue;
        const view = new CheckpointView(section, { lesson, data, runtime, store, lang, page: context });
        byKey.set(data ? data.id : "playground", view);
        views.push(view);
      }
      const paintStepper = () => {
        const states = new Map(context.checkpointViews().map((v) => [v.data.id, v.progressState()]));
        const solution = new Set(ids.filter((id) => store.passedWithSolution(lesson.id, id)));
        renderStepper(document, states, t, solution);
        renderStartCard(document, states, ids, t, solution);
      };
      const paint = () => {
        renderLessonProgress(document, store, lesson.id, ids);
        for (const view of views) view.refreshPassed();
        paintStepper();
        renderLessonEnd(document, store, lesson.id, ids, t);
        showStoreWarnings(store);
      };
      store.onChange(paint);
      store.onForeignDraft(({ lesson: id, key, text }) => {
        const view = id === lesson.id ? byKey.get(key) : null;
        if (view) view.foreignDraft(text);
      });
      setupCheckpointTabs(document);
      paint();
      const last = store.last();
      if (!last || last.lesson !== lesson.id || last.lang !== lang) {
        store.markLast(lesson.id, lang, ids.find((id) => !store.isPassed(lesson.id, id)) || ids[ids.length - 1]);
      }
      window.addEventListener("pagehide", () => {
        for (const view of views) view.flushDraft();
      });
      document.addEventListener("visibilitychange", () => {
        if (document.visibilityState === "hidden") for (const view of views) view.flushDraft();
      });
      // The editors (CodeMirror) are the expensive part of a lesson page: its module loads beside the start-up and
      // is evaluated in a task of its own, then one editor per slice of the main thread. Should it not load, the
      // sections keep showing their code as text, and the page says why.
      // A page that may still reload itself into isolation loads it once the service worker has settled that (the
      // reloaded page loads it instead; a learner's action on a section loads it at once, as always).
      let editorLoaded = false;
      const load = () =>
        loadEditor().then(
          (module) => {
            editorLoaded = true;
            setupSymbolBar(module);
          },
          (error) => {
            console.warn("werkbank: the code editor did not load:", (error && error.message) || error);
            showWarning("editor_failed");
          },
        );
      const editorLoading = mayReload(window)
        ? serviceWorker.then(({ reloading }) => (reloading ? null : load()))
        : load();
      const editors = function* () {
        if (!editorLoaded) return;
        for (const view of views) yield* view.steps;
      };
      later.push(
        () => editorLoading,
        editors(),
        () => paint(),
      );
    }
    keepPlaceOnLanguageSwitch();
    jumpLinks();
    later.push(() => mountFigures(document, lang));
  } else {
    const site = readJson("site-data") || { lessons: [] };
    const paint = () => {
      renderHomeProgress(document, store, site.lessons, t);
      showStoreWarnings(store);
    };
    store.onChange(paint);
    paint();
    progressTools(store, verdicts);
  }
  rememberLanguageChoice();
  trackTopbar();
  for (const view of views) view.refreshButtons();
  later.push(
    () => focusableScrollers(),
    () => {
      document.body.dataset.editors = "ready"; // every editor is built (a hook for tests)
    },
  );
  inSlices(later);

  boot.afterLoad();
}

/**
 * Boot Python in the background, unless the learner asked to save data. When no isolation reload can come (the page
 * is isolated already, or a service worker controls it, or there is none), the workers start now, before the
 * editors are built, so their downloads and compiles overlap the page's own start-up (the first learner worker
 * usually started even earlier, from <head>: web/src/early.js, adopted here). Otherwise (a plain host's
 * first visit: the service worker may reload the page once into isolation) they start after the load event, once
 * the service worker has settled that. `afterLoad()` shows the save-data notice or arranges the later start.
 */
function bootPython(runtime, serviceWorker) {
  const saveData = navigator.connection && navigator.connection.saveData;
  if (!saveData && (runtime.early || !mayReload(window))) runtime.boot();
  const start = () => {
    if (saveData) {
      const label = document.querySelector("[data-runtime-label]");
      if (label) label.textContent = t("runtime_idle_savedata");
      return;
    }
    serviceWorker.then(({ reloading }) => {
      if (!reloading) runtime.boot(); // a no-op when it started early
    });
  };
  return {
    afterLoad() {
      if (document.readyState === "complete") start();
      else window.addEventListener("load", start, { once: true });
    },
  };
}

// The bundle's evaluation is one main-thread task and the page's own start-up the next,
// so the two do not add up to one long task; CodeMirror's evaluation is a third (loadEditor).
setTimeout(main, 0);
