"""Alternative correct claim_support, as a learner who debugs with logging and traceback writes it: every call is
logged, and an invalid input's traceback is logged before the ValueError goes on (a Check must allow both, in CPython
and in Pyodide)."""

import logging
import traceback

log = logging.getLogger("claims")


def _field_ok(text):
    return isinstance(text, str) and text.strip() != "" and len(text) <= 200


def _check(rows, keys, most, what):
    if type(rows) is not list or len(rows) > most:
        raise ValueError(f"{what}: a list of at most {most} rows")
    for row in rows:
        if not isinstance(row, dict) or set(row) != keys or not all(_field_ok(row[key]) for key in keys):
            raise ValueError(f"{what}: every row a dict with exactly {sorted(keys)}, each a non-blank str")


def claim_support(claims, facts):
    """Same contract as the reference."""
    log.info("claim_support(%d claims, %d facts)", len(claims) if isinstance(claims, list) else -1, 0)
    try:
        _check(claims, {"entity", "attribute", "value"}, 32, "claims")
        _check(facts, {"entity", "attribute", "value", "source"}, 128, "facts")
    except ValueError:
        log.debug("rejected:\n%s", traceback.format_exc())
        log.warning("rejected input", exc_info=True, stack_info=False)
        raise
    values, sources = {}, {}
    for fact in facts:
        key = fact["entity"], fact["attribute"]
        values.setdefault(key, set()).add(fact["value"])
        sources.setdefault(key, set()).add(fact["source"])
    out = []
    for claim in claims:
        key = claim["entity"], claim["attribute"]
        found = values.get(key, set())
        if not found:
            status = "unknown"
        elif len(found) > 1:
            status = "conflict"
        else:
            status = "supported" if claim["value"] in found else "contradicted"
        out.append({"status": status, "sources": sorted(sources.get(key, set()))})
    logging.getLogger("claims.result").warning("%d verdicts", len(out))
    return out
