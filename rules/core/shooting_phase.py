"""Chapter 10, Shooting phase: the phase's steps, eligibility to shoot, the shooting types and what they change.

Each shooting type's ELIGIBLE IF is a predicate; ``eligible_shooting_types``
lists those a unit may select. The parts that change attacks (hit modifiers,
targets, re-rolls) feed the attack sequence.
"""

from __future__ import annotations

import enum
from typing import Any

from rules.core.attack_sequence import Hit, hit_roll
from rules.logic import And, DecisionTable, If, Not, Or, Row, Var
from rules.registry import rule


@rule("10.06")
def close_quarters_hit_modifier(monster_or_vehicle_model: Any, close_quarters_weapon: Any,
                                target_engaged_with_unit: Any) -> Any:
    """Close-quarters shooting: a MONSTER/VEHICLE model subtracts 1 from the hit roll unless it fires a
    [CLOSE-QUARTERS] weapon at a unit its unit is engaged with."""
    return If(And(monster_or_vehicle_model, Not(And(close_quarters_weapon, target_engaged_with_unit))), -1, 0)


@rule("10.06")
def close_quarters_target_allowed(monster_or_vehicle_model: Any, close_quarters_weapon: Any, blast_weapon: Any,
                                  target_engaged_with_unit: Any) -> Any:
    """Which weapons may target a unit the shooter is engaged with under close-quarters shooting.

    [BLAST] weapons never can; other models may only use [CLOSE-QUARTERS] weapons against engaged units.
    """
    return If(target_engaged_with_unit,
              And(Not(blast_weapon), Or(monster_or_vehicle_model, close_quarters_weapon)),
              monster_or_vehicle_model)


@rule("10.07")
def indirect_hit_roll(roll: Any, modifier: Any, skill: Any, stationary_and_target_spotted: Any) -> Any:
    """Indirect fire: an unmodified hit roll of 1-5 fails, or 1-3 if the unit remained stationary and a
    friendly unit can see the target; otherwise the normal hit roll applies."""
    fails_up_to = If(stationary_and_target_spotted, 3, 5)
    return If(roll <= fails_up_to, Hit.FAIL, hit_roll(roll, modifier, skill))


@rule("10.07")
def indirect_target_has_cover(indirect_fire_attack: Any) -> Any:
    """Each [INDIRECT FIRE] attack in indirect shooting gives the target the benefit of cover."""
    return indirect_fire_attack


@rule("10.07", "15.09")
def hit_rerolls_allowed(indirect_fire_attack: Any, snap_shooting: Any) -> Any:
    """Indirect fire and snap shooting both forbid re-rolling hit rolls."""
    return Not(Or(indirect_fire_attack, snap_shooting))


# -- The phase and its shooting types (10.01-10.07), over the game-state model ------------------

START_OF_SHOOTING_PHASE = "start of shooting phase"
SHOOT = "shoot"
END_OF_SHOOTING_PHASE = "end of shooting phase"

#: The Shooting phase's steps in the order the chapter lists them (10.01-10.03).
STEPS = (START_OF_SHOOTING_PHASE, SHOOT, END_OF_SHOOTING_PHASE)

FAQ_NO_RANGED_WEAPONS = "appendix/faq-is-a-unit-with-no-ranged-weapons-eligible-to-shoot-in-its"
FAQ_CLOSE_QUARTERS_BLAST = "appendix/faq-when-my-unit-shoots-using-close-quarters-shooting-can"
FAQ_ENGAGED_MONSTER_BLAST = "appendix/faq-when-my-unit-shoots-at-an-engaged-monster-vehicle-unit-can"


class ShootingType(enum.IntEnum):
    """The shooting types of 10.02's list, and snap shooting (15.09), one "presented elsewhere"."""

    NORMAL = 1
    ASSAULT = 2
    CLOSE_QUARTERS = 3
    INDIRECT = 4
    SNAP = 5


class Trigger(enum.IntEnum):
    """What triggers a rule resolved in the Shooting phase."""

    START_OF_PHASE = 1
    END_OF_PHASE = 2
    OTHER = 3


