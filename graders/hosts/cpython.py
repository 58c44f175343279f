"""The CPython host: run a learner's code in a child process, with the same engine core.

The child gets only the plan (inputs, never expected values) and answers through a private pipe. Its time limit
counts CPU seconds (``RLIMIT_CPU``), so a loaded machine does not turn a correct solution into a timeout; a generous
wall-clock limit on top catches code that sleeps or waits. Memory is capped too. A fresh process per run means
nothing one run does can reach the next. The parent validates the answer as untrusted data.

Starting Python and importing numpy and the runner costs a child ~0.15 s of CPU, more than many runs. So each
calling thread keeps one *zygote*: a process that has imported them once and forks a fresh child per run (the
child applies the limits, gets /dev/null for stdin and stdout, reseeds ``random`` and numpy, runs, exits). Where
``os.fork`` is missing, or a zygote cannot start, every run starts its own interpreter.

On the command line the learner's file runs as a child of a checkout the user owns: its code can read that checkout,
graders and reference solutions included. That is out of scope here (see the README); the browser is where it holds.
What the grading processes hold is kept from it all the same (Linux): they are not dumpable (:func:`undumpable`), and
a run's process has no capabilities and can gain none (:func:`_confine`), so its code can neither read their memory nor
write to their pipes and standard streams through /proc, even as root; and a learner's run never forks from a zygote
that forwarded another program's run (the declared mistakes run in a zygote of their own), so no other program's
results are left in the memory it starts with. The run itself goes in a thread of its own (:func:`_run_request`), so its
code cannot set a signal handler, which Python would hand the engine's frames.
"""

from __future__ import annotations

import atexit
import json
import math
import os
import selectors
import signal
import struct
import subprocess
import sys
import threading
import time
from pathlib import Path

from graders.engine.judge import UNREADABLE, read_run
from graders.engine.settings import DEFAULT_TIME_LIMIT, RUN_RESULT_LIMIT

#: The folder holding the ``graders`` package, put on the child's ``sys.path`` to import the runner.
ROOT = Path(__file__).resolve().parents[2]
#: CPU seconds a child may use to start Python and import numpy, on top of the checkpoint's limit.
STARTUP_ALLOWANCE = 2.0
#: Wall-clock limit, as a multiple of the checkpoint's limit (plus a fixed allowance), for code that does not use CPU.
WALL_FACTOR = 3.0
WALL_ALLOWANCE = 10.0
#: Address-space cap for the learner's process, in bytes.
MEMORY_LIMIT = 4 * 2**30
#: Seconds a zygote may take to report a child killed for the wall-clock limit before it is replaced.
KILL_GRACE = 5.0
#: Bytes kept of a child's stderr (its end, for a crash report); of its result, RUN_RESULT_LIMIT and one more, so a
#: larger one reads as too large whatever learner code writes (nothing more is held in memory).
STDERR_KEPT = 4000
#: Seconds a zygote keeps reading a child's pipes after the child exited: a process it started may hold them open.
AFTER_EXIT = 0.2
#: The same for a child started for its run, whose pipes threads read (they may wait to be scheduled on a busy host).
READ_GRACE = 2.0

_BOOT = (
    "import sys; sys.path.insert(0, {root!r}); from graders.hosts import cpython; sys.path.pop(0); cpython.child_main()"
)


def _limits(cpu_seconds: int, scratch: str | None = None):
    def apply() -> None:  # pragma: no cover - runs in the child
        try:
            import resource

            resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))
            resource.setrlimit(resource.RLIMIT_CPU, (cpu_seconds, cpu_seconds + 1))
        except (ImportError, ValueError, OSError):
            pass
        _confine(scratch)

    return apply


def _scratch() -> str | None:
    """A new private folder for one run: the only place its code may write files (see :func:`_landlock`). None when
    none can be made (no writable temporary folder): the run then writes nowhere."""
    import tempfile

    try:
        return tempfile.mkdtemp(prefix="werkbank-run-")
    except OSError:
        return None


