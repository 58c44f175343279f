"""The lessons' texts: every number in the prose, the example snippets, checkpoint markers, hints and task layout.

- **Numbers in the prose.** Every number in ``prose.en.md`` (outside ``python`` fences and checkpoint markers) sits
  inside a passage listed in ``PROSE_CLAIMS`` below, and each passage has a check that computes what it states, with
  the reference solutions (``exercises/.../solution.py``) or plain numpy. The other languages of a lesson must state
  the same numbers as the English prose, section by section, so they are checked through it. (The ``python`` blocks
  of claims-abstention are executed and compared with their comments by ``test_lesson_claims_abstention.py``; the
  ``python`` block of perplexity-calibration is an API sketch that states no results.)
- **Examples.** Every checkpoint has ``example.<lang>.py`` for every language of its lesson. Its last line is an
  expression that calls the checkpoint's names; run after the reference solution, it gives exactly the result the
  task text shows in its first block, which repeats the snippet line by line.
- **Task texts** open with the signatures and that example, keep their input rules in a ``::: details`` fold, and
  every ``pycon`` block in them is a doctest that passes against the reference solution.
- **Markers and hints.** Every prose has exactly one ``checkpoint N`` marker per checkpoint, in order; every hint file
  holds 2 or 3 hints separated by ``---`` lines that also render as rules.
- **Words.** English texts show English data, Dutch texts use "zich onthouden" rather than a bare "onthouden", Arabic
  texts use one word for noise, and false claims a review of the texts found stay gone.
"""

from __future__ import annotations

import ast
import doctest
import importlib.util
import math
import re
import sys
from functools import lru_cache
from pathlib import Path

import numpy as np
import pytest

from werkbank.lessons import load_all, load_lesson
from werkbank.markdown import checkpoint_markers, render, split_hints

LESSONS = load_all()
REPO = Path(__file__).resolve().parent.parent
ARABIC = re.compile(r"[\u0600-\u06FF]")


# ---------------------------------------------------------------- references

@lru_cache(maxsize=None)
def reference(lesson_id: str, checkpoint_id: str):
    """The reference solution of a checkpoint, as a fresh module."""
    checkpoint = load_lesson(lesson_id).checkpoint(checkpoint_id)
    name = f"_text_ref_{lesson_id.replace('-', '_')}_{checkpoint_id}"
    spec = importlib.util.spec_from_file_location(name, checkpoint.solution_path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def ppl(cp="3"):
    return reference("perplexity-calibration", cp)


def claims(cp):
    return reference("claims-abstention", cp)


def close(a, b, tol=1e-12):
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=tol)


# ---------------------------------------------------------------- checks of perplexity-calibration (prose.en.md)

WORKED_CONF = [0.1, 0.3, 0.4, 0.6, 0.7, 0.8, 0.9, 1.0]
WORKED_RIGHT = [0, 0, 1, 1, 0, 1, 1, 1]
FOUR_CONF, FOUR_RIGHT = [0.05, 0.15, 0.85, 0.95], [0, 0, 1, 1]


def bin_by_rule(p: float, bins: int) -> int:
    """The prose's rule, written out: the k with edges[k] <= p < edges[k + 1]; the last bin also holds 1.0."""
    edges = np.linspace(0, 1, bins + 1)
    for k in range(bins):
        if edges[k] <= p < edges[k + 1]:
            return k
    assert p == 1.0
    return bins - 1


def bin_of(p: float, bins: int) -> int:
    """The bin the reference puts a single confidence in."""
    return int(np.flatnonzero(ppl().reliability_diagram([p], [1], bins=bins)[2])[0])


def check_intro():
    """Models A (0.7 on every answer) and B (0.95) both get 70 of 100 right: ECE 0 for A, 0.25 for B."""
    right = [1] * 70 + [0] * 30
    ece_a, _ = ppl().expected_calibration_error([0.7] * 100, right)
    ece_b, _ = ppl().expected_calibration_error([0.95] * 100, right)
    assert close(ece_a, 0.0) and close(ece_b, 0.25) and sum(right) / len(right) == 0.7 == 70 / 100


def check_nll_zero():
    assert -math.log(1.0) == 0


def check_floor_is_one():
    assert ppl("1").perplexity([0.0, 0.0], [3, 5]) == 1.0
    rng = np.random.default_rng(3)
    for _ in range(200):
        assert ppl("1").perplexity(rng.uniform(0, 40, 4), rng.integers(1, 20, 4)) >= 1.0


def check_uniform_vocabulary():
    assert close(ppl("1").perplexity([100 * math.log(50000)], [100]), 50000.0)
    assert close(ppl("1").perplexity([7 * math.log(8)], [7]), 8.0)  # "as unsure as a blind pick among k tokens"


def check_pooling():
    ln2, ln4 = math.log(2), math.log(4)
    assert close((10 * ln2 + 30 * ln4) / 40, 70 * ln2 / 40) and close(70 * ln2 / 40, 1.75 * ln2)
    pooled = ppl("1").perplexity([10 * ln2, 30 * ln4], [10, 30])
    assert close(pooled, 2 ** 1.75) and round(pooled, 2) == 3.36
    assert close(ppl("1").perplexity([10 * ln2], [10]), 2.0) and close(ppl("1").perplexity([30 * ln4], [30]), 4.0)
    assert (2.0 + 4.0) / 2 == 3.0 < pooled


def check_sign_error():
    assert all(math.log(p) <= 0 for p in (1e-9, 0.3, 1.0))
    assert math.exp(-0.5) < 1
    with pytest.raises(ValueError, match="minus sign"):
        ppl("1").PerplexityResult.from_token_nll([-3.0], [2])


def check_zero_tokens():
    """No tokens: perplexity nan (not exp(0) = 1), mean NLL 0.0 and total_tokens 0. That upstream's code reports the
    same is proven by test_upstreams_main_passes_every_case (the grader's zero-token cases)."""
    assert math.exp(0) == 1
    for args in (([], []), ([0.0, 0.0], [0, 0])):
        result = ppl("1").PerplexityResult.from_token_nll(*args)
        assert math.isnan(result.perplexity) and result.avg_neg_log_likelihood == 0.0 and result.total_tokens == 0
    grader = importlib.import_module(load_lesson("perplexity-calibration").checkpoint("1").grader)
    assert {"zero-tokens", "zero-token-counts"} <= {case.id for case in grader.curated()}


def check_checks_before_zero_tokens():
    """A negative NLL sum or count, or unequal lengths, raise even when the total number of tokens is 0."""
    for args in (([-1.0], [0]), ([1.0, 1.0], [-1, 1]), ([], [0]), ([0.0], [])):
        assert sum(args[1]) == 0
        with pytest.raises(ValueError):
            ppl("1").PerplexityResult.from_token_nll(*args)


def check_outcome_contract():
    ece = ppl().expected_calibration_error
    assert ece([0.0, 1.0], [0, 1]) == (0.0, 2)
    for bad in ([1.5], [-0.1]):
        with pytest.raises(ValueError):
            ece(bad, [1])
    with pytest.raises(ValueError):
        ece([0.5], [2])


def check_calibrated_definition():
    assert close(ppl().expected_calibration_error([0.8] * 10, [1] * 8 + [0] * 2)[0], 0.0)
    assert 0.8 == 80 / 100


def check_binning_rule():
    rng = np.random.default_rng(1)
    for bins in (1, 2, 3, 4, 5, 10, 15, 20):
        values = [0.0, 1.0] + list(np.linspace(0, 1, bins + 1)) + [k / bins for k in range(bins + 1)]
        values += list(rng.uniform(0, 1, 30))
        for p in values:
            assert bin_of(float(p), bins) == bin_by_rule(float(p), bins), (p, bins)
            searched = int(np.clip(np.searchsorted(np.linspace(0, 1, bins + 1), p, side="right") - 1, 0, bins - 1))
            assert searched == bin_by_rule(float(p), bins)
    assert bin_of(1.0, 10) == 9 and bin_of(0.0, 10) == 0


def _ece_closed_right(p, y, bins):
    """The ECE with bins closed on the right, as Guo et al. and scikit-learn's calibration_curve bin."""
    p, y = np.asarray(p, dtype=float), np.asarray(y, dtype=float)
    which = np.searchsorted(np.linspace(0, 1, bins + 1)[1:-1], p)  # calibration_curve's own expression
    return sum(np.mean(which == b) * abs(p[which == b].mean() - y[which == b].mean())
               for b in range(bins) if np.any(which == b))


