"""Alternative correct abstention_metrics: one explicit loop with counters, validation inside the same loop."""


def abstention_metrics(predictions, targets):
    if type(predictions) is not list or type(targets) is not list:
        raise ValueError("both arguments must be lists")
    n = len(targets)
    if n < 1 or n > 1000 or len(predictions) != n:
        raise ValueError("1 to 1000 aligned items")
    answered = correct = 0
    for i in range(n):
        p, t = predictions[i], targets[i]
        if not isinstance(t, str) or len(t) == 0:
            raise ValueError(f"target {i} must be a non-empty str")
        if p is None:
            continue
        if not isinstance(p, str) or len(p) == 0:
            raise ValueError(f"prediction {i} must be a non-empty str or None")
        answered += 1
        if p == t:
            correct += 1
    rate = (lambda part, whole: part / whole if whole else None)
    return {"total": n, "answered": answered, "correct": correct, "coverage": answered / n,
            "overall_accuracy": correct / n, "answered_accuracy": rate(correct, answered),
            "risk": rate(answered - correct, answered)}
