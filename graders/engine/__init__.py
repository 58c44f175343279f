"""The werkbank grading engine.

The same files run unchanged in CPython (pytest, ``werkbank grade``) and in Pyodide (the site's Web Worker). A grade
has three steps, each a plain function over JSON-able data:

1. :func:`graders.engine.prepare.prepare` builds the cases of a checkpoint and computes every expected outcome with
   the reference solution, before any learner code runs.
2. :func:`graders.engine.runner.run` executes the learner's code and records what each call returned or raised, as
   inert data (:mod:`graders.engine.values`). Only the cases' inputs reach this step, never the expected values.
3. :func:`graders.engine.judge.judge` compares the two (:mod:`graders.engine.compare`) and writes the verdict in the
   learner's language (:mod:`graders.engine.i18n`).

This package is the core: standard library and numpy only, no knowledge of lessons on disk, the command line or the
browser. A host (:mod:`graders.hosts`) decides where step 2 runs: a child process in CPython
(:mod:`graders.hosts.cpython`), a Web Worker's interpreter in the browser (:mod:`graders.hosts.pyodide`). Shared limits
and languages live in :mod:`graders.engine.settings`, messages in ``catalog/`` (:mod:`graders.engine.i18n`).
"""
