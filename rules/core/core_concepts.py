"""Chapter 01, Core concepts: armies, friend and foe, the active player, measuring, dice, leadership.

Dice notation itself (01.05) lives in ``rules.dice``, which every chapter uses.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Sequence


from rules import dice
from rules.logic import And, DecisionTable, If, Not, Or, Row, Var, is_symbolic
from rules.model import PLACEHOLDER, Placed
from rules.registry import rule

# Players are numbered 1 and 2; the opponent of p is 3 - p.
PLAYERS = (1, 2)


# 01.01 Armies ---------------------------------------------------------------


@rule("01.01")
def controls(player: Any, army: Any) -> Any:
    """A player controls exactly the models of their own army.

    >>> controls(1, army=1), controls(1, army=2)
    (True, False)
    """
    return player == army


# 01.02 Units and models -----------------------------------------------------

ANY, FRIENDLY, ENEMY = 0, 1, 2

RULE_SCOPE = DecisionTable(
    name="rule-scope",
    refs=("01.02",),
    inputs=(Var("scope", ANY, ENEMY), Var("army", 1, 2), Var("player", 1, 2)),
    rows=(
        Row("rule affects friendly units", lambda scope, army, player: scope == FRIENDLY,
            lambda scope, army, player: army == player),
        Row("rule affects enemy units", lambda scope, army, player: scope == ENEMY,
            lambda scope, army, player: army != player),
        Row("rule does not say friendly or enemy", lambda scope, army, player: scope == ANY, True),
    ),
    gap=False,
)


@rule("01.02")
def rule_affects(scope: Any, army: Any, player: Any) -> Any:
    """Whether a rule of ``player`` with a friendly/enemy/unspecified scope affects a unit of ``army``.

    A rule that names neither friendly nor enemy units affects any unit.
    """
    return RULE_SCOPE(scope=scope, army=army, player=player)


@rule("01.02")
def models_affected(unit_models: Sequence[Any]) -> list[Any]:
    """An effect that applies to a unit applies to every model in it."""
    return list(unit_models)


# 01.03 Active player and opposing player -------------------------------------

ACTIVE_PLAYER = DecisionTable(
    name="active-player",
    refs=("01.03",),
    inputs=(
        Var("in_turn", kind="bool"),
        Var("turn_player", 1, 2),
        Var("first_player", 1, 2),
        Var("unit_selected", kind="bool"),
        Var("selected_unit_controller", 1, 2),
    ),
    # A unit is only selected to move, shoot or fight during a turn.
    assume=lambda in_turn, turn_player, first_player, unit_selected, selected_unit_controller:
        Or(Not(unit_selected), in_turn),
    rows=(
        Row("neither player's turn: the player who takes the first turn",
            lambda in_turn, **_: Not(in_turn), lambda first_player, **_: first_player),
        Row("a unit is selected to move, shoot or fight: its controlling player",
            lambda unit_selected, **_: unit_selected, lambda selected_unit_controller, **_: selected_unit_controller,
            overrides=("a player's turn: that player",)),
        Row("a player's turn: that player", lambda in_turn, **_: in_turn, lambda turn_player, **_: turn_player),
    ),
)


@rule("01.03")
def active_player(in_turn: Any, turn_player: Any, first_player: Any, unit_selected: Any,
                  selected_unit_controller: Any) -> Any:
    """Which player is the active player at this moment."""
    return ACTIVE_PLAYER(in_turn=in_turn, turn_player=turn_player, first_player=first_player,
                         unit_selected=unit_selected, selected_unit_controller=selected_unit_controller)


@rule("01.03")
def opposing_player(active: Any) -> Any:
    """Both players are always one or the other: the opposing player is the active player's opponent."""
    return 3 - active


# 01.04 Measuring distances ---------------------------------------------------


def exact_beside(value: Fraction, *beside: Any) -> Any:
    """A Fraction constant in the form z3 needs when it meets symbolic coordinates."""
    if is_symbolic(*beside):
        import z3  # only a symbolic caller needs it: calc starts without z3

        return z3.Q(value.numerator, value.denominator)
    return value


@rule("01.04")
def within_horizontally(a: Placed, b: Placed, inches: Any) -> Any:
    """Whether the closest points of two bases are at most ``inches`` apart on the battlefield plane.

    Interpretation: geometry-round-bases, within-inclusive. Compares squared
    lengths, so it is exact for Fractions and linear-real for z3.
    """
    dx, dy = a.x - b.x, a.y - b.y
    reach = inches + exact_beside(a.radius + b.radius, dx, dy, inches)
    return And(reach >= 0, dx * dx + dy * dy <= reach * reach)


@rule("01.04")
def within_vertically(a: Placed, b: Placed, inches: Any) -> Any:
    """Whether two bases are at most ``inches`` apart in height."""
    return And(a.z - b.z <= inches, b.z - a.z <= inches)


@rule("01.04")
def within(a: Placed, b: Placed, horizontal: Any, vertical: Any) -> Any:
    """Within ``horizontal`` inches horizontally and ``vertical`` inches vertically (closest points)."""
    return And(within_horizontally(a, b, horizontal), within_vertically(a, b, vertical))


# 01.06 Leadership rolls ------------------------------------------------------


@rule("01.06")
def leadership_roll_succeeds(result: Any, leaderships: Sequence[Any]) -> Any:
    """A 2D6 leadership roll succeeds if it equals or beats at least one Ld in the unit."""
    return Or(*(result >= ld for ld in leaderships))


@rule("01.06")
def leadership_roll_chance(leaderships: Sequence[int]) -> Fraction:
    """The exact chance that a leadership roll succeeds for a unit with these Ld values."""
    return dice.probability(dice.distribution("2D6"), lambda total: leadership_roll_succeeds(total, leaderships))


# 01.07 Battle-shock rolls ----------------------------------------------------


@rule("01.07")
def battle_shocked_after_roll(was_battle_shocked: Any, roll_succeeded: Any) -> Any:
    """A failed battle-shock roll makes the unit battle-shocked; a success leaves it as it was.

    Interpretation: battle-shock-success-does-not-clear (only 08.03 clears it).
    """
    return Or(was_battle_shocked, Not(roll_succeeded))


@rule("01.07")
def objective_control(oc: Any, battle_shocked: Any) -> Any:
    """A battle-shocked model's OC is the placeholder '-1'; otherwise it keeps its own."""
    return If(battle_shocked, PLACEHOLDER, oc)


@rule("01.07")
def may_target_with_own_stratagems(battle_shocked: Any) -> Any:
    """Its controlling player cannot target a battle-shocked unit with stratagems."""
    return Not(battle_shocked)


@rule("01.07")
def may_start_action(battle_shocked: Any) -> Any:
    """A battle-shocked unit is not eligible to start an action (other reasons live in 16.01)."""
    return Not(battle_shocked)


@rule("01.07")
def may_complete_action(battle_shocked: Any) -> Any:
    """An action a battle-shocked unit has started cannot be completed."""
    return Not(battle_shocked)
