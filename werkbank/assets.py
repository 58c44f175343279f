"""The JavaScript bundles: ``web/src`` -> ``dist/assets/`` with esbuild.

Three entry points: ``app.js`` (the pages), ``worker.js`` (a learner worker) and ``grader_worker.js`` (the grader
worker). Every bundle gets the shared settings at build time (``--define:SETTINGS=<json>``, from
:func:`graders.engine.settings.for_web`), so the page, the workers and the engine never disagree about a limit or a
language. The workers' hash is compiled into app.js (``WORKER_VERSION``), so a new worker is never served from a
stale cache. The workers import ``../pyodide/pyodide.mjs`` at run time; that import stays external.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import sys
from pathlib import Path

from graders.engine import settings
from werkbank.errors import WerkbankError

REPO_ROOT = Path(__file__).resolve().parent.parent
WEB = REPO_ROOT / "web"
ESBUILD = REPO_ROOT / "node_modules" / ".bin" / "esbuild"
PYODIDE_IMPORT = "../pyodide/pyodide.mjs"
#: The worker entry points, bundled before app.js (whose WORKER_VERSION is their hash).
WORKERS = ("worker.js", "grader_worker.js")
#: Figure modules written by the lesson authors; app.js imports them by these names.
FIGURE_MODULES = ("reliability.js", "risk_coverage.js")
_PLACEHOLDER = (
    "// Placeholder written by werkbank.assets because this figure module is missing from web/src/figures/.\n"
    "export function mount() {}\nexport function renderReliability() {}\n"
)


class SiteError(WerkbankError):
    """The front end cannot be built (esbuild failed or is missing); the message says why."""


def defines() -> list[str]:
    """The esbuild ``--define`` flags every bundle gets."""
    return [f"--define:SETTINGS={json.dumps(settings.for_web(), sort_keys=True)}"]


def bundle(dist: Path) -> dict[str, str]:
    """Bundle the app and the workers into ``dist/assets/``; return a short hash per bundle (``app``, ``worker``)."""
    if not ESBUILD.exists():
        raise SiteError(f"{ESBUILD} is missing: run 'npm ci' first")
    assets = Path(dist) / "assets"
    assets.mkdir(parents=True, exist_ok=True)
    common = ["--bundle", "--format=esm", "--minify", "--target=es2020",
              "--legal-comments=none", "--log-level=warning", "--charset=utf8", *defines()]
    src = _source_dir()
    digest = hashlib.sha256()
    for name in WORKERS:
        _esbuild([str(src / name), *common, f"--external:{PYODIDE_IMPORT}", f"--outfile={assets / name}"])
        digest.update((assets / name).read_bytes())
    versions = {"worker": digest.hexdigest()[:12]}
    _esbuild([str(src / "app.js"), *common, f"--define:WORKER_VERSION={json.dumps(versions['worker'])}",
              f"--outfile={assets / 'app.js'}"])
    versions["app"] = _short_hash(assets / "app.js")
    return versions


def _source_dir() -> Path:
    """``web/src``, or, while a lesson's figure module has not landed yet, a copy with placeholders for it.

    The copy lives in ``.cache/site-src`` inside the repository so ``node_modules`` still resolves.
    """
    src = WEB / "src"
    missing = [name for name in FIGURE_MODULES if not (src / "figures" / name).is_file()]
    if not missing:
        return src
    print(f"werkbank build: warning: web/src/figures/{', '.join(missing)} missing; those figures are left out",
          file=sys.stderr)
    copy = REPO_ROOT / ".cache" / "site-src"
    if copy.exists():
        shutil.rmtree(copy)
    shutil.copytree(src, copy)
    for name in missing:
        (copy / "figures" / name).write_text(_PLACEHOLDER, encoding="utf-8")
    return copy


def _esbuild(args: list[str]) -> None:
    result = subprocess.run([str(ESBUILD), *args], cwd=REPO_ROOT, capture_output=True, text=True)
    if result.returncode != 0:
        raise SiteError(f"esbuild failed ({' '.join(args[:1])}):\n{result.stderr.strip()}")


def _short_hash(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()[:12]
