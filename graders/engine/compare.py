"""The comparison rules: is a learner's wire value the reference's?

:func:`compare` works on wire values only (see :mod:`graders.engine.values`), so no learner method can take part in
a verdict. It returns ``None`` for a match, or a :class:`Mismatch` naming where the values part and why, as message
keys of the engine catalog (:mod:`graders.engine.i18n`).

Rules: exact types (``bool`` is not ``int``, ``int`` is not ``float``, ``None`` is not ``0.0``, ``list`` is not
``tuple``; numpy.float64 is a float; other numpy scalars are not Python numbers, with a hint); floats within relative
1e-9 or absolute 1e-12, or a domain's own absolute tolerance (NaN matches only NaN, -0.0 matches 0.0); arrays by
type, shape, dtype kind (signed and unsigned integers are one kind) and values; dicts by their keys, then values;
lists and tuples in order; objects by the reference object's attributes.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from .values import show, too_large, too_large_type

REL_TOL = 1e-9
ABS_TOL = 1e-12

_TYPE_NAMES = {
    "none": "None",
    "bool": "bool",
    "int": "int",
    "float": "float",
    "str": "str",
    "list": "list",
    "tuple": "tuple",
    "dict": "dict",
    "set": "set",
    "frozenset": "frozenset",
    "ndarray": "numpy.ndarray",
    "bytes": "bytes",
    "complex": "complex",
}


@dataclass(frozen=True)
class Mismatch:
    """Where and why two wire values differ. ``reason`` and ``hint`` are message keys; ``params`` fill them in."""

    path: str
    reason: str
    params: dict = field(default_factory=dict)
    hint: str | None = None


def type_name(w) -> str:
    """A short Python-style name for a wire value's type."""
    tag = w[0]
    if tag in _TYPE_NAMES:
        return _TYPE_NAMES[tag]
    if tag == "npscalar":
        return f"numpy.{w[1]}"
    if tag in ("object", "foreign"):
        return w[1]
    return tag


def floats_match(a, b, abs_tol: float = ABS_TOL) -> bool:
    """Float equality with the engine's tolerances (``abs_tol``: a domain's own absolute one, see
    :class:`graders.engine.domain.Domain`); NaN matches only NaN, infinities only themselves."""
    x, y = float(a), float(b)  # "nan"/"inf" strings parse too
    if math.isnan(x) or math.isnan(y):
        return math.isnan(x) and math.isnan(y)
    if math.isinf(x) or math.isinf(y):
        return x == y
    return abs(x - y) <= max(REL_TOL * max(abs(x), abs(y)), abs_tol)


#: Relative difference up to which a float that does not match is a near miss (hint_near_float): rounding, float32
#: or an early cast, rather than a wrong formula; the case's own hint, about its input, would mislead there.
NEAR_MISS = 1e-3


def _float_fail(a, b):
    """The mismatch of two floats that do not match (:func:`floats_match`), with the near-miss hint when close."""
    x, y = float(a), float(b)
    if math.isfinite(x) and math.isfinite(y) and abs(x - y) <= NEAR_MISS * max(abs(x), abs(y)):
        return _fail("value", None, "hint_near_float")
    return _fail("value")


def _kind_group(kind: str) -> str:
    return "i" if kind in "iu" else kind


def _type_hint(expected, actual) -> str | None:
    e, a = expected[0], actual[0]
    if a == "npscalar":
        kind = actual[2]
        if e == "int" and kind in "iu":
            return "hint_int"
        if e == "float" and kind in "fiu":
            return "hint_float"
        if e == "bool" and kind == "b":
            return "hint_bool"
    if e == "float" and a == "int":
        return "hint_float"
    if e == "int" and a == "float":
        return "hint_int_not_float"
    if e == "list" and a in ("ndarray", "tuple"):
        return "hint_list"
    if e == "tuple" and a == "list":
        return "hint_tuple"
    if e == "ndarray" and a in ("list", "tuple"):
        return "hint_ndarray"
    if e == "dict" and a == "foreign" and actual[2] == "dict":
        return "hint_plain_dict"
    if a == "foreign" and actual[2]:
        return "hint_subclass"
    return None


def compare(expected, actual, path: str = "", abs_tol: float | None = None) -> Mismatch | None:
    """``None`` when ``actual`` matches ``expected``, else the first :class:`Mismatch` (depth first, in order).
    ``abs_tol``: the absolute tolerance of floats, when the case's domain sets its own (None: :data:`ABS_TOL`)."""
    found = _cmp(expected, actual, ABS_TOL if abs_tol is None else abs_tol)
    if found is None:
        return None
    segments, reason, params, hint = found
    return Mismatch(path + "".join(_segment_text(seg) for seg in reversed(segments)), reason, params, hint)


def _segment_text(seg) -> str:
    kind, value = seg
    if kind == "index":
        return f"[{value}]"
    if kind == "attr":
        return f".{value}"
    return f"[{show(value, limit=60)}]"


def _fail(reason: str, params: dict | None = None, hint: str | None = None):
    return [], reason, params or {}, hint


def _within(found, segment):
    if found is not None:
        found[0].append(segment)
    return found


def _type_fail(expected, actual):
    return _fail("type", {"expected": type_name(expected), "actual": type_name(actual)}, _type_hint(expected, actual))


