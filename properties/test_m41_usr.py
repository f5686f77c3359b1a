"""The Universal Special Rules of 999.m41 (ruleset ``m41``): the z3 proofs of properties/proofs_m41_usr.py (each
failing for a broken copy of the rule it rests on), hypothesis properties of the exact chances (re-rolls never
lower a chance, twin-linked at least one roll, a better poison value never worse, the penetration total) each
failing for a broken rule, and the two findings (Skirmish's normal coherency, the twin-linked example)."""

from __future__ import annotations

import re
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from properties import broken_rules
from properties import proofs_m41_usr
from rules import dice, spec
from rules.logic import And, If, Max, Not, Or
from rules.m41 import usr

MINE = broken_rules.proofs_built_in(proofs_m41_usr)


# -- Proofs ---------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", MINE)
def test_usr_proof_has_its_expected_verdict(name):
    broken_rules.assert_expected_verdict(name, counterexample=False)


# (proof, attribute of rules.m41.usr, broken copy): each a plausible slip that must turn the proof "disproved".
PROOF_MUTANTS = [
    ("m41-feel-no-pain-bounds", "feel_no_pain_allowed",  # AP2 forgotten: only AP1 blocks it
     lambda ap, overpower=False, instant_death=False, no_armour_save_ever=False:
         And(Not(overpower), Not(instant_death), Not(no_armour_save_ever), ap != 1)),
    ("m41-feel-no-pain-bounds", "FEEL_NO_PAIN_BLOCKING_AP", 3),
    ("m41-feel-no-pain-bounds", "feel_no_pain_saves",  # the save read as "better than" its value
     lambda roll, ap, feel_no_pain=5, overpower=False, instant_death=False, no_armour_save_ever=False:
         And(usr.feel_no_pain_allowed(ap, overpower, instant_death, no_armour_save_ever), roll > feel_no_pain)),
    ("m41-hard-to-hit-at-most-minus-one", "hard_to_hit_penalty",  # every source adds up
     lambda hard_to_hit_sources, ranged_attack=True: If(ranged_attack, -hard_to_hit_sources, 0)),
    ("m41-lance-caps-armour-at-twelve", "LANCE_ARMOUR_CAP", 11),
    ("m41-lance-caps-armour-at-twelve", "armour_value_against",
     lambda armour_value, lance: If(lance, 12, armour_value)),  # raises light armour to 12
    ("m41-sniper-wounds-on-four-at-worst", "sniper_wound_needed", lambda needed: 4),
    ("m41-ranged-poison-better-value-never-worse", "poisoned_ranged_wound_needed",
     lambda needed, poison: poison),  # the poison value even where the Strength does better
    ("m41-haywire-rises-with-the-roll", "haywire_result",
     lambda roll: If(roll == 1, 0, If(roll <= 4, 1, 2))),  # a 5 read as penetrating
    ("m41-gets-hot-only-on-a-first-one", "gets_hot_wound",
     lambda first_roll, mounted_on_vehicle=False: first_roll == 1),  # vehicles forgotten
    ("m41-cleave-one-extra-hit-on-its-value", "special_rule_triggers",
     lambda roll, trigger_on=6: roll > trigger_on),  # "N+" read as "more than N"
    ("m41-cover-bonuses-improve-and-penalties-worsen", "cover_save_needed",
     lambda cover_save, bulky=False, small_targets=False, stealth=False, sniper=False,
     ignores_cover_minus_one=False: cover_save + If(bulky, 1, 0) - If(Or(small_targets, stealth), 1, 0)),
]


@pytest.mark.parametrize("name,attribute,mutant", PROOF_MUTANTS,
                         ids=[f"{m[0]}:{m[1]}:{i}" for i, m in enumerate(PROOF_MUTANTS)])
def test_usr_proof_fails_on_a_broken_rule(monkeypatch, name, attribute, mutant):
    broken_rules.assert_proof_catches(monkeypatch, name, usr, attribute, mutant, example=False)


