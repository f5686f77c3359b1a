"""Chapter 24, Core abilities: the weapon and core abilities that act while attacks are made.

``parse_ability`` reads an ability as printed ("ANTI-INFANTRY 4+",
"SUSTAINED HITS 1: INFANTRY/BEASTS"); the other functions each decide what one
ability does. Abilities that act outside attacks (Deep Strike, Scouts, …) are
encoded with the game-state model.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Iterable, Sequence

from rules import dice
from rules.core.datasheets import has_keyword
from rules.logic import And, If, Not, Or
from rules.registry import rule


class AbilityError(ValueError):
    """An ability string that is not one of the forms chapter 24 prints."""


#: Weapon and core abilities the attack calculator understands, with whether they carry a number.
NUMBERED = {"BLAST": "optional", "CLEAVE": "required", "MELTA": "required", "RAPID FIRE": "required",
            "SUSTAINED HITS": "required", "FEEL NO PAIN": "required"}
PLAIN = {"ASSAULT", "CLOSE-QUARTERS", "DEVASTATING WOUNDS", "EXTRA ATTACKS", "HAZARDOUS", "HEAVY",
         "IGNORES COVER", "INDIRECT FIRE", "LANCE", "LETHAL HITS", "ONE SHOT", "PISTOL", "PRECISION",
         "PSYCHIC", "TORRENT", "TWIN-LINKED", "STEALTH"}

_FORM = re.compile(
    r"^\[?\s*(?P<name>ANTI-(?P<anti>[A-Z][A-Z -]*?)\s+(?P<anti_value>\d)\+|[A-Z][A-Z -]*?[A-Z])"
    r"(?:\s+(?P<value>D3|D6|\d+(?:D[36])?)(?P<plus>\+)?)?"
    r"(?:\s*:\s*(?P<only>[A-Z][A-Z/ -]*))?\s*\]?$")


@dataclass(frozen=True)
class Ability:
    """One printed ability: its name, number (or dice) if any, ANTI keyword, and target restriction."""

    name: str
    value: Any = None
    keyword: str = ""
    only_against: tuple[str, ...] = ()
    text: str = ""


@rule("24.01")
def parse_ability(text: str) -> Ability:
    """Read an ability as printed in square brackets; a trailing ': KEYWORD' limits whom it affects."""
    match = _FORM.match(" ".join(text.upper().split()))
    if not match:
        raise AbilityError(f"{text!r} is not an ability form of chapter 24")
    only = tuple(k.strip() for k in match.group("only").split("/")) if match.group("only") else ()
    if match.group("anti"):
        return Ability("ANTI", int(match.group("anti_value")), match.group("anti").strip(), only, text)
    name = match.group("name").strip()
    value = match.group("value")
    if name == "FEEL NO PAIN":
        if not (value and value.isdigit() and match.group("plus") and 2 <= int(value) <= 6):
            raise AbilityError(f"{text!r}: Feel No Pain takes the form 'FEEL NO PAIN X+' with X from 2 to 6")
        return Ability(name, int(value), "", only, text)
    if name in PLAIN:
        if value:
            raise AbilityError(f"{text!r}: {name} takes no number")
        return Ability(name, None, "", only, text)
    if name not in NUMBERED:
        raise AbilityError(f"{text!r} is not a weapon or core ability the Core Rules define")
    if value is None:
        if NUMBERED[name] == "required":
            raise AbilityError(f"{text!r}: {name} always takes the form [{name} X]")
        return Ability(name, 1, "", only, text)
    return Ability(name, int(value) if value.isdigit() else dice.parse(value), "", only, text)


@rule("24.01")
def ability_applies(ability: Ability, target_keywords: Sequence[str]) -> bool:
    """An ability followed by keywords only applies if the target unit has one of them."""
    return not ability.only_against or has_keyword(target_keywords, "/".join(ability.only_against))


def _strength(ability: Ability) -> Fraction:
    value = ability.value
    if isinstance(value, dice.DiceExpression):
        return dice.expected(dice.distribution(value))
    return Fraction(value or 0)


@rule("24.02")
def choose_instance(instances: Sequence[Ability]) -> Ability | None:
    """Duplicated abilities are not cumulative: one instance applies, chosen by the controlling player.

    Default choice (documented in the calculator): the strongest instance, i.e. the
    highest number, or for ANTI the lowest critical threshold.
    """
    if not instances:
        return None
    if instances[0].name == "ANTI":
        return min(instances, key=lambda a: a.value)
    return max(instances, key=_strength)


@rule("24.02")
def effective_abilities(abilities: Iterable[Ability], target_keywords: Sequence[str]) -> dict[str, Ability]:
    """The one applying instance of each ability against this target (24.01 restriction, then 24.02)."""
    grouped: dict[str, list[Ability]] = {}
    for ability in abilities:
        name = "CLOSE-QUARTERS" if ability.name == "PISTOL" else ability.name
        if ability_applies(ability, target_keywords):
            grouped.setdefault(name, []).append(ability)
    return {name: choose_instance(items) for name, items in sorted(grouped.items())}


@rule("24.03")
def critical_wound_threshold(anti: Ability | None, target_keywords: Sequence[str]) -> int:
    """[ANTI-X Y+]: against a unit with keyword X, an unmodified wound roll of Y+ is a critical wound."""
    if anti is not None and has_keyword(target_keywords, anti.keyword):
        return min(anti.value, 6)
    return 6


@rule("24.04")
def may_shoot_after_advancing(has_assault_weapon: Any) -> Any:
    """A unit with an [ASSAULT] weapon can use assault shooting (10.05) after advancing."""
    return has_assault_weapon


@rule("24.05")
def blast_extra_attacks(models_in_target: Any, per_five: Any = 1) -> Any:
    """[BLAST X]: X more attack dice for every five models in the target (rounding down)."""
    return per_five * _fives(models_in_target)


def _fives(models: Any) -> Any:
    """How many whole fives of models (written without division so z3 and Python agree)."""
    if isinstance(models, int):
        return models // 5
    return If(models >= 20, 4, If(models >= 15, 3, If(models >= 10, 2, If(models >= 5, 1, 0))))


@rule("24.06")
def cleave_extra_attacks(models_in_target: Any, per_five: Any, single_target: Any) -> Any:
    """[CLEAVE X]: X more attack dice per five models in the target, only if the weapon has one target."""
    return If(single_target, per_five * _fives(models_in_target), 0)


@rule("24.07", "24.27")
def close_quarters_selection_is_legal(selected_close_quarters: Any, selected_other_ranged: Any,
                                      monster_or_vehicle: Any, close_quarters_shooting: Any) -> Any:
    """With another shooting type, a non-MONSTER/VEHICLE model picks [CLOSE-QUARTERS] weapons or others, not both.

    [PISTOL] is the same ability (24.27).
    """
    return Or(monster_or_vehicle, close_quarters_shooting, Not(And(selected_close_quarters, selected_other_ranged)))


@rule("24.10")
def devastating_mortal_wounds(critical_wound: Any, damage: Any) -> Any:
    """A critical wound from a [DEVASTATING WOUNDS] weapon ends the sequence and inflicts D mortal wounds."""
    return If(critical_wound, damage, 0)


@rule("24.10")
def devastating_wounds_models_damaged(critical_wounds: Any) -> Any:
    """Those mortal wounds can damage at most one model per critical wound; the rest are lost."""
    return critical_wounds


@rule("24.11")
def extra_attacks_selection_is_legal(extra_weapons: int, extra_selected: int, other_melee: int,
                                     other_selected: int) -> bool:
    """A model fights with all its [EXTRA ATTACKS] weapons plus one other melee weapon if it has one."""
    return extra_selected == extra_weapons and other_selected == (1 if other_melee else 0)


@rule("24.12")
def wound_is_lost(roll: Any, feel_no_pain: Any) -> Any:
    """Feel No Pain X+: each wound the model would lose is not lost on a roll of X or more."""
    return roll < feel_no_pain


@rule("24.12")
def chance_wound_is_lost(feel_no_pain: int | None) -> Fraction:
    """The exact chance one wound is lost against Feel No Pain X+ (1 without the ability)."""
    if feel_no_pain is None:
        return Fraction(1)
    return dice.probability(dice.d6(), lambda roll: wound_is_lost(roll, feel_no_pain))


@rule("24.15")
def hazard_rolls_after_attacking(hazardous_weapons_selected: Any) -> Any:
    """One hazard roll (06.03) per [HAZARDOUS] weapon selected, after the unit's attacks."""
    return hazardous_weapons_selected


