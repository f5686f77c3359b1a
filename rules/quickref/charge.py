"""The sheet's Charge phase: declaring a charge and its targets, the charge roll, when a charge fails, and the
charge move."""

from __future__ import annotations

from typing import Any

from rules.logic import And, If, Not, Or
from rules.quickref.movement import Move
from rules.registry import ruleset_rule

rule = ruleset_rule("quickref")

CHARGE_RANGE = 12


@rule("charge/select-targets")
def may_select_charge_target(distance: Any, charge_roll: Any) -> Any:
    """Targets are selected when the charge is declared, before the Charge roll: any enemy unit within 12"."""
    return distance <= CHARGE_RANGE


@rule("charge/eligible-by-movement")
def eligible_to_charge_after(move: Any) -> Any:
    """Eligible to charge by its movement this turn: not after an Advance or a Fall Back."""
    return And(move != Move.ADVANCE, move != Move.FALL_BACK)


@rule("charge/targets-within-12")
def charge_target_within_range(distance: Any, visible: Any) -> Any:
    """A charge target must be within 12", visible or not."""
    return distance <= CHARGE_RANGE


@rule("charge/fly")
def may_move_over_models_when_charging(fly: Any) -> Any:
    """Fly models can move over other models when they charge."""
    return fly


@rule("charge/fly")
def charge_distance_over_models(fly: Any, maximum: Any) -> Any:
    """How far a charging model may move over other models (0: it may not): the whole charge roll."""
    return If(may_move_over_models_when_charging(fly), maximum, 0)


@rule("charge/charge-roll")
def charge_distance(dice_total: Any) -> Any:
    """The Charge roll: models can move up to 2D6 inches."""
    return dice_total


@rule("charge/charge-fails")
def charge_succeeds(can_reach_every_target: Any, in_unit_coherency: Any) -> Any:
    """A charge succeeds only if the unit can move within Engagement Range of its target unit(s) and keep Unit
    Coherency; otherwise it fails.

    Interpretation: quickref-charge-reaches-every-target.
    """
    return And(can_reach_every_target, in_unit_coherency)


@rule("charge/charge-move-distance")
def charge_move_allowed(moved: Any, charge_roll: Any) -> Any:
    """Each model's Charge move is at most the Charge roll in inches."""
    return moved <= charge_roll


@rule("charge/no-other-units")
def charge_path_allowed(passes_within_engagement_range_of_others: Any,
                        ends_within_engagement_range_of_others: Any) -> Any:
    """A charging model cannot move within Engagement Range of a unit that was not a target, at any point.

    Interpretation: quickref-move-within-means-any-point.
    """
    return And(Not(passes_within_engagement_range_of_others), Not(ends_within_engagement_range_of_others))


BASE_CONTACT = 0


@rule("charge/base-contact")
def charge_model_end_allowed(can_reach_base_contact: Any, end_distance: Any) -> Any:
    """A charging model must end in base-to-base contact with an enemy model if it can (distance 0)."""
    return If(can_reach_base_contact, end_distance == BASE_CONTACT, True)


@rule("charge/fights-first")
def gains_fights_first(made_charge_move: Any) -> Any:
    """A unit that makes a Charge move has Fights First until the end of the turn."""
    return made_charge_move
