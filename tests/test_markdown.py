"""werkbank.markdown: math becomes MathML, flowcharts become SVG, unsafe links stop the build, raw HTML is text."""

from __future__ import annotations

import re
from html.parser import HTMLParser
import xml.etree.ElementTree as ET

import pytest

from werkbank.lessons import LessonError
from werkbank.markdown import (
    MarkdownError,
    check_url,
    checkpoint_markers,
    flowchart_svg,
    render,
    render_inline,
    split_hints,
)

SVG_NS = "{http://www.w3.org/2000/svg}"


# ---------------------------------------------------------------- math


def test_inline_math_becomes_inline_mathml_left_to_right():
    out = render("The mean is $\\bar{x} = \\frac{1}{n}$ here.")
    assert '<math dir="ltr"' in out
    assert 'display="inline"' in out
    assert "<mfrac>" in out
    assert "$" not in out  # the TeX source is gone


def test_a_long_inline_formula_scrolls_in_its_own_box_and_a_short_one_stays_inline():
    """MathML does not wrap: an inline formula of many tokens gets a box that scrolls sideways (site.css), so a phone's
    page does not grow wider than the screen; a short one keeps its place on the line."""
    out = render(r"Pooled: $(10 \ln 2 + 30 \ln 4)/40 = 70 \ln 2/40 = 1.75 \ln 2$ and $a + b$.")
    wide = re.findall(r'<span class="math-inline-wide" dir="ltr"><math [^>]*display="inline".*?</math></span>', out)
    assert len(wide) == 1 and "1.75" in wide[0]
    assert out.count("<math ") == 2  # a + b: no box


def test_display_math_becomes_block_mathml():
    out = render("Before\n\n$$\nE = \\sum_i w_i\n$$\n\nAfter")
    block = re.search(
        r'<div class="math-display" dir="ltr"><math [^>]*display="block"[^>]*>.*?</math></div>', out, re.S
    )
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
    "url",
    [
        "https://example.org/a?b=1",
        "http://example.org",
        "#checkpoint-1",
        "../other/en.html",
        "img/p.png",
        "mailto:someone@example.org",
        "/absolute/path",
    ],
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
    out = render(
        '<div onmouseover="steal()">x</div>\n\n[a](https://e.org "t\\" onmouseover=\\"x")\n\n'
        '![i](p.png "a\\" onerror=\\"y")'
    )
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


def test_flowchart_layout_lives_in_its_own_module():
    from werkbank import flowchart

    svg = flowchart.flowchart_svg("flowchart TD\nA[x] --> B[y]")
    assert svg == flowchart_svg("flowchart TD\nA[x] --> B[y]")
    with pytest.raises(flowchart.FlowchartError, match="p.md") as info:
        flowchart.flowchart_svg("flowchart TD\nA[x] --> B[y]\nB --> A", "p.md")
    assert isinstance(info.value, LessonError)


# ---------------------------------------------------------------- right-to-left flowcharts


def _centres(svg):
    """Centre (x, y) of every node box by node id."""
    out = {}
    for group in svg.iter(f"{SVG_NS}g"):
        rect = group.find(f"{SVG_NS}rect")
        x, y, w, h = (float(rect.get(k)) for k in ("x", "y", "width", "height"))
        out[group.get("data-node")] = (x + w / 2, y + h / 2)
    return out


def _svg_of(html_text):
    return ET.fromstring(re.search(r"<svg .*?</svg>", html_text, re.S).group(0))


def test_rtl_left_to_right_chart_runs_from_the_right_edge():
    chart = "```flowchart\nflowchart LR\nA[one] --> B[two] --> C[three]\n```"
    ltr, rtl = _svg_of(render(chart, lang="en")), _svg_of(render(chart, lang="ar"))
    a, b, c = (_centres(rtl)[k][0] for k in "ABC")
    assert a > b > c  # the flow starts at the right
    width = float(rtl.get("width"))
    for key in "ABC":  # the exact mirror image of the left-to-right layout
        assert _centres(rtl)[key][0] == pytest.approx(width - _centres(ltr)[key][0], abs=0.11)
        assert _centres(rtl)[key][1] == pytest.approx(_centres(ltr)[key][1])
    assert rtl.get("dir") == "rtl" and rtl.get("direction") == "rtl"
    assert ltr.get("dir") == "ltr" and ltr.get("direction") == "ltr"
    # every arrow leaves its source on the side facing its target: in RTL it starts at the left edge of A
    first = rtl.find(f"{SVG_NS}path[@class='fc-edge']").get("d")
    start_x = float(re.match(r"M([\d.]+),", first).group(1))
    a_rect = next(g for g in rtl.iter(f"{SVG_NS}g") if g.get("data-node") == "A").find(f"{SVG_NS}rect")
    assert start_x == pytest.approx(float(a_rect.get("x")), abs=0.11)


def test_rtl_top_down_chart_orders_siblings_from_the_right():
    chart = "```flowchart\nflowchart TD\nA[top] --> B[first]\nA --> C[second]\nA --> D[third]\n```"
    ltr, rtl = _centres(_svg_of(render(chart, lang="en"))), _centres(_svg_of(render(chart, lang="ar")))
    assert ltr["B"][0] < ltr["C"][0] < ltr["D"][0]
    assert rtl["B"][0] > rtl["C"][0] > rtl["D"][0]
    assert rtl["A"][1] < rtl["B"][1] == rtl["C"][1] == rtl["D"][1]


