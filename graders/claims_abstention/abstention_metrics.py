"""Hidden grader: claims-abstention, checkpoint 2 (abstention_metrics).

The contract follows the lesson's sample solution: two lists of equal length with 1 to 1000 items; targets are
non-empty ``str`` (a string of spaces is a label like any other); predictions are non-empty ``str`` or ``None``, and
only ``None`` abstains; a prediction is right when it is exactly ``==`` its target. The curated cases' labels come
in the learner's language (:func:`graders.claims_abstention.common.words`).
"""

from graders.claims_abstention.common import case_builders, words
from graders.engine.domain import Domain, Maybe, Param, Seq, Text
from graders.engine.settings import FALLBACK_LANGUAGE

RANDOM_CASES = 25

DOMAIN = Domain(
    call="abstention_metrics",
    params=(
        Param("predictions", Seq(Maybe(Text(pool="label")), min_len=1, max_len=1000)),
        Param("targets", Seq(Text(pool="label"), min_len=1, max_len=1000)),
    ),
    aligned=(("predictions", "targets"),),
)


# _case(case_id, predictions, targets, nl, en, ar, hint=None) and _invalid(case_id, predictions, targets, nl, en, ar)
_case, _invalid = case_builders("abstention_metrics", 2)


def curated(lang=FALLBACK_LANGUAGE):
    """Yield the curated cases, in the order a learner should meet them, with labels in ``lang``."""
    w, nl, en = words(lang), words("nl"), words("en")
    invoice, outage, question = w["invoice"], w["outage"], w["question"]
    SEED_TARGETS = [invoice, outage, question]
    yield _case(
        "seed-worked-example",
        [invoice, None, invoice],
        SEED_TARGETS,
        "Drie vragen, twee beantwoord, één goed: coverage 2/3, overall_accuracy 1/3, answered_accuracy 1/2 en "
        "risk 1/2.",
        "Three questions, two answered, one right: coverage 2/3, overall_accuracy 1/3, answered_accuracy 1/2 and "
        "risk 1/2.",
        "ثلاثة أسئلة، أُجيب عن اثنين منها، وواحدة صحيحة: coverage = 2/3 وoverall_accuracy = 1/3 "
        "وanswered_accuracy = 1/2 وrisk = 1/2.",
        hint={
            "nl": "answered telt alles wat niet None is; overall_accuracy deelt door het totaal, "
            "answered_accuracy door answered, en risk = (answered - correct) / answered. Tellingen zijn int.",
            "en": "answered counts everything that is not None; overall_accuracy divides by the total, "
            "answered_accuracy by answered, and risk = (answered - correct) / answered. Counts are int.",
            "ar": "answered يعدّ كل ما ليس None؛ overall_accuracy تقسم على المجموع، وanswered_accuracy على "
            "answered، وrisk = (answered - correct) / answered. الأعداد من نوع int.",
        },
    )
    yield _case(
        "seed-all-abstain",
        [None, None, None],
        SEED_TARGETS,
        "Alle drie vragen onthouden: answered 0, coverage 0.0, overall_accuracy 0.0, en answered_accuracy en "
        "risk zijn None (niet gedefinieerd, geen 0).",
        "All three questions abstained: answered 0, coverage 0.0, overall_accuracy 0.0, and answered_accuracy "
        "and risk are None (undefined, not 0).",
        "امتناع عن الأسئلة الثلاثة كلها: answered = 0 وcoverage = 0.0 وoverall_accuracy = 0.0، "
        "أما answered_accuracy وrisk فهما None (غير معرّفين، لا صفر).",
        hint={
            "nl": "Deel nooit door answered als dat 0 is; geef dan None.",
            "en": "Never divide by answered when it is 0; return None instead.",
            "ar": "لا تقسم أبدًا على answered إذا كان صفرًا؛ أعِد None بدلًا من ذلك.",
        },
    )
    one_of_many = [w["yes"]] + [None] * 100
    yield _case(
        "one-right-hundred-abstain",
        one_of_many,
        [w["yes"]] + [w["no"]] * 100,
        "Eén goed antwoord en honderd onthoudingen: answered_accuracy 1.0, maar coverage en overall_accuracy "
        "zijn 1/101. Onthoudingen blijven in de noemer van het totaal.",
        "One right answer and a hundred abstentions: answered_accuracy 1.0, but coverage and overall_accuracy "
        "are 1/101. Abstentions stay in the denominator of the total.",
        "إجابة صحيحة واحدة ومئة امتناع: answered_accuracy = 1.0، لكن coverage وoverall_accuracy = 1/101. "
        "يبقى الامتناع في مقام المجموع.",
        hint={
            "nl": "overall_accuracy = correct / total, en total telt ook de None-voorspellingen.",
            "en": "overall_accuracy = correct / total, and total includes the None predictions.",
            "ar": "overall_accuracy = correct / total، وtotal يشمل تنبؤات None أيضًا.",
        },
    )
    yield _case(
        "all-right",
        ["a", "b"],
        ["a", "b"],
        "Alles beantwoord en goed: coverage 1.0, risk 0.0 (floats, ook als ze rond zijn).",
        "Everything answered and right: coverage 1.0, risk 0.0 (floats, even when they are whole).",
        "أُجيب عن الكل بشكل صحيح: coverage = 1.0 وrisk = 0.0 (أعداد float حتى لو كانت صحيحة).",
    )
    yield _case(
        "all-wrong",
        ["b", "a", "a"],
        ["a", "b", "b"],
        "Alles beantwoord en fout: correct 0, answered_accuracy 0.0, risk 1.0.",
        "Everything answered and wrong: correct 0, answered_accuracy 0.0, risk 1.0.",
        "أُجيب عن الكل بشكل خاطئ: correct = 0 وanswered_accuracy = 0.0 وrisk = 1.0.",
    )
    yield _case(
        "single-abstention",
        [None],
        [invoice],
        "Eén vraag, onthouden: coverage 0.0, risk None.",
        "One question, abstained: coverage 0.0, risk None.",
        "سؤال واحد مع امتناع: coverage = 0.0 وrisk = None.",
    )
    yield _case(
        "single-answer",
        [invoice],
        [invoice],
        "Eén vraag, goed beantwoord: alles 1 of 1.0, risk 0.0.",
        "One question, answered correctly: everything 1 or 1.0, risk 0.0.",
        "سؤال واحد أُجيب عنه بشكل صحيح: كل شيء 1 أو 1.0 وrisk = 0.0.",
    )
    yield _case(
        "case-and-space-differ",
        [invoice.capitalize(), outage + " ", question],
        SEED_TARGETS,
        f"'{nl['invoice'].capitalize()}' en '{nl['outage']} ' zijn beantwoord maar fout: labels worden exact "
        f"vergeleken. Alleen '{nl['question']}' klopt.",
        f"'{en['invoice'].capitalize()}' and '{en['outage']} ' are answered but wrong: labels are compared exactly. "
        f"Only '{en['question']}' is right.",
        f"'{en['invoice'].capitalize()}' و'{en['outage']} ' إجابتان خاطئتان: تُقارن التسميات حرفيًا. "
        f"'{en['question']}' وحدها صحيحة.",
    )
    yield _case(
        "blank-label-is-text",
        [" ", None],
        [" ", "x"],
        "Een string met alleen een spatie is niet leeg, dus een geldig label; hier is het een goed antwoord.",
        "A string holding just a space is not empty, so it is a valid label; here it is a right answer.",
        "النص الذي فيه مسافة فقط ليس فارغًا، فهو تسمية صالحة؛ وهنا هو إجابة صحيحة.",
    )
    yield _invalid(
        "empty-prediction",
        [invoice, "", None],
        SEED_TARGETS,
        "Een lege string is geen onthouding (alleen None is dat) en ook geen geldig label.",
        "An empty string is not an abstention (only None is) and not a valid label either.",
        "النص الفارغ ليس امتناعًا (الامتناع هو None فقط) وليس تسمية صالحة أيضًا.",
    )
    yield _case(
        "substring-is-wrong",
        [invoice[:3], invoice + invoice[-1]],
        [invoice, invoice],
        f"'{nl['invoice'][:3]}' staat in '{nl['invoice']}', en '{nl['invoice']}' staat in "
        f"'{nl['invoice'] + nl['invoice'][-1]}', maar geen van beide is gelijk: twee foute antwoorden.",
        f"'{en['invoice'][:3]}' is inside '{en['invoice']}', and '{en['invoice']}' is inside "
        f"'{en['invoice'] + en['invoice'][-1]}', but neither is equal: two wrong answers.",
        f"'{en['invoice'][:3]}' جزء من '{en['invoice']}'، و'{en['invoice']}' جزء من "
        f"'{en['invoice'] + en['invoice'][-1]}'، لكن لا تساوي بينهما: إجابتان خاطئتان.",
    )
    yield _case(
        "unicode-forms-are-different-labels",
        ["cafe\u0301"],
        ["caf\u00e9"],
        "'café' met een losse accentcombinatie (NFD) is een ander label dan 'café' als één teken (NFC): fout.",
        "'café' with a combining accent (NFD) is another label than 'café' as one character (NFC): wrong.",
        "'café' بعلامة مركّبة منفصلة (NFD) تسمية غير 'café' بمحرف واحد (NFC): خاطئة.",
    )
    yield _case(
        "none-string-is-a-label",
        ["None", "null"],
        ["None", w["yes"]],
        "De strings 'None' en 'null' zijn gewone labels, geen onthoudingen: 2 beantwoord, 1 goed.",
        "The strings 'None' and 'null' are ordinary labels, not abstentions: 2 answered, 1 right.",
        "النصان 'None' و'null' تسميتان عاديتان لا امتناعان: أُجيب عن 2 وواحدة صحيحة.",
    )
    yield _invalid(
        "nan-prediction",
        [float("nan"), invoice],
        [invoice, invoice],
        "NaN is geen onthouding (alleen None is dat) en geen str.",
        "NaN is not an abstention (only None is) and not a str.",
        "NaN ليس امتناعًا (الامتناع None فقط) وليس str.",
    )
    yield _invalid(
        "items-1001-mostly-abstained",
        ["a"] + [None] * 1000,
        ["a"] * 1001,
        "1001 gevallen, waarvan er maar één beantwoord is: de grens van 1000 telt alle gevallen, ook de onthoudingen.",
        "1001 items, of which only one is answered: the limit of 1000 counts every item, abstentions included.",
        "1001 حالة لم يُجَب إلا عن واحدة منها: حد الألف يعدّ كل الحالات، والامتناعات منها.",
    )
    yield _invalid(
        "empty-target",
        [invoice],
        [""],
        "Het doel is een lege string.",
        "The target is an empty string.",
        "الهدف نص فارغ.",
    )
    yield _invalid(
        "none-target",
        [None, "a"],
        [None, "a"],
        "Een doel mag geen None zijn: alleen voorspellingen kunnen onthouden.",
        "A target may not be None: only predictions can abstain.",
        "لا يجوز أن يكون الهدف None: التنبؤات وحدها يمكن أن تمتنع.",
    )
    yield _invalid(
        "int-prediction",
        [0, "a"],
        ["a", "a"],
        "De voorspelling 0 is geen str en geen None.",
        "The prediction 0 is neither a str nor None.",
        "التنبؤ 0 ليس str وليس None.",
    )
    yield _invalid(
        "false-prediction",
        [False],
        ["a"],
        "False is geen onthouding: alleen None telt als onthouden.",
        "False is not an abstention: only None is.",
        "False ليس امتناعًا: None وحده امتناع.",
    )
    yield _invalid(
        "int-target",
        ["1"],
        [1],
        "Het doel is het getal 1, geen str.",
        "The target is the number 1, not a str.",
        "الهدف العدد 1 وليس str.",
    )
    yield _invalid(
        "list-prediction",
        [["a"]],
        ["a"],
        "De voorspelling is een lijst, geen str.",
        "The prediction is a list, not a str.",
        "التنبؤ قائمة وليس str.",
    )
    yield _invalid(
        "more-predictions",
        ["a", "b", "c"],
        ["a", "b"],
        "Drie voorspellingen bij twee doelen: niet uitgelijnd.",
        "Three predictions for two targets: misaligned.",
        "ثلاثة تنبؤات لهدفين: غير متحاذية.",
    )
    yield _invalid(
        "fewer-predictions",
        ["a"],
        ["a", "b"],
        "Eén voorspelling bij twee doelen: niet uitgelijnd.",
        "One prediction for two targets: misaligned.",
        "تنبؤ واحد لهدفين: غير متحاذية.",
    )
    yield _invalid(
        "empty-lists",
        [],
        [],
        "Nul gevallen: minstens één is nodig.",
        "Zero items: at least one is needed.",
        "صفر حالات: يلزم واحد على الأقل.",
    )
    yield _case(
        "items-1000",
        ["a", None] * 500,
        ["a", "b"] * 500,
        "Precies 1000 gevallen is toegestaan: 500 beantwoord, alle goed.",
        "Exactly 1000 items is allowed: 500 answered, all right.",
        "1000 حالة بالضبط مسموحة: أُجيب عن 500 وكلها صحيحة.",
    )
    yield _invalid(
        "items-1001",
        ["a"] * 1001,
        ["a"] * 1001,
        "1001 gevallen is er één te veel.",
        "1001 items is one too many.",
        "1001 حالة أكثر من الحد بواحدة.",
    )
    yield _invalid(
        "tuple-input",
        ("a", None),
        ("a", "b"),
        "Tuples in plaats van lijsten.",
        "Tuples instead of lists.",
        "tuple بدل list.",
    )
    yield _invalid(
        "string-input",
        "ab",
        "ab",
        "Twee strings in plaats van lijsten.",
        "Two strings instead of lists.",
        "نصّان بدل قائمتين.",
    )
    yield _invalid(
        "none-input",
        None,
        ["a"],
        "predictions is None in plaats van een lijst.",
        "predictions is None instead of a list.",
        "predictions هي None بدل قائمة.",
    )


_LABELS = ["A", "a", "b", "B ", "c-1", "c-10", "c-2", "\u00e9t\u00e9", "ja", "yes"]


def random_cases(rng, count):
    """Yield `count` valid random prediction/target lists (ids random-0, random-1, ...)."""
    for index in range(count):
        size = rng.randint(1, 40)
        abstain_rate = rng.choice([0.0, 0.2, 0.5, 0.9, 1.0])
        targets = [rng.choice(_LABELS) for _ in range(size)]
        predictions = []
        for target in targets:
            if rng.random() < abstain_rate:
                predictions.append(None)
            elif rng.random() < 0.6:
                predictions.append(target)
            else:
                predictions.append(rng.choice(_LABELS))
        yield _case(
            f"random-{index}",
            predictions,
            targets,
            f"Willekeurige lijst van {size} gevallen met onthoudingen.",
            f"A random list of {size} items with abstentions.",
            f"قائمة عشوائية من {size} حالة فيها امتناعات.",
        )
