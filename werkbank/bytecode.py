"""Optional build step: ship the Python standard library and the Pyodide wheels as bytecode.

Pyodide 0.27.7 runs CPython 3.12.7. Its ``python_stdlib.zip`` and the numpy, micropip and packaging wheels ship
``.py`` sources, so every import at boot first compiles source to bytecode inside WebAssembly. This step compiles
them ahead of time with a CPython 3.12 found on this machine (every 3.12.x has the same bytecode magic number) and
replaces each ``.py`` by a sourceless ``.pyc`` at the same place (the legacy layout ``pkg/mod.pyc`` that zipimport and
the sourceless file loader import without a ``.py`` next to it).

Tracebacks keep naming file and line: each code object is compiled with the path the module has at run time
(``/lib/python312.zip/json/decoder.py``, ``/lib/python3.12/site-packages/numpy/...``) and line numbers are in the
bytecode; only the quoted source line is missing for those frames. Learner code and the graders stay source.

The ``.pyc`` files are unchecked hash-based pycs (PEP 552), so the output does not depend on timestamps and the same
input gives the same bytes. Compiled archives are cached (``<cache>/bytecode/``), keyed by the input's sha-256 and the
compiler, so an incremental build does not compile again. The wheels' RECORD files are rewritten to match and
``dist/pyodide/pyodide-lock.json`` gets the new sha-256 of each rewritten wheel (Pyodide checks it when loading);
``dist/pyodide/bytecode.json`` records which stock file (by sha-256) each compiled archive was made from.

Without a usable Python 3.12, the stock files stay in place and a notice is printed.
"""

from __future__ import annotations

import glob
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

from werkbank.errors import WerkbankError

from werkbank.vendor import cache_dir, sha256_file, write_if_changed

#: importlib.util.MAGIC_NUMBER of CPython 3.12 (3531), which Pyodide 0.27.7's CPython 3.12.7 uses.
MAGIC_312 = (3531).to_bytes(2, "little") + b"\r\n"
#: Bumped whenever the helper's output changes, so cached archives from an older helper are not reused.
HELPER_VERSION = "1"
STDLIB = "python_stdlib.zip"
#: dist/pyodide/<PROVENANCE>: for each compiled archive, the sha-256 of the stock file it was made from.
PROVENANCE = "bytecode.json"
STDLIB_PREFIX = "/lib/python312.zip/"
SITE_PREFIX = "/lib/python3.12/site-packages/"

# Runs inside the 3.12 interpreter: compile every .py of one archive into an unchecked-hash .pyc.
_HELPER = r"""
import base64, hashlib, importlib.util, json, sys, zipfile
from importlib._bootstrap_external import _code_to_hash_pyc

job = json.loads(sys.argv[1])
src, dst, prefix, wheel = job["src"], job["dst"], job["prefix"], job["wheel"]
kept_source, compiled = [], 0
record_name = None
entries = []
with zipfile.ZipFile(src) as zin:
    for info in zin.infolist():
        data = zin.read(info)
        name = info.filename
        if wheel and name.endswith(".dist-info/RECORD"):
            record_name = name
            continue
        if name.endswith(".py") and not info.is_dir():
            try:
                code = compile(data, prefix + name, "exec", dont_inherit=True, optimize=0)
            except (SyntaxError, ValueError) as exc:
                kept_source.append(f"{name}: {type(exc).__name__}")
            else:
                data = bytes(_code_to_hash_pyc(code, importlib.util.source_hash(data), checked=False))
                name = name[:-3] + ".pyc"
                compiled += 1
        entries.append((info, name, data))

def record_line(name, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"

with zipfile.ZipFile(dst, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=9) as zout:
    for info, name, data in entries:
        out = zipfile.ZipInfo(name, date_time=info.date_time)
        out.external_attr = info.external_attr
        out.compress_type = zipfile.ZIP_STORED if info.is_dir() else zipfile.ZIP_DEFLATED
        zout.writestr(out, data, compresslevel=9)
    if record_name:
        lines = [record_line(name, data) for _, name, data in entries if not name.endswith("/")]
        lines.append(f"{record_name},,")
        out = zipfile.ZipInfo(record_name, date_time=(1980, 1, 1, 0, 0, 0))
        out.external_attr = 0o644 << 16
        zout.writestr(out, "\n".join(lines) + "\n", compress_type=zipfile.ZIP_DEFLATED, compresslevel=9)
print(json.dumps({"compiled": compiled, "kept_source": kept_source, "magic": importlib.util.MAGIC_NUMBER.hex(),
                  "version": sys.version.split()[0]}))
"""


