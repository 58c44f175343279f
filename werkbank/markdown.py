"""Markdown for lessons: CommonMark + tables, MathML math, figures and flowcharts, no raw HTML.

Everything is rendered at build time, so a lesson page reads without JavaScript:

- ``$...$`` / ``$$...$$`` become MathML (latex2mathml), always ``dir="ltr"``;
- a fence ```` ```figure NAME ```` becomes ``<figure class="figure" data-figure="NAME">`` (the front-end mounts the
  interactive figure there; the fence body is the caption and the readable fallback);
- a fence ```` ```flowchart ```` (a tiny Mermaid subset) becomes an inline SVG diagram;
- fenced code is escaped into ``<pre><code class="language-...">``.

Raw HTML is off: ``<script>`` or ``onerror=`` in a lesson show up as escaped text. Links and images must be
``http(s):``, ``mailto:``, relative or ``#anchors``; anything else (``javascript:``, ``data:``, ``vbscript:``...)
stops the build with a :class:`MarkdownError` naming the file.
"""

from __future__ import annotations

import hashlib
import html
import json
import re
import unicodedata
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from urllib.parse import unquote

from latex2mathml.converter import convert as latex_to_mathml
from markdown_it import MarkdownIt
from mdit_py_plugins.dollarmath import dollarmath_plugin

from werkbank.lessons import LessonError

__all__ = ["MarkdownError", "render", "render_inline", "flowchart_svg", "check_url"]

CATALOG_DIR = Path(__file__).with_name("catalog")
SAFE_SCHEMES = ("http", "https", "mailto")
FIGURE_NAME = re.compile(r"^[a-z0-9][a-z0-9-]*$")


class MarkdownError(LessonError):
    """A lesson's markdown cannot be built safely (unsafe link, bad math, bad flowchart); names the file."""


@lru_cache(maxsize=None)
def _catalog(lang: str) -> dict:
    path = CATALOG_DIR / f"{lang}.json"
    if not path.exists():
        path = CATALOG_DIR / "en.json"
    return json.loads(path.read_text(encoding="utf-8"))


def _ui(lang: str, key: str) -> str:
    return _catalog(lang).get(key) or _catalog("en").get(key, key)


def check_url(url: str, source: str) -> None:
    """Raise MarkdownError unless ``url`` is http(s), mailto, relative or an anchor.

    The check is done the way a browser reads the URL: entities and percent-escapes decoded, control characters and
    whitespace dropped, scheme compared case-insensitively.
    """
    text = html.unescape(unquote(url or ""))
    cleaned = "".join(ch for ch in text if not (ch.isspace() or unicodedata.category(ch).startswith("C")))
    match = re.match(r"^([a-zA-Z][a-zA-Z0-9+.\-]*):", cleaned)
    if match and match.group(1).lower() not in SAFE_SCHEMES:
        raise MarkdownError(f"{source}: unsafe link or image URL {url!r} (scheme {match.group(1).lower()!r} is not allowed)")


def _math(content: str, display: str, source: str) -> str:
    try:
        mathml = latex_to_mathml(content.strip(), display=display)
    except Exception as exc:  # latex2mathml raises many different exception types
        raise MarkdownError(f"{source}: cannot convert math {content.strip()!r}: {exc}") from exc
    mathml = mathml.replace("<math ", '<math dir="ltr" ', 1)
    if display == "block":
        return f'<div class="math-display" dir="ltr">{mathml}</div>\n'
    return mathml


# ---------------------------------------------------------------- flowchart

@dataclass
class _Node:
    id: str
    label: str
    order: int
    layer: int = 0
    lines: list[str] = field(default_factory=list)
    x: float = 0.0
    y: float = 0.0
    w: float = 0.0
    h: float = 0.0


_NODE = r"([A-Za-z_][A-Za-z0-9_]*)\s*(?:\[\s*\"?(.*?)\"?\s*\])?"
_NODE_RE = re.compile(r"^\s*" + _NODE + r"\s*")
_ARROW_RE = re.compile(r"^\s*-->\s*(?:\|([^|]*)\|\s*)?")

CHAR_W = 7.6      # average glyph width at 14px, generous
LINE_H = 18
PAD_X = 14
PAD_Y = 10
GAP_LAYER = 56
GAP_NODE = 28
MAX_CHARS = 26


def _wrap(label: str) -> list[str]:
    words, lines, cur = label.split(), [], ""
    for word in words:
        if cur and len(cur) + 1 + len(word) > MAX_CHARS:
            lines.append(cur)
            cur = word
        else:
            cur = f"{cur} {word}".strip()
    if cur or not lines:
        lines.append(cur)
    return lines


