"""Alternative correct solution for checkpoint 3: Python lists while counting (bisect on the task's edges), arrays at
the end, report properties."""

from bisect import bisect_right

import numpy as np


def _clean(confidences, correct):
    if np.ndim(confidences) != 1 or np.ndim(correct) != 1:
        raise ValueError("1-D input only (an empty 2-D array too)")
    conf, labels = list(confidences), list(correct)
    if len(conf) != len(labels) or any(isinstance(v, (list, tuple, np.ndarray)) for v in conf + labels):
        raise ValueError("need two flat sequences of the same length")
    if any(not 0 <= p <= 1 for p in conf):
        raise ValueError("confidence outside [0, 1]")
    if any(y not in (0, 1) for y in labels):
        raise ValueError("labels must be 0/1 or booleans")
    return [float(p) for p in conf], [int(y) for y in labels]


def _bin(p, bins):
    """The bin of p: bisect on the task's edges np.linspace(0, 1, bins + 1), the last bin closed."""
    edges = np.linspace(0.0, 1.0, bins + 1).tolist()
    return min(max(bisect_right(edges, p) - 1, 0), bins - 1)


def reliability_diagram(confidences, correct, bins=10):
    if bins <= 0:
        raise ValueError("bins must be positive")
    conf, labels = _clean(confidences, correct)
    sums, hits, counts = [0.0] * bins, [0] * bins, [0] * bins
    for p, y in zip(conf, labels):
        b = _bin(p, bins)
        sums[b] += p
        hits[b] += y
        counts[b] += 1
    mean_conf = [s / c if c else 0.0 for s, c in zip(sums, counts)]
    accuracy = [h / c if c else 0.0 for h, c in zip(hits, counts)]
    return np.array(mean_conf, dtype=float), np.array(accuracy, dtype=float), np.array(counts, dtype=np.int32)


def expected_calibration_error(confidences, correct, bins=10):
    mean_conf, accuracy, counts = reliability_diagram(confidences, correct, bins)
    n = int(counts.sum())
    if not n:
        return 0.0, 0
    ece = sum(int(c) / n * abs(float(m) - float(a)) for m, a, c in zip(mean_conf, accuracy, counts))
    return ece, sum(1 for c in counts if c)


def brier_score(confidences, correct):
    conf, labels = _clean(confidences, correct)
    return sum((p - y) ** 2 for p, y in zip(conf, labels)) / len(conf) if conf else 0.0


class CalibrationReport:
    def __init__(self, confidences, correct, bins):
        self._args = (confidences, correct, bins)
        self._ece = expected_calibration_error(confidences, correct, bins)
        self._brier = brier_score(confidences, correct)
        self._triple = reliability_diagram(confidences, correct, bins)

    ece = property(lambda self: self._ece[0])
    populated_bins = property(lambda self: self._ece[1])
    brier = property(lambda self: self._brier)
    reliability = property(lambda self: self._triple)
    n_samples = property(lambda self: len(self._args[0]))

    @classmethod
    def from_predictions(cls, confidences, correct, bins=10):
        return cls(confidences, correct, bins)
