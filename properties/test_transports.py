"""Hypothesis properties of chapter 18 (Transports), each paired with a broken rule that makes it fail.

The stateful test plays turns with TRANSPORTS and their passengers: units move, embark, disembark and
lose their TRANSPORT, while invariants watch capacity, where embarked units are, and when they may get
in or out. A shrunk failure prints as the game log (``note``).
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pytest
from hypothesis import Phase as HypothesisPhase
from hypothesis import given, note, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule, run_state_machine_as_test

from properties.mutation import fails
from properties import strategies as s
from properties import strategies_transports as ts
from rules.core import core_concepts, transports
from rules.logic import And
from rules.state import GameState, MoveType, Phase, UnitState

CAPACITY = {
    "Rhino": transports.TransportCapacity(8, ("INFANTRY",), ("TERMINATOR",), (("JUMP PACK", 2),)),
    "Impulsor": transports.TransportCapacity(6, ("INFANTRY",), (), (("JUMP PACK", 2),)),
    "Trukk": transports.TransportCapacity(12, ("INFANTRY",)),
}
UNITS = (
    UnitState("Rhino", 1, frozenset({"VEHICLE", "TRANSPORT"})),
    UnitState("Impulsor", 1, frozenset({"VEHICLE", "TRANSPORT"})),
    UnitState("Trukk", 2, frozenset({"VEHICLE", "TRANSPORT"})),
    UnitState("Tacticals", 1, frozenset({"INFANTRY"}), models=5),
    # Two units start embarked (18.01): Scouts take 4 of the Rhino's 8 places, Assault all 6 of the Impulsor's.
    UnitState("Assault", 1, frozenset({"INFANTRY", "JUMP PACK"}), models=3, on_battlefield=False,
              embarked_in="Impulsor"),
    UnitState("Scouts", 1, frozenset({"INFANTRY"}), models=4, on_battlefield=False, embarked_in="Rhino"),
    UnitState("Terminators", 1, frozenset({"INFANTRY", "TERMINATOR"}), models=5),
    UnitState("Boyz", 2, frozenset({"INFANTRY"}), models=6),
)
PASSENGERS = [u.name for u in UNITS if u.name not in CAPACITY]
PHASES = (Phase.MOVEMENT, Phase.SHOOTING, Phase.CHARGE, Phase.FIGHT)


def _places(unit: UnitState) -> int:
    """The places a unit takes, worked out here independently of the rule functions."""
    return unit.models * (2 if "JUMP PACK" in unit.keywords else 1)


class TransportGame(RuleBasedStateMachine):
    """Turns of a battle with three TRANSPORTS and five units that can ride in them, two starting embarked."""

    def __init__(self):
        super().__init__()
        self.state = GameState(battle_round=1, turn_player=1, phase=Phase.MOVEMENT, units=UNITS)
        self.embarked_at: dict[str, tuple] = {}  # unit -> (round, player, phase) it last embarked in
        self.set_up_in_turn: dict[str, tuple] = {}  # unit -> (round, player) it was last set up in
        self.violations: list[str] = []

    # -- bookkeeping ------------------------------------------------------------------------------

    def _phase_key(self) -> tuple:
        return (self.state.battle_round, self.state.turn_player, self.state.phase)

    def _turn_key(self) -> tuple:
        return (self.state.battle_round, self.state.turn_player)

    def _set(self, unit: UnitState) -> None:
        self.state = self.state.with_unit(unit)

    # -- rules ------------------------------------------------------------------------------------

    def _moves(self, name: str, move: MoveType) -> None:
        unit = self.state.unit(name)
        phase_ok = self.state.phase == (Phase.CHARGE if move == MoveType.CHARGE else Phase.MOVEMENT)
        if unit.on_battlefield and not unit.destroyed and unit.owner == self.state.turn_player and phase_ok:
            note(f"R{self.state.battle_round} P{self.state.turn_player} {self.state.phase.name}: {name} makes a "
                 f"{move.value} move")
            self._set(replace(unit, moves=unit.moves + (move,), phase_moves=unit.phase_moves + (move,),
                              selected_to_move=True))

    @rule(name=st.sampled_from(sorted(CAPACITY)),
          move=st.sampled_from([MoveType.NORMAL, MoveType.ADVANCE, MoveType.FALL_BACK, MoveType.REMAIN_STATIONARY]))
    def move_transport(self, name, move):
        self._moves(name, move)

    @rule(name=st.sampled_from(PASSENGERS),
          move=st.sampled_from([MoveType.NORMAL, MoveType.ADVANCE, MoveType.FALL_BACK, MoveType.CHARGE]),
          transport=st.none() | st.sampled_from(sorted(CAPACITY)), within=st.booleans(), hop_out=st.booleans())
    def move(self, name, move, transport, within, hop_out):
        """A unit moves and then, if a TRANSPORT is named, tries to embark within it (and perhaps straight out)."""
        self._moves(name, move)
        if transport is not None:
            self._embark(name, transport, within)
            if hop_out:
                self._disembark(name, tactical=True, succeeds=True, climb_back=False)

    def _embark(self, name: str, transport: str, within: bool) -> None:
        try:
            after = transports.embark(self.state, name, transport, capacity=CAPACITY[transport],
                                      every_model_within_3=within)
        except ValueError as refusal:
            note(f"  refused: {refusal}")
            return
        note(f"  {name} embarks within {transport}")
        if self.set_up_in_turn.get(name) == self._turn_key():
            self.violations.append(f"{name} embarked in the turn it was set up")
        self.state = after
        self.embarked_at[name] = self._phase_key()

    @rule(name=st.sampled_from(PASSENGERS), tactical=st.booleans(), succeeds=st.booleans(), climb_back=st.booleans())
    def disembark(self, name, tactical, succeeds, climb_back):
        """A unit tries to disembark; after a tactical disembark it makes its normal move and may try to get back in."""
        self._disembark(name, tactical, succeeds, climb_back)

    def _disembark(self, name: str, tactical: bool, succeeds: bool, climb_back: bool) -> None:
        unit = self.state.unit(name)
        if unit.embarked_in is None or unit.destroyed:
            return
        carrier = self.state.unit(unit.embarked_in)
        embarked_now = self.embarked_at.get(name) == self._phase_key()
        try:
            after, mode = transports.disembark(self.state, name, tactical_set_up_possible=tactical,
                                               embarked_this_phase=embarked_now, set_up_succeeds=succeeds)
        except ValueError as refusal:
            note(f"  refused: {refusal}")
            return
        if mode is None:
            note(f"  {name} could not be set up and stays embarked")
            return
        note(f"R{self.state.battle_round} P{self.state.turn_player} {self.state.phase.name}: {name} makes a "
             f"{mode.name.lower()} disembark from {carrier.name}")
        if self.state.phase != Phase.MOVEMENT or unit.owner != self.state.turn_player:
            self.violations.append(f"{name} disembarked outside its own Movement phase")
        if embarked_now:
            self.violations.append(f"{name} disembarked in the phase it embarked")
        if carrier.phase_moves and carrier.phase_moves[-1] in (MoveType.ADVANCE, MoveType.FALL_BACK):
            self.violations.append(f"{name} disembarked after its TRANSPORT {carrier.phase_moves[-1].value} moved")
        if carrier.phase_moves and carrier.phase_moves[-1] == MoveType.NORMAL and mode != transports.DisembarkMode.RAPID:
            self.violations.append(f"{name} did not rapid disembark after its TRANSPORT's normal move")
        self.state = after
        self.set_up_in_turn[name] = self._turn_key()
        if mode == transports.DisembarkMode.TACTICAL:
            self._moves(name, MoveType.NORMAL)
            if climb_back:
                self._embark(name, carrier.name, True)

    @rule(transport=st.sampled_from(sorted(CAPACITY)), room=st.integers(0, 6))
    def destroy_transport(self, transport, room):
        carrier = self.state.unit(transport)
        if carrier.destroyed or not carrier.on_battlefield:
            return
        inside = transports.embarked_units(self.state, transport)
        placeable = {u.name: min(room, u.models) for u in inside}
        note(f"R{self.state.battle_round} P{self.state.turn_player} {self.state.phase.name}: {transport} is "
             f"destroyed with {', '.join(u.name for u in inside) or 'nobody'} inside (room for {room} each)")
        self.state = transports.transport_destroyed(self.state, transport, placeable=placeable)
        for u in inside:
            after = self.state.unit(u.name)
            self.set_up_in_turn[u.name] = self._turn_key()
            if after.embarked_in is not None or (not after.destroyed and not after.battle_shocked):
                self.violations.append(f"{u.name} left {transport} without an emergency disembark")
            if after.models != min(room, u.models):
                self.violations.append(f"{u.name} kept {after.models} models with room for {room}")

    @rule()
    def next_phase(self):
        index = PHASES.index(self.state.phase)
        units = tuple(replace(u, phase_moves=(), selected_to_move=False) for u in self.state.units)
        if index + 1 < len(PHASES):
            self.state = replace(self.state, phase=PHASES[index + 1], units=units)
            return
        player = 3 - self.state.turn_player
        battle_round = self.state.battle_round + (1 if player == self.state.first_player else 0)
        units = tuple(replace(u, moves=(), set_up_this_turn=False) for u in units)
        self.state = replace(self.state, phase=Phase.MOVEMENT, turn_player=player, battle_round=battle_round,
                             units=units)
        note(f"-- battle round {battle_round}, player {player}'s turn")

    # -- invariants -------------------------------------------------------------------------------

    @invariant()
    def capacity_is_never_exceeded(self):
        for name, capacity in CAPACITY.items():
            taken = sum(_places(u) for u in transports.embarked_units(self.state, name))
            assert taken <= capacity.models, f"{name} carries {taken} places of {capacity.models}"

    @invariant()
    def embarked_units_are_off_the_battlefield_in_a_living_transport(self):
        for unit in self.state.units:
            if unit.embarked_in is not None and not unit.destroyed:
                assert not unit.on_battlefield, f"{unit.name} is embarked and on the battlefield"
                assert not self.state.unit(unit.embarked_in).destroyed, f"{unit.name} rides a destroyed transport"

    @invariant()
    def the_rules_were_followed(self):
        assert not self.violations, self.violations


def _run_game(max_examples: int | None = None):
    """Play the games; with ``max_examples`` (for the mutant runs) more of them, without shrinking or saving."""
    if max_examples:
        chosen = settings(max_examples=max_examples, stateful_step_count=40, database=None,
                          phases=[HypothesisPhase.generate])
    else:
        chosen = settings(stateful_step_count=30)
    run_state_machine_as_test(TransportGame, settings=chosen)


@pytest.mark.refs("18.01", "18.02", "18.03", "18.04", "18.05")
def test_transport_games_keep_capacity_and_embarking_rules():
    """18.01-18.05: over any game log, TRANSPORTS never carry more than their capacity, embarked units are off the
    battlefield in a living TRANSPORT, and units get in and out only when the rules allow."""
    _run_game()




@pytest.mark.parametrize("attribute,mutant", [
    ("has_room", lambda capacity, used, needed: True),
    ("may_disembark_in_phase", lambda phase, unit_owner, active_player: True),
    ("may_embark", lambda battle_round_started, after_normal_advance_or_fall_back, every_model_within_3,
     set_up_this_turn, eligible_per_datasheet, friendly, capacity, used, needed:
        And(after_normal_advance_or_fall_back, friendly, every_model_within_3, eligible_per_datasheet,
            used + needed <= capacity)),
    ("disembark_eligible", lambda transport_on_battlefield, embarked_this_phase, transport_move: transport_on_battlefield),
], ids=["capacity-ignored", "disembark-any-phase", "embark-after-set-up", "disembark-after-embarking"])
def test_transport_game_catches_a_broken_rule(monkeypatch, attribute, mutant):
    monkeypatch.setattr(transports, attribute, mutant)
    assert fails(lambda: _run_game(max_examples=300))


# -- geometry: "wholly within" -------------------------------------------------------------------------


@pytest.mark.refs("18.04", "18.05")
@given(s.placed_models(spread=10), s.placed_models(spread=10, base_mm="100"), s.inches(high=8), s.inches(high=4))
def test_wholly_within_is_within_and_grows_with_distance(model, transport, distance, more):
    """18.04/18.05: a model wholly within a set-up distance of its TRANSPORT is within it, and wholly within any
    greater distance too."""
    wholly = transports.wholly_within_horizontally(model, transport, distance)
    note(f"wholly within {distance}: {wholly}")
    if wholly:
        assert core_concepts.within_horizontally(model, transport, distance)
        assert transports.wholly_within_horizontally(model, transport, distance + more)


@pytest.mark.refs("18.04")
@given(s.placed_models(spread=10), s.placed_models(spread=10, base_mm="100"), s.inches(high=8))
def test_wholly_within_means_the_far_edge_too(model, transport, distance):
    """18.04: the far edge of the base (centre plus radius, away from the TRANSPORT) is within the distance."""
    if not transports.wholly_within_horizontally(model, transport, distance):
        return
    dx, dy = model.x - transport.x, model.y - transport.y
    # The far edge lies at centre distance + radius from the TRANSPORT's centre; compare squares to stay exact.
    reach = distance + transport.radius - model.radius
    assert reach >= 0 and dx * dx + dy * dy <= reach * reach
    assert reach + model.radius - transport.radius == distance


def test_wholly_within_property_catches_a_broken_rule(monkeypatch):
    """Measuring to the near edge of the base (plain 'within') breaks 'wholly within'."""
    monkeypatch.setattr(transports, "wholly_within_horizontally",
                        lambda model, other, inches: core_concepts.within_horizontally(model, other, inches))
    assert fails(test_wholly_within_means_the_far_edge_too)


@pytest.mark.refs("18.01")
@given(ts.capacities(), st.lists(ts.keyword_sets(pool=("INFANTRY", "JUMP PACK", "GRAVIS", "TERMINATOR")),
                                 min_size=1, max_size=6))
def test_unit_space_is_the_sum_of_model_space(capacity, models):
    """18.01: a unit takes up the places of all its models, at least one each and never less than its size."""
    total = transports.unit_space(capacity, models)
    note(f"{capacity} -> {total}")
    assert total == sum(transports.model_space(capacity, m) for m in models)
    assert total >= len(models)
    heavy = [m for m in models if any(k == kw for kw, _ in capacity.space for k in m)]
    assert total == len(models) if not heavy else total > len(models)


def test_unit_space_property_catches_a_broken_rule(monkeypatch):
    """Counting every model as one place (ignoring the datasheet's larger models) breaks it."""
    monkeypatch.setattr(transports, "model_space", lambda capacity, model_keywords: 1)
    assert fails(test_unit_space_is_the_sum_of_model_space)


@pytest.mark.refs("18.05")
@given(st.integers(1, 20), st.integers(0, 25))
def test_emergency_disembark_never_loses_track_of_a_model(models, placeable):
    """18.05: every model of a unit in a destroyed TRANSPORT is either set up or destroyed, and as many as fit
    are set up."""
    kept, lost = transports.emergency_disembark_outcome(models, placeable)
    assert kept + lost == models and kept == min(models, placeable) and lost >= 0


def test_emergency_property_catches_a_broken_rule(monkeypatch):
    """Destroying the whole unit whenever any model does not fit breaks it."""
    monkeypatch.setattr(transports, "emergency_disembark_outcome",
                        lambda models, placeable: (models, 0) if placeable >= models else (0, models))
    assert fails(test_emergency_disembark_never_loses_track_of_a_model)


@pytest.mark.refs("18.04")
@given(st.sampled_from(list(transports.TransportMove)), st.booleans())
def test_disembark_mode_matches_the_transport_log(move, tactical):
    """18.04: the mode follows from what the TRANSPORT did: rapid after a normal or ingress move, tactical from a
    stationary or not yet moved TRANSPORT when possible, combat otherwise; never for an advance or fall back."""
    eligible = transports.disembark_eligible(True, False, move)
    assert eligible == (move not in (transports.TransportMove.ADVANCE, transports.TransportMove.FALL_BACK))
    if not eligible:
        return
    mode = transports.disembark_mode(move, tactical)
    if move in (transports.TransportMove.NORMAL, transports.TransportMove.INGRESS):
        assert mode == transports.DisembarkMode.RAPID
    elif move in (transports.TransportMove.NOT_SELECTED, transports.TransportMove.REMAINED_STATIONARY) and tactical:
        assert mode == transports.DisembarkMode.TACTICAL
    else:
        assert mode == transports.DisembarkMode.COMBAT
    after = transports.disembark_aftermath(mode)
    assert bool(after.not_eligible_to_charge) != bool(after.then_normal_or_advance_move)


def test_disembark_mode_property_catches_a_broken_rule(monkeypatch):
    """Swapping the rapid and tactical answers in the table breaks it."""
    table = transports.DISEMBARK_MODE
    rows = (replace(table.rows[0], then=transports.DisembarkMode.TACTICAL),
            replace(table.rows[1], then=transports.DisembarkMode.RAPID), table.rows[2])
    monkeypatch.setattr(transports, "DISEMBARK_MODE", replace(table, rows=rows))
    assert fails(test_disembark_mode_matches_the_transport_log)


def test_placement_is_exact_at_the_limit():
    """A 2" base centred exactly 3" from a 2" TRANSPORT base is wholly within 3" (inclusive), a hair more is not."""
    from rules.model import Placed

    transport = Placed(0, 0, base_mm="50.8")
    assert transports.wholly_within_horizontally(Placed(3, 0, base_mm="50.8"), transport, 3)
    assert not transports.wholly_within_horizontally(Placed(Fraction(3001, 1000), 0, base_mm="50.8"), transport, 3)
