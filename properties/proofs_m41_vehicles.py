"""z3 proofs about 004's Vehicles chapter (ruleset ``m41``): armour penetration monotone in Strength and Armour
Value, damage results monotone in AP, hull points per hit, the vehicle cover floor, speeds monotone in distance,
the close-combat hit chart, the walker's attack floor and the ram's stated maximum.

Each builder calls the real rule functions through ``rules.m41.vehicles`` so properties/test_m41_vehicles.py can
swap in a broken copy and watch the proof fail. Proofs with ``expect="disproved"`` are findings
(spec/m41/annotations/findings/vehicles.yaml): the text as printed somewhere fails them, and the code follows a
recorded interpretation instead.
"""

from __future__ import annotations

from typing import Any

import z3

from properties.proofs import Built, proof
from rules.m41 import vehicles
from rules.m41.vehicles import Damage, Speed

STRENGTH = (1, 14)  # a weapon's 1 to 10, a ram's hit up to 14 (domains.yaml)
ARMOUR = (9, 14)  # AV 10 to 14, one lower when compromised (domains.yaml)
AP = (1, vehicles.NO_AP)  # AP 1 to 6 and '-'


def _between(symbol: Any, low: int, high: int) -> Any:
    return z3.And(symbol >= low, symbol <= high)


@proof("m41-vehicles-higher-armour-never-penetrated-easier", ("m41:vehicles/armour-penetration",),
       "For the same Strength and d6, a higher Armour Value never gives a better penetration result (no effect, "
       "glancing, penetrating).")
def _armour_monotone() -> Built:
    strength, roll, armour, thicker = z3.Ints("strength roll armour thicker")
    pre = [_between(strength, *STRENGTH), _between(roll, 1, 6), _between(armour, *ARMOUR),
           _between(thicker, *ARMOUR), thicker >= armour]
    goal = vehicles.penetration(strength, roll, thicker) <= vehicles.penetration(strength, roll, armour)
    return pre, goal, {"strength": strength, "roll": roll, "armour": armour, "thicker": thicker}


@proof("m41-vehicles-higher-strength-never-penetrates-worse", ("m41:vehicles/armour-penetration",),
       "For the same Armour Value and d6, a higher Strength never gives a worse penetration result.")
def _strength_monotone() -> Built:
    strength, stronger, roll, armour = z3.Ints("strength stronger roll armour")
    pre = [_between(strength, *STRENGTH), _between(stronger, *STRENGTH), stronger >= strength,
           _between(roll, 1, 6), _between(armour, *ARMOUR)]
    goal = vehicles.penetration(stronger, roll, armour) >= vehicles.penetration(strength, roll, armour)
    return pre, goal, {"strength": strength, "stronger": stronger, "roll": roll, "armour": armour}


@proof("m41-vehicles-better-ap-never-damages-less", ("m41:vehicles/damage-roll-modifiers", "m41:vehicles/damage-chart"),
       "For the same d6, a better AP (lower, AP '-' worst) never gives a lower damage chart result, and a glancing "
       "hit never a higher one than a penetrating hit.")
def _ap_monotone() -> Built:
    roll, ap, better = z3.Ints("roll ap better")
    glancing = z3.Bool("glancing")
    pre = [_between(roll, 1, 6), _between(ap, *AP), _between(better, *AP), better <= ap]
    goal = z3.And(vehicles.damage_result(roll, glancing, better) >= vehicles.damage_result(roll, glancing, ap),
                  vehicles.damage_result(roll, True, ap) <= vehicles.damage_result(roll, False, ap))
    return pre, goal, {"roll": roll, "ap": ap, "better": better, "glancing": glancing}


@proof("m41-vehicles-hull-points-per-hit", ("m41:vehicles/penetrating-hits", "m41:vehicles/damage-chart"),
       "One hit costs a penetrating hit at least one hull point and at most three (its own, a vehicle damaged or "
       "on fire result's one, one more on fire); a glancing hit at most one, only on a 4+ result.")
