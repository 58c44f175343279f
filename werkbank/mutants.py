"""Mutation testing of the graders: ``werkbank check --mutants``.

Each checkpoint's reference solution is mutated one small change at a time (a mutant), and every mutant is graded
against the checkpoint's full generated case set. A grader is only as strong as the mutants it kills: a surviving
mutant is a wrong solution the grader lets pass, unless it is *equivalent* (it behaves like the reference on every
input the task allows). Authors mark equivalent mutants, with a reason, in the checkpoint's ``mutants.toml``::

    [[equivalent]]
    mutant = "compare in summary: if count == 0: -> if count <= 0:"
    reason = "count is a length, never negative"

A mutant's id names the operator, the function it is in (its qualified name, ``Report.from_rows`` for a method,
``<module>`` outside any function), the statement before and after; when one function holds the same statement twice,
the later ones end in `` (#2)``, `` (#3)``. So a mark stays on its mutant when code around it moves, and never covers
a mutant elsewhere. A mark may leave the place out (``compare: if count == 0: -> if count <= 0:``), but one that
then matches more than one mutant is a problem, as is a mark that matches none.

A checkpoint that ``needs`` earlier ones starts with their code (the reference is self-contained): a function or class
that is the same, statement for statement, in a needed checkpoint's reference is mutated and graded there, and not
again here (its input checks are usually unreachable through the new functions, which validate first).

The mutation operators (a small :mod:`ast` mutator; it knows this project's reference solutions better than a
general tool, and needs no extra dependency):

- ``compare``: a comparison operator swapped (``<``/``<=``, ``>``/``>=``, ``==``/``!=``, ``in``/``not in``, ...);
- ``constant``: a number constant moved by one (boundaries ``200`` -> ``199``/``201``, ``1.0`` -> ``0.0``/``2.0``);
- ``raise``: a ``raise`` statement deleted;
- ``branch``: an ``if`` statement that raises or returns early deleted (a validation branch);
- ``keyword``: a keyword argument dropped (``key=``, ``side=``, ``dtype=``, ``minlength=``, ...);
- ``method``: an argument-less method call dropped (``x.strip()`` -> ``x``);
- ``wrapper``: a conversion dropped (``float(x)``, ``int(x)``, ``sorted(x)``, ``abs(x)`` ... -> ``x``);
- ``boolean``: ``and``/``or`` swapped, ``not`` dropped, ``True``/``False`` swapped;
- ``arith``: an arithmetic operator swapped (``+``/``-``, ``*``/``/``, ``//``/``/``).

Mutants are trusted code (made from the reference), so they run in this process, case by case, and stop at the
first failing case: a killed mutant costs a few calls.
"""

from __future__ import annotations

import ast
import copy
import json
import signal
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from graders.engine import runner
from graders.engine.settings import CASE_SEED
from graders.engine.judge import check_case
from graders.engine.settings import FALLBACK_LANGUAGE

_COMPARE_SWAPS = {
    ast.Lt: (ast.LtE, ast.GtE),
    ast.LtE: (ast.Lt, ast.Gt),
    ast.Gt: (ast.GtE, ast.LtE),
    ast.GtE: (ast.Gt, ast.Lt),
    ast.Eq: (ast.NotEq,),
    ast.NotEq: (ast.Eq,),
    ast.In: (ast.NotIn,),
    ast.NotIn: (ast.In,),
    ast.Is: (ast.IsNot,),
    ast.IsNot: (ast.Is,),
}
_ARITH_SWAPS = {
    ast.Add: (ast.Sub,),
    ast.Sub: (ast.Add,),
    ast.Mult: (ast.Div,),
    ast.Div: (ast.Mult, ast.FloorDiv),
    ast.FloorDiv: (ast.Div,),
    ast.Mod: (ast.FloorDiv,),
    ast.Pow: (ast.Mult,),
}
_WRAPPERS = {"float", "int", "bool", "sorted", "abs", "list", "tuple", "set", "len", "min", "max", "sum", "round"}
#: Seconds one mutant may take in all before it counts as killed (a mutant that loops forever is wrong).
MUTANT_TIME = 20.0


