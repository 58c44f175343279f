"""The learner's site: bundle ``web/src`` with esbuild and render every page as static HTML from the Jinja2
templates in ``werkbank/templates/`` (autoescaped).

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
from functools import partial
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, StrictUndefined
from markupsafe import Markup, escape

from graders.engine.settings import FALLBACK_LANGUAGE, LANGUAGES, RTL_LANGUAGES
from werkbank.assets import EDITOR_STAGES, SiteError, bundle, editor_modules  # bundling lives in werkbank.assets
from werkbank.bidi import isolate_html
from werkbank.catalog import for_page, ui
from werkbank.markdown import render, render_inline

REPO_ROOT = Path(__file__).resolve().parent.parent
WEB = REPO_ROOT / "web"
#: The language of ``dist/index.html``; the other languages live in ``dist/<lang>/index.html``.
DEFAULT_LANGUAGE = LANGUAGES[0]

__all__ = ["build_site", "render_pages", "SiteError", "json_for_script", "bundle", "place_checkpoints"]


def _dir(lang: str) -> str:
    return "rtl" if lang in RTL_LANGUAGES else "ltr"


def json_for_script(data) -> str:
    """JSON safe inside ``<script type="application/json">``: ``<``, ``>`` and ``&`` become ``\\u003c`` etc."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return (
        text.replace("<", "\\u003c")
        .replace(">", "\\u003e")
        .replace("&", "\\u0026")
        .replace("\u2028", "\\u2028")
        .replace("\u2029", "\\u2029")
    )


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


# ---------------------------------------------------------------- templates

#: The page templates (``werkbank/templates/``). Autoescape is on for every template, so any text put into a page
#: (a lesson's title, a starter, an entry name, a UI string) is escaped unless it is :class:`Markup`: the markdown
#: renderer's output and JSON made safe for a script element (:func:`json_for_script`). StrictUndefined: a misspelt
#: name fails the build instead of rendering as "".
TEMPLATES = Path(__file__).resolve().parent / "templates"
_ENV = Environment(
    loader=FileSystemLoader(TEMPLATES),
    autoescape=True,
    undefined=StrictUndefined,
    trim_blocks=True,
    lstrip_blocks=True,
    keep_trailing_newline=True,
)
_ENV.filters["json_for_script"] = lambda data: Markup(json_for_script(data))


def page_csp() -> str:
    """The pages' Content-Security-Policy: the site's one CSP (:data:`werkbank.offline.CSP`) minus the header-only
    ``frame-ancestors``. No eval, no inline script, nothing from another origin."""
    from werkbank.offline import CSP

    parts = [p.strip() for p in CSP.split(";") if p.strip() and not p.strip().startswith("frame-ancestors")]
    return "; ".join(parts)


def _home_path(lang: str) -> str:
    return "index.html" if lang == DEFAULT_LANGUAGE else f"{lang}/index.html"


_ENV.globals.update(
    dir=_dir,
    home_path=_home_path,
    languages=LANGUAGES,
    default_language=DEFAULT_LANGUAGE,
    language_name=lambda lang: ui(lang, "language_name"),
)


def _isolated(lang: str, text: str) -> Markup:
    """``text`` (plain) for a page in ``lang``: escaped, and in a right-to-left language with its runs of code,
    numbers and intervals as left-to-right isolates (:func:`werkbank.bidi.isolate_html`)."""
    escaped = str(escape(text))
    return Markup(isolate_html(escaped) if lang in RTL_LANGUAGES else escaped)


def _render(template: str, lang: str, **context) -> str:
    """Render ``template`` for a page in ``lang``: ``t(key, **values)`` is that language's UI string, ``iso(text)``
    a plain text isolated for the page's direction (:func:`_isolated`)."""
    return _ENV.get_template(template).render(lang=lang, t=partial(ui, lang), iso=partial(_isolated, lang), **context)


