"""z3 proofs about the earlier edition's Basic Rules as the mission pack reprints them (ruleset ``ninth``):
Overwatch, actions, Stratagems and the Core Stratagems, Strategic Reserves, objective markers.

Each builder calls the real rule functions through their modules (``objective_markers.control(...)``) so
``properties/test_ninth.py`` can swap in a broken copy and watch the proof fail. Proofs with
``expect="disproved"`` are findings (spec/ninth/annotations/findings/): the text as printed (most often a
summary bullet) fails them, and the code follows a recorded interpretation instead.
"""

from __future__ import annotations

from typing import Any

import z3

from properties.proofs import Built, proof
from rules.ninth import actions, objective_markers, overwatch, strategic_reserves, stratagems
from rules.ninth.stratagems import Timing


def _between(symbol: Any, low: int, high: int) -> Any:
    return z3.And(symbol >= low, symbol <= high)


def _control_facts() -> tuple[list, dict]:
    """Counts of models that may control a marker, and how many of them have Objective Secured, on each side."""
    m, o, s, os_ = z3.Ints("models_in_range opponent_models_in_range objective_secured_in_range "
                           "opponent_objective_secured_in_range")
    pre = [m >= 0, o >= 0, _between(s, 0, m), _between(os_, 0, o)]
    return pre, {"models_in_range": m, "opponent_models_in_range": o, "objective_secured_in_range": s,
                 "opponent_objective_secured_in_range": os_}


# -- Objective markers and Objective Secured ------------------------------------------------------------------


@proof("ninth-control-one-answer-and-symmetric", ("ninth:objective-markers", "ninth:objective-secured"),
       "Control of an objective marker is always the player's, the opponent's or nobody's (never both), and "
       "swapping the two players' models swaps the answer.")
def _control_symmetric() -> Built:
    pre, f = _control_facts()
    m, o, s, os_ = (f[k] for k in ("models_in_range", "opponent_models_in_range", "objective_secured_in_range",
                                   "opponent_objective_secured_in_range"))
    result = objective_markers.control(m, o, s, os_)
    swapped = objective_markers.control(o, m, os_, s)
    goal = z3.And(z3.Or(result == 1, result == -1, result == 0), swapped == -result)
    return pre, goal, f


@proof("ninth-objective-secured-never-loses-a-marker", ("ninth:objective-secured",),
       "Objective Secured never costs its owner a marker: a player who would control a marker without "
       "Objective Secured models still does with them, and more of them never worsens the result.")
def _objective_secured_helps() -> Built:
    pre, f = _control_facts()
    m, o, s, os_ = (f[k] for k in ("models_in_range", "opponent_models_in_range", "objective_secured_in_range",
                                   "opponent_objective_secured_in_range"))
    more = z3.Int("more_objective_secured")
    without = objective_markers.control(m, o, 0, os_)
    with_them = objective_markers.control(m, o, s, os_)
    goal = z3.And(z3.Implies(without == 1, with_them == 1),
                  objective_markers.control(m, o, more, os_) >= with_them)
    return pre + [_between(more, s, m)], goal, {**f, "more_objective_secured": more}


@proof("ninth-most-models-control-as-summarised", ("ninth:objective-markers", "ninth:objective-secured"),
       "As the summary bullet puts it, the player with most models in range controls the objective marker.",
       expect="disproved")
def _most_models_bullet() -> Built:
    pre, f = _control_facts()
    result = objective_markers.control(*f.values())
    return pre, z3.Implies(f["models_in_range"] > f["opponent_models_in_range"], result == 1), f


@proof("ninth-objective-secured-controls-as-summarised", ("ninth:objective-secured",),
       "As the summary bullet puts it, a player controls an objective marker if any of their models in range "
       "has Objective Secured.", expect="disproved")
def _objective_secured_bullet() -> Built:
    pre, f = _control_facts()
    result = objective_markers.control(*f.values())
    return pre, z3.Implies(f["objective_secured_in_range"] >= 1, result == 1), f


@proof("ninth-objective-secured-flag-or-count", ("ninth:objective-secured",),
       "Objective Secured asks only whether a side has a model with it in range: given as a flag (any such "
       "model) or as a count of such models, control is the same.")
