def claim_support(claims, facts):
    """Beoordeel elke claim met de geregistreerde feiten over hetzelfde entity/attribute-paar.

    claims: lijst van hoogstens 32 dicts met precies de sleutels entity, attribute en value.
    facts:  lijst van hoogstens 128 dicts met precies entity, attribute, value en source.
    Elk veld is een str die na strip() niet leeg is en hoogstens 200 tekens telt.
    Ongeldige invoer: ValueError.

    Geeft per claim, in dezelfde volgorde, {'status': ..., 'sources': [...]} terug met status
    'supported', 'contradicted', 'unknown' of 'conflict' en sources gesorteerd en zonder dubbelen.
    """
    raise NotImplementedError("schrijf claim_support")
