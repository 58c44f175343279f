"""What a lesson's texts must satisfy, run by ``werkbank check`` on each lesson (and by ``tests/test_lesson_text.py``
on every lesson, with the same messages). Each rule returns problem lines that name the file and say what to do.

- **Numbers in the prose** (:func:`prose_numbers`, :func:`prose_claims`, :func:`translated_numbers`). Every number in
  the prose of the lesson's claims language (``PROSE_LANGUAGE`` of its ``checks.py``, default English when the
  lesson has it, else its first language), outside ``python`` fences and checkpoint markers, lies in a passage of
  ``PROSE_CLAIMS``, and each passage's check computes what it states. Every other language states the same numbers,
  section by section (``## `` headings).
- **Hints** (:func:`hints`): 2 or 3 per file, the first a nudge (shorter than twice the rest together).
- **Examples and tasks** (:func:`examples`, :func:`doctests`, :func:`input_rules`): every checkpoint has
  ``example.<lang>.py`` in every language, a few lines whose last is one expression calling an entry; the task opens
  with the entries' signatures and then a ``pycon`` block that repeats the example and shows what it gives after
  ``solution.py``; every ``pycon`` block of a task is a passing doctest; a listed lesson's task keeps its input rules
  (the ``ValueError`` cases) in one ``::: details`` fold after the example.
- **Starters** (:func:`starters`): an Arabic starter holds code, not Arabic text (it reads scrambled in the
  left-to-right editor): at most two short comments and a one-line docstring.
- **The lesson's own checks** (:func:`own_checks`): every function in ``CHECKS`` of its ``checks.py`` passes.

A lesson's ``checks.py`` sits beside ``lesson.toml``::

    from werkbank.lesson_checks import close, raises, reference

    def mean():                       # the reference solution of checkpoint 1, as a module
        return reference(__file__, "1").mean

    def check_worked_example():
        assert close(mean()([1.0, 2.0, 6.0]), 3.0)

    PROSE_CLAIMS = [("the mean of 1, 2 and 6 is 3", check_worked_example)]
    CHECKS = []                       # further checks of this lesson's texts

A check is a function without arguments that raises (``assert``) when the text says something false.
"""

from __future__ import annotations

import ast
import contextlib
import doctest
import importlib.util
import math
import re
import sys
from pathlib import Path

from werkbank.lessons import Lesson, LessonError, load_lesson_folder, read_text, rel

#: The repository (for checks that read a figure's module under web/src, say).
REPO = Path(__file__).resolve().parent.parent
CHECKS_FILE = "checks.py"
ARABIC = re.compile(r"[\u0600-\u06FF]")
NUMBER = re.compile(r"(?<![A-Za-z0-9_.])(?:\d+(?:[.,]\d+)*|\.\d+)(?![A-Za-z0-9_])")
_SKIPPED_FENCE = re.compile(r"^(```|~~~)(python|checkpoint)[^\n]*\n.*?^\1[ \t]*$", re.S | re.M)


# --- helpers for a lesson's checks.py -------------------------------------------------------------------------------

_REFERENCES: dict = {}


_LESSONS: dict = {}


def lesson_of(where) -> Lesson:
    """The lesson whose folder holds ``where`` (a checks.py passes its ``__file__``), read again only when its
    lesson.toml changes."""
    folder = Path(where).resolve().parent
    key = (str(folder), (folder / "lesson.toml").stat().st_mtime_ns)
    if key not in _LESSONS:
        _LESSONS[key] = load_lesson_folder(folder)
    return _LESSONS[key]


def reference(where, checkpoint_id: str):
    """The reference solution of checkpoint ``checkpoint_id`` of the lesson whose folder holds ``where``, as a module
    (loaded once per version of the file)."""
    checkpoint = lesson_of(where).checkpoint(checkpoint_id)
    path = checkpoint.solution_path
    key = (str(path), path.stat().st_mtime_ns)
    if key not in _REFERENCES:
        name = f"_lesson_reference_{abs(hash(key))}"
        spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
        _REFERENCES[key] = module
    return _REFERENCES[key]


