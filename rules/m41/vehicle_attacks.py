"""999.m41's attacks on a vehicle, exact: its rules put in sequence for the shared vehicle chain
(rules.engine.vehicle).

Each hit is resolved in full before the next, in the order the weapons are listed (interpretation
vehicles-hits-resolved-one-at-a-time): the armour penetration roll against the facing's armour as it stands, then
for a glancing or penetrating hit the damage chart, its cumulative results, the vehicle damaged sub-results
(re-rolled when repeated), hull points and On Fire!. Every step is a tagged m41 rule function called per die face;
this module only enumerates the faces and carries the state.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any, Iterator

from rules import dice
from rules.engine import vehicle as chain
from rules.m41 import assault, shooting, usr, vehicles, weapons
from rules.m41.vehicle_scenario import VehicleScenario, VehicleTarget, VehicleWeapon, read_vehicle_scenario
from rules.m41.vehicles import Damage, Penetration
from rules.m41.weapons import WeaponType

FACES = range(1, 7)


@dataclass(frozen=True)
class VehicleState:
    """What earlier hits of the attack left that changes later ones (and what the answer reports)."""

    hull_points: int
    armour: int  # the attacked facing's Armour Value now
    on_fire: bool = False
    suffered: frozenset[int] = frozenset()  # vehicle damaged sub-results suffered (each at most once)


class M41VehicleRules:
    """m41's rules for the vehicle chain: hits from the to-hit step, one hit's outcomes, destruction."""

    def __init__(self, target: VehicleTarget, context: Any):
        self.target = target
        self.context = context
        self._penetration: dict = {}  # (weapon, armour) -> penetration_chances, worked out once per calculation
        self._hit: dict = {}  # (weapon, state) -> one hit's outcomes

    def penetration(self, weapon: VehicleWeapon, armour: int) -> dict[tuple[Penetration, int], Fraction]:
        key = (weapon, armour)
        if key not in self._penetration:
            self._penetration[key] = penetration_chances(weapon, armour, self.context.within_half_range)
        return self._penetration[key]

    def finished(self, state: VehicleState) -> bool:
        return bool(vehicles.destroyed(state.hull_points))

    def dice_rolled(self, weapon: VehicleWeapon) -> int:
        """To-hit dice the weapon's models roll: shots by type and movement, or attacks (+1 on the charge)."""
        if weapon.kind is WeaponType.MELEE:
            bonus = 1 if weapons.charge_bonus_attack(self.context.charged, False) else 0
            return weapon.count * (weapon.attacks + bonus)
        return weapon.count * int(weapons.shots_fired(weapon.kind, weapon.shots, self.context.moved,
                                                      self.context.within_half_range, weapon.stationary_shots))

    def hit_chance(self, weapon: VehicleWeapon) -> Fraction:
        """One attack's chance to hit: the faces that hit are N+ (the least that hits and every one above), and
        twin-linked's two dice are ``usr.twin_linked_hit_chance`` of that N+, the function revision 006 replaces."""
        needed = min((roll for roll in FACES if self._hits(weapon, roll)), default=7)
        if "Twin-linked" in weapon.rules:
            return usr.twin_linked_hit_chance(needed)
        return usr.chance_at_least(needed)

    def _hits(self, weapon: VehicleWeapon, roll: int) -> bool:
        target = self.target
        if weapon.kind is WeaponType.MELEE:
            if target.weapon_skill is not None:
                return bool(assault.hits(roll, weapon.skill, target.weapon_skill))
            needed = vehicles.close_combat_hit_needed(target.speed, target.flat_out, "skimmer" in target.types,
                                                      "open-topped" in target.types)
            return roll >= needed
        penalty = -vehicles.to_hit_modifier_against("skimmer" in target.types, target.flat_out, False)
        return bool(shooting.hit_scored(roll, weapon.skill, penalty))

    def hits(self, weapon: VehicleWeapon) -> dict[int, Fraction]:
        n, p = self.dice_rolled(weapon), self.hit_chance(weapon)
        return {k: math.comb(n, k) * p ** k * (1 - p) ** (n - k) for k in range(n + 1)}

    def hit(self, weapon: VehicleWeapon, state: VehicleState) -> list[tuple[Fraction, VehicleState, Any]]:
        """One hit's outcomes from this state, equal (next state, event) pairs merged; worked out once per
        calculation (the counting runs ask again)."""
        key = (weapon, state)
        if key not in self._hit:
            merged: dict[tuple[VehicleState, Any], Fraction] = {}
            for p, after, event in self._outcomes(weapon, state):
                merged[after, event] = merged.get((after, event), Fraction(0)) + p
            self._hit[key] = [(p, after, event) for (after, event), p in merged.items()]
        return self._hit[key]

    def _outcomes(self, weapon: VehicleWeapon, state: VehicleState) -> Iterator[tuple[Fraction, VehicleState, Any]]:
        for (kind, ap), p in self.penetration(weapon, state.armour).items():
            if kind is Penetration.NO_EFFECT:
                yield p, state, (kind, None)
                continue
            for result, q in damage_chances(kind is Penetration.GLANCING, ap).items():
                for after, r in _damaged(state, kind is Penetration.PENETRATING, result):
                    yield p * q * r, after, (kind, result)


