"""Run a learner's code: as a fresh module, with captured output, and with the interpreter restored afterwards.

:func:`run` is the only place learner code executes. It takes the learner's source and a *plan*: either
``{"mode": "run"}`` (execute the module, as ``__main__``) or a check plan from :func:`graders.engine.prepare.prepare`
(execute the module as ``main``, then call every case); a run plan may carry ``cases`` too, an ``after`` snippet (run
after the module; the value of its last line is shown) and ``trace`` (the snippet runs under the line tracer of
:mod:`graders.engine.trace`: "Trace this case"). The plan holds the cases' inputs, never their expected values. The
result is JSON-able: status, output, a traceback trimmed to the learner's own lines, and one outcome per case, each
encoded with :mod:`graders.engine.values`.

While learner code runs, the ``graders`` package cannot be imported (a meta-path blocker, and its modules are taken
out of ``sys.modules``). Afterwards the interpreter is put back: ``sys.modules``, every module's namespace (so
``builtins.len = …`` or ``numpy.array_equal = …`` do not outlive the run), ``sys`` hooks and streams, the recursion
limit, the warning filters, and the process-wide settings a namespace does not hold (the garbage collector, the int
digits limit, the working directory, the SIGINT handler).
"""

from __future__ import annotations

import builtins
import gc
import itertools
import operator

# Bind the built-ins this module uses as its own globals: a learner's ``builtins.isinstance = …`` cannot reach them.
from builtins import (
    BaseException,
    KeyboardInterrupt,
    LookupError,
    SystemExit,
    TypeError,  # noqa
    EOFError,
    ModuleNotFoundError,
    callable,
    dict,
    getattr,
    hasattr,
    int,
    isinstance,
    len,
    list,
    setattr,
    sorted,
    str,
    tuple,
    type,
)
import io
import json
import linecache
import os
import signal
import sys
import time
import traceback
import types
import warnings

from . import trace as _trace, values
from .settings import (
    EXIT_TEXT_LIMIT,
    MESSAGE_LIMIT,
    OUTPUT_LIMIT,
    RECURSION_DEPTH,
    RUN_RESULT_LIMIT,
    TRACEBACK_LIMIT,
)

#: The file name learner code is compiled under; tracebacks keep only frames from it.
FILENAME = "main.py"
#: The file name of a run plan's ``after`` snippet (the checkpoint's example, or a case to try).
AFTER_FILENAME = "example.py"
#: How much of the ``after`` snippet's value is shown (characters, items per container).
VALUE_LIMIT = 20_000
VALUE_ITEMS = 1_000
#: The youngest generation's collection threshold during a run (Python's default: 700); see :func:`run`.
RUN_GC_YOUNG = 10_000
#: Modules imported before the snapshot, so that learners importing them later do not load them for the first time
#: inside the sandboxed run.
PRELOAD = (
    "math",
    "random",
    "statistics",
    "collections",
    "dataclasses",
    "typing",
    "itertools",
    "functools",
    "json",
    "re",
    "fractions",
    "decimal",
    "copy",
    "numpy",
    "numpy.linalg",
    "numpy.random",
)
#: The seed ``random`` and numpy's global generator start every Check from: code that draws from them (a random tie
#: break, a shuffled copy) makes the same draws on every Check, so the same code gets the same verdict, in CPython and
#: Pyodide alike (both are the same Mersenne Twister). A Run keeps the interpreter's own random state.
CHECK_RANDOM_SEED = 0
#: After how many cases of a Check :func:`run` reports the outcomes so far to ``on_progress``: a failure among the
#: first cases can then be shown while the others still run (the page's early verdict, web/src/runtime.js); what
#: comes after the last mark is left to the result.
PROGRESS_AT = (32, 256, 1024)
_SYS_ATTRS = (
    "path",
    "meta_path",
    "path_hooks",
    "stdout",
    "stderr",
    "stdin",
    "displayhook",
    "excepthook",
    "breakpointhook",
    "unraisablehook",
    "setrecursionlimit",
)

_BaseException = BaseException
_setrecursionlimit, _getframe = sys.setrecursionlimit, sys._getframe
_KeyboardInterrupt = KeyboardInterrupt
_TraceLimit = _trace.TraceLimit
_SystemExit = SystemExit
_monotonic = time.monotonic
_catch_warnings = warnings.catch_warnings
_simplefilter = warnings.simplefilter
_warnings_module = warnings
_all, _map, _is = builtins.all, builtins.map, operator.is_
# What Sandbox puts back of the interpreter's process-wide settings, bound here so learner patches cannot reach them.
_gc_enable, _gc_disable, _gc_isenabled = gc.enable, gc.disable, gc.isenabled
_gc_get_threshold, _gc_set_threshold = gc.get_threshold, gc.set_threshold
_gc_get_debug, _gc_set_debug, _gc_module = gc.get_debug, gc.set_debug, gc  # a module: a run's copy keeps it as it is
_get_int_digits, _set_int_digits = sys.get_int_max_str_digits, sys.set_int_max_str_digits
_getcwd, _chdir = os.getcwd, os.chdir
_getsignal, _signal, _SIGINT = signal.getsignal, signal.signal, signal.SIGINT
_encode = values.encode
_decode = values.decode
# JSON inputs are read and written by the C scanner and encoder, created here: the Python layer of the json module
# looks up builtins such as len and isinstance at call time, and learner code may have replaced those by then.
# (CPython and Pyodide both have _json.)
from _json import (  # noqa: E402
    encode_basestring as _c_basestring,
    encode_basestring_ascii as _c_ascii,
    make_encoder as _c_encoder,
    make_scanner as _c_scanner,
)


def _no_default(value):
    raise TypeError("not a JSON value")


_scan = _c_scanner(json.JSONDecoder())
_write = _c_encoder(None, _no_default, _c_basestring, None, ":", ",", False, False, False)
_join = "".join


class Output(io.TextIOBase):
    """A text stream that keeps what is written, up to a shared limit, and forwards batches to ``on_output``."""

    def __init__(self, name: str, sink: "OutputSink"):
        self.name = name
        self._sink = sink

    def writable(self) -> bool:
        return True

    def write(self, s) -> int:
        if type(s) is not str:
            raise TypeError(f"write() argument must be str, not {type(s).__name__}")
        self._sink.add(self.name, s)
        return len(s)

    def flush(self) -> None:
        self._sink.flush()

    def isatty(self) -> bool:
        return False


class OutputSink:
    """Collects stdout and stderr under one character limit; batches go to an optional callback
    ``on_output(stream, text)``, which hears ``("truncated", "")`` as soon as the limit cuts output off."""

    def __init__(self, on_output=None, limit: int = OUTPUT_LIMIT):
        self.parts = {"stdout": [], "stderr": []}
        self.used = 0
        self.limit = limit
        self.truncated = False
        self._on_output = on_output
        self._pending: list[tuple[str, str]] = []
        self._pending_size = 0
        self._last_flush = float("-inf")  # the first write goes out at once
        self._signalled = False  # on_output("truncated", "") was called

    def add(self, stream: str, s: str) -> None:
        if not s:
            return
        room = self.limit - self.used
        if room <= 0:
            if not self.truncated:
                self.truncated = True
                self.flush()  # say so now: a program that keeps printing may never end by itself
            return
        if len(s) > room:
            s = s[:room]
            self.truncated = True
        self.used += len(s)
        self.parts[stream].append(s)
        if self._on_output is not None:
            self._pending.append((stream, s))
            self._pending_size += len(s)
            if self.truncated or self._pending_size > 8192 or _monotonic() - self._last_flush > 0.05:
                self.flush()

    def flush(self) -> None:
        """Forward pending output; once the limit was hit, also call ``on_output("truncated", "")`` (once)."""
        if self._on_output is None:
            return
        if not self._pending:
            self._signal_truncated()
            return
        pending, self._pending, self._pending_size = self._pending, [], 0
        self._last_flush = _monotonic()
        merged: list[list[str]] = []
        for stream, s in pending:
            if merged and merged[-1][0] == stream:
                merged[-1][1] += s
            else:
                merged.append([stream, s])
        for stream, s in merged:
            self._on_output(stream, s)
        self._signal_truncated()

    def _signal_truncated(self) -> None:
        if self.truncated and not self._signalled:
            self._signalled = True
            self._on_output("truncated", "")

    def text(self, stream: str) -> str:
        return "".join(self.parts[stream])


class _NoInput(io.TextIOBase):
    """stdin for learner code: ``input()`` gets EOF at once instead of hanging."""

    def readable(self) -> bool:
        return True

    def readline(self, size: int = -1) -> str:
        raise EOFError("input() has no keyboard here: give your function its data as arguments instead")

    def read(self, size: int = -1) -> str:
        raise EOFError("input() has no keyboard here: give your function its data as arguments instead")


