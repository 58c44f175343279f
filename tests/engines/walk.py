"""A learner's walk through a lesson, in any engine (a :class:`tests.engines.drivers.Driver`), step by step.

Each step waits on the page's state (``data-runtime``, ``data-verdict``, storage), never on fixed sleeps, and fails
with the engine's name and what the page showed. :class:`Walk` records how long each step took (wall time), so the
tests can print where an engine spends its time. One page is booted and reused for as many steps as it can serve.
"""

from __future__ import annotations

import re
import time
from contextlib import contextmanager

from werkbank.lessons import load_lesson

LESSON = "claims-abstention"
ARABIC_LESSON = "perplexity-calibration"
PROGRESS_KEY = "werkbank:progress"
BOOT_S = 300.0  # a cold visit in WebKit on a loaded 2-core machine took up to ~70 s
CHECK_S = 180.0

_READY = (
    "() => Boolean(document.body) && (document.body.dataset.runtime === 'failed' ? "
    "'failed: ' + (document.querySelector('.runtime-status') || document.body).textContent.trim() : "
    "document.body.dataset.runtime === 'ready' && document.body.dataset.editors === 'ready')"
)
#: Marks a section so that the next change of its verdict or state is seen (a wait must not take the verdict that
#: was already there for the new one).
_WATCH = """(sel) => {
    const s = document.querySelector(sel);
    s.__walkChanged = false;
    const observer = new MutationObserver(() => { s.__walkChanged = true; observer.disconnect(); });
    observer.observe(s, { attributes: true, subtree: true, attributeFilter: ['data-verdict', 'data-state'] });
}"""
_IDLE_VERDICT = """(sel) => {
    const s = document.querySelector(sel);
    const box = s && s.querySelector('[data-verdict]');
    return Boolean(box) && s.__walkChanged === true && s.dataset.state === 'idle'
        && !['idle', 'running'].includes(box.dataset.verdict);
}"""
_COUNTS = re.compile(r"(\d+)\s*/\s*(\d+)")


def checkpoint(cp) -> str:
    return f'[data-checkpoint="{cp}"]'


class Walk:
    """A driver plus the steps taken with it and their wall times."""

    def __init__(self, driver) -> None:
        self.d = driver
        self.steps: list[tuple[str, float]] = []

    @contextmanager
    def step(self, name: str):
        start = time.monotonic()
        try:
            yield
        finally:
            self.steps.append((name, time.monotonic() - start))

    def report(self) -> str:
        total = sum(s for _, s in self.steps)
        return (
            f"{self.d.engine} {self.d.version}: {total:.1f} s ("
            + ", ".join(f"{name} {secs:.1f}" for name, secs in self.steps)
            + ")"
        )

    # ------------------------------------------------------------------ page actions

    def open(self, url: str) -> None:
        """Go to ``url`` and wait until a Check could start and every editor is built."""
        self.d.goto(url)
        self.wait_ready()

    def wait_ready(self) -> None:
        """Wait until the page is ready; a runtime that failed to load fails at once, with the page's own words."""
        state = self.d.wait(_READY, timeout=BOOT_S, what='body[data-runtime="ready"][data-editors="ready"]')
        assert state is True, f"{self.d.engine}: {state}"

    def set_code(self, cp, code: str) -> None:
        self.d.set_code(f"{checkpoint(cp) if cp != 'try' else '[data-playground]'} [data-editor] .cm-content", code)

    def check(self, cp) -> tuple[str, str]:
        """Click Check of ``cp``; wait for the verdict; (data-verdict, the verdict's text)."""
        sel = checkpoint(cp)
        self.d.evaluate(_WATCH, sel)
        self.d.press_button(f'{sel} [data-action="check"]')
        self.d.wait(_IDLE_VERDICT, sel, timeout=CHECK_S, what=f"the verdict of checkpoint {cp}")
        return self.d.attr(f"{sel} [data-verdict]", "data-verdict"), self.d.text(f"{sel} [data-verdict]") or ""

    def expect(self, cp, want: str, what: str) -> tuple[int, int]:
        """Check ``cp`` and assert the verdict is ``want``; the (passed, total) counts its headline shows."""
        state, text = self.check(cp)
        assert state == want, f"{self.d.engine}: {what}: checkpoint {cp} got {state!r}, not {want!r}: {text[:600]}"
        found = _COUNTS.search(text)
        assert found, f"{self.d.engine}: {what}: no case counts in the verdict: {text[:300]}"
        passed, total = int(found.group(1)), int(found.group(2))
        assert total > 0 and (passed == total) == (want == "pass"), f"{self.d.engine}: {what}: counts {passed}/{total}"
        return passed, total

    def stored(self):
        return self.d.evaluate("(key) => JSON.parse(localStorage.getItem(key) || 'null')", PROGRESS_KEY)


