"""Reading a 999.m41 scenario whose target is a vehicle: the weapons, the vehicle and the facing attacked.

The mapping is read strictly: every error is one sentence naming its place ("target.vehicle.front must be a whole
number from 1 to 14"). The weapons' keys are the shared m41 scenario's ("name", "count", "type", "S", "AP", "BS"
or "WS" and "A", "rules"); the target is {"vehicle": {"name", "front", "side", "rear", "HP", "types", and for a
walker "WS"; "speed" (how far it moved: "stationary", "half" or "full") and "flat_out"}, "facing"}.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from rules.m41 import weapons as m41_weapons
from rules.m41.vehicles import NO_AP, Facing, Speed
from rules.m41.weapons import WeaponType

#: Universal special rules that change an attack on a vehicle (the rest the calculator accepts and, as the
#: document has them, they do nothing against a vehicle: poison and sniper wound, the others save).
VEHICLE_RULES = frozenset({"Twin-linked", "Armour Bane", "Melta", "Lance", "Tank Hunters", "Rending", "Haywire"})
NO_EFFECT_ON_VEHICLES = frozenset({"Poisoned", "Sniper", "Instant Death", "Flesh Bane", "Wicked", "Sunder",
                                   "Overpower", "Cleave", "Shred", "Deadly", "Ignores Cover", "Pistol"})
#: Area weapons hit a vehicle by where their marker or template lands (rules40k template), not by a to-hit roll.
AREA_RULES = frozenset({"Blast", "Large Blast", "Barrage", "Template"})
VEHICLE_TYPES = frozenset({"tank", "skimmer", "walker", "fast", "heavy", "open-topped", "transport", "flyer"})
SPEEDS = {"stationary": Speed.STATIONARY, "half": Speed.HALF, "full": Speed.FULL}
FACINGS = {"front": Facing.FRONT, "side": Facing.SIDE, "rear": Facing.REAR}
MAX_ARMOUR = 14  # "Armour Values range from 10 to 14"; lower values are accepted for damaged or odd profiles


@dataclass(frozen=True)
class VehicleWeapon:
    """One line of weapons: how many models use it and its profile (AP '-' is NO_AP, a rend is negative)."""

    name: str
    count: int
    kind: WeaponType
    shots: int
    stationary_shots: int
    strength: int
    ap: int
    skill: int  # BS for a ranged weapon, WS for a melee one
    attacks: int = 0  # a melee weapon's A
    rules: frozenset[str] = frozenset()


@dataclass(frozen=True)
class VehicleTarget:
    name: str
    front: int
    side: int
    rear: int
    hull_points: int
    facing: Facing
    types: frozenset[str] = frozenset()
    weapon_skill: int | None = None
    speed: Speed = Speed.STATIONARY
    flat_out: bool = False


@dataclass(frozen=True)
class VehicleContext:
    moved: bool = False
    within_half_range: bool = False
    charged: bool = False


@dataclass(frozen=True)
class VehicleScenario:
    weapons: tuple[VehicleWeapon, ...]
    target: VehicleTarget
    context: VehicleContext


def is_vehicle_scenario(data: Any) -> bool:
    """Whether a scenario mapping's target is a vehicle (so the vehicle calculator answers it)."""
    return isinstance(data, Mapping) and isinstance(data.get("target"), Mapping) and "vehicle" in data["target"]


def _mapping(value: Any, where: str) -> Mapping:
    if not isinstance(value, Mapping):
        raise ValueError(f"{where} must be a mapping (an object with keys)")
    return value


def _keys(value: Mapping, where: str, allowed: set[str], required: set[str]) -> None:
    unknown = sorted(set(map(str, value)) - allowed)
    if unknown:
        raise ValueError(f"{where}.{unknown[0]} is not a key here (these are: {', '.join(sorted(allowed))})")
    missing = sorted(required - set(value))
    if missing:
        raise ValueError(f"{where} has no {missing[0]!r}")


