"""z3 proofs about the turn structure and the player-level rules: chapters 07, 08, 10, 14, 15, 16 and the
appendix's strength, destroyed and revived entries.

Each builder calls the real rule functions through their modules (``appendix.at_half_strength(...)``)
so ``properties/test_turn_proofs.py`` can swap in a broken copy and watch the proof fail. Proofs with
``expect="disproved"`` are findings (spec/core/annotations/findings/): the rules as written fail them,
and the code follows a recorded interpretation instead.
"""

from __future__ import annotations

import z3

from properties.proofs import Built, proof
from rules.core import (
    actions,
    appendix,
    battle_round,
    command_phase,
    monsters_and_vehicles,
    objectives,
    shooting_phase,
    stratagems,
)
from rules.core.stratagems import CoreStratagem, HeroicMode, Roll

STRENGTH = appendix.STRENGTH


def _between(symbol: z3.ArithRef, low: int, high: int) -> z3.BoolRef:
    return z3.And(symbol >= low, symbol <= high)


def _strength_facts() -> tuple[list, dict]:
    """A unit on the battlefield: any starting strength, 1..that many models, a model of any W with 1..W wounds."""
    ss, models, wounds, w = z3.Ints("starting_strength models wounds w")
    pre = [ss >= 1, _between(models, 1, ss), w >= 1, _between(wounds, 1, w), z3.Or(ss >= 2, models == 1)]
    return pre, {"starting_strength": ss, "models": models, "wounds": wounds, "w": w}


# -- Appendix: starting strength and half-strength ------------------------------------------------------


@proof("at-and-below-half-strength-exclusive", (STRENGTH,),
       "No unit is both at half-strength and below half-strength, whatever its starting strength and W.")
def _half_exclusive() -> Built:
    pre, s = _strength_facts()
    args = (s["starting_strength"], s["models"], s["wounds"], s["w"])
    goal = z3.Not(z3.And(appendix.at_half_strength(*args), appendix.below_half_strength(*args)))
    return pre, goal, s


@proof("below-half-strength-is-below-starting-strength", (STRENGTH,),
       "A unit at or below half-strength is always below its starting strength.")
def _below_half_below_start() -> Built:
    pre, s = _strength_facts()
    args = (s["starting_strength"], s["models"], s["wounds"], s["w"])
    goal = z3.Implies(appendix.at_or_below_half_strength(*args), appendix.below_starting_strength(*args))
    return pre, goal, s


@proof("odd-strength-never-at-half-strength", (STRENGTH,),
       "A unit whose starting strength (or, for a single model, whose W) is odd is never at half-strength.")
def _odd_never_half() -> Built:
    pre, s = _strength_facts()
    k = z3.Int("k")
    ss, w = s["starting_strength"], s["w"]
    odd = z3.Or(z3.And(ss >= 2, ss == 2 * k + 1), z3.And(ss == 1, w == 2 * k + 1))
    goal = z3.Not(appendix.at_half_strength(ss, s["models"], s["wounds"], w))
    return pre + [odd], goal, {**s, "k": k}


@proof("strength-tables-cover-every-unit-on-the-battlefield", (STRENGTH,),
       "The three strength tables are checked over exactly the units that can be on the battlefield: up to their "
       "starting strength in models, up to W in wounds, and a unit that started as one model is still one.")
def _strength_tables_domain() -> Built:
    facts, s = _strength_facts()
    positive = [s[name] >= 1 for name in ("starting_strength", "models", "wounds", "w")]
    tables = (appendix.BELOW_STARTING_STRENGTH, appendix.AT_HALF_STRENGTH, appendix.BELOW_HALF_STRENGTH)
    goal = z3.And(*(table.assume(**s) == z3.And(*facts) for table in tables))
    return positive, goal, s


@proof("revived-models-never-exceed-starting-strength", (appendix.REVIVED,),
       "However many models a rule returns, the unit never grows beyond its starting strength, nor loses any.")
