"""``werkbank new LESSON_ID --lang en,nl``: a lesson that passes ``werkbank check`` at once.

It writes ``exercises/<id>/`` (lesson.toml, prose per language, three checkpoints with task, hint, example,
starter, solution and one declared mistake each, as a patch with feedback) and ``graders/<package>/`` (one grader
module per checkpoint with one curated case). The lesson starts unlisted (``listed = false``): it is built and
playable at ``lessons/<id>/<lang>.html`` but not on the home page until its author lists it (then ``check`` also
asks for 8 declared mistakes per checkpoint). Every text is a placeholder to replace; the code is a small working
example of the conventions (validation raising ValueError, numpy, a patch mistake with feedback).
"""

from __future__ import annotations

import re
from pathlib import Path

from graders.engine.settings import LANGUAGES
from werkbank.lessons import (
    EXERCISES,
    GRADERS_FOLDER,
    LessonError,
    did_you_mean,
    lesson_folders,
    load_lesson_folder,
    rel,
)

REPO_ROOT = Path(__file__).resolve().parent.parent
_ID = re.compile(r"^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$")


class ScaffoldError(ValueError):
    """The lesson cannot be scaffolded; the message says why and what to do."""


# Placeholder texts per language: {key: {lang: text}}.
T = {
    "summary": {
        "en": "One or two sentences for the home page: what the learner can do afterwards.",
        "nl": "Een of twee zinnen voor de startpagina: wat de lerende daarna kan.",
        "ar": "جملة أو جملتان للصفحة الرئيسية: ما يستطيعه المتعلم بعد الدرس.",
    },
    "prerequisites": {
        "en": "Python functions and lists.",
        "nl": "Python-functies en lijsten.",
        "ar": "دوال Python والقوائم.",
    },
    "goal": {
        "en": "You compute a mean, a variance and standard scores, and raise ValueError for empty input.",
        "nl": "Je berekent een gemiddelde, een variantie en standaardscores, en gooit ValueError bij lege invoer.",
        "ar": "تحسب المتوسط والتباين والدرجات المعيارية، وترفع ValueError عند الإدخال الفارغ.",
    },
    "takeaway": {"en": "Replace this takeaway.", "nl": "Vervang deze kernpunt.", "ar": "استبدل هذه الخلاصة."},
    "intro": {
        "en": "Replace this text: explain the idea, with a worked example, before each checkpoint.",
        "nl": "Vervang deze tekst: leg het idee uit, met een uitgewerkt voorbeeld, vóór elk checkpoint.",
        "ar": "استبدل هذا النص: اشرح الفكرة بمثال محلول قبل كل نقطة تحقق.",
    },
    "cp1": {"en": "The mean", "nl": "Het gemiddelde", "ar": "المتوسط"},
    "cp2": {"en": "The variance", "nl": "De variantie", "ar": "التباين"},
    "cp3": {"en": "Standard scores", "nl": "Standaardscores", "ar": "الدرجات المعيارية"},
    "task1": {
        "en": "Write `mean(values)`: the arithmetic mean of a list of numbers. An empty list raises `ValueError`.",
        "nl": "Schrijf `mean(values)`: het rekenkundig gemiddelde van een lijst getallen. Een lege lijst geeft "
        "`ValueError`.",
        "ar": "اكتب `mean(values)`: المتوسط الحسابي لقائمة أعداد. القائمة الفارغة ترفع `ValueError`.",
    },
    "task2": {
        "en": "Write `variance(values)`: the population variance (divide by the number of values) as a "
        "float, with numpy. An empty list raises `ValueError`.",
        "nl": "Schrijf `variance(values)`: de populatievariantie (deel door het aantal waarden) als float, met "
        "numpy. Een lege lijst geeft `ValueError`.",
        "ar": "اكتب `variance(values)`: تباين المجتمع (القسمة على عدد القيم) كعدد float باستخدام numpy. "
        "القائمة الفارغة ترفع `ValueError`.",
    },
    "task3": {
        "en": "Write `zscores(values)`: a numpy array with `(x - mean) / std` for every value, using the "
        "population standard deviation. When every value is the same, raise `ValueError`.",
        "nl": "Schrijf `zscores(values)`: een numpy-array met `(x - gemiddelde) / std` voor elke waarde, met de "
        "populatiestandaardafwijking. Zijn alle waarden gelijk, gooi dan `ValueError`.",
        "ar": "اكتب `zscores(values)`: مصفوفة numpy فيها `(x - المتوسط) / std` لكل قيمة، بالانحراف المعياري "
        "للمجتمع. إذا تساوت كل القيم فارفع `ValueError`.",
    },
    "hint1": {
        "en": "Add the values up and divide by how many there are.\n\n---\n\n`sum(values) / len(values)`; check "
        "`if not values:` first.",
        "nl": "Tel de waarden op en deel door hoeveel het er zijn.\n\n---\n\n`sum(values) / len(values)`; kijk "
        "eerst `if not values:`.",
        "ar": "اجمع القيم واقسم على عددها.\n\n---\n\n`sum(values) / len(values)`؛ وتحقق أولًا `if not values:`.",
    },
    "hint2": {
        "en": "The variance is the mean of the squared distances to the mean.\n\n---\n\n"
        "`float(np.var(np.asarray(values, dtype=float)))`",
        "nl": "De variantie is het gemiddelde van de gekwadrateerde afstanden tot het gemiddelde.\n\n---\n\n"
        "`float(np.var(np.asarray(values, dtype=float)))`",
        "ar": "التباين هو متوسط مربعات البعد عن المتوسط.\n\n---\n\n`float(np.var(np.asarray(values, dtype=float)))`",
    },
    "hint3": {
        "en": "Subtract the mean, then divide by the standard deviation.\n\n---\n\n`np.std` divides by n, "
        "as asked; a standard deviation of 0 means every value is the same.",
        "nl": "Trek het gemiddelde af en deel dan door de standaardafwijking.\n\n---\n\n`np.std` deelt door n, "
        "zoals gevraagd; een standaardafwijking van 0 betekent dat alle waarden gelijk zijn.",
        "ar": "اطرح المتوسط ثم اقسم على الانحراف المعياري.\n\n---\n\n`np.std` يقسم على n كما هو مطلوب؛ "
        "والانحراف المعياري 0 يعني أن كل القيم متساوية.",
    },
    "explain1": {
        "en": "Three values, 1, 2 and 6: their mean is 3.0.",
        "nl": "Drie waarden, 1, 2 en 6: hun gemiddelde is 3.0.",
        "ar": "ثلاث قيم 1 و2 و6: متوسطها 3.0.",
    },
    "explain2": {
        "en": "Four values 1, 2, 3, 4: the population variance is 1.25.",
        "nl": "Vier waarden 1, 2, 3, 4: de populatievariantie is 1.25.",
        "ar": "أربع قيم 1 و2 و3 و4: تباين المجتمع 1.25.",
    },
    "explain3": {
        "en": "2, 4, 4, 4, 5, 5, 7, 9: mean 5, standard deviation 2, so 2 becomes -1.5.",
        "nl": "2, 4, 4, 4, 5, 5, 7, 9: gemiddelde 5, standaardafwijking 2, dus 2 wordt -1.5.",
        "ar": "2، 4، 4، 4، 5، 5، 7، 9: المتوسط 5 والانحراف المعياري 2، فتصبح 2 هي -1.5.",
    },
    "mistake1": {
        "en": "Divide by how many values there are, `len(values)`, not by a fixed number.",
        "nl": "Deel door het aantal waarden, `len(values)`, niet door een vast getal.",
        "ar": "اقسم على عدد القيم `len(values)`، لا على عدد ثابت.",
    },
    "mistake2": {
        "en": "The population variance divides by n: `np.var` without `ddof=1`.",
        "nl": "De populatievariantie deelt door n: `np.var` zonder `ddof=1`.",
        "ar": "تباين المجتمع يقسم على n: استخدم `np.var` دون `ddof=1`.",
    },
    "mistake3": {
        "en": "Divide by the standard deviation, not by the variance.",
        "nl": "Deel door de standaardafwijking, niet door de variantie.",
        "ar": "اقسم على الانحراف المعياري، لا على التباين.",
    },
}

