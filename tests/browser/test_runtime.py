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


def test_vendored_runtime_numpy_and_lesson_wheel_from_a_plain_static_host(page, plain_server, request_log, dist):
    """numpy from dist/pyodide computes in a worker, and micropip-demo's pinned wheel installs from dist/wheels/
    with micropip; every request stays on the serving origin."""
    grading = json.loads((dist / "grading" / "micropip-demo.json").read_text(encoding="utf-8"))
    wheels = [req["file"] for req in grading["requirements"]]
    names = [req["name"] for req in grading["requirements"]]
    assert wheels, "micropip-demo declares a requirement, so its grading json must list a wheel"
    page.goto(plain_server.url + "build.json")
    code = ("import importlib, numpy\n"
            f"[numpy.unique([3, 1, 1]).tolist(), [importlib.import_module(n).__name__ for n in {names!r}]]")
    value = run_in_worker(page, plain_server.origin, code, ["numpy", "micropip"], wheels)
    assert value == [[1, 3], names]
    assert any(u.endswith("/pyodide/pyodide.asm.wasm") for u in request_log.urls)
    assert any("/pyodide/numpy-" in u for u in request_log.urls)
    assert any(u.endswith("/wheels/" + wheels[0]) for u in request_log.urls)
    request_log.assert_only(plain_server.origin)


def test_isolated_server_makes_the_page_cross_origin_isolated(page, isolated_server, request_log):
    """Under werkbank serve, COOP/COEP make the page cross-origin isolated and Pyodide still boots."""
    page.goto(isolated_server.url + "build.json")
    assert page.evaluate("crossOriginIsolated") is True
    assert run_in_worker(page, isolated_server.origin, "import sys; sys.version_info[:2]") == [3, 12]
    request_log.assert_only(isolated_server.origin)


# ---------------------------------------------------------------------------------------------------------------
# The site's own worker (dist/assets/worker.js, protocol in web/src/protocol.js), driven message by message.

_DRIVER = """async ({ workerUrl, schema, jobs }) => {
    const worker = new Worker(workerUrl, { type: "module" });
    const errors = [];
    worker.onerror = (event) => errors.push(String(event.message));
    const ask = (message, finals) => new Promise((resolve) => {
        const seen = [];
        const listener = (event) => {
            const data = event.data;
            if (!data || data.runId !== message.runId) return;
            seen.push(data);
            if (finals.includes(data.type)) {
                worker.removeEventListener("message", listener);
                resolve(seen);
            }
        };
        worker.addEventListener("message", listener);
        worker.postMessage({ ...message, schema, runId: message.runId });
    });
    const out = [];
    for (const job of jobs) out.push(await ask(job.message, job.finals));
    worker.terminate();
    return { replies: out, errors };
}"""


def protocol_schema(repo_root) -> int:
    """The SCHEMA constant of web/src/protocol.js, so a bump there cannot silently break this test."""
    import re

    text = (repo_root / "web" / "src" / "protocol.js").read_text(encoding="utf-8")
    return int(re.search(r"export const SCHEMA = (\d+);", text).group(1))


def drive_site_worker(page, server, repo_root, jobs):
    """Start dist/assets/worker.js on ``page`` and send each job's message; return the replies of each job."""
    arg = {"workerUrl": server.origin + "/assets/worker.js", "schema": protocol_schema(repo_root), "jobs": jobs}
    result = page.evaluate(_DRIVER, arg)
    assert result["errors"] == [], result["errors"]
    return result["replies"]


def final(replies):
    """The last reply of a job, failing with the worker's message when it is a failure."""
    last = replies[-1]
    assert last["type"] != "failure", last.get("message")
    return last


def test_site_worker_runs_numpy_and_checks_a_lesson_with_a_wheel(page, plain_server, request_log, repo_root, dist):
    """The real site worker boots from dist/ on a plain static host, runs numpy, and checks micropip-demo (whose
    vendored wheel it installs with micropip); no request leaves the origin."""
    if not (dist / "assets" / "worker.js").is_file():
        pytest.fail("dist/assets/worker.js is missing: the site build did not bundle the worker")
    grading = json.loads((dist / "grading" / "micropip-demo.json").read_text(encoding="utf-8"))
    solution = grading["solutions"]["1"]
    starter = (repo_root / "exercises" / "_micropip-demo" / "01-decode-link" / "starter.py").read_text()
    page.goto(plain_server.url + "build.json")
    code = "import numpy\nprint(numpy.unique([3, 1, 1]).tolist())\n"
    check = {"type": "check", "lessonId": "micropip-demo", "checkpoint": "1", "lang": "en", "seed": 0}
    boot, run, good, bad = drive_site_worker(page, plain_server, repo_root, [
        {"message": {"type": "init", "runId": "boot-000000000001"}, "finals": ["ready", "failure"]},
        {"message": {"type": "run", "runId": "run-0000000000001", "source": code, "timeLimit": 30},
         "finals": ["result", "failure"]},
        {"message": {**check, "runId": "check-00000000001", "source": solution}, "finals": ["verdict", "failure"]},
        {"message": {**check, "runId": "check-00000000002", "source": starter}, "finals": ["verdict", "failure"]},
    ])
    assert final(boot)["type"] == "ready"
    result = final(run)
    assert result["run"]["status"] == "ok", result["run"]
    printed = "".join(m["text"] for m in run if m["type"] == "output" and m["stream"] == "stdout")
    assert (printed or result["run"]["stdout"]).strip() == "[1, 3]"
    verdict = final(good)["verdict"]
    assert verdict["status"] == "pass", verdict
    assert verdict["total"] > 0 and verdict["passed"] == verdict["total"]
    assert final(bad)["verdict"]["status"] == "fail"
    wheel = grading["requirements"][0]["file"]
    assert any(u.endswith("/assets/worker.js") for u in request_log.urls)
    assert any(u.endswith("/wheels/" + wheel) for u in request_log.urls)
    request_log.assert_only(plain_server.origin)
