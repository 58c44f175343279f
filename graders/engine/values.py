"""Values as inert, JSON-able data ("wire" values), and their bounded display.

Everything the engine compares or shows passes through :func:`encode` first. Encoding reads a value with the
interpreter's own primitives, captured when this module is imported: it never calls a learner object's ``__eq__``,
``__repr__``, ``__bool__``, ``__len__`` or ``__iter__``. The only learner code it may run is an attribute getter
(a property) on an object the case expects, which the learner's time limit covers.

Wire forms (lists, first item the tag)::

    ["none"]  ["bool", b]  ["int", "123"]  ["float", 1.5 | "nan" | "inf" | "-inf"]  ["str", s]  ["bytes", hex]
    ["complex", re, im]
    ["list", [w...]]  ["tuple", [w...]]  ["dict", [[kw, vw]...]]  ["set", [w...]]  ["frozenset", [w...]]
    ["ndarray", dtype, kind, shape, [flat values]]   # values: numbers, "nan"/"inf" strings, ints as strings
    ["npscalar", dtype, kind, value]
    ["object", classname, [[attr, w]...]]            # attr value ["absent"] or ["raised", "ExcName"]
    ["foreign", typename, basename]                  # a type the engine does not compare (e.g. an int subclass)
    ["iter", w]                                      # an input only: a generator over the list w
"""

from __future__ import annotations

import builtins as _builtins

# The built-ins used below are bound as this module's globals, out of reach of ``builtins.x = …`` in learner code.
from builtins import (  # noqa: F401
    AttributeError,
    Exception,
    ValueError,
    float,
    int,
    isinstance,
    issubclass,
    len,
    list,
    repr,
    str,
    tuple,
    type,
    callable,
    dict,
    enumerate,
    frozenset,
    range,
    set,
    sorted,
    zip,
    getattr,
    abs,
    max,
    min,
    bool,
    complex,
    iter,
    next,
)
import dataclasses as _dataclasses
import gc as _gc
import itertools as _itertools
import json
import math as _math
import operator as _operator
import re as _re
import sys as _sys
from types import ModuleType as _ModuleType

from .settings import NAME_LIMIT

try:
    import numpy as _np
except ImportError:  # pragma: no cover - both hosts ship numpy
    _np = None

# Primitives captured at import, before any learner code can replace them.
_type = _builtins.type
_len = _builtins.len
_isinstance = _builtins.isinstance
_issubclass = _builtins.issubclass
_callable = _builtins.callable
_getattr = _builtins.getattr
# An object's identity as an int, as id() gives it, but through object.__hash__ (the object's address, rotated): id()
# raises an audit event on every call, and a Check makes ~20 per case, each a call into the engine's audit hook
# (graders/engine/runner.py _install_guard).
_id = _builtins.object.__hash__
_str = _builtins.str
_repr = _builtins.repr
_float = _builtins.float
_int = _builtins.int
_bool = _builtins.bool
_list = _builtins.list
_tuple = _builtins.tuple
_dict = _builtins.dict
_set = _builtins.set
_frozenset = _builtins.frozenset
_range = _builtins.range
_sorted = _builtins.sorted
_enumerate = _builtins.enumerate
_zip = _builtins.zip
_object_getattribute = _builtins.object.__getattribute__
_isnan = _math.isnan
_isinf = _math.isinf
_isfinite = _math.isfinite
_all = _builtins.all
_map = _builtins.map
_dataclass_check = _dataclasses.is_dataclass


def _is_dataclass(tp) -> bool:
    """``dataclasses.is_dataclass(tp)``, False where asking runs learner code that raises (a metaclass's
    ``__getattr__``)."""
    try:
        return _dataclass_check(tp) is True
    except Exception:
        return False


_fields = _dataclasses.fields
_ndarray = _np.ndarray if _np is not None else None
_np_generic = _np.generic if _np is not None else None
_np_float64 = _np.float64 if _np is not None else None


def bind_numpy() -> bool:
    """Take numpy's types now, when this module was imported before numpy could be (a learner worker imports the
    engine first, to run code sooner, and loads numpy after). Only this module keeps numpy's types. True when
    numpy is there."""
    global _np, _ndarray, _np_generic, _np_float64
    try:
        import numpy
    except ImportError:  # pragma: no cover - both hosts ship numpy
        return False
    _np, _ndarray, _np_generic, _np_float64 = numpy, numpy.ndarray, numpy.generic, numpy.float64
    return True


#: dtype -> its text (``str(dtype)`` runs numpy's Python code: thousands of numpy values in one Check add up).
_DTYPE_TEXT: dict = {}


def _dtype_text(dtype) -> str:
    """``short_name(str(dtype))``, remembered per dtype object (numpy's built-in dtypes are one object each, so this
    is an id lookup; the dtype is kept with its text, so its id cannot be reused)."""
    found = _DTYPE_TEXT.get(_id(dtype))
    if found is not None and found[0] is dtype:
        return found[1]
    text = short_name(_str(dtype))
    if _len(_DTYPE_TEXT) < 256:
        _DTYPE_TEXT[_id(dtype)] = (dtype, text)
    return text


#: Largest array or container the engine encodes; bigger ones become ``["foreign", ...]``.
MAX_ITEMS = 200_000
_MAX_DEPTH = 40
#: Most dimensions an array has (numpy's own limit); the judge refuses a wire array with more.
MAX_DIMS = 64
_BASES = (bool, int, float, complex, str, bytes, list, tuple, dict, set, frozenset, type(None))
_bytes = _builtins.bytes
_complex = _builtins.complex


def _float_value(x: float):
    if _isnan(x):
        return "nan"
    if _isinf(x):
        return "inf" if x > 0 else "-inf"
    return x


def short_name(name) -> str:
    """A name learner code chose (a class's ``__name__``, an attribute, a dtype's text), on one line (characters that
    are not printable, line breaks among them, escaped as in a string literal), at most
    :data:`~graders.engine.settings.NAME_LIMIT` characters: it goes into the run result and into the verdict's
    sentences, and the judge refuses longer ones. Anything but text is ``"?"``."""
    if _type(name) is not _str:
        return "?"
    if not name.isprintable():  # a line break or a terminal's escape in a name would start a line of its own
        name = "".join(ch if ch.isprintable() else ascii(ch)[1:-1] for ch in name)
    return name if _len(name) <= NAME_LIMIT else name[: NAME_LIMIT - 1] + "…"


