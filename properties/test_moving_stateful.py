"""The Movement phase (09.01-09.03) played as a hypothesis state machine.

The active player's army is a random mix of units on the battlefield (engaged or not), in strategic
reserves (AIRCRAFT among them, 23.01) and embarked, in a random battle round. The machine walks the
phase's steps with ``movement_phase.next_movement_step``, selects units with
``select_unit_to_move`` and a random move type each is eligible for, and checks that:

- no unit is selected to move twice, and each selected unit made at most one move this phase;
- a unit makes a move type it was eligible for, and makes none only when it was eligible for none
  (an AIRCRAFT that cannot ingress yet: interpretation aircraft-without-a-move-type);
- the Move Units step ends, and the phase ends, only once every unit of the army has been selected;
- the phase always ends: at most one selection per unit, plus the three steps.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, Phase, note, settings
from hypothesis import strategies as st
from hypothesis.stateful import (RuleBasedStateMachine, initialize, invariant, precondition, rule,
                                 run_state_machine_as_test)

from properties import strategies_moving as sm
from rules.core import movement_phase
from rules.state import GameState
from rules.state import Phase as GamePhase
from rules.state import UnitState

Step = movement_phase.MovementStep


class MovementPhaseMachine(RuleBasedStateMachine):
    """One Movement phase of player 1, from its start to its end."""

    @initialize(army=sm.movement_armies(min_units=1, max_units=6))
    def start(self, army):
        enemy = UnitState(name="enemy unit", owner=2)
        self.state = GameState(turn_player=1, phase=GamePhase.MOVEMENT, units=tuple(u for u, _ in army) + (enemy,))
        self.facts = {u.name: f for u, f in army}
        self.step = Step.START
        self.transitions = 0
        self.made: dict[str, object] = {}
        self.offered: dict[str, list] = {}
        for unit, facts in army:
            where = ("engaged" if unit.engaged else "on the battlefield") if unit.on_battlefield else \
                ("in strategic reserves" if unit.in_reserves else "embarked")
            note(f"{unit.name}{' (AIRCRAFT)' if unit.has('AIRCRAFT') else ''}: {where}, M {facts.m}")

    @staticmethod
    def _selectable(state: GameState) -> list[UnitState]:
        return [u for u in state.army(1)
                if movement_phase.may_select_to_move(u.selected_to_move, u.on_battlefield, u.in_reserves,
                                                     u.embarked_in is not None)]

    @rule()
    def next_step(self):
        if self.step == Step.DONE:
            return
        before = self.step
        can_end = movement_phase.move_units_step_can_end(self.state)
        self.step = Step(movement_phase.next_movement_step(self.step, can_end))
        if before != self.step:
            self.transitions += 1
            note(f"{before.name} -> {self.step.name}")

    @precondition(lambda self: self.step == Step.MOVE_UNITS)
    @rule(data=st.data())
    def select_a_unit(self, data):
        options = self._selectable(self.state)
        if not options:
            return
        unit = data.draw(st.sampled_from(options), label="unit")
        facts = self.facts[unit.name]
        eligible = movement_phase.eligible_moves(unit, facts.m, facts.disembark_eligible, facts.ingress_eligible)
        move = data.draw(st.sampled_from(eligible), label="move type") if eligible else None
        self.state = movement_phase.select_unit_to_move(self.state, unit.name, move, eligible)
        self.made[unit.name] = move
        self.offered[unit.name] = eligible
        self.transitions += 1
        note(self.state.log[-1])

    @invariant()
    def each_unit_selected_once(self):
        for unit in self.state.army(1):
            assert len(unit.phase_moves) <= 1, f"{unit.name} moved twice: {unit.phase_moves}"
            assert unit.selected_to_move == (unit.name in self.made), f"{unit.name} selected: state and log disagree"

    @invariant()
    def moves_were_eligible(self):
        for name, move in self.made.items():
            offered = self.offered[name]
            assert (move in offered) if move is not None else offered == [], (name, move, offered)
            if move is None:
                assert self.state.unit(name).has("AIRCRAFT"), f"{name} was eligible for no move type"

    @invariant()
    def phase_ends_only_when_all_selected(self):
        if self.step in (Step.END, Step.DONE):
            missing = [u.name for u in self.state.army(1) if not u.selected_to_move]
            assert not missing, f"the Move Units step ended before {missing} were selected"

    @invariant()
    def the_phase_can_always_end(self):
        # one selection per unit and three step changes: the measure that makes the phase end
        assert self.transitions <= len(self.facts) + 3

    def teardown(self):
        """Finish the phase: select the rest (first eligible move each), then step on; it must end."""
        if self.step in (Step.END, Step.DONE):
            return  # phase_ends_only_when_all_selected has checked it
        state, step = self.state, self.step
        for _ in range(len(self.facts) + 4):
            if step == Step.DONE:
                break
            if step == Step.MOVE_UNITS:
                for unit in self._selectable(state):
                    facts = self.facts[unit.name]
                    eligible = movement_phase.eligible_moves(unit, facts.m, facts.disembark_eligible,
                                                             facts.ingress_eligible)
                    state = movement_phase.select_unit_to_move(state, unit.name, eligible[0] if eligible else None,
                                                               eligible)
            step = Step(movement_phase.next_movement_step(step, movement_phase.move_units_step_can_end(state)))
        assert step == Step.DONE, "the Movement phase did not end"
        assert all(u.selected_to_move for u in state.army(1))


MACHINE_SETTINGS = dict(stateful_step_count=30, suppress_health_check=[HealthCheck.too_slow], deadline=None)


@pytest.mark.refs("09.01", "09.02", "09.03", "23.02")
def test_movement_phase_selects_every_unit_once():
    """The Movement phase, played with random armies, selects every unit exactly once with a move it is eligible
    for (none only for an AIRCRAFT that cannot ingress yet), and ends only when all have been selected."""
    run_state_machine_as_test(MovementPhaseMachine, settings=settings(**MACHINE_SETTINGS))


# -- The machine fails for a broken rule ------------------------------------------------------------------

_SELECT = movement_phase.select_unit_to_move


def _select_without_marking(state, name, move, eligible):
    """Makes the move but forgets that the unit has been selected to move."""
    from dataclasses import replace

    after = _SELECT(state, name, move, eligible)
    return after.with_unit(replace(after.unit(name), selected_to_move=False))


#: (rule attribute, broken copy, what the machine must then report)
BROKEN = [
    ("move_units_step_can_end", lambda state: True, "ended before"),
    ("select_unit_to_move", _select_without_marking, "state and log disagree|did not end"),
    ("may_select_to_move", lambda selected_to_move, on_battlefield, in_strategic_reserves, embarked: on_battlefield,
     "did not end"),
]


@pytest.mark.parametrize("attribute,mutant,report", BROKEN, ids=[b[0] for b in BROKEN])
def test_machine_fails_for_a_broken_rule(monkeypatch, attribute, mutant, report):
    monkeypatch.setattr(movement_phase, attribute, mutant)
    with pytest.raises(AssertionError, match=report):
        run_state_machine_as_test(MovementPhaseMachine, settings=settings(
            max_examples=200, database=None, derandomize=True, phases=[Phase.generate], **MACHINE_SETTINGS))
