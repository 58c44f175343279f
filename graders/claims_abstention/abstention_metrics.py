"""Hidden grader: claims-abstention, checkpoint 2 (abstention_metrics)."""
from graders.claims_abstention.common import case_builders

TIME_LIMIT = 5.0
RANDOM_CASES = 25

SEED_TARGETS = ["factuur", "storing", "vraag"]


# _case(case_id, predictions, targets, nl, en, ar, hint=None) and _invalid(case_id, predictions, targets, nl, en, ar)
_case, _invalid = case_builders("abstention_metrics", 2)


def curated():
    """Yield the curated cases, in the order a learner should meet them."""
    yield _case(
        "seed-worked-example", ["factuur", None, "factuur"], SEED_TARGETS,
        "Het voorbeeld uit de les: 3 vragen, 2 beantwoord, 1 goed. Coverage 2/3, overall_accuracy 1/3, "
        "answered_accuracy 1/2 en risk 1/2.",
        "The lesson's example: 3 questions, 2 answered, 1 right. Coverage 2/3, overall_accuracy 1/3, "
        "answered_accuracy 1/2 and risk 1/2.",
        "مثال الدرس: 3 أسئلة، أُجيب عن 2، وواحدة صحيحة. coverage = 2/3 وoverall_accuracy = 1/3 "
        "وanswered_accuracy = 1/2 وrisk = 1/2.",
        hint={"nl": "answered telt alles wat niet None is; overall_accuracy deelt door het totaal, "
                    "answered_accuracy door answered, en risk = (answered - correct) / answered. Tellingen zijn int.",
              "en": "answered counts everything that is not None; overall_accuracy divides by the total, "
                    "answered_accuracy by answered, and risk = (answered - correct) / answered. Counts are int.",
              "ar": "answered يعدّ كل ما ليس None؛ overall_accuracy تقسم على المجموع، وanswered_accuracy على "
                    "answered، وrisk = (answered - correct) / answered. الأعداد من نوع int."})
    yield _case(
        "seed-all-abstain", [None, None, None], SEED_TARGETS,
        "Alle drie vragen onthouden: answered 0, coverage 0.0, overall_accuracy 0.0, en answered_accuracy en "
        "risk zijn None (niet gedefinieerd, geen 0).",
        "All three questions abstained: answered 0, coverage 0.0, overall_accuracy 0.0, and answered_accuracy "
        "and risk are None (undefined, not 0).",
        "امتناع عن الأسئلة الثلاثة كلها: answered = 0 وcoverage = 0.0 وoverall_accuracy = 0.0، "
        "أما answered_accuracy وrisk فهما None (غير معرّفين، لا صفر).",
        hint={"nl": "Deel nooit door answered als dat 0 is; geef dan None.",
              "en": "Never divide by answered when it is 0; return None instead.",
              "ar": "لا تقسم أبدًا على answered إذا كان صفرًا؛ أعِد None بدلًا من ذلك."})
    one_of_many = ["ja"] + [None] * 100
    yield _case(
        "one-right-hundred-abstain", one_of_many, ["ja"] + ["nee"] * 100,
        "Eén goed antwoord en honderd onthoudingen: answered_accuracy 1.0, maar coverage en overall_accuracy "
        "zijn 1/101. Onthoudingen blijven in de noemer van het totaal.",
        "One right answer and a hundred abstentions: answered_accuracy 1.0, but coverage and overall_accuracy "
        "are 1/101. Abstentions stay in the denominator of the total.",
        "إجابة صحيحة واحدة ومئة امتناع: answered_accuracy = 1.0، لكن coverage وoverall_accuracy = 1/101. "
        "يبقى الامتناع في مقام المجموع.",
        hint={"nl": "overall_accuracy = correct / total, en total telt ook de None-voorspellingen.",
              "en": "overall_accuracy = correct / total, and total includes the None predictions.",
              "ar": "overall_accuracy = correct / total، وtotal يشمل تنبؤات None أيضًا."})
    yield _case(
        "all-right", ["a", "b"], ["a", "b"],
        "Alles beantwoord en goed: coverage 1.0, risk 0.0 (floats, ook als ze rond zijn).",
        "Everything answered and right: coverage 1.0, risk 0.0 (floats, even when they are whole).",
        "أُجيب عن الكل بشكل صحيح: coverage = 1.0 وrisk = 0.0 (أعداد float حتى لو كانت صحيحة).")
    yield _case(
        "all-wrong", ["b", "a", "a"], ["a", "b", "b"],
        "Alles beantwoord en fout: correct 0, answered_accuracy 0.0, risk 1.0.",
        "Everything answered and wrong: correct 0, answered_accuracy 0.0, risk 1.0.",
        "أُجيب عن الكل بشكل خاطئ: correct = 0 وanswered_accuracy = 0.0 وrisk = 1.0.")
    yield _case(
        "single-abstention", [None], ["factuur"],
        "Eén vraag, onthouden: coverage 0.0, risk None.",
        "One question, abstained: coverage 0.0, risk None.",
        "سؤال واحد مع امتناع: coverage = 0.0 وrisk = None.")
    yield _case(
        "single-answer", ["factuur"], ["factuur"],
        "Eén vraag, goed beantwoord: alles 1 of 1.0, risk 0.0.",
        "One question, answered correctly: everything 1 or 1.0, risk 0.0.",
        "سؤال واحد أُجيب عنه بشكل صحيح: كل شيء 1 أو 1.0 وrisk = 0.0.")
    yield _case(
        "case-and-space-differ", ["Factuur", "storing ", "vraag"], SEED_TARGETS,
        "'Factuur' en 'storing ' zijn beantwoord maar fout: labels worden exact vergeleken. Alleen 'vraag' klopt.",
        "'Factuur' and 'storing ' are answered but wrong: labels are compared exactly. Only 'vraag' is right.",
        "'Factuur' و'storing ' إجابتان خاطئتان: تُقارن التسميات حرفيًا. 'vraag' وحدها صحيحة.")
    yield _case(
        "blank-label-is-text", [" ", None], [" ", "x"],
        "Een string met alleen een spatie is niet leeg, dus een geldig label; hier is het een goed antwoord.",
        "A string holding just a space is not empty, so it is a valid label; here it is a right answer.",
        "النص الذي فيه مسافة فقط ليس فارغًا، فهو تسمية صالحة؛ وهنا هو إجابة صحيحة.")
    yield _invalid(
        "empty-prediction", ["factuur", "", None], SEED_TARGETS,
        "Een lege string is geen onthouding (alleen None is dat) en ook geen geldig label.",
        "An empty string is not an abstention (only None is) and not a valid label either.",
        "النص الفارغ ليس امتناعًا (الامتناع هو None فقط) وليس تسمية صالحة أيضًا.")
    yield _invalid(
        "empty-target", ["factuur"], [""],
        "Het doel is een lege string.", "The target is an empty string.", "الهدف نص فارغ.")
    yield _invalid(
        "none-target", [None, "a"], [None, "a"],
        "Een doel mag geen None zijn: alleen voorspellingen kunnen onthouden.",
        "A target may not be None: only predictions can abstain.",
        "لا يجوز أن يكون الهدف None: التنبؤات وحدها يمكن أن تمتنع.")
    yield _invalid(
        "int-prediction", [0, "a"], ["a", "a"],
        "De voorspelling 0 is geen str en geen None.", "The prediction 0 is neither a str nor None.",
        "التنبؤ 0 ليس str وليس None.")
    yield _invalid(
        "false-prediction", [False], ["a"],
        "False is geen onthouding: alleen None telt als onthouden.", "False is not an abstention: only None is.",
        "False ليس امتناعًا: None وحده امتناع.")
    yield _invalid(
        "int-target", ["1"], [1],
        "Het doel is het getal 1, geen str.", "The target is the number 1, not a str.", "الهدف العدد 1 وليس str.")
    yield _invalid(
        "list-prediction", [["a"]], ["a"],
        "De voorspelling is een lijst, geen str.", "The prediction is a list, not a str.", "التنبؤ قائمة وليس str.")
    yield _invalid(
        "more-predictions", ["a", "b", "c"], ["a", "b"],
        "Drie voorspellingen bij twee doelen: niet uitgelijnd.", "Three predictions for two targets: misaligned.",
        "ثلاثة تنبؤات لهدفين: غير متحاذية.")
    yield _invalid(
        "fewer-predictions", ["a"], ["a", "b"],
        "Eén voorspelling bij twee doelen: niet uitgelijnd.", "One prediction for two targets: misaligned.",
        "تنبؤ واحد لهدفين: غير متحاذية.")
    yield _invalid(
        "empty-lists", [], [],
        "Nul gevallen: minstens één is nodig.", "Zero items: at least one is needed.", "صفر حالات: يلزم واحد على الأقل.")
    yield _case(
        "items-1000", ["a", None] * 500, ["a", "b"] * 500,
        "Precies 1000 gevallen is toegestaan: 500 beantwoord, alle goed.",
        "Exactly 1000 items is allowed: 500 answered, all right.",
        "1000 حالة بالضبط مسموحة: أُجيب عن 500 وكلها صحيحة.")
    yield _invalid(
        "items-1001", ["a"] * 1001, ["a"] * 1001,
        "1001 gevallen is er één te veel.", "1001 items is one too many.", "1001 حالة أكثر من الحد بواحدة.")
    yield _invalid(
        "tuple-input", ("a", None), ("a", "b"),
        "Tuples in plaats van lijsten.", "Tuples instead of lists.", "tuple بدل list.")
    yield _invalid(
        "string-input", "ab", "ab",
        "Twee strings in plaats van lijsten.", "Two strings instead of lists.", "نصّان بدل قائمتين.")
    yield _invalid(
        "none-input", None, ["a"],
        "predictions is None in plaats van een lijst.", "predictions is None instead of a list.",
        "predictions هي None بدل قائمة.")


_LABELS = ["factuur", "storing", "vraag", "klacht", "Factuur"]


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
            f"random-{index}", predictions, targets,
            f"Willekeurige lijst van {size} gevallen met onthoudingen.",
            f"A random list of {size} items with abstentions.",
            f"قائمة عشوائية من {size} حالة فيها امتناعات.")
