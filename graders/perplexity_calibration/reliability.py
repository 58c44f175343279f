"""Hidden grader: perplexity-calibration, checkpoint 3 (reliability_diagram and CalibrationReport)."""

import numpy as np

from graders.engine.domain import Domain
from graders.perplexity_calibration.common import (
    BINS_SKIP,
    GRID_BINS,
    THREE_CONFIDENCES_TWO_LABELS,
    case_builder,
    edge_grid,
    edge_grid_explain,
    outside_unit_interval,
    prediction_params,
    random_explain,
    random_predictions,
    t,
)

DOMAINS = [
    Domain(call, prediction_params(True), aligned=(("confidences", "correct"),), skip=BINS_SKIP)
    for call in ("reliability_diagram", "CalibrationReport.from_predictions")
]

RANDOM_CASES = 16

#: The case whose expected and actual results the site draws as reliability diagrams.
PLOT_CASE = "forty-predictions"

BIN_CHOICES = (1, 2, 4, 5, 10, 10, 15)

# A slightly overconfident model: 40 predictions spread over bins 2 to 9 (bins 0 and 1 stay empty).
FORTY_CONF = [
    0.22,
    0.25,
    0.28,
    0.31,
    0.34,
    0.36,
    0.39,
    0.41,
    0.44,
    0.46,
    0.48,
    0.51,
    0.53,
    0.55,
    0.57,
    0.59,
    0.61,
    0.63,
    0.65,
    0.66,
    0.68,
    0.69,
    0.71,
    0.72,
    0.74,
    0.76,
    0.77,
    0.79,
    0.81,
    0.83,
    0.84,
    0.86,
    0.88,
    0.89,
    0.91,
    0.93,
    0.95,
    0.97,
    0.99,
    1.0,
]
FORTY_RIGHT = [
    0,
    0,
    1,
    0,
    1,
    0,
    0,
    1,
    0,
    0,
    1,
    1,
    0,
    1,
    0,
    0,
    1,
    0,
    1,
    1,
    0,
    0,
    1,
    1,
    0,
    1,
    0,
    1,
    1,
    1,
    0,
    1,
    1,
    0,
    1,
    1,
    1,
    0,
    1,
    1,
]


_SHAPE_HINT = t(
    "Geef een tuple van drie numpy-arrays van lengte bins terug: gemiddelde zekerheid (float), nauwkeurigheid "
    "(float) en aantal (een integer-dtype, bv. np.int64).",
    "Return a tuple of three numpy arrays of length bins: mean confidence (float), accuracy (float) and count (an "
    "integer dtype such as np.int64).",
    "أعد tuple من ثلاث مصفوفات numpy طول كل منها bins: متوسط الثقة (float)، والدقة (float)، والعدد (نوع صحيح مثل "
    "np.int64).",
)
_EMPTY_BIN_HINT = t(
    "Een lege bak krijgt 0.0 voor zekerheid en nauwkeurigheid (en aantal 0), geen nan. Begin met np.zeros en vul "
    "alleen de gevulde bakken.",
    "An empty bin gets 0.0 for confidence and accuracy (and count 0), not nan. Start from np.zeros and fill only the "
    "populated bins.",
    "الحاوية الفارغة تأخذ 0.0 للثقة والدقة (والعدد 0)، لا nan. ابدأ بـ np.zeros واملأ الحاويات غير الفارغة فقط.",
)
_EDGE_HINT = t(
    'Gebruik dezelfde bakindeling als in checkpoint 2: searchsorted(randen, p, side="right") − 1, begrensd tot '
    "[0, bins − 1].",
    'Use the same binning as in checkpoint 2: searchsorted(edges, p, side="right") − 1, clipped to [0, bins − 1].',
    'استخدم تقسيم الحاويات نفسه كما في نقطة التحقق 2: searchsorted(edges, p, side="right") − 1، ثم يُحصر الناتج في '
    "المجال [0, bins − 1].",
)
_CHECK_HINT = t(
    "Controleer de invoer (vorm, bereik, labels, bins) zoals in checkpoint 2 en gooi ValueError.",
    "Check the input (shape, range, labels, bins) as in checkpoint 2 and raise ValueError.",
    "افحص المدخلات (الشكل والمدى والتسميات وbins) كما في نقطة التحقق 2 وارفع ValueError.",
)
_REPORT_HINT = t(
    "Het rapport heeft vijf attributen: ece (float), brier (float), populated_bins (int), reliability (het tuple "
    "van drie arrays) en n_samples (int, het aantal voorspellingen).",
    "The report has five attributes: ece (float), brier (float), populated_bins (int), reliability (the tuple of "
    "three arrays) and n_samples (int, the number of predictions).",
    "للتقرير خمس خصائص: ece (float) وbrier (float) وpopulated_bins (int) وreliability (الـ tuple ذو المصفوفات "
    "الثلاث) وn_samples (int، عدد التنبؤات).",
)


