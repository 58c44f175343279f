"""Offline and fast: the service worker, precompressed files, _headers and the optional bytecode build.

The browser tests use the built ``dist`` on a plain static host (no COOP/COEP): after the first visit the service
worker must make the page cross-origin isolated, keep the whole site working offline, and offer a newer build
without reloading the page by itself. They need the integration described in /work/notes/readme-offline.md
(``werkbank build`` runs ``werkbank.offline.finish``; app.js calls ``registerServiceWorker``).
"""

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
import sys
import zipfile
from pathlib import Path

import pytest

from tests.browser.learner import put_solution
from werkbank import bytecode, offline, vendor
from werkbank.assets import EDITOR_STAGES

LESSON = "claims-abstention"
WAIT_MS = 180_000


# ---------------------------------------------------------------- build steps (no browser)


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


# ---------------------------------------------------------------- bytecode (no browser)


def _python312():
    try:
        return bytecode.find_python312()
    except bytecode.BytecodeUnavailable as exc:
        pytest.skip(str(exc))


@pytest.fixture(scope="module")
def stock_dist(dist, tmp_path_factory):
    """A copy of the built site with Pyodide's stock runtime files (the default build ships bytecode)."""
    copy = tmp_path_factory.mktemp("stock-dist")
    shutil.copytree(dist, copy, dirs_exist_ok=True)
    vendor.vendor_runtime(copy)  # puts the verified stock archives and lock back
    (copy / "pyodide" / "bytecode.json").unlink(missing_ok=True)
    offline.finish(copy)
    return copy


@pytest.fixture(scope="module")
def bytecode_dist(stock_dist, tmp_path_factory):
    """A copy of the stock site with its runtime compiled to bytecode (skipped without a Python 3.12)."""
    python, _ = _python312()
    copy = tmp_path_factory.mktemp("bytecode-dist")
    shutil.copytree(stock_dist, copy, dirs_exist_ok=True)
    report = bytecode.compile_runtime(copy, python=python)
    offline.finish(copy)
    return copy, report


def test_bytecode_replaces_sources_and_updates_the_lock(bytecode_dist):
    """No .py is left in the stdlib zip or the wheels, the lock hashes the new wheels, RECORD matches."""
    copy, report = bytecode_dist
    assert report["files"]["python_stdlib.zip"]["compiled"] > 400
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
    python, _ = _python312()
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
    if sys.version_info[:2] == (3, 12):
        pytest.skip("this interpreter is a 3.12")
    report = bytecode.compile_runtime(tmp_path, python=sys.executable)
    assert report["python"] is None and "keeping the stock" in report["notice"]
    assert (tmp_path / "pyodide" / "pyodide-lock.json").read_bytes() == before


# ---------------------------------------------------------------- browser


@pytest.fixture
def sw_context(browser):
    """A fresh browser context with service workers allowed (whatever the shared ``context`` fixture does)."""
    ctx = browser.new_context(service_workers="allow")
    yield ctx
    ctx.close()


def _open(page, server, path=f"lessons/{LESSON}/en.html"):
    page.goto(server.url + path)


def _wait(page, selector):
    # CSS only: the pages' CSP forbids eval, which string predicates would need
    page.wait_for_selector(selector, timeout=WAIT_MS, state="attached")


def _wait_saved(page):
    _wait(page, "html[data-offline=ready], html[data-offline=failed]")
    assert page.get_attribute("html", "data-offline") == "ready"


def _replace_code(page, cp, code):
    sel = f'[data-checkpoint="{cp}"]' if cp != "try" else "[data-playground]"
    page.locator(f"{sel} [data-editor] .cm-content").click()  # the learner's editor, not the example
    page.keyboard.press("Control+a")
    page.keyboard.press("Delete")
    page.keyboard.insert_text(code)


