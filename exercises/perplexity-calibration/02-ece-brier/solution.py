"""Reference solution: checkpoint 2 of perplexity-calibration (ECE and Brier score)."""

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


def _bin_index(conf, bins):
    """Bin of every confidence: equal-width bins on [0, 1], inner edges go up, 1.0 joins the last bin."""
    edges = np.linspace(0.0, 1.0, bins + 1)
    index = np.searchsorted(edges, conf, side="right") - 1
    return np.clip(index, 0, bins - 1)


def expected_calibration_error(confidences, correct, bins=10):
    """ECE over `bins` equal-width bins, plus how many bins hold at least one prediction.

    Returns (ece, populated_bins) as (float, int); (0.0, 0) for empty input.
    """
    if bins <= 0:
        raise ValueError(f"bins must be a positive integer, got {bins}")
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
        gap = abs(float(conf[members].mean()) - float(labels[members].mean()))
        ece += (size / n) * gap
    return (float(ece), populated)


def brier_score(confidences, correct):
    """Mean squared difference between each confidence and its 0/1 outcome; 0.0 for empty input."""
    conf, labels = _checked(confidences, correct)
    if conf.size == 0:
        return 0.0
    return float(np.mean((conf - labels) ** 2))