_rel = case_builder("reliability_diagram", _SHAPE_HINT)
_report = case_builder("CalibrationReport.from_predictions", _REPORT_HINT)


def curated():
    """Yield the curated cases: the plotted example, bin layout and edges, invalid input, then the report."""
    yield _rel(
        "forty-predictions",
        (list(FORTY_CONF), list(FORTY_RIGHT)),
        {"bins": 10},
        t(
            "40 voorspellingen van een iets te zeker model in 10 bakken; bak 0 en 1 blijven leeg. Dit geval wordt "
            "als betrouwbaarheidsdiagram getekend.",
            "40 predictions of a slightly overconfident model in 10 bins; bins 0 and 1 stay empty. This case is drawn "
            "as the reliability diagram.",
            "‏40 تنبؤًا من نموذج مفرط الثقة قليلًا في 10 حاويات؛ الحاويتان 0 و1 تبقيان فارغتين. هذه الحالة تُرسم "
            "في مخطط الموثوقية.",
        ),
    )
    yield _rel(
        "four-predictions",
        ([0.05, 0.15, 0.85, 0.95], [0, 0, 1, 1]),
        {"bins": 10},
        t(
            "Vier voorspellingen in de bakken 0, 1, 8 en 9; de zes bakken ertussen zijn leeg (0.0 en aantal 0).",
            "Four predictions in bins 0, 1, 8 and 9; the six bins between them are empty (0.0 and count 0).",
            "أربعة تنبؤات في الحاويات 0 و1 و8 و9؛ الحاويات الست بينها فارغة (0.0 والعدد 0).",
        ),
    )
    yield _rel(
        "empty-bins-are-zero",
        ([0.05, 0.95, 0.93], [0, 1, 0]),
        {"bins": 10},
        t(
            "Alleen bak 0 en bak 9 zijn gevuld; de lege bakken 1 tot en met 8 moeten 0.0 bevatten, geen nan.",
            "Only bin 0 and bin 9 are populated; the empty bins 1 to 8 must hold 0.0, not nan.",
            "الحاويتان 0 و9 وحدهما غير فارغتين؛ يجب أن تحمل الحاويات الفارغة من 1 إلى 8 القيمة 0.0، لا nan.",
        ),
        hint=_EMPTY_BIN_HINT,
    )
    yield _rel(
        "empty-input",
        ([], []),
        {"bins": 10},
        t(
            "Lege invoer: drie nul-arrays van lengte 10 (de laatste met een integer-dtype), zonder waarschuwing.",
            "Empty input: three zero arrays of length 10 (the last with an integer dtype), with no warning.",
            "مدخلات فارغة: ثلاث مصفوفات صفرية طولها 10 (الأخيرة من نوع صحيح)، بلا تحذير.",
        ),
        hint=_EMPTY_BIN_HINT,
        forbid_warnings=True,
    )
    yield _rel(
        "empty-input-four-bins",
        ([], []),
        {"bins": 4},
        t(
            "Lege invoer met bins = 4: de arrays hebben lengte 4, niet 10.",
            "Empty input with bins = 4: the arrays have length 4, not 10.",
            "مدخلات فارغة مع bins = 4: طول المصفوفات 4، لا 10.",
        ),
        hint=_EMPTY_BIN_HINT,
        forbid_warnings=True,
    )
    yield _rel(
        "default-ten-bins",
        ([0.12, 0.18, 0.82, 0.88], [0, 1, 1, 0]),
        {},
        t(
            "Zonder bins-argument: 10 bakken, dus arrays van lengte 10.",
            "Without a bins argument: 10 bins, so arrays of length 10.",
            "بدون وسيط bins: عشر حاويات، فطول المصفوفات 10.",
        ),
    )
    yield _rel(
        "edges",
        ([0.0, 0.1, 0.5, 1.0], [0, 1, 1, 1]),
        {"bins": 10},
        t(
            "De randen 0.0, 0.1, 0.5 en 1.0 komen in de bakken 0, 1, 5 en 9.",
            "The edges 0.0, 0.1, 0.5 and 1.0 land in bins 0, 1, 5 and 9.",
            "الحدود 0.0 و0.1 و0.5 و1.0 تقع في الحاويات 0 و1 و5 و9.",
        ),
        hint=_EDGE_HINT,
    )
    for bins in GRID_BINS:
        yield _rel(f"edge-grid-{bins}", edge_grid(bins), {"bins": bins}, edge_grid_explain(bins), hint=_EDGE_HINT)
    yield _rel(
        "point-three-point-six-point-seven",
        ([0.3, 0.6, 0.7, 0.25], [1, 0, 1, 0]),
        {"bins": 10},
        t(
            "Met 10 bakken liggen 0.3, 0.6 en 0.7 net onder hun berekende rand (0.30000000000000004, "
            "0.6000000000000001, 0.7000000000000001): ze horen in de bakken 2, 5 en 6, niet 3, 6 en 7.",
            "With 10 bins, 0.3, 0.6 and 0.7 lie just below their computed edges (0.30000000000000004, "
            "0.6000000000000001, 0.7000000000000001): they belong in bins 2, 5 and 6, not 3, 6 and 7.",
            "مع 10 حاويات تقع 0.3 و0.6 و0.7 تحت حدودها المحسوبة مباشرة (0.30000000000000004 و0.6000000000000001 "
            "و0.7000000000000001): مكانها الحاويات 2 و5 و6 لا 3 و6 و7.",
        ),
        hint=_EDGE_HINT,
    )
    yield _rel(
        "three-hundred-in-one-bin",
        ([0.95] * 300, [1] * 300),
        {},
        t(
            "300 voorspellingen in de laatste bak: het aantal is 300, meer dan een uint8 kan bevatten. Gebruik een "
            "gewoon integer-dtype zoals np.int64.",
            "300 predictions in the last bin: the count is 300, more than a uint8 holds. Use an ordinary integer "
            "dtype such as np.int64.",
            "300 تنبؤ في الحاوية الأخيرة: العدد 300، أكثر مما يتسع له uint8. استخدم نوعًا صحيحًا عاديًا مثل np.int64.",
        ),
    )
    yield _rel(
        "one-bin",
        ([0.2, 0.9, 0.6, 0.4], [0, 1, 1, 1]),
        {"bins": 1},
        t(
            "Eén bak: arrays van lengte 1 met de totale gemiddelde zekerheid 0.525, nauwkeurigheid 0.75 en aantal 4.",
            "One bin: arrays of length 1 with the overall mean confidence 0.525, accuracy 0.75 and count 4.",
            "حاوية واحدة: مصفوفات طولها 1 فيها متوسط الثقة الكلي 0.525، والدقة 0.75، والعدد 4.",
        ),
    )
    yield _rel(
        "fifteen-bins",
        (np.array([0.03, 0.5, 0.51, 0.97, 0.7]), np.array([False, True, False, True, True])),
        {"bins": 15},
        t(
            "15 bakken, numpy-invoer met bool-labels: 0.5 en 0.51 delen bak 7.",
            "15 bins, numpy input with bool labels: 0.5 and 0.51 share bin 7.",
            "‏15 حاوية، ومدخلات numpy بتسميات منطقية: 0.5 و0.51 تشتركان في الحاوية 7.",
        ),
    )
    yield _rel(
        "bins-zero",
        ([0.5], [1]),
        {"bins": 0},
        t(
            "bins = 0: ValueError, net als bij de ECE.",
            "bins = 0: ValueError, just as for the ECE.",
            "‏bins = 0: ValueError، كما في ECE.",
        ),
        hint=_CHECK_HINT,
    )
    yield _rel(
        "confidence-above-one",
        ([0.4, 1.5], [0, 1]),
        {"bins": 10},
        outside_unit_interval("1.5"),
        hint=_CHECK_HINT,
    )
    yield _rel(
        "label-two",
        ([0.4, 0.6], [2, 1]),
        {"bins": 10},
        t(
            "Label 2: ValueError.",
            "Label 2: ValueError.",
            "التسمية 2: ValueError.",
        ),
        hint=_CHECK_HINT,
    )
    yield _rel(
        "misaligned",
        ([0.4, 0.6, 0.7], [1, 0]),
        {"bins": 10},
        THREE_CONFIDENCES_TWO_LABELS,
        hint=_CHECK_HINT,
    )
    yield _rel(
        "two-dimensional",
        ([[0.4, 0.6]], [[1, 0]]),
        {"bins": 10},
        t(
            "2-D invoer: ValueError.",
            "2-D input: ValueError.",
            "مدخلات ثنائية الأبعاد: ValueError.",
        ),
        hint=_CHECK_HINT,
    )
    yield _report(
        "report-four-predictions",
        ([0.05, 0.15, 0.85, 0.95], [0, 0, 1, 1]),
        {"bins": 10},
        t(
            "Het rapport van vier voorspellingen: ece 0.1, brier 0.0125, 4 gevulde bakken, het tuple met drie "
            "arrays, n_samples 4.",
            "The report of four predictions: ece 0.1, brier 0.0125, 4 populated bins, the tuple of three arrays, "
            "n_samples 4.",
            "تقرير أربعة تنبؤات: ece يساوي 0.1، وbrier يساوي 0.0125، وأربع حاويات غير فارغة، والـ tuple ذو المصفوفات "
            "الثلاث، وn_samples يساوي 4.",
        ),
    )
    yield _report(
        "report-point-three",
        ([0.25, 0.3], [1, 0]),
        {"bins": 10},
        t(
            "Ook in het rapport telt de berekende rand: 0.3 ligt met 0.25 in bak 2, dus ece 0.225 en 1 gevulde bak "
            "(met 0.3 * 10 in bak 3 zou het 0.525 en 2 zijn). De functies uit checkpoint 2 moeten dit al goed doen.",
            "In the report too the computed edge counts: 0.3 shares bin 2 with 0.25, so ece 0.225 and 1 populated "
            "bin (with 0.3 * 10 in bin 3 it would be 0.525 and 2). The checkpoint 2 functions must get this right.",
            "في التقرير أيضًا يُعتمد الحد المحسوب: تقع 0.3 مع 0.25 في الحاوية 2، فـ ece يساوي 0.225 وحاوية واحدة غير "
            "فارغة (ولو وُضعت 0.3 * 10 في الحاوية 3 لكانا 0.525 و2). ودوال نقطة التحقق 2 يجب أن تصيب في ذلك أصلًا.",
        ),
        hint=_EDGE_HINT,
    )
    yield _report(
        "report-forty-predictions",
        (np.array(FORTY_CONF), np.array(FORTY_RIGHT)),
        {},
        t(
            "Het rapport van de 40 voorspellingen als numpy-arrays, met de standaard 10 bakken.",
            "The report of the 40 predictions as numpy arrays, with the default 10 bins.",
            "تقرير التنبؤات الأربعين في صورة مصفوفات numpy، مع الحاويات العشر الافتراضية.",
        ),
    )
    yield _report(
        "report-fifteen-bins",
        ([0.03, 0.5, 0.51, 0.97, 0.7], [0, 1, 0, 1, 1]),
        {"bins": 15},
        t(
            "bins = 15 moet zowel de ECE als het betrouwbaarheidsdiagram bereiken.",
            "bins = 15 must reach both the ECE and the reliability diagram.",
            "يجب أن تصل bins = 15 إلى ECE وإلى مخطط الموثوقية كليهما.",
        ),
    )
    yield _report(
        "report-empty",
        ([], []),
        {"bins": 10},
        t(
            "Leeg rapport: ece 0.0, brier 0.0, 0 gevulde bakken, nul-arrays van lengte 10, n_samples 0, zonder "
            "waarschuwing.",
            "Empty report: ece 0.0, brier 0.0, 0 populated bins, zero arrays of length 10, n_samples 0, with no "
            "warning.",
            "تقرير فارغ: ece يساوي 0.0، وbrier يساوي 0.0، ولا حاوية غير فارغة، ومصفوفات صفرية طولها 10، وn_samples "
            "يساوي 0، بلا تحذير.",
        ),
        forbid_warnings=True,
    )
    yield _report(
        "report-bool-labels",
        ([0.9, 0.85, 0.3], [True, False, False]),
        {"bins": 5},
        t(
            "Booleans als labels, 5 bakken.",
            "Booleans as labels, 5 bins.",
            "قيم منطقية للتسميات، مع 5 حاويات.",
        ),
    )
    yield _report(
        "report-bins-zero",
        ([0.5], [1]),
        {"bins": 0},
        t(
            "Een rapport met bins = 0: ValueError.",
            "A report with bins = 0: ValueError.",
            "تقرير مع bins = 0: ValueError.",
        ),
        hint=_CHECK_HINT,
    )
    yield _report(
        "report-label-two",
        ([0.5, 0.5], [1, 2]),
        {"bins": 10},
        t(
            "Een rapport met label 2: ValueError.",
            "A report with label 2: ValueError.",
            "تقرير بتسمية 2: ValueError.",
        ),
        hint=_CHECK_HINT,
    )


def random_cases(rng, count):
    """Yield `count` random prediction sets (0 to 25 predictions), alternating diagram and report cases."""
    for number in range(count):
        bins, size, args = random_predictions(rng, BIN_CHOICES, 25)
        build = _report if number % 2 else _rel
        yield build(f"random-{number}", args, {"bins": bins}, random_explain(size, bins))
