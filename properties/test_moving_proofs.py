"""The z3 proofs of chapters 09, 11, 12, 21 and 23 have the verdict they claim, and fail for a broken rule.

The proof modules are loaded inside the tests (``proofs.load_all()``), never at import:
``properties/test_proofs.py`` parametrizes over whatever is registered when it is collected
and expects every proof there to be proved, while two of these are findings (expected
disproofs). Each mutant breaks one rule function or table the way a plausible slip would.
"""

from __future__ import annotations

import itertools

from rules import logic

import dataclasses

import pytest
import z3

from properties import proofs
from rules.core import aircraft, charge_phase, core_concepts, fight_phase, movement_phase
from rules.logic import And, DecisionTable, If, Implies, Not, Or

MOVING = {
    "movement-phase-move-type-always-available": "proved",
    "movement-phase-every-unit-has-a-move-type": "disproved",
    "fall-back-always-has-a-mode": "proved",
    "fall-back-modes-both-open-unless-battle-shocked": "proved",
    "consolidation-modes-exclusive-and-mandatory": "proved",
    "consolidation-needs-a-mode": "proved",
    "failed-charge-roll-of-two": "proved",
    "charge-eligibility-reasons": "proved",
    "advance-and-fall-back-restrictions": "proved",
    "eligible-unit-always-has-a-fight-type": "proved",
    "normal-and-overrun-overlap-when-newly-engaged": "proved",
    "overrun-fight-needs-eligibility-to-fight": "proved",
    "fight-step-always-progresses": "proved",
    "fight-step-as-written-always-progresses": "disproved",
    "fight-selections-alternate": "proved",
    "fights-first-units-are-selected-first": "proved",
    "fight-type-table-checked-over-every-engagement-history": "proved",
    "fight-sequence-table-checked-over-every-position": "proved",
}


def _registry() -> dict:
    return proofs.load_all()


def _rows(table: DecisionTable, rows) -> DecisionTable:
    return dataclasses.replace(table, rows=tuple(rows))


def _then(table: DecisionTable, index: int, then) -> DecisionTable:
    rows = list(table.rows)
    rows[index] = dataclasses.replace(rows[index], then=then)
    return _rows(table, rows)


def _without(table: DecisionTable, label_start: str) -> DecisionTable:
    return _rows(table, [r for r in table.rows if not r.label.startswith(label_start)])


ME, FT = movement_phase.MOVE_ELIGIBILITY, fight_phase.FIGHT_TYPE_ELIGIBILITY
_original_selectable = movement_phase.selectable_modes


def _charge_reach_horizontal_only(charger, target, maximum):
    """Measures "within" across the table only, as the rejected reading of charge-distances-bound-height does."""
    pairs = [(a, b) for a in charger.models for b in target.models]
    return And(Or(*(core_concepts.within_horizontally(a, b, 12) for a, b in pairs)),
               Or(*(core_concepts.within_horizontally(a, b, maximum) for a, b in pairs)))


def _ff_selects_any_eligible() -> DecisionTable:
    table = fight_phase.FIGHT_SELECTION
    rows = [dataclasses.replace(r, when=lambda step, has_eligible, **_: And(step == fight_phase.FightStep.FIGHTS_FIRST,
                                                                            has_eligible))
            if r.label.startswith("1. Fights First") else r for r in table.rows]
    return _rows(table, rows)