def _revive_cap() -> Built:
    requested, models, ss = z3.Ints("requested models starting_strength")
    added = appendix.models_revived(requested, models, ss)
    goal = z3.And(added >= 0, models + added <= ss, z3.Implies(models + requested <= ss, added == requested))
    return [ss >= 1, _between(models, 0, ss), requested >= 0], goal, {
        "requested": requested, "models": models, "starting_strength": ss}


# -- 08.03 Battle-shock ---------------------------------------------------------------------------------


@proof("battle-shock-roll-exactly-for-shocked-or-half-strength", ("08.03",),
       "A battle-shock roll is needed exactly for a unit that is battle-shocked or at or below half-strength.")
def _must_roll() -> Built:
    pre, s = _strength_facts()
    shocked = z3.Bool("battle_shocked")
    args = (s["starting_strength"], s["models"], s["wounds"], s["w"])
    goal = command_phase.must_take_battle_shock_roll(shocked, *args) == z3.Or(
        shocked, appendix.at_half_strength(*args), appendix.below_half_strength(*args))
    return pre, goal, {**s, "battle_shocked": shocked}


@proof("battle-shock-step-roll-decides", ("08.03", "01.07"),
       "After its roll in the Battle-shock step a unit is battle-shocked exactly when that roll failed.")
def _step_roll() -> Built:
    was, ok = z3.Bools("battle_shocked_at_start_of_step roll_succeeded")
    goal = command_phase.battle_shocked_after_step_roll(was, ok) == z3.Not(ok)
    return [], goal, {"battle_shocked_at_start_of_step": was, "roll_succeeded": ok}


@proof("insane-bravery-cannot-clear-battle-shock", ("15.04", "08.03", "15.01", "01.07"),
       "A unit battle-shocked at the start of the Battle-shock step is no longer battle-shocked after it only if "
       "its own leadership roll succeeded: Insane Bravery can never target it.")
def _insane_bravery() -> Built:
    roll, ld, cp, targeted = z3.Ints("roll ld cp target_stratagems_this_phase")
    used_phase, used_battle = z3.Bools("used_this_phase used_this_battle")
    cost = stratagems.core_stratagem_cost(int(CoreStratagem.INSANE_BRAVERY))
    usable = z3.And(
        stratagems.stratagem_restrictions_allow(int(CoreStratagem.INSANE_BRAVERY), 2, used_battle),
        stratagems.may_use_stratagem(cp, cost, used_phase, targeted, True, True))
    succeeded = stratagems.battle_shock_roll_succeeds(roll, [ld], usable)
    still = command_phase.battle_shocked_after_step_roll(True, succeeded)
    goal = z3.Implies(z3.Not(still), roll >= ld)
    pre = [_between(roll, 2, 12), _between(ld, 2, 12), cp >= 0, targeted >= 0]
    return pre, goal, {"roll": roll, "ld": ld, "cp": cp, "target_stratagems_this_phase": targeted,
                       "used_this_phase": used_phase, "used_this_battle": used_battle}


# -- 07 The battle round ----------------------------------------------------------------------------------


@proof("each-player-takes-one-turn-per-round", ("07.02",),
       "In every battle round the two turns belong to different players, the first to the mission's first player.")
def _turns() -> Built:
    first = z3.Int("first_player")
    one = battle_round.turn_player(first, False)
    two = battle_round.turn_player(first, True)
    goal = z3.And(one == first, two != one, z3.Or(two == 1, two == 2))
    return [z3.Or(first == 1, first == 2)], goal, {"first_player": first}


# -- 10 Shooting types -----------------------------------------------------------------------------------

_SHOOTER_NAMES = ("engaged", "advanced", "has_assault_weapons", "has_close_quarters_weapons", "monster_or_vehicle",
                  "has_indirect_fire_weapons")


