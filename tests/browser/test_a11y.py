"""Accessibility: axe-core (npm, node_modules/axe-core) finds no serious or critical violation on any page, in both
themes and every language, before and after the learner used a checkpoint (verdict, Python error, hints, solution,
example result, plot).
"""

from __future__ import annotations

from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.browser.learner import (
    ARABIC_LESSON,
    LESSON,
    click,
    open_lesson,
    put_solution,
    replace_code,
    section,
    wait_for,
    wait_verdict,
)
from tests.conftest import SAVE_DATA
from tests.derived import SITE_INPUTS, inputs_digest, stamped

pytestmark = pytest.mark.browser

REPO = Path(__file__).resolve().parents[2]
AXE = REPO / "node_modules" / "axe-core" / "axe.min.js"
SERIOUS = ("serious", "critical")

#: What the pages axe reads depend on (tests/derived.py SITE_INPUTS) and axe-core and Chromium. The whole-site checks
#: below are stamped: they run again when any of these changes; the others run on every run.
A11Y_INPUTS = SITE_INPUTS


def _stamped_axe(request, browser, item, check, *helpers):
    """Run the axe ``check`` unless its stamp holds these inputs (A11Y_INPUTS, Chromium's version)."""
    digest = inputs_digest(A11Y_INPUTS, {"chromium": browser.version})
    stamped("axe", item, digest, check, helpers=(axe_violations, settle, *helpers), request=request)


def pages(dist: Path) -> list[str]:
    found = ["index.html"] + sorted(p.relative_to(dist).as_posix() for p in dist.glob("*/index.html"))
    found += sorted(p.relative_to(dist).as_posix() for p in (dist / "lessons").glob("*/*.html"))
    return found


def axe_violations(page) -> list[dict]:
    if not AXE.is_file():
        pytest.fail("axe-core is missing: run `make setup` (npm ci)")
    if not page.evaluate("typeof window.axe === 'object'"):
        page.add_script_tag(path=str(AXE))
    found = page.evaluate("""async () => {
        const result = await axe.run(document, {resultTypes: ['violations']});
        return result.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
            nodes: v.nodes.slice(0, 5).map(n => n.target.join(' ') + ' :: ' + (n.failureSummary || ''))}));
    }""")
    return [v for v in found if v["impact"] in SERIOUS]


def settle(page):
    """Wait until the page's scripts have mounted everything axe should see (editors, figures)."""
    page.wait_for_load_state("load")
    page.evaluate("""() => new Promise(resolve => {
        const done = () => document.querySelectorAll('[data-editor]').length
            === document.querySelectorAll('[data-editor] .cm-editor').length;
        const tick = () => done() ? requestAnimationFrame(() => resolve(true)) : setTimeout(tick, 50);
        tick();
    })""")


#: Pages opened with this query boot Python as usual; the others as for a learner who asked to save data (no Python
#: until they run code: tests/conftest.py SAVE_DATA), so checking a dozen pages does not boot three Pythons on each.
#: The runtime's own states (loading with its progress bar here, then running, verdicts, errors) are checked on the
#: page loaded with it and in test_no_serious_axe_violation_after_working_on_checkpoints.
WITH_PYTHON = "with-python"


