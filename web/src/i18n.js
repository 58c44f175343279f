// UI strings: the catalog of the page's language is embedded at build time as <script id="ui-strings">.

let strings = {};

/** Load the strings embedded in the page (call once at start). */
export function loadStrings(doc = document) {
  const node = doc.getElementById("ui-strings");
  try {
    strings = node ? JSON.parse(node.textContent) : {};
  } catch {
    strings = {};
  }
  return strings;
}

/** The string for `key` with `{name}` placeholders filled from `values`; the key itself when it is missing. */
export function t(key, values = {}) {
  let text = Object.prototype.hasOwnProperty.call(strings, key) ? strings[key] : key;
  for (const [name, value] of Object.entries(values)) text = text.split(`{${name}}`).join(String(value));
  return text;
}

/** The page language (from <html lang>). */
export function pageLang(doc = document) {
  return doc.documentElement.lang || "en";
}
