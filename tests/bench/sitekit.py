"""Helpers shared by the benchmark and the offline browser tests: building sites, serving folders, timing."""

from __future__ import annotations

import shutil
import threading
import time
from contextlib import contextmanager
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]


def ensure_offline(dist: Path) -> Path:
    """Make sure ``dist`` ships its service worker (``werkbank build`` writes it; a copied folder may lack it)."""
    from werkbank import offline

    dist = Path(dist)
    if not (dist / "sw.js").exists():
        offline.finish(dist)
    return dist


def build_site(dist: Path, lessons: list[str] | None = None) -> Path:
    """``werkbank build`` into ``dist`` as it ships by default (bytecode runtime when a CPython 3.12 is there), only
    ``lessons`` when given."""
    from werkbank.build import build

    build(Path(dist), lessons=lessons)
    return ensure_offline(dist)


def copy_site(src: Path, dst: Path) -> Path:
    """A copy of a built site (for builds that must differ from the shared one)."""
    shutil.copytree(src, dst, dirs_exist_ok=True)
    return dst


class ByteCounter:
    """Body bytes a server sent (and responses with a body), since the last :meth:`reset`."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.reset()

    def reset(self) -> None:
        """Start counting from zero."""
        with self.lock:
            self.bytes = 0
            self.responses = 0
            self.paths: list[str] = []

    def add(self, path: str, count: int) -> None:
        """Record one response body of ``count`` bytes."""
        with self.lock:
            self.bytes += count
            self.responses += 1
            self.paths.append(path)


class _QuietHandler(SimpleHTTPRequestHandler):
    extensions_map = {
        **SimpleHTTPRequestHandler.extensions_map,
        ".mjs": "text/javascript",
        ".wasm": "application/wasm",
        ".js": "text/javascript",
        ".json": "application/json",
    }
    counter: ByteCounter | None = None

    def copyfile(self, source, outputfile):
        """Copy the body, counting its bytes."""
        total = 0
        try:
            while True:
                block = source.read(1 << 16)
                if not block:
                    break
                outputfile.write(block)
                total += len(block)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the browser went away (a context closed mid-download): count what was sent
        if self.counter is not None:
            self.counter.add(self.path, total)

    def log_message(self, format, *args):  # noqa: A002
        pass


class _IsolatedHandler(_QuietHandler):
    def end_headers(self):
        self.send_header("Cross-Origin-Opener-Policy", "same-origin")
        self.send_header("Cross-Origin-Embedder-Policy", "require-corp")
        self.send_header("Cross-Origin-Resource-Policy", "same-origin")
        super().end_headers()


def parse_headers_file(text: str) -> list[tuple[str, list[tuple[str, str]]]]:
    """The rules of a Netlify-style ``_headers`` file: [(path pattern, [(name, value), ...]), ...]."""
    rules: list[tuple[str, list[tuple[str, str]]]] = []
    for line in text.splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if not line[0].isspace():
            rules.append((line.strip(), []))
        elif rules and ":" in line:
            name, value = line.strip().split(":", 1)
            rules[-1][1].append((name.strip(), value.strip()))
    return rules


def _matches(pattern: str, path: str) -> bool:
    return path.startswith(pattern[:-1]) if pattern.endswith("*") else path == pattern


class _HeadersFileHandler(_QuietHandler):
    """Sends what dist/_headers asks for (later rules override earlier ones for the same header)."""

    rules: list = []

    def end_headers(self):
        path = self.path.split("?", 1)[0]
        chosen: dict[str, tuple[str, str]] = {}
        for pattern, headers in self.rules:
            if _matches(pattern, path):
                for name, value in headers:
                    chosen[name.lower()] = (name, value)
        for name, value in chosen.values():
            self.send_header(name, value)
        super().end_headers()


@contextmanager
def serve(folder: Path, *, isolated: bool = False, counter: ByteCounter | None = None, headers_file: bool = False):
    """Serve ``folder`` on a free loopback port in a thread; yields the origin (``http://127.0.0.1:N``).

    ``isolated`` adds COOP/COEP/CORP (like ``werkbank serve``); otherwise it behaves like a plain static host.
    ``counter`` (a :class:`ByteCounter`) adds up the body bytes sent. ``headers_file`` sends what the folder's
    ``_headers`` file says (like Netlify / Cloudflare Pages), instead of either of the above.
    """
    attrs: dict = {"counter": counter}
    if headers_file:
        base = _HeadersFileHandler
        attrs["rules"] = parse_headers_file((Path(folder) / "_headers").read_text(encoding="utf-8"))
    else:
        base = _IsolatedHandler if isolated else _QuietHandler
    handler = partial(type("Handler", (base,), attrs), directory=str(folder))
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def chromium_path() -> str:
    """The Chromium executable ($CHROMIUM or /usr/bin/chromium)."""
    import os

    for candidate in (os.environ.get("CHROMIUM"), "/usr/bin/chromium", shutil.which("chromium")):
        if candidate and Path(candidate).exists():
            return candidate
    raise SystemExit("Chromium not found: set CHROMIUM or run make chromium")


def now() -> float:
    """Monotonic seconds."""
    return time.perf_counter()
