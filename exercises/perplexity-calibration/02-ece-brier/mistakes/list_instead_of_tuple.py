# mistake: returns [ece, populated_bins] as a list instead of a tuple
# expect-fail: perfect-two-bins

import numpy as np


def _check(confidences, correct):
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
    if bins <= 0:
        raise ValueError("bins must be positive")
    conf, y = _check(confidences, correct)
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
    return [float(ece), populated]


def brier_score(confidences, correct):
    conf, y = _check(confidences, correct)
    if conf.size == 0:
        return 0.0
    return float(np.mean((conf - y) ** 2))
