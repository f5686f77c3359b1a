"""The sheet's Shooting phase: who may shoot and at what, the hit, wound and save rolls, allocating attacks,
damage, and the Benefit of Cover. The Fight phase resolves its attacks with the same rolls (WS for BS).
"""

from __future__ import annotations

import enum
from typing import Any

from rules.logic import And, Clamp, DecisionTable, If, Min, Not, Or, Row, Var
from rules.quickref.movement import Move
from rules.registry import ruleset_rule

rule = ruleset_rule("quickref")


# 1. Select eligible unit ---------------------------------------------------------------------------------------


@rule("shooting/eligible-by-movement")
def eligible_to_shoot_after(move: Any) -> Any:
    """Eligible to shoot by its movement this turn: not after an Advance or a Fall Back (ASSAULT aside)."""
    return And(move != Move.ADVANCE, move != Move.FALL_BACK)


@rule("shooting/not-while-engaged")
def may_shoot(engaged: Any) -> Any:
    """A unit cannot shoot while within Engagement Range of enemy units (Big guns and Pistols aside)."""
    return Not(engaged)


@rule("shooting/not-at-engaged-targets")
def may_target(target_within_engagement_range_of_friendly: Any) -> Any:
    """A unit cannot shoot at targets within Engagement Range of friendly units (Big guns aside)."""
    return Not(target_within_engagement_range_of_friendly)


class BigGunsSituation(enum.IntEnum):
    """Where Big guns never tire applies."""

    ENGAGED_SHOOTER_AT_ITS_FOE = 1  # an engaged MONSTER/VEHICLE shoots a unit it is engaged with
    ENGAGED_SHOOTER_AT_ANOTHER = 2  # an engaged MONSTER/VEHICLE shoots an unengaged unit
    AT_ENGAGED_MONSTER = 3  # an unengaged unit shoots an enemy MONSTER/VEHICLE engaged with its friends


BIG_GUNS_PENALTY = -1


@rule("shooting/big-guns")
def big_guns_hit_modifier(situation: Any, pistol: Any) -> Any:
    """Big guns never tire: MONSTER and VEHICLE units shoot and are shot within Engagement Range, each such ranged
    attack at -1 to hit unless it is made with a Pistol."""
    engaged_shooting = Or(situation == BigGunsSituation.ENGAGED_SHOOTER_AT_ITS_FOE,
                          situation == BigGunsSituation.ENGAGED_SHOOTER_AT_ANOTHER,
                          situation == BigGunsSituation.AT_ENGAGED_MONSTER)
    return If(And(engaged_shooting, Not(pistol)), BIG_GUNS_PENALTY, 0)


# 2. Select targets ---------------------------------------------------------------------------------------------


@rule("shooting/targets-before-attacks")
def may_select_new_target_while_attacking(unused_against_same_unit: Any, unresolved_against_other_unit: Any) -> Any:
    """Targets for all of a unit's ranged weapons are chosen before its attacks: none is chosen once they begin."""
    return False


@rule("shooting/visible-and-in-range")
def target_allowed(visible: Any, within_range: Any) -> Any:
    """A target needs a model visible to the attacking model and within the weapon's range."""
    return And(visible, within_range)


@rule("shooting/weapons-at-different-targets", "shooting/models-at-different-targets")
def may_shoot_two_targets(first_target_allowed: Any, second_target_allowed: Any) -> Any:
    """A model's ranged weapons, and the models of a unit, can shoot at different targets, each one a target it
    may shoot at."""
    return And(first_target_allowed, second_target_allowed)


@rule("shooting/one-target-per-weapon")
def ranged_weapon_targets_allowed(targets: Any) -> Any:
    """The attacks of one ranged weapon cannot be split across several targets: exactly one target."""
    return targets == 1


# 3. Make ranged attacks ----------------------------------------------------------------------------------------


@rule("shooting/hit-roll", "fight/make-attacks")
def hit(roll: Any, skill: Any) -> Any:
    """A hit roll (one D6 per attack) hits when it equals or beats the BS (the WS in the Fight phase)."""
    return roll >= skill


WOUND_TABLE = DecisionTable(
    name="quickref-strength-vs-toughness",
    refs=("shooting/wound-roll",),
    inputs=(Var("strength", 1, 30), Var("toughness", 1, 30)),
    # Bands, as in the Core Rules' own table: LESS means less than but more than half.
    rows=(
        Row("Strength is TWICE (or more than twice) the Toughness.: 2+",
            lambda strength, toughness: strength >= 2 * toughness, 2),
        Row("Strength is GREATER than the Toughness.: 3+",
            lambda strength, toughness: And(strength > toughness, strength < 2 * toughness), 3),
        Row("Strength is EQUAL to the Toughness.: 4+", lambda strength, toughness: strength == toughness, 4),
        Row("Strength is LESS than the Toughness.: 5+",
            lambda strength, toughness: And(strength < toughness, 2 * strength > toughness), 5),
        Row("Strength is HALF (or less than half) the Toughness.: 6+",
            lambda strength, toughness: 2 * strength <= toughness, 6),
    ),
)


@rule("shooting/wound-roll")
def wound_roll_needed(strength: Any, toughness: Any) -> Any:
    """The wound roll a hit needs (one D6 per hit), from the weapon's S against the target's T: 2+ to 6+.

    Interpretation: quickref-strength-vs-toughness-bands.
    """
    return WOUND_TABLE(strength=strength, toughness=toughness)


class Roll(enum.IntEnum):
    HIT = 1
    WOUND = 2