SHOOTING_PHASE_TRIGGERS = DecisionTable(
    name="shooting-phase-step-for-trigger",
    refs=("10.01", "10.02", "10.03"),
    inputs=(Var("trigger", Trigger.START_OF_PHASE, Trigger.OTHER),),
    rows=(
        Row("triggered at the start of the Shooting phase: 1. Start of Shooting phase",
            lambda trigger: trigger == Trigger.START_OF_PHASE, 1),
        Row("triggered at the end of the Shooting phase: 3. End of Shooting phase",
            lambda trigger: trigger == Trigger.END_OF_PHASE, 3),
        Row("anything else in the Shooting phase: 2. Shoot", lambda trigger: True, 2, otherwise=True),
    ),
)


@rule("10.01", "10.03")
def step_resolving(trigger: Any) -> Any:
    """The number (1-3) of the Shooting phase step in which a rule with this trigger is resolved."""
    return SHOOTING_PHASE_TRIGGERS(trigger=trigger)


@rule("10.01", "10.02", "10.03")
def next_shooting_step(step: str) -> str | None:
    """The Shooting phase step after ``step`` (None after the End of Shooting phase step)."""
    if step not in STEPS:
        raise ValueError(f"{step!r} is not a step of the Shooting phase")
    index = STEPS.index(step)
    return STEPS[index + 1] if index + 1 < len(STEPS) else None


@rule("10.02", "16.01", FAQ_NO_RANGED_WEAPONS)
def eligible_to_shoot(on_battlefield: Any, selected_to_shoot_this_phase: Any,
                      started_action_this_turn: Any = False, titanic: Any = False) -> Any:
    """Whether a unit is eligible to shoot: on the battlefield and not yet selected to shoot this phase, and
    not a non-TITANIC unit that started an action this turn (16.01).

    Having ranged weapons plays no part (the FAQ): a unit without any is still eligible to shoot.
    """
    return And(on_battlefield, Not(selected_to_shoot_this_phase), Not(And(started_action_this_turn, Not(titanic))))


@rule("10.04")
def normal_shooting_eligible(engaged: Any, advanced: Any) -> Any:
    """Normal shooting: the unit is unengaged and did not make an advance move this turn."""
    return And(Not(engaged), Not(advanced))


@rule("10.05")
def assault_shooting_eligible(engaged: Any, advanced: Any, has_assault_weapons: Any) -> Any:
    """Assault shooting: unengaged, made an advance move this turn, and has one or more [ASSAULT] weapons."""
    return And(Not(engaged), advanced, has_assault_weapons)


@rule("10.05")
def assault_shooting_weapon_allowed(assault_weapon: Any) -> Any:
    """While assault shooting, only [ASSAULT] weapons can be selected to make attacks with."""
    return assault_weapon


@rule("10.06")
def close_quarters_shooting_eligible(engaged: Any, advanced: Any, has_close_quarters_weapons: Any,
                                     monster_or_vehicle: Any) -> Any:
    """Close-quarters shooting: engaged, no advance move this turn, and [CLOSE-QUARTERS] weapons or a
    MONSTER/VEHICLE unit."""
    return And(engaged, Not(advanced), Or(has_close_quarters_weapons, monster_or_vehicle))


@rule("10.07")
def indirect_shooting_eligible(engaged: Any, advanced: Any, has_indirect_fire_weapons: Any) -> Any:
    """Indirect shooting: unengaged, no advance move this turn, and one or more [INDIRECT FIRE] weapons."""
    return And(Not(engaged), Not(advanced), has_indirect_fire_weapons)


@rule("10.07")
def indirect_shooting_target_allowed(indirect_fire_weapon: Any, target_visible: Any) -> Any:
    """In indirect shooting, [INDIRECT FIRE] weapons may target unseen units; the unit's other weapons still
    need a visible target (the INDIRECT FIRE note)."""
    return Or(indirect_fire_weapon, target_visible)


