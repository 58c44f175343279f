"""``werkbank serve --watch`` (and ``make serve``): rebuild when a source changes and reload open pages.

- :mod:`watchfiles` (a maintained, native file watcher) reports changes under ``exercises/``, ``graders/``,
  ``web/``, ``werkbank/catalog/`` and ``werkbank/templates/``; each batch of changes triggers one
  :func:`werkbank.build.build`.
- The development server is :class:`werkbank.serve.DistHandler` plus three things:
  every HTML page gets ``<meta name="werkbank-dev">`` and ``/_werkbank/live.js``, a small script that listens on
  ``/_werkbank/events`` (server-sent events) and reloads the page after a successful build, or shows the build's
  error on the page; and ``/sw.js`` is a service worker that only removes itself and its caches.
- So in development no page comes from a service worker: the marked pages never register one
  (``web/src/offline.js`` unregisters any it finds), and a browser that still has the offline copy of an earlier
  visit fetches the self-removing ``sw.js`` on its next navigation, which clears the caches and reloads the page.
"""

from __future__ import annotations

import json
import sys
import threading
import time
import traceback
from functools import partial
from http.server import ThreadingHTTPServer
from pathlib import Path

from werkbank.serve import DistHandler

REPO_ROOT = Path(__file__).resolve().parent.parent
#: What a rebuild depends on (relative to the repository); the lessons folder is added (``$WERKBANK_EXERCISES``).
WATCHED = ("graders", "web/src", "web/static", "werkbank/catalog", "werkbank/templates")
#: Changes to these are not the site's: ignored.
IGNORED_PARTS = ("__pycache__", ".pytest_cache", "node_modules", ".git")
PREFIX = "/_werkbank/"
HEARTBEAT_S = 15.0

LIVE_JS = """\
// werkbank serve --watch: reload this page after each rebuild; show a failed build's error on the page.
const source = new EventSource("/_werkbank/events");
let seen = null;
function banner(text, title = "werkbank build failed (the page shows the last good build):") {
  let box = document.getElementById("werkbank-dev-error");
  if (!text) { if (box) box.remove(); return; }
  if (!box) {
    box = document.createElement("pre");
    box.id = "werkbank-dev-error";
    box.setAttribute("role", "alert");
    Object.assign(box.style, { position: "fixed", left: "0", right: "0", bottom: "0", margin: "0", zIndex: "99999",
      maxHeight: "40vh", overflow: "auto", padding: "1em", background: "#5a0000", color: "#fff",
      font: "14px/1.4 monospace", whiteSpace: "pre-wrap" });
    document.body.append(box);
  }
  box.textContent = title + "\\n\\n" + text;
}
source.addEventListener("build", (event) => {
  const state = JSON.parse(event.data);
  document.documentElement.dataset.devBuild = String(state.version);
  if (state.error) { banner(state.error); return; }
  if (seen !== null && state.version !== seen) { window.location.reload(); return; }
  seen = state.version;
  banner(state.broken && state.broken.length ? state.broken.join("\\n") : null,
    "werkbank build: author errors (built; a Check of these checkpoints says the grader is broken):");
});
"""

#: Served as /sw.js in development: it replaces any installed werkbank service worker, deletes its caches,
#: unregisters itself and reloads the pages it controlled, so they come from the server again. It starts while
#: installing: becoming active waits until the worker it replaces is idle, and an open page whose workers are booting
#: can keep that one busy for a long while. So it drops the caches and asks the pages to reload (offline.js listens
#: for ``werkbank-dev``); the old worker, its cache gone, then answers from the server. Once active, it unregisters
#: and navigates whatever pages it then controls.
KILL_SW = """\
// werkbank serve --watch: no service worker in development. This one removes itself and the offline copy.
async function dropCaches() {
  for (const key of await caches.keys()) await caches.delete(key);
}
self.addEventListener("install", (event) => {
  self.skipWaiting(); // not awaited: Chromium settles it only once this worker is active
  event.waitUntil((async () => {
    // Without its cache the worker being replaced answers from the server, where the pages now differ from the
    // build's: so a reload reaches the server even before this one takes over. (No unregister() here: it would
    // wait for this very install to end.)
    await dropCaches();
    // Said a few times: a page that is loading while this installs may not be listening yet.
    for (const wait of [0, 250, 500, 1000, 2000]) {
      await new Promise((resolve) => setTimeout(resolve, wait));
      for (const client of await self.clients.matchAll({ type: "window", includeUncontrolled: true })) {
        client.postMessage({ type: "werkbank-dev" });
      }
    }
  })());
});
self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    await dropCaches();
    await self.registration.unregister();
    for (const client of await self.clients.matchAll({ type: "window" })) client.navigate(client.url);
  })());
});
"""

DEV_HEAD = '<meta name="werkbank-dev" content="watch"><script type="module" src="/_werkbank/live.js"></script>'


class BuildState:
    """The latest build's number, its error (a failed build) or author errors (a build whose Checks of some
    checkpoints say the grader is broken), and the listeners waiting for the next one."""

    def __init__(self):
        self.version = 0
        self.error: str | None = None
        self.broken: list[str] = []
        self.changed = threading.Condition()
        self.stopping = False

    def publish(self, error: str | None, broken: list[str] | None = None) -> None:
        with self.changed:
            self.version += 1
            self.error = error
            if error is None:
                self.broken = list(broken or [])
            self.changed.notify_all()

    def event(self) -> bytes:
        data = {"version": self.version, "error": self.error, "broken": self.broken}
        return f"event: build\ndata: {json.dumps(data)}\n\n".encode()


