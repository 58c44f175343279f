"""Grade a learner's file on the command line: a lesson's checkpoint, the engine core, and the CPython host.

This is the only place that joins the three: :mod:`werkbank.lessons` finds the checkpoint's grader and reference
solution, :func:`graders.engine.prepare.prepare` computes the expected outcomes in this process,
:func:`graders.hosts.cpython.run` runs the learner's code in a child process, and :func:`graders.engine.judge.judge`
writes the verdict.
"""

from __future__ import annotations

import importlib

from graders.engine import shrink
from graders.engine.case import AuthorError
from graders.engine.judge import adopt_shrunk, author_error, judge
from graders.engine.prepare import prepare, prepare_candidates
from graders.engine.settings import CASE_SEED, FALLBACK_LANGUAGE
from graders.hosts import cpython
from werkbank.lessons import LessonError, load_lesson


def prepare_checkpoint(checkpoint, *, seed: int = CASE_SEED, lang: str = FALLBACK_LANGUAGE) -> dict:
    """The prepared checkpoint (plan and key) of a :class:`werkbank.lessons.Checkpoint`; raises AuthorError. With
    the default seed these are the very cases a Check in the browser runs (the build prepares them the same way)."""
    try:
        grader = importlib.import_module(checkpoint.grader)
    except Exception as error:  # the grader module itself fails to import
        raise AuthorError(f"{checkpoint.grader}: {type(error).__name__}: {error}") from None
    # declared mistakes run as learners' programs do, in a child process with the fixed hash seed: the record of
    # where each fails is then the same in every process that prepares the checkpoint (the build, werkbank grade)
    return prepare(
        grader,
        checkpoint.solution(),
        lesson=checkpoint.lesson_id,
        checkpoint=checkpoint.id,
        seed=seed,
        plot=checkpoint.plot,
        lang=lang,
        mistakes=checkpoint.mistake_feedback(),
        run=lambda source, plan: cpython.run(source, plan),
    )


def grade_source(
    lesson_id: str,
    checkpoint_id: str,
    source: str,
    *,
    lang: str = FALLBACK_LANGUAGE,
    seed: int = CASE_SEED,
    shrink_failures: bool = True,
) -> dict:
    """Grade ``source`` against a checkpoint; returns the verdict dict (``author_error`` for grader bugs), the same
    one a Check in the browser gives. With ``shrink_failures`` a failing case is shown on the smallest input found
    that fails the same way."""
    try:
        checkpoint = load_lesson(lesson_id).checkpoint(checkpoint_id)
    except LessonError as error:
        return author_error(str(error), lang, usage=True)
    try:
        prepared = prepare_checkpoint(checkpoint, seed=seed, lang=lang)
    except AuthorError as error:
        return author_error(str(error), lang)
    run = cpython.run(source, prepared["plan"])
    verdict = judge(prepared, run, lang)
    if (
        shrink_failures
        and verdict["status"] == "fail"
        and shrink.shrinkable(
            prepared["key"],
            verdict,
            next(c for c in prepared["plan"]["cases"] if c["id"] == verdict["failure"]["case"]),
        )
    ):
        try:
            verdict = shrink_verdict(checkpoint, prepared, run, verdict, source, lang)
        except Exception:  # noqa: BLE001 - as in the browser: shrinking only improves a verdict, never loses it
            pass
    return verdict


def shrink_verdict(checkpoint, prepared: dict, run: dict, verdict: dict, source: str, lang: str) -> dict:
    """Rounds of shrinking (:mod:`graders.engine.shrink`): each runs the learner's code on smaller inputs in a child
    process and keeps the smallest that fails the way the original case failed."""
    import importlib

    case_id = verdict["failure"]["case"]
    key = prepared["key"]
    plan_case = next(c for c in prepared["plan"]["cases"] if c["id"] == case_id)
    actual = next((o for o in run.get("outcomes", []) if o.get("id") == case_id), None)
    wanted = shrink.failure_kind(key["expected"][case_id], actual)
    meta = key["cases"][case_id]
    grader = importlib.import_module(checkpoint.grader)
    for _ in range(shrink.ROUNDS):
        round_prepared = prepare_candidates(grader, checkpoint.solution(), plan_case, meta, prepared["plan"]["attrs"])
        if not round_prepared["plan"]["cases"]:
            break
        round_run = cpython.run(source, round_prepared["plan"])
        round_verdict = judge(round_prepared, round_run, lang)
        best = shrink.smallest_failure(round_prepared["key"], round_run, wanted, round_verdict["failed_cases"])
        if best is None:
            break
        verdict = adopt_shrunk(verdict, round_prepared, best, round_run, lang)
        plan_case = next(c for c in round_prepared["plan"]["cases"] if c["id"] == best)
        meta = round_prepared["key"]["cases"][best]
    return verdict
