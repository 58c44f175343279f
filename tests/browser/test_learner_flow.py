"""The learner's way through a lesson in real Chromium: finding the way (stepper, next), seeing what the code does (Run with the example, try
this case, Python errors first, stepped hints, carried-over code, the free editor), focus and announcements, a whole
lesson by keyboard only, Arabic comments, translated texts, layout and the first visit's language.

Tests that only drive a lesson page share one per lesson and language (``lesson_pages``); tests that run no code
use pages that boot no Python (``save_data_page``, ``SAVE_DATA``); see tests/conftest.py.
"""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest

from tests.browser.learner import (
    ARABIC_LESSON,
    KEY,
    LESSON,
    click,
    editor,
    editor_text,
    example_editor,
    focused,
    lines_of,
    open_lesson,
    poll,
    put_solution,
    replace_code,
    replace_in,
    section,
    seed_progress,
    stored,
    wait_draft,
    wait_editors,
    wait_verdict,
)
from graders.engine.i18n import text
from tests.conftest import SAVE_DATA

pytestmark = pytest.mark.browser

REPO = Path(__file__).resolve().parents[2]
EXERCISES = REPO / "exercises"


def solution(lesson_folder: str, cp_folder_prefix: str) -> str:
    folder = next((EXERCISES / lesson_folder).glob(f"{cp_folder_prefix}*"))
    return (folder / "solution.py").read_text(encoding="utf-8")


def step(page, cp):
    return page.locator(f'.stepper [data-step="{cp}"]')


# ---------------------------------------------------------------- getting to the work


def test_stepper_shows_each_state_and_jumps_and_a_pass_offers_next(lesson_pages):
    page = lesson_pages()
    assert [step(page, c).get_attribute("data-state") for c in "123"] == ["new", "new", "new"]
    assert step(page, "1").get_attribute("aria-current") == "step"
    assert "not started" in step(page, "1").text_content()
    # jump: from the top of the page to checkpoint 2, focus on its heading, below the sticky bar
    step(page, "2").click()
    assert page.url.endswith("#checkpoint-2")
    assert focused(page) == "h2#checkpoint-2-title"
    top = page.evaluate("document.getElementById('checkpoint-2').getBoundingClientRect().top")
    bar = page.evaluate("document.querySelector('.topbar').getBoundingClientRect().bottom")
    assert bar <= top < bar + 80
    # a failing Check: tried
    click(page, "1", "check")
    assert wait_verdict(page, "1")[0] == "fail"
    poll(page, "() => document.querySelector('.stepper [data-step=\"1\"]').dataset.state === 'tried'")
    assert "tried" in step(page, "1").text_content()
    assert section(page, "1").locator("[data-next]").is_hidden()
    # a pass: passed, the stepper's current step moves on, and "Next: checkpoint 2 →" appears and jumps
    put_solution(page, "1")
    click(page, "1", "check")
    assert wait_verdict(page, "1")[0] == "pass"
    poll(page, "() => document.querySelector('.stepper [data-step=\"1\"]').dataset.state === 'passed'")
    assert step(page, "2").get_attribute("aria-current") == "step"
    nxt = section(page, "1").locator("[data-next] a")
    assert nxt.is_visible() and nxt.inner_text() == "Next: checkpoint 2 →"
    nxt.click()
    assert focused(page) == "h2#checkpoint-2-title"
    # after the third checkpoint: the next lesson
    doc = stored(page)
    doc["lessons"][LESSON]["checkpoints"]["3"] = {
        "passedAt": "2026-01-01T00:00:00.000Z",
        "lastPassingCode": "x",
        "solutionRevealed": False,
    }
    seed_progress(page, doc)  # as another tab would: the page hears it as a storage event
    page.evaluate("key => window.dispatchEvent(new StorageEvent('storage', { key }))", KEY)
    last = section(page, "3").locator("[data-next] a")
    last.wait_for(state="visible")
    assert last.inner_text().startswith("Next lesson: ") and last.get_attribute("href").endswith(
        f"../{ARABIC_LESSON}/en.html"
    )


def test_checkpoints_sit_right_after_the_text_they_need(lesson_pages):
    """Where the prose has a '```checkpoint N' marker, the checkpoint is placed there, with prose after it."""
    marked = "```checkpoint 1" in (EXERCISES / LESSON / "prose.en.md").read_text(encoding="utf-8")
    if not marked:
        pytest.skip("the lesson text has no checkpoint markers yet (content helper)")
    page = lesson_pages()
    order = page.evaluate("""() => Array.from(document.querySelector('.lesson-body').children)
        .map(el => el.dataset.checkpoint ? 'cp' + el.dataset.checkpoint : el.className)""")
    assert order.index("cp1") > 0 and order[order.index("cp1") + 1] == "prose"
    assert order.index("cp1") < order.index("cp2") < order.index("cp3")


