"""Alternative correct abstention_metrics: numpy masks, counts converted with int(), rates left as numpy.float64."""
import numpy as np


def abstention_metrics(predictions, targets):
    """Same contract as the reference; coverage and accuracies come back as numpy.float64 (a float subclass)."""
    if not (isinstance(predictions, list) and isinstance(targets, list)):
        raise ValueError("lists expected")
    if len(targets) == 0 or len(targets) > 1000 or len(predictions) != len(targets):
        raise ValueError("1..1000 aligned items expected")
    if not all(type(t) is str and len(t) > 0 for t in targets):
        raise ValueError("targets must be non-empty strings")
    if not all(p is None or (type(p) is str and len(p) > 0) for p in predictions):
        raise ValueError("predictions must be non-empty strings or None")
    given = np.array([p is not None for p in predictions])
    hit = np.array([p is not None and p == t for p, t in zip(predictions, targets)])
    n, a, h = len(targets), int(given.sum()), int(hit.sum())
    return {
        "total": n,
        "answered": a,
        "correct": h,
        "coverage": np.float64(a) / n,
        "overall_accuracy": np.mean(hit),
        "answered_accuracy": np.float64(h) / a if a > 0 else None,
        "risk": np.float64(a - h) / a if a > 0 else None,
    }
