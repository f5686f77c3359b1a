"""Readings of chapters 09, 11, 12, 21 and 23 the code follows: where the readings differ in outcome, a case shows it.

Also checks that every evidence quote of these chapters' interpretation and finding files appears on the
cited line of the cited document (the shared check covers interpretations.yaml only).
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest
import yaml

from rules.core import aircraft, charge_phase, core_concepts, fight_phase, flying_and_surging, movement_phase
from rules.model import Placed, PlacedUnit
from rules.state import GameState, MoveType, UnitState
from rules40k import annotations

RECORDS = {r["id"]: r for r in annotations.interpretations("core")}
ANNOTATIONS = Path(__file__).resolve().parent.parent / "spec" / "core" / "annotations"
SEEDS = Path(__file__).resolve().parent.parent.parent / "shared" / "seeds"
CORE = Path(__file__).resolve().parent.parent / "spec" / "sources" / "core.txt"
MINE = ("09-", "11-", "12-", "21-", "23-", "99-appendix-fighting")


def test_aircraft_in_reserves_is_selected_without_a_move(monkeypatch):
    jet = UnitState("Fighter", owner=1, keywords=frozenset({"AIRCRAFT", "FLY"}), on_battlefield=False, in_reserves=True)
    state = GameState(turn_player=1, units=(jet,))
    eligible = movement_phase.eligible_moves(jet, m=20, ingress_eligible=False)  # battle round 1 (20.03)
    after = movement_phase.select_unit_to_move(state, "Fighter", None, eligible)
    chosen = after.unit("Fighter").moves
    assert RECORDS["aircraft-without-a-move-type"]["chosen"] == "selected-without-move"
    assert movement_phase.move_units_step_can_end(after)
    # remain-stationary-allowed: 23.02 would not cover remaining stationary.
    monkeypatch.setattr(aircraft, "aircraft_may_make_move",
                        lambda is_aircraft, move_is_ingress: True)
    rejected = movement_phase.eligible_moves(jet, m=20, ingress_eligible=False)
    assert (chosen, rejected) == ((), [movement_phase.Move.REMAIN_STATIONARY])


def test_a_unit_without_a_move_type_must_not_skip_one_it_has():
    unit = UnitState("Guardsmen", owner=1)
    state = GameState(turn_player=1, units=(unit,))
    with pytest.raises(ValueError, match="must make one"):
        movement_phase.select_unit_to_move(state, "Guardsmen", None, movement_phase.eligible_moves(unit, m=6))
    after = movement_phase.select_unit_to_move(state, "Guardsmen", movement_phase.Move.REMAIN_STATIONARY,
                                               movement_phase.eligible_moves(unit, m=6))
    assert after.unit("Guardsmen").moves == (MoveType.REMAIN_STATIONARY,)


def test_charge_reach_bounds_the_height_too():
    charger = PlacedUnit((Placed(0, 0, base_mm="32"),), owner=1)
    high_up = PlacedUnit((Placed(Fraction(5, 2), 0, base_mm="32", z=6, owner=2),), owner=2)  # 1.24" across, 6" up
    chosen = charge_phase.charge_target_in_reach(charger, high_up, 2)
    horizontal_only = core_concepts.within_horizontally(charger.models[0], high_up.models[0], 2)
    assert RECORDS["charge-distances-bound-height"]["chosen"] == "both-directions"
    assert (chosen, horizontal_only) == (False, True)
    # Not engaged either (6" up is beyond 5"), so on the rejected reading a roll of 2 could select it.
    from rules.core import moving

    assert not moving.units_engaged(charger, high_up)


def test_return_to_fights_first_keeps_alternating():
    chosen = fight_phase.after_fight(fight_phase.FightStep.REMAINING, fighter_owner=1, turn_player=1,
                                     fights_first_eligible_now=True)
    turn_player_restarts = (fight_phase.FightStep.FIGHTS_FIRST, 1)
    assert RECORDS["fights-first-return-alternates"]["chosen"] == "alternation-continues"
    assert chosen == (fight_phase.FightStep.FIGHTS_FIRST, 2) != turn_player_restarts


def test_pass_in_fights_first_step_hands_over_to_remaining_units():
    facts = dict(step=fight_phase.FightStep.FIGHTS_FIRST, has_fights_first=False, any_fights_first=True,
                 has_eligible=True, any_eligible=True, may_pass=False, wants_to_pass=False,
                 opponent_passed_last=True, opponent_has_eligible=True)
    chosen = fight_phase.fight_step_action(**facts)
    as_written = fight_phase.fight_selection_as_written()(**facts)
    assert RECORDS["fights-first-pass-hands-over"]["chosen"] == "hand-over-to-remaining"
    assert (chosen, as_written) == (fight_phase.FightAction.TO_REMAINING, fight_phase.FightAction.OTHER_PLAYER)


def test_the_interpretation_row_is_the_only_change_to_the_printed_sequence():
    printed = fight_phase.fight_selection_as_written().labels()
    ours = fight_phase.FIGHT_SELECTION.labels()
    assert [label for label in ours if label not in printed] == [
        "1. not possible just after the opponent passed: select from your remaining eligible units"]
    assert [label for label in ours if label in printed] == printed


def test_equally_close_enemies_are_all_candidates():
    chosen = flying_and_surging.surge_target_candidates({"Boyz": Fraction(3), "Nobz": Fraction(3), "Grots": 5})
    no_target_reading: list[str] = []
    assert RECORDS["closest-ties-chosen"]["chosen"] == "player-chooses"
    assert (chosen, no_target_reading) == (["Boyz", "Nobz"], [])


def _my_evidence() -> list:
    cases = []
    for folder in ("interpretations", "findings"):
        for path in sorted((ANNOTATIONS / folder).glob("*.yaml")):
            if not path.name.startswith(MINE):
                continue
            for entry in yaml.safe_load(path.read_text(encoding="utf-8")) or []:
                for item in entry["evidence"]:
                    cases.append(pytest.param(item, id=f"{path.stem}:{entry['id']}:{item['line']}"))
    return cases


@pytest.mark.parametrize("evidence", _my_evidence())
def test_evidence_quote_is_on_the_cited_line(evidence):
    name = evidence["document"]
    path = CORE if name == "000_5a110eecb9ce1e5f.txt" else SEEDS / name
    if not path.exists():
        pytest.skip(f"{path} is absent")
    line = path.read_text(encoding="utf-8").split("\n")[evidence["line"] - 1].replace("**", "")
    assert evidence["quote"].replace("**", "") in line, f"line {evidence['line']} is {line!r}"


def test_my_findings_name_their_proofs_and_interpretations():
    findings = [f for f in annotations.findings("core")
                if f["id"] in ("aircraft-no-move-type-in-first-round", "fight-step-pass-loop")]
    assert {f["check"] for f in findings} == {"proof:movement-phase-every-unit-has-a-move-type",
                                              "proof:fight-step-as-written-always-progresses"}
    assert all(f["interpretation"] in RECORDS for f in findings)
