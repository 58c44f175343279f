"""``make bench``: how fast werkbank boots, grades and stops, measured against a floor, in one Chromium run.

The floor is what no site can beat with this runtime: a bare page whose module worker imports the stock npm
Pyodide 0.27.7 (node_modules/pyodide) and the hash-verified numpy wheel, then runs ``import numpy``. Nothing else:
no editor, no grading engine, no service worker, one worker.

Measured with ``--n`` rounds (default 5), alternating floor and site in every round (A/B, then B/A):

- cold / warm boot: a fresh browser context -> ready; then, after ``DWELL_S`` on the page (the site's offline
  copy saved first), a second navigation (``goto``, the same for both) -> ready. Both are timed inside the browser,
  on its own clock (``NAV_CLOCK``): from the start of the visit's first navigation (``performance.timeOrigin``) to
  the moment a MutationObserver sees the ready attribute. The driver's own wait is not used: Playwright polls a
  selector at growing intervals (up to 500 ms apart), which added 0.1-0.5 s to every figure, and added it unevenly.
  Floor "ready" is numpy imported; the site's is ``<body data-runtime="ready">`` (everything a Check needs: a
  pristine learner worker with numpy and the grader worker with the lesson). The site runs on a plain static host,
  so its cold boot includes the service worker's one isolation reload, and its second visit comes from the service
  worker's saved copy;
- Python usable: the same visits -> ``<body data-python="ready">`` (a Run without numpy starts at once);
- boot stages: the page's performance marks (``werkbank:learner:python``, ``werkbank:grader:ready``, ...);
- click -> verdict for every checkpoint's reference solution (measured in the page, from the click event to the
  verdict): p50 and p95 per checkpoint, settled (each click once the spare learner worker is ready and the grader
  has prepared ahead, as between a learner's Checks) and back to back (each click right after the previous verdict);
- Stop -> ready for an endless loop, isolated and not (service workers blocked on a plain host), once the spare
  learner worker is ready (``data-spare="ready"``);
- heap usage (DevTools protocol ``Runtime.getHeapUsage`` of every page and worker: JS heap and ArrayBuffer backing
  stores, which hold the wasm memories) after boot, after 20 and after ``--checks`` Checks; the floor's after boot;
- bytes on the first visit (body bytes the server sent) until ready and until the offline copy is complete;
- main-thread long tasks (PerformanceObserver "longtask") from load to ready, cold and warm.

Prints every figure beside its goal (``GOALS``) and writes tests/bench/report.json (git-ignored).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
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

LESSON = "claims-abstention"
#: Seconds a visit stays before the next navigation, for the floor and the site alike: a learner reads for a while,
#: and Chromium writes compiled WebAssembly to its code cache only a moment after optimising it, so a second visit
#: straight after the first would measure a visit no learner makes.
DWELL_S = 3.0
LESSONS = [LESSON, "micropip-demo"]
TIMEOUT_MS = 180_000

_FLOOR_HTML = """<!doctype html>
<html><head><meta charset="utf-8"><title>floor</title></head>
<body data-floor="loading">
<script type="module">
const started = performance.now();
const worker = new Worker(new URL("./floor-worker.js", location.href), { type: "module" });
worker.onmessage = (event) => {
  document.body.dataset.ms = String(performance.now() - started);
  document.body.dataset.floor = event.data.ok ? "ready" : "failed";
  document.body.dataset.result = JSON.stringify(event.data);
};
</script>
</body></html>
"""

_FLOOR_WORKER = r"""
try {
  const { loadPyodide } = await import("./pyodide/pyodide.mjs");
  const pyodide = await loadPyodide({ indexURL: new URL("./pyodide/", location.href).href });
  await pyodide.loadPackage("numpy", { messageCallback: () => {} });
  pyodide.runPython("import numpy");
  let probe = null;
  if (new URL(location.href).searchParams.get("probe")) {
    probe = pyodide.runPython(`
import traceback, numpy
try:
    numpy.linalg.inv(numpy.ones((2, 3)))
except Exception:
    text = traceback.format_exc()
text + "\\n--\\n" + numpy.__file__ + "\\n" + str(numpy.linalg.inv(numpy.eye(2)).tolist())
`);
  }
  postMessage({ ok: true, probe });
} catch (error) {
  postMessage({ ok: false, error: String(error && error.stack || error) });
}
"""

#: Boot times measured inside the browser. Every document of a tab appends its ``performance.timeOrigin`` (epoch ms,
#: the start of its navigation) to ``sessionStorage``, so a visit that the service worker reloads is timed from its
#: first navigation. A MutationObserver notes ``performance.now()`` the first time the body shows each value of
#: ``data-runtime``, ``data-python`` and ``data-floor``. It watches the document's children only until <body> exists.
NAV_CLOCK = """
(() => {
  let origins = [];
  try {
    origins = JSON.parse(sessionStorage.getItem("__wbOrigins") || "[]");
    origins.push(performance.timeOrigin);
    sessionStorage.setItem("__wbOrigins", JSON.stringify(origins));
  } catch (error) { origins = [performance.timeOrigin]; }
  window.__wbOrigins = origins;
  window.__wbSeen = {};
  const note = () => {
    for (const key of ["runtime", "python", "floor"]) {
      const value = document.body.dataset[key];
      if (value && !((key + ":" + value) in window.__wbSeen)) window.__wbSeen[key + ":" + value] = performance.now();
    }
  };
  const watch = () => {
    note();
    new MutationObserver(note).observe(document.body,
      { attributes: true, attributeFilter: ["data-runtime", "data-python", "data-floor"] });
  };
  if (document.body) { watch(); return; }
  const early = new MutationObserver(() => { if (document.body) { early.disconnect(); watch(); } });
  early.observe(document, { childList: true, subtree: true });
})();
"""


def nav_clock(page, key: str, *, since_first: bool = False) -> float:
    """Seconds from this document's navigation start (or, ``since_first``, from the first navigation of the visit:
    a service worker's reload counts) to the first time the body showed ``key`` (e.g. ``"runtime:ready"``)."""
    seen = page.evaluate(f"[window.__wbSeen[{json.dumps(key)}], performance.timeOrigin, window.__wbOrigins]")
    at, origin, origins = seen
    if at is None:
        raise RuntimeError(f"the page never showed {key}")
    first = origins[0] if since_first and origins else origin
    return (origin + at - first) / 1000


