"""Hidden grader: claims-abstention, checkpoint 3 (risk_coverage_curve).

The contract follows the lesson's sample solution: scores and thresholds are anything numpy reads as real numbers
(lists, tuples, arrays; ints, floats, numpy numbers, and bools, which are numbers with True = 1.0), 1-D, finite,
in [0, 1]; ``correct`` holds real booleans (Python or numpy), one per score.
"""

import numpy as np

from graders.claims_abstention.common import case_builders
from graders.engine.domain import Domain, Flag, Param, Real, Seq
from graders.engine.settings import FALLBACK_LANGUAGE

RANDOM_CASES = 25

SEED_SCORES = [0.1, 0.4, 0.7, 0.9]
SEED_CORRECT = [True, True, False, True]


_EDGES = (0.25, 0.5, 0.7)
DOMAIN = Domain(
    call="risk_coverage_curve",
    params=(
        Param(
            "scores",
            Seq(
                Real(0.0, 1.0, edges=_EDGES, bools=True),
                min_len=1,
                max_len=1000,
                containers=("list", "tuple", "ndarray"),
            ),
        ),
        Param("correct", Seq(Flag(), min_len=1, max_len=1000, containers=("list", "tuple", "ndarray"))),
        Param(
            "thresholds",
            Seq(
                Real(0.0, 1.0, edges=_EDGES, bools=True),
                min_len=1,
                max_len=101,
                containers=("list", "tuple", "ndarray"),
            ),
        ),
    ),
    aligned=(("scores", "correct"),),
    # Left open by the task, so not generated: numeric strings ('0.5'), which numpy reads as numbers, and arrays
    # of dtype object.
    skip=("numeric-str", "ndarray-object"),
)

# _case(case_id, scores, correct, thresholds, nl, en, ar, hint=None); _invalid: the same without hint
_case, _invalid = case_builders("risk_coverage_curve", 3)


