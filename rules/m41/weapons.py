"""Weapons, AP and Saves (004, chapter 11): the weapon profile, Strength, armour penetration and rend, overpower,
invulnerable saves, the ranged weapon types and their shots, grenades, blast, barrage and template weapons.

Saves are numbers to roll (2+ is 2); ``NO_SAVE`` (7) is a save no D6 can make, and ``NO_AP`` (7) is a profile's
"-" AP, which pierces no save. A negative AP is armour rend (interpretation m41-weapons-negative-ap-is-rend).
Each function decides one thing for one attack or model, written with rules.logic so z3 proves facts about it.
"""

from __future__ import annotations

import enum
import re
from fractions import Fraction
from typing import Any, Mapping

from rules import dice
from rules.logic import And, If, Max, Min, Not, Or, is_symbolic, z3
from rules.registry import ruleset_rule

rule = ruleset_rule("m41")

NO_SAVE = 7  # a save worse than 6+ cannot be made: no D6 reaches it
NO_AP = 7  # a "-" AP: every save (2+ to 6+) is better than it, so it pierces none
NATURAL_ONE = 1  # "a natural roll of a 1 is always a failure" (principles, Saving Throws)
OVERPOWER_MARGIN = 3  # S - T beyond the to-wound chart's "2 or greater" row (interpretation m41-weapons-overpower-exceeds)
OVERPOWER_SAVE_PENALTY = 1  # "resolved with -1 penalty to armour saves"
OVERPOWER_EXTRA_WOUNDS = 1  # "they lose one additional wound"
LARGE_BLAST_OUTER_AP_PENALTY = 1  # "the outer ring has an AP penalty of 1"
TEMPLATE_OUT_OF_SIGHT_LIMIT = 1  # "more than 1” of the template" may not be out of line of sight
TORRENT_REACH = 12  # "the narrow end is within 12” of the weapon"
PISTOLS_IN_PAIRS = 2  # "Models can fire pistols in pairs"
PISTOL_MELEE_ATTACKS = 1  # "make an single attack as if it were a melee weapon"
SCATTER_HIT_FACES = 2  # Hit! faces of the six (interpretation m41-weapons-scatter-die-faces)
SMALL_BLAST_DIAMETER = 3  # "the normal one (3” diameter)"
LARGE_BLAST_DIAMETER = 5  # "the large one (5” diameter)"
TEARDROP_LENGTH = Fraction(33, 4)  # "A teardrop template (8 1/4” long)"; the text gives no widths
D6_FACES = 6


class WeaponType(enum.IntEnum):
    """The ranged weapon types (one of them always) and Melee (weapons/ranged-weapons, weapons/melee-type)."""

    ASSAULT = 1
    RAPID_FIRE = 2
    SALVO = 3
    HEAVY = 4
    ORDNANCE = 5
    PISTOL = 6
    MELEE = 7


class StrengthKind(enum.IntEnum):
    """How a profile's S column reads: a number, "User", "+N" or "xN" (weapons/strength)."""

    FIXED = 1
    USER = 2
    PLUS = 3
    TIMES = 4


# -- The profile ------------------------------------------------------------------------------------------------------


@rule("weapons/melee-vs-ranged-weapons", "weapons/melee-type")
def is_melee_weapon(range_is_dash: Any, type_says_melee: Any) -> Any:
    """A profile is ranged by default; it is a melee weapon (used in the assault phase) when its range is "-" and
    its type says Melee."""
    return And(range_is_dash, type_says_melee)


@rule("weapons/melee-vs-ranged-weapons", "weapons/ranged-weapons", "weapons/pistols")
def usable_in_phase(melee: Any, pistol: Any, assault_phase: Any) -> Any:
    """Melee weapons are used in the assault phase only; ranged weapons in the shooting phase only, except pistols,
    which may also make an attack in the assault phase."""
    return If(assault_phase, Or(melee, pistol), Not(melee))


@rule("weapons/range")
def within_range(distance: Any, maximum: Any, minimum: Any = 0) -> Any:
    """A target is in range up to the maximum; a range bracket's first number is a minimum range (a distance of
    exactly the minimum is inside the bracket)."""
    return And(distance >= minimum, distance <= maximum)


@rule("weapons/template-weapons")
def uses_template(type_text: str) -> bool:
    """A profile whose type contains the word 'Template' or 'Hellstorm' is a shooting weapon that measures with the
    teardrop template instead of inches."""
    return re.search(r"\b(template|hellstorm)\b", type_text, re.IGNORECASE) is not None


