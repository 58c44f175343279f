confidences = [0.25, 0.5, 0.75, 1.0]
correct = [0, 1, 1, 1]
expected_calibration_error(confidences, correct), brier_score(confidences, correct)
