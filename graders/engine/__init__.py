"""The werkbank grading engine.

The same files run unchanged in CPython (pytest, ``werkbank grade``) and in Pyodide (the site's Web Worker). A grade
has three steps, each a plain function over JSON-able data:

1. :func:`graders.engine.prepare.prepare` builds the cases of a checkpoint and computes every expected outcome with
   the reference solution, before any learner code runs.
2. :func:`graders.engine.runner.run` executes the learner's code and records what each call returned or raised, as
   inert data (:mod:`graders.engine.values`). Only the cases' inputs reach this step, never the expected values.
3. :func:`graders.engine.judge.judge` compares the two (:mod:`graders.engine.compare`) and writes the verdict in the
   learner's language (:mod:`graders.engine.messages`).

The host decides where step 2 runs: a subprocess in CPython (:mod:`graders.engine.local`), the worker's interpreter in
the browser (:mod:`graders.engine.bridge`), with the expected values kept outside Python meanwhile.
"""
