"""Shared pieces of the claims-abstention graders: the case builders of all three checkpoints.

Every checkpoint builds its cases the same way: the call's positional arguments, an explanation in nl, en and ar,
an optional hint, and for invalid input the same closing sentence that ValueError is expected. One copy lives here,
so a fix lands in every checkpoint. Not a grader itself: no lesson.toml names this module.
"""

from graders.engine.case import Case
from graders.engine.settings import FALLBACK_LANGUAGE

#: The example data of the curated cases, per language of the lesson. The same keys everywhere, so a case has the
#: same structure (and, since sources are neutral ids and outcomes are statuses and numbers, the same expected
#: outcome) in every language; only the words a learner reads differ. Languages without their own words use English.
WORDS = {
    "nl": {
        "lamp": "lamp",
        "colour": "kleur",
        "blue": "blauw",
        "red": "rood",
        "weight": "gewicht",
        "vase": "vaas",
        "white": "wit",
        "yellow": "geel",
        "green": "groen",
        "invoice": "factuur",
        "outage": "storing",
        "question": "vraag",
        "complaint": "klacht",
        "yes": "ja",
        "no": "nee",
    },
    "en": {
        "lamp": "lamp",
        "colour": "colour",
        "blue": "blue",
        "red": "red",
        "weight": "weight",
        "vase": "vase",
        "white": "white",
        "yellow": "yellow",
        "green": "green",
        "invoice": "invoice",
        "outage": "outage",
        "question": "question",
        "complaint": "complaint",
        "yes": "yes",
        "no": "no",
    },
}


def words(lang):
    """The example words for ``lang`` (the fallback language's for a language the lesson has no words in)."""
    return WORDS.get(lang, WORDS[FALLBACK_LANGUAGE])


#: The sentence appended to the explanation of every case whose input breaks a rule of the task.
INVALID_SUFFIX = {
    "nl": " Dat is ongeldige invoer: verwacht wordt ValueError.",
    "en": " That is invalid input: ValueError is expected.",
    "ar": " هذا إدخال غير صالح: المتوقع هو ValueError.",
}


def case_builders(call, arity, invalid_hint=None):
    """The builders ``(case, invalid)`` for cases of ``call``, which takes ``arity`` positional arguments.

    ``case(case_id, *arguments, nl, en, ar, hint=None)``: the ``arity`` arguments, then the explanation in nl, en
    and ar, and an optional hint (a dict of the same three languages).
    ``invalid(case_id, *arguments, nl, en, ar)``: a case whose input breaks a rule of the task, so ``call`` must
    raise ValueError; :data:`INVALID_SUFFIX` is appended to the explanation and ``invalid_hint`` is its hint.
    """

    def split(case_id, fields):
        """``fields`` as (arguments tuple, nl, en, ar); a wrong count is the grader author's mistake."""
        if len(fields) != arity + 3:
            raise TypeError(f"{call} case {case_id!r}: wants {arity} arguments and 3 texts, got {len(fields)} values")
        return (fields[:arity], *fields[arity:])

    def case(case_id, *fields, hint=None):
        """One case of the builders' call with its explanation in nl, en and ar (and an optional hint)."""
        args, nl, en, ar = split(case_id, fields)
        extra = {"hint": hint} if hint else {}
        return Case(id=case_id, call=call, args=args, explain={"nl": nl, "en": en, "ar": ar}, **extra)

    def invalid(case_id, *fields):
        """A case whose input breaks a rule of the task, so the builders' call must raise ValueError."""
        args, nl, en, ar = split(case_id, fields)
        return case(
            case_id,
            *args,
            nl + INVALID_SUFFIX["nl"],
            en + INVALID_SUFFIX["en"],
            ar + INVALID_SUFFIX["ar"],
            hint=invalid_hint,
        )

    return case, invalid