CHECKPOINTS = [
    {
        "id": "1",
        "folder": "01-mean",
        "module": "mean",
        "entry": "mean",
        "case": "three-values",
        "args": "([1.0, 2.0, 6.0],)",
        "example": "mean([1.0, 2.0, 6.0])",
        "signature": "mean(values) -> float",
        "shows": "3.0",
        "solution": '''def mean(values):
    """The arithmetic mean of a non-empty list of numbers."""
    if not values:
        raise ValueError("the mean of an empty list is not defined")
    return sum(values) / len(values)
''',
        "starter": '''def mean(values):
    """The arithmetic mean of a non-empty list of numbers; ValueError when it is empty."""
    raise NotImplementedError  # replace this line with your code
''',
        "mistake": (
            "divides by 2 instead of the number of values",
            "three-values",
            "-    return sum(values) / len(values)\n+    return sum(values) / 2\n",
        ),
    },
    {
        "id": "2",
        "folder": "02-variance",
        "module": "variance",
        "entry": "variance",
        "case": "four-values",
        "args": "([1.0, 2.0, 3.0, 4.0],)",
        "example": "variance([1.0, 2.0, 3.0, 4.0])",
        "signature": "variance(values) -> float",
        "shows": "1.25",
        "solution": '''import numpy as np


def variance(values):
    """The population variance of a non-empty list of numbers, as a float."""
    if not values:
        raise ValueError("the variance of an empty list is not defined")
    return float(np.var(np.asarray(values, dtype=float)))
''',
        "starter": '''import numpy as np


def variance(values):
    """The population variance (divide by n) of a non-empty list, as a float; ValueError when it is empty."""
    raise NotImplementedError  # replace this line with your code
''',
        "mistake": (
            "the sample variance (divides by n - 1)",
            "four-values",
            "-    return float(np.var(np.asarray(values, dtype=float)))\n"
            "+    return float(np.var(np.asarray(values, dtype=float), ddof=1))\n",
        ),
    },
    {
        "id": "3",
        "folder": "03-zscores",
        "module": "zscores",
        "entry": "zscores",
        "case": "textbook",
        "args": "([2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0],)",
        "example": "zscores([2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0])",
        "signature": "zscores(values) -> numpy.ndarray",
        "shows": "array([-1.5, -0.5, -0.5, -0.5,  0. ,  0. ,  1. ,  2. ])",
        "solution": '''import numpy as np


def zscores(values):
    """(x - mean) / std for every value, with the population standard deviation; ValueError when std is 0."""
    x = np.asarray(values, dtype=float)
    std = x.std()
    if x.size == 0 or std == 0:
        raise ValueError("standard scores need values that differ")
    return (x - x.mean()) / std
''',
        "starter": '''import numpy as np


def zscores(values):
    """A numpy array of (x - mean) / std (population std); ValueError when every value is the same."""
    raise NotImplementedError  # replace this line with your code
''',
        "mistake": (
            "divides by the variance instead of the standard deviation",
            "textbook",
            "-    return (x - x.mean()) / std\n+    return (x - x.mean()) / x.var()\n",
        ),
    },
]


