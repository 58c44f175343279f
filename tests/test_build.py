"""The built site (``dist`` fixture): required files, no CDN, verified wheels, grading data of the documented shape."""

from __future__ import annotations

import hashlib
import json
import time
from pathlib import Path

import pytest

from werkbank import vendor
from werkbank.build import build_hash, engine_files, grader_package_files
from werkbank.lessons import LessonError, load_all

REQUIRED = [
    "build.json",
    "grading/engine.json",
    "pyodide/pyodide.mjs",
    "pyodide/pyodide.asm.js",
    "pyodide/pyodide.asm.wasm",
    "pyodide/python_stdlib.zip",
    "pyodide/pyodide-lock.json",
]  # the wheels, named by the lock: test_shipped_wheels_match_the_upstream_lock


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.mark.parametrize("rel", REQUIRED)
def test_required_files_exist(dist, rel):
    path = dist / rel
    assert path.is_file() and path.stat().st_size > 0, f"{rel} missing or empty"


def test_no_source_maps_or_node_extras(dist):
    names = {p.name for p in (dist / "pyodide").iterdir()}
    assert not {n for n in names if n.endswith(".map")}
    assert "pyodide.js" not in names and "console.html" not in names


def test_no_cdn_address_anywhere(dist):
    """Every file, binary ones too, is free of CDN host names."""
    offenders = []
    for path in dist.rglob("*"):
        if path.is_file():
            data = path.read_bytes()
            offenders += [f"{path.relative_to(dist)}: {h!r}" for h in vendor.FORBIDDEN_HOSTS if h in data]
    assert offenders == []


def test_pyodide_mjs_loads_from_its_own_folder(dist):
    assert b"import.meta.url" in (dist / "pyodide" / "pyodide.mjs").read_bytes()


def test_shipped_wheels_match_the_upstream_lock(dist):
    """numpy (and micropip, packaging) in dist/ hash to the entries of node_modules' pyodide-lock.json.

    A bytecode build (dist/pyodide/bytecode.json) ships recompiled wheels: then the recorded source of each must be
    the upstream wheel, and the shipped bytes must be the recorded compiled ones.
    """
    upstream = vendor.load_lock()
    provenance_path = dist / "pyodide" / "bytecode.json"
    provenance = json.loads(provenance_path.read_text())["files"] if provenance_path.exists() else {}
    for pkg in vendor.SHIPPED_PACKAGES:
        entry = upstream["packages"][pkg]
        shipped = sha256(dist / "pyodide" / entry["file_name"])
        if entry["file_name"] in provenance:
            record = provenance[entry["file_name"]]
            assert record["source_sha256"] == entry["sha256"], pkg
            assert shipped == record["sha256"], pkg
        else:
            assert shipped == entry["sha256"], pkg


def test_shipped_lock_names_only_shipped_files(dist):
    lock = json.loads((dist / "pyodide" / "pyodide-lock.json").read_text())
    assert lock["info"]["version"] == vendor.PYODIDE_VERSION
    for name, entry in lock["packages"].items():
        path = dist / "pyodide" / entry["file_name"]
        assert path.is_file(), f"lock names {entry['file_name']} for {name} but dist/ lacks it"
        assert sha256(path) == entry["sha256"]
        assert set(entry["depends"]) <= set(lock["packages"])


def test_engine_json_shape(dist, repo_root):
    engine = json.loads((dist / "grading" / "engine.json").read_text(encoding="utf-8"))
    assert list(engine) in (["files", "requirements"], ["files", "requirements", "bytecode"])  # bytecode: see below
    # the learner workers learn a lesson's wheels from here: names, files and their sha-256 (checked as they are
    # fetched), nothing of the graders
    wheels = json.loads((dist / "wheels" / "index.json").read_text(encoding="utf-8"))["wheels"]
    mdurl = next(w for w in wheels if w["name"] == "mdurl")
    assert engine["requirements"]["micropip-demo"] == [
        {"name": "mdurl", "file": mdurl["file"], "sha256": mdurl["sha256"]}
    ]
    files = engine["files"]
    engine_dir = repo_root / "graders" / "engine"
    expected = {
        "graders/__init__.py",
        "graders/hosts/__init__.py",
        "graders/hosts/pyodide.py",
        "graders/hosts/pyodide_grader.py",
    } | {
        p.relative_to(repo_root).as_posix()
        for p in [*engine_dir.rglob("*.py"), *engine_dir.glob("catalog/*.json")]
        if "__pycache__" not in p.parts
    }
    assert set(files) == expected
    # The core and the Pyodide host only: no subprocesses or resource limits, and nothing of werkbank/.
    assert "graders/hosts/cpython.py" not in files
    for rel, src in files.items():
        assert "import subprocess" not in src and "import resource" not in src, rel
        assert "werkbank" not in "".join(
            line for line in src.splitlines() if line.lstrip().startswith(("import", "from"))
        ), rel
    for rel, src in files.items():
        assert src == (repo_root / rel).read_text(encoding="utf-8")


