"""Engine tests of graders/engine/generate.py's own helpers (the generated cases themselves are proven per lesson)."""

import itertools

import pytest

from graders.engine import generate


def test_refill_pair_indices_name_every_ordered_pair_of_swappable_cases_once():
    """_refills draws pair indices instead of listing every pair: each index must name a distinct ordered pair of
    two different cases that may swap the argument (same number of arguments, same keyword arguments, a list or
    dict of one type there), and together the indices must name every such pair."""

    def case(n, args, kwargs=None):
        return generate.Generated(
            id=f"c{n}",
            call="f",
            args=args,
            kwargs=kwargs or {},
            family="valid",
            detail="",
            site="-",
            base="-",
            stratum=(),
        )

    cases = [
        case(0, ([1], 2)),
        case(1, ([2], 3)),
        case(2, ([3], 4), {"k": 1}),
        case(3, ([4], 5), {"k": 1}),
        case(4, ({"a": 1}, 6)),
        case(5, ({"b": 2}, 7)),
        case(6, ({"c": 3}, 8)),
        case(7, ((1,), 9)),
        case(8, ([5],)),
        case(9, ([6], 1)),
    ]
    valid = [(c, {"kind": "return", "value": c.id}) for c in cases]
    groups = generate._swappable(valid, 0)
    sizes = [len(g) * (len(g) - 1) for g in groups]
    named = [generate._pair(groups, sizes, index) for index in range(sum(sizes))]
    swappable = {
        (a.id, b.id)
        for (a, _), (b, _) in itertools.permutations(valid, 2)
        if len(a.args) == len(b.args)
        and a.kwargs == b.kwargs
        and type(a.args[0]) is type(b.args[0])
        and type(a.args[0]) in (list, dict)
    }
    assert len(swappable) == 3 * 2 + 2 * 1 + 3 * 2  # {c0, c1, c9}, {c2, c3}, {c4, c5, c6}
    assert sorted((first.id, second.id) for first, second, _ in named) == sorted(swappable)
    assert all(outcome["value"] == second.id for _, second, outcome in named)  # the second case's own outcome
    with pytest.raises(IndexError):
        generate._pair(groups, sizes, sum(sizes))


def _grader(**settings):
    """A grader module made in memory: ``curated`` yields ``cases`` (a list of Case), other settings as given."""
    import types

    module = types.ModuleType("in_memory_grader")
    cases = settings.pop("cases")
    module.curated = lambda: iter(cases)
    for name, value in settings.items():
        setattr(module, name, value)
    return module


def test_the_reference_decides_on_the_inputs_a_learner_gets():
    """A numpy.float64 travels to the learner's call as a plain float, so the reference must see a float too: a
    reference that refuses numpy scalars (``type(x) is float``) passes its own generated cases."""
    from graders.engine.case import Case
    from graders.engine.domain import Domain, Param, Real
    from graders.engine.judge import judge
    from graders.engine.prepare import prepare
    from graders.engine.runner import run

    source = (
        "def half(x):\n    if type(x) not in (int, float):\n        raise ValueError('a number')\n    return x / 2\n"
    )
    grader = _grader(
        cases=[Case(id="one", call="half", args=(1.0,), explain={"en": "One."})],
        DOMAIN=Domain("half", (Param("x", Real()),), skip=("huge-int",)),
    )
    prepared = prepare(grader, source, lesson="t", checkpoint="1")
    assert "gen/npfloat/x/one/12" in prepared["key"]["order"]
    verdict = judge(prepared, run(source, prepared["plan"]))
    assert verdict["status"] == "pass", verdict["failure"]


def _families(domain, bases, accept):
    from graders.engine.generate import generate

    def reference(case):
        return (
            {"kind": "return", "value": ["int", "1"]}
            if accept(case)
            else {"kind": "raise", "exc": "ValueError", "builtin_mro": ["ValueError"], "message": ""}
        )

    return generate(domain, bases, reference)


def test_a_plain_python_domain_generates_no_numpy_value():
    """Domain(numpy=False): no generated input holds a numpy scalar or array (the numpy families are gone, the others
    stay); by default they are there."""
    from graders.engine.domain import Domain, Integer, Param, Real, Seq, holds_numpy
    from graders.engine.generate import Base

    params = (Param("xs", Seq(Real(lo=0.0), min_len=1, max_len=4)), Param("k", Integer(lo=1)))
    bases = [Base("a", ([0.5, 2.0], 3)), Base("b", ([1.0], 1))]
    accept = lambda case: len(case.args) == 2 and type(case.args[0]) is list and type(case.args[1]) is int  # noqa: E731
    plain = _families(Domain("f", params, numpy=False), bases, accept)
    usual = _families(Domain("f", params), bases, accept)
    assert not any(holds_numpy((case.args, case.kwargs)) for case, _ in plain)
    assert sum(holds_numpy((case.args, case.kwargs)) for case, _ in usual) > 20
    kept = {case.family for case, _ in plain}
    assert {"huge", "huge-int", "nan", "size-over", "container-tuple", "scale", "keyword-all", "repeat"} <= kept
    assert not kept & {"npint", "npfloat", "float32", "ndarray"}


def test_repeat_false_or_skipping_repeat_makes_no_repeated_calls():
    from graders.engine.domain import Domain, Param, Real
    from graders.engine.generate import Base

    bases = [Base("a", (0.5,))]
    families = lambda domain: {case.family for case, _ in _families(domain, bases, lambda case: True)}  # noqa: E731
    assert "repeat" in families(Domain("f", (Param("x", Real()),)))
    assert "repeat" not in families(Domain("f", (Param("x", Real()),), repeat=False))
    assert "repeat" not in families(Domain("f", (Param("x", Real()),), skip=("repeat",)))


def test_a_skip_entry_that_names_no_family_is_found():
    from graders.engine.generate import unknown_skips

    assert unknown_skips(("huge", "ndarray-float32", "type-*", "ndarray-object", "combo")) == []
    assert unknown_skips(("huge-ints", "npint", "typ-*", "ndarray-float16")) == [
        "huge-ints",
        "typ-*",
        "ndarray-float16",
    ]


def test_a_huge_integral_float_gets_its_variants_without_an_overflow():
    """A curated 1e308 is integral but has no int64 form: the variants skip that one form instead of stopping the
    grader with 'Python int too large to convert to C long'."""
    import warnings

    from graders.engine.domain import Real

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        families = {v.family for v in Real().variants(1e308)}
    assert {"int-form", "npfloat", "huge"} <= families and "float32" not in families
