"""``werkbank check``: lint every lesson, then prove its graders against its own files, in CPython and in Pyodide.

1. **Lint** (:func:`lint_lesson`): ``lesson.toml`` against its schema (unknown keys rejected with "did you mean"),
   every language complete (each missing file named), no raw HTML in any text, every case's call names something
   the task asks for (``entry``), every ``expect-fail`` names a real case, patches apply, feedback markdown the
   verdict can show, ``skip`` names that are families, missing files reported as one line; then the texts
   (:func:`werkbank.lesson_checks.text_problems`: numbers in the prose and the lesson's ``checks.py``, hints,
   examples, doctests, folds, starters). Each problem is one line that starts with the file and says what to do.
2. **Grade** every file of :func:`items` (the one list, shared with ``tests/test_checkpoints.py``): the reference
   passes, every starter (each language) fails, every declared mistake fails as declared, every alternative
   solution (``tests/data/<lesson>/alt_*.py``) passes.
3. **Pyodide parity** (:mod:`werkbank.parity`): the same files get the same verdicts in Pyodide under Node, and
   the references the same expected outcomes.
4. ``--mutants``: :func:`werkbank.mutants.run_mutants`, when that module exists.

This is the futurecoder discipline: the grader is tested by the wrong code it exists to catch.
"""

from __future__ import annotations

import ast
import fnmatch
import importlib
import re
import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from graders.engine.settings import CASE_SEED, FALLBACK_LANGUAGE
from werkbank.lesson_checks import text_problems
from werkbank.lessons import (
    EXERCISES,
    Checkpoint,
    Lesson,
    LessonError,
    Mistake,
    did_you_mean,
    lesson_alternatives,
    lesson_folders,
    load_lesson_folder,
    parse_mistake,
    read_text,
    rel,
    unknown_lesson,
)

REPO_ROOT = Path(__file__).resolve().parent.parent
#: A listed lesson has exactly these checkpoint ids, and at least this many declared mistakes per checkpoint.
LISTED_CHECKPOINT_IDS = ("1", "2", "3")
MIN_MISTAKES_LISTED = 8
#: Module-level settings a grader may define (the engine reads them); anything spelled close to one is a typo.
GRADER_SETTINGS = ("TIME_LIMIT", "RANDOM_CASES", "EXPECTED_EXCEPTIONS", "PLOT_CASE", "DOMAIN", "DOMAINS")


# --- the one list of files ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Item:
    """One file ``check`` grades, and what it must do: a ``reference`` or ``alternative`` passes, a ``starter``
    fails, a ``mistake`` fails as it declares."""

    lesson: Lesson
    checkpoint: Checkpoint
    kind: str
    path: Path
    lang: str | None = None
    mistake: Mistake | None = None

    @property
    def name(self) -> str:
        """A short stable name: ``reference``, ``starter-nl``, ``mistake-<name>``, ``alt-<file stem>``."""
        if self.kind == "starter":
            return f"starter-{self.lang}" if self.path.name != "starter.py" else "starter"
        if self.kind == "mistake":
            return f"mistake-{self.mistake.name}"
        if self.kind == "alternative":
            return f"alt-{self.path.stem}"
        return self.kind

    @property
    def id(self) -> str:
        """``<lesson>-<checkpoint>-<name>``: a pytest id, and the job id of the parity run."""
        return f"{self.lesson.id}-{self.checkpoint.id}-{self.name}"

    def source(self) -> str:
        """The program to grade (a patch mistake is applied to ``solution.py``)."""
        if self.mistake is not None:
            return self.mistake.source()
        return read_text(self.path)


def items(lessons) -> list[Item]:
    """Every file to grade, per lesson and checkpoint: reference, starters (one per language, or the one shared
    ``starter.py``), declared mistakes, alternative solutions. Files that are missing or unreadable are left out
    (:func:`lint_lesson` reports them)."""
    out = []
    for lesson in lessons:
        for cp in lesson.checkpoints:
            if cp.solution_path.is_file():
                out.append(Item(lesson, cp, "reference", cp.solution_path))
            seen = set()
            for lang in lesson.languages:
                path = cp.starter_path(lang)
                if path.is_file() and path not in seen:
                    seen.add(path)
                    out.append(Item(lesson, cp, "starter", path, lang))
            for mistake in parsed_mistakes(cp)[0]:
                if not mistake.is_patch or cp.solution_path.is_file():
                    out.append(Item(lesson, cp, "mistake", mistake.path, mistake=mistake))
            for alt in cp.alternatives():
                out.append(Item(lesson, cp, "alternative", alt.path))
    return out


def parsed_mistakes(cp: Checkpoint) -> tuple[list[Mistake], list[str]]:
    """The checkpoint's mistakes that parse, and one problem line for each that does not."""
    found, errors = [], []
    for path in cp.mistake_paths():
        try:
            found.append(parse_mistake(path, cp.solution_path))
        except LessonError as error:
            errors.append(str(error))
    return found, errors


# --- what each file must do -----------------------------------------------------------------------------------------


def judge_job(kind: str, verdict: dict, mistake: Mistake | None, case_ids=None) -> str | None:
    """``None`` when the verdict is what this kind of file must produce, else the problem (without the file name).
    ``case_ids``: the checkpoint's case ids, to name an ``expect-fail`` that is no case at all."""
    status = verdict["status"]
    if status == "author_error":
        return f"author error: {verdict.get('detail')}"
    if kind in ("reference", "alternative"):
        if status != "pass":
            failure = verdict.get("failure") or {}
            what = "the reference" if kind == "reference" else "this alternative solution"
            reason = f" ({failure['reason']})" if failure.get("reason") else ""
            detail = (
                (
                    f"case {failure.get('case')}: {failure.get('call')} expected {failure.get('expected')}, got "
                    f"{failure.get('actual')}{reason}"
                )
                if failure
                else (verdict.get("traceback") or "").strip()[-300:]
            )
            return f"{what} must pass but got {status}: {detail}"
        return None
    if kind == "starter":
        if status == "pass":
            return "the starter passes: a starter must fail (leave the body to write)"
        return _misplaced_feedback("the starter", verdict)
    failed = verdict.get("failed_cases") or []
    if mistake.expect_fail and case_ids is not None and not matching(mistake.expect_fail, case_ids):
        return (
            f"expect-fail {mistake.expect_fail!r} is not a case of this checkpoint"
            f"{did_you_mean(mistake.expect_fail, case_ids)}; the failing cases are: {_few(failed) or status}"
        )
    if status == "pass":
        return f"{mistake.description!r} passes every case: add a case that catches it, or fix the mistake"
    if mistake.expect_status and status != mistake.expect_status:
        return f"{mistake.description!r}: declares expect-status {mistake.expect_status}, but got {status}"
    if mistake.expect_fail and not matching(mistake.expect_fail, failed):
        return (
            f"{mistake.description!r}: case {mistake.expect_fail} should fail but passes; the failing cases "
            f"are: {_few(failed) or status} (declare one of those, or fix the case)"
        )
    shown = verdict.get("failure") or {}
    other = shown.get("mistake")
    if other and other != mistake.name:
        return (
            f"{mistake.description!r} gets the feedback of mistake {other!r}: both fail case {shown.get('case')} "
            f"first, with the same result ({shown.get('actual')}), so a learner cannot be told which one they "
            "made; add a case where they differ that runs before it, or give only one of them feedback"
        )
    if mistake.feedback and status == "fail" and not other:
        return (
            f"{mistake.description!r}: its feedback would never be shown: a learner failing case "
            f"{shown.get('case')} this way is not recognised as this mistake (does it behave differently "
            "from one run to the next?)"
        )
    return None


