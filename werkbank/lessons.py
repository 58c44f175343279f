"""Lessons as data: load and validate ``exercises/*/lesson.toml`` and the files beside it.

Ids come from ``lesson.toml`` only. A folder may be renamed freely; nothing here derives an id from a folder name,
a file position or a class name. Every problem with a lesson file raises :class:`LessonError`, which names the file
and says what is wrong, so an author sees a clear message instead of a traceback.
"""

from __future__ import annotations

import difflib
import os
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

import graders.engine  # binds ``graders`` too: its ``__path__`` is where lesson grader packages are found
from graders.engine.settings import LANGUAGES  # defined once, for the engine, the build and the site

#: The lessons folder: the repository's ``exercises/``, or ``$WERKBANK_EXERCISES`` when set (tests, authors' drafts).
EXERCISES = Path(os.environ.get("WERKBANK_EXERCISES") or Path(__file__).resolve().parent.parent / "exercises")
#: A folder of lesson grader packages beside the repository's ``graders/``: ``$WERKBANK_GRADERS`` when set (tests,
#: authors' drafts; `werkbank new` writes a new lesson's package there). Its packages import as ``graders.<package>``.
GRADERS_FOLDER = os.environ.get("WERKBANK_GRADERS") or None


def add_graders_folder(folder) -> None:
    """Find lesson grader packages (``graders.<package>``) in ``folder`` too, after the repository's ``graders/``."""
    folder = str(Path(folder).resolve())
    if folder not in graders.__path__:
        graders.__path__.append(folder)


def graders_folders() -> list[Path]:
    """Where ``graders.<package>`` is looked for, in order: the repository's ``graders/``, then any added folder."""
    return [Path(entry) for entry in graders.__path__]


def grader_root(module: str) -> Path:
    """The folder of :func:`graders_folders` that holds the package of grader module ``module``
    (``graders.<package>.<module>``); the repository's ``graders/`` when none does."""
    package = module.split(".")[1] if module.count(".") >= 1 else ""
    for folder in graders_folders():
        if package and (folder / package).is_dir():
            return folder
    return graders_folders()[0]


if GRADERS_FOLDER:
    add_graders_folder(GRADERS_FOLDER)

_ID = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
_MODULE = re.compile(r"^graders(?:\.[a-z_][a-z0-9_]*)+$")
#: A checkpoint id: it names the checkpoint in page addresses, stored progress and the prose's checkpoint slots.
_CHECKPOINT_ID = re.compile(r"^[a-z0-9][a-z0-9-]*$")
#: An exact pin of an extra package, ``name==version``: defined once, in the vendoring code, and used here too.
from werkbank.vendor.wheels import PIN  # noqa: E402

#: The schema of ``lesson.toml``: every key a table may hold, and the type of its value. Anything else is an error
#: with a "did you mean" (a misspelled key must never be ignored silently).
LESSON_KEYS = {
    "id": str,
    "languages": list,
    "listed": bool,
    "order": int,
    "minutes": int,
    "level": str,
    "requirements": list,
    "text": dict,
    "checkpoints": list,
}
#: A lesson's level (``level = "basic"``), shown on the home page and the lesson's header; ``order`` is the suggested
#: order of the listed lessons, so it should rise with the level.
LEVELS = ("basic", "intermediate", "advanced")
TEXT_KEYS = {
    "title": str,
    "summary": str,
    "prerequisites": str,
    "goals": list,
    "takeaways": list,
    "further_reading": str,
    "sources": list,
}
CHECKPOINT_KEYS = {"id": str, "folder": str, "grader": str, "entry": list, "plot": str, "needs": list, "title": dict}
#: Where alternative correct solutions live: ``tests/data/<lesson-id>/alt_<checkpoint>_<style>.py`` (the checkpoint
#: may be written ``1``, ``01`` or ``cp1``). ``check`` and ``make test`` require every one of them to pass.
TESTS_DATA = EXERCISES.parent / "tests" / "data"
_ALT = re.compile(r"^alt_(?:cp)?0*(\d+)_[A-Za-z0-9_]+\.py$")


