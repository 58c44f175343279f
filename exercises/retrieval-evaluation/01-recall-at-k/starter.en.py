def recall_at_k(ranking, relevant, k):
    """The share of the relevant documents found in ranking[:k], as a float (k is the cutoff: how many places
    count); ValueError for invalid input."""
    raise NotImplementedError  # replace this line with your code
