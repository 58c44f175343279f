"""The judge reads a run result as untrusted data, and the runner writes what the judge reads.

A run result comes from the learner's interpreter: learner code can make it hold anything JSON can say (in the
browser it can even post its own). Whatever it holds, the judge must give a verdict, never raise: a crash there is
reported as werkbank's fault, or not at all. And whatever the learner's code returns or raises, the runner must write
a result the judge accepts: one it refuses tells an honest learner that their result "was damaged", which no retry
mends. Both are tested for the class: random wire values of every form and size at every limit, and a corpus of
hostile values, not one example each.
"""

import json
import random

import pytest

from graders.engine import values
from graders.engine.judge import judge, read_run

STATUSES = {"pass", "fail", "error", "timeout"}


def _name(rng):
    return rng.choice(["x", "ValueError", "float64", "a" * values.NAME_LIMIT, "a" * (values.NAME_LIMIT + 1), "é"])


def _float(rng):
    return rng.choice(
        [0.0, -0.0, 1.5, 1e308, -1e308, 5e-324, "nan", "inf", "-inf", 3, 10**308, 10**309, -(10**400), 2**53 + 1]
    )


def _int_text(rng):
    most = values.INT_DIGITS
    return rng.choice(["0", "-1", "7" * most, "-" + "9" * most, "1" * (most + 1)])


def _leaf(rng):
    pick = rng.randrange(12)
    if pick == 0:
        return ["none"]
    if pick == 1:
        return ["bool", rng.random() < 0.5]
    if pick == 2:
        return ["int", _int_text(rng)]
    if pick == 3:
        return ["float", _float(rng)]
    if pick == 4:
        return ["str", rng.choice(["", "a", "\u202eevil", "\ud800", "x" * 5000])]
    if pick == 5:
        return ["bytes", rng.choice(["", "00ff", "0"])]
    if pick == 6:
        return ["complex", _float(rng), _float(rng)]
    if pick == 7:
        kind = rng.choice("fiubcO")
        value = {"f": _float(rng), "i": _int_text(rng), "u": "3", "b": True, "c": "1j", "O": "x"}[kind]
        return ["npscalar", _name(rng), kind, value]
    if pick == 8:
        return ["foreign", _name(rng), rng.choice(["", "int"])]
    if pick == 9:
        return rng.choice([["absent"], ["raised", _name(rng)]])
    if pick == 10:
        shape = rng.choice([[0], [2], [1, 2], [0, 3], [], [2**40, 2**40], [0, 2**40]])
        kind = rng.choice("fiubcO")
        count = 1
        for dim in shape:
            count *= dim
        item = {"f": lambda: _float(rng), "i": lambda: _int_text(rng), "u": lambda: "1", "b": lambda: False}
        item.update({"c": lambda: [_float(rng), _float(rng)], "O": lambda: _leaf(rng)})
        flat = [item[kind]() for _ in range(min(count, 4))]
        return ["ndarray", _name(rng), kind, shape, flat]
    return rng.choice([["list", []], ["tuple", []], ["dict", []], ["set", []], ["frozenset", []]])


def random_wire(rng, depth=0):
    """A random wire value: every tag, its limits and just past them, empty and nested containers, dict keys of
    every form (an empty tuple, an object, a nested list)."""
    if depth > 3 or rng.random() < 0.35:
        return _leaf(rng)
    tag = rng.choice(["list", "tuple", "set", "frozenset", "dict", "object"])
    items = [random_wire(rng, depth + 1) for _ in range(rng.randrange(4))]
    if tag == "dict":
        return ["dict", [[random_wire(rng, depth + 1), item] for item in items]]
    if tag == "object":
        return ["object", _name(rng), [[_name(rng), item] for item in items]]
    return [tag, items]


@pytest.fixture(scope="module")
def plotted():
    """A real checkpoint whose verdict draws a case (its plot reads the returned value as numbers)."""
    from werkbank.grading import prepared_checkpoint
    from werkbank.lessons import load_lesson

    prepared = prepared_checkpoint(load_lesson("perplexity-calibration").checkpoint("3"))
    assert prepared["key"]["plot"], "the checkpoint no longer draws a case: pick one that does"
    return prepared


