"""What may import what, as an allowlist: a module imports only what the row of its layer names, so anything new (a
module, a lesson's grader package, a dependency, a JS module) fails here until it is given a place.

Python (every ``.py`` below ``graders/`` and ``werkbank/`` belongs to exactly one row):

=========================================  ===========================================================================
layer                                      may import
=========================================  ===========================================================================
``graders/__init__.py``                    nothing
``graders/engine/`` (the core)             the standard library, numpy, ``graders.engine``
``graders/hosts/``                         the standard library, ``graders.engine``, ``graders.hosts``; the Pyodide
                                           hosts (``pyodide*.py``) also what only Pyodide has (:data:`PYODIDE_ONLY`)
``graders/<lesson>/`` (every other         the standard library, numpy, the author API (:data:`AUTHOR_API`:
package below ``graders/``, found by       ``graders.engine.case``, ``.domain``, ``.generate``, ``.settings``) and
listing the folder, never named here)      its own package; never another lesson, a host or ``werkbank``
``werkbank/``                              the standard library, the distributions ``pyproject.toml`` declares, the
                                           optional ones of :data:`OPTIONAL` (imported inside ``try``), the engine,
                                           the CPython host and ``werkbank``; never a lesson's graders (they are
                                           loaded by name) or the Pyodide hosts
=========================================  ===========================================================================

What ships to the browser: exactly ``werkbank.build.BROWSER_ENGINE``'s files (``graders/__init__.py``, the engine, the
hosts' ``__init__.py``, ``pyodide.py`` and ``pyodide_grader.py``), plus each lesson's grader package in its
``grading/<lesson>.json``. Everything those import must be there too: the standard library, numpy, Pyodide's own
modules or a shipped file (a shipped module that imports ``graders.hosts.cpython`` would break only in the browser).

JavaScript (``web/src/``, the rules of web/README.md): :data:`JS_ALLOWED` names what each module may import, parsed
from its ``import``/``export ... from`` statements and ``import()`` calls; a module missing from it fails.

No module imports another module's private (``_``-prefixed) names.

Each rule is also run on a made-up violation (``test_*_catches_*``), so a rule that stopped finding anything fails.
"""

from __future__ import annotations

import ast
import functools
import posixpath
import re
import sys
import tomllib
from importlib.metadata import packages_distributions
from pathlib import Path

import pytest

from werkbank.build import engine_files

REPO = Path(__file__).resolve().parent.parent
STDLIB = frozenset(sys.stdlib_module_names)
#: What lesson graders may use of the engine: the Case API, input domains, generated-case helpers, the shared
#: settings (AUTHORING.md).
AUTHOR_API = ("graders.engine.case", "graders.engine.domain", "graders.engine.generate", "graders.engine.settings")
#: Modules only Pyodide has (the learner and grader workers import them, never at import time in CPython).
PYODIDE_ONLY = ("pyodide", "js", "micropip", "pyodide_js")
#: Third-party modules werkbank/ may import without declaring them, each only inside ``try: ... except ImportError``.
OPTIONAL = {"brotli": "werkbank/offline.py writes .br copies when the module happens to be installed"}


# ------------------------------------------------------------------------------------------------ reading imports


def _is_module(name: str) -> bool:
    path = REPO.joinpath(*name.split("."))
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def imports(rel: str, source: str):
    """``(module, names, guarded)`` for every import of the file ``rel`` (repository-relative): relative imports made
    absolute, ``from package import module`` resolved to the module; ``guarded``: inside a ``try`` that catches
    ImportError."""
    package = Path(rel).with_suffix("").parts[:-1]
    tree = ast.parse(source)
    guarded_nodes = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Try) and any(
            isinstance(h.type, ast.Name) and h.type.id in ("ImportError", "ModuleNotFoundError") for h in node.handlers
        ):
            guarded_nodes.update(id(n) for stmt in node.body for n in ast.walk(stmt))
    for node in ast.walk(tree):
        guarded = id(node) in guarded_nodes
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, [], guarded
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if node.level:
                base = list(package[: len(package) - node.level + 1])
                module = ".".join([*base, module] if module else base)
            names = [alias.name for alias in node.names]
            submodules = [f"{module}.{n}" for n in names if _is_module(f"{module}.{n}")]
            if submodules and len(submodules) == len(names):
                for sub in submodules:
                    yield sub, [], guarded
            else:
                yield module, names, guarded