def check_cited(*authors_years):
    """A work the prose cites by author and year is in the lesson's sources, with that year."""
    sources = " ".join(load_lesson("perplexity-calibration").text["en"].sources)
    for author, year in authors_years:
        assert re.search(rf"{author}\b.*\({year}\)|{author}\b.*\b{year}\b", sources), (author, year)


def check_conventions_differ():
    check_cited(("Guo", 2017))
    p, y = [0.25, 0.5, 0.75], [0, 1, 1]
    assert close(ppl().expected_calibration_error(p, y, bins=2)[0], 1 / 3)  # 0.5 in the bin above the edge
    assert close(_ece_closed_right(p, y, 2), 1 / 6)  # 0.5 in the bin below it
    assert bin_of(0.5, 2) == 1


def check_float_edges():
    edges = np.linspace(0, 1, 11)
    assert repr(float(edges[3])) == "0.30000000000000004" and edges[3] > 0.3
    assert repr(float(edges[6])) == "0.6000000000000001" and repr(float(edges[7])) == "0.7000000000000001"
    assert bin_of(0.3, 10) == 2 and int(0.3 * 10) == 3  # int(p * M) would say bin 3
    assert bin_of(0.6, 10) == 5 and bin_of(0.7, 10) == 6
    for k, p in ((1, 0.1), (2, 0.2), (4, 0.4), (5, 0.5), (8, 0.8), (9, 0.9)):
        assert edges[k] == p and bin_of(p, 10) == k


def check_empty_bins():
    mean_conf, accuracy, count = ppl().reliability_diagram([0.95], [1], bins=4)
    assert (mean_conf[0], accuracy[0], count[0]) == (0.0, 0.0, 0)


def check_worked_table():
    mean_conf, accuracy, count = ppl().reliability_diagram(WORKED_CONF, WORKED_RIGHT, bins=4)
    assert len(WORKED_CONF) == 8 and count.tolist() == [1, 2, 2, 3]
    assert np.allclose(mean_conf, [0.1, 0.35, 0.65, 0.9], rtol=0, atol=1e-12)
    assert np.allclose(accuracy, [0, 0.5, 0.5, 1], rtol=0, atol=1e-12)
    edges = np.linspace(0, 1, 5)
    assert edges.tolist() == [0, 0.25, 0.5, 0.75, 1] and all((e * 4).is_integer() for e in edges)
    members = {0: [0.1], 1: [0.3, 0.4], 2: [0.6, 0.7], 3: [0.8, 0.9, 1.0]}
    for b, values in members.items():
        assert all(bin_of(v, 4) == b for v in values)
    below = [b for b in range(4) if accuracy[b] < mean_conf[b]]
    assert below == [0, 2]  # overconfident; bins 1 and 3 lie above the diagonal


def check_ece_formula():
    rng = np.random.default_rng(2)
    for bins in (1, 3, 10):
        p, y = rng.uniform(0, 1, 50), rng.integers(0, 2, 50)
        index = np.array([bin_by_rule(float(v), bins) for v in p])
        by_hand = sum(np.mean(index == b) * abs(p[index == b].mean() - y[index == b].mean())
                      for b in range(bins) if np.any(index == b))
        assert close(ppl().expected_calibration_error(p, y, bins=bins)[0], by_hand)


def check_worked_ece():
    gaps = [0.1, 0.15, 0.15, 0.1]
    weights = [1 / 8, 2 / 8, 2 / 8, 3 / 8]
    mean_conf, accuracy, count = ppl().reliability_diagram(WORKED_CONF, WORKED_RIGHT, bins=4)
    assert np.allclose(np.abs(mean_conf - accuracy), gaps) and np.allclose(count / 8, weights)
    ece, populated = ppl().expected_calibration_error(WORKED_CONF, WORKED_RIGHT, bins=4)
    assert close(ece, sum(g * w for g, w in zip(gaps, weights))) and close(ece, 0.125) and populated == 4
    assert close(ece * 100, 12.5)
    per_prediction = np.mean(np.abs(np.array(WORKED_CONF) - np.array(WORKED_RIGHT)))
    assert not close(per_prediction, ece)  # "nothing about single predictions": they are 0.3 off on average


def check_empty_bins_add_nothing():
    mean_conf, accuracy, count = ppl().reliability_diagram([0.95, 0.9], [1, 0], bins=4)
    assert count.tolist() == [0, 0, 0, 2]
    assert close(ppl().expected_calibration_error([0.95, 0.9], [1, 0], bins=4)[0], abs(0.925 - 0.5))


def check_ece_zero_meaning():
    assert ppl().expected_calibration_error([0.25] * 4 + [0.75] * 4, [1, 0, 0, 0, 1, 1, 0, 1], bins=2) == (0.0, 2)


def check_four_predictions():
    assert [bin_of(p, 10) for p in FOUR_CONF] == [0, 1, 8, 9]
    mean_conf, accuracy, count = ppl().reliability_diagram(FOUR_CONF, FOUR_RIGHT)
    filled = count > 0
    assert np.allclose(np.abs(mean_conf - accuracy)[filled], [0.05, 0.15, 0.15, 0.05]) and (count[filled] == 1).all()
    ece, populated = ppl().expected_calibration_error(FOUR_CONF, FOUR_RIGHT)
    assert close(ece, 0.1) and populated == 4


def check_noise_simulation():
    rng = np.random.default_rng(0)
    runs = []
    for _ in range(4000):
        p = rng.uniform(0, 1, 100)
        y = (rng.uniform(0, 1, 100) < p).astype(int)  # perfectly calibrated: right with probability p
        runs.append(ppl().expected_calibration_error(p, y, bins=10)[0])
    assert 0.09 <= float(np.median(runs)) <= 0.11 and round(float(np.median(runs)), 1) == 0.1
    assert min(runs) > 0.02


P_CONF = [0.5] * 10
Q_CONF = [0.8] * 5 + [0.2] * 5
R_CONF = [0.95] * 5 + [0.05] * 5
PQ_RIGHT = [1, 1, 1, 1, 0] + [1, 0, 0, 0, 0]  # five right, five wrong; Q is right on 4 of its 0.8s, 1 of its 0.2s


def check_p_and_q_calibrated():
    assert sum(PQ_RIGHT) == 5 and sum(PQ_RIGHT[:5]) == 4 and sum(PQ_RIGHT[5:]) == 1
    for conf in (P_CONF, Q_CONF):
        assert close(ppl().expected_calibration_error(conf, PQ_RIGHT)[0], 0.0)


def check_p_q_brier():
    assert close(0.5 ** 2, 0.25) and close(ppl().brier_score(P_CONF, PQ_RIGHT), 0.25)
    leaning_right = sum((p > 0.5) == bool(y) for p, y in zip(Q_CONF, PQ_RIGHT))
    assert leaning_right == 8 and close(0.2 ** 2, 0.04) and close(0.8 ** 2, 0.64)
    assert close((8 * 0.04 + 2 * 0.64) / 10, 0.16) and close(ppl().brier_score(Q_CONF, PQ_RIGHT), 0.16)


def check_decomposition_p_q():
    check_cited(("Murphy", 1973))
    rel, res, unc = _decomposition(P_CONF, PQ_RIGHT, 10)
    assert close(rel, 0.0) and close(res, 0.0) and close(unc, 0.25) and close(rel - res + unc, 0.25)
    rel, res, unc = _decomposition(Q_CONF, PQ_RIGHT, 10)
    assert close(rel, 0.0) and close(res, 0.09) and close(unc, 0.25) and close(rel - res + unc, 0.16)
    rng = np.random.default_rng(5)  # exact whenever every bin holds a single confidence value
    p = rng.choice([0.05, 0.25, 0.45, 0.65, 0.85], 200)
    y = (rng.uniform(0, 1, 200) < p).astype(int)
    rel, res, unc = _decomposition(p, y, 10)
    assert close(rel - res + unc, ppl().brier_score(p, y))


