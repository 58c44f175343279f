// One editor section of a lesson page: a graded checkpoint (Run, Check, Stop, Reset, Hint, Solution) or the
// free "try it yourself" editor (Run, Stop). Learner and Python text reaches the DOM through textContent only.

import { createEditor, getText, markErrorLine, setText } from "./editor.js";
import { t } from "./i18n.js";
import { OutputView } from "./output.js";
import { renderPlot, renderVerdict, showStatus, trimTraceback } from "./verdict.js";

const DRAFT_DELAY_MS = 400;

function debounce(fn, ms) {
  let timer = null;
  const wrapped = (...args) => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      timer = null;
      fn(...args);
    }, ms);
  };
  wrapped.flush = (...args) => {
    if (timer !== null) {
      clearTimeout(timer);
      timer = null;
      fn(...args);
    }
  };
  return wrapped;
}

/**
 * Controller of one `[data-checkpoint]` or `[data-playground]` section.
 * `data` is the checkpoint entry of the page's lesson data (null for the playground).
 */
export class CheckpointView {
  /** Build the editor and wire the buttons of `section`. */
  constructor(section, { lesson, data, runtime, store, lang }) {
    this.section = section;
    this.lesson = lesson;
    this.data = data;
    this.runtime = runtime;
    this.store = store;
    this.lang = lang;
    this.key = data ? data.id : "playground";
    this.owner = Symbol(this.key);
    this.busy = false;
    this.verdict = section.querySelector("[data-verdict]");
    this.output = new OutputView(section.querySelector("[data-output]"), t);
    this.buttons = {};
    for (const button of section.querySelectorAll("button[data-action]")) this.buttons[button.dataset.action] = button;

    const draftKey = data ? data.id : "playground";
    const saved = store.draft(lesson.id, draftKey);
    const starter = data ? data.starter : "";
    const saveDraft = debounce((text) => store.saveDraft(lesson.id, draftKey, text), DRAFT_DELAY_MS);
    this.saveDraft = saveDraft;
    const mount = section.querySelector("[data-editor]");
    this.view = createEditor(mount, {
      doc: saved !== null ? saved : starter,
      label: mount.getAttribute("aria-label") || "",
      onChange: (text) => saveDraft(text),
      onCheck: data ? () => this.check() : () => this.run(),
    });
    mount.removeAttribute("aria-label");

    this._on("run", () => this.run());
    this._on("check", () => this.check());
    this._on("stop", () => this.stop());
    this._on("reset", () => this.reset());
    this._on("hint", () => this.toggleHint());
    this._on("solution", () => this.showSolution(true));
    if (data && store.checkpoint(lesson.id, data.id)?.solutionRevealed) this.showSolution(false);
    this.refreshPassed();
  }

  _on(action, fn) {
    const button = this.buttons[action];
    if (button) button.addEventListener("click", fn);
  }

  /** Save the draft now (e.g. before the page is hidden). */
  flushDraft() {
    this.saveDraft.flush(getText(this.view));
  }

  /** Show or hide the "passed" badge from the stored progress. */
  refreshPassed() {
    if (!this.data) return;
    const passed = this.store.isPassed(this.lesson.id, this.data.id);
    const badge = this.section.querySelector("[data-passed-badge]");
    if (badge) badge.hidden = !passed;
    this.section.dataset.passed = String(passed);
  }

  /** Enable/disable buttons for the runner's state: one run at a time on the page. */
  setRuntimeState(state) {
    const mine = this.busy;
    const othersBusy = !mine && (state === "running" || state === "stopping");
    for (const action of ["run", "check"]) {
      const button = this.buttons[action];
      if (button) button.disabled = mine || othersBusy;
    }
    if (this.buttons.stop) this.buttons.stop.hidden = !mine;
  }

  _begin() {
    this.busy = true;
    this.section.dataset.state = "running";
    this.output.clear();
    markErrorLine(this.view, null);
    const queued = this.runtime.state !== "idle";
    showStatus(this.verdict, "running", queued ? t("verdict_queued") : t("verdict_running"));
    this.setRuntimeState(this.runtime.state);
  }

  _end() {
    this.busy = false;
    this.section.dataset.state = "idle";
    this.setRuntimeState(this.runtime.state);
  }