@contextlib.contextmanager
def raises(exception, match: str | None = None):
    """``with raises(ValueError):`` the block must raise ``exception`` (whose message matches ``match``)."""
    try:
        yield
    except exception as error:
        if match is not None and not re.search(match, str(error)):
            raise AssertionError(f"{type(error).__name__}({error}) does not match {match!r}") from None
    else:
        raise AssertionError(f"did not raise {exception.__name__}")


def close(a, b, tol: float = 1e-12) -> bool:
    """``a`` and ``b`` equal up to a relative 1e-9 (or an absolute ``tol``)."""
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=tol)


# --- a lesson's checks.py -------------------------------------------------------------------------------------------


class _Checks:
    """What a lesson's checks.py declares (nothing when it has none), or the one problem loading it."""

    def __init__(self, lesson: Lesson):
        self.path = lesson.folder / CHECKS_FILE
        self.claims: list = []
        self.checks: list = []
        self.language = "en" if "en" in lesson.languages else lesson.languages[0]
        self.problem = None
        if not self.path.is_file():
            return
        name = f"_lesson_checks_{lesson.id.replace('-', '_')}"
        try:
            spec = importlib.util.spec_from_file_location(name, self.path)
            module = importlib.util.module_from_spec(spec)
            sys.modules[name] = module
            spec.loader.exec_module(module)
        except Exception as error:  # the author's module: any error is theirs, one line
            self.problem = (
                f"{rel(self.path)}{_line_in(error, self.path)}: cannot be imported: {type(error).__name__}: {error}"
            )
            return
        finally:
            sys.modules.pop(name, None)
        self.claims = list(getattr(module, "PROSE_CLAIMS", []))
        self.checks = list(getattr(module, "CHECKS", []))
        self.language = getattr(module, "PROSE_LANGUAGE", self.language)
        bad = [
            c
            for c in self.claims
            if not (isinstance(c, tuple) and len(c) == 2 and isinstance(c[0], str) and callable(c[1]))
        ]
        if bad or not all(callable(c) for c in self.checks) or self.language not in lesson.languages:
            self.problem = (
                f"{rel(self.path)}: PROSE_CLAIMS is a list of (passage, check) pairs, CHECKS a list of "
                f"checks, PROSE_LANGUAGE one of {list(lesson.languages)}"
            )
            self.claims, self.checks = [], []


def _line_in(error: BaseException, path: Path) -> str:
    """``:N``, the line of ``path`` where ``error`` arose (a syntax error in ``path`` itself, else the last frame of
    the traceback in ``path``); empty when none is (a syntax error in the file a check compiles is that file's)."""
    if isinstance(error, SyntaxError) and error.lineno and error.filename and _same_file(error.filename, path):
        return f":{error.lineno}"
    line, tb = None, error.__traceback__
    while tb is not None:
        if Path(tb.tb_frame.f_code.co_filename).resolve() == path.resolve():
            line = tb.tb_lineno
        tb = tb.tb_next
    return f":{line}" if line else ""


def _same_file(name: str, path: Path) -> bool:
    try:
        return Path(name).resolve() == path.resolve() or Path(name).name == path.name == name
    except (OSError, ValueError):
        return False


def _failure(error: BaseException) -> str:
    text = " ".join(str(error).split())
    return f"{type(error).__name__}{': ' + text[:300] if text else ''}"


def _run(check, path: Path, what: str) -> str | None:
    """None when ``check()`` passes, else one problem line."""
    try:
        check()
    except Exception as error:  # noqa: BLE001 - a failing check, whatever it raised
        return f"{rel(path)}{_line_in(error, path)}: {what} fails: {_failure(error)}"
    return None


# --- numbers in the prose -------------------------------------------------------------------------------------------


def scannable(text: str) -> str:
    """Prose with whitespace collapsed and the fences that state no checked numbers blanked out."""
    return _scanned(text)[0]


def _scanned(text: str) -> tuple[str, list[int]]:
    """:func:`scannable` text, and for each of its characters the line of ``text`` it comes from."""
    blanked = _SKIPPED_FENCE.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)
    out, lines, line, space = [], [], 1, False
    for ch in blanked:
        if ch.isspace():
            if not space:
                out.append(" ")
                lines.append(line)
            space = True
        else:
            out.append(ch)
            lines.append(line)
            space = False
        line += ch == "\n"
    return "".join(out), lines


