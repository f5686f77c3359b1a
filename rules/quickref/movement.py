"""The sheet's Movement phase: the move options, moving over terrain, flying, Advance, Fall Back and the
Desperate Escape test, and the Reinforcements step with Reserves and Strategic Reserves.

Distances are whole inches between the closest points of two models (or of a model and a battlefield edge).
"""

from __future__ import annotations

import enum
from typing import Any

from rules.logic import And, If, Not, Or
from rules.registry import ruleset_rule

rule = ruleset_rule("quickref")


class Move(enum.IntEnum):
    """The moves the sheet names."""

    REMAIN_STATIONARY = 0
    NORMAL = 1
    ADVANCE = 2
    FALL_BACK = 3
    CHARGE = 4


class Activity(enum.IntEnum):
    """What a move can forbid for the rest of the turn."""

    SHOOT = 0
    CHARGE = 1


class TerrainPassage(enum.IntEnum):
    """How a model gets past a piece of terrain."""

    FREELY = 1  # moved over as if it were not there
    CLIMB = 2  # climbed up and down, the climb counted in inches


# 1. Move -------------------------------------------------------------------------------------------------------


@rule("movement/move-unengaged", "movement/move-engaged")
def may_make_move(move: Any, engaged: Any) -> Any:
    """EITHER a Normal Move, Advance or Remain Stationary, OR within enemy Engagement Range a Fall Back or Remain
    Stationary."""
    unengaged_options = Or(move == Move.NORMAL, move == Move.ADVANCE, move == Move.REMAIN_STATIONARY)
    engaged_options = Or(move == Move.FALL_BACK, move == Move.REMAIN_STATIONARY)
    return If(engaged, engaged_options, unengaged_options)


# Moving over terrain --------------------------------------------------------------------------------------------

FREE_HEIGHT = 2


@rule("movement/terrain-low", "movement/terrain-tall")
def terrain_passage(height: Any) -> Any:
    """Terrain 2" or less high is moved over freely; taller terrain is climbed up and down, the climb measured."""
    return If(height <= FREE_HEIGHT, TerrainPassage.FREELY, TerrainPassage.CLIMB)


def must_climb(height: Any, category: Any, infantry: Any) -> Any:
    """Whether the model must climb the terrain (the comparison's question; the sheet asks only its height)."""
    return terrain_passage(height) == TerrainPassage.CLIMB


# Flying ---------------------------------------------------------------------------------------------------------


def _flying_move(move: Any) -> Any:
    return Or(move == Move.NORMAL, move == Move.ADVANCE, move == Move.FALL_BACK)


@rule("movement/fly-over-enemy")
def may_move_over_enemy_models(fly: Any, move: Any) -> Any:
    """Flying models move over enemy models in a Normal Move, Advance or Fall Back move."""
    return And(fly, _flying_move(move))


@rule("movement/fly-over-enemy")
def distance_over_enemy_models(fly: Any, move: Any, maximum: Any) -> Any:
    """How far a model may move while moving over enemy models (0: it may not): the move's whole maximum, since
    the sheet takes nothing off for flying."""
    return If(may_move_over_enemy_models(fly, move), maximum, 0)


@rule("movement/fly-through-air")
def climb_counts_when_flying(starts_or_ends_on_terrain: Any) -> Any:
    """Whether a flying model's move counts the height it climbs: measured through the air when the move starts or
    ends on a terrain feature, so the rise is part of the distance.

    Interpretation: quickref-through-the-air.
    """
    return starts_or_ends_on_terrain


# Advance --------------------------------------------------------------------------------------------------------


@rule("movement/advance-distance")
def advance_distance(m: Any, advance_roll: Any) -> Any:
    """An Advance moves up to M plus the D6 Advance roll, in inches."""
    return m + advance_roll


@rule("movement/advance-not-engaged")
def advance_path_allowed(passes_within_engagement_range: Any, ends_within_engagement_range: Any) -> Any:
    """An Advancing model cannot move within Engagement Range of enemy models at any point of the move.

    Interpretation: quickref-move-within-means-any-point.
    """
    return And(Not(passes_within_engagement_range), Not(ends_within_engagement_range))


@rule("movement/advance-no-shoot-or-charge")
def allowed_after_advance(activity: Any) -> Any:
    """A unit that Advanced cannot shoot or charge this turn (ASSAULT weapons aside, usr/assault)."""
    return And(activity != Activity.SHOOT, activity != Activity.CHARGE)


# Fall Back ------------------------------------------------------------------------------------------------------


@rule("movement/fall-back-distance")
def fall_back_distance(m: Any) -> Any:
    """A Fall Back move is up to M inches."""
    return m


