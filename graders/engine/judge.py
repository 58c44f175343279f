"""Turn a prepared checkpoint and a learner run into a verdict.

A verdict is a plain JSON-able dict: ``status`` (pass, fail, error, timeout or author_error), ``passed`` and
``total``, the first ``failure`` (case id and label, the call as bounded text and as complete Python source,
expected and actual as bounded reprs that are valid Python, the reason, the case's explanation and hint, the
learner's own Python error when that is what went wrong), ``failed_cases`` (every failing case id), ``summary`` and
``summary_text`` (the failing cases counted by kind), ``failing`` (the first failing cases with their calls, to try
one by one), ``stdout``/``stderr``, the trimmed ``traceback`` with its
``error_line``, a one-line ``message`` and ``notes``, all in the learner's language.

A case fails when the outcome differs from the reference's, when the function changed its arguments, or when a
result it returned earlier reads differently after the later calls (shared or cached results).
"""

from __future__ import annotations

import re

from . import values
from .compare import Mismatch, compare
from .i18n import pick, text
from .settings import (
    EXIT_TEXT_LIMIT,
    FALLBACK_LANGUAGE,
    LANGUAGES,
    MAX_CASES,
    MESSAGE_LIMIT,
    OUTCOME_FLAGS,
    OUTPUT_LIMIT,
    RECURSION_DEPTH,
    RUN_RESULT_DEPTH,
    RUN_RESULT_LIMIT,
    TRACEBACK_LIMIT,
)
from .values import WireError, is_name, plain, show, validate


def _outcome_text(outcome: dict, lang: str, message_graded: bool = True) -> str:
    """An outcome as Python a learner can paste: the value (cut places ``...``, how much was cut in a comment), or
    the exception. ``message_graded``: whether the case checks the exception's message; an expected exception whose
    message is not checked shows only its type (the reference's wording would read as a requirement)."""
    kind = outcome.get("kind")
    more = text("more_items", lang)
    if kind == "return":
        value = outcome["value"]
        if isinstance(value, list) and values.too_large(value):  # not Python to paste: said in the learner's language
            return "<" + text("value_too_large", lang, type=values.too_large_type(value)) + ">"
        return show(value, more=more, pasteable=True)
    if kind == "raise":
        message = outcome.get("message") or ""
        return f"{outcome['exc']}({message[:200]!r})" if message and message_graded else outcome["exc"]
    if kind in ("missing", "not_callable"):
        return f"<{outcome.get('name')} not defined>"
    return "<no result>"


def _where(path: str, lang: str) -> str:
    return text("where", lang, path=path) if path else ""


#: How a failing case failed, coarsely, in the order a verdict's summary lists them (see :func:`summary`).
FAILURE_KINDS = (
    "invalid_input",
    "error",
    "wrong_type",
    "wrong_value",
    "too_large",
    "changed_arguments",
    "repeated_calls",
    "warning",
    "missing",
)
#: The failure kind of mismatch reasons (compare.py) that are not about the value: the type is wrong, or the result
#: was too large to read back; any other reason is a wrong value.
_REASON_KINDS = {"type": "wrong_type", "dtype": "wrong_type", "shape": "wrong_type", "too_large": "too_large"}
#: Failure kinds a case's own hint does not speak to: it says what its input should give, and here the type was
#: wrong, the arguments changed, a call spoiled another or the result was too large to read.
_NOT_THE_CASES = frozenset(("wrong_type", "changed_arguments", "repeated_calls", "too_large"))
#: Generated families that only fail across calls (the same call again, an earlier call's arguments refilled).
_ACROSS_CALLS = frozenset(("repeat", "refill"))


