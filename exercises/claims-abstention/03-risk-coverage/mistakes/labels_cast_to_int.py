# mistake: labels cast with astype(int) before the check, so 0.5 becomes 0 and passes as a label
# expect-fail: half-label
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
    c = np.asarray(correct).astype(int)
    if c.shape != s.shape or not np.isin(c, (0, 1)).all():
        raise ValueError("one boolean per score")
    c = c.astype(bool)
    rows = []
    for t in np.unique(_reals(thresholds, 101)):
        mask = s >= t
        n = int(mask.sum())
        hits = int(c[mask].sum())
        rows.append({"threshold": float(t), "answered": n, "correct": hits, "coverage": n / s.size,
                     "risk": (n - hits) / n if n else None})
    return rows