def check_model_r():
    ece, _ = ppl().expected_calibration_error(R_CONF, PQ_RIGHT)
    assert close(ece, 0.15) and close(ppl().brier_score(R_CONF, PQ_RIGHT), 0.1825)
    assert ppl().brier_score(R_CONF, PQ_RIGHT) < ppl().brier_score(P_CONF, PQ_RIGHT) == 0.25


def check_worked_brier():
    squares = [(p - y) ** 2 for p, y in zip(WORKED_CONF, WORKED_RIGHT)]
    assert np.allclose(squares, [0.01, 0.09, 0.36, 0.16, 0.49, 0.04, 0.01, 0])
    assert close(sum(squares), 1.16) and close(ppl().brier_score(WORKED_CONF, WORKED_RIGHT), 0.145)
    assert close(1.16 / 8, 0.145)


def check_four_brier():
    squares = [(p - y) ** 2 for p, y in zip(FOUR_CONF, FOUR_RIGHT)]
    assert np.allclose(squares, [0.0025, 0.0225, 0.0225, 0.0025]) and close(sum(squares), 0.05)
    assert close(ppl().brier_score(FOUR_CONF, FOUR_RIGHT), 0.0125) and close(0.05 / 4, 0.0125)


def check_brier_extremes():
    brier = ppl().brier_score
    rng = np.random.default_rng(4)
    y = rng.integers(0, 2, 40)
    assert brier(y.astype(float), y) == 0.0 and brier(1.0 - y, y) == 1.0
    assert brier([0.5] * 40, y) == 0.25
    for _ in range(100):
        assert 0.0 <= brier(rng.uniform(0, 1, 20), rng.integers(0, 2, 20)) <= 1.0
    assert close(brier([0.9], [0]), 0.81) and close(brier([0.6], [0]), 0.36)


def _decomposition(p, y, bins):
    mean_conf, accuracy, count = ppl().reliability_diagram(p, y, bins=bins)
    n, overall = count.sum(), float(np.mean(y))
    reliability = float(np.sum(count * (mean_conf - accuracy) ** 2) / n)
    resolution = float(np.sum(count * (accuracy - overall) ** 2) / n)
    return reliability, resolution, overall * (1 - overall)


def check_confidence_range():
    assert ppl().brier_score([0.0, 1.0], [0, 1]) == 0.0
    with pytest.raises(ValueError):
        ppl().brier_score([1.01], [1])
    probs = np.array([0.5, 0.25, 0.8])
    assert close(math.exp(np.mean(np.log(probs))), float(np.prod(probs)) ** (1 / 3))  # the geometric mean


def check_edge_cases():
    rng = np.random.default_rng(6)
    p = rng.uniform(0, 1, 30)
    ece, _ = ppl().expected_calibration_error(p, np.zeros(30, dtype=int))
    assert close(ece, float(p.mean())) and close(ppl().brier_score(p, np.zeros(30)), float(np.mean(p ** 2)))
    high = rng.uniform(0.9, 1, 30)
    ece, _ = ppl().expected_calibration_error(high, np.ones(30, dtype=int))
    assert close(ece, 1 - float(high.mean())) and ece < 0.1 and ppl().brier_score(high, np.ones(30)) < 0.01
    y = rng.integers(0, 2, 30)
    ece, populated = ppl().expected_calibration_error([0.5] * 30, y)
    assert populated == 1 and close(ece, abs(0.5 - y.mean())) and ppl().brier_score([0.5] * 30, y) == 0.25


def check_empty_input():
    assert ppl().expected_calibration_error([], []) == (0.0, 0) and ppl().brier_score([], []) == 0.0
    triple = ppl().reliability_diagram([], [], bins=7)
    assert all(len(a) == 7 and not a.any() for a in triple)


def check_invalid_wins():
    with pytest.raises(ValueError):
        ppl().expected_calibration_error([], [], bins=0)
    with pytest.raises(ValueError):
        ppl().reliability_diagram([], [], bins=0)
    with pytest.raises(ValueError):
        ppl("1").perplexity([-1.0], [0])
    check_checkpoint_names("perplexity-calibration", {"1": "perplexity"})


def check_report_default_bins():
    report = ppl().CalibrationReport.from_predictions(WORKED_CONF, WORKED_RIGHT)
    assert len(report.reliability[0]) == 10
    assert report.ece == ppl().CalibrationReport.from_predictions(WORKED_CONF, WORKED_RIGHT, bins=10).ece


def check_rounded_confidences_differ():
    """Confidences rounded to one decimal mostly sit on an edge of ten bins and change bins between the two
    conventions, and the two ECEs can differ (on rounded confidences too)."""
    rng = np.random.default_rng(9)
    p = np.round(rng.uniform(0, 1, 200), 1)
    edges = np.linspace(0, 1, 11)
    assert np.isin(p, edges).mean() > 0.5
    here = np.clip(np.searchsorted(edges, p, side="right") - 1, 0, 9)
    there = np.clip(np.searchsorted(edges, p, side="left") - 1, 0, 9)
    assert (here != there).mean() > 0.5
    p, y = [0.2, 0.3, 0.5, 0.6], [0, 1, 1, 1]
    assert not close(ppl().expected_calibration_error(p, y)[0], _ece_closed_right(p, y, 10))


def check_small_samples_in_the_figure():
    """A calibrated model (the figure's: true probability uniform in [0.15, 0.99]) scored on fewer predictions gets a
    clearly higher ECE, with 10 bins as with 15, while its Brier score stays about the same (medians over seeds)."""
    rng = np.random.default_rng(10)
    for bins in (10, 15):
        by_size = {}
        for n in (100, 10000):
            runs = []
            for _ in range(40):
                q = 0.15 + 0.84 * rng.uniform(0, 1, n)
                y = (rng.uniform(0, 1, n) < q).astype(int)
                runs.append((ppl().expected_calibration_error(q, y, bins=bins)[0], ppl().brier_score(q, y)))
            by_size[n] = np.median(np.array(runs), axis=0)
        assert by_size[100][0] > 3 * by_size[10000][0]
        assert abs(by_size[100][1] - by_size[10000][1]) < 0.02


def check_worked_report():
    report = ppl().CalibrationReport.from_predictions(WORKED_CONF, WORKED_RIGHT, bins=4)
    assert close(report.ece, 0.125) and close(report.brier, 0.145)
    assert report.populated_bins == 4 and report.n_samples == 8


def check_bin_edges_span():
    assert np.linspace(0, 1, 11)[[0, -1]].tolist() == [0.0, 1.0]


def check_checkpoint_names(lesson_id: str, names: dict[str, str]):
    lesson = load_lesson(lesson_id)
    for checkpoint_id, name in names.items():
        assert name in lesson.checkpoint(checkpoint_id).entry


# ---------------------------------------------------------------- checks of claims-abstention (prose.en.md)

FIVE_SCORES, FIVE_LABELS = [.3, .5, .6, .8, .9], [True, True, False, True, True]
MAILS = ["delivery", "return", "payment", "return", "delivery"]
SYSTEM_A = ["delivery", "return", "return", "delivery", "delivery"]
SYSTEM_B = ["delivery", None, "payment", None, "return"]


def _claim(value="closed", **extra):
    return {"entity": "library", "attribute": "sunday", "value": value, **extra}


def check_claim_limits():
    check_checkpoint_names("claims-abstention", {"1": "claim_support"})
    claim_support = claims("1").claim_support
    fact = _claim(source="website")
    assert len(claim_support([_claim()] * 32, [fact] * 128)) == 32
    for too_many in (([_claim()] * 33, [fact]), ([_claim()], [fact] * 129)):
        with pytest.raises(ValueError):
            claim_support(*too_many)
    assert claim_support([_claim("x" * 200)], [])[0]["status"] == "unknown"
    with pytest.raises(ValueError):
        claim_support([_claim("x" * 201)], [])
    assert claim_support([_claim("Closed")], [fact])[0]["status"] == "contradicted"


def check_two_systems():
    a = claims("2").abstention_metrics(SYSTEM_A, MAILS)
    b = claims("2").abstention_metrics(SYSTEM_B, MAILS)
    assert len(MAILS) == 5 and (a["answered"], a["correct"], b["answered"], b["correct"]) == (5, 3, 3, 2)
    assert close(b["coverage"], 3 / 5) and close(b["risk"], 1 / 3)
    assert close(a["coverage"], 5 / 5) and close(a["risk"], 2 / 5)
    assert close(b["answered_accuracy"], 2 / 3) and close(a["answered_accuracy"], 3 / 5)
    assert b["answered_accuracy"] > a["answered_accuracy"]  # "B wins" among the answers given
    assert close(a["overall_accuracy"], 3 / 5) and close(b["overall_accuracy"], 2 / 5)