def penetration_chances(weapon: VehicleWeapon, armour: int,
                        within_half_range: bool) -> dict[tuple[Penetration, int], Fraction]:
    """One hit's armour penetration outcome and the AP its damage roll reads: every face of the dice it rolls (the
    d6, an Ordnance weapon's second die, armour bane's or melta's extra d6, rending's d3 and AP2 on a 6) through
    the m41 rule functions."""
    rules = weapon.rules
    ordnance = weapon.kind is WeaponType.ORDNANCE
    extra = int(usr.extra_penetration_dice("Armour Bane" in rules, "Melta" in rules, within_half_range, True))
    bonus = int(usr.tank_hunters_penetration_bonus("Tank Hunters" in rules, True))
    against = int(usr.armour_value_against(armour, "Lance" in rules))
    d3 = dice.distribution("D3")
    ap = int(vehicles.damage_roll_ap(weapon.ap))
    chances: dict[tuple[Penetration, int], Fraction] = {}
    for faces in itertools.product(FACES, repeat=1 + ordnance + extra):
        p = Fraction(1, 6 ** len(faces))
        roll = int(weapons.ordnance_roll(faces[0], faces[1] if ordnance else faces[0], ordnance))
        if "Haywire" in rules:
            key = (Penetration(usr.haywire_result(roll)), ap)
            chances[key] = chances.get(key, Fraction(0)) + p
            continue
        strength = weapon.strength + bonus + sum(faces[1 + ordnance:])
        rending, hit_ap = {0: Fraction(1)}, ap
        if "Rending" in rules and usr.rending_extra_penetration_d3(roll):
            rending, hit_ap = d3, int(usr.rending_ap(roll, ap))
        for add, q in rending.items():
            key = (Penetration(vehicles.penetration(strength + add, roll, against)), hit_ap)
            chances[key] = chances.get(key, Fraction(0)) + p * q
    return chances


def damage_chances(glancing: bool, ap: int) -> dict[Damage, Fraction]:
    """The damage chart's result for one glancing or penetrating hit of this AP (as the modifier table reads it)."""
    return {r: p for r, p in vehicles.damage_distribution(glancing, ap).items() if p}


def _damaged(state: VehicleState, penetrating: bool, result: Damage) -> list[tuple[VehicleState, Fraction]]:
    """The states one damage result leaves, with their chances (the vehicle damaged sub-rolls are the chance)."""
    lost = int(vehicles.hull_points_lost(penetrating, result, state.on_fire))
    after = replace(state, hull_points=max(state.hull_points - lost, 0),
                    on_fire=bool(vehicles.set_on_fire(state.on_fire, result)))
    outcomes = [(after, Fraction(1))]
    for _ in range(vehicles.damaged_sub_rolls(result)):
        rolled = []
        for now, p in outcomes:
            for sub, q in vehicles.damaged_sub_result_chances(now.suffered).items():
                rolled.append((replace(now, suffered=now.suffered | {sub},
                                       armour=int(vehicles.armour_after_damaged_result(now.armour, sub))), p * q))
        outcomes = rolled or outcomes
    return outcomes