def check_case(
    expected: dict, actual: dict | None, meta: dict, lang: str, same: bool = False
) -> tuple[str, str | None, str] | None:
    """``None`` when the learner's outcome matches; else ``(reason text, hint key, kind)``, ``kind`` one of
    :data:`FAILURE_KINDS`. ``same``: the outcome returned the very value expected (see :func:`known_values`)."""
    if actual is None:
        return text("reason_not_reached", lang), None, "missing"
    kind = actual.get("kind")
    if kind == "missing":
        return text("reason_missing", lang, name=actual.get("name")), None, "missing"
    if kind == "not_callable":
        return text("reason_not_callable", lang, name=actual.get("name")), None, "missing"
    across = (meta.get("generated") or {}).get("family") in _ACROSS_CALLS
    if expected["kind"] == "raise":
        exc = expected["exc"]
        if kind == "return":
            return text("reason_expected_raise", lang, exc=exc), None, "invalid_input"
        if exc not in actual.get("builtin_mro", []):
            return text("reason_wrong_raise", lang, exc=exc, actual=actual.get("exc")), None, "invalid_input"
        pattern = meta.get("message")
        if pattern and not re.search(pattern, actual.get("message", "")):
            return text("reason_message", lang, exc=exc), None, "invalid_input"
    else:
        if kind == "raise":
            return (
                text("reason_unexpected_raise", lang, actual=actual.get("exc")),
                None,
                "repeated_calls" if across else "error",
            )
        found = None if same else compare(expected["value"], actual["value"], abs_tol=meta.get("abs_tol"))
        if found:
            return (
                _reason(found, lang),
                found.hint,
                "repeated_calls" if across else _REASON_KINDS.get(found.reason, "wrong_value"),
            )
        if "later" in actual and compare(expected["value"], actual["later"], abs_tol=meta.get("abs_tol")):
            return text("reason_changed_later", lang), "hint_changed_later", "repeated_calls"
        if actual.get("shared") is True:
            return text("reason_shared_result", lang), "hint_changed_later", "repeated_calls"
        if actual.get("aliased") is True:
            return text("reason_returned_argument", lang), "hint_returned_argument", "changed_arguments"
    if actual.get("mutated"):
        return text("reason_mutated", lang), "hint_mutated", "changed_arguments"
    if actual.get("mutated_later"):
        return text("reason_mutated_later", lang), "hint_mutated", "changed_arguments"
    if meta.get("forbid_warnings") and actual.get("warnings"):
        return text("reason_warning", lang, warning=", ".join(actual["warnings"])), None, "warning"
    return None


def _own_kind(kind: str, meta: dict, failed: dict) -> str:
    """The kind to count a failing case under: a case made to fail across calls (the same call again, an earlier
    call's objects refilled) whose own input failed already, in the call it repeats (``failed``: the kinds of the
    cases judged so far), went wrong there, not across calls."""
    generated = meta.get("generated") or {}
    if kind == "repeated_calls" and generated.get("family") in _ACROSS_CALLS:
        return failed.get(generated.get("base"), kind)
    return kind


def summary(counts: dict, lang: str) -> tuple[list, str]:
    """The failing cases by kind: ``([{"kind", "count", "text"}], one sentence)``, most frequent kind first (ties
    in :data:`FAILURE_KINDS` order), so a learner whose core logic is right but whose input checks are missing sees
    that at once."""
    order = sorted(
        (kind for kind in FAILURE_KINDS if counts.get(kind)),
        key=lambda kind: (-counts[kind], FAILURE_KINDS.index(kind)),
    )
    parts = [
        {"kind": kind, "count": counts[kind], "text": text(f"kind_{kind}", lang, n=counts[kind])} for kind in order
    ]
    return parts, text("summary", lang, kinds=text("list_separator", lang).join(p["text"] for p in parts))


def _reason(found: Mismatch, lang: str) -> str:
    params = dict(found.params)
    params["where"] = _where(found.path, lang)
    return text(f"reason_{found.reason}", lang, **params)


#: Exceptions a learner's own code raises by mistake, each explained in the catalog (``pyerr_<name>``).
PYTHON_ERRORS = (
    "NameError",
    "UnboundLocalError",
    "TypeError",
    "IndexError",
    "KeyError",
    "AttributeError",
    "ZeroDivisionError",
    "RecursionError",
    "NotImplementedError",
    "ModuleNotFoundError",
    "ImportError",
    "ValueError",
    "AssertionError",
    "OverflowError",
    "FloatingPointError",
    "StopIteration",
    "EOFError",
    "IndentationError",
    "SyntaxError",
    "OSError",
)


def python_error(expected: dict, actual: dict | None, lang: str) -> dict | None:
    """The learner's own error, when the case failed because their code raised an exception it did not expect:
    ``{exc, message, line, explain}`` (``explain`` in the learner's language), else ``None``."""
    if not actual or actual.get("kind") != "raise" or actual.get("error_line") is None:
        return None
    if expected["kind"] == "raise" and expected["exc"] in actual.get("builtin_mro", []):
        return None
    return explain_error(
        actual.get("exc"), actual.get("builtin_mro", []), actual.get("message"), actual["error_line"], lang
    )


def explain_error(exc, builtin_mro, message, line, lang: str, in_case: bool = True) -> dict:
    """``{exc, message, line, explain}`` for an exception the learner's code raised: what it means, in ``lang``,
    chosen by the nearest built-in class that has an explanation. ``in_case``: it was raised in a case's call (else
    by a Run, or by the module before any case: no case to speak of)."""
    mro = builtin_mro if isinstance(builtin_mro, list) else []
    name = next((c for c in mro if c in PYTHON_ERRORS), None)
    if name == "ValueError" and not in_case:
        explain = text("pyerr_ValueError_run", lang)  # the case-less reading: no case expects anything in a Run
    else:
        explain = (
            text(f"pyerr_{name}", lang, depth=RECURSION_DEPTH)
            if name
            else text("pyerr_other" if in_case else "pyerr_other_run", lang)
        )
    return {
        "exc": str(exc),
        "message": str(message or "")[:500],
        "line": line if type(line) is int else None,
        "explain": explain,
    }