def test_no_serious_axe_violation_on_any_page_in_either_theme(request, browser, isolated_server, dist):
    """Each page is loaded once and checked in the light theme, then again after the system turns dark (the page
    follows prefers-color-scheme live while the learner has not picked a theme). The first lesson page is loaded
    twice: saving data, and booting Python (its runtime still loading). Stamped (A11Y_INPUTS)."""

    def check():
        context = browser.new_context(bypass_csp=True, color_scheme="light", service_workers="block")
        context.add_init_script(SAVE_DATA)
        try:
            page = context.new_page()
            page.set_default_timeout(120_000)
            report = {}
            found = pages(dist)
            lesson = next(path for path in found if path.startswith("lessons/"))
            for path in [*found, f"{lesson}?{WITH_PYTHON}"]:
                page.emulate_media(color_scheme="light")
                page.goto(isolated_server.url + path)
                settle(page)
                # early.js marks the learner worker it starts
                booting = page.evaluate("performance.getEntriesByName('werkbank:early').length") == 1
                assert booting == path.endswith(WITH_PYTHON), (path, booting)  # the mode each page was meant to be in
                for theme in ("light", "dark"):
                    page.emulate_media(color_scheme=theme)
                    page.wait_for_selector(f"html[data-theme={theme}]", state="attached")
                    bad = axe_violations(page)
                    if bad:
                        report[f"{path} ({theme})"] = bad
            assert report == {}, report
            return f"{len(found) + 1} pages in both themes: no serious violation"
        finally:
            context.close()

    _stamped_axe(request, browser, "every page, both themes", check, pages)


@pytest.mark.parametrize(
    "lang, lesson, themes",
    [("en", LESSON, ["light", "dark"]), ("ar", ARABIC_LESSON, ["dark", "light"])],
)
def test_no_serious_axe_violation_after_working_on_checkpoints(request, browser, isolated_server, lang, lesson, themes):
    """The page after work, left to right and right to left, in the theme it loaded in and after the system turned
    to the other one (the page follows the system theme live). The languages differ in words only: every page in
    every language is checked in both themes above. Stamped (A11Y_INPUTS)."""

    def check():
        context = browser.new_context(bypass_csp=True, color_scheme=themes[0], service_workers="block")
        try:
            page = context.new_page()
            page.set_default_timeout(120_000)
            open_lesson(page, isolated_server, lang=lang, lesson=lesson)
            # checkpoint 1: a Python error explained first, two hints, the example run
            replace_code(page, "1", "def f(:\n")
            click(page, "1", "check")
            wait_verdict(page, "1")
            click(page, "1", "hint")
            click(page, "1", "hint")
            click(page, "1", "run")
            wait_verdict(page, "1", ("idle", "error"))
            # checkpoint 3: the reference solution shown and passed (the reliability plot, on the Arabic lesson)
            put_solution(page, "3")
            click(page, "3", "check")
            wait_verdict(page, "3")
            # checkpoint 2: a failing verdict with its case details, that case traced (its first step: the line about
            # to run is marked) and the list of failing cases open
            click(page, "2", "check")
            wait_verdict(page, "2")
            assert section(page, "2").locator(".verdict-details").count() == 1
            click(page, "2", "trace-case")
            wait_for(page, '[data-checkpoint="2"] [data-trace][data-trace-state="done"]')
            assert section(page, "2").locator('[data-trace] li[aria-current="true"]').count() == 1
            listing = section(page, "2").locator("[data-failing] summary")
            if listing.count():
                listing.focus()
                page.keyboard.press("Enter")
            for theme in themes:
                page.emulate_media(color_scheme=theme)
                page.wait_for_selector(f"html[data-theme={theme}]", state="attached")
                bad = axe_violations(page)
                assert bad == [], (theme, bad)
            return f"{lang} {lesson} after work, {' then '.join(themes)}: no serious violation"
        finally:
            context.close()

    _stamped_axe(request, browser, f"after work: {lang} {lesson}", check)