def _parse_flowchart(text: str, source: str):
    lines = [ln.strip() for ln in text.splitlines() if ln.strip() and not ln.strip().startswith("%%")]
    if not lines:
        raise MarkdownError(f"{source}: empty flowchart")
    header = re.match(r"^(?:flowchart|graph)\s+(TD|TB|LR)\s*;?$", lines[0])
    if not header:
        raise MarkdownError(f"{source}: a flowchart starts with 'flowchart TD' or 'flowchart LR', not {lines[0]!r}")
    direction = "LR" if header.group(1) == "LR" else "TD"
    nodes: dict[str, _Node] = {}
    edges: list[tuple[str, str, str]] = []

    def node(node_id: str, label: str | None) -> str:
        if node_id not in nodes:
            nodes[node_id] = _Node(node_id, label if label is not None else node_id, len(nodes))
        elif label is not None:
            nodes[node_id].label = label
        return node_id

    for line in lines[1:]:
        rest = line.rstrip(";")
        m = _NODE_RE.match(rest)
        if not m:
            raise MarkdownError(f"{source}: cannot read flowchart line {line!r}")
        prev = node(m.group(1), m.group(2))
        rest = rest[m.end():]
        while rest:
            arrow = _ARROW_RE.match(rest)
            if not arrow:
                raise MarkdownError(f"{source}: cannot read flowchart line {line!r} (only 'A[label] --> B[label]')")
            rest = rest[arrow.end():]
            m = _NODE_RE.match(rest)
            if not m or not m.group(1):
                raise MarkdownError(f"{source}: flowchart arrow without a target in {line!r}")
            cur = node(m.group(1), m.group(2))
            edges.append((prev, cur, (arrow.group(1) or "").strip()))
            prev = cur
            rest = rest[m.end():]
    return direction, nodes, edges


def _layers(nodes: dict[str, _Node], edges, source: str) -> None:
    """Longest-path layering; a cycle is an author error."""
    succ: dict[str, list[str]] = {n: [] for n in nodes}
    indeg = {n: 0 for n in nodes}
    for a, b, _ in edges:
        succ[a].append(b)
        indeg[b] += 1
    queue = sorted((n for n in nodes if indeg[n] == 0), key=lambda n: nodes[n].order)
    seen = 0
    while queue:
        n = queue.pop(0)
        seen += 1
        for m in succ[n]:
            nodes[m].layer = max(nodes[m].layer, nodes[n].layer + 1)
            indeg[m] -= 1
            if indeg[m] == 0:
                queue.append(m)
    if seen != len(nodes):
        raise MarkdownError(f"{source}: the flowchart has a cycle; only diagrams that flow one way are drawn")


