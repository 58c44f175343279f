"""Alternative correct claim_support: comprehensions and a dict of sets built in one expression."""

CLAIM = {"entity", "attribute", "value"}
FACT = CLAIM | {"source"}


def _valid(rows, keys, limit):
    return (isinstance(rows, list) and len(rows) <= limit
            and all(isinstance(r, dict) and r.keys() == keys
                    and all(isinstance(v, str) and v.strip() != "" and len(v) <= 200 for v in r.values())
                    for r in rows))


def claim_support(claims, facts):
    if not (_valid(claims, CLAIM, 32) and _valid(facts, FACT, 128)):
        raise ValueError("claims (max 32) and facts (max 128) must be lists of well-formed records")
    pairs = {(f["entity"], f["attribute"]) for f in facts}
    values = {p: {f["value"] for f in facts if (f["entity"], f["attribute"]) == p} for p in pairs}
    sources = {p: sorted({f["source"] for f in facts if (f["entity"], f["attribute"]) == p}) for p in pairs}

    def status(c):
        found = values.get((c["entity"], c["attribute"]), set())
        return ("unknown" if not found else "conflict" if len(found) > 1
                else "supported" if c["value"] in found else "contradicted")

    return [{"status": status(c), "sources": list(sources.get((c["entity"], c["attribute"]), []))} for c in claims]