# ---------------------------------------------------------------- seeing what your code does


@pytest.mark.parametrize(
    "code, exc, words",
    [
        ("def claim_support(claims, facts):\n    return (\n", "SyntaxError", "never closed"),
        ("def claim_support(claims, facts):\n\tif claims:\n        return []\n    return []\n", "TabError", "tabs"),
    ],
)
def test_a_run_that_python_cannot_read_says_why_not_only_where(lesson_pages, code, exc, words):
    """A syntax or indentation error in Run is explained like any Python error: its name, Python's own words and
    what it means, beside the line; "Error on line 3." alone left the learner to find the traceback."""
    page = lesson_pages()
    replace_code(page, "1", code)
    click(page, "1", "run")
    state, _ = wait_verdict(page, "1", ("idle", "error"))
    box = section(page, "1").locator("[data-verdict] .python-error")
    assert state == "error" and box.get_attribute("data-python-error") == exc
    assert words in box.locator(".python-error-message").inner_text()
    assert box.locator(".python-error-explain").inner_text().strip()


def test_run_executes_the_example_and_shows_its_value_and_the_example_is_editable(lesson_pages):
    page = lesson_pages()
    block = section(page, "1").locator("[data-example-block]")
    assert block.is_visible(), "checkpoint 1 has an example (example.en.py)"
    # on the starter, Run no longer says "Done. (no output)": the example calls the unfinished function
    click(page, "1", "run")
    state, text = wait_verdict(page, "1", ("idle", "error"))
    assert state == "error" and "(no output)" not in text
    assert section(page, "1").locator(".python-error").count() == 1
    put_solution(page, "1")
    click(page, "1", "run")
    wait_verdict(page, "1", ("idle",))
    value = section(page, "1").locator('[data-result-part="value"] pre').inner_text()
    assert value.startswith("[{'status': ")
    replace_in(page, example_editor(page, "1"), "claim_support([], [])\n")
    restore = section(page, "1").locator('[data-action="example-restore"]')
    assert restore.is_visible()
    click(page, "1", "run")
    wait_verdict(page, "1", ("idle",))
    assert section(page, "1").locator('[data-result-part="value"] pre').inner_text() == "[]"
    restore.click()
    assert "claim_support(" in lines_of(example_editor(page, "1")) and restore.is_hidden()


def test_try_this_case_runs_the_complete_failing_call_beside_the_expected_result(lesson_pages):
    page = lesson_pages()
    replace_code(page, "2", "def abstention_metrics(predictions, gold):\n    return {'total': -1}\n")
    click(page, "2", "check")
    assert wait_verdict(page, "2")[0] == "fail"
    call = section(page, "2").locator(".verdict-details dd pre").first.inner_text()
    assert "…" not in call, "the verdict shows the complete call"
    # the case's two buttons side by side, as tall as each other (a margin of Try's own once made it the shorter)
    boxes = [section(page, "2").locator(f'[data-action="{a}"]').bounding_box() for a in ("try-case", "trace-case")]
    assert boxes[0]["y"] == boxes[1]["y"] and boxes[0]["height"] == boxes[1]["height"], boxes
    section(page, "2").locator('[data-action="try-case"]').click()
    wait_verdict(page, "2", ("idle",))
    assert lines_of(example_editor(page, "2")).strip() == call.strip()
    assert focused(page) == "div.cm-content"  # the scratch editor, ready for edits and Ctrl+Enter
    yours = section(page, "2").locator('[data-result-part="yours"] pre').inner_text()
    expected = section(page, "2").locator('[data-result-part="expected"] pre').inner_text()
    assert yours == "{'total': -1}" and expected.startswith("{") and expected != yours


@pytest.mark.parametrize(
    "lang, title", [("nl", "NameError op regel 4 van je code"), ("en", "NameError on line 4 of your code")]
)
def test_a_python_error_in_the_learners_code_is_explained_first_with_its_line(lesson_pages, lang, title):
    page = lesson_pages(LESSON, lang)
    replace_code(
        page,
        "1",
        "def claim_support(claims, facts):\n    out = []\n    for claim in claims:\n"
        "        out.append(claim_statsu)\n    return out\n",
    )
    click(page, "1", "check")
    assert wait_verdict(page, "1")[0] == "fail"
    children = section(page, "1").locator("[data-verdict] > *")
    assert children.nth(0).get_attribute("class") == "verdict-line"
    box = children.nth(1)
    assert box.get_attribute("data-python-error") == "NameError"
    assert box.locator(".python-error-title").inner_text() == title
    assert box.locator(".python-error-explain").inner_text().strip()
    # the case's details come second
    assert section(page, "1").evaluate("""s => {
        const box = s.querySelector('.python-error'), details = s.querySelector('.case-details');
        return !details || (box.compareDocumentPosition(details) & Node.DOCUMENT_POSITION_FOLLOWING) > 0; }""")
    line = section(page, "1").locator("[data-editor] .cm-error-line")
    assert line.count() == 1 and "claim_statsu" in line.inner_text()


