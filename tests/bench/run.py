"""``make bench``: how fast werkbank boots and grades in each engine learners use (Chromium, Firefox, WebKit), against
a floor measured in the same engine in the same run; plus Chromium's Stop, memory and bytes figures.

The floor is what no site can beat with this runtime: a bare page whose worker loads the stock npm Pyodide 0.27.7
(node_modules/pyodide) and the hash-verified numpy wheel, then runs ``import numpy``. Nothing else: no editor, no
grading engine, no service worker, one worker. It is measured twice, with a module worker (``import("pyodide.mjs")``)
and with a classic one (``importScripts("pyodide.js")``); F, the floor every ratio is taken against, is the faster
of the two (by p50) in that engine.

Every visit runs in a persistent browser profile, as a learner's browser has (a fresh profile folder per round and
variant): Chromium through Playwright's ``launch_persistent_context``, Firefox through puppeteer-core with its own
profile folder. WebKit (MiniBrowser in automation mode) keeps a session's data in memory only, so its profile is a
fresh session per round; the warm visit is a second navigation in that session, as for the others. The drivers are
tests/engines/drivers.py.

Measured with ``--n`` rounds (default 5), floor and site alternating within each round (A/B, then B/A):

- cold / warm boot: a fresh profile -> ready; then, after ``DWELL_S`` on the page (the site's offline copy saved
  first), a second navigation -> ready. The end is the page's own performance mark (``werkbank:ready`` /
  ``werkbank:python`` from runtime.js, ``floor:ready`` from the floor page), on the browser's clock. A warm visit
  starts at its document's navigation (``performance.timeOrigin``); a cold one at the driver's request to navigate
  (the service worker's reload of the site's first visit happens inside it), the same for floor and site. Floor
  "ready" is numpy imported; the site's is ``<body data-runtime="ready">`` (a Check could start: a pristine learner
  worker with numpy and the grader worker with the lesson); "Python usable" is ``data-python="ready"``. The site runs
  on a plain static host, so its cold boot includes the service worker's one isolation reload;
- click -> verdict, read off the page (from the click on Check to the moment the section shows a verdict), for each
  checkpoint's reference solution and for its starter (a failing solution), at two pacings, ``--checks`` Checks each
  (default 5): *settled* (the code edited, then the click once the page's pool of pristine learner workers is full
  and ``SETTLE_S`` later, as between a learner's Checks) and *typo fix* (the code edited, a comment added, and the click
  right when the previous verdict appears, as a learner fixing a typo does). p50 / p95, with the case counts the
  verdicts showed. The end is the first verdict the page shows (a failure among the first cases is shown while the
  other cases still run); for a failing solution the whole verdict, with its counts, is reported beside it;
- with the Checks, the engine's own cost of a fresh interpreter (``stock_runs``): ``RUNS_WORKERS`` stock Pythons
  booted one after another on the floor's page, each running one fixed workload three times; its first run against
  its third, since every Check runs in a fresh learner worker;
- Chromium only (``--only stop,memory``): Stop -> ready for an endless loop, isolated and not; heap usage after boot
  and after ``--memory-checks`` Checks (DevTools protocol); the bytes of a first visit; main-thread long tasks from
  load to ready.

Prints one table per engine beside the goals (issue 29: warm <= 0.5x F, Python usable <= 0.35x F; issue 28:
click -> verdict p95 <= 0.5 s for a pass and <= 0.25 s for a fail) and writes tests/bench/report.json (git-ignored).
An engine that cannot start is reported as such and the others are still measured.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parents[1]))

import sitekit  # noqa: E402
from tests.engines.drivers import ENGINES, EngineUnavailable, open_engine  # noqa: E402

LESSON = "claims-abstention"
#: Seconds a visit stays before the next navigation, for the floor and the site alike: a learner reads for a while,
#: and engines write compiled code to their caches only a moment after optimising it, so a second visit straight
#: after the first would measure a visit no learner makes.
DWELL_S = 3.0
LESSONS = [LESSON, "micropip-demo"]
TIMEOUT_S = 300.0
#: Seconds the page is left alone before a settled Check: the spare learner worker has booted and the grader has
#: prepared the next cases, as when a learner reads or edits between Checks.
SETTLE_S = 1.0
GOALS = {"warm": 0.5, "python": 0.35, "cold": 0.75, "pass": 0.5, "fail": 0.25}

_FLOOR_HTML = """<!doctype html>
<html><head><meta charset="utf-8"><title>floor</title></head>
<body data-floor="loading">
<script type="module">
const kind = new URL(location.href).searchParams.get("kind") || "module";
if (kind === "runs") {
  // fresh stock Pythons one after another, each kept (it holds its memory); each runs one workload three times
  const rows = [];
  for (let i = 0; i < RUNS_WORKERS; i++) {
    const worker = new Worker(new URL("./floor-runs.js", location.href), { type: "module" });
    (window.__kept ||= []).push(worker);
    rows.push(await new Promise((resolve) => { worker.onmessage = (event) => resolve(event.data); }));
  }
  document.body.dataset.result = JSON.stringify(rows);
  document.body.dataset.floor = rows.every((row) => row.ok) ? "ready" : "failed";
}
const count = kind === "pair" ? 2 : kind === "runs" ? 0 : 1;
let done = 0;
for (let i = 0; i < count; i++) {
  const worker = kind === "classic" ? new Worker(new URL("./floor-classic.js", location.href))
    : new Worker(new URL("./floor-module.js", location.href), { type: "module" });
  worker.onmessage = (event) => {
    if (event.data.ok && ++done < count) return;
    if (event.data.ok) performance.mark("floor:ready");
    document.body.dataset.floor = event.data.ok ? "ready" : "failed";
    document.body.dataset.result = JSON.stringify(event.data);
  };
}
</script>
</body></html>
"""

_FLOOR_BODY = r"""
  const pyodide = await loadPyodide({ indexURL: new URL("./pyodide/", location.href).href });
  await pyodide.loadPackage("numpy", { messageCallback: () => {} });
  pyodide.runPython("import numpy");
  postMessage({ ok: true });
