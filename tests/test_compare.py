"""Table tests of the comparison rules (graders/engine/compare.py), through encode() as the engine uses them."""

import math
import warnings
from dataclasses import dataclass

import numpy as np
import pytest

from graders.engine.compare import compare
from graders.engine.values import encode


def _matrix():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PendingDeprecationWarning)
        return np.asmatrix(np.ones((1, 1)))


class AlwaysEqual:
    def __eq__(self, other):
        return True

    def __hash__(self):
        return 0


class SneakyInt(int):
    def __eq__(self, other):
        return True

    __hash__ = int.__hash__


class SneakyFloat(float):
    def __eq__(self, other):
        return True

    __hash__ = float.__hash__


class SneakyList(list):
    def __eq__(self, other):
        return True


@dataclass
class Result:
    value: float
    count: int


def _plain_init(self, value, count):
    self.value = value
    self.count = count


def _property_init(self, value, count):
    self._v, self._c = value, count


# Learners' own classes carry the reference's class name; these are "Result" written in other styles.
PlainResult = type("Result", (), {"__init__": _plain_init})
PropertyResult = type(
    "Result",
    (),
    {"__init__": _property_init, "value": property(lambda self: self._v), "count": property(lambda self: self._c)},
)


class Other:
    def __init__(self):
        self.value, self.count = 1.0, 1


ATTRS = {"Result": ["value", "count"]}

# (name, got, expected, passes, reason or None)
ROWS = [
    ("same int", 3, 3, True, None),
    ("bool is not int", True, 1, False, "type"),
    ("int is not bool", 1, True, False, "type"),
    ("int is not float", 1, 1.0, False, "type"),
    ("float is not int", 1.0, 1, False, "type"),
    ("None is not 0.0", None, 0.0, False, "type"),
    ("0.0 is not None", 0.0, None, False, "type"),
    ("list is not tuple", [1, 2], (1, 2), False, "type"),
    ("tuple is not list", (1, 2), [1, 2], False, "type"),
    ("AlwaysEqual never passes", AlwaysEqual(), 3, False, "type"),
    ("AlwaysEqual in a list", [AlwaysEqual()], [1], False, "type"),
    ("int subclass overriding __eq__", SneakyInt(4), 5, False, "type"),
    ("int subclass even when equal", SneakyInt(5), 5, False, "type"),
    ("float subclass overriding __eq__", SneakyFloat(0.1), 0.5, False, "type"),
    ("list subclass", SneakyList([9]), [1], False, "type"),
    ("float within rel 1e-9", 1.0 + 1e-10, 1.0, True, None),
    ("float outside rel 1e-9", 1.0 + 1e-8, 1.0, False, "value"),
    ("tiny float within abs 1e-12", 1e-13, 0.0, True, None),
    ("tiny float outside abs 1e-12", 1e-11, 0.0, False, "value"),
    ("nan matches nan", math.nan, math.nan, True, None),
    ("nan is not a number", 0.0, math.nan, False, "value"),
    ("number is not nan", math.nan, 0.0, False, "value"),
    ("-0.0 matches 0.0", -0.0, 0.0, True, None),
    ("inf matches inf", math.inf, math.inf, True, None),
    ("-inf is not inf", -math.inf, math.inf, False, "value"),
    ("numpy.float64 counts as float", np.float64(0.25), 0.25, True, None),
    ("numpy.float32 is not float", np.float32(0.25), 0.25, False, "type"),
    ("numpy int64 is not int", np.int64(3), 3, False, "type"),
    ("numpy bool is not bool", np.bool_(True), True, False, "type"),
    ("str exact", "blauw", "blauw", True, None),
    ("str case differs", "Blauw", "blauw", False, "value"),
    ("str trailing space", "blauw ", "blauw", False, "value"),
    ("list order matters", [2, 1], [1, 2], False, "value"),
    ("list length", [1], [1, 2], False, "length"),
    ("dict same", {"a": 1, "b": [1.0]}, {"b": [1.0], "a": 1}, True, None),
    ("dict missing key", {"a": 1}, {"a": 1, "b": 2}, False, "keys"),
    ("dict extra key", {"a": 1, "b": 2, "c": 3}, {"a": 1, "b": 2}, False, "keys"),
    ("dict value type", {"risk": 0}, {"risk": 0.0}, False, "type"),
    ("dict None value", {"risk": None}, {"risk": None}, True, None),
    ("array equal", np.array([0.1, 0.2]), np.array([0.1, 0.2]), True, None),
    ("array within tolerance", np.array([0.1 + 1e-12]), np.array([0.1]), True, None),
    ("array nan equal", np.array([np.nan, 1.0]), np.array([np.nan, 1.0]), True, None),
    ("array shape", np.zeros(3), np.zeros(4), False, "shape"),
    ("array 2-D shape", np.zeros((2, 2)), np.zeros(4), False, "shape"),
    ("array dtype kind float vs int", np.zeros(3, dtype=np.int64), np.zeros(3), False, "dtype"),
    ("array dtype kind int vs float", np.zeros(3), np.zeros(3, dtype=np.int64), False, "dtype"),
    ("array int32 vs int64 (same kind)", np.arange(3, dtype=np.int32), np.arange(3), True, None),
    ("array uint vs int (one integer kind)", np.arange(3, dtype=np.uint64), np.arange(3), True, None),
    ("array int values exact", np.array([1, 2]), np.array([1, 3]), False, "value"),
    ("list is not ndarray", [0.1, 0.2], np.array([0.1, 0.2]), False, "type"),
    ("ndarray is not list", np.array([0.1, 0.2]), [0.1, 0.2], False, "type"),
    ("ndarray subclass (matrix) is not ndarray", _matrix(), np.array([[1.0]]), False, "type"),
    ("dataclass attributes", Result(0.5, 2), Result(0.5, 2), True, None),
    ("plain class in another style", PlainResult(0.5, 2), Result(0.5, 2), True, None),
    ("properties in another style", PropertyResult(0.5, 2), Result(0.5, 2), True, None),
    ("object attribute value", Result(0.5, 3), Result(0.5, 2), False, "value"),
    ("object attribute type", PlainResult(0.5, 2.0), Result(0.5, 2), False, "type"),
    ("object of another class", Other(), Result(1.0, 1), False, "type"),
    ("tuple of arrays", (np.zeros(2), np.ones(2)), (np.zeros(2), np.ones(2)), True, None),
]