  /** Run the editor's code freely (no grading). */
  async run() {
    if (this.busy) return;
    this._begin();
    const result = await this.runtime.execute({
      type: "run",
      owner: this.owner,
      lessonId: this.lesson.id,
      checkpoint: this.data ? String(this.data.id) : undefined,
      source: getText(this.view),
      onOutput: (stream, text, truncated) => this.output.append(stream, text, truncated),
    });
    this._end();
    if (result.kind === "result") {
      const run = result.run || {};
      if (run.truncated) this.output.append("stdout", "", true); // the engine kept only its first part
      if (run.status === "error") {
        const line = Number.isInteger(run.error_line) ? run.error_line : null;
        showStatus(this.verdict, "error", line ? t("run_error", { line }) : t("verdict_error"));
        if (run.traceback) this.output.append("stderr", `${this.output.size ? "\n" : ""}${trimTraceback(run.traceback)}\n`);
        if (line) markErrorLine(this.view, line);
      } else {
        showStatus(this.verdict, "pass", t("run_done"));
        this.verdict.dataset.verdict = "idle";
        this.output.placeholder(t("no_output"));
      }
      if (result.plot) renderPlot(this.verdict, result.plot, this.lang);
    } else {
      this._other(result);
    }
  }

  /** Grade the editor's code: prepare -> run -> judge in the worker. */
  async check() {
    if (this.busy || !this.data) return;
    this._begin();
    const source = getText(this.view);
    this.flushDraft();
    const result = await this.runtime.execute({
      type: "check",
      owner: this.owner,
      source,
      lessonId: this.lesson.id,
      checkpoint: this.data.id,
      lang: this.lang,
      seed: this.runtime.seedFor(this.lesson.id, this.data.id),
      onOutput: (stream, text, truncated) => this.output.append(stream, text, truncated),
    });
    this._end();
    if (result.kind !== "verdict") {
      this._other(result);
      return;
    }
    const verdict = result.verdict;
    const status = renderVerdict(this.verdict, verdict, this.lang, result.timeLimit);
    if (verdict.stdout && this.output.size === 0) this.output.append("stdout", verdict.stdout);
    if (verdict.stderr && this.output.size === 0) this.output.append("stderr", verdict.stderr);
    if (Number.isInteger(verdict.error_line)) markErrorLine(this.view, verdict.error_line);
    if (status === "pass") this.store.markPassed(this.lesson.id, this.data.id, source);
  }

  _other(result) {
    switch (result.kind) {
      case "stopped":
        showStatus(this.verdict, "error", t("verdict_stopped"));
        this.verdict.dataset.verdict = "idle";
        this.verdict.dataset.stopped = "true";
        break;
      case "timeout":
        showStatus(this.verdict, "timeout", t("verdict_timeout", { seconds: result.timeLimit ?? "?" }));
        break;
      case "crashed":
        showStatus(this.verdict, "error", t("runtime_crashed"));
        break;
      case "cancelled":
        showStatus(this.verdict, "idle", "");
        break;
      case "failed":
        showStatus(this.verdict, "error", t("runtime_failed", { message: result.message || "" }));
        break;
      default:
        showStatus(this.verdict, "error", result.message || t("verdict_error"));
    }
    if (result.kind !== "stopped") delete this.verdict.dataset.stopped;
  }

  /** Stop this section's run (or its queued job). */
  stop() {
    this.runtime.stop(this.owner);
  }

  /** Put the starter back; one undoable change, with a notice saying how to undo. */
  reset() {
    const starter = this.data ? this.data.starter : "";
    setText(this.view, starter);
    markErrorLine(this.view, null);
    showStatus(this.verdict, "idle", t("reset_done"));
    this.view.focus();
  }

  /** Show or hide the hint. */
  toggleHint() {
    const box = this.section.querySelector("[data-hint]");
    if (!box || !this.data) return; // the hint's HTML was rendered into the page at build time
    box.hidden = !box.hidden;
    if (this.buttons.hint) this.buttons.hint.setAttribute("aria-expanded", String(!box.hidden));
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
    copy.textContent = t("solution_copy");
    copy.addEventListener("click", () => setText(this.view, this.data.solution));
    box.append(heading, pre, copy);
    box.hidden = false;
  }
}
