"""Whole games' scoring, played by a hypothesis state machine: a random mission, legal secondary selections and a
random but ordered run of scoring moments (Command phases, actions, turns, battle rounds, the end of the battle),
replayed through the real ledger after every step, with every scoring invariant checked each time.

A shrunk failure prints as a game log (``note``): the mission, the selections and each moment with its facts.
"""

from __future__ import annotations

import pytest
from hypothesis import Phase, note, settings
from hypothesis import strategies as st
from hypothesis.stateful import (RuleBasedStateMachine, initialize, invariant, precondition, rule,
                                 run_state_machine_as_test)

from properties.proofs_missionpack_missions import MOMENT_MAXIMUM
from properties.strategies_scoring import fact_values, in_turn_order, schedule, selections, within_limits
from rules.logic import If, Min
from rules.missionpack import missions, scoring
from rules.missionpack.scoring import Event, Game, ScoringError, Timing

PRIMARY_MOMENT_MAXIMUM = 15  # both primaries: "(for a maximum of 15 victory points)"


class GameScoring(RuleBasedStateMachine):
    """One game's scoring, a moment at a time, checked after each."""

    @initialize(data=st.data())
    def choose(self, data):
        scoring._load()
        self.mission = data.draw(st.sampled_from(sorted(missions.MISSIONS)), label="mission")
        psykers = {p: data.draw(st.booleans(), label=f"{p} has psykers") for p in scoring.PLAYERS}
        self.selections = {p: data.draw(selections(mission=self.mission, has_psykers=psykers[p]), label=f"{p} selects")
                           for p in scoring.PLAYERS}
        self.ready = {p: data.draw(st.booleans(), label=f"{p} battle ready") for p in scoring.PLAYERS}
        self.psykers = psykers
        self.moments = schedule(data.draw(st.sampled_from(scoring.PLAYERS), label="first turn"))
        self.events: list[Event] = []
        self.sides: dict[str, dict[str, bool]] = {}  # each player's Player A flag, once a moment stated one
        self.previous: dict[str, dict[str, int]] = {p: {} for p in scoring.PLAYERS}
        self.previous_total = {p: 0 for p in scoring.PLAYERS}
        note(f"mission {self.mission}; selections {self.selections}; battle ready {self.ready}")
        self.scores = self.replay()

    def replay(self) -> dict[str, scoring.Score]:
        game = Game(self.mission, self.selections, self.ready, tuple(self.events), None, self.psykers)
        return scoring.replay(game)

    @precondition(lambda self: self.moments)
    @rule(data=st.data())
    def next_moment(self, data):
        battle_round, player, timing = self.moments.pop(0)
        mission = missions.mission(self.mission)
        for name in in_turn_order((mission.primary, *self.selections[player]), timing):
            item = scoring.OBJECTIVES[name]
            if timing not in item.timings:
                continue
            if timing is Timing.ACTION_COMPLETED and not data.draw(st.booleans(), label=f"{name} completed"):
                continue
            facts = within_limits(item, {fact: data.draw(fact_values(item, fact), label=fact)
                                         for fact in item.facts()})
            facts = {**facts, **{fact: value for fact, value in self.sides.get(player, {}).items() if fact in facts}}
            event = Event(battle_round, player, timing, name, facts)
            if battle_round == 1 and not item.first_round:
                # "cannot be scored in the first battle round": a record of it is refused, and changes nothing.
                if data.draw(st.booleans(), label=f"try {name} in round 1"):
                    note(f"round 1, {player}, {timing.value}: {name} {facts} (refused)")
                    try:
                        scoring.replay(Game(self.mission, self.selections, self.ready, (*self.events, event), None,
                                            self.psykers))
                    except ScoringError as error:
                        assert "cannot be scored in the first battle round" in str(error), error
                    else:
                        raise AssertionError(f"{name} scored in the first battle round")
                continue
            note(f"round {battle_round}, {player}, {timing.value}: {name} {facts}")
            self.events.append(event)
            if item.side_fact is not None:  # a side of the map: the same all battle, the opponent on the other
                side = facts[item.side_fact]
                self.sides[player] = {item.side_fact: side}
                self.sides.setdefault(next(p for p in scoring.PLAYERS if p != player), {item.side_fact: not side})
        self.scores = self.replay()

    @precondition(lambda self: not self.moments)
    @rule()
    def battle_over(self):
        """Nothing left to score: the battle has ended."""

    @invariant()
    def caps_hold(self):
        for player, score in self.scores.items():
            assert score.primary_total <= scoring.PRIMARY_CAP
            for name in score.secondaries:
                assert 0 <= score.objective_total(name) <= scoring.SECONDARY_CAP, (player, name)
            assert score.secondaries_total <= scoring.SECONDARIES_CAP
            assert 0 <= score.total <= scoring.MAXIMUM_SCORE
            assert score.discounted >= 0

    @invariant()
    def totals_never_decrease(self):
        for player, score in self.scores.items():
            for name, rounds in score.sheet.items():
                assert sum(rounds.values()) >= sum(self.previous[player].get(name, {}).values()), (player, name)
            assert score.total >= self.previous_total[player]
            self.previous[player] = {name: dict(rounds) for name, rounds in score.sheet.items()}
            self.previous_total[player] = score.total

    @invariant()
    def first_round_exclusions_hold(self):
        for score in self.scores.values():
            for name, rounds in score.sheet.items():
                if not scoring.OBJECTIVES[name].first_round:
                    assert rounds.get("1", 0) == 0, name

    @invariant()
    def moment_caps_hold(self):
        """No moment awards less than 0; a primary's no more than its "maximum of 15 victory points", a mission's
        own secondary no more than its text allows (the proofs' MOMENT_MAXIMUM)."""
        for event in self.events:
            item = scoring.OBJECTIVES[event.objective]
            award = item.award(event)
            assert award >= 0, event
            most = PRIMARY_MOMENT_MAXIMUM if item.kind == "primary" else MOMENT_MAXIMUM.get(item.name)
            if most is not None:
                assert award <= most, event

    @invariant()
    def the_result_follows_the_totals(self):
        if self.moments:
            return
        game = Game(self.mission, self.selections, self.ready, tuple(self.events), None, self.psykers)
        outcome = scoring.result(game)
        a, d = outcome["totals"]["attacker"], outcome["totals"]["defender"]
        assert outcome["winner"] == ("attacker" if a > d else "defender" if d > a else "draw")


