"""999.m41's Models and Units (chapter 3): the characteristic profile, modifiers and their order, zero-level
characteristics, characteristic and Leadership tests, and saving throws.

Every number here comes from 004's text (spec/m41/chapters/04-models.yaml); probabilities are exact Fractions.
"""

from __future__ import annotations

import enum
from fractions import Fraction
from typing import Any, Sequence

from rules.logic import And, If, Max, Min, Or, is_symbolic
from rules.registry import ruleset_rule

rule = ruleset_rule("m41")

D6_FACES = range(1, 7)


class Characteristic(enum.IntEnum):
    """The profile's characteristics, in the printed order: WS BS S T W I A Ld Sv."""

    WS = 1
    BS = 2
    S = 3
    T = 4
    W = 5
    I = 6  # noqa: E741 (the profile's own abbreviation)
    A = 7
    LD = 8
    SV = 9


PROFILE_ORDER = tuple(Characteristic)

# The printed example profile; Sv is the save's number (3 for 3+).
SPACE_MARINE = {Characteristic.WS: 4, Characteristic.BS: 4, Characteristic.S: 4, Characteristic.T: 4,
                Characteristic.W: 1, Characteristic.I: 4, Characteristic.A: 1, Characteristic.LD: 8,
                Characteristic.SV: 3}


@rule("models/characteristic-profile")
def profile(ws: int, bs: int, s: int, t: int, w: int, i: int, a: int, ld: int, sv: int) -> dict[Characteristic, int]:
    """A non-vehicle model's profile, read in the printed order WS BS S T W I A Ld Sv (Sv as the save's number)."""
    return dict(zip(PROFILE_ORDER, (ws, bs, s, t, w, i, a, ld, sv)))


@rule("models/weapon-skill", "models/ballistic-skill", "models/strength", "models/toughness", "models/wounds",
      "models/initiative", "models/attacks", "models/leadership", "models/armour-save")
def is_better(characteristic: Any, value: Any, than: Any) -> Any:
    """Whether one value of a characteristic is better than another: higher is better for every characteristic
    but the Armour Save, where lower is better."""
    return If(characteristic == Characteristic.SV, value < than, value > than)


BEST_ARMOUR_SAVE = 2


@rule("models/armour-save")
def armour_save(value: Any) -> Any:
    """A model's Armour Save: never better than 2+."""
    return Max(BEST_ARMOUR_SAVE, value)


# -- Modifiers ----------------------------------------------------------------------------------------------------------

UNCAPPED = (Characteristic.A, Characteristic.W)  # the only ones that can be modified above 10
CAP = 10
INITIATIVE_FLOOR = 1
FLOOR = 0


@rule("models/modifiers")
def bounded(characteristic: Any, value: Any) -> Any:
    """A modified characteristic within its bounds: only Attacks and Wounds may go above 10, Initiative never below
    1, no other characteristic below 0 (and an Armour Save never better than 2+)."""
    floored = Max(If(characteristic == Characteristic.I, INITIATIVE_FLOOR, FLOOR), value)
    uncapped = Or(*(characteristic == c for c in UNCAPPED))
    capped = If(uncapped, floored, Min(floored, CAP))
    return If(characteristic == Characteristic.SV, armour_save(capped), capped)


