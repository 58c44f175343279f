"""Build a checkpoint's cases and compute every expected outcome with the reference solution.

This runs before any learner code. The result has two parts: ``plan`` (the cases' calls and inputs, which the runner
gets) and ``key`` (expected outcomes, explanations, hints, each call as text), which the host keeps away from learner
code and hands to :func:`graders.engine.judge.judge` afterwards.
Anything wrong with the grader module or the reference solution raises :class:`AuthorError`.
"""

from __future__ import annotations

import copy
import random
import sys
import types
import warnings

from . import values
from .case import AuthorError, Case
from .settings import DEFAULT_TIME_LIMIT, MAX_CASES
from .runner import resolve  # the same resolution rules as for learners



def load_reference(source: str, name: str = "reference_solution") -> types.ModuleType:
    """Execute the reference solution as a fresh module (registered while it runs, so dataclasses work)."""
    module = types.ModuleType(name)
    module.__file__ = "solution.py"
    sys.modules[name] = module
    try:
        exec(compile(source, "solution.py", "exec", dont_inherit=True), module.__dict__)
    except Exception as error:
        raise AuthorError(f"the reference solution fails to load: {type(error).__name__}: {error}") from None
    return module


def collect_cases(grader: types.ModuleType, seed: int) -> list[Case]:
    """The grader's curated cases, then ``RANDOM_CASES`` seeded random ones. Ids must be unique."""
    try:
        cases = list(grader.curated())
        count = int(getattr(grader, "RANDOM_CASES", 0))
        if count and hasattr(grader, "random_cases"):
            cases.extend(grader.random_cases(random.Random(seed), count))
    except AuthorError:
        raise
    except Exception as error:
        raise AuthorError(f"the grader fails while building its cases: {type(error).__name__}: {error}") from None
    if not cases:
        raise AuthorError("the grader declares no cases")
    if len(cases) > MAX_CASES:
        raise AuthorError(f"the grader declares {len(cases)} cases; at most {MAX_CASES}")
    seen = set()
    for case in cases:
        if not isinstance(case, Case):
            raise AuthorError(f"the grader yielded {type(case).__name__}, not a Case")
        case.validate()
        if case.id in seen:
            raise AuthorError(f"case id {case.id!r} is used twice")
        seen.add(case.id)
    return cases


def _attrs_of(w, found: dict) -> None:
    """Record, for every object in the wire value ``w``, which attributes the reference object has."""
    if not isinstance(w, list) or not w:
        return
    tag = w[0]
    if tag == "object":
        found.setdefault(w[1], [name for name, _ in w[2]])
        for _, v in w[2]:
            _attrs_of(v, found)
    elif tag in ("list", "tuple", "set", "frozenset"):
        for v in w[1]:
            _attrs_of(v, found)
    elif tag == "dict":
        for k, v in w[1]:
            _attrs_of(k, found)
            _attrs_of(v, found)


def _has_foreign(w) -> bool:
    if not isinstance(w, list) or not w:
        return False
    if w[0] in ("foreign", "object"):
        return True
    return any(_has_foreign(v) for v in w[1:] if isinstance(v, list))


def _reference_outcome(module, case: Case, allowed: tuple) -> dict:
    try:
        target = resolve(module.__dict__, case.call)
    except (LookupError, AttributeError):
        raise AuthorError(f"case {case.id}: the reference solution has no {case.call}") from None
    args, kwargs = copy.deepcopy(case.args), copy.deepcopy(case.kwargs)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result = target(*args, **kwargs)
        except allowed as error:
            mro = [c.__name__ for c in type(error).__mro__ if c.__module__ == "builtins"]
            outcome = {"kind": "raise", "exc": mro[0], "builtin_mro": mro, "message": str(error)}
        except Exception as error:
            raise AuthorError(f"case {case.id}: the reference solution raised {type(error).__name__}: {error}") \
                from None
        else:
            outcome = {"kind": "return", "value": values.encode(result)}
            if outcome["value"][0] == "foreign":
                raise AuthorError(f"case {case.id}: the reference returned a {type(result).__name__}, "
                                  "which the engine cannot compare")
    if case.forbid_warnings and caught:
        raise AuthorError(f"case {case.id}: forbids warnings, but the reference emitted "
                          f"{sorted({w.category.__name__ for w in caught})}")
    return outcome


def prepare(grader: types.ModuleType, reference_source: str, *, lesson: str, checkpoint: str, seed: int,
            entry: tuple = (), plot: str = "") -> dict:
    """Cases, inputs and expected outcomes for one checkpoint; see the module docstring."""
    cases = collect_cases(grader, seed)
    allowed = tuple(getattr(grader, "EXPECTED_EXCEPTIONS", (ValueError,)))
    name = "reference_solution"
    module = load_reference(reference_source, name)
    try:
        expected = {}
        for case in cases:
            expected[case.id] = _reference_outcome(module, case, allowed)
    finally:
        sys.modules.pop(name, None)
    attrs: dict = {}
    for outcome in expected.values():
        if outcome["kind"] == "return":
            _attrs_of(outcome["value"], attrs)
    plan_cases = []
    for case in cases:
        try:
            args, kwargs = values.encode(case.args), values.encode(case.kwargs)
        except Exception as error:
            raise AuthorError(f"case {case.id}: its arguments cannot be encoded: {error}") from None
        if _has_foreign(args) or _has_foreign(kwargs):
            raise AuthorError(f"case {case.id}: its arguments hold a type the engine cannot pass on")
        plan_cases.append({"id": case.id, "call": case.call, "args": args, "kwargs": kwargs})
    plot_case = getattr(grader, "PLOT_CASE", None)
    if plot_case is not None and plot_case not in expected:
        raise AuthorError(f"PLOT_CASE {plot_case!r} is not a case id")
    time_limit = float(getattr(grader, "TIME_LIMIT", DEFAULT_TIME_LIMIT))
    return {
        # What the runner gets: calls and inputs only.
        "plan": {"mode": "check", "cases": plan_cases, "attrs": attrs, "time_limit": time_limit,
                 "entry": list(entry)},
        # What the judge gets, and learner code never: expected outcomes and the texts about each case.
        "key": {
            "lesson": lesson,
            "checkpoint": checkpoint,
            "seed": seed,
            "time_limit": time_limit,
            "order": [case.id for case in cases],
            "expected": expected,
            "cases": {case.id: {"explain": case.explain, "hint": case.hint, "message": case.message,
                                "forbid_warnings": case.forbid_warnings, "call": values.show_call(item["call"], item["args"],
                                                                                         item["kwargs"])}
                      for case, item in zip(cases, plan_cases)},
            "plot": {"kind": plot, "case": plot_case} if plot and plot_case else None,
        },
    }
