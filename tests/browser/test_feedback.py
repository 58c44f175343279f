"""Feedback on all cases and "Trace this case" in Chromium, keyboard only, in English and Arabic: a failing verdict
counts its failing cases by kind and lists them to try or trace; "Expected" shows only the exception type when the
message is not graded; the announcement says pass or fail, the first failing case and why; a traced call shows, step
by step, the lines that ran and the variables. The open list is one stop in the Tab order (the arrow keys move between
its cases); a tried case is announced with what came back; a case that cannot be tried says why.

One booted page per language (module fixtures): the tests only drive it (the reload test's page boots no Python).
"""

from __future__ import annotations

import pytest

from tests.browser.learner import (
    ARABIC_LESSON,
    LESSON,
    focused,
    heard,
    listen,
    open_lesson,
    poll,
    replace_code,
    section,
    wait_verdict,
)
from tests.test_failing_cases import NO_CHECKS
from tests.test_shrink import KEPT
from werkbank.grading import grade_source

pytestmark = pytest.mark.browser


def booted(browser, server, lang, lesson):
    context = browser.new_context(viewport={"width": 1280, "height": 800}, service_workers="block")
    page = context.new_page()
    page.set_default_timeout(120_000)
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.werkbank_errors = errors
    open_lesson(page, server, lang=lang, lesson=lesson)
    listen(page)
    return context, page


@pytest.fixture(scope="module")
def en_page(browser, isolated_server):
    context, page = booted(browser, isolated_server, "en", LESSON)
    yield page
    context.close()


@pytest.fixture(scope="module")
def ar_page(browser, isolated_server):
    context, page = booted(browser, isolated_server, "ar", ARABIC_LESSON)
    yield page
    context.close()


def press(page, locator, key="Enter"):
    """Focus `locator` and press `key`: the keyboard's way to use a control."""
    locator.focus()
    assert locator.evaluate("el => el === document.activeElement")
    page.keyboard.press(key)


def check_by_keyboard(page, cp, code):
    replace_code(page, cp, code)
    page.keyboard.press("Control+Enter")  # Check from inside the editor
    return wait_verdict(page, cp)


def said(page):
    return page.evaluate("window.__said.filter(Boolean)")


def opened(page, cp):
    """The list of failing cases of ``cp``, opened (from the keyboard) when it is closed."""
    listing = section(page, cp).locator("[data-failing]")
    if listing.get_attribute("open") is None:
        press(page, listing.locator("summary"))
    return listing


def focused_row(page, cp):
    """(index of the list item holding the focus, the focused button's action) in ``cp``'s list, else None."""
    return page.evaluate(
        """(sel) => {
        const el = document.activeElement;
        const li = el && el.closest(`${sel} [data-failing] li`);
        return li ? [[...li.parentElement.children].indexOf(li), el.dataset.action || el.tagName] : null;
    }""",
        f'[data-checkpoint="{cp}"]',
    )


