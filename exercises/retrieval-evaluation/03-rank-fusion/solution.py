def _documents(value, what):
    """A list of distinct document ids (non-blank strings), else ValueError."""
    if type(value) is not list:
        raise ValueError(f"{what} must be a list")
    for doc in value:
        if type(doc) is not str or not doc.strip():
            raise ValueError(f"{what} holds {doc!r}, not a document id")
    if len(set(value)) != len(value):
        raise ValueError(f"{what} names a document twice")
    return value


def reciprocal_rank_fusion(rankings, k=60):
    """Fuse rankings: every document scores the sum of 1 / (k + place) over the rankings that hold it (places count
    from 1). Returns (document, score) tuples, the highest score first; scores equal to 12 decimals in id order."""
    if type(rankings) is not list:
        raise ValueError("rankings must be a list of rankings")
    for ranking in rankings:
        _documents(ranking, "a ranking")
    if type(k) is not int or k < 0:
        raise ValueError("k must be an int of at least 0")
    scores = {}
    for ranking in rankings:
        for place, doc in enumerate(ranking, start=1):
            scores[doc] = scores.get(doc, 0.0) + 1 / (k + place)
    return sorted(scores.items(), key=lambda item: (-round(item[1], 12), item[0]))
