"""One verdict: a Check in the browser runs every case `werkbank grade` runs, the same ones every time.

The cases are fixed by the build (graders/engine/settings.py CASE_SEED, werkbank/build.py prepared_checks), and every
Check runs on a pristine learner worker, so the same code gets the same verdict and the same counts on every Check, in
every tab, after a reload and on the command line.

Every checkpoint's right, wrong and borderline solutions, each Checked ten times in a row in a page and once after a
reload, and every file of every checkpoint getting the command line's verdict from the site's workers, are stamped
checks (tests/derived.py): minutes of Pyodide whose answer changes only with the files and versions they hash. Every
run of the suite also repeats a shorter series on one checkpoint, whatever the stamps say.
"""

from __future__ import annotations

import re

import pytest

from graders.engine.judge import judge
from graders.hosts import cpython
from werkbank.check import items
from werkbank.grading import grade_source, prepared_checkpoint
from werkbank.lessons import load_all, load_lesson

from tests.derived import BROWSER_PARITY_INPUTS, inputs_digest, lesson_inputs, python312_version, stamped, versions

from tests.browser.helpers import (
    click,
    drive_workers,
    final,
    site_verdict,
    open_lesson,
    replace_code,
    section,  # noqa: F401
    wait_ready,
    wait_verdict,
)

pytestmark = pytest.mark.browser

LESSONS = [lesson for lesson in load_all() if lesson.listed]


def _borderline(checkpoint, lang):
    """The declared mistake that fails the fewest cases: a wrong solution that is nearly right."""
    prepared = prepared_checkpoint(checkpoint, lang=lang)
    fewest = None
    for mistake in checkpoint.mistakes():
        verdict = judge(prepared, cpython.run(mistake.source(), prepared["plan"]), lang)
        if verdict["status"] == "fail" and (fewest is None or len(verdict["failed_cases"]) < fewest[0]):
            fewest = (len(verdict["failed_cases"]), mistake.source(), verdict)
    return fewest[1], fewest[2]


#: Unicode's direction isolates (LRI, RLI, FSI, PDI), which the command line's texts carry around embedded parts.
_ISOLATES = re.compile("[\u2066-\u2069]")

#: How many times in a row each source is Checked in one tab (then once more after a reload).
CHECKS_IN_A_ROW = 10


def _same_verdicts(page, server, lesson, cp, lang, checks=CHECKS_IN_A_ROW):
    """A right (the reference), a wrong (the starter) and a borderline (:func:`_borderline`) solution of checkpoint
    ``cp``, each Checked ``checks`` times in a row in one tab (each pressed as soon as the previous verdict is
    there) and once more after a reload: one verdict, one count, one first failing case, the ones `werkbank grade`
    gives. Returns what each got. (A sample drawn per Check, as the site once did, moves the borderline one's count.)"""
    checkpoint = lesson.checkpoint(cp)
    borderline, cli_borderline = _borderline(checkpoint, lang)
    sources = {
        "right": (checkpoint.solution(), grade_source(lesson.id, cp, checkpoint.solution(), lang=lang)),
        "wrong": (checkpoint.starter(lang), grade_source(lesson.id, cp, checkpoint.starter(lang), lang=lang)),
        "borderline": (borderline, grade_source(lesson.id, cp, borderline, lang=lang)),
    }
    assert cli_borderline["passed"] > cli_borderline["total"] * 0.8  # nearly right
    open_lesson(page, server, lang, lesson.id)
    seen = {name: [] for name in sources}
    for name, (source, _) in sources.items():
        replace_code(page, cp, source)
        for _ in range(checks):
            click(page, cp, "check")
            seen[name].append(wait_verdict(page, cp))
    page.reload()  # a new page: new workers, the Check prepared again
    wait_ready(page)
    for name, (source, _) in sources.items():
        replace_code(page, cp, source)
        click(page, cp, "check")
        seen[name].append(wait_verdict(page, cp))
    found = {}
    for name, (_, cli) in sources.items():
        assert len(set(seen[name])) == 1, (name, seen[name])
        state, text = seen[name][0]
        assert state == cli["status"], (name, state, cli["status"])
        assert f"{cli['passed']}" in text and f"{cli['total']}" in text, (name, text, cli["passed"], cli["total"])
        if cli["failure"]:
            label = _ISOLATES.sub("", cli["failure"]["case_label"])  # the page isolates with elements instead
            assert label in _ISOLATES.sub("", text), (name, text, label)
        found[name] = f"{len(seen[name])} x {state} {cli['passed']}/{cli['total']}"
    return found


