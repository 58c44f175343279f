"""Authoring tools: `werkbank new`, the lesson linter inside `check`, patch mistakes with feedback, Pyodide parity.

Every authoring mistake tried here gets one line that names the file and says what to do. The lessons
here are scaffolded into a temporary exercises folder, their graders into a temporary graders folder that imports as
``graders.<package>`` (``werkbank.lessons.add_graders_folder``, ``$WERKBANK_GRADERS``): nothing is written into the
repository, and a run cut short leaves nothing behind.
"""

from __future__ import annotations

import importlib
import os
import re
import shutil
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

from werkbank.check import check_lessons, items, judge_job, lint_lesson
from werkbank.lessons import (
    LessonError,
    Mistake,
    apply_patch,
    load_lesson_folder,
    make_patch,
    parse_hunks,
    parse_mistake,
)
from werkbank.scaffold import ScaffoldError, scaffold

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture
def new_lesson(tmp_path, monkeypatch):
    """``make(langs=("en", "nl")) -> folder``: a freshly scaffolded lesson with a unique id, in
    ``tmp_path/exercises``, its graders in ``tmp_path/graders`` (importable as ``graders.<package>`` for the test)."""
    import graders

    made = []
    folder = tmp_path / "graders"
    folder.mkdir()
    monkeypatch.setattr(graders, "__path__", [*graders.__path__, str(folder)])

    def make(langs=("en", "nl")):
        lesson_id = f"t-{uuid.uuid4().hex[:8]}"
        scaffold(lesson_id, list(langs), exercises=tmp_path / "exercises", graders=folder)
        importlib.invalidate_caches()
        made.append(lesson_id.replace("-", "_"))
        return tmp_path / "exercises" / lesson_id

    yield make
    for package in made:
        for name in [n for n in sys.modules if n.startswith(f"graders.{package}")]:
            del sys.modules[name]


def grader_file(folder: Path, name: str) -> Path:
    """A grader module of the lesson ``new_lesson`` made in ``folder`` (``tmp_path/graders/<package>/<name>``)."""
    return folder.parent.parent / "graders" / folder.name.replace("-", "_") / name


def append(path: Path, text: str) -> None:
    """Add ``text`` at the end of a lesson's file, as an author editing it does."""
    path.write_text(path.read_text(encoding="utf-8") + text, encoding="utf-8")


def forget(folder: Path) -> None:
    """Drop the lesson's grader modules from sys.modules, so the next import reads the edited files."""
    package = f"graders.{folder.name.replace('-', '_')}"
    for name in [n for n in sys.modules if n == package or n.startswith(package + ".")]:
        del sys.modules[name]


def lint(folder: Path) -> list[str]:
    forget(folder)
    return lint_lesson(load_lesson_folder(folder))


def one_line_naming(problems: list[str], path_fragment: str, *needles: str) -> str:
    """The one problem about ``path_fragment`` that holds every needle; asserts it is a single line."""
    found = [p for p in problems if path_fragment in p.split(": ")[0] and all(n in p for n in needles)]
    assert len(found) == 1, problems
    assert "\n" not in found[0] and "Traceback" not in found[0]
    return found[0]


# --- werkbank new ---------------------------------------------------------------------------------------------------


def test_a_new_lesson_lints_clean_and_lists_every_file(new_lesson):
    folder = new_lesson()
    assert lint(folder) == []
    lesson = load_lesson_folder(folder)
    assert [cp.id for cp in lesson.checkpoints] == ["1", "2", "3"] and not lesson.listed
    kinds = [(i.checkpoint.id, i.kind) for i in items([lesson])]
    assert kinds == [(cp, kind) for cp in "123" for kind in ("reference", "starter", "mistake")]
    mistake = lesson.checkpoints[0].mistakes()[0]
    assert mistake.is_patch and set(mistake.feedback) == {"en", "nl"}
    assert "sum(values) / 2" in mistake.source()


def test_new_refuses_bad_ids_languages_and_existing_lessons(tmp_path, new_lesson):
    for lesson_id, langs, needle in (
        ("My Lesson", ["en"], "lowercase"),
        ("ok-id", ["fr"], "not one of"),
        ("ok-id", ["en", "en"], "twice"),
        ("ok-id", [], "at least one language"),
    ):
        with pytest.raises(ScaffoldError, match=needle):
            scaffold(lesson_id, langs, exercises=tmp_path / "x")
    folder = new_lesson()
    with pytest.raises(ScaffoldError, match="already exists"):
        scaffold(folder.name, ["en"], exercises=folder.parent)


@pytest.mark.parametrize("langs", [("en",), ("nl", "en", "ar")])
def test_new_writes_every_language_asked(new_lesson, langs):
    folder = new_lesson(langs)
    assert lint(folder) == []
    assert sorted(p.name for p in folder.glob("prose.*.md")) == sorted(f"prose.{lang}.md" for lang in langs)


def test_werkbank_new_then_check_passes_in_cpython_and_pyodide(tmp_path):
    """From nothing to a checked lesson: the real commands, Pyodide parity included."""
    env = {
        **os.environ,
        "WERKBANK_EXERCISES": str(tmp_path / "exercises"),
        "WERKBANK_GRADERS": str(tmp_path / "graders"),
    }
    lesson_id = f"t-{uuid.uuid4().hex[:8]}"
    new = subprocess.run(
        [sys.executable, "-m", "werkbank.cli", "new", lesson_id, "--lang", "en,nl"],
        capture_output=True,
        text=True,
        env=env,
        cwd=REPO,
        timeout=60,
    )
    assert new.returncode == 0, new.stderr
    assert f"werkbank check {lesson_id}" in new.stdout
    assert (tmp_path / "graders" / lesson_id.replace("-", "_")).is_dir()
    assert not (REPO / "graders" / lesson_id.replace("-", "_")).exists()
    check = subprocess.run(
        [sys.executable, "-m", "werkbank.cli", "check", lesson_id],
        capture_output=True,
        text=True,
        env=env,
        cwd=REPO,
        timeout=300,
    )
    assert check.returncode == 0, check.stderr
    assert "Pyodide parity: 9/9 files get the same verdict" in check.stdout


# --- every deliberate authoring mistake: one line, the file, what to do ---------------------------------------------


def test_misspelled_keys_are_rejected_with_did_you_mean(new_lesson):
    folder = new_lesson()
    toml = folder / "lesson.toml"
    good = toml.read_text(encoding="utf-8")
    for wrong, right in (
        ("listed =", "lsited ="),
        ("summary =", "sumary ="),
        ('grader = "graders', 'grdaer = "graders'),
        ("entry =", "entries ="),
    ):
        toml.write_text(good.replace(wrong, right, 1), encoding="utf-8")
        with pytest.raises(LessonError) as error:
            load_lesson_folder(folder)
        message = str(error.value)
        key = right.split()[0]
        assert re.match(rf"^.*lesson\.toml:\d+: unknown key '{key}'", message), message
        assert f"did you mean '{wrong.split()[0]}'" in message
    toml.write_text(good.replace("listed = false", 'listed = "no"'), encoding="utf-8")
    with pytest.raises(LessonError, match=r"lesson\.toml:\d+: lesson.toml 'listed' must be a boolean"):
        load_lesson_folder(folder)


def test_a_broken_lesson_toml_is_one_problem_line_in_check(new_lesson):
    folder = new_lesson()
    toml = folder / "lesson.toml"
    toml.write_text(toml.read_text(encoding="utf-8").replace("minutes =", "minuts ="), encoding="utf-8")
    forget(folder)
    problems, _ = check_lessons(pyodide=False, root=folder.parent)
    one_line_naming(problems, "lesson.toml", "unknown key 'minuts'", "did you mean 'minutes'")


