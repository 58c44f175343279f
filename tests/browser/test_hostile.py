"""Runaway and hostile learner code, through the lesson page's editors in real Chromium.

Each case runs the way a learner would: code typed into a checkpoint's editor (or the free "try" editor), then Run,
Check or Stop. One page on ``werkbank serve`` is shared by the whole module (Python boots once); every test leaves
Python ready again. Stop ends the job's worker whatever the host (runtime.js never branches on isolation; Stop on a
plain static host: tests/engines/walk.py, in Firefox and WebKit); what learner code can reach on a host that sends
no policy headers: test_confinement.py.
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import pytest

from werkbank.lessons import load_lesson
from tests.conftest import SAVE_DATA

from tests.browser.helpers import (
    KEY,
    LESSON,
    check,
    click,
    editor_text,
    open_lesson,
    passed_ids,
    poll,
    replace_code,
    run,
    section,
    stored,
    wait_for,
    wait_running,
    wait_stored,
    wait_ready,
    wait_verdict,
)
from tests.browser.learner import heard, listen

pytestmark = pytest.mark.browser

CATALOG = json.loads((Path(__file__).resolve().parents[2] / "werkbank/catalog/en.json").read_text("utf-8"))


def ui(key):
    """The English UI string `key` from the site's catalog."""
    return CATALOG[key]


SOLUTION = load_lesson(LESSON).checkpoint("1").solution()
CRASHED = "Python crashed and was restarted"


# ---------------------------------------------------------------- one shared page per server

#: Records every content-security-policy violation of a page (test_editing_run_check_and_stop_cause_no_csp_violation).
CSP_LISTENER = (
    "window.__cspViolations = [];"
    "document.addEventListener('securitypolicyviolation',"
    " (e) => window.__cspViolations.push(e.violatedDirective + ' ' + e.blockedURI));"
)


@pytest.fixture(scope="module")
def pages(browser, request):
    """``get(server_name) -> page``: one lesson page per server for the whole module, service workers blocked."""
    made = {}

    def get(name):
        if name not in made:
            server = request.getfixturevalue(name)
            context = browser.new_context(service_workers="block")
            context.add_init_script(CSP_LISTENER)
            page = context.new_page()
            page.set_default_timeout(120_000)
            page.dialogs = []
            page.on("dialog", lambda d, p=page: (p.dialogs.append(d.message), d.dismiss()))
            open_lesson(page, server)
            assert page.evaluate("crossOriginIsolated") == (name == "isolated_server")
            page.csp_at_load = page.evaluate("window.__cspViolations.slice()")
            made[name] = (context, page)
        page = made[name][1]
        wait_ready(page)  # a previous test may have left Python restarting
        return page

    yield get
    for context, _ in made.values():
        context.close()


@pytest.fixture
def iso(pages):
    """The shared page on the cross-origin isolated server."""
    return pages("isolated_server")


def clean_checkpoints(page):
    """Put checkpoint 1's starter back: the free editor runs the checkpoints' code first (the learner's functions),
    so a hostile program left in checkpoint 1 would run again there."""
    replace_code(page, "1", load_lesson(LESSON).checkpoint("1").starter("en"))


def assert_next_run_works(page, cp="try"):
    wait_ready(page)
    if cp == "try":
        clean_checkpoints(page)
    state, _, out = run(page, cp, "print('next', 6 * 7)\n")
    assert "next 42" in out, (state, out)


def stop_after(page, cp, code, *, while_running=None):
    """Run `code`, check it is still running after a moment (and `while_running(page)`), press Stop, and return how
    many seconds the Stop took to show "stopped"."""
    replace_code(page, cp, code)
    section(page, cp).locator('button[data-action="run"]').first.click()
    stop = section(page, cp).locator('button[data-action="stop"]').first
    stop.wait_for(state="visible")
    wait_running(page, cp)
    if while_running:
        while_running(page)
    started = time.monotonic()
    stop.click()
    sel = f'[data-checkpoint="{cp}"]' if cp != "try" else "[data-playground]"
    wait_for(page, f'{sel} [data-verdict][data-stopped="true"]', timeout=15)
    return time.monotonic() - started


# ---------------------------------------------------------------- sleep, input


def test_stop_ends_a_long_sleep(iso):
    page = iso
    took = stop_after(page, "try", "import time\nprint('sleeping')\ntime.sleep(10**6)\nprint('woke')\n")
    assert took < 10
    assert "time.sleep(10**6)" in editor_text(page, "try")
    assert "woke" not in section(page, "try").locator("[data-output]").inner_text()
    assert_next_run_works(page)


def test_input_in_a_run_gives_eoferror_at_once(iso):
    started = time.monotonic()
    state, _, out = run(iso, "try", "name = input('Name? ')\nprint('hello', name)\n")
    assert time.monotonic() - started < 20
    assert state == "error" and "EOFError" in out and "hello" not in out
    assert_next_run_works(iso)


# ---------------------------------------------------------------- recursion


