"""Shared pytest fixtures for every werkbank test.

Fixtures (all documented below, reuse them instead of writing your own):

- ``repo_root``       the repository folder (a Path).
- ``dist``            a complete built site (session scope). ``$WERKBANK_DIST`` (``make test`` sets it to the dist/
                      it has just built) is used as is; otherwise the site is built once per session into a
                      temporary folder with ``werkbank.build.build``.
- ``bytecode_dist``   (session) a site whose Pyodide runtime is compiled to bytecode: ``dist`` itself when it is one
                      (the default build), else a compiled copy; ``stock_dist``: a copy of ``dist`` with the stock
                      runtime files. ``python312()``: the compiler's ``(path, version)``, or a skip.
- ``server_factory``  ``start(cmd, *, cwd=None) -> Server``: runs a server command in a subprocess and waits until it
                      prints the port it listens on (``port N`` or ``http://host:N/``). ``Server.url`` is the
                      origin plus ``/`` (``http://127.0.0.1:N/``), ``Server.origin`` has no trailing slash. Every
                      server started is stopped at the end of the session.
- ``serve_cmd``       ``serve_cmd(folder)``: the command line of ``werkbank serve`` for ``folder`` on a free port.
- ``isolated_server`` ``werkbank serve`` on ``dist`` (COOP/COEP), a session-wide ``Server``.
- ``plain_server``    ``python3 -m http.server`` on ``dist`` (a plain static host), a session-wide ``Server``.

Browser fixtures (Playwright's sync API; mark such tests ``@pytest.mark.browser``):

- ``browser``         a headless Chromium (``$CHROMIUM``, else /usr/bin/chromium) launched with the flags every
                      werkbank browser test uses (``CHROMIUM_ARGS``); one per test module. Use it instead of
                      calling ``sync_playwright()`` yourself: two sync Playwright instances cannot run at once.
                      Its contexts' pages keep two pristine learner workers, not the full pool (``SMALL_POOL``;
                      ``browser.new_context(full_pool=True)`` for the full one).
- ``context``         a fresh browser context per test (empty storage, no service worker), closed afterwards.
- ``request_log``     a ``RequestLog`` on ``context``: every request URL its pages, dedicated workers and service
                      workers make, in order; ``.foreign(origin)`` lists those that left ``origin``,
                      ``.assert_only(origin)`` fails the test if any did (or if nothing was requested at all).
- ``page``            a new page in ``context`` (so ``request_log`` sees it), 120 s default timeout; console errors
                      and uncaught page errors are collected in ``page.werkbank_errors``.

Python in test pages: a lesson (or home) page boots three Pythons as it loads (learner, grader, spare worker), about
four times the CPU of the page itself. Tests that do not run code use a page that does not boot them; tests that
only drive a page (type, Run, Check, read it) share one booted page per module.

- ``save_data_context``, ``save_data_page``  like ``context`` and ``page``, but the pages take the learner to have
                      asked to save data (``SAVE_DATA``, an init script: ``navigator.connection.saveData``), so Python
                      does not boot when they load; if the test runs code, that Run or Check boots it and waits for
                      it, as for such a learner. A URL whose query contains ``with-python`` boots as usual.
                      ``open_lesson(page, server, ready="editors")`` waits for such a page. For a context a test makes
                      itself: ``context.add_init_script(SAVE_DATA)``.
- ``lesson_pages``    (module scope) ``lesson_pages(lesson=LESSON, lang="en") -> page``: one booted lesson page per
                      lesson and language on ``isolated_server`` for the whole module, handed out as a fresh visit
                      would show it: Python ready, every editor back at its starter (and example, carried-over copy),
                      progress and drafts cleared the way another tab's "reset all" clears them (storage emptied, a
                      ``storage`` event), solutions hidden, focus back at the top, ``page.werkbank_errors`` emptied
                      (``tests.browser.learner.reset_lesson_page``). What a test changes beyond that (hints shown,
                      a verdict still on screen, listeners it added) stays: tests that need a new page, a reload or
                      init scripts make their own.
- ``site_workers``    (module scope) a page on ``plain_server`` whose site learner and grader workers
                      (``tests.browser.helpers.drive_workers``) are booted once for the module: for tests that grade
                      the authors' own files through the workers, message by message.

Prepared checkpoints (``werkbank.grading.prepared_checkpoint``) are shared by the session's processes through a
temporary folder (``$WERKBANK_PREPARED_CACHE``), keyed by a digest of everything preparing reads.

Stamped checks (``tests/derived.py``): the few checks that cost a minute or more and prove a property of files that
rarely change (mutants, the references' outcomes in Pyodide, other seeds, bytecode/stock parity, every file's verdict
from the site's workers, every checkpoint's repeated Checks) run again only when the
SHA-256 of their inputs differs from the one in their committed stamp (``tests/stamps/``); a passing run writes the new
stamp, to commit. The run's summary names those that passed on their stamp; ``WERKBANK_RERUN_STAMPED=1`` runs them all.
"""

