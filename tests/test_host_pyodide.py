"""graders/hosts/pyodide.py, the workers' entry points, exercised in CPython with a real lesson bundle."""

import gc
from pathlib import Path
import json
import sys
import types

from graders.hosts import pyodide as bridge
from graders.hosts import pyodide_grader as grader_host
from werkbank.grading import grade_source
from werkbank.build import lesson_grading
from werkbank.lessons import load_lesson

WRONG = "def decode_link(text):\n    return text\n"


def _bundle():
    return json.dumps(lesson_grading(load_lesson("micropip-demo"), []))


def _prepare(bundle_json, checkpoint, seed):
    """The grader worker's steps: load the lesson's bundle, prepare a checkpoint (the learner worker only runs)."""
    lesson_id = json.loads(bundle_json)["lesson"]
    grader_host.load_lesson(bundle_json)
    return grader_host.prepare(lesson_id, checkpoint, seed)


def _grade(source, seed=0, lang="en"):
    prepared = _prepare(_bundle(), "1", seed)
    plan = json.dumps(json.loads(prepared)["plan"])
    run = bridge.run(source, plan, None)
    return json.loads(grader_host.judge(json.dumps(json.loads(prepared).get("key", json.loads(prepared))), run, lang))


def test_the_learner_host_holds_no_grading_code():
    """graders.hosts.pyodide (the learner workers' module) can only run code: no prepare, judge or importer."""
    assert not [name for name in ("prepare", "judge", "plot", "_MemoryImporter") if hasattr(bridge, name)]


def test_bridge_verdicts_equal_the_cli_verdicts():
    reference = load_lesson("micropip-demo").checkpoint("1").solution()
    for source in (reference, WRONG):
        ours = _grade(source, lang="nl")
        cli = grade_source("micropip-demo", "1", source, lang="nl")
        for key in ("status", "passed", "total", "failure", "failed_cases", "message"):
            assert ours[key] == cli[key], key
    assert _grade(reference)["status"] == "pass"
    assert _grade(WRONG)["status"] == "fail"


def test_run_mode_streams_output_in_batches():
    seen = []
    result = json.loads(bridge.run("for i in range(3):\n    print(i)\n", '{"mode": "run"}',
                                   lambda stream, text: seen.append((stream, text))))
    assert result["stdout"] == "0\n1\n2\n"
    assert "".join(text for _, text in seen) == "0\n1\n2\n"


def test_a_broken_bundle_is_an_author_error():
    bundle = json.loads(_bundle())
    bundle["solutions"]["1"] = "def decode_link(text):\n    raise TypeError('bug')\n"
    bundle["lesson"] = "micropip-demo-broken"
    prepared = _prepare(json.dumps(bundle), "1", 0)
    verdict = json.loads(grader_host.judge(prepared, '{"status": "ok", "outcomes": []}', "en"))
    assert verdict["status"] == "author_error"


def test_judge_needs_only_the_key():
    reference = load_lesson("micropip-demo").checkpoint("1").solution()
    prepared = json.loads(_prepare(_bundle(), "1", 0))
    run = bridge.run(reference, json.dumps(prepared["plan"]), None)
    verdict = json.loads(grader_host.judge(json.dumps(prepared["key"]), run, "en"))
    assert verdict["status"] == "pass" and verdict["total"] == len(prepared["plan"]["cases"])


def test_a_run_can_call_the_plot_case_and_get_the_plot_data():
    from werkbank.build import lesson_grading

    bundle = json.dumps(lesson_grading(load_lesson("perplexity-calibration"), []))
    prepared = json.loads(_prepare(bundle, "3", 0))
    plot_case = prepared["key"]["plot"]["case"]
    case = next(c for c in prepared["plan"]["cases"] if c["id"] == plot_case)
    source = load_lesson("perplexity-calibration").checkpoint("3").solution() + "\nprint('demo')\n"
    plan = {"mode": "run", "cases": [case], "attrs": prepared["plan"]["attrs"]}
    run = bridge.run(source, json.dumps(plan), None)
    assert json.loads(run)["stdout"] == "demo\n"
    plot = json.loads(grader_host.plot(json.dumps(prepared["key"]), run))
    assert plot["kind"] == "reliability"
    assert plot["actual"] == plot["expected"] and len(plot["expected"]) == 3  # plain lists: conf, acc, count
    assert all(isinstance(v, (int, float)) for series in plot["expected"] for v in series)
    broken = json.loads(grader_host.plot(json.dumps(prepared["key"]), bridge.run("x = 1\n", json.dumps(plan), None)))
    assert broken["actual"] is None and broken["expected"] == plot["expected"]


