"""Reserves (004's chapter 19): how many points may wait in reserve, how many units may arrive each round (the
printed table), double size games, when and how the three kinds of reserves arrive, and the deep strike mishap
table.
"""

from __future__ import annotations

from typing import Any

from rules.logic import And, DecisionTable, If, Min, Or, Row, Var
from rules.registry import ruleset_rule

rule = ruleset_rule("m41")

FIXED_ARRIVALS = 4  # "Starting from the 5th turn and onward the limit for both players remains fixed at 4 units"
FIXED_FROM_ROUND = 5
DOUBLE_SIZE_POINTS = 2500  # "When playing in games of 2500 points it is encouraged to use double"
DEEP_STRIKE_CONSOLIDATION = 3  # "the unit may consolidate 3""
MISHAP_EXTRA_SCATTER_DICE = 4  # "Roll 4 more d6, and add the value to the scatter"

#: The arrivals table of "Arriving from Reserves", its printed rows in order (then the sentence under it as the
#: last row): the most units a player may bring in from reserves in a game round.
ARRIVALS_TABLE = DecisionTable(
    name="m41-reserve-arrivals",
    refs=("reserves/arriving-from-reserves",),
    inputs=(Var("game_round", 1, 12), Var("player", 1, 2)),
    rows=(
        Row("1: Player 1 0, Player 2 1", lambda game_round, player: game_round == 1,
            lambda game_round, player: If(player == 1, 0, 1)),
        Row("2: Player 1 1, Player 2 2", lambda game_round, player: game_round == 2,
            lambda game_round, player: If(player == 1, 1, 2)),
        Row("3: Player 1 2, Player 2 3", lambda game_round, player: game_round == 3,
            lambda game_round, player: If(player == 1, 2, 3)),
        Row("4: Player 1 3, Player 2 4", lambda game_round, player: game_round == 4,
            lambda game_round, player: If(player == 1, 3, 4)),
        Row("Starting from the 5th turn and onward: 4 for both players",
            lambda game_round, player: game_round >= FIXED_FROM_ROUND, FIXED_ARRIVALS),
    ),
)


@rule("reserves/how-many-reserves", "reserves/using-reserves")
def reserve_points_allowed(reserve_points: Any, army_points: Any) -> Any:
    """Whether this many points may be held in reserve: up to half the army's points."""
    return 2 * reserve_points <= army_points


@rule("reserves/arriving-from-reserves")
def arrivals_by_the_sentence(game_round: Any, player: Any) -> Any:
    """The arrival cap as the sentence above the table states it: no more than the game round, the first player at
    -1 (a cap the code does not use; see the finding reserves-arrivals-table-against-sentence)."""
    return If(player == 1, game_round - 1, game_round)


@rule("reserves/arriving-from-reserves", "reserves/double-size-games")
def arrivals_allowed(game_round: Any, player: Any, double_size: Any = False) -> Any:
    """The most units a player (1 going first, 2 second) may bring in from reserves this game round, by the
    printed table; doubled in a double size game where the players agree to it.

    Interpretation: reserves-arrivals-by-the-table.
    """
    table = ARRIVALS_TABLE(game_round=game_round, player=player)
    return If(double_size, 2 * table, table)


@rule("reserves/double-size-games")
def double_size_game(game_points: Any) -> Any:
    """Whether a game is one where doubling the arrivals is encouraged: 2500 points or more.

    Interpretation: reserves-double-size-at-least-2500.
    """
    return game_points >= DOUBLE_SIZE_POINTS


@rule("reserves/when-to-bring-in-reserves")
def may_arrive_in_phase(phase: str) -> bool:
    """Whether units may come in from reserves in this phase of their own turn: only the movement phase."""
    return phase == "movement"


@rule("reserves/types-of-reserves", "reserves/standard-reserves", "reserves/deep-strike-reserves",
      "reserves/outflank-reserves")
def reserve_type_allowed(reserve_type: str, has_deep_strike: Any = False, has_outflank: Any = False) -> Any:
    """Whether a unit may be put in this kind of reserve: any unit in standard reserve, deep strike reserve only
    with the Deep Strike special rule, outflank reserve only with Outflank."""
    if reserve_type == "standard":
        return True
    if reserve_type == "deep strike":
        return has_deep_strike
    if reserve_type == "outflank":
        return has_outflank
    raise ValueError(f"{reserve_type!r} is not a type of reserves (standard, deep strike, outflank)")


@rule("reserves/standard-reserves", "reserves/outflank-reserves", "reserves/deep-strike-reserves")
def may_after_arriving(reserve_type: str, action: str) -> bool:
    """What a unit may do the turn it arrives: from standard or outflank reserve it may shoot, run and charge as
    normal; after a deep strike it may shoot or run but not move further or charge."""
    if reserve_type == "deep strike":
        return action in ("shoot", "run")
    return action in ("shoot", "run", "charge")


