"""Public hypothesis strategies for the Movement, Charge and Fight phases: units in the places the rules ask
about, armies for the Move Units step, fighters for the Fight step, and charge scenes on the tabletop.

Every strategy takes keyword-only arguments, so call sites read as the rule's terms:
``fight_units(min_units=2, max_units=6)``.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from hypothesis import strategies as st

from properties import strategies as s
from rules.model import PlacedUnit
from rules.state import UnitState

#: Where a unit can be when it is selected to move (09.02).
PLACES = ("battlefield", "engaged", "reserves", "embarked")


@dataclass(frozen=True)
class MoveFacts:
    """What the Move Units step needs besides the unit: its M, and what 18.04 and 20.04 decide for it."""

    m: int
    disembark_eligible: bool
    ingress_eligible: bool


def movement_units(*, owner: int = 1, name: str = "unit", aircraft: bool | None = None) -> st.SearchStrategy[UnitState]:
    """A unit that can be selected to move: on the battlefield (engaged or not), in strategic reserves or embarked.

    AIRCRAFT (``aircraft=None`` draws either) start the Movement phase in strategic reserves (23.01, 23.02).
    """
    flags = st.booleans() if aircraft is None else st.just(aircraft)

    def build(place: str, is_aircraft: bool, shocked: bool) -> UnitState:
        place = "reserves" if is_aircraft else place
        keywords = frozenset({"AIRCRAFT", "FLY"}) if is_aircraft else frozenset()
        return UnitState(name=name, owner=owner, keywords=keywords,
                         on_battlefield=place in ("battlefield", "engaged"), engaged=place == "engaged",
                         in_reserves=place == "reserves", embarked_in="Transport" if place == "embarked" else None,
                         battle_shocked=shocked)

    return st.builds(build, st.sampled_from(PLACES), flags, st.booleans())


def move_facts(*, unit: UnitState, battle_round: int | None = None) -> st.SearchStrategy[MoveFacts]:
    """Facts for ``unit`` as chapters 02, 18 and 20 would give them (ingress only from reserves, from round 2)."""
    rounds = st.integers(1, 5) if battle_round is None else st.just(battle_round)
    return st.builds(
        lambda m, may_disembark, rnd: MoveFacts(m, may_disembark and unit.embarked_in is not None,
                                                unit.in_reserves and rnd >= 2),
        st.sampled_from([-1, 5, 6, 8, 10, 12]), st.booleans(), rounds)


def movement_armies(*, min_units: int = 1, max_units: int = 6,
                    battle_round: int | None = None) -> st.SearchStrategy[list[tuple[UnitState, MoveFacts]]]:
    """The active player's army (player 1) with the facts for each unit, and one enemy unit that is never selected."""

    @st.composite
    def build(draw):
        size = draw(st.integers(min_units, max_units))
        rnd = draw(st.integers(1, 5)) if battle_round is None else battle_round
        out = []
        for i in range(size):
            unit = draw(movement_units(name=f"unit {i + 1}"))
            out.append((unit, draw(move_facts(unit=unit, battle_round=rnd))))
        return out

    return build()


@dataclass(frozen=True)
class Fighter:
    """A unit as the Fight step sees it, with whether it is more than 5" from every enemy unit."""

    unit: UnitState
    far: bool


def fight_units(*, min_units: int = 1, max_units: int = 6) -> st.SearchStrategy[list[Fighter]]:
    """Units of both players for the Fight step: some eligible to fight (some Fights First), some not yet
    (an overrun or consolidation may make them eligible later), some far from every enemy."""

    @st.composite
    def build(draw):
        size = draw(st.integers(min_units, max_units))
        out = []
        for i in range(size):
            owner = draw(st.sampled_from([1, 2]))
            eligible = draw(st.booleans())
            unit = UnitState(name=f"{'RED' if owner == 1 else 'BLUE'} {i + 1}", owner=owner,
                             fights_first=draw(st.booleans()), eligible_to_fight=eligible, engaged=eligible)
            out.append(Fighter(unit, draw(st.booleans())))
        return out

    return build()


def charge_scenes(*, spread: int = 5, height: int = 8) -> st.SearchStrategy[tuple[PlacedUnit, PlacedUnit]]:
    """A one- or two-model charging unit (player 1) and an enemy unit (player 2) close together, some up on
    terrain ``height`` inches high, so the vertical part of "within" matters."""
    charger = s.units(min_size=1, max_size=2, spread=spread, height=height, owner=1)
    enemy = s.units(min_size=1, max_size=2, spread=spread, height=height, owner=2)
    return st.tuples(charger, enemy)


def tabletop_distances(*, names: tuple[str, ...] = ("A", "B", "C", "D")) -> st.SearchStrategy[dict[str, Fraction]]:
    """Distances in inches from a unit to each named enemy unit (ties likely)."""
    return st.fixed_dictionaries({n: s.inches(high=8, denominator=2) for n in names})
