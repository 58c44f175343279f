"""A failing verdict's feedback on all cases (graders/engine/judge.py): the failing cases listed with their calls to
try one by one (bounded), "Expected" naming only the exception type when the case does not grade the message, and
"Expected"/"Got" written as Python a learner can paste. The browser shows the same verdict
(tests/browser/test_feedback.py); `werkbank grade --json` prints it."""

from __future__ import annotations

import ast
import json
import subprocess
import sys

import pytest

from graders.engine import judge as judge_module
from graders.engine.judge import FAILING_LIMIT, FAILING_SOURCE_BUDGET, FAILING_SOURCE_LIMIT
from werkbank.grading import grade_source

#: claims-abstention checkpoint 1 with the right core logic and no input checks: hundreds of invalid-input cases fail.
NO_CHECKS = """\
def claim_support(claims, facts):
    index = {}
    for f in facts:
        values, sources = index.setdefault((f["entity"], f["attribute"]), (set(), set()))
        values.add(f["value"])
        sources.add(f["source"])
    out = []
    for c in claims:
        found = index.get((c["entity"], c["attribute"]))
        if found is None:
            out.append({"status": "unknown", "sources": []})
            continue
        values, sources = found
        status = "conflict" if len(values) > 1 else "supported" if c["value"] in values else "contradicted"
        out.append({"status": status, "sources": sorted(sources)})
    return out
"""


@pytest.fixture(scope="module")
def verdict():
    return grade_source("claims-abstention", "1", NO_CHECKS, lang="en", shrink_failures=False)


def test_the_failing_cases_are_listed_in_order_with_their_kind_and_label(verdict):
    assert verdict["status"] == "fail"
    failing = verdict["failing"]
    assert len(verdict["failed_cases"]) > FAILING_LIMIT and len(failing) == FAILING_LIMIT
    assert [f["case"] for f in failing] == verdict["failed_cases"][:FAILING_LIMIT]
    assert failing[0]["case"] == verdict["failure"]["case"] and failing[0]["kind"] == verdict["failure"]["kind"]
    assert {f["kind"] for f in failing} == {"invalid_input"} == {s["kind"] for s in verdict["summary"]}
    assert all(f["label"] and f["label"] != f["case"] for f in failing if not f["generated"])


def test_the_listed_calls_are_runnable_python_within_their_bounds(verdict):
    failing = verdict["failing"]
    sources = [f["call_source"] for f in failing if f["call_source"] is not None]
    assert sources and sum(map(len, sources)) <= FAILING_SOURCE_BUDGET
    for source in sources:
        assert len(source) <= FAILING_SOURCE_LIMIT
        tree = ast.parse(source)
        assert isinstance(tree.body[-1], ast.Expr) and isinstance(tree.body[-1].value, ast.Call)
    # a listed call whose source is left out still says what was called
    assert all(f["call"].startswith("claim_support(") for f in failing)
    assert len(json.dumps(failing)) < FAILING_SOURCE_BUDGET + 40_000


def test_a_listed_call_given_to_the_reference_raises_what_expected_says(verdict):
    from werkbank.lessons import load_lesson

    namespace = {}
    exec(load_lesson("claims-abstention").checkpoint("1").solution(), namespace)  # noqa: S102 - our own solution
    tried = 0
    for entry in verdict["failing"][:10]:
        if entry["call_source"] is None:
            continue
        with pytest.raises(Exception) as raised:
            exec(compile(entry["call_source"], "case", "exec"), dict(namespace))  # noqa: S102
        assert type(raised.value).__name__ == entry["expected"]
        tried += 1
    assert tried


def test_expected_names_only_the_exception_type_when_the_message_is_not_graded(verdict):
    failure = verdict["failure"]
    assert failure["kind"] == "invalid_input" and failure["expected"] == "ValueError"
    key = {"expected": {"kind": "raise", "exc": "ValueError", "message": "claims must be a list"}}
    shown = judge_module._outcome_text(key["expected"], "en", message_graded=True)
    assert shown == "ValueError('claims must be a list')"  # a case that grades the wording shows it


def test_expected_and_got_are_python_a_learner_can_paste(verdict):
    failure = verdict["failure"]
    for text in (failure["actual"], *(f["expected"] for f in verdict["failing"])):
        ast.parse(text)  # a cut value ends in a comment saying how much was left out
    assert "# … " in failure["actual"]


