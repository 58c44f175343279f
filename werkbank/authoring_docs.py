"""The parts of AUTHORING.md that are made from the code, so they cannot go stale: the input-domain specs with
their options and defaults, and every family of generated cases with the name a ``skip`` uses.

``python -m werkbank.authoring_docs`` rewrites the marked blocks of AUTHORING.md (``<!-- generated: NAME -->`` up to
``<!-- end: NAME -->``); ``tests/test_authoring_docs.py`` fails while they differ from what this module makes, and
proves that the families table names exactly the families :func:`graders.engine.generate.generate` makes.
"""

from __future__ import annotations

import dataclasses
import inspect
import re
import sys
from pathlib import Path

from graders.engine import domain as dom
from graders.engine.generate import FAMILIES, Base, family_entry, generate, group_of

AUTHORING = Path(__file__).resolve().parent.parent / "AUTHORING.md"

#: The specs and the domain, in the order the reference lists them.
API = (dom.Text, dom.Real, dom.Integer, dom.Flag, dom.Maybe, dom.Seq, dom.Record, dom.Param, dom.Domain)


def _rst_to_markdown(text: str) -> str:
    """A docstring paragraph as one line of markdown (``code`` -> `code`, :class:`X` -> `X`)."""
    text = re.sub(r":\w+:`~?([^`]+)`", r"`\1`", text)
    return " ".join(text.replace("``", "`").split())


def _cell(text: str) -> str:
    """``text`` safe inside a markdown table cell."""
    return text.replace("|", "\\|")


def _signature(cls) -> str:
    parts = []
    for f in dataclasses.fields(cls):
        if f.default is not dataclasses.MISSING:
            parts.append(f"{f.name}={f.default!r}")
        elif f.default_factory is not dataclasses.MISSING:  # type: ignore[misc]
            parts.append(f"{f.name}={f.default_factory()!r}")
        else:
            parts.append(f.name)
    return f"{cls.__name__}({', '.join(parts)})"


def api_table() -> str:
    """Every spec, ``Param`` and ``Domain``: its signature with defaults, and what it and its options mean (the
    class's docstring)."""
    rows = ["| spec | what it is, and its options |", "|---|---|"]
    for cls in API:
        doc = inspect.getdoc(cls) or ""
        rows.append(f"| `{_signature(cls)}` | {_cell(_rst_to_markdown(doc))} |")
    return "\n".join(rows)


# --- which families come from where ---------------------------------------------------------------------------------

#: One spec of each kind with every option on, and a value of it, to read the families each spec tries.
SAMPLE_SPECS = (
    ("Text", dom.Text(max_len=6), ("Ab c", "\u00e9\ufb01", "e\u0301")),
    ("Real", dom.Real(lo=0.0, hi=1.0, edges=(0.5,), bools=True, strings=True), (0.5, 1.0)),
    ("Integer", dom.Integer(lo=1, hi=300, bools=True, floats=True), (3,)),
    ("Integer", dom.Integer(lo=0), (3,)),
    ("Flag", dom.Flag(numbers=True), (True,)),
    ("Seq", dom.Seq(dom.Integer(lo=0, hi=300), min_len=1, max_len=4), ([1, 0, 1],)),
    ("Seq", dom.Seq(dom.Integer(lo=0)), ([1, 2],)),
    (
        "Record",
        dom.Record({"name": dom.Text(), "value": dom.Real()}, key=("name", "value")),
        ({"name": "a", "value": 1.0},),
    ),
)


def sample_domain():
    """A domain that uses every domain-level option (aligned sequences, records with keys, defaults, container
    mixes), its valid bases, a reference that refuses only ``xs`` outside [0, 1] (so invalid items exist to move to
    the end of a large input), and the defaults of its signature."""
    record = dom.Record({"entity": dom.Text(20), "attribute": dom.Text(20)}, key=("entity", "attribute"))
    params = (
        dom.Param("xs", dom.Seq(dom.Real(lo=0.0, hi=1.0), max_len=3, containers=("list", "ndarray"))),
        dom.Param("ys", dom.Seq(dom.Integer(lo=0, hi=1), max_len=3, containers=("list", "ndarray"))),
        dom.Param("claims", dom.Seq(record)),
        dom.Param("facts", dom.Seq(record)),
        dom.Param("k", dom.Integer(lo=1), has_default=True),
        dom.Param("label", dom.Text(), has_default=True),
    )
    domain = dom.Domain("f", params, aligned=(("xs", "ys"),), records=(("claims", "facts"),))
    rows = [{"entity": "a", "attribute": "b"}]
    bases = [
        Base("one", ([0.25, 0.5], [0, 1], rows, rows, 2)),
        Base("two", ([0.75], [1], rows, [], 1, "x")),
        Base("three", ([0.5, 0.5, 0.25], [1, 1, 0], [], rows)),
        Base("four", ([0.5], [0], rows, rows, 3)),
        Base("five", ([0.25], [1], rows, rows), {"k": 4}),  # k by name: called by position too
    ]

    def reference(case):
        xs = case.args[0] if case.args else []
        try:
            refused = any(not 0.0 <= float(x) <= 1.0 for x in (xs.tolist() if hasattr(xs, "tolist") else xs))
        except (TypeError, ValueError, OverflowError):
            refused = True
        if refused:
            return {"kind": "raise", "exc": "ValueError", "message": "xs"}
        return {"kind": "return", "value": ["int", str(len(case.id))]}

    return domain, bases, reference, {"k": 1, "label": "y"}


def observed_families() -> dict[str, set[str]]:
    """Each family entry of FAMILIES that the code makes, with where it comes from: the spec whose variants make it,
    or ``Domain`` for the families of the domain's own."""
    found: dict[str, set[str]] = {}
    for name, spec, values in SAMPLE_SPECS:
        for value in values:
            for variant in spec.variants(value):
                found.setdefault(family_entry(variant.family) or variant.family, set()).add(name)
    domain, bases, reference, defaults = sample_domain()
    for case, _ in generate(domain, bases, reference, defaults=defaults):
        entry = family_entry(case.family) or case.family
        if entry not in found:
            found[entry] = {"Domain"}
    return found


def families_table() -> str:
    """Every family: the name a ``skip`` uses, its group (the explanation a learner reads), what makes it, and what
    it tries."""
    found = observed_families()
    rows = ["| family (`skip` name) | group | made by | what is tried |", "|---|---|---|---|"]
    for name, what in FAMILIES.items():
        made = ", ".join(sorted(found.get(name, {"?"}), key=lambda s: (s == "Domain", s)))
        rows.append(f"| `{name}` | {group_of(name.replace('<dtype>', 'float32'))} | {made} | {_cell(what)} |")
    return "\n".join(rows)


BLOCKS = {"domain-api": api_table, "families": families_table}


def rendered(text: str) -> str:
    """``text`` (AUTHORING.md) with every generated block made anew."""
    for name, make in BLOCKS.items():
        start, end = f"<!-- generated: {name} -->", f"<!-- end: {name} -->"
        if start not in text or end not in text:
            raise ValueError(f"AUTHORING.md has no block {start} ... {end}")
        head, rest = text.split(start, 1)
        _, tail = rest.split(end, 1)
        text = f"{head}{start}\n{make()}\n{end}{tail}"
    return text


def main() -> int:
    text = AUTHORING.read_text(encoding="utf-8")
    new = rendered(text)
    if new != text:
        AUTHORING.write_text(new, encoding="utf-8")
        print(f"updated {AUTHORING.name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