def numbers(text: str) -> list[str]:
    """The numbers a text states, normalised: decimal commas become points and '.5' becomes '0.5'."""
    out = []
    for raw in NUMBER.findall(text):
        if re.fullmatch(r"\d+,\d+", raw):
            raw = raw.replace(",", ".")
        out.append("0" + raw if raw.startswith(".") else raw)
    return out


def _brief(text: str, n: int = 60) -> str:
    return text if len(text) <= n else text[: n - 1] + "…"


def prose_numbers(lesson: Lesson, checks: _Checks | None = None) -> list[str]:
    """Every number of the claims language's prose lies in a passage of PROSE_CLAIMS, and every passage is there."""
    checks = checks or _Checks(lesson)
    if checks.problem:
        return [checks.problem]
    path = lesson.folder / f"prose.{checks.language}.md"
    raw = lesson.prose(checks.language)
    text, lines = _scanned(raw)
    heading = {n for n, line in enumerate(raw.split("\n"), 1) if line.lstrip().startswith("#")}
    covered = [False] * len(text)
    problems = []
    for passage, _ in checks.claims:
        start = text.find(" ".join(passage.split()))
        if start < 0:
            problems.append(
                f"{rel(checks.path)}: the PROSE_CLAIMS passage {_brief(passage)!r} is not in {path.name} "
                "(any more): quote the prose as it is now"
            )
            continue
        for i in range(start, start + len(" ".join(passage.split()))):
            covered[i] = True
    # a new paragraph, or the line after a heading, starts a sentence too
    paragraphs = [
        i
        for i in range(1, len(text))
        if text[i - 1] == " " and lines[i] > lines[i - 1] and (lines[i] - lines[i - 1] >= 2 or lines[i - 1] in heading)
    ]
    by_sentence: dict = {}  # sentence start -> the numbers in it that no passage covers
    for match in NUMBER.finditer(text):
        if not all(covered[match.start() : match.end()]):
            start = max(
                [text.rfind(". ", 0, match.start()) + 2, text.rfind("# ", 0, match.start()) + 2, 0]
                + [i for i in paragraphs if i <= match.start()]
            )
            by_sentence.setdefault(start, []).append(match.group(0))
    for start, found in by_sentence.items():
        end = text.find(". ", start)
        sentence = text[start : end + 1 if end >= 0 else len(text)].strip()
        what = f"the number {found[0]} in" if len(found) == 1 else f"the numbers {', '.join(found)} in"
        problems.append(
            f"{rel(path)}:{lines[start]}: {what} {_brief(sentence, 90)!r} not in a passage of "
            f"{CHECKS_FILE}'s PROSE_CLAIMS: quote the passage there with a check that computes what it "
            "says (AUTHORING.md, Numbers in the prose)"
        )
    return problems


def prose_claims(lesson: Lesson, checks: _Checks | None = None) -> list[str]:
    """Every PROSE_CLAIMS check passes."""
    checks = checks or _Checks(lesson)
    if checks.problem:
        return [checks.problem]
    problems = []
    for passage, check in checks.claims:
        found = _run(check, checks.path, f"{getattr(check, '__name__', 'a check')} (for {_brief(passage, 50)!r})")
        if found:
            problems.append(found)
    return problems


def _sections(text: str) -> list[str]:
    return re.split(r"^## ", scannable(text).replace(" ## ", "\n## "), flags=re.M)