#: Click -> verdict measured inside the page: from the click event on a Check button to the moment its section's
#: verdict box shows a verdict (a MutationObserver), so the driver's own latency does not count.
VERDICT_CLOCK = """
window.__wbClicks = [];
document.addEventListener("click", (event) => {
  const button = event.target.closest && event.target.closest('[data-action="check"]');
  if (!button) return;
  const section = button.closest("[data-checkpoint]");
  const box = section.querySelector("[data-verdict]");
  const entry = { cp: section.dataset.checkpoint, start: performance.now(), end: null };
  window.__wbClicks.push(entry);
  const done = () => section.dataset.state === "idle" && !["running", "idle"].includes(box.dataset.verdict);
  const observer = new MutationObserver(() => {
    if (entry.end === null && done()) { entry.end = performance.now(); observer.disconnect(); }
  });
  observer.observe(section, { attributes: true, subtree: true, attributeFilter: ["data-verdict", "data-state"] });
}, true);
"""

LONGTASK_SCRIPT = """
window.__wbLongTasks = [];
try {
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) window.__wbLongTasks.push([entry.startTime, entry.duration]);
  }).observe({ type: "longtask", buffered: true });
} catch (error) {}
"""


def make_floor(folder: Path, pyodide_dir: Path | None = None) -> Path:
    """Write the floor page into ``folder``: stock Pyodide from node_modules (or ``pyodide_dir``) + verified numpy."""
    from werkbank import vendor

    folder.mkdir(parents=True, exist_ok=True)
    (folder / "index.html").write_text(_FLOOR_HTML, encoding="utf-8")
    (folder / "floor-worker.js").write_text(_FLOOR_WORKER, encoding="utf-8")
    out = folder / "pyodide"
    out.mkdir(exist_ok=True)
    if pyodide_dir is None:
        src = vendor.PYODIDE_DIR
        for name in ("pyodide.mjs", "pyodide.asm.js", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json"):
            shutil.copyfile(src / name, out / name)
        lock = vendor.load_lock(src / "pyodide-lock.json")
        wheel_name = lock["packages"]["numpy"]["file_name"]
        wheels = vendor.obtain({wheel_name: lock["packages"]["numpy"]["sha256"]})
        shutil.copyfile(wheels[wheel_name], out / wheel_name)
        vendor.verify_file(out / wheel_name, wheel_name, lock["packages"]["numpy"]["sha256"])
    else:
        for path in Path(pyodide_dir).iterdir():
            shutil.copyfile(path, out / path.name)
    return folder


def probe_runtime(browser, folder: Path) -> dict:
    """Boot the floor page over ``folder``'s runtime and return numpy's traceback probe (for the bytecode check)."""
    html = (folder / "index.html").read_text(encoding="utf-8").replace('"./floor-worker.js"', '"./floor-worker.js?probe=1"')
    (folder / "probe.html").write_text(html, encoding="utf-8")
    with sitekit.serve(folder) as origin:
        ctx = browser.new_context()
        page = ctx.new_page()
        page.goto(origin + "/probe.html")
        page.wait_for_selector("body[data-floor=ready], body[data-floor=failed]", timeout=TIMEOUT_MS, state="attached")
        result = json.loads(page.get_attribute("body", "data-result"))
        ctx.close()
    return result


# ------------------------------------------------------------------------------------------------------ measurements


def floor_once(browser, origin: str, counter: sitekit.ByteCounter, measure_memory: bool = False):
    """(cold, warm) seconds from navigation to numpy imported, the body bytes of the cold visit, and (when asked)
    the heap usage after the warm boot."""
    ctx = browser.new_context()
    ctx.add_init_script(NAV_CLOCK)
    page = ctx.new_page()
    out = []
    counter.reset()
    for _ in range(2):
        if out:
            cold_bytes = counter.bytes
        page.goto(origin + "/index.html")  # the second visit is a second navigation, exactly as for the site
        page.wait_for_selector("body[data-floor=ready]", timeout=TIMEOUT_MS, state="attached")
        out.append(nav_clock(page, "floor:ready", since_first=not out))
        if len(out) == 1:
            page.wait_for_timeout(DWELL_S * 1000)
    memory = heap_usage(browser, page) if measure_memory else None
    ctx.close()
    return out[0], out[1], cold_bytes, memory


def _visit(page, url: str, *, cold: bool) -> dict:
    """Navigate to ``url``; seconds to ``data-python="ready"`` and to ``data-runtime="ready"`` (on the browser's
    clock, from the visit's first navigation), long tasks, marks."""
    page.goto(url)
    page.wait_for_selector("body[data-runtime=ready][data-python=ready]", timeout=TIMEOUT_MS, state="attached")
    python = nav_clock(page, "python:ready", since_first=cold)
    ready = nav_clock(page, "runtime:ready", since_first=cold)
    tasks = page.evaluate("window.__wbLongTasks || []")
    marks = page.evaluate("""() => { const out = {};  // the first of each name (a spare's boot comes later)
        for (const m of performance.getEntriesByType('mark')) {
            if (m.name.startsWith('werkbank:') && !(m.name in out)) out[m.name] = Math.round(m.startTime);
        }
        return out; }""")
    return {"python": python, "ready": ready, "marks": marks,
            "longtasks": {"count": len(tasks), "total_ms": round(sum(d for _, d in tasks), 1),
                          "max_ms": round(max((d for _, d in tasks), default=0.0), 1)}}


def site_once(browser, origin: str, counter: sitekit.ByteCounter | None = None) -> dict:
    """Cold and warm visit of the lesson page (the warm one is a second navigation once the service worker saved the
    whole build); bytes of the cold visit."""
    ctx = browser.new_context()
    ctx.add_init_script(LONGTASK_SCRIPT)
    ctx.add_init_script(NAV_CLOCK)
    page = ctx.new_page()
    if counter:
        counter.reset()
    url = f"{origin}/lessons/{LESSON}/en.html"
    cold = _visit(page, url, cold=True)
    result = {"cold": cold["ready"], "cold_python": cold["python"], "longtasks": cold["longtasks"],
              "marks_cold": cold["marks"], "isolated": page.evaluate("crossOriginIsolated"),
              "controlled": page.evaluate("Boolean(navigator.serviceWorker && navigator.serviceWorker.controller)")}
    if counter:
        result["bytes_ready"] = counter.bytes
    page.wait_for_selector("html[data-offline=ready], html[data-offline=failed]", timeout=TIMEOUT_MS, state="attached")
    result["offline"] = page.get_attribute("html", "data-offline")
    page.wait_for_timeout(DWELL_S * 1000)
    if counter:
        result["bytes_offline"] = counter.bytes
    warm = _visit(page, url, cold=False)
    result.update({"warm": warm["ready"], "warm_python": warm["python"], "longtasks_warm": warm["longtasks"],
                   "marks_warm": warm["marks"]})
    ctx.close()
    return result


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
            cdp.send("Target.sendMessageToTarget",
                     {"sessionId": sid, "message": json.dumps({"id": number, "method": method})})
        deadline = time.monotonic() + 30  # a worker answers between its tasks
        while sid not in replies and time.monotonic() < deadline:
            page.wait_for_timeout(20)  # lets Playwright deliver the protocol events
        usage = replies.get(sid, {}).get("result", {})
        name = target["url"].rsplit("/", 1)[-1].split("?")[0] or target["type"]
        out.append({"type": target["type"], "name": name, "js_heap": usage.get("usedSize"),
                    "backing_store": usage.get("backingStorageSize")})
        cdp.send("Target.detachFromTarget", {"sessionId": sid})
    cdp.detach()
    return out


def floor_memory(browser, origin: str) -> list[dict]:
    """Heap usage of the floor page once numpy is imported."""
    ctx = browser.new_context()
    page = ctx.new_page()
    page.goto(origin + "/index.html")
    page.wait_for_selector("body[data-floor=ready]", timeout=TIMEOUT_MS, state="attached")
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
    page.wait_for_selector("body[data-runtime=ready]", timeout=TIMEOUT_MS, state="attached")
    out = {"after_boot": heap_usage(browser, page)}
    section = '[data-checkpoint="1"]'
    page.click(f'{section} [data-action="solution"]')
    page.click(f"{section} [data-solution] button")
    for done in range(1, checks_total + 1):
        page.wait_for_selector("body[data-runtime=ready]", timeout=TIMEOUT_MS, state="attached")
        page.click(f'{section} [data-action="check"]')
        _wait_verdict(page, section)
        if done in (20, checks_total):
            page.wait_for_selector("body[data-runtime=ready]", timeout=TIMEOUT_MS, state="attached")
            out[f"after_{done}_checks"] = heap_usage(browser, page)
    ctx.close()
    return out


def _wait_verdict(page, section: str) -> None:
    # CSS only: the page's CSP forbids eval, so no string predicates (wait_for_function) here.
    page.wait_for_selector(f'{section}[data-state="idle"] [data-verdict]:not([data-verdict="running"])',
                           timeout=TIMEOUT_MS, state="attached")


#: Seconds the page is left alone before a settled Check: the spare learner worker has booted and the grader has
#: prepared the next cases, as when a learner reads or edits between Checks.
SETTLE_S = 1.0


def checks(browser, origin: str, rounds: int, *, settled: bool = True) -> dict:
    """Seconds from a click on Check to the verdict (measured in the page), for each checkpoint's reference solution,
    ``rounds`` times. ``settled``: each click once the spare learner worker is ready and ``SETTLE_S`` later (a
    learner between Checks); else each click as soon as the page says ready again, right after the previous
    verdict, while the next spare boots and the grader prepares ahead (the worst pacing)."""
    ctx = browser.new_context()
    ctx.add_init_script(VERDICT_CLOCK)
    page = ctx.new_page()
    page.on("dialog", lambda dialog: dialog.accept())
    page.goto(f"{origin}/lessons/{LESSON}/en.html")
    page.wait_for_selector("body[data-runtime=ready]", timeout=TIMEOUT_MS, state="attached")
    ids = [el.get_attribute("data-checkpoint") for el in page.query_selector_all("[data-checkpoint]")]
    times: dict[str, list[float]] = {cp: [] for cp in ids}
    statuses: dict[str, list[str]] = {cp: [] for cp in ids}
    for cp in ids:
        section = f'[data-checkpoint="{cp}"]'
        page.click(f'{section} [data-action="solution"]')
        page.click(f"{section} [data-solution] button")
    for _ in range(rounds):
        for cp in ids:
            section = f'[data-checkpoint="{cp}"]'
            page.wait_for_selector("body[data-runtime=ready]", timeout=TIMEOUT_MS, state="attached")
            if settled:
                page.wait_for_selector("body[data-spare=ready]", timeout=TIMEOUT_MS, state="attached")
                page.wait_for_timeout(SETTLE_S * 1000)
            page.click(f'{section} [data-action="check"]')  # sets data-state="running" before it returns
            _wait_verdict(page, section)
            clicks = page.evaluate("window.__wbClicks")
            last = clicks[-1]
            times[cp].append((last["end"] - last["start"]) / 1000 if last["end"] is not None else float("nan"))
            statuses[cp].append(page.get_attribute(f"{section} [data-verdict]", "data-verdict"))
    ctx.close()
    return {"times": times, "statuses": statuses}


def stop_once(browser, origin: str, *, block_sw: bool) -> dict:
    """Seconds from a click on Stop (endless loop running) to ``data-runtime="ready"`` again."""
    ctx = browser.new_context(service_workers="block" if block_sw else "allow")
    page = ctx.new_page()
    page.goto(f"{origin}/lessons/{LESSON}/en.html")
    page.wait_for_selector("body[data-runtime=ready][data-spare=ready]", timeout=TIMEOUT_MS, state="attached")
    isolated = page.evaluate("crossOriginIsolated")
    editor = page.locator("[data-playground] .cm-content")
    editor.click()
    editor.fill("while True:\n    pass\n")
    page.click('[data-playground] [data-action="run"]')
    page.wait_for_selector("body[data-runtime=running]", timeout=TIMEOUT_MS, state="attached")
    # measured in the page: from the click event on Stop to data-runtime="ready"
    page.evaluate("""() => { window.__wbStop = {};
        document.querySelector('[data-playground] [data-action="stop"]').addEventListener("click", () => {
            window.__wbStop.start = performance.now();
            new MutationObserver((list, observer) => {
                if (document.body.dataset.runtime === "ready") { window.__wbStop.end = performance.now(); observer.disconnect(); }
            }).observe(document.body, { attributes: true, attributeFilter: ["data-runtime"] });
        }, { capture: true, once: true }); }""")
    page.click('[data-playground] [data-action="stop"]')
    page.wait_for_selector("body[data-runtime=ready]", timeout=TIMEOUT_MS, state="attached")
    clock = page.evaluate("window.__wbStop")
    elapsed = (clock["end"] - clock["start"]) / 1000 if clock.get("end") else float("nan")
    ctx.close()
    return {"seconds": elapsed, "isolated": isolated}


# ------------------------------------------------------------------------------------------------------ report


def summary(values: list[float]) -> dict:
    """p50 / p95 / min / max / n of a list of seconds (rounded to ms)."""
    if not values:
        return {"n": 0}
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, max(0, round(0.95 * (len(ordered) - 1))))]
    return {"n": len(values), "p50": round(statistics.median(ordered), 3), "p95": round(p95, 3),
            "min": round(ordered[0], 3), "max": round(ordered[-1], 3)}


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