"""
#: One fixed piece of Python a Check's run resembles (Python loops, small numpy arrays, sorting, JSON), timed in a
#: fresh stock Python: its first run against its third shows what an engine's not yet optimised code costs the first
#: run in a new interpreter, which every Check meets (each runs in a fresh learner worker).
_RUNS_WORK = """
import json, time
import numpy as np
def work():
    t = time.perf_counter()
    rng = np.random.default_rng(0)
    total = 0.0
    for i in range(1500):
        a = rng.random(40)
        b = np.sort(a)[::-1]
        total += float(np.mean(a)) + float(np.cumsum(b)[-1]) + len(json.dumps(sorted(b.tolist())))
        d = {str(k): k * 0.5 for k in range(20)}
        total += sum(v for k, v in sorted(d.items()) if k.isdigit())
    return (time.perf_counter() - t) * 1000
"""
_FLOOR_RUNS = (
    'try {\n  const { loadPyodide } = await import("./pyodide/pyodide.mjs");\n'
    '  const pyodide = await loadPyodide({ indexURL: new URL("./pyodide/", location.href).href });\n'
    '  await pyodide.loadPackage("numpy", { messageCallback: () => {} });\n'
    f"  pyodide.runPython({json.dumps(_RUNS_WORK)});\n"
    '  const runs = [];\n  for (let i = 0; i < 3; i++) runs.push(pyodide.runPython("work()"));\n'
    "  postMessage({ ok: true, runs });\n"
    "} catch (error) {\n  postMessage({ ok: false, error: String(error && error.stack || error) });\n}\n"
)
#: How many fresh stock Pythons the "runs" floor page times, one after another.
RUNS_WORKERS = 3
_FLOOR_MODULE = (
    'try {\n  const { loadPyodide } = await import("./pyodide/pyodide.mjs");\n'
    + _FLOOR_BODY
    + "} catch (error) {\n  postMessage({ ok: false, error: String(error && error.stack || error) });\n}\n"
)
_FLOOR_CLASSIC = (
    'importScripts("./pyodide/pyodide.js");\n(async () => {\n try {\n'
    + _FLOOR_BODY
    + " } catch (error) {\n  postMessage({ ok: false, error: String(error && error.stack || error) });\n"
    " }\n})();\n"
)
FLOOR_KINDS = ("module", "classic")
#: Not a floor: two stock module workers booting at once on the bare page, ready when both imported numpy. The site
#: boots two Pythons before it is ready (the learner's and the grader's); this shows what that costs an engine that
#: shares no compiled code between them, against F.
PAIR = "pair"


def make_floor(folder: Path) -> Path:
    """Write the floor pages into ``folder``: stock Pyodide from node_modules + the verified numpy wheel."""
    from werkbank import vendor

    folder.mkdir(parents=True, exist_ok=True)
    (folder / "index.html").write_text(_FLOOR_HTML.replace("RUNS_WORKERS", str(RUNS_WORKERS)), encoding="utf-8")
    (folder / "floor-runs.js").write_text(_FLOOR_RUNS, encoding="utf-8")
    (folder / "floor-module.js").write_text(_FLOOR_MODULE, encoding="utf-8")
    (folder / "floor-classic.js").write_text(_FLOOR_CLASSIC, encoding="utf-8")
    out = folder / "pyodide"
    out.mkdir(exist_ok=True)
    src = vendor.PYODIDE_DIR
    for name in (
        "pyodide.mjs",
        "pyodide.js",
        "pyodide.asm.js",
        "pyodide.asm.wasm",
        "python_stdlib.zip",
        "pyodide-lock.json",
    ):
        shutil.copyfile(src / name, out / name)
    lock = vendor.load_lock(src / "pyodide-lock.json")
    wheel_name = lock["packages"]["numpy"]["file_name"]
    wheels = vendor.obtain({wheel_name: lock["packages"]["numpy"]["sha256"]})
    shutil.copyfile(wheels[wheel_name], out / wheel_name)
    vendor.verify_file(out / wheel_name, wheel_name, lock["packages"]["numpy"]["sha256"])
    return folder


# ------------------------------------------------------------------------------------------------------ boot

_MARKS = """(names) => {
    const out = { origin: performance.timeOrigin };
    for (const name of names) {
        const mark = performance.getEntriesByName(name, "mark")[0];
        out[name] = mark ? mark.startTime : null;
    }
    return out;
}"""
_LONGTASKS = """
window.__wbLongTasks = [];
try {
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) window.__wbLongTasks.push(entry.duration);
  }).observe({ type: "longtask", buffered: true });
} catch (error) {}
"""


def _visit(driver, url: str, ready_js: str, names: list[str], *, cold: bool) -> dict:
    """Navigate to ``url``, wait for ``ready_js``; seconds from the visit's start to each mark of ``names``."""
    started = time.time() * 1000
    driver.goto(url)
    driver.wait(ready_js, timeout=TIMEOUT_S, what=ready_js)
    marks = driver.wait(
        f"(names) => {{ const m = ({_MARKS})(names); return names.every((n) => m[n] !== null) && m; }}",
        names,
        timeout=30,
        what=f"the marks {names}",
    )
    start = started if cold else marks["origin"]
    return {name: round((marks["origin"] + marks[name] - start) / 1000, 3) for name in names}


