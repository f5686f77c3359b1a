"""Hypothesis strategies for the turn-structure rules: unit states, armies, unit strengths, shooters, models
within range of an objective. All keyword-only, in the rules' own terms (rules.state records)."""

from __future__ import annotations

from hypothesis import strategies as st

from rules.core.objectives import ModelInRange
from rules.state import MoveType, UnitState

#: Keywords the player-level rules ask about.
KEYWORDS = ("INFANTRY", "CHARACTER", "VEHICLE", "MONSTER", "WALKER", "TITANIC", "SMOKE", "GRENADES",
            "EXPLOSIVES", "AIRCRAFT", "FORTIFICATION")


@st.composite
def unit_strengths(draw, *, max_models: int = 10, max_wounds: int = 12) -> tuple[int, int, int, int]:
    """(starting strength, models left, wounds left, W) of a unit still on the battlefield.

    A unit that started as one model still has it; a unit of several keeps 1..starting strength models.
    """
    starting = draw(st.integers(1, max_models))
    models = 1 if starting == 1 else draw(st.integers(1, starting))
    w = draw(st.integers(1, max_wounds))
    wounds = draw(st.integers(1, w))
    return starting, models, wounds, w


@st.composite
def unit_states(draw, *, name: str, owner: int, max_models: int = 10) -> UnitState:
    """One unit in the middle of a battle: keywords, strength, OC, and what it has done this turn."""
    starting, models, wounds, w = draw(unit_strengths(max_models=max_models))
    keywords = frozenset(draw(st.sets(st.sampled_from(KEYWORDS), max_size=3)))
    in_reserves = draw(st.booleans()) and draw(st.booleans())  # about one in four
    moves = tuple(draw(st.lists(st.sampled_from([MoveType.NORMAL, MoveType.ADVANCE, MoveType.FALL_BACK,
                                                  MoveType.REMAIN_STATIONARY]), max_size=1)))
    return UnitState(
        name=name, owner=owner, keywords=keywords, models=models, starting_strength=starting, wounds=wounds,
        max_wounds=w, oc=draw(st.integers(0, 3)), on_battlefield=not in_reserves, in_reserves=in_reserves,
        engaged=(not in_reserves) and draw(st.booleans()), battle_shocked=draw(st.booleans()), moves=moves,
        started_action=draw(st.booleans()), selected_to_shoot=draw(st.booleans()),
        eligible_to_fight=draw(st.booleans()))


@st.composite
def armies(draw, *, min_units: int = 1, max_units: int = 3) -> tuple[UnitState, ...]:
    """Both players' units, with unique names ("p1-a", "p2-b", ...)."""
    units = []
    for owner in (1, 2):
        count = draw(st.integers(min_units, max_units))
        units += [draw(unit_states(name=f"p{owner}-{'abcdefgh'[i]}", owner=owner)) for i in range(count)]
    return tuple(units)


def shooters() -> st.SearchStrategy[dict[str, bool]]:
    """The facts the shooting types' ELIGIBLE IF lines ask about, for one unit."""
    names = ("engaged", "advanced", "has_assault_weapons", "has_close_quarters_weapons", "monster_or_vehicle",
             "has_indirect_fire_weapons")
    return st.fixed_dictionaries({name: st.booleans() for name in names})


def models_in_range(*, max_size: int = 8) -> st.SearchStrategy[list[ModelInRange]]:
    """Models within range of an objective: an OC of '-1' (placeholder) or 0..4, battle-shocked or not."""
    model = st.builds(ModelInRange, oc=st.sampled_from([-1, 0, 1, 2, 3, 4]), battle_shocked=st.booleans())
    return st.lists(model, max_size=max_size)
