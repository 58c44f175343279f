"""Engine tests of graders/engine/runner.py: running learner code, capturing it, and cleaning up after it."""

import builtins
import json
import os
import sys
import types

import numpy as np
import pytest

from graders.engine import runner, values
from graders.engine.case import Case
from graders.engine.judge import judge, read_run
from graders.hosts import cpython
from graders.engine.prepare import prepare
from graders.engine.settings import EXIT_TEXT_LIMIT, NAME_LIMIT

pytestmark = pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")

REFERENCE = '''
def total(xs):
    """Sum of a list of numbers."""
    if not isinstance(xs, list):
        raise ValueError("a list, please")
    return float(sum(xs))
'''


def toy_grader(**extra):
    grader = types.ModuleType("toy_grader")

    def curated():
        yield Case(id="three", call="total", args=([1.0, 2.0, 3.0],), explain={"en": "adds three numbers"})
        yield Case(id="empty", call="total", args=([],), explain={"en": "the empty sum is 0.0"})
        yield Case(id="not-a-list", call="total", args=((1.0,),), explain={"en": "a tuple is invalid"})

    grader.curated = curated
    for key, value in extra.items():
        setattr(grader, key, value)
    return grader


@pytest.fixture(scope="module")
def prepared():
    return prepare(toy_grader(TIME_LIMIT=1.0), REFERENCE, lesson="toy", checkpoint="1", seed=0)


def grade(prepared, source):
    return judge(prepared, runner.run(source, prepared["plan"]), "en")


def test_reference_passes(prepared):
    verdict = grade(prepared, REFERENCE)
    assert verdict["status"] == "pass"
    assert (verdict["passed"], verdict["total"]) == (3, 3)


def test_syntax_error_is_an_error_with_the_editor_line(prepared):
    verdict = grade(prepared, "x = 1\n\ndef total(xs):\n    return (\n")
    assert verdict["status"] == "error"
    assert verdict["error_line"] == 4
    assert "SyntaxError" in verdict["traceback"]
    assert "line 4" in verdict["message"]
    # explained like any error: its name, Python's own words and what it means, not only "line 4"
    error = verdict["python_error"]
    assert error["exc"] == "SyntaxError" and "never closed" in error["message"] and error["line"] == 4
    assert "could not read your code" in error["explain"]


def test_mixed_tabs_and_spaces_are_explained_as_indentation():
    from graders.engine.judge import explain_error

    run = runner.run("def f():\n\tif 1:\n        return 0\n    return 1\n", {"mode": "run"})
    assert run["syntax_error"] and run["exception"]["exc"] == "TabError"
    explained = explain_error(**{k: run["exception"][k] for k in ("exc", "builtin_mro", "message")}, line=3, lang="en")
    assert "tabs and spaces" in explained["explain"]


def test_exception_at_import_is_an_error_trimmed_to_learner_lines(prepared):
    source = "import json\n\ndef helper():\n    return json.loads('{')\n\nhelper()\n"
    verdict = grade(prepared, source)
    assert verdict["status"] == "error"
    assert verdict["error_line"] == 4
    tb = verdict["traceback"]
    assert 'File "main.py", line 6' in tb and 'File "main.py", line 4' in tb
    assert "json/decoder.py" not in tb and "runner.py" not in tb
    assert "JSONDecodeError" in tb


def test_print_is_captured(prepared):
    verdict = grade(prepared, REFERENCE + "\nprint('hello', 42)\nimport sys\nprint('oops', file=sys.stderr)\n")
    assert verdict["status"] == "pass"
    assert verdict["stdout"] == "hello 42\n"
    assert verdict["stderr"] == "oops\n"


def test_output_is_capped_with_a_notice(prepared):
    verdict = grade(prepared, REFERENCE + "\nprint('x' * 10**6)\n")
    assert len(verdict["stdout"]) == runner.OUTPUT_LIMIT
    assert any("cut off" in note for note in verdict["notes"])


def test_endless_loop_times_out_in_a_subprocess(prepared):
    run = cpython.run("while True:\n    pass\n", prepared["plan"], time_limit=0.5)
    verdict = judge(prepared, run, "en")
    assert verdict["status"] == "timeout"


def test_input_gets_eof_instead_of_hanging(prepared):
    verdict = grade(prepared, "name = input('name? ')\n")
    assert verdict["status"] == "error"
    assert "EOFError" in verdict["traceback"]


def test_patched_builtins_and_numpy_do_not_outlive_the_run(prepared):
    original_len, original_isinstance, original_print = builtins.len, builtins.isinstance, builtins.print
    original_array_equal = np.array_equal
    hostile = REFERENCE + (
        "\nimport builtins, numpy\n"
        "builtins.len = lambda x: 0\n"
        "builtins.isinstance = lambda *a: True\n"
        "builtins.print = None\n"
        "numpy.array_equal = lambda *a, **k: True\n"
        "numpy.testing.assert_allclose = lambda *a, **k: None\n"
        "import sys; sys.modules['json'] = None\n"
    )
    grade(prepared, hostile)
    assert builtins.len is original_len
    assert builtins.isinstance is original_isinstance
    assert builtins.print is original_print
    assert np.array_equal is original_array_equal
    assert np.array_equal(np.zeros(2), np.ones(2)) is False
    assert sys.modules["json"] is not None
    # and the next run is clean
    verdict = grade(prepared, REFERENCE + "\nassert len([1, 2]) == 2\nprint('fine')\n")
    assert verdict["status"] == "pass" and verdict["stdout"] == "fine\n"


def test_a_collector_callback_learner_code_adds_does_not_outlive_the_run(prepared):
    """A ``gc.callbacks`` entry runs at every collection: one left after a Check would run once the guard is off,
    where it may read frames (and change the result the host is about to write). The run puts the collector's own
    list back, also when learner code made ``gc.callbacks`` name another list."""
    import gc

    before = list(gc.callbacks)
    hostile = REFERENCE + (
        "\nimport gc\n"
        "_seen = []\n"
        "gc.callbacks.append(lambda phase, info: _seen.append(phase))\n"
        "real = gc.callbacks\n"
        "gc.callbacks = []\n"
        "real.append(lambda phase, info: _seen.append(phase))\n"
    )
    assert grade(prepared, hostile)["status"] == "pass"
    assert gc.callbacks == before
    gc.collect()  # and nothing the run added is called


def test_patched_builtins_cannot_make_a_wrong_answer_pass(prepared):
    wrong = (
        "import builtins\n"
        "builtins.isinstance = lambda *a: True\n"
        "builtins.type = lambda *a: float\n"
        "def total(xs):\n"
        "    return 0\n"
    )
    verdict = grade(prepared, wrong)
    assert verdict["status"] == "fail"


def test_a_function_that_changes_its_argument_fails_and_expected_values_are_unaffected(prepared):
    mutating = REFERENCE.replace("return float(sum(xs))", "value = float(sum(xs))\n    xs.clear()\n    return value")
    verdict = grade(prepared, mutating)
    assert verdict["status"] == "fail"
    assert "changed the arguments" in verdict["failure"]["reason"]
    assert prepared["key"]["expected"]["three"]["value"] == ["float", 6.0]


@pytest.mark.parametrize("later", [False, True], ids=["in-the-call", "in-a-later-call"])
def test_a_function_that_makes_its_array_argument_read_only_has_changed_it(later):
    """Setting the caller's array read-only changes no value in it, yet the caller's own writes to it fail from then
    on: the array was changed (``flags.writeable`` is part of what a call must leave as it was), whether in the call
    itself or in a later call that kept it; an array frozen and thawed again is as it was."""
    program = (
        "import numpy as np\n_KEPT = []\n"
        "def total(xs):\n"
        "    for kept in _KEPT:\n"
        "        kept.flags.writeable = False\n"
        f"    {'_KEPT.append(xs)' if later else 'xs.flags.writeable = False'}\n"
        "    return float(np.sum(xs))\n"
        "def thaw(xs):\n"
        "    xs.flags.writeable = False\n"
        "    xs.flags.writeable = True\n"
        "    return float(np.sum(xs))\n"
    )
    args = values.encode((np.array([1.0, 2.0]),))
    cases = [
        {"id": i, "call": call, "args": args, "kwargs": ["dict", []]}
        for i, call in (("a", "total"), ("b", "total"), ("c", "thaw"))
    ]
    first, _, thawed = runner.run(program, {"mode": "check", "cases": cases, "attrs": {}})["outcomes"]
    assert first["value"] == ["float", 3.0], first
    assert first.get("mutated_later" if later else "mutated") is True, first
    assert not thawed.get("mutated") and not thawed.get("mutated_later"), thawed


@pytest.mark.parametrize("plain", [True, False], ids=["json-inputs", "wire-inputs"])
@pytest.mark.parametrize(
    "keeps",
    [
        "_KEPT.append(xs)",  # the list itself
        "_KEPT.append((xs, 'row'))",  # inside another object
    ],
)
def test_a_function_that_changes_an_earlier_calls_argument_later_fails_on_that_call(keeps, plain):
    """A function that keeps the caller's list and changes it during a later call changes data its caller still
    holds: the earlier call fails as changing its arguments, though every call's own arguments were as it got them
    when it returned."""
    program = (
        "_KEPT = []\n"
        "def total(xs):\n"
        "    for kept in _KEPT:\n"
        "        (kept[0] if isinstance(kept, tuple) else kept).append(99)\n"
        f"    value = float(sum(xs))\n    {keeps}\n    return value\n"
    )
    cases = [
        {"id": "a", "call": "total", "args": ["tuple", [["list", [["int", "1"]]]]], "kwargs": ["dict", []]},
        {"id": "b", "call": "total", "args": ["tuple", [["list", [["int", "5"]]]]], "kwargs": ["dict", []]},
    ]
    if plain:
        cases = [{"id": c["id"], "call": "total", "json": f"[[[{n}]],{{}}]"} for c, n in zip(cases, (1, 5))]
    first, second = runner.run(program, {"mode": "check", "cases": cases, "attrs": {}})["outcomes"]
    assert first.get("mutated_later") is True and not first.get("mutated")
    assert first["value"] == ["float", 1.0]  # its own value was right
    assert not second.get("mutated_later")  # no call came after it


@pytest.mark.parametrize("plain", [True, False], ids=["json-inputs", "wire-inputs"])
def test_a_function_that_changes_an_inner_list_of_an_earlier_calls_argument_later_fails_on_that_call(plain):
    """The same for a list inside the argument (one query's ranking of a list of rankings), kept and changed during
    a later call."""
    program = (
        "_KEPT = []\n"
        "def total(rows):\n"
        "    for kept in _KEPT:\n"
        "        kept.append(99)\n"
        "    _KEPT.append(rows[0])\n"
        "    return float(sum(sum(row) for row in rows))\n"
    )
    rows = [["list", [["list", [["int", "1"]]]]], ["list", [["list", [["int", "5"]]]]]]
    cases = [{"id": i, "call": "total", "args": ["tuple", [r]], "kwargs": ["dict", []]} for i, r in zip("ab", rows)]
    if plain:
        cases = [{"id": c["id"], "call": "total", "json": f"[[[[{n}]]],{{}}]"} for c, n in zip(cases, (1, 5))]
    first, second = runner.run(program, {"mode": "check", "cases": cases, "attrs": {}})["outcomes"]
    assert first.get("mutated_later") is True and not first.get("mutated"), first
    assert not second.get("mutated_later")


def test_a_raised_calls_finished_frames_let_go_of_its_arguments_under_the_guard():
    """A call that raised leaves a traceback whose finished frames held the call's arguments to the end of the run;
    the engine clears them (through the guard's hook: under the guard no other code may read a frame), so a list
    the learner's code kept is held as often as after a call that returned (by that code and the engine's later
    look at it), and the arguments of a call that raised and kept nothing are not looked at again."""

    def references(ending: str) -> float:
        program = (
            "import sys\n_KEPT = []\n"
            "def total(xs):\n"
            "    if _KEPT:\n"
            "        return float(sys.getrefcount(_KEPT[0]))\n"
            "    _KEPT.append(xs)\n"
            f"    {ending}\n"
        )
        cases = [{"id": i, "call": "total", "json": "[[[1.5]],{}]"} for i in "ab"]
        first, second = runner.run(program, {"mode": "check", "cases": cases, "attrs": {}})["outcomes"]
        assert first["kind"] == ("raise" if ending.startswith("raise") else "return"), first
        return second["value"]

    assert references("raise ValueError('no')") == references("return 0.0")


