"""Hypothesis properties of chapter 20 (Strategic reserves), each paired with a broken rule that makes it fail.

The stateful test plays battle rounds 1 to 3: units arrive by ingress moves, others are repositioned into
strategic reserves (AIRCRAFT go back at the end of the opponent's turn, 23.02), and at the end of the third
battle round the units still waiting are destroyed. A shrunk failure prints as the game log (``note``).
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pytest
from hypothesis import Phase as HypothesisPhase
from hypothesis import example, given, note, settings
from hypothesis import strategies as st
from hypothesis.stateful import (RuleBasedStateMachine, initialize, invariant, precondition, rule,
                                 run_state_machine_as_test)

from properties.mutation import fails
from properties import strategies_transports as ts
from properties import proofs_transports
from rules.core import aircraft, strategic_reserves
from rules.model import Placed
from rules.state import GameState, Phase, UnitState

UNITS = (
    UnitState("Land Raider", 1, frozenset({"VEHICLE", "TRANSPORT"}), on_battlefield=False, in_reserves=True),
    UnitState("Terminators", 1, frozenset({"INFANTRY"}), models=5, on_battlefield=False, embarked_in="Land Raider"),
    UnitState("Rhino", 1, frozenset({"VEHICLE", "TRANSPORT"})),
    UnitState("Tacticals", 1, frozenset({"INFANTRY"}), models=5, on_battlefield=False, embarked_in="Rhino"),
    UnitState("Assault Squad", 1, frozenset({"INFANTRY"}), models=5, on_battlefield=False, in_reserves=True),
    UnitState("Scouts", 1, frozenset({"INFANTRY"}), models=5),
    UnitState("Valkyrie", 1, frozenset({"VEHICLE", "AIRCRAFT", "FLY"}), on_battlefield=False, in_reserves=True),
    UnitState("Boyz", 2, frozenset({"INFANTRY"}), models=10),
    UnitState("Deffkoptas", 2, frozenset({"MOUNTED", "FLY"}), models=3, on_battlefield=False, in_reserves=True),
)
NAMES = [u.name for u in UNITS]


class ReservesGame(RuleBasedStateMachine):
    """Battle rounds 1-3 of a battle with strategic reserves, a TRANSPORT in reserves and one on the battlefield."""

    def __init__(self):
        super().__init__()
        self.state = GameState(battle_round=1, first_player=1, turn_player=1, phase=Phase.MOVEMENT, units=UNITS)
        self.ingressed: set[str] = set()
        self.violations: list[str] = []
        self.finished = False
        self.before_end: GameState | None = None

    @initialize(start_round=st.sampled_from([1, 2]))
    def start(self, start_round):
        """Start in battle round 1 or, to reach the arrivals sooner, round 2 (nothing arrives in round 1)."""
        self.state = replace(self.state, battle_round=start_round)
        note(f"-- battle round {start_round}, player 1's turn")

    def _log(self, text: str) -> None:
        note(f"R{self.state.battle_round} P{self.state.turn_player}: {text}")

    @precondition(lambda self: not self.finished)
    # Passengers are tried as often as all the other units together: they are the ones the rules single out.
    @rule(name=st.sampled_from(["Terminators", "Tacticals"]) | st.sampled_from(NAMES), position_allowed=st.booleans())
    def ingress(self, name, position_allowed):
        unit = self.state.unit(name)
        if unit.owner != self.state.turn_player:
            return
        was_passenger_in_reserves = unit.embarked_in is not None and self.state.unit(unit.embarked_in).in_reserves
        try:
            after = strategic_reserves.ingress(self.state, name, position_allowed=position_allowed)
        except ValueError as refusal:
            note(f"  refused: {refusal}")
            return
        if not position_allowed:
            return
        self._log(f"{name} arrives from strategic reserves")
        if self.state.battle_round < 2:
            self.violations.append(f"{name} arrived in battle round {self.state.battle_round}")
        if was_passenger_in_reserves:
            self.violations.append(f"{name} arrived on its own while embarked within a TRANSPORT in reserves")
        self.state = after
        self.ingressed.add(name)

    @precondition(lambda self: not self.finished)
    @rule(name=st.sampled_from(["Rhino", "Land Raider"]) | st.sampled_from(NAMES))
    def reposition(self, name):
        unit = self.state.unit(name)
        if not unit.on_battlefield or unit.destroyed or unit.owner != self.state.turn_player:
            return
        self._log(f"{name} is repositioned into strategic reserves")
        self.state = self.state.with_unit(strategic_reserves.reposition(unit))

    @rule()
    def end_turn(self):
        if self.finished:  # the battle goes on, but nothing here changes any more
            return
        # 23.02: at the end of the opponent's turn, AIRCRAFT on the battlefield go back into strategic reserves.
        for unit in self.state.units:
            if aircraft.returns_to_strategic_reserves("AIRCRAFT" in unit.keywords, unit.on_battlefield,
                                                     unit.owner != self.state.turn_player):
                self._log(f"{unit.name} (AIRCRAFT) returns to strategic reserves")
                self.state = self.state.with_unit(strategic_reserves.reposition(unit))
        if self.state.turn_player != self.state.first_player and self.state.battle_round == 3:
            self.before_end = self.state
            self.state = strategic_reserves.end_of_third_battle_round(self.state, ingressed=self.ingressed)
            self.finished = True
            for line in self.state.log:
                note(f"  {line}")
            return
        player = 3 - self.state.turn_player
        battle_round = self.state.battle_round + (1 if player == self.state.first_player else 0)
        units = tuple(replace(u, moves=(), phase_moves=(), set_up_this_turn=False) for u in self.state.units)
        self.state = replace(self.state, turn_player=player, battle_round=battle_round, units=units)
        note(f"-- battle round {battle_round}, player {player}'s turn")

    @invariant()
    def rules_followed(self):
        assert not self.violations, self.violations

    @invariant()
    def end_of_round_three_spares_exactly_the_exceptions(self):
        if not self.finished:
            return
        before = self.before_end
        for unit in before.units:
            after = self.state.unit(unit.name)
            destroyed_now = not unit.destroyed and after.destroyed
            carrier = before.unit(unit.embarked_in) if unit.embarked_in else None
            waiting = strategic_reserves.is_reserves_unit(before, unit)
            spared = (unit.name in self.ingressed or unit.repositioned
                      or (carrier is not None and (carrier.name in self.ingressed or carrier.repositioned)))
            assert destroyed_now == (waiting and not spared), f"{unit.name}: destroyed {destroyed_now}"
            if destroyed_now and carrier is not None:
                assert self.state.unit(carrier.name).destroyed, f"{unit.name} destroyed while {carrier.name} survives"


def _run_game(max_examples: int | None = None):
    """Play the games; with ``max_examples`` (for the mutant runs) more of them, without shrinking or saving."""
    if max_examples:
        chosen = settings(max_examples=max_examples, stateful_step_count=40, database=None,
                          phases=[HypothesisPhase.generate])
    else:
        chosen = settings(stateful_step_count=30)
    run_state_machine_as_test(ReservesGame, settings=chosen)




@pytest.mark.refs("20.02", "20.03", "20.04")
def test_reserves_games_arrive_and_are_destroyed_by_the_rules():
    """20.02-20.04: over any battle rounds 1-3, no unit arrives in round 1 or out of a TRANSPORT in reserves, and
    at the end of round 3 exactly the strategic reserves units the exceptions do not spare are destroyed, never a
    passenger whose TRANSPORT survives."""
    _run_game()


def _literal_destruction(**facts):
    return proofs_transports.destruction_as_written()(**facts)


@pytest.mark.parametrize("attribute,mutant", [
    ("may_arrive_in_round", lambda battle_round, earliest_round=2: True),
    ("ingress_eligible", lambda in_reserves, embarked_in_reserves_transport: in_reserves),
    ("destroyed_at_end_of_third_round", _literal_destruction),
], ids=["arrive-in-round-one", "passenger-arrives-alone", "printed-exceptions-only"])
def test_reserves_game_catches_a_broken_rule(monkeypatch, attribute, mutant):
    monkeypatch.setattr(strategic_reserves, attribute, mutant)
    assert fails(lambda: _run_game(max_examples=500))


# -- 20.01 the points limit --------------------------------------------------------------------------


@st.composite
def _armies(draw):
    """Units with points, some in strategic reserves, some embarked within TRANSPORTS (in reserves or not)."""
    count = draw(st.integers(1, 6))
    units = []
    for i in range(count):
        units.append(UnitState(f"U{i}", 1, points=draw(st.integers(0, 300)), in_reserves=draw(st.booleans()),
                               on_battlefield=False))
    for i in range(draw(st.integers(0, 3))):
        carrier = draw(st.sampled_from(units))
        units.append(UnitState(f"P{i}", 1, points=draw(st.integers(0, 300)), embarked_in=carrier.name,
                               on_battlefield=False))
    return units


@pytest.mark.refs("20.01")
@given(_armies(), st.sampled_from([500, 1000, 2000, 3000]))
def test_reserves_points_count_passengers_of_reserve_transports(units, limit):
    """20.01: the reserves' points are those of units in reserves plus units embarked within TRANSPORTS in reserves,
    and the limit holds exactly when twice that is at most the points limit."""
    carriers = {u.name: u for u in units}
    expected = sum(u.points for u in units if (carriers[u.embarked_in].in_reserves if u.embarked_in else u.in_reserves))
    total = strategic_reserves.reserves_points(units)
    note(f"{total} of {limit}")
    assert total == expected
    assert strategic_reserves.reserves_within_limit(total, limit) == (Fraction(total, limit) <= Fraction(1, 2))


def test_reserves_points_property_catches_a_broken_rule(monkeypatch):
    """Forgetting the passengers of TRANSPORTS in reserves breaks it."""
    monkeypatch.setattr(strategic_reserves, "reserves_points",
                        lambda units: sum(u.points for u in units if u.in_reserves and u.embarked_in is None))
    assert fails(test_reserves_points_count_passengers_of_reserve_transports)


@pytest.mark.refs("20.01", "23.01")
@given(st.integers(0, 3000), st.integers(0, 3000), st.sampled_from([1000, 2000, 3000]))
def test_reserves_selection_always_leaves_a_legal_choice(selected, required, limit):
    """20.01/23.01: whatever the AIRCRAFT must put in reserves, selecting nothing more is legal, and a non-empty
    selection is legal only within 50% of the points limit (interpretation reserves-limit-and-required-units)."""
    assert strategic_reserves.reserves_selection_legal(0, required, limit)
    if selected > 0:
        assert strategic_reserves.reserves_selection_legal(selected, required, limit) == (
            2 * (selected + required) <= limit)


def test_reserves_selection_property_catches_a_broken_rule(monkeypatch):
    """The limit applied to the total as written (the finding) breaks it."""
    monkeypatch.setattr(strategic_reserves, "reserves_selection_legal",
                        lambda selected, required, limit: 2 * (selected + required) <= limit)
    assert fails(test_reserves_selection_always_leaves_a_legal_choice)


# -- 20.03 who is destroyed --------------------------------------------------------------------------------


@pytest.mark.refs("20.03")
@given(ts.reserve_facts())
def test_destroyed_exactly_when_no_exception_applies(facts):
    """20.03: a unit is destroyed at the end of round 3 exactly when it is a strategic reserves unit that made no
    ingress move and no exception (or other statement) spares it."""
    spared = (facts["made_ingress_move"] or facts["repositioned"] or facts["transport_made_ingress_move"]
              or facts["transport_repositioned"] or facts["otherwise_stated"])
    assert strategic_reserves.destroyed_at_end_of_third_round(**facts) == (facts["in_reserves"] and not spared)


def test_destroyed_property_catches_a_broken_rule(monkeypatch):
    """Dropping the repositioned-units exception breaks it."""
    table = strategic_reserves.DESTROYED_AT_END_OF_THIRD_ROUND
    rows = tuple(r for r in table.rows if not r.label.startswith("exception: repositioned"))
    monkeypatch.setattr(strategic_reserves, "destroyed_at_end_of_third_round",
                        lambda **facts: replace(table, rows=rows)(**facts))
    assert fails(test_destroyed_exactly_when_no_exception_applies)


# -- 20.04 where an arriving unit goes ----------------------------------------------------------------------

WIDTH, DEPTH = 44, 60


@st.composite
def _bases(draw):
    """A base somewhere on a 44" x 60" battlefield, exact to 1/8"."""
    size = draw(st.sampled_from(["25", "32", "40", "50.8", "60", "100"]))
    radius = Placed(0, 0, base_mm=size).radius
    x = draw(st.integers(0, WIDTH * 8).map(lambda n: Fraction(n, 8)))
    y = draw(st.integers(0, DEPTH * 8).map(lambda n: Fraction(n, 8)))
    return Placed(x, y, base_mm=size) if radius <= x <= WIDTH - radius and radius <= y <= DEPTH - radius else \
        Placed(min(max(x, radius), WIDTH - radius), min(max(y, radius), DEPTH - radius), base_mm=size)


