"""The engine's message catalog, in Dutch, English and Arabic.

:func:`text` picks a message by key and language and fills in its ``{placeholders}``. A missing translation falls
back to English; a missing key is an engine bug and raises ``KeyError``.
"""

from __future__ import annotations

LANGS = ("nl", "en", "ar")

CATALOG: dict[str, dict[str, str]] = {
    "pass": {
        "en": "All {total} cases pass.",
        "nl": "Alle {total} gevallen slagen.",
        "ar": "نجحت جميع الحالات ({total}).",
    },
    "fail": {
        "en": "{passed} of {total} cases pass. First failure: case {case}.",
        "nl": "{passed} van {total} gevallen slagen. Eerste fout: geval {case}.",
        "ar": "نجحت {passed} من {total} حالة. أول إخفاق: الحالة {case}.",
    },
    "error": {
        "en": "Your code raised an error before any case could run.",
        "nl": "Je code gaf een fout voordat er een geval kon draaien.",
        "ar": "أطلق كودك خطأً قبل أن تُشغَّل أي حالة.",
    },
    "syntax_error": {
        "en": "Python cannot read your code: a syntax error on line {line}.",
        "nl": "Python kan je code niet lezen: een syntaxfout op regel {line}.",
        "ar": "لا يستطيع بايثون قراءة كودك: خطأ في الصياغة في السطر {line}.",
    },
    "exit": {
        "en": "Your code ended the program (exit code {code}), so it could not be checked.",
        "nl": "Je code beëindigde het programma (exitcode {code}), dus controleren lukte niet.",
        "ar": "أنهى كودك البرنامج (رمز الخروج {code})، فتعذّر فحصه.",
    },
    "interrupt_own": {
        "en": "Your code raised KeyboardInterrupt itself, so it could not be checked.",
        "nl": "Je code gaf zelf een KeyboardInterrupt, dus controleren lukte niet.",
        "ar": "أطلق كودك KeyboardInterrupt بنفسه، فتعذّر فحصه.",
    },
    "timeout": {
        "en": "Time limit reached ({seconds} s). Is there an endless loop?",
        "nl": "Tijdslimiet bereikt ({seconds} s). Zit er een oneindige lus in?",
        "ar": "انتهت المهلة ({seconds} ث). هل توجد حلقة لا تنتهي؟",
    },
    "author_error": {
        "en": "This checkpoint's grader has a problem of its own; it is not your fault. Details: {detail}",
        "nl": "De nakijker van dit checkpoint heeft zelf een probleem; dat ligt niet aan jou. Details: {detail}",
        "ar": "في مُصحِّح هذه المحطة مشكلة خاصة به، وليس الخطأ منك. التفاصيل: {detail}",
    },
    # Reasons for a failed case.
    "reason_type": {
        "en": "Expected a value of type {expected}{where}, but got {actual}.",
        "nl": "Verwacht een waarde van type {expected}{where}, maar kreeg {actual}.",
        "ar": "المتوقَّع قيمة من النوع {expected}{where}، لكن وصلت {actual}.",
    },
    "reason_value": {
        "en": "The value{where} is different.",
        "nl": "De waarde{where} klopt niet.",
        "ar": "القيمة{where} مختلفة.",
    },
    "reason_length": {
        "en": "Expected {expected} items{where}, got {actual}.",
        "nl": "Verwacht {expected} elementen{where}, kreeg er {actual}.",
        "ar": "المتوقَّع {expected} عنصرًا{where}، ووصل {actual}.",
    },
    "reason_keys": {
        "en": "The keys{where} differ. Missing: {missing}. Extra: {extra}.",
        "nl": "De sleutels{where} verschillen. Ontbrekend: {missing}. Extra: {extra}.",
        "ar": "المفاتيح{where} مختلفة. الناقصة: {missing}. الزائدة: {extra}.",
    },
    "reason_shape": {
        "en": "The array{where} has shape {actual}; expected {expected}.",
        "nl": "De array{where} heeft vorm {actual}; verwacht {expected}.",
        "ar": "شكل المصفوفة{where} هو {actual}، والمتوقَّع {expected}.",
    },
    "reason_dtype": {
        "en": "The dtype{where} is {actual}; expected a {expected}-like dtype.",
        "nl": "Het dtype{where} is {actual}; verwacht een dtype zoals {expected}.",
        "ar": "نوع البيانات{where} هو {actual}، والمتوقَّع نوع مثل {expected}.",
    },
    "reason_attribute_missing": {
        "en": "The result has no attribute {name!s}.",
        "nl": "Het resultaat heeft geen attribuut {name!s}.",
        "ar": "لا يملك الناتج الخاصية {name!s}.",
    },
    "reason_attribute_raised": {
        "en": "Reading the attribute {name!s} raised {error}.",
        "nl": "Het attribuut {name!s} lezen gaf {error}.",
        "ar": "قراءة الخاصية {name!s} أطلقت {error}.",
    },
    "reason_expected_raise": {
        "en": "Expected {exc} to be raised, but the call returned a value.",
        "nl": "Verwacht dat {exc} werd opgegooid, maar de aanroep gaf een waarde terug.",
        "ar": "كان المتوقَّع إطلاق {exc}، لكن الاستدعاء أعاد قيمة.",
    },
    "reason_wrong_raise": {
        "en": "Expected {exc}, but the call raised {actual}.",
        "nl": "Verwacht {exc}, maar de aanroep gaf {actual}.",
        "ar": "كان المتوقَّع {exc}، لكن الاستدعاء أطلق {actual}.",
    },
    "reason_unexpected_raise": {
        "en": "The call raised {actual}, but it should have returned a value.",
        "nl": "De aanroep gaf {actual}, maar had een waarde moeten teruggeven.",
        "ar": "أطلق الاستدعاء {actual}، وكان ينبغي أن يعيد قيمة.",
    },
    "reason_message": {
        "en": "{exc} was raised, but its message does not say what the task asks for.",
        "nl": "{exc} werd opgegooid, maar de melding zegt niet wat de opdracht vraagt.",
        "ar": "أُطلق {exc}، لكن رسالته لا تذكر ما تطلبه المهمة.",
    },
    "reason_missing": {
        "en": "Your code does not define {name}.",
        "nl": "Je code definieert {name} niet.",
        "ar": "كودك لا يعرّف {name}.",
    },
    "reason_not_callable": {
        "en": "{name} is not a function you can call.",
        "nl": "{name} is geen functie die je kunt aanroepen.",
        "ar": "{name} ليست دالة يمكن استدعاؤها.",
    },
    "reason_not_reached": {
        "en": "This case did not run.",
        "nl": "Dit geval is niet uitgevoerd.",
        "ar": "لم تُشغَّل هذه الحالة.",
    },
    "reason_warning": {
        "en": "The call emitted a warning ({warning}); this case must run without warnings.",
        "nl": "De aanroep gaf een waarschuwing ({warning}); dit geval moet zonder waarschuwingen lopen.",
        "ar": "أطلق الاستدعاء تحذيرًا ({warning})، ويجب أن تعمل هذه الحالة دون تحذيرات.",
    },
    "where": {"en": " at {path}", "nl": " bij {path}", "ar": " عند {path}"},
    # Hints for type mismatches.
    "hint_int": {
        "en": "A numpy integer is not a Python int: convert it with int().",
        "nl": "Een numpy-geheel getal is geen Python-int: zet het om met int().",
        "ar": "عدد numpy الصحيح ليس int في بايثون: حوّله باستخدام int().",
    },
    "hint_float": {
        "en": "Return a Python float: convert with float().",
        "nl": "Geef een Python-float terug: zet om met float().",
        "ar": "أعد float من بايثون: حوّل باستخدام float().",
    },
    "hint_bool": {
        "en": "numpy.bool_ is not a Python bool: convert it with bool().",
        "nl": "numpy.bool_ is geen Python-bool: zet het om met bool().",
        "ar": "numpy.bool_ ليس bool في بايثون: حوّله باستخدام bool().",
    },
    "hint_int_not_float": {
        "en": "A count is an int, not a float.",
        "nl": "Een aantal is een int, geen float.",
        "ar": "العدد int وليس float.",
    },
    "hint_list": {
        "en": "Return a list (for a numpy array: .tolist()).",
        "nl": "Geef een list terug (bij een numpy-array: .tolist()).",
        "ar": "أعد قائمة list (ومن مصفوفة numpy: ‎.tolist()‎).",
    },
    "hint_tuple": {
        "en": "Return a tuple, not a list.",
        "nl": "Geef een tuple terug, geen list.",
        "ar": "أعد tuple وليس list.",
    },
    "hint_ndarray": {
        "en": "Return a numpy array (numpy.asarray).",
        "nl": "Geef een numpy-array terug (numpy.asarray).",
        "ar": "أعد مصفوفة numpy ‏(numpy.asarray).",
    },
    "hint_plain_dict": {
        "en": "Return a plain dict.",
        "nl": "Geef een gewone dict terug.",
        "ar": "أعد قاموس dict عاديًا.",
    },
    "hint_subclass": {
        "en": "Return a plain built-in value, not an object of your own subclass.",
        "nl": "Geef een gewone ingebouwde waarde terug, geen object van een eigen subklasse.",
        "ar": "أعد قيمة مدمجة عادية، لا كائنًا من صنف فرعي خاص بك.",
    },
    "hint_dtype_int": {
        "en": "Counts need an integer dtype.",
        "nl": "Aantallen hebben een integer-dtype nodig.",
        "ar": "تحتاج الأعداد إلى نوع بيانات صحيح.",
    },
    "hint_dtype_float": {
        "en": "These values need a float dtype.",
        "nl": "Deze waarden hebben een float-dtype nodig.",
        "ar": "تحتاج هذه القيم إلى نوع بيانات عشري float.",
    },
    # Notes.
    "note_mutated": {
        "en": "Your function changed its argument in case {case}; work on a copy instead.",
        "nl": "Je functie veranderde haar argument in geval {case}; werk liever op een kopie.",
        "ar": "غيّرت دالتك مُعاملها في الحالة {case}؛ اعمل على نسخة بدلًا من ذلك.",
    },
    "note_output_truncated": {
        "en": "Output was cut off after {limit} characters.",
        "nl": "De uitvoer is afgekapt na {limit} tekens.",
        "ar": "قُطع المخرَج بعد {limit} حرف.",
    },
}


def text(key: str, lang: str, **params) -> str:
    """The message ``key`` in ``lang`` (falling back to English), with ``params`` filled in."""
    table = CATALOG[key]
    template = table.get(lang) or table["en"]
    return template.format(**params)
