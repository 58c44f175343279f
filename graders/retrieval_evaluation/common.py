"""Shared pieces of the retrieval-evaluation graders: the case builders and the document-id spec.

Not a grader itself: no lesson.toml names this module.
"""

from graders.engine.case import Case
from graders.engine.domain import Text

#: A document id: a non-blank str compared exactly; random ids come from one pool, so rankings and relevance
#: judgements share documents.
DOC = Text(blank=True, exact=True, pool="doc")

#: The sentence appended to the explanation of every case whose input breaks a rule of the task.
INVALID = {
    "en": " That input breaks a rule of the task: ValueError is expected.",
    "nl": " Die invoer breekt een regel van de opdracht: verwacht wordt ValueError.",
}
INVALID_HINT = {
    "en": "Check every rule of the task before computing anything, and raise ValueError.",
    "nl": "Controleer elke regel van de opdracht vóór je iets berekent, en gooi dan ValueError.",
}


def builders(call):
    """``(case, invalid)`` for cases of ``call``: ``case(id, args, en, nl, hint=None, kwargs=None)``."""

    def case(case_id, args, en, nl, hint=None, kwargs=None):
        return Case(
            id=case_id, call=call, args=tuple(args), kwargs=kwargs or {}, explain={"en": en, "nl": nl}, hint=hint or {}
        )

    def invalid(case_id, args, en, nl, kwargs=None):
        return case(case_id, args, en + INVALID["en"], nl + INVALID["nl"], INVALID_HINT, kwargs)

    return case, invalid
