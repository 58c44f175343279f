"""Shrinking (graders/engine/shrink.py): a failing generated case is shown on the smallest input found that fails the
same way, as Python source that can be copied and run."""

from pathlib import Path

import numpy as np

from graders.engine import shrink, values
from werkbank.grading import grade_source
from werkbank.lessons import load_lesson


def test_candidates_remove_items_together_from_aligned_sequences():
    args = values.encode(([0.1, 0.2, 0.3, 0.4], np.array([True, False, True, True]), [0.5]))
    found = [values.decode(a) for a, _ in shrink.candidates(args, values.encode({}), aligned=[[0, 1]])]
    aligned = [(s, c) for s, c, _ in found if len(s) < 4]
    assert aligned and all(len(s) == len(c) for s, c in aligned)
    assert ([0.1, 0.2], [True, False]) in [(s, c.tolist()) for s, c in aligned]
    assert all(isinstance(c, np.ndarray) for _, c, _ in found)
    assert all(shrink.size(values.encode(f)) < shrink.size(args) for f in found)


def test_an_aligned_group_holding_a_set_or_dict_is_left_whole():
    """A wrong solution may be fed a set or dict where aligned sequences belong; shrinking leaves such a group alone
    (removing items from only some of its members would break the alignment) instead of failing."""
    for odd in ({0.5: 1, 0.7: 2}, {0.5, 0.7}, "ab"):
        args = values.encode((odd, [True, False], [0.5]))
        found = [values.decode(a) for a, _ in shrink.candidates(args, values.encode({}), aligned=[[0, 1]])]
        assert all(f[0] == odd and f[1] == [True, False] for f in found)


def test_a_set_where_an_aligned_list_belongs_gets_a_verdict():
    """A solution that turns a set or dict of scores into a list accepts it; the verdict names that case."""
    reference = load_lesson("claims-abstention").checkpoint("3").solution()
    converts_anything = reference + (
        "\n_checked = risk_coverage_curve\n\n"
        "def risk_coverage_curve(scores, correct, thresholds):\n"
        "    if isinstance(scores, (set, dict)):\n"
        "        scores = list(scores)\n"
        "    return _checked(scores, correct, thresholds)\n"
    )
    verdict = grade_source("claims-abstention", "3", converts_anything)
    assert verdict["status"] == "fail"
    assert verdict["failure"]["case"].startswith(("gen/container-set/", "gen/container-dict/")), verdict["failure"]


def test_candidates_halve_long_strings_and_shrink_nested_lists():
    args = values.encode(([{"k": "x" * 40}, {"k": "y"}],))
    found = [values.decode(a)[0] for a, _ in shrink.candidates(args, values.encode({}))]
    assert [{"k": "y"}] in found and [{"k": "x" * 40}] in found
    assert [{"k": "x" * 20}, {"k": "y"}] in found


#: Knows the no-break space but not the other Unicode whitespace: passes every curated case, fails generated ones.
ALMOST = (Path(__file__).parent / "data" / "wrong" / "claims_1_blank_knows_only_nbsp.py").read_text(encoding="utf-8")


def test_a_failing_generated_case_is_shown_smaller_and_runnable():
    big = grade_source("claims-abstention", "1", ALMOST, shrink_failures=False)
    small = grade_source("claims-abstention", "1", ALMOST)
    assert big["status"] == small["status"] == "fail" and big["failed_cases"] == small["failed_cases"]
    assert all(case.startswith("gen/") for case in big["failed_cases"]), big["failed_cases"]
    before, after = big["failure"], small["failure"]
    assert after["case"] == before["case"] and after["case_label"] == before["case_label"]
    assert after["shrunk"] and not before["shrunk"]
    assert len(after["call_source"]) < len(before["call_source"])
    # the shown call is complete Python: against the learner's code it returns where the reference raises
    namespace = {}
    exec(ALMOST, namespace)
    *setup, call = after["call_source"].splitlines()
    exec("\n".join(setup), namespace)
    assert isinstance(eval(call, namespace), list)
    assert after["expected"].startswith("ValueError")


def test_curated_cases_are_shown_as_written():
    checkpoint = load_lesson("claims-abstention").checkpoint("1")
    source = checkpoint.mistake("sources_sorted_naturally").source()
    verdict = grade_source("claims-abstention", "1", source)
    assert verdict["failure"]["case"] == "sorted-as-sorted-does" and not verdict["failure"]["shrunk"]


# Right on every call made on its own; the index of facts is a global every call adds to. Its first failing case is
# a curated one about something else, whose own explanation and hint would send the learner after the wrong thing.
KEPT = (Path(__file__).parent / "data" / "wrong" / "claims_1_index_kept_between_calls.py").read_text(encoding="utf-8")