@pytest.mark.parametrize(
    "name",
    [
        "lesson.toml",
        "prose.en.md",
        "01-*/task.en.md",
        "01-*/hint.en.md",
        "01-*/example.en.py",
        "01-*/starter.py",
        "01-*/solution.py",
        "01-*/mistakes/*",
    ],
)
def test_a_file_that_is_not_utf8_is_named_with_its_line_not_a_traceback(new_lesson, name):
    """An editor that saved Latin-1: check names the file, the line and the byte, whichever file it is."""
    folder = new_lesson()
    path = sorted(folder.glob(name))[0]
    path.write_bytes(path.read_bytes() + b"# caf\xe9\n")
    line = path.read_bytes().count(b"\n")
    forget(folder)
    try:
        problems, _ = check_lessons(pyodide=False, root=folder.parent)
    except LessonError as error:
        problems = [str(error)]
    relative = path.relative_to(folder).as_posix()
    found = [p for p in problems if f"{relative}:{line}: not UTF-8 text (byte 0xe9" in p]
    assert found and "Traceback" not in found[0], problems


@pytest.mark.parametrize("name", ["prose.nl.md", "01-*/task.nl.md", "01-*/hint.en.md"])
def test_a_text_that_is_not_utf8_hides_no_other_problem(new_lesson, name):
    """One unreadable text is one problem among the others: check goes on to every other file (it once stopped at
    the first, with exit code 2 and nothing else said)."""
    folder = new_lesson()
    path = sorted(folder.glob(name))[0]
    path.write_bytes(path.read_bytes() + b"caf\xe9\n")
    (sorted(folder.glob("02-*"))[0] / "hint.en.md").unlink()
    forget(folder)
    problems, _ = check_lessons(pyodide=False, root=folder.parent)
    one_line_naming(problems, path.relative_to(folder).as_posix(), "not UTF-8 text (byte 0xe9")
    one_line_naming(problems, "hint.en.md", "missing: write the hint in en")


def test_missing_solution_and_mistakes_folder_are_one_line_each(new_lesson):
    folder = new_lesson()
    (folder / "01-mean" / "solution.py").unlink()
    shutil.rmtree(folder / "02-variance" / "mistakes")
    problems = lint(folder)
    one_line_naming(problems, "01-mean/solution.py", "missing", "write the reference solution")
    one_line_naming(problems, "02-variance/mistakes/", "missing", "add at least one declared mistake")
    forget(folder)
    problems, _ = check_lessons(pyodide=False, root=folder.parent)  # and check itself never raises
    assert any("01-mean/solution.py: missing" in p for p in problems)


def test_unknown_expect_fail_id_is_named(new_lesson):
    folder = new_lesson()
    path = folder / "01-mean" / "mistakes" / "01_first_mistake.diff"
    path.write_text(path.read_text(encoding="utf-8").replace("three-values", "three-value"), encoding="utf-8")
    line = one_line_naming(lint(folder), "01_first_mistake.diff", "expect-fail 'three-value' is not a case")
    assert "did you mean 'three-values'" in line


def test_raw_html_in_any_text_is_rejected_with_its_line(new_lesson):
    folder = new_lesson()
    task = folder / "02-variance" / "task.nl.md"
    task.write_text("`variance(values)`\n\nLet op: <b>populatie</b>.\n\n<div>blok</div>\n", encoding="utf-8")
    (folder / "prose.en.md").write_text("Fine `<b>` in code.\n\n```python\nx = '<b>'\n```\n", encoding="utf-8")
    problems = lint(folder)
    html = [p for p in problems if "raw HTML" in p]
    assert len(html) == 3, problems  # <b>, </b> and the <div> block; code is fine
    assert all(p.startswith(str(Path("02-variance") / "task.nl.md")) or "02-variance/task.nl.md:" in p for p in html)
    assert any(":3: raw HTML '<b>'" in p for p in html) and any(":5: raw HTML '<div>blok</div>'" in p for p in html)


def test_markdown_the_build_refuses_in_lesson_toml_is_named_by_check(new_lesson, monkeypatch):
    """lesson.toml's texts are markdown the build renders: an unsafe link or math it cannot convert fails `werkbank
    build` (and make test's build of every lesson), so check names it, with the line and the text. What the build
    refuses that no rule names is caught by rendering the lesson's pages as the build does."""
    import werkbank.check
    from werkbank.markdown import MarkdownError
    from werkbank.site import render_pages

    folder = new_lesson(("en",))
    toml = folder / "lesson.toml"
    text = toml.read_text(encoding="utf-8")
    text = text.replace('prerequisites = "', 'prerequisites = "[notes](ftp://example.org/x) ', 1)
    toml.write_text(text.replace('further_reading = ""', 'further_reading = "See $\\\\frac{$."', 1), encoding="utf-8")
    lesson = load_lesson_folder(folder)
    with pytest.raises(MarkdownError, match="unsafe link or image URL 'ftp://example.org/x'"):
        render_pages([lesson], {"app": "", "early": "", "editor": "", "static": ""})
    problems = lint(folder)
    line = one_line_naming(problems, "lesson.toml", "[text.en] prerequisites", "unsafe link")
    assert line.split(": ")[0].endswith(f"lesson.toml:{_line(text, 'prerequisites =')}"), line
    one_line_naming(problems, "lesson.toml", "[text.en] further_reading", "cannot convert math")
    monkeypatch.setattr(werkbank.check, "_toml_markdown_problems", lambda lesson: [])
    line = one_line_naming(lint(folder), "lesson.toml", "the site build refuses this lesson's pages")
    assert "unsafe link or image URL 'ftp://example.org/x'" in line


def _line(text: str, start: str) -> int:
    return next(n for n, line in enumerate(text.splitlines(), 1) if line.startswith(start))


def test_a_case_calling_a_helper_the_task_does_not_ask_for_is_named(new_lesson):
    folder = new_lesson()
    grader = grader_file(folder, "mean.py")
    grader.write_text(grader.read_text(encoding="utf-8").replace('call="mean"', 'call="_total"'), encoding="utf-8")
    line = one_line_naming(lint(folder), "mean.py", "case 'three-values' calls _total")
    assert "which the task does not ask for" in line and "entry" in line


def test_a_missing_translation_is_named_never_a_fallback(new_lesson):
    folder = new_lesson()
    (folder / "03-zscores" / "hint.nl.md").unlink()
    (folder / "prose.nl.md").unlink()
    problems = lint(folder)
    one_line_naming(problems, "03-zscores/hint.nl.md", "missing", "nothing falls back")
    one_line_naming(problems, "prose.nl.md", "missing", "write the lesson text in nl")
    cp = load_lesson_folder(folder).checkpoints[2]
    with pytest.raises(LessonError, match=r"hint\.nl\.md: missing"):
        cp.hint("nl")
    grader = grader_file(folder, "zscores.py")
    grader.write_text(re.sub(r', "nl": "[^"]*"', "", grader.read_text(encoding="utf-8")), encoding="utf-8")
    one_line_naming(lint(folder), "zscores.py", "explain has no nl text")


def test_every_languages_starter_is_checked(new_lesson):
    folder = new_lesson()
    cp = folder / "01-mean"
    starter = (cp / "starter.py").read_text(encoding="utf-8")
    (cp / "starter.py").unlink()
    (cp / "starter.en.py").write_text(starter, encoding="utf-8")
    one_line_naming(lint(folder), "01-mean/starter.nl.py", "missing", "every language needs one")
    (cp / "starter.nl.py").write_text((cp / "solution.py").read_text(encoding="utf-8"), encoding="utf-8")
    forget(folder)
    problems, report = check_lessons(pyodide=False, root=folder.parent)
    assert any(line.startswith("ok") and "starter-en" in line for line in report)
    one_line_naming(problems, "starter.nl.py", "the starter passes")


