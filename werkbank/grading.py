"""Grade a learner's file on the command line: a lesson's checkpoint, the engine core, and the CPython host.

This is the only place that joins the three: :mod:`werkbank.lessons` finds the checkpoint's grader and reference
solution, :func:`graders.engine.prepare.prepare` computes the expected outcomes in this process,
:func:`graders.hosts.cpython.run` runs the learner's code in a child process, and :func:`graders.engine.judge.judge`
writes the verdict.
"""

from __future__ import annotations

import importlib

from graders.engine.case import AuthorError
from graders.engine.judge import author_error, judge
from graders.engine.prepare import prepare
from graders.hosts import cpython
from werkbank.lessons import LessonError, load_lesson


def prepare_checkpoint(checkpoint, *, seed: int = 0, mode: str = "full", lang: str = "en") -> dict:
    """The prepared checkpoint (plan and key) of a :class:`werkbank.lessons.Checkpoint`; raises AuthorError.
    ``mode``: "full" (every generated case) or "sample" (what a Check in the browser runs)."""
    try:
        grader = importlib.import_module(checkpoint.grader)
    except Exception as error:  # the grader module itself fails to import
        raise AuthorError(f"{checkpoint.grader}: {type(error).__name__}: {error}") from None
    return prepare(grader, checkpoint.solution(), lesson=checkpoint.lesson_id, checkpoint=checkpoint.id, seed=seed,
                   plot=checkpoint.plot, mode=mode, lang=lang)


def grade_source(lesson_id: str, checkpoint_id: str, source: str, *, lang: str = "en", seed: int = 0,
                 mode: str = "full") -> dict:
    """Grade ``source`` against a checkpoint; returns the verdict dict (``author_error`` for grader bugs).
    ``mode`` "full" runs every generated case; "sample" the stratified sample a browser Check runs."""
    try:
        checkpoint = load_lesson(lesson_id).checkpoint(checkpoint_id)
    except LessonError as error:
        return author_error(str(error), lang, usage=True)
    try:
        prepared = prepare_checkpoint(checkpoint, seed=seed, mode=mode, lang=lang)
    except AuthorError as error:
        return author_error(str(error), lang)
    run = cpython.run(source, prepared["plan"])
    return judge(prepared, run, lang)
