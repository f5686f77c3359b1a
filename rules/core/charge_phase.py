"""Chapter 11 Charge phase: declaring charges, the charge roll and the charge move.

Eligibility to declare a charge is a table of the book's "not eligible" reasons;
charge targets are measured on placed models (``charge_target_in_reach``) so z3
can check the FAILED CHARGES note against the engagement range of 03.04.
"""

from __future__ import annotations

import enum
from dataclasses import replace
from fractions import Fraction
from typing import Any, Sequence

from rules import dice
from rules.core import aircraft, core_concepts, moving
from rules.logic import And, DecisionTable, Implies, Not, Or, Row, Var
from rules.model import PlacedUnit
from rules.registry import rule
from rules.state import GameState, MoveType

#: A unit must be within this many inches of an enemy unit to declare a charge, and of each charge target.
CHARGE_RANGE = 12


class ChargeStep(enum.IntEnum):
    START = 1  # 11.01
    CHARGE = 2  # 11.02
    END = 3  # 11.03
    DONE = 4


# 11.01-11.03 The phase's steps ---------------------------------------------------------------

CHARGE_STEPS = DecisionTable(
    name="charge-phase-steps",
    refs=("11.01", "11.02", "11.03"),
    inputs=(Var("step", ChargeStep.START, ChargeStep.END), Var("another_charge_wanted", kind="bool")),
    rows=(
        Row("1. Start of Charge phase: resolve start-of-phase rules, then Charge",
            lambda step, **_: step == ChargeStep.START, ChargeStep.CHARGE),
        Row("2. Charge: the player wants to charge with another eligible unit",
            lambda step, another_charge_wanted: And(step == ChargeStep.CHARGE, another_charge_wanted),
            ChargeStep.CHARGE, overrides=("2. Charge: every unit the player chose to charge with has charged",)),
        Row("2. Charge: every unit the player chose to charge with has charged",
            lambda step, **_: step == ChargeStep.CHARGE, ChargeStep.END),
        Row("3. End of Charge phase: resolve end-of-phase rules, then the phase ends",
            lambda step, **_: step == ChargeStep.END, ChargeStep.DONE),
    ),
)


@rule("11.01", "11.02", "11.03")
def next_charge_step(step: Any, another_charge_wanted: Any) -> Any:
    """Which step of the Charge phase follows: Charge repeats while the player declares more charges."""
    return CHARGE_STEPS(step=step, another_charge_wanted=another_charge_wanted)


# 11.02 Declare charge ----------------------------------------------------------------------

CHARGE_ELIGIBILITY = DecisionTable(
    name="eligible-to-declare-charge",
    refs=("11.02", "23.04"),
    inputs=(Var("on_battlefield", kind="bool"), Var("enemy_within_12", kind="bool"), Var("engaged", kind="bool"),
            Var("advanced_or_fell_back", kind="bool"), Var("prevented_by_another_rule", kind="bool")),
    assume=lambda on_battlefield, enemy_within_12, engaged, **_: And(
        Implies(engaged, on_battlefield), Implies(engaged, enemy_within_12)),
    rows=(
        Row("not on the battlefield", lambda on_battlefield, **_: Not(on_battlefield), False),
        Row("not within 12\" of one or more enemy units", lambda enemy_within_12, **_: Not(enemy_within_12), False),
        Row("engaged", lambda engaged, **_: engaged, False),
        Row("made an advance or fall-back move this turn", lambda advanced_or_fell_back, **_: advanced_or_fell_back,
            False),
        Row("another rule says it is not eligible (e.g. it started an action, 16.01; AIRCRAFT, 23.04)",
            lambda prevented_by_another_rule, **_: prevented_by_another_rule, False),
        Row("on the battlefield: eligible", lambda **_: True, True, otherwise=True),
    ),
    gap=False,
)


@rule("11.02", "23.04")
def eligible_to_declare_charge(on_battlefield: Any, enemy_within_12: Any, engaged: Any, advanced: Any,
                               fell_back: Any, prevented_by_another_rule: Any = False, is_aircraft: Any = False) -> Any:
    """Whether a unit is eligible to declare a charge (AIRCRAFT never are, 23.04)."""
    return CHARGE_ELIGIBILITY(
        on_battlefield=on_battlefield, enemy_within_12=enemy_within_12, engaged=engaged,
        advanced_or_fell_back=Or(advanced, fell_back),
        prevented_by_another_rule=Or(prevented_by_another_rule, Not(aircraft.aircraft_may_declare_charge(is_aircraft))))


@rule("11.02")
def may_declare_charge(state: GameState, name: str, enemy_within_12: bool,
                       prevented_by_another_rule: bool = False) -> bool:
    """Declare Charge: a unit of the active player that has not declared a charge this phase and is eligible
    (one that started an action this turn is not, 16.01)."""
    unit = state.unit(name)
    return (unit.owner == state.turn_player and not unit.destroyed and not unit.declared_charge
            and bool(eligible_to_declare_charge(unit.on_battlefield, enemy_within_12, unit.engaged, unit.advanced,
                                                unit.fell_back, Or(prevented_by_another_rule, unit.started_action),
                                                unit.has(aircraft.AIRCRAFT))))


@rule("11.02")
def charge_roll_maximum_distance(dice_total: Any, modifier: Any = 0) -> Any:
    """Make Charge Roll: the 2D6 result (after any modifier) is the charge move's maximum distance."""
    return dice_total + modifier


@rule("11.02")
def charge_roll_distribution() -> dict[int, Fraction]:
    """The exact distribution of an unmodified charge roll (2D6)."""
    return dice.distribution("2D6")


