"""z3 proofs about the real rule functions, registered with an id and the references they rest on.

A proof is ``(preconditions, goal)`` over z3 constants, built by calling the
very functions the calculator and the site use (looked up on their modules at
check time, so a test can swap in a broken copy). It is checked as
``preconditions and not goal`` being unsatisfiable:

- ``proved``: unsat, the goal holds for every input allowed by the preconditions;
- ``disproved``: sat, with a counterexample, printed as a ready-to-paste
  hypothesis ``@example(...)``;
- ``unknown``: z3 gave up (timeout or undecidable fragment).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

import z3

from rules import dice
from rules.core import core_concepts, datasheets, moving
from rules.model import Placed

Built = tuple[list[Any], Any, dict[str, Any]]


@dataclass(frozen=True)
class Proof:
    """A registered proof. ``expect="disproved"`` marks a finding: the rules as written
    violate the statement, the counterexample is the evidence, and the code follows
    a recorded interpretation instead (findings/*.yaml names the proof)."""

    id: str
    refs: tuple[str, ...]
    statement: str
    build: Callable[[], Built]
    expect: str = "proved"


@dataclass
class ProofResult:
    id: str
    refs: tuple[str, ...]
    statement: str
    status: str
    counterexample: dict[str, Any] | None = None
    example: str = ""
    detail: str = ""
    extra: dict = field(default_factory=dict)


PROOFS: dict[str, Proof] = {}


def proof(id: str, refs: tuple[str, ...], statement: str,
          expect: str = "proved") -> Callable[[Callable[[], Built]], Callable[[], Built]]:
    """Register a proof builder under ``id`` (``expect="disproved"`` for a finding)."""
    if expect not in ("proved", "disproved"):
        raise ValueError(f"proof {id!r}: expect must be 'proved' or 'disproved'")

    def register(build: Callable[[], Built]) -> Callable[[], Built]:
        if id in PROOFS:
            raise ValueError(f"proof id {id!r} registered twice")
        PROOFS[id] = Proof(id, tuple(refs), statement, build, expect)
        return build

    return register


def _value(model: z3.ModelRef, symbol: Any) -> Any:
    value = model.eval(symbol, model_completion=True)
    if z3.is_bool(value):
        return z3.is_true(value)
    if z3.is_int_value(value):
        return value.as_long()
    if z3.is_rational_value(value):
        return f"Fraction({value.numerator_as_long()}, {value.denominator_as_long()})"
    return str(value)


def check(item: Proof, timeout_ms: int = 10_000) -> ProofResult:
    """Check one proof; never raises for a failed goal (that is a verdict)."""
    pre, goal, symbols = item.build()
    solver = z3.Solver()
    solver.set("timeout", timeout_ms)
    solver.add(*pre)
    solver.add(z3.Not(goal))
    outcome = solver.check()
    result = ProofResult(item.id, item.refs, item.statement, "unknown")
    if outcome == z3.unsat:
        result.status = "proved"
    elif outcome == z3.sat:
        model = solver.model()
        counterexample = {name: _value(model, sym) for name, sym in sorted(symbols.items())}
        result.status = "disproved"
        result.counterexample = counterexample
        args = ", ".join(f"{k}={v}" for k, v in counterexample.items())
        result.example = f"@example({args})"
        result.detail = f"counterexample: {args}"
    else:
        result.detail = f"z3: {solver.reason_unknown()}"
    return result


def load_all() -> dict[str, Proof]:
    """Import every ``properties/proofs_*.py`` module so its proofs register, then return the registry."""
    import importlib
    import pkgutil
    from pathlib import Path

    for info in pkgutil.iter_modules([str(Path(__file__).parent)]):
        if info.name.startswith("proofs_"):
            importlib.import_module(f"properties.{info.name}")
    return PROOFS


def check_all() -> list[ProofResult]:
    load_all()
    return [check(PROOFS[name]) for name in sorted(PROOFS)]


# -- 01.05 dice -------------------------------------------------------------------


@proof("d3-in-range-and-monotone", ("01.05",), "A D3 is always 1 to 3 and never falls as the D6 rises.")
def _d3() -> Built:
    face, other = z3.Ints("face other")
    pre = [face >= 1, face <= 6, other >= face, other <= 6]
    value = dice.d3_from_d6(face)
    goal = z3.And(value >= 1, value <= 3, dice.d3_from_d6(other) >= value)
    return pre, goal, {"face": face, "other": other}


@proof("d3-each-value-twice", ("01.05",), "Each D3 result comes from exactly two D6 faces.")
def _d3_faces() -> Built:
    k = z3.Int("k")
    count = sum(z3.If(dice.d3_from_d6(face) == k, 1, 0) for face in range(1, 7))
    return [k >= 1, k <= 3], count == 2, {"k": k}


# -- 01.03 active player ------------------------------------------------------------


@proof("active-player-is-a-player", ("01.03",),
       "The active player is always player 1 or 2, the opposing player is the other one, and with no unit "
       "selected during a turn it is the player whose turn it is.")
def _active() -> Built:
    in_turn, selected = z3.Bools("in_turn unit_selected")
    turn, first, controller = z3.Ints("turn_player first_player selected_unit_controller")
    players = [z3.Or(p == 1, p == 2) for p in (turn, first, controller)]
    active = core_concepts.active_player(in_turn, turn, first, selected, controller)
    opposing = core_concepts.opposing_player(active)
    goal = z3.And(
        z3.Or(active == 1, active == 2),
        z3.Or(opposing == 1, opposing == 2), opposing != active,
        z3.Implies(z3.And(in_turn, z3.Not(selected)), active == turn),
    )
    return players + [z3.Implies(selected, in_turn)], goal, {
        "in_turn": in_turn, "unit_selected": selected, "turn_player": turn, "first_player": first,
        "selected_unit_controller": controller}


# -- 01.04 / 03.03 / 03.04 geometry ---------------------------------------------------


def _two_models(base_a: str = "32", base_b: str = "50.8") -> tuple[Placed, Placed, dict]:
    ax, ay, az, bx, by, bz = z3.Reals("ax ay az bx by bz")
    a, b = Placed(ax, ay, base_mm=base_a, z=az), Placed(bx, by, base_mm=base_b, z=bz)
    return a, b, {"ax": ax, "ay": ay, "az": az, "bx": bx, "by": by, "bz": bz}


@proof("within-is-symmetric", ("01.04",), "If model A is within d inches of model B, B is within d inches of A.")
def _within_symmetric() -> Built:
    a, b, symbols = _two_models()
    d = z3.Real("d")
    goal = core_concepts.within(a, b, d, d) == core_concepts.within(b, a, d, d)
    return [d >= 0], goal, {**symbols, "d": d}


@proof("within-grows-with-distance", ("01.04",), "Anything within d inches is also within any greater distance.")
def _within_monotone() -> Built:
    a, b, symbols = _two_models()
    d, e = z3.Reals("d e")
    goal = z3.Implies(core_concepts.within_horizontally(a, b, d), core_concepts.within_horizontally(a, b, e))
    return [d >= 0, e >= d], goal, {**symbols, "d": d, "e": e}


@proof("engagement-is-symmetric", ("03.04",), "Engagement range works both ways between two models.")
def _engagement_symmetric() -> Built:
    a, b, symbols = _two_models()
    goal = moving.within_engagement_range(a, b) == moving.within_engagement_range(b, a)
    return [], goal, symbols


@proof("two-model-coherency-is-two-inches", ("03.03",),
       "A two-model unit is in coherency exactly when its models are within 2 inches horizontally and 5 vertically.")
def _pair_coherency() -> Built:
    a, b, symbols = _two_models("32", "32")
    goal = moving.in_coherency([a, b]) == core_concepts.within(a, b, 2, 5)
    return [], goal, symbols


@proof("coherent-units-are-nine-inches-across", ("03.03",),
       "In a coherent four-model unit standing in a line, no two models are more than 9 inches apart.")
def _nine_inches() -> Built:
    # Four models, because with three the 2-inch rule alone already keeps them close;
    # on a line, because z3's non-linear real arithmetic is quick in one dimension.
    xs = z3.Reals("x0 x1 x2 x3")
    models = [Placed(x, 0, base_mm="25.4") for x in xs]
    far = z3.Or(*(z3.Not(core_concepts.within_horizontally(models[i], models[j], 9))
                  for i in range(4) for j in range(4) if i != j))
    return [], z3.Implies(moving.in_coherency(models), z3.Not(far)), {f"x{i}": x for i, x in enumerate(xs)}


# -- 01.06 / 01.07 leadership and battle-shock ------------------------------------------


@proof("leadership-better-roll-never-fails", ("01.06",),
       "If a leadership roll succeeds, any higher roll for the same unit succeeds too, and adding a model never makes it fail.")
def _leadership() -> Built:
    roll, higher = z3.Ints("roll higher")
    l1, l2, l3 = z3.Ints("ld1 ld2 ld3")
    pre = [roll >= 2, roll <= 12, higher >= roll, higher <= 12] + [z3.And(l >= 2, l <= 12) for l in (l1, l2, l3)]
    ok = core_concepts.leadership_roll_succeeds(roll, [l1, l2])
    goal = z3.And(
        z3.Implies(ok, core_concepts.leadership_roll_succeeds(higher, [l1, l2])),
        z3.Implies(ok, core_concepts.leadership_roll_succeeds(roll, [l1, l2, l3])),
    )
    return pre, goal, {"roll": roll, "higher": higher, "ld1": l1, "ld2": l2, "ld3": l3}


@proof("failed-battle-shock-roll-shocks", ("01.07",), "Whatever the unit's state, failing a battle-shock roll leaves it battle-shocked.")
def _shock() -> Built:
    was, succeeded = z3.Bools("was_battle_shocked roll_succeeded")
    goal = z3.Implies(z3.Not(succeeded), core_concepts.battle_shocked_after_roll(was, succeeded))
    return [], goal, {"was_battle_shocked": was, "roll_succeeded": succeeded}


@proof("battle-shocked-models-control-nothing", ("01.07", "02.02"),
       "A battle-shocked model cannot control objectives and adds nothing to a level of control, whatever its OC.")
def _shocked_oc() -> Built:
    oc = z3.Int("oc")
    shocked_oc = core_concepts.objective_control(oc, True)
    goal = z3.And(z3.Not(datasheets.can_control_objectives(shocked_oc)),
                  datasheets.level_of_control_contribution(shocked_oc) == 0)
    return [oc >= 0], goal, {"oc": oc}


@proof("level-of-control-never-negative", ("02.02",),
       "No model lowers its player's level of control: each model adds zero or more.")
def _oc_nonnegative() -> Built:
    oc = z3.Int("oc")
    return [z3.Or(oc == -1, oc >= 0)], datasheets.level_of_control_contribution(oc) >= 0, {"oc": oc}
