"""The learner's site: bundle ``web/src`` with esbuild and render every page as static HTML.

:func:`build_site` is called by :mod:`werkbank.build` (which vendors Pyodide and writes the grading data). It writes:

- ``dist/assets/`` (through :func:`werkbank.assets.bundle`: app.js and the two workers);
- ``dist/static/`` (a copy of ``web/static/``);
- ``dist/index.html`` (home in the default language) and ``dist/<lang>/index.html`` for the other languages;
- ``dist/lessons/<id>/<lang>.html`` for each language of each lesson.

Pages read and navigate without JavaScript; the scripts add editors, the Python workers and progress. Languages come
from :mod:`graders.engine.settings`; every UI string from :mod:`werkbank.catalog` (one loader, one fallback rule),
embedded into each page for ``web/src/i18n.js``.
"""

from __future__ import annotations

import hashlib
import html
import json
import re
import shutil
from pathlib import Path

from graders.engine.settings import LANGUAGES, RTL_LANGUAGES
from werkbank.assets import EDITOR_STAGES, SiteError, bundle, editor_modules  # bundling lives in werkbank.assets
from werkbank.catalog import for_page, ui
from werkbank.markdown import render, render_inline

REPO_ROOT = Path(__file__).resolve().parent.parent
WEB = REPO_ROOT / "web"
#: The language of ``dist/index.html``; the other languages live in ``dist/<lang>/index.html``.
DEFAULT_LANGUAGE = LANGUAGES[0]

__all__ = ["build_site", "SiteError", "json_for_script", "bundle", "place_checkpoints"]


def _dir(lang: str) -> str:
    return "rtl" if lang in RTL_LANGUAGES else "ltr"


def json_for_script(data) -> str:
    """JSON safe inside ``<script type="application/json">``: ``<``, ``>`` and ``&`` become ``\\u003c`` etc."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return (text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
            .replace("\u2028", "\\u2028").replace("\u2029", "\\u2029"))


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    data = text.encode("utf-8")
    if not path.exists() or path.read_bytes() != data:
        path.write_bytes(data)


# ---------------------------------------------------------------- assets

def copy_static(dist: Path) -> str:
    """Copy ``web/static/`` to ``dist/static/``; return a hash of its contents for cache busting."""
    src, dst = WEB / "static", Path(dist) / "static"
    digest = hashlib.sha256()
    for path in sorted(p for p in src.rglob("*") if p.is_file()):
        rel = path.relative_to(src)
        data = path.read_bytes()
        digest.update(rel.as_posix().encode() + b"\0" + data)
        target = dst / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        if not target.exists() or target.read_bytes() != data:
            shutil.copyfile(path, target)
    return digest.hexdigest()[:12]



# ---------------------------------------------------------------- page shell

def page_csp() -> str:
    """The pages' Content-Security-Policy: the site's one CSP (:data:`werkbank.offline.CSP`) minus the header-only
    ``frame-ancestors``. No eval, no inline script, nothing from another origin."""
    from werkbank.offline import CSP

    parts = [p.strip() for p in CSP.split(";") if p.strip() and not p.strip().startswith("frame-ancestors")]
    return "; ".join(parts)


def _shell(*, lang: str, root: str, title: str, body: str, page: str, versions: dict[str, str],
           body_attrs: str = "", head_extra: str = "", lesson_id: str = "", preload: tuple[str, ...] = ()) -> str:
    """The HTML document around a page body. ``root`` is the relative path to ``dist/`` ("", "../", "../../").
    ``preload``: module URLs that early.js preloads (``data-modules``) unless the page may still reload itself into
    isolation."""
    esc = html.escape
    early_attrs = f' data-lesson="{esc(lesson_id)}"' if lesson_id else ""
    if preload:
        early_attrs += f' data-modules="{esc(" ".join(preload))}"'
    return f"""<!doctype html>
