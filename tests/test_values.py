"""graders/engine/values.py: wire encoding, decoding and the bounded display."""

import json
import math
import sys

import numpy as np
import pytest

from graders.engine.values import WireError, decode, encode, show, validate

ROUND_TRIPS = [
    None,
    True,
    False,
    0,
    -7,
    2**80,
    0.5,
    -0.0,
    "tekst",
    "",
    [1, [2.5, None]],
    (1, "a"),
    {"a": [1], "b": None},
    {1, 2},
    frozenset({"x"}),
    {"nested": ({"k": (1,)},)},
]


@pytest.mark.parametrize("value", ROUND_TRIPS, ids=repr)
def test_plain_values_round_trip_through_json(value):
    wire = json.loads(json.dumps(encode(value)))
    back = decode(wire)
    assert back == value and type(back) is type(value)


def test_special_floats_survive_json_as_strings():
    wire = encode([math.nan, math.inf, -math.inf])
    text = json.dumps(wire)
    assert "NaN" not in text and "Infinity" not in text  # JavaScript's JSON.parse rejects those
    back = decode(json.loads(text))
    assert math.isnan(back[0]) and back[1] == math.inf and back[2] == -math.inf


@pytest.mark.parametrize(
    "array",
    [
        np.array([0.1, np.nan]),
        np.arange(6, dtype=np.int32).reshape(2, 3),
        np.array([True, False]),
        np.zeros(0),
        np.array(["a", "bc"]),
    ],
)
def test_arrays_round_trip_with_dtype_and_shape(array):
    back = decode(json.loads(json.dumps(encode(array))))
    assert type(back) is np.ndarray
    assert back.dtype == array.dtype and back.shape == array.shape
    np.testing.assert_array_equal(back, array)


def test_decoded_arguments_are_fresh_copies():
    original = [{"a": [1, 2]}]
    wire = encode(original)
    first, second = decode(wire), decode(wire)
    first[0]["a"].append(3)
    assert second == [{"a": [1, 2]}] and original == [{"a": [1, 2]}]


def test_show_looks_like_python_and_is_bounded():
    assert (
        show(encode({"status": "supported", "sources": ["s1", "s2"]}))
        == "{'status': 'supported', 'sources': ['s1', 's2']}"
    )
    assert show(encode((0.5, 2))) == "(0.5, 2)"
    assert show(encode((1,))) == "(1,)"
    assert show(encode(np.array([1.0, 2.5]))) == "np.array([1.0, 2.5], dtype=np.float64)"
    assert show(encode(np.int64(4))) == "np.int64(4)"
    long = show(encode(list(range(10_000))))
    assert len(long) < 200 and "more" in long
    assert len(show(encode("x" * 100_000))) < 200


@pytest.mark.parametrize(
    "value",
    [
        [1.5, float("nan"), float("inf"), -float("inf")],
        np.array([0.25, np.nan]),
        np.arange(6, dtype=np.int32).reshape(2, 3),
        np.float32(0.5),
        np.int64(-3),
        np.bool_(True),
        {"a": (1,), "b": {2, 3}, "c": frozenset()},
        set(),
        np.array(["a", "bc"]),
        b"\x00ab",
        1 + 2j,
        [None, True, "it's"],
    ],
)
def test_show_writes_python_that_reads_back_as_the_same_value(value):
    """What "Expected" and "Got" show can be pasted into Python (with numpy imported as np) and gives the value."""
    text = show(encode(value), pasteable=True)
    back = eval(text, {"np": np, "__builtins__": {"float": float, "set": set, "frozenset": frozenset}})  # noqa: S307
    assert encode(back) == encode(value), (text, back)


def test_a_cut_value_stays_valid_python_and_says_how_much_was_left_out():
    import ast

    text = show(encode({"a": list(range(30)), "b": np.arange(40.0)}), pasteable=True, more="… {n} more")
    ast.parse(text)  # the cut places are `...` (Ellipsis), the count a comment after the value
    assert text.endswith("  # … 46 more") and text.count("...") == 2, text
    assert show(encode(list(range(5))), pasteable=True) == "[0, 1, 2, 3, 4]"  # nothing cut: no comment


def test_objects_are_shown_by_their_attributes_without_calling_repr():
    class Report:
        def __init__(self):
            self.ece = 0.25
            self.count = 3

        def __repr__(self):
            raise RuntimeError("never called")

    assert show(encode(Report())) == "Report(ece=0.25, count=3)"


def test_a_property_that_raises_is_recorded_not_propagated():
    class Broken:
        @property
        def value(self):
            raise ZeroDivisionError

    wire = encode(Broken(), {"Broken": ["value"]})
    assert wire == ["object", "Broken", [["value", ["raised", "ZeroDivisionError"]]]]


def test_self_referencing_structures_stop_at_a_depth_limit():
    loop = []
    loop.append(loop)
    text = json.dumps(encode(loop))
    assert "nesting too deep" in text


