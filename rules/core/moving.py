"""Chapter 03, Moving: straight lines and rotations, set up, coherency and engagement.

Geometry follows interpretation ``geometry-round-bases``: round bases seen
from above at a height; closest-point distances via ``rules.core.core_concepts``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from rules.core.core_concepts import within
from rules.logic import And, Not, Or
from rules.model import Placed, PlacedUnit
from rules.registry import rule

COHERENCY_NEAREST = (2, 5)  # within 2" horizontally and 5" vertically of at least one other model
COHERENCY_ALL = (9, 5)  # within 9" horizontally and 5" vertically of every other model
ENGAGEMENT_RANGE = (2, 5)


# 03.01 Moving units -----------------------------------------------------------


@dataclass(frozen=True)
class Step:
    """One part of a model's move: a straight line of ``inches``, or a rotation of ``degrees``."""

    inches: Any = 0
    degrees: Any = 0


@rule("03.01")
def distance_moved(steps: Sequence[Step]) -> Any:
    """Total distance of a model's move: straight lines add up, rotations count for nothing."""
    total: Any = 0
    for step in steps:
        total = total + step.inches
    return total


@rule("03.01")
def move_is_within_maximum(steps: Sequence[Step], maximum: Any) -> Any:
    """The distance moved cannot be greater than the move type's maximum distance."""
    return distance_moved(steps) <= maximum


@rule("03.01")
def may_move_through(mover_army: Any, other_army: Any) -> Any:
    """Unless otherwise stated a model moves through friendly models, never its base through enemy ones."""
    return mover_army == other_army


@rule("03.01")
def base_on_battlefield(model: Placed, width: Any, depth: Any) -> Any:
    """A base cannot cross the battlefield edge: the whole circle stays inside width x depth."""
    r = model.radius
    return And(model.x - r >= 0, model.y - r >= 0, model.x + r <= width, model.y + r <= depth)


@rule("03.01")
def move_can_end(on_battlefield: Any, in_coherency: Any, clear_of_models_and_surfaces: Any,
                 after_moving_conditions_met: Any) -> Any:
    """A move ends only if the unit is coherent (when on the battlefield), no model sits on another
    model or part-way through a terrain surface, and the move type's After Moving conditions hold;
    otherwise the models go back and the move is not made."""
    return And(Or(Not(on_battlefield), in_coherency), clear_of_models_and_surfaces, after_moving_conditions_met)


# 03.02 Set up -------------------------------------------------------------------


@rule("03.02")
def set_up_succeeds(every_model_placed: Any, in_coherency: Any, unengaged: Any, other_requirements_met: Any) -> Any:
    """A set up stands only if every model is placed, coherent, unengaged and meets the other requirements;
    otherwise the unit returns to where it came from (strategic reserves, a transport)."""
    return And(every_model_placed, in_coherency, unengaged, other_requirements_met)


@rule("03.02")
def selected_to_move_after_set_up(set_up_succeeded: Any) -> Any:
    """A unit whose set up (as a move type) failed has not been selected to make that move."""
    return set_up_succeeded


# 03.03 Coherency ----------------------------------------------------------------


@rule("03.03")
def in_coherency(models: Sequence[Placed]) -> Any:
    """Every model within 2"/5" of at least one other and within 9"/5" of every other.

    A unit of one model is always in coherency. Works on Fractions and on z3 reals.
    """
    if len(models) <= 1:
        return True
    near_h, near_v = COHERENCY_NEAREST
    all_h, all_v = COHERENCY_ALL
    conditions = []
    for i, model in enumerate(models):
        others = [other for j, other in enumerate(models) if j != i]
        conditions.append(Or(*(within(model, other, near_h, near_v) for other in others)))
        conditions.extend(within(model, other, all_h, all_v) for other in others)
    return And(*conditions)


@rule("03.03")
def regain_coherency(models: Sequence[Placed], removal_order: Sequence[int]) -> tuple[list[Placed], list[Placed]]:
    """End of turn: remove models one at a time, in the controlling player's chosen order, until coherent.

    ``removal_order`` lists model indices; removed models are destroyed (without triggering
    destroyed-rules). Returns (kept, removed). Removing down to one model always restores
    coherency, so the process ends; the order must name enough models to get there.
    """
    remaining = list(range(len(models)))  # indices, so identical models are told apart
    removed: list[Placed] = []
    order = list(removal_order)
    while not in_coherency([models[i] for i in remaining]):
        if not order:
            raise ValueError("removal order ran out before the unit was back in coherency")
        index = order.pop(0)
        if index not in remaining:
            raise ValueError(f"model {index} is named twice or does not exist in the removal order")
        remaining.remove(index)
        removed.append(models[index])
    return [models[i] for i in remaining], removed


# 03.04 Engagement ---------------------------------------------------------------


@rule("03.04")
def within_engagement_range(a: Placed, b: Placed) -> Any:
    """A model's engagement range: within 2" horizontally and 5" vertically of it."""
    return within(a, b, *ENGAGEMENT_RANGE)


@rule("03.04")
def units_engaged(unit: PlacedUnit, enemy: PlacedUnit) -> Any:
    """Two opposing units are engaged while any of their models are within engagement range."""
    if unit.owner == enemy.owner:
        return False
    return Or(*(within_engagement_range(a, b) for a in unit.models for b in enemy.models))


@rule("03.04")
def is_unengaged(unit: PlacedUnit, others: Sequence[PlacedUnit]) -> Any:
    """A unit with no engaged models is unengaged."""
    return Not(Or(*(units_engaged(unit, other) for other in others)))
