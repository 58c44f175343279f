"""Reference solution: checkpoint 3 of claims-abstention (risk_coverage_curve)."""

import numpy as np

MAX_SCORES = 1000
MAX_THRESHOLDS = 101


def _unit_vector(values, label, limit):
    """`values` as a 1-D float64 array of 1..limit finite numbers in [0, 1], or ValueError.

    Anything numpy reads as real numbers counts: lists, tuples and arrays of ints, floats, numpy numbers and bools
    (True is 1.0). Complex numbers, text and nested sequences do not.
    """
    try:
        array = np.asarray(values)
        if np.iscomplexobj(array):
            raise ValueError(f"{label} must be real numbers")
        array = array.astype(np.float64)
    except (TypeError, OverflowError) as error:
        raise ValueError(f"{label} must be numbers") from error
    if array.ndim != 1 or not 1 <= array.size <= limit:
        raise ValueError(f"{label} must be 1-D with 1 to {limit} values")
    if not np.isfinite(array).all() or (array < 0).any() or (array > 1).any():
        raise ValueError(f"every value in {label} must be finite and lie in [0, 1]")
    return array


def risk_coverage_curve(scores, correct, thresholds):
    """For each distinct threshold (ascending) answer the cases with score >= threshold and report the result.

    Each row: threshold (float), answered (int), correct (int), coverage (float) and risk (float, or None when
    no case is answered).
    """
    score_array = _unit_vector(scores, "scores", MAX_SCORES)
    labels = np.asarray(correct)
    if labels.dtype != np.bool_ or labels.shape != score_array.shape:
        raise ValueError("correct must hold one real boolean (True/False) per score")
    threshold_array = _unit_vector(thresholds, "thresholds", MAX_THRESHOLDS)

    total = score_array.size
    rows = []
    for threshold in np.unique(threshold_array):
        chosen = score_array >= threshold
        answered = int(chosen.sum())
        right = int(labels[chosen].sum())
        rows.append({
            "threshold": float(threshold),
            "answered": answered,
            "correct": right,
            "coverage": answered / total,
            "risk": (answered - right) / answered if answered else None,
        })
    return rows
