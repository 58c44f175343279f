// Direction isolation of left-to-right runs (code, numbers, intervals) inside right-to-left text: the rule of
// werkbank/bidi.py (the build applies it to rendered markdown), for text the page writes itself (verdicts). Both are
// tested on tests/data/bidi_runs.json. Text only: the pieces become text nodes, never HTML.

const RTL = "\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc";
const PARTS = new RegExp(`([^${RTL}]+)`, "u");
const STRONG = /[A-Za-z0-9\u00c0-\u024f\u0370-\u03ff]/;
const OPEN = "([{";
const CLOSE = ")]}";
const TRAIL = " \t\n\u00a0.,;:!?\"'“”‘’«»✓✗";
const LEAD = " \t\n\u00a0,;:!?\"'“”‘’«»✓✗";
const SENTENCE_END = /^[.…]+\s/;
const HAS_RTL = new RegExp(`[${RTL}]`, "u");
// an operator at an end of a run, apart from it by a space, joins it to the sentence ("= exp", "NLL ÷")
const OPERATORS = "=÷×+-−<>≤≥*/";
const SPACE = /\s/;

const count = (text, chars) => Array.from(text).filter((c) => chars.includes(c)).length;

/** `text` as [piece, isLtrRun] pairs, in order; joined, the pieces are `text` again. */
export function ltrRuns(text) {
  const out = [];
  String(text)
    .split(PARTS)
    .forEach((part, index) => {
      if (!part) return;
      if (index % 2 === 0 || !STRONG.test(part)) {
        out.push([part, false]);
        return;
      }
      let start = 0;
      let end = part.length;
      // full stops before a space end the sentence before the run ("… بادئة. Escape ثم"); ".strip()" and ".5" are runs
      while (start < end && (LEAD.includes(part[start]) || SENTENCE_END.test(part.slice(start)))) start++;
      while (end > start && TRAIL.includes(part[end - 1])) end--;
      // brackets that open or close around the run, not inside it, stay with the sentence, at either end
      while (start < end) {
        const inner = part.slice(start, end);
        const opens = count(inner, OPEN);
        const closes = count(inner, CLOSE);
        const last = inner[inner.length - 1];
        if ((CLOSE.includes(last) && closes > opens) || (OPEN.includes(last) && opens > closes)) {
          end--;
          while (end > start && TRAIL.includes(part[end - 1])) end--;
        } else if ((OPEN.includes(inner[0]) && opens > closes) || (CLOSE.includes(inner[0]) && closes > opens)) {
          start++;
          while (start < end && LEAD.includes(part[start])) start++;
        } else if (inner.length > 2 && OPERATORS.includes(last) && SPACE.test(inner[inner.length - 2])) {
          end -= 2;
          while (end > start && TRAIL.includes(part[end - 1])) end--;
        } else if (inner.length > 2 && OPERATORS.includes(inner[0]) && SPACE.test(inner[1])) {
          start += 2;
          while (start < end && LEAD.includes(part[start])) start++;
        } else break;
      }
      const core = part.slice(start, end);
      if (!STRONG.test(core)) {
        out.push([part, false]);
        return;
      }
      if (start) out.push([part.slice(0, start), false]);
      out.push([core, true]);
      if (end < part.length) out.push([part.slice(end), false]);
    });
  const merged = [];
  for (const [piece, isRun] of out) {
    const last = merged[merged.length - 1];
    if (last && !isRun && !last[1]) last[0] += piece;
    else merged.push([piece, isRun]);
  }
  return merged;
}

/**
 * Put `text` into `node` as text nodes; in right-to-left text (one with right-to-left letters) each left-to-right run
 * goes into a `<span dir="ltr" class="ltr-run">` of its own (an element with `dir` is a bidi isolate).
 */
export function setIsolatedText(node, text) {
  const value = String(text ?? "");
  node.replaceChildren();
  if (!HAS_RTL.test(value)) {
    node.textContent = value;
    return node;
  }
  for (const [piece, isRun] of ltrRuns(value)) {
    if (!isRun) {
      node.append(document.createTextNode(piece));
      continue;
    }
    const span = document.createElement("span");
    span.dir = "ltr";
    span.className = "ltr-run";
    span.textContent = piece;
    node.append(span);
  }
  return node;
}
