"""Generated adversarial cases: the variants a checkpoint's input domain derives from its valid inputs.

:func:`generate` takes a :class:`graders.engine.domain.Domain`, the valid inputs the reference solution accepted
(curated cases and random valid ones: the *bases*), and a function that runs the reference. It returns
:class:`Generated` cases in four kinds:

1. **site variants**: one place of one base replaced (a text by whitespace, a list by a set, a number by NaN or by
   its neighbour on a boundary, a record with a key missing, ...);
2. **deeper variants**: where a site variant was itself valid (the list as a tuple, a numpy array of another dtype,
   the texts with accents), the places inside it are varied again, so "validation skipped for numpy arrays" and
   "a float32 array gives a float32 result" are found too;
3. **domain variants**: aligned sequences of unequal length or of length 1 (broadcasting), records whose key fields
   collide when glued together;
4. **calling styles**: every argument passed by its documented name, trailing ones by name, each default left out
   and each default passed explicitly; and every combination of the containers the task allows across the
   arguments (both lists, both arrays, mixed), with values that break a rule placed inside each combination;
5. **sizes**: large valid inputs (:func:`_scale_variants`): sequences grown to their limit, or to thousands of items
   where the task states none, with sizes such as ``bins`` or ``k`` far above typical values;
6. **repeats**: the same calls again after all the others, so results that are shared, cached or that accumulate
   state between calls show (the runner also re-reads every earlier result after the last call).

Ids are stable: ``gen/<family>/<site>/<base>[/<n>]``. The same domain, bases and seed always give the same cases
in the same order; a Check in the browser, ``werkbank grade`` and ``werkbank check`` all run every one of them.
"""

from __future__ import annotations

import copy
import functools
import itertools
import random
import warnings
from dataclasses import dataclass, field

import numpy as np

from .domain import (
    NUMERIC_DTYPES,
    Domain,
    Flag,
    Integer,
    Maybe,
    Real,
    Record,
    Seq,
    Text,
    Variant,
    array_of,
    holds_numpy,
)

#: Families grouped for explanations (catalog key ``gen_<group>``) and for the verdict's summary.
GROUPS = {
    "type": ("type-",),
    "blank": ("empty", "blank", "invisible"),
    "exact": ("padded", "case", "substring", "superstring", "nfd", "nfc", "nfkc", "nul-end"),
    "separator": ("separator",),
    "text-kind": ("nonascii", "numeric", "nonelike"),
    "length": ("len-",),
    "special-number": ("nan", "inf", "neg-zero", "tiny-neg", "huge", "complex"),
    "number-type": (
        "bool",
        "npbool",
        "npfloat",
        "float32",
        "int-form",
        "npint",
        "float-int",
        "float-frac",
        "numeric-str",
    ),
    "sum-width": ("large-sum", "ndarray-sum-wraps"),
    "magnitude": ("zero", "neg", "large"),
    "falsy": ("all-zero",),
    "edge": ("edge-",),
    "label": ("label-",),
    "container": ("container",),
    "array": ("ndarray",),
    "size": ("size-",),
    "duplicate": ("dup-",),
    "record": ("record-",),
    "align": ("align-",),
    "collision": ("collision",),
    "transform": ("accented",),
    "keyword": ("keyword", "default", "positional"),
    "combo": ("combo",),
    "scale": ("scale",),
    "late": ("late",),
    "context": ("context",),
    "repeat": ("repeat",),
    "refill": ("refill",),
}
#: Every family, by the name a ``skip`` names it: what it tries. ``<dtype>`` stands for each numpy dtype that holds
#: the items. AUTHORING.md's table of families is made from this and the specs' own variants
#: (``python -m werkbank.authoring_docs``); a test keeps both in step with what :func:`generate` makes.
FAMILIES = {
    # a value of another type
    "type-none": "None instead of the value",
    "type-int": "an int instead of a text",
    "type-float": "a float instead of a text",
    "type-nan": "NaN instead of a text",
    "type-bool": "True instead of a text",
    "type-bytes": "the text as bytes",
    "type-list": "the value inside a list",
    "type-str": "a text instead of a number",
    # texts
    "empty": "the empty text",
    "blank": "every Unicode whitespace character (str.isspace), and a mix of them",
    "invisible": "characters that look empty but are not whitespace (zero-width space, BOM, word joiner)",
    "padded": "the text with spaces, a no-break space or a newline around it",
    "case": "the text in upper, swapped and title case",
    "substring": "the first half of the text",
    "superstring": "the text with its last character doubled",
    "nfd": "the text decomposed (NFD)",
    "nfc": "the text composed (NFC)",
    "nfkc": "the text in compatibility form (NFKC)",
    "nul-end": "the text with a NUL character (U+0000) after it, which numpy's fixed-width text arrays drop",
    "separator": "the text with a separator and more after it ('x|x', 'x:x', ...)",
    "nonascii": "accented, emoji, Arabic and combining-accent texts",
    "numeric": "texts that read as numbers ('10')",
    "nonelike": "texts that read as nothing ('None', 'null', 'nan', 'N/A')",
    "len-max": "a text exactly max_len code points long (ASCII, accented, emoji, combining)",
    "len-over": "a text one code point past max_len",
    "len-max-padded": "max_len code points, a space among them",
    "len-over-padded": "one past max_len once a space or no-break space is counted",
    # numbers
    "nan": "float('nan')",
    "inf": "float('inf') and float('-inf')",
    "neg-zero": "-0.0",
    "tiny-neg": "negatives just below 0 (-5e-324, -1e-300)",
    "huge": "a huge value (1e308 for a real, 10**20 for an int)",
    "huge-int": "10**400, an int too large to become a float",
    "complex": "a complex number",
    "bool": "True and False (only with bools=True)",
    "npbool": "numpy.True_ and numpy.False_",
    "numeric-str": "the number as a text, '0.5' (only with strings=True)",
    "npfloat": "the number as numpy.float64",
    "float32": "the number as numpy.float32 (where it is exact)",
    "int-form": "an integral float as an int (2.0 -> 2)",
    "npint": "the number as a numpy integer (int64 for a real; int32, int8, uint8 for an int)",
    "zero": "0",
    "neg": "-1",
    "large": "40000 and 70000 (past int16 and uint16), up to hi; past int32 is 'huge'",
    "large-sum": "a list of Python ints 2**62 each, whose sum passes int64 (an Integer with no hi and lo >= 0)",
    "all-zero": "every number and truth value of the sequences 0 (False), in all of them at once and in each alone",
    "float-int": "an int as a float, 3.0 (only with floats=True)",
    "float-frac": "2.5 (only with floats=True)",
    "edge-on": "each of lo, hi and edges",
    "edge-below": "the value just below each (math.nextafter, or minus 1)",
    "edge-above": "the value just above each",
    # labels
    "label-half": "0.5 as a label",
    "label-two": "2 as a label",
    "label-neg": "-1 as a label",
    "label-nan": "NaN as a label",
    "label-near": "1e-9 and 1 - 1e-9 as labels (a tolerant comparison takes them for 0 and 1)",
    "label-int": "1 and 0 as labels",
    "label-float": "1.0 as a label",
    # containers and arrays
    "container-tuple": "the sequence as a tuple",
    "container-none": "None instead of the sequence",
    "container-str": "a text instead of the sequence",
    "container-dict": "a dict {0: item, ...}",
    "container-nested": "the sequence inside a list",
    "container-set": "the sequence as a set",
    "container-frozenset": "the sequence as a frozenset",
    "container-item": "its first item instead of the sequence",
    "container-iter": "a generator over the items ((x for x in [...])), which only one pass can read",
    "ndarray": "the sequence as a numpy array",
    "ndarray-<dtype>": "a numpy array of another dtype that holds the "
    "items exactly (float64, float32, int64, int8, uint8; bool for truth values, and for numbers only with bools=True; "
    "float dtypes for integers only with floats=True)",
    "ndarray-object": "a numpy array of dtype object",
    "ndarray-complex": "a complex128 array",
    "ndarray-0d": "a 0-d array of the first item",
    "ndarray-2d": "arrays of shape (1, n) and (n, 1)",
    "ndarray-sum-wraps": "uint8 and int8 arrays whose sum does not fit their dtype (a list of Integer with hi >= 200)",
    "size-empty": "an empty sequence",
    "size-one": "one item",
    "size-under": "one item fewer than min_len",
    "size-max": "exactly max_len items",
    "size-over": "max_len + 1 items",
    "size-max-uint8": "max_len ones as a uint8 array (0/1 items only)",
    "dup-item": "the sequence with its first item again at its end",
    # records
    "record-type": "the record as a list of values, a tuple of pairs, or None",
    "record-reordered": "the keys in reverse order",
    "record-missing": "each key left out",
    "record-renamed": "each key misspelt, the number of keys kept ('value' as 'valu')",
    "record-extra": "an extra key: 'extra', 1 and None",
    # the domain's own
    "align-short": "an aligned sequence one item shorter",
    "align-long": "an aligned sequence one item longer",
    "align-broadcast": "an aligned sequence of one item (numpy would broadcast it)",
    "align-column": "an aligned sequence as an (n, 1) column",
    "align-scalar": "a bare item instead of an aligned sequence",
    "align-2d-empty": "every aligned array empty and 2-D, shape (0, 2)",
    "align-2d-column": "every aligned array as an (n, 1) column at once",
    "align-0d": "every aligned array as a 0-d array of its first item at once",
    "align-max": "the aligned sequences grown together to max_len",
    "align-over": "the aligned sequences grown together one past max_len",
    "collision": "records whose key fields glue into the same text ('ab|x' + 'cd' against 'ab' + 'x|cd')",
    "accented": "every text of a case with an accent added, equal texts kept equal",
    "keyword-all": "every argument passed by name, in reverse order",
    "keyword": "the trailing arguments passed by name",
    "default": "an argument with a default left out",
    "default-explicit": "a left-out default passed explicitly, with the reference's default value",
    "combo": "the sequences in every mix of the containers their Seq allows; then values of the edge, special-number,"
    " label, type and number-type groups at their first item (ids gen/combo-<family>/...)",
    "scale": "large valid inputs: sequences grown to max_len or 2000 items, Integer sizes far above the usual; where "
    "arguments share texts, also the input's own items last, after 2000 that match nothing; once with its sequences of "
    "whole numbers 0-255 as uint8 arrays",
    "late": "an invalid item (one per group of the variants above and kind of item) last in its sequence, grown to "
    "max_len or 2000 items with valid copies first",
    "positional": "a base's arguments passed by name passed by position instead (three bases)",
    "context": "in every valid base, at each kind of site's last place, one of the values the reference refused there "
    "elsewhere (in turn), and at each top-level number one far above the usual that it accepted (in turn); where a "
    "negative number is refused, also minus the sum of the other numbers, so the sequence sums to 0 (gen/cancel/...)",
    "repeat": "a valid call made again after all the others",
    "refill": "an earlier call's list and dict objects passed again, refilled with this call's contents",
}


