"""What the prose of micropip-demo states, computed (``werkbank check`` runs these; see werkbank/lesson_checks.py)."""

from werkbank.lesson_checks import lesson_of, reference


def lesson():
    return lesson_of(__file__)


def check_pin():
    assert lesson().requirements == ("mdurl==0.1.2",)


def check_decode():
    decode_link = reference(__file__, "1").decode_link
    assert decode_link("a%20b") == "a b" and decode_link("a%2Fb") == "a%2Fb"


PROSE_CLAIMS = [
        ('`requirements = ["mdurl==0.1.2"]`', check_pin),
        ("such as `%20` back into characters, but keeps escapes of characters that have a meaning in a URL (like "
         "`%2F` for `/`) as they are.", check_decode),
    ]
