"""Alternative correct reciprocal_rank_fusion: a defaultdict and a two-step sort (id first, then stable by score)."""
from collections import defaultdict


def reciprocal_rank_fusion(rankings, k=60):
    if type(rankings) is not list:
        raise ValueError("rankings must be a list")
    for ranking in rankings:
        if type(ranking) is not list:
            raise ValueError("a ranking must be a list")
        for doc in ranking:
            if type(doc) is not str or not doc.strip():
                raise ValueError("a document id must be a non-blank str")
        if len(set(ranking)) != len(ranking):
            raise ValueError("a ranking names a document twice")
    if type(k) is not int or k < 0:
        raise ValueError("k must be an int >= 0")
    fused = defaultdict(float)
    for ranking in rankings:
        for index, doc in enumerate(ranking):
            fused[doc] += 1.0 / (k + index + 1)
    by_id = sorted(fused.items())
    return sorted(by_id, key=lambda pair: round(pair[1], 12), reverse=True)
