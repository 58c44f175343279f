"""The code's style is enforced, with pinned tools: ruff (lint and format, configured in pyproject.toml) for Python,
Biome (lint and format, biome.json) for JavaScript. `make format` fixes what can be fixed automatically."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _run(*command: str) -> subprocess.CompletedProcess:
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=300)


def test_python_passes_ruff_lint_and_format():
    ruff = str(Path(sys.executable).with_name("ruff"))
    lint = _run(ruff, "check", "--no-cache", ".")
    assert lint.returncode == 0, lint.stdout + lint.stderr
    layout = _run(ruff, "format", "--no-cache", "--check", ".")
    assert layout.returncode == 0, f"{layout.stdout}{layout.stderr}\nrun: make format"


def test_javascript_passes_biome_lint_and_format():
    biome = str(ROOT / "node_modules" / ".bin" / "biome")
    result = _run(biome, "ci", "--error-on-warnings", "--colors=off", ".")
    assert result.returncode == 0, f"{result.stdout}{result.stderr}\nrun: make format"
