"""What the prose of retrieval-evaluation states, computed (``werkbank check`` runs these; see
werkbank/lesson_checks.py): every number of prose.en.md lies in a passage of PROSE_CLAIMS, whose check computes it
with the reference solutions (and, for the figure's caption, with the figure's own data)."""

from functools import lru_cache

from werkbank.lesson_checks import REPO, close, lesson_of, reference


def lesson():
    return lesson_of(__file__)


def _retrieval(checkpoint_id: str, name: str):
    return getattr(reference(__file__, checkpoint_id), name)


def check_checkpoint_names(names: dict[str, str]):
    """The prose names each checkpoint's function by the name the checkpoint asks for."""
    for checkpoint_id, name in names.items():
        assert name in lesson().checkpoint(checkpoint_id).entry


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

PROSE_CLAIMS = [
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
        ("After a Run or a Check of checkpoint 3", lambda: check_checkpoint_names({"3": "reciprocal_rank_fusion"})),
    ]
