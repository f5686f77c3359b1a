"""999.m41's The Turn (chapter 6) and General Principles' Turn Overview: the order of the player turns in a game
round, the three phases, who moves, shoots and charges in each, the first turn's roll and the end of the game.

The phase enum is principles.Phase; the game length's dice are the Organizing a Battle chapter's (another area).
"""

from __future__ import annotations

from typing import Any

from rules.logic import And, If, Not, Or
from rules.m41.principles import Phase
from rules.registry import ruleset_rule

rule = ruleset_rule("m41")

PHASE_ORDER = (Phase.MOVEMENT, Phase.SHOOTING, Phase.ASSAULT)
FIRST_PLAYER, SECOND_PLAYER = 1, 2


@rule("turn/the-three-phases", "principles/turn-overview")
def phases_of_a_player_turn() -> tuple[Phase, ...]:
    """A player turn's three phases, in order: movement, shooting, assault."""
    return PHASE_ORDER


@rule("turn/a-game-round", "principles/game-turns-and-player-turns")
def attacking_player(player_turn_of_the_round: Any) -> Any:
    """Whose turn it is in a game round: the first player's turn, then the second player's."""
    return If(player_turn_of_the_round == 1, FIRST_PLAYER, SECOND_PLAYER)


@rule("turn/attacking-and-defending-players")
def is_attacking_player(player: Any, player_whose_turn_it_is: Any) -> Any:
    """The attacking player is the player whose turn it is; the defending player is the other."""
    return player == player_whose_turn_it_is


@rule("turn/movement-phase", "turn/a-game-round", "principles/turn-overview")
def may_move(attacking: Any) -> Any:
    """Only the player whose turn it is moves models in the movement phase."""
    return attacking


@rule("turn/shooting-phase", "turn/a-game-round", "principles/turn-overview")
def may_shoot(attacking: Any, overwatching: Any = False) -> Any:
    """Who shoots in the shooting phase: the attacking player with all his units, the defending player only with
    his overwatching units."""
    return Or(attacking, overwatching)


@rule("turn/shooting-phase")
def shoots_first(attacking: Any) -> Any:
    """The defending player's overwatching units shoot first, then the attacking player's units."""
    return Not(attacking)


@rule("turn/assault-phase", "turn/a-game-round", "principles/turn-overview")
def may_charge(attacking: Any) -> Any:
    """Only the attacking player may make charges in the assault phase."""
    return attacking


@rule("turn/assault-phase", "turn/a-game-round", "principles/turn-overview")
def may_fight(attacking: Any, in_combat: Any = True) -> Any:
    """Both players fight in the assault phase with their units in combat: being the attacking player does not
    matter (the argument is accepted and deliberately unused)."""
    return in_combat


@rule("turn/who-gets-the-first-turn")
def chooses_first_or_second(first_roll: Any, second_roll: Any) -> Any:
    """Who chooses to go first or second: the winner of both players' d6 (1 or 2), or 0 for a tie, which the text
    does not settle (interpretation turn-first-turn-tie)."""
    return If(first_roll > second_roll, 1, If(second_roll > first_roll, 2, 0))


MINIMUM_GAME_ROUNDS = 6


@rule("turn/the-end-of-the-game")
def may_end_by_turn_limit(game_rounds_completed: Any) -> Any:
    """Whether the turn limit may have ended the game: not before 6 game rounds are complete (the 'games are 6
    turns minimum' read as game rounds; interpretation turn-six-turns-are-game-rounds)."""
    return game_rounds_completed >= MINIMUM_GAME_ROUNDS


@rule("turn/the-end-of-the-game")
def game_over(game_rounds_completed: Any, turn_limit_reached: Any = False, an_army_eliminated: Any = False,
              victory_condition_met: Any = False) -> Any:
    """The game ends when the turn limit is reached (never before 6 rounds), when all of a player's models are
    eliminated, or when the scenario's victory condition is met."""
    return Or(And(may_end_by_turn_limit(game_rounds_completed), turn_limit_reached), an_army_eliminated,
              victory_condition_met)