@pytest.mark.parametrize(
    "wire",
    [
        ["ndarray", "float64", "f", [3], [1.0, 2.0]],  # fewer values than the shape says
        ["ndarray", "float64", "f", [2, 2], [1.0, 2.0, 3.0]],
        ["ndarray", "int64", "i", [1], [1]],  # ints travel as text
        ["ndarray", "int64", "i", [-1], []],
        ["float", "1.5"],
        ["int", "12a"],
        ["bool", 1],
        ["list", "abc"],
        ["dict", [["str", "k"]]],
        ["object", "R", [["x"]]],
        ["foreign", "x" * 201, ""],  # names longer than NAME_LIMIT: no encoder writes them
        ["object", "x" * 201, []],
        ["object", "R", [["x" * 201, ["none"]]]],
        ["raised", "E" * 201],
        ["ndarray", "x" * 201, "V", [0], []],
        ["nonsense"],
        "str",
        [],
    ],
)
def test_validate_rejects_malformed_wire_values(wire):
    with pytest.raises(WireError):
        validate(wire)


def test_validate_accepts_what_encode_makes_and_bounds_size():
    import numpy as np

    from graders.engine.values import encode

    for value in (
        [1, 2.5, "x", None, True],
        {"a": (1, 2)},
        np.arange(6).reshape(2, 3),
        np.float32(0.5),
        {frozenset({1})},
        [float("nan"), float("inf")],
    ):
        validate(encode(value))
    deep = ["list", []]
    for _ in range(200):
        deep = ["list", [deep]]
    with pytest.raises(WireError):
        validate(deep)
    with pytest.raises(WireError):
        validate(["list", [["none"]] * 50], limit=10)


def test_bind_numpy_gives_an_engine_imported_before_numpy_its_types(monkeypatch):
    """The learner worker imports the engine before numpy is loaded, then calls values.bind_numpy() instead of
    importing the engine again: encoding, display and the mutable-parts walk then know numpy's values."""
    import numpy as np

    from graders.engine import values as V

    for name in ("_np", "_ndarray", "_np_generic", "_np_float64"):
        monkeypatch.setattr(V, name, None)  # as if imported before numpy existed
    array = np.array([1.5, 2.5])
    assert V.encode(array)[0] != "ndarray"
    assert not V.is_ndarray(array) and not V.is_numpy_scalar(np.float64(1.0))
    assert V.bind_numpy() is True
    assert V.encode(array)[0] == "ndarray"
    assert V.encode(np.float64(1.5)) == V.encode(1.5)  # a numpy float64 is a float, as before
    assert V.is_ndarray(array) and V.is_numpy_scalar(np.int64(3))
    assert any(part is array for part in V.mutable_parts((array,)))  # an array inside a result is handed out once


def test_names_learner_code_chooses_are_written_short():
    """Class names, attribute names and dtype texts come from learner code: encode keeps them within NAME_LIMIT, so
    validate (which refuses longer ones from a forged run) accepts everything encode writes."""
    import numpy as np

    from graders.engine import values
    from graders.engine.settings import NAME_LIMIT

    Long = type("L" * 100_000, (), {})
    thing = Long()
    setattr(thing, "a" * 100_000, 1)  # an attribute too long to be a name: left out
    thing.ok = 2
    wire = values.encode(
        [Long(), thing, type("I" * 100_000, (int,), {})(3), np.zeros(1, dtype=[("f" * 100_000, "i4")])]
    )
    validate(wire)
    empty, obj, sub, array = wire[1]
    assert obj[0] == "object" and len(obj[1]) == NAME_LIMIT and [pair[0] for pair in obj[2]] == ["ok"]
    assert sub[0] == "foreign" and len(sub[1]) == NAME_LIMIT
    assert array[0] == "ndarray" and len(array[1]) <= NAME_LIMIT
    assert empty[0] == "object" and len(empty[1]) == NAME_LIMIT


def test_a_value_of_more_items_than_the_budget_is_too_large_even_when_its_parts_are_shared():
    """Shared parts count every time they are reached: ten references to one list, six levels deep, are a million
    items (the old encoder wrote them all); thirty levels would never finish. Both are "too large", at once."""
    from graders.engine import values

    for levels in (6, 30):
        x = [0]
        for _ in range(levels):
            x = [x] * 10
        assert values.encode(x) == ["foreign", "list (too large)", ""]
        assert values.plain_encode(x)[1] is False


def test_shared_parts_within_the_budget_read_as_their_copies_do():
    import copy

    from graders.engine import values

    y = [1.5, 2, {"k": (3, "s")}]
    shared = [y, y, {"a": y}, (y,)]
    assert values.encode(shared) == values.encode(copy.deepcopy(shared))
    assert values.plain_encode(shared)[1] is True
    # a part reached at two depths is written for each: the deeper one still stops at the depth limit
    b = [0]
    for _ in range(38):
        b = [b]
    wrapped = b
    for _ in range(20):
        wrapped = [wrapped]
    wire = values.encode([b, wrapped])
    validate(wire)
    assert "nesting too deep" in repr(wire)


