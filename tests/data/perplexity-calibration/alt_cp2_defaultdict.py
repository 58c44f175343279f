"""Alternative correct checkpoint 2: collections.defaultdict of bins, np.searchsorted for each bin index."""
from collections import defaultdict

import numpy as np


def _check(confidences, correct):
    conf = np.asarray(confidences, dtype=float)
    labels = np.asarray(correct, dtype=float)
    if conf.shape != labels.shape or conf.ndim != 1:
        raise ValueError("two 1-D inputs of one length")
    if conf.size and (conf.min() < 0.0 or conf.max() > 1.0):
        raise ValueError("confidences lie in [0, 1]")
    if any(y not in (0.0, 1.0) for y in labels.tolist()):
        raise ValueError("labels are 0/1 or True/False")
    return conf.tolist(), labels.tolist()


def expected_calibration_error(confidences, correct, bins=10):
    conf, labels = _check(confidences, correct)
    if bins <= 0:
        raise ValueError("bins must be positive")
    if not conf:
        return (0.0, 0)
    edges = np.linspace(0.0, 1.0, bins + 1)
    groups = defaultdict(list)
    for p, y in zip(conf, labels):
        k = min(max(int(np.searchsorted(edges, p, side="right")) - 1, 0), bins - 1)
        groups[k].append((p, y))
    n = len(conf)
    ece = sum(len(g) / n * abs(sum(p for p, _ in g) / len(g) - sum(y for _, y in g) / len(g))
              for g in groups.values())
    return (float(ece), len(groups))


def brier_score(confidences, correct):
    conf, labels = _check(confidences, correct)
    return sum((p - y) ** 2 for p, y in zip(conf, labels)) / len(conf) if conf else 0.0