# -- Hypothesis properties --------------------------------------------------------------------------------------------

needs = st.integers(1, 7)  # a D6 threshold: 1+ always (BS 6 "is 1+"), 7 never


@pytest.mark.refs("m41:usr/hatred", "m41:usr/monster-hunter", "m41:usr/shred", "m41:usr/preferred-enemy",
                  "m41:usr/twin-linked")
@given(needs)
def test_rerolls_never_lower_a_chance(needed):
    """Re-rolling failed rolls, re-rolling 1s and twin-linking never lower the chance of a roll needing N+, and
    re-rolling failures is exactly p + (1-p)p, re-rolling 1s p + p/6 when a 1 fails."""
    p = usr.chance_at_least(needed)
    assert usr.reroll_failed_chance(needed) == p + (1 - p) * p >= p
    assert usr.reroll_failed_chance(needed, may_reroll=False) == p
    assert usr.preferred_enemy_chance(needed) == (p + p / 6 if needed > 1 else p) >= p
    assert usr.twin_linked_hit_chance(needed) >= p


@pytest.mark.refs("m41:usr/twin-linked")
@given(needs)
def test_twin_linked_equals_rerolling_the_misses(needed):
    """Rolling to hit twice and using the better is, for one attack, as likely to hit as re-rolling a miss (the
    document's Land Raider example), 1-(1-p)^2, and a further re-roll of the attack in total rolls two dice more."""
    p = usr.chance_at_least(needed)
    assert usr.twin_linked_hit_chance(needed) == 1 - (1 - p) ** 2 == usr.reroll_failed_chance(needed)
    assert usr.twin_linked_hit_chance(needed, may_reroll_failed=True) == 1 - (1 - p) ** 4
    assert usr.twin_linked_hit_chance(needed, may_reroll_failed=True) >= usr.twin_linked_hit_chance(needed)


@pytest.mark.refs("m41:usr/poisoned")
@given(st.integers(2, 7), st.integers(2, 6), st.integers(2, 6), st.booleans())
def test_poison_better_value_never_worse(needed, poison, other, melee):
    """A poisoned attack never wounds less often than its Strength alone, and a better (lower) poison value never
    wounds less often than a worse one, at range and in melee (revision 007: never "worse to have a better poison
    value")."""
    better, worse = min(poison, other), max(poison, other)
    strength_alone = usr.chance_at_least(needed)
    chance_better = usr.poisoned_wound_chance(needed, better, melee)
    assert chance_better >= usr.poisoned_wound_chance(needed, worse, melee)
    assert chance_better >= strength_alone
    assert usr.poisoned_wound_chance(needed, better, melee, target_immune=True) == strength_alone ** 2


@pytest.mark.refs("m41:usr/armour-bane", "m41:usr/melta", "m41:usr/tank-hunters")
@given(st.integers(1, 10), st.integers(0, 1), st.integers(0, 1), st.integers(10, 14))
def test_penetration_total_adds_each_die(strength, extra_dice, bonus, armour):
    """The penetration total is S + d6, an additional d6 added (mean S + 3.5 a die), tank hunters' +1 on top: a
    distribution whose chance to glance or better and to penetrate never falls with an extra die or the bonus."""
    total = usr.penetration_distribution(strength, extra_dice, bonus)
    assert dice.is_distribution(total)
    assert dice.expected(total) == strength + bonus + Fraction(7, 2) * (1 + extra_dice)
    assert min(total) == strength + bonus + 1 + extra_dice
    plain = usr.penetration_distribution(strength)
    for beats in (lambda t: t >= armour, lambda t: t > armour):
        assert dice.probability(total, beats) >= dice.probability(plain, beats)


