// One editor section of a lesson page: a graded checkpoint or the free "try it yourself" editor.
// Learner and Python text reaches the DOM through textContent only.
//
// A checkpoint has: code carried over from the checkpoints it needs (visible, editable, runs first), the learner's
// editor, a scratch editor holding the task's example call (or a failing case to try), Run / Check / Stop / Reset /
// Hint (in steps) / Solution, the verdict and the output. Run executes the composed code, then the scratch snippet,
// and shows the snippet's value; Check grades the composed code. The free editor runs every checkpoint's code first,
// so it shares their names. Each run announces once, through the page: its headline (a Check's with the first failing
// case and why). Reset, hints and the solution announce what they did. Buttons are never `disabled` while a run goes
// on (that would drop keyboard focus to <body>); they are aria-disabled and ignore activation.
//
// A failing case (the first one, or any of the verdict's list) can be tried (its call in the scratch editor, run
// beside the expected result) or traced ("Trace this case": the call runs under the engine's line tracer, and
// web/src/trace_view.js shows it step by step, below the verdict, which stays). The last verdict is kept
// (storage.js VerdictStore) and shown again after a reload.

import { renderPlot } from "./figures/index.js";
import { t } from "./i18n.js";
import { OutputView } from "./output.js";
import { renderTrace } from "./trace_view.js";
import {
  cut,
  el,
  locate,
  pythonError,
  pythonErrorBox,
  relabelTraceback,
  renderRunValue,
  renderVerdict,
  showStatus,
  showTemplated,
  snippetLine,
  trimTraceback,
} from "./verdict.js";

/* global EDITOR_STAGES, EDITOR_VERSION */

/**
 * The editor: `web/src/editor.js` (werkbank's editor on CodeMirror), bundled in stages (`EDITOR_STAGES`, set by the
 * build: CodeMirror's state and view, its language layer, the Python mode, then `editor.js`). A lesson page starts
 * loading them with its start-up (`loadEditor`) and evaluates each in a main-thread task of its own, after the one
 * before: on a first visit, with nothing compiled yet, all of CodeMirror in one task is a long task. A page without
 * editors never loads them. A learner's action on a section that comes before they are there waits for them
 * (`whenEditor`).
 */
let editor = null;
let editorLoading = null;

/** The URL of one of the editor's modules, under the build's version (the one the page's modulepreload names). */
function editorUrl(name) {
  const version = typeof EDITOR_VERSION === "string" && EDITOR_VERSION ? `?v=${EDITOR_VERSION}` : "";
  return new URL(`./${name}${version}`, import.meta.url).href;
}