def _shooter() -> dict:
    return {name: z3.Bool(name) for name in _SHOOTER_NAMES}


@proof("close-quarters-and-assault-exclude-other-types", ("10.04", "10.05", "10.06", "10.07"),
       "Close-quarters shooting never applies together with another shooting type, and assault shooting never "
       "with normal or indirect shooting.")
def _types_exclusive() -> Built:
    u = _shooter()
    normal = shooting_phase.normal_shooting_eligible(u["engaged"], u["advanced"])
    assault = shooting_phase.assault_shooting_eligible(u["engaged"], u["advanced"], u["has_assault_weapons"])
    close = shooting_phase.close_quarters_shooting_eligible(u["engaged"], u["advanced"],
                                                            u["has_close_quarters_weapons"], u["monster_or_vehicle"])
    indirect = shooting_phase.indirect_shooting_eligible(u["engaged"], u["advanced"], u["has_indirect_fire_weapons"])
    goal = z3.And(z3.Implies(close, z3.Not(z3.Or(normal, assault, indirect))),
                  z3.Implies(assault, z3.Not(z3.Or(normal, indirect))))
    return [], goal, u


@proof("normal-and-indirect-apply-together", ("10.04", "10.07"),
       "Normal shooting is open exactly to an unengaged unit that did not advance, whatever its weapons, and "
       "indirect shooting is open alongside it exactly when that unit has [INDIRECT FIRE] weapons.")
def _normal_and_indirect() -> Built:
    u = _shooter()
    normal = shooting_phase.normal_shooting_eligible(u["engaged"], u["advanced"])
    indirect = shooting_phase.indirect_shooting_eligible(u["engaged"], u["advanced"], u["has_indirect_fire_weapons"])
    unengaged_stationary = z3.And(z3.Not(u["engaged"]), z3.Not(u["advanced"]))
    goal = z3.And(normal == unengaged_stationary,
                  z3.And(normal, indirect) == z3.And(unengaged_stationary, u["has_indirect_fire_weapons"]))
    return [], goal, u


@proof("eligible-to-shoot-has-a-shooting-type", ("10.02", "10.04", "10.05", "10.06", "10.07"),
       "Every unit that is eligible to shoot (10.02) has a shooting type it is eligible to make, so Select "
       "Shooting Type always has a choice.", expect="disproved")
def _eligible_has_type() -> Built:
    u = _shooter()
    on_battlefield, selected = z3.Bools("on_battlefield selected_to_shoot_this_phase")
    eligible = shooting_phase.eligible_to_shoot(on_battlefield, selected)
    has_type = shooting_phase.has_eligible_shooting_type(*(u[n] for n in _SHOOTER_NAMES))
    return [], z3.Implies(eligible, has_type), {**u, "on_battlefield": on_battlefield,
                                                "selected_to_shoot_this_phase": selected}


@proof("selected-unit-has-a-shooting-type", ("10.02",),
       "A unit the active player may select to shoot always has a shooting type to select, and is eligible to shoot.")
def _selected_has_type() -> Built:
    u = _shooter()
    on_battlefield, selected = z3.Bools("on_battlefield selected_to_shoot_this_phase")
    eligible = shooting_phase.eligible_to_shoot(on_battlefield, selected)
    has_type = shooting_phase.has_eligible_shooting_type(*(u[n] for n in _SHOOTER_NAMES))
    may = shooting_phase.may_select_to_shoot(eligible, has_type)
    return [], z3.Implies(may, z3.And(eligible, has_type)), {**u, "on_battlefield": on_battlefield,
                                                             "selected_to_shoot_this_phase": selected}


@proof("shooting-blocks-starting-actions", ("10.04", "10.05", "10.06", "10.07", "15.09", "16.01"),
       "A unit that resolved a shooting type this phase is never eligible to start an action, whatever else holds.")
