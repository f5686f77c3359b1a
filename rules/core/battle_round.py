"""Chapter 07 The battle round: the order of the start of the round, player turns, and the end of the round.

The battle is a pure state machine over ``rules.state.GameState``: ``advance``
moves from one step to the next (``following_step``), resetting the per-phase
and per-turn facts of every unit as a new phase or turn begins. Each turn is
07.02's seven parts, the phases split into the steps their chapters list.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from rules.core import command_phase, core_concepts, shooting_phase
from rules.logic import If
from rules.registry import rule
from rules.state import GameState, Phase, UnitState

BEFORE_THE_BATTLE = ""  # GameState's default step: the battle has not begun
START_OF_BATTLE_ROUND = "start of battle round"
START_OF_TURN = "start of turn"
END_OF_TURN = "end of turn"
END_OF_BATTLE_ROUND = "end of battle round"
BATTLE_OVER = "battle over"

#: The steps of each part of a turn (07.02), from each chapter's list of steps.
PHASE_STEPS: dict[Phase, tuple[str, ...]] = {
    Phase.START_OF_TURN: (START_OF_TURN,),
    Phase.COMMAND: command_phase.STEPS,
    Phase.MOVEMENT: ("start of movement phase", "move units", "end of movement phase"),  # 09
    Phase.SHOOTING: shooting_phase.STEPS,
    Phase.CHARGE: ("start of charge phase", "charge", "end of charge phase"),  # 11
    Phase.FIGHT: ("start of fight phase", "pile in", "fight", "consolidate", "end of fight phase"),  # 12
    Phase.END_OF_TURN: (END_OF_TURN,),
}

#: A turn, step by step: the Start of Turn step, the five phases in order, the End of Turn step.
TURN = tuple((phase, step) for phase in sorted(PHASE_STEPS) for step in PHASE_STEPS[phase])

#: Steps that belong to no player's turn (01.03: the first player is then the active player).
OUTSIDE_TURNS = (BEFORE_THE_BATTLE, START_OF_BATTLE_ROUND, END_OF_BATTLE_ROUND, BATTLE_OVER)


@rule("07.02")
def turn_player(first_player: Any, second_turn: Any) -> Any:
    """Whose turn it is: the mission's first player takes the first turn of every battle round, their opponent
    the second."""
    return If(second_turn, 3 - first_player, first_player)


@rule("07.03")
def battle_ends(battle_round: Any, battle_rounds: Any) -> Any:
    """Whether the battle ends as this battle round ends: the mission's number of battle rounds is resolved."""
    return battle_round >= battle_rounds


@rule("07.02", "07.03", "08.05")
def end_step_order(mission_rule: Any) -> Any:
    """In the End of Turn step (and at the end of the battle round or Command phase): rules other than mission
    rules are resolved first (1), then both players' mission rules (2)."""
    return If(mission_rule, 2, 1)


@rule("07.01", "07.02", "07.03")
def following_step(battle_round: int, first_player: int, turn: int, phase: Phase, step: str,
                   battle_rounds: int) -> tuple[int, int, Phase, str]:
    """The step after this one, as (battle round, turn player, phase, step).

    Start of battle round (07.01) -> the first player's turn -> the opponent's turn (07.02, each the
    seven parts in order) -> end of battle round (07.03) -> the next round, or the end of the battle.
    """
    if step == BATTLE_OVER:
        raise ValueError("the battle is over: there is no next step")
    if step == BEFORE_THE_BATTLE:
        return 1, first_player, Phase.START_OF_TURN, START_OF_BATTLE_ROUND
    if step == START_OF_BATTLE_ROUND:
        # Rules triggered at the start of the battle round are resolved before the player turns.
        return battle_round, turn_player(first_player, False), *TURN[0]
    if step == END_OF_BATTLE_ROUND:
        if battle_ends(battle_round, battle_rounds):
            return battle_round, turn, Phase.END_OF_TURN, BATTLE_OVER
        return battle_round + 1, first_player, Phase.START_OF_TURN, START_OF_BATTLE_ROUND
    if (phase, step) not in TURN:
        raise ValueError(f"{step!r} is not a step of the {phase.name} part of a turn")
    index = TURN.index((phase, step))
    if index + 1 < len(TURN):
        return battle_round, turn, *TURN[index + 1]
    if turn == turn_player(first_player, False):
        # Once the first player's turn has ended, their opponent takes their turn.
        return battle_round, turn_player(first_player, True), *TURN[0]
    return battle_round, turn, Phase.END_OF_TURN, END_OF_BATTLE_ROUND


def in_turn(state: GameState) -> bool:
    """Whether it is some player's turn (not the start or end of a battle round, nor before or after the battle)."""
    return state.step not in OUTSIDE_TURNS


def active_player(state: GameState, selected: UnitState | None = None) -> Any:
    """01.03's active player at this point of the battle, optionally while ``selected`` is selected to act."""
    return core_concepts.active_player(in_turn(state), state.turn_player, state.first_player, selected is not None,
                                       selected.owner if selected is not None else state.turn_player)


# Per-phase and per-turn facts, reset as their period begins (UnitState's two groups of fields).
_PHASE_RESET = dict(phase_moves=(), selected_to_move=False, selected_to_shoot=False, selected_to_fight=False,
                    eligible_to_fight=False, stratagems_on_it=0)
_TURN_RESET = dict(moves=(), set_up_this_turn=False, started_action=False, made_ranged_attacks=False,
                   declared_charge=False)


@rule("07.02")
def facts_reset(new_phase: bool, new_turn: bool) -> dict[str, Any]:
    """Which unit facts end as the battle moves on: "this phase" facts when a new phase (or step outside the
    phases) begins, "this turn" facts too when a new turn begins."""
    return {**(_PHASE_RESET if new_phase or new_turn else {}), **(_TURN_RESET if new_turn else {})}


def begin_battle(first_player: int, units: tuple[UnitState, ...] = (), objectives: int = 0,
                 cp: tuple[int, int] = (0, 0)) -> GameState:
    """The state before the first battle round: no objective is controlled yet (14.02)."""
    if first_player not in core_concepts.PLAYERS:
        raise ValueError(f"the first player is player 1 or 2, not {first_player!r}")
    return GameState(battle_round=1, first_player=first_player, turn_player=first_player,
                     phase=Phase.START_OF_TURN, step=BEFORE_THE_BATTLE, cp=cp, units=units,
                     objectives=(None,) * objectives, secured=(None,) * objectives)


def advance(state: GameState, battle_rounds: int) -> GameState:
    """Move the battle on to its next step, ending this phase's and (at a new turn) this turn's facts."""
    battle_round, turn, phase, step = following_step(state.battle_round, state.first_player, state.turn_player,
                                                     state.phase, state.step, battle_rounds)
    new_turn = step == START_OF_TURN
    new_phase = phase != state.phase or step in OUTSIDE_TURNS or new_turn
    reset = facts_reset(new_phase, new_turn)
    units = tuple(replace(u, **reset) for u in state.units) if reset else state.units
    used_this_phase = frozenset() if new_phase else state.stratagems_used_this_phase
    moved = replace(state, battle_round=battle_round, turn_player=turn, phase=phase, step=step, units=units,
                    stratagems_used_this_phase=used_this_phase)
    where = f"round {battle_round}" + (f", player {turn}'s turn" if step not in OUTSIDE_TURNS else "")
    return moved.note(f"{where}: {step}")