def family_entry(name: str) -> str | None:
    """The entry of :data:`FAMILIES` that describes the family ``name`` (``ndarray-float32`` -> ``ndarray-<dtype>``),
    or None when there is no such family."""
    if name in FAMILIES:
        return name
    if name.startswith("ndarray-") and name[len("ndarray-") :] in NUMERIC_DTYPES:
        return "ndarray-<dtype>"
    return None


def unknown_skips(skip) -> list[str]:
    """The entries of a domain's ``skip`` that name no family (a typo skips nothing): exact names, or prefixes
    ending in ``*`` that begin no family's name."""
    names = [n for n in FAMILIES if "<" not in n] + [f"ndarray-{d}" for d in NUMERIC_DTYPES]
    out = []
    for entry in skip:
        if entry.endswith("*"):
            if not any(n.startswith(entry[:-1]) for n in names):
                out.append(entry)
        elif family_entry(entry) is None:
            out.append(entry)
    return out


#: Families whose valid results become bases for deeper variants.
CONVERSIONS = ("container", "ndarray", "record-reordered", "accented", "size-max")
#: Most variants of one family (chosen evenly over sites and bases).
FULL_PER_FAMILY = 48
#: Most deeper variants generated from one converted base.
DEEP_PER_BASE = 60


@functools.lru_cache(maxsize=None)
def group_of(family: str) -> str:
    """The explanation/sampling group of a family name."""
    for group, prefixes in GROUPS.items():
        if any(family == p or family.startswith(p) for p in prefixes):
            return group
    return "other"


@dataclass
class Base:
    """A valid input: the reference returned a value for it."""

    id: str
    args: tuple
    kwargs: dict = field(default_factory=dict)
    size: int = -1

    def __post_init__(self):
        if self.size < 0:
            self.size = size_of(self.args) + size_of(self.kwargs)


@dataclass
class Generated:
    """One generated case (before the reference ran on it)."""

    id: str
    call: str
    args: tuple
    kwargs: dict
    family: str
    detail: str
    site: str
    base: str
    stratum: tuple
    size: int = 0
    path: tuple | None = None
    #: The id of an earlier case whose list and dict arguments this call gets again, refilled with its own contents.
    refill: str | None = None

    @property
    def group(self) -> str:
        return group_of(self.family)


# --------------------------------------------------------------------------------------------------- sites


def _sites(domain: Domain, args: tuple, kwargs: dict):
    """Every site of a base: ``(path, display, stratum field, spec, value)``; a path is a tuple of steps."""
    stack = []
    for index, param in enumerate(domain.params):
        if index < len(args):
            stack.append(((("arg", index),), param.name, param.name, param.spec, args[index]))
        elif param.name in kwargs:
            stack.append(((("kw", param.name),), param.name, param.name, param.spec, kwargs[param.name]))
    while stack:
        path, shown, where, spec, value = stack.pop(0)
        yield path, shown, where, spec, value
        for step, child_spec, child in spec.children(value):
            child_shown = f"{shown}[{step!r}]"
            child_where = f"{where}.{step}" if isinstance(step, str) else f"{where}[]"
            stack.append((path + (("item", step),), child_shown, child_where, child_spec, child))


def _get(args: tuple, kwargs: dict, path):
    kind, key = path[0]
    value = args[key] if kind == "arg" else kwargs[key]
    for _, step in path[1:]:
        value = value[step]
    return value


def _replace(args: tuple, kwargs: dict, path, new):
    """``(args, kwargs)`` with the value at ``path`` replaced by ``new``; containers on the path are copied.
    ``None`` when the container cannot hold the new value (e.g. None inside a float array)."""
    args, kwargs = list(args), dict(kwargs)
    kind, key = path[0]
    holder = args if kind == "arg" else kwargs
    if len(path) == 1:
        holder[key] = new
        return tuple(args), kwargs
    holder[key] = _set_in(holder[key], path[1:], new)
    if holder[key] is _CANNOT:
        return None
    return tuple(args), kwargs


_CANNOT = object()


def _set_in(container, steps, new):
    (_, step), rest = steps[0], steps[1:]
    child = container[step]
    value = _set_in(child, rest, new) if rest else new
    if value is _CANNOT:
        return _CANNOT
    if isinstance(container, np.ndarray):
        items = container.tolist()
        items[step] = value
        try:
            with np.errstate(all="ignore"), warnings.catch_warnings():
                warnings.simplefilter("ignore")
                out = np.array(items, dtype=container.dtype)
        except (TypeError, ValueError, OverflowError):
            return _CANNOT
        if out.dtype.kind != "O" and not _round_trips(out[step], value):
            return _CANNOT
        return out
    if isinstance(container, tuple):
        items = list(container)
        items[step] = value
        return tuple(items)
    if isinstance(container, list):
        items = list(container)
        items[step] = value
        return items
    if isinstance(container, dict):
        out = dict(container)
        out[step] = value
        return out
    return _CANNOT


def _round_trips(stored, value) -> bool:
    """Did a numpy array keep ``value`` as it is (not as 1.0 for True, or a wrapped integer)?"""
    if isinstance(value, (bool, np.bool_)) and not isinstance(stored, np.bool_):
        return False
    try:
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return bool(stored == value) or (value != value and stored != stored)
    except Exception:
        return False


def size_of(value) -> int:
    """A size for ordering cases: the number of values, containers included. A string counts as one value, so
    the same data in two languages has the same size (and yields the same generated cases)."""
    if isinstance(value, str):
        return 1
    if isinstance(value, dict):
        return 1 + sum(size_of(k) + size_of(v) for k, v in value.items())
    if isinstance(value, (list, tuple, set, frozenset)):
        return 1 + sum(size_of(v) for v in value)
    if isinstance(value, np.ndarray):
        return 1 + int(value.size)
    return 1


# --------------------------------------------------------------------------------------------------- families


@dataclass
class _Candidate:
    """A variant not yet built: where it goes, and enough to rank and stratify it."""

    base: Base
    path: tuple
    shown: str
    where: str
    variant: Variant
    number: int

    @property
    def stratum(self) -> tuple:
        return (group_of(self.variant.family), self.variant.family, self.where, _detail_class(self.variant))

    @property
    def size(self) -> int:
        return self.base.size + (size_of(self.variant.value) if self.variant.value is not None else 0)


def _site_candidates(domain: Domain, bases: list[Base], per_where: int, only_under=None):
    """Candidates for the sites of ``bases``: for every kind of site (``claims[].value``), the sites of the
    ``per_where`` smallest bases only; ``only_under`` keeps the sites strictly inside one path."""
    by_where: dict = {}
    for base in sorted(bases, key=lambda b: b.size):
        for path, shown, where, spec, value in _sites(domain, base.args, base.kwargs):
            if only_under is not None and (path[: len(only_under)] != only_under or path == only_under):
                continue
            by_where.setdefault(where, []).append((base, path, shown, spec, value))
    for where, sites in by_where.items():
        for base, path, shown, spec, value in sites[:per_where]:
            for number, variant in enumerate(spec.variants(value)):
                if not domain.skips(variant.family) and (domain.numpy or not holds_numpy(variant.value)):
                    yield _Candidate(base, path, shown, where, variant, number)