@rule("weapons/strength", "weapons/close-combat-weapons")
def weapon_strength(user_strength: Any, kind: StrengthKind, value: Any = 0) -> Any:
    """The Strength of an attack: a printed number as printed; 'User' the wielder's Strength; '+N' and 'xN' the
    wielder's Strength with the bonus applied (a close combat weapon is 'User')."""
    return If(kind == StrengthKind.USER, user_strength,
              If(kind == StrengthKind.PLUS, user_strength + value,
                 If(kind == StrengthKind.TIMES, user_strength * value, value)))


_TYPE = re.compile(r"^\s*(assault|rapid fire|salvo|heavy|ordnance|pistol|melee)\s*"
                   r"(?:(\d+)\s*(?:/\s*(\d+))?)?\s*$", re.IGNORECASE)


@rule("weapons/number-of-shots", "weapons/type", "weapons/rapid-fire-weapons", "weapons/salvo-weapons")
def read_type(type_text: str) -> tuple[WeaponType, int, int]:
    """The weapon type and its shots from a profile's type ('Heavy 3', 'Salvo 4/6', 'Rapid Fire'): the type first,
    then the number of shots; a missing number means 1; a Salvo's two numbers are (moved, stationary), any other
    type fires the same either way. Special rules after a comma are not part of the type."""
    head = type_text.split(",")[0]
    match = _TYPE.match(head)
    if match is None:
        raise ValueError(f"{head!r} is not a weapon type with its shots (e.g. 'Heavy 3', 'Salvo 4/6')")
    kind = WeaponType[match.group(1).upper().replace(" ", "_")]
    if (match.group(3) is not None) != (kind == WeaponType.SALVO):
        raise ValueError(f"{head!r}: only a Salvo weapon gives two numbers of shots, and it must")
    shots = int(match.group(2) or 1)
    return kind, shots, int(match.group(3) or shots)


# -- Saves: armour penetration, rend, overpower, invulnerable saves --------------------------------------------------


@rule("weapons/armour-piercing")
def armour_pierced(save: Any, ap: Any) -> Any:
    """An armour save of equal value or worse than the AP cannot be made; an AP higher (worse) than the save lets
    it be made. A negative AP pierces nothing (it is rend: interpretation m41-weapons-negative-ap-is-rend)."""
    return And(ap >= 1, save >= ap)


@rule("weapons/armour-rend")
def rend_penalty(ap: Any) -> Any:
    """A negative AP is a penalty of that size to the armour save (AP -1: -1); any other AP has none."""
    return If(ap < 0, -ap, 0)


@rule("weapons/overpower")
def overpowers(strength: Any, toughness: Any, triggered_by_rule: Any = False, outer_ring: Any = False) -> Any:
    """An attack overpowers when S - T exceeds the to-wound chart's 2+ criterion (3 or more; interpretation
    m41-weapons-overpower-exceeds) or a rule triggers it; a large blast's outer ring cannot overpower."""
    return And(Not(outer_ring), Or(triggered_by_rule, strength - toughness >= OVERPOWER_MARGIN))


@rule("weapons/armour-piercing", "weapons/armour-rend", "weapons/overpower")
def armour_save_needed(save: Any, ap: Any, overpowered: Any = False) -> Any:
    """The roll an armour save needs against one hit, NO_SAVE if it cannot be taken: penetration is judged on the
    unmodified save first, then rend and overpower worsen it (a save pushed past 6+ cannot be made)."""
    worsened = save + rend_penalty(ap) + If(overpowered, OVERPOWER_SAVE_PENALTY, 0)
    return If(armour_pierced(save, ap), NO_SAVE, Min(worsened, NO_SAVE))


@rule("weapons/invulnerable-saves")
def invulnerable_save_needed(invulnerable_save: Any, ap: Any = NO_AP, overpowered: Any = False) -> Any:
    """The roll an invulnerable save needs: the save itself, whatever the AP (armour penetration has no effect on
    it, and overpower's penalty is to armour saves); the last two arguments are deliberately unused."""
    return invulnerable_save


@rule("weapons/armour-piercing", "weapons/invulnerable-saves")
def save_holds(roll: Any, needed: Any) -> Any:
    """A saving throw passes on a roll equal to or over the save needed; a natural 1 always fails."""
    return And(roll != NATURAL_ONE, roll >= needed)


