"""نقطة التحقق 1: حيرة المدوَّنة."""

import math
from dataclasses import dataclass


@dataclass
class PerplexityResult:
    perplexity: float
    avg_neg_log_likelihood: float
    total_tokens: int

    @classmethod
    def from_token_nll(cls, neg_log_probs, token_counts):
        # المدخلات:
        #   neg_log_probs[i]  مجموع -log p للتسلسل i (لوغاريتم طبيعي)
        #   token_counts[i]   عدد رموز التسلسل i
        # 1. ارفع ValueError في ثلاث حالات:
        #    - اختلاف الطولين
        #    - مجموع NLL أقل من 0 (اذكر أن إشارة السالب ربما نُسيت)
        #    - عدد رموز أقل من 0
        # 2. مجموع الرموز صفر؟ أعد:
        #    cls(math.nan, 0.0, 0)
        # 3. وإلا: المتوسط = مجموع NLL ÷ مجموع الرموز
        #    والحيرة = exp(المتوسط)
        # total_tokens عدد int من بايثون، حتى مع مدخلات numpy.
        raise NotImplementedError("from_token_nll")


def perplexity(neg_log_probs, token_counts):
    # الحيرة وحدها كعدد float (وتكون nan عند انعدام الرموز).
    raise NotImplementedError("perplexity")