def _build(domain: Domain, candidate: "_Candidate") -> "Generated | None":
    replaced = _replace(candidate.base.args, candidate.base.kwargs, candidate.path, candidate.variant.value)
    if replaced is None:
        return None
    return _make(
        domain,
        candidate.base,
        candidate.variant,
        candidate.shown,
        candidate.where,
        replaced,
        candidate.number,
        candidate.path,
    )


def _make(domain, base, variant: Variant, shown, where, replaced, number, path=None) -> Generated:
    args, kwargs = replaced
    return Generated(
        id=f"gen/{variant.family}/{shown}/{base.id}/{number}",
        call=domain.call,
        args=args,
        kwargs=kwargs,
        family=variant.family,
        detail=variant.detail,
        site=shown,
        base=base.id,
        stratum=(group_of(variant.family), variant.family, where, _detail_class(variant)),
        size=base.size + (size_of(variant.value) if variant.value is not None else 0),
        path=path,
    )


def _detail_class(variant: Variant) -> str:
    """Finer strata where one family holds kinds a wrong solution may tell apart (ASCII vs other whitespace,
    characters vs bytes, a string as given vs stripped, one separator of glued keys vs another)."""
    if variant.family == "blank" and isinstance(variant.value, str):
        return "ascii" if variant.value.isascii() else "unicode"
    if variant.family in ("len-max", "len-over"):
        return "ascii" if isinstance(variant.value, str) and variant.value.isascii() else "multibyte"
    if variant.family.startswith("ndarray") or variant.family.startswith("container") or variant.family == "collision":
        return variant.detail
    return ""


def _aligned_variants(domain: Domain, base: Base):
    names = [p.name for p in domain.params]
    yield from _aligned_sizes(domain, base, names)
    yield from _aligned_shapes(domain, base, names)
    for group in domain.aligned:
        for name in group:
            index = names.index(name)
            if index >= len(base.args):
                continue
            value = base.args[index]
            items = (
                value.tolist()
                if isinstance(value, np.ndarray)
                else list(value)
                if isinstance(value, (list, tuple))
                else None
            )
            if not items:
                continue

            def make(xs, v=value):
                return np.asarray(xs, dtype=v.dtype) if isinstance(v, np.ndarray) else type(v)(xs)

            options = [
                ("align-short", "one item fewer", make(items[:-1])),
                ("align-long", "one item more", make(items + items[-1:])),
                ("align-broadcast", "one item", make(items[:1])),
                ("align-column", "shape (n, 1)", _column(items)),
                ("align-scalar", "a bare item", items[0]),
            ]
            for number, (family, detail, new) in enumerate(options):
                if new is _CANNOT:
                    continue
                if domain.skips(family) or (family == "align-broadcast" and len(items) == 1):
                    continue
                args = list(base.args)
                args[index] = new
                yield _make(
                    domain,
                    base,
                    Variant(family, detail, new),
                    name,
                    f"{family}:{name}",
                    (tuple(args), base.kwargs),
                    number,
                )


def _zero_variants(domain: Domain, base: Base):
    """The sequences of numbers or truth values with every item 0 (False): input that holds items yet is all falsy,
    which code that tests ``any(xs)`` or a sum to find an empty sequence takes for one. All such sequences at once,
    and each alone where there are several."""
    if domain.skips("all-zero"):
        return
    spots = []
    for index, param in enumerate(domain.params):
        numbers = isinstance(param.spec, Seq) and isinstance(param.spec.item, (Real, Integer, Flag))
        zeroed = _zeroed(base.args[index]) if numbers and index < len(base.args) else None
        if zeroed is not None:
            spots.append((index, param.name, zeroed))
    groups = [spots] + ([[spot] for spot in spots] if len(spots) > 1 else [])
    for number, group in enumerate(g for g in groups if g):
        detail = "this sequence only" if len(group) < len(spots) else "every sequence at once"
        args = list(base.args)
        for index, _, zeroed in group:
            args[index] = zeroed
        shown = "/".join(name for _, name, _ in group)
        yield _make(
            domain,
            base,
            Variant("all-zero", detail, None),
            shown,
            f"all-zero:{shown}",
            (tuple(args), base.kwargs),
            number,
        )


def _zeroed(value):
    """``value`` (a list, tuple or 1-D array of numbers or truth values) with every item 0 of its own type; None when
    it holds no item, something else, or only zeros already."""
    if isinstance(value, np.ndarray):
        if value.ndim != 1 or not value.size or value.dtype.kind not in "biuf" or not value.any():
            return None
        return np.zeros_like(value)
    if type(value) not in (list, tuple) or not value:
        return None
    if not all(isinstance(x, (bool, int, float, np.bool_, np.integer, np.floating)) for x in value):
        return None
    if not any(value):
        return None
    return type(value)(type(x)(0) for x in value)


def _column(items):
    """``items`` as an n x 1 array, or _CANNOT when they are no flat sequence of scalars (a list of lists)."""
    try:
        array = array_of(items)
    except ValueError:  # ragged
        return _CANNOT
    return array.reshape(-1, 1) if array.ndim == 1 and array.dtype.kind != "O" else _CANNOT


def _aligned_shapes(domain: Domain, base: Base, names: list):
    """Aligned arrays given a wrong number of dimensions all at once, so their shapes still agree: every member
    an empty 2-D array (validation skipped when there is nothing in it), every member its (n, 1) column, every member
    a 0-d array of its first item (``np.atleast_1d`` would make it valid)."""
    for group in domain.aligned:
        members = [names.index(n) for n in group]
        if any(
            i >= len(base.args)
            or not isinstance(domain.params[i].spec, Seq)
            or "ndarray" not in domain.params[i].spec.containers
            for i in members
        ):
            continue
        arrays = []
        for i in members:
            value = base.args[i]
            try:
                arrays.append(value if isinstance(value, np.ndarray) else array_of(list(value)))
            except (TypeError, ValueError):
                arrays.append(None)
        if any(a is None or a.ndim != 1 or a.dtype.kind == "O" for a in arrays):
            continue
        shown = "/".join(group)
        shapes = [("align-2d-empty", "shape (0, 2)", [np.zeros((0, 2), dtype=a.dtype) for a in arrays])]
        if len(arrays[0]) and len({len(a) for a in arrays}) == 1:
            shapes.append(("align-2d-column", "shape (n, 1) for all", [a.reshape(-1, 1) for a in arrays]))
            shapes.append(("align-0d", "0-d for all", [a[:1].reshape(()) for a in arrays]))
        for number, (family, detail, news) in enumerate(shapes):
            if domain.skips(family):
                continue
            args = list(base.args)
            for i, new in zip(members, news):
                args[i] = new
            yield _make(
                domain,
                base,
                Variant(family, detail, None),
                shown,
                f"{family}:{shown}",
                (tuple(args), base.kwargs),
                number,
            )


def _aligned_sizes(domain: Domain, base: Base, names: list):
    """Aligned sequences grown together to their limit and one past it, each padded with its own items in turn, so
    a limit that counts only some items (the answered ones) shows."""
    for group in domain.aligned:
        members = [(names.index(n), domain.params[names.index(n)].spec) for n in group]
        if any(i >= len(base.args) or not isinstance(s, Seq) or s.max_len is None for i, s in members):
            continue
        values = [base.args[i] for i, _ in members]
        lists = [
            v.tolist() if isinstance(v, np.ndarray) else list(v) if isinstance(v, (list, tuple)) else None
            for v in values
        ]
        if any(not items or len(items) != len(lists[0]) for items in lists):
            continue
        limit = min(s.max_len for _, s in members)
        for size, family in ((limit, "align-max"), (limit + 1, "align-over")):
            for position in range(min(3, len(lists[0]))):
                args = list(base.args)
                for (index, _), value, items in zip(members, values, lists):
                    padded = items + [items[position]] * (size - len(items))
                    args[index] = (
                        np.asarray(padded, dtype=value.dtype) if isinstance(value, np.ndarray) else type(value)(padded)
                    )
                shown = "/".join(group)
                yield _make(
                    domain,
                    base,
                    Variant(family, f"len = {size}, + item {position}", None),
                    shown,
                    f"{family}:{shown}",
                    (tuple(args), base.kwargs),
                    position,
                )