@rule("weapons/overpower")
def wounds_lost_to_unsaved_wound(overpowered: Any) -> Any:
    """An unsaved wound costs one wound, and one additional wound from an attack with overpower."""
    return 1 + If(overpowered, OVERPOWER_EXTRA_WOUNDS, 0)


def save_chance(needed: int) -> Fraction:
    """The chance a D6 saving throw against ``needed`` passes (a natural 1 failing)."""
    return Fraction(sum(1 for roll in range(1, D6_FACES + 1) if save_holds(roll, needed)), D6_FACES)


# -- Ranged weapon types ---------------------------------------------------------------------------------------------


@rule("weapons/number-of-shots", "weapons/assault-weapons", "weapons/rapid-fire-weapons", "weapons/salvo-weapons",
      "weapons/heavy-weapons", "weapons/ordnance-weapons", "weapons/pistols")
def shots_fired(weapon_type: WeaponType, shots: Any, moved: Any, within_half_range: Any = False,
                stationary_shots: Any = None, vehicle: Any = False) -> Any:
    """Shots one model fires with one weapon in the shooting phase, at full effect: Assault and Pistol as printed,
    moved or not; Rapid Fire double within half range; Salvo the first number after moving, else the second;
    Heavy none after moving; Ordnance none after moving unless on a vehicle; a melee weapon none."""
    stationary = shots if stationary_shots is None else stationary_shots
    return If(weapon_type == WeaponType.RAPID_FIRE, If(within_half_range, 2 * shots, shots),
              If(weapon_type == WeaponType.SALVO, If(moved, shots, stationary),
                 If(weapon_type == WeaponType.HEAVY, If(moved, 0, shots),
                    If(weapon_type == WeaponType.ORDNANCE, If(And(moved, Not(vehicle)), 0, shots),
                       If(weapon_type == WeaponType.MELEE, 0, shots)))))


@rule("weapons/pistols")
def pistols_fired(pistols_carried: Any) -> Any:
    """Pistols are fired in pairs: up to two of the pistols a model carries."""
    return Min(pistols_carried, PISTOLS_IN_PAIRS)


@rule("weapons/pistols")
def pistol_melee_attacks(pistol_used_in_assault: Any) -> Any:
    """A pistol used in the assault phase makes a single attack as if it were a melee weapon."""
    return If(pistol_used_in_assault, PISTOL_MELEE_ATTACKS, 0)


@rule("weapons/ordnance-weapons")
def may_fire_snap_shots(weapon_type: WeaponType) -> Any:
    """Ordnance weapons cannot fire snap shots; every other weapon type can."""
    return weapon_type != WeaponType.ORDNANCE


@rule("weapons/ordnance-weapons")
def other_weapons_after_ordnance(vehicle: Any) -> Any:
    """After firing an Ordnance weapon, how the bearer's other weapons fire that phase: 0 not at all (a non-vehicle
    model, which also cannot charge), 1 as snap shots (a vehicle)."""
    return If(vehicle, 1, 0)


@rule("weapons/ordnance-weapons")
def may_charge_after_ordnance(fired_ordnance: Any, vehicle: Any) -> Any:
    """A non-vehicle model that fired an Ordnance weapon cannot charge in the ensuing assault phase."""
    return Or(Not(fired_ordnance), vehicle)


@rule("weapons/ordnance-weapons")
def ordnance_roll(first_die: Any, second_die: Any, ordnance: Any) -> Any:
    """The result of a roll to wound or to penetrate: an Ordnance weapon rolls two dice and picks the highest."""
    return If(ordnance, Max(first_die, second_die), first_die)


@rule("weapons/ordnance-weapons")
def roll_chance(needed: int, ordnance: bool) -> Fraction:
    """The chance a to-wound or penetration roll reaches ``needed`` (two dice, the highest, for Ordnance)."""
    faces = range(1, D6_FACES + 1)
    pairs = [(a, b) for a in faces for b in faces]
    return Fraction(sum(1 for a, b in pairs if ordnance_roll(a, b, ordnance) >= needed), len(pairs))


@rule("weapons/ordinance-barrage")
def may_fire_ordnance_barrage(any_unit_moved_this_turn: Any) -> Any:
    """An Ordnance barrage weapon may not fire in a turn in which any unit moved, vehicles included."""
    return Not(any_unit_moved_this_turn)


