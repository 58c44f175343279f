"""Build a checkpoint's cases and compute every expected outcome with the reference solution.

This runs before any learner code. The result has two parts: ``plan`` (the cases' calls and inputs, which the runner
gets) and ``key`` (expected outcomes, explanations, hints, each call as text), which the host keeps away from learner
code and hands to :func:`graders.engine.judge.judge` afterwards.

The cases are, in order: the grader's curated cases; its random valid cases (``RANDOM_CASES``, from its own
``random_cases(rng, count)`` or drawn from its ``DOMAIN``); then, when the grader declares a ``DOMAIN``, the generated
adversarial cases (:mod:`graders.engine.generate`). The same grader, reference, seed and language always give the
same cases in the same order, on every platform: a Check in the browser, ``werkbank grade`` and ``werkbank check``
run exactly this set (the build computes it once, :mod:`werkbank.build`).
Anything wrong with the grader module or the reference solution raises :class:`AuthorError`.
"""

from __future__ import annotations

import re
import copy
import inspect
import random
import sys
import types
import warnings

from . import values
from .case import AuthorError, Case
from .domain import Domain
from .generate import Base, generate, random_bases
from .runner import resolve  # the same rules as for learners
from .settings import CASE_SEED, DEFAULT_TIME_LIMIT, FALLBACK_LANGUAGE, MAX_CASES, OUTCOME_FLAGS


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


def _curated(grader: types.ModuleType, lang: str):
    """``curated()``, or ``curated(lang)`` for graders whose example data is written per language."""
    function = grader.curated
    try:
        takes_lang = len(inspect.signature(function).parameters) >= 1
    except (TypeError, ValueError):
        takes_lang = False
    return function(lang) if takes_lang else function()


def domains_of(grader: types.ModuleType) -> list[Domain]:
    """The grader's declared input domains (``DOMAIN`` or ``DOMAINS``), checked."""
    found = getattr(grader, "DOMAINS", None)
    if found is None:
        found = [grader.DOMAIN] if getattr(grader, "DOMAIN", None) is not None else []
    found = list(found)
    for domain in found:
        if not isinstance(domain, Domain):
            raise AuthorError(f"DOMAIN must be a graders.engine.domain.Domain, not {type(domain).__name__}")
    return found


def collect_cases(grader: types.ModuleType, seed: int, lang: str = FALLBACK_LANGUAGE) -> list[Case]:
    """The grader's curated cases, then ``RANDOM_CASES`` seeded random ones. Ids must be unique."""
    try:
        cases = list(_curated(grader, lang))
        count = int(getattr(grader, "RANDOM_CASES", 0))
        if count and hasattr(grader, "random_cases"):
            cases.extend(grader.random_cases(random.Random(seed), count))
        elif count:
            for domain in domains_of(grader):
                for base in random_bases(domain, random.Random(f"{seed}:{domain.call}:random"), count):
                    cases.append(
                        Case(
                            id=f"{base.id}" if len(domains_of(grader)) == 1 else f"{domain.call}-{base.id}",
                            call=domain.call,
                            args=base.args,
                            kwargs=base.kwargs,
                            explain=_RANDOM_EXPLAIN,
                        )
                    )
    except AuthorError:
        raise
    except Exception as error:
        raise AuthorError(f"the grader fails while building its cases: {type(error).__name__}: {error}") from None
    if not cases:
        raise AuthorError("the grader declares no cases")
    seen = set()
    for case in cases:
        if not isinstance(case, Case):
            raise AuthorError(f"the grader yielded {type(case).__name__}, not a Case")
        case.validate()
        if case.id in seen:
            raise AuthorError(f"case id {case.id!r} is used twice")
        seen.add(case.id)
    return cases


_RANDOM_EXPLAIN = {
    "en": "A random valid input drawn from the task's rules.",
    "nl": "Een willekeurige geldige invoer volgens de regels van de opdracht.",
    "ar": "إدخال صالح عشوائي وفق قواعد المهمة.",
}


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