def test_keeping_the_arguments_without_changing_them_or_raising_on_them_is_no_change(prepared):
    """A function may keep what it was given (a report that holds its inputs, a log of calls) and may raise: only a
    change counts. The finished frames of a raised exception let go of the arguments, yet its traceback stays."""
    keeping = REFERENCE.replace("    return float(sum(xs))", "    _LOG.append(xs)\n    return float(sum(xs))")
    verdict = grade(prepared, "_LOG = []\n" + keeping)
    assert verdict["status"] == "pass", verdict.get("failure")
    result = runner.run(REFERENCE, prepared["plan"])
    raised = [o for o in result["outcomes"] if o["kind"] == "raise"]
    assert raised and all("in total" in o["traceback"] and "a list, please" in o["traceback"] for o in raised)


def test_a_judged_change_to_an_earlier_calls_argument_says_when_it_happened(prepared):
    later = REFERENCE.replace(
        "    return float(sum(xs))",
        "    for kept in _KEPT:\n        kept.clear()\n    _KEPT.append(xs)\n    return float(sum(xs))",
    )
    verdict = grade(prepared, "_KEPT = []\n" + later)
    assert verdict["status"] == "fail"
    assert "later, during another call" in verdict["failure"]["reason"]
    assert verdict["failure"]["kind"] == "changed_arguments"


def test_a_result_that_a_later_call_changes_fails(prepared):
    shared = (
        "_cache = []\n"
        "def total(xs):\n"
        "    if not isinstance(xs, list):\n"
        "        raise ValueError('xs')\n"
        "    _cache[:] = [float(sum(xs))]\n"
        "    return _cache\n"
    )
    cases = [
        {"id": "a", "call": "total", "args": ["tuple", [["list", [["int", "1"]]]]], "kwargs": ["dict", []]},
        {"id": "b", "call": "total", "args": ["tuple", [["list", [["int", "5"]]]]], "kwargs": ["dict", []]},
    ]
    result = runner.run(shared, {"mode": "check", "cases": cases, "attrs": {}})
    first, second = result["outcomes"]
    assert first["value"] == ["list", [["float", 1.0]]] and first["later"] == ["list", [["float", 5.0]]]
    assert "later" not in second


@pytest.mark.parametrize(
    "program",
    [
        # built-in values only (read again through their repr): a nested dict, an element that changes type, a set
        "_ROWS = [{'n': 0}]\ndef total(xs):\n    _ROWS[0]['n'] = len(xs)\n    return [_ROWS[0]]\n",
        "_OUT = [0]\ndef total(xs):\n    _OUT[0] = 1 if len(xs) > 1 else True\n    return (_OUT,)\n",
        "_S = set()\ndef total(xs):\n    _S.clear()\n    _S.update(xs)\n    return _S\n",
        # not only built-in values (encoded again in full): an object's attribute, an array, an object inside a new list
        "class R:\n    pass\n_R = R()\ndef total(xs):\n    _R.n = len(xs)\n    return _R\n",
        "import numpy as np\n_A = np.zeros(1)\ndef total(xs):\n    _A[0] = len(xs)\n    return _A\n",
        "class R:\n    pass\n_L = [R()]\ndef total(xs):\n    _L[0].n = len(xs)\n    return list(_L)\n",
    ],
)
def test_a_result_changed_by_a_later_call_is_read_again_whatever_it_holds(program):
    cases = [
        {"id": "a", "call": "total", "args": ["tuple", [["list", [["int", "1"]]]]], "kwargs": ["dict", []]},
        {
            "id": "b",
            "call": "total",
            "args": ["tuple", [["list", [["int", "5"], ["int", "6"]]]]],
            "kwargs": ["dict", []],
        },
    ]
    result = runner.run(program, {"mode": "check", "cases": cases, "attrs": {"R": ["n"]}})
    first, second = result["outcomes"]
    assert first["kind"] == "return" and "later" in first and first["later"] != first["value"], result
    assert "later" not in second


def test_plain_encode_says_whether_a_value_holds_only_exact_built_in_values():
    import numpy as np

    assert values.plain_encode([1, 2.5, "x", None, True, (b"b", 1j), {"k": {3}}, frozenset({"f"})])[1] is True
    for value in ([np.int64(1)], [np.zeros(2)], [type("S", (str,), {})("s")], [object()], [[]] * 0 + [len]):
        encoded, plain = values.plain_encode(value)
        assert plain is False and encoded == values.encode(value), value
    deep = []
    for _ in range(60):
        deep = [deep]
    assert values.plain_encode(deep)[1] is False  # past the depth limit


@pytest.mark.parametrize(
    "program",
    [
        # an empty list kept at module level, handed out inside every result
        "_NONE = []\ndef rows(n):\n    return [{'n': n, 'sources': _NONE}]\n",
        # a cached row dict inside a new list
        "_ROW = {}\ndef rows(n):\n    _ROW['n'] = 1\n    return [_ROW]\n",
        # an object whose attribute is the same array on every call
        "import numpy as np\n_A = np.zeros(2)\n"
        "class Report:\n    def __init__(self, parts):\n        self.parts = parts\n"
        "def rows(n):\n    return Report((_A, n))\n",
        # a new view of the same cached array every time (a slice, a reshape): a new object sharing one memory
        "import numpy as np\n_A = np.zeros(4)\ndef rows(n):\n    return (_A[:], _A.reshape(2, 2))\n",
    ],
)
def test_a_result_holding_an_object_from_an_earlier_result_is_shared(program):
    """A result must be new at every depth: a list, dict or array from an earlier result, found inside a later one
    (through lists, dict values, tuples or attributes), marks the later call ``shared`` even if nobody changed it."""
    cases = [{"id": i, "call": "rows", "args": ["tuple", [["int", i]]], "kwargs": ["dict", []]} for i in ("1", "2")]
    first, second = runner.run(program, {"mode": "check", "cases": cases, "attrs": {}})["outcomes"]
    assert "shared" not in first and second.get("shared") is True


def test_new_nested_objects_on_every_call_are_not_shared():
    fresh = (
        "import numpy as np\nclass Report:\n    def __init__(self, parts):\n        self.parts = parts\n"
        "def rows(n):\n    return [{'n': n, 'sources': []}, Report((np.zeros(2), [n], None, 'text', 1.5)),\n"
        "        np.arange(6).reshape(2, 3)[:, 1]]\n"  # a view, but of an array made in this call
    )
    cases = [{"id": i, "call": "rows", "args": ["tuple", [["int", i]]], "kwargs": ["dict", []]} for i in "123"]
    outcomes = runner.run(fresh, {"mode": "check", "cases": cases, "attrs": {}})["outcomes"]
    assert [o["kind"] for o in outcomes] == ["return"] * 3 and not any("shared" in o for o in outcomes)


def test_a_refill_case_passes_the_earlier_lists_again_with_new_contents():
    """A caller may reuse its list: a ``refill`` case gets the very list of the case it names, holding its own
    contents, so a result cached by id() of an argument comes back stale (and the case fails)."""
    by_id = "_SEEN = {}\ndef total(xs):\n    return _SEEN.setdefault(id(xs), float(sum(xs)))\n"
    one = ["tuple", [["list", [["int", "1"]]]]]
    five = ["tuple", [["list", [["int", "5"]]]]]
    cases = [
        {"id": "a", "call": "total", "args": one, "kwargs": ["dict", []]},
        {"id": "b", "call": "total", "args": five, "kwargs": ["dict", []], "refill": "a"},
        {"id": "c", "call": "total", "args": five, "kwargs": ["dict", []], "refill": "not-run"},
    ]
    a, b, c = runner.run(by_id, {"mode": "check", "cases": cases, "attrs": {}})["outcomes"]
    assert a["value"] == ["float", 1.0] and b["value"] == ["float", 1.0] and c["value"] == ["float", 5.0]
    assert not b.get("mutated")
    fresh = "def total(xs):\n    return float(sum(xs))\n"
    a, b, c = runner.run(fresh, {"mode": "check", "cases": cases, "attrs": {}})["outcomes"]
    assert [o["value"] for o in (a, b, c)] == [["float", 1.0], ["float", 5.0], ["float", 5.0]]


KEEPER = """
def collect(xs):
    if not isinstance(xs, list):
        raise ValueError("a list, please")
    return list(xs)
"""


def test_a_result_larger_than_the_judge_reads_is_fitted_and_judged_case_by_case(monkeypatch):
    """runner.result_json: a function that returns everything it kept from earlier calls returns more than the judge
    reads; the result is cut to fit (outcomes whole up to half the limit, then long values as too-large markers and
    tracebacks cut), so the judge still reads it and names the first case that differs, instead of an unreadable
    result. Under half the limit the bytes are json.dumps's own."""
    grader = types.ModuleType("keeper_grader")

    def curated():
        for i in range(60):
            yield Case(id=f"c{i}", call="collect", args=([i] * 50,), explain={"en": "fifty copies"})
            yield Case(id=f"bad{i}", call="collect", args=((i,),), explain={"en": "a tuple"})

    grader.curated = curated
    prepared = prepare(grader, KEEPER, lesson="toy", checkpoint="1", seed=0)
    right = runner.run(KEEPER, prepared["plan"])
    assert runner.result_json(right) == json.dumps(right).encode()
    keeper = "kept = []\n" + KEEPER.replace("return list(xs)", "kept.extend(xs)\n    return list(kept)").replace(
        'raise ValueError("a list, please")', 'raise ValueError("a list, please" * 100)'
    )
    run = runner.run(keeper, prepared["plan"])
    monkeypatch.setattr(runner, "RUN_RESULT_LIMIT", 400_000)
    data = runner.result_json(run)
    assert len(json.dumps(run)) > 400_000 >= len(data)
    read = read_run(data)
    verdict = judge(prepared, read, "en")
    assert verdict["status"] == "fail"
    assert verdict["failure"]["case"] == "c1"  # the second call returns the first call's items too
    fitted = [o for o in read["outcomes"] if values.too_large(o.get("value", ["none"]))]
    assert fitted and all(o["id"].startswith("c") for o in fitted)  # only long values became markers
    assert read["outcomes"][0] == run["outcomes"][0]  # the first outcomes as they were
    bare = [o for o in read["outcomes"] if o["kind"] == "raise" and o.get("traceback") is None]
    assert bare and all(len(o["message"]) <= 200 for o in bare)  # the last ones: no traceback, the message cut


def test_values_past_the_runs_encode_budget_are_too_large_without_being_read(monkeypatch):
    """RUN_ENCODE_BUDGET: once a run's returned values have taken the budget, later values are written as too large
    (failing their case) instead of being read item by item, so code that returns ever more cannot spend the time
    limit in the engine's encoder; the earlier outcomes are written in full and the first wrong case is still named."""
    grader = types.ModuleType("keeper_grader")

    def curated():
        for i in range(30):
            yield Case(id=f"c{i}", call="collect", args=([i] * 50,), explain={"en": "fifty copies"})

    grader.curated = curated
    prepared = prepare(grader, KEEPER, lesson="toy", checkpoint="1", seed=0)
    keeper = "kept = []\n" + KEEPER.replace("return list(xs)", "kept.extend(xs)\n    return list(kept)")
    monkeypatch.setattr(runner, "RUN_ENCODE_BUDGET", 2_000)  # the first 8 calls: 50 + 100 + ... + 400 = 1800 items
    run = runner.run(keeper, prepared["plan"])
    marked = [o["id"] for o in run["outcomes"] if values.too_large(o["value"])]
    assert marked == [f"c{i}" for i in range(8, 30)]
    assert run["outcomes"][7]["value"][0] == "list" and len(run["outcomes"][7]["value"][1]) == 400
    verdict = judge(prepared, run, "en")
    assert (verdict["status"], verdict["passed"], verdict["failure"]["case"]) == ("fail", 1, "c1")
    monkeypatch.setattr(runner, "RUN_ENCODE_BUDGET", 10**9)
    assert judge(prepared, runner.run(KEEPER, prepared["plan"]), "en")["status"] == "pass"


def test_state_kept_between_calls_does_not_help_hard_coding(prepared):
    hard_coded = "def total(xs):\n    return 6.0\n"
    verdict = grade(prepared, hard_coded)
    assert verdict["status"] == "fail"
    assert verdict["failure"]["case"] == "empty"


def test_hostile_repr_never_shows_or_hangs(prepared):
    hostile = (
        "class Evil(float):\n"
        "    def __repr__(self):\n"
        "        while True:\n"
        "            pass\n"
        "    def __eq__(self, other):\n"
        "        return True\n"
        "class Raises:\n"
        "    def __repr__(self):\n"
        "        raise RuntimeError('no repr')\n"
        "def total(xs):\n"
        "    if isinstance(xs, tuple):\n"
        "        return Raises()\n"
        "    return Evil(sum(xs))\n"
    )
    verdict = grade(prepared, hostile)
    assert verdict["status"] == "fail"
    assert verdict["failure"]["actual"] == "<Evil object, a float subclass>"


def test_repr_that_prints_the_expected_text_fails(prepared):
    liar = "class Liar:\n    def __repr__(self):\n        return '6.0'\ndef total(xs):\n    return Liar()\n"
    verdict = grade(prepared, liar)
    assert verdict["status"] == "fail"
    assert verdict["failure"]["actual"] != "6.0"


