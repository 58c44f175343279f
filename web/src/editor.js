// CodeMirror 6 editors for Python: line numbers, highlighting, bracket matching, wrapped lines, Ctrl/Cmd-Enter,
// a highlighted error line, and two accessibility/bidi decisions:
//
// Tab. CodeMirror leaves Tab alone by default so keyboard users are never trapped; its guidance for binding Tab
// anyway (https://codemirror.net/examples/tab) is to keep the Escape-then-Tab escape hatch and to tell users about it.
// We bind Tab to indent (indentWithTab), and additionally: an editor reached with Tab or Shift-Tab starts in
// CodeMirror's own temporary "tab focus mode" (setTabFocusMode), so further Tabs keep moving through the page until
// the learner presses any other key. Tabbing through a lesson therefore never adds indentation to a starter, and
// once the learner types, Tab indents. The help text that says so is linked with aria-describedby.
//
// Right-to-left comments. Code stays left to right. A comment whose text is mostly Arabic (or another RTL script)
// is isolated as a right-to-left run (dir="rtl", unicode-bidi: isolate), and the Latin/number runs inside it
// (`[0, 1]`, `bins <= 0`, `ValueError`) are isolated again as left-to-right, so `[0, 1]` never shows as `[1 ,0]`.
// The same ranges go to EditorView.bidiIsolatedRanges, so cursor motion follows what is shown.

import { defaultKeymap, history, historyKeymap, indentLess, indentMore, indentWithTab } from "@codemirror/commands";
import { highlightSelectionMatches } from "@codemirror/search";
import {
  HighlightStyle,
  bracketMatching,
  closeBrackets,
  closeBracketsKeymap,
  foldGutter,
  indentOnInput,
  indentUnit,
  syntaxHighlighting,
  syntaxTree,
  tags,
} from "./editor_language.js";
import { python } from "./editor_python.js";
import {
  Decoration,
  Direction,
  EditorState,
  EditorView,
  StateEffect,
  StateField,
  ViewPlugin,
  drawSelection,
  highlightActiveLine,
  highlightActiveLineGutter,
  keymap,
  lineNumbers,
} from "./editor_view.js";

const setErrorLine = StateEffect.define();

const errorLineField = StateField.define({
  create: () => Decoration.none,
  update(deco, tr) {
    let next = deco.map(tr.changes);
    for (const effect of tr.effects) {
      if (effect.is(setErrorLine)) {
        const line = effect.value;
        next =
          line && line >= 1 && line <= tr.state.doc.lines
            ? Decoration.set([Decoration.line({ class: "cm-error-line" }).range(tr.state.doc.line(line).from)])
            : Decoration.none;
      }
    }
    if (tr.docChanged && !tr.effects.some((e) => e.is(setErrorLine))) next = Decoration.none;
    return next;
  },
  provide: (field) => EditorView.decorations.from(field),
});

// Colours come from CSS variables (web/static/site.css), so one style serves the light and the dark theme.
const highlight = HighlightStyle.define([
  {
    tag: [tags.keyword, tags.controlKeyword, tags.operatorKeyword, tags.definitionKeyword, tags.moduleKeyword],
    color: "var(--hl-keyword)",
  },
  { tag: [tags.string, tags.special(tags.string)], color: "var(--hl-string)" },
  { tag: [tags.number, tags.bool, tags.null], color: "var(--hl-number)" },
  { tag: [tags.comment, tags.lineComment, tags.blockComment], color: "var(--hl-comment)", fontStyle: "italic" },
  {
    tag: [tags.function(tags.variableName), tags.function(tags.definition(tags.variableName))],
    color: "var(--hl-function)",
  },
  {
    tag: [tags.definition(tags.variableName), tags.className, tags.definition(tags.className)],
    color: "var(--hl-def)",
  },
  { tag: [tags.self, tags.standard(tags.variableName)], color: "var(--hl-builtin)" },
  { tag: tags.invalid, color: "var(--fail)" },
]);

// ------------------------------------------------------------------ wrapped lines keep their indentation

/** Indentation columns a wrapped line's continuation keeps (deeper lines wrap at this column). */
const HANG_MAX = 32;
const hangClasses = Array.from({ length: HANG_MAX }, (_, i) => Decoration.line({ class: `cm-hang-${i + 1}` }));
const hangTheme = Object.fromEntries(
  Array.from({ length: HANG_MAX }, (_, i) => [
    `& .cm-line.cm-hang-${i + 1}`,
    { paddingLeft: `calc(${i + 1}ch + 6px)`, textIndent: `-${i + 1}ch` },
  ]),
);