<html lang="{esc(lang)}" dir="{_dir(lang)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="{esc(page_csp())}">
<meta name="color-scheme" content="light dark">
<title>{esc(title)}</title>
<link rel="icon" href="{root}static/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="{root}static/site.css?v={versions['static']}">
<script src="{root}static/theme-boot.js?v={versions['static']}"></script>
{head_extra}<script src="{root}assets/early.js?v={versions['early']}"{early_attrs}></script>
<script type="module" src="{root}assets/app.js?v={versions['app']}"></script>
</head>
<body data-page="{page}" data-runtime="loading" data-lang="{esc(lang)}"{body_attrs}>
<a class="skip-link" href="#main">{esc(ui(lang, "skip_to_content"))}</a>
{body}
<div class="visually-hidden" data-announcer role="status" aria-live="polite" aria-atomic="true"></div>
<script type="application/json" id="ui-strings">{json_for_script(for_page(lang))}</script>
</body>
</html>
"""


def _runtime_status(lang: str) -> str:
    """The visible "Python: loading/ready" indicator with its progress bar (JS fills it in). Not a live region:
    a run announces once, through the page's announcer (its verdict's headline)."""
    esc = html.escape
    return (f'<div class="runtime-status" data-runtime-status>'
            f'<span class="runtime-dot" aria-hidden="true"></span>'
            f'<span data-runtime-label>{esc(ui(lang, "runtime_loading"))}</span>'
            f'<progress data-runtime-progress max="100" hidden></progress></div>')


def _topbar(lang: str, root: str, switch: str, stepper: str = "") -> str:
    esc = html.escape
    return (f'<header class="topbar"><nav class="topbar-nav" aria-label="{esc(ui(lang, "site_nav"))}">'
            f'<a class="brand" href="{root}{_home_path(lang)}" data-home>{esc(ui(lang, "site_title"))}</a>'
            f'{switch}'
            f'<button type="button" class="theme-toggle" data-theme-toggle aria-pressed="false" '
            f'title="{esc(ui(lang, "theme_toggle"))}" aria-label="{esc(ui(lang, "theme_toggle"))}">◐</button>'
            f'</nav>{stepper}{_runtime_status(lang)}</header>'
            f'<div class="warnings" data-warnings role="alert" aria-live="assertive"></div>'
            f'<noscript><p class="noscript">{esc(ui(lang, "noscript"))}</p></noscript>')


def _home_path(lang: str) -> str:
    return "index.html" if lang == DEFAULT_LANGUAGE else f"{lang}/index.html"


def _language_name(lang: str) -> str:
    """A language's own name, isolated in its own direction (so "English, العربية" never reads "English ,العربية")."""
    return html.escape(ui(lang, "language_name"))


def _lang_switch(lang: str, targets: list[tuple[str, str]]) -> str:
    """Links to the same page in other languages; ``data-keep-place`` lets JS carry the current anchor along and
    ``data-lang-choice`` remembers the learner's pick (web/static/lang-boot.js)."""
    esc = html.escape
    items = []
    for other, href in targets:
        name = _language_name(other)
        attrs = f'lang="{other}" dir="{_dir(other)}" hreflang="{other}" href="{esc(href)}" data-lang-choice="{other}"'
        if other == lang:
            items.append(f'<li><a aria-current="page" {attrs}>{name}</a></li>')
        else:
            items.append(f'<li><a {attrs} data-keep-place>{name}</a></li>')
    return (f'<nav class="lang-switch" aria-label="{esc(ui(lang, "language_switch"))}">'
            f'<ul>{"".join(items)}</ul></nav>')


# ---------------------------------------------------------------- home

def _lesson_lang(lesson, lang: str) -> str:
    """The lesson language to link from a page in ``lang``: the same, else the fallback, else the original."""
    for choice in (lang, "en"):
        if choice in lesson.languages:
            return choice
    return lesson.languages[0]