def test_a_syntax_error_after_carried_over_code_is_said_on_the_editors_line_only(lesson_pages):
    """Checkpoint 3 of perplexity-calibration runs after checkpoint 2's code: Python's line of a syntax error is a line
    of that composed source, and the verdict once said it ("a syntax error on line 24") beside the right one."""
    page = lesson_pages("perplexity-calibration", "en")
    replace_code(page, "3", "import numpy as np\n\nx = 1\ny = (\n")
    click(page, "3", "check")
    assert wait_verdict(page, "3")[0] == "error"
    verdict = section(page, "3").locator("[data-verdict]")
    box = verdict.locator(".python-error")
    assert box.get_attribute("data-python-error") == "SyntaxError"
    assert box.locator(".python-error-title").inner_text() == "SyntaxError on line 4 of your code"
    shown = verdict.inner_text()
    assert "line 4" in shown and not any(f"line {n}" in shown for n in range(5, 200)), shown
    line = section(page, "3").locator("[data-editor] .cm-error-line")
    assert line.count() == 1 and "y = (" in line.inner_text()


def test_a_syntax_error_the_code_raises_itself_keeps_the_sentence_that_no_case_ran(lesson_pages):
    """The page leaves out the engine's syntax-error sentence (its line is one of the composed source) only where
    Python could not read the code: a module that raises SyntaxError itself used to lose its "an error before any case
    could run" too, as the page told the two apart by the exception's name."""
    page = lesson_pages("perplexity-calibration", "en")
    replace_code(page, "1", "raise SyntaxError('my own')\n")
    click(page, "1", "check")
    assert wait_verdict(page, "1")[0] == "error"
    verdict = section(page, "1").locator("[data-verdict]")
    assert verdict.locator(".python-error").get_attribute("data-python-error") == "SyntaxError"
    assert verdict.locator(".verdict-message").inner_text() == text("error", "en")


def test_hints_are_revealed_one_at_a_time_and_remembered(save_data_page, isolated_server):
    page = save_data_page
    open_lesson(page, isolated_server, ready="editors")
    hints = section(page, "1").locator("[data-hint]")
    total = hints.count()
    assert 2 <= total <= 3
    button = section(page, "1").locator('[data-action="hint"]')
    assert button.inner_text() == "Hint"
    announcer = page.locator("[data-announcer]")
    for shown in range(1, total + 1):
        button.click()
        assert [hints.nth(i).is_visible() for i in range(total)] == [i < shown for i in range(total)]
        assert focused(page) == "button[hint]"
        # a screen reader hears the hint's number, then its text: not run into one word ("Hint 1 of 3Do all ...")
        hint = hints.nth(shown - 1)
        number = hint.locator(".hint-number").inner_text()
        first = hint.locator(":scope > :not(.hint-number)").first.inner_text().split()[0]
        page.wait_for_function("t => document.querySelector('[data-announcer]').textContent.includes(t)", arg=number)
        assert announcer.text_content().startswith(f"{number}: {first}"), announcer.text_content()
    assert button.get_attribute("aria-disabled") == "true" and button.inner_text() == "All hints shown"
    button.focus()
    page.keyboard.press("Enter")  # aria-disabled: no effect, no error, focus stays
    assert focused(page) == "button[hint]" and hints.count() == total
    page.reload()
    assert all(hints.nth(i).is_visible() for i in range(total))