def _whole(value: Any, where: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ValueError(f"{where} must be a whole number from {low} to {high}")
    return value


def _flag(value: Any, where: str) -> bool:
    if not isinstance(value, bool):
        raise ValueError(f"{where} must be true or false")
    return value


def _text(value: Any, where: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ValueError(f"{where} must be a non-empty text")
    return value


def _ap(value: Any, where: str) -> int:
    if value == "-":
        return NO_AP
    if isinstance(value, int) and not isinstance(value, bool) and (1 <= value <= 6 or -3 <= value <= -1):
        return value
    raise ValueError(f"{where} must be 1 to 6, '-' or a rend of -1 to -3")


def _rules(value: Any, where: str) -> frozenset[str]:
    if not isinstance(value, list):
        raise ValueError(f"{where} must be a list of universal special rules")
    names = set()
    for i, name in enumerate(value):
        name = _text(name, f"{where}[{i}]")
        base = name.split("(")[0].strip()
        if base in AREA_RULES:
            raise ValueError(f"{where}[{i}]: a {base} weapon hits a vehicle by where its marker lands; the vehicle "
                             "calculator rolls to hit (use rules40k template for the marker)")
        if base not in VEHICLE_RULES | NO_EFFECT_ON_VEHICLES:
            known = ", ".join(sorted(VEHICLE_RULES | NO_EFFECT_ON_VEHICLES))
            raise ValueError(f"{where}[{i}]: {name!r} is not a rule the vehicle calculator knows ({known})")
        names.add(base)
    return frozenset(names)


def _weapon(value: Any, where: str) -> VehicleWeapon:
    value = _mapping(value, where)
    _keys(value, where, {"name", "count", "type", "S", "AP", "BS", "WS", "A", "rules"}, {"count", "type", "S", "AP"})
    type_text = _text(value["type"], f"{where}.type")
    try:
        kind, shots, stationary = m41_weapons.read_type(type_text)
    except ValueError as error:
        raise ValueError(f"{where}.type: {error}") from None
    melee = kind is WeaponType.MELEE
    skill_key = "WS" if melee else "BS"
    if skill_key not in value:
        raise ValueError(f"{where} has no {skill_key!r} (a {'melee' if melee else 'ranged'} weapon needs it)")
    other = "BS" if melee else "WS"
    if other in value or (not melee and "A" in value):
        wrong = other if other in value else "A"
        raise ValueError(f"{where}.{wrong} is not for a {'melee' if melee else 'ranged'} weapon")
    if melee and "A" not in value:
        raise ValueError(f"{where} has no 'A' (a melee weapon needs the attacks of each model)")
    return VehicleWeapon(
        name=str(value.get("name", f"weapon {where}")), count=_whole(value["count"], f"{where}.count", 1, 1000),
        kind=kind, shots=shots, stationary_shots=stationary, strength=_whole(value["S"], f"{where}.S", 1, 10),
        ap=_ap(value["AP"], f"{where}.AP"), skill=_whole(value[skill_key], f"{where}.{skill_key}", 1, 10),
        attacks=_whole(value["A"], f"{where}.A", 1, 10) if melee else 0,
        rules=_rules(value.get("rules", []), f"{where}.rules"))


def read_vehicle_target(value: Any, where: str = "target") -> VehicleTarget:
    """The vehicle target and the facing attacked, from the scenario's "target" mapping."""
    value = _mapping(value, where)
    _keys(value, where, {"vehicle", "facing"}, {"vehicle", "facing"})
    if value["facing"] not in FACINGS:
        raise ValueError(f"{where}.facing must be front, side or rear")
    here = f"{where}.vehicle"
    vehicle = _mapping(value["vehicle"], here)
    _keys(vehicle, here, {"name", "front", "side", "rear", "HP", "types", "WS", "speed", "flat_out"},
          {"front", "side", "rear", "HP"})
    types = vehicle.get("types", [])
    if not isinstance(types, list) or any(t not in VEHICLE_TYPES for t in types):
        raise ValueError(f"{here}.types must be a list of vehicle types ({', '.join(sorted(VEHICLE_TYPES))})")
    speed = vehicle.get("speed", "stationary")
    if speed not in SPEEDS:
        raise ValueError(f"{here}.speed must be stationary, half or full")
    weapon_skill = vehicle.get("WS")
    return VehicleTarget(
        name=str(vehicle.get("name", "vehicle")),
        front=_whole(vehicle["front"], f"{here}.front", 1, MAX_ARMOUR),
        side=_whole(vehicle["side"], f"{here}.side", 1, MAX_ARMOUR),
        rear=_whole(vehicle["rear"], f"{here}.rear", 1, MAX_ARMOUR),
        hull_points=_whole(vehicle["HP"], f"{here}.HP", 1, 20), facing=FACINGS[value["facing"]],
        types=frozenset(types),
        weapon_skill=None if weapon_skill is None else _whole(weapon_skill, f"{here}.WS", 1, 10),
        speed=SPEEDS[speed], flat_out=_flag(vehicle.get("flat_out", False), f"{here}.flat_out"))


def read_vehicle_scenario(data: Any) -> VehicleScenario:
    """A whole vehicle scenario: weapons, the vehicle target and the context."""
    data = _mapping(data, "the scenario")
    _keys(data, "the scenario", {"weapons", "target", "context"}, {"weapons", "target"})
    weapons = data["weapons"]
    if not isinstance(weapons, list) or not weapons:
        raise ValueError("weapons must be a non-empty list")
    read = tuple(_weapon(w, f"weapons[{i}]") for i, w in enumerate(weapons))
    context = _mapping(data.get("context", {}), "context")
    _keys(context, "context", {"moved", "within_half_range", "charged"}, set())
    return VehicleScenario(
        weapons=read, target=read_vehicle_target(data["target"]),
        context=VehicleContext(**{key: _flag(v, f"context.{key}") for key, v in context.items()}))