/** The columns of a line's leading whitespace (a tab to the next multiple of `tabSize`). */
function leadingColumns(text, tabSize) {
  let columns = 0;
  for (const char of text) {
    if (char === " ") columns += 1;
    else if (char === "\t") columns += tabSize - (columns % tabSize);
    else break;
  }
  return columns;
}

function hangingIndents(view) {
  const ranges = [];
  let last = -1;
  for (const { from, to } of view.visibleRanges) {
    for (let pos = from; pos <= to; ) {
      const line = view.state.doc.lineAt(pos);
      const columns = line.number > last ? leadingColumns(line.text, view.state.tabSize) : 0;
      if (columns > 0) ranges.push(hangClasses[Math.min(columns, HANG_MAX) - 1].range(line.from));
      last = line.number;
      pos = line.to + 1;
    }
  }
  return Decoration.set(ranges);
}

/**
 * Lines wrap (the editor has no horizontal scroll); a long indented line's continuation starts under its first
 * character, not at column 0, so on a phone the block structure of Python stays readable.
 */
const hangingIndent = ViewPlugin.fromClass(
  class {
    constructor(view) {
      this.decorations = hangingIndents(view);
    }
    update(update) {
      if (update.docChanged || update.viewportChanged) this.decorations = hangingIndents(update.view);
    }
  },
  { decorations: (plugin) => plugin.decorations },
);

const theme = EditorView.theme({
  "&": {
    fontSize: "var(--editor-font-size, 0.95rem)",
    border: "1px solid var(--border)",
    borderRadius: "6px",
    background: "var(--code-bg)",
  },
  "&.cm-focused": { outline: "2px solid var(--focus)", outlineOffset: "2px" },
  ".cm-content": { fontFamily: "var(--mono)", minHeight: "var(--editor-min-height, 6rem)", caretColor: "var(--fg)" },
  ".cm-gutters": { background: "var(--code-bg)", color: "var(--muted)", borderRight: "1px solid var(--border)" },
  ".cm-activeLine": { background: "var(--active-line)" },
  ".cm-activeLineGutter": { background: "var(--active-line)" },
  ".cm-error-line": { background: "var(--error-line)" },
  // No height limit: lines wrap and the editor grows with its text, so nothing is cut off and there is no scrolled
  // region without keyboard access (axe: scrollable-region-focusable).
  ".cm-rtl-comment, .cm-ltr-run": { unicodeBidi: "isolate" },
  "&.cm-focused .cm-cursor": { borderLeftColor: "var(--fg)" },
  "&.cm-focused .cm-selectionBackground, .cm-selectionBackground, ::selection": { background: "var(--selection)" },
  ...hangTheme,
});

// ------------------------------------------------------------------ right-to-left comments

const RTL_CHAR = /[\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFF]/g;
const LATIN_CHAR = /[A-Za-z]/g;
const ASCII_RUN = /[\x21-\x7E](?:[\x20-\x7E]*[\x21-\x7E])?/g;
const CLOSER = { "(": ")", "[": "]", "{": "}" };
const OPENER = { ")": "(", "]": "[", "}": "{" };

const rtlComment = Decoration.mark({ class: "cm-rtl-comment", attributes: { dir: "rtl" }, bidiIsolate: Direction.RTL });
const ltrRun = Decoration.mark({ class: "cm-ltr-run", attributes: { dir: "ltr" }, bidiIsolate: Direction.LTR });

/** True when `text` is mostly written in a right-to-left script (more RTL letters than Latin ones). */
export function isMostlyRtl(text) {
  const rtl = (text.match(RTL_CHAR) || []).length;
  return rtl > 0 && rtl >= (text.match(LATIN_CHAR) || []).length;
}

/**
 * The left-to-right runs inside right-to-left comment text, as [start, end) offsets: stretches of ASCII holding
 * a letter or digit, without sentence punctuation at their edges and without an unmatched bracket at either end.
 */
