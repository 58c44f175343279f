"""The lesson claims-abstention: its reference solutions, hidden graders, prose examples and risk-coverage figure.

- the reference solutions reproduce every worked example of the lesson with its exact numbers and types;
- the hidden graders hold a case for both sides of every limit and every rule the tasks state, with explanations
  in nl, en and ar, and seeded random cases that a solution hard-coding the visible examples cannot pass;
- alternative correct solutions in other styles (Counter, nested dicts, numpy, pure Python, numpy.float64 rates)
  pass the engine;
- every ``python`` block in the prose and task texts prints what its comments say;
- the figure computes what the lesson's table says (5 answered / 100 % / 20 % at threshold 0, 4 / 80 % / 25 % at .5,
  2 / 40 % / 0 % at .7) and "no risk defined" when nothing is answered, and is driven by the keyboard in a real
  browser.
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
import sys
from pathlib import Path

import numpy as np
import pytest

from werkbank.grading import grade_source
from graders.engine.prepare import prepare
from werkbank.lessons import load_lesson
from werkbank.markdown import render

LESSON_ID = "claims-abstention"
REPO = Path(__file__).resolve().parent.parent
ALTERNATIVES = REPO / "tests" / "data" / "claims-abstention"
FIGURE = REPO / "web" / "src" / "figures" / "risk_coverage.js"
LESSON = load_lesson(LESSON_ID)
ENTRY = {checkpoint.id: checkpoint.entry[0] for checkpoint in LESSON.checkpoints}


def reference(checkpoint_id: str):
    """The reference function of a checkpoint, loaded from its solution.py."""
    namespace: dict = {}
    checkpoint = LESSON.checkpoint(checkpoint_id)
    exec(compile(checkpoint.solution(), str(checkpoint.solution_path), "exec"), namespace)
    return namespace[ENTRY[checkpoint_id]]


def grader(checkpoint_id: str):
    """The hidden grader module of a checkpoint."""
    return importlib.import_module(LESSON.checkpoint(checkpoint_id).grader)


def cases(checkpoint_id: str, seed: int = 0) -> dict:
    """Curated plus random cases of a checkpoint, by id."""
    module = grader(checkpoint_id)
    found = list(module.curated("nl")) + list(module.random_cases(random.Random(seed), module.RANDOM_CASES))
    return {case.id: case for case in found}


def outcome(checkpoint_id: str, case_id: str):
    """What the reference does on a curated case: ("value", result) or ("raise", exception class)."""
    case = cases(checkpoint_id)[case_id]
    try:
        return "value", reference(checkpoint_id)(*case.args, **case.kwargs)
    except Exception as error:  # noqa: BLE001 - the class is the outcome
        return "raise", type(error)


# --- the lesson's worked examples -------------------------------------------------------------------------------

LAMP = {"entity": "lamp", "attribute": "kleur", "value": "blauw"}
FIVE_SCORES, FIVE_CORRECT = [0.3, 0.5, 0.6, 0.8, 0.9], [True, True, False, True, True]  # the prose's threshold table


def test_claim_support_seed_examples():
    claim_support = reference("1")
    red = {**LAMP, "value": "rood"}
    weight = {**LAMP, "attribute": "gewicht"}
    facts = [{**LAMP, "source": "s1"}]
    assert claim_support([LAMP, red, weight], facts) == [
        {"status": "supported", "sources": ["s1"]},
        {"status": "contradicted", "sources": ["s1"]},
        {"status": "unknown", "sources": []},
    ]
    mixed = facts + [{**red, "source": "s2"}]
    assert claim_support([LAMP], mixed) == [{"status": "conflict", "sources": ["s1", "s2"]}]


def test_abstention_metrics_seed_example_exact_numbers_and_types():
    metrics = reference("2")(["factuur", None, "factuur"], ["factuur", "storing", "vraag"])
    assert metrics == {
        "total": 3,
        "answered": 2,
        "correct": 1,
        "coverage": 2 / 3,
        "overall_accuracy": 1 / 3,
        "answered_accuracy": 0.5,
        "risk": 0.5,
    }
    assert [type(metrics[k]) for k in ("total", "answered", "correct")] == [int, int, int]
    assert all(type(metrics[k]) is float for k in ("coverage", "overall_accuracy", "answered_accuracy", "risk"))
    silent = reference("2")([None] * 3, ["factuur", "storing", "vraag"])
    assert silent["answered_accuracy"] is None and silent["risk"] is None
    assert silent["coverage"] == 0.0 and type(silent["coverage"]) is float


def test_risk_coverage_seed_curve_exact_numbers_and_types():
    rows = reference("3")([0.1, 0.4, 0.7, 0.9], [True, True, False, True], [0, 0.5, 0.8, 1])
    assert [(r["threshold"], r["answered"], r["correct"], r["coverage"], r["risk"]) for r in rows] == [
        (0.0, 4, 3, 1.0, 0.25),
        (0.5, 2, 1, 0.5, 0.5),
        (0.8, 1, 1, 0.25, 0.0),
        (1.0, 0, 0, 0.0, None),
    ]
    for row in rows:
        assert list(row) == ["threshold", "answered", "correct", "coverage", "risk"]
        assert type(row["threshold"]) is float and type(row["coverage"]) is float
        assert type(row["answered"]) is int and type(row["correct"]) is int


# --- the graders cover every stated rule ---------------------------------------------------------------------------

BOTH_SIDES = {
    "1": [
        ("claims-32", "claims-33"),
        ("facts-128", "facts-129"),
        ("value-200-chars", "value-201-chars"),
        ("value-200-accented", "value-201-with-spaces"),
    ],
    "2": [
        ("items-1000", "items-1001"),
        ("blank-label-is-text", "empty-prediction"),
        ("seed-all-abstain", "items-1001-mostly-abstained"),
    ],
    "3": [
        ("scores-1000", "scores-1001"),
        ("thresholds-101", "thresholds-102"),
        ("bool-scores", "int-labels"),
        ("numpy-bools-in-list", "half-label"),
        ("tuple-inputs", "one-label-for-four-scores"),
    ],
}


@pytest.mark.parametrize("checkpoint_id", ["1", "2", "3"])
def test_limits_are_graded_on_both_sides(checkpoint_id):
    for allowed, refused in BOTH_SIDES[checkpoint_id]:
        assert outcome(checkpoint_id, allowed)[0] == "value", allowed
        assert outcome(checkpoint_id, refused) == ("raise", ValueError), refused


INVALID = {
    "1": [
        "whitespace-value",
        "whitespace-source",
        "empty-attribute",
        "claim-missing-value",
        "fact-missing-source",
        "claim-extra-source",
        "fact-extra-key",
        "value-not-str",
        "source-none",
        "entity-list",
        "claim-not-dict",
        "claims-tuple",
        "facts-dict",
        "facts-none",
        "invalid-unused-fact",
        "source-201-chars",
        "nbsp-attribute",
        "facts-set-of-none",
        "value-201-with-spaces",
    ],
    "2": [
        "empty-prediction",
        "empty-target",
        "none-target",
        "int-prediction",
        "false-prediction",
        "int-target",
        "list-prediction",
        "more-predictions",
        "fewer-predictions",
        "empty-lists",
        "tuple-input",
        "string-input",
        "nan-prediction",
        "items-1001-mostly-abstained",
    ],
    "3": [
        "int-labels",
        "int-label-array",
        "mixed-labels",
        "nan-score",
        "inf-score",
        "score-above-one",
        "negative-score",
        "nan-threshold",
        "inf-threshold",
        "threshold-above-one",
        "2d-scores",
        "nested-list-scores",
        "2d-thresholds",
        "labels-too-short",
        "empty-scores",
        "empty-thresholds",
        "thresholds-102-duplicates",
        "half-label",
        "one-label-for-four-scores",
        "nan-in-array",
    ],
}


@pytest.mark.parametrize("checkpoint_id", ["1", "2", "3"])
def test_invalid_input_cases_expect_value_error(checkpoint_id):
    for case_id in INVALID[checkpoint_id]:
        assert outcome(checkpoint_id, case_id) == ("raise", ValueError), case_id


def test_claim_rules_have_their_own_cases():
    statuses = lambda case_id: [row["status"] for row in outcome("1", case_id)[1]]  # noqa: E731
    assert outcome("1", "same-value-two-sources")[1] == [{"status": "supported", "sources": ["s1", "s2"]}]
    assert outcome("1", "same-source-twice")[1] == [{"status": "supported", "sources": ["s1"]}]
    assert outcome("1", "same-source-apart")[1] == [{"status": "supported", "sources": ["s1", "s2"]}]
    assert outcome("1", "unsorted-sources")[1][0]["sources"] == ["s1", "s2", "s3"]
    assert statuses("other-entity") == statuses("other-attribute") == ["unknown"]
    assert statuses("case-differs") == ["contradicted"]
    assert statuses("trailing-space-differs") == ["contradicted", "unknown"]
    assert statuses("conflict-with-match") == ["conflict"]
    assert statuses("joined-key-no-collision") == statuses("joined-key-separator") == ["unknown"]
    assert statuses("unicode-forms-differ") == ["contradicted"]
    assert outcome("1", "sorted-as-sorted-does")[1][0]["sources"] == ["A", "S2", "b", "s10", "s9"]


@pytest.mark.parametrize("checkpoint_id", ["1", "2", "3"])
def test_curated_cases_have_the_same_ids_and_outcomes_in_every_language(checkpoint_id):
    """Learners read example data in their own language; the cases and what the reference makes of them agree."""
    module, function = grader(checkpoint_id), reference(checkpoint_id)

    def run(case):
        try:
            return ("value", function(*case.args, **case.kwargs))
        except ValueError:
            return ("raise", ValueError)

    by_lang = {lang: list(module.curated(lang)) for lang in LESSON.languages}
    english = by_lang["en"]
    for lang, found in by_lang.items():
        assert [c.id for c in found] == [c.id for c in english], lang
        assert [run(c) for c in found] == [run(c) for c in english], lang
    dutch_words = {"kleur", "blauw", "rood", "gewicht", "factuur", "storing", "vraag"}
    english_text = json.dumps([[c.args, c.kwargs] for c in english], default=repr)
    assert not any(f'"{word}' in english_text for word in dutch_words)


@pytest.mark.parametrize("checkpoint_id", ["1", "2", "3"])
def test_generated_cases_are_the_same_in_every_language(checkpoint_id):
    checkpoint = LESSON.checkpoint(checkpoint_id)
    orders = {
        lang: prepare(
            grader(checkpoint_id), checkpoint.solution(), lesson=LESSON_ID, checkpoint=checkpoint_id, seed=4, lang=lang
        )["key"]["order"]
        for lang in LESSON.languages
    }
    assert orders["nl"] == orders["en"]
    assert any(case_id.startswith("gen/") for case_id in orders["en"])


def test_threshold_rules_have_their_own_cases():
    equal = outcome("3", "threshold-equals-score")[1]
    assert [(r["threshold"], r["answered"]) for r in equal] == [(0.4, 3), (0.7, 2)]
    above = outcome("3", "threshold-above-every-score")[1]
    assert above[0]["answered"] == 0 and above[0]["risk"] is None
    assert [r["threshold"] for r in outcome("3", "duplicate-thresholds")[1]] == [0.0, 0.5]
    assert [r["threshold"] for r in outcome("3", "unsorted-thresholds")[1]] == [0.0, 0.5, 0.8, 1.0]
    assert isinstance(cases("3")["ndarray-inputs"].args[0], np.ndarray)
    all_abstain = outcome("2", "seed-all-abstain")[1]
    assert all_abstain["risk"] is None and all_abstain["answered_accuracy"] is None


@pytest.mark.parametrize("checkpoint_id", ["1", "2", "3"])
def test_every_case_is_explained_in_three_languages(checkpoint_id):
    found = list(grader(checkpoint_id).curated()) + list(
        grader(checkpoint_id).random_cases(random.Random(5), grader(checkpoint_id).RANDOM_CASES)
    )
    ids = [case.id for case in found]
    assert len(ids) == len(set(ids))
    for case in found:
        case.validate()
        assert all(case.explain.get(lang, "").strip() for lang in ("nl", "en", "ar")), case.id
        assert all(case.hint.get(lang, "").strip() for lang in ("nl", "en", "ar")) or not case.hint, case.id


@pytest.mark.parametrize("checkpoint_id", ["1", "2", "3"])
def test_random_cases_are_valid_and_depend_on_the_seed(checkpoint_id):
    module = grader(checkpoint_id)
    assert 20 <= module.RANDOM_CASES <= 30
    first = list(module.random_cases(random.Random(1), module.RANDOM_CASES))
    second = list(module.random_cases(random.Random(2), module.RANDOM_CASES))
    assert [c.id for c in first] == [f"random-{i}" for i in range(module.RANDOM_CASES)]
    function = reference(checkpoint_id)
    results_first = [function(*c.args) for c in first]  # valid inputs: the reference never raises here
    results_second = [function(*c.args) for c in second]
    assert results_first != results_second


HARD_CODED = {
    "1": """