def test_dataclass_with_future_annotations_and_type_hints_work():
    source = (
        "from __future__ import annotations\n"
        "import typing\n"
        "from dataclasses import dataclass\n"
        "@dataclass\n"
        "class Point:\n"
        "    x: float\n"
        "    label: str = 'p'\n"
        "hints = typing.get_type_hints(Point)\n"
        "print(sorted(hints))\n"
    )
    result = runner.run(source, {"mode": "run"})
    assert result["status"] == "ok", result["traceback"]
    assert result["stdout"] == "['label', 'x']\n"


def test_run_mode_executes_as_main():
    result = runner.run("if __name__ == '__main__':\n    print('demo')\n", {"mode": "run"})
    assert result["stdout"] == "demo\n"


def test_graders_cannot_be_imported_during_the_run(prepared):
    verdict = grade(prepared, "import graders.engine.prepare\n")
    assert verdict["status"] == "error"
    assert "No module named 'graders" in verdict["traceback"]
    import graders.engine.prepare  # noqa: F401  (and it is back afterwards)


def test_sys_exit_is_the_learners_exit_not_a_pass(prepared):
    verdict = grade(prepared, REFERENCE + "\nimport sys\nsys.exit(3)\n")
    assert verdict["status"] == "error"
    assert "exit code 3" in verdict["message"]


@pytest.mark.parametrize(
    "code, shown",
    [
        ("sys.exit(10 ** 5000)", "exit code <int of more than 4300 digits>"),
        ("class E:\n    def __str__(self):\n        return 1 / 0\nsys.exit(E())", "exit code <E object>"),
        ("class E:\n    def __str__(self):\n        raise SystemExit(1)\nsys.exit(E())", "exit code <E object>"),
        ("sys.exit('x' * 100_000)", "exit code " + "x" * EXIT_TEXT_LIMIT + "…)"),
    ],
    ids=["int-too-long", "str-raises", "str-exits", "long-text"],
)
def test_any_exit_code_is_reported_and_never_breaks_the_run(prepared, code, shown):
    """What ``sys.exit`` is given is the learner's: it is written into the run result as text that always exists and
    is bounded, never by an exception out of the engine (which the host then showed as its own traceback)."""
    result = runner.run(REFERENCE + "\nimport sys\n" + code + "\n", prepared["plan"])
    assert result["status"] == "exit"
    verdict = judge(prepared, result, "en")
    assert verdict["status"] == "error"
    assert shown in verdict["message"]


@pytest.mark.parametrize(
    "code, readable",
    [
        (3, True),
        (None, True),
        (True, True),
        ("bye", True),
        ("x" * (EXIT_TEXT_LIMIT + 1), True),
        ("x" * 10_000_000, False),
        (["list"], False),
        (1.5, False),
        ({"a": 1}, False),
    ],
)
def test_the_judge_reads_only_an_exit_code_the_runner_could_have_written(prepared, code, readable):
    """A run result comes from the learner's interpreter: an exit code no runner writes (too long, or not an int or
    text) makes the run unreadable instead of going into the verdict's message."""
    result = runner.run(REFERENCE + "\nimport sys\nsys.exit(3)\n", prepared["plan"])
    result["exit_code"] = code
    verdict = judge(prepared, result, "en")
    assert verdict["status"] == "error"
    assert ("exit_code" in verdict.get("detail", "")) is not readable
    assert len(verdict["message"]) < EXIT_TEXT_LIMIT + 200


@pytest.mark.parametrize(
    "code",
    [
        "def total(xs):\n    return 10 ** 5000\n",
        "import sys\nsys.set_int_max_str_digits(640)\n\ndef total(xs):\n    return 10 ** 700\n",
    ],
    ids=["past-the-default-limit", "past-a-lowered-limit"],
)
def test_an_int_too_long_to_write_fails_its_cases_not_the_whole_run(prepared, code):
    """An int Python will not write out in decimal is a result like any other: each case that returns one fails
    (with the type it got), where the engine's own ValueError once ended the run as the learner's error."""
    digits = sys.get_int_max_str_digits()
    verdict = grade(prepared, code)
    assert verdict["status"] == "fail", verdict.get("message")
    assert "too large to check (int)" in verdict["failure"]["reason"]
    assert verdict["failure"]["actual"] == "<int, too large to show>"
    assert verdict["failure"]["python_error"] is None
    assert sys.get_int_max_str_digits() == digits


def test_a_result_too_large_to_read_is_told_as_too_large_not_as_a_wrong_type(prepared):
    """A result past the run's encode budget comes back as a too-large marker of the right type name: the verdict
    counts it as too large (not as "a result of the wrong type", which the learner would chase in vain) and says
    what usually makes a result that large, in place of the case's own hint about its input."""
    verdict = grade(prepared, "def total(xs):\n    return [0.5] * 2_000_000\n")
    assert verdict["status"] == "fail", verdict.get("message")
    assert [(s["kind"], s["count"]) for s in verdict["summary"]] == [("too_large", 2), ("invalid_input", 1)]
    assert "too large to check" in verdict["summary_text"]
    first = verdict["failure"]
    assert "too large to check (list)" in first["reason"] and "type float" in first["reason"]
    assert first["actual"] == "<list, too large to show>"  # in the learner's language, not the engine's marker
    assert first["hint"].startswith("Return only what the task asks for")
    assert {f["kind"] for f in verdict["failing"]} == {"too_large", "invalid_input"}


def test_names_learner_code_chooses_stay_short_in_the_verdict(prepared):
    """An exception or warning class named with 100 000 characters: the run result keeps NAME_LIMIT of them, the
    judge reads it, and the verdict's sentences stay short."""
    code = (
        "import warnings\n"
        "E = type('E' * 100_000, (ValueError,), {})\n"
        "W = type('W' * 100_000, (UserWarning,), {})\n"
        "E.__module__ = 'builtins'  # so its name would go into builtin_mro too\n"
        "def total(xs):\n"
        "    warnings.warn('careful', W)\n"
        "    raise E('no')\n"
    )
    result = runner.run(code, prepared["plan"])
    raised = [o for o in result["outcomes"] if o["kind"] == "raise"]
    assert raised and all(
        len(o["exc"]) <= NAME_LIMIT
        and all(len(c) <= NAME_LIMIT for c in o["builtin_mro"])
        and all(len(w) <= NAME_LIMIT for w in o.get("warnings", []))
        for o in raised
    )
    verdict = judge(prepared, result, "en")
    assert verdict["status"] == "fail", verdict.get("detail")
    assert len(verdict["message"]) < 2 * NAME_LIMIT + 200
    assert len(verdict["failure"]["reason"]) < 2 * NAME_LIMIT + 200


@pytest.mark.parametrize(
    "field, value",
    [
        ("exc", "E" * (NAME_LIMIT + 1)),
        ("builtin_mro", ["E" * (NAME_LIMIT + 1)]),
        ("warnings", ["W" * (NAME_LIMIT + 1)]),
    ],
)
def test_the_judge_refuses_names_no_runner_writes(prepared, field, value):
    result = runner.run("def total(xs):\n    raise ValueError('no')\n", prepared["plan"])
    result["outcomes"][0][field] = value
    verdict = judge(prepared, result, "en")
    assert verdict["status"] == "error" and "malformed" in verdict["detail"]


@pytest.mark.parametrize(
    "attribute",
    [
        "@property\n    def __traceback__(self):\n        raise RuntimeError('no')",
        "@property\n    def filename(self):\n        raise SystemExit(0)",
        "@property\n    def __notes__(self):\n        raise KeyboardInterrupt",
    ],
    ids=["traceback", "filename", "notes"],
)
@pytest.mark.parametrize("base", ["ValueError", "SyntaxError"])
def test_an_exception_whose_attributes_fail_to_read_still_gets_its_verdict(prepared, attribute, base):
    """The runner formats every traceback itself, after the interpreter is restored: an exception class whose
    attributes raise (anything, SystemExit and KeyboardInterrupt too) costs only what could not be read of it."""
    code = f"class E({base}):\n    {attribute}\n\ndef total(xs):\n    raise E('x')\n"
    result = runner.run(code, prepared["plan"])
    assert result["status"] == "ok" and len(result["outcomes"]) == 3
    assert all(o["kind"] == "raise" and o["exc"] == "E" and o["traceback"] for o in result["outcomes"])
    verdict = judge(prepared, result, "en")
    assert verdict["status"] == "fail" and "raised E" in verdict["message"]


def test_a_name_with_line_breaks_or_escapes_is_written_on_one_line(prepared):
    code = "E = type('E\\n\\nPASS\\x1b[2J', (ValueError,), {})\ndef total(xs):\n    raise E()\n"
    result = runner.run(code, prepared["plan"])
    assert {o["exc"] for o in result["outcomes"]} == {"E\\n\\nPASS\\x1b[2J"}
    assert judge(prepared, result, "en")["status"] == "fail"
    result["outcomes"][0]["exc"] = "E\nPASS"  # what a forged result could say instead
    assert "malformed" in judge(prepared, result, "en")["detail"]


def test_the_judge_refuses_an_outcomes_error_line_no_runner_writes(prepared):
    result = runner.run("def total(xs):\n    raise ValueError('no')\n", prepared["plan"])
    assert all(type(o["error_line"]) is int for o in result["outcomes"])
    result["outcomes"][0]["error_line"] = {"html": "<img>"}
    verdict = judge(prepared, result, "en")
    assert verdict["status"] == "error" and "error_line" in verdict["detail"]


def test_a_leading_byte_order_mark_is_skipped_as_python_does(prepared):
    """A BOM an editor saved or a paste carried: CPython's own loader skips it, compile() on the text does not."""
    verdict = grade(prepared, "\ufeff" + REFERENCE)
    assert verdict["status"] == "pass", verdict.get("traceback")


@pytest.mark.parametrize(
    "body, got",
    [
        ("    x = [0]\n    for _ in range(30):\n        x = [x] * 10\n    return x\n", "too large to check (list)"),
        ("    import numpy\n    return numpy\n", "module"),
    ],
    ids=["shared-parts", "a-module"],
)
def test_a_result_too_big_to_read_fails_its_case_at_once(prepared, body, got):
    """A result that would take the engine longer to read than the learner's code took to make (10**30 items made of
    30 shared lists, a module's whole namespace) fails as what it is, not as a time limit."""
    verdict = grade(prepared, "def total(xs):\n" + body)
    assert verdict["status"] == "fail", verdict.get("message")
    assert got in verdict["failure"]["reason"]


def test_process_wide_settings_do_not_outlive_the_run(tmp_path):
    """Settings no module namespace holds are put back too: the garbage collector, the int digits limit, the working
    directory and the SIGINT handler (how a host's Stop arrives)."""
    import gc
    import os
    import signal

    before = (
        gc.isenabled(),
        gc.get_threshold(),
        sys.get_int_max_str_digits(),
        os.getcwd(),
        signal.getsignal(signal.SIGINT),
    )
    source = (
        "import gc, os, signal, sys\n"
        "gc.disable()\n"
        "gc.set_threshold(1, 1, 1)\n"
        "sys.set_int_max_str_digits(640)\n"
        f"os.chdir({str(tmp_path)!r})\n"
        "signal.signal(signal.SIGINT, signal.SIG_IGN)\n"
        "print(gc.isenabled(), sys.get_int_max_str_digits(), os.getcwd() == "
        f"{str(tmp_path)!r})\n"
    )
    result = runner.run(source, {"mode": "run"})
    assert result["stdout"] == "False 640 True\n", result  # they did change while the run lasted
    after = (
        gc.isenabled(),
        gc.get_threshold(),
        sys.get_int_max_str_digits(),
        os.getcwd(),
        signal.getsignal(signal.SIGINT),
    )
    assert after == before


def test_a_run_collects_young_garbage_less_often_yet_still_collects_it():
    """While a run lasts the youngest generation's threshold is ``RUN_GC_YOUNG``, not the host's (a Check's cases
    make ~10^5 containers, whose collections would walk the whole interpreter again and again); a cycle the learner's
    code drops is still collected while it runs, and the host's thresholds are back afterwards."""
    import gc

    before = gc.get_threshold()
    source = (
        "import gc, weakref\n"
        "class Node: pass\n"
        "node = Node(); node.me = node; gone = weakref.ref(node); del node\n"
        f"kept = [[] for _ in range({3 * runner.RUN_GC_YOUNG})]\n"
        "print(gc.get_threshold()[0], gone() is None)\n"
    )
    result = runner.run(source, {"mode": "run"})
    assert result["stdout"] == f"{runner.RUN_GC_YOUNG} True\n", result
    assert gc.get_threshold() == before


