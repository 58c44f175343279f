"""Alternative correct risk_coverage_curve: plain Python loops; numpy only to recognise numpy values."""
import math

import numpy as np


NUMBER_TYPES = (int, float, np.integer, np.floating, np.bool_)  # bool is an int already


def _numbers(values, limit):
    """Return values as a list of Python floats, or raise ValueError (list, tuple or 1-D numeric ndarray)."""
    if isinstance(values, np.ndarray):
        if values.ndim != 1 or values.dtype.kind not in ("b", "i", "u", "f"):
            raise ValueError("need a 1-D numeric array")
        items = [float(v) for v in values.tolist()]
    elif isinstance(values, (list, tuple)):
        items = []
        for v in values:
            if not isinstance(v, NUMBER_TYPES):
                raise ValueError("need numbers")
            try:
                items.append(float(v))
            except OverflowError:
                raise ValueError("number too large") from None
    else:
        raise ValueError("need a list, a tuple or an array")
    if not 1 <= len(items) <= limit:
        raise ValueError("wrong length")
    if any(not math.isfinite(v) or not 0 <= v <= 1 for v in items):
        raise ValueError("out of range")
    return items


def risk_coverage_curve(scores, correct, thresholds):
    """Same contract as the reference."""
    s = _numbers(scores, 1000)
    if isinstance(correct, np.ndarray):
        if correct.ndim != 1 or correct.dtype.kind != "b":
            raise ValueError("correct must be a bool array")
        labels = correct.tolist()
    elif isinstance(correct, (list, tuple)) and all(isinstance(v, (bool, np.bool_)) for v in correct):
        labels = [bool(v) for v in correct]
    else:
        raise ValueError("correct must hold booleans")
    if len(labels) != len(s):
        raise ValueError("misaligned")
    out = []
    for th in sorted(set(_numbers(thresholds, 101))):
        answered = hits = 0
        for score, ok in zip(s, labels):
            if score >= th:
                answered += 1
                hits += ok
        out.append({"threshold": th, "answered": answered, "correct": hits,
                     "coverage": answered / len(s), "risk": (answered - hits) / answered if answered else None})
    return out
