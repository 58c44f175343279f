"""The grading engine inside the site's workers (Pyodide) gives the CLI's verdicts, and the learner worker never holds
the graders or the expected values.

The site's learner and grader workers are booted once for the module, on one page (``site_workers``): the grader loads
each lesson's grading bundle when a Check of it is first prepared, as on a lesson page; the sources run here are
references, declared mistakes and a snooping program, none of which changes its worker.
"""

from __future__ import annotations

import pytest

from werkbank.grading import grade_source
from werkbank.lessons import load_lesson

from tests.browser.helpers import (
    drive_workers,
    final,
    site_verdict,
)  # drives the site's learner and grader workers message by message
from tests.derived import BROWSER_PARITY_INPUTS, inputs_digest, lesson_inputs, python312_version, stamped, versions

pytestmark = pytest.mark.browser

SAME = ("status", "passed", "total", "failed_cases", "failure", "message", "lang", "seed")

# Whatever the learner can reach while their code runs in a Check, printed as one line.
SNOOP = """
import gc, os, sys, types
try:
    objects = gc.get_objects()
except RuntimeError:  # refused to code a Check runs (graders/engine/runner.py _install_guard)
    objects = None
mods = [o.__name__ for o in objects or () if isinstance(o, types.ModuleType)
        and o.__name__.startswith(("graders.claims", "graders.perplexity", "reference_solution"))]
keys = sum(1 for o in objects or () if isinstance(o, dict)
           and ("expected" in o or isinstance(o.get("explain"), dict)))
try:
    import graders.claims_abstention
    importable = True
except ImportError:
    importable = False
on_disk = [p for p in ("/lib/werkbank/graders/claims_abstention", "/graders/claims_abstention") if os.path.exists(p)]
print("SNOOP", objects is None, mods, keys, importable, on_disk, [m for m in sys.modules if m.startswith("graders")])
"""


def _check(page, server, repo_root, lesson_id, checkpoint, sources, lang):
    """Checks the way the page does them, one per source, on the module's workers (the sources here are references,
    declared mistakes, correct alternatives and a snoop that only reads, not hostile code): the grader prepares, the
    learner worker runs the plan, the grader judges. Returns the verdicts."""
    where = {"lessonId": lesson_id, "checkpoint": checkpoint, "lang": lang}
    (prepared,) = drive_workers(
        page,
        server,
        repo_root,
        [{"to": "grader", "message": {"type": "prepare", **where}, "finals": ["prepared", "failure"]}],
    )
    plan = final(prepared)["plan"]
    verdicts = []
    for source in sources:
        verdicts.append(site_verdict(page, server, repo_root, where, plan, source))
    return verdicts


@pytest.mark.parametrize(
    "lesson_id,checkpoint,lang", [("claims-abstention", "1", "nl"), ("perplexity-calibration", "3", "ar")]
)
def test_worker_verdicts_equal_cli_verdicts(request, browser, plain_server, repo_root, lesson_id, checkpoint, lang):
    """The site's workers give the command line's verdict in a lesson's other languages too (the verdict's texts and
    case labels are the language's): the reference and a declared mistake. (Every file of every checkpoint in its
    first language: test_one_verdict.py.) A stamped check, on the same inputs as that one."""
    lesson = load_lesson(lesson_id)

    def check():
        cp = lesson.checkpoint(checkpoint)
        sources = [cp.solution(), cp.mistakes()[0].source()]
        verdicts = _check(
            request.getfixturevalue("site_workers"), plain_server, repo_root, lesson_id, checkpoint, sources, lang
        )
        for source, ours in zip(sources, verdicts):
            cli = grade_source(lesson_id, checkpoint, source, lang=lang, shrink_failures=False)
            for key in SAME:
                assert ours[key] == cli[key], (key, ours[key], cli[key])
        assert verdicts[0]["status"] == "pass"
        assert verdicts[1]["status"] == "fail"
        return [f"{v['status']} {v['passed']}/{v['total']}" for v in verdicts]

    extra = {**versions(), "chromium": browser.version, "lang": lang, "python312": python312_version()}
    digest = inputs_digest([*BROWSER_PARITY_INPUTS, *lesson_inputs(lesson)], extra)
    stamped("browser-parity", f"{lesson_id} {checkpoint} {lang}", digest, check, helpers=(_check,), request=request)


def test_graders_and_expected_values_are_out_of_reach_during_a_check(site_workers, plain_server, repo_root):
    (verdict,) = _check(site_workers, plain_server, repo_root, "claims-abstention", "1", [SNOOP], "en")
    assert verdict["status"] == "fail"  # no claim_support: every case fails
    line = next(line for line in verdict["stdout"].splitlines() if line.startswith("SNOOP"))
    assert line == "SNOOP True [] 0 False [] []", line


# Correct solutions in other styles pass a browser Check: every alternative of every checkpoint gets werkbank grade's
# verdict from the site's workers in tests/browser/test_one_verdict.py, and that verdict is a pass
# (tests/test_checkpoints.py test_checkpoint_file).