def _remove(scratch: str | None) -> None:
    import shutil

    if scratch:
        shutil.rmtree(scratch, ignore_errors=True)


_PR_SET_DUMPABLE, _PR_CAPBSET_DROP, _PR_SET_NO_NEW_PRIVS = 4, 24, 38
_CAP_VERSION_3 = 0x20080522


def _libc():
    """The C library with ``prctl`` and ``capset`` (Linux), or None."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        import ctypes

        return ctypes.CDLL(None, use_errno=True)
    except (OSError, ImportError):
        return None


def undumpable() -> None:
    """Make this process's memory and file descriptors unreachable through /proc (and ptrace) from processes without
    ``CAP_SYS_PTRACE``, a run's included: the command line's grading process and each zygote call this. Linux only;
    elsewhere nothing happens."""
    libc = _libc()
    if libc is not None:
        libc.prctl(_PR_SET_DUMPABLE, 0, 0, 0, 0)


def _confine(scratch: str | None = None) -> None:  # pragma: no cover - runs in the child
    """Take from a run's process whatever would let learner code reach the processes that grade it (Linux): it can
    never gain privileges (setuid programs), and, running as root, it drops every capability, now and for any
    program it starts, so the undumpable grading processes are out of its reach like another user's. Then
    :func:`_landlock` keeps it, and every program it starts, from writing files outside ``scratch`` and from
    signalling any process outside the run."""
    libc = _libc()
    if libc is None:
        return
    import ctypes

    libc.prctl(_PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)
    if os.geteuid() == 0:
        for cap in range(64):  # the bounding set: nothing regained through exec (past the last capability: EINVAL)
            libc.prctl(_PR_CAPBSET_DROP, cap, 0, 0, 0)
        header = (ctypes.c_uint32 * 2)(_CAP_VERSION_3, 0)
        libc.capset(header, (ctypes.c_uint32 * 6)())  # effective, permitted, inheritable: none
    _landlock(libc, scratch)


#: Landlock's system calls (the same number on every Linux architecture) and its rights that change the file system:
#: writing, truncating, removing, making and linking (``LANDLOCK_ACCESS_FS_*``; REFER from ABI 2, TRUNCATE from 3).
_LANDLOCK_CREATE, _LANDLOCK_ADD_RULE, _LANDLOCK_RESTRICT = 444, 445, 446
_LANDLOCK_WRITES = sum(1 << bit for bit in (1, 4, 5, 6, 7, 8, 9, 10, 11, 12))
_LANDLOCK_REFER, _LANDLOCK_TRUNCATE = 1 << 13, 1 << 14
_LANDLOCK_FILE_WRITES = (1 << 1) | _LANDLOCK_TRUNCATE  # what a rule on a single file may allow
#: ABI 6: signals and abstract Unix sockets only within the run's own processes.
_LANDLOCK_SCOPES = (1 << 0) | (1 << 1)


def _landlock(libc, scratch: str | None) -> bool:  # pragma: no cover - runs in the child
    """Confine this process and every program it starts with Landlock (Linux 5.13 and later): no file is written,
    truncated, made or removed outside ``scratch`` (and /dev/null), and, from ABI 6 (Linux 6.12), no signal reaches a
    process outside them. So a run can neither change the checkout (a reference solution, a grader, the prepared
    cases a later grade reads) nor stop or kill the grading processes or another grade's run, whatever it starts.
    Reading stays open, as the README says. False where the kernel has no Landlock: the limits above still hold."""
    import ctypes

    def call(number, *args):
        return libc.syscall(ctypes.c_long(number), *args)

    abi = call(_LANDLOCK_CREATE, None, ctypes.c_size_t(0), ctypes.c_uint32(1))  # LANDLOCK_CREATE_RULESET_VERSION
    if abi < 1:
        return False
    writes = _LANDLOCK_WRITES | (_LANDLOCK_REFER if abi >= 2 else 0) | (_LANDLOCK_TRUNCATE if abi >= 3 else 0)
    attr = (ctypes.c_uint64 * 3)(writes, 0, _LANDLOCK_SCOPES if abi >= 6 else 0)
    size = 24 if abi >= 6 else 16 if abi >= 4 else 8  # the struct as this ABI knows it
    ruleset = call(_LANDLOCK_CREATE, ctypes.byref(attr), ctypes.c_size_t(size), ctypes.c_uint32(0))
    if ruleset < 0:
        return False
    try:
        allowed = [(scratch, writes, os.O_DIRECTORY)] if scratch else []
        allowed.append((os.devnull, _LANDLOCK_FILE_WRITES & writes, 0))
        for path, rights, flags in allowed:
            try:
                fd = os.open(path, os.O_PATH | os.O_CLOEXEC | flags)
            except OSError:
                continue
            try:
                rule = ctypes.create_string_buffer(struct.pack("=Qi", rights, fd), 12)  # landlock_path_beneath_attr
                call(_LANDLOCK_ADD_RULE, ctypes.c_int(ruleset), ctypes.c_int(1), rule, ctypes.c_uint32(0))
            finally:
                os.close(fd)
        return call(_LANDLOCK_RESTRICT, ctypes.c_int(ruleset), ctypes.c_uint32(0)) == 0
    finally:
        os.close(ruleset)


def _timed_out() -> dict:
    """The run result of a learner process that was killed for its time limit."""
    return {"status": "timeout", "stdout": "", "stderr": "", "outcomes": []}


class _Kept:
    """The bytes kept of a child's pipe: the first ``head`` bytes or the last ``tail`` ones; the rest is read and
    dropped, so the child never blocks and learner code cannot fill the grading process's memory."""

    def __init__(self, head: int | None = None, tail: int | None = None) -> None:
        self.head, self.tail, self.data = head, tail, bytearray()

    def add(self, chunk: bytes) -> None:
        if self.head is not None:
            self.data += chunk[: max(0, self.head - len(self.data))]
        else:
            self.data += chunk
            del self.data[: -self.tail]