def test_the_code_of_an_earlier_checkpoint_is_carried_over_visibly_and_editably(save_data_page, isolated_server):
    page = save_data_page  # Python boots for the Checks only, not for the two reloads
    cp2 = solution(ARABIC_LESSON, "02")
    cp3 = solution(ARABIC_LESSON, "03")
    own = "from dataclasses import dataclass\n\nimport numpy as np\n\n\n" + cp3[cp3.index("def reliability_diagram") :]
    open_lesson(page, isolated_server, lesson=ARABIC_LESSON, ready=False)
    carried = section(page, "3").locator("[data-carried='2']")
    carried.locator(".cm-content").wait_for()
    assert carried.is_visible() and carried.locator("[data-carried-note]").is_visible()  # 2 is not passed yet
    seed_progress(
        page,
        {
            "version": 1,
            "lessons": {
                ARABIC_LESSON: {
                    "checkpoints": {
                        "2": {"passedAt": "2026-01-01T00:00:00.000Z", "lastPassingCode": cp2, "solutionRevealed": False}
                    },
                    "drafts": {},
                }
            },
        },
    )
    page.reload()
    wait_editors(page)
    content = carried.locator(".cm-content")
    assert lines_of(content).strip() == cp2.strip() and carried.locator("[data-carried-note]").is_hidden()
    replace_code(page, "3", own)
    click(page, "3", "check")
    assert wait_verdict(page, "3")[0] == "pass"
    # editable: a bug in the carried copy is reported there, with its line highlighted
    broken = cp2.replace("return float(miss @ miss / miss.size)", "return float(mis @ miss / miss.size)")
    replace_in(page, content, broken)
    wait_draft(page, "carried:3:2", broken[:20], lesson=ARABIC_LESSON)
    click(page, "3", "check")
    state, text = wait_verdict(page, "3")
    assert state in ("fail", "error") and "checkpoint 2" in section(page, "3").locator(".python-error").inner_text()
    assert carried.locator(".cm-error-line").count() == 1 and "mis @" in carried.locator(".cm-error-line").inner_text()
    page.reload()
    wait_editors(page)  # a click while the sections still grow may land beside the button as it moves
    assert "mis @" in lines_of(carried.locator(".cm-content"))  # the edited copy is kept

    # A click on a loaded machine may still land beside the button as the page settles; the refresh is idempotent,
    # so a click that changed nothing is made again.
    def refreshed() -> bool:
        return lines_of(content).strip() == cp2.strip()

    for _ in range(3):
        carried.locator('[data-action="carry-refresh"]').click()
        deadline = time.monotonic() + 3
        while not refreshed() and time.monotonic() < deadline:
            page.wait_for_timeout(50)
        if refreshed():
            break
    assert refreshed(), lines_of(content)


def test_the_free_editor_shares_names_with_the_checkpoints(lesson_pages):
    page = lesson_pages()
    put_solution(page, "1")
    replace_code(page, "try", "print('hello')\nclaim_support([], [])\n")
    click(page, "try", "run")
    wait_verdict(page, "try", ("idle",))
    assert "hello" in section(page, "try").locator("[data-output]").inner_text()
    assert section(page, "try").locator('[data-result-part="value"] pre').inner_text() == "[]"


# ---------------------------------------------------------------- accessibility


def test_focus_is_never_lost_while_code_runs(lesson_pages):
    page = lesson_pages()
    check = section(page, "1").locator('[data-action="check"]')
    check.focus()
    # the starter's Check can end within one poll, so the moment it runs is recorded by an observer set up first
    page.evaluate("""() => {
        const sec = document.querySelector('[data-checkpoint="1"]');
        const button = sec.querySelector('[data-action="check"]');
        window.__whileRunning = null;
        new MutationObserver((_, observer) => {
            if (sec.dataset.state !== 'running') return;
            window.__whileRunning = {disabled: button.getAttribute('aria-disabled'),
                                     focused: document.activeElement === button};
            observer.disconnect();
        }).observe(sec, {attributes: true, attributeFilter: ['data-state']});
    }""")
    page.keyboard.press("Enter")
    seen = poll(page, "() => window.__whileRunning")
    assert seen == {"disabled": "true", "focused": True}, seen
    wait_verdict(page, "1")
    assert focused(page) == "button[check]" and check.get_attribute("aria-disabled") is None
    # Stop by keyboard: Stop disappears when the run ends, and focus goes back to Run
    replace_code(page, "try", "while True:\n    pass\n")
    run = section(page, "try").locator('[data-action="run"]')
    run.focus()
    page.keyboard.press("Enter")
    stop = section(page, "try").locator('[data-action="stop"]')
    stop.wait_for(state="visible")
    stop.focus()
    page.keyboard.press("Enter")
    poll(page, "() => document.querySelector('[data-playground]').dataset.state === 'idle'")
    assert focused(page) == "button[run]"


#: Whether the element `sel` shows its middle on the screen: not below the fold, not clipped by a scrolled column,
#: not under the sticky top bar (what is drawn there is the element or something inside it).
SHOWN = """sel => {
    const el = document.querySelector(sel);
    const r = el.getBoundingClientRect();
    const x = r.left + Math.min(r.width / 2, 40), y = r.top + r.height / 2;
    if (y < 0 || y > innerHeight) return false;
    const hit = document.elementFromPoint(x, y);
    return !!hit && (hit === el || el.contains(hit));
}"""


def test_a_newcomer_reaches_checkpoint_1s_editor_and_check_in_one_step_without_scrolling(lesson_pages):
    """The first editor lies screens down the lesson text; the stepper's first step is on the first screen, and one
    press on it puts checkpoint 1's editor and its Check button on the screen (1280 x 720): no scrolling to the work."""
    page = lesson_pages()
    page.evaluate("window.scrollTo(0, 0)")
    editor = '[data-checkpoint="1"] [data-editor] .cm-content'
    assert not page.evaluate(SHOWN, editor)  # the case this is about: the editor is not on the first screen
    assert page.evaluate(SHOWN, '.stepper [data-step="1"]')
    step(page, "1").click()
    for sel in (editor, '[data-checkpoint="1"] [data-action="check"]'):
        poll(page, SHOWN, sel, timeout=10)