from __future__ import annotations

import os
import queue
import shutil
import re
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

from werkbank.grading import CACHE_ENV

REPO_ROOT = Path(__file__).resolve().parent.parent

# Prepared checkpoints are shared by this session's processes (werkbank/grading.py prepared_checkpoint): the first to
# need one prepares it, the others read it. A folder per session, made by the first process (xdist's workers inherit
# its environment) and removed at its end.
if CACHE_ENV not in os.environ:
    import tempfile

    os.environ[CACHE_ENV] = tempfile.mkdtemp(prefix="werkbank-prepared-")
    _PREPARED_OWNER = True
else:
    _PREPARED_OWNER = False


def pytest_unconfigure(config):
    if _PREPARED_OWNER:
        shutil.rmtree(os.environ.get(CACHE_ENV, ""), ignore_errors=True)


#: The test files that take longest, longest first (node ids relative to the repository). ``make test`` runs files on
#: xdist's workers (``--dist loadfile``) in collection order; starting with these leaves short files for the end, so no
#: long file runs alone on one worker while the others have nothing left. Every other file follows in its usual order.
SLOW_FIRST = (
    "tests/browser/test_hostile.py",
    "tests/browser/test_learner_ui.py",
    "tests/browser/test_a11y.py",
    "tests/engines/test_webkit.py",
    "tests/browser/test_confinement.py",
    "tests/browser/test_learner_flow.py",
    "tests/browser/test_one_verdict.py",
    "tests/browser/test_offline.py",
    "tests/browser/test_runtime.py",
    "tests/engines/test_firefox.py",
    "tests/browser/test_fresh_workers.py",
    "tests/test_checkpoints.py",
    "tests/browser/test_figures.py",
    "tests/browser/test_feedback.py",
    "tests/browser/test_watch.py",
)


def pytest_configure(config):
    # xdist's own order for --dist loadfile is "most tests first", which puts long files of few tests (a browser walk,
    # the accessibility scans) last, each then running alone at the end of the session
    if hasattr(config.option, "loadscopereorder"):
        config.option.loadscopereorder = False


def pytest_collection_modifyitems(config, items):
    """Put SLOW_FIRST's files first, in its order (the sort is stable: the tests of a file keep theirs)."""
    rank = {path: i for i, path in enumerate(SLOW_FIRST)}
    items.sort(key=lambda item: rank.get(item.nodeid.split("::", 1)[0], len(SLOW_FIRST)))


_PORT_LINE = re.compile(r"(?:port (\d+)|https?://[^/\s]+:(\d+)/)")


@pytest.fixture(scope="session")
def repo_root() -> Path:
    """The repository folder."""
    return REPO_ROOT


@pytest.fixture(scope="session")
def dist(tmp_path_factory) -> Path:
    """A complete built site: ``$WERKBANK_DIST`` when set, else built once into a temporary folder."""
    env = os.environ.get("WERKBANK_DIST")
    if env:
        path = Path(env)
        if not path.is_absolute():
            path = REPO_ROOT / path
        assert (path / "build.json").is_file(), f"WERKBANK_DIST={env} is not a built site (no build.json)"
        return path
    from werkbank.build import build

    path = tmp_path_factory.mktemp("dist")
    build(path)
    return path


def python312() -> tuple[str, str]:
    """``(path, version)`` of the Python 3.12 the bytecode build compiles with; skips the test when there is none."""
    from werkbank import bytecode

    try:
        return bytecode.find_python312()
    except bytecode.BytecodeUnavailable as exc:
        pytest.skip(str(exc))