def claim_support(claims, facts):
    if len(claims) == 3:
        return [{"status": "supported", "sources": ["s1"]}, {"status": "contradicted", "sources": ["s1"]},
                {"status": "unknown", "sources": []}]
    return [{"status": "conflict", "sources": ["s1", "s2"]} for _ in claims]
""",
    "2": """
def abstention_metrics(predictions, targets):
    if all(p is None for p in predictions):
        return {"total": 3, "answered": 0, "correct": 0, "coverage": 0.0, "overall_accuracy": 0.0,
                "answered_accuracy": None, "risk": None}
    return {"total": 3, "answered": 2, "correct": 1, "coverage": 2 / 3, "overall_accuracy": 1 / 3,
            "answered_accuracy": 0.5, "risk": 0.5}
""",
    "3": """
def risk_coverage_curve(scores, correct, thresholds):
    table = {0.0: (4, 3, 1.0, 0.25), 0.5: (2, 1, 0.5, 0.5), 0.8: (1, 1, 0.25, 0.0), 1.0: (0, 0, 0.0, None)}
    return [{"threshold": float(t), "answered": table[t][0], "correct": table[t][1], "coverage": table[t][2],
             "risk": table[t][3]} for t in sorted(set(float(x) for x in thresholds)) if t in table]
""",
}


@pytest.mark.parametrize("checkpoint_id", ["1", "2", "3"])
def test_random_cases_defeat_a_solution_that_hard_codes_the_examples(checkpoint_id):
    verdict = grade_source(LESSON_ID, checkpoint_id, HARD_CODED[checkpoint_id], seed=3)
    assert verdict["status"] == "fail"
    assert any(case.startswith("random-") for case in verdict["failed_cases"]), verdict["failed_cases"]


# --- alternative correct solutions pass the engine -----------------------------------------------------------------


def _alternatives():
    """Each alternative with another seed's random and generated cases: the build's seed (0) is graded for every
    alternative by tests/test_checkpoints.py (werkbank check's list of files)."""
    for path in sorted(ALTERNATIVES.glob("alt_*.py")):
        checkpoint_id = str(int(path.stem.split("_")[1]))
        for seed in (7,):
            yield pytest.param(checkpoint_id, path, seed, id=f"{path.stem}-seed{seed}")


def test_there_are_alternatives_in_three_styles_for_every_checkpoint():
    per_checkpoint = {}
    for path in ALTERNATIVES.glob("alt_*.py"):
        per_checkpoint.setdefault(str(int(path.stem.split("_")[1])), []).append(path.name)
    assert set(per_checkpoint) == {"1", "2", "3"}
    assert all(len(names) >= 3 for names in per_checkpoint.values()), per_checkpoint


@pytest.mark.parametrize("checkpoint_id,path,seed", list(_alternatives()))
def test_alternative_correct_solution_passes(checkpoint_id, path, seed):
    verdict = grade_source(LESSON_ID, checkpoint_id, path.read_text(encoding="utf-8"), seed=seed)
    assert verdict["status"] == "pass", verdict


def _grade_on_the_cli(path: Path) -> dict:
    """`werkbank grade claims-abstention 3 FILE --json`: every curated and generated case, as a learner's file."""
    done = subprocess.run(
        [sys.executable, "-m", "werkbank.cli", "grade", LESSON_ID, "3", str(path), "--json"],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=300,
    )
    return json.loads(done.stdout)


def test_a_solution_written_from_the_task_and_hints_passes_every_case(tmp_path):
    """alt_03_from_task.py follows checkpoint 3's task and hints step by step: numpy reads the numbers with
    np.asarray(..., dtype=float), and complex input is turned away first, because that conversion lets a complex
    array through with only a warning. The same program without that one check, which is where the hint used to
    lead, fails on the generated complex arrays: the texts have to say it."""
    written = ALTERNATIVES / "alt_03_from_task.py"
    assert _grade_on_the_cli(written)["status"] == "pass"
    lines = written.read_text(encoding="utf-8").splitlines(keepends=True)
    check = next(i for i, line in enumerate(lines) if "np.iscomplexobj" in line)
    without = tmp_path / "without_complex_check.py"
    without.write_text("".join(lines[:check] + lines[check + 2 :]), encoding="utf-8")
    verdict = _grade_on_the_cli(without)
    assert verdict["status"] == "fail" and "complex" in verdict["failure"]["case"], verdict["failure"]
    checkpoint = LESSON.checkpoint("3")
    for lang in LESSON.languages:
        assert "np.iscomplexobj" in checkpoint.task(lang) and "np.iscomplexobj" in checkpoint.hint(lang)


# --- prose and task examples print what they claim ------------------------------------------------------------------


def _expected_output(block: str) -> list[str]:
    """The output a block documents: whole-line comments, and inline comments on print(...) lines."""
    expected = []
    for line in block.splitlines():
        stripped = line.strip()
        if stripped.startswith("# "):
            expected.append(stripped[2:])
        elif "print(" in line and "  # " in line:
            expected.append(line.split("  # ", 1)[1].strip())
    return expected


def _documents():
    for lang in LESSON.languages:
        yield pytest.param(LESSON.prose(lang), id=f"prose-{lang}")
        for checkpoint in LESSON.checkpoints:
            yield pytest.param(checkpoint.task(lang), id=f"task-{checkpoint.id}-{lang}")


@pytest.mark.parametrize("markdown", list(_documents()))
def test_python_examples_print_what_the_text_says(markdown):
    blocks = re.findall(r"```python\n(.*?)```", markdown, re.S)
    assert blocks
    namespace = {name: reference(cp) for cp, name in ENTRY.items()}
    for block in blocks:
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            exec(block, namespace)
        assert out.getvalue().splitlines() == _expected_output(block), block


@pytest.mark.parametrize("lang", ["nl", "en"])
def test_prose_renders_with_math_figure_and_flowchart(lang):
    html = render(LESSON.prose(lang), f"prose.{lang}.md", lang)
    assert html.count('<div class="math-display"') >= 1 and "<mfrac>" in html
    assert 'data-figure="risk-coverage"' in html
    assert "<svg" in html  # the flowchart of the four outcomes


# --- the figure -----------------------------------------------------------------------------------------------------


def test_figure_source_builds_dom_without_inner_html():
    source = FIGURE.read_text(encoding="utf-8")
    assert not re.search(
        r"\.(innerHTML|outerHTML)\b|insertAdjacentHTML|document\.write|createContextualFragment", source
    )
    assert re.search(r"export function mount\(element, lang\)", source)


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_figure_numbers_in_node():
    script = (
        f"import {{ summarize, CASES, formatPercent }} from {json.dumps(FIGURE.as_uri())};\n"
        "const out = [0, 0.4, 0.5, 0.55, 0.6, 0.7, 0.9, 0.95, 1].map((t) => summarize(CASES, t));\n"
        "out.push([formatPercent(1, 'en'), formatPercent(0.25, 'nl'), formatPercent(1 / 3, 'nl')]);\n"
        "out.push(CASES);\n"
        "console.log(JSON.stringify(out));\n"
    )
    done = subprocess.run(
        ["node", "--input-type=module", "-e", script], capture_output=True, text=True, timeout=60, check=True
    )
    *points, percents, cases = json.loads(done.stdout)
    assert cases == [{"score": s, "correct": ok} for s, ok in zip(FIVE_SCORES, FIVE_CORRECT)]
    assert [(p["answered"], p["coverage"], p["risk"]) for p in points] == [
        (5, 1, 0.2),
        (4, 0.8, 0.25),
        (4, 0.8, 0.25),
        (3, 0.6, 1 / 3),
        (3, 0.6, 1 / 3),
        (2, 0.4, 0),
        (1, 0.2, 0),
        (0, 0, None),
        (0, 0, None),
    ]
    curve = reference("3")(
        [case["score"] for case in cases],
        [case["correct"] for case in cases],
        [0, 0.4, 0.5, 0.55, 0.6, 0.7, 0.9, 0.95, 1],
    )
    assert [(r["answered"], r["coverage"], r["risk"]) for r in curve] == [
        (p["answered"], p["coverage"], p["risk"]) for p in points
    ]  # the figure counts like the reference
    assert percents == ["100 %", "25 %", "33,3 %"]


# The figure on the lesson page in a real browser: tests/browser/test_figures.py.


# ---- the seed's own sample solution (read from ../shared/seeds at test time; never copied into the repository) ----

_SEEDS = Path(__file__).resolve().parents[2] / "shared" / "seeds"


def _seed_sample_solution() -> str:
    """The Dutch seed's sample solution ("voorbeeldoplossing"): its program, from ``def claim_support(`` to where
    the seed's prose resumes."""
    found = sorted(_SEEDS.glob("000_*.txt")) if _SEEDS.is_dir() else []
    if not found:
        pytest.skip("the Dutch seed is not beside this checkout (../shared/seeds/000_*.txt)")
    text = found[0].read_text(encoding="utf-8")
    program = text[text.index("def claim_support(") :]
    code = []
    for line in program.splitlines():
        if line.strip() and not line[0].isspace() and not line.startswith(("def ", "import ", "from ", "#", "@")):
            break  # the seed's prose resumes after the program
        code.append(line)
    return "\n".join(code) + "\n"


@pytest.mark.parametrize("checkpoint", ["1", "2", "3"])
def test_the_seeds_sample_solution_passes_every_case(checkpoint):
    """Contracts follow the source: the seed's sample passes every curated and generated case (full set)."""
    verdict = grade_source(LESSON.id, checkpoint, _seed_sample_solution())
    assert verdict["status"] == "pass", verdict.get("failure") or verdict
