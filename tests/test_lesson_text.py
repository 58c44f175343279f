"""Every lesson's texts satisfy every rule of werkbank/lesson_checks.py, the rules ``werkbank check`` runs on a lesson,
with the same messages: every number in the prose lies in a passage its ``checks.py`` proves, translations state the
same numbers section by section, 2-3 hints, examples that give what the task shows, tasks whose console blocks are
passing doctests and whose input rules sit in a fold, Arabic starters without Arabic text, and the lesson's own
further checks. What each rule catches is proven on small lessons in tests/test_authoring.py."""

from __future__ import annotations

import pytest

from werkbank.lesson_checks import RULES
from werkbank.lessons import load_all

LESSONS = load_all()


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.id)
@pytest.mark.parametrize("rule", sorted(RULES))
def test_every_lesson_satisfies_every_text_rule(lesson, rule):
    assert RULES[rule](lesson) == []


def test_every_listed_lesson_proves_the_numbers_of_its_prose():
    """A listed lesson states numbers, so it has a checks.py whose PROSE_CLAIMS cover them (a lesson without one
    would pass the number rule only if its prose had no number at all)."""
    for lesson in LESSONS:
        if lesson.listed:
            assert (lesson.folder / "checks.py").is_file(), lesson.id
