"""AUTHORING.md's generated parts (werkbank/authoring_docs.py) are what the code makes: the spec reference and the
table of every generated family, which names exactly the families the generator makes, no more and no fewer."""

from graders.engine.generate import FAMILIES
from werkbank import authoring_docs


def test_authoring_md_holds_the_generated_blocks_as_the_code_makes_them():
    text = authoring_docs.AUTHORING.read_text(encoding="utf-8")
    assert authoring_docs.rendered(text) == text, (
        "AUTHORING.md's generated blocks are out of date: run .venv/bin/python -m werkbank.authoring_docs"
    )


def test_the_families_table_names_every_family_the_generator_makes_and_no_other():
    made = authoring_docs.observed_families()
    assert sorted(set(made) - set(FAMILIES)) == [], "families the generator makes that FAMILIES does not describe"
    assert sorted(set(FAMILIES) - set(made)) == [], "FAMILIES describes families nothing makes (or the sample lacks)"


def test_every_option_of_every_spec_is_explained_in_its_docstring():
    """A spec option the reference table shows without a word about it is an option an author must read code for."""
    import dataclasses
    import inspect

    for cls in authoring_docs.API:
        doc = inspect.getdoc(cls)
        for f in dataclasses.fields(cls):
            assert f"``{f.name}``" in doc, f"{cls.__name__}.{f.name} is not explained in its docstring"


def test_the_checks_py_example_of_authoring_md_works_as_written(tmp_path, monkeypatch):
    """The checks.py AUTHORING.md shows, copied as it is into a new lesson whose prose says what it quotes: check's
    text rules find nothing, and without it they name the numbers."""
    import re
    import sys
    import uuid

    import graders
    from werkbank.lesson_checks import text_problems
    from werkbank.lessons import load_lesson_folder
    from werkbank.scaffold import scaffold

    text = authoring_docs.AUTHORING.read_text(encoding="utf-8")
    section = text[text.index("### Numbers in the prose") :]
    example = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    passage = re.search(r'\("(.*?)", check_worked_example\)', example).group(1)
    lesson_id = f"t-{uuid.uuid4().hex[:8]}"
    monkeypatch.setattr(graders, "__path__", [*graders.__path__, str(tmp_path / "graders")])  # $WERKBANK_GRADERS
    try:
        scaffold(lesson_id, ["en"], exercises=tmp_path / "exercises", graders=tmp_path / "graders")
        folder = tmp_path / "exercises" / lesson_id
        prose = folder / "prose.en.md"
        prose.write_text(
            prose.read_text(encoding="utf-8").replace("```checkpoint 1", f"{passage}\n\n```checkpoint 1"),
            encoding="utf-8",
        )
        assert any("the numbers 1, 2, 6, 3 in" in p for p in text_problems(load_lesson_folder(folder)))
        (folder / "checks.py").write_text(example, encoding="utf-8")
        assert text_problems(load_lesson_folder(folder)) == []
    finally:
        for name in [n for n in sys.modules if n.startswith(f"graders.{lesson_id.replace('-', '_')}")]:
            del sys.modules[name]


def test_authoring_md_names_every_key_setting_and_field_an_author_writes():
    """Every lesson.toml key, grader setting, Case field, mistake header and checks.py name the code accepts is in
    AUTHORING.md, so a new one cannot be added without documenting it."""
    import dataclasses

    from graders.engine.case import Case
    from werkbank.check import GRADER_SETTINGS
    from werkbank.lessons import CHECKPOINT_KEYS, LESSON_KEYS, TEXT_KEYS

    text = authoring_docs.AUTHORING.read_text(encoding="utf-8")
    names = [
        *LESSON_KEYS,
        *TEXT_KEYS,
        *CHECKPOINT_KEYS,
        *GRADER_SETTINGS,
        *(f.name for f in dataclasses.fields(Case)),
        "mistake:",
        "expect-fail:",
        "expect-status:",
        "feedback.<lang>:",
        "PROSE_CLAIMS",
        "CHECKS",
        "PROSE_LANGUAGE",
        "[[equivalent]]",
        "mutant",
        "reason",
    ]
    # in the text's code spans, as a TOML table, or in an example
    forms = ("`{}`", "`{}", "{}=", "{} =", "# {}", "{}\n", "[{}.", "[[{}]]")
    missing = [name for name in names if not any(form.format(name) in text for form in forms)]
    assert missing == []