def _near_some_edge(x: Fraction, y: Fraction, distance: int = 6) -> bool:
    return x <= distance or y <= distance or x >= WIDTH - distance or y >= DEPTH - distance


@pytest.mark.refs("20.04")
@given(_bases())
def test_ingress_edge_distance_covers_the_whole_base(base):
    """20.04: a base judged wholly within 6" of the battlefield edges has its four extreme points (and its centre)
    within 6" of some edge; a base whose extreme point lies beyond 6" of every edge is never judged so."""
    r = base.radius
    points = [(base.x + r, base.y), (base.x - r, base.y), (base.x, base.y + r), (base.x, base.y - r), (base.x, base.y)]
    judged = strategic_reserves.wholly_within_edge_distance([base], WIDTH, DEPTH)
    note(f"{base} -> {judged}")
    if judged:
        assert all(_near_some_edge(px, py) for px, py in points)
    if not all(_near_some_edge(px, py) for px, py in points):
        assert not judged


def test_ingress_edge_property_catches_a_broken_rule(monkeypatch):
    """Judging a base by its centre alone breaks it."""
    monkeypatch.setattr(strategic_reserves, "wholly_within_edge_distance",
                        lambda models, width, depth, distance=6: all(_near_some_edge(m.x, m.y) for m in models))
    assert fails(test_ingress_edge_distance_covers_the_whole_base)


