"""Alternative correct claim_support: collections.Counter per pair, one pass over the facts per claim."""
from collections import Counter


def claim_support(claims, facts):
    """Same contract as the reference, written with Counter and an explicit pair filter."""
    for rows, keys, limit in ((claims, ("attribute", "entity", "value"), 32),
                              (facts, ("attribute", "entity", "source", "value"), 128)):
        if type(rows) is not list or len(rows) > limit:
            raise ValueError("expected a list within the limit")
        for row in rows:
            if not isinstance(row, dict) or set(row) != set(keys):
                raise ValueError("wrong keys")
            if not all(isinstance(v, str) and v.strip() and len(v) <= 200 for v in row.values()):
                raise ValueError("wrong field")
    out = []
    for c in claims:
        evidence = [f for f in facts if f["entity"] == c["entity"] and f["attribute"] == c["attribute"]]
        votes = Counter(f["value"] for f in evidence)
        if len(votes) == 0:
            status = "unknown"
        elif len(votes) >= 2:
            status = "conflict"
        else:
            status = "supported" if votes[c["value"]] else "contradicted"
        out.append({"sources": sorted(set(f["source"] for f in evidence)), "status": status})
    return out