def test_the_judge_gives_a_verdict_for_any_run_result_and_never_raises(plotted):
    key = plotted["key"]
    ids = [key["plot"]["case"]] + key["order"][:40]
    rng = random.Random(20261204)
    refused = 0
    for round_ in range(300):
        outcomes = []
        for case_id in ids[: rng.randrange(1, 8)]:
            if rng.random() < 0.8:
                outcomes.append({"id": case_id, "kind": "return", "value": random_wire(rng)})
            else:
                mro = [_name(rng) for _ in range(rng.choice([1, 3, 65]))]
                outcomes.append({"id": case_id, "kind": "raise", "exc": _name(rng), "builtin_mro": mro, "message": ""})
        run = {"status": "ok", "outcomes": outcomes, "stdout": "", "stderr": ""}
        text = json.dumps(run)  # as the learner's interpreter would send it
        verdict = judge(plotted, read_run(text))
        assert verdict["status"] in STATUSES, round_
        json.dumps(verdict)  # the verdict itself goes to the page or the command line as JSON
        refused += verdict["status"] == "error"
    assert 0 < refused < 300  # both kinds were tried: results the judge reads, and results it refuses


@pytest.mark.parametrize("shape", [[2**40, 0], [40000, 40000, 0], [3, 2**31, 0, 5]])
def test_an_array_without_values_pays_for_the_lists_it_would_read_as(plotted, shape):
    """An array of no values whose dimensions before a 0 are huge is a few bytes on the wire, but read as plain
    numbers (the plot of the drawn case) it is nested lists, one per index of those dimensions: billions, which the
    judge built until memory ran out. The judge refuses it as too large, at once."""
    value = ["ndarray", "uint8", "u", shape, []]
    with pytest.raises(values.WireError, match="too large"):
        values.validate(value)
    run = {"status": "ok", "outcomes": [{"id": plotted["key"]["plot"]["case"], "kind": "return", "value": value}]}
    verdict = judge(plotted, read_run(json.dumps({**run, "stdout": "", "stderr": ""})))
    assert verdict["status"] == "error", verdict["status"]


def test_comparing_and_showing_any_two_wire_values_never_raises():
    """What the judge does with a result it read: compare it with an expected value (any form, dict keys of any
    form), read it as plain numbers (a plot) and show it. Only well-formed values get there."""
    from graders.engine.compare import compare

    rng = random.Random(4)
    checked = 0
    for _ in range(3000):
        expected, actual = random_wire(rng), random_wire(rng)
        if rng.random() < 0.3:  # the same shape with other leaves: the deeper comparisons
            actual = json.loads(json.dumps(expected).replace('"int"', '"float"', 1))
        try:
            values.validate(expected)
            values.validate(actual)
        except values.WireError:
            continue
        checked += 1
        compare(expected, actual)
        values.plain(actual)
        values.show(actual)
    assert checked > 1000


HOSTILE = r"""
import dataclasses, sys
import numpy as np

sys.set_int_max_str_digits(0)


class Sly(str):
    def __getitem__(self, item):
        return object()

    def __len__(self):
        return -1


class Message:
    def __str__(self):
        return Sly("sly")


class Loud:
    def __str__(self):
        raise SystemExit(3)


class Meta(type):
    def __getattr__(cls, name):
        raise KeyError("x" * 300)


class Odd(metaclass=Meta):
    pass


Long = dataclasses.make_dataclass("Long", [("r" * 300, float)])


@dataclasses.dataclass
class Renamed:
    value: float


dataclasses.fields(Renamed)[0].name = object()


class Broken:
    @property
    def __dataclass_fields__(self):
        raise RuntimeError("no fields")


class Keys:
    pass


keys = Keys()
keys.__dict__.update({"k" * 500: 1, 3: 2, Sly("s"): 3})
deep = []
for _ in range(60):
    deep = [deep]
loop = []
loop.append(loop)
FakeError = type("ValueError", (Exception,), {"__module__": "builtins"})


class Posing(type):
    def __eq__(cls, other):
        return True

    def __hash__(cls):
        return hash(ValueError)


PosingError = Posing("ValueError", (Exception,), {})
tower = ValueError
for n in range(70):
    tower = type(f"E{n}", (tower,), {"__module__": "builtins"})


def throw(error):
    raise error


VALUES = [
    lambda: np.array([1 + 2j], dtype=np.clongdouble),
    lambda: np.array([1.5, np.inf], dtype=np.longdouble),
    lambda: np.longdouble("1.5"),
    lambda: np.clongdouble(1 + 1j),
    lambda: np.array(["2020-01-01"], dtype="datetime64[D]"),
    lambda: np.timedelta64(5, "s"),
    lambda: np.zeros(2, dtype=[("a", "i4"), ("b", "f8")]),
    lambda: np.array([b"x", b"\xff"]),
    lambda: np.ma.masked_array([1, 2], mask=[0, 1]),
    lambda: np.array([[1], [2, 3]], dtype=object),
    lambda: np.array([object()]),
    lambda: np.float16(65504),
    lambda: 10**5000,
    lambda: -(10**4400),
    lambda: 10**4299,
    lambda: Sly("value"),
    lambda: {Sly("key"): Sly("value")},
    lambda: {(): 1, frozenset(): 2, (1, (2,)): 3},
    lambda: {Keys(): 1},
    lambda: Long(0.5),
    lambda: Renamed(0.5),
    lambda: Broken(),
    lambda: keys,
    lambda: Odd,
    lambda: Odd(),
    lambda: deep,
    lambda: loop,
    lambda: type("N" * 500, (), {})(),
    lambda: (x for x in ()),
    lambda: memoryview(b"ab"),
    lambda: bytearray(b"ab"),
    lambda: complex("nan+infj"),
    lambda: range(3),
    lambda: sys,
    lambda: throw(ValueError(Message())),
    lambda: throw(ValueError(Sly("sly"))),
    lambda: throw(ValueError(Loud())),
    lambda: throw(PosingError("posing")),
    lambda: throw(FakeError("fake")),
    lambda: throw(tower("tall")),
    lambda: throw(KeyError("k" * 5000)),
    lambda: throw(ValueError(10**5000)),
]


def f(i):
    return VALUES[i]()
"""


