"""Chapter 22, Other rules and abilities: so far plunging fire (22.05), which changes ranged attacks."""

from __future__ import annotations

from typing import Any

from rules.logic import And, If, Or
from rules.registry import rule


@rule("22.05")
def plunging_fire_applies(target_visible: Any, target_has_models_on_ground: Any, attacker_on_terrain_3_inches_up: Any,
                          attacker_towering: Any, target_within_12: Any) -> Any:
    """Plunging fire: a visible target with models on ground level, shot from 3"+ up a terrain feature or by a
    TOWERING model within 12"."""
    return And(target_visible, target_has_models_on_ground,
               Or(attacker_on_terrain_3_inches_up, And(attacker_towering, target_within_12)))


@rule("22.05")
def plunging_fire_skill_bonus(applies: Any) -> Any:
    """Plunging fire improves the attack's BS by 1."""
    return If(applies, 1, 0)