def check_all_abstained():
    m = claims("2").abstention_metrics([None] * 5, MAILS)
    assert m["answered"] == 0 and m["coverage"] == 0 and m["overall_accuracy"] == 0
    assert m["answered_accuracy"] is None and m["risk"] is None


def check_item_limits():
    check_checkpoint_names("claims-abstention", {"2": "abstention_metrics"})
    metrics = claims("2").abstention_metrics
    assert metrics(["a"], ["a"])["total"] == 1 and metrics(["a"] * 1000, ["a"] * 1000)["total"] == 1000
    for n in (0, 1001):
        with pytest.raises(ValueError):
            metrics(["a"] * n, ["a"] * n)
    with pytest.raises(ValueError):
        metrics([""], ["a"])


def _curve(thresholds):
    return {r["threshold"]: r for r in claims("3").risk_coverage_curve(FIVE_SCORES, FIVE_LABELS, thresholds)}


def check_threshold_table():
    """The prose's table: per threshold the answered, the wrong, the coverage and the risk (rounded to 0.1 %)."""
    table = {0: (5, 1, "100 %", "20 %"), 0.4: (4, 1, "80 %", "25 %"), 0.55: (3, 1, "60 %", "33.3 %"),
             0.7: (2, 0, "40 %", "0 %"), 0.95: (0, 0, "0 %", None)}
    percent = lambda x: f"{round(x * 100, 1):g} %"  # noqa: E731
    rows = _curve(list(table))
    for threshold, (answered, wrong, coverage, risk) in table.items():
        row = rows[float(threshold)]
        assert (row["answered"], row["answered"] - row["correct"], percent(row["coverage"])) == (answered, wrong,
                                                                                                  coverage)
        assert (percent(row["risk"]) if row["risk"] is not None else None) == risk
    assert [s for s, ok in zip(FIVE_SCORES, FIVE_LABELS) if not ok] == [.6]


def check_risk_steps():
    rows = _curve([0, .4, .55, .7])
    assert rows[0.0]["risk"] < rows[0.4]["risk"] < rows[0.55]["risk"] and rows[0.7]["risk"] == 0.0
    removed = lambda lo, hi: [ok for s, ok in zip(FIVE_SCORES, FIVE_LABELS) if lo <= s < hi]  # noqa: E731
    assert removed(0, .4) == [True] and removed(.4, .55) == [True] and removed(.55, .7) == [False]
    assert max(s for s, ok in zip(FIVE_SCORES, FIVE_LABELS) if ok) > .6 > min(FIVE_SCORES)  # wrong one in the middle


def check_stricter_threshold_rule():
    """A stricter threshold lowers the risk exactly when the answers that drop out are wrong more often than those
    that remain (random score sets, every pair of thresholds that keeps at least one answer)."""
    rng = np.random.default_rng(8)
    curve = claims("3").risk_coverage_curve
    for _ in range(300):
        n = int(rng.integers(2, 12))
        scores, right = rng.choice(np.linspace(0, 1, 11), n), rng.uniform(0, 1, n) < 0.6
        rows = curve(scores, right, np.linspace(0, 1, 11))
        for low, high in zip(rows, rows[1:]):
            if high["answered"] == 0 or high["answered"] == low["answered"]:
                continue
            dropped = low["answered"] - high["answered"]
            dropped_wrong_rate = ((low["answered"] - low["correct"]) - (high["answered"] - high["correct"])) / dropped
            assert (high["risk"] < low["risk"] - 1e-12) == (dropped_wrong_rate > high["risk"] + 1e-12)


def check_score_range():
    curve = claims("3").risk_coverage_curve
    assert len(curve([0, 1], [True, False], [0, 1])) == 2
    for bad in ([-0.1, 1], [0, 1.1]):
        with pytest.raises(ValueError):
            curve(bad, [True, False], [0.5])
        with pytest.raises(ValueError):
            curve([0, 1], [True, False], bad)


def check_figure_caption():
    rows = _curve([0, .5, .7, .95])
    assert (rows[0.0]["answered"], rows[0.0]["coverage"], rows[0.0]["risk"]) == (5, 1.0, .2)
    assert (rows[0.5]["answered"], rows[0.5]["coverage"], rows[0.5]["risk"]) == (4, .8, .25)
    assert (rows[0.7]["answered"], rows[0.7]["coverage"], rows[0.7]["risk"]) == (2, .4, 0.0)
    assert rows[0.95]["answered"] == 0 and rows[0.95]["risk"] is None and max(FIVE_SCORES) == .9


def check_risk_undefined():
    rows = _curve([1])
    assert rows[1.0]["answered"] == 0 and rows[1.0]["risk"] is None


def check_small_counts():
    """0 errors in 2 answers leaves a far wider range for the true error rate than 0 in 2000 (95 % upper bounds)."""
    upper = lambda n: 1 - 0.025 ** (1 / n)  # noqa: E731 - Clopper-Pearson, 0 errors in n
    assert upper(2) > 0.8 and upper(2000) < 0.002


def check_section_numbers():
    lesson = load_lesson("claims-abstention")
    headings = re.findall(r"^## (\d+)\. ", lesson.prose("en"), re.M)
    assert headings == [cp.id for cp in lesson.checkpoints]


# retrieval-evaluation (the authoring helper's lesson): what its prose states, from its reference solutions

def _retrieval(checkpoint_id: str, name: str):
    namespace: dict = {}
    exec(compile(load_lesson("retrieval-evaluation").checkpoint(checkpoint_id).solution(), "solution.py", "exec"),
         namespace)
    return namespace[name]


def check_retrieval_recall():
    recall = _retrieval("1", "recall_at_k")
    ranking, relevant = ["d3", "d1", "d7", "d2", "d9"], ["d1", "d2", "d4"]
    assert close(recall(ranking, relevant, 3), 1 / 3) and close(recall(ranking, relevant, 5), 2 / 3)
    assert "d4" not in ranking and len(set(ranking[:5]) & set(relevant)) / 5 != recall(ranking, relevant, 5)


def check_retrieval_first_hit():
    mrr = _retrieval("2", "mean_reciprocal_rank")
    docs = [f"d{i}" for i in range(1, 10)]
    assert mrr([docs], [["d1"]]) == 1.0 and close(mrr([docs], [["d9"]]), 1 / 9) and mrr([docs], [["x"]]) == 0.0


def check_retrieval_mrr():
    mrr = _retrieval("2", "mean_reciprocal_rank")
    rankings, relevant = [["d3", "d1", "d7"], ["d2", "d5"], ["d4", "d6", "d8"]], [["d1"], ["d2", "d9"], ["d0"]]
    assert mrr(rankings, relevant) == 0.5 and mrr(rankings[:2], relevant[:2]) == 0.75


def check_retrieval_fusion():
    rrf = _retrieval("3", "reciprocal_rank_fusion")
    fused = rrf([["a", "b", "c"], ["b", "c", "d"]])
    assert fused == rrf([["a", "b", "c"], ["b", "c", "d"]], 60)
    assert [doc for doc, _ in fused] == ["b", "c", "a", "d"]
    scores = dict(fused)
    assert close(scores["b"], 1 / 62 + 1 / 61) and close(scores["c"], 1 / 63 + 1 / 62)
    assert close(scores["a"], 1 / 61) and close(scores["d"], 1 / 63)
    both = dict(rrf([["x", "y", "z"], ["y", "z", "x"]]))  # y twice fairly high beats x, first once
    assert both["y"] > both["x"]
    top = dict(rrf([["x", "y"]], 0))
    assert top["x"] == 1 and top["y"] == 1 / 2
    held_by_both = [["x", "w", "y"], ["z", "y"]]  # y at places 3 and 2, x and z first once each
    assert [doc for doc, _ in rrf(held_by_both, 60)][0] == "y" and [doc for doc, _ in rrf(held_by_both, 0)][0] == "x"
    assert [doc for doc, _ in rrf([["y", "x"], ["x", "y"]])] == ["x", "y"]  # equal scores: the smaller id first