def test_keyboard_interrupt_raised_by_learner_is_never_a_pass(prepared):
    verdict = grade(prepared, REFERENCE + "\nraise KeyboardInterrupt\n")
    assert verdict["status"] == "error"
    assert "KeyboardInterrupt" in verdict["message"]


def test_recursion_error_gives_a_short_traceback(prepared):
    verdict = grade(prepared, "def f():\n    f()\nf()\n")
    assert verdict["status"] == "error"
    assert "RecursionError" in verdict["traceback"]
    assert "more times" in verdict["traceback"]
    assert len(verdict["traceback"]) < 2000


def _exceptions():
    """Exceptions of every shape a learner's code raises, for the engine's own exception line."""

    class Shown:
        def __str__(self):
            return "shown"

    class Broken:
        def __str__(self):
            raise RuntimeError("no")

    class Text(str):
        pass

    noted = ValueError("with a note")
    noted.add_note("a note")
    learner_class = type("NotAllowed", (ValueError,), {"__module__": "main"})
    try:
        compile("def f(:", "main.py", "exec")
    except SyntaxError as error:
        syntax = error
    return [
        ValueError("claims must be a list"),
        ValueError(),
        ValueError(""),
        ValueError("two", "args"),
        TypeError(Shown()),
        TypeError(Broken()),
        KeyError("k"),
        KeyError(),
        OSError(2, "No such file or directory", "x"),
        FileNotFoundError(2, "gone"),
        UnicodeDecodeError("utf-8", b"\xff", 0, 1, "invalid start byte"),
        ZeroDivisionError("division by zero"),
        RecursionError("maximum recursion depth exceeded"),
        StopIteration(3),
        SystemExit(2),
        KeyboardInterrupt(),
        ExceptionGroup("many", [ValueError(1), TypeError(2)]),
        ValueError(Text("a str subclass")),
        noted,
        learner_class("a learner's class"),
        syntax,
    ]


@pytest.mark.parametrize("error", _exceptions(), ids=lambda e: type(e).__name__)
def test_the_engines_exception_line_is_the_one_traceback_writes(error):
    """runner._exception_only makes a built-in exception's line itself (a Check has a thousand): for every shape of
    exception it gives what traceback.format_exception_only does."""
    import traceback

    assert runner._exception_only(error) == traceback.format_exception_only(type(error), error)


@pytest.mark.parametrize("where", ["module", "case"])
def test_os_exit_in_a_subprocess_is_an_error_not_a_pass(prepared, where):
    """os._exit, in the module or in a graded call, ends the process without a result: an error, told as Python
    stopping abruptly (when is not known), not as an error raised before any case could run."""
    source = (
        "import os\nos._exit(0)\n"
        if where == "module"
        else REFERENCE + "\n_reference = total\ndef total(xs):\n    import os\n    os._exit(0)\n"
    )
    run = cpython.run(source, prepared["plan"], time_limit=2.0)
    verdict = judge(prepared, run, "en")
    assert verdict["status"] == "error"
    assert verdict["message"].startswith("Python stopped abruptly while your code ran"), verdict["message"]
    assert "before any case" not in verdict["message"]


def test_sleeping_code_hits_the_wall_clock_limit(prepared, monkeypatch):

    monkeypatch.setattr(cpython, "WALL_ALLOWANCE", 0.5)
    run = cpython.run("import time\ntime.sleep(10**6)\n", prepared["plan"], time_limit=0.5)
    assert judge(prepared, run, "en")["status"] == "timeout"


def test_a_result_larger_than_the_pipe_buffer_comes_back_from_the_subprocess(prepared):
    run = cpython.run(REFERENCE + "\nprint('x' * 150_000)\n", prepared["plan"], time_limit=2.0)
    verdict = judge(prepared, run, "en")
    assert verdict["status"] == "pass"
    assert len(verdict["stdout"]) == 150_001


def test_the_output_limit_is_signalled_at_once_to_a_streaming_host():
    seen = []
    source = "for i in range(50):\n    print('y' * 10_000)\n"
    result = runner.run(source, {"mode": "run"}, lambda stream, text: seen.append((stream, len(text))))
    assert result["truncated"] is True
    assert ("truncated", 0) in seen  # the host can show the notice while a flood keeps running
    streamed = sum(n for stream, n in seen if stream == "stdout")
    assert streamed == len(result["stdout"]) == runner.OUTPUT_LIMIT


# ---------------------------------------------------------------- the CPython host's zygote


def _printed(source: str) -> str:
    result = cpython.run(source, {"mode": "run"}, time_limit=5.0)
    assert result["status"] == "ok", result
    return result["stdout"].strip()


def test_each_run_forked_from_the_zygote_starts_fresh():
    """Nothing a run changes (a module's attributes, random state) is seen by the next run of the same thread."""
    assert _printed("import math\nmath.left_behind = 1\nprint(hasattr(math, 'left_behind'))") == "True"
    assert _printed("import math\nprint(hasattr(math, 'left_behind'))") == "False"
    draws = {_printed("import random, numpy\nprint(random.random(), numpy.random.random())") for _ in range(3)}
    assert len(draws) == 3  # reseeded in every child, as in a process started for the run


def test_learner_code_cannot_reach_the_zygotes_pipes():
    """The child's stdin and stdout are /dev/null, not the pipes the zygote takes requests from and answers on."""
    assert _printed("import os\nprint(repr(os.read(0, 100)))") == "b''"
    assert (
        cpython.run("import os\nos.write(1, b'\\x00' * 64)\nos.close(0)\nos.close(1)", {"mode": "run"}, time_limit=5.0)[
            "status"
        ]
        == "ok"
    )
    assert _printed("print('still answering')") == "still answering"


@pytest.fixture(params=[True, False], ids=["zygote", "fresh"])
def zygote(request, monkeypatch):
    """Each way the command line runs learner code: forked from its zygote (True), or in an interpreter started for
    the run (False, ``$WERKBANK_NO_ZYGOTE``)."""
    if not request.param:
        monkeypatch.setenv("WERKBANK_NO_ZYGOTE", "1")
    return request.param


LINUX_PROC = sys.platform.startswith("linux") and __import__("os").path.exists("/proc/self/status")


@pytest.mark.skipif(not LINUX_PROC, reason="the confinement is Linux's (prctl, capabilities, /proc)")
def test_a_run_has_no_capabilities_and_gains_none(zygote):
    """Even as root, learner code runs with no capabilities (none to regain by starting a program) and cannot gain
    privileges: it cannot read or write the grading processes through /proc (see the next test)."""
    status = _printed("print(open('/proc/self/status').read())")
    fields = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
    assert fields["NoNewPrivs"].strip() == "1"
    for name in ("CapEff", "CapPrm", "CapBnd", "CapInh"):
        assert int(fields[name], 16) == 0, (name, fields[name])


@pytest.mark.skipif(not LINUX_PROC, reason="the confinement is Linux's (prctl, capabilities, /proc)")
def test_learner_code_cannot_reach_the_zygote_through_proc():
    """The zygote is not dumpable and the run has no CAP_SYS_PTRACE: its memory, and the pipe it answers the grading
    process on, are out of reach (as another user's would be), whoever runs the grader."""
    reached = _printed(
        "import os\n"
        "zygote = os.getppid()\n"
        "out = []\n"
        "for name, mode in (('mem', 'rb'), ('fd/1', 'wb'), ('environ', 'rb')):\n"
        "    path = f'/proc/{zygote}/{name}'\n"
        "    try:\n"
        "        open(path, mode).close()\n"
        "        out.append(path)\n"
        "    except OSError:\n"
        "        pass\n"
        "print(out)\n"
    )
    assert reached == "[]"


@pytest.mark.skipif(not LINUX_PROC, reason="needs fork")
def test_learner_runs_never_fork_from_the_zygote_that_ran_the_authors_programs():
    """The declared mistakes run in a zygote of their own (``trusted``): a learner's run starts from a process whose
    memory never held another program's source or results."""
    trusted = cpython.run("import os\nprint(os.getppid())", {"mode": "run"}, time_limit=5.0, trusted=True)
    learner = _printed("import os\nprint(os.getppid())")
    assert trusted["status"] == "ok" and trusted["stdout"].strip() != learner


def test_grading_runs_the_mistakes_as_trusted_and_the_learners_file_as_learner_code(monkeypatch, tmp_path):
    from werkbank import grading

    seen = []
    real = cpython.run
    monkeypatch.setattr(
        cpython,
        "run",
        lambda source, plan, **kw: seen.append((source, kw.get("trusted", False))) or real(source, plan, **kw),
    )
    monkeypatch.setattr(grading, "_PREPARED", type(grading._PREPARED)())
    monkeypatch.delenv(grading.CACHE_ENV, raising=False)
    mine = "def recall_at_k(ranking, relevant, k):\n    return 0.0\n"
    grading.grade_source("retrieval-evaluation", "1", mine)
    assert any(trusted for _, trusted in seen), "the checkpoint's declared mistakes ran"
    assert {trusted for source, trusted in seen if source == mine} == {False}
    assert all(trusted for source, trusted in seen if source != mine)


def test_a_zygote_that_answers_more_than_any_run_makes_is_replaced_not_waited_for(monkeypatch):
    """A zygote whose answer claims more bytes than any run's result (a broken or hijacked pipe) neither makes the
    grading process allocate them nor wait for them: the run happens in an interpreter of its own instead."""
    liar = (
        "import os, struct, sys, time\n"
        "head = sys.stdin.buffer.read(16)\n"
        "sys.stdin.buffer.read(struct.unpack('!Qd', head)[0])\n"
        "sys.stdout.buffer.write(struct.pack('!q', os.getpid()) + struct.pack('!iQQ', 0, 1 << 40, 0))\n"
        "sys.stdout.buffer.flush()\n"
        "time.sleep(60)\n"
    )
    monkeypatch.delenv("WERKBANK_NO_ZYGOTE", raising=False)
    monkeypatch.setattr(cpython, "_ZYGOTE_BOOT", liar)
    monkeypatch.setattr(cpython._Zygote, "_broken", False)
    cpython._Zygote.forget()
    try:
        assert _printed("print('answered')") == "answered"
    finally:
        cpython._Zygote.forget()
        monkeypatch.setattr(cpython._Zygote, "_broken", False)


def test_a_dead_zygote_is_replaced_and_the_run_still_happens():
    zygote = cpython._Zygote.mine()
    if zygote is None:
        pytest.skip("this platform cannot fork")
    zygote.process.kill()
    zygote.process.wait()
    assert _printed("print(6 * 7)") == "42"
    assert cpython._Zygote.mine() is not zygote


def test_runs_without_the_zygote_give_the_same_results(prepared, monkeypatch):
    sources = [REFERENCE, "def total(xs):\n    return 0.0\n", "import os\nos._exit(3)\n", "while True:\n    pass\n"]
    forked = [judge(prepared, cpython.run(s, prepared["plan"], time_limit=0.5), "en")["status"] for s in sources]
    monkeypatch.setenv("WERKBANK_NO_ZYGOTE", "1")
    assert cpython._Zygote.mine() is None
    fresh = [judge(prepared, cpython.run(s, prepared["plan"], time_limit=0.5), "en")["status"] for s in sources]
    assert forked == fresh == ["pass", "fail", "error", "timeout"]


def test_a_zygote_that_cannot_start_falls_back_to_an_interpreter_per_run(monkeypatch):
    monkeypatch.delenv("WERKBANK_NO_ZYGOTE", raising=False)
    monkeypatch.setattr(cpython, "_ZYGOTE_BOOT", "import sys; sys.exit(1)")
    monkeypatch.setattr(cpython._Zygote, "_broken", False)
    cpython._Zygote.forget()
    assert _printed("print('from a fresh interpreter')") == "from a fresh interpreter"
    assert cpython._Zygote._broken and cpython._Zygote.mine() is None  # not tried again for every run


def test_command_line_runs_hash_strings_the_same_way_whatever_process_starts_them():
    """The child a run happens in has the fixed hash seed, however the parent was started: code that iterates a set
    of strings gives one result (and one verdict) on every run. An isolated interpreter (-I) would ignore the seed."""
    import json
    import os
    import subprocess

    code = "def order():\n    return list({'d1', 'd2', 'd3', 'd4', 'd5', 'x', 'yy'})\n"
    plan = {"mode": "check", "attrs": {}, "cases": [{"id": "a", "call": "order", "json": "[[],{}]"}]}
    probe = (
        "import json, sys\nfrom graders.hosts import cpython\n"
        f"print(json.dumps(cpython.run({code!r}, {plan!r})['outcomes'][0]['value']))"
    )
    seen = set()
    for seed in ("1", "2", "3"):
        env = dict(os.environ, PYTHONHASHSEED=seed)
        out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, env=env, check=True)
        seen.add(out.stdout.strip())
    assert len(seen) == 1, seen
    zero = subprocess.run(
        [sys.executable, "-c", "print(list({'d1', 'd2', 'd3', 'd4', 'd5', 'x', 'yy'}))"],
        capture_output=True,
        text=True,
        env=dict(os.environ, PYTHONHASHSEED="0"),
        check=True,
    )
    assert values.decode(json.loads(seen.pop())) == eval(zero.stdout)  # noqa: S307 - a list of literals