@pytest.mark.parametrize("name,got,expected,passes,reason", ROWS, ids=[r[0] for r in ROWS])
def test_rule(name, got, expected, passes, reason):
    found = compare(encode(expected), encode(got, ATTRS))
    if passes:
        assert found is None, found
    else:
        assert found is not None
        assert found.reason == reason


def test_numpy_integer_where_int_expected_hints_int():
    found = compare(encode(3), encode(np.int64(3)))
    assert found.hint == "hint_int"


def test_dict_mismatch_names_missing_and_extra_keys():
    found = compare(encode({"coverage": 1.0, "risk": 0.0}), encode({"coverage": 1.0, "Risk": 0.0}))
    assert found.reason == "keys"
    assert "'risk'" in found.params["missing"] and "'Risk'" in found.params["extra"]


def test_mismatch_path_points_into_the_structure():
    found = compare(
        encode([{"status": "supported", "sources": ["s1"]}]), encode([{"status": "supported", "sources": ["s2"]}])
    )
    assert found.path == "[0]['sources'][0]"


def test_eq_and_bool_of_learner_objects_are_never_called():
    calls = []

    class Loud:
        def __eq__(self, other):
            calls.append("eq")
            return True

        def __bool__(self):
            calls.append("bool")
            return True

        def __repr__(self):
            calls.append("repr")
            return "3"

    assert compare(encode(3), encode(Loud())) is not None
    assert calls == []


@pytest.mark.parametrize(
    "expected, got",
    [
        (1 / 101, 0.00990099),  # rounded to 8 places
        (np.float64(1 / 3), np.float64(np.float32(1 / 3))),  # computed in float32
        (np.array([0.1, 1 / 3]), np.array([0.1, 0.3333])),
    ],
)
def test_a_near_miss_of_a_float_says_so_and_a_wrong_value_does_not(expected, got):
    """A float off by rounding or float32 (within a relative 1e-3, beyond 1e-9) gets the near-miss hint, which the
    verdict shows instead of the case's own hint (about its input, not about precision); a value further off is
    just different."""
    from graders.engine.judge import failure

    found = compare(encode(expected), encode(got))
    assert found and found.reason == "value" and found.hint == "hint_near_float"
    far = compare(encode(expected), encode(got * 2 if not isinstance(got, np.ndarray) else got * 2))
    assert far and far.reason == "value" and far.hint is None
    key = {
        "cases": {"c": {"explain": {"en": "why"}, "hint": {"en": "Count the denominator again."}, "label": {}}},
        "expected": {"c": {"kind": "return", "value": encode(expected)}},
        "mistakes": [],
    }
    prepared = {"key": key, "plan": {"cases": [{"id": "c", "call": "f", "json": "[[], {}]"}]}}
    entry = failure(
        prepared, "c", {"kind": "return", "value": encode(got)}, ("differs", found.hint, "wrong_value"), "en"
    )
    assert entry["hint"].startswith("Close, but not equal") and "denominator" not in entry["hint"]


@pytest.mark.parametrize(
    "expected, got",
    [
        (1e-10 + 3e-13, 1e-10),  # a bare float, and the same rounded to 12 decimals
        ([("a", 3.3e-13)], [("a", 0.0)]),  # in a tuple in a list
        ({"score": 2e-13}, {"score": 1e-13}),  # a dict's value
        (np.array([5e-13, 1.0]), np.array([0.0, 1.0])),  # an array's item
        (np.float64(4e-13), np.float64(0.0)),  # a numpy scalar
    ],
)
def test_a_domain_s_absolute_tolerance_reaches_every_float(expected, got):
    """With the engine's absolute 1e-12 floats this small all match; a domain's own (Domain.abs_tol, 0 for scores
    that are sums of positive terms) holds wherever the float sits, so only a relative difference of 1e-9 passes."""
    assert compare(encode(expected), encode(got)) is None
    assert compare(encode(expected), encode(got), abs_tol=0.0) is not None
    assert compare(encode(expected), encode(expected), abs_tol=0.0) is None
    assert compare(encode(0.0), encode(0.0), abs_tol=0.0) is None
