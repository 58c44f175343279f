"""The vendored runtime works in a real browser from a plain static host, with no request leaving the site.

The low-level tests load ``dist/pyodide/pyodide.mjs`` in a module worker of their own (created from a blob), so they
prove the vendoring alone: runtime files, MIME types a plain host sends, the trimmed lock, numpy, micropip and the
lesson wheels in ``dist/wheels/``.
"""

from __future__ import annotations

import json

import pytest

pytestmark = pytest.mark.browser

# A module worker that boots the vendored Pyodide and answers one request. `origin` is filled in by the test.
_WORKER = r"""
const origin = __ORIGIN__;
const job = __JOB__;
try {
  const { loadPyodide } = await import(origin + "/pyodide/pyodide.mjs");
  const pyodide = await loadPyodide({ indexURL: origin + "/pyodide/" });
  await pyodide.loadPackage(job.packages);
  if (job.wheels.length) {
    const micropip = pyodide.pyimport("micropip");
    for (const file of job.wheels) await micropip.install(origin + "/wheels/" + file, { deps: false });
  }
  const value = pyodide.runPython(job.code);
  postMessage({ ok: true, value: value && value.toJs ? value.toJs() : value });
} catch (err) {
  postMessage({ ok: false, error: String(err && err.stack || err) });
}
"""

_RUN = """(src) => new Promise((resolve, reject) => {
    const url = URL.createObjectURL(new Blob([src], { type: "text/javascript" }));
    const worker = new Worker(url, { type: "module" });
    worker.onmessage = (event) => { worker.terminate(); resolve(event.data); };
    worker.onerror = (event) => reject(new Error("worker error: " + event.message));
})"""


def run_in_worker(page, origin: str, code: str, packages=(), wheels=()):
    """Boot the vendored Pyodide in a fresh module worker on ``page`` and return the value of ``code``."""
    job = {"packages": list(packages), "wheels": list(wheels), "code": code}
    src = _WORKER.replace("__ORIGIN__", json.dumps(origin)).replace("__JOB__", json.dumps(job))
    result = page.evaluate(_RUN, src)
    assert result["ok"], result.get("error")
    return result["value"]


def test_vendored_numpy_runs_from_a_plain_static_host(page, plain_server, request_log):
    """numpy from dist/pyodide computes in the worker; every request stays on the serving origin."""
    page.goto(plain_server.url + "build.json")
    value = run_in_worker(page, plain_server.origin, "import numpy; numpy.unique([3, 1, 1]).tolist()", ["numpy"])
    assert value == [1, 3]
    assert any(u.endswith("/pyodide/pyodide.asm.wasm") for u in request_log.urls)
    assert any("/pyodide/numpy-" in u for u in request_log.urls)
    request_log.assert_only(plain_server.origin)


def test_lesson_wheel_installs_offline_with_micropip(page, plain_server, request_log, dist):
    """The micropip-demo lesson's pinned wheel comes from dist/wheels/ and imports in Pyodide."""
    grading = json.loads((dist / "grading" / "micropip-demo.json").read_text(encoding="utf-8"))
    wheels = [req["file"] for req in grading["requirements"]]
    assert wheels, "micropip-demo declares a requirement, so its grading json must list a wheel"
    names = [req["name"] for req in grading["requirements"]]
    page.goto(plain_server.url + "build.json")
    code = f"import importlib; [importlib.import_module(n).__name__ for n in {names!r}]"
    assert run_in_worker(page, plain_server.origin, code, ["micropip"], wheels) == names
    assert any(u.endswith("/wheels/" + wheels[0]) for u in request_log.urls)
    request_log.assert_only(plain_server.origin)


def test_isolated_server_makes_the_page_cross_origin_isolated(page, isolated_server, request_log):
    """Under werkbank serve, COOP/COEP make the page cross-origin isolated and Pyodide still boots."""
    page.goto(isolated_server.url + "build.json")
    assert page.evaluate("crossOriginIsolated") is True
    assert run_in_worker(page, isolated_server.origin, "import sys; sys.version_info[:2]") == [3, 12]
    request_log.assert_only(isolated_server.origin)
