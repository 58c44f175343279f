# mistake: a NaN prediction is taken as an abstention, like None
# expect-fail: nan-prediction
def abstention_metrics(predictions, targets):
    if not isinstance(predictions, list) or not isinstance(targets, list):
        raise ValueError("lists expected")
    if not 1 <= len(targets) <= 1000 or len(predictions) != len(targets):
        raise ValueError("1 to 1000 aligned items")
    for t in targets:
        if not isinstance(t, str) or t == "":
            raise ValueError("targets are non-empty strings")
    for p in predictions:
        if p is not None and p == p and (not isinstance(p, str) or p == ""):
            raise ValueError("predictions are non-empty strings or None")
    answered = sum(1 for p in predictions if p is not None and p == p)
    correct = sum(1 for p, t in zip(predictions, targets) if p is not None and p == p and p == t)
    total = len(targets)
    return {"total": total, "answered": answered, "correct": correct,
            "coverage": answered / total, "overall_accuracy": correct / total,
            "answered_accuracy": correct / answered if answered else None,
            "risk": (answered - correct) / answered if answered else None}