class LessonError(ValueError):
    """A lesson's files are invalid. The message names the file and the problem."""


def did_you_mean(word: str, choices) -> str:
    """`` (did you mean 'x'?)`` when ``word`` is close to one of ``choices``, else ``""``."""
    close = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else ""


def read_text(path: Path) -> str:
    """An author's file as text. It must be UTF-8: otherwise a :class:`LessonError` names the file, the line and the
    first byte that is not (an editor that saved Latin-1 or UTF-16), instead of a traceback. What editors add on
    some systems means nothing here and is dropped: a byte-order mark at the start, Windows (CRLF) and old Mac (CR)
    line ends, so every rule and the build see the same text whatever saved it."""
    data = Path(path).read_bytes()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        raise LessonError(
            f"{rel(path)}:{line}: not UTF-8 text (byte 0x{data[error.start]:02x} at offset {error.start});"
            " save the file as UTF-8"
        ) from None
    return text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n")


def rel(path: Path) -> str:
    """``path`` relative to the working folder (or the repository) when it is inside it, else in full: short
    messages whose file names open from where the command ran (a draft under ``$WERKBANK_EXERCISES`` elsewhere is
    named by its whole path, not as if it were under the repository's ``exercises/``)."""
    path = Path(path)
    for base in (Path.cwd(), Path(__file__).resolve().parent.parent):
        try:
            return path.resolve().relative_to(base.resolve()).as_posix()
        except ValueError:
            continue
    return str(path)


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
    """A known wrong solution, what it must produce when graded, and what a learner who makes it is told.

    Two forms: ``mistakes/<name>.py``, a whole program, or ``mistakes/<name>.diff``, a patch of ``solution.py``
    (unified-diff hunks, matched by their lines, not their line numbers), so the file shows only what is wrong.
    Both start with ``#`` header lines: ``mistake:``, ``expect-fail:`` or ``expect-status:``, and optionally
    ``feedback.<lang>:`` (one line of markdown per language).
    """

    path: Path
    description: str
    expect_fail: str | None
    expect_status: str | None
    feedback: dict = field(default_factory=dict)
    body: str = ""  # the program (.py) or the hunks (.diff), header lines removed
    solution_path: Path | None = None

    @property
    def name(self) -> str:
        """The mistake's name: its file name without the suffix."""
        return self.path.stem

    @property
    def is_patch(self) -> bool:
        return self.path.suffix in PATCH_SUFFIXES

    def source(self) -> str:
        """The complete wrong program: the file itself, or ``solution.py`` with the patch applied."""
        if not self.is_patch:
            return read_text(self.path)
        if self.solution_path is None or not self.solution_path.is_file():
            raise LessonError(f"{rel(self.path)}: a patch needs {rel(self.solution_path or self.path.parent)}")
        return apply_patch(read_text(self.solution_path), self.body, self.path)


