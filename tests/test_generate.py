"""Engine tests of graders/engine/generate.py's own helpers (the generated cases themselves are proven per lesson)."""

import itertools

import pytest

from graders.engine import generate


def test_refill_pair_indices_name_every_ordered_pair_of_swappable_cases_once():
    """_refills draws pair indices instead of listing every pair: each index must name a distinct ordered pair of
    two different cases that may swap the argument (same number of arguments, same keyword arguments, a list or
    dict of one type there), and together the indices must name every such pair."""

    def case(n, args, kwargs=None):
        return generate.Generated(id=f"c{n}", call="f", args=args, kwargs=kwargs or {}, family="valid", detail="",
                                  site="-", base="-", stratum=())

    cases = [case(0, ([1], 2)), case(1, ([2], 3)), case(2, ([3], 4), {"k": 1}), case(3, ([4], 5), {"k": 1}),
             case(4, ({"a": 1}, 6)), case(5, ({"b": 2}, 7)), case(6, ({"c": 3}, 8)), case(7, ((1,), 9)),
             case(8, ([5],)), case(9, ([6], 1))]
    valid = [(c, {"kind": "return", "value": c.id}) for c in cases]
    groups = generate._swappable(valid, 0)
    sizes = [len(g) * (len(g) - 1) for g in groups]
    named = [generate._pair(groups, sizes, index) for index in range(sum(sizes))]
    swappable = {(a.id, b.id) for (a, _), (b, _) in itertools.permutations(valid, 2)
                 if len(a.args) == len(b.args) and a.kwargs == b.kwargs
                 and type(a.args[0]) is type(b.args[0]) and type(a.args[0]) in (list, dict)}
    assert len(swappable) == 3 * 2 + 2 * 1 + 3 * 2  # {c0, c1, c9}, {c2, c3}, {c4, c5, c6}
    assert sorted((first.id, second.id) for first, second, _ in named) == sorted(swappable)
    assert all(outcome["value"] == second.id for _, second, outcome in named)  # the second case's own outcome
    with pytest.raises(IndexError):
        generate._pair(groups, sizes, sum(sizes))
