"""The data model the rule functions share: profiles, weapons, datasheets and placed models.

Values are plain frozen dataclasses so example data (YAML) and hypothesis
strategies can build them directly. Characteristics keep the book's '-1'
placeholder as the value -1 (see interpretation ``placeholder-characteristics``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

#: The book prints '-1' for "no such capability" (M: cannot be moved; OC: cannot control objectives).
PLACEHOLDER = -1

#: Millimetres per inch, exactly: bases are sold in millimetres, the rules measure in inches.
MM_PER_INCH = Fraction(254, 10)


@dataclass(frozen=True)
class Profile:
    """A model profile (02.02): the characteristics printed in a datasheet's profile row."""

    name: str
    M: int
    T: int
    Sv: int
    W: int
    Ld: int
    OC: int
    InSv: int | None = None


@dataclass(frozen=True)
class Weapon:
    """A weapon profile (02.04). ``range`` is None for 'Melee'; A and D may be dice expressions."""

    name: str
    range: int | None
    A: Any
    skill: int
    S: int
    AP: int
    D: Any
    abilities: tuple[str, ...] = ()


@dataclass(frozen=True)
class WargearOption:
    """One wargear option (02.07): on ``model``, ``replace`` these weapons with ``with_``."""

    model: str
    replace: tuple[str, ...]
    with_: tuple[str, ...]


@dataclass(frozen=True)
class Datasheet:
    """A unit's datasheet (02.01-02.07), as read by ``rules.core.datasheets.read_datasheet``."""

    name: str
    profiles: tuple[Profile, ...]
    abilities: tuple[tuple[str, str], ...]
    weapons: tuple[Weapon, ...]
    faction_keywords: tuple[str, ...]
    keywords: tuple[str, ...]
    composition: tuple[tuple[str, int], ...]
    wargear: tuple[tuple[str, tuple[str, ...]], ...]
    wargear_options: tuple[WargearOption, ...] = ()

    def profile(self, name: str) -> Profile:
        for profile in self.profiles:
            if profile.name == name:
                return profile
        raise KeyError(name)

    def weapon(self, name: str) -> Weapon:
        for weapon in self.weapons:
            if weapon.name.lower() == name.lower():
                return weapon
        raise KeyError(name)


@dataclass(frozen=True)
class Placed:
    """A model on the battlefield: its base centre (inches) and base diameter (mm).

    Interpretation ``geometry-round-bases``: bases are circles seen from above,
    set at height ``z``; distances are measured between the closest points of
    the bases, horizontally in the plane and vertically between base heights.
    Left out (as example data often does), the base is 32 mm, ``z`` is 0 and the owner is player 1.
    """

    x: Any
    y: Any
    base_mm: Any = 32
    z: Any = 0
    name: str = ""
    owner: int = 1

    @property
    def radius(self) -> Fraction:
        return Fraction(str(self.base_mm)) / 2 / MM_PER_INCH


@dataclass(frozen=True)
class PlacedUnit:
    """A unit's models on the battlefield, with the player whose army it belongs to."""

    models: tuple[Placed, ...] = field(default_factory=tuple)
    owner: int = 1
    name: str = ""
