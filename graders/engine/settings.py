"""The values the engine, the build and the site share. Each is defined here once.

The engine reads them directly; ``werkbank`` imports them from here; the JavaScript bundle receives them at build
time (:func:`for_web`), so the page, the worker and the engine never disagree about a limit or a language.
"""

from __future__ import annotations

#: Languages of the interface, of the engine's messages and of lesson texts. The first is the default home page.
LANGUAGES = ("nl", "en", "ar")
#: Languages written right to left.
RTL_LANGUAGES = ("ar",)
#: The language every lookup falls back to when a text is missing in the asked one.
FALLBACK_LANGUAGE = "en"

#: Characters of a run's stdout + stderr kept; the rest is dropped with a notice (engine, worker and page alike).
OUTPUT_LIMIT = 200_000
#: Seconds a checkpoint's learner run may take, unless its grader sets ``TIME_LIMIT``.
DEFAULT_TIME_LIMIT = 5.0
#: Seconds a free Run may take before it is stopped.
RUN_TIME_LIMIT = 30.0
#: How many calls deep learner code may go (its module, each case's call, Run's example), in every runtime alike: a
#: browser gives a worker a small stack, and recursion through built-ins (max(map(f, ...)), sorted(key=f)) overflows
#: Chromium's at about 350 levels and crashes Python there, where CPython raises RecursionError (or passes). Below that,
#: every runtime raises RecursionError at the same depth; sys.setrecursionlimit cannot raise it past this.
RECURSION_DEPTH = 250
#: All shrink rounds of one verdict share the checkpoint's time limit (the CLI and the page); a round with less than
#: this many seconds of it left is not started.
LEAST_ROUND_SECONDS = 0.25
#: The seed of every checkpoint's random and generated cases: a Check in the browser, ``werkbank grade`` and
#: ``werkbank check`` run the same cases (``werkbank grade --seed`` lets an author try others).
CASE_SEED = 0
#: The marks a run puts on a returned outcome beside its value (:mod:`.runner`): a value that changed later
#: (``later``), one that shares objects with an earlier result (``shared``), one that is an argument itself
#: (``aliased``), arguments changed by the call (``mutated``) or by a later one (``mutated_later``). A declared
#: mistake's fingerprint keeps them and the judge matches them.
OUTCOME_FLAGS = ("later", "shared", "aliased", "mutated", "mutated_later")
#: Most cases one checkpoint may have, generated ones included.
MAX_CASES = 5000
#: Characters kept of a name learner code chooses (a class, exception or warning name, an attribute, a dtype's
#: text): the engine shortens longer ones, the judge refuses them in a run result.
NAME_LIMIT = 200
#: Characters kept of an exit code given as text (``sys.exit("message")``): the runner cuts it, the judge refuses more.
EXIT_TEXT_LIMIT = 2000
#: Characters kept of an exception's message: the runner cuts it, the judge refuses more.
MESSAGE_LIMIT = 2000
#: Characters kept of a traceback (its start and its end): the runner cuts it, the judge refuses more.
TRACEBACK_LIMIT = 20_000
#: Bytes of a run result (its JSON text) the judge reads at most; a longer one is not read at all, and the page does not
#: hand it on. A correct solution's run of every case of a checkpoint is under 1 MB.
RUN_RESULT_LIMIT = 32 * 2**20
#: How deeply a run result's JSON may nest (a well-formed one: under 150, see values._MAX_DEPTH); deeper is not read.
RUN_RESULT_DEPTH = 200


def for_web() -> dict:
    """The settings the JavaScript bundle needs, as JSON-able data."""
    return {
        "languages": list(LANGUAGES),
        "rtlLanguages": list(RTL_LANGUAGES),
        "fallbackLanguage": FALLBACK_LANGUAGE,
        "outputLimit": OUTPUT_LIMIT,
        "defaultTimeLimit": DEFAULT_TIME_LIMIT,
        "runTimeLimit": RUN_TIME_LIMIT,
        "leastRoundSeconds": LEAST_ROUND_SECONDS,
        "runResultLimit": RUN_RESULT_LIMIT,
        "messageLimit": MESSAGE_LIMIT,
        "tracebackLimit": TRACEBACK_LIMIT,
    }
