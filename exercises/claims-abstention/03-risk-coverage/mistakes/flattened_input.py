# mistake: inputs are flattened with np.ravel, so 2-D scores are accepted instead of refused
# expect-fail: 2d-scores
import numpy as np


def risk_coverage_curve(scores, correct, thresholds):
    if not isinstance(scores, (list, np.ndarray)) or not isinstance(thresholds, (list, np.ndarray)):
        raise ValueError("lists or arrays")
    s = np.ravel(np.asarray(scores, dtype=float))
    t = np.ravel(np.asarray(thresholds, dtype=float))
    c = np.asarray(correct)
    if c.dtype != bool or c.ndim != 1 or c.size != s.size:
        raise ValueError("correct")
    if isinstance(scores, list) and any(isinstance(v, bool) for v in scores):
        raise ValueError("bools")
    for a, limit in ((s, 1000), (t, 101)):
        if not 1 <= a.size <= limit or not np.isfinite(a).all() or ((a < 0) | (a > 1)).any():
            raise ValueError("values")
    rows = []
    for th in np.unique(t):
        mask = s >= th
        n = int(mask.sum())
        k = int((mask & c).sum())
        rows.append({"threshold": float(th), "answered": n, "correct": k,
                     "coverage": n / s.size, "risk": (n - k) / n if n else None})
    return rows