@dataclass(frozen=True)
class Mutant:
    """One mutated reference: its source, the operator, where it is, and a one-line description usable as a stable
    id (see the module docstring)."""

    operator: str
    line: int
    before: str
    after: str
    source: str
    where: str = "<module>"
    occurrence: int = 1

    @property
    def id(self) -> str:
        suffix = f" (#{self.occurrence})" if self.occurrence > 1 else ""
        return f"{self.operator} in {self.where}: {self.before} -> {self.after}{suffix}"

    @property
    def top(self) -> str:
        """The top-level function or class the mutant is in (``<module>`` outside any)."""
        return self.where.split(".")[0]

    def diff(self, filename: str = "solution.py") -> str:
        """A one-line diff: where, the line before and the line after."""
        return f"{filename}:{self.line}: - {self.before}  + {self.after}"


class _Sites(ast.NodeVisitor):
    """Every place a mutation operator applies, as (operator, node, field, replacement builder)."""

    def __init__(self):
        self.found = []

    def add(self, operator, node, make):
        self.found.append((operator, node, make))

    def visit_Compare(self, node):
        for index, op in enumerate(node.ops):
            for other in _COMPARE_SWAPS.get(type(op), ()):

                def make(n, i=index, o=other):
                    n.ops[i] = o()

                self.add("compare", node, make)
        self.generic_visit(node)

    def visit_Constant(self, node):
        value = node.value
        if isinstance(value, bool):

            def flip(n):
                n.value = not n.value

            self.add("boolean", node, flip)
        elif isinstance(value, (int, float)):
            for delta in (-1, 1):

                def shift(n, d=delta):
                    n.value = n.value + d

                self.add("constant", node, shift)

    def visit_Raise(self, node):
        self.add("raise", node, None)

    def visit_If(self, node):
        if any(isinstance(s, (ast.Raise, ast.Return)) for s in node.body):
            self.add("branch", node, None)
        self.generic_visit(node)

    def visit_Call(self, node):
        for index, _ in enumerate(node.keywords):

            def drop(n, i=index):
                del n.keywords[i]

            self.add("keyword", node, drop)
        if isinstance(node.func, ast.Attribute) and not node.args and not node.keywords:
            self.add("method", node, "unwrap-method")
        if isinstance(node.func, ast.Name) and node.func.id in _WRAPPERS and len(node.args) == 1 and not node.keywords:
            self.add("wrapper", node, "unwrap-call")
        self.generic_visit(node)

    def visit_BoolOp(self, node):
        def swap(n):
            n.op = ast.Or() if isinstance(n.op, ast.And) else ast.And()

        self.add("boolean", node, swap)
        self.generic_visit(node)

    def visit_UnaryOp(self, node):
        if isinstance(node.op, ast.Not):
            self.add("boolean", node, "unwrap-not")
        self.generic_visit(node)

    def visit_BinOp(self, node):
        for other in _ARITH_SWAPS.get(type(node.op), ()):

            def make(n, o=other):
                n.op = o()

            self.add("arith", node, make)
        self.generic_visit(node)

    def visit_AugAssign(self, node):
        for other in _ARITH_SWAPS.get(type(node.op), ()):

            def make(n, o=other):
                n.op = o()

            self.add("arith", node, make)
        self.generic_visit(node)


class _Apply(ast.NodeTransformer):
    """Apply one mutation to the node at a given position of a fresh copy of the tree."""

    def __init__(self, target, make):
        self.target, self.make, self.done = target, make, False

    def _match(self, node):
        return (
            type(node) is type(self.target)
            and getattr(node, "lineno", None) == self.target.lineno
            and getattr(node, "col_offset", None) == self.target.col_offset
            and getattr(node, "end_col_offset", None) == self.target.end_col_offset
        )

    def visit(self, node):
        if not self.done and self._match(node):
            self.done = True
            if self.make is None:  # delete a statement
                return ast.Pass()
            if self.make == "unwrap-method":
                return node.func.value
            if self.make == "unwrap-call":
                return node.args[0]
            if self.make == "unwrap-not":
                return node.operand
            self.make(node)
            return node
        return self.generic_visit(node)