def _home(lang: str, lessons: list, versions: dict[str, str]) -> str:
    esc = html.escape
    root = "" if lang == DEFAULT_LANGUAGE else "../"
    switch = _lang_switch(lang, [(o, root + _home_path(o)) for o in LANGUAGES])
    cards = []
    for lesson in lessons:
        if not lesson.listed:
            continue
        ll = _lesson_lang(lesson, lang)
        text = lesson.text[ll]
        source = f"{lesson.folder / 'lesson.toml'} [text.{ll}]"
        total = len(lesson.checkpoints)
        langs = esc(ui(lang, "list_separator")).join(
            f'<a href="{root}lessons/{esc(lesson.id)}/{x}.html" lang="{x}" dir="{_dir(x)}" hreflang="{x}">'
            f'{_language_name(x)}</a>' for x in lesson.languages)
        cards.append(
            f'<li class="lesson-card">'
            f'<h3 lang="{ll}" dir="{_dir(ll)}"><a data-lesson="{esc(lesson.id)}" '
            f'href="{root}lessons/{esc(lesson.id)}/{ll}.html">{esc(text.title)}</a></h3>'
            f'<div class="summary" lang="{ll}" dir="{_dir(ll)}">{_md(text.summary, source, ll)}</div>'
            f'<p class="meta"><span>{esc(ui(lang, "minutes", n=lesson.minutes))}</span> · '
            f'<span>{esc(ui(lang, "lesson_languages"))}: {langs}</span> · '
            f'<span>{esc(ui(lang, "progress"))}: <span data-lesson-progress="{esc(lesson.id)}" '
            f'data-total="{total}" dir="ltr">0 / {total}</span></span></p></li>'
        )
    body = (
        _topbar(lang, root, switch)
        + f'<main id="main" class="home">'
        f'<h1>{esc(ui(lang, "site_title"))}</h1><p class="tagline">{esc(ui(lang, "site_tagline"))}</p>'
        f'<section aria-labelledby="lessons-title"><h2 id="lessons-title">{esc(ui(lang, "lessons"))}</h2>'
        f'<ul class="lesson-list">{"".join(cards)}</ul></section>'
        f'<section class="progress-tools" aria-labelledby="progress-title">'
        f'<h2 id="progress-title">{esc(ui(lang, "your_progress"))}</h2>'
        f'<p>{esc(ui(lang, "progress_explainer"))}</p>'
        f'<div class="tool-row"><button type="button" data-action="export">{esc(ui(lang, "export"))}</button>'
        f'<label class="button-like"><span>{esc(ui(lang, "import"))}</span>'
        f'<input type="file" accept="application/json,.json" data-action="import"></label>'
        f'<button type="button" data-action="reset-all" class="danger">{esc(ui(lang, "reset_all"))}</button></div>'
        f'<p data-progress-message role="status" aria-live="polite"></p></section>'
        f'</main>'
    )
    index = [{"id": l.id, "checkpoints": [c.id for c in l.checkpoints]} for l in lessons]
    extra = f'<script type="application/json" id="site-data">{json_for_script({"lessons": index})}</script>'
    alternates = "".join(f'<link rel="alternate" hreflang="{o}" href="{root}{_home_path(o)}">\n' for o in LANGUAGES)
    head = alternates
    if lang == DEFAULT_LANGUAGE:
        # The default home page follows the browser's languages on a first visit, and the learner's own pick after
        # that (before the first paint; without JavaScript it simply stays here).
        head += f'<script src="{root}static/lang-boot.js?v={versions["static"]}"></script>\n'
    return _shell(lang=lang, root=root, title=ui(lang, "site_title"), body=body + extra, page="home",
                  versions=versions, head_extra=head)


# ---------------------------------------------------------------- lesson page

def _md(text: str, source: str, lang: str, **kw) -> str:
    return render(text, source=source, lang=lang, **kw)


def _md_inline(text: str, source: str, lang: str) -> str:
    return render_inline(text, source=source, lang=lang)


