"""What the inputs of decision tables and proofs must cover: spec/<ruleset>/annotations/domains.yaml.

A table's z3 checks and a proof cover only the domains they run over: narrow ``Var("roll", 1, 6)`` to
``Var("roll", 1, 5)``, or a proof's preconditions, and every check still passes while covering less. A *pin*
says which whole numbers the rules allow for one input, and why (the rule, or a small scope of our choosing,
said as such). The checks compare the code with the pins:

- every integer ``Var`` of a decision table has a pin and spans exactly the pin (narrower covers less; wider
  checks the table on values the pin says do not occur), and the table's ``assume`` keeps every pinned value
  and no other;
- an enum ``Var`` spans its enum's first to last member, unless a pin names the members it spans and why;
- for each proof symbol whose name is pinned, the preconditions allow every pinned value (z3), unless the pin
  lists that proof as an exception: with its own ``covers`` and ``why``, or with a ``why`` alone where the
  name stands for something else there.

The file::

    tables:
      hit-roll:                                   # a DecisionTable's name
        roll: {covers: [1, 6], why: "01.05: one D6 shows 1 to 6"}
        insv: {covers: [[0, 0], [2, 6]], why: ...}  # several ranges, ascending
      charge-phase-steps:
        step: {covers: [START, END], why: ...}    # an enum Var: its first and last member
    proofs:
      roll:                                       # a proof symbol's name
        covers: [1, 6]
        why: ...
        except:
          hit-roll-monotone: {covers: [1, 5], why: ...}
          command-re-roll-one-dice-except-charge: {why: "roll names a kind of roll there"}
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rules import logic, spec
from rules40k import SPEC_ROOT, annotations
from rules40k.annotations import AnnotationError

FILE = "domains.yaml"
MOST_VALUES = 1000  # a pin is checked value by value, so an unbounded quantity is pinned by a window of it


@dataclass(frozen=True)
class Pin:
    """The values one input must cover (``ranges``, ascending and apart) and why; no ranges for an exemption."""

    ranges: tuple[tuple[int, int], ...]
    why: str
    names: dict[int, str] = field(default_factory=dict)  # an enum's member names, for messages

    def values(self) -> list[int]:
        return [v for low, high in self.ranges for v in range(low, high + 1)]

    def span(self) -> tuple[int, int]:
        return self.ranges[0][0], self.ranges[-1][1]

    def show(self, values: list[int] | None = None) -> str:
        """Values as runs, "1..6" or "0, 2..6" (enum members by name)."""
        return _runs(self.values() if values is None else values, self.names)


@dataclass(frozen=True)
class Pins:
    """One ruleset's pins: per table and input name, and per proof symbol name with its exceptions."""

    path: Path
    tables: dict[str, dict[str, Pin]] = field(default_factory=dict)
    proofs: dict[str, Pin] = field(default_factory=dict)
    exceptions: dict[str, dict[str, Pin]] = field(default_factory=dict)  # symbol name -> proof id -> pin

    def for_proof(self, proof_id: str, name: str) -> Pin | None:
        """The pin a proof's symbol must cover: its exception if it has one, else the name's pin."""
        return self.exceptions.get(name, {}).get(proof_id) or self.proofs.get(name)


def _runs(values: list[int], names: dict[int, str] | None = None) -> str:
    names = names or {}
    runs: list[list[int]] = []
    for value in sorted(values):
        if runs and value == runs[-1][1] + 1:
            runs[-1][1] = value
        else:
            runs.append([value, value])
    label = lambda v: names.get(v, str(v))  # noqa: E731
    return ", ".join(label(a) if a == b else f"{label(a)}..{label(b)}" for a, b in runs)


# --------------------------------------------------------------------------
# The loader
# --------------------------------------------------------------------------


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