def test_a_starter_that_does_not_parse_or_lacks_an_entry_name_is_named(new_lesson):
    """A starter that fails to compile, or does not define what the learner must define, counts as failing (which a
    starter must): without its own rule it would pass check and fail every learner's first Run for a reason that is
    not theirs."""
    folder = new_lesson()
    starter = folder / "01-mean" / "starter.py"
    good = starter.read_text(encoding="utf-8")
    starter.write_text(good + "\ndef oops(\n", encoding="utf-8")
    line = one_line_naming(lint(folder), "01-mean/starter.py", "not Python")
    assert re.match(r"^.*01-mean/starter\.py:\d+: not Python: ", line), line
    starter.write_text(good.replace("def mean(", "def average("), encoding="utf-8")
    one_line_naming(lint(folder), "01-mean/starter.py", "defines no 'mean'", "entry in")
    starter.write_text(good, encoding="utf-8")
    assert not [p for p in lint(folder) if "starter" in p]


@pytest.mark.parametrize(
    "change, message",
    [
        (lambda t: t.replace('entry = ["mean"]\n', "", 1), r"checkpoint '1' is missing the key 'entry'"),
        (lambda t: t.replace('entry = ["mean"]', "entry = []", 1), r"lesson\.toml:\d+: checkpoint '1': entry is empty"),
        (
            lambda t: t.replace('id = "1"', 'id = "Drie Punt/3"', 1),
            r"lesson\.toml:\d+: .*checkpoint id 'Drie Punt/3' must",
        ),
        (lambda t: t.replace('id = "1"', 'id = ""', 1), r"lesson\.toml:\d+: .*checkpoint id '' must be lowercase"),
    ],
)
def test_a_missing_or_empty_entry_and_a_malformed_checkpoint_id_are_one_line(new_lesson, change, message):
    folder = new_lesson()
    toml = folder / "lesson.toml"
    toml.write_text(change(toml.read_text(encoding="utf-8")), encoding="utf-8")
    with pytest.raises(LessonError, match=message):
        load_lesson_folder(folder)
    forget(folder)
    problems, _ = check_lessons(pyodide=False, root=folder.parent)
    assert len(problems) == 1 and re.search(message, problems[0]) and "Traceback" not in problems[0], problems


def test_a_message_pattern_the_reference_does_not_match_is_named_on_the_grader(new_lesson):
    """A case's message pattern that the reference's own message does not match made every file fail there, and was
    blamed on solution.py with expected and got reading the same; it is the grader's case to fix."""
    folder = new_lesson()
    grader = grader_file(folder, "mean.py")
    empty = (
        '\n    yield Case(id="empty-message", call="mean", args=([],), explain={"en": "x", "nl": "x"}, '
        'message="must not be empty")\n'
    )
    append(grader, empty)
    forget(folder)
    problems, _ = check_lessons(pyodide=False, root=folder.parent)
    line = one_line_naming(problems, "mean.py", "case empty-message", "message pattern 'must not be empty'")
    assert "does not match the reference's ValueError message 'the mean of an empty list" in line
    assert line.split(": ")[0].endswith("/mean.py")  # the grader holds the case to fix
    grader.write_text(grader.read_text(encoding="utf-8").replace("must not be empty", "empty list"), encoding="utf-8")
    forget(folder)
    problems, _ = check_lessons(pyodide=False, root=folder.parent)
    assert not [p for p in problems if "empty-message" in p], problems


def test_windows_line_ends_and_a_byte_order_mark_in_every_lesson_file_change_nothing(new_lesson):
    """An editor on Windows saves CRLF line ends and often a byte-order mark: before, prose numbers were not found,
    examples differed from the task, lesson.toml and patches did not parse, a reference had a stray U+FEFF. Every
    file of the lesson saved that way checks as clean as the original."""
    folder = new_lesson()
    forget(folder)
    assert check_lessons(pyodide=False, root=folder.parent)[0] == []
    for path in [p for p in folder.rglob("*") if p.is_file()]:
        text = path.read_text(encoding="utf-8")
        path.write_bytes(b"\xef\xbb\xbf" + text.replace("\n", "\r\n").encode("utf-8"))
    assert lint(folder) == []
    forget(folder)
    problems, report = check_lessons(pyodide=False, root=folder.parent)
    assert problems == [] and any(line.startswith("ok") and "reference" in line for line in report), problems


def test_a_link_or_image_the_built_site_does_not_have_is_named_with_its_line(new_lesson):
    """Lessons ship no files of their own: a relative link or image in a lesson's texts is a 404 for the learner,
    unless it is another lesson's page in one of its languages (or an anchor)."""
    folder = new_lesson()
    hint = folder / "01-mean" / "hint.en.md"
    append(
        hint,
        "\nSee [the notes](notes.md), ![a plot](img/plot.png), [claims](../claims-abstention/en.html),"
        " [in Arabic](../claims-abstention/ar.html), [above](#top) and [the docs](https://numpy.org/).\n",
    )
    problems = [p for p in lint(folder) if "link target" in p]
    assert len(problems) == 3, problems
    for target in ("notes.md", "img/plot.png", "../claims-abstention/ar.html"):
        one_line_naming(problems, "01-mean/hint.en.md", f"link target '{target}' is not a page of the built site")
    assert all(re.match(r"^.*hint\.en\.md:\d+: ", p) for p in problems)


def test_a_power_written_as_python_writes_it_outside_backticks_is_named_with_its_line(new_lesson):
    """``2**63`` in a task's text is markdown's bold: the page showed "263" and the rest of the line in bold. In a code
    span, a code block or math it is fine, and so is bold written as bold."""
    folder = new_lesson()
    task = folder / "01-mean" / "task.en.md"
    append(
        task,
        "\nA sum past 2**63 wraps, and so does x**(n).\n\nIn code `2**63` is fine, as is $2^{63}$, and **bold**.\n"
        "\n```python\nbig = 2**63\n```\n",
    )
    problems = [p for p in lint(folder) if "read as bold" in p]
    assert len(problems) == 2, problems
    one_line_naming(problems, "01-mean/task.en.md", "'2**6' is read as bold")
    assert all(re.match(r"^.*task\.en\.md:\d+: ", p) for p in problems)


def test_a_misspelt_entry_is_named_on_the_reference_with_did_you_mean_and_its_cases_in_one_line(new_lesson):
    """entry = ["maen"]: the reference, the starter and every case of the checkpoint disagree with it. The reference's
    line says what was probably meant, and the cases calling "mean" are one line, not one per case."""
    folder = new_lesson()
    grader = grader_file(folder, "mean.py")
    more = '\n    yield Case(id="{0}", call="mean", args=([{1}],), explain={{"en": "x", "nl": "x"}})\n'
    append(grader, more.format("one", 1.0) + more.format("two", 2.0))
    toml = folder / "lesson.toml"
    toml.write_text(toml.read_text(encoding="utf-8").replace('entry = ["mean"]', 'entry = ["maen"]', 1), "utf-8")
    problems = lint(folder)
    one_line_naming(problems, "01-mean/solution.py", "defines no 'maen'", "did you mean 'mean'")
    calls = [p for p in problems if "which the task does not ask for" in p and "mean.py" in p.split(": ")[0]]
    assert len(calls) == 1 and "cases (" in calls[0] and "call mean" in calls[0], calls


def test_misspelled_grader_settings_and_silent_random_cases(new_lesson):
    folder = new_lesson()
    grader = grader_file(folder, "variance.py")
    append(grader, "\nTIME_LIMT = 10.0\n" + "\n\ndef random_cases(rng, count):\n    return []\n")
    problems = lint(folder)
    one_line_naming(problems, "variance.py", "TIME_LIMT is not a grader setting", "did you mean 'TIME_LIMIT'")
    one_line_naming(problems, "variance.py", "RANDOM_CASES is 0 or missing")


def test_a_grader_that_fails_to_import_is_one_line_with_its_line_number(new_lesson):
    folder = new_lesson()
    grader = grader_file(folder, "zscores.py")
    append(grader, "\nBROKEN = undefined_name\n")
    line = one_line_naming(lint(folder), "zscores.py", "cannot be imported: NameError")
    assert re.search(r"zscores\.py:\d+: ", line)


def test_a_listed_lesson_needs_ids_1_2_3_and_8_mistakes(new_lesson):
    folder = new_lesson()
    toml = folder / "lesson.toml"
    toml.write_text(toml.read_text(encoding="utf-8").replace("listed = false", "listed = true"), encoding="utf-8")
    problems = lint(folder)
    for cp in ("01-mean", "02-variance", "03-zscores"):
        one_line_naming(problems, f"{cp}/mistakes/", "1 declared mistake(s)", "at least 8")


