def mean_reciprocal_rank(rankings, relevant):
    """The mean over the queries of 1 / place of the first relevant document (0.0 when none); ValueError for
    invalid input."""
    raise NotImplementedError  # replace this line with your code
