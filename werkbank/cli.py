"""The ``werkbank`` command: grade, check, build and serve.

Exit codes: 0 success (a pass), 1 a fail, error or timeout (or a failed check), 2 usage or author errors.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from graders.engine.settings import LANGUAGES

ROOT = Path(__file__).resolve().parent.parent


def _grade(args) -> int:
    from werkbank.grading import grade_source

    path = Path(args.file)
    try:
        source = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        print(f"werkbank grade: cannot read {path}: {error}", file=sys.stderr)
        return 2
    verdict = grade_source(args.lesson, args.checkpoint, source, lang=args.lang, seed=args.seed)
    if args.json:
        print(json.dumps(verdict, ensure_ascii=False))
    else:
        print(format_verdict(verdict))
    if verdict["status"] == "author_error":
        if not args.json:
            print("(an author error: the lesson or its grader needs fixing)", file=sys.stderr)
        return 2
    return 0 if verdict["status"] == "pass" else 1


def format_verdict(verdict: dict) -> str:
    """A verdict as readable terminal text."""
    lines = [f"{verdict['status'].upper()}: {verdict['message']}"]
    failure = verdict.get("failure")
    if failure:
        lines += [f"  case:     {failure['case']}", f"  call:     {failure['call']}",
                  f"  expected: {failure['expected']}", f"  got:      {failure['actual']}",
                  f"  why:      {failure['reason']}"]
        if failure.get("explanation"):
            lines.append(f"  about:    {failure['explanation']}")
        if failure.get("hint"):
            lines.append(f"  hint:     {failure['hint']}")
    if verdict.get("traceback"):
        lines.append(verdict["traceback"].rstrip())
    lines += [f"  note: {note}" for note in verdict.get("notes", [])]
    if verdict.get("stdout"):
        lines.append("--- stdout ---\n" + verdict["stdout"].rstrip())
    return "\n".join(lines)


def _check(args) -> int:
    from werkbank.check import check_lessons
    from werkbank.lessons import LessonError

    try:
        problems, report = check_lessons(args.lessons or None, seed=args.seed, jobs=args.jobs)
    except LessonError as error:
        print(f"werkbank check: {error}", file=sys.stderr)
        return 2
    for line in report:
        print(line)
    if problems:
        print(f"\n{len(problems)} problem(s):", file=sys.stderr)
        for problem in problems:
            print(f"  - {problem}", file=sys.stderr)
        return 1
    return 0


def _build(args) -> int:
    from werkbank.build import build
    from werkbank.errors import WerkbankError
    from werkbank.lessons import LessonError

    try:
        build(Path(args.dist), bytecode=False if args.stock else None)
    except (LessonError, WerkbankError) as error:
        print(f"werkbank build: {error}", file=sys.stderr)
        return 2
    return 0


def _serve(args) -> int:
    import os

    from werkbank.serve import serve

    port = args.port if args.port is not None else int(os.environ.get("PORT", "8000"))
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
    grade.add_argument("--lang", choices=LANGUAGES, default="en")
    grade.add_argument("--seed", type=int, default=0, help="seed for the random cases (default 0)")
    grade.set_defaults(func=_grade)
    check = sub.add_parser("check", help="prove every checkpoint: reference passes, starter and mistakes fail")
    check.add_argument("lessons", nargs="*", metavar="LESSON_ID")
    check.add_argument("--seed", type=int, default=0)
    check.add_argument("--jobs", type=int, default=2)
    check.set_defaults(func=_check)
    build = sub.add_parser("build", help="write the static site to dist/")
    build.add_argument("--dist", default=str(ROOT / "dist"))
    build.add_argument("--stock", action="store_true",
                       help="ship Pyodide's stock runtime files instead of the bytecode-compiled ones")
    build.set_defaults(func=_build)
    serve = sub.add_parser("serve", help="serve dist/ with COOP/COEP headers")
    serve.add_argument("--dist", default=str(ROOT / "dist"))
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=None, help="default: $PORT or 8000")
    serve.set_defaults(func=_serve)
    return top


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``werkbank`` console script."""
    args = parser().parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
