"""Helpers for the learner-UI browser tests (test_learner_ui.py, test_learner_flow.py, test_a11y.py).

Every wait is on state (a verdict, ``data-runtime``, storage, a DOM attribute), never a fixed sleep. A state a CSS
selector can say is awaited with :func:`wait_for` (Playwright's own wait, inside the page); the pages' CSP forbids
eval, which Playwright's string predicates (``wait_for_function``) need, so other predicates go through :func:`poll`
(page.evaluate every 50 ms, a round trip to the browser each time: several times the CPU of a selector wait).
"""

from __future__ import annotations

import json
import time

LESSON = "claims-abstention"
ARABIC_LESSON = "perplexity-calibration"
KEY = "werkbank:progress"
DONE = ("pass", "fail", "error", "timeout")


def wait_for(page, selector, timeout=120.0):
    """Wait until an element matches the CSS ``selector`` (attached); a timeout fails with what the page shows."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    try:
        page.wait_for_selector(selector, state="attached", timeout=timeout * 1000)
    except PlaywrightTimeout:
        raise AssertionError(
            f"timed out after {timeout} s waiting for {selector}\npage state: {_state(page)}"
        ) from None


def poll(page, fn, arg=None, timeout=120.0):
    """Evaluate the JS function `fn` (source text) until it returns something truthy; return that. An evaluation that
    throws counts as not yet: while a navigation replaces the document, `document.documentElement` is null for a
    moment (or the context is gone); a predicate that throws every time fails at the deadline with its last error."""
    from playwright.sync_api import Error as PlaywrightError

    deadline = time.monotonic() + timeout
    error = None
    while True:
        try:
            value = page.evaluate(fn, arg)
        except PlaywrightError as thrown:
            value, error = None, thrown
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(
                f"timed out after {timeout} s waiting for {fn}\nlast error: {error}\npage state: {_state(page)}"
            )
        page.wait_for_timeout(50)


_STATE = """() => {
    const data = (el) => el ? { ...el.dataset } : null;
    return {
        body: data(document.body),
        sections: [...document.querySelectorAll("[data-checkpoint], [data-playground]")].map((s) => ({
            ...data(s), verdict: data(s.querySelector("[data-verdict]")),
            text: (s.querySelector("[data-verdict]") || {}).textContent,
            disabled: [...s.querySelectorAll("button[aria-disabled=true]")].map((b) => b.dataset.action),
        })),
        focus: document.activeElement && document.activeElement.outerHTML.slice(0, 120),
        status: (document.querySelector(".runtime-status") || {}).textContent,
        isolated: self.crossOriginIsolated,
        controlled: Boolean(navigator.serviceWorker && navigator.serviceWorker.controller),
        marks: performance.getEntriesByType("mark").slice(-40).map((m) => `${m.name}@${Math.round(m.startTime)}`),
    };
}"""


#: Starts recording what the page's live region (``[data-announcer]``) says, in ``window.__said``.
_LISTEN = """() => {
    window.__said = [];
    new MutationObserver(() => window.__said.push(document.querySelector('[data-announcer]').textContent))
        .observe(document.querySelector('[data-announcer]'), {childList: true, characterData: true, subtree: true});
}"""


def listen(page):
    """Record from now on what the page announces to screen readers (its live region); :func:`heard` reads it, and
    ``window.__said = []`` forgets what was heard so far."""
    page.evaluate(_LISTEN)


def heard(page, start):
    """The first announcement since :func:`listen` that starts with ``start`` (waited for), without the invisible mark
    a repeated announcement ends in."""
    return poll(
        page,
        "(start) => (window.__said.find((text) => text.startsWith(start)) || '').replace(/\u00a0$/, '')",
        start,
    )


def _state(page) -> str:
    """What the page shows of its runtime and sections, for a timeout's message."""
    try:
        return json.dumps(page.evaluate(_STATE), ensure_ascii=False)[:4000]
    except Exception as error:  # noqa: BLE001 - a message about the page must not hide the timeout itself
        return f"(not readable: {error})"


def open_lesson(page, server, lang="en", lesson=LESSON, ready=True):
    """Open a lesson page; ``ready``: wait for Python and the editors (``wait_ready``), "editors": for the editors
    only (a page that does not boot Python as it loads, see tests/conftest.py SAVE_DATA), False: wait for nothing."""
    page.goto(f"{server.url}lessons/{lesson}/{lang}.html")
    if ready == "editors":
        wait_editors(page)
    elif ready:
        wait_ready(page)


def wait_ready(page):
    """Python ready and every editor built: a page that is ready sooner than its editors (a loaded machine builds
    them later) would otherwise take a click while a section is still growing under the pointer."""
    wait_for(page, 'body[data-runtime="ready"][data-editors="ready"]')


def wait_editors(page):
    """Every editor built (all a page that does not boot Python on load will get to by itself)."""
    wait_for(page, 'body[data-editors="ready"]')


_RESET = """() => {
    for (const sel of ['[data-action="example-restore"]', '[data-action="carry-refresh"]', '[data-action="reset"]'])
        for (const button of document.querySelectorAll(sel)) if (!button.closest("[hidden]")) button.click();
    for (const box of document.querySelectorAll("[data-solution]")) box.hidden = true;
    localStorage.clear();  // what another tab's "reset all" does; the page hears it as a storage event
    window.dispatchEvent(new StorageEvent("storage", { key: null }));
    const first = document.querySelector("a[href], button");
    first.focus();
    first.blur();  // the next Tab starts from the top of the page
    window.scrollTo(0, 0);
}"""