@pytest.fixture(scope="session")
def stock_dist(dist, tmp_path_factory) -> Path:
    """A copy of ``dist`` with Pyodide's stock runtime files (the default build ships them compiled to bytecode)."""
    from werkbank import offline, vendor

    copy = tmp_path_factory.mktemp("stock-dist")
    shutil.copytree(dist, copy, dirs_exist_ok=True)
    vendor.vendor_runtime(copy)  # puts the verified stock archives and lock back
    (copy / "pyodide" / "bytecode.json").unlink(missing_ok=True)
    offline.finish(copy)
    return copy


@pytest.fixture(scope="session")
def bytecode_dist(dist, request, tmp_path_factory) -> Path:
    """A site whose runtime is compiled to bytecode: ``dist`` itself when it is one (the default build, which records
    it in ``pyodide/bytecode.json``), else a compiled copy of ``stock_dist`` (skipped without a Python 3.12)."""
    from werkbank import bytecode, offline

    if (dist / "pyodide" / bytecode.PROVENANCE).is_file():
        return dist
    python, _ = python312()
    copy = tmp_path_factory.mktemp("bytecode-dist")
    shutil.copytree(request.getfixturevalue("stock_dist"), copy, dirs_exist_ok=True)
    bytecode.compile_runtime(copy, python=python)
    offline.finish(copy)
    return copy


@dataclass
class Server:
    """A server subprocess started by ``server_factory``."""

    proc: subprocess.Popen
    host: str
    port: int
    log: Path

    @property
    def origin(self) -> str:
        """``http://host:port`` (no trailing slash)."""
        return f"http://{self.host}:{self.port}"

    @property
    def url(self) -> str:
        """``http://host:port/``."""
        return self.origin + "/"

    def stop(self) -> None:
        """Terminate the process (and wait for it)."""
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)


def _start(cmd: list[str], log: Path, cwd: Path | None, timeout: float = 20.0) -> Server:
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    env.pop("PORT", None)
    with open(log, "wb") as err:
        proc = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=err, stdin=subprocess.DEVNULL, env=env)
    lines: queue.Queue = queue.Queue()

    def pump() -> None:  # keep reading so the pipe never fills up
        for raw in proc.stdout:
            lines.put(raw.decode("utf-8", "replace"))
        lines.put(None)

    threading.Thread(target=pump, daemon=True).start()
    deadline = time.monotonic() + timeout
    seen = []
    while time.monotonic() < deadline:
        try:
            line = lines.get(timeout=max(0.05, deadline - time.monotonic()))
        except queue.Empty:
            break
        if line is None:
            break
        seen.append(line)
        match = _PORT_LINE.search(line)
        if match:
            return Server(proc, "127.0.0.1", int(match.group(1) or match.group(2)), log)
    proc.kill()
    proc.wait(5)
    raise RuntimeError(f"server {cmd} did not report a port; stdout: {''.join(seen)!r}; stderr: {log.read_text()!r}")


@pytest.fixture(scope="session")
def server_factory(tmp_path_factory):
    """``start(cmd, cwd=None) -> Server`` for server subprocesses; all are stopped when the session ends."""
    started: list[Server] = []
    logs = tmp_path_factory.mktemp("server-logs")

    def start(cmd: list[str], *, cwd: Path | None = None) -> Server:
        server = _start(cmd, logs / f"server-{len(started)}.stderr", cwd)
        started.append(server)
        return server

    yield start
    for server in started:
        server.stop()


def _werkbank_serve_cmd(folder: Path) -> list[str]:
    return [sys.executable, "-m", "werkbank.cli", "serve", "--dist", str(folder), "--host", "127.0.0.1", "--port", "0"]


@pytest.fixture(scope="session")
def serve_cmd():
    """``serve_cmd(folder) -> list[str]``: the command running ``werkbank serve`` on ``folder`` at a free port."""
    return _werkbank_serve_cmd


@pytest.fixture(scope="session")
def isolated_server(server_factory, dist) -> Server:
    """``werkbank serve`` on ``dist``: correct MIME types plus COOP/COEP, so pages are cross-origin isolated."""
    return server_factory(_werkbank_serve_cmd(dist))


