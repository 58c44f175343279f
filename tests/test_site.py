"""werkbank.site: the pages carry the DOM hooks the front end needs, the right lang/dir, and safely embedded data."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from markupsafe import escape

from werkbank.lessons import load_all
from werkbank.markdown import MarkdownError
from graders.engine.settings import LANGUAGES as UI_LANGUAGES
from werkbank.catalog import FOLDER as CATALOG_FOLDER, catalogs, ui
from werkbank.site import build_site, json_for_script, place_checkpoints, render_pages

NASTY = '</script><script>alert("x")</script> & <!-- -->'

LESSON_TOML = """
id = "site-test"
languages = ["nl", "en", "ar"]
listed = true
order = 1
minutes = 25

[text.nl]
title = "Testles"
summary = "Een *korte* les."
prerequisites = "Python"
goals = ["Een doel met $x^2$"]
takeaways = ["Iets om te onthouden"]
further_reading = "Lees [meer](https://example.org)."
sources = ["Een bron"]

[text.en]
title = "Test lesson"
summary = "A *short* lesson."
prerequisites = "Python"
goals = ["A goal with $x^2$"]
takeaways = ["Something to keep"]
further_reading = "Read [more](https://example.org)."
sources = ["A source"]

[text.ar]
title = "درس اختبار"
summary = "درس قصير."
goals = ["هدف"]

