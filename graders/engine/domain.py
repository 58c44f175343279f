"""Input domains: what a checkpoint's function accepts, declared as data, and the variants derived from it.

A grader declares ``DOMAIN = Domain(call, params, ...)`` with one :class:`Spec` per parameter. A spec says what a
value of that parameter is (a text of at most 200 characters, a real number in [0, 1], a list of records, ...), and,
through its options, which kinds of neighbouring inputs the task text settles. :mod:`graders.engine.generate` walks
the curated valid inputs with these specs and derives variants: other containers, other number types, whitespace,
case and normalisation changes, lengths at and past a limit, values on and next to boundaries. The reference solution
decides every expected outcome; a spec only says what may be tried.

Every spec offers:

- ``variants(value)``: ``(family, detail, new value)`` for one site (a place in the arguments) holding ``value``;
- ``random(rng, pools)``: a random valid value (pools make equal values recur across sites);
- ``children(value)``: the nested sites of ``value`` as ``(step, spec, child value)``.

Families are short stable names; they appear in generated case ids and pick the explanation a learner reads.
Options that default to off are families whose behaviour a task text often leaves open: turn one on only when the
task settles it.
"""

from __future__ import annotations

import math
import unicodedata
from dataclasses import dataclass, field

import numpy as np

from .values import Iterated

#: Every character ``str.strip()`` removes (``str.isspace()``), named by code point.
WHITESPACE = tuple(chr(c) for c in range(0x3001) if chr(c).isspace())
#: Separators a learner might join key fields with.
SEPARATORS = ("", "|", ":", ",", "/", "-", "_", ".", " ", "\t", "\x00", "#")
#: Characters that are not whitespace although they look empty.
INVISIBLE = ("\u200b", "\ufeff", "\u2060")


def char_name(ch: str) -> str:
    """``U+00A0 NO-BREAK SPACE`` style name of a character."""
    return f"U+{ord(ch):04X} {unicodedata.name(ch, 'control character')}"


@dataclass(frozen=True)
class Variant:
    """One value to put at a site: the family it belongs to, a short language-neutral detail, and the value."""

    family: str
    detail: str
    value: object


class Spec:
    """Base of every spec. Subclasses override :meth:`variants`, :meth:`random` and :meth:`children`."""

    def variants(self, value):
        return ()

    def random(self, rng, pools):
        raise NotImplementedError

    def children(self, value):
        return ()


# --------------------------------------------------------------------------------------------------- texts


