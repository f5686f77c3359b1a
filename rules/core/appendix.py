"""Rules appendix: starting strength and half-strength, destroyed models and units, revived models.

The strength terms follow the appendix table column by column: a unit with a
starting strength of 1 is measured by its model's remaining wounds against its
W characteristic, any other unit by its remaining models against its starting
strength. Every comparison with "half" is written without division (``2 * n == s``),
so an odd starting strength or W can never be "at half-strength", exactly as the
appendix's box says, and z3 and Python agree.
"""

from __future__ import annotations

import enum
from typing import Any

from rules.logic import And, DecisionTable, If, Max, Min, Not, Or, Row, Var
from rules.registry import rule

STRENGTH = "appendix/starting-strength-and-half-strength"
DESTROYED = "appendix/destroyed"
REVIVED = "appendix/revived"


# Starting strength and half-strength ---------------------------------------------------


@rule(STRENGTH)
def starting_strength(models_at_start_of_first_battle_round: Any, added_during_battle: Any,
                      models_when_added: Any) -> Any:
    """Which head-count is a unit's starting strength: the start of the first battle round, or, for a unit
    added to the army during the battle, the moment it is added.

    An attached unit counts all its models (leader included) at that moment.
    """
    return If(added_during_battle, models_when_added, models_at_start_of_first_battle_round)


_STRENGTH_INPUTS = (Var("starting_strength", 1, 4), Var("models", 1, 4), Var("wounds", 1, 4), Var("w", 1, 4))


def _strength_domain(starting_strength: Any, models: Any, wounds: Any, w: Any) -> Any:
    """A unit on the battlefield: never more models than it started with, never more wounds than W,
    and a unit that started as one model still is one."""
    return And(models <= starting_strength, wounds <= w, Or(starting_strength >= 2, models == 1))


def _strength_table(name: str, term: str, single: Any, several: Any, single_text: str, several_text: str
                    ) -> DecisionTable:
    """One row of the appendix's UNIT STRENGTH table; its two columns are this table's two rows."""
    return DecisionTable(
        name=name,
        refs=(STRENGTH,),
        inputs=_STRENGTH_INPUTS,
        assume=_strength_domain,
        rows=(
            Row(f"starting strength of 1: {single_text}", lambda starting_strength, **_: starting_strength == 1,
                single),
            Row(f"starting strength of 2 or more: {several_text}",
                lambda starting_strength, **_: starting_strength >= 2, several),
        ),
        gap=False,
        notes={"term": term},
    )


BELOW_STARTING_STRENGTH = _strength_table(
    "below-starting-strength", "BELOW STARTING STRENGTH",
    lambda wounds, w, **_: wounds < w, lambda models, starting_strength, **_: models < starting_strength,
    "the model's remaining wounds are less than its W characteristic",
    "fewer models remain in the unit than its starting strength")

AT_HALF_STRENGTH = _strength_table(
    "at-half-strength", "AT HALF-STRENGTH",
    lambda wounds, w, **_: 2 * wounds == w, lambda models, starting_strength, **_: 2 * models == starting_strength,
    "the model's remaining wounds are half of its W characteristic",
    "the number of remaining models is half of its starting strength")

BELOW_HALF_STRENGTH = _strength_table(
    "below-half-strength", "BELOW HALF-STRENGTH",
    lambda wounds, w, **_: 2 * wounds < w, lambda models, starting_strength, **_: 2 * models < starting_strength,
    "the model's remaining wounds are less than half of its W characteristic",
    "the number of remaining models is less than half of its starting strength")


def _check_strength_facts(starting_strength: Any, models: Any, wounds: Any, w: Any) -> None:
    """Refuse facts no unit on the battlefield can have (concrete values only)."""
    if not all(isinstance(v, int) for v in (starting_strength, models, wounds, w)):
        return
    if starting_strength < 1 or w < 1:
        raise ValueError("a unit's starting strength and a model's W characteristic are at least 1")
    if not 1 <= models <= starting_strength:
        raise ValueError(f"a unit on the battlefield has 1 to {starting_strength} models (its starting "
                         f"strength), not {models}")
    if not 1 <= wounds <= w:
        raise ValueError(f"a model with W {w} has 1 to {w} wounds remaining, not {wounds}")
    if starting_strength == 1 and models != 1:
        raise ValueError("a unit with a starting strength of 1 has exactly one model")


@rule(STRENGTH)
def below_starting_strength(starting_strength: Any, models: Any, wounds: Any = 1, w: Any = 1) -> Any:
    """Whether a unit is below its starting strength (lost wounds if it started as one model, else lost models)."""
    _check_strength_facts(starting_strength, models, wounds, w)
    return BELOW_STARTING_STRENGTH(starting_strength=starting_strength, models=models, wounds=wounds, w=w)


