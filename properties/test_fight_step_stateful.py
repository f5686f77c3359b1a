"""The Fight step (12.04 and the appendix's passing rule) played as a hypothesis state machine.

Random units of both players, some Fights First, some eligible to fight, some more than 5" from every
enemy; the players pass whenever they may and want to; after each fight an overrun or pile-in may make
more units eligible or move units nearer or further. The machine drives the real sequence functions
(``fight_phase.advance_fight_sequence`` / ``resolve_selected_fight``) and checks after every move that:

- no unit is selected to fight twice;
- the step makes progress: it never takes more sequence moves than its bound (termination);
- Fights First units are selected before the others, unless a pass handed the sequence over;
- selections alternate between the players, unless the other player could not select or passed;
- when the step ends, every unit still eligible is more than 5" from all enemy units (it was passed over).

A consolidation step follows: engaging consolidations make engaged enemy units that have not fought yet
fight (12.08), outside the sequence. A shrunk failure prints the game log (``note``).
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, Phase, note, settings
from hypothesis import strategies as st
from hypothesis.stateful import (RuleBasedStateMachine, initialize, invariant, precondition, rule,
                                 run_state_machine_as_test)

from properties import strategies_moving as sm
from rules.core import fight_phase
from rules.state import UnitState

FightAction = fight_phase.FightAction


class FightStepMachine(RuleBasedStateMachine):
    """One Fight step from its start to its end, then the engaging consolidations of the Consolidate step."""

    @initialize(fighters=sm.fight_units(min_units=1, max_units=6), turn_player=st.sampled_from([1, 2]))
    def start(self, fighters, turn_player):
        self.units: list[UnitState] = [f.unit for f in fighters]
        self.far = {f.unit.name for f in fighters if f.far}
        self.turn_player = turn_player
        self.sequence = fight_phase.start_fight_step(turn_player)
        self.moves = 0
        self.selections: list[UnitState] = []
        self.handed_over_since_fight = False  # a pass or "the other player selects" since the last fight
        self.passed_since_fight = False
        self.violations: list[str] = []
        for unit in self.units:
            note(f"{unit.name}: {'Fights First, ' if unit.fights_first else ''}"
                 f"{'eligible' if unit.eligible_to_fight else 'not yet eligible'}"
                 f"{', more than 5in from the enemy' if unit.name in self.far else ''}")
        note(f"Fight step starts; player {turn_player}'s turn")

    def _bound(self) -> int:
        # Each selection uses up a unit; between selections at most 4 moves (proof fight-step-always-progresses).
        return 5 * (len(self.units) + 1)

    @precondition(lambda self: not self.sequence.ended)
    @rule(wants_to_pass=st.booleans(), data=st.data())
    def next_move(self, wants_to_pass, data):
        before = self.sequence
        ff_eligible = [u for u in self.units if u.eligible_to_fight and u.fights_first]
        self.sequence, action = fight_phase.advance_fight_sequence(before, self.units, self.far, wants_to_pass)
        self.moves += 1
        note(f"step {int(before.step)}, player {before.chooser}: {action.name}")
        if action == FightAction.SELECT:
            options = fight_phase.selectable_to_fight(self.sequence, self.units)
            if not options:
                self.violations.append(f"player {before.chooser} must select but has no unit to select")
                return
            name = data.draw(st.sampled_from(options), label="selected unit")
            unit = next(u for u in self.units if u.name == name)
            if not unit.fights_first and ff_eligible and not self.passed_since_fight:
                self.violations.append(f"{name} fought while Fights First units {[u.name for u in ff_eligible]} waited")
            if self.selections and self.selections[-1].owner == unit.owner and not self.handed_over_since_fight:
                self.violations.append(f"player {unit.owner} selected twice in a row")
            waiting = [u.name for u in self.units if not u.eligible_to_fight and not u.selected_to_fight]
            newly = data.draw(st.lists(st.sampled_from(waiting), unique=True), label="engaged by its fight") \
                if waiting else []
            self.sequence, self.units = fight_phase.resolve_selected_fight(self.sequence, self.units, name,
                                                                           self.turn_player, newly)
            self.selections.append(unit)
            self.handed_over_since_fight = self.passed_since_fight = False
            note(f"  {name} is selected to fight" + (f"; its fight engages {newly}" if newly else ""))
            self._aftermath(data)
        elif action in (FightAction.OTHER_PLAYER, FightAction.PASS):
            self.handed_over_since_fight = True
            self.passed_since_fight = self.passed_since_fight or action == FightAction.PASS
        elif action == FightAction.END:
            note("the Fight step ends")

    def _aftermath(self, data):
        """The fight's moves (pile-in, destroyed models) may leave units nearer to or further from the enemy."""
        moved = data.draw(st.lists(st.sampled_from([u.name for u in self.units]), unique=True, max_size=2),
                          label="moved nearer or further")
        self.far ^= set(moved)

    @invariant()
    def no_rule_broken(self):
        assert not self.violations, self.violations

    @invariant()
    def each_unit_fights_at_most_once(self):
        names = [u.name for u in self.selections]
        assert len(names) == len(set(names)), names
        assert all(u.selected_to_fight and not u.eligible_to_fight for u in self.units if u.name in names)

    @invariant()
    def the_step_makes_progress(self):
        assert self.moves <= self._bound(), f"{self.moves} moves without ending"

    @invariant()
    def ending_leaves_only_far_units(self):
        if self.sequence.ended:
            left = [u.name for u in self.units if u.eligible_to_fight]
            assert set(left) <= self.far, f"the step ended with {left} still able to fight"

    @precondition(lambda self: self.sequence.ended)
    @rule(data=st.data())
    def engaging_consolidation(self, data):
        """Consolidate step: an engaging consolidation engages enemy units; those not yet selected must fight."""
        player = data.draw(st.sampled_from([1, 2]), label="consolidating player")
        enemies = [u.name for u in self.units if u.owner != player]
        engaged = data.draw(st.lists(st.sampled_from(enemies), unique=True), label="engaged") if enemies else []
        selected = [u.name for u in self.units if u.selected_to_fight]
        made = fight_phase.units_made_to_fight(fight_phase.ConsolidationMode.ENGAGING, engaged, selected)
        note(f"player {player} consolidates into {engaged}; made to fight: {made}")
        assert not set(made) & set(selected)
        self.units = fight_phase.make_units_fight(self.units, made)
        self.selections += [u for u in self.units if u.name in made]

    def teardown(self):
        """Play any unfinished step out with nobody passing: it must end within the bound."""
        if self.sequence.ended:
            return  # ended in play; ending_leaves_only_far_units has checked it
        sequence, units, moves = self.sequence, self.units, self.moves
        while not sequence.ended:
            sequence, action = fight_phase.advance_fight_sequence(sequence, units, self.far, False)
            moves += 1
            if action == FightAction.SELECT:
                options = fight_phase.selectable_to_fight(sequence, units)
                assert options, f"player {sequence.chooser} must select but has no unit to select"
                name = options[0]
                sequence, units = fight_phase.resolve_selected_fight(sequence, units, name, self.turn_player)
            assert moves <= self._bound(), "the Fight step did not end"
        assert not any(u.eligible_to_fight for u in units), "units able to fight were left unselected without a pass"


