"""Pyodide parity: grade the files ``werkbank check`` grades in Pyodide too, in Node, with no browser.

Learners run Pyodide 0.27.7 (wasm32), not CPython. Numpy's default integer there is 32 bits (``np.bincount`` on
int64 input fails with "Cannot cast array data from dtype('int64') to dtype('int32')"), floating-point warnings
such as numpy's divide-by-zero never fire (the engine records them in neither runtime), and the time limit is
wall-clock time. So ``check`` requires every file of its list (references, starters, declared mistakes, alternative
solutions) to get the same verdict in both runtimes, and each reference to give the same expected outcome for every
case.

One Node process (``werkbank/node/parity.mjs``) boots the same Pyodide (``node_modules/pyodide``) with the same
verified wheels (numpy; micropip for lessons with extra packages) once, loads the engine exactly as the site ships
it (:func:`werkbank.build.engine_files`) and each lesson's grading bundle (:func:`werkbank.build.lesson_grading`),
then prepares every checkpoint and grades every file in one interpreter, the way the workers do.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import tempfile
from pathlib import Path

from graders.engine import values
from graders.engine.compare import compare

SCRIPT = Path(__file__).resolve().parent / "node" / "parity.mjs"
#: Seconds the whole Node run may take (boot ~2-4 s, then well under a second per file).
TIMEOUT = 900


class ParityError(RuntimeError):
    """The Pyodide side could not run at all (no Node, no wheels, a crash). One line, says what to do."""


def outcome_text(outcome: dict | None, limit: int = 160) -> str:
    """A case outcome (wire form, from either runtime) as short text."""
    if outcome is None:
        return "no result"
    kind = outcome.get("kind")
    if kind == "return":
        return f"returns {values.show(outcome['value'], limit=limit)}"
    if kind == "raise":
        message = (outcome.get("message") or "")[:limit]
        return f"raises {outcome.get('exc')}" + (f"({message!r})" if message else "")
    if kind in ("missing", "not_callable"):
        return (
            f"{outcome.get('name')} is not defined" if kind == "missing" else f"{outcome.get('name')} is not callable"
        )
    return str(kind)


def _wheels(lessons) -> tuple[list[str], dict[str, str]]:
    """(runtime wheel paths in load order, {file name: path} of the lessons' extra wheels), all hash-checked."""
    from werkbank import vendor

    try:
        shipped = ["numpy"]
        if any(lesson.requirements for lesson in lessons):
            shipped += ["packaging", "micropip"]
        lock = vendor.load_lock()
        files = vendor.lock_hashes(lock, shipped)
        paths = vendor.obtain(files)
        runtime = [str(paths[name]) for name in files]
        extra = {}
        for lesson in lessons:
            for pin in lesson.requirements:
                wheel = vendor.requirement_wheel(pin)
                extra[wheel.name] = str(wheel)
    except (vendor.VendorError, OSError) as error:
        raise ParityError(f"the Pyodide wheels are not available: {error}") from None
    return runtime, extra


def _requirements(lesson, extra: dict[str, str]) -> list[dict]:
    from werkbank import vendor

    out = []
    for pin in lesson.requirements:
        name, version = vendor.parse_pin(pin)
        wheel = vendor.requirement_wheel(pin)
        out.append({"name": name, "version": version, "file": wheel.name, "sha256": vendor.sha256_file(wheel)})
    return out


def run_pyodide(lessons, jobs: list[dict], prepare: list[dict]) -> tuple[dict, dict]:
    """Grade ``jobs`` (``{id, lesson, checkpoint, seed, source, lang}``) in Pyodide after preparing the checkpoints
    of ``prepare`` (``{lesson, checkpoint, seed}``). Returns ``(prepared, results)``: ``prepared[(lesson, checkpoint,
    seed)]`` is ``{"expected": …}`` or ``{"author_error": …}``, ``results[id]`` is ``{"verdict", "outcomes"}``.
    Raises :class:`ParityError` when Pyodide cannot run."""
    from werkbank.build import engine_files, lesson_grading
    from werkbank.vendor import PYODIDE_DIR

    node = shutil.which("node")
    if node is None:
        raise ParityError("node is not installed: install Node.js 20 (see README), or run check with --no-pyodide")
    if not (PYODIDE_DIR / "pyodide.mjs").is_file():
        raise ParityError(f"{PYODIDE_DIR} is missing: run `make setup` (npm ci)")
    runtime, extra = _wheels(lessons)
    spec = {
        "indexURL": PYODIDE_DIR.as_uri() + "/",
        "wheels": runtime,
        "requirementWheels": extra,
        "engine": engine_files(),
        "lessons": {lesson.id: json.dumps(lesson_grading(lesson, _requirements(lesson, extra))) for lesson in lessons},
        "prepare": prepare,
        "jobs": jobs,
    }
    with tempfile.TemporaryDirectory(prefix="werkbank-parity-") as tmp:
        path = Path(tmp) / "jobs.json"
        path.write_text(json.dumps(spec), encoding="utf-8")
        try:
            proc = subprocess.run([node, str(SCRIPT), str(path)], capture_output=True, text=True, timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            raise ParityError(f"the Pyodide run took longer than {TIMEOUT} s") from None
    prepared, results, done = {}, {}, False
    for line in proc.stdout.splitlines():
        try:
            item = json.loads(line)
        except ValueError:
            continue
        if item.get("type") == "prepared":
            key = (item["lesson"], str(item["checkpoint"]), item["seed"])
            prepared[key] = {k: item[k] for k in ("expected", "author_error") if k in item}
        elif item.get("type") == "result":
            results[item["id"]] = {"verdict": item["verdict"], "outcomes": item.get("outcomes", [])}
        elif item.get("type") == "done":
            done = True
    if not done:
        tail = (proc.stderr.strip().splitlines() or ["no output"])[-1][:300]
        raise ParityError(f"the Pyodide run stopped early (exit {proc.returncode}): {tail}")
    return prepared, results


ADVICE = (
    (
        "to dtype('int32')",
        "Pyodide is 32-bit: numpy's index type (np.intp) is int32 there, so cast indices with "
        ".astype(np.intp) instead of int64",
    ),
    (
        "Pyodide timeout",
        "Pyodide runs slower than CPython and its limit is wall-clock time: make the code faster or raise TIME_LIMIT",
    ),
)


def advice(text: str) -> str:
    """What to do about a known kind of runtime difference (``""`` when none is known)."""
    return next((f" ({what})" for needle, what in ADVICE if needle in text), "")


def expected_differences(cpython: dict, pyodide: dict) -> list[tuple[str, str, str]]:
    """``(case, CPython text, Pyodide text)`` for every case whose expected outcome differs between runtimes."""
    found = []
    for case, ours in cpython.items():
        theirs = pyodide.get(case)
        if theirs is None:
            found.append((case, outcome_text(ours), "no such case"))
        elif (
            ours.get("kind") != theirs.get("kind")
            or (ours.get("kind") == "return" and compare(ours["value"], theirs["value"]) is not None)
            or (ours.get("kind") == "raise" and ours.get("exc") != theirs.get("exc"))
        ):
            found.append((case, outcome_text(ours), outcome_text(theirs)))
    return found


def verdict_text(verdict: dict) -> str:
    """``fail (3/40; first failing case seed-conflict)`` and the like."""
    status = verdict.get("status")
    if status == "author_error":
        return f"author error ({verdict.get('detail') or verdict.get('message')})"
    text = f"{status} ({verdict.get('passed')}/{verdict.get('total')}"
    failed = verdict.get("failed_cases") or []
    if failed:
        text += f"; failing: {', '.join(failed[:3])}" + (f" +{len(failed) - 3} more" if len(failed) > 3 else "")
    return text + ")"


def verdict_difference(cpython: dict, c_outcomes: list, pyodide: dict, p_outcomes: list) -> str | None:
    """``None`` when both runtimes give the same verdict (status and failing cases); else what differs, naming the
    first case whose outcome differs and both outcomes."""
    if cpython.get("status") == pyodide.get("status") and set(cpython.get("failed_cases") or []) == set(
        pyodide.get("failed_cases") or []
    ):
        return None
    text = f"CPython {verdict_text(cpython)}, Pyodide {verdict_text(pyodide)}"
    # (``failed_cases`` may be limited to the cases both runtimes generated; passed/total are each runtime's own)
    c_failed, p_failed = cpython.get("failed_cases") or [], pyodide.get("failed_cases") or []
    differing = [c for c in c_failed if c not in p_failed] + [c for c in p_failed if c not in c_failed]
    if differing:
        case = differing[0]
        ours = next((o for o in c_outcomes if o.get("id") == case), None)
        theirs = next((o for o in p_outcomes if o.get("id") == case), None)
        text += f"; case {case}: CPython {outcome_text(ours)}, Pyodide {outcome_text(theirs)}"
        if ours and theirs and ours.get("warnings") != theirs.get("warnings"):
            text += f" (warnings: CPython {ours.get('warnings') or 'none'}, Pyodide {theirs.get('warnings') or 'none'})"
    elif pyodide.get("status") in ("timeout", "error") and cpython.get("status") != pyodide.get("status"):
        detail = (pyodide.get("traceback") or pyodide.get("message") or "").strip().splitlines()
        text += f": {detail[-1][:200]}" if detail else ""
    return text + advice(text)
