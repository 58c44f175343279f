from dataclasses import dataclass

import numpy as np


def reliability_diagram(confidences, correct, bins=10):
    raise NotImplementedError("reliability_diagram")


@dataclass
class CalibrationReport:
    ece: float
    brier: float
    populated_bins: int
    reliability: tuple
    n_samples: int

    @classmethod
    def from_predictions(cls, confidences, correct, bins=10):
        raise NotImplementedError("from_predictions")