# ----------------------------------------------------------------------------------------------- early parts


def _parts(prepared, source):
    """Run ``source`` as the learner worker does, with the parts it reports while the cases run."""
    import json

    parts = []

    def report(outcomes):
        parts.append(json.loads(json.dumps({"status": "ok", "outcomes": outcomes})))

    return runner.run(source, prepared["plan"], None, report), parts


@pytest.fixture(scope="module")
def claims_one():
    from werkbank.grading import prepared_checkpoint
    from werkbank.lessons import load_lesson

    checkpoint = load_lesson("claims-abstention").checkpoint("1")
    return checkpoint, prepared_checkpoint(checkpoint, lang="en")


def test_a_check_reports_its_cases_in_parts_at_each_mark_and_the_result_is_unchanged(claims_one):
    checkpoint, prepared = claims_one
    result, parts = _parts(prepared, checkpoint.solution())
    marks = [m for m in runner.PROGRESS_AT if m <= len(prepared["plan"]["cases"])]
    assert [len(p["outcomes"]) for p in parts] == [b - a for a, b in zip([0, *marks], marks)]
    reported = [o["id"] for p in parts for o in p["outcomes"]]
    assert reported == [c["id"] for c in prepared["plan"]["cases"]][: marks[-1]]
    assert judge(prepared, result, "en")["status"] == "pass"
    # a Run, even one that calls cases (a plot's), reports nothing
    run_plan = {"mode": "run", "cases": prepared["plan"]["cases"][:40], "attrs": prepared["plan"].get("attrs", {})}
    seen = []
    runner.run(checkpoint.solution(), run_plan, None, seen.append)
    assert seen == []


def test_the_early_verdict_names_the_first_failure_a_part_shows_and_never_a_pass(claims_one):
    from graders.engine.judge import judge_early

    checkpoint, prepared = claims_one
    _, parts = _parts(prepared, checkpoint.solution())
    assert all(judge_early(prepared, part, "en") is None for part in parts)
    wrong = checkpoint.solution().replace('"contradicted"', '"supported"', 1)
    result, parts = _parts(prepared, wrong)
    final = judge(prepared, result, "en")
    assert final["status"] == "fail"
    early = next(v for v in (judge_early(prepared, p, "en") for p in parts) if v)
    assert early["status"] == "fail" and early["early"] is True
    assert early["failure"]["case"] == final["failure"]["case"]
    assert early["passed"] is None and "summary" not in early and early["total"] == final["total"]
    # a part that is not a well-formed run result says nothing
    assert judge_early(prepared, {"status": "ok", "outcomes": [{"id": 3}]}, "en") is None
    assert judge_early(prepared, {"status": "ok", "outcomes": []}, "en") is None


def test_a_listener_that_fails_or_learner_patches_cannot_change_the_result(claims_one):
    checkpoint, prepared = claims_one

    def broken(outcomes):
        raise RuntimeError("the host's listener broke")

    result = runner.run(checkpoint.solution(), prepared["plan"], None, broken)
    assert judge(prepared, result, "en")["status"] == "pass"


def test_each_call_records_its_warnings_from_the_same_start_whatever_the_one_before_left(prepared):
    """A Check sets the warnings module up once for all its calls (runner.WarningLog), and again before a call only
    when the one before changed it: a filter a call leaves behind (in place, or a new list and another showwarning)
    reaches no later call, each call's warnings are its own, and the module is as it was after the run."""
    import warnings

    code = (
        "import warnings\n"
        "CALLS = [0]\n"
        "def total(xs):\n"
        "    CALLS[0] += 1\n"
        "    if CALLS[0] == 1:\n"
        "        warnings.simplefilter('ignore')  # left behind, in place\n"
        "    warnings.warn('careful', UserWarning if CALLS[0] != 3 else RuntimeWarning)\n"
        "    if CALLS[0] == 2:\n"
        "        warnings.filters = []  # left behind: another list, and nothing shown\n"
        "        warnings.showwarning = lambda *a, **k: None\n"
        "    return float(sum(xs))\n"
    )
    filters, shown = warnings.filters, warnings.showwarning
    entries = list(filters)
    result = runner.run(code, prepared["plan"])
    assert [o.get("warnings") for o in result["outcomes"]] == [None, ["UserWarning"], ["RuntimeWarning"]]
    assert warnings.filters is filters and warnings.filters == entries and warnings.showwarning is shown


LEAVES_A_PROCESS = (
    """
import os, tempfile, time
marker = os.path.join(tempfile.gettempdir(), "leftover")  # the run's own folder: the only one it may write in
pid = os.fork()
if pid == 0:
    os.setsid()  # a session of its own: out of the run's process group
    if os.fork() == 0:
        with open(marker, "w") as out:
            out.write(str(os.getpid()))
        time.sleep(60)  # still holding the run's result and stderr pipes
        os._exit(0)
    os._exit(0)
os.waitpid(pid, 0)
while not os.path.exists(marker) or not open(marker).read():
    time.sleep(0.01)
print(open(marker).read())
"""
    + REFERENCE
)


def test_a_process_learner_code_leaves_behind_neither_holds_up_the_verdict_nor_outlives_the_run(prepared, zygote):
    """Code that starts a process which detaches and holds the run's pipes: a Run of it still ends at once, and on
    the zygote's Linux that process is ended with the run (the fresh interpreter ends its own process group). A Check
    refuses it the process (runner._install_guard): its first fork raises, at once too."""
    import os
    import time

    if zygote and cpython._Zygote.mine() is None:
        pytest.skip("this platform cannot fork")
    start = time.monotonic()
    checked = cpython.run(LEAVES_A_PROCESS, prepared["plan"])
    assert checked["status"] == "error" and "os.fork is not available while a Check" in checked["traceback"], checked
    assert checked["stdout"] == ""
    ran = cpython.run(LEAVES_A_PROCESS, {"mode": "run"})
    assert ran["status"] == "ok", ran
    assert time.monotonic() - start < 5  # not the wall-clock limit, nor the leftover's 60 s
    leftover = int(ran["stdout"])
    if zygote and os.path.exists("/proc/self/task"):
        with pytest.raises(ProcessLookupError):
            os.kill(leftover, 0)
    else:
        os.kill(leftover, 9)  # a session of its own escapes a process group; end it here


def test_a_flood_on_the_pipes_does_not_fill_the_grading_processes_memory(prepared):
    """Learner code may write hundreds of megabytes to stderr or to the result pipe: the zygote keeps only what a
    verdict can use (the end of stderr, a result up to the judge's limit and one byte more)."""
    cpython.run(REFERENCE, prepared["plan"], time_limit=5.0)  # the zygote started and grown to its working size
    zygote = cpython._Zygote.mine()
    if zygote is None or not __import__("os").path.exists(f"/proc/{zygote.process.pid}/status"):
        pytest.skip("needs the zygote and /proc")

    def peak() -> int:
        with open(f"/proc/{zygote.process.pid}/status") as status:
            return next(int(line.split()[1]) for line in status if line.startswith("VmHWM")) * 1024

    before = peak()
    flood = (
        "import os, stat\n"
        "pipes = []\n"
        "for fd in map(int, os.listdir('/proc/self/fd')):\n"
        "    try:\n"
        "        if fd > 2 and stat.S_ISFIFO(os.fstat(fd).st_mode):\n"
        "            pipes.append(fd)\n"
        "    except OSError:\n"
        "        pass\n"
        "chunk = b'x' * 2**20\n"
        "for _ in range(300):\n"
        "    for fd in [2] + pipes:  # stderr and the result pipe\n"
        "        os.write(fd, chunk)\n"
    )
    run = cpython.run(flood + REFERENCE, prepared["plan"], time_limit=5.0)
    assert run.get("problem") == "too large"  # the result pipe got more than the judge reads
    assert judge(prepared, run, "en")["status"] == "error"
    assert peak() - before < 100 * 2**20  # 600 MB went through


@pytest.mark.parametrize("in_case", [True, False])
def test_a_valueerror_is_explained_for_a_case_or_for_a_run(in_case):
    """In a Check a ValueError is read against the case ("where this case expects something else"); a Run has no
    case, and was told the same. A Run's explanation speaks of the values on the line."""
    from graders.engine.judge import explain_error

    said = explain_error("ValueError", ["ValueError", "Exception"], "bad", 3, "en", in_case=in_case)["explain"]
    assert ("this case" in said) is in_case
    assert "values on this line" in said or in_case


def test_a_built_in_error_reads_as_python_prints_it_and_a_file_error_is_explained():
    """A built-in exception's message is its class's own text (an OSError's errno and file name, not its bare
    arguments), and a file the page's small file system lacks is explained as such, not as raised by the learner."""
    from graders.engine.judge import explain_error

    run = runner.run("open('/no/such/file.txt')\n", {"mode": "run"})
    exception = run["exception"]
    assert exception["exc"] == "FileNotFoundError"
    assert exception["message"] == "[Errno 2] No such file or directory: '/no/such/file.txt'"
    explained = explain_error(**exception, line=1, lang="en")
    assert "file system of its own" in explained["explain"]
    # a learner's subclass still gets BaseException's reading, never its own __str__
    run = runner.run(
        "class Loud(KeyError):\n    def __str__(self):\n        return 'mine'\nraise Loud('k')\n", {"mode": "run"}
    )
    assert run["exception"]["message"] == "k"


def test_learner_code_goes_only_recursion_depth_calls_deep_whatever_limit_it_sets():
    """Recursion through built-ins (sorted(key=f)) overflows a browser worker's stack before Python's own limit and
    crashes Python there, where CPython raises RecursionError: learner code gets RECURSION_DEPTH calls in every
    runtime, raising the limit cannot lift that, and the engine's own limit and function are back afterwards."""
    from graders.engine.settings import RECURSION_DEPTH

    before = sys.getrecursionlimit()
    code = (
        "import sys\nsys.setrecursionlimit(100000)\n"
        "def s(n):\n    return 0 if n == 0 else 1 + sorted([n - 1], key=s)[0]\n"
        f"print(s({RECURSION_DEPTH - 20}))\ns({RECURSION_DEPTH + 20})\n"
    )
    run = runner.run(code, {"mode": "run"})
    assert run["stdout"] == f"{RECURSION_DEPTH - 20}\n"
    assert run["exception"]["exc"] == "RecursionError"
    assert sys.getrecursionlimit() == before and sys.setrecursionlimit is builtins_setrecursionlimit
    # a case's call gets the same room
    plan = {
        "mode": "check",
        "attrs": {},
        "cases": [{"id": "deep", "call": "f", "json": f"[[{RECURSION_DEPTH + 20}],{{}}]"}],
    }
    run = runner.run("def f(n):\n    return 0 if n == 0 else 1 + f(n - 1)\n", plan)
    assert run["outcomes"][0]["kind"] == "raise" and run["outcomes"][0]["exc"] == "RecursionError"


builtins_setrecursionlimit = sys.setrecursionlimit


def test_every_reference_run_stays_far_inside_the_encode_budget():
    """A right solution returns the reference's values, so the reference's run shows what RUN_ENCODE_BUDGET must hold:
    each checkpoint's whole case set takes at most a third of it (a value past it would fail a right solution)."""
    from werkbank.grading import prepared_checkpoint
    from werkbank.lessons import load_all

    taken = {}
    encode = values.encode

    def counted(x, attrs=None, budget=None):
        before = budget[0] if budget is not None else 0  # the run's budget: each returned value is written against it
        wire = encode(x, attrs, budget)
        taken[key] += before - budget[0] if budget is not None else 0
        return wire

    for lesson in load_all():
        for checkpoint in lesson.checkpoints:
            key = f"{lesson.id}/{checkpoint.id}"
            taken[key] = 0
            plan = prepared_checkpoint(checkpoint)["plan"]
            values.encode = counted
            try:
                run = runner.run(checkpoint.solution(), plan)
            finally:
                values.encode = encode
            assert not any(values.too_large(o.get("value", ["none"])) for o in run["outcomes"]), key
    assert max(taken.values()) <= runner.RUN_ENCODE_BUDGET // 3, taken
    assert min(taken.values()) >= 0 and max(taken.values()) > 0 and len(taken) >= 9


