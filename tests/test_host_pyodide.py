"""graders/hosts/pyodide.py, the workers' entry points, exercised in CPython with a real lesson bundle."""

from pathlib import Path
import gc
import json
import sys

import pytest

from graders.hosts import pyodide as bridge
from graders.hosts import pyodide_grader as grader_host
from werkbank.grading import grade_source
from werkbank.build import lesson_grading
from werkbank.lessons import load_lesson

WRONG = "def decode_link(text):\n    return text\n"


def _bundle():
    return json.dumps(lesson_grading(load_lesson("micropip-demo"), []))


def _prepare(bundle_json, checkpoint, seed=0, lang="en"):
    """The grader worker's steps: load the lesson's bundle, prepare a checkpoint (the learner worker only runs).
    Returns what the page gets: ``{"ref", "plan", "plot_case", "time_limit"}`` or ``{"ref", "author_error"}``."""
    lesson_id = json.loads(bundle_json)["lesson"]
    grader_host.load_lesson(bundle_json)
    return json.loads(grader_host.prepare(lesson_id, checkpoint, lang, seed))


def _run(source, plan) -> str:
    """The run JSON of ``source`` under ``plan`` (a dict) through the learner worker's entry point."""
    return bridge.run_encoded(source, json.dumps(plan).encode("utf-8")).decode("utf-8")


def _grade(source, seed=0, lang="en"):
    view = _prepare(_bundle(), "1", seed)
    run = _run(source, view["plan"])
    return json.loads(grader_host.judge(view["ref"], run, lang))


def test_the_learner_host_holds_no_grading_code():
    """graders.hosts.pyodide (the learner workers' module) can only run code: no prepare, judge or importer."""
    assert not [name for name in ("prepare", "judge", "plot", "_MemoryImporter") if hasattr(bridge, name)]


def test_bridge_verdicts_equal_the_cli_verdicts():
    reference = load_lesson("micropip-demo").checkpoint("1").solution()
    for source in (reference, WRONG):
        ours = _grade(source, lang="nl")
        cli = grade_source("micropip-demo", "1", source, lang="nl")
        for key in (
            "status",
            "passed",
            "total",
            "failure",
            "failed_cases",
            "message",
            "summary",
            "summary_text",
            "failing",
        ):
            assert ours.get(key) == cli.get(key), key
    assert _grade(reference)["status"] == "pass"
    assert _grade(WRONG)["status"] == "fail"


def test_run_mode_streams_output_in_batches():
    seen = []
    result = bridge.run(
        "for i in range(3):\n    print(i)\n",
        {"mode": "run"},
        on_output=lambda stream, text: seen.append((stream, text)),
    )
    assert result["stdout"] == "0\n1\n2\n"
    assert "".join(text for _, text in seen) == "0\n1\n2\n"


def test_run_encoded_is_run_with_utf8_bytes_in_and_out():
    """The worker's entry point: the same run JSON as ``run``, for a plan given as bytes or as a buffer with
    ``to_bytes`` (what a Uint8Array is in Pyodide), and with text outside ASCII intact both ways."""
    source = "def f(x):\n    return x + 'ë'\nprint('ö')\n"
    plan = json.dumps(
        {"mode": "check", "attrs": {}, "time_limit": 5, "cases": [{"id": "a", "call": "f", "json": '[["ä"],{}]'}]}
    )

    class Buffer:  # a JsProxy of a Uint8Array, as far as run_encoded is concerned
        def __init__(self, data):
            self.data = data

        def to_bytes(self):
            return self.data

    plain = json.loads(json.dumps(bridge.run(source, json.loads(plan))))
    assert plain["outcomes"][0]["value"] == ["str", "äë"]
    for given in (plan.encode(), Buffer(plan.encode())):
        out = bridge.run_encoded(source, given)
        assert isinstance(out, bytes)
        assert json.loads(out.decode("utf-8")) == plain


