"""Shrinking: when a case fails, find a smaller input that fails the same way, to show the learner.

A host drives the rounds (it is the one that can run learner code):

1. :func:`candidates` proposes smaller versions of the failing case's arguments (as wire values): lists and arrays
   with halves or single items removed (aligned parameters lose the same positions together), long strings halved;
2. :func:`graders.engine.prepare.prepare_candidates` computes the reference's outcome for each, as a small prepared
   checkpoint;
3. the host runs the learner's code on that plan, and :func:`smallest_failure` picks the smallest candidate that
   fails the same way as the original (same expected kind, same kind of answer);
4. repeat from that candidate, at most :data:`ROUNDS` times; :func:`graders.engine.judge.adopt_shrunk` puts the
   smallest failing input into the verdict (the case id stays the original one).
"""

from __future__ import annotations

from .compare import compare

#: Most rounds a host runs; each round is one learner run.
ROUNDS = 6
#: Most candidates tried per round.
PER_ROUND = 24


def size(w) -> int:
    """The size of a wire value: values, container items and string characters all count."""
    tag = w[0]
    if tag in ("str", "bytes"):
        return 1 + len(w[1])
    if tag in ("list", "tuple", "set", "frozenset"):
        return 1 + sum(size(v) for v in w[1])
    if tag == "dict":
        return 1 + sum(size(k) + size(v) for k, v in w[1])
    if tag == "ndarray":
        return 1 + len(w[4])
    return 1


def _seq_items(w):
    if w[0] in ("list", "tuple"):
        return w[1]
    if w[0] == "ndarray" and len(w[3]) == 1:
        return w[4]
    return None


def _without(w, drop: set):
    items = _seq_items(w)
    kept = [v for i, v in enumerate(items) if i not in drop]
    if w[0] == "ndarray":
        return ["ndarray", w[1], w[2], [len(kept)], kept]
    return [w[0], kept]


