# mistake: empty input always gives arrays of length 10, whatever bins says
# expect-fail: empty-input-four-bins

from dataclasses import dataclass

import numpy as np


def _check(confidences, correct, bins):
    if bins <= 0:
        raise ValueError("bins must be positive")
    conf = np.asarray(confidences, dtype=float)
    y = np.asarray(correct)
    if conf.shape != y.shape or conf.ndim != 1:
        raise ValueError("need two 1-D inputs of the same length")
    if conf.size and (conf.min() < 0 or conf.max() > 1):
        raise ValueError("confidence outside [0, 1]")
    y = y.astype(float)
    if y.size and not np.isin(y, (0.0, 1.0)).all():
        raise ValueError("labels must be 0/1")
    return conf, y


def _index(conf, bins):
    edges = np.linspace(0.0, 1.0, bins + 1)
    return np.clip(np.searchsorted(edges, conf, side="right") - 1, 0, bins - 1)


def expected_calibration_error(confidences, correct, bins=10):
    conf, y = _check(confidences, correct, bins)
    n = conf.size
    if n == 0:
        return (0.0, 0)
    idx = _index(conf, bins)
    ece, populated = 0.0, 0
    for b in range(bins):
        m = idx == b
        k = int(m.sum())
        if k:
            populated += 1
            ece += k / n * abs(conf[m].mean() - y[m].mean())
    return (float(ece), populated)


def brier_score(confidences, correct):
    conf, y = _check(confidences, correct, 1)
    if conf.size == 0:
        return 0.0
    return float(np.mean((conf - y) ** 2))


def reliability_diagram(confidences, correct, bins=10):
    conf, y = _check(confidences, correct, bins)
    mean_conf = np.zeros(bins)
    accuracy = np.zeros(bins)
    count = np.zeros(bins, dtype=np.int64)
    if conf.size == 0:
        return (np.zeros(10), np.zeros(10), np.zeros(10, dtype=np.int64))
    idx = _index(conf, bins)
    for b in range(bins):
        m = idx == b
        count[b] = int(m.sum())
        if count[b]:
            mean_conf[b] = conf[m].mean()
            accuracy[b] = y[m].mean()
    return (mean_conf, accuracy, count)


@dataclass
class CalibrationReport:
    ece: float
    brier: float
    populated_bins: int
    reliability: tuple
    n_samples: int

    @classmethod
    def from_predictions(cls, confidences, correct, bins=10):
        ece, populated = expected_calibration_error(confidences, correct, bins)
        return cls(ece, brier_score(confidences, correct), populated,
                   reliability_diagram(confidences, correct, bins), len(confidences))
