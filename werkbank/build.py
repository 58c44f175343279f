"""``werkbank build``: write the complete static site into ``dist/``.

Steps, in order:

1. vendor the Pyodide runtime and its wheels into ``dist/pyodide/`` (see :mod:`werkbank.vendor`) and every lesson's
   pinned extra wheels into ``dist/wheels/``;
2. the front end: :func:`werkbank.site.build_site` bundles ``web/src`` and renders the HTML pages;
3. the grading data the Web Workers load: ``dist/grading/engine.json`` (:data:`BROWSER_ENGINE`), one
   ``dist/grading/<lesson-id>.json`` per lesson (its hidden graders, reference solutions, checkpoints, wheels) and
   one ``dist/grading/<lesson-id>.<lang>.checks`` per lesson language: every checkpoint's cases with the reference's
   expected outcomes, computed here once (:func:`prepared_checks`), so a Check in the browser runs exactly the cases
   ``werkbank grade`` runs and the grader worker computes none of them;
4. optionally (``bytecode``) the runtime's Python files precompiled, then the offline step
   (:func:`werkbank.offline.finish`: precompressed copies, ``_headers``, the service worker ``sw.js``);
5. a last check that no file in ``dist/`` names a CDN, then ``dist/build.json`` with a hash of everything else.

The build is incremental: files are only rewritten when their bytes change and, with a warm download cache, no
network is touched.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Iterable

from werkbank import vendor
from werkbank.lessons import read_text

REPO_ROOT = vendor.REPO_ROOT
GRADERS = REPO_ROOT / "graders"


def _json_bytes(data) -> bytes:
    return (json.dumps(data, indent=1, ensure_ascii=False, sort_keys=False) + "\n").encode("utf-8")


def _py_sources(folder: Path, root: Path) -> dict[str, str]:
    """Every ``.py`` file under ``folder`` (recursively), keyed ``graders/<path relative to root>`` (``root``: the
    graders folder it lies in). An author's file that is not UTF-8 is a ``LessonError`` naming it
    (:func:`werkbank.lessons.read_text`)."""
    out = {}
    for path in sorted(folder.rglob("*.py")):
        if "__pycache__" in path.parts:
            continue
        out["graders/" + path.relative_to(root).as_posix()] = read_text(path)
    return out


#: What of ``graders/`` the browser gets: the engine core (sources and catalogs) and the Pyodide host, never the
#: CPython host (subprocesses, resource limits) or a lesson's graders (those ship per lesson).
BROWSER_ENGINE = (
    "__init__.py",
    "engine/**/*.py",
    "engine/catalog/*.json",
    "hosts/__init__.py",
    "hosts/pyodide.py",
    "hosts/pyodide_grader.py",
)


def engine_files(root: Path | None = None) -> dict[str, str]:
    """The files of :data:`BROWSER_ENGINE`, keyed by repository-relative path."""
    root = root or GRADERS
    files = {}
    for pattern in BROWSER_ENGINE:
        for path in sorted(root.glob(pattern)):
            if "__pycache__" not in path.parts:
                files[(Path("graders") / path.relative_to(root)).as_posix()] = path.read_text(encoding="utf-8")
    return dict(sorted(files.items()))


def grader_package_files(module: str) -> dict[str, str]:
    """The sources of the package a grader module lives in (every ``.py`` below it) plus its ancestors' inits.

    ``graders.claims_abstention.claim_support`` -> everything under ``graders/claims_abstention/``.
    ``graders/__init__.py`` itself ships in engine.json.
    """
    from werkbank.lessons import grader_root

    parts = module.split(".")
    if len(parts) < 3 or parts[0] != "graders":
        raise vendor.VendorError(f"grader {module!r} must live in a package under graders/ (graders.<pkg>.<module>)")
    root = grader_root(module)  # the repository's graders/, or the folder $WERKBANK_GRADERS added
    package_dir = root.joinpath(*parts[1:-1])
    if not (package_dir / f"{parts[-1]}.py").is_file() and not (package_dir / parts[-1] / "__init__.py").is_file():
        raise vendor.VendorError(f"grader module {module!r} not found under {package_dir}")
    files = {}
    for depth in range(2, len(parts) - 1):  # intermediate packages between graders/ and the grader's package
        init = root.joinpath(*parts[1:depth], "__init__.py")
        if init.is_file():
            files["graders/" + init.relative_to(root).as_posix()] = read_text(init)
    files.update(_py_sources(package_dir, root))
    return files


def lesson_grading(lesson, requirements: list[dict]) -> dict:
    """The ``dist/grading/<lesson-id>.json`` document for one lesson."""
    files: dict[str, str] = {}
    for cp in lesson.checkpoints:
        files.update(grader_package_files(cp.grader))
    return {
        "lesson": lesson.id,
        "files": dict(sorted(files.items())),
        "solutions": {cp.id: cp.solution() for cp in lesson.checkpoints},
        "checkpoints": {
            cp.id: {"grader": cp.grader, "entry": list(cp.entry), "plot": cp.plot or ""} for cp in lesson.checkpoints
        },
        "requirements": requirements,
        # declared mistakes with feedback (their programs, patches applied): the grader worker matches a learner's
        # failure to them and shows what the mistake means
        "mistakes": {cp.id: cp.mistake_feedback() for cp in lesson.checkpoints},
    }


#: Suffix of a lesson language's prepared Checks: gzip-compressed JSON, which the grader worker inflates itself
#: (DecompressionStream), so no host has to compress it or set a header (a ``.gz`` name would read as a copy of a
#: file that is not there: :mod:`werkbank.offline` prunes those).
CHECKS_SUFFIX = ".checks"


def checks_name(lesson_id: str, lang: str) -> str:
    """The file name of a lesson language's prepared Checks in ``dist/grading/``."""
    return f"{lesson_id}.{lang}{CHECKS_SUFFIX}"


