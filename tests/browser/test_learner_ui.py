"""The learner's site in real Chromium: keyboard, Run, Check, Stop, progress, storage edge cases, RTL, safety.

Uses the built ``dist`` (with the real lessons) through the fixtures in tests/conftest.py and tests/browser/conftest.py:
tests that only drive a lesson page share one per lesson and language (``lesson_pages``), tests that never run code
use a page that boots no Python (``save_data_page``), tests of loading itself open their own.
"""

from __future__ import annotations

import json
import time
import re

import pytest

from tests.conftest import SAVE_DATA
from tests.browser.learner import (
    ARABIC_LESSON,
    KEY,
    LESSON,
    click,
    editor,
    editor_text,
    example_editor,
    open_lesson,
    page_errors,
    passed_ids,
    poll,
    put_solution,
    replace_code,
    replace_in,
    section,
    stored,
    wait_draft,
    wait_editors,
    wait_idle,
    wait_ready,
    wait_verdict,
)

pytestmark = pytest.mark.browser


# ---------------------------------------------------------------- home


def test_home_lists_lessons_and_shows_python_ready(page, plain_server, request_log, dist):
    page.goto(plain_server.url)
    wait_ready(page)  # after the service worker's one isolation reload, when the build ships one
    links = page.locator("a[data-lesson]")
    assert links.count() >= 2
    ids = [links.nth(i).get_attribute("data-lesson") for i in range(links.count())]
    assert LESSON in ids and ARABIC_LESSON in ids and "micropip-demo" not in ids
    label = page.locator("[data-runtime-label]")
    assert "Python" in label.inner_text() and re.search(r"(ready|klaar)", label.inner_text())
    assert page.locator(f'[data-lesson-progress="{LESSON}"]').inner_text() == "0 / 3"
    request_log.assert_only(plain_server.origin)
    # no editors here, so the page never imports CodeMirror: none of the editor's stages, none of their chunks (the
    # service worker's offline copy asks for every file, but without "?v=" and from its own context)
    assert not any(re.search(r"/assets/editor\w*\.js\?v=", url) for url in request_log.urls)
    page_chunks = page.evaluate("performance.getEntriesByType('resource').map((e) => e.name)")
    assert not any("/assets/chunks/" in url or "/assets/editor" in url for url in page_chunks), page_chunks
    assert page_errors(page, dist) == []


def test_the_arabic_home_suggests_starting_with_a_lesson_in_arabic(save_data_page, plain_server):
    """A newcomer on the Arabic home page is told to start with the first lesson that has an Arabic version, not
    with the first lesson of the order (which has none): the state the page's script paints says so."""
    page = save_data_page
    page.goto(f"{plain_server.url}ar/index.html")
    wait_editors(page)  # the home page's script has painted the cards' states
    start = page.locator('[data-lesson-state][data-state="start"]')
    assert start.count() == 1
    assert start.get_attribute("data-lesson-state") == ARABIC_LESSON and start.inner_text() == "ابدأ من هنا"
    link = page.locator(f'a[data-lesson="{ARABIC_LESSON}"]')
    assert link.get_attribute("href") == f"../lessons/{ARABIC_LESSON}/ar.html"
    assert "ابدأ بالدرس المعلَّم «ابدأ من هنا»" in page.locator(".order-note").inner_text()


def test_a_lesson_whose_editor_module_does_not_load_says_so_and_still_shows_the_code(save_data_page, isolated_server):
    page = save_data_page
    # blocked for the whole context: the import may fetch a module whose preload failed once more (Chromium does at
    # times), and the service worker may answer that request (a page route does not see the worker's own requests)
    page.context.route("**/assets/editor.js*", lambda route: route.abort())
    page.goto(f"{isolated_server.url}lessons/{LESSON}/en.html")
    page.wait_for_selector('[data-warnings] [data-warning="editor_failed"]', state="attached")
    assert "editor" in page.locator('[data-warning="editor_failed"]').inner_text()
    assert page.locator(".cm-editor").count() == 0
    starter = json.loads(page.locator("#lesson-data").text_content())["checkpoints"][0]["starter"]
    assert (
        page.locator('[data-checkpoint="1"] [data-editor] pre.editor-fallback').inner_text().strip() == starter.strip()
    )


# ---------------------------------------------------------------- keyboard, Run, Check


def test_checkpoint_reachable_by_keyboard_typed_run_and_escape_tab_leaves(lesson_pages):
    page = lesson_pages()
    target = editor(page, "1")
    for _ in range(200):
        page.keyboard.press("Tab")
        if target.evaluate("el => el === document.activeElement"):
            break
    else:
        pytest.fail("Tab never reached the editor of checkpoint 1")
    page.keyboard.press("Control+a")
    page.keyboard.type("print(6 * 7)")
    page.keyboard.press("Enter")
    page.keyboard.press("Tab")  # Tab inside the editor indents instead of leaving
    assert target.evaluate("el => el === document.activeElement")
    assert editor_text(page, "1").split("\n")[1].startswith("    ")
    page.keyboard.press("Escape")
    page.keyboard.press("Tab")  # Escape then Tab moves focus out
    assert not target.evaluate("el => el.contains(document.activeElement)")
    section(page, "1").locator('[data-action="run"]').click()
    wait_idle(page, "1")
    assert "42" in section(page, "1").locator("[data-output]").inner_text()


def test_check_gives_fail_then_pass_and_ctrl_enter_checks(lesson_pages, dist):
    page = lesson_pages()
    section(page, "1").locator('[data-action="check"]').click()
    state, text = wait_verdict(page, "1")
    assert state == "fail", text
    assert re.search(r"0/\d+", text)
    assert "claim_support(" in section(page, "1").locator(".verdict-details").inner_text()
    put_solution(page, "1")
    editor(page, "1").click()
    page.keyboard.press("Control+Enter")
    state, text = wait_verdict(page, "1")
    assert state == "pass", text
    total = re.search(r"✓ (\d+)/(\d+)", text)
    assert total and total.group(1) == total.group(2)
    assert page.locator("[data-progress]").inner_text() == "1 / 3"
    assert section(page, "1").locator("[data-passed-badge]").is_visible()
    assert page.locator('figure[data-figure="risk-coverage"][data-mounted="true"]').count() == 1
    assert page_errors(page, dist) == []


