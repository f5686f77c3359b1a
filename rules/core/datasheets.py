"""Chapter 02, Datasheets: reading a datasheet into the model, and what its parts mean.

``read_datasheet`` turns datasheet data (YAML/JSON mappings) into
``rules.model.Datasheet``, rejecting impossible characteristics with one
sentence that names the datasheet and the field.
"""

from __future__ import annotations

import re
from typing import Any, Iterable, Mapping, Sequence

from rules import dice
from rules.logic import If, Or
from rules.model import PLACEHOLDER, Datasheet, Profile, WargearOption, Weapon
from rules.registry import rule


class DatasheetError(ValueError):
    """Datasheet data that no datasheet could print; the message names the place."""


def _dice_result(value: Any, where: str, low: int, high: int) -> int:
    """A characteristic printed as a dice result ("4+") or its number, within low..high."""
    text = str(value).strip()
    match = re.fullmatch(r"(\d+)\+?", text)
    if not match or not low <= int(match.group(1)) <= high:
        raise DatasheetError(f"{where} must be a dice result from {low}+ to {high}+, not {value!r}")
    return int(match.group(1))


def _number(value: Any, where: str, low: int, *, placeholder: bool = False, inches: bool = False) -> int:
    text = str(value).strip()
    if inches:
        text = text.rstrip('"')
    if placeholder and text in {"-1", "'-1'"}:
        return PLACEHOLDER
    if not re.fullmatch(r"\d+", text) or int(text) < low:
        allowed = " or the placeholder '-1'" if placeholder else ""
        raise DatasheetError(f"{where} must be a whole number of at least {low}{allowed}, not {value!r}")
    return int(text)


# 02.01 Datasheet name --------------------------------------------------------


@rule("02.01")
def read_datasheet(data: Mapping[str, Any], where: str = "datasheet") -> Datasheet:
    """Read a whole datasheet; its name identifies the unit everywhere else."""
    if not isinstance(data, Mapping):
        raise DatasheetError(f"{where} must be a mapping")
    name = str(data.get("name") or "").strip()
    if not name:
        raise DatasheetError(f"{where} has no name")
    where = f"{where} {name!r}"
    profiles = tuple(read_profile(p, f"{where} profile {i + 1}") for i, p in enumerate(_list(data, "profiles", where)))
    if not profiles:
        raise DatasheetError(f"{where} has no profiles")
    weapons = tuple(read_weapon(w, f"{where} weapon {i + 1}") for i, w in enumerate(_list(data, "weapons", where)))
    faction, other = read_keywords(data.get("faction_keywords", []), data.get("keywords", []), where)
    composition, wargear = read_composition(_list(data, "composition", where), profiles, weapons, where)
    options = tuple(read_wargear_option(o, f"{where} wargear option {i + 1}", composition, weapons)
                    for i, o in enumerate(_list(data, "wargear_options", where)))
    return Datasheet(name=name, profiles=profiles, abilities=read_abilities(data.get("abilities", {}), where),
                     weapons=weapons, faction_keywords=faction, keywords=other, composition=composition,
                     wargear=wargear, wargear_options=options)


def _list(data: Mapping[str, Any], key: str, where: str) -> list:
    value = data.get(key, [])
    if not isinstance(value, list):
        raise DatasheetError(f"{where}: {key} must be a list")
    return value


# 02.02 Profiles --------------------------------------------------------------


@rule("02.02")
def read_profile(data: Mapping[str, Any], where: str) -> Profile:
    """Read one profile row; M and OC may carry the '-1' placeholder, the others may not."""
    if not isinstance(data, Mapping) or not data.get("name"):
        raise DatasheetError(f"{where} must be a mapping with a name")
    where = f"{where} ({data['name']})"
    missing = [k for k in ("M", "T", "Sv", "W", "Ld", "OC") if k not in data]
    if missing:
        raise DatasheetError(f"{where} lacks {', '.join(missing)}")
    insv = data.get("InSv")
    return Profile(
        name=str(data["name"]),
        M=_number(data["M"], f"{where} M", 0, placeholder=True, inches=True),
        T=_number(data["T"], f"{where} T", 1),
        Sv=_dice_result(data["Sv"], f"{where} Sv", 2, 6),
        W=_number(data["W"], f"{where} W", 1),
        Ld=_dice_result(data["Ld"], f"{where} Ld", 2, 12),
        OC=_number(data["OC"], f"{where} OC", 0, placeholder=True),
        InSv=None if insv is None else _dice_result(insv, f"{where} InSv", 2, 6),
    )


