"""A line tracer for one call of the learner's code: which lines ran, in order, and what the local variables held.

"Trace this case" runs a failing case's call under :class:`Tracer` (a run plan's ``trace`` option, see
:func:`graders.engine.runner.run`), in the learner's own worker or process, so the same code traces in CPython and
in Pyodide. Only frames of the learner's file are recorded. Each step is one event of such a frame:

    {"line": 12, "func": "claim_support", "depth": 1, "event": "line" | "return" | "exception",
     "locals": [[name, text], ...], "value": text}     # value: what a "return" returns, the exception's type

A ``line`` step is recorded before its line runs, so its locals are what the line starts from. A frame an exception
leaves ends on that ``exception`` step: Python's closing "return" event (with None) is not a step. Values are shown
by :func:`short_repr`, which reads only exact built-in types (and numpy arrays and scalars) and never calls code of
the learner's (no ``__repr__``, no ``__eq__``, no properties): anything else is ``<TypeName object>``.

Bounded: at most ``steps`` steps are recorded, each with at most :data:`LOCALS_LIMIT` names; after that the call
goes on uncounted but traced up to ``steps * RUN_ON`` more line events (so a call that ends soon still returns and
its value is known), then :class:`TraceLimit` stops it. The run's output limit bounds what it prints.
"""

from __future__ import annotations

import sys
from builtins import (
    BaseException,
    dict,
    float,
    frozenset,
    int,
    isinstance,
    len,
    list,
    max,
    min,
    repr,
    set,  # noqa
    str,
    tuple,
    type,
)

from . import values

#: Steps recorded by default, and the most a plan may ask for.
STEPS = 300
MAX_STEPS = 1_000
#: Local variables shown per step, items shown per container, characters per value.
LOCALS_LIMIT = 16
ITEMS = 6
TEXT = 60
#: After the recorded steps, the call may run this many times as many line events more before it is stopped.
RUN_ON = 20

_settrace = sys.settrace
_str, _int, _float, _bool, _none = str, int, float, bool, type(None)
_INF, _NINF = float("inf"), float("-inf")
_type_attr = type.__getattribute__


def _numpy_type(tp) -> bool:
    """A class of numpy's own (not a learner's subclass of one): its methods are numpy's C code."""
    try:
        return _type_attr(tp, "__module__") == "numpy"
    except Exception:
        return False


class TraceLimit(BaseException):
    """Raised into the traced call once it ran far past the recorded steps (an endless loop, most likely)."""


def _cut(text: str, limit: int = TEXT) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def short_repr(x, depth: int = 0) -> str:
    """A short text of ``x`` that never runs the learner's code: exact built-in values as Python writes them (cut),
    numpy arrays and scalars as ``np.array([...])``, anything else ``<TypeName object>``."""
    tp = type(x)
    if tp is _none or tp is _bool or tp is _int:
        text = repr(x)
        return text if len(text) <= 30 else text[:12] + "…" + text[-12:]
    if tp is _float:
        return repr(x) if x == x and x != _INF and x != _NINF else f"float('{x}')"
    if tp is _str:
        return repr(_cut(x, TEXT - 2))
    if tp in (list, tuple, set, frozenset, dict):
        if depth >= 2:
            return (
                {list: "[…]", tuple: "(…)", dict: "{…}"}.get(tp, f"{tp.__name__}(…)")
                if len(x)
                else {list: "[]", tuple: "()", dict: "{}"}.get(tp, f"{tp.__name__}()")
            )
        if tp is dict:
            parts = [f"{short_repr(k, depth + 1)}: {short_repr(v, depth + 1)}" for k, v in _first(x.items(), ITEMS)]
        else:
            parts = [short_repr(v, depth + 1) for v in _first(x, ITEMS)]
        if len(x) > ITEMS:
            parts.append(f"… {len(x) - ITEMS}")
        body = ", ".join(parts)
        if tp is list:
            return _cut(f"[{body}]")
        if tp is tuple:
            return _cut(f"({body},)" if len(x) == 1 else f"({body})")
        if tp is dict:
            return _cut("{" + body + "}")
        return _cut(f"{tp.__name__}({{{body}}})" if len(x) else f"{tp.__name__}()")
    if values.is_ndarray(x) and tp is values._ndarray:
        flat = x.ravel()[:ITEMS].tolist()
        body = ", ".join(short_repr(v, depth + 1) for v in flat) + (f", … {x.size - ITEMS}" if x.size > ITEMS else "")
        shape = "" if x.ndim == 1 else f", shape {tuple(int(n) for n in x.shape)}"
        return _cut(f"np.array([{body}]){shape}", TEXT + 20)
    if values.is_numpy_scalar(x) and _numpy_type(tp):
        return f"np.{values.type_name(tp)}({short_repr(x.item(), depth + 1)})"
    return f"<{values.type_name(tp)} object>"


