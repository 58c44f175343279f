"""What the prose of claims-abstention states, computed (``werkbank check`` runs these; see
werkbank/lesson_checks.py): every number of prose.en.md lies in a passage of PROSE_CLAIMS, whose check computes it
with the reference solutions; CHECKS keep the English texts free of the Dutch example data and the Dutch texts'
wording right."""

import re

import numpy as np

from werkbank.lesson_checks import close, lesson_of, raises, reference


def lesson():
    return lesson_of(__file__)


def claims(cp):
    return reference(__file__, cp)


def check_checkpoint_names(names: dict[str, str]):
    """The prose names each checkpoint's function by the name the checkpoint asks for."""
    for checkpoint_id, name in names.items():
        assert name in lesson().checkpoint(checkpoint_id).entry


FIVE_SCORES, FIVE_LABELS = [.3, .5, .6, .8, .9], [True, True, False, True, True]


MAILS = ["delivery", "return", "payment", "return", "delivery"]


SYSTEM_A = ["delivery", "return", "return", "delivery", "delivery"]


SYSTEM_B = ["delivery", None, "payment", None, "return"]


def _claim(value="closed", **extra):
    return {"entity": "library", "attribute": "sunday", "value": value, **extra}


def check_claim_limits():
    check_checkpoint_names({"1": "claim_support"})
    claim_support = claims("1").claim_support
    fact = _claim(source="website")
    assert len(claim_support([_claim()] * 32, [fact] * 128)) == 32
    for too_many in (([_claim()] * 33, [fact]), ([_claim()], [fact] * 129)):
        with raises(ValueError):
            claim_support(*too_many)
    assert claim_support([_claim("x" * 200)], [])[0]["status"] == "unknown"
    with raises(ValueError):
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
    check_checkpoint_names({"2": "abstention_metrics"})
    metrics = claims("2").abstention_metrics
    assert metrics(["a"], ["a"])["total"] == 1 and metrics(["a"] * 1000, ["a"] * 1000)["total"] == 1000
    for n in (0, 1001):
        with raises(ValueError):
            metrics(["a"] * n, ["a"] * n)
    with raises(ValueError):
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
        with raises(ValueError):
            curve(bad, [True, False], [0.5])
        with raises(ValueError):
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
    headings = re.findall(r"^## (\d+)\. ", lesson().prose("en"), re.M)
    assert headings == [cp.id for cp in lesson().checkpoints]

def _texts(lang):
    yield f"prose.{lang}.md", lesson().prose(lang)
    for cp in lesson().checkpoints:
        for name in (f"task.{lang}.md", f"hint.{lang}.md", f"example.{lang}.py"):
            path = cp.folder / name
            if path.is_file():
                yield f"{cp.folder.name}/{name}", path.read_text(encoding="utf-8")


DUTCH_DATA = re.compile(r"""["'](blauw|rood|kleur|gewicht|fiets|merk|factuur|storing|vraag|ja|nee|groen|Gazelle|
                            Batavus|Blauw|bibliotheek|zondag|gesloten|zwembad|parkeren|gratis|bezorging|retour|
                            betaling|folder)\b""", re.X)


def check_english_texts_show_english_data():
    for name, text in _texts("en"):
        assert not DUTCH_DATA.search(text), f"{name}: Dutch data {DUTCH_DATA.search(text).group(0)!r}"
    assert '"gesloten"' in lesson().prose("nl")  # the Dutch lesson keeps its own data


def check_dutch_texts_say_zich_onthouden():
    texts = dict(_texts("nl"))
    nl = lesson().text["nl"]
    texts["lesson.toml"] = " ".join([nl.summary, *nl.goals, *nl.takeaways])
    for name, text in texts.items():
        words = re.findall(r"\w+", text.lower())
        for i, word in enumerate(words):
            if word in ("onthouden", "onthoudt", "onthoud", "onthield"):
                around = words[max(0, i - 3):i + 4]
                assert "zich" in around or "je" in around, f"{name}: bare {word!r} in {' '.join(around)!r}"


def check_review_claims_stay_gone():
    """False claims a review of the texts found stay gone (issue 12)."""
    assert "not calibrated" not in lesson().prose("en")
    assert "gekalibreerde" not in lesson().prose("nl")


PROSE_CLAIMS = [
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
        ("For checkpoint 3 you write `risk_coverage_curve`", lambda: check_checkpoint_names({"3": "risk_coverage_curve"})),
        ("A risk of 0 % on 2 answers says far less than on 2000", check_small_counts),
    ]

CHECKS = [check_english_texts_show_english_data, check_dutch_texts_say_zich_onthouden, check_review_claims_stay_gone]
