"""Hidden grader: retrieval-evaluation, checkpoint 2 (mean_reciprocal_rank)."""

from graders.engine.domain import Domain, Param, Seq
from graders.retrieval_evaluation.common import DOC, builders

RANDOM_CASES = 25
DOMAIN = Domain(
    "mean_reciprocal_rank",
    (
        Param("rankings", Seq(Seq(DOC, unique=True), min_len=1)),
        Param("relevant", Seq(Seq(DOC, min_len=1, unique=True), min_len=1)),
    ),
    aligned=(("rankings", "relevant"),),
    abs_tol=0.0,  # a mean of reciprocal places: no cancellation, and small for long rankings (see rank_fusion)
)

case, invalid = builders("mean_reciprocal_rank")
RANKINGS = [["d3", "d1", "d7"], ["d2", "d5"], ["d4", "d6", "d8"]]
RELEVANT = [["d1"], ["d2", "d9"], ["d0"]]


def curated():
    yield case(
        "worked-example",
        (RANKINGS, RELEVANT),
        "The lesson's example: the first relevant documents are at places 2, 1 and nowhere: (1/2 + 1 + 0) / 3 = 0.5.",
        "Het voorbeeld uit de les: de eerste relevante documenten staan op plaats 2, 1 en nergens: "
        "(1/2 + 1 + 0) / 3 = 0,5.",
        hint={
            "en": "A query with no relevant document in its ranking scores 0 and still counts in the mean.",
            "nl": "Een vraag zonder relevant document in de ranking scoort 0 en telt toch mee in het gemiddelde.",
        },
    )
    yield case(
        "first-relevant-counts",
        ([["d5", "d2", "d3"]], [["d3", "d2"]]),
        "d2 (place 2) and d3 (place 3) are both relevant; only the first one found counts: 1/2.",
        "d2 (plaats 2) en d3 (plaats 3) zijn allebei relevant; alleen de eerste telt: 1/2.",
    )
    yield case(
        "places-count-from-one",
        ([["d1", "d2"]], [["d1"]]),
        "The relevant document is at the very first place: 1/1 = 1.0.",
        "Het relevante document staat op de allereerste plaats: 1/1 = 1.0.",
    )
    yield case(
        "same-ranking-other-relevant",
        ([["a", "b"], ["a", "b"]], [["a"], ["b"]]),
        "Two queries with the same ranking, each judged against its own relevant documents: a at place 1 for the "
        "first, b at place 2 for the second: (1 + 1/2) / 2 = 0.75.",
        "Twee vragen met dezelfde ranking, elk beoordeeld tegen de eigen relevante documenten: a op plaats 1 voor de "
        "eerste, b op plaats 2 voor de tweede: (1 + 1/2) / 2 = 0,75.",
    )
    yield case(
        "all-miss",
        ([["d1"], ["d2"]], [["d3"], ["d4"]]),
        "No ranking holds a relevant document: 0.0.",
        "Geen ranking bevat een relevant document: 0.0.",
    )
    yield case(
        "deep-hit",
        ([["a", "b", "c", "d", "e", "f", "g", "h", "i", "j"]], [["j"]]),
        "The only relevant document is at place 10: 1/10 = 0.1.",
        "Het enige relevante document staat op plaats 10: 1/10 = 0,1.",
    )
    yield case(
        "empty-ranking",
        ([[], ["d1"]], [["d1"], ["d1"]]),
        "The first query returned nothing (0), the second found d1 at once (1): 0.5.",
        "De eerste vraag gaf niets terug (0), de tweede vond d1 meteen (1): 0,5.",
    )
    yield invalid(
        "no-queries",
        ([], []),
        "The mean over no queries is not defined.",
        "Het gemiddelde over geen enkele vraag is niet gedefinieerd.",
    )
    yield invalid(
        "length-mismatch",
        (RANKINGS, RELEVANT[:2]),
        "Three rankings but two relevance judgements: every query needs both.",
        "Drie rankings maar twee relevantieoordelen: elke vraag heeft beide nodig.",
    )
    yield invalid(
        "empty-judgement",
        ([["d1"]], [[]]),
        "A query without relevant documents cannot be scored.",
        "Een vraag zonder relevante documenten kan geen score krijgen.",
    )
    yield invalid(
        "duplicate-in-ranking",
        ([["d1", "d1"]], [["d1"]]),
        "A ranking names d1 twice.",
        "Een ranking noemt d1 twee keer.",
    )
    yield invalid(
        "flat-lists",
        (["d1", "d2"], ["d1", "d2"]),
        "rankings must hold one list per query, not document ids.",
        "rankings moet per vraag een lijst bevatten, geen document-ids.",
    )