def _check(page, cp) -> tuple[str, str]:
    sel = f'[data-checkpoint="{cp}"]'
    page.click(f'{sel} [data-action="check"]')  # data-state becomes "running" before click() returns
    _wait(page, f'{sel}[data-state="idle"] [data-verdict]:not([data-verdict="running"])')
    box = page.locator(f"{sel} [data-verdict]")
    return box.get_attribute("data-verdict"), box.inner_text()


@pytest.mark.browser
def test_plain_host_becomes_isolated_after_one_reload(sw_context, plain_server):
    """A host without COOP/COEP: the first visit reloads exactly once, then the page is cross-origin isolated."""
    page = sw_context.new_page()
    navigations = []
    page.on("framenavigated", lambda frame: navigations.append(frame.url) if frame == page.main_frame else None)
    learners = []  # learner workers the pages started (the service worker's precache asks without "?v=")
    page.on("request", lambda request: learners.append(request.url) if "assets/worker.js?" in request.url else None)
    editor = []  # the editor's stages the pages asked for, with the navigation they came from
    page.on(
        "request",
        lambda request: (
            editor.append((len(navigations), request.url.rsplit("/", 1)[-1]))
            if re.search(r"/assets/editor\w*\.js\?v=", request.url)
            else None
        ),
    )
    response = page.goto(plain_server.url + f"lessons/{LESSON}/en.html")
    assert "cross-origin-opener-policy" not in response.headers  # really a plain host
    _wait_saved(page)  # only a controlled page, after the reload, asks for the offline copy
    assert page.evaluate("crossOriginIsolated") is True
    assert page.evaluate("typeof SharedArrayBuffer") == "function"
    _wait(page, "body[data-runtime=ready]")
    assert len(navigations) == 2, navigations
    # the first load, which reloads itself, started no Python; the isolated one started it from <head> (early.js)
    _wait(page, "body[data-spare=ready]")
    assert len(learners) == 2, learners  # the first learner worker and the spare, nothing thrown away
    # nor CodeMirror: the first load neither preloaded nor imported it; the isolated one asked for each stage once
    _wait(page, "body[data-editors=ready]")
    assert [nav for nav, _ in editor] == [2] * len(EDITOR_STAGES), editor
    assert sorted(name.split("?")[0] for _, name in editor) == sorted(EDITOR_STAGES), editor
    assert page.evaluate("performance.getEntriesByName('werkbank:early').length") == 1
    two_cores = page.evaluate("navigator.hardwareConcurrency") <= 2
    if two_cores:  # this page compiled the runtime from scratch: the grader waited for the learner's Python
        assert _mark(page, "werkbank:grader:init") >= _mark(page, "werkbank:learner:python")
    page.reload()  # a second visit is isolated straight away: no further reload
    _wait(page, "body[data-runtime=ready]")
    assert page.evaluate("crossOriginIsolated") is True
    assert len(navigations) == 3, navigations
    # not a first visit: the grader started from the learner's compiled runtime, before the learner's Python was up
    assert _mark(page, "werkbank:grader:init") <= _mark(page, "werkbank:learner:python")


@pytest.mark.browser
def test_a_first_visit_that_will_reload_loads_no_editor_before_it(sw_context, plain_server):
    """A first visit's page that reloads itself into isolation neither preloads nor imports CodeMirror, even when its
    app.js has run well before the reload (here the service worker's script is held back until then): the reloaded
    page is the one that builds the editors."""
    page = sw_context.new_page()
    navigations = []
    page.on("framenavigated", lambda frame: navigations.append(frame.url) if frame == page.main_frame else None)
    editor = []
    page.on(
        "request",
        lambda request: (
            editor.append((len(navigations), request.url))
            if "/assets/editor" in request.url or "/assets/chunks/" in request.url
            else None
        ),
    )
    held, released = [], []

    def hold(route):
        if released:
            route.continue_()
        else:
            held.append(route)

    sw_context.route("**/sw.js*", hold)
    page.goto(plain_server.url + f"lessons/{LESSON}/en.html")
    for _ in range(400):  # until app.js's start-up has run on the first load: its theme button works
        page.evaluate("document.querySelector('[data-theme-toggle]').click()")
        if page.get_attribute("[data-theme-toggle]", "aria-pressed") == "true":
            break
        page.wait_for_timeout(25)
    assert page.get_attribute("[data-theme-toggle]", "aria-pressed") == "true", "app.js did not start"
    assert held, "the service worker's script was not requested"
    page.wait_for_timeout(500)
    assert editor == [] and len(navigations) == 1, (editor, navigations)
    released.append(True)
    for route in held:
        route.continue_()
    _wait_saved(page)
    _wait(page, "body[data-editors=ready]")
    assert len(navigations) == 2, navigations
    assert editor and {nav for nav, _ in editor} == {2}, editor
    assert page.locator("[data-checkpoint] .cm-editor").count() >= 3