/** Resolves in a later task: what comes after it is not evaluated in the same main-thread task as what came before. */
export function laterTask() {
  return new Promise((resolve) => {
    const channel = new MessageChannel(); // not setTimeout: nested timeouts are clamped to 4 ms
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}

/**
 * Import `names` one after the other (`load(name)` resolves to a module), awaiting `between()` before each but the
 * first, so that each is evaluated in a main-thread task of its own; resolves to the last module. A failed import
 * rejects, and the names after it are not imported.
 */
export async function importInStages(names, load, between = laterTask) {
  let module = null;
  for (const [index, name] of names.entries()) {
    if (index) await between();
    module = await load(name);
  }
  return module;
}

/** Load the editor's modules once (`EDITOR_STAGES`, in stages); resolves to the last, the editor. A failed load may
 * be tried again by the next call. */
export function loadEditor() {
  if (!editorLoading) {
    const stages = typeof EDITOR_STAGES !== "undefined" ? EDITOR_STAGES : ["editor.js"];
    editorLoading = importInStages(stages, (name) => import(editorUrl(name))).then(
      (module) => (editor = module),
      (error) => {
        editorLoading = null;
        throw error;
      },
    );
  }
  return editorLoading;
}

/** Run `fn` now when the editor module is loaded, else once it is (never, when it cannot load). */
function whenEditor(fn) {
  if (editor) fn();
  else loadEditor().then(fn, () => {});
}

const createEditor = (parent, options) => editor.createEditor(parent, options);
const getText = (view) => editor.getText(view);
const setText = (view, text) => editor.setText(view, text);
const markErrorLine = (view, line) => editor.markErrorLine(view, line);
const goToLine = (view, line) => editor.goToLine(view, line);
const focusEditor = (view) => editor.focusEditor(view);

/**
 * What a revealed hint says to a screen reader: its number, then its text. Each block of the hint is read apart
 * (its textContent alone runs "Hint 1 of 3" into the hint's first word).
 */
function hintAnnouncement(hint) {
  const blocks = Array.from(hint.childNodes, (node) => node.textContent.replace(/\s+/g, " ").trim()).filter(Boolean);
  const [number = "", ...body] = blocks;
  return body.length ? `${number}: ${body.join(" ")}` : number;
}

const DRAFT_DELAY_MS = 400;
/** How long the note after choosing between two tabs' versions stays. */
const DRAFT_NOTICE_MS = 8000;
/** The draft key under which a version of an editor's code waits while the learner has not chosen between two tabs'
 * versions (storage keeps it like any draft, so a reload or a closed tab loses neither). */
const asideKey = (key) => `aside:${key}`;
/** Steps "Trace this case" records (graders/engine/trace.py bounds them too). */
const TRACE_STEPS = 300;
/** Longest result value that goes into the announced headline ("Done. Result: 42"). */
const ANNOUNCED_VALUE_MAX = 80;
/** Longest value, error or expected result said when a tried case is announced (the page shows them whole). */
const ANNOUNCED_CASE_VALUE = 200;

function debounce(fn, ms) {
  let timer = null;
  let pending = null;
  const wrapped = (...args) => {
    clearTimeout(timer);
    pending = args;
    timer = setTimeout(() => {
      timer = null;
      pending = null;
      fn(...args);
    }, ms);
  };
  wrapped.cancel = () => {
    clearTimeout(timer);
    timer = null;
    pending = null;
  };
  wrapped.flush = () => {
    if (timer !== null) {
      clearTimeout(timer);
      timer = null;
      const args = pending;
      pending = null;
      fn(...args);
    }
  };
  return wrapped;
}

function withNewline(text) {
  return text === "" || text.endsWith("\n") ? text : `${text}\n`;
}

/**
 * Does a Check's verdict count as the learner's try ("tried" in the stepper and the stored progress)? A pass does
 * not (it counts as passed), and neither does an author error: the checkpoint's grader is broken, not the code.
 */
export function countsAsTried(verdict) {
  return Boolean(verdict) && verdict.status !== "pass" && verdict.status !== "author_error";
}

/**
 * Join source parts into one module: [{file, text, ...}] -> {source, segments: [{file, start, lines, ...}]}, where
 * `start` is the part's first line in the composed source. Used to map Python's line numbers back to editors.
 */
export function compose(parts) {
  let source = "";
  let start = 1;
  const segments = [];
  for (const { text, ...part } of parts) {
    const body = withNewline(text);
    const lines = body === "" ? 0 : body.split("\n").length - 1;
    segments.push({ ...part, start, lines });
    source += body;
    start += lines;
  }
  return { source, segments };
}

function setLabel(button, text) {
  const label = button.querySelector("[data-label]") || button;
  label.textContent = text;
}

function setDisabled(button, disabled) {
  if (!button) return;
  if (disabled) button.setAttribute("aria-disabled", "true");
  else button.removeAttribute("aria-disabled");
}

const isDisabled = (button) => button.getAttribute("aria-disabled") === "true";

/**
 * Controller of one `[data-checkpoint]` or `[data-playground]` section. `data` is the checkpoint's entry of the
 * page's lesson data (null for the free editor); `page` gives the other views, the announcer and numbering.
 */
export class CheckpointView {
  constructor(section, { lesson, data, runtime, store, lang, page }) {
    this.section = section;
    this.lesson = lesson;
    this.data = data;
    this.runtime = runtime;
    this.store = store;
    this.lang = lang;
    this.page = page;
    this.key = data ? data.id : "playground";
    this.number = data ? page.numberOf(data.id) : null;
    this.owner = Symbol(this.key);
    this.busy = false;
    this.resetFrom = null; // what a Reset replaced, while its notice offers "Undo reset" (_afterReset)
    this.origin = null;
    this.caseSource = null;
    this.caseExpected = null;
    this.caseLabel = "";
    this.verdict = section.querySelector("[data-verdict]");
    this.traceBox = section.querySelector("[data-trace]");
    this.draftNotice = section.querySelector("[data-draft-notice]");
    this.lastCheck = null; // {verdict, timeLimit, segments}: the Check's verdict, to come back to after trying a case
    this.output = new OutputView(section.querySelector("[data-output]"), t);
    this.buttons = {};
    for (const button of section.querySelectorAll("button[data-action]")) {
      if (!button.closest("[data-carried]")) this.buttons[button.dataset.action] = button;
    }
    const keys = section.querySelector(".keys");
    this.describedBy = keys ? keys.id : "";

    const saved = store.draft(lesson.id, this.key);
    this.initialText = saved !== null ? saved : data ? data.starter : "";
    // the text this tab last took from storage (loaded, followed, or chosen): an editor that still holds it has
    // nothing of this tab's own, so a draft another tab changes simply replaces it (foreignDraft)
    this.synced = this.initialText;
    this.following = false;
    const saveDraft = debounce((text) => store.saveDraft(lesson.id, this.key, text), DRAFT_DELAY_MS);
    this.saveDraft = saveDraft;
    this.view = null; // the CodeMirror editor, made by build() (app.js builds the page's editors in short slices)
    this.example = null;
    this.carried = [];
    this.steps = this._steps();
    this.built = false;
    this._setupHints();

    this._on("run", (button) => this.run(button));
    this._on("check", (button) => this.check(button));
    this._on("stop", () => this.stop());
    this._on("reset", () => this.reset());
    this._on("hint", () => this.nextHint());
    this._on("solution", () => this.showSolution(true));
    this._on("example-restore", () => this.restoreExample());
    for (const details of section.querySelectorAll("[data-carried]")) {
      details.querySelector('[data-action="carry-refresh"]')?.addEventListener("click", () =>
        whenEditor(() => {
          this._ready();
          this.syncCarried(details.dataset.carried);
        }),
      );
    }
    if (data && store.checkpoint(lesson.id, data.id)?.solutionRevealed) this.showSolution(false);
    this._restoreVerdict();
  }

  /**
   * The expensive part of the section, one editor per step: the learner's editor, the example editor, each
   * carried-over editor. app.js runs the steps of every section in short slices, so no main-thread task is long;
   * anything a learner can do first builds what it needs at once (`_ready`).
   */
  *_steps() {
    const mount = this.section.querySelector("[data-editor]");
    this.view = yield* editor.editorSteps(mount, {
      doc: this.initialText,
      label: mount.getAttribute("aria-label") || "",
      describedBy: this.describedBy,
      onChange: (text) => {
        if (this.following) return; // another tab's draft, followed: stored already, and not this tab's work
        this._afterReset(text);
        this.saveDraft(text);
        this.page.changed(this);
        if (this.page.markLast) this.page.markLast(this);
      },
      onSubmit: this.data ? () => this.check(this.view.contentDOM) : () => this.run(this.view.contentDOM),
    });
    mount.removeAttribute("aria-label");
    this._offerAside();
    yield;
    this._setupExample();
    yield* this._setupCarried();
    this.built = true;
    this.refreshPassed();
  }

  /** Run the build steps that are left now (all of them when none ran yet). */
  build() {
    for (const _ of this.steps); // eslint-disable-line no-unused-vars
  }

  /** This section and the ones before it (whose code it may carry over or run) are built. */
  _ready() {
    this.page.ready(this);
  }

  /** The learner's code in this section (the saved draft or the starter while the editor is not built yet). */
  text() {
    return this.view ? getText(this.view) : this.initialText;
  }

  _on(action, fn) {
    const button = this.buttons[action];
    if (!button) return;
    button.addEventListener("click", () => {
      if (!isDisabled(button)) whenEditor(() => !isDisabled(button) && fn(button));
      else if (action === "run" || action === "check") this._busyNote("run_while_running");
    });
  }

  /** The catalog's text `key` for code of another section running, naming that section where it is known:
   * `key` + "_n" for a checkpoint (its number), + "_playground" for the free editor. */
  _otherRuns(key) {
    const other = this.page.busyView ? this.page.busyView() : null;
    if (!other || other === this) return t(key);
    return other.number ? t(`${key}_n`, { n: other.number }) : t(`${key}_playground`);
  }

  /** A note under "Running…" that says why a press did nothing while this section's code runs, said aloud too. */
  _busyNote(key) {
    const said = t(key);
    let note = this.verdict.querySelector("[data-busy-note]");
    if (!note) {
      note = el("p", "verdict-note", said);
      note.dataset.busyNote = "";
      this.verdict.append(note);
    } else note.textContent = said;
    this.page.announce(said);
  }

  // ---------------------------------------------------------------- parts

  _setupExample() {
    this.example = null;
    const block = this.section.querySelector("[data-example-block]");
    if (!block || !this.data) return;
    const mount = block.querySelector("[data-example-editor]");
    const draftKey = `example:${this.data.id}`;
    const saved = this.store.draft(this.lesson.id, draftKey);
    const save = debounce((text) => this.store.saveDraft(this.lesson.id, draftKey, text), DRAFT_DELAY_MS);
    this.example = {
      block,
      title: block.querySelector("[data-example-title]"),
      text: block.querySelector("[data-example-text]"),
      draftKey,
      save,
      view: createEditor(mount, {
        doc: saved !== null ? saved : this.data.example || "",
        label: mount.getAttribute("aria-label") || "",
        describedBy: this.describedBy,
        className: "cm-small",
        onChange: (text) => {
          if (this.caseSource === null) save(text);
          this._exampleChanged();
        },
        onSubmit: () => this.run(this.example.view.contentDOM),
      }),
    };
    mount.removeAttribute("aria-label");
    this._exampleChanged();
  }

  _exampleChanged() {
    if (!this.example || !this.buttons["example-restore"]) return;
    const text = getText(this.example.view);
    this.buttons["example-restore"].hidden = this.caseSource === null && text === (this.data.example || "");
  }

  *_setupCarried() {
    this.carried = [];
    if (!this.data) return;
    for (const details of this.section.querySelectorAll("[data-carried]")) {
      const need = details.dataset.carried;
      const mount = details.querySelector("[data-carried-editor]");
      const entry = {
        id: need,
        details,
        note: details.querySelector("[data-carried-note]"),
        draftKey: `carried:${this.data.id}:${need}`,
        syncing: false,
        view: null,
      };
      const save = debounce((text) => this.store.saveDraft(this.lesson.id, entry.draftKey, text), DRAFT_DELAY_MS);
      entry.save = save;
      const draft = this.store.draft(this.lesson.id, entry.draftKey);
      entry.view = createEditor(mount, {
        doc: draft || this._carriedSource(need).text,
        label: mount.getAttribute("aria-label") || "",
        describedBy: this.describedBy,
        className: "cm-small",
        onChange: (text) => {
          if (!entry.syncing) save(text);
        },
        onSubmit: () => this.check(entry.view.contentDOM),
      });
      mount.removeAttribute("aria-label");
      this.carried.push(entry);
      yield;
    }
    this.syncCarried();
  }

  /** The code to carry over from checkpoint `need`: its latest passing code, else what its editor holds now. */
  _carriedSource(need) {
    const record = this.store.checkpoint(this.lesson.id, need);
    if (record && record.passedAt && record.lastPassingCode) return { text: record.lastPassingCode, passed: true };
    const other = this.page.view(need);
    return { text: other ? other.text() : "", passed: false };
  }

  /**
   * Bring carried-over code up to date. Copies the learner has not edited follow the earlier checkpoint; `force`
   * (the "Take checkpoint N's latest code" button) replaces an edited copy too, as one undoable change.
   */
  syncCarried(force = null) {
    for (const entry of this.carried) {
      const { text, passed } = this._carriedSource(entry.id);
      entry.note.hidden = passed;
      const edited = Boolean(this.store.draft(this.lesson.id, entry.draftKey));
      if (entry.id === force) {
        entry.save.flush();
        setText(entry.view, text);
        this.store.saveDraft(this.lesson.id, entry.draftKey, ""); // "" = not edited: follow again
      } else if (!edited && getText(entry.view) !== text) {
        entry.syncing = true;
        setText(entry.view, text);
        entry.syncing = false;
      }
    }
  }

  _setupHints() {
    this.hints = Array.from(this.section.querySelectorAll("[data-hint]"));
    const button = this.buttons.hint;
    if (!button) return;
    if (!this.hints.length) {
      button.hidden = true;
      return;
    }
    const shown = this.data ? this.store.hintsShown(this.lesson.id, this.data.id) : 0;
    this.hints.forEach((hint, i) => {
      hint.hidden = i >= shown;
    });
    this._hintButton();
  }

  _hintButton() {
    const button = this.buttons.hint;
    const total = this.hints.length;
    const shown = this.hints.filter((hint) => !hint.hidden).length;
    if (shown === 0) setLabel(button, t("hint"));
    else if (shown < total) setLabel(button, t("hint_next", { shown, total }));
    else setLabel(button, t("hints_all_shown"));
    setDisabled(button, shown >= total);
    button.setAttribute("aria-expanded", String(shown > 0));
  }

  /** Reveal the next hint (gentle first, more specific later); it is announced, focus stays on the button. */
  nextHint() {
    const next = this.hints.find((hint) => hint.hidden);
    if (!next || !this.data) return;
    next.hidden = false;
    const shown = this.hints.filter((hint) => !hint.hidden).length;
    this.store.markHintsShown(this.lesson.id, this.data.id, shown);
    this._hintButton();
    this.page.announce(hintAnnouncement(next));
  }

  // ---------------------------------------------------------------- state

  /** Save the drafts now (e.g. before the page is hidden). */
  flushDraft() {
    this.saveDraft.flush();
    if (this.example) this.example.save.flush();
    for (const entry of this.carried) entry.save.flush();
  }

  /** The checkpoint's state for the stepper: "passed", "tried" (checked, or edited) or "new". */
  progressState() {
    if (!this.data) return "new";
    if (this.store.isPassed(this.lesson.id, this.data.id)) return "passed";
    const record = this.store.checkpoint(this.lesson.id, this.data.id);
    if (record && record.triedAt) return "tried";
    return this.text().trim() !== this.data.starter.trim() ? "tried" : "new";
  }

  /** Show the "passed" badge and the "Next" link from the stored progress; refresh carried-over code. */
  refreshPassed() {
    if (!this.data) return;
    const passed = this.store.isPassed(this.lesson.id, this.data.id);
    const badge = this.section.querySelector("[data-passed-badge]");
    if (badge) badge.hidden = !passed;
    const next = this.section.querySelector("[data-next]");
    if (next) next.hidden = !passed;
    // after the last checkpoint: the lesson's end, once every checkpoint is passed
    const recap = this.section.querySelector("[data-recap]");
    if (recap) recap.hidden = !this.page.lessonDone || !this.page.lessonDone();
    this.section.dataset.passed = String(passed);
    this.syncCarried();
  }

  /**
   * Mark the buttons for this section's job. Run and Check are off only in the section whose code runs or waits (a press there says why, under "Running…").
   * Pressed while another section's code runs, they queue, as Ctrl+Enter in the editor does, and the verdict area
   * says which code the job waits for, with Stop to drop it.
   */
  refreshButtons() {
    const mine = this.busy;
    for (const action of ["run", "check"]) setDisabled(this.buttons[action], mine);
    const stop = this.buttons.stop;
    if (stop) {
      const hadFocus = document.activeElement === stop;
      stop.hidden = !mine;
      if (hadFocus && stop.hidden) this._refocus();
    }
  }

  /** Give focus back to the button that started the job (or Run) where it went away, and show it: focus is never
   * left on a control out of sight (the verdict shown below it may have scrolled it away). */
  _refocus() {
    const target =
      this.origin && this.origin.isConnected
        ? this.origin
        : this.buttons.run || (this.view ? this.view.contentDOM : this.section);
    target.focus({ preventScroll: true });
    if (target.getClientRects().length) target.scrollIntoView({ block: "nearest" });
    this.refocused = target; // _revealVerdict keeps it in view
  }

  _begin(origin) {
    this.busy = true;
    if (this.page.markLast) this.page.markLast(this);
    this.origin = origin || null;
    const focusInVerdict = this.verdict.contains(document.activeElement);
    this.section.dataset.state = "running";
    this.output.clear();
    markErrorLine(this.view, null);
    for (const entry of this.carried) markErrorLine(entry.view, null);
    if (this.example) markErrorLine(this.example.view, null);
    // a job waits for the one running now (another editor's), or for Python (booting or restarting)
    const waiting = { idle: "verdict_running", running: "verdict_queued_behind" }[this.runtime.state];
    const behind = waiting === "verdict_queued_behind";
    const said = showStatus(
      this.verdict,
      "running",
      behind ? this._otherRuns(waiting) : t(waiting || "verdict_queued"),
    );
    if (behind) this.page.announce(said); // the press did not start it: say why it waits
    delete this.verdict.dataset.restored;
    delete this.verdict.dataset.stopped; // a Stop said of the previous run
    if (this.traceBox && !this.traceBox.hidden) {
      this.traceBox.hidden = true; // a trace of code that is about to change
      this.traceBox.replaceChildren();
    }
    if (focusInVerdict) this._refocus(); // the element that had focus was just replaced
    this.refreshButtons();
    this._revealVerdict();
  }

  /**
   * Bring the verdict's headline into view, focus staying where it is: it sits below the editor, the buttons and the
   * example call, below the fold of the work column on a laptop's screen, so a Check (Ctrl+Enter in the editor, or
   * its button) would otherwise change nothing the learner sees. "nearest" moves the column (or the page) only as
   * far as the headline needs. With `details` (a failing case's call, expected and actual value and why, and no error
   * line marked in the editor to keep in view), those come into view too, as far as the headline stays. Nothing to do
   * while the work is hidden (the task tab on a phone).
   */
  _revealVerdict({ details = false } = {}) {
    const line = this.verdict.querySelector(".verdict-line");
    if (line && line.getClientRects().length) {
      const rows = details ? this.verdict.querySelectorAll('.verdict-details [data-row="got"], [data-row="why"]') : [];
      const last = rows[rows.length - 1];
      if (last && last.getClientRects().length) last.scrollIntoView({ block: "nearest" });
      line.scrollIntoView({ block: "nearest" });
    }
    // where the page itself just moved focus (Run, after Stop), that stays in view: a keyboard learner's next Tab
    // starts there, and the verdict is announced anyway
    const moved = this.refocused;
    this.refocused = null;
    if (moved && document.activeElement === moved && moved.getClientRects().length)
      moved.scrollIntoView({ block: "nearest" });
  }

  _end() {
    this.busy = false;
    this.section.dataset.state = "idle";
    this.refreshButtons();
  }

  /** The code that runs for this section: carried-over code, then the checkpoint's own; for the free editor,
   * every checkpoint's code in lesson order. */
  compose() {
    if (!this.data) {
      return compose(
        this.page.checkpointViews().map((view) => ({
          file: `checkpoint${view.number}.py`,
          kind: "checkpoint",
          n: view.number,
          view: view.view,
          text: getText(view.view),
        })),
      );
    }
    this.syncCarried();
    const parts = this.carried.map((entry) => {
      const n = this.page.numberOf(entry.id);
      return { file: `checkpoint${n}.py`, kind: "carried", n, view: entry.view, text: getText(entry.view) };
    });
    parts.push({ file: "main.py", kind: "own", view: this.view, text: getText(this.view) });
    return compose(parts);
  }

  /** What a line of the composed source means for the learner: {line, label, view}. */
  _where(segments, line) {
    const segment = locate(segments, line);
    if (!segment) return { line: null, label: null, view: null };
    if (segment.kind === "own") return { line: segment.line, label: null, view: segment.view };
    const key = segment.kind === "carried" ? "error_in_carried" : "error_in_checkpoint";
    return { line: segment.line, label: t(key, { line: segment.line, n: segment.n }), view: segment.view };
  }

  _relabel(segments) {
    return (text) => relabelTraceback(text, segments, this.data ? "example.py" : "playground.py");
  }

  // ---------------------------------------------------------------- Run

  _snippet() {
    if (!this.data) return { text: getText(this.view), view: this.view };
    if (this.example && !this.example.block.hidden)
      return { text: getText(this.example.view), view: this.example.view };
    return { text: "", view: null };
  }

  /** Run the code (no grading), then the example or case snippet, and show the snippet's value. */
  async run(origin = null) {
    if (this.busy) return this._busyNote("run_while_running"); // Ctrl+Enter in an editor while it runs
    this._ready();
    const { source, segments } = this.compose();
    const snippet = this._snippet();
    const tryingCase = this.caseSource !== null && snippet.text === this.caseSource;
    this._begin(origin || this.buttons.run);
    const job = {
      type: "run",
      owner: this.owner,
      lessonId: this.lesson.id,
      checkpoint: this.data ? String(this.data.id) : undefined,
      lang: this.lang,
      source,
      onOutput: (stream, text, truncated) => this.output.append(stream, text, truncated),
    };
    if (snippet.text.trim()) job.after = snippet.text;
    const result = await this.runtime.execute(job);
    this._end();
    let headline;
    if (result.kind === "result") {
      const run = result.run || {};
      if (run.truncated) this.output.append("stdout", "", true); // the engine kept only its first part
      if (run.status === "error") {
        headline = this._runError(run, segments, snippet);
      } else if (run.status === "exit" || run.status === "interrupted") {
        // the learner's own exit() or KeyboardInterrupt: the program ended there, and the example did not run
        const said =
          run.status === "exit"
            ? t("run_exit", { code: run.exit_code == null ? "None" : String(run.exit_code) }) // as Python says it
            : t("run_interrupted_own");
        headline = showStatus(this.verdict, "idle", said);
      } else {
        const value = typeof run.value === "string" ? run.value : null;
        headline =
          value !== null && value.length <= ANNOUNCED_VALUE_MAX
            ? showTemplated(this.verdict, "pass", "run_done_value", { value }, ["value"]) // in a <bdi dir=ltr>
            : showStatus(this.verdict, "pass", t("run_done"));
        this.verdict.dataset.verdict = "idle";
        if (value !== null) renderRunValue(this.verdict, value, tryingCase ? this.caseExpected : null);
        else this.output.placeholder(t("no_output"));
      }
      if (tryingCase && this.lastCheck) this._offerBack();
      if (result.plot) renderPlot(this.verdict, result.plot, this.lang);
    } else {
      headline = this._other(result);
    }
    this._revealVerdict();
    this.page.announce(tryingCase ? this._caseAnnouncement(result, headline) : headline);
  }

  _runError(run, segments, snippet) {
    const traceback = run.traceback || "";
    const where = this._where(segments, Number.isInteger(run.error_line) ? run.error_line : null);
    const inSnippet = where.view ? null : snippetLine(traceback);
    let headline;
    let view = where.view;
    let line = where.line;
    if (where.view) {
      headline = where.label || t("run_error", { line: where.line });
    } else if (inSnippet && snippet.view) {
      view = snippet.view;
      line = inSnippet;
      headline = this.data ? t("run_example_error", { line }) : t("run_error", { line });
    } else {
      headline = t("verdict_error");
    }
    showStatus(this.verdict, "error", headline);
    const error = pythonError(run);
    if (error) {
      const own = where.view === this.view && where.label === null;
      this.verdict.append(pythonErrorBox(error, own ? { line, label: null } : { line: null, label: null }));
    }
    if (traceback) {
      this.output.append(
        "stderr",
        `${this.output.size ? "\n" : ""}${trimTraceback(this._relabel(segments)(traceback))}\n`,
      );
    }
    if (view && line) markErrorLine(view, line);
    return headline;
  }

  /**
   * What the page announces after a tried case: which case, what the learner's code gave (its value, or the Python
   * error it raised, or the run's own outcome: a time-out, a stop) and what the case expects; "Done." alone says
   * nothing a learner who cannot see the result needs.
   */
  _caseAnnouncement(result, headline) {
    const said = (text) => cut(String(text).replace(/\s+/g, " ").trim(), ANNOUNCED_CASE_VALUE);
    const run = result.kind === "result" ? result.run || {} : null;
    const error = run && run.status === "error" ? pythonError(run) : null;
    let outcome;
    if (error)
      outcome = t("try_said_error", { error: said(error.message ? `${error.exc}: ${error.message}` : error.exc) });
    else if (run && run.status !== "error" && typeof run.value === "string")
      outcome = t("try_said_value", { value: said(run.value) });
    else outcome = headline;
    const parts = [t("try_said_case", { label: said(this.caseLabel || t("case_heading")) }), outcome];
    if (this.caseExpected !== null) parts.push(t("try_said_expected", { expected: said(this.caseExpected) }));
    return parts.join(" ");
  }

  /** After a tried case: a button back to the Check's verdict and its list of failing cases. */
  _offerBack() {
    const back = el("button", "btn back-to-verdict", t("back_to_verdict"));
    back.type = "button";
    back.dataset.action = "back-to-verdict";
    back.addEventListener("click", () => this._backToVerdict());
    this.verdict.append(back);
  }

  /**
   * "Trace this case": run the case's call in the learner's worker under the engine's line tracer (a run plan with
   * `trace`, graders/engine/trace.py) and show it step by step below the verdict, which stays as it is.
   */
  async traceCase({ source, label = "" }) {
    if (this.busy || !this.traceBox) return;
    this._ready();
    const composed = this.compose();
    this.busy = true;
    this.origin = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    this.section.dataset.state = "running";
    this.output.clear();
    const box = this.traceBox;
    box.hidden = false;
    box.removeAttribute("role");
    box.replaceChildren(el("p", "trace-status", t("trace_running")));
    box.dataset.traceState = "running";
    this.refreshButtons();
    const result = await this.runtime.execute({
      type: "run",
      owner: this.owner,
      lessonId: this.lesson.id,
      checkpoint: this.data ? String(this.data.id) : undefined,
      lang: this.lang,
      source: composed.source,
      after: source,
      trace: { steps: TRACE_STEPS },
      onOutput: (stream, text, truncated) => this.output.append(stream, text, truncated),
    });
    this.busy = false;
    this.section.dataset.state = "idle";
    this.refreshButtons();
    const run = result.kind === "result" ? result.run || {} : null;
    if (!run || !run.trace) {
      const reason =
        result.kind === "timeout"
          ? t("verdict_timeout", { seconds: result.timeLimit ?? "?" })
          : result.kind === "stopped"
            ? t("verdict_stopped")
            : run && run.after_error
              ? t("run_example_error", { line: 1 })
              : result.message || t("verdict_error");
      box.replaceChildren(el("p", "trace-note", t("trace_failed", { reason })));
      box.dataset.traceState = "failed";
      this.page.announce(t("trace_failed", { reason }));
      return;
    }
    if (run.traceback)
      this.output.append("stderr", `${trimTraceback(this._relabel(composed.segments)(run.traceback))}\n`);
    const view = renderTrace(box, {
      trace: run.trace,
      run,
      label,
      source: composed.source,
      segments: composed.segments,
      announce: (text) => this.page.announce(text),
      idPrefix: `${this.section.id || this.key}-trace`,
      // from the step to its line in the learner's editor (or the carried-over one), to fix it there
      onEdit: (line) => {
        const where = this._where(composed.segments, line);
        if (where.view) goToLine(where.view, where.line);
      },
      onClose: () => {
        box.hidden = true;
        box.replaceChildren();
        const back = this.origin && this.origin.isConnected ? this.origin : this.buttons.check || this.buttons.run;
        if (back) back.focus();
      },
    });
    box.dataset.traceState = "done";
    view.heading.focus();
    view.heading.scrollIntoView({ block: "nearest" });
    this.page.announce(box.querySelector(".trace-status")?.textContent || t("trace_title", { label }));
  }

  /** Put a failing case's complete call into the scratch editor and run it beside the expected result. */
  tryCase({ source, expected, label = "" }) {
    this._ready();
    if (!this.example) return;
    this.caseSource = source;
    this.caseExpected = expected ?? null;
    this.caseLabel = label;
    const { block, title, text, view } = this.example;
    block.hidden = false;
    title.textContent = t("case_heading");
    text.textContent = t("case_text");
    setText(view, source);
    this._exampleChanged();
    focusEditor(view);
    block.scrollIntoView({ block: "nearest" });
    this.run(view.contentDOM);
  }

  /** Back from a case to the task's example call. */
  restoreExample() {
    this._ready();
    if (!this.example) return;
    this.caseSource = null;
    this.caseExpected = null;
    this.caseLabel = "";
    const { block, title, text, view } = this.example;
    title.textContent = t("example_heading");
    text.textContent = t("example_text");
    block.hidden = !this.data.example;
    setText(view, this.data.example || "");
    this._exampleChanged();
    if (!block.hidden) focusEditor(view);
    else focusEditor(this.view);
  }

  // ---------------------------------------------------------------- Check

  /** Grade the code: carried-over code and the learner's, prepared -> run -> judged. */
  async check(origin = null) {
    if (!this.data) return;
    if (this.busy) return this._busyNote("run_while_running"); // Ctrl+Enter in an editor while it runs
    this._ready();
    const { source, segments } = this.compose();
    const own = getText(this.view);
    this.flushDraft();
    this._begin(origin || this.buttons.check);
    const result = await this.runtime.execute({
      type: "check",
      owner: this.owner,
      source,
      lessonId: this.lesson.id,
      checkpoint: this.data.id,
      lang: this.lang,
      onOutput: (stream, text, truncated) => this.output.append(stream, text, truncated),
      // a failure among the first cases, shown while the others run (its case and why; the counts come with the
      // verdict of the whole run, which replaces it); nothing to try or trace before that
      onEarly: (early) => {
        if (this.busy)
          renderVerdict(this.verdict, early, {
            ...this._verdictOptions(undefined, segments),
            onTryCase: null,
            onTraceCase: null,
          });
      },
    });
    this._end();
    if (result.kind !== "verdict") {
      const headline = this._other(result);
      this._revealVerdict();
      this.page.announce(headline);
      return;
    }
    const verdict = result.verdict;
    this.lastCheck = { verdict, timeLimit: result.timeLimit, segments };
    const focusInVerdict = this.verdict.contains(document.activeElement); // in an early verdict, replaced now
    const { status, announcement } = renderVerdict(
      this.verdict,
      verdict,
      this._verdictOptions(result.timeLimit, segments),
    );
    if (focusInVerdict) this._refocus();
    if (this.page.verdicts)
      this.page.verdicts.put(this.lesson.id, this.data.id, verdict, { timeLimit: result.timeLimit, code: own });
    if (verdict.stdout && this.output.size === 0) this.output.append("stdout", verdict.stdout);
    if (verdict.stderr && this.output.size === 0) this.output.append("stderr", verdict.stderr);
    const error = status === "pass" ? null : pythonError(verdict);
    const line = error && Number.isInteger(error.line) ? error.line : verdict.error_line;
    const where = this._where(segments, Number.isInteger(line) ? line : null);
    if (where.view) markErrorLine(where.view, where.line);
    if (status === "pass") this.store.markPassed(this.lesson.id, this.data.id, own);
    else if (countsAsTried(verdict)) this.store.markTried(this.lesson.id, this.data.id);
    this._revealVerdict({ details: !where.view });
    this.page.announce(announcement);
  }

  /** How this section renders a verdict: its line mapping, and trying or tracing a failing case. */
  _verdictOptions(timeLimit, segments) {
    return {
      lang: this.lang,
      timeLimit,
      where: segments ? (line) => this._where(segments, line) : undefined,
      relabel: segments ? this._relabel(segments) : undefined,
      // the example editor may not be built yet (a verdict kept over a reload is shown at once): tryCase builds it
      onTryCase: this.data && this.section.querySelector("[data-example-block]") ? (c) => this.tryCase(c) : null,
      onTraceCase: this.traceBox ? (c) => this.traceCase(c) : null,
      idPrefix: this.section.id || `cp-${this.key}`,
    };
  }

  /** Show the verdict of the last Check again after a reload (storage.js VerdictStore), saying when it was given
   * and whether the code has changed since. Not announced: nothing ran. A verdict given on a page of another
   * language stays kept but is not shown here: its sentences are in that language (the progress badge still says
   * whether the checkpoint passed). */
  _restoreVerdict() {
    const kept = this.data && this.page.verdicts ? this.page.verdicts.get(this.lesson.id, this.data.id) : null;
    if (!kept) return;
    if (typeof kept.verdict.lang === "string" && kept.verdict.lang !== String(this.lang)) return;
    try {
      this._showKept(kept);
    } catch (error) {
      // kept by the browser, so possibly damaged (or of an older form): forgotten, never in the way of the page
      console.warn("werkbank: a kept verdict could not be shown and is forgotten:", error);
      this.lastCheck = null;
      this.verdict.replaceChildren();
      this.verdict.dataset.verdict = "idle";
      delete this.verdict.dataset.restored;
      this.page.verdicts.forget(this.lesson.id, this.data.id);
    }
  }

  _showKept(kept) {
    renderVerdict(this.verdict, kept.verdict, this._verdictOptions(kept.timeLimit, null));
    this.lastCheck = { verdict: kept.verdict, timeLimit: kept.timeLimit, segments: null };
    this.verdict.dataset.restored = "true";
    const when = new Date(kept.at);
    const note = el(
      "p",
      "restored-note",
      t("restored_verdict", {
        when: Number.isNaN(when.getTime()) ? kept.at : when.toLocaleString(this.lang),
      }),
    );
    if (typeof kept.code === "string" && kept.code !== this.initialText) {
      note.append(" ", el("span", null, t("restored_changed")));
    }
    this.verdict.firstChild.after(note);
  }

  /** Show the Check's verdict again (after trying one of its cases). */
  _backToVerdict() {
    if (!this.lastCheck) return;
    const { verdict, timeLimit, segments } = this.lastCheck;
    renderVerdict(this.verdict, verdict, this._verdictOptions(timeLimit, segments));
    const list = this.verdict.querySelector("[data-failing]");
    if (list) list.open = true;
    const focus = this.verdict.querySelector(".verdict-line");
    focus.tabIndex = -1;
    focus.focus();
  }

  _other(result) {
    let text;
    switch (result.kind) {
      case "stopped":
        text = showStatus(this.verdict, "error", t("verdict_stopped"));
        this.verdict.dataset.verdict = "idle";
        this.verdict.dataset.stopped = "true";
        break;
      case "timeout":
        text = showStatus(this.verdict, "timeout", t("verdict_timeout", { seconds: result.timeLimit ?? "?" }));
        break;
      case "crashed":
        text = showStatus(this.verdict, "error", t("runtime_crashed"));
        break;
      case "cancelled":
        text = showStatus(this.verdict, "idle", "");
        break;
      case "failed":
        text = showTemplated(this.verdict, "error", "runtime_failed", { message: result.message || "" });
        break;
      default:
        text = showStatus(this.verdict, "error", result.message || t("verdict_error"));
    }
    if (result.kind !== "stopped") delete this.verdict.dataset.stopped;
    return text;
  }

  /** Stop this section's run (or its queued job). */
  stop() {
    this.runtime.stop(this.owner);
  }

  /** Put the starter back: one undoable change, announced, with an "Undo reset" button beside the notice (on a
   * phone there is no Ctrl/Cmd+Z), which stays until the verdict area shows something else. */
  reset() {
    if (this.busy) {
      // this editor's code is running: the notice would replace "Running…" while it goes on, and a Stop would then
      // say the code is still in the editor of the starter. Reset waits for the code to end, as Run and Check do.
      // Said aloud and shown under "Running…" (gone with it when the job's result replaces the area).
      this._busyNote("reset_while_running");
      return;
    }
    this._ready();
    const starter = this.data ? this.data.starter : "";
    const before = getText(this.view);
    setText(this.view, starter);
    markErrorLine(this.view, null);
    showStatus(this.verdict, "idle", t("reset_done"));
    delete this.verdict.dataset.restored;
    if (before !== starter) {
      const undo = el("button", "btn verdict-undo", t("reset_undo"));
      undo.type = "button";
      undo.dataset.action = "undo-reset";
      undo.addEventListener("click", () => {
        this.resetFrom = null;
        setText(this.view, before);
        showStatus(this.verdict, "idle", t("reset_undone"));
        this.page.announce(t("reset_undone"));
        focusEditor(this.view);
      });
      this.verdict.querySelector(".verdict-line").append(" ", undo);
      this.resetFrom = { before, starter, undo };
    }
    this.page.announce(t("reset_done"));
    focusEditor(this.view);
  }

  /** The notice of a Reset follows the editor: undone in it (Ctrl+Z), it says the code is back; edited, its "Undo
   * reset" goes, as that would now throw away the new edits too. */
  _afterReset(text) {
    const from = this.resetFrom;
    if (!from || text === from.starter) return;
    this.resetFrom = null;
    if (!from.undo.isConnected) return; // the verdict area shows something else by now
    if (text === from.before) showStatus(this.verdict, "idle", t("reset_undone"));
    else from.undo.remove();
  }

  /**
   * Another tab changed this editor's draft to `text` (storage.js onForeignDraft). An editor that still holds what
   * this tab last took from storage has nothing of its own: it takes the other tab's version at once (one undoable
   * change), and says so. When it holds work of this tab, both are kept until the learner chooses: use the other
   * tab's version or keep this one (saved now).
   */
  foreignDraft(text) {
    if (!this.view || !this.draftNotice) return;
    if (getText(this.view) === text) {
      this.synced = text;
      return;
    }
    const box = this.draftNotice;
    if (getText(this.view) === this.synced) {
      this.following = true;
      try {
        setText(this.view, text);
      } finally {
        this.following = false;
      }
      this.saveDraft.cancel();
      this.synced = text;
      box.replaceChildren(el("p", null, t("draft_followed_other")));
      box.hidden = false;
      setTimeout(() => {
        if (box.textContent === t("draft_followed_other")) box.hidden = true;
      }, DRAFT_NOTICE_MS);
      return;
    }
    // this tab's version goes into storage too, so a reload or a closed tab before the choice loses nothing
    this.store.saveDraft(this.lesson.id, asideKey(this.key), getText(this.view));
    this._offerChoice(text, "draft_other_tab", "draft_use_other");
  }

  /**
   * Let the learner choose between the editor's version and `other`: the notice `message`, a button `useLabel` that
   * puts `other` in the editor, and one that keeps the editor's. Either choice saves the editor's text as the draft
   * and forgets the version kept aside (asideKey).
   */
  _offerChoice(other, message, useLabel) {
    const box = this.draftNotice;
    box.replaceChildren(el("p", null, t(message)));
    const row = el("p");
    const use = el("button", "btn", t(useLabel));
    use.type = "button";
    use.dataset.action = "draft-use-other";
    const keep = el("button", "btn", t("draft_keep_mine"));
    keep.type = "button";
    keep.dataset.action = "draft-keep-mine";
    row.append(use, " ", keep);
    box.append(row);
    box.hidden = false;
    const done = (message) => {
      this.store.saveDraft(this.lesson.id, asideKey(this.key), "");
      box.replaceChildren(el("p", null, message));
      this.page.announce(message);
      focusEditor(this.view);
      setTimeout(() => {
        if (box.textContent === message) box.hidden = true;
      }, DRAFT_NOTICE_MS);
    };
    use.addEventListener("click", () => {
      setText(this.view, other);
      this.saveDraft.flush();
      this.store.saveDraft(this.lesson.id, this.key, other);
      this.synced = other;
      done(t("draft_used_other"));
    });
    keep.addEventListener("click", () => {
      this.saveDraft.flush();
      this.synced = getText(this.view);
      this.store.saveDraft(this.lesson.id, this.key, this.synced);
      done(t("draft_kept_mine"));
    });
    this.page.announce(t(message));
  }

  /** A version of this editor's code kept aside when a choice between two tabs' versions was left open (a reload, a
   * closed tab): offered again next to the stored draft. */
  _offerAside() {
    if (!this.draftNotice) return;
    const aside = this.store.draft(this.lesson.id, asideKey(this.key));
    if (!aside || aside === getText(this.view)) return;
    this._offerChoice(aside, "draft_aside", "draft_use_aside");
  }

  /** Show the reference solution; asks first unless it was revealed before, and remembers it. */
  showSolution(ask) {
    if (!this.data) return;
    const box = this.section.querySelector("[data-solution]");
    if (!box) return;
    const revealed = this.store.checkpoint(this.lesson.id, this.data.id)?.solutionRevealed;
    if (ask && !revealed && !window.confirm(t("confirm_solution"))) return;
    if (!revealed) this.store.markSolutionRevealed(this.lesson.id, this.data.id);
    box.replaceChildren();
    const heading = document.createElement("p");
    heading.className = "solution-title";
    heading.textContent = t("solution_title");
    const pre = document.createElement("pre");
    pre.dir = "ltr";
    const code = document.createElement("code");
    code.className = "language-python";
    code.textContent = this.data.solution;
    pre.append(code);
    const copy = document.createElement("button");
    copy.type = "button";
    copy.className = "btn";
    copy.dataset.action = "solution-copy";
    copy.textContent = t("solution_copy");
    copy.addEventListener("click", () =>
      whenEditor(() => {
        this._ready();
        setText(this.view, this.data.solution);
        focusEditor(this.view);
      }),
    );
    box.append(heading, pre, copy);
    box.hidden = false;
    this.page.scrollables(box);
    if (ask) this.page.announce(t("solution_shown"));
  }
}