def _buttons(lang: str, actions: list[str], controls: dict[str, str] | None = None) -> str:
    esc = html.escape
    out = []
    for action in actions:
        cls = " primary" if action == "check" else ""
        extra = " hidden" if action == "stop" else ""
        if controls and action in controls:
            extra += f' aria-controls="{controls[action]}"'
        out.append(f'<button type="button" class="btn{cls}" data-action="{action}"{extra}>'
                   f'<span data-label>{esc(ui(lang, action))}</span></button>')
    return "".join(out)


def _editor_block(label: str, code: str, key: str, attr: str = "data-editor", extra_class: str = "",
                  fallback: bool = True) -> str:
    esc = html.escape
    inner = (f'<pre class="editor-fallback" dir="ltr"><code class="language-python">{esc(code)}</code></pre>'
             if fallback else "")
    cls = f"editor {extra_class}".strip()
    return f'<div class="{cls}" {attr}="{esc(key)}" dir="ltr" aria-label="{esc(label)}">{inner}</div>'


def _output(lang: str, label: str) -> str:
    # A log that is not live: output is read on demand (the verdict's headline is the one announcement).
    esc = html.escape
    return (f'<pre class="output" data-output dir="ltr" tabindex="0" role="log" aria-live="off" '
            f'aria-label="{esc(label)}" hidden></pre>')


def _needs_closure(lesson, cp) -> list:
    """The earlier checkpoints whose code ``cp`` builds on, transitively, in lesson order."""
    wanted = set()
    stack = list(cp.needs)
    while stack:
        cid = stack.pop()
        if cid in wanted:
            continue
        wanted.add(cid)
        stack.extend(lesson.checkpoint(cid).needs)
    return [c for c in lesson.checkpoints if c.id in wanted]


def _carried(lesson, cp, lang: str, numbers: dict[str, int]) -> str:
    """The code carried over from earlier checkpoints: visible, editable, runs before the learner's own code."""
    esc = html.escape
    out = []
    for need in _needs_closure(lesson, cp):
        n = numbers[need.id]
        key = f"{cp.id}-{need.id}"
        out.append(
            f'<details class="carried" data-carried="{esc(need.id)}" open>'
            f'<summary><span class="carried-title">{esc(ui(lang, "carried_title", n=n))}</span></summary>'
            f'<p class="carried-text">{esc(ui(lang, "carried_text"))}</p>'
            f'<p class="carried-note" data-carried-note hidden>{esc(ui(lang, "carried_not_passed", n=n))}</p>'
            + _editor_block(ui(lang, "carried_editor_label", n=n), "", key, attr="data-carried-editor",
                            extra_class="editor-small", fallback=False)
            + f'<button type="button" class="btn" data-action="carry-refresh">'
            f'{esc(ui(lang, "carried_refresh", n=n))}</button></details>'
        )
    return "".join(out)


