"""Grade a learner's file on the command line: a lesson's checkpoint, the engine core, and the CPython host.

This is the only place that joins the three: :mod:`werkbank.lessons` finds the checkpoint's grader and reference
solution, :func:`graders.engine.prepare.prepare` computes the expected outcomes in this process,
:func:`graders.hosts.cpython.run` runs the learner's code in a child process, and :func:`graders.engine.judge.judge`
writes the verdict.
"""

from __future__ import annotations

import ast
import hashlib
import importlib
import json
import os
import pickle
from collections import OrderedDict
from pathlib import Path

from graders.engine import shrink
from graders.engine.case import AuthorError
from graders.engine.i18n import text
from graders.engine.judge import adopt_alone, adopt_shrunk, author_error, judge
from graders.engine.prepare import prepare, prepare_candidates
from graders.engine.settings import CASE_SEED, FALLBACK_LANGUAGE, LEAST_ROUND_SECONDS
from graders.hosts import cpython
from werkbank.lessons import LessonError, grader_root, load_lesson

_GRADERS = Path(__file__).resolve().parent.parent / "graders"
_OWN = [Path(__file__).resolve(), Path(__file__).resolve().parent / "lessons.py"]
#: Where prepared checkpoints are kept between processes, when set (the test suite sets it: its processes then prepare
#: each checkpoint once); unset, each process prepares for itself.
CACHE_ENV = "WERKBANK_PREPARED_CACHE"
#: Checkpoints :func:`prepared_checkpoint` made or read in this process (pickled), by everything their preparation
#: reads (see :func:`_inputs`): a process that grades many files against one checkpoint prepares it once. Bounded;
#: the oldest goes first.
_PREPARED: OrderedDict = OrderedDict()
_PREPARED_LIMIT = 24


