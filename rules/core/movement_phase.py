"""Chapter 09 Movement phase: selecting every unit to move, and the move types remain stationary, normal,
advance and fall-back.

The book's move-type boxes become tables: who is eligible (the 'Eligible if'
column, with the disembark move of 18.04 and the ingress move of 20.04 taken
as facts, since chapters 18 and 20 decide them), the maximum distance, and what
a unit may not do for the rest of the turn after moving. Fall-back modes follow
the SELECTING MODES box, which ``selectable_modes`` states once for every mode
table (the consolidation modes of 12.08 use it too).
"""

from __future__ import annotations

import enum
from dataclasses import replace
from fractions import Fraction
from typing import Any, Sequence

from rules import dice
from rules.core import aircraft, datasheets, flying_and_surging
from rules.logic import And, DecisionTable, If, Implies, Not, Or, Row, Var
from rules.registry import rule
from rules.state import GameState, MoveType, UnitState


class Move(enum.IntEnum):
    """The move types a unit can select in the Move Units step (09.02), as numbers z3 can compare."""

    REMAIN_STATIONARY = 0  # 09.04
    NORMAL = 1  # 09.05
    ADVANCE = 2  # 09.06
    FALL_BACK = 3  # 09.07
    DISEMBARK = 4  # 18.04
    INGRESS = 5  # 20.04


#: The state model's name for each move type of the Move Units step.
MOVE_TYPE = {Move.REMAIN_STATIONARY: MoveType.REMAIN_STATIONARY, Move.NORMAL: MoveType.NORMAL,
             Move.ADVANCE: MoveType.ADVANCE, Move.FALL_BACK: MoveType.FALL_BACK,
             Move.DISEMBARK: MoveType.DISEMBARK, Move.INGRESS: MoveType.INGRESS}


class Activity(enum.IntEnum):
    """What a move can make a unit not eligible for until the end of the turn."""

    SHOOT = 0
    DECLARE_CHARGE = 1
    START_ACTION = 2


class FallBackMode(enum.IntEnum):
    ORDERED_RETREAT = 1
    DESPERATE_ESCAPE = 2


class MovementStep(enum.IntEnum):
    """The Movement phase's steps in order; DONE means the phase is over."""

    START = 1  # 09.01
    MOVE_UNITS = 2  # 09.02
    END = 3  # 09.03
    DONE = 4


# 09.01-09.03 The phase's steps ---------------------------------------------------------

MOVEMENT_STEPS = DecisionTable(
    name="movement-phase-steps",
    refs=("09.01", "09.02", "09.03"),
    inputs=(Var("step", MovementStep.START, MovementStep.END), Var("every_unit_selected", kind="bool")),
    rows=(
        Row("1. Start of Movement phase: resolve start-of-phase rules, then Move Units",
            lambda step, **_: step == MovementStep.START, MovementStep.MOVE_UNITS),
        Row("2. Move Units: a unit is still to be selected, so select the next one",
            lambda step, every_unit_selected: And(step == MovementStep.MOVE_UNITS, Not(every_unit_selected)),
            MovementStep.MOVE_UNITS, overrides=("2. Move Units: every unit has been selected and moved",)),
        Row("2. Move Units: every unit has been selected and moved",
            lambda step, **_: step == MovementStep.MOVE_UNITS, MovementStep.END),
        Row("3. End of Movement phase: resolve end-of-phase rules, then the phase ends",
            lambda step, **_: step == MovementStep.END, MovementStep.DONE),
    ),
)


@rule("09.01", "09.02", "09.03")
def next_movement_step(step: Any, every_unit_selected: Any) -> Any:
    """Which step of the Movement phase follows: Move Units repeats until every unit has been selected to move."""
    return MOVEMENT_STEPS(step=step, every_unit_selected=every_unit_selected)


# 09.02 Move Units: select unit, select move type -------------------------------------------


@rule("09.02")
def may_select_to_move(selected_to_move: Any, on_battlefield: Any, in_strategic_reserves: Any, embarked: Any) -> Any:
    """Select Unit: a friendly unit not yet selected to move this phase, on the battlefield, in strategic reserves
    or embarked within a TRANSPORT."""
    return And(Not(selected_to_move), Or(on_battlefield, in_strategic_reserves, embarked))