def test_check_pressed_while_python_loads_is_queued(page, isolated_server):
    open_lesson(page, isolated_server, ready=False)
    section(page, "2").locator('[data-action="check"]').click()
    assert page.get_attribute("body", "data-runtime") in ("loading", "ready", "running")
    state, _ = wait_verdict(page, "2")
    assert state == "fail"  # the starter fails: the queued Check really ran


def test_editors_are_built_in_slices_and_at_once_when_a_section_is_used(save_data_page, isolated_server):
    # The editors are built in short slices after the page's script ran (no long main-thread task), once
    # the editor module (CodeMirror, assets/editor.js, loaded on its own) is there. A learner's action on a section
    # that comes before the module waits for it, then builds every section up to it at once, out of turn: here the
    # module is held back until checkpoint 3's Reset was pressed. (No Python: the editors do not wait for it.)
    page = save_data_page
    held, released = [], []

    def hold(route):
        held.append(route)
        if released:
            route.continue_()

    page.route("**/assets/editor.js*", hold)
    page.goto(f"{isolated_server.url}lessons/{LESSON}/en.html", wait_until="domcontentloaded")
    page.wait_for_selector("body[data-runtime]", state="attached")  # app.js's start-up ran: its buttons work
    for _ in range(200):
        if held:
            break
        page.wait_for_timeout(25)
    assert held, "the page did not ask for the editor module"
    page.evaluate("""() => {
        const section = (sel) => Boolean(document.querySelector(`${sel} [data-editor] .cm-content`));
        new MutationObserver((records, observer) => {
            if (!section('[data-checkpoint="3"]')) return;
            observer.disconnect();
            window.__built = { checkpoints: [1, 2, 3].map((n) => section(`[data-checkpoint="${n}"]`)),
                               playground: section("[data-playground]") };
        }).observe(document.querySelector("main"), { childList: true, subtree: true });
        document.querySelector('[data-checkpoint="3"] [data-action="reset"]').click();
    }""")
    assert page.evaluate("window.__built === undefined")  # nothing built without the module
    released.append(True)
    for route in list(held):
        route.continue_()
    page.wait_for_selector('[data-checkpoint="3"] [data-editor] .cm-content', state="attached")
    built = page.evaluate("window.__built")
    assert built["checkpoints"] == [True, True, True]  # checkpoint 3's Reset built checkpoints 1, 2 and 3 at once
    assert built["playground"] is False  # out of turn: the slices, which build the free editor last, had not
    # and the Reset itself happened once the module came: checkpoint 3's editor has the focus
    assert page.evaluate("""() => Boolean(document.activeElement
        && document.activeElement.closest('[data-checkpoint="3"] [data-editor]'))""")
    page.wait_for_selector("body[data-editors=ready]", state="attached")
    # one request: the page's <link rel="modulepreload"> and app.js's import() share it (a URL that differed, even
    # in its query, would be fetched and compiled a second time)
    assert len(held) == 1, [route.request.url for route in held]
    assert (
        page.locator(".cm-editor").count()
        == page.locator("[data-editor], [data-example-editor], [data-carried-editor]").count()
    )
    starter = json.loads(page.locator("#lesson-data").text_content())["checkpoints"][2]["starter"]
    assert editor_text(page, "3") == starter


def test_run_error_highlights_the_line_and_shows_the_traceback(lesson_pages):
    page = lesson_pages()
    replace_code(page, "try", "x = 1\ny = 2\nraise ValueError('boom')\n")
    section(page, "try").locator('[data-action="run"]').click()
    state, text = wait_verdict(page, "try", ("error",))
    assert "3" in text
    assert "ValueError" in section(page, "try").locator("[data-output]").inner_text()
    line = section(page, "try").locator(".cm-error-line")
    assert line.count() == 1 and "raise ValueError" in line.inner_text()


# ---------------------------------------------------------------- Stop and time limits

# Stop of an endless loop (the worker is ended and a pristine one takes over), with the next run working:
# test_hostile.py (a long sleep, endless printing, and `while True: pass` under the CSP).


def test_stop_restarts_python_when_the_loop_swallows_the_interrupt(lesson_pages):
    page = lesson_pages()
    states = []
    page.expose_function("noteState", lambda s: states.append(s))
    page.evaluate("""() => new MutationObserver(() => window.noteState(document.body.dataset.runtime))
                     .observe(document.body, {attributes: true, attributeFilter: ['data-runtime']})""")
    # swallows KeyboardInterrupt at two levels, so even an interrupt that lands twice cannot end it
    replace_code(
        page,
        "try",
        "def spin():\n    while True:\n        try:\n            while True:\n                pass\n"
        "        except BaseException:\n            pass\n\n"
        "print('spinning', flush=True)\n"
        "while True:\n    try:\n        spin()\n    except BaseException:\n        pass\n",
    )
    section(page, "try").locator('[data-action="run"]').click()
    # inside the swallowing loop: its first line of output has arrived
    poll(page, "() => document.querySelector('[data-playground] [data-output]').textContent.includes('spinning')")
    section(page, "try").locator('[data-action="stop"]').click()
    poll(
        page, "() => document.querySelector('[data-playground] [data-verdict]').dataset.stopped === 'true'", timeout=10
    )
    wait_ready(page)
    # the worker was replaced: by the ready spare at once (no restart to see), or by a new worker ("restarting")
    assert states[-1] == "ready" and page.get_attribute("body", "data-python") == "ready"
    replace_code(page, "try", "print('alive')\n")
    section(page, "try").locator('[data-action="run"]').click()
    wait_idle(page, "try")
    assert "alive" in section(page, "try").locator("[data-output]").inner_text()


