"""z3 proofs about 004's Weapons, AP and Saves and Unit Types chapters (ruleset ``m41``): saves never better than
the rules allow, AP monotone, penetration before modifiers, scatter capped at half the distance, moving never adding
shots, the movement table's floor.

Each builder calls the real rule functions through their modules so ``properties/test_m41_weapons.py`` can swap in
a broken copy and watch the proof fail. Proofs with ``expect="disproved"`` are findings
(spec/m41/annotations/findings/weapons.yaml): the text as printed fails them, and the code follows a recorded
interpretation instead.
"""

from __future__ import annotations

from typing import Any

import z3

from properties.proofs import Built, proof
from rules.m41 import unit_types, weapons
from rules.m41.unit_types import UnitType
from rules.m41.weapons import NO_AP, NO_SAVE, WeaponType


def _between(symbol: Any, low: int, high: int) -> Any:
    return z3.And(symbol >= low, symbol <= high)


def _save_facts() -> tuple[list, dict]:
    """An armour save 2+ to 6+ or none (7), an AP of -3 to -1 (rend), 1 to 6 or "-" (7), overpowered or not."""
    save, ap = z3.Ints("save ap")
    overpowered = z3.Bool("overpowered")
    pre = [_between(save, 2, NO_SAVE), z3.Or(_between(ap, -3, -1), _between(ap, 1, NO_AP))]
    return pre, {"save": save, "ap": ap, "overpowered": overpowered}


# -- Saves -------------------------------------------------------------------------------------------------------------


@proof("m41-weapons-save-never-better-than-printed", ("m41:weapons/armour-piercing", "m41:weapons/armour-rend",
                                                        "m41:weapons/overpower"),
       "Whatever the AP, rend and overpower, the armour save a hit allows is never better than the model's own and "
       "never past 'no save' (7); a save worse than 6+ cannot be made.")
def _save_never_better() -> Built:
    pre, f = _save_facts()
    needed = weapons.armour_save_needed(f["save"], f["ap"], f["overpowered"])
    return pre, z3.And(needed >= f["save"], needed <= NO_SAVE), f


@proof("m41-weapons-better-ap-never-lets-a-worse-save", ("m41:weapons/armour-piercing",),
       "A better (lower) AP never lets a save be taken that a worse AP denies, nor makes it easier: the save needed "
       "against AP a is at least that against AP b whenever 1 <= a <= b <= 7.")
def _ap_monotone() -> Built:
    pre, f = _save_facts()
    better, worse = z3.Ints("better_ap worse_ap")
    pre = pre + [_between(better, 1, NO_AP), _between(worse, better, NO_AP)]
    goal = (weapons.armour_save_needed(f["save"], better, f["overpowered"])
            >= weapons.armour_save_needed(f["save"], worse, f["overpowered"]))
    return pre, goal, {**f, "better_ap": better, "worse_ap": worse}


@proof("m41-weapons-penetration-before-modifiers", ("m41:weapons/armour-piercing", "m41:weapons/overpower"),
       "Armour penetration is judged on the unmodified save, before rend and overpower worsen it: an AP 1 to 6 "
       "denies exactly the saves of equal or worse value, and a save it does not deny is only worsened.")
def _penetration_first() -> Built:
    pre, f = _save_facts()
    s, ap, op = f["save"], f["ap"], f["overpowered"]
    pre = pre + [_between(s, 2, 6), _between(ap, 1, 6)]
    penalty = z3.If(op, 1, 0)
    expected = z3.If(s >= ap, NO_SAVE, z3.If(s + penalty > NO_SAVE, NO_SAVE, s + penalty))
    return pre, weapons.armour_save_needed(s, ap, op) == expected, f


@proof("m41-weapons-invulnerable-save-ignores-ap", ("m41:weapons/invulnerable-saves",),
       "An invulnerable save is needed at its own value whatever the AP (rend included) and overpower.")
def _invulnerable() -> Built:
    pre, f = _save_facts()
    invulnerable = z3.Int("invulnerable")
    needed = weapons.invulnerable_save_needed(invulnerable, f["ap"], f["overpowered"])
    return pre + [_between(invulnerable, 2, 6)], needed == invulnerable, {**f, "invulnerable": invulnerable}


@proof("m41-weapons-overpower-monotone-in-strength", ("m41:weapons/overpower",),
       "A stronger attack never loses overpower against the same toughness, and S - T of 3 or more overpowers "
       "(outside a large blast's outer ring).")
def _overpower_monotone() -> Built:
    strength, stronger, toughness = z3.Ints("strength stronger toughness")
    pre = [_between(strength, 1, 20), _between(stronger, strength, 20), _between(toughness, 1, 20)]
    goal = z3.And(z3.Implies(weapons.overpowers(strength, toughness), weapons.overpowers(stronger, toughness)),
                  weapons.overpowers(strength, toughness) == (strength - toughness >= 3))
    return pre, goal, {"strength": strength, "stronger": stronger, "toughness": toughness}