def check_retrieval_default_constant():
    import inspect

    assert inspect.signature(_retrieval("3", "reciprocal_rank_fusion")).parameters["k"].default == 60


def check_retrieval_precision_and_hit_rate():
    ranking, relevant = ["d3", "d1", "d7", "d2", "d9"], ["d1", "d2", "d4"]
    assert len(set(ranking[:5]) & set(relevant)) / 5 == 2 / 5  # precision@5
    hit = lambda k: 1 if set(ranking[:k]) & set(relevant) else 0  # noqa: E731
    recall = _retrieval("1", "recall_at_k")
    assert hit(3) == 1 and close(recall(ranking, relevant, 3), 1 / 3) and hit(1) == 0
    assert recall(ranking, ["d1"], 3) == hit(3)  # they agree for a question with one relevant document
    assert recall(ranking, relevant, 3) != recall(ranking, relevant, 10)


def check_retrieval_fusion_at_a_cutoff():
    rrf, recall = _retrieval("3", "reciprocal_rank_fusion"), _retrieval("1", "recall_at_k")
    keyword, embedding, relevant = ["a", "b", "c"], ["b", "c", "d"], ["a", "d"]
    fused = [doc for doc, _ in rrf([keyword, embedding])]
    assert recall(keyword, relevant, 1) == 1 / 2 and fused[:2] == ["b", "c"]
    assert recall(fused, relevant, 2) == 0.0 and recall(fused, relevant, 3) == 1 / 2
    assert recall(fused, relevant, len(fused)) == 1.0  # over its whole length it holds both


@lru_cache(maxsize=1)
def fusion_figure_data() -> dict:
    """QUERY and PLOT_QUERY of web/src/figures/fusion_recall.js, read with node."""
    import json
    import subprocess

    figure = REPO / "web" / "src" / "figures" / "fusion_recall.js"
    script = (f"import {{ QUERY, PLOT_QUERY }} from {json.dumps(figure.as_uri())};\n"
              "console.log(JSON.stringify({ QUERY, PLOT_QUERY }));\n")
    done = subprocess.run(["node", "--input-type=module", "-e", script], capture_output=True, text=True,
                          timeout=60, check=True)
    return json.loads(done.stdout)


def check_fusion_figure_caption():
    """The figure's query, fused by the reference: behind embedding search at cutoffs 2 and 3, level from 4 to 6,
    all four relevant documents from 7 on (neither ranking alone finds them); with the constant 0 never behind."""
    rrf, recall = _retrieval("3", "reciprocal_rank_fusion"), _retrieval("1", "recall_at_k")
    query = fusion_figure_data()["QUERY"]
    keyword, embedding, relevant = query["keyword"], query["embedding"], query["relevant"]
    assert len(keyword) == len(embedding) == 8 and len(relevant) == 4
    assert recall(keyword, relevant, 8) == 2 / 4 and recall(embedding, relevant, 8) == 3 / 4
    for constant in (60, 0):
        fused = [doc for doc, _ in rrf([keyword, embedding], constant)]
        curve = {k: recall(fused, relevant, k) for k in range(1, len(fused) + 1)}
        best = {k: max(recall(keyword, relevant, k), recall(embedding, relevant, k)) for k in curve}
        if constant == 60:
            assert [k for k in curve if curve[k] < best[k]] == [2, 3]
            assert [k for k in curve if curve[k] < recall(embedding, relevant, k)] == [2, 3]
            assert all(curve[k] == best[k] for k in (4, 5, 6)) and min(k for k in curve if curve[k] == 1.0) == 7
        else:
            assert all(curve[k] >= best[k] for k in curve)


# ---------------------------------------------------------------- the passages and their checks