def _shooting_blocks_actions() -> Built:
    names = ("on_battlefield", "aircraft_or_fortification", "battle_shocked", "engaged", "titanic",
             "advanced_or_fell_back", "started_another_action")
    facts = {n: z3.Bool(n) for n in names}
    oc = z3.Int("oc")
    goal = z3.Not(actions.eligible_to_start_action(oc=oc, shot_this_phase=True, **facts))
    return [_between(oc, -1, 10)], goal, {**facts, "oc": oc}


@proof("close-quarters-blast-never-targets-engaged-units", (shooting_phase.FAQ_CLOSE_QUARTERS_BLAST, "10.06"),
       "In close-quarters shooting no [BLAST] weapon targets an engaged unit, whether its model is a "
       "MONSTER/VEHICLE or the weapon also has [CLOSE-QUARTERS].")
def _cq_blast() -> Built:
    mv, cq = z3.Bools("monster_or_vehicle_model close_quarters_weapon")
    goal = z3.Not(shooting_phase.close_quarters_blast_may_target_engaged_unit(mv, cq))
    return [], goal, {"monster_or_vehicle_model": mv, "close_quarters_weapon": cq}


@proof("engaged-monster-blast-as-written", ("17.03", shooting_phase.FAQ_ENGAGED_MONSTER_BLAST),
       "Under 17.03's text, a [BLAST] weapon can never target an engaged enemy MONSTER/VEHICLE unit.",
       expect="disproved")
def _engaged_monster_blast_text() -> Built:
    target, own, blast = z3.Bools("target_monster_or_vehicle own_shooting_phase blast_weapon")
    allowed = monsters_and_vehicles.engaged_monster_vehicle_may_be_targeted(target, own)
    return [], z3.Implies(blast, z3.Not(allowed)), {"target_monster_or_vehicle": target,
                                                    "own_shooting_phase": own, "blast_weapon": blast}


@proof("engaged-monster-blast-never", (shooting_phase.FAQ_ENGAGED_MONSTER_BLAST,),
       "Following the FAQ, no [BLAST] weapon ever targets an engaged enemy MONSTER/VEHICLE unit, and other "
       "weapons may exactly when 17.03 allows it.")
def _engaged_monster_blast() -> Built:
    target, own, blast = z3.Bools("target_monster_or_vehicle own_shooting_phase blast_weapon")
    allowed = shooting_phase.engaged_monster_vehicle_target_allowed(target, own, blast)
    text = monsters_and_vehicles.engaged_monster_vehicle_may_be_targeted(target, own)
    goal = z3.And(z3.Implies(blast, z3.Not(allowed)), z3.Implies(z3.Not(blast), allowed == text))
    return [], goal, {"target_monster_or_vehicle": target, "own_shooting_phase": own, "blast_weapon": blast}


# -- 14 Objectives ----------------------------------------------------------------------------------------


def _levels() -> tuple[list, dict]:
    level_1, level_2, secured = z3.Ints("level_1 level_2 secured_by")
    end_of_phase = z3.Bool("end_of_phase")
    pre = [level_1 >= 0, level_2 >= 0, _between(secured, 0, 2)]
    return pre, {"level_1": level_1, "level_2": level_2, "secured_by": secured, "end_of_phase": end_of_phase}


@proof("highest-level-controls-at-end-of-phase", ("14.02", "14.03"),
       "At the end of a phase the player with the highest level of control controls the objective, secured or not; "
       "on a tie only the securing player (if any) does.")
def _end_of_phase_control() -> Built:
    pre, s = _levels()
    l1, l2, by = s["level_1"], s["level_2"], s["secured_by"]
    controller = objectives.objective_controller(l1, l2, by, True)
    goal = z3.And(z3.Implies(l1 > l2, controller == 1), z3.Implies(l2 > l1, controller == 2),
                  z3.Implies(l1 == l2, controller == by))
    return pre, goal, {k: v for k, v in s.items() if k != "end_of_phase"}


