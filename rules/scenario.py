"""Attack scenarios for the exact outcome calculator: the JSON schema, read strictly.

Unknown keys, values of the wrong JSON type and impossible values are errors
naming the place ("weapons[0].AP must be 0 or negative"), so a typo never
silently changes an answer. Every number has a documented range (the constants
below, tabled in the README), which also keeps every accepted scenario small
enough to calculate. Player choices the rules leave open have documented
defaults in ``Choices``, which a scenario can override under "choices".
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Mapping

from rules import dice
from rules.core import core_abilities
from rules.messages import cut, shown


class ScenarioError(ValueError):
    """A scenario that the rules could not describe; the message names the place."""


# The schema's ranges, in one place (README "Attack scenarios" tables them). Besides what the rules
# allow, they bound the work: attack dice, dice per roll and models in the target.
MAX_WEAPONS = 50  # entries in "weapons"
WEAPON_COUNT = (1, 100)  # models firing one weapon entry
MODEL_COUNT = (1, 40)  # models of one target.models entry
W_RANGE = (1, 40)  # a model's Wounds characteristic
MAX_TARGET_MODELS = 100  # models in the whole target (the sum of the counts)
MAX_ATTACKS = 1000  # attack dice the weapons can roll at most, all together (see most_attacks)
MAX_HITS = 1000  # hits they can score at most, [SUSTAINED HITS] included (see most_hits)
MAX_TARGET_WOUNDS = 1000  # wounds of the whole target (the sum of count x W)
DICE_RESULT = (1, 60)  # every result A or D can roll
MAX_DICE = 6  # dice in one A or D expression
DICE_CONSTANT = (-6, 60)  # the number A or D adds ("2D6-1"; "D6-1" is out anyway: it can roll 0)
ABILITY_VALUE = (1, 20)  # X of [RAPID FIRE X], [SUSTAINED HITS X], [MELTA X], [BLAST X], [CLEAVE X]
DICE_ABILITIES = frozenset({"SUSTAINED HITS"})  # abilities whose X may be dice: the calculator rolls only these
ATTACK_ABILITIES = ("RAPID FIRE", "BLAST", "CLEAVE")  # abilities that add attack dice (24.30, 24.05, 24.06)
TARGET_ABILITIES = frozenset({"STEALTH"})  # target abilities the calculator reads (24.33)
#: The earlier edition's weapon types (its five ranged types and Melee): "type" of a weapon, for --ruleset ninth.
WEAPON_TYPES = ("ASSAULT", "HEAVY", "RAPID FIRE", "GRENADE", "PISTOL", "MELEE")
MAX_TEXT = 100  # characters in a name, keyword or ability
MAX_LIST = 50  # entries in a keywords or abilities list


@dataclass(frozen=True)
class WeaponSpec:
    name: str
    count: int
    A: dice.DiceExpression
    skill: int
    S: int
    AP: int
    D: dice.DiceExpression
    abilities: tuple[core_abilities.Ability, ...]
    melee: bool
    type: str | None = None  # the earlier edition's weapon type (WEAPON_TYPES), upper case; no other ruleset has one


@dataclass(frozen=True)
class ModelSpec:
    name: str
    count: int
    T: int
    Sv: int
    W: int
    InSv: int | None
    FNP: int | None
    character: bool
    role: str  # "bodyguard", or "leader"/"support" inside an attached unit (19.02)


@dataclass(frozen=True)
class Context:
    target_within_half_range: bool = False
    target_has_benefit_of_cover: bool = False
    attacker_charged: bool = False
    attacker_moved_inches: int = 0
    attacker_set_up_this_turn: bool = False
    attacker_engaged: bool = False
    plunging_fire: bool = False
    hit_modifier: int = 0
    wound_modifier: int = 0
    # Optional extras beyond the schema, all defaulting to "does not apply":
    shooting_type: str = "normal"  # normal, assault, close-quarters, indirect, snap
    target_engaged: bool = False  # the target is engaged (17.03 for a MONSTER/VEHICLE target)
    attacker_monster_or_vehicle: bool = False  # 10.06 penalty for MONSTER/VEHICLE models
    indirect_stationary_and_spotted: bool = False  # 10.07: remained stationary and target visible to a friend
    attacker_infantry: bool = False  # the firing model is INFANTRY (the earlier edition's Heavy weapons)
    own_shooting_phase: bool = True  # [HEAVY] and 17.03 apply in your Shooting phase


@dataclass(frozen=True)
class Choices:
    """Player choices the rules leave open, with the calculator's documented defaults."""

    lethal_hits: str = "auto-wound"  # or "roll": roll to wound hoping for a critical wound
    twin_linked: str = "failed"  # re-roll failed wound rolls only; or "non-critical"
    allocation_order: tuple[str, ...] = ()  # group names in the defender's order; default: listed order
    precision: bool = True  # a [PRECISION] weapon picks the first visible CHARACTER group
    psychic_ignores: str = "harmful"  # [PSYCHIC]: ignore harmful modifiers; or "none"