def _checkpoint(lesson, cp, lang: str, index: int, numbers: dict[str, int], next_html: str) -> str:
    esc = html.escape
    task = _md(cp.task(lang), str(cp.folder / f"task.{lang}.md"), lang)
    title = cp.title.get(lang) or cp.title[lesson.languages[0]]
    entry = "".join(f"<code>{esc(name)}</code> " for name in cp.entry)
    cid = esc(cp.id)
    base = f"checkpoint-{cid}"
    hint_source = str(cp.folder / f"hint.{lang}.md")
    hints = cp.hints(lang)
    hint_html = "".join(
        f'<div class="hint" data-hint="{i}" hidden><p class="hint-number">'
        f'{esc(ui(lang, "hint_number", n=i, total=len(hints)))}</p>{_md(text, hint_source, lang)}</div>'
        for i, text in enumerate(hints, 1))
    example = cp.example(lang)
    return (
        f'<section class="checkpoint" id="{base}" data-checkpoint="{cid}" data-state="idle" '
        f'aria-labelledby="{base}-title">'
        f'<h2 id="{base}-title" tabindex="-1"><span class="cp-number">{esc(ui(lang, "checkpoint", n=index))}</span> '
        f'<span class="cp-title">{esc(title)}</span> '
        f'<span class="cp-badge" data-passed-badge hidden>✓&#xA0;{esc(ui(lang, "passed_badge"))}</span></h2>'
        f'<div class="task">{task}</div>'
        + (f'<p class="entry">{esc(ui(lang, "define_names"))} <span dir="ltr">{entry.strip()}</span></p>' if entry else "")
        + _carried(lesson, cp, lang, numbers)
        + _editor_block(ui(lang, "editor_label", n=index), cp.starter(lang), cp.id)
        + f'<p class="keys" id="{base}-keys">{esc(ui(lang, "keys_help"))}</p>'
        f'<div class="example" data-example-block{"" if example else " hidden"}>'
        f'<h3 class="example-title" data-example-title>{esc(ui(lang, "example_heading"))}</h3>'
        f'<p class="example-text" data-example-text>{esc(ui(lang, "example_text"))}</p>'
        + _editor_block(ui(lang, "example_editor_label", n=index), example, f"{cp.id}-example",
                        attr="data-example-editor", extra_class="editor-small")
        + f'<button type="button" class="btn" data-action="example-restore" hidden>'
        f'{esc(ui(lang, "example_restore"))}</button></div>'
        f'<div class="actions" role="group" aria-label="{esc(ui(lang, "checkpoint", n=index))}">'
        f'{_buttons(lang, ["run", "check", "stop", "reset", "hint", "solution"], {"hint": f"{base}-hints"})}</div>'
        f'<div class="hints" id="{base}-hints" data-hints="{len(hints)}">{hint_html}</div>'
        f'<div class="solution" data-solution hidden></div>'
        f'<div class="verdict" data-verdict="idle"></div>'
        + _output(lang, ui(lang, "checkpoint", n=index))
        + f'<p class="next" data-next hidden>{next_html}</p>'
        f'</section>'
    )


_SLOT = re.compile(r'<div data-checkpoint-slot="([^"]*)"></div>\n?')


def place_checkpoints(prose_html: str, sections: dict[str, str]) -> str:
    """The lesson body: the prose with each checkpoint's section placed at its slot (``<div
    data-checkpoint-slot="N">``, from a ```` ```checkpoint N ```` marker), right after the text it needs. Sections
    without a slot follow the prose, in lesson order. Prose parts are ``<div class="prose">`` blocks."""
    parts = []
    placed = set()
    pos = 0
    for match in _SLOT.finditer(prose_html):
        cid = html.unescape(match.group(1))
        if cid not in sections or cid in placed:
            continue
        parts.append(("prose", prose_html[pos:match.start()]))
        parts.append(("section", sections[cid]))
        placed.add(cid)
        pos = match.end()
    parts.append(("prose", prose_html[pos:]))
    parts.extend(("section", html_) for cid, html_ in sections.items() if cid not in placed)
    out = []
    for kind, text in parts:
        if kind == "section":
            out.append(text)
        elif text.strip():
            out.append(f'<div class="prose">{text}</div>')
    return "".join(out)


def _stepper(lesson, lang: str) -> str:
    """Checkpoint stepper in the sticky top bar: each checkpoint's state (JS keeps it current) and a jump to it."""
    esc = html.escape
    items = []
    for i, cp in enumerate(lesson.checkpoints, 1):
        title = cp.title.get(lang) or cp.title[lesson.languages[0]]
        number = esc(ui(lang, "checkpoint", n=i))
        items.append(
            f'<li><a class="step" href="#checkpoint-{esc(cp.id)}" data-step="{esc(cp.id)}" data-state="new" '
            f'title="{number}: {esc(title)}">'
            f'<span class="step-number" aria-hidden="true">{i}</span>'
            f'<span class="step-mark" aria-hidden="true" data-step-mark></span>'
            f'<span class="visually-hidden">{number}: {esc(title)}, '
            f'<span data-step-state>{esc(ui(lang, "step_new"))}</span></span></a></li>')
    return (f'<nav class="stepper" aria-label="{esc(ui(lang, "stepper_label"))}">'
            f'<ol>{"".join(items)}</ol></nav>')