def _hull_points_per_hit() -> Built:
    roll, ap = z3.Ints("roll ap")
    on_fire = z3.Bool("already_on_fire")
    pre = [_between(roll, 1, 6), _between(ap, *AP)]
    pen = vehicles.hull_points_lost(True, vehicles.damage_result(roll, False, ap), on_fire)
    glance_result = vehicles.damage_result(roll, True, ap)
    glance = vehicles.hull_points_lost(False, glance_result, on_fire)
    goal = z3.And(pen >= 1, pen <= 3, glance <= 1, (glance == 1) == (glance_result >= Damage.VEHICLE_DAMAGED))
    return pre, goal, {"roll": roll, "ap": ap, "already_on_fire": on_fire}


@proof("m41-vehicles-glances-never-cost-hull-points", ("m41:vehicles/glancing-hits", "m41:vehicles/damage-chart"),
       "A glancing hit never costs a hull point (revision 007: 'Only pens cause hull points by default'). The "
       "damage chart's vehicle damaged result costs one whatever the hit, so a glance does.", expect="disproved")
def _glances_free() -> Built:
    roll, ap = z3.Ints("roll ap")
    pre = [_between(roll, 1, 6), _between(ap, *AP)]
    goal = vehicles.hull_points_lost(False, vehicles.damage_result(roll, True, ap)) == 0
    return pre, goal, {"roll": roll, "ap": ap}


@proof("m41-vehicles-cover-save-one-worse-to-six", ("m41:vehicles/cover",),
       "A vehicle's cover save is one worse than the terrain's cover save, but never worse than 6+.")
def _cover_floor() -> Built:
    save = z3.Int("cover_save")
    result = vehicles.vehicle_cover_save(save)
    goal = z3.And(result <= vehicles.WORST_VEHICLE_COVER, z3.Or(result == save + 1, result == 6), result >= save)
    return [_between(save, 2, 6)], goal, {"cover_save": save}


@proof("m41-vehicles-speed-never-drops-with-distance", ("m41:vehicles/vehicle-speeds",),
       "For the same current maximum move, moving further never gives a slower speed band (stationary, half, "
       "full), and a vehicle over half its maximum move is at full speed.")
def _speed_monotone() -> Built:
    distance, further, max_move = z3.Ints("distance further max_move")
    pivoted = z3.Bool("pivoted")
    pre = [_between(max_move, 1, 12), _between(distance, 0, 18), _between(further, 0, 18), further >= distance,
           further <= max_move + vehicles.ROAD_BONUS]
    goal = z3.And(vehicles.speed_moved(further, max_move, pivoted) >= vehicles.speed_moved(distance, max_move, pivoted),
                  z3.Implies(2 * further > max_move, vehicles.speed_moved(further, max_move, pivoted) == Speed.FULL))
    return pre, goal, {"distance": distance, "further": further, "max_move": max_move, "pivoted": pivoted}


@proof("m41-vehicles-pivot-alone-is-stationary", ("m41:vehicles/moving-with-tracked-and-wheeled-vehicles",
                                                  "m41:vehicles/shooting-with-crewed-vehicles"),
       "A vehicle that only pivoted on the spot did not move (the shooting rules' reminder: 'pivoting on the spot "
       "does not count'). The movement rules say turning 'does count as moving', which the code follows.",
       expect="disproved")
def _pivot_stationary() -> Built:
    max_move = z3.Int("max_move")
    goal = vehicles.speed_moved(0, max_move, True) == Speed.STATIONARY
    return [_between(max_move, 1, 12)], goal, {"max_move": max_move}


@proof("m41-vehicles-faster-is-harder-to-hit-in-close-combat", ("m41:vehicles/assaulting-crewed-vehicles",),
       "The roll needed to hit a vehicle in close combat never falls as it moves faster; moving flat out and "
       "being a skimmer each make it one harder, open-topped one easier.")
