"""Reference solution: checkpoint 1 of claims-abstention (claim_support)."""

CLAIM_KEYS = frozenset({"entity", "attribute", "value"})
FACT_KEYS = frozenset({"entity", "attribute", "value", "source"})
MAX_CLAIMS = 32
MAX_FACTS = 128
MAX_CHARS = 200


def _check_rows(rows, keys, limit, label):
    """Raise ValueError unless rows is a list of at most `limit` dicts with exactly `keys` as valid text fields."""
    if not isinstance(rows, list):
        raise ValueError(f"{label} must be a list")
    if len(rows) > limit:
        raise ValueError(f"at most {limit} {label} are allowed, got {len(rows)}")
    for position, row in enumerate(rows):
        if not isinstance(row, dict) or set(row) != keys:
            raise ValueError(f"{label}[{position}] must be a dict with exactly the keys {sorted(keys)}")
        for key, text in row.items():
            if not isinstance(text, str) or not text.strip() or len(text) > MAX_CHARS:
                raise ValueError(f"{label}[{position}][{key!r}] must be a non-blank str of at most {MAX_CHARS} characters")


def claim_support(claims, facts):
    """Judge every claim against the registered facts for the same entity and attribute.

    Returns one dict {'status': ..., 'sources': [...]} per claim, in the order of `claims`.
    """
    _check_rows(claims, CLAIM_KEYS, MAX_CLAIMS, "claims")
    _check_rows(facts, FACT_KEYS, MAX_FACTS, "facts")

    values_by_pair = {}   # (entity, attribute) -> set of registered values
    sources_by_pair = {}  # (entity, attribute) -> set of sources
    for fact in facts:
        pair = (fact["entity"], fact["attribute"])
        values_by_pair.setdefault(pair, set()).add(fact["value"])
        sources_by_pair.setdefault(pair, set()).add(fact["source"])

    verdicts = []
    for claim in claims:
        pair = (claim["entity"], claim["attribute"])
        values = values_by_pair.get(pair, set())
        if not values:
            status = "unknown"
        elif len(values) > 1:
            status = "conflict"
        elif claim["value"] in values:
            status = "supported"
        else:
            status = "contradicted"
        verdicts.append({"status": status, "sources": sorted(sources_by_pair.get(pair, ()))})
    return verdicts