def prepared_checks(lesson, lang: str) -> dict:
    """Every checkpoint of ``lesson`` prepared in ``lang`` with the build's seed (:data:`CASE_SEED`):
    ``{"lesson", "lang", "seed", "checks": {checkpoint id: {"plan": JSON text, "key": JSON text, "time_limit",
    "plot_case"} or {"author_error": text}}}``. The plan (the cases' inputs) goes to the learner's worker; the key
    (expected outcomes) never leaves the grader worker. An author error is kept, not raised: the page then says
    that the checkpoint's grader is broken, as ``werkbank grade`` does, and the build goes on."""
    from graders.engine.case import AuthorError
    from graders.engine.settings import CASE_SEED
    from werkbank.grading import prepare_checkpoint

    checks = {}
    for cp in lesson.checkpoints:
        try:
            prepared = prepare_checkpoint(cp, seed=CASE_SEED, lang=lang)
        except AuthorError as error:
            checks[cp.id] = {"author_error": str(error)}
            continue
        except Exception as error:  # an author's grader failing in an unforeseen way is still the author's
            checks[cp.id] = {"author_error": f"{type(error).__name__}: {error}"}
            continue
        key = prepared["key"]
        checks[cp.id] = {
            "plan": json.dumps(prepared["plan"], ensure_ascii=False, separators=(",", ":")),
            "key": json.dumps(key, ensure_ascii=False, separators=(",", ":")),
            "time_limit": key["time_limit"],
            "plot_case": key["plot"]["case"] if key.get("plot") else "",
        }
    return {"lesson": lesson.id, "lang": lang, "seed": CASE_SEED, "checks": checks}


def _checks_bytes(lesson, lang: str) -> tuple[bytes, dict]:
    """:func:`prepared_checks` as gzip bytes, and its author errors (``{checkpoint id: text}``), kept in the cache
    under a hash of everything they depend on (the engine, the lesson's graders, references and mistakes, the
    language, the seed, Python and numpy, and the code that prepares them), so a rebuild that changed none of these
    computes nothing (and reads no megabytes back to find its errors)."""
    import gzip
    import sys

    import numpy

    from graders.engine.settings import CASE_SEED

    from graders.hosts import cpython
    from werkbank import grading

    how = [Path(module.__file__).read_text(encoding="utf-8") for module in (grading, cpython)]  # how it is prepared
    digest = hashlib.sha256()
    for part in (engine_files(), lesson_grading(lesson, []), lang, CASE_SEED, sys.version, numpy.__version__, how):
        digest.update(json.dumps(part, sort_keys=True).encode("utf-8") + b"\0")
    cached = vendor.cache_dir() / "checks" / f"{digest.hexdigest()}.gz"
    errors_file = cached.with_suffix(".errors.json")
    if cached.is_file() and errors_file.is_file():
        return cached.read_bytes(), json.loads(errors_file.read_text(encoding="utf-8"))
    prepared = prepared_checks(lesson, lang)
    errors = {cp: entry["author_error"] for cp, entry in prepared["checks"].items() if "author_error" in entry}
    data = gzip.compress(json.dumps(prepared, ensure_ascii=False).encode("utf-8"), compresslevel=9, mtime=0)
    cached.parent.mkdir(parents=True, exist_ok=True)
    for path, content in ((cached, data), (errors_file, json.dumps(errors).encode("utf-8"))):
        tmp = path.with_suffix(".tmp")
        tmp.write_bytes(content)
        tmp.replace(path)
    return data, errors


