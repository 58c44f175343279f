"""``werkbank serve``: a small threaded static server for ``dist/`` during development.

It serves the right MIME types for what the site needs (``.wasm``, ``.mjs``, ``.whl``, ...) and sends
``Cross-Origin-Opener-Policy: same-origin`` + ``Cross-Origin-Embedder-Policy: require-corp`` (and
``Cross-Origin-Resource-Policy: same-origin``, from :data:`werkbank.offline.ISOLATION_HEADERS`) so pages are
cross-origin isolated, as the site's own service worker makes them on a plain host (Pyodide gets its precise timers
and memory measurements there). The built site itself must also work from a plain static host without these headers.
"""

from __future__ import annotations

import functools
import os
import sys
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import urlsplit

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000

#: Extension -> Content-Type, overriding whatever the system's mime.types says.
MIME_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".json": "application/json",
    ".wasm": "application/wasm",
    ".whl": "application/octet-stream",
    ".zip": "application/zip",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".ico": "image/x-icon",
    ".woff2": "font/woff2",
    ".txt": "text/plain; charset=utf-8",
    ".md": "text/plain; charset=utf-8",
    ".webmanifest": "application/manifest+json",
}

#: Headers sent with every response (defined once, in werkbank.offline).
from werkbank.offline import GRADER_WORKER, ISOLATION_HEADERS, LEARNER_WORKER, WORKER_CSP  # noqa: E402


class DistHandler(SimpleHTTPRequestHandler):
    """Static file handler with fixed MIME types, isolation headers, revalidation and quiet logging."""

    extensions_map = {**SimpleHTTPRequestHandler.extensions_map, **MIME_TYPES, "": "application/octet-stream"}
    server_version = "werkbank"
    sys_version = ""
    protocol_version = "HTTP/1.1"  # keep-alive: a lesson page makes dozens of requests

    def end_headers(self) -> None:
        """Add the cross-origin isolation headers and ask browsers to revalidate (dev builds change often); a worker
        script gets its own content security policy."""
        for name, value in ISOLATION_HEADERS.items():
            self.send_header(name, value)
        self.send_header("Cache-Control", "no-cache")
        csp = self._worker_csp()
        if csp:
            self.send_header("Content-Security-Policy", csp)
        super().end_headers()

    def _worker_csp(self) -> str | None:
        """The policy of a worker script (:data:`werkbank.offline.WORKER_CSP`), or None for any other path."""
        path = urlsplit(self.path).path.lstrip("/")
        return WORKER_CSP if path in (LEARNER_WORKER, GRADER_WORKER) else None

    def guess_type(self, path) -> str:
        """The Content-Type for ``path``: our table first, then the standard guess."""
        suffix = Path(str(path)).suffix.lower()
        return MIME_TYPES.get(suffix) or super().guess_type(path)

    def log_message(self, format: str, *args) -> None:  # noqa: A002 (signature of the base class)
        """Quiet: only errors (status >= 400) are logged, to stderr."""
        if len(args) >= 2 and str(args[1]).isdigit() and int(args[1]) < 400:
            return
        sys.stderr.write(f"werkbank serve: {self.address_string()} {format % args}\n")


def make_server(dist: Path, host: str = DEFAULT_HOST, port: int = DEFAULT_PORT) -> ThreadingHTTPServer:
    """A ready (bound, not yet serving) threaded server for ``dist``; port 0 picks a free port."""
    dist = Path(dist).resolve()
    if not dist.is_dir():
        raise FileNotFoundError(f"{dist} does not exist: run `werkbank build` (or `make build`) first")
    handler = functools.partial(DistHandler, directory=str(dist))
    server = ThreadingHTTPServer((host, port), handler)
    server.daemon_threads = True
    return server


def serve(dist: Path, host: str = DEFAULT_HOST, port: int = DEFAULT_PORT) -> None:
    """Serve ``dist`` until interrupted. The ``PORT`` environment variable replaces the default port 8000."""
    if port == DEFAULT_PORT and os.environ.get("PORT"):
        port = int(os.environ["PORT"])
    server = make_server(dist, host, port)
    bound_host, bound_port = server.server_address[:2]
    print(f"werkbank serve: serving {Path(dist)} at http://{bound_host}:{bound_port}/ (Ctrl+C stops)", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