@functools.cache
def _declared_distributions() -> frozenset[str]:
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    return frozenset(
        re.split(r"[<>=!~\[; ]", dep, maxsplit=1)[0].lower().replace("_", "-")
        for dep in project.get("dependencies", [])
    )


_DISTRIBUTIONS = packages_distributions()


def _declared(top: str) -> bool:
    dists = {d.lower().replace("_", "-") for d in _DISTRIBUTIONS.get(top, [])}
    return bool(dists & _declared_distributions())


def lesson_packages() -> list[str]:
    """Every lesson's grader package: each package below graders/ that is not the engine or the hosts."""
    return sorted(
        p.parent.name for p in (REPO / "graders").glob("*/__init__.py") if p.parent.name not in ("engine", "hosts")
    )


# ------------------------------------------------------------------------------------------------ the Python rows


def _within(module: str, prefixes) -> bool:
    return any(module == p or module.startswith(p + ".") for p in prefixes)


def layer(rel: str) -> str | None:
    """The row of a repository-relative ``.py`` path, or None when it has none."""
    parts = Path(rel).parts
    if parts[0] == "werkbank":
        return "werkbank"
    if parts[0] != "graders":
        return None
    if len(parts) == 2:
        return "graders-root" if parts[1] == "__init__.py" else None
    if parts[1] in ("engine", "hosts"):
        return parts[1]
    return "lesson"  # any other folder below graders/: a lesson's grader package


def violations(rel: str, source: str) -> list[str]:
    """What the file ``rel`` imports that its row does not allow."""
    row = layer(rel)
    if row is None:
        return [f"{rel} belongs to no layer: give it a row in tests/test_architecture.py"]
    bad = []
    for module, _, guarded in imports(rel, source):
        top = module.split(".")[0]
        if top in STDLIB:
            continue
        if row == "graders-root":
            ok = False
        elif row == "engine":
            ok = top == "numpy" or _within(module, ["graders.engine"])
        elif row == "hosts":
            pyodide_host = Path(rel).name.startswith("pyodide")
            ok = _within(module, ["graders.engine", "graders.hosts"]) or (pyodide_host and top in PYODIDE_ONLY)
        elif row == "lesson":
            own = "graders." + Path(rel).parts[1]
            ok = top == "numpy" or _within(module, [*AUTHOR_API, own])
        else:  # werkbank
            ok = (
                _within(module, ["werkbank", "graders.engine", "graders.hosts.cpython"])
                or (top not in ("graders", "werkbank") and _declared(top))
                or (top in OPTIONAL and guarded)
            )
        if not ok:
            bad.append(f"{rel} imports {module} ({row})")
    return bad


def _python_files():
    for folder in ("graders", "werkbank"):
        for path in sorted((REPO / folder).rglob("*.py")):
            if "__pycache__" not in path.parts:
                yield path.relative_to(REPO).as_posix()


@pytest.mark.parametrize("rel", list(_python_files()))
def test_every_module_imports_only_what_its_layer_allows(rel):
    assert violations(rel, (REPO / rel).read_text(encoding="utf-8")) == []


