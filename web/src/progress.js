// Progress on the page: "passed / total" in every [data-progress] (lesson page) and [data-lesson-progress] (home
// page); each home card's state (not started, in progress with the checkpoint to continue at, done) and the way back
// to the last lesson worked on; the lesson header's start card (the first checkpoint not passed); the stepper; and
// the lesson's end (what was solved, and how).

/** Fill in the lesson page's `[data-progress]` elements for lesson `lessonId` with checkpoints `ids`. */
export function renderLessonProgress(root, store, lessonId, ids) {
  const passed = store.passedCount(lessonId, ids);
  for (const node of root.querySelectorAll("[data-progress]")) {
    node.textContent = `${passed} / ${ids.length}`;
    node.dataset.passed = String(passed);
  }
  return passed;
}

/**
 * Fill in the home page: `[data-lesson-progress]` counts, each card's state (`[data-lesson-state]`: the suggested
 * first lesson, `data-start-here`, says so to a learner who has not started anything), and `[data-continue]`, the way back to where the
 * learner worked last. `lessons` is [{id, checkpoints: [ids], pages: {lang: {title, href}}}].
 */
export function renderHomeProgress(root, store, lessons, t = null) {
  const byId = new Map(lessons.map((lesson) => [lesson.id, lesson]));
  for (const node of root.querySelectorAll("[data-lesson-progress]")) {
    const ids = (byId.get(node.dataset.lessonProgress) || {}).checkpoints || [];
    const passed = store.passedCount(node.dataset.lessonProgress, ids);
    node.textContent = `${passed} / ${ids.length}`;
    node.dataset.passed = String(passed);
  }
  if (!t) return;
  const states = root.querySelectorAll("[data-lesson-state]");
  const begun = lessons.some((lesson) => lesson.checkpoints.some((cp) => store.checkpoint(lesson.id, cp)));
  states.forEach((node) => {
    const ids = (byId.get(node.dataset.lessonState) || {}).checkpoints || [];
    const passed = store.passedCount(node.dataset.lessonState, ids);
    const touched = ids.some((cp) => store.checkpoint(node.dataset.lessonState, cp));
    let state;
    let text;
    if (ids.length && passed === ids.length) {
      state = "done";
      text = t("state_done");
    } else if (passed || touched) {
      state = "progress";
      const next = ids.findIndex((cp) => !store.isPassed(node.dataset.lessonState, cp));
      text = t("state_in_progress", { passed, total: ids.length, n: next + 1 });
    } else if (!begun && node.dataset.startHere) {
      // the suggested first lesson: the first in the page's language (the build says so, and names the lesson's
      // language when no lesson has the page's)
      state = "start";
      text = node.dataset.startHere;
    } else {
      state = "new";
      text = t("state_new");
    }
    node.dataset.state = state;
    node.textContent = text;
  });
  const box = root.querySelector("[data-continue]");
  const last = store.last ? store.last() : null;
  const lesson = last ? byId.get(last.lesson) : null;
  const page = lesson && lesson.pages ? lesson.pages[last.lang] : null;
  if (!box || !page) {
    if (box) box.hidden = true;
    return;
  }
  const done =
    lesson.checkpoints.length && store.passedCount(lesson.id, lesson.checkpoints) === lesson.checkpoints.length;
  // the checkpoint worked on last, unless it is passed: then the first one not passed yet
  let cp = last.checkpoint;
  if (!lesson.checkpoints.includes(cp) || store.isPassed(lesson.id, cp)) {
    cp = lesson.checkpoints.find((id) => !store.isPassed(lesson.id, id)) || null;
  }
  const link = box.querySelector("[data-continue-link]");
  link.href = `${page.href}${done || cp === null ? "#lesson-end" : `#checkpoint-${cp}`}`;
  link.textContent =
    done || cp === null
      ? t("continue_link_end", { title: page.title })
      : t("continue_link", { title: page.title, n: lesson.checkpoints.indexOf(cp) + 1 });
  link.lang = last.lang;
  box.hidden = false;
}

/**
 * The lesson header's start card: each checkpoint's state, and the main link to the first one not passed ("Start
 * with checkpoint 1", "Continue with checkpoint 2", or "See what you learned" once all are passed). `states`: id ->
 * "new" | "tried" | "passed"; `solution`: ids passed after the solution was shown.
 */
export function renderStartCard(root, states, ids, t, solution = new Set()) {
  for (const node of root.querySelectorAll("[data-start-state]")) {
    const state = states.get(node.dataset.startState) || "new";
    node.dataset.state = state;
    node.textContent =
      state === "new"
        ? ""
        : `(${t(state === "passed" && solution.has(node.dataset.startState) ? "step_passed_solution" : `step_${state}`)})`;
  }
  const link = root.querySelector("[data-start-link]");
  if (!link) return;
  const next = ids.findIndex((id) => states.get(id) !== "passed");
  const begun = ids.some((id) => (states.get(id) || "new") !== "new");
  if (next === -1) {
    link.href = "#lesson-end";
    link.textContent = t("start_review");
  } else {
    link.href = `#checkpoint-${ids[next]}`;
    link.textContent = t(begun ? "start_continue" : "start_first", { n: next + 1 });
  }
}

/**
 * The lesson's end: shown once every checkpoint is passed, each checkpoint marked solved, or passed after the
 * solution was shown. Returns whether it is shown.
 */
export function renderLessonEnd(root, store, lessonId, ids, t) {
  const end = root.querySelector("[data-lesson-end]");
  if (!end) return false;
  const done = ids.length > 0 && store.passedCount(lessonId, ids) === ids.length;
  end.hidden = !done;
  for (const item of end.querySelectorAll("[data-solved]")) {
    const node = item.querySelector("[data-solved-state]");
    const how = store.passedWithSolution(lessonId, item.dataset.solved) ? "solution" : "alone";
    node.dataset.how = how;
    node.textContent = t(how === "solution" ? "solved_with_solution" : "solved_alone");
  }
  return done;
}

const STEP_MARKS = { new: null, tried: "•", passed: "✓" };

/**
 * The checkpoint stepper (`[data-step]` links): each checkpoint's state ("new" | "tried" | "passed") as a mark, as
 * text for screen readers (a pass after the shown solution says so, and is `data-how="solution"`), and
 * `aria-current="step"` on the first checkpoint not passed yet.
 */
export function renderStepper(root, states, t, solution = new Set()) {
  let current = null;
  for (const link of root.querySelectorAll("[data-step]")) {
    const state = states.get(link.dataset.step) || "new";
    const shown = state === "passed" && solution.has(link.dataset.step);
    link.dataset.state = state;
    if (shown) link.dataset.how = "solution";
    else delete link.dataset.how;
    const mark = link.querySelector("[data-step-mark]");
    if (mark) mark.textContent = STEP_MARKS[state] || "";
    const text = link.querySelector("[data-step-state]");
    if (text) text.textContent = t(shown ? "step_passed_solution" : `step_${state}`);
    link.removeAttribute("aria-current");
    if (state !== "passed" && current === null) current = link;
  }
  if (current) current.setAttribute("aria-current", "step");
}
