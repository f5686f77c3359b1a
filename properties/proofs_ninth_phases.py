"""z3 proofs about the earlier edition's Movement, Psychic, Charge, Fight and Morale phases and its Rare Rules
(ruleset ``ninth``).

Each builder calls the real rule functions through their modules (``psychic.psychic_test_passed(...)``) so
``properties/test_ninth_phases.py`` can swap in a broken copy and watch the proof fail. Proofs with
``expect="disproved"`` are findings (spec/ninth/annotations/findings/phases.yaml): a reading the text also
allows, or the other printing, gives another answer, and the code follows a recorded interpretation.
"""

from __future__ import annotations

from typing import Any

import z3

from properties.proofs import Built, proof
from rules.ninth import charge, fight, morale, movement, psychic, rare_rules

FACES = range(1, 7)


def _between(symbol: Any, low: int, high: int) -> Any:
    return z3.And(symbol >= low, symbol <= high)


def _passing_outcomes(warp_charge: Any) -> Any:
    """How many of the 36 outcomes of 2D6 pass a Psychic test against ``warp_charge`` (a z3 term)."""
    return z3.Sum([z3.If(psychic.psychic_test_passed(a + b, warp_charge), 1, 0) for a in FACES for b in FACES])


# -- Psychic phase ----------------------------------------------------------------------------------------------


@proof("ninth-psychic-test-odds", ("ninth:psychic-phase/psychic-tests",),
       "Over the 36 outcomes of 2D6, a Psychic test passes on all of them against warp charge 2 or less, on none "
       "against 13 or more, on 30 against Smite's 5 and 21 against 7, and never on more outcomes when the warp "
       "charge rises.")
def _psychic_odds() -> Built:
    w = z3.Int("warp_charge")
    goal = z3.And(_passing_outcomes(w) >= _passing_outcomes(w + 1),
                  z3.Implies(w <= 2, _passing_outcomes(w) == 36), z3.Implies(w >= 13, _passing_outcomes(w) == 0),
                  _passing_outcomes(z3.IntVal(5)) == 30, _passing_outcomes(z3.IntVal(7)) == 21)
    return [], goal, {"warp_charge": w}


@proof("ninth-perils-on-double-one-or-six", ("ninth:psychic-phase/psychic-tests",
                                               "ninth:psychic-phase/perils-of-the-warp"),
       "Perils of the Warp follows exactly a double 1 or a double 6: two of the 36 outcomes, whether the test "
       "passes or not.")
def _perils() -> Built:
    a, b = z3.Ints("first_die second_die")
    count = z3.Sum([z3.If(psychic.perils_of_the_warp(x, y), 1, 0) for x in FACES for y in FACES])
    goal = z3.And(psychic.perils_of_the_warp(a, b) == z3.Or(z3.And(a == 1, b == 1), z3.And(a == 6, b == 6)),
                  count == 2)
    return [_between(a, 1, 6), _between(b, 1, 6)], goal, {"first_die": a, "second_die": b}


@proof("ninth-deny-needs-a-higher-total", ("ninth:psychic-phase/deny-the-witch",),
       "Deny the Witch passes exactly when its 2D6 total beats the Psychic test's result: a tie never denies, and "
       "a higher Psychic test result is never easier to deny.")
def _deny() -> Built:
    d, r, r2 = z3.Ints("deny_total psychic_test_result higher_result")
    goal = z3.And(psychic.deny_passed(d, r) == (d > r),
                  z3.Implies(psychic.deny_passed(d, r2), psychic.deny_passed(d, r)))
    return [_between(d, 2, 12), _between(r, 2, 12), r2 >= r], goal, {
        "deny_total": d, "psychic_test_result": r, "higher_result": r2}


@proof("ninth-smite-warp-charge-and-damage", ("ninth:psychic-phase/smite",),
       "Smite's warp charge is 5 with no other attempt this phase and rises by exactly 1 per other attempt; its "
       "mortal wounds are rolled on a D6 exactly when the Psychic test was 11 or more, else on a D3.")
def _smite() -> Built:
    n, result = z3.Ints("other_attempts_this_phase psychic_test_result")
    goal = z3.And(psychic.smite_warp_charge(z3.IntVal(0)) == 5,
                  psychic.smite_warp_charge(n + 1) == psychic.smite_warp_charge(n) + 1,
                  psychic.smite_mortal_wounds_dice(result) == z3.If(result >= 11, 6, 3))
    return [n >= 0, _between(result, 2, 12)], goal, {"other_attempts_this_phase": n, "psychic_test_result": result}