PROSE_CLAIMS = {
    "perplexity-calibration": [
        ("Two models take the same quiz of 100 questions, and both get 70 right. Model A attaches a confidence of 0.7 "
         "to every answer; model B says 0.95 every time. On accuracy they tie. Yet only A's number can be taken at "
         'face value: of the answers B gives "with 95% confidence", 70% are right. A report that lists accuracy alone '
         "cannot tell the two apart; calibration, the second topic of this lesson, can (the calibration error you "
         "build below is 0 for A and 0.25 for B).", check_intro),
        (r"A token the model was sure of costs $-\ln 1 = 0$", check_nll_zero),
        ("A model that gives every actual token probability 1 pays nothing anywhere, so its perplexity is **1**, the "
         "lowest value there is.", check_floor_is_one),
        ("so its perplexity is exactly $V$: 50000 for a vocabulary of 50000 tokens", check_uniform_vocabulary),
        (r"Suppose one sequence has 10 tokens at an NLL of $\ln 2$ each and another has 30 tokens at $\ln 4$ each. The "
         r"pooled mean NLL is $(10\ln 2 + 30\ln 4)/40 = 70\ln 2/40 = 1.75\ln 2$, and the perplexity $2^{1.75} \approx "
         r"3.36$. On their own the sequences have perplexities 2 and 4. Their plain average, 3, is too low",
         check_pooling),
        (r"For a probability $\ln p$ is never above 0, so the sums come out negative, the mean too, and the exponential "
         "of a negative number is below 1", check_sign_error),
        ("The second case is an empty corpus: no sequences, or only sequences of 0 tokens. Nothing was measured, so "
         "there is no perplexity, and the result says so with `nan`. It must not say 1, because $\\exp(0) = 1$ would "
         "read as a perfect model. The mean NLL is reported as `0.0` next to `total_tokens = 0`, as in the course "
         "code this lesson follows: that zero means that nothing was added up, and the token count of 0 beside it",
         check_zero_tokens),
        ("A negative NLL sum, a negative count or two inputs of different lengths raise `ValueError` even when the "
         "total number of tokens is 0", check_checks_before_zero_tokens),
        (r"a confidence $p \in [0, 1]$ and an outcome $y$: 1 when it was right, 0 when it was wrong.",
         check_outcome_contract),
        ("with a confidence near 0.8, about 80% are right.", check_calibrated_definition),
        ('"Near 0.8" needs a definition', check_calibrated_definition),
        ("Their edges are `edges = np.linspace(0, 1, M + 1)`, and bin $k$ (counting from 0) holds the confidences "
         "with `edges[k] <= p < edges[k + 1]`: closed on the left, open on the right. The last bin takes 1.0 as well. "
         'In numpy that is `np.searchsorted(edges, p, side="right") - 1`, clipped to `[0, M - 1]`; a confidence of '
         "0.0 lands in bin 0.", check_binning_rule),
        ("Guo et al. (2017)", check_conventions_differ),
        ("Three predictions with confidences 0.25, 0.5 and 0.75 and outcomes 0, 1 and 1, in two bins: with 0.5 in the "
         "bin above that edge the ECE is $1/3$, with 0.5 in the bin below it $1/6$.", check_conventions_differ),
        ("With 10 bins, `edges[3]` is `0.30000000000000004`, a hair above 0.3, so a confidence of exactly 0.3 lands "
         "in bin 2; 0.6 and 0.7 fare the same way, while 0.1, 0.2, 0.4, 0.5, 0.8 and 0.9 equal their edges. "
         "Computing a bin as `int(p * M)` would put 0.3 in bin 3", check_float_edges),
        ("it holds 0.0, 0.0 and 0", check_empty_bins),
        ("Eight predictions in four bins of width 0.25, used again below: "
         "| bin | interval | confidences | outcomes | mean confidence | accuracy | count | "
         "|---|---|---|---|---|---|---| "
         "| 0 | $[0, 0.25)$ | 0.1 | 0 | 0.1 | 0 | 1 | "
         "| 1 | $[0.25, 0.5)$ | 0.3, 0.4 | 0, 1 | 0.35 | 0.5 | 2 | "
         "| 2 | $[0.5, 0.75)$ | 0.6, 0.7 | 1, 0 | 0.65 | 0.5 | 2 | "
         "| 3 | $[0.75, 1]$ | 0.8, 0.9, 1.0 | 1, 1, 1 | 0.9 | 1 | 3 | "
         "The inner edges 0.25, 0.5 and 0.75 are exact binary fractions, so every confidence lands where the table "
         "shows it. Bins 0 and 2 lie below the diagonal, bins 1 and 3 above it.", check_worked_table),
        (r"$$\mathrm{ECE} = \sum_{b=1}^{M} \frac{|B_b|}{N}\,\bigl|\,\overline{p}(B_b) - \overline{y}(B_b)\,\bigr|$$",
         check_ece_formula),
        ("An empty bin has weight 0 and adds nothing.", check_empty_bins_add_nothing),
        ("In the worked example the four gaps are 0.1, 0.15, 0.15 and 0.1, with weights $1/8$, $2/8$, $2/8$ and "
         r"$3/8$: $$\mathrm{ECE} = \tfrac{1}{8} \cdot 0.1 + \tfrac{2}{8} \cdot 0.15 + \tfrac{2}{8} \cdot 0.15 + "
         r"\tfrac{3}{8} \cdot 0.1 = 0.125$$ Read that as an average over bins: weighted by how many predictions each "
         "holds, a bin's mean confidence lies 12.5 percentage points from its accuracy. It says nothing about single "
         "predictions", check_worked_ece),
        ("an ECE of 0 means that in every populated bin the accuracy equals the mean confidence.",
         check_ece_zero_meaning),
        ("A smaller case: confidences 0.05, 0.15, 0.85 and 0.95, the first two wrong and the last two right. With ten "
         "bins they occupy bins 0, 1, 8 and 9, the gaps are 0.05, 0.15, 0.15 and 0.05, each weighs $1/4$, and the "
         "ECE is 0.1.", check_four_predictions),
        ("Simulate one and score it on 100 predictions in 10 bins: the ECE is about 0.1 (the median over many runs), "
         "and in none of 4000 runs below 0.02. On a sample that small, an ECE of 0.02 cannot be told apart from "
         "noise.", check_noise_simulation),
        ("model P says 0.5 for every answer; - model Q says 0.8 for five answers, four of which are right, and 0.2 for "
         "the other five, one of which is right. Both are calibrated, and for both an ECE of 0 is the correct "
         "verdict.", check_p_and_q_calibrated),
        (r"$$\mathrm{BS} = \frac{1}{N}\sum_{i=1}^{N} (p_i - y_i)^2$$", check_worked_brier),
        ("For P every term is $0.5^2 = 0.25$, so its Brier score is 0.25. Q's eight answers that lean the right way "
         "cost $0.2^2 = 0.04$ each and its two that lean the wrong way $0.8^2 = 0.64$ each: $\\mathrm{BS} = (8 "
         "\\cdot 0.04 + 2 \\cdot 0.64)/10 = 0.16$.", check_p_q_brier),
        ("For the eight predictions of the worked example the squared distances are 0.01, 0.09, 0.36, 0.16, 0.49, "
         r"0.04, 0.01 and 0, so $\mathrm{BS} = 1.16/8 = 0.145$", check_worked_brier),
        (r"for the four-prediction case they are 0.0025, 0.0225, 0.0225 and 0.0025, and $\mathrm{BS} = 0.05/4 = "
         "0.0125$.", check_four_brier),
        ("Saying 1.0 when right and 0.0 when wrong scores 0; being always certain and always wrong scores 1; saying "
         "0.5 every time scores exactly 0.25, whatever the outcomes. Squaring makes confident mistakes expensive: a "
         "wrong answer given with 0.9 costs 0.81, one given with 0.6 costs 0.36.", check_brier_extremes),
        ("Murphy (1973)", check_decomposition_p_q),
        (r"$\bar{y}(1 - \bar{y})$). The split is exact when all predictions in a bin share one confidence. For P it "
         r"reads $0 - 0 + 0.25 = 0.25$, for Q $0 - 0.09 + 0.25 = 0.16$", check_decomposition_p_q),
        ("A model R that says 0.95 and 0.05 where Q says 0.8 and 0.2 is overconfident, with an ECE of 0.15, and "
         "still beats P on Brier score: 0.1825 against 0.25.", check_model_r),
        ("`CalibrationReport.from_predictions(confidences, correct, bins=10)`", check_report_default_bins),
        ("For the eight predictions of the worked example with `bins=4` it holds an ECE of 0.125, a Brier score of "
         "0.145, 4 populated bins and 8 samples.", check_worked_report),
        ("your functions accept any number from 0 to 1", check_confidence_range),
        ("Empty input gives an ECE of `(0.0, 0)`, a Brier score of `0.0` and reliability data of three zero arrays "
         "of the requested length", check_empty_input),
        ("Invalid input wins over that rule, so `expected_calibration_error([], [], bins=0)` raises, just as "
         "`perplexity([-1.0], [0])` does in checkpoint 1.", check_invalid_wins),
        ("the accuracy of every bin is 0, so the ECE equals the mean confidence and the Brier score the mean of the "
         "squared confidences", check_edge_cases),
        ("both are close to 0, and the ECE is exactly 1 minus the mean confidence", check_edge_cases),
        ("a model that always says 0.5: one bin, an ECE of $|0.5 - a|$ with $a$ the accuracy, and a Brier score of "
         "0.25.", check_edge_cases),
        ('`np.searchsorted(edges, p, side="left") - 1`, and run both on confidences rounded to one decimal: most of '
         "them sit on an edge and change bins, so the two results can differ.", check_rounded_confidences_differ),
        ("switch between 10 and 15 bins, then lower the number of predictions: watch the ECE of a calibrated model "
         "rise while its Brier score hardly moves.", check_small_samples_in_the_figure),
    ],
    "retrieval-evaluation": [
        ("Say the retriever returns `d3, d1, d7, d2, d9` and the relevant documents are `d1`, `d2` and `d4`. In the "
         "first three places only `d1` is relevant, so recall@3 is 1/3. With `k = 5`, `d2` is in as well: 2/3. `d4` "
         "was never returned, and it still counts in the denominator", check_retrieval_recall),
        ("Above, precision@5 is 2/5.", check_retrieval_precision_and_hit_rate),
        ("1 if so, 0 if not, averaged over the questions. Above, the hit rate at 3 is 1, while recall@3 is 1/3.",
         check_retrieval_precision_and_hit_rate),
        ("recall@3 and recall@10 of the same retriever are different numbers.", check_retrieval_precision_and_hit_rate),
        ("at place 1 the reader sees it at once, at place 9 it is buried. The **reciprocal rank** of a question is "
         "`1 / place` of its first relevant document, and 0 when there is none.", check_retrieval_first_hit),
        ("Three questions whose first relevant documents land at places 2, 1 and nowhere give (1/2 + 1 + 0) / 3 = "
         "0.5. The question that found nothing stays in the mean with a 0: leaving it out would report 0.75",
         check_retrieval_mrr),
        (r"$$\text{score}(d) = \sum_{\text{rankings holding } d} \frac{1}{c + \text{place}}$$", check_retrieval_fusion),
        ("call it `k` and chose 60 in a pilot experiment, and `reciprocal_rank_fusion` keeps that name for its "
         "parameter: `k=60`.", check_retrieval_default_constant),
        ('With `["a", "b", "c"]` and `["b", "c", "d"]` and the constant at 60, `b` scores 1/62 + 1/61, `c` 1/63 + '
         "1/62, `a` 1/61 and `d` 1/63: the fused ranking is `b, c, a, d`. With the constant at 60 the first place is "
         "worth 1/61 and the second 1/62, almost the same, so a document that both rankings hold beats one that a "
         "single ranking puts first. With the constant at 0 the first place is worth 1 and the second 1/2",
         check_retrieval_fusion),
        ("keyword search has `a` at place 1, so its recall@1 is 1/2, while the fused ranking starts with `b` and `c` "
         "and finds nothing relevant until place 3.", check_retrieval_fusion_at_a_cutoff),
        ("With the RRF constant at 60 the fusion finds fewer relevant documents than embedding search at cutoffs 2 "
         "and 3, as many from cutoff 4 to 6, and all four from cutoff 7, which neither ranking alone ever does. With "
         "the constant at 0 it is never behind either ranking.", check_fusion_figure_caption),
        ("After a Run or a Check of checkpoint 3", lambda: check_checkpoint_names(
            "retrieval-evaluation", {"3": "reciprocal_rank_fusion"})),
    ],
    "claims-abstention": [
        ("## 1. ", check_section_numbers),
        ("## 2. ", check_section_numbers),
        ("## 3. ", check_section_numbers),
        ("For checkpoint 1 you write `claim_support`. It receives at most 32 claims and 128 fact rows, with exactly "
         "the fields above, each a non-empty text of at most 200 characters.", check_claim_limits),
        ("For B the coverage is $3/5$ and the risk $1/3$, against a coverage of $5/5$ and a risk of $2/5$ for A. "
         "Looking only at the answers given, B wins: an accuracy of $2/3$ against $3/5$. Over all five emails it is "
         "the other way round: A gets $3/5$ right and B only $2/5$", check_two_systems),
        ("If a system abstains on every question, then $A = 0$. Coverage and overall accuracy are then $0$, but the "
         "risk and the accuracy among the answers do not exist, because you would divide by zero. The function "
         "returns `None` there, not `0`", check_all_abstained),
        ("For checkpoint 2 you write `abstention_metrics` for 1 to 1000 items", check_item_limits),
        ("Take five cases with scores 0.3, 0.5, 0.6, 0.8 and 0.9, of which only the answer with score 0.6 is wrong: "
         "| threshold | answered | wrong | coverage | risk | |---|---|---|---|---| | 0 | 5 | 1 | 100 % | 20 % | "
         "| 0.4 | 4 | 1 | 80 % | 25 % | | 0.55 | 3 | 1 | 60 % | 33.3 % | | 0.7 | 2 | 0 | 40 % | 0 % | "
         "| 0.95 | 0 | 0 | 0 % | undefined |", check_threshold_table),
        ("The first two steps up each remove a *right* answer (the scores 0.3 and 0.5), while the wrong answer stays: "
         "the risk rises from 20 % to 25 % and then to 33.3 %. Only the step past 0.6 removes the wrong answer, and "
         "then the risk drops to 0 %.", check_risk_steps),
        ("a stricter threshold lowers the risk only when the answers that drop out are wrong more often than the "
         "answers that remain.", check_stricter_threshold_rule),
        ("Scores and thresholds are real numbers from 0 to 1", check_score_range),
        ("Five made-up cases with scores 0.3, 0.5, 0.6, 0.8 and 0.9; only the answer with score 0.6 is wrong. A case "
         "is answered when its score is at least the threshold, otherwise the system abstains. Threshold 0: all 5 "
         "answered, coverage 100 %, risk 20 %. Threshold 0.5: 4 answered, coverage 80 %, risk 25 %. Threshold 0.7: 2 "
         "answered, coverage 40 %, risk 0 %. Above 0.9 nothing is answered", check_figure_caption),
        ("The risk is then *undefined*, and that is not the same as 0 %", check_risk_undefined),
        ("For checkpoint 3 you write `risk_coverage_curve`", lambda: check_checkpoint_names(
            "claims-abstention", {"3": "risk_coverage_curve"})),
        ("A risk of 0 % on 2 answers says far less than on 2000", check_small_counts),
    ],
    "micropip-demo": [
        ('`requirements = ["mdurl==0.1.2"]`', lambda: check_pin()),
        ("such as `%20` back into characters, but keeps escapes of characters that have a meaning in a URL (like "
         "`%2F` for `/`) as they are.", lambda: check_decode()),
    ],
}


