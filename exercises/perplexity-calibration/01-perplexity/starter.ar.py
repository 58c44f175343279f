"""نقطة التحقق 1: حيرة المدوَّنة من مجاميع سالب لوغاريتم الاحتمال لكل تسلسل."""

import math
from dataclasses import dataclass


@dataclass
class PerplexityResult:
    perplexity: float
    avg_neg_log_likelihood: float
    total_tokens: int

    @classmethod
    def from_token_nll(cls, neg_log_probs, token_counts):
        # neg_log_probs[i]: مجموع -log p للتسلسل i (لوغاريتم طبيعي)؛ token_counts[i]: عدد رموزه.
        # 1. ارفع ValueError إذا اختلف الطولان، أو كان مجموع NLL أقل من 0
        #    (واذكر أن إشارة السالب ربما نُسيت)، أو كان عدد أقل من 0.
        # 2. إذا كان مجموع الرموز صفرًا: أعد cls(math.nan, 0.0, 0).
        # 3. وإلا: المتوسط = مجموع NLL ÷ مجموع الرموز، والحيرة = exp(المتوسط).
        #    يجب أن يكون total_tokens من نوع int في بايثون، حتى مع مدخلات numpy.
        raise NotImplementedError("اكتب PerplexityResult.from_token_nll")


def perplexity(neg_log_probs, token_counts):
    # حيرة المدوَّنة كعدد عشري float (وتكون nan عند انعدام الرموز).
    raise NotImplementedError("اكتب perplexity")
