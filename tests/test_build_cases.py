"""One verdict, on the command line's side: the cases are a fact of the build, not of the process that makes them.

`werkbank build` prepares every checkpoint's cases and expected outcomes once (grading/<lesson>.<lang>.checks); a
Check in the browser runs exactly those. `werkbank grade` prepares them again in its own process. Both must be the
same cases in the same order with the same expected outcomes, whatever the process (its hash seed changes the order
of sets and dicts of strings), so the browser and the command line give one verdict. `werkbank check` proves the
same of each lesson it checks (werkbank.check.process_problems), with the same words for the first case that differs.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import subprocess
import sys

import pytest

from graders.engine.settings import CASE_SEED
from tests.derived import GRADING_INPUTS, inputs_digest, lesson_inputs, stamped, versions
from werkbank.build import checks_name
from werkbank.check import case_difference
from werkbank.lessons import load_all

LESSONS = [lesson for lesson in load_all() if lesson.listed]

_PREPARE = """
import json, sys
from werkbank.grading import prepare_checkpoint
from werkbank.lessons import load_lesson
lesson = load_lesson(sys.argv[1])
out = {cp.id: prepare_checkpoint(cp, lang=sys.argv[2]) for cp in lesson.checkpoints}
sys.stdout.write(json.dumps(out))
"""


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.id)
def test_the_build_ships_the_cases_werkbank_grade_prepares_in_any_process(lesson, dist, repo_root, request):
    """A stamped check (tests/derived.py): run again when the shipped file, the lesson or the engine changes."""
    lang = lesson.languages[0]
    data = (dist / "grading" / checks_name(lesson.id, lang)).read_bytes()

    def check():
        shipped = json.loads(gzip.decompress(data))
        assert shipped["seed"] == CASE_SEED and shipped["lang"] == lang
        env = dict(os.environ, PYTHONHASHSEED="12345")
        made = subprocess.run(
            [sys.executable, "-c", _PREPARE, lesson.id, lang],
            capture_output=True,
            text=True,
            cwd=repo_root,
            env=env,
            check=True,
        )
        mine = json.loads(made.stdout)
        assert sorted(shipped["checks"]) == sorted(mine) == [cp.id for cp in lesson.checkpoints]
        for cp, prepared in mine.items():
            built = shipped["checks"][cp]
            difference = case_difference(json.loads(built["plan"])["cases"], prepared["plan"]["cases"])
            assert difference is None, f"checkpoint {cp}: the cases depend on the process preparing them ({difference})"
            assert json.loads(built["plan"]) == prepared["plan"], cp
            assert json.loads(built["key"]) == prepared["key"], cp
            assert built["time_limit"] == prepared["key"]["time_limit"]
        return {"checkpoints": len(mine)}

    inputs = [*GRADING_INPUTS, "werkbank/build.py", "werkbank/check.py", *lesson_inputs(lesson)]
    extra = {**versions(), "shipped": hashlib.sha256(data).hexdigest()}
    stamped("build-cases", lesson.id, inputs_digest(inputs, extra), check, request=request)