{checkpoints}
"""

CHECKPOINT = """
[[checkpoints]]
id = "{id}"
folder = "cp{id}"
grader = "graders.site_test.cp{id}"
entry = ["f{id}"]
plot = "{plot}"
[checkpoints.title]
nl = "Opdracht {id}"
en = "Task {id}"
ar = "مهمة {id}"
"""


def make_lesson(root: Path, *, lesson_id="site-test", listed=True, prose_extra="") -> Path:
    """Write a three-checkpoint lesson in three languages under ``root`` and return its folder."""
    folder = root / lesson_id
    folder.mkdir(parents=True)
    cps = "".join(CHECKPOINT.format(id=i, plot="reliability" if i == 3 else "") for i in (1, 2, 3))
    toml = LESSON_TOML.replace("{checkpoints}", cps).replace('id = "site-test"', f'id = "{lesson_id}"')
    toml = toml.replace("listed = true", f"listed = {'true' if listed else 'false'}")
    (folder / "lesson.toml").write_text(toml, encoding="utf-8")
    for lang in ("nl", "en", "ar"):
        (folder / f"prose.{lang}.md").write_text(
            f"# Kop {lang}\n\nTekst met $a^2$.\n\n## Tweede\n\n<script>alert(1)</script>\n{prose_extra}",
            encoding="utf-8",
        )
    for i in (1, 2, 3):
        cp = folder / f"cp{i}"
        cp.mkdir()
        for lang in ("nl", "en", "ar"):
            (cp / f"task.{lang}.md").write_text(f"Schrijf `f{i}` ({lang}).", encoding="utf-8")
            (cp / f"hint.{lang}.md").write_text(f"Gebruik **return** ({lang}).", encoding="utf-8")
        (cp / "starter.py").write_text(f"def f{i}(x):\n    # {NASTY}\n    pass\n", encoding="utf-8")
        (cp / "solution.py").write_text(f"def f{i}(x):\n    return x  # a < b && c > d\n", encoding="utf-8")
    return folder


class Page(HTMLParser):
    """Collects every start tag with its attributes, and the text of script elements by id."""

    def __init__(self, text: str):
        super().__init__()
        self.tags: list[tuple[str, dict]] = []
        self.scripts: dict[str, str] = {}
        self._script_id = None
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        self.tags.append((tag, attrs))
        if tag == "script":
            self._script_id = attrs.get("id")

    def handle_data(self, data):
        if self._script_id:
            self.scripts[self._script_id] = self.scripts.get(self._script_id, "") + data

    def handle_endtag(self, tag):
        if tag == "script":
            self._script_id = None

    def find(self, tag=None, **attrs):
        """Tags matching ``tag`` and every attribute given (``True`` matches any value)."""
        out = []
        for name, have in self.tags:
            if tag and name != tag:
                continue
            if all(k in have and (v is True or have[k] == v) for k, v in attrs.items()):
                out.append(have)
        return out


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    root = tmp_path_factory.mktemp("lessons")
    make_lesson(root)
    make_lesson(root, lesson_id="hidden-test", listed=False)
    lessons = load_all(root)
    dist = tmp_path_factory.mktemp("dist")
    build_site(dist, lessons)
    return dist


def read(dist: Path, rel: str) -> str:
    return (dist / rel).read_text(encoding="utf-8")


def test_bundles_are_written_minified_and_keep_pyodide_external(site):
    app = read(site, "assets/app.js")
    worker = read(site, "assets/worker.js")
    assert len(app) > 50_000  # the page's own code (CodeMirror is assets/editor.js, see the next test)
    assert app.count("\n") < 50 and worker.count("\n") < 50  # minified
    assert '"../pyodide/pyodide.mjs"' in worker  # left as a runtime import, not bundled
    assert "loadPyodide" in worker and "is not available to learner code" in worker  # the lockdown is bundled in
    assert not (site / "assets" / "app.js.map").exists()
    assert (site / "static" / "site.css").is_file()


def test_lesson_pages_preload_the_editor_modules_that_app_js_imports(site):
    """A lesson page names CodeMirror's modules (the editor's stages and the chunks they share) for early.js to
    preload while it loads, the stages under the very URLs app.js imports them by (another query would fetch and
    compile them twice), in the order app.js evaluates them; the home page has no editor."""
    from werkbank.assets import COMPILE_HINT, EDITOR_STAGES

    assert EDITOR_STAGES[-1] == "editor.js" and "createEditor" in read(site, "assets/editor.js")
    chunks = sorted(p.relative_to(site / "assets").as_posix() for p in (site / "assets" / "chunks").glob("*.js"))
    codemirror = "".join(read(site, f"assets/{name}") for name in [*chunks, *EDITOR_STAGES])
    assert len(codemirror) > 300_000 and "EditorView" in codemirror
    # one copy of CodeMirror's state for every stage: a chunk defines it, no stage does
    assert sum("Unrecognized extension value" in read(site, f"assets/{name}") for name in chunks) == 1
    assert not any("Unrecognized extension value" in read(site, f"assets/{name}") for name in EDITOR_STAGES)
    for name in [*chunks, *EDITOR_STAGES]:
        assert read(site, f"assets/{name}").startswith(COMPILE_HINT + "\n"), name
    app = read(site, "assets/app.js")
    assert json.dumps(list(EDITOR_STAGES), separators=(",", ":")) in app  # the order app.js imports them in
    for lang in ("en", "ar"):
        html = read(site, f"lessons/site-test/{lang}.html")
        # early.js adds the links (not on a first visit's page that reloads itself into isolation at once)
        assert "modulepreload" not in html
        early = re.search(
            r'<script src="[^"]*assets/early\.js\?v=[^"]+" data-lesson="site-test" data-modules="([^"]+)">', html
        )
        assert early, html[:2000]
        links = early.group(1).split(" ")
        assert links[: len(chunks)] == [f"../../assets/{name}" for name in chunks], links
        stages = [link.partition("?v=") for link in links[len(chunks) :]]
        assert [path for path, _, _ in stages] == [f"../../assets/{name}" for name in EDITOR_STAGES], links
        versions = {version for _, _, version in stages}
        assert len(versions) == 1 and re.fullmatch(r"[0-9a-f]{8,}", versions.pop()), links
        assert f'"?v={stages[0][2]}"' in app  # the query app.js imports them with (EDITOR_VERSION)
    assert "data-modules" not in read(site, "index.html")


def test_home_lists_every_listed_lesson_and_only_those(site):
    page = Page(read(site, "index.html"))
    links = page.find("a", **{"data-lesson": True})
    assert [a["data-lesson"] for a in links] == ["site-test"]
    assert links[0]["href"] == "lessons/site-test/nl.html"
    assert page.find("html", lang=UI_LANGUAGES[0])
    assert page.find(**{"data-runtime-status": True}) and page.find("body", **{"data-runtime": "loading"})
    assert page.find("span", **{"data-lesson-progress": "site-test", "data-total": "3"})
    html = read(site, "index.html")
    assert "Een <em>korte</em> les." in html and "25 min" in html


@pytest.mark.parametrize("lang", UI_LANGUAGES[1:])
def test_home_exists_per_ui_language_with_a_switch(site, lang):
    page = Page(read(site, f"{lang}/index.html"))
    assert page.find("html", lang=lang, dir="rtl" if lang == "ar" else "ltr")
    assert page.find("a", **{"data-lesson": "site-test", "href": f"../lessons/site-test/{lang}.html"})
    assert page.find("a", href="../index.html", hreflang=UI_LANGUAGES[0])


def _start_here(html: str) -> tuple[str, str]:
    """(lesson id, text) of the home page's suggested first lesson, the one ``[data-start-here]``."""
    (tag,) = [attrs for name, attrs in Page(html).tags if "data-start-here" in attrs]
    assert tag["data-state"] == "start"
    return tag["data-lesson-state"], tag["data-start-here"]