MUTANTS = [
    ("movement-phase-move-type-always-available", movement_phase, "MOVE_ELIGIBILITY",
     _then(ME, 0, lambda on_battlefield, **_: on_battlefield)),
    ("fall-back-always-has-a-mode", movement_phase, "fall_back_mode_selectable",
     lambda mode, battle_shocked: And(mode == movement_phase.FallBackMode.ORDERED_RETREAT, Not(battle_shocked))),
    ("fall-back-modes-both-open-unless-battle-shocked", movement_phase, "selectable_modes",
     lambda applies, mandatory: _original_selectable(applies, [True] * len(applies))),
    ("consolidation-modes-exclusive-and-mandatory", movement_phase, "selectable_modes",
     lambda applies, mandatory: list(applies)),
    ("consolidation-needs-a-mode", fight_phase, "CONSOLIDATION_MODE",
     _without(fight_phase.CONSOLIDATION_MODE, "Objective")),
    ("failed-charge-roll-of-two", charge_phase, "charge_target_in_reach", _charge_reach_horizontal_only),
    ("failed-charge-roll-of-two", charge_phase, "charge_roll_maximum_distance",
     lambda dice_total, modifier=0: dice_total + modifier + 1),
    ("charge-eligibility-reasons", charge_phase, "CHARGE_ELIGIBILITY",
     _without(charge_phase.CHARGE_ELIGIBILITY, "made an advance")),
    ("charge-eligibility-reasons", aircraft, "aircraft_may_declare_charge", lambda is_aircraft: True),
    ("advance-and-fall-back-restrictions", movement_phase, "NOT_ELIGIBLE_AFTER_MOVE",
     _without(movement_phase.NOT_ELIGIBLE_AFTER_MOVE, "Advance move: not eligible to declare")),
    ("eligible-unit-always-has-a-fight-type", fight_phase, "FIGHT_TYPE_ELIGIBILITY",
     _then(FT, 1, lambda engaged, unengaged_at_start_of_fight_step, became_engaged_during_phase, **_: And(
         unengaged_at_start_of_fight_step, Or(Not(engaged), became_engaged_during_phase)))),
    ("normal-and-overrun-overlap-when-newly-engaged", fight_phase, "FIGHT_TYPE_ELIGIBILITY",
     _then(FT, 0, lambda engaged, unengaged_at_start_of_fight_step, **_: And(engaged,
                                                                             Not(unengaged_at_start_of_fight_step)))),
    ("overrun-fight-needs-eligibility-to-fight", fight_phase, "may_make_fight_type",
     lambda fight_type, eligible_to_fight, engaged, unengaged_at_start_of_fight_step, became_engaged_during_phase:
     fight_phase.FIGHT_TYPE_ELIGIBILITY(fight_type=fight_type, engaged=engaged,
                                        unengaged_at_start_of_fight_step=unengaged_at_start_of_fight_step,
                                        became_engaged_during_phase=became_engaged_during_phase)),
    ("fight-step-always-progresses", fight_phase, "FIGHT_SELECTION", fight_phase.fight_selection_as_written()),
    ("fight-selections-alternate", fight_phase, "after_fight",
     lambda step, fighter_owner, turn_player, fights_first_eligible_now: (
         If(And(step == fight_phase.FightStep.REMAINING, fights_first_eligible_now),
                        fight_phase.FightStep.FIGHTS_FIRST, step),
         If(And(step == fight_phase.FightStep.REMAINING, fights_first_eligible_now), turn_player,
                        3 - fighter_owner))),
    ("fights-first-units-are-selected-first", fight_phase, "FIGHT_SELECTION", _ff_selects_any_eligible()),
    ("fight-type-table-checked-over-every-engagement-history", fight_phase, "FIGHT_TYPE_ELIGIBILITY",
     dataclasses.replace(FT, assume=lambda engaged, unengaged_at_start_of_fight_step, became_engaged_during_phase, **_:
                         Implies(Or(engaged, unengaged_at_start_of_fight_step), became_engaged_during_phase))),
    ("fight-sequence-table-checked-over-every-position", fight_phase, "FIGHT_SELECTION",
     dataclasses.replace(fight_phase.FIGHT_SELECTION, assume=lambda original=fight_phase.FIGHT_SELECTION.assume,
                         **facts: And(original(**facts), Implies(facts["has_eligible"], facts["may_pass"])))),
]


@pytest.mark.parametrize("name", sorted(MOVING))
def test_proof_has_its_expected_verdict(name):
    item = _registry()[name]
    assert item.expect == MOVING[name]
    result = proofs.check(item)
    assert result.status == MOVING[name], result.detail
    if result.status == "disproved":
        assert result.example.startswith("@example(") and result.counterexample