def type_name(tp) -> str:
    """``short_name`` of a class's ``__name__`` (a metaclass may make reading it fail: then ``"?"``)."""
    try:
        return short_name(_type.__getattribute__(tp, "__name__"))
    except Exception:
        return "?"


def _foreign(tp) -> list:
    base = ""
    for candidate in _BASES:
        if candidate is not tp and _issubclass(tp, candidate):
            base = candidate.__name__
            break
    return ["foreign", type_name(tp), base]


def nested_lists(shape, most: int) -> int:
    """How many lists an array of ``shape`` is read as (:func:`plain`: one for each index of every dimension but the
    last), counted up to just past ``most``. An array with no values can still be billions of them (40000 x 40000 x
    0): its encoder and its judge charge them as items, so such a value is too large on both sides."""
    total = 0
    count = 1
    for dim in shape[:-1]:
        count *= dim
        total += count
        if total > most or not count:
            break
    return total


def _array(x, attrs, depth) -> list:
    dtype = x.dtype
    kind = dtype.kind
    cost = x.size + nested_lists(x.shape, MAX_ITEMS)
    if cost > MAX_ITEMS:
        return too_large_marker("ndarray")
    _spend(cost)
    flat = x.reshape(-1).tolist() if kind != "O" else _list(x.reshape(-1))
    if kind == "f":
        if dtype.itemsize <= 8 and _all(_map(_isfinite, flat)):
            values = flat  # tolist() gave Python floats, none of them NaN or infinite
        else:  # NaN or an infinity in it, or a long double (whose tolist() keeps numpy scalars)
            values = [_float_value(_float(v)) for v in flat]
    elif kind in "iu":
        values = _list(_map(_str, flat))
    elif kind == "b":
        values = flat
    elif kind in "US":
        values = [_str(v) for v in flat]
    elif kind == "c":  # a long double complex's parts stay numpy scalars: float() them
        values = [[_float_value(_float(v.real)), _float_value(_float(v.imag))] for v in flat]
    elif kind == "O":
        values = [_encode_at(v, attrs, depth + 1) for v in flat]
    else:
        values = [_str(v) for v in flat]
    return ["ndarray", _dtype_text(dtype), kind, [_int(n) for n in x.shape], values]


def _npscalar(x) -> list:
    kind = x.dtype.kind
    if kind == "f":
        value = _float_value(_float(x))
    elif kind in "iu":
        value = _str(_int(x))
    elif kind == "b":
        value = _bool(x)
    else:
        value = _str(x)
    return ["npscalar", _dtype_text(x.dtype), kind, value]


def _object(x, tp, attrs, depth) -> list:
    classname = type_name(tp)
    names = attrs.get(classname) if attrs else None
    if names is None:
        if _is_dataclass(tp):
            try:  # learner code may have made a field's name anything
                names = [f.name for f in _fields(tp)]
            except Exception:
                names = []
            names = [k for k in names if _type(k) is _str and _len(k) <= NAME_LIMIT]
        else:
            try:
                namespace = _object_getattribute(x, "__dict__")
            except AttributeError:
                namespace = {}
            names = [
                k
                for k in _list(_dict.keys(namespace))
                if _type(k) is _str and not k.startswith("_") and _len(k) <= NAME_LIMIT
            ]
    _spend(_len(names))
    pairs = []
    for name in names:
        try:
            value = _getattr(x, name)
        except AttributeError:
            pairs.append([name, ["absent"]])
            continue
        except Exception as error:  # a learner property raised
            pairs.append([name, ["raised", type_name(_type(error))]])
            continue
        pairs.append([name, _encode_at(value, attrs, depth + 1)])
    return ["object", classname, pairs]


def _items(items: list, attrs, depth: int) -> list:
    """``[_encode_at(v, attrs, depth) for v in items]``, with the plain scalars most results are made of (floats,
    strings, ints, bools, None, of exactly those types) encoded in line: a Check's run encodes thousands of them."""
    _spend(_len(items))
    if depth > _MAX_DEPTH:
        return [_encode_at(v, attrs, depth) for v in items]
    out = []
    append = out.append
    for v in items:
        tp = _type(v)
        if tp is _float:
            append(["float", v if _isfinite(v) else _float_value(v)])
        elif tp is _str:
            append(["str", v])
        elif tp is _int:
            append(_int_wire(v))
        elif tp is _bool:
            append(["bool", v is True])
        elif v is None:
            append(["none"])
        else:
            append(_encode_at(v, attrs, depth))
    return out


#: How many times :func:`encode` met something other than exact built-in values (an object, an array, a subclass, a
#: container too large or too deep, an int too long to write); see :func:`plain_encode`.
_EXOTIC = [0]


#: The most digits of an ``int`` on the wire: CPython's default limit for converting between int and text
#: (``sys.int_info.default_max_str_digits``), which the judge's interpreter keeps whatever learner code set in its own.
INT_DIGITS = 4300


def _int_wire(v) -> list:
    """The wire value of the ``int`` ``v``; one with more than :data:`INT_DIGITS` digits, or more than Python writes
    out (``sys.get_int_max_str_digits()``, which learner code may have lowered or lifted), is like a list too large:
    a value no expected result equals. Writing it would raise ``ValueError`` inside the engine, or give a text the
    judge cannot read back."""
    try:
        text = _int.__repr__(v)
    except ValueError:
        text = None
    if text is None or _len(text) > INT_DIGITS + 1:
        _EXOTIC[0] += 1
        return too_large_marker("int")
    return ["int", text]


def plain_encode(x, attrs: dict | None = None, budget: list | None = None) -> tuple[list, bool]:
    """``encode(x, attrs, budget)`` and whether ``x`` is made of exact built-in values only (lists, tuples, dicts,
    sets, strings, numbers, bools, None, bytes), with no depth or size limit reached. For such a value ``repr`` runs no
    learner code and changes exactly when the encoding does, so it can tell cheaply whether ``x`` changed later."""
    before = _EXOTIC[0]
    value = encode(x, attrs, budget)
    return value, _EXOTIC[0] == before


