"""999.m41 attack scenarios: the JSON/YAML schema ``rules40k calc --ruleset m41`` reads, read strictly.

The fields speak the document's terms (004): a weapon's type is its profile's type text, its AP is printed (1 to 6,
"-") or a rend (-1 to -3), its special rules are the document's names. Unknown keys, wrong types and values out of
range are errors of one sentence naming the place ("weapons[0].AP must be 1 to 6, '-' or a rend of -1 to -3"), so
a typo never silently changes an answer; every range is a constant below, which also keeps every accepted scenario
small enough to calculate exactly.

Top level: ``weapons`` (a list), ``target``, optional ``context``, ``choices`` and ``formation``.

- weapon: ``name``, ``count`` (models firing or fighting with it), ``type`` ("Rapid Fire 1", "Assault 2",
  "Heavy 1", "Salvo 2/4", "Pistol 1", "Ordnance 1" or "Melee"), ``S``, ``AP``, ``BS`` (ranged) or ``WS`` and ``A``
  (melee), optional ``rules``: universal special rules of the firing models and their weapon by the document's
  names, a value in brackets where the rule has one ("Twin-linked", "Poisoned (4+)", "Rending (5+)", "Sniper",
  "Instant Death", "Blast", ...).
- target: ``models`` (a list of ``name``, ``count``, ``WS``, ``T``, ``W``, ``Sv`` (2 to 6 or "-"), optional
  ``InSv``, ``FNP`` (the feel no pain save, 2 to 6), ``kind`` (a unit type of the document, lower case, or
  "character"), ``rules``) and ``cover`` (light, medium, heavy or null); or ``vehicle`` and ``facing``, which make
  the whole scenario a vehicle scenario, read by rules.m41.vehicle_scenario.
- context: ``moved`` (the firers moved this turn), ``within_half_range``, ``snap_shots``, ``charged`` (the attackers
  charged this turn), ``first_round`` (of the combat), ``to_hit_penalty`` (further to-hit penalties the scenario
  states, e.g. the cover chart's -1 row), all defaulting to false / 0.
- formation (needed exactly when a weapon is a Blast, Large Blast, Barrage or Template): where the target's models
  stand, as ``rules40k template`` reads it but without its ``weapon`` (the scenario's weapons say that): ``table``,
  ``firer``, ``aim`` (blasts and barrages), ``bases`` (one per target model), optional ``target_in_sight``
  (barrages) and ``narrow_width``, ``wide_width`` (a teardrop's). rules.m41.blast_attacks checks it.
- choices: the defender's ``allocation_order`` (model names in the order they take wounds; default: as listed,
  closest first).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from rules.m41.weapons import NO_AP, WeaponType, read_type
from rules.messages import shown
from rules.scenario import ScenarioError as _BaseScenarioError
from rules.scenario import _bool, _int, _list, _mapping, _name, _text


class ScenarioError(_BaseScenarioError):
    """An m41 scenario the rules could not describe; the message names the place."""


MAX_WEAPONS = 20  # entries in "weapons"
WEAPON_COUNT = (1, 50)  # models firing or fighting with one weapon entry
MODEL_COUNT = (1, 40)  # models of one target.models entry
MAX_TARGET_MODELS = 60  # models in the whole target
CHARACTERISTIC = (1, 10)  # WS, BS, S, T as the profile prints them
ATTACKS = (1, 10)  # A of a melee entry
W_RANGE = (1, 10)  # a model's wounds
SHOTS = (1, 10)  # the number after a weapon's type
SAVE = (2, 6)  # Sv, InSv, FNP
REND = (-3, -1)  # a negative AP
MAX_ATTACKS = 600  # attack dice all weapons can roll at most (before twin-linked's second die)
MAX_RULES = 20  # entries in one "rules" list
TO_HIT_PENALTY = (-3, 3)  # context.to_hit_penalty
#: Cover types as the cover chart names them (shooting/cover-bonuses), without the word "cover".
COVER_TYPES = ("light", "medium", "heavy")
#: Target kinds: the unit types chapter's types, and characters (characters chapter).
KINDS = ("infantry", "jump infantry", "jet pack infantry", "beasts", "monstrous creature", "dreadnought",
         "mobile weapons system", "battlesuit", "cavalry", "bikes", "jet bikes", "swarms", "character")
#: Weapon rules named in the weapons chapter rather than among the universal special rules.
WEAPON_WORDS = {"blast": "Blast", "large blast": "Large Blast", "barrage": "Barrage", "template": "Template"}

_RULE = re.compile(r"^\s*(.*?)\s*(?:\(\s*(\d)\s*\+\s*\))?\s*$")


def _key(name: str) -> str:
    """A rule name compared without case, hyphens or repeated spaces ("Twin-linked" is "twin linked")."""
    return " ".join(name.lower().replace("-", " ").split())


def _document_rules() -> dict[str, str]:
    """Every special rule name the document defines (its USR section titles and the blast words), by _key."""
    from rules import spec

    names = {_key(section["title"]): section["title"] for ref, section in spec.sections("m41").items()
             if ref.startswith("usr/") and ref.count("/") == 1}
    names.update({_key(k): v for k, v in WEAPON_WORDS.items()})
    return names


@dataclass(frozen=True)
class SpecialRule:
    """One special rule as the document names it, with its "(N+)" value if the scenario gave one."""

    name: str  # the document's title, e.g. "Twin-Linked"
    value: int | None = None

    @property
    def key(self) -> str:
        return _key(self.name)


@dataclass(frozen=True)
class Weapon:
    name: str
    count: int
    type_text: str
    kind: WeaponType
    shots: int  # the number after the type (a Salvo's first, after moving)
    stationary_shots: int  # a Salvo's second number; the same as shots for any other type
    S: int
    AP: int  # 1 to 6 as printed, NO_AP (7) for "-", or a rend of -1 to -3
    BS: int | None
    WS: int | None
    A: int | None
    rules: tuple[SpecialRule, ...] = ()
    #: Set only by rules.m41.blast_attacks, never read from a file: the hits a blast or template scored, counted
    #: from the formation (no to-hit roll), and whether they are a large blast's outer ring.
    fixed_hits: int | None = None
    outer_ring: bool = False

    @property
    def melee(self) -> bool:
        return self.kind == WeaponType.MELEE

    def rule(self, key: str) -> SpecialRule | None:
        """The weapon's rule of this name (compared as _key), if it has it."""
        return next((r for r in self.rules if r.key == _key(key)), None)


