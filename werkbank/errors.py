"""The one error base class of the build: :class:`WerkbankError`.

Every failure the build can explain (a missing tool, a bad download, a broken lesson, a failing esbuild or bytecode
compiler) raises a subclass with a readable message; ``werkbank`` (the CLI) catches this class and prints the
message instead of a traceback. Anything else reaching the CLI is a bug.
"""

from __future__ import annotations


class WerkbankError(Exception):
    """A build or tooling problem with a message meant for the person running the command."""
