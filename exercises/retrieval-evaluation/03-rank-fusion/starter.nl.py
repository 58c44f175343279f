def reciprocal_rank_fusion(rankings, k=60):
    """(document, score)-tuples, de hoogste eerst: elke ranking telt per document 1 / (k + plaats) op, met k de
    RRF-constante (geen grens); ValueError bij ongeldige invoer."""
    raise NotImplementedError  # vervang deze regel door je eigen code
