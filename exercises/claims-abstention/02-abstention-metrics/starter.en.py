def abstention_metrics(predictions, targets):
    """Count answers and abstentions and compute coverage, accuracy and risk.

    predictions: list of non-empty strings or None (None = abstain).
    targets:     list of the same length with non-empty strings; 1 to 1000 items.
    Invalid input: ValueError.

    Returns a dict with total, answered, correct (int), coverage and overall_accuracy (float),
    answered_accuracy and risk (float, or None when nothing is answered).
    """
    raise NotImplementedError("write abstention_metrics")