@rule(STRENGTH)
def at_half_strength(starting_strength: Any, models: Any, wounds: Any = 1, w: Any = 1) -> Any:
    """Whether a unit is exactly at half-strength; never when the starting strength (or, for a single model,
    its W) is odd."""
    _check_strength_facts(starting_strength, models, wounds, w)
    return AT_HALF_STRENGTH(starting_strength=starting_strength, models=models, wounds=wounds, w=w)


@rule(STRENGTH)
def below_half_strength(starting_strength: Any, models: Any, wounds: Any = 1, w: Any = 1) -> Any:
    """Whether a unit is below half-strength (a single model by its wounds, any other unit by its models).

    >>> below_half_strength(starting_strength=6, models=1, wounds=5, w=5)  # the lone Captain
    True
    """
    _check_strength_facts(starting_strength, models, wounds, w)
    return BELOW_HALF_STRENGTH(starting_strength=starting_strength, models=models, wounds=wounds, w=w)


@rule(STRENGTH)
def at_or_below_half_strength(starting_strength: Any, models: Any, wounds: Any = 1, w: Any = 1) -> Any:
    """Whether a unit is at, or below, half-strength (the condition 08.03 tests)."""
    return Or(at_half_strength(starting_strength, models, wounds, w),
              below_half_strength(starting_strength, models, wounds, w))


# Destroyed --------------------------------------------------------------------------------


@rule(DESTROYED)
def unit_destroyed(models_remaining: Any) -> Any:
    """A unit is destroyed when every model in it has been destroyed."""
    return models_remaining == 0


class Removal(enum.IntEnum):
    """When a destroyed model leaves the battlefield, relative to the rules its destruction triggers."""

    AT_ONCE = 1  # nothing is triggered: it is simply removed
    AFTER_ITS_RULES = 2  # its destroyed-rules are resolved, then it is removed
    AFTER_ATTACKING_UNITS_ATTACKS = 3  # both wait until the attacking unit's attacks are resolved


DESTROYED_MODEL_TIMING = DecisionTable(
    name="destroyed-model-timing",
    refs=(DESTROYED,),
    inputs=(Var("rules_triggered", kind="bool"), Var("destroyed_by_attack", kind="bool"),
            Var("otherwise_stated", kind="bool")),
    rows=(
        Row("no rule is triggered when it is destroyed: it is removed",
            lambda rules_triggered, **_: Not(rules_triggered), Removal.AT_ONCE),
        Row("such rules apply and it was destroyed by an attack (unless otherwise stated): its rules are resolved "
            "and it is removed after the attacking unit's attacks",
            lambda rules_triggered, destroyed_by_attack, otherwise_stated:
                And(rules_triggered, destroyed_by_attack, Not(otherwise_stated)),
            Removal.AFTER_ATTACKING_UNITS_ATTACKS),
        Row("otherwise: first resolve its rules, then remove it", lambda **_: True, Removal.AFTER_ITS_RULES,
            otherwise=True),
    ),
)


@rule(DESTROYED)
def destroyed_model_timing(rules_triggered: Any, destroyed_by_attack: Any, otherwise_stated: Any = False) -> Any:
    """When a destroyed model's triggered rules are resolved and it is removed from the battlefield."""
    return DESTROYED_MODEL_TIMING(rules_triggered=rules_triggered, destroyed_by_attack=destroyed_by_attack,
                                  otherwise_stated=otherwise_stated)


@rule(DESTROYED)
def destroyed_may_act_or_be_chosen(destroyed: Any, otherwise_stated: Any = False) -> Any:
    """Whether a model or unit may use abilities or be selected or targeted by rules: not once destroyed,
    unless a rule says otherwise."""
    return Or(Not(destroyed), otherwise_stated)


# Revived ----------------------------------------------------------------------------------


@rule(REVIVED)
def models_revived(requested: Any, models: Any, starting_strength: Any) -> Any:
    """How many destroyed models a revive, resurrect or return rule adds: as many as it says, but never
    beyond the unit's starting strength."""
    return Max(0, Min(requested, starting_strength - models))


@rule(REVIVED)
def revived_model_wounds(w: Any, wounds_stated: Any = 0, otherwise_stated: Any = False) -> Any:
    """A returned model comes back with its full wounds (W) unless the rule states otherwise."""
    return If(otherwise_stated, wounds_stated, w)


@rule(REVIVED)
def revived_model_placement_allowed(in_coherency_with_models_there_at_start_of_phase: Any,
                                    engaged_with_enemy_not_already_engaged_with_unit: Any) -> Any:
    """Whether a returned model is set up legally: in coherency with the unit's models that started the phase
    on the battlefield, and engaged only with enemy units already engaged with its unit."""
    return And(in_coherency_with_models_there_at_start_of_phase,
               Not(engaged_with_enemy_not_already_engaged_with_unit))


@rule(REVIVED)
def revived_leader_rejoins_attached_unit(leader_or_support_model: Any, returning_to_it_possible: Any) -> Any:
    """A revived leader or support model of an attached unit is still part of it and must be returned to it
    where possible."""
    return And(leader_or_support_model, returning_to_it_possible)