def test_a_case_that_passes_on_its_own_is_told_as_a_failure_across_calls():
    told = grade_source("claims-abstention", "1", KEPT)
    plain = grade_source("claims-abstention", "1", KEPT, shrink_failures=False)
    assert told["status"] == plain["status"] == "fail" and told["failed_cases"] == plain["failed_cases"]
    before, after = plain["failure"], told["failure"]
    assert before["kind"] == "wrong_value" and not before.get("alone")
    assert after["case"] == before["case"] and after["call"] == before["call"] and not after["shrunk"]
    assert after["alone"] and after["kind"] == "repeated_calls"
    assert after["reason"].endswith(before["reason"]) and after["reason"].startswith("This call went wrong only after")
    assert "earlier calls" in after["hint"] and after["hint"] != before["hint"]
    # the counts by kind and the list of failing cases tell that case the same way
    counts = lambda verdict: {part["kind"]: part["count"] for part in verdict["summary"]}  # noqa: E731
    assert counts(told)["repeated_calls"] == counts(plain).get("repeated_calls", 0) + 1
    assert counts(told)["wrong_value"] == counts(plain)["wrong_value"] - 1
    assert sum(counts(told).values()) == sum(counts(plain).values()) == len(told["failed_cases"])
    first = next(item for item in told["failing"] if item["case"] == after["case"])
    assert first["kind"] == "repeated_calls"
    # and it is true: the shown call, alone, gives the expected value
    namespace = {}
    exec(KEPT, namespace)
    assert repr(eval(after["call_source"].splitlines()[-1], namespace)) == after["expected"]


def test_a_case_that_fails_on_its_own_too_keeps_its_own_explanation():
    checkpoint = load_lesson("claims-abstention").checkpoint("1")
    source = checkpoint.mistake("sources_sorted_naturally").source()
    verdict = grade_source("claims-abstention", "1", source)
    assert verdict["failure"]["kind"] == "wrong_value" and not verdict["failure"].get("alone")
    shrunk = grade_source("claims-abstention", "1", ALMOST)["failure"]
    assert shrunk["shrunk"] and not shrunk.get("alone")


def test_only_a_failing_case_after_other_calls_is_called_on_its_own():
    key = {"cases": {"a": {}, "b": {}, "gen/r": {"generated": {"family": "repeat"}}}}
    plan = {"cases": [{"id": "a"}, {"id": "b"}, {"id": "gen/r"}]}

    def verdict(case, kind="wrong_value", status="fail"):
        return {"status": status, "failure": {"case": case, "kind": kind}}

    assert shrink.isolatable(key, verdict("b"), plan)
    assert not shrink.isolatable(key, verdict("a"), plan)  # the first case: nothing ran before it
    assert not shrink.isolatable(key, verdict("gen/r"), plan)  # fails only across calls by design
    assert not shrink.isolatable(key, verdict("b", kind="repeated_calls"), plan)
    assert not shrink.isolatable(key, verdict("b", kind="missing"), plan)
    assert not shrink.isolatable(key, verdict("b", status="error"), plan)


def test_all_shrink_rounds_share_one_time_limit(monkeypatch):
    """Code that is slow on every smaller input (here each round takes 0.4 s) delays its verdict by at most the
    checkpoint's time limit (here 1 s), not by a limit per round."""
    import time

    from graders.engine.judge import judge
    from graders.hosts import cpython
    from werkbank import grading

    checkpoint = load_lesson("claims-abstention").checkpoint("1")
    prepared = grading.prepared_checkpoint(checkpoint)
    prepared = {**prepared, "key": {**prepared["key"], "time_limit": 1.0}}
    run = cpython.run(ALMOST, prepared["plan"])
    verdict = judge(prepared, run, "en")
    real, rounds, walls = cpython.run, [], []

    def slow(source, plan, *, time_limit=None, on_output=None, wall=None):
        rounds.append(time_limit)
        walls.append(wall)  # by the clock too: a round that sleeps ends when the limit does
        time.sleep(min(0.4, time_limit))
        return real(source, plan)

    monkeypatch.setattr(cpython, "run", slow)
    start = time.monotonic()
    shrunk = grading.shrink_verdict(checkpoint, prepared, run, verdict, ALMOST, "en")
    took = time.monotonic() - start
    assert shrunk["failure"]["shrunk"]  # the rounds that fit still made the case smaller
    assert 1 <= len(rounds) < shrink.ROUNDS and all(limit <= 1.0 for limit in rounds)
    assert walls == rounds
    assert took < 1.0 + 0.4 + 0.5, (took, rounds)