def _enclosing(tree, node):
    """The innermost statement of ``tree`` that contains ``node`` (by source position)."""
    best = None
    start = (node.lineno, node.col_offset)
    end = (node.end_lineno, node.end_col_offset)
    for stmt in ast.walk(tree):
        if not isinstance(stmt, ast.stmt):
            continue
        if (stmt.lineno, stmt.col_offset) <= start and end <= (stmt.end_lineno, stmt.end_col_offset):
            if best is None or (stmt.lineno, stmt.col_offset) >= (best.lineno, best.col_offset):
                best = stmt
    return best


def _one_line(stmt) -> str:
    """A statement unparsed on one line, without its body (``if x:`` rather than the whole block)."""
    shown = copy.copy(stmt)
    for name in ("body", "orelse", "finalbody", "handlers"):
        if isinstance(getattr(shown, name, None), list):
            setattr(shown, name, [])
    text = ast.unparse(shown).splitlines()
    return " ".join(part.strip() for part in text) if text else ""


def _at(tree, lineno, col):
    for stmt in ast.walk(tree):
        if isinstance(stmt, ast.stmt) and getattr(stmt, "lineno", None) == lineno and stmt.col_offset == col:
            return stmt
    return None


def scope_names(tree) -> dict:
    """For every node of ``tree``, the qualified name of the function or class it is in (``<module>`` outside)."""
    out = {}

    def walk(node, scope):
        for child in ast.iter_child_nodes(node):
            out[child] = scope
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                walk(child, child.name if scope == "<module>" else f"{scope}.{child.name}")
            else:
                walk(child, scope)

    walk(tree, "<module>")
    return out


def mutants(source: str) -> list[Mutant]:
    """Every single-change mutant of ``source`` that still compiles, each once, with ids unique within the file."""
    tree = ast.parse(source)
    scopes = scope_names(tree)
    sites = _Sites()
    sites.visit(tree)
    baseline = ast.unparse(tree)
    found, seen, counts = [], set(), {}
    for operator, node, make in sites.found:
        fresh = ast.parse(source)
        applier = _Apply(node, make)
        mutated = applier.visit(fresh)
        if not applier.done:
            continue
        statement = node if isinstance(node, ast.stmt) else _enclosing(tree, node)
        changed = _at(mutated, statement.lineno, statement.col_offset) if statement is not None else None
        ast.fix_missing_locations(mutated)
        try:
            text = ast.unparse(mutated)
            compile(text, "solution.py", "exec")
        except (SyntaxError, ValueError):
            continue
        if text == baseline or text in seen:
            continue
        seen.add(text)
        before = _one_line(statement) if statement is not None else ""
        after = "pass" if operator in ("raise", "branch") else _one_line(changed) if changed is not None else "?"
        where = scopes.get(node, "<module>")
        key = (operator, where, before, after)
        counts[key] = counts.get(key, 0) + 1
        found.append(Mutant(operator, node.lineno, before, after, text, where, counts[key]))
    return found


def definitions(source: str) -> dict[str, str]:
    """The top-level functions and classes of ``source``: name -> their code, positions left out (raises
    SyntaxError for source that does not parse)."""
    out = {}
    for node in ast.parse(source).body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            out[node.name] = ast.dump(node, include_attributes=False)
    return out


def carried_over(source: str, needed_sources) -> set[str]:
    """The top-level functions and classes of ``source`` that a needed checkpoint's reference holds unchanged."""
    mine = definitions(source)
    out = set()
    for other in needed_sources:
        theirs = definitions(other)
        out.update(name for name, code in mine.items() if theirs.get(name) == code)
    return out


