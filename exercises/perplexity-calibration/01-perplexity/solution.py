"""Reference solution: checkpoint 1 of perplexity-calibration (corpus perplexity)."""

import math
from dataclasses import dataclass


@dataclass
class PerplexityResult:
    """Corpus perplexity, the mean negative log-likelihood per token, and the number of tokens behind them."""

    perplexity: float
    avg_neg_log_likelihood: float
    total_tokens: int

    @classmethod
    def from_token_nll(cls, neg_log_probs, token_counts):
        """Pool per-sequence NLL sums and token counts into one corpus-level result.

        neg_log_probs[i] is the summed -log p (natural log) of sequence i, token_counts[i] its number of tokens.
        Both may be lists or 1-D numpy arrays.
        """
        sums = [float(x) for x in neg_log_probs]
        counts = [int(n) for n in token_counts]
        if len(sums) != len(counts):
            raise ValueError(f"got {len(sums)} NLL sums but {len(counts)} token counts; they must pair up")
        for position, value in enumerate(sums):
            if value < 0:
                raise ValueError(
                    f"neg_log_probs[{position}] = {value} is negative: a negative log-likelihood is never below 0. "
                    "Did you pass log p instead of -log p (a forgotten minus sign)?"
                )
        for position, count in enumerate(counts):
            if count < 0:
                raise ValueError(f"token_counts[{position}] = {count} is negative")

        total_tokens = sum(counts)
        if total_tokens == 0:
            # Nothing was scored: report "undefined" instead of dividing by zero.
            return cls(perplexity=math.nan, avg_neg_log_likelihood=0.0, total_tokens=0)
        average = math.fsum(sums) / total_tokens
        return cls(perplexity=math.exp(average), avg_neg_log_likelihood=average, total_tokens=total_tokens)


def perplexity(neg_log_probs, token_counts):
    """Corpus perplexity exp(sum of NLL / sum of tokens) as a float; nan when there are no tokens."""
    return PerplexityResult.from_token_nll(neg_log_probs, token_counts).perplexity
