"""Lessons as data: load and validate ``exercises/*/lesson.toml`` and the files beside it.

Ids come from ``lesson.toml`` only. A folder may be renamed freely; nothing here derives an id from a folder name,
a file position or a class name. Every problem with a lesson file raises :class:`LessonError`, which names the file
and says what is wrong, so an author sees a clear message instead of a traceback.
"""

from __future__ import annotations

import os
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from graders.engine.settings import LANGUAGES  # defined once, for the engine, the build and the site

#: The lessons folder: the repository's ``exercises/``, or ``$WERKBANK_EXERCISES`` when set (tests, authors' drafts).
EXERCISES = Path(os.environ.get("WERKBANK_EXERCISES") or Path(__file__).resolve().parent.parent / "exercises")

_ID = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
_MODULE = re.compile(r"^graders(?:\.[a-z_][a-z0-9_]*)+$")
_PIN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*==[0-9][A-Za-z0-9.+!-]*$")
_LESSON_TEXT_KEYS = {"title", "summary", "prerequisites", "goals", "takeaways", "further_reading", "sources"}


class LessonError(ValueError):
    """A lesson's files are invalid. The message names the file and the problem."""


@dataclass(frozen=True)
class LessonText:
    """The texts of a lesson in one language."""

    title: str
    summary: str
    prerequisites: str
    goals: tuple[str, ...]
    takeaways: tuple[str, ...]
    further_reading: str
    sources: tuple[str, ...]


@dataclass(frozen=True)
class Mistake:
    """A known wrong solution and what it must produce when graded."""

    path: Path
    description: str
    expect_fail: str | None
    expect_status: str | None


@dataclass(frozen=True)
class Checkpoint:
    """One graded exercise of a lesson."""

    lesson_id: str
    id: str
    folder: Path
    grader: str
    entry: tuple[str, ...]
    plot: str
    title: dict[str, str]
    languages: tuple[str, ...]
    needs: tuple[str, ...] = ()

    def _text(self, stem: str, lang: str, suffix: str) -> str:
        for name in (f"{stem}.{lang}{suffix}", f"{stem}.{self.languages[0]}{suffix}", f"{stem}{suffix}"):
            path = self.folder / name
            if path.is_file():
                return path.read_text(encoding="utf-8")
        raise LessonError(f"{self.folder}: no {stem}.{lang}{suffix} (nor a fallback)")

    def task(self, lang: str) -> str:
        """The task text (markdown) in ``lang``."""
        return self._text("task", lang, ".md")

    def hint(self, lang: str) -> str:
        """The hint file (markdown) in ``lang``: 2-3 hints separated by lines holding only ``---``."""
        return self._text("hint", lang, ".md")

    def hints(self, lang: str) -> list[str]:
        """The hints in ``lang``, from gentle to specific (markdown each)."""
        from werkbank.markdown import split_hints  # markdown builds on this module

        return split_hints(self.hint(lang), str(self.folder / f"hint.{lang}.md"))

    def example(self, lang: str) -> str:
        """The example snippet in ``lang`` (``example.<lang>.py``): Run executes it after the learner's module and
        shows the value of its last line. Empty when the checkpoint has none."""
        path = self.folder / f"example.{lang}.py"
        return path.read_text(encoding="utf-8") if path.is_file() else ""

    def starter(self, lang: str) -> str:
        """The starter code, translated when ``starter.<lang>.py`` exists."""
        return self._text("starter", lang, ".py")

    @property
    def solution_path(self) -> Path:
        """Where the reference solution lives (a contract: ``<checkpoint-folder>/solution.py``)."""
        return self.folder / "solution.py"

    def solution(self) -> str:
        """The reference solution's source."""
        return self.solution_path.read_text(encoding="utf-8")

    def mistakes(self) -> list[Mistake]:
        """The declared mistakes in ``mistakes/*.py``, sorted by file name."""
        found = []
        for path in sorted((self.folder / "mistakes").glob("*.py")):
            found.append(parse_mistake(path))
        return found


@dataclass(frozen=True)
class Lesson:
    """A lesson: its metadata, texts per language and checkpoints."""

    id: str
    folder: Path
    languages: tuple[str, ...]
    listed: bool
    order: int
    minutes: int
    requirements: tuple[str, ...]
    text: dict[str, LessonText]
    checkpoints: tuple[Checkpoint, ...] = field(default=())

    def prose(self, lang: str) -> str:
        """The lesson's prose (markdown) in ``lang``."""
        path = self.folder / f"prose.{lang}.md"
        if not path.is_file():
            raise LessonError(f"{path}: missing")
        return path.read_text(encoding="utf-8")

    def checkpoint(self, checkpoint_id: str) -> Checkpoint:
        """The checkpoint with this id, or :class:`LessonError`."""
        for cp in self.checkpoints:
            if cp.id == str(checkpoint_id):
                return cp
        known = ", ".join(cp.id for cp in self.checkpoints)
        raise LessonError(f"lesson {self.id!r} has no checkpoint {checkpoint_id!r} (it has: {known})")


def parse_mistake(path: Path) -> Mistake:
    """Read a mistake file's header: ``# mistake: …`` and ``# expect-fail: <case>`` or ``# expect-status: …``."""
    description = expect_fail = expect_status = None
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.startswith("#"):
            break
        key, _, value = line[1:].partition(":")
        key, value = key.strip().lower(), value.strip()
        if key == "mistake":
            description = value
        elif key == "expect-fail":
            expect_fail = value
        elif key == "expect-status":
            expect_status = value
    if not description:
        raise LessonError(f"{path}: the first lines must declare '# mistake: <what is wrong>'")
    if (expect_fail is None) == (expect_status is None):
        raise LessonError(f"{path}: declare exactly one of '# expect-fail: <case id>' or '# expect-status: <status>'")
    if expect_status is not None and expect_status not in {"fail", "error", "timeout"}:
        raise LessonError(f"{path}: expect-status must be fail, error or timeout, not {expect_status!r}")
    return Mistake(path, description, expect_fail, expect_status)


