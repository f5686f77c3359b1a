"""Chapter 13, Terrain: so far the benefit of cover (13.08), which changes ranged attacks.

Terrain categories, movement through terrain, hidden, obscuring and solid are
encoded with the battlefield geometry model.
"""

from __future__ import annotations

from typing import Any, Sequence

from rules.logic import And, If, Or
from rules.registry import rule


@rule("13.08")
def model_in_cover(infantry_beasts_or_swarm: Any, within_terrain_area: Any,
                   not_fully_visible_due_to_terrain: Any) -> Any:
    """One model's claim to cover: INFANTRY/BEASTS/SWARM within a terrain area, or hidden in part by terrain."""
    return Or(And(infantry_beasts_or_swarm, within_terrain_area), not_fully_visible_due_to_terrain)


@rule("13.08")
def unit_has_benefit_of_cover(models_in_cover: Sequence[Any]) -> Any:
    """A unit has the benefit of cover against a ranged attack only if every one of its models is in cover."""
    return And(*models_in_cover)


@rule("13.08")
def cover_skill_penalty(has_benefit_of_cover: Any) -> Any:
    """Against a unit with the benefit of cover, the attack's BS is worsened by 1."""
    return If(has_benefit_of_cover, 1, 0)
