"""The lesson retrieval-evaluation: its worked examples, the numbers its texts state, and its graders' rules.

- every worked example of the prose and the tasks comes out of the reference solutions with the stated value and type;
- every `python` block of the prose prints what its comment says; every `pycon` example in a task is reproduced;
- each grader has a case for every rule its task states, and the generated cases (the DOMAIN) are derived;
- the mistakes are patches with feedback in both languages;
- the figure "fusion-recall" fuses and counts exactly like the reference solutions, and checkpoint 3's verdict plot
  draws the case whose rankings the figure's PLOT_QUERY names (the figure in a real browser:
  tests/browser/test_figures.py).
"""

from __future__ import annotations

import contextlib
import importlib
import io
import json
import random
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from graders.engine.prepare import collect_cases, domains_of
from werkbank.grading import grade_source
from werkbank.lessons import load_lesson

LESSON = load_lesson("retrieval-evaluation")
FIGURE = Path(__file__).resolve().parent.parent / "web" / "src" / "figures" / "fusion_recall.js"


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
    namespace = {
        "recall_at_k": recall_at_k,
        "mean_reciprocal_rank": mean_reciprocal_rank,
        "reciprocal_rank_fusion": reciprocal_rank_fusion,
    }
    assert repr(eval(call, namespace)) == shown


RULES = {
    "1": {
        "no-relevant",
        "k-zero",
        "k-bool",
        "k-float",
        "duplicate-in-ranking",
        "duplicate-in-relevant",
        "blank-id",
        "tuple-ranking",
        "exact-ids",
        "unranked-relevant-counts",
        "k-past-the-end",
        "empty-ranking",
    },
    "2": {
        "no-queries",
        "length-mismatch",
        "empty-judgement",
        "duplicate-in-ranking",
        "flat-lists",
        "first-relevant-counts",
        "same-ranking-other-relevant",
        "places-count-from-one",
        "all-miss",
        "empty-ranking",
    },
    "3": {
        "default-k",
        "k-zero",
        "rounding-large-k",
        "rounding-larger-k",
        "tie-by-id",
        "three-way-tie",
        "no-rankings",
        "empty-ranking",
        "k-negative",
        "k-bool",
        "k-float",
        "duplicate-in-ranking",
        "blank-id",
        "tuple-ranking",
    },
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


# --- the figure and the verdict plot ---------------------------------------------------------------------------------


def _node(script: str):
    """Run an ES module snippet with node and return the JSON it prints."""
    done = subprocess.run(
        ["node", "--input-type=module", "-e", script], capture_output=True, text=True, timeout=60, check=True
    )
    return json.loads(done.stdout)


def test_figure_source_builds_dom_without_inner_html():
    source = FIGURE.read_text(encoding="utf-8")
    assert not re.search(
        r"\.(innerHTML|outerHTML)\b|insertAdjacentHTML|document\.write|createContextualFragment", source
    )
    assert "export function mount(element, lang)" in source


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_the_figure_fuses_and_counts_like_the_reference():
    """Random rankings (ids that sort differently as text and as numbers, equal scores, empty rankings) and every
    constant the figure offers: the figure's fusion and recall curve equal the reference solutions'."""
    rng = random.Random(4)
    pool = ["d1", "d2", "d10", "d11", "a", "B", "b", "x", "y", "z"]
    inputs = []
    for _ in range(60):
        rankings = [rng.sample(pool, rng.randint(0, len(pool))) for _ in range(rng.randint(1, 3))]
        relevant = rng.sample(pool, rng.randint(1, 4))
        inputs.append([rankings, relevant, rng.choice([0, 1, 10, 60])])
    got = _node(
        f"import {{ fuse, recallCurve, CONSTANTS }} from {json.dumps(FIGURE.as_uri())};\n"
        f"const inputs = {json.dumps(inputs)};\n"
        "console.log(JSON.stringify({ constants: CONSTANTS, results: inputs.map(([rankings, relevant, c]) => {\n"
        "  const fused = fuse(rankings, c);\n"
        "  return [fused, recallCurve(fused.map(([doc]) => doc), relevant, fused.length + 2)];\n"
        "}) }));\n"
    )
    assert got["constants"] == [0, 1, 10, 60]
    for (rankings, relevant, c), (fused, curve) in zip(inputs, got["results"]):
        expected = reciprocal_rank_fusion(rankings, c)
        assert [doc for doc, _ in fused] == [doc for doc, _ in expected], (rankings, c)
        assert [score for _, score in fused] == pytest.approx([score for _, score in expected], rel=1e-12)
        docs = [doc for doc, _ in expected]
        assert curve == pytest.approx([recall_at_k(docs, relevant, k) for k in range(1, len(docs) + 3)])


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_the_plot_case_is_the_example_the_figure_knows():
    """Checkpoint 3 draws the plot "fusion-recall" on its case "worked-example", whose rankings the figure's
    PLOT_QUERY repeats (the figure adds the relevance judgement the prose gives that example: a and d)."""
    checkpoint = LESSON.checkpoint("3")
    grader = importlib.import_module(checkpoint.grader)
    assert checkpoint.plot == "fusion-recall" and grader.PLOT_CASE == "worked-example"
    case = next(c for c in collect_cases(grader, 0) if c.id == grader.PLOT_CASE)
    figure = _node(
        f"import {{ PLOT_QUERY }} from {json.dumps(FIGURE.as_uri())};\nconsole.log(JSON.stringify(PLOT_QUERY));\n"
    )
    assert figure["rankings"] == case.args[0] and case.args[1:] in ((), (60,))
    assert figure["relevant"] == ["a", "d"]
    for lang in LESSON.languages:
        assert "`a`" in LESSON.prose(lang) and "`d`" in LESSON.prose(lang)


def test_the_verdict_plot_carries_both_fused_rankings():
    solution = LESSON.checkpoint("3").solution()
    plot = grade_source(LESSON.id, "3", solution)["plot"]
    expected = [[doc, score] for doc, score in reciprocal_rank_fusion([["a", "b", "c"], ["b", "c", "d"]])]
    assert plot == {"kind": "fusion-recall", "expected": expected, "actual": expected}
    starter = grade_source(LESSON.id, "3", LESSON.checkpoint("3").starter("en"))
    assert starter["plot"]["actual"] is None and starter["plot"]["expected"] == expected
