"""The line tracer behind "Trace this case" (graders/engine/trace.py), through the runner's ``trace`` plan option: the
same code the learner worker runs in Pyodide (tests/browser/test_feedback.py traces in the browser)."""

from __future__ import annotations

import sys

import numpy as np

from graders.engine import runner
from graders.engine.trace import MAX_STEPS, short_repr

SOURCE = """\
def total(items):
    s = 0
    for x in items:
        s = s + x
    return s


def outer(n):
    return total(list(range(n))) * 2
"""


def traced(source, after, steps=300):
    return runner.run(source, {"mode": "run", "after": after, "trace": {"steps": steps}})


def test_every_line_of_the_learners_call_is_recorded_in_order_with_its_locals():
    result = traced(SOURCE, "outer(3)")
    assert result["status"] == "ok" and result["value"] == "6"
    trace = result["trace"]
    assert not trace["truncated"] and not trace["stopped"]
    steps = trace["steps"]
    lines = [(s["func"], s["line"], s["event"]) for s in steps]
    assert lines[0] == ("outer", 9, "line")
    assert ("total", 2, "line") in lines and lines[-1] == ("outer", 9, "return")
    # the loop's line ran once per item plus the final test; `s` grows step by step
    assert sum(1 for f, line, e in lines if (f, line, e) == ("total", 4, "line")) == 3
    s_values = [dict(step["locals"]).get("s") for step in steps if step["func"] == "total" and step["line"] == 4]
    assert s_values == ["0", "0", "1"]
    ret = next(s for s in steps if s["func"] == "total" and s["event"] == "return")
    assert ret["value"] == "3" and ret["depth"] == 2
    assert all(s["depth"] == 1 for s in steps if s["func"] == "outer")
    assert sys.gettrace() is None  # the run put the interpreter back


def test_only_the_learners_frames_are_traced_not_the_snippet_or_the_libraries():
    result = traced("import json\n\ndef f(x):\n    return json.dumps(sorted(x))\n", "y = [3, 1]\nf(y)")
    assert {s["func"] for s in result["trace"]["steps"]} == {"f"}


def test_an_exception_is_a_step_and_the_run_reports_the_error_as_usual():
    result = traced("def f(d):\n    k = 'b'\n    return d[k]\n", "f({'a': 1})")
    assert result["status"] == "error" and "KeyError" in result["traceback"]
    events = [(s["line"], s["event"], s.get("value")) for s in result["trace"]["steps"]]
    assert (3, "exception", "KeyError") in events


def test_a_call_that_raises_ends_on_its_exception_and_never_claims_to_return_none():
    """A frame left by an exception gets a "return" event with None from Python: the trace must not say the function
    returned None (it raised), in the frame that raised and in the learner's frames the exception passed through; a
    frame that catches the exception goes on and returns as usual."""
    source = "def inner(x):\n    return 1 / x\n\n\ndef outer(x):\n    y = inner(x)\n    return y\n"
    result = traced(source, "outer(0)")
    assert result["status"] == "error" and "ZeroDivisionError" in result["traceback"]
    steps = result["trace"]["steps"]
    assert not [s for s in steps if s["event"] == "return"], steps
    assert (steps[-1]["func"], steps[-1]["event"], steps[-1]["value"]) == ("outer", "exception", "ZeroDivisionError")
    caught = "def f(x):\n    try:\n        return 1 / x\n    except ZeroDivisionError:\n        return None\n"
    ends = [(s["line"], s["event"], s.get("value")) for s in traced(caught, "f(0)")["trace"]["steps"]][-3:]
    assert ends == [(4, "line", None), (5, "line", None), (5, "return", "None")], ends


def test_steps_are_bounded_and_an_endless_loop_is_stopped_with_the_steps_kept():
    result = traced("def f():\n    i = 0\n    while True:\n        i += 1\n", "f()", steps=20)
    trace = result["trace"]
    assert len(trace["steps"]) == 20 and trace["truncated"] and trace["stopped"]
    assert result.get("trace_stopped") is True and result["status"] == "ok"
    assert trace["events"] > 20
    # a plan cannot ask for more than MAX_STEPS
    many = traced("def f():\n    for i in range(5000):\n        pass\n", "f()", steps=10**9)["trace"]
    assert len(many["steps"]) == MAX_STEPS and many["truncated"] and not many["stopped"]


def test_a_call_that_ends_soon_after_the_recorded_steps_still_returns_its_value():
    result = traced("def f():\n    t = 0\n    for i in range(100):\n        t += i\n    return t\n", "f()", steps=10)
    assert result["value"] == "4950" and result["trace"]["truncated"] and not result["trace"]["stopped"]


def test_values_are_shown_short_and_without_running_the_learners_code():
    class Loud:
        def __repr__(self):
            raise AssertionError("a learner's __repr__ must never run in the tracer")

    class MyList(list):
        def __repr__(self):
            raise AssertionError("never")

    assert short_repr(Loud()) == "<Loud object>"
    assert short_repr(MyList([1])) == "<MyList object>"
    assert short_repr(list(range(100))) == "[0, 1, 2, 3, 4, 5, … 94]"
    assert short_repr({"a": [1, [2, [3]]]}) == "{'a': [1, […]]}"
    assert short_repr(float("nan")) == "float('nan')" and short_repr(-float("inf")) == "float('-inf')"
    assert short_repr(np.arange(3.0)) == "np.array([0.0, 1.0, 2.0])"
    assert short_repr(np.float64(0.5)) == "np.float64(0.5)"
    assert len(short_repr("x" * 1000)) <= 60
    result = traced(
        "def f(o):\n    return 1\n", "class Loud:\n    def __repr__(self):\n        raise SystemExit(3)\nf(Loud())"
    )
    assert result["status"] == "ok" and dict(result["trace"]["steps"][0]["locals"])["o"] == "<Loud object>"


def test_a_plan_without_trace_records_nothing():
    result = runner.run(SOURCE, {"mode": "run", "after": "outer(2)"})
    assert "trace" not in result and result["value"] == "2"