def _misplaced_feedback(what: str, verdict: dict) -> str | None:
    """A problem when ``verdict`` (of a program that makes no declared mistake) shows a declared mistake's feedback."""
    shown = verdict.get("failure") or {}
    if not shown.get("mistake"):
        return None
    return (
        f"{what} gets the feedback of mistake {shown['mistake']!r} (it fails case {shown.get('case')} first with "
        f"{shown.get('actual')}, as that mistake does): the feedback would be shown to learners who did not make "
        "that mistake; make the mistake fail first on a case where its result is its own, or, when that result is "
        "all the mistake gives (an empty list, the input handed back), remove its feedback lines"
    )


def _non_finite(value) -> bool:
    """True when ``value`` (a decoded input or result) is or holds a NaN or an infinity."""
    import math

    import numpy as np

    if isinstance(value, bool):
        return False
    if isinstance(value, (float, complex)):
        return not (math.isfinite(value.real) and math.isfinite(value.imag))
    if isinstance(value, np.ndarray):
        return value.dtype.kind in "fc" and not bool(np.isfinite(value).all())
    if isinstance(value, dict):
        return any(_non_finite(k) or _non_finite(v) for k, v in value.items())
    if isinstance(value, (list, tuple, set, frozenset)):
        return any(_non_finite(v) for v in value)
    return False


def _wire_non_finite(wire) -> bool:
    """:func:`_non_finite` of a wire value. A value the engine keeps only by its type or attributes (a dict subclass
    such as ``Counter``, an object) holds no number to test here, so it is not non-finite."""
    from graders.engine import values

    try:
        return _non_finite(values.decode(wire))
    except ValueError:  # "foreign" and "object" wire values cannot be rebuilt
        return False


def blame(prepared: dict, outcomes: list, case_id: str) -> tuple[str, str] | None:
    """Which of the two looks wrong where the reference and a correct alternative disagree on ``case_id``:
    ``("reference" or "alternative", why)``, or None without a clue. A reference that returns NaN or an infinity
    from finite inputs where the alternative returns a finite result looks wrong (an overflow); an alternative that
    raises an exception that is no expected outcome looks wrong; otherwise the two differ on a rule and the task
    decides. For a generated case the advice names the family to ``skip`` if the task leaves that input open."""
    from graders.engine import values
    from graders.engine.judge import plan_case

    key = prepared["key"]
    expected = key["expected"][case_id]
    actual = next((o for o in outcomes if o.get("id") == case_id), None)
    if actual is None or actual.get("kind") not in ("return", "raise"):
        return None
    generated = (key["cases"][case_id].get("generated") or {}).get("family")
    skip = f"; if the task leaves such input open, skip {generated!r} in the grader's DOMAIN" if generated else ""
    args, kwargs = values.case_inputs(plan_case(prepared, case_id))
    finite_inputs = not _non_finite([values.decode(args), values.decode(kwargs)])
    shown = {"return": lambda o: values.show(o["value"]), "raise": lambda o: f"raises {o['exc']}"}
    theirs, ours = shown[actual["kind"]](actual), shown[expected["kind"]](expected)
    if (
        expected["kind"] == "return"
        and actual["kind"] == "return"
        and finite_inputs
        and _wire_non_finite(expected["value"])
        and not _wire_non_finite(actual["value"])
    ):
        return "reference", (
            f"the reference looks wrong: it returns {ours} from finite inputs where the alternative "
            f"returns {theirs} (an overflow?); compute without overflowing, or raise ValueError for "
            f"such input and say so in the task{skip}"
        )
    if (
        expected["kind"] == "return"
        and actual["kind"] == "return"
        and finite_inputs
        and _wire_non_finite(actual["value"])
        and not _wire_non_finite(expected["value"])
    ):
        return "alternative", (
            f"the alternative looks wrong: it returns {theirs} from finite inputs where the "
            f"reference returns {ours} (an overflow?){skip}"
        )
    if actual["kind"] == "raise" and (
        expected["kind"] == "return" or expected["exc"] not in actual.get("builtin_mro", [])
    ):
        outcomes_raised = {o["exc"] for o in key["expected"].values() if o["kind"] == "raise"}
        if not set(actual.get("builtin_mro", [actual["exc"]])) & outcomes_raised:  # no exception the task uses
            message = actual.get("message", "")[:80]
            reference = ours if expected["kind"] == "raise" else f"returns {ours}"
            return "alternative", (
                f"the alternative looks wrong: it raises {actual['exc']} ({message}) where the "
                f"reference {reference}{skip}"
            )
    if expected["kind"] == "raise" and actual["kind"] == "return":
        return "alternative", (
            f"the reference rejects this input ({expected['exc']}: {expected.get('message', '')[:80]})"
            f" and the alternative returns {theirs}: if the task states that rule, the alternative "
            f"misses it; if not, state it in the task{skip}"
        )
    if expected["kind"] == "return" and actual["kind"] == "raise":
        return "alternative", (
            f"the alternative rejects an input the reference accepts (it returns {ours}): if the "
            f"task allows this input, the alternative is wrong; if not, make the reference raise "
            f"and say so in the task{skip}"
        )
    return None


def matching(pattern: str, case_ids) -> list[str]:
    """The case ids ``pattern`` names: itself, or with ``*``/``?``/``[`` the ids it matches (fnmatch), such as
    ``gen/blank/*`` for every generated case of the family ``blank``."""
    if not any(ch in pattern for ch in "*?["):
        return [pattern] if pattern in case_ids else []
    return fnmatch.filter(list(case_ids), pattern)


def _few(ids, n: int = 4) -> str:
    ids = list(ids)
    return ", ".join(ids[:n]) + (f" (+{len(ids) - n} more)" if len(ids) > n else "")


# --- feedback only for the mistake it is about ---------------------------------------------------------------------

#: What the trivial programs do instead of each called function's body (see :func:`trivial_programs`).
TRIVIAL = {
    "returns its first argument": "return {first}",
    "returns a constant of the result's type": "return {constant}",
    "raises ValueError": "raise ValueError('trivial')",
}

_CONSTANTS = {
    "float": "0.0",
    "int": "0",
    "str": "''",
    "bool": "False",
    "none": "None",
    "list": "[]",
    "tuple": "()",
    "dict": "{}",
    "set": "set()",
}


def trivial_programs(reference: str, calls: dict[str, list]) -> dict[str, str]:
    """Programs that make no declared mistake but are wrong in the plainest ways: the reference with the body of
    every function the cases call (``calls``: call path -> the wire value the reference returns on its first case)
    replaced by ``return <first argument>``, by ``return <a constant of the result's type>``, or by ``raise
    ValueError``. A declared mistake's feedback shown to one of them would be shown to learners who did not make
    that mistake."""
    import ast

    from werkbank.mutants import scope_names

    out = {}
    for name, body in TRIVIAL.items():
        tree = ast.parse(reference)
        scopes = scope_names(tree)
        changed = False
        for node in ast.walk(tree):
            if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            scope = scopes.get(node, "<module>")
            path = node.name if scope == "<module>" else f"{scope}.{node.name}"
            if path not in calls:
                continue
            params = [a.arg for a in node.args.posonlyargs + node.args.args if a.arg not in ("self", "cls")]
            wire = calls[path]
            constant = _CONSTANTS.get(wire[0] if isinstance(wire, list) and wire else None)
            if ("{first}" in body and not params) or ("{constant}" in body and constant is None):
                continue
            node.body = ast.parse(body.format(first=params[0] if params else "", constant=constant)).body
            changed = True
        if changed:
            out[name] = ast.unparse(tree)
    return out


