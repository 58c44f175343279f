import numpy as np


def expected_calibration_error(confidences, correct, bins=10):
    raise NotImplementedError("expected_calibration_error")


def brier_score(confidences, correct):
    raise NotImplementedError("brier_score")