def test_grader_worker_entry_points_give_the_cli_verdicts_for_every_lesson():
    """The grader role (load_lesson, prepare, judge) and the learner role (run) give the CLI's verdicts."""
    from graders.hosts import pyodide_grader as grader

    for lesson_id, cp in (("claims-abstention", "1"), ("perplexity-calibration", "2")):
        lesson = load_lesson(lesson_id)
        loaded = json.loads(grader.load_lesson(json.dumps(lesson_grading(lesson, []))))
        assert loaded["lesson"] == lesson_id and cp in loaded["checkpoints"]
        checkpoint = lesson.checkpoint(cp)
        prepared = json.loads(grader.prepare(lesson_id, cp, 3))
        assert set(prepared) == {"plan", "key"} and "expected" not in prepared["plan"]
        assert all(set(case) <= {"id", "call", "args", "kwargs", "json", "refill"} for case in prepared["plan"]["cases"])
        for source in (checkpoint.solution(), checkpoint.starter("en")):
            run = bridge.run(source, json.dumps(prepared["plan"]), None)
            ours = json.loads(grader.judge(json.dumps(prepared["key"]), run, "en"))
            cli = grade_source(lesson_id, cp, source, seed=3, mode="sample")
            assert (ours["status"], ours["passed"], ours["failed_cases"]) == \
                   (cli["status"], cli["passed"], cli["failed_cases"])


def test_grader_worker_reports_unknown_checkpoints_and_garbled_runs():
    from graders.hosts import pyodide_grader as grader

    grader.load_lesson(json.dumps(lesson_grading(load_lesson("micropip-demo"), [])))
    assert "author_error" in json.loads(grader.prepare("micropip-demo", "9", 0))
    prepared = json.loads(grader.prepare("micropip-demo", "1", 0))
    verdict = json.loads(grader.judge(json.dumps(prepared["key"]), "not json", "en"))
    assert verdict["status"] == "error" and verdict["passed"] == 0


def test_grader_worker_shrinks_like_the_cli():
    """shrink_start / shrink_round / shrink_pick give the same smaller failing call as werkbank.grading."""
    from graders.hosts import pyodide_grader as grader
    ALMOST = (Path(__file__).parent / "data" / "wrong" / "claims_1_blank_knows_only_nbsp.py").read_text(encoding="utf-8")

    lesson = load_lesson("claims-abstention")
    grader.load_lesson(json.dumps(lesson_grading(lesson, [])))
    prepared = json.loads(grader.prepare("claims-abstention", "1", 0, "en", "full"))
    run = bridge.run(ALMOST, json.dumps(prepared["plan"]), None)
    verdict = grader.judge(json.dumps(prepared["key"]), run, "en")
    state = grader.shrink_start(json.dumps(prepared["key"]), json.dumps(prepared["plan"]), run, verdict)
    assert state != "null"
    while state != "null":
        round_prepared = grader.shrink_round("claims-abstention", "1", state)
        if round_prepared == "null":
            break
        round_run = bridge.run(ALMOST, json.dumps(json.loads(round_prepared)["plan"]), None)
        picked = json.loads(grader.shrink_pick(round_prepared, round_run, verdict, state, "en"))
        verdict, state = json.dumps(picked["verdict"]), json.dumps(picked["state"])
    ours = json.loads(verdict)["failure"]
    cli = grade_source("claims-abstention", "1", ALMOST)["failure"]
    assert ours["shrunk"] and ours["call_source"] == cli["call_source"] and ours["case"] == cli["case"]


def test_a_failure_that_matches_a_declared_mistake_carries_its_feedback():
    """Like futurecoder's message steps: the mistake's program runs on the trusted side, and a learner who fails a case
    exactly as it does reads the mistake's feedback, in the grader worker as on the command line."""
    from graders.hosts import pyodide_grader as grader

    lesson = load_lesson("retrieval-evaluation")
    checkpoint = lesson.checkpoint("1")
    mistake = next(m for m in checkpoint.mistakes() if m.feedback)
    grader.load_lesson(json.dumps(lesson_grading(lesson, [])))
    prepared = json.loads(grader.prepare(lesson.id, "1", 0, "nl", "sample"))
    run = bridge.run(mistake.source(), json.dumps(prepared["plan"]), None)
    ours = json.loads(grader.judge(json.dumps(prepared["key"]), run, "nl"))["failure"]
    cli = grade_source(lesson.id, "1", mistake.source(), lang="nl")["failure"]
    assert ours["mistake"] == cli["mistake"] == mistake.name
    assert ours["feedback"] == cli["feedback"] == mistake.feedback["nl"]
    # a wrong program that fails differently gets no such feedback
    other = grade_source(lesson.id, "1", "def recall_at_k(*args):\n    return 'no'\n", lang="nl")["failure"]
    assert "feedback" not in other