def _page(
    template: str,
    *,
    lang: str,
    root: str,
    title: str,
    page: str,
    versions: dict[str, str],
    lesson_id: str = "",
    preload: tuple[str, ...] = (),
    **context,
) -> str:
    """A whole document (``page.html`` around ``template``'s body). ``root`` is the relative path to ``dist/``
    ("", "../", "../../"). ``preload``: module URLs that early.js preloads (``data-modules``) unless the page may
    still reload itself into isolation."""
    return _render(
        template,
        lang,
        root=root,
        title=title,
        page=page,
        versions=versions,
        lesson_id=lesson_id,
        preload=preload,
        csp=page_csp(),
        ui_strings=for_page(lang),
        **context,
    )


# ---------------------------------------------------------------- home


def _lesson_lang(lesson, lang: str) -> str:
    """The lesson language to link from a page in ``lang``: the same, else the fallback, else the original."""
    for choice in (lang, FALLBACK_LANGUAGE):
        if choice in lesson.languages:
            return choice
    return lesson.languages[0]


def _start_lesson(lessons: list, lang: str):
    """The lesson a newcomer on the home page in ``lang`` is told to start with: the first listed lesson (in the
    suggested order) that has ``lang``, else the first listed one (the page then says in which language it is)."""
    listed = [lesson for lesson in lessons if lesson.listed]
    return next((lesson for lesson in listed if lang in lesson.languages), listed[0] if listed else None)


def _home(lang: str, lessons: list, versions: dict[str, str], download_mb: int = 0) -> str:
    """A home page: the listed lessons in their suggested order (``order``), each with its level, time,
    prerequisites and the learner's state (web/src/progress.js), and a way back to the last lesson worked on."""
    root = "" if lang == DEFAULT_LANGUAGE else "../"
    cards = []
    start = _start_lesson(lessons, lang)
    for lesson in lessons:
        if not lesson.listed:
            continue
        ll = _lesson_lang(lesson, lang)
        text = lesson.text[ll]
        toml = f"{lesson.folder / 'lesson.toml'} [text.{ll}]"
        cards.append(
            {
                "id": lesson.id,
                "lang": ll,
                "title": text.title,
                "minutes": lesson.minutes,
                "level": lesson.level,
                "href": f"{root}lessons/{lesson.id}/{ll}.html",
                "total": len(lesson.checkpoints),
                "summary": _md(text.summary, toml, ll),
                "prerequisites": _md_inline(text.prerequisites, toml, ll) if text.prerequisites else "",
                "languages": [(x, f"{root}lessons/{lesson.id}/{x}.html") for x in lesson.languages],
                # the suggested first lesson says "Start here", and in which language when it is not the page's
                "start": None
                if lesson is not start
                else ui(lang, "state_start_here")
                if ll == lang
                else ui(lang, "state_start_here_other", language=ui(lang, f"language_of_{ll}")),
            }
        )
    # what the scripts read: each lesson's checkpoints (progress), and for "continue" its title and address in
    # each of its languages
    index = [
        {
            "id": one.id,
            "checkpoints": [c.id for c in one.checkpoints],
            "pages": {
                x: {"title": one.text[x].title, "href": f"{root}lessons/{one.id}/{x}.html"} for x in one.languages
            },
        }
        for one in lessons
    ]
    return _page(
        "home.html",
        lang=lang,
        root=root,
        title=ui(lang, "site_title"),
        page="home",
        versions=versions,
        switch=[(o, root + _home_path(o)) for o in LANGUAGES],
        cards=cards,
        download_mb=download_mb,
        site_data={"lessons": index},
    )


# ---------------------------------------------------------------- lesson page


def _md(text: str, source: str, lang: str, **kw) -> Markup:
    return Markup(render(text, source=source, lang=lang, **kw))


def _md_inline(text: str, source: str, lang: str) -> Markup:
    return Markup(render_inline(text, source=source, lang=lang))


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


def _title(lesson, cp, lang: str) -> str:
    return cp.title.get(lang) or cp.title[lesson.languages[0]]