@dataclass(frozen=True)
class Alternative:
    """An alternative correct solution (``tests/data/<lesson-id>/alt_<checkpoint>_<style>.py``): it must pass."""

    path: Path
    checkpoint_id: str

    def source(self) -> str:
        return read_text(self.path)


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
        path = self.folder / f"{stem}.{lang}{suffix}"
        if not path.is_file():
            raise LessonError(
                f"{rel(path)}: missing: write the {stem} in {lang} (every language of a lesson is "
                "complete; nothing falls back to another language)"
            )
        return read_text(path)

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
        return read_text(path) if path.is_file() else ""

    def starter_path(self, lang: str) -> Path:
        """``starter.<lang>.py`` when the checkpoint has translated starters, else the one ``starter.py``."""
        translated = self.folder / f"starter.{lang}.py"
        if translated.is_file() or any(self.folder.glob("starter.*.py")):
            return translated
        return self.folder / "starter.py"

    def starter(self, lang: str) -> str:
        """The starter code, translated when ``starter.<lang>.py`` files exist."""
        path = self.starter_path(lang)
        if not path.is_file():
            raise LessonError(
                f"{rel(path)}: missing: write the starter (starter.py, or one starter.<lang>.py per language)"
            )
        return read_text(path)

    @property
    def solution_path(self) -> Path:
        """Where the reference solution lives (a contract: ``<checkpoint-folder>/solution.py``)."""
        return self.folder / "solution.py"

    def solution(self) -> str:
        """The reference solution's source."""
        if not self.solution_path.is_file():
            raise LessonError(
                f"{rel(self.solution_path)}: missing: write the reference solution (the graders "
                "compute every expected value with it)"
            )
        return read_text(self.solution_path)

    def mistake_paths(self) -> list[Path]:
        """The files in ``mistakes/`` that declare a mistake (``*.py``, ``*.diff``, ``*.patch``), sorted by name."""
        folder = self.folder / "mistakes"
        if not folder.is_dir():
            return []
        return sorted(p for p in folder.iterdir() if p.is_file() and p.suffix in (".py", *PATCH_SUFFIXES))

    def mistakes(self) -> list[Mistake]:
        """The declared mistakes in ``mistakes/`` (``*.py`` and ``*.diff``), sorted by file name."""
        return [parse_mistake(path, self.solution_path) for path in self.mistake_paths()]

    def mistake(self, name: str) -> Mistake:
        """The declared mistake called ``name`` (its file name without the suffix), or :class:`LessonError`."""
        for m in self.mistakes():
            if m.name == name:
                return m
        known = ", ".join(m.name for m in self.mistakes()) or "none"
        raise LessonError(f"{rel(self.folder / 'mistakes')}: no mistake {name!r} (there are: {known})")

    def mistake_feedback(self) -> list[dict]:
        """The grading bundle's data for showing a learner what a known mistake means: every declared mistake
        with feedback, as ``{"name", "expect_fail", "expect_status", "feedback": {lang: markdown}, "parts": {lang:
        inline parts}, "source"}`` (``source``: the complete wrong program, a patch already applied, so the engine can
        run it on the case a learner failed and compare outcomes, as futurecoder's message steps do; ``parts``: the
        feedback as :func:`werkbank.markdown.inline_parts` reads it, which the verdict shows as code, emphasis and
        links; markdown it refuses is shown as written, and ``werkbank check`` names it)."""
        from werkbank.markdown import MarkdownError, inline_parts  # markdown builds on this module

        found = []
        for path in self.mistake_paths():
            try:
                m = parse_mistake(path, self.solution_path)
                if not m.feedback:
                    continue
                source = m.source()
            except LessonError:
                # a header that does not parse, a patch that no longer applies: `werkbank check` names it once, and
                # the checkpoint is graded without this mistake's feedback (not as a broken grader)
                continue
            parts = {}
            for lang, text in m.feedback.items():
                try:
                    parts[lang] = inline_parts(text)
                except MarkdownError:
                    parts[lang] = [{"text": text}]
            found.append(
                {
                    "name": m.name,
                    "expect_fail": m.expect_fail,
                    "expect_status": m.expect_status,
                    "feedback": dict(m.feedback),
                    "parts": parts,
                    "source": source,
                }
            )
        return found

    def alternatives(self) -> list[Alternative]:
        """Alternative correct solutions of this checkpoint under ``tests/data/<lesson-id>/``."""
        return [alt for alt in lesson_alternatives(self.lesson_id) if alt.checkpoint_id == self.id]