def test_whatever_learner_code_returns_or_raises_the_runner_writes_a_result_the_judge_reads():
    """Each hostile value is a case of its own: the run result is written as JSON, read back, and judged like any
    other (a wrong value, a foreign type, a wrong exception), never refused as damaged."""
    from graders.engine.case import Case
    from graders.engine.prepare import prepare
    from graders.engine.runner import run
    from tests.test_generate import _grader

    count = HOSTILE.count("    lambda: ")
    cases = [Case(id=f"value-{i}", call="f", args=(i,), explain={"en": "A value."}) for i in range(count)]
    # a method looked up on the learner's class, whose metaclass raises KeyError for it
    cases.append(Case(id="method", call="Odd.method", args=(), explain={"en": "A method."}))
    reference = "class Odd:\n    @staticmethod\n    def method():\n        return 1\n\n\ndef f(i):\n    return i\n"
    prepared = prepare(_grader(cases=cases), reference, lesson="t", checkpoint="1")
    result = run(HOSTILE, prepared["plan"])
    text = json.dumps(result)  # what a host sends: the CPython child and the learner worker write JSON
    verdict = judge(prepared, read_run(text))
    assert verdict["status"] == "fail", verdict.get("detail") or verdict.get("message")
    assert verdict["passed"] == 0 and verdict["total"] == count + 1
    assert sorted(o["id"] for o in result["outcomes"]) == sorted(c.id for c in cases)
    by_id = {o["id"]: o for o in result["outcomes"]}
    for index in (count - 5, count - 4):  # a class that compares equal to ValueError, one named ValueError
        fake = by_id[f"value-{index}"]
        assert fake["kind"] == "raise" and "ValueError" not in fake["builtin_mro"], fake
    tall = by_id[f"value-{count - 3}"]
    assert tall["builtin_mro"][0] == "ValueError" and len(tall["builtin_mro"]) < 10  # a real subclass of it


def test_the_runner_writes_an_array_without_values_but_with_billions_of_lists_as_too_large():
    """The encoder charges what the judge charges (values.nested_lists): learner code returning such an array gets
    the too-large marker the judge reads, never a value the judge refuses as damaged."""
    import numpy as np

    for shape in [(2**20, 2**20, 0), (200_001, 0), (0, 2**30)]:
        wire = values.encode(np.empty(shape, dtype=np.uint8))
        values.validate(wire)  # never refused
        assert (wire[0] == "ndarray") == (shape[0] == 0), (shape, wire[:2])


def _nesting(value) -> int:
    """How deeply a parsed JSON value nests: what json_depth must find in its text."""
    if isinstance(value, list):
        return 1 + max((_nesting(v) for v in value), default=0)
    if isinstance(value, dict):
        return 1 + max((_nesting(v) for v in value.values()), default=0)
    return 0


def _tricky_text(rng) -> str:
    """A string made of what a JSON text's nesting is read from: brackets, quotes and backslashes, in runs."""
    return "".join(
        rng.choice(["[", "]", "{", "}", '"', "\\", "\\\\", '\\"', "a", "\n", "é"]) for _ in range(rng.randrange(9))
    )


def _tricky_value(rng, depth=0):
    pick = rng.random()
    if depth > 8 or pick < 0.3:
        return rng.choice([1, 2.5, None, True, _tricky_text(rng)])
    if pick < 0.65:
        return [_tricky_value(rng, depth + 1) for _ in range(rng.randrange(5))]
    return {_tricky_text(rng): _tricky_value(rng, depth + 1) for _ in range(rng.randrange(4))}