@pytest.mark.refs("m41:usr/smash", "m41:usr/sweep")
@given(st.integers(1, 10), st.integers(1, 10))
def test_halved_profiles_keep_at_least_one(attacks, strength):
    """A Smash Attack halves the Attacks rounding up (never 0), doubles S to at most 10 and is AP2; sweep adds one
    attack at half Strength rounded up."""
    smash_attacks, smash_strength, smash_ap = usr.smash_attack_profile(attacks, strength)
    assert smash_attacks == (attacks + 1) // 2 >= 1
    assert smash_strength == min(2 * strength, 10) and smash_ap == 2
    assert usr.sweep_profile(attacks, strength) == (attacks + 1, (strength + 1) // 2)


@pytest.mark.refs("m41:usr/armour-bane", "m41:usr/melta")
@given(st.booleans(), st.booleans(), st.booleans(), st.booleans())
def test_extra_penetration_die_only_against_vehicles(armour_bane, melta, within_half_range, target_vehicle):
    """Armour bane (any range) and melta (within half range) give one additional d6 for penetration, only against
    vehicles, and not two when both apply."""
    granted = target_vehicle and (armour_bane or (melta and within_half_range))
    assert usr.extra_penetration_dice(armour_bane, melta, within_half_range, target_vehicle) == int(granted)


# (property, attribute of rules.m41.usr, broken copy)
BROKEN = [
    (test_rerolls_never_lower_a_chance, "reroll_failed_chance",  # successes re-rolled instead of failures
     lambda needed, may_reroll=True: usr.chance_at_least(needed) ** 2),
    (test_rerolls_never_lower_a_chance, "preferred_enemy_chance",
     lambda needed: usr.chance_at_least(needed) * Fraction(5, 6)),
    (test_rerolls_never_lower_a_chance, "twin_linked_hit_chance",  # both dice must hit
     lambda needed, may_reroll_failed=False: usr.chance_at_least(needed) ** 2),
    (test_twin_linked_equals_rerolling_the_misses, "twin_linked_hit_chance",  # a re-roll counted as one more die
     lambda needed, may_reroll_failed=False: 1 - (1 - usr.chance_at_least(needed)) ** (3 if may_reroll_failed else 2)),
    (test_poison_better_value_never_worse, "poisoned_ranged_wound_needed", lambda needed, poison: Max(needed, poison)),
    (test_poison_better_value_never_worse, "poisoned_wound_chance",  # melee rolled at the poison value only
     lambda needed, poison, melee, target_immune=False: usr.chance_at_least(poison)),
    (test_penetration_total_adds_each_die, "penetration_distribution",  # the better of the two dice
     lambda strength, extra_dice=0, bonus=0: {
         value + strength + bonus: p for value, p in _best_of(1 + extra_dice).items()}),
    (test_halved_profiles_keep_at_least_one, "smash_attack_profile",
     lambda attacks, strength: (attacks // 2, min(2 * strength, 10), 2)),
    (test_extra_penetration_die_only_against_vehicles, "extra_penetration_dice",
     lambda armour_bane=False, melta=False, within_half_range=False, target_vehicle=True:
         If(target_vehicle, If(armour_bane, 1, 0) + If(And(melta, within_half_range), 1, 0), 0)),
]


def _best_of(count: int) -> dict[int, Fraction]:
    """The distribution of the best of ``count`` D6s."""
    return {face: Fraction(face ** count - (face - 1) ** count, 6 ** count) for face in range(1, 7)}


@pytest.mark.parametrize("prop,attribute,mutant", BROKEN,
                         ids=[f"{b[0].__name__}:{b[1]}:{i}" for i, b in enumerate(BROKEN)])
def test_usr_property_fails_on_a_broken_rule(monkeypatch, prop, attribute, mutant):
    broken_rules.assert_property_fails(monkeypatch, prop, usr, attribute, mutant)


def test_usr_properties_hold_unbroken():
    """The same properties pass on the real rules (so the failures above come from the mutants)."""
    broken_rules.assert_properties_hold(b[0] for b in BROKEN)


# -- Findings ---------------------------------------------------------------------------------------------------------


def _inches(text: str) -> Fraction:
    """A printed distance such as 1 5/8” or 3”."""
    whole, _, fraction = text.partition(" ")
    return Fraction(whole) + (Fraction(fraction) if fraction else 0)


@pytest.mark.refs("m41:usr/skirmish")
def test_skirmish_normal_coherency_is_not_the_movement_chapters():
    """Skirmish calls the normal coherency range 1 1/2" while the Movement chapter's rule is 1 5/8": the code gives
    a unit of only skirmish models 3" and every other unit the Movement chapter's range."""
    sections = spec.sections("m41")
    skirmish = re.search(r"(\d+)” rather than the normal (\d+ \d+/\d+)”", sections["usr/skirmish"]["text"])
    movement = re.search(r"within (\d+ \d+/\d+)” of one another", sections["movement/unit-coherency"]["text"])
    assert skirmish and movement
    assert _inches(skirmish.group(2)) == Fraction(3, 2) != _inches(movement.group(1)) == Fraction(13, 8)
    assert usr.coherency_range(True) == _inches(skirmish.group(1)) == 3
    assert usr.coherency_range(False) == _inches(movement.group(1))


@pytest.mark.refs("m41:usr/twin-linked", "m41:principles/re-rolls")
def test_twin_linked_example_as_a_reroll_loses_the_stacked_reroll():
    """Read as the example words it (twin-linked "may re-roll any to hit dice" that miss), twin-linking is a
    re-roll, and as no dice "can be re-rolled more than once" another re-roll rule adds nothing; the rule text
    says twin-linked is no re-roll and the attack is re-rolled in total: for every roll from 2+ to 6+ the two
    readings differ once another re-roll applies, and agree without one."""
    assert "no single dice can be re-rolled more than once" in " ".join(spec.sections("m41")["principles/re-rolls"]["text"].split())
    for needed in range(2, 7):
        as_the_example_says = usr.reroll_failed_chance(needed)  # re-rolled once; the other re-roll is spent
        assert usr.twin_linked_hit_chance(needed) == as_the_example_says
        assert usr.twin_linked_hit_chance(needed, may_reroll_failed=True) > as_the_example_says


# -- Plain checks: the rules that decide a yes or no or a number --------------------------------------------------


@pytest.mark.refs("m41:usr/and-they-shall-know-no-fear", "m41:usr/fear", "m41:usr/fearless", "m41:usr/iron-heart",
                  "m41:usr/stubborn", "m41:usr/immune-to-psychology")
def test_morale_rules_as_printed():
    """ATSKNF rallies and ignores the below-half penalty; Fear's -1 spares ATSKNF and Fearless units; fearless
    units flee a failed check only by choice; Iron Heart chooses only the first break check; stubborn drops only
    negative casualty modifiers, and the outnumbered penalty only in the first round; immune to psychology takes
    no morale or pinning test."""
    assert usr.rallies_automatically(True) and not usr.rallies_automatically(False)
    assert usr.below_half_strength_penalty_applies(True, False)
    assert not usr.below_half_strength_penalty_applies(True, True)
    assert not usr.below_half_strength_penalty_applies(False, False)
    assert usr.fear_break_test_modifier(False, False) == 0
    assert usr.flees_after_failed_check(True, False) and not usr.flees_after_failed_check(True, True)
    assert usr.flees_after_failed_check(True, True, chooses_to_flee=True)
    assert not usr.flees_after_failed_check(False, False, chooses_to_flee=True)
    assert usr.iron_heart_may_choose_result(True, True) and not usr.iron_heart_may_choose_result(True, False)
    assert not usr.iron_heart_may_choose_result(False, True)
    assert usr.may_reroll_failed_break_check(True) and not usr.may_reroll_failed_break_check(False)
    assert usr.stubborn_leadership_modifier(-2, True) == 0 and usr.stubborn_leadership_modifier(-2, False) == -2
    assert usr.stubborn_leadership_modifier(1, True) == 1
    assert usr.ignores_outnumbered_penalty(True, True) and not usr.ignores_outnumbered_penalty(True, False)
    assert not usr.ignores_outnumbered_penalty(False, True)
    assert usr.takes_morale_or_pinning_test(True, False) and not usr.takes_morale_or_pinning_test(True, True)
    assert not usr.takes_morale_or_pinning_test(False, False)


@pytest.mark.refs("m41:usr/anti-armour", "m41:usr/deadly", "m41:usr/sniper", "m41:usr/open-topped",
                  "m41:usr/blind", "m41:usr/wicked", "m41:usr/sunder", "m41:usr/flesh-bane", "m41:usr/rending",
                  "m41:usr/hard-to-hit", "m41:usr/smash", "m41:usr/ignores-cover", "m41:usr/instant-death",
                  "m41:usr/vulnerable-to-blasts", "m41:usr/look-out-sir", "m41:usr/tank-hunters", "m41:usr/jink")
def test_hit_wound_and_save_modifiers_as_printed():
    """Anti armour +1 only against a big target when the firer did not move; deadly, sniper, open topped and
    wicked +1; blind -1 WS/BS only on a failed test by a unit with Initiative not hitting itself; sunder -1 to
    saves; flesh bane 2+ except against vehicles; rending auto-wounds at AP2 on its value; smash and sniper rend;
    no cover save against ignores cover; an unsaved wound takes one wound, instant death all; vulnerable to
    blasts doubles only blast hits on a vulnerable unit; look out sir on 4+; tank hunters +1 only against
    vehicles; a jink model that did not move has no save any D6 reaches."""
    assert usr.anti_armour_hit_bonus(True, False) == 1
    assert usr.anti_armour_hit_bonus(True, True) == 0 and usr.anti_armour_hit_bonus(False, False) == 0
    assert usr.deadly_hit_bonus(True) == 1 and usr.deadly_hit_bonus(False) == 0
    assert usr.sniper_hit_bonus(True) == 1 and usr.sniper_hit_bonus(False) == 0
    assert usr.open_topped_hit_bonus(True, True) == 1
    assert usr.open_topped_hit_bonus(False, True) == 0 and usr.open_topped_hit_bonus(True, False) == 0
    assert usr.blind_skill_penalty(True) == 1 and usr.blind_skill_penalty(False) == 0
    assert usr.blind_skill_penalty(True, has_initiative=False) == 0
    assert usr.blind_skill_penalty(True, hit_themselves=True) == 0
    assert usr.wicked_wound_bonus(True) == 1 and usr.wicked_wound_bonus(False) == 0
    assert usr.sunder_save_modifier(True) == -1 and usr.sunder_save_modifier(False) == 0
    assert usr.flesh_bane_wound_needed(6, False) == 2 and usr.flesh_bane_wound_needed(6, True) == 6
    assert usr.rending_auto_wounds(6) and not usr.rending_auto_wounds(5) and usr.rending_auto_wounds(5, 5)
    assert usr.rending_ap(6, 4) == 2 and usr.rending_ap(5, 4) == 4 and usr.rending_ap(6, 1) == 1
    assert usr.rending_extra_penetration_d3(6) == 1 and usr.rending_extra_penetration_d3(5) == 0
    assert usr.hard_to_hit_penalty(2, ranged_attack=False) == 0
    assert usr.extra_rend(smash_close_combat=True) == -1
    assert usr.extra_rend(smash_close_combat=True, hammer_of_wrath_attack=True) == 0
    assert usr.extra_rend(sniper=True, target_monstrous_or_bulky=True) == -1
    assert usr.extra_rend(sniper=True) == 0 and usr.extra_rend(target_monstrous_or_bulky=True) == 0
    assert usr.extra_rend(smash_close_combat=True, sniper=True, target_monstrous_or_bulky=True) == -2
    assert usr.cover_save_allowed(False) and not usr.cover_save_allowed(True)
    assert usr.wounds_after_unsaved_wound(3, False) == 2 and usr.wounds_after_unsaved_wound(1, False, 2) == 0
    assert usr.vulnerable_to_blasts_count(3, True, True) == 6
    assert usr.vulnerable_to_blasts_count(3, False, True) == 3 and usr.vulnerable_to_blasts_count(3, True, False) == 3
    assert usr.look_out_sir_redirects(4) and not usr.look_out_sir_redirects(3)
    assert usr.tank_hunters_penetration_bonus(True, True) == 1 and usr.tank_hunters_penetration_bonus(True, False) == 0
    assert usr.tank_hunters_penetration_bonus(False, True) == 0
    assert usr.chance_at_least(usr.jink_cover_save(False)) == 0


@pytest.mark.refs("m41:usr/rage", "m41:usr/rampage", "m41:usr/furious-charge", "m41:usr/ankle-biters",
                  "m41:usr/unwieldy", "m41:usr/concussive", "m41:usr/hammer-of-wrath", "m41:usr/two-handed",
                  "m41:usr/decimate", "m41:usr/overpower", "m41:usr/vector-strike", "m41:usr/master-crafted",
                  "m41:usr/hatred", "m41:usr/monster-hunter")
def test_close_combat_rules_as_printed():
    """Rage +2 attacks on the charge (else +1) and must counter charge; rampage +d3 when outnumbered; furious charge
    +1 on the charge but not for harrying; ankle biters +1 I to harry; unwieldy -3 I and no harrying; concussive
    I1 on a failed test; hammer of wrath one hit after a charge into contact; two-handed loses the extra weapon's
    attack; decimate and overpower trigger overpower; vector strike one hit a model; master crafted one re-roll;
    hatred only in the first round; monster hunter only against monstrous creatures."""
    assert usr.charge_bonus_attacks(False) == 1
    assert usr.must_counter_charge(True, True) and not usr.must_counter_charge(False, True)
    assert not usr.must_counter_charge(True, False)
    assert usr.rampage_bonus_attacks(True, 2) == 2 and usr.rampage_bonus_attacks(False, 2) == 0
    assert usr.furious_charge_bonus(True) == 1 and usr.furious_charge_bonus(False) == 0
    assert usr.furious_charge_bonus(True, harrying_test=True) == 0
    assert usr.harrying_initiative(3, True) == 4 and usr.harrying_initiative(3) == 3
    assert usr.unwieldy_initiative(4, False) == 4
    assert usr.may_harry() and not usr.may_harry(unwieldy=True) and not usr.may_harry(slow_and_purposeful=True)
    assert usr.concussive_initiative(4, False) == 1 and usr.concussive_initiative(4, True) == 4
    assert usr.hammer_of_wrath_hits(True, True) == 1
    assert usr.hammer_of_wrath_hits(True, False) == 0 and usr.hammer_of_wrath_hits(False, True) == 0
    assert usr.HAMMER_OF_WRATH_INITIATIVE == 10
    assert usr.extra_weapon_bonus_attack(True, False) == 1 and usr.extra_weapon_bonus_attack(True, True) == 0
    assert usr.extra_weapon_bonus_attack(False, False) == 0
    assert usr.triggers_overpower(False, True) and usr.triggers_overpower(True, False)
    assert not usr.triggers_overpower(False, False)
    assert usr.vector_strike_hits(5) == 5
    assert usr.master_crafted_rerolls(True) == 1 and usr.master_crafted_rerolls(False) == 0
    assert usr.hatred_rerolls_failed_hits(True, True) and not usr.hatred_rerolls_failed_hits(True, False)
    assert not usr.hatred_rerolls_failed_hits(False, True)
    assert usr.monster_hunter_rerolls_failed_wounds(True, True)
    assert not usr.monster_hunter_rerolls_failed_wounds(True, False)
    assert not usr.monster_hunter_rerolls_failed_wounds(False, True)


@pytest.mark.refs("m41:usr/fleet", "m41:usr/fleet-of-foot", "m41:usr/relentless", "m41:usr/slow-and-purposeful",
                  "m41:usr/vector-strike", "m41:usr/hit-and-run", "m41:usr/move-through-cover",
                  "m41:usr/skilled-rider", "m41:usr/vortex")
def test_movement_rules_as_printed():
    """Fleet re-rolls the run and may assault after running; vector strikers never charge; relentless may assault
    after firing heavy or rapid fire and counts as stationary, as does slow and purposeful, which cannot run;
    hit & run consolidates 2d6" rather than 3"; move through cover ignores difficult terrain's penalty; a skilled
    rider re-rolls dangerous terrain only as a bike or cavalry; a vortex ends on a hit."""
    assert usr.may_reroll_run(True) and not usr.may_reroll_run(False)
    assert usr.may_charge() and not usr.may_charge(ran=True) and usr.may_charge(ran=True, fleet=True)
    assert not usr.may_charge(vector_struck=True) and not usr.may_charge(ran=True, fleet=True, vector_struck=True)
    assert not usr.may_charge(fired_heavy_or_rapid=True)
    assert usr.may_charge(fired_heavy_or_rapid=True, relentless=True)
    assert usr.may_run(False) and not usr.may_run(True)
    assert usr.counts_as_stationary(False) and not usr.counts_as_stationary(True)
    assert usr.counts_as_stationary(True, relentless=True)
    assert usr.counts_as_stationary(True, slow_and_purposeful=True)
    assert usr.withdrawal_consolidate(False, 9) == 3
    assert usr.difficult_terrain_penalty_applies(True, False)
    assert not usr.difficult_terrain_penalty_applies(True, True)
    assert not usr.difficult_terrain_penalty_applies(False, False)
    assert usr.may_reroll_dangerous_terrain(True, True) and not usr.may_reroll_dangerous_terrain(True, False)
    assert not usr.may_reroll_dangerous_terrain(False, True)
    assert usr.vortex_ends(True) and not usr.vortex_ends(False)


@pytest.mark.refs("m41:usr/infiltrate", "m41:usr/scouts", "m41:usr/concealment", "m41:usr/bring-it-down",
                  "m41:usr/pinning", "m41:usr/juggernaut", "m41:usr/night-vision", "m41:usr/coaxial-weapons")
def test_deployment_and_targeting_rules_as_printed():
    """Infiltrators: more than 12" out of sight, more than 15" anywhere, never from a transport; scouts stay more
    than 12" away, infiltrators outside the zone only for the second player; concealed units are targeted from
    12" or less and do not shoot; Bring it Down! needs no target priority test; pinning tests once a phase for
    non-vehicles with unsaved wounds; juggernauts deny the defensive bonus; night vision ignores night fighting;
    coaxial weapons count as one system."""
    assert usr.infiltrator_may_set_up(16, False) and not usr.infiltrator_may_set_up(15, False)
    assert not usr.infiltrator_may_set_up(12, True)
    assert not usr.infiltrator_may_set_up(16, True, in_transport=True)
    assert usr.scout_move_allowed(13) and not usr.scout_move_allowed(12)
    assert not usr.scout_move_allowed(13, infiltrated_outside_deployment_zone=True)
    assert usr.scout_move_allowed(13, infiltrated_outside_deployment_zone=True, goes_second=True)
    assert usr.may_be_targeted_by_ranged(True, 12) and not usr.may_be_targeted_by_ranged(True, 13)
    assert usr.may_be_targeted_by_ranged(False, 30)
    assert usr.may_shoot(False) and not usr.may_shoot(True)
    assert usr.target_priority_test(True) and not usr.target_priority_test(True, True)
    assert not usr.target_priority_test(False)
    assert usr.must_take_pinning_test(1, False) and not usr.must_take_pinning_test(0, False)
    assert not usr.must_take_pinning_test(1, True) and not usr.must_take_pinning_test(1, False, True)
    assert usr.defensive_bonus_when_charged(True, False) and not usr.defensive_bonus_when_charged(True, True)
    assert not usr.defensive_bonus_when_charged(False, False)
    assert usr.night_fighting_protects(True, False) and not usr.night_fighting_protects(True, True)
    assert not usr.night_fighting_protects(False, False)
    assert usr.weapon_systems_counted(3, 1) == 2