class Reference:
    """The reference solution, loaded once; :meth:`outcome` runs it on deep copies of a case's inputs."""

    def __init__(self, source: str, allowed: tuple):
        self.name = "reference_solution"
        self.module = load_reference(source, self.name)
        self.allowed = allowed

    def close(self) -> None:
        sys.modules.pop(self.name, None)

    def defaults(self, domain: Domain) -> dict:
        """The default values of the reference's ``domain.call`` by parameter name. A domain whose parameter names
        are not the reference's is an author error: generated calls pass arguments by those names."""
        try:
            target = resolve(self.module.__dict__, domain.call)
            signature = inspect.signature(target)
        except (LookupError, AttributeError):
            raise AuthorError(f"DOMAIN {domain.call}: the reference solution has no {domain.call}") from None
        except (TypeError, ValueError):
            return {}
        params = [
            p
            for p in signature.parameters.values()
            if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY, p.POSITIONAL_ONLY)
        ]
        named = [p.name for p in params]
        for param in domain.params:
            if param.name not in named:
                raise AuthorError(
                    f"DOMAIN {domain.call}: parameter {param.name!r} is not a parameter of the "
                    f"reference's {domain.call}{signature}"
                )
        return {p.name: p.default for p in params if p.default is not p.empty}

    def outcome(self, case_id: str, call: str, args, kwargs, *, forbid_warnings: bool = False) -> dict:
        try:
            target = resolve(self.module.__dict__, call)
        except (LookupError, AttributeError):
            raise AuthorError(f"case {case_id}: the reference solution has no {call}") from None
        # The reference gets exactly what a learner's call gets: the inputs as the plan carries them, decoded (a
        # numpy.float64 travels as a float, for one). Inputs the wire cannot carry are an author error later on.
        before = values.encode((tuple(args), dict(kwargs)))
        if _has_foreign(before):
            args, kwargs = copy.deepcopy(args), copy.deepcopy(kwargs)
        else:
            args, kwargs = values.decode(before)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                result = target(*args, **kwargs)
            except self.allowed as error:
                mro = [c.__name__ for c in type(error).__mro__ if c.__module__ == "builtins"]
                outcome = {"kind": "raise", "exc": mro[0], "builtin_mro": mro, "message": str(error)}
            except Exception as error:
                raise AuthorError(
                    f"case {case_id}: the reference solution raised {type(error).__name__}: {error}"
                ) from None
            else:
                outcome = {"kind": "return", "value": values.encode(result)}
                if outcome["value"][0] == "foreign":
                    raise AuthorError(
                        f"case {case_id}: the reference returned a {type(result).__name__}, "
                        "which the engine cannot compare"
                    )
        if not values.as_passed(values.encode((tuple(args), dict(kwargs))), before):
            raise AuthorError(
                f"case {case_id}: the reference solution changes its arguments; learners are "
                "failed for that, so the reference must not"
            )
        if forbid_warnings and caught:
            raise AuthorError(
                f"case {case_id}: forbids warnings, but the reference emitted "
                f"{sorted({w.category.__name__ for w in caught})}"
            )
        return outcome


def _encode_inputs(case_id: str, args, kwargs) -> tuple:
    try:
        wire_args, wire_kwargs = values.encode(tuple(args)), values.encode(dict(kwargs))
    except Exception as error:
        raise AuthorError(f"case {case_id}: its arguments cannot be encoded: {error}") from None
    if _has_foreign(wire_args) or _has_foreign(wire_kwargs):
        raise AuthorError(f"case {case_id}: its arguments hold a type the engine cannot pass on")
    return wire_args, wire_kwargs


def _label(case: Case) -> dict:
    """A short label per language: the case's ``title``, else the first clause of its explanation."""
    if case.title:
        return dict(case.title)
    out = {}
    for lang, text in case.explain.items():
        head = _first_clause(text).strip().rstrip(".")
        if len(head) > 90:  # cut at a word's end, not inside one
            cut = head[:88]
            head = (cut.rsplit(" ", 1)[0] if " " in cut[40:] else cut).rstrip(" ,;،؛") + "…"
        out[lang] = head
    return out