def test_a_plan_kept_ahead_runs_as_its_bytes_do_and_is_frozen_before_learner_code():
    """The worker parses a Check's plan while it waits in the pool (KEEP): run with that object, a Check's run JSON
    is the one its bytes give, for a passing and a failing source. Keeping a plan freezes what the interpreter holds,
    the plan with it, so the collections a run's objects set off never walk it; a plan run as bytes freezes nothing
    (``werkbank check`` runs many in one interpreter)."""
    reference = load_lesson("micropip-demo").checkpoint("1").solution()
    plan = json.dumps(_prepare(_bundle(), "1", 0)["plan"]).encode()

    class Buffer:  # a JsProxy of a Uint8Array, as far as keep_plan is concerned
        def to_bytes(self):
            return plan

    kept = bridge.keep_plan(Buffer())
    assert kept == json.loads(plan)
    for source in (reference, WRONG):
        assert bridge.run_encoded(source, kept) == bridge.run_encoded(source, plan)
    gc.unfreeze()
    frozen = gc.get_freeze_count()
    bridge.run_encoded(WRONG, plan)
    assert gc.get_freeze_count() == frozen == 0
    fresh = bridge.keep_plan(plan)
    assert gc.get_freeze_count() > 0
    assert not any(o is fresh for o in gc.get_objects()), "frozen: in no generation the collector walks"
    gc.unfreeze()


def test_a_broken_bundle_is_an_author_error():
    bundle = json.loads(_bundle())
    bundle["solutions"]["1"] = "def decode_link(text):\n    raise TypeError('bug')\n"
    bundle["lesson"] = "micropip-demo-broken"
    view = _prepare(json.dumps(bundle), "1", 0)
    assert set(view) == {"ref", "author_error"}
    verdict = json.loads(grader_host.judge(view["ref"], '{"status": "ok", "outcomes": []}', "en"))
    assert verdict["status"] == "author_error"
    assert grader_host.plot(view["ref"], "{}") == "null"
    assert grader_host.shrink_start(view["ref"], "{}", json.dumps(verdict)) == "null"


def test_judge_needs_only_the_ref_and_takes_the_run_as_utf8_bytes():
    reference = load_lesson("micropip-demo").checkpoint("1").solution()
    view = _prepare(_bundle(), "1", 0)
    run = _run(reference, view["plan"])
    verdict = json.loads(grader_host.judge(view["ref"], run, "en"))
    assert verdict["status"] == "pass" and verdict["total"] == len(view["plan"]["cases"])
    assert json.loads(grader_host.judge(view["ref"], run.encode("utf-8"), "en")) == verdict
    assert json.loads(grader_host.judge(view["ref"], b"\xff not utf-8", "en"))["status"] == "error"


def test_a_forgotten_or_unknown_ref_is_an_error_not_a_verdict():
    view = _prepare(_bundle(), "1", 0)
    grader_host.forget(view["ref"])
    for ref in (view["ref"], "micropip-demo/1/xx"):
        with pytest.raises(LookupError):
            grader_host.judge(ref, "{}", "en")


def test_kept_checks_are_bounded_and_reloading_a_lesson_drops_its_own():
    view = _prepare(_bundle(), "1", 0)
    assert view["ref"] in grader_host._CHECKS
    _prepare(_bundle(), "1", 1)  # load_lesson again: what was prepared from the old bundle goes
    assert view["ref"] not in grader_host._CHECKS
    for seed in range(1, grader_host.MAX_CHECKS + 5):
        grader_host.prepare("micropip-demo", "1", "en", seed)
    assert len(grader_host._CHECKS) == grader_host.MAX_CHECKS
    assert "micropip-demo/1/en/1" not in grader_host._CHECKS  # the oldest went first
    assert f"micropip-demo/1/en/{grader_host.MAX_CHECKS + 4}" in grader_host._CHECKS


