"""The earlier edition's Shooting phase (002's reprint; 003, the web page, prints the same text with a three-case
Look Out, Sir and an example for Blast and multiple dice): which units shoot, at what, how many attacks, the five
ranged weapon types and Blast weapons.
"""

from __future__ import annotations

from typing import Any

from rules.logic import And, If, Max, Not, Or
from rules.registry import ruleset_rule

rule = ruleset_rule("ninth")

HIT_PENALTY = -1  # every type's and Big Guns Never Tire's "subtract 1 from the hit rolls"
LOOK_OUT_SIR_MAX_WOUNDS = 9  # CHARACTER models "with a Wounds characteristic of 9 or less"
BLAST_SOME_MODELS = 6  # "a unit that has between 6 and 10 models"
BLAST_MANY_MODELS = 11  # "a unit that has 11 or more models"
BLAST_MINIMUM = 3  # "a minimum of 3 attacks"


@rule("shooting-phase", "shooting-phase/ranged-weapon-types/assault")
def eligible_to_shoot(has_ranged_weapons: Any, advanced: Any, fell_back: Any, titanic: Any = False,
                      has_assault_weapons: Any = False) -> Any:
    """Whether a unit is eligible to shoot: it has a model with a ranged weapon, it did not Advance (unless it has
    Assault weapons) and did not Fall Back (unless it is TITANIC)."""
    return And(has_ranged_weapons, Or(Not(advanced), has_assault_weapons), Or(Not(fell_back), titanic))


@rule("shooting-phase")
def may_select_to_shoot(eligible: Any, already_shot_this_phase: Any) -> Any:
    """No unit is selected to shoot more than once in a Shooting phase."""
    return And(eligible, Not(already_shot_this_phase))


@rule("shooting-phase/select-targets")
def target_allowed(enemy: Any, a_model_visible: Any, a_model_within_range: Any) -> Any:
    """A weapon may target a unit only if it is an enemy unit with at least one model within the weapon's range and
    visible to the shooting model."""
    return And(enemy, a_model_visible, a_model_within_range)


@rule("shooting-phase/select-targets")
def attacks_still_made(target_was_allowed_when_selected: Any, a_model_still_visible_and_in_range: Any) -> Any:
    """A weapon's attacks go against its target once it was rightly selected, even if no model of it is still
    visible or in range when they are resolved."""
    return target_was_allowed_when_selected


@rule("shooting-phase/locked-in-combat", "shooting-phase/big-guns-never-tire",
      "shooting-phase/ranged-weapon-types/pistol")
def may_make_ranged_attacks(unit_within_engagement_range: Any, vehicle_or_monster: Any, pistol: Any) -> Any:
    """Whether a model may shoot a ranged weapon: not while its unit is within Engagement Range of enemy units,
    unless it is a VEHICLE or MONSTER (Big Guns Never Tire) or the weapon is a Pistol."""
    return Or(Not(unit_within_engagement_range), vehicle_or_monster, pistol)


@rule("shooting-phase/locked-in-combat", "shooting-phase/big-guns-never-tire",
      "shooting-phase/ranged-weapon-types/pistol")
def may_target_engaged_unit(target_within_engagement_range_of_friendly_units: Any, shooter_engaged: Any,
                            target_within_engagement_range_of_shooter: Any, vehicle_or_monster: Any,
                            pistol: Any) -> Any:
    """Whether a ranged attack may target this enemy unit as far as Engagement Range goes: a shooter within
    Engagement Range (a VEHICLE, a MONSTER or a Pistol) must target a unit within its unit's Engagement Range, and
    may then do so even if friendly units are too; otherwise no unit within Engagement Range of friendly units."""
    big_gun_or_pistol = Or(vehicle_or_monster, pistol)
    return If(shooter_engaged, And(big_gun_or_pistol, target_within_engagement_range_of_shooter),
              Not(target_within_engagement_range_of_friendly_units))


@rule("shooting-phase/number-of-attacks")
def attacks_of_weapon(number_after_type: Any) -> Any:
    """The attacks one model makes with a ranged weapon: the number written after its type ('Heavy 3': three)."""
    return number_after_type


@rule("shooting-phase/big-guns-never-tire")
def big_guns_hit_modifier(vehicle_or_monster: Any, heavy: Any, enemy_within_engagement_range: Any) -> Any:
    """-1 to hit for a VEHICLE or MONSTER model shooting a Heavy weapon while enemy units are within Engagement
    Range of its unit."""
    return If(And(vehicle_or_monster, heavy, enemy_within_engagement_range), HIT_PENALTY, 0)