def translated_numbers(lesson: Lesson, checks: _Checks | None = None) -> list[str]:
    """Every other language's prose has the same sections and states the same numbers in each."""
    checks = checks or _Checks(lesson)
    if checks.problem:
        return [checks.problem]
    original = _sections(lesson.prose(checks.language))
    problems = []
    for lang in lesson.languages:
        if lang == checks.language:
            continue
        path = lesson.folder / f"prose.{lang}.md"
        other = _sections(lesson.prose(lang))
        headings = [""] + re.findall(r"^## (.*)$", lesson.prose(lang), re.M)
        if len(other) != len(original):
            problems.append(
                f"{rel(path)}: {len(other) - 1} sections (## headings), prose.{checks.language}.md has "
                f"{len(original) - 1}: translate section by section"
            )
            continue
        for number, (theirs, ours) in enumerate(zip(other, original)):
            if sorted(numbers(theirs)) != sorted(numbers(ours)):
                heading = (
                    f"section {number} ('## {_brief(headings[number].strip(), 40)}')"
                    if number < len(headings) and number
                    else "the text before the first ## heading"
                )
                problems.append(
                    f"{rel(path)}: {heading} states other numbers than prose.{checks.language}.md: "
                    f"{sorted(numbers(theirs))} against {sorted(numbers(ours))}"
                )
    return problems


# --- hints, examples, tasks, starters -------------------------------------------------------------------------------


def hints(lesson: Lesson, checks: _Checks | None = None) -> list[str]:
    """2 or 3 hints per file, rendered with rules between them (no heading), the first a nudge."""
    from werkbank.markdown import MarkdownError, render, split_hints

    problems = []
    for cp in lesson.checkpoints:
        for lang in lesson.languages:
            path = cp.folder / f"hint.{lang}.md"
            if not path.is_file():
                continue  # the linter names it
            text = read_text(path)
            try:
                found = split_hints(text, rel(path))
                html = render(text, rel(path), lang)
            except MarkdownError:
                continue  # the linter names it
            if not 2 <= len(found) <= 3:
                problems.append(
                    f"{rel(path)}: {len(found)} hint(s): write 2 or 3, gentle to specific, separated by "
                    "lines holding only ---"
                )
            elif html.count("<hr />") != len(found) - 1 or "<h2" in html:
                problems.append(
                    f"{rel(path)}: a --- right under a line of text makes it a heading: leave an empty "
                    "line before each ---"
                )
            elif len(found[0]) >= len("\n".join(found[1:])) * 2:
                problems.append(
                    f"{rel(path)}: the first hint is as long as the answer: make it a nudge, and the later "
                    "ones more specific"
                )
    return problems


def _first_blocks(text: str):
    """The signature paragraph and the first fenced block of a task text, as markdown-it tokens (or None)."""
    from markdown_it import MarkdownIt

    tokens = [t for t in MarkdownIt("commonmark").parse(text) if t.type in ("inline", "fence")]
    return (tokens + [None, None])[:2]


def _pycon(block: str) -> tuple[list[str], str]:
    """(the source lines without prompts, the output after the last statement) of a console block."""
    source, output = [], []
    for line in block.rstrip("\n").split("\n"):
        if line.startswith((">>> ", "... ")) and not output:
            source.append(line[4:])
        else:
            output.append(line)
    return source, "\n".join(output)


def _run_example(solution: str, example: str, filename: str):
    namespace: dict = {"__name__": "__main__"}
    exec(compile(solution, "solution.py", "exec"), namespace)
    tree = ast.parse(example, filename)
    *body, last = tree.body
    exec(compile(ast.Module(body=body, type_ignores=[]), filename, "exec"), namespace)
    return eval(compile(ast.Expression(last.value), filename, "eval"), namespace)


def _called_names(node) -> set[str]:
    called = set()
    for sub in ast.walk(node):
        if isinstance(sub, ast.Call):
            func = sub.func
            while isinstance(func, ast.Attribute):
                func = func.value
            if isinstance(func, ast.Name):
                called.add(func.id)
    return called


