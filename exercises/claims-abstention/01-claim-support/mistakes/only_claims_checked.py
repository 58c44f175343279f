# mistake: only the claims are validated; the facts are trusted as they come
# expect-fail: whitespace-source
def _check(rows, keys, limit):
    if not isinstance(rows, list) or len(rows) > limit:
        raise ValueError("expected a list within the limit")
    for row in rows:
        if not isinstance(row, dict) or set(row) != keys:
            raise ValueError("wrong keys")
        for text in row.values():
            if not isinstance(text, str) or not text.strip() or len(text) > 200:
                raise ValueError("wrong field")


def claim_support(claims, facts):
    _check(claims, {"entity", "attribute", "value"}, 32)
    values, sources = {}, {}
    for f in facts:
        key = (f["entity"], f["attribute"])
        values.setdefault(key, set()).add(f["value"])
        sources.setdefault(key, set()).add(f["source"])
    result = []
    for c in claims:
        key = (c["entity"], c["attribute"])
        known = values.get(key, set())
        if not known:
            status = "unknown"
        elif len(known) > 1:
            status = "conflict"
        elif c["value"] in known:
            status = "supported"
        else:
            status = "contradicted"
        result.append({"status": status, "sources": sorted(sources.get(key, set()))})
    return result
