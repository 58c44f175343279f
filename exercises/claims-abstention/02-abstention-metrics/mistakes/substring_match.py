# mistake: a prediction counts as right when it occurs inside the target (or the target inside it)
# expect-fail: substring-is-wrong
def abstention_metrics(predictions, targets):
    if not isinstance(predictions, list) or not isinstance(targets, list):
        raise ValueError("lists expected")
    if not 1 <= len(targets) <= 1000 or len(predictions) != len(targets):
        raise ValueError("1 to 1000 aligned items")
    for t in targets:
        if not isinstance(t, str) or t == "":
            raise ValueError("targets are non-empty strings")
    for p in predictions:
        if p is not None and (not isinstance(p, str) or p == ""):
            raise ValueError("predictions are non-empty strings or None")
    answered = sum(1 for p in predictions if p is not None)
    correct = sum(1 for p, t in zip(predictions, targets) if p is not None and (p in t or t in p))
    total = len(targets)
    return {"total": total, "answered": answered, "correct": correct,
            "coverage": answered / total, "overall_accuracy": correct / total,
            "answered_accuracy": correct / answered if answered else None,
            "risk": (answered - correct) / answered if answered else None}
