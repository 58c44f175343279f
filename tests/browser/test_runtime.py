"""The vendored runtime works in a real browser from a plain static host, with no request leaving the site.

The low-level tests load ``dist/pyodide/pyodide.mjs`` in a module worker of their own (created from a blob), so they
prove the vendoring alone: runtime files, MIME types a plain host sends, the trimmed lock, numpy, micropip and the
lesson wheels in ``dist/wheels/``.
"""

from __future__ import annotations

import json

import pytest

from tests.browser.helpers import click, drive_workers, final, pool_depth, put_solution, wait_verdict

pytestmark = pytest.mark.browser


# Checks of one checkpoint pressed one after the other, each as soon as the previous verdict shows, the code edited
# in between (a comment added), as a learner fixing a typo does. For each: whether it started at once (the page was
# "running" right after the click: a pristine learner worker was ready) and the verdict with its headline.
_TYPO_SERIES = """async ({ cp, code, count }) => {
    const section = document.querySelector(`[data-checkpoint="${cp}"]`);
    const box = section.querySelector("[data-verdict]");
    const content = section.querySelector("[data-editor] .cm-content");
    const button = section.querySelector('[data-action="check"]');
    const out = [];
    for (let i = 0; i < count; i++) {
        content.focus();
        getSelection().selectAllChildren(content);
        if (!document.execCommand("insertText", false, `${code}\n# edit ${i}\n`)) throw new Error("insertText");
        await new Promise((resolve) => setTimeout(resolve, 0));
        const done = new Promise((resolve) => {
            const observer = new MutationObserver(() => {
                if (section.dataset.state === "idle" && !["running", "idle"].includes(box.dataset.verdict)) {
                    observer.disconnect();
                    resolve();
                }
            });
            observer.observe(section, { attributes: true, subtree: true, attributeFilter: ["data-verdict", "data-state"] });
        });
        button.click();
        const atOnce = document.body.dataset.runtime === "running";
        await done;
        const line = box.querySelector(".verdict-line");
        out.push({ atOnce, verdict: box.dataset.verdict, headline: line ? line.textContent : "" });
    }
    return out;
}"""

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
    code = (
        "import importlib, numpy\n"
        f"[numpy.unique([3, 1, 1]).tolist(), [importlib.import_module(n).__name__ for n in {names!r}]]"
    )
    value = run_in_worker(page, plain_server.origin, code, ["numpy", "micropip"], wheels)
    assert value == [[1, 3], names]
    assert any(u.endswith("/pyodide/pyodide.asm.wasm") for u in request_log.urls)
    assert any("/pyodide/numpy-" in u for u in request_log.urls)
    assert any(u.endswith("/wheels/" + wheels[0]) for u in request_log.urls)
    request_log.assert_only(plain_server.origin)


def test_isolated_server_makes_the_page_cross_origin_isolated(page, isolated_server, request_log):
    """Under werkbank serve, COOP/COEP make the page cross-origin isolated. (Pyodide boots in such pages in every
    test that opens a lesson on isolated_server, the site's workers included.)"""
    page.goto(isolated_server.url + "build.json")
    assert page.evaluate("crossOriginIsolated") is True
    request_log.assert_only(isolated_server.origin)


# ---------------------------------------------------------------------------------------------------------------
# The site's own workers (dist/assets/worker.js: learner; dist/assets/grader_worker.js: grader; protocol in
# web/src/protocol.js), driven message by message: helpers.drive_workers.