GOALS = {  # the goals set as ratios to the floor measured in the same run
    "warm_ready": ("warm boot -> ready", "warm", 0.5),
    "cold_ready": ("cold boot -> ready", "cold", 0.75),
    "warm_python": ("Python usable (warm)", "warm", 0.35),
    "stop_plain": ("Stop -> ready, not isolated", "warm", 0.6),
}


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark; see the module docstring."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=5, help="rounds per variant (default 5)")
    parser.add_argument("--dist", help="an already built site to measure (default: build one into a temp folder)")
    parser.add_argument("--checks", type=int, default=100, help="Checks in the memory run (default 100)")
    parser.add_argument("--out", default=str(HERE / "report.json"))
    parser.add_argument("--only", help="comma-separated parts to run (boot,checks,stop,memory); default all")
    args = parser.parse_args(argv)
    parts = set((args.only or "boot,checks,stop,memory").split(","))
    from playwright.sync_api import sync_playwright

    report: dict = {"machine": machine(), "n": args.n, "lesson": LESSON,
                    "started": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
    with tempfile.TemporaryDirectory(prefix="werkbank-bench-") as tmp:
        tmp = Path(tmp)
        if args.dist:
            site = sitekit.copy_site(Path(args.dist), tmp / "site")
            sitekit.ensure_offline(site)
        else:
            site = sitekit.build_site(tmp / "site", LESSONS)  # the default build: bytecode runtime when possible
        report["runtime"] = "bytecode" if (site / "pyodide" / "bytecode.json").is_file() else "stock"
        floor = make_floor(tmp / "floor")
        counters = {"floor": sitekit.ByteCounter(), "site": sitekit.ByteCounter()}
        floor_r: dict = {"cold": [], "warm": [], "bytes": None, "memory": None}
        site_r: dict = {k: [] for k in ("cold", "warm", "cold_python", "warm_python", "longtasks", "longtasks_warm",
                                         "bytes_ready", "bytes_offline", "isolated", "offline", "marks_cold",
                                         "marks_warm")}
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=sitekit.chromium_path(), headless=True,
                                         args=sitekit.CHROMIUM_ARGS)
            with sitekit.serve(floor, counter=counters["floor"]) as floor_origin, \
                    sitekit.serve(site, counter=counters["site"]) as origin, \
                    sitekit.serve(site, isolated=True) as iso_origin:
                for round_no in range(args.n if "boot" in parts else 0):
                    sequence = ["floor", "site"] if round_no % 2 == 0 else ["site", "floor"]
                    for name in sequence:
                        if name == "floor":
                            cold, warm, sent, mem = floor_once(browser, floor_origin, counters["floor"])
                            floor_r["cold"].append(cold)
                            floor_r["warm"].append(warm)
                            floor_r["bytes"] = floor_r["bytes"] or sent
                            floor_r["memory"] = floor_r["memory"] or mem
                        else:
                            one = site_once(browser, origin, counters["site"])
                            for key in site_r:
                                site_r[key].append(one.get(key))
                    print(f"round {round_no + 1}/{args.n} done", flush=True)
                report["checks"] = checks(browser, iso_origin, args.n if "checks" in parts else 0)
                report["checks_back_to_back"] = checks(browser, iso_origin, args.n if "checks" in parts else 0,
                                                       settled=False)
                stops_iso, stops_plain = [], []
                for round_no in range(max(3, args.n // 2) if "stop" in parts else 0):
                    pair = [True, False] if round_no % 2 == 0 else [False, True]
                    for isolated in pair:
                        one = stop_once(browser, origin, block_sw=not isolated)
                        (stops_iso if isolated else stops_plain).append(one)
                report["stop"] = {"isolated": summary([s["seconds"] for s in stops_iso if s["isolated"]]),
                                  "not_isolated": summary([s["seconds"] for s in stops_plain if not s["isolated"]]),
                                  "raw": {"isolated": stops_iso, "not_isolated": stops_plain}}
                if args.checks and "memory" in parts:
                    report["memory"] = {"site": memory(browser, iso_origin, args.checks),
                                        "floor": floor_memory(browser, floor_origin)}
            browser.close()
    f_cold, f_warm = summary(floor_r["cold"]), summary(floor_r["warm"])
    report["floor"] = {"cold": f_cold, "warm": f_warm, "bytes": floor_r["bytes"],
                       "raw": {"cold": floor_r["cold"], "warm": floor_r["warm"]}}
    r = site_r
    report["site"] = {
        "cold": summary(r["cold"]), "warm": summary(r["warm"]),
        "cold_python": summary(r["cold_python"]), "warm_python": summary(r["warm_python"]),
        "bytes_first_visit_until_ready": int(statistics.median(r["bytes_ready"] or [0])),
        "bytes_first_visit_offline_copy": int(statistics.median(r["bytes_offline"] or [0])),
        "isolated": all(r["isolated"]), "offline": r["offline"],
        "longtasks_cold": r["longtasks"], "longtasks_warm": r["longtasks_warm"],
        "stages_warm": stage_table(r["marks_warm"]), "stages_cold": stage_table(r["marks_cold"]),
        "raw": {k: r[k] for k in ("cold", "warm", "cold_python", "warm_python")},
    }
    for name in ("checks", "checks_back_to_back"):
        all_checks = [t for values in report[name]["times"].values() for t in values]
        report[name]["summary"] = summary(all_checks)
        report[name]["per_checkpoint"] = {cp: summary(v) for cp, v in report[name]["times"].items()}
    try:
        report["machine"]["loadavg_end"] = [round(x, 2) for x in os.getloadavg()]
    except OSError:
        pass
    Path(args.out).write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    print_summary(report)
    print(f"\nwrote {args.out}")
    return 0


def stage_table(marks: list[dict]) -> dict:
    """Median ms from navigation to each werkbank:* performance mark."""
    names = sorted({name for m in marks for name in m})
    return {name: round(statistics.median([m[name] for m in marks if name in m])) for name in names}


def _ratio(value, floor):
    return round(value / floor, 2) if value and floor else None


def print_summary(report: dict) -> None:
    """Every figure beside its goal."""
    f, s = report["floor"], report["site"]
    fw, fc = f["warm"].get("p50") or 0.0, f["cold"].get("p50") or 0.0
    m = report["machine"]
    print(f"\nmachine: {m.get('cpu', '?')} x{m.get('cpus')}, load {m.get('loadavg_start')} -> {m.get('loadavg_end')}; "
          f"runtime {report.get('runtime')}; n={report['n']}")
    print(f"floor (stock Pyodide + numpy, second visit = second navigation): cold p50 {fc:.2f} s, warm p50 {fw:.2f} s")
    print(f"  raw cold {[round(x, 2) for x in f['raw']['cold']]}  warm {[round(x, 2) for x in f['raw']['warm']]}")
    print(f"  raw site cold {[round(x, 2) for x in s['raw']['cold']]}  warm {[round(x, 2) for x in s['raw']['warm']]}")
    rows = [
        ("warm boot -> ready", s["warm"].get("p50"), fw, 0.5),
        ("cold boot -> ready (incl. SW reload)", s["cold"].get("p50"), fc, 0.75),
        ("Python usable, warm", s["warm_python"].get("p50"), fw, 0.35),
        ("Python usable, cold", s["cold_python"].get("p50"), fc, None),
        ("Stop -> ready, not isolated", report["stop"]["not_isolated"].get("p50"), fw, 0.6),
    ]
    print(f"{'measure':<40}{'site':>9}{'floor':>9}{'ratio':>8}{'goal':>8}  met")
    for label, value, floor, goal in rows:
        ratio = _ratio(value, floor)
        met = "" if goal is None or ratio is None else ("yes" if ratio <= goal else "NO")
        print(f"{label:<40}{value or 0:>8.2f}s{floor:>8.2f}s{ratio or 0:>8.2f}{goal or 0:>8.2f}  {met}")
    iso = report["stop"]["isolated"].get("p50")
    print(f"{'Stop -> ready, isolated':<40}{iso or 0:>8.3f}s{'':>9}{'':>8}{'0.100s':>8}  "
          f"{'yes' if iso is not None and iso <= 0.1 else 'NO'}")
    for name, label in (("checks", "click -> verdict p95, settled"), ("checks_back_to_back", "  ... back to back")):
        c = report[name]
        worst = max((v["p95"] for v in c["per_checkpoint"].values() if v.get("n")), default=0)
        print(f"{label:<40}{worst:>8.3f}s{'':>9}{'':>8}{'0.100s':>8}  {'yes' if worst <= 0.1 else 'NO'}")
        for cp, v in c["per_checkpoint"].items():
            print(f"    checkpoint {cp}: p50 {v.get('p50')} s  p95 {v.get('p95')} s  (n={v.get('n')})")
    lt = max((t["max_ms"] for t in s["longtasks_cold"] + s["longtasks_warm"]), default=0)
    print(f"{'longest main-thread task, load -> ready':<40}{lt:>7.0f}ms{'':>9}{'':>8}{'50ms':>8}  "
          f"{'yes' if lt <= 50 else 'NO'}")
    print(f"first visit bytes: {s['bytes_first_visit_until_ready']} until ready, "
          f"{s['bytes_first_visit_offline_copy']} with the offline copy (floor {f['bytes']}); isolated={s['isolated']}")
    print("boot stages, warm (median ms from navigation):", s["stages_warm"])
    mem = report.get("memory")
    if mem:
        def total(rows, key):
            return round(sum((r.get(key) or 0) for r in rows) / 1e6, 1)
        if mem.get("floor"):
            print(f"memory floor after boot: JS heap {total(mem['floor'], 'js_heap')} MB, "
                  f"ArrayBuffers/wasm {total(mem['floor'], 'backing_store')} MB")
        for stage, rows in mem["site"].items():
            print(f"memory site {stage}: JS heap {total(rows, 'js_heap')} MB, ArrayBuffers/wasm "
                  f"{total(rows, 'backing_store')} MB  ({len(rows)} contexts)")


if __name__ == "__main__":
    sys.exit(main())