#: The checkpoint every run of the suite Checks over and over, whatever the stamps say, and how many times in a row.
ALWAYS = ("claims-abstention", "2")
ALWAYS_IN_A_ROW = 3


def test_the_same_code_gets_the_same_verdict_on_every_check_and_after_a_reload(page, plain_server):
    """:func:`_same_verdicts` on checkpoint 2 of the claims lesson, three Checks in a row and one after a reload, on
    every run (ten in a row on every checkpoint: a stamped check, below)."""
    _same_verdicts(page, plain_server, load_lesson(ALWAYS[0]), ALWAYS[1], "en", checks=ALWAYS_IN_A_ROW)


def _checkpoints():
    for lesson in LESSONS:
        for checkpoint in lesson.checkpoints:
            yield pytest.param(lesson, checkpoint, id=f"{lesson.id}-{checkpoint.id}")


@pytest.mark.parametrize("lesson,checkpoint", list(_checkpoints()))
def test_the_browser_gives_the_verdict_werkbank_grade_gives_for_every_file(
    request, browser, plain_server, repo_root, lesson, checkpoint
):
    """Every reference, alternative, starter and declared mistake of the checkpoint, graded by the site's own workers
    (the build's plan, the learner worker's run, the grader worker's judge) and by the command line's engine in
    CPython: the same status, the same counts and the same failing cases. (The files here are the authors' own, not
    hostile code, so one learner worker runs them all, booted once for the module: ``site_workers``.)
    A stamped check: run again when its inputs change."""
    lang = lesson.languages[0]

    def check():
        page = request.getfixturevalue("site_workers")  # booted only when a checkpoint is graded here
        where = {"lessonId": lesson.id, "checkpoint": checkpoint.id, "lang": lang}
        (prepared,) = drive_workers(
            page,
            plain_server,
            repo_root,
            [{"to": "grader", "message": {"type": "prepare", **where}, "finals": ["prepared", "failure"]}],
        )
        plan = final(prepared)["plan"]
        ours = prepared_checkpoint(checkpoint, lang=lang)
        files = [item for item in items([lesson]) if item.checkpoint.id == checkpoint.id]
        assert {item.kind for item in files} >= {"reference", "starter", "mistake"}
        found = {}
        for item in files:
            source = item.source()
            cli = judge(ours, cpython.run(source, ours["plan"]), lang)
            browser_verdict = site_verdict(page, plain_server, repo_root, where, plan, source)
            for key in ("status", "passed", "total", "failed_cases"):
                assert browser_verdict[key] == cli[key], (item.id, key, browser_verdict[key], cli[key])
            found[item.id] = f"{cli['status']} {cli['passed']}/{cli['total']}"
        return found

    extra = {**versions(), "chromium": browser.version, "lang": lang, "python312": python312_version()}
    digest = inputs_digest([*BROWSER_PARITY_INPUTS, *lesson_inputs(lesson)], extra)
    stamped("browser-parity", f"{lesson.id} {checkpoint.id}", digest, check, request=request)


@pytest.mark.parametrize("lesson,checkpoint", list(_checkpoints()))
def test_every_checkpoint_gives_the_same_verdict_on_every_check(request, browser, plain_server, lesson, checkpoint):
    """:func:`_same_verdicts` on each checkpoint, CHECKS_IN_A_ROW times in a row, in its lesson's first language.
    A stamped check: run again when its inputs change (everything a Check in the page depends on)."""
    lang = lesson.languages[0]

    def check():
        return _same_verdicts(request.getfixturevalue("page"), plain_server, lesson, checkpoint.id, lang)

    extra = {**versions(), "chromium": browser.version, "lang": lang, "python312": python312_version()}
    inputs = [*BROWSER_PARITY_INPUTS, "werkbank/site.py", "werkbank/templates/*", "werkbank/catalog/*"]
    digest = inputs_digest([*inputs, *lesson_inputs(lesson)], extra)
    stamped(
        "same-verdict",
        f"{lesson.id} {checkpoint.id}",
        digest,
        check,
        helpers=(_same_verdicts, _borderline),
        request=request,
    )