def test_python_crash_restarts_the_runtime_and_says_so(lesson_pages):
    page = lesson_pages()
    # a real crash: C's abort() inside the wasm runtime takes Pyodide's fatal-error path (its internal
    # pyodide_js._api is out of learner code's reach)
    replace_code(page, "try", "import ctypes\nctypes.CDLL(None).abort()\n")
    section(page, "try").locator('[data-action="run"]').click()
    page.locator('[data-warning="runtime_crashed"]').wait_for()
    wait_idle(page, "try")
    assert page.get_attribute("body", "data-runtime") in ("restarting", "ready")
    wait_ready(page)
    replace_code(page, "try", "print('back', 40 + 2)\n")
    section(page, "try").locator('[data-action="run"]').click()
    wait_idle(page, "try")
    assert "back 42" in section(page, "try").locator("[data-output]").inner_text()


def test_deep_recursion_through_built_ins_is_a_recursion_error_as_on_the_command_line(lesson_pages):
    """sorted(key=f) calling f 400 levels deep overflowed Chromium's worker stack and crashed Python, where CPython
    raises RecursionError: learner code gets the same RECURSION_DEPTH in every runtime, whatever limit it sets."""
    page = lesson_pages()
    crashes = page.locator('[data-warning="runtime_crashed"]').count()  # an earlier test's, on this shared page
    replace_code(
        page,
        "try",
        "import sys\nsys.setrecursionlimit(100000)\n"
        "def s(n):\n    return 0 if n == 0 else 1 + sorted([n - 1], key=s)[0]\n"
        "print(s(200))\nprint(s(400))\n",
    )
    section(page, "try").locator('[data-action="run"]').click()
    state, text = wait_verdict(page, "try", ("idle", "error"))
    box = section(page, "try").locator("[data-verdict] .python-error")
    assert state == "error" and box.get_attribute("data-python-error") == "RecursionError", text
    assert "200" in section(page, "try").locator("[data-output]").inner_text()
    assert page.locator('[data-warning="runtime_crashed"]').count() == crashes


def test_check_of_an_endless_loop_times_out(lesson_pages):
    page = lesson_pages()
    replace_code(page, "1", "def claim_support(claims, facts):\n    while True:\n        pass\n")
    section(page, "1").locator('[data-action="check"]').click()
    state, text = wait_verdict(page, "1", ("timeout", "error", "fail", "pass"))
    assert state == "timeout", text
    wait_ready(page)
    assert page.locator("[data-progress]").inner_text() == "0 / 3"


# Every learner worker says how fast its Python ran at boot, and the page scales a job's time limit by that. This init
# script makes each of them say "as fast as the limits assume", so a Check's limit is exactly the grader's TIME_LIMIT
# (the page's own code is untouched).
AS_FAST_AS_ASSUMED = """(() => {
    const Base = window.Worker;
    window.Worker = class extends Base {
        constructor(url, options) {
            super(url, options);
            if (String(url).includes("grader_worker")) return;
            this.addEventListener("message", (event) => {  // the first listener: the page's own come after it
                if (event.data && event.data.type === "ready") event.data.speed = 20;
            });
        }
    };
})();"""

# A right solution of claims checkpoint 1 that first keeps Python busy for 6.5 s of wall time: past the checkpoint's
# limit of 5 s, within that limit on a machine several times busier than it was when the page became ready.
BUSY_THEN_RIGHT = "import time\n_t = time.time()\nwhile time.time() - _t < 6.5:\n    pass\n"


def test_a_time_limit_grows_when_the_machine_got_busier_since_the_page_booted(page, isolated_server, repo_root):
    """The same right code must not time out only because the machine got busier after its worker booted (another
    program, another tab). Another tab starts six busy threads per core with the Check (so many that the page measures
    itself slower at the limit however busy the rest of the machine was when it booted; they end once the limit has
    grown past where the run ends): at the time limit the page measures itself slower than when it became ready, the
    limit grows by as much, and the run goes on to pass. Without that, the 6.5 s are past the 5 s limit. (That the
    limit stands on an unchanged machine, grows no further than the slowdown and never past MAX_SLOWNESS:
    web/test/runtime.test.mjs; an endless loop still times out: test_check_of_an_endless_loop_times_out.) The load
    comes from the browser's own tab: Linux shares the CPU between sessions first, so busy processes started by the
    test would take little from the browser."""

    page.add_init_script(AS_FAST_AS_ASSUMED)
    reference = (repo_root / "exercises" / "claims-abstention" / "01-claim-support" / "solution.py").read_text()
    # A trial whose page booted while the machine was already at least as busy (the other test process at a peak: the
    # load measure at the limit no slower than at boot) tests nothing: the limit rightly stands there. Such a trial is
    # run again on a new boot; any other must pass.
    for _ in range(3):
        state, text, measures = _busier_trial(page, isolated_server, BUSY_THEN_RIGHT + reference)
        if state == "pass" or any(m["now"] > m["then"] for m in measures):
            break
    assert state == "pass", (text, measures)


