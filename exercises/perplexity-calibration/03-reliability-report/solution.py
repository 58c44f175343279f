"""Reference solution: checkpoint 3 of perplexity-calibration (reliability diagram data and the calibration report).

Self-contained: it repeats the checkpoint-2 functions it builds on.
"""

from dataclasses import dataclass

import numpy as np


def _checked(confidences, correct):
    """Return (confidences, correct) as 1-D float arrays, or raise ValueError when they break the contract."""
    conf = np.asarray(confidences, dtype=np.float64)
    labels = np.asarray(correct)
    if conf.shape != labels.shape:
        raise ValueError(f"confidences has shape {conf.shape} but correct has shape {labels.shape}")
    if conf.ndim != 1:
        raise ValueError(f"expected 1-D input, got {conf.ndim} dimensions")
    if conf.size and (conf.min() < 0.0 or conf.max() > 1.0):
        raise ValueError("every confidence must lie in [0, 1]")
    labels = labels.astype(np.float64)
    if labels.size and not np.all((labels == 0.0) | (labels == 1.0)):
        raise ValueError("correct may only hold 0/1 or True/False")
    return conf, labels


def _check_bins(bins):
    """Raise ValueError unless bins is a positive number of bins."""
    if bins <= 0:
        raise ValueError(f"bins must be a positive integer, got {bins}")


def _bin_index(conf, bins):
    """Bin of every confidence: equal-width bins on [0, 1], inner edges go up, 1.0 joins the last bin."""
    edges = np.linspace(0.0, 1.0, bins + 1)
    index = np.searchsorted(edges, conf, side="right") - 1
    return np.clip(index, 0, bins - 1)


def expected_calibration_error(confidences, correct, bins=10):
    """ECE over `bins` equal-width bins and the number of populated bins, as (float, int)."""
    _check_bins(bins)
    conf, labels = _checked(confidences, correct)
    n = conf.size
    if n == 0:
        return (0.0, 0)
    index = _bin_index(conf, bins)
    ece = 0.0
    populated = 0
    for b in range(bins):
        members = index == b
        size = int(members.sum())
        if size == 0:
            continue
        populated += 1
        ece += (size / n) * abs(float(conf[members].mean()) - float(labels[members].mean()))
    return (float(ece), populated)


def brier_score(confidences, correct):
    """Mean squared difference between each confidence and its 0/1 outcome; 0.0 for empty input."""
    conf, labels = _checked(confidences, correct)
    if conf.size == 0:
        return 0.0
    return float(np.mean((conf - labels) ** 2))


def reliability_diagram(confidences, correct, bins=10):
    """Per-bin mean confidence, per-bin accuracy and per-bin count, as a tuple of three arrays of length `bins`.

    Empty bins hold 0.0 (and count 0); empty input gives three zero arrays.
    """
    _check_bins(bins)
    conf, labels = _checked(confidences, correct)
    bin_conf = np.zeros(bins, dtype=np.float64)
    bin_acc = np.zeros(bins, dtype=np.float64)
    bin_count = np.zeros(bins, dtype=np.int64)
    if conf.size == 0:
        return (bin_conf, bin_acc, bin_count)
    index = _bin_index(conf, bins)
    for b in range(bins):
        members = index == b
        size = int(members.sum())
        bin_count[b] = size
        if size:
            bin_conf[b] = conf[members].mean()
            bin_acc[b] = labels[members].mean()
    return (bin_conf, bin_acc, bin_count)


@dataclass
class CalibrationReport:
    """Everything a model report needs about calibration, computed from one set of predictions."""

    ece: float
    brier: float
    populated_bins: int
    reliability: tuple
    n_samples: int

    @classmethod
    def from_predictions(cls, confidences, correct, bins=10):
        """Compute ECE, Brier score and the reliability triple for the same predictions and bins."""
        ece, populated = expected_calibration_error(confidences, correct, bins=bins)
        return cls(
            ece=ece,
            brier=brier_score(confidences, correct),
            populated_bins=populated,
            reliability=reliability_diagram(confidences, correct, bins=bins),
            n_samples=len(confidences),
        )