def test_site_workers_run_numpy_and_check_a_lesson_with_a_wheel(page, plain_server, request_log, repo_root, dist):
    """The real learner and grader workers boot from dist/ on a plain static host: the learner worker hands over the
    runtime it compiled, says Python is usable before it is ready, runs numpy and the lesson's wheel; the grader
    prepares (a plan without expected values) and judges; the learner worker never requests
    grading/<lesson>.json; no request leaves the origin."""
    for name in ("worker.js", "grader_worker.js"):
        assert (dist / "assets" / name).is_file(), f"dist/assets/{name} is missing"
    grading = json.loads((dist / "grading" / "micropip-demo.json").read_text(encoding="utf-8"))
    solution = grading["solutions"]["1"]
    starter = (repo_root / "exercises" / "_micropip-demo" / "01-decode-link" / "starter.py").read_text()
    page.goto(plain_server.url + "build.json")
    lesson = {"lessonId": "micropip-demo"}
    where = {**lesson, "checkpoint": "1", "seed": 7, "lang": "en"}
    replies = drive_workers(
        page,
        plain_server,
        repo_root,
        [
            {"to": "learner", "message": {"type": "init", **lesson}, "finals": ["ready", "failure"]},
            {"to": "grader", "message": {"type": "init", **lesson}, "finals": ["ready", "failure"]},
            {
                "to": "learner",
                "message": {
                    "type": "run",
                    "source": "import numpy, mdurl\nprint(numpy.unique([3, 1, 1]).tolist())\n",
                    "plan": '{"mode": "run"}',
                    "timeLimit": 30,
                },
                "finals": ["result", "failure"],
            },
            {"to": "grader", "message": {"type": "prepare", **where}, "finals": ["prepared", "failure"]},
        ],
    )
    boot, _, ran, prepared = replies
    # the runtime it compiled comes first (for the page to hand on), before Python, so before any learner code
    assert [m["type"] for m in boot if m["type"] != "progress"] == ["runtime", "python", "ready"], boot[-1]
    result = json.loads(final(ran)["runJson"])
    assert result["status"] == "ok", result
    printed = "".join(m["text"] for m in ran if m["type"] == "output" and m["stream"] == "stdout")
    assert (printed or result["stdout"]).strip() == "[1, 3]"
    plan = final(prepared)["plan"]
    assert "expected" not in json.loads(plan) and json.loads(plan)["cases"]
    verdicts = {}
    for name, source in (("good", solution), ("bad", starter)):
        (ran,) = drive_workers(
            page,
            plain_server,
            repo_root,
            [
                {
                    "to": "learner",
                    "message": {"type": "run", "source": source, "plan": plan, "timeLimit": 30},
                    "finals": ["result", "failure"],
                }
            ],
            keep=True,
        )
        (judged,) = drive_workers(
            page,
            plain_server,
            repo_root,
            [
                {
                    "to": "grader",
                    "message": {"type": "judge", **where, "runJson": final(ran)["runJson"]},
                    "finals": ["verdict", "failure"],
                }
            ],
            keep=True,
        )
        verdicts[name] = final(judged)["verdict"]
    assert verdicts["good"]["status"] == "pass" and verdicts["good"]["passed"] == verdicts["good"]["total"] > 0
    assert verdicts["bad"]["status"] == "fail"
    wheel = grading["requirements"][0]["file"]
    assert any(u.endswith("/wheels/" + wheel) for u in request_log.urls)
    assert sum(u.endswith("/grading/micropip-demo.json") for u in request_log.urls) == 1  # the grader's, only
    request_log.assert_only(plain_server.origin)


_CORES = "Object.defineProperty(Navigator.prototype, 'hardwareConcurrency', {{ get: () => {cores} }})"
_MARKS = """() => Object.fromEntries(performance.getEntriesByType('mark')
    .filter((m) => m.name.startsWith('werkbank:')).map((m) => [m.name, m.startTime]))"""
_GRADER_FETCHED = """performance.getEntriesByType('resource')
    .find((r) => r.name.includes('assets/grader_worker.js')).startTime"""