def _objective_secured_flag_or_count() -> Built:
    pre, f = _control_facts()
    m, o, s, os_ = (f[k] for k in ("models_in_range", "opponent_models_in_range", "objective_secured_in_range",
                                   "opponent_objective_secured_in_range"))
    as_flags = objective_markers.control(m, o, s >= 1, os_ >= 1)  # symbolic flags: z3 Booleans
    return pre, as_flags == objective_markers.control(m, o, s, os_), f


# -- Overwatch ---------------------------------------------------------------------------------------------------


@proof("ninth-overwatch-one-face-in-six", ("ninth:overwatch",),
       "Whatever the firing model's Ballistic Skill and whatever hit roll modifiers apply, exactly one face of "
       "the D6 hits in Overwatch, and it is the unmodified 6.")
def _overwatch_sixes() -> Built:
    bs, modifier, roll = z3.Ints("ballistic_skill modifier unmodified_roll")
    faces = overwatch.overwatch_hitting_faces(bs, modifier)
    hits = overwatch.overwatch_hits(roll, bs, modifier)
    goal = z3.And(faces == 1, z3.Implies(hits, roll == 6))
    return [_between(roll, 1, 6)], goal, {"ballistic_skill": bs, "modifier": modifier, "unmodified_roll": roll}


@proof("ninth-overwatch-never-while-engaged", ("ninth:overwatch", "ninth:stratagems/fire-overwatch"),
       "No unit fires Overwatch, by its own rule or through Fire Overwatch, while an enemy unit is within its "
       "Engagement Range or after the charge roll, nor unless the charge targets it.")
def _overwatch_engaged() -> Built:
    rule_, target, engaged, rolled = z3.Bools("has_overwatch_rule target_of_the_charge "
                                              "enemy_within_engagement_range charge_roll_made")
    fires = z3.Or(overwatch.may_fire_overwatch(rule_, target, engaged, rolled),
                  stratagems.fire_overwatch_unit_allowed(target, engaged, rolled))
    goal = z3.Implies(fires, z3.And(target, z3.Not(engaged), z3.Not(rolled)))
    return [], goal, {"has_overwatch_rule": rule_, "target_of_the_charge": target,
                      "enemy_within_engagement_range": engaged, "charge_roll_made": rolled}


# -- Actions and psychic actions -----------------------------------------------------------------------------------


_ACTION_FLAGS = ("advanced", "fell_back", "aircraft_or_fortification", "attempted_action_this_battle_round",
                 "same_action_started_by_another_unit")


@proof("ninth-action-start-exactly-the-listed-conditions", ("ninth:performing-actions",),
       "A unit can start an action exactly when no enemy unit other than AIRCRAFT is within its Engagement "
       "Range, it neither Advanced nor Fell Back this turn, it is no AIRCRAFT or Fortification, it has not "
       "attempted an action this battle round, no other unit of its army started that action this battle round, "
       "and the action's own conditions hold.")
def _action_start() -> Built:
    units, aircraft = z3.Ints("enemy_units_within_engagement_range enemy_aircraft_within_engagement_range")
    flags = {name: z3.Bool(name) for name in _ACTION_FLAGS}
    conditions = z3.Bool("action_conditions_met")
    allowed = actions.may_start_action(units, aircraft, action_conditions_met=conditions, **flags)
    expected = z3.And(units == aircraft, conditions, *(z3.Not(v) for v in flags.values()))
    pre = [aircraft >= 0, aircraft <= units]
    return pre, allowed == expected, {"enemy_units_within_engagement_range": units,
                                      "enemy_aircraft_within_engagement_range": aircraft,
                                      "action_conditions_met": conditions, **flags}


@proof("ninth-action-start-as-summarised", ("ninth:performing-actions",),
       "As the summary bullet puts it, a unit cannot start an action while in Engagement Range of any enemy "
       "unit.", expect="disproved")
def _action_start_bullet() -> Built:
    units, aircraft = z3.Ints("enemy_units_within_engagement_range enemy_aircraft_within_engagement_range")
    allowed = actions.may_start_action(units, aircraft)
    return [aircraft >= 0, aircraft <= units], z3.Implies(units >= 1, z3.Not(allowed)), {
        "enemy_units_within_engagement_range": units, "enemy_aircraft_within_engagement_range": aircraft}


