def claim_support(claims, facts):
    """Judge every claim with the registered facts about the same entity/attribute pair.

    claims: list of at most 32 dicts with exactly the keys entity, attribute and value.
    facts:  list of at most 128 dicts with exactly entity, attribute, value and source.
    Every field is a str that is non-empty after strip() and at most 200 characters long.
    Invalid input: ValueError.

    Returns, per claim and in the same order, {'status': ..., 'sources': [...]} with status
    'supported', 'contradicted', 'unknown' or 'conflict' and sources sorted, without duplicates.
    """
    raise NotImplementedError("write claim_support")
