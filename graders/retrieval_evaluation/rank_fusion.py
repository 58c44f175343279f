"""Hidden grader: retrieval-evaluation, checkpoint 3 (reciprocal_rank_fusion)."""

from graders.engine.domain import Domain, Integer, Param, Seq
from graders.retrieval_evaluation.common import DOC, builders

RANDOM_CASES = 25
PLOT_CASE = "worked-example"  # web/src/figures/fusion_recall.js draws it (PLOT_QUERY holds the same rankings)
DOMAIN = Domain(
    "reciprocal_rank_fusion",
    (Param("rankings", Seq(Seq(DOC, unique=True))), Param("k", Integer(lo=0), has_default=True)),
    skip=("huge-int",),  # a k no float can hold: the task leaves it open (1.0 / (k + place) raises OverflowError)
    # scores are sums of positive terms, below 1e-12 for a large k: only a relative tolerance tells them apart (a
    # score returned as round(score, 12), the tie rule's rounding, is off by up to 5e-13)
    abs_tol=0.0,
)

case, invalid = builders("reciprocal_rank_fusion")
BM25 = ["a", "b", "c"]
DENSE = ["b", "c", "d"]


def curated():
    yield case(
        "worked-example",
        ([BM25, DENSE], 60),
        "The lesson's example: b is at places 2 and 1 (1/62 + 1/61), c at 3 and 2, a only at 1, d only at 3. "
        "Order: b, c, a, d.",
        "Het voorbeeld uit de les: b staat op plaats 2 en 1 (1/62 + 1/61), c op 3 en 2, a alleen op 1, d alleen "
        "op 3. Volgorde: b, c, a, d.",
        hint={
            "en": "Every ranking adds 1 / (k + place) to each document in it; places count from 1.",
            "nl": "Elke ranking telt 1 / (k + plaats) op bij elk document erin; plaatsen tellen vanaf 1.",
        },
    )
    yield case(
        "default-k",
        ([BM25, DENSE],),
        "Without k, the RRF constant k is 60: the same result as the worked example.",
        "Zonder k is de RRF-constante k gelijk aan 60: hetzelfde resultaat als het uitgewerkte voorbeeld.",
    )
    yield case(
        "k-zero",
        ([BM25, DENSE], 0),
        "With the RRF constant k = 0 the first place is worth 1, the second 1/2: b scores 1.5 and c 5/6.",
        "Met RRF-constante k = 0 is de eerste plaats 1 waard, de tweede 1/2: b scoort 1,5 en c 5/6.",
    )
    yield case(
        "tie-by-id",
        ([["y", "x"], ["x", "y"]], 60),
        "x and y both score 1/61 + 1/62: equal scores are ordered by id, x before y.",
        "x en y scoren allebei 1/61 + 1/62: gelijke scores staan op id-volgorde, x vóór y.",
    )
    yield case(
        "three-way-tie",
        ([["a", "b", "c"], ["b", "c", "a"], ["c", "a", "b"]], 60),
        "Each document is once at place 1, 2 and 3: equal scores (to 12 decimals), so a, b, c.",
        "Elk document staat één keer op plaats 1, 2 en 3: gelijke scores (op 12 decimalen), dus a, b, c.",
    )
    yield case(
        "rounding-large-k",
        ([["b", "a"]], 1_000_000),
        "With k = 1000000 the two scores differ by about 1e-12: still different at 12 decimals, so b, then a.",
        "Met k = 1000000 verschillen de twee scores ongeveer 1e-12: op 12 decimalen nog verschillend, dus b, dan a.",
    )
    yield case(
        "rounding-larger-k",
        ([["b", "a"]], 3_000_000),
        "With k = 3000000 the scores differ by about 1e-13: equal at 12 decimals, so the ids decide: a, then b.",
        "Met k = 3000000 verschillen de scores ongeveer 1e-13: gelijk op 12 decimalen, dus beslissen de ids: a, dan b.",
    )
    yield case(
        "single-ranking",
        ([["q", "p", "r"]], 60),
        "One ranking keeps its own order: q, p, r.",
        "Eén ranking houdt zijn eigen volgorde: q, p, r.",
    )
    yield case("no-rankings", ([], 60), "Nothing to fuse: an empty list.", "Niets samen te voegen: een lege lijst.")
    yield case(
        "empty-ranking",
        ([[], ["a"]], 60),
        "An empty ranking adds nothing: only a, with 1/61.",
        "Een lege ranking voegt niets toe: alleen a, met 1/61.",
    )
    yield invalid("k-negative", ([BM25], -1), "k = -1 is below 0.", "k = -1 is kleiner dan 0.")
    yield invalid("k-bool", ([BM25], False), "k = False is a bool, not an int.", "k = False is een bool, geen int.")
    yield invalid("k-float", ([BM25], 60.0), "k = 60.0 is a float, not an int.", "k = 60.0 is een float, geen int.")
    yield invalid(
        "duplicate-in-ranking", ([["a", "b", "a"]], 60), "One ranking names a twice.", "Eén ranking noemt a twee keer."
    )
    yield invalid("blank-id", ([["a", ""]], 60), "'' is not a document id.", "'' is geen document-id.")
    yield invalid(
        "tuple-ranking", ([("a", "b")], 60), "A ranking is a tuple, not a list.", "Een ranking is een tuple, geen list."
    )