def test_rtl_follows_the_language_unless_given():
    chart = "```flowchart\nflowchart LR\nA[a] --> B[b]\n```"
    assert '<figure class="flowchart-figure" dir="rtl">' in render(chart, lang="ar")
    assert '<figure class="flowchart-figure" dir="ltr">' in render(chart, lang="ar", rtl=False)
    assert '<figure class="flowchart-figure" dir="rtl">' in render(chart, lang="en", rtl=True)
    assert "1. a ← b" in render(chart, lang="ar") and "1. a → b" in render(chart, lang="en")


def test_rtl_skip_edges_bend_around_the_left_side():
    chart = "```flowchart\nflowchart TD\nA[start] --> B[middle]\nB --> C[end]\nA --> C\n```"
    svg = _svg_of(render(chart, lang="ar"))
    curve = [p.get("d") for p in svg.iter(f"{SVG_NS}path") if " C" in (p.get("d") or "")]
    assert len(curve) == 1
    xs = [float(x) for x in re.findall(r"([\d.]+),[\d.]+", curve[0])]
    leftmost_box = min(float(g.find(f"{SVG_NS}rect").get("x")) for g in svg.iter(f"{SVG_NS}g"))
    assert min(xs) < leftmost_box and min(xs) >= 0


# ---------------------------------------------------------------- folds


def test_details_container_becomes_a_fold_with_markdown_inside():
    out = render("Before\n\n::: details Input checks and *types*\n- `bins <= 0`: `ValueError`\n- more\n:::\n\nAfter")
    assert re.search(
        r'<details class="fold"><summary>Input checks and <em>types</em></summary>\n<ul>\n'
        r"<li><code>bins &lt;= 0</code>: <code>ValueError</code></li>",
        out,
    ), out
    assert out.index("</details>") < out.index("<p>After</p>")
    assert out.count("<details") == out.count("</details>") == 1


def test_fold_summary_stays_safe():
    out = render("::: details <img src=x onerror=alert(1)>\nbody\n:::")
    assert "<img" not in out and "&lt;img src=x onerror=alert(1)&gt;" in out
    with pytest.raises(MarkdownError, match="task.en.md"):
        render("::: details [x](javascript:alert(1))\nbody\n:::", source="task.en.md")
    with pytest.raises(MarkdownError, match="summary"):
        render("::: details\nbody\n:::", source="task.en.md")


def test_other_containers_and_raw_details_stay_text():
    out = render("::: warning\nbody\n:::\n\n<details><summary>x</summary>y</details>")
    assert "<details" not in out and "::: warning" in out and "&lt;details&gt;" in out


# ---------------------------------------------------------------- checkpoint markers


def test_checkpoint_marker_becomes_an_empty_slot():
    out = render("Text.\n\n```checkpoint 2\n```\n\nMore.")
    assert '<div data-checkpoint-slot="2"></div>' in out
    assert "<pre" not in out and "checkpoint 2" not in out


def test_checkpoint_markers_are_listed_in_order():
    text = "```checkpoint 2\n```\n\n```python\nx = 1\n```\n\n~~~checkpoint 1\n~~~\n"
    assert checkpoint_markers(text) == ["2", "1"]
    assert checkpoint_markers("no markers") == []


@pytest.mark.parametrize(
    "text,message",
    [
        ("```checkpoint 1\n```\n\n```checkpoint 1\n```", "marked twice"),
        ("```checkpoint 4\n```", "no checkpoint 4"),
        ("```checkpoint\n```", "checkpoint id"),
        ("```checkpoint 1 2\n```", "checkpoint id"),
        ('```checkpoint "><b>\n```', "checkpoint id"),
        ("```checkpoint 1\nsome text\n```", "empty body"),
    ],
)
def test_bad_checkpoint_markers_stop_the_build(text, message):
    with pytest.raises(MarkdownError, match=message) as info:
        render(text, source="prose.en.md", checkpoints=["1", "2", "3"])
    assert "prose.en.md" in str(info.value)
    with pytest.raises(MarkdownError, match=message):
        checkpoint_markers(text, "prose.en.md", checkpoints=["1", "2", "3"])


def test_unknown_checkpoint_is_only_an_error_when_the_ids_are_known():
    assert '<div data-checkpoint-slot="9"></div>' in render("```checkpoint 9\n```")
    with pytest.raises(MarkdownError, match="known: 1, 2"):
        render("```checkpoint 9\n```", checkpoints=("1", "2"))


# ---------------------------------------------------------------- hints


def test_split_hints_cuts_at_lines_of_three_dashes():
    text = "Gentle nudge.\n\n---\n\nMore **specific**.\n---   \nAlmost the answer:\n\n```python\nx = 1\n```\n"
    assert split_hints(text) == ["Gentle nudge.", "More **specific**.", "Almost the answer:\n\n```python\nx = 1\n```"]


def test_split_hints_keeps_dashes_inside_code_and_longer_rules():
    text = "One\n\n```text\n---\n```\n\n----\n\n - - -\n\n---\n\nTwo"
    assert split_hints(text) == ["One\n\n```text\n---\n```\n\n----\n\n - - -", "Two"]
    assert split_hints("Only one hint.\n") == ["Only one hint."]


@pytest.mark.parametrize("text", ["---\nTwo", "One\n---\n\n---\nThree", "One\n---\n  \n"])
def test_split_hints_rejects_an_empty_hint(text):
    with pytest.raises(MarkdownError, match="hint.nl.md"):
        split_hints(text, "hint.nl.md")
