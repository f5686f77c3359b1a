"""Dual-mode logic: the same rule code computes on Python values and builds z3 terms.

Rule functions never use Python ``if``/``and``/``or``/``min``/``max`` on their
inputs, because those fail (or silently misbehave) on z3 values. They use the
operations here instead, so z3 proves facts about the very function the
calculator and the site call.

Integer division differs between z3 and Python: write ``2 * s <= t``, never
``s <= t / 2``.

z3 is imported when first used (it costs ~0.1 s and the calculator never needs it):
``is_symbolic`` is false without importing it, since no value can be a z3 term before z3 is loaded.
"""

from __future__ import annotations

import enum
import importlib
import itertools
import sys
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Mapping


class DeferredModule:
    """A module imported when one of its attributes is first read (z3, numpy and shapely cost ~0.1 s each and
    most commands never touch them); the import then takes this stand-in's place under ``alias`` in the
    namespace that holds it, so later uses cost nothing. ``submodules`` are imported with it."""

    def __init__(self, namespace: dict, alias: str, name: str, *submodules: str) -> None:
        self._namespace, self._alias, self._name, self._submodules = namespace, alias, name, submodules

    def __getattr__(self, attribute: str) -> Any:
        module = importlib.import_module(self._name)
        for submodule in self._submodules:
            importlib.import_module(submodule)
        self._namespace[self._alias] = module
        return getattr(module, attribute)


z3: Any = DeferredModule(globals(), "z3", "z3")

__all__ = [
    "If", "And", "Or", "Not", "Implies", "Min", "Max", "Clamp", "is_symbolic",
    "Var", "Row", "DecisionTable", "NoRowApplies", "TableReport", "check_table",
    "enumerate_agreement", "evaluate_symbolically",
]


def is_symbolic(*values: Any) -> bool:
    """True if any value is a z3 expression (so the result must be one too); never imports z3."""
    loaded = sys.modules.get("z3")
    return loaded is not None and any(isinstance(v, loaded.ExprRef) for v in values)


def _z3_value(value: Any) -> Any:
    """Turn an enum member into its int so z3 can mix it with integer terms."""
    if isinstance(value, enum.Enum):
        return value.value
    return value


def If(condition: Any, then: Any, otherwise: Any) -> Any:
    """``then`` if ``condition`` else ``otherwise``, in either mode."""
    if is_symbolic(condition, then, otherwise):
        return z3.If(condition, _z3_value(then), _z3_value(otherwise))
    return then if condition else otherwise


def And(*conditions: Any) -> Any:
    """Logical and of all conditions (True for none)."""
    if is_symbolic(*conditions):
        return z3.And(*conditions)
    return all(conditions)


def Or(*conditions: Any) -> Any:
    """Logical or of all conditions (False for none)."""
    if is_symbolic(*conditions):
        return z3.Or(*conditions)
    return any(conditions)


def Not(condition: Any) -> Any:
    if is_symbolic(condition):
        return z3.Not(condition)
    return not condition


def Implies(premise: Any, conclusion: Any) -> Any:
    return Or(Not(premise), conclusion)


def Min(first: Any, *rest: Any) -> Any:
    """Smallest value; folds into nested ``If`` on z3 terms."""
    result = first
    for value in rest:
        result = If(value < result, value, result)
    return result


def Max(first: Any, *rest: Any) -> Any:
    """Largest value; folds into nested ``If`` on z3 terms."""
    result = first
    for value in rest:
        result = If(value > result, value, result)
    return result


def Clamp(value: Any, low: Any, high: Any) -> Any:
    """``value`` limited to ``low..high`` (used by modifier caps)."""
    return Min(Max(value, low), high)


# --------------------------------------------------------------------------
# Decision tables
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class Var:
    """One input of a decision table and the domain the checks sweep.

    ``low``/``high`` bound an integer input; ``kind="bool"`` makes a flag.
    """

    name: str
    low: int = 0
    high: int = 1
    kind: str = "int"

    def symbol(self) -> z3.ExprRef:
        return z3.Bool(self.name) if self.kind == "bool" else z3.Int(self.name)

    def domain(self, symbol: z3.ExprRef) -> Any:
        if self.kind == "bool":
            return z3.BoolVal(True)
        return z3.And(symbol >= self.low, symbol <= self.high)

    def values(self) -> Iterable[Any]:
        if self.kind == "bool":
            return (False, True)
        return range(self.low, self.high + 1)


