"""``werkbank check``: prove every checkpoint's grader against its own files.

For each checkpoint: the reference solution passes, the starter fails (it must not pass as is), and every declared
mistake fails as declared (the named case is among the failures, or the verdict has the named status). This is the
futurecoder discipline: the grader is tested by the wrong code it exists to catch.
"""

from __future__ import annotations

import fnmatch
from concurrent.futures import ThreadPoolExecutor

from werkbank.grading import grade_source
from werkbank.lessons import Checkpoint, load_all, load_lesson


def _jobs_for(checkpoint: Checkpoint, lang: str) -> list[tuple[str, str, object]]:
    jobs = [("reference", checkpoint.solution(), None), ("starter", checkpoint.starter(lang), None)]
    for mistake in checkpoint.mistakes():
        jobs.append((f"mistake {mistake.path.name}", mistake.path.read_text(encoding="utf-8"), mistake))
    return jobs


def judge_job(kind: str, verdict: dict, mistake) -> str | None:
    """``None`` when the verdict is what this kind of file must produce, else the problem."""
    status = verdict["status"]
    if status == "author_error":
        return f"author error: {verdict.get('detail')}"
    if kind == "reference":
        if status != "pass":
            failure = verdict.get("failure") or {}
            return f"the reference does not pass ({status}: {failure.get('case')} {failure.get('reason') or ''}" \
                   f"{verdict.get('traceback') or ''})"
        return None
    if kind == "starter":
        return "the starter passes" if status == "pass" else None
    if status == "pass":
        return f"{mistake.description!r} passes"
    if mistake.expect_status and status != mistake.expect_status:
        return f"{mistake.description!r}: expected status {mistake.expect_status}, got {status}"
    if mistake.expect_fail and not fnmatch.filter(verdict.get("failed_cases", []), mistake.expect_fail):
        return (f"{mistake.description!r}: case {mistake.expect_fail} should fail, but the failures were "
                f"{verdict.get('failed_cases') or status}")
    return None


def check_lessons(lesson_ids=None, *, seed: int = 0, jobs: int = 2) -> tuple[list[str], list[str]]:
    """Check the given lessons (default: all). Returns ``(problems, report lines)``."""
    lessons = [load_lesson(i) for i in lesson_ids] if lesson_ids else load_all()
    work = []
    for lesson in lessons:
        for checkpoint in lesson.checkpoints:
            for kind, source, mistake in _jobs_for(checkpoint, lesson.languages[0]):
                work.append((lesson, checkpoint, kind, source, mistake))

    def grade(item):
        lesson, checkpoint, kind, source, mistake = item
        return grade_source(lesson.id, checkpoint.id, source, seed=seed, shrink_failures=False)

    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        verdicts = list(pool.map(grade, work))
    problems, report = [], []
    for (lesson, checkpoint, kind, _, mistake), verdict in zip(work, verdicts):
        problem = judge_job(kind.split()[0], verdict, mistake)
        where = f"{lesson.id} {checkpoint.id} {kind}"
        report.append(f"{'ok  ' if problem is None else 'FAIL'} {where}: {verdict['status']}"
                      f" ({verdict.get('passed')}/{verdict.get('total')})")
        if problem:
            problems.append(f"{where}: {problem}")
    return problems, report