def test_endless_recursion_gives_a_short_recursionerror(iso):
    state, text, out = run(iso, "try", "def f():\n    f()\n\nf()\n")
    assert state == "error", text
    assert "RecursionError" in out
    assert len(out) < 5_000, f"the traceback is not short: {len(out)} characters"
    assert_next_run_works(iso)


def test_an_expression_nested_too_deeply_is_a_syntax_error_not_a_crash(iso):
    """200 brackets inside one another overflow a browser worker's stack inside Python's parser (a fatal crash of
    Pyodide, where CPython goes on): the engine refuses it before compiling, the same SyntaxError as on the command
    line, and the page says which line."""
    code = "x = 1\ny = " + "[" * 200 + "]" * 200 + "\nprint(y)\n"
    state, text, out = run(iso, "try", code)
    assert state == "error" and CRASHED not in text, (state, text)
    assert "SyntaxError" in out and "nested too deeply" in out, out[-500:]
    assert iso.locator('[data-warning="runtime_crashed"]').count() == 0
    assert_next_run_works(iso)


def test_deep_recursion_with_raised_limit_restarts_or_raises(iso):
    code = "import sys\nsys.setrecursionlimit(10**6)\n\ndef f(n):\n    return f(n + 1)\n\nf(0)\n"
    state, text, out = run(iso, "try", code)
    crashed = CRASHED in text
    assert crashed or "RecursionError" in out or "MemoryError" in out, (state, text, out[-500:])
    if crashed:
        assert iso.locator('[data-warning="runtime_crashed"]').count() == 1
    assert editor_text(iso, "try").strip() == code.strip()  # the learner's code survived
    assert_next_run_works(iso)
    # the raised limit did not outlive the run
    _, _, out = run(iso, "try", "import sys\nprint('limit', sys.getrecursionlimit() < 10**6)\n")
    assert "limit True" in out


# ---------------------------------------------------------------- memory


@pytest.mark.parametrize(
    "code, errors",
    [
        # 3 GiB and 10**10 items do not even fit a 32-bit index on wasm32: CPython refuses them before allocating
        ("data = bytearray(3 * 2**30)\nprint(len(data))\n", ("MemoryError", "OverflowError")),
        ("data = [0] * 10**10\nprint(len(data))\n", ("MemoryError", "OverflowError")),
        # 10**9 items (4 GB of pointers) fit the index but not the memory
        ("data = [0] * 10**9\nprint(len(data))\n", ("MemoryError",)),
    ],
    ids=["bytearray-3GiB", "list-1e10", "list-1e9"],
)
def test_huge_allocation_is_an_error_and_the_page_stays_usable(iso, code, errors):
    state, text, out = run(iso, "try", code)
    assert CRASHED in text or (state == "error" and any(e in out for e in errors)), (state, text, out[-500:])
    assert iso.evaluate("1 + 1") == 2  # the page itself answers
    assert_next_run_works(iso)


# ---------------------------------------------------------------- output floods


def test_endless_printing_is_capped_and_stop_works(iso):
    page = iso
    out = section(page, "try").locator("[data-output]")

    def capped(pg):
        wait_for(pg, "[data-playground] [data-output] .output-notice", timeout=30)

    # lines of 1000 characters: the cap comes after a few hundred prints, well inside the Run's time limit (30 s) even
    # on a loaded machine, where 100 000 one-character prints could outlast it and end the run before Stop
    stop_after(page, "try", "while True:\n    print('x' * 999)\n", while_running=capped)
    assert out.locator(".output-notice").count() == 1
    assert ui("output_truncated").split("{")[0] in out.inner_text()
    size = page.evaluate("() => document.querySelector('[data-playground] [data-output]').textContent.length")
    assert 100_000 < size < 300_000
    assert_next_run_works(page)


def test_endless_short_lines_are_capped_by_lines_and_stop_works(iso):
    """print("x") in a loop reaches the character cap only after ~100 000 lines; laying out a pane that long froze
    the page for seconds at each chunk, and Stop waited behind it. The pane keeps 2000 lines and says so, while the
    program goes on printing, and Stop ends it."""
    page = iso
    out = section(page, "try").locator("[data-output]")

    def capped(pg):
        wait_for(pg, "[data-playground] [data-output] .output-notice", timeout=60)
        pg.wait_for_timeout(500)  # the program goes on printing while the pane is capped

    stop_after(page, "try", "while True:\n    print('x')\n", while_running=capped)
    text = out.inner_text()
    assert ui("output_truncated_lines").replace("{lines}", "2000") in text
    assert text.count("x\n") == 2000 and out.locator(".output-notice").count() == 1
    assert_next_run_works(page)