def check_pin():
    assert load_lesson("micropip-demo").requirements == ("mdurl==0.1.2",)


def check_decode():
    decode_link = reference("micropip-demo", "1").decode_link
    assert decode_link("a%20b") == "a b" and decode_link("a%2Fb") == "a%2Fb"


NUMBER = re.compile(r"(?<![A-Za-z0-9_.])(?:\d+(?:[.,]\d+)*|\.\d+)(?![A-Za-z0-9_])")
_SKIPPED_FENCE = re.compile(r"^(```|~~~)(python|checkpoint)[^\n]*\n.*?^\1[ \t]*$", re.S | re.M)


def _scannable(text: str) -> str:
    """Prose with whitespace collapsed and the fences that state no checked numbers blanked out."""
    return re.sub(r"\s+", " ", _SKIPPED_FENCE.sub(" ", text))


def _numbers(text: str) -> list[str]:
    """The numbers a text states, normalised: decimal commas become points and '.5' becomes '0.5'."""
    out = []
    for raw in NUMBER.findall(text):
        if re.fullmatch(r"\d+,\d+", raw):
            raw = raw.replace(",", ".")
        out.append("0" + raw if raw.startswith(".") else raw)
    return out


def _sections(text: str) -> list[str]:
    return re.split(r"^## ", text, flags=re.M)


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.id)
def test_every_number_in_the_english_prose_is_in_a_checked_passage(lesson):
    text = _scannable(lesson.prose("en"))
    covered = [False] * len(text)
    for passage, _ in PROSE_CLAIMS.get(lesson.id, []):  # a lesson without numbers needs no passage
        start = text.find(passage)
        assert start >= 0, f"prose.en.md of {lesson.id} no longer says: {passage[:90]}..."
        for i in range(start, start + len(passage)):
            covered[i] = True
    unchecked = [(m.group(0), text[max(0, m.start() - 40):m.end() + 20]) for m in NUMBER.finditer(text)
                 if not all(covered[m.start():m.end()])]
    assert unchecked == [], f"numbers in prose.en.md of {lesson.id} that no check covers: {unchecked}"


def _claim_params():
    for lesson_id, passages in PROSE_CLAIMS.items():
        for number, (passage, check) in enumerate(passages):
            yield pytest.param(check, id=f"{lesson_id}-{number:02d}-{check.__name__}")


@pytest.mark.parametrize("check", list(_claim_params()))
def test_what_the_english_prose_states_is_true(check):
    check()


@pytest.mark.parametrize("lesson,lang", [(lesson, lang) for lesson in LESSONS for lang in lesson.languages
                                         if lang != "en"], ids=lambda v: getattr(v, "id", v))
def test_translations_state_the_same_numbers_section_by_section(lesson, lang):
    english = _sections(_scannable(lesson.prose("en")).replace(" ## ", "\n## "))
    other = _sections(_scannable(lesson.prose(lang)).replace(" ## ", "\n## "))
    assert len(other) == len(english), f"prose.{lang}.md has {len(other)} sections, prose.en.md {len(english)}"
    for number, (en_section, section) in enumerate(zip(english, other)):
        assert sorted(_numbers(section)) == sorted(_numbers(en_section)), (
            f"section {number} of prose.{lang}.md states other numbers than prose.en.md: "
            f"{sorted(_numbers(section))} vs {sorted(_numbers(en_section))}")


# ---------------------------------------------------------------- checkpoint markers

@pytest.mark.parametrize("lesson,lang", [(lesson, lang) for lesson in LESSONS for lang in lesson.languages],
                         ids=lambda v: getattr(v, "id", v))
def test_every_checkpoint_has_exactly_one_marker_in_order(lesson, lang):
    ids = [cp.id for cp in lesson.checkpoints]
    source = f"{lesson.folder.name}/prose.{lang}.md"
    assert checkpoint_markers(lesson.prose(lang), source, checkpoints=ids) == ids
    html = render(lesson.prose(lang), source, lang, heading_ids=True, checkpoints=ids)
    assert re.findall(r'<div data-checkpoint-slot="([^"]+)"></div>', html) == ids


# ---------------------------------------------------------------- hints

def _per_language():
    for lesson in LESSONS:
        for cp in lesson.checkpoints:
            for lang in lesson.languages:
                yield pytest.param(lesson, cp, lang, id=f"{lesson.id}-{cp.id}-{lang}")


@pytest.mark.parametrize("lesson,cp,lang", list(_per_language()))
def test_every_checkpoint_has_two_or_three_hints(lesson, cp, lang):
    path = cp.folder / f"hint.{lang}.md"
    assert path.is_file(), f"{path} is missing"
    text = path.read_text(encoding="utf-8")
    hints = split_hints(text, str(path))
    assert 2 <= len(hints) <= 3, f"{path}: {len(hints)} hints"
    html = render(text, str(path), lang)  # rendered as one text, the separators are rules, never headings
    assert html.count("<hr />") == len(hints) - 1 and "<h2" not in html
    assert len(hints[0]) < len("\n".join(hints[1:])) * 2  # the first hint is a nudge, not the whole answer


