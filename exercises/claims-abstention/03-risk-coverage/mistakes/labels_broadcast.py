# mistake: labels spread over the scores by numpy broadcasting instead of a shape check
# expect-fail: one-label-for-four-scores
import numpy as np


def _reals(values, limit):
    try:
        array = np.asarray(values, dtype=float)
    except (TypeError, OverflowError):
        raise ValueError("numbers expected") from None
    if array.ndim != 1 or not 1 <= array.size <= limit:
        raise ValueError("1-D with the right size")
    if not np.all(np.isfinite(array)) or np.any(array < 0) or np.any(array > 1):
        raise ValueError("finite values in [0, 1]")
    return array


def risk_coverage_curve(scores, correct, thresholds):
    s = _reals(scores, 1000)
    c = np.asarray(correct)
    if c.dtype != bool:
        raise ValueError("booleans only")
    c = np.broadcast_to(c, s.shape)
    rows = []
    for t in np.unique(_reals(thresholds, 101)):
        mask = s >= t
        n = int(mask.sum())
        hits = int(c[mask].sum())
        rows.append({"threshold": float(t), "answered": n, "correct": hits, "coverage": n / s.size,
                     "risk": (n - hits) / n if n else None})
    return rows