def _drain(fd: int, kept: _Kept) -> None:
    """Read the pipe ``fd`` into ``kept`` until it closes (each read takes what is there: a process the child left
    may hold the pipe open, and what the child wrote must not wait for it)."""
    try:
        while True:
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                return
            kept.add(chunk)
    finally:
        os.close(fd)


#: The child interpreter's flags: isolated as -I would make it (no user site packages, no unsafe path entry), but
#: reading the environment _child_env gives it, which holds only the settings below: -I would also ignore
#: PYTHONHASHSEED, and every run must hash strings the same way (the same code, the same verdict: a program may
#: iterate a set of strings).
_FLAGS = ("-s", "-P")


def _child_env() -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "WERKBANK_"))}
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    env["PYTHONHASHSEED"] = "0"
    return env


def run(
    source: str,
    plan: dict,
    *,
    on_output=None,
    time_limit: float | None = None,
    trusted: bool = False,
    wall: float | None = None,
) -> dict:
    """Run ``source`` under ``plan`` in a fresh process (the host interface; ``on_output`` is not streamed here).
    ``time_limit`` (CPU seconds) defaults to the plan's; ``{"status": "timeout"}`` when the run takes longer, or
    longer than ``wall`` seconds on the clock (default: WALL_FACTOR times the limit and WALL_ALLOWANCE more), whatever
    process the run ends up in. ``trusted``: the lesson author's program (a declared mistake), run by a zygote of its
    own, never the one learners' runs fork from (whose memory would then hold that program's source and results)."""
    limit = float(time_limit if time_limit is not None else plan.get("time_limit", DEFAULT_TIME_LIMIT))
    end = time.monotonic() + (float(wall) if wall is not None else limit * WALL_FACTOR + WALL_ALLOWANCE)
    request = json.dumps({"source": source, "plan": plan}).encode()
    kind = "trusted" if trusted else "learner"
    zygote = _Zygote.mine(kind)
    if zygote is not None:
        try:
            return zygote.run(request, limit, end)
        except _ZygoteGone:
            # this run starts its own interpreter; the next one another zygote, unless this one never forked
            _Zygote.forget(kind, broken=zygote.forks == 0)
    return _run_fresh(request, limit, end)


