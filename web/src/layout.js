// A checkpoint's two parts, the task and the work (editor, buttons, verdict, output): side by side on wide screens
// (web/static/site.css: the work sticks below the top bar while the task scrolls), tabs on narrow ones. The tabs
// follow the ARIA tabs pattern: one tab stop, arrow keys (mirrored right to left), Home and End, the panel named by
// its tab. Without JavaScript both parts show, one above the other.

/** The width below which a checkpoint's task and work are tabs (the same as site.css's 60rem breakpoint). */
export const NARROW = "(max-width: 59.99rem)";

/** Make the task/work tabs of every checkpoint in `root` follow the screen width (`query`). */
export function setupCheckpointTabs(root = document, query = window.matchMedia(NARROW)) {
  const sections = Array.from(root.querySelectorAll("section.checkpoint"))
    .map((section) => {
      const tablist = section.querySelector("[data-cp-tabs]");
      const tabs = tablist ? Array.from(tablist.querySelectorAll('[role="tab"]')) : [];
      const panels = new Map(
        tabs.map((tab) => [tab.dataset.tab, section.querySelector(`[data-panel="${tab.dataset.tab}"]`)]),
      );
      // what a panel is on wide screens (the work column: a named region, checkpoint.html), restored from narrow
      const wide = new Map(
        [...panels.values()]
          .filter(Boolean)
          .map((panel) => [panel, { role: panel.getAttribute("role"), by: panel.getAttribute("aria-labelledby") }]),
      );
      const toWork = section.querySelector("[data-to-work]");
      return { section, tablist, tabs, panels, wide, toWork, selected: "task" };
    })
    .filter((entry) => entry.tablist && entry.tabs.length === 2);

  const select = (entry, name, focus = false) => {
    entry.selected = name;
    for (const tab of entry.tabs) {
      const on = tab.dataset.tab === name;
      tab.setAttribute("aria-selected", String(on));
      tab.tabIndex = on ? 0 : -1;
      const panel = entry.panels.get(tab.dataset.tab);
      if (panel) panel.hidden = query.matches && !on;
      if (on && focus) tab.focus();
    }
    entry.section.dataset.tab = name;
  };

  const apply = () => {
    for (const entry of sections) {
      entry.tablist.hidden = !query.matches;
      if (entry.toWork) entry.toWork.hidden = !query.matches;
      for (const tab of entry.tabs) {
        const panel = entry.panels.get(tab.dataset.tab);
        if (!panel) continue;
        if (query.matches) {
          panel.setAttribute("role", "tabpanel");
          panel.setAttribute("aria-labelledby", tab.id);
        } else {
          const { role, by } = entry.wide.get(panel);
          if (role) panel.setAttribute("role", role);
          else panel.removeAttribute("role");
          if (by) panel.setAttribute("aria-labelledby", by);
          else panel.removeAttribute("aria-labelledby");
          panel.hidden = false;
        }
      }
      if (query.matches) select(entry, entry.selected);
      else delete entry.section.dataset.tab;
    }
  };

  for (const entry of sections) {
    // the button at the end of the task: the work tab, with focus in the learner's editor (the tab itself while the
    // editor is not made yet)
    entry.toWork?.querySelector("button")?.addEventListener("click", () => {
      select(entry, "work");
      const editor = entry.panels.get("work")?.querySelector("[data-editor] .cm-content");
      if (editor) editor.focus();
      else entry.tabs.find((tab) => tab.dataset.tab === "work")?.focus();
    });
    for (const tab of entry.tabs) {
      tab.addEventListener("click", () => select(entry, tab.dataset.tab));
      tab.addEventListener("keydown", (event) => {
        const rtl = getComputedStyle(entry.tablist).direction === "rtl";
        const index = entry.tabs.indexOf(tab);
        let next = null;
        if (event.key === "ArrowRight") next = index + (rtl ? -1 : 1);
        else if (event.key === "ArrowLeft") next = index + (rtl ? 1 : -1);
        else if (event.key === "Home") next = 0;
        else if (event.key === "End") next = entry.tabs.length - 1;
        if (next === null) return;
        event.preventDefault();
        const target = entry.tabs[(next + entry.tabs.length) % entry.tabs.length];
        select(entry, target.dataset.tab, true);
      });
    }
  }
  query.addEventListener("change", apply);
  apply();
}
