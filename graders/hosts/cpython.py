"""The CPython host: run a learner's code in a child process, with the same engine core.

The child gets only the plan (inputs, never expected values) on stdin and answers through a private pipe. Its time
limit counts CPU seconds (``RLIMIT_CPU``), so a loaded machine does not turn a correct solution into a timeout; a
generous wall-clock limit on top catches code that sleeps or waits. Memory is capped too. A fresh process per run
means nothing one run does can reach the next. The parent validates the answer as untrusted data.

On the command line the learner's file runs as a child of a checkout the user owns: its code can read that checkout,
graders and reference solutions included. That is out of scope here (see the README); the browser is where it holds.
"""

from __future__ import annotations

import json
import math
import os
import signal
import subprocess
import sys
import threading
from pathlib import Path

from graders.engine.settings import DEFAULT_TIME_LIMIT

#: The folder holding the ``graders`` package, put on the child's ``sys.path`` to import the runner.
ROOT = Path(__file__).resolve().parents[2]
#: CPU seconds a child may use to start Python and import numpy, on top of the checkpoint's limit.
STARTUP_ALLOWANCE = 2.0
#: Wall-clock limit, as a multiple of the checkpoint's limit (plus a fixed allowance), for code that does not use CPU.
WALL_FACTOR = 3.0
WALL_ALLOWANCE = 10.0
#: Address-space cap for the learner's process, in bytes.
MEMORY_LIMIT = 4 * 2**30

_BOOT = (
    "import sys; sys.path.insert(0, {root!r}); "
    "from graders.hosts import cpython; sys.path.pop(0); cpython.child_main()"
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


def run(source: str, plan: dict, *, on_output=None, time_limit: float | None = None) -> dict:
    """Run ``source`` under ``plan`` in a fresh interpreter (the host interface; ``on_output`` is not streamed
    here). ``time_limit`` defaults to the plan's; ``{"status": "timeout"}`` when the run takes longer."""
    limit = float(time_limit if time_limit is not None else plan.get("time_limit", DEFAULT_TIME_LIMIT))
    read_fd, write_fd = os.pipe()
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    env["PYTHONHASHSEED"] = "0"
    process = subprocess.Popen(
        [sys.executable, "-I", "-c", _BOOT.format(root=str(ROOT)), str(write_fd)],
        stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
        pass_fds=(write_fd,), cwd=os.path.abspath(os.sep), env=env,
        preexec_fn=_limits(math.ceil(limit + STARTUP_ALLOWANCE)),
    )
    os.close(write_fd)
    chunks: list[bytes] = []
    # Drain the result pipe while the child runs: a result larger than the pipe buffer must not block the child.
    reader = threading.Thread(target=_drain, args=(read_fd, chunks), daemon=True)
    reader.start()
    try:
        _, stderr = process.communicate(json.dumps({"source": source, "plan": plan}).encode(),
                                        timeout=limit * WALL_FACTOR + WALL_ALLOWANCE)
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


def child_main() -> None:
    """The child's entry point: read ``{"source", "plan"}`` JSON on stdin, write the run result as JSON to the file
    descriptor named by ``argv[1]``."""
    import io

    from graders.engine import runner

    request = json.loads(sys.stdin.read())
    sys.stdin = io.StringIO("")
    fd = int(sys.argv[1])
    result = runner.run(request["source"], request["plan"])
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        json.dump(result, out)