def lesson_alternatives(lesson_id: str) -> list[Alternative]:
    """Every ``tests/data/<lesson-id>/alt_*.py``, with the checkpoint id its name gives (``""`` when it gives none)."""
    folder = TESTS_DATA / lesson_id
    found = []
    for path in sorted(folder.glob("alt_*.py")) if folder.is_dir() else []:
        match = _ALT.match(path.name)
        found.append(Alternative(path, str(int(match.group(1))) if match else ""))
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
    level: str = ""

    def prose(self, lang: str) -> str:
        """The lesson's prose (markdown) in ``lang``."""
        path = self.folder / f"prose.{lang}.md"
        if not path.is_file():
            raise LessonError(
                f"{rel(path)}: missing: write the lesson text in {lang} (languages = {list(self.languages)})"
            )
        return read_text(path)

    def checkpoint(self, checkpoint_id: str) -> Checkpoint:
        """The checkpoint with this id, or :class:`LessonError`."""
        for cp in self.checkpoints:
            if cp.id == str(checkpoint_id):
                return cp
        known = ", ".join(cp.id for cp in self.checkpoints)
        raise LessonError(f"lesson {self.id!r} has no checkpoint {checkpoint_id!r} (it has: {known})")


# --- mistakes ----------------------------------------------------------------------------------------------------

PATCH_SUFFIXES = (".diff", ".patch")
MISTAKE_KEYS = ("mistake", "expect-fail", "expect-status", "feedback")
_FEEDBACK = re.compile(r"^feedback\.([a-z]{2})$")


def parse_mistake(path: Path, solution_path: Path | None = None) -> Mistake:
    """Read a mistake file's header: ``# mistake: …``, ``# expect-fail: <case>`` or ``# expect-status: …``, and
    any ``# feedback.<lang>: …``. For a patch (``.diff``), the rest of the file is its hunks."""
    description = expect_fail = expect_status = None
    feedback: dict[str, str] = {}
    where = rel(path)
    try:
        lines = read_text(path).splitlines(keepends=True)
    except (OSError, UnicodeDecodeError) as error:
        raise LessonError(f"{where}: cannot be read: {error}") from None
    patch = path.suffix in PATCH_SUFFIXES
    body_start = 0
    for number, line in enumerate(lines, 1):
        if not line.startswith("#") or (patch and not re.match(r"^#\s*[a-z][a-z.-]*\s*:", line)):
            break
        body_start = number
        key, sep, value = line[1:].partition(":")
        key, value = key.strip().lower(), value.strip()
        if not sep:
            continue  # a plain comment
        if key == "mistake":
            description = value
        elif key == "expect-fail":
            expect_fail = value
        elif key == "expect-status":
            expect_status = value
        elif _FEEDBACK.match(key):
            lang = _FEEDBACK.match(key).group(1)
            if lang not in LANGUAGES:
                raise LessonError(f"{where}:{number}: feedback language {lang!r} is not one of {', '.join(LANGUAGES)}")
            feedback[lang] = value
        elif key == "feedback":
            raise LessonError(f"{where}:{number}: write the feedback's language: '# feedback.en: …'")
        elif re.fullmatch(r"[a-z][a-z.-]*", key) and (patch or did_you_mean(key, MISTAKE_KEYS)):
            raise LessonError(
                f"{where}:{number}: unknown header {key!r}{did_you_mean(key, MISTAKE_KEYS)}; "
                "the header keys are mistake, expect-fail, expect-status and feedback.<lang>"
            )
    if not description:
        raise LessonError(f"{where}: the first lines must declare '# mistake: <what is wrong>'")
    if (expect_fail is None) == (expect_status is None):
        raise LessonError(f"{where}: declare exactly one of '# expect-fail: <case id>' or '# expect-status: <status>'")
    if expect_status is not None and expect_status not in {"fail", "error", "timeout"}:
        raise LessonError(f"{where}: expect-status must be fail, error or timeout, not {expect_status!r}")
    body = "".join(lines[body_start:]) if patch else ""
    if patch:
        parse_hunks(body, path)  # a malformed patch is reported when the lesson loads
    return Mistake(path, description, expect_fail, expect_status, feedback, body, solution_path)


