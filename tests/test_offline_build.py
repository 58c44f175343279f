"""Offline and fast, the build's side (no browser): the service worker's file list, precompressed files, _headers and
the bytecode build. In the browser: tests/browser/test_offline.py."""

from __future__ import annotations

import base64
import gzip
import hashlib
import html
import json
import os
import re
import shutil
import subprocess
import zipfile
from pathlib import Path

import pytest

from tests.conftest import python312
from werkbank import bytecode, offline

LESSON = "claims-abstention"


def _sw_build(dist: Path) -> dict:
    text = (dist / "sw.js").read_text(encoding="utf-8")
    match = re.search(r"const BUILD = (\{.*?\});\n", text)
    assert match, "sw.js has no BUILD literal"
    return json.loads(match.group(1))


def _sri(data: bytes) -> str:
    return "sha256-" + base64.b64encode(hashlib.sha256(data).digest()).decode()


def test_service_worker_lists_every_file_with_its_hash(tmp_path):
    """sw.js carries each build file's sha-256; the cache version changes with content and only with content."""
    (tmp_path / "lessons" / "x").mkdir(parents=True)
    files = {"index.html": b"<p>home</p>", "lessons/x/en.html": b"<p>lesson</p>", "pyodide/a b.wasm": b"\0asm"}
    for rel, data in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_bytes(data)
    (tmp_path / "build.json").write_text("{}")
    offline.write_headers(tmp_path)
    (tmp_path / "index.html.gz").write_bytes(gzip.compress(files["index.html"]))
    first = offline.write_service_worker(tmp_path)
    build = _sw_build(tmp_path)
    assert build["version"] == first
    assert build["files"] == {rel: _sri(data) for rel, data in files.items()}
    assert offline.write_service_worker(tmp_path) == first  # nothing changed: same version, same bytes
    (tmp_path / "lessons/x/en.html").write_bytes(b"<p>lesson, revised</p>")
    second = offline.write_service_worker(tmp_path)
    assert second != first
    assert _sw_build(tmp_path)["files"]["lessons/x/en.html"] == _sri(b"<p>lesson, revised</p>")


def test_render_service_worker_needs_its_placeholder():
    """A sw.js source without the BUILD placeholder is refused instead of shipping an empty file list."""
    with pytest.raises(offline.OfflineError):
        offline.render_service_worker("const BUILD = {};", {}, "v")


def test_precompress_keeps_only_copies_worth_having(tmp_path):
    """Big compressible files get a .gz that decompresses to them; small or incompressible ones get none."""
    big = ("def f(x):\n    return x * 2\n" * 2000).encode()
    noise = os.urandom(40_000)
    (tmp_path / "assets").mkdir()
    (tmp_path / "assets" / "app.js").write_bytes(big)
    (tmp_path / "assets" / "tiny.js").write_bytes(b"let a = 1;\n" * 10)
    (tmp_path / "x.whl").write_bytes(noise)
    (tmp_path / "photo.png").write_bytes(big)  # not a compressible type on the list
    written = offline.precompress(tmp_path)
    assert written == ["assets/app.js.gz"]
    assert gzip.decompress((tmp_path / "assets/app.js.gz").read_bytes()) == big
    # changed source -> new copy; removed source -> stale copy deleted
    (tmp_path / "assets" / "app.js").write_bytes(big + b"# more\n" * 3000)
    offline.precompress(tmp_path)
    assert gzip.decompress((tmp_path / "assets/app.js.gz").read_bytes()).endswith(b"# more\n")
    (tmp_path / "assets" / "app.js").unlink()
    assert offline.precompress(tmp_path) == []
    assert not (tmp_path / "assets/app.js.gz").exists()


def _csp_directives(text: str) -> dict[str, str]:
    return {part.split()[0]: " ".join(part.split()[1:]) for part in text.split(";") if part.strip()}


def test_headers_file_isolates_and_matches_the_pages_csp(dist):
    """dist/_headers sends COOP/COEP and the same CSP as the pages' <meta>, plus frame-ancestors (header-only)."""
    headers = (dist / "_headers").read_text(encoding="utf-8")
    assert "Cross-Origin-Opener-Policy: same-origin" in headers
    assert "Cross-Origin-Embedder-Policy: require-corp" in headers
    csp = _csp_directives(re.search(r"Content-Security-Policy: (.*)", headers).group(1))
    assert csp["frame-ancestors"] == "'none'" and csp["object-src"] == "'none'"
    assert csp["script-src"] == "'self' 'wasm-unsafe-eval'"
    page = (dist / "lessons" / LESSON / "en.html").read_text(encoding="utf-8")
    meta = _csp_directives(
        html.unescape(re.search(r'http-equiv="Content-Security-Policy" content="([^"]*)"', page).group(1))
    )
    assert {k: v for k, v in csp.items() if k != "frame-ancestors"} == meta