def feedback_problems(cp: Checkpoint, prepared: dict) -> list[str]:
    """Each trivial program (:func:`trivial_programs`) that a declared mistake's feedback would be shown to, one
    problem line naming that mistake's file."""
    from graders.engine.judge import judge
    from graders.hosts import cpython

    key = prepared["key"]
    if not key.get("mistakes"):
        return []
    calls: dict = {}
    for entry in prepared["plan"]["cases"]:
        expected = key["expected"][entry["id"]]
        if entry["call"] not in calls and expected["kind"] == "return":
            calls[entry["call"]] = expected["value"]
    paths = {m.name: m.path for m in parsed_mistakes(cp)[0]}
    problems = []
    for name, program in trivial_programs(cp.solution(), calls).items():
        verdict = judge(prepared, cpython.run(program, prepared["plan"]))
        problem = _misplaced_feedback(f"a program that only {name}", verdict)
        if problem:
            mistake = verdict["failure"]["mistake"]
            problems.append(f"{rel(paths.get(mistake, cp.folder / 'mistakes'))}: {problem}")
    return problems


# --- the linter -----------------------------------------------------------------------------------------------------


def grader_path(module: str) -> Path:
    """The file of a grader module (``graders.a.b`` -> ``graders/a/b.py``, in the graders folder that has ``a``)."""
    from werkbank.lessons import grader_root

    return grader_root(module).joinpath(*module.split(".")[1:]).with_suffix(".py")


def _tokens(text: str) -> list:
    """Markdown ``text`` as the lint reads it: the site's parser (CommonMark, tables, ``$`` math), with raw HTML kept
    as tokens of its own so that it can be named."""
    from markdown_it import MarkdownIt
    from mdit_py_plugins.dollarmath import dollarmath_plugin

    md = MarkdownIt("commonmark", {"html": True}).enable("table")
    dollarmath_plugin(md, allow_space=False, allow_digits=False, double_inline=True)
    return md.parse(text)


def _html_problems(text: str, where: Path, line_offset: int = 0, tokens: list | None = None) -> list[str]:
    """Raw HTML in markdown ``text``: one problem per tag, with its line. ``tokens``: ``text`` parsed already
    (:func:`_tokens`)."""
    found = []
    for token in _tokens(text) if tokens is None else tokens:
        line = (token.map[0] + 1 + line_offset) if token.map else None
        candidates = (
            [token] if token.type == "html_block" else [t for t in (token.children or []) if t.type == "html_inline"]
        )
        for tag in candidates:
            snippet = tag.content.strip().splitlines()[0][:40] if tag.content.strip() else tag.content
            if line is not None and token.type == "inline":
                line += _line_within(token.content, tag.content)
            found.append(
                f"{rel(where)}{':' + str(line) if line else ''}: raw HTML {snippet!r} is not allowed "
                "(markdown has HTML switched off, so it would show as text): write markdown instead "
                "(**bold**, `code`, [link](url)), or put it in backticks"
            )
    return found


def _markdown_problems(text: str, path: Path, lang: str, checkpoints, *, hints: bool = False) -> list[str]:
    """Raw HTML (:func:`_html_problems`), what the site's markdown renderer refuses (bad links, math, figures, fences,
    empty hints), powers read as bold, and for prose (``checkpoints`` given) a ``checkpoint N`` marker for every
    checkpoint, once each, in order. ``text`` is parsed once for the lint's own checks."""
    from werkbank.markdown import MarkdownError, checkpoint_markers, render, split_hints

    source = rel(path)
    tokens = _tokens(text)
    problems = _html_problems(text, path, tokens=tokens)
    try:
        if hints:
            split_hints(text, source)
        html = render(
            text,
            source,
            lang,
            heading_ids=checkpoints is not None,
            **({"checkpoints": checkpoints} if checkpoints is not None else {}),
        )
        if checkpoints is not None:
            found = checkpoint_markers(text, source, checkpoints=checkpoints)
            if found != list(checkpoints):
                return problems + [
                    f"{source}: checkpoint markers {found} must be {list(checkpoints)}: put one empty "
                    "```checkpoint N``` block per checkpoint, in order, where the checkpoint belongs"
                ]
    except MarkdownError as error:
        return problems + [str(error).replace("\n", " ")]
    return problems + _power_problems(tokens, source) + _dead_links(html, text, source)


#: The characters either side of a ``**`` that markdown took for bold where Python's power was meant (``2**63``,
#: ``x**2``, ``x**(n)``): a digit or bracket on one side, a letter, digit or bracket on the other. (Bold inside a
#: word, as Arabic writes it after a one-letter word, has no digit or bracket.)
_POWER_SIDES = re.compile(r"[0-9)\]][A-Za-z0-9_(\[]|[A-Za-z0-9_)\]][0-9(\[]")


def _power_problems(tokens: list, source: str) -> list[str]:
    """A power written as Python writes it (``2**63``) outside code and math: markdown reads its ``**`` as bold, so
    the page shows "263" and sets what follows in bold. Read from the parsed text (``tokens``, :func:`_tokens`), so
    code spans, code blocks and math (which are tokens of their own) never count."""
    problems = []
    for token in tokens:
        kids = token.children or []
        for i, kid in enumerate(kids):
            if kid.type not in ("strong_open", "strong_close") or kid.markup != "**":
                continue
            before = kids[i - 1].content[-1:] if i and kids[i - 1].type == "text" else ""
            after = kids[i + 1].content[:1] if i + 1 < len(kids) and kids[i + 1].type == "text" else ""
            if not _POWER_SIDES.fullmatch(before + after):
                continue
            shown = f"{before}**{after}"
            line = token.map[0] + 1 + _line_within(token.content, shown) if token.map else 0
            problems.append(
                f"{source}:{line}: {shown!r} is read as bold (markdown's **), not a power: put it in backticks "
                "(`2**63`) or write 2⁶³"
            )
    return problems


#: A link from a lesson page (lessons/<id>/<lang>.html) to another lesson's page: the only relative target the build
#: makes for a lesson's texts (lessons ship no files of their own).
_LESSON_LINK = re.compile(r"^\.\./([a-z0-9][a-z0-9-]*)/([a-z]{2})\.html(?:#[^\s]*)?$")


def _dead_links(html: str, text: str, source: str) -> list[str]:
    """Relative link and image targets of a lesson page's text (prose, task, hint) that the built site does not have:
    a page of another lesson (``../<id>/<lang>.html``, in one of its languages) or an anchor; anything else would be
    a 404 for the learner."""
    from html import unescape

    from werkbank.lessons import LessonError, load_all
    from werkbank.markdown import SCHEME

    problems, known = [], None  # known: every lesson's languages, read at the first link to a lesson
    for url in (unescape(u) for u in re.findall(r'\s(?:href|src)="([^"]*)"', html)):
        if not url or url.startswith("#") or SCHEME.match(url):
            continue
        match = _LESSON_LINK.match(url)
        if match:
            if known is None:
                try:
                    known = {lesson.id: lesson.languages for lesson in load_all()}
                except LessonError:
                    known = {}
            if match.group(2) in known.get(match.group(1), ()):
                continue
        at = text.find(url)
        line = text.count("\n", 0, at) + 1 if at >= 0 else 1
        problems.append(
            f"{source}:{line}: link target {url!r} is not a page of the built site (lessons ship no files of their "
            "own): link another lesson as ../<lesson-id>/<lang>.html, or use an https:// address"
        )
    return problems