@proof("highest-level-controls-at-every-check", ("14.02", "14.03"),
       "Whenever control is determined, at the end of a phase or of a turn, the player with the highest level of "
       "control controls the objective.", expect="disproved")
def _every_check_control() -> Built:
    pre, s = _levels()
    l1, l2 = s["level_1"], s["level_2"]
    controller = objectives.objective_controller(l1, l2, s["secured_by"], s["end_of_phase"])
    goal = z3.And(z3.Implies(l1 > l2, controller == 1), z3.Implies(l2 > l1, controller == 2))
    return pre, goal, s


@proof("control-needs-a-model-with-oc", ("14.02", "01.07"),
       "A player controls an objective nobody secured only with a model of OC 1 or more within range that is not "
       "battle-shocked.")
def _control_needs_oc() -> Built:
    ocs = z3.Ints("oc0 oc1 oc2")
    shocked = z3.Bools("shocked0 shocked1 shocked2")
    level_2 = z3.Int("level_2")
    models = [objectives.ModelInRange(oc, bs) for oc, bs in zip(ocs, shocked)]
    level_1 = objectives.level_of_control(models)
    controller = objectives.objective_controller(level_1, level_2, 0, z3.Bool("end_of_phase"))
    has_oc = z3.Or(*(z3.And(oc >= 1, z3.Not(bs)) for oc, bs in zip(ocs, shocked)))
    pre = [z3.Or(oc == -1, oc >= 0) for oc in ocs] + [level_2 >= 0]
    symbols = {f"oc{i}": oc for i, oc in enumerate(ocs)}
    symbols.update({f"shocked{i}": bs for i, bs in enumerate(shocked)})
    return pre, z3.Implies(controller == 1, has_oc), {**symbols, "level_2": level_2}


# -- 15 Stratagems --------------------------------------------------------------------------------------


def _use() -> tuple[list, dict]:
    cp, targeted, stratagem, mode = z3.Ints("cp target_stratagems_this_phase stratagem mode")
    used, friendly, shocked, extra, lifted = z3.Bools(
        "used_this_phase target_friendly target_battle_shocked use_extra_section more_than_one_allowed")
    pre = [cp >= 0, targeted >= 0, _between(stratagem, 1, 10), _between(mode, 1, 2)]
    return pre, {"cp": cp, "target_stratagems_this_phase": targeted, "stratagem": stratagem, "mode": mode,
                 "used_this_phase": used, "target_friendly": friendly, "target_battle_shocked": shocked,
                 "use_extra_section": extra, "more_than_one_allowed": lifted}


def _cost(s: dict) -> z3.ArithRef:
    extra = stratagems.heroic_intervention_extra_cost(s["mode"])
    return stratagems.stratagem_cost(stratagems.core_stratagem_cost(s["stratagem"]), extra, s["use_extra_section"])


def _may_use(s: dict, cost: z3.ArithRef) -> z3.BoolRef:
    return stratagems.may_use_stratagem(s["cp"], cost, s["used_this_phase"], s["target_stratagems_this_phase"],
                                        s["target_friendly"], s["target_battle_shocked"], s["more_than_one_allowed"])


@proof("cp-never-negative", ("15.01", "15.11", "15.12"),
       "Using any core stratagem, with or without its +1CP section, never leaves a player with negative CP.")
def _cp_never_negative() -> Built:
    pre, s = _use()
    cost = _cost(s)
    return pre, z3.Implies(_may_use(s, cost), stratagems.cp_after_use(s["cp"], cost) >= 0), s


@proof("stratagem-once-per-phase", ("15.01",),
       "A player who has used a stratagem this phase can never use it again in the same phase, whatever their CP.")
def _once_per_phase() -> Built:
    pre, s = _use()
    return pre + [s["used_this_phase"]], z3.Not(_may_use(s, _cost(s))), s


