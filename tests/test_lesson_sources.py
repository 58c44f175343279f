"""The lessons' texts are the project's own: none shares a run of seven words with the documents they come from
(werkbank/sources.py, which `werkbank check` runs too; the sources live in ../shared, and the test skips, with a
message, only where they are absent)."""

from __future__ import annotations

import pytest

from werkbank.lessons import load_all
from werkbank.sources import SHARED, shingles, source_problems, source_shingles

LESSONS = load_all()


def test_a_run_of_seven_words_is_found_where_it_is_copied_and_not_across_code():
    """The comparison itself: a copied sentence is found through case, punctuation and Arabic spelling changes;
    the same words split by inline code or a code block are not a run."""
    source = "Een hallucinatie is hier een feitelijke bewering die onjuist of ongegrond is."
    assert shingles("EEN Hallucinatie, is hier: een feitelijke bewering!") & shingles(source)
    assert not shingles("een hallucinatie is `hier` een feitelijke bewering") & shingles(source)
    assert not shingles("een hallucinatie is\n```\nhier\n```\neen feitelijke bewering") & shingles(source)
    arabic = "يُعامل التنفيذ حالات الحافة الصفرية للبرمجة ويؤكد أن احتمالات"
    assert shingles(arabic.replace("ُ", "").replace("أ", "ا")) == shingles(arabic)
    assert len(shingles("one two three four five six")) == 0 and len(shingles("1 2 3 4 5 6 7 8")) == 2


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.id)
def test_no_lesson_text_shares_seven_words_in_a_row_with_a_source(lesson):
    if source_shingles() is None:
        pytest.skip(
            f"the seeds and the upstream lesson are not in {SHARED} (seeds/*.txt, upstream/*/docs/*.md): "
            "nothing to compare the lesson texts with"
        )
    assert source_problems(lesson) == []


def test_a_copied_sentence_is_one_problem_line_naming_the_file(tmp_path, monkeypatch):
    """source_problems names the file and the source for every shared run (a lesson made in a temporary folder,
    compared with a source folder made for the test)."""
    from werkbank.lessons import load_lesson_folder
    from werkbank.scaffold import scaffold

    shared = tmp_path / "shared"
    (shared / "seeds").mkdir(parents=True)
    (shared / "upstream" / "x" / "docs").mkdir(parents=True)
    (shared / "seeds" / "a.txt").write_text("Nothing to see.", encoding="utf-8")
    sentence = "the arithmetic mean adds every value and divides by their count"
    (shared / "upstream" / "x" / "docs" / "lesson.md").write_text(sentence, encoding="utf-8")
    import uuid

    import graders

    lesson_id = f"t-{uuid.uuid4().hex[:8]}"
    monkeypatch.setattr(graders, "__path__", [*graders.__path__, str(tmp_path / "graders")])  # $WERKBANK_GRADERS
    try:
        scaffold(lesson_id, ["en"], exercises=tmp_path / "exercises", graders=tmp_path / "graders")
        folder = tmp_path / "exercises" / lesson_id
        prose = folder / "prose.en.md"
        prose.write_text(
            f"Remember: {sentence.capitalize()}!\n\n" + prose.read_text(encoding="utf-8"), encoding="utf-8"
        )
        problems = source_problems(load_lesson_folder(folder), shared)
    finally:
        import sys

        for name in [n for n in sys.modules if n.startswith(f"graders.{lesson_id.replace('-', '_')}")]:
            del sys.modules[name]
    assert len(problems) == 5 and all(
        p.startswith(f"{prose}: shares seven words in a row with upstream/x/docs/lesson.md: ") for p in problems
    ), problems