def _line_within(text: str, fragment: str) -> int:
    at = text.find(fragment)
    return text.count("\n", 0, at) if at > 0 else 0


def _toml_texts(lesson: Lesson) -> list[tuple[str, str]]:
    """(label, markdown) of every text in lesson.toml."""
    out = []
    for lang, t in lesson.text.items():
        for key in ("title", "summary", "prerequisites", "further_reading"):
            out.append((f"[text.{lang}] {key}", getattr(t, key)))
        for key in ("goals", "takeaways", "sources"):
            out += [(f"[text.{lang}] {key}", item) for item in getattr(t, key)]
    for cp in lesson.checkpoints:
        out += [(f"checkpoint {cp.id} title.{lang}", title) for lang, title in cp.title.items()]
    return out


def lint_lesson(lesson: Lesson, *, seed: int = CASE_SEED) -> list[str]:
    """Every problem of one loaded lesson's files, one line each, each naming the file and what to do."""
    problems: list[str] = []
    toml = lesson.folder / "lesson.toml"
    langs = lesson.languages
    for lang in langs:
        path = lesson.folder / f"prose.{lang}.md"
        try:
            text = lesson.prose(lang)
        except LessonError as error:  # missing, or not UTF-8: named (as the text rules name it), the rest still linted
            problems.append(str(error))
            continue
        problems += _markdown_problems(text, path, lang, [cp.id for cp in lesson.checkpoints])
    for label, text in _toml_texts(lesson):
        problems += [p.replace(f"{rel(toml)}:", f"{rel(toml)}: {label}:", 1) for p in _html_problems(text, toml)]
    problems += _toml_markdown_problems(lesson)
    if lesson.listed and tuple(cp.id for cp in lesson.checkpoints) != LISTED_CHECKPOINT_IDS:
        problems.append(
            f'{rel(toml)}: a listed lesson has checkpoints with ids "1", "2", "3" in that order, '
            f"not {[cp.id for cp in lesson.checkpoints]} (or set listed = false)"
        )
    ids = {cp.id for cp in lesson.checkpoints}
    for alt in lesson_alternatives(lesson.id):
        if alt.checkpoint_id not in ids:
            problems.append(
                f"{rel(alt.path)}: an alternative solution is named alt_<checkpoint>_<style>.py with a "
                f"checkpoint of this lesson ({', '.join(sorted(ids))}); rename it"
            )
    for cp in lesson.checkpoints:
        try:
            problems += _lint_checkpoint(lesson, cp, seed)
        except LessonError as error:  # one unreadable file of the checkpoint: the other checkpoints are linted
            problems.append(str(error))
    if not problems:
        problems += _page_problems(lesson)
    return problems


#: lesson.toml's markdown texts as the site renders them: blocks (``render``) or inline (``render_inline``). Titles
#: are plain text, shown as written.
TOML_BLOCK_TEXTS = ("summary", "further_reading")
TOML_INLINE_TEXTS = ("prerequisites", "goals", "takeaways", "sources")


def _toml_markdown_problems(lesson: Lesson) -> list[str]:
    """What the site's markdown renderer refuses in lesson.toml's texts (a link that is not http(s), relative or an
    anchor; math it cannot convert), one line per text, as `werkbank build` would refuse it."""
    from werkbank.lessons import line_of, TomlPlace
    from werkbank.markdown import MarkdownError, render, render_inline

    toml = lesson.folder / "lesson.toml"
    source = read_text(toml)
    at = TomlPlace(toml, source)
    problems = []
    for lang, t in lesson.text.items():
        after = line_of(source, f"text.{lang}") or 0
        for key in (*TOML_BLOCK_TEXTS, *TOML_INLINE_TEXTS):
            value = getattr(t, key)
            for text in value if isinstance(value, tuple) else (value,):
                if not text:
                    continue
                where = f"{at(key, after)}: [text.{lang}] {key}"
                try:
                    (render if key in TOML_BLOCK_TEXTS else render_inline)(text, source=where, lang=lang)
                except MarkdownError as error:
                    problems.append(f"{str(error).replace(chr(10), ' ')}: fix the markdown (AUTHORING.md, Texts)")
    return problems


def _page_problems(lesson: Lesson) -> list[str]:
    """The lesson's pages rendered as `werkbank build` renders them (werkbank.site.render_pages): whatever the build
    would refuse that no rule above named is one line here, so a lesson that check passes is one the build takes."""
    from werkbank.site import render_pages

    try:
        render_pages([lesson], {"app": "", "early": "", "editor": "", "static": ""})
    except LessonError as error:
        return [f"{str(error).replace(chr(10), ' ')} (the site build refuses this lesson's pages)"]
    return []


def _entry_problems(path: Path, entry: tuple, toml: str, *, syntax: bool = True) -> list[str]:
    """A starter (or the reference) is Python that defines every name the learner must define (a starter's body left
    to write): a starter that does not parse, or lacks a name, fails every learner's first Run or Check for a reason
    that is not theirs (it counts as failing, so the rule that a starter fails does not see it); a reference that
    lacks one points at a misspelt entry. ``syntax``: name a file that does not parse (the reference's syntax error
    is named where it is graded)."""
    from werkbank.grading import bound_names

    try:
        defined = bound_names(ast.parse(read_text(path), filename=path.name))
    except SyntaxError as error:
        return [f"{rel(path)}:{error.lineno or 1}: not Python: {error.msg}"] if syntax else []
    advice = "give the learner its signature to fill in" if path.name.startswith("starter") else "define it"
    return [
        f"{rel(path)}: defines no {name.split('.')[0]!r} (entry in {toml}){did_you_mean(name.split('.')[0], defined)}: "
        + advice
        for name in entry
        if name.split(".")[0] not in defined
    ]


