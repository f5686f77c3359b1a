"""The sheet's Fight phase: the order units fight in, pile-in and consolidation moves, who can fight and how the
attacks are resolved."""

from __future__ import annotations

import enum
from typing import Any

from rules.logic import And, If, Not, Or
from rules.registry import ruleset_rule

rule = ruleset_rule("quickref")

ENGAGEMENT_RANGE = 1  # the sheet's Engagement Range: within 1" horizontally (reference entry)
PILE_IN_DISTANCE = 3
CONSOLIDATION_DISTANCE = 3
OBJECTIVE_RANGE = 3
BASE_CONTACT = 0


class FightStep(enum.IntEnum):
    FIGHTS_FIRST = 1
    REMAINING = 2


class Newcomer(enum.IntEnum):
    """What becomes of a unit an enemy consolidation brings into combat."""

    NOTHING = 0
    MAY_BE_SELECTED = 1  # it can be selected to fight when its player's turn to select comes
    FIGHTS_AT_ONCE = 2


class Consolidation(enum.IntEnum):
    """Where a consolidating unit goes."""

    NONE = 0
    ENEMY = 1
    OBJECTIVE = 2


class NextAttacks(enum.IntEnum):
    """What a unit resolving its attacks does after one weapon's attacks."""

    SAME_UNIT = 1  # attacks against the same unit with another weapon
    NEXT_UNIT = 2
    DONE = 3


@rule("fight/alternate")
def first_to_select(turn_player: Any) -> Any:
    """The player whose turn is not taking place selects first; then the players alternate."""
    return 3 - turn_player


@rule("fight/must-fight")
def must_select_a_unit(has_eligible_unit: Any, every_eligible_unit_more_than_5_from_enemies: Any) -> Any:
    """A player with one or more eligible units must select one of them to fight."""
    return has_eligible_unit


@rule("fight/newly-eligible")
def newcomer_after_enemy_consolidation(already_selected_to_fight: Any) -> Any:
    """A unit made eligible by an enemy unit's Consolidation move can then be selected to fight (in turn)."""
    return If(already_selected_to_fight, Newcomer.NOTHING, Newcomer.MAY_BE_SELECTED)


@rule("fight/fights-first")
def fights_in_fights_first_step(has_fights_first: Any, charged_this_turn: Any) -> Any:
    """Eligible units with Fights First fight first, and so do units that charged this turn."""
    return Or(has_fights_first, charged_this_turn)


@rule("fight/remaining-combats")
def step_after_fight_in_remaining(fights_first_unit_now_eligible: Any) -> Any:
    """Remaining Combats: every other eligible unit fights there, Fights First units that became eligible late
    included, so the sequence stays in Remaining Combats."""
    return FightStep.REMAINING


@rule("fight/pile-in-distance")
def pile_in_allowed(moved: Any) -> Any:
    """A pile-in move is up to 3"."""
    return moved <= PILE_IN_DISTANCE


@rule("fight/consolidation-distance")
def consolidation_allowed(moved: Any) -> Any:
    """A consolidation move is up to 3"."""
    return moved <= CONSOLIDATION_DISTANCE


@rule("fight/pile-in-closer", "fight/consolidate-closer")
def moved_model_end_allowed(ends_closer: Any, can_reach_base_contact: Any, end_distance: Any) -> Any:
    """Each model that moves ends closer to the closest enemy model, and in base-to-base contact if it can."""
    return And(ends_closer, If(can_reach_base_contact, end_distance == BASE_CONTACT, True))


@rule("fight/pile-in-end")
def pile_in_can_end(in_unit_coherency: Any, within_engagement_range_of_an_enemy: Any,
                    every_model_kept_its_engagements: Any) -> Any:
    """A pile-in ends in Unit Coherency and within Engagement Range of at least one enemy unit, or no model piles
    in."""
    return And(in_unit_coherency, within_engagement_range_of_an_enemy)


