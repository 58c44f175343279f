"""Wrong on purpose (tests only): knows the no-break space but not the other Unicode whitespace, so it passes every
curated case of claims-abstention 1 and fails generated ones."""

def _check(rows, keys, limit):
    if not isinstance(rows, list) or len(rows) > limit:
        raise ValueError("list")
    for row in rows:
        if not isinstance(row, dict) or set(row) != keys:
            raise ValueError("keys")
        for text in row.values():
            if not isinstance(text, str) or not text.strip(" \t\n\r\x0b\x0c\xa0") or len(text) > 200:
                raise ValueError("field")


def claim_support(claims, facts):
    _check(claims, {"entity", "attribute", "value"}, 32)
    _check(facts, {"entity", "attribute", "value", "source"}, 128)
    values, sources = {}, {}
    for f in facts:
        values.setdefault((f["entity"], f["attribute"]), set()).add(f["value"])
        sources.setdefault((f["entity"], f["attribute"]), set()).add(f["source"])
    out = []
    for c in claims:
        known = values.get((c["entity"], c["attribute"]), set())
        status = ("unknown" if not known else "conflict" if len(known) > 1
                  else "supported" if c["value"] in known else "contradicted")
        out.append({"status": status, "sources": sorted(sources.get((c["entity"], c["attribute"]), ()))})
    return out