def logged_walk(driver, label: str, walk_fn, server, walk_log) -> dict:
    """``walk_fn(Walk(driver), server)``, its step times logged under ``label`` whether it passes or fails (see
    ``walk_log`` in tests/engines/conftest.py); returns what the engine showed."""
    walk = Walk(driver)
    seen: dict = {}
    try:
        seen = walk_fn(walk, server)
    finally:
        walk_log(f"{label}, {walk.report()}; {seen}")
    return seen


def sources(lesson_id: str, lang: str = "en") -> dict[str, tuple[str, str]]:
    """{checkpoint id: (starter, reference solution)} of a lesson."""
    return {cp.id: (cp.starter(lang), cp.solution()) for cp in load_lesson(lesson_id).checkpoints}


# ---------------------------------------------------------------------------------------------------- the walks


def plain_host_walk(walk: Walk, server) -> dict:
    """On a plain static host (``server``: a tests.conftest.Server that this walk may stop): the first visit becomes
    ready (after the service worker's one isolation reload); the first checkpoint's starter fails and every
    checkpoint's reference passes; Run shows the example's value; Stop ends an endless loop and the next Check is right; then, with the
    server gone, a reload still boots from the offline copy, keeps the progress and the draft, and Checks.
    Returns what the engine showed (isolation, SharedArrayBuffer, the Stop it used)."""
    d = walk.d
    url = f"{server.url}lessons/{LESSON}/en.html"
    seen: dict = {}
    with walk.step("first visit -> ready"):
        walk.open(url)
        seen["isolated"] = d.evaluate("() => crossOriginIsolated")
        seen["sab"] = d.evaluate("() => typeof SharedArrayBuffer")
    code = sources(LESSON)
    for cp, (starter, reference) in code.items():
        # a failing verdict is one path for every checkpoint: the first one's starter shows it (and the Arabic walk's)
        first_one = cp == next(iter(code))
        with walk.step(f"checkpoint {cp}: {'starter fails, ' if first_one else ''}reference passes"):
            if first_one:
                walk.set_code(cp, starter)
                walk.expect(cp, "fail", "the starter")
            walk.set_code(cp, reference)
            walk.expect(cp, "pass", "the reference solution")
    with walk.step("Run shows the example's value"):
        first = next(iter(code))
        d.evaluate(_WATCH, checkpoint(first))
        d.press_button(f'{checkpoint(first)} [data-action="run"]')
        d.wait(
            "(sel) => document.querySelector(sel).__walkChanged && document.querySelector(sel).dataset.state === 'idle' && "
            "Boolean(document.querySelector(sel + ' [data-result-part=\"value\"] pre'))",
            checkpoint(first),
            timeout=CHECK_S,
            what="Run's value",
        )
        value = d.text(f'{checkpoint(first)} [data-result-part="value"] pre')
        assert value and value.startswith("[{'status': "), f"{d.engine}: Run showed {value!r}"
    with walk.step("Stop ends an endless loop; the next Check is right"):
        seen["stop"] = stop_endless_loop(walk)
        walk.expect(first, "pass", "the first Check after Stop")
    last = first  # the cheapest Check: the offline Check is about the saved copy, not about the time limit
    draft = "# a draft the reload keeps\n" + code[last][1]
    with walk.step("a draft is saved; the offline copy is complete"):
        walk.set_code(last, draft)
        d.wait(
            "([key, lesson, cp, start]) => { const doc = JSON.parse(localStorage.getItem(key) || 'null');"
            " const lessonDoc = doc && doc.lessons && doc.lessons[lesson];"
            " const text = lessonDoc && lessonDoc.drafts && lessonDoc.drafts[cp];"
            " return typeof text === 'string' && text.startsWith(start); }",
            [PROGRESS_KEY, LESSON, last, draft.splitlines()[0]],
            timeout=30,
            what="the draft in localStorage",
        )
        d.wait(
            "() => ['ready', 'failed'].includes(document.documentElement.dataset.offline)",
            timeout=BOOT_S,
            what="html[data-offline] ready",
        )
        assert d.attr("html", "data-offline") == "ready", f"{d.engine}: the offline copy failed"
    server.stop()
    with walk.step("offline reload -> ready, progress and draft kept, a Check passes"):
        d.reload()
        walk.wait_ready()
        total = len(code)
        progress = d.text("[data-progress]") or ""
        assert re.sub(r"\s", "", progress) == f"{total}/{total}", f"{d.engine}: progress after the reload: {progress!r}"
        shown = d.evaluate(
            "(sel) => [...document.querySelectorAll(sel + ' .cm-line')].map((l) => l.textContent).join('\\n')",
            f"{checkpoint(last)} [data-editor] .cm-content",
        )
        assert shown.startswith(draft.splitlines()[0]), f"{d.engine}: the draft after the reload: {shown[:200]!r}"
        walk.expect(last, "pass", "the draft's Check, offline")
    return seen