def examples(lesson: Lesson, checks: _Checks | None = None) -> list[str]:
    """Every checkpoint has an example in every language: a few lines, the last one expression calling an entry;
    the task opens with the entries' signatures, then a pycon block repeating the example and showing what it gives
    after solution.py."""
    problems = []
    for cp in lesson.checkpoints:
        for lang in lesson.languages:
            path = cp.folder / f"example.{lang}.py"
            if not path.is_file():
                problems.append(
                    f"{rel(path)}: missing: a few lines whose last calls {cp.entry[0] if cp.entry else 'an entry'}"
                    "; Run shows its value, and the task's first pycon block repeats it"
                )
                continue
            example = read_text(path)
            try:
                tree = ast.parse(example, rel(path))
            except SyntaxError as error:
                problems.append(f"{rel(path)}:{error.lineno}: not Python: {error.msg}")
                continue
            last = tree.body[-1] if tree.body else None
            if not 1 <= len(tree.body) <= 6:
                problems.append(f"{rel(path)}: {len(tree.body)} statements: keep the example to a few lines (1-6)")
            elif not isinstance(last, ast.Expr) or "\n" in (ast.get_source_segment(example, last) or "\n"):
                problems.append(f"{rel(path)}: the last line must be one expression (Run shows its value)")
            elif not _called_names(last) & set(cp.entry):
                problems.append(
                    f"{rel(path)}: the last line calls none of {list(cp.entry)}: end the example with a call of "
                    f"`{cp.entry[0]}(...)`, the call the task's pycon block shows first"
                )
            elif any(isinstance(n, (ast.FunctionDef, ast.ClassDef, ast.Import, ast.ImportFrom)) for n in tree.body):
                problems.append(f"{rel(path)}: defines or imports something: an example only calls the learner's code")
            task = cp.folder / f"task.{lang}.md"
            if not task.is_file():
                continue  # the linter names it
            signature, block = _first_blocks(read_text(task))
            if signature is None or not all(f"`{name}" in signature.content for name in cp.entry):
                problems.append(
                    f"{rel(task)}: must open with the signature of every entry, like `{cp.entry[0]}(...) -> type` on "
                    "its own line, before the pycon block"
                    if cp.entry
                    else f"{rel(task)}: must open with the entries' signatures"
                )
                continue
            if block is None or block.type != "fence" or block.info.strip() != "pycon":
                problems.append(f"{rel(task)}: the signatures must be followed by a ```pycon block running {path.name}")
                continue
            source, shown = _pycon(block.content)
            if source != example.rstrip("\n").split("\n"):
                continue  # the linter names it (example differs from the first pycon block)
            if problems and problems[-1].startswith(rel(path)):
                continue
            try:
                got = repr(_run_example(cp.solution(), example, str(path)))
            except Exception as error:  # noqa: BLE001 - the author's example or reference
                problems.append(f"{rel(path)}: fails after solution.py: {_failure(error)}")
                continue
            if got != shown:
                problems.append(
                    f"{rel(task)}: the first pycon block shows {_brief(shown, 80)!r}, but {path.name} "
                    f"gives {_brief(got, 80)!r} after solution.py"
                )
    return problems


def doctests(lesson: Lesson, checks: _Checks | None = None) -> list[str]:
    """Every pycon block of every task is a doctest that passes against the reference (one session per task)."""
    problems = []
    for cp in lesson.checkpoints:
        for lang in lesson.languages:
            task = cp.folder / f"task.{lang}.md"
            if not task.is_file() or not cp.solution_path.is_file():
                continue
            blocks = re.findall(r"^```pycon\n(.*?)^```", read_text(task), re.S | re.M)
            namespace: dict = {"__name__": "__main__"}
            try:
                exec(compile(cp.solution(), "solution.py", "exec"), namespace)
            except Exception:  # noqa: BLE001 - grading names a broken reference
                continue
            parser = doctest.DocTestParser()
            for number, block in enumerate(blocks, 1):
                failures: list[str] = []

                class Runner(doctest.DocTestRunner):
                    def report_failure(self, out, test, example, got):
                        failures.append(  # noqa: B023 - the runner is used within the iteration that made it
                            f"{example.source.strip()!r} gives {got.strip()!r}, the block shows "
                            f"{example.want.strip()!r}"
                        )

                    def report_unexpected_exception(self, out, test, example, exc_info):
                        failures.append(  # noqa: B023 - the runner is used within the iteration that made it
                            f"{example.source.strip()!r} raises {exc_info[0].__name__}: {exc_info[1]}"
                        )

                test = parser.get_doctest(block, namespace, f"{rel(task)} block {number}", str(task), 0)
                test.globs = namespace  # one console session per task text
                Runner(optionflags=doctest.ELLIPSIS).run(test, out=lambda text: None, clear_globs=False)
                if failures:
                    problems.append(f"{rel(task)}: pycon block {number} is no passing doctest: {failures[0]}")
    return problems