def test_the_home_page_suggests_a_first_lesson_in_its_own_language_or_says_in_which():
    """ "Start here" goes to the first listed lesson that has the page's language; when none has it, to the first
    listed lesson, saying in which language that one is."""
    versions = {"app": "a", "early": "e", "editor": "d", "static": "s"}
    lessons = load_all()
    pages = render_pages(lessons, versions)
    for lang in UI_LANGUAGES:
        path = "index.html" if lang == UI_LANGUAGES[0] else f"{lang}/index.html"
        first = next(lesson for lesson in lessons if lesson.listed and lang in lesson.languages)
        assert _start_here(pages[path]) == (first.id, ui(lang, "state_start_here")), lang
    assert _start_here(pages["ar/index.html"])[0] == "perplexity-calibration"  # the first listed one has no Arabic
    without_arabic = [lesson for lesson in lessons if "ar" not in lesson.languages]
    home = render_pages(without_arabic, versions)["ar/index.html"]
    first = next(lesson for lesson in without_arabic if lesson.listed)
    text = ui("ar", "state_start_here_other", language=ui("ar", "language_of_en"))
    assert _start_here(home) == (first.id, text) and "الإنجليزية" in text


@pytest.mark.parametrize("lang", ["nl", "en", "ar"])
def test_lesson_page_has_every_hook(site, lang):
    text = read(site, f"lessons/site-test/{lang}.html")
    page = Page(text)
    assert page.find("html", lang=lang, dir="rtl" if lang == "ar" else "ltr")
    assert page.find("body", **{"data-runtime": "loading", "data-page": "lesson"})
    progress = page.find(**{"data-progress": True})
    assert progress and re.search(r"data-progress [^>]*>0 / 3<", text)
    sections = page.find("section", **{"data-checkpoint": True})
    assert [s["data-checkpoint"] for s in sections] == ["1", "2", "3"]
    for cp in ("1", "2", "3"):
        body = text.split(f'data-checkpoint="{cp}"', 1)[1].split("</section>", 1)[0]
        sub = Page("<x " + body)
        actions = [b["data-action"] for b in sub.find("button", **{"data-action": True})]
        # Reset, which replaces the learner's code, comes last, away from Run and Check
        assert [a for a in actions if a in {"run", "check", "stop", "reset", "hint", "solution"}] == [
            "run",
            "check",
            "stop",
            "hint",
            "solution",
            "reset",
        ]
        verdict = sub.find(**{"data-verdict": "idle"})
        assert verdict and "aria-live" not in verdict[0]  # one announcement per run, via the page's announcer
        assert sub.find("pre", **{"data-output": True, "dir": "ltr"})
        assert sub.find("div", **{"data-editor": cp, "dir": "ltr"})
    assert page.find("section", **{"data-playground": True})
    for key in ("takeaways", "sources", "further_reading"):
        if lang != "ar":
            assert ui(lang, key) in text
    # editors, code and math stay left-to-right on every page, Arabic included
    assert all(m.get("dir") == "ltr" for m in page.find("math"))
    assert page.find("math")
    # header: title, minutes, prerequisites (where given), goals
    title = {"nl": "Testles", "en": "Test lesson", "ar": "درس اختبار"}[lang]
    assert f"<h1>{title}</h1>" in text and "25" in text