def inject(html: bytes) -> bytes:
    """The page with the development marker and the live-reload script in its ``<head>``."""
    marker = b"</head>"
    at = html.find(marker)
    if at < 0:
        return html
    return html[:at] + DEV_HEAD.encode() + html[at:]


class DevHandler(DistHandler):
    """:class:`werkbank.serve.DistHandler` with live reload, marked pages and a self-removing service worker."""

    state: BuildState  # set on the partial

    def __init__(self, *args, state: BuildState, **kwargs):
        self.state = state
        super().__init__(*args, **kwargs)

    def do_GET(self) -> None:  # noqa: N802 (the base class's name)
        path = self.path.split("?", 1)[0].split("#", 1)[0]
        if path == PREFIX + "live.js":
            return self._send(LIVE_JS.encode(), "text/javascript; charset=utf-8")
        if path == PREFIX + "events":
            return self._events()
        if path.endswith("/sw.js") or path == "/sw.js":
            return self._send(KILL_SW.encode(), "text/javascript; charset=utf-8")
        local = Path(self.translate_path(path))
        if local.is_dir():
            if not path.endswith("/"):
                return super().do_GET()  # the base class redirects "/dir" to "/dir/"
            local = local / "index.html"
        if local.suffix == ".html" and local.is_file():
            return self._send(inject(local.read_bytes()), "text/html; charset=utf-8")
        return super().do_GET()

    def _send(self, body: bytes, content_type: str) -> None:
        self.send_response(200)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def _events(self) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Connection", "close")
        self.end_headers()
        self.close_connection = True
        state = self.state
        try:
            with state.changed:
                seen, message = state.version, state.event()
            while True:
                self.wfile.write(message)
                self.wfile.flush()
                with state.changed:  # wait for the next build (or a heartbeat), then write outside the lock
                    state.changed.wait_for(lambda seen=seen: state.stopping or state.version != seen, HEARTBEAT_S)
                    if state.stopping:
                        return
                    message = state.event() if state.version != seen else b": still here\n\n"
                    seen = state.version
        except (BrokenPipeError, ConnectionResetError, OSError):
            return


def rebuild(dist: Path, state: BuildState, *, quiet: bool = False) -> bool:
    """Build the site into ``dist`` and tell the pages; ``False`` (and the error on the pages) when it fails."""
    from werkbank.build import build
    from werkbank.lessons import LessonError
    from werkbank.site import SiteError
    from werkbank.vendor import VendorError

    start = time.monotonic()
    try:
        broken = build(dist)
    except (LessonError, SiteError, VendorError) as error:
        message = str(error)
    except Exception:  # an unexpected failure: show it, keep serving the last good build
        message = traceback.format_exc(limit=-3)
    else:
        state.publish(None, broken)
        for line in broken:
            print(f"werkbank serve: author error: {line}", file=sys.stderr, flush=True)
        if not quiet:
            print(f"werkbank serve: rebuilt in {time.monotonic() - start:.1f} s; open pages reload", flush=True)
        return True
    print(f"werkbank serve: build failed: {message}", file=sys.stderr, flush=True)
    state.publish(message)
    return False


def watched_paths() -> list[Path]:
    from werkbank.lessons import EXERCISES

    paths = [Path(EXERCISES)] + [REPO_ROOT / p for p in WATCHED]
    return [p for p in paths if p.exists()]


def _relevant(change, path: str) -> bool:
    parts = Path(path).parts
    return not any(part in IGNORED_PARTS for part in parts) and not Path(path).name.endswith(("~", ".swp", ".tmp"))


def watch_loop(dist: Path, state: BuildState, stop: threading.Event) -> None:
    """Rebuild after each batch of changes until ``stop`` is set."""
    from watchfiles import watch

    for changes in watch(*watched_paths(), watch_filter=_relevant, stop_event=stop, debounce=200, step=50):
        names = sorted({Path(path).name for _, path in changes})
        print(f"werkbank serve: changed: {', '.join(names[:5])}{' …' if len(names) > 5 else ''}", flush=True)
        rebuild(dist, state)


def make_dev_server(dist: Path, host: str, port: int, state: BuildState) -> ThreadingHTTPServer:
    """The development server for ``dist`` (bound, not yet serving)."""
    dist = Path(dist).resolve()
    dist.mkdir(parents=True, exist_ok=True)
    server = ThreadingHTTPServer((host, port), partial(DevHandler, directory=str(dist), state=state))
    server.daemon_threads = True
    return server


def serve_watching(dist: Path, host: str = "127.0.0.1", port: int = 8000) -> int:
    """Build, serve ``dist`` with live reload, rebuild on every change; until Ctrl+C."""
    from werkbank.lessons import rel

    state = BuildState()
    rebuild(Path(dist), state, quiet=True)
    try:
        server = make_dev_server(dist, host, port, state)
    except OSError as error:
        print(f"werkbank serve: cannot listen on {host}:{port}: {error} (PORT=... picks another)", file=sys.stderr)
        return 1
    stop = threading.Event()
    watcher = threading.Thread(target=watch_loop, args=(Path(dist), state, stop), daemon=True)
    watcher.start()
    bound_host, bound_port = server.server_address[:2]
    print(
        f"werkbank serve: serving {dist} at http://{bound_host}:{bound_port}/ with live reload; watching "
        f"{', '.join(rel(p) for p in watched_paths())} (Ctrl+C stops)",
        flush=True,
    )
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        stop.set()
        with state.changed:
            state.stopping = True
            state.changed.notify_all()
        server.server_close()
    return 0
