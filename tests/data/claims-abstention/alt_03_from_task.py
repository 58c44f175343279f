"""risk_coverage_curve written only from the task text and its hints (numpy reads the numbers, complex input is
turned away first, a loop over np.unique)."""
import numpy as np


def _read(values, limit):
    """The task's scores or thresholds as a 1-D float array of 1..limit finite values in [0, 1]."""
    if np.iscomplexobj(np.asarray(values)):
        raise ValueError("complex numbers are not real numbers")
    try:
        array = np.asarray(values, dtype=float)
    except (TypeError, OverflowError) as error:
        raise ValueError("not real numbers") from error
    if array.ndim != 1 or not 1 <= array.size <= limit:
        raise ValueError(f"need 1 to {limit} values in one dimension")
    if not np.isfinite(array).all() or not ((0 <= array) & (array <= 1)).all():
        raise ValueError("every value must be finite and lie in [0, 1]")
    return array


def risk_coverage_curve(scores, correct, thresholds):
    scores = _read(scores, 1000)
    thresholds = _read(thresholds, 101)
    labels = np.asarray(correct)
    if labels.dtype != bool or labels.shape != scores.shape:
        raise ValueError("correct needs one real boolean per score")
    rows = []
    for threshold in np.unique(thresholds):
        mask = scores >= threshold
        answered = int(mask.sum())
        right = int(labels[mask].sum())
        rows.append({"threshold": float(threshold), "answered": answered, "correct": right,
                     "coverage": answered / len(scores),
                     "risk": (answered - right) / answered if answered else None})
    return rows
