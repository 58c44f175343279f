"""Flowcharts for lessons: a tiny Mermaid subset drawn as accessible inline SVG at build time.

The input is ``flowchart TD`` (top down) or ``flowchart LR`` (along the line) followed by lines like
``A[label] --> B[label]`` or ``A -->|edge label| B``. Nodes are layered by the longest path from a source, ordered
inside a layer by the mean position of their parents, and joined by straight arrows; an arrow that skips a layer
bends around the boxes in between.

Right-to-left lessons (``rtl=True``) get the mirror image: an ``LR`` chart starts at the right edge and runs to the
left, siblings in a ``TD`` chart are ordered from right to left, and every label is laid out with a right-to-left
base direction, so a label that mixes Arabic with ``N`` or ``p`` reads in the right order.
"""

from __future__ import annotations

import hashlib
import html
import re
from dataclasses import dataclass, field

from werkbank.lessons import LessonError

__all__ = ["FlowchartError", "flowchart_svg", "parse_flowchart"]


class FlowchartError(LessonError):
    """A flowchart cannot be read or drawn; the message names the file."""


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

CHAR_W = 7.6  # average glyph width at 14px, generous
LINE_H = 18
PAD_X = 14
PAD_Y = 10
GAP_LAYER = 56
GAP_NODE = 28
MAX_CHARS = 26
MARGIN = 12


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


def parse_flowchart(text: str, source: str = "<flowchart>"):
    """Read a flowchart: ``(direction, nodes, edges)`` with direction ``"TD"`` or ``"LR"``, nodes by id (each with
    ``.label`` and ``.order``, the order of first mention) and edges as ``(from_id, to_id, label)``."""
    lines = [ln.strip() for ln in text.splitlines() if ln.strip() and not ln.strip().startswith("%%")]
    if not lines:
        raise FlowchartError(f"{source}: empty flowchart")
    header = re.match(r"^(?:flowchart|graph)\s+(TD|TB|LR)\s*;?$", lines[0])
    if not header:
        raise FlowchartError(f"{source}: a flowchart starts with 'flowchart TD' or 'flowchart LR', not {lines[0]!r}")
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
            raise FlowchartError(f"{source}: cannot read flowchart line {line!r}")
        prev = node(m.group(1), m.group(2))
        rest = rest[m.end() :]
        while rest:
            arrow = _ARROW_RE.match(rest)
            if not arrow:
                raise FlowchartError(f"{source}: cannot read flowchart line {line!r} (only 'A[label] --> B[label]')")
            rest = rest[arrow.end() :]
            m = _NODE_RE.match(rest)
            if not m or not m.group(1):
                raise FlowchartError(f"{source}: flowchart arrow without a target in {line!r}")
            cur = node(m.group(1), m.group(2))
            edges.append((prev, cur, (arrow.group(1) or "").strip()))
            prev = cur
            rest = rest[m.end() :]
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
        raise FlowchartError(f"{source}: the flowchart has a cycle; only diagrams that flow one way are drawn")


def _place(direction: str, nodes: dict[str, _Node], edges) -> tuple[float, float]:
    """Size and place every node (left to right); return the drawing's width and height."""
    for n in nodes.values():
        n.lines = _wrap(n.label)
        n.w = max(len(ln) for ln in n.lines) * CHAR_W + 2 * PAD_X
        n.h = len(n.lines) * LINE_H + 2 * PAD_Y
    by_layer: dict[int, list[_Node]] = {}
    for n in sorted(nodes.values(), key=lambda n: n.order):
        by_layer.setdefault(n.layer, []).append(n)
    td = direction == "TD"
    cross = (lambda n: n.w) if td else (lambda n: n.h)  # size across the flow
    along = (lambda n: n.h) if td else (lambda n: n.w)  # size along the flow
    parents: dict[str, list[str]] = {n: [] for n in nodes}
    for a, b, _ in edges:
        if nodes[a].layer < nodes[b].layer:
            parents[b].append(a)
    centre: dict[str, float] = {}
    wanted: dict[str, float | None] = {}
    for k in sorted(by_layer):
        layer = by_layer[k]
        if k > 0:  # order by the mean position of the parents (barycentre), then place as close to it as fits
            for n in layer:
                ps = [centre[p] for p in parents[n.id] if p in centre]
                wanted[n.id] = sum(ps) / len(ps) if ps else None
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
                shift = (min(centre[n.id] for n in layer) + max(centre[n.id] for n in layer)) / 2 - sum(goals) / len(
                    goals
                )
                if shift > 0:
                    for n in layer:
                        centre[n.id] -= shift
    low = min(centre[n.id] - cross(n) / 2 for n in nodes.values())
    thickness = {k: max(along(n) for n in v) for k, v in by_layer.items()}
    offset = MARGIN
    for k in sorted(by_layer):
        for n in by_layer[k]:
            c = centre[n.id] - low + MARGIN
            if td:
                n.x, n.y = c - n.w / 2, offset + (thickness[k] - n.h) / 2
            else:
                n.x, n.y = offset + (thickness[k] - n.w) / 2, c - n.h / 2
        offset += thickness[k] + GAP_LAYER
    extent = max(centre[n.id] + cross(n) / 2 for n in nodes.values()) - low + 2 * MARGIN
    depth = offset - GAP_LAYER + MARGIN
    return (extent, depth) if td else (depth, extent)


