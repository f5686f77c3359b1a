"""Actions and psychic actions, as the earlier edition's Basic Rules state them.

``START_ACTION`` lists, in the text's order, what stops a unit from starting an action; ``action_failed`` is the
list of things that fail a started action. A battle round's limits (one action per unit, the same action not
started by two units of an army) are kept by ``ActionRound``. Psychic actions have their own table
(``PSYCHIC_ACTION``): a PSYKER attempts one instead of manifesting powers, passes a Psychic test, may suffer
Perils of the Warp and may be denied by an enemy PSYKER within 24".
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

from rules.logic import And, DecisionTable, Not, Or, Row, Var
from rules.registry import ruleset_rule

rule = ruleset_rule("ninth")

DENY_RANGE = 24  # inches
D6_FACES = range(1, 7)


START_ACTION = DecisionTable(
    name="ninth-start-action",
    refs=("performing-actions",),
    inputs=(Var("enemy_units_within_engagement_range", 0, 3), Var("enemy_aircraft_within_engagement_range", 0, 3),
            Var("advanced", kind="bool"), Var("fell_back", kind="bool"),
            Var("aircraft_or_fortification", kind="bool"), Var("attempted_action_this_battle_round", kind="bool"),
            Var("same_action_started_by_another_unit", kind="bool"), Var("action_conditions_met", kind="bool")),
    # The AIRCRAFT among the enemy units within Engagement Range are some of those units.
    assume=lambda enemy_units_within_engagement_range, enemy_aircraft_within_engagement_range, **_:
        enemy_aircraft_within_engagement_range <= enemy_units_within_engagement_range,
    rows=(
        Row("an enemy unit other than an AIRCRAFT is within Engagement Range of it",
            lambda enemy_units_within_engagement_range, enemy_aircraft_within_engagement_range, **_:
                enemy_units_within_engagement_range > enemy_aircraft_within_engagement_range, False),
        Row("it Advanced this turn", lambda advanced, **_: advanced, False),
        Row("it Fell Back this turn", lambda fell_back, **_: fell_back, False),
        Row("it is an AIRCRAFT unit or has the Fortifications Battlefield Role",
            lambda aircraft_or_fortification, **_: aircraft_or_fortification, False),
        Row("it has already attempted an action this battle round",
            lambda attempted_action_this_battle_round, **_: attempted_action_this_battle_round, False),
        Row("another unit from its army started the same action this battle round",
            lambda same_action_started_by_another_unit, **_: same_action_started_by_another_unit, False),
        Row("the action's own conditions (when, where) are not met",
            lambda action_conditions_met, **_: Not(action_conditions_met), False),
        Row("none of these: it can start the action", lambda **_: True, True, otherwise=True),
    ),
    gap=False,
)


@rule("performing-actions")
def may_start_action(enemy_units_within_engagement_range: Any, enemy_aircraft_within_engagement_range: Any = 0,
                     advanced: Any = False, fell_back: Any = False, aircraft_or_fortification: Any = False,
                     attempted_action_this_battle_round: Any = False, same_action_started_by_another_unit: Any = False,
                     action_conditions_met: Any = True) -> Any:
    """Whether a unit can be declared to start an action: no enemy unit but AIRCRAFT within its Engagement Range,
    it did not Advance or Fall Back this turn, it is no AIRCRAFT or Fortification, it has not attempted an action
    this battle round, no other unit of its army started the same action this battle round, and the action's own
    conditions hold.

    Interpretation: prose-over-summary-bullets.
    """
    return START_ACTION(enemy_units_within_engagement_range=enemy_units_within_engagement_range,
                        enemy_aircraft_within_engagement_range=enemy_aircraft_within_engagement_range,
                        advanced=advanced, fell_back=fell_back, aircraft_or_fortification=aircraft_or_fortification,
                        attempted_action_this_battle_round=attempted_action_this_battle_round,
                        same_action_started_by_another_unit=same_action_started_by_another_unit,
                        action_conditions_met=action_conditions_met)


@rule("performing-actions")
def action_failed(destroyed: Any = False, normal_move: Any = False, advanced: Any = False, fell_back: Any = False,
                  attempted_to_manifest_psychic_power: Any = False, declared_charge: Any = False,
                  heroic_intervention: Any = False, ranged_attacks: Any = False) -> Any:
    """Whether a started action fails: between starting and completing it the unit was destroyed, made a Normal
    Move, Advanced, Fell Back, attempted to manifest a psychic power (successfully or not), declared a charge,
    performed a Heroic Intervention or made any attacks with ranged weapons.

    Interpretation: prose-over-summary-bullets.
    """
    return Or(destroyed, normal_move, advanced, fell_back, attempted_to_manifest_psychic_power, declared_charge,
              heroic_intervention, ranged_attacks)


@rule("performing-actions")
def action_completed(completion_reached: Any, failed: Any) -> Any:
    """Whether an action is successfully completed: the moment the action names for completion has come and the
    action did not fail before it."""
    return And(completion_reached, Not(failed))


@rule("performing-actions")
def aura_abilities_in_effect(character: Any, performing_action: Any) -> Any:
    """Whether a unit's aura abilities take effect: a CHARACTER unit's do not while it is performing an action
    (a failed action is no longer being performed, so they return at once)."""
    return Not(And(character, performing_action))


@dataclass(frozen=True)
class ActionRound:
    """One army's actions in one battle round: the units that attempted an action, and who started which action."""

    battle_round: int
    attempted: frozenset[str] = frozenset()
    started: dict[str, str] = field(default_factory=dict)  # action -> the unit that started it