# -- 20.04 the set-up distance on any battlefield, against its pointwise definition --------------------------


def _pointwise_wholly_within_edges(base: Placed, width: int, depth: int, distance: int) -> bool:
    """20.04 read point by point, decided by z3: no point of the base is off the battlefield or more than
    ``distance`` from every battlefield edge (an independent statement of what the rule function computes)."""
    import z3

    x, y = z3.Reals("x y")
    exact = lambda value: z3.Q(Fraction(value).numerator, Fraction(value).denominator)  # noqa: E731
    solver = z3.Solver()
    solver.add((x - exact(base.x)) ** 2 + (y - exact(base.y)) ** 2 <= exact(base.radius) ** 2)
    solver.add(z3.Or(x < 0, y < 0, x > width, y > depth,
                     z3.And(x > distance, x < width - distance, y > distance, y < depth - distance)))
    return solver.check() == z3.unsat


@st.composite
def _narrow_battlefields(draw):
    """A set-up distance, a battlefield whose sides are often about twice it (so the strips along opposite edges
    may meet, or leave a thin middle), and one to three bases over it, often near where a strip ends, some
    hanging off its edges."""
    distance = draw(st.integers(1, 8))

    def side():
        return draw(st.one_of(st.integers(2 * distance - 1, 2 * distance + 2), st.integers(2 * distance + 3, 60)))

    def coordinate(length):
        near_strip_end = st.tuples(st.sampled_from([distance, length - distance]), st.integers(-8, 8)).map(
            lambda pair: pair[0] + Fraction(pair[1], 4))
        return draw(st.one_of(near_strip_end, st.integers(-4, length * 4 + 4).map(lambda n: Fraction(n, 4))))

    width, depth = side(), side()
    bases = [Placed(coordinate(width), coordinate(depth), base_mm=draw(st.sampled_from(["25", "32", "50.8"])))
             for _ in range(draw(st.integers(1, 3)))]
    return bases, width, depth, distance


