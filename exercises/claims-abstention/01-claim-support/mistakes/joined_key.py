# mistake: the lookup key glues entity and attribute into one string, so ('lampk','leur') hits ('lamp','kleur')
# expect-fail: joined-key-no-collision
def _valid(rows, keys, limit):
    if not isinstance(rows, list) or len(rows) > limit:
        raise ValueError("bad list")
    for row in rows:
        if not isinstance(row, dict) or set(row) != keys:
            raise ValueError("bad keys")
        for text in row.values():
            if not isinstance(text, str) or not text.strip() or len(text) > 200:
                raise ValueError("bad field")


def claim_support(claims, facts):
    _valid(claims, {"entity", "attribute", "value"}, 32)
    _valid(facts, {"entity", "attribute", "value", "source"}, 128)
    values, sources = {}, {}
    for f in facts:
        key = f["entity"] + f["attribute"]
        values.setdefault(key, set()).add(f["value"])
        sources.setdefault(key, set()).add(f["source"])
    result = []
    for claim in claims:
        key = claim["entity"] + claim["attribute"]
        known = values.get(key, set())
        if not known:
            status = "unknown"
        elif len(known) > 1:
            status = "conflict"
        elif claim["value"] in known:
            status = "supported"
        else:
            status = "contradicted"
        result.append({"status": status, "sources": sorted(sources.get(key, set()))})
    return result
