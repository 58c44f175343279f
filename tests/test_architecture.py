"""What may import what: the engine core stands alone, hosts sit on it, tooling sits on both.

- ``graders/engine/`` (the core) imports only the standard library, numpy and its own modules: never
  ``graders.hosts``, a lesson's graders or ``werkbank``.
- ``graders/hosts/`` import the core, never ``werkbank``.
- No module imports another module's private (``_``-prefixed) names.
"""

import ast
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
STDLIB = set(sys.stdlib_module_names)


def _modules(folder):
    return sorted(p for p in (REPO / folder).rglob("*.py") if "__pycache__" not in p.parts)


def _imports(path):
    """(module, names) for every import in ``path``; relative imports are made absolute."""
    package = ".".join(path.relative_to(REPO).with_suffix("").parts[:-1])
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, []
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                module = ".".join([*base, module] if module else base)
            yield module, [alias.name for alias in node.names]


@pytest.mark.parametrize("path", _modules("graders/engine"), ids=lambda p: p.name)
def test_the_core_imports_only_stdlib_numpy_and_itself(path):
    for module, _ in _imports(path):
        top = module.split(".")[0]
        if top == "graders":
            assert module.startswith("graders.engine"), (path.name, module)
        else:
            assert top in STDLIB or top == "numpy", (path.name, module)


@pytest.mark.parametrize("path", _modules("graders/hosts"), ids=lambda p: p.name)
def test_hosts_import_the_core_never_the_tooling(path):
    for module, _ in _imports(path):
        assert not module.startswith(("werkbank", "graders.claims", "graders.perplexity")), (path.name, module)


@pytest.mark.parametrize("path", [*_modules("graders"), *_modules("werkbank")], ids=lambda p: str(p.relative_to(REPO)))
def test_no_module_imports_another_modules_private_names(path):
    for module, names in _imports(path):
        if module.split(".")[0] in ("graders", "werkbank"):
            private = [n for n in names if n.startswith("_") and not n.startswith("__")]
            assert not private, (module, private)
