"""WebKit (WebKitGTK, Safari's engine: MiniBrowser through WebKitWebDriver): a learner's walk on a plain static host
and on ``werkbank serve`` (tests/engines/walk.py says what each walk proves). WebKitGTK is cross-origin isolated
without ``SharedArrayBuffer``; nothing needs it: Stop ends the worker in every engine."""

from __future__ import annotations

import pytest

from tests.derived import SITE_INPUTS, inputs_digest, stamped
from tests.engines.conftest import plain_server_cmd
from tests.engines.walk import isolated_host_walk, logged_walk, plain_host_walk

pytestmark = pytest.mark.browser
ENGINE = "webkit"


@pytest.fixture(scope="module")
def driver(engine_driver):
    return engine_driver(ENGINE)


#: What a walk in WebKit depends on besides WebKit's version: the site, every lesson, the engine, the walk itself and
#: the servers it walks on.
WALK_INPUTS = [*SITE_INPUTS, "tests/engines/*.py", "tests/engines/*.mjs", "werkbank/serve.py", "tests/conftest.py"]


def test_plain_host_walk(request, driver, server_factory, dist, walk_log):
    """Stamped (tests/derived.py), as the walk below: WebKit's walks (~90 s of one test process, most of it WebKit
    booting its pool of Pythons) run again when the site, a lesson, the engine, a walk or WebKit's version changes.
    Firefox's walks run every time."""

    def check():
        seen = logged_walk(driver, "plain host", plain_host_walk, server_factory(plain_server_cmd(dist)), walk_log)
        assert seen["isolated"] is True, "the service worker's reload makes a plain host's page cross-origin isolated"
        return seen

    digest = inputs_digest(WALK_INPUTS, {"webkit": driver.version})
    stamped("engine-walks", f"{ENGINE} plain host", digest, check, request=request)


def test_isolated_host_walk(request, driver, isolated_server, walk_log):
    """Stamped, as the walk above: the Arabic page on ``werkbank serve`` and a Stop before the spare is ready."""

    def check():
        seen = logged_walk(driver, "werkbank serve", isolated_host_walk, isolated_server, walk_log)
        assert seen["isolated"] is True
        return seen

    digest = inputs_digest(WALK_INPUTS, {"webkit": driver.version})
    stamped("engine-walks", f"{ENGINE} werkbank serve", digest, check, request=request)
