// CodeMirror's Python mode (the Lezer Python grammar and its parse tables): the third of the editor's modules (see
// editor_view.js and loadEditor in checkpoint.js), evaluated in a main-thread task of its own.

export { python } from "@codemirror/lang-python";