@rule("02.02")
def can_be_moved(m: Any) -> Any:
    """A model with an M of '-1' can be set up but otherwise cannot be moved.

    Interpretation: placeholder-characteristics.
    """
    return m != PLACEHOLDER


@rule("02.02")
def can_control_objectives(oc: Any) -> Any:
    """A model with an OC of '-1' is unable to control objectives at all."""
    return oc != PLACEHOLDER


@rule("02.02")
def level_of_control_contribution(oc: Any) -> Any:
    """What one model's OC adds to a level of control: the placeholder '-1' adds nothing.

    Interpretation: placeholder-characteristics (reading "placeholder", not "minus one").
    """
    return If(oc == PLACEHOLDER, 0, oc)


@rule("02.02")
def is_destroyed_by_wounds(remaining_wounds: Any) -> Any:
    """A model whose wounds are reduced to 0 or fewer is destroyed."""
    return remaining_wounds <= 0


# 02.03 Abilities -------------------------------------------------------------


@rule("02.03")
def read_abilities(data: Any, where: str) -> tuple[tuple[str, str], ...]:
    """Abilities are named rules printed on the datasheet: name -> text, in printed order."""
    if isinstance(data, Mapping):
        items = list(data.items())
    elif isinstance(data, list):
        items = [(str(a), "") for a in data]
    else:
        raise DatasheetError(f"{where}: abilities must be a mapping of name to text or a list of names")
    names = [str(k).strip() for k, _ in items]
    if any(not n for n in names) or len(set(names)) != len(names):
        raise DatasheetError(f"{where}: ability names must be present and distinct")
    return tuple((str(k).strip(), str(v or "").strip()) for k, v in items)


@rule("02.03")
def has_ability(datasheet: Datasheet, name: str) -> bool:
    """Whether the datasheet lists an ability of this name (case as printed does not matter)."""
    return any(ability.lower() == name.lower() for ability, _ in datasheet.abilities)


# 02.04 Weapons ---------------------------------------------------------------

_ABILITY = re.compile(r"\[([^\]]+)\]")


@rule("02.04")
def read_weapon(data: Mapping[str, Any], where: str) -> Weapon:
    """Read a weapon profile; R 'Melee' makes a melee weapon, AP is a modifier of 0 or less."""
    if not isinstance(data, Mapping) or not data.get("name"):
        raise DatasheetError(f"{where} must be a mapping with a name")
    name = str(data["name"]).strip()
    abilities = [a.strip() for a in _ABILITY.findall(name)] + [str(a) for a in data.get("abilities", [])]
    name = _ABILITY.sub("", name).strip()
    where = f"{where} ({name})"
    missing = [k for k in ("range", "A", "skill", "S", "AP", "D") if k not in data]
    if missing:
        raise DatasheetError(f"{where} lacks {', '.join(missing)}")
    rng = data["range"]
    range_inches = None if str(rng).strip().lower() == "melee" else _number(rng, f"{where} range", 1, inches=True)
    for key in ("A", "D"):
        try:
            dice.parse(data[key])
        except dice.DiceError as error:
            raise DatasheetError(f"{where} {key}: {error}") from None
    ap = str(data["AP"]).strip()
    if not re.fullmatch(r"0|-\d+", ap):
        raise DatasheetError(f"{where} AP must be 0 or a negative modifier such as -1, not {data['AP']!r}")
    return Weapon(name=name, range=range_inches, A=data["A"], skill=_dice_result(data["skill"], f"{where} skill", 2, 6),
                  S=_number(data["S"], f"{where} S", 1), AP=int(ap), D=data["D"], abilities=tuple(abilities))


@rule("02.04")
def is_melee_weapon(weapon: Weapon) -> bool:
    """Weapons with a Range of 'Melee' are melee weapons; every other weapon is ranged."""
    return weapon.range is None


# 02.05 Keywords --------------------------------------------------------------


def _singular(word: str) -> str:
    word = word.strip().upper()
    return word[:-1] if word.endswith("S") and not word.endswith("SS") else word


