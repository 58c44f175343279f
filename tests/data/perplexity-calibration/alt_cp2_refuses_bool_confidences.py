"""Checkpoint 2, refusing what the task leaves open: booleans as confidences (True or False among them, or an
array of dtype bool) raise ValueError; otherwise as the reference."""

import numpy as np


def _validated(confidences, correct):
    """Both inputs as 1-D float64 arrays of one length; ValueError for anything the contract does not allow, and for
    booleans as confidences, which the task leaves open."""
    items = confidences.tolist() if isinstance(confidences, np.ndarray) else confidences
    if np.asarray(confidences).dtype == bool or any(isinstance(v, (bool, np.bool_)) for v in np.ravel(items)):
        raise ValueError("confidences are numbers from 0 to 1, not booleans")
    p = np.asarray(confidences, dtype=np.float64)
    y = np.asarray(correct)
    if p.shape != y.shape:
        raise ValueError(f"confidences has shape {p.shape}, correct has shape {y.shape}; they must match")
    if p.ndim != 1:
        raise ValueError(f"expected 1-D input, got {p.ndim} dimensions")
    if p.size and (p.min() < 0.0 or p.max() > 1.0):
        raise ValueError("a confidence lies outside [0, 1]")
    y = y.astype(np.float64)
    if np.any((y != 0.0) & (y != 1.0)):
        raise ValueError("correct may hold only 0, 1, False and True")
    return p, y


def _require_bins(bins):
    if bins <= 0:
        raise ValueError(f"bins must be at least 1, got {bins}")


def _bin_table(p, y, bins):
    """Mean confidence, accuracy and count per bin (0.0, 0.0 and 0 for an empty bin).

    Bin k holds edges[k] <= p < edges[k + 1] with edges = np.linspace(0, 1, bins + 1); 1.0 joins the last bin.
    The comparison is with the computed edges, so with 10 bins 0.3 lands in bin 2 (edges[3] is 0.30000000000000004).
    """
    edges = np.linspace(0.0, 1.0, bins + 1)
    which = np.clip(np.searchsorted(edges, p, side="right") - 1, 0, bins - 1)
    which = which.astype(np.intp)  # np.bincount wants the platform index type: int32 in Pyodide
    count = np.bincount(which, minlength=bins)
    per_bin = np.maximum(count, 1)  # an empty bin has sums of 0, so dividing by 1 keeps it at 0.0
    mean_conf = np.bincount(which, weights=p, minlength=bins) / per_bin
    accuracy = np.bincount(which, weights=y, minlength=bins) / per_bin
    return mean_conf, accuracy, count.astype(np.int64)  # int64 on every platform, as the contract shows


def expected_calibration_error(confidences, correct, bins=10):
    """ECE over `bins` equal-width bins and the number of bins holding a prediction, as (float, int).

    Empty input gives (0.0, 0).
    """
    _require_bins(bins)
    p, y = _validated(confidences, correct)
    if p.size == 0:
        return (0.0, 0)
    mean_conf, accuracy, count = _bin_table(p, y, bins)
    share = count / p.size  # an empty bin has share 0 and adds nothing
    return (float(share @ np.abs(mean_conf - accuracy)), int(np.count_nonzero(count)))


def brier_score(confidences, correct):
    """Mean of (confidence - outcome) squared over all predictions; 0.0 for empty input."""
    p, y = _validated(confidences, correct)
    if p.size == 0:
        return 0.0
    miss = p - y
    return float(miss @ miss / miss.size)
