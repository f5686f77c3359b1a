"""Morale in Warhammer 999.m41 (004, lines 2374-2541): morale checks, shaken, pinned, falling back, rallying.

A unit's morale is one of four states (steady, shaken, pinned, falling back); ``state_after_check`` is the state
machine the failed and passed checks drive, and properties/test_m41_shooting.py walks it exhaustively.
"""

from __future__ import annotations

from enum import IntEnum
from fractions import Fraction
from typing import Any

from rules.logic import And, If, Not, Or
from rules.registry import ruleset_rule

rule = ruleset_rule("m41")

D6_FACES = range(1, 7)
INSANE_HEROISM = 2  # "A natural roll of double 1’s ... will automatically pass"
ALWAYS_FAILS = 12  # Leadership tests: "A natural roll of a 12 is always a failure"
SHAKEN_PENALTY = 1  # "-1 penalty to any leadership tests or morale checks" and to M, WS, BS, I
BELOW_HALF_PENALTY = 1  # "all moral check are made at a -1 penalty"
SCARE_RADIUS = 6  # "within 6” of a friendly unit which has fallen back"
PINNED_COVER_BONUS = 1  # "+1 cover save while pinned"
PINNED_INITIATIVE = 0  # "do so at initiative 0"
RALLY_CONSOLIDATION = 3  # "consolidating up to 3 inches"


class Morale(IntEnum):
    """A unit's morale state."""

    STEADY = 0
    SHAKEN = 1
    PINNED = 2
    FALLING_BACK = 3


@rule("morale/morale-check", "morale/insane-heroism", "morale/shaken")
def morale_check_passed(first_die: Any, second_die: Any, leadership: Any, penalty: Any = 0) -> Any:
    """Whether a morale check passes: 2D6 equal to or under the unit's highest Ld less the penalties; double 1s
    always pass (Insane Heroism), whatever the modifiers, and a 12 always fails (as every Leadership test)."""
    total = first_die + second_die
    return Or(total == INSANE_HEROISM, And(total != ALWAYS_FAILS, total <= leadership - penalty))


@rule("morale/morale-check", "morale/when-to-test", "morale/shaken")
def morale_penalty(below_half_strength: Any, shaken: Any) -> Any:
    """The penalty to a morale check: -1 below half strength, -1 while shaken (or pinned)."""
    return If(below_half_strength, BELOW_HALF_PENALTY, 0) + If(shaken, SHAKEN_PENALTY, 0)


@rule("morale/morale-check", "morale/insane-heroism")
def morale_check_chance(leadership: int, penalty: int = 0) -> Fraction:
    """The exact chance that a morale check passes."""
    passes = sum(1 for a in D6_FACES for b in D6_FACES if morale_check_passed(a, b, leadership, penalty))
    return Fraction(passes, len(D6_FACES) ** 2)


@rule("morale/when-to-test")
def below_half_strength(models: Any, starting_models: Any) -> Any:
    """A unit is below half strength with fewer models than half those it started the game with."""
    return 2 * models < starting_models


@rule("morale/when-to-test")
def shooting_casualties_test(models_lost_this_phase: Any, models_at_start_of_phase: Any) -> Any:
    """A unit losing 25% or more of its current models in the shooting phase must test."""
    return 4 * models_lost_this_phase >= models_at_start_of_phase


@rule("morale/when-to-test")
def near_a_fallen_back_friend_test(distance_to_friend_that_fell_back: Any) -> Any:
    """A unit within 6" of a friendly unit which has fallen back must test."""
    return distance_to_friend_that_fell_back <= SCARE_RADIUS


@rule("morale/units-in-combat")
def must_take_check(engaged_in_close_combat: Any, for_losing_combat: Any) -> Any:
    """A unit in close combat takes a morale check only for losing the combat; others take the checks they are
    called for."""
    return Or(Not(engaged_in_close_combat), for_losing_combat)


class When(IntEnum):
    """When a morale check is taken."""

    START_OF_OWN_TURN = 1
    END_OF_ASSAULT_PHASE = 2


@rule("morale/when-to-test", "morale/rallying", "morale/continuing-to-flee")
def when_check_is_taken(rallying: Any) -> Any:
    """When a morale check is taken: at the end of the assault phase, whatever called for it, except a rally test,
    taken at the start of the unit's own turn (revision 007: "Rallying test is now at the start of the players
    turn").

    Interpretation: morale-rally-at-start-of-turn.
    """
    return If(rallying, When.START_OF_OWN_TURN.value, When.END_OF_ASSAULT_PHASE.value)


@rule("morale/when-to-fall-back", "morale/shaken", "morale/pinned", "morale/when-to-test",
      "morale/fleeing-from-close-combat")
def falls_back_on_failing(state: Any, for_losing_combat: Any, rallying: Any) -> Any:
    """Whether failing a morale check makes the unit fall back: when it was fleeing from combat (a lost combat's
    check), already shaken or pinned, or attempting to rally."""
    return Or(for_losing_combat, state == Morale.SHAKEN, state == Morale.PINNED, rallying)


