"""Alternative correct mean_reciprocal_rank: reciprocal ranks collected in a numpy array, then its mean."""
import numpy as np


def _ids(value):
    if type(value) is not list or any(type(d) is not str or not d.strip() for d in value) \
            or len(set(value)) < len(value):
        raise ValueError("a list of distinct document ids is needed")
    return value


def mean_reciprocal_rank(rankings, relevant):
    if type(rankings) is not list or type(relevant) is not list or len(rankings) != len(relevant) or not rankings:
        raise ValueError("one ranking and one judgement per query")
    scores = np.zeros(len(rankings))
    for i, (ranking, judged) in enumerate(zip(rankings, relevant)):
        _ids(ranking)
        if not _ids(judged):
            raise ValueError("empty judgement")
    for i, (ranking, judged) in enumerate(zip(rankings, relevant)):
        places = [p for p, doc in enumerate(ranking, start=1) if doc in judged]
        scores[i] = 1 / places[0] if places else 0.0
    return float(scores.mean())