@dataclass
class Result:
    """The mutation score of one checkpoint."""

    lesson: str
    checkpoint: str
    total: int = 0
    killed: int = 0
    equivalent: list = field(default_factory=list)  # (mutant, reason)
    survivors: list = field(default_factory=list)  # mutants
    stale: list = field(default_factory=list)  # equivalent marks that match no mutant, with a near id or ""
    ambiguous: list = field(default_factory=list)  # (mark, the ids of the mutants it matches)
    carried: int = 0  # mutants in code a needed checkpoint grades

    @property
    def score(self) -> float:
        relevant = self.total - len(self.equivalent)
        return 1.0 if relevant <= 0 else self.killed / relevant


class _Timeout(Exception):
    pass


def _alarm(signum, frame):
    raise _Timeout()


def killed(source: str, prepared: dict, *, seconds: float = MUTANT_TIME) -> bool:
    """True when ``source`` fails at least one case of ``prepared`` (the first failure stops the run), or runs
    longer than ``seconds``."""
    namespace: dict = {"__name__": "main"}
    key = prepared["key"]
    cases = {case["id"]: case for case in prepared["plan"]["cases"]}
    attrs = prepared["plan"]["attrs"]
    previous = signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    kept: list = []
    refills = runner.refill_state(cases.values())
    try:
        try:
            exec(compile(source, runner.FILENAME, "exec"), namespace)
        except Exception:
            return True
        with runner.WarningLog() as warning_log:
            for case_id in key["order"]:
                outcome = runner.call_case(namespace, cases[case_id], attrs, kept, refills, warning_log)
                outcome["id"] = case_id
                if check_case(key["expected"][case_id], outcome, key["cases"][case_id], FALLBACK_LANGUAGE) is not None:
                    return True
        # a result that reads differently after later calls, or is handed out again
        runner.recheck(kept, attrs, runner.handed_on(refills))
        return any("later" in outcome or outcome.get("shared") for outcome, *_ in kept)
    except _Timeout:
        return True
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def equivalent_marks(folder: Path) -> dict[str, str]:
    """The checkpoint's marked equivalent mutants: id -> reason (``mutants.toml``; none when it is missing)."""
    from werkbank.lessons import rel

    path = Path(folder) / "mutants.toml"
    if not path.is_file():
        return {}
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as error:
        raise ValueError(f"{rel(path)}: not valid TOML: {error}") from None
    marks = {}
    unknown = sorted(set(data) - {"equivalent"})
    if unknown:
        raise ValueError(f"{rel(path)}: unknown table {unknown[0]!r}: the file holds [[equivalent]] entries only")
    for entry in data.get("equivalent", []):
        if (
            not isinstance(entry, dict)
            or not entry.get("mutant")
            or not str(entry.get("reason", "")).strip()
            or set(entry) - {"mutant", "reason"}
        ):
            raise ValueError(
                f"{rel(path)}: every [[equivalent]] holds 'mutant' (the id check prints) and a "
                "non-empty 'reason', nothing else"
            )
        marks[entry["mutant"]] = entry["reason"]
    return marks


def _matches(mark: str, mutant: Mutant) -> bool:
    """A mark names a mutant by its id, or in the short form without the place (``compare: a -> b``), which
    matches the mutant of that change wherever it is, so possibly several (a problem :func:`run_mutants` names)."""
    return mark == mutant.id or mark == f"{mutant.operator}: {mutant.before} -> {mutant.after}"