class _GraderBlocker:
    """A meta-path finder that refuses the ``graders`` package while learner code runs."""

    def find_spec(self, name, path=None, target=None):
        if name == "graders" or name.startswith("graders."):
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None


class Sandbox:
    """A snapshot of the interpreter's shared state, put back by :func:`_restore` after learner code ran."""

    def __init__(self):
        for name in PRELOAD:
            try:
                __import__(name)
            except ImportError:
                pass
        self.modules = dict(sys.modules)
        self.namespaces = {}
        for name, m in self.modules.items():
            if isinstance(m, types.ModuleType):
                saved = m.__dict__
                self.namespaces[name] = (dict(saved), tuple(saved), tuple(saved.values()), type(m))
        self.sys_attrs = {name: getattr(sys, name) for name in _SYS_ATTRS if hasattr(sys, name)}
        self.sys_lists = {name: list(getattr(sys, name)) for name in ("path", "meta_path", "path_hooks")}
        self.recursion_limit = sys.getrecursionlimit()
        self.trace = sys.gettrace()
        self.profile = sys.getprofile()
        self.warning_filters = list(warnings.filters)
        self.settings = (_gc_isenabled(), _gc_get_threshold(), _get_int_digits(), _getcwd(), _getsignal(_SIGINT))
        # the collector's list of what it saved (gc.DEBUG_SAVEALL) and its length now: see _hide_garbage
        self.garbage = (_gc_get_debug(), _gc_module.garbage, len(_gc_module.garbage))
        # the collector's callbacks: one learner code adds would run at a collection after the guard is off
        self.gc_callbacks = (_gc_module.callbacks, list(_gc_module.callbacks))
        self.hidden: dict[str, types.ModuleType] = {}

    def hide_graders(self) -> None:
        """Take ``graders`` out of reach: out of ``sys.modules`` and blocked for import."""
        for name in list(sys.modules):
            if name == "graders" or name.startswith("graders."):
                self.hidden[name] = sys.modules.pop(name)
        sys.meta_path.insert(0, _GraderBlocker())


def _hide_garbage() -> None:
    """Give learner code under the guard another list for ``gc.garbage``. With ``gc.DEBUG_SAVEALL`` set (which raises
    no audit event) the collector saves whatever it would free into its own list, frames included, and a frame leads
    through ``f_back`` to the engine's: the frame of learner code that kept its own traceback in a reference cycle,
    say. The collector's list stays in the sandbox, out of reach, and :func:`_restore` empties what it saved."""
    _gc_module.garbage = []


_module_dict = types.ModuleType.__dict__["__dict__"].__get__
_set_class = object.__dict__["__class__"].__set__
_ModuleSpec = type(sys.__spec__)


def _restore(sandbox: Sandbox) -> None:
    """Put ``sys.modules``, module namespaces, ``sys`` hooks and streams, warning filters and the process-wide settings
    back as ``sandbox`` saw them. A function, not a method of Sandbox: :func:`run` calls it by name, not through the
    class, which learner code can reach and change (see :func:`_isolated`)."""
    debug, garbage, kept = sandbox.garbage
    _gc_set_debug(debug)  # first: no later collection saves anything
    callbacks, items = sandbox.gc_callbacks
    callbacks[:] = items  # nor calls learner code (the collector's own list, whatever gc.callbacks names now)
    del garbage[kept:]  # what the collector saved while learner code ran (see _hide_garbage)
    for name, value in sandbox.sys_attrs.items():
        setattr(sys, name, value)
    for name, items in sandbox.sys_lists.items():
        current = getattr(sys, name)
        current[:] = items
    sys.setrecursionlimit(sandbox.recursion_limit)
    # Put back a trace or profile function learner code changed. A C profiler (cProfile) is no callable that
    # setprofile takes: it is left as it is when nothing changed it.
    if sys.gettrace() is not sandbox.trace:
        sys.settrace(sandbox.trace if callable(sandbox.trace) else None)
    if sys.getprofile() is not sandbox.profile:
        sys.setprofile(sandbox.profile if callable(sandbox.profile) else None)
    modules = sys.modules
    kept = []  # modules the run imported and that stay
    for name in list(modules):
        if name in sandbox.modules:
            continue
        # Keep modules the run imported from real files (C extensions cannot be loaded twice); drop the rest, and
        # any whose spec cannot be read without running learner code (a property, a swapped __class__).
        try:
            spec = _module_dict(modules[name]).get("__spec__") if _type(modules[name]) is types.ModuleType else None
            origin = object.__getattribute__(spec, "origin") if _type(spec) is _ModuleSpec else None
        except BaseException:  # noqa: B036 - nothing learner code raises may leave the interpreter half restored
            origin = None
        if not (
            _type(origin) is str and origin not in ("built-in", "frozen", FILENAME) and not name.startswith("graders")
        ):
            del modules[name]
        else:
            kept.append(name)
    for name, module in sandbox.modules.items():
        if modules.get(name) is not module:
            modules[name] = module
    for name, (saved, keys, items, kind) in sandbox.namespaces.items():
        module = sandbox.modules[name]
        if _type(module) is not kind:  # learner code gave it a class of its own (whose __dict__ could be a property)
            _set_class(module, kind)
        namespace = _module_dict(module)
        # Identity checks in C loops: no learner __eq__ runs, and an unchanged module costs next to nothing.
        if len(namespace) != len(keys) or not all(map(_is, map(namespace.get, keys, _repeat(_MISSING)), items)):
            namespace.clear()
            namespace.update(saved)
    # A submodule the run imported and that stays is an attribute of its package again, as the import system made
    # it: the package's namespace was just put back without it. Otherwise ``import numpy.ma`` finds it in sys.modules
    # but ``np.ma`` does not, and numpy's lazy ``__getattr__`` imports it again forever (np.median reads np.ma): a
    # later run in the same interpreter (a shrink round, a rehearsal) died of a RecursionError.
    for name in kept:
        package, _, child = name.rpartition(".")
        if package in sandbox.namespaces:
            _module_dict(sandbox.modules[package]).setdefault(child, modules[name])
    modules.update(sandbox.hidden)
    warnings.filters[:] = sandbox.warning_filters
    _restore_settings(sandbox)


def _restore_settings(sandbox: Sandbox) -> None:
    """The process-wide settings learner code can change without touching a namespace: the garbage collector
    (on or off, thresholds), the longest int Python writes out, the working directory, and the SIGINT handler
    (the host's Stop arrives as SIGINT: a learner's ``signal.signal(SIGINT, SIG_IGN)`` must not outlive its run)."""
    enabled, thresholds, digits, cwd, handler = sandbox.settings
    _gc_set_threshold(*thresholds)
    if enabled:
        _gc_enable()
    else:
        _gc_disable()
    _set_int_digits(digits)
    try:
        if _getcwd() != cwd:
            _chdir(cwd)
    except OSError:  # the learner removed it: stay where the run left off
        pass
    if handler is not None and _getsignal(_SIGINT) is not handler:
        try:
            _signal(_SIGINT, handler)
        except ValueError:  # not the main thread: signal handlers can only be set there
            pass


_MISSING = object()
_is = operator.is_
_repeat = itertools.repeat


_MAX_RUNS = 60  # runs of learner frames shown in a traceback: the outermost and innermost halves


def _frames_of(tracebacks) -> list:
    """For each traceback of ``tracebacks``, its frames as ``(code, lasti, line)``, outermost first, without the first
    (the engine's own, where it caught the exception). The guard's hook reads them (``werkbank.frames``, see
    :func:`_install_guard`), in one section for all of them, as it does for ``traceback``'s walks under the guard."""
    found: list = []
    _audit(_FRAMES_EVENT, tuple(tracebacks), found)
    return [rows[1:] for rows in found]


def _frame_lines(code, lineno: int) -> list[str]:
    """A frame as CPython 3.12's ``traceback`` writes one: where it is, then its source line stripped (from the
    engine's own copy of the learner's file in ``linecache``)."""
    filename = code.co_filename
    lines = ['  File "{}", line {}, in {}\n'.format(filename, lineno, code.co_name)]
    entry = linecache.cache.get(filename)
    source = entry[2] if type(entry) is tuple and len(entry) == 4 and type(entry[2]) is list else ()
    text = source[lineno - 1] if 0 < lineno <= len(source) and type(source[lineno - 1]) is str else ""
    if text.strip():
        lines.append("    {}\n".format(text.strip()))
    return lines