@dataclass(frozen=True)
class Text(Spec):
    """A ``str`` field.

    ``max_len`` counts code points (``len()``). ``blank``: whitespace-only strings are invalid (every whitespace
    class is tried). ``exact``: values are compared with ``==`` (case, normalisation, padding and substring variants
    are tried). ``pool``: random values come from a pool shared by every site with the same pool name, so they
    recur. ``words``: extra random words for the pool (mixed case, digits, accents are always in).
    """

    max_len: int | None = None
    blank: bool = True
    exact: bool = True
    pool: str | None = None
    words: tuple = ()

    def variants(self, value):
        out = [
            Variant("type-none", "None", None),
            Variant("type-int", "7", 7),
            Variant("type-float", "7.5", 7.5),
            Variant("type-nan", "nan", float("nan")),
            Variant("type-bool", "True", True),
            Variant("type-bytes", "bytes", value.encode("utf-8") if isinstance(value, str) else b"x"),
            Variant("type-list", "list", [value]),
        ]
        if self.blank:
            out.append(Variant("empty", "''", ""))
            out.extend(Variant("blank", char_name(ch), ch) for ch in WHITESPACE)
            out.append(Variant("blank", "mixed whitespace", " \t\u00a0\u3000\n"))
        out.extend(Variant("invisible", char_name(ch), ch) for ch in INVISIBLE)
        if isinstance(value, str) and value:
            if self.exact:
                for name, new in (
                    ("padded", f" {value} "),
                    ("padded", f"\u00a0{value}"),
                    ("padded", f"{value}\n"),
                    ("case", value.upper()),
                    ("case", value.swapcase()),
                    ("case", value.title()),
                    ("substring", value[: max(1, len(value) // 2)]),
                    ("superstring", value + value[-1]),
                    ("nfd", unicodedata.normalize("NFD", value)),
                    ("nfc", unicodedata.normalize("NFC", value)),
                    ("nfkc", unicodedata.normalize("NFKC", value)),
                    ("nul-end", value + "\x00"),
                ):
                    if new != value:
                        out.append(Variant(name, repr(new)[:60], new))
            for sep in SEPARATORS[1:]:
                out.append(Variant("separator", repr(sep), f"{value}{sep}x"))
        out += [
            Variant("nonascii", "accents", "\u00c6r\u00f8-\ufb01 \u00e9t\u00e9"),
            Variant("nonascii", "emoji", "\U0001f600 ok"),
            Variant("nonascii", "arabic", "\u0645\u0631\u062d\u0628\u0627"),
            Variant("nonascii", "combining", "e\u0301e\u0301"),
            Variant("numeric", "'10'", "10"),
            Variant("numeric", "'1.0'", "1.0"),
            Variant("numeric", "'-0'", "-0"),
            Variant("nonelike", "'None'", "None"),
            Variant("nonelike", "'null'", "null"),
            Variant("nonelike", "'nan'", "nan"),
            Variant("nonelike", "'N/A'", "N/A"),
        ]
        if self.max_len:
            n = self.max_len
            for name, unit in (("accent", "\u00e9"), ("emoji", "\U0001f600"), ("ascii", "x")):
                out.append(Variant("len-max", f"{n} x {name}", unit * n))
                out.append(Variant("len-over", f"{n + 1} x {name}", unit * (n + 1)))
            out.append(Variant("len-max", f"{n // 2} x e+U+0301", "e\u0301" * (n // 2)))
            out.append(Variant("len-over", f"{n // 2} x e+U+0301 + 1", "e\u0301" * (n // 2) + "e"))
            out.append(Variant("len-max-padded", f"space + {n - 1} x", " " + "x" * (n - 1)))
            out.append(Variant("len-over-padded", f"space + {n} x", " " + "x" * n))
            out.append(Variant("len-over-padded", f"{n} x + U+00A0", "x" * n + "\u00a0"))
        return out

    def random(self, rng, pools):
        if self.pool:
            pool = pools.get(self.pool)
            if pool is None:
                pool = pools[self.pool] = [_random_word(rng, self.words) for _ in range(rng.randint(2, 6))]
            return rng.choice(pool)
        return _random_word(rng, self.words)


_ALPHABET = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789\u00e9\u00fc\u00df\u00c5"


def _random_word(rng, words=()) -> str:
    pick = rng.random()
    if words and pick < 0.5:
        word = rng.choice(words)
    elif pick < 0.7:
        # ids that sort differently case-insensitively or "naturally": s9 / s10 / S2 / b / A
        word = rng.choice("sSdD") + str(rng.choice([1, 2, 9, 10, 11, 100]))
    else:
        word = "".join(rng.choice(_ALPHABET) for _ in range(rng.randint(1, 8)))
    if rng.random() < 0.15:
        word = rng.choice([f"{word} x", f" {word}", f"{word} ", word.upper()])
    return word


# --------------------------------------------------------------------------------------------------- numbers


def _on_and_next_to(x: float):
    x = float(x)
    return [("on", x), ("below", float(np.nextafter(x, -np.inf))), ("above", float(np.nextafter(x, np.inf)))]


@dataclass(frozen=True)
class Real(Spec):
    """A real number from ``lo`` to ``hi`` (``None`` for an open end).

    ``edges``: further values where behaviour changes (bin edges, thresholds), tried on and next to them.
    ``bools``: ``True``/``False`` count as the numbers 1 and 0 (Python's bool is an int), so they are tried as
    valid values. ``strings``: numeric strings are tried (only when the task settles them).
    """

    lo: float | None = None
    hi: float | None = None
    edges: tuple = ()
    bools: bool = False
    strings: bool = False

    def variants(self, value):
        out = [
            Variant("nan", "nan", float("nan")),
            Variant("inf", "inf", float("inf")),
            Variant("inf", "-inf", float("-inf")),
            Variant("neg-zero", "-0.0", -0.0),
            Variant("tiny-neg", "-5e-324", -5e-324),
            Variant("tiny-neg", "-1e-300", -1e-300),
            Variant("type-none", "None", None),
            Variant("type-list", "list", [value]),
            Variant("type-str", "'x'", "x"),
            Variant("huge", "1e308", 1e308),
            Variant("huge-int", "10**400", 10**400),
            Variant("complex", "complex", complex(value, 0.5) if isinstance(value, (int, float)) else 0.5j),
        ]
        if self.bools:
            out += [
                Variant("bool", "True", True),
                Variant("bool", "False", False),
                Variant("npbool", "numpy.True_", np.True_),
                Variant("npbool", "numpy.False_", np.False_),
            ]
        if self.strings:
            out.append(Variant("numeric-str", "'0.5'", "0.5"))
        if isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value):
            out.append(Variant("npfloat", "numpy.float64", np.float64(value)))
            with np.errstate(over="ignore"):
                if float(np.float32(value)) == value:
                    out.append(Variant("float32", "numpy.float32", np.float32(value)))
            if float(value).is_integer():
                out.append(Variant("int-form", str(int(value)), int(value)))
                if -(2**63) <= int(value) < 2**63:  # a huge integral float (1e308) has no int64 form
                    out.append(Variant("npint", "numpy.int64", np.int64(int(value))))
        points = [p for p in (self.lo, self.hi) if p is not None] + list(self.edges)
        for point in points:
            for where, x in _on_and_next_to(point):
                out.append(Variant(f"edge-{where}", repr(x), x))
        # a complex number with no imaginary part is still not a real number (a check of .imag != 0 lets it in);
        # last, so the numbers (case ids) of the variants before it stay
        out.append(
            Variant("complex", "complex, imaginary part 0", complex(value if isinstance(value, (int, float)) else 0.5))
        )
        return out

    def random(self, rng, pools):
        lo = 0.0 if self.lo is None else float(self.lo)
        hi = lo + 100.0 if self.hi is None else float(self.hi)
        pick = rng.random()
        points = [p for p in (self.lo, self.hi) if p is not None] + list(self.edges)
        if points and pick < 0.2:
            return float(rng.choice(points))
        if pick < 0.35:
            return round(rng.uniform(lo, hi), 2)
        return rng.uniform(lo, hi)


@dataclass(frozen=True)
class Integer(Spec):
    """An ``int`` from ``lo`` to ``hi`` (``None`` for an open end). ``bools``: True/False count as 1/0. ``floats``:
    integral floats (``3.0``) and fractions are tried (only when the task settles them)."""

    lo: int | None = None
    hi: int | None = None
    bools: bool = False
    floats: bool = False

    def variants(self, value):
        out = [
            Variant("type-none", "None", None),
            Variant("type-str", "'3'", "3"),
            Variant("type-list", "list", [value]),
            Variant("huge", "10**20", 10**20),
            Variant("zero", "0", 0),
            Variant("neg", "-1", -1),
        ]
        # Past int16 and uint16. Past int32 is 10**20 ("huge"): an int between 2**31 and 2**63 is a valid index or
        # size (Py_ssize_t) in 64-bit CPython and too large in 32-bit Pyodide, so code that hands it to islice,
        # range or a deque's maxlen would get other counts on the command line than in the browser.
        for large in (40_000, 70_000):
            if self.hi is None or large <= self.hi:
                out.append(Variant("large", str(large), large))
        if self.hi is None:  # no bound: an int no float can hold (float(k) raises OverflowError)
            out.append(Variant("huge-int", "10**400", 10**400))
        if isinstance(value, int) and not isinstance(value, bool):
            # No numpy.int64: used as a size or count (np.bincount's minlength, an index bound) it turns index arrays
            # into int64, which numpy on 32-bit Pyodide refuses where CPython accepts it. Correct code would then
            # fail in the browser only; int32 and the small types behave alike on both.
            out.append(Variant("npint", "numpy.int32", np.int32(value)))
            if -128 <= value <= 127:
                out.append(Variant("npint", "numpy.int8", np.int8(value)))
            if 0 <= value <= 255:
                out.append(Variant("npint", "numpy.uint8", np.uint8(value)))
        if self.bools:
            out += [Variant("bool", "True", True), Variant("bool", "False", False)]
        if self.floats:
            out += [Variant("float-int", f"{value}.0", float(value)), Variant("float-frac", "2.5", 2.5)]
        for point in (self.lo, self.hi):
            if point is not None:
                out += [
                    Variant("edge-on", str(point), point),
                    Variant("edge-below", str(point - 1), point - 1),
                    Variant("edge-above", str(point + 1), point + 1),
                ]
        return out

    def random(self, rng, pools):
        lo = 0 if self.lo is None else self.lo
        hi = lo + 60 if self.hi is None else min(self.hi, lo + 60)
        return rng.randint(lo, hi)


@dataclass(frozen=True)
class Flag(Spec):
    """A truth value: ``True``/``False``. ``numbers``: 0 and 1 (int or float) are accepted as labels too, as with
    labels in numpy arrays. Other numbers (0.5, 2), None and strings are tried as invalid labels."""

    numbers: bool = False

    def variants(self, value):
        out = [
            Variant(
                "npbool", "numpy.bool_", np.bool_(bool(value)) if isinstance(value, (bool, np.bool_)) else np.True_
            ),
            Variant("label-half", "0.5", 0.5),
            Variant("label-two", "2", 2),
            Variant("label-neg", "-1", -1),
            Variant("type-none", "None", None),
            Variant("type-str", "'True'", "True"),
            Variant("label-nan", "nan", float("nan")),
            # a hair off 0 and 1: a tolerant test (np.isclose, math.isclose, rounding) takes them for labels
            Variant("label-near", "1e-9", 1e-9),
            Variant("label-near", "1 - 1e-9", 1 - 1e-9),
        ]
        out += [Variant("label-int", "1", 1), Variant("label-int", "0", 0), Variant("label-float", "1.0", 1.0)]
        return out

    def random(self, rng, pools):
        return rng.random() < 0.5


@dataclass(frozen=True)
class Maybe(Spec):
    """``None`` or a value of ``spec`` (e.g. a prediction that may be an abstention). ``weight``: the share of
    random values that are ``None``."""

    spec: Spec
    weight: float = 0.3

    def variants(self, value):
        return () if value is None else self.spec.variants(value)

    def random(self, rng, pools):
        return None if rng.random() < self.weight else self.spec.random(rng, pools)

    def children(self, value):
        return () if value is None else self.spec.children(value)


# --------------------------------------------------------------------------------------------------- containers


#: The dtypes a numeric sequence is tried in (families ``ndarray-<dtype>``).
NUMERIC_DTYPES = ("float64", "float32", "int64", "int8", "uint8", "bool")


def array_of(items) -> np.ndarray:
    """``np.asarray(items)``, but with the same dtype on every platform: Python ints become int64 (numpy's default
    int is int32 in Pyodide), floats float64, bools bool. Generated cases must not depend on where they are made."""
    array = np.asarray(items)
    if array.dtype.kind in "iu" and array.dtype != np.int64 and all(type(v) is int for v in np.ravel(items).tolist()):
        array = array.astype(np.int64)
    return array


def _array_variants(items: list, bools: bool = True, floats: bool = True):
    """Arrays of ``items`` in every dtype that holds them exactly, plus 0-d and 2-d shapes. ``bools``: whether
    booleans stand for these items (truth values, or numbers whose spec has ``bools=True``); without it no bool
    array of numbers is made, as no True or False item is (a task that leaves booleans as numbers open). ``floats``:
    the same for floats standing for integers (an Integer spec without ``floats=True``): without it no float array
    of them is made, as no ``3.0`` item is (a task that leaves float counts open)."""
    out = []
    try:
        base = array_of(items)
    except Exception:
        return out
    if base.dtype.kind not in "biufU" or base.ndim != 1:
        return out
    out.append(Variant("ndarray", str(base.dtype), base))
    if base.dtype.kind in "biuf":
        for dtype in NUMERIC_DTYPES:
            if dtype == str(base.dtype):
                continue
            with np.errstate(all="ignore"):
                converted = base.astype(dtype)
                if (
                    converted.astype("float64").tolist() == base.astype("float64").tolist()
                    and (dtype != "bool" or base.dtype.kind == "b" or (bools and set(base.tolist()) <= {0, 1}))
                    and (floats or not dtype.startswith("float"))
                ):
                    # float32 only where sums stay exact too (values on a coarse binary grid)
                    if dtype == "float32" and not all(float(v * 256).is_integer() for v in base.astype("float64")):
                        continue
                    out.append(Variant(f"ndarray-{dtype}", dtype, converted))
    out.append(Variant("ndarray-object", "object", np.array(items + [None], dtype=object)[:-1]))
    if base.dtype.kind in "biuf":
        out.append(Variant("ndarray-complex", "complex128", base.astype(np.complex128)))
    if len(items):
        out.append(Variant("ndarray-0d", "0-d", array_of(items[0])))
    out.append(Variant("ndarray-2d", "shape (1, n)", base.reshape(1, -1)))
    out.append(Variant("ndarray-2d", "shape (n, 1)", base.reshape(-1, 1)))
    return out


def _bools(spec) -> bool:
    """Whether True and False are values of ``spec``: a truth value, or a number that counts them as 1 and 0."""
    while isinstance(spec, Maybe):
        spec = spec.spec
    return isinstance(spec, Flag) or bool(getattr(spec, "bools", False))


def _floats(spec) -> bool:
    """Whether floats are values of ``spec``: anything but an integer whose spec leaves floats out (``floats``)."""
    while isinstance(spec, Maybe):
        spec = spec.spec
    return not isinstance(spec, Integer) or spec.floats


@dataclass(frozen=True)
class Seq(Spec):
    """A sequence of ``item`` values with ``min_len`` to ``max_len`` items.

    ``containers``: the container types the task allows ("list", "tuple", "ndarray"): random valid values use
    them, and when two arguments allow several, every mix of them is tried (family ``combo``). Every other
    container (tuple, set, frozenset, str, dict, None, a bare item, a nested list, numpy arrays of each dtype and
    shape) is tried as a variant anyway; the reference decides which are valid. ``unique``: the task says no item
    appears twice (the document ids of a ranking): random values hold distinct items, so they stay valid (a
    repeated item is tried as a variant all the same, family ``dup-item``).
    """

    item: Spec
    min_len: int = 0
    max_len: int | None = None
    containers: tuple = ("list",)
    unique: bool = False

    def variants(self, value):
        items = _as_list(value)
        if items is None:
            return ()
        out = [
            Variant("container-tuple", "tuple", tuple(items)),
            Variant("container-none", "None", None),
            Variant("container-str", "str", "abc"),
            Variant("container-dict", "dict", dict(enumerate(items))),
            Variant("container-nested", "[[...]]", [items]),
        ]
        try:
            out.append(Variant("container-set", "set", set(items)))
            out.append(Variant("container-frozenset", "frozenset", frozenset(items)))
        except TypeError:
            pass
        if items:
            out.append(Variant("container-item", "items[0]", items[0]))
        out.append(Variant("container-iter", "(x for x in [...])", Iterated(items)))
        out.extend(_array_variants(items, _bools(self.item), _floats(self.item)))
        out.append(Variant("size-empty", "len = 0", []))
        if items:
            out.append(Variant("size-one", "len = 1", items[:1]))
            # the first item again at the end: a rule that items are distinct (document ids, labels) shows
            out.append(Variant("dup-item", "first item twice", items + items[:1]))
        if self.min_len > 0:
            out.append(Variant("size-under", f"len = {self.min_len - 1}", items[: self.min_len - 1]))
        if self.max_len is not None and items:
            kinds = []
            for item in items:
                if not any(_same(item, k) for k in kinds):
                    kinds.append(item)
            for filler in kinds[:3]:
                for size, family in ((self.max_len, "size-max"), (self.max_len + 1, "size-over")):
                    padded = items + [filler] * (size - len(items)) if len(items) <= size else items[:size]
                    out.append(Variant(family, f"len = {size}, + {_brief(filler)}", padded))
            if items and all(
                isinstance(v, (bool, np.bool_)) or (isinstance(v, (int, float)) and v in (0, 1)) for v in items
            ):
                ones = [items[0]] * self.max_len
                out.append(Variant("size-max-uint8", f"len = {self.max_len}, uint8", np.asarray(ones).astype("uint8")))
        if isinstance(self.item, Integer) and len(items) >= 2 and (self.item.hi is None or self.item.hi >= 200):
            # small integer dtypes whose sum does not fit them: a sum in the array's own dtype wraps round
            out.append(Variant("ndarray-sum-wraps", "uint8, sum > 255", np.full(len(items), 200, dtype=np.uint8)))
            out.append(Variant("ndarray-sum-wraps", "int8, sum > 127", np.full(len(items), 100, dtype=np.int8)))
        if isinstance(self.item, Integer) and len(items) >= 2 and self.item.hi is None and (self.item.lo or 0) >= 0:
            # Python ints whose sum passes int64: np.sum (or an int64 array) wraps round to a negative number where
            # sum() is exact, in CPython and in Pyodide alike (each item already needs int64, so numpy's 32-bit
            # default int in the browser plays no part)
            out.append(Variant("large-sum", "2**62 each", [2**62] * len(items)))
        return out

    def sizes(self) -> tuple[int, int]:
        """The smallest and largest number of items a random value holds."""
        top = self.max_len if self.max_len is not None else self.min_len + 12
        return self.min_len, max(self.min_len, min(top, self.min_len + 12))

    def random(self, rng, pools, size: int | None = None):
        """A random valid value; with ``size``, of exactly that many items (aligned arguments share one)."""
        if size is None:
            size = rng.randint(*self.sizes())
        if self.unique:
            items = _distinct(self.item, size, rng, pools)
        else:
            items = [self.item.random(rng, pools) for _ in range(size)]
        kind = rng.choice(self.containers)
        if kind == "tuple":
            return tuple(items)
        if kind == "ndarray":
            try:
                return array_of(items)
            except Exception:
                return items
        return items

    def children(self, value):
        """The first, second, middle and last items: variants of the other items would test nothing new."""
        items = _as_list(value)
        if items is None:
            return ()
        n = len(items)
        picked = sorted({i for i in (0, 1, n // 2, n - 1) if 0 <= i < n})
        return [(i, self.item, items[i]) for i in picked]


def holds_numpy(value) -> bool:
    """True when ``value`` is or holds a numpy scalar or array (inside lists, tuples, sets and dicts)."""
    if isinstance(value, (np.ndarray, np.generic)):
        return True
    if isinstance(value, dict):
        return any(holds_numpy(k) or holds_numpy(v) for k, v in value.items())
    if isinstance(value, (list, tuple, set, frozenset)):
        return any(holds_numpy(v) for v in value)
    return False


def _as_list(value):
    if isinstance(value, (list, tuple)):
        return list(value)
    if isinstance(value, np.ndarray) and value.ndim == 1:
        return value.tolist()
    return None


def _same(a, b) -> bool:
    return type(a) is type(b) and repr(a) == repr(b)


def _distinct(spec: Spec, size: int, rng, pools) -> list:
    """``size`` random values of ``spec``, no two the same. A text pool the draws exhaust gets a new word, so the
    items still recur across the arguments that share the pool; any other spec is drawn again."""
    items: list = []
    for _ in range(50 * (size + 1)):
        if len(items) == size:
            break
        value = spec.random(rng, pools)
        if not any(_same(value, v) for v in items):
            items.append(value)
        elif isinstance(spec, Text) and spec.pool and isinstance(pools.get(spec.pool), list):
            pools[spec.pool].append(_random_word(rng, spec.words))
    return items


def _brief(value) -> str:
    text = repr(value)
    return text if len(text) <= 24 else text[:20] + "…"


def _misspelt(name, fields) -> str:
    """A key like ``name`` that is none of ``fields``: its last letter dropped (``"valu"``), or ``name + "_"``."""
    text = str(name)
    for candidate in (text[:-1], text + "_"):
        if candidate and candidate not in fields:
            return candidate
    return text + "__"


@dataclass(frozen=True)
class Record(Spec):
    """A ``dict`` with exactly the keys of ``fields`` (each a spec). ``key``: the fields that together identify a
    record (like ``("entity", "attribute")``): records whose key fields would collide when glued together are tried.
    """

    fields: dict = field(default_factory=dict)
    key: tuple = ()

    def variants(self, value):
        if not isinstance(value, dict):
            return ()
        out = [
            Variant("record-type", "list of values", list(value.values())),
            Variant("record-type", "tuple of pairs", tuple(value.items())),
            Variant("record-type", "None", None),
            Variant("record-reordered", "keys reversed", dict(reversed(list(value.items())))),
        ]
        for name in self.fields:
            out.append(Variant("record-missing", repr(name), {k: v for k, v in value.items() if k != name}))
        for name in self.fields:
            # the same number of keys, one of them misspelt: a check that counts the keys, then reads them with
            # .get() or indexing, takes it for a valid record or fails with a KeyError
            other = _misspelt(name, self.fields)
            renamed = {(other if k == name else k): v for k, v in value.items()}
            out.append(Variant("record-renamed", f"{name!r} as {other!r}", renamed))
        out.append(Variant("record-extra", "'extra'", {**value, "extra": "x"}))
        # keys that are not texts: a check that sorts the keys, or compares them with texts, fails on its own
        out.append(Variant("record-extra", "1", {**value, 1: "x"}))
        out.append(Variant("record-extra", "None", {**value, None: "x"}))
        return out

    def random(self, rng, pools):
        return {name: spec.random(rng, pools) for name, spec in self.fields.items()}

    def children(self, value):
        if not isinstance(value, dict):
            return ()
        return [(name, spec, value[name]) for name, spec in self.fields.items() if name in value]


# --------------------------------------------------------------------------------------------------- the domain


@dataclass(frozen=True)
class Param:
    """One parameter: its documented ``name``, its ``spec``, whether it may be passed by keyword (``keyword``: as
    every Python parameter may, unless the task makes it positional-only) and whether it may be left out
    (``has_default``). Generated calls pass arguments by these names, so they must be the reference's own."""

    name: str
    spec: Spec
    keyword: bool = True
    has_default: bool = False


@dataclass(frozen=True)
class Domain:
    """The input domain of one callable of a checkpoint.

    ``call``: the name (or dotted path) the cases call. ``params``: :class:`Param` per positional parameter.
    ``aligned``: groups of parameter names whose sequences must have equal length (tried shorter, as one item numpy
    would broadcast, and as a column). ``repeat``: some valid calls are made again after all the others (family
    ``repeat``; False is the same as skipping it). ``records``: groups of parameter names holding records with the same
    ``key`` fields, for key collisions. ``skip``: families not to generate (the task leaves them open), as names or name
    prefixes. ``numpy``: with False no generated input holds a numpy value (no numpy scalars, no arrays), for a task in
    plain Python that says nothing about numpy. ``abs_tol``: the absolute tolerance of this call's floats, curated
    cases included, where the engine's (1e-12, for results that cancel to near 0) would hide a wrong answer: scores
    that are sums of positive terms can be smaller than that and never cancel (None: the engine's).
    """

    call: str
    params: tuple
    aligned: tuple = ()
    repeat: bool = True
    records: tuple = ()
    skip: tuple = ()
    numpy: bool = True
    abs_tol: float | None = None

    def skips(self, family: str) -> bool:
        """True when ``family`` is excluded by ``skip`` (an exact name or a prefix ending in ``*``)."""
        for entry in self.skip:
            if family == entry or (entry.endswith("*") and family.startswith(entry[:-1])):
                return True
        return False


__all__ = [
    "Domain",
    "Param",
    "Spec",
    "Text",
    "Real",
    "Integer",
    "Flag",
    "Maybe",
    "Seq",
    "Record",
    "Variant",
    "WHITESPACE",
    "SEPARATORS",
    "NUMERIC_DTYPES",
    "char_name",
    "holds_numpy",
]
