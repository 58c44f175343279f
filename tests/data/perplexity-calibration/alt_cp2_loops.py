"""Alternative correct solution for checkpoint 2: Python loops; each bin found with bisect on the task's edges."""
from bisect import bisect_right

import numpy as np


def _edges(bins):
    """The task's edges, np.linspace(0, 1, bins + 1), as a Python list."""
    return np.linspace(0.0, 1.0, bins + 1).tolist()


def _pairs(confidences, correct):
    if np.ndim(confidences) != 1 or np.ndim(correct) != 1:
        raise ValueError("1-D input only (an empty 2-D array too)")
    conf, labels = list(confidences), list(correct)
    if len(conf) != len(labels):
        raise ValueError("lengths differ")
    for value in conf + labels:
        if hasattr(value, "__len__"):
            raise ValueError("1-D input only")
    for p in conf:
        if not 0.0 <= p <= 1.0:
            raise ValueError("confidence outside [0, 1]")
    for y in labels:
        if y != 0 and y != 1:
            raise ValueError("labels are 0/1 or booleans")
    return [float(p) for p in conf], [float(y) for y in labels]


def expected_calibration_error(confidences, correct, bins=10):
    if bins <= 0:
        raise ValueError("bins must be positive")
    conf, labels = _pairs(confidences, correct)
    n = len(conf)
    edges = _edges(bins)
    groups = {}
    for p, y in zip(conf, labels):
        groups.setdefault(min(max(bisect_right(edges, p) - 1, 0), bins - 1), []).append((p, y))
    ece = 0.0
    for members in groups.values():
        mean_p = sum(p for p, _ in members) / len(members)
        mean_y = sum(y for _, y in members) / len(members)
        ece += len(members) / n * abs(mean_p - mean_y)
    return ece, len(groups)


def brier_score(confidences, correct):
    conf, labels = _pairs(confidences, correct)
    if not conf:
        return 0.0
    return sum((p - y) ** 2 for p, y in zip(conf, labels)) / len(conf)