@dataclass(frozen=True)
class TargetModel:
    name: str
    count: int
    WS: int
    T: int
    W: int
    Sv: int  # 2 to 6, or NO_AP (7) for "-": no armour save
    InSv: int | None
    FNP: int | None
    kind: str
    rules: tuple[SpecialRule, ...] = ()

    def rule(self, key: str) -> SpecialRule | None:
        return next((r for r in self.rules if r.key == _key(key)), None)


@dataclass(frozen=True)
class Context:
    moved: bool = False
    within_half_range: bool = False
    snap_shots: bool = False
    charged: bool = False
    first_round: bool = False
    to_hit_penalty: int = 0


@dataclass(frozen=True)
class Choices:
    """The defender's choices the rules leave open, with the calculator's documented defaults."""

    allocation_order: tuple[str, ...] = ()  # model names in the order they take wounds; default: as listed


@dataclass(frozen=True)
class Scenario:
    weapons: tuple[Weapon, ...]
    models: tuple[TargetModel, ...]
    cover: str | None = None
    context: Context = field(default_factory=Context)
    choices: Choices = field(default_factory=Choices)
    #: Where the target's models stand, for blasts and templates (rules.m41.blast_attacks); a mapping, so unhashed.
    formation: Any = field(default=None, hash=False, compare=False)


_WEAPON_KEYS = {"name", "count", "type", "S", "AP", "BS", "WS", "A", "rules"}
_MODEL_KEYS = {"name", "count", "WS", "T", "W", "Sv", "InSv", "FNP", "kind", "rules"}
_TOP_KEYS = {"weapons", "target", "context", "choices", "formation"}
_TARGET_KEYS = {"models", "cover", "vehicle", "facing"}


def read_rules(value: Any, where: str) -> tuple[SpecialRule, ...]:
    """A list of special rules by the document's names, each with an optional "(N+)"."""
    known = _document_rules()
    out = []
    for i, text in enumerate(_list(value, where, MAX_RULES)):
        here = f"{where}[{i}]"
        match = _RULE.match(_text(text, here))
        name = _key(match.group(1))
        if name not in known:
            raise ScenarioError(f"{here} is {shown(text)}, which is not a special rule of the document (e.g. "
                                "Twin-linked, Poisoned (4+), Sniper, Rending, Instant Death, Blast)")
        number = match.group(2)
        if number is not None and not SAVE[0] <= int(number) <= SAVE[1]:
            raise ScenarioError(f"{here}: the value in brackets must be 2+ to 6+, not {shown(text)}")
        rule = SpecialRule(known[name], None if number is None else int(number))
        if any(r.key == rule.key for r in out):
            raise ScenarioError(f"{here} names {known[name]} twice")
        out.append(rule)
    return tuple(out)


