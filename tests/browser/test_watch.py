"""`werkbank serve --watch` in real Chromium: pages reload after a rebuild, build errors show on the page, and no
page comes from a service worker, not even for a browser that saved the offline copy on an earlier visit."""

from __future__ import annotations

import shutil
import socket
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _serve(site: Path, port: int, *extra: str) -> list[str]:
    return [sys.executable, "-m", "werkbank.cli", "serve", "--dist", str(site), "--port", str(port), *extra]


@pytest.mark.browser
def test_watch_rebuilds_reloads_and_never_serves_from_a_service_worker(
    tmp_path, dist, save_data_page, server_factory, monkeypatch
):
    page = save_data_page  # every reload here would boot Python again, and nothing runs code
    exercises = tmp_path / "exercises"
    shutil.copytree(REPO / "exercises" / "_micropip-demo", exercises / "demo")
    site = tmp_path / "dist"
    shutil.copytree(dist, site)
    port = _free_port()
    lesson_url = f"http://127.0.0.1:{port}/lessons/micropip-demo/en.html"

    # An earlier visit on the ordinary server: the service worker takes over and saves the build.
    plain = server_factory(_serve(site, port))
    page.goto(lesson_url)
    page.wait_for_function("() => document.documentElement.dataset.offline === 'ready'", timeout=120_000)
    assert page.evaluate("() => navigator.serviceWorker.controller !== null")
    plain.stop()

    # Now the development server on the same origin, with a lesson folder the test may edit.
    monkeypatch.setenv("WERKBANK_EXERCISES", str(exercises))
    server_factory(_serve(site, port, "--watch"))
    page.reload()  # served by the old worker from its cache; the navigation fetches the self-removing sw.js
    page.wait_for_selector('meta[name="werkbank-dev"]', state="attached", timeout=60_000)
    page.wait_for_function("() => document.documentElement.dataset.offline === 'dev'")
    page.wait_for_function("() => navigator.serviceWorker.getRegistrations().then((r) => r.length === 0)")
    assert page.evaluate("() => navigator.serviceWorker.controller") is None
    assert page.evaluate("() => caches.keys()") == []
    page.wait_for_function("() => document.documentElement.dataset.devBuild !== undefined")

    # An edit reloads the open page with the new text.
    task = exercises / "demo" / "01-decode-link" / "task.en.md"
    task.write_text(task.read_text(encoding="utf-8") + "\nEdited while the page was open.\n", encoding="utf-8")
    # polled during the reload too, when the new document may have no body yet
    page.wait_for_function(
        "() => document.body?.textContent.includes('Edited while the page was open.')", timeout=60_000
    )

    # A broken lesson shows the build's one-line error on the page; fixing it reloads the page.
    toml = exercises / "demo" / "lesson.toml"
    good = toml.read_text(encoding="utf-8")
    toml.write_text(good.replace("listed =", "lsited =", 1), encoding="utf-8")
    page.wait_for_selector("#werkbank-dev-error", timeout=60_000)
    assert "did you mean 'listed'" in page.text_content("#werkbank-dev-error")
    toml.write_text(good, encoding="utf-8")
    page.wait_for_function("() => !document.getElementById('werkbank-dev-error')", timeout=60_000)
    assert "Edited while the page was open." in page.text_content("body")
    assert not [e for e in page.werkbank_errors if "werkbank" in e and "service worker" in e]
