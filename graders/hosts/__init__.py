"""Hosts: where a learner's code runs. The engine core (``graders.engine``) knows nothing about them.

Every host offers the same interface, in the way micropip keeps its host-specific code behind one module::

    run(source: str, plan: dict, *, on_output=None) -> dict

It executes ``source`` under ``plan`` (see :func:`graders.engine.runner.run`) and returns the run result as plain
data, never raising for anything the learner's code does. A host enforces the plan's time limit in its own way and
answers ``{"status": "timeout", ...}`` when it is exceeded.

- :mod:`graders.hosts.cpython`: a child process per run (CPU-time, wall-clock and memory limits), forked from a
  process that has imported the runner and numpy once. Used by the CLI, ``werkbank check`` and pytest. Never
  shipped to the browser.
- :mod:`graders.hosts.pyodide`: the current interpreter, inside the site's Web Workers; the page enforces the time
  limit by interrupting or replacing the worker. It also holds the grader worker's JSON entry points.

:func:`current` picks the host of the running interpreter.
"""

from __future__ import annotations

import sys


def current():
    """The host module for this interpreter: Pyodide in the browser (or Node), CPython elsewhere."""
    if sys.platform == "emscripten":
        from . import pyodide as host
    else:
        from . import cpython as host
    return host