def case_texts(meta: dict, lang: str) -> tuple[str, str, str]:
    """``(label, explanation, hint)`` of a case in ``lang``; generated cases take theirs from the catalog."""
    generated = meta.get("generated")
    if generated:
        params = {"site": generated["site"], "detail": generated["detail"]}
        group = generated["group"]
        # the label names the kind of input and where it is ("-": the whole call); "gen_label" is the label group's
        # explanation
        where = "gen_case_label_whole" if generated["site"] == "-" else "gen_case_label"
        return (
            text(where, lang, what=text(f"gen_name_{group}", lang), **params),
            text(f"gen_{group}", lang, **params),
            text(f"gen_hint_{group}", lang),
        )
    return pick(meta.get("label", {}), lang), pick(meta["explain"], lang), pick(meta["hint"], lang)


def _base(key: dict, run: dict, lang: str) -> dict:
    notes = []
    if run.get("truncated"):
        notes.append(text("note_output_truncated", lang, limit=OUTPUT_LIMIT))
    return {
        "status": None,
        "passed": 0,
        "total": len(key["order"]),
        "lang": lang,
        "lesson": key.get("lesson"),
        "checkpoint": key.get("checkpoint"),
        "seed": key.get("seed"),
        "failure": None,
        "failed_cases": [],
        "stdout": run.get("stdout", ""),
        "stderr": run.get("stderr", ""),
        "traceback": run.get("traceback"),
        "error_line": run.get("error_line"),
        "message": "",
        "notes": notes,
    }


# ----------------------------------------------------------------------------------------------- reading a run
# A run result comes from the learner's interpreter (a worker or a child process learner code can write to), so the
# judge reads it as hostile data: bounded in bytes and nesting before it is parsed (a JSON text nested a million
# deep overflows the parser's stack in Pyodide, which ends the whole interpreter), then checked field by field.

#: Every byte but a quote and the brackets.
_NOT_SKELETON = bytes(b for b in range(256) if b not in b'"[]{}')


def json_depth(data: bytes) -> int:
    """How deeply the JSON text ``data`` nests (brackets outside strings), found without recursion and without a
    pass of Python code over the text: escaped backslashes and escaped quotes go first (pairs of backslashes from
    the left, as a string's escapes are read), then everything but quotes and brackets; a bracket is inside a string
    when an odd number of quotes comes before it. Where ``data`` is not JSON, the text up to where a parser stops
    (a backslash outside a string, say) is read as that parser reads it."""
    skeleton = data.replace(b"\\\\", b"").replace(b'\\"', b"").translate(None, _NOT_SKELETON)
    if not skeleton:
        return 0
    np = values._np  # numpy, as the values module holds it
    if np is not None:
        marks = np.frombuffer(skeleton, dtype=np.uint8)
        outside = (np.cumsum(marks == 34, dtype=np.int64) & 1) == 0
        opens = outside & ((marks == 91) | (marks == 123))
        closes = outside & ((marks == 93) | (marks == 125))
        return max(0, int(np.cumsum(opens.astype(np.int64) - closes).max()))
    depth = deepest = 0  # pragma: no cover - both hosts ship numpy
    inside = False
    for byte in skeleton:
        if byte == 34:
            inside = not inside
        elif not inside:
            depth += 1 if byte in b"[{" else -1
            deepest = max(deepest, depth)
    return deepest


#: The status of a run result the judge did not read (never one a runner writes).
UNREADABLE = "unreadable"


def read_run(data) -> dict:
    """The untrusted run result (UTF-8 JSON as bytes, a buffer with ``to_bytes`` such as a Uint8Array, or text) as a
    dict; one that could not be read is ``{"status": UNREADABLE, "problem": why}``, which :func:`judge` turns into
    an error verdict. Nothing longer than :data:`RUN_RESULT_LIMIT` bytes or nested deeper than
    :data:`RUN_RESULT_DEPTH` is parsed."""
    if hasattr(data, "to_bytes"):
        data = data.to_bytes()
    if type(data) is str:
        if len(data) > RUN_RESULT_LIMIT:  # UTF-8 takes at least a byte a character: too long whatever it holds
            return {"status": UNREADABLE, "problem": "too large"}
        data = data.encode("utf-8", "surrogatepass")
    if type(data) is not bytes:
        return {"status": UNREADABLE, "problem": "not JSON text"}
    if len(data) > RUN_RESULT_LIMIT:
        return {"status": UNREADABLE, "problem": "too large"}
    if json_depth(data) > RUN_RESULT_DEPTH:
        return {"status": UNREADABLE, "problem": "nested too deeply"}
    try:
        run = values.parse_json(data)
    except (ValueError, TypeError, RecursionError):
        return {"status": UNREADABLE, "problem": "not JSON"}
    return run if type(run) is dict else {"status": UNREADABLE, "problem": "not an object"}


