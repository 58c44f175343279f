# mistake: token counts added in their own numpy dtype, so a uint8 total of 300 wraps round to 44
# expect-fail: uint8-counts
import math
from dataclasses import dataclass


@dataclass
class PerplexityResult:
    perplexity: float
    avg_neg_log_likelihood: float
    total_tokens: int

    @classmethod
    def from_token_nll(cls, neg_log_probs, token_counts):
        if len(neg_log_probs) != len(token_counts):
            raise ValueError("one token count per NLL sum")
        if any(x < 0 for x in neg_log_probs):
            raise ValueError("a negative NLL sum: did you forget the minus sign?")
        if any(n < 0 for n in token_counts):
            raise ValueError("a negative token count")
        tokens = int(sum(token_counts))
        if tokens == 0:
            return cls(math.nan, 0.0, 0)
        average = sum(float(x) for x in neg_log_probs) / tokens
        return cls(math.exp(average), average, tokens)


def perplexity(neg_log_probs, token_counts):
    return PerplexityResult.from_token_nll(neg_log_probs, token_counts).perplexity