@pytest.mark.parametrize("name", sorted(MOVING))
def test_proof_is_not_vacuous(name):
    """The preconditions can all hold at once, so "proved" is not proved about nothing."""
    pre, _goal, _symbols = _registry()[name].build()
    solver = z3.Solver()
    solver.add(*pre)
    assert solver.check() == z3.sat


def _ids(mutants):
    return [f"{name}[{attribute}]" for name, _module, attribute, _mutant in mutants]


@pytest.mark.parametrize("name,module,attribute,mutant", MUTANTS, ids=_ids(MUTANTS))
def test_proof_catches_a_broken_rule(monkeypatch, name, module, attribute, mutant):
    item = _registry()[name]
    assert proofs.check(item).status == "proved"
    monkeypatch.setattr(module, attribute, mutant)
    result = proofs.check(item)
    assert result.status == "disproved", result.detail
    assert result.example.startswith("@example(") and result.counterexample


def test_every_proved_proof_has_a_mutant():
    assert {name for name, verdict in MOVING.items() if verdict == "proved"} == {m[0] for m in MUTANTS}


def test_these_are_all_the_proofs_of_the_two_modules():
    registry = _registry()
    mine = {name for name, item in registry.items()
            if item.build.__module__ in ("properties.proofs_moving", "properties.proofs_fighting")}
    assert mine == set(MOVING)


def test_aircraft_finding_is_the_aircraft_rule(monkeypatch):
    """Lift 23.02's "only ingress" and every unit has a move type again: the finding comes from that sentence."""
    item = _registry()["movement-phase-every-unit-has-a-move-type"]
    monkeypatch.setattr(aircraft, "aircraft_may_make_move", lambda is_aircraft, move_is_ingress: True)
    assert proofs.check(item).status == "proved"


def test_aircraft_finding_counterexample_is_round_one_reserves():
    result = proofs.check(_registry()["movement-phase-every-unit-has-a-move-type"])
    c = result.counterexample
    assert c["is_aircraft"] and c["in_strategic_reserves"] and c["battle_round"] == 1 and not c["ingress_eligible"]


def test_pass_loop_counterexample_really_loops():
    """Replay the finding on the as-written table: some position repeats with nobody fighting.

    z3 may return any of several counterexamples (they depend on the solver's state), so the
    replay searches the small space of positions for one that loops, after checking that the
    proof is still disproved.
    """
    assert proofs.check(_registry()["fight-step-as-written-always-progresses"]).status == "disproved"
    table = fight_phase.fight_selection_as_written()
    looping = []
    for step, chooser, passed in itertools.product((0, 1, 2), (1, 2), (False, True)):
        for ff1, ff2, el1, el2, far1, far2 in itertools.product((False, True), repeat=6):
            facts = dict(fights_first=(ff1, ff2), eligible=(el1, el2), far=(far1, far2))
            position = (step, chooser, passed)
            seen = [position]
            try:
                for _ in range(4):
                    action, *rest = fight_phase.fight_sequence_move(*position, wants_to_pass=True, table=table,
                                                                    **facts)
                    if action in (fight_phase.FightAction.SELECT, fight_phase.FightAction.END):
                        break
                    position = tuple(rest)
                    seen.append(position)
                else:
                    if len(set(seen)) < len(seen):
                        looping.append((seen[0], facts))
            except logic.NoRowApplies:
                continue  # outside the table's domain (e.g. a Fights First unit that is not eligible)
    assert looping, "no position loops on the as-written table"
    # The same search on the table the code follows finds none.
    for (step, chooser, passed), facts in looping:
        position = (step, chooser, passed)
        progressed = False
        for _ in range(4):
            action, *rest = fight_phase.fight_sequence_move(*position, wants_to_pass=True, **facts)
            if action in (fight_phase.FightAction.SELECT, fight_phase.FightAction.END):
                progressed = True
                break
            position = tuple(rest)
        assert progressed, (step, chooser, passed, facts)