#: Most items (container members, array values, object attributes) one :func:`encode` writes in all. Parts shared
#: by reference count every time they are reached: ``x = [x] * 10`` eight times over is a few objects and 10**8
#: items, which once ran until the time limit ("an endless loop?") with the learner's function long returned.
ENCODE_BUDGET = 500_000
_BUDGET = [ENCODE_BUDGET]
#: Within one :func:`encode`: (id, depth) of each container written -> (the container, its wire value, its items).
#: A part reached again at the same depth (``[x] * 10``) is charged, not written again.
_MEMO: list = [{}]


class _TooLarge(Exception):
    """Raised inside :func:`encode` when its budget runs out; :func:`encode` turns it into a foreign value."""


def _spend(items: int) -> None:
    _BUDGET[0] -= items
    if _BUDGET[0] < 0:
        raise _TooLarge


def encode(x, attrs: dict | None = None, budget: list | None = None) -> list:
    """Turn ``x`` into a wire value. ``attrs`` maps class names to the attributes to record for their objects.
    At most :data:`ENCODE_BUDGET` items in all: a bigger value is :func:`too_large_marker` of its type.
    ``budget``: ``[items]`` shared by several values (a run's, see runner.RUN_ENCODE_BUDGET), the most this value may
    take when lower, and lowered by what it took (all of it when the value was too large)."""
    saved = _BUDGET[0], _MEMO[0]
    start = ENCODE_BUDGET if budget is None else max(0, min(ENCODE_BUDGET, budget[0]))
    _BUDGET[0], _MEMO[0] = start, {}
    try:
        return _encode_at(x, attrs, 0)
    except _TooLarge:
        _EXOTIC[0] += 1
        _BUDGET[0] = 0
        return too_large_marker(type_name(_type(x)))
    finally:
        if budget is not None:
            budget[0] -= start - max(0, _BUDGET[0])
        _BUDGET[0], _MEMO[0] = saved


def too_large_marker(name: str) -> list:
    """The wire value written in place of a value of type ``name`` too large to write (its budget or a container's
    limit): ``["foreign", "<name> (too large)", ""]``; :func:`too_large` tells it apart."""
    return ["foreign", name + " (too large)", ""]


def too_large(w) -> bool:
    """Whether the wire value ``w`` is a :func:`too_large_marker`."""
    return w[0] == "foreign" and type(w[1]) is str and w[1].endswith(" (too large)")


def too_large_type(w) -> str:
    """The type name a :func:`too_large_marker` stands for (``"int"`` of ``int (too large)``)."""
    return w[1][: -len(" (too large)")]


_MEMO_TYPES = (list, tuple, dict, set, frozenset)


def _encode_at(x, attrs, depth: int) -> list:
    """:func:`encode` below its top: the budget is already running."""
    if _type(x) not in _MEMO_TYPES:
        return _encode_fresh(x, attrs, depth)
    memo = _MEMO[0]
    key = (_id(x), depth)
    seen = memo.get(key)
    if seen is not None and seen[0] is x:
        _spend(seen[2])
        return seen[1]
    before = _BUDGET[0]
    wire = _encode_fresh(x, attrs, depth)
    memo[key] = (x, wire, before - _BUDGET[0])  # holding x: its id cannot be reused while the memo lives
    return wire


def _encode_fresh(x, attrs, depth: int) -> list:
    if depth > _MAX_DEPTH:
        _EXOTIC[0] += 1
        return ["foreign", "nesting too deep", ""]
    tp = _type(x)
    if x is None:
        return ["none"]
    if tp is _bool:
        return ["bool", x is True]
    if tp is _int:
        return _int_wire(x)
    if tp is _float or tp is _np_float64:
        return ["float", _float_value(_float(x))]
    if tp is _str:
        return ["str", _str.__str__(x)]
    if tp is _bytes:
        return ["bytes", _bytes.hex(x)]
    if tp is _complex:
        return ["complex", _float_value(x.real), _float_value(x.imag)]
    if tp is _list or tp is _tuple:
        if _len(x) > MAX_ITEMS:
            _EXOTIC[0] += 1
            return too_large_marker(tp.__name__)
        items = _list.copy(x) if tp is _list else _list(_tuple.__iter__(x))
        return ["list" if tp is _list else "tuple", _items(items, attrs, depth + 1)]
    if tp is _dict:
        if _len(x) > MAX_ITEMS:
            _EXOTIC[0] += 1
            return too_large_marker("dict")
        pairs = _list(_dict.items(x))
        keys = _items([k for k, _ in pairs], attrs, depth + 1)
        return ["dict", [[k, v] for k, v in _zip(keys, _items([v for _, v in pairs], attrs, depth + 1))]]
    if tp is Iterated:  # a generated input (trusted): learner results never hold one
        return ["iter", _encode_at(_list(x.items), attrs, depth + 1)]
    if tp is _set or tp is _frozenset:
        _spend(_len(x))
        items = [_encode_at(v, attrs, depth + 1) for v in _list(tp.__iter__(x))]
        items.sort(key=_repr)
        return ["set" if tp is _set else "frozenset", items]
    _EXOTIC[0] += 1  # everything below is not an exact built-in value
    if _ndarray is not None:
        if tp is _ndarray:
            return _array(x, attrs, depth)
        if _isinstance(x, _np_generic) and tp.__module__ == "numpy":
            return _npscalar(x)
    for base in _BASES:
        if _isinstance(x, base):
            # A subclass of a value type: compared as an object by its attributes when the case expects an object,
            # and never equal to a plain value (so an ``int`` subclass overriding ``__eq__`` cannot pass).
            if attrs and _getattr(tp, "__name__", None) in attrs:
                return _object(x, tp, attrs, depth)
            return _foreign(tp)
    if _ndarray is not None and _isinstance(x, (_ndarray, _np_generic)):
        return _foreign(tp)
    if _isinstance(x, (_builtins.BaseException, _builtins.type, _ModuleType)) or _callable(x):
        return _foreign(tp)  # not values: a module is a namespace (reading numpy's would read all of numpy)
    return _object(x, tp, attrs, depth)