def test_the_python_rows_catch_violations():
    """Each rule on a made-up file: a lesson package nobody named, the engine reaching up, a host reaching for the
    tooling, werkbank importing a lesson or something undeclared."""
    lesson = lesson_packages()[0]
    other = lesson_packages()[1]
    cases = {
        ("graders/engine/x.py", "from graders.hosts import cpython\n"),
        ("graders/engine/x.py", "import werkbank.lessons\n"),
        ("graders/engine/x.py", f"import graders.{lesson}.common\n"),
        ("graders/hosts/x.py", "from werkbank import grading\n"),
        ("graders/hosts/cpython.py", "import micropip\n"),  # Pyodide-only, in the CPython host
        ("graders/a_future_lesson/x.py", "from graders.hosts import pyodide\n"),
        ("graders/a_future_lesson/x.py", "from graders.engine.runner import run\n"),  # not the author API
        (f"graders/{lesson}/x.py", f"from graders.{other} import common\n"),
        (f"graders/{lesson}/x.py", "import requests\n"),
        ("werkbank/x.py", f"from graders.{lesson} import common\n"),
        ("werkbank/x.py", "from graders.hosts import pyodide_grader\n"),
        ("werkbank/x.py", "import yaml\n"),  # installed or not, pyproject.toml does not declare it
        ("werkbank/x.py", "import brotli\n"),  # optional only inside try/except ImportError
        ("graders/__init__.py", "import numpy\n"),
    }
    for rel, source in cases:
        assert violations(rel, source), (rel, source)
    fine = {
        (
            "graders/a_future_lesson/x.py",
            "from graders.engine.domain import Domain\nfrom . import common\nimport numpy\n",
        ),
        ("graders/a_future_lesson/x.py", "from graders.a_future_lesson.common import helper\n"),
        ("werkbank/x.py", "try:\n    import brotli\nexcept ImportError:\n    brotli = None\n"),
        ("werkbank/x.py", "from graders.hosts import cpython\nimport markdown_it\n"),
        ("graders/hosts/pyodide.py", "import micropip\n"),
    }
    for rel, source in fine:
        assert violations(rel, source) == [], (rel, source)


def test_lesson_packages_are_found_not_listed():
    assert {"claims_abstention", "perplexity_calibration", "retrieval_evaluation"} <= set(lesson_packages())
    assert layer("graders/a_future_lesson/grader.py") == "lesson"


# ------------------------------------------------------------------------------------------------ the browser's Python


def shipped_violations(files: dict[str, str], lesson_files: dict[str, dict[str, str]]) -> list[str]:
    """What a shipped file imports that does not ship with it: ``files`` is engine.json's, ``lesson_files`` each
    lesson package's own (shipped beside the engine in its grading bundle)."""
    bad = []
    shipped = {rel[:-3].replace("/", ".").removesuffix(".__init__") for rel in files if rel.endswith(".py")}
    for owner, extra in [(None, {}), *lesson_files.items()]:
        modules = shipped | {
            rel[:-3].replace("/", ".").removesuffix(".__init__") for rel in extra if rel.endswith(".py")
        }
        for rel, source in (files if owner is None else extra).items():
            if not rel.endswith(".py"):
                continue
            for module, _, _ in imports(rel, source):
                top = module.split(".")[0]
                if top in STDLIB or top == "numpy" or top in PYODIDE_ONLY:
                    continue
                if module not in modules:
                    bad.append(f"{rel} imports {module}, which does not ship to the browser with it")
    return bad


def _lesson_package_files() -> dict[str, dict[str, str]]:
    out = {}
    for name in lesson_packages():
        folder = REPO / "graders" / name
        out[name] = {
            p.relative_to(REPO).as_posix(): p.read_text(encoding="utf-8")
            for p in sorted(folder.rglob("*.py"))
            if "__pycache__" not in p.parts
        }
    return out


def test_the_browser_gets_the_engine_and_the_pyodide_hosts_only():
    files = engine_files()
    engine = {
        p.relative_to(REPO).as_posix()
        for p in (REPO / "graders" / "engine").rglob("*")
        if p.suffix in (".py", ".json") and "__pycache__" not in p.parts
    }
    assert set(files) == engine | {
        "graders/__init__.py",
        "graders/hosts/__init__.py",
        "graders/hosts/pyodide.py",
        "graders/hosts/pyodide_grader.py",
    }


def test_whatever_ships_to_the_browser_imports_only_what_ships_with_it():
    assert shipped_violations(engine_files(), _lesson_package_files()) == []


def test_the_shipping_rule_catches_violations():
    files = engine_files()
    lessons = _lesson_package_files()
    broken = dict(files, **{"graders/hosts/pyodide.py": "from graders.hosts import cpython\n"})
    assert shipped_violations(broken, lessons)
    lesson = next(iter(lessons))
    reaching = {lesson: {f"graders/{lesson}/x.py": "import werkbank.grading\n"}}
    assert shipped_violations(files, reaching)


# ------------------------------------------------------------------------------------------------ JavaScript