def _assert_boot_order(page, cores):
    """The grader's worker starts with the page (it fetches and unpacks what needs no Python), but its Python starts
    from the runtime the learner worker compiled, once that is there, and so before the learner's Python is usable
    (on two cores, after a first visit's isolation reload, it waits for that: test_offline.py). With more cores too:
    compiling the runtime twice side by side gains nothing, and WebKit reports 4 cores on a two-core machine."""
    worker_start = page.evaluate(_GRADER_FETCHED)
    marks = page.evaluate(_MARKS)
    python, compiled, init = (
        marks["werkbank:learner:python"],
        marks["werkbank:learner:runtime"],
        marks["werkbank:grader:init"],
    )
    assert worker_start < python, (cores, worker_start, python)
    assert compiled <= init < python, (cores, marks)
    assert "werkbank:grader:shared-runtime" in marks, (cores, marks)


def test_first_learner_worker_starts_from_the_head_and_is_adopted(browser, isolated_server, plain_server):
    """early.js starts the first learner worker before the page's bundle runs, and runtime.js adopts it (one learner
    worker until ready). Where the page may still reload into isolation (a plain host: service workers exist, the
    page is neither controlled nor isolated) it starts none, and the page boots after its load as before. The
    isolated page has two cores (as this machine may not): its boot order is checked there (_assert_boot_order)."""
    for server, service_workers, early in ((isolated_server, "allow", True), (plain_server, "block", False)):
        ctx = browser.new_context(service_workers=service_workers)
        if early:
            ctx.add_init_script(_CORES.format(cores=2))
        page = ctx.new_page()
        learners = []
        page.on("request", lambda r, out=learners: out.append(r.url) if "assets/worker.js?" in r.url else None)
        page.goto(server.url + "lessons/claims-abstention/en.html")
        page.wait_for_selector("body[data-runtime=ready]", timeout=120_000, state="attached")
        marks = page.evaluate(_MARKS)
        assert ("werkbank:early" in marks) == early, (server.url, marks)
        if early:
            assert marks["werkbank:early"] < marks["werkbank:learner:python"]
            _assert_boot_order(page, 2)
        assert page.evaluate("'__werkbankEarlyWorker' in window") is False  # adopted (or never there)
        page.wait_for_selector("body[data-spare=ready]", timeout=120_000, state="attached")
        page.wait_for_timeout(300)  # one more learner worker would have asked for its script by now
        # the first one and the spare (a page of the tests keeps two, see tests/conftest.py SMALL_POOL): none started
        # twice or thrown away
        assert len(learners) == 2, learners
        ctx.close()


def test_with_more_than_two_cores_the_grader_still_starts_from_the_runtime_the_learner_compiled(
    browser, isolated_server
):
    """With more cores too the grader's Python starts from the learner's compiled runtime, and the page gets to ready
    (two cores: test_first_learner_worker_starts_from_the_head_and_is_adopted; _assert_boot_order)."""
    ctx = browser.new_context()
    ctx.add_init_script(_CORES.format(cores=8))
    page = ctx.new_page()
    page.goto(isolated_server.url + "lessons/claims-abstention/en.html")
    page.wait_for_selector("body[data-runtime=ready]", timeout=120_000, state="attached")
    _assert_boot_order(page, 8)
    ctx.close()