def _lint_checkpoint(lesson: Lesson, cp: Checkpoint, seed: int) -> list[str]:
    problems: list[str] = []
    toml = rel(lesson.folder / "lesson.toml")
    langs = lesson.languages
    for stem in ("task", "hint"):
        for lang in langs:
            path = cp.folder / f"{stem}.{lang}.md"
            if not path.is_file():
                problems.append(
                    f"{rel(path)}: missing: write the {stem} in {lang} (every language of the lesson "
                    "is complete; nothing falls back to another language)"
                )
                continue
            try:
                text = read_text(path)
            except LessonError as error:
                problems.append(str(error))
                continue
            problems += _markdown_problems(text, path, lang, None, hints=stem == "hint")
            if stem == "hint" and not text.strip():
                problems.append(
                    f"{rel(path)}: empty: write 2-3 hints, gentle to specific, separated by lines holding only ---"
                )
            if stem == "task":
                for name in cp.entry:
                    if not re.search(rf"(?<![A-Za-z0-9_]){re.escape(name)}(?![A-Za-z0-9_])", text):
                        problems.append(
                            f"{rel(path)}: does not mention {name!r}, a name the learner must define "
                            f"(entry in {toml}): name it in the task"
                        )
    translated = sorted(cp.folder.glob("starter.*.py"))
    if translated:
        for lang in langs:
            if not (cp.folder / f"starter.{lang}.py").is_file():
                problems.append(
                    f"{rel(cp.folder / f'starter.{lang}.py')}: missing: this checkpoint has translated "
                    f"starters ({', '.join(p.name for p in translated)}), so every language needs one"
                )
    elif not (cp.folder / "starter.py").is_file():
        problems.append(
            f"{rel(cp.folder / 'starter.py')}: missing: write the starter (or one starter.<lang>.py per language)"
        )
    for path in [*translated, cp.folder / "starter.py"]:
        if path.is_file():
            problems += _entry_problems(path, cp.entry, toml)
    solution = cp.folder / "solution.py"
    if solution.is_file():
        problems += _entry_problems(solution, cp.entry, toml, syntax=False)
    examples = [lang for lang in langs if (cp.folder / f"example.{lang}.py").is_file()]
    for lang in examples:
        task = cp.folder / f"task.{lang}.md"
        block = re.search(r"^```pycon\n(.*?)^```", read_text(task), re.S | re.M) if task.is_file() else None
        example = read_text(cp.folder / f"example.{lang}.py").rstrip("\n").split("\n")
        shown = (
            [line[4:] for line in block.group(1).split("\n") if line.startswith((">>> ", "... "))] if block else None
        )
        if block and shown != example:
            problems.append(
                f"{rel(cp.folder / f'example.{lang}.py')}: differs from the first pycon example of "
                f"task.{lang}.md ({shown[0] if shown else ''!s:.60}): make them the same snippet"
            )
    if not cp.solution_path.is_file():
        problems.append(
            f"{rel(cp.solution_path)}: missing: write the reference solution (the graders compute "
            "every expected value with it)"
        )
    if not cp.entry:
        problems.append(
            f"{toml}: checkpoint {cp.id!r} has no entry: list the names the learner must define "
            '(entry = ["my_function"])'
        )
    mistakes: list[Mistake] = []
    folder = cp.folder / "mistakes"
    if not folder.is_dir():
        problems.append(
            f"{rel(folder)}/: missing: add at least one declared mistake (a .diff patch of "
            "solution.py or a whole .py program; see AUTHORING.md)"
        )
    else:
        mistakes, errors = parsed_mistakes(cp)
        problems += errors
        if not mistakes and not errors:
            problems.append(
                f"{rel(folder)}/: no mistakes: add at least one declared mistake (a .diff patch of "
                "solution.py or a whole .py program)"
            )
        stray = [p.name for p in folder.iterdir() if p.is_file() and p.suffix not in (".py", ".diff", ".patch")]
        if stray:
            problems.append(f"{rel(folder)}/: {', '.join(stray)}: a mistake is a .py program or a .diff patch")
        if lesson.listed and len(mistakes) < MIN_MISTAKES_LISTED:
            problems.append(
                f"{rel(folder)}/: {len(mistakes)} declared mistake(s); a listed lesson needs at least "
                f"{MIN_MISTAKES_LISTED} per checkpoint (or set listed = false while drafting)"
            )
    for mistake in mistakes:
        if mistake.is_patch and cp.solution_path.is_file():
            try:
                mistake.source()
            except LessonError as error:
                problems.append(str(error))
        if mistake.feedback:
            missing = [lang for lang in langs if lang not in mistake.feedback]
            if missing:
                problems.append(
                    f"{rel(mistake.path)}: feedback missing in {', '.join(missing)}: add "
                    f"'# feedback.{missing[0]}: …' (or give no feedback at all)"
                )
            problems += _feedback_problems(mistake)
    problems += _lint_grader(lesson, cp, mistakes, seed)
    return problems


def _feedback_problems(mistake: Mistake) -> list[str]:
    """Markdown in a mistake's feedback that the verdict would show as written (werkbank.markdown.inline_parts)."""
    from werkbank.markdown import MarkdownError, inline_parts

    problems = []
    for lang, text in mistake.feedback.items():
        where = f"{rel(mistake.path)}: feedback.{lang}"
        html = _html_problems(text, mistake.path)
        if html:
            problems += [p.replace(f"{rel(mistake.path)}:1:", f"{where}:", 1) for p in html]
            continue
        try:
            inline_parts(text, where)
        except MarkdownError as error:
            problems.append(str(error))
    return problems


def _lint_grader(lesson: Lesson, cp: Checkpoint, mistakes: list[Mistake], seed: int) -> list[str]:
    from graders.engine.case import AuthorError
    from graders.engine.generate import FAMILIES, unknown_skips
    from graders.engine.prepare import collect_cases, domains_of

    path = grader_path(cp.grader)
    where = rel(path)
    toml = rel(lesson.folder / "lesson.toml")
    if not path.is_file():
        siblings = [p.stem for p in path.parent.glob("*.py")] if path.parent.is_dir() else []
        return [
            f"{where}: missing: {toml} names grader {cp.grader!r}"
            f"{did_you_mean(path.stem, siblings)}; write it (see AUTHORING.md) or fix the name"
        ]
    try:
        module = importlib.import_module(cp.grader)
    except Exception as error:  # the author's module: any error is theirs, shown as one line
        line = _error_line(error, path)
        return [f"{where}{line}: cannot be imported: {type(error).__name__}: {error}"]
    problems = []
    for name in dir(module):
        if name.isupper() and name not in GRADER_SETTINGS and difflib_close(name, GRADER_SETTINGS):
            problems.append(
                f"{where}: {name} is not a grader setting{did_you_mean(name, GRADER_SETTINGS)}; "
                f"the settings are {', '.join(GRADER_SETTINGS)}"
            )
    if hasattr(module, "random_cases") and not getattr(module, "RANDOM_CASES", 0):
        problems.append(
            f"{where}: defines random_cases() but RANDOM_CASES is 0 or missing, so no random case runs: "
            "set RANDOM_CASES = 25 (or how many)"
        )
    if not hasattr(module, "curated"):
        problems.append(f"{where}: has no curated(): yield the checkpoint's Case objects from it")
        return problems
    try:
        cases = collect_cases(module, seed)
    except AuthorError as error:
        return problems + [f"{where}: {error}"]
    entry = set(cp.entry)
    try:
        domains = domains_of(module)
    except AuthorError as error:
        problems.append(f"{where}: {error}")
        domains = []
    for domain in domains:
        if entry and domain.call.split(".")[0] not in entry:
            problems.append(
                f"{where}: DOMAIN calls {domain.call}, which the task does not ask for (entry = "
                f"{sorted(entry)} in {toml}): generated cases would fail every correct learner"
            )
        for name in unknown_skips(domain.skip):
            problems.append(
                f"{where}: DOMAIN {domain.call} skips {name!r}, which is no family, so it skips nothing"
                f"{did_you_mean(name.rstrip('*'), FAMILIES)}; AUTHORING.md lists every family"
            )
    strangers: dict[str, list[str]] = {}  # a call the task does not ask for -> the ids of its cases
    for case in cases:
        head = case.call.split(".")[0]
        if entry and head not in entry:
            strangers.setdefault(case.call, []).append(case.id)
    for call, ids in strangers.items():
        which = f"case {ids[0]!r}" if len(ids) == 1 else f"{len(ids)} cases ({', '.join(map(repr, ids[:3]))}, …)"
        problems.append(
            f"{where}: {which} call{'s' if len(ids) == 1 else ''} {call}, which the task does not ask for (entry = "
            f"{sorted(entry)} in {toml}): a learner's correct code has no {call.split('.')[0]}; call an entry "
            "name, or add it to entry and to the task"
        )
    for case in cases:
        for table_name in ("explain", "hint"):
            table = getattr(case, table_name)
            if table_name == "hint" and not table:
                continue
            missing = [lang for lang in lesson.languages if not table.get(lang)]
            if missing:
                problems.append(
                    f"{where}: case {case.id!r}: {table_name} has no {', '.join(missing)} text (the "
                    f"lesson is in {', '.join(lesson.languages)}; nothing falls back)"
                )
    if cp.plot and getattr(module, "PLOT_CASE", None) is None:
        problems.append(
            f"{toml}: checkpoint {cp.id!r} has plot = {cp.plot!r}, but {where} sets no PLOT_CASE: "
            "name the case whose result is drawn"
        )
    case_ids = [case.id for case in cases]
    for mistake in mistakes:
        generated = mistake.expect_fail and (
            mistake.expect_fail.startswith("gen/") or any(ch in mistake.expect_fail for ch in "*?[")
        )
        if mistake.expect_fail and not generated and mistake.expect_fail not in case_ids:
            problems.append(
                f"{rel(mistake.path)}: expect-fail {mistake.expect_fail!r} is not a case of {where}"
                f"{did_you_mean(mistake.expect_fail, case_ids)}"
            )
    return problems