@dataclass(frozen=True)
class Scenario:
    weapons: tuple[WeaponSpec, ...]
    target_keywords: tuple[str, ...]
    target_abilities: tuple[str, ...]
    models: tuple[ModelSpec, ...]
    context: Context = field(default_factory=Context)
    choices: Choices = field(default_factory=Choices)


_WEAPON_KEYS = {"name", "count", "A", "skill", "S", "AP", "D", "abilities", "melee", "type"}
_MODEL_KEYS = {"name", "count", "T", "Sv", "W", "InSv", "FNP", "character", "role"}
_TOP_KEYS = {"weapons", "target", "context", "choices"}
_TARGET_KEYS = {"keywords", "models", "abilities"}
_PLAIN_KEY = re.compile(r"[A-Za-z0-9_-]{1,60}", re.ASCII)


def _mapping(value: Any, where: str, allowed: set[str], required: set[str]) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise ScenarioError(f"{where} must be an object, not {shown(value)}")
    unknown = sorted((key for key in value if key not in allowed), key=str)
    if unknown:
        key = cut(unknown[0], 30) if isinstance(unknown[0], str) and _PLAIN_KEY.fullmatch(unknown[0]) \
            else shown(unknown[0], 30)  # cut: with the keys it could be, the sentence stays one short line
        raise ScenarioError(f"{where}.{key} is not a known key (expected one of {', '.join(sorted(allowed))})")
    missing = sorted(required - set(value))
    if missing:
        raise ScenarioError(f"{where} lacks {missing[0]!r}")
    return value


def _list(value: Any, where: str, most: int, least: int = 0) -> list:
    if not isinstance(value, list):
        raise ScenarioError(f"{where} must be a list, not {shown(value)}")
    if not least <= len(value) <= most:
        raise ScenarioError(f"{where} must have from {least} to {most} entries, not {len(value)}")
    return value


def _text(value: Any, where: str) -> str:
    if not isinstance(value, str):
        raise ScenarioError(f"{where} must be a string, not {shown(value)}")
    if len(value) > MAX_TEXT:
        raise ScenarioError(f"{where} must be at most {MAX_TEXT} characters, not {len(value)} ({shown(value)})")
    if any("\ud800" <= c <= "\udfff" for c in value):  # JSON's "\udc80" escape: no text can be printed from it
        raise ScenarioError(f"{where} holds a lone surrogate ({shown(value)}), which is not a character")
    return value


def _choice(value: Any, where: str, options: Any) -> str:
    """One of a few fixed words; the type is checked first (a list is never "in" a set of words)."""
    if not isinstance(value, str) or value not in options:
        raise ScenarioError(f"{where} must be one of {', '.join(sorted(options))}, not {shown(value)}")
    return value


