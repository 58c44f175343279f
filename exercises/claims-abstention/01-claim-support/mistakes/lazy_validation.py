# mistake: only the facts a claim looks at are validated, so a broken unrelated fact row passes
# expect-fail: invalid-unused-fact
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
    if not isinstance(facts, list) or len(facts) > 128:
        raise ValueError("bad facts")
    result = []
    for claim in claims:
        rows = [f for f in facts if isinstance(f, dict)
                and f.get("entity") == claim["entity"] and f.get("attribute") == claim["attribute"]]
        _valid(rows, {"entity", "attribute", "value", "source"}, 128)
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
