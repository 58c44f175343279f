"""Alternative correct risk_coverage_curve in the style the hint suggests: np.asarray, dtype checks, np.unique."""
import numpy as np


def risk_coverage_curve(scores, correct, thresholds):
    """Same contract as the reference; lists become arrays first and are judged by their dtype."""
    if not all(isinstance(x, (list, tuple, np.ndarray)) for x in (scores, correct, thresholds)):
        raise ValueError("scores, correct and thresholds must be lists, tuples or arrays")
    s = np.asarray(scores)
    t = np.asarray(thresholds)
    c = np.asarray(correct)
    for array, limit in ((s, 1000), (t, 101)):
        if array.ndim != 1 or not 1 <= array.size <= limit or array.dtype.kind not in "biuf":
            raise ValueError("need 1-D real numbers (bools count as 0 and 1)")
    s = s.astype(float)
    t = t.astype(float)
    if c.dtype != bool or c.shape != s.shape:
        raise ValueError("correct must be booleans, one per score")
    for array in (s, t):
        if not np.isfinite(array).all() or array.min() < 0 or array.max() > 1:
            raise ValueError("values must be finite and in [0, 1]")
    rows = []
    for threshold in np.unique(t):
        mask = s >= threshold
        answered = int(mask.sum())
        hits = int(c[mask].sum())
        rows.append({
            "threshold": float(threshold),
            "answered": answered,
            "correct": hits,
            "coverage": answered / len(s),
            "risk": (answered - hits) / answered if answered > 0 else None,
        })
    return rows