def _inputs(checkpoint, seed: int, lang: str) -> str:
    """A digest of what preparing ``checkpoint`` reads: the graders (engine, hosts, lesson packages), the lesson's
    folder (solution, mistakes, starters, lesson.toml), the code that reads it, the seed and the language, and the
    Python and numpy that run it. Equal digests give equal prepared checkpoints."""
    import sys

    import numpy

    package = grader_root(checkpoint.grader).joinpath(*checkpoint.grader.split(".")[1:-1])  # the module's folder
    head = [checkpoint.lesson_id, checkpoint.id, checkpoint.grader, seed, lang, sys.version, numpy.__version__]
    digest = hashlib.sha256(repr(head).encode())
    files = set(_OWN)
    for folder in (_GRADERS, checkpoint.folder.parent, package):
        files.update(p for p in folder.rglob("*") if p.is_file() and "__pycache__" not in p.parts)
    for path in sorted(files):
        digest.update(str(path).encode() + b"\0" + hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()


def prepared_checkpoint(checkpoint, *, seed: int = CASE_SEED, lang: str = FALLBACK_LANGUAGE) -> dict:
    """:func:`prepare_checkpoint`, made once per process (or per ``$WERKBANK_PREPARED_CACHE`` folder) for the same
    inputs; each caller gets its own copy to change as it likes. Raises AuthorError as that does."""
    key = _inputs(checkpoint, seed, lang)
    data = _PREPARED.get(key)
    folder = os.environ.get(CACHE_ENV)
    # on disk as JSON, which reading never runs code from (a pickle would run what its bytes say)
    path = Path(folder) / f"{key}.json" if folder else None
    if data is None and path is not None and path.is_file():
        try:
            stored = json.loads(path.read_bytes())
        except ValueError:
            stored = None
        if type(stored) is dict and type(stored.get("plan")) is dict and type(stored.get("key")) is dict:
            data = pickle.dumps(stored, protocol=pickle.HIGHEST_PROTOCOL)
    if data is None:
        prepared = prepare_checkpoint(checkpoint, seed=seed, lang=lang)
        data = pickle.dumps(prepared, protocol=pickle.HIGHEST_PROTOCOL)
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
            partial = path.with_suffix(f".{os.getpid()}.tmp")
            partial.write_text(json.dumps(prepared))
            partial.replace(path)  # whole or not at all: another process may read it now
    _PREPARED[key] = data
    _PREPARED.move_to_end(key)
    while len(_PREPARED) > _PREPARED_LIMIT:
        _PREPARED.popitem(last=False)
    return pickle.loads(data)


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
        run=lambda source, plan: cpython.run(source, plan, trusted=True),
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
        lesson = load_lesson(lesson_id)
        checkpoint = lesson.checkpoint(checkpoint_id)
    except LessonError as error:
        return author_error(str(error), lang, usage=True)
    try:
        prepared = prepared_checkpoint(checkpoint, seed=seed, lang=lang)
    except AuthorError as error:
        return author_error(str(error), lang)
    run = cpython.run(source, prepared["plan"])
    verdict = judge(prepared, run, lang)
    if shrink_failures and verdict["status"] == "fail":
        try:
            verdict = shrink_verdict(checkpoint, prepared, run, verdict, source, lang)
        except Exception:  # noqa: BLE001 - as in the browser: shrinking only improves a verdict, never loses it
            pass
    if verdict["status"] != "pass" and checkpoint.needs:
        missing = _needed_names(lesson, checkpoint, source)
        if missing:
            verdict.setdefault("notes", []).append(
                text(
                    "note_needs",
                    lang,
                    checkpoint=checkpoint.id,
                    needs=", ".join(checkpoint.needs),
                    names=", ".join(missing[:5]) + (", …" if len(missing) > 5 else ""),
                )
            )
    return verdict


def _top_level_names(source: str) -> set[str] | None:
    """:func:`bound_names` of ``source``; None when it does not parse."""
    try:
        return bound_names(ast.parse(source))
    except (SyntaxError, ValueError, RecursionError, MemoryError):  # the last two: nested too deeply to parse
        return None


def bound_names(tree: ast.Module) -> set[str]:
    """The names a module's top level binds: functions, classes, assignments, imports."""
    names = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names.update((a.asname or a.name).split(".")[0] for a in node.names)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names.update(t.id for t in targets if isinstance(t, ast.Name))
    return names


def _needed_names(lesson, checkpoint, source: str) -> list[str]:
    """The public functions and classes the references of the checkpoints ``checkpoint`` builds on define (what
    :func:`werkbank.mutants.carried_over` counts as carried) and ``source`` binds in no way: the page runs the
    learner's code of those checkpoints first, a file given to ``werkbank grade`` must hold it."""
    from werkbank.mutants import definitions

    have = _top_level_names(source)
    if have is None:
        return []
    needed: set[str] = set()
    for need in checkpoint.needs:
        needed |= set(definitions(lesson.checkpoint(need).solution()))
    return sorted(n for n in needed - have if not n.startswith("_"))


def shrink_verdict(checkpoint, prepared: dict, run: dict, verdict: dict, source: str, lang: str) -> dict:
    """Rounds of shrinking (:mod:`graders.engine.shrink`): each runs the learner's code on smaller inputs in a child
    process and keeps the smallest that fails the way the original case failed. The first round also calls the
    failing case on its own first: when it passes there, the failure is told as one across calls instead. All rounds
    together get the checkpoint's time limit once, so code that hangs on smaller inputs delays its verdict by at
    most that."""
    import importlib
    import time

    case_id = verdict["failure"]["case"]
    key = prepared["key"]
    plan_case = next(c for c in prepared["plan"]["cases"] if c["id"] == case_id)
    alone = shrink.isolatable(key, verdict, prepared["plan"])
    smaller = shrink.shrinkable(key, verdict, plan_case)
    actual = next((o for o in run.get("outcomes", []) if o.get("id") == case_id), None)
    wanted = shrink.failure_kind(key["expected"][case_id], actual, key["cases"][case_id].get("abs_tol"))
    meta = key["cases"][case_id]
    grader = importlib.import_module(checkpoint.grader)
    deadline = time.monotonic() + float(key["time_limit"])
    for number in range(shrink.ROUNDS if smaller else int(alone)):
        first = alone and number == 0
        left = deadline - time.monotonic()
        if left < LEAST_ROUND_SECONDS:
            break
        round_prepared = prepare_candidates(
            grader, checkpoint.solution(), plan_case, meta, prepared["plan"]["attrs"], alone=first, smaller=smaller
        )
        if not round_prepared["plan"]["cases"]:
            break
        left = max(deadline - time.monotonic(), 0.01)
        round_run = cpython.run(source, round_prepared["plan"], time_limit=left, wall=left)
        if first:
            told = adopt_alone(verdict, round_prepared, round_run, lang)
            if told is not verdict:
                return told
        round_verdict = judge(round_prepared, round_run, lang)
        best = shrink.smallest_failure(round_prepared["key"], round_run, wanted, round_verdict["failed_cases"])
        if best is None:
            break
        verdict = adopt_shrunk(verdict, round_prepared, best, round_run, lang)
        plan_case = next(c for c in round_prepared["plan"]["cases"] if c["id"] == best)
        meta = round_prepared["key"]["cases"][best]
    return verdict