@rule("shooting/fast-rolling")
def roll_together(same_skill_strength_ap_damage: Any, same_range_and_attacks: Any, same_abilities: Any,
                  same_target: Any) -> Any:
    """Fast rolling: weapons with the same profile (every characteristic), abilities and target roll together."""
    return And(same_skill_strength_ap_damage, same_range_and_attacks, same_abilities, same_target)


CRITICAL_ROLL = 6


@rule("shooting/critical", "usr/critical-hits", "usr/critical-wounds")
def critical(roll: Any) -> Any:
    """A Critical Hit or Wound: an unmodified Hit or Wound roll of 6, which always succeeds."""
    return roll == CRITICAL_ROLL


@rule("shooting/unmodified-one")
def always_fails(roll: Any) -> Any:
    """An unmodified Hit or Wound roll of 1 always fails."""
    return roll == 1


@rule("shooting/modifier-cap")
def capped_modifier(total: Any) -> Any:
    """A Hit or Wound roll is never modified by more than -1 or +1."""
    return Clamp(total, -1, 1)


def roll_succeeds(kind: Any, roll: Any, modifier: Any, needed: Any) -> Any:
    """A hit or wound roll, unmodified 6s and 1s first, then the capped modifier against the number needed."""
    return If(critical(roll), True, If(always_fails(roll), False, roll + capped_modifier(modifier) >= needed))


# 4. Allocate attacks -------------------------------------------------------------------------------------------


@rule("shooting/allocate")
def allocating_player(attacking_player: Any) -> Any:
    """The player controlling the target allocates the attacks, one at a time."""
    return 3 - attacking_player


@rule("shooting/allocate-wounded-first")
def must_allocate_to(lost_wounds: Any, had_attack_allocated_this_phase: Any) -> Any:
    """An attack must go to a model of the target unit that has lost wounds or already had attacks allocated to it
    this phase."""
    return Or(lost_wounds, had_attack_allocated_this_phase)


# 5. Make saves -------------------------------------------------------------------------------------------------


@rule("shooting/saving-throw")
def save_fails(roll: Any, ap: Any, save: Any, modifier: Any = 0) -> Any:
    """A saving throw (D6 modified by AP, and any improvement up to +1) below the model's Save: it suffers the
    attack's damage; an unmodified 1 always fails."""
    return Or(roll == 1, roll + ap + capped_save_improvement(modifier) < save)


@rule("shooting/save-unmodified-one")
def save_always_fails(roll: Any) -> Any:
    """An unmodified saving throw of 1 always fails."""
    return roll == 1


@rule("shooting/save-improvement-cap")
def capped_save_improvement(total: Any) -> Any:
    """A saving throw is never improved by more than +1 (worsening is not capped)."""
    return Min(total, 1)


@rule("shooting/invulnerable-save")
def invulnerable_save_holds(roll: Any, ap: Any, invulnerable: Any) -> Any:
    """An Invulnerable Save ignores the attack's AP: it holds on an unmodified roll equal to or above it."""
    return And(roll != 1, roll >= invulnerable)


@rule("shooting/save-choice")
def attack_saved(roll: Any, ap: Any, save: Any, invulnerable: Any, use_invulnerable: Any) -> Any:
    """The controlling player chooses the Invulnerable Save or the Save characteristic for the saving throw.

    Interpretation: quickref-save-chosen-before-rolling.
    """
    return If(use_invulnerable, invulnerable_save_holds(roll, ap, invulnerable), Not(save_fails(roll, ap, save)))


# 6. Deal damage ------------------------------------------------------------------------------------------------


@rule("shooting/excess-damage-lost")
def models_destroyed_by_attack(damage: Any, w: Any) -> Any:
    """One attack destroys at most one model: damage beyond the model's wounds is lost."""
    return If(damage >= w, 1, 0)


@rule("shooting/mortal-wounds-after")
def mortal_wounds_first(normal_damage_pending: Any) -> Any:
    """Mortal wounds from attacks are applied after all normal damage, even saved damage: never first."""
    return False


@rule("shooting/no-saves-against-mortal-wounds")
def wounds_lost_to_mortal_wound(save_roll: Any) -> Any:
    """No saving throw is made against a mortal wound: each one takes a wound, whatever a save would have rolled."""
    return 1


# Benefit of Cover ----------------------------------------------------------------------------------------------

COVER_SAVE_BONUS = 1


@rule("cover/benefit", "cover/save-3-ap-0", "cover/not-cumulative")
def cover_save_bonus(ranged: Any, instances: Any, save: Any, ap: Any) -> Any:
    """The Benefit of Cover: +1 to armour saving throws against ranged attacks, once however many instances, and
    not for a model with a Save of 3+ or better against an AP 0 attack."""
    return If(And(ranged, instances >= 1, Not(And(save <= 3, ap == 0))), COVER_SAVE_BONUS, 0)


def attack_gets_through(hit_roll: Any, save_roll: Any, skill: Any, save: Any, ap: Any) -> Any:
    """A ranged attack against a unit with the Benefit of Cover (wound roll made): does it hit and go unsaved?"""
    return And(roll_succeeds(Roll.HIT, hit_roll, 0, skill),
               save_fails(save_roll, ap, save, cover_save_bonus(True, 1, save, ap)))


def cover_changes_the_attack(save: Any, ap: Any) -> Any:
    """Whether the Benefit of Cover does anything against this attack."""
    return cover_save_bonus(True, 1, save, ap) != 0


def cover_bonus_for(instances: Any) -> Any:
    """What several instances of the Benefit of Cover are worth, counted as the one characteristic they change."""
    return cover_save_bonus(True, instances, 6, -1)