FOLD = {
    "en": (
        "Input rules: what raises `ValueError`",
        "`values` is a `list` of numbers.",
        "Everything the task calls invalid raises `ValueError`.",
    ),
    "nl": (
        "Invoerregels: wat `ValueError` geeft",
        "`values` is een `list` met getallen.",
        "Alles wat de opdracht ongeldig noemt, geeft `ValueError`.",
    ),
    "ar": (
        "قواعد الإدخال: ما الذي يرفع `ValueError`",
        "`values` قائمة `list` من الأعداد.",
        "كل ما تعدّه المهمة غير صالح يرفع `ValueError`.",
    ),
}


def _fold(n: str, lang: str) -> str:
    """The task's foldable list of input rules (replace it with the checkpoint's real rules)."""
    summary, first, last = FOLD[lang]
    return f"::: details {summary}\n- {first}\n- {last}\n:::\n"


def _toml_str(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _package(lesson_id: str) -> str:
    return lesson_id.replace("-", "_")


def scaffold(
    lesson_id: str,
    languages: list[str],
    *,
    title: str | None = None,
    exercises: Path | None = None,
    graders: Path | None = None,
) -> list[str]:
    """Write the new lesson; returns what to tell the author (files written, next steps)."""
    exercises = Path(exercises or EXERCISES)
    graders = Path(graders or GRADERS_FOLDER or REPO_ROOT / "graders")
    if not _ID.match(lesson_id):
        raise ScaffoldError(f"{lesson_id!r} is not a lesson id: use lowercase words joined by '-' (like my-lesson)")
    if not languages:
        raise ScaffoldError("give at least one language: --lang en (or en,nl; the first is the original)")
    for lang in languages:
        if lang not in LANGUAGES:
            raise ScaffoldError(
                f"language {lang!r} is not one of {', '.join(LANGUAGES)}{did_you_mean(lang, LANGUAGES)}"
            )
    if len(set(languages)) != len(languages):
        raise ScaffoldError(f"--lang names a language twice: {','.join(languages)}")
    folder = exercises / lesson_id
    package = _package(lesson_id)
    pkg_dir = graders / package
    if folder.exists():
        raise ScaffoldError(f"{rel(folder)} already exists: choose another id, or remove it first")
    if pkg_dir.exists():
        raise ScaffoldError(f"{rel(pkg_dir)} already exists: choose another id")
    for other in lesson_folders(exercises):
        try:
            if load_lesson_folder(other).id == lesson_id:
                raise ScaffoldError(f"lesson id {lesson_id!r} is already used by {rel(other)}")
        except LessonError:
            continue
    title = title or lesson_id.replace("-", " ").capitalize()
    files: dict[Path, str] = {}
    files[folder / "lesson.toml"] = _lesson_toml(lesson_id, languages, title, package)
    for lang in languages:
        files[folder / f"prose.{lang}.md"] = _prose(lang, title)
    files[pkg_dir / "__init__.py"] = f'"""Hidden graders of the lesson {lesson_id}."""\n'
    for cp in CHECKPOINTS:
        cp_dir = folder / cp["folder"]
        n = cp["id"]
        for lang in languages:
            files[cp_dir / f"task.{lang}.md"] = (
                f"`{cp['signature']}`\n\n```pycon\n>>> {cp['example']}\n{cp['shows']}\n"
                f"```\n\n" + T[f"task{n}"][lang] + "\n\n" + _fold(n, lang)
            )
            files[cp_dir / f"hint.{lang}.md"] = T[f"hint{n}"][lang] + "\n"
            files[cp_dir / f"example.{lang}.py"] = cp["example"] + "\n"
        if "ar" in languages:  # right-to-left lessons keep one starter per language (tests/test_lesson_text.py)
            for lang in languages:
                files[cp_dir / f"starter.{lang}.py"] = cp["starter"]
        else:
            files[cp_dir / "starter.py"] = cp["starter"]
        files[cp_dir / "solution.py"] = cp["solution"]
        what, case, hunk = cp["mistake"]
        feedback = "".join(f"# feedback.{lang}: " + T["mistake" + n][lang] + "\n" for lang in languages)
        files[cp_dir / "mistakes" / "01_first_mistake.diff"] = (
            f"# mistake: {what}\n# expect-fail: {case}\n{feedback}@@\n{hunk}"
        )
        files[pkg_dir / f"{cp['module']}.py"] = _grader(lesson_id, cp, languages)
    for path, text in files.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    first = languages[0]
    return [
        f"wrote {rel(folder)}/ (lesson.toml, prose in {', '.join(languages)}, 3 checkpoints) and {rel(pkg_dir)}/",
        "next:",
        f"  .venv/bin/werkbank check {lesson_id}     # passes now (CPython and Pyodide); keep it passing as you edit",
        f"  .venv/bin/werkbank serve --watch         # then open http://127.0.0.1:8000/lessons/{lesson_id}/{first}.html",
        "  edit the texts, solution.py, graders and mistakes; AUTHORING.md walks through every step and rule",
        "  set listed = true in lesson.toml when every checkpoint has 8 declared mistakes",
    ]


def _lesson_toml(lesson_id: str, languages: list[str], title: str, package: str) -> str:
    out = [
        f"id = {_toml_str(lesson_id)}",
        f"languages = [{', '.join(_toml_str(lang) for lang in languages)}]",
        "listed = false                    # true puts it on the home page (check then wants 8 mistakes each)",
        "order = 100",
        "minutes = 45",
        'requirements = []                 # extra pure-Python packages, pinned: ["six==1.16.0"]',
        "",
    ]
    for lang in languages:
        out += [
            f"[text.{lang}]",
            f"title = {_toml_str(title)}",
            f"summary = {_toml_str(T['summary'][lang])}",
            f"prerequisites = {_toml_str(T['prerequisites'][lang])}",
            f"goals = [{_toml_str(T['goal'][lang])}]",
            f"takeaways = [{_toml_str(T['takeaway'][lang])}]",
            'further_reading = ""',
            "sources = []",
            "",
        ]
    for cp in CHECKPOINTS:
        out += [
            "[[checkpoints]]",
            f"id = {_toml_str(cp['id'])}",
            f"folder = {_toml_str(cp['folder'])}",
            "grader = " + _toml_str(f"graders.{package}." + cp["module"]),
            f"entry = [{_toml_str(cp['entry'])}]",
            "[checkpoints.title]",
        ]
        out += [f"{lang} = {_toml_str(T['cp' + cp['id']][lang])}" for lang in languages]
        out.append("")
    return "\n".join(out)


def _prose(lang: str, title: str) -> str:
    parts = [f"{T['intro'][lang]}\n"]
    for cp in CHECKPOINTS:
        parts.append(f"## {T['cp' + cp['id']][lang]}\n\n{T['intro'][lang]}\n\n```checkpoint {cp['id']}\n```\n")
    return "\n".join(parts)


def _grader(lesson_id: str, cp: dict, languages: list[str]) -> str:
    explain = (
        "{" + ", ".join(f"{_toml_str(lang)}: {_toml_str(T['explain' + cp['id']][lang])}" for lang in languages) + "}"
    )
    entry = cp["entry"]
    return f'''"""Hidden grader: {lesson_id}, checkpoint {cp["id"]} ({cp["entry"]})."""
from graders.engine.case import Case

# TIME_LIMIT = 10.0  # seconds for the learner's whole run, if settings.DEFAULT_TIME_LIMIT is too short
# RANDOM_CASES = 25  # seeded random valid cases, from random_cases(rng, count) or from DOMAIN
# from graders.engine.domain import Domain, Param, Real, Seq  # (and Text, Integer, Flag, Maybe, Record)
# DOMAIN = Domain("{entry}", (Param("values", Seq(Real(), min_len=1)),))  # generated adversarial cases: see
#   AUTHORING.md ("Input domains"); the reference must then raise ValueError for every invalid variant.
#   A task in plain Python (no numpy): Domain(..., numpy=False)


def curated():
    """The curated cases, in the order a learner should meet them. Expected values come from solution.py."""
    yield Case(
        id={_toml_str(cp["case"])},
        call={_toml_str(cp["entry"])},
        args={cp["args"]},
        explain={explain},
    )
'''
