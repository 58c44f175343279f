"""Checkpoint 1, refusing float and boolean token counts (the task leaves them open): a count must be an integer,
Python's or numpy's, whatever the container. Integer arrays of every width are read as Python ints."""

import math
import operator


class PerplexityResult:
    def __init__(self, perplexity, avg_neg_log_likelihood, total_tokens):
        self.perplexity = perplexity
        self.avg_neg_log_likelihood = avg_neg_log_likelihood
        self.total_tokens = total_tokens

    @classmethod
    def from_token_nll(cls, neg_log_probs, token_counts):
        nlls = [float(value) for value in neg_log_probs]
        counts = []
        for count in token_counts:
            if isinstance(count, bool):
                raise ValueError("a token count is a number of tokens, not True or False")
            try:
                counts.append(operator.index(count))  # ints and numpy integers only
            except TypeError:
                raise ValueError(f"a token count must be a whole number, not {count!r}") from None
        if len(nlls) != len(counts):
            raise ValueError("one token count per NLL sum")
        if any(value < 0 for value in nlls):
            raise ValueError("an NLL sum below 0: was the minus sign of a log-probability forgotten?")
        if any(count < 0 for count in counts):
            raise ValueError("a token count below 0")
        total = sum(counts)
        if total == 0:
            return cls(math.nan, 0.0, 0)
        mean = math.fsum(nlls) / total
        return cls(math.exp(mean), mean, total)


def perplexity(neg_log_probs, token_counts):
    return PerplexityResult.from_token_nll(neg_log_probs, token_counts).perplexity
