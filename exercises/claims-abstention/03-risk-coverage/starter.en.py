import numpy as np


def risk_coverage_curve(scores, correct, thresholds):
    """For each threshold, answer the cases with score >= threshold and measure coverage and risk.

    scores:     list, tuple or 1-D numpy array, 1 to 1000 finite numbers in [0, 1] (a bool is a number).
    correct:    one real bool per score (list/tuple of True/False, or a 1-D numpy array with dtype bool).
    thresholds: list, tuple or 1-D numpy array, 1 to 101 finite numbers in [0, 1].
    Invalid input: ValueError.

    Returns, per distinct threshold in ascending order, a dict with threshold (float), answered (int),
    correct (int), coverage (float) and risk (float, or None when nothing is answered).
    """
    raise NotImplementedError("write risk_coverage_curve")