def floor_round(engine: str, origin: str, kind: str, profile: Path) -> dict:
    """Cold and warm seconds to numpy imported, in a fresh profile."""
    driver = open_engine(engine, profile)
    try:
        url = f"{origin}/index.html?kind={kind}"
        ready = "() => Boolean(document.body) && ['ready', 'failed'].includes(document.body.dataset.floor)"
        cold = _visit(driver, url, ready, ["floor:ready"], cold=True)
        time.sleep(DWELL_S)
        warm = _visit(driver, url, ready, ["floor:ready"], cold=False)
        return {"cold": cold["floor:ready"], "warm": warm["floor:ready"], "version": driver.version}
    finally:
        driver.close()


def stock_runs(engine: str, origin: str, profile: Path) -> list[list[float]]:
    """Milliseconds of the "runs" floor page's workload in each fresh stock Python: ``[first, second, third]`` each."""
    driver = open_engine(engine, profile)
    try:
        driver.goto(f"{origin}/index.html?kind=runs")
        ready = "() => Boolean(document.body) && ['ready', 'failed'].includes(document.body.dataset.floor)"
        driver.wait(ready, timeout=TIMEOUT_S, what="the stock runs")
        rows = json.loads(driver.evaluate("() => document.body.dataset.result"))
        failed = [row.get("error") for row in rows if not row.get("ok")]
        if failed:
            raise RuntimeError(f"the stock runs failed: {failed[0]}")
        return [[round(ms, 1) for ms in row["runs"]] for row in rows]
    finally:
        driver.close()


def site_round(engine: str, origin: str, profile: Path, counter: sitekit.ByteCounter | None) -> dict:
    """Cold and warm visit of the lesson page in a fresh profile (the warm one once the service worker saved the
    whole build): seconds to ready and to Python usable, the boot stages, bytes and long tasks where measurable."""
    driver = open_engine(engine, profile)
    try:
        longtasks = driver.add_init_script(_LONGTASKS)
        url = f"{origin}/lessons/{LESSON}/en.html"
        ready = "() => Boolean(document.body) && document.body.dataset.runtime === 'ready'"
        names = ["werkbank:ready", "werkbank:python"]
        if counter:
            counter.reset()
        cold = _visit(driver, url, ready, names, cold=True)
        out = {
            "cold": cold["werkbank:ready"],
            "cold_python": cold["werkbank:python"],
            "isolated": driver.evaluate("() => crossOriginIsolated"),
            "sab": driver.evaluate("() => typeof SharedArrayBuffer"),
        }
        if longtasks:
            out["longtasks_cold"] = driver.evaluate("() => window.__wbLongTasks || []")
        if counter:
            out["bytes_ready"] = counter.bytes
        driver.wait(
            "() => ['ready', 'failed'].includes(document.documentElement.dataset.offline)",
            timeout=TIMEOUT_S,
            what="the offline copy",
        )
        out["offline"] = driver.attr("html", "data-offline")
        if counter:
            out["bytes_offline"] = counter.bytes
        time.sleep(DWELL_S)
        warm = _visit(driver, url, ready, names, cold=False)
        out.update({"warm": warm["werkbank:ready"], "warm_python": warm["werkbank:python"]})
        out["stages_warm"] = driver.evaluate("""() => { const out = {};  // the first of each name
            for (const m of performance.getEntriesByType('mark')) {
                if (m.name.startsWith('werkbank:') && !(m.name in out)) out[m.name] = Math.round(m.startTime);
            }
            return out; }""")
        if longtasks:
            out["longtasks_warm"] = driver.evaluate("() => window.__wbLongTasks || []")
        return out
    finally:
        driver.close()


# ------------------------------------------------------------------------------------------------------ clicks