@rule("24.16")
def heavy_hit_modifier(own_shooting_phase: Any, unengaged: Any, set_up_this_turn: Any, moved_inches: Any) -> Any:
    """[HEAVY]: +1 to hit in your Shooting phase if unengaged, not set up this turn, and no model moved over 3"."""
    return If(And(own_shooting_phase, unengaged, Not(set_up_this_turn), moved_inches <= 3), 1, 0)


@rule("24.18")
def cover_applies(target_has_cover: Any, ignores_cover: Any) -> Any:
    """[IGNORES COVER]: the target cannot have the benefit of cover against that attack, from any source."""
    return And(target_has_cover, Not(ignores_cover))


@rule("24.19")
def may_use_indirect_shooting(has_indirect_fire_weapon: Any) -> Any:
    """A unit with an [INDIRECT FIRE] weapon can use indirect shooting (10.07)."""
    return has_indirect_fire_weapon


@rule("24.21")
def lance_wound_modifier(charged_this_turn: Any) -> Any:
    """[LANCE]: +1 to the wound roll if the attacking model's unit made a charge move this turn."""
    return If(charged_this_turn, 1, 0)


@rule("24.23")
def lethal_hit_wounds_automatically(critical_hit: Any, choose_automatic: Any = True) -> Any:
    """[LETHAL HITS]: a critical hit can automatically wound; then no wound roll (so no critical wound) is made."""
    return And(critical_hit, choose_automatic)


