"""Checkpoint 3: reliability-diagram data and the calibration report."""

from dataclasses import dataclass

import numpy as np

# Your checkpoint-2 code (shown above this editor) runs first: CalibrationReport calls its
# expected_calibration_error and brier_score, so they are graded again through the report.


def reliability_diagram(confidences, correct, bins=10):
    # Same checks and the same bins as expected_calibration_error (bins <= 0 raises ValueError too).
    # Return a tuple (bin_conf, bin_acc, bin_count) of numpy arrays of length bins:
    #   bin_conf  float: mean confidence per bin (0.0 for an empty bin)
    #   bin_acc   float: share of correct predictions per bin (0.0 for an empty bin)
    #   bin_count integer dtype: number of predictions per bin
    # Empty input: three zero arrays of length bins.
    raise NotImplementedError("write reliability_diagram")


@dataclass
class CalibrationReport:
    ece: float
    brier: float
    populated_bins: int
    reliability: tuple
    n_samples: int

    @classmethod
    def from_predictions(cls, confidences, correct, bins=10):
        # Fill every field from the three functions; n_samples is the number of predictions.
        raise NotImplementedError("write CalibrationReport.from_predictions")