#: A series of Checks of one checkpoint, run inside the page: each edits the learner's editor (the code plus a new
#: comment: select its content, insertText, as typing does), clicks Check, and times click -> verdict on the page's
#: own clock: to the first verdict shown (``shownMs``: an early failure, or the verdict) and to the whole verdict (``ms``:
#: the verdict box shows pass/fail/error/timeout and the section is idle again). ``settleMs``: wait for a
#: full pool of pristine learner workers and then this long before each click; 0: click right when the previous verdict appeared.
#: ``stages``: ms from the click to the page's marks of this Check (web/src/runtime.js): the learner worker's run sent
#: (``run``), its result in and sent to the grader (``judge``), the grader's verdict in (``verdict``).
CHECK_SERIES = """async ({ cp, code, count, settleMs }) => {
    const section = document.querySelector(`[data-checkpoint="${cp}"]`);
    const box = section.querySelector("[data-verdict]");
    const content = section.querySelector("[data-editor] .cm-content");
    const button = section.querySelector('[data-action="check"]');
    const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
    const when = (test, ms) => new Promise((resolve, reject) => {
        if (test()) return resolve();
        const timer = setTimeout(() => { observer.disconnect(); reject(new Error("no verdict in time")); }, ms);
        const observer = new MutationObserver(() => {
            if (test()) { clearTimeout(timer); observer.disconnect(); resolve(); }
        });
        observer.observe(document.body, { attributes: true, subtree: true,
            attributeFilter: ["data-verdict", "data-state", "data-pool", "data-runtime"] });
    });
    const out = [];
    for (let i = 0; i < count; i++) {
        content.focus();
        getSelection().selectAllChildren(content);
        if (!document.execCommand("insertText", false, `${code}\\n# edit ${i} ${Date.now()}\\n`)) throw new Error("insertText refused");
        if (settleMs) {
            await when(() => document.body.dataset.runtime === "ready" && document.body.dataset.pool === "ready", 300000);
            await sleep(settleMs);
        }
        await sleep(0);  // the editor's update reaches the page's state, as between two key presses
        let shown = null; // the first verdict on the page: a failure among the first cases shows before the rest ran
        const watch = new MutationObserver(() => {
            if (shown === null && ["pass", "fail", "error", "timeout"].includes(box.dataset.verdict)) shown = performance.now();
        });
        watch.observe(box, { attributes: true, attributeFilter: ["data-verdict"] });
        const start = performance.now();
        button.click();
        if (section.dataset.state !== "running") throw new Error("the click did not start a Check");
        await when(() => section.dataset.state === "idle" && !["running", "idle"].includes(box.dataset.verdict), 300000);
        const end = performance.now();
        watch.disconnect();
        const line = box.querySelector(".verdict-line");
        const at = (name) => {  // this Check's stage mark (web/src/runtime.js), ms after the click
            const marks = performance.getEntriesByName(`werkbank:check:${name}`, "mark");
            const last = marks.length ? marks[marks.length - 1].startTime : -1;
            return last >= start ? Math.round(last - start) : null;
        };
        out.push({ ms: end - start, shownMs: (shown === null ? end : shown) - start, verdict: box.dataset.verdict,
                   headline: line ? line.textContent : "",
                   stages: { run: at("run"), judge: at("judge"), verdict: at("verdict") } });
    }
    return out;
}"""
_COUNTS = re.compile(r"(\d+)\s*/\s*(\d+)")


def click_series(engine: str, origin: str, profile: Path, count: int) -> dict:
    """Click -> verdict for each checkpoint's reference ("pass") and starter ("fail"), settled and typo-fix."""
    from tests.engines.walk import sources

    driver = open_engine(engine, profile)
    out: dict = {}
    try:
        driver.goto(f"{origin}/lessons/{LESSON}/en.html")
        driver.wait(
            "() => Boolean(document.body) && document.body.dataset.runtime === 'ready' && "
            "document.body.dataset.editors === 'ready'",
            timeout=TIMEOUT_S,
            what="ready",
        )
        for cp, (starter, reference) in sources(LESSON).items():
            for want, code in (("pass", reference), ("fail", starter)):
                for pacing, settle in (("settled", SETTLE_S * 1000), ("typo", 0)):
                    rows = driver.evaluate(CHECK_SERIES, {"cp": cp, "code": code, "count": count, "settleMs": settle})
                    for row in rows:
                        found = _COUNTS.search(row["headline"] or "")
                        row["cases"] = int(found.group(2)) if found else None
                    out.setdefault(cp, {}).setdefault(want, {})[pacing] = rows
                    print(
                        f"  {engine} checkpoint {cp} {want} {pacing}: "
                        f"{[round(r['ms']) for r in rows]} ms, {[r['verdict'] for r in rows]}; "
                        f"run, judge, verdict at {[(r['stages']['run'], r['stages']['judge'], r['stages']['verdict']) for r in rows]}",
                        flush=True,
                    )
        return out
    finally:
        driver.close()


def heap_usage(browser, page) -> list[dict]:
    """JS heap (``usedSize``) and ArrayBuffer backing stores, wasm memories included (``backingStorageSize``), of
    every page and worker of ``browser`` now, through the DevTools protocol (Runtime.getHeapUsage)."""
    cdp = browser.new_browser_cdp_session()
    replies: dict = {}

    def receive(event):
        message = json.loads(event["message"])
        if message.get("id") == 1:  # our request's answer, not an event of that target
            replies[event["sessionId"]] = message

    cdp.on("Target.receivedMessageFromTarget", receive)
    out = []
    for target in cdp.send("Target.getTargets")["targetInfos"]:
        if target["type"] not in ("page", "worker"):
            continue
        sid = cdp.send("Target.attachToTarget", {"targetId": target["targetId"], "flatten": False})["sessionId"]
        for number, method in ((0, "HeapProfiler.collectGarbage"), (1, "Runtime.getHeapUsage")):  # live data only
            cdp.send(
                "Target.sendMessageToTarget",
                {"sessionId": sid, "message": json.dumps({"id": number, "method": method})},
            )
        deadline = time.monotonic() + 30  # a worker answers between its tasks
        while sid not in replies and time.monotonic() < deadline:
            page.wait_for_timeout(20)  # lets Playwright deliver the protocol events
        usage = replies.get(sid, {}).get("result", {})
        name = target["url"].rsplit("/", 1)[-1].split("?")[0] or target["type"]
        out.append(
            {
                "type": target["type"],
                "name": name,
                "js_heap": usage.get("usedSize"),
                "backing_store": usage.get("backingStorageSize"),
            }
        )
        cdp.send("Target.detachFromTarget", {"sessionId": sid})
    cdp.detach()
    return out