def stop_endless_loop(walk: Walk) -> str:
    """Run ``while True: pass`` in the free editor, press Stop, wait until the page is ready again. Stop ends the
    worker in every engine (runtime.js ``_interrupt``); returns what took over: "spare" (a pristine learner worker
    was ready) or "boot" (none was: the page waited for a new one)."""
    d = walk.d
    walk.set_code("try", "while True:\n    pass\n")
    d.press_button('[data-playground] [data-action="run"]')
    d.wait("() => document.body.dataset.runtime === 'running'", timeout=CHECK_S, what="the loop running")
    kind = d.evaluate("() => document.body.dataset.spare === 'ready' ? 'spare' : 'boot'")
    d.press_button('[data-playground] [data-action="stop"]')
    d.wait(
        "() => document.querySelector('[data-playground]').dataset.state === 'idle'",
        timeout=30,
        what="the free editor idle after Stop",
    )
    stopped = d.attr("[data-playground] [data-verdict]", "data-stopped")
    assert stopped == "true", (
        f"{d.engine}: Stop did not end the loop as stopped: {d.text('[data-playground] [data-verdict]')!r}"
    )
    d.wait("() => document.body.dataset.runtime === 'ready'", timeout=BOOT_S, what="ready after Stop")
    return kind


def isolated_host_walk(walk: Walk, server) -> dict:
    """On ``werkbank serve`` (COOP/COEP headers, isolated from the first load): the Arabic lesson becomes ready and
    lays out right to left with code left to right; Stop right after ready (no spare booted yet: the page waits
    for a new worker) ends an endless loop; the first checkpoint's starter fails and its reference passes."""
    d = walk.d
    seen: dict = {}
    with walk.step("Arabic page -> ready, right to left"):
        walk.open(f"{server.url}lessons/{ARABIC_LESSON}/ar.html")
        assert d.attr("html", "dir") == "rtl" and d.attr("html", "lang") == "ar"
        directions = d.evaluate("""() => ({
            main: getComputedStyle(document.querySelector('main')).direction,
            editor: getComputedStyle(document.querySelector('[data-checkpoint] .cm-editor')).direction,
            output: getComputedStyle(document.querySelector('[data-checkpoint] [data-output]')).direction,
            // the heading's text itself (not its box) sits at the right edge
            heading: (() => { const range = document.createRange();
                              range.selectNodeContents(document.querySelector('main h1'));
                              const r = range.getBoundingClientRect();
                              return r.left > document.documentElement.clientWidth - r.right; })(),
        })""")
        assert directions == {"main": "rtl", "editor": "ltr", "output": "ltr", "heading": True}, (
            f"{d.engine}: layout {directions}"
        )
        seen["isolated"] = d.evaluate("() => crossOriginIsolated")
        seen["sab"] = d.evaluate("() => typeof SharedArrayBuffer")
    with walk.step("Stop before the spare is ready; the next Check is right"):
        seen["stop"] = stop_endless_loop(walk)
        first, (starter, reference) = next(iter(sources(ARABIC_LESSON, "ar").items()))
        walk.set_code(first, starter)
        walk.expect(first, "fail", "the starter (Arabic page)")
        walk.set_code(first, reference)
        walk.expect(first, "pass", "the reference solution (Arabic page)")
    return seen