def test_a_mistake_that_does_not_parse_is_named_once_and_the_checkpoint_is_still_graded(new_lesson):
    """A mistake whose header does not parse is one problem on that file; the checkpoint's reference, starter and
    other files are still graded (it once also made the grader an author error, named twice, grading nothing)."""
    folder = new_lesson()
    path = folder / "01-mean" / "mistakes" / "01_first_mistake.diff"
    path.write_text(path.read_text(encoding="utf-8").replace("# expect-fail:", "# expect-fial:"), encoding="utf-8")
    forget(folder)
    problems, report = check_lessons(pyodide=False, root=folder.parent)
    assert len([p for p in problems if "01_first_mistake" in p]) == 1, problems
    assert not [p for p in problems if "author error" in p], problems
    assert any(line.startswith("ok") and "reference" in line for line in report), report


def test_wrong_mistake_headers_are_named(new_lesson):
    folder = new_lesson()
    path = folder / "01-mean" / "mistakes" / "01_first_mistake.diff"
    text = path.read_text(encoding="utf-8")
    for bad, needle in (
        (text.replace("# expect-fail:", "# expect-fial:"), "unknown header 'expect-fial'"),
        (text.replace("# feedback.nl:", "# feedback:"), "write the feedback's language"),
        (text.replace("# feedback.nl:", "# feedback.fr:"), "feedback language 'fr'"),
    ):
        path.write_text(bad, encoding="utf-8")
        one_line_naming(lint(folder), "01_first_mistake.diff", needle)
    path.write_text(text.replace("# feedback.nl:", "# note:"), encoding="utf-8")
    assert [p for p in lint(folder) if "01_first_mistake" in p] != []  # a patch's headers are all known keys


def test_a_mistake_whose_feedback_a_learner_would_never_see_is_named(tmp_path):
    """Feedback is shown when the learner fails a case exactly as the declared mistake does; a mistake the engine
    does not recognise in its own verdict would carry feedback nobody reads."""
    mistake = Mistake(tmp_path / "m.diff", "off by one", None, None, {"en": "Start at 0."})
    unrecognised = {"status": "fail", "failure": {"case": "three"}, "failed_cases": ["three"]}
    recognised = {**unrecognised, "failure": {"case": "three", "mistake": "m"}}
    assert "its feedback would never be shown: a learner failing case three" in judge_job(
        "mistake", unrecognised, mistake
    )
    assert judge_job("mistake", recognised, mistake) is None
    assert judge_job("mistake", unrecognised, Mistake(tmp_path / "m.diff", "off by one", None, None)) is None


# --- patch mistakes ---------------------------------------------------------------------------------------------------

SOLUTION = "def f(xs):\n    total = 0\n    for x in xs:\n        total += x\n    return total\n"


def test_a_patch_applies_by_its_lines_not_its_numbers(tmp_path):
    body = "@@ -99 @@\n     for x in xs:\n-        total += x\n+        total += 1\n"
    assert apply_patch(SOLUTION, body, tmp_path / "m.diff") == SOLUTION.replace("total += x", "total += 1")
    assert apply_patch(SOLUTION, "@@\n-    return total\n+    return -total\n", tmp_path / "m.diff").endswith(
        "return -total\n"
    )


def test_a_patch_that_no_longer_matches_says_so(tmp_path):
    with pytest.raises(LessonError, match=r"m\.diff: hunk 1 does not match solution\.py: the line 'total \+= y'"):
        apply_patch(SOLUTION, "@@\n-        total += y\n+        total += 1\n", tmp_path / "m.diff")
    with pytest.raises(LessonError, match="differs only in indentation"):
        apply_patch(SOLUTION, "@@\n-    total += x\n+    total += 1\n", tmp_path / "m.diff")
    twice = "def f(xs):\n    pass\n\n\ndef g(xs):\n    pass\n"
    with pytest.raises(LessonError, match=r"matches solution\.py 2 times \(lines 2, 6\)"):
        apply_patch(twice, "@@\n-    pass\n+    return 1\n", tmp_path / "m.diff")
    assert "def g(xs):\n    return 1" in apply_patch(twice, "@@ -6 @@\n-    pass\n+    return 1\n", tmp_path / "m.diff")
    for body, needle in (("-x\n", "starts with '@@'"), ("", "has no hunk"), ("@@\n x\n", "changes nothing")):
        with pytest.raises(LessonError, match=needle):
            parse_hunks(body, tmp_path / "m.diff")


def test_make_patch_round_trips(tmp_path):
    wrong = SOLUTION.replace("total = 0", "total = 1").replace("return total", "return total / 2")
    patch = make_patch(SOLUTION, wrong, "# mistake: off by one\n# expect-fail: some-case")
    path = tmp_path / "m.diff"
    path.write_text(patch, encoding="utf-8")
    (tmp_path / "solution.py").write_text(SOLUTION, encoding="utf-8")
    mistake = parse_mistake(path, tmp_path / "solution.py")
    assert mistake.is_patch and mistake.description == "off by one"
    assert mistake.source() == wrong


# --- Pyodide parity -----------------------------------------------------------------------------------------------


def test_parity_names_what_only_pyodide_does(new_lesson):
    """Two differences the issue found: np.bincount on int64 (an author error only in Pyodide) and a mistake that
    only CPython's floating-point warnings caught; and a reference and a grader that depend on the platform. Each is
    named with the file, the case and both results, by the function make test's Pyodide run uses too. numpy's
    floating-point warnings are now recorded in neither runtime (Pyodide cannot raise them), so that mistake passes in
    both, and check says it passes every case rather than that the runtimes disagree."""
    folder = new_lesson(("en",))
    (folder / "02-variance" / "solution.py").write_text(
        "import numpy as np\n\n\ndef variance(values):\n    if not values:\n        raise ValueError('empty')\n"
        "    x = np.asarray(values, dtype=float)\n    counts = np.bincount(np.arange(len(x), dtype=np.int64))\n"
        "    return float(((x - x.mean()) ** 2 * counts).sum() / counts.sum())\n",
        encoding="utf-8",
    )
    grader = grader_file(folder, "zscores.py")
    grader.write_text(
        grader.read_text(encoding="utf-8").replace("    )\n", "        forbid_warnings=True,\n    )\n")
        + "\n    yield Case(id='all-equal', call='zscores', args=([3.0, 3.0],), explain={'en': 'x'})\n",
        encoding="utf-8",
    )
    (folder / "03-zscores" / "mistakes" / "02_warns.py").write_text(
        "# mistake: divides by zero and lets numpy warn, without raising\n# expect-fail: all-equal\n"
        "import numpy as np\n\n\ndef zscores(values):\n    x = np.asarray(values, dtype=float)\n"
        "    np.float64(1.0) / np.float64(0.0)\n    std = x.std()\n    if std == 0:\n"
        "        raise ValueError('no spread')\n    return (x - x.mean()) / std\n",
        encoding="utf-8",
    )
    solution = folder / "01-mean" / "solution.py"  # a reference and a grader that depend on the platform
    solution.write_text(
        "import sys\n\n\n"
        + solution.read_text(encoding="utf-8").replace(
            "return sum(values) / len(values)", "return sum(values) / len(values) + (sys.maxsize > 2**32)"
        ),
        encoding="utf-8",
    )
    grader = grader_file(folder, "mean.py")
    append(
        grader,
        "    import sys\n\n    if sys.maxsize > 2**32:\n"
        "        yield Case(id='only-64-bit', call='mean', args=([1.0],), explain={'en': 'x'})\n",
    )
    forget(folder)
    problems, report = check_lessons(root=folder.parent)
    line = one_line_naming(problems, "01-mean/solution.py", "the reference differs between runtimes on case")
    assert "three-values: CPython" in line and "Pyodide" in line
    line = one_line_naming(problems, "mean.py", "the runtimes generate different cases")
    assert "1 only in CPython (like ['only-64-bit']), 0 only in Pyodide" in line
    line = one_line_naming(problems, "02-variance/solution.py", "in Pyodide it is an author error")
    assert "Cannot cast array data from dtype('int64') to dtype('int32')" in line and "np.intp" in line
    line = one_line_naming(problems, "03-zscores/mistakes/02_warns.py", "passes every case")
    assert "divides by zero and lets numpy warn" in line
    assert not [p for p in problems if "02_warns.py" in p and "the runtimes disagree" in p], problems