def test_a_module_is_not_a_value_and_is_not_walked():
    """Returning a module (numpy, sys) once meant reading its whole namespace, for every case: seconds each."""
    import numpy as np

    from graders.engine import values

    assert values.encode(np) == ["foreign", "module", ""]
    assert values.encode({"lib": sys}) == ["dict", [[["str", "lib"], ["foreign", "module", ""]]]]
    assert values.mutable_parts(np) == [np]


@pytest.mark.parametrize("enabled", [True, False])
def test_parse_json_parses_with_the_collector_paused_and_leaves_it_as_it_was(enabled):
    """``parse_json`` (a Check's plan and run result) gives what ``json.loads`` gives, runs no collection while it
    builds the containers, and leaves the collector on or off as it found it, also when the text is not JSON."""
    import gc

    from graders.engine.values import parse_json

    text = json.dumps({"cases": [{"id": f"c{i}", "args": [[i, [i, {"x": i}]]]} for i in range(20_000)]})
    want = json.loads(text)
    collections = []

    def count(phase, info):
        if phase == "start":
            collections.append(info["generation"])

    gc.collect()  # the youngest generation's count starts from nothing: no collection is due before the parse
    (gc.enable if enabled else gc.disable)()
    gc.callbacks.append(count)
    try:
        got = parse_json(text.encode("utf-8"))
        during = len(collections)  # the next container made may well start one: the parse left 80 000 young ones
        assert during == 0  # with the collector on during the parse: a hundred collections
        assert gc.isenabled() is enabled
        assert got == want
        with pytest.raises(ValueError):
            parse_json(b"{not json")
        assert gc.isenabled() is enabled
    finally:
        gc.callbacks.remove(count)
        gc.enable()


_SHARED = [1.5, 2.5]


class _Box:
    def __init__(self, items):
        self.items = items


@pytest.mark.parametrize(
    "args, kwargs",
    [
        ((), {}),
        ((1, 2.5, "s", None, True, np.float64(2.0), np.int32(3)), {}),
        (([1.5, 2.5], [True, False], np.array([1.0, 2.0])), {"k": 3}),
        (([1.5, 2.5],), {"scores": [0.1, np.float64(0.2)], "mask": np.array([True])}),
        (([[1.5], [2.5]], {"a": [1]}), {}),  # lists of lists, dicts: walked
        ((np.array([{"a": 1}], dtype=object),), {}),
        (((1, 2), (3, [4])), {}),
        ((_Box([1, 2]), [_Box([3])]), {"box": _Box({"x": [1]})}),
        (([1, "a", (2, 3)], {1, 2}, bytearray(b"ab")), {}),
        ((_SHARED, _SHARED), {"again": _SHARED}),
    ],
)
def test_a_calls_input_parts_are_what_the_full_walk_finds(args, kwargs):
    """input_parts lists a call's plain inputs (numbers, flat lists of them, arrays of numbers) without the walk:
    for every kind of input it finds the same parts as mutable_parts((args, kwargs)), which snapshot and the
    input ids rely on to see every part a call could change."""
    from graders.engine import values as V

    def ids(parts):
        return {id(part) for part in parts}  # one list passed twice may be listed twice

    assert ids(V.input_parts(args, kwargs)) == ids(V.mutable_parts((args, kwargs)))


def test_a_generated_generator_input_travels_as_a_fresh_generator_and_shows_as_one():
    """values.Iterated (family container-iter) is an input passed as a generator: its wire form ``["iter", list]``
    decodes to a new generator over the items every time, is shown and written as pasteable source that makes
    the same generator, is no JSON input, and is never a value a run result may hold."""
    from graders.engine import values as V

    wire_args = V.encode((V.Iterated(["d1", "d2"]), 3))
    first, second = V.decode(wire_args)[0], V.decode(wire_args)[0]
    assert type(first).__name__ == "generator" and first is not second
    assert list(first) == ["d1", "d2"] and list(first) == [] and list(second) == ["d1", "d2"]
    assert V.show(wire_args) == "((x for x in ['d1', 'd2']), 3)"
    source = V.call_source("list", ["tuple", wire_args[1][:1]], V.encode({}))
    assert source == "list((x for x in ['d1', 'd2']))" and eval(source) == ["d1", "d2"]
    assert V.as_json(wire_args, V.encode({})) is None
    assert V.as_passed(["tuple", [["object", "generator", []], ["int", "3"]]], wire_args)
    assert V.as_passed(wire_args, wire_args) and not V.as_passed(V.encode(([], 3)), wire_args)
    with pytest.raises(WireError):
        validate(["list", [wire_args[1][0]]])
