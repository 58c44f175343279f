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


def test_a_check_that_compiles_a_broken_file_is_named_at_its_own_line(tmp_path):
    """A check that compiles solution.py with a syntax error in its line 16 failed as "checks.py:16", a blank line of
    checks.py: the line named is the check's own, and the error says where in solution.py it is."""
    import importlib.util

    from werkbank.lesson_checks import _run

    path = tmp_path / "checks.py"
    path.write_text("\n\ndef check_odd():\n    compile('x = (\\n', 'solution.py', 'exec')\n", encoding="utf-8")
    spec = importlib.util.spec_from_file_location("checks_under_test", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    line = _run(module.check_odd, path, "check_odd")
    assert "checks.py:4: check_odd fails: SyntaxError" in line, line
    assert "solution.py, line 1" in line, line
