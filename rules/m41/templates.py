"""999.m41's blasts, barrages and teardrop templates over a formation of bases (004, Weapons: Firing Blast
Weapons, Blasts and Large Blasts, Barrage, Template Weapons).

The engine (rules.engine.templates) cuts each scatter ring where the outcome can change; every rule decision is
one of m41's tagged functions: the scatter distance law (blast_scatter_distribution, barrage_scatter_distribution:
the Hit! faces, 3d3 or 2d6 minus BS, at most half the aim distance), the miss beyond the table's edge
(beyond_table_edge, blast_misses), what counts as under a marker or template (blast_marker_covers_base,
template_covers_base) and the large blast's two templates (SMALL_BLAST_DIAMETER inside LARGE_BLAST_DIAMETER).

A formation is a mapping: "table" {width, depth}, "firer" {x, y, diameter}, "aim" {x, y} (blasts and
barrages), "weapon" {kind: blast | large blast | barrage | large barrage | template, BS, target_in_sight
(barrages), narrow_width and wide_width (templates)}, "bases" [{name, x, y, diameter}], in inches.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Mapping

from rules.engine import templates as geometry
from rules.m41 import weapons

BLAST_KINDS = {"blast": weapons.SMALL_BLAST_DIAMETER, "large blast": weapons.LARGE_BLAST_DIAMETER,
               "barrage": weapons.SMALL_BLAST_DIAMETER, "large barrage": weapons.LARGE_BLAST_DIAMETER}
KINDS = (*BLAST_KINDS, "template")
MISS = None  # the outcome of a centre beyond the table's edge


class FormationError(ValueError):
    """A formation that cannot be read; the message is one sentence naming the place."""


@dataclass(frozen=True)
class Base:
    """One model's base: its name, centre and diameter in inches."""

    name: str
    x: Fraction
    y: Fraction
    diameter: Fraction


@dataclass(frozen=True)
class Formation:
    """A formation read and checked: where everything stands and what is fired."""

    table: geometry.Table
    firer: Base
    aim: tuple[Fraction, Fraction] | None
    kind: str
    ballistic_skill: int | None
    target_in_sight: bool
    narrow_width: Fraction | None
    wide_width: Fraction | None
    bases: tuple[Base, ...]


def _number(value: Any, where: str, *, positive: bool = False) -> Fraction:
    """An exact number from JSON: an int, or a decimal read as written (1.1 is 11/10)."""
    if isinstance(value, bool) or not isinstance(value, (int, float, Fraction)):
        raise FormationError(f"{where} must be a number")
    if isinstance(value, float):
        if not math.isfinite(value):
            raise FormationError(f"{where} must be a finite number")
        value = Fraction(str(value))
    value = Fraction(value)
    if positive and value <= 0:
        raise FormationError(f"{where} must be more than 0")
    if abs(value) > 10 ** 6:
        raise FormationError(f"{where} must be at most a million inches")
    return value


def _mapping(value: Any, where: str, required: tuple[str, ...], optional: tuple[str, ...] = ()) -> Mapping:
    if not isinstance(value, Mapping):
        raise FormationError(f"{where} must be an object")
    for key in required:
        if key not in value:
            raise FormationError(f"{where} has no \"{key}\"")
    for key in value:
        if key not in required + optional:
            raise FormationError(f"{where} has an unknown key \"{key}\" (known: {', '.join(required + optional)})")
    return value


def _on_table(table: geometry.Table, x: Fraction, y: Fraction, radius: Fraction, where: str) -> None:
    if x - radius < 0 or y - radius < 0 or x + radius > table.width or y + radius > table.depth:
        raise FormationError(f"{where} is off the {table.width}\" x {table.depth}\" table")


