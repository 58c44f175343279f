"""Hidden grader: perplexity-calibration, checkpoint 1 (PerplexityResult and perplexity)."""

import math

import numpy as np

from graders.engine.case import Case
from graders.engine.domain import Domain, Integer, Param, Real, Seq
from graders.perplexity_calibration.common import ONE_D_OPEN, OPEN_FAMILIES, t

RANDOM_CASES = 20

_PARAMS = (
    Param("neg_log_probs", Seq(Real(0.0, None), containers=("list", "tuple", "ndarray"))),
    Param("token_counts", Seq(Integer(0, None), containers=("list", "tuple", "ndarray"))),
)
DOMAINS = [
    Domain(call, _PARAMS, aligned=(("neg_log_probs", "token_counts"),), skip=OPEN_FAMILIES + ONE_D_OPEN)
    for call in ("perplexity", "PerplexityResult.from_token_nll")
]

LN2 = math.log(2.0)
LN4 = math.log(4.0)


_WEIGHTING_HINT = t(
    "Tel eerst alle NLL-sommen op en alle tokens, en deel pas daarna: één gemiddelde per token, niet per reeks.",
    "Add up all NLL sums and all token counts first, then divide once: one average per token, not per sequence.",
    "اجمع كل مجاميع NLL وكل أعداد الرموز أولًا، ثم اقسم مرة واحدة: متوسط واحد لكل رمز، لا لكل تسلسل.",
)
_WIDTH_HINT = t(
    "Tel de tokens op als Python-int's (int(n) per telling) of met np.sum, nooit in het kleine dtype van de array "
    "zelf: een som in uint8 loopt voorbij 255 rond.",
    "Add the token counts as Python ints (int(n) per count) or with np.sum, never in the array's own small dtype: a "
    "sum kept in uint8 wraps round past 255.",
    "اجمع أعداد الرموز أعدادًا صحيحة من بايثون (int(n) لكل عدد) أو بـ np.sum، لا بنوع المصفوفة الصغير نفسه: المجموع "
    "المحفوظ في uint8 يلتفّ بعد 255.",
)
_ZERO_HINT = t(
    "Geen tokens betekent: niets om te meten. Geef perplexity nan, gemiddelde 0.0 en total_tokens 0 terug, zonder "
    "te delen door nul.",
    "No tokens means nothing to measure. Return perplexity nan, average 0.0 and total_tokens 0, without dividing by "
    "zero.",
    "انعدام الرموز يعني أنه لا شيء يُقاس. أعد perplexity بقيمة nan، والمتوسط 0.0، وtotal_tokens بقيمة 0، دون قسمة على "
    "صفر.",
)
_CHECK_HINT = t(
    "Controleer de invoer voordat je rekent en gooi ValueError bij een fout.",
    "Check the input before computing and raise ValueError when it is wrong.",
    "افحص المدخلات قبل الحساب وارفع ValueError عندما تكون خاطئة.",
)


