"""نقطة التحقق 3: بيانات مخطط الموثوقية وتقرير المعايرة."""

from dataclasses import dataclass

import numpy as np

# الصق هنا expected_calibration_error وbrier_score من نقطة التحقق 2 (مع دوالهما المساعدة):
# يحتاج CalibrationReport إليهما كليهما، وسيُقيَّمان مجددًا عبر التقرير.


def reliability_diagram(confidences, correct, bins=10):
    # الفحوص والحاويات نفسها كما في expected_calibration_error (و bins <= 0 يرفع ValueError أيضًا).
    # أعد tuple من (bin_conf, bin_acc, bin_count)، مصفوفات numpy طول كل منها bins:
    #   bin_conf  عشري: متوسط الثقة في كل حاوية (0.0 للحاوية الفارغة)
    #   bin_acc   عشري: نسبة التنبؤات الصحيحة في كل حاوية (0.0 للحاوية الفارغة)
    #   bin_count نوع صحيح: عدد التنبؤات في كل حاوية
    # المدخلات الفارغة: ثلاث مصفوفات صفرية طولها bins.
    raise NotImplementedError("اكتب reliability_diagram")


@dataclass
class CalibrationReport:
    ece: float
    brier: float
    populated_bins: int
    reliability: tuple
    n_samples: int

    @classmethod
    def from_predictions(cls, confidences, correct, bins=10):
        # املأ كل الحقول من الدوال الثلاث؛ n_samples هو عدد التنبؤات.
        raise NotImplementedError("اكتب CalibrationReport.from_predictions")