# ---------------------------------------------------------------- example snippets and task texts

def _first_blocks(text: str):
    """The signature paragraph and the first fenced block of a task text, as markdown-it tokens."""
    from markdown_it import MarkdownIt

    tokens = [t for t in MarkdownIt("commonmark").parse(text) if t.type in ("inline", "fence")]
    return tokens[0], tokens[1]


def _pycon(block: str) -> tuple[list[str], str]:
    """(the source lines without prompts, the output after the last statement) of a console block."""
    source, output = [], []
    for line in block.rstrip("\n").split("\n"):
        if line.startswith((">>> ", "... ")):
            assert not output, "the example block shows output only after its last statement"
            source.append(line[4:])
        else:
            output.append(line)
    return source, "\n".join(output)


def _run_example(solution: str, example: str, filename: str):
    namespace: dict = {"__name__": "__main__"}
    exec(compile(solution, "solution.py", "exec"), namespace)
    tree = ast.parse(example, filename)
    *body, last = tree.body
    exec(compile(ast.Module(body=body, type_ignores=[]), filename, "exec"), namespace)
    return eval(compile(ast.Expression(last.value), filename, "eval"), namespace)


@pytest.mark.parametrize("lesson,cp,lang", list(_per_language()))
def test_example_snippet_gives_what_the_task_shows(lesson, cp, lang):
    path = cp.folder / f"example.{lang}.py"
    assert path.is_file(), f"{path} is missing"
    example = path.read_text(encoding="utf-8")
    tree = ast.parse(example, str(path))
    assert 1 <= len(tree.body) <= 6, "a few lines"
    last = tree.body[-1]
    assert isinstance(last, ast.Expr) and "\n" not in ast.get_source_segment(example, last)
    called = set()
    for node in ast.walk(last):
        if isinstance(node, ast.Call):
            func = node.func
            while isinstance(func, ast.Attribute):
                func = func.value
            if isinstance(func, ast.Name):
                called.add(func.id)
    assert called & set(cp.entry), f"{path}: the last line calls none of {cp.entry}"
    assert not any(isinstance(n, (ast.FunctionDef, ast.ClassDef, ast.Import, ast.ImportFrom)) for n in tree.body)

    signature, block = _first_blocks(cp.task(lang))
    assert all(f"`{name}" in signature.content or f"`{name}." in signature.content for name in cp.entry), \
        f"task.{lang}.md of {lesson.id} {cp.id} does not open with the signatures"
    assert block.type == "fence" and block.info.strip() == "pycon", "the example follows the signatures"
    source, shown = _pycon(block.content)
    assert source == example.rstrip("\n").split("\n"), f"task.{lang}.md shows another snippet than {path.name}"
    assert repr(_run_example(cp.solution(), example, str(path))) == shown


@pytest.mark.parametrize("lesson,cp,lang", list(_per_language()))
def test_task_console_blocks_are_doctests_that_pass(lesson, cp, lang):
    blocks = re.findall(r"^```pycon\n(.*?)^```", cp.task(lang), re.S | re.M)
    assert blocks
    namespace: dict = {"__name__": "__main__"}
    exec(compile(cp.solution(), "solution.py", "exec"), namespace)
    parser, runner = doctest.DocTestParser(), doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for number, block in enumerate(blocks):
        test = parser.get_doctest(block, namespace, f"{lesson.id}-{cp.id}-{lang}-{number}", None, 0)
        test.globs = namespace  # one console session per task text
        result = runner.run(test, clear_globs=False)
        assert result.failed == 0, f"task.{lang}.md of {lesson.id} checkpoint {cp.id}, block {number}"


@pytest.mark.parametrize("lesson,cp,lang", [p for p in _per_language() if p.values[0].id != "micropip-demo"])
def test_task_keeps_its_input_rules_in_a_fold(lesson, cp, lang):
    html = render(cp.task(lang), f"task.{lang}.md", lang)
    folds = re.findall(r'<details class="fold"><summary>.+?</summary>(.*?)</details>', html, re.S)
    assert len(folds) == 1 and "ValueError" in folds[0]
    assert html.index("<details") > html.index('<code class="language-pycon">')


# ---------------------------------------------------------------- starters

@pytest.mark.parametrize("lesson,cp", [(lesson, cp) for lesson in LESSONS if "ar" in lesson.languages
                                       for cp in lesson.checkpoints],
                         ids=lambda v: f"{v.lesson_id}-{v.id}" if hasattr(v, "lesson_id") else v.id)
def test_arabic_starters_hold_code_without_arabic_comments(lesson, cp):
    path = cp.folder / "starter.ar.py"
    source = path.read_text(encoding="utf-8")
    assert not ARABIC.search(source), f"{path}: Arabic text reads scrambled in the left-to-right editor"
    comments = [line.strip() for line in source.splitlines() if line.strip().startswith("#")]
    assert len(comments) <= 2 and all(len(c) <= 80 for c in comments)
    docstring = ast.get_docstring(ast.parse(source)) or ""
    assert "\n" not in docstring


# ---------------------------------------------------------------- words

def _texts(lesson, lang):
    yield f"prose.{lang}.md", lesson.prose(lang)
    for cp in lesson.checkpoints:
        for name in (f"task.{lang}.md", f"hint.{lang}.md", f"example.{lang}.py"):
            path = cp.folder / name
            if path.is_file():
                yield f"{cp.folder.name}/{name}", path.read_text(encoding="utf-8")


DUTCH_DATA = re.compile(r"""["'](blauw|rood|kleur|gewicht|fiets|merk|factuur|storing|vraag|ja|nee|groen|Gazelle|
                            Batavus|Blauw|bibliotheek|zondag|gesloten|zwembad|parkeren|gratis|bezorging|retour|
                            betaling|folder)\b""", re.X)


@pytest.mark.parametrize("lesson", [lesson for lesson in LESSONS if "en" in lesson.languages],
                         ids=lambda lesson: lesson.id)
def test_english_texts_show_english_data(lesson):
    for name, text in _texts(lesson, "en"):
        assert not DUTCH_DATA.search(text), f"{name}: Dutch data {DUTCH_DATA.search(text).group(0)!r}"
    if lesson.id == "claims-abstention":
        assert '"gesloten"' in lesson.prose("nl")  # the Dutch lesson keeps its own data


def test_dutch_texts_say_zich_onthouden():
    lesson = load_lesson("claims-abstention")
    texts = dict(_texts(lesson, "nl"))
    texts["lesson.toml"] = " ".join([lesson.text["nl"].summary, *lesson.text["nl"].goals, *lesson.text["nl"].takeaways])
    for name, text in texts.items():
        words = re.findall(r"\w+", text.lower())
        for i, word in enumerate(words):
            if word in ("onthouden", "onthoudt", "onthoud", "onthield"):
                around = words[max(0, i - 3):i + 4]
                assert "zich" in around or "je" in around, f"{name}: bare {word!r} in {' '.join(around)!r}"


def test_issue_twelve_claims_stay_gone():
    perplexity = load_lesson("perplexity-calibration")
    english = " ".join(text for _, text in _texts(perplexity, "en"))
    arabic = " ".join(text for _, text in _texts(perplexity, "ar"))
    assert "upper bin" not in english and "goes up" not in english and "adaptive" not in english
    assert not re.search(r"\bexponent\b", english)  # "exponential"
    assert "الحاوية *العليا*" not in arabic and "متكيّفة" not in arabic
    assert "الأس الطبيعي" not in arabic
    assert "مصفوفتان عشريتان" in perplexity.prose("ar") and "عددان" not in perplexity.prose("ar")  # arrays
    assert not re.search(r"تشويش|مشوَّش|مشوش", arabic + " ".join(perplexity.text["ar"].takeaways))
    assert "ضجيج" in perplexity.prose("ar")
    for lang in perplexity.languages:  # learning goal 5: the report holds ECE and Brier; perplexity stands apart
        assert "ECE" in perplexity.text[lang].goals[-1] and "Brier" in perplexity.text[lang].goals[-1]
    claims_lesson = load_lesson("claims-abstention")
    assert "not calibrated" not in claims_lesson.prose("en")
    assert "gekalibreerde" not in claims_lesson.prose("nl")
