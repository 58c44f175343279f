"""The learner workers' host in the browser (untrusted): run learner code. :func:`run` is the host interface of
:mod:`graders.hosts` (a plan in, the run result out, as data); :func:`run_encoded`, the worker's entry point, is the
same with the plan and the result as UTF-8 JSON bytes.

A learner worker never holds grading data: the plan of a Check carries the inputs of its cases only, and the run
result goes back to the page as JSON text, which the grader worker (:mod:`graders.hosts.pyodide_grader`, its own
interpreter that never runs learner code) judges as untrusted data.
"""

from __future__ import annotations

import gc
import json

from graders.engine import runner, values
from graders.engine.settings import FALLBACK_LANGUAGE


def run(source: str, plan: dict, *, on_output=None) -> dict:
    """Run learner code under a plan (``{"mode": "run"}`` or a prepared ``plan``) in this interpreter; returns the
    run result. The host interface of :mod:`graders.hosts`."""
    return runner.run(source, plan, on_output)


# A run's early reports are encoded while learner code is loaded: by the engine's own C encoder, bound here before any
# learner code exists (json.dumps looks up the json module's default encoder at call time, which learner code can swap).
_dumps = runner._json_dumps


def keep_plan(plan_utf8) -> dict:
    """A Check's plan (UTF-8 JSON bytes, or a JsProxy of a Uint8Array) parsed now, while this worker waits in the pool
    for a job (the page's KEEP): :func:`run_encoded` runs the object this returns as it runs the bytes, without
    parsing ~10^5 objects' worth of JSON inside the learner's click. Everything the interpreter holds then (the plan,
    the engine, numpy) is frozen (``gc.freeze()``), so the collections a run's own objects set off never walk it: a
    worker that keeps plans runs one job, so nothing frozen needs collecting later (a long-lived interpreter that runs
    many, as ``werkbank check``'s, runs plans as bytes and freezes nothing)."""
    if hasattr(plan_utf8, "to_bytes"):
        plan_utf8 = plan_utf8.to_bytes()
    plan = values.parse_json(bytes(plan_utf8))
    gc.freeze()
    return plan


def run_encoded(source: str, plan_utf8, on_output=None, on_partial=None) -> bytes:
    """The learner worker's entry point: :func:`run` with the plan and the run result as UTF-8 JSON bytes. The worker
    hands the plan over as a Uint8Array (a JsProxy here: ``to_bytes()`` is one copy), or as the plan
    :func:`keep_plan` parsed earlier, and decodes the result with TextDecoder: a long ``str`` crosses between
    JavaScript and Python a character at a time, which costs a fresh worker tens of milliseconds for the few hundred
    kilobytes of a Check's plan and result. When the code stopped with an exception, ``python_error`` explains it in
    the plan's ``lang`` (for Run; a Check's verdict explains it itself). ``on_partial`` (a Check): called with a part
    of the run as UTF-8 JSON bytes (``{"status": "ok", "outcomes": [...]}``, the cases since the last part, see
    :data:`graders.engine.runner.PROGRESS_AT`) while the other cases still run, so that the page can show a failure
    early; the result remains the one that counts."""
    if isinstance(plan_utf8, dict):
        plan = plan_utf8
    else:
        if hasattr(plan_utf8, "to_bytes"):
            plan_utf8 = plan_utf8.to_bytes()
        plan = values.parse_json(bytes(plan_utf8))
    progress = None
    if on_partial is not None:

        def progress(outcomes):
            on_partial(_dumps({"status": "ok", "outcomes": outcomes}).encode("ascii"))

    result = runner.run(source, plan, on_output, progress)
    exception = result.get("exception")
    if exception:
        from graders.engine.judge import explain_error

        result["python_error"] = explain_error(
            exception["exc"],
            exception["builtin_mro"],
            exception["message"],
            result.get("error_line"),
            str(plan.get("lang", FALLBACK_LANGUAGE)),
            in_case=False,
        )
    return runner.result_json(result)


def speed() -> float:
    """Milliseconds this interpreter takes for a fixed piece of plain Python (building and reading a dict of small
    lists, as a Check's engine does), the shortest of three tries. The page scales a job's time limit by it, so code
    that finishes in time on one engine or machine is not stopped on a slower one (WebKit runs Python several times
    slower than Chromium). Called once a worker has booted, before any learner code exists."""
    import time

    best = None
    for _ in range(3):
        start = time.perf_counter()
        table = {}
        for i in range(6000):
            table[str(i)] = [i, i * 0.5, (i, "x")]
        sum(len(v) for v in table.values())
        took = (time.perf_counter() - start) * 1000
        best = took if best is None else min(best, took)
    return best


async def install_requirements(lesson_json: str, base_url: str) -> str:
    """Install the lesson's vendored pure-Python wheels with micropip, offline. ``lesson_json`` holds
    ``{"requirements": [{"name", "file"}, ...]}`` (a lesson's bundle or just that list). Returns the installed names."""
    bundle = json.loads(lesson_json)
    requirements = bundle.get("requirements") or []
    if not requirements:
        return "[]"
    import micropip  # loaded by the worker with pyodide.loadPackage("micropip")

    urls = [base_url.rstrip("/") + "/" + item["file"] for item in requirements]
    await micropip.install(urls, deps=False)
    return json.dumps([item["name"] for item in requirements])
