"""Hosts: where a learner's code runs. The engine core (``graders.engine``) knows nothing about them.

Every host module offers one interface, :class:`graders.hosts.interface.Host` (as micropip keeps its host-specific
code behind one ``CompatibilityLayer``)::

    run(source: str, plan: dict, *, on_output=None) -> dict

It executes ``source`` under ``plan`` (see :func:`graders.engine.runner.run`) and returns the run result as plain
data, never raising for anything the learner's code does. A host enforces the plan's time limit in its own way and
answers ``{"status": "timeout", ...}`` when it is exceeded. ``tests/test_hosts.py`` holds both hosts to it.

- :mod:`graders.hosts.cpython`: a child process per run (CPU-time, wall-clock and memory limits), forked from a
  process that has imported the runner and numpy once; its ``run`` also takes ``time_limit=`` (seconds, instead of
  the plan's). Used by the CLI, ``werkbank check`` and pytest. Never shipped to the browser.
- :mod:`graders.hosts.pyodide`: the current interpreter, inside the site's learner workers; the page enforces the
  time limit by replacing the worker. Its ``run_encoded`` is the learner worker's entry point (the plan and the
  result as UTF-8 JSON).

:mod:`graders.hosts.pyodide_grader` is not a host: it holds the grader worker's entry points (load a lesson, prepare,
judge, plot, shrink), which never run learner code.
"""
