"""Chapter 14 Objectives: within range, level of control, who controls, controlling units, secured objectives.

A player's level of control adds up the OC of their models within range, each
through 01.07 (battle-shocked models have OC '-1') and 02.02 (the placeholder
'-1' adds nothing). ``OBJECTIVE_CONTROL`` decides who controls an objective at
the end of a phase or turn, with 14.03's secured objectives as labelled
exceptions to 14.02's "highest level controls".
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Sequence

from rules.core import core_concepts, datasheets
from rules.logic import And, DecisionTable, If, Not, Or, Row, Var
from rules.registry import rule
from rules.state import GameState

NOBODY = 0  # the controller of an objective neither player controls (None in GameState.objectives)


@dataclass(frozen=True)
class ModelInRange:
    """One model within range of an objective: its OC characteristic and whether its unit is battle-shocked."""

    oc: Any
    battle_shocked: Any = False


# 14.01 Terrain objectives ---------------------------------------------------------------


@rule("14.01", "14.02")
def within_range_of_terrain_objective(within_terrain_area: Any) -> Any:
    """A model is within range of a terrain objective exactly while it is within that terrain area (the
    objective is the terrain area, measured to its closest part)."""
    return within_terrain_area


# 14.02 Level of control -------------------------------------------------------------------


@rule("14.02", "01.07")
def level_of_control(models_in_range: Sequence[ModelInRange]) -> Any:
    """A player's level of control over an objective: the OC of all their models within range, added up.

    Interpretation: placeholder-characteristics (a battle-shocked model's '-1' adds nothing).
    """
    total: Any = 0
    for model in models_in_range:
        oc = core_concepts.objective_control(model.oc, model.battle_shocked)
        total = total + datasheets.level_of_control_contribution(oc)
    return total


OBJECTIVE_CONTROL = DecisionTable(
    name="objective-control",
    refs=("14.02", "14.03"),
    inputs=(Var("level_1", 0, 3), Var("level_2", 0, 3), Var("secured_by", 0, 2),
            Var("end_of_phase", kind="bool")),
    # 14.03 is an exception to 14.02, so its rows come first and say which rows they override.
    rows=(
        Row("secured by player 1: theirs until player 2's level of control is greater at the end of a phase",
            lambda level_1, level_2, secured_by, end_of_phase:
                And(secured_by == 1, Not(And(end_of_phase, level_2 > level_1))),
            1, overrides=("player 2 has the highest level of control", "same level of control: controlled by neither")),
        Row("secured by player 2: theirs until player 1's level of control is greater at the end of a phase",
            lambda level_1, level_2, secured_by, end_of_phase:
                And(secured_by == 2, Not(And(end_of_phase, level_1 > level_2))),
            2, overrides=("player 1 has the highest level of control", "same level of control: controlled by neither")),
        Row("player 1 has the highest level of control", lambda level_1, level_2, **_: level_1 > level_2, 1),
        Row("player 2 has the highest level of control", lambda level_1, level_2, **_: level_2 > level_1, 2),
        Row("same level of control: controlled by neither", lambda **_: True, NOBODY, otherwise=True),
    ),
    notes={"order": "14.03's rows are printed after 14.02 but are its exceptions, so they are matched first."},
)


@rule("14.02", "14.03")
def objective_controller(level_1: Any, level_2: Any, secured_by: Any = NOBODY, end_of_phase: Any = True) -> Any:
    """Who controls an objective when control is determined (1, 2, or 0 for neither).

    Interpretation: secured-until-end-of-phase (at the end of a turn a secured objective stays put).
    """
    return OBJECTIVE_CONTROL(level_1=level_1, level_2=level_2, secured_by=secured_by, end_of_phase=end_of_phase)


@rule("14.03")
def secured_after(controller: Any, secured_by: Any) -> Any:
    """Whose army still has the objective secured once control is determined: the securing army, for as long
    as the objective stays under its control (0 once the opponent takes it)."""
    return If(And(secured_by != NOBODY, controller == secured_by), secured_by, NOBODY)


@rule("14.02")
def unit_is_controlling(player_controls_objective: Any, unit_within_range: Any, model_ocs: Sequence[Any],
                        battle_shocked: Any = False) -> Any:
    """Whether a unit is controlling an objective: its player controls it, the unit is within range and it
    contains a model with an OC of 1 or more (after battle-shock)."""
    has_oc = Or(*(core_concepts.objective_control(oc, battle_shocked) >= 1 for oc in model_ocs))
    return And(player_controls_objective, unit_within_range, has_oc)


# Over the game state -------------------------------------------------------------------------


def _as_controller(value: int | None) -> int:
    return NOBODY if value is None else value


def _as_state(value: Any) -> int | None:
    return None if value == NOBODY else int(value)


@rule("14.02", "14.03")
def determine_control(state: GameState, levels: Sequence[tuple[int, int]], end_of_phase: bool) -> GameState:
    """Determine control of every objective from each player's level of control (at the end of a phase or turn).

    At the start of the battle no objective is controlled: a state with no record yet starts from nobody.
    """
    objectives = state.objectives or (None,) * len(levels)
    secured = state.secured or (None,) * len(levels)
    if not len(objectives) == len(secured) == len(levels):
        raise ValueError(f"{len(levels)} levels of control given for {len(objectives)} objectives")
    controllers, still_secured = [], []
    for (level_1, level_2), by in zip(levels, secured):
        if level_1 < 0 or level_2 < 0:
            raise ValueError("a level of control is never negative")
        controller = objective_controller(level_1, level_2, _as_controller(by), end_of_phase)
        controllers.append(_as_state(controller))
        still_secured.append(_as_state(secured_after(controller, _as_controller(by))))
    moment = "phase" if end_of_phase else "turn"
    line = f"end of {moment}: levels {list(levels)} -> control {controllers}, secured {still_secured}"
    return replace(state, objectives=tuple(controllers), secured=tuple(still_secured)).note(line)


@rule("14.03")
def secure_objective(state: GameState, index: int, player: int) -> GameState:
    """A rule secures objective ``index`` for ``player``'s army: it is under their control from now on."""
    objectives = list(state.objectives)
    secured = list(state.secured or (None,) * len(objectives))
    if not 0 <= index < len(objectives):
        raise ValueError(f"there is no objective {index}")
    objectives[index], secured[index] = player, player
    return replace(state, objectives=tuple(objectives), secured=tuple(secured)).note(
        f"player {player} secures objective {index}")
