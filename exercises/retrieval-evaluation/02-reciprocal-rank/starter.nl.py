def mean_reciprocal_rank(rankings, relevant):
    """Het gemiddelde over de vragen van 1 / plaats van het eerste relevante document (0.0 als er geen is);
    ValueError bij ongeldige invoer."""
    raise NotImplementedError  # vervang deze regel door je eigen code