def _next_links(lesson, lang: str, next_lesson) -> list[str]:
    """The "Next" link shown after each checkpoint's pass: the next checkpoint, or after the last one the next
    lesson (or all lessons)."""
    esc = html.escape
    links = []
    cps = lesson.checkpoints
    for i, cp in enumerate(cps):
        if i + 1 < len(cps):
            links.append(f'<a class="next-link" href="#checkpoint-{esc(cps[i + 1].id)}" data-next-link>'
                         f'{esc(ui(lang, "next_checkpoint", n=i + 2))}</a>')
        elif next_lesson is not None:
            ll = _lesson_lang(next_lesson, lang)
            links.append(f'<span class="lesson-complete">{esc(ui(lang, "lesson_complete"))}</span> '
                         f'<a class="next-link" href="../{esc(next_lesson.id)}/{ll}.html" data-next-link>'
                         f'{esc(ui(lang, "next_lesson", title=next_lesson.text[ll].title))}</a>')
        else:
            links.append(f'<span class="lesson-complete">{esc(ui(lang, "lesson_complete"))}</span> '
                         f'<a class="next-link" href="../../{_home_path(lang)}" data-next-link>'
                         f'{esc(ui(lang, "all_lessons"))}</a>')
    return links


def _lesson_page(lesson, lang: str, versions: dict[str, str], next_lesson=None, editor: tuple[str, ...] = ()) -> str:
    esc = html.escape
    text = lesson.text[lang]
    toml = f"{lesson.folder / 'lesson.toml'} [text.{lang}]"
    root = "../../"
    switch = _lang_switch(lang, [(o, f"{o}.html") for o in lesson.languages])
    total = len(lesson.checkpoints)
    goals = "".join(f"<li>{_md_inline(g, toml, lang)}</li>" for g in text.goals)
    header = (
        f'<header class="lesson-header">'
        f'<h1>{esc(text.title)}</h1>'
        f'<p class="meta"><span>{esc(ui(lang, "minutes", n=lesson.minutes))}</span> · '
        f'<span>{esc(ui(lang, "progress"))}: <span data-progress data-total="{total}" dir="ltr">0 / {total}</span>'
        f'</span></p>'
        + (f'<p class="prereq"><strong>{esc(ui(lang, "prerequisites"))}:</strong> '
           f'{_md_inline(text.prerequisites, toml, lang)}</p>' if text.prerequisites else "")
        + (f'<section class="goals"><h2>{esc(ui(lang, "goals"))}</h2><ul>{goals}</ul></section>' if goals else "")
        + "</header>"
    )
    prose = _md(lesson.prose(lang), str(lesson.folder / f"prose.{lang}.md"), lang, heading_ids=True,
                checkpoints=[cp.id for cp in lesson.checkpoints])
    numbers = {cp.id: i for i, cp in enumerate(lesson.checkpoints, 1)}
    nexts = _next_links(lesson, lang, next_lesson)
    sections = {cp.id: _checkpoint(lesson, cp, lang, i, numbers, nexts[i - 1])
                for i, cp in enumerate(lesson.checkpoints, 1)}
    playground = (
        f'<section class="playground" id="try" data-playground aria-labelledby="try-title">'
        f'<h2 id="try-title" tabindex="-1">{esc(ui(lang, "playground"))}</h2><p>{esc(ui(lang, "playground_text"))}</p>'
        + _editor_block(ui(lang, "playground_label"), "", "playground")
        + f'<p class="keys" id="try-keys">{esc(ui(lang, "keys_help_playground"))}</p>'
        f'<div class="actions" role="group" aria-label="{esc(ui(lang, "playground"))}">'
        f'{_buttons(lang, ["run", "stop"])}</div>'
        f'<div class="verdict" data-verdict="idle"></div>'
        + _output(lang, ui(lang, "playground"))
        + '</section>'
    )
    tail = ""
    if text.takeaways:
        items = "".join(f"<li>{_md_inline(t, toml, lang)}</li>" for t in text.takeaways)
        tail += f'<section id="takeaways" class="takeaways"><h2>{esc(ui(lang, "takeaways"))}</h2><ul>{items}</ul></section>'
    if text.further_reading:
        tail += (f'<section id="further-reading"><h2>{esc(ui(lang, "further_reading"))}</h2>'
                 f'{_md(text.further_reading, toml, lang)}</section>')
    if text.sources:
        items = "".join(f"<li>{_md_inline(s, toml, lang)}</li>" for s in text.sources)
        tail += f'<section id="sources" class="sources"><h2>{esc(ui(lang, "sources"))}</h2><ol>{items}</ol></section>'
    # Only what the scripts read: starters for Reset and "tried", the solution for "Show solution", the example
    # for "Back to the example", and `needs` for the carried-over code. Hints and texts are in the HTML once.
    data = {
        "id": lesson.id,
        "lang": lang,
        "checkpoints": [
            {"id": cp.id, "starter": cp.starter(lang), "solution": cp.solution(), "example": cp.example(lang),
             "needs": [c.id for c in _needs_closure(lesson, cp)]}
            for cp in lesson.checkpoints
        ],
    }
    body = (
        _topbar(lang, root, switch, _stepper(lesson, lang))
        + f'<main id="main" class="lesson">{header}<article class="lesson-body prose">'
        f'{place_checkpoints(prose, sections)}</article>'
        f'{playground}{tail}</main>'
        f'<script type="application/json" id="lesson-data">{json_for_script(data)}</script>'
    )
    # The editor's modules (``editor``: werkbank.assets.editor_modules), fetched and compiled while the page loads:
    # app.js's imports of them then only evaluate them. Compiled inside those imports instead, a first visit's
    # evaluation of CodeMirror was one main-thread task of 45-65 ms. The stages go under the very URLs app.js imports
    # (with ?v=); the shared chunks carry their hash in their names. early.js adds the links (data-modules), so that a
    # first visit's page that reloads itself into isolation at once does not fetch and compile them for nothing.
    preload = tuple(
        f'{root}assets/{name}{"?v=" + versions["editor"] if name in EDITOR_STAGES else ""}'
        for name in editor
    )
    return _shell(lang=lang, root=root, title=f"{text.title} · {ui(lang, 'site_title')}", body=body,
                  page="lesson", versions=versions, body_attrs=f' data-lesson="{esc(lesson.id)}"', lesson_id=lesson.id,
                  preload=preload)


# ---------------------------------------------------------------- entry point

def build_site(dist: Path, lessons: list | None = None) -> None:
    """Bundle the scripts, copy the static files and render the home and lesson pages into ``dist``.

    ``lessons`` defaults to every lesson under ``exercises/``. Raises :class:`SiteError` for unsafe markdown (the
    message names the file) or a failing esbuild.
    """
    if lessons is None:
        from werkbank.lessons import load_all

        lessons = load_all()
    dist = Path(dist)
    versions = bundle(dist)
    versions["static"] = copy_static(dist)
    editor = tuple(editor_modules(dist))
    for lang in LANGUAGES:
        _write(dist / _home_path(lang), _home(lang, lessons, versions))
    listed = [lesson for lesson in lessons if lesson.listed]
    for lesson in lessons:
        later = listed[listed.index(lesson) + 1:] if lesson in listed else []
        next_lesson = later[0] if later else None
        for lang in lesson.languages:
            _write(dist / "lessons" / lesson.id / f"{lang}.html", _lesson_page(lesson, lang, versions, next_lesson, editor))
