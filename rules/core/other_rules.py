"""Chapter 22, Other rules and abilities: aura (22.01), faction (22.02), psychic (22.03) and wargear (22.04)
abilities, and plunging fire (22.05), which changes ranged attacks.

Conditions are predicates over facts built with ``rules.logic``; where an aura's range is measured on the
battlefield, ``unit_in_aura_range`` uses the geometry of ``rules.battlefield``.
"""

from __future__ import annotations

from typing import Any, Iterable, Sequence

from rules.battlefield import Body
from rules.core.datasheets import keyword_matches
from rules.logic import And, If, Not, Or
from rules.registry import rule


# 22.01 Aura abilities ---------------------------------------------------------------------------------------------


@rule("22.01")
def in_aura_range(bearer_on_battlefield: Any, is_bearer: Any, within_range: Any) -> Any:
    """Whether a model is within range of an aura ability: while its bearer is on the battlefield, the bearer
    itself always is, and any other model within the stated range is."""
    return And(bearer_on_battlefield, Or(is_bearer, within_range))


@rule("22.01")
def unit_in_aura_range(bearer: Body, unit_models: Sequence[Body], inches: Any, bearer_on_battlefield: bool = True) -> bool:
    """Whether a unit is within range of an aura: one or more of its models is (the bearer's own unit always is).

    Interpretation: plain-within-straight-line.
    """
    from rules import battlefield

    return any(bool(in_aura_range(bearer_on_battlefield, model is bearer or model == bearer,
                                  battlefield.within(bearer, model, inches)))
               for model in unit_models)


@rule("22.01")
def auras_applying(auras_in_range: Iterable[str]) -> tuple[str, ...]:
    """The aura abilities that apply to a unit: every different aura it is within range of, each only once however
    many times it is in range of it (by ability name, in the order first met)."""
    return tuple(dict.fromkeys(" ".join(name.split()).upper() for name in auras_in_range))


# 22.02 Faction abilities ------------------------------------------------------------------------------------------


@rule("22.02")
def faction_ability_applies(army_faction: str, unit_faction_keywords: Sequence[str],
                            otherwise_stated: bool = False) -> bool:
    """A unit's faction abilities apply only if the army faction chosen when mustering matches one of the faction
    keywords on its datasheet (unless a rule states otherwise)."""
    return otherwise_stated or any(keyword_matches(k, army_faction) for k in unit_faction_keywords)


# 22.03 Psychic abilities ------------------------------------------------------------------------------------------


@rule("22.03")
def inflicted_by_psychic_attack(from_psychic_ability: Any, from_psychic_weapon: Any = False) -> Any:
    """Each wound a 'Psychic' ability makes a model lose is inflicted by a psychic attack (as is each attack with a
    [PSYCHIC] weapon, 24.29); rules triggered by psychic attacks then apply."""
    return Or(from_psychic_ability, from_psychic_weapon)


# 22.04 Wargear abilities ------------------------------------------------------------------------------------------


@rule("22.04")
def wargear_ability_applies(held_by_a_model: Any, bearer_destroyed: Any) -> Any:
    """A wargear ability of an item the unit has applies to the unit; of an item a model has, it applies until
    that model (the bearer) is destroyed."""
    return If(held_by_a_model, Not(bearer_destroyed), True)


# 22.05 Plunging fire ----------------------------------------------------------------------------------------------


@rule("22.05")
def plunging_fire_applies(target_visible: Any, target_has_models_on_ground: Any, attacker_on_terrain_3_inches_up: Any,
                          attacker_towering: Any, target_within_12: Any) -> Any:
    """Plunging fire: a visible target with models on ground level, shot from 3"+ up a terrain feature or by a
    TOWERING model within 12"."""
    return And(target_visible, target_has_models_on_ground,
               Or(attacker_on_terrain_3_inches_up, And(attacker_towering, target_within_12)))


@rule("22.05")
def plunging_fire_skill_bonus(applies: Any) -> Any:
    """Plunging fire improves the attack's BS by 1."""
    return If(applies, 1, 0)