def test_engine_bytecode_is_what_python_imports(dist, tmp_path):
    """engine.json's ahead-of-time bytecode, laid out as web/src/pyboot.js installEngine does (each package's
    __pycache__/<module>.<tag>.pyc beside the source), is what a CPython 3.12 imports: with every source file
    replaced by one that would fail, the engine still imports and grades. Each code object is named by the module's
    path in the browser."""
    import base64
    import marshal
    import subprocess

    from werkbank import bytecode

    engine = json.loads((dist / "grading" / "engine.json").read_text(encoding="utf-8"))
    try:
        python, _ = bytecode.find_python312()
    except bytecode.BytecodeUnavailable:
        assert "bytecode" not in engine  # a build without 3.12 ships sources only
        pytest.skip("no CPython 3.12 here")
    compiled = engine["bytecode"]
    assert compiled["tag"] == "cpython-312"
    assert set(compiled["files"]) == {p for p in engine["files"] if p.endswith(".py")}
    root = tmp_path / "lib"
    for rel, data in compiled["files"].items():
        raw = base64.b64decode(data)
        assert raw[:4] == bytecode.MAGIC_312 and int.from_bytes(raw[4:8], "little") == 0b01  # unchecked hash
        assert marshal.loads(raw[16:]).co_filename == bytecode.ENGINE_PREFIX + rel
        source = root / rel
        source.parent.mkdir(parents=True, exist_ok=True)
        source.write_text("raise SystemExit('the source was compiled, not the shipped bytecode')\n", encoding="utf-8")
        cached = source.parent / "__pycache__" / f"{source.stem}.{compiled['tag']}.pyc"
        cached.parent.mkdir(exist_ok=True)
        cached.write_bytes(raw)
    for rel in engine["files"]:
        if not rel.endswith(".py"):  # the catalogs
            (root / rel).parent.mkdir(parents=True, exist_ok=True)
            (root / rel).write_text(engine["files"][rel], encoding="utf-8")
    probe = (
        "import json, sys; sys.path.insert(0, sys.argv[1]); from graders.hosts import pyodide; "
        "print(pyodide.run('def f(x):\\n    return x + 1\\n', {'mode': 'check', "
        "'cases': [{'id': 'a', 'call': 'f', 'args': ['tuple', [['int', '1']]], 'kwargs': ['dict', []]}], "
        "'attrs': {}})['outcomes'][0]['value'])"
    )
    out = subprocess.run([python, "-I", "-c", probe, str(root)], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip() == "['int', '2']"


def lessons_by_id():
    return {lesson.id: lesson for lesson in load_all()}


@pytest.mark.parametrize("lesson_id", sorted(lessons_by_id()))
def test_lesson_grading_json_shape(dist, repo_root, lesson_id):
    lesson = lessons_by_id()[lesson_id]
    doc = json.loads((dist / "grading" / f"{lesson_id}.json").read_text(encoding="utf-8"))
    assert set(doc) == {"lesson", "files", "solutions", "checkpoints", "requirements", "mistakes"}
    assert doc["lesson"] == lesson_id
    ids = [cp.id for cp in lesson.checkpoints]
    assert list(doc["solutions"]) == ids and list(doc["checkpoints"]) == ids
    for cp in lesson.checkpoints:
        assert doc["solutions"][cp.id] == cp.solution()
        assert doc["mistakes"][cp.id] == cp.mistake_feedback()
        assert doc["checkpoints"][cp.id] == {"grader": cp.grader, "entry": list(cp.entry), "plot": cp.plot or ""}
        module_file = cp.grader.replace(".", "/") + ".py"
        assert module_file in doc["files"], f"{cp.grader} is not shipped"
        package_init = cp.grader.rsplit(".", 1)[0].replace(".", "/") + "/__init__.py"
        assert package_init in doc["files"]
    for rel, src in doc["files"].items():
        assert rel.startswith("graders/") and not rel.startswith("graders/engine/")
        assert src == (repo_root / rel).read_text(encoding="utf-8")
    assert len(doc["requirements"]) == len(lesson.requirements)
    for req, pin in zip(doc["requirements"], lesson.requirements):
        assert f"{req['name']}=={req['version']}" == pin
        assert sha256(dist / "wheels" / req["file"]) == req["sha256"]


def test_wheel_index_matches_the_lessons(dist):
    pins = {pin for lesson in load_all() for pin in lesson.requirements}
    index = json.loads((dist / "wheels" / "index.json").read_text())
    assert {f"{w['name']}=={w['version']}" for w in index["wheels"]} == pins
    for wheel in index["wheels"]:
        vendor.check_pure_wheel(wheel["file"])
        assert sha256(dist / "wheels" / wheel["file"]) == wheel["sha256"]


def test_build_json_hashes_the_rest_of_dist(dist):
    recorded = json.loads((dist / "build.json").read_text())
    assert recorded["hash"] == build_hash(dist)
    assert len(recorded["hash"]) == 64


def test_build_hash_changes_with_any_file(tmp_path):
    (tmp_path / "a.txt").write_text("one")
    before = build_hash(tmp_path)
    (tmp_path / "build.json").write_text("ignored")
    assert build_hash(tmp_path) == before
    (tmp_path / "a.txt").write_text("two")
    assert build_hash(tmp_path) != before


def test_grader_package_files_take_the_whole_package(repo_root):
    files = grader_package_files("graders.micropip_demo.uses_package")
    on_disk = {
        p.relative_to(repo_root).as_posix()
        for p in (repo_root / "graders" / "micropip_demo").rglob("*.py")
        if "__pycache__" not in p.parts
    }
    assert set(files) == on_disk
    with pytest.raises(vendor.VendorError, match="not found"):
        grader_package_files("graders.micropip_demo.no_such_module")


def test_a_grader_file_that_is_not_utf8_is_named_with_its_line(tmp_path, monkeypatch):
    """A lesson's grader package is an author's file too: the build names it, its line and the byte (an editor that
    saved Latin-1), instead of failing with a traceback."""
    import graders

    package = tmp_path / "graders" / "some_lesson"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("", encoding="utf-8")
    (package / "checks.py").write_bytes(b"X = 1\n# caf\xe9\n")
    monkeypatch.setattr(graders, "__path__", [*graders.__path__, str(tmp_path / "graders")])  # $WERKBANK_GRADERS
    with pytest.raises(LessonError, match=r"checks\.py:2: not UTF-8 text \(byte 0xe9"):
        grader_package_files("graders.some_lesson.checks")


def test_grader_packages_in_an_added_folder_ship_like_the_repositorys(tmp_path, monkeypatch):
    """A lesson whose graders live in ``$WERKBANK_GRADERS`` (a draft, a test's temporary lesson) gets the same
    grading bundle keys as one in the repository's graders/: ``graders/<package>/...``."""
    import graders

    package = tmp_path / "graders" / "draft_lesson"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("", encoding="utf-8")
    (package / "checks.py").write_text("X = 1\n", encoding="utf-8")
    monkeypatch.setattr(graders, "__path__", [*graders.__path__, str(tmp_path / "graders")])
    assert grader_package_files("graders.draft_lesson.checks") == {
        "graders/draft_lesson/__init__.py": "",
        "graders/draft_lesson/checks.py": "X = 1\n",
    }


def test_engine_files_include_the_package_init():
    assert "graders/__init__.py" in engine_files()


def test_warm_rebuild_is_fast_and_offline(tmp_path, monkeypatch):
    """With a warm cache a second build of the runtime takes seconds and asks no download source."""
    from werkbank import build as build_mod

    dist = tmp_path / "dist"
    build_mod.build(dist, bytecode=False)  # the cache was warmed by the session's build (or by make)

    def no_network(*args, **kwargs):
        raise AssertionError("a warm rebuild must not download anything")

    monkeypatch.setattr(vendor.sources, "default_sources", no_network)
    monkeypatch.setattr(vendor.wheels, "_pip_download_pin", no_network)
    before = {p: p.stat().st_mtime_ns for p in (dist / "pyodide").iterdir()}
    # what an older build made and this one does not: gone after the rebuild, and not in the offline copy
    stale = [
        "snapshot/python.bin.gzip",
        "assets/old-entry.js",
        "assets/old-entry.js.gz",
        "lessons/gone/en.html",
        "assets/chunks/chunk-OLDHASH1.js",
        "assets/chunks/chunk-OLDHASH1.js.gz",
    ]  # an older editor's chunk
    (dist / "notes.txt").write_text("the host's own file", encoding="utf-8")  # --dist may hold other things: kept
    for rel in stale:
        (dist / rel).parent.mkdir(parents=True, exist_ok=True)
        (dist / rel).write_text("left from an older build", encoding="utf-8")
    start = time.monotonic()
    build_mod.build(dist, bytecode=False)
    assert time.monotonic() - start < 15
    after = {p: p.stat().st_mtime_ns for p in (dist / "pyodide").iterdir()}
    assert before == after, "unchanged runtime files must not be rewritten"
    sw = (dist / "sw.js").read_text(encoding="utf-8")
    for rel in stale:
        assert not (dist / rel).exists() and rel not in sw, rel
    assert not (dist / "snapshot").exists() and not (dist / "lessons" / "gone").exists()
    assert (dist / "assets" / "early.js").is_file() and (dist / "en" / "index.html").is_file()
    assert list((dist / "assets" / "chunks").glob("chunk-*.js"))  # this build's own chunks are there
    assert (dist / "notes.txt").read_text(encoding="utf-8") == "the host's own file"


def test_every_build_error_is_one_class_the_cli_prints_without_a_traceback(tmp_path, monkeypatch, capsys):
    """Vendoring, bundling, bytecode and offline errors share WerkbankError; `werkbank build` prints it."""
    from werkbank import assets, build as build_mod, bytecode, cli, offline
    from werkbank.errors import WerkbankError

    for error in (vendor.VendorError, assets.SiteError, bytecode.BytecodeError, offline.OfflineError):
        assert issubclass(error, WerkbankError), error

    def broken(*args, **kwargs):
        raise bytecode.BytecodeError("compiling python_stdlib.zip with python3.12 failed: boom")

    monkeypatch.setattr(build_mod, "build", broken)
    assert cli.main(["build", "--dist", str(tmp_path / "dist")]) == 2
    err = capsys.readouterr().err
    assert "boom" in err and "Traceback" not in err


def test_shared_values_are_defined_once():
    """Isolation headers and the CSP come from werkbank.offline; the bundles get the engine's settings at build time."""
    from graders.engine import settings
    from werkbank import assets, offline, serve

    assert serve.ISOLATION_HEADERS is offline.ISOLATION_HEADERS
    assert all(offline.SITE_HEADERS[k] == v for k, v in offline.ISOLATION_HEADERS.items())
    define = assets.defines()[0]
    assert define.startswith("--define:SETTINGS=") and json.loads(define.split("=", 1)[1]) == settings.for_web()
    sw = (vendor.REPO_ROOT / "web" / "src" / "sw.js").read_text(encoding="utf-8")
    assert "Cross-Origin-Embedder-Policy" not in sw  # sw.js gets them from the build literal


def test_a_broken_reference_builds_but_the_build_and_serve_say_so(tmp_path, monkeypatch, capsys):
    """A checkpoint whose reference fails is built (its Check tells the learner the grader is broken, as `werkbank
    grade` does), but the author hears it at once: one line per checkpoint from `werkbank build`, and from `werkbank
    serve --watch` in the terminal and on the page (its build event carries them)."""
    import shutil

    from werkbank import build as build_mod, cli, watch
    from werkbank.lessons import load_lesson_folder

    demo = Path(__file__).resolve().parents[1] / "exercises" / "_micropip-demo"
    lesson_folder = tmp_path / "exercises" / "demo"
    shutil.copytree(demo, lesson_folder)
    (lesson_folder / "01-decode-link" / "solution.py").write_text(
        "def decode_link(text):\n    raise TypeError('bug in the reference')\n", encoding="utf-8"
    )
    broken: list[str] = []
    build_mod.write_grading(tmp_path / "dist", [load_lesson_folder(lesson_folder)], {}, author_errors=broken)
    assert len(broken) == 1, broken
    assert broken[0].startswith("micropip-demo checkpoint 1 (en): every Check says the grader is broken: ")
    assert "TypeError" in broken[0] and "werkbank check micropip-demo" in broken[0]
    good: list[str] = []
    build_mod.write_grading(tmp_path / "dist", [load_lesson_folder(demo)], {}, author_errors=good)
    assert good == []

    monkeypatch.setattr(build_mod, "build", lambda *args, **kwargs: broken)
    assert cli.main(["build", "--dist", str(tmp_path / "dist")]) == 0  # built all the same
    assert f"werkbank build: author error: {broken[0]}" in capsys.readouterr().err
    state = watch.BuildState()
    assert watch.rebuild(tmp_path / "dist", state, quiet=True)
    assert f"werkbank serve: author error: {broken[0]}" in capsys.readouterr().err
    assert json.loads(state.event().decode().split("data: ", 1)[1])["broken"] == broken
    assert "author errors" in watch.LIVE_JS and "state.broken" in watch.LIVE_JS