@pytest.mark.parametrize("how", ["Control+Enter", "button", "phone", "phone, a wrong value"])
def test_a_checks_headline_comes_into_view_and_focus_stays(lesson_pages, how):
    """The verdict sits below the editor, the buttons and the example call: at 1280 x 720 below the work column's
    fold, on a phone below the screen. A Check from the editor or its button brings the headline into view, also
    when the verdict marks an error line in the editor (on the phone); where it marks none, the failing case's call,
    expected and actual value come into view too (only the headline did, at the screen's edge); focus stays where it
    was."""
    page = lesson_pages()
    size = page.viewport_size
    try:
        if how.startswith("phone"):
            page.set_viewport_size({"width": 390, "height": 844})
        page.locator("#checkpoint-1-title").scroll_into_view_if_needed()
        body = "    return 1 / 0\n" if how == "phone" else "    return []\n"
        replace_code(page, "1", "def claim_support(claims, facts):\n" + body)
        headline = '[data-checkpoint="1"] [data-verdict] .verdict-line'
        if how == "Control+Enter":
            page.keyboard.press("Control+Enter")
        else:
            click(page, "1", "check")
        assert wait_verdict(page, "1")[0] == "fail"
        if how == "phone":  # the error line is marked, and on the screen with the headline
            assert page.evaluate(SHOWN, '[data-checkpoint="1"] [data-editor] .cm-line.cm-error-line')
        poll(page, "() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))")
        assert page.evaluate(SHOWN, headline), page.evaluate(
            "sel => [document.querySelector(sel).getBoundingClientRect().toJSON(), innerHeight]", headline
        )
        # what came back, and on a laptop why that fails (on the phone the long call wraps: the headline comes first)
        for row in ("got", "why") if not how.startswith("phone") else ("got",) if how != "phone" else ():
            shown = f'[data-checkpoint="1"] [data-verdict] .verdict-details [data-row="{row}"]'
            assert page.evaluate(SHOWN, shown), page.evaluate(
                "sel => [document.querySelector(sel).getBoundingClientRect().toJSON(), innerHeight]", shown
            )
        assert focused(page) == ("div.cm-content" if how == "Control+Enter" else "button[check]")
    finally:
        page.set_viewport_size(size)


def test_a_wrapped_line_continues_under_its_own_indentation_on_a_phone(lesson_pages):
    """Lines wrap (no horizontal scroll); a long indented line's continuation starts under its first character, not
    at column 0, so Python's blocks stay readable on a phone. A line that fits is drawn as before."""
    page = lesson_pages()
    size = page.viewport_size
    try:
        page.set_viewport_size({"width": 390, "height": 844})
        long = "        total = " + " + ".join(f"value_{i}" for i in range(30))
        replace_code(page, "1", f"def f(values):\n    if values:\n{long}\n    return 0\n")
        lines = section(page, "1").locator("[data-editor] .cm-line")
        geometry = lines.evaluate_all("""els => els.map(el => {
            const range = document.createRange();
            range.selectNodeContents(el);
            const rects = [...range.getClientRects()].filter(r => r.width > 0);
            const text = el.textContent;
            return {text, left: el.getBoundingClientRect().left, rows: new Set(rects.map(r => Math.round(r.top))).size,
                    starts: rects.map(r => [Math.round(r.top), r.left])};
        })""")
        wrapped = next(g for g in geometry if g["text"] == long)
        assert wrapped["rows"] > 1, wrapped  # it does wrap at this width
        char = page.evaluate(
            """() => { const s = document.createElement("span"); s.textContent = "0".repeat(10);
                s.style.font = getComputedStyle(document.querySelector('[data-checkpoint="1"] .cm-content')).font;
                document.body.append(s); const w = s.getBoundingClientRect().width / 10; s.remove(); return w; }"""
        )
        first_row = min(top for top, _ in wrapped["starts"])
        text_start = min(left for top, left in wrapped["starts"] if top == first_row) + 8 * char  # after its indent
        later = [left for top, left in wrapped["starts"] if top > first_row]
        assert later and min(later) >= text_start - char / 2, (text_start, later)
        # a line that fits starts where it did (its indentation drawn as spaces, from the line's left edge)
        short = next(g for g in geometry if g["text"] == "    return 0")
        assert short["rows"] == 1 and abs(min(left for _, left in short["starts"]) - short["left"]) < 8, short
    finally:
        page.set_viewport_size(size)


