"""The Pyodide host: the functions the site's Web Workers call, JSON strings in and out.

The worker keeps the lesson's grading bundle (grader modules and reference solutions) and every prepared checkpoint
in JavaScript. They enter Python only inside :func:`prepare`, which loads them through an in-memory importer, computes
the expected outcomes, and removes every trace again (modules, importer, reference) before it returns. Learner code
therefore runs with no grader module importable or in memory; :func:`judge` then compares in a restored interpreter.
"""

from __future__ import annotations

import gc
import importlib.abc
import importlib.util
import json
import sys

from graders.engine import runner
from graders.engine.case import AuthorError
from graders.engine.judge import author_error, judge as _judge, plot_data
from graders.engine.prepare import prepare as _prepare


class _MemoryImporter(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Imports the modules of a grading bundle from source text held in a dict."""

    def __init__(self, files: dict):
        self.files = files

    def _path(self, name: str):
        base = name.replace(".", "/")
        for candidate, package in ((base + "/__init__.py", True), (base + ".py", False)):
            if candidate in self.files:
                return candidate, package
        return None, False

    def find_spec(self, name, path=None, target=None):
        if not name.startswith("graders.") or _engine_module(name):
            return None
        filename, package = self._path(name)
        if filename is None:
            return None
        return importlib.util.spec_from_loader(name, self, origin="<grading bundle>", is_package=package)

    def create_module(self, spec):
        return None

    def exec_module(self, module):
        filename, package = self._path(module.__name__)
        if package:
            module.__path__ = []
        exec(compile(self.files[filename], f"<grading bundle>/{filename}", "exec"), module.__dict__)


def _engine_module(name: str) -> bool:
    return name in ("graders", "graders.engine", "graders.hosts") or name.startswith(("graders.engine.",
                                                                                      "graders.hosts."))


def _scrub() -> None:
    for name in list(sys.modules):
        if (name.startswith("graders.") and not _engine_module(name)) or name == "reference_solution":
            module = sys.modules.pop(name)
            parent_name, _, child = name.rpartition(".")
            parent = sys.modules.get(parent_name)
            if parent is not None and getattr(parent, child, None) is module:
                delattr(parent, child)  # the import system binds submodules on their parent package
    sys.meta_path[:] = [f for f in sys.meta_path if not isinstance(f, _MemoryImporter)]
    importlib.invalidate_caches()
    gc.collect()


def prepare(lesson_json: str, checkpoint: str, seed: int) -> str:
    """Prepare a checkpoint of the lesson whose bundle is ``lesson_json``; returns the prepared JSON (with the
    expected outcomes: keep it out of Python while learner code runs)."""
    bundle = json.loads(lesson_json)
    checkpoint = str(checkpoint)
    importer = _MemoryImporter(bundle.get("files", {}))
    sys.meta_path.insert(0, importer)
    try:
        meta = bundle["checkpoints"][checkpoint]
        grader = importlib.import_module(meta["grader"])
        prepared = _prepare(grader, bundle["solutions"][checkpoint], lesson=bundle.get("lesson"),
                            checkpoint=checkpoint, seed=int(seed),
                            plot=meta.get("plot", ""))
        return json.dumps(prepared)
    except AuthorError as error:
        return json.dumps({"author_error": str(error)})
    except Exception as error:
        return json.dumps({"author_error": f"{type(error).__name__}: {error}"})
    finally:
        del importer, bundle
        _scrub()


def run(source: str, plan_json: str, on_output=None) -> str:
    """Run learner code under a plan (``{"mode": "run"}`` or a prepared ``plan``) in this interpreter; returns the
    run JSON. The host interface of :mod:`graders.hosts`, with JSON text in and out for the worker."""
    return json.dumps(runner.run(source, json.loads(plan_json), on_output))


def judge(prepared_json: str, run_json: str, lang: str) -> str:
    """Compare a run with its prepared checkpoint (the whole prepared JSON, or just its ``key``); returns the
    verdict JSON."""
    prepared = json.loads(prepared_json)
    if "author_error" in prepared:
        return json.dumps(author_error(prepared["author_error"], lang))
    return json.dumps(_judge(prepared, json.loads(run_json), lang))


def plot(prepared_json: str, run_json: str) -> str:
    """The checkpoint's plot data for a run (``null`` when the checkpoint has none), as JSON."""
    prepared = json.loads(prepared_json)
    if "author_error" in prepared:
        return "null"
    return json.dumps(plot_data(prepared, json.loads(run_json)))


async def install_requirements(lesson_json: str, base_url: str) -> str:
    """Install the lesson's vendored pure-Python wheels with micropip, offline. Returns the installed names."""
    bundle = json.loads(lesson_json)
    requirements = bundle.get("requirements") or []
    if not requirements:
        return "[]"
    import micropip  # loaded by the worker with pyodide.loadPackage("micropip")

    urls = [base_url.rstrip("/") + "/" + item["file"] for item in requirements]
    await micropip.install(urls, deps=False)
    return json.dumps([item["name"] for item in requirements])