def curated():
    """Yield the curated cases, from the textbook examples to the edge cases."""
    yield Case(
        id="uniform-two-token",
        call="perplexity",
        args=([100 * LN2], [100]),
        explain=t(
            "Een model dat steeds twee tokens even waarschijnlijk vindt (p = 1/2) heeft perplexity 2.",
            "A model that always finds two tokens equally likely (p = 1/2) has perplexity 2.",
            "النموذج الذي يرى رمزين متساويين في الاحتمال دائمًا (p = 1/2) تبلغ حيرته 2.",
        ),
        hint=t(
            "perplexity = exp(som van de NLL / som van de tokens), met de natuurlijke e-macht.",
            "perplexity = exp(sum of NLL / sum of tokens), using the natural exponential.",
            "الحيرة = exp(مجموع NLL ÷ مجموع الرموز)، أي الدالة الأسية للعدد e.",
        ),
    )
    yield Case(
        id="uniform-two-token-result",
        call="PerplexityResult.from_token_nll",
        args=([100 * LN2], [100]),
        explain=t(
            "Hetzelfde voorbeeld als object: perplexity 2.0, gemiddelde ln 2 per token, 100 tokens (een int).",
            "The same example as an object: perplexity 2.0, average ln 2 per token, 100 tokens (an int).",
            "المثال نفسه في صورة كائن: الحيرة 2.0، والمتوسط ln 2 لكل رمز، و100 رمز (عدد صحيح int).",
        ),
        hint=t(
            "Het object heeft drie attributen: perplexity (float), avg_neg_log_likelihood (float), total_tokens (int).",
            "The object has three attributes: perplexity (float), avg_neg_log_likelihood (float), total_tokens (int).",
            "للكائن ثلاث خصائص: perplexity (float) وavg_neg_log_likelihood (float) وtotal_tokens (int).",
        ),
    )
    yield Case(
        id="perfect-model",
        call="perplexity",
        args=([0.0], [10]),
        explain=t(
            "Een model dat elk echt token kans 1 geeft heeft NLL 0 en dus perplexity 1, de ondergrens.",
            "A model that gives every actual token probability 1 has NLL 0 and so perplexity 1, the lower bound.",
            "النموذج الذي يعطي كل رمز فعلي احتمال 1 يكون NLL لديه 0، فحيرته 1، وهي الحد الأدنى.",
        ),
    )
    yield Case(
        id="perfect-model-result",
        call="PerplexityResult.from_token_nll",
        args=([0.0, 0.0], [10, 5]),
        explain=t(
            "Twee perfect voorspelde reeksen: perplexity 1.0, gemiddelde 0.0, 15 tokens.",
            "Two perfectly predicted sequences: perplexity 1.0, average 0.0, 15 tokens.",
            "تسلسلان متوقَّعان تمامًا: الحيرة 1.0، والمتوسط 0.0، و15 رمزًا.",
        ),
    )
    yield Case(
        id="vocabulary-size",
        call="perplexity",
        args=([20 * math.log(50000.0)], [20]),
        explain=t(
            "Een uniform model over 50 000 tokens heeft perplexity 50 000: de vocabulairegrootte is de bovengrens "
            "van een model dat niets geleerd heeft.",
            "A uniform model over 50,000 tokens has perplexity 50,000: the vocabulary size is what a model that "
            "learnt nothing scores.",
            "النموذج الذي يوزّع احتماله بالتساوي على 50000 رمز حيرته 50000: حجم المفردات هو ما يسجله نموذج لم يتعلم "
            "شيئًا.",
        ),
    )
    yield Case(
        id="multi-sequence-weighting",
        call="perplexity",
        args=([10 * LN2, 30 * LN4], [10, 30]),
        explain=t(
            "Twee reeksen van 10 en 30 tokens (ln 2 en ln 4 per token). Elk token telt even zwaar: "
            "exp(70·ln 2 / 40) = 2^1.75 ≈ 3.364, niet het gemiddelde van de perplexities per reeks (3).",
            "Two sequences of 10 and 30 tokens (ln 2 and ln 4 per token). Every token weighs the same: "
            "exp(70·ln 2 / 40) = 2^1.75 ≈ 3.364, not the mean of the per-sequence perplexities (3).",
            "تسلسلان من 10 و30 رمزًا (ln 2 وln 4 لكل رمز). لكل رمز الوزن نفسه: exp(70·ln 2 / 40) = 2^1.75 ≈ 3.364، "
            "لا متوسط حيرة كل تسلسل (3).",
        ),
        hint=_WEIGHTING_HINT,
    )
    yield Case(
        id="multi-sequence-result",
        call="PerplexityResult.from_token_nll",
        args=([12.0, 3.0, 9.0], [4, 2, 10]),
        explain=t(
            "Drie reeksen: gemiddelde NLL = 24 / 16 = 1.5 per token, perplexity e^1.5, total_tokens 16.",
            "Three sequences: average NLL = 24 / 16 = 1.5 per token, perplexity e^1.5, total_tokens 16.",
            "ثلاثة تسلسلات: متوسط NLL = 24 / 16 = 1.5 لكل رمز، والحيرة e^1.5، وtotal_tokens يساوي 16.",
        ),
        hint=_WEIGHTING_HINT,
    )
    yield Case(
        id="empty-sequence-inside",
        call="PerplexityResult.from_token_nll",
        args=([6.0, 0.0, 2.0], [3, 0, 1]),
        explain=t(
            "Een reeks met 0 tokens (en NLL 0) in het midden verandert niets: 8 / 4 = 2 per token.",
            "A sequence with 0 tokens (and NLL 0) in the middle changes nothing: 8 / 4 = 2 per token.",
            "تسلسل فيه 0 رموز (وNLL يساوي 0) في الوسط لا يغيّر شيئًا: 8 / 4 = 2 لكل رمز.",
        ),
        hint=_WEIGHTING_HINT,
    )
    yield Case(
        id="zero-tokens",
        call="PerplexityResult.from_token_nll",
        args=([], []),
        explain=t(
            "Geen reeksen, dus geen tokens: perplexity nan, gemiddelde 0.0, total_tokens 0, en geen uitzondering.",
            "No sequences, so no tokens: perplexity nan, average 0.0, total_tokens 0, and no exception.",
            "لا تسلسلات، إذن لا رموز: الحيرة nan، والمتوسط 0.0، وtotal_tokens يساوي 0، ولا استثناء.",
        ),
        hint=_ZERO_HINT,
    )
    yield Case(
        id="zero-tokens-perplexity",
        call="perplexity",
        args=([], []),
        explain=t(
            "perplexity() op een lege corpus geeft nan (een float), niet 0.0 en geen fout.",
            "perplexity() on an empty corpus gives nan (a float), not 0.0 and no error.",
            "‏perplexity() على مدوَّنة فارغة تعطي nan (عددًا عشريًا)، لا 0.0 ولا خطأ.",
        ),
        hint=_ZERO_HINT,
    )
    yield Case(
        id="zero-token-counts",
        call="PerplexityResult.from_token_nll",
        args=([0.0, 0.0], [0, 0]),
        explain=t(
            "Twee reeksen zonder tokens: het totaal is 0, dus weer nan, 0.0 en 0.",
            "Two sequences without tokens: the total is 0, so again nan, 0.0 and 0.",
            "تسلسلان بلا رموز: المجموع 0، فالنتيجة مجددًا nan و0.0 و0.",
        ),
        hint=_ZERO_HINT,
    )
    yield Case(
        id="misaligned-lengths",
        call="PerplexityResult.from_token_nll",
        args=([1.0, 2.0], [10]),
        explain=t(
            "Twee NLL-sommen maar één aantal tokens: de lijsten horen paarsgewijs bij elkaar, dus ValueError.",
            "Two NLL sums but one token count: the lists belong together pairwise, so ValueError.",
            "مجموعا NLL مقابل عدد رموز واحد: القائمتان متقابلتان زوجًا بزوج، لذا ValueError.",
        ),
        hint=_CHECK_HINT,
    )
    yield Case(
        id="misaligned-perplexity",
        call="perplexity",
        args=([1.0], [5, 5]),
        explain=t(
            "Ook perplexity() weigert lijsten van ongelijke lengte met ValueError (zip zou stil afkappen).",
            "perplexity() too refuses lists of unequal length with ValueError (zip would silently truncate).",
            "‏perplexity() أيضًا ترفض قائمتين مختلفتي الطول بـ ValueError (لأن zip يقتطع بصمت).",
        ),
        hint=_CHECK_HINT,
    )
    yield Case(
        id="negative-nll",
        call="PerplexityResult.from_token_nll",
        args=([-1.0], [10]),
        explain=t(
            "Een negatieve NLL is onmogelijk; meestal is het minteken vergeten (log p in plaats van -log p). Dat zou "
            "een perplexity onder 1 geven, dus ValueError.",
            "A negative NLL is impossible; usually the minus sign was forgotten (log p instead of -log p). It would "
            "give a perplexity below 1, so ValueError.",
            "‏NLL سالب مستحيل؛ غالبًا نُسيت إشارة السالب (log p بدل -log p). سيعطي ذلك حيرة أقل من 1، لذا ValueError.",
        ),
        hint=t(
            "Controleer elke NLL-som: is er één kleiner dan 0, gooi dan ValueError en noem het vergeten minteken.",
            "Check every NLL sum: if one is below 0, raise ValueError and mention the forgotten minus sign.",
            "افحص كل مجموع NLL: إن كان أحدها أقل من 0 فارفع ValueError واذكر إشارة السالب المنسية.",
        ),
    )
    yield Case(
        id="negative-nll-later",
        call="perplexity",
        args=([3.0, -0.5], [4, 2]),
        explain=t(
            "De tweede NLL-som is negatief; ook één foute reeks is genoeg voor ValueError.",
            "The second NLL sum is negative; a single bad sequence is enough for ValueError.",
            "مجموع NLL الثاني سالب؛ يكفي تسلسل واحد خاطئ لرفع ValueError.",
        ),
        hint=_CHECK_HINT,
    )
    yield Case(
        id="negative-count",
        call="PerplexityResult.from_token_nll",
        args=([1.0, 2.0], [4, -3]),
        explain=t(
            "Een negatief aantal tokens bestaat niet: ValueError.",
            "A negative token count does not exist: ValueError.",
            "لا وجود لعدد رموز سالب: ValueError.",
        ),
        hint=_CHECK_HINT,
    )
    yield Case(
        id="numpy-inputs",
        call="PerplexityResult.from_token_nll",
        args=(np.array([12.0, 3.0, 9.0]), np.array([4, 2, 10], dtype=np.int64)),
        explain=t(
            "Dezelfde drie reeksen als numpy-arrays. total_tokens moet een Python-int blijven (gebruik int(...)), "
            "geen numpy.int64.",
            "The same three sequences as numpy arrays. total_tokens must still be a Python int (use int(...)), not "
            "numpy.int64.",
            "التسلسلات الثلاثة نفسها في صورة مصفوفات numpy. يجب أن يبقى total_tokens عددًا صحيحًا من بايثون (استخدم "
            "int(...))، لا numpy.int64.",
        ),
        hint=t(
            "sum() of np.sum() over een numpy-array geeft een numpy-getal; zet het om met int(...) en float(...).",
            "sum() or np.sum() over a numpy array gives a numpy number; convert it with int(...) and float(...).",
            "‏sum() أو np.sum() على مصفوفة numpy يعطي عددًا من numpy؛ حوّله بـ int(...) وfloat(...).",
        ),
    )
    yield Case(
        id="numpy-inputs-perplexity",
        call="perplexity",
        args=(np.array([10 * LN2, 30 * LN4]), np.array([10, 30])),
        explain=t(
            "perplexity() werkt ook op numpy-arrays en geeft een float terug: 2^1.75.",
            "perplexity() also works on numpy arrays and returns a float: 2^1.75.",
            "‏perplexity() تعمل أيضًا على مصفوفات numpy وتعيد عددًا عشريًا: 2^1.75.",
        ),
    )
    yield Case(
        id="zero-token-sequence-still-counts",
        call="perplexity",
        args=([5.0, 3.0], [5, 0]),
        explain=t(
            "Een reeks met 0 tokens maar een NLL-som van 3.0 telt mee in de som: exp((5 + 3) / 5) ≈ 4.953, niet "
            "exp(5 / 5). Alleen de deling gebeurt op het totaal.",
            "A sequence with 0 tokens but an NLL sum of 3.0 still counts in the sum: exp((5 + 3) / 5) ≈ 4.953, not "
            "exp(5 / 5). Only the division is by the total.",
            "تسلسل فيه 0 رموز لكن مجموع NLL فيه 3.0 يُحسب في المجموع: exp((5 + 3) / 5) ≈ 4.953 لا exp(5 / 5). "
            "القسمة وحدها على المجموع.",
        ),
        hint=_WEIGHTING_HINT,
    )
    yield Case(
        id="large-token-counts",
        call="PerplexityResult.from_token_nll",
        args=([40000.0, 100.0], [40000, 100]),
        explain=t(
            "Echte corpora hebben tienduizenden tokens per reeks: 40 100 tokens in totaal, meer dan een int16 "
            "(32 767) kan bevatten. total_tokens is 40100.",
            "Real corpora have tens of thousands of tokens per sequence: 40,100 tokens in all, more than an int16 "
            "(32,767) holds. total_tokens is 40100.",
            "للمدوّنات الحقيقية عشرات الآلاف من الرموز في التسلسل: 40100 رمز إجمالًا، أكثر مما يتسع له int16 "
            "(32767). وtotal_tokens يساوي 40100.",
        ),
        hint=_WEIGHTING_HINT,
    )
    yield Case(
        id="counts-past-int64",
        call="PerplexityResult.from_token_nll",
        args=([1.0e20, 2.0e19], [10**20, 2**63 + 1]),
        explain=t(
            "Twee tellingen voorbij de grootste int64 (9 223 372 036 854 775 807): 10^20 en 2^63 + 1 tokens. "
            "Python-int's blijven exact, ook waar een float64 het niet is: total_tokens is 109223372036854775809.",
            "Two counts past the largest int64 (9,223,372,036,854,775,807): 10^20 and 2^63 + 1 tokens. Python ints "
            "stay exact, also where a float64 is not: total_tokens is 109223372036854775809.",
            "عددان يتجاوزان أكبر int64 ‏(9223372036854775807): ‏10^20 و2^63 + 1 رمزًا. الأعداد الصحيحة في بايثون تبقى "
            "دقيقة حتى حيث لا يكون float64 دقيقًا: total_tokens يساوي 109223372036854775809.",
        ),
        hint=t(
            "Tel de tokens op als Python-int's: int(n) per telling, dan sum(). Die zijn exact bij elke grootte; een "
            "numpy-integertype houdt op bij 2^63 - 1.",
            "Add the counts as Python ints: int(n) for each, then sum(). They are exact at any size; a numpy integer "
            "type stops at 2^63 - 1.",
            "اجمع الأعداد أعدادًا صحيحة من بايثون: int(n) لكل عدد ثم sum(). فهي دقيقة مهما كبرت، أما أنواع numpy "
            "الصحيحة فتتوقف عند 2^63 - 1.",
        ),
    )
    yield Case(
        id="uint8-counts",
        call="perplexity",
        args=([300.0, 150.0], np.array([200, 100], dtype=np.uint8)),
        explain=t(
            "Tokentellingen als uint8-array (200 en 100): samen 300 tokens, meer dan een uint8 kan bevatten. Tel in "
            "Python-int's (int(n) per telling, of np.sum, dat breder optelt), anders loopt de som rond naar 44.",
            "Token counts as a uint8 array (200 and 100): 300 tokens together, more than a uint8 holds. Add them as "
            "Python ints (int(n) per count, or np.sum, which adds in a wider type), or the sum wraps round to 44.",
            "أعداد الرموز مصفوفة uint8 ‏(200 و100): 300 رمز معًا، أكثر مما يتسع له uint8. اجمعها أعدادًا صحيحة من "
            "بايثون (int(n) لكل عدد، أو np.sum الذي يجمع بنوع أوسع)، وإلا التفّ المجموع إلى 44.",
        ),
        hint=_WIDTH_HINT,
    )
    yield Case(
        id="negative-nll-zero-tokens",
        call="perplexity",
        args=([-1.0], [0]),
        explain=t(
            "Nul tokens, maar de NLL-som is negatief: de invoer is ongeldig, ook al valt er niets te middelen. "
            "Controleer eerst, reken daarna: ValueError.",
            "Zero tokens, but the NLL sum is negative: the input is invalid even though there is nothing to average. "
            "Check first, compute after: ValueError.",
            "صفر رموز، لكن مجموع NLL سالب: الإدخال غير صالح وإن لم يكن هناك ما يُحسب متوسطه. افحص أولًا ثم احسب: "
            "ValueError.",
        ),
        hint=_CHECK_HINT,
    )


def random_cases(rng, count):
    """Yield `count` random corpora of 1 to 6 sequences, as lists or numpy arrays, for either entry point."""
    for number in range(count):
        sequences = rng.randint(1, 6)
        counts = [rng.choice([0, rng.randint(1, 60), rng.randint(1, 60)]) for _ in range(sequences)]
        nlls = [round(n * rng.uniform(0.2, 4.0), 3) for n in counts]
        if rng.random() < 0.3:
            args = (np.array(nlls, dtype=np.float64), np.array(counts, dtype=np.int64))
        else:
            args = (nlls, counts)
        call = "perplexity" if number % 2 else "PerplexityResult.from_token_nll"
        yield Case(
            id=f"random-{number}",
            call=call,
            args=args,
            explain=t(
                f"Een willekeurige corpus van {sequences} reeks(en) met samen {sum(counts)} tokens.",
                f"A random corpus of {sequences} sequence(s) with {sum(counts)} tokens in total.",
                f"مدوَّنة عشوائية من {sequences} تسلسل بمجموع {sum(counts)} رمزًا.",
            ),
            hint=_WEIGHTING_HINT,
        )