def read_formation(data: Any) -> Formation:
    """A formation mapping, checked strictly: bases on the table and not overlapping, a known weapon kind and
    what that kind needs (an aim point and BS for blasts, the template's widths for a template)."""
    top = _mapping(data, "the formation", ("table", "firer", "weapon", "bases"), ("aim",))
    table_data = _mapping(top["table"], "table", ("width", "depth"))
    table = geometry.Table(_number(table_data["width"], "table.width", positive=True),
                           _number(table_data["depth"], "table.depth", positive=True))
    firer_data = _mapping(top["firer"], "firer", ("x", "y"), ("diameter", "name"))
    firer = Base(str(firer_data.get("name", "firer")), _number(firer_data["x"], "firer.x"),
                 _number(firer_data["y"], "firer.y"),
                 _number(firer_data.get("diameter", 0), "firer.diameter"))
    if firer.diameter < 0:
        raise FormationError("firer.diameter must be 0 or more")
    _on_table(table, firer.x, firer.y, firer.diameter / 2, "firer")
    weapon = _mapping(top["weapon"], "weapon", ("kind",), ("BS", "target_in_sight", "narrow_width", "wide_width"))
    kind = weapon["kind"]
    if kind not in KINDS:
        raise FormationError(f"weapon.kind must be one of {', '.join(KINDS)}, not {kind!r}")
    ballistic_skill, in_sight, narrow, wide, aim = None, True, None, None, None  # a template has no BS
    if kind == "template":
        for key in ("narrow_width", "wide_width"):
            if key not in weapon:
                raise FormationError(f"weapon has no \"{key}\" (the document gives the teardrop only its length, "
                                     "8 1/4\")")
        narrow = _number(weapon["narrow_width"], "weapon.narrow_width", positive=True)
        wide = _number(weapon["wide_width"], "weapon.wide_width", positive=True)
        if narrow > wide or narrow / 2 + wide / 2 >= weapons.TEARDROP_LENGTH:
            raise FormationError("weapon.narrow_width must be at most wide_width, and the two end circles must fit "
                                 "in the teardrop's 8 1/4\" length")
    else:
        if "BS" not in weapon:
            raise FormationError("weapon has no \"BS\"")
        ballistic_skill = weapon["BS"]
        if isinstance(ballistic_skill, bool) or not isinstance(ballistic_skill, int) or not 1 <= ballistic_skill <= 10:
            raise FormationError("weapon.BS must be a whole number from 1 to 10")
        in_sight = weapon.get("target_in_sight", True)
        if not isinstance(in_sight, bool):
            raise FormationError("weapon.target_in_sight must be true or false")
        if "aim" not in top:
            raise FormationError(f"the formation has no \"aim\" (a {kind} is aimed at a point)")
        aim_data = _mapping(top["aim"], "aim", ("x", "y"))
        aim = (_number(aim_data["x"], "aim.x"), _number(aim_data["y"], "aim.y"))
        _on_table(table, aim[0], aim[1], Fraction(0), "aim")
    if not isinstance(top["bases"], list) or not top["bases"]:
        raise FormationError("bases must be a non-empty list")
    bases: list[Base] = []
    for i, entry in enumerate(top["bases"]):
        where = f"bases[{i}]"
        entry = _mapping(entry, where, ("x", "y", "diameter"), ("name",))
        base = Base(str(entry.get("name", f"model {i + 1}")), _number(entry["x"], f"{where}.x"),
                    _number(entry["y"], f"{where}.y"), _number(entry["diameter"], f"{where}.diameter", positive=True))
        _on_table(table, base.x, base.y, base.diameter / 2, where)
        for j, other in enumerate(bases):
            gap = (base.diameter + other.diameter) / 2
            if (base.x - other.x) ** 2 + (base.y - other.y) ** 2 < gap * gap:
                raise FormationError(f"{where} overlaps bases[{j}] ({other.name})")
        bases.append(base)
    return Formation(table, firer, aim, kind, ballistic_skill, in_sight, narrow, wide, tuple(bases))


def _exact_sqrt(value: Fraction) -> Fraction | None:
    top, bottom = math.isqrt(value.numerator), math.isqrt(value.denominator)
    return Fraction(top, bottom) if top * top == value.numerator and bottom * bottom == value.denominator else None


def aim_distance(formation: Formation) -> Fraction:
    """From the firer to the aim point: exact when it is rational, else the float's exact value (the half-distance
    cap then differs from the true one by a rounding, which the ring's numeric bound does not cover; an aim
    distance of exactly twice a scatter distance is rational, so the cap's choice itself is exact)."""
    squared = (formation.aim[0] - formation.firer.x) ** 2 + (formation.aim[1] - formation.firer.y) ** 2
    exact = _exact_sqrt(squared)
    return exact if exact is not None else Fraction(math.sqrt(squared))


def scatter_law(formation: Formation) -> dict[Fraction, Fraction]:
    """How far the marker scatters, exactly, by the m41 rules for the formation's weapon."""
    if formation.kind in ("barrage", "large barrage"):
        return weapons.barrage_scatter_distribution(formation.ballistic_skill, aim_distance(formation),
                                                    formation.target_in_sight)
    return weapons.blast_scatter_distribution(formation.ballistic_skill, aim_distance(formation))


def _covered(formation: Formation, x: Any, y: Any, marker_diameter: int) -> tuple[int, ...]:
    return tuple(i for i, base in enumerate(formation.bases)
                 if weapons.blast_marker_covers_base((x - base.x) ** 2 + (y - base.y) ** 2, marker_diameter,
                                                     base.diameter))


