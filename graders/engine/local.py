"""The CPython host: grade a file with the same engine, running the learner's code in a subprocess.

The subprocess gets only the plan (inputs, never expected values) and answers through a private pipe. Its time limit
counts CPU seconds (``RLIMIT_CPU``), so a loaded machine does not turn a correct solution into a timeout; a generous
wall-clock limit on top catches code that sleeps or waits. Memory is capped too. Preparing and judging happen in this
process.
"""

from __future__ import annotations

import importlib
import json
import math
import os
import signal
import subprocess
import sys
import threading
from pathlib import Path

from .case import AuthorError
from .judge import author_error, judge
from .prepare import prepare

ROOT = Path(__file__).resolve().parents[2]
#: CPU seconds a subprocess may use to start Python and import numpy, on top of the checkpoint's limit.
STARTUP_ALLOWANCE = 2.0
#: Wall-clock limit, as a multiple of the checkpoint's limit (plus a fixed allowance), for code that does not use CPU.
WALL_FACTOR = 3.0
WALL_ALLOWANCE = 10.0
#: Address-space cap for the learner's process, in bytes.
MEMORY_LIMIT = 4 * 2**30

_BOOT = (
    "import sys; sys.path.insert(0, {root!r}); "
    "from graders.engine import runner; sys.path.pop(0); runner.main()"
)


def _limits(cpu_seconds: int):
    def apply() -> None:  # pragma: no cover - runs in the child
        try:
            import resource

            resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))
            resource.setrlimit(resource.RLIMIT_CPU, (cpu_seconds, cpu_seconds + 1))
        except (ImportError, ValueError, OSError):
            pass
    return apply


def _timed_out() -> dict:
    """The run result of a learner process that was killed for its time limit."""
    return {"status": "timeout", "stdout": "", "stderr": "", "outcomes": []}


def _drain(fd: int, chunks: list) -> None:
    with os.fdopen(fd, "rb") as pipe:
        while True:
            chunk = pipe.read(1 << 16)
            if not chunk:
                return
            chunks.append(chunk)


def run_in_subprocess(source: str, plan: dict, time_limit: float) -> dict:
    """Run the learner's ``source`` under ``plan`` in a fresh interpreter; ``{"status": "timeout"}`` when too slow."""
    read_fd, write_fd = os.pipe()
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    env["PYTHONHASHSEED"] = "0"
    process = subprocess.Popen(
        [sys.executable, "-I", "-c", _BOOT.format(root=str(ROOT)), str(write_fd)],
        stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
        pass_fds=(write_fd,), cwd=os.path.abspath(os.sep), env=env,
        preexec_fn=_limits(math.ceil(time_limit + STARTUP_ALLOWANCE)),
    )
    os.close(write_fd)
    chunks: list[bytes] = []
    # Drain the result pipe while the child runs: a result larger than the pipe buffer must not block the child.
    reader = threading.Thread(target=_drain, args=(read_fd, chunks), daemon=True)
    reader.start()
    try:
        _, stderr = process.communicate(json.dumps({"source": source, "plan": plan}).encode(),
                                        timeout=time_limit * WALL_FACTOR + WALL_ALLOWANCE)
    except subprocess.TimeoutExpired:
        process.kill()
        process.communicate()
        reader.join()
        return _timed_out()
    reader.join()
    data = b"".join(chunks).decode("utf-8", "replace")
    if process.returncode in (-signal.SIGXCPU, -signal.SIGKILL) and not data:
        return _timed_out()
    try:
        return json.loads(data)
    except json.JSONDecodeError:
        # The process died without answering: a crash (memory, os._exit, a fatal error in C).
        detail = stderr.decode("utf-8", "replace")[-2000:]
        return {"status": "error", "stdout": "", "stderr": detail, "outcomes": [],
                "traceback": f"Python stopped abruptly (exit code {process.returncode}).\n{detail}".strip() + "\n",
                "error_line": None}


def grade_source(lesson_id: str, checkpoint_id: str, source: str, *, lang: str = "en", seed: int = 0) -> dict:
    """Grade ``source`` against a checkpoint; returns the verdict dict (``author_error`` for grader bugs)."""
    from werkbank.lessons import LessonError, load_lesson

    try:
        lesson = load_lesson(lesson_id)
        checkpoint = lesson.checkpoint(checkpoint_id)
    except LessonError as error:
        return author_error(str(error), lang, usage=True)
    try:
        grader = importlib.import_module(checkpoint.grader)
        prepared = prepare(grader, checkpoint.solution(), lesson=lesson.id, checkpoint=checkpoint.id, seed=seed,
                           entry=checkpoint.entry, plot=checkpoint.plot)
    except AuthorError as error:
        return author_error(str(error), lang)
    except Exception as error:  # the grader module itself fails to import
        return author_error(f"{checkpoint.grader}: {type(error).__name__}: {error}", lang)
    run = run_in_subprocess(source, prepared["plan"], prepared["plan"]["time_limit"])
    return judge(prepared, run, lang)