@proof("one-stratagem-per-unit-per-phase", ("15.01",),
       "Unless a rule lifts the limit, a unit already targeted by its player's stratagem this phase cannot be "
       "targeted by another.")
def _one_per_unit() -> Built:
    pre, s = _use()
    pre += [s["target_stratagems_this_phase"] >= 1, z3.Not(s["more_than_one_allowed"])]
    return pre, z3.Not(_may_use(s, _cost(s))), s


@proof("no-stratagem-on-own-battle-shocked-unit", ("15.01", "01.07"),
       "A player never targets their own battle-shocked unit with a stratagem.")
def _battle_shocked_target() -> Built:
    pre, s = _use()
    pre += [s["target_friendly"], s["target_battle_shocked"]]
    return pre, z3.Not(_may_use(s, _cost(s))), s


@proof("heroic-intervention-always-has-a-mode", ("15.11", "15.01"),
       "A player who can pay Heroic Intervention's cost can always select one of its modes (Leap to Defend adds "
       "no CP), and Into the Fray needs one CP more.")
def _heroic_mode() -> Built:
    cp = z3.Int("cp")
    base = stratagems.core_stratagem_cost(int(CoreStratagem.HEROIC_INTERVENTION))

    def affordable(mode: HeroicMode) -> z3.BoolRef:
        return cp >= stratagems.stratagem_cost(base, stratagems.heroic_intervention_extra_cost(int(mode)), True)

    goal = z3.And(z3.Or(*(affordable(m) for m in HeroicMode)),
                  affordable(HeroicMode.INTO_THE_FRAY) == (cp >= base + 1))
    return [cp >= base], goal, {"cp": cp}


@proof("into-the-fray-charge-at-most-six", ("15.11",),
       "With Into the Fray the charge roll is never more than 6 and a roll of 6 or less is unchanged; Leap to "
       "Defend never changes it.")
def _into_the_fray() -> Built:
    roll = z3.Int("roll")
    fray = stratagems.heroic_intervention_charge_roll(roll, int(HeroicMode.INTO_THE_FRAY))
    leap = stratagems.heroic_intervention_charge_roll(roll, int(HeroicMode.LEAP_TO_DEFEND))
    goal = z3.And(fray <= 6, z3.Implies(roll <= 6, fray == roll), leap == roll)
    return [roll >= 0], goal, {"roll": roll}


@proof("command-re-roll-one-dice-except-charge", ("15.02",),
       "Command Re-roll re-rolls exactly one of the dice rolled together, except a charge roll, re-rolled in full.")
def _command_re_roll() -> Built:
    roll, dice = z3.Ints("roll dice_rolled")
    count = stratagems.command_re_roll_dice(roll, dice)
    goal = count == z3.If(roll == int(Roll.CHARGE), dice, 1)
    return [_between(roll, 1, 11), dice >= 1], goal, {"roll": roll, "dice_rolled": dice}


@proof("crushing-impact-at-most-six-each", ("15.06",),
       "Crushing Impact with eight dice inflicts at most 6 mortal wounds on each unit, and never more in all than "
       "the dice rolled.")
def _crushing_impact() -> Built:
    rolls = z3.Ints(" ".join(f"d{i}" for i in range(8)))
    result = stratagems.crushing_impact_mortal_wounds(rolls, 8)
    goal = z3.And(result.own_unit >= 0, result.own_unit <= 6, result.enemy_unit >= 0, result.enemy_unit <= 6,
                  result.own_unit + result.enemy_unit <= 8)
    return [_between(r, 1, 6) for r in rolls], goal, {f"d{i}": r for i, r in enumerate(rolls)}


@proof("explosives-zero-to-six", ("15.05",), "Explosives inflicts between 0 and 6 mortal wounds, one per 4+.")
def _explosives() -> Built:
    rolls = z3.Ints(" ".join(f"d{i}" for i in range(6)))
    wounds = stratagems.explosives_mortal_wounds(rolls)
    goal = z3.And(wounds >= 0, wounds <= 6, wounds == sum(z3.If(r >= 4, 1, 0) for r in rolls))
    return [_between(r, 1, 6) for r in rolls], goal, {f"d{i}": r for i, r in enumerate(rolls)}