class WireError(ValueError):
    """A wire value that is not well-formed (it came from an interpreter learner code could change)."""


_NUMBER_KINDS = frozenset("fiub")
#: An int as the wire writes it: an optional minus and at most INT_DIGITS ASCII digits.
_INT_TEXT = _re.compile(r"-?[0-9]{1,%d}" % INT_DIGITS)
#: The largest ``int`` a float field may hold (JSON writes some floats as integers): ``float()`` takes it.
_FLOAT_INT_MAX = int(_sys.float_info.max)


def _check_float(v) -> None:
    if type(v) is str:
        if v not in ("nan", "inf", "-inf"):
            raise WireError(f"bad float {v[:20]!r}")
    elif type(v) not in (float, int) or type(v) is bool:
        raise WireError(f"bad float of type {type(v).__name__}")
    elif type(v) is int and not -_FLOAT_INT_MAX <= v <= _FLOAT_INT_MAX:
        raise WireError("bad float: an int beyond the range of floats")


def is_name(v) -> bool:
    """Whether ``v`` is a name as :func:`short_name` writes one (a forged run may carry anything)."""
    return type(v) is str and len(v) <= NAME_LIMIT and v.isprintable()


def _check_int_text(v) -> None:
    if type(v) is not str or not _INT_TEXT.fullmatch(v):
        raise WireError("bad int")


_FLOAT_TYPES = frozenset((float,))


def _fast_array_ok(kind: str, items: list) -> bool:
    """True when an array's values are all well-formed by a check at C speed (the usual case: finite floats, int
    texts, bools); False means "check them one by one"."""
    kinds = set(map(type, items))
    if kind == "f":
        return kinds <= _FLOAT_TYPES  # an int among them is checked on its own (it may be beyond a float's range)
    if kind in "iu":
        return kinds <= {str} and all(map(_INT_TEXT.fullmatch, items))
    if kind == "b":
        return kinds <= {bool}
    return False


def validate(w, *, limit: int = 2_000_000) -> None:
    """Raise :class:`WireError` unless ``w`` is a well-formed wire value (see the module docstring).

    Results are encoded inside the learner's interpreter, so the judge treats them as untrusted: tags and arities
    must be right, an array's value count must equal the product of its shape, and the whole value is bounded in
    size and depth.
    """
    budget = [limit]
    _validate(w, 0, budget)


def _validate(w, depth: int, budget: list) -> None:
    budget[0] -= 1
    if budget[0] < 0 or depth > _MAX_DEPTH + 5:
        raise WireError("too large or too deep")
    if type(w) is not list or not w or type(w[0]) is not str:
        raise WireError("not a tagged list")
    tag, n = w[0], len(w)
    if tag in ("none", "absent"):
        ok = n == 1
    elif tag == "bool":
        ok = n == 2 and type(w[1]) is bool
    elif tag == "int":
        ok = n == 2
        _check_int_text(w[1])
    elif tag == "float":
        ok = n == 2
        _check_float(w[1])
    elif tag == "str":
        ok = n == 2 and type(w[1]) is str
    elif tag == "bytes":
        ok = n == 2 and type(w[1]) is str and len(w[1]) % 2 == 0 and all(c in "0123456789abcdef" for c in w[1])
    elif tag == "complex":
        ok = n == 3
        _check_float(w[1])
        _check_float(w[2])
    elif tag in ("list", "tuple", "set", "frozenset"):
        ok = n == 2 and type(w[1]) is list
        if ok:
            for item in w[1]:
                # plain floats and texts, the items most results are made of, checked in line
                if (
                    type(item) is list
                    and len(item) == 2
                    and ((item[0] == "float" and type(item[1]) is float) or (item[0] == "str" and type(item[1]) is str))
                ):
                    budget[0] -= 1
                    continue
                _validate(item, depth + 1, budget)
            if budget[0] < 0:
                raise WireError("too large or too deep")
    elif tag == "dict":
        ok = n == 2 and type(w[1]) is list
        if ok:
            for pair in w[1]:
                if type(pair) is not list or len(pair) != 2:
                    raise WireError("bad dict item")
                _validate(pair[0], depth + 1, budget)
                _validate(pair[1], depth + 1, budget)
    elif tag == "ndarray":
        ok = (
            n == 5
            and is_name(w[1])
            and type(w[2]) is str
            and len(w[2]) == 1
            and type(w[3]) is list
            and type(w[4]) is list
        )
        if ok:
            if len(w[3]) > MAX_DIMS:
                raise WireError("an array with more dimensions than numpy allows")
            if not all(type(dim) is int and dim >= 0 for dim in w[3]):
                raise WireError("bad shape")
            size = 0 if 0 in w[3] else 1
            for dim in w[3] if size else ():
                size *= dim
                if size > len(w[4]):
                    break  # too many already (and no product of huge dimensions is worked out)
            if size != len(w[4]):
                raise WireError("an array's value count differs from its shape")
            budget[0] -= size + nested_lists(w[3], budget[0])
            if budget[0] < 0:
                raise WireError("too large")
            kind = w[2]
            items = w[4]
            if _fast_array_ok(kind, items):
                return
            for v in items:
                if kind == "f":
                    _check_float(v)
                elif kind in "iu":
                    _check_int_text(v)
                elif kind == "b":
                    if type(v) is not bool:
                        raise WireError("bad bool item")
                elif kind == "c":
                    if type(v) is not list or len(v) != 2:
                        raise WireError("bad complex item")
                    _check_float(v[0])
                    _check_float(v[1])
                elif kind == "O":
                    _validate(v, depth + 1, budget)
                elif type(v) is not str:
                    raise WireError("bad array item")
    elif tag == "npscalar":
        ok = n == 4 and is_name(w[1]) and type(w[2]) is str and len(w[2]) == 1
        if ok:
            if w[2] == "f":
                _check_float(w[3])
            elif w[2] in "iu":
                _check_int_text(w[3])
            elif w[2] == "b":
                ok = type(w[3]) is bool
            else:
                ok = type(w[3]) is str
    elif tag == "object":
        ok = n == 3 and is_name(w[1]) and type(w[2]) is list
        if ok:
            for pair in w[2]:
                if type(pair) is not list or len(pair) != 2 or not is_name(pair[0]):
                    raise WireError("bad attribute")
                _validate(pair[1], depth + 1, budget)
    elif tag == "raised":
        ok = n == 2 and is_name(w[1])
    elif tag == "foreign":
        ok = n == 3 and is_name(w[1]) and is_name(w[2])
    else:
        ok = False
    if not ok:
        raise WireError(f"malformed {tag[:20]!r} value")