def _first(items, n):
    out = []
    for item in items:
        if len(out) >= n:
            break
        out.append(item)
    return out


class Tracer:
    """Records the line events of frames compiled from ``filename``; install with :meth:`start`, remove with
    :meth:`stop`. ``steps`` (at most :data:`MAX_STEPS`) bounds what is recorded."""

    def __init__(self, filename: str, steps: int = STEPS):
        self.filename = filename
        self.limit = max(1, min(int(steps), MAX_STEPS))
        self.budget = self.limit * RUN_ON  # line events allowed after the recorded ones
        self.steps: list = []
        self.events = 0  # every event of the learner's frames, recorded or not
        self.truncated = False
        self.stopped = False
        self._depths: dict = {}
        self._raising: set = set()  # frames whose last event was an exception not (yet) caught in them

    def start(self) -> None:
        _settrace(self._call)

    def stop(self) -> None:
        _settrace(None)

    def result(self) -> dict:
        """What the trace found: ``{steps, events, truncated, stopped, limit}`` (JSON-able)."""
        return {
            "steps": self.steps,
            "events": self.events,
            "truncated": self.truncated,
            "stopped": self.stopped,
            "limit": self.limit,
        }

    # the trace functions: the global one picks the learner's frames, the local one records their events

    def _call(self, frame, event, arg):
        if frame.f_code.co_filename != self.filename:
            return None
        back = frame.f_back
        self._depths[id(frame)] = self._depths.get(id(back), 0) + 1 if back is not None else 1
        return self._local

    def _local(self, frame, event, arg):
        if event not in ("line", "return", "exception"):
            return self._local
        key = id(frame)
        if event == "return" and key in self._raising:
            # Python ends a frame that an exception leaves with a "return" of None: not a step, the call raised
            self._raising.discard(key)
            self._depths.pop(key, None)
            return self._local
        if event == "exception":
            self._raising.add(key)
        else:
            self._raising.discard(key)  # a line after the exception: the frame caught it
        self.events += 1
        if len(self.steps) < self.limit:
            step = {
                "line": frame.f_lineno,
                "func": frame.f_code.co_name,
                "depth": self._depths.get(id(frame), 1),
                "event": event,
                "locals": self._locals(frame),
            }
            if event == "return":
                step["value"] = short_repr(arg)
            elif event == "exception":
                step["value"] = values.type_name(arg[0]) if isinstance(arg, tuple) and arg else "?"
            self.steps.append(step)
        else:
            self.truncated = True
            self.budget -= 1
            if self.budget < 0:
                self.stopped = True
                raise TraceLimit()
        if event == "return":
            self._depths.pop(id(frame), None)
        return self._local

    @staticmethod
    def _locals(frame) -> list:
        names = frame.f_locals
        out = []
        for name in names:
            if len(out) >= LOCALS_LIMIT:
                break
            if type(name) is not _str or name.startswith("__"):
                continue
            out.append([name, short_repr(names[name])])
        return out


__all__ = ["Tracer", "TraceLimit", "short_repr", "STEPS", "MAX_STEPS"]
