"""Alternative correct risk_coverage_curve: sort once, count with np.searchsorted; rates as numpy.float64."""
import numpy as np


def _vector(values, limit):
    """Validate and return a float64 vector of 1..limit finite values in [0, 1]."""
    if isinstance(values, (list, tuple)):
        if not all(isinstance(v, (int, float, np.number, np.bool_)) for v in values):
            raise ValueError("numbers only")
        try:
            values = np.array(values, dtype=np.float64) if len(values) else np.zeros(0)
        except OverflowError:
            raise ValueError("number too large") from None
    elif not isinstance(values, np.ndarray) or values.dtype.kind not in "biuf":
        raise ValueError("list, tuple or numeric array")
    values = values.astype(np.float64)
    if values.ndim != 1 or not 0 < values.size <= limit:
        raise ValueError("shape")
    if not np.all((values >= 0) & (values <= 1)):  # NaN fails both comparisons
        raise ValueError("range")
    return values


def risk_coverage_curve(scores, correct, thresholds):
    """Same contract as the reference, with one sort instead of a mask per threshold."""
    s = _vector(scores, 1000)
    if isinstance(correct, np.ndarray):
        if correct.dtype != np.bool_:
            raise ValueError("bool dtype")
    elif not (isinstance(correct, (list, tuple)) and all(isinstance(v, (bool, np.bool_)) for v in correct)):
        raise ValueError("booleans")
    c = np.array(correct, dtype=bool)
    if c.shape != s.shape:
        raise ValueError("shape")
    t = np.unique(_vector(thresholds, 101))
    order = np.argsort(s, kind="stable")
    sorted_scores = s[order]
    # hits_from[i] = number of correct cases among sorted positions i..n-1
    hits_from = np.concatenate([np.cumsum(c[order][::-1])[::-1], [0]])
    first = np.searchsorted(sorted_scores, t, side="left")
    rows = []
    for th, start in zip(t, first):
        answered = int(s.size - start)
        hits = int(hits_from[start])
        rows.append({"threshold": th, "answered": answered, "correct": hits,
                     "coverage": np.float64(answered) / s.size,
                     "risk": np.float64(answered - hits) / answered if answered else None})
    return rows