_RUN_STATUSES = frozenset({"ok", "error", "exit", "interrupted", "timeout"})
_OUTCOME_KINDS = frozenset({"return", "raise", "missing", "not_callable"})
_OPTIONAL_TEXT = (str, type(None))


def known_values(key: dict) -> dict:
    """``{case id: expected returned value}`` for every case of a Check's ``key`` whose reference returned a valid
    wire value with no ``foreign`` part (which never matches). :func:`judge` takes a learner's value that is equal to
    it (``==`` over the parsed JSON, at C speed) as valid and matching without walking it twice; where ``==`` is
    looser than the wire format (``True == 1 == 1.0``) the compare would find those equal too. The grader worker
    keeps this with each Check, ahead of the click; :func:`judge` makes it when the prepared Check has none, so every
    host judges alike."""
    known = {}
    for case_id, expected in key["expected"].items():
        if expected.get("kind") != "return" or "'foreign'" in _repr(expected["value"]):
            continue
        try:
            validate(expected["value"])
        except WireError:
            continue
        known[case_id] = expected["value"]
    return known


_repr = repr
_NOTHING = object()


def _bad_run(run, known: dict | None = None, same: set | None = None) -> str | None:
    """Why ``run`` is not a well-formed run result (``None`` when it is). A run result comes from the learner's
    interpreter, so every field is checked before the judge reads it. ``known`` (:func:`known_values`): a returned
    value equal to its case's expected value is as valid as the reference's own, and its case id goes into
    ``same``."""
    if type(run) is not dict:
        return "not an object"
    if run.get("status") == UNREADABLE and type(run.get("problem")) is str:
        return run["problem"][:200]
    if run.get("status") not in _RUN_STATUSES:
        return "unknown status"
    for name in ("stdout", "stderr"):
        if type(run.get(name, "")) is not str:
            return f"{name} is not text"
    if len(run.get("stdout", "")) + len(run.get("stderr", "")) > OUTPUT_LIMIT:
        return "more output than the limit"
    if not _short_text(run.get("traceback"), TRACEBACK_LIMIT):
        return "traceback is not a short text"
    if run.get("error_line") is not None and type(run.get("error_line")) is not int:
        return "error_line is not an int"
    code = run.get("exit_code")
    if not (code is None or type(code) in (bool, int) or (type(code) is str and len(code) <= EXIT_TEXT_LIMIT + 1)):
        return "exit_code is not an int or a short text"
    exception = run.get("exception")
    if exception is not None and (type(exception) is not dict or not _raised(exception)):
        return "exception is malformed"
    outcomes = run.get("outcomes", [])
    if type(outcomes) is not list:
        return "outcomes is not a list"
    if len(outcomes) > MAX_CASES:
        return "more outcomes than cases"
    seen = set()
    for outcome in outcomes:
        if type(outcome) is not dict or type(outcome.get("id")) is not str or outcome.get("kind") not in _OUTCOME_KINDS:
            return "an outcome is malformed"
        if not _short_text(outcome.get("traceback"), TRACEBACK_LIMIT):
            return "an outcome's traceback is not a short text"
        if outcome.get("error_line") is not None and type(outcome.get("error_line")) is not int:
            return "an outcome's error_line is not an int"
        if outcome["id"] in seen:
            return f"outcome {outcome['id'][:40]!r} appears twice"
        seen.add(outcome["id"])
        try:
            if outcome["kind"] == "return":
                expected = known.get(outcome["id"], _NOTHING) if known else _NOTHING
                if expected is not _NOTHING and outcome.get("value") == expected:
                    same.add(outcome["id"])
                else:
                    validate(outcome.get("value"))
                if "later" in outcome:
                    validate(outcome["later"])
            elif outcome["kind"] == "raise":
                if not _raised(outcome):
                    return "an exception outcome is malformed"
            elif not is_name(outcome.get("name", "")):
                return "an outcome is malformed"
        except WireError as error:
            return f"outcome {outcome['id'][:40]!r}: {error}"
        warnings = outcome.get("warnings", [])
        if type(warnings) is not list or not all(is_name(w) for w in warnings):
            return "warnings are malformed"
    return None