MOVE_ELIGIBILITY = DecisionTable(
    name="move-type-eligibility",
    refs=("09.02", "09.04", "09.05", "09.06", "09.07"),
    inputs=(Var("move", Move.REMAIN_STATIONARY, Move.INGRESS), Var("on_battlefield", kind="bool"),
            Var("engaged", kind="bool"), Var("disembark_eligible", kind="bool"),
            Var("ingress_eligible", kind="bool")),
    # Only a unit on the battlefield can be engaged.
    assume=lambda on_battlefield, engaged, **_: Implies(engaged, on_battlefield),
    rows=(
        Row("Remain stationary (09.04): any unit", lambda move, **_: move == Move.REMAIN_STATIONARY, True),
        Row("Normal move (09.05): on the battlefield and unengaged", lambda move, **_: move == Move.NORMAL,
            lambda on_battlefield, engaged, **_: And(on_battlefield, Not(engaged))),
        Row("Advance move (09.06): on the battlefield and unengaged", lambda move, **_: move == Move.ADVANCE,
            lambda on_battlefield, engaged, **_: And(on_battlefield, Not(engaged))),
        Row("Fall-back move (09.07): engaged", lambda move, **_: move == Move.FALL_BACK,
            lambda engaged, **_: engaged),
        Row("Disembark move (18.04): as that section decides", lambda move, **_: move == Move.DISEMBARK,
            lambda disembark_eligible, **_: disembark_eligible),
        Row("Ingress move (20.04): as that section decides", lambda move, **_: move == Move.INGRESS,
            lambda ingress_eligible, **_: ingress_eligible),
    ),
    gap=False,
)


@rule("09.02", "09.04", "09.05", "09.06", "09.07")
def eligible_for_move(move: Any, on_battlefield: Any, engaged: Any, disembark_eligible: Any, ingress_eligible: Any,
                      m: Any, is_aircraft: Any = False, engaged_solely_with_aircraft: Any = False) -> Any:
    """Whether a unit selected in Move Units is eligible to make this move type.

    The 'Eligible if' column of 09.04-09.07 (with 18.04 and 20.04 as facts), then
    the AIRCRAFT rules of 23.02 (only ingress; engagement solely with AIRCRAFT does
    not stop a normal or advance move) and M '-1' (02.02: set up, never moved).
    Interpretation: placeholder-characteristics, aircraft-without-a-move-type.
    """
    moves_models = Or(move == Move.NORMAL, move == Move.ADVANCE, move == Move.FALL_BACK)
    engaged_for_move = If(Or(move == Move.NORMAL, move == Move.ADVANCE),
                          aircraft.engagement_prevents_normal_or_advance(engaged, engaged_solely_with_aircraft),
                          engaged)
    return And(MOVE_ELIGIBILITY(move=move, on_battlefield=on_battlefield, engaged=engaged_for_move,
                                disembark_eligible=disembark_eligible, ingress_eligible=ingress_eligible),
               Implies(moves_models, datasheets.can_be_moved(m)),
               aircraft.aircraft_may_make_move(is_aircraft, move == Move.INGRESS))


@rule("09.02")
def eligible_moves(unit: UnitState, m: int, disembark_eligible: bool = False, ingress_eligible: bool = False,
                   engaged_solely_with_aircraft: bool = False) -> list[Move]:
    """The move types this unit may select in the Select Move Type step, in the book's order (may be none)."""
    return [move for move in Move
            if eligible_for_move(move, unit.on_battlefield, unit.engaged, disembark_eligible, ingress_eligible, m,
                                 unit.has(aircraft.AIRCRAFT), engaged_solely_with_aircraft)]


@rule("09.02")
def move_units_step_can_end(state: GameState) -> bool:
    """The Move Units step ends only when every unit of the active player's army has been selected to move,
    those in strategic reserves and embarked ones included."""
    return all(unit.selected_to_move for unit in state.army(state.turn_player))


@rule("09.02")
def select_unit_to_move(state: GameState, name: str, move: Move | None, eligible: Sequence[Move]) -> GameState:
    """Select Unit then Select Move Type: the unit is selected to move and makes ``move`` (one of ``eligible``).

    ``move`` is None only when the unit is eligible for no move type: it is still selected
    (the phase can end) but makes no move. Interpretation: aircraft-without-a-move-type.
    """
    unit = state.unit(name)
    if unit.owner != state.turn_player or unit.destroyed:
        raise ValueError(f"{name} is not a unit of the active player's army that can be selected")
    embarked = unit.embarked_in is not None
    if not may_select_to_move(unit.selected_to_move, unit.on_battlefield, unit.in_reserves, embarked):
        raise ValueError(f"{name} has already been selected to move, or is not on the battlefield, in strategic "
                         "reserves or embarked")
    if move is None and eligible:
        raise ValueError(f"{name} is eligible for a move type and must make one")
    if move is not None and move not in eligible:
        raise ValueError(f"{name} is not eligible to make a {MOVE_TYPE[Move(move)].value} move")
    updated = replace(unit, selected_to_move=True)
    if move is not None:
        kind = MOVE_TYPE[Move(move)]
        updated = replace(updated, moves=unit.moves + (kind,), phase_moves=unit.phase_moves + (kind,))
        if move in (Move.NORMAL, Move.ADVANCE, Move.FALL_BACK):
            updated = replace(updated, engaged=False)  # 'after moving: your unit must be unengaged'
        elif move == Move.INGRESS:
            updated = replace(updated, in_reserves=False, on_battlefield=True, set_up_this_turn=True)
        elif move == Move.DISEMBARK:
            updated = replace(updated, embarked_in=None, on_battlefield=True)
    action = MOVE_TYPE[Move(move)].value if move is not None else "no move (eligible for none)"
    return state.with_unit(updated).note(f"player {unit.owner} selects {name} to move: {action}")