def test_a_run_is_announced_once_with_its_headline(lesson_pages):
    page = lesson_pages()
    page.evaluate("""() => {
        window.__said = [];
        const live = n => n && n.closest && n.closest(
            '[aria-live]:not([aria-live="off"]), [role="status"], [role="alert"], [role="log"]:not([aria-live="off"])');
        new MutationObserver(records => {
            const regions = new Set(records.map(r => live(r.target.nodeType === 1 ? r.target : r.target.parentElement))
                .filter(Boolean));
            for (const region of regions) if (region.textContent.trim()) window.__said.push(region.textContent.trim());
        }).observe(document.body, {subtree: true, childList: true, characterData: true});
    }""")
    click(page, "1", "check")
    _, text = wait_verdict(page, "1")
    said = page.evaluate("window.__said")
    headline = section(page, "1").locator(".verdict-line").inner_text()
    # once: the headline, then the first failing case and why (here the starter's own error)
    error = section(page, "1").locator(".python-error-title").inner_text()
    assert len(said) == 1 and said[0].startswith(headline) and error in said[0], said


def test_a_keyboard_only_learner_completes_a_whole_lesson(lesson_pages):
    """No mouse: Tab to the stepper, jump, Tab into the editor, type, Ctrl+Enter, Escape+Tab out, follow 'Next'."""
    page = lesson_pages()
    solutions = {cp: solution(LESSON, f"0{cp}") for cp in "123"}

    def tab_to(predicate_js, arg=None, limit=400):
        for _ in range(limit):
            page.keyboard.press("Tab")
            if page.evaluate(predicate_js, arg):
                return
        pytest.fail(f"Tab never reached {predicate_js} {arg}")

    tab_to("() => document.activeElement.matches('.stepper [data-step=\"1\"]')")
    page.keyboard.press("Enter")
    assert focused(page) == "h2#checkpoint-1-title"
    for cp in "123":
        # on the way to the editor, Tab passes through the other editors without typing into them
        tab_to('cp => document.activeElement.matches(`[data-checkpoint="${cp}"] [data-editor] .cm-content`)', cp)
        page.keyboard.press("Control+a")
        page.keyboard.insert_text(solutions[cp])
        page.keyboard.press("Control+Enter")
        assert wait_verdict(page, cp)[0] == "pass"
        page.keyboard.press("Escape")  # CodeMirror's escape hatch: the next Tab leaves the editor
        tab_to('cp => document.activeElement.matches(`[data-checkpoint="${cp}"] [data-next] a`)', cp)
        if cp != "3":
            page.keyboard.press("Enter")
            assert focused(page) == f"h2#checkpoint-{int(cp) + 1}-title"
    assert page.locator("[data-progress]").inner_text() == "3 / 3"
    assert section(page, "3").locator("[data-next] a").inner_text().startswith("Next lesson")
    # nothing was typed into an editor the learner only tabbed through
    assert section(page, "2").locator("[data-example-editor] .cm-content").count() in (0, 1)


def test_tab_passes_through_an_editor_until_the_learner_types(save_data_page, isolated_server):
    page = save_data_page
    open_lesson(page, isolated_server, ready="editors")
    starter = editor_text(page, "1")
    target = editor(page, "1")
    for _ in range(300):
        page.keyboard.press("Tab")
        if target.evaluate("el => el === document.activeElement"):
            break
    else:
        pytest.fail("Tab never reached the editor of checkpoint 1")
    assert target.get_attribute("aria-describedby") == "checkpoint-1-keys"
    assert "Escape then Tab" in page.locator("#checkpoint-1-keys").inner_text()
    page.keyboard.press("Tab")  # moves on: no indentation added to the starter
    assert not target.evaluate("el => el === document.activeElement")
    assert editor_text(page, "1") == starter


# ---------------------------------------------------------------- languages and right to left