def _need(table: dict, key: str, kind: type | tuple, where: Path):
    if key not in table:
        raise LessonError(f"{where}: missing key {key!r}")
    value = table[key]
    if not isinstance(value, kind) or isinstance(value, bool) and kind is int:
        raise LessonError(f"{where}: {key!r} has the wrong type ({type(value).__name__})")
    return value


def _strings(value, key: str, where: Path) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
        raise LessonError(f"{where}: {key!r} must be a list of non-empty strings")
    return tuple(value)


def load_lesson_folder(folder: Path) -> Lesson:
    """Load and validate one lesson folder."""
    where = folder / "lesson.toml"
    try:
        data = tomllib.loads(where.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise LessonError(f"{where}: missing") from None
    except tomllib.TOMLDecodeError as error:
        raise LessonError(f"{where}: not valid TOML: {error}") from None
    lesson_id = _need(data, "id", str, where)
    if not _ID.match(lesson_id):
        raise LessonError(f"{where}: id {lesson_id!r} must be lowercase words joined by '-'")
    languages = _strings(_need(data, "languages", list, where), "languages", where)
    for lang in languages:
        if lang not in LANGUAGES:
            raise LessonError(f"{where}: language {lang!r} is not one of {', '.join(LANGUAGES)}")
    requirements = _strings(data.get("requirements", []), "requirements", where) if data.get("requirements") else ()
    for pin in requirements:
        if not _PIN.match(pin):
            raise LessonError(f"{where}: requirement {pin!r} must be pinned as name==version")
    texts = {}
    text_table = _need(data, "text", dict, where)
    for lang in languages:
        table = text_table.get(lang)
        if not isinstance(table, dict):
            raise LessonError(f"{where}: missing [text.{lang}]")
        unknown = set(table) - _LESSON_TEXT_KEYS
        if unknown:
            raise LessonError(f"{where}: [text.{lang}] has unknown keys {sorted(unknown)}")
        texts[lang] = LessonText(
            title=_need(table, "title", str, where),
            summary=_need(table, "summary", str, where),
            prerequisites=table.get("prerequisites", ""),
            goals=_strings(table.get("goals", []), "goals", where) if table.get("goals") else (),
            takeaways=_strings(table.get("takeaways", []), "takeaways", where) if table.get("takeaways") else (),
            further_reading=table.get("further_reading", ""),
            sources=_strings(table.get("sources", []), "sources", where) if table.get("sources") else (),
        )
    checkpoints = []
    for raw in _need(data, "checkpoints", list, where):
        cp_id = str(_need(raw, "id", str, where))
        if any(cp.id == cp_id for cp in checkpoints):
            raise LessonError(f"{where}: checkpoint id {cp_id!r} is used twice")
        cp_folder = folder / _need(raw, "folder", str, where)
        if not cp_folder.is_dir():
            raise LessonError(f"{where}: checkpoint {cp_id!r}: folder {cp_folder.name!r} does not exist")
        grader = _need(raw, "grader", str, where)
        if not _MODULE.match(grader):
            raise LessonError(f"{where}: checkpoint {cp_id!r}: grader {grader!r} must be a module path under graders.")
        title = raw.get("title", {})
        missing = [lang for lang in languages if not isinstance(title.get(lang), str)]
        if missing:
            raise LessonError(f"{where}: checkpoint {cp_id!r}: title missing for {', '.join(missing)}")
        needs = _strings(raw.get("needs", []), "needs", where) if raw.get("needs") else ()
        unknown_needs = [n for n in needs if n not in {cp.id for cp in checkpoints}]
        if unknown_needs:
            raise LessonError(f"{where}: checkpoint {cp_id!r}: needs {unknown_needs} must name earlier checkpoints")
        checkpoints.append(
            Checkpoint(
                lesson_id=lesson_id,
                id=cp_id,
                folder=cp_folder,
                grader=grader,
                entry=_strings(raw.get("entry", []), "entry", where) if raw.get("entry") else (),
                plot=raw.get("plot", ""),
                title=dict(title),
                languages=languages,
                needs=needs,
            )
        )
    return Lesson(
        id=lesson_id,
        folder=folder,
        languages=languages,
        listed=bool(data.get("listed", True)),
        order=int(data.get("order", 100)),
        minutes=int(data.get("minutes", 0)),
        requirements=requirements,
        text=texts,
        checkpoints=tuple(checkpoints),
    )


def load_all(root: Path = EXERCISES) -> list[Lesson]:
    """Every lesson under ``root``, sorted by ``order`` then id. Duplicate ids are an error."""
    lessons = [load_lesson_folder(p.parent) for p in sorted(root.glob("*/lesson.toml"))]
    seen: dict[str, Path] = {}
    for lesson in lessons:
        if lesson.id in seen:
            raise LessonError(f"lesson id {lesson.id!r} is declared twice: {seen[lesson.id]} and {lesson.folder}")
        seen[lesson.id] = lesson.folder
    return sorted(lessons, key=lambda lesson: (lesson.order, lesson.id))


def load_lesson(lesson_id: str, root: Path = EXERCISES) -> Lesson:
    """The lesson with this id, or :class:`LessonError` listing the known ids."""
    lessons = load_all(root)
    for lesson in lessons:
        if lesson.id == lesson_id:
            return lesson
    known = ", ".join(lesson.id for lesson in lessons) or "none"
    raise LessonError(f"no lesson with id {lesson_id!r} (known: {known})")