def test_no_serious_axe_violation_on_a_phone(request, browser, isolated_server, dist):
    """At 390 x 844 (a phone) a checkpoint's task and work are tabs (web/src/layout.js): the home page and each lesson
    page, first as loaded (every task tab selected), then with every checkpoint's work tab selected, in the dark
    theme (the lower contrast of the two) and, on the Arabic pages, right to left. The phone has a touch screen and
    no keyboard, so the editors' keys line (Tab, Ctrl+Enter) is not shown. Stamped (A11Y_INPUTS)."""

    def check():
        context = browser.new_context(
            bypass_csp=True,
            color_scheme="dark",
            viewport={"width": 390, "height": 844},
            service_workers="block",
            has_touch=True,
            is_mobile=True,
        )
        context.add_init_script(SAVE_DATA)
        try:
            page = context.new_page()
            page.set_default_timeout(120_000)
            report = {}
            paths = [p for p in pages(dist) if p.endswith("index.html") or "/ar." in p or "/en." in p]
            assert any(p.startswith("lessons/") for p in paths) and any("/ar." in p for p in paths), paths
            for path in paths:
                page.goto(isolated_server.url + path)
                settle(page)
                states = ["loaded"]
                work_tabs = page.locator('[role="tab"][data-tab="work"]')
                if path.startswith("lessons/"):
                    assert work_tabs.count() >= 1 and work_tabs.first.is_visible(), path  # the phone layout is on
                    states.append("work tabs")
                for state in states:
                    if state == "work tabs":
                        for i in range(work_tabs.count()):
                            work_tabs.nth(i).click()
                        assert page.locator('[data-panel="work"]:not([hidden])').count() == work_tabs.count()
                        keys = page.locator(".keys")
                        assert keys.count() >= 1 and not any(keys.nth(i).is_visible() for i in range(keys.count()))
                    bad = axe_violations(page)
                    if bad:
                        report[f"{path} ({state})"] = bad
            assert report == {}, report
            return f"{len(paths)} pages on a touch phone: no serious violation, no keys line"
        finally:
            context.close()

    _stamped_axe(request, browser, "a touch phone", check, pages)


@contextmanager
def lesson_without_python(browser, server, width, height, path=f"{LESSON}/en.html"):
    """A lesson page (the claims lesson in English) at ``width`` x ``height``, its editors mounted, no Python booted
    (``SAVE_DATA``)."""
    context = browser.new_context(viewport={"width": width, "height": height}, service_workers="block")
    context.add_init_script(SAVE_DATA)
    try:
        page = context.new_page()
        page.goto(server.url + f"lessons/{path}")
        settle(page)
        yield page
    finally:
        context.close()


def test_the_work_column_is_a_named_region_on_wide_screens_and_a_tab_panel_on_narrow_ones(browser, isolated_server):
    """On wide screens a checkpoint's work column (editor, buttons, verdict, output) scrolls on its own, and browsers
    make such a column a tab stop (Firefox does, even with focusable content): it must then be something with a name,
    a region named after its checkpoint. On a phone it is the work tab's panel, named by that tab; back on a wide
    screen it is the region again."""
    from playwright.sync_api import expect

    with lesson_without_python(browser, isolated_server, 1280, 800) as page:
        works = page.locator('[data-panel="work"]')
        assert works.count() == 3
        for width in (1280, 390, 1280):
            page.set_viewport_size({"width": width, "height": 800})
            for i in range(works.count()):
                work = works.nth(i)
                title = page.locator(f'[data-checkpoint="{i + 1}"] .cp-title').inner_text()
                if width > 900:
                    expect(work).to_have_attribute("role", "region")
                    expect(work).to_have_accessible_name(f"Checkpoint {i + 1} {title} Code")
                else:
                    expect(work).to_have_attribute("role", "tabpanel")
                    page.locator(f'[data-checkpoint="{i + 1}"] [role="tab"][data-tab="work"]').click()
                    expect(work).to_have_accessible_name("Code")


#: How far a focus ring reaches past its element: site.css's outline (2px) and outline-offset (2px).
RING = 4