GameScoring.TestCase.settings = settings(max_examples=60, stateful_step_count=len(schedule("attacker")) + 2,
                                         deadline=None)
test_whole_game_scoring = pytest.mark.refs(
    "missionpack:sequence/18-determine-victor", "missionpack:secondaries/selecting", "missionpack:scoring-sheet",
    "missionpack:mission-objectives")(GameScoring.TestCase)


def _machine_fails() -> bool:
    """Whether the game machine fails (generation only: a counterexample is enough, shrinking proves nothing more)."""
    quick = settings(GameScoring.TestCase.settings, max_examples=100, database=None, phases=[Phase.generate],
                     report_multiple_bugs=False)
    try:
        run_state_machine_as_test(GameScoring, settings=quick)
    except Exception:  # noqa: BLE001 - any failure of the machine counts
        return True
    return False


@pytest.mark.parametrize("attribute,broken", [
    ("discounted_award", lambda so_far, award, cap: award),
    ("discounted_award", lambda so_far, award, cap: Min(award, cap)),
    ("scored_in_round", lambda first_round, battle_round: True),
    ("take_and_hold", lambda battle_round, controlled, opponent_controlled:
     If(controlled >= 1, 5, 0) + If(controlled >= 2, 5, 0) + If(controlled > opponent_controlled, 5, 10)),
])
def test_the_game_machine_catches_a_broken_ledger(monkeypatch, attribute, broken):
    """The state machine fails when the ledger stops discounting excess, accepts a primary in round 1, or a
    primary awards more than its maximum of 15 at one Command phase."""
    monkeypatch.setattr(scoring, attribute, broken)
    if attribute == "take_and_hold":
        for name in ("take-and-hold",):
            monkeypatch.setitem(scoring.OBJECTIVES, name, scoring.OBJECTIVES[name].__class__(
                **{**scoring.OBJECTIVES[name].__dict__, "score": broken}))
    assert _machine_fails()