#: The page's own modules (the rest of web/src/ is the workers' side, the service worker and the editor's stages).
UI = (
    "checkpoint.js",
    "verdict.js",
    "output.js",
    "progress.js",
    "theme.js",
    "offline.js",
    "runtime.js",
    "i18n.js",
    "storage.js",
    "protocol.js",
    "figures/index.js",
    "layout.js",
    "symbols.js",
    "trace_view.js",
    "bidi.js",
)
#: What each module of web/src/ may import (paths relative to web/src/; "editor (run time)" is checkpoint.js's
#: import() of the editor's stages by URL; "@codemirror/*", "@lezer/*" are CodeMirror's packages).
JS_ALLOWED = {
    # the page's entry point wires up everything of the page (the worker side only through runtime.js)
    "app.js": set(UI),
    "checkpoint.js": {"editor (run time)", "verdict.js", "output.js", "i18n.js", "figures/index.js", "trace_view.js"},
    "verdict.js": {"i18n.js", "figures/index.js", "bidi.js"},
    "trace_view.js": {"i18n.js", "verdict.js"},  # a traced call, drawn with the verdict's helpers
    "layout.js": set(),
    "symbols.js": {"i18n.js"},
    "bidi.js": set(),
    "output.js": {"i18n.js"},
    "progress.js": {"i18n.js"},
    "theme.js": {"i18n.js"},
    "offline.js": set(),
    "runtime.js": {"protocol.js"},
    # a bundle of its own in the page's <head>: the protocol and three functions of offline.js
    "early.js": {"protocol.js", "offline.js:mayReload,register,reloadIntoIsolation"},
    "i18n.js": set(),
    "storage.js": set(),
    "protocol.js": set(),
    # the worker side
    "worker.js": {"protocol.js", "pyboot.js", "lockdown.js", "pyodide_private.js:internals"},
    "grader_worker.js": {"protocol.js", "pyboot.js"},
    "pyboot.js": {"protocol.js", "pyodide_private.js", "../pyodide/pyodide.mjs"},
    # every use of Pyodide's internals, checked against the vendored version
    "pyodide_private.js": set(),
    "lockdown.js": set(),
    "sw.js": set(),
    # the editor's stages
    "editor.js": {"@codemirror/*", "@lezer/*", "editor_view.js", "editor_language.js", "editor_python.js"},
    "editor_view.js": {"@codemirror/*"},
    "editor_language.js": {"@codemirror/*", "@lezer/*"},
    "editor_python.js": {"@codemirror/*"},
    # figures: the registry imports the figures; a figure imports only i18n and the shared drawing helpers
    "figures/index.js": {
        "figures/fusion_recall.js",
        "figures/reliability.js",
        "figures/reliability_plot.js",
        "figures/risk_coverage.js",
        "figures/dom.js",
    },
    "figures/fusion_recall.js": {"i18n.js", "figures/dom.js"},
    "figures/reliability.js": {"i18n.js", "figures/dom.js", "figures/reliability_chart.js"},
    "figures/reliability_plot.js": {"i18n.js", "figures/dom.js", "figures/reliability_chart.js"},
    "figures/risk_coverage.js": {"i18n.js", "figures/dom.js"},
    "figures/reliability_chart.js": {"i18n.js", "figures/dom.js"},
    "figures/dom.js": set(),
}
_JS_STATIC = re.compile(r"""^\s*(?:import|export)\s+(?:([\w*{}\s,$]+?)\s+from\s+)?["']([^"']+)["']""", re.M)
_JS_DYNAMIC = re.compile(r"""\bimport\(\s*([^)]*?)\s*\)""")
_COMMENTS = re.compile(r"/\*.*?\*/|(?<![:\\\"'])//[^\n]*", re.S)


def js_imports(rel: str, source: str) -> list[str]:
    """What the module ``rel`` (relative to web/src/) imports: ``path`` relative to web/src/ (``path:a,b`` for named
    imports), a package pattern (``@codemirror/*``), or ``editor (run time)`` for an import() of a computed URL."""
    out = []
    code = _COMMENTS.sub("", source)
    here = Path(rel).parent
    for names, target in _JS_STATIC.findall(code):
        out.append(_js_target(here, target, names))
    for arg in _JS_DYNAMIC.findall(code):
        literal = re.fullmatch(r"""["']([^"']+)["']""", arg)
        out.append(_js_target(here, literal.group(1), "") if literal else "editor (run time)")
    return out