def _checkpoint(lesson, cp, lang: str, index: int, numbers: dict[str, int], next_link: dict) -> Markup:
    """One checkpoint's section (``checkpoint.html``). The carried-over code of the checkpoints it needs is visible
    and editable, and runs before the learner's own code."""
    hint_source = str(cp.folder / f"hint.{lang}.md")
    # The task's folds (its input rules, which most cases test) start open: the task stands beside the editor.
    task = str(_md(cp.task(lang), str(cp.folder / f"task.{lang}.md"), lang)).replace(
        '<details class="fold">', '<details class="fold" open>'
    )
    return Markup(
        _render(
            "checkpoint.html",
            lang,
            cp=cp,
            index=index,
            title=_title(lesson, cp, lang),
            task=Markup(task),
            carried=[
                {"id": need.id, "n": numbers[need.id], "key": f"{cp.id}-{need.id}"}
                for need in _needs_closure(lesson, cp)
            ],
            starter=cp.starter(lang),
            example=cp.example(lang),
            hints=[_md(text, hint_source, lang) for text in cp.hints(lang)],
            next=next_link,
        )
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
        parts.append(("prose", prose_html[pos : match.start()]))
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


def _next_links(lesson, lang: str, next_lesson) -> list[dict]:
    """The "Next" link shown after each checkpoint's pass: the next checkpoint, or after the last one the next
    lesson in this page's language (``next_lesson``, see :func:`_next_lesson`), or all lessons."""
    links = []
    cps = lesson.checkpoints
    for i in range(len(cps)):
        if i + 1 < len(cps):
            links.append(
                {
                    "kind": "checkpoint",
                    "href": f"#checkpoint-{cps[i + 1].id}",
                    "text": ui(lang, "next_checkpoint", n=i + 2),
                }
            )
        else:
            links.append(_lesson_after(lang, next_lesson))
    return links


def _lesson_after(lang: str, next_lesson) -> dict:
    """The link to go on after a lesson, from a page in ``lang``: the next lesson in that language, else the home
    page."""
    if next_lesson is not None:
        return {
            "kind": "lesson",
            "href": f"../{next_lesson.id}/{lang}.html",
            "text": ui(lang, "next_lesson", title=next_lesson.text[lang].title),
        }
    return {"kind": "home", "href": f"../../{_home_path(lang)}", "text": ui(lang, "all_lessons")}


def _next_lesson(lesson, lang: str, listed: list):
    """The lesson to suggest after ``lesson`` to a learner reading it in ``lang``: the first later listed lesson
    (in the suggested order) that has ``lang``, else None (the home page is suggested instead: a lesson in another
    language is no next step for a learner who reads this one in ``lang``)."""
    later = listed[listed.index(lesson) + 1 :] if lesson in listed else []
    return next((other for other in later if lang in other.languages), None)


def _lesson_page(lesson, lang: str, versions: dict[str, str], next_lesson=None, editor: tuple[str, ...] = ()) -> str:
    """A lesson's page in ``lang``; ``next_lesson``: the lesson suggested after it in that language (or None)."""
    text = lesson.text[lang]
    toml = f"{lesson.folder / 'lesson.toml'} [text.{lang}]"
    root = "../../"
    prose = _md(
        lesson.prose(lang),
        str(lesson.folder / f"prose.{lang}.md"),
        lang,
        heading_ids=True,
        checkpoints=[cp.id for cp in lesson.checkpoints],
    )
    numbers = {cp.id: i for i, cp in enumerate(lesson.checkpoints, 1)}
    nexts = _next_links(lesson, lang, next_lesson)
    sections = {
        cp.id: _checkpoint(lesson, cp, lang, i, numbers, nexts[i - 1]) for i, cp in enumerate(lesson.checkpoints, 1)
    }
    # Only what the scripts read: starters for Reset and "tried", the solution for "Show solution", the example
    # for "Back to the example", and `needs` for the carried-over code. Hints and texts are in the HTML once.
    data = {
        "id": lesson.id,
        "lang": lang,
        "checkpoints": [
            {
                "id": cp.id,
                "starter": cp.starter(lang),
                "solution": cp.solution(),
                "example": cp.example(lang),
                "needs": [c.id for c in _needs_closure(lesson, cp)],
            }
            for cp in lesson.checkpoints
        ],
    }
    # The editor's modules (``editor``: werkbank.assets.editor_modules), fetched and compiled while the page loads,
    # so that app.js's imports of them only evaluate them (compiling them inside those imports makes one long
    # main-thread task of CodeMirror's evaluation on a first visit). The stages go under the very URLs app.js
    # imports (with ?v=); the shared chunks carry their hash in their names. early.js adds the links
    # (data-modules), so that a first visit's page that reloads itself into isolation at once does not fetch and
    # compile them for nothing.
    preload = tuple(
        f"{root}assets/{name}{'?v=' + versions['editor'] if name in EDITOR_STAGES else ''}" for name in editor
    )
    return _page(
        "lesson.html",
        lang=lang,
        root=root,
        title=f"{text.title} · {ui(lang, 'site_title')}",
        page="lesson",
        versions=versions,
        lesson_id=lesson.id,
        preload=preload,
        switch=[(o, f"{o}.html") for o in lesson.languages],
        stepper=[
            {"id": cp.id, "number": i, "title": _title(lesson, cp, lang)} for i, cp in enumerate(lesson.checkpoints, 1)
        ],
        text=text,
        minutes=lesson.minutes,
        total=len(lesson.checkpoints),
        level=lesson.level,
        end_next=_lesson_after(lang, next_lesson),
        prerequisites=_md_inline(text.prerequisites, toml, lang) if text.prerequisites else "",
        goals=[_md_inline(g, toml, lang) for g in text.goals],
        body=Markup(place_checkpoints(prose, sections)),
        takeaways=[_md_inline(item, toml, lang) for item in text.takeaways],
        further_reading=_md(text.further_reading, toml, lang) if text.further_reading else "",
        sources=[_md_inline(item, toml, lang) for item in text.sources],
        data=data,
    )


# ---------------------------------------------------------------- entry point


def render_pages(
    lessons: list, versions: dict[str, str], editor: tuple[str, ...] = (), download_mb: int = 0
) -> dict[str, str]:
    """Every page as HTML, by its path under ``dist/``: a home page per UI language and one page per language of
    each lesson. ``versions``: the cache-busting hashes of the bundles and static files (``app``, ``early``,
    ``editor``, ``static``); ``editor``: the editor's module files that lesson pages preload; ``download_mb``: about
    how many MB a first visit downloads for Python (:func:`download_size_mb`; 0: not said)."""
    pages = {_home_path(lang): _home(lang, lessons, versions, download_mb) for lang in LANGUAGES}
    listed = [lesson for lesson in lessons if lesson.listed]
    for lesson in lessons:
        for lang in lesson.languages:
            pages[f"lessons/{lesson.id}/{lang}.html"] = _lesson_page(
                lesson, lang, versions, _next_lesson(lesson, lang, listed), editor
            )
    return pages


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
    pages = render_pages(lessons, versions, tuple(editor_modules(dist)), download_mb=download_size_mb(dist))
    for rel, text in pages.items():
        _write(dist / rel, text)


#: The runtime's files a first visit downloads (werkbank.vendor puts them in dist/pyodide/), by name pattern.
_RUNTIME_DOWNLOAD = re.compile(r"^(pyodide\.asm\.(js|wasm)|pyodide\.mjs|python_stdlib\.zip|numpy-.*\.whl)$")


def download_size_mb(dist: Path) -> int:
    """About how many MB a learner's first visit downloads for Python (the runtime, its standard library, numpy),
    rounded up to a multiple of 5 (the build may still precompile the standard library, which adds a little); 0
    when the runtime is not there. Said on the home page, so nobody on a metered line is surprised."""
    folder = Path(dist) / "pyodide"
    if not folder.is_dir():
        return 0
    size = sum(p.stat().st_size for p in folder.iterdir() if p.is_file() and _RUNTIME_DOWNLOAD.match(p.name))
    return -(-size // (5 * 1_000_000)) * 5 if size else 0
