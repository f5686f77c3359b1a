"""The earlier edition's datasheets: what a '-' characteristic forbids, modifying characteristics (the order, the
floors at 1, replacement first, '-' never modified and Toughness in its place), random characteristics, weapon
Strength, minimum ranges, Understrength units, aura abilities, wargear options and damage tables; with the
glossary terms that restate them.
"""

from __future__ import annotations

import enum
import re
from typing import Any, Iterable, Sequence

from rules.logic import If, Max, Min, Not, Or
from rules.ninth.concepts import apply_modifiers, within
from rules.registry import ruleset_rule

rule = ruleset_rule("ninth")

DASH = "-"  # a characteristic printed as '-'


class Characteristic(enum.IntEnum):
    """The characteristics of a profile (Initiative only on the web page)."""

    M = enum.auto()
    WS = enum.auto()
    BS = enum.auto()
    S = enum.auto()
    T = enum.auto()
    W = enum.auto()
    A = enum.auto()
    I = enum.auto()  # noqa: E741  (the web page's Initiative)
    LD = enum.auto()
    SV = enum.auto()


# "Regardless of the source, the Strength, Toughness, Attacks and Leadership characteristics of a model can never
# be modified below 1" (the reprint, its bullet and the glossary; the web page's bullet adds I).
FLOORED_AT_ONE = (Characteristic.S, Characteristic.T, Characteristic.A, Characteristic.LD)
WEB_BULLET_FLOORED_AT_ONE = (Characteristic.S, Characteristic.T, Characteristic.A, Characteristic.I,
                             Characteristic.LD)
# '-' Strength or Leadership: the model's Toughness is used instead.
SUBSTITUTED_BY_TOUGHNESS = (Characteristic.S, Characteristic.LD)
RANGED_TYPES = ("Rapid Fire", "Assault", "Heavy", "Pistol", "Grenade")
WEAPON_TYPES = ("Assault", "Heavy", "Pistol", "Rapid Fire", "Melee", "Grenade")


# -- Profiles: what '-' forbids ------------------------------------------------------------------------------------


@rule("datasheets/profiles")
def can_move(move: Any) -> bool:
    """A model with a Move of '-' is unable to move at all."""
    return move != DASH


@rule("datasheets/profiles")
def can_fight_in_melee(weapon_skill: Any, attacks: Any) -> bool:
    """A Weapon Skill or Attacks of '-' leaves a model unable to fight in melee at all."""
    return weapon_skill != DASH and attacks != DASH


@rule("datasheets/profiles")
def can_make_ranged_attacks(ballistic_skill: Any) -> bool:
    """A Ballistic Skill of '-' leaves a model unable to make attacks with ranged weapons at all."""
    return ballistic_skill != DASH


# -- Modifying characteristics -------------------------------------------------------------------------------------


@rule("datasheets/modifying-characteristics", "glossary/modifying-characteristics")
def never_modified_below_one(characteristic: Characteristic) -> Any:
    """Whether modifiers can never take this characteristic below 1: Strength, Toughness, Attacks, Leadership.
    Interpretation: reprint-is-the-primary-printing (the web page's bullet adds Initiative)."""
    return Or(*(characteristic == c for c in FLOORED_AT_ONE))


@rule("datasheets/modifying-characteristics", "glossary/modifying-characteristics",
      "glossary/modifying-a-units-characteristic")
def modified_characteristic(characteristic: Characteristic, value: Any, replaced_by: Any = None,
                            divide_by: Sequence[Any] = (), multiply_by: Sequence[Any] = (), add: Sequence[Any] = (),
                            subtract: Sequence[Any] = ()) -> Any:
    """A characteristic after the rules that change it: a '-' is never modified; a replacement comes first; then
    every modifier in the printed order (division, multiplication, addition, subtraction, fractions rounded up
    at the end); S, T, A and Ld never below 1. A unit's characteristic modified is every model's."""
    if isinstance(value, str):
        if value != DASH:
            raise ValueError(f"characteristic value {value!r} is neither a number nor '-'")
        return DASH
    base = value if replaced_by is None else replaced_by
    result = apply_modifiers(base, divide_by, multiply_by, add, subtract)
    floored = Max(1, result)
    if isinstance(characteristic, Characteristic):
        return floored if characteristic in FLOORED_AT_ONE else result
    return If(never_modified_below_one(characteristic), floored, result)


@rule("datasheets/modifying-characteristics", "glossary/null-characteristics")
def characteristic_for_a_rule(characteristic: Characteristic, value: Any, toughness: Any) -> Any:
    """The value a rule uses: a '-' Strength or Leadership is replaced by the model's Toughness (still not to be
    modified); any other characteristic is its own value."""
    if value == DASH and characteristic in SUBSTITUTED_BY_TOUGHNESS:
        return toughness
    return value


@rule("datasheets/modifying-characteristics", "glossary/random-characteristic")
def random_rolls_needed(characteristic: Characteristic, models_or_weapons: int) -> int:
    """How many times a random characteristic is rolled each time it is required: a random Move once for the
    whole unit selected to move, any other once per model or weapon."""
    return 1 if characteristic == Characteristic.M else models_or_weapons


# -- Weapons -------------------------------------------------------------------------------------------------------


@rule("datasheets/weapons", "glossary/melee-weapon", "glossary/ranged-weapon", "glossary/weapons-type")
def is_melee_weapon(range_or_type: str) -> bool:
    """Weapons with a range (type) of 'Melee' are melee weapons; all others are ranged weapons."""
    return range_or_type.strip().casefold() == "melee"


