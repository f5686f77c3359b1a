"""Chapter 21 Flying and surging: surge moves and flying models.

Surge eligibility and conditions are predicates over facts; the surge target is
the closest enemy unit, with AIRCRAFT ignored unless the surging unit can FLY
(23.02). Taking to the skies changes the maximum distance and what a model may
move through; ``movement_phase`` and ``charge_phase`` call these.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Mapping

from rules.core import aircraft
from rules.logic import And, If, Not, Or
from rules.registry import rule

#: Taking to the skies subtracts this from the maximum distance (unless the unit has [HOVER], 24.17).
SKIES_PENALTY = 2


# 21.01 / 21.02 Surge moves ----------------------------------------------------------


@rule("21.01", "21.02", "23.02")
def eligible_to_surge(rule_triggered: Any, battle_shocked: Any, engaged: Any, moved_this_phase: Any,
                      is_aircraft: Any = False) -> Any:
    """A unit may surge only when a rule allowing it has triggered, and it is not battle-shocked, is
    unengaged and has not moved this phase (all four); never an AIRCRAFT unit (23.02: ingress only)."""
    return And(rule_triggered, Not(battle_shocked), Not(engaged), Not(moved_this_phase),
               aircraft.aircraft_may_make_move(is_aircraft, False))


@rule("21.02")
def surge_maximum_distance(stated_by_rule: Any) -> Any:
    """The surge move's maximum distance is whatever the rule allowing it states (e.g. the D6 it rolled)."""
    return stated_by_rule


@rule("21.02")
def surge_target_candidates(enemy_distances: Mapping[str, Fraction], aircraft_units: tuple[str, ...] = (),
                            can_fly: bool = False) -> list[str]:
    """The enemy units that can be the surge target: the closest one(s), ignoring AIRCRAFT unless the unit can FLY.

    Interpretation: closest-ties-chosen (when several are equally close, the player picks among them).
    """
    considered = {name: Fraction(distance) for name, distance in enemy_distances.items()
                  if not aircraft.ignore_when_selecting_enemies(name in aircraft_units, True, can_fly)}
    if not considered:
        return []
    nearest = min(considered.values())
    return sorted(name for name, distance in considered.items() if distance == nearest)


@rule("21.02")
def surge_model_end_allowed(can_end_engaged_with_target: Any, ends_engaged_with_target: Any,
                            ends_as_close_as_possible: Any) -> Any:
    """While surging, a model ends engaged with the surge target if it can; otherwise as close to it as possible."""
    return If(can_end_engaged_with_target, ends_engaged_with_target, ends_as_close_as_possible)


@rule("21.02")
def surge_move_can_end(engaged_with_other_enemy: Any) -> Any:
    """After surging the unit cannot be engaged with any enemy unit other than the surge target."""
    return Not(engaged_with_other_enemy)


@rule("21.02")
def may_move_again_this_phase(surged_this_phase: Any) -> Any:
    """A unit that surged cannot move again this phase."""
    return Not(surged_this_phase)


# 21.03 Flying models ----------------------------------------------------------------


@rule("21.03")
def can_fly(model_keywords_fly: tuple[Any, ...]) -> Any:
    """A unit can FLY (is a FLYING unit) if one or more of its models has the FLY keyword."""
    return Or(*model_keywords_fly)


@rule("21.03")
def may_take_to_the_skies(flying_unit: Any, move_is_normal_advance_fall_back_or_charge: Any) -> Any:
    """A FLYING unit selected for a normal, advance, fall-back or charge move may take to the skies."""
    return And(flying_unit, move_is_normal_advance_fall_back_or_charge)


@rule("21.03")
def skies_maximum_distance(maximum: Any, takes_to_the_skies: Any, hover: Any) -> Any:
    """Taking to the skies subtracts 2 inches from the maximum distance, unless the unit has [HOVER] (24.17)."""
    return If(And(takes_to_the_skies, Not(hover)), maximum - SKIES_PENALTY, maximum)


@rule("21.03")
def distance_counted(horizontal: Any, vertical: Any, flying_over: Any) -> Any:
    """A FLYING model taking to the skies ignores vertical distance when counting how far it moved."""
    return If(flying_over, horizontal, horizontal + vertical)


@rule("21.03")
def may_move_through_model(ordinarily_allowed: Any, flying_over: Any) -> Any:
    """A FLYING model taking to the skies can move through any model (enemy and MONSTER/VEHICLE too)."""
    return Or(ordinarily_allowed, flying_over)


@rule("21.03")
def may_move_through_terrain(ordinarily_allowed: Any, flying_over: Any) -> Any:
    """A FLYING model taking to the skies can move horizontally and vertically through every terrain category."""
    return Or(ordinarily_allowed, flying_over)
