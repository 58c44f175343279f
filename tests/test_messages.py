"""The engine's message catalog (graders/engine/messages.py) is complete in nl, en and ar."""

import string

import pytest

from graders.engine.messages import CATALOG, LANGS, text


def _fields(template):
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


@pytest.mark.parametrize("key", sorted(CATALOG))
def test_every_message_exists_in_every_language_with_the_same_placeholders(key):
    table = CATALOG[key]
    assert set(table) == set(LANGS)
    english = _fields(table["en"])
    for lang in LANGS:
        assert table[lang].strip()
        assert _fields(table[lang]) == english, (key, lang)


def test_text_fills_in_and_falls_back_to_english_for_unknown_languages():
    assert text("pass", "nl", total=4) == "Alle 4 gevallen slagen."
    assert text("pass", "xx", total=4) == "All 4 cases pass."
    with pytest.raises(KeyError):
        text("no-such-message", "en")
