"""Checkpoint 2: expected calibration error (ECE) and the Brier score."""

import numpy as np


def expected_calibration_error(confidences, correct, bins=10):
    # confidences: values in [0, 1]; correct: 0/1 or True/False; a list, tuple or 1-D numpy array each.
    # 1. Raise ValueError for: different shapes or not 1-D, a confidence outside [0, 1],
    #    a label other than 0/1/True/False, bins <= 0.
    # 2. Empty input: return (0.0, 0).
    # 3. Bin index: edges = np.linspace(0, 1, bins + 1), then
    #    np.searchsorted(edges, p, side="right") - 1, clipped to [0, bins - 1].
    # 4. ECE = sum over populated bins of (size / N) * |mean confidence - accuracy|.
    # Return (ece, populated_bins) as a tuple (float, int).
    raise NotImplementedError("write expected_calibration_error")


def brier_score(confidences, correct):
    # The same checks (bins aside); 0.0 for empty input; otherwise the mean of (p - y) ** 2 as a float.
    raise NotImplementedError("write brier_score")
