"""The sheet's turn sequence, Command phase (gain CP, battle-shock) and controlling objectives.

Each function decides one claim of the sheet as printed; ``rules.quickref.core_views`` holds the Core Rules'
answers to the same questions, and spec/quickref/annotations/concepts.yaml says which claim is compared with what.
"""

from __future__ import annotations

import enum
from typing import Any, Sequence

from rules.logic import And, If, Not, Or
from rules.registry import ruleset_rule

rule = ruleset_rule("quickref")


class Phase(enum.IntEnum):
    """The five phases, numbered as the sheet's TURN SEQUENCE line numbers them."""

    COMMAND = 1
    MOVEMENT = 2
    SHOOTING = 3
    CHARGE = 4
    FIGHT = 5


#: The TURN SEQUENCE line, in its printed order.
TURN_SEQUENCE = (Phase.COMMAND, Phase.MOVEMENT, Phase.SHOOTING, Phase.CHARGE, Phase.FIGHT)


@rule("turn-sequence")
def phase_number(phase: Any) -> Any:
    """The position of a phase in the turn: 1 Command, 2 Movement, 3 Shooting, 4 Charge, 5 Fight."""
    position: Any = 0
    for index, printed in enumerate(TURN_SEQUENCE, 1):
        position = If(phase == printed, index, position)
    return position


def phase_comes_before(phase: Any, other: Any) -> Any:
    """Whether ``phase`` is resolved before ``other`` in a turn (the comparison's question)."""
    return phase_number(phase) < phase_number(other)


# Command phase, step 1: Command -------------------------------------------------------------------

CP_PER_COMMAND_STEP = 1


@rule("command-phase/gain-cp")
def cp_after_command_step(cp_1: Any, cp_2: Any) -> tuple[Any, Any]:
    """Both players gain 1CP in the Command step, whoever's turn it is."""
    return cp_1 + CP_PER_COMMAND_STEP, cp_2 + CP_PER_COMMAND_STEP


class CommandPhaseStep(enum.IntEnum):
    """The sheet's numbered steps of the Command phase."""

    COMMAND = 1
    BATTLE_SHOCK = 2
    CONTROLLING_OBJECTIVES = 3


class CommandPhaseBusiness(enum.IntEnum):
    """What is done in the Command phase, as far as the order of its steps asks."""

    GAIN_CP = 1
    OTHER_RULES = 2  # "any other rules that are used in the Command phase"


@rule("command-phase/gain-cp", "command-phase/other-rules")
def command_phase_step(business: Any) -> Any:
    """The step in which the sheet resolves it: gaining CP and every other Command phase rule in step 1 (Command)."""
    return If(Or(business == CommandPhaseBusiness.GAIN_CP, business == CommandPhaseBusiness.OTHER_RULES),
              CommandPhaseStep.COMMAND, CommandPhaseStep.BATTLE_SHOCK)


def resolved_before_battle_shock(business: Any) -> Any:
    """Whether it is resolved before the Battle-shock tests are taken (the comparison's question)."""
    return command_phase_step(business) < CommandPhaseStep.BATTLE_SHOCK


# Command phase, step 2: Battle-shock ---------------------------------------------------------------


@rule("command-phase/battle-shock-step")
def below_half_strength(starting_strength: Any, models: Any, wounds: Any = 1, w: Any = 1) -> Any:
    """Below Half-strength: fewer than half its models, or for a single-model unit less than half its wounds.

    Interpretation: quickref-below-half-strength.
    """
    return If(starting_strength == 1, 2 * wounds < w, 2 * models < starting_strength)


@rule("command-phase/battle-shock-step")
def takes_battle_shock_test(battle_shocked: Any, starting_strength: Any, models: Any, wounds: Any = 1,
                            w: Any = 1) -> Any:
    """Whether a unit takes a Battle-shock test in the Battle-shock step: it is Below Half-strength.

    ``battle_shocked`` is asked so the Core Rules' question fits; the sheet's condition does not use it.
    """
    return below_half_strength(starting_strength, models, wounds, w)


