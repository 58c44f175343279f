"""The interface every host module offers (see :mod:`graders.hosts`).

A :class:`typing.Protocol`, so a host satisfies it by its shape and never imports this module: the browser's host
(:mod:`graders.hosts.pyodide`) is imported while a learner worker boots, before anything has loaded ``typing``.
``tests/test_hosts.py`` checks that both hosts have this signature and give the same result for the same run.
"""

from __future__ import annotations

from typing import Callable, Optional, Protocol, runtime_checkable

#: ``on_output(stream, text)``: ``stream`` is "stdout" or "stderr"; ("truncated", "") when the output limit cut it.
OnOutput = Callable[[str, str], None]


@runtime_checkable
class Host(Protocol):
    """A place where learner code runs (a host module satisfies this with a module-level ``run``)."""

    def run(self, source: str, plan: dict, *, on_output: Optional[OnOutput] = None) -> dict:
        """Run ``source`` under ``plan`` and return the run result (``status``, ``stdout``, ``stderr``,
        ``outcomes``, ...) as plain data. Never raises for what the learner's code does; a run over the plan's time
        limit is ``{"status": "timeout", ...}``. ``on_output`` receives output while the code runs, where the host can
        stream it."""
        ...