@dataclass(frozen=True)
class Row:
    """A labelled row: ``when(**inputs)`` selects it, ``then`` is its answer.

    ``then`` is a constant or a callable of the inputs. ``overrides`` names the
    later rows this row is a deliberate exception to (the book puts it first
    so it wins where both apply). ``otherwise`` marks the catch-all last row.
    """

    label: str
    when: Callable[..., Any]
    then: Any
    overrides: tuple[str, ...] = ()
    otherwise: bool = False

    def answer(self, inputs: Mapping[str, Any]) -> Any:
        return self.then(**inputs) if callable(self.then) else self.then


class NoRowApplies(ValueError):
    """Raised when concrete inputs fall into a gap of a decision table."""


@dataclass(frozen=True)
class DecisionTable:
    """A first-match table: the rows in the book's order, with their labels.

    ``refs`` are the sections whose text the rows transcribe. Calling it with
    Python values returns the first matching row's answer;
    calling it with z3 values returns a nested ``If`` term. ``inputs`` declares
    each input's domain for the table checks. ``gap`` is the symbolic answer
    where no row applies (only reachable if the table has a gap).
    """

    name: str
    refs: tuple[str, ...]
    inputs: tuple[Var, ...]
    rows: tuple[Row, ...]
    assume: Callable[..., Any] | None = None
    gap: int = -1
    notes: Mapping[str, str] = field(default_factory=dict)

    def __call__(self, **inputs: Any) -> Any:
        missing = {v.name for v in self.inputs} - set(inputs)
        if missing:
            raise TypeError(f"{self.name}: missing inputs {sorted(missing)}")
        if is_symbolic(*inputs.values()):
            result: Any = self.gap
            for row in reversed(self.rows):
                result = z3.If(row.when(**inputs), _z3_value(row.answer(inputs)), result)
            return result
        return self.match(**inputs).answer(inputs)

    def match(self, **inputs: Any) -> Row:
        """The first row whose condition holds for concrete inputs."""
        for row in self.rows:
            if row.when(**inputs):
                return row
        raise NoRowApplies(f"{self.name}: no row applies to {inputs}")

    def labels(self) -> list[str]:
        return [row.label for row in self.rows]

    def symbols(self) -> dict[str, z3.ExprRef]:
        return {v.name: v.symbol() for v in self.inputs}

    def domain(self, symbols: Mapping[str, z3.ExprRef]) -> Any:
        parts = [v.domain(symbols[v.name]) for v in self.inputs]
        if self.assume is not None:
            parts.append(self.assume(**symbols))
        return z3.And(*parts)

    def concrete_domain(self) -> Iterable[dict[str, Any]]:
        """Every input combination in the declared domain (for enumeration)."""
        names = [v.name for v in self.inputs]
        for combo in itertools.product(*(v.values() for v in self.inputs)):
            inputs = dict(zip(names, combo))
            if self.assume is None or self.assume(**inputs):
                yield inputs


# --------------------------------------------------------------------------
# Table checks (z3)
# --------------------------------------------------------------------------


@dataclass
class TableReport:
    """What z3 found about one table; ``ok`` is False on any defect."""

    table: str
    gap: dict[str, Any] | None = None
    unreachable: list[str] = field(default_factory=list)
    undeclared_overlaps: list[dict[str, Any]] = field(default_factory=list)
    declared_overlaps: list[tuple[str, str]] = field(default_factory=list)
    stale_overrides: list[tuple[str, str]] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return (self.gap is None and not self.unreachable and not self.undeclared_overlaps
                and not self.stale_overrides)

    def problems(self) -> list[str]:
        out = []
        if self.gap is not None:
            out.append(f"gap: no row applies to {self.gap}")
        out += [f"unreachable row {label!r}" for label in self.unreachable]
        for o in self.undeclared_overlaps:
            out.append(
                f"rows {o['first']!r} and {o['later']!r} both apply with different answers "
                f"and {o['first']!r} does not declare that it overrides {o['later']!r}, e.g. {o['example']}"
            )
        out += [f"row {a!r} declares it overrides {b!r}, which is not a later row"
                for a, b in self.stale_overrides]
        return out


