"""``make bench``: how fast werkbank boots, grades and stops, measured against a floor, in one Chromium run.

The floor is what no site can beat with this runtime: a bare page whose module worker imports the stock npm
Pyodide 0.27.7 (node_modules/pyodide) and the hash-verified numpy wheel, then runs ``import numpy``. Nothing else:
no editor, no grading engine, no service worker.

Measured, alternating the variants in every round (A/B, then B/A) with ``--n`` rounds (default 5):

- floor cold / warm: fresh browser context -> numpy imported; the same again after a reload in that context;
- site cold / warm (plain static host, so cold includes the service worker's one isolation reload): a lesson page
  in a fresh context -> ``<body data-runtime="ready">`` (Pyodide, numpy and the grading engine loaded); warm is the
  next visit once the service worker has saved the whole build;
- the same for a bytecode build of the runtime (``--no-bytecode`` skips it) when a Python 3.12 is available;
- click -> verdict for every checkpoint of the lesson (reference solution, after boot): p50 and p95;
- Stop -> ready for an endless loop, isolated (interrupt through SharedArrayBuffer) and not (service workers
  blocked on a plain host: the worker is replaced and Python boots again);
- bytes on the first visit (body bytes the server sent) until ready and until the offline copy is complete;
- main-thread long tasks (PerformanceObserver "longtask") on the lesson page from load to ready.

Prints a summary with the ratios to the floor and writes tests/bench/report.json (git-ignored).
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


def floor_once(browser, origin: str, counter: sitekit.ByteCounter) -> tuple[float, float, int]:
    """(cold, warm) seconds from navigation to numpy imported, and the body bytes of the cold visit."""
    ctx = browser.new_context()
    page = ctx.new_page()
    out = []
    counter.reset()
    for _ in range(2):
        if out:
            cold_bytes = counter.bytes
        start = sitekit.now()
        if out:
            page.reload()
        else:
            page.goto(origin + "/index.html")
        page.wait_for_selector("body[data-floor=ready]", timeout=TIMEOUT_MS, state="attached")
        out.append(sitekit.now() - start)
    ctx.close()
    return out[0], out[1], cold_bytes


def site_once(browser, origin: str, counter: sitekit.ByteCounter | None = None) -> dict:
    """Cold and warm boot of the lesson page; bytes and long tasks of the cold visit."""
    ctx = browser.new_context()
    ctx.add_init_script(LONGTASK_SCRIPT)
    page = ctx.new_page()
    if counter:
        counter.reset()
    start = sitekit.now()
    page.goto(f"{origin}/lessons/{LESSON}/en.html")
    page.wait_for_selector("body[data-runtime=ready]", timeout=TIMEOUT_MS, state="attached")
    cold = sitekit.now() - start
    result = {"cold": cold, "isolated": page.evaluate("crossOriginIsolated"),
              "controlled": page.evaluate("Boolean(navigator.serviceWorker && navigator.serviceWorker.controller)")}
    tasks = page.evaluate("window.__wbLongTasks || []")
    result["longtasks"] = {"count": len(tasks), "total_ms": round(sum(d for _, d in tasks), 1),
                           "max_ms": round(max((d for _, d in tasks), default=0.0), 1)}
    if counter:
        result["bytes_ready"] = counter.bytes
    page.wait_for_selector("html[data-offline=ready], html[data-offline=failed]", timeout=TIMEOUT_MS, state="attached")
    result["offline"] = page.get_attribute("html", "data-offline")
    if counter:
        result["bytes_offline"] = counter.bytes
    start = sitekit.now()
    page.reload()
    page.wait_for_selector("body[data-runtime=ready]", timeout=TIMEOUT_MS, state="attached")
    result["warm"] = sitekit.now() - start
    ctx.close()
    return result


def _wait_verdict(page, section: str) -> None:
    # CSS only: the page's CSP forbids eval, so no string predicates (wait_for_function) here.
    page.wait_for_selector(f'{section}[data-state="idle"] [data-verdict]:not([data-verdict="running"])',
                           timeout=TIMEOUT_MS, state="attached")


def checks(browser, origin: str, rounds: int) -> dict:
    """Seconds from a click on Check to the verdict, for each checkpoint's reference solution, ``rounds`` times."""
    ctx = browser.new_context()
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
            start = sitekit.now()
            page.click(f'{section} [data-action="check"]')  # sets data-state="running" before it returns
            _wait_verdict(page, section)
            times[cp].append(sitekit.now() - start)
            statuses[cp].append(page.get_attribute(f"{section} [data-verdict]", "data-verdict"))
    ctx.close()
    return {"times": times, "statuses": statuses}