# -- Movement phase ---------------------------------------------------------------------------------------------


@proof("ninth-engaged-units-fall-back-or-stay", ("ninth:movement-phase/move-units",
                                                 "ninth:movement-phase/aircraft/engagement-range"),
       "A unit that is no AIRCRAFT, with an enemy unit other than an AIRCRAFT within its Engagement Range, may "
       "neither make a Normal Move nor Advance; one with only enemy AIRCRAFT there, or an AIRCRAFT itself, may "
       "(unless it arrived as Reinforcements this turn).")
def _engaged_moves() -> Built:
    units, aircraft_units = z3.Ints("enemy_units_within_engagement_range enemy_aircraft_within_engagement_range")
    is_aircraft, arrived = z3.Bools("aircraft arrived_as_reinforcements")
    may = movement.may_make_normal_move_or_advance(units, aircraft_units, is_aircraft, arrived)
    goal = z3.And(z3.Implies(z3.And(units > aircraft_units, z3.Not(is_aircraft)), z3.Not(may)),
                  z3.Implies(z3.And(z3.Or(units == aircraft_units, is_aircraft), z3.Not(arrived)), may),
                  z3.Implies(arrived, z3.Not(may)))
    return [aircraft_units >= 0, aircraft_units <= units], goal, {
        "enemy_units_within_engagement_range": units, "enemy_aircraft_within_engagement_range": aircraft_units,
        "aircraft": is_aircraft, "arrived_as_reinforcements": arrived}


@proof("ninth-advance-and-fall-back-limits", ("ninth:movement-phase/advance", "ninth:movement-phase/fall-back"),
       "After an Advance a unit neither shoots (by the Movement phase's rules) nor charges; after a Fall Back it "
       "never charges, and shoots or manifests psychic powers only if TITANIC; an Advance alone never stops "
       "psychic powers.")
def _move_limits() -> Built:
    advanced, fell_back, titanic = z3.Bools("advanced fell_back titanic")
    goal = z3.And(
        z3.Implies(advanced, z3.Not(movement.move_allows_shooting(advanced, fell_back, titanic))),
        z3.Implies(z3.Or(advanced, fell_back), z3.Not(movement.move_allows_charge(advanced, fell_back))),
        z3.Implies(fell_back, movement.move_allows_psychic(fell_back, titanic) == titanic),
        z3.Implies(z3.And(fell_back, z3.Not(advanced)), movement.move_allows_shooting(advanced, fell_back, titanic)
                   == titanic),
        z3.Implies(z3.Not(fell_back), movement.move_allows_psychic(fell_back, titanic)))
    return [], goal, {"advanced": advanced, "fell_back": fell_back, "titanic": titanic}


# -- Charge phase -----------------------------------------------------------------------------------------------


@proof("ninth-charge-chance-monotone-in-distance", ("ninth:charge-phase/charging-with-a-unit",),
       "A charge roll that covers a distance covers every shorter one, so over the 36 outcomes of 2D6 a longer "
       "charge never succeeds on more of them; a charge of 2\" or less always succeeds and one over 12\" never.")
def _charge_monotone() -> Built:
    d1, d2 = z3.Reals("distance_needed longer_distance")
    roll = z3.Int("charge_roll")

    def outcomes(d: Any) -> Any:
        return z3.Sum([z3.If(charge.charge_succeeds(a + b, d), 1, 0) for a in FACES for b in FACES])

    goal = z3.And(z3.Implies(charge.charge_succeeds(roll, d2), charge.charge_succeeds(roll, d1)),
                  outcomes(d1) >= outcomes(d2),
                  z3.Implies(d1 <= 2, outcomes(d1) == 36), z3.Implies(d2 > 12, outcomes(d2) == 0))
    return [d1 > 0, d2 >= d1, _between(roll, 2, 12)], goal, {
        "distance_needed": d1, "longer_distance": d2, "charge_roll": roll}


@proof("ninth-charge-eligibility-limits", ("ninth:charge-phase/charges",),
       "No unit that Advanced or Fell Back this battle round, starts the Charge phase within Engagement Range, is "
       "more than 12\" from every enemy unit or disembarked from a destroyed TRANSPORT this turn is eligible to "
       "charge; every other unit is.")
