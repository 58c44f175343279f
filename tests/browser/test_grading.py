"""The grading engine inside the site's workers (Pyodide) gives the CLI's verdicts, and the learner worker never holds
the graders or the expected values."""

from __future__ import annotations

import pytest

from werkbank.grading import grade_source
from werkbank.lessons import load_lesson

from tests.browser.helpers import drive_workers, final  # drives the site's learner and grader workers message by message

pytestmark = pytest.mark.browser

SAME = ("status", "passed", "total", "failed_cases", "failure", "message", "lang", "seed")

# Whatever the learner can reach while their code runs in a Check, printed as one line.
SNOOP = """
import gc, os, sys, types
mods = [o.__name__ for o in gc.get_objects() if isinstance(o, types.ModuleType)
        and o.__name__.startswith(("graders.claims", "graders.perplexity", "reference_solution"))]
keys = sum(1 for o in gc.get_objects() if isinstance(o, dict)
           and ("expected" in o or isinstance(o.get("explain"), dict)))
try:
    import graders.claims_abstention
    importable = True
except ImportError:
    importable = False
on_disk = [p for p in ("/lib/werkbank/graders/claims_abstention", "/graders/claims_abstention") if os.path.exists(p)]
print("SNOOP", mods, keys, importable, on_disk, [m for m in sys.modules if m.startswith("graders")])
"""


def _check(page, server, repo_root, lesson_id, checkpoint, source, seed, lang):
    """A Check the way the page does it: the grader prepares, a learner worker runs the plan, the grader judges."""
    where = {"lessonId": lesson_id, "checkpoint": checkpoint, "seed": seed, "lang": lang}
    lesson = {"lessonId": lesson_id}
    boot_l, boot_g, prepared = drive_workers(page, server, repo_root, [
        {"to": "learner", "message": {"type": "init", **lesson}, "finals": ["ready", "failure"]},
        {"to": "grader", "message": {"type": "init", **lesson}, "finals": ["ready", "failure"]},
        {"to": "grader", "message": {"type": "prepare", **where}, "finals": ["prepared", "failure"]},
    ])
    assert final(boot_l)["type"] == "ready" and final(boot_g)["type"] == "ready"
    plan = final(prepared)["plan"]
    ran, = drive_workers(page, server, repo_root, [
        {"to": "learner", "message": {"type": "run", "source": source, "plan": plan, "timeLimit": 30},
         "finals": ["result", "failure"]}])
    judged, = drive_workers(page, server, repo_root, [
        {"to": "grader", "message": {"type": "judge", **where, "runJson": final(ran)["runJson"]},
         "finals": ["verdict", "failure"]}])
    return final(judged)["verdict"]


@pytest.mark.parametrize("lesson_id,checkpoint,lang", [("claims-abstention", "1", "nl"),
                                                       ("perplexity-calibration", "3", "ar")])
def test_worker_verdicts_equal_cli_verdicts(page, plain_server, repo_root, lesson_id, checkpoint, lang):
    cp = load_lesson(lesson_id).checkpoint(checkpoint)
    mistake = cp.mistakes()[0]
    sources = [cp.solution(), mistake.source()]
    page.goto(plain_server.url + "build.json")
    verdicts = [_check(page, plain_server, repo_root, lesson_id, checkpoint, source, 7, lang) for source in sources]
    for source, ours in zip(sources, verdicts):
        cli = grade_source(lesson_id, checkpoint, source, lang=lang, seed=7, mode="sample", shrink_failures=False)
        for key in SAME:
            assert ours[key] == cli[key], (key, ours[key], cli[key])
    assert verdicts[0]["status"] == "pass"
    assert verdicts[1]["status"] == "fail"


def test_graders_and_expected_values_are_out_of_reach_during_a_check(page, plain_server, repo_root):
    page.goto(plain_server.url + "build.json")
    verdict = _check(page, plain_server, repo_root, "claims-abstention", "1", SNOOP, 0, "en")
    assert verdict["status"] == "fail"  # no claim_support: every case fails
    line = next(line for line in verdict["stdout"].splitlines() if line.startswith("SNOOP"))
    assert line == "SNOOP [] 0 False [] []", line


def _alternatives():
    from werkbank.lessons import load_all

    # One style per checkpoint here (a browser Check costs seconds); every alternative of every checkpoint passes
    # every generated case in Pyodide in the parity run of tests/test_checkpoints.py.
    for lesson in load_all():
        for checkpoint in lesson.checkpoints:
            found = checkpoint.alternatives()
            if found:
                yield pytest.param(lesson.id, checkpoint.id, found[-1].path, id=found[-1].path.stem)


@pytest.mark.parametrize("lesson_id,checkpoint,path", list(_alternatives()))
def test_alternative_correct_solutions_pass_in_the_browser(page, plain_server, repo_root, lesson_id, checkpoint, path):
    """Correct solutions in other styles pass a browser Check too (every generated case: werkbank check's Pyodide
    parity run)."""
    page.goto(plain_server.url + "build.json")
    lang = load_lesson(lesson_id).languages[0]
    verdict = _check(page, plain_server, repo_root, lesson_id, checkpoint, path.read_text(encoding="utf-8"), 3, lang)
    assert verdict["status"] == "pass", verdict["failure"]
