// CodeMirror's language layer (syntax trees, highlighting, indentation, bracket closing): the second of the editor's
// modules (see editor_view.js and loadEditor in checkpoint.js), evaluated in a main-thread task of its own.

export { closeBrackets, closeBracketsKeymap } from "@codemirror/autocomplete";
export {
  HighlightStyle,
  bracketMatching,
  foldGutter,
  indentOnInput,
  indentUnit,
  syntaxHighlighting,
  syntaxTree,
} from "@codemirror/language";
export { tags } from "@lezer/highlight";