@rule("24.25")
def melta_damage_bonus(per_melta: Any, within_half_range: Any) -> Any:
    """[MELTA X]: +X to the weapon's D if the target was within half range when selected."""
    return If(within_half_range, per_melta, 0)


@rule("24.26")
def may_select_one_shot(already_used_this_battle: Any) -> Any:
    """A [ONE SHOT] weapon can only be selected to make attacks once per battle."""
    return Not(already_used_this_battle)


@rule("24.28")
def precision_current_group(characters_visible: Sequence[int], choose: bool = True) -> int | None:
    """[PRECISION]: the attacker may make a visible CHARACTER group the current allocation group.

    Returns the chosen group index (default: the first visible one), or None.
    """
    return characters_visible[0] if characters_visible and choose else None


@rule("24.29")
def psychic_modifiers(skill_modifier: Any, hit_modifier: Any, ignore_harmful: Any = True) -> tuple[Any, Any]:
    """[PSYCHIC]: any or all modifiers to BS/WS and to the hit roll can be ignored.

    Default choice: ignore the harmful ones (a worse skill, a negative hit modifier).
    """
    return (If(And(ignore_harmful, skill_modifier > 0), 0, skill_modifier),
            If(And(ignore_harmful, hit_modifier < 0), 0, hit_modifier))


@rule("24.30")
def rapid_fire_extra_attacks(per_weapon: Any, within_half_range: Any) -> Any:
    """[RAPID FIRE X]: X more attack dice if the target was within half range when selected."""
    return If(within_half_range, per_weapon, 0)


@rule("24.33")
def stealth_gives_cover(every_model_has_stealth: Any, ranged_attack: Any) -> Any:
    """Stealth: if every model has it, the unit has the benefit of cover against ranged attacks."""
    return And(every_model_has_stealth, ranged_attack)


@rule("24.36")
def sustained_hits(critical_hit: Any, extra: Any) -> Any:
    """[SUSTAINED HITS X]: a critical hit scores X additional hits (so 1 + X hits in all)."""
    return If(critical_hit, 1 + extra, 0)


@rule("24.37")
def torrent_hits_automatically(has_torrent: Any) -> Any:
    """[TORRENT]: each attack automatically hits the target (no hit roll, so no critical hit)."""
    return has_torrent


@rule("24.38")
def twin_linked_rerolls(first_result_failed: Any, policy_all_non_critical: Any = False, critical: Any = False) -> Any:
    """[TWIN-LINKED]: the wound roll can be re-rolled; by default only a failed one is.

    With the policy "all non-critical", a successful non-critical wound is re-rolled too (fishing for criticals).
    """
    return Or(first_result_failed, And(policy_all_non_critical, Not(critical)))