# -- Shots ---------------------------------------------------------------------------------------------------------


@proof("m41-weapons-moving-never-adds-shots", ("m41:weapons/number-of-shots", "m41:weapons/heavy-weapons",
                                                 "m41:weapons/salvo-weapons", "m41:weapons/ordnance-weapons"),
       "For every weapon type, a model that moved fires no more shots than one that did not, and never more than "
       "the profile gives it (double for Rapid Fire within half range); a melee weapon fires none.")
def _moving_never_adds() -> Built:
    kind, shots, stationary = z3.Ints("weapon_type shots stationary_shots")
    half, vehicle = z3.Bools("within_half_range vehicle")
    pre = [_between(kind, int(min(WeaponType)), int(max(WeaponType))), _between(shots, 1, 10),
           _between(stationary, shots, 12)]
    moved = weapons.shots_fired(kind, shots, True, half, stationary, vehicle)
    still = weapons.shots_fired(kind, shots, False, half, stationary, vehicle)
    goal = z3.And(moved <= still, moved >= 0, still <= z3.If(2 * shots > stationary, 2 * shots, stationary),
                  z3.Implies(kind == int(WeaponType.MELEE), still == 0))
    return pre, goal, {"weapon_type": kind, "shots": shots, "stationary_shots": stationary,
                       "within_half_range": half, "vehicle": vehicle}


@proof("m41-weapons-ordnance-picks-the-highest", ("m41:weapons/ordnance-weapons",),
       "An Ordnance roll to wound or penetrate is the higher of its two dice, never below either; any other weapon "
       "reads its one die.")
def _ordnance_highest() -> Built:
    first, second = z3.Ints("first_die second_die")
    ordnance = z3.Bool("ordnance")
    result = weapons.ordnance_roll(first, second, ordnance)
    goal = z3.If(ordnance, z3.And(result >= first, result >= second, z3.Or(result == first, result == second)),
                 result == first)
    return [_between(first, 1, 6), _between(second, 1, 6)], goal, \
        {"first_die": first, "second_die": second, "ordnance": ordnance}


# -- Scatter ---------------------------------------------------------------------------------------------------------


def _scatter_facts() -> tuple[list, dict]:
    arrow, in_sight = z3.Bools("arrow target_in_sight")
    three_d3, two_d6, bs, aim = z3.Ints("three_d3 two_d6 ballistic_skill aim_distance")
    pre = [_between(three_d3, 3, 9), _between(two_d6, 2, 12), _between(bs, 1, 10), _between(aim, 1, 72)]
    return pre, {"arrow": arrow, "target_in_sight": in_sight, "three_d3": three_d3, "two_d6": two_d6,
                 "ballistic_skill": bs, "aim_distance": aim}


@proof("m41-weapons-scatter-never-more-than-half-the-aim", ("m41:weapons/firing-blast-weapons", "m41:weapons/barrage"),
       "A blast or barrage never scatters more than half the distance to its original target location, never a "
       "negative distance, and not at all on a Hit!.")
def _scatter_capped() -> Built:
    pre, f = _scatter_facts()
    blast = weapons.blast_scatter(f["arrow"], f["three_d3"], f["ballistic_skill"], f["aim_distance"])
    barrage = weapons.barrage_scatter(f["arrow"], f["two_d6"], f["ballistic_skill"], f["aim_distance"],
                                      f["target_in_sight"])
    aim = z3.ToReal(f["aim_distance"])
    goal = z3.And(*(z3.And(d >= 0, 2 * d <= aim, z3.Implies(z3.Not(f["arrow"]), d == 0)) for d in (blast, barrage)))
    return pre, goal, f


@proof("m41-weapons-scatter-capped-at-exactly-half", ("m41:weapons/firing-blast-weapons",),
       "A scatter longer than half the aim distance moves exactly half of it, a shorter one its own length, whether "
       "the aim distance is a whole number of inches or any real distance (0 to 72): 2 x capped = min(2 x scatter, "
       "aim).")
def _scatter_capped_exactly() -> Built:
    distance, whole_aim = z3.Ints("scatter whole_aim_distance")
    real_aim = z3.Real("real_aim_distance")
    pre = [distance >= 0, distance <= 12, whole_aim >= 1, whole_aim <= 72, real_aim > 0, real_aim <= 72]
    goal = z3.And(*(2 * weapons.scatter_capped(distance, aim) == z3.If(2 * distance > aim, aim, 2 * distance)
                    for aim in (whole_aim, real_aim)))
    return pre, goal, {"scatter": distance, "whole_aim_distance": whole_aim, "real_aim_distance": real_aim}