@pytest.mark.refs("20.04")
@given(_narrow_battlefields())
# The strips along opposite edges just meet (every point of the battlefield is within 6" of an edge), or leave a
# 2" middle that a base centred in it reaches into: in width, then in depth.
@example(([Placed(6, 30, base_mm="50.8")], 12, 60, 6))
@example(([Placed(22, 6, base_mm="50.8")], 44, 12, 6))
@example(([Placed(7, 30, base_mm="50.8")], 14, 60, 6))
@example(([Placed(22, 7, base_mm="50.8")], 44, 14, 6))
def test_ingress_edge_distance_is_pointwise_on_any_battlefield(case):
    """20.04 on battlefields of any size and any stated set-up distance: a unit is wholly within the distance of
    one or more edges exactly when every point of every base is on the battlefield and within the distance of
    some edge, including battlefields where the strips along opposite edges meet and cover everything."""
    bases, width, depth, distance = case
    expected = all(_pointwise_wholly_within_edges(b, width, depth, distance) for b in bases)
    note(f"{width}x{depth}, {distance}\": {bases} -> expected {expected}")
    assert bool(strategic_reserves.wholly_within_edge_distance(bases, width, depth, distance)) == expected


def test_ingress_pointwise_property_catches_a_broken_rule(monkeypatch):
    """Forgetting that the strips can meet (always measuring against the middle rectangle) breaks it."""
    def middle_always(models, width, depth, distance=6):
        return all(max(distance - m.x, 0, m.x - (width - distance)) ** 2
                   + max(distance - m.y, 0, m.y - (depth - distance)) ** 2 >= m.radius ** 2
                   and m.radius <= m.x <= width - m.radius and m.radius <= m.y <= depth - m.radius for m in models)
    monkeypatch.setattr(strategic_reserves, "wholly_within_edge_distance", middle_always)
    assert fails(test_ingress_edge_distance_is_pointwise_on_any_battlefield)


# -- 20.02 only a unit on the battlefield can be repositioned ------------------------------------------------


@pytest.mark.refs("20.02")
@given(st.booleans(), st.booleans(), st.integers(0, 3))
def test_only_units_on_the_battlefield_are_repositioned(on_battlefield, in_reserves, models):
    """20.02: a repositioned unit is one "removed from the battlefield": a unit in reserves, embarked or
    otherwise off the battlefield, or destroyed, cannot be; one on it always can, and ends in reserves."""
    unit = UnitState("Scouts", 1, models=models, on_battlefield=on_battlefield, in_reserves=in_reserves)
    if on_battlefield and models > 0:
        moved = strategic_reserves.reposition(unit)
        assert moved.in_reserves and moved.repositioned and not moved.on_battlefield
    else:
        with pytest.raises(ValueError):
            strategic_reserves.reposition(unit)


def test_reposition_property_catches_a_broken_rule(monkeypatch):
    """Repositioning a unit that is already off the battlefield breaks it."""
    monkeypatch.setattr(strategic_reserves, "reposition",
                        lambda unit: replace(unit, on_battlefield=False, in_reserves=True, repositioned=True))
    assert fails(test_only_units_on_the_battlefield_are_repositioned)
