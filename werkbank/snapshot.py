"""Build step: a memory snapshot of Python, so the site's workers skip Python's start-up.

Pyodide 0.27.7 can save its whole state after start-up (experimental: ``loadPyodide({_makeSnapshot: true})``, then
``pyodide.makeMemorySnapshot()``) and start from such an image instead of booting Python
(``loadPyodide({_loadSnapshot: bytes})``). :func:`make_snapshot` makes one at build time in Node
(``werkbank/node/snapshot.mjs``), from this build's own ``dist/pyodide/`` (after the bytecode step, so the image
matches the standard library the site serves) and ``dist/grading/engine.json``, with the learner host and the
standard library it imports already imported. The workers boot from it (``web/src/pyboot.js``) and fall back to a
normal boot, saying so in the console, when it is missing or does not load.

The image is the wasm memory (20 MB, mostly empty), stored gzip-compressed as :data:`IMAGE` (4-5 MB; the workers
inflate it with ``DecompressionStream``): a plain static host sends it as it is, and the service worker saves it like
every other file (its name does not end in ``.gz``, which would mark a precompressed copy). Pyodide refuses an image
made by another build of its runtime (a build id check); :data:`RECORD` names the inputs the image was made from
(sha-256 of the runtime files, the engine and the script), so an unchanged build reuses the image and a changed one
makes a new one.

Without Node, or when making the image fails, the build prints why and ships no image.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from werkbank.vendor import sha256_file, write_if_changed

SCRIPT = Path(__file__).resolve().parent / "node" / "snapshot.mjs"
#: Where the image goes, relative to dist (the workers fetch ``../snapshot/python.bin.gzip`` from ``assets/``).
IMAGE = "snapshot/python.bin.gzip"
RECORD = "snapshot/python.json"
#: The files an image depends on, relative to dist.
INPUTS = ("pyodide/pyodide.mjs", "pyodide/pyodide.asm.js", "pyodide/pyodide.asm.wasm", "pyodide/python_stdlib.zip",
          "grading/engine.json")
#: The scripts that make it (a change to either makes a new image).
SCRIPTS = (SCRIPT, SCRIPT.parents[2] / "web" / "src" / "pyboot.js")
TIMEOUT = 300
#: Strings that must not be in the image: a CDN address would mean the restored Python fetches from one.
FORBIDDEN = (b"cdn.jsdelivr",)


def inputs_key(dist: Path) -> dict[str, str]:
    """sha-256 of every input of the image (and of the script that makes it)."""
    dist = Path(dist)
    key = {rel: sha256_file(dist / rel) for rel in INPUTS}
    for script in SCRIPTS:
        key[script.relative_to(SCRIPT.parents[2]).as_posix()] = sha256_file(script)
    return key


def remove(dist: Path) -> None:
    """Delete the image and its record (a build that cannot make one must not ship a stale one)."""
    for rel in (IMAGE, RECORD):
        (Path(dist) / rel).unlink(missing_ok=True)


def make_snapshot(dist: Path) -> dict | None:
    """Write ``dist/snapshot/python.bin.gzip`` (and its record); return the record, or None (and print why) when no
    image could be made. Reuses the image when its inputs are unchanged."""
    dist = Path(dist)
    key = inputs_key(dist)
    record_path, image_path = dist / RECORD, dist / IMAGE
    try:
        record = json.loads(record_path.read_text(encoding="utf-8"))
        if record.get("inputs") == key and image_path.is_file() and sha256_file(image_path) == record.get("sha256"):
            return record
    except (OSError, ValueError):
        pass
    remove(dist)
    node = shutil.which("node")
    if node is None:
        print("werkbank snapshot: node is not installed; the workers boot Python without a snapshot", file=sys.stderr)
        return None
    with tempfile.TemporaryDirectory(prefix="werkbank-snapshot-") as tmp:
        raw = Path(tmp) / "python.bin"
        try:
            proc = subprocess.run([node, str(SCRIPT), str(dist.resolve()), str(raw)], capture_output=True, text=True,
                                  timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            proc = None
        if proc is None or proc.returncode != 0 or not raw.is_file():
            why = "timed out" if proc is None else proc.stderr.strip()[-1500:]
            print(f"werkbank snapshot: making the image failed; the workers boot without it:\n{why}", file=sys.stderr)
            return None
        data = raw.read_bytes()
        report = json.loads(proc.stdout.strip().splitlines()[-1])
    for host in FORBIDDEN:
        if host in data:
            print(f"werkbank snapshot: the image names {host.decode()}; not shipping it", file=sys.stderr)
            return None
    packed = gzip.compress(data, compresslevel=6, mtime=0)
    image_path.parent.mkdir(parents=True, exist_ok=True)
    write_if_changed(image_path, packed)
    record = {"inputs": key, "sha256": hashlib.sha256(packed).hexdigest(), "bytes": len(data),
              "compressed": len(packed), **{k: report[k] for k in ("modules", "version") if k in report}}
    write_if_changed(record_path, (json.dumps(record, indent=1, sort_keys=True) + "\n").encode("utf-8"))
    return record