# 09.04-09.07 Maximum distances ------------------------------------------------------------

MAXIMUM_DISTANCE = DecisionTable(
    name="move-maximum-distance",
    refs=("09.04", "09.05", "09.06", "09.07"),
    inputs=(Var("move", Move.REMAIN_STATIONARY, Move.FALL_BACK), Var("m", 1, 12), Var("advance_roll", 1, 6)),
    rows=(
        Row("Remain stationary: '—' (no model is moved)", lambda move, **_: move == Move.REMAIN_STATIONARY, 0),
        Row("Normal move: the unit's M", lambda move, **_: move == Move.NORMAL, lambda m, **_: m),
        Row("Advance move: advance roll + M", lambda move, **_: move == Move.ADVANCE,
            lambda m, advance_roll, **_: advance_roll + m),
        Row("Fall-back move: the unit's M", lambda move, **_: move == Move.FALL_BACK, lambda m, **_: m),
    ),
)


@rule("09.04", "09.05", "09.06", "09.07")
def maximum_distance(move: Any, m: Any, advance_roll: Any = 0, takes_to_the_skies: Any = False,
                     hover: Any = False) -> Any:
    """How far each model may move with this move type, less 2 inches if it takes to the skies (21.03)."""
    base = MAXIMUM_DISTANCE(move=move, m=m, advance_roll=advance_roll)
    return flying_and_surging.skies_maximum_distance(base, takes_to_the_skies, hover)


@rule("09.06")
def advance_maximum_distance_distribution(m: int) -> dict[int, Fraction]:
    """The exact distribution of an advance move's maximum distance: one D6 advance roll plus M."""
    return {roll + m: p for roll, p in dice.distribution("D6").items()}


@rule("appendix/different-move-characteristics")
def model_maximum_distances(move: Move, model_m: Sequence[int], advance_roll: int = 0) -> list[int]:
    """In a normal or advance move each model's maximum distance uses its own M (one advance roll for the unit)."""
    if Move(move) not in (Move.NORMAL, Move.ADVANCE):
        raise ValueError("different M characteristics are only described for normal and advance moves")
    return [maximum_distance(move, m, advance_roll) for m in model_m]


# 09.04 Remain stationary ------------------------------------------------------------------


@rule("09.04")
def triggers_start_or_end_of_move_rules(move: Any) -> Any:
    """Rules triggered when a unit starts or ends a move are not triggered by remaining stationary."""
    return move != Move.REMAIN_STATIONARY


# 09.05-09.07 After moving --------------------------------------------------------------------


@rule("09.05", "09.06", "09.07")
def after_moving_conditions_met(move: Any, engaged_after: Any) -> Any:
    """Normal, advance and fall-back moves must end with the unit unengaged (feeds 03.01 move_can_end)."""
    return Implies(Or(move == Move.NORMAL, move == Move.ADVANCE, move == Move.FALL_BACK), Not(engaged_after))


NOT_ELIGIBLE_AFTER_MOVE = DecisionTable(
    name="not-eligible-after-moving",
    refs=("09.06", "09.07"),
    inputs=(Var("move", Move.REMAIN_STATIONARY, Move.INGRESS), Var("activity", Activity.SHOOT, Activity.START_ACTION)),
    rows=(
        Row("Advance move: not eligible to declare a charge",
            lambda move, activity: And(move == Move.ADVANCE, activity == Activity.DECLARE_CHARGE), True),
        Row("Advance move: not eligible to start an action",
            lambda move, activity: And(move == Move.ADVANCE, activity == Activity.START_ACTION), True),
        Row("Fall-back move: not eligible to shoot",
            lambda move, activity: And(move == Move.FALL_BACK, activity == Activity.SHOOT), True),
        Row("Fall-back move: not eligible to declare a charge",
            lambda move, activity: And(move == Move.FALL_BACK, activity == Activity.DECLARE_CHARGE), True),
        Row("Fall-back move: not eligible to start an action",
            lambda move, activity: And(move == Move.FALL_BACK, activity == Activity.START_ACTION), True),
        Row("Any other move or activity: no restriction from this move", lambda **_: True, False, otherwise=True),
    ),
    gap=False,
)


