// UI strings under the project's one translation rule (graders/engine/i18n.py): a key missing in the page's language
// falls back to the fallback language (settings.FALLBACK_LANGUAGE); a key missing there is a bug.
// The page embeds {lang, strings, fallback} as <script id="ui-strings"> (werkbank/catalog/__init__.py for_page):
// its own catalog, plus the fallback language's texts for the keys its own catalog lacks.

let own = {};
let fallback = {};
let language = "";

const has = (table, key) => Object.hasOwn(table, key) && typeof table[key] === "string";

/* global SETTINGS */

/** Load the strings embedded in the page (call once at start); `data` replaces them (node tests). */
export function loadStrings(doc = typeof document === "undefined" ? null : document, data = null) {
  let parsed = data;
  if (!parsed && doc) {
    const node = doc.getElementById("ui-strings");
    try {
      parsed = node ? JSON.parse(node.textContent) : null;
    } catch {
      parsed = null;
    }
  }
  own = (parsed && parsed.strings) || {};
  fallback = (parsed && parsed.fallback) || {};
  language = (parsed && parsed.lang) || "";
}

/** Fill `{name}` placeholders of `template` from `values` (unknown placeholders stay as they are). */
export function fill(template, values = {}) {
  return String(template).replace(/\{(\w+)\}/g, (whole, name) =>
    Object.hasOwn(values, name) ? String(values[name]) : whole,
  );
}

/** A number (or a number already written out) as the page's language writes it: a decimal comma in Dutch ("21,2"),
 * a point elsewhere. */
export function decimal(value, lang = language) {
  const text = String(value);
  return lang === "nl" ? text.replace(".", ",") : text;
}

/**
 * The string for `key` with `{name}` placeholders filled from `values`, under the fallback rule. A number that is
 * not whole is written as the page's language writes it (decimal).
 */
export function t(key, values = {}) {
  const local = {};
  for (const [name, value] of Object.entries(values))
    local[name] =
      typeof value === "number" && Number.isFinite(value) && !Number.isInteger(value) ? decimal(value) : value;
  if (has(own, key) && own[key]) return fill(own[key], local);
  if (has(fallback, key)) return fill(fallback[key], local);
  console.error(`werkbank: UI string ${JSON.stringify(key)} is missing from the catalog`);
  return key;
}

/** The page language (from <html lang>, else the embedded catalog's). */
export function pageLang(doc = typeof document === "undefined" ? null : document) {
  return (doc && doc.documentElement.lang) || language || SETTINGS.fallbackLanguage;
}

/** True for a right-to-left language (the build's settings). */
export function isRtl(lang) {
  return SETTINGS.rtlLanguages.includes(lang);
}