class _Reader:
    """Reads one domains.yaml, raising one sentence with the file and line for the first problem."""

    def __init__(self, path: Path):
        self.path = path

    def fail(self, trail: tuple, problem: str) -> AnnotationError:
        line = annotations.line_of(self.path, trail)
        return AnnotationError(f"{self.path}{f', line {line}' if line else ''}: {problem}")

    def mapping(self, value: Any, trail: tuple, what: str) -> dict:
        if value is None:
            return {}
        if not isinstance(value, dict):
            raise self.fail(trail, f"{'.'.join(map(str, trail))} must be a mapping of {what}, not "
                                   f"{annotations.shown(value)}")
        return value

    def pin(self, value: Any, trail: tuple, members: type[enum.Enum] | None = None, keys: tuple = (),
            exempt: bool = False) -> Pin:
        """A ``{covers, why}`` mapping (plus ``keys``); ``exempt`` lets covers be left out."""
        label = ".".join(map(str, trail))
        allowed = ("covers", "why", *keys)
        if not isinstance(value, dict):
            raise self.fail(trail, f"{label} must be a mapping with {' and '.join(allowed)}, not "
                                   f"{annotations.shown(value)}")
        for key in value:
            if key not in allowed:
                raise self.fail(trail + (key,), f"unknown key {annotations.shown(key)} in {label}; expected "
                                                + ", ".join(allowed))
        why = value.get("why")
        if not isinstance(why, str) or not why.strip():
            raise self.fail(trail + (("why",) if "why" in value else ()),
                            f"{label} needs a why: the rule that allows these values, or our reason for them")
        if "covers" not in value:
            if exempt:
                return Pin((), " ".join(why.split()))
            raise self.fail(trail, f"{label} lacks 'covers'")
        names = {m.value: m.name for m in members} if members is not None else {}
        return Pin(self.ranges(value["covers"], trail + ("covers",), members), " ".join(why.split()), names)

    def ranges(self, covers: Any, trail: tuple, members: type[enum.Enum] | None = None
               ) -> tuple[tuple[int, int], ...]:
        """``[low, high]`` or a list of them; whole numbers, or member names of an enum input's enum."""
        label = ".".join(map(str, trail))
        if members is None:
            end, ends = _whole, "whole numbers"
        else:
            end, ends = (lambda v: isinstance(v, str) and v in members.__members__), f"members of {members.__name__}"
        if isinstance(covers, list) and len(covers) == 2 and all(end(v) for v in covers):
            covers = [covers]
        if not (isinstance(covers, list) and covers and all(
                isinstance(r, list) and len(r) == 2 and all(end(v) for v in r) for r in covers)):
            known = f" ({', '.join(members.__members__)})" if members is not None else ""
            raise self.fail(trail, f"{label} must be [low, high] ({ends}{known}) or a list of such ranges, not "
                                   f"{annotations.shown(covers)}")
        raw, covers = covers, covers if members is None else [[members[a].value, members[b].value] for a, b in covers]
        for (low, high), written in zip(covers, raw):
            if low > high:
                raise self.fail(trail, f"{label} has the range [{written[0]}, {written[1]}], whose low end is above "
                                       "its high end")
        for (_, before), (after, _) in zip(covers, covers[1:]):
            if after <= before + 1:
                raise self.fail(trail, f"{label} must list its ranges in ascending order, apart from each other")
        if sum(high - low + 1 for low, high in covers) > MOST_VALUES:
            raise self.fail(trail, f"{label} covers more than {MOST_VALUES} values; pin a window of them "
                                   "and say so in the why")
        return tuple((low, high) for low, high in covers)


def pins(ruleset: str, root: Path = SPEC_ROOT) -> Pins:
    """A ruleset's domains.yaml, checked: known tables and inputs, well-formed ranges, a why for each pin,
    exceptions naming proofs of this ruleset. An absent file pins nothing (and the checks then ask for pins)."""
    path = annotations.annotations_dir(ruleset, root) / FILE
    data = annotations._load(path, dict)
    read = _Reader(path)
    for key in data:
        if key not in ("tables", "proofs"):
            raise read.fail((key,), f"unknown key {annotations.shown(key)}; expected tables, proofs")
    out = Pins(path)
    tables = read.mapping(data.get("tables"), ("tables",), "decision table names to their inputs' pins")
    if tables:
        from rules40k.checks import tables as ruleset_tables

        known = {table.name: table for table in ruleset_tables(ruleset)}
        for name, inputs in tables.items():
            if name not in known:
                raise read.fail(("tables", name), f"tables: {annotations.shown(name)} is not a decision table of "
                                                  f"the {ruleset} ruleset")
            variables = {v.name: v for v in known[name].inputs}
            out.tables[name] = {}
            for var_name, value in read.mapping(inputs, ("tables", name), "input names to pins").items():
                var = variables.get(var_name)
                trail = ("tables", name, var_name)
                if var is None:
                    raise read.fail(trail, f"tables.{name}: {annotations.shown(var_name)} is not an input of that "
                                           f"table ({', '.join(variables)})")
                if var.kind == "bool":
                    raise read.fail(trail, f"tables.{name}.{var_name} is a bool input, which needs no pin")
                members = type(var.low) if isinstance(var.low, enum.Enum) else None
                out.tables[name][var_name] = read.pin(value, trail, members)
    proofs = read.mapping(data.get("proofs"), ("proofs",), "proof symbol names to pins")
    registered = None
    for name, value in proofs.items():
        trail = ("proofs", str(name))
        out.proofs[str(name)] = read.pin(value, trail, keys=("except",))
        exceptions = read.mapping(value.get("except"), trail + ("except",), "proof ids to pins")
        if exceptions and registered is None:
            from properties import proofs as registry

            registered = {i for i, p in registry.load_all().items() if spec.ruleset_of(p.refs) == ruleset}
        for proof_id, pin in exceptions.items():
            if proof_id not in registered:
                raise read.fail(trail + ("except", proof_id), f"proofs.{name}.except: {annotations.shown(proof_id)} "
                                                              f"is not a proof of the {ruleset} ruleset")
            out.exceptions.setdefault(str(name), {})[proof_id] = read.pin(pin, trail + ("except", proof_id),
                                                                          exempt=True)
    return out


