"""Shared helpers for the browser tests: the page helpers of :mod:`learner` (open a lesson, selectors, typing,
verdicts, storage; one definition of the page's hooks) plus what the runtime tests need on top: waits on
``data-python`` and on a running job, Run and Check in one call, a wait on the stored progress, and
:func:`drive_workers`, which speaks the worker protocol to the site's learner and grader workers directly.

Waits are on state, never on fixed sleeps.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from tests.browser.learner import (  # re-exported: the browser tests import the learner's actions from here
    ARABIC_LESSON,
    DONE,
    KEY,
    LESSON,
    click,
    editor,
    editor_text,
    open_lesson,
    passed_ids,
    poll,
    put_solution,
    replace_code,
    section,
    selector,
    stored,
    wait_editors,
    wait_for,
    wait_idle,
    wait_ready,
    wait_verdict,
)

REPO_ROOT = Path(__file__).resolve().parents[2]


def wait_python(page, timeout=120_000):
    """Wait for ``body[data-python="ready"]``: code that does not import numpy can run."""
    page.wait_for_selector('body[data-python="ready"]', timeout=timeout)


def wait_running(page, cp="try"):
    """Wait until learner code of ``cp`` is running (the page shows ``data-runtime="running"``)."""
    wait_for(page, f'body[data-runtime="running"] {selector(cp)}[data-state="running"]')


def run(page, cp, code):
    """Run ``code`` in editor ``cp``; wait until it ended; return (verdict state, verdict text, output text)."""
    replace_code(page, cp, code)
    click(page, cp, "run")
    wait_idle(page, cp)
    box = section(page, cp).locator("[data-verdict]")
    return box.get_attribute("data-verdict"), box.inner_text(), section(page, cp).locator("[data-output]").inner_text()


def check(page, code, cp="1"):
    """Check ``code`` in checkpoint ``cp``; return (state, verdict text, output text, stopped attribute)."""
    replace_code(page, cp, code)
    click(page, cp, "check")
    state, text = wait_verdict(page, cp, ("pass", "fail", "error", "timeout", "idle"))
    box = section(page, cp).locator("[data-verdict]")
    return state, text, section(page, cp).locator("[data-output]").inner_text(), box.get_attribute("data-stopped")


def wait_stored(page, predicate_js, timeout=30.0):
    """Wait until the stored progress document satisfies ``predicate_js`` (a JS function of the parsed document)."""
    return poll(
        page,
        f"""() => {{ const raw = localStorage.getItem({json.dumps(KEY)});
        return ({predicate_js})(raw ? JSON.parse(raw) : null); }}""",
        timeout=timeout,
    )


# ---------------------------------------------------------------- the site's workers, message by message

_DRIVER = """async ({ base, schema, jobs, keep }) => {
    const made = (globalThis.__werkbankWorkers ||= {});
    const errors = [];
    const get = (role) => {
        if (!made[role]) {
            made[role] = new Worker(base + (role === "grader" ? "grader_worker.js" : "worker.js"), { type: "module" });
            made[role].onerror = (event) => errors.push(String(event.message));
        }
        return made[role];
    };
    const ask = (worker, message, finals, timeoutMs) => new Promise((resolve) => {
        const seen = [];
        const runId = Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");
        let timer = null;
        const listener = (event) => {
            const data = event.data;
            if (!data || data.runId !== runId) return;
            seen.push(data);
            if (finals.includes(data.type)) {
                worker.removeEventListener("message", listener);
                clearTimeout(timer);
                resolve(seen);
            }
        };
        worker.addEventListener("message", listener);
        const giveUp = () => resolve([...seen, { type: `no answer in ${timeoutMs} ms` }]);
        if (timeoutMs) timer = setTimeout(giveUp, timeoutMs);
        // runtimeBytes: a WebAssembly.Module made here from them goes as `runtime` (JSON cannot carry one)
        const { runtimeBytes, ...rest } = message;
        const extra = runtimeBytes ? { runtime: new WebAssembly.Module(new Uint8Array(runtimeBytes)) } : {};
        worker.postMessage({ ...rest, ...extra, schema, runId });
    });
    const out = [];
    for (const job of jobs) {
        if (job.message.type === "init" && made[job.to]) { made[job.to].terminate(); delete made[job.to]; }
        out.push(await ask(get(job.to), job.message, job.finals, job.timeoutMs || 0));
    }
    if (!keep) {
        for (const role of Object.keys(made)) { made[role].terminate(); delete made[role]; }
    }
    return { replies: out, errors };
}"""


def pool_depth() -> int:
    """POOL_DEPTH of web/src/runtime.js: how many pristine learner workers a page keeps (this machine reports more
    than 2 GiB of memory, so the page keeps that many)."""
    source = (REPO_ROOT / "web" / "src" / "runtime.js").read_text()
    return int(re.search(r"^export const POOL_DEPTH = (\d+);$", source, re.M).group(1))


def protocol_schema(repo_root=REPO_ROOT) -> int:
    """The SCHEMA constant of web/src/protocol.js, so a bump there cannot silently break a test."""
    import re

    text = (Path(repo_root) / "web" / "src" / "protocol.js").read_text(encoding="utf-8")
    return int(re.search(r"export const SCHEMA = (\d+);", text).group(1))


def drive_workers(page, server, repo_root, jobs, keep=True):
    """Send each job's message (``{"to": "learner"|"grader", "message", "finals"}``) to the site's worker of that
    role on ``page`` (started on first use or anew for an ``init``, kept between calls while ``keep``); return the
    replies of each job. A job's ``timeoutMs`` ends its wait with a last reply ``{"type": "no answer in N ms"}``; a
    message's ``runtimeBytes`` is sent as ``runtime``, a WebAssembly.Module compiled from those bytes."""
    arg = {"base": server.origin + "/assets/", "schema": protocol_schema(repo_root), "jobs": jobs, "keep": keep}
    result = page.evaluate(_DRIVER, arg)
    assert result["errors"] == [], result["errors"]
    return result["replies"]


def final(replies):
    """The last reply of a job, failing with the worker's message when it is a failure."""
    last = replies[-1]
    assert last["type"] != "failure", last.get("message")
    return last


def site_verdict(page, server, repo_root, where, plan, source):
    """The verdict the site's own workers give ``source``: the learner worker runs it under ``plan`` (a prepared
    Check's), the grader judges that run for ``where`` ({lessonId, checkpoint, lang})."""
    (ran,) = drive_workers(
        page,
        server,
        repo_root,
        [
            {
                "to": "learner",
                "message": {"type": "run", "source": source, "plan": plan, "timeLimit": 30},
                "finals": ["result", "failure"],
            }
        ],
    )
    (judged,) = drive_workers(
        page,
        server,
        repo_root,
        [
            {
                "to": "grader",
                "message": {"type": "judge", **where, "runJson": final(ran)["runJson"]},
                "finals": ["verdict", "failure"],
            }
        ],
    )
    return final(judged)["verdict"]