def test_the_cli_prints_the_same_verdict_with_its_list(tmp_path, verdict):
    path = tmp_path / "learner.py"
    path.write_text(NO_CHECKS, encoding="utf-8")
    out = subprocess.run(
        [sys.executable, "-m", "werkbank.cli", "grade", "claims-abstention", "1", str(path), "--json"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    printed = json.loads(out.stdout)
    assert out.returncode != 0 and printed["status"] == "fail"
    for key in ("failed_cases", "summary", "summary_text", "failing"):
        assert printed[key] == verdict[key], key


@pytest.mark.parametrize("lang, word", [("en", "case"), ("nl", "geval"), ("ar", "الحالة")])
def test_a_runs_error_is_explained_without_speaking_of_a_case(lang, word):
    """The free editor's Run has no cases: input() (EOFError) and an exception of the learner's own are explained
    without one."""
    from graders.hosts import pyodide as bridge

    for source, exc in (
        ("name = input('name? ')\n", "EOFError"),
        ("class Oops(Exception):\n    pass\n\nraise Oops('x')\n", "Oops"),
    ):
        result = json.loads(bridge.run_encoded(source, json.dumps({"mode": "run", "lang": lang}).encode()))
        error = result["python_error"]
        assert error["exc"] == exc and error["explain"] and word not in error["explain"], error
    eof = json.loads(bridge.run_encoded("input()\n", json.dumps({"mode": "run", "lang": "en"}).encode()))[
        "python_error"
    ]
    assert "input()" in eof["explain"]


@pytest.mark.parametrize("lang", ["en", "nl", "ar"])
def test_every_group_of_generated_cases_has_its_texts_in_every_language(lang):
    """A failing verdict labels every listed case (judge.case_texts): a group without its texts would make judging
    fail."""
    from graders.engine.generate import GROUPS
    from graders.engine.i18n import CATALOGS

    for group in GROUPS:
        for key in (f"gen_{group}", f"gen_name_{group}", f"gen_hint_{group}"):
            assert key in CATALOGS[lang] or group == "label" and key == "gen_label", (lang, key)


def test_a_case_made_to_fail_across_calls_keeps_its_hint():
    """A cache keyed by the arguments' identity fails only where a caller refills the same lists: the verdict says
    that it went wrong across calls and gives the refill cases' own hint (what to do), not none."""
    from graders.engine.i18n import text
    from werkbank.lessons import load_lesson

    reference = next(cp for cp in load_lesson("perplexity-calibration").checkpoints if cp.id == "1").solution()
    cached = (
        reference
        + """
_computed = perplexity
_seen = {}


def perplexity(neg_log_probs, token_counts):
    key = (id(neg_log_probs), id(token_counts))
    if key not in _seen:  # the arguments are kept, so no id is reused
        _seen[key] = (neg_log_probs, token_counts, _computed(neg_log_probs, token_counts))
    return _seen[key][2]
"""
    )
    verdict = grade_source("perplexity-calibration", "1", cached, lang="en", shrink_failures=False)
    assert verdict["status"] == "fail", verdict["status"]
    first = verdict["failure"]
    assert first["kind"] == "repeated_calls" and first["case"].startswith("gen/refill/"), first
    assert first["hint"] == text("gen_hint_refill", "en"), first["hint"]


def test_a_repeated_call_of_a_case_that_failed_on_its_own_counts_as_that_case_does():
    """A wrong answer fails the calls made again after the others (the repeat family) as it fails their first
    calls: those count as wrong values, not as "went wrong only across calls", which would send the learner looking
    for state their code does not keep. Every failing across-calls case here has a failing base."""
    always_unknown = (
        "def claim_support(claims, facts):\n    return [{'status': 'unknown', 'sources': []} for c in claims]\n"
    )
    verdict = grade_source("claims-abstention", "1", always_unknown, lang="en", shrink_failures=False)
    failed = set(verdict["failed_cases"])
    repeats = [case for case in failed if case.startswith(("gen/repeat/", "gen/refill/"))]
    assert repeats, "no repeat or refill case failed: the test proves nothing"
    assert {s["kind"] for s in verdict["summary"]} == {"invalid_input", "wrong_value"}, verdict["summary_text"]
