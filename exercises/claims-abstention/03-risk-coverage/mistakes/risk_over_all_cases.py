# mistake: risk divides the wrong answers by all cases instead of by the answered ones
# expect-fail: seed-threshold-half
import numpy as np

def _vector(values, label, limit):
    if isinstance(values, np.ndarray):
        if values.ndim != 1 or values.dtype.kind not in "iuf":
            raise ValueError(label)
        array = values.astype(float)
    elif isinstance(values, list):
        if any(isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, float, np.integer, np.floating))
               for v in values):
            raise ValueError(label)
        array = np.array(values, dtype=float)
    else:
        raise ValueError(label)
    if not 1 <= array.size <= limit or not np.isfinite(array).all() or ((array < 0) | (array > 1)).any():
        raise ValueError(label)
    return array


def _labels(values, size):
    if isinstance(values, np.ndarray):
        ok = values.ndim == 1 and values.dtype == bool
    else:
        ok = isinstance(values, list) and all(isinstance(v, bool) for v in values)
    if not ok or len(values) != size:
        raise ValueError("correct")
    return np.array(values, dtype=bool)


def risk_coverage_curve(scores, correct, thresholds):
    s = _vector(scores, "scores", 1000)
    c = _labels(correct, s.size)
    t = _vector(thresholds, "thresholds", 101)
    rows = []
    for th in np.unique(t):
        mask = s >= th
        n = int(mask.sum())
        k = int((mask & c).sum())
        rows.append({"threshold": float(th), "answered": n, "correct": k,
                     "coverage": n / s.size, "risk": (n - k) / s.size if n else None})
    return rows
