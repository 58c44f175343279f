"""Fixtures for the Playwright browser tests (mark every test in here ``@pytest.mark.browser``).

From ``tests/conftest.py`` (available here too):

- ``dist``             the built site (a Path).
- ``plain_server``     ``python3 -m http.server`` on ``dist`` at a free loopback port: what a plain static host
                       does (no COOP/COEP). ``.url`` is ``http://127.0.0.1:N/``, ``.origin`` the same without ``/``.
- ``isolated_server``  ``werkbank serve`` on ``dist``: COOP/COEP/CORP headers, so ``crossOriginIsolated`` is true.

Defined here:

- ``browser``          one headless Chromium per session (``/usr/bin/chromium``, or ``$CHROMIUM``), launched through
                       Playwright's sync API with the flags every werkbank browser test uses.
- ``context``          a fresh browser context per test (empty localStorage, no service worker), closed afterwards.
- ``request_log``      a :class:`RequestLog` attached to ``context``: every request URL the pages, their workers and
                       service workers make, in order. ``request_log.foreign(origin)`` lists those that did not go
                       to ``origin``; ``request_log.assert_only(origin)`` fails the test if there are any.
- ``page``             a new page in ``context`` (so it is recorded by ``request_log``), with a 120 s default timeout;
                       console errors and page errors are collected in ``page.werkbank_errors`` (a list of str).

Example::

    @pytest.mark.browser
    def test_home(page, plain_server, request_log):
        page.goto(plain_server.url)
        ...
        request_log.assert_only(plain_server.origin)
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
_LOCAL_SCHEMES = ("data:", "blob:", "about:")


def chromium_path() -> str:
    """The Chromium executable: ``$CHROMIUM``, else /usr/bin/chromium, else ``chromium`` on PATH."""
    for candidate in (os.environ.get("CHROMIUM"), "/usr/bin/chromium", shutil.which("chromium")):
        if candidate and Path(candidate).exists():
            return candidate
    pytest.skip("Chromium is not installed (make chromium installs it)")


class RequestLog:
    """Every request URL seen by one browser context (pages, dedicated workers, service workers)."""

    def __init__(self) -> None:
        self.urls: list[str] = []

    def attach(self, context) -> "RequestLog":
        """Start recording the requests of ``context``."""
        context.on("request", lambda request: self.urls.append(request.url))
        return self

    def foreign(self, origin: str) -> list[str]:
        """Recorded URLs that went anywhere but ``origin`` (data:, blob: and about: URLs are local, not foreign)."""
        origin = origin.rstrip("/")
        return [u for u in self.urls if not u.startswith(_LOCAL_SCHEMES) and not (u == origin or u.startswith(origin + "/"))]

    def assert_only(self, origin: str) -> None:
        """Fail unless at least one request was seen and all of them went to ``origin``."""
        assert self.urls, "no request was recorded at all"
        foreign = self.foreign(origin)
        assert not foreign, f"requests left {origin}: {foreign}"


@pytest.fixture(scope="session")
def browser():
    """A headless Chromium for the whole session."""
    from playwright.sync_api import sync_playwright

    executable = chromium_path()
    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=executable, headless=True, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def context(browser):
    """A fresh browser context (own storage) for one test."""
    ctx = browser.new_context()
    yield ctx
    ctx.close()


@pytest.fixture
def request_log(context) -> RequestLog:
    """Records every request of ``context``; see :class:`RequestLog`."""
    return RequestLog().attach(context)


@pytest.fixture
def page(context, request_log):
    """A page in ``context`` with a generous timeout; errors land in ``page.werkbank_errors``."""
    pg = context.new_page()
    pg.set_default_timeout(120_000)
    errors: list[str] = []
    pg.on("pageerror", lambda exc: errors.append(f"pageerror: {exc}"))
    pg.on("console", lambda msg: errors.append(f"console.{msg.type}: {msg.text}") if msg.type == "error" else None)
    pg.werkbank_errors = errors
    return pg