def difflib_close(name: str, choices) -> bool:
    """True when ``name`` is a near miss of a setting (one or two letters off), not just any capitalised name."""
    import difflib

    return bool(difflib.get_close_matches(name, list(choices), n=1, cutoff=0.85))


def _error_line(error: BaseException, path: Path) -> str:
    if isinstance(error, SyntaxError) and error.lineno:
        return f":{error.lineno}"
    tb = error.__traceback__
    line = None
    while tb is not None:
        if Path(tb.tb_frame.f_code.co_filename).resolve() == path.resolve():
            line = tb.tb_lineno
        tb = tb.tb_next
    return f":{line}" if line else ""


# --- grading --------------------------------------------------------------------------------------------------------


@dataclass
class Graded:
    """One item's result in one runtime."""

    verdict: dict
    outcomes: list


def _prepare_all(lessons, seed: int, problems: list[str]) -> dict:
    from graders.engine.case import AuthorError
    from werkbank.grading import prepared_checkpoint

    prepared = {}
    for lesson in lessons:
        for cp in lesson.checkpoints:
            if not cp.solution_path.is_file():
                continue
            try:
                prepared[(lesson.id, cp.id)] = prepared_checkpoint(cp, seed=seed)
            except AuthorError as error:
                problems.append(f"{rel(cp.solution_path)} / {rel(grader_path(cp.grader))}: author error: {error}")
            except Exception as error:  # an author's grader or reference misbehaving in an unforeseen way
                problems.append(f"{rel(grader_path(cp.grader))}: author error: {type(error).__name__}: {error}")
    return prepared


#: Prepares the given checkpoints of one lesson folder in a fresh process (their cases and the reference's expected
#: outcomes; the declared mistakes' record is left out, it is made in child processes with a fixed hash seed anyway)
#: and prints them as JSON.
_PREPARE_ELSEWHERE = """
import importlib, json, sys
from pathlib import Path
from werkbank.lessons import add_graders_folder, load_lesson_folder
from graders.engine.prepare import prepare
for folder in json.loads(sys.argv[3]):
    add_graders_folder(folder)
lesson = load_lesson_folder(Path(sys.argv[1]))
out = {}
for cp in lesson.checkpoints:
    if cp.id in json.loads(sys.argv[4]):
        made = prepare(importlib.import_module(cp.grader), cp.solution(), lesson=lesson.id, checkpoint=cp.id,
                       seed=int(sys.argv[2]), plot=cp.plot)
        out[cp.id] = {"cases": made["plan"]["cases"], "expected": made["key"]["expected"]}
sys.stdout.write(json.dumps(out))
"""

#: The hash seed of that other process: str hashes, and so the order of a set of texts, differ from this one's
#: (unless this one runs with the same fixed seed: then the other takes the second).
OTHER_HASH_SEEDS = ("12345", "54321")


def case_difference(mine: list, other: list) -> str | None:
    """How two preparations of one checkpoint's cases (``plan["cases"]``) differ, or None: the first case whose id,
    call or inputs differ, both sides shown."""
    for ours, theirs in zip(mine, other):
        if ours != theirs:
            if ours["id"] != theirs["id"]:
                return f"case #{mine.index(ours) + 1} is {ours['id']} in one and {theirs['id']} in the other"
            return (
                f"case {ours['id']} calls {ours['call']} with {ours['json'][:80]} in one and {theirs['call']} with "
                f"{theirs['json'][:80]} in the other"
            )
    if len(mine) != len(other):
        return f"{len(mine)} cases in one, {len(other)} in the other"
    return None


def process_problems(lesson: Lesson, prepared: dict, seed: int) -> tuple[list[str], set]:
    """The cases must not depend on the process that prepares them: the build prepares a Check's cases, `werkbank
    grade` and check prepare them again, each in its own process. Each checkpoint is prepared once more in a child
    process with another hash seed (the order of a set of texts changes with it); returns the problems (one per
    checkpoint, naming its grader) and the checkpoint ids whose cases differ."""
    import json
    import os
    import subprocess

    from werkbank.lessons import graders_folders

    ids = [cp.id for cp in lesson.checkpoints if (lesson.id, cp.id) in prepared]
    if not ids:
        return [], set()
    hash_seed = next(h for h in OTHER_HASH_SEEDS if h != os.environ.get("PYTHONHASHSEED"))
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            _PREPARE_ELSEWHERE,
            str(lesson.folder),
            str(seed),
            json.dumps([str(folder) for folder in graders_folders()]),
            json.dumps(ids),
        ],
        capture_output=True,
        text=True,
        cwd=REPO_ROOT,
        env={**os.environ, "PYTHONHASHSEED": hash_seed, "PYTHONPATH": str(REPO_ROOT)},
    )
    if done.returncode != 0:
        tail = (done.stderr.strip().splitlines() or ["(no output)"])[-1]
        return [f"{rel(lesson.folder / 'lesson.toml')}: cannot prepare the lesson in another process: {tail}"], set()
    theirs = json.loads(done.stdout)
    problems, unstable = [], set()
    for cp in lesson.checkpoints:
        if cp.id not in ids:
            continue
        mine, other = prepared[(lesson.id, cp.id)], theirs.get(cp.id, {})
        difference = case_difference(mine["plan"]["cases"], other.get("cases", []))
        if difference:
            unstable.add(cp.id)
            problems.append(
                f"{rel(grader_path(cp.grader))}: the cases depend on the process that prepares them ({difference}, "
                f"with PYTHONHASHSEED={hash_seed}), so the browser would run other cases than werkbank grade: "
                "build inputs from sorted lists, never from the order of a set or dict of texts, id() or hash()"
            )
            continue
        from werkbank.parity import expected_differences

        for case, ours, other_text in expected_differences(mine["key"]["expected"], other.get("expected", {}))[:1]:
            unstable.add(cp.id)
            problems.append(
                f"{rel(cp.solution_path)}: the reference's result depends on the process: on case {case} it "
                f"{ours} in one and {other_text} in another (PYTHONHASHSEED={hash_seed}); the expected value must "
                "be a fact: sort what comes from a set or dict of texts before returning it in order"
            )
    return problems, unstable