@rule("performing-actions")
def start_action(record: ActionRound, unit: str, action: str, *, enemy_units_within_engagement_range: int = 0,
                 enemy_aircraft_within_engagement_range: int = 0, advanced: bool = False, fell_back: bool = False,
                 aircraft_or_fortification: bool = False, action_conditions_met: bool = True) -> ActionRound:
    """Declare that ``unit`` starts ``action`` in this battle round (ValueError, record unchanged, if it cannot)."""
    allowed = may_start_action(
        enemy_units_within_engagement_range, enemy_aircraft_within_engagement_range, advanced, fell_back,
        aircraft_or_fortification, attempted_action_this_battle_round=unit in record.attempted,
        same_action_started_by_another_unit=action in record.started, action_conditions_met=action_conditions_met)
    if not allowed:
        row = START_ACTION.match(
            enemy_units_within_engagement_range=enemy_units_within_engagement_range,
            enemy_aircraft_within_engagement_range=enemy_aircraft_within_engagement_range, advanced=advanced,
            fell_back=fell_back, aircraft_or_fortification=aircraft_or_fortification,
            attempted_action_this_battle_round=unit in record.attempted,
            same_action_started_by_another_unit=action in record.started,
            action_conditions_met=action_conditions_met)
        raise ValueError(f"{unit} cannot start {action!r} in battle round {record.battle_round}: {row.label}")
    return replace(record, attempted=record.attempted | {unit}, started={**record.started, action: unit})


# Psychic actions -----------------------------------------------------------------------------------------


PSYCHIC_ACTION = DecisionTable(
    name="ninth-attempt-psychic-action",
    refs=("performing-psychic-actions",),
    inputs=(Var("psyker", kind="bool"), Var("own_psychic_phase", kind="bool"),
            Var("attempted_to_manifest_this_phase", kind="bool"), Var("fell_back", kind="bool"),
            Var("attempting_another_action", kind="bool"), Var("psychic_action_this_battle_round", kind="bool")),
    rows=(
        Row("it is not a PSYKER unit", lambda psyker, **_: Not(psyker), False),
        Row("it is not its army's Psychic phase", lambda own_psychic_phase, **_: Not(own_psychic_phase), False),
        Row("it attempted to manifest psychic powers this phase (a psychic action is instead of them)",
            lambda attempted_to_manifest_this_phase, **_: attempted_to_manifest_this_phase, False),
        Row("it has Fallen Back this turn", lambda fell_back, **_: fell_back, False),
        Row("it is also attempting to perform another action",
            lambda attempting_another_action, **_: attempting_another_action, False),
        Row("it attempted a psychic action this battle round",
            lambda psychic_action_this_battle_round, **_: psychic_action_this_battle_round, False),
        Row("none of these: it can attempt the psychic action", lambda **_: True, True, otherwise=True),
    ),
    gap=False,
)


@rule("performing-psychic-actions")
def may_attempt_psychic_action(psyker: Any, own_psychic_phase: Any, attempted_to_manifest_this_phase: Any = False,
                               fell_back: Any = False, attempting_another_action: Any = False,
                               psychic_action_this_battle_round: Any = False) -> Any:
    """Whether a unit can attempt a psychic action: a PSYKER, in its Psychic phase, instead of manifesting powers,
    not after Falling Back this turn, not while attempting another action, and once per battle round."""
    return PSYCHIC_ACTION(psyker=psyker, own_psychic_phase=own_psychic_phase,
                          attempted_to_manifest_this_phase=attempted_to_manifest_this_phase, fell_back=fell_back,
                          attempting_another_action=attempting_another_action,
                          psychic_action_this_battle_round=psychic_action_this_battle_round)


@rule("performing-psychic-actions")
def may_manifest_powers_after(attempted_psychic_action_this_phase: Any) -> Any:
    """Whether a PSYKER may still attempt to manifest psychic powers this phase: not once it has attempted a
    psychic action instead."""
    return Not(attempted_psychic_action_this_phase)


@rule("performing-psychic-actions")
def perils_of_the_warp(first_die: Any, second_die: Any) -> Any:
    """Whether the Psychic test for a psychic action brings Perils of the Warp: a double 1 or a double 6."""
    return Or(And(first_die == 1, second_die == 1), And(first_die == 6, second_die == 6))


@rule("performing-psychic-actions")
def perils_chance() -> Fraction:
    """The chance that a psychic action's Psychic test brings Perils of the Warp (2 of the 36 outcomes of 2D6)."""
    hits = sum(1 for a in D6_FACES for b in D6_FACES if perils_of_the_warp(a, b))
    return Fraction(hits, len(D6_FACES) ** 2)


@rule("performing-psychic-actions")
def may_attempt_deny(psyker: Any, distance_inches: Any) -> Any:
    """Whether an enemy unit may attempt to deny a psychic action: a PSYKER unit within 24" of the PSYKER attempting
    it (exactly 24" is within).

    Interpretation: within-inclusive.
    """
    return And(psyker, distance_inches <= DENY_RANGE)


@rule("performing-psychic-actions")
def psychic_action_succeeds(psychic_test_passed: Any, destroyed_by_perils: Any = False, denied: Any = False) -> Any:
    """Whether a psychic action is performed: its Psychic test is passed, Perils of the Warp did not destroy the
    PSYKER (if it did, the action fails automatically) and no Deny the Witch test succeeded against it."""
    return And(psychic_test_passed, Not(destroyed_by_perils), Not(denied))