def _busier_trial(page, server, code):
    """Open the lesson, Check ``code`` in checkpoint 1 while another tab loads every core; return the verdict's state
    and text and, each time the limit was reached, the load measure then and now (ms) and the grown limit (None:
    stopped)."""
    import os

    open_lesson(page, server)
    replace_code(page, "1", code)
    other_tab = page.context.new_page()
    try:
        section(page, "1").locator('[data-action="check"]').click()
        other_tab.evaluate(
            "n => { for (let i = 0; i < n; i++) new Worker(URL.createObjectURL(new Blob(['for (;;) {}']))); }",
            6 * (os.cpu_count() or 2),
        )
        # The load goes once the limit has grown to twice its 5 s, past where the run ends on a quiet machine (6.5 s
        # and the reference's cases), so it takes the machine from the other tests for no longer than it must. A
        # smaller growth is measured again at its new limit, so then the load stays until the verdict.
        page.wait_for_function(
            """() => performance.getEntriesByName("werkbank:limit").length > 0
                || !["idle", "running"].includes(document.querySelector('[data-checkpoint="1"] [data-verdict]')
                    .dataset.verdict)""",
            timeout=60_000,
        )
        grown = page.evaluate('performance.getEntriesByName("werkbank:limit").map((m) => m.detail.limit)')
        if grown and (grown[-1] or 0) >= 10:
            other_tab.close()
        state, text = wait_verdict(page, "1")
    finally:
        if not other_tab.is_closed():
            other_tab.close()
    return state, text, page.evaluate('performance.getEntriesByName("werkbank:limit").map((m) => m.detail)')


# ---------------------------------------------------------------- output safety

# Printed markup shown as text, never as elements (stdout, stderr, a traceback, a Check's verdict), no dialog:
# test_hostile.py test_markup_and_escape_sequences_are_shown_as_text.


def test_output_is_capped_with_a_notice(lesson_pages):
    page = lesson_pages()
    replace_code(page, "try", "for i in range(60000):\n    print('x' * 20)\n")
    section(page, "try").locator('[data-action="run"]').click()
    wait_idle(page, "try")
    out = section(page, "try").locator("[data-output]")
    assert out.locator(".output-notice").count() == 1
    assert len(out.inner_text()) < 260_000


# The strongest forger: a learner worker that answers every request the page makes with a passing verdict in the
# current schema, carrying the very run id the page waits on. Learner code can reach neither postMessage nor a run id
# (the lockdown; test_hostile.py test_forged_messages_from_learner_code_decide_nothing): this page script is the layer
# behind that, what the page itself takes. It wraps the page's Worker: after each request the page sends (to any
# worker) every live learner worker delivers, as a message of its own, forgeries with that request's run id in each
# type only the grader may send, and with guessed ids in every type. It records which forgeries came while the page
# still waited for the real answer.
FORGE_FROM_LEARNER_WORKERS = """(() => {
    const Base = window.Worker, learners = new Set(), answered = new Set();
    const seen = (window.__forgery = { requests: [], forged: [] });
    const GRADERS = ["verdict", "prepared", "shrunk", "plotted"], GUESSED = ["0".repeat(32), "f".repeat(32)];
    const forged = (type, runId) => ({ schema: SCHEMA, type, runId, plan: "", plot: null, runJson: "{}",
        verdict: { status: "pass", passed: 9, total: 9, message: "forged" } });
    window.Worker = class extends Base {
        constructor(url, options) {
            super(url, options);
            if (String(url).includes("grader_worker"))
                this.addEventListener("message", (event) => answered.add(event.data && event.data.runId));
            else learners.add(this);
        }
        postMessage(message, ...rest) {
            super.postMessage(message, ...rest);
            if (!message || typeof message.runId !== "string") return;
            const runId = message.runId;
            seen.requests.push({ type: message.type, runId });
            setTimeout(() => {  // as a worker's message arrives: a task of its own
                const posts = GRADERS.map((type) => [type, runId]);
                for (const id of GUESSED) for (const type of [...GRADERS, "result", "ready"]) posts.push([type, id]);
                for (const worker of learners)
                    for (const [type, id] of posts) {
                        seen.forged.push({ type, runId: id, waiting: !answered.has(id) });
                        worker.dispatchEvent(new MessageEvent("message", { data: forged(type, id) }));
                    }
            }, 0);
        }
        terminate() {
            learners.delete(this);
            super.terminate();
        }
    };
})();"""


def test_forged_worker_message_from_a_learner_worker_is_ignored(page, isolated_server, repo_root):
    """A Check while every learner worker answers every request the page makes with a verdict that says pass: in the
    current schema, with the very run id the page waits on (the grader's JUDGE included) and with guessed ids (also as
    a result and a ready). The page takes a verdict only from the grader worker, and a learner's message only for the
    run it asked for: the Check's verdict is the grader's (fail), and nothing is recorded as passed. The forgeries
    with the JUDGE's id are seen to arrive while the page waits for that verdict, so only those rules can have
    dropped them."""
    from tests.browser.helpers import protocol_schema

    schema = protocol_schema(repo_root)
    page.add_init_script(FORGE_FROM_LEARNER_WORKERS.replace("SCHEMA", str(schema)))
    open_lesson(page, isolated_server)
    replace_code(page, "1", "def claim_support(claims, facts):\n    return []\n")
    section(page, "1").locator('[data-action="check"]').click()
    state, text = wait_verdict(page, "1")
    assert state == "fail" and "forged" not in text and "9/9" not in text, text
    assert page.locator("[data-progress]").inner_text() == "0 / 3"
    assert passed_ids(stored(page)) == []
    seen = page.evaluate("window.__forgery")
    judge = [r["runId"] for r in seen["requests"] if r["type"] == "judge"]
    assert judge and any(f["runId"] in judge and f["type"] == "verdict" and f["waiting"] for f in seen["forged"]), seen
    assert {f["type"] for f in seen["forged"] if f["runId"] == "0" * 32} == {
        "verdict",
        "prepared",
        "shrunk",
        "plotted",
        "result",
        "ready",
    }, seen


