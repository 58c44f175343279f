"""Markdown for lessons: CommonMark + tables, MathML math, figures, flowcharts and folds, no raw HTML.

Everything is rendered at build time, so a lesson page reads without JavaScript:

- ``$...$`` / ``$$...$$`` become MathML (latex2mathml), always ``dir="ltr"``;
- a fence ```` ```figure NAME ```` becomes ``<figure class="figure" data-figure="NAME">`` (the front-end mounts the
  interactive figure there; the fence body is the caption and the readable fallback);
- a fence ```` ```flowchart ```` (a tiny Mermaid subset, drawn by :mod:`werkbank.flowchart`) becomes an inline SVG
  diagram; in a right-to-left language the diagram is laid out from right to left;
- a fence ```` ```checkpoint N ```` with an empty body marks where checkpoint ``N`` belongs in the prose and becomes
  ``<div data-checkpoint-slot="N"></div>`` (the page moves the checkpoint's section there);
- a container ``::: details Summary text`` … ``:::`` becomes a fold: ``<details><summary>Summary text</summary>…``;
- fenced code is escaped into ``<pre><code class="language-...">``; a long inline code span (a signature) gets
  ``<wbr>`` after its brackets, dots and commas, so a narrow screen wraps it there and not inside a name;
- in a right-to-left language, runs of code, numbers and intervals in running text are left-to-right isolates
  (:mod:`werkbank.bidi`), so "[0, bins − 1]" in an Arabic hint keeps its order.

Raw HTML is off: ``<script>`` or ``onerror=`` in a lesson show up as escaped text. Links and images must be
``http(s):``, ``mailto:``, relative or ``#anchors``; anything else (``javascript:``, ``data:``, ``vbscript:``...)
stops the build with a :class:`MarkdownError` naming the file.

:func:`split_hints` cuts a hint file into its hints (separated by a line holding only ``---``).
"""

from __future__ import annotations

import html
import re
import unicodedata
from urllib.parse import unquote

from latex2mathml.converter import convert as latex_to_mathml
from markdown_it import MarkdownIt
from mdit_py_plugins.container import container_plugin
from mdit_py_plugins.dollarmath import dollarmath_plugin

from graders.engine import settings as _settings
from werkbank import flowchart as _flowchart
from werkbank.bidi import isolate_html
from werkbank.lessons import LessonError

__all__ = [
    "MarkdownError",
    "render",
    "render_inline",
    "inline_parts",
    "flowchart_svg",
    "check_url",
    "checkpoint_markers",
    "split_hints",
    "RTL_LANGUAGES",
]

SAFE_SCHEMES = ("http", "https", "mailto")
FIGURE_NAME = re.compile(r"^[a-z0-9][a-z0-9-]*$")
CHECKPOINT_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]*$")
#: Languages written right to left: their flowcharts are mirrored (``render`` derives ``rtl`` from ``lang``).
RTL_LANGUAGES = frozenset(_settings.RTL_LANGUAGES)
_HINT_SEPARATOR = re.compile(r"^---[ \t]*$")
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")


class MarkdownError(LessonError):
    """A lesson's markdown cannot be built safely (unsafe link, bad math, bad flowchart); names the file."""


def _ui(lang: str, key: str) -> str:
    """A UI word (figure fallback, diagram title) under the site's one catalog loader and fallback rule."""
    from werkbank.catalog import ui

    return ui(lang, key)


#: A URL's scheme (``https:``, ``javascript:``), as a browser reads it: a URL without one is relative.
SCHEME = re.compile(r"^([a-zA-Z][a-zA-Z0-9+.\-]*):")


def check_url(url: str, source: str) -> None:
    """Raise MarkdownError unless ``url`` is http(s), mailto, relative or an anchor.

    The check is done the way a browser reads the URL: entities and percent-escapes decoded, control characters and
    whitespace dropped, scheme compared case-insensitively.
    """
    text = html.unescape(unquote(url or ""))
    cleaned = "".join(ch for ch in text if not (ch.isspace() or unicodedata.category(ch).startswith("C")))
    match = SCHEME.match(cleaned)
    if match and match.group(1).lower() not in SAFE_SCHEMES:
        raise MarkdownError(
            f"{source}: unsafe link or image URL {url!r} (scheme {match.group(1).lower()!r} is not allowed)"
        )


