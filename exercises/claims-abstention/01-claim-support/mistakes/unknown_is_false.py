# mistake: no evidence is reported as contradicted, as if missing evidence proved the claim false
# expect-fail: no-facts
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
    result = []
    for claim in claims:
        rows = [f for f in facts if f["entity"] == claim["entity"] and f["attribute"] == claim["attribute"]]
        values = {f["value"] for f in rows}
        if len(values) > 1:
            status = "conflict"
        elif claim["value"] in values:
            status = "supported"
        else:
            status = "contradicted"
        result.append({"status": status, "sources": sorted({f["source"] for f in rows})})
    return result
