"""File helpers of the vendoring: the download cache, sha-256 checks, the lock file, writes that only touch
changed files, and the vendoring errors.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from pathlib import Path
from typing import Iterable

from werkbank.errors import WerkbankError

REPO_ROOT = Path(__file__).resolve().parents[2]
PYODIDE_DIR = REPO_ROOT / "node_modules" / "pyodide"
PYODIDE_VERSION = "0.27.7"
#: Runtime files copied verbatim (pyodide.mjs is rewritten, pyodide-lock.json trimmed).
RUNTIME_FILES = ("pyodide.mjs", "pyodide.asm.js", "pyodide.asm.wasm", "python_stdlib.zip")
#: Packages from the Pyodide distribution that dist/ ships; everything else is dropped from the lock.
SHIPPED_PACKAGES = ("numpy", "micropip", "packaging")


class VendorError(WerkbankError):
    """Vendoring failed; the message says what, why, and what to do about it."""


class HashMismatch(VendorError):
    """Bytes whose sha-256 differs from the lock file; names the file and both hashes."""

    def __init__(self, name: str, expected: str, actual: str):
        self.name, self.expected, self.actual = name, expected, actual
        super().__init__(f"{name}: sha256 mismatch: expected {expected}, got {actual}")


# --------------------------------------------------------------------------------------------------------------------
# small helpers


def cache_dir() -> Path:
    """The download cache outside the repository: ``$WERKBANK_CACHE`` or ``~/.cache/werkbank``."""
    env = os.environ.get("WERKBANK_CACHE")
    return Path(env).expanduser() if env else Path.home() / ".cache" / "werkbank"


def sha256_file(path: Path) -> str:
    """Hex sha-256 of a file's contents."""
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def verify_file(path: Path, name: str, expected: str) -> None:
    """Raise :class:`HashMismatch` unless ``path`` hashes to ``expected``."""
    actual = sha256_file(path)
    if actual != expected.lower():
        raise HashMismatch(name, expected.lower(), actual)


def load_lock(path: Path | None = None) -> dict:
    """Read a pyodide-lock.json (the one in node_modules/pyodide by default)."""
    path = path or PYODIDE_DIR / "pyodide-lock.json"
    with open(path, encoding="utf-8") as fh:
        return json.load(fh)


def lock_hashes(lock: dict, packages: Iterable[str] = SHIPPED_PACKAGES) -> dict[str, str]:
    """Map wheel file name -> sha-256 for the named packages of a lock."""
    out = {}
    for name in packages:
        try:
            entry = lock["packages"][name]
        except KeyError:
            raise VendorError(f"pyodide-lock.json has no package {name!r}") from None
        out[entry["file_name"]] = entry["sha256"]
    return out


def _same_bytes(a: Path, b: Path) -> bool:
    if not b.exists() or a.stat().st_size != b.stat().st_size:
        return False
    with open(a, "rb") as fa, open(b, "rb") as fb:
        while True:
            ca, cb = fa.read(1 << 20), fb.read(1 << 20)
            if ca != cb:
                return False
            if not ca:
                return True


def copy_if_changed(src: Path, dst: Path) -> bool:
    """Copy ``src`` to ``dst`` unless ``dst`` already holds the same bytes; True when it copied."""
    if _same_bytes(src, dst):
        return False
    dst.parent.mkdir(parents=True, exist_ok=True)
    tmp = dst.with_name(f".{dst.name}.tmp")
    shutil.copyfile(src, tmp)
    os.replace(tmp, dst)
    return True


def write_if_changed(dst: Path, data: bytes) -> bool:
    """Write ``data`` to ``dst`` unless it already holds exactly these bytes; True when it wrote."""
    if dst.exists() and dst.stat().st_size == len(data) and dst.read_bytes() == data:
        return False
    dst.parent.mkdir(parents=True, exist_ok=True)
    tmp = dst.with_name(f".{dst.name}.tmp")
    tmp.write_bytes(data)
    os.replace(tmp, dst)
    return True


#: Suffixes of precompressed copies that a later build step (werkbank.offline) writes next to a file.
COMPRESSED_SUFFIXES = (".gz", ".br")


def prune(folder: Path, keep: Iterable[str]) -> None:
    """Delete files directly in ``folder`` whose names are not in ``keep`` (stale output of earlier builds).

    Precompressed copies of kept files (``name.gz``, ``name.br``) stay; the offline step checks them itself.
    """
    keep = set(keep)
    keep |= {name + suffix for name in keep for suffix in COMPRESSED_SUFFIXES}
    if folder.is_dir():
        for child in folder.iterdir():
            if child.is_file() and child.name not in keep:
                child.unlink()
