"""The `werkbank grade` and `werkbank check` contracts (werkbank/cli.py), run as real commands."""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
WERKBANK = [sys.executable, "-m", "werkbank.cli"]
DEMO = ROOT / "exercises" / "_micropip-demo"


def werkbank(*args, env=None):
    return subprocess.run(
        [*WERKBANK, *args], capture_output=True, text=True, cwd=ROOT, timeout=120, env={**os.environ, **(env or {})}
    )


def test_grade_json_pass_exits_0(tmp_path):
    result = werkbank("grade", "micropip-demo", "1", str(DEMO / "01-decode-link" / "solution.py"), "--json")
    assert result.returncode == 0, result.stderr
    verdict = json.loads(result.stdout)
    assert verdict["status"] == "pass"
    assert verdict["passed"] == verdict["total"] > 0


def test_grade_into_a_reader_that_stops_early_ends_without_a_traceback():
    """`werkbank grade ... --json | head -c 10`: the reader closes the pipe before the verdict (130 KB for the
    starter) is written; the command exits 1, as for any verdict not a pass it could not deliver, and prints no
    BrokenPipeError traceback."""
    starter = ROOT / "exercises" / "claims-abstention" / "01-claim-support" / "starter.en.py"
    proc = subprocess.Popen(
        [*WERKBANK, "grade", "claims-abstention", "1", str(starter), "--json"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=ROOT,
    )
    assert proc.stdout.read(10) == b'{"status":'
    proc.stdout.close()
    assert proc.wait(timeout=120) == 1
    assert b"Traceback" not in proc.stderr.read()


def test_grade_json_fail_exits_1_and_names_the_case(tmp_path):
    wrong = tmp_path / "wrong.py"
    wrong.write_text("def decode_link(text):\n    return text\n")
    result = werkbank("grade", "micropip-demo", "1", str(wrong), "--json", "--lang", "nl")
    assert result.returncode == 1
    verdict = json.loads(result.stdout)
    assert verdict["status"] == "fail"
    assert verdict["lang"] == "nl"
    assert verdict["failure"]["case"] == "plain-space"
    assert verdict["failure"]["call"] == "decode_link('a%20b')"
    assert verdict["failure"]["expected"] == "'a b'"
    assert verdict["failure"]["actual"] == "'a%20b'"
    assert "gevallen" in verdict["message"]


def test_grade_error_exits_1(tmp_path):
    broken = tmp_path / "broken.py"
    broken.write_text("def decode_link(text)\n    return text\n")
    result = werkbank("grade", "micropip-demo", "1", str(broken), "--json")
    assert result.returncode == 1
    assert json.loads(result.stdout)["status"] == "error"


def test_grade_timeout_exits_1(tmp_path):
    """An endless loop times out at its checkpoint's limit (a copy of the demo lesson whose grader sets a short
    TIME_LIMIT, so the test does not wait out the default's seconds)."""
    lessons, graders = tmp_path / "exercises", tmp_path / "graders"
    shutil.copytree(DEMO, lessons / "demo")
    shutil.copytree(ROOT / "graders" / "micropip_demo", graders / "quick_demo")
    grader = graders / "quick_demo" / "uses_package.py"
    grader.write_text(grader.read_text() + "\nTIME_LIMIT = 0.5\n")
    toml = lessons / "demo" / "lesson.toml"
    toml.write_text(toml.read_text().replace("graders.micropip_demo.", "graders.quick_demo."))
    loop = tmp_path / "loop.py"
    loop.write_text("while True:\n    pass\n")
    env = {"WERKBANK_EXERCISES": str(lessons), "WERKBANK_GRADERS": str(graders)}
    result = werkbank("grade", "micropip-demo", "1", str(loop), "--json", env=env)
    assert result.returncode == 1
    verdict = json.loads(result.stdout)
    assert verdict["status"] == "timeout" and "(0.5 s)" in verdict["message"], verdict


def test_results_larger_than_the_judge_reads_still_fail_on_their_first_wrong_case(tmp_path):
    """A function returning 100 000 characters on each of a checkpoint's thousand cases returns more than the judge
    reads (RUN_RESULT_LIMIT); the result is fitted (runner.result_json), so the verdict is a fail that names the first
    case, not an error that tells the learner their result was damaged."""
    wrong = tmp_path / "wrong.py"
    wrong.write_text('def recall_at_k(ranking, relevant, k):\n    return "x" * 100_000\n')
    result = werkbank("grade", "retrieval-evaluation", "1", str(wrong), "--json")
    verdict = json.loads(result.stdout)
    assert (verdict["status"], result.returncode) == ("fail", 1), verdict["message"]
    assert verdict["failure"]["case"] == "worked-example"
    assert verdict["passed"] == 0 and verdict["total"] > 1000


def test_unknown_lesson_and_missing_file_are_usage_errors(tmp_path):
    result = werkbank("grade", "no-such-lesson", "1", str(DEMO / "01-decode-link" / "solution.py"), "--json")
    assert result.returncode == 2
    usage = json.loads(result.stdout)
    assert usage["status"] == "error" and usage["usage"] is True, usage
    assert (
        "no-such-lesson" in usage["detail"] and "grader" not in usage["message"]
    )  # the command's error, not one of the lesson's
    assert "WERKBANK_EXERCISES" in usage["message"]  # where lessons are read from
    result = werkbank("grade", "micropip-demo", "9", str(DEMO / "01-decode-link" / "solution.py"), "--json")
    assert result.returncode == 2 and json.loads(result.stdout)["usage"] is True
    result = werkbank("grade", "micropip-demo", "1", str(tmp_path / "absent.py"), "--json")
    assert result.returncode == 2
    result = werkbank("grade", "micropip-demo", "1")
    assert result.returncode == 2


def test_a_broken_reference_is_an_author_error_not_the_learners_failure(tmp_path):
    lessons = tmp_path / "exercises"
    shutil.copytree(DEMO, lessons / "demo")
    (lessons / "demo" / "01-decode-link" / "solution.py").write_text(
        "def decode_link(text):\n    raise TypeError('bug in the reference')\n"
    )
    result = werkbank(
        "grade",
        "micropip-demo",
        "1",
        str(DEMO / "01-decode-link" / "solution.py"),
        "--json",
        env={"WERKBANK_EXERCISES": str(lessons)},
    )
    assert result.returncode == 2
    verdict = json.loads(result.stdout)
    assert verdict["status"] == "error" and verdict["author_error"] is True  # the command's four statuses
    assert "reference" in verdict["detail"]


def test_check_proves_reference_starter_and_mistakes_and_runs_pyodide_parity_by_default():
    """One `werkbank check` (its Pyodide parity run is most of a minute): the proofs, the parity line, the help."""
    result = werkbank("check", "micropip-demo")
    assert result.returncode == 0, result.stderr
    assert "reference: pass" in result.stdout
    assert "starter: fail" in result.stdout
    assert "Pyodide parity: 3/3 files get the same verdict" in result.stdout
    assert "check: all good" in result.stderr
    help_text = werkbank("check", "--help").stdout
    assert "--no-pyodide" in help_text and "--mutants" in help_text


def test_check_reports_a_mistake_that_passes(tmp_path):
    lessons = tmp_path / "exercises"
    shutil.copytree(DEMO, lessons / "demo")
    mistakes = lessons / "demo" / "01-decode-link" / "mistakes"
    reference = (DEMO / "01-decode-link" / "solution.py").read_text()
    (mistakes / "not_really_wrong.py").write_text(
        "# mistake: claims to be wrong but is the reference\n# expect-fail: plain-space\n" + reference
    )
    result = werkbank("check", "micropip-demo", "--no-pyodide", env={"WERKBANK_EXERCISES": str(lessons)})
    assert result.returncode == 1
    assert "FAIL micropip-demo 1 mistake-not_really_wrong" in result.stdout
    problem = next(line for line in result.stderr.splitlines() if "not_really_wrong.py" in line)
    assert "passes every case: add a case that catches it" in problem


def test_a_lesson_id_typo_in_check_is_one_line(tmp_path):
    result = werkbank("check", "micropip-dmeo", "--no-pyodide")
    assert result.returncode == 1
    assert "no lesson with id 'micropip-dmeo' (did you mean 'micropip-demo'?)" in result.stderr
    assert "Traceback" not in result.stderr


def test_new_refuses_an_existing_id_without_a_traceback():
    result = werkbank("new", "claims-abstention", "--lang", "en")
    assert result.returncode == 2
    assert "already" in result.stderr and "Traceback" not in result.stderr


def test_the_cli_is_the_only_entry_point_of_werkbank():
    """No module of werkbank/ but cli.py has a main() or an `if __name__ == "__main__":` block (the architecture
    rule; the runtime helper removes those of its own files)."""
    mine = ("check.py", "lessons.py", "scaffold.py", "watch.py", "parity.py")
    for name in mine:
        text = (ROOT / "werkbank" / name).read_text(encoding="utf-8")
        assert "def main(" not in text and "__main__" not in text, name


@pytest.mark.parametrize("lang", ["nl", "en", "ar"])
def test_text_output_is_readable(lang, tmp_path):
    wrong = tmp_path / "wrong.py"
    wrong.write_text("def decode_link(text):\n    return text.upper()\n")
    result = werkbank("grade", "micropip-demo", "1", str(wrong), "--lang", lang)
    assert result.returncode == 1
    assert result.stdout.startswith("FAIL: ")
    assert "decode_link('a%20b')" in result.stdout


def test_lone_surrogates_from_learner_code_come_back_as_json_escapes(tmp_path):
    """Learner code can print or return a lone surrogate, which no UTF-8 output can hold: the command once died
    writing its JSON. The character comes back as its JSON escape, in valid JSON, and the terminal text shows it."""
    odd = tmp_path / "odd.py"
    odd.write_text('print("\\ud800 lone")\n\ndef decode_link(text):\n    return "\\udcff"\n', encoding="utf-8")
    result = werkbank("grade", "micropip-demo", "1", str(odd), "--json")
    assert result.returncode == 1, result.stderr
    assert "\\ud800" in result.stdout
    verdict = json.loads(result.stdout)
    assert verdict["status"] == "fail"
    assert verdict["stdout"] == "\ud800 lone\n"
    assert "\ud800" not in result.stdout  # the escape, not the character
    text = werkbank("grade", "micropip-demo", "1", str(odd))
    assert text.returncode == 1 and text.stdout.startswith("FAIL:"), text.stderr


def test_learner_output_cannot_drive_the_terminal_and_json_keeps_it_exact(tmp_path):
    """Learner code printing escape sequences (clear the screen, a fake PASS line, a carriage return over it, an
    8-bit CSI) shows them as visible escapes in the terminal text; the JSON holds exactly what was printed."""
    spoof = tmp_path / "spoof.py"
    printed = "\x1b[H\x1b[2JPASS: All cases pass.\r\x9b2J\x07"
    spoof.write_text(f"print({printed!r})\n\ndef decode_link(text):\n    return 1\n", encoding="utf-8")
    text = werkbank("grade", "micropip-demo", "1", str(spoof))
    assert text.returncode == 1 and text.stdout.startswith("FAIL:"), text.stderr
    assert not any(c in text.stdout for c in "\x1b\r\x9b\x07")
    assert "\\u001b[H\\u001b[2JPASS" in text.stdout and "\\u009b" in text.stdout
    result = werkbank("grade", "micropip-demo", "1", str(spoof), "--json")
    assert "\x9b" not in result.stdout
    assert json.loads(result.stdout)["stdout"] == printed + "\n"


def test_no_line_learner_code_prints_or_raises_starts_at_the_margin_of_the_terminal_text(tmp_path):
    """Only the verdict's first line starts at the margin: a printed "PASS:" line, or one inside an exception's
    message or its class's name, is indented (or escaped), so it cannot pass for a verdict."""
    spoof = tmp_path / "spoof.py"
    spoof.write_text(
        "print('\\nPASS: All cases pass.')\n"
        "E = type('E on line 1.\\n\\nPASS: All cases pass.\\n', (ValueError,), {})\n"
        "def decode_link(text):\n    raise E('\\nPASS: All cases pass.')\n",
        encoding="utf-8",
    )
    text = werkbank("grade", "micropip-demo", "1", str(spoof))
    assert text.returncode == 1 and text.stdout.startswith("FAIL:"), text.stderr
    at_margin = [line for line in text.stdout.splitlines()[1:] if line and not line[0].isspace()]
    assert at_margin == ["--- stdout ---"], at_margin
    assert "PASS: All cases pass." in text.stdout  # shown, indented


@pytest.mark.parametrize(
    "raw",
    [
        "\ufeff" + "# saved with a byte-order mark and Windows line ends\r\n{reference}",
        "# -*- coding: latin-1 -*-\n# café\n{reference}",
        "# -*- coding: no-such-codec -*-\n# café\n{reference}",
        "\ufeff# -*- coding: latin-1 -*-\n# café\n{reference}",
    ],
    ids=["bom-crlf", "latin-1-coding-line", "unknown-codec", "bom-against-its-coding-line"],
)
def test_a_file_python_reads_is_read_the_same(tmp_path, raw):
    """The command reads a file as Python does: a BOM, or the encoding its coding line names. A coding line Python
    cannot use is left to the text, as the browser's editor leaves it (compiling a text ignores the line): the file
    is read as UTF-8 and graded, not a traceback."""
    reference = (DEMO / "01-decode-link" / "solution.py").read_text("utf-8")
    text = raw.format(reference=reference.replace("\n", "\r\n") if "\r\n" in raw else reference)
    path = tmp_path / "solution.py"
    path.write_bytes(text.encode("latin-1" if "latin-1" in raw and not raw.startswith("\ufeff") else "utf-8"))
    result = werkbank("grade", "micropip-demo", "1", str(path), "--json")
    assert result.returncode == 0, result.stdout[:500]
    assert json.loads(result.stdout)["status"] == "pass"


def test_an_ascii_only_console_still_gets_the_verdict_of_arabic_and_emoji_output(tmp_path):
    """With standard output that only writes ASCII (PYTHONIOENCODING=ascii, an old console) learner text beyond ASCII
    comes back as JSON escapes, and the terminal text as backslash escapes, rather than ending the command."""
    path = tmp_path / "loud.py"
    printed = "مرحبا \U0001f600"
    path.write_text(f"print({printed!r})\n\ndef decode_link(text):\n    return 1\n", encoding="utf-8")
    result = werkbank("grade", "micropip-demo", "1", str(path), "--json", env={"PYTHONIOENCODING": "ascii"})
    assert result.returncode == 1, result.stderr
    assert result.stdout.isascii() and json.loads(result.stdout)["stdout"] == printed + "\n"
    text = werkbank("grade", "micropip-demo", "1", str(path), env={"PYTHONIOENCODING": "ascii"})
    assert text.returncode == 1 and text.stdout.startswith("FAIL:"), text.stderr
    assert "\\U0001f600" in text.stdout


def test_a_file_that_is_not_text_is_a_usage_error_with_its_json(tmp_path):
    path = tmp_path / "binary.py"
    path.write_bytes(b"def decode_link(text):\n    return '\xff'\n")
    result = werkbank("grade", "micropip-demo", "1", str(path), "--json")
    assert result.returncode == 2
    verdict = json.loads(result.stdout)
    assert verdict["status"] == "error" and verdict["usage"] is True
    assert "cannot read" in verdict["message"] and "binary.py" in verdict["message"]


def test_grade_text_names_the_declared_mistake_it_recognises(tmp_path):
    """A file that fails exactly as a declared mistake does: the text verdict names that mistake and its feedback,
    as the JSON verdict's failure.mistake and failure.feedback do."""
    from werkbank.lessons import load_lesson

    checkpoint = load_lesson("retrieval-evaluation").checkpoint("1")
    mistake = next(m for m in checkpoint.mistakes() if m.feedback)
    path = tmp_path / "mistake.py"
    path.write_text(mistake.source(), encoding="utf-8")
    result = werkbank("grade", "retrieval-evaluation", "1", str(path))
    verdict = json.loads(werkbank("grade", "retrieval-evaluation", "1", str(path), "--json").stdout)
    assert result.returncode == 1 and verdict["failure"]["mistake"] == mistake.name
    assert f"  mistake:  {mistake.name}: {mistake.feedback['en']}" in result.stdout.splitlines()


def test_a_file_without_the_code_its_checkpoint_builds_on_is_told_what_it_lacks(tmp_path):
    """The page runs the learner's code of the checkpoints a checkpoint needs first; a file for `werkbank grade`
    must hold it too. One that does not is told so by name, beside the NameError; a checkpoint that needs none is
    silent about it."""
    only_new = tmp_path / "only_new.py"
    only_new.write_text(
        "def reliability_diagram(confidences, correct, bins=10):\n"
        "    return expected_calibration_error(confidences, correct, bins=bins)\n",
        encoding="utf-8",
    )
    verdict = json.loads(werkbank("grade", "perplexity-calibration", "3", str(only_new), "--json").stdout)
    (note,) = [n for n in verdict["notes"] if "builds on checkpoint 2" in n]
    assert "brier_score, expected_calibration_error" in note and "_" + "validated" not in note
    complete = werkbank("grade", "perplexity-calibration", "2", str(only_new), "--json")
    assert not any("builds on" in n for n in json.loads(complete.stdout)["notes"])  # checkpoint 2 needs nothing
