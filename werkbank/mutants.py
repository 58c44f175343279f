"""Mutation testing of the graders: ``werkbank check --mutants``.

Each checkpoint's reference solution is mutated one small change at a time (a mutant), and every mutant is graded
against the checkpoint's full generated case set. A grader is only as strong as the mutants it kills: a surviving
mutant is a wrong solution the grader lets pass, unless it is *equivalent* (it behaves like the reference on every
input the task allows). Authors mark equivalent mutants, with a reason, in the checkpoint's ``mutants.toml``::

    [[equivalent]]
    mutant = "compare: if count == 0: -> if count <= 0:"
    reason = "count is a length, never negative"

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
import signal
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from graders.engine import runner
from graders.engine.settings import CASE_SEED
from graders.engine.judge import check_case
from graders.engine.settings import FALLBACK_LANGUAGE

_COMPARE_SWAPS = {
    ast.Lt: (ast.LtE, ast.GtE), ast.LtE: (ast.Lt, ast.Gt), ast.Gt: (ast.GtE, ast.LtE), ast.GtE: (ast.Gt, ast.Lt),
    ast.Eq: (ast.NotEq,), ast.NotEq: (ast.Eq,), ast.In: (ast.NotIn,), ast.NotIn: (ast.In,), ast.Is: (ast.IsNot,),
    ast.IsNot: (ast.Is,),
}
_ARITH_SWAPS = {ast.Add: (ast.Sub,), ast.Sub: (ast.Add,), ast.Mult: (ast.Div,), ast.Div: (ast.Mult, ast.FloorDiv),
                ast.FloorDiv: (ast.Div,), ast.Mod: (ast.FloorDiv,), ast.Pow: (ast.Mult,)}
_WRAPPERS = {"float", "int", "bool", "sorted", "abs", "list", "tuple", "set", "len", "min", "max", "sum", "round"}
#: Seconds one mutant may take in all before it counts as killed (a mutant that loops forever is wrong).
MUTANT_TIME = 20.0


@dataclass(frozen=True)
class Mutant:
    """One mutated reference: its source, the operator, and a one-line description usable as a stable id."""

    operator: str
    line: int
    before: str
    after: str
    source: str

    @property
    def id(self) -> str:
        return f"{self.operator}: {self.before} -> {self.after}"

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
        return (type(node) is type(self.target) and getattr(node, "lineno", None) == self.target.lineno
                and getattr(node, "col_offset", None) == self.target.col_offset
                and getattr(node, "end_col_offset", None) == self.target.end_col_offset)

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


def mutants(source: str) -> list[Mutant]:
    """Every single-change mutant of ``source`` that still compiles, each once."""
    tree = ast.parse(source)
    sites = _Sites()
    sites.visit(tree)
    baseline = ast.unparse(tree)
    found, seen = [], set()
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
        found.append(Mutant(operator, node.lineno, before, after, text))
    return found


@dataclass
class Result:
    """The mutation score of one checkpoint."""

    lesson: str
    checkpoint: str
    total: int = 0
    killed: int = 0
    equivalent: list = field(default_factory=list)   # (mutant, reason)
    survivors: list = field(default_factory=list)    # mutants
    stale: list = field(default_factory=list)        # equivalent marks that match no mutant

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
    refills = runner.Refills(cases.values())
    try:
        try:
            exec(compile(source, runner.FILENAME, "exec"), namespace)
        except Exception:
            return True
        for case_id in key["order"]:
            outcome = runner.call_case(namespace, cases[case_id], attrs, kept, refills)
            outcome["id"] = case_id
            if check_case(key["expected"][case_id], outcome, key["cases"][case_id], FALLBACK_LANGUAGE) is not None:
                return True
        # a result that reads differently after later calls, or is handed out again
        runner.recheck(kept, attrs, refills.handed_on())
        return any("later" in outcome or outcome.get("shared") for outcome, *_ in kept)
    except _Timeout:
        return True
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def equivalent_marks(folder: Path) -> dict[str, str]:
    """The checkpoint's marked equivalent mutants: id -> reason (``mutants.toml``; none when it is missing)."""
    path = Path(folder) / "mutants.toml"
    if not path.is_file():
        return {}
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    marks = {}
    for entry in data.get("equivalent", []):
        if not isinstance(entry, dict) or not entry.get("mutant") or not str(entry.get("reason", "")).strip():
            raise ValueError(f"{path}: every [[equivalent]] needs 'mutant' and a non-empty 'reason'")
        marks[entry["mutant"]] = entry["reason"]
    return marks


def score_checkpoint(lesson_id: str, checkpoint, *, seed: int = CASE_SEED) -> Result:
    """Grade every mutant of the checkpoint's reference against its full case set."""
    from werkbank.grading import prepare_checkpoint

    prepared = prepare_checkpoint(checkpoint, seed=seed)
    marks = equivalent_marks(checkpoint.folder)
    result = Result(lesson_id, checkpoint.id)
    seen_ids = set()
    for mutant in mutants(checkpoint.solution()):
        result.total += 1
        seen_ids.add(mutant.id)
        if mutant.id in marks:
            result.equivalent.append((mutant, marks[mutant.id]))
        elif killed(mutant.source, prepared):
            result.killed += 1
        else:
            result.survivors.append(mutant)
    result.stale = sorted(set(marks) - seen_ids)
    return result


def run_mutants(lessons) -> tuple[list[str], list[str]]:
    """Mutation scores of every checkpoint of ``lessons``: ``(problems, report lines)``. A problem is a surviving
    non-equivalent mutant or a stale equivalence mark."""
    problems, report = [], []
    for lesson in lessons:
        for checkpoint in lesson.checkpoints:
            result = score_checkpoint(lesson.id, checkpoint)
            relevant = result.total - len(result.equivalent)
            report.append(f"{lesson.id} {checkpoint.id}: {result.killed}/{relevant} mutants killed "
                          f"({result.score:.0%}), {len(result.equivalent)} marked equivalent")
            for mutant in result.survivors:
                line = f"{lesson.id} {checkpoint.id} survivor {mutant.diff()}"
                report.append("  " + line)
                problems.append(f"{line}   (mutant id: {mutant.id!r})")
            for stale in result.stale:
                problems.append(f"{lesson.id} {checkpoint.id}: mutants.toml marks {stale!r}, which no mutant matches")
    return problems, report