#: Wire tags whose value is its second item as it is (decoded in line by :func:`_decode_items`).
_AS_IS = frozenset(("bool", "str"))


def _decode_items(items: list) -> list:
    """``[decode(v) for v in items]``, with the scalars most inputs are made of decoded in line."""
    out = []
    append = out.append
    for v in items:
        tag = v[0]
        if tag == "float":
            append(_float(v[1]))
        elif tag in _AS_IS:
            append(v[1])
        elif tag == "int":
            append(_int(v[1]))
        elif tag == "none":
            append(None)
        else:
            append(decode(v))
    return out


def decode(w):
    """Build a fresh Python value from a wire value (used for call arguments)."""
    tag = w[0]
    if tag == "none":
        return None
    if tag in ("bool", "str"):
        return w[1]
    if tag == "bytes":
        return bytes.fromhex(w[1])
    if tag == "complex":
        return complex(float(w[1]), float(w[2]))
    if tag == "int":
        return int(w[1])
    if tag == "float":
        return float(w[1])  # "nan", "inf" and "-inf" parse too
    if tag == "list":
        return _decode_items(w[1])
    if tag == "tuple":
        return _tuple(_decode_items(w[1]))
    if tag == "dict":
        return {decode(k): decode(v) for k, v in w[1]}
    if tag == "set":
        return {decode(v) for v in w[1]}
    if tag == "frozenset":
        return frozenset(decode(v) for v in w[1])
    if tag == "iter":
        return _generator(decode(w[1]))
    if tag == "ndarray":
        _, dtype, kind, shape, values = w
        if kind == "f":
            flat = [float(v) for v in values]
        elif kind in "iu":
            flat = [int(v) for v in values]
        elif kind == "c":
            flat = [complex(float(a), float(b)) for a, b in values]
        elif kind == "O":
            flat = [decode(v) for v in values]
        else:
            flat = list(values)
        if kind == "O":
            array = _np.empty(len(flat), dtype=object)
            array[:] = flat
        else:
            array = _np.array(flat, dtype=dtype)
        return array.reshape(shape)
    if tag == "npscalar":
        _, dtype, kind, value = w
        if kind == "f":
            value = float(value)
        elif kind in "iu":
            value = int(value)
        return _np.dtype(dtype).type(value)
    raise ValueError(f"cannot decode a {tag!r} wire value")


# ---------------------------------------------------------------------------------------------------------------
# Display: a bounded repr of wire values (the learner's own __repr__ never runs for feedback). What it writes is
# Python source: numpy values as ``np.array([...], dtype=np.float64)`` and ``np.float64(0.5)`` (the ``np`` of
# ``import numpy as np``), NaN and the infinities as ``float('nan')``, ``float('inf')``.


class _Budget:
    def __init__(self, limit: int, more: str, pasteable: bool = False):
        self.left = limit
        self.more = more
        self.pasteable = pasteable
        self.omitted = 0  # items left out, in pasteable mode (said once, in a comment after the value)

    def cut(self, n: int) -> str:
        """The marker for ``n`` items left out: the ``more`` text, or in pasteable mode ``...`` (Python's
        Ellipsis: the value stays valid Python) with ``n`` counted for the comment."""
        if self.pasteable:
            self.omitted += n
            return "..."
        return self.more.format(n=n)


def _fmt_float(v) -> str:
    if isinstance(v, str):
        return {"nan": "float('nan')", "inf": "float('inf')", "-inf": "-float('inf')"}[v]
    return repr(float(v))


def _np_dtype(dtype: str) -> str:
    """A dtype as Python source: ``np.float64``; a dtype whose text is no attribute name (``<U5``) as text."""
    return f"np.{dtype}" if dtype.isidentifier() else repr(dtype)


def _show(w, budget: _Budget, depth: int, max_items: int) -> str:
    if budget.left <= 0:
        return "..." if budget.pasteable else "…"
    tag = w[0]
    if tag == "none":
        out = "None"
    elif tag == "bool":
        out = "True" if w[1] else "False"
    elif tag == "int":
        out = w[1] if len(w[1]) <= 40 else w[1][:18] + "…" + w[1][-18:]
    elif tag == "float":
        out = _fmt_float(w[1])
    elif tag == "str":
        s = w[1]
        out = repr(s if len(s) <= 80 else s[:60] + "…" + s[-10:])
    elif tag == "complex":
        out = repr(complex(float(w[1]), float(w[2])))
    elif tag == "bytes":
        data = bytes.fromhex(w[1])
        out = repr(data if len(data) <= 60 else data[:40]) + ("…" if len(data) > 60 and not budget.pasteable else "")
    elif tag in ("list", "tuple", "set", "frozenset"):
        inner = _seq(w[1], budget, depth, max_items)
        if tag == "list":
            out = f"[{inner}]"
        elif tag == "tuple":
            out = f"({inner},)" if len(w[1]) == 1 else f"({inner})"
        elif tag == "set":
            out = f"{{{inner}}}" if w[1] else "set()"
        else:
            out = f"frozenset({{{inner}}})" if w[1] else "frozenset()"
    elif tag == "iter":
        out = f"(x for x in {_show(w[1], budget, depth + 1, max_items)})"
    elif tag == "dict":
        parts = [
            (lambda k=k, v=v: _show(k, budget, depth + 1, max_items) + ": " + _show(v, budget, depth + 1, max_items))
            for k, v in w[1]
        ]
        out = "{" + _join(parts, budget, max_items) + "}"
    elif tag == "ndarray":
        _, dtype, kind, shape, values = w
        if kind == "f":
            shown = [_fmt_float(v) for v in values[: max_items + 1]]
        elif kind == "b":
            shown = ["True" if v else "False" for v in values[: max_items + 1]]
        elif kind == "O":
            shown = [_show(v, budget, depth + 1, max_items) for v in values[: max_items + 1]]
        elif kind in "US":
            shown = [repr(v) for v in values[: max_items + 1]]
        else:
            shown = [str(v) for v in values[: max_items + 1]]
        if len(values) > max_items:
            shown = shown[:max_items] + [budget.cut(len(values) - max_items)]
        body = ", ".join(shown)
        dtype_text = "object" if kind == "O" else _np_dtype(dtype)
        if len(shape) == 0:
            out = f"np.array({body}, dtype={dtype_text})"
        elif len(shape) != 1:
            out = f"np.array([{body}], dtype={dtype_text}).reshape({tuple(shape)!r})"
        else:
            out = f"np.array([{body}], dtype={dtype_text})"
    elif tag == "npscalar":
        _, dtype, kind, value = w
        shown = _fmt_float(value) if kind == "f" else ("True" if value else "False") if kind == "b" else str(value)
        out = f"{_np_dtype(dtype)}({shown})"
    elif tag == "object":
        parts = [(lambda n=n, v=v: f"{n}={_show(v, budget, depth + 1, max_items)}") for n, v in w[2]]
        out = f"{w[1]}(" + _join(parts, budget, max_items) + ")"
    elif tag == "foreign":
        out = f"<{w[1]} object>" if not w[2] else f"<{w[1]} object, a {w[2]} subclass>"
    elif tag == "absent":
        out = "<missing>"
    elif tag == "raised":
        out = f"<raised {w[1]}>"
    else:
        out = "<?>"
    budget.left -= len(out)
    return out