@pytest.fixture(scope="session")
def plain_server(server_factory, dist) -> Server:
    """A plain static host (``python3 -m http.server``) on ``dist``: no COOP/COEP, stock MIME types."""
    return server_factory(
        [sys.executable, "-u", "-m", "http.server", "0", "--bind", "127.0.0.1", "--directory", str(dist)]
    )


# ------------------------------------------------------------------------------------------------------------------
# browser fixtures (Playwright, sync API)

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
_LOCAL_SCHEMES = ("data:", "blob:", "about:")


def chromium_path() -> str:
    """The Chromium executable: ``$CHROMIUM``, else /usr/bin/chromium, else ``chromium`` on PATH."""
    for candidate in (os.environ.get("CHROMIUM"), "/usr/bin/chromium", shutil.which("chromium")):
        if candidate and Path(candidate).exists():
            return candidate
    if os.environ.get("CI"):  # in CI a missing browser must fail the run, never quietly skip the browser tests
        pytest.fail("Chromium is not installed: `make chromium` installs it")
    pytest.skip("Chromium is not installed (make chromium installs it)")


class RequestLog:
    """Every request URL seen by one browser context (pages, dedicated workers, service workers)."""

    def __init__(self) -> None:
        self.urls: list[str] = []

    def attach(self, context) -> "RequestLog":
        """Start recording the requests of ``context``."""
        context.on("request", lambda request: self.urls.append(request.url))
        return self

    def foreign(self, origin: str) -> list[str]:
        """Recorded URLs that went anywhere but ``origin`` (data:, blob: and about: URLs are local, not foreign)."""
        origin = origin.rstrip("/")
        return [
            u for u in self.urls if not u.startswith(_LOCAL_SCHEMES) and not (u == origin or u.startswith(origin + "/"))
        ]

    def assert_only(self, origin: str) -> None:
        """Fail unless at least one request was seen and all of them went to ``origin``."""
        assert self.urls, "no request was recorded at all"
        foreign = self.foreign(origin)
        assert not foreign, f"requests left {origin}: {foreign}"


#: Pages of a context with this init script report 2 GiB of device memory, so they keep two pristine learner
#: workers instead of the full pool (web/src/runtime.js poolDepth). Every context of the ``browser`` fixture has it
#: unless made with ``full_pool=True``: the full pool boots four more Pythons on every page, which would cost the
#: suite minutes of CPU, and only the pool's own tests need it (the engine walks and ``make bench`` have it too).
SMALL_POOL = """Object.defineProperty(Navigator.prototype, "deviceMemory", { configurable: true, get: () => 2 });"""


class PoolBrowser:
    """A Playwright Browser whose ``new_context`` adds ``SMALL_POOL`` unless called with ``full_pool=True``; every
    other attribute is the browser's own."""

    def __init__(self, browser) -> None:
        self._browser = browser

    def new_context(self, *args, full_pool: bool = False, **kwargs):
        ctx = self._browser.new_context(*args, **kwargs)
        if not full_pool:
            ctx.add_init_script(SMALL_POOL)
        return ctx

    def new_page(self, *args, **kwargs):
        raise TypeError("open a page through new_context(), so the page gets the context's pool size")

    def __getattr__(self, name):
        return getattr(self._browser, name)


@pytest.fixture(scope="module")
def browser():
    """A headless Chromium, one per test module (its contexts keep a small pool of learner workers: ``SMALL_POOL``).

    Module scope (not session) on purpose: Playwright's sync API cannot start while another sync_playwright() is
    running, so a session-wide instance would break any module that launches its own browser.
    """
    from playwright.sync_api import sync_playwright

    executable = chromium_path()
    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=executable, headless=True, args=CHROMIUM_ARGS)
        yield PoolBrowser(chromium)
        chromium.close()


@pytest.fixture
def context(browser):
    """A fresh browser context (own storage) for one test."""
    ctx = browser.new_context()
    yield ctx
    ctx.close()


@pytest.fixture
def request_log(context) -> RequestLog:
    """Records every request of ``context``; see :class:`RequestLog`."""
    return RequestLog().attach(context)


def new_page(context):
    """A page in ``context`` with a generous timeout; errors land in ``page.werkbank_errors``."""
    pg = context.new_page()
    pg.set_default_timeout(120_000)
    errors: list[str] = []
    pg.on("pageerror", lambda exc: errors.append(f"pageerror: {exc}"))
    pg.on("console", lambda msg: errors.append(f"console.{msg.type}: {msg.text}") if msg.type == "error" else None)
    pg.werkbank_errors = errors
    return pg