@rule("weapons/grenades")
def charge_bonus_attack(charged: Any, target_has_defensive_grenades: Any) -> Any:
    """A charging unit gets its extra attack unless the charged unit has defensive grenades."""
    return And(charged, Not(target_has_defensive_grenades))


@rule("weapons/grenades")
def initiative_penalty_charging_into_cover(penalty: Any, assault_grenades: Any) -> Any:
    """Assault grenades let a unit assault foes in cover with no initiative penalty; without them the assault
    chapter's penalty applies."""
    return If(assault_grenades, 0, penalty)


# -- Blast weapons ---------------------------------------------------------------------------------------------------


def _half(distance: Any) -> Any:
    """Half a distance, exactly: a Fraction, or a real z3 term."""
    if is_symbolic(distance):
        return z3.ToReal(distance) / 2 if distance.is_int() else distance / 2
    return Fraction(distance) / 2


@rule("weapons/firing-blast-weapons", "weapons/barrage")
def scatter_capped(distance: Any, aim_distance: Any) -> Any:
    """A blast scatters no more than half the distance from the firer to the original target location."""
    return If(2 * distance > aim_distance, _half(aim_distance), distance)


@rule("weapons/firing-blast-weapons")
def blast_scatter(arrow: Any, three_d3: Any, ballistic_skill: Any, aim_distance: Any) -> Any:
    """How far a blast scatters: nowhere on a Hit!; on an arrow 3d3 minus the firer's BS (never below 0), capped at
    half the aim distance."""
    return If(arrow, scatter_capped(Max(three_d3 - ballistic_skill, 0), aim_distance), 0)


@rule("weapons/barrage")
def barrage_scatter(arrow: Any, two_d6: Any, ballistic_skill: Any, aim_distance: Any, target_in_sight: Any) -> Any:
    """A barrage scatters 2d6 instead of 3d3, minus the BS at a target in sight; at a target out of sight the BS
    makes no difference (the full 2d6). The half-distance cap is kept (interpretation
    m41-weapons-barrage-full-2d6-still-capped)."""
    raw = If(target_in_sight, Max(two_d6 - ballistic_skill, 0), two_d6)
    return If(arrow, scatter_capped(raw, aim_distance), 0)


def _scatter_distribution(raw: Mapping[int, Fraction], aim_distance: Any,
                          hit_faces: int) -> dict[Fraction, Fraction]:
    arrow = Fraction(D6_FACES - hit_faces, D6_FACES)
    out: dict[Fraction, Fraction] = {Fraction(0): Fraction(hit_faces, D6_FACES)}
    for value, p in raw.items():
        distance = Fraction(scatter_capped(value, aim_distance))
        out[distance] = out.get(distance, Fraction(0)) + arrow * p
    return dict(sorted(out.items()))


@rule("weapons/firing-blast-weapons")
def blast_scatter_distribution(ballistic_skill: int, aim_distance: int | Fraction,
                               hit_faces: int = SCATTER_HIT_FACES) -> dict[Fraction, Fraction]:
    """The exact distribution of a blast's scatter distance for a firer's BS and the aim distance: the scatter
    die's Hit! faces do not move it, its arrows move it 3d3 - BS (at least 0), at most half the aim distance."""
    raw: dict[int, Fraction] = {}
    for total, p in dice.distribution("3D3").items():
        value = max(total - ballistic_skill, 0)
        raw[value] = raw.get(value, Fraction(0)) + p
    return _scatter_distribution(raw, aim_distance, hit_faces)


@rule("weapons/barrage")
def barrage_scatter_distribution(ballistic_skill: int, aim_distance: int | Fraction, target_in_sight: bool,
                                 hit_faces: int = SCATTER_HIT_FACES) -> dict[Fraction, Fraction]:
    """The exact distribution of a barrage's scatter distance: 2d6 - BS in sight (at least 0), the full 2d6 out of
    sight, at most half the aim distance; the Hit! faces do not move it."""
    raw: dict[int, Fraction] = {}
    for total, p in dice.distribution("2D6").items():
        value = max(total - ballistic_skill, 0) if target_in_sight else total
        raw[value] = raw.get(value, Fraction(0)) + p
    return _scatter_distribution(raw, aim_distance, hit_faces)


