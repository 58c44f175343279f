// Progress numbers on the page: "passed / total" in every [data-progress] (lesson page) and
// [data-lesson-progress] (home page), plus the passed badges of the checkpoints.

/** Fill in the lesson page's `[data-progress]` elements for lesson `lessonId` with checkpoints `ids`. */
export function renderLessonProgress(root, store, lessonId, ids) {
  const passed = store.passedCount(lessonId, ids);
  for (const node of root.querySelectorAll("[data-progress]")) {
    node.textContent = `${passed} / ${ids.length}`;
    node.dataset.passed = String(passed);
  }
  return passed;
}

/** Fill in the home page's `[data-lesson-progress]` elements; `lessons` is [{id, checkpoints: [ids]}]. */
export function renderHomeProgress(root, store, lessons) {
  const byId = new Map(lessons.map((lesson) => [lesson.id, lesson.checkpoints]));
  for (const node of root.querySelectorAll("[data-lesson-progress]")) {
    const ids = byId.get(node.dataset.lessonProgress) || [];
    const passed = store.passedCount(node.dataset.lessonProgress, ids);
    node.textContent = `${passed} / ${ids.length}`;
    node.dataset.passed = String(passed);
  }
}

const STEP_MARKS = { new: null, tried: "•", passed: "✓" };

/**
 * The checkpoint stepper (`[data-step]` links): each checkpoint's state ("new" | "tried" | "passed") as a mark, as
 * text for screen readers, and `aria-current="step"` on the first checkpoint not passed yet.
 */
export function renderStepper(root, states, t) {
  let current = null;
  for (const link of root.querySelectorAll("[data-step]")) {
    const state = states.get(link.dataset.step) || "new";
    link.dataset.state = state;
    const mark = link.querySelector("[data-step-mark]");
    if (mark) mark.textContent = STEP_MARKS[state] || "";
    const text = link.querySelector("[data-step-state]");
    if (text) text.textContent = t(`step_${state}`);
    link.removeAttribute("aria-current");
    if (state !== "passed" && current === null) current = link;
  }
  if (current) current.setAttribute("aria-current", "step");
}
