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


def _retrieval_domain(unique=True, aligned=()):
    from graders.engine.domain import Domain, Param, Seq, Text

    doc = Text(pool="doc")
    return Domain(
        "score",
        (Param("ranking", Seq(doc, min_len=8, unique=unique)), Param("relevant", Seq(doc, min_len=8, unique=unique))),
        aligned=aligned,
    )


def test_random_inputs_of_a_unique_sequence_hold_distinct_items_that_still_recur_across_arguments():
    """A ranking names each document once: its random values must too, or every random case breaks that rule (the
    pool of a text spec holds 2 to 6 words, so eight draws repeat one). The items still come from the shared pool."""
    import random

    from graders.engine.generate import random_bases

    for unique in (True, False):
        bases = random_bases(_retrieval_domain(unique), random.Random(7), 40)
        repeated = [b for b in bases if any(len(set(a)) < len(a) for a in b.args)]
        if unique:
            assert not repeated
            assert sum(bool(set(b.args[0]) & set(b.args[1])) for b in bases) > 30  # documents both ranked and relevant
        else:
            assert len(repeated) == len(bases)


def test_random_inputs_give_the_sequences_of_an_aligned_group_one_length():
    import random

    from graders.engine.generate import random_bases

    aligned = random_bases(_retrieval_domain(aligned=(("ranking", "relevant"),)), random.Random(3), 40)
    assert all(len(b.args[0]) == len(b.args[1]) for b in aligned)
    free = random_bases(_retrieval_domain(), random.Random(3), 40)
    assert any(len(b.args[0]) != len(b.args[1]) for b in free)


def test_a_large_input_puts_the_first_match_after_a_thousand_places():
    """Where the arguments share texts (a relevant document that is ranked), one large input keeps the base's items
    last behind thousands of copies that match nothing across arguments: a solution that looks at the first ten
    places, or recurses per place, fails it; the shuffled large inputs put a match near the top."""
    from graders.engine.domain import Domain, Integer, Param, Seq, Text
    from graders.engine.generate import SCALE_LEN, Base

    doc = Text(pool="doc")
    domain = Domain(
        "recall",
        (
            Param("ranking", Seq(doc, unique=True)),
            Param("relevant", Seq(doc, unique=True)),
            Param("k", Integer(lo=1)),
        ),
    )
    base = Base("a", (["d3", "d1", "d7"], ["d1", "d4"], 2))
    scaled = [case for case, _ in _families(domain, [base], lambda case: True) if case.family == "scale"]
    late = [case for case in scaled if case.id.endswith("/2")]
    assert len(late) == 1, [case.id for case in scaled]
    ranking, relevant, k = late[0].args
    assert len(ranking) == SCALE_LEN and len(set(ranking)) == SCALE_LEN and ranking[-3:] == ["d3", "d1", "d7"]
    assert len(relevant) == SCALE_LEN and relevant[-2:] == ["d1", "d4"]
    first = min(place for place, d in enumerate(ranking, start=1) if d in set(relevant))
    assert first == SCALE_LEN - 1
    assert k >= SCALE_LEN
    shuffled = [case for case in scaled if not case.id.endswith("/2")]
    assert shuffled and all(
        min(p for p, d in enumerate(c.args[0], start=1) if d in set(c.args[1])) <= 10 for c in shuffled
    )


