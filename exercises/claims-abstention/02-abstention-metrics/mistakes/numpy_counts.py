# mistake: counts come from numpy sums, so answered and correct are numpy integers instead of int
# expect-fail: seed-worked-example
import numpy as np

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
    given = np.array([p is not None for p in predictions])
    hits = np.array([p == t for p, t in zip(predictions, targets)])
    total = len(targets)
    answered = given.sum()
    correct = hits.sum()
    return {
        "total": total,
        "answered": answered,
        "correct": correct,
        "coverage": float(answered / total),
        "overall_accuracy": float(correct / total),
        "answered_accuracy": float(correct / answered) if answered else None,
        "risk": float((answered - correct) / answered) if answered else None,
    }
