"""Both hosts offer the one interface of :class:`graders.hosts.interface.Host`: the same signature, and the same run
result for the same code and plan (graders.hosts.pyodide runs here in CPython, in this process, as in
tests/test_host_pyodide.py; in the browser it runs in a learner worker)."""

from __future__ import annotations

import inspect
import json
import types

import pytest

from graders.hosts import cpython, pyodide
from graders.hosts.interface import Host
from werkbank.grading import prepared_checkpoint
from werkbank.lessons import load_lesson

HOSTS = [cpython, pyodide]


def interface_problems(host) -> list[str]:
    """How ``host`` (a module) differs from :class:`Host`: its ``run`` must take the interface's parameters, in its
    order, of its kinds and defaults; anything more must be keyword-only with a default."""
    if not isinstance(host, Host):
        return ["no run()"]
    wanted = list(inspect.signature(Host.run).parameters.values())[1:]  # without self
    got = list(inspect.signature(host.run).parameters.values())
    problems = []
    for want, have in zip(wanted, got):
        if (want.name, want.kind, want.default) != (have.name, have.kind, have.default):
            problems.append(f"{have} where the interface has {want}")
    if len(got) < len(wanted):
        problems.append(f"missing {[p.name for p in wanted[len(got) :]]}")
    for extra in got[len(wanted) :]:
        if extra.kind is not extra.KEYWORD_ONLY or extra.default is extra.empty:
            problems.append(f"{extra} is not an optional keyword")
    return problems


@pytest.mark.parametrize("host", HOSTS, ids=lambda h: h.__name__)
def test_each_host_has_the_interfaces_run(host):
    assert interface_problems(host) == []


def test_a_host_that_differs_from_the_interface_is_named():
    """What the hosts once were: a run taking and returning JSON text, with a positional on_output."""

    def run(source, plan_json, on_output=None):
        return plan_json

    def slow(source, plan, *, on_output=None, limit):
        return {}

    for fn in (run, slow):
        assert interface_problems(types.SimpleNamespace(run=fn)), fn
    assert interface_problems(types.SimpleNamespace()) == ["no run()"]


def _same(result: dict) -> dict:
    return json.loads(json.dumps(result))  # both as JSON data: tuples are lists on the wire


RUNS = {
    "output-and-an-exception": (
        "print('hi')\nimport sys\nprint('e', file=sys.stderr)\nraise ValueError('x')\n",
        {"mode": "run"},
    ),
    "exit": ("import sys\nsys.exit(3)\n", {"mode": "run"}),
    # nested too deeply for a browser worker's stack (runner.too_deeply_nested): the same SyntaxError in both
    "nested-too-deeply": ("x = " + "[" * 120 + "]" * 120 + "\n", {"mode": "run"}),
}


@pytest.mark.parametrize("name", sorted(RUNS))
def test_both_hosts_give_the_same_result_for_a_run(name):
    source, plan = RUNS[name]
    assert _same(cpython.run(source, plan)) == _same(pyodide.run(source, plan))


def test_both_hosts_give_the_same_result_for_a_check():
    checkpoint = load_lesson("claims-abstention").checkpoint("1")
    plan = prepared_checkpoint(checkpoint)["plan"]
    for source in (checkpoint.solution(), checkpoint.starter("en")):
        ours, theirs = _same(cpython.run(source, plan)), _same(pyodide.run(source, plan))
        assert ours == theirs and ours["outcomes"]


def test_a_check_that_draws_random_numbers_draws_the_same_in_both_hosts():
    """Every Check starts ``random`` and numpy's global generator from one seed (runner.CHECK_RANDOM_SEED), so code
    that draws from them gets the same outcomes, and verdict, through both hosts (the command line's child process
    and the learner worker's entry point) and on every Check."""
    plan = prepared_checkpoint(load_lesson("retrieval-evaluation").checkpoint("1"))["plan"]
    source = (
        "import random\nimport numpy as np\n\n"
        "def recall_at_k(ranking, relevant, k):\n    return random.random() + float(np.random.random())\n"
    )
    ours, theirs, again = (
        _same(cpython.run(source, plan)),
        _same(pyodide.run(source, plan)),
        _same(cpython.run(source, plan)),
    )
    drawn = [o.get("value") for o in ours["outcomes"]]
    assert ours == theirs == again and len(set(map(repr, drawn))) > 100


def test_streamed_output_is_the_output():
    """on_output: the Pyodide host streams what the run prints (the CPython host may not stream at all)."""
    seen = []
    result = pyodide.run("print('a')\nprint('b')\n", {"mode": "run"}, on_output=lambda s, t: seen.append((s, t)))
    assert "".join(t for s, t in seen if s == "stdout") == result["stdout"] == "a\nb\n"
    assert cpython.run("print('a')\n", {"mode": "run"}, on_output=lambda s, t: None)["stdout"] == "a\n"


def test_the_learner_workers_early_reports_are_written_by_the_engine_not_by_what_learner_code_left_in_json():
    """A Check's early reports (the first cases' outcomes, so the page can show a failure early) are encoded while
    learner code is loaded. Code that swaps the json module's default encoder (json.dumps looks it up at each call)
    must not rewrite what they say: the reports equal the final result's outcomes."""
    checkpoint = load_lesson("claims-abstention").checkpoint("1")
    plan = prepared_checkpoint(checkpoint)["plan"]
    hostile = checkpoint.starter("en") + (
        "\nimport json\n"
        "class _Lying(json.JSONEncoder):\n"
        "    def encode(self, o):\n"
        '        return \'{"status": "ok", "outcomes": []}\'\n'
        "json._default_encoder = _Lying()\n"
    )
    parts = []
    result = json.loads(pyodide.run_encoded(hostile, json.dumps(plan).encode(), on_partial=parts.append))
    early = [outcome for part in parts for outcome in json.loads(part)["outcomes"]]
    final = [{k: v for k, v in o.items() if k not in ("traceback", "error_line")} for o in result["outcomes"]]
    assert early and early == final[: len(early)]  # (tracebacks are written once the run ends)
