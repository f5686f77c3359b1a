"""The z3 proofs of properties/proofs_turn.py: each holds (or, for a finding, is disproved with a
counterexample) for the real rules, and each proved one fails for a broken copy of the rule it rests on."""

from __future__ import annotations

import dataclasses

import pytest

from properties import broken_rules
from properties import proofs
from properties import proofs_turn  # noqa: F401  (registers the proofs)
from rules.core import actions, appendix, battle_round, command_phase, objectives, shooting_phase, stratagems
from rules.core.stratagems import CoreStratagem, HeroicMode
from rules.logic import And, If, Min, Not, Or

MINE = broken_rules.proofs_built_in(proofs_turn)


@pytest.mark.parametrize("name", MINE)
def test_turn_proof_has_its_expected_verdict(name):
    broken_rules.assert_expected_verdict(name)


def _when_row_turn_flipped(label_start: str):
    """The WHEN table with one row's "your"/"opponent's" turn flipped: a plausible transcription slip."""
    rows = []
    for row in stratagems.STRATAGEM_WHEN.rows:
        if row.label.startswith(label_start):
            then = row.then
            row = dataclasses.replace(row, then=lambda phase, your_turn, moment, stratagem, _then=then:
                                      _then(phase=phase, your_turn=Not(your_turn), moment=moment, stratagem=stratagem))
        rows.append(row)
    return dataclasses.replace(stratagems.STRATAGEM_WHEN, rows=tuple(rows))


def _secured_forever():
    """The objective table with 14.03's "at the end of a phase" dropped: a secured objective never passes."""
    rows = []
    for row in objectives.OBJECTIVE_CONTROL.rows:
        if row.label.startswith("secured by player 1"):
            row = dataclasses.replace(row, when=lambda secured_by, **_: secured_by == 1)
        elif row.label.startswith("secured by player 2"):
            row = dataclasses.replace(row, when=lambda secured_by, **_: secured_by == 2)
        rows.append(row)
    return dataclasses.replace(objectives.OBJECTIVE_CONTROL, rows=tuple(rows))