@rule("reserves/standard-reserves", "reserves/outflank-reserves", "reserves/deep-strike-reserves")
def counts_as_moving_on_arrival(reserve_type: str) -> bool:
    """Units arriving from reserve count as moving, whatever the kind of reserve."""
    return reserve_type in ("standard", "deep strike", "outflank")


@rule("reserves/standard-reserves", "reserves/outflank-reserves")
def arrives_on_edge(reserve_type: str, chosen_outflank_side: str = "left") -> str:
    """The board edge a unit comes on from: its controlling player's own edge from standard reserve, the
    non-player side written down before the first turn from outflank reserve."""
    if reserve_type == "standard":
        return "own"
    if chosen_outflank_side not in ("left", "right"):
        raise ValueError("an outflanking unit arrives on one of the two non-player sides (left or right)")
    return chosen_outflank_side


@rule("reserves/standard-reserves", "reserves/outflank-reserves")
def arrival_placement_allowed(wholly_on_board: Any, farthest_model_from_edge: Any, unit_move: Any) -> Any:
    """Whether an arriving unit is placed legally: wholly on the board and within its move of the edge."""
    return And(wholly_on_board, farthest_model_from_edge <= unit_move)


@rule("reserves/deep-strike-reserves", "reserves/deep-strike-and-terrain-boundaries")
def deep_strike_dangerous_terrain_test(lands_in_difficult_terrain: Any, moved_off_a_boundary: Any) -> Any:
    """Whether a deep striking unit takes a dangerous terrain test: it lands in forests, ruins or other difficult
    terrain, or its model had to be moved off a ledge or wall top."""
    return Or(lands_in_difficult_terrain, moved_off_a_boundary)


@rule("reserves/deep-strike-and-multilevel-terrain")
def deep_strike_level(method: str, chosen_level: str = "uppermost") -> str:
    """The level of multilevel terrain a deep striking unit lands on: orbital drops (drop pods, jump packs) the
    uppermost, burrowers the lowermost, teleporters any level they choose."""
    if method == "orbital":
        return "uppermost"
    if method == "subterranean":
        return "lowermost"
    if method == "teleport":
        return chosen_level
    raise ValueError(f"{method!r} is not a deep strike method (orbital, subterranean, teleport)")


#: "Deep Strike Mishap": its printed rows in order (1 casualties, 2-3 further scatter, 4-6 back into reserve).
MISHAP_TABLE = DecisionTable(
    name="m41-deep-strike-mishap",
    refs=("reserves/deep-strike-mishap",),
    inputs=(Var("roll", 1, 6),),
    rows=(
        Row("1 One model removed for each inch the scatter is changed", lambda roll: roll == 1, 1),
        Row("2-3 Roll 4 more d6 and add the value to the scatter", lambda roll: And(roll >= 2, roll <= 3), 2),
        Row("4-6 Placed back into deep strike reserves", lambda roll: And(roll >= 4, roll <= 6), 3),
    ),
)

MISHAPS = {1: "casualties", 2: "further scatter", 3: "back to reserves"}


@rule("reserves/deep-strike-mishap")
def mishap_rolled(roll: int) -> str:
    """What a deep strike mishap does, by the printed table."""
    return MISHAPS[MISHAP_TABLE(roll=roll)]


@rule("reserves/deep-strike-mishap")
def mishap_happens(cannot_be_placed: Any) -> Any:
    """Whether a deep strike mishaps: its model cannot be placed (terrain, off the table, or onto another unit)."""
    return cannot_be_placed


@rule("reserves/deep-strike-mishap")
def mishap_casualties(inches_changed: Any, models: Any) -> Any:
    """Models removed (no saves) on a mishap roll of 1: one for each inch the scatter must change to place the
    unit, never more than the unit has."""
    return Min(inches_changed, models)


@rule("reserves/deep-strike-mishap")
def mishap_extra_scatter(scatter: Any, extra_dice: tuple[Any, ...]) -> Any:
    """The scatter after a mishap roll of 2-3: four more d6 added to it."""
    if len(extra_dice) != MISHAP_EXTRA_SCATTER_DICE:
        raise ValueError(f"a mishap's further scatter rolls {MISHAP_EXTRA_SCATTER_DICE} d6, not {len(extra_dice)}")
    total = scatter
    for die in extra_dice:
        total = total + die
    return total


@rule("reserves/deep-strike-reserves")
def deep_strike_consolidation(arrived_by_deep_strike: Any) -> Any:
    """How far a unit may consolidate after completing a deep strike: 3", none otherwise."""
    return If(arrived_by_deep_strike, DEEP_STRIKE_CONSOLIDATION, 0)