# Runs inside the 3.12 interpreter: compile the engine's sources (a JSON file {path: source}) into unchecked-hash
# .pyc bytes, each code object named by the path the module has in the browser (prefix + path).
_ENGINE_HELPER = r"""
import base64, importlib.util, json, sys
from importlib._bootstrap_external import _code_to_hash_pyc

job = json.loads(open(sys.argv[1], encoding="utf-8").read())
out = {}
for path, source in sorted(job["files"].items()):
    data = source.encode("utf-8")
    code = compile(data, job["prefix"] + path, "exec", dont_inherit=True, optimize=0)
    pyc = _code_to_hash_pyc(code, importlib.util.source_hash(data), checked=False)
    out[path] = base64.b64encode(bytes(pyc)).decode()
print(json.dumps({"files": out, "tag": sys.implementation.cache_tag, "version": sys.version.split()[0]}))
"""
#: Where the workers put the engine (web/src/pyboot.js LIB), so tracebacks through engine frames name real files.
ENGINE_PREFIX = "/lib/werkbank/"


class BytecodeError(WerkbankError):
    """Compiling the runtime's Python files failed; the message has the compiler's output."""


class BytecodeUnavailable(RuntimeError):
    """No CPython 3.12 with Pyodide's bytecode magic number was found."""


def _probe(python: str) -> str | None:
    """The interpreter's version string when it is a CPython 3.12 with the expected magic, else None."""
    code = (
        "import importlib.util, platform, sys; print(platform.python_implementation(), sys.version.split()[0], "
        "importlib.util.MAGIC_NUMBER.hex())"
    )
    try:
        out = subprocess.run([python, "-I", "-c", code], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return None
    parts = out.stdout.split()
    if out.returncode != 0 or len(parts) != 3:
        return None
    impl, version, magic = parts
    if impl != "CPython" or not version.startswith("3.12.") or magic != MAGIC_312.hex():
        return None
    return version


def find_python312() -> tuple[str, str]:
    """``(path, version)`` of a CPython 3.12: ``$WERKBANK_PYTHON312``, this interpreter, ``python3.12`` on PATH,
    then pyenv installs. Raises :class:`BytecodeUnavailable` when there is none."""
    candidates = [os.environ.get("WERKBANK_PYTHON312"), sys.executable, shutil.which("python3.12")]
    root = os.environ.get("PYENV_ROOT") or os.path.expanduser("~/.pyenv")
    candidates += sorted(glob.glob(os.path.join(root, "versions", "3.12.*", "bin", "python3.12")), reverse=True)
    seen = set()
    for candidate in candidates:
        if not candidate or candidate in seen:
            continue
        seen.add(candidate)
        version = _probe(candidate)
        if version:
            return candidate, version
    raise BytecodeUnavailable("no CPython 3.12 found (tried $WERKBANK_PYTHON312, python3.12 on PATH, ~/.pyenv)")


def compiler(python: str | None = None) -> tuple[str, str]:
    """``(path, version)`` of the CPython 3.12 to compile with: ``python`` when given (it must be one), else
    :func:`find_python312`. Raises :class:`BytecodeUnavailable`."""
    if not python:
        return find_python312()
    version = _probe(python)
    if not version:
        raise BytecodeUnavailable(f"{python} is not a CPython 3.12")
    return python, version


def _has_source(path: Path) -> bool:
    with zipfile.ZipFile(path) as archive:
        return any(name.endswith(".py") for name in archive.namelist())


def _compile_archive(python: str, version: str, src: Path, prefix: str, wheel: bool, cache: Path) -> tuple[Path, dict]:
    """The compiled copy of ``src`` (from the cache when present) and the helper's report."""
    key = hashlib.sha256(f"{sha256_file(src)}|{prefix}|{version}|{HELPER_VERSION}".encode()).hexdigest()[:24]
    folder = cache / "bytecode"
    target = folder / f"{key}-{src.name}"
    report_path = target.with_name(target.name + ".json")
    if target.is_file() and report_path.is_file():
        return target, json.loads(report_path.read_text(encoding="utf-8"))
    folder.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=folder, prefix=".compile-") as tmp:
        out = Path(tmp) / src.name
        job = json.dumps({"src": str(src), "dst": str(out), "prefix": prefix, "wheel": wheel})
        proc = subprocess.run([python, "-I", "-c", _HELPER, job], capture_output=True, text=True, timeout=600)
        if proc.returncode != 0:
            raise BytecodeError(f"compiling {src.name} with {python} failed:\n{proc.stderr.strip()[-2000:]}")
        report = json.loads(proc.stdout.strip().splitlines()[-1])
        os.replace(out, target)
        report_path.write_text(json.dumps(report), encoding="utf-8")
    return target, report


