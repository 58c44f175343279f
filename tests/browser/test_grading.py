"""The grading engine inside the site's worker (Pyodide) gives the CLI's verdicts, and hides the graders meanwhile."""

from __future__ import annotations

import pytest

from werkbank.grading import grade_source
from werkbank.lessons import load_lesson

from test_runtime import drive_site_worker, final  # the site-worker driver of the runtime tests

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


def _check(lesson_id, checkpoint, source, seed, lang, run_id):
    return {"message": {"type": "check", "lessonId": lesson_id, "checkpoint": checkpoint, "source": source,
                        "lang": lang, "seed": seed, "runId": run_id}, "finals": ["verdict", "failure"]}


@pytest.mark.parametrize("lesson_id,checkpoint,lang", [("claims-abstention", "1", "nl"),
                                                       ("perplexity-calibration", "3", "ar")])
def test_worker_verdicts_equal_cli_verdicts(page, plain_server, repo_root, lesson_id, checkpoint, lang):
    cp = load_lesson(lesson_id).checkpoint(checkpoint)
    mistake = cp.mistakes()[0]
    sources = [cp.solution(), mistake.path.read_text(encoding="utf-8")]
    page.goto(plain_server.url + "build.json")
    boot, *checks = drive_site_worker(page, plain_server, repo_root, [
        {"message": {"type": "init", "runId": "boot-000000000010"}, "finals": ["ready", "failure"]},
        *[_check(lesson_id, checkpoint, source, 7, lang, f"check-00000000{i:04d}") for i, source in enumerate(sources)],
    ])
    assert final(boot)["type"] == "ready"
    for source, replies in zip(sources, checks):
        ours = final(replies)["verdict"]
        cli = grade_source(lesson_id, checkpoint, source, lang=lang, seed=7, mode="sample")
        for key in SAME:
            assert ours[key] == cli[key], (key, ours[key], cli[key])
    assert final(checks[0])["verdict"]["status"] == "pass"
    assert final(checks[1])["verdict"]["status"] == "fail"


def test_graders_and_expected_values_are_out_of_reach_during_a_check(page, plain_server, repo_root):
    page.goto(plain_server.url + "build.json")
    boot, check = drive_site_worker(page, plain_server, repo_root, [
        {"message": {"type": "init", "runId": "boot-000000000011"}, "finals": ["ready", "failure"]},
        _check("claims-abstention", "1", SNOOP, 0, "en", "check-000000009999"),
    ])
    assert final(boot)["type"] == "ready"
    verdict = final(check)["verdict"]
    assert verdict["status"] == "fail"  # no claim_support: every case fails
    line = next(line for line in verdict["stdout"].splitlines() if line.startswith("SNOOP"))
    assert line == "SNOOP [] 0 False [] []", line