@pytest.fixture
def page(context, request_log):
    """A page in ``context`` with a generous timeout; errors land in ``page.werkbank_errors``."""
    return new_page(context)


#: Pages of a context with this init script do not boot Python as they load: they take the learner to have asked to
#: save data (web/src/app.js bootPython, web/src/early.js), unless their URL's query contains "with-python". Running
#: code still boots it (the Run or Check waits), as for such a learner.
SAVE_DATA = """Object.defineProperty(Navigator.prototype, "connection", { configurable: true,
    get: () => ({ saveData: !location.search.includes("with-python") }) });"""


@pytest.fixture
def save_data_context(browser):
    """A fresh browser context whose pages do not boot Python on load (``SAVE_DATA``)."""
    ctx = browser.new_context()
    ctx.add_init_script(SAVE_DATA)
    yield ctx
    ctx.close()


@pytest.fixture
def save_data_page(save_data_context):
    """A page in ``save_data_context`` (no Python unless the test runs code), set up like ``page``."""
    return new_page(save_data_context)


@pytest.fixture(scope="module")
def lesson_pages(browser, isolated_server):
    """``get(lesson=LESSON, lang="en") -> page``: one booted lesson page per lesson and language for the module,
    reset to a fresh visit's state each time it is handed out (see the module docstring)."""
    from tests.browser.learner import LESSON, open_lesson, reset_lesson_page

    made = {}

    def get(lesson=LESSON, lang="en"):
        if (lesson, lang) not in made:
            ctx = browser.new_context()
            pg = new_page(ctx)
            open_lesson(pg, isolated_server, lang=lang, lesson=lesson)
            made[lesson, lang] = (ctx, pg)
        pg = made[lesson, lang][1]
        reset_lesson_page(pg)
        return pg

    yield get
    for ctx, _ in made.values():
        ctx.close()


@pytest.fixture(scope="module")
def site_workers(browser, plain_server, repo_root):
    """A page on ``plain_server`` with the site's learner and grader workers booted once for the module (no lesson:
    the grader loads each lesson's grading file when a Check of it is first prepared); ``drive_workers`` keeps them
    between calls. For tests that grade the authors' own files (references, mistakes, alternatives), never hostile
    code, which would be another job's worker."""
    from tests.browser.helpers import drive_workers, final

    ctx = browser.new_context()
    pg = new_page(ctx)
    pg.goto(plain_server.url + "build.json")
    boot_l, boot_g = drive_workers(
        pg,
        plain_server,
        repo_root,
        [
            {"to": "learner", "message": {"type": "init"}, "finals": ["ready", "failure"]},
            {"to": "grader", "message": {"type": "init"}, "finals": ["ready", "failure"]},
        ],
    )
    assert final(boot_l)["type"] == "ready" and final(boot_g)["type"] == "ready"
    yield pg
    ctx.close()


def pytest_terminal_summary(terminalreporter):
    """The engine walks' step times (tests/engines/, ``walk_log``), and which stamped checks (tests/derived.py) passed
    on their stamp without running because their inputs are the ones the stamp was made from. From the tests'
    reports: this runs where xdist gathers them, which never collects tests/engines/conftest.py."""
    lines = [
        value
        for reports in terminalreporter.stats.values()
        for report in reports
        if getattr(report, "when", None) == "call"
        for key, value in getattr(report, "user_properties", ())
        if key == "engine walk"
    ]
    if lines:
        terminalreporter.section("engine walks (wall time per step, s)")
        for line in lines:
            terminalreporter.write_line(line)
    items = [
        value
        for report in terminalreporter.stats.get("passed", [])
        for key, value in getattr(report, "user_properties", ())
        if key == "stamped"
    ]
    if items:
        counts: dict[str, int] = {}
        for item in items:
            name = item.split(":")[0]
            counts[name] = counts.get(name, 0) + 1
        listed = ", ".join(f"{name} ({count})" for name, count in sorted(counts.items()))
        terminalreporter.write_line(
            f"stamped checks passed on their stamps, inputs unchanged: {listed} "
            f"(tests/derived.py; WERKBANK_RERUN_STAMPED=1 runs them)"
        )
