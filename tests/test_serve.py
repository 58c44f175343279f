"""``werkbank serve``: MIME types and cross-origin isolation headers, checked over real HTTP."""

from __future__ import annotations

import threading
import urllib.error
import urllib.request

import pytest

from werkbank.serve import make_server


def fetch(url: str):
    """GET ``url``; return (status, headers, body) also for error statuses."""
    try:
        with urllib.request.urlopen(url, timeout=10) as resp:
            return resp.status, resp.headers, resp.read()
    except urllib.error.HTTPError as err:
        return err.code, err.headers, err.read()


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """A tiny dist/ with one file per type the site serves, behind ``werkbank serve`` (the real command)."""
    root = tmp_path_factory.mktemp("site")
    files = {
        "index.html": b"<!doctype html><title>x</title>",
        "app.js": b"export const a = 1;\n",
        "pyodide/pyodide.mjs": b"export const b = 2;\n",
        "pyodide/pyodide.asm.wasm": b"\0asm\x01\0\0\0",
        "build.json": b'{"hash": "x"}',
        "wheels/demo-1.0-py3-none-any.whl": b"PK\x05\x06" + b"\0" * 18,
        "static/icon.svg": b'<svg xmlns="http://www.w3.org/2000/svg"/>',
        "static/site.css": b"body{}",
        "assets/worker.js": b"export {};\n",
        "grading/engine.json": b"{}",
        "grading/lesson.json": b"{}",
    }
    for rel, data in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_bytes(data)
    return root, files


@pytest.fixture(scope="module")
def served(site, server_factory, serve_cmd):
    """``werkbank serve --dist <site> --port 0`` running in a subprocess."""
    root, files = site
    return server_factory(serve_cmd(root)), files


@pytest.mark.parametrize(
    ("path", "mime"),
    [
        ("index.html", "text/html"),
        ("app.js", "text/javascript"),
        ("pyodide/pyodide.mjs", "text/javascript"),
        ("pyodide/pyodide.asm.wasm", "application/wasm"),
        ("build.json", "application/json"),
        ("wheels/demo-1.0-py3-none-any.whl", "application/octet-stream"),
        ("static/icon.svg", "image/svg+xml"),
        ("static/site.css", "text/css"),
    ],
)
def test_mime_types_and_bytes(served, path, mime):
    """Each file comes back byte for byte with the Content-Type browsers need (module workers, wasm streaming)."""
    server, files = served
    status, headers, body = fetch(server.url + path)
    assert status == 200
    assert headers.get_content_type() == mime
    assert body == files[path]


@pytest.mark.parametrize("path", ["index.html", "pyodide/pyodide.asm.wasm", "does-not-exist.js"])
def test_isolation_headers_on_every_response(served, path):
    """COOP/COEP/CORP are on every response, 404s included, so the whole site is cross-origin isolated."""
    server, _ = served
    status, headers, _ = fetch(server.url + path)
    assert status == (404 if path.startswith("does-not") else 200)
    assert headers["Cross-Origin-Opener-Policy"] == "same-origin"
    assert headers["Cross-Origin-Embedder-Policy"] == "require-corp"
    assert headers["Cross-Origin-Resource-Policy"] == "same-origin"


def test_directory_serves_index(served):
    """``/`` serves index.html."""
    server, files = served
    status, headers, body = fetch(server.url)
    assert status == 200 and body == files["index.html"]


def test_concurrent_requests_are_served(site):
    """The server is threaded: a client that keeps a connection open does not block the others."""
    import socket

    root, files = site
    server = make_server(root, "127.0.0.1", 0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        port = server.server_address[1]
        idle = socket.create_connection(("127.0.0.1", port), timeout=5)  # sends nothing: blocks one handler
        try:
            status, _, body = fetch(f"http://127.0.0.1:{port}/app.js")
            assert status == 200 and body == files["app.js"]
        finally:
            idle.close()
    finally:
        server.shutdown()
        server.server_close()


def test_missing_dist_is_a_clear_error(tmp_path):
    """Serving a folder that does not exist says to build first."""
    with pytest.raises(FileNotFoundError, match="build"):
        make_server(tmp_path / "nope", "127.0.0.1", 0)


def test_worker_scripts_carry_their_own_policy(served):
    """A worker's CSP comes with its script (a page's does not reach it): nothing but the site's own scripts and
    requests, and WebAssembly; other files get none from the server."""
    server, _ = served
    for worker in ("assets/worker.js?v=1", "assets/grader_worker.js"):
        _, headers, _ = fetch(server.url + worker)
        directives = {part.split()[0]: part.split()[1:] for part in headers["Content-Security-Policy"].split(";")}
        assert directives == {
            "default-src": ["'none'"],
            "script-src": ["'self'", "'wasm-unsafe-eval'"],
            "connect-src": ["'self'"],
        }
    _, headers, _ = fetch(server.url + "app.js")
    assert "Content-Security-Policy" not in headers