def _keyword_variants(domain: Domain, base: Base):
    """The base called by the documented parameter names: every argument by name (in reverse order, so nothing can
    rely on the order), and the trailing keyword-capable ones by name (``bins=5`` instead of ``5``). A function whose
    parameters are named otherwise, or swapped, fails here although it passes every positional call."""
    if domain.skips("keyword"):
        return
    given = len(base.args)
    if given and all(p.keyword for p in domain.params[:given]):
        named = {domain.params[i].name: base.args[i] for i in reversed(range(given))}
        yield _make(
            domain,
            base,
            Variant("keyword-all", ", ".join(f"{k}=…" for k in named), None),
            "-",
            "-",
            ((), {**named, **base.kwargs}),
            0,
        )
    for index, param in enumerate(domain.params):
        if index >= given or not param.keyword or index == 0:
            continue
        if not all(p.keyword for p in domain.params[index:given]):
            continue
        moved = {p.name: base.args[i] for i, p in enumerate(domain.params) if index <= i < given}
        yield _make(
            domain,
            base,
            Variant("keyword", ", ".join(f"{k}=…" for k in moved), None),
            param.name,
            param.name,
            (base.args[:index], {**base.kwargs, **moved}),
            0,
        )
        return


#: How many bases that pass arguments by name are also called with them by position (family "positional").
POSITIONAL_BASES = 3


def _positional_variant(domain: Domain, base: Base):
    """The base with every argument it passes by name passed by position instead (``f(c, y, 5)`` for
    ``f(c, y, bins=5)``), where all the parameters before them are given: the signature's parameters take either
    way, so a function that made ``bins`` keyword-only fails here. None when there is nothing to move."""
    if domain.skips("positional") or not base.kwargs:
        return None
    names = [p.name for p in domain.params]
    named = [name for name in base.kwargs if name in names]
    if not named:
        return None
    last = max(names.index(name) for name in named)
    if any(i >= len(base.args) and names[i] not in base.kwargs for i in range(last + 1)):
        return None  # a gap (a default left out before it): no positional call says the same
    args = tuple(base.args[i] if i < len(base.args) else base.kwargs[names[i]] for i in range(last + 1))
    rest = {k: v for k, v in base.kwargs.items() if k not in names[: last + 1]}
    detail = ", ".join(names[len(base.args) : last + 1])
    return _make(domain, base, Variant("positional", f"{detail} by position", None), "-", "-", (args, rest), 0)


def _default_variants(domain: Domain, bases: list[Base], defaults: dict):
    """Calls that leave out a parameter that has a default (the last positional one, or a keyword one), and calls
    that pass a default the base leaves out explicitly, with the value of the reference's signature (``defaults``);
    the reference decides the result, so a wrong default, or a default that is not used, shows."""
    if domain.skips("default"):
        return
    for base in bases:
        for index, param in enumerate(domain.params):
            if not param.has_default:
                continue
            if param.name in base.kwargs:
                kwargs = {k: v for k, v in base.kwargs.items() if k != param.name}
                yield _make(
                    domain,
                    base,
                    Variant("default", f"without {param.name}", None),
                    param.name,
                    param.name,
                    (base.args, kwargs),
                    0,
                )
            elif index == len(base.args) - 1 and not base.kwargs:
                yield _make(
                    domain,
                    base,
                    Variant("default", f"without {param.name}", None),
                    param.name,
                    param.name,
                    (base.args[:index], {}),
                    0,
                )
            elif (
                index >= len(base.args)
                and param.name in defaults
                and param.keyword
                and not domain.skips("default-explicit")
            ):
                yield _make(
                    domain,
                    base,
                    Variant("default-explicit", f"{param.name}={defaults[param.name]!r}", None),
                    param.name,
                    param.name,
                    (base.args, {**base.kwargs, param.name: defaults[param.name]}),
                    0,
                )


# --------------------------------------------------------------------------------------------------- combinations


#: What each container name of ``Seq.containers`` turns a list of items into.
def _as_container(kind: str, items: list, like=None):
    if kind == "tuple":
        return tuple(items)
    if kind == "ndarray":
        if isinstance(like, np.ndarray) and like.dtype.kind != "O":
            try:
                return np.asarray(items, dtype=like.dtype)
            except (TypeError, ValueError, OverflowError):
                pass
        try:
            array = array_of(items)
        except ValueError:
            return None
        return array if array.ndim == 1 and array.dtype.kind != "O" else None
    return list(items)


def _combo_variants(domain: Domain, base: Base):
    """The base with its sequence arguments in every combination of the containers the task allows for them (a
    ``Seq`` with more than one of ``containers``): both lists, both arrays, a tuple and an array, ... Each is a valid
    input of its own, and a value that breaks a rule is then placed inside it (:func:`_combo_rule_breakers`), so
    checks that only run for some combinations show."""
    if domain.skips("combo"):
        return
    spots = []
    for index, param in enumerate(domain.params):
        spec = param.spec
        if index < len(base.args) and isinstance(spec, Seq) and len(spec.containers) > 1:
            items = _items_of(base.args[index])
            if items:
                spots.append((index, spec, items))
    if len(spots) < 2:
        return
    for number, kinds in enumerate(itertools.product(*(spec.containers for _, spec, _ in spots))):
        args = list(base.args)
        for (index, _, items), kind in zip(spots, kinds):
            converted = _as_container(kind, items, base.args[index])
            if converted is None:
                break
            args[index] = converted
        else:
            shown = "/".join(kinds)
            yield _make(
                domain, base, Variant("combo", shown, None), shown, f"combo:{shown}", (tuple(args), base.kwargs), number
            )


def _all_filled(domain: Domain, base: Base) -> bool:
    """Whether every sequence argument of ``base`` holds items (an empty one has nowhere to put a value)."""
    return all(_items_of(value) for param, value in zip(domain.params, base.args) if isinstance(param.spec, Seq))


def _items_of(value):
    if isinstance(value, np.ndarray):
        return value.tolist() if value.ndim == 1 else None
    return list(value) if isinstance(value, (list, tuple)) else None


#: Groups of families whose variants break a rule, placed inside every container combination.
COMBO_GROUPS = ("edge", "special-number", "label", "type", "number-type", "magnitude")
#: Most rule-breaking variants placed inside one combination.
COMBO_PER_BASE = 4


def _combo_rule_breakers(domain: Domain, combos: list, reference) -> list:
    """For every valid container combination: values that break a rule (the reference raises) at the first item of
    each sequence, at most COMBO_PER_BASE per combination, spread over families."""
    out = []
    for case, outcome in combos:
        if outcome.get("kind") != "return":
            continue
        converted = Base(f"{case.base}+combo.{case.id.rsplit('/', 1)[-1]}", case.args, case.kwargs)
        found = []
        for candidate in _site_candidates(domain, [converted], 1):
            if (
                len(candidate.path) != 2
                or candidate.path[1] != ("item", 0)
                or group_of(candidate.variant.family) not in COMBO_GROUPS
            ):
                continue
            built = _build(domain, candidate)
            if built is None:
                continue
            built.id = f"gen/combo-{candidate.variant.family}/{candidate.shown}/{converted.id}/{candidate.number}"
            built.family = "combo"
            built.detail = f"{case.detail}: {candidate.variant.detail}"
            found.append(built)
        by_family: dict = {}
        for built in found:
            by_family.setdefault(built.id.split("/")[1], []).append(built)
        picked = 0
        for members in itertools.zip_longest(*(by_family[k] for k in sorted(by_family))):
            for built in members:
                if built is None or picked >= COMBO_PER_BASE:
                    continue
                result = reference(built)
                if result.get("kind") == "raise":
                    out.append((built, result))
                    picked += 1
            if picked >= COMBO_PER_BASE:
                break
    return out


# --------------------------------------------------------------------------------------------------- sizes


#: Length of the large valid inputs (family "scale") of a sequence whose task states no limit; a sequence with a
#: limit is grown to exactly that limit.
SCALE_LEN = 2000
#: How many of the smallest valid bases each give large inputs.
SCALE_BASES = 2