def _seq(items, budget, depth, max_items):
    return _join([(lambda v=v: _show(v, budget, depth + 1, max_items)) for v in items], budget, max_items)


def _join(thunks, budget: _Budget, max_items: int) -> str:
    shown = []
    for i, thunk in enumerate(thunks):
        if i >= max_items or budget.left <= 0:
            shown.append(budget.cut(len(thunks) - i))
            break
        shown.append(thunk())
    return ", ".join(shown)


def show(w, limit: int = 400, max_items: int = 12, more: str = "… {n} more", pasteable: bool = False) -> str:
    """A bounded repr of a wire value, as Python source: at most about ``limit`` characters. ``more`` says how many
    items were left out (``{n}``), in the reader's language: where they were left out, or with ``pasteable`` once,
    in a comment after the value, the places themselves marked ``...``, so that the text stays valid Python a
    learner can paste (``[0, 1, ...]  # … 38 more``)."""
    budget = _Budget(limit, more, pasteable)
    text = _show(w, budget, 0, max_items)
    if pasteable:
        return f"{text}  # {more.format(n=budget.omitted)}" if budget.omitted else text
    return text if len(text) <= limit + 40 else text[:limit] + "…"


def show_call(call: str, args, kwargs, limit: int = 300, more: str = "… {n} more") -> str:
    """The case's call as Python source text, with bounded argument reprs (``more``: as for :func:`show`, in the
    learner's language)."""
    parts = [show(a, limit=limit // 2, more=more) for a in args[1]]
    parts += [f"{show(k, 40)[1:-1]}={show(v, limit=limit // 2, more=more)}" for k, v in kwargs[1]]
    body = ", ".join(parts)
    if len(body) > limit:
        body = body[:limit] + "…"
    return f"{call}({body})"


def _float_source(v) -> str:
    if isinstance(v, str):
        return {"nan": "float('nan')", "inf": "float('inf')", "-inf": "-float('inf')"}[v]
    return repr(float(v))


def _source(w, uses: set) -> str:
    tag = w[0]
    if tag == "none":
        return "None"
    if tag == "bool":
        return "True" if w[1] else "False"
    if tag == "int":
        return w[1]
    if tag == "float":
        return _float_source(w[1])
    if tag == "str":
        return repr(w[1])
    if tag == "bytes":
        return repr(bytes.fromhex(w[1]))
    if tag == "complex":
        return f"complex({_float_source(w[1])}, {_float_source(w[2])})"
    if tag == "list":
        return "[" + ", ".join(_source(v, uses) for v in w[1]) + "]"
    if tag == "tuple":
        items = [_source(v, uses) for v in w[1]]
        return "(" + items[0] + ",)" if len(items) == 1 else "(" + ", ".join(items) + ")"
    if tag in ("set", "frozenset"):
        inner = ", ".join(_source(v, uses) for v in w[1])
        body = "{" + inner + "}" if w[1] else ""
        return (body or "set()") if tag == "set" else f"frozenset({body})"
    if tag == "iter":
        return f"(x for x in {_source(w[1], uses)})"
    if tag == "dict":
        return "{" + ", ".join(f"{_source(k, uses)}: {_source(v, uses)}" for k, v in w[1]) + "}"
    if tag == "ndarray":
        uses.add("numpy")
        _, dtype, kind, shape, items = w
        if kind == "f":
            parts = [_float_source(v) for v in items]
        elif kind == "b":
            parts = ["True" if v else "False" for v in items]
        elif kind in "iu":
            parts = list(items)
        elif kind == "O":
            parts = [_source(v, uses) for v in items]
        else:
            parts = [repr(v) for v in items]
        dtype_text = "object" if kind == "O" else f"np.{dtype}" if dtype.isidentifier() else repr(dtype)
        if len(shape) == 0:
            return f"np.array({parts[0]}, dtype={dtype_text})"
        text = f"np.array([{', '.join(parts)}], dtype={dtype_text})"
        return text if len(shape) == 1 else f"{text}.reshape({tuple(shape)!r})"
    if tag == "npscalar":
        uses.add("numpy")
        _, dtype, kind, value = w
        shown = _float_source(value) if kind == "f" else ("True" if value else "False") if kind == "b" else str(value)
        return f"np.{dtype}({shown})"
    return f"<{tag}>"


def call_source(call: str, args, kwargs) -> str:
    """The call as complete, runnable Python source (wire ``args``/``kwargs``). When an argument is a numpy value
    the source starts with ``import numpy as np``; the last line is the call expression."""
    uses: set = set()
    parts = [_source(a, uses) for a in args[1]]
    parts += [f"{k[1]}={_source(v, uses)}" for k, v in kwargs[1]]
    line = f"{call}({', '.join(parts)})"
    return ("import numpy as np\n" if "numpy" in uses else "") + line


def plain(w):
    """A wire value as plain JSON data for drawing (plots): numbers stay numbers (NaN and infinities become
    ``None``), arrays become nested lists, tuples and sets lists, objects ``{attribute: value}``."""
    tag = w[0]
    if tag in ("none", "absent", "raised", "foreign"):
        return None
    if tag in ("bool", "str"):
        return w[1]
    if tag == "int":
        return int(w[1])
    if tag == "float":
        return None if isinstance(w[1], str) else float(w[1])
    if tag in ("list", "tuple", "set", "frozenset"):
        return [plain(v) for v in w[1]]
    if tag == "iter":
        return plain(w[1])
    if tag == "dict":
        return {str(plain(k)): plain(v) for k, v in w[1]}
    if tag == "object":
        return {name: plain(v) for name, v in w[2]}
    if tag == "npscalar":
        return plain(["float", w[3]]) if w[2] == "f" else int(w[3]) if w[2] in "iu" else w[3]
    if tag == "ndarray":
        _, _, kind, shape, items = w
        flat = [
            plain(["float", v]) if kind == "f" else int(v) if kind in "iu" else plain(v) if kind == "O" else v
            for v in items
        ]
        if not shape:
            return flat[0] if flat else None
        return _nested(flat, shape)
    return None


def _nested(flat: list, shape) -> list:
    """The flat values of an array (``shape``: at least one dimension) as nested lists, also where a dimension is 0."""
    if len(shape) == 1:
        return flat
    step = 1
    for n in shape[1:]:
        step *= n
    return [_nested(flat[i * step : (i + 1) * step], shape[1:]) for i in range(shape[0])]


#: How :func:`as_json` writes inputs (the runner writes them the same way to see whether a call changed them).
JSON_FORM = {"separators": (",", ":"), "ensure_ascii": False, "allow_nan": False}


def _json_native(w) -> bool:
    tag = w[0]
    if tag in ("none", "bool", "str"):
        return True
    if tag == "int":
        return len(w[1]) < 16
    if tag == "float":
        return not isinstance(w[1], str)
    if tag == "list":
        return all(_json_native(v) for v in w[1])
    if tag == "dict":
        return all(k[0] == "str" and _json_native(v) for k, v in w[1])
    return False


def as_json(args, kwargs) -> str | None:
    """A call's inputs as JSON text ``[[args...], {kwargs}]`` when they hold only JSON types (lists, dicts with str
    keys, str, small int, finite float, bool, None), else ``None``. ``json.loads`` builds fresh inputs from it for
    every call far faster than :func:`decode`; tuples, sets, numpy values and NaN keep the wire form."""
    if not all(_json_native(a) for a in args[1]) or not all(_json_native(v) for _, v in kwargs[1]):
        return None
    return json.dumps([[decode(a) for a in args[1]], {k[1]: decode(v) for k, v in kwargs[1]}], **JSON_FORM)


_json_loads = json.loads
_gc_isenabled, _gc_enable, _gc_disable = _gc.isenabled, _gc.enable, _gc.disable


def parse_json(data):
    """``json.loads`` with the cyclic garbage collector paused. Parsed JSON holds no reference cycles, so collections
    during the parse of a Check's plan or run result (10^5 containers) would only walk them again and again."""
    enabled = _gc_isenabled()
    _gc_disable()
    try:
        return _json_loads(data)
    finally:
        if enabled:
            _gc_enable()


def case_inputs(entry: dict) -> tuple[list, list]:
    """A plan case's inputs as wire values ``(args, kwargs)``, whichever form the plan holds them in (the typed
    ``args``/``kwargs``, or the ``json`` text of :func:`as_json`)."""
    if "args" in entry:
        return entry["args"], entry["kwargs"]
    args, kwargs = json.loads(entry["json"])
    return encode(tuple(args)), encode(dict(kwargs))


def is_ndarray(x) -> bool:
    """True for a numpy array (of any subclass)."""
    return _ndarray is not None and _isinstance(x, _ndarray)


def memory_owner(x):
    """The object whose memory ``x`` uses: for a numpy array that is a view (a slice, ``arr[:]``, a reshape), the
    array at the end of its ``base`` chain, read from numpy's own descriptor (a subclass cannot pretend); else ``x``.
    Two results with one owner are one object to their callers: changing one changes the other."""
    if not is_ndarray(x):
        return x
    base_of = _ndarray.base.__get__
    for _ in range(64):
        try:
            base = base_of(x)
        except Exception:  # noqa: BLE001 - a foreign buffer: x owns what it shows
            return x
        if base is None or not _isinstance(base, _ndarray):
            return x if base is None else base
        x = base
    return x


def is_numpy_scalar(x) -> bool:
    """True for a numpy scalar (immutable, like a Python number)."""
    return _np_generic is not None and _isinstance(x, _np_generic)


_IMMUTABLE_LEAVES = (int, float, complex, str, bytes, bool, type(None), frozenset)
_repeat = _itertools.repeat
#: What a result may hold that its caller can change in place; these must be new objects on every call.
_CONTAINERS = (list, dict, set, bytearray)
#: How many objects of one result :func:`mutable_parts` looks at, at most (results are small; this bounds a
#: hostile one).
_WALK_LIMIT = 20000


def mutable_parts(result) -> list:
    """Every part of ``result`` that its caller could change in place: the result itself (unless immutable) and,
    at any depth, the lists, dicts, sets, bytearrays and arrays inside it, reached through tuples, lists, dict
    values and objects' attributes. A new call must not hand out any of them again."""
    is_array = is_ndarray
    leaves = _IMMUTABLE_LEAVES + ((_np_generic,) if _np_generic is not None else ())
    parts, seen, todo = [], set(), [(result, True)]
    while todo and len(seen) < _WALK_LIMIT:
        item, top = todo.pop()
        if _id(item) in seen or _isinstance(item, leaves):
            continue
        seen.add(_id(item))
        if _isinstance(item, _CONTAINERS) or is_array(item):
            parts.append(item)
        elif top and _type(item) is not tuple:
            parts.append(item)  # an object returned (or handed out in a returned tuple) as a whole
        try:  # a learner's container or class may run code here; what it hides or breaks is not walked
            if _type(item) is tuple or _isinstance(item, (list, set)):
                # most inputs and results are flat lists of numbers or strings: checked at C speed, nothing to walk
                if not _all(_map(_isinstance, item, _repeat(leaves))):
                    inner = top and _type(item) is tuple
                    for x in item:
                        # a tuple of plain values (a (doc, score) pair) holds nothing to change: not walked
                        if not (_type(x) is tuple and _all(_map(_isinstance, x, _repeat(leaves)))):
                            todo.append((x, inner))
            elif _isinstance(item, dict):
                if not _all(_map(_isinstance, item.values(), _repeat(leaves))):
                    todo.extend((x, False) for x in item.values())
            elif not is_array(item) and not _isinstance(item, (type, _ModuleType)):
                # an object's own state; not a class's or a module's (namespaces, not values: numpy's alone leads to
                # tens of thousands of objects)
                state = _getattr(item, "__dict__", None)
                if _type(state) is dict:
                    todo.extend((x, False) for x in state.values())
        except Exception:
            continue
    return parts


class Iterated:
    """A generated input passed as a generator over ``items`` (``(x for x in [...])``, wire ``["iter", ...]``): a
    task that names the containers it takes (a list, a tuple, an array) is tried with a one-pass iterable too, which
    code that turns whatever comes into a list accepts. Only the engine makes these (trusted inputs); :func:`decode`
    gives a fresh generator each time."""

    __slots__ = ("items",)

    def __init__(self, items):
        self.items = list(items)

    def __repr__(self) -> str:
        return f"(x for x in {self.items!r})"


def _generator(items):
    """A generator over ``items``, as ``(x for x in items)`` makes one."""
    yield from items


def as_passed(now, w) -> bool:
    """Whether ``now``, the encoding of inputs after a call, is what the wire inputs ``w`` encode to as the call got
    them: ``w`` itself, or where ``w`` holds a generator, that generator as an object of its own (going through it is
    no change to the caller's data)."""
    return now == w or now == encode(decode(w))


def input_parts(args, kwargs) -> list:
    """:func:`mutable_parts` of a call's inputs ``(args, kwargs)``. Most calls get numbers, flat lists of numbers or
    strings, and arrays of numbers: their parts (``kwargs`` itself and each such list or array) are listed here
    without the walk; anything else is walked."""
    leaves = _IMMUTABLE_LEAVES + ((_np_generic,) if _np_generic is not None else ())
    parts = [kwargs]
    for argument in (*args, *kwargs.values()):
        tp = _type(argument)
        if tp in _LEAF_TYPES:
            continue
        if tp is _list and _all(_map(_isinstance, argument, _repeat(leaves))):
            parts.append(argument)
        elif tp is _ndarray and argument.dtype.kind != "O":
            parts.append(argument)
        elif not _isinstance(argument, leaves):  # a numpy scalar, say, is a leaf as well
            return mutable_parts((args, kwargs))
    return parts


#: Exact types :func:`input_parts` passes over (what :func:`mutable_parts` takes for leaves, of exactly these types).
_LEAF_TYPES = frozenset({int, float, complex, str, bytes, bool, type(None)})


def input_ids(args, kwargs) -> frozenset:
    """The ids of a call's own arguments and everything mutable inside them: a result that keeps one of these
    holds the caller's object, which is shared with another result only when the caller passed it twice."""
    return frozenset(_id(part) for part in input_parts(args, kwargs))


_is = _operator.is_
_bytearray = _builtins.bytearray


def snapshot(args, kwargs) -> tuple[frozenset, list]:
    """What a call's inputs hold before the call: ``(input ids, states)``, where the ids are :func:`input_ids`'s
    and each state records one mutable part cheaply (a list's items, a dict's items, an array's bytes). With
    :func:`changed` after the call it tells whether the call changed its arguments, without writing them out
    again. The inputs are the engine's own fresh objects; reading them runs no learner code."""
    parts = input_parts(args, kwargs)
    states = []
    for part in parts:
        tp = _type(part)
        if tp is _list:
            states.append((part, _list.copy(part)))
        elif tp is _dict:
            states.append((part, _list(_dict.items(part))))
        elif tp is _set:
            states.append((part, _frozenset(part)))
        elif tp is _bytearray:
            states.append((part, _bytes(part)))
        elif tp is _ndarray and part.dtype.kind != "O":
            states.append((part, (part.dtype, part.shape, part.tobytes(), part.flags.writeable)))
        else:
            states.append((part, None))  # compared by its encoding instead
    return frozenset(_id(part) for part in parts), states


def changed(states: list, wire_args, wire_kwargs, args, kwargs) -> bool:
    """Whether the inputs a :func:`snapshot` recorded differ now. A part only counts as changed when it holds
    other objects (or bytes) than before and its encoding differs from the wire inputs the call was made with,
    so putting back an equal value is no change, as before. An array made read-only (or writable) has changed
    whatever it holds: the caller's own writes to it now fail, which no encoding shows."""
    look = False  # whether the encodings must be compared
    for part, state in states:
        if state is None:
            look = True
            continue
        tp = _type(part)
        if tp is _list:
            same = _len(part) == _len(state) and _all(_map(_is, part, state))
        elif tp is _dict:
            now = _list(_dict.items(part))
            same = _len(now) == _len(state) and _all(k is k2 and v is v2 for (k, v), (k2, v2) in _zip(now, state))
        elif tp is _set:
            same = _frozenset(part) == state
        elif tp is _bytearray:
            same = _bytes(part) == state
        else:
            dtype, shape, data, writeable = state
            if part.flags.writeable != writeable:
                return True
            same = part.dtype == dtype and part.shape == shape and part.tobytes() == data
        look = look or not same
    return look and not (as_passed(encode(args), wire_args) and as_passed(encode(kwargs), wire_kwargs))
