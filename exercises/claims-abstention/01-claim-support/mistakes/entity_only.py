# mistake: evidence looked up by entity alone, so facts about another attribute count
# expect-fail: other-attribute
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
    by_entity = {}
    for f in facts:
        by_entity.setdefault(f["entity"], []).append(f)
    result = []
    for claim in claims:
        rows = by_entity.get(claim["entity"], [])
        values = {f["value"] for f in rows}
        if not values:
            status = "unknown"
        elif len(values) > 1:
            status = "conflict"
        elif claim["value"] in values:
            status = "supported"
        else:
            status = "contradicted"
        result.append({"status": status, "sources": sorted({f["source"] for f in rows})})
    return result