def _answer(status: int, data: bytes, stderr: bytes) -> dict:
    """The run result from a child's exit status, its result pipe's bytes and its stderr."""
    if status in (-signal.SIGXCPU, -signal.SIGKILL) and not data:
        return _timed_out()
    run = read_run(data)  # learner code can write to the result pipe: read as the judge reads any run
    if run.get("status") != UNREADABLE or run.get("problem") != "not JSON":
        return run
    # The process died without answering: a crash (memory, os._exit, a fatal error in C).
    detail = stderr.decode("utf-8", "replace")[-2000:]
    return {
        "status": "error",
        "stdout": "",
        "stderr": detail,
        "outcomes": [],
        "traceback": f"Python stopped abruptly (exit code {status}).\n{detail}".strip() + "\n",
        "error_line": None,
        "abrupt": True,  # not an exception before the cases: the judge says so (graders.engine.judge)
    }


def _run_fresh(request: bytes, limit: float, end: float) -> dict:
    """One run in an interpreter started for it."""
    scratch = _scratch()
    try:
        return _run_fresh_in(request, limit, end, scratch)
    finally:
        _remove(scratch)


def _run_fresh_in(request: bytes, limit: float, end: float, scratch: str | None) -> dict:
    read_fd, write_fd = os.pipe()
    process = subprocess.Popen(
        [sys.executable, *_FLAGS, "-c", _BOOT.format(root=str(ROOT)), str(write_fd)],
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        pass_fds=(write_fd,),
        cwd=os.path.abspath(os.sep),
        env={**_child_env(), **({"TMPDIR": scratch} if scratch else {})},
        preexec_fn=_limits(math.ceil(limit + STARTUP_ALLOWANCE), scratch),
        start_new_session=hasattr(os, "setsid"),  # its own process group: what it starts ends with it
    )
    os.close(write_fd)
    result, stderr = _Kept(head=RUN_RESULT_LIMIT + 1), _Kept(tail=STDERR_KEPT)
    err_fd = os.dup(process.stderr.fileno())
    process.stderr.close()
    # Drain both pipes while the child runs: a result larger than the pipe buffer must not block the child.
    readers = [
        threading.Thread(target=_drain, args=(read_fd, result), daemon=True),
        threading.Thread(target=_drain, args=(err_fd, stderr), daemon=True),
    ]
    for reader in readers:
        reader.start()
    try:
        process.stdin.write(request)
        process.stdin.close()
    except BrokenPipeError:  # the child ended before reading it: its status and stderr say why
        pass
    timed_out = False
    try:
        process.wait(timeout=max(0.0, end - time.monotonic()))
    except subprocess.TimeoutExpired:
        timed_out = True
    _end_group(process.pid, process.kill)
    process.wait()
    deadline = time.monotonic() + READ_GRACE
    for reader in readers:  # the child is gone: what it wrote is read at once, whoever else holds the pipes
        reader.join(max(0.0, deadline - time.monotonic()))
    if timed_out:
        return _timed_out()
    return _answer(process.returncode, bytes(result.data), bytes(stderr.data))


def _end_group(pid: int, fallback) -> None:
    """Kill the process group ``pid`` leads (a run's child and whatever it started), or call ``fallback``."""
    try:
        os.killpg(pid, signal.SIGKILL)
    except (AttributeError, OSError):
        fallback()


class _ZygoteGone(Exception):
    """The zygote process died or broke the protocol; the run is started afresh instead."""