_OPENERS, _CLOSERS = "([{", ")]}"


def _first_clause(text: str) -> str:
    """``text`` up to its first ". ", ": " or "; " (Arabic's "؛ " too) outside brackets: "One fact row (source s1:
    blue)" stays whole, and so does a list of numbers written with decimal commas ("scores 0,1; 0,4 en 0,7")."""
    depth = 0
    for i, ch in enumerate(text):
        if ch in _OPENERS:
            depth += 1
        elif ch in _CLOSERS:
            depth = max(0, depth - 1)
        elif ch in ".:;؛" and depth == 0 and text[i + 1 : i + 2] == " ":
            if ch in ";؛" and text[i - 1 : i].isdigit() and text[i + 2 : i + 3].isdigit():
                continue  # numbers listed with decimal commas, as Dutch writes them
            return text[:i]
    return text


def plan_entry(case_id: str, call: str, wire_args: list, wire_kwargs: list) -> dict:
    """One case of a plan: its inputs as JSON text (``json``) when they hold only JSON types, which the runner reads
    at C speed, else in the typed wire encoding (``args``, ``kwargs``)."""
    plain = values.as_json(wire_args, wire_kwargs)
    if plain is not None:
        return {"id": case_id, "call": call, "json": plain}
    return {"id": case_id, "call": call, "args": wire_args, "kwargs": wire_kwargs}