def read_ap(value: Any, where: str) -> int:
    """AP 1 to 6 as printed, "-" (none: NO_AP), or a rend of -1 to -3."""
    if value == "-":
        return NO_AP
    if isinstance(value, bool) or not isinstance(value, int) or not (1 <= value <= 6 or REND[0] <= value <= REND[1]):
        raise ScenarioError(f"{where} must be 1 to 6, '-' or a rend of -1 to -3, not {shown(value)}")
    return value


def read_weapon(data: Any, where: str) -> Weapon:
    data = _mapping(data, where, _WEAPON_KEYS, {"name", "count", "type", "S", "AP"})
    type_text = _text(data["type"], f"{where}.type")
    try:
        kind, shots, stationary = read_type(type_text)
    except ValueError:
        raise ScenarioError(f"{where}.type must be a weapon type with its shots (Rapid Fire 1, Assault 2, Heavy 1, "
                            f"Salvo 2/4, Pistol 1, Ordnance 1) or Melee, not {shown(type_text)}") from None
    if not SHOTS[0] <= max(shots, stationary) <= SHOTS[1] or min(shots, stationary) < SHOTS[0]:
        raise ScenarioError(f"{where}.type: the shots must be from {SHOTS[0]} to {SHOTS[1]}, not {shown(type_text)}")
    melee = kind == WeaponType.MELEE
    skill = {"WS", "A"} if melee else {"BS"}
    wrong = sorted((skill ^ {"WS", "A", "BS"}) & set(data))
    if wrong:
        raise ScenarioError(f"{where}.{wrong[0]}: a {'melee' if melee else 'ranged'} weapon takes "
                            f"{' and '.join(sorted(skill))}, not {wrong[0]}")
    missing = sorted(skill - set(data))
    if missing:
        raise ScenarioError(f"{where} lacks {missing[0]!r} (a {'melee' if melee else 'ranged'} weapon needs it)")
    return Weapon(
        name=_name(data["name"], f"{where}.name"),
        count=_int(data["count"], f"{where}.count", *WEAPON_COUNT),
        type_text=" ".join(type_text.split()), kind=kind, shots=shots, stationary_shots=stationary,
        S=_int(data["S"], f"{where}.S", *CHARACTERISTIC),
        AP=read_ap(data["AP"], f"{where}.AP"),
        BS=None if melee else _int(data["BS"], f"{where}.BS", *CHARACTERISTIC),
        WS=_int(data["WS"], f"{where}.WS", *CHARACTERISTIC) if melee else None,
        A=_int(data["A"], f"{where}.A", *ATTACKS) if melee else None,
        rules=read_rules(data.get("rules", []), f"{where}.rules"),
    )


def read_model(data: Any, where: str) -> TargetModel:
    data = _mapping(data, where, _MODEL_KEYS, {"name", "count", "WS", "T", "W", "Sv"})
    kind = data.get("kind", "infantry")
    if not isinstance(kind, str) or " ".join(kind.lower().split()) not in KINDS:
        raise ScenarioError(f"{where}.kind must be one of {', '.join(KINDS)}, not {shown(kind)}")
    rules = read_rules(data.get("rules", []), f"{where}.rules")
    for i, rule in enumerate(rules):
        if rule.key == _key("Feel no Pain"):
            raise ScenarioError(f"{where}.rules[{i}]: give Feel no Pain as the model's FNP (its save, 5 by default)")
    return TargetModel(
        name=_name(data["name"], f"{where}.name"),
        count=_int(data["count"], f"{where}.count", *MODEL_COUNT),
        WS=_int(data["WS"], f"{where}.WS", *CHARACTERISTIC),
        T=_int(data["T"], f"{where}.T", *CHARACTERISTIC),
        W=_int(data["W"], f"{where}.W", *W_RANGE),
        Sv=NO_AP if data["Sv"] == "-" else _int(data["Sv"], f"{where}.Sv", *SAVE),
        InSv=None if data.get("InSv") is None else _int(data["InSv"], f"{where}.InSv", *SAVE),
        FNP=None if data.get("FNP") is None else _int(data["FNP"], f"{where}.FNP", *SAVE),
        kind=" ".join(kind.lower().split()),
        rules=rules,
    )


