"""Every lesson's texts satisfy every rule of werkbank/lesson_checks.py, the rules ``werkbank check`` runs on a lesson,
with the same messages: every number in the prose lies in a passage its ``checks.py`` proves, translations state the
same numbers section by section, 2-3 hints, examples that give what the task shows, tasks whose console blocks are
passing doctests and whose input rules sit in a fold, Arabic starters without Arabic text, the lesson's own further
checks, and a checks.py for a listed lesson. What each rule catches is proven on small lessons in
tests/test_authoring.py."""

from __future__ import annotations

import pytest

from werkbank.lesson_checks import RULES
from werkbank.lessons import load_all

LESSONS = load_all()


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.id)
@pytest.mark.parametrize("rule", sorted(RULES))
def test_every_lesson_satisfies_every_text_rule(lesson, rule):
    assert RULES[rule](lesson) == []
