"""The lessons' texts are the project's own: none shares a run of seven words with the documents they come from.

The sources live beside the repository, in ``../shared`` (CI has them too): the two seed lessons
(``seeds/*.txt``: the Dutch claims lesson, the machine-translated Arabic perplexity lesson) and the course lesson the
Arabic one was translated from (``upstream/<lesson>/``: its text in ``docs/``, and the questions, answers and
explanations of its quiz; the READMEs there describe the folder and are not lesson text). Facts, numbers and
function contracts carry over; sentences do not. So every text a learner reads (every
``prose``, ``task`` and ``hint`` file in every language, the ``lesson.toml`` texts, the graders' case texts and the
mistakes' feedback) is compared with every source in runs of :data:`RUN` words, and none may be shared.

What counts as a word: text is NFKC-normalised and case-folded; punctuation separates words and is dropped; Arabic
diacritics and the tatweel are removed, and the spellings of alef, alef maqsura and ta marbuta are unified, so a
copy does not hide behind them. Code is set aside: fenced blocks, inline code spans (signatures, names, values),
``$…$`` mathematics and link targets each end a run instead of joining the words around them. The test skips, with
a message, only where the sources are absent.
"""

from __future__ import annotations

import importlib
import json
import re
import unicodedata
from functools import lru_cache
from pathlib import Path

import pytest

from graders.engine.prepare import collect_cases
from werkbank.lessons import load_all

RUN = 7
REPO = Path(__file__).resolve().parent.parent
SHARED = REPO.parent / "shared"
LESSONS = load_all()

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
        out.update(tuple(run[i:i + RUN]) for i in range(len(run) - RUN + 1))
    return out


def _quiz_texts(path: Path) -> str:
    quiz = json.loads(path.read_text(encoding="utf-8"))
    parts = [quiz.get("title", "")]
    for question in quiz.get("questions", []):
        parts += [question.get("question", ""), *question.get("options", []), question.get("explanation", "")]
    return "\n\n".join(parts)


def _sources() -> dict[str, str]:
    """Every source document under ../shared, by its path there: the seeds, and upstream's texts and quiz."""
    found = {}
    for path in sorted((SHARED / "seeds").glob("*.txt")):
        found[str(path.relative_to(SHARED))] = path.read_text(encoding="utf-8")
    for path in sorted((SHARED / "upstream").glob("*/docs/*.md")):
        found[str(path.relative_to(SHARED))] = path.read_text(encoding="utf-8")
    for path in sorted((SHARED / "upstream").glob("*/quiz.json")):
        found[str(path.relative_to(SHARED))] = _quiz_texts(path)
    return found


@lru_cache(maxsize=1)
def source_shingles() -> dict[tuple[str, ...], str]:
    """Every run of the sources, with the source it comes from; skips when the sources are not beside the repo."""
    sources = _sources()
    if not any(name.startswith("seeds/") for name in sources) or not any(name.startswith("upstream/")
                                                                         for name in sources):
        pytest.skip(f"the seeds and the upstream lesson are not in {SHARED} (seeds/*.txt, upstream/*/docs/*.md): "
                    "nothing to compare the lesson texts with")
    out: dict[tuple[str, ...], str] = {}
    for name, text in sources.items():
        for shingle in shingles(text):
            out.setdefault(shingle, name)
    return out


def _lesson_texts(lesson):
    """(name, text) of everything a learner of ``lesson`` reads in words, in every language."""
    for lang in lesson.languages:
        yield f"prose.{lang}.md", lesson.prose(lang)
        text = lesson.text[lang]
        fields = [text.title, text.summary, text.prerequisites, text.further_reading, *text.goals,
                  *text.takeaways, *text.sources]
        yield f"lesson.toml [text.{lang}]", "\n\n".join(field for field in fields if field)
    for cp in lesson.checkpoints:
        for lang in lesson.languages:
            yield f"{cp.folder.name}/task.{lang}.md", cp.task(lang)
            yield f"{cp.folder.name}/hint.{lang}.md", cp.hint(lang)
        grader = importlib.import_module(cp.grader)
        for case in collect_cases(grader, 0, lesson.languages[0]):
            for lang in lesson.languages:
                said = [case.explain.get(lang, ""), (case.hint or {}).get(lang, "")]
                yield f"{cp.grader} case {case.id} ({lang})", "\n\n".join(said)
        for mistake in cp.mistakes():
            for lang, feedback in (mistake.feedback or {}).items():
                yield f"{cp.folder.name}/mistakes/{mistake.name} feedback ({lang})", feedback


def test_a_run_of_seven_words_is_found_where_it_is_copied_and_not_across_code():
    """The comparison itself: a copied sentence is found through case, punctuation and Arabic spelling changes;
    the same words split by inline code or a code block are not a run."""
    source = "Een hallucinatie is hier een feitelijke bewering die onjuist of ongegrond is."
    assert shingles("EEN Hallucinatie, is hier: een feitelijke bewering!") & shingles(source)
    assert not shingles("een hallucinatie is `hier` een feitelijke bewering") & shingles(source)
    assert not shingles("een hallucinatie is\n```\nhier\n```\neen feitelijke bewering") & shingles(source)
    arabic = "يُعامل التنفيذ حالات الحافة الصفرية للبرمجة ويؤكد أن احتمالات"
    assert shingles(arabic.replace("ُ", "").replace("أ", "ا")) == shingles(arabic)
    assert len(shingles("one two three four five six")) == 0 and len(shingles("1 2 3 4 5 6 7 8")) == 2


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.id)
def test_no_lesson_text_shares_seven_words_in_a_row_with_a_source(lesson):
    known = source_shingles()
    shared = []
    for name, text in _lesson_texts(lesson):
        for shingle in sorted(shingles(text) & known.keys()):
            shared.append(f"{name}: {' '.join(shingle)!r} (also in {known[shingle]})")
    assert shared == [], "write these anew, in the project's own words:\n" + "\n".join(shared)
