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


def recall_at_k(ranking, relevant, k):
    """The share of the relevant documents that appear in the first k places of the ranking."""
    _documents(ranking, "ranking")
    _documents(relevant, "relevant")
    if not relevant:
        raise ValueError("recall is not defined without relevant documents")
    if type(k) is not int or k < 1:
        raise ValueError("k must be an int of at least 1")
    found = set(ranking[:k]) & set(relevant)
    return len(found) / len(relevant)