def test_language_switch_links_stay_on_the_lesson(site):
    page = Page(read(site, "lessons/site-test/en.html"))
    switch = page.find("a", **{"data-keep-place": True})
    assert sorted(a["href"] for a in switch) == ["ar.html", "nl.html"]
    assert page.find("a", href="en.html", **{"aria-current": "page"})


def test_headings_and_sections_have_anchors_shared_across_languages(site):
    ids = {
        lang: re.findall(r' id="(s-\d+|checkpoint-\d+|try)"', read(site, f"lessons/site-test/{lang}.html"))
        for lang in ("nl", "ar")
    }
    assert ids["nl"] == ids["ar"]
    assert {"s-1", "s-2", "checkpoint-1", "checkpoint-3", "try"} <= set(ids["nl"])


def test_lesson_data_is_escaped_and_round_trips(site):
    text = read(site, "lessons/site-test/en.html")
    page = Page(text)
    raw = page.scripts["lesson-data"]
    assert "<" not in raw and ">" not in raw and "&" not in raw
    assert "\\u003c/script\\u003e" in raw
    data = json.loads(raw)
    assert data["id"] == "site-test" and data["lang"] == "en"
    assert [cp["id"] for cp in data["checkpoints"]] == ["1", "2", "3"]
    first = data["checkpoints"][0]
    assert NASTY in first["starter"]
    assert first["solution"] == "def f1(x):\n    return x  # a < b && c > d\n"
    # only what the scripts read: no titles, plots, languages or hint HTML (hints are in the page once)
    assert set(first) == {"id", "starter", "solution", "example", "needs"}
    assert set(data) == {"id", "lang", "checkpoints"}
    assert text.count("<strong>return</strong>") == 3
    # the one literal </script> in the page closes the real script elements only
    assert text.count("</script>") == text.count("<script")
    strings = json.loads(page.scripts["ui-strings"])
    assert strings["lang"] == "en" and strings["strings"]["check"] == ui("en", "check")
    assert strings["fallback"] == {}  # English lacks nothing


def test_starter_is_readable_without_javascript_and_escaped(site):
    text = read(site, "lessons/site-test/en.html")
    assert '<pre class="editor-fallback" dir="ltr"><code class="language-python">def f1(x):' in text
    assert "&lt;/script&gt;&lt;script&gt;alert(&#34;x&#34;)" in text


MARKUP = '<i data-injected="1">&amp;</i>'