@rule("movement/fall-back-no-shoot-or-charge")
def allowed_after_fall_back(activity: Any) -> Any:
    """A unit that Fell Back cannot shoot or charge this turn."""
    return And(activity != Activity.SHOOT, activity != Activity.CHARGE)


@rule("movement/desperate-escape-who")
def desperate_escape_tests(models: Any, moving_over_enemy: Any, battle_shocked: Any, fly: Any) -> Any:
    """How many Desperate Escape tests a Falling Back unit takes: one per model that moves over enemy models
    (FLY and TITANIC models excepted), or one per model if the unit is Battle-shocked."""
    return If(battle_shocked, models, If(fly, 0, moving_over_enemy))


DESPERATE_ESCAPE_FAILS = (1, 2)


@rule("movement/desperate-escape-test")
def desperate_escape_models_destroyed(roll: Any) -> Any:
    """A Desperate Escape test destroys one model of the unit (its player's choice) on a roll of 1-2."""
    return If(And(roll >= DESPERATE_ESCAPE_FAILS[0], roll <= DESPERATE_ESCAPE_FAILS[1]), 1, 0)


def models_destroyed_by_test(roll: Any, w: Any, monster_or_vehicle: Any) -> Any:
    """One test against a unit of models with ``w`` wounds each (the comparison's question)."""
    return desperate_escape_models_destroyed(roll)


# 2. Reinforcements, Reserves and Strategic Reserves --------------------------------------------------------------


@rule("reserves/reinforcements")
def may_set_up_reserves_unit(units_still_to_move: Any) -> Any:
    """Reserves units are set up in the Reinforcements step, after step 1 (Move): not while units are still to
    make their moves; then as many as the player wants, one at a time."""
    return Not(units_still_to_move)


@rule("reserves/definition")
def is_reserves_unit(starts_battle_on_battlefield: Any) -> Any:
    """A Reserves unit is one that starts the battle somewhere other than the battlefield."""
    return Not(starts_battle_on_battlefield)


@rule("reserves/horizontal-distances")
def far_enough_when_set_up(horizontal: Any, vertical: Any, inches: Any) -> Any:
    """A distance a Reserves unit must keep from enemy models is measured horizontally (height plays no part)."""
    return horizontal > inches


@rule("reserves/normal-move")
def counts_as_normal_move(set_up_from_reserves_this_turn: Any) -> Any:
    """A unit set up from Reserves counts as having made a Normal Move that turn."""
    return set_up_from_reserves_this_turn


LAST_BATTLE_ROUND = 5  # the sheet says "the end of the battle"; the missions it goes with last five rounds


@rule("reserves/destroyed-at-end")
def destroyed_if_not_arrived(battle_round_ended: Any, last_battle_round: Any = LAST_BATTLE_ROUND) -> Any:
    """A Reserves unit not set up on the battlefield by the end of the battle counts as destroyed (so by the end of
    battle round ``battle_round_ended`` only if that was the last one)."""
    return battle_round_ended >= last_battle_round


STRATEGIC_RESERVES_SHARE = 4  # at most a quarter: 25%


@rule("strategic-reserves/limit")
def strategic_reserves_allowed(reserves_points: Any, army_points: Any, fortification: Any) -> Any:
    """Strategic Reserves cannot exceed 25% of the army's total points value nor include Fortifications."""
    return And(STRATEGIC_RESERVES_SHARE * reserves_points <= army_points, Not(fortification))


FIRST_ARRIVAL_ROUND = 2


@rule("strategic-reserves/arrival-round")
def strategic_reserves_may_arrive(battle_round: Any) -> Any:
    """Strategic Reserves arrive in the Reinforcements step from battle round 2 onwards."""
    return battle_round >= FIRST_ARRIVAL_ROUND


EDGE_DISTANCE = 6


@rule("strategic-reserves/round-2", "strategic-reserves/round-3")
def strategic_reserves_position_allowed(battle_round: Any, wholly_within_6_of_edge: Any,
                                        in_enemy_deployment_zone: Any) -> Any:
    """Set up wholly within 6" of a battlefield edge; in battle round 2 also not in the enemy deployment zone."""
    return And(wholly_within_6_of_edge, Or(battle_round >= 3, Not(in_enemy_deployment_zone)))


ENEMY_DISTANCE = 9


@rule("strategic-reserves/enemy-distance")
def far_enough_from_enemy_models(distance: Any) -> Any:
    """Strategic Reserves cannot be set up within 9" of enemy models: more than 9" away.

    Interpretation: quickref-within-is-inclusive.
    """
    return distance > ENEMY_DISTANCE