def prepare(
    grader: types.ModuleType,
    reference_source: str,
    *,
    lesson: str,
    checkpoint: str,
    seed: int = CASE_SEED,
    plot: str = "",
    lang: str = FALLBACK_LANGUAGE,
    mistakes=(),
    run=None,
) -> dict:
    """Cases, inputs and expected outcomes for one checkpoint; see the module docstring. ``mistakes``: declared
    mistakes with feedback (``{"name", "source", "feedback", "expect_status"}``); the key records where each fails
    and what it gives there, so the judge can tell a learner who makes that mistake what it means. ``run(source,
    plan) -> run result`` runs a mistake's program the way a host runs a learner's (default: here, with
    :func:`graders.engine.runner.run`); a host that fixes the hash seed makes the record the same in every process
    (a wrong program may iterate a set of strings)."""
    cases = collect_cases(grader, seed, lang)
    allowed = tuple(getattr(grader, "EXPECTED_EXCEPTIONS", (ValueError,)))
    reference = Reference(reference_source, allowed)
    plan_cases, metas, expected, order = [], {}, {}, []

    def add(case_id, call, args, kwargs, outcome, meta, refill=None):
        wire_args, wire_kwargs = _encode_inputs(case_id, args, kwargs)
        entry = plan_entry(case_id, call, wire_args, wire_kwargs)
        if refill is not None:
            entry["refill"] = refill
        plan_cases.append(entry)
        metas[case_id] = meta
        expected[case_id] = outcome
        order.append(case_id)

    try:
        for case in cases:
            outcome = reference.outcome(
                case.id, case.call, case.args, case.kwargs, forbid_warnings=case.forbid_warnings
            )
            if case.explain == _RANDOM_EXPLAIN and outcome["kind"] != "return":
                raise AuthorError(
                    f"case {case.id}: a random input drawn from the DOMAIN of {case.call}, yet the reference raises "
                    f"{outcome['exc']} ({outcome['message']}): declare the task's rule in the domain (unique=, "
                    "aligned=, min_len=/max_len=, lo=/hi=) so that random inputs stay valid"
                )
            if case.message and outcome["kind"] == "raise" and not _matches(case.message, outcome["message"]):
                raise AuthorError(
                    f"case {case.id}: its message pattern {case.message!r} does not match the reference's "
                    f"{outcome['exc']} message {outcome['message'][:200]!r}: change the pattern (a regular "
                    "expression searched in the message) or the reference's message"
                )
            if case.message and outcome["kind"] != "raise":
                raise AuthorError(
                    f"case {case.id}: it has a message pattern ({case.message!r}), but the reference returns a value "
                    "there: a message pattern is for a case whose expected outcome is an exception"
                )
            add(
                case.id,
                case.call,
                case.args,
                case.kwargs,
                outcome,
                {
                    "explain": case.explain,
                    "hint": case.hint,
                    "label": _label(case),
                    "message": case.message,
                    "forbid_warnings": case.forbid_warnings,
                },
            )
        for domain in domains_of(grader):
            bases = [
                Base(case.id, case.args, case.kwargs)
                for case in cases
                if case.call == domain.call and expected[case.id]["kind"] == "return"
            ]
            if not bases:
                raise AuthorError(
                    f"DOMAIN {domain.call}: no curated case of {domain.call} returns a value, so "
                    "there is nothing valid to derive variants from"
                )

            def run_reference(generated):
                return reference.outcome(generated.id, generated.call, generated.args, generated.kwargs)

            defaults = reference.defaults(domain)
            for generated, outcome in generate(domain, bases, run_reference, seed=seed, defaults=defaults):
                if generated.id in metas:
                    continue
                add(
                    generated.id,
                    generated.call,
                    generated.args,
                    generated.kwargs,
                    outcome,
                    {
                        "generated": {
                            "family": generated.family,
                            "group": generated.group,
                            "detail": generated.detail,
                            "site": generated.site,
                            "base": generated.base,
                        },
                        "explain": {},
                        "hint": {},
                        "label": {},
                        "message": None,
                        "forbid_warnings": False,
                    },
                    generated.refill,
                )
            aligned = _aligned_indices(domain)
            for entry in plan_cases:
                if aligned and entry["call"] == domain.call:
                    metas[entry["id"]]["aligned"] = aligned
                if domain.abs_tol is not None and entry["call"] == domain.call:
                    metas[entry["id"]]["abs_tol"] = float(domain.abs_tol)
    except AuthorError as error:
        raise AuthorError(_explained(str(error))) from None
    finally:
        reference.close()
    if len(order) > MAX_CASES:
        raise AuthorError(f"the checkpoint has {len(order)} cases; at most {MAX_CASES}")
    attrs: dict = {}
    for outcome in expected.values():
        if outcome["kind"] == "return":
            _attrs_of(outcome["value"], attrs)
    time_limit = float(getattr(grader, "TIME_LIMIT", DEFAULT_TIME_LIMIT))
    plan = {"mode": "check", "cases": plan_cases, "attrs": attrs, "time_limit": time_limit}
    known = [
        _fingerprint(m, plan, expected, metas, run)
        for m in mistakes
        if m.get("feedback") and m.get("expect_status") != "timeout"
    ]
    plot_case = getattr(grader, "PLOT_CASE", None)
    if plot_case is not None and plot_case not in expected:
        raise AuthorError(f"PLOT_CASE {plot_case!r} is not a case id")
    return {
        # What the runner gets: calls and inputs only.
        "plan": plan,
        # What the judge gets, and learner code never: expected outcomes and the texts about each case.
        "key": {
            "lesson": lesson,
            "checkpoint": checkpoint,
            "seed": seed,
            "time_limit": time_limit,
            "order": order,
            "expected": expected,
            "cases": metas,
            "plot": {"kind": plot, "case": plot_case} if plot and plot_case else None,
            "mistakes": [m for m in known if m["fails"]],
        },
    }


#: How many of a declared mistake's failing cases its fingerprint keeps (a learner's first failing case is what is
#: matched, and one who makes the mistake fails where it first fails).
FINGERPRINT_CASES = 50


