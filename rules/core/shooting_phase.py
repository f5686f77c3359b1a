"""Chapter 10, Shooting phase: the parts of the shooting types that change attacks.

Eligibility and the phase sequence are encoded with the game-state model.
"""

from __future__ import annotations

from typing import Any

from rules.core.attack_sequence import Hit, hit_roll
from rules.logic import And, If, Not, Or
from rules.registry import rule


@rule("10.06")
def close_quarters_hit_modifier(monster_or_vehicle_model: Any, close_quarters_weapon: Any,
                                target_engaged_with_unit: Any) -> Any:
    """Close-quarters shooting: a MONSTER/VEHICLE model subtracts 1 from the hit roll unless it fires a
    [CLOSE-QUARTERS] weapon at a unit its unit is engaged with."""
    return If(And(monster_or_vehicle_model, Not(And(close_quarters_weapon, target_engaged_with_unit))), -1, 0)


@rule("10.06")
def close_quarters_target_allowed(monster_or_vehicle_model: Any, close_quarters_weapon: Any, blast_weapon: Any,
                                  target_engaged_with_unit: Any) -> Any:
    """Which weapons may target a unit the shooter is engaged with under close-quarters shooting.

    [BLAST] weapons never can; other models may only use [CLOSE-QUARTERS] weapons against engaged units.
    """
    return If(target_engaged_with_unit,
              And(Not(blast_weapon), Or(monster_or_vehicle_model, close_quarters_weapon)),
              monster_or_vehicle_model)


@rule("10.07")
def indirect_hit_roll(roll: Any, modifier: Any, skill: Any, stationary_and_target_spotted: Any) -> Any:
    """Indirect fire: an unmodified hit roll of 1-5 fails, or 1-3 if the unit remained stationary and a
    friendly unit can see the target; otherwise the normal hit roll applies."""
    fails_up_to = If(stationary_and_target_spotted, 3, 5)
    return If(roll <= fails_up_to, Hit.FAIL, hit_roll(roll, modifier, skill))


@rule("10.07")
def indirect_target_has_cover(indirect_fire_attack: Any) -> Any:
    """Each [INDIRECT FIRE] attack in indirect shooting gives the target the benefit of cover."""
    return indirect_fire_attack


@rule("10.07", "15.09")
def hit_rerolls_allowed(indirect_fire_attack: Any, snap_shooting: Any) -> Any:
    """Indirect fire and snap shooting both forbid re-rolling hit rolls."""
    return Not(Or(indirect_fire_attack, snap_shooting))