def _short_text(value, limit: int) -> bool:
    """None, or text of at most ``limit`` characters."""
    return value is None or (type(value) is str and len(value) <= limit)


def _raised(exception: dict) -> bool:
    """Whether an exception as the runner writes it (``exc``, ``message``, ``builtin_mro``) is well-formed."""
    mro = exception.get("builtin_mro", [])
    return (
        is_name(exception.get("exc"))
        and type(exception.get("message", "")) is str
        and len(exception.get("message", "")) <= MESSAGE_LIMIT
        and type(mro) is list
        and len(mro) <= 64
        and all(is_name(c) for c in mro)
    )


def judge(prepared: dict, run: dict, lang: str = FALLBACK_LANGUAGE) -> dict:
    """The verdict for ``run`` (from :func:`graders.engine.runner.run`) against a prepared checkpoint (the whole
    result of :func:`graders.engine.prepare.prepare`: its ``key`` decides, its ``plan`` shows the failing call).
    ``prepared`` may hold ``known`` (:func:`known_values` of its key), which makes the same verdict sooner."""
    key = prepared["key"]
    lang = lang if lang in LANGUAGES else FALLBACK_LANGUAGE
    same: set = set()
    known = prepared.get("known")
    problem = _bad_run(run, known_values(key) if known is None else known, same)
    if problem is not None:
        verdict = _base(key, {}, lang)
        verdict["status"] = "error"
        verdict["message"] = text("run_unreadable", lang)
        verdict["detail"] = problem
        return verdict
    verdict = _base(key, run, lang)
    status = run.get("status")
    if status == "timeout":
        verdict["status"] = "timeout"
        verdict["message"] = text("timeout", lang, seconds=key.get("time_limit"))
        return verdict
    if status in ("error", "exit", "interrupted") and not run.get("outcomes"):
        verdict["status"] = "error"
        if status == "exit":
            verdict["message"] = text("exit", lang, code=run.get("exit_code"))
        elif status == "interrupted":
            verdict["message"] = text("interrupt_own", lang)
        elif run.get("syntax_error"):
            verdict["message"] = text("syntax_error", lang, line=run.get("error_line"))
            verdict["python_error"] = _module_error(run, lang)
            verdict["syntax_error"] = True  # Python could not read the code (not a SyntaxError the code raised)
        elif run.get("abrupt") is True:
            # the process ended without a result (os._exit, a crash in C code, memory): when is not known
            verdict["message"] = text("error_abrupt", lang)
        else:
            verdict["message"] = text("error", lang)
            verdict["python_error"] = _module_error(run, lang)
        return verdict
    outcomes = {o.get("id"): o for o in run.get("outcomes", [])}
    passed = 0
    first = None
    counts: dict = {}
    failed: dict = {}  # case id -> its failure kind
    kinds: list = []  # the kind of each of the first FAILING_LIMIT failing cases
    for case_id in key["order"]:
        meta = key["cases"][case_id]
        actual = outcomes.get(case_id)
        problem = check_case(key["expected"][case_id], actual, meta, lang, case_id in same)
        if problem is None:
            passed += 1
            continue
        kind = _own_kind(problem[2], meta, failed)
        failed[case_id] = kind
        problem = (*problem[:2], kind)
        counts[kind] = counts.get(kind, 0) + 1
        verdict["failed_cases"].append(case_id)
        if len(kinds) < FAILING_LIMIT:
            kinds.append(problem[2])
        if first is None:
            first = failure(prepared, case_id, actual, problem, lang, outcomes)
            if actual and actual.get("kind") == "raise" and actual.get("traceback"):
                verdict["traceback"] = actual["traceback"]
                verdict["error_line"] = actual.get("error_line")
    verdict["passed"] = passed
    verdict["failure"] = first
    if counts:
        verdict["summary"], verdict["summary_text"] = summary(counts, lang)
        verdict["failing"] = failing_list(prepared, list(zip(verdict["failed_cases"], kinds)), lang)
    if status in ("exit", "interrupted", "error"):
        # The run stopped part-way: never a pass.
        verdict["status"] = "error"
        verdict["message"] = (
            text("exit", lang, code=run.get("exit_code"))
            if status == "exit"
            else text("interrupt_own", lang)
            if status == "interrupted"
            else text("error", lang)
        )
    elif first is None:
        verdict["status"] = "pass"
        verdict["message"] = text("pass", lang, total=verdict["total"])
    else:
        verdict["status"] = "fail"
        error = first.get("python_error")
        verdict["message"] = (
            text("fail_python", lang, passed=passed, total=verdict["total"], exc=error["exc"], line=error["line"])
            if error
            else text("fail", lang, passed=passed, total=verdict["total"], case=first["case_label"].rstrip(". "))
        )
    plot = plot_data(key, run)
    if plot:
        verdict["plot"] = plot
    return verdict


