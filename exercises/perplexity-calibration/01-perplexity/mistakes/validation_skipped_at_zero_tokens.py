# mistake: no tokens returns the empty result before the NLL sums are checked
# expect-fail: negative-nll-zero-tokens
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
        tokens = sum(int(n) for n in token_counts)
        if tokens == 0:
            return cls(math.nan, 0.0, 0)
        if any(x < 0 for x in neg_log_probs):
            raise ValueError("a negative NLL sum: did you forget the minus sign?")
        if any(n < 0 for n in token_counts):
            raise ValueError("a negative token count")
        average = sum(float(x) for x in neg_log_probs) / tokens
        return cls(math.exp(average), average, tokens)


def perplexity(neg_log_probs, token_counts):
    return PerplexityResult.from_token_nll(neg_log_probs, token_counts).perplexity