def test_workers_unpack_numpy_themselves_and_share_one_compiled_runtime(browser, plain_server):
    """Both workers unpack numpy's wheel in JavaScript (web/src/pyboot.js) rather than through Pyodide's loadPackage,
    which they fall back to, with a warning, only when that fails: here it must not. Only the first learner worker
    compiles the runtime: the grader and every later learner worker instantiate the module it handed to the page
    (runtime.js). The grader hands the page numpy as it unpacked and compiled it once it is ready, and every learner
    worker started after that installs it without fetching or inflating the wheel and instantiates its shared
    libraries from the grader's compiled modules (pyodide_private.js loadSharedLibraries). They grade with them."""
    ctx = browser.new_context()
    page = ctx.new_page()
    messages = []
    page.on("console", lambda m: messages.append(m.text))
    page.goto(plain_server.url + "lessons/perplexity-calibration/en.html")
    page.wait_for_selector("body[data-runtime=ready]", timeout=120_000, state="attached")
    page.wait_for_selector("body[data-spare=ready]", timeout=120_000, state="attached")
    assert not [m for m in messages if "through loadPackage" in m], messages
    shared = "(role) => performance.getEntriesByName(`werkbank:${role}:shared-runtime`).length"
    assert page.evaluate(shared, "grader") == 1
    assert page.evaluate(shared, "learner") == 1  # the spare; the first learner worker compiled it
    numpy = "(role) => performance.getEntriesByName(`werkbank:${role}:shared-numpy`).length"
    page.wait_for_function("performance.getEntriesByName('werkbank:grader:numpy').length === 1")
    assert page.evaluate(numpy, "grader") == 0  # the grader unpacks its own
    # and numpy is what the lesson's Check needs: the reference passes checkpoint 2 (numpy arrays in and out), in
    # the spare and the grader, both started from the shared runtime
    put_solution(page, "2")
    click(page, "2", "check")
    assert wait_verdict(page, "2")[0] == "pass"
    click(page, "2", "check")  # the next Check's worker is the spare booted after the first: shared as well
    assert wait_verdict(page, "2")[0] == "pass"
    page.wait_for_selector("body[data-spare=ready]", timeout=120_000, state="attached")
    assert page.evaluate(shared, "learner") >= 2
    assert page.evaluate(numpy, "learner") >= 2  # at least the learner workers the two Checks started
    libraries = "performance.getEntriesByName('werkbank:learner:shared-libraries').length"
    assert page.evaluate(libraries) == page.evaluate(numpy, "learner")  # and numpy's libraries as the grader compiled
    click(page, "2", "check")  # in the first of them: numpy installed from the grader's copy grades the same
    assert wait_verdict(page, "2")[0] == "pass"
    assert not [m for m in messages if "did not instantiate" in m], messages
    ctx.close()


def test_a_learner_worker_given_a_runtime_it_cannot_instantiate_compiles_its_own(page, plain_server, repo_root):
    """The module an INIT carries is only a shortcut: when it does not instantiate with Pyodide's imports, the worker
    says so and compiles the runtime itself (web/src/pyboot.js startPyodide), and still boots."""
    warnings = []
    page.on("console", lambda m: warnings.append(m.text) if m.type == "warning" else None)
    page.goto(plain_server.url + "build.json")
    # a real module, but not this runtime: it imports x.y, which Pyodide's imports do not have
    wasm = [0, 97, 115, 109, 1, 0, 0, 0, 1, 4, 1, 0x60, 0, 0, 2, 7, 1, 1, 0x78, 1, 0x79, 0, 0]
    init = {"type": "init", "runtimeBytes": wasm}
    # without the fallback Pyodide only warns and waits forever: the wait ends after 60 s
    [seen] = drive_workers(
        page,
        plain_server,
        repo_root,
        [{"to": "learner", "message": init, "finals": ["ready", "failure"], "timeoutMs": 60_000}],
        keep=False,
    )
    types = [m["type"] for m in seen if m["type"] != "progress"]
    assert types == ["runtime", "python", "ready"], types  # it compiled its own, and offers it like a first worker
    assert seen[-1]["sharedRuntime"] is False
    assert any("did not instantiate" in w for w in warnings), warnings


