"""One small interface over the three browser engines learners use, for the engine walks (tests/engines/) and the
per-engine benchmark (tests/bench/run.py).

- Chromium: Playwright, in a persistent profile (``launch_persistent_context``) like a learner's browser.
- Firefox: Debian's ``firefox-esr``, driven by npm ``puppeteer-core`` over WebDriver BiDi (``bidi_driver.mjs`` in
  a Node process); Playwright cannot drive a stock Firefox build, and BiDi needs no geckodriver.
- WebKit: Debian's ``webkit2gtk-driver`` (``WebKitWebDriver``), which starts ``MiniBrowser`` from
  ``libwebkit2gtk-4.1`` in automation mode, through PyPI ``selenium``'s ``webdriver.WebKitGTK``. It needs a display:
  :class:`Display` starts an ``Xvfb`` (Debian ``xvfb``) for it unless ``$DISPLAY`` is set. MiniBrowser's automation
  sessions keep their data in memory only, so each session is a fresh profile that lasts as long as the session.

``open_engine(name, profile_dir)`` returns a :class:`Driver`; an engine that cannot start raises
:class:`EngineUnavailable`, whose message says what is missing and which command installs it (``make engines``).
Everything the walks and the benchmark do goes through :meth:`Driver.evaluate` (a JS function's source, called with
one JSON argument in the page; a promise is awaited), which none of the three subjects to the page's CSP, plus real
clicks (:meth:`Driver.click`) and navigations.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import threading
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
ENGINES = ("chromium", "firefox", "webkit")
FIREFOX = os.environ.get("FIREFOX", "/usr/bin/firefox-esr")
WEBKIT_DRIVER = os.environ.get("WEBKIT_DRIVER", "/usr/bin/WebKitWebDriver")
MINIBROWSER = os.environ.get("MINIBROWSER", "/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
INSTALL_HINT = "make engines (as root: apt-get install -y firefox-esr webkit2gtk-driver xvfb; npm ci; pip -e .[test])"


class EngineUnavailable(RuntimeError):
    """A browser engine cannot start here; the message says why and what installs it."""


class EngineError(RuntimeError):
    """The driver of an engine reported an error for one request."""


def chromium_path() -> str | None:
    """The Chromium executable ($CHROMIUM, /usr/bin/chromium or chromium on PATH), or None."""
    for candidate in (os.environ.get("CHROMIUM"), "/usr/bin/chromium", shutil.which("chromium")):
        if candidate and Path(candidate).exists():
            return candidate
    return None


def missing(engine: str) -> str | None:
    """Why ``engine`` cannot start on this machine (a sentence naming the missing piece), or None."""
    if engine == "chromium":
        return None if chromium_path() else "Chromium is not installed (make chromium)"
    if engine == "firefox":
        if not Path(FIREFOX).exists():
            return f"Firefox is not installed at {FIREFOX} (FIREFOX=...): {INSTALL_HINT}"
        if not shutil.which("node"):
            return "node is not on PATH (Firefox is driven by puppeteer-core in Node)"
        if not (REPO_ROOT / "node_modules" / "puppeteer-core").is_dir():
            return f"node_modules/puppeteer-core is missing: {INSTALL_HINT}"
        return None
    if engine == "webkit":
        for path, what in (
            (WEBKIT_DRIVER, "WebKitWebDriver (Debian webkit2gtk-driver)"),
            (MINIBROWSER, "MiniBrowser (Debian libwebkit2gtk-4.1-0)"),
        ):
            if not Path(path).exists():
                return f"{what} is not installed at {path}: {INSTALL_HINT}"
        if not os.environ.get("DISPLAY") and not shutil.which("Xvfb"):
            return f"no $DISPLAY and no Xvfb (Debian xvfb) for WebKit's window: {INSTALL_HINT}"
        try:
            import selenium  # noqa: F401
        except ImportError:
            return f"PyPI selenium is not installed in this Python: {INSTALL_HINT}"
        return None
    return f"unknown engine {engine!r}"


class Display:
    """A virtual X display (``Xvfb -displayfd``) for WebKit, or the one ``$DISPLAY`` names."""

    def __init__(self) -> None:
        self.proc = None
        self.name = os.environ.get("DISPLAY")
        if self.name:
            return
        read, write = os.pipe()
        self.proc = subprocess.Popen(
            ["Xvfb", "-displayfd", str(write), "-screen", "0", "1280x1024x24", "-nolisten", "tcp"],
            pass_fds=(write,),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        os.close(write)
        number = b""
        deadline = time.monotonic() + 20
        with os.fdopen(read, "rb") as pipe:
            while not number.endswith(b"\n") and time.monotonic() < deadline:
                chunk = pipe.read(1)
                if not chunk:
                    break
                number += chunk
        if not number.strip().isdigit():
            self.close()
            raise EngineUnavailable("Xvfb did not start (it printed no display number)")
        self.name = f":{number.strip().decode()}"

    def close(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)


class Driver:
    """One browser window showing one page. Subclasses implement the primitives; the waits are built on them."""

    engine = ""
    version = ""

    # primitives
    def goto(self, url: str) -> None:
        """Navigate and return once the document has loaded (the site's runtime may still be booting)."""
        raise NotImplementedError

    def reload(self) -> None:
        raise NotImplementedError

    def evaluate(self, fn: str, arg=None):
        """Call the JS function whose source is ``fn`` with ``arg`` (JSON) in the page; its (awaited) value."""
        raise NotImplementedError

    def click(self, selector: str) -> None:
        """A real click on the first element matching the CSS ``selector``."""
        raise NotImplementedError

    def press(self, selector: str, key: str = "Enter") -> None:
        """Focus the first element matching ``selector`` and press ``key`` on the real keyboard."""
        raise NotImplementedError

    def add_init_script(self, script: str) -> bool:
        """Run ``script`` in every later document before its own scripts; False where the driver cannot."""
        return False

    def close(self) -> None:
        raise NotImplementedError

    def press_button(self, selector: str) -> None:
        """Press a button from the keyboard (focus, Enter), as a learner without a mouse does. A mouse click on a page
        still laying out (a loaded machine builds its editors late) can land beside the button and be lost."""
        self.wait(
            "(sel) => { const b = document.querySelector(sel); return Boolean(b) && b.offsetParent !== null; }",
            selector,
            timeout=30,
            what=f"{selector} visible",
        )
        self.press(selector, "Enter")

    # built on the primitives
    def wait(self, fn: str, arg=None, *, timeout: float = 120.0, what: str = "", interval: float = 0.05):
        """Evaluate ``fn`` until it returns something truthy; return that. On timeout, fail naming ``what`` and the
        page's runtime state."""
        deadline = time.monotonic() + timeout
        error = None
        while True:
            try:  # a page that navigates (the service worker's reload) has no document for a moment
                value = self.evaluate(fn, arg)
                error = None
            except Exception as exc:  # noqa: BLE001 - kept and reported if it lasts until the deadline
                value, error = None, exc
            if value:
                return value
            if time.monotonic() > deadline:
                try:
                    state = self.evaluate("() => document.body ? {...document.body.dataset} : null")
                except Exception as exc:  # noqa: BLE001
                    state = f"(not readable: {exc})"
                raise AssertionError(
                    f"{self.engine}: timed out after {timeout:.0f} s waiting for {what or fn}; "
                    f"body data: {state}" + (f"; last error: {error}" if error else "")
                )
            time.sleep(interval)

    def wait_selector(self, selector: str, *, timeout: float = 120.0) -> None:
        self.wait("(sel) => Boolean(document.querySelector(sel))", selector, timeout=timeout, what=selector)

    def attr(self, selector: str, name: str):
        return self.evaluate(
            "([sel, name]) => { const el = document.querySelector(sel); return el ? el.getAttribute(name) : null; }",
            [selector, name],
        )

    def text(self, selector: str) -> str | None:
        return self.evaluate(
            "(sel) => { const el = document.querySelector(sel); return el ? el.innerText : null; }", selector
        )

    def set_code(self, selector: str, code: str) -> None:
        """Replace the text of the CodeMirror editor whose content element matches ``selector`` by an edit the
        browser makes (select its content, ``insertText``: the DOM change CodeMirror reads, as from typing), never
        through CodeMirror's internals; then wait until the editor shows exactly ``code``."""
        ok = self.evaluate(
            """([sel, code]) => {
            const el = document.querySelector(sel);
            if (!el) return "no element " + sel;
            el.focus();
            getSelection().selectAllChildren(el);  // not execCommand("selectAll"): in a window without focus
            // (Firefox headless) that selects the whole document, and insertText is then refused
            if (!document.execCommand("insertText", false, code)) return "insertText was refused";
            return true; }""",
            [selector, code],
        )
        if ok is not True:
            raise AssertionError(f"{self.engine}: could not edit {selector}: {ok}")
        self.wait(
            """([sel, code]) => { const el = document.querySelector(sel);
            const lines = [...el.querySelectorAll('.cm-line')].map((l) => l.textContent).join('\\n');
            return lines.trim() === code.trim(); }""",
            [selector, code],
            timeout=10,
            what=f"the editor {selector} to show the new code",
        )


class ChromiumDriver(Driver):
    engine = "chromium"

    def __init__(self, profile_dir: Path) -> None:
        from playwright.sync_api import sync_playwright

        self._pw = sync_playwright().start()
        try:
            self._context = self._pw.chromium.launch_persistent_context(
                str(profile_dir), executable_path=chromium_path(), headless=True, args=CHROMIUM_ARGS
            )
        except Exception:
            self._pw.stop()
            raise
        self._context.on("page", lambda page: page.on("dialog", lambda dialog: dialog.accept()))
        self.page = self._context.pages[0] if self._context.pages else self._context.new_page()
        self.page.on("dialog", lambda dialog: dialog.accept())
        self.page.set_default_timeout(120_000)
        self.version = self._context.browser.version if self._context.browser else "?"

    def goto(self, url: str) -> None:
        self.page.goto(url)

    def reload(self) -> None:
        self.page.reload()

    def evaluate(self, fn: str, arg=None):
        return self.page.evaluate(fn, arg)

    def click(self, selector: str) -> None:
        self.page.click(selector)

    def press(self, selector: str, key: str = "Enter") -> None:
        self.page.press(selector, key)

    def add_init_script(self, script: str) -> bool:
        self._context.add_init_script(script)
        return True

    def close(self) -> None:
        try:
            self._context.close()
        finally:
            self._pw.stop()


class FirefoxDriver(Driver):
    engine = "firefox"

    def __init__(self, profile_dir: Path) -> None:
        self._proc = subprocess.Popen(
            ["node", str(Path(__file__).with_name("bidi_driver.mjs"))],
            cwd=REPO_ROOT,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            encoding="utf-8",
            bufsize=1,
        )
        self._next = 0
        self._stderr: list[str] = []
        threading.Thread(target=self._drain, daemon=True).start()
        try:
            self.version = self._call(
                "launch", executablePath=FIREFOX, userDataDir=str(profile_dir), headless=True, timeout=180
            )
        except Exception as error:
            self.close()
            raise EngineUnavailable(f"Firefox did not start: {error}") from error

    def _drain(self) -> None:
        for line in self._proc.stderr:
            self._stderr.append(line)
            del self._stderr[:-50]

    def _call(self, op: str, timeout: float = 300, **args):
        self._next += 1
        request = {"id": self._next, "op": op, **args}
        try:
            self._proc.stdin.write(json.dumps(request) + "\n")
            self._proc.stdin.flush()
        except (BrokenPipeError, OSError) as error:
            raise EngineError(f"firefox driver is gone: {''.join(self._stderr)[-2000:]}") from error
        result: list = []
        reader = threading.Thread(target=lambda: result.append(self._proc.stdout.readline()), daemon=True)
        reader.start()
        reader.join(timeout)
        if not result or not result[0]:
            raise EngineError(f"firefox driver: no answer to {op} in {timeout:.0f} s; {''.join(self._stderr)[-2000:]}")
        reply = json.loads(result[0])
        if reply.get("id") != request["id"]:  # a reply left over from a request that timed out
            raise EngineError(f"firefox driver: reply {reply.get('id')} to request {request['id']} ({op})")
        if not reply.get("ok"):
            raise EngineError(f"firefox {op}: {reply.get('error')}")
        return reply.get("value")

    def goto(self, url: str) -> None:
        self._call("goto", url=url)

    def reload(self) -> None:
        self._call("reload")

    def evaluate(self, fn: str, arg=None):
        return self._call("evaluate", fn=fn, arg=arg)

    def click(self, selector: str) -> None:
        self._call("click", selector=selector)

    def press(self, selector: str, key: str = "Enter") -> None:
        self._call("press", selector=selector, key=key)

    def viewport(self, width: int, height: int) -> None:
        """Lay the page out at ``width`` x ``height`` CSS pixels (a phone's, a tablet's)."""
        self._call("viewport", width=width, height=height)

    def press_button(self, selector: str) -> None:
        """A real mouse click: headless Firefox's window never has the focus (``document.hasFocus()`` is false), and
        key presses sent over BiDi to an element focused by script did not reach its handlers."""
        self.wait(
            "(sel) => { const b = document.querySelector(sel); return Boolean(b) && b.offsetParent !== null; }",
            selector,
            timeout=30,
            what=f"{selector} visible",
        )
        self.click(selector)

    def close(self) -> None:
        proc = self._proc
        if proc.poll() is None:
            try:
                self._call("close", timeout=30)
            except Exception:  # noqa: BLE001 - closing: whatever happened, the process goes below
                pass
            try:
                proc.stdin.close()
                proc.wait(15)
            except (subprocess.TimeoutExpired, OSError):
                proc.kill()
                proc.wait(5)


class WebKitDriver(Driver):
    engine = "webkit"

    def __init__(self, profile_dir: Path | None = None) -> None:
        from selenium import webdriver
        from selenium.webdriver.common.by import By

        self._by = By
        self._display = Display()
        options = webdriver.WebKitGTKOptions()
        options.binary_location = MINIBROWSER
        options.add_argument("--automation")
        env = dict(os.environ, DISPLAY=self._display.name)
        service = webdriver.WebKitGTKService(executable_path=WEBKIT_DRIVER, env=env)
        try:
            self._driver = webdriver.WebKitGTK(options=options, service=service)
        except Exception as error:
            self._display.close()
            raise EngineUnavailable(f"WebKit did not start: {error}") from error
        self._driver.set_script_timeout(300)
        self._driver.set_page_load_timeout(120)
        self.version = self._driver.capabilities.get("browserVersion", "?")

    def goto(self, url: str) -> None:
        self._driver.get(url)

    def reload(self) -> None:
        self._driver.refresh()

    def evaluate(self, fn: str, arg=None):
        return self._driver.execute_script(f"return ({fn})(arguments[0]);", arg)

    def click(self, selector: str) -> None:
        self._driver.find_element(self._by.CSS_SELECTOR, selector).click()

    def press(self, selector: str, key: str = "Enter") -> None:
        from selenium.webdriver.common.keys import Keys

        self._driver.find_element(self._by.CSS_SELECTOR, selector).send_keys(getattr(Keys, key.upper()))

    def close(self) -> None:
        try:
            self._driver.quit()
        finally:
            self._display.close()


def open_engine(engine: str, profile_dir: Path) -> Driver:
    """A driver for ``engine`` with its profile in ``profile_dir`` (a fresh folder makes a fresh profile; WebKit's
    automation sessions are always fresh). Raises :class:`EngineUnavailable` with the reason when it cannot start."""
    why = missing(engine)
    if why:
        raise EngineUnavailable(why)
    Path(profile_dir).mkdir(parents=True, exist_ok=True)
    if engine == "chromium":
        return ChromiumDriver(profile_dir)
    if engine == "firefox":
        return FirefoxDriver(profile_dir)
    return WebKitDriver(profile_dir)