def test_hidden_graders_never_reach_the_python_file_system(lesson_pages):
    page = lesson_pages()
    section(page, "1").locator('[data-action="check"]').click()  # the lesson's grading data is loaded now
    wait_verdict(page, "1")
    replace_code(
        page,
        "try",
        "import os\nfor root, dirs, files in os.walk('/'):\n"
        "    if '/proc' in root or '/dev' in root:\n        continue\n"
        "    for f in files:\n        p = os.path.join(root, f)\n"
        "        if 'claims_abstention' in p or 'solution' in f:\n            print('FOUND', p)\n"
        "print('walked')\n",
    )
    section(page, "try").locator('[data-action="run"]').click()
    wait_idle(page, "try")
    out = section(page, "try").locator("[data-output]").inner_text()
    assert "walked" in out and "FOUND" not in out


def test_run_can_import_the_lessons_extra_package(page, plain_server):
    open_lesson(page, plain_server, lesson="micropip-demo")
    replace_code(page, "try", "import mdurl\nprint(mdurl.decode('a%20b') + '!')\n")
    section(page, "try").locator('[data-action="run"]').click()
    wait_idle(page, "try")
    assert "a b!" in section(page, "try").locator("[data-output]").inner_text()


# ---------------------------------------------------------------- progress and storage


def test_reload_keeps_drafts_and_progress(save_data_page, isolated_server):
    page = save_data_page  # Python boots for the Check only, not again for the reload and the home page
    open_lesson(page, isolated_server, ready="editors")
    put_solution(page, "1")
    section(page, "1").locator('[data-action="check"]').click()
    assert wait_verdict(page, "1")[0] == "pass"
    replace_code(page, "2", "# my draft for two\n")
    wait_draft(page, "2", "# my draft for two")
    page.reload()
    wait_editors(page)
    assert page.locator("[data-progress]").inner_text() == "1 / 3"
    assert editor_text(page, "2").startswith("# my draft for two")
    doc = stored(page)
    assert doc["version"] == 1 and passed_ids(doc) == ["1"]
    assert doc["lessons"][LESSON]["checkpoints"]["1"]["solutionRevealed"] is True
    assert section(page, "1").locator("[data-solution]").is_visible()  # remembered
    page.goto(isolated_server.url + "en/index.html")
    assert page.locator(f'[data-lesson-progress="{LESSON}"]').inner_text() == "1 / 3"


def test_reset_to_starter_is_undoable(lesson_pages, repo_root):
    """Reset is one undoable change, and its notice follows the editor: undone with Ctrl+Z, it says the code is back
    (it used to go on saying the editor was reset); edited instead, its "Undo reset" goes, as it would now throw the
    new edits away too."""
    said = json.loads((repo_root / "werkbank" / "catalog" / "en.json").read_text(encoding="utf-8"))
    page = lesson_pages()
    line = section(page, "1").locator("[data-verdict] .verdict-line")
    undo = section(page, "1").locator('[data-action="undo-reset"]')
    starter = editor_text(page, "1")
    replace_code(page, "1", "# mine\n")
    section(page, "1").locator('[data-action="reset"]').click()
    assert editor_text(page, "1") == starter
    assert line.inner_text().startswith(said["reset_done"]) and undo.count() == 1
    editor(page, "1").click()
    page.keyboard.press("Control+z")
    assert editor_text(page, "1").startswith("# mine")
    assert line.inner_text() == said["reset_undone"] and undo.count() == 0
    section(page, "1").locator('[data-action="reset"]').click()
    assert undo.count() == 1
    editor(page, "1").click()
    page.keyboard.press("End")
    page.keyboard.type("x")
    assert line.inner_text().startswith(said["reset_done"]) and undo.count() == 0


def test_corrupt_storage_starts_clean_and_keeps_the_raw_value(save_data_page, isolated_server):
    page = save_data_page  # Python boots for the Check only
    open_lesson(page, isolated_server, ready=False)
    page.evaluate(f"localStorage.setItem({json.dumps(KEY)}, '{{not json')")
    page.reload()
    warning = page.locator('[data-warning="storage_warning_corrupt"]')
    warning.wait_for()
    assert page.locator("[data-progress]").inner_text() == "0 / 3"
    keys = page.evaluate("Object.keys(localStorage)")
    aside = [k for k in keys if k.startswith(KEY + ":corrupt:")]
    assert len(aside) == 1
    assert page.evaluate(f"localStorage.getItem({json.dumps(aside[0])})") == "{not json"
    wait_editors(page)
    put_solution(page, "1")
    section(page, "1").locator('[data-action="check"]').click()
    assert wait_verdict(page, "1")[0] == "pass"
    assert passed_ids(stored(page)) == ["1"]
    # damaged again: the last verdict, kept apart with the code it checked, brings back that code and the pass, so
    # the page never shows a passed verdict beside a checkpoint "not started"
    passing = editor_text(page, "1")
    page.evaluate(f"localStorage.setItem({json.dumps(KEY)}, '{{not json')")
    page.reload()
    page.locator('[data-warning="storage_warning_corrupt"]').wait_for()
    wait_editors(page)
    assert page.locator("[data-progress]").inner_text() == "1 / 3"
    assert editor_text(page, "1") == passing
    assert section(page, "1").locator("[data-verdict]").get_attribute("data-verdict") == "pass"
    assert passed_ids(stored(page)) == ["1"]
    # damaged again, and the home page opened first (the usual way in): it sets the damage aside, so it takes back
    # what the kept verdicts hold as a lesson page does, and the lesson page then shows the same
    page.evaluate(f"localStorage.setItem({json.dumps(KEY)}, '{{not json')")
    page.goto(isolated_server.url)
    page.locator('[data-warning="storage_warning_corrupt"]').wait_for()
    assert passed_ids(stored(page)) == ["1"]
    open_lesson(page, isolated_server, ready="editors")
    assert page.locator("[data-progress]").inner_text() == "1 / 3"
    assert editor_text(page, "1") == passing


