"""Mutation testing of the graders (werkbank/mutants.py): every non-equivalent mutant of every reference solution
is killed by its checkpoint's full case set (a stamped check: run again when its inputs change, tests/derived.py),
and the mutator makes every kind of mutant the issue names."""

import textwrap

import pytest

from tests.derived import GRADING_INPUTS, inputs_digest, lesson_inputs, stamped, versions
from werkbank.lessons import load_all
from werkbank.mutants import equivalent_marks, killed, mutants

SAMPLE = textwrap.dedent("""
    def f(xs, limit=3):
        if not isinstance(xs, list) or len(xs) > limit:
            raise ValueError("bad")
        words = sorted(x.strip() for x in xs if x and x != "-")
        total = 0
        for w in words:
            total += len(w) * 2
        return {"words": sorted(words, key=str.lower), "total": float(total), "ok": True}
""")


def test_the_mutator_makes_every_kind_of_mutant():
    found = mutants(SAMPLE)
    kinds = {m.operator for m in found}
    assert {"compare", "constant", "raise", "branch", "keyword", "method", "wrapper", "boolean", "arith"} <= kinds
    diffs = {m.diff() for m in found}
    assert (
        "solution.py:3: - if not isinstance(xs, list) or len(xs) > limit:  + "
        "if not isinstance(xs, list) or len(xs) >= limit:" in diffs
    )
    assert any("key=str.lower" in m.before and "key=" not in m.after for m in found)
    assert any("x.strip()" in m.before and "x.strip()" not in m.after for m in found)
    assert len({m.id for m in found}) == len(found) and all(m.source != SAMPLE for m in found)
    for mutant in found:
        compile(mutant.source, "solution.py", "exec")


def test_killed_tells_a_mutant_that_fails_a_case_from_one_that_passes():
    from werkbank.grading import prepare_checkpoint
    from werkbank.lessons import load_lesson

    checkpoint = load_lesson("claims-abstention").checkpoint("2")
    prepared = prepare_checkpoint(checkpoint)
    assert not killed(checkpoint.solution(), prepared)
    assert killed(checkpoint.solution().replace("if prediction == target:", "if prediction != target:"), prepared)
    assert killed("def abstention_metrics(p, t):\n    while True:\n        pass\n", prepared, seconds=0.5)


LESSONS = load_all()


def _checkpoints():
    for lesson in LESSONS:
        for checkpoint in lesson.checkpoints:
            yield pytest.param(lesson.id, checkpoint, id=f"{lesson.id}-{checkpoint.id}")


@pytest.mark.parametrize("lesson_id,checkpoint", list(_checkpoints()))
def test_every_non_equivalent_mutant_is_killed(lesson_id, checkpoint, request):
    """The problems `werkbank check --mutants` reports for the checkpoint, with the same messages: survivors, and
    marks that match no mutant or several. Run again only when the lesson, its graders, the engine or the mutator
    changed (tests/derived.py)."""
    from werkbank.lessons import load_lesson
    from werkbank.mutants import checkpoint_problems

    def check():
        problems, report = checkpoint_problems(load_lesson(lesson_id), checkpoint)
        assert problems == []  # a mark without a reason is one too (equivalent_marks)
        return report[:1]

    lesson = next(lesson for lesson in LESSONS if lesson.id == lesson_id)
    digest = inputs_digest([*GRADING_INPUTS, *lesson_inputs(lesson), "werkbank/mutants.py"], versions())
    stamped("mutants", f"{lesson_id}/{checkpoint.id}", digest, check, request=request)


def test_an_equivalence_mark_needs_a_reason(tmp_path):
    (tmp_path / "mutants.toml").write_text('[[equivalent]]\nmutant = "x"\nreason = ""\n', encoding="utf-8")
    with pytest.raises(ValueError, match="reason"):
        equivalent_marks(tmp_path)


TWICE = textwrap.dedent("""
    def first(x):
        if x < 0:
            raise ValueError("negative")
        return x


    def second(x):
        if x < 0:
            raise ValueError("negative")
        if x < 0:
            raise ValueError("negative")
        return -x
""")


def test_a_mutant_id_names_its_function_and_is_unique_in_the_file():
    """The same line in two functions, or twice in one, gives mutants with different ids: a mark names one."""
    found = mutants(TWICE)
    assert len({m.id for m in found}) == len(found)
    swaps = [m.id for m in found if m.operator == "compare" and m.after == "if x <= 0:"]
    assert swaps == [
        "compare in first: if x < 0: -> if x <= 0:",
        "compare in second: if x < 0: -> if x <= 0:",
        "compare in second: if x < 0: -> if x <= 0: (#2)",
    ]


def test_a_mark_without_the_place_that_matches_several_mutants_is_ambiguous(tmp_path):
    """The short form ``compare: a -> b`` names a change wherever it is: one that matches several mutants is
    reported, never applied to all of them."""
    from werkbank.mutants import _matches

    found = mutants(TWICE)
    short = "compare: if x < 0: -> if x <= 0:"
    assert [m.where for m in found if _matches(short, m)] == ["first", "second", "second"]
    assert [m.id for m in found if _matches("compare in first: if x < 0: -> if x <= 0:", m)] == [
        "compare in first: if x < 0: -> if x <= 0:"
    ]


def test_code_a_needed_checkpoint_holds_unchanged_counts_as_carried_over():
    from werkbank.mutants import carried_over

    earlier = "def first(x):\n    return x + 1\n"
    assert carried_over(earlier + "\n\ndef second(x):\n    return first(x) * 2\n", [earlier]) == {"first"}
    assert carried_over("def first(x):\n    return x + 2\n", [earlier]) == set()  # changed: mutated here