def test_a_failing_check_shows_its_first_failure_early_then_counts_by_kind_lists_the_cases_and_announces_it(en_page):
    """A wrong solution's first failing case is on the page while the Check still runs the other cases (the early
    verdict: its case, without counts, nothing to try yet); the verdict of the whole run then replaces it, with the
    counts by kind, and names the same case; it is announced once; the failing cases are listed."""
    page = en_page
    page.evaluate("""() => {
        const sec = document.querySelector('[data-checkpoint="1"]');
        window.__verdicts = [];
        new MutationObserver(() => {
            const box = sec.querySelector('[data-verdict]');
            const line = box.querySelector('.verdict-line');
            const label = box.querySelector('.case-label');
            window.__verdicts.push({state: sec.dataset.state, verdict: box.dataset.verdict,
                                    line: line ? line.textContent : '', label: label ? label.textContent : '',
                                    buttons: box.querySelectorAll('[data-action="try-case"]').length});
        }).observe(sec, {subtree: true, childList: true, attributes: true, attributeFilter: ['data-verdict', 'data-state']});
    }""")
    page.evaluate("window.__said = []")
    state, text = check_by_keyboard(page, "1", NO_CHECKS)
    seen = page.evaluate("window.__verdicts")
    early = [v for v in seen if v["state"] == "running" and v["verdict"] == "fail"]
    assert early, seen
    assert "still checking" in early[-1]["line"] and "/" not in early[-1]["line"] and early[-1]["buttons"] == 0
    box = section(page, "1").locator("[data-verdict]")
    label = box.locator(".case-label").inner_text()
    assert state == "fail" and early[-1]["label"] == label
    assert "still checking" not in text and "/" in section(page, "1").locator(".verdict-line").inner_text()
    summary = box.locator("[data-summary]").inner_text()
    assert "with invalid input" in summary
    # the first failing case: an invalid input whose message is not graded, so "Expected" is the exception type
    expected = box.locator(".verdict-details dt", has_text="Expected").locator("xpath=following-sibling::dd[1]")
    assert expected.inner_text().strip() == "ValueError"
    # one announcement (the early verdict is not one): not passed, with the counts, the first failing case's label
    # and why it failed
    announced = said(page)
    assert len(announced) == 1, announced
    headline = box.locator(".verdict-line").inner_text()
    assert announced[0].startswith(headline) and "not passed" in headline
    assert label.split(": ", 1)[1].split(" (")[0] in announced[0] and "Expected ValueError" in announced[0]
    # the list of failing cases: closed at first, opened from the keyboard, the first 50 of them with their calls
    listing = box.locator("[data-failing]")
    total = int(listing.get_attribute("data-failing"))
    assert total > 50 and listing.get_attribute("open") is None
    press(page, listing.locator("summary"))
    assert listing.get_attribute("open") is not None
    items = listing.locator("li")
    assert items.count() == 50 and f"of {total}" in listing.locator(".failing-count").inner_text()
    assert items.nth(0).locator(".failing-kind").inner_text() == "invalid input"
    assert items.nth(4).locator(".failing-call").inner_text().startswith("claim_support(")


def test_any_listed_case_can_be_tried_and_the_verdict_comes_back(en_page):
    page = en_page
    listing = section(page, "1").locator("[data-failing]")
    item = listing.locator("li").nth(3)
    call = item.locator(".failing-call").inner_text()
    press(page, item.locator('[data-action="try-listed"]'))
    wait_verdict(page, "1", ("idle", "error"))
    tried = section(page, "1").locator("[data-example-editor] .cm-content")
    source = tried.evaluate("el => el.cmTile ? el.cmTile.root.view.state.doc.toString() : el.textContent")
    assert source.startswith("claim_support(") and (call.rstrip(")…") in source or "…" in call)
    expected = section(page, "1").locator('[data-result-part="expected"] pre').inner_text()
    assert expected == "ValueError"
    back = section(page, "1").locator('[data-action="back-to-verdict"]')
    press(page, back)
    assert section(page, "1").locator("[data-failing]").get_attribute("open") is not None
    assert focused(page).startswith("p")  # the verdict's headline took focus


def test_the_open_list_of_failing_cases_is_one_stop_in_the_tab_order(en_page):
    """Fifty cases with Try and Trace each would be a hundred Tab stops: Tab reaches one case's two buttons and then
    leaves the list; the arrow keys (and Home, End) move to the same button of another case, passing over a case
    without buttons; Tab comes back to the case reached last. Every button stays in the page (mouse, screen readers)."""
    page = en_page
    listing = opened(page, "1")
    rows = listing.locator("li")
    tryable = [i for i in range(rows.count()) if rows.nth(i).locator('[data-action="try-listed"]').count()]
    assert len(tryable) >= 40 and listing.locator('[data-action="trace-listed"]').count() == len(tryable)
    assert len(tryable) < rows.count()  # one case at least has no complete call: passed over
    listing.locator("summary").focus()
    page.keyboard.press("Tab")
    assert focused_row(page, "1") == [tryable[0], "try-listed"]
    page.keyboard.press("Tab")
    assert focused_row(page, "1") == [tryable[0], "trace-listed"]
    page.keyboard.press("Tab")
    assert focused_row(page, "1") is None  # out of the list after one case's buttons
    page.keyboard.press("Shift+Tab")
    assert focused_row(page, "1") == [tryable[0], "trace-listed"]
    page.keyboard.press("ArrowDown")
    assert focused_row(page, "1") == [tryable[1], "trace-listed"]
    page.keyboard.press("End")
    assert focused_row(page, "1") == [tryable[-1], "trace-listed"]
    page.keyboard.press("ArrowUp")
    assert focused_row(page, "1") == [tryable[-2], "trace-listed"]
    page.keyboard.press("Shift+Tab")
    assert focused_row(page, "1") == [tryable[-2], "try-listed"]
    page.keyboard.press("Shift+Tab")
    assert focused_row(page, "1") is None
    page.keyboard.press("Tab")  # back into the list: at the case reached last
    assert focused_row(page, "1") == [tryable[-2], "try-listed"]
    page.keyboard.press("Home")
    assert focused_row(page, "1") == [tryable[0], "try-listed"]
    assert "↑" in listing.locator(".failing-keys").inner_text()  # the page says how
    # the mouse (or a screen reader's browse mode) can use any case's button: that case becomes the current one
    rows.nth(tryable[5]).locator('[data-action="trace-listed"]').focus()
    assert listing.locator("ol button:not([tabindex='-1'])").count() == 2
    assert rows.nth(tryable[5]).locator("button:not([tabindex='-1'])").count() == 2


