def reciprocal_rank_fusion(rankings, k=60):
    """(document, score) tuples, highest first: each ranking adds 1 / (k + place) per document, k being the RRF
    constant (not a cutoff); ValueError for invalid input."""
    raise NotImplementedError  # replace this line with your code
