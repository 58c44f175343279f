"""Hidden grader: perplexity-calibration, checkpoint 2 (expected_calibration_error and brier_score)."""

import numpy as np

from graders.engine.domain import Domain
from graders.perplexity_calibration.common import (
    BINS_SKIP,
    GRID_BINS,
    OPEN_FAMILIES,
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
    Domain(
        "expected_calibration_error", prediction_params(True), aligned=(("confidences", "correct"),), skip=BINS_SKIP
    ),
    Domain("brier_score", prediction_params(False), aligned=(("confidences", "correct"),), skip=OPEN_FAMILIES),
]

RANDOM_CASES = 24

BIN_CHOICES = (1, 2, 3, 5, 10, 10, 15, 20)


_WEIGHT_HINT = t(
    "Weeg het gat |gem. zekerheid − nauwkeurigheid| van elke bak met het aandeel voorspellingen in die bak "
    "(grootte / N) en tel op; lege bakken tellen niet mee.",
    "Weight each bin's gap |mean confidence − accuracy| by the share of predictions in that bin (size / N) and add "
    "them up; empty bins contribute nothing.",
    "زِن فجوة كل حاوية |متوسط الثقة − الدقة| بنصيبها من التنبؤات (الحجم ÷ N) ثم اجمع؛ الحاويات الفارغة لا تسهم بشيء.",
)
_EDGE_HINT = t(
    'Bakindex = np.searchsorted(randen, p, side="right") − 1, begrensd tot [0, bins − 1], met '
    "randen = np.linspace(0, 1, bins + 1). Een waarde op een binnenrand hoort bij de bak die daar begint; 1.0 bij de "
    "laatste.",
    'Bin index = np.searchsorted(edges, p, side="right") − 1, clipped to [0, bins − 1], with '
    "edges = np.linspace(0, 1, bins + 1). A value on an inner edge belongs to the bin that starts there; 1.0 to the "
    "last bin.",
    'رقم الحاوية = np.searchsorted(edges, p, side="right") − 1، ثم يُحصر الناتج في المجال [0, bins − 1]، حيث '
    "edges = np.linspace(0, 1, bins + 1). القيمة الواقعة على حدّ داخلي تنتمي إلى الحاوية التي تبدأ عنده، و1.0 إلى "
    "الأخيرة.",
)
_TYPE_HINT = t(
    "Geef een tuple (float, int) terug: zet het aantal gevulde bakken om met int(...), niet numpy.int64.",
    "Return a tuple (float, int): convert the populated-bin count with int(...), not numpy.int64.",
    "أعد tuple من (float, int): حوّل عدد الحاويات غير الفارغة بـ int(...)، لا numpy.int64.",
)
_CHECK_HINT = t(
    "Controleer vorm, bereik en labels, en bins, voordat je rekent, en gooi ValueError bij een fout.",
    "Check shape, range and labels, and bins, before computing, and raise ValueError when something is wrong.",
    "افحص الشكل والمدى والتسميات، وbins، قبل الحساب، وارفع ValueError عند وجود خطأ.",
)
_EMPTY_HINT = t(
    "Lege invoer: geef meteen (0.0, 0) of 0.0 terug, zonder np.mean op een lege array (dat waarschuwt en geeft nan).",
    "Empty input: return (0.0, 0) or 0.0 straight away, without np.mean on an empty array (it warns and gives nan).",
    "المدخلات الفارغة: أعد (0.0, 0) أو 0.0 مباشرة، دون np.mean على مصفوفة فارغة (فهو يحذّر ويعطي nan).",
)
_BRIER_HINT = t(
    "Brier = gemiddelde van (p − y)²: gekwadrateerd, niet de absolute waarde.",
    "Brier = mean of (p − y)²: squared, not the absolute value.",
    "Brier = متوسط (p − y)²: مربّع، لا القيمة المطلقة.",
)


_ece = case_builder("expected_calibration_error", _WEIGHT_HINT)
_brier = case_builder("brier_score", _BRIER_HINT)  # brier_score takes no keyword arguments: kwargs is always {}