def read_context(data: Any, where: str) -> Context:
    fields = Context.__dataclass_fields__
    data = _mapping(data, where, set(fields), set())
    values: dict[str, Any] = {}
    for key, value in data.items():
        if key == "to_hit_penalty":
            values[key] = _int(value, f"{where}.{key}", *TO_HIT_PENALTY)
        else:
            values[key] = _bool(value, f"{where}.{key}")
    return Context(**values)


def read_choices(data: Any, where: str, names: list[str]) -> Choices:
    data = _mapping(data, where, {"allocation_order"}, set())
    if "allocation_order" not in data:
        return Choices()
    here = f"{where}.allocation_order"
    order = [_text(v, f"{here}[{i}]") for i, v in enumerate(_list(data["allocation_order"], here, MAX_TARGET_MODELS))]
    for i, name in enumerate(order):
        if name not in names:
            raise ScenarioError(f"{here}[{i}] names {shown(name)}, which is not a model in the target")
        if name in order[:i]:
            raise ScenarioError(f"{here}[{i}] names {shown(name)} twice: each model has one place in the order")
    return Choices(tuple(order))


def most_attacks(weapon: Weapon) -> int:
    """The most attack dice one entry can roll: count x (a Rapid Fire's doubled shots, a Salvo's larger number, or
    A with the charge and extra-weapon bonuses)."""
    if weapon.melee:
        return weapon.count * (weapon.A + 2)
    if weapon.kind == WeaponType.RAPID_FIRE:
        return weapon.count * 2 * weapon.shots
    return weapon.count * max(weapon.shots, weapon.stationary_shots)


def read_scenario(data: Any, source: str = "scenario") -> Scenario | Any:
    """Read and validate an m41 scenario mapping (parsed JSON or YAML); errors start with ``source``. A vehicle
    target makes it a VehicleScenario (rules.m41.vehicle_scenario)."""
    try:
        top = _mapping(data, "scenario", _TOP_KEYS, {"weapons", "target"})
        from rules.m41 import vehicle_scenario

        if vehicle_scenario.is_vehicle_scenario(top):  # its own reader, and calculator (rules.m41.vehicle_attacks)
            try:
                return vehicle_scenario.read_vehicle_scenario(top)
            except ValueError as error:
                raise ScenarioError(str(error)) from None
        weapons = tuple(read_weapon(w, f"weapons[{i}]")
                        for i, w in enumerate(_list(top["weapons"], "weapons", MAX_WEAPONS, least=1)))
        from rules.m41 import blast_attacks  # here: it reads this module's types

        placed = [i for i, w in enumerate(weapons) if blast_attacks.kind_of(w, f"weapons[{i}]") is not None]
        if placed and "formation" not in top:
            raise ScenarioError(f"weapons[{placed[0]}] is a blast or template weapon, which hits the models under it: "
                                "give the target's bases as \"formation\" (table, firer, aim, bases)")
        if "formation" in top and not placed:
            raise ScenarioError("formation: no weapon is a blast, barrage or template weapon, so nothing reads it")
        target = _mapping(top["target"], "target", _TARGET_KEYS, set())
        if "facing" in target:
            raise ScenarioError("target.facing: only a vehicle target has a facing (give target.vehicle)")
        if "models" not in target:
            raise ScenarioError("target lacks 'models'")
        models = tuple(read_model(m, f"target.models[{i}]")
                       for i, m in enumerate(_list(target["models"], "target.models", MAX_TARGET_MODELS, least=1)))
        names = [m.name for m in models]
        if len(set(names)) != len(names):
            raise ScenarioError("target.models names must be distinct")
        total = sum(m.count for m in models)
        if total > MAX_TARGET_MODELS:
            raise ScenarioError(f"target.models have {total} models in all; at most {MAX_TARGET_MODELS}")
        cover = target.get("cover")
        if cover is not None:
            if not isinstance(cover, str) or _key(cover).removesuffix(" cover") not in COVER_TYPES:
                raise ScenarioError(f"target.cover must be light, medium, heavy or null, not {shown(cover)}")
            cover = _key(cover).removesuffix(" cover")
        attacks = sum(most_attacks(w) for w in weapons)
        if attacks > MAX_ATTACKS:
            raise ScenarioError(f"weapons can roll up to {attacks} attack dice in all; at most {MAX_ATTACKS}")
        scenario = Scenario(weapons, models, cover, read_context(top.get("context", {}), "context"),
                            read_choices(top.get("choices", {}), "choices", names), top.get("formation"))
        if placed:
            blast_attacks.check(scenario)
        return scenario
    except _BaseScenarioError as error:
        raise ScenarioError(f"{source}: {error}") from None
