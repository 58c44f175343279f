def recall_at_k(ranking, relevant, k):
    """Het aandeel van de relevante documenten dat in ranking[:k] staat, als float (k is de grens: hoeveel
    plaatsen meetellen); ValueError bij ongeldige invoer."""
    raise NotImplementedError  # vervang deze regel door je eigen code
