"""Alternative correct solution for checkpoint 1: a plain class with properties, pure-Python loops."""

import math


class PerplexityResult:
    """Stores the totals; the three graded values are computed properties."""

    def __init__(self, nll_total, tokens):
        self._nll_total = nll_total
        self._tokens = tokens

    @property
    def total_tokens(self):
        return self._tokens

    @property
    def avg_neg_log_likelihood(self):
        return self._nll_total / self._tokens if self._tokens else 0.0

    @property
    def perplexity(self):
        return math.exp(self.avg_neg_log_likelihood) if self._tokens else float("nan")

    @classmethod
    def from_token_nll(cls, neg_log_probs, token_counts):
        if len(neg_log_probs) != len(token_counts):
            raise ValueError("one token count per NLL sum, please")
        nll_total = 0.0
        tokens = 0
        for i in range(len(neg_log_probs)):
            nll, count = float(neg_log_probs[i]), int(token_counts[i])
            if nll < 0:
                raise ValueError("negative NLL: log p passed where -log p was meant?")
            if count < 0:
                raise ValueError("negative token count")
            nll_total += nll
            tokens += count
        return cls(nll_total, tokens)


def perplexity(neg_log_probs, token_counts):
    return PerplexityResult.from_token_nll(neg_log_probs, token_counts).perplexity