#: Tokens (identifiers, numbers, operators) from which an inline formula may be wider than a phone's column when the
#: learner doubles the text size (about 300 CSS pixels at ~30 pixels a token, WCAG 1.4.4) and gets a box that
#: scrolls sideways (``math-inline-wide``); a shorter one keeps its place on the line.
WIDE_INLINE_TOKENS = 6
_MATH_TOKEN = re.compile(r"<m[ino][\s>]")


def _math(content: str, display: str, source: str) -> str:
    try:
        mathml = latex_to_mathml(content.strip(), display=display)
    except Exception as exc:  # latex2mathml raises many different exception types
        raise MarkdownError(f"{source}: cannot convert math {content.strip()!r}: {exc}") from exc
    mathml = mathml.replace("<math ", '<math dir="ltr" ', 1)
    if display == "block":
        return f'<div class="math-display" dir="ltr">{mathml}</div>\n'
    if len(_MATH_TOKEN.findall(mathml)) >= WIDE_INLINE_TOKENS:
        # MathML does not wrap: a long inline formula scrolls inside its own box instead of widening a phone's page
        return f'<span class="math-inline-wide" dir="ltr">{mathml}</span>'
    return mathml


# ---------------------------------------------------------------- flowcharts


def flowchart_svg(text: str, source: str = "<flowchart>", title: str = "Flowchart", rtl: bool = False) -> str:
    """Draw a flowchart as SVG (see :func:`werkbank.flowchart.flowchart_svg`); errors are :class:`MarkdownError`."""
    try:
        return _flowchart.flowchart_svg(text, source, title, rtl=rtl)
    except _flowchart.FlowchartError as exc:
        raise MarkdownError(str(exc)) from None


# ---------------------------------------------------------------- renderer


def _slug_ids(tokens) -> None:
    """Give headings ids by position (``s-1``, ``s-2``...) so translations share anchors."""
    count = 0
    for tok in tokens:
        if tok.type == "heading_open":
            count += 1
            tok.attrSet("id", f"s-{count}")


def _checkpoint_id(tok) -> str | None:
    """The id of a ```` ```checkpoint N ```` marker fence, or None for any other token."""
    if tok.type != "fence":
        return None
    info = tok.info.strip().split()
    if not info or info[0] != "checkpoint":
        return None
    return " ".join(info[1:])


#: Where a long inline code span (a signature) may break: after an opening bracket, a dot or a comma, and before
#: "->". Without these a narrow screen breaks it inside a name ("neg_l" / "og_probs").
_CODE_BREAK = re.compile(r"(?<=[(\[.,])(?=\S)|(?= ->)")
_CODE_BREAK_FROM = 24


def _code_inline(content: str) -> str:
    """An inline code span: escaped, and when it is long, with ``<wbr>`` where a signature may wrap."""
    if len(content) < _CODE_BREAK_FROM:
        return f"<code>{html.escape(content, quote=False)}</code>"
    parts = _CODE_BREAK.split(content)
    return "<code>" + "<wbr>".join(html.escape(part, quote=False) for part in parts) + "</code>"


def _is_details(params: str, *_) -> bool:
    return params.strip().split(" ", 1)[0] == "details"


