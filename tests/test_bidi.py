"""werkbank/bidi.py: left-to-right runs in right-to-left text, on the cases web/src/bidi.js is tested on too, and their
isolation in the rendered markdown of a right-to-left lesson (tests/browser/test_bidi_rtl.py reads the visual order
in Chromium)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from werkbank.bidi import isolate_html, ltr_runs
from werkbank.markdown import render

CASES = json.loads((Path(__file__).parent / "data" / "bidi_runs.json").read_text(encoding="utf-8"))["cases"]


@pytest.mark.parametrize("text, pieces", CASES)
def test_runs_are_found_with_the_sentence_punctuation_and_unmatched_brackets_left_out(text, pieces):
    assert [list(piece) for piece in ltr_runs(text)] == pieces
    assert "".join(piece for piece, _ in ltr_runs(text)) == text


def test_rendered_arabic_isolates_runs_but_not_code_math_or_english_pages():
    html = render("القيم في [0, bins − 1] و `x [0, 1]` و $x_1$ و a < b.", lang="ar")
    assert '<span dir="ltr">[0, bins − 1]</span>' in html and '<span dir="ltr">a &lt; b</span>' in html
    assert "<code>x [0, 1]</code>" in html and html.count('<span dir="ltr">') == 2
    assert '<span dir="ltr">' not in render("values in [0, bins - 1]", lang="en")


def test_isolating_twice_changes_nothing():
    once = isolate_html("<p>القيم في [0, 1] و</p><details><summary>قواعد -1</summary></details>")
    assert isolate_html(once) == once and once.count("<span") == 2
