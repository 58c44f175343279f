"""What the prose of perplexity-calibration states, computed (``werkbank check`` runs these; see
werkbank/lesson_checks.py): every number of prose.en.md lies in a passage of PROSE_CLAIMS, whose check computes it
with the reference solutions or plain numpy."""

import importlib
import math
import re

import numpy as np

from werkbank.lesson_checks import close, lesson_of, raises, reference


def lesson():
    return lesson_of(__file__)


def ppl(cp="3"):
    return reference(__file__, cp)


def check_checkpoint_names(names: dict[str, str]):
    """The prose names each checkpoint's function by the name the checkpoint asks for."""
    for checkpoint_id, name in names.items():
        assert name in lesson().checkpoint(checkpoint_id).entry


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
    with raises(ValueError, match="minus sign"):
        ppl("1").PerplexityResult.from_token_nll([-3.0], [2])


def check_zero_tokens():
    """No tokens: perplexity nan (not exp(0) = 1), mean NLL 0.0 and total_tokens 0. That upstream's code reports the
    same is proven by test_upstreams_main_passes_every_case (the grader's zero-token cases)."""
    assert math.exp(0) == 1
    for args in (([], []), ([0.0, 0.0], [0, 0])):
        result = ppl("1").PerplexityResult.from_token_nll(*args)
        assert math.isnan(result.perplexity) and result.avg_neg_log_likelihood == 0.0 and result.total_tokens == 0
    grader = importlib.import_module(lesson().checkpoint("1").grader)
    assert {"zero-tokens", "zero-token-counts"} <= {case.id for case in grader.curated()}


def check_checks_before_zero_tokens():
    """A negative NLL sum or count, or unequal lengths, raise even when the total number of tokens is 0."""
    for args in (([-1.0], [0]), ([1.0, 1.0], [-1, 1]), ([], [0]), ([0.0], [])):
        assert sum(args[1]) == 0
        with raises(ValueError):
            ppl("1").PerplexityResult.from_token_nll(*args)


def check_outcome_contract():
    ece = ppl().expected_calibration_error
    assert ece([0.0, 1.0], [0, 1]) == (0.0, 2)
    for bad in ([1.5], [-0.1]):
        with raises(ValueError):
            ece(bad, [1])
    with raises(ValueError):
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
    sources = " ".join(lesson().text["en"].sources)
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
    with raises(ValueError):
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
    with raises(ValueError):
        ppl().expected_calibration_error([], [], bins=0)
    with raises(ValueError):
        ppl().reliability_diagram([], [], bins=0)
    with raises(ValueError):
        ppl("1").perplexity([-1.0], [0])
    check_checkpoint_names({"1": "perplexity"})


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

def _texts(lang):
    yield f"prose.{lang}.md", lesson().prose(lang)
    for cp in lesson().checkpoints:
        for name in (f"task.{lang}.md", f"hint.{lang}.md", f"example.{lang}.py"):
            path = cp.folder / name
            if path.is_file():
                yield f"{cp.folder.name}/{name}", path.read_text(encoding="utf-8")


def check_review_claims_stay_gone():
    """False or clumsy claims a review of the texts found stay gone (issue 12)."""
    english = " ".join(text for _, text in _texts("en"))
    arabic = " ".join(text for _, text in _texts("ar"))
    assert "upper bin" not in english and "goes up" not in english and "adaptive" not in english
    assert not re.search(r"\bexponent\b", english)  # "exponential"
    assert "الحاوية *العليا*" not in arabic and "متكيّفة" not in arabic
    assert "الأس الطبيعي" not in arabic
    assert "مصفوفتان عشريتان" in lesson().prose("ar") and "عددان" not in lesson().prose("ar")  # arrays
    assert not re.search(r"تشويش|مشوَّش|مشوش", arabic + " ".join(lesson().text["ar"].takeaways))
    assert "ضجيج" in lesson().prose("ar")
    for lang in lesson().languages:  # learning goal 5: the report holds ECE and Brier; perplexity stands apart
        assert "ECE" in lesson().text[lang].goals[-1] and "Brier" in lesson().text[lang].goals[-1]


PROSE_CLAIMS = [
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
    ]

CHECKS = [check_review_claims_stay_gone]