def compile_runtime(dist: Path, *, python: str | None = None, cache: Path | None = None) -> dict:
    """Replace ``.py`` by ``.pyc`` in ``dist/pyodide``'s stdlib zip and in every wheel its lock lists.

    Returns ``{"python": path or None, "version": str, "files": {name: {"compiled": n, "kept_source": [...],
    "before": bytes, "after": bytes}}}``; with no Python 3.12 it prints a notice, changes nothing and returns
    ``{"python": None, "notice": text, "files": {}}``. Safe to run again on its own output (already compiled
    archives have no ``.py`` left and are recognised by the lock's hash being the compiled one).
    """
    dist = Path(dist)
    folder = dist / "pyodide"
    try:
        python, version = compiler(python)
    except BytecodeUnavailable as exc:
        notice = f"werkbank bytecode: {exc}; keeping the stock .py files (boot compiles them in the browser)"
        print(notice, file=sys.stderr)
        return {"python": None, "notice": notice, "files": {}}
    cache = Path(cache) if cache is not None else cache_dir()
    lock_path = folder / "pyodide-lock.json"
    lock = json.loads(lock_path.read_text(encoding="utf-8"))
    jobs = [(STDLIB, STDLIB_PREFIX, False, None)]
    for name, entry in sorted(lock["packages"].items()):
        if entry.get("install_dir", "site") == "site" and entry["file_name"].endswith(".whl"):
            jobs.append((entry["file_name"], SITE_PREFIX, True, name))
    files = {}
    provenance = {}
    for filename, prefix, wheel, package in jobs:
        path = folder / filename
        if not path.is_file():
            continue
        before = path.stat().st_size
        if not _has_source(path):  # already bytecode (a second run over the same dist)
            files[filename] = {"compiled": 0, "kept_source": [], "before": before, "after": before}
            continue
        compiled, report = _compile_archive(python, version, path, prefix, wheel, cache)
        source_sha = sha256_file(path)
        shutil.copyfile(compiled, path)
        if package:
            lock["packages"][package]["sha256"] = sha256_file(path)
        provenance[filename] = {"source_sha256": source_sha, "sha256": sha256_file(path)}
        files[filename] = {**report, "before": before, "after": path.stat().st_size}
    write_if_changed(lock_path, (json.dumps(lock, indent=1, sort_keys=True) + "\n").encode())
    if provenance:
        record = {"compiler": version, "helper": HELPER_VERSION, "files": provenance}
        write_if_changed(folder / PROVENANCE, (json.dumps(record, indent=1, sort_keys=True) + "\n").encode())
    return {"python": python, "version": version, "files": files}


def engine_bytecode(files: dict[str, str], *, python: str | None = None, cache: Path | None = None) -> dict | None:
    """The engine's Python files compiled ahead of time for the workers: ``{"tag": "cpython-312", "files": {path:
    base64 of an unchecked-hash .pyc}}``, so no worker compiles the engine's source at boot, inside WebAssembly.
    Cached by the sources' hash and the compiler. None (with a notice) when there is no CPython 3.12: the workers
    then compile the sources themselves. A .pyc Python cannot use (another
    magic number) is ignored by its import system, which falls back to the source next to it."""
    try:
        python, version = compiler(python)
    except BytecodeUnavailable as exc:
        print(f"werkbank bytecode: {exc}; the engine ships as source only", file=sys.stderr)
        return None
    sources = {path: text for path, text in files.items() if path.endswith(".py")}  # not the catalogs (JSON)
    text = json.dumps({"files": sources, "prefix": ENGINE_PREFIX}, sort_keys=True)
    key = hashlib.sha256(f"{text}|{version}|{HELPER_VERSION}".encode()).hexdigest()[:24]
    folder = (Path(cache) if cache is not None else cache_dir()) / "bytecode"
    target = folder / f"engine-{key}.json"
    if target.is_file():
        return json.loads(target.read_text(encoding="utf-8"))
    folder.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=folder, prefix=".compile-") as tmp:
        job = Path(tmp) / "job.json"
        job.write_text(text, encoding="utf-8")
        proc = subprocess.run(
            [python, "-I", "-c", _ENGINE_HELPER, str(job)], capture_output=True, text=True, timeout=600
        )
        if proc.returncode != 0:
            raise BytecodeError(f"compiling the engine with {python} failed:\n{proc.stderr.strip()[-2000:]}")
        report = json.loads(proc.stdout.strip().splitlines()[-1])
        result = {"tag": report["tag"], "files": report["files"]}
        tmp_target = Path(tmp) / target.name
        tmp_target.write_text(json.dumps(result, sort_keys=True), encoding="utf-8")
        os.replace(tmp_target, target)
    return result