def test_newer_storage_version_is_left_untouched(save_data_page, isolated_server):
    page = save_data_page  # Python boots for the Check only
    future = json.dumps({"version": 99, "whatever": {"x": 1}})
    open_lesson(page, isolated_server, ready=False)
    page.evaluate(f"localStorage.setItem({json.dumps(KEY)}, {json.dumps(future)})")
    page.reload()
    page.locator('[data-warning="storage_warning_newer"]').wait_for()
    wait_editors(page)
    put_solution(page, "1")
    section(page, "1").locator('[data-action="check"]').click()
    assert wait_verdict(page, "1")[0] == "pass"
    assert page.locator("[data-progress]").inner_text() == "1 / 3"  # kept in memory
    assert page.evaluate(f"localStorage.getItem({json.dumps(KEY)})") == future


# Storage that throws on every write: a Check still passes, the page warns and keeps the progress in memory (and
# offers an export): test_hostile.py test_full_storage_warns_keeps_working_and_offers_export.


def test_export_then_import_round_trip(save_data_page, isolated_server, tmp_path, repo_root):
    """Export, reset, a damaged file refused in the page's language, the export imported back; then a file whose code
    for an editor differs from this device's: the learner is asked, and the side they choose is kept (the draft on
    this device used to win without a word)."""
    said = json.loads((repo_root / "werkbank" / "catalog" / "en.json").read_text(encoding="utf-8"))
    doc = {
        "version": 1,
        "lessons": {
            LESSON: {
                "checkpoints": {
                    "1": {
                        "passedAt": "2026-01-02T03:04:05.000Z",
                        "lastPassingCode": "x = 1",
                        "solutionRevealed": False,
                    },
                    "3": {"passedAt": "2026-01-03T03:04:05.000Z", "lastPassingCode": "y = 2", "solutionRevealed": True},
                },
                "drafts": {"2": "# draft <b>&</b>"},
            }
        },
    }
    page = save_data_page
    page.goto(isolated_server.url)
    page.evaluate(f"localStorage.setItem({json.dumps(KEY)}, {json.dumps(json.dumps(doc))})")
    page.reload()
    cell = page.locator(f'[data-lesson-progress="{LESSON}"]')
    assert cell.inner_text() == "2 / 3"
    with page.expect_download() as info:
        page.locator('[data-action="export"]').click()
    path = tmp_path / "progress.json"
    info.value.save_as(path)
    exported = json.loads(path.read_text(encoding="utf-8"))
    assert exported == doc
    page.once("dialog", lambda d: d.accept())
    page.locator('[data-action="reset-all"]').click()
    assert cell.inner_text() == "0 / 3"
    assert stored(page) is None
    bad = tmp_path / "bad.json"
    bad.write_text('{"version": 1, "lessons": {"x": {"checkpoints": {"1": "yes"}}}}', encoding="utf-8")
    message = page.locator("[data-progress-message]")
    page.locator('input[data-action="import"]').set_input_files(str(bad))
    # the reset's own message is still there until the file is read: wait for the import's
    refused = said["import_failed_not_progress"]
    poll(page, "text => document.querySelector('[data-progress-message]').textContent === text", refused, timeout=30)
    assert message.text_content() == refused
    assert cell.inner_text() == "0 / 3"
    page.locator('input[data-action="import"]').set_input_files(str(path))
    poll(page, "id => document.querySelector(`[data-lesson-progress=\"${id}\"]`).textContent === '2 / 3'", LESSON)
    assert stored(page) == doc and message.text_content() == said["import_done"]
    here = json.loads(json.dumps(doc))
    here["lessons"][LESSON]["drafts"]["2"] = "# written on this device"
    page.evaluate(f"localStorage.setItem({json.dumps(KEY)}, {json.dumps(json.dumps(here))})")
    page.reload()
    for answer, kept, told in ((False, here, "import_done_own_drafts"), (True, doc, "import_done_file_drafts")):
        asked = []
        page.once(
            "dialog",
            lambda d, answer=answer, asked=asked: (asked.append(d.message), d.accept() if answer else d.dismiss()),
        )
        page.locator('input[data-action="import"]').set_input_files(str(path))
        poll(page, "text => document.querySelector('[data-progress-message]').textContent === text", said[told])
        assert asked == [said["import_conflict"].replace("{n}", "1")]
        assert stored(page) == kept


def test_two_tabs_keep_both_passes(lesson_pages, isolated_server):
    first = lesson_pages()  # the shared page is the first tab; the second opens in its context (same storage)
    second = first.context.new_page()
    second.set_default_timeout(120_000)
    try:
        _two_tabs(first, second, isolated_server)
    finally:
        second.close()


def _two_tabs(first, second, isolated_server):
    open_lesson(second, isolated_server)
    put_solution(first, "1")
    first_check = section(first, "1").locator('[data-action="check"]')
    put_solution(second, "2")
    first_check.click()
    assert wait_verdict(first, "1")[0] == "pass"
    section(second, "2").locator('[data-action="check"]').click()  # this tab loaded before the first pass
    assert wait_verdict(second, "2")[0] == "pass"
    assert passed_ids(stored(second)) == ["1", "2"]
    poll(first, "() => document.querySelector('[data-progress]').textContent === '2 / 3'")
    assert second.locator("[data-progress]").inner_text() == "2 / 3"
    # a draft saved in the first tab does not drop the second tab's pass either
    replace_code(first, "3", "# later draft\n")
    wait_draft(first, "3", "# later draft")
    assert passed_ids(stored(first)) == ["1", "2"]


