"""The grader worker's entry points (browser, trusted): prepare checkpoints and judge runs, JSON text out.

This interpreter never executes learner code. It holds a lesson's grading bundle (grader modules and reference
solutions, imported from memory), computes each checkpoint's expected outcomes, and judges the run results the
learner worker sends back, which it treats as untrusted data. Learner code runs elsewhere: :mod:`graders.hosts.pyodide`
in another worker. A prepared Check stays here under a ref (:func:`prepare`); the page gets its plan and judges with
the ref, so the expected outcomes never cross to JavaScript.
"""

from __future__ import annotations

import gc
import importlib
import importlib.util
import json
import sys

from graders.engine.case import AuthorError
from graders.engine.judge import (
    UNREADABLE,
    author_error,
    judge as _judge,
    judge_early as _judge_early,
    known_values,
    plot_data,
    read_run,
)
from graders.engine import values
from graders.engine.prepare import prepare as _prepare
from graders.engine.settings import CASE_SEED, FALLBACK_LANGUAGE

#: Loaded lessons: id -> the bundle (``files``, ``solutions``, ``checkpoints``, ``requirements``).
_LESSONS: dict[str, dict] = {}


class _BundleImporter:
    """Imports the grader modules of loaded bundles from their source text (a meta path finder and its loader; not
    derived from importlib.abc, whose import pulls in importlib.resources and tempfile at the grader's boot)."""

    def _find(self, name: str):
        base = name.replace(".", "/")
        for bundle in reversed(_LESSONS.values()):  # the latest loaded first: it replaces what it shares
            files = bundle.get("files", {})
            for candidate, package in ((base + "/__init__.py", True), (base + ".py", False)):
                if candidate in files:
                    return files[candidate], candidate, package
        return None

    def find_spec(self, name, path=None, target=None):
        if not name.startswith("graders.") or name.startswith(("graders.engine", "graders.hosts")):
            return None
        found = self._find(name)
        if found is None:
            return None
        return importlib.util.spec_from_loader(name, self, origin="<grading bundle>", is_package=found[2])

    def create_module(self, spec):
        return None

    def exec_module(self, module):
        source, filename, package = self._find(module.__name__)
        if package:
            module.__path__ = []
        exec(compile(source, f"<grading bundle>/{filename}", "exec"), module.__dict__)


_IMPORTER = _BundleImporter()


def _module_names(files: dict) -> list[str]:
    """The dotted names of a bundle's grader modules (``graders/x/__init__.py`` is ``graders.x``)."""
    names = []
    for path in files:
        if path.endswith(".py") and path.startswith("graders/"):
            parts = path[:-3].split("/")
            names.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return names


def load_lesson(lesson_json: str) -> str:
    """Keep a lesson's grading bundle (the text of ``grading/<lesson>.json``); returns ``{"lesson", "checkpoints"}``."""
    bundle = json.loads(lesson_json)
    lesson_id = bundle["lesson"]
    _LESSONS.pop(lesson_id, None)
    _LESSONS[lesson_id] = bundle  # the latest, whose grader modules the importer finds first
    for ref in [ref for ref in _CHECKS if ref.startswith(lesson_id + "/")]:
        del _CHECKS[ref]  # prepared from the bundle this one replaces
    for name in _module_names(bundle.get("files", {})):
        sys.modules.pop(name, None)  # imported from the bundle this one replaces
    if _IMPORTER not in sys.meta_path:
        sys.meta_path.insert(0, _IMPORTER)
    # No importlib.invalidate_caches(): the importer keeps no cache, and PathFinder's would import importlib.metadata,
    # a slow import during the grader worker's boot.
    return json.dumps({"lesson": lesson_id, "checkpoints": sorted(bundle.get("checkpoints", {}))})


def ref_of(lesson_id: str, checkpoint: str, lang: str) -> str:
    """The ref a lesson's prepared Check is kept under: one per checkpoint and language (the cases are fixed per
    build, so every Check of a checkpoint uses the same one)."""
    return f"{lesson_id}/{checkpoint}/{lang}"


def load_check(ref: str, plan_utf8, key_utf8, author_error: str = "") -> str:
    """Keep a Check the build prepared (its ``plan`` and ``key`` as UTF-8 JSON, a Uint8Array from the worker: one
    copy each), or the author error the build met, under ``ref``; returns ``{"ref"}``. Nothing is computed here:
    the build ran the reference solution on every case (:func:`werkbank.build.prepared_checks`)."""
    if author_error:
        _keep(str(ref), {"author_error": str(author_error)})
    else:
        _keep(str(ref), {"plan": _text_json(plan_utf8), "key": _text_json(key_utf8)})
    return json.dumps({"ref": str(ref)})


def _text_json(data):
    if hasattr(data, "to_bytes"):
        data = data.to_bytes()
    return values.parse_json(data)


