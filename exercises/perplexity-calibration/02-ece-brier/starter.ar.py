"""نقطة التحقق 2: خطأ المعايرة المتوقع (ECE) ودرجة Brier."""

import numpy as np


def expected_calibration_error(confidences, correct, bins=10):
    # المدخلات: قائمتان أو مصفوفتا numpy أحاديتا البعد.
    #   confidences  قيم في [0, 1]
    #   correct      0/1 أو True/False
    # 1. ارفع ValueError في هذه الحالات:
    #    - اختلاف الشكلين، أو مدخلات غير أحادية البعد
    #    - ثقة خارج [0, 1]
    #    - تسمية غير 0 و1 وTrue وFalse
    #    - bins <= 0
    # 2. المدخلات الفارغة: أعد (0.0, 0)
    # 3. رقم الحاوية:
    #    edges = np.linspace(0, 1, bins + 1)
    #    np.searchsorted(edges, p, side="right") - 1
    #    ثم قصّه إلى [0, bins - 1]
    # 4. لكل حاوية مأهولة أضف:
    #    (الحجم / N) * |متوسط الثقة - الدقة|
    # أعد tuple من (float, int): (ece, populated_bins)
    raise NotImplementedError("expected_calibration_error")


def brier_score(confidences, correct):
    # الفحوص نفسها (عدا bins). المدخلات الفارغة: 0.0
    # وإلا: متوسط (p - y) ** 2 كعدد float.
    raise NotImplementedError("brier_score")