SINGLE_MODEL_W = 10  # the single-model unit of the comparison


def takes_battle_shock_test_with(battle_shocked: Any, starting_strength: Any, left: Any) -> Any:
    """A unit of ``starting_strength`` models with ``left`` of them left, or (starting strength 1) a model of W 10
    with ``left`` wounds left; None where no unit can be so (more models left than it started with)."""
    if starting_strength == 1:
        return takes_battle_shock_test(battle_shocked, 1, 1, left, SINGLE_MODEL_W)
    if left > starting_strength:
        return None
    return takes_battle_shock_test(battle_shocked, starting_strength, left)


@rule("command-phase/battle-shock-test")
def battle_shock_test_passed(roll: Any, leadership: Any) -> Any:
    """A Battle-shock test is passed when the 2D6 roll equals or beats the unit's Ld."""
    return roll >= leadership


@rule("command-phase/battle-shocked")
def battle_shocked(failed_test: Any, start_of_your_next_command_phase_reached: Any) -> Any:
    """A failed test leaves the unit Battle-shocked until the start of its player's next Command phase."""
    return And(failed_test, Not(start_of_your_next_command_phase_reached))


def battle_shocked_after_next_battle_shock_step(below_half: Any, next_test_passed: Any) -> Any:
    """A unit that failed its test this Command phase: is it Battle-shocked after the next Battle-shock step?

    Its Battle-shock ends at the start of that Command phase; it is tested again only if Below Half-strength.
    """
    shocked_at_step = battle_shocked(True, True)
    tested = below_half
    return Or(shocked_at_step, And(tested, Not(next_test_passed)))


BATTLE_SHOCKED_OC = 0


@rule("command-phase/battle-shocked-oc")
def objective_control(oc: Any, battle_shocked_unit: Any) -> Any:
    """A Battle-shocked unit's models have an OC of 0; otherwise they keep their own."""
    return If(battle_shocked_unit, BATTLE_SHOCKED_OC, oc)


@rule("command-phase/battle-shocked-stratagems")
def own_stratagems_may_affect(battle_shocked_unit: Any) -> Any:
    """Its controlling player cannot use Stratagems to affect a Battle-shocked unit."""
    return Not(battle_shocked_unit)


@rule("command-phase/battle-shocked-fall-back")
def fall_back_needs_desperate_escape(battle_shocked_unit: Any) -> Any:
    """A Battle-shocked unit that Falls Back must take a Desperate Escape test."""
    return battle_shocked_unit


# Controlling objectives ---------------------------------------------------------------------------

OBJECTIVE_RANGE = (3, 5)  # within 3" horizontally and 5" vertically


@rule("objectives/range")
def within_range_of_objective_marker(horizontal: Any, vertical: Any) -> Any:
    """Within range of an objective marker: within 3" horizontally and 5" vertically (closest points, inches)."""
    return And(horizontal <= OBJECTIVE_RANGE[0], vertical <= OBJECTIVE_RANGE[1])


@rule("objectives/level-of-control")
def level_of_control(ocs_in_range: Sequence[Any]) -> Any:
    """A player's Level of Control: the OC characteristics of all their models within range, added together."""
    total: Any = 0
    for oc in ocs_in_range:
        total = total + oc
    return total


def level_of_control_of(oc_1: Any, oc_2: Any, oc_3: Any, in_range_1: Any, in_range_2: Any, in_range_3: Any) -> Any:
    """Three models with their OC and whether each is within range (the comparison's question)."""
    return level_of_control([If(in_range, oc, 0) for oc, in_range in
                             ((oc_1, in_range_1), (oc_2, in_range_2), (oc_3, in_range_3))])


CONTESTED = 0


@rule("objectives/control")
def controller(level_1: Any, level_2: Any) -> Any:
    """Who controls an objective marker: the player with the highest Level of Control; on a tie it is contested
    (0, nobody)."""
    return If(level_1 > level_2, 1, If(level_2 > level_1, 2, CONTESTED))