export function ltrRuns(text) {
  const runs = [];
  for (const match of text.matchAll(ASCII_RUN)) {
    let a = match.index;
    let b = a + match[0].length;
    for (;;) {
      const run = text.slice(a, b);
      if (!run) break;
      const first = run[0];
      const last = run[run.length - 1];
      if (/[\s.,;:!?]/.test(first) || (CLOSER[first] && !run.includes(CLOSER[first])) || OPENER[first]) a += 1;
      else if (/[\s.,;:!?]/.test(last) || (OPENER[last] && !run.includes(OPENER[last])) || CLOSER[last]) b -= 1;
      else break;
    }
    if (/[A-Za-z0-9]/.test(text.slice(a, b))) runs.push([a, b]);
  }
  return runs;
}

function commentDecorations(view) {
  const ranges = [];
  const tree = syntaxTree(view.state);
  for (const { from, to } of view.visibleRanges) {
    tree.iterate({
      from,
      to,
      enter(node) {
        if (node.name !== "Comment") return;
        const text = view.state.doc.sliceString(node.from, node.to);
        const body = text.replace(/^#+\s*/, "");
        if (!body || !isMostlyRtl(body)) return;
        const start = node.to - body.length;
        ranges.push(rtlComment.range(start, node.to));
        for (const [a, b] of ltrRuns(body)) ranges.push(ltrRun.range(start + a, start + b));
      },
    });
  }
  return Decoration.set(ranges, true);
}

const bidiComments = ViewPlugin.fromClass(
  class {
    constructor(view) {
      this.decorations = commentDecorations(view);
    }
    update(update) {
      if (update.docChanged || update.viewportChanged || syntaxTree(update.startState) !== syntaxTree(update.state)) {
        this.decorations = commentDecorations(update.view);
      }
    }
  },
  {
    decorations: (plugin) => plugin.decorations,
    provide: (plugin) =>
      EditorView.bidiIsolatedRanges.of((view) => view.plugin(plugin)?.decorations || Decoration.none),
  },
);

// ------------------------------------------------------------------ keyboard arrival

let lastTabAt = 0;
if (typeof document !== "undefined") {
  document.addEventListener(
    "keydown",
    (event) => {
      if (event.key === "Tab") lastTabAt = Date.now();
    },
    true,
  );
}
const ARRIVAL_MS = 400;
const UNTIL_ANOTHER_KEY = 24 * 3600 * 1000;

/**
 * Create a Python editor in `parent` (its fallback content is replaced).
 * Options: doc, label (accessible name), describedBy (id of the help text), onChange(text), onSubmit() for
 * Ctrl/Cmd-Enter, className (extra class on the editor, e.g. "cm-small").
 */
export function createEditor(parent, options) {
  const steps = editorSteps(parent, options);
  for (;;) {
    const { done, value } = steps.next();
    if (done) return value;
  }
}

/**
 * createEditor in two steps, for a caller that spreads its work over several main-thread tasks: the generator
 * yields once its editor state is made (the Python parse of `doc` included), and returns the view after the next
 * step. On a first visit, with nothing of CodeMirror compiled yet, the first editor in one step is a long task.
 */
export function* editorSteps(
  parent,
  { doc = "", label = "", describedBy = "", onChange = null, onSubmit = null, className = "" } = {},
) {
  const keys = [];
  if (onSubmit) {
    keys.push({
      key: "Mod-Enter",
      run: () => {
        onSubmit();
        return true;
      },
      preventDefault: true,
    });
  }
  const attributes = {
    "aria-label": label,
    spellcheck: "false",
    autocapitalize: "off",
    autocorrect: "off",
    translate: "no",
  };
  if (describedBy) attributes["aria-describedby"] = describedBy;
  const state = EditorState.create({
    doc,
    extensions: [
      lineNumbers(),
      highlightActiveLineGutter(),
      foldGutter(),
      history(),
      drawSelection(),
      indentOnInput(),
      indentUnit.of("    "),
      EditorState.tabSize.of(4),
      bracketMatching(),
      closeBrackets(),
      highlightActiveLine(),
      highlightSelectionMatches(),
      syntaxHighlighting(highlight),
      python(),
      EditorView.lineWrapping,
      hangingIndent,
      bidiComments,
      keymap.of([...keys, ...closeBracketsKeymap, ...defaultKeymap, ...historyKeymap, indentWithTab]),
      errorLineField,
      theme,
      EditorView.contentAttributes.of(attributes),
      ...(className ? [EditorView.editorAttributes.of({ class: className })] : []),
      EditorView.updateListener.of((update) => {
        if (update.docChanged && onChange) onChange(update.state.doc.toString());
      }),
    ],
  });
  yield;
  parent.replaceChildren();
  const view = new EditorView({ state, parent });
  // Reached with (Shift-)Tab: let further Tabs move on until the learner presses another key.
  view.contentDOM.addEventListener("focus", () => {
    if (Date.now() - lastTabAt < ARRIVAL_MS) view.setTabFocusMode(UNTIL_ANOTHER_KEY);
  });
  return view;
}

/** The editor's text. */
export function getText(view) {
  return view.state.doc.toString();
}

/** Replace the whole text as one undoable change (Ctrl/Cmd-Z brings the old text back). */
export function setText(view, text) {
  view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text }, userEvent: "input.replace" });
}

