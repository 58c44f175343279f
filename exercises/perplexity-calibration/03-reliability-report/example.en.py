confidences = [0.25, 0.5, 0.75, 1.0]
correct = [0, 1, 1, 1]
[values.tolist() for values in reliability_diagram(confidences, correct, bins=4)]
