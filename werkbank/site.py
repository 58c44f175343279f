"""The learner's site: render every page as static HTML (the scripts are bundled by :mod:`werkbank.assets`).

:func:`build_site` is called by :mod:`werkbank.build` (which vendors Pyodide and writes the grading data). It writes:

- ``dist/assets/`` (through :func:`werkbank.assets.bundle`: app.js and the two workers);
- ``dist/static/`` (a copy of ``web/static/``);
- ``dist/index.html`` (home in the default UI language) and ``dist/<lang>/index.html`` for the other UI languages;
- ``dist/lessons/<id>/<lang>.html`` for each language of each lesson.

Pages read without JavaScript; the scripts add editors, the Python worker and progress. Every UI string comes from
``werkbank/catalog/<lang>.json`` and is embedded into the page at build time.
"""

from __future__ import annotations

import hashlib
import html
import json
import shutil
from functools import lru_cache
from pathlib import Path

from werkbank.assets import SiteError, bundle  # bundling lives in werkbank.assets
from werkbank.markdown import render, render_inline

REPO_ROOT = Path(__file__).resolve().parent.parent
WEB = REPO_ROOT / "web"
CATALOG_DIR = Path(__file__).with_name("catalog")
#: UI languages, the first is the default (``dist/index.html``).
UI_LANGUAGES = ("nl", "en", "ar")
RTL = {"ar"}

__all__ = ["build_site", "SiteError", "catalog", "json_for_script", "bundle", "UI_LANGUAGES"]


@lru_cache(maxsize=None)
def catalog(lang: str) -> dict[str, str]:
    """The UI strings for ``lang`` (falling back to English key by key)."""
    base = json.loads((CATALOG_DIR / "en.json").read_text(encoding="utf-8"))
    path = CATALOG_DIR / f"{lang}.json"
    if path.exists() and lang != "en":
        base.update({k: v for k, v in json.loads(path.read_text(encoding="utf-8")).items() if v})
    return base


def _t(lang: str, key: str, **values) -> str:
    text = catalog(lang)[key]
    for name, value in values.items():
        text = text.replace("{" + name + "}", str(value))
    return text


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
    """The pages' Content-Security-Policy: the site's header CSP (werkbank.offline.CSP) minus the header-only
    ``frame-ancestors``. No eval, no inline script, nothing from another origin."""
    from werkbank.offline import CSP
    parts = [p.strip() for p in CSP.split(";") if p.strip() and not p.strip().startswith("frame-ancestors")]
    return "; ".join(parts)


def _shell(*, lang: str, root: str, title: str, body: str, page: str, versions: dict[str, str],
           body_attrs: str = "", head_extra: str = "") -> str:
    """The HTML document around a page body. ``root`` is the relative path to ``dist/`` ("", "../", "../../")."""
    direction = "rtl" if lang in RTL else "ltr"
    esc = html.escape
    strings = json_for_script(catalog(lang))
    return f"""<!doctype html>
<html lang="{esc(lang)}" dir="{direction}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="{esc(page_csp())}">
<meta name="color-scheme" content="light dark">
<title>{esc(title)}</title>
<link rel="icon" href="{root}static/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="{root}static/site.css?v={versions['static']}">
<script src="{root}static/theme-boot.js?v={versions['static']}"></script>
<script type="module" src="{root}assets/app.js?v={versions['app']}"></script>
{head_extra}</head>
<body data-page="{page}" data-runtime="loading" data-lang="{esc(lang)}"{body_attrs}>
<a class="skip-link" href="#main">{esc(_t(lang, "skip_to_content"))}</a>
{body}
<script type="application/json" id="ui-strings">{strings}</script>
</body>
</html>
"""


def _runtime_status(lang: str) -> str:
    """The visible "Python: loading/ready" indicator with its progress bar (JS fills it in)."""
    esc = html.escape
    return (f'<div class="runtime-status" data-runtime-status role="status" aria-live="polite">'
            f'<span class="runtime-dot" aria-hidden="true"></span>'
            f'<span data-runtime-label>{esc(_t(lang, "runtime_loading"))}</span>'
            f'<progress data-runtime-progress max="100" hidden></progress></div>')