def judge_early(prepared: dict, part: dict, lang: str = FALLBACK_LANGUAGE) -> dict | None:
    """The first failing case among the cases of ``part``, a part of a Check's run the learner worker reported while
    the other cases still ran (:data:`graders.engine.runner.PROGRESS_AT`): a verdict to show until the run's own,
    ``{"status": "fail", "early": True, "checked", "total", "failure", ...}``, without counts, summary or list (the
    other cases are not in yet), or ``None`` when those cases all pass or the part cannot be read. Untrusted like
    any run result; only a failure is ever said early, and :func:`judge` of the whole run always follows."""
    if _bad_run(part) is not None or part.get("status") != "ok":
        return None
    key = prepared["key"]
    present = {o["id"] for o in part.get("outcomes", [])}
    order = [case_id for case_id in key["order"] if case_id in present]
    if not order:
        return None
    verdict = judge({**prepared, "key": {**key, "order": order}}, part, lang)
    if verdict["status"] != "fail":
        return None
    verdict.update(early=True, checked=len(order), total=len(key["order"]), passed=None, failed_cases=[])
    for name in ("summary", "summary_text", "failing", "plot"):
        verdict.pop(name, None)
    return verdict


#: How many failing cases a verdict lists with their call (``failing``), and how much complete call source it carries
#: for them: per case, and for the whole list (a case with thousands of items has a long source).
FAILING_LIMIT = 50
FAILING_SOURCE_LIMIT = 4_000
FAILING_SOURCE_BUDGET = 60_000


def failing_list(prepared: dict, failed: list, lang: str) -> list:
    """The first :data:`FAILING_LIMIT` of the failing cases ``failed`` (``(case id, kind)`` pairs, in order), for the
    learner to open and try one by one: ``{case, label, kind, call, call_source, generated, expected}``. ``call_source``
    (runnable Python) is ``None`` for a case whose source is longer than :data:`FAILING_SOURCE_LIMIT`, or once the list
    holds :data:`FAILING_SOURCE_BUDGET` characters of source; ``call`` is always there (bounded text)."""
    key = prepared["key"]
    out = []
    budget = FAILING_SOURCE_BUDGET
    for case_id, kind in failed[:FAILING_LIMIT]:
        meta = key["cases"][case_id]
        entry = plan_case(prepared, case_id)
        plain = entry.get("json")
        if type(plain) is str and len(plain) > min(FAILING_SOURCE_LIMIT, budget):
            # inputs held as JSON text: their source is at least about as long, so it is not made at all
            call, source = call_text(entry, lang), None
        else:
            call, source = call_texts(entry, lang)
            if len(source) > min(FAILING_SOURCE_LIMIT, budget):
                source = None
            else:
                budget -= len(source)
        out.append(
            {
                "case": case_id,
                "label": case_texts(meta, lang)[0] or case_id,
                "kind": kind,
                "call": call,
                "call_source": source,
                "generated": bool(meta.get("generated")),
                "expected": _outcome_text(key["expected"][case_id], lang, message_graded=bool(meta.get("message"))),
            }
        )
    return out


def _module_error(run: dict, lang: str) -> dict | None:
    """The explained exception that stopped the learner's module before or between the cases, if any."""
    exception = run.get("exception")
    if type(exception) is not dict or type(exception.get("exc")) is not str:
        return None
    return explain_error(
        exception["exc"],
        exception.get("builtin_mro"),
        exception.get("message"),
        run.get("error_line"),
        lang,
        in_case=False,
    )


def plan_case(prepared: dict, case_id: str) -> dict:
    """The plan's entry of one case (its call and inputs)."""
    index = prepared.get("_index")
    if index is None:
        index = prepared["_index"] = {case["id"]: case for case in prepared["plan"]["cases"]}
    return index[case_id]


def call_text(entry: dict, lang: str, inputs: tuple | None = None) -> str:
    """The bounded call text of a plan case (``inputs``: its decoded ``(args, kwargs)``, when already at hand); it says
    how many items it leaves out in ``lang``."""
    args, kwargs = inputs if inputs is not None else values.case_inputs(entry)
    return values.show_call(entry["call"], args, kwargs, more=text("more_items", lang))


def call_texts(entry: dict, lang: str) -> tuple[str, str]:
    """``(bounded call text, complete call source)`` of a plan case (:func:`call_text`): made when a verdict shows
    the case, not for every case ahead of time (the source of a case with thousands of items is long)."""
    inputs = values.case_inputs(entry)
    return call_text(entry, lang, inputs), values.call_source(entry["call"], *inputs)