_HEADER = struct.Struct("!Qd")  # request: body size, CPU seconds for the child
_PID = struct.Struct("!q")  # first answer: the forked child's pid
_REPLY = struct.Struct("!iQQ")  # last answer: exit status, result size, stderr size


class _Zygote:
    """A process that imported the runner once and forks a child per run (one per calling thread)."""

    _local = threading.local()
    _all: list["_Zygote"] = []
    _broken = False  # a zygote died before its first fork: this process starts an interpreter per run instead

    def __init__(self, kind: str = "learner") -> None:
        self.kind = kind
        self.forks = 0
        self.process = subprocess.Popen(
            [sys.executable, *_FLAGS, "-c", _ZYGOTE_BOOT.format(root=str(ROOT))],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            cwd=os.path.abspath(os.sep),
            env=_child_env(),
        )
        _Zygote._all.append(self)

    @classmethod
    def mine(cls, kind: str = "learner") -> "_Zygote | None":
        """This thread's zygote for runs of ``kind`` ("learner" or "trusted", see :func:`run`), started on first use;
        None where processes cannot fork or ``$WERKBANK_NO_ZYGOTE`` is set (every run then starts its own
        interpreter)."""
        if not hasattr(os, "fork") or os.environ.get("WERKBANK_NO_ZYGOTE") or cls._broken:
            return None
        zygote = getattr(cls._local, kind, None)
        if zygote is not None and zygote.process.poll() is not None:
            cls.forget(kind)  # died since its last run: close its pipes before another takes its place
            zygote = None
        if zygote is None:
            try:
                zygote = cls(kind)
            except OSError:
                return None
            setattr(cls._local, kind, zygote)
        return zygote

    @classmethod
    def forget(cls, kind: str = "learner", broken: bool = False) -> None:
        """Stop this thread's zygote of ``kind``; the next run starts another (none at all in this process when
        ``broken``)."""
        cls._broken = cls._broken or broken
        zygote = getattr(cls._local, kind, None)
        if zygote is not None:
            zygote.close()
            setattr(cls._local, kind, None)
            if zygote in cls._all:
                cls._all.remove(zygote)

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()
        for pipe in (self.process.stdin, self.process.stdout):
            pipe.close()

    def _read(self, size: int, deadline: float | None = None) -> bytes:
        out = bytearray()
        stdout = self.process.stdout
        while len(out) < size:
            if deadline is not None:
                left = deadline - time.monotonic()
                with selectors.DefaultSelector() as selector:
                    selector.register(stdout, selectors.EVENT_READ)
                    if left <= 0 or not selector.select(left):
                        raise TimeoutError
            chunk = os.read(stdout.fileno(), size - len(out))
            if not chunk:
                raise _ZygoteGone("the zygote closed its pipe")
            out += chunk
        return bytes(out)

    def run(self, request: bytes, limit: float, end: float) -> dict:
        """The run of ``request`` (CPU seconds ``limit``, ending by the clock's ``end`` at the latest) in a child."""
        cpu = math.ceil(limit + STARTUP_ALLOWANCE)
        try:
            self.process.stdin.write(_HEADER.pack(len(request), cpu) + request)
            self.process.stdin.flush()
            (pid,) = _PID.unpack(self._read(_PID.size))
        except (OSError, ValueError) as error:
            raise _ZygoteGone(str(error)) from None
        if pid <= 0:
            raise _ZygoteGone("the zygote could not fork")
        self.forks += 1
        try:
            reply = self._read(_REPLY.size, end)
        except TimeoutError:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            try:  # the zygote answers once the child's pipes close (a process the child started may hold them)
                _, data_size, err_size = _sizes(self._read(_REPLY.size, time.monotonic() + KILL_GRACE))
                self._read(data_size + err_size, time.monotonic() + KILL_GRACE)
            except (TimeoutError, _ZygoteGone, struct.error):
                _Zygote.forget(self.kind)
            return _timed_out()
        except _ZygoteGone:
            _end_group(pid, lambda: None)  # the zygote's sweep died with it: the run it forked ends here
            raise
        status, data_size, err_size = _sizes(reply)
        try:  # the zygote writes the whole answer at once
            data = self._read(data_size, time.monotonic() + KILL_GRACE)
            return _answer(status, data, self._read(err_size, time.monotonic() + KILL_GRACE))
        except TimeoutError:
            raise _ZygoteGone("the zygote's answer stopped short") from None


