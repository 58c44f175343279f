"""Alternative correct recall_at_k: one validation loop, counting hits in a plain for loop."""


def _check(ids):
    if not isinstance(ids, list) or isinstance(ids, bool):
        raise ValueError("not a list")
    seen = set()
    for doc in ids:
        if not isinstance(doc, str) or doc.strip() == "" or doc in seen:
            raise ValueError("bad id")
        seen.add(doc)


def recall_at_k(ranking, relevant, k):
    _check(ranking)
    _check(relevant)
    if len(relevant) == 0 or isinstance(k, bool) or not isinstance(k, int) or k <= 0:
        raise ValueError("bad input")
    hits = 0
    for doc in relevant:
        if doc in ranking[:k]:
            hits += 1
    return hits / len(relevant)
