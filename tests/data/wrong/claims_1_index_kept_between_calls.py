"""Wrong on purpose (tests only): right on every call made on its own, wrong after other calls, because the index of
facts is a global that every call adds to and none clears."""

INDEX = {}
CLAIM_KEYS = {"entity", "attribute", "value"}
FACT_KEYS = CLAIM_KEYS | {"source"}


def _check(rows, keys, most):
    if not isinstance(rows, list) or len(rows) > most:
        raise ValueError("expected a list of at most %d rows" % most)
    for row in rows:
        if not isinstance(row, dict) or set(row) != keys:
            raise ValueError("a row must be a dict with the keys %s" % sorted(keys))
        for text in row.values():
            if not isinstance(text, str) or not text.strip() or len(text) > 200:
                raise ValueError("every field is a non-blank text of at most 200 characters")


def claim_support(claims, facts):
    _check(claims, CLAIM_KEYS, 32)
    _check(facts, FACT_KEYS, 128)
    for fact in facts:
        values, sources = INDEX.setdefault((fact["entity"], fact["attribute"]), (set(), set()))
        values.add(fact["value"])
        sources.add(fact["source"])
    result = []
    for claim in claims:
        values, sources = INDEX.get((claim["entity"], claim["attribute"]), (set(), set()))
        if not values:
            status = "unknown"
        elif len(values) > 1:
            status = "conflict"
        else:
            status = "supported" if claim["value"] in values else "contradicted"
        result.append({"status": status, "sources": sorted(sources)})
    return result