def _charge_eligible() -> Built:
    distance = z3.Real("closest_enemy_inches")
    advanced, fell_back, engaged, destroyed = z3.Bools(
        "advanced_this_battle_round fell_back_this_battle_round within_engagement_range "
        "disembarked_from_destroyed_transport")
    eligible = charge.charge_eligible(distance, advanced, fell_back, engaged, destroyed)
    expected = z3.And(distance <= 12, z3.Not(advanced), z3.Not(fell_back), z3.Not(engaged), z3.Not(destroyed))
    return [distance >= 0], eligible == expected, {
        "closest_enemy_inches": distance, "advanced_this_battle_round": advanced,
        "fell_back_this_battle_round": fell_back, "within_engagement_range": engaged,
        "disembarked_from_destroyed_transport": destroyed}


@proof("ninth-charge-ban-as-the-movement-phase-words-it", ("ninth:charge-phase/charges", "ninth:movement-phase/advance",
                                                          "ninth:movement-phase/fall-back"),
       "Charge eligibility agrees with the Movement phase's wording, which bars a charge only in the same turn as "
       "an Advance or Fall Back.", expect="disproved")
def _charge_ban_turn() -> Built:
    advanced_turn, advanced_round, fell_back_turn, fell_back_round = z3.Bools(
        "advanced_this_turn advanced_this_battle_round fell_back_this_turn fell_back_this_battle_round")
    distance = z3.Real("closest_enemy_inches")
    by_charges = charge.charge_eligible(distance, advanced_round, fell_back_round)
    by_movement = z3.And(distance <= 12, movement.move_allows_charge(advanced_turn, fell_back_turn))
    pre = [distance >= 0, z3.Implies(advanced_turn, advanced_round), z3.Implies(fell_back_turn, fell_back_round)]
    return pre, by_charges == by_movement, {
        "advanced_this_turn": advanced_turn, "advanced_this_battle_round": advanced_round,
        "fell_back_this_turn": fell_back_turn, "fell_back_this_battle_round": fell_back_round,
        "closest_enemy_inches": distance}


@proof("ninth-heroic-intervention-limits", ("ninth:charge-phase/heroic-interventions",),
       "Only a CHARACTER outside Engagement Range, within 3\" horizontally and 5\" vertically of an enemy unit, in "
       "the enemy's Charge phase performs a Heroic Intervention, at most once a phase.")
def _heroic() -> Built:
    h, v = z3.Reals("horizontal_inches vertical_inches")
    character, engaged, own, done, destroyed = z3.Bools(
        "character within_engagement_range own_charge_phase intervened_this_phase "
        "disembarked_from_destroyed_transport")
    eligible = charge.heroic_intervention_eligible(character, h, v, engaged, own, done, destroyed)
    expected = z3.And(character, z3.Not(engaged), h <= 3, v <= 5, z3.Not(own), z3.Not(done), z3.Not(destroyed))
    return [h >= 0, v >= 0], eligible == expected, {
        "horizontal_inches": h, "vertical_inches": v, "character": character, "within_engagement_range": engaged,
        "own_charge_phase": own, "intervened_this_phase": done, "disembarked_from_destroyed_transport": destroyed}


@proof("ninth-closing-moves-three-inches-closer", ("ninth:charge-phase/performing-a-heroic-intervention",
                                                   "ninth:fight-phase/pile-in", "ninth:fight-phase/consolidate"),
       "A Heroic Intervention, pile-in or consolidation move that moves a model is at most 3\", ends closer to the "
       "closest enemy model and never moves a model already touching one.")
def _closing() -> Built:
    moved, start, end = z3.Reals("distance_moved start_to_closest_enemy end_to_closest_enemy")
    touching = z3.Bool("touching_enemy_at_start")
    allowed = charge.closing_move_allowed(moved, start, end, touching)
    goal = z3.Implies(z3.And(allowed, moved > 0), z3.And(moved <= 3, end < start, z3.Not(touching)))
    return [moved >= 0, start >= 0, end >= 0], goal, {
        "distance_moved": moved, "start_to_closest_enemy": start, "end_to_closest_enemy": end,
        "touching_enemy_at_start": touching}


# -- Fight phase ------------------------------------------------------------------------------------------------


