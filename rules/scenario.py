"""Attack scenarios for the exact outcome calculator: the JSON schema, read strictly.

Unknown keys and impossible values are errors naming the place
("weapons[0].AP must be 0 or negative"), so a typo never silently changes an
answer. Player choices the rules leave open have documented defaults in
``Choices``, which a scenario can override under "choices".
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from rules import dice
from rules.core import core_abilities


class ScenarioError(ValueError):
    """A scenario that the rules could not describe; the message names the place."""


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


_WEAPON_KEYS = {"name", "count", "A", "skill", "S", "AP", "D", "abilities", "melee"}
_MODEL_KEYS = {"name", "count", "T", "Sv", "W", "InSv", "FNP", "character", "role"}
_TOP_KEYS = {"weapons", "target", "context", "choices"}
_TARGET_KEYS = {"keywords", "models", "abilities"}


def _mapping(value: Any, where: str, allowed: set[str], required: set[str]) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise ScenarioError(f"{where} must be an object")
    unknown = sorted(set(value) - allowed)
    if unknown:
        raise ScenarioError(f"{where}.{unknown[0]} is not a known key (expected one of {', '.join(sorted(allowed))})")
    missing = sorted(required - set(value))
    if missing:
        raise ScenarioError(f"{where} lacks {missing[0]!r}")
    return value


def _int(value: Any, where: str, low: int, high: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ScenarioError(f"{where} must be a whole number, not {value!r}")
    if value < low or (high is not None and value > high):
        bounds = f"from {low} to {high}" if high is not None else f"at least {low}"
        raise ScenarioError(f"{where} must be {bounds}, not {value}")
    return value


def _bool(value: Any, where: str) -> bool:
    if not isinstance(value, bool):
        raise ScenarioError(f"{where} must be true or false, not {value!r}")
    return value


def _dice(value: Any, where: str) -> dice.DiceExpression:
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise ScenarioError(f"{where} must be a number or a dice expression such as D6+1")
    try:
        expression = dice.parse(value)
    except dice.DiceError as error:
        raise ScenarioError(f"{where}: {error}") from None
    if expression.maximum < 1:
        raise ScenarioError(f"{where} must be able to be at least 1")
    return expression


def _name(value: Any, where: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ScenarioError(f"{where} must be a non-empty string")
    return value.strip()


def read_weapon(data: Any, where: str) -> WeaponSpec:
    data = _mapping(data, where, _WEAPON_KEYS, {"name", "count", "A", "skill", "S", "AP", "D"})
    abilities_raw = data.get("abilities", [])
    if not isinstance(abilities_raw, list):
        raise ScenarioError(f"{where}.abilities must be a list of strings")
    abilities = []
    for i, text in enumerate(abilities_raw):
        if not isinstance(text, str):
            raise ScenarioError(f"{where}.abilities[{i}] must be a string")
        try:
            abilities.append(core_abilities.parse_ability(text))
        except core_abilities.AbilityError as error:
            raise ScenarioError(f"{where}.abilities[{i}]: {error}") from None
    ap = data["AP"]
    if isinstance(ap, bool) or not isinstance(ap, int) or ap > 0 or ap < -6:
        raise ScenarioError(f"{where}.AP must be 0 or a negative whole number down to -6, not {ap!r}")
    return WeaponSpec(
        name=_name(data["name"], f"{where}.name"),
        count=_int(data["count"], f"{where}.count", 1, 100),
        A=_dice(data["A"], f"{where}.A"),
        skill=_int(data["skill"], f"{where}.skill", 2, 6),
        S=_int(data["S"], f"{where}.S", 1, 30),
        AP=ap,
        D=_dice(data["D"], f"{where}.D"),
        abilities=tuple(abilities),
        melee=_bool(data.get("melee", False), f"{where}.melee"),
    )


def read_model(data: Any, where: str) -> ModelSpec:
    data = _mapping(data, where, _MODEL_KEYS, {"name", "count", "T", "Sv", "W"})
    insv = data.get("InSv")
    fnp = data.get("FNP")
    role = data.get("role", "bodyguard")
    if role not in {"bodyguard", "leader", "support"}:
        raise ScenarioError(f"{where}.role must be bodyguard, leader or support, not {role!r}")
    return ModelSpec(
        name=_name(data["name"], f"{where}.name"),
        count=_int(data["count"], f"{where}.count", 1, 40),
        T=_int(data["T"], f"{where}.T", 1, 30),
        Sv=_int(data["Sv"], f"{where}.Sv", 2, 7),
        W=_int(data["W"], f"{where}.W", 1, 40),
        InSv=None if insv is None else _int(insv, f"{where}.InSv", 2, 6),
        FNP=None if fnp is None else _int(fnp, f"{where}.FNP", 2, 6),
        character=_bool(data.get("character", False), f"{where}.character"),
        role=role,
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
            if value not in {"normal", "assault", "close-quarters", "indirect", "snap"}:
                raise ScenarioError(f"{here} must be normal, assault, close-quarters, indirect or snap, not {value!r}")
            values[key] = value
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
            if value not in options[key]:
                raise ScenarioError(f"{here} must be one of {', '.join(sorted(options[key]))}, not {value!r}")
            values[key] = value
        elif key == "precision":
            values[key] = _bool(value, here)
        elif key == "allocation_order":
            if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                raise ScenarioError(f"{here} must be a list of model names")
            unknown = [v for v in value if v not in group_names]
            if unknown:
                raise ScenarioError(f"{here} names {unknown[0]!r}, which is not a model in the target")
            values[key] = tuple(value)
    return Choices(**values)


def read_scenario(data: Any, source: str = "scenario") -> Scenario:
    """Read and validate a scenario mapping (parsed JSON); errors start with ``source``."""
    try:
        top = _mapping(data, "scenario", _TOP_KEYS, {"weapons", "target"})
        weapons = top["weapons"]
        if not isinstance(weapons, list) or not weapons:
            raise ScenarioError("weapons must be a non-empty list")
        target = _mapping(top["target"], "target", _TARGET_KEYS, {"models"})
        models = target["models"]
        if not isinstance(models, list) or not models:
            raise ScenarioError("target.models must be a non-empty list")
        keywords = target.get("keywords", [])
        if not isinstance(keywords, list) or not all(isinstance(k, str) for k in keywords):
            raise ScenarioError("target.keywords must be a list of strings")
        abilities = target.get("abilities", [])
        if not isinstance(abilities, list) or not all(isinstance(k, str) for k in abilities):
            raise ScenarioError("target.abilities must be a list of strings")
        read_models = tuple(read_model(m, f"target.models[{i}]") for i, m in enumerate(models))
        names = [m.name for m in read_models]
        if len(set(names)) != len(names):
            raise ScenarioError("target.models names must be distinct")
        return Scenario(
            weapons=tuple(read_weapon(w, f"weapons[{i}]") for i, w in enumerate(weapons)),
            target_keywords=tuple(k.upper() for k in keywords),
            target_abilities=tuple(a.upper() for a in abilities),
            models=read_models,
            context=read_context(top.get("context", {}), "context"),
            choices=read_choices(top.get("choices", {}), "choices", set(names)),
        )
    except ScenarioError as error:
        raise ScenarioError(f"{source}: {error}") from None