# --------------------------------------------------------------------------
# The checks
# --------------------------------------------------------------------------


def _enum_pin(members: type[enum.Enum]) -> Pin:
    first, last = list(members)[0], list(members)[-1]
    return Pin(((first.value, last.value),), f"{members.__name__}'s first to last member",
               {m.value: m.name for m in members})


def table_domain_problems(table: logic.DecisionTable, pinned: Pins) -> list[str]:
    """Where a table's declared domain differs from its pins, one phrase each (empty when it matches)."""
    problems: list[str] = []
    matched: list[tuple[logic.Var, Pin]] = []
    for var in table.inputs:
        if var.kind == "bool":
            continue
        pin = pinned.tables.get(table.name, {}).get(var.name)
        if isinstance(var.low, enum.Enum):
            pin = pin or _enum_pin(type(var.low))
        elif pin is None:
            problems.append(f"Var {var.name} has no pin in {pinned.path.name}: say what the rules allow for it")
            continue
        low, high = int(var.low), int(var.high)
        covers = pin.show(list(range(low, high + 1)))
        lowest, highest = pin.span()
        if low > lowest or high < highest:
            problems.append(f"Var {var.name} covers {covers} but the rules allow {pin.show()} ({pin.why})")
        elif low < lowest or high > highest:
            problems.append(f"Var {var.name} covers {covers}, beyond the pinned {pin.show()} ({pin.why}); "
                            "widen the pin if the rules allow it")
        else:
            matched.append((var, pin))
    return problems + _assumed(table, matched)


def _assumed(table: logic.DecisionTable, matched: list[tuple[logic.Var, Pin]]) -> list[str]:
    """The table's domain (its Vars and ``assume``) keeps each pinned value and drops each value the pin leaves out."""
    problems = []
    solver = None
    for var, pin in matched:
        wanted = set(pin.values())
        values = list(range(int(var.low), int(var.high) + 1))
        if table.assume is None:
            allowed = set(values)
        else:
            if solver is None:
                import z3

                symbols = table.symbols()
                solver = z3.Solver()
                solver.add(table.domain(symbols))
            allowed = set()
            for value in values:
                solver.push()
                solver.add(symbols[var.name] == value)
                if str(solver.check()) != "unsat":
                    allowed.add(value)
                solver.pop()
        missing, extra = sorted(wanted - allowed), sorted(allowed - wanted)
        if missing:
            problems.append(f"the table's assume excludes {var.name} = {pin.show(missing)}, which the rules allow "
                            f"({pin.why})")
        if extra:
            problems.append(f"Var {var.name} includes {pin.show(extra)}, which the pin leaves out ({pin.why})")
    return problems


def proof_domain_problems(proof: Any, pinned: Pins) -> list[str]:
    """Where a proof's preconditions exclude a value its pinned symbols must cover, one phrase each."""
    import z3

    problems: list[str] = []
    preconditions, _, symbols = proof.build()
    solver = None
    for name, symbol in sorted(symbols.items()):
        pin = pinned.for_proof(proof.id, name)
        if pin is None or not pin.ranges:
            continue
        if not (z3.is_expr(symbol) and z3.is_int(symbol)):
            problems.append(f"symbol {name} is not a whole number, but {pinned.path.name} pins {name} to whole "
                            f"numbers; list {proof.id} as an exception to that pin, with the reason")
            continue
        if solver is None:
            solver = z3.Solver()
            solver.set("timeout", 5_000)
            solver.add(*preconditions)
        excluded, undecided = [], []
        for value in pin.values():
            solver.push()
            solver.add(symbol == value)
            verdict = solver.check()
            solver.pop()
            if verdict == z3.unsat:
                excluded.append(value)
            elif verdict != z3.sat:
                undecided.append(value)
        if excluded:
            problems.append(f"the preconditions exclude {name} = {pin.show(excluded)}, which the rules allow "
                            f"({pin.why})")
        if undecided:
            problems.append(f"z3 cannot tell whether the preconditions allow {name} = {pin.show(undecided)}")
    return problems