def test_cases_that_depend_on_the_process_are_named_on_the_grader(new_lesson):
    """The build, `werkbank grade` and check each prepare a Check's cases in their own process: random cases drawn
    from the order of a set of texts (which follows the process's hash seed) would make the browser run other cases
    than the command line. check prepares every checkpoint again in a process with another hash seed and names the
    grader, once, with the first case that differs."""
    folder = new_lesson(("en",))
    problems, _ = check_lessons(pyodide=False, root=folder.parent)
    assert problems == []
    grader = grader_file(folder, "mean.py")
    append(  # twelve texts: two hash seeds all but never put them in the same order
        grader,
        "\n\nRANDOM_CASES = 8\n\n\ndef random_cases(rng, count):\n"
        "    words = list({'x' * n for n in range(1, 13)})\n"
        "    for i in range(count):\n"
        "        yield Case(id=f'random-{i}', call='mean', args=([float(len(w)) for w in words[: i + 5]],),\n"
        "                   explain={'en': 'Some values.'})\n",
    )
    forget(folder)
    problems, _ = check_lessons(pyodide=False, root=folder.parent)
    line = one_line_naming(problems, "mean.py", "the cases depend on the process that prepares them")
    assert re.search(r"\(case random-\d+ calls mean with \[\[", line) and "never from the order of a set" in line
    assert len(problems) == 1, problems
    (folder / "02-variance" / "solution.py").write_text(  # a result in the order of a set of texts
        "def variance(values):\n    if not values:\n        raise ValueError('empty')\n"
        "    return list({f'w{i}' for i in range(12)})\n",
        encoding="utf-8",
    )
    problems, _ = check_lessons(pyodide=False, root=folder.parent)
    line = one_line_naming(problems, "02-variance/solution.py", "the reference's result depends on the process")
    assert "on case four-values it returns ['w" in line and "sort what comes from a set" in line


def test_expect_fail_may_name_generated_cases_by_pattern(tmp_path):
    from werkbank.check import judge_job, matching

    path = tmp_path / "m.py"
    path.write_text("# mistake: accepts blank ids\n# expect-fail: gen/blank/*\nx = 1\n", encoding="utf-8")
    mistake = parse_mistake(path)
    ids = ["seed", "gen/blank/ranking[0]/seed/3", "gen/type-none/k/seed/1"]
    assert matching("gen/blank/*", ids) == ["gen/blank/ranking[0]/seed/3"] and matching("seed", ids) == ["seed"]
    fail = {"status": "fail", "failed_cases": ["gen/blank/ranking[0]/seed/3"]}
    assert judge_job("mistake", fail, mistake, ids) is None
    other = {"status": "fail", "failed_cases": ["gen/type-none/k/seed/1"]}
    assert "should fail but passes" in judge_job("mistake", other, mistake, ids)
    assert "is not a case" in judge_job("mistake", fail, mistake, ["seed"])


# --- round 2: what an author writes is checked, and check says what the browser would show --------------------------


def _grader_file(folder: Path, module: str) -> Path:
    return grader_file(folder, f"{module}.py")


def _add_domain(folder: Path, module: str, domain: str) -> None:
    """Give the scaffolded grader ``module`` a DOMAIN (the source text of a Domain(...) expression)."""
    grader = _grader_file(folder, module)
    text = grader.read_text(encoding="utf-8").replace(
        "from graders.engine.case import Case\n",
        "from graders.engine.case import Case\nfrom graders.engine.domain import Domain, Param, Real, Seq\n",
    )
    grader.write_text(text + f"\n\nDOMAIN = {domain}\n", encoding="utf-8")


def test_a_skip_that_names_no_family_is_named_with_did_you_mean(new_lesson):
    folder = new_lesson()
    _add_domain(
        folder,
        "mean",
        'Domain("mean", (Param("values", Seq(Real(), min_len=1)),), skip=("huge-ints", "type-*", "npint"))',
    )
    line = one_line_naming(lint(folder), "mean.py", "skips 'huge-ints', which is no family")
    assert "did you mean 'huge-int'" in line
    assert not [p for p in lint(folder) if "'type-*'" in p or "'npint'" in p]


def test_mutants_name_the_file_and_marks_are_tied_to_one_mutant(new_lesson):
    """--mutants: a survivor is one line naming solution.py and its line, with the id to mark it by; a mark that
    matches several mutants (the same line in two functions) or none is a problem naming mutants.toml."""
    from werkbank.mutants import run_mutants

    folder = new_lesson()
    cp = folder / "01-mean"
    solution = cp / "solution.py"
    solution.write_text(
        '''def _check(values):
    if not values:
        raise ValueError("empty")


def mean(values):
    """The arithmetic mean of a non-empty list of numbers."""
    if not values:
        raise ValueError("the mean of an empty list is not defined")
    return sum(values) / len(values)
''',
        encoding="utf-8",
    )
    (cp / "mutants.toml").write_text(
        '[[equivalent]]\nmutant = "branch: if not values: -> pass"\nreason = "r"\n\n'
        "[[equivalent]]\nmutant = \"raise in mean: raise ValueError('the mean') -> pass\""
        '\nreason = "r"\n',
        encoding="utf-8",
    )
    forget(folder)
    lesson = load_lesson_folder(folder)
    lesson = type(lesson)(**{**lesson.__dict__, "checkpoints": lesson.checkpoints[:1]})
    problems, report = run_mutants([lesson])
    survivor = one_line_naming(problems, "01-mean/solution.py:9", "a mutant survives every case")
    raise_id = "raise in mean: raise ValueError('the mean of an empty list is not defined') -> pass"
    assert survivor.endswith(f'mutant = "{raise_id}"')
    ambiguous = one_line_naming(problems, "01-mean/mutants.toml", "matches 2 mutants")
    assert '"branch in _check: if not values: -> pass"; "branch in mean: if not values: -> pass"' in ambiguous
    stale = one_line_naming(problems, "01-mean/mutants.toml", "matches no mutant")
    assert f'(did you mean "{raise_id}"?)' in stale


def test_code_carried_over_from_a_needed_checkpoint_is_mutated_there_only(new_lesson):
    """Checkpoint 2 needs 1 and its reference starts with checkpoint 1's mean, unchanged: the mutants of mean are
    counted as carried over, not graded again by checkpoint 2's cases (which never reach mean's input check)."""
    from werkbank.mutants import run_mutants

    folder = new_lesson()
    toml = folder / "lesson.toml"
    toml.write_text(
        toml.read_text(encoding="utf-8").replace('entry = ["variance"]', 'entry = ["variance"]\nneeds = ["1"]'),
        encoding="utf-8",
    )
    mean = (folder / "01-mean" / "solution.py").read_text(encoding="utf-8")
    variance = folder / "02-variance" / "solution.py"
    append(variance, "\n\n" + mean)
    forget(folder)
    lesson = load_lesson_folder(folder)
    lesson = type(lesson)(**{**lesson.__dict__, "checkpoints": lesson.checkpoints[:2]})
    problems, report = run_mutants([lesson])
    line = next(r for r in report if r.startswith(f"{lesson.id} 2:"))
    assert re.search(r", \d+ in code carried over from checkpoint 1 \(graded there\)$", line), line
    assert not [p for p in problems if "02-variance" in p and "mean" in p], problems