def floor_memory(browser, origin: str) -> list[dict]:
    """Heap usage of the floor page (module worker) once numpy is imported."""
    ctx = browser.new_context()
    page = ctx.new_page()
    page.goto(origin + "/index.html")
    page.wait_for_selector("body[data-floor=ready]", timeout=TIMEOUT_S * 1000, state="attached")
    out = heap_usage(browser, page)
    ctx.close()
    return out


def memory(browser, origin: str, checks_total: int) -> dict:
    """Heap usage after boot, after 20 Checks and after ``checks_total`` Checks (isolated host, service workers
    blocked so only this page's workers count)."""
    ctx = browser.new_context(service_workers="block")
    page = ctx.new_page()
    page.on("dialog", lambda dialog: dialog.accept())
    page.goto(f"{origin}/lessons/{LESSON}/en.html")
    full = "body[data-runtime=ready][data-pool=ready]"  # every pristine learner worker of the pool booted
    page.wait_for_selector(full, timeout=int(TIMEOUT_S * 1000), state="attached")
    out = {"after_boot": heap_usage(browser, page)}
    section = '[data-checkpoint="1"]'
    page.click(f'{section} [data-action="solution"]')
    page.click(f"{section} [data-solution] button")
    for done in range(1, checks_total + 1):
        page.wait_for_selector("body[data-runtime=ready]", timeout=int(TIMEOUT_S * 1000), state="attached")
        page.click(f'{section} [data-action="check"]')
        _wait_verdict(page, section)
        if done in (20, checks_total):
            page.wait_for_selector(full, timeout=int(TIMEOUT_S * 1000), state="attached")
            out[f"after_{done}_checks"] = heap_usage(browser, page)
    ctx.close()
    return out


def _wait_verdict(page, section: str) -> None:
    # CSS only: the page's CSP forbids eval, so no string predicates (wait_for_function) here.
    page.wait_for_selector(
        f'{section}[data-state="idle"] [data-verdict]:not([data-verdict="running"])',
        timeout=int(TIMEOUT_S * 1000),
        state="attached",
    )


def stop_once(browser, origin: str, *, block_sw: bool) -> dict:
    """Seconds from a click on Stop (endless loop running) to ``data-runtime="ready"`` again."""
    ctx = browser.new_context(service_workers="block" if block_sw else "allow")
    page = ctx.new_page()
    page.goto(f"{origin}/lessons/{LESSON}/en.html")
    page.wait_for_selector(
        "body[data-runtime=ready][data-spare=ready]", timeout=int(TIMEOUT_S * 1000), state="attached"
    )
    isolated = page.evaluate("crossOriginIsolated")
    editor = page.locator("[data-playground] .cm-content")
    editor.click()
    editor.fill("while True:\n    pass\n")
    page.click('[data-playground] [data-action="run"]')
    page.wait_for_selector("body[data-runtime=running]", timeout=int(TIMEOUT_S * 1000), state="attached")
    # measured in the page: from the click event on Stop to data-runtime="ready"
    page.evaluate("""() => { window.__wbStop = {};
        document.querySelector('[data-playground] [data-action="stop"]').addEventListener("click", () => {
            window.__wbStop.start = performance.now();
            new MutationObserver((list, observer) => {
                if (document.body.dataset.runtime === "ready") { window.__wbStop.end = performance.now(); observer.disconnect(); }
            }).observe(document.body, { attributes: true, attributeFilter: ["data-runtime"] });
        }, { capture: true, once: true }); }""")
    page.click('[data-playground] [data-action="stop"]')
    page.wait_for_selector("body[data-runtime=ready]", timeout=int(TIMEOUT_S * 1000), state="attached")
    clock = page.evaluate("window.__wbStop")
    elapsed = (clock["end"] - clock["start"]) / 1000 if clock.get("end") else float("nan")
    ctx.close()
    return {"seconds": elapsed, "isolated": isolated}


def summary(values: list[float]) -> dict:
    """p50 / p95 / min / max / n of a list of seconds (rounded to ms)."""
    if not values:
        return {"n": 0}
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, max(0, round(0.95 * (len(ordered) - 1))))]
    return {
        "n": len(values),
        "p50": round(statistics.median(ordered), 3),
        "p95": round(p95, 3),
        "min": round(ordered[0], 3),
        "max": round(ordered[-1], 3),
    }


def machine() -> dict:
    """What the numbers were measured on."""
    info = {"platform": platform.platform(), "python": platform.python_version(), "cpus": os.cpu_count()}
    try:
        info["loadavg_start"] = [round(x, 2) for x in os.getloadavg()]
    except OSError:
        pass
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                info["cpu"] = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return info