@rule("morale/morale-check", "morale/shaken", "morale/when-to-fall-back", "morale/when-to-test", "morale/rallying")
def state_after_check(state: Any, passed: Any, for_losing_combat: Any = False, rallying: Any = False) -> Any:
    """A unit's morale state after one check. A falling-back unit rallies to steady on passing its rally test and
    otherwise keeps falling back (other checks have no further effect on it). Any other unit is unchanged by a
    pass; a failure makes it fall back (see falls_back_on_failing) or, if steady, shaken."""
    fleeing = state == Morale.FALLING_BACK
    failed = If(falls_back_on_failing(state, for_losing_combat, False), Morale.FALLING_BACK.value,
                Morale.SHAKEN.value)
    return If(fleeing, If(And(rallying, passed), Morale.STEADY.value, Morale.FALLING_BACK.value),
              If(passed, state, failed))


@rule("morale/shaken")
def shaken_characteristic(value: Any, shaken_or_pinned: Any) -> Any:
    """Movement, WS, BS and Initiative (and Ld for tests) while shaken or pinned: one lower."""
    return If(shaken_or_pinned, value - SHAKEN_PENALTY, value)


@rule("morale/pinned")
def pinned_cover_save(cover_save: Any) -> Any:
    """A pinned unit's cover save is one better (+1 lowers the roll needed)."""
    return cover_save - PINNED_COVER_BONUS


@rule("morale/pinned", "morale/trapped")
def pinned_may_act(pinned: Any) -> Any:
    """A pinned unit cannot move, shoot, charge or otherwise act until the end of the following turn."""
    return Not(pinned)


@rule("morale/pinned")
def pinned_initiative(initiative: Any, pinned: Any) -> Any:
    """A pinned unit that is charged fights at initiative 0 (and makes no charge reactions)."""
    return If(pinned, PINNED_INITIATIVE, initiative)


@rule("morale/fall-back-moves")
def fall_back_distance(d6_roll: Any) -> Any:
    """Most units fall back D6 inches (revision 007: "Fleeing is now d6 from 3+d6")."""
    return d6_roll


@rule("morale/fall-back-moves")
def model_falls_off_table(distance_to_own_edge: Any, fall_back_move: Any) -> Any:
    """Falling off the table is per model: a model whose fall back move reaches its table edge is removed."""
    return fall_back_move >= distance_to_own_edge


@rule("morale/fall-back-moves")
def models_left_after_fall_back(models: list[tuple[int, int]]) -> int:
    """Models left after a fall back: each (distance to the edge, its own fall back move) is checked on its own."""
    return sum(1 for edge, move in models if not model_falls_off_table(edge, move))


@rule("morale/trapped")
def state_when_trapped(state: Any, no_avenue_of_retreat: Any) -> Any:
    """A fleeing unit with no avenue of retreat left is treated as pinned that turn (it keeps trying to rally, so it
    still counts as falling back)."""
    return If(And(state == Morale.FALLING_BACK, no_avenue_of_retreat), Morale.PINNED.value, state)


@rule("morale/falling-back-and-moving", "morale/falling-back-and-shooting", "morale/sweeping-advance")
def falling_back_may(action_moves_in_movement_phase: Any, falling_back: Any) -> Any:
    """A falling-back unit may not move in the movement phase, nor charge or make charge reactions."""
    return Not(And(falling_back, action_moves_in_movement_phase))


@rule("morale/falling-back-and-shooting")
def falling_back_shoots_snap(falling_back: Any) -> Any:
    """A falling-back unit fires snap shots only, and counts as having moved."""
    return falling_back


@rule("morale/sweeping-advance")
def survives_being_charged_while_falling_back(passed_regroup_test: Any) -> Any:
    """A unit charged while falling back must pass a regroup test and fight, or it is removed from play."""
    return passed_regroup_test


@rule("morale/continuing-to-flee")
def makes_fall_back_move_at_end_of_assault_phase(state: Any) -> Any:
    """Fleeing units of both players make fall back moves at the end of the assault phase, until they rally."""
    return state == Morale.FALLING_BACK


@rule("morale/rallying")
def rally_test_due(state: Any, start_of_own_turn: Any) -> Any:
    """Every fleeing unit tests to rally at the start of its own turn."""
    return And(state == Morale.FALLING_BACK, start_of_own_turn)


@rule("morale/rallying")
def rallied_move_allowance(rallied_this_turn: Any, normal_move: Any) -> Any:
    """A unit that rallied consolidates up to 3" and moves no more this turn (it may still run and charge)."""
    return If(rallied_this_turn, RALLY_CONSOLIDATION, normal_move)


@rule("morale/rallying")
def rallied_snap_fires(rallied_this_turn: Any) -> Any:
    """A unit that rallied this turn only snap-fires in its shooting phase."""
    return rallied_this_turn