def test_built_site_ships_the_service_worker_with_every_file(dist):
    """The build's sw.js lists exactly the files of dist that belong offline, with their current hashes."""
    assert (dist / "sw.js").is_file(), "dist/sw.js is missing: werkbank build must call werkbank.offline.finish"
    build = _sw_build(dist)
    expected = {p.relative_to(dist).as_posix() for p in dist.rglob("*") if p.is_file()}
    expected = {rel for rel in expected if offline.precached(rel)}
    assert set(build["files"]) == expected
    for rel in ("pyodide/pyodide.asm.wasm", "grading/engine.json", f"lessons/{LESSON}/en.html", "assets/worker.js"):
        assert build["files"][rel] == _sri((dist / rel).read_bytes())
    assert (dist / "pyodide" / "pyodide.asm.wasm.gz").is_file()


def test_workers_are_allowed_exactly_their_files(dist):
    """sw.js and _headers carry each worker's content security policy: a learner worker may load the runtime, its
    packages, engine.json and the lessons' wheels, every one a file of the build, and never a lesson's grading file."""
    build = _sw_build(dist)
    learner = build["workers"][offline.LEARNER_WORKER]
    grader = build["workers"][offline.GRADER_WORKER]
    for allowed in (learner, grader):
        assert set(allowed["script"]) | set(allowed["connect"]) <= set(build["files"])
        assert {"pyodide/pyodide.mjs", "pyodide/pyodide.asm.js"} <= set(allowed["script"])
        assert "pyodide/pyodide.asm.wasm" in allowed["connect"]
    assert "grading/engine.json" in learner["connect"]
    assert not [f for f in learner["connect"] if f.startswith("grading/") and f != "grading/engine.json"]
    assert f"grading/{LESSON}.json" in grader["connect"]
    headers = (dist / "_headers").read_text(encoding="utf-8")
    for worker in (offline.LEARNER_WORKER, offline.GRADER_WORKER):
        rule = headers.split(f"/{worker}\n", 1)[1].split("\n", 1)[0]
        assert rule.strip().startswith("Content-Security-Policy: default-src 'none';"), rule


# ---------------------------------------------------------------- bytecode


def test_bytecode_replaces_sources_and_updates_the_lock(bytecode_dist):
    """No .py is left in the stdlib zip or the wheels, the lock hashes the new wheels, RECORD matches."""
    copy = bytecode_dist
    with zipfile.ZipFile(copy / "pyodide" / "python_stdlib.zip") as stdlib:
        assert sum(n.endswith(".pyc") for n in stdlib.namelist()) > 400
    lock = json.loads((copy / "pyodide" / "pyodide-lock.json").read_text())
    for name, entry in lock["packages"].items():
        path = copy / "pyodide" / entry["file_name"]
        assert hashlib.sha256(path.read_bytes()).hexdigest() == entry["sha256"], name
        with zipfile.ZipFile(path) as wheel:
            names = wheel.namelist()
            assert not [n for n in names if n.endswith(".py")], name
            record = next(n for n in names if n.endswith(".dist-info/RECORD"))
            for line in wheel.read(record).decode().splitlines():
                file, digest, size = line.rsplit(",", 2)
                if digest:
                    data = wheel.read(file)
                    assert (
                        int(size) == len(data)
                        and digest
                        == "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
                    ), file
    from werkbank import vendor

    upstream = vendor.load_lock()["packages"]
    made_from = json.loads((copy / "pyodide" / bytecode.PROVENANCE).read_text())["files"]
    for name, entry in lock["packages"].items():  # each compiled wheel came from the hash-verified stock wheel
        assert made_from[entry["file_name"]]["source_sha256"] == upstream[name]["sha256"], name
    with zipfile.ZipFile(copy / "pyodide" / "python_stdlib.zip") as stdlib:
        assert not [n for n in stdlib.namelist() if n.endswith(".py")]
        data = stdlib.read("json/decoder.pyc")
    assert data[:4] == bytecode.MAGIC_312
    python, _ = python312()
    probe = subprocess.run(
        [
            python,
            "-I",
            "-c",
            "import marshal, sys; c = marshal.loads(sys.stdin.buffer.read()[16:]); print(c.co_filename)",
        ],
        input=data,
        capture_output=True,
        check=True,
    )
    assert probe.stdout.decode().strip() == "/lib/python312.zip/json/decoder.py"


def test_bytecode_without_python312_keeps_the_stock_files(tmp_path, dist):
    """With no usable 3.12 the step changes nothing and says so."""
    (tmp_path / "pyodide").mkdir()
    shutil.copyfile(dist / "pyodide" / "pyodide-lock.json", tmp_path / "pyodide" / "pyodide-lock.json")
    before = (tmp_path / "pyodide" / "pyodide-lock.json").read_bytes()
    # a program that runs but is no CPython 3.12 (the test's own interpreter may well be one)
    not_312 = tmp_path / "python3.11"
    not_312.write_text("#!/bin/sh\necho 3.11.7\n")
    not_312.chmod(0o755)
    report = bytecode.compile_runtime(tmp_path, python=str(not_312))
    assert report["python"] is None and "keeping the stock" in report["notice"]
    assert (tmp_path / "pyodide" / "pyodide-lock.json").read_bytes() == before