@rule("shooting-phase/look-out-sir")
def look_out_sir_protects(character_wounds: Any, near_other_vehicle_or_monster_unit: Any,
                          near_other_unit_of_three_or_more: Any) -> Any:
    """002's Look Out, Sir: a unit with a CHARACTER of 9 or fewer Wounds is protected while within 3" of any other
    friendly VEHICLE or MONSTER unit, or of any other friendly unit of 3 or more models.

    Interpretation: reprint-is-the-primary-printing.
    """
    return And(character_wounds <= LOOK_OUT_SIR_MAX_WOUNDS,
               Or(near_other_vehicle_or_monster_unit, near_other_unit_of_three_or_more))


@rule("shooting-phase/look-out-sir")
def look_out_sir_protects_web(character_wounds: Any, near_vehicle_or_monster_of_ten_wounds: Any,
                              near_non_character_vehicle_or_monster_unit: Any,
                              near_non_character_unit_of_three_or_more: Any) -> Any:
    """003's Look Out, Sir (three cases): within 3" of a friendly unit with a VEHICLE or MONSTER model of 10 or more
    Wounds, of a friendly non-CHARACTER unit with a VEHICLE or MONSTER model, or of a friendly non-CHARACTER unit
    of 3 or more models. The code follows 002 (finding look-out-sir-printings-differ)."""
    return And(character_wounds <= LOOK_OUT_SIR_MAX_WOUNDS,
               Or(near_vehicle_or_monster_of_ten_wounds, near_non_character_vehicle_or_monster_unit,
                  near_non_character_unit_of_three_or_more))


@rule("shooting-phase/look-out-sir")
def may_target_character_unit(protected: Any, visible: Any, closest_enemy_unit: Any) -> Any:
    """A protected CHARACTER unit may still be targeted when it is visible to the firing model and the closest enemy
    unit to it (other enemy CHARACTERs of 9 or fewer Wounds ignored when judging the closest)."""
    return Or(Not(protected), And(visible, closest_enemy_unit))


@rule("shooting-phase/ranged-weapon-types/assault")
def weapon_may_shoot_after_advancing(assault: Any) -> Any:
    """A unit that Advanced resolves attacks with its Assault weapons only."""
    return assault


@rule("shooting-phase/ranged-weapon-types/assault")
def assault_hit_modifier(assault: Any, advanced: Any) -> Any:
    """-1 to hit for an Assault weapon shot in a turn its unit Advanced."""
    return If(And(assault, advanced), HIT_PENALTY, 0)


@rule("shooting-phase/ranged-weapon-types/heavy")
def heavy_hit_modifier(heavy: Any, infantry: Any, unit_moved: Any) -> Any:
    """-1 to hit for a Heavy weapon shot by an INFANTRY model whose unit moved for any reason this turn."""
    return If(And(heavy, infantry, unit_moved), HIT_PENALTY, 0)


@rule("shooting-phase/ranged-weapon-types/rapid-fire")
def rapid_fire_attacks(attacks: Any, target_within_half_range: Any) -> Any:
    """A Rapid Fire weapon's attacks: doubled when the target is within half the weapon's range (after Blast).

    Interpretation: ninth-blast-before-rapid-fire.
    """
    return If(target_within_half_range, 2 * attacks, attacks)


@rule("shooting-phase/ranged-weapon-types/grenade")
def grenades_allowed(models_using_grenades: Any, grenade_model_shoots_other_weapons: Any = False) -> Any:
    """When a unit shoots, one model at most resolves attacks with a Grenade, and instead of its other weapons."""
    return And(models_using_grenades <= 1, Not(grenade_model_shoots_other_weapons))


@rule("shooting-phase/ranged-weapon-types/pistol")
def may_shoot_together(pistol: Any, other_type: Any) -> Any:
    """A model fires its Pistols or its other ranged weapons, never both in one shooting."""
    return Not(And(pistol, other_type))


@rule("shooting-phase/blast-weapons")
def blast_attacks(rolled: Any, maximum: Any, models_in_target: Any) -> Any:
    """A Blast weapon's attacks against a unit: the most it can make against 11 or more models (no roll), at least
    3 against 6 to 10 models, else what was rolled.

    Interpretation: ninth-blast-minimum-whatever-the-attacks.
    """
    return If(models_in_target >= BLAST_MANY_MODELS, maximum,
              If(models_in_target >= BLAST_SOME_MODELS, Max(rolled, BLAST_MINIMUM), rolled))


@rule("shooting-phase/blast-weapons")
def blast_may_attack(target_within_engagement_range_of_firing_unit: Any) -> Any:
    """A Blast weapon never attacks a unit within Engagement Range of the firing model's unit (Pistol, VEHICLE or
    MONSTER notwithstanding)."""
    return Not(target_within_engagement_range_of_firing_unit)
