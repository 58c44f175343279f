"""Every checkpoint of every lesson, in CPython and in Pyodide: the proof `werkbank check` runs.

The list of files comes from one place, :func:`werkbank.check.items` (references, every language's starter,
declared mistakes, alternative solutions under tests/data/<lesson>/alt_*.py), so this test and `check` can never
disagree about what is proven. One test per file, so a failure names the file; then one Pyodide run (Node, the
vendored Pyodide 0.27.7) that requires every reference to give the same expected outcome for every case there. Both
are stamped checks (tests/derived.py): each runs again when what its answer depends on changes.
"""

from __future__ import annotations

import subprocess

import pytest

from tests.derived import GRADING_INPUTS, REPO, inputs_digest, lesson_inputs, stamped, versions
from werkbank.check import (
    feedback_problems,
    items,
    judge_job,
    lint_lesson,
    other_seed_problems,
)
from werkbank.grading import prepared_checkpoint
from werkbank.lessons import load_all

LESSONS = load_all()
ITEMS = items(LESSONS)
_PREPARED: dict = {}


def _prepared(checkpoint):
    key = (checkpoint.lesson_id, checkpoint.id)
    if key not in _PREPARED:
        _PREPARED[key] = prepared_checkpoint(checkpoint, seed=0)
    return _PREPARED[key]


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.id)
def test_lesson_lints_clean(lesson):
    assert lint_lesson(lesson) == []


#: What a file's verdict on the command line depends on besides its lesson's files: the engine and the CPython host,
#: how lessons are read and graded, and the checker's rule for what each kind of file must get.
FILE_INPUTS = (*GRADING_INPUTS, "werkbank/check.py")
_DIGESTS: dict = {}


def _file_digest(lesson) -> str:
    """The inputs' digest of every file of ``lesson`` (its folder, its graders, its alternatives in tests/data)."""
    if lesson.id not in _DIGESTS:
        extra = [f"tests/data/{lesson.id}/**/*"] if (REPO / "tests" / "data" / lesson.id).is_dir() else []
        _DIGESTS[lesson.id] = inputs_digest([*FILE_INPUTS, *lesson_inputs(lesson), *extra], versions())
    return _DIGESTS[lesson.id]


@pytest.mark.parametrize("item", ITEMS, ids=lambda item: item.id)
def test_checkpoint_file(request, item):
    """The file gets what its kind calls for (werkbank.check.judge_job): a reference or an alternative passes every
    case, a starter fails, a declared mistake fails with its own feedback. A stamped check, one stamp per file: run
    again when the file, its lesson, the engine or the checker changes (every file runs on a fresh clone's first
    change to any of them, and in `werkbank check`)."""

    def check():
        from graders.engine.judge import judge
        from graders.hosts import cpython

        prepared = _prepared(item.checkpoint)
        verdict = judge(prepared, cpython.run(item.source(), prepared["plan"]), "en")
        assert judge_job(item.kind, verdict, item.mistake, prepared["key"]["order"]) is None, verdict
        return f"{verdict['status']} {verdict['passed']}/{verdict['total']}"

    stamped("checkpoint-files", item.id, _file_digest(item.lesson), check, helpers=[_prepared], request=request)


def test_every_file_kind_is_in_the_list():
    kinds = {(item.lesson.id, item.kind) for item in ITEMS}
    for lesson in LESSONS:
        assert {(lesson.id, "reference"), (lesson.id, "starter"), (lesson.id, "mistake")} <= kinds
    starters = {(i.lesson.id, i.checkpoint.id, i.lang) for i in ITEMS if i.kind == "starter"}
    for lesson in LESSONS:
        for cp in lesson.checkpoints:
            if any(cp.folder.glob("starter.*.py")):
                assert {(lesson.id, cp.id, lang) for lang in lesson.languages} <= starters


def test_references_pass_with_another_seed(request):
    """check's rule, with its messages: the reference also passes seed 1's cases (the other tests use 0, 3 and 7).
    A stamped check (tests/derived.py): run again when a lesson, the engine or the checker changes."""

    def check():
        for lesson in LESSONS:
            for checkpoint in lesson.checkpoints:
                assert other_seed_problems(checkpoint, 1) == []
        return {"checkpoints": sum(len(lesson.checkpoints) for lesson in LESSONS)}

    inputs = [*GRADING_INPUTS, "werkbank/check.py", *(path for lesson in LESSONS for path in lesson_inputs(lesson))]
    stamped("references-other-seeds", "seed 1", inputs_digest(inputs, versions()), check, request=request)


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.id)
def test_no_trivial_program_gets_a_mistakes_feedback(lesson, request):
    """check's rule, with its messages: a program that returns its input, a constant or raises ValueError is shown
    no declared mistake's feedback. A stamped check: run again when the lesson, the engine or the checker changes."""

    def check():
        for checkpoint in lesson.checkpoints:
            assert feedback_problems(checkpoint, _prepared(checkpoint)) == []
        return {"checkpoints": len(lesson.checkpoints)}

    inputs = [*GRADING_INPUTS, "werkbank/check.py", *lesson_inputs(lesson)]
    stamped(
        "trivial-programs", lesson.id, inputs_digest(inputs, versions()), check, helpers=[_prepared], request=request
    )


#: Everything the Pyodide run's answer depends on besides the lessons (tests/derived.py): the engine and both hosts as
#: the workers load them, the Node script that runs them and what it loads, and the Pyodide it boots (its npm package
#: and lock, with the wheels the lock pins).
PARITY_INPUTS = (
    *GRADING_INPUTS,
    "graders/hosts/*.py",
    "werkbank/check.py",
    "werkbank/parity.py",
    "werkbank/build.py",
    "werkbank/node/*",
    "werkbank/vendor/*.py",
    "package-lock.json",
    "node_modules/pyodide/package.json",
    "node_modules/pyodide/pyodide-lock.json",
)


def test_every_reference_gives_the_same_expected_outcomes_in_pyodide(request):
    """The build prepares every Check in CPython, and the browser judges with those expected outcomes: so in Pyodide
    (Node, the vendored Pyodide 0.27.7) every reference must generate the same cases and give the same outcome for
    each. That every file then gets the same verdict in the browser as on the command line is proven through the
    site's own workers (tests/browser/test_one_verdict.py); `werkbank check` grades every file in Node too.
    A stamped check: run again when a lesson, the engine, the hosts, the checker or the Pyodide version changed."""

    def check():
        from werkbank.check import reference_parity_problems
        from werkbank.parity import run_pyodide

        prepare = [
            {"lesson": lesson.id, "checkpoint": cp.id, "seed": 0, "lang": "en"}
            for lesson in LESSONS
            for cp in lesson.checkpoints
        ]
        theirs, _ = run_pyodide(LESSONS, [], prepare)
        problems = []
        for lesson in LESSONS:
            for cp in lesson.checkpoints:
                mine = _prepared(cp)["key"]["expected"]
                problems += reference_parity_problems(cp, mine, theirs.get((lesson.id, cp.id, 0), {}))[0]
        assert problems == []
        return {"checkpoints": len(prepare)}

    node = subprocess.run(["node", "--version"], capture_output=True, text=True).stdout.strip()
    inputs = [*PARITY_INPUTS, *(path for lesson in LESSONS for path in lesson_inputs(lesson))]
    stamped(
        "pyodide-parity",
        "expected outcomes, seed 0",
        inputs_digest(inputs, {**versions(), "node": node}),
        check,
        helpers=[_prepared],
        request=request,
    )