@dataclass(frozen=True)
class Hunk:
    old: list[str]
    new: list[str]
    start: int | None  # 1-based line in the old file from "@@ -start,…", when given
    line: int  # where the hunk starts in the patch file (for messages)


def parse_hunks(body: str, path: Path) -> list[Hunk]:
    """The hunks of a patch: ``@@`` lines (line numbers optional), then lines starting with ``' '`` (context),
    ``-`` (removed) or ``+`` (added). An empty line counts as an empty context line. ``---``/``+++`` file lines
    and ``\\ No newline`` markers are ignored."""
    hunks: list[Hunk] = []
    old: list[str] | None = None
    new: list[str] = []
    start = None
    first = 0
    offset = 0
    lines = body.splitlines()
    for number, line in enumerate(lines, 1):
        if old is None and (line.startswith(("--- ", "+++ ", "diff ", "index ")) or not line.strip()):
            continue
        if line.startswith("@@"):
            if old is not None:
                hunks.append(Hunk(old, new, start, first))
            old, new, first = [], [], number
            found = re.match(r"^@@ -(\d+)", line)
            start = int(found.group(1)) if found else None
            continue
        if old is None:
            raise LessonError(
                f"{rel(path)}: a patch starts with '@@' after its '#' header lines; line "
                f"{number + offset} is {line[:40]!r}"
            )
        if line.startswith("\\"):
            continue
        tag, text = (line[:1], line[1:]) if line else (" ", "")
        if tag == " ":
            old.append(text)
            new.append(text)
        elif tag == "-":
            old.append(text)
        elif tag == "+":
            new.append(text)
        else:
            raise LessonError(f"{rel(path)}: hunk line {line[:40]!r} must start with ' ', '-' or '+'")
    if old is not None:
        hunks.append(Hunk(old, new, start, first))
    if not hunks:
        raise LessonError(
            f"{rel(path)}: the patch has no hunk: after the header, write '@@' and the lines to "
            "change ('-' removed, '+' added, ' ' context)"
        )
    for hunk in hunks:
        while hunk.old and hunk.new and hunk.old[-1] == "" and hunk.new[-1] == "":  # trailing blank lines
            hunk.old.pop()
            hunk.new.pop()
        if hunk.old == hunk.new:
            raise LessonError(f"{rel(path)}: the hunk at '@@' #{hunks.index(hunk) + 1} changes nothing")
        if not hunk.old:
            raise LessonError(
                f"{rel(path)}: the hunk at '@@' #{hunks.index(hunk) + 1} has no context or '-' line "
                "to place it: add the line above the insertion as context"
            )
    return hunks


def apply_patch(solution: str, body: str, path: Path) -> str:
    """``solution`` with the hunks of ``body`` applied. A hunk's old lines must occur in the solution exactly once
    (or, when they occur more often, at the line number its ``@@ -N`` gives)."""
    lines = solution.splitlines()
    trailing = solution.endswith("\n")
    shift = 0
    for index, hunk in enumerate(parse_hunks(body, path), 1):
        size = len(hunk.old)
        spots = [i for i in range(len(lines) - size + 1) if lines[i : i + size] == hunk.old]
        if not spots:
            loose = [
                i
                for i in range(len(lines) - size + 1)
                if [x.strip() for x in lines[i : i + size]] == [x.strip() for x in hunk.old]
            ]
            why = " (it differs only in indentation)" if loose else ""
            missing = next((x for x in hunk.old if x not in lines), hunk.old[0])
            raise LessonError(
                f"{rel(path)}: hunk {index} does not match solution.py{why}: the line {missing.strip()!r} "
                "is not there as written; update the patch to the current solution.py"
            )
        if len(spots) > 1:
            wanted = (hunk.start - 1 + shift) if hunk.start else None
            if wanted not in spots:
                raise LessonError(
                    f"{rel(path)}: hunk {index} matches solution.py {len(spots)} times (lines "
                    f"{', '.join(str(i + 1) for i in spots)}): add context lines, or '@@ -N @@' with "
                    "the right line"
                )
            spots = [wanted]
        at = spots[0]
        lines[at : at + size] = hunk.new
        shift += len(hunk.new) - size
    return "\n".join(lines) + ("\n" if trailing else "")