# ------------------------------------------------------------------------------------------------------ Chromium only


def _p50(values):
    values = [v for v in values if v is not None]
    return round(statistics.median(values), 3) if values else None


def engine_summary(e: dict) -> dict:
    """F, the site's p50s, their ratios to F and the click -> verdict summaries of one engine's raw results."""
    floors = {
        kind: {"cold": _p50(e["floor"][kind]["cold"]), "warm": _p50(e["floor"][kind]["warm"])} for kind in FLOOR_KINDS
    }
    warm_kind = min((k for k in FLOOR_KINDS if floors[k]["warm"]), key=lambda k: floors[k]["warm"], default=None)
    cold_kind = min((k for k in FLOOR_KINDS if floors[k]["cold"]), key=lambda k: floors[k]["cold"], default=None)
    f_warm = floors[warm_kind]["warm"] if warm_kind else None
    f_cold = floors[cold_kind]["cold"] if cold_kind else None
    site = {key: _p50(e["site"].get(key, [])) for key in ("warm", "warm_python", "cold", "cold_python")}
    pair = e["floor"].get(PAIR, {})
    pair = {key: _p50(pair.get(key, [])) for key in ("warm", "cold")}

    def ratio(value, floor):
        return round(value / floor, 2) if value and floor else None

    out = {
        "floors": floors,
        "F_warm": f_warm,
        "F_warm_kind": warm_kind,
        "F_cold": f_cold,
        "F_cold_kind": cold_kind,
        "site": site,
        "ratios": {
            "warm": ratio(site["warm"], f_warm),
            "python": ratio(site["warm_python"], f_warm),
            "cold": ratio(site["cold"], f_cold),
            "cold_python": ratio(site["cold_python"], f_cold),
            "pair_warm": ratio(pair["warm"], f_warm),
            "pair_cold": ratio(pair["cold"], f_cold),
        },
        "pair": pair,
        "stock_first": _p50([row[0] / row[-1] for row in e.get("stock_runs") or [] if row[-1]]),
        "stock_third_ms": _p50([row[-1] for row in e.get("stock_runs") or []]),
        "clicks": {},
    }
    for cp, wants in (e.get("clicks") or {}).items():
        for want, pacings in wants.items():
            for pacing, rows in pacings.items():
                seconds = [r.get("shownMs", r["ms"]) / 1000 for r in rows]
                whole = [r["ms"] / 1000 for r in rows]
                cases = sorted({r["cases"] for r in rows if r.get("cases") is not None})
                verdicts = sorted({r["verdict"] for r in rows})
                out["clicks"].setdefault(cp, {}).setdefault(want, {})[pacing] = {
                    **summary(seconds),
                    "whole": summary(whole),
                    "cases": cases,
                    "verdicts": verdicts,
                }
    return out


def _fmt(value, unit="s", width=8):
    if value is None:
        return f"{'-':>{width}}"
    return f"{value:>{width - len(unit)}.2f}{unit}" if unit == "s" else f"{value:>{width - 1}.2f}x"


def _cases(c):
    cases = c.get("cases") or []
    if not cases:
        return "?"
    return str(cases[0]) if len(cases) == 1 else f"{cases[0]}-{cases[-1]}"


