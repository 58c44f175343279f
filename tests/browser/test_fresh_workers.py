"""Every job gets a pristine learner worker: what one Run leaves behind reaches no later Run, and no order of Run,
Check and page state leaves the page waiting for ever.

Runs used to reuse the learner's worker, so code that left an asyncio task behind (it runs once the runner has put
the interpreter back) could patch the engine for every later Run; and a Run pressed between "Python usable" and the
first "ready" left the page without a worker a Check could use.
"""

from __future__ import annotations

import pytest

from werkbank.lessons import load_lesson

from tests.browser.helpers import (
    LESSON,
    check,
    click,
    open_lesson,
    poll,
    replace_code,
    run,
    section,
    wait_idle,
    wait_ready,
)

pytestmark = pytest.mark.browser

# A Run that looks harmless, and leaves a task behind: once the run is over and the runner has put the interpreter
# back (the graders importable again), the task replaces the runner's entry point with one that forges its output.
LEAVES_A_TASK = """
import asyncio

async def later():
    for _ in range(3):
        await asyncio.sleep(0)
    import graders.engine.runner as runner
    runner.run = lambda source, plan, on_output=None: {
        "status": "ok", "stdout": "FORGED All 999 cases pass\\n", "stderr": "", "truncated": False,
        "traceback": None, "error_line": None, "exit_code": None, "outcomes": []}

asyncio.get_event_loop().create_task(later())
print("nothing to see")
"""


def test_a_task_a_run_leaves_behind_never_reaches_a_later_run_or_check(lesson_pages):
    page = lesson_pages()
    state, _, output = run(page, "try", LEAVES_A_TASK)
    assert "nothing to see" in output, (state, output)
    page.wait_for_timeout(300)  # the task's turn comes as soon as the worker's event loop is free
    for _ in range(2):
        state, _, output = run(page, "try", "print('genuine', 6 * 7)")
        assert "genuine 42" in output and "FORGED" not in output, (state, output)
    starter = load_lesson(LESSON).checkpoint("1").starter("en")
    state, text, output, _ = check(page, starter)
    assert state == "fail" and "FORGED" not in output, (state, text)


def test_a_run_pressed_while_the_grader_still_loads_leaves_the_page_ready_for_a_check(browser, isolated_server):
    """The learner's Python is usable before the grader is ready; a Run then takes the only learner worker. The page
    must still become ready, and the next Check must give its verdict."""
    context = browser.new_context(service_workers="block")  # the grader's requests go where the route sees them
    held = []
    context.route(f"**/grading/{LESSON}*", lambda route: held.append(route))  # the grader waits for its data
    page = context.new_page()
    page.set_default_timeout(120_000)
    try:
        open_lesson(page, isolated_server, ready=False)
        page.wait_for_selector('body[data-python="ready"][data-editors="ready"]', state="attached")
        assert page.evaluate("document.body.dataset.runtime") != "ready"
        state, _, output = run(page, "try", "print(6 * 7)")
        assert "42" in output, (state, output)
        for route in held:
            route.continue_()
        context.unroute(f"**/grading/{LESSON}*")
        wait_ready(page)
        solution = load_lesson(LESSON).checkpoint("1").solution()
        replace_code(page, "1", solution)
        click(page, "1", "check")
        poll(
            page,
            "() => ['pass', 'fail', 'error', 'timeout'].includes("
            "document.querySelector('[data-checkpoint=\"1\"] [data-verdict]').dataset.verdict)",
            timeout=90,
        )
        wait_idle(page, "1")
        assert section(page, "1").locator("[data-verdict]").get_attribute("data-verdict") == "pass"
    finally:
        context.close()


def test_every_learner_worker_hashes_strings_the_same_way(lesson_pages):
    """Each job gets a new worker, and every worker starts Python with the same hash seed: code that iterates a set
    of strings prints, returns and is graded the same way on every Run and Check."""
    page = lesson_pages()
    code = "print(list({'d1', 'd2', 'd3', 'd4', 'd5', 'x', 'yy'}), hash('abc'))"
    outputs = {run(page, "try", code)[2].strip() for _ in range(3)}
    assert len(outputs) == 1, outputs
