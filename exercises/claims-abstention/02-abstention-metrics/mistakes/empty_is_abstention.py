# mistake: '' treated as an abstention (falsy check) instead of invalid input
# expect-fail: empty-prediction
def abstention_metrics(predictions, targets):
    if not isinstance(predictions, list) or not isinstance(targets, list):
        raise ValueError("lists please")
    if not 1 <= len(targets) <= 1000 or len(predictions) != len(targets):
        raise ValueError("1 to 1000 aligned items")
    if any(not isinstance(t, str) or t == "" for t in targets):
        raise ValueError("bad target")
    if any(p is not None and not isinstance(p, str) for p in predictions):
        raise ValueError("bad prediction")
    total = len(targets)
    answered = sum(1 for p in predictions if p)
    correct = sum(1 for p, t in zip(predictions, targets) if p and p == t)
    return {
        "total": total,
        "answered": answered,
        "correct": correct,
        "coverage": answered / total,
        "overall_accuracy": correct / total,
        "answered_accuracy": correct / answered if answered else None,
        "risk": (answered - correct) / answered if answered else None,
    }