def test_loading_a_bundle_again_replaces_its_modules_without_invalidating_import_caches(monkeypatch):
    """A bundle loaded again (same lesson, changed grader) is what the next prepare imports, even when another loaded
    lesson's bundle holds the same grader module; and loading never calls importlib.invalidate_caches, whose
    PathFinder part imports importlib.metadata (a slow import in the grader's boot)."""

    def refuse():
        raise AssertionError("load_lesson must not invalidate the import caches")

    monkeypatch.setattr("importlib.invalidate_caches", refuse)
    # a lesson loaded first whose bundle holds the same grader files, then this test's own lesson
    bundle = json.loads(_bundle())
    grader_host.load_lesson(json.dumps(dict(bundle, lesson="micropip-demo-twin")))
    bundle["lesson"] = "micropip-demo-reloaded"
    view = _prepare(json.dumps(bundle), "1", 0)
    assert "author_error" not in view
    grader_module = bundle["checkpoints"]["1"]["grader"]
    path = grader_module.replace(".", "/") + ".py"
    assert path in bundle["files"] and grader_module in sys.modules
    bundle["files"][path] = "raise RuntimeError('the replaced grader')\n"
    view = _prepare(json.dumps(bundle), "1", 0)
    assert "the replaced grader" in view["author_error"]
    sys.modules.pop(grader_module, None)
    grader_host.load_lesson(_bundle())  # the whole grader, latest again, for the tests after this one


def test_a_plan_holds_each_case_once_and_json_inputs_run_as_their_typed_form():
    """A case whose inputs are plain JSON is in the plan as that JSON text only (the runner reads it at C speed),
    every other case in the typed encoding; running the JSON form is the same as running the typed form."""
    from graders.engine import values
    from graders.hosts import pyodide_grader as grader

    lesson = load_lesson("claims-abstention")
    grader.load_lesson(json.dumps(lesson_grading(lesson, [])))
    view = json.loads(grader.prepare("claims-abstention", "1", "en"))
    cases = view["plan"]["cases"]
    assert any("json" in c for c in cases) and any("json" not in c for c in cases)
    for case in cases:
        assert ("json" in case) != ("args" in case) and ("args" in case) == ("kwargs" in case)
    typed = []
    for case in cases:
        args, kwargs = values.case_inputs(case)
        typed.append({**{k: v for k, v in case.items() if k != "json"}, "args": args, "kwargs": kwargs})
    source = lesson.checkpoint("1").solution()
    full = {**view["plan"], "cases": typed}
    assert json.loads(_run(source, view["plan"])) == json.loads(_run(source, full))


def test_a_run_can_call_the_plot_case_and_get_the_plot_data():
    from werkbank.build import lesson_grading

    bundle = json.dumps(lesson_grading(load_lesson("perplexity-calibration"), []))
    view = _prepare(bundle, "3", 0)
    plot_case = view["plot_case"]
    assert plot_case == grader_host.prepared(view["ref"])["key"]["plot"]["case"]
    case = next(c for c in view["plan"]["cases"] if c["id"] == plot_case)
    source = load_lesson("perplexity-calibration").checkpoint("3").solution() + "\nprint('demo')\n"
    plan = {"mode": "run", "cases": [case], "attrs": view["plan"]["attrs"]}
    run = _run(source, plan)
    assert json.loads(run)["stdout"] == "demo\n"
    plot = json.loads(grader_host.plot(view["ref"], run))
    assert plot["kind"] == "reliability"
    assert plot["actual"] == plot["expected"] and len(plot["expected"]) == 3  # plain lists: conf, acc, count
    assert all(isinstance(v, (int, float)) for series in plot["expected"] for v in series)
    broken = json.loads(grader_host.plot(view["ref"], _run("x = 1\n", plan)))
    assert broken["actual"] is None and broken["expected"] == plot["expected"]