def _mistake(folder: Path, checkpoint: str, name: str, header: str, body: str, feedback: str = "Look again.") -> Path:
    """Write mistakes/<name> (a .py program or a .diff patch) with a header and feedback in en and nl."""
    path = folder / checkpoint / "mistakes" / name
    path.write_text(
        f"# mistake: {header}\n# expect-fail: three-values\n# feedback.en: {feedback}\n"
        f"# feedback.nl: {feedback}\n{body}",
        encoding="utf-8",
    )
    return path


def test_two_mistakes_a_learner_cannot_tell_apart_are_named(new_lesson):
    """Both fail their first case with the same value: the second one's verdict would show the first one's
    feedback, so check names it (the retrieval lesson's 05_ignores_k and 06_default_k_zero were such a pair)."""
    folder = new_lesson()
    _mistake(folder, "01-mean", "02_halves.py", "halves the sum", "def mean(values):\n    return sum(values) * 0.5\n")
    forget(folder)
    problems, _ = check_lessons(pyodide=False, root=folder.parent)
    line = one_line_naming(problems, "01-mean/mistakes/02_halves.py", "gets the feedback of mistake '01_first_mistake'")
    assert "both fail case three-values first, with the same result (4.5)" in line


def test_feedback_a_trivial_program_or_the_starter_would_get_is_named(new_lesson):
    """A declared mistake whose first failure is what a program that does nothing would give: returning its input,
    raising ValueError, or the starter's NotImplementedError. Its feedback would reach learners who did not make it."""
    folder = new_lesson()
    _mistake(folder, "01-mean", "02_returns_input.py", "returns the list", "def mean(values):\n    return values\n")
    _mistake(
        folder,
        "02-variance",
        "02_always_raises.py",
        "raises on every list",
        "def variance(values):\n    raise ValueError('no')\n",
    )
    _mistake(
        folder,
        "03-zscores",
        "02_not_written.py",
        "not written yet",
        "def zscores(values):\n    raise NotImplementedError\n",
    )
    forget(folder)
    problems, _ = check_lessons(pyodide=False, root=folder.parent)
    one_line_naming(
        problems,
        "01-mean/mistakes/02_returns_input.py",
        "a program that only returns its first argument gets the feedback of mistake '02_returns_input'",
    )
    one_line_naming(
        problems,
        "02-variance/mistakes/02_always_raises.py",
        "a program that only raises ValueError gets the feedback of mistake '02_always_raises'",
    )
    one_line_naming(problems, "03-zscores/starter.py", "the starter gets the feedback of mistake '02_not_written'")


def test_a_mistake_that_fails_first_on_the_learners_first_failing_case_is_the_one_shown():
    """Mistake A fails case x first and case y later; B fails y first. A learner whose first failing case is y with
    the value both give there made B, not A (the engine's rule, graders/engine/judge.py known_mistake)."""
    from graders.engine.judge import known_mistake

    value = ["float", 1.5]
    a = {
        "name": "a",
        "feedback": {},
        "fails": {"x": {"kind": "return", "value": value}, "y": {"kind": "return", "value": value}},
    }
    b = {"name": "b", "feedback": {}, "fails": {"y": {"kind": "return", "value": value}}}
    learner = {"kind": "return", "value": value}
    assert known_mistake({"mistakes": [a, b]}, "y", learner)["name"] == "b"
    assert known_mistake({"mistakes": [a, b]}, "x", learner)["name"] == "a"
    assert known_mistake({"mistakes": [a]}, "y", learner)["name"] == "a"  # the only one that fails there so
    assert known_mistake({"mistakes": [a, b]}, "y", {"kind": "return", "value": ["float", 2.0]}) is None


def test_a_mistake_is_named_only_when_the_run_agrees_with_it_on_its_other_cases():
    """Another bug can give a mistake's value on the learner's first failing case by chance. With the run's other
    outcomes at hand, the mistake's words are given only when the learner did what the mistake did on every other
    case of its fingerprint that the run holds (a case the run does not hold, as in an early verdict, says nothing)."""
    from graders.engine.judge import known_mistake

    wrong, other = ["float", 1.5], ["float", 7.0]
    mistake = {
        "name": "m",
        "feedback": {},
        "fails": {"x": {"kind": "return", "value": wrong}, "y": {"kind": "raise", "exc": "KeyError"}},
    }
    learner = {"kind": "return", "value": wrong}
    key = {"mistakes": [mistake]}
    same = {"x": learner, "y": {"kind": "raise", "exc": "KeyError"}}
    assert known_mistake(key, "x", learner, same)["name"] == "m"
    assert known_mistake(key, "x", learner, {"x": learner})["name"] == "m"  # y not in yet
    assert known_mistake(key, "x", learner, {**same, "y": {"kind": "return", "value": other}}) is None
    assert known_mistake(key, "x", learner, {**same, "y": {"kind": "raise", "exc": "TypeError"}}) is None


def test_feedback_markdown_becomes_parts_the_verdict_shows_and_other_markdown_is_named(new_lesson):
    """Feedback may use `code`, *emphasis*, **strong** and [links](https://…): a learner whose failure matches the
    mistake gets them as parts the page builds elements from. A list, an image, $math$, raw HTML or a relative link
    would show as written: check names the file and the language."""
    from graders.engine.judge import judge
    from graders.hosts import cpython
    from werkbank.grading import prepare_checkpoint

    folder = new_lesson()
    path = folder / "01-mean" / "mistakes" / "01_first_mistake.diff"
    text = path.read_text(encoding="utf-8")
    path.write_text(
        text.replace(
            "# feedback.en: Divide by how many values there are, `len(values)`, not by a fixed number.",
            "# feedback.en: Divide by **how many** values there are, `len(values)`; "
            "see [the docs](https://docs.python.org/3/library/functions.html#len).",
        ),
        encoding="utf-8",
    )
    assert lint(folder) == []
    lesson = load_lesson_folder(folder)
    mistake = lesson.checkpoints[0].mistakes()[0]
    prepared = prepare_checkpoint(lesson.checkpoints[0])
    verdict = judge(prepared, cpython.run(mistake.source(), prepared["plan"]), "en")
    assert verdict["failure"]["mistake"] == "01_first_mistake"
    assert verdict["failure"]["feedback_parts"] == [
        {"text": "Divide by "},
        {"text": "how many", "strong": True},
        {"text": " values there are, "},
        {"text": "len(values)", "code": True},
        {"text": "; see "},
        {"text": "the docs", "href": "https://docs.python.org/3/library/functions.html#len"},
        {"text": "."},
    ]
    for bad, needle in (
        ("- a list", "a list is not shown in a verdict"),
        ("see $x^2$", "math ($…$) is not rendered"),
        ("![x](https://e.org/x.png)", "image is not shown"),
        ("a <b>bold</b> word", "raw HTML '<b>'"),
        ("[the task](task.html)", "a link in a verdict is written [text](https://…)"),
    ):
        path.write_text(text.replace("# feedback.nl: Deel door", f"# feedback.nl: {bad} Deel door"), encoding="utf-8")
        one_line_naming(lint(folder), "01-mean/mistakes/01_first_mistake.diff", "feedback.nl", needle)