@proof("ninth-action-failure-as-summarised", ("ninth:performing-actions",),
       "As the summary bullet puts it, a psychic power fails an action when the unit manifests it (so an "
       "attempt that does not manifest the power leaves the action standing).", expect="disproved")
def _action_failure_bullet() -> Built:
    attempted, manifested = z3.Bools("attempted_to_manifest_psychic_power manifested_psychic_power")
    failed = actions.action_failed(attempted_to_manifest_psychic_power=attempted)
    return [z3.Implies(manifested, attempted)], failed == manifested, {
        "attempted_to_manifest_psychic_power": attempted, "manifested_psychic_power": manifested}


_PSYCHIC_FLAGS = ("psyker", "own_psychic_phase", "attempted_to_manifest_this_phase", "fell_back",
                  "attempting_another_action", "psychic_action_this_battle_round")


@proof("ninth-psychic-action-conditions", ("ninth:performing-psychic-actions",),
       "A unit attempting a psychic action is a PSYKER in its Psychic phase that has not attempted to manifest "
       "powers this phase, did not Fall Back this turn, is attempting no other action and has attempted no "
       "psychic action this battle round.")
def _psychic_action() -> Built:
    flags = {name: z3.Bool(name) for name in _PSYCHIC_FLAGS}
    allowed = actions.may_attempt_psychic_action(**flags)
    expected = z3.And(flags["psyker"], flags["own_psychic_phase"],
                      *(z3.Not(flags[n]) for n in _PSYCHIC_FLAGS[2:]))
    return [], allowed == expected, flags


@proof("ninth-perils-two-in-thirty-six", ("ninth:performing-psychic-actions",),
       "Exactly two of the 36 results of a Psychic test's 2D6 bring Perils of the Warp, and both are doubles.")
def _perils() -> Built:
    a, b = z3.Ints("first_die second_die")
    total = sum(z3.If(actions.perils_of_the_warp(x, y), 1, 0) for x in range(1, 7) for y in range(1, 7))
    goal = z3.And(total == 2, z3.Implies(actions.perils_of_the_warp(a, b), a == b))
    return [_between(a, 1, 6), _between(b, 1, 6)], goal, {"first_die": a, "second_die": b}


# -- Stratagems -----------------------------------------------------------------------------------------------------


@proof("ninth-stratagem-cp-never-negative", ("ninth:stratagems/using-stratagems",),
       "A Stratagem a player may use never takes their CP total below 0.")
def _cp_never_negative() -> Built:
    cp, cost = z3.Ints("cp cost")
    used, during = z3.Bools("used_this_phase used_during_a_phase")
    allowed = stratagems.may_use_stratagem(cp, cost, used, during)
    goal = z3.Implies(allowed, stratagems.cp_after_use(cp, cost) >= 0)
    return [cp >= 0, cost >= 0], goal, {"cp": cp, "cost": cost, "used_this_phase": used,
                                        "used_during_a_phase": during}


@proof("ninth-stratagem-once-per-phase", ("ninth:stratagems/using-stratagems",),
       "A Stratagem used during a phase is never used again in that phase, whatever the CPs; one used before "
       "the battle or at the end of the battle round is not held to that limit.")
def _once_per_phase() -> Built:
    cp, cost, timing = z3.Ints("cp cost timing")
    applies = stratagems.once_per_phase_limit_applies(timing)
    again = stratagems.may_use_stratagem(cp, cost, True, applies)
    goal = z3.And(z3.Implies(timing == Timing.DURING_A_PHASE, z3.Not(again)),
                  z3.Implies(z3.And(timing != Timing.DURING_A_PHASE, cp >= cost), again))
    pre = [_between(timing, Timing.BEFORE_THE_BATTLE, Timing.END_OF_THE_BATTLE_ROUND), cost >= 0]
    return pre, goal, {"cp": cp, "cost": cost, "timing": timing}


@proof("ninth-stratagem-exemption-as-summarised", ("ninth:stratagems/using-stratagems",),
       "As the summary bullet puts it, only Stratagems not used during a battle round are exempt from the "
       "once-per-phase limit.", expect="disproved")
def _exemption_bullet() -> Built:
    timing = z3.Int("timing")
    within_a_battle_round = timing != Timing.BEFORE_THE_BATTLE
    goal = stratagems.once_per_phase_limit_applies(timing) == within_a_battle_round
    return [_between(timing, Timing.BEFORE_THE_BATTLE, Timing.END_OF_THE_BATTLE_ROUND)], goal, {"timing": timing}