def test_grader_worker_entry_points_give_the_cli_verdicts_for_every_lesson():
    """The grader role (load_lesson, prepare, judge) and the learner role (run) give the CLI's verdicts."""
    from graders.hosts import pyodide_grader as grader

    for lesson_id, cp in (("claims-abstention", "1"), ("perplexity-calibration", "2")):
        lesson = load_lesson(lesson_id)
        loaded = json.loads(grader.load_lesson(json.dumps(lesson_grading(lesson, []))))
        assert loaded["lesson"] == lesson_id and cp in loaded["checkpoints"]
        checkpoint = lesson.checkpoint(cp)
        view = json.loads(grader.prepare(lesson_id, cp, "en", 3))
        assert set(view) == {"ref", "plan", "plot_case", "time_limit"} and "expected" not in view["plan"]
        assert all(set(case) <= {"id", "call", "args", "kwargs", "json", "refill"} for case in view["plan"]["cases"])
        assert view["time_limit"] == grader.prepared(view["ref"])["key"]["time_limit"] > 0
        for source in (checkpoint.solution(), checkpoint.starter("en")):
            run = _run(source, view["plan"])
            ours = json.loads(grader.judge(view["ref"], run, "en"))
            cli = grade_source(lesson_id, cp, source, seed=3)
            assert (ours["status"], ours["passed"], ours["failed_cases"]) == (
                cli["status"],
                cli["passed"],
                cli["failed_cases"],
            )


def test_grader_worker_reports_unknown_checkpoints_and_garbled_runs():
    from graders.hosts import pyodide_grader as grader

    grader.load_lesson(json.dumps(lesson_grading(load_lesson("micropip-demo"), [])))
    assert "author_error" in json.loads(grader.prepare("micropip-demo", "9"))
    view = json.loads(grader.prepare("micropip-demo", "1"))
    verdict = json.loads(grader.judge(view["ref"], "not json", "en"))
    assert verdict["status"] == "error" and verdict["passed"] == 0


def test_grader_worker_shrinks_like_the_cli():
    """shrink_start / shrink_round / shrink_pick give the same smaller failing call as werkbank.grading."""
    from graders.hosts import pyodide_grader as grader

    ALMOST = (Path(__file__).parent / "data" / "wrong" / "claims_1_blank_knows_only_nbsp.py").read_text(
        encoding="utf-8"
    )

    lesson = load_lesson("claims-abstention")
    grader.load_lesson(json.dumps(lesson_grading(lesson, [])))
    view = json.loads(grader.prepare("claims-abstention", "1", "en"))
    run = _run(ALMOST, view["plan"])
    verdict = grader.judge(view["ref"], run, "en")
    state = grader.shrink_start(view["ref"], run.encode("utf-8"), verdict)
    assert state != "null"
    while state != "null":
        round_prepared = grader.shrink_round("claims-abstention", "1", state)
        if round_prepared == "null":
            break
        round_run = _run(ALMOST, json.loads(round_prepared)["plan"])
        picked = json.loads(grader.shrink_pick(round_prepared, round_run.encode("utf-8"), verdict, state, "en"))
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
    view = json.loads(grader.prepare(lesson.id, "1", "nl"))
    run = _run(mistake.source(), view["plan"])
    ours = json.loads(grader.judge(view["ref"], run, "nl"))["failure"]
    cli = grade_source(lesson.id, "1", mistake.source(), lang="nl")["failure"]
    assert ours["mistake"] == cli["mistake"] == mistake.name
    assert ours["feedback"] == cli["feedback"] == mistake.feedback["nl"]
    # a wrong program that fails differently gets no such feedback
    other = grade_source(lesson.id, "1", "def recall_at_k(*args):\n    return 'no'\n", lang="nl")["failure"]
    assert "feedback" not in other


def _run_json(outcomes=(), **fields):
    run = {
        "status": "ok",
        "stdout": "",
        "stderr": "",
        "truncated": False,
        "traceback": None,
        "error_line": None,
        "exit_code": None,
        "outcomes": list(outcomes),
    }
    run.update(fields)
    return json.dumps(run)