def _route(direction: str, nodes: dict[str, _Node], a: str, b: str, width: float, height: float):
    """The path of one arrow as ``(kind, points)`` ("L" straight, "C" one cubic curve), where its label goes, and
    the drawing's width and height grown to hold a curve that bends around the boxes."""
    na, nb = nodes[a], nodes[b]
    if nb.layer - na.layer == 1:
        if direction == "TD":
            x1, y1, x2, y2 = na.x + na.w / 2, na.y + na.h, nb.x + nb.w / 2, nb.y
        else:
            x1, y1, x2, y2 = na.x + na.w, na.y + na.h / 2, nb.x, nb.y + nb.h / 2
        label_at = (x1 + (x2 - x1) * 0.55, y1 + (y2 - y1) * 0.55)
        return "L", [(x1, y1), (x2, y2)], label_at, width, height
    # skips a layer: out of the far side (right in TD, bottom in LR) and around the boxes in between
    lo, hi = sorted((na.layer, nb.layer))
    between = [n for n in nodes.values() if lo <= n.layer <= hi]
    if direction == "TD":
        far = max(n.x + n.w for n in between) + 36
        x1, y1, x2, y2 = na.x + na.w, na.y + na.h / 2, nb.x + nb.w, nb.y + nb.h / 2
        points = [(x1, y1), (far, y1), (far, y2), (x2, y2)]
        return "C", points, (far - 30, (y1 + y2) / 2), max(width, far + MARGIN), height
    far = max(n.y + n.h for n in between) + 36
    x1, y1, x2, y2 = na.x + na.w / 2, na.y + na.h, nb.x + nb.w / 2, nb.y + nb.h
    points = [(x1, y1), (x1, far), (x2, far), (x2, y2)]
    return "C", points, ((x1 + x2) / 2, far - 30), width, max(height, far + MARGIN)


def flowchart_svg(text: str, source: str = "<flowchart>", title: str = "Flowchart", rtl: bool = False) -> str:
    """Draw a tiny Mermaid-style flowchart (``flowchart TD|LR``, ``A[label] --> B[label]``) as accessible SVG.

    With ``rtl`` the drawing is mirrored (``LR`` runs from right to left) and the labels use a right-to-left base
    direction. Raises :class:`FlowchartError` (a ``LessonError`` naming ``source``) for unreadable input or a cycle.
    """
    direction, nodes, edges = parse_flowchart(text, source)
    _layers(nodes, edges, source)
    width, height = _place(direction, nodes, edges)
    routes = []
    for a, b, label in edges:
        kind, points, label_at, width, height = _route(direction, nodes, a, b, width, height)
        routes.append((kind, points, label_at, label))

    # Everything above is laid out left to right; a right-to-left chart is its mirror image in the drawn width.
    width, height = round(width), round(height)

    def fx(x: float) -> float:
        return width - x if rtl else x

    ordered = sorted(nodes.values(), key=lambda n: (n.layer, n.order))
    arrow = " ← " if rtl else " → "
    steps = "; ".join(
        f"{i}. {n.label}"
        + (
            arrow + ", ".join(nodes[b].label for a, b, _ in edges if a == n.id)
            if any(a == n.id for a, _, _ in edges)
            else ""
        )
        for i, n in enumerate(ordered, 1)
    )
    summary = f"{title}: {steps}"
    esc = html.escape
    marker = "fc-arrow-" + hashlib.sha1(text.encode("utf-8")).hexdigest()[:10]
    base = "rtl" if rtl else "ltr"
    out = [
        f'<svg class="flowchart" xmlns="http://www.w3.org/2000/svg" role="img" dir="{base}" direction="{base}" '
        f'aria-label="{esc(summary)}" viewBox="0 0 {width} {height}" width="{width}" '
        f'height="{height}"><title>{esc(summary)}</title>',
        f'<defs><marker id="{marker}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" '
        'orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="currentColor"/></marker></defs>',
    ]
    for kind, points, (lx, ly), label in routes:
        (x0, y0), rest = points[0], points[1:]
        d = f"M{fx(x0):.1f},{y0:.1f} {kind}" + " ".join(f"{fx(x):.1f},{y:.1f}" for x, y in rest)
        out.append(
            f'<path class="fc-edge" d="{d}" fill="none" stroke="currentColor" stroke-width="1.5" '
            f'marker-end="url(#{marker})"/>'
        )
        if label:
            out.append(
                f'<text class="fc-edge-label" x="{fx(lx):.1f}" y="{ly + 4:.1f}" font-size="12" '
                f'text-anchor="middle" fill="currentColor">{esc(label)}</text>'
            )
    for n in ordered:
        left = fx(n.x + n.w) if rtl else n.x
        out.append(
            f'<g class="fc-node" data-node="{esc(n.id)}"><rect x="{left:.1f}" y="{n.y:.1f}" '
            f'width="{n.w:.1f}" height="{n.h:.1f}" rx="6" fill="none" stroke="currentColor" '
            'stroke-width="1.5"/>'
        )
        for i, ln in enumerate(n.lines):
            ty = n.y + PAD_Y + LINE_H * i + LINE_H * 0.75
            out.append(
                f'<text x="{fx(n.x + n.w / 2):.1f}" y="{ty:.1f}" text-anchor="middle" font-size="14" '
                f'fill="currentColor">{esc(ln)}</text>'
            )
        out.append("</g>")
    out.append("</svg>")
    return "".join(out)