def test_author_text_is_escaped_by_the_templates(tmp_path):
    """Text an author writes outside markdown (titles, a starter, an example, entry names, the next lesson's title
    in a UI string) reaches the page as text: the templates escape it, no code of the caller does."""
    for lesson_id, order in (("first", 1), ("second", 2)):
        folder = make_lesson(tmp_path, lesson_id=lesson_id)
        toml = (folder / "lesson.toml").read_text(encoding="utf-8")
        toml = toml.replace('title = "Test lesson"', f"title = '{MARKUP}'").replace("order = 1", f"order = {order}")
        toml = toml.replace('en = "Task 1"', f"en = '{MARKUP}'").replace('entry = ["f1"]', f"entry = ['{MARKUP}']")
        (folder / "lesson.toml").write_text(toml, encoding="utf-8")
        (folder / "cp1" / "starter.py").write_text(f"# {MARKUP}\n", encoding="utf-8")
        (folder / "cp1" / "example.en.py").write_text(f"f1('{MARKUP}')\n", encoding="utf-8")
    lessons = load_all(tmp_path)
    pages = render_pages(lessons, {"app": "a", "early": "e", "editor": "d", "static": "s"})
    for rel, text in pages.items():
        assert "<i data-injected" not in text and not Page(text).find("i"), rel
    once = str(escape(MARKUP))  # escaped once: &lt;i data-injected=&#34;1&#34;&gt;&amp;amp;&lt;/i&gt;
    first = pages["lessons/first/en.html"]
    for place in (
        f"<title>{once} · ",
        f"<h1>{once}</h1>",
        f'title="{ui("en", "checkpoint", n=1)}: {once}"',
        f'<span class="cp-title">{once}</span>',
        f"<code>{once}</code>",
        f'<code class="language-python"># {once}',
        f'<code class="language-python">f1(&#39;{once}&#39;)',
        f">{escape(ui('en', 'next_lesson', title=MARKUP))}</a>",
    ):
        assert place in first, place
    assert f'data-lesson="first" href="../lessons/first/en.html">{once}</a>' in pages["en/index.html"]


def test_raw_html_in_prose_is_shown_as_text(site):
    text = read(site, "lessons/site-test/en.html")
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in text
    assert "<script>alert(1)" not in text


def test_unlisted_lessons_are_built_but_not_linked(site):
    assert (site / "lessons" / "hidden-test" / "en.html").is_file()
    assert "hidden-test" not in Page(read(site, "index.html")).scripts.get("x", "") + "".join(
        a["href"] for a in Page(read(site, "index.html")).find("a", href=True)
    )


def test_json_for_script_escapes_markup_characters():
    out = json_for_script({"a": "</script><!--&-->", "b": "\u2028"})
    assert out == '{"a":"\\u003c/script\\u003e\\u003c!--\\u0026--\\u003e","b":"\\u2028"}'
    assert json.loads(out) == {"a": "</script><!--&-->", "b": "\u2028"}


def test_unsafe_link_in_a_lesson_stops_the_build_naming_the_file(tmp_path):
    make_lesson(tmp_path / "lessons", prose_extra="\n[click](javascript:alert(document.cookie))\n")
    lessons = load_all(tmp_path / "lessons")
    with pytest.raises(MarkdownError, match=r"prose\.nl\.md"):
        build_site(tmp_path / "dist", lessons)


def test_every_ui_key_exists_in_every_language_the_site_offers():
    raw = {lang: json.loads((CATALOG_FOLDER / f"{lang}.json").read_text(encoding="utf-8")) for lang in UI_LANGUAGES}
    english = set(raw["en"])
    for lang in UI_LANGUAGES:
        assert set(raw[lang]) == english, (lang, sorted(set(raw[lang]) ^ english))
        empty = [k for k, v in raw[lang].items() if not v.strip()]
        assert not empty, (lang, empty)
        # the same placeholders in every translation
        for key, text in raw[lang].items():
            assert set(re.findall(r"\{(\w+)\}", text)) == set(re.findall(r"\{(\w+)\}", raw["en"][key])), (lang, key)
    assert set(catalogs()) == set(UI_LANGUAGES)


def test_every_ui_key_the_scripts_use_is_in_the_catalog():
    used = set()
    for path in (Path(__file__).parent.parent / "web" / "src").rglob("*.js"):
        text = path.read_text(encoding="utf-8")
        used |= set(re.findall(r"""\bt\(\s*["']([a-z][a-z0-9_]*)["']""", text))
        used |= {f"step_{s}" for s in ("new", "tried", "passed")} if "step_${state}" in text else set()
        used |= {f"pyerr_{e}" for e in re.findall(r'"([A-Z][A-Za-z]+Error)"', text)} & set(catalogs()["en"])
    missing = sorted(k for k in used if k not in catalogs()["en"])
    assert not missing, missing


