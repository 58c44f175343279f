"""The ``werkbank`` command: new, grade, check, build and serve. The one entry point of the tooling.

Exit codes: 0 success (a pass), 1 a fail, error or timeout (or a failed check), 2 usage or author errors.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import re
import sys
import tokenize
from pathlib import Path

from graders.engine.settings import CASE_SEED, FALLBACK_LANGUAGE, LANGUAGES

ROOT = Path(__file__).resolve().parent.parent


def read_source(path: Path) -> str:
    """A Python file's text as Python itself reads it: UTF-8 unless a BOM or a PEP 263 coding line says otherwise
    (an editor's BOM included). A coding line Python cannot use (an unknown codec, or another one after a UTF-8 BOM)
    is left to the text, as the browser's editor leaves it: the file is read as UTF-8 then, and compiling a text
    ignores the line. Raises OSError, or ValueError (UnicodeDecodeError) for bytes that are not text in the
    encoding."""
    data = path.read_bytes()
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    except SyntaxError:
        encoding = "utf-8-sig"
    return data.decode(encoding)


_UNPRINTABLE = re.compile("[\ud800-\udfff\x7f-\x9f]")
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f]")


def printable(text: str) -> str:
    """``text`` with every lone surrogate (learner code may print or return one) and every C1 control character
    (a terminal may take U+009B for the start of an escape sequence) written as its ``\\uXXXX`` escape: a lone
    surrogate cannot be encoded as UTF-8, and the command once died writing it. Inside the JSON output the escape is
    the JSON escape of the same character."""
    return _UNPRINTABLE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def print_json(value) -> None:
    """Print ``value`` as one line of JSON: its text as it is where standard output can write it (:func:`printable`),
    else every character beyond ASCII as its JSON escape (an ASCII-only console, ``PYTHONIOENCODING=ascii``), so a
    learner's Arabic or emoji output never stops the command before its verdict."""
    text = printable(json.dumps(value, ensure_ascii=False))
    try:
        text.encode(sys.stdout.encoding or "utf-8")
    except (UnicodeEncodeError, LookupError):
        text = json.dumps(value)
    print(text)


def terminal_text(text: str) -> str:
    """:func:`printable`, and every other control character but newline and tab escaped too: learner output shown
    in a terminal cannot clear the screen, move the cursor or overwrite a line to fake a verdict."""
    return _CONTROL.sub(lambda m: f"\\u{ord(m.group()):04x}", printable(text))


def _grade(args) -> int:
    from graders.hosts.cpython import undumpable
    from werkbank.grading import grade_source

    undumpable()  # the learner's code runs as this user: this process's memory and streams stay out of its reach
    if not args.json and hasattr(sys.stdout, "reconfigure"):
        sys.stdout.reconfigure(errors="backslashreplace")  # a learner's text on an ASCII-only console
    path = Path(args.file)
    try:
        source = read_source(path)
    except (OSError, ValueError, LookupError) as error:
        problem = f"cannot read {path}: {error}"
        print(f"werkbank grade: {problem}", file=sys.stderr)
        if args.json:
            print_json({"status": "error", "message": problem, "detail": problem, "usage": True})
        return 2
    verdict = grade_source(args.lesson, args.checkpoint, source, lang=args.lang, seed=args.seed)
    if verdict.get("usage"):  # a lesson or checkpoint that does not exist: the command was called wrongly
        print(f"werkbank grade: {verdict['detail']}", file=sys.stderr)
        if args.json:
            usage = {"status": "error", "message": verdict["detail"], "detail": verdict["detail"], "usage": True}
            print_json(usage)
        return 2
    if args.json:
        print_json(cli_verdict(verdict))
    else:
        print(terminal_text(format_verdict(verdict)))
    if verdict["status"] == "author_error":
        if not args.json:
            print("(an author error: the lesson or its grader needs fixing)", file=sys.stderr)
        return 2
    return 0 if verdict["status"] == "pass" else 1


def cli_verdict(verdict: dict) -> dict:
    """The verdict as ``werkbank grade --json`` prints it: its status is one of pass, fail, error and timeout (the
    command's contract), so a broken grader or reference is an error, marked ``"author_error": true``."""
    if verdict["status"] != "author_error":
        return verdict
    return {**verdict, "status": "error", "author_error": True}


def format_verdict(verdict: dict) -> str:
    """A verdict as readable terminal text."""
    lines = [f"{verdict['status'].upper()}: {verdict['message']}"]
    failure = verdict.get("failure")
    if failure:
        lines += [
            f"  case:     {failure['case']}",
            f"  call:     {failure['call']}",
            f"  expected: {failure['expected']}",
            f"  got:      {failure['actual']}",
            f"  why:      {failure['reason']}",
        ]
        if failure.get("explanation"):
            lines.append(f"  about:    {failure['explanation']}")
        if failure.get("hint"):
            lines.append(f"  hint:     {failure['hint']}")
        if failure.get("mistake"):  # a declared mistake that fails exactly like this: its name and feedback
            lines.append(f"  mistake:  {failure['mistake']}: {failure.get('feedback') or ''}".rstrip())
    if verdict.get("traceback"):
        lines.append(_indented(verdict["traceback"].rstrip()))
    lines += [f"  note: {note}" for note in verdict.get("notes", [])]
    if verdict.get("stdout"):
        lines.append("--- stdout ---\n" + _indented(verdict["stdout"].rstrip()))
    return "\n".join(lines)


def _indented(text: str) -> str:
    """Learner-made text (a traceback, printed output) with every line indented: only the verdict's own first line
    starts at the margin, so no line the learner's code prints or raises can pass for a verdict."""
    return "\n".join("  " + line for line in text.splitlines())


def _check(args) -> int:
    import time

    from werkbank.check import check_lessons
    from werkbank.lessons import LessonError

    start = time.monotonic()
    try:
        problems, report = check_lessons(
            args.lessons or None,
            seed=args.seed,
            jobs=args.jobs,
            pyodide=not args.no_pyodide,
            mutants=args.mutants,
            lesson_tests=not args.no_lesson_tests,
            progress=lambda line: print(line, file=sys.stderr, flush=True),
        )
    except LessonError as error:
        print(f"werkbank check: {error}", file=sys.stderr)
        return 2
    for line in report:
        print(line)
    took = f" ({time.monotonic() - start:.0f} s)"
    if problems:
        print(f"\n{len(problems)} problem(s){took}:", file=sys.stderr)
        for problem in problems:
            print(f"  - {problem}", file=sys.stderr)
        return 1
    print(f"check: all good{took}", file=sys.stderr)
    return 0


def _new(args) -> int:
    from werkbank.scaffold import ScaffoldError, scaffold

    languages = [lang.strip() for lang in args.lang.split(",") if lang.strip()]
    try:
        written = scaffold(args.lesson, languages, title=args.title)
    except ScaffoldError as error:
        print(f"werkbank new: {error}", file=sys.stderr)
        return 2
    for line in written:
        print(line)
    return 0


def _build(args) -> int:
    from werkbank.build import build
    from werkbank.errors import WerkbankError
    from werkbank.lessons import LessonError

    try:
        broken = build(Path(args.dist), bytecode=False if args.stock else None)
    except (LessonError, WerkbankError) as error:
        print(f"werkbank build: {error}", file=sys.stderr)
        return 2
    for line in broken:  # built all the same: the page says the checkpoint's grader is broken
        print(f"werkbank build: author error: {line}", file=sys.stderr)
    return 0


def _serve(args) -> int:
    import os

    port = args.port if args.port is not None else int(os.environ.get("PORT", "8000"))
    if args.watch:
        from werkbank.watch import serve_watching

        return serve_watching(Path(args.dist), host=args.host, port=port)
    from werkbank.serve import serve

    serve(Path(args.dist), host=args.host, port=port)
    return 0


def parser() -> argparse.ArgumentParser:
    """The command-line parser."""
    top = argparse.ArgumentParser(prog="werkbank", description="Build, serve and grade werkbank lessons.")
    sub = top.add_subparsers(dest="command", required=True)
    grade = sub.add_parser("grade", help="grade a Python file against a checkpoint")
    grade.add_argument("lesson", metavar="LESSON_ID")
    grade.add_argument("checkpoint", metavar="CHECKPOINT")
    grade.add_argument("file", metavar="FILE")
    grade.add_argument("--json", action="store_true", help="print one JSON object")
    grade.add_argument("--lang", choices=LANGUAGES, default=FALLBACK_LANGUAGE)
    grade.add_argument(
        "--seed",
        type=int,
        default=CASE_SEED,
        help=f"seed of the random and generated cases (default {CASE_SEED}: the cases a Check in the "
        "browser runs; another seed lets an author try other cases)",
    )
    grade.set_defaults(func=_grade)
    check = sub.add_parser(
        "check",
        help="lint lessons, then prove every checkpoint in CPython and Pyodide: "
        "references and alternatives pass, starters and mistakes fail as declared",
    )
    check.add_argument(
        "lessons",
        nargs="*",
        metavar="LESSON_ID",
        help="the lessons to check, by the id in their lesson.toml (default: every lesson in the exercises folder, "
        "$WERKBANK_EXERCISES when set)",
    )
    check.add_argument(
        "--seed",
        type=int,
        default=CASE_SEED,
        help=f"the seed of the random and generated cases (default {CASE_SEED}: the cases a Check in the browser "
        "runs); another seed tries other cases",
    )
    check.add_argument("--jobs", type=int, default=2, help="files graded at once in CPython (default 2)")
    check.add_argument(
        "--no-pyodide",
        action="store_true",
        help="skip the Pyodide parity run (faster while drafting; make test never skips it)",
    )
    check.add_argument(
        "--mutants",
        action="store_true",
        help="also run the graders against generated mutants of each reference (werkbank.mutants)",
    )
    check.add_argument(
        "--no-lesson-tests",
        action="store_true",
        help="skip the lesson's own test file, tests/test_lesson_<package>.py (faster while drafting)",
    )
    check.set_defaults(func=_check)
    new = sub.add_parser("new", help="scaffold a lesson that passes check at once")
    new.add_argument("lesson", metavar="LESSON_ID", help="lowercase words joined by '-', e.g. my-lesson")
    new.add_argument(
        "--lang", default=FALLBACK_LANGUAGE, help="comma-separated languages, the first the original (en,nl)"
    )
    new.add_argument("--title", default=None, help="the lesson's title (default: from the id)")
    new.set_defaults(func=_new)
    build = sub.add_parser("build", help="write the static site to dist/")
    build.add_argument("--dist", default=str(ROOT / "dist"), help="the folder to write (default: dist/)")
    build.add_argument(
        "--stock", action="store_true", help="ship Pyodide's stock runtime files instead of the bytecode-compiled ones"
    )
    build.set_defaults(func=_build)
    serve = sub.add_parser("serve", help="serve dist/ with COOP/COEP headers")
    serve.add_argument("--dist", default=str(ROOT / "dist"), help="the folder to serve (default: dist/)")
    serve.add_argument("--host", default="127.0.0.1", help="the address to listen on (default: 127.0.0.1)")
    serve.add_argument("--port", type=int, default=None, help="default: $PORT or 8000")
    serve.add_argument(
        "--watch",
        action="store_true",
        help="rebuild when lessons, graders or web/ change and reload open pages (no service worker)",
    )
    serve.set_defaults(func=_serve)
    return top


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``werkbank`` console script."""
    args = parser().parse_args(argv)
    try:
        return args.func(args)
    except BrokenPipeError:
        # the reader went away (`werkbank grade ... --json | head -c 200`): what it read stands, and no traceback
        # follows it; Python's own flush of stdout at exit would fail the same way, so stdout goes nowhere now
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1


if __name__ == "__main__":
    sys.exit(main())