def reset_lesson_page(page):
    """Hand a shared lesson page to the next test as a fresh visit would show it (see tests/conftest.py
    ``lesson_pages``): Python ready, no run going on, every editor at its starter, progress and drafts cleared,
    solutions hidden, focus at the top, no collected errors."""
    wait_ready(page)
    poll(
        page,
        """() => [...document.querySelectorAll("[data-checkpoint], [data-playground]")]
        .every((s) => s.dataset.state !== "running")""",
    )
    page.evaluate(_RESET)
    poll(page, "() => document.querySelector('[data-progress]').textContent.trim().startsWith('0 ')")
    page.werkbank_errors.clear()


def selector(cp):
    return f'[data-checkpoint="{cp}"]' if cp != "try" else "[data-playground]"


def section(page, cp):
    return page.locator(selector(cp))


def editor(page, cp):
    """The learner's own editor of a checkpoint (not the example or carried-over ones)."""
    return section(page, cp).locator("[data-editor] .cm-content")


def example_editor(page, cp):
    return section(page, cp).locator("[data-example-editor] .cm-content")


def lines_of(locator):
    """The whole text of an editor's content element: CodeMirror's document (it renders only the lines in view),
    read through the view its DOM points to; the rendered lines when that internal link is not there."""
    return locator.evaluate("""el => {
        const view = el.cmTile && el.cmTile.root && el.cmTile.root.view;
        return view ? view.state.doc.toString()
            : Array.from(el.querySelectorAll('.cm-line')).map(l => l.textContent).join('\\n'); }""")


def editor_text(page, cp):
    return lines_of(editor(page, cp))


def show_work(page, locator):
    """On a narrow screen a checkpoint's task and work are tabs: select the work tab of the checkpoint holding
    `locator` when it is hidden there (as a learner taps "Code")."""
    if locator.is_visible():
        return
    tab = locator.locator("xpath=ancestor::section[@data-checkpoint][1]").locator('[role="tab"][data-tab="work"]')
    if tab.count() and tab.is_visible():
        tab.click()


def replace_in(page, content, code):
    """Select everything in an editor's content element and put `code` there as if pasted (no auto-indent)."""
    show_work(page, content)
    content.click()
    page.keyboard.press("Control+a")
    page.keyboard.press("Delete")
    page.keyboard.insert_text(code)


def replace_code(page, cp, code):
    replace_in(page, editor(page, cp), code)


def wait_verdict(page, cp, states=DONE):
    """Wait until the verdict of `cp` is one of `states` and no run is going on; return (state, text)."""
    sel = selector(cp)
    wait_for(page, ", ".join(f'{sel}:not([data-state="running"]) [data-verdict="{state}"]' for state in states))
    box = section(page, cp).locator("[data-verdict]").first
    return box.get_attribute("data-verdict"), box.inner_text()


def wait_idle(page, cp):
    wait_for(page, f'{selector(cp)}[data-state="idle"]')


def click(page, cp, action):
    """Press `action`'s button of `cp` from the keyboard (focus, Enter), as put_solution does: on a busy machine a
    mouse click on a section still settling can be lost, and a Check then never starts (a verdict wait of 120 s, seen
    in CI). The mouse path of these buttons is driven by test_learner_ui, test_hostile and test_offline."""
    button = section(page, cp).locator(f'button[data-action="{action}"]').first
    show_work(page, button)
    button.wait_for(state="visible")  # a hidden button takes no focus: Enter would go to whatever had it
    button.focus()
    assert button.evaluate("b => b === document.activeElement"), f"{action} of {cp} did not take the focus"
    page.keyboard.press("Enter")


def put_solution(page, cp):
    """Reveal the reference solution (confirming the dialog) and copy it into the editor, from the keyboard (focus,
    Enter): a set-up step that does not hang on pointer checks (a button still moving while a busy machine lays out
    the page) the way a mouse click can."""
    page.once("dialog", lambda d: d.accept())
    reveal = section(page, cp).locator('button[data-action="solution"]').first
    reveal.focus()
    page.keyboard.press("Enter")
    copy = section(page, cp).locator('[data-solution] button[data-action="solution-copy"]')
    copy.focus()
    page.keyboard.press("Enter")


def stored(page):
    raw = page.evaluate(f"localStorage.getItem({json.dumps(KEY)})")
    return json.loads(raw) if raw else None


def passed_ids(doc, lesson=LESSON):
    cps = (doc or {}).get("lessons", {}).get(lesson, {}).get("checkpoints", {})
    return sorted(cp for cp, rec in cps.items() if rec.get("passedAt"))


def wait_draft(page, key, startswith, lesson=LESSON):
    """Wait until the autosaved draft `key` of `lesson` starts with `startswith` (instead of sleeping past the
    debounce)."""
    poll(
        page,
        """([key, lesson, start, storageKey]) => {
            const doc = JSON.parse(localStorage.getItem(storageKey) || 'null');
            const draft = doc && doc.lessons[lesson] && doc.lessons[lesson].drafts[key];
            return typeof draft === 'string' && draft.startsWith(start);
        }""",
        [key, lesson, startswith, KEY],
    )


def seed_progress(page, doc):
    page.evaluate("([key, text]) => localStorage.setItem(key, text)", [KEY, json.dumps(doc)])


def focused(page):
    """A short description of document.activeElement."""
    return page.evaluate("""() => {
        const a = document.activeElement;
        if (!a || a === document.body) return 'body';
        return a.tagName.toLowerCase() + (a.dataset.action ? `[${a.dataset.action}]` : '')
            + (a.classList.contains('cm-content') ? '.cm-content' : '') + (a.id ? `#${a.id}` : '');
    }""")


def page_errors(page, dist):
    """Console and page errors, minus the service worker's 404 while the build does not ship dist/sw.js."""
    errors = page.werkbank_errors
    if not (dist / "sw.js").is_file():
        errors = [e for e in errors if "when fetching the script" not in e]
    return errors