def flowchart_svg(text: str, source: str = "<flowchart>", title: str = "Flowchart") -> str:
    """Draw a tiny Mermaid-style flowchart (``flowchart TD|LR``, ``A[label] --> B[label]``) as accessible SVG."""
    direction, nodes, edges = _parse_flowchart(text, source)
    _layers(nodes, edges, source)
    for n in nodes.values():
        n.lines = _wrap(n.label)
        n.w = max(len(ln) for ln in n.lines) * CHAR_W + 2 * PAD_X
        n.h = len(n.lines) * LINE_H + 2 * PAD_Y
    by_layer: dict[int, list[_Node]] = {}
    for n in sorted(nodes.values(), key=lambda n: n.order):
        by_layer.setdefault(n.layer, []).append(n)
    margin = 12
    td = direction == "TD"
    cross = (lambda n: n.w) if td else (lambda n: n.h)       # size across the flow
    along = (lambda n: n.h) if td else (lambda n: n.w)       # size along the flow
    parents: dict[str, list[str]] = {n: [] for n in nodes}
    for a, b, _ in edges:
        if nodes[a].layer < nodes[b].layer:
            parents[b].append(a)
    centre: dict[str, float] = {}
    for k in sorted(by_layer):
        layer = by_layer[k]
        if k > 0:  # order by the mean position of the parents (barycentre), then place as close to it as fits
            def bary(n, layer=layer):
                ps = [centre[p] for p in parents[n.id] if p in centre]
                return sum(ps) / len(ps) if ps else None
            wanted = {n.id: bary(n) for n in layer}
            layer.sort(key=lambda n: (wanted[n.id] is None, wanted[n.id] or 0, n.order))
        pos = 0.0
        for n in layer:
            want = wanted[n.id] - cross(n) / 2 if k > 0 and wanted.get(n.id) is not None else pos
            start_at = max(pos, want)
            centre[n.id] = start_at + cross(n) / 2
            pos = start_at + cross(n) + GAP_NODE
        if k > 0:  # pull the row back so it is centred on what it wanted, without overlapping itself
            goals = [wanted[n.id] for n in layer if wanted.get(n.id) is not None]
            if goals:
                shift = (min(centre[n.id] for n in layer) + max(centre[n.id] for n in layer)) / 2 - sum(goals) / len(goals)
                if shift > 0:
                    for n in layer:
                        centre[n.id] -= shift
    low = min(centre[n.id] - cross(n) / 2 for n in nodes.values())
    thickness = {k: max(along(n) for n in v) for k, v in by_layer.items()}
    offset = margin
    for k in sorted(by_layer):
        for n in by_layer[k]:
            c = centre[n.id] - low + margin
            if td:
                n.x, n.y = c - n.w / 2, offset + (thickness[k] - n.h) / 2
            else:
                n.x, n.y = offset + (thickness[k] - n.w) / 2, c - n.h / 2
        offset += thickness[k] + GAP_LAYER
    extent = max(centre[n.id] + cross(n) / 2 for n in nodes.values()) - low + 2 * margin
    depth = offset - GAP_LAYER + margin
    width, height = (extent, depth) if td else (depth, extent)

    ordered = sorted(nodes.values(), key=lambda n: (n.layer, n.order))
    steps = "; ".join(
        f"{i}. {n.label}" + (" → " + ", ".join(nodes[b].label for a, b, _ in edges if a == n.id)
                             if any(a == n.id for a, _, _ in edges) else "")
        for i, n in enumerate(ordered, 1)
    )
    summary = f"{title}: {steps}"
    esc = html.escape
    marker = "fc-arrow-" + hashlib.sha1(text.encode("utf-8")).hexdigest()[:10]
    parts: list[str] = []
    for a, b, label in edges:
        na, nb = nodes[a], nodes[b]
        skip = nb.layer - na.layer > 1 or nb.layer <= na.layer
        if skip:
            # route around the boxes in between: out of the right (TD) or bottom (LR) side, along a curve
            lo, hi = sorted((na.layer, nb.layer))
            between = [n for n in nodes.values() if lo <= n.layer <= hi]
            if direction == "TD":
                far = max(n.x + n.w for n in between) + 36
                x1, y1, x2, y2 = na.x + na.w, na.y + na.h / 2, nb.x + nb.w, nb.y + nb.h / 2
                d = f"M{x1:.1f},{y1:.1f} C{far:.1f},{y1:.1f} {far:.1f},{y2:.1f} {x2:.1f},{y2:.1f}"
                width = max(width, far + margin)
                lx, ly = far - 30, (y1 + y2) / 2
            else:
                far = max(n.y + n.h for n in between) + 36
                x1, y1, x2, y2 = na.x + na.w / 2, na.y + na.h, nb.x + nb.w / 2, nb.y + nb.h
                d = f"M{x1:.1f},{y1:.1f} C{x1:.1f},{far:.1f} {x2:.1f},{far:.1f} {x2:.1f},{y2:.1f}"
                height = max(height, far + margin)
                lx, ly = (x1 + x2) / 2, far - 30
        else:
            if direction == "TD":
                x1, y1, x2, y2 = na.x + na.w / 2, na.y + na.h, nb.x + nb.w / 2, nb.y
            else:
                x1, y1, x2, y2 = na.x + na.w, na.y + na.h / 2, nb.x, nb.y + nb.h / 2
            d = f"M{x1:.1f},{y1:.1f} L{x2:.1f},{y2:.1f}"
            lx, ly = x1 + (x2 - x1) * 0.55, y1 + (y2 - y1) * 0.55
        parts.append(f'<path class="fc-edge" d="{d}" fill="none" stroke="currentColor" stroke-width="1.5" '
                     f'marker-end="url(#{marker})"/>')
        if label:
            parts.append(f'<text class="fc-edge-label" x="{lx:.1f}" y="{ly + 4:.1f}" font-size="12" '
                         f'text-anchor="middle" fill="currentColor">{esc(label)}</text>')
    out = [
        f'<svg class="flowchart" xmlns="http://www.w3.org/2000/svg" role="img" dir="ltr" '
        f'aria-label="{esc(summary)}" viewBox="0 0 {width:.0f} {height:.0f}" width="{width:.0f}" '
        f'height="{height:.0f}"><title>{esc(summary)}</title>',
        f'<defs><marker id="{marker}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" '
        'orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="currentColor"/></marker></defs>',
        *parts,
    ]
    for n in ordered:
        out.append(f'<g class="fc-node"><rect x="{n.x:.1f}" y="{n.y:.1f}" width="{n.w:.1f}" height="{n.h:.1f}" '
                   f'rx="6" fill="none" stroke="currentColor" stroke-width="1.5"/>')
        for i, ln in enumerate(n.lines):
            ty = n.y + PAD_Y + LINE_H * i + LINE_H * 0.75
            out.append(f'<text x="{n.x + n.w / 2:.1f}" y="{ty:.1f}" text-anchor="middle" font-size="14" '
                       f'fill="currentColor">{esc(ln)}</text>')
        out.append("</g>")
    out.append("</svg>")
    return "".join(out)


