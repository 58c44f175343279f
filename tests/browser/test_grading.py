"""The grading engine inside the site's workers (Pyodide) gives the CLI's verdicts, and the learner worker never holds
the graders or the expected values."""

from __future__ import annotations

import pytest

from werkbank.grading import grade_source
from werkbank.lessons import load_lesson

from tests.browser.helpers import (
    drive_workers,
    final,
)  # drives the site's learner and grader workers message by message

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


def _boot(page, server, repo_root, lesson_id):
    """Start the site's learner and grader workers on ``page`` for ``lesson_id`` (a Check needs both booted)."""
    lesson = {"lessonId": lesson_id}
    boot_l, boot_g = drive_workers(
        page,
        server,
        repo_root,
        [
            {"to": "learner", "message": {"type": "init", **lesson}, "finals": ["ready", "failure"]},
            {"to": "grader", "message": {"type": "init", **lesson}, "finals": ["ready", "failure"]},
        ],
    )
    assert final(boot_l)["type"] == "ready" and final(boot_g)["type"] == "ready"


def _check(page, server, repo_root, lesson_id, checkpoint, sources, lang, *, boot=True):
    """Checks the way the page does them, one per source, on workers booted once (``boot``: now; else they are
    already, for this lesson; the sources here are references, declared mistakes and correct alternatives, not
    hostile code): the grader prepares, the learner worker runs the plan, the grader judges. Returns the verdicts."""
    where = {"lessonId": lesson_id, "checkpoint": checkpoint, "lang": lang}
    if boot:
        _boot(page, server, repo_root, lesson_id)
    (prepared,) = drive_workers(
        page,
        server,
        repo_root,
        [{"to": "grader", "message": {"type": "prepare", **where}, "finals": ["prepared", "failure"]}],
    )
    plan = final(prepared)["plan"]
    verdicts = []
    for source in sources:
        (ran,) = drive_workers(
            page,
            server,
            repo_root,
            [
                {
                    "to": "learner",
                    "message": {"type": "run", "source": source, "plan": plan, "timeLimit": 30},
                    "finals": ["result", "failure"],
                }
            ],
        )
        (judged,) = drive_workers(
            page,
            server,
            repo_root,
            [
                {
                    "to": "grader",
                    "message": {"type": "judge", **where, "runJson": final(ran)["runJson"]},
                    "finals": ["verdict", "failure"],
                }
            ],
        )
        verdicts.append(final(judged)["verdict"])
    return verdicts


@pytest.mark.parametrize(
    "lesson_id,checkpoint,lang", [("claims-abstention", "1", "nl"), ("perplexity-calibration", "3", "ar")]
)
def test_worker_verdicts_equal_cli_verdicts(page, plain_server, repo_root, lesson_id, checkpoint, lang):
    cp = load_lesson(lesson_id).checkpoint(checkpoint)
    mistake = cp.mistakes()[0]
    sources = [cp.solution(), mistake.source()]
    page.goto(plain_server.url + "build.json")
    verdicts = _check(page, plain_server, repo_root, lesson_id, checkpoint, sources, lang)
    for source, ours in zip(sources, verdicts):
        cli = grade_source(lesson_id, checkpoint, source, lang=lang, shrink_failures=False)
        for key in SAME:
            assert ours[key] == cli[key], (key, ours[key], cli[key])
    assert verdicts[0]["status"] == "pass"
    assert verdicts[1]["status"] == "fail"


def test_graders_and_expected_values_are_out_of_reach_during_a_check(page, plain_server, repo_root):
    page.goto(plain_server.url + "build.json")
    (verdict,) = _check(page, plain_server, repo_root, "claims-abstention", "1", [SNOOP], "en")
    assert verdict["status"] == "fail"  # no claim_support: every case fails
    line = next(line for line in verdict["stdout"].splitlines() if line.startswith("SNOOP"))
    assert line == "SNOOP [] 0 False [] []", line


def _alternatives():
    from werkbank.lessons import load_all

    # One style per checkpoint here (a browser Check costs seconds), all of a lesson's on the same two workers; every
    # alternative of every checkpoint passes every generated case in Pyodide in the parity run of
    # tests/test_checkpoints.py.
    for lesson in load_all():
        found = [(cp.id, cp.alternatives()[-1].path) for cp in lesson.checkpoints if cp.alternatives()]
        if found:
            yield pytest.param(lesson.id, found, id=lesson.id)


@pytest.mark.parametrize("lesson_id,alternatives", list(_alternatives()))
def test_alternative_correct_solutions_pass_in_the_browser(page, plain_server, repo_root, lesson_id, alternatives):
    """Correct solutions in other styles pass a browser Check too (every generated case: werkbank check's Pyodide
    parity run)."""
    page.goto(plain_server.url + "build.json")
    lang = load_lesson(lesson_id).languages[0]
    for n, (checkpoint, path) in enumerate(alternatives):
        (verdict,) = _check(
            page, plain_server, repo_root, lesson_id, checkpoint, [path.read_text(encoding="utf-8")], lang, boot=n == 0
        )
        assert verdict["status"] == "pass", (path.name, verdict["failure"])
