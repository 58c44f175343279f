"""Lesson perplexity-calibration: reference fidelity, graders, alternative solutions, and the reliability figure.

The fidelity tests hold hand-computed expectations for every curated case, written from the lesson's conventions
(searchsorted side="right" binning, nan perplexity for zero tokens, (0.0, 0) ECE on empty input, ...), and check
that each reference solution produces exactly them. A new curated case without an expectation here fails the test.
"""

from __future__ import annotations

import importlib
import importlib.util
import math
import random
import sys
from pathlib import Path

import numpy as np
import pytest

from werkbank.grading import grade_source
from werkbank.lessons import load_lesson

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data" / "perplexity-calibration"
LESSON = load_lesson("perplexity-calibration")
LN2, LN4 = math.log(2.0), math.log(4.0)
RAISES = ValueError


def _load_solution(checkpoint_id):
    checkpoint = LESSON.checkpoint(checkpoint_id)
    name = f"_pc_reference_{checkpoint_id}"
    spec = importlib.util.spec_from_file_location(name, checkpoint.solution_path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def _grader(checkpoint_id):
    return importlib.import_module(LESSON.checkpoint(checkpoint_id).grader)


def _call(module, case):
    target = module
    for part in case.call.split("."):
        target = getattr(target, part)
    return target(*case.args, **case.kwargs)


def _same(expected, actual):
    """Exact-type comparison in the spirit of the engine, for the hand-written expectations below."""
    if isinstance(expected, tuple) and expected and expected[0] == "arrays":
        _, conf, acc, count = expected
        assert type(actual) is tuple and len(actual) == 3
        for want, got, kind in ((conf, actual[0], "f"), (acc, actual[1], "f"), (count, actual[2], "i")):
            assert isinstance(got, np.ndarray) and got.shape == (len(want),)
            assert got.dtype.kind in ("iu" if kind == "i" else "f")
            assert np.allclose(got, want, rtol=1e-9, atol=1e-12)
        return
    if isinstance(expected, dict):
        for name, want in expected.items():
            _same(want, getattr(actual, name))
        return
    if isinstance(expected, tuple):
        assert type(actual) is tuple and len(actual) == len(expected)
        for want, got in zip(expected, actual):
            _same(want, got)
        return
    if isinstance(expected, float):
        assert isinstance(actual, float), type(actual)
        if math.isnan(expected):
            assert math.isnan(actual)
        else:
            assert actual == pytest.approx(expected, rel=1e-9, abs=1e-12)
        return
    if isinstance(expected, int):
        assert type(actual) is int and actual == expected
        return
    raise AssertionError(f"unhandled expectation {expected!r}")


def _perplexity_result(ppl, avg, tokens):
    return {"perplexity": ppl, "avg_neg_log_likelihood": avg, "total_tokens": tokens}


def _arrays(conf, acc, count):
    return ("arrays", conf, acc, count)


def _sparse(bins, cells):
    """Reliability triple of length `bins` with {bin: (mean confidence, accuracy, count)} filled in, zeros elsewhere."""
    conf, acc, count = [0.0] * bins, [0.0] * bins, [0] * bins
    for b, (c, a, n) in cells.items():
        conf[b], acc[b], count[b] = c, a, n
    return _arrays(conf, acc, count)


def _grid_cells(bins):
    """The bins of an edge grid (every edge k / bins as a confidence, labelled k % 2), from the task's rule alone:
    edge k starts bin k, so every bin holds its own edge and the last also holds 1.0. Edges are k / bins here, not
    the computed ones; the comparison's tolerance covers the difference in the means."""
    cells = {k: (k / bins, float(k % 2), 1) for k in range(bins - 1)}
    cells[bins - 1] = (((bins - 1) / bins + 1.0) / 2, 0.5, 2)
    return cells


def _grid_ece(bins):
    """(ECE, populated bins) of an edge grid, by the definition: weighted gaps over bins + 1 predictions."""
    cells = _grid_cells(bins)
    return sum(abs(c - a) * n for c, a, n in cells.values()) / (bins + 1), bins


NAN = float("nan")
E15 = math.exp(1.5)

EXPECTED = {
    "1": {
        "uniform-two-token": 2.0,
        "uniform-two-token-result": _perplexity_result(2.0, LN2, 100),
        "perfect-model": 1.0,
        "perfect-model-result": _perplexity_result(1.0, 0.0, 15),
        "vocabulary-size": 50000.0,
        "multi-sequence-weighting": 2**1.75,
        "multi-sequence-result": _perplexity_result(E15, 1.5, 16),
        "empty-sequence-inside": _perplexity_result(math.exp(2.0), 2.0, 4),
        "zero-tokens": _perplexity_result(NAN, 0.0, 0),
        "zero-tokens-perplexity": NAN,
        "zero-token-counts": _perplexity_result(NAN, 0.0, 0),
        "misaligned-lengths": RAISES,
        "misaligned-perplexity": RAISES,
        "negative-nll": RAISES,
        "uint8-counts": math.exp(450.0 / 300),
        "zero-token-sequence-still-counts": math.exp(8.0 / 5),
        "large-token-counts": _perplexity_result(math.e, 1.0, 40100),
        # 1.2e20 over 109223372036854775809 tokens, the total exact past int64 and float64
        "counts-past-int64": _perplexity_result(
            math.exp(1.2e20 / 109223372036854775809), 1.2e20 / 109223372036854775809, 10**20 + 2**63 + 1
        ),
        "negative-nll-zero-tokens": RAISES,
        "negative-nll-later": RAISES,
        "negative-count": RAISES,
        "numpy-inputs": _perplexity_result(E15, 1.5, 16),
        "numpy-inputs-perplexity": 2**1.75,
    },
    "2": {
        "perfect-two-bins": (0.0, 2),
        "all-wrong-confident": (0.99, 1),
        "all-right-confident": (0.0225, 1),
        "coin-flip-predictor": (1 / 6, 1),
        "empty-middle-bins": (0.5 / 6, 4),
        "default-ten-bins": (1.8 / 4, 4),
        "empty-input": (0.0, 0),
        "edge-zero": (1 / 3 + 0.05, 2),
        "edge-inner": (0.475, 2),
        "point-three-in-bin-two": (0.225, 1),
        "default-bins-split-0-19-0-21": (0.51, 2),
        "brier-two-dimensional-square": RAISES,
        "label-half": RAISES,
        "nan-label-in-array": RAISES,
        "empty-input-bins-zero": RAISES,
        "float32-confidences": (0.25, 3),
        "brier-float32": 0.375 / 4,
        "edge-one": (0.46, 1),
        "one-prediction": (0.3, 1),  # |1 - 0.7| in the one populated bin
        "edges-mixed": (0.35, 4),
        **{f"edge-grid-{bins}": _grid_ece(bins) for bins in (7, 14, 17, 49)},
        "one-bin": (0.225, 1),
        "two-bins-half": (0.1 + 0.35 * 2 / 3, 2),
        "fifteen-bins": (0.074, 4),
        "bins-zero": RAISES,
        "bins-negative": RAISES,
        "confidence-above-one": RAISES,
        "confidence-negative": RAISES,
        "label-two": RAISES,
        "two-dimensional": RAISES,
        "misaligned": RAISES,
        "bool-labels": (0.0, 2),
        "array-inputs": (0.5 / 6, 4),
        "bool-array-labels": (0.13, 2),
        "brier-perfect": 0.0,
        "brier-worst": 1.0,
        "brier-coin-flip": 0.25,
        "brier-sees-spread": 0.24,
        "brier-empty": 0.0,
        "brier-bool-arrays": 0.18,
        "brier-confidence-out-of-range": RAISES,
        "brier-label-two": RAISES,
        "brier-misaligned": RAISES,
        "brier-two-dimensional": RAISES,
    },
}

FORTY_TRIPLE = _sparse(
    10,
    {
        2: (0.75 / 3, 1 / 3, 3),
        3: (1.40 / 4, 1 / 4, 4),
        4: (1.79 / 4, 2 / 4, 4),
        5: (2.75 / 5, 2 / 5, 5),
        6: (3.92 / 6, 3 / 6, 6),
        7: (4.49 / 6, 4 / 6, 6),
        8: (5.11 / 6, 4 / 6, 6),
        9: (5.75 / 6, 5 / 6, 6),
    },
)
FOUR_TRIPLE = _sparse(10, {0: (0.05, 0.0, 1), 1: (0.15, 0.0, 1), 8: (0.85, 1.0, 1), 9: (0.95, 1.0, 1)})
FIFTEEN_TRIPLE = _sparse(15, {0: (0.03, 0.0, 1), 7: (0.505, 0.5, 2), 10: (0.7, 1.0, 1), 14: (0.97, 1.0, 1)})


def _forty_brier():
    grader = _grader("3")
    return sum((p - y) ** 2 for p, y in zip(grader.FORTY_CONF, grader.FORTY_RIGHT)) / 40


EXPECTED["3"] = {
    "forty-predictions": FORTY_TRIPLE,
    "four-predictions": FOUR_TRIPLE,
    "empty-bins-are-zero": _sparse(10, {0: (0.05, 0.0, 1), 9: (0.94, 0.5, 2)}),
    "empty-input": _sparse(10, {}),
    "empty-input-four-bins": _sparse(4, {}),
    "default-ten-bins": _sparse(10, {1: (0.15, 0.5, 2), 8: (0.85, 0.5, 2)}),
    "edges": _sparse(10, {0: (0.0, 0.0, 1), 1: (0.1, 1.0, 1), 5: (0.5, 1.0, 1), 9: (1.0, 1.0, 1)}),
    **{f"edge-grid-{bins}": _sparse(bins, _grid_cells(bins)) for bins in (7, 14, 17, 49)},
    "point-three-point-six-point-seven": _sparse(10, {2: (0.275, 0.5, 2), 5: (0.6, 0.0, 1), 6: (0.7, 1.0, 1)}),
    "three-hundred-in-one-bin": _sparse(10, {9: (0.95, 1.0, 300)}),
    "report-point-three": {
        "ece": 0.225,
        "brier": (0.75**2 + 0.3**2) / 2,
        "populated_bins": 1,
        "reliability": _sparse(10, {2: (0.275, 0.5, 2)}),
        "n_samples": 2,
    },
    "one-bin": _arrays([0.525], [0.75], [4]),
    "fifteen-bins": FIFTEEN_TRIPLE,
    "bins-zero": RAISES,
    "confidence-above-one": RAISES,
    "label-two": RAISES,
    "misaligned": RAISES,
    "two-dimensional": RAISES,
    "report-four-predictions": {
        "ece": 0.1,
        "brier": 0.0125,
        "populated_bins": 4,
        "reliability": FOUR_TRIPLE,
        "n_samples": 4,
    },
    "report-forty-predictions": {
        "ece": 4.88 / 40,
        "brier": None,
        "populated_bins": 8,
        "reliability": FORTY_TRIPLE,
        "n_samples": 40,
    },
    "report-fifteen-bins": {
        "ece": 0.074,
        "brier": 0.6019 / 5,
        "populated_bins": 4,
        "reliability": FIFTEEN_TRIPLE,
        "n_samples": 5,
    },
    "report-empty": {"ece": 0.0, "brier": 0.0, "populated_bins": 0, "reliability": _sparse(10, {}), "n_samples": 0},
    "report-bool-labels": {
        "ece": 0.35,
        "brier": 0.8225 / 3,
        "populated_bins": 2,
        "reliability": _sparse(5, {1: (0.3, 0.0, 1), 4: (0.875, 0.5, 2)}),
        "n_samples": 3,
    },
    "report-bins-zero": RAISES,
    "report-label-two": RAISES,
}
EXPECTED["3"]["report-forty-predictions"]["brier"] = _forty_brier()


# ---- fidelity: the references against hand-computed expectations -------------------------------------------------


@pytest.mark.parametrize("checkpoint_id", ["1", "2", "3"])
def test_every_curated_case_has_a_hand_computed_expectation(checkpoint_id):
    ids = [case.id for case in _grader(checkpoint_id).curated()]
    assert len(ids) == len(set(ids))
    assert set(ids) == set(EXPECTED[checkpoint_id])


def _curated_params():
    for checkpoint_id in ("1", "2", "3"):
        for case in _grader(checkpoint_id).curated():
            yield pytest.param(checkpoint_id, case, id=f"{checkpoint_id}-{case.id}")


@pytest.mark.parametrize("checkpoint_id,case", list(_curated_params()))
def test_reference_matches_the_conventions(checkpoint_id, case):
    module = _load_solution(checkpoint_id)
    expected = EXPECTED[checkpoint_id][case.id]
    if expected is RAISES:
        with pytest.raises(ValueError):
            _call(module, case)
        return
    _same(expected, _call(module, case))


def test_checkpoint_three_reference_repeats_checkpoint_two():
    """Checkpoint 3's solution is self-contained and agrees with checkpoint 2's on every checkpoint-2 case."""
    two, three = _load_solution("2"), _load_solution("3")
    for case in _grader("2").curated():
        for module in (two, three):
            expected = EXPECTED["2"][case.id]
            if expected is RAISES:
                with pytest.raises(ValueError):
                    _call(module, case)
            else:
                _same(expected, _call(module, case))


def test_negative_nll_message_mentions_the_minus_sign():
    module = _load_solution("1")
    with pytest.raises(ValueError, match="minus sign"):
        module.PerplexityResult.from_token_nll([-1.0], [10])


@pytest.mark.parametrize("checkpoint_id", ["2", "3"])
def test_reference_empty_input_does_not_warn(checkpoint_id, recwarn):
    module = _load_solution(checkpoint_id)
    assert module.expected_calibration_error([], []) == (0.0, 0)
    assert module.brier_score(np.array([]), np.array([])) == 0.0
    assert len(recwarn) == 0


# ---- random cases --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("checkpoint_id", ["1", "2", "3"])
def test_random_cases_are_reproducible_small_and_off_the_edges(checkpoint_id):
    grader = _grader(checkpoint_id)
    first = list(grader.random_cases(random.Random(5), grader.RANDOM_CASES))
    again = list(grader.random_cases(random.Random(5), grader.RANDOM_CASES))
    assert [repr(c.args) + repr(c.kwargs) for c in first] == [repr(c.args) + repr(c.kwargs) for c in again]
    assert len(first) == grader.RANDOM_CASES
    assert len({c.id for c in first}) == len(first)
    for case in first:
        assert set(case.explain) == {"nl", "en", "ar"}
        assert len(case.args[0]) <= 60
        bins = case.kwargs.get("bins")
        if bins:
            for p in case.args[0]:
                if 0.0 < p < 1.0:
                    # never exactly on an inner edge, where float rounding could split correct solutions
                    assert all(abs(p * bins - k) > 1e-6 for k in range(1, bins))


@pytest.mark.parametrize("checkpoint_id", ["1", "2", "3"])
def test_every_case_explains_itself_in_three_languages(checkpoint_id):
    for case in _grader(checkpoint_id).curated():
        assert set(case.explain) == {"nl", "en", "ar"} and all(case.explain.values()), case.id
        if case.hint:
            assert set(case.hint) == {"nl", "en", "ar"} and all(case.hint.values()), case.id


# ---- the engine on alternative correct solutions and on the upstream conventions ----------------------------------

ALTERNATIVES = {cp: sorted(p.name for p in DATA.glob(f"alt_cp{cp}_*.py")) for cp in ("1", "2", "3")}


def test_every_checkpoint_has_alternatives_in_three_styles():
    assert all(len(names) >= 3 for names in ALTERNATIVES.values()), ALTERNATIVES


# The build's seed (0) is graded for every alternative by tests/test_checkpoints.py (werkbank check's list of files);
# here another seed's random and generated cases.
@pytest.mark.parametrize(
    "checkpoint_id,name,seed",
    [(cp, name, seed) for cp, names in ALTERNATIVES.items() for name in names for seed in (7,)],
)
def test_alternative_correct_solutions_pass(checkpoint_id, name, seed):
    verdict = grade_source(LESSON.id, checkpoint_id, (DATA / name).read_text(encoding="utf-8"), seed=seed)
    assert verdict["status"] == "pass", verdict["failure"]


def test_the_plot_carries_the_learners_triple():
    source = (DATA / "alt_cp3_loops.py").read_text(encoding="utf-8")
    verdict = grade_source(LESSON.id, "3", source, seed=0)
    plot = verdict["plot"]
    assert plot["kind"] == "reliability"
    for triple in (plot["expected"], plot["actual"]):  # plain numbers: conf, acc, count
        assert len(triple) == 3
        assert triple[2] == [0, 0, 3, 4, 4, 5, 6, 6, 6, 6]


def test_the_plot_has_no_actual_when_the_learner_raises():
    source = LESSON.checkpoint("3").starter("en")
    verdict = grade_source(LESSON.id, "3", source, seed=0)
    assert verdict["status"] in ("fail", "error")
    assert verdict["plot"]["actual"] is None
    assert len(verdict["plot"]["expected"]) == 3


def test_a_wrong_triple_is_plotted_as_returned():
    mistake = LESSON.checkpoint("3").mistake("bin_centres")
    verdict = grade_source(LESSON.id, "3", mistake.source(), seed=0)
    assert verdict["status"] == "fail"
    actual_conf = verdict["plot"]["actual"][0]
    assert actual_conf[2] == pytest.approx(0.25) and actual_conf[9] == pytest.approx(0.95)


# The reliability figure and the verdict plot in a real browser: tests/browser/test_figures.py.


def test_lesson_texts_render_with_both_flowcharts():
    from werkbank.markdown import render

    for lang in LESSON.languages:
        html = render(LESSON.prose(lang), f"prose.{lang}.md", lang, heading_ids=True)
        assert html.count("flowchart-figure") == 2
        assert 'data-figure="reliability"' in html
        assert "<math" in html
        for checkpoint in LESSON.checkpoints:
            render(checkpoint.task(lang), "task", lang)
            render(checkpoint.hint(lang), "hint", lang)
    assert list(LESSON.languages) == ["ar", "en"]


# ---- upstream's own program (read at test time from ../shared; never copied into the repository) ----

_SHARED_MAIN = ROOT.parent / "shared" / "upstream" / "73-perplexity-calibration" / "code" / "main.py"


def _upstream_main() -> str:
    """Upstream's ``main.py``: the file named by ``WERKBANK_UPSTREAM_MAIN`` when it is set, else the copy of the
    course lesson beside this checkout (``../shared/upstream/73-perplexity-calibration/code/main.py``), which CI has
    too."""
    import os

    named = os.environ.get("WERKBANK_UPSTREAM_MAIN")
    if named:
        assert Path(named).is_file(), f"WERKBANK_UPSTREAM_MAIN names {named}, which is not a file"
        return Path(named).read_text(encoding="utf-8")
    if not _SHARED_MAIN.is_file():
        pytest.skip(
            f"upstream's main.py is not at {_SHARED_MAIN} (the course lesson belongs in ../shared/upstream/; "
            "WERKBANK_UPSTREAM_MAIN names another copy)"
        )
    return _SHARED_MAIN.read_text(encoding="utf-8")


@pytest.mark.parametrize("checkpoint", ["1", "2", "3"])
def test_upstreams_main_passes_every_case(checkpoint):
    """Contracts follow the source: upstream's program passes every curated and generated case (full set)."""
    verdict = grade_source(LESSON.id, checkpoint, _upstream_main())
    assert verdict["status"] == "pass", verdict.get("failure") or verdict
