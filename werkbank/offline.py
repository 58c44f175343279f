"""Offline and fast: the service worker, precompressed files and the headers file for static hosts.

Called at the end of a build, after every other file of ``dist/`` is written (see :func:`finish`):

- :func:`precompress` writes ``<file>.gz`` (and ``<file>.br`` when the ``brotli`` module happens to be installed)
  next to every big text or binary asset, for hosts that serve precompressed files (nginx ``gzip_static``);
- :func:`write_headers` writes ``dist/_headers`` (Netlify / Cloudflare Pages format): cross-origin isolation, the
  content security policy and revalidation for every file;
- :func:`write_service_worker` writes ``dist/sw.js`` from ``web/src/sw.js`` with the build's file list (path ->
  sha-256) and a cache name derived from it, so a new build gets a new cache and an "update available" notice.

:data:`ISOLATION_HEADERS` and :data:`CSP` are defined here once (``werkbank serve``, the pages and sw.js use them).
"""

from __future__ import annotations

import base64
import gzip
import hashlib
import json
import re
from pathlib import Path

from werkbank.errors import WerkbankError
from werkbank.vendor import REPO_ROOT, cache_dir, write_if_changed


class OfflineError(WerkbankError):
    """The offline step cannot write the service worker (its source lacks the build literal)."""


SW_SOURCE = REPO_ROOT / "web" / "src" / "sw.js"
SW_NAME = "sw.js"
HEADERS_NAME = "_headers"

