"""Checkpoint 1: corpus perplexity from per-sequence negative log-likelihoods."""

import math
from dataclasses import dataclass


@dataclass
class PerplexityResult:
    perplexity: float
    avg_neg_log_likelihood: float
    total_tokens: int

    @classmethod
    def from_token_nll(cls, neg_log_probs, token_counts):
        # neg_log_probs[i]: summed -log p of sequence i (natural log); token_counts[i]: its number of tokens.
        # 1. Raise ValueError when the lengths differ, an NLL sum is below 0
        #    (say that the minus sign may be missing), or a count is below 0.
        # 2. Zero tokens in total: return cls(math.nan, 0.0, 0).
        # 3. Otherwise: average = total NLL / total tokens, perplexity = exp(average).
        #    total_tokens must be a Python int, also for numpy input.
        raise NotImplementedError("write PerplexityResult.from_token_nll")


def perplexity(neg_log_probs, token_counts):
    # The corpus perplexity as a float (nan when there are no tokens).
    raise NotImplementedError("write perplexity")