def test_a_check_waiting_behind_a_run_says_so_and_a_stop_is_not_said_of_the_next_run(iso):
    """A Check asked for while another editor's code runs waits for it, and says that, naming the checkpoint whose
    code it waits for (not that Python is loading); after a Stop, the next Run's verdict no longer carries the Stop's
    mark."""
    page = iso
    replace_code(page, "1", "while True:\n    pass\n")
    click(page, "1", "run")
    wait_running(page, "1")
    replace_code(page, "2", load_lesson(LESSON).checkpoint("2").starter("en"))
    page.keyboard.press("Control+Enter")  # from the editor (its Check button does the same)
    waiting = section(page, "2").locator("[data-verdict]")
    poll(
        page,
        "(t) => document.querySelector('[data-checkpoint=\"2\"] [data-verdict]').innerText.trim() === t",
        ui("verdict_queued_behind_n").replace("{n}", "1"),  # which code it waits for
    )
    assert waiting.get_attribute("data-verdict") == "running"
    click(page, "1", "stop")
    wait_for(page, '[data-checkpoint="1"] [data-verdict][data-stopped="true"]', timeout=30)
    assert wait_verdict(page, "2")[0] == "fail"  # the starter, once the Stop let it run
    state, _, out = run(page, "1", "print('after the stop')\n")
    assert "after the stop" in out
    assert section(page, "1").locator("[data-verdict]").get_attribute("data-stopped") is None
    clean_checkpoints(page)


ENDLESS = "while True:\n    pass\n"


def _run_endlessly_and_listen(page):
    """Checkpoint 1 runs a loop that never ends; from then on what the page says aloud is recorded (``heard``)."""
    replace_code(page, "1", ENDLESS)
    click(page, "1", "run")
    wait_running(page, "1")
    listen(page)


def test_reset_while_the_code_runs_changes_nothing_and_says_to_stop_first(iso):
    """Reset pressed while the checkpoint's code runs used to put the starter in and say "reset" while the run went
    on (and a Stop then said the code was still in the editor): the editor and the run are left as they are, and the
    page says to stop first, aloud and on the screen (once, however often Reset is pressed), until the run ends."""
    page = iso
    _run_endlessly_and_listen(page)
    click(page, "1", "reset")
    heard(page, ui("reset_while_running"))
    assert editor_text(page, "1").strip() == ENDLESS.strip()
    assert section(page, "1").locator("[data-verdict]").get_attribute("data-verdict") == "running"
    click(page, "1", "reset")
    note = section(page, "1").locator("[data-verdict] [data-busy-note]")
    assert note.count() == 1 and note.inner_text() == ui("reset_while_running")
    click(page, "1", "stop")
    wait_for(page, '[data-checkpoint="1"] [data-verdict][data-stopped="true"]', timeout=30)
    assert note.count() == 0
    clean_checkpoints(page)


def test_run_or_check_pressed_while_code_runs_says_why_here_and_waits_its_turn_elsewhere(iso):
    """Pressed in the checkpoint whose code runs, Run and Check say to wait or stop, aloud and under "Running…" (one
    note however often pressed), and the run goes on. Pressed in another checkpoint they used to do nothing but say
    aloud which code ran, while Ctrl+Enter in its editor queued the job: the button now does what the key does. The job
    waits its turn, its verdict area says (and the page says aloud) which checkpoint's code it waits for, and it runs
    once that code ends."""
    page = iso
    _run_endlessly_and_listen(page)
    click(page, "1", "check")
    heard(page, ui("run_while_running"))
    click(page, "1", "run")
    note = section(page, "1").locator("[data-verdict] [data-busy-note]")
    assert note.count() == 1 and note.inner_text() == ui("run_while_running")
    assert section(page, "1").locator("[data-verdict]").get_attribute("data-verdict") == "running"
    replace_code(page, "2", "print('my turn')\n")
    click(page, "2", "run")
    waiting = ui("verdict_queued_behind_n").replace("{n}", "1")
    heard(page, waiting)
    box = section(page, "2").locator("[data-verdict]")
    assert box.get_attribute("data-verdict") == "running" and box.inner_text().strip() == waiting
    assert section(page, "2").locator('[data-action="stop"]').is_visible()  # the queued job can be dropped
    click(page, "1", "stop")
    wait_for(page, '[data-checkpoint="1"] [data-verdict][data-stopped="true"]', timeout=30)
    assert note.count() == 0
    wait_for(page, '[data-checkpoint="2"] [data-verdict]:not([data-verdict="running"])', timeout=60)
    assert "my turn" in section(page, "2").locator("[data-output]").inner_text()
    clean_checkpoints(page)
    replace_code(page, "2", load_lesson(LESSON).checkpoint("2").starter("en"))  # the free editor runs it first too


def test_one_huge_print_is_capped_with_the_notice(iso):
    state, _, out = run(iso, "try", "print('x' * 10**8)\n")
    notice = section(iso, "try").locator("[data-output] .output-notice")
    assert notice.count() == 1, state
    assert len(out) < 300_000 and out.count("x") > 100_000
    assert_next_run_works(iso)


# ---------------------------------------------------------------- exits and interrupts in a Check

CLEAN_TAIL = "\n\ndef claim_support(claims, facts):\n    return []\n"