class _Renderer:
    def __init__(self, source: str, lang: str, heading_ids: bool, rtl: bool | None = None):
        self.source = source
        self.lang = lang
        self.heading_ids = heading_ids
        self.rtl = lang in RTL_LANGUAGES if rtl is None else rtl
        md = MarkdownIt("commonmark", {"html": False, "typographer": False}).enable("table")
        dollarmath_plugin(md, allow_space=False, allow_digits=False, double_inline=True)
        # markdown-it binds a render rule to its renderer, so the rule is a plain function that calls back here
        container_plugin(
            md,
            "details",
            validate=_is_details,
            render=lambda renderer, tokens, idx, options, env: self._details(tokens[idx]),
        )
        md.validateLink = lambda url: True  # accept everything while parsing, then reject unsafe URLs loudly
        rules = md.renderer.rules
        rules["math_inline"] = lambda t, i, o, e: _math(t[i].content, "inline", source)
        rules["math_inline_double"] = lambda t, i, o, e: _math(t[i].content, "block", source)
        rules["math_block"] = lambda t, i, o, e: _math(t[i].content, "block", source)
        rules["math_block_label"] = lambda t, i, o, e: _math(t[i].content, "block", source)
        default_fence = rules["fence"]
        rules["fence"] = lambda t, i, o, e: self._fence(t, i, o, e, default_fence)
        rules["code_inline"] = lambda t, i, o, e: _code_inline(t[i].content)
        self.md = md

    def _details(self, tok) -> str:
        if tok.nesting == -1:
            return "</details>\n"
        summary = tok.info.strip()[len("details") :].strip()
        if not summary:
            raise MarkdownError(f"{self.source}: a fold needs a summary: '::: details What is folded'")
        return f'<details class="fold"><summary>{self.render(summary, inline=True)}</summary>\n'

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
            svg = flowchart_svg(tok.content, self.source, _ui(self.lang, "flowchart_title"), rtl=self.rtl)
            return f'<figure class="flowchart-figure" dir="{"rtl" if self.rtl else "ltr"}">{svg}</figure>\n'
        if kind == "checkpoint":  # validated in _check_markers before rendering
            return f'<div data-checkpoint-slot="{html.escape(_checkpoint_id(tok))}"></div>\n'
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

    def markers(self, tokens, checkpoints=None) -> list[str]:
        """The checkpoint markers in ``tokens``, in order; MarkdownError for a malformed, repeated or unknown one."""
        found: list[str] = []
        for tok in tokens:
            marker = _checkpoint_id(tok)
            if marker is None:
                continue
            if not CHECKPOINT_ID.match(marker):
                raise MarkdownError(
                    f"{self.source}: a checkpoint marker names one checkpoint id, like "
                    f"'checkpoint 2', not {tok.info.strip()!r}"
                )
            if tok.content.strip():
                raise MarkdownError(f"{self.source}: the marker 'checkpoint {marker}' must have an empty body")
            if marker in found:
                raise MarkdownError(f"{self.source}: checkpoint {marker} is marked twice")
            if checkpoints is not None and marker not in checkpoints:
                known = ", ".join(checkpoints) or "none"
                raise MarkdownError(f"{self.source}: there is no checkpoint {marker} to place (known: {known})")
            found.append(marker)
        return found

    def render(self, text: str, inline: bool = False, checkpoints=None) -> str:
        if inline:
            tokens = self.md.parseInline(text)
            self._check_links(tokens)
            return self._isolated(self.md.renderer.render(tokens, self.md.options, {}))
        tokens = self.md.parse(text)
        self._check_links(tokens)
        self.markers(tokens, checkpoints)
        if self.heading_ids:
            _slug_ids(tokens)
        return self._isolated(self.md.renderer.render(tokens, self.md.options, {}))

    def _isolated(self, markup: str) -> str:
        """In a right-to-left language, code, numbers and intervals in running text keep their order
        (:func:`werkbank.bidi.isolate_html`)."""
        return isolate_html(markup) if self.lang in RTL_LANGUAGES else markup


def render(
    text: str,
    source: str = "<markdown>",
    lang: str = _settings.FALLBACK_LANGUAGE,
    heading_ids: bool = False,
    rtl: bool | None = None,
    checkpoints=None,
) -> str:
    """Render lesson markdown to HTML; ``source`` names the file in errors, ``lang`` picks UI words for fallbacks.

    With ``heading_ids`` headings get positional ids (``s-1``...), the same in every translation of a page.
    ``rtl`` lays flowcharts out from right to left; by default it follows ``lang`` (:data:`RTL_LANGUAGES`).
    ``checkpoints`` (the lesson's checkpoint ids), when given, makes a marker for any other id an error.
    Raises :class:`MarkdownError` for unsafe URLs, math that cannot be converted, unreadable flowcharts, a fold
    without a summary, and a malformed or repeated checkpoint marker.
    """
    return _Renderer(source, lang, heading_ids, rtl).render(text, checkpoints=checkpoints)


def render_inline(text: str, source: str = "<markdown>", lang: str = _settings.FALLBACK_LANGUAGE) -> str:
    """Render one line of markdown (no paragraph wrapper), with the same safety rules as :func:`render`."""
    return _Renderer(source, lang, False).render(text, inline=True)


_INLINE_MARKUP = {"em_open": "em", "em_close": "em", "strong_open": "strong", "strong_close": "strong"}
_MATH = re.compile(r"(?<![\\$])\$[^$\s][^$]*\$")