# (proof, module, attribute, broken copy): each a plausible slip that must turn the proof "disproved".
MUTANTS = [
    ("at-and-below-half-strength-exclusive", appendix, "below_half_strength",
     lambda starting_strength, models, wounds=1, w=1: If(starting_strength == 1, 2 * wounds <= w,
                                                         2 * models <= starting_strength)),
    ("below-half-strength-is-below-starting-strength", appendix, "below_starting_strength",
     lambda starting_strength, models, wounds=1, w=1: models < starting_strength),
    ("odd-strength-never-at-half-strength", appendix, "at_half_strength",
     lambda starting_strength, models, wounds=1, w=1: If(starting_strength == 1, 2 * wounds + 1 == w,
                                                         2 * models + 1 == starting_strength)),
    ("strength-tables-cover-every-unit-on-the-battlefield", appendix, "AT_HALF_STRENGTH",
     dataclasses.replace(appendix.AT_HALF_STRENGTH,
                         assume=lambda starting_strength, models, wounds, w: And(
                             models <= starting_strength, wounds <= w, Or(starting_strength > 2, models == 1)))),
    ("revived-models-never-exceed-starting-strength", appendix, "models_revived",
     lambda requested, models, starting_strength: requested),
    ("battle-shock-roll-exactly-for-shocked-or-half-strength", command_phase, "must_take_battle_shock_roll",
     lambda battle_shocked, starting_strength, models, wounds=1, w=1: Or(
         battle_shocked, appendix.below_half_strength(starting_strength, models, wounds, w))),
    ("battle-shock-step-roll-decides", command_phase, "battle_shocked_after_step_roll",
     lambda battle_shocked_at_start_of_step, roll_succeeded: Or(battle_shocked_at_start_of_step, Not(roll_succeeded))),
    ("insane-bravery-cannot-clear-battle-shock", stratagems, "may_use_stratagem",
     lambda cp, cost, used_this_phase, target_stratagems_this_phase, target_friendly, target_battle_shocked,
     more_than_one_allowed=False: And(cp >= cost, Not(used_this_phase))),
    ("each-player-takes-one-turn-per-round", battle_round, "turn_player",
     lambda first_player, second_turn: If(second_turn, first_player, 3 - first_player)),
    ("close-quarters-and-assault-exclude-other-types", shooting_phase, "indirect_shooting_eligible",
     lambda engaged, advanced, has_indirect_fire_weapons: has_indirect_fire_weapons),
    ("normal-and-indirect-apply-together", shooting_phase, "normal_shooting_eligible",
     lambda engaged, advanced: Not(engaged)),
    ("selected-unit-has-a-shooting-type", shooting_phase, "may_select_to_shoot",
     lambda eligible, has_shooting_type: eligible),
    ("shooting-blocks-starting-actions", shooting_phase, "eligible_to_start_action_after_shooting",
     lambda shot_this_phase: True),
    ("close-quarters-blast-never-targets-engaged-units", shooting_phase, "close_quarters_target_allowed",
     lambda monster_or_vehicle_model, close_quarters_weapon, blast_weapon, target_engaged_with_unit:
         If(target_engaged_with_unit, Or(monster_or_vehicle_model, close_quarters_weapon), monster_or_vehicle_model)),
    ("engaged-monster-blast-never", shooting_phase, "engaged_monster_vehicle_target_allowed",
     lambda target_monster_or_vehicle, own_shooting_phase, blast_weapon: And(target_monster_or_vehicle,
                                                                              own_shooting_phase)),
    ("highest-level-controls-at-end-of-phase", objectives, "OBJECTIVE_CONTROL", _secured_forever()),
    ("control-needs-a-model-with-oc", objectives, "level_of_control",
     lambda models_in_range: sum((m.oc for m in models_in_range), 0)),
    ("cp-never-negative", stratagems, "may_use_stratagem",
     lambda cp, cost, used_this_phase, target_stratagems_this_phase, target_friendly, target_battle_shocked,
     more_than_one_allowed=False: And(cp >= stratagems.core_stratagem_cost(CoreStratagem.COMMAND_RE_ROLL),
                                      Not(used_this_phase))),
    ("stratagem-once-per-phase", stratagems, "may_use_stratagem",
     lambda cp, cost, used_this_phase, target_stratagems_this_phase, target_friendly, target_battle_shocked,
     more_than_one_allowed=False: cp >= cost),
    ("one-stratagem-per-unit-per-phase", stratagems, "may_use_stratagem",
     lambda cp, cost, used_this_phase, target_stratagems_this_phase, target_friendly, target_battle_shocked,
     more_than_one_allowed=False: And(cp >= cost, Not(used_this_phase), Not(target_battle_shocked))),
    ("no-stratagem-on-own-battle-shocked-unit", stratagems, "may_use_stratagem",
     lambda cp, cost, used_this_phase, target_stratagems_this_phase, target_friendly, target_battle_shocked,
     more_than_one_allowed=False: And(cp >= cost, Not(used_this_phase), target_stratagems_this_phase == 0)),
    ("heroic-intervention-always-has-a-mode", stratagems, "heroic_intervention_extra_cost", lambda mode: 1),
    ("into-the-fray-charge-at-most-six", stratagems, "heroic_intervention_charge_roll",
     lambda roll, mode: If(And(mode == HeroicMode.INTO_THE_FRAY, roll > 6), 7, roll)),
    ("command-re-roll-one-dice-except-charge", stratagems, "command_re_roll_dice", lambda roll, dice_rolled: 1),
    ("crushing-impact-at-most-six-each", stratagems, "crushing_impact_mortal_wounds",
     lambda rolls, toughness: stratagems.CrushingImpact(
         Min(sum(If(r == 1, 1, 0) for r in rolls), 6), sum(If(r >= 5, 1, 0) for r in rolls))),
    ("explosives-zero-to-six", stratagems, "explosives_mortal_wounds",
     lambda rolls: sum(If(r >= 3, 1, 0) for r in rolls)),
    ("opponent-turn-stratagems-not-in-own-turn", stratagems, "STRATAGEM_WHEN", _when_row_turn_flipped("SMOKESCREEN")),
    ("engaged-units-start-actions-only-if-titanic", actions, "START_ACTION",
     dataclasses.replace(actions.START_ACTION, rows=tuple(
         dataclasses.replace(r, when=lambda engaged, **_: engaged) if r.label.startswith("it is engaged") else r
         for r in actions.START_ACTION.rows))),
    ("action-stops-shooting-and-charging", shooting_phase, "eligible_to_shoot",
     lambda on_battlefield, selected_to_shoot_this_phase, started_action_this_turn=False, titanic=False:
         And(on_battlefield, Not(selected_to_shoot_this_phase))),
    ("battle-shocked-units-neither-start-nor-complete-actions", actions, "action_completes",
     lambda made_other_move, left_battlefield, battle_shocked: And(Not(made_other_move), Not(left_battlefield))),
]


def test_every_proved_turn_proof_has_a_mutant():
    broken_rules.assert_every_proved_proof_has_a_mutant(MINE, MUTANTS)


@pytest.mark.parametrize("name,module,attribute,mutant", MUTANTS, ids=[m[0] for m in MUTANTS])
def test_turn_proof_catches_a_broken_rule(monkeypatch, name, module, attribute, mutant):
    broken_rules.assert_proof_catches(monkeypatch, name, module, attribute, mutant)


def test_secured_objective_finding_disappears_under_the_rejected_reading(monkeypatch):
    """Under the "every-check" reading of 14.03 (the end of a turn counts as the end of a phase) the statement
    14.02 makes holds, so the finding is exactly the choice between the two readings."""
    monkeypatch.setattr(objectives, "objective_controller",
                        lambda level_1, level_2, secured_by=0, end_of_phase=True:
                            objectives.OBJECTIVE_CONTROL(level_1=level_1, level_2=level_2, secured_by=secured_by,
                                                         end_of_phase=True))
    assert proofs.check(proofs.PROOFS["highest-level-controls-at-every-check"]).status == "proved"
