"""The lessons' figures and verdict plots in real Chromium, on the built lesson pages (shared fixtures).

- the risk-coverage figure of claims-abstention is keyboard-operable with a live readout;
- the fusion-recall figure of retrieval-evaluation is keyboard-operable, with a live summary, top-k lists and a
  data table that follow its controls, and its verdict plot draws the learner's fused ranking beside the reference's;
- the reliability figure of perplexity-calibration responds to its controls (its binning: tests/test_figure_logic.py);
- the verdict plot draws what the engine hands it (plain numbers): the learner's and the reference's diagrams with a
  data table, a note when the learner's result is missing or cannot be drawn, and learner text never as markup.

The verdict plot is drawn through the one figure registry (``web/src/figures/index.js``), bundled for the test and
loaded into a real lesson page, so it reads the page's own UI strings: one page per language for the module, which
boots no Python (nothing here runs learner code; ``SAVE_DATA`` in tests/conftest.py). The pages come from ``werkbank serve`` (cross-origin
isolated), so the service worker's one isolation reload of a plain host does not interrupt a test.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from werkbank.grading import grade_source
from werkbank.lessons import load_lesson
from tests.conftest import SAVE_DATA

REPO = Path(__file__).resolve().parents[2]
ESBUILD = REPO / "node_modules" / ".bin" / "esbuild"
PERPLEXITY = load_lesson("perplexity-calibration")
RETRIEVAL = load_lesson("retrieval-evaluation")
DATA = REPO / "tests" / "data" / "perplexity-calibration"


@pytest.fixture(scope="module")
def figures_bundle(tmp_path_factory):
    """web/src/figures/index.js, reliability.js and i18n.js as one script exposing ``Figures``."""
    folder = tmp_path_factory.mktemp("figures")
    entry = folder / "entry.js"
    src = REPO / "web" / "src"
    entry.write_text(
        f'export {{ renderPlot, REGISTRY }} from "{(src / "figures" / "index.js").as_posix()}";\n'
        f'export {{ summarize }} from "{(src / "figures" / "reliability.js").as_posix()}";\n'
        f'export {{ loadStrings }} from "{(src / "i18n.js").as_posix()}";\n',
        encoding="utf-8",
    )
    bundle = folder / "figures.js"
    subprocess.run(
        [
            str(ESBUILD),
            str(entry),
            "--bundle",
            "--format=iife",
            "--global-name=Figures",
            f"--define:SETTINGS={_settings()}",
            f"--outfile={bundle}",
        ],
        check=True,
        capture_output=True,
        cwd=REPO,
    )
    return bundle


@pytest.fixture(scope="module")
def plot_page(browser, isolated_server, figures_bundle):
    """``get(lang, lesson=PERPLEXITY.id) -> page``: a lesson page in ``lang`` with the test's figure bundle loaded,
    one per lesson and language for the module (no Python: SAVE_DATA); ``page.figure_errors`` holds the page errors
    since it was handed out. The context may run the bundle next to the site's own scripts (the pages' CSP forbids inline
    scripts, which is how Playwright adds one)."""
    context = browser.new_context(bypass_csp=True)
    context.add_init_script(SAVE_DATA)
    made = {}

    def get(lang, lesson=PERPLEXITY.id):
        if (lesson, lang) not in made:
            page = context.new_page()
            page.set_default_timeout(60_000)
            page.figure_errors = []
            page.on("pageerror", lambda error, p=page: p.figure_errors.append(str(error)))
            page.goto(f"{isolated_server.url}lessons/{lesson}/{lang}.html")
            page.add_script_tag(path=str(figures_bundle))
            page.evaluate("() => Figures.loadStrings()")
            made[lesson, lang] = page
        made[lesson, lang].figure_errors.clear()
        return made[lesson, lang]

    yield get
    context.close()


def _settings() -> str:
    import json

    from graders.engine.settings import for_web

    return json.dumps(for_web())


def _render(page, plot, lang):
    return page.evaluate(
        """([plot, lang]) => {
        document.getElementById('plot-under-test')?.remove();
        const box = document.createElement('div');
        box.id = 'plot-under-test';
        document.body.append(box);
        box.replaceChildren();
        Figures.renderPlot(box, plot, lang);
        return {
            svgs: box.querySelectorAll('svg').length,
            circles: [...box.querySelectorAll('svg')].map(s => s.querySelectorAll('circle').length),
            rows: box.querySelectorAll('tbody tr').length,
            notes: [...box.querySelectorAll('.reliability-note')].map(n => n.textContent),
            cells: [...box.querySelectorAll('tbody tr')].map(r => [...r.children].map(c => c.textContent)),
        };
    }""",
        [plot, lang],
    )


def _plot(source):
    return grade_source(PERPLEXITY.id, "3", source, seed=0, shrink_failures=False)["plot"]


def test_the_verdict_plot_draws_the_learners_and_the_references_diagram(plot_page):
    page = plot_page("en")
    result = _render(page, _plot((DATA / "alt_cp3_loops.py").read_text(encoding="utf-8")), "en")
    assert result["svgs"] == 2
    assert result["circles"] == [8, 8]  # one point per populated bin, none for the two empty bins
    assert result["rows"] == 10 and result["notes"] == []
    assert result["cells"][2][:2] == ["0.20–0.30", "3"]
    assert page.figure_errors == []


@pytest.mark.parametrize("lang", ["ar", "en"])
def test_the_verdict_plot_explains_a_missing_or_unusable_result(plot_page, lang):
    page = plot_page(lang)
    plot = _plot(PERPLEXITY.checkpoint("3").solution())
    unusable = _render(page, dict(plot, actual=["x", None, 3]), lang)
    assert unusable["svgs"] == 1 and len(unusable["notes"]) == 1 and unusable["notes"][0]
    missing = _render(page, dict(plot, actual=None), lang)
    assert missing["svgs"] == 1 and len(missing["notes"]) == 1 and missing["notes"] != unusable["notes"]
    assert page.figure_errors == []


@pytest.mark.parametrize("mistake", ["nan_for_empty_bins", "lists_not_arrays", "float_counts", "list_of_arrays"])
def test_the_verdict_plot_draws_what_wrong_solutions_returned(plot_page, mistake):
    page = plot_page("en")
    source = PERPLEXITY.checkpoint("3").mistake(mistake).source()
    result = _render(page, _plot(source), "en")
    assert result["svgs"] == 2 and result["notes"] == [] and result["rows"] == 10
    assert page.figure_errors == []


def test_the_verdict_plot_keeps_learner_text_out_of_markup(plot_page):
    page = plot_page("en")
    plot = dict(_plot(PERPLEXITY.checkpoint("3").solution()), actual=None, note="<img src=x onerror=alert(1)>")
    _render(page, plot, "en")
    assert page.locator("#plot-under-test img").count() == 0
    assert "<img src=x" in page.locator("#plot-under-test .reliability-note").first.text_content()
    assert page.figure_errors == []


# The reliability figure bins like the reference solution: tests/test_figure_logic.py (in Node, no page needed).


@pytest.mark.parametrize("lang", ["ar", "en"])
def test_the_reliability_figure_on_the_lesson_page_responds_to_its_controls(save_data_page, isolated_server, lang):
    page = save_data_page
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{isolated_server.url}lessons/{PERPLEXITY.id}/{lang}.html")
    figure = page.locator('[data-figure="reliability"][data-mounted="true"]')
    figure.wait_for()
    stats = figure.locator(".reliability-stats")
    before = stats.text_content()
    figure.locator("input[type=range]").fill("1")
    figure.locator("input[type=range]").dispatch_event("input")
    calibrated = stats.text_content()
    assert before != calibrated
    ece = lambda text: float(text.split("ECE")[1].split("·")[0].strip().replace("٫", "."))  # noqa: E731
    assert ece(calibrated) < ece(before)
    figure.locator("select:has(option[value='15'])").select_option("5")
    assert figure.locator("tbody tr").count() == 5
    assert figure.locator("figcaption").last.evaluate("(node) => node === node.parentElement.lastElementChild")
    assert errors == []


@pytest.mark.parametrize("lang", ["nl", "en"])
def test_the_risk_coverage_figure_is_keyboard_operable_with_a_live_readout(save_data_page, isolated_server, lang):
    page = save_data_page
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{isolated_server.url}lessons/claims-abstention/{lang}.html")
    figure = page.locator('[data-figure="risk-coverage"][data-mounted="true"]')
    figure.wait_for()
    readout = figure.locator("[aria-live]")
    slider = figure.locator("input[type=range]")
    assert readout.count() == 1 and slider.count() == 1 and figure.locator("svg").count() == 1
    no_risk = {"nl": "geen risico gedefinieerd", "en": "no risk defined"}[lang]
    slider.focus()
    page.keyboard.press("Home")
    text = readout.text_content()
    assert "5" in text and "100 %" in text and "20 %" in text, text
    assert figure.locator("li[data-state=answered]").count() == 5
    for _ in range(50):  # .50: the case with score .5 sits exactly on the threshold and is answered
        page.keyboard.press("ArrowRight")
    assert slider.input_value() == "0.5"
    text = readout.text_content()
    assert "80 %" in text and "25 %" in text, text
    assert figure.locator("li[data-state=answered]").count() == 4
    assert figure.locator("li[data-state=abstained]").count() == 1
    for _ in range(20):  # .70: past the wrong answer (.6), so the risk drops to 0 %
        page.keyboard.press("ArrowRight")
    assert slider.input_value() == "0.7" and figure.locator("li[data-state=answered]").count() == 2
    text = readout.text_content()
    assert "40 %" in text and text.count("0 %") == 2, text  # coverage 40 %, risk 0 %
    page.keyboard.press("End")  # threshold 1, above every score (.9): nothing is answered
    text = readout.text_content()
    assert no_risk in text and text.count("0 %") == 1, text
    assert figure.locator("li[data-state=answered]").count() == 0
    assert errors == []


@pytest.mark.parametrize("lang", ["en", "nl"])
def test_the_fusion_recall_figure_is_keyboard_operable_and_told_in_text(save_data_page, isolated_server, lang):
    page = save_data_page
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{isolated_server.url}lessons/{RETRIEVAL.id}/{lang}.html")
    figure = page.locator('[data-figure="fusion-recall"][data-mounted="true"]')
    figure.wait_for()
    summary = figure.locator("[aria-live]")
    slider = figure.locator("input[type=range]")
    assert summary.count() == 1 and slider.count() == 1 and figure.locator("svg.fusion-svg").count() == 1
    assert figure.locator("svg.fusion-svg").get_attribute("aria-label") == summary.text_content()
    slider.focus()
    page.keyboard.press("Home")
    assert slider.input_value() == "1"
    assert [figure.locator(".fusion-top").nth(i).locator("li").count() for i in range(3)] == [1, 1, 1]
    for _ in range(2):
        page.keyboard.press("ArrowRight")
    text = summary.text_content()  # cutoff 3, constant 60: keyword and embedding find 2 of 4, the fusion 1
    assert slider.input_value() == "3" and "k = 3" in text and text.count("50 %") == 2 and "25 %" in text, text
    assert figure.locator(".fusion-top").nth(2).locator("li[data-relevant=true]").count() == 1
    figure.locator("select").select_option("0")
    text = summary.text_content()  # the same cutoff with the constant at 0: the fusion finds 3 of 4
    assert "75 %" in text, text
    assert figure.locator(".fusion-top").nth(2).locator("li[data-relevant=true]").count() == 3
    slider.focus()
    page.keyboard.press("End")
    assert slider.input_value() == "13" and "100 %" in summary.text_content()
    assert figure.locator("tbody tr").count() == 13 and figure.locator("thead th").count() == 4
    assert figure.locator("polyline").count() == 3
    assert figure.locator("figcaption").last.evaluate("(node) => node === node.parentElement.lastElementChild")
    assert errors == []


def _fusion_plot(source):
    return grade_source(RETRIEVAL.id, "3", source, seed=0, shrink_failures=False)["plot"]


def _render_fusion(page, plot, lang):
    return page.evaluate(
        """([plot, lang]) => {
        document.getElementById('plot-under-test')?.remove();
        const box = document.createElement('div');
        box.id = 'plot-under-test';
        document.body.append(box);
        box.replaceChildren();
        Figures.renderPlot(box, plot, lang);
        return {
            lines: [...box.querySelectorAll('polyline')].map(l => l.getAttribute('class')),
            notes: [...box.querySelectorAll('.fusion-note')].map(n => n.textContent),
            cells: [...box.querySelectorAll('tbody tr')].map(r => [...r.children].map(c => c.textContent)),
            head: [...box.querySelectorAll('thead th')].map(c => c.textContent),
        };
    }""",
        [plot, lang],
    )


def test_the_fusion_plot_draws_yours_beside_the_reference(plot_page):
    page = plot_page("en", RETRIEVAL.id)
    alternative = REPO / "tests" / "data" / "retrieval-evaluation" / "alt_3_defaultdict.py"
    result = _render_fusion(page, _fusion_plot(alternative.read_text(encoding="utf-8")), "en")
    assert len(result["lines"]) == 4 and any("fusion-fused" in line for line in result["lines"])
    assert len(result["notes"]) == 1 and "a and d" in result["notes"][0]  # what the chart is about, no warning
    # per cutoff: keyword [a b c], embedding [b c d], the reference's and the learner's fusion [b c a d]
    assert [row[1:] for row in result["cells"]] == [
        ["50 %", "0 %", "0 %", "0 %"],
        ["50 %", "0 %", "0 %", "0 %"],
        ["50 %", "50 %", "50 %", "50 %"],
        ["50 %", "50 %", "100 %", "100 %"],
    ]
    wrong = RETRIEVAL.checkpoint("3").mistake("02_lowest_first").source()
    drawn = _render_fusion(page, _fusion_plot(wrong), "en")  # lowest score first: d, a, c, b
    assert len(drawn["lines"]) == 4 and [row[4] for row in drawn["cells"]] == ["50 %", "100 %", "100 %", "100 %"]
    assert page.figure_errors == []


@pytest.mark.parametrize("lang", ["nl", "en"])
def test_the_fusion_plot_explains_a_missing_or_unusable_result(plot_page, lang):
    page = plot_page(lang, RETRIEVAL.id)
    plot = _fusion_plot(RETRIEVAL.checkpoint("3").solution())
    missing = _render_fusion(page, dict(plot, actual=None), lang)
    unusable = _render_fusion(page, dict(plot, actual=[1, 2, 3]), lang)
    assert len(missing["lines"]) == len(unusable["lines"]) == 3  # the two rankings and the reference
    assert len(missing["notes"]) == len(unusable["notes"]) == 2 and missing["notes"][1] != unusable["notes"][1]
    hostile = dict(plot, actual=[["<img src=x onerror=alert(1)>", 1.0], ["a", 0.5]])
    _render_fusion(page, hostile, lang)
    assert page.locator("#plot-under-test img").count() == 0
    assert page.figure_errors == []