def grade_cpython(
    work: list[Item], prepared: dict, *, jobs: int = 2, lang: str = FALLBACK_LANGUAGE
) -> dict[str, Graded]:
    """Grade every item with the CPython host (a child process each), against its checkpoint's prepared key. Each
    checkpoint's expected values the judge takes at once (``known_values``) are made once here, as the grader worker
    keeps them with its Checks, not again for every file."""
    from graders.engine.judge import judge, known_values
    from graders.hosts import cpython

    known = {where: known_values(ready["key"]) for where, ready in prepared.items() if "key" in ready}

    def grade(item: Item) -> Graded:
        where = (item.lesson.id, item.checkpoint.id)
        ready = prepared[where]
        run = cpython.run(item.source(), ready["plan"])
        outcomes = [
            {k: v for k, v in o.items() if k not in ("traceback", "error_line")} for o in run.get("outcomes", [])
        ]
        return Graded(judge({**ready, "known": known.get(where)}, run, lang), outcomes)

    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        results = list(pool.map(grade, work))
    return {item.id: graded for item, graded in zip(work, results)}


def grade_pyodide(
    lessons, work: list[Item], seed: int, prepared_c: dict, problems: list[str], unstable=()
) -> tuple[dict[str, Graded], set]:
    """Grade every item in Pyodide (one Node process); record reference differences in ``problems``. Returns the
    results, the ``(lesson, checkpoint)`` pairs whose reference fails to prepare in Pyodide (one problem each), and
    per pair the case ids both runtimes generated (the verdicts are compared on those)."""
    from werkbank.parity import run_pyodide

    cps = {(i.lesson.id, i.checkpoint.id) for i in work}
    prepare = [{"lesson": lid, "checkpoint": cid, "seed": seed, "lang": FALLBACK_LANGUAGE} for lid, cid in sorted(cps)]
    jobs = [
        {
            "id": item.id,
            "lesson": item.lesson.id,
            "checkpoint": item.checkpoint.id,
            "seed": seed,
            "source": item.source(),
            "lang": FALLBACK_LANGUAGE,
        }
        for item in work
    ]
    prepared_p, results = run_pyodide(
        [lesson for lesson in lessons if any(k[0] == lesson.id for k in cps)], jobs, prepare
    )
    broken, common = set(), {}
    for lesson in lessons:
        for cp in lesson.checkpoints:
            if (lesson.id, cp.id) not in cps:
                continue
            theirs = prepared_p.get((lesson.id, cp.id, seed), {})
            found, both = reference_parity_problems(cp, prepared_c[(lesson.id, cp.id)]["key"]["expected"], theirs)
            if (lesson.id, cp.id) in unstable:  # other inputs under the same case ids: the grader is named already
                found, both = [], set()
            problems += found
            if both is None:
                broken.add((lesson.id, cp.id))
            else:
                common[(lesson.id, cp.id)] = both
    return {key: Graded(value["verdict"], value["outcomes"]) for key, value in results.items()}, broken, common


def reference_parity_problems(cp: Checkpoint, mine: dict, theirs: dict) -> tuple[list[str], set | None]:
    """One checkpoint's reference in both runtimes: CPython's expected outcomes ``mine`` (the prepared key's
    ``expected``) against what Pyodide prepared (``theirs``: its ``expected``, or an ``author_error``). Returns the
    problems and the case ids both runtimes generated (None when the reference fails to prepare in Pyodide). make
    test's Pyodide run of every reference (tests/test_checkpoints.py) uses it too, so its messages are check's."""
    from werkbank.parity import advice, expected_differences

    if "author_error" in theirs:
        error = theirs["author_error"]
        return [
            f"{rel(cp.solution_path)}: works in CPython, but in Pyodide it is an author error: {error}{advice(error)}"
        ], None
    problems = []
    other = theirs.get("expected", {})
    both = {case for case in mine if case in other}
    only_c, only_p = [c for c in mine if c not in both], [c for c in other if c not in both]
    if only_c or only_p:
        problems.append(
            f"{rel(grader_path(cp.grader))}: the runtimes generate different cases: "
            f"{len(only_c)} only in CPython (like {only_c[:1] or '-'}), {len(only_p)} only in "
            f"Pyodide (like {only_p[:1] or '-'}); case generation must not depend on the "
            "platform (numpy's default int is int32 in Pyodide); the other cases are compared"
        )
    for case, ours, theirs_text in expected_differences({c: mine[c] for c in mine if c in both}, other):
        problems.append(
            f"{rel(cp.solution_path)}: the reference differs between runtimes on case {case}: "
            f"CPython {ours}, Pyodide {theirs_text}"
        )
    return problems, both


def _only(verdict: dict, cases) -> dict:
    """The verdict with its failing cases limited to ``cases`` (those both runtimes generated)."""
    if cases is None:
        return verdict
    return {**verdict, "failed_cases": [c for c in verdict.get("failed_cases") or [] if c in cases]}


def compare_with_pyodide(
    lessons, work: list[Item], cpython: dict[str, Graded], prepared: dict, seed: int = CASE_SEED, unstable=()
) -> tuple[list[str], str]:
    """Grade ``work`` in Pyodide and compare with the CPython results, graded against ``prepared``:
    ``(problems, one report line)``. ``unstable``: ``(lesson, checkpoint)`` pairs whose cases depend on the process
    (:func:`process_problems` named their grader), whose differences are not the reference's."""
    from werkbank.parity import ParityError, verdict_difference

    problems: list[str] = []
    try:
        theirs, broken, common = grade_pyodide(lessons, work, seed, prepared, problems, unstable)
    except ParityError as error:
        return [f"Pyodide parity: {error} (werkbank check --no-pyodide skips it)"], "Pyodide parity: not run"
    same = 0
    for item in work:
        if (item.lesson.id, item.checkpoint.id) in broken:
            continue  # one line about the reference says it all
        other = theirs.get(item.id)
        if other is None:
            problems.append(f"{rel(item.path)}: no Pyodide verdict")
            continue
        ours = cpython[item.id]
        shared = common.get((item.lesson.id, item.checkpoint.id))
        difference = verdict_difference(
            _only(ours.verdict, shared), ours.outcomes, _only(other.verdict, shared), other.outcomes
        )
        if difference:
            problems.append(f"{rel(item.path)}: the runtimes disagree: {difference}")
        else:
            same += 1
    return problems, f"Pyodide parity: {same}/{len(work)} files get the same verdict in CPython and Pyodide"


# --- the command ----------------------------------------------------------------------------------------------------


def select_lessons(lesson_ids=None, root: Path | None = None) -> tuple[list[Lesson], list[str]]:
    """Load the lessons to check; a lesson whose lesson.toml is broken becomes one problem line."""
    root = root or EXERCISES
    lessons, problems = [], []
    for folder in lesson_folders(root):
        try:
            lessons.append(load_lesson_folder(folder))
        except LessonError as error:
            problems.append(str(error))
    seen: dict[str, Lesson] = {}
    for lesson in lessons:
        if lesson.id in seen:
            problems.append(
                f"{rel(lesson.folder / 'lesson.toml')}: lesson id {lesson.id!r} is also declared in "
                f"{rel(seen[lesson.id].folder / 'lesson.toml')}"
            )
        seen[lesson.id] = lesson
    if lesson_ids:
        chosen = []
        for lesson_id in lesson_ids:
            if lesson_id in seen:
                chosen.append(seen[lesson_id])
            elif not problems:
                problems.append(unknown_lesson(lesson_id, seen, root))
        lessons = chosen
        problems = [p for p in problems if any(lid in p for lid in lesson_ids)] or problems
    return sorted(lessons, key=lambda lesson: (lesson.order, lesson.id)), problems