def prepare(lesson_id: str, checkpoint: str, lang: str = FALLBACK_LANGUAGE, seed: int = CASE_SEED) -> str:
    """Prepare one Check here (the reference solution runs on every case) and keep it under its ref; returns what
    the page may see, as JSON: ``{"ref", "plan", "plot_case", "time_limit"}`` (``plan`` goes to the learner worker),
    or ``{"ref", "author_error"}``. The site's grader worker loads the Checks its build prepared instead
    (:func:`load_check`); this is how ``werkbank check`` proves, in Pyodide, that the reference gives the same
    expected outcomes there. The key (expected outcomes, texts) never leaves this interpreter: :func:`judge`,
    :func:`plot` and :func:`shrink_start` take the ref. ``lang`` picks the language of the example data."""
    ref = (
        ref_of(lesson_id, checkpoint, lang)
        if int(seed) == CASE_SEED
        else f"{lesson_id}/{checkpoint}/{lang}/{int(seed)}"
    )
    try:
        bundle = _LESSONS[lesson_id]
        checkpoint = str(checkpoint)
        meta = bundle["checkpoints"][checkpoint]
        grader = importlib.import_module(meta["grader"])
        check = _prepare(
            grader,
            bundle["solutions"][checkpoint],
            lesson=lesson_id,
            checkpoint=checkpoint,
            seed=int(seed),
            plot=meta.get("plot", ""),
            lang=lang,
            mistakes=bundle.get("mistakes", {}).get(checkpoint, ()),
        )
    except AuthorError as error:
        check = {"author_error": str(error)}
    except Exception as error:
        check = {"author_error": f"{type(error).__name__}: {error}"}
    _keep(ref, check)
    if "author_error" in check:
        return json.dumps({"ref": ref, "author_error": check["author_error"]})
    key = check["key"]
    return json.dumps(
        {
            "ref": ref,
            "plan": check["plan"],
            "time_limit": key["time_limit"],
            "plot_case": key["plot"]["case"] if key.get("plot") else "",
        }
    )


#: Prepared Checks by ref (see :func:`prepare`, :func:`load_check`), oldest first. The bound only keeps a page that
#: never forgets one from growing this without end.
_CHECKS: dict[str, dict] = {}
MAX_CHECKS = 128


def _keep(ref: str, prepared: dict) -> None:
    if "key" in prepared:  # the expected values a judge takes at C speed when a run returns them just so
        prepared["known"] = known_values(prepared["key"])
    _CHECKS.pop(ref, None)
    _CHECKS[ref] = prepared
    while len(_CHECKS) > MAX_CHECKS:
        del _CHECKS[next(iter(_CHECKS))]
    # A kept Check is ~10^5 objects that live as long as the page: the collector's full collections, which judging
    # a run's thousands of new objects sets off now and then, would walk them all inside a learner's click (timings in
    # docs/performance.md). Frozen, they are left out; a plan and key hold no cycles, so one dropped later is still
    # freed.
    gc.freeze()


def prepared(ref: str) -> dict:
    """The kept ``{plan, key}`` (or ``{author_error}``) of a ref; ``LookupError`` when it was never prepared or has
    been forgotten."""
    try:
        return _CHECKS[str(ref)]
    except KeyError:
        raise LookupError(f"no prepared Check {ref!r}: prepare it again") from None


def forget(ref: str) -> None:
    """Drop a prepared Check the page will not judge again."""
    _CHECKS.pop(str(ref), None)


def _run_of(run_utf8) -> dict | None:
    """The untrusted run result (UTF-8 JSON as bytes, a buffer with ``to_bytes`` such as a Uint8Array, or text) as a
    dict, bounded as :func:`graders.engine.judge.read_run` reads it; None when it could not be read."""
    run = read_run(run_utf8)
    return None if run.get("status") == UNREADABLE else run


def judge(ref: str, run_utf8, lang: str) -> str:
    """The verdict JSON for an (untrusted) run result against a kept Check (or its ``author_error``). The run comes
    as UTF-8 bytes (a Uint8Array from the worker: one copy) or as text."""
    check = prepared(ref)
    if "author_error" in check:
        return json.dumps(author_error(check["author_error"], lang))
    return json.dumps(_judge(check, read_run(run_utf8), lang))


def rehearse(lesson_id: str, checkpoint: str, lang: str) -> str:
    """Run a kept Check's reference over its plan here and judge that run, as a learner's Check would be run and
    judged; returns ``{"source"}``, the reference as a learner worker would run it (``null`` for an author error), so
    the page can rehearse it there too. Nothing is kept: a page's first Check of a checkpoint runs code its engine has
    not made hot yet (much slower than later Checks in WebKit, docs/performance.md), and the page's workers share their
    compiled code, numpy's libraries included, so after this the learner's first Check runs as fast as a later one.
    The reference is trusted code and this interpreter holds it anyway; the sandbox puts everything back."""
    from graders.engine import runner

    ref = ref_of(lesson_id, checkpoint, lang)
    check = prepared(ref)
    if "author_error" in check:
        return "null"
    source = _LESSONS[str(lesson_id)]["solutions"][str(checkpoint)]
    run = runner.run(source, check["plan"])
    judge(ref, runner.result_json(run), lang)
    return json.dumps({"source": source})


