"""The game state the battle-round rules ask about: the round, turn, phase and step, CP, and per-unit facts.

Rule functions mostly take the individual facts they need (booleans and
numbers), so z3 can reason about them; the state machine of a battle round
(``rules.core.battle_round``) and the stateful tests work on these records.
Everything is a frozen dataclass: a rule returns a new state, never edits one.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field, replace
from typing import Iterable


class Phase(enum.IntEnum):
    """The parts of a turn in order (07.02): start of turn, five phases, end of turn, numbered 0 to 6."""

    START_OF_TURN = 0
    COMMAND = 1
    MOVEMENT = 2
    SHOOTING = 3
    CHARGE = 4
    FIGHT = 5
    END_OF_TURN = 6


class MoveType(enum.Enum):
    """Move types (03.01 'MOVE TYPES' and the sections that define them)."""

    REMAIN_STATIONARY = "remain stationary"  # 09.04
    NORMAL = "normal"  # 09.05
    ADVANCE = "advance"  # 09.06
    FALL_BACK = "fall-back"  # 09.07
    CHARGE = "charge"  # 11.04
    PILE_IN = "pile-in"  # 12.03
    CONSOLIDATION = "consolidation"  # 12.08
    DISEMBARK = "disembark"  # 18.04
    EMERGENCY_DISEMBARK = "emergency disembark"  # 18.05
    INGRESS = "ingress"  # 20.04
    SURGE = "surge"  # 21.02
    SCOUT = "scout"  # 24.32


@dataclass(frozen=True)
class UnitState:
    """What the rules ask about one unit at a moment of the battle.

    ``moves`` lists the move types the unit made this turn, in order;
    ``phase_moves`` those made this phase. Facts about a whole turn are reset
    at the start of each turn, facts about a phase at the start of each phase. A fact left out takes its
    plainest value: one model of one wound and OC 1 at starting strength, 0 points, on the battlefield,
    nothing done.
    """

    name: str
    owner: int
    keywords: frozenset[str] = frozenset()
    models: int = 1
    starting_strength: int = 1
    wounds: int = 1  # remaining wounds of a single-model unit (for half-strength)
    max_wounds: int = 1  # W of a single-model unit
    oc: int = 1  # OC of each model (before battle-shock)
    points: int = 0
    on_battlefield: bool = True
    in_reserves: bool = False
    repositioned: bool = False
    embarked_in: str | None = None
    engaged: bool = False
    battle_shocked: bool = False
    fights_first: bool = False
    # this turn
    moves: tuple[MoveType, ...] = ()
    set_up_this_turn: bool = False
    started_action: bool = False
    made_ranged_attacks: bool = False
    declared_charge: bool = False
    # this phase
    phase_moves: tuple[MoveType, ...] = ()
    selected_to_move: bool = False
    selected_to_shoot: bool = False
    selected_to_fight: bool = False
    eligible_to_fight: bool = False
    stratagems_on_it: int = 0

    @property
    def advanced(self) -> bool:
        return MoveType.ADVANCE in self.moves

    @property
    def fell_back(self) -> bool:
        return MoveType.FALL_BACK in self.moves

    @property
    def charged(self) -> bool:
        return MoveType.CHARGE in self.moves

    @property
    def remained_stationary(self) -> bool:
        return MoveType.REMAIN_STATIONARY in self.moves

    @property
    def destroyed(self) -> bool:
        return self.models == 0

    def has(self, keyword: str) -> bool:
        """Keyword test with the 02.05 singular/plural rule and "/" meaning any of."""
        from rules.core.datasheets import has_keyword

        return bool(has_keyword(tuple(self.keywords), keyword))


@dataclass(frozen=True)
class GameState:
    """The battle at one moment: round, whose turn, phase and step, CP, units and stratagems used.

    Left out, it is the start of a turn in battle round 1, player 1 going first and taking the turn, no CP.
    """

    battle_round: int = 1
    first_player: int = 1
    turn_player: int = 1
    phase: Phase = Phase.START_OF_TURN
    step: str = ""
    cp: tuple[int, int] = (0, 0)
    units: tuple[UnitState, ...] = ()
    stratagems_used_this_phase: frozenset[tuple[int, str]] = frozenset()
    stratagems_used_this_battle: frozenset[tuple[int, str]] = frozenset()
    objectives: tuple[int | None, ...] = ()  # controlling player of each objective, or None
    secured: tuple[int | None, ...] = ()  # player whose army secured each objective, or None
    log: tuple[str, ...] = field(default=(), compare=False)

    def unit(self, name: str) -> UnitState:
        for unit in self.units:
            if unit.name == name:
                return unit
        raise KeyError(name)

    def with_unit(self, unit: UnitState) -> "GameState":
        return replace(self, units=tuple(unit if u.name == unit.name else u for u in self.units))

    def army(self, player: int) -> Iterable[UnitState]:
        return (u for u in self.units if u.owner == player and not u.destroyed)

    def cp_of(self, player: int) -> int:
        return self.cp[player - 1]

    def with_cp(self, player: int, value: int) -> "GameState":
        cp = list(self.cp)
        cp[player - 1] = value
        return replace(self, cp=tuple(cp))

    def note(self, line: str) -> "GameState":
        """Append a line to the game log (what a shrunk stateful failure prints)."""
        return replace(self, log=self.log + (line,))