def check_lessons(
    lesson_ids=None,
    *,
    seed: int = CASE_SEED,
    jobs: int = 2,
    pyodide: bool = True,
    mutants: bool = False,
    lesson_tests: bool = True,
    progress=None,
    root: Path | None = None,
) -> tuple[list[str], list[str]]:
    """Check the given lessons (default: all under ``root``, the exercises folder). Returns ``(problems, report
    lines)``; see the module docstring."""
    say = progress or (lambda line: None)
    lessons, problems = select_lessons(lesson_ids, root)
    for lesson in lessons:
        problems += lint_lesson(lesson, seed=seed)
        problems += [p for p in text_problems(lesson) if p not in problems]
        problems += _source_problems(lesson)
    prepared = _prepare_all(lessons, seed, problems)
    elsewhere = ThreadPoolExecutor(max_workers=1)  # the other process prepares while this one grades
    again = [(lesson, elsewhere.submit(process_problems, lesson, prepared, seed)) for lesson in lessons]
    work = []
    for item in items(lessons):
        if (item.lesson.id, item.checkpoint.id) not in prepared:
            continue
        try:
            item.source()
        except (LessonError, OSError) as error:
            # a file that exists but cannot be read (not UTF-8, a patch that does not apply): named once, whether
            # the linter named it already or not
            problem = str(error) if isinstance(error, LessonError) else f"{rel(item.path)}: cannot read: {error}"
            if problem not in problems:
                problems.append(problem)
            continue
        work.append(item)
    say(f"check: {len(work)} files of {len(lessons)} lesson(s) in CPython")
    cpython = grade_cpython(work, prepared, jobs=jobs)
    unstable = set()
    for lesson, future in again:
        found, ids = future.result()
        problems += found
        unstable |= {(lesson.id, cp_id) for cp_id in ids}
    elsewhere.shutdown()
    report = []
    for item in work:
        ready = prepared[(item.lesson.id, item.checkpoint.id)]
        verdict = cpython[item.id].verdict
        problem = judge_job(item.kind, verdict, item.mistake, ready["key"]["order"])
        report.append(
            f"{'ok  ' if problem is None else 'FAIL'} {item.lesson.id} {item.checkpoint.id} "
            f"{item.name}: {verdict['status']} ({verdict.get('passed')}/{verdict.get('total')})"
        )
        if problem and item.kind == "alternative" and verdict["status"] == "fail":
            found = blame(ready, cpython[item.id].outcomes, verdict["failure"]["case"])
            if found and found[0] == "reference":
                problems.append(
                    f"{rel(item.checkpoint.solution_path)}: on case {verdict['failure']['case']} "
                    f"({verdict['failure']['call']}), with {rel(item.path)}: {found[1]}"
                )
                continue
            if found:
                problem = f"fails case {verdict['failure']['case']} ({verdict['failure']['call']}): {found[1]}"
        if problem and not (item.kind == "mistake" and "is not a case of" in problem):  # the linter said so
            problems.append(f"{rel(item.path)}: {problem}")
    for lesson in lessons:
        for cp in lesson.checkpoints:
            if (lesson.id, cp.id) in prepared:
                problems += feedback_problems(cp, prepared[(lesson.id, cp.id)])
                problems += other_seed_problems(cp, seed + 1)
    if pyodide and work:
        say(f"check: the same {len(work)} files in Pyodide (Node)")
        found, line = compare_with_pyodide(lessons, work, cpython, prepared, seed, unstable)
        problems += found
        report.append(line)
    for lesson in lessons:
        if lesson_tests and lesson_test_file(lesson) is not None:
            say(f"check: {rel(lesson_test_file(lesson))} (the lesson's own tests)")
            problems += lesson_test_problems(lesson)
    if mutants:
        problems += _run_mutants(lessons, seed, report)
    return problems, report


def _source_problems(lesson: Lesson) -> list[str]:
    """Runs of seven words shared with the source documents (werkbank.sources); a grader that cannot even be
    imported is the linter's to name."""
    from werkbank.sources import source_problems

    try:
        return source_problems(lesson)
    except Exception:  # noqa: BLE001 - a broken grader or lesson file: named by the linter
        return []


def other_seed_problems(cp: Checkpoint, seed: int) -> list[str]:
    """The reference must also pass the cases of another seed (other random and generated cases): a reference that
    passes only its own seed's cases hides an input it cannot handle."""
    from graders.engine.case import AuthorError
    from graders.engine.judge import judge
    from graders.hosts import cpython
    from werkbank.grading import prepared_checkpoint

    try:
        prepared = prepared_checkpoint(cp, seed=seed)
    except AuthorError as error:
        return [f"{rel(cp.solution_path)} / {rel(grader_path(cp.grader))}: author error with seed {seed}: {error}"]
    except Exception:  # noqa: BLE001 - a broken grader: named by the default seed's run
        return []
    verdict = judge(prepared, cpython.run(cp.solution(), prepared["plan"]))
    problem = judge_job("reference", verdict, None)
    return [f"{rel(cp.solution_path)}: with seed {seed}: {problem}"] if problem else []


def lesson_test_file(lesson: Lesson) -> Path | None:
    """The lesson's own tests, ``tests/test_lesson_<package>.py`` beside the exercises folder (the package of its
    graders), when there is such a file."""
    packages = {cp.grader.split(".")[1] for cp in lesson.checkpoints if cp.grader.count(".") >= 2}
    for package in sorted(packages):
        path = lesson.folder.parent.parent / "tests" / f"test_lesson_{package}.py"
        if path.is_file():
            return path
    return None


def lesson_test_problems(lesson: Lesson) -> list[str]:
    """The lesson's own test file run with pytest (as ``make test`` runs it): one line per failing test, naming the
    file and the test."""
    import os
    import subprocess

    path = lesson_test_file(lesson)
    if path is None:
        return []
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--tb=no", "-rfE", "--color=no", str(path)],
        cwd=path.parent.parent,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(REPO_ROOT), "COLUMNS": "400"},
    )
    if done.returncode in (0, 5):  # passed, or no tests in it
        return []
    failed = [line.split(" ", 1)[1] for line in done.stdout.splitlines() if line.startswith(("FAILED ", "ERROR "))]
    where = rel(path)
    if not failed:
        tail = (done.stdout.strip().splitlines() or done.stderr.strip().splitlines() or ["(no output)"])[-1]
        return [f"{where}: the lesson's own tests do not run: {tail}"]
    return [f"{where}::{line.split('::', 1)[1] if '::' in line else line}" for line in failed]


def _run_mutants(lessons, seed: int, report: list[str]) -> list[str]:
    """The hook for ``--mutants``: :func:`werkbank.mutants.run_mutants`, when that module exists."""
    try:
        from werkbank import mutants as module
    except ModuleNotFoundError as error:
        if error.name != "werkbank.mutants":
            raise
        return ["--mutants: werkbank.mutants is not available in this checkout"]
    result = module.run_mutants(lessons)
    if isinstance(result, tuple) and len(result) == 2:
        found, lines = result
        report.extend(lines)
        return list(found)
    return list(result or [])
