// Small DOM helpers shared by the figures and the verdict plots. Every text goes in through textContent.

export const SVG_NS = "http://www.w3.org/2000/svg";

/** An HTML element with an optional class and text. */
export function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined && text !== null) node.textContent = String(text);
  return node;
}

/** An SVG element with attributes, inline style properties and optional text. */
export function svg(tag, attrs = {}, style = {}, text = null) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, String(value));
  for (const [name, value] of Object.entries(style || {})) node.style.setProperty(name, value);
  if (text !== null && text !== undefined) node.textContent = String(text);
  return node;
}

/** A number for a table cell or a label: "—" for none, nan/inf spelled out, integers without decimals. */
export function formatNumber(value, digits = 3) {
  if (value === null || value === undefined) return "—";
  if (Number.isNaN(value)) return "nan";
  if (!Number.isFinite(value)) return value > 0 ? "inf" : "-inf";
  return Number.isInteger(value) ? String(value) : value.toFixed(digits);
}

/** A labelled form control: <label><span>text</span>input</label>. */
export function labelled(text, input, className = "figure-control") {
  const label = el("label", className);
  label.append(el("span", null, text), input);
  return label;
}

/** A <select> of `values` with `chosen` selected. */
export function select(values, chosen) {
  const node = el("select");
  for (const value of values) {
    const option = el("option", null, String(value));
    option.value = String(value);
    if (value === chosen) option.selected = true;
    node.append(option);
  }
  return node;
}

/** A paragraph whose direction follows the page language (inside left-to-right plot containers). */
export function textBlock(tag, className, text, dir) {
  const node = el(tag, className, text);
  node.dir = dir;
  return node;
}
