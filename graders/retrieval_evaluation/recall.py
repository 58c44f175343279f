"""Hidden grader: retrieval-evaluation, checkpoint 1 (recall_at_k)."""

from graders.engine.domain import Domain, Integer, Param, Seq
from graders.retrieval_evaluation.common import DOC, builders

RANDOM_CASES = 25
DOMAIN = Domain(
    "recall_at_k",
    (
        Param("ranking", Seq(DOC, unique=True)),
        Param("relevant", Seq(DOC, min_len=1, unique=True)),
        Param("k", Integer(lo=1)),
    ),
)

case, invalid = builders("recall_at_k")
RANKING = ["d3", "d1", "d7", "d2", "d9"]
RELEVANT = ["d1", "d2", "d4"]


def curated():
    yield case(
        "worked-example",
        (RANKING, RELEVANT, 3),
        "The lesson's example: of the relevant d1, d2 and d4 only d1 is in the first three places: 1/3.",
        "Het voorbeeld uit de les: van de relevante d1, d2 en d4 staat alleen d1 op de eerste drie plaatsen: 1/3.",
        hint={
            "en": "Divide by the number of relevant documents, not by k.",
            "nl": "Deel door het aantal relevante documenten, niet door k.",
        },
    )
    yield case(
        "k-five",
        (RANKING, RELEVANT, 5),
        "With the cutoff k = 5, d1 and d2 are found: 2 of the 3 relevant documents, so 2/3 (not 2/5: that is "
        "precision).",
        "Met grens k = 5 worden d1 en d2 gevonden: 2 van de 3 relevante documenten, dus 2/3 (niet 2/5: dat is "
        "precisie).",
    )
    yield case(
        "k-past-the-end",
        (RANKING, RELEVANT, 10),
        "The cutoff k = 10 is larger than the length of the ranking: all five places count, so 2/3.",
        "De grens k = 10 is groter dan de lengte van de ranking: alle vijf plaatsen tellen, dus 2/3.",
    )
    yield case(
        "k-one",
        (RANKING, ["d3"], 1),
        "k = 1 looks at the first place only; d3 is there, so everything relevant is found: 1.0, a float.",
        "k = 1 kijkt alleen naar de eerste plaats; daar staat d3, dus alles wat relevant is, is gevonden: 1.0, "
        "een float.",
    )
    yield case(
        "nothing-found",
        (RANKING, ["d8"], 5),
        "The one relevant document d8 is not in the ranking at all: 0.0.",
        "Het enige relevante document d8 staat helemaal niet in de ranking: 0.0.",
    )
    yield case(
        "unranked-relevant-counts",
        (["d1", "d2"], ["d1", "d5", "d6", "d7"], 2),
        "Relevant documents the system never returned still count in the denominator: 1 of 4, so 0.25.",
        "Relevante documenten die het systeem nooit teruggaf, tellen mee in de noemer: 1 van 4, dus 0,25.",
    )
    yield case(
        "empty-ranking",
        ([], ["d1"], 3),
        "A system that returns nothing finds nothing: 0.0.",
        "Een systeem dat niets teruggeeft, vindt niets: 0.0.",
    )
    yield case(
        "exact-ids",
        (["D1", "d1 "], ["d1"], 2),
        "Ids are compared exactly: 'D1' and 'd1 ' are other documents than 'd1', so 0.0.",
        "Ids worden precies vergeleken: 'D1' en 'd1 ' zijn andere documenten dan 'd1', dus 0.0.",
    )
    yield case(
        "exact-unicode-forms",
        (["\ufb01le", "cafe\u0301"], ["file", "caf\u00e9"], 2),
        "Ids that only look alike are other documents: the ligature 'ﬁ' is not 'fi', and 'e' with a combining accent "
        "is not 'é' (no normalisation), so 0.0.",
        "Ids die alleen op elkaar lijken zijn andere documenten: de ligatuur 'ﬁ' is geen 'fi', en 'e' met een los "
        "accent is geen 'é' (niet normaliseren), dus 0.0.",
    )
    yield case(
        "all-ranked-k-one",
        (["d2", "d1"], ["d1", "d2"], 1),
        "Every relevant document is ranked, in another order, but k = 1 looks at the first place only: 1 of 2, so 0.5.",
        "Elk relevant document staat in de ranking, in een andere volgorde, maar k = 1 kijkt alleen naar de eerste "
        "plaats: 1 van 2, dus 0.5.",
    )
    yield case(
        "k-is-the-length",
        (["d4", "d5", "d1"], ["d1"], 3),
        "k = 3 is exactly the length of the ranking: the last place counts too, so d1 is found: 1.0.",
        "k = 3 is precies de lengte van de ranking: de laatste plaats telt ook mee, dus d1 is gevonden: 1.0.",
    )
    yield invalid(
        "no-relevant",
        (RANKING, [], 3),
        "Without relevant documents recall is not defined (0 / 0).",
        "Zonder relevante documenten is recall niet gedefinieerd (0 / 0).",
    )
    yield invalid(
        "k-zero", (RANKING, RELEVANT, 0), "k = 0 looks at no place at all.", "k = 0 kijkt naar geen enkele plaats."
    )
    yield invalid(
        "k-bool",
        (RANKING, RELEVANT, True),
        "k = True is a bool, not an int of at least 1.",
        "k = True is een bool, geen int van minstens 1.",
    )
    yield invalid(
        "k-float", (RANKING, RELEVANT, 3.0), "k = 3.0 is a float, not an int.", "k = 3.0 is een float, geen int."
    )
    yield invalid(
        "duplicate-in-ranking",
        (["d1", "d2", "d1"], ["d1"], 3),
        "A ranking names every document once; d1 appears twice.",
        "Een ranking noemt elk document één keer; d1 staat er twee keer in.",
    )
    yield invalid(
        "duplicate-in-relevant",
        (RANKING, ["d1", "d1"], 3),
        "The relevance judgement names d1 twice.",
        "Het relevantieoordeel noemt d1 twee keer.",
    )
    yield invalid(
        "blank-id", (["d1", "  "], ["d1"], 2), "'  ' is blank: not a document id.", "'  ' is leeg: geen document-id."
    )
    yield invalid(
        "tuple-ranking",
        (tuple(RANKING), RELEVANT, 3),
        "The ranking is a tuple, not a list.",
        "De ranking is een tuple, geen list.",
    )