def inline_parts(text: str, source: str = "<feedback>") -> list[dict]:
    """One line of markdown as the parts a verdict shows (a declared mistake's feedback): ``[{"text", "code"?,
    "strong"?, "em"?, "href"?}]``, each flag present only when set, so the page builds the elements itself from text
    (never HTML). Only `code`, *emphasis*, **strong** and [links](https://…) are allowed; anything else (a list, a
    heading, an image, an autolink, raw HTML, $math$, a link that is not http(s)) raises :class:`MarkdownError`
    naming ``source``, since the verdict would show it as written."""
    allowed = "use only `code`, *emphasis*, **strong** and [links](https://…)"
    if _MATH.search(text):
        raise MarkdownError(f"{source}: math ($…$) is not rendered in a verdict: {allowed}")
    tokens = MarkdownIt("commonmark", {"html": False}).parse(text)
    blocks = [t.type for t in tokens]
    if blocks and blocks != ["paragraph_open", "inline", "paragraph_close"]:
        block = next(b for b in blocks if b not in ("paragraph_open", "inline", "paragraph_close"))
        name = {
            "bullet_list_open": "a list",
            "ordered_list_open": "a list",
            "heading_open": "a heading",
            "fence": "a code block",
            "code_block": "a code block",
            "blockquote_open": "a quote",
            "hr": "a rule",
        }.get(block, "more than one paragraph")
        raise MarkdownError(f"{source}: {name} is not shown in a verdict: {allowed}")
    parts: list[dict] = []
    flags: dict = {}
    for token in tokens[1].children if blocks else ():
        if token.type in _INLINE_MARKUP:
            name = _INLINE_MARKUP[token.type]
            if token.type.endswith("_open"):
                flags[name] = True
            else:
                flags.pop(name, None)
        elif token.type == "link_open":
            href = token.attrGet("href") or ""
            if not re.match(r"^https?://", href) or token.info == "auto":
                raise MarkdownError(f"{source}: a link in a verdict is written [text](https://…), not {href!r}")
            flags["href"] = href
        elif token.type == "link_close":
            flags.pop("href", None)
        elif token.type in ("text", "code_inline", "softbreak"):
            part = {"text": " " if token.type == "softbreak" else token.content, **flags}
            if token.type == "code_inline":
                part["code"] = True
            if parts and {k: v for k, v in parts[-1].items() if k != "text"} == {
                k: v for k, v in part.items() if k != "text"
            }:
                parts[-1]["text"] += part["text"]
            else:
                parts.append(part)
        else:
            raise MarkdownError(f"{source}: {token.type.replace('_', ' ')} is not shown in a verdict: {allowed}")
    return parts


def checkpoint_markers(text: str, source: str = "<markdown>", checkpoints=None) -> list[str]:
    """The ids of the ```` ```checkpoint N ```` markers in ``text``, in order of appearance.

    Raises :class:`MarkdownError` like :func:`render` does for a malformed, repeated or (with ``checkpoints``)
    unknown marker.
    """
    renderer = _Renderer(source, _settings.FALLBACK_LANGUAGE, False)
    return renderer.markers(renderer.md.parse(text), checkpoints)


def split_hints(text: str, source: str = "<hint>") -> list[str]:
    """Cut a hint file into its hints, from gentle to specific: they are separated by a line holding only ``---``
    (a ``---`` inside a fenced code block does not count). Each hint is returned stripped; an empty one is an
    author error (:class:`MarkdownError` naming ``source``)."""
    parts: list[list[str]] = [[]]
    fence = ""
    for line in text.splitlines():
        opening = _FENCE.match(line)
        if fence:
            if (
                opening
                and opening.group(1)[0] == fence[0]
                and len(opening.group(1)) >= len(fence)
                and not line.strip()[len(opening.group(1)) :].strip()
            ):
                fence = ""
        elif opening:
            fence = opening.group(1)
        elif _HINT_SEPARATOR.match(line):
            parts.append([])
            continue
        parts[-1].append(line)
    hints = ["\n".join(part).strip() for part in parts]
    for number, hint in enumerate(hints, 1):
        if not hint:
            raise MarkdownError(f"{source}: hint {number} of {len(hints)} is empty (two '---' lines in a row?)")
    return hints