def make_patch(solution: str, wrong: str, header: str = "") -> str:
    """A patch (the ``.diff`` mistake format) that turns ``solution`` into ``wrong``: ``header`` lines, then hunks
    with two lines of context and no line numbers unless a hunk would be ambiguous."""
    old, new = solution.splitlines(), wrong.splitlines()
    out = [header.rstrip("\n")] if header else []
    for group in difflib.SequenceMatcher(None, old, new, autojunk=False).get_grouped_opcodes(2):
        first = group[0][1]
        out.append(f"@@ -{first + 1} @@")
        for tag, i1, i2, j1, j2 in group:
            if tag == "equal":
                out += [" " + x for x in old[i1:i2]]
                continue
            out += ["-" + x for x in old[i1:i2]]
            out += ["+" + x for x in new[j1:j2]]
    return "\n".join(out) + "\n"


# --- lesson.toml ---------------------------------------------------------------------------------------------------


def line_of(text: str, key: str, after: int = 0) -> int | None:
    """The line (1-based) where ``key =`` is first written at or after line ``after``."""
    pattern = re.compile(rf"^\s*{re.escape(key)}\s*=|^\s*\[{re.escape(key)}[\].]|^\s*\[\[{re.escape(key)}\]\]")
    for number, line in enumerate(text.splitlines(), 1):
        if number >= after and pattern.match(line):
            return number
    return None


def _checkpoint_line(text: str, index: int) -> int:
    """The line of the ``index``-th ``[[checkpoints]]`` header (0-based), or 0."""
    seen = -1
    for number, line in enumerate(text.splitlines(), 1):
        if line.strip() == "[[checkpoints]]":
            seen += 1
            if seen == index:
                return number
    return 0


class TomlPlace:
    """Formats ``lesson.toml:LINE: message`` for a key."""

    def __init__(self, path: Path, text: str):
        self.path, self.text = path, text

    def __call__(self, key: str | None = None, after: int = 0) -> str:
        line = line_of(self.text, key, after) if key else None
        return f"{rel(self.path)}:{line}" if line else rel(self.path)


def _check_keys(table: dict, schema: dict, where: TomlPlace, section: str, after: int = 0) -> None:
    for key, value in table.items():
        if key not in schema:
            raise LessonError(
                f"{where(key, after)}: unknown key {key!r} in {section}{did_you_mean(key, schema)}; "
                f"the keys are: {', '.join(schema)}"
            )
        kind = schema[key]
        if not isinstance(value, kind) or (isinstance(value, bool) and kind is int):
            raise LessonError(
                f"{where(key, after)}: {section} {key!r} must be a {_TYPE_NAMES[kind]}, not {type(value).__name__}"
            )


_TYPE_NAMES = {str: "string", list: "list", bool: "boolean (true or false)", int: "whole number", dict: "table"}


def _need(table: dict, key: str, where: TomlPlace, section: str, after: int = 0):
    if key not in table:
        raise LessonError(f"{where()}: {section} is missing the key {key!r}")
    return table[key]


def _strings(value, key: str, where: TomlPlace, after: int = 0) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
        raise LessonError(f"{where(key, after)}: {key!r} must be a list of non-empty strings")
    return tuple(value)