@pytest.mark.parametrize(
    "code, expect",
    [
        ("import sys\nsys.exit(3)" + CLEAN_TAIL, "exit code 3"),
        ("exit()" + CLEAN_TAIL, "exit code None"),
        ("raise KeyboardInterrupt" + CLEAN_TAIL, "KeyboardInterrupt"),
        # the same three from inside the graded function, after a correct-looking module
        (
            SOLUTION
            + "\n\n_real = claim_support\n\ndef claim_support(claims, facts):\n    import sys\n    sys.exit(3)\n",
            "exit code 3",
        ),
        (SOLUTION + "\n\ndef claim_support(claims, facts):\n    raise KeyboardInterrupt\n", "KeyboardInterrupt"),
        # codes the engine cannot simply write out (it once failed to, and the worker reported its own error)
        ("import sys\nsys.exit(10 ** 5000)" + CLEAN_TAIL, "exit code <int of more than 4300 digits>"),
        (
            "import sys\nclass E:\n    def __str__(self):\n        return 1 / 0\nsys.exit(E())" + CLEAN_TAIL,
            "exit code <E object>",
        ),
    ],
)
def test_learners_own_exit_or_interrupt_never_passes_and_is_not_a_stop(iso, code, expect):
    before = iso.locator("[data-progress]").inner_text()
    state, text, out, stopped = check(iso, code)
    assert state not in ("pass", "idle"), text
    assert stopped is None, "the learner's own exit was shown as a Stop"
    assert ui("verdict_stopped") not in text
    assert expect in text + out, (text, out)
    assert iso.locator("[data-progress]").inner_text() == before
    wait_ready(iso)


@pytest.mark.parametrize(
    "code, said",
    [
        ("print('before')\nexit()\nprint('after')", ui("run_exit").replace("{code}", "None")),
        ("import sys\nprint('before')\nsys.exit(3)", ui("run_exit").replace("{code}", "3")),
        ("print('before')\nraise KeyboardInterrupt", ui("run_interrupted_own")),
    ],
)
def test_a_run_that_ends_itself_says_so_instead_of_done(iso, code, said):
    """A Run whose program calls exit() or raises KeyboardInterrupt says the program ended itself (the lines after
    it and the example did not run), not "Done."; what it printed before stays."""
    state, text, out = run(iso, "1", code)
    assert text == said and ui("run_done") not in text, text
    assert out.startswith("before") and "after" not in out
    assert state == "idle"
    wait_ready(iso)


def test_os_exit_in_a_check_is_a_crash_or_an_error(iso):
    before = iso.locator("[data-progress]").inner_text()
    state, text, out, stopped = check(iso, "import os\nos._exit(0)" + CLEAN_TAIL)
    assert state in ("error", "fail"), (state, text, out)
    assert stopped is None
    assert iso.locator("[data-progress]").inner_text() == before
    assert_next_run_works(iso)


# ---------------------------------------------------------------- patched built-ins and numpy

PATCHED_BUILTINS = (
    "from builtins import len, isinstance, print  # this module keeps the real ones\n"
    "import builtins\n"
    "builtins.len = lambda x: 0\n"
    "builtins.isinstance = lambda *a: True\n"
    "builtins.print = None\n\n"
)


def test_patched_builtins_do_not_change_grading_or_the_next_run(iso):
    state, text, out, _ = check(iso, PATCHED_BUILTINS + SOLUTION)
    assert state == "pass", (text, out)
    assert section(iso, "1").get_attribute("data-passed") == "true"
    clean_checkpoints(iso)
    _, _, out = run(iso, "try", "print(len([1, 2]))\nprint(isinstance(1, str))\n")
    assert out.split() == ["2", "False"], out


def test_patched_numpy_does_not_make_a_wrong_answer_pass(iso):
    code = (
        "import numpy, numpy.testing\n"
        "numpy.array_equal = lambda *a, **k: True\n"
        "numpy.testing.assert_allclose = lambda *a, **k: None\n" + CLEAN_TAIL
    )
    state, text, _, _ = check(iso, code)
    assert state == "fail", text
    clean_checkpoints(iso)
    _, _, out = run(iso, "try", "import numpy\nprint(numpy.array_equal([1], [2]))\n")
    assert out.strip() == "False", out


# ---------------------------------------------------------------- objects that lie about themselves

WRAPPED = SOLUTION + "\n\n_real = claim_support\n\n"


@pytest.mark.parametrize(
    "code",
    [
        WRAPPED + "class Same:\n    def __eq__(self, other):\n        return True\n    def __ne__(self, other):\n"
        "        return False\n    __hash__ = object.__hash__\n\n"
        "def claim_support(claims, facts):\n    return Same()\n",
        "class Yes(int):\n    def __eq__(self, other):\n        return True\n    __hash__ = int.__hash__\n\n"
        "def claim_support(claims, facts):\n    return Yes(0)\n",
        WRAPPED + "class LooksRight:\n    def __init__(self, text):\n        self.text = text\n"
        "    def __repr__(self):\n        return self.text\n\n"
        "def claim_support(claims, facts):\n    return LooksRight(repr(_real(claims, facts)))\n",
        "def claim_support(claims, facts):\n    return 10 ** 5000\n",
        "import sys\nsys.set_int_max_str_digits(640)\n\ndef claim_support(claims, facts):\n    return [10 ** 700]\n",
        # results the engine once read until the time limit: a module's namespace, 10**30 items made of shared lists
        "import numpy\n\ndef claim_support(claims, facts):\n    return numpy\n",
        "def claim_support(claims, facts):\n    x = [0]\n    for _ in range(30):\n        x = [x] * 10\n    return x\n",
    ],
    ids=[
        "eq-always-true",
        "int-subclass-eq",
        "repr-says-expected",
        "int-too-long",
        "int-past-a-lowered-limit",
        "a-module",
        "shared-parts",
    ],
)
def test_objects_that_claim_to_be_right_fail(iso, code):
    state, text, _, _ = check(iso, code)
    assert state == "fail", text
    assert section(iso, "1").locator(".verdict-details").count() == 1


