// "Trace this case": the steps of one traced call (graders/engine/trace.py), one at a time. Text nodes only.
//
// The view shows: where the current step is ("Step 5 of 87: line 12 in claim_support"), buttons for the first,
// previous, next and last step and a slider over all steps (keyboard: Tab to them, Enter/Space, or arrow keys,
// Home and End on the slider); the learner's code with the line about to run marked and how often each line ran in
// the whole call; and the local variables at that step, those that changed since the frame's step before marked.
// Moving to a step announces it through the page's announcer. "Edit this line in your code" (`onEdit`) puts the
// cursor on the current step's line in the learner's editor.

import { t } from "./i18n.js";
import { el, locate } from "./verdict.js";

/**
 * Render a trace into `box`: `trace` is the run's `trace` ({steps, truncated, stopped, limit}), `run` the run result
 * (its value or error), `label` the case's label, `source` the composed code that ran (main.py), `segments` its parts
 * (web/src/checkpoint.js compose), `announce(text)` the page's announcer, `idPrefix` for unique ids. Returns
 * {heading, go(index)}.
 */
export function renderTrace(
  box,
  { trace, run, label, source, segments, announce = () => {}, idPrefix = "trace", onClose = null, onEdit = null },
) {
  box.replaceChildren();
  box.hidden = false;
  const steps = Array.isArray(trace && trace.steps) ? trace.steps : [];
  const headingId = `${idPrefix}-title`;
  const heading = el("h3", "trace-title", t("trace_title", { label: label || "" }));
  heading.id = headingId;
  heading.tabIndex = -1;
  box.setAttribute("role", "region");
  box.setAttribute("aria-labelledby", headingId);
  box.append(heading);
  const lines = String(source || "").split("\n");
  const notes = [];
  if (trace && trace.truncated) notes.push(t("trace_truncated", { n: steps.length }));
  if (trace && trace.stopped) notes.push(t("trace_stopped"));
  if (run && typeof run.value === "string" && !trace.stopped) notes.push(t("trace_result", { value: run.value }));
  if (!steps.length) {
    box.append(el("p", "trace-note", t("trace_no_steps")));
    for (const note of notes) box.append(el("p", "trace-note", note));
    addClose(box, onClose);
    return { heading, go: () => {} };
  }

  // the learner's own lines (the checkpoint's code, carried-over code under its checkpoint's number), each with how
  // often it ran in the whole call
  const counts = new Map();
  for (const step of steps) if (step.event === "line") counts.set(step.line, (counts.get(step.line) || 0) + 1);
  const status = el("p", "trace-status");
  status.id = `${idPrefix}-status`;
  const controls = el("div", "trace-controls");
  controls.setAttribute("role", "group");
  controls.setAttribute("aria-label", t("trace_slider"));
  const button = (key, text) => {
    const b = el("button", "btn", text);
    b.type = "button";
    b.dataset.traceControl = key;
    controls.append(b);
    return b;
  };
  // « ‹ › » are mirrored in right-to-left text, so they point the way the steps go in either direction
  const first = button("first", `« ${t("trace_first")}`);
  const prev = button("prev", `‹ ${t("trace_prev")}`);
  const next = button("next", `${t("trace_next")} ›`);
  const last = button("last", `${t("trace_last")} »`);
  const slider = document.createElement("input");
  slider.type = "range";
  slider.min = "1";
  slider.max = String(steps.length);
  slider.step = "1";
  slider.dataset.traceControl = "slider";
  slider.setAttribute("aria-label", t("trace_slider"));
  slider.setAttribute("aria-describedby", `${idPrefix}-keys`);
  controls.append(slider);
  const keys = el("p", "trace-keys", t("trace_keys"));
  keys.id = `${idPrefix}-keys`;

  const code = el("ol", "trace-code");
  code.dir = "ltr";
  code.setAttribute("aria-label", t("trace_code"));
  code.tabIndex = 0; // it scrolls: reachable by keyboard
  const items = new Map();
  const shown = new Set(steps.map((s) => s.line));
  lines.forEach((text, index) => {
    const line = index + 1;
    const where = locate(segments || [], line);
    if (!where || (where.kind !== "own" && !shown.has(line))) return; // carried-over code: only the lines that ran
    const li = el("li");
    li.dataset.line = String(line);
    li.dataset.ran = String(counts.has(line));
    const number = el("span", "trace-lineno", where.kind === "own" ? where.line : `${where.n}:${where.line}`);
    number.setAttribute("aria-hidden", "true");
    const body = el("span", "trace-text");
    body.textContent = text || " ";
    const count = el("span", "trace-count", counts.has(line) ? t("trace_ran", { n: counts.get(line) }) : "");
    li.append(number, body, count);
    items.set(line, li);
    code.append(li);
  });

  const table = document.createElement("table");
  table.className = "trace-vars";
  const caption = document.createElement("caption");
  const thead = document.createElement("thead");
  const headRow = document.createElement("tr");
  headRow.append(el("th", null, t("trace_name")), el("th", null, t("trace_value")));
  thead.append(headRow);
  const tbody = document.createElement("tbody");
  table.append(caption, thead, tbody);

  box.append(status, controls, keys);
  if (onEdit) {
    // after stepping to the line that goes wrong: straight to it in the editor (an open list of failing cases would
    // otherwise lie between the trace and the editor, a hundred Tab stops)
    const edit = el("button", "btn trace-edit", t("trace_edit"));
    edit.type = "button";
    edit.dataset.traceControl = "edit";
    edit.addEventListener("click", () => onEdit(steps[current].line));
    box.append(edit);
  }
  box.append(code, table);
  for (const note of notes) box.append(el("p", "trace-note", note));
  addClose(box, onClose);

  let current = 0;
  const previousOfFrame = (index) => {
    // the step before `index` in the same call (same function at the same depth), for "changed"
    const { func, depth } = steps[index];
    for (let i = index - 1; i >= 0; i--) {
      if (steps[i].func === func && steps[i].depth === depth) return steps[i];
      if (steps[i].depth < depth) return null;
    }
    return null;
  };
  const describe = (step, index) => {
    const where = locate(segments || [], step.line);
    const lineText =
      where && where.kind !== "own"
        ? `${where.line} ${t("trace_where_carried", { n: where.n, line: where.line })}`
        : String(where ? where.line : step.line);
    const values = {
      n: index + 1,
      total: steps.length,
      line: lineText,
      func: step.func,
      value: step.value ?? "",
      exc: step.value ?? "",
    };
    if (step.event === "return") return t("trace_step_return", values);
    if (step.event === "exception") return t("trace_step_exception", values);
    return t("trace_step", values);
  };
  const go = (index, say = true) => {
    current = Math.max(0, Math.min(steps.length - 1, index));
    const step = steps[current];
    const text = describe(step, current);
    status.textContent = text;
    slider.value = String(current + 1);
    slider.setAttribute("aria-valuetext", text);
    for (const [line, li] of items) {
      if (line === step.line) li.setAttribute("aria-current", "true");
      else li.removeAttribute("aria-current");
    }
    const li = items.get(step.line);
    if (li) {
      const top = li.offsetTop - code.offsetTop;
      if (top < code.scrollTop || top > code.scrollTop + code.clientHeight - li.offsetHeight) {
        code.scrollTop = Math.max(0, top - code.clientHeight / 3);
      }
    }
    caption.textContent = t(step.event === "line" ? "trace_locals" : "trace_locals_end", { func: step.func });
    const before = previousOfFrame(current);
    const old = new Map(before ? before.locals : []);
    tbody.replaceChildren();
    for (const [name, value] of step.locals || []) {
      const tr = document.createElement("tr");
      const changed = before !== null && old.get(name) !== value;
      tr.dataset.changed = String(changed);
      const nameCell = el("td", "trace-var-name", name);
      nameCell.dir = "ltr";
      if (changed) nameCell.append(el("span", "visually-hidden", ` (${t("trace_changed")})`));
      const valueCell = el("td", "trace-var-value");
      valueCell.textContent = value;
      tr.append(nameCell, valueCell);
      tbody.append(tr);
    }
    if (!(step.locals || []).length) {
      const tr = document.createElement("tr");
      const td = el("td", null, t("trace_no_locals"));
      td.colSpan = 2;
      tr.append(td);
      tbody.append(tr);
    }
    for (const [b, disabled] of [
      [first, current === 0],
      [prev, current === 0],
      [next, current === steps.length - 1],
      [last, current === steps.length - 1],
    ]) {
      if (disabled) b.setAttribute("aria-disabled", "true");
      else b.removeAttribute("aria-disabled");
    }
    if (say) announce(text);
  };
  const step = (delta) => () => go(current + delta);
  first.addEventListener("click", () => go(0));
  prev.addEventListener("click", step(-1));
  next.addEventListener("click", step(1));
  last.addEventListener("click", () => go(steps.length - 1));
  slider.addEventListener("input", () => go(Number(slider.value) - 1));
  go(0, false);
  return { heading, go };
}

function addClose(box, onClose) {
  if (!onClose) return;
  const close = el("button", "btn trace-close", t("trace_close"));
  close.type = "button";
  close.dataset.traceControl = "close";
  close.addEventListener("click", onClose);
  box.append(close);
}