def _learner_frames(frames: list) -> tuple[list[str], int | None]:
    """The formatted learner frames of a traceback's ``frames`` (from :func:`_frames_of`) and the innermost one's line.

    Runs of the same line are collapsed before any source line is looked up, as CPython prints them, so the
    traceback of a recursion a million frames deep is as quick to make as a short one.
    """
    runs: list = []  # [code, lineno, count]
    for code, _lasti, lineno in frames:
        if code.co_filename not in (FILENAME, AFTER_FILENAME):
            continue
        if runs and runs[-1][0] is code and runs[-1][1] == lineno:
            runs[-1][2] += 1
        else:
            runs.append([code, lineno, 1])
    if not runs:
        return [], None
    shown = runs if len(runs) <= _MAX_RUNS else runs[: _MAX_RUNS // 2] + [None] + runs[-(_MAX_RUNS // 2) :]
    in_main = [run for run in runs if run[0].co_filename == FILENAME]
    line = in_main[-1][1] if in_main else None
    # The same stack formats to the same lines: a Check's invalid inputs mostly raise at one place.
    key = tuple((_id(entry[0]), entry[1], entry[2]) if entry else None for entry in shown)
    cached = _FRAMES.get(key)
    if cached is not None and cached[0] == [entry[0] if entry else None for entry in shown]:
        return list(cached[1]), line
    lines: list[str] = []
    for entry in shown:
        if entry is None:
            lines.append("  …\n")
            continue
        code, lineno, count = entry
        lines.extend(_frame_lines(code, lineno) * min(count, 3))
        if count > 3:
            lines.append(f"  [Previous line repeated {count - 3} more times]\n")
    if len(_FRAMES) < 64:
        _FRAMES[key] = ([entry[0] if entry else None for entry in shown], lines)
    return list(lines), line


#: Formatted learner frames by stack, within one run (run() clears it: the code objects belong to that run).
_FRAMES: dict = {}


_traceback_of = BaseException.__traceback__.__get__  # the real one: a learner class may override the attribute


def format_error(error: BaseException, frames=None) -> tuple[str, int | None]:
    """The traceback of ``error`` trimmed to the learner's own lines, and the editor line to highlight. Never raises:
    a learner exception whose attributes fail to read (a property, a metaclass) gets what could be read of it.
    ``frames``: its traceback's frames as :func:`_frames_of` read them (read here otherwise: a run reads all of its
    tracebacks' at once)."""
    try:
        return _format_error(error, frames)
    except BaseException:  # noqa: B036 - learner code (a property, __str__) raising anything, SystemExit too
        return f"{values.type_name(type(error))}: <the traceback could not be shown>\n", None


def _format_error(error: BaseException, frames=None) -> tuple[str, int | None]:
    # compile's own errors only: a learner's subclass may make its attributes anything
    if _type(error) in (SyntaxError, IndentationError, TabError) and error.filename in (FILENAME, AFTER_FILENAME):
        text = "".join(traceback.format_exception_only(type(error), error))
        return _cut(text), error.lineno if error.filename == FILENAME else None
    if frames is None:
        frames = _frames_of([_traceback_of(error, type(error))])[0]
    shown, line = _learner_frames(frames)
    lines = ["Traceback (most recent call last):\n"] if shown else []
    lines.extend(shown)
    try:
        lines.extend(_exception_only(error))
    except BaseException:  # noqa: B036 - a learner exception whose __str__ fails (even with SystemExit)
        lines.append(f"{values.type_name(type(error))}: <message could not be shown>\n")
    return _cut("".join(lines)), line


_exception_attributes = BaseException.__dict__["__dict__"].__get__  # an exception's own attributes (C: no lookup)


def _exception_only(error: BaseException) -> list[str]:
    """``traceback.format_exception_only(type(error), error)``. Most of a Check's raise outcomes are built-in
    exceptions without notes (its invalid inputs' ValueErrors, a thousand in a Check): their one line is made here
    directly, as that function makes it, ~15x faster; anything else goes through it."""
    tp = _type(error)
    if _is_builtin_class(tp) and not issubclass(tp, (SyntaxError, BaseExceptionGroup)):
        own = _exception_attributes(error, tp)
        if "__notes__" not in own:
            try:
                message = _BUILTIN_STR[_id(tp)](error)
            except BaseException:  # noqa: B036 - an argument's __str__ failed: that function says so in its way
                message = None
            if _type(message) is str:
                return [f"{tp.__qualname__}: {message}\n" if message else f"{tp.__qualname__}\n"]
    return traceback.format_exception_only(tp, error)


def _cut(text: str) -> str:
    """A traceback within :data:`TRACEBACK_LIMIT`: its start and its end (the judge refuses a longer one)."""
    if len(text) <= TRACEBACK_LIMIT:
        return text
    keep = TRACEBACK_LIMIT * 2 // 5
    return text[:keep] + "\n…\n" + text[-keep:]


class _Missing(LookupError):
    """The first name of a call's path is not defined (its only argument: that name, from the plan)."""


def resolve(namespace: dict, path: str):
    """The object ``path`` (a name or a dotted path like ``"Report.from_predictions"``) names in ``namespace``;
    ``LookupError`` when the first name is missing, ``AttributeError`` (or whatever a learner's attribute lookup
    raises) for a missing attribute."""
    head, *rest = path.split(".")
    if head not in namespace:
        raise _Missing(head)
    obj = namespace[head]
    for part in rest:
        obj = getattr(obj, part)
    return obj


#: SystemExit's own ``code`` (a learner subclass may make ``code`` a property that raises).
_system_exit_code = SystemExit.code.__get__


def _exit_code(code):
    """``SystemExit.code`` as a JSON value: an int, bool or None as it is, anything else as its text, at most
    :data:`EXIT_TEXT_LIMIT` characters. Never raises: an int too long to write, or an object whose ``__str__`` fails or
    returns no text, gets a description instead (the host writes the result as JSON after the run)."""
    kind = type(code)
    if kind is int:
        try:
            int.__repr__(code)
            return code
        except ValueError:
            return f"<int of more than {_get_int_digits()} digits>"
    if kind is bool or code is None:
        return code
    try:
        text = str(code)
    except BaseException:  # noqa: B036 - learner code: any exception, SystemExit included
        text = None
    if type(text) is not str:
        return f"<{values.type_name(kind)} object>"
    return text if len(text) <= EXIT_TEXT_LIMIT else text[:EXIT_TEXT_LIMIT] + "…"


#: The built-in part of a built-in exception class's MRO, by the class's id (most raised exceptions are ValueError and
#: kin; built-in classes live as long as the interpreter, so their ids stay theirs).
_BUILTIN_MRO: dict = {}
#: The classes of the builtins module by id, taken when the engine is imported, before any learner code: a learner
#: class that names its module "builtins", replaces builtins.ValueError, or whose metaclass makes it compare equal to
#: one, is not one of them. Looked up by id, so no learner ``__hash__`` or ``__eq__`` runs.
_BUILTIN_CLASSES = {values._id(v): v for v in vars(builtins).values() if isinstance(v, type)}
#: The __str__ of each built-in exception class, by id, taken then too.
_BUILTIN_STR = {
    values._id(v): v.__str__ for v in vars(builtins).values() if isinstance(v, type) and issubclass(v, BaseException)
}


class _Recursion:
    """Learner code runs at most RECURSION_DEPTH calls deeper than where the engine calls it (settings.py says why),
    inside ``with _LEARNER_DEPTH:``; on leaving, the engine's own work gets the interpreter's usual room back (encoding
    a nested result needs it). Learner code gets :func:`_capped_setrecursionlimit` as ``sys.setrecursionlimit``."""

    def __init__(self) -> None:
        self.ceiling = 0
        self.usual = sys.getrecursionlimit()
        #: The depth of the frame that enters, when :func:`run` set it (under the guard no frame can be read).
        self.depth = None

    def __enter__(self) -> None:
        depth = self.depth
        if depth is None:
            depth = _depth(_getframe(1))
        self.ceiling = depth + RECURSION_DEPTH
        _setrecursionlimit(self.ceiling)

    def __exit__(self, *exc) -> None:
        _setrecursionlimit(self.usual)


def _depth(frame) -> int:
    """How many frames deep ``frame`` is."""
    depth = 0
    while frame is not None:
        depth += 1
        frame = frame.f_back
    return depth


_LEARNER_DEPTH = _Recursion()


def _capped_setrecursionlimit(limit, /):
    """``sys.setrecursionlimit`` for learner code: lower is taken, higher stops at the engine's ceiling."""
    ceiling = _LEARNER_DEPTH.ceiling
    if isinstance(limit, int) and not isinstance(limit, bool) and ceiling and limit > ceiling:
        limit = ceiling
    _setrecursionlimit(limit)


def _is_builtin_class(cls) -> bool:
    return _BUILTIN_CLASSES.get(_id(cls)) is cls


def _exception_outcome(error: BaseException) -> dict:
    tp = type(error)
    mro = _BUILTIN_MRO.get(_id(tp)) if _is_builtin_class(tp) else None
    if mro is None:
        try:
            classes = list(_type.__getattribute__(tp, "__mro__"))
        except Exception:
            classes = [BaseException, object]
        mro = [values.type_name(c) for c in classes if _is_builtin_class(c)][:64]
        if _is_builtin_class(tp):
            _BUILTIN_MRO[_id(tp)] = mro
    mro = list(mro)
    try:
        # a built-in class's own __str__ (C code no learner can patch: "[Errno 2] No such file or directory: 'x'"
        # rather than the bare arguments), BaseException's for any other class
        own_str = _BUILTIN_STR.get(_id(tp)) if _is_builtin_class(tp) else None
        message = (own_str or BaseException.__str__)(error)
    except BaseException:  # noqa: B036 - a learner __str__ of an argument, whatever it raises: no message
        message = ""
    if _type(message) is not str:  # a str subclass a learner's __str__ returned: its own slicing runs their code
        message = str.__str__(message) if isinstance(message, str) else ""
    return {
        "kind": "raise",
        "exc": values.type_name(type(error)),
        "builtin_mro": mro,
        "message": message[:MESSAGE_LIMIT],
    }


#: The start of numpy's floating-point warnings ("divide by zero encountered in divide", "invalid value encountered in
#: scalar divide", ...). numpy reads them from the CPU's floating-point status flags, which WebAssembly does not have,
#: so Pyodide never issues them: recorded in CPython only, they gave the same code a fail on the command line and a
#: pass in the browser. Neither records them. Warnings numpy issues itself ("Mean of empty slice") are recorded.
_FP_WARNINGS = (
    "divide by zero encountered",
    "invalid value encountered",
    "overflow encountered",
    "underflow encountered",
)
_exception_args = BaseException.args.__get__


def _floating_point_warning(record) -> bool:
    """Whether a caught warning is one of numpy's floating-point warnings (:data:`_FP_WARNINGS`); reads the message's
    args through the base class, so no learner ``__str__`` runs."""
    message = record.message
    if record.category is not RuntimeWarning or _type(message) is not RuntimeWarning:
        return False
    args = _exception_args(message)
    return len(args) == 1 and _type(args[0]) is str and args[0].startswith(_FP_WARNINGS)


class WarningLog:
    """Records the warnings of each of many calls, as ``catch_warnings(record=True)`` with ``simplefilter("always")``
    around every call would: a context manager around the calls (it puts the warnings module back on exit), and
    :meth:`arm` before each call. Setting that up is a large share of a cheap call's cost, so it is done once, and
    again before a call only when the call before it left the warnings module changed (learner code that set filters
    of its own, replaced ``showwarning``): each call starts from the same state."""

    def __enter__(self) -> "WarningLog":
        self._outer = _catch_warnings(record=True)
        self.log = self._outer.__enter__()
        _simplefilter("always")
        self._filters = _warnings_module.filters
        self._entries = list(self._filters)
        self._show = (_warnings_module.showwarning, _warnings_module._showwarnmsg_impl)
        return self

    def arm(self) -> list:
        """The (empty) list the next call's warnings are appended to."""
        w = _warnings_module
        filters = w.filters
        if (
            filters is not self._filters
            or len(filters) != len(self._entries)
            or not _all(_map(_is, filters, self._entries))
            or w.showwarning is not self._show[0]
            or w._showwarnmsg_impl is not self._show[1]
        ):
            self._filters[:] = self._entries
            w.filters = self._filters
            w.showwarning, w._showwarnmsg_impl = self._show
            w._filters_mutated()
        self.log.clear()
        return self.log

    def __exit__(self, *exc) -> None:
        self._outer.__exit__(*exc)


def call_case(
    namespace: dict,
    case: dict,
    attrs: dict,
    kept: list | None = None,
    refills: dict | None = None,
    warning_log: WarningLog | None = None,
    budget: list | None = None,
    handed: list | None = None,
) -> dict:
    """Call one case's function in ``namespace`` with fresh arguments; the outcome as data. A returned value is
    appended to ``kept`` (with its outcome, input ids and, for plain values, a cheap reading) so :func:`recheck` can
    read it again later. ``refills``: the run's :func:`refill_state`, so a case with ``refill`` gets an earlier call's
    lists and dicts again. ``warning_log``: the open :class:`WarningLog` of a run of many calls; without one, the
    call sets up its own. ``budget``: the run's ``[items]`` left to write returned values with (see
    :data:`RUN_ENCODE_BUDGET`), lowered by what this call's value took. ``handed``: where a call that left its
    arguments as they were is noted, so :func:`recheck_arguments` can look at them again after the last call."""
    if warning_log is None:
        with WarningLog() as own:
            return call_case(namespace, case, attrs, kept, refills, own, budget, handed)
    try:
        target = resolve(namespace, case["call"])
    except _Missing as missing:
        return {"kind": "missing", "name": missing.args[0]}
    except Exception:  # an attribute the learner's class lacks, or whose lookup (a metaclass) raised
        return {"kind": "missing", "name": case["call"]}
    if not callable(target):
        return {"kind": "not_callable", "name": case["call"]}
    plain = case.get("json")  # JSON-typed inputs: read and compared at C speed
    if plain is not None:
        args, kwargs = _scan(plain, 0)[0]
        args = tuple(args)
    else:
        args = _decode(case["args"])
        kwargs = _decode(case["kwargs"])
    if refills is not None:
        args = _refill(refills, case, args)
    # A result may keep its own call's arguments (a report that holds its inputs); only a call that gets an earlier
    # call's objects again (``refill``) could then hand out what an earlier result holds, so only there are the
    # arguments' ids needed: every other call's arguments are fresh objects no other call has seen.
    refill = _type(case.get("refill")) is str
    if plain is not None:  # a change shows in the JSON text written again after the call
        inputs, states = values.input_ids(args, kwargs) if refill else _NO_IDS, None
    else:
        inputs, states = values.snapshot(args, kwargs)
        if not refill:
            inputs = _NO_IDS
    counts = _held(args, kwargs) if handed is not None else None
    caught = warning_log.arm()
    try:
        with _LEARNER_DEPTH:
            result = target(*args, **kwargs)
    except (_KeyboardInterrupt, _SystemExit):
        raise
    except _BaseException as error:
        outcome = _exception_outcome(error)
        outcome["error"] = error  # formatted by run() once the interpreter is restored
        if counts is not None:
            _drop_locals(error)
    else:
        value, builtin_only = values.plain_encode(result, attrs, budget)
        outcome = {"kind": "return", "value": value}
        if _returns_argument(result, args, kwargs):
            outcome["aliased"] = True
        if kept is not None:
            reading = _reading(result) if builtin_only else None
            kept.append((outcome, result, inputs, reading))
    # An outcome says only what happened: no "warnings" when there were none, no "mutated" when the arguments were
    # left as they were (a Check's result holds a thousand outcomes, most of them plain).
    if caught:
        kinds = {values.type_name(w.category) for w in caught if not _floating_point_warning(w)}
        if kinds:
            outcome["warnings"] = sorted(kinds)[:WARNING_KINDS_KEPT]
    mutated = _arguments_changed(case, args, kwargs, states)
    if mutated:
        outcome["mutated"] = True
    elif counts is not None and _held(args, kwargs) != counts and not refill:
        handed.append((outcome, case, args, kwargs, states))  # something still holds an argument: see it again later
    return outcome


#: Kinds of warnings an outcome names, at most: a case that forbids warnings fails on one, and hundreds of kinds per
#: call (each a class learner code made) would only make the run's result large.
WARNING_KINDS_KEPT = 20


def _returns_argument(result, args: tuple, kwargs: dict) -> bool:
    """Whether ``result`` is one of the call's own arguments that can be changed (a list, dict, set or bytearray, or
    an array, also one that shares an argument array's memory: ``arr[:]``, ``np.asarray(arr)``), rather than a new
    object: a caller who changes the result changes their input too. Values that cannot change (numbers, numpy
    scalars, strings, tuples) may come back as they came. A result that *holds* an argument (a report keeping its
    inputs) is left to :func:`recheck`."""
    array = values.is_ndarray(result)
    if not array and _type(result) not in _CHANGEABLE:
        return False
    owner = values.memory_owner(result)
    for argument in (*args, *kwargs.values()):
        if argument is result or (array and values.is_ndarray(argument) and values.memory_owner(argument) is owner):
            return True
    return False


#: The containers of a call's arguments that a caller could see change (arrays aside: see values.is_ndarray).
_CHANGEABLE = frozenset({list, dict, set, bytearray})


def _drop_locals(error: BaseException) -> None:
    """Let the finished frames of ``error``'s traceback go of their local variables (its lines stay, for the
    traceback): otherwise they hold the call's arguments to the end of the run, which :func:`_held` would take for
    the learner's code keeping them (and every such call's arguments would be written out again after the last).
    The guard's hook clears them: under the guard no other code may reach a traceback's frames."""
    try:
        _audit(_FRAMES_EVENT, (_traceback_of(error, _type(error)),), [], True)
    except _BaseException:  # noqa: B036 - a learner __del__ run as a local goes: only its arguments are seen again
        pass


_getrefcount = sys.getrefcount
_SCALARS = frozenset({str, bytes, int, float, complex, bool, type(None)})


def _held(args: tuple, kwargs: dict) -> list:
    """How many references each of a call's arguments that could be changed has, and the lists and dicts right inside
    a list or dict argument that starts with one (one query's ranking in a list of rankings): more after the call than
    before means something kept it (the learner's cache, a result that holds its inputs, an exception's frames), so a
    later call could still change it; the rest nobody but the engine can reach."""
    counts = []
    for a in (*args, *kwargs.values()):
        kind = _type(a)
        if kind in _SCALARS:
            continue
        counts.append(_getrefcount(a))
        items = a if kind is list else list(a.values()) if kind is dict else ()
        # only where the first item is a list or dict (rankings, rows of records): a list of numbers, the long
        # arguments of most checkpoints, is not walked on every call
        if items and _type(items[0]) in _INNER:
            counts.append(sum([_getrefcount(x) for x in items if _type(x) in _INNER]))
    return counts


#: The inner parts of an argument whose references :func:`_held` counts.
_INNER = frozenset({list, dict})


def _arguments_changed(case: dict, args: tuple, kwargs: dict, states) -> bool:
    """Whether a call's arguments differ from the inputs it was made with (see :func:`call_case`)."""
    plain = case.get("json")
    if plain is None:
        return values.changed(states, case["args"], case["kwargs"], args, kwargs)
    try:
        return _join(_write([list(args), kwargs], 0)) != plain
    except _BaseException:
        return True  # something that is no JSON value was put into the arguments


def recheck_arguments(handed: list, handed_on=frozenset()) -> None:
    """Look again, after the last call, at the arguments of every call that left them as they were: a function that
    keeps a caller's list and changes it during a later call changes data its caller still holds, which no check
    within one call sees. Such an outcome is marked ``mutated_later``. ``handed_on``: as for :func:`recheck` (a later
    case refilled those arguments itself)."""
    for outcome, case, args, kwargs, states in handed:
        if case["id"] not in handed_on and _arguments_changed(case, args, kwargs, states):
            outcome["mutated_later"] = True


_NO_IDS = frozenset()


def refill_state(cases) -> dict:
    """The refill rule's state for one pass over a plan's cases, the same for learners, mistake fingerprints and
    mutants: a case with ``refill`` gets the very list and dict objects an earlier case was called with, refilled in
    place with its own contents (a caller reusing its buffers). A plain dict, and functions over it (:func:`_refill`,
    :func:`handed_on`): a Check builds it after learner code ran, which can change any class it reaches, and the
    methods of a class are looked up there."""
    return {c["refill"]: None for c in cases if _type(c.get("refill")) is str}


def _refill(state: dict, case: dict, args: tuple) -> tuple:
    """The positional arguments to call ``case`` with; kept in ``state`` when a later case refills this one."""
    args = refilled(state.get(case.get("refill")), args)
    if case["id"] in state:
        state[case["id"]] = args
    return args


def handed_on(state: dict) -> frozenset:
    """Ids of the cases that ran and whose arguments a later case gets again."""
    return frozenset(case_id for case_id, args in state.items() if args is not None)


def refilled(earlier: tuple | None, args: tuple) -> tuple:
    """``args`` to pass to a case that refills an earlier call's arguments: where both are lists or both dicts,
    the earlier object itself, its contents replaced by the new ones (the same object, refilled); else the new
    value. ``earlier`` is ``None`` when that call has not run: then ``args`` as they are."""
    if earlier is None or len(earlier) != len(args):
        return args
    out = []
    for old, new in zip(earlier, args):
        if _type(old) is list and _type(new) is list:
            old[:] = new
            new = old
        elif _type(old) is dict and _type(new) is dict:
            old.clear()
            old.update(new)
            new = old
        out.append(new)
    return tuple(out)


def recheck(kept: list, attrs: dict, handed_on=frozenset(), budget: list | None = None) -> None:
    """Read every kept result again after the last call; where it changed since it was returned (a result shared
    with a later call, or a cache the function filled in later), record the new reading as ``later``. A result that
    is (or holds) the very object an earlier call returned is marked ``shared``: the caller of one would change
    the other. ``handed_on``: ids of cases whose arguments a later case refilled; their results may read those
    arguments (a report that keeps its inputs), so a change there is the caller's doing, not a fault. ``budget``: as
    for :func:`call_case`, for the values read again."""
    owners: dict = {}
    for number, (outcome, result, inputs, reading) in enumerate(kept):
        if values.too_large(outcome["value"]):
            pass  # nothing to compare a later reading with (and writing it again could take long)
        elif reading is None or _reading(result) != reading:  # built-in values only: unchanged when their repr is
            again = _encode(result, attrs, budget)
            if again != outcome["value"] and outcome.get("id") not in handed_on:
                outcome["later"] = again
        for part in values.mutable_parts(result):
            owner = _id(values.memory_owner(part))  # a view of an array shares that array's memory
            if _id(part) in inputs or owner in inputs:
                continue  # the caller's own argument, kept by the result: the same object only if the caller reused it
            first = owners.setdefault(owner, number)
            if first != number:
                outcome["shared"] = True


_id = values._id  # id() without its audit event (see values._id)
_type = builtins.type


def _reading(result) -> str | None:
    """``repr`` of a result made of exact built-in values (see :func:`values.plain_encode`): C code only, and it
    changes exactly when the result's encoding does. None when it cannot be made (a very deep or huge value)."""
    try:
        return _builtin_repr(result)
    except (RecursionError, ValueError, MemoryError):
        return None


_builtin_repr = builtins.repr


#: How deeply learner code may nest one expression, in :func:`too_deeply_nested`'s measure: Python's parser and
#: compiler recurse once per level, and a browser worker's stack is far smaller than a process's (Pyodide in Chromium
#: overflows it, a fatal crash, at 200 nested brackets or ~3000 operators in a row, where CPython goes on or raises).
#: Refused the same way in every runtime, well below both, well above any program written by hand.
NESTING_LIMIT = 1000
#: What one bracket inside another counts towards :data:`NESTING_LIMIT` (a level of the parser's grammar is ~15
#: recursive calls deep; one more operator in a chain, one level of the tree, counts 1).
BRACKET_WEIGHT = 20
_OPENING, _CLOSING = frozenset("([{"), frozenset(")]}")
#: Names that nest what follows them (``not not x``, ``lambda: lambda: ...``, ``a if b else c if d else ...``).
_NESTING_WORDS = frozenset({"not", "lambda", "await", "if", "else", "and", "or", "in", "is", "for", "yield"})


def too_deeply_nested(source: str, filename: str = FILENAME) -> SyntaxError | None:
    """A SyntaxError (with its line) for the first expression of ``source`` that nests deeper than
    :data:`NESTING_LIMIT`, or None. Read from the tokens, which Python makes without recursion: each bracket open
    around a point counts :data:`BRACKET_WEIGHT`, and each operator, nesting keyword or closed bracket (a call, an
    index) since the last comma, ``=`` or end of statement at its bracket level counts 1. Source that does not
    tokenize is left to ``compile``, which says what is wrong."""
    import tokenize

    levels = [0]  # per open bracket, the chain counted since its last separator (the first: outside every bracket)
    kinds = [""]
    chain = 0  # sum(levels)
    try:
        for token in tokenize.generate_tokens(io.StringIO(source).readline):
            kind, text = token.type, token.string
            if kind == tokenize.NEWLINE:
                levels, kinds, chain = [0], [""], 0
                continue
            if kind == tokenize.OP:
                if text in _OPENING:
                    levels.append(0)
                    kinds.append(text)
                elif text in _CLOSING:
                    if len(levels) > 1:
                        chain -= levels.pop()
                        kinds.pop()
                    levels[-1] += 1
                    chain += 1
                elif text in (",", ";") or (text == ":" and kinds[-1] in ("{", "[")) or _assigns(text):
                    chain -= levels[-1]
                    levels[-1] = 0
                else:
                    levels[-1] += 1
                    chain += 1
            elif kind == tokenize.NAME and text in _NESTING_WORDS:
                levels[-1] += 1
                chain += 1
            else:
                continue
            if chain + BRACKET_WEIGHT * (len(levels) - 1) > NESTING_LIMIT:
                line, column = token.start
                return SyntaxError(
                    f"expression nested too deeply (over {NESTING_LIMIT} operators in a row, or "
                    f"{NESTING_LIMIT // BRACKET_WEIGHT} brackets inside one another): split it into smaller steps",
                    (filename, line, column + 1, token.line),
                )
    except (tokenize.TokenError, SyntaxError):
        return None
    return None


def _assigns(text: str) -> bool:
    """Whether the operator ``text`` is ``=`` or an augmented assignment (``+=``), which ends a chain."""
    return text.endswith("=") and text not in ("==", "!=", "<=", ">=")


def _compile_after(snippet: str):
    """``(statements code, last expression code or None)`` of a plan's ``after`` snippet."""
    import ast

    deep = too_deeply_nested(snippet, AFTER_FILENAME)
    if deep is not None:
        raise deep
    tree = ast.parse(snippet, AFTER_FILENAME)
    last = None
    if tree.body and isinstance(tree.body[-1], ast.Expr):
        last = compile(ast.Expression(tree.body.pop().value), AFTER_FILENAME, "eval", dont_inherit=True)
    return compile(tree, AFTER_FILENAME, "exec", dont_inherit=True), last


def _tracer(plan: dict):
    """The :class:`graders.engine.trace.Tracer` a run plan asks for (``"trace": {"steps": N}``), or ``None``: the
    ``after`` snippet (a case's call) then runs under it, and the result gets its ``trace``."""
    wanted = plan.get("trace")
    if type(wanted) is not dict:
        return None
    steps = wanted.get("steps", _trace.STEPS)
    return _trace.Tracer(FILENAME, steps if type(steps) is int else _trace.STEPS)


def _report(on_progress, outcomes: list, start: int, end: int) -> None:
    """Hand ``on_progress`` the outcomes of cases ``start`` to ``end`` as data (an exception as its type and message:
    tracebacks are written once the interpreter is restored). Learner code is still loaded and may have patched what
    the host encodes with: whatever goes wrong here is dropped, the run's result stays the only one that counts."""
    part = [{k: v for k, v in o.items() if k != "error"} for o in outcomes[start:end]]
    try:
        on_progress(part)
    except Exception:
        pass


#: The audit event the engine turns its guard on and off with (see :func:`_install_guard`).
_GUARD_EVENT = "werkbank.guard"
#: The audit event :func:`_walk_tb` asks the guard's hook with for where a traceback's frames are.
_FRAMES_EVENT = "werkbank.frames"
#: Audit events refused to code running under the guard: the ways to a frame (a running frame's locals hold the
#: run's outcomes), to every object (the collector's lists), to code that would run beside the engine's and watch it
#: (trace, profile and monitoring callbacks, threads, another audit hook, another process that would outlive the run
#: and hold its result pipe) and to raw memory (ctypes). Besides these, reading a frame from a traceback, generator or
#: coroutine, and replacing a function's code.
_GUARD_REFUSED = frozenset(
    {
        "sys._getframe",
        "sys._current_frames",
        "sys._current_exceptions",
        "gc.get_objects",
        "gc.get_referrers",
        "gc.get_referents",
        "sys.settrace",
        "sys.setprofile",
        "sys.addaudithook",
        "sys.monitoring.register_callback",
        "_thread.start_new_thread",
        "os.fork",
        "os.forkpty",
        "os.posix_spawn",
        "os.spawn",
        "os.exec",
        "os.system",
        "subprocess.Popen",
    }
)
_FRAME_ATTRIBUTES = frozenset({"tb_frame", "gi_frame", "cr_frame", "ag_frame", "f_back"})
_audit = sys.audit


def _install_guard() -> None:
    """Install the audit hook behind the guard, once per interpreter (audit hooks cannot be removed).

    A Check turns the guard on before the learner's module runs and off once its result is made (:func:`_run`), with a
    token only that run holds: ``sys.audit("werkbank.guard", token, "on" | "off")``. While it is on, the events of
    :data:`_GUARD_REFUSED` raise RuntimeError in whatever code raised them, so learner code can reach neither the
    engine's frames nor its objects, and cannot watch it run. Frames are read in one place, the hook itself:
    ``sys.audit("werkbank.frames", tracebacks, found)`` appends to the list ``found``, for each traceback of the tuple
    ``tracebacks``, the ``(code, lasti, line)`` of its frames, never a frame (for :func:`_frames_of` and
    :func:`_walk_tb`); with a third argument ``True`` it then lets those frames go of their variables, as
    ``traceback.clear_frames`` does (for :func:`_drop_locals`). The hook keeps its state in its own closure, which
    nothing in Python can reach."""
    state = [None, False]  # the token of the run the guard is on for; frames may be read now (only in read())
    refused, frame_attributes, event_name, frames_event = _GUARD_REFUSED, _FRAME_ATTRIBUTES, _GUARD_EVENT, _FRAMES_EVENT
    starts = str.startswith
    refusal = RuntimeError
    traceback_type, row_list, tuple_type = types.TracebackType, list, tuple
    collecting, pause, resume = gc.isenabled, gc.disable, gc.enable
    suspendable = 0x20 | 0x100 | 0x200  # inspect.CO_GENERATOR, CO_COROUTINE, CO_ASYNC_GENERATOR (not imported)
    # Every name the hook and read() use is bound here: a global (or a built-in) is looked up where learner code can
    # rebind it (the engine's module is within its reach), and the hook must run none of its code.
    type_of, length = builtins.type, builtins.len

    class FrameRefusal(RuntimeError, ValueError):
        """What ``sys._getframe`` raises under the guard: a RuntimeError as every refusal, and a ValueError as its own
        "call stack is not deep enough", so code written to go on without frames does (logging's lookup of where it
        was called from; typing's and enum's of the calling module)."""

    FrameRefusal.__name__ = FrameRefusal.__qualname__ = "RuntimeError"  # to the learner, the refusal it always was
    FrameRefusal.__module__ = "builtins"

    def read(tracebacks, found, frames=None):
        # The frames event: (code, lasti, lineno) of each traceback's frames, never a frame. C attributes of C objects,
        # an exact tuple iterated and plain lists appended to: no one's Python code runs while frames may be read, and
        # the collector is paused, so no finalizer does either. (Nor does a signal handler: the hosts run a Check
        # where learner code can set none, off the main thread on the command line, and a page ends a Check's worker
        # rather than interrupting it. A caller that runs a Check on its main thread must not let one run.)
        # ``frames``: a list of the hook's own that gets the frames too, to clear once reading is over.
        was_collecting = collecting()
        pause()
        reading, state[1] = state[1], True
        try:
            for tb in tracebacks:
                rows = []
                while type_of(tb) is traceback_type:
                    frame = tb.tb_frame
                    rows.append((frame.f_code, tb.tb_lasti, tb.tb_lineno))
                    if frames is not None:
                        frames.append(frame)
                    tb = tb.tb_next
                found.append(rows)
        finally:
            state[1] = reading
            if was_collecting:
                resume()

    def clear(frames):
        # After read(), with frames no longer readable: what a variable's finalizer runs meets the guard as any learner
        # code does. A running frame cannot be cleared (RuntimeError); a generator's is left as it is, since clearing
        # it would close a generator its code may still hold.
        while frames:
            frame = frames.pop()
            if not frame.f_code.co_flags & suspendable:
                try:
                    frame.clear()
                except refusal:
                    pass

    def hook(event, args):
        if event == event_name:
            token, what = args
            if what == "on":
                if state[0] is not None:
                    raise refusal("the guard is on already")
                state[0], state[1] = token, False
            elif token is state[0] and token is not None and what == "off":
                state[0], state[1] = None, False
            return
        if event == frames_event:
            if length(args) in (2, 3) and type_of(args[0]) is tuple_type and type_of(args[1]) is row_list:
                frames = row_list() if length(args) == 3 and args[2] is True else None
                read(args[0], args[1], frames)
                if frames is not None:
                    clear(frames)
            return
        if state[0] is None or state[1]:
            return
        if event in refused or starts(event, "ctypes."):
            message = f"{event} is not available while a Check runs your code (a Run allows it)"
            raise FrameRefusal(message) if event == "sys._getframe" else refusal(message)
        if (event == "object.__getattr__" and args[1] in frame_attributes) or (
            event == "object.__setattr__" and args[1] == "__code__"
        ):
            raise refusal(f"{args[1]} is not available while a Check runs your code (a Run allows it)")

    sys.addaudithook(hook)


def _seed_random() -> None:
    """Start ``random`` and ``numpy.random`` (both preloaded) from :data:`CHECK_RANDOM_SEED`."""
    for name in ("random", "numpy.random"):
        module = sys.modules.get(name)
        seed = getattr(module, "seed", None)
        if callable(seed):
            seed(CHECK_RANDOM_SEED)


def _guard_on():
    """Turn the guard on for this run; its token."""
    token = object()
    _audit(_GUARD_EVENT, token, "on")
    return token


_install_guard()


class _FrameView:
    """A frame as the ``traceback`` module reads one, for code a Check runs: where it is (``f_code``, ``f_lineno``,
    ``f_lasti``), with no variables and no frame around it. Under the guard a real frame would lead, through
    ``f_back``, to the engine's."""

    __slots__ = ("f_code", "f_lineno", "f_lasti")
    f_back = None

    def __init__(self, code, lineno, lasti):
        self.f_code, self.f_lineno, self.f_lasti = code, lineno, lasti

    @property
    def f_globals(self) -> dict:
        return {}

    @property
    def f_locals(self) -> dict:
        return {}

    def __repr__(self) -> str:
        return f"<frame view: {self.f_code.co_filename}, line {self.f_lineno}, in {self.f_code.co_name}>"


def _walk_tb(tb):
    """``traceback.walk_tb`` while a Check runs learner code: its frames as :class:`_FrameView`, which the guard's
    hook reads for it. So ``traceback.print_exc()``, ``format_exc()`` and ``logging``'s ``exc_info`` work in a Check as
    in a Run, and no frame reaches learner code."""
    found: list = []
    _audit(_FRAMES_EVENT, (tb,), found)
    for code, lasti, lineno in found[0] if found else ():
        yield _FrameView(code, lineno, lasti), lineno


def _walk_tb_with_full_positions(tb):
    """``traceback._walk_tb_with_full_positions`` (what ``TracebackException`` and ``extract_tb`` walk) in a Check,
    from :func:`_walk_tb`."""
    for frame, lineno in _walk_tb(tb):
        positions = traceback._get_code_position(frame.f_code, frame.f_lasti)
        yield frame, ((lineno,) + positions[1:] if positions[0] is None else positions)


def _isolated():
    """A copy of this module's and :mod:`values`' functions for one run, with namespaces of their own, and its
    :func:`_run`.

    Learner code can always find the engine's modules (through a class's methods, or an object the run hands it) and
    rebind a name in them. The copy's functions are made from the code captured when the engine was imported
    (:data:`_FUNCTIONS`), over copies of the two namespaces, each with a copy of the built-ins as they were then;
    nothing learner code can reach refers to them, so what it rebinds, in the engine or in ``builtins``, the run never
    looks up. Containers in the namespaces are copied too (caches, counters, tables of functions, two levels deep).
    Classes stay as they are, and learner code can change them: after it ran, the run creates and calls none whose
    methods see its data (its state is plain dicts and lists, handled by functions: ``_restore``, ``_refill``); the
    others only see what learner code has anyway (its output, a recursion limit)."""
    builtins_copy = dict(_BUILTINS)
    clones = {}
    for module in _ISOLATED:
        clone = types.ModuleType(module.__name__)
        namespace = clone.__dict__
        namespace.update(builtins_copy)
        namespace.update(module.__dict__)
        namespace["__builtins__"] = builtins_copy
        clones[_id(module.__dict__)] = clone
    made = {}
    for key, (function, code, defaults, kwdefaults) in _FUNCTIONS.items():
        if function.__name__ in _HANDED_OUT:
            continue  # learner code holds it: its namespace must not be the copy's
        copy = types.FunctionType(code, clones[_id(function.__globals__)].__dict__, function.__name__, defaults)
        if kwdefaults is not None:
            copy.__kwdefaults__ = dict(kwdefaults)
        made[key] = copy
    modules = {_id(module): clones[_id(module.__dict__)] for module in _ISOLATED}

    def own(value, depth=0):
        kind = type(value)
        if kind is types.FunctionType:
            return made.get(_id(value), value)
        if kind is types.ModuleType:
            return modules.get(_id(value), value)
        if depth < 2 and kind in (list, tuple, set, frozenset):
            return kind(own(item, depth + 1) for item in value)
        if depth < 2 and kind is dict:
            return {k: own(v, depth + 1) for k, v in value.items()}
        return value

    for clone in clones.values():
        namespace = clone.__dict__
        for name, value in list(namespace.items()):
            if name != "__builtins__":
                namespace[name] = own(value)
    return clones[_id(_ISOLATED[0].__dict__)].__dict__["_run"]


def run(source: str, plan: dict, on_output=None, on_progress=None) -> dict:
    """Execute ``source`` under ``plan``; see the module docstring. Never raises for anything learner code does,
    except ``KeyboardInterrupt`` when the host interrupts it (the interpreter is restored first). ``on_progress``
    (a Check only): called with the outcomes of the cases run since its last call, at each of :data:`PROGRESS_AT`
    cases; an early look, not a result. The run's own code is a copy of the engine's that learner code cannot
    reach (:func:`_isolated`)."""
    return _isolated()(source, plan, on_output, on_progress)


def _run(source: str, plan: dict, on_output, on_progress) -> dict:
    """:func:`run`, as it runs in its isolated copy of the engine."""
    check = plan.get("mode") == "check"
    guard = None  # the guard's token while it is on (a Check, from the learner's module on)
    if source.startswith(
        "\ufeff"
    ):  # a byte-order mark an editor saved or a paste carried: Python's own loader skips it
        source = source[1:]
    sink = OutputSink(on_output)
    result = {
        "status": "ok",
        "stdout": "",
        "stderr": "",
        "truncated": False,
        "traceback": None,
        "error_line": None,
        "exit_code": None,
        "outcomes": [],
    }
    sandbox = Sandbox()
    # Fewer collections of the youngest generation while this run lasts (the sandbox puts the thresholds back): a
    # Check's cases make ~10^5 containers, and with the default threshold (700) their collections promote them into
    # the older generations, whose collections walk the whole interpreter, the plan included (in Pyodide a fifth of a
    # Check's run). Cyclic garbage the learner's code makes is still collected, a little later.
    _gc_set_threshold(RUN_GC_YOUNG, *_gc_get_threshold()[1:])
    module = types.ModuleType("main" if check else "__main__")
    module.__file__ = FILENAME
    module.__builtins__ = builtins
    namespace = module.__dict__
    failure = None
    try:
        try:
            deep = too_deeply_nested(source)
            if deep is not None:
                raise deep
            code = compile(source, FILENAME, "exec", dont_inherit=True)
        except (SyntaxError, ValueError, RecursionError, MemoryError) as error:
            # RecursionError, MemoryError: an expression nested too deeply for Python's compiler or parser
            # (thousands of `+` or `-` in a row), which the learner reads as Python says it
            result["status"] = "error"
            result["traceback"], result["error_line"] = (
                format_error(error) if isinstance(error, SyntaxError) else (f"{type(error).__name__}: {error}\n", None)
            )
            result["syntax_error"] = isinstance(error, SyntaxError)
            if isinstance(error, SyntaxError):  # explained like a raised exception: its name and Python's own words
                exception = _exception_outcome(error)
                message = error.msg if isinstance(error.msg, str) else ""
                result["exception"] = {**{k: exception[k] for k in ("exc", "builtin_mro")}, "message": message}
            return result
        after = plan.get("after")
        if isinstance(after, str) and after.strip():
            try:
                after = _compile_after(after)
            except (SyntaxError, ValueError) as error:
                result["status"] = "error"
                result["traceback"], _ = (
                    format_error(error)
                    if isinstance(error, SyntaxError)
                    else (f"{type(error).__name__}: {error}\n", None)
                )
                result["after_error"] = True
                return result
            linecache.cache[AFTER_FILENAME] = (len(plan["after"]), None, plan["after"].splitlines(True), AFTER_FILENAME)
        else:
            after = None
        linecache.cache[FILENAME] = (len(source), None, source.splitlines(True), FILENAME)
        sandbox.hide_graders()
        sys.modules[module.__name__] = module
        sys.stdout, sys.stderr, sys.stdin = Output("stdout", sink), Output("stderr", sink), _NoInput()
        sys.setrecursionlimit = _capped_setrecursionlimit  # put back by _restore(sandbox)
        try:
            if check:
                _seed_random()
                _LEARNER_DEPTH.depth = _depth(_getframe(0))
                guard = _guard_on()
                _hide_garbage()
                # the module's own walks read frames, which the guard refuses; _restore puts them back
                traceback.walk_tb, traceback._walk_tb_with_full_positions = _walk_tb, _walk_tb_with_full_positions
            with _LEARNER_DEPTH:
                exec(code, namespace)
            if after is not None:
                result["after_ran"] = False
                statements, last = after
                tracer = _tracer(plan)
                try:
                    if tracer is not None:
                        tracer.start()
                    with _LEARNER_DEPTH:
                        exec(statements, namespace)
                        value = eval(last, namespace) if last is not None else None
                    if last is not None:
                        if tracer is not None:
                            tracer.stop()
                        result["value"] = values.show(
                            _encode(value), limit=VALUE_LIMIT, max_items=VALUE_ITEMS, pasteable=True
                        )
                except _TraceLimit:  # the traced call ran far past the recorded steps: it was stopped, not failed
                    result["trace_stopped"] = True
                finally:
                    if tracer is not None:
                        tracer.stop()
                        result["trace"] = tracer.result()
                result["after_ran"] = True
            if check or plan.get("cases"):  # a Run may ask for cases too (the data for a checkpoint's plot)
                attrs = plan.get("attrs", {})
                kept: list = []
                handed: list = []
                refills = refill_state(plan["cases"])
                budget = [RUN_ENCODE_BUDGET]
                marks = list(PROGRESS_AT) if check and on_progress is not None else []
                if guard is not None:
                    _LEARNER_DEPTH.depth += 1  # call_case's frame, one below this one
                done = sent = 0
                with WarningLog() as warning_log:
                    for case in plan["cases"]:
                        outcome = call_case(namespace, case, attrs, kept, refills, warning_log, budget, handed)
                        outcome["id"] = case["id"]
                        result["outcomes"].append(outcome)
                        done += 1
                        if marks and done == marks[0]:
                            marks.pop(0)
                            _report(on_progress, result["outcomes"], sent, done)
                            sent = done
                recheck(kept, attrs, handed_on(refills), budget)
                recheck_arguments(handed, handed_on(refills))
                del kept, handed
        except _KeyboardInterrupt as error:
            failure = error
            result["status"] = "interrupted"
        except _SystemExit as error:
            result["status"] = "exit"
            result["exit_code"] = _exit_code(_system_exit_code(error))
        except _BaseException as error:
            failure = error
            result["status"] = "error"
    finally:
        try:
            sink.flush()
        except _BaseException:
            pass
        _LEARNER_DEPTH.depth = None
        while True:
            try:
                _restore(sandbox)
                break
            except _KeyboardInterrupt:  # an interrupt that arrives late must not leave the interpreter patched
                continue
        # Formatting happens here, with the interpreter restored, so learner patches cannot disturb it.
        _FRAMES.clear()
        linecache.cache[FILENAME] = (len(source), None, source.splitlines(True), FILENAME)  # as the run began
        errors = [outcome.pop("error", None) for outcome in result["outcomes"]]
        raised = [error for error in ([failure] if failure is not None else []) + errors if error is not None]
        frames = iter(_frames_of([_traceback_of(error, type(error)) for error in raised]))
        if failure is not None:
            result["traceback"], result["error_line"] = format_error(failure, next(frames))
            if result["status"] == "error":
                exception = _exception_outcome(failure)
                result["exception"] = {k: exception[k] for k in ("exc", "builtin_mro", "message")}
        for outcome, error in zip(result["outcomes"], errors):
            if error is not None:
                outcome["traceback"], outcome["error_line"] = format_error(error, next(frames))
        _FRAMES.clear()
        linecache.cache.pop(FILENAME, None)  # kept until here, so tracebacks show the learner's lines
        linecache.cache.pop(AFTER_FILENAME, None)
        result["stdout"], result["stderr"] = sink.text("stdout"), sink.text("stderr")
        result["truncated"] = sink.truncated
        # What the learner's code left behind goes now, while the guard is still on: a __del__ this runs finds the
        # frames and the collector's lists refused, and what it changes in a namespace is put back again here.
        # (Garbage in reference cycles goes when the collector next runs, as it would have.)
        namespace.clear()
        del module, namespace, failure, errors, raised, frames
        if guard is not None:
            error = None
            while True:
                try:
                    _restore(sandbox)
                    break
                except _KeyboardInterrupt:
                    continue
            _audit(_GUARD_EVENT, guard, "off")
    return result


#: Items (see :data:`values.ENCODE_BUDGET`) all the values one run returns may take to write, together: once spent, a
#: returned value is written as too large (which fails its case) without being read. A function that hands back
#: everything it kept from earlier calls returns ever longer values; writing them all took several seconds and ran
#: such code past its time limit in the browser, where it failed in time on the command line. The references take at
#: most ~85 000 (a checkpoint's whole case set; a right solution's values are theirs), so one stays far inside.
RUN_ENCODE_BUDGET = 300_000
#: Characters of a returned value's JSON an outcome past the first half of :data:`RUN_RESULT_LIMIT` keeps (see
#: :func:`result_json`); a longer value is written as a too-large marker.
FITTED_VALUE = 1000
#: Characters of a traceback an outcome past the first half of the limit keeps.
FITTED_TRACEBACK = 2000
# The run result is written by a C encoder made here, not by json.dumps: that looks up the json module's default
# encoder at call time, an object learner code can reach and change (its class, its attributes).
_dump = _c_encoder(None, _no_default, _c_ascii, None, ": ", ", ", False, False, True)


def _json_dumps(value) -> str:
    """``json.dumps(value)``'s text (ASCII only, NaN and infinities written as JavaScript does), made in C."""
    return _join(_dump(value, 0))


def result_json(result: dict) -> bytes:
    """The run result as UTF-8 JSON, as the hosts hand it to the judge, always within :data:`RUN_RESULT_LIMIT`.

    A run can return more than the judge reads: a function that hands back everything it kept from earlier calls
    returns a longer list on each of a thousand cases, and megabytes per case add up. Rather than the whole result being
    refused (a verdict that says nothing about the code), outcomes are written whole while the result takes at most
    half the limit; up to five eighths, a returned value longer than :data:`FITTED_VALUE` characters becomes a
    too-large marker (which fails its case, as a value too large to write always does) and tracebacks are cut; up to
    three quarters, values over 100 characters become markers and exceptions lose their tracebacks and all but 200
    characters of their messages; after that an outcome keeps only its kind and what names it (a few hundred bytes
    each, for at most MAX_CASES cases). The judge still reads every case and names the first that fails.

    The collector is paused meanwhile: learner code could have left garbage whose ``__del__`` would run at a
    collection here, after the guard went off, and change the result as it is written."""
    enabled = _gc_isenabled()
    _gc_disable()
    try:
        return _result_json(result)
    finally:
        if enabled:
            _gc_enable()


def _result_json(result: dict) -> bytes:
    """:func:`result_json`, with the collector paused."""
    text = _json_dumps(result)  # ASCII only (ensure_ascii): as many bytes as characters
    if len(text) <= RUN_RESULT_LIMIT // 2:
        return text.encode("ascii")
    fitted = dict(result)
    outcomes = fitted.pop("outcomes", [])
    used = len(_json_dumps(fitted))
    kept = []
    for outcome in outcomes:
        if used > RUN_RESULT_LIMIT // 2:
            level = 1 if used <= RUN_RESULT_LIMIT * 5 // 8 else 2 if used <= RUN_RESULT_LIMIT * 3 // 4 else 3
            outcome = _fitted(outcome, level)
        kept.append(outcome)
        used += len(_json_dumps(outcome)) + 2
    fitted["outcomes"] = kept
    return _json_dumps(fitted).encode("ascii")


def _fitted(outcome: dict, level: int) -> dict:
    """``outcome`` shortened for :func:`result_json` at ``level`` 1 (long values as too-large markers, tracebacks
    cut), 2 (values over 100 characters as markers, no traceback, messages cut to 200 characters) or 3 (every value a
    marker, no message)."""
    out = dict(outcome)
    longest = (FITTED_VALUE, 100, -1)[level - 1]
    for name in ("value", "later"):
        wire = out.get(name)
        if wire is not None and len(_json_dumps(wire)) > longest:
            out[name] = values.too_large_marker(wire[0] if type(wire[0]) is str else "value")
    traceback_text = out.get("traceback")
    if traceback_text is not None:
        if level > 1:
            out["traceback"] = None
        elif len(traceback_text) > FITTED_TRACEBACK:
            out["traceback"] = traceback_text[: FITTED_TRACEBACK - 1] + "…"
    if level > 1 and type(out.get("message")) is str:
        out["message"] = out["message"][: 200 if level == 2 else 0]
    return out


#: Functions a run hands to learner code (``sys.setrecursionlimit``, ``traceback``'s walks): the copy keeps the
#: engine's own, whose namespace the run does not look anything up in, as ``__globals__`` leads from a function to its
#: namespace.
_HANDED_OUT = frozenset({"_capped_setrecursionlimit", "_walk_tb", "_walk_tb_with_full_positions"})
#: The modules a run copies (:func:`_isolated`): this one and :mod:`values`.
_ISOLATED = (sys.modules[__name__], values)
#: The built-ins as the engine was imported, before any learner code ran.
_BUILTINS = dict(builtins.__dict__)


def _capture() -> dict:
    """``{identity: (function, code, defaults, kwdefaults)}`` (identities as :data:`_id` takes them) of every function
    the namespaces of :data:`_ISOLATED` hold whose globals are one of them, as imported: a copy is made from these, not
    from what learner code may have set since."""
    owners = {_id(module.__dict__) for module in _ISOLATED}
    found = {}
    for module in _ISOLATED:
        for value in module.__dict__.values():
            if type(value) is types.FunctionType and _id(value.__globals__) in owners:
                if value.__closure__ is not None:
                    raise TypeError(f"{value.__qualname__} has a closure: a run's copy could not have its own")
                found[_id(value)] = (value, value.__code__, value.__defaults__, value.__kwdefaults__)
    return found


_FUNCTIONS = _capture()
