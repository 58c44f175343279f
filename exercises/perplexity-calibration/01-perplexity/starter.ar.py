import math
from dataclasses import dataclass


@dataclass
class PerplexityResult:
    perplexity: float
    avg_neg_log_likelihood: float
    total_tokens: int

    @classmethod
    def from_token_nll(cls, neg_log_probs, token_counts):
        raise NotImplementedError("from_token_nll")


def perplexity(neg_log_probs, token_counts):
    raise NotImplementedError("perplexity")
