"""Chapter 17, Monsters and vehicles: so far shooting at engaged MONSTER/VEHICLE units (17.03)."""

from __future__ import annotations

from typing import Any

from rules.logic import And, If, Not
from rules.registry import rule


@rule("17.03")
def engaged_monster_vehicle_may_be_targeted(target_monster_or_vehicle: Any, own_shooting_phase: Any) -> Any:
    """In your Shooting phase an engaged enemy MONSTER/VEHICLE unit can be targeted by ranged attacks."""
    return And(target_monster_or_vehicle, own_shooting_phase)


@rule("17.03")
def engaged_monster_vehicle_hit_modifier(target_engaged_monster_or_vehicle: Any, close_quarters_weapon: Any,
                                         attacker_engaged_with_target: Any) -> Any:
    """-1 to hit against an engaged MONSTER/VEHICLE, except [CLOSE-QUARTERS] attacks from a unit engaged with it."""
    exempt = And(close_quarters_weapon, attacker_engaged_with_target)
    return If(And(target_engaged_monster_or_vehicle, Not(exempt)), -1, 0)