def print_summary(report: dict) -> None:
    """One table per engine beside the goals, then the engines side by side."""
    m = report["machine"]
    print(
        f"\nmachine: {m.get('cpu', '?')} x{m.get('cpus')}, load {m.get('loadavg_start')} -> {m.get('loadavg_end')}; "
        f"runtime {report.get('runtime')}; n={report['n']} rounds, {report.get('checks')} Checks per series"
    )
    sums = {}
    for engine, e in report["engines"].items():
        print(f"\n== {engine} {e.get('version') or ''}")
        if e.get("unavailable") or e.get("error"):
            print(f"   not measured: {e.get('unavailable') or e.get('error')}")
            if not e.get("floor"):
                continue
        s = sums[engine] = engine_summary(e)
        fl = s["floors"]
        print(
            f"   floor p50 warm / cold: module {fl['module']['warm']} / {fl['module']['cold']} s, "
            f"classic {fl['classic']['warm']} / {fl['classic']['cold']} s -> F warm {s['F_warm']} s "
            f"({s['F_warm_kind']}), F cold {s['F_cold']} s ({s['F_cold_kind']})"
        )
        print(
            f"   two stock Pythons at once (module workers) p50 warm / cold: {s['pair']['warm']} / "
            f"{s['pair']['cold']} s = {s['ratios']['pair_warm']}x / {s['ratios']['pair_cold']}x of F "
            "(the engine's cost of a second Python beside the first, which the site boots before ready)"
        )
        if s["stock_first"]:
            print(
                f"   a fresh stock Python's first run of one workload: {s['stock_first']}x its third "
                f"({s['stock_third_ms']} ms), p50 of {len(e['stock_runs'])} (the engine's unoptimised code, which "
                "a Check in a fresh learner worker meets)"
            )
        print(
            f"   raw: site warm {e['site'].get('warm')}  cold {e['site'].get('cold')}; isolated "
            f"{sorted(set(map(str, e['site'].get('isolated', []))))}, SharedArrayBuffer "
            f"{sorted(set(map(str, e['site'].get('sab', []))))}"
        )
        print(f"   {'measure':<38}{'site':>8}{'F':>8}{'ratio':>8}{'goal':>8}  met")
        for label, key, fkey, goal in (
            ("warm boot -> ready", "warm", "F_warm", GOALS["warm"]),
            ("Python usable, warm", "warm_python", "F_warm", GOALS["python"]),
            ("cold boot -> ready (incl. SW reload)", "cold", "F_cold", GOALS["cold"]),
            ("Python usable, cold", "cold_python", "F_cold", None),
        ):
            value, floor = s["site"][key], s[fkey]
            r = round(value / floor, 2) if value and floor else None
            met = "" if goal is None or r is None else ("yes" if r <= goal else "NO")
            print(f"   {label:<38}{_fmt(value)}{_fmt(floor)}{_fmt(r, 'x')}{_fmt(goal, 'x') if goal else '':>8}  {met}")
        if s["clicks"]:
            print(f"   {'click -> verdict: p50 / p95 s (cases)':<38}{'settled':<28}{'typo fix':<28}goal p95")
            for cp, wants in s["clicks"].items():
                for want, pacings in wants.items():
                    cells = []
                    for pacing in ("settled", "typo"):
                        c = pacings.get(pacing, {})
                        bad = [v for v in c.get("verdicts", []) if v != want]
                        cell = f"{c.get('p50', 0):.3f} / {c.get('p95', 0):.3f} ({_cases(c)})" if c.get("n") else "-"
                        cells.append(cell + (f" {bad}!" if bad else ""))
                    goal = GOALS[want]
                    worst = max((pacings[p].get("p95") or 0) for p in pacings)
                    label = f"checkpoint {cp}, {'reference' if want == 'pass' else 'starter'} ({want})"
                    print(f"   {label:<38}{cells[0]:<28}{cells[1]:<28}{goal:.2f} s {'yes' if worst <= goal else 'NO'}")
                    if want == "fail":  # the early verdict first, then the whole run's counts
                        wholes = [
                            f"{c['whole']['p50']:.3f} / {c['whole']['p95']:.3f}" if c.get("whole", {}).get("n") else "-"
                            for c in (pacings.get(p, {}) for p in ("settled", "typo"))
                        ]
                        print(f"   {'  ... whole verdict, with its counts':<38}{wholes[0]:<28}{wholes[1]:<28}")
        site_e = e["site"]
        for key in ("longtasks_cold", "longtasks_warm"):
            if site_e.get(key):
                worst = max((max(v) if v else 0.0) for v in site_e[key])
                print(f"   longest main-thread task load -> ready ({key[10:]}): {worst:.0f} ms (goal 50 ms)")
        if site_e.get("bytes_ready"):
            print(
                f"   first-visit bytes: {statistics.median(site_e['bytes_ready']):.0f} until ready, "
                f"{statistics.median(site_e['bytes_offline']):.0f} with the offline copy"
            )
    if sums:
        engines = list(sums)
        print("\n== side by side (ratios to F of the same engine; click p95 = the worst checkpoint)")
        print(f"{'measure':<36}" + "".join(f"{e:>12}" for e in engines) + f"{'goal':>10}")
        rows = [
            ("warm boot / F", lambda s: s["ratios"]["warm"], "x", GOALS["warm"]),
            ("Python usable, warm / F", lambda s: s["ratios"]["python"], "x", GOALS["python"]),
            ("cold boot / F", lambda s: s["ratios"]["cold"], "x", GOALS["cold"]),
            ("F warm (s)", lambda s: s["F_warm"], "s", None),
            ("site warm (s)", lambda s: s["site"]["warm"], "s", None),
            ("stock first run / third run", lambda s: s["stock_first"], "x", None),
        ]
        for want in ("pass", "fail"):
            for pacing in ("settled", "typo"):
                rows.append(
                    (
                        f"click -> {want} p95, {pacing} (s)",
                        lambda s, w=want, p=pacing: max(
                            (v[w][p].get("p95") or 0 for v in s["clicks"].values() if w in v and p in v[w]),
                            default=None,
                        ),
                        "s",
                        GOALS[want],
                    )
                )
        for label, get, unit, goal in rows:
            cells = "".join(_fmt(get(sums[e]), unit, 12) for e in engines)
            print(f"{label:<36}{cells}{(_fmt(goal, unit, 10) if goal else ''):>10}")
    if report.get("stop"):
        st = report["stop"]
        print(
            f"\nChromium Stop -> ready: isolated p50 {st['isolated'].get('p50')} s, not isolated p50 "
            f"{st['not_isolated'].get('p50')} s"
        )
    mem = report.get("memory")
    if mem:

        def total(rows, key):
            return round(sum((r.get(key) or 0) for r in rows) / 1e6, 1)

        for stage, rows in mem.items():
            print(
                f"Chromium memory {stage}: JS heap {total(rows, 'js_heap')} MB, ArrayBuffers/wasm "
                f"{total(rows, 'backing_store')} MB  ({len(rows)} contexts)"
            )