@rule("glossary/ranged-weapon", "glossary/weapons-type")
def is_ranged_type(weapon_type: str) -> bool:
    """Rapid Fire, Assault, Heavy, Pistol or Grenade weapons are ranged weapons."""
    return weapon_type.strip().casefold() in {t.casefold() for t in RANGED_TYPES}


_STRENGTH = re.compile(r"^\s*(?:(?P<user>user)|(?P<op>[+x×*-])\s*(?P<by>[0-9]+)|(?P<flat>[0-9]+))\s*$", re.I)


@rule("datasheets/weapons", "datasheets/modifying-characteristics")
def attack_strength(weapon_strength: str | int, bearer_strength: int, add: Sequence[int] = (),
                    subtract: Sequence[int] = ()) -> int:
    """An attack's Strength: 'User' is the bearer's Strength; '+1' or 'x2' modifies the bearer's Strength (x2 on
    Strength 6 is 12); other modifiers join it and all are applied in the printed order (a power fist x2 with +1
    from a psychic power on Strength 4 is 9)."""
    match = _STRENGTH.match(str(weapon_strength))
    if not match:
        raise ValueError(f"weapon Strength {weapon_strength!r} is not 'User', a number, '+N', '-N' or 'xN'")
    if match.group("user"):
        return modified_characteristic(Characteristic.S, bearer_strength, add=add, subtract=subtract)
    if match.group("flat"):
        return modified_characteristic(Characteristic.S, int(match.group("flat")), add=add, subtract=subtract)
    op, by = match.group("op"), int(match.group("by"))
    multiply = (by,) if op in ("x", "×", "*", "X") else ()
    plus = (by,) if op == "+" else ()
    minus = (by,) if op == "-" else ()
    return modified_characteristic(Characteristic.S, bearer_strength, multiply_by=multiply, add=(*plus, *add),
                                   subtract=(*minus, *subtract))


@rule("datasheets/weapons")
def may_target_with_minimum_range(target_wholly_within_minimum_range: Any) -> Any:
    """A weapon with a minimum range ('6"-48"') cannot target a unit wholly within the shorter range."""
    return Not(target_wholly_within_minimum_range)


# -- Composition, abilities, wargear options, damage tables ------------------------------------------------------------


@rule("datasheets/composition-and-wargear")
def understrength_unit_allowed(models_available: int, minimum_size: int, understrength_units_of_that_type: int) -> bool:
    """Without enough models for a minimum-sized unit, one unit of that type may still be included with as many
    models as are available (an Understrength unit); only one."""
    return 0 < models_available < minimum_size and understrength_units_of_that_type == 0


@rule("datasheets/abilities", "glossary/aura")
def in_aura_range(distance_inches: Any, aura_range_inches: Any, is_the_aura_model: Any = False) -> Any:
    """Whether a model is within range of an aura: the aura's own model always is."""
    return Or(is_the_aura_model, within(distance_inches, aura_range_inches))


@rule("datasheets/abilities", "glossary/aura")
def times_aura_applies(identically_named_auras_in_range: Any) -> Any:
    """Identically named auras are not cumulative: in range of several, the unit is affected once."""
    return Min(1, identically_named_auras_in_range)


@rule("glossary/increasing-the-range-of-an-aura")
def increased_aura_range(initial_range_inches: Any, increase_inches: Any) -> Any:
    """Increasing an aura's range adds to its initial range only (not to any range its effects bestow)."""
    return initial_range_inches + increase_inches


@rule("datasheets/wargear-options")
def may_use_wargear_option(times_used: Any) -> Any:
    """Wargear options may be used in any order, but each only once."""
    return times_used == 0


@rule("datasheets/damage-tables", "datasheets/profiles")
def damage_table_row(remaining_wounds: int, rows: Sequence[tuple[int, int]]) -> int:
    """Which row of a damage table (each row a range of remaining wounds, low to high) gives a model's current
    characteristics."""
    for index, (low, high) in enumerate(rows):
        if low <= remaining_wounds <= high:
            return index
    raise ValueError(f"no row of the damage table covers {remaining_wounds} remaining wounds")


# -- Unit characteristics (glossary) --------------------------------------------------------------------------------


@rule("glossary/units-leadership-characteristic")
def unit_leadership(leadership_of_each_model: Sequence[Any]) -> Any:
    """A unit's Leadership: the highest Leadership of any of its models."""
    return Max(*leadership_of_each_model)


@rule("glossary/units-save-characteristic")
def unit_save_choices(save_of_each_model: Iterable[int]) -> set[int]:
    """A unit's Save: the most common Save among its models; on a tie the controller chooses among the most
    common ones (the set returned)."""
    saves = list(save_of_each_model)
    if not saves:
        raise ValueError("a unit with no models has no Save characteristic")
    most = max(saves.count(s) for s in saves)
    return {s for s in saves if saves.count(s) == most}


@rule("glossary/full-wounds-remaining")
def has_full_wounds(wounds_remaining: Any, wounds_characteristic: Any) -> Any:
    """A model has its full wounds remaining if it has as many wounds remaining as its Wounds characteristic."""
    return wounds_remaining == wounds_characteristic


@rule("glossary/regaining-wounds")
def wounds_after_regaining(wounds_remaining: Any, regained: Any, wounds_at_start_of_battle: Any) -> Any:
    """A model regains up to that many lost wounds, never more than it started the battle with."""
    return Min(wounds_remaining + regained, Max(wounds_remaining, wounds_at_start_of_battle))
