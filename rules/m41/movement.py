"""999.m41 The Movement Phase (chapter 7): move distances, moving through models, movement types, unit coherency.

Unit coherency is 1 5/8" in this chapter, while the Skirmish rule calls the normal range 1 1/2" (finding
movement-coherency-one-and-five-eighths); the code follows this chapter. The coherency bullets stack: every model
needs one other within range, in a unit of more than 7 two others, and in a unit of more than 12 all but three
models need three others (those three still two), and no model is more than 12" from the farthest.
"""

from __future__ import annotations

from enum import IntEnum
from fractions import Fraction
from typing import Any, Sequence

from rules.logic import And, If, Not, Or, is_symbolic
from rules.registry import ruleset_rule

rule = ruleset_rule("m41")

INFANTRY_MOVE = 6  # "the common infantry model on foot moves 6""
COHERENCY_RANGE = Fraction(13, 8)  # "within 1 5/8" of one another"
SKIRMISH_COHERENCY_RANGE = 3  # usr/skirmish: "3" rather than the normal 1 1/2""
MAX_SPREAD = 12  # "cannot be more than 12" from the farthest model in their unit"
TWO_NEIGHBOURS_ABOVE = 7  # "more than 7 models in a unit ... at least two other models"
THREE_NEIGHBOURS_ABOVE = 12  # "more than 12 models ... all but three models ... at least three other models"
EXEMPT_FROM_THREE = 3
SPLIT_LEVEL_LIMIT = 5  # "vertically coherent across a single level of terrain so long as it is less than 5""
CALLED_OUT_HIT_PENALTY = -1  # "the unit suffers a -1 penalty to hit for the turn"
CRAMPED_PENALTY = -1  # "-1 move, weapon skill, and initiative"


def _exact(value: Fraction, *inputs: Any) -> Any:
    """A fraction of an inch as z3 needs it when the inputs are z3 terms (z3.If takes no Fraction)."""
    if is_symbolic(*inputs):
        import z3

        return z3.Q(value.numerator, value.denominator)
    return value


class MovementType(IntEnum):
    GROUNDED = 1
    JUMP = 2
    HOVER = 3


@rule("movement/movement")
def movement_distance(infantry_on_foot: Any = True, other_distance: Any = INFANTRY_MOVE) -> Any:
    """A model's movement distance: 6" for the common infantry model on foot, otherwise by unit type and wargear."""
    return If(infantry_on_foot, INFANTRY_MOVE, other_distance)


@rule("movement/movement", "movement/different-movement-distances")
def may_move_distance(distance_measured: Any, movement: Any, leaves_the_board: Any = False,
                      through_obstacle: Any = False) -> Any:
    """Whether a model may make a move: base centre start to finish (vertical included) within its own movement,
    not voluntarily off the board and not through obstacles."""
    return And(distance_measured <= movement, Not(leaves_the_board), Not(through_obstacle))


@rule("movement/moving-through-other-models")
def may_pass_through(friendly: Any, movement_type: MovementType = MovementType.GROUNDED) -> Any:
    """Whether a model may move through another model's space: through friendly models (its own unit's or another
    friendly unit's); not through enemy models or the gaps of an enemy unit, unless it jumps or hovers over them."""
    return Or(friendly, flies_over_models(movement_type))


@rule("movement/moving-through-other-models", "movement/engagement-range")
def may_end_move_at(on_a_friendly_model: Any, touching_an_enemy_model: Any, launching_an_assault: Any = False) -> Any:
    """Whether a model may end its move at a position: never on a friendly model, and never in base contact
    (engagement range) with an enemy model unless it is launching an assault."""
    return And(Not(on_a_friendly_model), Or(Not(touching_an_enemy_model), launching_an_assault))


@rule("movement/which-models-are-moving")
def counts_as_moved(inches_moved: Any, pivoted: Any = False) -> Any:
    """Whether a model counts as having moved, per model: it changed position; pivoting on the spot is not moving."""
    return inches_moved > 0


@rule("movement/moving-and-close-combat")
def may_move_in_movement_phase(locked_in_combat: Any) -> Any:
    """Units locked in combat cannot move during the movement phase."""
    return Not(locked_in_combat)