def test_a_tried_case_is_announced_with_what_came_back_or_the_error(en_page):
    """ "Try this case" says which case, what the learner's code returned (or the error it raised) and what the case
    expects, not just "Done." """
    page = en_page
    listing = opened(page, "1")
    # a case the code answers with a value where a ValueError is expected
    item = listing.locator("li").nth(3)
    label = item.locator(".failing-label").inner_text()
    page.evaluate("window.__said = []")
    press(page, item.locator('[data-action="try-listed"]'))
    wait_verdict(page, "1", ("idle", "error"))
    announced = heard(page, "Tried case: ")
    value = section(page, "1").locator('[data-result-part="yours"] pre').inner_text()
    assert announced.startswith(f"Tried case: {label}. Your code returned {value[:40]}"), announced
    assert announced.endswith(" Expected: ValueError."), announced
    press(page, section(page, "1").locator('[data-action="back-to-verdict"]'))
    # a case on which the code raises: the error it raised
    item = opened(page, "1").locator("li", has_text="facts is None").first
    label = item.locator(".failing-label").inner_text()
    page.evaluate("window.__said = []")
    press(page, item.locator('[data-action="try-listed"]'))
    wait_verdict(page, "1", ("idle", "error"))
    announced = heard(page, "Tried case: ")
    assert announced.startswith(f"Tried case: {label}. Your code raised TypeError: "), announced
    assert "NoneType" in announced and announced.endswith(" Expected: ValueError."), announced
    press(page, section(page, "1").locator('[data-action="back-to-verdict"]'))
    assert page.werkbank_errors == []


def test_an_editor_the_page_moves_focus_into_lets_the_next_tab_move_on(en_page):
    """After "Try this case" the focus is in the scratch editor, as an editor reached with Tab: the next Tab moves on
    through the page and leaves the case's call as it was, instead of indenting it into an error."""
    page = en_page
    scratch = section(page, "1").locator("[data-example-block] .cm-content")
    scratch.focus()
    page.keyboard.press("End")  # a key other than Tab: in this editor, Tab indents from now on
    item = opened(page, "1").locator("li", has=page.locator('[data-action="try-listed"]')).first
    press(page, item.locator('[data-action="try-listed"]'))
    section(page, "1").locator('[data-result-part="yours"]').wait_for()  # the tried case has run: editable again
    assert scratch.evaluate("el => el === document.activeElement")
    call = scratch.inner_text()
    page.keyboard.press("Tab")
    assert not scratch.evaluate("el => el === document.activeElement")
    assert scratch.inner_text() == call
    press(page, section(page, "1").locator('[data-action="back-to-verdict"]'))


