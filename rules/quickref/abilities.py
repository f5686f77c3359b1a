"""The sheet's Universal Special Rules (USR), one function per rule it states."""

from __future__ import annotations

import enum
from typing import Any

from rules.logic import And, If, Not, Or
from rules.quickref.movement import Move
from rules.quickref.shooting import Roll, roll_succeeds
from rules.registry import ruleset_rule

rule = ruleset_rule("quickref")

SET_UP_DISTANCE = 9  # Deep Strike, Infiltrators and Scout keep 9" from the enemy
FIVES_COUNTED = 20  # up to 100 models in the target unit


def fives(models: Any) -> Any:
    """How many whole fives of models (rounding down), as a sum of thresholds so both backends agree."""
    count: Any = 0
    for k in range(1, FIVES_COUNTED + 1):
        count = count + If(models >= 5 * k, 1, 0)
    return count


@rule("usr/anti")
def anti_critical_wound(roll: Any, x: Any, target_has_keyword: Any) -> Any:
    """ANTI-KEYWORD X+: against the named unit type an unmodified Wound roll of X+ is a CRITICAL WOUND (else a 6)."""
    return If(target_has_keyword, roll >= x, roll == 6)


@rule("usr/assault")
def may_shoot_after_advancing(has_assault_weapon: Any) -> Any:
    """ASSAULT: the unit can Advance and shoot."""
    return has_assault_weapon


@rule("usr/blast")
def blast(models_in_target: Any, target_within_engagement_range: Any) -> tuple[Any, Any]:
    """(extra attacks, may fire at the target): +1 attack per five models in the target unit (rounding down); never
    fired at a unit within Engagement Range."""
    return fives(models_in_target), Not(target_within_engagement_range)


@rule("usr/conversion")
def conversion_critical_hit(roll: Any, skill: Any, distance: Any, x: Any) -> Any:
    """CONVERSION X: against a target more than X away, an unmodified hit of 4+ that succeeds is a CRITICAL HIT."""
    far = distance > x
    return If(far, And(roll >= 4, roll_succeeds(Roll.HIT, roll, 0, skill)), roll == 6)


DEADLY_DEMISE_RANGE = 6


@rule("usr/deadly-demise")
def deadly_demise_mortal_wounds(roll: Any, x: Any, distance: Any) -> Any:
    """DEADLY DEMISE X: when the model is destroyed, on a D6 roll of 6 each unit within 6" suffers X mortal wounds."""
    return If(And(roll == 6, distance <= DEADLY_DEMISE_RANGE), x, 0)


@rule("usr/deep-strike")
def deep_strike_position_allowed(distance_to_enemy: Any, in_enemy_deployment_zone: Any) -> Any:
    """DEEP STRIKE: set up from Reserves 9" horizontally away from all enemy models (anywhere else).

    Interpretation: quickref-within-is-inclusive.
    """
    return distance_to_enemy > SET_UP_DISTANCE


@rule("usr/desperate-escape")
def desperate_escape_tests(models: Any, moving_over_enemy: Any, battle_shocked: Any, fly: Any) -> Any:
    """DESPERATE ESCAPE: one dice per model in the unit when it Falls Back after a failed Battle-shock test or
    through enemy models (each 1 or 2 removes a model)."""
    return If(Or(battle_shocked, moving_over_enemy > 0), models, 0)


MODELS_COUNTED = 6


@rule("usr/devastating-wounds")
def devastating_mortal_wounds(critical_wound: Any, damage: Any) -> Any:
    """DEVASTATING WOUNDS: a CRITICAL WOUND's damage becomes that many mortal wounds (and the attack sequence ends)."""
    return If(critical_wound, damage, 0)


@rule("usr/devastating-wounds")
def devastating_models_destroyed(critical_wound: Any, damage: Any, w: Any) -> Any:
    """DEVASTATING WOUNDS: a CRITICAL WOUND's damage becomes mortal wounds and the attack sequence ends; the mortal
    wounds are taken model by model (from a unit of up to six models with ``w`` wounds)."""
    mortal = devastating_mortal_wounds(critical_wound, damage)
    destroyed: Any = 0
    for k in range(1, MODELS_COUNTED + 1):
        destroyed = destroyed + If(mortal >= w * k, 1, 0)
    return destroyed


