"""Reference solution: checkpoint 2 of claims-abstention (abstention_metrics)."""

MAX_ITEMS = 1000


def abstention_metrics(predictions, targets):
    """Count answers, abstentions (None) and hits, and derive coverage, accuracies and risk.

    Abstentions stay in the total N; answered_accuracy and risk are None when nothing is answered.
    """
    if not isinstance(predictions, list) or not isinstance(targets, list):
        raise ValueError("predictions and targets must both be lists")
    total = len(targets)
    if not 1 <= total <= MAX_ITEMS:
        raise ValueError(f"give between 1 and {MAX_ITEMS} targets, got {total}")
    if len(predictions) != total:
        raise ValueError(f"{len(predictions)} predictions for {total} targets")
    for target in targets:
        if not isinstance(target, str) or target == "":
            raise ValueError(f"every target must be a non-empty str, got {target!r}")
    for prediction in predictions:
        if prediction is not None and (not isinstance(prediction, str) or prediction == ""):
            raise ValueError(f"a prediction is a non-empty str or None, got {prediction!r}")

    answered = 0
    correct = 0
    for prediction, target in zip(predictions, targets):
        if prediction is None:
            continue
        answered += 1
        if prediction == target:
            correct += 1

    return {
        "total": total,
        "answered": answered,
        "correct": correct,
        "coverage": answered / total,
        "overall_accuracy": correct / total,
        "answered_accuracy": correct / answered if answered else None,
        "risk": (answered - correct) / answered if answered else None,
    }