def test_numpys_floating_point_warnings_are_not_recorded_but_its_own_warnings_are():
    """numpy's floating-point warnings come from the CPU's status flags, which WebAssembly lacks: Pyodide never issues
    them, so neither runtime records them (one verdict); a warning numpy issues itself, as np.mean of an empty array's
    "Mean of empty slice", is recorded in both, and so is the learner's own RuntimeWarning with any other text."""
    source = (
        "import warnings\nimport numpy as np\n"
        "def divide(x):\n    return float(np.float64(x) / np.float64(0.0))\n"
        "def mean(x):\n    return float(np.mean(np.array(x, dtype=float)))\n"
        "def own(x):\n    warnings.warn('divide by zero, said I', RuntimeWarning)\n    return x\n"
    )
    namespace = {}
    exec(compile(source, "main.py", "exec"), namespace)
    outcomes = {
        name: runner.call_case(namespace, {"id": name, "call": name, "json": json.dumps([[arg], {}])}, {})
        for name, arg in (("divide", 0.0), ("mean", []), ("own", 1))
    }
    assert "warnings" not in outcomes["divide"]  # "invalid value encountered in scalar divide": not recorded
    assert outcomes["mean"]["warnings"] == ["RuntimeWarning"]  # "Mean of empty slice"
    assert outcomes["own"]["warnings"] == ["RuntimeWarning"]


def test_a_cases_hint_is_shown_only_where_it_speaks_to_what_went_wrong():
    """A case's hint says what its input should give: it comes with a wrong value, not with a result of the wrong
    type; where a declared mistake fails exactly like the learner, the author's words for that mistake replace it."""

    def curated():
        yield Case(id="three", call="total", args=([1.0, 2.0, 3.0],), explain={"en": "adds"}, hint={"en": "Add all."})

    grader = toy_grader(curated=curated)
    off_by_one = REFERENCE.replace("float(sum(xs))", "float(sum(xs[1:]))")
    mistakes = [{"name": "skips_first", "source": off_by_one, "feedback": {"en": "Start at the first item."}}]
    hinted = prepare(grader, REFERENCE, lesson="toy", checkpoint="1", seed=0)
    told = prepare(grader, REFERENCE, lesson="toy", checkpoint="1", seed=0, mistakes=mistakes)
    wrong_value = grade(hinted, REFERENCE.replace("float(sum(xs))", "float(sum(xs)) + 1"))["failure"]
    assert (wrong_value["kind"], wrong_value["hint"]) == ("wrong_value", "Add all.")
    wrong_type = grade(hinted, "from fractions import Fraction\n" + REFERENCE.replace("float(sum", "Fraction(sum"))
    assert wrong_type["failure"]["kind"] == "wrong_type" and wrong_type["failure"]["hint"] is None
    mistaken = grade(told, off_by_one)["failure"]
    assert mistaken["mistake"] == "skips_first" and mistaken["hint"] is None
    assert mistaken["feedback"] == "Start at the first item."


# ---------------------------------------------------------------- learner code against the engine itself

#: Tries every way the guard refuses to code a Check runs (runner._install_guard) and prints those refused.
REACH = """
import gc, sys, threading
refused = []
def attempt(name, reach):
    try:
        reach()
    except RuntimeError:
        refused.append(name)
def traceback_frame():
    try:
        raise ValueError
    except ValueError as error:
        return error.__traceback__.tb_frame
def generator():
    yield 1
def ctypes_memory():
    import ctypes
    ctypes.string_at(id(refused), 1)
heard = []
# added (for good: so it hears one event and needs nothing of this module), or refused in silence
sys.addaudithook(lambda event, args, heard=heard: heard.append(event) if not heard else None)
compile("1", "x", "eval")
if not heard:
    refused.append("sys.addaudithook")
attempt("sys._getframe", lambda: sys._getframe(0))
attempt("tb_frame", traceback_frame)
attempt("gi_frame", lambda: generator().gi_frame)
attempt("gc.get_objects", gc.get_objects)
attempt("gc.get_referrers", lambda: gc.get_referrers(refused))
attempt("gc.get_referents", lambda: gc.get_referents(refused))
attempt("sys.settrace", lambda: sys.settrace(None))
attempt("sys.setprofile", lambda: sys.setprofile(None))
attempt("thread", lambda: threading.Thread(target=len, args=((),)).start())
attempt("ctypes", ctypes_memory)
attempt("__code__", lambda: setattr(traceback_frame, "__code__", generator.__code__))
import os, subprocess
attempt("os.system", lambda: os.system("true"))
attempt("subprocess", lambda: subprocess.run(["true"]))
print("refused", sorted(refused))
"""
GUARDED = sorted(
    "sys.addaudithook sys._getframe tb_frame gi_frame gc.get_objects gc.get_referrers gc.get_referents sys.settrace "
    "sys.setprofile thread ctypes __code__ os.system subprocess".split()
)


def test_code_a_check_runs_reaches_no_frame_no_object_of_the_engine_and_cannot_watch_it():
    """Under a Check every way to the engine's frames and objects, and every way to run beside it, raises
    RuntimeError; a Run allows them all (the guard is a Check's, and the code above does reach them there)."""
    checked = runner.run(REACH, {"mode": "check", "cases": []})
    assert checked["status"] == "ok", checked["traceback"]
    assert checked["stdout"] == f"refused {GUARDED}\n"
    ran = runner.run(REACH, {"mode": "run"})
    assert ran["status"] == "ok", ran["traceback"]
    assert ran["stdout"] == "refused []\n"


def _module(source: str) -> dict:
    namespace: dict = {}
    exec(compile(source, "main.py", "exec"), namespace)
    return namespace


ALIASING = """
import numpy as np
class Report:
    def __init__(self, xs):
        self.xs = xs
def same(xs):
    return xs
def copied(xs):
    return list(xs)
def view(a):
    return a[:]
def as_array(a):
    return np.asarray(a)
def new_array(a):
    return a.copy()
def held(xs):
    return Report(xs)
def by_name(xs=None):
    return xs
"""


@pytest.mark.parametrize(
    "call,arguments,aliased",
    [
        ("same", "[[[1, 2]],{}]", True),
        ("same", "[[[]],{}]", True),
        ("by_name", '[[],{"xs": {"a": 1}}]', True),
        ("same", '[["text"],{}]', False),
        ("same", "[[1.5],{}]", False),
        ("copied", "[[[1, 2]],{}]", False),
        ("held", "[[[1, 2]],{}]", False),
    ],
)
def test_a_result_that_is_one_of_its_arguments_is_marked(call, arguments, aliased):
    """The task asks for new objects: a result that is the caller's own list or dict (the empty list handed back
    when there is nothing to do) is marked ``aliased``; a copy, an unchangeable value and a report that holds its
    input (see recheck) are not."""
    outcome = runner.call_case(_module(ALIASING), {"id": "c", "call": call, "json": arguments}, {})
    assert outcome["kind"] == "return" and outcome.get("aliased", False) is aliased, outcome


@pytest.mark.parametrize(
    "call,argument,aliased",
    [
        ("same", np.arange(3.0), True),
        ("view", np.arange(3.0), True),
        ("as_array", np.arange(3.0), True),
        ("new_array", np.arange(3.0), False),
        ("same", np.int64(3), False),
        ("same", np.float32(0.5), False),
    ],
)
def test_an_array_result_that_shares_its_arguments_memory_is_marked(call, argument, aliased):
    """``arr[:]`` and ``np.asarray(arr)`` are the caller's array again (changing one changes the other); a copy
    is new, and a numpy scalar, which cannot change, may come back as it came."""
    case = {"id": "c", "call": call, "args": values.encode((argument,)), "kwargs": values.encode({})}
    outcome = runner.call_case(_module(ALIASING), case, {})
    assert outcome["kind"] == "return" and outcome.get("aliased", False) is aliased, outcome


def test_the_judge_fails_a_right_value_that_is_its_argument():
    """The value is right, yet the caller's own list came back: a fail that says so, counted as changed arguments."""
    fused = "def fuse(rankings):\n    if not rankings:\n        return []\n    return sorted(set(sum(rankings, [])))\n"

    def curated():
        yield Case(id="two", call="fuse", args=([["b"], ["a"]],), explain={"en": "two rankings"})
        yield Case(id="none", call="fuse", args=([],), explain={"en": "nothing to fuse"})

    prepared = prepare(toy_grader(curated=curated), fused, lesson="toy", checkpoint="1", seed=0)
    assert grade(prepared, fused)["status"] == "pass"
    verdict = grade(prepared, fused.replace("return []", "return rankings"))
    assert verdict["status"] == "fail" and verdict["failure"]["case"] == "none", verdict
    assert verdict["failure"]["kind"] == "changed_arguments"
    assert "returned one of its arguments itself" in verdict["failure"]["reason"]


#: Debugging as learners do it: a traceback printed and formatted, logging with and without exc_info, a stack summary.
DEBUGGED = """
import logging, traceback, sys
log = logging.Logger("lesson")  # its own, apart from the test process's logging
log.addHandler(logging.StreamHandler())
def inner(x):
    return 1 / x
def ratio(x):
    try:
        return inner(x)
    except ZeroDivisionError as error:
        traceback.print_exc()
        log.exception("while dividing %s", x)
        log.warning("warned at %s", x)
        print(traceback.format_exc(), end="")
        print("".join(traceback.TracebackException.from_exception(error).format()), end="")
        print([(summary.name, summary.lineno) for summary in traceback.extract_tb(error.__traceback__)])
        return -1.0
"""


def test_code_a_check_runs_prints_and_logs_its_tracebacks_as_a_run_does():
    """traceback's and logging's ways to show an exception read its frames, which the guard refuses: a Check hands
    them stand-ins instead, and writes the same text as a Run (the source lines, the carets), so correct code that
    prints a traceback while it handles an error is not failed for it."""
    case = {"id": "zero", "call": "ratio", "json": "[[0],{}]"}
    checked = runner.run(DEBUGGED, {"mode": "check", "cases": [case], "attrs": {}})
    ran = runner.run(DEBUGGED + "ratio(0)\n", {"mode": "run"})
    assert checked["status"] == ran["status"] == "ok", (checked["traceback"], ran["traceback"])
    assert checked["outcomes"][0]["value"] == ["float", -1.0]
    assert checked["stdout"] == ran["stdout"] and checked["stderr"] == ran["stderr"]
    assert checked["stderr"].count("line 6, in inner\n    return 1 / x\n           ~~^~~\n") == 2, checked["stderr"]
    assert "\nwarned at 0\n" in checked["stderr"] and "\nwhile dividing 0\n" in checked["stderr"]
    assert checked["stdout"].count("ZeroDivisionError: division by zero") == 2
    assert checked["stdout"].endswith("[('ratio', 9), ('inner', 6)]\n")
    import traceback

    assert traceback.walk_tb.__module__ == "traceback"  # the run's stand-ins are gone with it


#: What a Check's code gets from the guard's frames event and traceback's walks: places, never a frame.
FRAME_VIEWS = """
import sys, traceback
class Rows(list):
    def append(self, item):
        raise AssertionError("learner code ran in the guard's hook")
class Tracebacks(tuple):
    def __iter__(self):
        raise AssertionError("learner code ran in the guard's hook")
def caught():
    try:
        raise KeyError("x")
    except KeyError as error:
        return error.__traceback__
def probe():
    tb = caught()
    views = [frame for frame, _ in traceback.walk_tb(tb)]
    rows, mine = [], Rows()
    sys.audit("werkbank.frames", (tb, "not a traceback"), rows)
    sys.audit("werkbank.frames", (tb,), mine)
    sys.audit("werkbank.frames", Tracebacks((tb,)), rows)
    sys.audit("werkbank.frames", [tb], rows)
    try:
        sys._getframe(0)
    except ValueError as error:
        refused = (type(error).__name__, isinstance(error, RuntimeError))
    return [
        [(type(view).__name__, view.f_code.co_name, view.f_back, view.f_locals, view.f_globals) for view in views],
        [[(type(code).__name__, code.co_name, line) for code, _, line in found] for found in rows],
        len(mine),
        list(refused),
    ]
"""


def test_what_a_check_hands_out_for_a_traceback_leads_to_no_frame():
    """traceback's walks under the guard give views with no variables and no frame beyond; the guard's hook reads
    only a plain tuple of tracebacks into a plain list (a subclass's __iter__ or append would run learner code while
    frames may be read), and nothing but real tracebacks;
    sys._getframe is refused as the RuntimeError it always was, catchable as ValueError (as "call stack is not deep
    enough" is, which logging copes with)."""
    case = {"id": "probe", "call": "probe", "json": "[[],{}]"}
    outcome = runner.run(FRAME_VIEWS, {"mode": "check", "cases": [case], "attrs": {}})["outcomes"][0]
    assert outcome["kind"] == "return", outcome
    views, rows, mine, refused = json.loads(json.dumps(values.decode(outcome["value"])))
    assert views == [["_FrameView", "caught", None, {}, {}]]
    assert rows == [[["code", "caught", 11]], []] and mine == 0
    assert refused == ["RuntimeError", True]