@rule("usr/extra-attacks")
def extra_attacks_selection_allowed(extra_selected: Any, other_selected: Any) -> Any:
    """EXTRA ATTACKS: the bearer can make the weapon's attacks in addition to fighting with one melee weapon."""
    return other_selected == 1


@rule("usr/feel-no-pain")
def wound_not_lost(roll: Any, x: Any) -> Any:
    """FEEL NO PAIN X+: a wound the model would lose is not lost on a D6 result of X or more."""
    return roll >= x


@rule("usr/first-fight")
def fights_first_unit(models_with_ability: Any, models: Any) -> Any:
    """FIRST FIGHT: the unit fights in the Fights First step if every model in it has the ability."""
    return models_with_ability == models


@rule("usr/firing-deck")
def firing_deck_allowed(x: Any, models_firing: Any) -> Any:
    """FIRING DECK X: up to X models embarked on the TRANSPORT fire out."""
    return models_firing <= x


@rule("usr/fly")
def fly_over_enemy_models(move: Any) -> Any:
    """FLY: models move over enemy models in a Normal Move, Advance, Fall Back or Charge move."""
    return Or(move == Move.NORMAL, move == Move.ADVANCE, move == Move.FALL_BACK, move == Move.CHARGE)


@rule("usr/fly")
def fly_distance_over_enemy_models(move: Any, maximum: Any) -> Any:
    """How far a FLY model may move over enemy models (0: not in this move): the move's whole maximum, as FLY
    takes nothing off it."""
    return If(fly_over_enemy_models(move), maximum, 0)


class Bearer(enum.IntEnum):
    """The kind of model carrying a HAZARDOUS weapon."""

    OTHER = 0
    CHARACTER = 1
    MONSTER_OR_VEHICLE = 2


class Hazard(enum.IntEnum):
    """What a failed hazard test does."""

    NOTHING = 0
    MODEL_DESTROYED = 1
    ONE_MORTAL_WOUND = 2
    THREE_MORTAL_WOUNDS = 3


@rule("usr/hazardous")
def hazard_test(roll: Any, bearer: Any) -> Any:
    """HAZARDOUS: a hazard test per weapon used after the unit's attacks; each 1 destroys a bearer, or inflicts 3
    mortal wounds on a CHARACTER, MONSTER or VEHICLE."""
    big = Or(bearer == Bearer.CHARACTER, bearer == Bearer.MONSTER_OR_VEHICLE)
    return If(roll == 1, If(big, Hazard.THREE_MORTAL_WOUNDS, Hazard.MODEL_DESTROYED), Hazard.NOTHING)


@rule("usr/heavy")
def heavy_hit_modifier(moved_inches: Any, set_up_this_turn: Any, engaged: Any) -> Any:
    """HEAVY: +1 to hit when the bearer's unit Remained Stationary (did not move, nor arrive this turn)."""
    return If(And(moved_inches == 0, Not(set_up_this_turn)), 1, 0)


@rule("usr/ignores-cover")
def cover_applies(target_has_cover: Any, ignores_cover: Any) -> Any:
    """IGNORES COVER: the target gets no Benefit of Cover against the attack."""
    return And(target_has_cover, Not(ignores_cover))


INDIRECT_PENALTY = -1


@rule("usr/indirect-fire")
def indirect_fire_hit_modifier(target_visible: Any) -> Any:
    """INDIRECT FIRE at a target that is not visible: -1 to the hit roll."""
    return If(Not(target_visible), INDIRECT_PENALTY, 0)


@rule("usr/indirect-fire")
def indirect_fire(roll: Any, skill: Any, target_visible: Any, stationary_and_spotted: Any) -> tuple[Any, Any]:
    """(hits, target has the Benefit of Cover): INDIRECT FIRE may target models that are not visible; if it does,
    -1 to the hit roll and the target has the Benefit of Cover."""
    return roll_succeeds(Roll.HIT, roll, indirect_fire_hit_modifier(target_visible), skill), Not(target_visible)


