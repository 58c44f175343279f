"""Checkpoint 1, refusing what the task does not name: anything that is not one-dimensional raises ValueError
(the task leaves arrays of more dimensions open), lists, tuples and 1-D arrays are read as they are."""

import math
from dataclasses import dataclass

import numpy as np


def _one_dimensional(values, name):
    if isinstance(values, np.ndarray):
        if values.ndim != 1:
            raise ValueError(f"{name} must be one-dimensional, got shape {values.shape}")
        return values.tolist()
    if not isinstance(values, (list, tuple)):
        raise ValueError(f"{name} must be a list, a tuple or a 1-D array")
    return list(values)


@dataclass
class PerplexityResult:
    perplexity: float
    avg_neg_log_likelihood: float
    total_tokens: int

    @classmethod
    def from_token_nll(cls, neg_log_probs, token_counts):
        sums = _one_dimensional(neg_log_probs, "neg_log_probs")
        counts = _one_dimensional(token_counts, "token_counts")
        if len(sums) != len(counts):
            raise ValueError(f"{len(sums)} NLL sums but {len(counts)} token counts")
        for value in sums:
            if value < 0:
                raise ValueError(f"NLL sum {value} is below 0: was the minus sign forgotten?")
        for count in counts:
            if count < 0:
                raise ValueError(f"token count {count} is below 0")
        tokens = int(sum(int(c) for c in counts))
        if tokens == 0:
            return cls(math.nan, 0.0, 0)
        average = math.fsum(float(v) for v in sums) / tokens
        return cls(math.exp(average), average, tokens)


def perplexity(neg_log_probs, token_counts):
    return PerplexityResult.from_token_nll(neg_log_probs, token_counts).perplexity
