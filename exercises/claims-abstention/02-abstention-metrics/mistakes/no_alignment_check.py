# mistake: lengths never compared; zip() silently drops the extra predictions
# expect-fail: more-predictions
def abstention_metrics(predictions, targets):
    if not isinstance(predictions, list) or not isinstance(targets, list):
        raise ValueError("lists please")
    if not 1 <= len(targets) <= 1000:
        raise ValueError("1 to 1000 items")
    if any(not isinstance(t, str) or t == "" for t in targets):
        raise ValueError("bad target")
    if any(p is not None and (not isinstance(p, str) or p == "") for p in predictions):
        raise ValueError("bad prediction")
    pairs = list(zip(predictions, targets))
    total = len(targets)
    answered = sum(p is not None for p, _ in pairs)
    correct = sum(p == t for p, t in pairs)
    return {
        "total": total,
        "answered": answered,
        "correct": correct,
        "coverage": answered / total,
        "overall_accuracy": correct / total,
        "answered_accuracy": correct / answered if answered else None,
        "risk": (answered - correct) / answered if answered else None,
    }
