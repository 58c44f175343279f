"""Fixtures of the engine walks (Firefox and WebKit; Chromium has tests/browser/).

- ``engine_driver(engine)``: a :class:`tests.engines.drivers.Driver` for ``"firefox"`` or ``"webkit"``, with a fresh
  profile, closed at the end of the test module. An engine that cannot start fails the test with the reason
  (``make engines`` installs what is missing); it is never skipped.
- ``walk_log``: ``walk_log(line)`` keeps a walk's step times on the test's report; tests/conftest.py prints them at
  the end of the session (``make test`` shows them, across xdist), so a slow engine shows where its time went.

The servers are the shared ones of tests/conftest.py: ``server_factory`` (a plain static host a walk may stop, to go
offline) and ``isolated_server`` (``werkbank serve``).
"""

from __future__ import annotations

import sys

import pytest

from tests.engines.drivers import EngineUnavailable, open_engine


@pytest.fixture(scope="module")
def engine_driver(tmp_path_factory):
    opened = []

    def start(engine: str):
        try:
            driver = open_engine(engine, tmp_path_factory.mktemp(f"{engine}-profile"))
        except EngineUnavailable as error:
            pytest.fail(f"{engine} cannot start: {error}", pytrace=False)
        opened.append(driver)
        return driver

    yield start
    for driver in opened:
        driver.close()


@pytest.fixture
def walk_log(request):
    """``walk_log(line)``: a line for the session's summary (kept on the test's report, so it crosses xdist)."""
    return lambda line: request.node.user_properties.append(("engine walk", line))


def plain_server_cmd(dist) -> list[str]:
    """A plain static host (python3 -m http.server) on ``dist``: no COOP/COEP."""
    return [sys.executable, "-u", "-m", "http.server", "0", "--bind", "127.0.0.1", "--directory", str(dist)]
