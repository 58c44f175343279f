"""The JavaScript bundles: ``web/src`` -> ``dist/assets/`` with esbuild.

The entry points: ``app.js`` (the pages), the editor's stages (``EDITOR_STAGES``: CodeMirror in four modules that
app.js imports one after the other on lesson pages at run time; they share ``chunks/``), ``early.js`` (a classic
script in every page's ``<head>`` that preloads the editor's modules and starts the first learner worker before app.js
runs), ``worker.js`` (a learner worker) and ``grader_worker.js`` (the grader worker). Every bundle gets the shared
settings at build time (``--define:SETTINGS=<json>``, from :func:`graders.engine.settings.for_web`), so the page,
the workers and the engine never disagree about a limit or a language. The workers' hash is compiled into app.js
(``WORKER_VERSION``), so a new worker is never served from a stale cache. The workers import
``../pyodide/pyodide.mjs`` at run time; that import stays external.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
from pathlib import Path

from graders.engine import settings
from werkbank.errors import WerkbankError
from werkbank.vendor.files import PYODIDE_VERSION

REPO_ROOT = Path(__file__).resolve().parent.parent
WEB = REPO_ROOT / "web"
ESBUILD = REPO_ROOT / "node_modules" / ".bin" / "esbuild"
PYODIDE_IMPORT = "../pyodide/pyodide.mjs"
#: The worker entry points, bundled before app.js (whose WORKER_VERSION is their hash).
WORKERS = ("worker.js", "grader_worker.js")
#: The editor (CodeMirror and its Python mode): modules of their own that lesson pages load beside their start-up
#: (``loadEditor`` in checkpoint.js), so pages without editors never load them. A page evaluates ``EDITOR_STAGES`` in
#: this order, each in a main-thread task of its own: CodeMirror's state and view, its language layer, the Python mode,
#: then werkbank's editor (``EDITOR``, with CodeMirror's commands and search), so that no evaluation is a long task on
#: a first visit, when nothing of CodeMirror is compiled yet. esbuild's code splitting puts the code they share into
#: ``chunks/`` (one copy of each package), under names that carry their content's hash. The hash of them all is
#: compiled into app.js (``EDITOR_VERSION``), beside the list (``EDITOR_STAGES``).
EDITOR = "editor.js"
EDITOR_STAGES = ("editor_view.js", "editor_language.js", "editor_python.js", EDITOR)
EDITOR_CHUNKS = "chunks"
#: V8's compile hint for the editor's files: compile every function while the page's modulepreload fetches them, on
#: a background thread, instead of each on its first call on the main thread, which is inside the first editor's
#: construction on a first visit (no code cache yet).
COMPILE_HINT = "//# allFunctionsCalledOnLoad"
#: Every file :func:`bundle` writes directly into ``dist/assets/`` (anything else there is left from an older build;
#: ``chunks/`` is written anew by every build).
OUTPUTS = (*WORKERS, *EDITOR_STAGES, "app.js", "early.js")


class SiteError(WerkbankError):
    """The front end cannot be built (esbuild failed or is missing); the message says why."""


def defines() -> list[str]:
    """The esbuild ``--define`` flags every bundle gets: the shared settings, and the Pyodide version the site vendors
    (``PYODIDE_VERSION``, which ``web/src/pyodide_private.js`` checks before it touches Pyodide's internals)."""
    data = json.dumps(settings.for_web(), separators=(",", ":"), sort_keys=True)
    return [f"--define:SETTINGS={data}", f"--define:PYODIDE_VERSION={json.dumps(PYODIDE_VERSION)}"]


def bundle(dist: Path) -> dict[str, str]:
    """Bundle the app, the editor and the workers into ``dist/assets/``; return a short hash per bundle (``app``,
    ``editor``, ``worker``, ``early``)."""
    if not ESBUILD.exists():
        raise SiteError(f"{ESBUILD} is missing: run 'npm ci' first")
    assets = Path(dist) / "assets"
    assets.mkdir(parents=True, exist_ok=True)
    common = [
        "--bundle",
        "--format=esm",
        "--minify",
        "--target=es2020",
        "--legal-comments=none",
        "--log-level=warning",
        "--charset=utf8",
        *defines(),
    ]
    src = WEB / "src"
    digest = hashlib.sha256()
    for name in WORKERS:
        _esbuild([str(src / name), *common, f"--external:{PYODIDE_IMPORT}", f"--outfile={assets / name}"])
        digest.update((assets / name).read_bytes())
    versions = {"worker": digest.hexdigest()[:12]}
    worker_version = f"--define:WORKER_VERSION={json.dumps(versions['worker'])}"
    shutil.rmtree(assets / EDITOR_CHUNKS, ignore_errors=True)
    _esbuild(
        [
            *(str(src / name) for name in EDITOR_STAGES),
            *common,
            "--splitting",
            f"--outdir={assets}",
            "--entry-names=[name]",
            f"--chunk-names={EDITOR_CHUNKS}/[name]-[hash]",
            f"--banner:js={COMPILE_HINT}",
        ]
    )
    editor_digest = hashlib.sha256()
    for name in editor_modules(dist):
        editor_digest.update(name.encode() + b"\0" + (assets / name).read_bytes())
    versions["editor"] = editor_digest.hexdigest()[:12]
    editor_version = [
        f"--define:EDITOR_VERSION={json.dumps(versions['editor'])}",
        f"--define:EDITOR_STAGES={json.dumps(list(EDITOR_STAGES))}",
    ]
    _esbuild([str(src / "app.js"), *common, worker_version, *editor_version, f"--outfile={assets / 'app.js'}"])
    versions["app"] = _short_hash(assets / "app.js")
    # early.js: a classic script for <head> that starts the first learner worker before app.js runs
    _esbuild(
        [
            str(src / "early.js"),
            *[a for a in common if a != "--format=esm"],
            "--format=iife",
            worker_version,
            f"--outfile={assets / 'early.js'}",
        ]
    )
    versions["early"] = _short_hash(assets / "early.js")
    return versions


def editor_modules(dist: Path) -> list[str]:
    """The editor's files under ``dist/assets/``: the shared chunks, then ``EDITOR_STAGES`` in the order a page
    evaluates them (paths relative to ``assets/``, for the pages' ``modulepreload`` links)."""
    assets = Path(dist) / "assets"
    chunks = sorted(p.relative_to(assets).as_posix() for p in (assets / EDITOR_CHUNKS).glob("*.js"))
    return [*chunks, *EDITOR_STAGES]


def _esbuild(args: list[str]) -> None:
    result = subprocess.run([str(ESBUILD), *args], cwd=REPO_ROOT, capture_output=True, text=True)
    if result.returncode != 0:
        raise SiteError(f"esbuild failed ({' '.join(args[:1])}):\n{result.stderr.strip()}")


def _short_hash(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()[:12]