# ---------------------------------------------------------------- renderer

def _slug_ids(tokens) -> None:
    """Give headings ids by position (``s-1``, ``s-2``...) so translations share anchors."""
    count = 0
    for tok in tokens:
        if tok.type == "heading_open":
            count += 1
            tok.attrSet("id", f"s-{count}")


class _Renderer:
    def __init__(self, source: str, lang: str, heading_ids: bool):
        self.source = source
        self.lang = lang
        self.heading_ids = heading_ids
        md = MarkdownIt("commonmark", {"html": False, "typographer": False}).enable("table")
        dollarmath_plugin(md, allow_space=False, allow_digits=False, double_inline=True)
        md.validateLink = lambda url: True  # accept everything while parsing, then reject unsafe URLs loudly
        rules = md.renderer.rules
        rules["math_inline"] = lambda t, i, o, e: _math(t[i].content, "inline", source)
        rules["math_inline_double"] = lambda t, i, o, e: _math(t[i].content, "block", source)
        rules["math_block"] = lambda t, i, o, e: _math(t[i].content, "block", source)
        rules["math_block_label"] = lambda t, i, o, e: _math(t[i].content, "block", source)
        default_fence = rules["fence"]
        rules["fence"] = lambda t, i, o, e: self._fence(t, i, o, e, default_fence)
        self.md = md

    def _fence(self, tokens, idx, options, env, default):
        tok = tokens[idx]
        info = tok.info.strip().split()
        kind = info[0] if info else ""
        if kind == "figure":
            name = info[1] if len(info) > 1 else ""
            if not FIGURE_NAME.match(name):
                raise MarkdownError(f"{self.source}: a figure fence needs a name like 'figure risk-coverage'")
            caption = self.render(tok.content) if tok.content.strip() else ""
            return (
                f'<figure class="figure" data-figure="{html.escape(name)}">'
                f'<noscript><p class="figure-noscript">{html.escape(_ui(self.lang, "figure_noscript"))}</p></noscript>'
                + (f"<figcaption>{caption}</figcaption>" if caption else "")
                + "</figure>\n"
            )
        if kind in ("flowchart", "mermaid"):
            svg = flowchart_svg(tok.content, self.source, _ui(self.lang, "flowchart_title"))
            return f'<figure class="flowchart-figure" dir="ltr">{svg}</figure>\n'
        out = default(tokens, idx, options, env)
        return out.replace("<pre>", '<pre dir="ltr">', 1)

    def _check_links(self, tokens) -> None:
        for tok in tokens:
            if tok.type == "link_open":
                check_url(tok.attrGet("href") or "", self.source)
            elif tok.type == "image":
                check_url(tok.attrGet("src") or "", self.source)
            if tok.children:
                self._check_links(tok.children)

    def render(self, text: str, inline: bool = False) -> str:
        if inline:
            tokens = self.md.parseInline(text)
            self._check_links(tokens)
            return self.md.renderer.render(tokens, self.md.options, {})
        tokens = self.md.parse(text)
        self._check_links(tokens)
        if self.heading_ids:
            _slug_ids(tokens)
        return self.md.renderer.render(tokens, self.md.options, {})


def render(text: str, source: str = "<markdown>", lang: str = "en", heading_ids: bool = False) -> str:
    """Render lesson markdown to HTML; ``source`` names the file in errors, ``lang`` picks UI words for fallbacks.

    With ``heading_ids`` headings get positional ids (``s-1``...), the same in every translation of a page.
    Raises :class:`MarkdownError` for unsafe URLs, math that cannot be converted and unreadable flowcharts.
    """
    return _Renderer(source, lang, heading_ids).render(text)


def render_inline(text: str, source: str = "<markdown>", lang: str = "en") -> str:
    """Render one line of markdown (no paragraph wrapper), with the same safety rules as :func:`render`."""
    return _Renderer(source, lang, False).render(text, inline=True)
