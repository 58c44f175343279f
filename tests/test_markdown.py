"""werkbank.markdown: math becomes MathML, flowcharts become SVG, unsafe links stop the build, raw HTML is text."""

from __future__ import annotations

import re
from html.parser import HTMLParser
import xml.etree.ElementTree as ET

import pytest

from werkbank.lessons import LessonError
from werkbank.markdown import MarkdownError, check_url, flowchart_svg, render, render_inline

SVG_NS = "{http://www.w3.org/2000/svg}"


# ---------------------------------------------------------------- math

def test_inline_math_becomes_inline_mathml_left_to_right():
    out = render("The mean is $\\bar{x} = \\frac{1}{n}$ here.")
    assert '<math dir="ltr"' in out
    assert 'display="inline"' in out
    assert "<mfrac>" in out
    assert "$" not in out  # the TeX source is gone


def test_display_math_becomes_block_mathml():
    out = render("Before\n\n$$\nE = \\sum_i w_i\n$$\n\nAfter")
    block = re.search(r'<div class="math-display" dir="ltr"><math [^>]*display="block"[^>]*>.*?</math></div>', out, re.S)
    assert block, out
    assert "<munder>" in block.group(0) or "<msub>" in block.group(0)


def test_math_special_characters_are_escaped_in_mathml():
    out = render("$a < b$")
    assert "<mo>&lt;</mo>" in out or "&#x0003C;" in out
    assert "a < b" not in out


def test_prices_with_dollar_signs_are_not_math():
    out = render("It costs $5 or $6.")
    assert "<math" not in out
    assert "$5 or $6" in out


def test_broken_math_names_the_file():
    with pytest.raises(MarkdownError, match="prose.en.md"):
        render("$\\frac{1}{$", source="prose.en.md")


# ---------------------------------------------------------------- unsafe URLs

@pytest.mark.parametrize(
    "text",
    [
        "[x](javascript:alert(1))",
        "[x](JavaScript:alert(1))",
        "[x](java%0ascript:alert(1))",
        "[x](&#106;avascript:alert(1))",
        "[x](vbscript:msgbox(1))",
        "[x](data:text/html;base64,PHNjcmlwdD4=)",
        "![img](data:image/svg+xml;base64,PHN2Zz4=)",
        "![img](javascript:alert(1))",
        "<javascript:alert(1)>",
        "[x][ref]\n\n[ref]: javascript:alert(1)",
    ],
)
def test_unsafe_links_and_images_stop_the_build_naming_the_file(text):
    with pytest.raises(MarkdownError) as info:
        render(text, source="exercises/demo/prose.en.md")
    assert "exercises/demo/prose.en.md" in str(info.value)
    assert isinstance(info.value, LessonError)  # `werkbank build` reports it like any lesson error


def test_unsafe_link_in_inline_text_is_rejected_too():
    with pytest.raises(MarkdownError, match="lesson.toml"):
        render_inline("see [this](javascript:void(0))", source="lesson.toml")


@pytest.mark.parametrize(
    "url", ["https://example.org/a?b=1", "http://example.org", "#checkpoint-1", "../other/en.html", "img/p.png",
            "mailto:someone@example.org", "/absolute/path"],
)
def test_safe_urls_pass(url):
    check_url(url, "x.md")
    out = render(f"[link]({url})")
    assert "<a href=" in out


# ---------------------------------------------------------------- raw HTML

def test_raw_html_is_escaped_not_rendered():
    out = render('<script>alert(1)</script>\n\nText <img src=x onerror=alert(1)> and <b onclick="x()">b</b>')
    assert "<script" not in out
    assert "<img" not in out
    assert "<b " not in out
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in out
    assert "&lt;img src=x onerror=alert(1)&gt;" in out


def test_no_element_carries_an_event_handler_attribute():
    out = render('<div onmouseover="steal()">x</div>\n\n[a](https://e.org "t\\" onmouseover=\\"x")\n\n'
                 '![i](p.png "a\\" onerror=\\"y")')
    # parse it as a browser would: "on..." may survive inside text or an attribute value, never as an attribute
    seen: list[tuple[str, str]] = []

    class Collect(HTMLParser):
        def handle_starttag(self, tag, attrs):
            seen.extend((tag, name) for name, _ in attrs)

    Collect().feed(out)
    assert ("a", "title") in seen and ("img", "title") in seen  # the titles were parsed as titles
    assert [pair for pair in seen if pair[1].startswith("on")] == []
    assert ("div", "onmouseover") not in seen and "&lt;div onmouseover" in out


