"""Universal Special Rules of 999.m41 (004, lines 4612-5489): each rule that changes an outcome as a small function
of the quantities it reads.

Dice are taken as the unmodified D6 faces the text reads, and thresholds as the "N+" a roll needs, so z3 can prove
things about the very functions. Exact chances (``Fraction``) count the faces of a D6: a roll "needing N+" succeeds
on the faces N to 6. An AP is 1 to 6, 7 standing for "-" (no AP); a save of 7 is no save (no D6 reaches it).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from rules import dice
from rules.logic import And, DecisionTable, If, Max, Min, Not, Or, Row, Var
from rules.registry import ruleset_rule

rule = ruleset_rule("m41")

DEFAULT_TRIGGER = 6  # "rending triggers on a roll of 6", cleave's "default 6+"
NO_SAVE = 7  # a save that no D6 reaches
FEEL_NO_PAIN_DEFAULT = 5  # "The default feel no pain save is 5+"
FEEL_NO_PAIN_BLOCKING_AP = 2  # "AP1 and AP2 weapons"
RENDING_AP = 2  # "the attack counts as AP2"
SMASH_AP = 2  # "A Smash Attack grants AP2"
SMASH_STRENGTH_CAP = 10  # "doubles the model's Strength (to a maximum of 10)"
HAMMER_OF_WRATH_INITIATIVE = 10  # "resolved during the Fight sub-phase at the Initiative 10 step"
LANCE_ARMOUR_CAP = 12  # "counts all armour that is higher than 12 as 12"
JINK_COVER_SAVE = 5  # "gains a 5+ cover save"
SNIPER_WOUND_FLOOR = 4  # "always wound at least on a roll of 4+"
FLESH_BANE_WOUND = 2  # "they always Wound on a 2+"
LOOK_OUT_SIR_ROLL = 4  # "on a d6 roll of 4+"
HIT_AND_RUN_NORMAL_CONSOLIDATE = 3  # "instead of the normal 3”"
UNWIELDY_INITIATIVE_PENALTY = 3  # "a -3 penalty to their initiative"
CONCEALED_RANGE = 12  # "cannot be targeted by ranged attacks outside of 12”"
INFILTRATE_HIDDEN_DISTANCE = 12  # "more than 12” from any enemy unit, as long as no ... line of sight"
INFILTRATE_OPEN_DISTANCE = 15  # "more than 15” from any enemy unit, even in plain sight"
SCOUT_DISTANCE = 12  # "must remain more than 12” away from any enemy"
SKIRMISH_COHERENCY = Fraction(3)  # "a unit coherency range of 3”"
MOVEMENT_COHERENCY = Fraction(13, 8)  # movement: "A unit must be within 1 5/8” of one another" (Skirmish says 1 1/2")
D6_FACES = range(1, 7)


def faces_at_least(needed: Any) -> Any:
    """How many faces of a D6 reach ``needed`` (0 to 6)."""
    total: Any = 0
    for face in D6_FACES:
        total = total + If(face >= needed, 1, 0)
    return total


def chance_at_least(needed: int) -> Fraction:
    """The chance a D6 reaches ``needed``."""
    return Fraction(faces_at_least(needed), 6)


# -- ... on an N+ -------------------------------------------------------------------------------------------------------


@rule("usr/on-an-n-plus", "usr/rending", "usr/cleave")
def special_rule_triggers(roll: Any, trigger_on: Any = DEFAULT_TRIGGER) -> Any:
    """Whether a rule that triggers "on an N+" triggers: the roll reaches N (6 unless the weapon says "rending 5+")."""
    return roll >= trigger_on


# -- Morale: ATSKNF, fear, fearless, iron heart, stubborn, immune to psychology ---------------------------------------


@rule("usr/and-they-shall-know-no-fear")
def rallies_automatically(knows_no_fear: Any) -> Any:
    """ATSKNF units "automatically regroup and rally on the first opportunity"."""
    return knows_no_fear


@rule("usr/and-they-shall-know-no-fear")
def below_half_strength_penalty_applies(below_half_strength: Any, knows_no_fear: Any) -> Any:
    """A unit below half strength suffers the penalty unless it has ATSKNF ("never suffer penalties ...")."""
    return And(below_half_strength, Not(knows_no_fear))


@rule("usr/fear")
def fear_break_test_modifier(enemy_causes_fear: Any, unit_has_knows_no_fear_or_fearless: Any) -> Any:
    """A break test from losing combat against an enemy with Fear is taken at -1, unless the unit contains a model
    with ATSKNF or Fearless (causing Fear itself gives no immunity, so it is no argument)."""
    return If(And(enemy_causes_fear, Not(unit_has_knows_no_fear_or_fearless)), -1, 0)


@rule("usr/fearless")
def flees_after_failed_check(check_failed: Any, fearless: Any, chooses_to_flee: Any = False) -> Any:
    """A failed morale or break check makes a unit flee; a fearless unit fights on unless it flees voluntarily."""
    return And(check_failed, Or(Not(fearless), chooses_to_flee))


@rule("usr/iron-heart")
def iron_heart_may_choose_result(iron_heart: Any, first_break_check_of_the_combat: Any) -> Any:
    """A model with Iron Heart may choose to pass or fail its first break check in a combat (only that one)."""
    return And(iron_heart, first_break_check_of_the_combat)


@rule("usr/iron-heart")
def may_reroll_failed_break_check(iron_heart_character_in_the_combat: Any) -> Any:
    """Units in the same combat as a character with Iron Heart may re-roll failed break checks."""
    return iron_heart_character_in_the_combat


@rule("usr/stubborn")
def stubborn_leadership_modifier(casualty_modifier: Any, stubborn: Any) -> Any:
    """On morale and pinning tests a stubborn unit ignores negative leadership modifiers from heavy casualties."""
    return If(stubborn, Max(casualty_modifier, 0), casualty_modifier)


@rule("usr/stubborn")
def ignores_outnumbered_penalty(stubborn: Any, first_round_of_combat: Any) -> Any:
    """A stubborn unit ignores the penalties for being outnumbered in the first round of a combat only."""
    return And(stubborn, first_round_of_combat)


@rule("usr/immune-to-psychology")
def takes_morale_or_pinning_test(asked_to_take_one: Any, immune_to_psychology: Any) -> Any:
    """Models immune to psychology ignore any morale check or pinning test they are asked to take."""
    return And(asked_to_take_one, Not(immune_to_psychology))


# -- Hitting -----------------------------------------------------------------------------------------------------------


@rule("usr/anti-armour")
def anti_armour_hit_bonus(target_is_vehicle_monstrous_or_bulky: Any, moved_last_movement_phase: Any) -> Any:
    """+1 to hit with an anti armour weapon against a vehicle, monstrous creature or bulky unit, if the firer did
    not move in its last movement phase."""
    return If(And(target_is_vehicle_monstrous_or_bulky, Not(moved_last_movement_phase)), 1, 0)


@rule("usr/deadly")
def deadly_hit_bonus(deadly: Any) -> Any:
    """Deadly: "+1 to hit"."""
    return If(deadly, 1, 0)


@rule("usr/sniper")
def sniper_hit_bonus(sniper: Any) -> Any:
    """Sniper weapons have +1 to hit."""
    return If(sniper, 1, 0)


@rule("usr/hard-to-hit")
def hard_to_hit_penalty(hard_to_hit_sources: Any, ranged_attack: Any = True) -> Any:
    """-1 to hit against a hard to hit model from ranged attacks, from one source only: never more than -1."""
    return If(And(ranged_attack, hard_to_hit_sources > 0), -1, 0)


@rule("usr/open-topped")
def open_topped_hit_bonus(close_combat_attack: Any, target_open_topped: Any) -> Any:
    """Close combat attacks against an open topped vehicle are made at +1 to hit."""
    return If(And(close_combat_attack, target_open_topped), 1, 0)


@rule("usr/blind")
def blind_skill_penalty(initiative_test_failed: Any, has_initiative: Any = True, hit_themselves: Any = False) -> Any:
    """A unit hit by blind that fails its Initiative test has WS and BS reduced by 1 (returned as the reduction);
    models without Initiative are unaffected and an attacker hitting itself passes automatically."""
    return If(And(initiative_test_failed, has_initiative, Not(hit_themselves)), 1, 0)


@rule("usr/cleave")
def cleave_hits(roll: Any, needed: Any, cleave_on: Any = DEFAULT_TRIGGER) -> Any:
    """Hits from one to-hit roll of a cleave weapon: a hit, and an extra hit on a 6 (or the cleave value)."""
    hit = roll >= needed
    return If(hit, 1 + If(special_rule_triggers(roll, cleave_on), 1, 0), 0)


@rule("usr/twin-linked")
def twin_linked_hit_chance(needed: int, may_reroll_failed: bool = False) -> Fraction:
    """Roll to hit twice and use the better: 1-(1-p)^2. It is not a re-roll, so a rule that re-rolls failed hits
    re-rolls the attack "in total", both dice again: 1-(1-p)^4.

    Interpretation: usr-twin-linked-reroll-in-total.
    """
    miss = 1 - chance_at_least(needed)
    rolls = 4 if may_reroll_failed else 2
    return 1 - miss ** rolls


@rule("usr/hatred", "usr/monster-hunter", "usr/shred", "usr/master-crafted")
def reroll_failed_chance(needed: int, may_reroll: bool = True) -> Fraction:
    """The chance of success of a roll needing N+ when failed rolls are re-rolled: p + (1-p)p."""
    p = chance_at_least(needed)
    return p + (1 - p) * p if may_reroll else p


@rule("usr/preferred-enemy")
def preferred_enemy_chance(needed: int) -> Fraction:
    """Preferred enemy re-rolls to hit and to wound rolls of 1: p + p/6 when a 1 fails (p when nothing fails on 1)."""
    p = chance_at_least(needed)
    ones_fail = needed > 1
    return p + Fraction(1, 6) * p if ones_fail else p


@rule("usr/hatred")
def hatred_rerolls_failed_hits(hatred: Any, first_round_of_combat: Any) -> Any:
    """A unit with hatred re-rolls failed to hit rolls in the first round of a combat only."""
    return And(hatred, first_round_of_combat)


@rule("usr/monster-hunter")
def monster_hunter_rerolls_failed_wounds(monster_hunter: Any, target_monstrous_or_flying_monstrous: Any) -> Any:
    """Monster hunter re-rolls failed to wound rolls against (flying) monstrous creatures only."""
    return And(monster_hunter, target_monstrous_or_flying_monstrous)


@rule("usr/master-crafted")
def master_crafted_rerolls(master_crafted: Any) -> Any:
    """A master crafted weapon allows one re-roll, to hit or to wound."""
    return If(master_crafted, 1, 0)


# -- Gets Hot! --------------------------------------------------------------------------------------------------------


@rule("usr/gets-hot", "usr/gets-hot/re-rolls", "usr/gets-hot/blast-weapons")
def gets_hot_wound(first_roll: Any, mounted_on_vehicle: Any = False) -> Any:
    """Whether firing a Gets Hot! weapon wounds its bearer: the first roll (the to-hit roll, or a blast's extra d6)
    is a 1 and the weapon is not on a vehicle; a re-rolled 1 does not count."""
    return And(first_roll == 1, Not(mounted_on_vehicle))


@rule("usr/gets-hot/re-rolls")
def gets_hot_chance(may_reroll: bool = False) -> Fraction:
    """The chance one shot gets hot: 1/6, re-roll or not, since only the first roll counts."""
    return Fraction(sum(1 for face in D6_FACES if gets_hot_wound(face)), 6)


# -- Wounding ----------------------------------------------------------------------------------------------------------


@rule("usr/flesh-bane")
def flesh_bane_wound_needed(needed: Any, target_vehicle_or_building: Any) -> Any:
    """Flesh bane always wounds on a 2+, except against vehicles and buildings (then the normal roll)."""
    return If(target_vehicle_or_building, needed, FLESH_BANE_WOUND)


@rule("usr/sniper")
def sniper_wound_needed(needed: Any) -> Any:
    """Sniper wounds on 4+ at worst, or better if the Strength would give a better chance."""
    return Min(needed, SNIPER_WOUND_FLOOR)


@rule("usr/wicked")
def wicked_wound_bonus(wicked: Any) -> Any:
    """Wicked: +1 to wound."""
    return If(wicked, 1, 0)


@rule("usr/rending")
def rending_auto_wounds(roll: Any, rending_on: Any = DEFAULT_TRIGGER) -> Any:
    """A to-wound roll of 6 (or the rending value) with a rending weapon wounds whatever the Toughness, at AP2."""
    return special_rule_triggers(roll, rending_on)


@rule("usr/rending")
def rending_ap(roll: Any, ap: Any, rending_on: Any = DEFAULT_TRIGGER) -> Any:
    """The AP of a rending wound: AP2 when it rends (or the weapon's own AP if that is better)."""
    return If(rending_auto_wounds(roll, rending_on), Min(ap, RENDING_AP), ap)


@rule("usr/poisoned")
def poisoned_ranged_wound_needed(needed: Any, poison: Any) -> Any:
    """A ranged poisoned attack never needs worse than the poison value to wound."""
    return Min(needed, poison)


@rule("usr/poisoned", "usr/poison-immunity")
def poisoned_wound_chance(needed: int, poison: int, melee: bool, target_immune: bool = False) -> Fraction:
    """The chance a poisoned attack wounds. Ranged: one roll needing min(normal, poison). Melee: the first roll at
    the normal Strength, failures re-rolled needing the poison value. Against poison immunity: no poison benefit,
    and a success must be re-rolled (p*p)."""
    if target_immune:
        p = chance_at_least(needed)
        return p * p
    if not melee:
        return chance_at_least(poisoned_ranged_wound_needed(needed, poison))
    first = chance_at_least(needed)
    return first + (1 - first) * chance_at_least(poison)


# -- Saves -------------------------------------------------------------------------------------------------------------


@rule("usr/feel-no-pain")
def feel_no_pain_allowed(ap: Any, overpower: Any = False, instant_death: Any = False,
                         no_armour_save_ever: Any = False) -> Any:
    """Feel no pain cannot be used against overpower, instant death, AP1 and AP2, or wounds no armour save can ever
    be taken against (power weapons, rending 6s, perils, dangerous terrain)."""
    return And(Not(overpower), Not(instant_death), Not(no_armour_save_ever),
               Not(And(ap >= 1, ap <= FEEL_NO_PAIN_BLOCKING_AP)))


@rule("usr/feel-no-pain")
def feel_no_pain_saves(roll: Any, ap: Any, feel_no_pain: Any = FEEL_NO_PAIN_DEFAULT, overpower: Any = False,
                       instant_death: Any = False, no_armour_save_ever: Any = False) -> Any:
    """Whether feel no pain ignores a wound: it may be used, and the roll reaches the save at face value (5+)."""
    return And(feel_no_pain_allowed(ap, overpower, instant_death, no_armour_save_ever), roll >= feel_no_pain)


@rule("usr/bulky", "usr/small-targets", "usr/stealth", "usr/sniper", "usr/ignores-cover")
def cover_save_needed(cover_save: Any, bulky: Any = False, small_targets: Any = False, stealth: Any = False,
                      sniper: Any = False, ignores_cover_minus_one: Any = False) -> Any:
    """The cover save after the rules that change it: bulky, sniper and "ignores cover -1" each worsen it by 1,
    small targets and stealth each improve it by 1 (a change of 1 on the N+ needed)."""
    worse = If(bulky, 1, 0) + If(sniper, 1, 0) + If(ignores_cover_minus_one, 1, 0)
    better = If(small_targets, 1, 0) + If(stealth, 1, 0)
    return cover_save + worse - better


@rule("usr/ignores-cover")
def cover_save_allowed(ignores_cover: Any) -> Any:
    """No cover save may be made against a weapon that ignores cover (the -1 variant is a penalty instead)."""
    return Not(ignores_cover)


@rule("usr/sunder")
def sunder_save_modifier(sunder: Any) -> Any:
    """Saving throws against a weapon with sunder are at -1."""
    return If(sunder, -1, 0)


@rule("usr/smash", "usr/sniper")
def extra_rend(smash_close_combat: Any = False, hammer_of_wrath_attack: Any = False, sniper: Any = False,
               target_monstrous_or_bulky: Any = False) -> Any:
    """Rend added by smash (-1 to a model's close combat attacks except Hammer of Wrath) and by sniper (-1 against
    monstrous creatures or bulky targets)."""
    return (If(And(smash_close_combat, Not(hammer_of_wrath_attack)), -1, 0)
            + If(And(sniper, target_monstrous_or_bulky), -1, 0))


@rule("usr/jink", "usr/skilled-rider")
def jink_cover_save(moved_in_movement_phase: Any, first_turn: Any = False, skilled_rider: Any = False) -> Any:
    """A jinking model that moved (every model counts as moving on the first turn) has a 5+ cover save, 4+ for a
    skilled rider; otherwise none."""
    return If(Or(moved_in_movement_phase, first_turn), JINK_COVER_SAVE - If(skilled_rider, 1, 0), NO_SAVE)


@rule("usr/instant-death")
def wounds_after_unsaved_wound(wounds: Any, instant_death: Any, wounds_lost: Any = 1) -> Any:
    """An unsaved wound from an instant death attack reduces the model to 0 wounds."""
    return If(instant_death, 0, Max(wounds - wounds_lost, 0))


@rule("usr/vulnerable-to-blasts")
def vulnerable_to_blasts_count(count: Any, blast_or_template: Any, vulnerable: Any) -> Any:
    """Blast and template hits on a vulnerable vehicle (or unsaved wounds on any other vulnerable unit) count
    double."""
    return If(And(blast_or_template, vulnerable), 2 * count, count)


@rule("usr/look-out-sir")
def look_out_sir_redirects(roll: Any) -> Any:
    """A wound allocated to a character may be redirected on a d6 roll of 4+."""
    return roll >= LOOK_OUT_SIR_ROLL


# -- Vehicles: armour penetration --------------------------------------------------------------------------------------


@rule("usr/lance")
def armour_value_against(armour_value: Any, lance: Any) -> Any:
    """A lance weapon counts any armour above 12 as 12."""
    return If(lance, Min(armour_value, LANCE_ARMOUR_CAP), armour_value)


@rule("usr/armour-bane", "usr/melta")
def extra_penetration_dice(armour_bane: Any = False, melta: Any = False, within_half_range: Any = False,
                           target_vehicle: Any = True) -> Any:
    """Additional d6 for armour penetration: armour bane (no effect on non-vehicles), melta within half range.

    Interpretation: usr-extra-penetration-dice-do-not-stack (one extra d6 at most)."""
    return If(And(target_vehicle, Or(armour_bane, And(melta, within_half_range))), 1, 0)


@rule("usr/tank-hunters")
def tank_hunters_penetration_bonus(tank_hunters: Any, target_vehicle: Any) -> Any:
    """Tank hunters add +1 to armour penetration rolls against vehicles."""
    return If(And(tank_hunters, target_vehicle), 1, 0)


@rule("usr/armour-bane", "usr/melta", "usr/tank-hunters")
def penetration_distribution(strength: int, extra_dice: int = 0, bonus: int = 0) -> dict[int, Fraction]:
    """The exact distribution of the penetration total: S + d6, each extra d6 added to it (the 2d6 of armour bane
    and melta), plus any bonus.

    Interpretation: usr-additional-d6-is-added."""
    total = dice.distribution(f"{1 + extra_dice}D6")
    return {value + strength + bonus: p for value, p in total.items()}


@rule("usr/rending")
def rending_extra_penetration_d3(penetration_roll: Any, rending_on: Any = DEFAULT_TRIGGER) -> Any:
    """Against vehicles a rending penetration roll of 6 rolls a further d3 (returned as how many d3 to add)."""
    return If(special_rule_triggers(penetration_roll, rending_on), 1, 0)


#: The Haywire chart as printed, row by row.
HAYWIRE_CHART = DecisionTable(
    name="m41-haywire",
    refs=("usr/haywire",),
    inputs=(Var("roll", 1, 6),),
    rows=(
        Row("1 No effect", lambda roll: roll == 1, 0),
        Row("2-5 Glancing hit", lambda roll: And(roll >= 2, roll <= 5), 1),
        Row("6 Penetrating hit", lambda roll: roll == 6, 2),
    ),
)
NO_EFFECT, GLANCING, PENETRATING = 0, 1, 2


@rule("usr/haywire")
def haywire_result(roll: Any) -> Any:
    """A haywire hit on a vehicle rolls a d6 instead of armour penetration: 0 no effect, 1 glancing, 2 penetrating."""
    return HAYWIRE_CHART(roll=roll)


# -- Close combat: attacks, strength, initiative -----------------------------------------------------------------------


@rule("usr/rage")
def charge_bonus_attacks(rage: Any) -> Any:
    """Attacks gained on the charge: +2 with rage rather than +1."""
    return If(rage, 2, 1)


@rule("usr/rage")
def must_counter_charge(rage: Any, declared_target_of_a_charge: Any) -> Any:
    """A model with rage that is declared the target of a charge must counter charge."""
    return And(rage, declared_target_of_a_charge)


@rule("usr/rampage")
def rampage_bonus_attacks(outnumbered: Any, d3_roll: Any) -> Any:
    """+d3 attacks for a rampaging model that is outnumbered."""
    return If(outnumbered, d3_roll, 0)


@rule("usr/sweep")
def sweep_profile(attacks: int, strength: int) -> tuple[int, int]:
    """Sweep: one bonus attack, all attacks at half strength (rounded up).

    Interpretation: usr-halves-round-up."""
    return attacks + 1, -(-strength // 2)


@rule("usr/smash")
def smash_attack_profile(attacks: int, strength: int) -> tuple[int, int, int]:
    """A Smash Attack: half the Attacks (rounded up), double Strength to at most 10, AP2.

    Interpretation: usr-halves-round-up."""
    return -(-attacks // 2), min(2 * strength, SMASH_STRENGTH_CAP), SMASH_AP


@rule("usr/furious-charge")
def furious_charge_bonus(assaulted_this_turn: Any, harrying_test: Any = False) -> Any:
    """+1 Initiative and +1 Strength in close combat in a turn the model assaulted; not for harrying tests."""
    return If(And(assaulted_this_turn, Not(harrying_test)), 1, 0)


@rule("usr/ankle-biters", "usr/unwieldy", "usr/furious-charge")
def harrying_initiative(initiative: Any, ankle_biters: Any = False) -> Any:
    """Initiative when testing for harrying: +1 with ankle biters (furious charge adds nothing here)."""
    return initiative + If(ankle_biters, 1, 0)


@rule("usr/unwieldy")
def unwieldy_initiative(initiative: Any, unwieldy: Any) -> Any:
    """-3 Initiative when attacking in close combat with an unwieldy weapon."""
    return initiative - If(unwieldy, UNWIELDY_INITIATIVE_PENALTY, 0)


@rule("usr/unwieldy", "usr/slow-and-purposeful")
def may_harry(unwieldy: Any = False, slow_and_purposeful: Any = False) -> Any:
    """Unwieldy weapons cannot harry, nor can slow and purposeful units."""
    return And(Not(unwieldy), Not(slow_and_purposeful))


@rule("usr/concussive")
def concussive_initiative(initiative: Any, strength_test_passed: Any) -> Any:
    """A model hit by a concussive weapon that fails its Strength test is reduced to Initiative 1."""
    return If(strength_test_passed, initiative, 1)


@rule("usr/hammer-of-wrath")
def hammer_of_wrath_hits(charged: Any, in_base_contact_after_charge: Any) -> Any:
    """One automatic hit for a model that charged and ended in base contact (at unmodified S, AP -, Initiative 10)."""
    return If(And(charged, in_base_contact_after_charge), 1, 0)


@rule("usr/two-handed")
def extra_weapon_bonus_attack(has_additional_melee_weapon: Any, attacking_with_two_handed: Any) -> Any:
    """The extra attack for an additional melee weapon is lost when attacking with a two-handed weapon."""
    return If(And(has_additional_melee_weapon, Not(attacking_with_two_handed)), 1, 0)


@rule("usr/decimate", "usr/overpower")
def triggers_overpower(meets_the_requirements: Any, decimate_or_overpower: Any) -> Any:
    """Decimate and overpower weapons trigger overpower even when the attack does not meet its requirements."""
    return Or(meets_the_requirements, decimate_or_overpower)


@rule("usr/vector-strike")
def vector_strike_hits(models_vector_striking: Any) -> Any:
    """One automatic hit per model of the unit vector striking."""
    return models_vector_striking


@rule("usr/vector-strike", "usr/fleet-of-foot", "usr/relentless")
def may_charge(ran: Any = False, fleet: Any = False, vector_struck: Any = False, fired_heavy_or_rapid: Any = False,
               relentless: Any = False) -> Any:
    """Whether a unit may assault: not after running unless fleet; never after vector striking; relentless models
    may assault after firing rapid fire and heavy weapons."""
    return And(Or(Not(ran), fleet), Not(vector_struck), Or(Not(fired_heavy_or_rapid), relentless))


# -- Movement -------------------------------------------------------------------------------------------------------


@rule("usr/fleet")
def may_reroll_run(fleet: Any) -> Any:
    """A model with fleet may re-roll its run roll."""
    return fleet


@rule("usr/slow-and-purposeful")
def may_run(slow_and_purposeful: Any) -> Any:
    """Slow and purposeful units cannot run, turbo-boost or move flat out."""
    return Not(slow_and_purposeful)


@rule("usr/relentless", "usr/slow-and-purposeful")
def counts_as_stationary(moved: Any, relentless: Any = False, slow_and_purposeful: Any = False) -> Any:
    """Whether a model firing counts as stationary: it did not move, or it is relentless or slow and purposeful."""
    return Or(Not(moved), relentless, slow_and_purposeful)


@rule("usr/hit-and-run")
def withdrawal_consolidate(hit_and_run: Any, two_d6: Any) -> Any:
    """A tactical withdrawal consolidates 3", or 2d6" with hit & run."""
    return If(hit_and_run, two_d6, HIT_AND_RUN_NORMAL_CONSOLIDATE)


@rule("usr/skirmish")
def coherency_range(only_skirmish_models: bool) -> Fraction:
    """A unit of only skirmish models has a coherency range of 3"; any other unit the Movement chapter's 1 5/8"
    (Skirmish calls the normal range 1 1/2").

    Interpretation: movement-coherency-range-from-the-movement-chapter (finding movement-coherency-one-and-five-eighths)."""
    return SKIRMISH_COHERENCY if only_skirmish_models else MOVEMENT_COHERENCY


@rule("usr/move-through-cover")
def difficult_terrain_penalty_applies(in_difficult_terrain: Any, move_through_cover: Any) -> Any:
    """Move through cover suffers no movement penalty in difficult terrain."""
    return And(in_difficult_terrain, Not(move_through_cover))


@rule("usr/skilled-rider")
def may_reroll_dangerous_terrain(skilled_rider: Any, bike_or_cavalry: Any) -> Any:
    """A skilled rider re-rolls failed dangerous terrain tests if its unit type is bike or cavalry."""
    return And(skilled_rider, bike_or_cavalry)


@rule("usr/vortex")
def vortex_ends(scatter_die_shows_hit: Any) -> Any:
    """At the start of every player turn the vortex scatters d6"; if a hit is rolled it ends."""
    return scatter_die_shows_hit


# -- Deployment and targeting ------------------------------------------------------------------------------------------


@rule("usr/infiltrate")
def infiltrator_may_set_up(distance_to_nearest_enemy: Any, unseen_or_in_cover: Any, in_transport: Any = False) -> Any:
    """Infiltrators set up more than 12" from every enemy out of sight or in cover, or more than 15" anywhere;
    never from inside a transport."""
    return And(Not(in_transport), Or(And(distance_to_nearest_enemy > INFILTRATE_HIDDEN_DISTANCE, unseen_or_in_cover),
                                     distance_to_nearest_enemy > INFILTRATE_OPEN_DISTANCE))


@rule("usr/scouts")
def scout_move_allowed(ends_distance_to_nearest_enemy: Any, infiltrated_outside_deployment_zone: Any = False,
                       goes_second: Any = False) -> Any:
    """A scout move stays more than 12" from every enemy; a unit that infiltrated outside its deployment zone
    scouts only for the player going second."""
    return And(ends_distance_to_nearest_enemy > SCOUT_DISTANCE,
               Or(Not(infiltrated_outside_deployment_zone), goes_second))


@rule("usr/concealment")
def may_be_targeted_by_ranged(concealed: Any, distance: Any) -> Any:
    """A concealed unit cannot be targeted by ranged attacks from outside 12"."""
    return Or(Not(concealed), distance <= CONCEALED_RANGE)


@rule("usr/concealment")
def may_shoot(concealed: Any) -> Any:
    """A concealed unit cannot attack in the shooting phase."""
    return Not(concealed)


@rule("usr/bring-it-down", "usr/sniper")
def target_priority_test(needed: Any, target_brings_it_down: Any = False) -> Any:
    """Whether a target priority test is needed: not to target a model with Bring it Down!."""
    return And(needed, Not(target_brings_it_down))


@rule("usr/pinning", "usr/sniper")
def must_take_pinning_test(unsaved_wounds_from_pinning: Any, vehicle_or_monstrous: Any,
                           tested_this_phase: Any = False) -> Any:
    """A unit other than a vehicle or monstrous creature that suffers unsaved wounds from pinning weapons takes one
    pinning test per phase."""
    return And(unsaved_wounds_from_pinning > 0, Not(vehicle_or_monstrous), Not(tested_this_phase))


@rule("usr/juggernaut")
def defensive_bonus_when_charged(normally_gained: Any, charger_is_juggernaut: Any) -> Any:
    """No defensive bonus from being charged by juggernauts."""
    return And(normally_gained, Not(charger_is_juggernaut))


@rule("usr/night-vision")
def night_fighting_protects(night_fighting: Any, attacker_has_night_vision: Any) -> Any:
    """Night fighting gives no protection from units with night vision / acute senses."""
    return And(night_fighting, Not(attacker_has_night_vision))


@rule("usr/coaxial-weapons")
def weapon_systems_counted(weapons: Any, coaxial_pairs: Any) -> Any:
    """Coaxial weapons count as one weapon system when counting how many weapons a model may shoot."""
    return weapons - coaxial_pairs
