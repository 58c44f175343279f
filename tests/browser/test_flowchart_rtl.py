"""The Arabic lesson's flowcharts read from right to left in Chromium, on the page the build writes.

For every flowchart of ``prose.ar.md`` (read with :func:`werkbank.flowchart.parse_flowchart`), the built page
``dist/lessons/perplexity-calibration/ar.html`` is served by a plain static host and measured in Chromium:

- the diagram has a right-to-left base direction;
- in a ``flowchart LR`` every arrow points from right to left (the source box lies right of its target), so the chart
  starts at the right edge; in a ``flowchart TD`` every arrow points down;
- inside every label, words follow the Arabic reading order: of two neighbouring words of which at least one is
  Arabic, the first stands to the right of the second. That is what broke when the SVG was forced left to right:
  «N تنبؤًا لكل منها ثقة p» showed ``N`` at the left end.
"""

from __future__ import annotations

import re

import pytest

from werkbank.flowchart import parse_flowchart
from werkbank.lessons import load_lesson
from tests.conftest import SAVE_DATA

LESSON = "perplexity-calibration"
ARABIC = re.compile(r"[\u0600-\u06FF]")

MEASURE = """() => [...document.querySelectorAll('article.prose svg.flowchart')].map((svg) => ({
    direction: getComputedStyle(svg).direction,
    nodes: [...svg.querySelectorAll('g.fc-node')].map((g) => {
        const box = g.querySelector('rect').getBoundingClientRect();
        return {
            id: g.dataset.node,
            x: box.left + box.width / 2,
            y: box.top + box.height / 2,
            lines: [...g.querySelectorAll('text')].map((text) => {
                const content = text.textContent;
                const words = [];
                let start = 0;
                for (const word of content.split(' ')) {
                    const centres = [];
                    for (let i = start; i < start + word.length; i += 1) {
                        const extent = text.getExtentOfChar(i);
                        if (extent.width > 0) centres.push(extent.x + extent.width / 2);
                    }
                    words.push({ word, x: centres.reduce((a, b) => a + b, 0) / centres.length });
                    start += word.length + 1;
                }
                return { text: content, direction: getComputedStyle(text).direction, words };
            }),
        };
    }),
}))"""


@pytest.fixture
def arabic_page(browser, plain_server):
    context = browser.new_context(service_workers="block")  # no isolation reload while we measure
    context.add_init_script(SAVE_DATA)  # and no Python: nothing runs here
    page = context.new_page()
    page.set_default_timeout(120_000)
    page.goto(f"{plain_server.url}lessons/{LESSON}/ar.html", wait_until="load")
    yield page
    context.close()


def test_arabic_flowcharts_read_from_right_to_left(arabic_page):
    prose = load_lesson(LESSON).prose("ar")
    charts = [parse_flowchart(block) for block in re.findall(r"^```flowchart\n(.*?)^```", prose, re.S | re.M)]
    drawn = arabic_page.evaluate(MEASURE)
    assert len(drawn) == len(charts) == 2
    assert {direction for direction, _, _ in charts} == {"LR", "TD"}
    checked_pairs = 0
    for (direction, nodes, edges), svg in zip(charts, drawn):
        assert svg["direction"] == "rtl"
        where = {node["id"]: node for node in svg["nodes"]}
        assert set(where) == set(nodes)
        for node in svg["nodes"]:
            assert " ".join(line["text"] for line in node["lines"]) == nodes[node["id"]].label
        for source, target, _ in edges:
            a, b = where[source], where[target]
            if direction == "LR":
                assert a["x"] > b["x"], f"{nodes[source].label} should stand right of {nodes[target].label}"
            else:
                assert a["y"] < b["y"], f"{nodes[source].label} should stand above {nodes[target].label}"
        if direction == "LR":  # the chart starts at the right edge
            first = min(nodes.values(), key=lambda n: n.order).id
            assert where[first]["x"] == max(node["x"] for node in svg["nodes"])
        for node in svg["nodes"]:
            for line in node["lines"]:
                assert line["direction"] == "rtl", line["text"]
                words = line["words"]
                for left_word, right_word in zip(words, words[1:]):
                    if ARABIC.search(left_word["word"] + right_word["word"]):
                        checked_pairs += 1
                        assert left_word["x"] > right_word["x"], (
                            f"in «{line['text']}», «{left_word['word']}» should be read before "
                            f"«{right_word['word']}», so stand right of it"
                        )
    assert checked_pairs >= 20
    # a label that opens with a Latin word ("CalibrationReport: ...") still starts at the right in an Arabic line
    latin_first = [
        line["words"]
        for svg in drawn
        for node in svg["nodes"]
        for line in node["lines"][:1]
        if len(line["words"]) > 1
        and not ARABIC.search(line["words"][0]["word"])
        and ARABIC.search(" ".join(w["word"] for w in line["words"]))
    ]
    assert latin_first
    for words in latin_first:
        assert words[0]["x"] == max(w["x"] for w in words), words[0]["word"]
