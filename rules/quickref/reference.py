"""The sheet's rule reference: Aircraft, Unit Coherency, Engagement Range, determining visibility, and dice,
re-rolls and modifiers (its Stratagems line is with the Core Stratagems)."""

from __future__ import annotations

import enum
from fractions import Fraction
from typing import Any

from rules.logic import And, If, Not, Or
from rules.model import MM_PER_INCH
from rules.quickref.movement import Move
from rules.registry import ruleset_rule

rule = ruleset_rule("quickref")


# Aircraft ---------------------------------------------------------------------------------------------------------


@rule("aircraft/start-in-reserves")
def starts_in_reserves(aircraft: Any) -> Any:
    """AIRCRAFT units start the battle in Reserves."""
    return aircraft


HOVER_MOVE = 20


@rule("aircraft/hover")
def hover_mode(declared: Any, m: Any) -> tuple[Any, Any]:
    """(M, still an AIRCRAFT) of a HOVER Aircraft: in Hover mode its Move is 20" and it loses the AIRCRAFT keyword
    (and deploys on the table or in Strategic Reserves)."""
    return If(declared, HOVER_MOVE, m), Not(declared)


@rule("aircraft/normal-move-only")
def aircraft_may_make_move(move: Any) -> Any:
    """Aircraft only make Normal moves (and may move within Engagement Range of enemy models doing so)."""
    return move == Move.NORMAL


AIRCRAFT_STRAIGHT = 20
AIRCRAFT_PIVOT = 90


@rule("aircraft/twenty-inches")
def aircraft_move_allowed(straight_inches: Any, pivot_degrees: Any) -> Any:
    """An Aircraft moves 20" straight, then may pivot once up to 90 degrees."""
    return And(straight_inches == AIRCRAFT_STRAIGHT, pivot_degrees <= AIRCRAFT_PIVOT)


@rule("aircraft/leave-battlefield")
def aircraft_to_strategic_reserves(crosses_edge: Any, cannot_make_20_inch_move: Any,
                                   end_of_opponents_turn: Any) -> Any:
    """An Aircraft that crosses the battlefield edge or cannot make its 20" move goes into Strategic Reserves."""
    return Or(crosses_edge, cannot_make_20_inch_move)


@rule("aircraft/others-near")
def near_aircraft(move: Any) -> tuple[Any, Any]:
    """(may make the move though within Engagement Range of Aircraft, may end it within Engagement Range of enemy
    Aircraft): Normal and Advance moves may start or pass within Engagement Range of Aircraft, not end there."""
    return Or(move == Move.NORMAL, move == Move.ADVANCE), False


@rule("aircraft/move-below")
def may_move_below_aircraft(move: Any) -> Any:
    """Other units move below Aircraft in every kind of move."""
    return True


@rule("aircraft/fly-only")
def may_charge_or_fight_aircraft(can_fly: Any) -> tuple[Any, Any]:
    """(may charge an Aircraft, may fight it): only units that can Fly."""
    return can_fly, can_fly


@rule("aircraft/no-charge")
def aircraft_in_combat(target_can_fly: Any) -> tuple[Any, Any, Any, Any]:
    """(charges, piles in, consolidates, fights this target): Aircraft do none of the first three and fight only
    units that can Fly."""
    return False, False, False, target_can_fly


@rule("aircraft/ignore-for-closest")
def ignores_aircraft_for_closest(can_fly: Any) -> Any:
    """Unless the model can fly, Aircraft are ignored when finding the closest enemy model to Pile In or Consolidate
    towards."""
    return Not(can_fly)


# Unit Coherency -----------------------------------------------------------------------------------------------

COHERENCY = (2, 5)
LARGE_UNIT = 7


@rule("coherency")
def in_coherency(models: Any, fewest_other_models_within_2: Any) -> Any:
    """Each model within 2" horizontally and 5" vertically of one other model of its unit (2-6 models), or of two
    others (7+ models); models are removed at the end of every turn until the unit is coherent again."""
    return fewest_other_models_within_2 >= If(models >= LARGE_UNIT, 2, 1)


BASE_INCHES = Fraction(32) / MM_PER_INCH  # the 32 mm bases of the comparison


def line_in_coherency(models: Any, gap: Any) -> Any:
    """A unit of ``models`` 32 mm bases in a straight line, ``gap`` inches between neighbouring bases."""
    def apart(steps: int) -> Fraction:  # closest points of bases ``steps`` places apart
        return steps * (Fraction(gap) + BASE_INCHES) - BASE_INCHES

    fewest = min(sum(1 for j in range(models) if j != i and apart(abs(i - j)) <= COHERENCY[0])
                 for i in range(models))
    return in_coherency(models, fewest)


# Engagement Range ---------------------------------------------------------------------------------------------

ENGAGEMENT_RANGE = (1, 5)


@rule("engagement-range")
def within_engagement_range(horizontal: Any, vertical: Any) -> Any:
    """Engagement Range: within 1" horizontally and 5" vertically (no model sets up or ends a Normal, Advance or
    Fall Back move there, by the enemy)."""
    return And(horizontal <= ENGAGEMENT_RANGE[0], vertical <= ENGAGEMENT_RANGE[1])


# Determining visibility ---------------------------------------------------------------------------------------


class Parts(enum.IntEnum):
    """How much of a model can be seen by the observer."""

    NONE = 0
    SOME = 1
    EVERY_FACING_PART = 2


@rule("visibility")
def visibility(first: Any, second: Any) -> tuple[Any, Any, Any, Any]:
    """(first model visible, first model fully visible, unit visible, unit fully visible) for a unit of two models:
    a model is visible if any part of it can be seen and fully visible if every facing part can; a unit is visible
    if any of its models is, and fully visible if every one is."""
    visible = [part != Parts.NONE for part in (first, second)]
    fully = [part == Parts.EVERY_FACING_PART for part in (first, second)]
    return visible[0], fully[0], Or(*visible), And(*fully)