def curated():
    """Yield the curated cases: textbook examples first, then bin edges, bin counts and invalid input."""
    yield _ece(
        "perfect-two-bins",
        ([0.25, 0.25, 0.25, 0.25, 0.75, 0.75, 0.75, 0.75], [1, 0, 0, 0, 1, 1, 0, 1]),
        {"bins": 2},
        t(
            "Perfect gekalibreerd in twee bakken: 25% zekerheid en 1 van 4 goed, 75% zekerheid en 3 van 4 goed. "
            "ECE 0.0, 2 gevulde bakken.",
            "Perfectly calibrated in two bins: 25% confidence and 1 of 4 right, 75% confidence and 3 of 4 right. "
            "ECE 0.0, 2 populated bins.",
            "معايرة تامة في حاويتين: ثقة 25% وصواب 1 من 4، وثقة 75% وصواب 3 من 4. ECE يساوي 0.0، وحاويتان غير فارغتين.",
        ),
        hint=_TYPE_HINT,
    )
    yield _ece(
        "all-wrong-confident",
        ([0.99, 0.99, 0.99, 0.99], [0, 0, 0, 0]),
        {"bins": 10},
        t(
            "Alles fout met zekerheid 0.99: ECE 0.99 en 1 gevulde bak.",
            "All wrong with confidence 0.99: ECE 0.99 and 1 populated bin.",
            "كلها خاطئة بثقة 0.99: ECE يساوي 0.99 وحاوية واحدة غير فارغة.",
        ),
    )
    yield _ece(
        "all-right-confident",
        ([0.95, 0.97, 0.99, 1.0], [1, 1, 1, 1]),
        {"bins": 10},
        t(
            "Alles goed met hoge zekerheid: alle vier in de laatste bak (ook 1.0), ECE = 1 − 0.9775 = 0.0225.",
            "All right with high confidence: all four in the last bin (1.0 too), ECE = 1 − 0.9775 = 0.0225.",
            "كلها صحيحة بثقة عالية: الأربعة في الحاوية الأخيرة (ومنها 1.0)، وECE = 1 − 0.9775 = 0.0225.",
        ),
        hint=_EDGE_HINT,
    )
    yield _ece(
        "coin-flip-predictor",
        ([0.5] * 6, [1, 1, 0, 1, 0, 1]),
        {"bins": 10},
        t(
            "Steeds p = 0.5 en 4 van 6 goed: ECE = |0.5 − 4/6| ≈ 0.1667 in één bak.",
            "Always p = 0.5 and 4 of 6 right: ECE = |0.5 − 4/6| ≈ 0.1667 in one bin.",
            "دائمًا p = 0.5 و4 من 6 صحيحة: ECE = |0.5 − 4/6| ≈ 0.1667 في حاوية واحدة.",
        ),
    )
    yield _ece(
        "empty-middle-bins",
        ([0.05, 0.05, 0.05, 0.15, 0.85, 0.95], [0, 0, 0, 0, 1, 1]),
        {"bins": 10},
        t(
            "Vier gevulde bakken van ongelijke grootte met lege bakken ertussen. Het gewogen gemiddelde is 0.0833; "
            "een ongewogen gemiddelde van de gaten zou 0.1 geven.",
            "Four populated bins of unequal size with empty bins between them. The weighted mean is 0.0833; an "
            "unweighted mean of the gaps would give 0.1.",
            "أربع حاويات غير فارغة بأحجام مختلفة تتخللها حاويات فارغة. المتوسط الموزون 0.0833، أما المتوسط غير الموزون "
            "للفجوات فيعطي 0.1.",
        ),
    )
    yield _ece(
        "default-ten-bins",
        ([0.15, 0.25, 0.35, 0.45], [0, 1, 0, 1]),
        {},
        t(
            "Zonder bins-argument gelden 10 bakken: vier voorspellingen in vier verschillende bakken.",
            "Without a bins argument there are 10 bins: four predictions in four different bins.",
            "بدون وسيط bins تكون الحاويات 10: أربعة تنبؤات في أربع حاويات مختلفة.",
        ),
    )
    yield _ece(
        "default-bins-split-0-19-0-21",
        ([0.19, 0.21], [1, 0]),
        {},
        t(
            "Zonder bins-argument: 10 bakken, dus 0.19 (bak 1) en 0.21 (bak 2) liggen apart: 2 gevulde bakken, ECE "
            "0.51. Met 9 of 11 bakken zouden ze samen in één bak liggen.",
            "Without a bins argument: 10 bins, so 0.19 (bin 1) and 0.21 (bin 2) are apart: 2 populated bins, ECE "
            "0.51. With 9 or 11 bins they would share one bin.",
            "بدون وسيط bins: عشر حاويات، فتقع 0.19 (الحاوية 1) و0.21 (الحاوية 2) منفصلتين: حاويتان غير فارغتين وECE "
            "يساوي 0.51. ومع 9 أو 11 حاوية تجتمعان في حاوية واحدة.",
        ),
        hint=_EDGE_HINT,
    )
    yield _ece(
        "empty-input",
        ([], []),
        {"bins": 10},
        t(
            "Lege invoer geeft (0.0, 0), zonder uitzondering en zonder waarschuwing.",
            "Empty input gives (0.0, 0), with no exception and no warning.",
            "المدخلات الفارغة تعطي (0.0, 0)، بلا استثناء ولا تحذير.",
        ),
        hint=_EMPTY_HINT,
        forbid_warnings=True,
    )
    yield _ece(
        "edge-zero",
        ([0.0, 0.0, 0.85], [1, 0, 1]),
        {"bins": 10},
        t(
            "Zekerheid precies 0.0 hoort in de eerste bak (niet buiten alle bakken): 2 gevulde bakken.",
            "Confidence exactly 0.0 belongs to the first bin (not outside every bin): 2 populated bins.",
            "الثقة 0.0 بالضبط تنتمي إلى الحاوية الأولى (لا خارج كل الحاويات): حاويتان غير فارغتين.",
        ),
        hint=_EDGE_HINT,
    )
    yield _ece(
        "point-three-in-bin-two",
        ([0.25, 0.3], [1, 0]),
        {"bins": 10},
        t(
            "Met 10 bakken is de berekende rand edges[3] = 0.30000000000000004, dus 0.3 ligt net eronder, in bak 2, "
            "samen met 0.25: één gevulde bak, ECE |0.275 − 0.5| = 0.225. Wie 0.3 * 10 = 3 rekent, zet 0.3 in bak 3.",
            "With 10 bins the computed edge edges[3] is 0.30000000000000004, so 0.3 lies just below it, in bin 2, "
            "together with 0.25: one populated bin, ECE |0.275 − 0.5| = 0.225. Computing 0.3 * 10 = 3 puts 0.3 in "
            "bin 3.",
            "مع 10 حاويات يكون الحد المحسوب edges[3] = 0.30000000000000004، فتقع 0.3 تحته مباشرة في الحاوية 2 مع "
            "0.25: حاوية واحدة غير فارغة وECE = |0.275 − 0.5| = 0.225. ومن يحسب 0.3 * 10 = 3 يضع 0.3 في الحاوية 3.",
        ),
        hint=_EDGE_HINT,
    )
    yield _ece(
        "edge-inner",
        ([0.1, 0.05], [1, 0]),
        {"bins": 10},
        t(
            "0.1 ligt op de rand tussen bak 0 en bak 1 en hoort in de bovenste (bak 1): twee bakken met één "
            "voorspelling, ECE 0.475.",
            "0.1 lies on the edge between bin 0 and bin 1 and belongs to the upper one (bin 1): two bins with one "
            "prediction each, ECE 0.475.",
            "تقع 0.1 على الحد بين الحاوية 0 والحاوية 1 وتنتمي إلى العليا (الحاوية 1): حاويتان في كل منهما تنبؤ، "
            "وECE يساوي 0.475.",
        ),
        hint=_EDGE_HINT,
    )
    yield _ece(
        "edge-one",
        ([1.0, 0.92], [0, 1]),
        {"bins": 10},
        t(
            "1.0 is de bovenrand van het interval en hoort in de laatste bak, samen met 0.92: ECE 0.46, 1 gevulde bak.",
            "1.0 is the top of the interval and belongs to the last bin, together with 0.92: "
            "ECE 0.46, 1 populated bin.",
            "‏1.0 هو أعلى المجال وينتمي إلى الحاوية الأخيرة مع 0.92: ECE يساوي 0.46، وحاوية واحدة غير فارغة.",
        ),
        hint=_EDGE_HINT,
    )
    yield _ece(
        "one-prediction",
        ([0.7], [1]),
        {"bins": 10},
        t(
            "Eén voorspelling met zekerheid 0.7, en die klopt: ECE 0.3, 1 gevulde bak.",
            "A single prediction with confidence 0.7, and it is right: ECE 0.3, 1 populated bin.",
            "‏تنبؤ واحد بثقة 0.7، وهو صحيح: ECE يساوي 0.3، وحاوية واحدة غير فارغة.",
        ),
    )
    yield _ece(
        "edges-mixed",
        ([0.0, 0.1, 0.5, 1.0], [0, 1, 1, 1]),
        {"bins": 10},
        t(
            "De randen 0.0, 0.1, 0.5 en 1.0 vallen in de bakken 0, 1, 5 en 9: 4 gevulde bakken, ECE 0.35.",
            "The edges 0.0, 0.1, 0.5 and 1.0 fall in bins 0, 1, 5 and 9: 4 populated bins, ECE 0.35.",
            "الحدود 0.0 و0.1 و0.5 و1.0 تقع في الحاويات 0 و1 و5 و9: أربع حاويات غير فارغة، وECE يساوي 0.35.",
        ),
        hint=_EDGE_HINT,
    )
    for bins in GRID_BINS:
        yield _ece(f"edge-grid-{bins}", edge_grid(bins), {"bins": bins}, edge_grid_explain(bins), hint=_EDGE_HINT)
    yield _ece(
        "one-bin",
        ([0.2, 0.9, 0.6, 0.4], [0, 1, 1, 1]),
        {"bins": 1},
        t(
            "Met 1 bak is ECE gewoon |gemiddelde zekerheid − nauwkeurigheid| = |0.525 − 0.75| = 0.225.",
            "With 1 bin, ECE is simply |mean confidence − accuracy| = |0.525 − 0.75| = 0.225.",
            "مع حاوية واحدة يكون ECE ببساطة |متوسط الثقة − الدقة| = |0.525 − 0.75| = 0.225.",
        ),
    )
    yield _ece(
        "two-bins-half",
        ([0.5, 0.3, 0.8], [1, 0, 1]),
        {"bins": 2},
        t(
            "Met 2 bakken ligt 0,5 op de binnenrand en hoort bij de bak die daar begint, met 0,8 erbij: ECE ≈ 0.3333.",
            "With 2 bins, 0.5 lies on the inner edge and belongs to the bin that starts there, with 0.8: ECE ≈ 0.3333.",
            "مع حاويتين تقع 0.5 على الحدّ الداخلي، فتنتمي إلى الحاوية التي تبدأ عنده، مع 0.8: ECE ≈ 0.3333.",
        ),
        hint=_EDGE_HINT,
    )
    yield _ece(
        "fifteen-bins",
        ([0.03, 0.5, 0.51, 0.97, 0.7], [0, 1, 0, 1, 1]),
        {"bins": 15},
        t(
            "15 bakken (een gangbare keuze in vergelijkende studies): 0.5 en 0.51 delen bak 7, de rest zit alleen.",
            "15 bins (a common choice in comparison studies): 0.5 and 0.51 share bin 7, the others are alone.",
            "‏15 حاوية (خيار شائع في دراسات المقارنة): 0.5 و0.51 تشتركان في الحاوية 7، والباقي منفردة.",
        ),
    )
    yield _ece(
        "bins-zero",
        ([0.5], [1]),
        {"bins": 0},
        t(
            "bins = 0 is geen geldige indeling: ValueError.",
            "bins = 0 is not a valid binning: ValueError.",
            "‏bins = 0 ليس تقسيمًا صالحًا: ValueError.",
        ),
        hint=_CHECK_HINT,
    )
    yield _ece(
        "bins-negative",
        ([0.5], [1]),
        {"bins": -3},
        t(
            "Een negatief aantal bakken: ValueError.",
            "A negative number of bins: ValueError.",
            "عدد سالب من الحاويات: ValueError.",
        ),
        hint=_CHECK_HINT,
    )
    yield _ece(
        "confidence-above-one",
        ([0.2, 1.5], [0, 1]),
        {"bins": 10},
        outside_unit_interval("1.5"),
        hint=_CHECK_HINT,
    )
    yield _ece(
        "confidence-negative",
        ([-0.1, 0.4], [0, 1]),
        {"bins": 10},
        outside_unit_interval("−0.1"),
        hint=_CHECK_HINT,
    )
    yield _ece(
        "label-half",
        ([0.3, 0.8], [0.5, 1]),
        {"bins": 10},
        t(
            "Label 0.5 ligt wel in [0, 1] maar is geen juist/onjuist-waarde (ook niet na int()): ValueError.",
            "Label 0.5 lies in [0, 1] but is not a right/wrong value (not after int() either): ValueError.",
            "التسمية 0.5 ضمن [0, 1] لكنها ليست قيمة صواب/خطأ (ولا بعد int()): ValueError.",
        ),
        hint=_CHECK_HINT,
    )
    yield _ece(
        "nan-label-in-array",
        (np.array([0.3, 0.8]), np.array([1.0, np.nan])),
        {"bins": 10},
        t(
            "Een NaN-label in een numpy-array: ook arrays worden gecontroleerd, ValueError.",
            "A NaN label in a numpy array: arrays are checked too, ValueError.",
            "تسمية NaN في مصفوفة numpy: تُفحص المصفوفات أيضًا، ValueError.",
        ),
        hint=_CHECK_HINT,
    )
    yield _ece(
        "empty-input-bins-zero",
        ([], []),
        {"bins": 0},
        t(
            "Lege invoer geeft normaal (0.0, 0), maar bins = 0 blijft ongeldig: ValueError.",
            "Empty input normally gives (0.0, 0), but bins = 0 stays invalid: ValueError.",
            "الإدخال الفارغ يعطي عادةً (0.0, 0)، لكن bins = 0 يبقى غير صالح: ValueError.",
        ),
        hint=_CHECK_HINT,
    )
    yield _ece(
        "float32-confidences",
        (np.array([0.25, 0.75, 0.5, 1.0], dtype=np.float32), [0, 1, 1, 1]),
        {"bins": 4},
        t(
            "float32-zekerheden (exact: 0.25, 0.75, 0.5, 1.0): het resultaat is een Python-float, geen numpy.float32.",
            "float32 confidences (exact: 0.25, 0.75, 0.5, 1.0): the result is a Python float, not a numpy.float32.",
            "ثقات float32 (دقيقة: 0.25 و0.75 و0.5 و1.0): النتيجة float من بايثون، لا numpy.float32.",
        ),
        hint=_TYPE_HINT,
    )
    yield _ece(
        "label-two",
        ([0.3, 0.8], [1, 2]),
        {"bins": 10},
        t(
            "Label 2 is geen juist/onjuist-waarde: ValueError.",
            "Label 2 is not a right/wrong value: ValueError.",
            "التسمية 2 ليست قيمة صواب/خطأ: ValueError.",
        ),
        hint=_CHECK_HINT,
    )
    yield _ece(
        "two-dimensional",
        ([[0.2, 0.8], [0.4, 0.6]], [[0, 1], [1, 1]]),
        {"bins": 10},
        t(
            "2-D invoer (ook al hebben beide dezelfde vorm) is niet toegestaan: ValueError.",
            "2-D input (even with equal shapes) is not allowed: ValueError.",
            "المدخلات ثنائية الأبعاد (حتى بشكلين متطابقين) غير مسموحة: ValueError.",
        ),
        hint=_CHECK_HINT,
    )
    yield _ece(
        "misaligned",
        ([0.2, 0.3], [1]),
        {"bins": 10},
        t(
            "Twee zekerheden maar één label: ValueError.",
            "Two confidences but one label: ValueError.",
            "ثقتان مقابل تسمية واحدة: ValueError.",
        ),
        hint=_CHECK_HINT,
    )
    yield _ece(
        "bool-labels",
        ([0.25, 0.25, 0.25, 0.25, 0.75, 0.75, 0.75, 0.75], [True, False, False, False, True, True, False, True]),
        {"bins": 2},
        t(
            "Booleans als labels betekenen hetzelfde als 1 en 0: opnieuw ECE 0.0.",
            "Booleans as labels mean the same as 1 and 0: again ECE 0.0.",
            "القيم المنطقية بوصفها تسميات تعني 1 و0 نفسيهما: ECE يساوي 0.0 مجددًا.",
        ),
    )
    yield _ece(
        "array-inputs",
        (np.array([0.05, 0.05, 0.05, 0.15, 0.85, 0.95]), np.array([0, 0, 0, 0, 1, 1])),
        {"bins": 10},
        t(
            "Dezelfde voorspellingen als numpy-arrays geven hetzelfde resultaat, nog steeds (float, int).",
            "The same predictions as numpy arrays give the same result, still (float, int).",
            "التنبؤات نفسها في صورة مصفوفات numpy تعطي النتيجة نفسها، وتبقى (float, int).",
        ),
        hint=_TYPE_HINT,
    )
    yield _ece(
        "bool-array-labels",
        (np.array([0.62, 0.68, 0.91]), np.array([True, False, True])),
        {"bins": 5},
        t(
            "Een numpy-array met dtype bool als labels, 5 bakken.",
            "A numpy array of dtype bool as labels, 5 bins.",
            "مصفوفة numpy من النوع bool للتسميات، مع 5 حاويات.",
        ),
    )
    yield _brier(
        "brier-perfect",
        ([1.0, 0.0], [1, 0]),
        {},
        t(
            "Volledig zeker en steeds juist: Brier 0.0.",
            "Fully certain and always right: Brier 0.0.",
            "يقين تام وصواب دائم: Brier يساوي 0.0.",
        ),
    )
    yield _brier(
        "brier-worst",
        ([1.0, 0.0], [0, 1]),
        {},
        t(
            "Volledig zeker en steeds fout: Brier 1.0, het maximum.",
            "Fully certain and always wrong: Brier 1.0, the maximum.",
            "يقين تام وخطأ دائم: Brier يساوي 1.0، وهو الحد الأقصى.",
        ),
    )
    yield _brier(
        "brier-coin-flip",
        ([0.5] * 6, [1, 1, 0, 1, 0, 1]),
        {},
        t(
            "Steeds p = 0.5: elke term is 0.25, dus Brier 0.25, wat de uitkomsten ook zijn.",
            "Always p = 0.5: every term is 0.25, so Brier 0.25 whatever the outcomes.",
            "دائمًا p = 0.5: كل حد يساوي 0.25، إذن Brier يساوي 0.25 مهما كانت النتائج.",
        ),
    )
    yield _brier(
        "brier-sees-spread",
        ([0.6] * 5, [1, 1, 1, 0, 0]),
        {},
        t(
            "Zekerheid 0,6 en 3 van 5 goed: perfect gekalibreerd, dus ECE 0. Brier = (3·0,16 + 2·0,36)/5 = 0,24 meet "
            "ook dat de zekerheid goede en foute antwoorden niet scheidt.",
            "Confidence 0.6 and 3 of 5 right: perfectly calibrated, so the ECE is 0. Brier = (3·0.16 + 2·0.36)/5 = "
            "0.24 also measures that the confidence does not separate right answers from wrong ones.",
            "ثقة 0.6 و3 من 5 صحيحة: معايرة تامة، فـ ECE يساوي 0. أما Brier = (3·0.16 + 2·0.36)/5 = 0.24 فيقيس أيضًا "
            "أن الثقة لا تميّز الإجابات الصحيحة من الخاطئة.",
        ),
    )
    yield _brier(
        "brier-empty",
        ([], []),
        {},
        t(
            "Lege invoer: Brier 0.0, zonder waarschuwing.",
            "Empty input: Brier 0.0, with no warning.",
            "مدخلات فارغة: Brier يساوي 0.0، بلا تحذير.",
        ),
        hint=_EMPTY_HINT,
        forbid_warnings=True,
    )
    yield _brier(
        "brier-bool-arrays",
        (np.array([0.9, 0.2, 0.7]), np.array([True, False, False])),
        {},
        t(
            "numpy-arrays met bool-labels: (0.01 + 0.04 + 0.49) / 3 = 0.18.",
            "numpy arrays with bool labels: (0.01 + 0.04 + 0.49) / 3 = 0.18.",
            "مصفوفات numpy بتسميات منطقية: (0.01 + 0.04 + 0.49) / 3 = 0.18.",
        ),
    )
    yield _brier(
        "brier-confidence-out-of-range",
        ([0.2, 1.5], [0, 1]),
        {},
        t(
            "Ook brier_score weigert zekerheid 1.5: ValueError.",
            "brier_score too refuses confidence 1.5: ValueError.",
            "‏brier_score أيضًا ترفض الثقة 1.5: ValueError.",
        ),
        hint=_CHECK_HINT,
    )
    yield _brier(
        "brier-float32",
        (np.array([0.25, 0.75, 0.5, 1.0], dtype=np.float32), [0, 1, 1, 1]),
        {},
        t(
            "float32-zekerheden: Brier is een Python-float, geen numpy.float32 (zet om met float()).",
            "float32 confidences: Brier is a Python float, not a numpy.float32 (convert with float()).",
            "ثقات float32: Brier عدد float من بايثون، لا numpy.float32 (حوّل بـ float()).",
        ),
        hint=_TYPE_HINT,
    )
    yield _brier(
        "brier-label-two",
        ([0.3, 0.8], [1, 2]),
        {},
        t(
            "Ook brier_score weigert label 2: ValueError.",
            "brier_score too refuses label 2: ValueError.",
            "‏brier_score أيضًا ترفض التسمية 2: ValueError.",
        ),
        hint=_CHECK_HINT,
    )
    yield _brier(
        "brier-misaligned",
        ([0.2, 0.3, 0.4], [1, 0]),
        {},
        THREE_CONFIDENCES_TWO_LABELS,
        hint=_CHECK_HINT,
    )
    yield _brier(
        "brier-two-dimensional",
        (np.array([[0.2, 0.8]]), np.array([[0, 1]])),
        {},
        t(
            "Een 2-D array, ook met gelijke vormen: ValueError.",
            "A 2-D array, even with equal shapes: ValueError.",
            "مصفوفة ثنائية الأبعاد، حتى بشكلين متطابقين: ValueError.",
        ),
        hint=_CHECK_HINT,
    )
    yield _brier(
        "brier-two-dimensional-square",
        ([[0.2, 0.8], [0.4, 0.6]], [[0, 1], [1, 1]]),
        {},
        t(
            "Een vierkante 2-D invoer (2 bij 2), met gelijke vormen: nog steeds geen 1-D, dus ValueError.",
            "A square 2-D input (2 by 2) with equal shapes: still not 1-D, so ValueError.",
            "إدخال ثنائي الأبعاد مربّع (2 في 2) بشكلين متطابقين: ليس أحادي البعد، إذن ValueError.",
        ),
        hint=_CHECK_HINT,
    )


def random_cases(rng, count):
    """Yield `count` random prediction sets (0 to 30 predictions), alternating ECE and Brier cases."""
    for number in range(count):
        bins, size, args = random_predictions(rng, BIN_CHOICES, 30)
        if number % 3 == 2:
            yield _brier(
                f"random-{number}",
                args,
                {},
                t(
                    f"Willekeurige voorspellingen: {size} stuks.",
                    f"Random predictions: {size} of them.",
                    f"تنبؤات عشوائية: عددها {size}.",
                ),
            )
        else:
            yield _ece(f"random-{number}", args, {"bins": bins}, random_explain(size, bins))