@rule("fight/who-can-fight")
def model_may_fight(distance_to_enemy: Any, touches_friend_touching_enemy: Any) -> Any:
    """A model fights if it is within Engagement Range of an enemy unit, or in base-to-base contact with a model of
    its unit that is itself in base-to-base contact with an enemy unit."""
    return Or(distance_to_enemy <= ENGAGEMENT_RANGE, touches_friend_touching_enemy)


@rule("fight/one-melee-weapon")
def melee_selection_allowed(weapons_selected: Any) -> Any:
    """Each model that fights uses one of its melee weapons."""
    return weapons_selected == 1


@rule("fight/targets-before-attacks")
def may_select_new_target_while_attacking(unused_against_same_unit: Any, unresolved_against_other_unit: Any) -> Any:
    """Targets for all attacks are selected before any is resolved: none is chosen once they begin."""
    return False


@rule("fight/one-unit-at-a-time")
def next_attacks(unused_against_same_unit: Any, unresolved_against_other_unit: Any) -> Any:
    """All attacks against one unit are resolved before moving on to the next."""
    return If(unused_against_same_unit, NextAttacks.SAME_UNIT,
              If(unresolved_against_other_unit, NextAttacks.NEXT_UNIT, NextAttacks.DONE))


@rule("fight/same-profile-together")
def resolved_together(same_skill_strength_ap_damage: Any, same_attacks: Any, same_abilities: Any) -> Any:
    """Attacks with the same melee weapon profile are resolved together, before those with a different profile."""
    return And(same_skill_strength_ap_damage, same_attacks, same_abilities)


@rule("fight/declared-attacks-stay")
def attacks_stay_on_target(target_still_within_engagement_range: Any) -> Any:
    """Attacks declared against a unit are resolved against it, even if none of its models is still within
    Engagement Range."""
    return True


@rule("fight/consolidate-end")
def consolidation_as_printed(can_end_within_engagement_range: Any) -> Any:
    """The consolidation bullet as printed: the unit ends in Unit Coherency within Engagement Range of an enemy
    unit, or no models move ("(or no models can Pile In)")."""
    return If(can_end_within_engagement_range, Consolidation.ENEMY, Consolidation.NONE)


@rule("fight/consolidate-objective", "fight/consolidate-none")
def consolidation(can_end_within_engagement_range: Any, can_end_within_range_of_objective: Any) -> Any:
    """Where a consolidating unit goes: within Engagement Range of an enemy unit if it can; if not, towards the
    closest objective marker, ending within range of it; if that is not possible either, nowhere.

    Interpretation: quickref-consolidation-fallback.
    """
    return If(can_end_within_engagement_range, Consolidation.ENEMY,
              If(can_end_within_range_of_objective, Consolidation.OBJECTIVE, Consolidation.NONE))


def _reach(enemy_distance: Any, objective_distance: Any) -> tuple[Any, Any]:
    """Whether a 3" consolidation can end within 1" of the enemy, or within 3" of the objective marker."""
    return (enemy_distance <= CONSOLIDATION_DISTANCE + ENGAGEMENT_RANGE,
            objective_distance <= CONSOLIDATION_DISTANCE + OBJECTIVE_RANGE)


def consolidation_as_printed_at(enemy_distance: Any, objective_distance: Any) -> Any:
    """The printed bullet for a unit this far (closest points, inches) from the closest enemy and objective marker."""
    return consolidation_as_printed(_reach(enemy_distance, objective_distance)[0])


def consolidation_at(enemy_distance: Any, objective_distance: Any) -> Any:
    """The three bullets together for a unit this far from the closest enemy and objective marker."""
    return consolidation(*_reach(enemy_distance, objective_distance))


def consolidates_at(enemy_distance: Any, objective_distance: Any) -> Any:
    """Whether the unit consolidates at all."""
    return consolidation_at(enemy_distance, objective_distance) != Consolidation.NONE
