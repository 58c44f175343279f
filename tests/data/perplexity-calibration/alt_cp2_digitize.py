"""Alternative correct solution for checkpoint 2: np.digitize on the inner edges and np.bincount sums."""

import numpy as np


def _arrays(confidences, correct):
    p = np.array(confidences, dtype=float)
    y = np.array(correct)
    if p.ndim != 1 or y.shape != p.shape:
        raise ValueError("expected two 1-D inputs of equal length")
    if np.any(p < 0) or np.any(p > 1):
        raise ValueError("confidences must lie in [0, 1]")
    y = y.astype(float)
    if np.any((y != 0) & (y != 1)):
        raise ValueError("correct must hold 0/1 or booleans")
    return p, y


def expected_calibration_error(confidences, correct, bins=10):
    if bins < 1:
        raise ValueError("need at least one bin")
    p, y = _arrays(confidences, correct)
    if p.size == 0:
        return (0.0, 0)
    inner = np.linspace(0.0, 1.0, bins + 1)[1:-1]
    idx = np.digitize(p, inner) if inner.size else np.zeros(p.size, dtype=int)
    count = np.bincount(idx, minlength=bins)
    gap = np.abs(np.bincount(idx, weights=p, minlength=bins) - np.bincount(idx, weights=y, minlength=bins))
    # |sum p - sum y| / n equals (size / n) * |mean p - mean y| for every bin, and 0 for empty ones
    return (float(gap.sum() / p.size), int(np.count_nonzero(count)))


def brier_score(confidences, correct):
    p, y = _arrays(confidences, correct)
    return float(np.square(p - y).mean()) if p.size else 0.0