@rule("11.02")
def makes_charge_move(charge_move_possible: Any, still_wants_to: Any) -> Any:
    """Attempt Charge: the unit makes a charge move only if one is possible and the player still wants to."""
    return And(charge_move_possible, still_wants_to)


@rule("11.02")
def declare_charge(state: GameState, name: str, enemy_within_12: bool, charge_move_made: bool) -> GameState:
    """Resolve one charge: the unit declares a charge and, if it made a charge move, has charged this turn."""
    if not may_declare_charge(state, name, enemy_within_12):
        raise ValueError(f"{name} is not eligible to declare a charge")
    unit = state.unit(name)
    updated = replace(unit, declared_charge=True)
    if charge_move_made:
        updated = replace(updated, moves=unit.moves + (MoveType.CHARGE,),
                          phase_moves=unit.phase_moves + (MoveType.CHARGE,),
                          engaged=True, fights_first=True)
    outcome = "makes a charge move" if charge_move_made else "does not make a charge move"
    return state.with_unit(updated).note(f"player {unit.owner}: {name} declares a charge and {outcome}")


# 11.04 Charge move ------------------------------------------------------------------------


@rule("11.04")
def eligible_for_charge_move(declared_charge_this_phase: Any) -> Any:
    """Only a unit that declared a charge this phase can make a charge move."""
    return declared_charge_this_phase


@rule("11.04")
def charge_target_in_reach(charger: PlacedUnit, target: PlacedUnit, maximum: Any) -> Any:
    """Whether an enemy unit is within 12" of the charging unit and within its maximum distance.

    Interpretation: charge-distances-bound-height ("within X" bounds the vertical
    distance by X too, as 01.04 measures it); geometry-round-bases.
    """
    pairs = [(a, b) for a in charger.models for b in target.models]
    return And(Or(*(core_concepts.within(a, b, CHARGE_RANGE, CHARGE_RANGE) for a, b in pairs)),
               Or(*(core_concepts.within(a, b, maximum, maximum) for a, b in pairs)))


@rule("11.04", "23.04")
def may_select_charge_target(in_reach: Any, target_is_aircraft: Any = False, charger_can_fly: Any = False) -> Any:
    """Before moving: an enemy unit within 12" and within the maximum distance can be a charge target
    (an AIRCRAFT unit only for a FLYING charger, 23.04)."""
    return And(in_reach, aircraft.may_select_as_charge_target(target_is_aircraft, charger_can_fly))


@rule("11.04")
def charge_model_end_allowed(ends_closer_to_a_target: Any, can_end_within_1: Any, ends_within_1: Any,
                             can_end_engaged: Any, ends_engaged: Any) -> Any:
    """While moving, each model ends closer to a charge target, within 1" of one if it can, and engaged
    with one if it can."""
    return And(ends_closer_to_a_target, Implies(can_end_within_1, ends_within_1),
               Implies(can_end_engaged, ends_engaged))


@rule("11.04")
def charge_move_can_end(engaged_with_every_target: Any, engaged_with_other_enemy: Any) -> Any:
    """After moving, the unit is engaged with all of its charge targets and with no other enemy unit."""
    return And(engaged_with_every_target, Not(engaged_with_other_enemy))


@rule("11.04")
def charge_move_possible(targets: Sequence[Any], can_end_engaged_with_all: Any, would_engage_other_enemy: Any) -> Any:
    """A charge move can be made only with one or more charge targets, ending engaged with all of them and
    with no other enemy unit."""
    return And(Or(*targets), charge_move_can_end(can_end_engaged_with_all, would_engage_other_enemy))


@rule("11.04", "24.13")
def has_fights_first_after_charge(made_charge_move_this_turn: Any, every_model_has_it_otherwise: Any = False) -> Any:
    """After a charge move, every model has the Fights First ability until the end of the turn, so the unit is a
    Fights First unit (24.13)."""
    return Or(made_charge_move_this_turn, every_model_has_it_otherwise)


@rule("11.02", "11.04")
def charge_roll_can_reach(dice_total: Any, modifier: Any, distance_needed: Any) -> Any:
    """Whether a charge roll gives a maximum distance of at least ``distance_needed`` inches."""
    return charge_roll_maximum_distance(dice_total, modifier) >= distance_needed


@rule("11.02")
def charge_roll_chance(distance_needed: int, modifier: int = 0) -> Fraction:
    """The exact chance that the charge roll's maximum distance is at least ``distance_needed``."""
    return dice.probability(charge_roll_distribution(),
                            lambda total: charge_roll_can_reach(total, modifier, distance_needed))


def _engaged_at_start(charger: PlacedUnit, enemy: PlacedUnit) -> Any:
    """Private: the two units are engaged (03.04), as the eligibility rule asks."""
    return moving.units_engaged(charger, enemy)


@rule("11.02", "11.04")
def selectable_charge_targets(charger: PlacedUnit, enemies: Sequence[PlacedUnit], maximum: Any,
                              aircraft_enemies: Sequence[bool] = (), charger_can_fly: bool = False) -> list[int]:
    """The indices of the enemy units an eligible charger can select as charge targets with this maximum distance.

    Empty when the charger is engaged (not eligible) or nothing is in reach. A charge roll
    of 2 always gives an empty list (the FAILED CHARGES note; proof failed-charge-roll-of-two).
    """
    flags = list(aircraft_enemies) or [False] * len(enemies)
    if any(_engaged_at_start(charger, enemy) for enemy in enemies):
        return []
    return [i for i, enemy in enumerate(enemies)
            if may_select_charge_target(charge_target_in_reach(charger, enemy, maximum), flags[i], charger_can_fly)]