def test_trace_this_case_steps_through_the_call_by_keyboard(en_page):
    page = en_page
    item = section(page, "1").locator("[data-failing] li").nth(2)
    page.evaluate("window.__said = []")
    press(page, item.locator('[data-action="trace-listed"]'))
    trace = section(page, "1").locator("[data-trace]")
    poll(
        page,
        "() => ['done', 'failed'].includes(document.querySelector('[data-checkpoint=\"1\"] [data-trace]')"
        ".dataset.traceState)",
    )
    assert trace.get_attribute("data-trace-state") == "done"
    assert focused(page) == f"h3#{trace.locator('h3').get_attribute('id')}"
    status = trace.locator(".trace-status")
    first = status.inner_text()
    assert first.startswith("Step 1 of ") and "claim_support" in first
    steps = int(first.split(" of ")[1].split(":")[0])
    assert steps > 5
    # the lines that ran are marked with how often; the one about to run is the current one
    code = trace.locator(".trace-code")
    assert code.locator('li[data-ran="true"]').count() >= 5
    assert code.locator('li[data-ran="false"]').count() >= 1  # e.g. the branch for an unknown claim
    current = code.locator('li[aria-current="true"]')
    assert current.count() == 1 and current.get_attribute("data-line") == first.split("line ")[1].split(" ")[0]
    # Next step by keyboard, then the slider with the arrow keys and End
    press(page, trace.locator('[data-trace-control="next"]'))
    assert status.inner_text().startswith("Step 2 of ")
    assert said(page)[-1] == status.inner_text()  # each step is announced
    slider = trace.locator('[data-trace-control="slider"]')
    press(page, slider, "ArrowRight")
    assert status.inner_text().startswith("Step 3 of ")
    page.keyboard.press("End")
    last = status.inner_text()
    assert last.startswith(f"Step {steps} of {steps}") and "returns" in last
    assert trace.locator('[data-trace-control="next"]').get_attribute("aria-disabled") == "true"
    # the variables at that step, with the ones that changed marked
    press(page, trace.locator('[data-trace-control="first"]'))
    press(page, trace.locator('[data-trace-control="next"]'))
    names = trace.locator(".trace-vars tbody td.trace-var-name").all_inner_texts()
    assert any(name.startswith("claims") for name in names)
    for _ in range(6):
        press(page, trace.locator('[data-trace-control="next"]'))
    assert trace.locator('.trace-vars tr[data-changed="true"]').count() >= 1
    # from the step to its line in the learner's editor, by keyboard (past the open list of failing cases)
    line = int(status.inner_text().split("line ")[1].split(" ")[0])
    press(page, trace.locator('[data-trace-control="edit"]'))
    assert (
        page.evaluate("""() => {
        const el = document.activeElement;
        const view = el.cmTile && el.cmTile.root && el.cmTile.root.view;
        return el.matches('[data-checkpoint="1"] [data-editor] .cm-content') && view
            && view.state.doc.lineAt(view.state.selection.main.head).number;
    }""")
        == line
    )
    # the verdict is still there above the trace; closing the trace brings focus back to its button
    assert section(page, "1").locator("[data-failing]").count() == 1
    press(page, trace.locator('[data-trace-control="close"]'))
    assert trace.is_hidden() and focused(page) == "button[trace-listed]"
    assert page.werkbank_errors == []


def test_a_case_that_fails_only_after_earlier_calls_says_so_and_passes_when_tried(en_page):
    """A solution whose index of facts is a global every call adds to: its first failing case, called again on its
    own in the learner worker, passes, so the verdict tells a failure across calls (as `werkbank grade` does), not the
    case's own hint, and Try this case shows the expected value coming back."""
    page = en_page
    cli = grade_source(LESSON, "1", KEPT)
    assert cli["failure"]["alone"]
    page.evaluate("window.__said = []")
    state, text = check_by_keyboard(page, "1", KEPT)
    assert state == "fail" and f"{cli['passed']}/{cli['total']}" in text
    box = section(page, "1").locator("[data-verdict]")
    details = box.locator(".verdict-details")
    why = details.locator("dt", has_text="What this case checks").locator("xpath=following-sibling::dd[1]").inner_text()
    assert why == cli["failure"]["reason"] and why.startswith("This call went wrong only after the calls before it")
    assert cli["failure"]["hint"] in details.inner_text()
    assert "went wrong only after the calls before it" in heard(page, box.locator(".verdict-line").inner_text())
    press(page, details.locator('[data-action="try-case"]'))
    wait_verdict(page, "1", ("idle", "error"))
    got = section(page, "1").locator('[data-result-part="yours"] pre').inner_text()
    assert got == cli["failure"]["expected"]
    assert page.werkbank_errors == []