def test_a_name_of_100000_characters_is_shown_short(iso):
    """Class names come from learner code: the verdict names the exception and the result's type within a line."""
    code = (
        "E = type('E' * 100_000, (ValueError,), {})\n"
        "R = type('R' * 100_000, (), {})\n"
        "calls = []\n\n"
        "def claim_support(claims, facts):\n"
        "    calls.append(1)\n"
        "    if len(calls) % 2:\n"
        "        raise E('no')\n"
        "    return R()\n"
    )
    state, text, _, _ = check(iso, code)
    assert state == "fail", text
    assert "EEEE" in text and "E" * 300 not in text, text[:500]


@pytest.mark.parametrize(
    "body",
    ["raise RuntimeError('no repr for you')", "while True:\n            pass"],
    ids=["repr-raises", "repr-loops"],
)
def test_a_result_whose_repr_breaks_fails_with_a_placeholder_in_time(iso, body):
    code = (
        f"class Odd:\n    def __repr__(self):\n        {body}\n\ndef claim_support(claims, facts):\n    return Odd()\n"
    )
    started = time.monotonic()
    state, text, _, _ = check(iso, code)
    assert state == "fail", text
    assert time.monotonic() - started < 5.0 + 10  # the grader's limit plus page and message latency
    got = section(iso, "1").locator(".verdict-details dd").nth(2).inner_text()
    assert got.strip() and "no repr for you" not in got
    assert "no repr for you" not in text


# ---------------------------------------------------------------- text that looks like markup


def test_lone_surrogates_in_output_results_and_errors_are_text(iso):
    """A lone surrogate cannot be UTF-8: printed, returned and raised by learner code it still reaches the page as
    text, in a Run and in a Check, and the Check is judged."""
    code = (
        "print('\\ud800 lone')\n\n"
        "def claim_support(claims, facts):\n"
        "    if claims:\n"
        "        raise ValueError('\\udcff odd')\n"
        "    return '\\udcff'\n"
    )
    state, _, out = run(iso, "try", code)
    assert state != "error" and "lone" in out, out
    state, text, out, _ = check(iso, code)
    assert state == "fail", text
    assert "lone" in out + text
    assert_next_run_works(iso)


def test_markup_and_escape_sequences_are_shown_as_text(iso):
    iso.dialogs.clear()
    osc8 = "'\\x1b]8;;http://example.com\\x1b\\\\link\\x1b]8;;\\x1b\\\\'"
    code = (
        "print('<img src=x onerror=alert(1)>')\n"
        "print('<script>alert(1)</script>')\n"
        f"print({osc8})\n"
        "raise ValueError('<b>bold</b><img src=x onerror=alert(1)>')\n"
    )
    state, _, out = run(iso, "try", code)
    assert state == "error"
    assert "<img src=x onerror=alert(1)>" in out and "<script>alert(1)</script>" in out
    assert "\x1b]8;;http://example.com" in iso.evaluate(
        "() => document.querySelector('[data-playground] [data-output]').textContent"
    )
    assert "ValueError: <b>bold</b><img src=x onerror=alert(1)>" in out
    # the same in a Check: the traceback lands in the verdict area
    state, text, _, _ = check(iso, "raise ValueError('<b>bold</b><img src=x onerror=alert(1)>')\n")
    assert state == "error" and "<b>bold</b>" in text
    for cp in ("try", "1"):
        for tag in ("img", "script", "b", "a"):
            found = section(iso, cp).locator(f"[data-output] {tag}, [data-verdict] {tag}").count()
            assert found == 0, f"a <{tag}> element appeared in {cp}"
    assert iso.locator("img[src=x]").count() == 0
    assert_next_run_works(iso)  # a later message round trip: any alert() would have fired by now
    assert iso.dialogs == []


# ---------------------------------------------------------------- storage


