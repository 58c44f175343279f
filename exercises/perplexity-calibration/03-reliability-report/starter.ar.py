"""نقطة التحقق 3: بيانات مخطط الموثوقية وتقرير المعايرة."""

from dataclasses import dataclass

import numpy as np

# الصق هنا دالتيك من نقطة التحقق 2، مع دوالهما المساعدة:
#   expected_calibration_error
#   brier_score
# يحتاج التقرير إليهما، وسيُقيَّمان مجددًا عبره.


def reliability_diagram(confidences, correct, bins=10):
    # الفحوص والحاويات نفسها كما في نقطة التحقق 2
    # (و bins <= 0 يرفع ValueError هنا أيضًا).
    # أعد tuple من ثلاث مصفوفات numpy طول كل منها bins:
    #   bin_conf   عشري: متوسط الثقة (0.0 للحاوية الفارغة)
    #   bin_acc    عشري: نسبة الصواب (0.0 للحاوية الفارغة)
    #   bin_count  صحيح: عدد التنبؤات
    # المدخلات الفارغة: ثلاث مصفوفات صفرية طولها bins.
    raise NotImplementedError("reliability_diagram")


@dataclass
class CalibrationReport:
    ece: float
    brier: float
    populated_bins: int
    reliability: tuple
    n_samples: int

    @classmethod
    def from_predictions(cls, confidences, correct, bins=10):
        # املأ الحقول الخمسة من الدوال الثلاث.
        # n_samples هو عدد التنبؤات.
        raise NotImplementedError("from_predictions")
