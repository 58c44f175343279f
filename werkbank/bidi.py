"""Direction isolation of left-to-right runs inside right-to-left text (Arabic).

A hint or a case text in Arabic that holds code, numbers or an interval, "القيم في [0, bins − 1]", is laid out by the
Unicode bidi algorithm around the Arabic: without isolation the interval reads "[bins − 1 ,0]" and "-1" reads "1-".
:func:`ltr_runs` finds every such run (a stretch without right-to-left letters that holds a Latin letter or a digit,
trimmed of the spaces, sentence punctuation (also the full stop that ends the sentence before it) and unmatched
brackets that belong to the Arabic around it), so that it
can be set apart as its own left-to-right isolate. ``web/src/bidi.js`` is the same rule for text the page writes
(verdicts); ``tests/data/bidi_runs.json`` holds the cases both are tested on.

:func:`isolate_html` applies it to rendered HTML (a page's markdown in a right-to-left language): each run in a text
node becomes ``<span dir="ltr">…</span>`` (an element with ``dir`` is a bidi isolate); code, math, preformatted
text and SVG are left alone, they are isolated already.
"""

from __future__ import annotations

import html
import re

#: Characters with right-to-left strength: Hebrew, Arabic, Syriac, Thaana, NKo... and the Arabic presentation forms.
RTL = "\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc"
_PARTS = re.compile(f"([^{RTL}]+)")
_STRONG = re.compile(r"[A-Za-z0-9\u00c0-\u024f\u0370-\u03ff]")
_OPEN, _CLOSE = "([{", ")]}"
#: Trimmed from the ends of a run: they belong to the sentence around it (a verdict's check mark too).
_TRAIL = " \t\n\u00a0.,;:!?\"'“”‘’«»✓✗"
_LEAD = " \t\n\u00a0,;:!?\"'“”‘’«»✓✗"


_ENDS = re.compile(r"[.…]+\s")
#: An operator at an end of a run, apart from it by a space, joins it to the sentence ("الحيرة = exp", "NLL ÷ مجموع").
_OPERATORS = "=÷×+-−<>≤≥*/"


def _sentence_end(part: str, index: int) -> bool:
    """Whether ``part[index]`` starts a stretch of full stops before a space: the end of the sentence before the run
    ("… بادئة. Escape ثم"), not part of it (".strip()" and ".5" are)."""
    return _ENDS.match(part, index) is not None


def ltr_runs(text: str) -> list[tuple[str, bool]]:
    """``text`` as ``(piece, is_ltr_run)`` pairs, in order; joined, the pieces are ``text`` again."""
    out: list[tuple[str, bool]] = []
    for index, part in enumerate(_PARTS.split(text)):
        if not part:
            continue
        if index % 2 == 0 or not _STRONG.search(part):  # an RTL stretch, or one with nothing left-to-right in it
            out.append((part, False))
            continue
        start, end = 0, len(part)
        while start < end and (part[start] in _LEAD or _sentence_end(part, start)):
            start += 1
        while end > start and part[end - 1] in _TRAIL:
            end -= 1
        # brackets that open or close around the run, not inside it, stay with the sentence, at either end: "0 ("
        # before an Arabic aside, "exp(" before an Arabic argument
        while start < end:
            core = part[start:end]
            opens, closes = sum(core.count(c) for c in _OPEN), sum(core.count(c) for c in _CLOSE)
            if (core[-1] in _CLOSE and closes > opens) or (core[-1] in _OPEN and opens > closes):
                end -= 1
                while end > start and part[end - 1] in _TRAIL:
                    end -= 1
            elif (core[0] in _OPEN and opens > closes) or (core[0] in _CLOSE and closes > opens):
                start += 1
                while start < end and part[start] in _LEAD:
                    start += 1
            elif len(core) > 2 and core[-1] in _OPERATORS and core[-2].isspace():
                end -= 2
                while end > start and part[end - 1] in _TRAIL:
                    end -= 1
            elif len(core) > 2 and core[0] in _OPERATORS and core[1].isspace():
                start += 2
                while start < end and part[start] in _LEAD:
                    start += 1
            else:
                break
        core = part[start:end]
        if not _STRONG.search(core):
            out.append((part, False))
            continue
        if start:
            out.append((part[:start], False))
        out.append((core, True))
        if end < len(part):
            out.append((part[end:], False))
    merged: list[tuple[str, bool]] = []
    for piece, is_run in out:
        if merged and not is_run and not merged[-1][1]:
            merged[-1] = (merged[-1][0] + piece, False)
        else:
            merged.append((piece, is_run))
    return merged


_TAG = re.compile(r"(<[^>]*>)")
#: Elements whose text is isolated already (code, math, preformatted) or is no running text.
_SKIP = {"code", "pre", "math", "svg", "script", "style", "kbd", "samp"}
_NAME = re.compile(r"^</?\s*([a-zA-Z][a-zA-Z0-9-]*)")


def isolate_html(markup: str) -> str:
    """``markup`` with each left-to-right run of its running text wrapped in ``<span dir="ltr">``."""
    out = []
    skip = 0
    spans: list[bool] = []  # open spans: whether each is an isolate already (a part rendered and isolated before)
    for piece in _TAG.split(markup):
        if piece.startswith("<"):
            match = _NAME.match(piece)
            name = match.group(1).lower() if match else ""
            if name in _SKIP and not piece.endswith("/>"):
                skip += -1 if piece.startswith("</") else 1
            elif name == "span":
                if piece.startswith("</"):
                    if spans and spans.pop():
                        skip -= 1
                else:
                    spans.append('dir="ltr"' in piece)
                    skip += spans[-1]
            out.append(piece)
        elif skip > 0 or not piece:
            out.append(piece)
        else:
            runs = ltr_runs(html.unescape(piece))
            if not any(is_run for _, is_run in runs):
                out.append(piece)
                continue
            for text, is_run in runs:
                escaped = html.escape(text, quote=False)
                out.append(f'<span dir="ltr">{escaped}</span>' if is_run else escaped)
    return "".join(out)


__all__ = ["ltr_runs", "isolate_html", "RTL"]
