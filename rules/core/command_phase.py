"""Chapter 08 Command phase: its five steps, core CP, and the battle-shock step.

The steps run in the order of the chapter's list; ``COMMAND_PHASE_TRIGGERS``
says which step resolves a rule by what triggers it (08.04 is the step for
everything the other four do not claim). Battle-shock rolls use 01.07
(``rules.core.core_concepts``) and the appendix's half-strength terms
(``rules.core.appendix``).
"""

from __future__ import annotations

import enum
from dataclasses import replace
from typing import Any, Mapping

from rules.core import appendix, core_concepts
from rules.logic import And, DecisionTable, If, Or, Row, Var
from rules.registry import rule
from rules.state import GameState, Phase, UnitState

START_OF_COMMAND_PHASE = "start of command phase"
GAIN_CORE_CP = "gain core CP"
BATTLE_SHOCK = "battle-shock"
COMMAND_ABILITIES = "command abilities"
END_OF_COMMAND_PHASE = "end of command phase"

#: The Command phase's steps in the order the chapter lists them (08.01-08.05).
STEPS = (START_OF_COMMAND_PHASE, GAIN_CORE_CP, BATTLE_SHOCK, COMMAND_ABILITIES, END_OF_COMMAND_PHASE)

CORE_CP_PER_TURN = 1


class Trigger(enum.IntEnum):
    """What triggers a rule resolved in the Command phase."""

    START_OF_PHASE = 1
    GAINING_CORE_CP = 2
    BATTLE_SHOCK_ROLL = 3
    END_OF_PHASE = 4
    OTHER = 5  # anything else triggered in the Command phase


COMMAND_PHASE_TRIGGERS = DecisionTable(
    name="command-phase-step-for-trigger",
    refs=("08.01", "08.02", "08.03", "08.04", "08.05"),
    inputs=(Var("trigger", Trigger.START_OF_PHASE, Trigger.OTHER),),
    rows=(
        Row("triggered at the start of the Command phase: 1. Start of Command phase",
            lambda trigger: trigger == Trigger.START_OF_PHASE, 1),
        Row("triggered when gaining Core CP: 2. Gain Core CP", lambda trigger: trigger == Trigger.GAINING_CORE_CP, 2),
        Row("triggered by battle-shock rolls: 3. Battle-shock",
            lambda trigger: trigger == Trigger.BATTLE_SHOCK_ROLL, 3),
        Row("triggered at the end of the Command phase: 5. End of Command phase",
            lambda trigger: trigger == Trigger.END_OF_PHASE, 5),
        Row("any other rule triggered in the Command phase: 4. Command abilities", lambda trigger: True, 4,
            otherwise=True),
    ),
)


@rule("08.01", "08.04", "08.05")
def step_resolving(trigger: Any) -> Any:
    """The number (1-5) of the Command phase step in which a rule with this trigger is resolved.

    >>> step_resolving(Trigger.OTHER)  # e.g. an ability used "in your Command phase"
    4
    """
    return COMMAND_PHASE_TRIGGERS(trigger=trigger)


@rule("08.01", "08.02", "08.03", "08.04", "08.05")
def next_command_step(step: str) -> str | None:
    """The Command phase step after ``step`` (None after the End of Command phase step)."""
    if step not in STEPS:
        raise ValueError(f"{step!r} is not a step of the Command phase")
    index = STEPS.index(step)
    return STEPS[index + 1] if index + 1 < len(STEPS) else None


# 08.02 Gain Core CP -----------------------------------------------------------------


@rule("08.02")
def cp_after_gaining_core_cp(cp_1: Any, cp_2: Any) -> tuple[Any, Any]:
    """Both players gain 1CP, whoever's turn it is."""
    return cp_1 + CORE_CP_PER_TURN, cp_2 + CORE_CP_PER_TURN


def gain_core_cp(state: GameState) -> GameState:
    """The Gain Core CP step applied to a game state."""
    if (state.phase, state.step) != (Phase.COMMAND, GAIN_CORE_CP):
        raise ValueError(f"Core CP is gained in the Gain Core CP step, not in {state.step!r}")
    cp = cp_after_gaining_core_cp(*state.cp)
    return replace(state, cp=tuple(cp)).note(f"both players gain 1CP: {cp[0]}CP and {cp[1]}CP")


# 08.03 Battle-shock ------------------------------------------------------------------


@rule("08.03")
def must_take_battle_shock_roll(battle_shocked: Any, starting_strength: Any, models: Any, wounds: Any = 1,
                                w: Any = 1) -> Any:
    """Whether the active player must make a battle-shock roll for a unit: it is battle-shocked, or it is at or
    below half-strength (by the appendix's table)."""
    return Or(battle_shocked, appendix.at_or_below_half_strength(starting_strength, models, wounds, w))


@rule("08.03", "01.07")
def battle_shocked_after_step_roll(battle_shocked_at_start_of_step: Any, roll_succeeded: Any) -> Any:
    """After its battle-shock roll in this step: a success ends battle-shock, a failure brings it.

    Interpretation: battle-shock-success-does-not-clear (01.07 alone never clears it; this step does).
    """
    return If(And(battle_shocked_at_start_of_step, roll_succeeded), False,
              core_concepts.battle_shocked_after_roll(battle_shocked_at_start_of_step, roll_succeeded))


def unit_must_take_battle_shock_roll(unit: UnitState) -> bool:
    """``must_take_battle_shock_roll`` on a unit's recorded facts (a destroyed unit takes none)."""
    if unit.destroyed:
        return False
    return bool(must_take_battle_shock_roll(unit.battle_shocked, unit.starting_strength, unit.models,
                                            unit.wounds, unit.max_wounds))


@rule("08.03")
def units_taking_battle_shock_rolls(state: GameState) -> tuple[str, ...]:
    """The units of the active player's army that must make a battle-shock roll in this step, in army order."""
    active = core_concepts.active_player(True, state.turn_player, state.first_player, False, state.turn_player)
    return tuple(u.name for u in state.army(active) if unit_must_take_battle_shock_roll(u))


def battle_shock_step(state: GameState, succeeded: Mapping[str, bool]) -> GameState:
    """Resolve the Battle-shock step with the given roll results (unit name -> roll succeeded).

    Every unit that must roll needs a result, and only those may have one.
    """
    if (state.phase, state.step) != (Phase.COMMAND, BATTLE_SHOCK):
        raise ValueError(f"battle-shock rolls of 08.03 are made in the Battle-shock step, not in {state.step!r}")
    rolling = units_taking_battle_shock_rolls(state)
    if set(rolling) != set(succeeded):
        raise ValueError(f"the Battle-shock step needs a roll for exactly {sorted(rolling)}, "
                         f"not for {sorted(succeeded)}")
    for name in rolling:
        unit = state.unit(name)
        after = bool(battle_shocked_after_step_roll(unit.battle_shocked, succeeded[name]))
        state = state.with_unit(replace(unit, battle_shocked=after))
        state = state.note(f"{name} battle-shock roll {'succeeds' if succeeded[name] else 'fails'}: "
                           f"{'battle-shocked' if after else 'not battle-shocked'}")
    return state
