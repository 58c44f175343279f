"""نقطة التحقق 2: خطأ المعايرة المتوقع (ECE) ودرجة Brier."""

import numpy as np


def expected_calibration_error(confidences, correct, bins=10):
    # confidences: قيم في [0, 1]؛ correct: ‏0/1 أو True/False؛ كل منهما قائمة أو مصفوفة numpy أحادية البعد.
    # 1. ارفع ValueError في الحالات: اختلاف الشكلين أو عدم كونهما أحاديي البعد، ثقة خارج [0, 1]،
    #    تسمية غير 0/1/True/False، أو bins <= 0.
    # 2. المدخلات الفارغة: أعد (0.0, 0).
    # 3. رقم الحاوية: np.searchsorted(np.linspace(0, 1, bins + 1), p, side="right") - 1، مقصوصًا إلى [0, bins - 1].
    # 4. ECE = مجموع (الحجم ÷ N) × |متوسط الثقة − الدقة| على الحاويات المأهولة.
    # أعد (ece, populated_bins) كـ tuple من (float, int).
    raise NotImplementedError("اكتب expected_calibration_error")


def brier_score(confidences, correct):
    # الفحوص نفسها (عدا bins)؛ 0.0 للمدخلات الفارغة؛ وإلا فمتوسط (p - y) ** 2 كعدد float.
    raise NotImplementedError("اكتب brier_score")