def test_check_says_whether_the_reference_or_the_alternative_looks_wrong(new_lesson, tmp_path, monkeypatch):
    """Where a correct alternative and the reference disagree: a reference that overflows to inf on finite inputs is
    named as the file that looks wrong (not the alternative); an alternative that crashes with an exception the task
    never uses is named, with the generated family to skip if the task leaves that input open."""
    import werkbank.lessons

    folder = new_lesson()
    lesson_id = folder.name
    grader = _grader_file(folder, "mean")
    grader.write_text(
        grader.read_text(encoding="utf-8").replace(
            "    )\n",
            '    )\n    yield Case(id="two-huge", '
            'call="mean", args=([1e308, 1e308],), explain={"en": "Huge.", "nl": "Groot."})\n',
            1,
        ),
        encoding="utf-8",
    )
    _add_domain(
        folder,
        "mean",
        'Domain("mean", (Param("values", Seq(Real(), min_len=1)),), numpy=False, '
        'skip=("huge-int", "type-*", "complex", "container-*", "nan", "inf", "scale"))',
    )
    data = tmp_path / "tests" / "data"
    monkeypatch.setattr(werkbank.lessons, "TESTS_DATA", data)
    (data / lesson_id).mkdir(parents=True)
    careful = (
        "def mean(values):\n    if not values:\n        raise ValueError('empty')\n"
        "    return sum(v / len(values) for v in values)\n"
    )
    (data / lesson_id / "alt_1_careful.py").write_text(careful, encoding="utf-8")
    forget(folder)
    problems, _ = check_lessons(pyodide=False, root=folder.parent)
    line = one_line_naming(problems, "01-mean/solution.py", "the reference looks wrong")
    assert "on case two-huge (mean([1e+308, 1e+308])), with " in line and "alt_1_careful.py" in line
    assert "it returns float('inf') from finite inputs where the alternative returns 1e+308 (an overflow?)" in line
    assert not [p for p in problems if p.startswith(str(data))], problems  # the alternative is not blamed
    (data / lesson_id / "alt_1_careful.py").write_text(
        careful.replace("return sum(v / len(values) for v in values)", "return sum(values) / len(values)")
    )
    grader_text = grader.read_text(encoding="utf-8")
    solution = folder / "01-mean" / "solution.py"
    solution.write_text(
        solution.read_text(encoding="utf-8").replace(
            "return sum(values) / len(values)", "return sum(v / len(values) for v in values)"
        )
    )
    forget(folder)
    problems, _ = check_lessons(pyodide=False, root=folder.parent)
    one_line_naming(
        problems,
        "alt_1_careful.py",
        "the alternative looks wrong: it returns float('inf') from finite inputs "
        "where the reference returns 1e+308 (an overflow?)",
    )
    assert grader_text == grader.read_text(encoding="utf-8")
    solution.write_text(
        solution.read_text(encoding="utf-8").replace(
            "return sum(v / len(values) for v in values)", "return sum(values) / len(values)"
        )
    )

    grader.write_text(
        grader.read_text(encoding="utf-8").replace(
            '"container-*", ',
            '"container-none", '
            '"container-str", "container-dict", "container-nested", "container-set", "container-frozenset", '
            '"container-item", "container-iter", ',
        ),
        encoding="utf-8",
    )  # of the other containers, tuples only
    (data / lesson_id / "alt_1_careful.py").write_text(  # computes as the reference does, but takes lists only
        "def mean(values):\n    values = values + []\n    if not values:\n        raise ValueError('empty')\n"
        "    return sum(values) / len(values)\n",
        encoding="utf-8",
    )
    forget(folder)
    problems, _ = check_lessons(pyodide=False, root=folder.parent)
    line = one_line_naming(problems, "alt_1_careful.py", "the alternative looks wrong: it raises TypeError")
    assert "fails case gen/container-" in line and "skip 'container-" in line


def test_an_alternative_returning_a_subclass_is_named_with_the_reason_not_a_traceback(
    new_lesson, tmp_path, monkeypatch
):
    """A result the engine keeps only by its type (a float or dict subclass, like ``Counter``) cannot be rebuilt to
    look for an overflow: check names the alternative with the verdict's reason instead of crashing."""
    import werkbank.lessons

    folder = new_lesson()
    data = tmp_path / "tests" / "data"
    monkeypatch.setattr(werkbank.lessons, "TESTS_DATA", data)
    (data / folder.name).mkdir(parents=True)
    (data / folder.name / "alt_1_subclass.py").write_text(
        "class Mean(float):\n    pass\n\n\ndef mean(values):\n    if not values:\n        raise ValueError('empty')\n"
        "    return Mean(sum(values) / len(values))\n",
        encoding="utf-8",
    )
    forget(folder)
    problems, _ = check_lessons(pyodide=False, root=folder.parent)
    line = one_line_naming(problems, "alt_1_subclass.py", "this alternative solution must pass but got fail")
    assert "got <Mean object, a float subclass> (Expected a value of type float, but got Mean.)" in line


# --- the texts: rules of werkbank/lesson_checks.py, each proven on a scaffolded lesson -----------------------------


def _texts(folder: Path) -> list[str]:
    from werkbank.lesson_checks import text_problems

    forget(folder)
    return text_problems(load_lesson_folder(folder))


def _write(path: Path, text: str) -> None:
    path.write_text(text, encoding="utf-8")


CHECKS_PY = """from werkbank.lesson_checks import close, reference


def mean():
    return reference(__file__, "1").mean


def check_worked_example():
    assert close(mean()([1.0, 2.0, 6.0]), {value})


def check_data_words():
    assert "{word}" not in (__import__("pathlib").Path(__file__).parent / "prose.en.md").read_text(encoding="utf-8")


PROSE_CLAIMS = [("The mean of 1, 2 and 6 is 3.", check_worked_example)]
CHECKS = [check_data_words]
"""


def test_every_number_of_the_prose_is_proven_by_the_lessons_own_checks(new_lesson):
    """A number in the prose outside every PROSE_CLAIMS passage is named; with checks.py beside lesson.toml quoting
    the passage and computing it, the prose is clean; a check that computes something else is named by its line in
    checks.py, as is a passage no longer in the prose and a further check of CHECKS that fails."""
    folder = new_lesson()
    prose = folder / "prose.en.md"
    _write(
        prose,
        prose.read_text(encoding="utf-8").replace(
            "## The mean\n\n", "## The mean\n\nThe mean of 1, 2 and 6 is 3.\n\n", 1
        ),
    )
    line = one_line_naming(
        _texts(folder),
        "prose.en.md",
        "the numbers 1, 2, 6, 3 in 'The mean of 1, 2 and 6 is 3.'",
        "not in a passage of checks.py's PROSE_CLAIMS",
    )
    assert re.search(r"prose\.en\.md:5: ", line), line
    _write(folder / "checks.py", CHECKS_PY.format(value="3.0", word="banana"))
    assert [p for p in _texts(folder) if "prose.en.md" in p.split(":")[0]] == []
    _write(folder / "checks.py", CHECKS_PY.format(value="4.0", word="mean"))
    problems = _texts(folder)
    line = one_line_naming(problems, "checks.py", "check_worked_example (for 'The mean of 1, 2 and 6 is 3.') fails")
    assert re.search(r"checks\.py:9: ", line) and "AssertionError" in line
    one_line_naming(problems, "checks.py", "check_data_words fails")
    _write(prose, prose.read_text(encoding="utf-8").replace("is 3.", "is three."))
    one_line_naming(
        _texts(folder), "checks.py", "the PROSE_CLAIMS passage 'The mean of 1, 2 and 6 is 3.' is not in prose.en.md"
    )
    _write(folder / "checks.py", "PROSE_CLAIMS = [\n")
    one_line_naming(_texts(folder), "checks.py:1", "cannot be imported: SyntaxError")


def test_a_listed_lesson_without_checks_py_is_named(new_lesson):
    folder = new_lesson(("en",))
    assert not (folder / "checks.py").exists() and _texts(folder) == []  # a draft whose prose states no number
    toml = folder / "lesson.toml"
    _write(toml, toml.read_text(encoding="utf-8").replace("listed = false", "listed = true", 1))
    line = one_line_naming(_texts(folder), "checks.py", "missing: a listed lesson proves what its prose states")
    assert line.startswith(str(Path(folder.name) / "checks.py")) or f"{folder.name}/checks.py:" in line
    _write(folder / "checks.py", "PROSE_CLAIMS = []\nCHECKS = []\n")
    assert _texts(folder) == []