def test_the_nesting_of_a_run_result_is_read_as_a_parser_reads_it():
    """read_run refuses a result nested deeper than RUN_RESULT_DEPTH before parsing it (in Pyodide a deep one
    overflows the parser's stack and ends the interpreter): json_depth reads the nesting from the text alone. Strings
    full of brackets, quotes and backslashes (escaped or not, in runs) do not count, whatever their escapes."""
    from graders.engine.judge import json_depth
    from graders.engine.settings import RUN_RESULT_DEPTH

    rng = random.Random(7)
    for _ in range(3000):
        value = _tricky_value(rng)
        text = json.dumps(value, ensure_ascii=rng.random() < 0.5).encode()
        assert json_depth(text) == _nesting(value), text
    deep = b"[" * (RUN_RESULT_DEPTH + 1) + b"]" * (RUN_RESULT_DEPTH + 1)
    assert read_run(deep)["problem"] == "nested too deeply"
    hidden = json.dumps({"status": "ok", "stdout": '\\"' + "[" * 10**5}).encode()  # brackets inside a string
    assert read_run(hidden)["status"] == "ok"
    after = b'{"stdout": "\\\\"' + b", " + b"[" * (RUN_RESULT_DEPTH + 1) + b"]" * (RUN_RESULT_DEPTH + 1) + b"}"
    assert read_run(after)["problem"] == "nested too deeply"  # the string ended at its quote: these brackets count


def _numbers_swapped(w):
    """``w`` with every JSON number and bool in another type it equals (``True`` for 1, ``1`` for ``1.0``, ``1.0`` for
    1): a value ``==`` takes for ``w`` that the wire format's own reading refuses."""
    if isinstance(w, list):
        return [_numbers_swapped(x) for x in w]
    if isinstance(w, bool):
        return int(w)
    if isinstance(w, float) and w.is_integer() and abs(w) < 2**53:
        return int(w)
    if isinstance(w, int):
        return float(w)
    return w


@pytest.mark.parametrize(
    "lesson_id, checkpoint",
    [("claims-abstention", "3"), ("perplexity-calibration", "2"), ("retrieval-evaluation", "3")],
)
def test_a_value_equal_to_the_expected_one_is_taken_as_it_without_walking_it(lesson_id, checkpoint, monkeypatch):
    """The judge takes a returned value equal (``==``) to its case's expected one (:func:`known_values`) as valid and
    matching at C speed; every other value is still read and compared in full. Equal values give the very verdict the
    full walk gives, for right and wrong code; a value ``==`` takes for the expected one though its numbers have other
    JSON types is that value, in every host alike (the judge makes ``known`` itself where the Check has none), and a
    value that differs is still refused when it is malformed."""
    from graders.engine import judge as judge_module
    from graders.hosts import cpython
    from werkbank.grading import prepared_checkpoint
    from werkbank.lessons import load_lesson

    checkpoint_ = load_lesson(lesson_id).checkpoint(checkpoint)
    prepared = prepared_checkpoint(checkpoint_)
    known = judge_module.known_values(prepared["key"])
    assert len(known) > 100
    fast, slow = {**prepared, "known": known}, {**prepared, "known": {}}
    sources = [checkpoint_.solution(), checkpoint_.starter("en")]
    sources += [m.source() for m in checkpoint_.mistakes()][:2]
    for source in sources:
        run = read_run(json.dumps(cpython.run(source, prepared["plan"])))
        assert judge(fast, run) == judge(slow, run) == judge(prepared, run)
    reference = read_run(json.dumps(cpython.run(sources[0], prepared["plan"])))
    walked = []
    monkeypatch.setattr(judge_module, "validate", lambda w, **kw: walked.append(w) or values.validate(w, **kw))
    assert judge(fast, reference)["status"] == "pass"
    assert walked == [], "equal values are not walked"
    assert judge(slow, reference)["status"] == "pass" and walked, "without known every value is"
    swapped = json.loads(json.dumps(reference))
    changed = 0
    for outcome in swapped["outcomes"]:
        if outcome["kind"] == "return" and outcome["id"] in known:
            new = _numbers_swapped(outcome["value"])
            changed += json.dumps(new) != json.dumps(outcome["value"])
            outcome["value"] = new
    assert changed > 0
    assert judge(fast, swapped)["status"] == "pass"
    assert judge(prepared, swapped)["status"] == "pass"
    case_id = next(iter(known))
    broken = json.loads(json.dumps(reference))
    for outcome in broken["outcomes"]:
        if outcome["id"] == case_id:
            outcome["value"] = ["bool", 1]  # equal to no expected value, and no bool
    assert judge(fast, broken)["status"] == "error"