def test_in_arabic_the_verdict_and_the_trace_speak_arabic_and_keep_code_in_order(ar_page):
    """A failing Check of the reliability checkpoint's binning mistake in Arabic: the counts, the list and the
    trace are Arabic, and the case hint's interval and code are left-to-right isolates. The engine marks the values
    it fills into a sentence (the counts by kind, a label's parts) with Unicode isolates; the page shows each as an
    element of its own, never as the bare controls, which split a count from its words."""
    from werkbank.lessons import load_lesson

    page = ar_page
    mistake = load_lesson(ARABIC_LESSON).checkpoint("2").mistake("inner_edge_goes_down").source()
    state, _ = check_by_keyboard(page, "2", mistake)
    assert state == "fail"
    box = section(page, "2").locator("[data-verdict]")
    summary = box.locator("[data-summary]")
    assert "الحالات الفاشلة حسب النوع" in summary.inner_text()
    assert summary.locator("bdi").count() >= 1
    shown = box.evaluate(
        "el => [el.querySelector('[data-summary]').textContent,"
        " ...[...el.querySelectorAll('.failing-label')].map((l) => l.textContent)]"
    )
    assert not any(control in text for text in shown for control in "\u2066\u2067\u2068\u2069"), shown
    hint = box.locator(".verdict-details dd", has_text="searchsorted")
    assert hint.count() == 1
    runs = hint.locator(".ltr-run").all_inner_texts()
    assert "[0, bins − 1]" in runs and any("np.searchsorted(edges, p" in run for run in runs)
    listing = box.locator("[data-failing]")
    press(page, listing.locator("summary"))
    assert "كل الحالات التي أخفقت" in listing.locator("summary").inner_text()
    press(page, listing.locator("li").first.locator('[data-action="trace-listed"]'))
    poll(page, "() => document.querySelector('[data-checkpoint=\"2\"] [data-trace]').dataset.traceState === 'done'")
    trace = section(page, "2").locator("[data-trace]")
    status = trace.locator(".trace-status").inner_text()
    assert status.startswith("الخطوة 1 من ")
    press(page, trace.locator('[data-trace-control="last"]'))
    assert "تُرجع" in trace.locator(".trace-status").inner_text()
    # the code listing stays left to right inside the right-to-left page
    assert trace.locator(".trace-code").evaluate("el => getComputedStyle(el).direction") == "ltr"
    assert page.werkbank_errors == []


def test_in_arabic_a_tried_case_is_announced_in_arabic(ar_page):
    page = ar_page
    listing = opened(page, "2")
    assert (
        "↑" in listing.locator(".failing-keys").inner_text() and "Tab" in listing.locator(".failing-keys").inner_text()
    )
    item = listing.locator("li", has=page.locator('[data-action="try-listed"]')).first
    label = item.locator(".failing-label").inner_text()
    page.evaluate("window.__said = []")
    press(page, item.locator('[data-action="try-listed"]'))
    wait_verdict(page, "2", ("idle", "error"))
    announced = heard(page, "الحالة التي جُرِّبت: ")
    assert label in announced and "المتوقع: " in announced, announced
    assert "أرجعت شيفرتك " in announced or "أطلقت شيفرتك خطأً: " in announced, announced
    assert page.werkbank_errors == []


@pytest.mark.parametrize("kept_without_sources, why", [(False, "too long"), (True, "not kept after the reload")])
def test_the_first_failing_case_without_its_complete_call_says_why_it_cannot_be_tried(
    en_page, save_data_page, isolated_server, kept_without_sources, why
):
    """The first failing case's details offer Try and Trace only with its complete call; a case whose call was cut
    (too long to carry), or a verdict kept over a reload without its sources, says why instead of offering nothing."""
    import json

    read = "localStorage.getItem('werkbank:verdicts')"
    if "1" not in json.loads(en_page.evaluate(read) or "{}").get(LESSON, {}):
        check_by_keyboard(en_page, "1", NO_CHECKS)
    kept = json.loads(en_page.evaluate(read))
    verdict = kept[LESSON]["1"]["verdict"]
    assert verdict["status"] == "fail" and verdict["failure"]["call"]
    verdict["failure"]["call_source"] = None
    verdict["failure"]["call"] = verdict["failure"]["call"][:40] + "…"  # shown shortened: nothing runnable
    verdict["kept_without_sources"] = kept_without_sources
    page = save_data_page  # no Python: nothing runs here but the page
    open_lesson(page, isolated_server, ready="editors")
    page.evaluate("(kept) => localStorage.setItem('werkbank:verdicts', kept)", json.dumps(kept))
    page.reload()
    open_lesson(page, isolated_server, ready="editors")
    details = section(page, "1").locator("[data-verdict] .verdict-details")
    assert details.count() == 1
    assert details.locator('[data-action="try-case"], [data-action="trace-case"]').count() == 0
    assert why in details.locator(".failing-no-source").inner_text()