def input_rules(lesson: Lesson, checks: _Checks | None = None) -> list[str]:
    """A listed lesson's task keeps its input rules (what raises ValueError) in one fold after the example."""
    from werkbank.markdown import MarkdownError, render

    if not lesson.listed:
        return []
    problems = []
    for cp in lesson.checkpoints:
        for lang in lesson.languages:
            task = cp.folder / f"task.{lang}.md"
            if not task.is_file():
                continue
            try:
                html = render(read_text(task), rel(task), lang)
            except MarkdownError:
                continue
            folds = re.findall(r'<details class="fold"><summary>.+?</summary>(.*?)</details>', html, re.S)
            example = html.find('<code class="language-pycon">')
            if len(folds) != 1 or "ValueError" not in folds[0] or html.index("<details") < example or example < 0:
                problems.append(
                    f"{rel(task)}: keep the input rules (what raises ValueError) in one '::: details' "
                    "fold after the example, so the task reads short"
                )
    return problems


def starters(lesson: Lesson, checks: _Checks | None = None) -> list[str]:
    """An Arabic starter holds code: no Arabic text, at most two comments of 80 characters, a one-line docstring."""
    problems = []
    if "ar" not in lesson.languages:
        return problems
    for cp in lesson.checkpoints:
        path = cp.folder / "starter.ar.py"
        if not path.is_file():
            continue  # one shared starter.py, or the linter names the missing one
        source = read_text(path)
        comments = [line.strip() for line in source.splitlines() if line.strip().startswith("#")]
        try:
            docstring = ast.get_docstring(ast.parse(source)) or ""
        except SyntaxError:
            continue  # grading names it
        if ARABIC.search(source):
            problems.append(
                f"{rel(path)}: holds Arabic text, which reads scrambled in the left-to-right editor: keep "
                "the Arabic in the task and hints, and the starter in code"
            )
        elif len(comments) > 2 or any(len(c) > 80 for c in comments) or "\n" in docstring:
            problems.append(f"{rel(path)}: at most two comments of 80 characters and a one-line docstring")
    return problems


def checks_file(lesson: Lesson, checks: _Checks | None = None) -> list[str]:
    """A listed lesson has a checks.py: its prose states what the lesson teaches, and the file proves it (an unlisted
    draft whose prose has no number yet may do without)."""
    checks = checks or _Checks(lesson)
    if not lesson.listed or checks.path.is_file():
        return []
    return [
        f"{rel(checks.path)}: missing: a listed lesson proves what its prose states in {CHECKS_FILE} beside "
        "lesson.toml (PROSE_CLAIMS for the prose's numbers, CHECKS for the rest; AUTHORING.md, Numbers in the prose)"
    ]


def own_checks(lesson: Lesson, checks: _Checks | None = None) -> list[str]:
    """Every function in the lesson's CHECKS passes."""
    checks = checks or _Checks(lesson)
    if checks.problem:
        return []  # named by the prose rules
    return [p for p in (_run(c, checks.path, getattr(c, "__name__", "a check")) for c in checks.checks) if p]


#: Every rule, by name (tests/test_lesson_text.py runs each on every lesson).
RULES = {
    "prose_numbers": prose_numbers,
    "prose_claims": prose_claims,
    "translated_numbers": translated_numbers,
    "hints": hints,
    "examples": examples,
    "doctests": doctests,
    "input_rules": input_rules,
    "starters": starters,
    "own_checks": own_checks,
    "checks_file": checks_file,
}


def text_problems(lesson: Lesson) -> list[str]:
    """Every problem of every rule for ``lesson``, each once."""
    try:
        checks = _Checks(lesson)
    except LessonError as error:
        return [str(error)]
    problems: list[str] = []
    for rule in RULES.values():
        try:
            found = rule(lesson, checks)
        except LessonError as error:  # a missing or unreadable file: the linter names it too
            found = [str(error)]
        problems += [p for p in found if p not in problems]
    return problems