def _topbar(lang: str, root: str, switch: str) -> str:
    esc = html.escape
    return (f'<header class="topbar"><nav class="topbar-nav" aria-label="{esc(_t(lang, "home"))}">'
            f'<a class="brand" href="{root}{_home_path(lang)}">{esc(_t(lang, "site_title"))}</a>'
            f'{switch}'
            f'<button type="button" class="theme-toggle" data-theme-toggle aria-pressed="false" '
            f'title="{esc(_t(lang, "theme_toggle"))}" aria-label="{esc(_t(lang, "theme_toggle"))}">◐</button>'
            f'</nav>{_runtime_status(lang)}</header>'
            f'<div class="warnings" data-warnings role="alert" aria-live="assertive"></div>'
            f'<noscript><p class="noscript">{esc(_t(lang, "noscript"))}</p></noscript>')


def _home_path(lang: str) -> str:
    return "index.html" if lang == UI_LANGUAGES[0] else f"{lang}/index.html"


def _lang_switch(lang: str, targets: list[tuple[str, str]]) -> str:
    """Links to the same page in other languages; ``data-keep-place`` lets JS carry the current anchor along."""
    esc = html.escape
    items = []
    for other, href in targets:
        name = esc(catalog(other)["language_name"])
        if other == lang:
            items.append(f'<li><a aria-current="page" lang="{other}" href="{esc(href)}">{name}</a></li>')
        else:
            items.append(f'<li><a lang="{other}" hreflang="{other}" href="{esc(href)}" data-keep-place>{name}</a></li>')
    return (f'<nav class="lang-switch" aria-label="{esc(_t(lang, "language_switch"))}">'
            f'<ul>{"".join(items)}</ul></nav>')


# ---------------------------------------------------------------- home

def _lesson_lang(lesson, lang: str) -> str:
    """The lesson language to link from a home page in ``lang``: the same, else English, else the original."""
    for choice in (lang, "en"):
        if choice in lesson.languages:
            return choice
    return lesson.languages[0]


def _home(lang: str, lessons: list, versions: dict[str, str]) -> str:
    esc = html.escape
    root = "" if lang == UI_LANGUAGES[0] else "../"
    switch = _lang_switch(lang, [(o, ("" if lang == UI_LANGUAGES[0] else "../") + _home_path(o)) for o in UI_LANGUAGES])
    cards = []
    for lesson in lessons:
        if not lesson.listed:
            continue
        ll = _lesson_lang(lesson, lang)
        text = lesson.text[ll]
        source = f"{lesson.folder / 'lesson.toml'} [text.{ll}]"
        total = len(lesson.checkpoints)
        langs = ", ".join(
            f'<a href="{root}lessons/{esc(lesson.id)}/{x}.html" lang="{x}" hreflang="{x}">'
            f'{esc(catalog(x)["language_name"])}</a>' for x in lesson.languages)
        ldir = "rtl" if ll in RTL else "ltr"
        cards.append(
            f'<li class="lesson-card">'
            f'<h3 lang="{ll}" dir="{ldir}"><a data-lesson="{esc(lesson.id)}" '
            f'href="{root}lessons/{esc(lesson.id)}/{ll}.html">{esc(text.title)}</a></h3>'
            f'<div class="summary" lang="{ll}" dir="{ldir}">{_md(text.summary, source, ll)}</div>'
            f'<p class="meta"><span>{esc(_t(lang, "minutes", n=lesson.minutes))}</span> · '
            f'<span>{esc(_t(lang, "lesson_languages"))}: <bdi>{langs}</bdi></span> · '
            f'<span>{esc(_t(lang, "progress"))}: <span data-lesson-progress="{esc(lesson.id)}" '
            f'data-total="{total}" dir="ltr">0 / {total}</span></span></p></li>'
        )
    body = (
        _topbar(lang, root, switch)
        + f'<main id="main" class="home">'
        f'<h1>{esc(_t(lang, "site_title"))}</h1><p class="tagline">{esc(_t(lang, "site_tagline"))}</p>'
        f'<section aria-labelledby="lessons-title"><h2 id="lessons-title">{esc(_t(lang, "lessons"))}</h2>'
        f'<ul class="lesson-list">{"".join(cards)}</ul></section>'
        f'<section class="progress-tools" aria-labelledby="progress-title">'
        f'<h2 id="progress-title">{esc(_t(lang, "your_progress"))}</h2>'
        f'<p>{esc(_t(lang, "progress_explainer"))}</p>'
        f'<div class="tool-row"><button type="button" data-action="export">{esc(_t(lang, "export"))}</button>'
        f'<label class="button-like"><span>{esc(_t(lang, "import"))}</span>'
        f'<input type="file" accept="application/json,.json" data-action="import"></label>'
        f'<button type="button" data-action="reset-all" class="danger">{esc(_t(lang, "reset_all"))}</button></div>'
        f'<p data-progress-message role="status" aria-live="polite"></p></section>'
        f'</main>'
    )
    index = [{"id": l.id, "checkpoints": [c.id for c in l.checkpoints]} for l in lessons]
    extra = f'<script type="application/json" id="site-data">{json_for_script({"lessons": index})}</script>'
    return _shell(lang=lang, root=root, title=_t(lang, "site_title"), body=body + extra, page="home",
                  versions=versions)