def _sizes(reply: bytes) -> tuple[int, int, int]:
    """A zygote's last answer (exit status, result size, stderr size), checked against what a zygote ever sends:
    its pipe is the grader's, but a broken or hijacked one must not make the grader wait or allocate without end."""
    status, data_size, err_size = _REPLY.unpack(reply)
    if data_size > RUN_RESULT_LIMIT + 1 or err_size > STDERR_KEPT:
        raise _ZygoteGone("the zygote's answer is larger than any run's")
    return status, data_size, err_size


@atexit.register
def _stop_zygotes() -> None:
    for zygote in list(_Zygote._all):
        try:
            zygote.close()
        except Exception:  # noqa: BLE001 - at exit, a zygote that is already gone is fine
            pass


_ZYGOTE_BOOT = (
    "import sys; sys.path.insert(0, {root!r}); "
    "from graders.hosts import cpython; sys.path.pop(0); cpython.zygote_main()"
)


def zygote_main() -> None:  # pragma: no cover - runs in the zygote
    """The zygote's loop: read ``(size, cpu seconds, request)`` on stdin; fork a child that runs it; answer the
    child's pid at once, then its exit status, result and stderr. Single-threaded, so forking is safe. After each
    run, whatever the child started is ended (:func:`_sweep`)."""
    from graders.engine import runner

    undumpable()
    for name in runner.PRELOAD:
        __import__(name)
    _become_subreaper()
    requests, answers = sys.stdin.buffer, sys.stdout.buffer
    while True:
        header = requests.read(_HEADER.size)
        if len(header) < _HEADER.size:
            return  # the parent is gone
        size, cpu = _HEADER.unpack(header)
        body = requests.read(size)
        result_r, result_w = os.pipe()
        err_r, err_w = os.pipe()
        scratch = _scratch()
        pid = os.fork()
        if pid == 0:
            _forked_child(body, int(cpu), result_r, result_w, err_r, err_w, scratch)
        os.close(result_w)
        os.close(err_w)
        answers.write(_PID.pack(pid))
        answers.flush()
        status, data, err = _drain_both(result_r, err_r, pid)
        _sweep(pid)
        _remove(scratch)
        answers.write(_REPLY.pack(status, len(data), len(err)) + data + err)
        answers.flush()


def _drain_both(result_fd: int, err_fd: int, pid: int) -> tuple[int, bytes, bytes]:  # pragma: no cover - zygote
    """Read the child's result and stderr (as much as :class:`_Kept` keeps) until both pipes close, or until
    AFTER_EXIT seconds after the child exited (a process it started may hold them open); then its exit status."""
    kept = {result_fd: _Kept(head=RUN_RESULT_LIMIT + 1), err_fd: _Kept(tail=STDERR_KEPT)}
    status = None
    stop = None
    with selectors.DefaultSelector() as selector:
        for fd in kept:
            selector.register(fd, selectors.EVENT_READ)
        while selector.get_map():
            if status is None:
                done, wait_status = os.waitpid(pid, os.WNOHANG)
                if done:
                    status, stop = os.waitstatus_to_exitcode(wait_status), time.monotonic() + AFTER_EXIT
            elif time.monotonic() > stop:
                break
            for key, _ in selector.select(0.05):
                chunk = os.read(key.fd, 1 << 16)
                if chunk:
                    kept[key.fd].add(chunk)
                else:
                    selector.unregister(key.fd)
    for fd in kept:
        os.close(fd)
    if status is None:
        status = os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])
    return status, bytes(kept[result_fd].data), bytes(kept[err_fd].data)


