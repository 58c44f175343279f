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


def test_every_generated_group_and_failure_kind_has_its_texts():
    """A failing generated case is explained by its family group (gen_<group>, gen_name_<group>, gen_hint_<group>),
    and a failing verdict names each kind of failure (kind_<kind>): a group or kind without them would end a Check in
    a KeyError instead of a verdict."""
    from graders.engine.generate import GROUPS
    from graders.engine.judge import FAILURE_KINDS

    keys = [f"{prefix}{group}" for group in list(GROUPS) + ["other"] for prefix in ("gen_", "gen_name_", "gen_hint_")]
    keys += [f"kind_{kind}" for kind in FAILURE_KINDS] + ["summary", "list_separator"]
    for lang in LANGUAGES:
        assert [key for key in keys if not CATALOGS[lang].get(key)] == [], lang


def test_text_filled_into_a_message_cannot_turn_the_message_around():
    """An exception name or exit code with a direction override (U+202E) or right-to-left letters is isolated
    (FSI ... PDI, closed even when it tries to close it itself); plain text is filled in as it is."""
    from graders.engine.i18n import FSI, PDI, isolate, text

    rlo = "\u202e"
    message = text("fail_python", "en", passed=1, total=3, exc=f"Bad{rlo}Error", line=2)
    assert message == f"1 of 3 cases pass. Your code raised {FSI}Bad{rlo}Error{PDI} on line 2."
    assert isolate(f"x{PDI}{rlo}y") == f"{FSI}x{rlo}y{PDI}"  # its own PDI cannot end the isolate early
    assert isolate("\u05d0") == f"{FSI}\u05d0{PDI}"
    assert isolate("ValueError") == "ValueError" and isolate("café") == "café"
    assert text("exit", "en", code=3) == text("exit", "en", code=3).replace(FSI, "")  # numbers: as they are