# ---------------------------------------------------------------- lesson page

def _md(text: str, source: str, lang: str, **kw) -> str:
    return render(text, source=source, lang=lang, **kw)


def _md_inline(text: str, source: str, lang: str) -> str:
    return render_inline(text, source=source, lang=lang)


def _buttons(lang: str, actions: list[str]) -> str:
    esc = html.escape
    out = []
    for action in actions:
        cls = " primary" if action == "check" else ""
        extra = " hidden" if action == "stop" else ' aria-expanded="false"' if action == "hint" else ""
        out.append(f'<button type="button" class="btn{cls}" data-action="{action}"{extra}>{esc(_t(lang, action))}</button>')
    return "".join(out)


def _editor_block(lang: str, label: str, code: str, key: str) -> str:
    esc = html.escape
    return (f'<div class="editor" data-editor="{esc(key)}" dir="ltr" aria-label="{esc(label)}">'
            f'<pre class="editor-fallback" dir="ltr"><code class="language-python">{esc(code)}</code></pre></div>')


def _checkpoint(lesson, cp, lang: str, index: int) -> str:
    esc = html.escape
    task = _md(cp.task(lang), str(cp.folder / f"task.{lang}.md"), lang)
    title = cp.title.get(lang) or cp.title[lesson.languages[0]]
    entry = "".join(f"<code>{esc(name)}</code> " for name in cp.entry)
    hint = _md(cp.hint(lang), str(cp.folder / f"hint.{lang}.md"), lang)
    cid = esc(cp.id)
    return (
        f'<section class="checkpoint" id="checkpoint-{cid}" data-checkpoint="{cid}" data-state="idle" '
        f'aria-labelledby="checkpoint-{cid}-title">'
        f'<h2 id="checkpoint-{cid}-title"><span class="cp-number">{esc(_t(lang, "checkpoint", n=index))}</span> '
        f'<span class="cp-title">{esc(title)}</span> '
        f'<span class="cp-badge" data-passed-badge hidden>✓ {esc(_t(lang, "passed_badge"))}</span></h2>'
        f'<div class="task">{task}</div>'
        + (f'<p class="entry">{esc(_t(lang, "define_names"))} <span dir="ltr">{entry.strip()}</span></p>' if entry else "")
        + _editor_block(lang, _t(lang, "editor_label", n=index), cp.starter(lang), cp.id)
        + f'<div class="actions" role="group" aria-label="{esc(title)}">'
        f'{_buttons(lang, ["run", "check", "stop", "reset", "hint", "solution"])}</div>'
        f'<p class="shortcut">{esc(_t(lang, "shortcut_check"))}</p>'
        f'<div class="hint" data-hint hidden>{hint}</div>'
        f'<div class="solution" data-solution hidden></div>'
        f'<div class="verdict" data-verdict="idle" aria-live="polite"></div>'
        f'<pre class="output" data-output dir="ltr" tabindex="0" hidden></pre>'
        f'</section>'
    )