def failure(
    prepared: dict, case_id: str, actual: dict | None, problem: tuple, lang: str, outcomes: dict | None = None
) -> dict:
    """The verdict's ``failure`` entry for one failing case: what was called, expected and got, and why. ``outcomes``:
    the run's outcomes by case id, which a declared mistake's feedback must agree with (:func:`known_mistake`)."""
    key = prepared["key"]
    meta = key["cases"][case_id]
    call, source = call_texts(plan_case(prepared, case_id), lang)
    reason, hint_key, kind = problem
    label, explain, hint = case_texts(meta, lang)
    # a case made to fail only across calls (the same call again, refilled arguments) has a hint that speaks to that
    own_speaks = kind == "repeated_calls" and (meta.get("generated") or {}).get("family") in _ACROSS_CALLS
    if (kind in _NOT_THE_CASES and not own_speaks) or hint_key == "hint_near_float":
        # the case's own hint is about its input and what it should give, which is not what went wrong
        hint = text(hint_key, lang) if hint_key else None
    elif hint_key:
        hint = (text(hint_key, lang) + (" " + hint if hint else "")).strip()
    expected = key["expected"][case_id]
    entry = {
        "case": case_id,
        "case_label": label or case_id,
        "call": call,
        "call_source": source,
        "expected": _outcome_text(expected, lang, message_graded=bool(meta.get("message"))),
        "actual": _outcome_text(actual, lang) if actual else "<no result>",
        "reason": reason,
        "explanation": explain,
        "hint": hint,
        "kind": kind,
        "generated": bool(meta.get("generated")),
        "shrunk": bool(meta.get("shrunk")),
        "python_error": python_error(expected, actual, lang),
    }
    if actual and "later" in actual and actual.get("kind") == "return":
        entry["actual_later"] = show(actual["later"], more=text("more_items", lang), pasteable=True)
    known = known_mistake(key, case_id, actual, outcomes)
    if known is not None:
        entry["mistake"], entry["feedback"] = known["name"], pick(known["feedback"], lang)
        entry["hint"] = None  # the author's words for exactly this mistake say it better than a hint about the case
        # the same text as parts to show: code, emphasis, links (werkbank.markdown.inline_parts)
        parts = known.get("parts") or {}
        entry["feedback_parts"] = parts.get(lang) or parts.get(FALLBACK_LANGUAGE) or [{"text": entry["feedback"]}]
    return entry


def known_mistake(key: dict, case_id: str, actual: dict | None, outcomes: dict | None = None) -> dict | None:
    """The declared mistake (with feedback) that fails ``case_id``, the learner's first failing case, exactly as the
    learner did: the same exception class, or the same value (and every way it misbehaves: a shared, changed or
    mutating result). With ``outcomes`` (the learner's run, by case id), the learner must also have done what the
    mistake did on every other case of its fingerprint the run holds: another bug that happens to give the mistake's
    value on one case does not get the mistake's words. A mistake whose own first failing case is ``case_id`` goes
    before one that fails there only later, so two mistakes that give the same value on a case are told apart by where
    each fails first; among equals the first declared wins (``werkbank check`` reports such a pair)."""
    if not actual:
        return None
    later = None
    for mistake in key.get("mistakes") or ():
        theirs = mistake["fails"].get(case_id)
        if theirs is None or not _same_failure(theirs, actual):
            continue
        if outcomes is not None and not all(
            _same_failure(failed, outcomes[other])
            for other, failed in mistake["fails"].items()
            if other != case_id and other in outcomes
        ):
            continue
        if next(iter(mistake["fails"])) == case_id:
            return mistake
        later = later or mistake
    return later


def _same_failure(theirs: dict, actual: dict | None) -> bool:
    """Whether the learner's outcome ``actual`` is what a declared mistake did on that case (``theirs``, from its
    fingerprint): the same exception class, or the same value with every flag the mistake's result had."""
    if not actual or theirs["kind"] != actual.get("kind"):
        return False
    if theirs["kind"] == "raise":
        return theirs["exc"] == actual.get("exc")
    return (
        theirs["kind"] == "return"
        and compare(theirs["value"], actual["value"]) is None
        and all(actual.get(flag) for flag in OUTCOME_FLAGS if theirs.get(flag))
    )