def judge_early(ref: str, part_utf8, lang: str) -> str:
    """The early verdict JSON for a part of a run (:func:`graders.engine.judge.judge_early`), ``null`` when that part
    shows no failure (or the Check is an author error: its verdict comes with the whole run)."""
    check = prepared(ref)
    if "author_error" in check:
        return "null"
    return json.dumps(_judge_early(check, read_run(part_utf8), lang))


def plot(ref: str, run_utf8) -> str:
    """The checkpoint's plot data for a run (``null`` when it has none), as JSON."""
    check = prepared(ref)
    run = _run_of(run_utf8)
    if "author_error" in check or run is None:
        return "null"
    return json.dumps(plot_data(check["key"], run))


# ----------------------------------------------------------------------------------------------------- shrinking
# A failing generated case is shown on the smallest input that fails the same way, and a failing case that passes
# when called on its own first is told as a failure across calls. The page drives the rounds (only it can ask the
# learner worker to run code): shrink_start, then per round shrink_round (candidates with expected outcomes: send the
# plan to the learner worker that just ran the learner's code) and shrink_pick.


def shrink_start(ref: str, run_utf8, verdict_json: str) -> str:
    """The shrinking state for a failed verdict of a kept Check, or ``null`` when its failing case is neither one to
    shrink nor one to call on its own (graders.engine.shrink.isolatable)."""
    from graders.engine import shrink

    check = prepared(ref)
    if "author_error" in check:
        return "null"
    key, plan, verdict = check["key"], check["plan"], json.loads(verdict_json)
    run = _run_of(run_utf8)
    if verdict.get("status") != "fail" or run is None:
        return "null"
    case_id = (verdict.get("failure") or {}).get("case")
    plan_case = next((c for c in plan["cases"] if c["id"] == case_id), None)
    if plan_case is None:
        return "null"
    alone, smaller = shrink.isolatable(key, verdict, plan), shrink.shrinkable(key, verdict, plan_case)
    if not (alone or smaller):
        return "null"
    actual = next((o for o in run.get("outcomes", []) if isinstance(o, dict) and o.get("id") == case_id), None)
    return json.dumps(
        {
            "case": plan_case,
            "meta": key["cases"][case_id],
            "attrs": plan.get("attrs", {}),
            "wanted": list(shrink.failure_kind(key["expected"][case_id], actual, key["cases"][case_id].get("abs_tol"))),
            "round": 0,
            "alone": alone,
            "smaller": smaller,
        }
    )


def shrink_round(lesson_id: str, checkpoint: str, state_json: str) -> str:
    """One round's candidates as a prepared ``{plan, key}``, or ``null`` when there is nothing smaller to try."""
    from graders.engine import shrink
    from graders.engine.prepare import prepare_candidates

    state = json.loads(state_json)
    if state["round"] >= shrink.ROUNDS:
        return "null"
    bundle = _LESSONS[lesson_id]
    grader = importlib.import_module(bundle["checkpoints"][str(checkpoint)]["grader"])
    prepared = prepare_candidates(
        grader,
        bundle["solutions"][str(checkpoint)],
        state["case"],
        state["meta"],
        state["attrs"],
        alone=state["alone"] and state["round"] == 0,
        smaller=state["smaller"],
    )
    return json.dumps(prepared) if prepared["plan"]["cases"] else "null"


def shrink_pick(prepared_json: str, run_utf8, verdict_json: str, state_json: str, lang: str) -> str:
    """``{"verdict", "state"}``: the verdict shown on the smallest failing candidate of this round (unchanged when
    none failed the same way) and the state for the next round (``null``: stop). The round's run comes as
    :func:`judge`'s does."""
    from graders.engine import shrink
    from graders.engine.judge import adopt_alone, adopt_shrunk

    candidates, verdict, state = json.loads(prepared_json), json.loads(verdict_json), json.loads(state_json)
    run = _run_of(run_utf8)
    if run is None:
        return json.dumps({"verdict": verdict, "state": None})
    if state["alone"] and state["round"] == 0:
        told = adopt_alone(verdict, candidates, run, lang)
        if told is not verdict or not state["smaller"]:
            return json.dumps({"verdict": told, "state": None})
    round_verdict = _judge(candidates, run, lang)
    best = shrink.smallest_failure(candidates["key"], run, tuple(state["wanted"]), round_verdict["failed_cases"])
    if best is None:
        return json.dumps({"verdict": verdict, "state": None})
    verdict = adopt_shrunk(verdict, candidates, best, run, lang)
    case = next(c for c in candidates["plan"]["cases"] if c["id"] == best)
    following = {**state, "case": case, "meta": candidates["key"]["cases"][best], "round": state["round"] + 1}
    return json.dumps({"verdict": verdict, "state": following})