@proof("ninth-fight-bands", ("ninth:fight-phase/charging-units-fight-first",
                               "ninth:rare-rules/always-fight-first-last"),
       "A unit that charged or always fights first fights in the first band, one under a fight-last rule in the "
       "last, one under both as if under neither; the first and last bands start with the player whose turn it "
       "is, the others with the opponent.")
def _fight_bands() -> Built:
    charged, first, last = z3.Bools("made_charge_move_this_turn fights_first_rule fights_last_rule")
    band = fight.fight_band(charged, first, last)
    goal = z3.And(
        z3.Implies(z3.And(z3.Or(charged, first), z3.Not(last)), band == fight.FIRST),
        z3.Implies(z3.And(last, z3.Not(z3.Or(charged, first))), band == fight.LAST),
        z3.Implies(z3.And(last, z3.Or(charged, first)), band == fight.NORMAL),
        z3.Implies(z3.Not(z3.Or(charged, first, last)), band == fight.NORMAL),
        z3.BoolVal(bool(fight.band_starter_is_active_player(fight.FIRST))),
        z3.BoolVal(bool(fight.band_starter_is_active_player(fight.LAST))),
        z3.BoolVal(not fight.band_starter_is_active_player(fight.NORMAL)))
    return [], goal, {"made_charge_move_this_turn": charged, "fights_first_rule": first, "fights_last_rule": last}


@proof("ninth-printings-agree-on-paired-weapons", ("ninth:fight-phase/make-close-combat-attacks",),
       "A model with two weapons that each grant 1 additional attack for a pair makes as many attacks by the web "
       "page as by the reprint.", expect="disproved")
def _paired_weapons() -> Built:
    a, n = z3.Ints("attacks_characteristic paired_weapons_with_bonus")
    goal = fight.attacks_made(a, n, fight.WEB) == fight.attacks_made(a, n, fight.REPRINT)
    return [a >= 1, _between(n, 0, 2)], goal, {"attacks_characteristic": a, "paired_weapons_with_bonus": n}


# -- Morale phase -----------------------------------------------------------------------------------------------


@proof("ninth-morale-test-ones-and-priority", ("ninth:morale-phase/taking-a-morale-test",
                                                 "ninth:rare-rules/morale-priority"),
       "An unmodified 1 always passes a Morale test (unless a rule fails it outright), a rule passing it beats "
       "one failing it, and more models destroyed never turn a failure into a pass.")
def _morale_test() -> Built:
    roll, destroyed, more, ld = z3.Ints("roll destroyed_this_turn more_destroyed highest_leadership")
    auto_pass, auto_fail = z3.Bools("auto_pass auto_fail")
    passed = morale.morale_test_passed(roll, destroyed, ld, auto_pass, auto_fail)
    goal = z3.And(z3.Implies(z3.And(roll == 1, z3.Not(auto_fail)), passed),
                  z3.Implies(auto_pass, passed),
                  z3.Implies(morale.morale_test_passed(roll, more, ld, auto_pass, auto_fail), passed))
    return [_between(roll, 1, 6), destroyed >= 0, more >= destroyed, ld >= 1], goal, {
        "roll": roll, "destroyed_this_turn": destroyed, "more_destroyed": more, "highest_leadership": ld,
        "auto_pass": auto_pass, "auto_fail": auto_fail}


ROLLS = 6  # attrition dice in the proofs: one per remaining model, up to six models


def _morale_facts() -> tuple[list, dict]:
    names = ["models", "starting_strength", "roll", "destroyed_this_turn", "highest_leadership"]
    f = {name: z3.Int(name) for name in names}
    rolls = [z3.Int(f"attrition_roll_{i}") for i in range(ROLLS)]
    flags = {name: z3.Bool(name) for name in ("auto_pass", "auto_fail", "no_models_flee")}
    pre = [_between(f["models"], 0, ROLLS), f["starting_strength"] >= f["models"], _between(f["roll"], 1, 6),
           f["destroyed_this_turn"] >= 0, f["highest_leadership"] >= 1] + [_between(r, 1, 6) for r in rolls]
    return pre, {**f, **flags, **{str(r): r for r in rolls}}


@proof("ninth-morale-never-negative", ("ninth:morale-phase/taking-a-morale-test",
                                         "ninth:morale-phase/combat-attrition-tests"),
       "After its Morale test and Combat Attrition tests a unit of up to six models never has fewer than none "
       "nor more than it had, and a passed test loses nothing.")