#: Rebinds type and len where the guard's hook would find them as globals (the engine's namespace, reached through a
#: function a Check hands out, and builtins), to run inside the hook while it reads a traceback's frames.
INTO_THE_HOOK = """
import builtins, sys, traceback
real_type, real_len = builtins.type, builtins.len
got = []
def spy(*args):
    try:
        got.append(sys._getframe(1).f_code.co_name)
    except RuntimeError:
        pass
    return real_type(*args) if real_type(args) is tuple and real_len(args) != 1 else real_type(args[0])
def spy_len(x):
    spy(x)
    return real_len(x)
engine = traceback.walk_tb.__globals__
engine["type"], engine["len"], builtins.type, builtins.len = spy, spy_len, spy, spy_len
try:
    1 / 0
except ZeroDivisionError as error:
    traceback.format_exception(error)
engine["type"], engine["len"], builtins.type, builtins.len = real_type, real_len, real_type, real_len
del engine["type"], engine["len"]
def frames():
    return got
"""


def test_the_guards_hook_runs_no_code_learner_code_can_rebind():
    """The hook reads a traceback's frames for traceback's walks; it once looked up type and len as globals, so code
    that rebound them in the engine's namespace (reachable through the walk it is handed) ran inside that window and
    got a frame, and through it the run's result and the guard's own state. Nothing the hook calls is looked up: its
    code loads no global, and the rebound names are never called there."""
    import dis

    def codes(code):
        yield code
        for const in code.co_consts:
            if isinstance(const, types.CodeType):
                yield from codes(const)

    hooks = [c for c in codes(runner._install_guard.__code__) if c.co_name in ("hook", "read")]
    assert len(hooks) == 2
    for code in hooks:
        assert [i.argval for i in dis.get_instructions(code) if i.opname in ("LOAD_GLOBAL", "LOAD_NAME")] == []
    case = {"id": "probe", "call": "frames", "json": "[[],{}]"}
    outcome = runner.run(INTO_THE_HOOK, {"mode": "check", "cases": [case], "attrs": {}})["outcomes"][0]
    assert outcome == {"kind": "return", "value": ["list", []], "id": "probe"}, outcome


#: A frame through the collector's saved garbage: code that keeps its own traceback in a reference cycle, with
#: gc.DEBUG_SAVEALL set (no audit event), gets its own frame in gc.garbage, and from it, through f_back, the engine's.
SAVED_GARBAGE = """
import gc
def make_cycle():
    try:
        raise KeyError("x")
    except KeyError as error:
        holder = [error]  # frame -> holder -> error -> traceback -> frame
        holder.append(holder)
def probe():
    gc.set_debug(gc.DEBUG_SAVEALL)
    make_cycle()
    gc.collect()
    saved = [type(o).__name__ for o in gc.garbage]
    return "frame" in saved
"""


def test_the_collectors_saved_garbage_hands_a_check_no_frame():
    """A security probe took its own frame from gc.garbage, then the engine's through f_back, and from there the
    run's result and the guard's token: a wrong solution passed. Under the guard gc.garbage is a list of its own; the
    collector's list, which holds what it saved, is emptied of that, and its debug flags are put back, after the run.
    A Run, unguarded, still finds the frame (so the probe does reach it)."""
    import gc

    before = (gc.get_debug(), gc.garbage, len(gc.garbage))
    case = {"id": "probe", "call": "probe", "json": "[[],{}]"}
    checked = runner.run(SAVED_GARBAGE, {"mode": "check", "cases": [case], "attrs": {}})["outcomes"][0]
    assert checked == {"kind": "return", "value": ["bool", False], "id": "probe"}, checked
    assert (gc.get_debug(), gc.garbage, len(gc.garbage)) == before
    ran = runner.run(SAVED_GARBAGE + "print(probe())\n", {"mode": "run"})
    assert ran["stdout"] == "True\n", ran
    assert (gc.get_debug(), gc.garbage, len(gc.garbage)) == before


#: Keeps the caller's list and empties it during the next call (a change the caller sees later), and tells the
#: engine, through the namespace a handed-out function leads to, that every case's arguments were refilled.
SAYS_ALL_REFILLED = """
import sys
engine = sys.setrecursionlimit.__globals__
engine["handed_on"] = lambda state: frozenset({"first", "second"})
engine["refill_state"] = lambda cases: {"first": (), "second": ()}
for kind in [v for v in engine.values() if isinstance(v, type) and hasattr(v, "handed_on")]:  # a class holding it
    def everything(self, cases, kind=kind):
        self.__dict__.update({name: {"first": (), "second": ()} for name in ("_args", "args", "state")})
    kind.__init__ = everything
_kept = []
def total(xs):
    for old in _kept:
        old.clear()
    _kept.append(xs)
    return float(sum(xs))
"""


def test_the_refill_state_is_out_of_learner_codes_reach():
    """The run once built its refill state as an object of a class learner code can change, after that code ran: a
    patched constructor said every case was refilled, and changes made to a caller's list later went unseen. The
    state is a plain dict made and read by the run's own copies of its functions: what learner code rebinds in the
    engine's namespace changes nothing, and the later change is found."""
    cases = [
        {"id": "first", "call": "total", "json": "[[[1]],{}]"},
        {"id": "second", "call": "total", "json": "[[[2]],{}]"},
    ]
    first, second = runner.run(SAYS_ALL_REFILLED, {"mode": "check", "cases": cases, "attrs": {}})["outcomes"]
    assert first.get("mutated_later") is True, first


#: Finds the runner's namespace through a class's methods (no frame, no collector) and rewires the engine in it and in
#: builtins, as helper-written hostile code did through frames: later reads, argument checks, the exception's class.
REWIRE = """
import builtins
def _classes():
    seen, todo = set(), [object]
    while todo:
        for sub in type.__subclasses__(todo.pop()):
            if sub not in seen:
                seen.add(sub)
                todo.append(sub)
    return seen
_engine = [g for c in _classes() for v in list(vars(c).values())
           for g in [getattr(v, "__globals__", None)] if type(g) is dict and "call_case" in g and "recheck" in g][:1]
_engine = _engine if ROUTE == "classes" else [__import__("sys").setrecursionlimit.__globals__]
print("rewired", bool(_engine))
for _g in _engine:
    _g["recheck"] = _g["recheck_arguments"] = lambda *a, **k: None
    _g["_arguments_changed"] = lambda *a, **k: False
    _outcome = _g["_exception_outcome"]
    _g["_exception_outcome"] = lambda e: {**_outcome(e), "builtin_mro": ["ValueError", "Exception", "BaseException"]}
    _g["values"].changed = lambda *a, **k: False
builtins.enumerate = lambda items, start=0: zip(range(start, start + 10**9), [])
"""
#: Wrong in three ways the rewiring above would hide: it sorts the caller's list, hands out one list to every call,
#: and raises TypeError where ValueError is due.
REWIRED_WRONG = """
_shared = []
def total(xs):
    if not isinstance(xs, list):
        raise TypeError("not a list")
    xs.sort()
    _shared[:] = [sum(xs)]
    return _shared
"""


def _outcomes(run: dict) -> list:
    return [{k: v for k, v in o.items() if k not in ("traceback", "error_line")} for o in run["outcomes"]]


@pytest.mark.parametrize("route", ["classes", "handed-out"])
def test_code_that_rewires_the_engine_gets_the_outcomes_its_own_code_earns(prepared, route):
    """Learner code can find the engine's modules (through a class's methods, or the namespace of the function a run
    hands it as ``sys.setrecursionlimit``) and rebind what they hold, and ``builtins`` too: a run's own copy of the
    engine (runner._isolated) looks none of it up. The same rewiring against the engine itself, not its copy, changes
    the outcomes: what the test compares would show it."""
    plan = prepared["plan"]
    plain = runner.run(REWIRED_WRONG, plan)
    prelude = f"ROUTE = {route!r}\n" + REWIRE
    rewired = runner.run(prelude + REWIRED_WRONG, plan)
    assert rewired["stdout"] == "rewired True\n"
    assert _outcomes(rewired) == _outcomes(plain)
    assert judge(prepared, rewired, "en")["status"] == "fail"
    try:
        exposed = runner._run(prelude + REWIRED_WRONG, plan, None, None)  # the engine itself, as it was
    finally:
        runner.run("", {"mode": "run"})  # puts builtins and the engine's namespaces back
    assert _outcomes(exposed) != _outcomes(plain)


def test_a_check_on_the_command_line_cannot_set_a_signal_handler():
    """Python hands a signal handler the frame it interrupted, and no audit event announces setting one: the command
    line's run has a thread of its own (graders/hosts/cpython.py), where setting one raises. Hostile code used a timer
    signal to reach the run's result and rewrite it."""
    code = "import signal\nsignal.signal(signal.SIGALRM, lambda *a: None)\n"
    run = cpython.run(code, {"mode": "check", "cases": []}, time_limit=5.0)
    assert run["status"] == "error" and "ValueError: signal only works in main thread" in run["traceback"], run


def test_the_result_is_written_with_the_collector_paused():
    """Learner code can leave garbage in a reference cycle whose ``__del__`` runs at the next collection: were that
    while the host writes the result, after the guard went off, it could read frames and change what is written.
    ``result_json`` pauses the collector (here every allocation would start one)."""
    import gc

    ran = []

    class Cycle:
        def __init__(self):
            self.me = self

        def __del__(self):
            ran.append(True)

    result = {"status": "ok", "outcomes": [{"id": str(i), "kind": "return", "value": ["list", []]} for i in range(50)]}
    threshold = gc.get_threshold()
    gc.collect()
    Cycle()
    gc.set_threshold(1)
    try:
        written = runner.result_json(result)
        assert ran == [] and json.loads(written)["outcomes"][49]["id"] == "49"
    finally:
        gc.set_threshold(*threshold)
    gc.collect()
    assert ran == [True]  # it was garbage all along


#: Learner code that made the engine itself raise while it put the interpreter back or described the run's end: the
#: run ended in an exception of the host's, with the guard still on (a reused interpreter's next run then failed).
_RESTORE_BREAKERS = {
    "a-module-whose-spec-raises": (
        "import sys, types\n"
        "class _M(types.ModuleType):\n"
        "    @property\n"
        "    def __spec__(self):\n"
        "        raise ZeroDivisionError\n"
        "sys.modules['learner_trap'] = _M('learner_trap')\n"
    ),
    "a-module-given-a-class-whose-dict-raises": (
        "import math, types\n"
        "class _M(types.ModuleType):\n"
        "    @property\n"
        "    def __dict__(self):\n"
        "        raise ZeroDivisionError\n"
        "math.__class__ = _M\n"
    ),
    "an-error-whose-argument-raises-keyboardinterrupt-when-shown": (
        "class _Loud:\n    def __str__(self):\n        raise KeyboardInterrupt\n\nraise ValueError(_Loud())\n"
    ),
    "an-exit-whose-code-raises": (
        "class _Exit(SystemExit):\n    @property\n    def code(self):\n        return 1 / 0\n\nraise _Exit()\n"
    ),
}


@pytest.mark.parametrize("name", sorted(_RESTORE_BREAKERS))
def test_learner_code_cannot_make_the_engine_raise_or_leave_the_interpreter_patched(prepared, name):
    import math
    import types

    verdict = grade(prepared, REFERENCE + _RESTORE_BREAKERS[name])
    ends_badly = name.startswith(("an-error", "an-exit"))  # the others are right programs that leave a trap
    assert verdict["status"] == ("error" if ends_badly else "pass"), verdict["status"]
    assert type(math) is types.ModuleType and "learner_trap" not in sys.modules
    assert grade(prepared, REFERENCE)["status"] == "pass"  # and the interpreter is as it was
    assert sys._getframe() is not None  # the guard is off


@pytest.mark.parametrize(
    "body, kind",
    [
        ("return float(len(list(xs)))", "return"),  # read into a list: accepted
        ("items = list(xs)\n    raise ValueError(f'{len(items)} items in a {type(xs).__name__}')", "raise"),
        ("raise ValueError('a list, please') if type(xs) is not list else None", "raise"),  # refused unread
    ],
    ids=["read", "read-then-refused", "refused"],
)
def test_a_generator_argument_read_by_the_call_is_no_change_to_it(body, kind):
    """A generated case may pass a generator (values.Iterated, family container-iter): a call that reads it through
    has not changed the caller's data, whether it then returns or raises, so only the task's rule decides the case."""
    program = f"def total(xs):\n    {body}\n"
    cases = [
        {"id": "g", "call": "total", "args": values.encode((values.Iterated([1.5, 2.5]),)), "kwargs": ["dict", []]}
    ]
    (outcome,) = runner.run(program, {"mode": "check", "cases": cases, "attrs": {}})["outcomes"]
    assert outcome["kind"] == kind, outcome
    assert not outcome.get("mutated") and not outcome.get("mutated_later"), outcome
    if kind == "return":
        assert outcome["value"] == ["float", 2.0]
    elif "items" in body:
        assert outcome["message"] == "2 items in a generator"