def test_python_fence_is_escaped_code():
    out = render('```python\nif a < b:\n    print("<b>&</b>")\n```')
    assert '<pre dir="ltr"><code class="language-python">' in out
    assert "if a &lt; b:" in out
    assert "&lt;b&gt;&amp;&lt;/b&gt;" in out


def test_tables_render():
    out = render("| a | b |\n|---|---|\n| 1 | 2 |")
    assert "<table>" in out and "<td>2</td>" in out


def test_heading_ids_are_positional_and_shared_by_translations():
    nl = render("# Inleiding\n\n## Meer", heading_ids=True)
    en = render("# Introduction\n\n## More", heading_ids=True)
    assert re.findall(r'id="(s-\d+)"', nl) == re.findall(r'id="(s-\d+)"', en) == ["s-1", "s-2"]


# ---------------------------------------------------------------- figures

def test_figure_fence_becomes_a_mount_point_with_a_readable_fallback():
    out = render("```figure risk-coverage\nThe *curve* of risk against coverage.\n```", lang="nl")
    assert '<figure class="figure" data-figure="risk-coverage">' in out
    assert "<noscript>" in out and "JavaScript" in out
    assert "<figcaption><p>The <em>curve</em> of risk against coverage.</p>" in out


def test_figure_needs_a_valid_name():
    with pytest.raises(MarkdownError, match="task.en.md"):
        render('```figure "><script>\n```', source="task.en.md")


# ---------------------------------------------------------------- flowcharts

def _svg(text: str):
    out = render(f"```flowchart\n{text}\n```")
    match = re.search(r"<svg .*?</svg>", out, re.S)
    assert match, out
    return ET.fromstring(match.group(0))


def test_flowchart_becomes_accessible_svg_with_boxes_arrows_and_text():
    svg = _svg("flowchart TD\nA[Read the claim] --> B[Look up facts]\nB --> C[Decide]")
    assert svg.get("role") == "img"
    assert svg.get("dir") == "ltr"
    label = svg.get("aria-label")
    assert "Read the claim" in label and "Look up facts" in label and "Decide" in label
    assert label.index("Read the claim") < label.index("Look up facts") < label.index("Decide")
    assert svg.find(f"{SVG_NS}title").text == label
    assert len(svg.findall(f".//{SVG_NS}rect")) == 3
    assert len(svg.findall(f".//{SVG_NS}path[@class='fc-edge']")) == 2
    texts = [t.text for t in svg.iter(f"{SVG_NS}text")]
    assert "Decide" in texts


def _boxes(svg):
    boxes = {}
    for group in svg.iter(f"{SVG_NS}g"):
        rect = group.find(f"{SVG_NS}rect")
        words = " ".join(t.text for t in group.findall(f"{SVG_NS}text"))
        boxes[words] = tuple(float(rect.get(k)) for k in ("x", "y", "width", "height"))
    return boxes


def test_flowchart_layers_by_longest_path_top_down():
    svg = _svg("flowchart TD\nA[start] --> B[middle]\nB --> C[end]\nA --> C")
    boxes = _boxes(svg)
    # C comes after B (longest path), although A --> C is a direct edge
    assert boxes["start"][1] < boxes["middle"][1] < boxes["end"][1]


def test_flowchart_left_to_right_places_layers_in_columns():
    svg = _svg("flowchart LR\nA[one] --> B[two] --> C[three]")
    boxes = _boxes(svg)
    assert boxes["one"][0] < boxes["two"][0] < boxes["three"][0]
    assert boxes["one"][1] == pytest.approx(boxes["three"][1], abs=1)


def test_flowchart_reuses_node_ids_and_draws_edge_labels():
    svg = _svg("flowchart TD\nA[question] -->|yes| B[do it]\nA -->|no| C[skip]\nB --> D[done]\nC --> D")
    assert len(svg.findall(f".//{SVG_NS}rect")) == 4
    labels = [t.text for t in svg.iter(f"{SVG_NS}text") if t.get("class") == "fc-edge-label"]
    assert sorted(labels) == ["no", "yes"]


def test_flowchart_labels_are_escaped():
    out = render('```flowchart\nflowchart TD\nA[a < b & "c"] --> B[<script>]\n```')
    assert "<script>" not in out
    assert "a &lt; b &amp;" in out


def test_flowchart_errors_name_the_file():
    with pytest.raises(MarkdownError, match="prose.nl.md"):
        render("```flowchart\nA[x] --> B[y]\n```", source="prose.nl.md")  # no header
    with pytest.raises(MarkdownError, match="cycle"):
        flowchart_svg("flowchart TD\nA[x] --> B[y]\nB --> A", "p.md")
    with pytest.raises(MarkdownError, match="p.md"):
        flowchart_svg("flowchart TD\nA[x] ==> B[y]", "p.md")
