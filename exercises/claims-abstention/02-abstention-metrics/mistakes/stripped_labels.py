# mistake: labels compared after strip().lower(), so 'Factuur' and 'storing ' count as right
# expect-fail: case-and-space-differ
def _check(predictions, targets):
    if not isinstance(predictions, list) or not isinstance(targets, list):
        raise ValueError("lists please")
    if not 1 <= len(targets) <= 1000 or len(predictions) != len(targets):
        raise ValueError("1 to 1000 aligned items")
    if any(not isinstance(t, str) or t == "" for t in targets):
        raise ValueError("bad target")
    if any(p is not None and (not isinstance(p, str) or p == "") for p in predictions):
        raise ValueError("bad prediction")


def abstention_metrics(predictions, targets):
    _check(predictions, targets)
    total = len(targets)
    answered = len(predictions) - predictions.count(None)
    correct = sum(p is not None and p.strip().lower() == t.strip().lower() for p, t in zip(predictions, targets))
    return {
        "total": total,
        "answered": answered,
        "correct": correct,
        "coverage": answered / total,
        "overall_accuracy": correct / total,
        "answered_accuracy": correct / answered if answered else None,
        "risk": (answered - correct) / answered if answered else None,
    }
