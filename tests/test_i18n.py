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


def test_a_catalog_that_gives_a_key_twice_is_refused_with_its_file(tmp_path):
    """json keeps the last of two equal keys silently, so a merge that leaves one twice would change a text unseen."""
    from graders.engine.i18n import load_catalogs

    (tmp_path / "en.json").write_text(
        '{"pass": "All pass.", "fail": "x", "pass": "Every case passes."}', encoding="utf-8"
    )
    with pytest.raises(ValueError, match=r"en\.json: the key 'pass' is given twice"):
        load_catalogs(tmp_path, ("en",))


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
    assert lookup(catalogs, "b", "nl") == "B"  # missing in nl: English
    assert lookup(catalogs, "a", "xx", n=2) == "A 2"  # unknown language: English
    assert pick({"en": "E", "nl": "N"}, "nl") == "N"
    assert pick({"en": "E", "nl": ""}, "nl") == "E"
    assert pick({"en": "E"}, "ar") == "E"
    assert pick({}, "ar") == ""


def test_every_generated_group_and_failure_kind_has_its_texts():
    """A failing generated case is explained by its family group (gen_<group>, gen_name_<group>, gen_hint_<group>),
    and a failing verdict names each kind of failure (kind_<kind>, in the engine's catalog and the page's): a group or
    kind without them would end a Check in a KeyError instead of a verdict, or label a failing case with a bare key."""
    from graders.engine.generate import GROUPS
    from graders.engine.judge import FAILURE_KINDS

    keys = [f"{prefix}{group}" for group in list(GROUPS) + ["other"] for prefix in ("gen_", "gen_name_", "gen_hint_")]
    keys += [f"kind_{kind}" for kind in FAILURE_KINDS] + ["summary", "list_separator"]
    for lang in LANGUAGES:
        assert [key for key in keys if not CATALOGS[lang].get(key)] == [], lang
    # the page's list of failing cases labels each with its kind (verdict.js), from the site's own catalog
    from werkbank.catalog import catalogs

    for lang in LANGUAGES:
        assert [kind for kind in FAILURE_KINDS if not catalogs()[lang].get(f"kind_{kind}")] == [], lang


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
    """The headline names the first failing case by its label: "First failure: a special number at lr_max
    (1e308)." with one period, and a case that changes the whole call names no site."""
    from graders.engine.judge import case_texts

    label, _, _ = case_texts({"generated": {"group": "special-number", "site": "lr_max", "detail": "1e308"}}, "en")
    assert label == "a special number at lr_max (1e308)"
    whole, _, _ = case_texts({"generated": {"group": "scale", "site": "-", "detail": "2000 items"}}, "en")
    assert whole == "a large input (2000 items)"
    for lang in LANGUAGES:
        message = text("fail", lang, passed=1, total=2, case=label)
        assert ".." not in message and message.rstrip().endswith(".")


def test_a_float_in_a_message_is_written_as_the_learners_language_writes_it():
    """The time limit in Dutch reads "5,0 s" (a decimal comma, as the lessons' Dutch texts write numbers), in English
    "5.0 s"; whole numbers and texts are left as they are."""
    assert "(5,0 s)" in text("timeout", "nl", seconds=5.0)
    assert "(5.0 s)" in text("timeout", "en", seconds=5.0)
    assert "(12 s)" in text("timeout", "nl", seconds=12)
