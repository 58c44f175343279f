"""A grading case: one call of the learner's code, described as data."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .settings import FALLBACK_LANGUAGE, LANGUAGES

_CASE_ID = re.compile(r"^[a-z0-9]+(?:[-_.][a-z0-9]+)*$")
_CALL = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*$")


class AuthorError(Exception):
    """The grader or the reference solution is wrong; never the learner's failure."""


@dataclass(frozen=True)
class Case:
    """One call of the learner's code whose outcome must match the reference's.

    ``call`` names a function of the learner's module, or a dotted path such as ``"PerplexityResult.from_token_nll"``.
    ``args``/``kwargs`` are deep-copied for every call. ``explain`` and ``hint`` map language codes (nl, en, ar) to
    short texts; ``title`` optionally gives the short label a learner sees for the case (by default the first sentence
    of ``explain``). ``message`` is an optional regular expression that the message of an expected exception must match;
    without it only the exception class counts. With ``forbid_warnings`` any warning the learner's call emits fails the
    case.
    """

    id: str
    call: str
    args: tuple = ()
    kwargs: dict = field(default_factory=dict)
    explain: dict = field(default_factory=dict)
    hint: dict = field(default_factory=dict)
    message: str | None = None
    forbid_warnings: bool = False
    title: dict = field(default_factory=dict)

    def validate(self) -> None:
        """Raise :class:`AuthorError` when the case is malformed."""
        if not isinstance(self.id, str) or not _CASE_ID.match(self.id):
            raise AuthorError(f"case id {self.id!r} must be lowercase letters, digits and '-'")
        if not isinstance(self.call, str) or not _CALL.match(self.call):
            raise AuthorError(f"case {self.id}: call {self.call!r} must be a name or a dotted path")
        if not isinstance(self.args, tuple):
            raise AuthorError(f"case {self.id}: args must be a tuple, got {type(self.args).__name__}")
        if not isinstance(self.kwargs, dict) or not all(isinstance(k, str) for k in self.kwargs):
            raise AuthorError(f"case {self.id}: kwargs must be a dict with str keys")
        for name, table in (("explain", self.explain), ("hint", self.hint), ("title", self.title)):
            if not isinstance(table, dict) or not all(isinstance(v, str) for v in table.values()):
                raise AuthorError(f"case {self.id}: {name} must map languages to strings")
            unknown = set(table) - set(LANGUAGES)
            if unknown:
                raise AuthorError(f"case {self.id}: {name} has unknown languages {sorted(unknown)}")
        if not self.explain.get(FALLBACK_LANGUAGE):
            raise AuthorError(f"case {self.id}: explain needs at least an {FALLBACK_LANGUAGE!r} text")
        if self.message is not None:
            try:
                re.compile(self.message)
            except re.error as error:
                raise AuthorError(f"case {self.id}: message is not a valid regex: {error}") from None