@proof("ninth-cut-them-down-sixes-only", ("ninth:stratagems/cut-them-down",),
       "Cut Them Down inflicts between none and one mortal wound per die, and one per die only when every die "
       "is a 6.")
def _cut_them_down() -> Built:
    rolls = z3.Ints("roll_1 roll_2 roll_3")
    wounds = stratagems.cut_them_down_mortal_wounds(rolls)
    goal = z3.And(wounds >= 0, wounds <= 3, (wounds == 3) == z3.And(*(r == 6 for r in rolls)))
    return [_between(r, 1, 6) for r in rolls], goal, {f"roll_{i}": r for i, r in enumerate(rolls, 1)}


@proof("ninth-desperate-breakout-losses-on-ones", ("ninth:stratagems/desperate-breakout",),
       "Desperate Breakout never destroys more models than rolled dice (one per model), and destroys none when "
       "no die is a 1.")
def _breakout() -> Built:
    rolls = z3.Ints("roll_1 roll_2 roll_3")
    lost = stratagems.desperate_breakout_models_destroyed(rolls)
    goal = z3.And(lost >= 0, lost <= 3, z3.Implies(z3.And(*(r != 1 for r in rolls)), lost == 0))
    return [_between(r, 1, 6) for r in rolls], goal, {f"roll_{i}": r for i, r in enumerate(rolls, 1)}


@proof("ninth-emergency-disembarkation-one-or-two", ("ninth:stratagems/emergency-disembarkation",),
       "With Emergency Disembarkation exactly two faces (1 and 2) destroy a disembarked model instead of one "
       "(the 1), every roll that would destroy one without it still does, and passengers go up to 6\" instead "
       "of 3\".")
def _emergency() -> Built:
    roll = z3.Int("roll")
    faces_with = sum(z3.If(stratagems.disembarked_model_lost(face, True), 1, 0) for face in range(1, 7))
    faces_without = sum(z3.If(stratagems.disembarked_model_lost(face, False), 1, 0) for face in range(1, 7))
    goal = z3.And(faces_with == 2, faces_without == 1,
                  z3.Implies(stratagems.disembarked_model_lost(roll, False),
                             stratagems.disembarked_model_lost(roll, True)),
                  stratagems.destroyed_transport_disembark_distance(True) == 6,
                  stratagems.destroyed_transport_disembark_distance(False) == 3)
    return [_between(roll, 1, 6)], goal, {"roll": roll}


@proof("ninth-insane-bravery-passes-once-per-battle", ("ninth:stratagems/insane-bravery",),
       "Under Insane Bravery the Morale test is passed without dice, and the Stratagem cannot be used again once "
       "used in the battle.")
def _insane_bravery() -> Built:
    dice, used = z3.Bools("passed_on_the_dice used_this_battle")
    goal = z3.And(stratagems.morale_test_passed(dice, True), z3.Not(stratagems.morale_dice_rolled(True)),
                  stratagems.insane_bravery_allowed(used) == z3.Not(used))
    return [], goal, {"passed_on_the_dice": dice, "used_this_battle": used}


# -- Strategic Reserves -------------------------------------------------------------------------------------------


@proof("ninth-reserves-cost-bands-ten-wide", ("ninth:strategic-reserves/placing-units",),
       "Each band of the Strategic Reserves table is 10 Power wide and costs one CP more than the band below: "
       "a combined Power Rating of 10k to 10k+9 costs k+1 CPs (1-9 1CP, ..., 40-49 5CP, and on).")
def _cost_bands() -> Built:
    k, r = z3.Ints("k r")
    goal = strategic_reserves.reserves_cost(10 * k + r) == k + 1
    return [k >= 0, _between(r, 0, 9)], goal, {"k": k, "r": r}


@proof("ninth-reserves-printed-rows-cover-every-rating", ("ninth:strategic-reserves/placing-units",),
       "The printed rows of the Strategic Reserves table (1-9 to 40-49) give a cost for every combined Power "
       "Rating.", expect="disproved")