def _fingerprint(mistake: dict, plan: dict, expected: dict, metas: dict, run=None) -> dict:
    """Where a declared mistake fails and what it returns or raises there, so a learner's failure can be matched to
    it as futurecoder's message steps do. The mistake's program (an author's, trusted) runs under the plan exactly
    as a learner's does (``run``, :func:`graders.engine.runner.run` by default), so what it gives is what a learner
    with the same code would give."""
    from .judge import check_case
    from .runner import run as run_here

    fails: dict = {}
    result = (run or run_here)(mistake["source"], plan)
    for outcome in result.get("outcomes", []):
        case_id = outcome.get("id")
        if case_id not in expected or len(fails) >= FINGERPRINT_CASES:
            continue
        if check_case(expected[case_id], outcome, metas[case_id], FALLBACK_LANGUAGE) is None:
            continue
        if outcome["kind"] == "raise":
            fails[case_id] = {"kind": "raise", "exc": outcome["exc"]}
        elif outcome["kind"] == "return":
            kept = {"kind": "return", "value": outcome["value"]}
            kept.update({flag: outcome[flag] for flag in OUTCOME_FLAGS if outcome.get(flag)})
            fails[case_id] = kept
        else:
            fails[case_id] = {"kind": outcome["kind"]}
    return {
        "name": mistake["name"],
        "feedback": mistake["feedback"],
        "parts": mistake.get("parts") or {},
        "fails": fails,
    }


def _aligned_indices(domain: Domain) -> list:
    """The domain's aligned parameter groups as lists of positional indices (for shrinking)."""
    names = [p.name for p in domain.params]
    return [[names.index(n) for n in group] for group in domain.aligned]


def prepare_candidates(
    grader: types.ModuleType,
    reference_source: str,
    plan_case: dict,
    meta: dict,
    attrs: dict,
    *,
    alone: bool = False,
    smaller: bool = True,
) -> dict:
    """A small prepared checkpoint of shrink candidates for one failing case (see :mod:`graders.engine.shrink`):
    smaller inputs, each with the reference's outcome; their texts are the original case's, marked ``shrunk``.
    With ``alone`` the failing case itself comes first (:func:`graders.engine.shrink.alone_id`, marked ``alone``),
    called before anything else in a fresh start, to tell whether it fails only after the calls before it; without
    ``smaller`` it is the only case."""
    from .shrink import alone_id, candidates, size

    allowed = tuple(getattr(grader, "EXPECTED_EXCEPTIONS", (ValueError,)))
    reference = Reference(reference_source, allowed)
    plan_cases, metas, outcomes, order = [], {}, {}, []
    try:
        wire_args, wire_kwargs = values.case_inputs(plan_case)
        tries = []
        if alone:
            tries.append((alone_id(plan_case["id"]), wire_args, wire_kwargs, {"alone": True}))
        if smaller:
            for number, (args, kwargs) in enumerate(candidates(wire_args, wire_kwargs, meta.get("aligned", ()))):
                tries.append((f"{plan_case['id']}~{number}", args, kwargs, {"shrunk": True}))
        for case_id, args, kwargs, marks in tries:
            try:
                outcome = reference.outcome(case_id, plan_case["call"], values.decode(args), values.decode(kwargs))
            except AuthorError:
                continue  # a smaller input the reference does not handle is no candidate
            plan_cases.append(plan_entry(case_id, plan_case["call"], args, kwargs))
            metas[case_id] = {**meta, **marks, "size": size(args) + size(kwargs)}
            outcomes[case_id] = outcome
            order.append(case_id)
    finally:
        reference.close()
    return {
        "plan": {"mode": "check", "cases": plan_cases, "attrs": attrs, "time_limit": DEFAULT_TIME_LIMIT},
        "key": {"order": order, "expected": outcomes, "cases": metas, "plot": None, "time_limit": DEFAULT_TIME_LIMIT},
    }


def _matches(pattern: str, message: str) -> bool:
    """Does a case's message pattern match an exception message, as the judge matches it (``re.search``)?"""
    try:
        return re.search(pattern, message) is not None
    except re.error:
        return False


def _explained(message: str) -> str:
    """An author error about a generated case, with what to do about it."""
    if message.startswith("case gen/"):
        return (
            message + ". A generated variant reached the reference with an input it does not handle: make the "
            "reference raise ValueError for it, or add its family to the domain's skip list if the task leaves "
            "it open."
        )
    return message
