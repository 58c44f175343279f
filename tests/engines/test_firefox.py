"""Firefox (Debian's firefox-esr over WebDriver BiDi): a learner's walk on a plain static host and on ``werkbank
serve`` (tests/engines/walk.py says what each walk proves)."""

from __future__ import annotations

import json

import pytest

from tests.engines.conftest import plain_server_cmd
from tests.engines.walk import isolated_host_walk, logged_walk, plain_host_walk

pytestmark = pytest.mark.browser
ENGINE = "firefox"


@pytest.fixture(scope="module")
def driver(engine_driver):
    return engine_driver(ENGINE)


def test_plain_host_walk(driver, server_factory, dist, walk_log):
    seen = logged_walk(driver, "plain host", plain_host_walk, server_factory(plain_server_cmd(dist)), walk_log)
    assert seen["isolated"] is True, "the service worker's reload makes a plain host's page cross-origin isolated"
    assert seen["sab"] == "function"


def test_isolated_host_walk(driver, isolated_server, walk_log):
    seen = logged_walk(driver, "werkbank serve", isolated_host_walk, isolated_server, walk_log)
    assert seen["isolated"] is True and seen["sab"] == "function"


#: Lesson pages with the most formulas, in both directions; a phone's viewport in CSS pixels.
PHONE = (390, 844)
WIDE_PAGES = ("perplexity-calibration/en.html", "perplexity-calibration/ar.html", "claims-abstention/en.html")


def test_no_page_is_wider_than_a_phone(driver, server_factory, dist):
    """Firefox draws MathML wider than the other engines, and a formula cannot wrap: a long inline one once made the
    perplexity lesson 406 pixels wide on a 390-pixel phone, in both directions. Every lesson page fits the width."""
    origin = server_factory(plain_server_cmd(dist)).origin
    driver.viewport(*PHONE)
    try:
        for page in WIDE_PAGES:
            driver.goto(f"{origin}/lessons/{page}")
            # this page, not the one before it still on screen while the navigation starts; after the service worker's
            # isolation reload (a first visit of this origin), the fonts laid out
            driver.wait(
                f"() => location.pathname === {json.dumps('/lessons/' + page)} && crossOriginIsolated"
                " && document.readyState === 'complete' && document.fonts.status === 'loaded'",
                timeout=120,
            )
            wide = driver.evaluate(
                """() => [document.documentElement.scrollWidth, innerWidth,
                    [...document.querySelectorAll('main *')].filter((el) => {
                        const box = el.getBoundingClientRect();
                        return box.width > 0 && (box.right > innerWidth + 1 || box.left < -1)
                            && !el.closest('.math-display, .math-inline-wide, pre, table, .cm-editor');
                    }).slice(0, 3).map((el) => el.tagName + '.' + el.className)]"""
            )
            assert wide[0] <= wide[1] and not wide[2], f"{page}: {wide}"
    finally:
        driver.viewport(1280, 800)
