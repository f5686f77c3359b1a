"""Chapter 06, Other concepts: visibility, mortal wounds and hazard rolls."""

from __future__ import annotations

import enum
from typing import Any, Sequence

from rules.logic import And, DecisionTable, If, Not, Or, Row, Var
from rules.registry import rule


# 06.01 Visibility ------------------------------------------------------------------


@rule("06.01")
def model_visible(parts_visible: Sequence[Any]) -> Any:
    """A model is visible if any part of it is visible to the observing model."""
    return Or(*parts_visible)


@rule("06.01")
def model_fully_visible(facing_parts_visible: Sequence[Any]) -> Any:
    """A model is fully visible if every part facing the observer is visible (only the model itself blocks)."""
    return And(*facing_parts_visible)


@rule("06.01")
def unit_visible(models_visible: Sequence[Any]) -> Any:
    """A unit is visible if one or more of its models are."""
    return Or(*models_visible)


@rule("06.01")
def unit_fully_visible(models_fully_visible: Sequence[Any]) -> Any:
    """A unit is fully visible if every model in it is fully visible."""
    return And(*models_fully_visible)


# 06.02 Mortal wounds ----------------------------------------------------------------


class MortalWoundTarget(enum.IntEnum):
    WOUNDED_NON_CHARACTER = 1
    NON_CHARACTER = 2
    WOUNDED_CHARACTER = 3
    CHARACTER = 4


MORTAL_WOUND_MODEL = DecisionTable(
    name="mortal-wound-model",
    refs=("06.02",),
    inputs=(Var("wounded_non_character", kind="bool"), Var("non_character", kind="bool"),
            Var("wounded_character", kind="bool"), Var("character", kind="bool")),
    # A wounded model of a kind implies a model of that kind, and the unit has a model left.
    # Each later row begins "Otherwise" in the book, so every earlier row overrides it.
    assume=lambda wounded_non_character, non_character, wounded_character, character: And(
        Or(Not(wounded_non_character), non_character), Or(Not(wounded_character), character),
        Or(non_character, character)),
    rows=(
        Row("a non-CHARACTER model has lost wounds: select that model",
            lambda wounded_non_character, **_: wounded_non_character, MortalWoundTarget.WOUNDED_NON_CHARACTER,
            overrides=("the unit contains non-CHARACTER models: select one of them",
                       "a CHARACTER model has lost wounds: select one of those",
                       "otherwise: select one CHARACTER model")),
        Row("the unit contains non-CHARACTER models: select one of them",
            lambda non_character, **_: non_character, MortalWoundTarget.NON_CHARACTER,
            overrides=("a CHARACTER model has lost wounds: select one of those",
                       "otherwise: select one CHARACTER model")),
        Row("a CHARACTER model has lost wounds: select one of those",
            lambda wounded_character, **_: wounded_character, MortalWoundTarget.WOUNDED_CHARACTER,
            overrides=("otherwise: select one CHARACTER model",)),
        Row("otherwise: select one CHARACTER model", lambda character, **_: character, MortalWoundTarget.CHARACTER),
    ),
)


@rule("06.02")
def mortal_wound_model(wounded_non_character: Any, non_character: Any, wounded_character: Any, character: Any) -> Any:
    """Which kind of model the next mortal wound must go to."""
    return MORTAL_WOUND_MODEL(wounded_non_character=wounded_non_character, non_character=non_character,
                              wounded_character=wounded_character, character=character)


@rule("06.02")
def wounds_after_mortal_wound(remaining: Any) -> Any:
    """Each mortal wound takes exactly one wound from the selected model."""
    return remaining - 1


class Damage(enum.IntEnum):
    """What of an attack's damage is resolved next."""

    NOTHING_LEFT = 0
    NORMAL_DAMAGE = 1
    MORTAL_WOUNDS = 2


@rule("06.02")
def damage_resolved_next(normal_damage_left: Any, mortal_wounds_left: Any) -> Any:
    """MORTAL WOUNDS AND NORMAL DAMAGE: attacks inflicting both have all their normal damage resolved first, then
    all their mortal wounds."""
    return If(normal_damage_left, Damage.NORMAL_DAMAGE, If(mortal_wounds_left, Damage.MORTAL_WOUNDS, Damage.NOTHING_LEFT))


# 06.03 Hazard rolls ------------------------------------------------------------------


@rule("06.03")
def hazard_roll_fails(roll: Any) -> Any:
    """A hazard roll fails on a 1-2."""
    return roll <= 2


@rule("06.03")
def hazard_mortal_wounds(roll: Any, every_model_monster_or_vehicle: Any) -> Any:
    """A failed hazard roll inflicts 1 mortal wound, or 3 if every model is a MONSTER/VEHICLE."""
    return If(hazard_roll_fails(roll), If(every_model_monster_or_vehicle, 3, 1), 0)
