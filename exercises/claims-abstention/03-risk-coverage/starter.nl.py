import numpy as np


def risk_coverage_curve(scores, correct, thresholds):
    """Beantwoord per drempel de gevallen met score >= drempel en meet coverage en risico.

    scores:     lijst, tuple of 1-D numpy-array, 1 tot en met 1000 eindige getallen in [0, 1] (een bool is een getal).
    correct:    één echte bool per score (lijst/tuple met True/False, of een 1-D numpy-array met dtype bool).
    thresholds: lijst, tuple of 1-D numpy-array, 1 tot en met 101 eindige getallen in [0, 1].
    Ongeldige invoer: ValueError.

    Geeft per unieke drempel, oplopend, een dict met threshold (float), answered (int),
    correct (int), coverage (float) en risk (float, of None als er niets beantwoord is).
    """
    raise NotImplementedError("schrijf risk_coverage_curve")
