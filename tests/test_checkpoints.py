"""Every checkpoint of every lesson: the reference passes, the starter fails, each declared mistake fails as declared.

The same proof as `werkbank check` (werkbank/check.py), one test per file so a failure names the file.
"""

import pytest

from werkbank.grading import grade_source
from werkbank.check import judge_job
from werkbank.lessons import load_all


def _items():
    for lesson in load_all():
        for checkpoint in lesson.checkpoints:
            yield pytest.param(lesson, checkpoint, "reference", checkpoint.solution(), None,
                               id=f"{lesson.id}-{checkpoint.id}-reference")
            for lang in lesson.languages:
                yield pytest.param(lesson, checkpoint, "starter", checkpoint.starter(lang), None,
                                   id=f"{lesson.id}-{checkpoint.id}-starter-{lang}")
            for mistake in checkpoint.mistakes():
                yield pytest.param(lesson, checkpoint, "mistake", mistake.path.read_text(encoding="utf-8"), mistake,
                                   id=f"{lesson.id}-{checkpoint.id}-{mistake.path.stem}")


@pytest.mark.parametrize("lesson,checkpoint,kind,source,mistake", list(_items()))
def test_checkpoint_file(lesson, checkpoint, kind, source, mistake):
    verdict = grade_source(lesson.id, checkpoint.id, source, seed=0, shrink_failures=False)
    assert judge_job(kind, verdict, mistake) is None, verdict


def test_every_listed_lesson_has_three_checkpoints_and_enough_mistakes():
    for lesson in load_all():
        if not lesson.listed:
            continue
        assert [cp.id for cp in lesson.checkpoints] == ["1", "2", "3"]
        for checkpoint in lesson.checkpoints:
            assert len(checkpoint.mistakes()) >= 8, (lesson.id, checkpoint.id)


@pytest.mark.parametrize("seed", [1, 2])
def test_references_pass_with_other_seeds(seed):
    for lesson in load_all():
        for checkpoint in lesson.checkpoints:
            verdict = grade_source(lesson.id, checkpoint.id, checkpoint.solution(), seed=seed)
            assert verdict["status"] == "pass", (lesson.id, checkpoint.id, verdict)