def test_arabic_comments_read_in_order_inside_the_ltr_editor(browser, isolated_server):
    for width in (1280, 390):
        context = browser.new_context(viewport={"width": width, "height": 900})
        context.add_init_script(SAVE_DATA)
        try:
            page = context.new_page()
            page.set_default_timeout(120_000)
            open_lesson(page, isolated_server, lang="ar", lesson=ARABIC_LESSON, ready=False)
            # on a phone the editor is behind its checkpoint's "code" tab: replace_code opens it as a learner would
            page.wait_for_selector('[data-checkpoint="1"] [data-editor] .cm-content', state="attached")
            comment = "    # مثال طويل يشرح الحالة: [0, 1] و bins <= 0 يرفع ValueError في هذه الحالة بالذات دائمًا"
            replace_code(page, "1", f"def f(x):\n{comment}\n    return x\n")
            line = section(page, "1").locator("[data-editor] .cm-line").nth(1)
            assert line.locator(".cm-rtl-comment").get_attribute("dir") == "rtl"
            assert [r.inner_text() for r in line.locator(".cm-ltr-run").all()] == ["[0, 1]", "bins <= 0", "ValueError"]
            pos = line.evaluate("""(line) => {
                const text = line.textContent, at = {};
                const walker = document.createTreeWalker(line, NodeFilter.SHOW_TEXT);
                let node, offset = 0;
                const wanted = {'#': text.indexOf('#'), '[': text.indexOf('['), '0': text.indexOf('[') + 1,
                    '1': text.indexOf('1]'), ']': text.indexOf(']'), 'mithal': text.indexOf('مثال'),
                    'b': text.indexOf('bins'), '<': text.indexOf('<')};
                while ((node = walker.nextNode())) {
                    for (const [name, index] of Object.entries(wanted)) {
                        if (index >= offset && index < offset + node.length) {
                            const range = document.createRange();
                            range.setStart(node, index - offset); range.setEnd(node, index - offset + 1);
                            const r = range.getClientRects()[0];
                            at[name] = {x: r.left, y: Math.round(r.top)};
                        }
                    }
                    offset += node.length;
                }
                return at;
            }""")
            # the comment sign stays where code starts; inside the comment "[0, 1]" and "bins <= 0" keep their order
            same_row = pos["["]["y"] == pos["1"]["y"] == pos["0"]["y"]
            assert same_row
            assert pos["["]["x"] < pos["0"]["x"] < pos["1"]["x"] < pos["]"]["x"]
            if pos["b"]["y"] == pos["<"]["y"]:
                assert pos["b"]["x"] < pos["<"]["x"]
            if pos["#"]["y"] == pos["mithal"]["y"]:
                assert pos["#"]["x"] < pos["mithal"]["x"]
            if pos["mithal"]["y"] == pos["["]["y"]:
                assert pos["mithal"]["x"] > pos["]"]["x"]  # read right to left: the first word is on the right
            # nothing is cut off: long lines wrap inside the editor, at 390 px too
            assert (
                section(page, "1")
                .locator("[data-editor] .cm-scroller")
                .evaluate("el => el.scrollWidth <= el.clientWidth + 1")
            )
        finally:
            context.close()


def test_the_verdict_never_shows_a_raw_case_id(lesson_pages):
    page = lesson_pages(LESSON, "nl")
    click(page, "1", "check")
    _, text = wait_verdict(page, "1")
    assert not re.search(r"\b(seed|case|edge|random)-[a-z0-9]+(-[a-z0-9]+)*\b", text), text


def test_a_cut_off_value_says_how_many_more_in_the_learners_language(lesson_pages):
    page = lesson_pages(LESSON, "nl")
    replace_code(page, "1", "def claim_support(claims, facts):\n    return list(range(50))\n")
    click(page, "1", "check")
    _, text = wait_verdict(page, "1")
    got = section(page, "1").locator(".verdict-details dd pre").nth(2).inner_text()
    assert "…" in got and "nog" in got and not re.search(r"… \d+ more", text), got


# ---------------------------------------------------------------- layout


def test_layout_gives_code_room_and_the_badge_stays_on_the_title_line(browser, isolated_server):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.add_init_script(SAVE_DATA)
    try:
        page = context.new_page()
        page.set_default_timeout(120_000)
        seed = {
            "version": 1,
            "lessons": {
                LESSON: {
                    "checkpoints": {
                        "1": {"passedAt": "2026-01-01T00:00:00.000Z", "lastPassingCode": "x", "solutionRevealed": False}
                    },
                    "drafts": {},
                }
            },
        }
        page.goto(f"{isolated_server.url}lessons/{LESSON}/en.html")
        seed_progress(page, seed)
        page.reload()
        badge = section(page, "1").locator("[data-passed-badge]")
        badge.wait_for(state="visible")
        wait_editors(page)  # so the check of every editor below has all of them
        title = section(page, "1").locator(".cp-title")
        assert (
            abs(
                badge.bounding_box()["y"]
                + badge.bounding_box()["height"]
                - (title.bounding_box()["y"] + title.bounding_box()["height"])
            )
            < 12
        )
        # no editor line is cut off at 1280 px: starters and examples fit or wrap
        for scroller in page.locator("[data-checkpoint] .cm-scroller").all():
            assert scroller.evaluate("el => el.scrollWidth <= el.clientWidth + 1")
        # the task stands beside the editor, which still shows at least 72 columns of code
        columns = page.evaluate("""() => {
            const content = document.querySelector('[data-checkpoint="1"] [data-editor] .cm-content');
            const probe = document.createElement('span');
            probe.textContent = 'x'.repeat(40);
            content.querySelector('.cm-line').append(probe);
            const width = probe.getBoundingClientRect().width / 40;
            probe.remove();
            return content.getBoundingClientRect().width / width; }""")
        assert columns >= 72, columns
    finally:
        context.close()


