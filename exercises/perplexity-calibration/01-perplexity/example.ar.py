nll_sums = [12.0, 3.0, 9.0]
token_counts = [4, 2, 10]
PerplexityResult.from_token_nll(nll_sums, token_counts)