def _model_values(model: z3.ModelRef, symbols: Mapping[str, z3.ExprRef]) -> dict[str, Any]:
    values = {}
    for name, sym in symbols.items():
        val = model.eval(sym, model_completion=True)
        values[name] = z3.is_true(val) if z3.is_bool(sym) else val.as_long()
    return values


def _witness(domain: Any, *conditions: Any, symbols: Mapping[str, z3.ExprRef]) -> dict | None:
    solver = z3.Solver()
    solver.add(domain, *conditions)
    if solver.check() == z3.sat:
        return _model_values(solver.model(), symbols)
    return None


def check_table(table: DecisionTable) -> TableReport:
    """Check a table for gaps, unreachable rows and undeclared overrides.

    Two rows overlap harmfully when both apply to some input and give different
    answers; in a first-match table the earlier row wins, so that must be a
    deliberate exception (``overrides``) or a catch-all later row
    (``otherwise``). Swapping two such rows makes this check fail.
    """
    syms = table.symbols()
    domain = table.domain(syms)
    report = TableReport(table.name)
    conds = [row.when(**syms) for row in table.rows]
    answers = [_z3_value(row.answer(syms)) for row in table.rows]

    report.gap = _witness(domain, z3.Not(z3.Or(*conds)), symbols=syms)
    for i, row in enumerate(table.rows):
        earlier = z3.Or(*conds[:i]) if i else z3.BoolVal(False)
        if _witness(domain, conds[i], z3.Not(earlier), symbols=syms) is None:
            report.unreachable.append(row.label)

    labels = table.labels()
    for i, row in enumerate(table.rows):
        for name in row.overrides:
            if name not in labels[i + 1:]:
                report.stale_overrides.append((row.label, name))
        for j in range(i + 1, len(table.rows)):
            later = table.rows[j]
            example = _witness(domain, conds[i], conds[j], answers[i] != answers[j], symbols=syms)
            if example is None:
                continue
            if later.otherwise or later.label in row.overrides:
                report.declared_overlaps.append((row.label, later.label))
            else:
                report.undeclared_overlaps.append(
                    {"first": row.label, "later": later.label, "example": example})
    return report


def enumerate_agreement(table: DecisionTable) -> list[dict[str, Any]]:
    """Inputs where concrete and symbolic evaluation disagree (should be none).

    Exhaustive over the declared domain, so on small domains this is a proof
    that the two backends compute the same function.
    """
    syms = table.symbols()
    term = table(**syms)
    disagreements = []
    for inputs in table.concrete_domain():
        try:
            concrete = _z3_value(table(**inputs))
        except NoRowApplies:
            concrete = table.gap
        subst = [(syms[name], z3.BoolVal(val) if isinstance(val, bool) else z3.IntVal(val))
                 for name, val in inputs.items()]
        symbolic = z3.simplify(z3.substitute(term, *subst))
        symbolic_value = z3.is_true(symbolic) if z3.is_bool(symbolic) else symbolic.as_long()
        if symbolic_value != concrete:
            disagreements.append({"inputs": inputs, "concrete": concrete, "symbolic": symbolic_value})
    return disagreements


def evaluate_symbolically(function: Callable[..., Any], inputs: Mapping[str, Any]) -> Any:
    """Run a rule function on z3 constants built from concrete inputs, then simplify.

    Used to cross-check plain rule functions (not only tables) against their
    concrete evaluation.
    """
    symbols = {}
    for name, value in inputs.items():
        if isinstance(value, bool):
            symbols[name] = z3.BoolVal(value)
        elif isinstance(value, int):
            symbols[name] = z3.IntVal(value)
        else:
            symbols[name] = value
    result = function(**symbols)
    if isinstance(result, z3.ExprRef):
        result = z3.simplify(result)
        return z3.is_true(result) if z3.is_bool(result) else result.as_long()
    return result
