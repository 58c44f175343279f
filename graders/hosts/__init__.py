"""Hosts: where a learner's code runs. The engine core (``graders.engine``) knows nothing about them.

A host's ``run`` executes ``source`` under a plan (see :func:`graders.engine.runner.run`) and returns the run
result, never raising for anything the learner's code does. A host enforces the plan's time limit in its own way and
answers ``{"status": "timeout", ...}`` when it is exceeded. The two take the plan and give the result in the form
their callers hold them:

- :mod:`graders.hosts.cpython`: ``run(source, plan: dict, *, on_output=None, time_limit=None) -> dict``, in a child
  process per run (CPU-time, wall-clock and memory limits), forked from a process that has imported the runner and
  numpy once. Used by the CLI, ``werkbank check`` and pytest. Never shipped to the browser.
- :mod:`graders.hosts.pyodide`: ``run(source, plan_json: str, on_output=None) -> str`` (JSON text; ``run_encoded``
  takes and gives UTF-8 bytes), in the current interpreter, inside the site's learner workers; the page enforces the
  time limit by terminating the worker.

The grader worker's entry points (load a lesson, prepare, judge, plot, shrink) are in
:mod:`graders.hosts.pyodide_grader`; it never runs learner code. :func:`current` picks the host of the running
interpreter.
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
