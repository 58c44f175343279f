"""A lesson's texts are the project's own: none shares a run of seven words with the documents it comes from.

The sources live beside the repository, in ``../shared`` (CI has them too): the seed lessons (``seeds/*.txt``) and
the course lessons (``upstream/<lesson>/``: their text in ``docs/``, and the questions, answers and explanations of
their quiz). Facts, numbers and function contracts carry over; sentences do not. So every text a learner reads (every
``prose``, ``task`` and ``hint`` file in every language, the ``lesson.toml`` texts, the graders' case texts and the
mistakes' feedback) is compared with every source in runs of :data:`RUN` words, and none may be shared.
``werkbank check`` and ``tests/test_lesson_sources.py`` both run :func:`source_problems`; where the sources are absent
there is nothing to compare with.

What counts as a word: text is NFKC-normalised and case-folded; punctuation separates words and is dropped; Arabic
diacritics and the tatweel are removed, and the spellings of alef, alef maqsura and ta marbuta are unified, so a
copy does not hide behind them. Code is set aside: fenced blocks, inline code spans (signatures, names, values),
``$…$`` mathematics and link targets each end a run instead of joining the words around them.
"""

from __future__ import annotations

import importlib
import json
import re
import unicodedata
from functools import lru_cache
from pathlib import Path

from werkbank.lessons import Lesson, rel

RUN = 7
SHARED = Path(__file__).resolve().parent.parent.parent / "shared"

# What ends a run: a fenced block, an inline code span, $…$ or $$…$$ mathematics, and the target of a link.
_SET_ASIDE = re.compile(r"^(```|~~~).*?^\1[ \t]*$|`+[^`]*`+|\$\$.*?\$\$|\$[^$\n]+\$|\]\([^)\s]*\)", re.S | re.M)
_ARABIC_MARKS = re.compile(r"[\u0610-\u061A\u064B-\u065F\u0670\u06D6-\u06ED\u0640]")
_ARABIC_LETTERS = str.maketrans({"أ": "ا", "إ": "ا", "آ": "ا", "ٱ": "ا", "ى": "ي", "ة": "ه", "ؤ": "و", "ئ": "ي"})
_WORD = re.compile(r"[^\W_]+")


def words(text: str) -> list[list[str]]:
    """The runs of words in ``text`` that code does not interrupt, normalised as the module docstring says."""
    runs = []
    for part in _SET_ASIDE.split(text):
        if not part:
            continue
        part = unicodedata.normalize("NFKC", part).casefold()
        part = _ARABIC_MARKS.sub("", part).translate(_ARABIC_LETTERS)
        found = _WORD.findall(part)
        if found:
            runs.append(found)
    return runs


def shingles(text: str) -> set[tuple[str, ...]]:
    """Every run of :data:`RUN` consecutive words of ``text``."""
    out = set()
    for run in words(text):
        out.update(tuple(run[i : i + RUN]) for i in range(len(run) - RUN + 1))
    return out


def _quiz_texts(path: Path) -> str:
    quiz = json.loads(path.read_text(encoding="utf-8"))
    parts = [quiz.get("title", "")]
    for question in quiz.get("questions", []):
        parts += [question.get("question", ""), *question.get("options", []), question.get("explanation", "")]
    return "\n\n".join(parts)


def sources(shared: Path = SHARED) -> dict[str, str]:
    """Every source document under ``shared``, by its path there: the seeds, and upstream's texts and quizzes."""
    found = {}
    for path in sorted((shared / "seeds").glob("*.txt")):
        found[str(path.relative_to(shared))] = path.read_text(encoding="utf-8")
    for path in sorted((shared / "upstream").glob("*/docs/*.md")):
        found[str(path.relative_to(shared))] = path.read_text(encoding="utf-8")
    for path in sorted((shared / "upstream").glob("*/quiz.json")):
        found[str(path.relative_to(shared))] = _quiz_texts(path)
    return found


@lru_cache(maxsize=4)
def source_shingles(shared: Path = SHARED) -> dict[tuple[str, ...], str] | None:
    """Every run of the sources, with the source it comes from; None when the seeds or the upstream lessons are not
    beside the repository (nothing to compare with)."""
    found = sources(shared)
    if not any(n.startswith("seeds/") for n in found) or not any(n.startswith("upstream/") for n in found):
        return None
    out: dict[tuple[str, ...], str] = {}
    for name, text in found.items():
        for shingle in shingles(text):
            out.setdefault(shingle, name)
    return out


def lesson_texts(lesson: Lesson):
    """(where, text) of everything a learner of ``lesson`` reads in words, in every language; ``where`` names the
    file (and, inside it, the text)."""
    from graders.engine.prepare import collect_cases
    from werkbank.check import grader_path

    toml = rel(lesson.folder / "lesson.toml")
    for lang in lesson.languages:
        yield rel(lesson.folder / f"prose.{lang}.md"), lesson.prose(lang)
        text = lesson.text[lang]
        fields = [
            text.title,
            text.summary,
            text.prerequisites,
            text.further_reading,
            *text.goals,
            *text.takeaways,
            *text.sources,
        ]
        yield f"{toml}: [text.{lang}]", "\n\n".join(field for field in fields if field)
    for cp in lesson.checkpoints:
        for lang in lesson.languages:
            yield rel(cp.folder / f"task.{lang}.md"), cp.task(lang)
            yield rel(cp.folder / f"hint.{lang}.md"), cp.hint(lang)
        grader = importlib.import_module(cp.grader)
        for case in collect_cases(grader, 0, lesson.languages[0]):
            for lang in lesson.languages:
                said = [case.explain.get(lang, ""), (case.hint or {}).get(lang, "")]
                yield f"{rel(grader_path(cp.grader))}: case {case.id} ({lang})", "\n\n".join(said)
        for mistake in cp.mistakes():
            for lang, feedback in (mistake.feedback or {}).items():
                yield f"{rel(mistake.path)}: feedback.{lang}", feedback


def source_problems(lesson: Lesson, shared: Path = SHARED) -> list[str]:
    """One line per run of seven words a text of ``lesson`` shares with a source ([] without the sources)."""
    known = source_shingles(shared)
    if known is None:
        return []
    problems = []
    for where, text in lesson_texts(lesson):
        for shingle in sorted(shingles(text) & known.keys()):
            problems.append(
                f"{where}: shares seven words in a row with {known[shingle]}: {' '.join(shingle)!r}; "
                "write it anew, in the project's own words"
            )
    return problems