def stop_once(browser, origin: str, *, block_sw: bool) -> dict:
    """Seconds from a click on Stop (endless loop running) to ``data-runtime="ready"`` again."""
    ctx = browser.new_context(service_workers="block" if block_sw else "allow")
    page = ctx.new_page()
    page.goto(f"{origin}/lessons/{LESSON}/en.html")
    page.wait_for_selector("body[data-runtime=ready]", timeout=TIMEOUT_MS, state="attached")
    isolated = page.evaluate("crossOriginIsolated")
    editor = page.locator("[data-playground] .cm-content")
    editor.click()
    editor.fill("while True:\n    pass\n")
    page.click('[data-playground] [data-action="run"]')
    page.wait_for_selector("body[data-runtime=running]", timeout=TIMEOUT_MS, state="attached")
    time.sleep(0.5)
    start = sitekit.now()
    page.click('[data-playground] [data-action="stop"]')
    page.wait_for_selector("body[data-runtime=ready]", timeout=TIMEOUT_MS, state="attached")
    elapsed = sitekit.now() - start
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


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark; see the module docstring."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=5, help="rounds per variant (default 5)")
    parser.add_argument("--dist", help="an already built site to measure (default: build one into a temp folder)")
    parser.add_argument("--no-bytecode", action="store_true", help="skip the bytecode variant")
    parser.add_argument("--out", default=str(HERE / "report.json"))
    args = parser.parse_args(argv)
    from playwright.sync_api import sync_playwright

    from werkbank import bytecode, offline

    report: dict = {"machine": machine(), "n": args.n, "lesson": LESSON, "started": time.strftime("%Y-%m-%dT%H:%M:%SZ",
                                                                                                  time.gmtime())}
    with tempfile.TemporaryDirectory(prefix="werkbank-bench-") as tmp:
        tmp = Path(tmp)
        if args.dist:
            stock = sitekit.copy_site(Path(args.dist), tmp / "stock")
            sitekit.ensure_offline(stock)
        else:
            stock = sitekit.build_site(tmp / "stock", LESSONS)
        variants = {"site": stock}
        if not args.no_bytecode:
            bc = sitekit.copy_site(stock, tmp / "bytecode")
            compiled = bytecode.compile_runtime(bc)
            report["bytecode_build"] = {k: v for k, v in compiled.items() if k != "files"}
            report["bytecode_build"]["files"] = {n: {"before": f["before"], "after": f["after"], "compiled": f["compiled"]}
                                           for n, f in compiled["files"].items()}
            if compiled["python"]:
                offline.finish(bc)
                variants["bytecode"] = bc
        floor = make_floor(tmp / "floor")
        counters = {name: sitekit.ByteCounter() for name in ["floor", *variants]}
        results: dict = {"floor": {"cold": [], "warm": []}}
        for name in variants:
            results[name] = {"cold": [], "warm": [], "longtasks": [], "bytes_ready": [], "bytes_offline": [],
                             "isolated": [], "offline": []}
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=sitekit.chromium_path(), headless=True,
                                         args=sitekit.CHROMIUM_ARGS)
            if "bytecode" in variants:
                report["bytecode_build"]["probe"] = {
                    "stock": probe_runtime(browser, make_floor(tmp / "probe-stock", stock / "pyodide")),
                    "bytecode": probe_runtime(browser, make_floor(tmp / "probe-bc", variants["bytecode"] / "pyodide")),
                }
            with sitekit.serve(floor, counter=counters["floor"]) as floor_origin:
                origins = {}
                stack = []
                for name, folder in variants.items():
                    ctx = sitekit.serve(folder, counter=counters[name])
                    origins[name] = ctx.__enter__()
                    stack.append(ctx)
                try:
                    order = ["floor", *variants]
                    for round_no in range(args.n):
                        sequence = order if round_no % 2 == 0 else list(reversed(order))
                        for name in sequence:
                            if name == "floor":
                                cold, warm, sent = floor_once(browser, floor_origin, counters["floor"])
                                results["floor"]["cold"].append(cold)
                                results["floor"]["warm"].append(warm)
                                results["floor"].setdefault("bytes", sent)
                            else:
                                one = site_once(browser, origins[name], counters[name])
                                for key in ("cold", "warm", "longtasks", "bytes_ready", "bytes_offline", "isolated",
                                            "offline"):
                                    results[name][key].append(one.get(key))
                        print(f"round {round_no + 1}/{args.n} done", flush=True)
                    report["checks"] = checks(browser, origins["site"], args.n)
                    stops_iso, stops_plain = [], []
                    for round_no in range(max(3, args.n // 2)):
                        pair = [True, False] if round_no % 2 == 0 else [False, True]
                        for isolated in pair:
                            one = stop_once(browser, origins["site"], block_sw=not isolated)
                            (stops_iso if isolated else stops_plain).append(one)
                    report["stop"] = {"isolated": summary([s["seconds"] for s in stops_iso if s["isolated"]]),
                                      "not_isolated": summary([s["seconds"] for s in stops_plain if not s["isolated"]]),
                                      "raw": {"isolated": stops_iso, "not_isolated": stops_plain}}
                finally:
                    for ctx in stack:
                        ctx.__exit__(None, None, None)
            browser.close()
    floor_cold = summary(results["floor"]["cold"])
    floor_warm = summary(results["floor"]["warm"])
    report["floor"] = {"cold": floor_cold, "warm": floor_warm, "bytes": results["floor"].get("bytes"),
                       "raw": results["floor"]}
    for name in variants:
        r = results[name]
        cold, warm = summary(r["cold"]), summary(r["warm"])
        report[name] = {
            "cold": cold, "warm": warm,
            "cold_over_floor": round(cold["p50"] / floor_cold["p50"], 2),
            "warm_over_floor": round(warm["p50"] / floor_warm["p50"], 2),
            "bytes_first_visit_until_ready": int(statistics.median(r["bytes_ready"])),
            "bytes_first_visit_offline_copy": int(statistics.median(r["bytes_offline"])),
            "isolated": all(r["isolated"]), "offline": r["offline"],
            "longtasks_cold": r["longtasks"], "raw": {"cold": r["cold"], "warm": r["warm"]},
        }
    all_checks = [t for values in report["checks"]["times"].values() for t in values]
    report["checks"]["summary"] = summary(all_checks)
    report["checks"]["per_checkpoint"] = {cp: summary(v) for cp, v in report["checks"]["times"].items()}
    try:
        report["machine"]["loadavg_end"] = [round(x, 2) for x in os.getloadavg()]
    except OSError:
        pass
    Path(args.out).write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    print_summary(report)
    print(f"\nwrote {args.out}")
    return 0


def print_summary(report: dict) -> None:
    """A short human-readable table of the report."""
    f = report["floor"]
    print(f"\nmachine: {report['machine'].get('cpu', '?')} x{report['machine'].get('cpus')}, "
          f"load {report['machine'].get('loadavg_start')} -> {report['machine'].get('loadavg_end')}")
    print(f"floor (stock Pyodide + numpy):   cold p50 {f['cold']['p50']:.2f} s   warm p50 {f['warm']['p50']:.2f} s   "
          f"bytes {f['bytes']}")
    for name in ("site", "bytecode"):
        if name not in report:
            continue
        r = report[name]
        print(f"{name:<8} boot to ready:          cold p50 {r['cold']['p50']:.2f} s (x{r['cold_over_floor']})   "
              f"warm p50 {r['warm']['p50']:.2f} s (x{r['warm_over_floor']})   p95 {r['cold']['p95']:.2f} / "
              f"{r['warm']['p95']:.2f} s")
        print(f"         first visit bytes: {r['bytes_first_visit_until_ready']} until ready, "
              f"{r['bytes_first_visit_offline_copy']} with the offline copy; isolated={r['isolated']}")
    probe = report.get("bytecode_build", {}).get("probe")
    if probe:
        for name, result in probe.items():
            text = result.get("probe") or result.get("error", "")
            frames = [line.strip() for line in text.splitlines() if line.strip().startswith("File ")]
            print(f"numpy traceback probe ({name}): ok={result.get('ok')}, last frame: {frames[-1] if frames else '-'}")
    c = report["checks"]["summary"]
    print(f"click -> verdict (all checkpoints): p50 {c['p50']:.2f} s  p95 {c['p95']:.2f} s  (n={c['n']})")
    s = report["stop"]
    print(f"Stop -> ready: isolated p50 {s['isolated'].get('p50')} s, not isolated p50 {s['not_isolated'].get('p50')} s")


if __name__ == "__main__":
    sys.exit(main())