def _lesson_page(lesson, lang: str, versions: dict[str, str]) -> str:
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
        f'<p class="meta"><span>{esc(_t(lang, "minutes", n=lesson.minutes))}</span> · '
        f'<span>{esc(_t(lang, "progress"))}: <span data-progress data-total="{total}" dir="ltr" '
        f'aria-label="{esc(_t(lang, "progress"))}">0 / {total}</span></span></p>'
        + (f'<p class="prereq"><strong>{esc(_t(lang, "prerequisites"))}:</strong> '
           f'{_md_inline(text.prerequisites, toml, lang)}</p>' if text.prerequisites else "")
        + (f'<section class="goals"><h2>{esc(_t(lang, "goals"))}</h2><ul>{goals}</ul></section>' if goals else "")
        + "</header>"
    )
    prose = _md(lesson.prose(lang), str(lesson.folder / f"prose.{lang}.md"), lang, heading_ids=True)
    checkpoints = "".join(_checkpoint(lesson, cp, lang, i) for i, cp in enumerate(lesson.checkpoints, 1))
    playground = (
        f'<section class="playground" id="try" data-playground aria-labelledby="try-title">'
        f'<h2 id="try-title">{esc(_t(lang, "playground"))}</h2><p>{esc(_t(lang, "playground_text"))}</p>'
        + _editor_block(lang, _t(lang, "playground_label"), "", "playground")
        + f'<div class="actions" role="group">{_buttons(lang, ["run", "stop"])}</div>'
        f'<div class="verdict" data-verdict="idle" aria-live="polite"></div>'
        f'<pre class="output" data-output dir="ltr" tabindex="0" hidden></pre></section>'
    )
    tail = ""
    if text.takeaways:
        items = "".join(f"<li>{_md_inline(t, toml, lang)}</li>" for t in text.takeaways)
        tail += f'<section id="takeaways" class="takeaways"><h2>{esc(_t(lang, "takeaways"))}</h2><ul>{items}</ul></section>'
    if text.further_reading:
        tail += (f'<section id="further-reading"><h2>{esc(_t(lang, "further_reading"))}</h2>'
                 f'{_md(text.further_reading, toml, lang)}</section>')
    if text.sources:
        items = "".join(f"<li>{_md_inline(s, toml, lang)}</li>" for s in text.sources)
        tail += f'<section id="sources" class="sources"><h2>{esc(_t(lang, "sources"))}</h2><ol>{items}</ol></section>'
    data = {
        "id": lesson.id,
        "lang": lang,
        "languages": list(lesson.languages),
        "checkpoints": [
            {
                "id": cp.id,
                "title": cp.title.get(lang) or cp.title[lesson.languages[0]],
                "entry": list(cp.entry),
                "plot": cp.plot or "",
                "starter": cp.starter(lang),
                "solution": cp.solution(),
                "hint_html": _md(cp.hint(lang), str(cp.folder / f"hint.{lang}.md"), lang),
            }
            for cp in lesson.checkpoints
        ],
    }
    body = (
        _topbar(lang, root, switch)
        + f'<main id="main" class="lesson">{header}<article class="prose">{prose}</article>'
        f'{checkpoints}{playground}{tail}</main>'
        f'<script type="application/json" id="lesson-data">{json_for_script(data)}</script>'
    )
    return _shell(lang=lang, root=root, title=f"{text.title} · {_t(lang, 'site_title')}", body=body,
                  page="lesson", versions=versions, body_attrs=f' data-lesson="{esc(lesson.id)}"')


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
    for lang in UI_LANGUAGES:
        path = dist / _home_path(lang)
        _write(path, _home(lang, lessons, versions))
    for lesson in lessons:
        for lang in lesson.languages:
            _write(dist / "lessons" / lesson.id / f"{lang}.html", _lesson_page(lesson, lang, versions))
