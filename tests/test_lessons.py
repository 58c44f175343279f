"""werkbank/lessons.py: the lesson.toml schema, strict translations, mistakes and alternatives as data."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from werkbank import lessons
from werkbank.lessons import (
    CHECKPOINT_KEYS,
    LESSON_KEYS,
    PIN,
    TEXT_KEYS,
    LessonError,
    lesson_alternatives,
    load_all,
    load_lesson,
    load_lesson_folder,
)

REPO = Path(__file__).resolve().parent.parent
DEMO = REPO / "exercises" / "_micropip-demo"


@pytest.fixture
def demo(tmp_path):
    folder = tmp_path / "demo"
    shutil.copytree(DEMO, folder)
    return folder


def _edit(folder: Path, old: str, new: str) -> None:
    toml = folder / "lesson.toml"
    text = toml.read_text(encoding="utf-8")
    assert old in text
    toml.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_pin_is_public_and_splits_name_and_version():
    assert PIN.match("mdurl==0.1.2").groups() == ("mdurl", "0.1.2")
    for bad in ("mdurl>=0.1", "mdurl", "mdurl==", "-x==1", "x==1 ; python_version>'3'"):
        assert PIN.match(bad) is None


def test_the_schema_names_every_key_the_lessons_use():
    for lesson in load_all():
        text = (lesson.folder / "lesson.toml").read_text(encoding="utf-8")
        for line in text.splitlines():
            key = line.split("=")[0].strip()
            if "=" in line and key.isidentifier() and not line.startswith(" "):
                assert key in {*LESSON_KEYS, *TEXT_KEYS, *CHECKPOINT_KEYS, *lesson.languages}, key


@pytest.mark.parametrize(
    "old,new,needle",
    [
        ("listed =", "lsited =", "unknown key 'lsited' in lesson.toml (did you mean 'listed'?)"),
        ("title =", "titel =", "unknown key 'titel' in [text.en] (did you mean 'title'?)"),
        ("entry =", "entyr =", "unknown key 'entyr' in checkpoint #1 (did you mean 'entry'?)"),
        ("order = ", "order = 'first' #", "'order' must be a whole number, not str"),
        ('languages = ["en"]', 'languages = ["eng"]', "language 'eng' is not one of nl, en, ar (did you mean 'en'?)"),
        (
            'folder = "01-decode-link"',
            'folder = "01-decode-lnk"',
            "folder '01-decode-lnk' does not exist (did you mean '01-decode-link'?)",
        ),
        ('requirements = ["mdurl==0.1.2"]', 'requirements = ["mdurl>=0.1"]', "must be pinned as name==version"),
        (
            'en = "Decode a link"',
            'en = "Decode a link"\nnl = "Een link ontleden"',
            "a title in 'nl', which is not one of the lesson's languages (en)",
        ),
    ],
)
def test_lesson_toml_mistakes_are_one_line_with_file_and_line(demo, old, new, needle):
    _edit(demo, old, new)
    with pytest.raises(LessonError) as error:
        load_lesson_folder(demo)
    message = str(error.value)
    assert needle in message and "\n" not in message
    assert message.split(": ")[0].endswith(tuple(f"lesson.toml:{n}" for n in range(1, 60))), message


def test_a_text_table_for_a_language_the_lesson_lacks_is_named(demo):
    _edit(demo, "[text.en]", "[text.nl]\ntitle = 'x'\nsummary = 'y'\n\n[text.en]")
    with pytest.raises(LessonError, match=r"\[text\.nl\] is not one of the lesson's languages"):
        load_lesson_folder(demo)


def test_no_text_falls_back_to_another_language(demo):
    cp = load_lesson_folder(demo).checkpoints[0]
    assert cp.task("en")
    with pytest.raises(LessonError, match=r"task\.nl\.md: missing"):
        cp.task("nl")
    (demo / "01-decode-link" / "solution.py").unlink()
    with pytest.raises(LessonError, match=r"solution\.py: missing: write the reference solution"):
        cp.solution()


def test_unknown_lesson_ids_get_did_you_mean():
    with pytest.raises(LessonError, match="did you mean 'claims-abstention'"):
        load_lesson("claims-abstention2")


def test_alternatives_are_found_per_checkpoint_in_both_naming_styles():
    claims = {alt.path.name: alt.checkpoint_id for alt in lesson_alternatives("claims-abstention")}
    assert claims["alt_01_counter.py"] == "1" and claims["alt_03_searchsorted.py"] == "3"
    perplexity = {alt.path.name: alt.checkpoint_id for alt in lesson_alternatives("perplexity-calibration")}
    assert perplexity["alt_cp2_loops.py"] == "2"
    cp = load_lesson("claims-abstention").checkpoint("2")
    assert sorted(a.path.name for a in cp.alternatives()) == ["alt_02_counter.py", "alt_02_loops.py", "alt_02_numpy.py"]
    assert lessons.TESTS_DATA == REPO / "tests" / "data"
