# mistake: accepts a negative token count
# expect-fail: negative-count

import math
from dataclasses import dataclass


@dataclass
class PerplexityResult:
    perplexity: float
    avg_neg_log_likelihood: float
    total_tokens: int

    @classmethod
    def from_token_nll(cls, neg_log_probs, token_counts):
        nlls = [float(x) for x in neg_log_probs]
        counts = [int(n) for n in token_counts]
        if len(nlls) != len(counts):
            raise ValueError("lengths differ")
        if any(x < 0 for x in nlls):
            raise ValueError("negative NLL: forgot the minus sign?")
        tokens = sum(counts)
        if tokens == 0:
            return cls(math.nan, 0.0, 0)
        avg = sum(nlls) / tokens
        return cls(math.exp(avg), avg, tokens)


def perplexity(neg_log_probs, token_counts):
    return PerplexityResult.from_token_nll(neg_log_probs, token_counts).perplexity