def _type_conditions(engaged: Any, advanced: Any, has_assault_weapons: Any, has_close_quarters_weapons: Any,
                     monster_or_vehicle: Any, has_indirect_fire_weapons: Any) -> dict[ShootingType, Any]:
    return {
        ShootingType.NORMAL: normal_shooting_eligible(engaged, advanced),
        ShootingType.ASSAULT: assault_shooting_eligible(engaged, advanced, has_assault_weapons),
        ShootingType.CLOSE_QUARTERS: close_quarters_shooting_eligible(engaged, advanced, has_close_quarters_weapons,
                                                                      monster_or_vehicle),
        ShootingType.INDIRECT: indirect_shooting_eligible(engaged, advanced, has_indirect_fire_weapons),
    }


@rule("10.02")
def eligible_shooting_types(engaged: bool, advanced: bool, has_assault_weapons: bool = False,
                            has_close_quarters_weapons: bool = False, monster_or_vehicle: bool = False,
                            has_indirect_fire_weapons: bool = False) -> tuple[ShootingType, ...]:
    """The shooting types of 10.02's list a unit is eligible to make, in the list's order.

    >>> eligible_shooting_types(engaged=False, advanced=False, has_indirect_fire_weapons=True)
    (<ShootingType.NORMAL: 1>, <ShootingType.INDIRECT: 4>)
    """
    conditions = _type_conditions(engaged, advanced, has_assault_weapons, has_close_quarters_weapons,
                                  monster_or_vehicle, has_indirect_fire_weapons)
    return tuple(kind for kind, eligible in conditions.items() if eligible)


@rule("10.02")
def has_eligible_shooting_type(engaged: Any, advanced: Any, has_assault_weapons: Any,
                               has_close_quarters_weapons: Any, monster_or_vehicle: Any,
                               has_indirect_fire_weapons: Any) -> Any:
    """Whether one or more of 10.02's shooting types can be selected for the unit (Select Shooting Type)."""
    return Or(*_type_conditions(engaged, advanced, has_assault_weapons, has_close_quarters_weapons,
                                monster_or_vehicle, has_indirect_fire_weapons).values())


@rule("10.02")
def may_select_to_shoot(eligible: Any, has_shooting_type: Any) -> Any:
    """Whether the active player may select a unit to shoot: it is eligible to shoot and has a shooting type
    it is eligible to make, so the Select Shooting Type step has a choice.

    Interpretation: select-to-shoot-needs-a-shooting-type.
    """
    return And(eligible, has_shooting_type)


@rule("10.04", "10.05", "10.06", "10.07", "15.09")
def eligible_to_start_action_after_shooting(shot_this_phase: Any) -> Any:
    """After resolving any shooting type, a unit is not eligible to start an action until the end of the phase."""
    return Not(shot_this_phase)


@rule(FAQ_CLOSE_QUARTERS_BLAST)
def close_quarters_blast_may_target_engaged_unit(monster_or_vehicle_model: Any,
                                                 close_quarters_weapon: Any = False) -> Any:
    """Whether a [BLAST] weapon may target an engaged unit in close-quarters shooting (the FAQ: no, not even
    for a MONSTER/VEHICLE model)."""
    return close_quarters_target_allowed(monster_or_vehicle_model, close_quarters_weapon, True, True)


@rule(FAQ_ENGAGED_MONSTER_BLAST)
def engaged_monster_vehicle_target_allowed(target_monster_or_vehicle: Any, own_shooting_phase: Any,
                                           blast_weapon: Any) -> Any:
    """Whether a ranged weapon may target an engaged enemy unit under 17.03: a MONSTER/VEHICLE unit in your
    Shooting phase, but never with a [BLAST] weapon (the FAQ).

    Interpretation: blast-never-targets-engaged-units.
    """
    from rules.core import monsters_and_vehicles  # imported here: chapter 17 may come to use chapter 10

    return And(monsters_and_vehicles.engaged_monster_vehicle_may_be_targeted(target_monster_or_vehicle,
                                                                            own_shooting_phase),
               Not(blast_weapon))