@rule("02.05")
def read_keywords(faction: Iterable[str], other: Iterable[str], where: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Faction keywords and other keywords, kept apart only for army building."""
    out = []
    for group in (faction, other):
        if isinstance(group, str) or not isinstance(group, Iterable):
            raise DatasheetError(f"{where}: keywords must be a list")
        words = tuple(str(k).strip().upper() for k in group)
        if any(not w for w in words):
            raise DatasheetError(f"{where}: a keyword is empty")
        out.append(words)
    return out[0], out[1]


@rule("02.05")
def keyword_matches(printed: str, wanted: str) -> bool:
    """Singular and plural instances of the same keyword function the same way.

    Interpretation: keyword-plurals (a trailing S is the plural).
    """
    return _singular(printed) == _singular(wanted)


@rule("02.05")
def has_keyword(unit_keywords: Sequence[str], wanted: str) -> bool:
    """Whether a unit with these keywords (faction and other alike) has ``wanted``.

    A slash in a rule's keyword ("MONSTER/VEHICLE") means any of them.
    """
    return Or(*(keyword_matches(k, w) for w in wanted.split("/") for k in unit_keywords))


@rule("02.05")
def datasheet_has_keyword(datasheet: Datasheet, wanted: str) -> bool:
    """Faction keywords count like other keywords once the army is mustered."""
    return has_keyword(datasheet.faction_keywords + datasheet.keywords, wanted)


# 02.06 Unit composition ------------------------------------------------------


@rule("02.06")
def read_composition(data: list, profiles: Sequence[Profile], weapons: Sequence[Weapon],
                     where: str) -> tuple[tuple[tuple[str, int], ...], tuple[tuple[str, tuple[str, ...]], ...]]:
    """Model counts and each model's default wargear; every named profile and weapon must exist."""
    names = {p.name for p in profiles}
    weapon_names = {w.name.lower() for w in weapons}
    composition, wargear = [], []
    for i, entry in enumerate(data, 1):
        here = f"{where} composition entry {i}"
        if not isinstance(entry, Mapping) or "model" not in entry or "count" not in entry:
            raise DatasheetError(f"{here} needs a model and a count")
        if entry["model"] not in names:
            raise DatasheetError(f"{here} names {entry['model']!r}, which has no profile")
        count = _number(entry["count"], f"{here} count", 1)
        kit = tuple(str(w) for w in entry.get("equipped", []))
        unknown = [w for w in kit if w.lower() not in weapon_names]
        if unknown:
            raise DatasheetError(f"{here} equips {unknown}, which have no weapon profile")
        composition.append((entry["model"], count))
        wargear.append((entry["model"], kit))
    return tuple(composition), tuple(wargear)


@rule("02.06")
def unit_size(datasheet: Datasheet) -> int:
    """How many models the unit composition lists."""
    return sum(count for _, count in datasheet.composition)


@rule("02.06")
def default_wargear(datasheet: Datasheet, model: str) -> tuple[str, ...]:
    """The one set of default wargear each model is equipped with."""
    for name, kit in datasheet.wargear:
        if name == model:
            return kit
    raise DatasheetError(f"datasheet {datasheet.name!r} has no model {model!r}")


# 02.07 Wargear options -------------------------------------------------------


def read_wargear_option(data: Mapping[str, Any], where: str, composition: Sequence[tuple[str, int]],
                        weapons: Sequence[Weapon]) -> WargearOption:
    if not isinstance(data, Mapping) or not {"model", "replace", "with"} <= set(data):
        raise DatasheetError(f"{where} needs model, replace and with")
    if data["model"] not in {m for m, _ in composition}:
        raise DatasheetError(f"{where} names {data['model']!r}, which is not in the unit composition")
    known = {w.name.lower() for w in weapons}
    for weapon in list(data["replace"]) + list(data["with"]):
        if str(weapon).lower() not in known:
            raise DatasheetError(f"{where} names {weapon!r}, which has no weapon profile")
    return WargearOption(str(data["model"]), tuple(map(str, data["replace"])), tuple(map(str, data["with"])))


@rule("02.07")
def apply_wargear_option(loadout: Sequence[str], option: WargearOption) -> tuple[str, ...]:
    """The model's wargear after taking an option: the replaced items go, the new ones come.

    Raises if the model does not have every item the option replaces.
    """
    remaining = list(loadout)
    for item in option.replace:
        matches = [i for i, have in enumerate(remaining) if have.lower() == item.lower()]
        if not matches:
            raise DatasheetError(f"wargear option for {option.model} replaces {item!r}, which the model does not have")
        remaining.pop(matches[0])
    return tuple(remaining) + tuple(option.with_)
