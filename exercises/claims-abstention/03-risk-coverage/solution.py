"""Reference solution: checkpoint 3 of claims-abstention (risk_coverage_curve)."""

import numpy as np

MAX_SCORES = 1000
MAX_THRESHOLDS = 101


def _unit_interval_vector(values, label, limit):
    """Return `values` as a 1-D float64 array of 1..limit finite reals in [0, 1], or raise ValueError.

    Accepted: a list of numbers (int, float, numpy integer or floating scalars; no bools) or a 1-D numpy
    array with an integer or floating dtype.
    """
    if isinstance(values, np.ndarray):
        if values.ndim != 1 or values.dtype.kind not in "iuf":
            raise ValueError(f"{label} must be 1-D with an integer or floating dtype")
        array = values.astype(np.float64)
    elif isinstance(values, list):
        for item in values:
            if isinstance(item, (bool, np.bool_)) or not isinstance(item, (int, float, np.integer, np.floating)):
                raise ValueError(f"{label} must hold real numbers (not bools), got {item!r}")
        try:
            array = np.array([float(item) for item in values], dtype=np.float64)
        except OverflowError as error:
            raise ValueError(f"{label} holds a number too large for a float") from error
    else:
        raise ValueError(f"{label} must be a list or a 1-D numpy array")
    if not 1 <= array.size <= limit:
        raise ValueError(f"{label} needs 1 to {limit} values, got {array.size}")
    if not np.all(np.isfinite(array)) or np.any(array < 0.0) or np.any(array > 1.0):
        raise ValueError(f"every value in {label} must be finite and lie in [0, 1]")
    return array


def _bool_vector(values, size):
    """Return `values` as a 1-D bool array of length `size`, or raise ValueError (only real booleans count)."""
    if isinstance(values, np.ndarray):
        if values.ndim != 1 or values.dtype != np.bool_:
            raise ValueError("correct must be a 1-D numpy array with dtype bool")
        array = values
    elif isinstance(values, list):
        if not all(isinstance(item, bool) for item in values):
            raise ValueError("correct must hold True/False only (0 and 1 are not booleans here)")
        array = np.array(values, dtype=np.bool_)
    else:
        raise ValueError("correct must be a list or a 1-D numpy array")
    if array.shape != (size,):
        raise ValueError(f"correct has {array.size} labels for {size} scores")
    return array


def risk_coverage_curve(scores, correct, thresholds):
    """For each distinct threshold (ascending) answer the cases with score >= threshold and report the result.

    Each row: threshold (float), answered (int), correct (int), coverage (float) and risk (float, or None when
    no case is answered).
    """
    score_array = _unit_interval_vector(scores, "scores", MAX_SCORES)
    hit_array = _bool_vector(correct, score_array.size)
    threshold_array = _unit_interval_vector(thresholds, "thresholds", MAX_THRESHOLDS)

    rows = []
    for threshold in np.unique(threshold_array):
        chosen = score_array >= threshold
        answered = int(np.count_nonzero(chosen))
        hits = int(np.count_nonzero(hit_array & chosen))
        rows.append({
            "threshold": float(threshold),
            "answered": answered,
            "correct": hits,
            "coverage": answered / score_array.size,
            "risk": (answered - hits) / answered if answered else None,
        })
    return rows
