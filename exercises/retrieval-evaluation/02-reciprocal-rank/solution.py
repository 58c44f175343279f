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


def reciprocal_rank(ranking, relevant):
    """1 / the place (counting from 1) of the first relevant document in the ranking; 0.0 when none is there."""
    wanted = set(relevant)
    for place, doc in enumerate(ranking, start=1):
        if doc in wanted:
            return 1 / place
    return 0.0


def mean_reciprocal_rank(rankings, relevant):
    """The mean of the reciprocal ranks over the queries: rankings[i] is judged against relevant[i]."""
    if type(rankings) is not list or type(relevant) is not list:
        raise ValueError("rankings and relevant must be lists, one item per query")
    if len(rankings) != len(relevant):
        raise ValueError("rankings and relevant must have one item per query each")
    if not rankings:
        raise ValueError("the mean over no queries is not defined")
    for ranking, judged in zip(rankings, relevant):
        _documents(ranking, "a ranking")
        if not _documents(judged, "a relevant list"):
            raise ValueError("a query without relevant documents cannot be scored")
    return sum(reciprocal_rank(r, j) for r, j in zip(rankings, relevant)) / len(rankings)