def test_a_draft_changed_in_another_tab_is_followed_where_this_tab_has_nothing_of_its_own(
    lesson_pages, isolated_server
):
    """Two tabs of one lesson. Where the second tab's editor still holds what it loaded, the first tab's new draft
    simply replaces it, and a note says so (asking "which version?" of a learner who has no version of their own
    there only confuses). Where the second tab holds work of its own, both are kept until the learner chooses, also
    across a reload of that tab."""
    first = lesson_pages()
    second = first.context.new_page()
    second.set_default_timeout(120_000)
    second.add_init_script(SAVE_DATA)  # drafts and their notes come from storage events: this tab runs no code
    try:
        open_lesson(second, isolated_server, ready="editors")
        replace_code(first, "2", "# written in the first tab\n")
        wait_draft(first, "2", "# written in the first tab")
        poll(second, "() => document.querySelector('[data-checkpoint=\"2\"] [data-draft-notice]:not([hidden])')")
        assert editor_text(second, "2").startswith("# written in the first tab")
        notice = section(second, "2").locator("[data-draft-notice]")
        assert notice.locator("button").count() == 0 and "another tab" in notice.inner_text()
        # work of its own in the second tab: kept, and the learner chooses
        replace_code(second, "3", "# the second tab's own\n")
        wait_draft(second, "3", "# the second tab's own")
        replace_code(first, "3", "# the first tab's\n")
        wait_draft(first, "3", "# the first tab's")
        poll(second, '() => document.querySelector(\'[data-checkpoint="3"] [data-action="draft-keep-mine"]\')')
        assert editor_text(second, "3").startswith("# the second tab's own")
        # a reload before choosing loses neither: the stored draft is in the editor, the other version is offered
        second.reload()
        wait_editors(second)
        assert editor_text(second, "3").startswith("# the first tab's")
        use = section(second, "3").locator('[data-action="draft-use-other"]')
        assert use.inner_text() == "Use the kept version"
        use.click()
        assert editor_text(second, "3").startswith("# the second tab's own")
        wait_draft(second, "3", "# the second tab's own")
        poll(second, '() => !document.querySelector(\'[data-checkpoint="3"] [data-action="draft-keep-mine"]\')')
    finally:
        second.close()


# ---------------------------------------------------------------- languages, theme


def test_arabic_page_is_rtl_with_ltr_editor_code_and_output(lesson_pages):
    page = lesson_pages(ARABIC_LESSON, "ar")
    assert page.get_attribute("html", "lang") == "ar"
    assert page.get_attribute("html", "dir") == "rtl"
    assert page.evaluate("getComputedStyle(document.querySelector('main')).direction") == "rtl"
    for selector in (
        '[data-checkpoint="1"] .cm-editor',
        '[data-checkpoint="1"] [data-output]',
        "[data-playground] .cm-content",
    ):
        assert page.evaluate(f"getComputedStyle(document.querySelector({json.dumps(selector)})).direction") == "ltr"
    maths = page.locator("math")
    if maths.count():
        assert maths.first.get_attribute("dir") == "ltr"
    replace_code(page, "try", "print('مرحبا', 1 + 2)\n")
    section(page, "try").locator('[data-action="run"]').click()
    wait_idle(page, "try")
    assert "3" in section(page, "try").locator("[data-output]").inner_text()
    # a Run's value in the verdict's line is Python source: left to right inside the Arabic sentence, as it is
    replace_in(page, example_editor(page, "1"), "(0.5, -2)\n")
    click(page, "1", "run")
    wait_verdict(page, "1", ("idle",))
    value = section(page, "1").locator(".verdict-line bdi")
    assert value.inner_text() == "(0.5, -2)" and value.get_attribute("dir") == "ltr"


def test_a_verdict_with_plot_data_draws_the_reliability_diagram(lesson_pages):
    page = lesson_pages(ARABIC_LESSON, "ar")
    cp = "3"  # lesson.toml: plot = "reliability"
    put_solution(page, cp)
    section(page, cp).locator('[data-action="check"]').click()
    state, _ = wait_verdict(page, cp)
    assert state == "pass"
    assert section(page, cp).locator("[data-verdict] .verdict-plot svg").count() >= 1


def test_run_also_draws_the_learners_reliability_diagram(lesson_pages):
    """Run (not only Check) draws the plot: from what the learner's function returns, or a note when it can't."""
    page = lesson_pages(ARABIC_LESSON, "ar")
    put_solution(page, "3")
    section(page, "3").locator('[data-action="run"]').click()
    wait_idle(page, "3")
    assert section(page, "3").locator("[data-verdict] .verdict-plot svg").count() >= 1
    replace_code(page, "3", "print('nothing defined yet')\n")
    section(page, "3").locator('[data-action="run"]').click()
    wait_idle(page, "3")
    plot = section(page, "3").locator("[data-verdict] .verdict-plot")
    assert plot.count() == 1 and plot.inner_text().strip(), "a Run without the function still explains the plot"
    assert "nothing defined yet" in section(page, "3").locator("[data-output]").inner_text()


def test_language_switch_keeps_the_place(save_data_page, isolated_server):
    """The other language's page opens at the same checkpoint. A verdict kept from the English page is not shown on
    the Dutch one, whose learner would read English sentences in it, and is shown again back on the English page."""
    page = save_data_page
    page.goto(f"{isolated_server.url}lessons/{LESSON}/en.html#checkpoint-2")
    verdict = {"status": "pass", "passed": 3, "total": 3, "lang": "en", "message": "All 3 cases pass."}
    kept = {LESSON: {"2": {"verdict": verdict, "timeLimit": 5, "code": "", "at": "2026-12-06T04:00:00Z"}}}
    page.evaluate("(doc) => localStorage.setItem('werkbank:verdicts', JSON.stringify(doc))", kept)
    shown = "() => document.querySelector('[data-checkpoint=\"2\"] [data-verdict]').dataset.restored || 'no'"
    page.wait_for_selector("body[data-editors=ready]", state="attached")
    page.locator('.lang-switch a[hreflang="nl"]').focus()  # see test_language_switch_keeps_the_place_the_learner_...
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(r"/nl\.html#checkpoint-2(-title)?$"))
    assert page.get_attribute("html", "lang") == "nl"
    page.wait_for_selector("body[data-editors=ready]", state="attached")
    assert page.evaluate(shown) == "no"
    page.locator('.lang-switch a[hreflang="en"]').focus()
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(r"/en\.html#checkpoint-2(-title)?$"))
    page.wait_for_selector("body[data-editors=ready]", state="attached")
    assert page.evaluate(shown) == "true"