def _scale_variants(domain: Domain, bases: list[Base], rng: random.Random):
    """Large valid inputs: each of a few valid bases with every sequence argument grown to its limit (or to
    SCALE_LEN items where the task states none; of a sequence of sequences, the first inner one, the others sharing
    SCALE_LEN) with copies of its own items. In each copy the
    texts are renamed consistently (``"d3"`` becomes ``"d3~2"`` in every argument, so ids stay distinct and still
    match across arguments) and the numbers are drawn anew within their spec; then the items are shuffled (aligned
    sequences by one permutation). Integer arguments (sizes and counts such as ``bins`` or ``k``) are set far above
    typical values: at their upper bound or past the grown length, and at a random value in between. Where the
    base's arguments share texts (a relevant document that is also ranked), one more input keeps the base's items
    last, after SCALE_LEN copies that match nothing in the other arguments (:func:`_late`), so the first match
    comes after place 1000. A solution that recurses per item, stops after the first thousand items or at place 10,
    or caps a size, fails here."""
    if domain.skips("scale"):
        return
    names = [p.name for p in domain.params]
    filled = [b for b in bases if _all_filled(domain, b) and any(_items_of(a) for a in b.args)]
    # Bases whose arguments name the same texts (documents both ranked and judged relevant) first, then the larger
    # ones: grown, they keep those links in every copy, where a degenerate base (nothing relevant retrieved) would
    # give the same result at every size.
    filled.sort(key=lambda b: (-_shared_texts(b.args), -b.size))
    for base in filled[:SCALE_BASES]:
        for number in range(2):
            args = list(base.args)
            longest = 0
            done: set = set()
            for group in list(domain.aligned) + [(p.name,) for p in domain.params]:
                members = [
                    i
                    for i in (names.index(n) for n in group)
                    if i < len(args) and i not in done and isinstance(domain.params[i].spec, Seq) and _items_of(args[i])
                ]
                if not members or len({len(_items_of(args[i])) for i in members}) != 1:
                    continue
                done.update(members)
                specs = [domain.params[i].spec for i in members]
                if number == 0 and all(isinstance(spec.item, Seq) for spec in specs):
                    # long inner sequences, as many of them: the first grown to the length a task without a limit
                    # allows (a ranking of SCALE_LEN documents), the others sharing SCALE_LEN items
                    for i, spec in zip(members, specs):
                        outer = _items_of(args[i])
                        share = max(1, SCALE_LEN // len(outer))
                        limit = spec.item.max_len if spec.item.max_len is not None else SCALE_LEN
                        inner = [
                            _grow(spec.item, v, min(limit, share if n else SCALE_LEN), rng) for n, v in enumerate(outer)
                        ]
                        args[i] = _as_container(_kind_of(args[i]), inner, None)
                        longest = max(longest, max((len(_items_of(v) or ()) for v in inner), default=0))
                    continue
                target = min(s.max_len if s.max_len is not None else SCALE_LEN for s in specs)
                if target <= len(_items_of(args[members[0]])):
                    continue
                order = list(range(target))
                rng.shuffle(order)
                for i, spec in zip(members, specs):
                    grown = _grow(spec, args[i], target, rng, order)
                    if grown is not None:
                        args[i] = grown
                longest = max(longest, target)
            if not longest:
                continue
            kwargs = _large_ints(domain, args, base.kwargs, longest, rng, number)
            yield _make(
                domain, base, Variant("scale", f"{longest} items", None), "-", "scale", (tuple(args), kwargs), number
            )
            narrow = _as_uint8(domain, args)
            if number == 0 and narrow is not None:
                # counts and labels as uint8 arrays: summed item by item in Python (or into a uint8), they wrap at 256
                variant = Variant("scale", f"{longest} items, whole numbers as uint8 arrays", None)
                yield _make(domain, base, variant, "-", "scale", (tuple(narrow), kwargs), 3)
        if _shared_texts(base.args):
            late = _late(domain, base, rng)
            if late is not None:
                yield late


def _as_uint8(domain: Domain, args: list) -> list | None:
    """``args`` with every sequence of whole numbers from 0 to 255 (or bools) that may be an array made a uint8
    array; None when none is."""
    out, changed = list(args), False
    for i, (param, value) in enumerate(zip(domain.params, args)):
        spec = param.spec
        items = _items_of(value) if isinstance(spec, Seq) and "ndarray" in spec.containers else None
        if not items or len(items) <= 255:
            continue
        if all(_type_is_whole(v) and 0 <= v <= 255 for v in items):
            out[i] = np.array([int(v) for v in items], dtype=np.uint8)
            changed = True
    return out if changed else None


def _type_is_whole(value) -> bool:
    return type(value) in (int, bool) or isinstance(value, (np.integer, np.bool_))


def _late(domain: Domain, base: Base, rng: random.Random):
    """``base`` with every sequence argument (each inner one, for a sequence of sequences) grown to SCALE_LEN items
    by copies put before its own items, texts renamed apart per argument (``"d3"`` becomes ``"d3~0.1"`` in the first
    argument, ``"d3~1.1"`` in the second), so nothing before the base's own items matches across arguments; Integer
    arguments at their upper bound or past the length. None when no argument grows."""
    args = list(base.args)
    longest = 0
    for index, (param, value) in enumerate(zip(domain.params, base.args)):
        spec = param.spec
        if not isinstance(spec, Seq) or not _items_of(value):
            continue
        if isinstance(spec.item, Seq) and all(_items_of(v) for v in _items_of(value)):
            inner = [_grow(spec.item, v, SCALE_LEN, rng, prefix=f"{index}.", own_last=True) for v in _items_of(value)]
            grown = _as_container(_kind_of(value), inner, None)
        else:
            grown = _grow(spec, value, SCALE_LEN, rng, prefix=f"{index}.", own_last=True)
        if grown is not None:
            args[index] = grown
            longest = SCALE_LEN
    if not longest:
        return None
    kwargs = _large_ints(domain, args, base.kwargs, longest, rng, 0)
    variant = Variant("scale", f"{longest} items, its own last", None)
    return _make(domain, base, variant, "-", "scale", (tuple(args), kwargs), 2)


def _param_index(domain: Domain, path: tuple) -> int | None:
    """The index of the parameter a site's ``path`` starts at (positional or by name); None when it names none."""
    kind, key = path[0]
    names = [p.name for p in domain.params]
    index = key if kind == "arg" else names.index(key) if key in names else None
    return index if index is not None and index < len(domain.params) else None


def _container_step(domain: Domain, base: Base, path: tuple):
    """``(path of the sequence, its spec, the item's index in it)`` for the innermost sequence ``path`` goes into in
    ``base`` (``facts`` for ``facts[0]['value']``, ``rankings[1]`` for ``rankings[1][0]``); None when it goes
    into none."""
    index = _param_index(domain, path)
    if index is None:
        return None
    spec, found = domain.params[index].spec, None
    try:
        value = _get(base.args, base.kwargs, path[:1])
    except (IndexError, KeyError, TypeError):
        return None
    for depth, (_, step) in enumerate(path[1:], start=1):
        child = next(((cs, cv) for st, cs, cv in spec.children(value) if st == step), None)
        if isinstance(spec, Seq) and type(step) is int:
            found = (path[:depth], spec, step)
        if child is None:
            return found if depth == len(path) - 1 else None
        spec, value = child
    return found


def _late_invalid(domain: Domain, out: list, bases: list[Base], reference, rng: random.Random):
    """Invalid items at the end of large inputs (family "late"): for each generated invalid input (the reference
    raised) made by changing one item of a sequence, one per kind of item and group of variant, the same change on
    the last copy of that item in the sequence grown to its limit (``max_len``, or SCALE_LEN items where the task
    states none; aligned sequences grow together), with refreshed valid copies of the base's items first. Kept only
    where the grown input without the change is valid. A solution that checks only the first rows, items or places
    returns a value here."""
    if domain.skips("late"):
        return []
    names = [p.name for p in domain.params]
    by_id = {b.id: b for b in bases}
    seen, made = set(), []
    for case, outcome in out:
        base = by_id.get(case.base)
        if outcome.get("kind") != "raise" or case.path is None or len(case.path) < 2 or base is None:
            continue
        if case.family == "late" or case.stratum[:1] in (("align",), ("size",)):
            continue
        found = _container_step(domain, base, case.path)
        if found is None:
            continue
        where, spec, old = found
        marker = (case.stratum[0], case.stratum[2], len(where))
        if marker in seen:
            continue
        items = _items_of(_get(base.args, base.kwargs, where))
        members = [(where, spec)]
        if len(where) == 1 and where[0][0] == "arg":
            group = next((g for g in domain.aligned if names[where[0][1]] in g), ())
            members += [
                ((("arg", names.index(n)),), domain.params[names.index(n)].spec)
                for n in group
                if names.index(n) != where[0][1] and names.index(n) < len(base.args)
            ]
        target = min(s.max_len if isinstance(s, Seq) and s.max_len is not None else SCALE_LEN for _, s in members)
        if not items or target <= len(items):
            continue
        grown = (base.args, base.kwargs)
        for member, member_spec in members:
            longer = _grow(member_spec, _get(*grown, member), target, rng, prefix="late.", own_last=True)
            grown = _replace(*grown, member, longer) if longer is not None else None
            if grown is None:
                break
        if grown is None or len(_items_of(_get(*grown, where)) or ()) != target:
            continue
        valid = Generated("gen/late/-/check", domain.call, grown[0], grown[1], "late", "", "-", base.id, ("late",))
        if reference(valid).get("kind") != "return":
            continue
        moved = where + (("item", target - len(items) + old),) + case.path[len(where) + 1 :]
        changed = _replace(*grown, moved, _get(case.args, case.kwargs, case.path))
        if changed is None:
            continue
        shown = names[where[0][1]] if where[0][0] == "arg" else where[0][1]
        shown += "".join(f"[{step!r}]" for _, step in moved[1:])
        variant = Variant("late", f"{case.detail}, item {target - len(items) + old + 1} of {target}", None)
        late = _make(domain, base, variant, shown, case.stratum[2], changed, len(made), moved)
        late.size = size_of(changed[0]) + size_of(changed[1])
        seen.add(marker)
        made.append(late)
    return [(case, reference(case)) for case in made]


#: Most "context" cases per domain (:func:`_in_every_context`), spread over its sites and bases.
CONTEXT_MAX = 160


def _in_every_context(domain: Domain, out: list, bases: list[Base]) -> list[Generated]:
    """Invalid values in every valid context (family "context"): every valid base, not only the few smallest the
    other families use, gets at each kind of site (``predictions[]``, ``facts[].value``, ``k``) one of the changes
    the reference refused there elsewhere (in turn), at the site's last place in that base (after whatever the base
    holds: an abstention, an empty ranking, a label of 0); and each top-level number gets, in every base, one of
    the values the reference accepted elsewhere that are far above the usual ("large", "huge"; in turn). A solution
    that checks its input only on its usual path, and returns early for an empty ranking, an all-abstained list, a
    single prediction, or a k past every relevant document, fails here. At most CONTEXT_MAX. Where the reference
    refuses a negative number at a site, each base also gets there minus the sum of the sequence's other numbers
    (ids ``gen/cancel/...``, at most CANCEL_MAX; :func:`_cancelling`)."""
    if domain.skips("context"):
        return []
    refused: dict = {}  # where -> [(family, detail, value)] the reference raised for
    large: dict = {}  # where of a top-level number -> [(family, detail, value)] it accepted
    for case, outcome in out:
        if case.path is None or case.family in ("late", "context") or case.stratum[0] in ("align", "size", "combo"):
            continue
        index = _param_index(domain, case.path)
        if len(case.path) == 1 and (index is None or isinstance(domain.params[index].spec, Seq)):
            continue  # a whole sequence replaced (another container, a 2-D array): the container families' part
        value = _get(case.args, case.kwargs, case.path)
        if outcome.get("kind") == "raise":
            pool = refused.setdefault(case.stratum[2], [])
            if all(family != case.family for family, _, _ in pool):
                pool.append((case.family, case.detail, value))
        elif len(case.path) == 1 and case.family in ("large", "huge", "huge-int"):
            pool = large.setdefault(case.stratum[2], [])
            if all(detail != case.detail for _, detail, _ in pool):
                pool.append((case.family, case.detail, value))
    made: list[Generated] = []
    cancel: list[Generated] = []
    for number, base in enumerate(sorted(bases, key=lambda b: b.id)):
        last: dict = {}  # where -> (path, shown): its last place in this base
        for path, shown, where, _, _ in _sites(domain, base.args, base.kwargs):
            if where in refused or where in large:
                last[where] = (path, shown)
        for where, (path, shown) in sorted(last.items()):
            changes = [pool[number % len(pool)] for pool in (refused.get(where), large.get(where)) if pool]
            for family, detail, value in changes:
                replaced = _replace(base.args, base.kwargs, path, copy.deepcopy(value))
                if replaced is None:
                    continue
                variant = Variant("context", f"{family}: {detail}", None)
                case = _make(domain, base, variant, shown, where, replaced, len(made), path)
                case.stratum = ("context", "context", where, family)
                made.append(case)
            if any(_negative(value) for _, _, value in refused.get(where, ())):
                cancelling = _cancelling(base, path)
                if cancelling is not None:
                    variant = Variant("context", "cancel: the negated sum of the items before it", None)
                    case = _make(domain, base, variant, shown, where, cancelling, len(cancel), path)
                    case.id = case.id.replace("gen/context/", "gen/cancel/", 1)
                    case.stratum = ("context", "context", where, "cancel")
                    cancel.append(case)
    if len(made) > CONTEXT_MAX:
        step = len(made) / CONTEXT_MAX
        made = [made[int(i * step)] for i in range(CONTEXT_MAX)]
    if len(cancel) > CANCEL_MAX:
        step = len(cancel) / CANCEL_MAX
        cancel = [cancel[int(i * step)] for i in range(CANCEL_MAX)]
    return made + cancel


#: Most "cancel" cases per domain (:func:`_cancelling`), beside CONTEXT_MAX.
CANCEL_MAX = 24


def _real(value) -> bool:
    """An int or float, Python's or numpy's, that is not a bool."""
    return isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(value, (bool, np.bool_))


def _negative(value) -> bool:
    return _real(value) and value < 0


def _cancelling(base: Base, path):
    """``(args, kwargs)`` of ``base`` with the number at ``path`` (an item of a sequence of numbers) set to minus
    the sum of the sequence's other items, so that the sequence sums to 0 while holding a value the reference
    refuses there: a solution that returns its answer for a zero total (no tokens, no weight) before it checks the
    items returns where the task says it raises. None where the others are not all numbers or sum to 0."""
    if len(path) < 2:
        return None
    sequence = _get(base.args, base.kwargs, path[:-1])
    place = path[-1][1]
    others = [item for i, item in enumerate(list(sequence)) if i != place]
    if not others or not all(_real(item) for item in others):
        return None
    total = sum(others)
    if not total > 0:
        return None
    value = -int(total) if all(isinstance(item, (int, np.integer)) for item in others) else -float(total)
    return _replace(base.args, base.kwargs, path, value)


def _large_ints(domain: Domain, args: list, kwargs: dict, longest: int, rng: random.Random, number: int) -> dict:
    """Every Integer argument of a large input (``args`` in place; a new kwargs dict returned) set by
    :func:`_large_int`."""
    kwargs = dict(kwargs)
    for i, param in enumerate(domain.params):
        if not isinstance(param.spec, Integer):
            continue
        if i < len(args) and type(args[i]) is int:
            args[i] = _large_int(param.spec, longest, rng, number)
        elif type(kwargs.get(param.name)) is int:
            kwargs[param.name] = _large_int(param.spec, longest, rng, number)
    return kwargs


def _grow(
    spec: Seq,
    value,
    target: int,
    rng: random.Random,
    order: list | None = None,
    prefix: str = "",
    own_last: bool = False,
):
    """The sequence ``value`` grown to ``target`` items with refreshed copies of its own (:func:`_refresh`, copy
    number ``n`` renamed with ``prefix + n``), shuffled by ``order`` (or a permutation of its own), or with
    ``own_last`` the copies first and its own items after them; in its own container; ``value`` itself when it has
    no items or is long enough already; None when its container cannot hold the new items."""
    items = _items_of(value)
    if not items or len(items) >= target:
        return value
    size = len(items)
    grown = [
        items[n] if n < size else _refresh(spec.item, items[n % size], f"{prefix}{n // size}", rng)
        for n in range(target)
    ]
    if own_last:
        order = list(range(size, target)) + list(range(size))
    elif order is None:
        order = list(range(target))
        rng.shuffle(order)
    return _as_container(_kind_of(value), [grown[n] for n in order], value)


def _shared_texts(args: tuple) -> int:
    """How many distinct texts appear in more than one argument."""
    seen: dict = {}
    for index, value in enumerate(args):
        for text in set(_texts(value)):
            seen.setdefault(text, set()).add(index)
    return sum(1 for where in seen.values() if len(where) > 1)


def _kind_of(value) -> str:
    return "ndarray" if isinstance(value, np.ndarray) else "tuple" if isinstance(value, tuple) else "list"


def _large_int(spec: "Integer", length: int, rng: random.Random, number: int) -> int:
    """A size far above typical values: the upper bound (or twice ``length``), or a random value between a dozen
    and that."""
    lo = spec.lo if spec.lo is not None else 0
    top = spec.hi if spec.hi is not None else 2 * length
    if number == 0:
        return top
    return rng.randint(max(lo, min(12, top)), max(lo, top))


def _refresh(spec, item, copy: int, rng: random.Random):
    """Another valid item like ``item`` for copy number ``copy`` of a grown sequence: texts renamed for the copy,
    numbers drawn anew within the spec, the same types and the same shape (None stays None)."""
    if item is None:
        return None
    if isinstance(spec, Maybe):
        return _refresh(spec.spec, item, copy, rng)
    if isinstance(spec, Text) and isinstance(item, str):
        suffix = f"~{copy}"
        if spec.max_len is not None and len(item) + len(suffix) > spec.max_len:
            item = item[: max(1, spec.max_len - len(suffix))]
        return item + suffix
    if isinstance(spec, Real) and type(item) is float:
        lo = spec.lo if spec.lo is not None else 0.0
        hi = spec.hi if spec.hi is not None else max(1.0, 2 * abs(item))
        return rng.choice([lo, hi, rng.uniform(lo, hi), round(rng.uniform(lo, hi), 2)])
    if isinstance(spec, Integer) and type(item) is int:
        lo = spec.lo if spec.lo is not None else 0
        return rng.randint(lo, spec.hi if spec.hi is not None else lo + 60)
    if isinstance(spec, Flag) and type(item) is bool:
        return rng.random() < 0.5
    if isinstance(spec, Record) and isinstance(item, dict):
        return {k: _refresh(spec.fields[k], v, copy, rng) if k in spec.fields else v for k, v in item.items()}
    if isinstance(spec, Seq) and isinstance(item, (list, tuple)):
        return type(item)(_refresh(spec.item, v, copy, rng) for v in item)
    return item


def _accented(domain: Domain, base: Base) -> Base | None:
    """The base with every text ``t`` replaced by ``t + 'é'`` consistently (equal texts stay equal)."""
    changed = [False]

    def walk(spec, value):
        if isinstance(spec, Text) and isinstance(value, str):
            changed[0] = True
            return value + "\u00e9"
        if isinstance(spec, Seq) and isinstance(value, (list, tuple)):
            return type(value)(walk(spec.item, v) for v in value)
        if isinstance(spec, Record) and isinstance(value, dict):
            return {k: walk(spec.fields[k], v) if k in spec.fields else v for k, v in value.items()}
        inner = getattr(spec, "spec", None)
        return walk(inner, value) if inner is not None and value is not None else value

    args = tuple(walk(p.spec, a) for p, a in zip(domain.params, base.args))
    if not changed[0] or any(len(a) > 200 for a in _texts(args)):
        return None
    return Base(f"{base.id}+accented", args, base.kwargs)


def _texts(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from _texts(v)
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from _texts(v)


#: The separators a learner may glue key fields with, each its own stratum so that every one is tried: none, single
#: characters, and the multi-character ones of common habit. A separator missing here is one a glued key gets away with.
COLLISION_SEPARATORS = (
    *("", "|", ":", "/", " ", "-", "_", ".", ",", "\t", "\x00", "#", ";", "=", "+", "@", "~", "&", "\\", "\n", "\x1f"),
    *("::", "||", "__", "--", "->", ", ", ": ", " | ", " - ", "//", "\x00\x00"),
)


def _collision_variants(domain: Domain, base: Base):
    """Records whose key fields collide when glued with a separator: ``("a|b", "c")`` against ``("a", "b|c")``."""
    names = [p.name for p in domain.params]
    for group in domain.records:
        seqs = [(names.index(n), domain.params[names.index(n)].spec) for n in group if names.index(n) < len(base.args)]
        specs = [(i, s) for i, s in seqs if isinstance(s, Seq) and isinstance(s.item, Record) and len(s.item.key) >= 2]
        if not specs:
            continue
        (src, src_spec), (dst, _) = specs[0], specs[-1]
        source_items = base.args[src] if isinstance(base.args[src], list) else None
        target_items = base.args[dst] if isinstance(base.args[dst], list) else None
        if not source_items or target_items is None or not isinstance(source_items[0], dict):
            continue
        k1, k2 = src_spec.item.key[:2]
        template = target_items[0] if target_items and isinstance(target_items[0], dict) else None
        if template is None:
            continue
        first = source_items[0]
        for number, sep in enumerate(COLLISION_SEPARATORS):
            if domain.skips("collision"):
                return
            left, right = "ab", "cd"
            mine = {**first, k1: left, k2: f"x{sep}{right}"}
            theirs = {**template, k1: f"{left}{sep}x", k2: right}
            args = list(base.args)
            new_source = [mine] + list(source_items[1:])
            new_target = [theirs] + list(target_items)
            if src == dst:
                new_source = [mine, theirs] + list(source_items[1:])
                args[src] = new_source
            else:
                args[src], args[dst] = new_source, new_target
            yield _make(
                domain,
                base,
                Variant("collision", f"separator {sep!r}", None),
                f"{group[0]}/{group[-1]}",
                "collision",
                (tuple(args), base.kwargs),
                number,
            )


# --------------------------------------------------------------------------------------------------- assembly


#: Sites of one kind varied (those of the smallest bases).
SITES_PER_KIND = 5


def _choose(items: list) -> list:
    """At most FULL_PER_FAMILY candidates (or built cases) per family, spread evenly over its strata (family,
    parameter, field, finer kind), in a fixed order."""
    strata: dict = {}
    for item in items:
        strata.setdefault(item.stratum, []).append(item)
    by_family: dict = {}
    for key in sorted(strata, key=repr):
        by_family.setdefault(key[1], []).extend(strata[key])
    chosen = []
    for _, members in sorted(by_family.items()):
        step = max(1.0, len(members) / FULL_PER_FAMILY)
        chosen.extend(members[int(i * step)] for i in range(min(len(members), FULL_PER_FAMILY)))
    return chosen


def generate(
    domain: Domain, bases: list[Base], reference, *, seed: int = 0, repeats: int = 24, defaults: dict | None = None
) -> list[tuple[Generated, dict]]:
    """The generated cases and their reference outcomes, in the order they should run.

    ``reference(case)`` runs the reference solution on deep copies of a :class:`Generated` case's inputs and
    returns its outcome (a dict with ``kind`` "return" or "raise"). ``seed`` seeds the random choices (which
    deeper variants, repeats and refills; the large inputs' values), so the same seed gives the same cases.
    ``defaults``: the reference's default values by parameter name, passed explicitly in some calls.
    """
    rng = random.Random(f"{seed}:{domain.call}")
    bases = sorted((b for b in bases if b.args or b.kwargs), key=lambda b: b.size)
    per_kind = SITES_PER_KIND
    small = bases[: max(per_kind, 3)]
    candidates = list(_site_candidates(domain, bases, per_kind))
    built = []
    combos = []
    for base in small:
        built.extend(_zero_variants(domain, base))
        built.extend(_aligned_variants(domain, base))
        built.extend(_keyword_variants(domain, base))
        built.extend(_collision_variants(domain, base))
    # positional calls of what the bases pass by name (the smallest bases may pass nothing by name): three of them
    positional = [found for found in map(lambda b: _positional_variant(domain, b), bases) if found is not None]
    built.extend(positional[:POSITIONAL_BASES])
    for base in [b for b in small if _all_filled(domain, b)][:1]:  # the smallest base with items in every sequence
        combos.extend(_combo_variants(domain, base))
    built.extend(_default_variants(domain, bases, defaults or {}))
    for b in (_accented(domain, base) for base in small):
        if b is not None:
            built.append(
                Generated(
                    id=f"gen/accented/-/{b.id}/0",
                    call=domain.call,
                    args=b.args,
                    kwargs=b.kwargs,
                    family="accented",
                    detail="accents",
                    site="-",
                    base=b.id,
                    stratum=("transform", "accented", "-", ""),
                    size=b.size,
                )
            )
    if not domain.numpy:  # a plain-Python task: no generated input holds a numpy value
        built = [case for case in built if _plain(case)]
        combos = [case for case in combos if _plain(case)]
    chosen = _choose(candidates + _unique(built))
    cases = [c if isinstance(c, Generated) else _build(domain, c) for c in chosen]
    out = [(case, reference(case)) for case in _unique([c for c in cases if c is not None])]
    combo_out = [(case, reference(case)) for case in _unique(combos)]
    out.extend(combo_out)
    out.extend(_combo_rule_breakers(domain, combo_out, reference))
    scaled = [
        (case, reference(case))
        for case in _scale_variants(domain, bases, random.Random(f"{seed}:{domain.call}:scale"))
        if domain.numpy or _plain(case)
    ]
    out.extend((case, outcome) for case, outcome in scaled if outcome.get("kind") == "return")
    late = _late_invalid(domain, out, bases, reference, random.Random(f"{seed}:{domain.call}:late"))
    out.extend((case, outcome) for case, outcome in late if outcome.get("kind") == "raise")
    contexts = [case for case in _in_every_context(domain, out, bases) if domain.numpy or _plain(case)]
    out.extend((case, reference(case)) for case in _unique(contexts))
    out.extend(_roomy_conversions(domain, bases, out, reference))
    # Deeper: vary the places inside a valid conversion (a tuple, an array of another dtype, accented texts).
    deeper = []
    for case, outcome in out:
        if outcome.get("kind") != "return" or not any(case.family.startswith(c) for c in CONVERSIONS):
            continue
        converted = Base(f"{case.base}+{case.family}.{case.id.rsplit('/', 1)[-1]}", case.args, case.kwargs)
        under = case.path if case.family != "accented" else None
        for candidate in _site_candidates(domain, [converted], 1, only_under=under):
            deeper.append(_Deep(candidate, case.family))
    picked = _choose(deeper)
    if len(picked) > DEEP_PER_BASE * 4:
        picked = rng.sample(picked, DEEP_PER_BASE * 4)
    deep_cases = [_build(domain, d.candidate) for d in picked]
    out.extend((case, reference(case)) for case in _unique([c for c in deep_cases if c is not None]))
    # Repeats: the same call again, last, for a few valid cases (state kept between calls shows here).
    valid = [(c, o) for c, o in out if o.get("kind") == "return"]
    count = min(len(valid), repeats) if domain.repeat and not domain.skips("repeat") else 0
    for case, outcome in rng.sample(valid, count):
        again = Generated(
            id=f"gen/repeat/-/{case.id}",
            call=case.call,
            args=copy.deepcopy(case.args),
            kwargs=copy.deepcopy(case.kwargs),
            family="repeat",
            detail="the same call again",
            site="-",
            base=case.id,
            stratum=("repeat", "repeat", "-", ""),
            size=case.size,
        )
        out.append((again, outcome))
    out.extend(_refills(domain, valid, reference, rng, 5))
    return out


def _plain(case: Generated) -> bool:
    return not holds_numpy(case.args) and not holds_numpy(case.kwargs)


def _refillable(args: tuple) -> tuple:
    """The positions of ``args`` that hold a list or dict (what a caller may refill in place and pass again)."""
    return tuple(i for i, a in enumerate(args) if type(a) in (list, dict))


def _refills(domain: Domain, valid: list, reference, rng: random.Random, per_spot: int) -> list:
    """Calls that get the list and dict objects of an earlier call again, their contents replaced by another
    valid input's (a caller reusing its buffers): a result cached by ``id()`` of an argument shows here. For each
    such argument, pairs are chosen where that argument matters: the reference gives another result when only
    it comes from the earlier call."""
    out = []
    if domain.skips("refill"):
        return out
    plain = [(case, outcome) for case, outcome in valid if case.family != "repeat"]
    # Calls whose every argument is a list or dict: refilled, all of them are the earlier call's objects, so a cache
    # keyed by the ids of all arguments hits too. Half of each spot's pairs come from these, where there are any.
    # Where a call has other arguments too (recall_at_k's k), such a cache keys on them as well: it hits only when the
    # two calls agree on them, so pairs that do come next, then any pairs.
    # A cache may key on the objects' lengths as well (a refilled buffer of another length misses it): the first pair
    # of each pool, where there is one, refills them with as many items as they held.
    whole = [(case, outcome) for case, outcome in plain if len(_refillable(case.args)) == len(case.args)]
    made: set = set()
    for spot in sorted({i for case, _ in plain for i in _refillable(case.args)}):
        found = 0
        for pool, quota, same, sizes in (
            (whole, 1, False, True),
            (whole, per_spot * 2 // 5, False, False),
            (plain, per_spot * 3 // 5, True, True),
            (plain, per_spot * 4 // 5, True, False),
            (plain, per_spot, False, False),
        ):
            found = _refill_pairs(domain, pool, spot, reference, rng, found, quota, made, out, same, sizes)
    return out


def _refill_pairs(
    domain, pool, spot, reference, rng, found, quota, made, out, same_others=False, same_sizes=False
) -> int:
    """Add to ``out`` refill cases of argument ``spot`` made of pairs from ``pool`` until ``quota`` are found in all
    (``found`` already); ``made``: the ids made so far; ``same_others``: only pairs whose arguments other than lists
    and dicts are equal; ``same_sizes``: only pairs whose lists and dicts are as long. Returns the new ``found``."""
    if found >= quota:
        return found
    groups = _swappable(pool, spot, same_others, same_sizes)
    sizes = [len(group) * (len(group) - 1) for group in groups]
    total = sum(sizes)
    # A random order of the (first, second) pairs, drawn by index: listing and shuffling every pair would cost
    # seconds on ~1,500 cases, for the few dozen pairs ever tried.
    pairs = (_pair(groups, sizes, index) for index in rng.sample(range(total), min(total, 50 * quota)))
    for first, second, outcome in pairs:
        case_id = f"gen/refill/{domain.params[spot].name}/{second.id}/{first.id}"
        if case_id in made:
            continue
        mixed = list(copy.deepcopy(second.args))
        mixed[spot] = copy.deepcopy(first.args[spot])
        probe = Generated(
            id=f"gen/refill-probe/{spot}",
            call=second.call,
            args=tuple(mixed),
            kwargs=copy.deepcopy(second.kwargs),
            family="refill",
            detail="",
            site="-",
            base=second.id,
            stratum=("refill", "refill", "-", ""),
        )
        if reference(probe) == outcome:
            continue  # this argument of the earlier call would give the same result: nothing to see
        made.add(case_id)
        out.append(
            (
                Generated(
                    id=case_id,
                    call=second.call,
                    args=copy.deepcopy(second.args),
                    kwargs=copy.deepcopy(second.kwargs),
                    family="refill",
                    detail="same objects",
                    site=domain.params[spot].name,
                    base=second.id,
                    stratum=("refill", "refill", "-", ""),
                    size=second.size,
                    refill=first.id,
                ),
                outcome,
            )
        )
        found += 1
        if found >= quota:
            break
    return found


def _swappable(valid: list, spot: int, same_others: bool = False, same_sizes: bool = False) -> list[list]:
    """``valid`` in groups whose members may pass each other's argument ``spot``: as many arguments, the same
    keyword arguments, and a list or dict of one type at ``spot``; with ``same_others`` also the same arguments
    wherever neither holds a list or dict; with ``same_sizes`` lists and dicts of the same lengths."""
    groups: list[tuple[tuple, dict, list]] = []
    for case, outcome in valid:
        if len(case.args) <= spot or type(case.args[spot]) not in (list, dict):
            continue
        shape = (len(case.args), type(case.args[spot]))
        if same_others:
            shape += tuple(repr(a) if type(a) not in (list, dict) else "" for a in case.args)
        if same_sizes:
            shape += tuple(len(a) if type(a) in (list, dict) else -1 for a in case.args)
        for key, kwargs, members in groups:
            if key == shape and kwargs == case.kwargs:
                members.append((case, outcome))
                break
        else:
            groups.append((shape, case.kwargs, [(case, outcome)]))
    return [members for _, _, members in groups if len(members) > 1]


def _pair(groups: list[list], sizes: list[int], index: int) -> tuple:
    """The ``index``-th ordered pair ``(first, second, outcome of second)`` of distinct members of one group,
    counting through the groups in order (``sizes[g]`` pairs in group ``g``)."""
    for group, size in zip(groups, sizes):
        if index < size:
            i, j = divmod(index, len(group) - 1)
            j += j >= i
            return group[i][0], group[j][0], group[j][1]
        index -= size
    raise IndexError(index)


def _holds_items(value) -> bool:
    if isinstance(value, np.ndarray):
        return value.ndim == 1 and value.size > 0
    return isinstance(value, (list, tuple)) and len(value) > 0


def _roomy_conversions(domain: Domain, bases: list, out: list, reference) -> list:
    """For every container or array conversion of a parameter that the chosen cases only show empty (an empty
    array has nothing inside to vary), the one of the smallest base that holds items, so that deeper variants (a
    value out of range inside an array) exist for every conversion."""
    have = {
        (case.family, case.site)
        for case, outcome in out
        if outcome.get("kind") == "return"
        and case.path is not None
        and _holds_items(_get(case.args, case.kwargs, case.path))
    }
    extra = []
    for base in bases:  # smallest first
        for path, shown, where, spec, value in _sites(domain, base.args, base.kwargs):
            if len(path) != 1 or not _holds_items(value):
                continue
            for number, variant in enumerate(spec.variants(value)):
                kind = (variant.family, shown)
                if (
                    kind in have
                    or not variant.family.startswith(("container", "ndarray"))
                    or domain.skips(variant.family)
                    or not _holds_items(variant.value)
                    or (not domain.numpy and holds_numpy(variant.value))
                ):
                    continue
                have.add(kind)  # tried once, on the smallest base that holds items
                case = _build(domain, _Candidate(base, path, shown, where, variant, number))
                if case is not None:
                    outcome = reference(case)
                    if outcome.get("kind") == "return":
                        extra.append((case, outcome))
    return extra


@dataclass
class _Deep:
    """A candidate inside a converted base, stratified by the conversion it sits in."""

    candidate: _Candidate
    conversion: str

    @property
    def stratum(self) -> tuple:
        group, family, where, detail = self.candidate.stratum
        return ("deep:" + group, family, where, detail, self.conversion)

    @property
    def size(self) -> int:
        return self.candidate.size


def _unique(cases: list[Generated]) -> list[Generated]:
    seen, out = set(), []
    for case in cases:
        if case.id not in seen:
            seen.add(case.id)
            out.append(case)
    return out


def random_bases(domain: Domain, rng: random.Random, count: int) -> list[Base]:
    """``count`` random inputs drawn from the domain (pools make equal values recur within one input); the
    sequences of an aligned group get one length, so the inputs stay valid."""
    out = []
    for index in range(count):
        pools: dict = {}
        sizes: dict = {}
        for group in domain.aligned:
            members = {p.name: p.spec for p in domain.params if p.name in group and isinstance(p.spec, Seq)}
            if members:
                lo = max(s.sizes()[0] for s in members.values())
                size = rng.randint(lo, max(lo, min(s.sizes()[1] for s in members.values())))
                sizes.update((name, size) for name in members)
        args = []
        for p in domain.params:
            if p.has_default and rng.random() >= 0.7:
                break
            if p.name in sizes:
                args.append(p.spec.random(rng, pools, size=sizes[p.name]))
            else:
                args.append(p.spec.random(rng, pools))
        out.append(Base(f"random-{index}", tuple(args)))
    return out


__all__ = ["Base", "Generated", "generate", "random_bases", "group_of", "GROUPS", "size_of"]