def _mark(page, name):
    """When the page first set the performance mark ``name`` (ms since its navigation)."""
    return page.evaluate("(name) => performance.getEntriesByName(name)[0].startTime", name)


@pytest.mark.browser
def test_a_first_visit_reloads_into_isolation_from_early_js_without_waiting_for_app_js(sw_context, plain_server):
    """early.js registers the service worker from <head> on a first visit and reloads the page as soon as that worker
    is active: the reload waits neither for app.js (here it never arrives on the first load) nor for its own second
    registration. The worker controls the page by then (clients.claim()) but added no isolation headers to it, so
    the reload must come all the same, and the first load starts no Python."""
    page = sw_context.new_page()
    navigations = []
    page.on("framenavigated", lambda frame: navigations.append(frame.url) if frame == page.main_frame else None)
    learners = []
    page.on("request", lambda request: learners.append(request.url) if "assets/worker.js?" in request.url else None)
    dropped = []

    def no_app_first(route):  # the first load's app.js never arrives
        if not dropped:
            dropped.append(route.request.url)
            route.abort()
        else:
            route.continue_()

    page.route("**/assets/app.js*", no_app_first)
    page.goto(plain_server.url + f"lessons/{LESSON}/en.html")
    _wait_saved(page)
    assert dropped, "the first load's app.js was not dropped"
    assert page.evaluate("crossOriginIsolated") is True
    _wait(page, "body[data-spare=ready]")
    assert len(navigations) == 2, navigations
    assert len(learners) == 2, learners  # none started by the first load, which reloaded


@pytest.mark.browser
def test_saved_runtime_is_stored_isolated_so_the_cache_api_response_is_served_as_is(sw_context, plain_server):
    """The service worker stores each file with the isolation headers already in place and serves CacheStorage's own
    response for it: only then does Chromium reuse the compiled wasm (V8's code cache) on the next visit."""
    page = sw_context.new_page()
    _open(page, plain_server)
    _wait_saved(page)
    stored = page.evaluate("""async () => {
        const names = (await caches.keys()).filter((n) => n.startsWith("werkbank"));
        const hit = await (await caches.open(names[0])).match(new URL("../../pyodide/pyodide.asm.wasm", location.href));
        return hit ? Object.fromEntries([...hit.headers].filter(([k]) => k.startsWith("cross-origin"))) : null;
    }""")
    assert stored == {
        "cross-origin-embedder-policy": "require-corp",
        "cross-origin-opener-policy": "same-origin",
        "cross-origin-resource-policy": "same-origin",
    }, stored


@pytest.mark.browser
def test_after_one_visit_a_check_works_offline(sw_context, plain_server):
    """Visit once, go offline, reload: the page, Python and the graders all come from the saved copy."""
    page = sw_context.new_page()
    _open(page, plain_server)
    _wait_saved(page)
    _wait(page, "body[data-runtime=ready]")
    sw_context.set_offline(True)
    page.reload()
    _wait(page, "body[data-runtime=ready]")
    state, text = _check(page, "2")  # the starter: grading really runs and finds it wrong
    assert state == "fail", text
    put_solution(page, "2")
    state, text = _check(page, "2")
    assert state == "pass", text
    page.goto(plain_server.url)  # another page of the site, never opened before, offline too
    _wait(page, "body[data-runtime=ready]")
    assert page.locator(f'a[data-lesson="{LESSON}"]').count() == 1


