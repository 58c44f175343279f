"""Shared helpers for the browser tests: open a lesson page, wait on its state, type code, press buttons, read verdicts.

Waits are on state (``body[data-runtime]``, ``body[data-python]``, a section's ``data-state``, a verdict), never on
fixed sleeps. The pages' CSP forbids eval, which Playwright's string predicates (``wait_for_function``) need, so
:func:`poll` evaluates a function repeatedly instead.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

LESSON = "claims-abstention"
ARABIC_LESSON = "perplexity-calibration"
KEY = "werkbank:progress"
REPO_ROOT = Path(__file__).resolve().parents[2]


def poll(page, fn, arg=None, timeout=120.0):
    """Evaluate the JS function ``fn`` (source text) until it returns something truthy; return that."""
    deadline = time.monotonic() + timeout
    while True:
        value = page.evaluate(fn, arg)
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {fn}")
        page.wait_for_timeout(50)


def open_lesson(page, server, lang="en", lesson=LESSON, ready=True):
    """Go to a lesson page; with ``ready``, wait until everything a Check needs is loaded."""
    page.goto(f"{server.url}lessons/{lesson}/{lang}.html")
    if ready:
        wait_ready(page)


def wait_ready(page, timeout=120_000):
    """Wait for ``body[data-runtime="ready"]``: a Check would start at once."""
    page.wait_for_selector('body[data-runtime="ready"]', timeout=timeout)


def wait_python(page, timeout=120_000):
    """Wait for ``body[data-python="ready"]``: code that does not import numpy can run."""
    page.wait_for_selector('body[data-python="ready"]', timeout=timeout)


def section(page, cp):
    """The checkpoint section ``cp`` (or the free editor for ``"try"``)."""
    return page.locator(f'[data-checkpoint="{cp}"]') if cp != "try" else page.locator("[data-playground]")


def selector(cp):
    return f'[data-checkpoint="{cp}"]' if cp != "try" else "[data-playground]"


def editor(page, cp):
    return section(page, cp).locator(".cm-content")


def replace_code(page, cp, code):
    """Select everything in the editor and put ``code`` there as if pasted (no auto-indent)."""
    editor(page, cp).click()
    page.keyboard.press("Control+a")
    page.keyboard.press("Delete")
    page.keyboard.insert_text(code)


def editor_text(page, cp):
    return section(page, cp).locator(".cm-content").evaluate(
        "el => Array.from(el.querySelectorAll('.cm-line')).map(l => l.textContent).join('\\n')")


def wait_verdict(page, cp, states=("pass", "fail", "error", "timeout")):
    """Wait until the verdict of ``cp`` is one of ``states`` and no run is going on; return (state, text)."""
    poll(page, """([sel, states]) => {
            const s = document.querySelector(sel);
            return s.dataset.state !== 'running' && states.includes(s.querySelector('[data-verdict]').dataset.verdict);
        }""", [selector(cp), list(states)])
    box = section(page, cp).locator("[data-verdict]")
    return box.get_attribute("data-verdict"), box.inner_text()


def wait_idle(page, cp):
    """Wait until section ``cp`` runs nothing."""
    poll(page, "sel => document.querySelector(sel).dataset.state === 'idle'", selector(cp))


def wait_running(page, cp="try"):
    """Wait until learner code of ``cp`` is running (the page shows ``data-runtime="running"``)."""
    poll(page, "sel => document.querySelector(sel).dataset.state === 'running' && "
               "document.body.dataset.runtime === 'running'", selector(cp))


def run(page, cp, code):
    """Run ``code`` in editor ``cp``; wait until it ended; return (verdict state, verdict text, output text)."""
    replace_code(page, cp, code)
    section(page, cp).locator('[data-action="run"]').click()
    wait_idle(page, cp)
    box = section(page, cp).locator("[data-verdict]")
    return box.get_attribute("data-verdict"), box.inner_text(), section(page, cp).locator("[data-output]").inner_text()


def check(page, code, cp="1"):
    """Check ``code`` in checkpoint ``cp``; return (state, verdict text, output text, stopped attribute)."""
    replace_code(page, cp, code)
    section(page, cp).locator('[data-action="check"]').click()
    state, text = wait_verdict(page, cp, ("pass", "fail", "error", "timeout", "idle"))
    box = section(page, cp).locator("[data-verdict]")
    return state, text, section(page, cp).locator("[data-output]").inner_text(), box.get_attribute("data-stopped")


def put_solution(page, cp):
    """Reveal the reference solution (confirming the dialog) and copy it into the editor."""
    page.once("dialog", lambda d: d.accept())
    section(page, cp).locator('[data-action="solution"]').click()
    section(page, cp).locator("[data-solution] button").click()


def stored(page):
    raw = page.evaluate(f"localStorage.getItem({json.dumps(KEY)})")
    return json.loads(raw) if raw else None


def passed_ids(doc, lesson=LESSON):
    cps = (doc or {}).get("lessons", {}).get(lesson, {}).get("checkpoints", {})
    return sorted(cp for cp, rec in cps.items() if rec.get("passedAt"))


def wait_stored(page, predicate_js, timeout=30.0):
    """Wait until the stored progress document satisfies ``predicate_js`` (a JS function of the parsed document)."""
    return poll(page, f"""() => {{ const raw = localStorage.getItem({json.dumps(KEY)});
        return ({predicate_js})(raw ? JSON.parse(raw) : null); }}""", timeout=timeout)


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
    const ask = (worker, message, finals) => new Promise((resolve) => {
        const seen = [];
        const runId = Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");
        const listener = (event) => {
            const data = event.data;
            if (!data || data.runId !== runId) return;
            seen.push(data);
            if (finals.includes(data.type)) {
                worker.removeEventListener("message", listener);
                resolve(seen);
            }
        };
        worker.addEventListener("message", listener);
        worker.postMessage({ ...message, schema, runId });
    });
    const out = [];
    for (const job of jobs) {
        if (job.message.type === "init" && made[job.to]) { made[job.to].terminate(); delete made[job.to]; }
        out.push(await ask(get(job.to), job.message, job.finals));
    }
    if (!keep) {
        for (const role of Object.keys(made)) { made[role].terminate(); delete made[role]; }
    }
    return { replies: out, errors };
}"""


def protocol_schema(repo_root=REPO_ROOT) -> int:
    """The SCHEMA constant of web/src/protocol.js, so a bump there cannot silently break a test."""
    import re

    text = (Path(repo_root) / "web" / "src" / "protocol.js").read_text(encoding="utf-8")
    return int(re.search(r"export const SCHEMA = (\d+);", text).group(1))


def drive_workers(page, server, repo_root, jobs, keep=True):
    """Send each job's message (``{"to": "learner"|"grader", "message", "finals"}``) to the site's worker of that
    role on ``page`` (started on first use or anew for an ``init``, kept between calls while ``keep``); return the
    replies of each job."""
    arg = {"base": server.origin + "/assets/", "schema": protocol_schema(repo_root), "jobs": jobs, "keep": keep}
    result = page.evaluate(_DRIVER, arg)
    assert result["errors"] == [], result["errors"]
    return result["replies"]


def final(replies):
    """The last reply of a job, failing with the worker's message when it is a failure."""
    last = replies[-1]
    assert last["type"] != "failure", last.get("message")
    return last