def _removals(n: int) -> list[set]:
    """Index sets to remove from a sequence of ``n`` items: halves first, then single items (at most 8)."""
    if n <= 1:
        return []
    out = []
    if n >= 4:
        out += [set(range(n // 2)), set(range(n // 2, n))]
    step = max(1, n // 8)
    out += [{i} for i in range(0, n, step)][:8]
    return out


def _inner(w, path=()):
    """Every nested sequence (path, wire) inside ``w``, outermost first, and every long string."""
    items = _seq_items(w)
    if items is not None:
        yield path, w
        if w[0] != "ndarray":
            for i, v in enumerate(items):
                yield from _inner(v, path + (i,))
    elif w[0] == "dict":
        for i, (_, v) in enumerate(w[1]):
            yield from _inner(v, path + (("value", i),))
    elif w[0] == "str" and len(w[1]) > 8:
        yield path, w


def _replace(w, path, new):
    if not path:
        return new
    step, rest = path[0], path[1:]
    if isinstance(step, tuple):
        pairs = [list(p) for p in w[1]]
        pairs[step[1]][1] = _replace(pairs[step[1]][1], rest, new)
        return ["dict", pairs]
    if w[0] == "ndarray":
        return w
    items = list(w[1])
    items[step] = _replace(items[step], rest, new)
    return [w[0], items]


#: Most candidates made before the smallest PER_ROUND are picked: the outer sequences come first (they shrink an
#: input most), and a large input (thousands of inner lists) would otherwise make a copy of itself per inner list.
MADE_PER_ROUND = 4 * PER_ROUND


def candidates(args, kwargs, aligned=(), limit: int = PER_ROUND) -> list:
    """Smaller ``(args, kwargs)`` wire pairs. ``aligned``: groups of positional indices whose sequences must keep
    equal lengths (their items are removed together)."""
    params = list(args[1])
    out = []
    grouped = {i for group in aligned for i in group}
    for group in aligned:
        members = [params[i] for i in group if i < len(params)]
        items = [_seq_items(m) for m in members]
        if any(found is None for found in items):
            continue  # a set, dict, str or scalar in the group: its sequences cannot shrink in step
        lengths = {len(found) for found in items}
        if len(lengths) == 1 and len(members) > 1:
            n = lengths.pop()
            for drop in _removals(n):
                new = list(params)
                for i in group:
                    if i < len(params):
                        new[i] = _without(params[i], drop)
                out.append((["tuple", new], kwargs))
    for index, param in enumerate(params):
        if len(out) >= MADE_PER_ROUND:
            break
        for path, w in _inner(param):
            if len(out) >= MADE_PER_ROUND:
                break
            if not path and index in grouped:
                continue  # aligned sequences shrink together, above
            if w[0] == "str":
                half = w[1][: len(w[1]) // 2]
                new = list(params)
                new[index] = _replace(param, path, ["str", half])
                out.append((["tuple", new], kwargs))
                continue
            for drop in _removals(len(_seq_items(w))):
                new = list(params)
                new[index] = _replace(param, path, _without(w, drop))
                out.append((["tuple", new], kwargs))
    seen, unique = set(), []
    for candidate in out:
        marker = repr(candidate)
        if marker not in seen:
            seen.add(marker)
            unique.append(candidate)
    unique.sort(key=lambda c: size(c[0]) + size(c[1]))
    return unique[:limit]


#: Generated cases that fail only after the calls before them (the same call again, refilled arguments): a smaller
#: input on its own would not show the failure, so they are shown as they are.
CONTEXT_FAMILIES = ("repeat", "refill")


#: The largest input (values, items and characters: :func:`size`) a failing case may have to be shrunk. Shrinking a
#: large one (the thousands of items of a "scale" case) would run the learner's code and the reference on many large
#: candidates, round after round, for seconds before the verdict shows; such a case is shown as it is.
SHRINK_MAX_SIZE = 2000


def shrinkable(key: dict, verdict: dict, plan_case: dict | None = None) -> bool:
    """Is the verdict's failing case one to shrink? Generated and random cases are (their texts describe a kind
    of input, not particular values), unless ``plan_case`` (its inputs) is larger than SHRINK_MAX_SIZE; curated cases
    are shown as written."""
    failure = verdict.get("failure") or {}
    meta = key["cases"].get(failure.get("case"), {})
    if (meta.get("generated") or {}).get("family") in CONTEXT_FAMILIES:
        return False
    if not (meta.get("generated") or str(failure.get("case", "")).startswith("random-")):
        return False
    if plan_case is not None:
        from .values import case_inputs

        args, kwargs = case_inputs(plan_case)
        if size(args) + size(kwargs) > SHRINK_MAX_SIZE:
            return False
    return True


def alone_id(case_id: str) -> str:
    """The id of ``case_id`` called on its own, first in a fresh start (:func:`isolatable`)."""
    return f"{case_id}~alone"


#: Failure kinds (graders.engine.judge.FAILURE_KINDS) a call on its own cannot explain better: a missing function,
#: and failures already told as coming from across calls.
_NOT_ISOLATED = frozenset(("missing", "repeated_calls"))


def isolatable(key: dict, verdict: dict, plan: dict) -> bool:
    """Should the verdict's failing case be called again on its own, first in a fresh start? When it then passes,
    it failed only because of the calls before it (a cache, a global, a mutable default), and its own explanation
    and hint (about the kind of input it is) would mislead: see :func:`graders.engine.judge.adopt_alone`. Not for
    the plan's first case (nothing ran before it) nor a failure already told as one across calls."""
    failure = verdict.get("failure") or {}
    case_id = failure.get("case")
    if verdict.get("status") != "fail" or failure.get("kind") in _NOT_ISOLATED or case_id not in key["cases"]:
        return False
    if (key["cases"][case_id].get("generated") or {}).get("family") in CONTEXT_FAMILIES:
        return False
    cases = plan.get("cases") or []
    return bool(cases) and cases[0].get("id") != case_id


def failure_kind(expected: dict, actual: dict | None, abs_tol: float | None = None) -> tuple:
    """How a case fails, coarsely: (what was expected, what came back), e.g. ("raise", "return"). ``abs_tol``: the
    case's own (its ``abs_tol`` in the key)."""
    if actual is None:
        return (expected.get("kind"), None)
    kind = actual.get("kind")
    if kind == "raise" and expected.get("kind") == "raise":
        return ("raise", "raise:" + str(actual.get("exc")))
    if kind == "return" and expected.get("kind") == "return":
        found = compare(expected["value"], actual["value"], abs_tol=abs_tol)
        return ("return", "return:" + (found.reason if found else "later"))
    return (expected.get("kind"), kind)


def smallest_failure(candidate_key: dict, run: dict, wanted: tuple, failing: list) -> str | None:
    """The id of the smallest candidate among ``failing`` whose failure has the kind ``wanted``."""
    outcomes = {o.get("id"): o for o in run.get("outcomes", [])}
    best, best_size = None, None
    for case_id in failing:
        if candidate_key["cases"][case_id].get("alone"):
            continue  # the failing case itself, not a smaller one
        expected = candidate_key["expected"][case_id]
        if failure_kind(expected, outcomes.get(case_id), candidate_key["cases"][case_id].get("abs_tol")) != wanted:
            continue
        s = candidate_key["cases"][case_id]["size"]
        if best is None or s < best_size:
            best, best_size = case_id, s
    return best


__all__ = [
    "alone_id",
    "candidates",
    "failure_kind",
    "isolatable",
    "shrinkable",
    "smallest_failure",
    "size",
    "ROUNDS",
    "PER_ROUND",
]