def adopt_shrunk(verdict: dict, prepared: dict, case_id: str, run: dict, lang: str = FALLBACK_LANGUAGE) -> dict:
    """``verdict`` with its failure shown on the smaller input ``case_id`` of a shrink round (the round's prepared
    candidates and ``run``). The failing case keeps its id and label; what was called, expected and got come from
    the smaller input, which is marked ``shrunk``."""
    lang = lang if lang in LANGUAGES else FALLBACK_LANGUAGE
    key = prepared["key"]
    actual = next((o for o in run.get("outcomes", []) if o.get("id") == case_id), None)
    problem = check_case(key["expected"][case_id], actual, key["cases"][case_id], lang)
    if problem is None or not verdict.get("failure"):
        return verdict
    smaller = failure(prepared, case_id, actual, problem, lang)
    original = verdict["failure"]
    merged = {**smaller, "case": original["case"], "case_label": original["case_label"], "shrunk": True}
    if not key["cases"][case_id].get("generated"):
        merged["explanation"] = text("shrunk_random", lang)
    out = {**verdict, "failure": merged}
    if actual and actual.get("kind") == "raise" and actual.get("traceback"):
        out["traceback"], out["error_line"] = actual["traceback"], actual.get("error_line")
    error = merged.get("python_error")
    if error:
        out["message"] = text(
            "fail_python", lang, passed=verdict["passed"], total=verdict["total"], exc=error["exc"], line=error["line"]
        )
    return out


def adopt_alone(verdict: dict, prepared: dict, run: dict, lang: str = FALLBACK_LANGUAGE) -> dict:
    """``verdict`` told as a failure across calls when its failing case, called again on its own first in a fresh
    start (``prepared``: a shrink round made with ``alone``, and its ``run``), passed: the case's own explanation
    and hint name the kind of input it is, which is then not what went wrong. Unchanged otherwise."""
    from .shrink import alone_id

    failure_entry = verdict.get("failure")
    if not failure_entry:
        return verdict
    case_id = alone_id(failure_entry["case"])
    key = prepared["key"]
    if case_id not in key["expected"]:
        return verdict
    actual = next((o for o in run.get("outcomes", []) if isinstance(o, dict) and o.get("id") == case_id), None)
    if actual is None or check_case(key["expected"][case_id], actual, key["cases"][case_id], lang) is not None:
        return verdict
    lang = lang if lang in LANGUAGES else FALLBACK_LANGUAGE
    merged = {
        **failure_entry,
        "kind": "repeated_calls",
        "alone": True,
        "reason": (text("reason_alone_passes", lang) + " " + failure_entry.get("reason", "")).strip(),
        "hint": text("hint_alone_passes", lang),
    }
    told = {**verdict, "failure": merged}
    # the counts by kind and the list of failing cases say the same of this case
    was = failure_entry.get("kind")
    counts = {part["kind"]: part["count"] for part in verdict.get("summary") or ()}
    if was != "repeated_calls" and counts.get(was):
        counts[was] -= 1
        counts["repeated_calls"] = counts.get("repeated_calls", 0) + 1
        told["summary"], told["summary_text"] = summary(counts, lang)
    if verdict.get("failing"):
        told["failing"] = [
            {**item, "kind": "repeated_calls"} if item.get("case") == failure_entry["case"] else item
            for item in verdict["failing"]
        ]
    return told


def plot_data(prepared: dict, run: dict) -> dict | None:
    """The checkpoint's plot (``{"kind", "expected", "actual"}``, ``actual`` None when the learner's call did not
    return), or ``None`` when the checkpoint has no plot. Works for a Check and for a Run that called the plot case."""
    key = prepared.get("key", prepared)
    plot = key.get("plot")
    if not plot:
        return None
    actual = next((o for o in run.get("outcomes", []) if o.get("id") == plot["case"]), None)
    expected = key["expected"][plot["case"]].get("value")
    return {
        "kind": plot["kind"],
        "expected": plain(expected) if expected is not None else None,
        "actual": plain(actual["value"]) if actual and actual.get("kind") == "return" else None,
    }


def author_error(detail: str, lang: str = FALLBACK_LANGUAGE, **extra) -> dict:
    """The verdict for a broken grader or reference solution."""
    lang = lang if lang in LANGUAGES else FALLBACK_LANGUAGE
    verdict = {
        "status": "author_error",
        "passed": 0,
        "total": 0,
        "lang": lang,
        "failure": None,
        "failed_cases": [],
        "stdout": "",
        "stderr": "",
        "traceback": None,
        "error_line": None,
        "message": text("author_error", lang, detail=detail),
        "detail": detail,
        "notes": [],
    }
    verdict.update(extra)
    return verdict


__all__ = [
    "judge",
    "author_error",
    "adopt_alone",
    "adopt_shrunk",
    "check_case",
    "case_texts",
    "explain_error",
    "failure",
    "failing_list",
    "summary",
    "FAILURE_KINDS",
    "plot_data",
    "python_error",
]
