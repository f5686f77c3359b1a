"""Chapter 16 Actions: who is eligible to start one, what starting one costs, and when one completes.

``START_ACTION`` transcribes 16.01's "unless one or more of the following
apply" list, row by row; the after-shooting condition of the shooting types
(10.04-10.07, 15.09) is added by ``eligible_to_start_action``.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Sequence

from rules.core import core_concepts, shooting_phase
from rules.logic import And, DecisionTable, Not, Or, Row, Var
from rules.registry import rule
from rules.state import GameState, MoveType, UnitState


START_ACTION = DecisionTable(
    name="start-action-eligibility",
    refs=("16.01", "01.07"),
    inputs=(Var("on_battlefield", kind="bool"), Var("aircraft_or_fortification", kind="bool"),
            Var("battle_shocked", kind="bool"), Var("oc", -1, 2), Var("engaged", kind="bool"),
            Var("titanic", kind="bool"), Var("advanced_or_fell_back", kind="bool"),
            Var("started_another_action", kind="bool")),
    rows=(
        Row("it is not on the battlefield", lambda on_battlefield, **_: Not(on_battlefield), False),
        Row("it is an AIRCRAFT/FORTIFICATION unit",
            lambda aircraft_or_fortification, **_: aircraft_or_fortification, False),
        Row("it is battle-shocked", lambda battle_shocked, **_: battle_shocked, False),
        Row("it has an OC characteristic of 0 or '-1'", lambda oc, **_: oc <= 0, False),
        Row("it is engaged (unless it is a TITANIC unit)",
            lambda engaged, titanic, **_: And(engaged, Not(titanic)), False),
        Row("it made an advance or fall-back move this turn",
            lambda advanced_or_fell_back, **_: advanced_or_fell_back, False),
        Row("it started another action this turn", lambda started_another_action, **_: started_another_action,
            False),
        Row("none of these applies: eligible to start an action", lambda **_: True, True, otherwise=True),
    ),
    gap=False,
)


@rule("16.01", "01.07")
def eligible_to_start_action(on_battlefield: Any, aircraft_or_fortification: Any, battle_shocked: Any, oc: Any,
                             engaged: Any, titanic: Any, advanced_or_fell_back: Any, started_another_action: Any,
                             shot_this_phase: Any = False) -> Any:
    """Whether a unit is eligible to start an action: none of 16.01's seven conditions applies, and it has not
    resolved a shooting type this phase (10.04-10.07, 15.09).

    ``oc`` is the OC characteristic of the unit's models after modifiers (the highest, if they differ).
    """
    return And(START_ACTION(on_battlefield=on_battlefield, aircraft_or_fortification=aircraft_or_fortification,
                            battle_shocked=battle_shocked, oc=oc, engaged=engaged, titanic=titanic,
                            advanced_or_fell_back=advanced_or_fell_back,
                            started_another_action=started_another_action),
               shooting_phase.eligible_to_start_action_after_shooting(shot_this_phase))


@rule("16.01")
def within_use_limit(times_started: Any, use_limit: Any) -> Any:
    """Whether friendly units may start an action again: fewer starts so far than its USE LIMIT allows."""
    return times_started < use_limit


@rule("16.01")
def may_declare_charge_after_action(started_action_this_turn: Any) -> Any:
    """A unit that started an action is not eligible to declare a charge until the end of the turn."""
    return Not(started_action_this_turn)


@rule("16.01")
def move_stops_action(move: MoveType) -> bool:
    """Whether making this move stops the unit completing its action: any move but pile-in and consolidation."""
    return MoveType(move) not in (MoveType.PILE_IN, MoveType.CONSOLIDATION)


@rule("16.01", "01.07")
def action_completes(made_other_move: Any, left_battlefield: Any, battle_shocked: Any) -> Any:
    """Whether a started action completes (triggering its Effect): the unit made no move other than pile-in or
    consolidation, did not leave the battlefield, and is not battle-shocked (01.07)."""
    return And(Not(made_other_move), Not(left_battlefield), core_concepts.may_complete_action(battle_shocked))


# Over the game state ---------------------------------------------------------------------------


def unit_eligible_to_start_action(unit: UnitState) -> Any:
    """``eligible_to_start_action`` on a unit's recorded facts."""
    return eligible_to_start_action(
        on_battlefield=unit.on_battlefield,
        aircraft_or_fortification=unit.has("AIRCRAFT/FORTIFICATION"),
        battle_shocked=unit.battle_shocked,
        oc=core_concepts.objective_control(unit.oc, unit.battle_shocked),
        engaged=unit.engaged,
        titanic=unit.has("TITANIC"),
        advanced_or_fell_back=Or(unit.advanced, unit.fell_back),
        started_another_action=unit.started_action,
        shot_this_phase=unit.selected_to_shoot,
    )


def start_action(state: GameState, name: str) -> GameState:
    """The unit starts an action (refused with a ValueError if it is not eligible)."""
    unit = state.unit(name)
    if not unit_eligible_to_start_action(unit):
        raise ValueError(f"{name} is not eligible to start an action")
    return state.with_unit(replace(unit, started_action=True)).note(f"{name} starts an action")


def unit_action_completes(unit: UnitState, moves_since_started: Sequence[MoveType],
                          left_battlefield: bool = False) -> Any:
    """``action_completes`` for a unit, given the moves it made since it started the action."""
    return action_completes(any(move_stops_action(m) for m in moves_since_started), left_battlefield,
                            unit.battle_shocked)