def measure_engine(engine: str, args, parts: set, tmp: Path, origins: dict, counter) -> dict:
    """Every round of floor and site in ``engine``, then its click series."""
    e: dict = {"floor": {kind: {"cold": [], "warm": []} for kind in (*FLOOR_KINDS, PAIR)}, "site": {}}
    variants = [("floor", kind) for kind in (*FLOOR_KINDS, PAIR)] + [("site", None)]
    for round_no in range(args.n if "boot" in parts else 0):
        for what, kind in variants if round_no % 2 == 0 else variants[::-1]:
            profile = tmp / f"{engine}-{what}-{kind}-{round_no}"
            if what == "floor":
                one = floor_round(engine, origins["floor"], kind, profile)
                e["version"] = one["version"]
                for key in ("cold", "warm"):
                    e["floor"][kind][key].append(one[key])
            else:
                one = site_round(engine, origins["site"], profile, counter if round_no == 0 else None)
                for key, value in one.items():
                    e["site"].setdefault(key, []).append(value)
            shutil.rmtree(profile, ignore_errors=True)
        print(f"{engine}: round {round_no + 1}/{args.n} done", flush=True)
    if "checks" in parts and args.checks:
        e["stock_runs"] = stock_runs(engine, origins["floor"], tmp / f"{engine}-runs")
        e["clicks"] = click_series(engine, origins["site"], tmp / f"{engine}-clicks", args.checks)
    return e


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark; see the module docstring."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=5, help="rounds per variant (default 5)")
    parser.add_argument("--engines", default=",".join(ENGINES), help="comma-separated (default: all three)")
    parser.add_argument("--checks", type=int, default=5, help="Checks per click series (default 5)")
    parser.add_argument("--memory-checks", type=int, default=100, help="Checks in Chromium's memory run")
    parser.add_argument("--dist", help="an already built site to measure (default: build one into a temp folder)")
    parser.add_argument("--out", default=str(HERE / "report.json"))
    parser.add_argument("--only", help="comma-separated parts (boot,checks,stop,memory); default all")
    args = parser.parse_args(argv)
    parts = set((args.only or "boot,checks,stop,memory").split(","))
    engines = [e.strip() for e in args.engines.split(",") if e.strip()]
    unknown = [e for e in engines if e not in ENGINES]
    if unknown:
        parser.error(f"unknown engines {unknown}; choose from {list(ENGINES)}")
    report: dict = {
        "machine": machine(),
        "n": args.n,
        "checks": args.checks,
        "lesson": LESSON,
        "engines": {},
        "started": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    }
    with tempfile.TemporaryDirectory(prefix="werkbank-bench-") as tmp:
        tmp = Path(tmp)
        if args.dist:
            site = sitekit.copy_site(Path(args.dist), tmp / "site")
            sitekit.ensure_offline(site)
        else:
            site = sitekit.build_site(tmp / "site", LESSONS)  # the default build: bytecode runtime when possible
        report["runtime"] = "bytecode" if (site / "pyodide" / "bytecode.json").is_file() else "stock"
        floor = make_floor(tmp / "floor")
        counter = sitekit.ByteCounter()
        with (
            sitekit.serve(floor) as floor_origin,
            sitekit.serve(site, counter=counter) as origin,
            sitekit.serve(site, isolated=True) as iso_origin,
        ):
            origins = {"floor": floor_origin, "site": origin}
            for engine in engines:
                try:
                    e = measure_engine(engine, args, parts, tmp, origins, counter)
                except EngineUnavailable as error:
                    e = {"unavailable": str(error)}
                except Exception as error:  # noqa: BLE001 - one engine's failure must not hide the others' figures
                    import traceback

                    traceback.print_exc()
                    e = {"error": f"{type(error).__name__}: {error}"}
                report["engines"][engine] = e
                Path(args.out).write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
            if "chromium" in engines and parts & {"stop", "memory"}:
                chromium_extras(report, parts, args, origin, iso_origin, floor_origin)
    try:
        report["machine"]["loadavg_end"] = [round(x, 2) for x in os.getloadavg()]
    except OSError:
        pass
    for e in report["engines"].values():
        if "floor" in e:
            e["summary"] = engine_summary(e)
    Path(args.out).write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    print_summary(report)
    print(f"\nwrote {args.out}")
    return 0


def chromium_extras(report: dict, parts: set, args, origin: str, iso_origin: str, floor_origin: str) -> None:
    """Stop -> ready and heap usage, in Chromium (an ephemeral Playwright context: the DevTools protocol)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=sitekit.chromium_path(), headless=True, args=sitekit.CHROMIUM_ARGS)
        stops_iso, stops_plain = [], []
        for round_no in range(max(3, args.n // 2) if "stop" in parts else 0):
            for isolated in [True, False] if round_no % 2 == 0 else [False, True]:
                one = stop_once(browser, origin, block_sw=not isolated)
                (stops_iso if isolated else stops_plain).append(one)
        if stops_iso or stops_plain:
            report["stop"] = {
                "isolated": summary([s["seconds"] for s in stops_iso if s["isolated"]]),
                "not_isolated": summary([s["seconds"] for s in stops_plain if not s["isolated"]]),
                "raw": {"isolated": stops_iso, "not_isolated": stops_plain},
            }
        if args.memory_checks and "memory" in parts:
            report["memory"] = {
                "floor_after_boot": floor_memory(browser, floor_origin),
                **memory(browser, iso_origin, args.memory_checks),
            }
        browser.close()


if __name__ == "__main__":
    sys.exit(main())