def _divided_rounding_up(value: Any, divisor: Any) -> Any:
    """value / divisor rounded up (divisor positive): the document's halving rounds up (principles/d3)."""
    return -((-value) / divisor) if is_symbolic(value, divisor) else -((-value) // divisor)


@rule("models/multiple-modifiers")
def apply_modifiers(value: Any, set_to: Any = None, add: Sequence[Any] = (), subtract: Sequence[Any] = (),
                    multiply: Sequence[Any] = (), divide: Sequence[Any] = ()) -> Any:
    """A value under several modifiers, always in the order set, add, subtract, multiply, divide (a division
    rounds up: interpretation models-division-rounds-up)."""
    result = value if set_to is None else set_to
    for bonus in add:
        result = result + bonus
    for penalty in subtract:
        result = result - penalty
    for factor in multiply:
        result = result * factor
    for divisor in divide:
        result = _divided_rounding_up(result, divisor)
    return result


@rule("models/modifiers", "models/multiple-modifiers")
def modified_characteristic(characteristic: Any, value: Any, set_to: Any = None, add: Sequence[Any] = (),
                            subtract: Sequence[Any] = (), multiply: Sequence[Any] = (),
                            divide: Sequence[Any] = ()) -> Any:
    """A characteristic after its modifiers, applied in the printed order and then held within its bounds."""
    return bounded(characteristic, apply_modifiers(value, set_to, add, subtract, multiply, divide))


# -- Zero-level characteristics ---------------------------------------------------------------------------------------


@rule("models/zero-level-characteristics")
def hit_automatically_in_close_combat(weapon_skill: Any) -> Any:
    """A model with Weapon Skill 0 is hit automatically in close combat."""
    return weapon_skill == 0


@rule("models/zero-level-characteristics")
def can_strike_blows(weapon_skill: Any, attacks: Any) -> Any:
    """A model strikes blows in close combat only with some Weapon Skill and some Attacks."""
    return And(weapon_skill > 0, attacks > 0)


@rule("models/zero-level-characteristics")
def has_armour_save(armour_save_value: Any) -> bool:
    """An Armour Save of '-' (None) is no armour save at all."""
    return armour_save_value is not None


@rule("models/zero-level-characteristics")
def removed_for_zero_characteristics(strength: Any, toughness: Any, wounds: Any) -> Any:
    """A model whose Strength, Toughness or Wounds is reduced to 0 is removed from play as a casualty."""
    return Or(strength <= 0, toughness <= 0, wounds <= 0)


# -- Tests ----------------------------------------------------------------------------------------------------------


@rule("models/characteristic-tests")
def passes_characteristic_test(roll: Any, value: Any) -> Any:
    """A d6 at most the characteristic (with its active modifiers) passes; a natural 6 always fails, a 1 always
    passes."""
    return And(roll != 6, Or(roll == 1, roll <= value))


@rule("models/characteristic-tests")
def characteristic_test_chance(value: int) -> Fraction:
    """The exact chance of passing a characteristic test: passing faces of the d6 out of six."""
    return Fraction(sum(1 for face in D6_FACES if passes_characteristic_test(face, value)), len(D6_FACES))


@rule("models/leadership-tests")
def passes_leadership_test(first_die: Any, second_die: Any, leadership: Any) -> Any:
    """2d6 added together at most the Leadership (with its active modifiers) passes; a natural 12 always fails and a
    natural 2 always passes."""
    total = first_die + second_die
    return And(total != 12, Or(total == 2, total <= leadership))


@rule("models/leadership-tests")
def leadership_test_chance(leadership: int) -> Fraction:
    """The exact chance of passing a Leadership test: passing pairs of d6 out of 36."""
    passing = sum(1 for a in D6_FACES for b in D6_FACES if passes_leadership_test(a, b, leadership))
    return Fraction(passing, len(D6_FACES) ** 2)


# -- Saving throws -----------------------------------------------------------------------------------------------------

WORST_REDUCED_SAVE = 6  # a save cannot be reduced beyond 6+ by the successive penalty


@rule("models/saving-throws")
def passes_save(roll: Any, save: Any) -> Any:
    """A saving throw passes on a d6 at least the save value; a natural 1 always fails."""
    return And(roll != 1, roll >= save)


@rule("models/saving-throws")
def successive_saves(saves: Sequence[int]) -> list[int]:
    """The saves a model takes, in order: all of them, the best (lowest) first, each after the first at a further
    -1 (its value one higher per earlier save), never reduced beyond 6+ in this fashion (a save already worse than
    6+ is not improved)."""
    ordered = sorted(saves)
    return [Max(save, Min(save + penalty, WORST_REDUCED_SAVE)) for penalty, save in enumerate(ordered)]


@rule("models/saving-throws")
def save_chance(save: int) -> Fraction:
    """The exact chance of passing one saving throw of this value."""
    return Fraction(sum(1 for face in D6_FACES if passes_save(face, save)), len(D6_FACES))


@rule("models/saving-throws")
def chance_wound_is_saved(saves: Sequence[int]) -> Fraction:
    """The exact chance that a wound is discarded by one of the model's saving throws taken in turn (each
    successive save only if the earlier ones failed)."""
    failing = Fraction(1)
    for save in successive_saves(saves):
        failing *= 1 - save_chance(save)
    return 1 - failing