def blast_outcome(formation: Formation, centre: geometry.Point) -> Any:
    """What a marker centred at ``centre`` does: MISS beyond the table's edge, else the bases under it, as
    (under the inner small marker, under the outer ring only) for a large one; (covered, ()) for a small one."""
    x, y = centre
    if weapons.blast_misses(weapons.beyond_table_edge(x, y, formation.table.width, formation.table.depth)):
        return MISS
    marker = BLAST_KINDS[formation.kind]
    if marker == weapons.LARGE_BLAST_DIAMETER:
        inner = _covered(formation, x, y, weapons.SMALL_BLAST_DIAMETER)
        whole = _covered(formation, x, y, marker)
        return inner, tuple(i for i in whole if i not in inner)
    return _covered(formation, x, y, marker), ()


@dataclass
class BlastResult:
    """A blast's or barrage's outcome law and what a player reads from it."""

    formation: Formation
    scatter: dict[Fraction, Fraction]
    law: geometry.Law

    def hits(self) -> dict[int, tuple[Fraction, float]]:
        """Models hit: count -> (exact share, numeric share)."""
        out: dict[int, tuple[Fraction, float]] = {}
        for key in self.law.outcomes():
            count = 0 if key is MISS else len(key[0]) + len(key[1])
            exact, numeric = out.get(count, (Fraction(0), 0.0))
            out[count] = (exact + self.law.exact.get(key, 0), numeric + self.law.numeric.get(key, 0.0))
        return dict(sorted(out.items()))

    def joint_hits(self) -> dict[tuple[int, int], tuple[Fraction, float]]:
        """Models hit (under the inner marker, under the outer ring only) -> (exact share, numeric share)."""
        out: dict[tuple[int, int], tuple[Fraction, float]] = {}
        for key in self.law.outcomes():
            pair = (0, 0) if key is MISS else (len(key[0]), len(key[1]))
            exact, numeric = out.get(pair, (Fraction(0), 0.0))
            out[pair] = (exact + self.law.exact.get(key, 0), numeric + self.law.numeric.get(key, 0.0))
        return dict(sorted(out.items()))

    def model_chances(self) -> list[tuple[Fraction, float]]:
        """Each base's chance of being hit: (exact share, numeric share)."""
        out = [(Fraction(0), 0.0) for _ in self.formation.bases]
        for key in self.law.outcomes():
            if key is MISS:
                continue
            for i in key[0] + key[1]:
                out[i] = (out[i][0] + self.law.exact.get(key, 0), out[i][1] + self.law.numeric.get(key, 0.0))
        return out

    def miss(self) -> tuple[Fraction, float]:
        """The chance the centre lands beyond the table's edge."""
        return self.law.exact.get(MISS, Fraction(0)), self.law.numeric.get(MISS, 0.0)


def blast(formation: Formation) -> BlastResult:
    """The law of what a blast, large blast or barrage fired at the formation's aim point hits."""
    scatter = scatter_law(formation)
    markers = ((weapons.SMALL_BLAST_DIAMETER, weapons.LARGE_BLAST_DIAMETER)
               if BLAST_KINDS[formation.kind] == weapons.LARGE_BLAST_DIAMETER else (weapons.SMALL_BLAST_DIAMETER,))
    circles = [geometry.Circle(base.x, base.y, (marker + base.diameter) / 2)
               for base in formation.bases for marker in markers]
    law = geometry.scattered_law(formation.aim, scatter, circles, formation.table,
                                 lambda centre: blast_outcome(formation, centre))
    return BlastResult(formation, scatter, law)


@dataclass
class TemplateResult:
    """Where the teardrop goes and whom it covers."""

    formation: Formation
    placement: geometry.Placement
    template: geometry.Teardrop

    @property
    def covered(self) -> list[str]:
        """The names of the bases under the best placement."""
        return [self.formation.bases[i].name for i in self.placement.covered]


def teardrop(formation: Formation) -> TemplateResult:
    """The teardrop placed, its narrow end touching the firer's base, to cover as many bases as it can."""
    template = geometry.Teardrop(float(weapons.TEARDROP_LENGTH), float(formation.narrow_width) / 2,
                                 float(formation.wide_width) / 2, float(formation.firer.diameter) / 2)
    points = [(base.x, base.y) for base in formation.bases]
    reaches = [float(base.diameter) / 2 for base in formation.bases]
    placement = geometry.best_teardrop_turn(
        template, (formation.firer.x, formation.firer.y), points, reaches,
        lambda gap, i: weapons.template_covers_base(gap, float(formation.bases[i].diameter)))
    return TemplateResult(formation, placement, template)
