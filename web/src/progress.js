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