def _cmp(expected, actual, tol):
    e, a = expected[0], actual[0]
    if e != "foreign" and too_large(actual):
        # the runner did not read it (values.encode's budget, a container's limit): its type is not the fault
        # the sentence says "too large" in the learner's language: the type name alone goes in
        return _fail("too_large", {"expected": type_name(expected), "actual": too_large_type(actual)}, "hint_too_large")
    if e != a:
        return _type_fail(expected, actual)
    if e == "none":
        return None
    if e in ("bool", "int", "str", "bytes"):
        return None if expected[1] == actual[1] else _fail("value")
    if e == "float":
        return None if floats_match(expected[1], actual[1], tol) else _float_fail(expected[1], actual[1])
    if e == "complex":
        same = floats_match(expected[1], actual[1], tol) and floats_match(expected[2], actual[2], tol)
        return None if same else _fail("value")
    if e in ("list", "tuple", "set", "frozenset"):
        xs, ys = expected[1], actual[1]
        if len(xs) != len(ys):
            return _fail("length", {"expected": len(xs), "actual": len(ys)})
        for i, (x, y) in enumerate(zip(xs, ys)):
            found = _cmp(x, y, tol)
            if found:
                return _within(found, ("index", i))
        return None
    if e == "dict":
        return _compare_dict(expected, actual, tol)
    if e == "ndarray":
        return _compare_array(expected, actual, tol)
    if e == "npscalar":
        if _kind_group(expected[2]) != _kind_group(actual[2]):
            return _fail("dtype", {"expected": expected[1], "actual": actual[1]})
        if expected[2] == "f":
            return None if floats_match(expected[3], actual[3], tol) else _float_fail(expected[3], actual[3])
        return None if expected[3] == actual[3] else _fail("value")
    if e == "object":
        if expected[1] != actual[1]:
            return _fail("type", {"expected": expected[1], "actual": actual[1]})
        theirs = dict((name, w) for name, w in actual[2])
        for name, w in expected[2]:
            got = theirs.get(name, ["absent"])
            if got[0] == "absent":
                return _within(_fail("attribute_missing", {"name": name}), ("attr", name))
            if got[0] == "raised":
                return _within(_fail("attribute_raised", {"name": name, "error": got[1]}), ("attr", name))
            found = _cmp(w, got, tol)
            if found:
                return _within(found, ("attr", name))
        return None
    # "foreign" on both sides never happens for a reference value; treat as different.
    return _type_fail(expected, actual)


def _key_text(k) -> str:
    return show(k, limit=60)


def _freeze(w):
    """A hashable form of a wire value (dict keys are wire values), or of any part of one (an empty list too)."""
    if not isinstance(w, list):
        return w
    if w and w[0] in ("str", "int", "bool", "none", "bytes"):
        return tuple(w)
    return tuple(_freeze(v) for v in w)


def _compare_dict(expected, actual, tol):
    if len(expected[1]) == len(actual[1]) and all(k == k2 for (k, _), (k2, _) in zip(expected[1], actual[1])):
        # the same keys in the same order (the usual case): compare the values in place
        for (k, w), (_, got) in zip(expected[1], actual[1]):
            found = _cmp(w, got, tol)
            if found:
                return _within(found, ("key", k))
        return None
    theirs = {_freeze(k): v for k, v in actual[1]}
    if len(theirs) != len(expected[1]) or any(_freeze(k) not in theirs for k, _ in expected[1]):
        ours = {_freeze(k) for k, _ in expected[1]}
        missing = [k for k, _ in expected[1] if _freeze(k) not in theirs]
        extra = [k for k, _ in actual[1] if _freeze(k) not in ours]
        return _fail(
            "keys",
            {
                "missing": ", ".join(_key_text(k) for k in missing) or "-",
                "extra": ", ".join(_key_text(k) for k in extra) or "-",
            },
        )
    for k, w in expected[1]:
        found = _cmp(w, theirs[_freeze(k)], tol)
        if found:
            return _within(found, ("key", k))
    return None


def _compare_array(expected, actual, tol):
    _, e_dtype, e_kind, e_shape, e_values = expected
    _, a_dtype, a_kind, a_shape, a_values = actual
    if list(e_shape) != list(a_shape):
        return _fail("shape", {"expected": tuple(e_shape), "actual": tuple(a_shape)})
    if _kind_group(e_kind) != _kind_group(a_kind):
        return _fail(
            "dtype",
            {"expected": e_dtype, "actual": a_dtype},
            "hint_dtype_int" if e_kind in "iu" else ("hint_dtype_float" if e_kind == "f" else None),
        )
    if e_kind != "O" and e_values == a_values:
        return None  # the very same values (the usual case), compared at C speed
    for i, (x, y) in enumerate(zip(e_values, a_values)):
        if e_kind == "f":
            same = x == y or floats_match(x, y, tol)
        elif e_kind == "O":
            same = _cmp(x, y, tol) is None
        else:
            same = x == y
        if not same:
            failed = _float_fail(x, y) if e_kind == "f" else _fail("value")
            return _within(failed, ("index", _unravel(i, e_shape)))
    return None


def _unravel(i: int, shape) -> str:
    if len(shape) <= 1:
        return str(i)
    parts = []
    for n in reversed(shape):
        parts.append(i % n if n else 0)
        i = i // n if n else 0
    return ", ".join(str(p) for p in reversed(parts))