def test_checks_pressed_as_each_verdict_shows_each_start_at_once_with_one_verdict(browser, isolated_server):
    """A page keeps a pool of pristine learner workers (runtime.js): two while the learner reads, POOL_DEPTH (on a
    device that does not report 2 GiB or less) once they edit code, booted one at a time, none thrown away. Five
    Checks pressed one after the other, each as the previous verdict shows (a learner fixing a typo), each start at
    once on a worker of their own, and the same code gets the same verdict and counts every time, for a passing and
    for a failing solution."""
    from tests.engines.walk import sources

    starter, reference = sources("claims-abstention")["1"]
    ctx = browser.new_context(full_pool=True)
    page = ctx.new_page()
    learners = []
    page.on("request", lambda r: learners.append(r.url) if "assets/worker.js?" in r.url else None)
    page.goto(isolated_server.url + "lessons/claims-abstention/en.html")
    page.wait_for_selector("body[data-runtime=ready][data-pool=ready]", timeout=120_000, state="attached")
    page.wait_for_timeout(600)  # one more learner worker would have asked for its script by now
    assert len(learners) == 2, learners  # reading: two
    put_solution(page, "1")  # an edit: the whole pool
    page.wait_for_selector("body[data-pool=loading]", timeout=5_000, state="attached")
    page.wait_for_selector("body[data-runtime=ready][data-pool=ready]", timeout=120_000, state="attached")
    page.wait_for_timeout(600)
    assert len(learners) == pool_depth(), learners
    for want, code in (("pass", reference), ("fail", starter)):
        page.wait_for_selector("body[data-runtime=ready][data-pool=ready]", timeout=120_000, state="attached")
        rows = page.evaluate(_TYPO_SERIES, {"cp": "1", "code": code, "count": 5})
        assert [r["verdict"] for r in rows] == [want] * 5, rows
        assert all(r["atOnce"] for r in rows), rows  # none waited for a worker to boot
        assert len({r["headline"] for r in rows}) == 1, rows  # one verdict, one count
    ctx.close()


def test_a_settled_check_runs_the_plan_its_worker_parsed_ahead_with_the_verdict_werkbank_grade_gives(
    page, plain_server, repo_root
):
    """Pristine learner workers parse the page's Check plans while they wait (KEEP): a Check on a settled page runs
    its worker's parsed plan (the page marks it), and gets the verdict, the counts and the first failing case that
    `werkbank grade` gives, for a passing and a failing solution."""
    from werkbank.grading import grade_source
    from werkbank.lessons import load_lesson

    checkpoint = load_lesson("claims-abstention").checkpoint("3")
    reference, wrong = checkpoint.solution(), checkpoint.mistakes()[0].source()
    page.goto(plain_server.url + "lessons/claims-abstention/en.html")
    page.wait_for_selector("body[data-runtime=ready][data-pool=ready]", timeout=120_000, state="attached")
    for want, code in (("pass", reference), ("fail", wrong)):
        # every plan of the page parsed by both pristine workers (the learner reads: two), then the click
        page.wait_for_function(
            "() => performance.getEntriesByName('werkbank:learner:kept').length >= 6", timeout=60_000, polling=100
        )
        before = page.evaluate("() => performance.getEntriesByName('werkbank:check:kept').length")
        page.evaluate(_SET_CODE, {"cp": "3", "code": code})
        click(page, "3", "check")
        state, _ = wait_verdict(page, "3")
        assert state == want
        assert page.evaluate("() => performance.getEntriesByName('werkbank:check:kept').length") == before + 1
        shown = page.evaluate(
            "() => { const b = document.querySelector('[data-checkpoint=\"3\"] [data-verdict]');"
            " return b.querySelector('.verdict-line').textContent; }"
        )
        cli = grade_source("claims-abstention", "3", code, lang="en")
        assert cli["status"] == want
        assert f"{cli['passed']}" in shown and f"{cli['total']}" in shown, (shown, cli["passed"], cli["total"])
        if want == "fail":
            assert cli["failure"]["case_label"] in page.evaluate(
                "() => document.querySelector('[data-checkpoint=\"3\"] [data-verdict]').textContent"
            )
        page.reload()
        page.wait_for_selector("body[data-runtime=ready][data-pool=ready]", timeout=120_000, state="attached")


_SET_CODE = """({ cp, code }) => {
    const content = document.querySelector(`[data-checkpoint="${cp}"] [data-editor] .cm-content`);
    content.focus();
    getSelection().selectAllChildren(content);
    if (!document.execCommand("insertText", false, code)) throw new Error("insertText refused");
    return true;
}"""
