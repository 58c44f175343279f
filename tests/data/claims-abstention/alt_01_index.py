"""Alternative correct claim_support: a nested dict index (pair -> value -> sources), validation by exceptions."""


def _validate(rows, keys, limit):
    """Raise ValueError unless rows is a list of dicts with exactly `keys`, each a non-blank str of <= 200 chars."""
    try:
        assert isinstance(rows, list) and len(rows) <= limit
        for row in rows:
            assert isinstance(row, dict) and row.keys() == keys
            for key in keys:
                assert isinstance(row[key], str) and len(row[key].strip()) > 0 and len(row[key]) <= 200
    except AssertionError:
        raise ValueError("invalid input") from None


def claim_support(claims, facts):
    """Same contract as the reference."""
    _validate(claims, {"entity", "attribute", "value"}, 32)
    _validate(facts, {"entity", "attribute", "value", "source"}, 128)
    index = {}
    for f in facts:
        index.setdefault((f["entity"], f["attribute"]), {}).setdefault(f["value"], set()).add(f["source"])
    verdicts = []
    for c in claims:
        by_value = index.get((c["entity"], c["attribute"]), {})
        sources = sorted(set().union(*by_value.values())) if by_value else []
        if not by_value:
            verdicts.append({"status": "unknown", "sources": sources})
        elif len(by_value) > 1:
            verdicts.append({"status": "conflict", "sources": sources})
        elif c["value"] in by_value:
            verdicts.append({"status": "supported", "sources": sources})
        else:
            verdicts.append({"status": "contradicted", "sources": sources})
    return verdicts
