"""The engine's message catalog (graders/engine/catalog/*.json, read by graders/engine/i18n.py) is complete in every
language the site offers, and lookups follow the one fallback rule."""

import string

import pytest

from graders.engine.i18n import CATALOGS, lookup, pick, text
from graders.engine.settings import FALLBACK_LANGUAGE, LANGUAGES


def _fields(template):
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


@pytest.mark.parametrize("key", sorted(CATALOGS[FALLBACK_LANGUAGE]))
def test_every_message_exists_in_every_language_with_the_same_placeholders(key):
    english = _fields(CATALOGS[FALLBACK_LANGUAGE][key])
    for lang in LANGUAGES:
        template = CATALOGS[lang].get(key)
        assert template and template.strip(), (key, lang)
        assert _fields(template) == english, (key, lang)


def test_no_language_has_keys_english_lacks():
    for lang in LANGUAGES:
        assert set(CATALOGS[lang]) <= set(CATALOGS[FALLBACK_LANGUAGE]), lang


def test_text_fills_in_and_falls_back_to_english_for_unknown_languages():
    assert text("pass", "nl", total=4) == "Alle 4 gevallen slagen."
    assert text("pass", "xx", total=4) == "All 4 cases pass."
    with pytest.raises(KeyError):
        text("no-such-message", "en")


def test_one_fallback_rule_for_catalogs_and_per_case_tables():
    catalogs = {"en": {"a": "A {n}", "b": "B"}, "nl": {"a": "NL {n}"}}
    assert lookup(catalogs, "a", "nl", n=1) == "NL 1"
    assert lookup(catalogs, "b", "nl") == "B"           # missing in nl: English
    assert lookup(catalogs, "a", "xx", n=2) == "A 2"     # unknown language: English
    assert pick({"en": "E", "nl": "N"}, "nl") == "N"
    assert pick({"en": "E", "nl": ""}, "nl") == "E"
    assert pick({"en": "E"}, "ar") == "E"
    assert pick({}, "ar") == ""


@pytest.mark.parametrize("group", sorted(__import__("graders.engine.generate", fromlist=["GROUPS"]).GROUPS) + ["other"])
def test_every_generated_family_group_has_its_texts_in_every_language(group):
    """A failing generated case shows its group's name, explanation and hint: a group the catalog lacks would stop
    the judge with a KeyError instead of a verdict."""
    from graders.engine.judge import case_texts

    for lang in LANGUAGES:
        for key in (f"gen_name_{group}", f"gen_{group}", f"gen_hint_{group}"):
            assert CATALOGS[lang].get(key), (key, lang)
        label, explain, hint = case_texts({"generated": {"group": group, "site": "lr_max", "detail": "1e308"}}, lang)
        assert "lr_max" in label and "1e308" in label and explain and hint


def test_a_generated_case_reads_as_a_phrase_in_the_verdict_headline():
    """The headline names the first failing case by its label: "First failure: a special number in lr_max
    (1e308)." with one period, and a case that changes the whole call names no site."""
    from graders.engine.judge import case_texts

    label, _, _ = case_texts({"generated": {"group": "special-number", "site": "lr_max", "detail": "1e308"}}, "en")
    assert label == "a special number in lr_max (1e308)"
    whole, _, _ = case_texts({"generated": {"group": "scale", "site": "-", "detail": "2000 items"}}, "en")
    assert whole == "a large input (2000 items)"
    for lang in LANGUAGES:
        message = text("fail", lang, passed=1, total=2, case=label)
        assert ".." not in message and message.rstrip().endswith(".")
