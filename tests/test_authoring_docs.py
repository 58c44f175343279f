"""AUTHORING.md's generated parts (werkbank/authoring_docs.py) are what the code makes: the spec reference and the
table of every generated family, which names exactly the families the generator makes, no more and no fewer."""

from graders.engine.generate import FAMILIES
from werkbank import authoring_docs


def test_authoring_md_holds_the_generated_blocks_as_the_code_makes_them():
    text = authoring_docs.AUTHORING.read_text(encoding="utf-8")
    assert authoring_docs.rendered(text) == text, \
        "AUTHORING.md's generated blocks are out of date: run .venv/bin/python -m werkbank.authoring_docs"


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