def score_checkpoint(lesson_id: str, checkpoint, *, seed: int = CASE_SEED, lesson=None) -> Result:
    """Grade every mutant of the checkpoint's reference against its full case set. ``lesson``: the checkpoint's
    lesson, to find the checkpoints it ``needs`` (their code is graded there, not again here)."""
    import difflib

    from werkbank.grading import prepare_checkpoint

    prepared = prepare_checkpoint(checkpoint, seed=seed)
    marks = equivalent_marks(checkpoint.folder)
    result = Result(lesson_id, checkpoint.id)
    source = checkpoint.solution()
    needed = [lesson.checkpoint(cid).solution() for cid in checkpoint.needs] if lesson is not None else []
    carried = carried_over(source, needed)
    found = mutants(source)
    matched: dict[str, list[Mutant]] = {mark: [m for m in found if _matches(mark, m)] for mark in marks}
    for mark, hits in matched.items():
        if len(hits) > 1:
            result.ambiguous.append((mark, [m.id for m in hits]))
        elif not hits:
            place = mark.split(":", 1)[0] + ":"  # "raise in mean:": a mutant of the same kind and place first
            same = [m.id for m in found if m.id.startswith(place)]
            near = difflib.get_close_matches(mark, same, n=1, cutoff=0.3) or difflib.get_close_matches(
                mark, [m.id for m in found], n=1, cutoff=0.6
            )
            result.stale.append((mark, near[0] if near else ""))
    reasons = {hits[0].id: marks[mark] for mark, hits in matched.items() if len(hits) == 1}
    for mutant in found:
        if mutant.top in carried:
            result.carried += 1
            continue
        result.total += 1
        if mutant.id in reasons:
            result.equivalent.append((mutant, reasons[mutant.id]))
        elif killed(mutant.source, prepared):
            result.killed += 1
        else:
            result.survivors.append(mutant)
    return result


def _toml(text: str) -> str:
    """``text`` as a TOML string, ready to paste into mutants.toml."""
    return json.dumps(text, ensure_ascii=False)


def run_mutants(lessons) -> tuple[list[str], list[str]]:
    """Mutation scores of every checkpoint of ``lessons``: ``(problems, report lines)``. A problem is a surviving
    non-equivalent mutant or a stale equivalence mark."""
    problems, report = [], []
    for lesson in lessons:
        for checkpoint in lesson.checkpoints:
            found, lines = checkpoint_problems(lesson, checkpoint)
            problems += found
            report += lines
    return problems, report


def checkpoint_problems(lesson, checkpoint) -> tuple[list[str], list[str]]:
    """:func:`run_mutants` for one checkpoint of ``lesson``: ``(problems, report lines)``."""
    from werkbank.lessons import rel

    problems, report = [], []
    try:
        result = score_checkpoint(lesson.id, checkpoint, lesson=lesson)
    except ValueError as error:  # a malformed mutants.toml: named, one line
        return [str(error)], []
    relevant = result.total - len(result.equivalent)
    carried = (
        f", {result.carried} in code carried over from checkpoint {', '.join(checkpoint.needs)} (graded there)"
        if result.carried
        else ""
    )
    report.append(
        f"{lesson.id} {checkpoint.id}: {result.killed}/{relevant} mutants killed "
        f"({result.score:.0%}), {len(result.equivalent)} marked equivalent{carried}"
    )
    solution = rel(checkpoint.solution_path)
    marks = rel(checkpoint.folder / "mutants.toml")
    for mutant in result.survivors:
        report.append(f"  {lesson.id} {checkpoint.id} survivor {mutant.diff()}")
        problems.append(
            f"{solution}:{mutant.line}: a mutant survives every case: {mutant.before}  ->  "
            f"{mutant.after}; add a case that tells them apart, or mark it equivalent in "
            f"{marks} with mutant = {_toml(mutant.id)}"
        )
    for mark, near in result.stale:
        hint = f" (did you mean {_toml(near)}?)" if near else ""
        problems.append(
            f"{marks}: the mark {_toml(mark)} matches no mutant{hint}; remove it, or write the id "
            "check prints for the survivor"
        )
    for mark, ids in result.ambiguous:
        problems.append(
            f"{marks}: the mark {_toml(mark)} matches {len(ids)} mutants; name one: " + "; ".join(_toml(i) for i in ids)
        )
    return problems, report
