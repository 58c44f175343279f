predictions = ["yes", None, None, "no"]
targets = ["yes", "yes", "no", "yes"]
abstention_metrics(predictions, targets)