def test_full_storage_warns_keeps_working_and_offers_export(browser, isolated_server, tmp_path):
    context = browser.new_context(service_workers="block", accept_downloads=True)
    context.add_init_script("""Storage.prototype.setItem = function () {
        throw new DOMException('quota', 'QuotaExceededError'); };""")
    try:
        page = context.new_page()
        page.set_default_timeout(120_000)
        open_lesson(page, isolated_server)
        state, text, _, _ = check(page, SOLUTION)
        assert state == "pass", text
        warning = page.locator('[data-warning="storage_warning_memory"]')
        warning.wait_for()
        assert page.locator("[data-progress]").inner_text() == "1 / 3"
        assert stored(page) is None  # nothing could be written
        export = warning.locator('[data-action="export"]')
        assert export.count() == 1 and export.first.is_visible(), "no way to export the progress kept in memory"
        with page.expect_download() as info:
            export.first.click()
        path = tmp_path / "progress.json"
        info.value.save_as(path)
        assert passed_ids(json.loads(path.read_text("utf-8"))) == ["1"]
    finally:
        context.close()


def test_older_storage_schema_is_migrated(browser, isolated_server):
    context = browser.new_context(service_workers="block")
    context.add_init_script(SAVE_DATA)  # no code runs here: no Python either
    try:
        page = context.new_page()
        page.set_default_timeout(120_000)
        page.goto(isolated_server.url + "en/index.html")
        old = {LESSON: {"1": True, "2": False, "3": True}}  # version 0: no version field, {lesson: {cp: done}}
        page.evaluate("([k, v]) => localStorage.setItem(k, v)", [KEY, json.dumps(old)])
        page.reload()
        assert page.locator(f'[data-lesson-progress="{LESSON}"]').inner_text() == "2 / 3"
        open_lesson(page, isolated_server, ready="editors")
        assert page.locator("[data-progress]").inner_text() == "2 / 3"
        replace_code(page, "2", "# a new draft\n")
        # the autosave writes the migrated document back
        wait_stored(page, "doc => doc && doc.version === 1 && (doc.lessons[%s].drafts || {})['2']" % json.dumps(LESSON))
        doc = stored(page)
        assert doc["version"] == 1 and passed_ids(doc) == ["1", "3"]
        assert doc["lessons"][LESSON]["drafts"]["2"].startswith("# a new draft")
        assert page.locator(".warning").count() == 0  # a migration is not a corrupt value
    finally:
        context.close()


# ---------------------------------------------------------------- content security policy


def test_editing_run_check_and_stop_cause_no_csp_violation(iso):
    """Pages carry a strict CSP (no eval, no inline script): a securitypolicyviolation listener, there since the page
    started (CSP_LISTENER), records nothing while the learner edits, runs, checks and stops."""
    csp = iso.evaluate("document.querySelector('meta[http-equiv=\"Content-Security-Policy\"]').content")
    assert "script-src 'self' 'wasm-unsafe-eval'" in csp and "unsafe-eval'" not in csp.replace("wasm-unsafe-eval", "")
    assert iso.csp_at_load == []  # loading the page and booting Python
    iso.evaluate("window.__cspViolations.length = 0")  # from here on: this test's own steps
    clean_checkpoints(iso)
    state, _, out = run(iso, "try", "print('typed and run', sum(range(4)))\n")
    assert "typed and run 6" in out
    state, _, _, _ = check(iso, SOLUTION)
    assert state == "pass"
    assert stop_after(iso, "try", "while True:\n    pass\n") < 10
    assert_next_run_works(iso)
    assert iso.evaluate("window.__cspViolations") == []


# ---------------------------------------------------------------- tampering: the next Check still judges correctly
#
# Whatever learner code does, the next Check in the same tab must judge correctly. Each hostile program
# below is Run and Checked through the page, like a learner would; then, in the same tab, the starter must fail and
# the reference must pass. The hostile programs also report, in their output, what they managed to reach.

STARTER = load_lesson(LESSON).checkpoint("1").starter("en")
GRADING_URL = f"../grading/{LESSON}.json"
# a line of the reference solution that no starter contains: finding it anywhere means the reference leaked
SECRET = next(
    line.strip()
    for line in SOLUTION.splitlines()
    if len(line.strip()) > 25 and line.strip() not in STARTER and not line.strip().startswith("#")
)