/** Highlight line `line` (1-based) as the error line, or clear it with null; scrolls it into view. */
export function markErrorLine(view, line) {
  const valid = Number.isInteger(line) && line >= 1 && line <= view.state.doc.lines;
  const from = valid ? view.state.doc.line(line).from : 0;
  view.dispatch({
    effects: [
      setErrorLine.of(valid ? line : null),
      // a line already on the screen stays where it is, so the verdict's headline below it stays in view too
      ...(valid && !shownNow(view, from) ? [EditorView.scrollIntoView(from, { y: "center" })] : []),
    ],
  });
}

/** Whether position `pos` of `view` is on the screen now: drawn, and not scrolled away, clipped by a scrolled
 * column or under a bar (what the browser draws at its middle is the editor's own text). */
function shownNow(view, pos) {
  if (typeof document.elementFromPoint !== "function") return false;
  const rect = view.coordsAtPos(pos);
  if (!rect) return false;
  const y = (rect.top + rect.bottom) / 2;
  if (y < 0 || y > window.innerHeight) return false;
  const hit = document.elementFromPoint(Math.max(rect.left, 0) + 1, y);
  return !!hit && view.contentDOM.contains(hit);
}

/** Put the cursor at the start of line `line` (its indentation skipped), show it and give the editor focus. */
export function goToLine(view, line) {
  const n = Math.max(1, Math.min(view.state.doc.lines, Number(line) || 1));
  const { from, text } = view.state.doc.line(n);
  const pos = from + (text.length - text.trimStart().length);
  view.dispatch({ selection: { anchor: pos }, effects: EditorView.scrollIntoView(pos, { y: "center" }) });
  focusEditor(view);
}

/**
 * Move focus into the editor for the learner, as the page does after a button (Try this case, Reset, Put it in the
 * editor, Edit this line): like an editor reached with Tab, it starts in tab focus mode, so a keyboard user's next
 * Tab moves on through the page instead of indenting the code, until they press another key.
 */
export function focusEditor(view) {
  view.focus();
  view.setTabFocusMode(UNTIL_ANOTHER_KEY);
  revealCursor(view);
}

/**
 * Scroll the line with the editor's cursor into view, as moving focus there with Tab would: CodeMirror's focus()
 * does not scroll, and after a button far below the editor (Reset, Put it in the editor) focus would land out of
 * sight. The browser's own scrolling keeps it below the sticky top bar (site.css: scroll-padding). The editor comes
 * into view first; its line once CodeMirror has drawn the lines now in view.
 */
function revealCursor(view) {
  if (!view.dom.isConnected || !view.dom.getClientRects().length) return; // hidden (a phone's other tab)
  view.dom.scrollIntoView({ block: "nearest" });
  requestAnimationFrame(() => {
    const { node } = view.domAtPos(view.state.selection.main.head);
    const element = node && (node.nodeType === 1 ? node : node.parentElement);
    const line = element && element.closest(".cm-line");
    if (line && view.dom.contains(line)) line.scrollIntoView({ block: "nearest" });
  });
}

/** The editor whose DOM holds `node` (a `.cm-content` that has focus), or null. */
export function viewOf(node) {
  return node ? EditorView.findFromDOM(node) : null;
}

/** Put `text` in place of the selection, as one typed change (the phone's symbol keys, web/src/symbols.js). */
export function typeText(view, text) {
  view.dispatch(view.state.replaceSelection(text), { userEvent: "input.type", scrollIntoView: true });
}

/** Indent the selected lines one step (or one step less: `less`), as Tab and Shift-Tab do. */
export function indent(view, less = false) {
  (less ? indentLess : indentMore)(view);
}