def write_grading(
    dist: Path,
    lessons: list,
    requirements: dict[str, list[dict]],
    *,
    bytecode: bool = False,
    author_errors: list | None = None,
) -> list[str]:
    """Write engine.json and one json per lesson into ``dist/grading/``; return the file names written. ``bytecode``:
    engine.json also carries the engine compiled ahead of time (:func:`werkbank.bytecode.engine_bytecode`)."""
    out = Path(dist) / "grading"
    names = ["engine.json"]
    # The learner workers read engine.json, never a lesson's file: it also names each lesson's wheels (not secret),
    # with the sha-256 a learner worker checks each against as it fetches and unpacks it itself (pyboot.js)
    wheels = {
        lesson_id: [{"name": r["name"], "file": r["file"], "sha256": r["sha256"]} for r in reqs]
        for lesson_id, reqs in requirements.items()
        if reqs
    }
    files = engine_files()
    engine = {"files": files, "requirements": wheels}
    if bytecode:
        from werkbank.bytecode import engine_bytecode

        compiled = engine_bytecode(files)
        if compiled:
            engine["bytecode"] = compiled
    vendor.write_if_changed(out / "engine.json", _json_bytes(engine))
    for lesson in lessons:
        name = f"{lesson.id}.json"
        vendor.write_if_changed(out / name, _json_bytes(lesson_grading(lesson, requirements.get(lesson.id, []))))
        names.append(name)
        for lang in lesson.languages:
            name = checks_name(lesson.id, lang)
            data, errors = _checks_bytes(lesson, lang)
            vendor.write_if_changed(out / name, data)
            names.append(name)
            if author_errors is not None:
                author_errors.extend(
                    f"{lesson.id} checkpoint {cp} ({lang}): every Check says the grader is broken: {error} "
                    f"(werkbank check {lesson.id} says more)"
                    for cp, error in errors.items()
                )
    return names


def build_hash(dist: Path) -> str:
    """sha-256 over every file in ``dist`` (path and contents) except ``build.json`` itself."""
    digest = hashlib.sha256()
    for path in sorted(p for p in Path(dist).rglob("*") if p.is_file()):
        rel = path.relative_to(dist).as_posix()
        if rel == "build.json":
            continue
        digest.update(rel.encode("utf-8") + b"\0" + vendor.sha256_file(path).encode("ascii") + b"\n")
    return digest.hexdigest()


def _resolve_lessons(lessons) -> list:
    from werkbank.lessons import load_all, load_lesson

    if lessons is None:
        return load_all()
    return [load_lesson(item) if isinstance(item, str) else item for item in lessons]


def _build_site(dist: Path, lessons: list) -> None:
    from werkbank.site import build_site

    build_site(dist, lessons)


#: Top-level outputs older builds made and this one does not (the reverted memory snapshot). Only these are removed
#: at the top of ``dist``: ``--dist`` may name a folder that holds other things too.
RETIRED = ("snapshot",)


def prune_stale(dist: Path, lesson_ids: Iterable[str]) -> None:
    """Delete what an older build left in ``dist`` and this one does not make: bundles in ``assets/`` (through
    :func:`werkbank.vendor.prune`, which keeps each kept file's compressed twins), pages of lessons that are gone in
    ``lessons/``, and the retired top-level outputs. Without this the offline copy (sw.js lists every file) would keep
    shipping them to every learner."""
    import shutil

    from werkbank.assets import OUTPUTS

    dist = Path(dist)
    vendor.prune(dist / "assets", OUTPUTS)
    lessons, keep = dist / "lessons", set(lesson_ids)
    gone = [child for child in lessons.iterdir() if child.name not in keep] if lessons.is_dir() else []
    for path in [dist / name for name in RETIRED] + gone:
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path)
        elif path.exists() or path.is_symlink():
            path.unlink()


def build(dist: Path, *, lessons: Iterable | None = None, bytecode: bool | None = None) -> list[str]:
    """Write the whole static site into ``dist``: runtime, front end, grading data, offline files, build hash.

    ``lessons``: None for every lesson under exercises/, else Lesson objects or lesson ids.
    ``bytecode``: precompile the runtime's Python files (:mod:`werkbank.bytecode`, needs a CPython 3.12; without
    one the stock files ship, with a notice). None means "unless the environment variable ``WERKBANK_BYTECODE`` is
    0": the bytecode runtime boots about twice as fast for ~2.3 MB more.
    Raises a :class:`werkbank.errors.WerkbankError` (or the lessons' ``LessonError``) with a readable message.
    Returns one line per checkpoint whose reference or grader is broken (an author error): the site is built, and
    its Check says so to the learner, but the author should hear it now, not at the first Check.
    """
    dist = Path(dist)
    dist.mkdir(parents=True, exist_ok=True)
    lesson_list = _resolve_lessons(lessons)
    vendor.vendor_runtime(dist)
    pins = {lesson.id: list(lesson.requirements) for lesson in lesson_list if lesson.requirements}
    requirements = vendor.vendor_requirements(dist, pins, prune_stale=lessons is None)
    _build_site(dist, lesson_list)
    if bytecode is None:
        bytecode = os.environ.get("WERKBANK_BYTECODE", "1") != "0"
    author_errors: list[str] = []
    names = write_grading(dist, lesson_list, requirements, bytecode=bytecode, author_errors=author_errors)
    if lessons is None:
        vendor.prune(dist / "grading", names)
    if bytecode:
        from werkbank.bytecode import compile_runtime

        compile_runtime(dist)  # without a CPython 3.12 it says so and keeps the stock files
    from werkbank.offline import finish

    if lessons is None:
        prune_stale(dist, [lesson.id for lesson in lesson_list])
    finish(dist)  # precompressed copies, _headers, sw.js: the last writer before build.json
    vendor.check_no_cdn(dist)
    vendor.write_if_changed(
        dist / "build.json", _json_bytes({"hash": build_hash(dist), "pyodide": vendor.PYODIDE_VERSION})
    )
    return author_errors