#: The content security policy for every page (the header form; a <meta> CSP cannot carry frame-ancestors).
#: CodeMirror injects <style> elements, hence 'unsafe-inline' for styles; Pyodide compiles WebAssembly, hence
#: 'wasm-unsafe-eval' (WebAssembly only, not JavaScript eval).
CSP = (
    "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data: blob:; font-src 'self'; connect-src 'self'; worker-src 'self'; object-src 'none'; "
    "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)

#: The two worker scripts. A worker's own content security policy comes with its script's response (a page's CSP
#: does not reach it), from werkbank serve, from sw.js on any host once it is installed, and from _headers.
LEARNER_WORKER = "assets/worker.js"
GRADER_WORKER = "assets/grader_worker.js"
#: The Pyodide files a worker runs as scripts (the rest of pyodide/ it fetches: the wasm, the standard library, the
#: lock, the wheels).
RUNTIME_SCRIPTS = ("pyodide/pyodide.mjs", "pyodide/pyodide.asm.js")
#: Files of pyodide/ no worker loads (the bytecode step's record of what it compiled).
RUNTIME_UNUSED = ("pyodide/bytecode.json",)


def worker_files(files) -> dict[str, dict[str, list[str]]]:
    """What each worker may load, from the build's file list (posix paths relative to dist): ``{worker script:
    {"script": [...], "connect": [...]}}``. A learner worker: its script and the runtime's, the runtime's files,
    grading/engine.json and the lessons' wheels; never a lesson's grading file. The grader worker: the same runtime,
    every file of grading/ and the wheels. Exactly these files: no folder, no pattern."""
    files = sorted(set(files))
    runtime = [f for f in files if f.startswith("pyodide/") and f not in RUNTIME_SCRIPTS and f not in RUNTIME_UNUSED]
    wheels = [f for f in files if f.startswith("wheels/") and f.endswith(".whl")]
    grading = [f for f in files if f.startswith("grading/") and f.endswith((".json", ".checks"))]
    scripts = [f for f in RUNTIME_SCRIPTS if f in files]
    return {
        LEARNER_WORKER: {
            "script": [LEARNER_WORKER, *scripts],
            "connect": [*runtime, *(["grading/engine.json"] if "grading/engine.json" in files else []), *wheels],
        },
        GRADER_WORKER: {"script": [GRADER_WORKER, *scripts], "connect": [*runtime, *grading, *wheels]},
    }


#: The content security policy of both worker scripts: nothing (``default-src 'none'``) but scripts and requests of
#: the site's own origin, and WebAssembly compilation. Not the exact files: Firefox (ESR 153) matches no
#: path-specific source in a worker's policy, so a list of URLs keeps Pyodide from loading there. The exact-file rule
#: for a learner worker is the service worker's (sw.js refuses its requests for anything not in BUILD.workers), and
#: the lockdown leaves learner code no fetch at all.
WORKER_CSP = "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; connect-src 'self'"


#: The headers that make a page cross-origin isolated (a process of its own: no cross-origin page shares it). Defined
#: here once: ``werkbank serve`` sends them, ``_headers`` lists them, and sw.js adds them (the build writes them into
#: its BUILD literal) where a plain host does not.
ISOLATION_HEADERS = {
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Embedder-Policy": "require-corp",
    "Cross-Origin-Resource-Policy": "same-origin",
}

#: Headers every response of the site should carry on a host that lets us set them.
SITE_HEADERS = {
    **ISOLATION_HEADERS,
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    # Revalidate everything (a 304 costs a round trip, not the bytes); the service worker makes repeat visits fast.
    "Cache-Control": "no-cache",
}

#: Suffixes worth precompressing, and the size from which it pays off.
COMPRESS_SUFFIXES = (".wasm", ".js", ".mjs", ".json", ".zip", ".whl", ".html", ".css", ".svg", ".txt")
COMPRESS_MIN_SIZE = 10 * 1024
#: A compressed copy is kept only when it is at most this fraction of the original (zip/whl are mostly deflated).
COMPRESS_MAX_RATIO = 0.9
COMPRESSED_SUFFIXES = (".gz", ".br")


def _is_compressed_copy(rel: str) -> bool:
    return rel.endswith(COMPRESSED_SUFFIXES)


def precached(rel: str) -> bool:
    """True when the build file at ``rel`` (posix path relative to dist) belongs in the service worker's cache."""
    name = rel.rsplit("/", 1)[-1]
    return not (rel in (SW_NAME, HEADERS_NAME, "build.json") or name.startswith(".") or _is_compressed_copy(rel))


def integrity(path: Path) -> str:
    """The Subresource Integrity string of a file: ``sha256-<base64 digest>``."""
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return "sha256-" + base64.b64encode(digest.digest()).decode("ascii")


def asset_manifest(dist: Path) -> dict[str, str]:
    """Every file of the build the service worker saves: posix path relative to ``dist`` -> integrity string."""
    dist = Path(dist)
    out = {}
    for path in sorted(p for p in dist.rglob("*") if p.is_file()):
        rel = path.relative_to(dist).as_posix()
        if precached(rel):
            out[rel] = integrity(path)
    return out


def build_version(manifest: dict[str, str]) -> str:
    """A short hash of the whole file list (paths and contents): the name of this build's cache."""
    digest = hashlib.sha256()
    for rel, value in sorted(manifest.items()):
        digest.update(rel.encode("utf-8") + b"\0" + value.encode("ascii") + b"\n")
    return digest.hexdigest()[:16]


_BUILD_LITERAL = re.compile(r"/\* @build \*/.*?/\* @end-build \*/", re.S)


def render_service_worker(source: str, manifest: dict[str, str], version: str) -> str:
    """``source`` (web/src/sw.js) with its placeholder BUILD literal replaced by this build's version and files."""
    data = json.dumps(
        {
            "version": version,
            "files": manifest,
            "isolation": list(ISOLATION_HEADERS.items()),
            "workers": worker_files(manifest),
            "workerPolicy": WORKER_CSP,
        },
        separators=(",", ":"),
        sort_keys=True,
    )
    data = data.replace("<", "\\u003c").replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")
    text, count = _BUILD_LITERAL.subn(lambda _m: data, source)
    if count != 1:
        raise OfflineError(f"sw.js must contain exactly one /* @build */ ... /* @end-build */ literal, found {count}")
    return text


def write_service_worker(dist: Path, source: Path | None = None) -> str:
    """Write ``dist/sw.js`` with the current file list of ``dist``; return the build version (cache name suffix).

    Call it last, after every other file of the build is in place: files written later are not saved offline.
    """
    dist = Path(dist)
    manifest = asset_manifest(dist)
    version = build_version(manifest)
    text = render_service_worker(Path(source or SW_SOURCE).read_text(encoding="utf-8"), manifest, version)
    write_if_changed(dist / SW_NAME, text.encode("utf-8"))
    return version


def headers_file() -> str:
    """The text of ``dist/_headers`` (Netlify / Cloudflare Pages syntax)."""
    lines = [
        "# werkbank: headers for static hosts that read _headers (Netlify, Cloudflare Pages).",
        "# Cross-origin isolation keeps the site's pages in a process of their own; without these headers the",
        "# service worker adds the same isolation headers itself after the first visit.",
        "/*",
    ]
    lines += [f"  {name}: {value}" for name, value in SITE_HEADERS.items()]
    lines += ["/sw.js", "  Cache-Control: no-cache, no-store"]
    # the workers' own policy (a page's does not reach a worker)
    for worker in (LEARNER_WORKER, GRADER_WORKER):
        lines += [f"/{worker}", f"  Content-Security-Policy: {WORKER_CSP}"]
    return "\n".join(lines) + "\n"


def write_headers(dist: Path) -> Path:
    """Write ``dist/_headers``; return its path."""
    path = Path(dist) / HEADERS_NAME
    write_if_changed(path, headers_file().encode("utf-8"))
    return path


def _gzip(data: bytes) -> bytes:
    """gzip level 9 with mtime=0 and no file name: the same input always gives the same bytes.

    Big inputs (the 10 MB wasm takes seconds) are kept in ``<cache>/gzip/<sha-256>.gz``, because the vendoring step
    prunes unknown files from dist/pyodide/ and a rebuild would otherwise compress them again.
    """
    if len(data) < 256 * 1024:
        return gzip.compress(data, compresslevel=9, mtime=0)
    folder = cache_dir() / "gzip"
    cached = folder / f"{hashlib.sha256(data).hexdigest()}.gz"
    try:
        packed = cached.read_bytes()
        if gzip.decompress(packed) == data:
            return packed
    except (OSError, EOFError):
        pass
    packed = gzip.compress(data, compresslevel=9, mtime=0)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        write_if_changed(cached, packed)
    except OSError:
        pass  # a read-only cache only costs time
    return packed


def _brotli():
    try:
        import brotli  # type: ignore[import-not-found]
    except ImportError:
        return None
    return brotli


def _eligible(path: Path, dist: Path) -> bool:
    rel = path.relative_to(dist).as_posix()
    return (
        path.suffix.lower() in COMPRESS_SUFFIXES
        and not _is_compressed_copy(rel)
        and rel != HEADERS_NAME
        and path.stat().st_size >= COMPRESS_MIN_SIZE
    )


def precompress(dist: Path, *, use_brotli: bool | None = None) -> list[str]:
    """Write ``.gz`` (and ``.br`` with the optional ``brotli`` module) next to every big compressible file.

    Big: at least :data:`COMPRESS_MIN_SIZE` bytes with a suffix in :data:`COMPRESS_SUFFIXES`. A copy is kept only
    when it saves at least 10 %; stale copies (source gone, changed to small, or no longer worth it) are deleted.
    Existing copies whose content still matches are left untouched. Returns the relative paths of the copies.
    """
    dist = Path(dist)
    br = _brotli() if use_brotli in (None, True) else None
    written: list[str] = []
    keep: set[Path] = set()
    for path in sorted(p for p in dist.rglob("*") if p.is_file()):
        if not _eligible(path, dist):
            continue
        data = path.read_bytes()
        limit = len(data) * COMPRESS_MAX_RATIO
        gz_path = path.with_name(path.name + ".gz")
        current = None
        if gz_path.exists():
            try:
                current = gzip.decompress(gz_path.read_bytes())
            except (OSError, EOFError):
                current = None
        if current == data and gz_path.stat().st_size <= limit:
            keep.add(gz_path)
        else:
            packed = _gzip(data)
            if len(packed) <= limit:
                write_if_changed(gz_path, packed)
                keep.add(gz_path)
        if br is not None:
            br_path = path.with_name(path.name + ".br")
            packed = br.compress(data, quality=11)
            if len(packed) <= limit:
                write_if_changed(br_path, packed)
                keep.add(br_path)
    for path in sorted(p for p in dist.rglob("*") if p.is_file() and p.name.endswith(COMPRESSED_SUFFIXES)):
        if path not in keep:
            path.unlink()
        else:
            written.append(path.relative_to(dist).as_posix())
    return written


def finish(dist: Path) -> dict:
    """The offline step of a build: precompressed copies, ``_headers``, then ``sw.js`` (last, it lists the rest).

    Returns ``{"version": cache version, "compressed": [relative paths], "precached": number of files}``.
    """
    dist = Path(dist)
    compressed = precompress(dist)
    write_headers(dist)
    version = write_service_worker(dist)
    return {"version": version, "compressed": compressed, "precached": len(asset_manifest(dist))}