def test_a_submodule_a_run_imported_stays_an_attribute_of_its_package(monkeypatch):
    """A run that imports a submodule of a package the interpreter had (np.median imports numpy.ma) keeps the
    submodule, and the package's namespace is put back as before the run: the submodule must be bound in it again,
    or ``np.ma`` (numpy's lazy attribute) imports a module sys.modules already holds, forever, and the next run in
    that interpreter (a shrink round in the browser's learner worker, the grader's rehearsal) dies of a
    RecursionError."""
    import importlib
    import json as json_module

    monkeypatch.delitem(sys.modules, "json.tool", raising=False)
    monkeypatch.delattr(json_module, "tool", raising=False)
    program = "import json.tool\ndef f():\n    return 1.0\n"
    cases = [{"id": "a", "call": "f", "json": "[[],{}]"}]
    for _ in range(2):
        (outcome,) = runner.run(program, {"mode": "check", "cases": cases, "attrs": {}})["outcomes"]
        assert outcome["value"] == ["float", 1.0], outcome
        assert json_module.tool is sys.modules["json.tool"]
        assert importlib.import_module("json.tool") is json_module.tool


# ------------------------------------------------------------------------------------ what a run may not reach


def _landlock_abi() -> int:
    """The kernel's Landlock ABI version, 0 without Landlock (the same query the child makes)."""
    if not LINUX_PROC:
        return 0
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    return max(0, libc.syscall(ctypes.c_long(444), None, ctypes.c_size_t(0), ctypes.c_uint32(1)))


LANDLOCK = _landlock_abi()


@pytest.mark.skipif(LANDLOCK < 1, reason="the kernel has no Landlock")
def test_a_run_writes_files_only_in_its_own_folder_which_goes_with_it(tmp_path, zygote):
    """Learner code (and whatever it starts) cannot change the checkout, the prepared cases or another run's files:
    no file is written, made or removed outside the run's scratch folder, where ``tempfile`` works as usual."""
    kept = tmp_path / "kept.txt"
    kept.write_text("the author's")
    code = (
        "import os, subprocess, tempfile\n"
        f"target = {str(kept)!r}\n"
        "tries = {'append': lambda: open(target, 'a').write('x'), 'remove': lambda: os.remove(target),\n"
        f"         'new': lambda: open({str(tmp_path / 'new.txt')!r}, 'w').close(),\n"
        f"         'shell': lambda: subprocess.run(['/bin/sh', '-c', 'echo x >> ' + target], check=True)}}\n"
        "for name, attempt in tries.items():\n"
        "    try:\n"
        "        attempt()\n"
        "        print(name, 'done')\n"
        "    except (OSError, subprocess.CalledProcessError) as error:\n"
        "        print(name, type(error).__name__)\n"
        "with tempfile.NamedTemporaryFile('w', delete=False) as f:\n"
        "    f.write('scratch')\n"
        "print('scratch', open(f.name).read(), os.path.dirname(f.name))\n"
    )
    lines = dict(line.split(" ", 1) for line in _printed(code).splitlines())
    assert lines["append"] == lines["remove"] == lines["new"] == "PermissionError"
    assert lines["shell"] == "CalledProcessError"  # a program it starts is held the same way
    assert kept.read_text() == "the author's" and not (tmp_path / "new.txt").exists()
    written, folder = lines["scratch"].split(" ", 1)
    assert written == "scratch" and os.path.basename(folder).startswith("werkbank-run-")
    assert not os.path.exists(folder)  # removed with the run


@pytest.mark.skipif(LANDLOCK < 6, reason="signals are scoped from Landlock ABI 6 (Linux 6.12)")
def test_a_run_signals_no_process_outside_it(zygote):
    """Learner code cannot stop, interrupt or kill the grading processes or another grade's run (the zygote, the
    command itself, any process of the same user), even through a program it starts; its own processes it can."""
    code = (
        "import os, signal, subprocess\n"
        f"for name, pid in (('parent', os.getppid()), ('grader', {os.getpid()})):\n"
        "    try:\n"
        "        os.kill(pid, 0)\n"
        "        print(name, 'reached')\n"
        "    except PermissionError:\n"
        "        print(name, 'refused')\n"
        f"shell = subprocess.run(['/bin/sh', '-c', 'kill -0 {os.getpid()}'], capture_output=True)\n"
        "print('shell', 'reached' if shell.returncode == 0 else 'refused')\n"
        "os.kill(os.getpid(), 0)\n"
        "print('itself', 'reached')\n"
    )
    assert _printed(code).splitlines() == ["parent refused", "grader refused", "shell refused", "itself reached"]


def test_a_run_gets_none_of_the_commands_werkbank_settings(monkeypatch):
    """The child's environment holds no ``WERKBANK_`` variable: none names a folder it could look for (the prepared
    cases' cache)."""
    monkeypatch.setenv("WERKBANK_PREPARED_CACHE", "/somewhere/prepared")
    assert _printed("import os\nprint(sorted(k for k in os.environ if k.startswith('WERKBANK')))") == "[]"


@pytest.mark.skipif(not LINUX_PROC, reason="needs fork and /proc")
def test_a_run_ends_by_its_wall_clock_limit_even_when_its_zygote_dies_under_it():
    """A zygote that dies while its run goes on (its sweep dies with it) does not leave the run behind, and the run
    started afresh in its place keeps the first one's clock: the verdict is not delayed twice."""
    import threading
    import time

    zygote = cpython._Zygote.mine()
    if zygote is None:
        pytest.skip("this platform cannot fork")
    done = []
    start = time.monotonic()
    runner_thread = threading.Thread(
        target=lambda: done.append(
            cpython.run("import time\ntime.sleep(60)\n", {"mode": "run"}, time_limit=60, wall=3.0)
        )
    )
    # the zygote belongs to the thread that asks: this test's thread starts it, the run's thread uses its own
    runner_thread.start()
    child = None
    for _ in range(200):
        mine = [z for z in cpython._Zygote._all if z is not zygote and z.process.poll() is None]
        for candidate in mine:
            try:
                with open(f"/proc/{candidate.process.pid}/task/{candidate.process.pid}/children") as listing:
                    pids = [int(p) for p in listing.read().split()]
            except OSError:
                pids = []
            if pids:
                child, owner = pids[0], candidate
        if child:
            break
        time.sleep(0.02)
    assert child, "the run's child was not seen"
    owner.process.kill()
    runner_thread.join(30)
    assert done and done[0]["status"] == "timeout"
    assert time.monotonic() - start < 10
    for _ in range(100):
        try:
            with open(f"/proc/{child}/stat") as stat:
                if stat.read().rsplit(")", 1)[1].split()[0] == "Z":
                    break
        except OSError:
            break
        time.sleep(0.05)
    else:
        raise AssertionError(f"the run {child} outlived its zygote")


def test_every_check_starts_random_from_one_seed_and_a_run_does_not(prepared):
    """Code that draws from ``random`` or numpy's global generator makes the same draws on every Check (the same
    code, the same verdict); a Run keeps the interpreter's own random state."""
    source = "import random\nimport numpy as np\n" + REFERENCE.replace(
        "return float(sum(xs))", "return float(sum(xs)) + random.random() + float(np.random.random())"
    )
    first, second = (runner.run(source, prepared["plan"]) for _ in range(2))
    values_of = [[o.get("value") for o in r["outcomes"]] for r in (first, second)]
    assert values_of[0] == values_of[1]
    assert judge(prepared, first, "en")["status"] == "fail"  # the draws are there: not the reference's sums
    runs = {_printed("import random\nprint(random.random())") for _ in range(3)}
    assert len(runs) == 3


DEEP = {
    "plus": lambda n: "x = " + "+".join(["1"] * n) + "\n",
    "minus": lambda n: "x = " + "-" * n + "1\n",
    "not": lambda n: "x = " + "not " * n + "1\n",
    "brackets": lambda n: "x = " + "[" * (n // 20) + "]" * (n // 20) + "\n",
    "calls": lambda n: "f = lambda: f\nx = f" + "()" * n + "\n",
    "indexes": lambda n: "x = [0]\nx[0] = x\ny = x" + "[0]" * n + "\n",
    "lambdas": lambda n: "x = (" + "lambda: " * (n // 2) + "1)\n",  # `lambda` and its colon
    "attributes": lambda n: "x = int" + ".real" * n + "\n",
    "in a call": lambda n: "print(1, 2, " + "+".join(["1"] * n) + ")\n",
}


@pytest.mark.parametrize("name", sorted(DEEP))
def test_an_expression_nested_too_deeply_is_a_syntax_error_on_its_line_in_every_runtime(prepared, name):
    """Python's parser and compiler recurse once per level of an expression: a browser worker's stack overflows (a
    fatal crash of Pyodide) at 200 nested brackets or a few thousand operators in a row, where CPython goes on or
    raises RecursionError. Every runtime refuses such code alike, before compiling it: a SyntaxError on its line."""
    head = "def total(xs):\n    return 0.0\n\n"
    source = head + DEEP[name](1200)
    result = runner.run(source, prepared["plan"])
    assert result["status"] == "error" and result["syntax_error"], result
    assert "nested too deeply" in result["traceback"] and result["error_line"] == source.count("\n")
    assert runner.too_deeply_nested(head + DEEP[name](600)) is None  # the same construct, half as deep, is fine


def test_nesting_as_programs_are_written_is_never_refused():
    """Long flat data (literals of thousands of items), and every Python file of this repository's graders, lessons
    and command, and of the standard library's json and email packages: none is refused."""
    import email.message
    import pathlib

    table = ", ".join(f"-{i}.5 + {i}" for i in range(5000))
    mapping = ", ".join(f"'k{i}': (1, [2, {{3: -4}}])" for i in range(3000))
    assert runner.too_deeply_nested(f"TABLE = [{table}]\nD = {{{mapping}}}\n") is None
    here = pathlib.Path(__file__).resolve().parents[1]
    files = [*here.glob("graders/**/*.py"), *here.glob("exercises/**/*.py"), *here.glob("werkbank/*.py")]
    for package in (json, email.message):
        files += pathlib.Path(package.__file__).parent.glob("*.py")
    assert len(files) > 50
    assert [str(p) for p in files if runner.too_deeply_nested(p.read_text(encoding="utf-8", errors="replace"))] == []


@pytest.mark.parametrize(
    "source",
    ["x = " + "-" * 100_000 + "1\n", "x = " + "+".join(["1"] * 5_000) + "\n"],
    ids=["parser", "compiler"],
)
def test_what_python_itself_cannot_compile_is_still_an_error_not_a_crash(prepared, monkeypatch, source):
    """Past the engine's own limit, Python's parser and compiler give up with MemoryError or RecursionError; the run
    says so as it says a SyntaxError, and grading's own parse of the names does not raise."""
    from werkbank.grading import _top_level_names

    monkeypatch.setattr(runner, "NESTING_LIMIT", 10**9)
    result = runner.run(source, prepared["plan"])
    assert result["status"] == "error"
    assert result["traceback"].split(":")[0] in ("MemoryError", "RecursionError")
    assert judge(prepared, result, "en")["status"] == "error"
    assert _top_level_names(source) is None


def test_the_prepared_cache_on_disk_is_json_and_never_runs_what_a_file_holds(monkeypatch, tmp_path):
    """The cache of prepared cases is JSON: a file replaced with a pickle (which would run code as it is read) or
    damaged in any way is prepared again, never loaded."""
    import pickle

    from werkbank import grading
    from werkbank.lessons import load_lesson

    class Payload:
        def __reduce__(self):
            return (exec, ("import werkbank.grading as g\ng._payload_ran = True",))

    checkpoint = load_lesson("micropip-demo").checkpoint("1")
    monkeypatch.setenv(grading.CACHE_ENV, str(tmp_path))
    monkeypatch.setattr(grading, "_PREPARED", type(grading._PREPARED)())
    first = grading.prepared_checkpoint(checkpoint)
    (stored,) = tmp_path.glob("*.json")
    assert json.loads(stored.read_text()) == first
    for damaged in (pickle.dumps(Payload()), b"{", b'{"plan": 1, "key": {}}'):
        stored.write_bytes(damaged)
        monkeypatch.setattr(grading, "_PREPARED", type(grading._PREPARED)())
        assert grading.prepared_checkpoint(checkpoint) == first
    assert not hasattr(grading, "_payload_ran")


def test_a_runs_wall_clock_limit_can_be_set_below_its_default(zygote):
    """``wall`` ends a sleeping run by the clock (shrink rounds use what is left of the checkpoint's time limit)."""
    import time

    start = time.monotonic()
    result = cpython.run("import time\ntime.sleep(30)\n", {"mode": "run"}, time_limit=5.0, wall=1.0)
    assert result["status"] == "timeout" and time.monotonic() - start < 5