MACHINE_SETTINGS = dict(stateful_step_count=40, suppress_health_check=[HealthCheck.too_slow], deadline=None)


@pytest.mark.refs("12.04", "12.08", "appendix/eligible-to-fight-but-unable-to-fight")
def test_fight_step_plays_out_by_the_rules():
    """The Fight step, played with random units and passes, selects each unit at most once, Fights First units first,
    alternately, and always ends (only passed-over units far from the enemy left)."""
    run_state_machine_as_test(FightStepMachine, settings=settings(**MACHINE_SETTINGS))


# -- The machine fails for a broken rule ------------------------------------------------------------------


_AFTER_FIGHT = fight_phase.after_fight


def _after_fight_without_alternation(step, fighter_owner, turn_player, fights_first_eligible_now):
    """Lets the player whose unit just fought select again."""
    next_step, _ = _AFTER_FIGHT(step, fighter_owner, turn_player, fights_first_eligible_now)
    return next_step, fighter_owner


def _resolve_without_marking(sequence, units, name, turn_player, newly_eligible=()):
    """Forgets to mark the unit selected to fight, so it stays eligible."""
    step, chooser = fight_phase.after_fight(sequence.step, sequence.chooser, turn_player, False)
    return fight_phase.FightSequence(step, chooser), list(units)


def _any_eligible_unit_selectable(sequence, units):
    """Forgets that Resolve Fights First Combats only offers Fights First units."""
    return [u.name for u in units if u.owner == sequence.chooser and u.eligible_to_fight]


#: (rule attribute, broken copy, what the machine must then report)
BROKEN = [
    ("after_fight", _after_fight_without_alternation, "selected twice in a row"),
    ("resolve_selected_fight", _resolve_without_marking, "did not end|RED|BLUE"),
    ("selectable_to_fight", _any_eligible_unit_selectable, "waited"),
]


@pytest.mark.parametrize("attribute,mutant,report", BROKEN, ids=[b[0] for b in BROKEN])
def test_machine_fails_for_a_broken_rule(monkeypatch, attribute, mutant, report):
    monkeypatch.setattr(fight_phase, attribute, mutant)
    with pytest.raises(AssertionError, match=report):
        run_state_machine_as_test(FightStepMachine, settings=settings(
            max_examples=200, database=None, derandomize=True, phases=[Phase.generate], **MACHINE_SETTINGS))