def test_language_switch_keeps_the_place_the_learner_scrolled_to(save_data_page, isolated_server):
    """Scrolled to a checkpoint (no anchor in the address), the switch opens the other language there. It used to pick
    the last anchor above the viewport's top, and the hidden end of an unfinished lesson (last on the page, with no
    place of its own) always won: the other page opened at its top. Reaching the switch by keyboard keeps the place."""
    page = save_data_page
    page.goto(f"{isolated_server.url}lessons/{LESSON}/en.html")
    page.wait_for_selector("body[data-editors=ready]", state="attached")
    assert page.locator("#lesson-end").is_hidden()  # an unfinished lesson
    page.evaluate("() => document.getElementById('checkpoint-2').scrollIntoView()")
    where = page.evaluate("() => scrollY")
    # focus in the sticky top bar leaves the page where it is: it used to scroll it up by the room the page keeps
    # above focus for that bar (366 px here), at every Tab through the bar, so the switch then found another place
    page.locator('.lang-switch a[hreflang="nl"]').focus()
    assert page.evaluate("() => scrollY") == where
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(r"/nl\.html#checkpoint-2(-title)?$"))
    page.wait_for_selector("body[data-editors=ready]", state="attached")
    top = page.evaluate("() => document.getElementById('checkpoint-2').getBoundingClientRect().top")
    assert -200 < top < 200, top


def test_the_home_link_of_a_page_in_the_default_language_stays_in_that_language(save_data_page, isolated_server):
    """The default language's home is the shared index.html, which follows the browser's language until the learner
    picks one. A Dutch lesson opened from a link, in an English browser, used to lead home to the English home page;
    its home link now counts as picking Dutch."""
    page = save_data_page
    assert page.evaluate("() => navigator.language").startswith("en")
    page.goto(f"{isolated_server.url}lessons/{LESSON}/nl.html")
    page.wait_for_selector("body[data-editors=ready]", state="attached")
    page.locator("a[data-home]").click()
    page.wait_for_selector("body[data-page=home]", state="attached")
    assert page.url == f"{isolated_server.url}index.html" and page.get_attribute("html", "lang") == "nl"


def test_theme_toggle_is_remembered(save_data_page, isolated_server):
    page = save_data_page
    open_lesson(page, isolated_server, ready=False)
    before = page.evaluate("document.documentElement.dataset.theme")
    page.locator("[data-theme-toggle]").click()
    after = page.evaluate("document.documentElement.dataset.theme")
    assert {before, after} == {"light", "dark"}
    page.reload()
    assert page.evaluate("document.documentElement.dataset.theme") == after


# ---------------------------------------------------------------- focus in view

#: Where the focused element is: on the screen below the sticky top bar (true), or why not. In an editor, its caret.
FOCUS_SHOWN = """() => {
    const el = document.activeElement;
    if (!el || el === document.body) return 'nothing has focus';
    const inEditor = Boolean(el.closest('[data-editor]'));
    let r = el.getBoundingClientRect();
    if (inEditor) {  // the caret; a collapsed range at a line's edge has no box: then its line
        const range = getSelection().getRangeAt(0), node = range.startContainer;
        r = range.getBoundingClientRect();
        if (!r.height) r = (node.nodeType === 1 ? node : node.parentElement).closest('.cm-line').getBoundingClientRect();
    }
    const bar = document.querySelector('.topbar').getBoundingClientRect().bottom;
    const what = inEditor ? 'the caret' : el.dataset.action || el.tagName;
    return r.top >= bar - 1 && r.bottom <= innerHeight + 1
        ? what : `${what} at ${Math.round(r.top)}-${Math.round(r.bottom)} (bar ends at ${Math.round(bar)}, window ${innerHeight})`;
}"""


def _focus_shown(page, expected):
    """Wait until focus is on ``expected`` (the caret, or a button's action) and shown; fail with where it is."""
    deadline = time.monotonic() + 10
    while (where := page.evaluate(FOCUS_SHOWN)) != expected:
        if time.monotonic() > deadline:
            raise AssertionError(f"focus should be on {expected}, on the screen: {where}")
        page.wait_for_timeout(50)


def test_focus_a_button_moves_is_always_on_the_screen(lesson_pages):
    """Keyboard only, on a laptop screen: the solution put in the editor from its box far below, a Run of an endless
    loop stopped while the verdict area shows, then Reset. Each time focus moves for the learner (into the editor,
    back to Run) it lands where they can see it, below the sticky top bar, not off the screen or under the bar."""
    page = lesson_pages(lesson="retrieval-evaluation")
    page.set_viewport_size({"width": 1280, "height": 800})
    put_solution(page, "1")  # the solution's box sits below the buttons: the editor scrolled out of sight above it
    _focus_shown(page, "the caret")
    page.keyboard.press("Control+End")
    page.keyboard.type("\nwhile True:\n    pass\n")
    run = section(page, "1").locator('[data-action="run"]')
    run.focus()
    page.keyboard.press("Enter")
    page.wait_for_selector('[data-checkpoint="1"][data-state="running"]', state="attached")
    section(page, "1").locator('[data-action="stop"]').focus()
    page.keyboard.press("Enter")
    wait_idle(page, "1")
    _focus_shown(page, "run")
    page.once("dialog", lambda dialog: dialog.accept())
    section(page, "1").locator('[data-action="reset"]').focus()
    page.keyboard.press("Enter")
    _focus_shown(page, "the caret")