@rule("usr/infiltrators")
def infiltrators_position_allowed(distance_to_enemy: Any, distance_to_enemy_zone: Any) -> Any:
    """INFILTRATORS: set up outside your deployment zone, but 9" away from enemy models and the enemy deployment zone.

    Interpretation: quickref-within-is-inclusive.
    """
    return And(distance_to_enemy > SET_UP_DISTANCE, distance_to_enemy_zone > SET_UP_DISTANCE)


@rule("usr/lance")
def lance_wound_modifier(charged_this_turn: Any) -> Any:
    """LANCE: +1 to wound when Charging."""
    return If(charged_this_turn, 1, 0)


@rule("usr/leader")
def leader(leaders_already_attached: Any, bodyguard_models_left: Any) -> tuple[Any, Any]:
    """(may attach this LEADER, attacks may be allocated to the CHARACTER): a Bodyguard unit takes only one LEADER;
    attacks are never allocated to the CHARACTER model of an Attached unit."""
    return leaders_already_attached == 0, False


@rule("usr/lethal-hits")
def wounds_automatically(critical_hit: Any, player_wants_wound_roll: Any) -> Any:
    """LETHAL HITS: a CRITICAL HIT automatically wounds the target (no choice is offered)."""
    return critical_hit


@rule("usr/melta")
def melta_damage_bonus(x: Any, within_half_range: Any) -> Any:
    """MELTA X: +X damage against a target at half range."""
    return If(within_half_range, x, 0)


@rule("usr/one-shot")
def may_fire_one_shot(already_fired_this_battle: Any) -> Any:
    """ONE SHOT: fired once per battle."""
    return Not(already_fired_this_battle)


@rule("usr/pistol")
def pistol(target_engaged_with_unit: Any, other_ranged_weapons_selected: Any,
           monster_or_vehicle: Any) -> tuple[Any, Any]:
    """(may fire at this target, selection allowed) for a unit within Engagement Range firing a PISTOL: it must
    target one of the enemy units it is engaged with, and is not fired alongside non-PISTOL weapons unless the
    model is a MONSTER or VEHICLE."""
    return target_engaged_with_unit, Or(monster_or_vehicle, Not(other_ranged_weapons_selected))


@rule("usr/precision-hits")
def may_allocate_to_character(character_visible: Any, precision: Any) -> Any:
    """PRECISION HITS: attacks can be allocated to a visible CHARACTER model of an Attached unit."""
    return And(precision, character_visible)


@rule("usr/rapid-deployment")
def may_disembark_after_advance(has_rapid_deployment: Any) -> tuple[Any, Any]:
    """(may disembark after its Transport Advanced, may charge afterwards): RAPID DEPLOYMENT lets a unit disembark
    after the model Advanced; it cannot charge."""
    return has_rapid_deployment, False


@rule("usr/rapid-fire")
def rapid_fire_extra_attacks(x: Any, within_half_range: Any) -> Any:
    """RAPID FIRE X: +X attacks against a target within half range."""
    return If(within_half_range, x, 0)


@rule("usr/scout")
def scout_move_allowed(moved: Any, x: Any, distance_to_enemy: Any) -> Any:
    """SCOUT X: a pre-game move of up to X" ending more than 9" horizontally from enemy models."""
    return And(moved <= x, distance_to_enemy > SET_UP_DISTANCE)


STEALTH_PENALTY = -1


@rule("usr/stealth")
def stealth_hit(roll: Any, skill: Any, other_modifier: Any) -> Any:
    """STEALTH: ranged attacks against a unit whose every model has it are -1 to hit (within the -1/+1 cap)."""
    return roll_succeeds(Roll.HIT, roll, other_modifier + STEALTH_PENALTY, skill)


@rule("usr/sustained-hits")
def sustained_hits(critical_hit: Any, x: Any) -> Any:
    """SUSTAINED HITS X: a CRITICAL HIT scores X additional hits (1 + X in all)."""
    return If(critical_hit, 1 + x, 1)


@rule("usr/torrent")
def hits_automatically(torrent: Any) -> Any:
    """TORRENT: attacks hit automatically."""
    return torrent


@rule("usr/twin-linked")
def may_reroll_wound(first_result_failed: Any) -> Any:
    """TWIN-LINKED: the attack's Wound rolls can be re-rolled, whatever they show."""
    return True
