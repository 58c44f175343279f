# mistake: the three result arrays are cached per number of bins and filled again by the next call
# expect-fail: forty-predictions
from dataclasses import dataclass

import numpy as np


def _inputs(confidences, correct):
    conf = np.asarray(confidences, dtype=float)
    labels = np.asarray(correct, dtype=float)
    if conf.ndim != 1 or conf.shape != labels.shape:
        raise ValueError("two 1-D inputs of the same length")
    if conf.size and (conf.min() < 0 or conf.max() > 1):
        raise ValueError("confidences lie in [0, 1]")
    if not np.isin(labels, (0.0, 1.0)).all():
        raise ValueError("labels are 0/1 or booleans")
    return conf, labels


def _bins_of(conf, bins):
    edges = np.linspace(0.0, 1.0, bins + 1)
    return np.clip(np.searchsorted(edges, conf, side="right") - 1, 0, bins - 1)


_BUFFERS = {}


def reliability_diagram(confidences, correct, bins=10):
    if bins <= 0:
        raise ValueError("bins must be positive")
    conf, labels = _inputs(confidences, correct)
    if bins not in _BUFFERS:
        _BUFFERS[bins] = (np.zeros(bins), np.zeros(bins), np.zeros(bins, dtype=np.int64))
    mean_conf, accuracy, count = _BUFFERS[bins]
    mean_conf[:], accuracy[:], count[:] = 0.0, 0.0, 0
    index = _bins_of(conf, bins)
    for b in range(bins):
        members = index == b
        count[b] = members.sum()
        if count[b]:
            mean_conf[b] = conf[members].mean()
            accuracy[b] = labels[members].mean()
    return mean_conf, accuracy, count


def expected_calibration_error(confidences, correct, bins=10):
    mean_conf, accuracy, count = reliability_diagram(confidences, correct, bins)
    total = int(count.sum())
    if total == 0:
        return (0.0, 0)
    return (float(np.sum(count / total * np.abs(mean_conf - accuracy))), int(np.count_nonzero(count)))


def brier_score(confidences, correct):
    conf, labels = _inputs(confidences, correct)
    return float(np.mean((conf - labels) ** 2)) if conf.size else 0.0


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