def test_after_a_reload_each_listed_case_can_be_tried_or_says_why_not(en_page, save_data_page, isolated_server):
    """The verdict kept over a reload lists its failing cases again: each can be tried and traced (the scratch
    editor is made when needed), or says why not (its complete call was not kept, or is too long)."""
    import json

    kept = en_page.evaluate("localStorage.getItem('werkbank:verdicts')")
    verdict = json.loads(kept)[LESSON]["1"]["verdict"]
    page = save_data_page  # no Python: nothing runs here but the page
    open_lesson(page, isolated_server, ready="editors")
    page.evaluate("(kept) => localStorage.setItem('werkbank:verdicts', kept)", kept)
    page.reload()
    open_lesson(page, isolated_server, ready="editors")
    assert section(page, "1").locator("[data-verdict]").get_attribute("data-restored") == "true"
    listing = opened(page, "1")
    rows = listing.locator("li")
    assert rows.count() == len(verdict["failing"])
    why = "not kept after the reload" if verdict.get("kept_without_sources") else "too long"
    offered = 0
    for i in range(rows.count()):
        row = rows.nth(i)
        tries, traces = (
            row.locator('[data-action="try-listed"]').count(),
            row.locator('[data-action="trace-listed"]').count(),
        )
        if tries or traces:
            assert tries == traces == 1, i
            offered += 1
        else:
            assert why in row.locator(".failing-no-source").inner_text(), i
    assert 0 < offered < rows.count()
    # Try works before anything else was used: the call goes into the scratch editor
    item = rows.filter(has=page.locator('[data-action="try-listed"]')).first
    call = item.locator(".failing-call").inner_text()
    press(page, item.locator('[data-action="try-listed"]'))
    assert poll(
        page,
        """(call) => {
            const el = document.querySelector('[data-checkpoint="1"] [data-example-editor] .cm-content');
            const view = el.cmTile ? el.cmTile.root.view : null;
            return (view ? view.state.doc.toString() : el.textContent).startsWith(call.slice(0, 30));
        }""",
        call,
        timeout=30,
    )


def test_a_kept_verdict_the_page_cannot_show_is_forgotten_and_the_page_works(save_data_page, isolated_server):
    """The browser keeps the last verdicts, so they may be damaged (or of an older form): one the page cannot show
    is dropped, that checkpoint starts idle, the others keep theirs, and every editor is built all the same."""
    import json

    page = save_data_page
    open_lesson(page, isolated_server, ready="editors")
    at = "2026-12-01T10:00:00Z"
    kept = {
        LESSON: {
            "1": {"verdict": {"status": "fail", "passed": 1, "total": 3, "failing": [None]}, "at": at},
            "2": {"verdict": {"status": "pass", "passed": 3, "total": 3}, "at": at},
        }
    }
    page.evaluate("(kept) => localStorage.setItem('werkbank:verdicts', kept)", json.dumps(kept))
    page.reload()
    open_lesson(page, isolated_server, ready="editors")
    first, second = (section(page, n).locator("[data-verdict]") for n in ("1", "2"))
    assert first.get_attribute("data-verdict") == "idle" and first.get_attribute("data-restored") is None
    assert second.get_attribute("data-restored") == "true"
    assert page.locator("[data-editor] .cm-editor").count() == page.locator("[data-editor]").count()
    stored = json.loads(page.evaluate("localStorage.getItem('werkbank:verdicts')"))
    assert list(stored[LESSON]) == ["2"]
    assert page.werkbank_errors == []