def curated(lang=FALLBACK_LANGUAGE):
    """Yield the curated cases, in the order a learner should meet them (numbers only: the same in every
    language)."""
    yield _case(
        "seed-curve",
        SEED_SCORES,
        SEED_CORRECT,
        [0, 0.5, 0.8, 1],
        "Vier gevallen met scores 0,1; 0,4; 0,7 en 0,9, alleen 0,7 fout, en drempels 0; 0,5; 0,8 en 1: answered "
        "4, 2, 1, 0 en risk 0.25, 0.5, 0.0 en None. De drempels 0 en 1 komen terug als floats: 0.0 en 1.0.",
        "Four cases with scores 0.1, 0.4, 0.7 and 0.9, only 0.7 wrong, and thresholds 0, 0.5, 0.8 and 1: answered "
        "4, 2, 1, 0 and risk 0.25, 0.5, 0.0 and None. The thresholds 0 and 1 come back as floats: 0.0 and 1.0.",
        "أربع حالات درجاتها 0.1 و0.4 و0.7 و0.9، والخاطئة منها 0.7 وحدها، والعتبات 0 و0.5 و0.8 و1: answered = 4 و2 "
        "و1 و0، وrisk = 0.25 و0.5 و0.0 وNone. تعود العتبتان 0 و1 بصيغة float: 0.0 و1.0.",
        hint={
            "nl": "Reken één rij na: bij drempel 0,5 worden 0,7 en 0,9 beantwoord, één fout: answered 2, correct 1, "
            "coverage 0.5, risk 0.5. Bij drempel 1 is risk None. Drempels als float, tellingen als int.",
            "en": "Check one row by hand: at threshold 0.5 the cases 0.7 and 0.9 are answered, one wrong: answered "
            "2, correct 1, coverage 0.5, risk 0.5. At threshold 1 risk is None. Thresholds as float, counts "
            "as int.",
            "ar": "تحقّق من صف واحد يدويًا: عند العتبة 0.5 يُجاب عن 0.7 و0.9 وواحدة خاطئة: answered = 2 "
            "وcorrect = 1 وcoverage = 0.5 وrisk = 0.5. وعند العتبة 1 تكون risk = None. العتبات float "
            "والأعداد int.",
        },
    )
    yield _case(
        "seed-threshold-zero",
        SEED_SCORES,
        SEED_CORRECT,
        [0.0],
        "Drempel 0: alle vier antwoorden, één fout: coverage 1.0, risk 0.25.",
        "Threshold 0: all four answered, one wrong: coverage 1.0, risk 0.25.",
        "العتبة 0: أُجيب عن الأربعة وواحدة خاطئة: coverage = 1.0 وrisk = 0.25.",
    )
    yield _case(
        "seed-threshold-half",
        SEED_SCORES,
        SEED_CORRECT,
        [0.5],
        "Drempel 0,5: twee antwoorden, waarvan één fout: risk 0.5. Een hogere drempel gaf hier méér risico.",
        "Threshold 0.5: two answers, one of them wrong: risk 0.5. A higher threshold gave more risk here.",
        "العتبة 0.5: إجابتان إحداهما خاطئة: risk = 0.5. العتبة الأعلى أعطت هنا خطرًا أكبر.",
    )
    yield _case(
        "threshold-equals-score",
        SEED_SCORES,
        SEED_CORRECT,
        [0.4, 0.7],
        "Een score gelijk aan de drempel telt als beantwoord (score >= drempel): bij 0,4 drie antwoorden, bij 0,7 "
        "twee.",
        "A score equal to the threshold counts as answered (score >= threshold): three answers at 0.4, two at 0.7.",
        "الدرجة المساوية للعتبة تُحتسب مُجابة (score >= threshold): ثلاث إجابات عند 0.4 واثنتان عند 0.7.",
        hint={"nl": "Gebruik >=, niet >.", "en": "Use >=, not >.", "ar": "استخدم >= وليس >."},
    )
    yield _case(
        "threshold-above-every-score",
        SEED_SCORES,
        SEED_CORRECT,
        [0.95],
        "Drempel 0,95 ligt boven elke score: niets beantwoord, coverage 0.0, en risk None: er is geen risico "
        "gedefinieerd, het is geen 0 %.",
        "Threshold 0.95 is above every score: nothing answered, coverage 0.0, and risk None: no risk is defined, "
        "it is not 0 %.",
        "العتبة 0.95 أعلى من كل الدرجات: لا إجابات، coverage = 0.0، وrisk = None: الخطر غير معرّف وليس 0 %.",
        hint={
            "nl": "Bereken risk alleen als answered groter dan 0 is; anders None.",
            "en": "Compute risk only when answered is above 0; otherwise None.",
            "ar": "احسب risk فقط إذا كان answered أكبر من 0؛ وإلا فـ None.",
        },
    )
    yield _case(
        "duplicate-thresholds",
        SEED_SCORES,
        SEED_CORRECT,
        [0.5, 0.5, 0, 0.5, 0.0],
        "De drempels 0,5; 0,5; 0; 0,5 en 0,0 zijn maar twee verschillende waarden: twee rijen (0.0 en 0.5).",
        "Thresholds 0.5, 0.5, 0, 0.5 and 0.0 are only two distinct values: two rows (0.0 and 0.5).",
        "العتبات 0.5 و0.5 و0 و0.5 و0.0 قيمتان مختلفتان فقط: صفّان (0.0 و0.5).",
        hint={
            "nl": "Maak de drempels eerst uniek (bijvoorbeeld sorted(set(...)) of np.unique).",
            "en": "Make the thresholds unique first (for example sorted(set(...)) or np.unique).",
            "ar": "اجعل العتبات فريدة أولًا (مثلًا sorted(set(...)) أو np.unique).",
        },
    )
    yield _case(
        "unsorted-thresholds",
        SEED_SCORES,
        SEED_CORRECT,
        [1.0, 0.5, 0.0, 0.8],
        "Drempels in de volgorde 1; 0,5; 0; 0,8: de rijen komen oplopend terug (0.0, 0.5, 0.8, 1.0).",
        "Thresholds given as 1, 0.5, 0, 0.8: the rows come back ascending (0.0, 0.5, 0.8, 1.0).",
        "العتبات بالترتيب 1 و0.5 و0 و0.8: تعود الصفوف تصاعديًا (0.0 و0.5 و0.8 و1.0).",
    )
    yield _case(
        "ndarray-inputs",
        np.array(SEED_SCORES),
        np.array(SEED_CORRECT),
        np.array([0.0, 0.5, 0.8, 1.0]),
        "Dezelfde gegevens als numpy-arrays (float, bool, float): hetzelfde resultaat, met gewone Python-int "
        "voor de tellingen.",
        "The same data as numpy arrays (float, bool, float): the same result, with plain Python ints for the counts.",
        "البيانات نفسها في صورة مصفوفات numpy (float وbool وfloat): النتيجة نفسها، والأعداد من نوع int العادي في "
        "بايثون.",
        hint={
            "nl": "np.sum geeft een numpy-geheel getal; zet tellingen om met int(...).",
            "en": "np.sum returns a numpy integer; convert counts with int(...).",
            "ar": "np.sum يعيد عددًا صحيحًا من numpy؛ حوّل الأعداد بـ int(...).",
        },
    )
    yield _case(
        "mixed-list-and-array",
        [0.2, 0.2, 0.6],
        np.array([False, True, True]),
        np.array([0.2, 0.6, 0.6]),
        "Scores als lijst, correct en drempels als arrays; twee gelijke scores precies op de drempel 0,2.",
        "Scores as a list, correct and thresholds as arrays; two equal scores exactly at threshold 0.2.",
        "الدرجات قائمة، وcorrect والعتبات مصفوفات؛ درجتان متساويتان تمامًا عند العتبة 0.2.",
    )
    yield _case(
        "int-scores",
        [0, 1, 1, 0],
        [False, True, False, True],
        [0.5, 1],
        "Scores mogen gehele getallen zijn (0 en 1 liggen in [0, 1]); alleen correct moet uit echte booleans bestaan.",
        "Scores may be integers (0 and 1 lie in [0, 1]); only correct must hold real booleans.",
        "يجوز أن تكون الدرجات أعدادًا صحيحة (0 و1 ضمن [0, 1])؛ فقط correct يجب أن يحوي قيمًا منطقية حقيقية.",
    )
    yield _case(
        "int-array-scores",
        np.array([0, 1, 1]),
        np.array([True, False, True]),
        np.array([0, 1]),
        "Een numpy-array met integer-dtype voor scores en drempels is ook geldig.",
        "A numpy array with an integer dtype for scores and thresholds is valid too.",
        "مصفوفة numpy بنوع صحيح للدرجات والعتبات صالحة أيضًا.",
    )
    yield _case(
        "numpy-scalars-in-list",
        [np.float64(0.3), np.int64(1), 0.5],
        [True, True, False],
        [np.float64(0.5)],
        "Een lijst mag numpy-getallen bevatten (np.float64, np.int64).",
        "A list may contain numpy numbers (np.float64, np.int64).",
        "يجوز أن تحوي القائمة أعداد numpy (np.float64 وnp.int64).",
    )
    yield _case(
        "float32-array",
        np.array([0.25, 0.5, 0.75], dtype=np.float32),
        [True, False, True],
        [0.5],
        "Een float32-array is geldig (deze waarden zijn exact; vergelijk in float64).",
        "A float32 array is valid (these values are exact; compare in float64).",
        "مصفوفة float32 صالحة (هذه القيم دقيقة؛ قارن بدقة float64).",
    )
    yield _case(
        "bounds-inclusive",
        [0.0, 1.0],
        [True, False],
        [0.0, 1.0],
        "0 en 1 horen zelf bij het interval [0, 1], voor scores en drempels.",
        "0 and 1 themselves belong to the interval [0, 1], for scores and thresholds.",
        "الحدّان 0 و1 ينتميان إلى المجال [0, 1]، للدرجات والعتبات.",
    )
    yield _case(
        "thresholds-101",
        SEED_SCORES,
        SEED_CORRECT,
        np.linspace(0.0, 1.0, 101),
        "Precies 101 drempels (0; 0,01; ...; 1) is toegestaan. Drempel 70 van np.linspace is 0.7000000000000001, net "
        "boven de score 0.7: vergelijk precies, zonder marge of afronding.",
        "Exactly 101 thresholds (0, 0.01, ..., 1) is allowed. np.linspace makes threshold 70 0.7000000000000001, just "
        "above the score 0.7: compare exactly, with no tolerance or rounding.",
        "101 عتبة بالضبط (0 و0.01 ... و1) مسموحة. العتبة 70 من np.linspace هي 0.7000000000000001، فوق الدرجة 0.7 "
        "بقليل: قارن بدقة، بلا هامش ولا تقريب.",
    )
    yield _invalid(
        "thresholds-102",
        SEED_SCORES,
        SEED_CORRECT,
        [i / 101 for i in range(102)],
        "102 drempels is er één te veel.",
        "102 thresholds is one too many.",
        "102 عتبة أكثر من الحد بواحدة.",
    )
    yield _invalid(
        "thresholds-102-duplicates",
        SEED_SCORES,
        SEED_CORRECT,
        [0.5] * 102,
        "102 drempels is te veel, ook als ze allemaal gelijk zijn: de grens geldt voor de invoer.",
        "102 thresholds is too many even when they are all equal: the limit applies to the input.",
        "102 عتبة أكثر من اللازم حتى لو تساوت كلها: الحد يسري على الإدخال.",
    )
    thousand = [(i % 100) / 100 for i in range(1000)]
    thousand_ok = [i % 3 != 0 for i in range(1000)]
    yield _case(
        "scores-1000",
        thousand,
        thousand_ok,
        [0.0, 0.5, 0.99],
        "Precies 1000 scores is toegestaan.",
        "Exactly 1000 scores is allowed.",
        "1000 درجة بالضبط مسموحة.",
    )
    yield _invalid(
        "scores-1001",
        thousand + [0.5],
        thousand_ok + [True],
        [0.5],
        "1001 scores is er één te veel.",
        "1001 scores is one too many.",
        "1001 درجة أكثر من الحد بواحدة.",
    )
    yield _invalid(
        "int-labels",
        SEED_SCORES,
        [1, 1, 0, 1],
        [0.5],
        "correct bevat 0/1-gehele getallen in plaats van True/False.",
        "correct holds 0/1 integers instead of True/False.",
        "correct يحوي أعدادًا صحيحة 0/1 بدل True/False.",
    )
    yield _invalid(
        "int-label-array",
        np.array(SEED_SCORES),
        np.array([1, 1, 0, 1]),
        [0.5],
        "correct is een numpy-array met integer-dtype, geen bool-dtype.",
        "correct is a numpy array with an integer dtype, not a bool dtype.",
        "correct مصفوفة numpy بنوع صحيح وليس bool.",
    )
    yield _invalid(
        "mixed-labels",
        SEED_SCORES,
        [True, True, 0, True],
        [0.5],
        "Eén label in correct is 0 in plaats van False.",
        "One label in correct is 0 instead of False.",
        "إحدى تسميات correct هي 0 بدل False.",
    )
    yield _case(
        "bool-scores",
        [True, False],
        [True, False],
        [0.5],
        "Een bool is in Python een getal (True is 1, False is 0), dus ook een geldige score: bij drempel 0,5 is "
        "alleen de eerste beantwoord.",
        "In Python a bool is a number (True is 1, False is 0), so it is a valid score too: at threshold 0.5 only "
        "the first is answered.",
        "القيمة المنطقية عدد في بايثون (True هي 1 وFalse هي 0)، فهي درجة صالحة أيضًا: عند العتبة 0.5 يُجاب عن "
        "الأولى فقط.",
    )
    yield _case(
        "tuple-inputs",
        tuple(SEED_SCORES),
        tuple(SEED_CORRECT),
        (0.5, 0.0),
        "Tuples zijn net zo goed als lijsten en arrays.",
        "Tuples are as good as lists and arrays.",
        "الـ tuple صالحة مثل القوائم والمصفوفات.",
    )
    yield _case(
        "numpy-bools-in-list",
        SEED_SCORES,
        [np.True_, True, np.False_, True],
        [0.5],
        "Numpy-booleans (np.True_, np.False_) in de lijst correct zijn echte booleans.",
        "numpy booleans (np.True_, np.False_) in the list correct are real booleans.",
        "القيم المنطقية من numpy ‏(np.True_ وnp.False_) في قائمة correct قيم منطقية حقيقية.",
    )
    yield _invalid(
        "nan-score",
        [0.1, float("nan")],
        [True, False],
        [0.5],
        "Een score is NaN.",
        "A score is NaN.",
        "إحدى الدرجات NaN.",
    )
    yield _invalid(
        "inf-score",
        [0.1, float("inf")],
        [True, False],
        [0.5],
        "Een score is oneindig.",
        "A score is infinite.",
        "إحدى الدرجات لا نهائية.",
    )
    yield _invalid(
        "score-above-one",
        [0.1, 1.5],
        [True, False],
        [0.5],
        "De score 1,5 ligt buiten [0, 1].",
        "The score 1.5 lies outside [0, 1].",
        "الدرجة 1.5 خارج [0, 1].",
    )
    yield _invalid(
        "negative-score",
        np.array([-0.1, 0.5]),
        [True, False],
        [0.5],
        "De score -0,1 ligt buiten [0, 1].",
        "The score -0.1 lies outside [0, 1].",
        "الدرجة -0.1 خارج [0, 1].",
    )
    yield _invalid(
        "nan-threshold",
        SEED_SCORES,
        SEED_CORRECT,
        [0.5, float("nan")],
        "Een drempel is NaN.",
        "A threshold is NaN.",
        "إحدى العتبات NaN.",
    )
    yield _invalid(
        "inf-threshold",
        SEED_SCORES,
        SEED_CORRECT,
        np.array([float("-inf")]),
        "Een drempel is min oneindig.",
        "A threshold is minus infinity.",
        "إحدى العتبات سالب ما لا نهاية.",
    )
    yield _invalid(
        "threshold-above-one",
        SEED_SCORES,
        SEED_CORRECT,
        [0.5, 1.01],
        "De drempel 1,01 ligt buiten [0, 1].",
        "The threshold 1.01 lies outside [0, 1].",
        "العتبة 1.01 خارج [0, 1].",
    )
    yield _invalid(
        "negative-threshold",
        SEED_SCORES,
        SEED_CORRECT,
        [-0.5],
        "De drempel -0,5 ligt buiten [0, 1].",
        "The threshold -0.5 lies outside [0, 1].",
        "العتبة -0.5 خارج [0, 1].",
    )
    yield _invalid(
        "2d-scores",
        np.array([[0.1, 0.4]]),
        [True, False],
        [0.5],
        "De scores vormen een 2-D array van vorm (1, 2).",
        "The scores form a 2-D array of shape (1, 2).",
        "الدرجات مصفوفة ثنائية الأبعاد شكلها (1, 2).",
    )
    yield _invalid(
        "nested-list-scores",
        [[0.1], [0.4]],
        [True, False],
        [0.5],
        "De scores zijn een geneste lijst (2-D).",
        "The scores are a nested list (2-D).",
        "الدرجات قائمة متداخلة (ثنائية الأبعاد).",
    )
    yield _invalid(
        "2d-thresholds",
        SEED_SCORES,
        SEED_CORRECT,
        np.array([[0.0, 0.5]]),
        "De drempels vormen een 2-D array.",
        "The thresholds form a 2-D array.",
        "العتبات مصفوفة ثنائية الأبعاد.",
    )
    yield _invalid(
        "scalar-threshold",
        SEED_SCORES,
        SEED_CORRECT,
        0.5,
        "De drempel is één getal, geen lijst of 1-D array.",
        "The threshold is a single number, not a list or 1-D array.",
        "العتبة عدد واحد وليست قائمة أو مصفوفة أحادية البعد.",
    )
    yield _invalid(
        "half-label",
        SEED_SCORES,
        [True, 0.5, False, True],
        [0.5],
        "Een label 0,5 is geen boolean (ook niet na afronden of int()).",
        "A label 0.5 is not a boolean (not after rounding or int() either).",
        "التسمية 0.5 ليست قيمة منطقية (ولا بعد التقريب أو int()).",
    )
    yield _invalid(
        "one-label-for-four-scores",
        SEED_SCORES,
        np.array([True]),
        [0.5],
        "Eén label voor vier scores: numpy zou het stilletjes over alle vier uitsmeren (broadcasting), maar de "
        "lengtes verschillen.",
        "One label for four scores: numpy would silently spread it over all four (broadcasting), but the lengths "
        "differ.",
        "تسمية واحدة لأربع درجات: يوسّعها numpy بصمت على الأربع (broadcasting)، لكن الأطوال مختلفة.",
    )
    yield _invalid(
        "nan-in-array",
        np.array([0.1, np.nan]),
        np.array([True, False]),
        np.array([0.5]),
        "Ook in een numpy-array is een NaN-score ongeldig.",
        "In a numpy array, too, a NaN score is invalid.",
        "درجة NaN غير صالحة في مصفوفة numpy أيضًا.",
    )
    yield _invalid(
        "labels-too-short",
        SEED_SCORES,
        [True, True, False],
        [0.5],
        "Vier scores maar drie labels.",
        "Four scores but three labels.",
        "أربع درجات وثلاث تسميات.",
    )
    yield _invalid(
        "empty-scores",
        [],
        [],
        [0.5],
        "Geen scores: minstens één is nodig.",
        "No scores: at least one is needed.",
        "لا درجات: يلزم واحدة على الأقل.",
    )
    yield _invalid(
        "empty-thresholds",
        SEED_SCORES,
        SEED_CORRECT,
        [],
        "Geen drempels: minstens één is nodig.",
        "No thresholds: at least one is needed.",
        "لا عتبات: تلزم واحدة على الأقل.",
    )
    yield _invalid("none-scores", None, SEED_CORRECT, [0.5], "scores is None.", "scores is None.", "scores هي None.")


_GRID = [i / 20 for i in range(21)]


def random_cases(rng, count):
    """Yield `count` valid random score/label/threshold sets, as lists or arrays (ids random-0, random-1, ...)."""
    for index in range(count):
        size = rng.randint(1, 30)
        scores = [rng.choice(_GRID) if rng.random() < 0.5 else round(rng.random(), 3) for _ in range(size)]
        correct = [rng.random() < 0.7 for _ in range(size)]
        thresholds = [rng.choice(_GRID) for _ in range(rng.randint(1, 8))]
        if rng.random() < 0.5:
            thresholds.append(rng.choice(scores))
        if rng.random() < 0.4:
            scores, correct, thresholds = np.array(scores), np.array(correct), np.array(thresholds)
        yield _case(
            f"random-{index}",
            scores,
            correct,
            thresholds,
            f"Willekeurige scores voor {size} gevallen met {len(thresholds)} drempels (soms met herhalingen).",
            f"Random scores for {size} items with {len(thresholds)} thresholds (sometimes repeated).",
            f"درجات عشوائية لـ {size} حالة مع {len(thresholds)} عتبات (مكررة أحيانًا).",
        )