def test_grader_bounds_what_it_reads_and_keeps_judging():
    """Run results are learner data. Ones that claim an array of 10**6 dimensions, nest a million deep, carry more
    output, traceback or message than a runner writes, or are larger than the judge reads, are each an error verdict
    ("could not be read") at once, and the same grader judges the reference right afterwards. (In Pyodide, JSON
    nested this deep overflowed the parser's stack and ended the interpreter.)"""
    from graders.engine.settings import MESSAGE_LIMIT, OUTPUT_LIMIT, RUN_RESULT_LIMIT, TRACEBACK_LIMIT

    view = _prepare(_bundle(), "1", 0)
    case = view["plan"]["cases"][0]["id"]

    def value(w):
        return [{"id": case, "kind": "return", "value": w, "warnings": [], "mutated": False}]

    hostile = {
        "a million dimensions": _run_json(value(["ndarray", "float64", "f", [1] * 10**6, [1.0]])),
        "65 dimensions, no values": _run_json(value(["ndarray", "float64", "f", [10**18] * 64 + [0], []])),
        "nested JSON": "[" * 10**6 + "]" * 10**6,
        "nested inside a run": '{"status": "ok", "stdout": "", "outcomes": ' + "[" * 10**5 + "]" * 10**5 + "}",
        "output": _run_json(stdout="x" * (OUTPUT_LIMIT + 1)),
        "traceback": _run_json(status="error", traceback="t" * (TRACEBACK_LIMIT + 1)),
        "message": _run_json(
            [
                {
                    "id": case,
                    "kind": "raise",
                    "exc": "ValueError",
                    "builtin_mro": ["ValueError"],
                    "message": "m" * (MESSAGE_LIMIT + 1),
                    "warnings": [],
                    "mutated": False,
                }
            ]
        ),
        "too many outcomes": _run_json([{"id": str(i), "kind": "missing", "name": "f"} for i in range(5001)]),
        "too large": _run_json(stderr="s" * 100, padding="p" * RUN_RESULT_LIMIT),
    }
    for name, run in hostile.items():
        for data in (run, run.encode("utf-8")):
            verdict = json.loads(grader_host.judge(view["ref"], data, "en"))
            assert verdict["status"] == "error" and verdict["detail"], (name, verdict.get("detail"))
            assert len(json.dumps(verdict)) < 10_000, name
    reference = _run(load_lesson("micropip-demo").checkpoint("1").solution(), view["plan"])
    assert json.loads(grader_host.judge(view["ref"], reference, "en"))["status"] == "pass"


def test_a_rehearsal_runs_the_reference_and_changes_no_verdict_and_nothing_of_the_graders(monkeypatch):
    """The grader's rehearsal (the page's first Checks on hot code, runtime.js _rehearse) runs the checkpoint's
    reference over the plan and judges it, here, keeping nothing, and returns that reference: the verdicts of the
    learner's runs, the grader's modules and its interpreter's settings are what they were."""
    import gc

    from graders.engine import runner

    view = _prepare(_bundle(), "1", 0)
    reference = load_lesson("micropip-demo").checkpoint("1").solution()
    runs = [_run(source, view["plan"]) for source in (reference, WRONG)]
    before = [json.loads(grader_host.judge(view["ref"], run, "en")) for run in runs]

    def interpreter():
        return gc.get_threshold(), sys.getrecursionlimit(), sys.stdout, sorted(m for m in sys.modules if "graders" in m)

    settings = interpreter()
    ran = []
    real = runner.run
    monkeypatch.setattr(
        runner, "run", lambda source, plan, *a, **kw: ran.append(source) or real(source, plan, *a, **kw)
    )
    # and says what it ran, for the page to rehearse in a learner worker too (runtime.js _warmLearner)
    assert json.loads(grader_host.rehearse("micropip-demo", "1", "en")) == {"source": reference}
    assert ran == [reference]
    after = [json.loads(grader_host.judge(view["ref"], run, "en")) for run in runs]
    assert after == before and [v["status"] for v in after] == ["pass", "fail"]
    assert interpreter() == settings


def test_the_kept_checks_are_left_out_of_the_collectors_full_collections():
    """Judging makes thousands of objects, and now and then a full collection walks every object the interpreter
    tracks: the grader's kept Checks (~10^5 objects each) are frozen, so it walks only what came since."""
    import gc

    view = _prepare(_bundle(), "1", 0)
    key = grader_host.prepared(view["ref"])["key"]
    tracked = gc.get_objects()
    assert gc.get_freeze_count() > 0
    assert not any(obj is key for obj in tracked) and not any(obj is key["expected"] for obj in tracked)