def _become_subreaper() -> None:  # pragma: no cover - runs in the zygote
    """On Linux, make the processes a run's child starts and leaves behind (even in a session of their own) the
    zygote's children when their parent ends, so :func:`_sweep` can end them; elsewhere nothing happens."""
    try:
        import ctypes

        ctypes.CDLL(None).prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER
    except (OSError, AttributeError, TypeError):
        pass


def _sweep(pid: int) -> None:  # pragma: no cover - runs in the zygote
    """End what the run of child ``pid`` left running: its process group, then every process the zygote has
    adopted since (only a run's leftovers can be its children now), until none is left."""
    _end_group(pid, lambda: None)
    children = f"/proc/self/task/{os.getpid()}/children"
    for _ in range(100):
        try:
            with open(children) as listing:
                left = [int(p) for p in listing.read().split()]
        except (OSError, ValueError):
            left = []
        for child in left:
            try:
                os.kill(child, signal.SIGKILL)
            except OSError:
                pass
        while True:  # reap every child that has ended
            try:
                if os.waitpid(-1, os.WNOHANG)[0] == 0:
                    break
            except ChildProcessError:
                break
        if not left:
            return
        time.sleep(0.01)


def _forked_child(
    body: bytes, cpu: int, result_r: int, result_w: int, err_r: int, err_w: int, scratch: str | None
) -> None:  # pragma: no cover - runs in the forked child
    """A run in a child of the zygote: limits, fresh standard streams and random state, its own folder for temporary
    files (``scratch``), then exit."""
    try:
        os.setpgid(0, 0)  # a process group of its own, which the zygote ends after the run
        os.close(result_r)
        os.close(err_r)
        null = os.open(os.devnull, os.O_RDWR)
        os.dup2(null, 0)  # the zygote's request pipe: never readable by learner code
        os.dup2(null, 1)  # the zygote's answer pipe: never writable by learner code
        os.dup2(err_w, 2)
        for fd in (null, err_w):
            os.close(fd)
        import tempfile

        if scratch:
            os.environ["TMPDIR"] = tempfile.tempdir = scratch
        _limits(cpu, scratch)()
        for name in ("random", "numpy.random"):  # random state the zygote made is this child's own again
            module = sys.modules.get(name)
            if module is not None:
                module.seed()
        _run_request(body, result_w)
    except BaseException:  # noqa: BLE001 - whatever happens, the child must never return into the zygote's loop
        import traceback

        try:
            traceback.print_exc()
            sys.stderr.flush()
        except BaseException:  # noqa: BLE001
            pass
        os._exit(1)
    os._exit(0)


def child_main() -> None:
    """The entry point of a child started for one run: read ``{"source", "plan"}`` JSON on stdin, write the run
    result as JSON to the file descriptor named by ``argv[1]``."""
    _run_request(sys.stdin.buffer.read(), int(sys.argv[1]))


def _run_request(body: bytes, fd: int) -> None:  # pragma: no cover - runs in a child
    """Run the ``{"source", "plan"}`` JSON request ``body`` with no input for learner code; write the run result as
    JSON to file descriptor ``fd``. Both kinds of child (started for the run, forked from a zygote) answer here."""
    import io

    from graders.engine import runner, values

    request = values.parse_json(body)
    sys.stdin = io.StringIO("")
    # The run has a thread of its own: Python calls a signal handler in the main thread with the frame it interrupted,
    # a way to the engine's frames no audit event announces, and only the main thread may set one. Learner code can
    # start no other thread (runner._install_guard); the main thread waits.
    done: list = []
    thread = threading.Thread(target=lambda: done.append(runner.run(request["source"], request["plan"])))
    thread.start()
    thread.join()
    if not done:
        raise RuntimeError("the run ended without a result")
    with os.fdopen(fd, "wb") as out:
        out.write(runner.result_json(done[0]))