def _close_combat_monotone() -> Built:
    speed, faster = z3.Ints("speed faster")
    flat_out, skimmer, open_topped = z3.Bools("moved_flat_out skimmer open_topped")
    pre = [_between(speed, 0, 2), _between(faster, 0, 2), faster >= speed]
    needed = vehicles.close_combat_hit_needed(speed, flat_out, skimmer, open_topped)
    plain = vehicles.close_combat_hit_needed(speed, False, False, False)
    goal = z3.And(vehicles.close_combat_hit_needed(faster, flat_out, skimmer, open_topped) >= needed,
                  needed == plain + z3.If(flat_out, 1, 0) + z3.If(skimmer, 1, 0) - z3.If(open_topped, 1, 0),
                  plain == 2 + speed)
    return pre, goal, {"speed": speed, "faster": faster, "moved_flat_out": flat_out, "skimmer": skimmer,
                       "open_topped": open_topped}


@proof("m41-vehicles-mobility-limited-attacks-floor", ("m41:vehicles/mobility-limited",),
       "A combat-capable vehicle loses one attack for each of immobilised, movement impaired and shaken, never "
       "going below 1.")
def _attacks_floor() -> Built:
    attacks = z3.Int("attacks")
    flags = z3.Bools("is_immobilised movement_impaired shaken")
    result = vehicles.walker_attacks(attacks, *flags)
    lost = sum(z3.If(flag, 1, 0) for flag in flags)
    goal = z3.And(result >= 1, result == z3.If(attacks - lost < 1, 1, attacks - lost))
    return [_between(attacks, 1, 10)], goal, {"attacks": attacks, "is_immobilised": flags[0],
                                              "movement_impaired": flags[1], "shaken": flags[2]}


@proof("m41-vehicles-ram-maximum-without-a-road", ("m41:vehicles/ramming",),
       "A ram's Strength is at most 4 + 6 + 1 = 11 for a move of up to 12\" (the stated maximum), reached by an AV14 "
       "tank moving 11\" or 12\" (a land raider).")
def _ram_maximum() -> Built:
    armour, distance = z3.Ints("armour distance")
    tank = z3.Bool("tank")
    pre = [_between(armour, 10, 14), _between(distance, 0, vehicles.DEFAULT_MAX_MOVE)]
    goal = z3.And(vehicles.ram_strength(armour, distance, tank) <= 11,
                  vehicles.ram_strength(14, vehicles.DEFAULT_MAX_MOVE, True) == 11,
                  vehicles.ram_strength(14, vehicles.DEFAULT_MAX_MOVE - 1, True) == 11)
    return pre, goal, {"armour": armour, "distance": distance, "tank": tank}


@proof("m41-vehicles-ram-never-above-eleven", ("m41:vehicles/ramming", "m41:vehicles/roads"),
       "A ram's Strength never exceeds the stated maximum of 11, whatever the move (a road's extra 6\" included).",
       expect="disproved")
def _ram_eleven() -> Built:
    armour, distance = z3.Ints("armour distance")
    tank = z3.Bool("tank")
    pre = [_between(armour, 10, 14), _between(distance, 0, vehicles.DEFAULT_MAX_MOVE + vehicles.ROAD_BONUS)]
    return pre, vehicles.ram_strength(armour, distance, tank) <= 11, {"armour": armour, "distance": distance,
                                                                       "tank": tank}


@proof("m41-vehicles-initiative-never-below-one", ("m41:vehicles/disoriented-crew",),
       "Crew shaken penalties never take a vehicle's Initiative below 1 (principles: 'Initiative cannot be "
       "modified below 1'). Disoriented Crew lets any stat reach 0, which the code follows.", expect="disproved")
def _initiative_floor() -> Built:
    initiative, penalties = z3.Ints("initiative penalties")
    pre = [_between(initiative, 1, 10), _between(penalties, 0, 10)]
    return pre, vehicles.crew_characteristic(initiative, penalties) >= 1, {"initiative": initiative,
                                                                          "penalties": penalties}