def _int(value: Any, where: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ScenarioError(f"{where} must be a whole number, not {shown(value)}")
    if not low <= value <= high:
        raise ScenarioError(f"{where} must be from {low} to {high}, not {shown(value)}")
    return value


def _bool(value: Any, where: str) -> bool:
    if not isinstance(value, bool):
        raise ScenarioError(f"{where} must be true or false, not {shown(value)}")
    return value


def _dice(value: Any, where: str) -> dice.DiceExpression:
    """A or D: a whole number or a dice expression, every result of which is in DICE_RESULT."""
    low, high = DICE_RESULT
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise ScenarioError(f"{where} must be a whole number or a dice expression such as D6+1, not {shown(value)}")
    if isinstance(value, int):
        return dice.parse(_int(value, where, low, high))
    try:
        expression = dice.parse(_text(value, where))
    except dice.DiceError as error:
        raise ScenarioError(f"{where}: {error}") from None
    if expression.count == 0:  # a number written as a string: "3"
        if not low <= expression.bonus <= high:
            raise ScenarioError(f"{where} must be from {low} to {high}, not {shown(value)}")
    elif expression.count > MAX_DICE:
        raise ScenarioError(f"{where} {shown(value)} rolls more than {MAX_DICE} dice")
    elif not DICE_CONSTANT[0] <= expression.bonus <= DICE_CONSTANT[1]:
        raise ScenarioError(f"{where} {shown(value)} adds a number out of {DICE_CONSTANT[0]} to {DICE_CONSTANT[1]}")
    elif expression.minimum < low:
        raise ScenarioError(f"{where} {shown(value)} can roll 0 or less (as low as {expression.minimum}); "
                            f"every result must be from {low} to {high}")
    elif expression.maximum > high:
        raise ScenarioError(f"{where} {shown(value)} can roll {expression.maximum}; every result must be "
                            f"from {low} to {high}")
    return expression


def _name(value: Any, where: str) -> str:
    if not _text(value, where).strip():
        raise ScenarioError(f"{where} must be a non-empty string")
    return value.strip()


def _ability(value: Any, where: str) -> core_abilities.Ability:
    """One weapon ability: a form of chapter 24 whose X the calculator can use, within ABILITY_VALUE."""
    try:
        ability = core_abilities.parse_ability(_text(value, where))
    except core_abilities.AbilityError as error:
        raise ScenarioError(f"{where}: {error}") from None
    x = ability.value
    if ability.name in ("ANTI", "FEEL NO PAIN") or x is None:
        return ability  # no X, or an X+ roll that parse_ability already held to 2+ to 6+
    low, high = ABILITY_VALUE
    if isinstance(x, dice.DiceExpression):
        if ability.name not in DICE_ABILITIES:
            raise ScenarioError(f"{where}: {ability.name} takes a number from {low} to {high} here, not dice "
                                f"({shown(value)}); the calculator rolls dice only for "
                                f"{', '.join(sorted(DICE_ABILITIES))}")
        if x.maximum > high:
            raise ScenarioError(f"{where}: {shown(value)} can roll {x.maximum}; every result of "
                                f"{ability.name} X must be from {low} to {high}")
    elif not low <= x <= high:
        raise ScenarioError(f"{where}: {ability.name} X must be from {low} to {high}, not {x} ({shown(value)})")
    return ability


def most_attacks(weapon: WeaponSpec, models_in_target: int) -> int:
    """The most attack dice one weapon entry can roll: count x (A's highest result + the most its abilities add).

    Every instance counts at its highest X and whatever the context, so the bound holds for any
    choice the calculator makes (24.02 picks one instance; half range and one target may not apply).
    A weapon with the earlier edition's type: A's highest result (at least 3 with Blast), doubled for Rapid Fire.
    """
    if weapon.type is not None:
        blast = any(ability.name == "BLAST" for ability in weapon.abilities)
        return weapon.count * max(weapon.A.maximum, 3 if blast else 0) * (2 if weapon.type == "RAPID FIRE" else 1)
    most = {name: 0 for name in ATTACK_ABILITIES}
    for ability in weapon.abilities:
        if ability.name in most:
            x = ability.value
            most[ability.name] = max(most[ability.name], x.maximum if isinstance(x, dice.DiceExpression) else x)
    extra = (core_abilities.rapid_fire_extra_attacks(most["RAPID FIRE"], True)
             + core_abilities.blast_extra_attacks(models_in_target, most["BLAST"])
             + core_abilities.cleave_extra_attacks(models_in_target, most["CLEAVE"], True))
    return weapon.count * (weapon.A.maximum + extra)


def most_hits(weapon: WeaponSpec, models_in_target: int) -> int:
    """The most hits one weapon entry can score: each attack hits once plus its [SUSTAINED HITS] extra hits."""
    extra = max((x.maximum if isinstance(x, dice.DiceExpression) else x
                 for x in (a.value for a in weapon.abilities if a.name == "SUSTAINED HITS")), default=0)
    return most_attacks(weapon, models_in_target) * (1 + extra)


def read_weapon(data: Any, where: str) -> WeaponSpec:
    data = _mapping(data, where, _WEAPON_KEYS, {"name", "count", "A", "skill", "S", "AP", "D"})
    abilities_raw = _list(data.get("abilities", []), f"{where}.abilities", MAX_LIST)
    name = _name(data["name"], f"{where}.name")
    count = _int(data["count"], f"{where}.count", *WEAPON_COUNT)
    attacks = _dice(data["A"], f"{where}.A")
    skill = _int(data["skill"], f"{where}.skill", 2, 6)
    strength = _int(data["S"], f"{where}.S", 1, 30)
    ap = data["AP"]
    if isinstance(ap, bool) or not isinstance(ap, int) or ap > 0 or ap < -6:
        raise ScenarioError(f"{where}.AP must be 0 or a negative whole number down to -6, not {shown(ap)}")
    damage = _dice(data["D"], f"{where}.D")
    abilities = tuple(_ability(text, f"{where}.abilities[{i}]") for i, text in enumerate(abilities_raw))
    weapon_type = None
    if "type" in data:
        given = " ".join(_text(data["type"], f"{where}.type").upper().split())
        if given not in WEAPON_TYPES:
            raise ScenarioError(f"{where}.type must be one of Assault, Heavy, Rapid Fire, Grenade, Pistol, Melee "
                                f"(the earlier edition's weapon types), not {shown(data['type'])}")
        weapon_type = given
    melee = _bool(data.get("melee", weapon_type == "MELEE"), f"{where}.melee")
    if weapon_type is not None and melee != (weapon_type == "MELEE"):
        raise ScenarioError(f"{where}: type {shown(data['type'])} and melee {str(melee).lower()} disagree (only a "
                            "Melee weapon is melee)")
    for i, ability in enumerate(abilities):
        if ability.name in core_abilities.NOT_WEAPON_ABILITIES:
            raise ScenarioError(f"{where}.abilities[{i}]: {ability.name} is a unit's or model's ability, not a "
                                "weapon's (24.01: weapon abilities are the ones in square brackets)")
        if melee and ability.name in core_abilities.RANGED_ONLY_ABILITIES:
            raise ScenarioError(f"{where}.abilities[{i}]: [{ability.name}] only acts when a weapon shoots, and "
                                "this weapon is melee")
    return WeaponSpec(name=name, count=count, A=attacks, skill=skill, S=strength, AP=ap, D=damage,
                      abilities=abilities, melee=melee, type=weapon_type)


def read_model(data: Any, where: str) -> ModelSpec:
    data = _mapping(data, where, _MODEL_KEYS, {"name", "count", "T", "Sv", "W"})
    insv = data.get("InSv")
    fnp = data.get("FNP")
    return ModelSpec(
        name=_name(data["name"], f"{where}.name"),
        count=_int(data["count"], f"{where}.count", *MODEL_COUNT),
        T=_int(data["T"], f"{where}.T", 1, 30),
        Sv=_int(data["Sv"], f"{where}.Sv", 2, 7),
        W=_int(data["W"], f"{where}.W", *W_RANGE),
        InSv=None if insv is None else _int(insv, f"{where}.InSv", 2, 6),
        FNP=None if fnp is None else _int(fnp, f"{where}.FNP", 2, 6),
        character=_bool(data.get("character", False), f"{where}.character"),
        role=_choice(data.get("role", "bodyguard"), f"{where}.role", ("bodyguard", "leader", "support")),
    )


def read_context(data: Any, where: str) -> Context:
    fields = Context.__dataclass_fields__
    data = _mapping(data, where, set(fields), set())
    values: dict[str, Any] = {}
    for key, value in data.items():
        here = f"{where}.{key}"
        default = fields[key].default
        if isinstance(default, bool):
            values[key] = _bool(value, here)
        elif key in {"hit_modifier", "wound_modifier"}:
            values[key] = _int(value, here, -6, 6)
        elif key == "attacker_moved_inches":
            values[key] = _int(value, here, 0, 100)
        elif key == "shooting_type":
            values[key] = _choice(value, here, ("normal", "assault", "close-quarters", "indirect", "snap"))
    return Context(**values)


def read_choices(data: Any, where: str, group_names: set[str]) -> Choices:
    fields = Choices.__dataclass_fields__
    data = _mapping(data, where, set(fields), set())
    values: dict[str, Any] = {}
    options = {"lethal_hits": {"auto-wound", "roll"}, "twin_linked": {"failed", "non-critical"},
               "psychic_ignores": {"harmful", "none"}}
    for key, value in data.items():
        here = f"{where}.{key}"
        if key in options:
            values[key] = _choice(value, here, options[key])
        elif key == "precision":
            values[key] = _bool(value, here)
        elif key == "allocation_order":
            names = [_text(v, f"{here}[{i}]") for i, v in enumerate(_list(value, here, MAX_TARGET_MODELS))]
            unknown = [v for v in names if v not in group_names]
            if unknown:
                raise ScenarioError(f"{here} names {shown(unknown[0])}, which is not a model in the target")
            twice = [v for i, v in enumerate(names) if v in names[:i]]
            if twice:
                raise ScenarioError(f"{here} names {shown(twice[0])} twice: each group has one place in the order")
            values[key] = tuple(names)
    return Choices(**values)


def _target_ability(value: Any, where: str) -> str:
    ability = " ".join(_text(value, where).upper().split())
    if ability not in TARGET_ABILITIES:
        raise ScenarioError(f"{where} is {shown(value)}, which the calculator does not read (it knows "
                            f"{', '.join(sorted(TARGET_ABILITIES))})")
    return ability


def read_scenario(data: Any, source: str = "scenario") -> Scenario:
    """Read and validate a scenario mapping (parsed JSON); errors start with ``source``."""
    try:
        top = _mapping(data, "scenario", _TOP_KEYS, {"weapons", "target"})
        weapons = _list(top["weapons"], "weapons", MAX_WEAPONS, least=1)
        target = _mapping(top["target"], "target", _TARGET_KEYS, {"models"})
        models = _list(target["models"], "target.models", MAX_TARGET_MODELS, least=1)
        keywords = [_name(k, f"target.keywords[{i}]")
                    for i, k in enumerate(_list(target.get("keywords", []), "target.keywords", MAX_LIST))]
        abilities = [_target_ability(a, f"target.abilities[{i}]")
                     for i, a in enumerate(_list(target.get("abilities", []), "target.abilities", MAX_LIST))]
        read_models = tuple(read_model(m, f"target.models[{i}]") for i, m in enumerate(models))
        names = [m.name for m in read_models]
        if len(set(names)) != len(names):
            raise ScenarioError("target.models names must be distinct")
        models_in_target = sum(m.count for m in read_models)
        if models_in_target > MAX_TARGET_MODELS:
            raise ScenarioError(f"target.models have {models_in_target} models in all (the sum of their counts); "
                                f"at most {MAX_TARGET_MODELS}")
        wounds = sum(m.count * m.W for m in read_models)
        if wounds > MAX_TARGET_WOUNDS:
            raise ScenarioError(f"target.models have {wounds} wounds in all (the sum of count x W); "
                                f"at most {MAX_TARGET_WOUNDS}")
        read_weapons = tuple(read_weapon(w, f"weapons[{i}]") for i, w in enumerate(weapons))
        attacks = sum(most_attacks(w, models_in_target) for w in read_weapons)
        if attacks > MAX_ATTACKS:
            raise ScenarioError(f"weapons can roll up to {attacks} attack dice in all (count x the most A and "
                                f"[RAPID FIRE], [BLAST], [CLEAVE] can give); at most {MAX_ATTACKS}")
        hits = sum(most_hits(w, models_in_target) for w in read_weapons)
        if hits > MAX_HITS:
            raise ScenarioError(f"weapons can score up to {hits} hits in all (their attack dice, each with the most "
                                f"[SUSTAINED HITS] can add); at most {MAX_HITS}")
        return Scenario(
            weapons=read_weapons,
            target_keywords=tuple(k.upper() for k in keywords),
            target_abilities=tuple(abilities),
            models=read_models,
            context=read_context(top.get("context", {}), "context"),
            choices=read_choices(top.get("choices", {}), "choices", set(names)),
        )
    except ScenarioError as error:
        raise ScenarioError(f"{source}: {error}") from None