def test_a_large_input_of_nested_sequences_has_one_inner_sequence_of_the_full_length():
    """Rankings to fuse (a sequence of sequences, no limit stated): one large input has a ranking of SCALE_LEN
    documents, the others sharing SCALE_LEN, so a solution that reads only a ranking's first 1000 (or 200) places
    fails; growing every ranking to SCALE_LEN / their number once let a cut at 200 places pass."""
    from graders.engine.domain import Domain, Integer, Param, Seq, Text
    from graders.engine.generate import SCALE_LEN, Base

    domain = Domain("fuse", (Param("rankings", Seq(Seq(Text(pool="doc"), unique=True))), Param("k", Integer(lo=0))))
    base = Base("a", ([["a", "b"], ["b", "c"], ["c", "d"], ["d", "a"], ["e"]], 60))
    scaled = [case for case, _ in _families(domain, [base], lambda case: True) if case.family == "scale"]
    nested = [case for case in scaled if case.id.endswith("/0")]
    assert len(nested) == 1, [case.id for case in scaled]
    lengths = [len(ranking) for ranking in nested[0].args[0]]
    assert lengths[0] == SCALE_LEN and all(length == SCALE_LEN // 5 for length in lengths[1:]), lengths
    assert all(len(set(ranking)) == len(ranking) for ranking in nested[0].args[0])


def test_a_random_input_the_reference_refuses_is_an_author_error():
    """Random cases are explained to the learner as valid inputs: one the reference refuses means the domain lets
    through what the task forbids (here repeated document ids), which the author must declare."""
    from graders.engine.case import Case
    from graders.engine.prepare import AuthorError, prepare

    source = (
        "def score(ranking, relevant):\n"
        "    for docs in (ranking, relevant):\n"
        "        if type(docs) is not list or any(type(d) is not str for d in docs) or len(set(docs)) < len(docs):\n"
        "            raise ValueError('a list of distinct document ids')\n"
        "    return len(set(ranking) & set(relevant))\n"
    )
    curated = [Case(id="one", call="score", args=(["a"], ["a"]), explain={"en": "One."})]
    grader = _grader(cases=curated, DOMAIN=_retrieval_domain(unique=False), RANDOM_CASES=5)
    with pytest.raises(AuthorError, match="random input drawn from the DOMAIN of score.*unique="):
        prepare(grader, source, lesson="t", checkpoint="1")
    grader = _grader(cases=curated, DOMAIN=_retrieval_domain(unique=True), RANDOM_CASES=5)
    assert prepare(grader, source, lesson="t", checkpoint="1")["key"]["expected"]["random-0"]["kind"] == "return"


def test_a_case_label_is_cut_at_its_first_clause_never_inside_brackets():
    from graders.engine.case import Case
    from graders.engine.prepare import _label

    def label(text):
        return _label(Case(id="c", call="f", args=(), explain={"en": text}))["en"]

    assert label("One fact row (source s1: blue). More text") == "One fact row (source s1: blue)"
    assert label("Exactly 128 fact rows is still allowed (all blue: none red): the limit") == (
        "Exactly 128 fact rows is still allowed (all blue: none red)"
    )
    assert label("The lesson's example: of the relevant d1 ...") == "The lesson's example"
    assert label("Ratio 0.5 (a half). Next") == "Ratio 0.5 (a half)"
    assert label("The value has 201 characters; without the spaces 199") == "The value has 201 characters"
    # numbers listed with decimal commas (Dutch) are one clause; a semicolon after a word still ends it
    assert label("Scores 0,1; 0,4 en 0,7; drempel 0,5. Meer") == "Scores 0,1; 0,4 en 0,7"
    long = "A claim whose value runs on and on past any label a learner could take in at a glance, far too long"
    assert label(long) == "A claim whose value runs on and on past any label a learner could take in at a glance…"


def test_an_invalid_item_is_also_tried_at_the_end_of_the_longest_input():
    """Invalid items are made at the first, second, middle and last places of a small base; a solution that checks
    only the first items of an input passes all of those. Each kind of invalid item is tried once more at the end of
    the sequence grown to its limit (max_len, or SCALE_LEN items), behind valid copies, in every aligned sequence
    at once, and only where the grown input is valid without it."""
    from graders.engine.domain import Domain, Flag, Param, Real, Seq
    from graders.engine.generate import Base

    domain = Domain(
        "curve",
        (Param("scores", Seq(Real(0.0, 1.0), max_len=300)), Param("labels", Seq(Flag()))),
        aligned=(("scores", "labels"),),
    )

    def valid(scores=None, labels=None, first=None) -> bool:
        if type(scores) is not list or type(labels) is not list or len(scores) != len(labels):
            return False
        numbers = all(type(s) in (int, float) and 0.0 <= s <= 1.0 for s in scores[:first])
        return numbers and all(type(b) is bool for b in labels[:first])

    cases = _families(
        domain, [Base("a", ([0.5, 0.25, 1.0], [True, False, True]))], lambda case: valid(*case.args, **case.kwargs)
    )
    late = [(case, outcome) for case, outcome in cases if case.family == "late"]
    assert len(late) >= 3 and all(outcome["kind"] == "raise" for _, outcome in late)
    for case, _ in late:
        scores, labels = case.args
        assert len(scores) == len(labels) == 300  # max_len of scores, and labels grown with it
        place = case.path[1][1]
        assert place >= 297
        assert valid(scores[:place], labels[:place]) and not valid(scores[: place + 1], labels[: place + 1])
    # a solution that checks only the first hundred items of each: only these cases catch it
    others = [case for case, outcome in cases if case.family != "late" and outcome["kind"] == "raise"]
    assert others and not any(valid(*case.args, first=100) for case in others if type(case.args[0]) is list)
    assert all(valid(*case.args, first=100) for case, _ in late)


def test_every_valid_input_also_gets_an_invalid_value_at_its_last_place():
    """The other families change only the few smallest bases. A solution that checks its input only on its usual
    path (here: only when the first label is True; an early return for an empty ranking or an all-abstained list is
    the same kind) passes all of those; family "context" puts one of the refused values at the last place of every
    valid base, in turn, so the base whose first label is False gets one too."""
    from graders.engine.domain import Domain, Flag, Param, Real, Seq
    from graders.engine.generate import Base

    domain = Domain("curve", (Param("scores", Seq(Real(0.0, 1.0))), Param("labels", Seq(Flag()))))

    def valid(scores=None, labels=None, lazy=False) -> bool:
        if type(scores) is not list or type(labels) is not list or len(scores) != len(labels):
            return False
        if lazy and labels and labels[0] is False:
            return True  # the early return before the checks
        return all(type(s) is float and 0.0 <= s <= 1.0 for s in scores) and all(type(b) is bool for b in labels)

    bases = [Base(f"b{n}", ([0.5] * n, [True] * n)) for n in range(1, 7)]
    bases.append(Base("first-false", ([0.5] * 8, [False] + [True] * 7)))
    cases = _families(domain, bases, lambda case: valid(*case.args, **case.kwargs))
    context = [(c, o) for c, o in cases if c.family == "context"]
    assert {c.base for c, _ in context} == {b.id for b in bases}  # every base, not only the smallest
    others = [c for c, o in cases if c.family != "context" and o["kind"] == "raise" and type(c.args[0]) is list]
    assert not any(valid(*c.args, lazy=True) for c in others if len(c.args) == 2)  # the lazy check passes them all
    caught = [c for c, o in context if o["kind"] == "raise" and valid(*c.args, lazy=True)]
    assert caught and {c.base for c in caught} == {"first-false"}
    assert all(c.path[-1][1] == len(c.args[0]) - 1 for c in caught)  # at the last place


def test_arguments_a_base_passes_by_name_are_also_passed_by_position():
    """The signature's parameters take either way: a base that passes bins by name is also called with it by
    position, so a function that made bins keyword-only (``*, bins=10``) fails there."""
    from graders.engine.domain import Domain, Flag, Integer, Param, Real, Seq
    from graders.engine.generate import Base

    domain = Domain(
        "ece",
        (
            Param("confidences", Seq(Real(0.0, 1.0))),
            Param("correct", Seq(Flag())),
            Param("bins", Integer(1), keyword=True, has_default=True),
        ),
    )
    base = Base("named", ([0.2, 0.9], [False, True]), {"bins": 5})
    cases = [c for c, _ in _families(domain, [base], lambda case: True) if c.family == "positional"]
    assert len(cases) == 1 and cases[0].args == ([0.2, 0.9], [False, True], 5) and cases[0].kwargs == {}

    def keyword_only(confidences, correct, *, bins=10):
        return bins

    with pytest.raises(TypeError):
        keyword_only(*cases[0].args, **cases[0].kwargs)
    assert keyword_only(*base.args, **base.kwargs) == 5


def test_a_real_is_also_tried_as_a_complex_with_no_imaginary_part():
    """0.8+0j is not a real number either: a check of .imag != 0 lets it through, a type check does not."""
    from graders.engine.domain import Real

    complexes = [v.value for v in Real(0.0, 1.0).variants(0.8) if v.family == "complex"]
    assert any(c.imag != 0 for c in complexes) and complex(0.8, 0) in complexes
    assert all(type(c) is complex for c in complexes)


def test_a_large_input_also_comes_with_its_whole_numbers_as_uint8_arrays():
    """Labels or counts summed one numpy item at a time (Python's sum over a uint8 array) wrap at 256: a large input
    gives them as uint8 arrays once, where the spec allows arrays."""
    import numpy as np

    from graders.engine.domain import Domain, Flag, Param, Real, Seq
    from graders.engine.generate import Base

    domain = Domain(
        "hits",
        (
            Param("scores", Seq(Real(0.0, 1.0), containers=("list", "ndarray"))),
            Param("labels", Seq(Flag(), containers=("list", "ndarray"))),
        ),
        aligned=(("scores", "labels"),),
    )
    cases = _families(domain, [Base("a", ([0.9, 0.8, 0.7], [True, True, True]))], lambda case: True)
    narrow = [c for c in cases if c[0].family == "scale" and "uint8" in c[0].detail]
    assert len(narrow) == 1
    scores, labels = narrow[0][0].args
    assert isinstance(labels, np.ndarray) and labels.dtype == np.uint8 and len(labels) > 255
    assert isinstance(scores, list)  # floats stay as they were
    with np.errstate(over="ignore"):
        assert int(sum(labels)) != int(labels.sum())  # what a per-item sum gets wrong here


def test_numbers_that_cancel_out_reach_the_zero_total_with_an_item_the_reference_refuses():
    """A solution that returns its answer for a zero total (no tokens at all) before it checks each count passes
    every input whose refused count leaves the total above 0. Where the reference refuses a negative item, every
    valid base also gets one whose last item is minus the sum of the others: the total is 0 and the input still
    raises."""
    import math

    from graders.engine.domain import Domain, Integer, Param, Seq
    from graders.engine.generate import Base

    domain = Domain("pooled", (Param("counts", Seq(Integer(0, None))),))

    def answer(counts, early_total=False):
        if type(counts) is not list or any(type(n) is not int for n in counts):
            raise ValueError("counts")
        if early_total and sum(counts) == 0:
            return math.nan
        if any(n < 0 for n in counts):
            raise ValueError("negative")
        return sum(counts)

    def valid(case) -> bool:
        try:
            answer(*case.args, **case.kwargs)
        except ValueError:
            return False
        return True

    bases = [Base(f"b{n}", ([n + 1] * n,)) for n in range(1, 6)]
    cases = _families(domain, bases, valid)
    cancelling = [c for c, o in cases if c.id.startswith("gen/cancel/")]
    assert {c.base for c in cancelling} == {b.id for b in bases if len(b.args[0]) > 1}
    for case in cancelling:
        counts = case.args[0]
        assert sum(counts) == 0 and counts[-1] < 0 and all(n > 0 for n in counts[:-1]), counts
    late = [c for c, o in cases if o["kind"] == "raise"]
    caught = []
    for case in late:
        try:
            answer(*case.args, early_total=True)
        except ValueError:
            continue
        caught.append(case)
    assert caught and all(c.id.startswith("gen/cancel/") for c in caught)


def test_an_unbounded_int_is_also_tried_past_the_range_of_a_float():
    """k = 10**400 is an int like any other; float(k) raises OverflowError for it. Only where no upper bound is set."""
    from graders.engine.domain import Integer

    assert 10**400 in [v.value for v in Integer(lo=1).variants(3) if v.family == "huge-int"]
    assert not [v for v in Integer(lo=1, hi=1000).variants(3) if v.family == "huge-int"]


def test_refills_include_calls_whose_every_argument_is_the_earlier_call_s_object():
    """A result cached by the ids of all its arguments hits only when every argument of the later call is the
    earlier call's object: of each argument's refill cases, some must pair calls whose arguments are all lists,
    however few such calls there are among the others (arrays and tuples, which a refill cannot reuse)."""
    import random

    import numpy as np

    from graders.engine.domain import Domain, Integer, Param, Seq

    domain = Domain("f", (Param("xs", Seq(Integer(0))), Param("ys", Seq(Integer(0)))))

    def case(n, args):
        return generate.Generated(
            id=f"c{n}", call="f", args=args, kwargs={}, family="valid", detail="", site="-", base="-", stratum=()
        )

    cases = [case(n, ([n], np.array([n]))) for n in range(40)] + [case(100 + n, ([n], [n + 1])) for n in range(3)]

    def reference(c):
        return {"kind": "return", "value": sum(c.args[0]) * 10 + sum(list(c.args[1]))}

    valid = [(c, reference(c)) for c in cases]
    for seed in range(5):
        made = generate._refills(domain, valid, reference, random.Random(seed), 4)
        for spot in ("xs", "ys"):
            pairs = [(c, c.refill) for c, _ in made if c.site == spot]
            whole = [c for c, first in pairs if all(type(a) is list for a in c.args) and first.startswith("c10")]
            assert whole, (seed, spot, [c.id for c, _ in pairs])


@pytest.mark.parametrize("floats", [False, True], ids=["counts", "counts-or-floats"])
def test_arrays_of_integers_are_float_arrays_only_where_floats_stand_for_them(floats):
    """A float array of counts is a float count in every item: where a task leaves float counts open (an Integer
    without ``floats=True``, as no ``3.0`` variant is made), no float32 or float64 array of them is either, or right
    code that refuses float counts failed on cases the task says are not tested. Bool arrays follow ``bools`` the
    same way; other dtypes stay."""
    from graders.engine.domain import Integer, Maybe, Real, Seq

    def array_families(item):
        return {v.family for v in Seq(item).variants([3, 0, 2]) if v.family.startswith("ndarray-")}

    made = array_families(Integer(0, None, floats=floats))
    assert ({"ndarray-float32", "ndarray-float64"} <= made) is floats
    assert {"ndarray-int8", "ndarray-uint8"} <= made
    assert "ndarray-bool" not in made
    floating = {"ndarray-float32", "ndarray-float64"}
    assert array_families(Maybe(Integer(0, None, floats=floats))) & floating == made & floating
    assert {"ndarray-float32", "ndarray-float64"} <= array_families(Real(0.0, None))


def test_every_sequence_is_tried_as_a_generator_over_its_items():
    """A task that names its containers (a list, a tuple, an array) refuses a generator too, which code that reads
    whatever comes into a list accepts: every sequence site gets a container-iter variant over the same items, in
    the container group, so the reference decides (a task that leaves it open skips the family)."""
    from graders.engine.domain import Real, Seq
    from graders.engine.values import Iterated

    (variant,) = [v for v in Seq(Real(0.0, 1.0)).variants([0.25, 0.5]) if v.family == "container-iter"]
    assert type(variant.value) is Iterated and variant.value.items == [0.25, 0.5]
    assert generate.group_of("container-iter") == "container"
    assert "container-iter" in generate.FAMILIES


def test_refills_include_calls_whose_lists_are_as_long_as_the_earlier_call_s():
    """A cache may key on the arguments' ids and lengths, so a refill of another length misses it: of each argument's
    refill cases one pairs calls whose lists are as long, however rare such pairs are among the valid calls (here one
    pair in forty calls, which a draw of random pairs almost never meets)."""
    import random

    from graders.engine.domain import Domain, Integer, Param, Seq

    domain = Domain("f", (Param("xs", Seq(Integer(0))), Param("ys", Seq(Integer(0)))))

    def case(n, size):
        args = ([n] * size, [n + 1] * size)
        return generate.Generated(
            id=f"c{n}", call="f", args=args, kwargs={}, family="valid", detail="", site="-", base="-", stratum=()
        )

    cases = [case(n, n + 1) for n in range(38)] + [case(100, 60), case(101, 60)]

    def reference(c):
        return {"kind": "return", "value": sum(c.args[0]) * 1000 + sum(c.args[1])}

    valid = [(c, reference(c)) for c in cases]
    by_id = {c.id: c for c in cases}
    for seed in range(5):
        made = generate._refills(domain, valid, reference, random.Random(seed), 5)
        for spot in ("xs", "ys"):
            same = [
                c
                for c, _ in made
                if c.site == spot and [len(a) for a in c.args] == [len(a) for a in by_id[c.refill].args]
            ]
            assert same, (seed, spot)


def test_sequences_of_numbers_are_also_tried_with_every_item_zero():
    """Input that holds items, each of them 0 or False, is what code that finds an empty input with ``any()`` or a
    sum takes for an empty one: every sequence of numbers or truth values is tried with every item zero of its own
    type (containers and dtypes kept), all of them at once and each alone; never where a sequence is empty or zero
    already, nor where the domain skips the family."""
    import numpy as np

    from graders.engine.domain import Domain, Flag, Param, Real, Seq, Text

    domain = Domain(
        "f",
        (
            Param("p", Seq(Real(0.0, 1.0), containers=("list", "ndarray"))),
            Param("y", Seq(Flag(numbers=True))),
            Param("names", Seq(Text())),
        ),
    )
    base = generate.Base("b", ([0.25, 0.75], [True, 1], ["a", "b"]))
    made = {c.site: c.args for c in generate._zero_variants(domain, base)}
    assert set(made) == {"p/y", "p", "y"}
    at_once = made["p/y"]
    assert at_once[0] == [0.0, 0.0] and [type(x) for x in at_once[0]] == [float, float]
    assert at_once[1] == [False, 0] and [type(x) for x in at_once[1]] == [bool, int]
    assert at_once[2] == ["a", "b"]
    assert made["p"][1] == [True, 1] and made["y"][0] == [0.25, 0.75]
    arrays = generate.Base("a", (np.array([0.5, 0.0], dtype=np.float32), [0, 0], []))
    (only,) = generate._zero_variants(domain, arrays)  # y is zero already
    assert only.site == "p" and only.args[0].dtype == np.float32 and not only.args[0].any()
    assert not list(generate._zero_variants(domain, generate.Base("e", ([], [], []))))
    skipping = Domain("f", domain.params, skip=("all-zero",))
    assert not list(generate._zero_variants(skipping, base))
