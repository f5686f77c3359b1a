"""Checks of chapter 18 that worked examples cannot state: what embarking and disembarking refuse, and why (an
example can only expect an answer), and "wholly within" against its point-by-point definition.

``rules40k mutate`` shows each failing for a broken rule: a dropped refusal, a message naming the wrong reason,
a set-up distance measured wrongly for a base larger than the TRANSPORT's.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import example, given, note
from hypothesis import strategies as st

from rules.core import transports
from rules.model import Placed
from rules.state import GameState, MoveType, Phase, UnitState

RHINO = transports.TransportCapacity(10, ("INFANTRY",), ("TERMINATOR",))


def _embarking(unit: UnitState, carrier: UnitState) -> GameState:
    return GameState(battle_round=2, turn_player=1, phase=Phase.MOVEMENT, units=(carrier, unit))


def _refusal(state: GameState, unit: str = "Intercessors") -> str:
    with pytest.raises(ValueError) as refused:
        transports.embark(state, unit, "Rhino", capacity=RHINO, every_model_within_3=True)
    return str(refused.value)


@pytest.mark.refs("18.02")
def test_embarking_is_refused_with_its_reason():
    """18.02: a unit embarks only from the battlefield into a TRANSPORT on it, and only if its models are of a
    type the TRANSPORT's capacity takes; a refusal names the one condition that failed, and only that one."""
    rhino = UnitState("Rhino", 1, frozenset({"VEHICLE", "TRANSPORT"}))
    moved = UnitState("Intercessors", 1, frozenset({"INFANTRY"}), models=5, phase_moves=(MoveType.NORMAL,))
    assert transports.embark(_embarking(moved, rhino), "Intercessors", "Rhino", capacity=RHINO,
                             every_model_within_3=True).unit("Intercessors").embarked_in == "Rhino"

    in_reserves = UnitState("Rhino", 1, frozenset({"VEHICLE", "TRANSPORT"}), on_battlefield=False, in_reserves=True)
    assert _refusal(_embarking(moved, in_reserves)).endswith("the transport is not on the battlefield")
    waiting = UnitState("Intercessors", 1, frozenset({"INFANTRY"}), models=5, phase_moves=(MoveType.NORMAL,),
                        on_battlefield=False, in_reserves=True)
    assert _refusal(_embarking(waiting, rhino)).endswith("it is not on the battlefield")
    bikes = UnitState("Outriders", 1, frozenset({"MOUNTED"}), models=3, phase_moves=(MoveType.NORMAL,))
    assert _refusal(_embarking(bikes, rhino), "Outriders") == (
        "Outriders cannot embark within Rhino: the transport's datasheet does not let it embark")
    arrived = UnitState("Intercessors", 1, frozenset({"INFANTRY"}), models=5, phase_moves=(MoveType.NORMAL,),
                        set_up_this_turn=True)
    assert _refusal(_embarking(arrived, rhino)) == (
        "Intercessors cannot embark within Rhino: it was set up on the battlefield this turn")
    crowd = UnitState("Intercessors", 1, frozenset({"INFANTRY"}), models=11, phase_moves=(MoveType.NORMAL,))
    assert _refusal(_embarking(crowd, rhino)) == (
        "Intercessors cannot embark within Rhino: the transport has no room for every model")


def _disembarking(carrier: UnitState) -> GameState:
    passengers = UnitState("Intercessors", 1, frozenset({"INFANTRY"}), models=5, on_battlefield=False,
                           embarked_in="Rhino")
    return GameState(battle_round=2, turn_player=1, phase=Phase.MOVEMENT, units=(carrier, passengers))


@pytest.mark.refs("18.04", "20.02")
def test_disembarking_needs_a_transport_that_did_not_advance_this_phase():
    """18.04 ELIGIBLE IF: the TRANSPORT is on the battlefield and has not made an advance or fall-back move this
    phase. A TRANSPORT in strategic reserves lets nobody out; nor does one that advanced, was repositioned and
    arrived again by an ingress move in the same phase, for it has still made that advance move (20.02)."""
    reserves = UnitState("Rhino", 1, frozenset({"VEHICLE", "TRANSPORT"}), on_battlefield=False, in_reserves=True)
    with pytest.raises(ValueError, match="not eligible to disembark"):
        transports.disembark(_disembarking(reserves), "Intercessors", tactical_set_up_possible=True)
    for earlier in (MoveType.ADVANCE, MoveType.FALL_BACK):
        back = UnitState("Rhino", 1, frozenset({"VEHICLE", "TRANSPORT"}), phase_moves=(earlier, MoveType.INGRESS),
                         set_up_this_turn=True)
        with pytest.raises(ValueError, match="not eligible to disembark"):
            transports.disembark(_disembarking(back), "Intercessors", tactical_set_up_possible=True)
    arrived = UnitState("Rhino", 1, frozenset({"VEHICLE", "TRANSPORT"}), phase_moves=(MoveType.INGRESS,),
                        set_up_this_turn=True)
    assert transports.disembark(_disembarking(arrived), "Intercessors",
                                tactical_set_up_possible=True)[1] == transports.DisembarkMode.RAPID


def _pointwise_wholly_within(model: Placed, other: Placed, inches: Fraction) -> bool:
    """"Wholly within" read point by point, decided by z3: no point of the model's base is farther than ``inches``
    from the other base (from its centre, more than its radius plus ``inches``)."""
    import z3

    exact = lambda value: z3.Q(Fraction(value).numerator, Fraction(value).denominator)  # noqa: E731
    x, y = z3.Reals("x y")
    solver = z3.Solver()
    solver.add((x - exact(model.x)) ** 2 + (y - exact(model.y)) ** 2 <= exact(model.radius) ** 2)
    solver.add((x - exact(other.x)) ** 2 + (y - exact(other.y)) ** 2 > exact(other.radius + inches) ** 2)
    return solver.check() == z3.unsat


BASES = ["25", "32", "50.8", "100", "130"]


@st.composite
def _bases_near_a_transport(draw):
    """A base and a TRANSPORT's base, either size larger, often with centres close together (one base over the
    other, where the larger base's own size decides), and a set-up distance in quarter inches."""
    transport = Placed(0, 0, base_mm=draw(st.sampled_from(BASES)))
    spread = draw(st.sampled_from([1, 8]))
    x, y = (draw(st.integers(-spread * 4, spread * 4).map(lambda n: Fraction(n, 4))) for _ in range(2))
    return Placed(x, y, base_mm=draw(st.sampled_from(BASES))), transport, Fraction(draw(st.integers(0, 24)), 4)


@pytest.mark.refs("18.04", "18.05")
@given(_bases_near_a_transport())
# A 100 mm base centred on a 2" base: its edge is 49.2 mm (123/127") beyond the smaller base's edge all round, so it
# is wholly within exactly that distance, and within 1" too (a distance only just more than the overhang).
@example((Placed(0, 0, base_mm="100"), Placed(0, 0, base_mm="50.8"), Fraction(123, 127)))
@example((Placed(0, 0, base_mm="100"), Placed(0, 0, base_mm="50.8"), Fraction(1)))
def test_wholly_within_is_every_point_within(case):
    """18.04/18.05: a model is wholly within a set-up distance of its TRANSPORT exactly when every point of its base
    is within that distance of the TRANSPORT's base, for bases of any sizes, the larger one either way round."""
    model, transport, inches = case
    expected = _pointwise_wholly_within(model, transport, inches)
    note(f"{model} / {transport}, {inches}: expected {expected}")
    assert bool(transports.wholly_within_horizontally(model, transport, inches)) == expected