@proof("opponent-turn-stratagems-not-in-own-turn", ("15.07", "15.08", "15.10", "15.11", "15.12"),
       "Rapid Ingress, Fire Overwatch, Smokescreen, Heroic Intervention and Counteroffensive can never be used in "
       "your own turn; Insane Bravery, Explosives and Crushing Impact never in your opponent's.")
def _turn_windows() -> Built:
    phase, moment = z3.Ints("phase moment")
    opponents = (CoreStratagem.RAPID_INGRESS, CoreStratagem.FIRE_OVERWATCH, CoreStratagem.SMOKESCREEN,
                 CoreStratagem.HEROIC_INTERVENTION, CoreStratagem.COUNTEROFFENSIVE)
    yours = (CoreStratagem.INSANE_BRAVERY, CoreStratagem.EXPLOSIVES, CoreStratagem.CRUSHING_IMPACT)
    goal = z3.And(*(z3.Not(stratagems.stratagem_when(int(s), phase, True, moment)) for s in opponents),
                  *(z3.Not(stratagems.stratagem_when(int(s), phase, False, moment)) for s in yours))
    return [_between(phase, 0, 6), _between(moment, 1, 8)], goal, {"phase": phase, "moment": moment}


# -- 16 Actions --------------------------------------------------------------------------------------------


@proof("engaged-units-start-actions-only-if-titanic", ("16.01",),
       "An otherwise eligible engaged unit can start an action exactly when it is TITANIC.")
def _titanic_action() -> Built:
    titanic = z3.Bool("titanic")
    oc = z3.Int("oc")
    eligible = actions.eligible_to_start_action(True, False, False, oc, True, titanic, False, False, False)
    return [oc >= 1], eligible == titanic, {"titanic": titanic, "oc": oc}


@proof("action-stops-shooting-and-charging", ("16.01", "10.02"),
       "A non-TITANIC unit that started an action this turn is neither eligible to shoot nor to declare a charge; a "
       "TITANIC one still shoots.")
def _action_effects() -> Built:
    titanic, on_battlefield, selected = z3.Bools("titanic on_battlefield selected_to_shoot_this_phase")
    shoot = shooting_phase.eligible_to_shoot(on_battlefield, selected, True, titanic)
    goal = z3.And(z3.Implies(z3.Not(titanic), z3.Not(shoot)),
                  z3.Implies(titanic, shoot == z3.And(on_battlefield, z3.Not(selected))),
                  z3.Not(actions.may_declare_charge_after_action(True)))
    return [], goal, {"titanic": titanic, "on_battlefield": on_battlefield, "selected_to_shoot_this_phase": selected}


@proof("battle-shocked-units-neither-start-nor-complete-actions", ("16.01", "01.07"),
       "A battle-shocked unit can never start an action, and an action its unit started never completes while it is "
       "battle-shocked.")
def _shocked_actions() -> Built:
    names = ("on_battlefield", "aircraft_or_fortification", "engaged", "titanic", "advanced_or_fell_back",
             "started_another_action", "shot_this_phase", "made_other_move", "left_battlefield")
    f = {n: z3.Bool(n) for n in names}
    oc = z3.Int("oc")
    start = actions.eligible_to_start_action(f["on_battlefield"], f["aircraft_or_fortification"], True, oc,
                                             f["engaged"], f["titanic"], f["advanced_or_fell_back"],
                                             f["started_another_action"], f["shot_this_phase"])
    complete = actions.action_completes(f["made_other_move"], f["left_battlefield"], True)
    return [_between(oc, -1, 10)], z3.And(z3.Not(start), z3.Not(complete)), {**f, "oc": oc}