@rule("movement/grounded-movement", "movement/jump-movement", "movement/hover-movement")
def flies_over_models(movement_type: MovementType) -> Any:
    """Whether a movement type moves through the air over terrain features and other models (jump and hover; a
    model is grounded unless it is stated very clearly that it jumps)."""
    return Or(movement_type == MovementType.JUMP, movement_type == MovementType.HOVER)


@rule("movement/jump-movement", "movement/hover-movement")
def must_end_on_the_ground(movement_type: MovementType) -> Any:
    """Every movement type starts and ends its move with the base landed on the ground."""
    return True


@rule("movement/hover-movement", "movement/jump-movement")
def counts_as_on_the_ground(movement_type: MovementType) -> Any:
    """Whether a model counts as on the ground for special rules about the ground (an acid pit): hover does not."""
    return movement_type != MovementType.HOVER


# -- Unit coherency ----------------------------------------------------------------------------------------------------


@rule("movement/unit-coherency")
def coherency_range(all_models_have_skirmish: Any = False) -> Any:
    """The unit coherency range: 1 5/8" by this chapter; 3" for a unit of only Skirmish models (usr/skirmish)."""
    return If(all_models_have_skirmish, SKIRMISH_COHERENCY_RANGE, _exact(COHERENCY_RANGE, all_models_have_skirmish))


@rule("movement/unit-coherency")
def neighbours_required(unit_size: Any) -> Any:
    """How many other models every model of a unit must be within coherency range of (the bullets stacked): one;
    two in a unit of more than 7 (and for the three models excused from three in a unit of more than 12)."""
    return If(unit_size > TWO_NEIGHBOURS_ABOVE, 2, If(unit_size > 1, 1, 0))


@rule("movement/unit-coherency")
def in_coherency(neighbours: Sequence[int], greatest_spread: Any) -> bool:
    """Whether a unit is in coherency, given for each model how many others are within coherency range of it and
    the greatest distance between two of its models: every model has the neighbours its unit's size requires, in a
    unit of more than 12 all but three models have at least three, and none is more than 12" from the farthest."""
    size = len(neighbours)
    if any(count < neighbours_required(size) for count in neighbours):
        return False
    if size > THREE_NEIGHBOURS_ABOVE and sum(1 for count in neighbours if count < 3) > EXEMPT_FROM_THREE:
        return False
    return greatest_spread <= MAX_SPREAD


@rule("movement/unit-coherency")
def coherency_call(inches_to_nearest: Any, skirmish: Any = False) -> tuple[Any, Any, Any]:
    """The outcome of the opponent calling a questionable model: (move it back, the unit's hit modifier for the
    turn, whether the opponent may make further calls this turn). Outside range: back, -1 to hit, calls go on;
    within range: nothing, and no more calls this turn."""
    outside = inches_to_nearest > coherency_range(skirmish)
    return outside, If(outside, CALLED_OUT_HIT_PENALTY, 0), outside


@rule("movement/split-levels")
def split_level_coherent(vertical_gap: Any, horizontal_distance: Any, skirmish: Any = False) -> Any:
    """Whether two models on different levels are in coherency: a single level apart by less than 5", and within
    coherency range horizontally."""
    return And(vertical_gap < SPLIT_LEVEL_LIMIT, horizontal_distance <= coherency_range(skirmish))


@rule("movement/separated-models")
def may_shoot_or_charge(coherent_at_phase_start: Any) -> Any:
    """A unit that is not in coherency at the start of the phase cannot shoot or declare charges."""
    return coherent_at_phase_start


@rule("movement/separated-models")
def counts_as_shaken(coherent_at_phase_start: Any) -> Any:
    """A unit out of coherency counts as shaken (see the Morale chapter)."""
    return Not(coherent_at_phase_start)


@rule("movement/cant-reach")
def may_enter_feature(fits: Any) -> Any:
    """A model cannot move into or through a terrain feature where it cannot reasonably fit (pose aside)."""
    return fits


@rule("movement/cant-reach")
def cramped_characteristics(move: Any, weapon_skill: Any, initiative: Any, cramped: Any) -> tuple[Any, Any, Any]:
    """A model that only fits with its mobility limited (crouching under a low ceiling) has -1 move, WS and I."""
    penalty = If(cramped, CRAMPED_PENALTY, 0)
    return move + penalty, weapon_skill + penalty, initiative + penalty
