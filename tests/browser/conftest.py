"""Browser tests (Playwright + Chromium). Every test collected below this folder is marked ``browser``.

The fixtures they use live in ``tests/conftest.py`` so any test module can use them:

- ``dist``             the built site (a Path).
- ``plain_server``     ``python3 -m http.server`` on ``dist`` at a free loopback port: what a plain static host
                       does (no COOP/COEP). ``.url`` is ``http://127.0.0.1:N/``, ``.origin`` the same without ``/``.
- ``isolated_server``  ``werkbank serve`` on ``dist``: COOP/COEP/CORP headers, so ``crossOriginIsolated`` is true.
- ``browser``          headless Chromium (one per module), launched with ``CHROMIUM_ARGS``.
- ``context``          a fresh browser context per test.
- ``request_log``      every request URL of ``context`` (pages, workers, service workers);
                       ``request_log.assert_only(origin)`` fails if any request left ``origin``.
- ``page``             a page in ``context`` with a 120 s timeout; errors collected in ``page.werkbank_errors``.
- ``save_data_page``   the same, but Python does not boot as the page loads (only if the test runs code): for tests
                       that run none. ``SAVE_DATA`` is that init script, for contexts a test makes itself.
- ``lesson_pages``     ``lesson_pages(lesson, lang) -> page``: one booted lesson page per module, reset to a fresh
                       visit's state for each test that only drives it (type, Run, Check, read).

Every lesson or home page that boots Python costs about four times what the page alone does: prefer
``lesson_pages`` for a test that only drives a lesson, ``save_data_page`` for one that runs no code, and a page of
its own only for what loading itself does (see tests/conftest.py).

Shared helpers live in ``helpers.py`` (import them, never another test module): opening a lesson, waiting on state
(``wait_ready``, ``wait_editors``, ``wait_python``, ``wait_verdict``, ``wait_running``, ``wait_stored``), typing, Run
and Check, and
``drive_workers(page, server, repo_root, jobs)``, which sends protocol messages to the site's learner and grader
workers and returns the replies of each job; ``final(replies)``.

Example::

    @pytest.mark.browser
    def test_home(page, plain_server, request_log):
        page.goto(plain_server.url)
        ...
        request_log.assert_only(plain_server.origin)
"""

from __future__ import annotations

from pathlib import Path

import pytest

_HERE = Path(__file__).resolve().parent


def pytest_collection_modifyitems(config, items):
    """Mark every test in tests/browser/ as ``browser`` so ``-m "not browser"`` skips them all."""
    for item in items:
        if _HERE in Path(str(item.fspath)).resolve().parents:
            item.add_marker(pytest.mark.browser)