def test_a_translation_states_the_same_numbers_section_by_section(new_lesson):
    folder = new_lesson()
    for lang, text in (("en", "The mean of 1, 2 and 6 is 3."), ("nl", "Het gemiddelde van 1, 2 en 6 is 4.")):
        path = folder / f"prose.{lang}.md"
        _write(path, path.read_text(encoding="utf-8").replace("\n\n```checkpoint 1", f"\n\n{text}\n\n```checkpoint 1"))
    _write(folder / "checks.py", CHECKS_PY.format(value="3.0", word="banana"))
    line = one_line_naming(_texts(folder), "prose.nl.md", "states other numbers than prose.en.md")
    assert "section 1 ('## Het gemiddelde')" in line and "['1', '2', '4', '6'] against ['1', '2', '3', '6']" in line
    nl = folder / "prose.nl.md"
    _write(nl, nl.read_text(encoding="utf-8").replace("## De variantie", "De variantie"))
    one_line_naming(_texts(folder), "prose.nl.md", "2 sections (## headings), prose.en.md has 3")


def test_hints_are_two_or_three_and_the_first_is_a_nudge(new_lesson):
    folder = new_lesson()
    hint = folder / "01-mean" / "hint.en.md"
    _write(hint, "Only one hint.\n")
    one_line_naming(_texts(folder), "01-mean/hint.en.md", "1 hint(s): write 2 or 3")
    _write(hint, "A first hint that says everything there is to say about the mean, at length.\n\n---\n\nShort.\n")
    one_line_naming(_texts(folder), "01-mean/hint.en.md", "the first hint is as long as the answer")
    _write(hint, "Gentle.\n---\nSpecific, and longer than the first.\n")
    one_line_naming(_texts(folder), "01-mean/hint.en.md", "leave an empty line before each ---")


def test_examples_and_task_blocks_give_what_the_task_shows(new_lesson):
    """Every language has an example whose last line calls an entry; the task opens with the signature and a pycon
    block showing what the example gives after solution.py; every pycon block is a passing doctest."""
    folder = new_lesson()
    cp = folder / "01-mean"
    (cp / "example.nl.py").unlink()
    one_line_naming(_texts(folder), "01-mean/example.nl.py", "missing")
    _write(cp / "example.nl.py", "mean([1.0, 2.0, 6.0])\n")
    task = cp / "task.en.md"
    _write(task, task.read_text(encoding="utf-8").replace("3.0\n```", "3.5\n```", 1))
    line = one_line_naming(_texts(folder), "01-mean/task.en.md", "the first pycon block shows '3.5'")
    assert "but example.en.py gives '3.0' after solution.py" in line
    one_line_naming(
        _texts(folder),
        "01-mean/task.en.md",
        "pycon block 1 is no passing doctest",
        "'mean([1.0, 2.0, 6.0])' gives '3.0', the block shows '3.5'",
    )
    _write(task, task.read_text(encoding="utf-8").replace("`mean(values) -> float`", "The mean."))
    one_line_naming(_texts(folder), "01-mean/task.en.md", "must open with the signature of every entry")
    _write(cp / "example.en.py", "x = [1.0]\nlen(x)\n")
    one_line_naming(_texts(folder), "01-mean/example.en.py", "the last line calls none of ['mean']")


def test_a_listed_lessons_task_keeps_its_input_rules_in_a_fold(new_lesson):
    folder = new_lesson()
    toml = folder / "lesson.toml"
    _write(toml, toml.read_text(encoding="utf-8").replace("listed = false", "listed = true"))
    assert not [p for p in _texts(folder) if "fold" in p]
    task = folder / "02-variance" / "task.nl.md"
    _write(
        task,
        re.sub(
            r"::: details.*?:::\n", "Een lege lijst geeft ValueError.\n", task.read_text(encoding="utf-8"), flags=re.S
        ),
    )
    one_line_naming(_texts(folder), "02-variance/task.nl.md", "keep the input rules", "'::: details' fold")


def test_an_arabic_starter_holds_code_not_arabic_text(new_lesson):
    folder = new_lesson(("en", "ar"))
    starter = folder / "01-mean" / "starter.ar.py"
    assert not [p for p in _texts(folder) if "starter" in p]
    _write(starter, starter.read_text(encoding="utf-8") + "# اكتب الكود هنا\n")
    one_line_naming(_texts(folder), "01-mean/starter.ar.py", "holds Arabic text")


def test_check_runs_the_text_rules_with_the_same_message(new_lesson):
    """`werkbank check` reports a text rule's problem exactly as tests/test_lesson_text.py would."""
    folder = new_lesson()
    _write(folder / "01-mean" / "hint.en.md", "Only one hint.\n")
    expected = one_line_naming(_texts(folder), "01-mean/hint.en.md", "1 hint(s)")
    forget(folder)
    problems, _ = check_lessons(pyodide=False, root=folder.parent)
    assert expected in problems


def test_check_runs_the_lessons_own_tests_and_another_seed(new_lesson):
    """What make test runs on a lesson, check runs too: its own tests/test_lesson_<package>.py (one line per failing
    test, naming the file and the test) and the reference against another seed's cases."""
    folder = new_lesson()
    package = folder.name.replace("-", "_")
    tests = folder.parent.parent / "tests"
    tests.mkdir()
    _write(
        tests / f"test_lesson_{package}.py",
        "def test_fine():\n    assert True\n\n\ndef test_the_worked_example():\n    assert 1 + 1 == 3, 'the sum'\n",
    )
    grader = _grader_file(folder, "mean")
    append(
        grader,
        """

RANDOM_CASES = 1


def random_cases(rng, count):  # seed 0 draws 0.84 (a valid list), seed 1 draws 0.13 (a None the reference cannot add)
    values = [None] if rng.random() < 0.5 else [1.0]
    yield Case(id="random-0", call="mean", args=(values,), explain={"en": "Random.", "nl": "Willekeurig."})
""",
    )
    forget(folder)
    problems, _ = check_lessons(pyodide=False, root=folder.parent)
    line = one_line_naming(problems, f"test_lesson_{package}.py::test_the_worked_example", "AssertionError")
    assert "the sum" in line and not [p for p in problems if "test_fine" in p]
    one_line_naming(problems, "01-mean/solution.py", "author error with seed 1", "TypeError")
    forget(folder)
    problems, _ = check_lessons(pyodide=False, lesson_tests=False, root=folder.parent)
    assert not [p for p in problems if "test_lesson_" in p]


def test_a_checkpoint_is_prepared_again_exactly_when_something_it_reads_changed(new_lesson, monkeypatch):
    """werkbank.grading.prepared_checkpoint keeps prepared checkpoints by a digest of what preparing reads: the same
    files give the kept one (a copy of its own for each caller), a changed solution or grader prepares anew."""
    from werkbank import grading

    folder = new_lesson()
    made = []
    real = grading.prepare_checkpoint

    def counting(checkpoint, **kwargs):
        made.append(checkpoint.id)
        return real(checkpoint, **kwargs)

    monkeypatch.setattr(grading, "prepare_checkpoint", counting)
    checkpoint = load_lesson_folder(folder).checkpoints[0]
    first = grading.prepared_checkpoint(checkpoint)
    first["plan"]["cases"].clear()  # a caller's copy is its own
    again = grading.prepared_checkpoint(checkpoint)
    assert len(made) == 1 and again["plan"]["cases"]
    with checkpoint.solution_path.open("a", encoding="utf-8") as out:
        out.write("\n# an author's edit\n")
    grading.prepared_checkpoint(checkpoint)
    assert len(made) == 2
    grader = grader_file(folder, "mean.py")
    assert grader.is_file()
    with grader.open("a", encoding="utf-8") as out:
        out.write("\n# an author's edit\n")
    grading.prepared_checkpoint(checkpoint)
    grading.prepared_checkpoint(checkpoint, lang="nl")
    assert len(made) == 4


def test_a_missing_translation_of_the_prose_is_one_line(new_lesson):
    """A language listed in lesson.toml without its prose file: one line naming the file, not one per rule that
    reads the prose (the linter and the text rules both meet it)."""
    folder = new_lesson()
    (folder / "prose.nl.md").unlink()
    forget(folder)
    problems, _ = check_lessons(pyodide=False, root=folder.parent)
    missing = [p for p in problems if "prose.nl.md" in p]
    assert len(missing) == 1 and "missing: write the lesson text in nl" in missing[0], problems