@rule("09.06", "09.07")
def not_eligible_after_move(move: Any, activity: Any, otherwise_stated: Any = False) -> Any:
    """Whether making ``move`` leaves the unit not eligible for ``activity`` until the end of the turn
    (advance: charge, action; fall-back: shoot, charge, action), unless a rule states otherwise."""
    return And(NOT_ELIGIBLE_AFTER_MOVE(move=move, activity=activity), Not(otherwise_stated))


@rule("09.06", "09.07")
def restricted_this_turn(moves: Sequence[MoveType], activity: Activity, otherwise_stated: bool = False) -> bool:
    """Whether any move the unit made this turn keeps it from ``activity`` for the rest of the turn."""
    codes = {kind: code for code, kind in MOVE_TYPE.items()}
    return any(not_eligible_after_move(codes[m], activity, otherwise_stated) for m in moves if m in codes)


# 09.07 Fall-back modes and SELECTING MODES ------------------------------------------------


@rule("09.07")
def selectable_modes(applies: Sequence[Any], mandatory: Sequence[Any]) -> list[Any]:
    """SELECTING MODES: which modes the player may select, assessing them in the order presented.

    Modes are mutually exclusive; a mode whose conditions are met can be selected unless
    an earlier mode applies and is mandatory. An optional mode (ordered retreat) leaves the
    later ones open.
    """
    if len(applies) != len(mandatory):
        raise ValueError("each mode needs both its condition and whether it is mandatory")
    out = []
    blocked: Any = False
    for condition, must in zip(applies, mandatory):
        out.append(And(condition, Not(blocked)))
        blocked = Or(blocked, And(condition, must))
    return out


@rule("09.07")
def move_possible_with_modes(applies: Sequence[Any]) -> Any:
    """When a move needs a mode and the unit meets the conditions of none of them, it cannot make that move."""
    return Or(*applies)


FALL_BACK_MODE = DecisionTable(
    name="fall-back-mode",
    refs=("09.07",),
    inputs=(Var("battle_shocked", kind="bool"), Var("choose_ordered_retreat", kind="bool")),
    rows=(
        Row("Ordered Retreat: not battle-shocked, and the player selects it (it is not mandatory)",
            lambda battle_shocked, choose_ordered_retreat: And(Not(battle_shocked), choose_ordered_retreat),
            FallBackMode.ORDERED_RETREAT),
        Row("Desperate Escape: otherwise, this mode must be selected", lambda **_: True,
            FallBackMode.DESPERATE_ESCAPE, otherwise=True),
    ),
)


@rule("09.07")
def fall_back_mode(battle_shocked: Any, choose_ordered_retreat: Any) -> Any:
    """The fall-back mode: ordered retreat if the unit is not battle-shocked and the player wants it, else
    desperate escape."""
    return FALL_BACK_MODE(battle_shocked=battle_shocked, choose_ordered_retreat=choose_ordered_retreat)


@rule("09.07")
def fall_back_mode_selectable(mode: Any, battle_shocked: Any) -> Any:
    """Whether the player may select this fall-back mode: ordered retreat only when not battle-shocked;
    desperate escape always ('otherwise', and ordered retreat is optional)."""
    ordered, desperate = selectable_modes([Not(battle_shocked), True], [False, True])
    return Or(And(mode == FallBackMode.ORDERED_RETREAT, ordered), And(mode == FallBackMode.DESPERATE_ESCAPE, desperate))


@rule("09.07")
def fall_back_hazard_rolls(mode: Any, models: Any) -> Any:
    """Desperate escape: one hazard roll (06.03) for each model in the unit, before moving."""
    return If(mode == FallBackMode.DESPERATE_ESCAPE, models, 0)


@rule("09.07")
def fall_back_may_move_through_enemy_models(mode: Any) -> Any:
    """Desperate escape: each model can be moved through enemy models while falling back."""
    return mode == FallBackMode.DESPERATE_ESCAPE


@rule("09.07")
def fall_back_battle_shock_roll_required(mode: Any, battle_shocked: Any) -> Any:
    """Desperate escape: a unit that is not battle-shocked must then make a battle-shock roll (01.07)."""
    return And(mode == FallBackMode.DESPERATE_ESCAPE, Not(battle_shocked))


@rule("09.07", "23.02")
def may_move_through_model(ordinarily_allowed: Any, other_is_enemy: Any, desperate_escape: Any,
                           flying_over: Any, other_is_aircraft: Any) -> Any:
    """Whether a moving model may pass through another model: as 03.01 (and 17) allow, or through enemy models in a
    desperate escape, or through anything while taking to the skies (21.03), or through AIRCRAFT (23.02)."""
    return Or(flying_and_surging.may_move_through_model(ordinarily_allowed, flying_over),
              And(other_is_enemy, desperate_escape),
              aircraft.may_move_through_aircraft_model(other_is_aircraft))
