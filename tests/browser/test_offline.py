"""Offline and fast in the browser: the service worker, the isolation reload, _headers, the bytecode build.

The tests use the built ``dist`` on a plain static host (no COOP/COEP): after the first visit the service worker must
make the page cross-origin isolated, keep the whole site working offline, and offer a newer build without reloading
the page by itself (``werkbank build`` runs ``werkbank.offline.finish``; app.js calls ``registerServiceWorker``).
Tests about the service worker and the reload alone use pages that boot no Python (``SAVE_DATA``). The build's side
(file list, precompressed copies, _headers, the bytecode step): tests/test_offline_build.py.
"""

from __future__ import annotations

import json
import re
import shutil
import sys
from pathlib import Path

import pytest

from tests.browser.learner import put_solution
from tests.conftest import SAVE_DATA, python312
from tests.derived import GRADING_INPUTS, inputs_digest, lesson_inputs, stamped
from werkbank import offline
from werkbank.assets import EDITOR_STAGES

LESSON = "claims-abstention"
WAIT_MS = 180_000


def _sw_build(dist: Path) -> dict:
    match = re.search(r"const BUILD = (\{.*?\});\n", (dist / "sw.js").read_text(encoding="utf-8"))
    assert match, "sw.js has no BUILD literal"
    return json.loads(match.group(1))


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
    page.wait_for_timeout(300)  # one more learner worker would have asked for its script by now
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
    page is the one that builds the editors. (No Python: only the reload and the editors matter here.)"""
    sw_context.add_init_script(SAVE_DATA)
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
    page.wait_for_timeout(300)  # one more learner worker would have asked for its script by now
    assert len(navigations) == 2, navigations
    assert len(learners) == 2, learners  # none started by the first load, which reloaded


@pytest.mark.browser
def test_saved_runtime_is_stored_isolated_so_the_cache_api_response_is_served_as_is(sw_context, plain_server):
    """The service worker stores each file with the isolation headers already in place and serves CacheStorage's own
    response for it: only then does Chromium reuse the compiled wasm (V8's code cache) on the next visit."""
    sw_context.add_init_script(SAVE_DATA)  # what the service worker saves does not depend on Python booting
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
    # another page of the site, never opened before, offline too (its Python would boot from the files the lesson
    # page just booted from, offline: not again here)
    sw_context.add_init_script(SAVE_DATA)
    page.goto(plain_server.url)
    _wait(page, f'html[data-offline=ready] a[data-lesson="{LESSON}"]')
    assert page.locator(f'a[data-lesson="{LESSON}"]').count() == 1


def _marked(page) -> bool:
    return page.locator('meta[name="werkbank-test-build"]').count() > 0


@pytest.mark.browser
def test_new_build_offers_an_update_and_serves_it_when_applied(sw_context, dist, tmp_path, server_factory):
    """A changed build is announced (the open page is not reloaded) and served after the learner applies it."""
    sw_context.add_init_script(SAVE_DATA)  # three page loads, none of which needs Python
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
    _wait(page, "body[data-editors=ready]")
    assert _marked(page)
    names = page.evaluate("caches.keys()")
    assert names == [f"werkbank-{new_version}"], names


#: What the two builds' agreement depends on (a stamped check, tests/derived.py): the bytecode step and the stock
#: runtime it starts from, the site's scripts, the engine and the lesson graded (and the check's own code).
BYTECODE_PARITY_INPUTS = (
    *GRADING_INPUTS,
    "werkbank/bytecode.py",
    "werkbank/offline.py",
    "werkbank/vendor/*.py",
    "werkbank/build.py",
    "werkbank/assets.py",
    "werkbank/site.py",
    "werkbank/templates/*",
    "graders/hosts/*.py",
    "web/src/**/*.js",
    "package-lock.json",
    "node_modules/pyodide/pyodide-lock.json",
)


@pytest.mark.browser
def test_bytecode_build_grades_like_the_stock_build(browser, request, server_factory):
    """The same submissions get the same verdicts from both builds; a traceback through numpy still names the line.
    A stamped check: run again when its inputs change."""
    from werkbank.lessons import load_lesson

    lesson = load_lesson(LESSON)

    def check():
        stock, compiled = request.getfixturevalue("stock_dist"), request.getfixturevalue("bytecode_dist")
        plain_server, bc_server = (
            server_factory(
                [sys.executable, "-u", "-m", "http.server", "0", "--bind", "127.0.0.1", "--directory", str(d)]
            )
            for d in (stock, compiled)
        )
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
        return {"verdicts": [f"{cp} {label}: {state}" for cp, label, state in results["stock"]["verdicts"]]}

    extra = {"python312": python312()[1], "chromium": browser.version}
    digest = inputs_digest([*BYTECODE_PARITY_INPUTS, *lesson_inputs(lesson)], extra)
    stamped("bytecode-parity", LESSON, digest, check, helpers=(_open, _wait, _replace_code, _check), request=request)


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
    copy = bytecode_dist
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