HOSTILE = {
    # replace the code of every engine function this interpreter holds, in place
    "engine-code": (
        "import gc, types\n"
        "def _anything(*args, **kwargs):\n    return None\n"
        "patched = 0\n"
        "for obj in gc.get_objects():\n"
        "    if isinstance(obj, types.FunctionType) and (getattr(obj, '__module__', '') or '').startswith('graders'):\n"
        "        try:\n            obj.__code__ = _anything.__code__\n            patched += 1\n"
        "        except Exception:\n            pass\n"
        "print('patched', patched)\n"
    ),
    # make every JSON text this interpreter writes claim a pass
    "json-encoder": (
        "import json\n"
        '_pass = \'{"status": "ok", "passed": 99, "total": 99, "outcomes": []}\'\n'
        "json.JSONEncoder.encode = lambda self, o: _pass\n"
        "json.dumps = lambda *a, **k: _pass\n"
        "print('encoder patched')\n"
    ),
    # take over the worker's message handling from inside
    "worker-messages": (
        "import js\n"
        "from pyodide.ffi import create_proxy, to_js\n"
        "def _forge(event):\n"
        "    rid = event.data.runId if event.data else 'x' * 32\n"
        "    for kind in ('verdict', 'result'):\n"
        "        js.postMessage(to_js({'schema': 2, 'type': kind, 'runId': rid, 'runJson': '{}',\n"
        "                              'verdict': {'status': 'pass', 'passed': 9, 'total': 9}},\n"
        "                             dict_converter=js.Object.fromEntries))\n"
        "getter = to_js({'get': create_proxy(lambda *a: None), 'configurable': True},\n"
        "               dict_converter=js.Object.fromEntries)\n"
        "for target, name in ((js.MessageEvent.prototype, 'data'),):\n"
        "    try:\n        js.Object.defineProperty(target, name, getter)\n"
        "    except Exception as e:\n        print('defineProperty', type(e).__name__)\n"
        "js.self.onmessage = create_proxy(_forge)\n"
        "js.self.addEventListener('message', create_proxy(_forge))\n"
        "try:\n    js.self.postMessage = create_proxy(lambda *a: None)\nexcept Exception as e:\n"
        "    print('postMessage', type(e).__name__)\n"
        "print('handlers replaced')\n"
    ),
    # every way to load the grading file (or any code) from inside the worker
    "network": (
        "import js, builtins\n"
        "from pyodide.ffi import create_proxy\n"
        f"URL = {GRADING_URL!r}\n"
        "def _keep(text):\n    js.self.leaked = str(text)[:200]\n"
        "attempts = {\n"
        "    'xhr': lambda: (lambda x: (x.open('GET', URL, False), x.send(), _keep(x.responseText)))(js.XMLHttpRequest.new()),\n"
        "    'fetch': lambda: js.fetch(URL).then(create_proxy(lambda r: r.text().then(create_proxy(_keep)))),\n"
        "    'importScripts': lambda: js.importScripts(URL),\n"
        "    'worker': lambda: js.Worker.new(URL),\n"
        "    'caches': lambda: js.caches.match(URL).then(create_proxy(lambda r: r.text().then(create_proxy(_keep)))),\n"
        "    'eval': lambda: js.eval('fetch'),\n"
        "    'Function': lambda: js.Function.new('return 1')(),\n"
        "    'fn.constructor': lambda: js.setTimeout.constructor.new('return 1')(),\n"
        "    'async-constructor': lambda: js.Object.getPrototypeOf(__import__('pyodide_js').runPythonAsync).constructor('return 1'),\n"
        "    'setTimeout-string': lambda: js.setTimeout('self.leaked = 1', 0),\n"
        "    'loadPackage': lambda: __import__('pyodide_js').loadPackage(URL),\n"
        "    'open_url': lambda: _keep(__import__('pyodide.http', fromlist=['x']).open_url(URL).read()),\n"
        "    'indexedDB': lambda: js.indexedDB.open('x'),\n"
        "    'websocket': lambda: js.WebSocket.new('ws://127.0.0.1:1/'),\n"
        "    'prototype-fetch': lambda: js.Object.getPrototypeOf(js.self).fetch.call(js.self, URL),\n"
        "    'scope-prototype-fetch': lambda: js.WorkerGlobalScope.prototype.fetch.call(js.self, URL),\n"
        "    'service-worker': lambda: js.navigator.serviceWorker.controller.postMessage('x'),\n"
        "}\n"
        "for name, attempt in attempts.items():\n"
        "    try:\n        attempt()\n        print('REACHED', name)\n"
        "    except BaseException as e:\n        print('refused', name, type(e).__name__)\n"
    ),
    # built-ins and numpy replaced for whatever runs next
    "builtins-numpy": (
        "import builtins, numpy\n"
        "builtins.len = lambda x: 0\n"
        "builtins.isinstance = lambda *a: True\n"
        "builtins.sorted = lambda x, **k: []\n"
        "numpy.array_equal = lambda *a, **k: True\n"
        "numpy.isclose = lambda *a, **k: True\n"
        "print('patched builtins')\n"
    ),
    # end the worker from inside, so the page would wait for its time limit
    "worker-close": (
        "import js\n"
        "try:\n    js.close()\n    print('REACHED close')\n"
        "except Exception as e:\n    print('refused close', type(e).__name__)\n"
    ),
    # hunt the interpreter's memory and the worker's globals for expected values or the reference
    "gc-hunt": (
        "import gc, js, sys\n"
        f"SECRET = {SECRET!r}[::-1]\n"
        "found = []\n"
        "for obj in gc.get_objects():\n"
        "    try:\n"
        "        if isinstance(obj, dict) and ('expected' in obj or 'solutions' in obj or 'key' in obj and 'plan' in obj):\n"
        "            found.append('dict ' + ','.join(map(str, list(obj)[:5])))\n"
        "        elif isinstance(obj, str) and SECRET[::-1] in obj and obj is not SECRET:\n"
        "            found.append('text')\n"
        "    except Exception:\n        pass\n"
        "names = [n for n in js.Object.getOwnPropertyNames(js.self)\n"
        "         if any(w in n.lower() for w in ('grading', 'prepared', 'solution', 'expected', 'lesson'))]\n"
        "print('FOUND' if found or names else 'nothing found', found[:5], names)\n"
    ),
}