@rule("weapons/firing-blast-weapons")
def beyond_table_edge(x: Any, y: Any, table_width: Any, table_depth: Any) -> Any:
    """Whether a blast's centre hole at (x, y) lies beyond the table's edge (a point on the edge is still on it);
    the table runs from 0 to its width and depth."""
    return Or(x < 0, x > table_width, y < 0, y > table_depth)


@rule("weapons/firing-blast-weapons", "weapons/blasts-and-large-blasts")
def blast_marker_covers_base(centre_distance_squared: Any, marker_diameter: Any, base_diameter: Any) -> Any:
    """Whether a base lies "partially or fully under" a blast marker, from the squared distance between their
    centres: the two circles meet, touching included (interpretation m41-weapons-touching-base-is-under)."""
    return 4 * centre_distance_squared <= (marker_diameter + base_diameter) * (marker_diameter + base_diameter)


@rule("weapons/template-weapons-placing")
def template_covers_base(gap: Any, base_diameter: Any) -> Any:
    """Whether a base lies "fully or partially under" a template, from the gap between the base's centre and the
    template (0 inside it): the base reaches the template, touching included (interpretation
    m41-weapons-touching-base-is-under)."""
    return 2 * gap <= base_diameter


@rule("weapons/firing-blast-weapons")
def blast_misses(centre_beyond_table_edge: Any) -> Any:
    """A blast whose centre hole scatters beyond the table's edge is a complete miss."""
    return centre_beyond_table_edge


@rule("weapons/blasts-and-large-blasts")
def large_blast_ap(ap: Any, under_small_template: Any) -> Any:
    """The AP a model hit by a large blast suffers: the weapon's under the inner 3" (small) template, worse by 1 in
    the outer ring ("-" stays "-")."""
    return If(Or(under_small_template, ap >= NO_AP), ap, ap + LARGE_BLAST_OUTER_AP_PENALTY)


@rule("weapons/multiple-blasts")
def blast_hits_total(hits_per_marker: list[int]) -> int:
    """Each blast is resolved one at a time and its hits recorded; they are added together before rolling to wound."""
    return sum(hits_per_marker)


@rule("weapons/blast-weapons-and-re-rolls")
def blast_re_roll_allowed(re_roll_scatter_die: Any, re_roll_distance: Any) -> Any:
    """Re-rolling a blast's roll to hit re-rolls both the scatter die and the 3d3, never one of them alone."""
    return re_roll_scatter_die == re_roll_distance


@rule("weapons/multi-level-terrain")
def blast_reaches_height(height_above_floor: Any, diameter: Any) -> Any:
    """A blast is a cylinder as tall as the template's diameter, standing on the one floor it hits."""
    return And(height_above_floor >= 0, height_above_floor <= diameter)


@rule("weapons/barrage")
def barrage_misses_at_minimum_range(aim_distance: Any, minimum_range: Any) -> Any:
    """A barrage whose marker is placed within its minimum range (before scattering) misses automatically; the
    bracket's minimum itself is in range, as within_range reads a bracket)."""
    return aim_distance < minimum_range


@rule("weapons/barrage")
def has_pinning(barrage: Any, pinning_rule: Any = False) -> Any:
    """Every barrage weapon has the pinning special rule."""
    return Or(barrage, pinning_rule)


# -- Template weapons ------------------------------------------------------------------------------------------------


@rule("weapons/template-weapons-placing")
def template_placement_allowed(inches_out_of_sight: Any, touches_friendly_model: Any) -> Any:
    """A template may touch no friendly model and no more than 1" of it may be out of the firer's line of sight."""
    return And(inches_out_of_sight <= TEMPLATE_OUT_OF_SIGHT_LIMIT, Not(touches_friendly_model))


@rule("weapons/template-weapons-placing")
def template_ignores_cover(template: Any, flame: Any) -> Any:
    """Only template weapons described as flame weapons have Ignores Cover (an acid spray does not)."""
    return And(template, flame)


@rule("weapons/torrent", "weapons/ranged-templates")
def torrent_placement_allowed(narrow_end_distance: Any, wide_end_distance: Any, reach: Any = TORRENT_REACH,
                              in_line: Any = True, ranged_template: Any = False) -> Any:
    """A torrent template's narrow end is within 12" of the weapon (a ranged template's within its range) and its
    wide end no closer than the narrow end; a ranged template cannot be angled: model, narrow end and tip in line."""
    return And(narrow_end_distance <= reach, wide_end_distance >= narrow_end_distance,
               Or(Not(ranged_template), in_line))