def _printed_rows() -> Built:
    power = z3.Int("combined_power_rating")
    covered = z3.Or(*(_between(power, low, high) for low, high, _ in strategic_reserves.PRINTED_BANDS))
    # From 1: a combined Power Rating of 0 is read separately (interpretation reserves-cost-zero-power).
    return [power >= 1], covered, {"combined_power_rating": power}


@proof("ninth-reserves-placing-never-negative", ("ninth:strategic-reserves/placing-units",),
       "Units a player can afford to place into Strategic Reserves never take their CP total below 0, and "
       "the cost never falls as the combined Power Rating rises.")
def _placing() -> Built:
    cp, power, more = z3.Ints("cp combined_power_rating more_power")
    goal = z3.And(z3.Implies(strategic_reserves.reserves_affordable(cp, power),
                             strategic_reserves.cp_after_placing(cp, power) >= 0),
                  strategic_reserves.reserves_cost(power + more) >= strategic_reserves.reserves_cost(power))
    return [cp >= 0, power >= 0, more >= 0], goal, {"cp": cp, "combined_power_rating": power, "more_power": more}


_SET_UP = ("wholly_within_6_of_a_non_enemy_edge", "any_model_in_enemy_deployment_zone", "within_1_of_own_edge",
           "wholly_within_own_deployment_zone")


def _set_up_facts() -> tuple[list, dict]:
    battle_round, closest = z3.Int("battle_round"), z3.Real("closest_enemy_inches")
    flags = {name: z3.Bool(name) for name in _SET_UP}
    return [_between(battle_round, 1, 5), closest >= 0], {"battle_round": battle_round,
                                                         "closest_enemy_inches": closest, **flags}


def _set_up(f: dict) -> Any:
    return strategic_reserves.set_up_allowed(
        f["battle_round"], f["wholly_within_6_of_a_non_enemy_edge"], f["any_model_in_enemy_deployment_zone"],
        f["closest_enemy_inches"], f["within_1_of_own_edge"], f["wholly_within_own_deployment_zone"])


@proof("ninth-reserves-arrive-from-round-two",
       ("ninth:strategic-reserves/arriving", "ninth:strategic-reserves/setting-up"),
       "No Strategic Reserve unit arrives or is set up (by an edge or, if large, touching your edge) in the "
       "first battle round, and in the second none is set up in the enemy's deployment zone.")
def _arrival_rounds() -> Built:
    pre, f = _set_up_facts()
    touching = z3.Bool("touching_your_battlefield_edge")
    allowed = _set_up(f)
    large = strategic_reserves.large_model_set_up_allowed(f["battle_round"], touching, f["closest_enemy_inches"],
                                                          f["wholly_within_own_deployment_zone"])
    arrives = strategic_reserves.may_arrive(f["battle_round"])
    goal = z3.And(z3.Implies(z3.Or(allowed, large, arrives), f["battle_round"] >= 2),
                  z3.Implies(z3.And(allowed, f["battle_round"] == 2), z3.Not(f["any_model_in_enemy_deployment_zone"])))
    return pre, goal, {**f, "touching_your_battlefield_edge": touching}


@proof("ninth-reserves-more-than-9-from-enemies",
       ("ninth:strategic-reserves/setting-up", "ninth:strategic-reserves/aircraft"),
       "An arriving unit is set up within 9\" of an enemy model only within 1\" of its own battlefield edge and "
       "wholly within its own deployment zone; an AIRCRAFT placed anywhere is always more than 9\" away.")
def _clear_of_enemies() -> Built:
    pre, f = _set_up_facts()
    near = f["closest_enemy_inches"] <= 9
    goal = z3.And(
        z3.Implies(z3.And(_set_up(f), near), z3.And(f["within_1_of_own_edge"], f["wholly_within_own_deployment_zone"])),
        z3.Implies(strategic_reserves.aircraft_set_up_allowed(f["closest_enemy_inches"]), z3.Not(near)))
    return pre, goal, f


@proof("ninth-reserves-enemy-distance-as-summarised", ("ninth:strategic-reserves/setting-up",),
       "As the summary bullet puts it, no Strategic Reserve unit is set up within 9\" of enemy models.",
       expect="disproved")
def _distance_bullet() -> Built:
    pre, f = _set_up_facts()
    return pre, z3.Implies(_set_up(f), f["closest_enemy_inches"] > 9), f
