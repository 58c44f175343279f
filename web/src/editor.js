// CodeMirror 6 editors for Python: line numbers, highlighting, bracket matching, Tab indents (Escape then Tab
// leaves the editor, as indentWithTab documents), Ctrl/Cmd-Enter checks, and a highlighted error line.

import { closeBrackets, closeBracketsKeymap } from "@codemirror/autocomplete";
import { defaultKeymap, history, historyKeymap, indentWithTab } from "@codemirror/commands";
import { python } from "@codemirror/lang-python";
import {
  HighlightStyle,
  bracketMatching,
  foldGutter,
  indentOnInput,
  indentUnit,
  syntaxHighlighting,
} from "@codemirror/language";
import { highlightSelectionMatches } from "@codemirror/search";
import { EditorState, StateEffect, StateField } from "@codemirror/state";
import { tags } from "@lezer/highlight";
import {
  Decoration,
  EditorView,
  drawSelection,
  highlightActiveLine,
  highlightActiveLineGutter,
  keymap,
  lineNumbers,
} from "@codemirror/view";

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
  { tag: [tags.keyword, tags.controlKeyword, tags.operatorKeyword, tags.definitionKeyword, tags.moduleKeyword],
    color: "var(--hl-keyword)" },
  { tag: [tags.string, tags.special(tags.string)], color: "var(--hl-string)" },
  { tag: [tags.number, tags.bool, tags.null], color: "var(--hl-number)" },
  { tag: [tags.comment, tags.lineComment, tags.blockComment], color: "var(--hl-comment)", fontStyle: "italic" },
  { tag: [tags.function(tags.variableName), tags.function(tags.definition(tags.variableName))], color: "var(--hl-function)" },
  { tag: [tags.definition(tags.variableName), tags.className, tags.definition(tags.className)], color: "var(--hl-def)" },
  { tag: [tags.self, tags.standard(tags.variableName)], color: "var(--hl-builtin)" },
  { tag: tags.invalid, color: "var(--fail)" },
]);

const theme = EditorView.theme({
  "&": { fontSize: "0.95rem", border: "1px solid var(--border)", borderRadius: "6px", background: "var(--code-bg)" },
  "&.cm-focused": { outline: "2px solid var(--focus)", outlineOffset: "2px" },
  ".cm-content": { fontFamily: "var(--mono)", minHeight: "6rem", caretColor: "var(--fg)" },
  ".cm-gutters": { background: "var(--code-bg)", color: "var(--muted)", borderRight: "1px solid var(--border)" },
  ".cm-activeLine": { background: "var(--active-line)" },
  ".cm-activeLineGutter": { background: "var(--active-line)" },
  ".cm-error-line": { background: "var(--error-line)" },
  ".cm-scroller": { maxHeight: "32rem", overflow: "auto" },
  "&.cm-focused .cm-cursor": { borderLeftColor: "var(--fg)" },
  "&.cm-focused .cm-selectionBackground, .cm-selectionBackground, ::selection": { background: "var(--selection)" },
});

/**
 * Create a Python editor in `parent` (its fallback content is replaced).
 * Options: doc, label (accessible name), onChange(text), onCheck() for Ctrl/Cmd-Enter.
 */
export function createEditor(parent, { doc = "", label = "", onChange = null, onCheck = null } = {}) {
  const keys = [];
  if (onCheck) {
    keys.push({
      key: "Mod-Enter",
      run: () => {
        onCheck();
        return true;
      },
      preventDefault: true,
    });
  }
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
      keymap.of([...keys, ...closeBracketsKeymap, ...defaultKeymap, ...historyKeymap, indentWithTab]),
      errorLineField,
      theme,
      EditorView.contentAttributes.of({ "aria-label": label, spellcheck: "false", autocapitalize: "off", translate: "no" }),
      EditorView.updateListener.of((update) => {
        if (update.docChanged && onChange) onChange(update.state.doc.toString());
      }),
    ],
  });
  parent.replaceChildren();
  return new EditorView({ state, parent });
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
  view.dispatch({
    effects: [
      setErrorLine.of(valid ? line : null),
      ...(valid ? [EditorView.scrollIntoView(view.state.doc.line(line).from, { y: "center" })] : []),
    ],
  });
}