def _morale_never_negative() -> Built:
    pre, f = _morale_facts()
    rolls = [f[f"attrition_roll_{i}"] for i in range(ROLLS)]
    left = morale.models_after_morale(f["models"], f["starting_strength"], f["roll"], f["destroyed_this_turn"],
                                      f["highest_leadership"], rolls, f["auto_pass"], f["auto_fail"],
                                      f["no_models_flee"])
    passed = morale.morale_test_passed(f["roll"], f["destroyed_this_turn"], f["highest_leadership"],
                                       f["auto_pass"], f["auto_fail"])
    goal = z3.And(left >= 0, left <= f["models"], z3.Implies(passed, left == f["models"]))
    return pre, goal, f


@proof("ninth-attrition-losses-bounded", ("ninth:morale-phase/combat-attrition-tests",),
       "Combat Attrition tests for k remaining models make between none and k of them flee, none under a rule "
       "that no models flee.")
def _attrition_bounds() -> Built:
    rolls = [z3.Int(f"attrition_roll_{i}") for i in range(ROLLS)]
    below, none_flee = z3.Bools("below_half no_models_flee")
    goals = []
    for k in range(ROLLS + 1):
        losses = morale.attrition_losses(rolls[:k], below, none_flee)
        goals.append(z3.And(losses >= 0, losses <= k, z3.Implies(none_flee, losses == 0)))
    return [_between(r, 1, 6) for r in rolls], z3.And(*goals), {
        **{str(r): r for r in rolls}, "below_half": below, "no_models_flee": none_flee}


@proof("ninth-attrition-penalty-never-helps", ("ninth:morale-phase/combat-attrition-tests",),
       "Being below Half-strength never makes a Combat Attrition test easier: every roll that flees above "
       "Half-strength flees below it, a rolled 1 always flees, and a 3 or more never does.")
def _attrition_penalty() -> Built:
    roll = z3.Int("roll")
    goal = z3.And(z3.Implies(morale.attrition_flees(roll, False), morale.attrition_flees(roll, True)),
                  morale.attrition_flees(z3.IntVal(1), True), morale.attrition_flees(z3.IntVal(1), False),
                  z3.Implies(roll >= 3, z3.Not(morale.attrition_flees(roll, True))))
    return [_between(roll, 1, 6)], goal, {"roll": roll}


@proof("ninth-attrition-as-bare-arithmetic", ("ninth:morale-phase/combat-attrition-tests",),
       "A Combat Attrition test flees exactly when the D6 less 1 below Half-strength equals 1, taken as bare "
       "arithmetic (a rolled 1 made 0 would not flee).", expect="disproved")
def _attrition_bare() -> Built:
    roll = z3.Int("roll")
    below = z3.Bool("below_half")
    bare = (roll - z3.If(below, 1, 0)) == 1
    return [_between(roll, 1, 6)], morale.attrition_flees(roll, below) == bare, {"roll": roll, "below_half": below}


# -- Rare Rules -------------------------------------------------------------------------------------------------


@proof("ninth-cover-never-improves-invulnerable-saves", ("ninth:rare-rules/benefits-of-cover-when-not-in-terrain",
                                                        "ninth:rare-rules/improving-the-benefits-of-cover"),
       "Neither the benefit of cover outside terrain nor an improved benefit of cover changes an invulnerable "
       "save; outside terrain it adds exactly 1 against a ranged attack and nothing against a melee one.")
def _cover() -> Built:
    cover, ranged, invulnerable, light_or_heavy = z3.Bools(
        "benefit_of_cover ranged_attack invulnerable_save from_light_or_heavy_cover")
    improved = z3.Int("improved_bonus")
    bonus = rare_rules.cover_save_bonus(cover, ranged, invulnerable)
    goal = z3.And(z3.Implies(invulnerable, z3.And(bonus == 0, rare_rules.improved_cover_save_bonus(
        improved, light_or_heavy, invulnerable) == 0)),
        z3.Implies(z3.And(cover, z3.Not(invulnerable)), bonus == z3.If(ranged, 1, 0)),
        z3.Implies(z3.Not(cover), bonus == 0))
    return [improved >= 1], goal, {"benefit_of_cover": cover, "ranged_attack": ranged,
                                   "invulnerable_save": invulnerable, "from_light_or_heavy_cover": light_or_heavy,
                                   "improved_bonus": improved}