@proof("m41-weapons-better-bs-never-scatters-farther", ("m41:weapons/firing-blast-weapons", "m41:weapons/barrage"),
       "With the same dice, a firer of higher BS never scatters a blast, or a barrage at a target in sight, farther; "
       "unscattered, a blast moves 3d3 minus the BS.")
def _bs_monotone() -> Built:
    pre, f = _scatter_facts()
    better = z3.Int("better_bs")
    pre = pre + [_between(better, f["ballistic_skill"], 10), _between(f["aim_distance"], 18, 72)]
    bs, d3, d6, aim = f["ballistic_skill"], f["three_d3"], f["two_d6"], f["aim_distance"]
    goal = z3.And(
        weapons.blast_scatter(True, d3, better, aim) <= weapons.blast_scatter(True, d3, bs, aim),
        weapons.barrage_scatter(True, d6, better, aim, True) <= weapons.barrage_scatter(True, d6, bs, aim, True),
        weapons.blast_scatter(True, d3, bs, aim) == z3.If(d3 - bs > 0, d3 - bs, 0))
    return pre, goal, {**f, "better_bs": better}


# -- Unit types ------------------------------------------------------------------------------------------------------


@proof("unit-types-every-type-moves-at-least-infantry", ("m41:unit-types/moving-with-infantry",
                                                          "m41:unit-types/moving-with-jump-movement"),
       "Every unit type moves at least infantry's 6\" (each builds off the infantry rules), and jump movement never "
       "moves a model less than grounded movement.")
def _move_floor() -> Built:
    unit_type = z3.Int("unit_type")
    jump = z3.Bool("jump_movement")
    pre = [_between(unit_type, int(min(UnitType)), int(max(UnitType)))]
    goal = z3.And(unit_types.move_distance(unit_type, jump) >= unit_types.INFANTRY_MOVE,
                  unit_types.move_distance(unit_type, True) >= unit_types.move_distance(unit_type, False))
    return pre, goal, {"unit_type": unit_type, "jump_movement": jump}


@proof("unit-types-swarm-attacks-fall-with-wounds", ("m41:unit-types/power-in-numbers",),
       "A swarm's attacks are never negative, one fewer for each lost wound while any remain, and never more for "
       "more wounds lost.")
def _swarm() -> Built:
    attacks, lost, more = z3.Ints("attacks wounds_lost more_lost")
    pre = [_between(attacks, 1, 20), _between(lost, 0, 20), _between(more, lost, 20)]
    now = unit_types.swarm_attacks(attacks, lost)
    goal = z3.And(now >= 0, unit_types.swarm_attacks(attacks, more) <= now,
                  z3.Implies(lost <= attacks, now == attacks - lost))
    return pre, goal, {"attacks": attacks, "wounds_lost": lost, "more_lost": more}


# -- Findings: the text as printed ------------------------------------------------------------------------------------


@proof("m41-weapons-rend-meets-an-armour-save-as-printed", ("m41:weapons/armour-rend", "m41:weapons/armour-piercing"),
       "Read as printed (an armour save of equal value or higher than the AP cannot be made, for any AP), a "
       "weapon with a negative AP leaves an armour save for rend's penalty to worsen.", expect="disproved")
def _rend_as_printed() -> Built:
    save, ap = z3.Ints("save ap")
    pierced_as_printed = save >= ap
    goal = z3.Implies(weapons.rend_penalty(ap) > 0, z3.Not(pierced_as_printed))
    return [_between(save, 2, 6), _between(ap, -3, -1)], goal, {"save": save, "ap": ap}


@proof("m41-weapons-barrage-out-of-sight-scatters-full-2d6", ("m41:weapons/barrage",),
       "A barrage fired at a target out of sight scatters the full 2D6 whenever an arrow is rolled, as its bullet "
       "says.", expect="disproved")
def _barrage_full() -> Built:
    pre, f = _scatter_facts()
    scatter = weapons.barrage_scatter(True, f["two_d6"], f["ballistic_skill"], f["aim_distance"], False)
    return pre, scatter == f["two_d6"], {k: f[k] for k in ("two_d6", "ballistic_skill", "aim_distance")}


@proof("unit-types-big-guns-fire-any-ranged-weapon-as-snap-shots", ("m41:unit-types/big-guns-never-tire",
                                                                     "m41:weapons/ordnance-weapons"),
       "Every ranged weapon a monstrous creature may use in the assault phase as Big Guns Never Tire prints it (one "
       "of its ranged weapons, fired as snap shots) may fire snap shots.", expect="disproved")
def _big_guns_snap_shots() -> Built:
    weapon_type = z3.Int("weapon_type")
    ranged = _between(weapon_type, int(WeaponType.ASSAULT), int(WeaponType.PISTOL))
    return [ranged], weapons.may_fire_snap_shots(weapon_type), {"weapon_type": weapon_type}
