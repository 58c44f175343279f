// CodeMirror's core, its state and view packages: the first of the editor's modules. A lesson page evaluates them
// one after the other, each in a main-thread task of its own (loadEditor in checkpoint.js; the list is
// werkbank.assets.EDITOR_STAGES): on a first visit, with nothing compiled yet and the runtime compiling on the other
// core, all of CodeMirror in one evaluation is a long main-thread task. The build bundles them with code splitting, so
// they share one copy of each package (two copies of CodeMirror's state would break every extension).

export { EditorState, StateEffect, StateField } from "@codemirror/state";
export {
  Decoration,
  Direction,
  EditorView,
  ViewPlugin,
  drawSelection,
  highlightActiveLine,
  highlightActiveLineGutter,
  keymap,
  lineNumbers,
} from "@codemirror/view";
