"""The Pyodide runtime in ``dist/pyodide/``: the npm package's files, pyodide.mjs pointed at its own folder, a
lock trimmed to what ships, the three wheels; and the check that nothing in ``dist/`` names a CDN.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Iterable

from werkbank.vendor.files import (
    PYODIDE_DIR,
    PYODIDE_VERSION,
    RUNTIME_FILES,
    SHIPPED_PACKAGES,
    VendorError,
    copy_if_changed,
    load_lock,
    lock_hashes,
    prune,
    verify_file,
    write_if_changed,
)
from werkbank.vendor.sources import obtain


#: Byte strings that must not occur anywhere in dist/ (a CDN address would break offline use).
FORBIDDEN_HOSTS = (b"cdn.jsdelivr", b"unpkg", b"cdnjs", b"pyodide.org")

# The single CDN address in pyodide.mjs, a template literal handed to setCdnUrl.
_CDN_LITERAL = re.compile(r"`https://cdn\.jsdelivr\.net/pyodide/v\$\{[^`}]*\}/full/`")
# Same-site replacement: the folder pyodide.mjs itself was loaded from.
_SAME_SITE_LITERAL = '`${new URL("./",import.meta.url).href}`'
_SOURCE_MAP = re.compile(rb"\n?//# sourceMappingURL=[^\n]*\n?$")


# --------------------------------------------------------------------------------------------------------------------
# the runtime


def rewrite_pyodide_mjs(source: bytes) -> bytes:
    """Point pyodide.mjs's only CDN address at the folder it was loaded from, and drop its source-map comment."""
    text = source.decode("utf-8")
    text, count = _CDN_LITERAL.subn(lambda _m: _SAME_SITE_LITERAL, text)
    if count != 1:
        raise VendorError(f"pyodide.mjs: expected exactly one CDN template literal to rewrite, found {count}")
    return _SOURCE_MAP.sub(b"\n", text.encode("utf-8"))


def trimmed_lock(lock: dict, packages: Iterable[str] = SHIPPED_PACKAGES) -> dict:
    """The lock with only the shipped packages, so Pyodide never looks for a wheel dist/ does not have."""
    packages = list(packages)
    kept = {name: lock["packages"][name] for name in packages}
    for name, entry in kept.items():
        missing = [d for d in entry.get("depends", []) if d not in kept]
        if missing:
            raise VendorError(f"shipped package {name} depends on {missing}, which are not shipped")
    return {"info": lock["info"], "packages": kept}


def vendor_runtime(
    dist: Path, *, cache: Path | None = None, sources: list | None = None, pyodide_dir: Path | None = None
) -> list[str]:
    """Fill ``dist/pyodide/`` with the runtime, the trimmed lock and the verified wheels; return the file names."""
    src_dir = Path(pyodide_dir) if pyodide_dir else PYODIDE_DIR
    if not (src_dir / "pyodide.mjs").is_file():
        raise VendorError(f"{src_dir} has no pyodide.mjs: run `npm ci` (or `make setup`) first")
    lock = load_lock(src_dir / "pyodide-lock.json")
    version = lock.get("info", {}).get("version")
    if version != PYODIDE_VERSION:
        raise VendorError(f"node_modules has Pyodide {version}, werkbank vendors {PYODIDE_VERSION}: run `npm ci`")
    out = Path(dist) / "pyodide"
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for name in RUNTIME_FILES:
        if name == "pyodide.mjs":
            write_if_changed(out / name, rewrite_pyodide_mjs((src_dir / name).read_bytes()))
        else:
            copy_if_changed(src_dir / name, out / name)
        written.append(name)
    lock_bytes = (json.dumps(trimmed_lock(lock), indent=1, sort_keys=True) + "\n").encode()
    write_if_changed(out / "pyodide-lock.json", lock_bytes)
    written.append("pyodide-lock.json")
    wheels = lock_hashes(lock)
    for filename, path in obtain(wheels, cache, sources).items():
        copy_if_changed(path, out / filename)
        verify_file(out / filename, filename, wheels[filename])
        written.append(filename)
    prune(out, written)
    return written


def scan_for_cdn(dist: Path) -> list[str]:
    """Every ``file: host`` in ``dist`` whose raw bytes contain a CDN host name (binary files too)."""
    hits = []
    for path in sorted(Path(dist).rglob("*")):
        if path.is_file():
            data = path.read_bytes()
            for host in FORBIDDEN_HOSTS:
                if host in data:
                    hits.append(f"{path.relative_to(dist)}: {host.decode()}")
    return hits


def check_no_cdn(dist: Path) -> None:
    """Raise :class:`VendorError` if any file in ``dist`` still names a CDN."""
    hits = scan_for_cdn(dist)
    if hits:
        raise VendorError("dist/ must not reference a CDN, but found:\n" + "\n".join(f"  - {h}" for h in hits))
