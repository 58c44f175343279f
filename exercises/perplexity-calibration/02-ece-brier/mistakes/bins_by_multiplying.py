# mistake: the bin computed as int(p * bins) instead of from the edges, so 0.3 lands in bin 3
# expect-fail: point-three-in-bin-two
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


def expected_calibration_error(confidences, correct, bins=10):
    conf, labels = _inputs(confidences, correct)
    if bins <= 0:
        raise ValueError("bins must be positive")
    if conf.size == 0:
        return (0.0, 0)
    edges = np.linspace(0.0, 1.0, bins + 1)
    index = np.minimum((conf * bins).astype(int), bins - 1)
    ece, populated = 0.0, 0
    for b in np.unique(index):
        members = index == b
        populated += 1
        ece += members.mean() * abs(conf[members].mean() - labels[members].mean())
    return (float(ece), populated)


def brier_score(confidences, correct):
    conf, labels = _inputs(confidences, correct)
    if conf.size == 0:
        return 0.0
    return float(np.mean((conf - labels) ** 2))
