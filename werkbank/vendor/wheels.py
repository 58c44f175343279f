"""Per-lesson extra wheels in ``dist/wheels/``: pins (``name==version``, the one pin pattern), pure-Python wheels
only, downloaded with pip into the cache once.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from werkbank.vendor.sources import pip_tail
from werkbank.vendor.files import VendorError, cache_dir, copy_if_changed, prune, sha256_file, write_if_changed

# --------------------------------------------------------------------------------------------------------------------
# per-lesson extra wheels

#: The one pattern of a pin, ``name==version`` (lessons.py checks requirements with it too).
PIN = re.compile(r"^([A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)==([0-9][0-9A-Za-z.!+_-]*)$")
_WHEEL = re.compile(
    r"^(?P<name>[^-]+)-(?P<version>[^-]+)(?:-\d[^-]*)?-(?P<py>[^-]+)-(?P<abi>[^-]+)-(?P<plat>[^-]+)\.whl$"
)


def canonical_name(name: str) -> str:
    """PEP 503 normalised project name."""
    return re.sub(r"[-_.]+", "-", name).lower()


def parse_pin(pin: str) -> tuple[str, str]:
    """Split ``"name==version"``; raise :class:`VendorError` for anything else (ranges, extras, URLs, markers)."""
    if not isinstance(pin, str):
        raise VendorError(f"requirement {pin!r} must be a string like 'six==1.16.0'")
    m = PIN.match(pin.strip())
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
    cmd = [
        sys.executable,
        "-m",
        "pip",
        "download",
        "--no-deps",
        "--only-binary=:all:",
        "--quiet",
        "--disable-pip-version-check",
        "--platform",
        "any",
        "--python-version",
        "3.12",
        "--implementation",
        "py",
        "--abi",
        "none",
        "-d",
        str(dest),
        pin,
    ]
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    except (OSError, subprocess.SubprocessError) as exc:
        raise VendorError(f"{pin}: pip download failed: {exc}") from None
    if proc.returncode != 0:
        raise VendorError(
            f"{pin}: pip download found no pure-Python py3-none-any wheel (exit {proc.returncode}): "
            f"{pip_tail(proc)}. A lesson can only require pure-Python packages published as such a wheel."
        )


def requirement_wheel(pin: str, cache: Path | None = None, download: Callable[[str, Path], None] | None = None) -> Path:
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


def vendor_requirements(
    dist: Path,
    lesson_requirements: dict[str, list[str]],
    *,
    cache: Path | None = None,
    download: Callable[[str, Path], None] | None = None,
    prune_stale: bool = True,
) -> dict[str, list[dict]]:
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