def _marked(page) -> bool:
    return page.locator('meta[name="werkbank-test-build"]').count() > 0


@pytest.mark.browser
def test_new_build_offers_an_update_and_serves_it_when_applied(sw_context, dist, tmp_path, server_factory):
    """A changed build is announced (the open page is not reloaded) and served after the learner applies it."""
    site = tmp_path / "site"
    shutil.copytree(dist, site)
    server = server_factory(
        [sys.executable, "-u", "-m", "http.server", "0", "--bind", "127.0.0.1", "--directory", str(site)]
    )
    page = sw_context.new_page()
    _open(page, server)
    _wait_saved(page)
    old_version = _sw_build(site)["version"]
    lesson_page = site / "lessons" / LESSON / "en.html"
    lesson_page.write_text(
        lesson_page.read_text(encoding="utf-8").replace(
            "<head>", '<head>\n<meta name="werkbank-test-build" content="2">', 1
        ),
        encoding="utf-8",
    )
    new_version = offline.finish(site)["version"]
    assert new_version != old_version
    page.evaluate("navigator.serviceWorker.getRegistration().then((r) => r.update())")
    _wait(page, "html[data-update=available]")
    assert not _marked(page)  # the open page was left alone
    page.reload()  # a plain reload keeps the old build while the new one waits
    _wait(page, "html[data-update=available]")
    assert not _marked(page)
    with page.expect_navigation():
        page.click('[data-action="apply-update"]')
    _wait(page, "body[data-runtime=ready]")
    assert _marked(page)
    names = page.evaluate("caches.keys()")
    assert names == [f"werkbank-{new_version}"], names


@pytest.mark.browser
def test_bytecode_build_grades_like_the_stock_build(browser, stock_dist, bytecode_dist, server_factory):
    """The same submissions get the same verdicts from both builds; a traceback through numpy still names the line."""
    from werkbank.lessons import load_lesson

    copy, _ = bytecode_dist
    plain_server, bc_server = (
        server_factory([sys.executable, "-u", "-m", "http.server", "0", "--bind", "127.0.0.1", "--directory", str(d)])
        for d in (stock_dist, copy)
    )
    lesson = load_lesson(LESSON)
    # every reference, and the failing path (a starter, a declared mistake: shrinking runs) on the first and last
    # checkpoint; `werkbank check` proves each file's verdict in Pyodide already, this proves the two builds agree
    first, *_, last = lesson.checkpoints
    submissions = [(cp.id, "solution", cp.solution()) for cp in lesson.checkpoints]
    submissions += [
        (first.id, "starter", first.starter("en")),
        (last.id, last.mistakes()[0].name, last.mistakes()[0].source()),
    ]
    crash = "import numpy as np\n\nnp.linalg.inv(np.ones((2, 3)))\n"
    results = {}
    for name, server in (("stock", plain_server), ("bytecode", bc_server)):
        ctx = browser.new_context(service_workers="block")  # grading parity only: no isolation reload midway
        page = ctx.new_page()
        _open(page, server)
        _wait(page, "body[data-runtime=ready]")
        verdicts = []
        for cp, label, source in submissions:
            _replace_code(page, cp, source)
            state, text = _check(page, cp)
            verdicts.append((cp, label, state))  # texts may name a seeded random case: compare states
        _replace_code(page, "try", crash)
        page.click('[data-playground] [data-action="run"]')
        _wait(page, '[data-playground][data-state="idle"] [data-verdict]:not([data-verdict="running"])')
        output = page.locator("[data-playground] [data-output]").inner_text()
        results[name] = {"verdicts": verdicts, "output": output}
        ctx.close()
    assert results["bytecode"]["verdicts"] == results["stock"]["verdicts"]
    assert [v[2] for v in results["stock"]["verdicts"] if v[1] == "solution"] == ["pass"] * len(lesson.checkpoints)
    assert all(v[2] != "pass" for v in results["stock"]["verdicts"] if v[1] != "solution")
    for name, result in results.items():
        assert "LinAlgError" in result["output"] and "line 3" in result["output"], (name, result["output"])