@dataclass
class VehicleResult:
    """The exact answer: distributions over the whole attack, every chance a Fraction."""

    vehicle: str
    hull_points: int
    hull_points_lost: dict[int, Fraction]
    destroyed: Fraction
    wrecked: Fraction
    exploded: Fraction
    on_fire: Fraction
    armour_after: dict[int, Fraction]
    sub_results: dict[int, Fraction]  # chance each vehicle damaged sub-result was suffered
    results_rolled: dict[str, dict[int, Fraction]]  # how many hits rolled each chart result
    results_suffered: dict[str, dict[int, Fraction]]  # how many hits bestowed each result (cumulative)
    penetration: dict[str, dict[int, Fraction]]  # how many glancing and penetrating hits
    steps: list[dict]


def calculate(scenario: VehicleScenario) -> VehicleResult:
    """The exact outcome of a scenario against a vehicle (the entry point of ``calc --ruleset m41``)."""
    target = scenario.target
    rules = M41VehicleRules(target, scenario.context)
    armour = int(vehicles.armour_value(target.facing, target.front, target.side, target.rear))
    start = VehicleState(target.hull_points, armour)
    final = chain.run(rules, scenario.weapons, start)

    def counted(accept) -> dict[int, Fraction]:
        return chain.marginal(chain.run(rules, scenario.weapons, start, accept), lambda key: key[1])

    rolled = {r.name: counted(lambda e, r=r: e[1] == r) for r in Damage}
    suffered = {r.name: counted(lambda e, r=r: e[1] is not None and r in vehicles.results_bestowed(e[1]))
                for r in (Damage.CREW_SHAKEN, Damage.CREW_STUNNED, Damage.VEHICLE_DAMAGED)}
    suffered[Damage.ON_FIRE.name] = rolled[Damage.ON_FIRE.name]  # no result bestows On Fire!
    kinds = {k.name: counted(lambda e, k=k: e[0] == k) for k in (Penetration.GLANCING, Penetration.PENETRATING)}
    destroyed = sum((p for s, p in final.items() if vehicles.destroyed(s.hull_points)), Fraction(0))
    exploded = sum((p for s, p in final.items() if vehicles.explodes(s.hull_points, s.on_fire)), Fraction(0))
    steps = [{"weapon": w.name, "dice": rules.dice_rolled(w), "p_hit": rules.hit_chance(w),
              "hits": rules.hits(w), "armour": armour,
              "penetration": rules.penetration(w, armour)}
             for w in scenario.weapons]
    return VehicleResult(
        vehicle=target.name, hull_points=target.hull_points,
        hull_points_lost=chain.marginal(final, lambda s: target.hull_points - s.hull_points),
        destroyed=destroyed, wrecked=destroyed - exploded, exploded=exploded,
        on_fire=sum((p for s, p in final.items() if s.on_fire), Fraction(0)),
        armour_after=chain.marginal(final, lambda s: s.armour),
        sub_results={sub: sum((p for s, p in final.items() if sub in s.suffered), Fraction(0)) for sub in FACES},
        results_rolled=rolled, results_suffered=suffered, penetration=kinds, steps=steps)


def outcome(mapping: Any) -> dict:
    """Read a vehicle scenario mapping and return its distributions (for example data)."""
    result = calculate(read_vehicle_scenario(mapping))
    return {"hull_points_lost": result.hull_points_lost, "destroyed": result.destroyed, "wrecked": result.wrecked,
            "exploded": result.exploded, "on_fire": result.on_fire, "armour_after": result.armour_after,
            "sub_results": result.sub_results, "results_rolled": result.results_rolled,
            "results_suffered": result.results_suffered, "penetration": result.penetration,
            "hits": result.steps[0]["hits"], "p_hit": result.steps[0]["p_hit"],
            "first_penetration": penetration_kinds(result.steps[0]["penetration"])}


def penetration_kinds(chances: dict[tuple[Penetration, int], Fraction]) -> dict[str, Fraction]:
    """One hit's chance of no effect, a glancing and a penetrating hit (whatever AP its damage roll reads)."""
    out: dict[str, Fraction] = {}
    for (kind, _), p in chances.items():
        out[kind.name] = out.get(kind.name, Fraction(0)) + p
    return out
