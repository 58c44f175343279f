"""Alternative correct checkpoint 2, vectorised the way many learners write it: np.searchsorted on the bin edges
and np.bincount with minlength, with no cast to the platform's index type (the int32 of 32-bit Pyodide must not
make this code fail in the browser only)."""
import numpy as np


def _check(confidences, correct):
    p = np.asarray(confidences, dtype=float)
    y = np.asarray(correct)
    if p.ndim != 1 or y.shape != p.shape:
        raise ValueError("confidences and correct must be 1-D and equally long")
    if p.size and (p.min() < 0 or p.max() > 1):
        raise ValueError("confidences must lie in [0, 1]")
    y = y.astype(float)
    if not np.isin(y, (0.0, 1.0)).all():
        raise ValueError("correct holds 0/1 or True/False")
    return p, y


def expected_calibration_error(confidences, correct, bins=10):
    if bins < 1:
        raise ValueError("bins must be positive")
    p, y = _check(confidences, correct)
    if not p.size:
        return (0.0, 0)
    edges = np.linspace(0, 1, bins + 1)
    idx = np.minimum(np.searchsorted(edges, p, side="right") - 1, bins - 1)
    counts = np.bincount(idx, minlength=bins)
    conf_sums = np.bincount(idx, weights=p, minlength=bins)
    hit_sums = np.bincount(idx, weights=y, minlength=bins)
    filled = counts > 0
    gaps = np.abs(conf_sums[filled] - hit_sums[filled])  # |sum conf - sum hits| = n_b * |mean conf - accuracy|
    return (float(gaps.sum() / p.size), int(filled.sum()))


def brier_score(confidences, correct):
    p, y = _check(confidences, correct)
    return float(np.mean((p - y) ** 2)) if p.size else 0.0