@pytest.mark.parametrize("path", [f"{LESSON}/en.html", "perplexity-calibration/ar.html"])
def test_focus_rings_in_the_work_column_are_not_cut_off(browser, isolated_server, path):
    """On a wide screen the work column scrolls on its own, so it clips what reaches past its padding: the editor's
    and the buttons' focus rings lost the side where lines start (left in English, right in Arabic). Every focusable
    control of the column, ring included, fits inside it, in both directions."""
    with lesson_without_python(browser, isolated_server, 1280, 800, path) as page:
        cut = page.evaluate(
            """(ring) => {
                const cut = [];
                for (const work of document.querySelectorAll('[data-panel="work"]')) {
                    const box = work.getBoundingClientRect();
                    const left = box.left + work.clientLeft, right = left + work.clientWidth;
                    const controls = work.querySelectorAll('.cm-editor, button, a[href], summary, select, input');
                    for (const control of controls) {
                        const own = control.getBoundingClientRect();
                        if (!own.width || control.closest('[hidden]')) continue;
                        if (own.left - ring < left - 0.5 || own.right + ring > right + 0.5)
                            cut.push([control.className || control.tagName, own.left - left, right - own.right]);
                    }
                }
                return cut;
            }""",
            RING,
        )
        assert cut == [], cut


#: Controls smaller than WCAG 2.2's 24 CSS pixels (2.5.8) on the page, links within running text left out.
SMALL_TARGETS = """() => [...document.querySelectorAll('a[href], button, select, input, summary, [role="tab"]')]
    .filter((el) => {
        const box = el.getBoundingClientRect();
        if (!box.width || !box.height) return false;
        if (el.matches('a') && el.closest('p, li, td, dd') && !el.closest('.lang-switch, .start-steps')) return false;
        return box.height < 23.5 || box.width < 23.5;
    })
    .map((el) => `${el.tagName} in .${el.parentElement.className}: ${Math.round(el.getBoundingClientRect().width)} x `
        + `${Math.round(el.getBoundingClientRect().height)}`)"""


@pytest.mark.parametrize("path", [f"{LESSON}/en.html", "perplexity-calibration/ar.html"])
def test_every_control_is_a_target_of_24_pixels_on_a_phone(browser, isolated_server, path):
    """On a phone the language links (18 px tall), the start card's links to the checkpoints (20 px) and the figures'
    selects and sliders (16-19 px) were smaller than a finger's 24 CSS pixels; every control is at least that, links
    within running text aside (WCAG 2.2 lets those be)."""
    with lesson_without_python(browser, isolated_server, 390, 844, path) as page:
        page.wait_for_selector(".figure select, .figure input, [class$='-control'] input", state="attached")
        assert page.evaluate(SMALL_TARGETS) == []


def test_on_a_tablet_tab_from_the_task_reaches_the_code(browser, isolated_server):
    """Where the task and the work are tabs (an iPad held upright), a learner who reads the task with Tab, not knowing
    the tabs' arrow keys, comes to a button that opens the code with the caret in the editor, before anything of the
    next checkpoint; on a wide screen, where both show, there is no such button."""
    from playwright.sync_api import expect

    with lesson_without_python(browser, isolated_server, 820, 1180) as page:
        first = page.locator('[data-checkpoint="1"]')
        first.locator('[role="tab"][data-tab="task"]').focus()
        on_button = "() => document.activeElement && document.activeElement.closest('[data-to-work]') !== null"
        for _ in range(30):
            page.keyboard.press("Tab")
            if page.evaluate(on_button):
                break
            assert page.evaluate("() => document.activeElement.closest('[data-checkpoint]')?.dataset.checkpoint") == "1"
        assert page.evaluate(on_button), "Tab from the task never reached the way to the code"
        page.keyboard.press("Enter")
        expect(first.locator('[role="tab"][data-tab="work"]')).to_have_attribute("aria-selected", "true")
        expect(first.locator('[data-panel="work"]')).to_be_visible()
        expect(first.locator('[data-panel="task"]')).to_be_hidden()
        assert page.evaluate("() => document.activeElement.matches('[data-editor] .cm-content')")
        page.keyboard.type("# mine")
        assert "# mine" in first.locator("[data-editor] .cm-content").inner_text()
        page.set_viewport_size({"width": 1280, "height": 800})
        expect(first.locator("[data-to-work]")).to_be_hidden()
        expect(first.locator('[data-panel="task"]')).to_be_visible()