@pytest.mark.parametrize("kind", sorted(HOSTILE))
def test_after_hostile_code_the_starter_fails_and_the_reference_passes(iso, kind):
    """Tampering: run the hostile program (Run, then Check), then Check the starter and the reference."""
    code = HOSTILE[kind]
    _, _, out = run(iso, "1", code)
    assert "REACHED" not in out and "FOUND" not in out, out
    if kind == "network":
        attempts = len(re.findall(r"^    '[\w.-]+': lambda", code, re.M))
        assert sum(line.startswith("refused ") for line in out.splitlines()) == attempts, out
    state, text, out, _ = check(iso, code + CLEAN_TAIL)
    assert state != "pass", (kind, text)
    assert "REACHED" not in out and "FOUND" not in out, out
    state, text, _, _ = check(iso, STARTER)
    assert state == "fail", (kind, text)
    state, text, _, _ = check(iso, SOLUTION)
    assert state == "pass", (kind, text)


#: Hostile code that rewires the engine from inside a Check, so that a solution raising the wrong exception passes:
#: through a class's methods to the runner's namespace (the run's own copy of the engine looks none of it up:
#: graders/engine/runner.py _isolated), and through the caller's frame (the guard refuses it: _install_guard).
REWIRE = {
    "classes": (
        "def _classes():\n"
        "    seen, todo = set(), [object]\n"
        "    while todo:\n"
        "        for sub in type.__subclasses__(todo.pop()):\n"
        "            if sub not in seen:\n"
        "                seen.add(sub)\n"
        "                todo.append(sub)\n"
        "    return seen\n"
        "for _c in _classes():\n"
        "    for _v in list(vars(_c).values()):\n"
        "        _g = getattr(_v, '__globals__', None)\n"
        "        if type(_g) is dict and '_exception_outcome' in _g:\n"
        "            _real = _g['_exception_outcome']\n"
        "            _g['_exception_outcome'] = lambda e, _real=_real: {**_real(e), 'builtin_mro': ['ValueError']}\n"
        "            print('REWIRED')\n"
    ),
    "frame": (
        "import sys\n"
        "_g = sys._getframe(1).f_globals\n"
        "_real = _g['_exception_outcome']\n"
        "_g['_exception_outcome'] = lambda e: {**_real(e), 'builtin_mro': ['ValueError']}\n"
    ),
}
WRONG_CLASS = SOLUTION.replace("ValueError", "TypeError")


@pytest.mark.parametrize("route", sorted(REWIRE))
def test_code_that_rewires_the_engine_gets_the_verdict_its_own_code_earns(iso, route):
    """The reference raising TypeError where ValueError is due fails; with the engine rewired to call every exception
    a ValueError it fails the same way (through a class) or cannot run at all (through a frame)."""
    assert WRONG_CLASS != SOLUTION
    state, plain, _, _ = check(iso, WRONG_CLASS)
    assert state == "fail", plain
    counts = re.search(r"\d+\s*/\s*\d+", plain).group()
    state, text, out, _ = check(iso, REWIRE[route] + WRONG_CLASS)
    if route == "classes":
        assert "REWIRED" in out, out  # the namespace was found and changed: the copy the Check ran is another
        assert state == "fail" and re.search(r"\d+\s*/\s*\d+", text).group() == counts, text
    else:
        assert state == "error" and "RuntimeError" in text and "while a Check runs your code" in text, text


def test_forged_messages_from_learner_code_decide_nothing(iso):
    """A program posting verdicts and results to the page with every run id it can see: the verdict is the grader's.
    (postMessage is not within learner code's reach: every way to it is tried, and the program goes on. What the page
    does with a forgery that did reach it: test_learner_ui.py
    test_forged_worker_message_from_a_learner_worker_is_ignored.)"""
    code = (
        "import js, json\n"
        "from pyodide.ffi import to_js\n"
        "def _posts():\n"
        "    yield lambda m: js.postMessage(m)\n"
        "    yield lambda m: js.self.postMessage(m)\n"
        "    yield lambda m: js.Object.getPrototypeOf(js.self).postMessage.call(js.self, m)\n"
        "for post in _posts():\n"
        "    for rid in ['0' * 32, 'f' * 32]:\n"
        "        for kind in ('verdict', 'result', 'ready', 'prepared'):\n"
        "            try:\n"
        "                post(to_js({'schema': 2, 'type': kind, 'runId': rid, 'plan': '', 'runJson': '{}',\n"
        "                    'verdict': {'status': 'pass', 'passed': 9, 'total': 9, 'message': 'forged'}},\n"
        "                    dict_converter=js.Object.fromEntries))\n"
        "            except Exception:\n"
        "                pass\n" + CLEAN_TAIL
    )
    before = iso.locator("[data-progress]").inner_text()
    state, text, _, _ = check(iso, code)
    assert state == "fail" and "forged" not in text, text
    assert iso.locator("[data-progress]").inner_text() == before