_TRACEBACK_WORKER = r"""
const origin = __ORIGIN__;
try {
  const { loadPyodide } = await import(origin + "/pyodide/pyodide.mjs");
  const pyodide = await loadPyodide({ indexURL: origin + "/pyodide/" });
  await pyodide.loadPackage("numpy");
  postMessage({ ok: true, value: pyodide.runPython(`
import json, traceback
import numpy as np
out = []
for action in (lambda: np.linalg.inv(np.ones((2, 3))), lambda: json.loads("{")):
    try:
        action()
    except Exception:
        out.append(traceback.format_exc())
out.append(str(np.linalg.inv(np.eye(2)).tolist()))
(chr(10) + "=====" + chr(10)).join(out)
`) });
} catch (err) {
  postMessage({ ok: false, error: String(err && err.stack || err) });
}
"""


@pytest.mark.browser
def test_bytecode_tracebacks_still_name_numpy_and_stdlib_files_and_lines(page, bytecode_dist, server_factory):
    """Frames inside the compiled numpy and stdlib keep their runtime file names and real line numbers."""
    copy, _ = bytecode_dist
    server = server_factory(
        [sys.executable, "-u", "-m", "http.server", "0", "--bind", "127.0.0.1", "--directory", str(copy)]
    )
    page.goto(server.url + "build.json")
    source = _TRACEBACK_WORKER.replace("__ORIGIN__", json.dumps(server.origin))
    result = page.evaluate(
        """(src) => new Promise((resolve) => {
        const worker = new Worker(URL.createObjectURL(new Blob([src], { type: "text/javascript" })), { type: "module" });
        worker.onmessage = (event) => { worker.terminate(); resolve(event.data); };
        worker.onerror = (event) => resolve({ ok: false, error: event.message });
    })""",
        source,
    )
    assert result["ok"], result.get("error")
    numpy_tb, json_tb, identity = result["value"].split("\n=====\n")
    assert re.search(r'File "/lib/python3\.12/site-packages/numpy/linalg/_linalg\.py", line [1-9]\d*, in \w+', numpy_tb)
    assert "LinAlgError" in numpy_tb
    assert re.search(r'File "/lib/python312\.zip/json/decoder\.py", line [1-9]\d*, in raw_decode', json_tb)
    assert identity == "[[1.0, 0.0], [0.0, 1.0]]"


@pytest.mark.browser
def test_host_sending_the_headers_file_isolates_and_the_csp_allows_python(browser, dist):
    """A host that applies dist/_headers (service workers blocked here): isolated, CSP enforced, a Check passes."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
    import sitekit

    ctx = browser.new_context(service_workers="block")
    page = ctx.new_page()
    problems = []
    page.on("pageerror", lambda exc: problems.append(f"pageerror: {exc}"))
    page.on("console", lambda msg: problems.append(msg.text) if "Content Security Policy" in msg.text else None)
    with sitekit.serve(dist, headers_file=True) as origin:
        response = page.goto(f"{origin}/lessons/{LESSON}/en.html")
        assert "frame-ancestors 'none'" in response.headers["content-security-policy"]
        _wait(page, "body[data-runtime=ready]")
        assert page.evaluate("crossOriginIsolated") is True
        put_solution(page, "2")
        state, text = _check(page, "2")
        ctx.close()
    assert state == "pass", text
    assert problems == []