def _js_target(here: Path, target: str, names: str) -> str:
    if not target.startswith("."):
        return target.split("/")[0] + "/*" if target.startswith("@") else target
    path = posixpath.normpath(posixpath.join("src", here.as_posix(), target))
    rel = path.removeprefix("src/") if path.startswith("src/") else "../" + path
    named = (
        sorted(n.strip().split(" as ")[0] for n in names.strip("{} \n").split(",") if n.strip())
        if names.strip().startswith("{")
        else []
    )
    return f"{rel}:{','.join(named)}" if named else rel


def js_violations(rel: str, source: str) -> list[str]:
    if rel not in JS_ALLOWED:
        return [f"web/src/{rel} has no row in JS_ALLOWED (tests/test_architecture.py)"]
    allowed = JS_ALLOWED[rel]
    bad = []
    for target in js_imports(rel, source):
        module, _, names = target.partition(":")
        only = [set(a.partition(":")[2].split(",")) for a in allowed if a.startswith(module + ":")]
        if only:  # only these names of that module
            ok = bool(names) and any(set(names.split(",")) <= some for some in only)
        else:
            ok = module in allowed
        if not ok:
            bad.append(f"web/src/{rel} imports {target}")
    return bad


def _js_files():
    src = REPO / "web" / "src"
    return sorted(p.relative_to(src).as_posix() for p in src.rglob("*.js"))


@pytest.mark.parametrize("rel", _js_files())
def test_every_js_module_imports_only_what_web_readme_allows(rel):
    assert js_violations(rel, (REPO / "web" / "src" / rel).read_text(encoding="utf-8")) == []


def test_the_js_rules_catch_violations():
    cases = {
        ("verdict.js", 'import { Runtime } from "./runtime.js";\n'),  # the UI reaching the workers past runtime.js
        ("app.js", 'import { lockdown } from "./lockdown.js";\n'),  # the worker side from the page
        ("checkpoint.js", 'import { figure } from "./figures/reliability.js";\n'),  # a figure, not the registry
        ("figures/risk_coverage.js", 'import { t } from "../i18n.js";\nimport { x } from "../runtime.js";\n'),
        ("i18n.js", 'import { KEY } from "./storage.js";\n'),
        ("protocol.js", 'export { x } from "./i18n.js";\n'),
        ("early.js", 'import { registerServiceWorker } from "./offline.js";\n'),  # another name of offline.js
        ("worker.js", 'const m = await import("./runtime.js");\n'),
        ("a_new_module.js", ""),
    }
    for rel, source in cases:
        assert js_violations(rel, source), (rel, source)
    fine = {
        ("early.js", 'import { mayReload, register } from "./offline.js";\nimport { Req } from "./protocol.js";\n'),
        ("figures/risk_coverage.js", '// import { x } from "../runtime.js";\nimport { t } from "../i18n.js";\n'),
        ("checkpoint.js", "const m = import(editorUrl(name));\n"),
    }
    for rel, source in fine:
        assert js_violations(rel, source) == [], (rel, source)


# ------------------------------------------------------------------------------------------------ private names


@pytest.mark.parametrize("rel", list(_python_files()))
def test_no_module_imports_another_modules_private_names(rel):
    for module, names, _ in imports(rel, (REPO / rel).read_text(encoding="utf-8")):
        if module.split(".")[0] in ("graders", "werkbank"):
            private = [n for n in names if n.startswith("_") and not n.startswith("__")]
            assert not private, (module, private)


def test_no_two_test_files_share_a_name():
    """pytest imports test files by their base name (the test folders are not packages): a second file of the same
    name in another folder stops the whole session with an import error."""
    names = {}
    for path in sorted((REPO / "tests").rglob("test_*.py")):
        names.setdefault(path.name, []).append(str(path.relative_to(REPO)))
    assert [paths for paths in names.values() if len(paths) > 1] == []