@pytest.mark.parametrize("lesson, lang", [("claims-abstention", "nl"), ("perplexity-calibration", "ar")])
def test_a_lesson_at_375_px_with_text_at_twice_its_size_scrolls_only_down(browser, plain_server, lesson, lang):
    """A learner who enlarges the text (WCAG 1.4.4, 1.4.10) on a phone: nothing makes the page wider than the screen
    (the Task/Code tabs once stayed on one row: 446 px in Dutch, 504 px in Arabic)."""
    context = browser.new_context(viewport={"width": 375, "height": 740}, service_workers="block")
    context.add_init_script(SAVE_DATA)
    context.add_init_script(
        "document.addEventListener('DOMContentLoaded', () => { document.documentElement.style.fontSize = '200%'; })"
    )
    try:
        page = context.new_page()
        page.goto(f"{plain_server.url}lessons/{lesson}/{lang}.html")
        page.wait_for_selector("body[data-editors=ready]", state="attached", timeout=60_000)
        wide = page.evaluate("""() => Array.from(document.querySelectorAll('body *'))
            .filter(el => el.getBoundingClientRect().width > 0 && el.offsetParent !== null)
            .filter(el => el.getBoundingClientRect().right > window.innerWidth + 1
                          || el.getBoundingClientRect().left < -1)
            .slice(0, 5).map(el => el.className || el.tagName)""")
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), wide
    finally:
        context.close()


def test_the_mobile_home_header_takes_at_most_two_rows(browser, plain_server):
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="nl-NL", service_workers="block")
    context.add_init_script(SAVE_DATA)
    try:
        page = context.new_page()
        page.goto(plain_server.url + "index.html")
        rows = page.evaluate("""() => {
            const items = document.querySelectorAll('.topbar .brand, .topbar .lang-switch li, .topbar .theme-toggle,'
                + ' .topbar .runtime-status');
            return new Set(Array.from(items, el => Math.round(el.getBoundingClientRect().top / 8))).size;
        }""")
        assert rows <= 2
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    finally:
        context.close()


# ---------------------------------------------------------------- first visit in the right language


@pytest.mark.parametrize("locale, expected", [("en-US", "en"), ("ar-EG", "ar"), ("nl-BE", "nl"), ("fr-FR", "nl")])
def test_a_first_visit_follows_the_browsers_languages(browser, plain_server, locale, expected):
    context = browser.new_context(locale=locale, service_workers="block")
    context.add_init_script(SAVE_DATA)
    try:
        page = context.new_page()
        page.goto(plain_server.url)
        page.wait_for_load_state("domcontentloaded")
        poll(page, "lang => document.documentElement.lang === lang", expected, timeout=20)
    finally:
        context.close()


def test_the_learners_own_language_choice_is_kept(browser, plain_server):
    context = browser.new_context(locale="en-US", service_workers="block")
    context.add_init_script(SAVE_DATA)
    try:
        page = context.new_page()
        page.goto(plain_server.url)
        poll(page, "() => document.documentElement.lang === 'en'", timeout=20)
        page.locator('.lang-switch a[hreflang="nl"]').click()
        poll(
            page,
            "() => document.documentElement.lang === 'nl' && location.pathname.endsWith('/index.html')"
            " && !location.pathname.includes('/en/')",
            timeout=20,
        )
        page.goto(plain_server.url)
        page.wait_for_load_state("load")
        assert page.evaluate("document.documentElement.lang") == "nl"
    finally:
        context.close()


def test_a_stored_language_the_site_does_not_offer_is_ignored(browser, plain_server):
    """Damaged storage where the language pick is kept: the first page follows the browser's languages, as if the
    learner had picked none (it used to stay in the default language)."""
    context = browser.new_context(locale="en-US", service_workers="block")
    context.add_init_script(SAVE_DATA)
    context.add_init_script("localStorage.setItem('werkbank:lang', '{\"nl')")
    try:
        page = context.new_page()
        page.goto(plain_server.url)
        poll(page, "() => document.documentElement.lang === 'en'", timeout=20)
    finally:
        context.close()


def test_without_javascript_the_default_home_page_still_works(browser, plain_server):
    context = browser.new_context(locale="en-US", java_script_enabled=False)
    try:
        page = context.new_page()
        page.goto(plain_server.url)
        assert page.locator("html").get_attribute("lang") == "nl"
        assert page.locator("a[data-lesson]").count() >= 2
        page.locator('.lang-switch a[hreflang="en"]').click()
        page.wait_for_url(re.compile(r"/en/index\.html$"))
    finally:
        context.close()