def load_lesson_folder(folder: Path) -> Lesson:
    """Load and validate one lesson folder's ``lesson.toml`` (the files beside it are checked by ``werkbank check``)."""
    path = folder / "lesson.toml"
    try:
        source = read_text(path)
        data = tomllib.loads(source)
    except FileNotFoundError:
        raise LessonError(f"{rel(path)}: missing") from None
    except tomllib.TOMLDecodeError as error:
        raise LessonError(f"{rel(path)}: not valid TOML: {error}") from None
    where = TomlPlace(path, source)
    _check_keys(data, LESSON_KEYS, where, "lesson.toml")
    lesson_id = _need(data, "id", where, "lesson.toml")
    if not _ID.match(lesson_id):
        raise LessonError(f"{where('id')}: id {lesson_id!r} must be lowercase words joined by '-'")
    languages = _strings(_need(data, "languages", where, "lesson.toml"), "languages", where)
    for lang in languages:
        if lang not in LANGUAGES:
            raise LessonError(
                f"{where('languages')}: language {lang!r} is not one of {', '.join(LANGUAGES)}"
                f"{did_you_mean(lang, LANGUAGES)}"
            )
    level = data.get("level", "")
    if level and level not in LEVELS:
        raise LessonError(
            f"{where('level')}: level {level!r} is not one of {', '.join(LEVELS)}{did_you_mean(level, LEVELS)}"
        )
    requirements = _strings(data["requirements"], "requirements", where) if data.get("requirements") else ()
    for pin in requirements:
        if not PIN.match(pin):
            raise LessonError(
                f"{where('requirements')}: requirement {pin!r} must be pinned as name==version (like 'six==1.16.0')"
            )
    texts = {}
    text_table = _need(data, "text", where, "lesson.toml")
    for lang in text_table:
        if lang not in languages:
            raise LessonError(
                f"{where('text.' + lang)}: [text.{lang}] is not one of the lesson's languages "
                f"({', '.join(languages)}){did_you_mean(lang, languages)}"
            )
    for lang in languages:
        table = text_table.get(lang)
        if not isinstance(table, dict):
            raise LessonError(f"{where()}: missing [text.{lang}]: every language of 'languages' needs its texts")
        after = line_of(source, f"text.{lang}") or 0
        _check_keys(table, TEXT_KEYS, where, f"[text.{lang}]", after)
        texts[lang] = LessonText(
            title=_need(table, "title", where, f"[text.{lang}]"),
            summary=_need(table, "summary", where, f"[text.{lang}]"),
            prerequisites=table.get("prerequisites", ""),
            goals=_strings(table["goals"], "goals", where, after) if table.get("goals") else (),
            takeaways=_strings(table["takeaways"], "takeaways", where, after) if table.get("takeaways") else (),
            further_reading=table.get("further_reading", ""),
            sources=_strings(table["sources"], "sources", where, after) if table.get("sources") else (),
        )
    checkpoints = []
    for index, raw in enumerate(_need(data, "checkpoints", where, "lesson.toml")):
        after = _checkpoint_line(source, index)
        section = f"checkpoint #{index + 1}"
        if not isinstance(raw, dict):
            raise LessonError(f"{where('checkpoints')}: checkpoints must be [[checkpoints]] tables")
        _check_keys(raw, CHECKPOINT_KEYS, where, section, after)
        cp_id = _need(raw, "id", where, section)
        if not isinstance(cp_id, str) or not _CHECKPOINT_ID.match(cp_id):
            raise LessonError(
                f"{where('id', after)}: {section}: checkpoint id {cp_id!r} must be lowercase letters, digits and '-' "
                "(it names the checkpoint in addresses, storage and the prose's checkpoint slots: '1', '2', 'lookup')"
            )
        section = f"checkpoint {cp_id!r}"
        if any(cp.id == cp_id for cp in checkpoints):
            raise LessonError(f"{where('id', after)}: checkpoint id {cp_id!r} is used twice")
        cp_folder = folder / _need(raw, "folder", where, section)
        if not cp_folder.is_dir():
            others = [p.name for p in folder.iterdir() if p.is_dir()]
            raise LessonError(
                f"{where('folder', after)}: {section}: folder {cp_folder.name!r} does not exist"
                f"{did_you_mean(cp_folder.name, others)}"
            )
        grader = _need(raw, "grader", where, section)
        if not _MODULE.match(grader):
            raise LessonError(
                f"{where('grader', after)}: {section}: grader {grader!r} must be a module path under "
                "graders. (like 'graders.my_lesson.first_step')"
            )
        title = raw.get("title", {})
        missing = [lang for lang in languages if not isinstance(title.get(lang), str)]
        if missing:
            raise LessonError(
                f"{where('title', after) if 'title' in raw else where('id', after)}: {section}: "
                f'title missing for {", ".join(missing)} (add [checkpoints.title] {missing[0]} = "…")'
            )
        extra = [lang for lang in title if lang not in languages]
        if extra:
            raise LessonError(
                f"{where(extra[0], after)}: {section}: a title in {extra[0]!r}, which is not one of the lesson's "
                f"languages ({', '.join(languages)}){did_you_mean(extra[0], languages)}: remove it, or add the "
                "language to languages (with every text in it)"
            )
        entry = _strings(_need(raw, "entry", where, section, after), "entry", where, after)
        if not entry:
            raise LessonError(
                f"{where('entry', after)}: {section}: entry is empty: name the functions or classes the learner "
                'defines (entry = ["my_function"])'
            )
        needs = _strings(raw["needs"], "needs", where, after) if raw.get("needs") else ()
        unknown_needs = [n for n in needs if n not in {cp.id for cp in checkpoints}]
        if unknown_needs:
            raise LessonError(
                f"{where('needs', after)}: {section}: needs {unknown_needs} must name earlier checkpoints"
            )
        checkpoints.append(
            Checkpoint(
                lesson_id=lesson_id,
                id=cp_id,
                folder=cp_folder,
                grader=grader,
                entry=entry,
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
        listed=data.get("listed", True),
        order=data.get("order", 100),
        minutes=data.get("minutes", 0),
        level=level,
        requirements=requirements,
        text=texts,
        checkpoints=tuple(checkpoints),
    )


def lesson_folders(root: Path = EXERCISES) -> list[Path]:
    """Every folder under ``root`` with a ``lesson.toml``."""
    return [p.parent for p in sorted(Path(root).glob("*/lesson.toml"))]


def load_all(root: Path = EXERCISES) -> list[Lesson]:
    """Every lesson under ``root``, sorted by ``order`` then id. Duplicate ids are an error."""
    lessons = [load_lesson_folder(folder) for folder in lesson_folders(root)]
    seen: dict[str, Path] = {}
    for lesson in lessons:
        if lesson.id in seen:
            raise LessonError(
                f"lesson id {lesson.id!r} is declared twice: {rel(seen[lesson.id])} and {rel(lesson.folder)}"
            )
        seen[lesson.id] = lesson.folder
    return sorted(lessons, key=lambda lesson: (lesson.order, lesson.id))


def load_lesson(lesson_id: str, root: Path = EXERCISES) -> Lesson:
    """The lesson with this id, or :class:`LessonError` listing the known ids."""
    lessons = load_all(root)
    for lesson in lessons:
        if lesson.id == lesson_id:
            return lesson
    raise LessonError(unknown_lesson(lesson_id, [lesson.id for lesson in lessons], root))


def unknown_lesson(lesson_id: str, known, root: Path) -> str:
    """The message for a lesson id no lesson in ``root`` has: the close ids, the known ones, and where lessons are
    read from (an author with a draft elsewhere sets ``$WERKBANK_EXERCISES``)."""
    if os.environ.get("WERKBANK_EXERCISES"):
        where = f"{root} ($WERKBANK_EXERCISES)"
        tip = ""
    else:
        where = rel(root) + "/"
        tip = "; set $WERKBANK_EXERCISES to read lessons from another folder"
    known = sorted(known)
    return (
        f"no lesson with id {lesson_id!r}{did_you_mean(lesson_id, known)} in {where} "
        f"(known: {', '.join(known) or 'none'}){tip}"
    )
