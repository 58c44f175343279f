# mistake: only '' is rejected among predictions; numbers and other non-str values are accepted
# expect-fail: int-prediction
def abstention_metrics(predictions, targets):
    if not isinstance(predictions, list) or not isinstance(targets, list):
        raise ValueError("lists please")
    if not 1 <= len(targets) <= 1000 or len(predictions) != len(targets):
        raise ValueError("1 to 1000 aligned items")
    if any(not isinstance(t, str) or t == "" for t in targets):
        raise ValueError("bad target")
    if any(p == "" for p in predictions):
        raise ValueError("empty prediction")
    total = len(targets)
    answered = len(predictions) - predictions.count(None)
    correct = sum(1 for i, t in enumerate(targets) if predictions[i] == t)
    return {
        "total": total,
        "answered": answered,
        "correct": correct,
        "coverage": answered / total,
        "overall_accuracy": correct / total,
        "answered_accuracy": correct / answered if answered else None,
        "risk": (answered - correct) / answered if answered else None,
    }
