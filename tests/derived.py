"""Expensive derived checks run again only when what they prove can have changed (stamps).

A few checks prove a property of files that rarely change, at a minute or more of CPU each: every mutant of every
reference solution is killed by its checkpoint's cases (tests/test_mutants.py), CPython and Pyodide give every
checkpoint file the same verdict (tests/test_checkpoints.py), the site's workers give every file the command line's
verdict (in other languages too: tests/browser/test_grading.py) and a page the same one on every Check
(tests/browser/test_one_verdict.py), the bytecode build grades like the stock build (tests/browser/test_offline.py), axe
finds nothing serious on any page of the site (tests/browser/test_a11y.py); a few cheaper ones cost ~10 s each and
change as rarely (the cases the build ships, tests/test_build_cases.py; trivial programs, tests/test_checkpoints.py).
Each gives the same answer for the same inputs: grading is deterministic (fixed seeds, CPU-time limits far above what
the files need), and the inputs are files in this repository plus a few tool versions. So each keeps a stamp,
``tests/stamps/<name>.json``, committed with the change that produced it: per item (a checkpoint, say), the SHA-256 of
everything its answer depends on and what the check found.

:func:`stamped` compares the inputs' hash with the stamp's:

- equal: the check ran on exactly these inputs and passed (a stamp is only ever written by a passing check), so it is
  not run again; the test passes, and the run's summary lists it under "stamped checks" (tests/conftest.py);
- different, or no stamp: the check runs; a failure fails the test and writes nothing; a pass writes the new stamp,
  to be committed with the change (a fresh clone then skips it; one that was not committed only costs the time);
- ``WERKBANK_RERUN_STAMPED=1``: every stamped check runs whatever the stamp says (and stamps are rewritten).

The inputs of a check are every file its answer can depend on, with folders taken whole where in doubt (the whole
engine, the lesson's folder and grader package), the versions of what runs them (Python, numpy, Pyodide's lock, Node,
Chromium), and the check's own code. Forgetting an input would let a stale answer stand, so :func:`inputs_digest` takes
globs and refuses a glob that matches nothing.
"""

from __future__ import annotations

import fcntl
import hashlib
import inspect
import json
import os
from pathlib import Path
from typing import Callable, Iterable

REPO = Path(__file__).resolve().parent.parent
STAMPS = Path(__file__).resolve().parent / "stamps"
RERUN = "WERKBANK_RERUN_STAMPED"


def inputs_digest(patterns: Iterable[str], extra: dict | None = None, root: Path = REPO) -> str:
    """SHA-256 over every file matched by ``patterns`` (globs relative to ``root``; ``__pycache__`` left out), each
    with its path, plus ``extra`` (versions and settings, as JSON). A pattern that matches no file is an error."""
    files = set()
    for pattern in patterns:
        matched = {p for p in root.glob(pattern) if p.is_file() and "__pycache__" not in p.parts}
        if not matched:
            raise ValueError(f"stamp input {pattern!r} matches no file")
        files |= matched
    digest = hashlib.sha256()
    for path in sorted(files):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0")
        digest.update(hashlib.sha256(path.read_bytes()).digest())
    digest.update(json.dumps(extra or {}, sort_keys=True).encode())
    return digest.hexdigest()


def _load(path: Path) -> dict:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}


def stamped(
    name: str,
    item: str,
    digest: str,
    check: Callable[[], object],
    *,
    helpers: Iterable[Callable] = (),
    request=None,
    folder: Path = STAMPS,
) -> bool:
    """Run ``check()`` unless ``tests/stamps/<name>.json`` holds ``digest`` for ``item``; returns whether it ran.

    ``check`` raises (an assertion) when the property fails and returns a JSON-able summary of what it found when it
    holds, which goes into the stamp with the digest. The source code of ``check`` and of the ``helpers`` it calls
    from its test module is part of the digest, so changing what the check does runs it again (other tests of the
    module may change freely). ``request`` (pytest's): a check not run is noted on the test (``user_properties``)
    for the run's summary."""
    code = "".join(inspect.getsource(fn) for fn in (check, *helpers))
    digest = hashlib.sha256((digest + "\0" + code).encode()).hexdigest()
    path = folder / f"{name}.json"
    stamps = _load(path)
    if not os.environ.get(RERUN) and stamps.get(item, {}).get("inputs") == digest:
        if request is not None:
            request.node.user_properties.append(("stamped", f"{name}: {item}"))
        return False
    found = check()
    folder.mkdir(parents=True, exist_ok=True)
    # Another process (pytest-xdist) may stamp an item of the same file at the same moment: read, change and write
    # the file under a lock, so neither item is lost.
    with open(folder / f".{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        stamps = _load(path)
        stamps[item] = {"inputs": digest, "found": found}
        partial = path.with_suffix(f".{os.getpid()}.tmp")
        text = json.dumps(dict(sorted(stamps.items())), indent=1, ensure_ascii=False) + "\n"
        partial.write_text(text, encoding="utf-8")
        partial.replace(path)
    return True


#: What every grading check depends on: the engine (and its catalogs), the CPython host, how lessons are read and
#: graded on the command line.
GRADING_INPUTS = (
    "graders/__init__.py",
    "graders/engine/**/*.py",
    "graders/engine/catalog/*.json",
    "graders/hosts/cpython.py",
    "werkbank/grading.py",
    "werkbank/lessons.py",
    "werkbank/markdown.py",
)


#: What a file's verdict from the site's workers depends on besides its lesson: the engine and hosts, the plan the build
#: ships, the workers' scripts, the Pyodide runtime (and its bytecode build), and which files the checker lists.
BROWSER_PARITY_INPUTS = (
    *GRADING_INPUTS,
    "graders/hosts/*.py",
    "werkbank/build.py",
    "werkbank/check.py",
    "werkbank/bytecode.py",
    "werkbank/vendor/*.py",
    "web/src/**/*.js",
    "package-lock.json",
    "node_modules/pyodide/pyodide-lock.json",
    "tests/browser/helpers.py",
)


#: What a page of the site shows and does, whatever a test reads of it: the site build (templates, catalogs, styles,
#: scripts), every lesson, and the engine and hosts that give the verdicts it shows.
SITE_INPUTS = (
    *BROWSER_PARITY_INPUTS,
    "werkbank/*.py",
    "werkbank/templates/*",
    "werkbank/catalog/*",
    "web/src/**/*",
    "web/static/*",
    "exercises/**/*",
    "graders/**/*.py",
)


def python312_version() -> str:
    """The version of the Python that compiles the build's runtime to bytecode ("none": the build ships it stock)."""
    from werkbank import bytecode

    try:
        return bytecode.find_python312()[1]
    except bytecode.BytecodeUnavailable:
        return "none"


def lesson_inputs(lesson) -> list[str]:
    """A lesson's own files: its folder (every checkpoint, mistake, text) and the packages of its graders."""
    folder = lesson.folder.relative_to(REPO).as_posix()
    packages = sorted({cp.grader.split(".")[1] for cp in lesson.checkpoints})
    return [f"{folder}/**/*", *(f"graders/{package}/**/*.py" for package in packages)]


def versions() -> dict:
    """The versions of what runs a grading check in CPython."""
    import platform

    import numpy

    return {"python": platform.python_version(), "numpy": numpy.__version__}
