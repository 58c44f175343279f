"""The lesson retrieval-evaluation: its worked examples, the numbers its texts state, and its graders' rules.

- every worked example of the prose and the tasks comes out of the reference solutions with the stated value and type;
- every `python` block of the prose prints what its comment says; every `pycon` example in a task is reproduced;
- each grader has a case for every rule its task states, and the generated cases (the DOMAIN) are derived;
- the mistakes are patches with feedback in both languages.
"""

from __future__ import annotations

import contextlib
import importlib
import io
import re

import pytest

from graders.engine.prepare import collect_cases, domains_of
from werkbank.lessons import load_lesson

LESSON = load_lesson("retrieval-evaluation")


def reference(checkpoint_id: str, name: str):
    namespace: dict = {}
    exec(compile(LESSON.checkpoint(checkpoint_id).solution(), "solution.py", "exec"), namespace)
    return namespace[name]


recall_at_k = reference("1", "recall_at_k")
mean_reciprocal_rank = reference("2", "mean_reciprocal_rank")
reciprocal_rank_fusion = reference("3", "reciprocal_rank_fusion")


def test_recall_examples_of_the_prose():
    ranking, relevant = ["d3", "d1", "d7", "d2", "d9"], ["d1", "d2", "d4"]
    assert recall_at_k(ranking, relevant, 3) == pytest.approx(1 / 3)
    assert recall_at_k(ranking, relevant, 5) == pytest.approx(2 / 3)
    assert type(recall_at_k(ranking, ["d3"], 1)) is float and recall_at_k(ranking, ["d3"], 1) == 1.0


def test_mrr_example_of_the_prose_and_the_flattering_mistake():
    rankings = [["d3", "d1", "d7"], ["d2", "d5"], ["d4", "d6", "d8"]]
    relevant = [["d1"], ["d2", "d9"], ["d0"]]
    assert mean_reciprocal_rank(rankings, relevant) == 0.5
    assert (1 / 2 + 1) / 2 == 0.75  # what leaving the query without a hit out would report, as the prose says


def test_rrf_example_of_the_prose():
    fused = reciprocal_rank_fusion([["a", "b", "c"], ["b", "c", "d"]])
    assert [doc for doc, _ in fused] == ["b", "c", "a", "d"]
    assert dict(fused)["b"] == pytest.approx(1 / 62 + 1 / 61) and dict(fused)["d"] == pytest.approx(1 / 63)
    assert all(type(item) is tuple for item in fused)
    assert reciprocal_rank_fusion([["y", "x"], ["x", "y"]])[0][0] == "x"


@pytest.mark.parametrize("lang", ["en", "nl"])
def test_python_blocks_of_the_prose_print_what_they_say(lang):
    for block in re.findall(r"```python\n(.*?)```", LESSON.prose(lang), re.S):
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            exec(block, {})
        said = re.findall(r"#\s*(\S+)\s*$", block, re.M)
        assert out.getvalue().split() == said


@pytest.mark.parametrize("checkpoint_id", ["1", "2", "3"])
@pytest.mark.parametrize("lang", ["en", "nl"])
def test_pycon_examples_of_the_tasks(checkpoint_id, lang):
    task = LESSON.checkpoint(checkpoint_id).task(lang)
    call, shown = re.search(r"```pycon\n>>> (.*?)\n(.*?)\n```", task, re.S).groups()
    namespace = {"recall_at_k": recall_at_k, "mean_reciprocal_rank": mean_reciprocal_rank,
                 "reciprocal_rank_fusion": reciprocal_rank_fusion}
    assert repr(eval(call, namespace)) == shown


RULES = {
    "1": {"no-relevant", "k-zero", "k-bool", "k-float", "duplicate-in-ranking", "duplicate-in-relevant", "blank-id",
          "tuple-ranking", "exact-ids", "unranked-relevant-counts", "k-past-the-end", "empty-ranking"},
    "2": {"no-queries", "length-mismatch", "empty-judgement", "duplicate-in-ranking", "flat-lists",
          "first-relevant-counts", "places-count-from-one", "all-miss", "empty-ranking"},
    "3": {"default-k", "k-zero", "rounding-large-k", "rounding-larger-k", "tie-by-id", "three-way-tie", "no-rankings", "empty-ranking", "k-negative", "k-bool",
          "k-float", "duplicate-in-ranking", "blank-id", "tuple-ranking"},
}


@pytest.mark.parametrize("checkpoint_id", ["1", "2", "3"])
def test_every_rule_of_the_task_has_a_case_and_a_domain(checkpoint_id):
    grader = importlib.import_module(LESSON.checkpoint(checkpoint_id).grader)
    ids = {case.id for case in collect_cases(grader, 0)}
    assert RULES[checkpoint_id] <= ids
    assert [d.call for d in domains_of(grader)] == list(LESSON.checkpoint(checkpoint_id).entry)
    assert grader.RANDOM_CASES > 0


def test_mistakes_are_patches_with_feedback_in_both_languages():
    for cp in LESSON.checkpoints:
        mistakes = cp.mistakes()
        assert len(mistakes) >= 8
        assert all(m.is_patch and set(m.feedback) == {"en", "nl"} for m in mistakes)
        assert len(cp.mistake_feedback()) == len(mistakes)
