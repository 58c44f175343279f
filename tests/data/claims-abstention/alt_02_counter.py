"""Alternative correct abstention_metrics: one Counter over outcome labels."""
from collections import Counter


def abstention_metrics(predictions, targets):
    """Same contract as the reference, tallying 'abstain' / 'hit' / 'miss' with a Counter."""
    if type(predictions) is not list or type(targets) is not list:
        raise ValueError("lists expected")
    if not 0 < len(targets) <= 1000 or len(predictions) != len(targets):
        raise ValueError("1..1000 aligned items expected")
    tally = Counter()
    for p, t in zip(predictions, targets):
        if not isinstance(t, str) or t == "":
            raise ValueError("bad target")
        if p is None:
            tally["abstain"] += 1
        elif not isinstance(p, str) or p == "":
            raise ValueError("bad prediction")
        else:
            tally["hit" if p == t else "miss"] += 1
    total = len(targets)
    answered = tally["hit"] + tally["miss"]
    return {
        "total": total,
        "answered": answered,
        "correct": tally["hit"],
        "coverage": answered / total,
        "overall_accuracy": tally["hit"] / total,
        "answered_accuracy": None if answered == 0 else tally["hit"] / answered,
        "risk": None if answered == 0 else tally["miss"] / answered,
    }
