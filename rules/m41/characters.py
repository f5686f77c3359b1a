"""999.m41 (004), Characters: independent characters leading units, lost in the heat of battle, look out sir,
morale with a character, and challenges.

Counts and flags in, answers built with rules.logic where a prover may read them.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Iterable

from rules.logic import And, If, Max, Not, Or
from rules.registry import ruleset_rule

rule = ruleset_rule("m41")

LOOK_OUT_SIR = 4  # "can be reallocated to a different model in the unit on a roll of a 4+"


@rule("characters/characters-in-battle")
def may_leave_and_join_units(independent: Any) -> Any:
    """Only independent characters leave and join units freely; basic characters stay with their unit."""
    return independent


@rule("characters/characters-in-battle", "characters/look-out-sir")
def may_use_look_out_sir(character: Any) -> Any:
    """Basic characters (squad leaders) and independent characters both count as characters for look out sir."""
    return character


@rule("characters/characters-and-shooting")
def shoots_with(own_unit: str, led_unit: str | None) -> str:
    """For shooting, a character leading a unit counts as part of it; one leading none shoots as his own unit."""
    return led_unit if led_unit is not None else own_unit


@rule("characters/as-leaders")
def unit_leadership(unit_leadership_value: Any, character_leadership: Any) -> Any:
    """A unit led by an independent character uses the character's leadership for morale checks, if higher."""
    return Max(unit_leadership_value, character_leadership)


@rule("characters/as-leaders", "characters/loner", "characters/retinues")
def may_join(loner: Any, in_retinue: Any, retinue_destroyed: Any = False) -> Any:
    """An independent character joins (leads) a unit by keeping coherency with it, unless he is a loner; one fielded
    with a retinue may not leave it unless the retinue is destroyed."""
    return And(Not(loner), Or(Not(in_retinue), retinue_destroyed))


@rule("characters/lost-in-the-heat-of-battle")
def may_be_targeted(in_position_to_lead: Any, monstrous_creature: Any) -> Any:
    """A character in a position to lead a unit cannot be picked out by ranged attacks; one that is not, or a
    monstrous creature, can."""
    return Or(Not(in_position_to_lead), monstrous_creature)


@rule("characters/lost-in-the-heat-of-battle")
def may_allocate_to_character(hits_on_each_unit: Iterable[int], models_in_each_unit: Iterable[int]) -> bool:
    """Hits go to a character only once every model of every unit he is in coherency with has had one."""
    return all(hits >= models for hits, models in zip(hits_on_each_unit, models_in_each_unit, strict=True))


@rule("characters/lost-in-the-heat-of-battle")
def hits_before_character(models_in_each_unit: Iterable[int]) -> int:
    """The fewest hits that reach the character: one for every model of every unit near him, then his own."""
    return sum(models_in_each_unit) + 1


@rule("characters/look-out-sir")
def look_out_sir(roll: Any) -> Any:
    """Before saves, a wound allocated to a character moves to another model of the unit on a 4+."""
    return roll >= LOOK_OUT_SIR


@rule("characters/look-out-sir")
def look_out_sir_chance() -> Fraction:
    """The exact chance a look out sir roll succeeds: 3 faces in 6."""
    return Fraction(sum(1 for face in range(1, 7) if look_out_sir(face)), 6)


@rule("characters/characters-and-assault")
def joins_the_charge(chooses_to_charge: Any) -> Any:
    """A character whose unit charges comes with it or breaks off, as his player chooses."""
    return chooses_to_charge


@rule("characters/their-unit-breaks")
def character_stays(passed_morale_check: Any, could_lead_several_units: Any, chooses_to_flee: Any) -> Any:
    """When his unit breaks a character flees with it, or takes a morale check and stays if he passes; one who could
    lead several units passes automatically."""
    return And(Not(chooses_to_flee), Or(passed_morale_check, could_lead_several_units))


@rule("characters/uplifting-spirit")
def may_uplift(within_coherency: Any, first_turn_fleeing: Any) -> Any:
    """A character who comes within coherency of a fleeing unit lets it try to regroup on his leadership, but not on
    the turn it first flees (failing does not make it flee further)."""
    return And(within_coherency, Not(first_turn_fleeing))


@rule("characters/challenges")
def challenge_outcome(issued: Any, accepted: Any, lost_combat: Any) -> dict:
    """A challenge: the issuing player's charging units lose the +1 charge attack; if accepted only the two
    characters fight (counting as in base contact); if refused the refusing side takes -1 Ld if it loses combat."""
    return {"charge_bonus_lost": bool(issued),
            "only_the_duellists_fight": bool(issued and accepted),
            "refusal_leadership_penalty": refusal_penalty(issued, accepted, lost_combat)}


@rule("characters/challenges")
def refusal_penalty(issued: Any, accepted: Any, lost_combat: Any) -> Any:
    """The -1 Ld for refusing a challenge, applied only if the refusing side lost combat."""
    return If(And(issued, Not(accepted), lost_combat), -1, 0)
