"""Hidden grader: micropip-demo, checkpoint 1 (decode_link, which needs the vendored mdurl wheel)."""

from graders.engine.case import Case


def _case(case_id, text, en, nl, ar):
    """One decode_link case with its explanation in three languages."""
    return Case(id=case_id, call="decode_link", args=(text,), explain={"en": en, "nl": nl, "ar": ar})


def curated():
    """Yield the curated cases, in the order a learner should meet them."""
    yield _case(
        "plain-space",
        "a%20b",
        "An escaped space becomes a space.",
        "Een gecodeerde spatie wordt een spatie.",
        "المسافة المرمّزة تصبح مسافة.",
    )
    yield _case(
        "delimiters-stay-escaped",
        "x%2Fy%3Fz%23w",
        "Escaped URL delimiters (/, ?, #) stay escaped.",
        "Gecodeerde URL-scheidingstekens (/, ?, #) blijven gecodeerd.",
        "تبقى فواصل الرابط المرمّزة (/ و? و#) مرمّزة.",
    )
    yield _case(
        "utf8-sequence",
        "caf%C3%A9",
        "A two-byte UTF-8 escape becomes one character.",
        "Een UTF-8-escape van twee bytes wordt één teken.",
        "ترميز UTF-8 من بايتين يصبح حرفًا واحدًا.",
    )
