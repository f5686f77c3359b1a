"""Chapter 23 Aircraft: deployment, movement, shooting and fighting restrictions.

A leaf module: every function takes plain facts (booleans), so the movement,
charge, fight and surge rules call these on Python values and on z3 terms alike.
"""

from __future__ import annotations

from typing import Any

from rules.logic import And, Implies, Not, Or
from rules.registry import rule

AIRCRAFT = "AIRCRAFT"
FLY = "FLY"


# 23.01 Deployment ---------------------------------------------------------------


@rule("23.01")
def must_be_placed_in_strategic_reserves(is_aircraft: Any) -> Any:
    """In the Declare Battle Formations step an AIRCRAFT unit must go into strategic reserves (never set up)."""
    return is_aircraft


# 23.02 Movement -------------------------------------------------------------------


@rule("23.02")
def aircraft_may_make_move(is_aircraft: Any, move_is_ingress: Any) -> Any:
    """An AIRCRAFT unit is eligible for no move type but the ingress move; other units are not restricted here.

    Interpretation: aircraft-without-a-move-type (remain stationary is a move type too).
    """
    return Implies(is_aircraft, move_is_ingress)


@rule("23.02")
def returns_to_strategic_reserves(is_aircraft: Any, on_battlefield: Any, end_of_opponents_turn: Any) -> Any:
    """At the end of the opponent's turn, an AIRCRAFT unit on the battlefield must be placed in strategic reserves."""
    return And(is_aircraft, on_battlefield, end_of_opponents_turn)


@rule("23.02")
def may_move_through_aircraft_model(other_model_is_aircraft: Any) -> Any:
    """Any move may pass through AIRCRAFT models (friendly or enemy)."""
    return other_model_is_aircraft


@rule("23.02")
def ignore_when_selecting_enemies(enemy_is_aircraft: Any, move_is_pile_in_consolidation_or_surge: Any,
                                  mover_can_fly: Any) -> Any:
    """Pile-in, consolidation and surge moves of a unit that cannot FLY ignore AIRCRAFT units when selecting
    enemy units and finding the closest enemy unit."""
    return And(enemy_is_aircraft, move_is_pile_in_consolidation_or_surge, Not(mover_can_fly))


@rule("23.02")
def engagement_prevents_normal_or_advance(engaged: Any, engaged_solely_with_aircraft: Any) -> Any:
    """Being engaged keeps a unit from normal and advance moves, unless it is engaged solely with AIRCRAFT."""
    return And(engaged, Not(engaged_solely_with_aircraft))


# 23.03 Shooting -------------------------------------------------------------------


@rule("23.03")
def plunging_fire_allowed(attacker_is_aircraft: Any, target_is_aircraft: Any) -> Any:
    """Plunging fire (22.05) does nothing for attacks made by, or targeting, AIRCRAFT units."""
    return Not(Or(attacker_is_aircraft, target_is_aircraft))


# 23.04 Charging and fighting --------------------------------------------------------


@rule("23.04")
def aircraft_may_declare_charge(is_aircraft: Any) -> Any:
    """AIRCRAFT units are not eligible to declare a charge."""
    return Not(is_aircraft)


@rule("23.04")
def may_select_as_charge_target(target_is_aircraft: Any, charger_can_fly: Any) -> Any:
    """Only FLYING units can select an AIRCRAFT unit as a charge target."""
    return Implies(target_is_aircraft, charger_can_fly)


@rule("23.04")
def may_make_melee_attack(attacker_unit_is_aircraft: Any, attacker_model_can_fly: Any,
                          target_is_aircraft: Any, target_can_fly: Any) -> Any:
    """An AIRCRAFT unit's melee attacks can only target FLYING units; only FLYING models can attack AIRCRAFT
    in melee."""
    return And(Implies(attacker_unit_is_aircraft, target_can_fly), Implies(target_is_aircraft, attacker_model_can_fly))