def test_checkpoints_are_placed_at_their_slots_in_the_prose():
    prose = (
        '<p>intro</p>\n<div data-checkpoint-slot="2"></div>\n<p>middle</p>\n'
        '<div data-checkpoint-slot="9"></div>\n<p>end</p>\n'
    )
    sections = {"1": "<section>one</section>", "2": "<section>two</section>", "3": "<section>three</section>"}
    body = place_checkpoints(prose, sections)
    order = [body.index(x) for x in ("intro", "two", "middle", "end", "one", "three")]
    assert order == sorted(order)
    assert "data-checkpoint-slot" not in body.replace('data-checkpoint-slot="9"', "")  # unknown slots are left alone
    assert body.startswith('<div class="prose"><p>intro</p>')


def test_language_names_are_isolated_in_their_own_direction(site):
    text = read(site, "index.html")
    # "English, العربية" must never read "English ,العربية": every name carries its own dir
    for lang in ("nl", "en", "ar"):
        name = ui(lang, "language_name")
        assert re.search(rf'lang="{lang}" dir="{"rtl" if lang == "ar" else "ltr"}"[^>]*>{name}</a>', text), lang
    assert "<bdi>" not in text


def test_default_home_follows_the_browsers_language_and_the_learners_pick(site):
    page = Page(read(site, "index.html"))
    assert any((tag.get("src") or "").startswith("static/lang-boot.js") for name, tag in page.tags if name == "script")
    assert {link["hreflang"] for link in page.find("link", rel="alternate")} == set(UI_LANGUAGES)
    assert all("lang-boot" not in (tag.get("src") or "") for name, tag in Page(read(site, "en/index.html")).tags)
    assert page.find("a", **{"data-lang-choice": "en"})


def test_the_real_lessons_build(tmp_path):
    lessons = load_all()
    if not lessons:
        pytest.skip("no lessons under exercises/")
    build_site(tmp_path, lessons)
    for lesson in lessons:
        for lang in lesson.languages:
            page = Page(read(tmp_path, f"lessons/{lesson.id}/{lang}.html"))
            assert len(page.find("section", **{"data-checkpoint": True})) == len(lesson.checkpoints)
    listed = [lesson.id for lesson in lessons if lesson.listed]
    assert [a["data-lesson"] for a in Page(read(tmp_path, "index.html")).find("a", **{"data-lesson": True})] == listed


def test_front_end_unit_tests_pass(request):
    """web/test/*.test.mjs (storage, protocol, runner state machine) under Node's own test runner. Stamped
    (tests/derived.py): they run again when the front end, its tests, its packages or Node change."""
    import shutil
    import subprocess

    from tests.derived import inputs_digest, stamped

    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    root = Path(__file__).resolve().parent.parent

    def check():
        result = subprocess.run([node, "--test", "web/test/"], cwd=root, capture_output=True, text=True, timeout=300)
        assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
        counts = dict(re.findall(r"^# (pass|fail) (\d+)$", result.stdout, re.M))
        assert int(counts["fail"]) == 0 and int(counts["pass"]) >= 20, result.stdout[-2000:]
        return f"{counts['pass']} passed"

    version = subprocess.run([node, "--version"], capture_output=True, text=True).stdout.strip()
    # what the tests import or read: the front end, the lessons (figures, plots), test data, the engine's settings
    inputs = ["web/**/*", "exercises/**/*", "tests/data/**/*", "graders/**/*.py", "werkbank/**/*", "package-lock.json"]
    digest = inputs_digest(inputs, {"node": version})
    stamped("front-end-units", "web/test", digest, check, request=request)
