"""Alternative correct checkpoint 1: explicit loops, math.fsum for the total, a NamedTuple-free plain class."""
import math


class PerplexityResult:
    def __init__(self, perplexity, avg_neg_log_likelihood, total_tokens):
        self.perplexity = perplexity
        self.avg_neg_log_likelihood = avg_neg_log_likelihood
        self.total_tokens = total_tokens

    @classmethod
    def from_token_nll(cls, neg_log_probs, token_counts):
        sums = list(neg_log_probs)
        counts = list(token_counts)
        if len(sums) != len(counts):
            raise ValueError("neg_log_probs and token_counts differ in length")
        total = 0
        for i in range(len(sums)):
            if sums[i] < 0:
                raise ValueError("a negative NLL: maybe log p was passed instead of -log p")
            if counts[i] < 0:
                raise ValueError("a negative token count")
            total += int(counts[i])
        if total == 0:
            return cls(float("nan"), 0.0, 0)
        mean = math.fsum(float(x) for x in sums) / total
        return cls(math.exp(mean), mean, total)


def perplexity(neg_log_probs, token_counts):
    return PerplexityResult.from_token_nll(neg_log_probs, token_counts).perplexity
