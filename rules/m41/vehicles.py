"""Vehicles (004, the Vehicles chapter): the armour-and-hull-points profile, speeds, terrain, shooting with and at
vehicles, armour facings and penetration, the vehicle damage chart with its roll modifiers, wrecks and explosions,
close combat against vehicles and walkers, tank shock, death or glory and ramming.

Rules that decide one number or one yes/no take plain values or z3 terms, so proofs reason about the very function
the tests call; the printed charts (armour penetration, the damage chart, its AP modifiers, the close-combat hit
chart, vehicle speeds, armour facings) are decision tables whose rows follow the printed rows.
"""

from __future__ import annotations

import enum
from fractions import Fraction
from typing import Any

from rules import dice
from rules.logic import And, DecisionTable, If, Max, Min, Not, Or, Row, Var, is_symbolic
from rules.registry import ruleset_rule

rule = ruleset_rule("m41")

D6_FACES = range(1, 7)
DEFAULT_MAX_MOVE = 12  # "By default the maximum move of a vehicle is 12”."
HEAVY_MAX_MOVE = 6  # "Heavy vehicles can only move up to 6” in the movement phase."
WALKER_MOVE = 6  # walkers move like infantry, "normally moving 6”"
ROAD_BONUS = 6  # "may move up to an extra 6”"
FLAT_OUT = 6  # "move Flat Out 6”"
SKIMMER_FLAT_OUT = 12  # "A Skimmer can move Flat Out 12”."
SLOWDOWN = 3  # crew stunned and damaged result 2: "a -3” penalty to its movement"
STUCK_TOTALS = (2, 3)  # difficult terrain: "A result of a 2 or 3 means that the vehicle halts"
HULL_DOWN_DOWNGRADE = 4  # "penetrating hits will be downgraded to a glancing hit on a roll of a 4+"
WORST_VEHICLE_COVER = 6  # "the cover save provided to vehicles is always at a -1 penalty, to a minimum of 6+"
ARMOUR_BASE = 10  # ramming: "Each point of armour above 10 on the point of impact, +1"
EXPLOSION_WOUNDS_ON = 4  # explodes: "models in range suffer a hit, always wounding on a 4+"
NO_RETREAT_GLANCE = 6  # combat resolution: "cause a glancing hit on a roll of a 6"
NO_AP = 7  # a weapon of AP '-' (no AP), one worse than AP 6
ARMOUR_COMPROMISED = 3  # vehicle damaged sub-result "3. Armour compromised, ... loses 1 point of armour value"
UNPRINTED_AP = 6  # an AP the damage modifiers do not print (4 to 6): no modifier


class Facing(enum.IntEnum):
    """The three armour facings of the profile (F, S, R)."""

    FRONT = 1
    SIDE = 2
    REAR = 3


class Speed(enum.IntEnum):
    """How far a vehicle moved in its Movement phase, as the shooting and close-combat rules read it."""

    STATIONARY = 0
    HALF = 1
    FULL = 2


class Penetration(enum.IntEnum):
    """The armour penetration roll's three outcomes."""

    NO_EFFECT = 0
    GLANCING = 1
    PENETRATING = 2


class Damage(enum.IntEnum):
    """The Vehicle Damage Chart's results, by their printed roll."""

    NO_EXTRA_EFFECT = 1
    CREW_SHAKEN = 2
    CREW_STUNNED = 3
    VEHICLE_DAMAGED = 4
    ON_FIRE = 7


class Mount(enum.Enum):
    """How a vehicle's weapon is mounted (its entry says which)."""

    TURRET = "turret"
    HULL = "hull"
    SPONSON = "sponson"
    PINTLE = "pintle"


# -- The profile -------------------------------------------------------------------------------------------------------

VEHICLE_COLUMNS = ("BS", "Front", "Side", "Rear", "Hp")
WALKER_COLUMNS = ("WS", "BS", "S", "Front", "Side", "Rear", "I", "A", "Hp")


@rule("vehicles/armour-and-hull-points")
def vehicle_profile(values: tuple[int, ...], walker: bool = False) -> dict[str, int]:
    """A profile line read by its columns: BS, Front, Side, Rear, Hp; a walker's also has WS, S, I and A."""
    columns = WALKER_COLUMNS if walker else VEHICLE_COLUMNS
    if len(values) != len(columns):
        raise ValueError(f"a {'walker' if walker else 'vehicle'} profile has {len(columns)} values, not {len(values)}")
    return dict(zip(columns, values))


@rule("vehicles/armour-values", "vehicles/armour-facings")
def armour_value(facing: Any, front: Any, side: Any, rear: Any) -> Any:
    """The Armour Value an attack rolls against: that of the facing it comes from."""
    return If(facing == Facing.FRONT, front, If(facing == Facing.SIDE, side, rear))


@rule("vehicles/hull-points", "vehicles/wrecked")
def destroyed(hull_points: Any) -> Any:
    """A vehicle whose Hull Points reach 0 is destroyed (wrecked, or exploding if on fire)."""
    return hull_points <= 0


@rule("vehicles/missing-characteristics", "vehicles/close-combat", "vehicles/weapon-skill")
def may_fight_in_melee(has_weapon_skill: Any) -> Any:
    """Only a vehicle with a WS may charge and make melee attacks ("tanks do not have a weapon skill, and as such
    cannot make melee attacks")."""
    return has_weapon_skill


@rule("vehicles/missing-characteristics", "vehicles/shooting-at-vehicles")
def rolls_to_wound(target_is_vehicle: Any) -> Any:
    """Hits on a vehicle roll for armour penetration, never to wound (so a +1 to wound has no effect on it)."""
    return Not(target_is_vehicle)


@rule("vehicles/vehicles-and-morale")
def takes_morale_check(is_vehicle: Any) -> Any:
    """Vehicles never take Morale checks for any reason."""
    return Not(is_vehicle)


@rule("vehicles/measuring-distances")
def measured_from(firing_its_weapon: bool) -> str:
    """Distances involving a vehicle run to and from its hull; a weapon's range from the muzzle of that weapon."""
    return "muzzle" if firing_its_weapon else "hull"


@rule("vehicles/playing-with-vehicles")
def has_rules_of(vehicle_types: frozenset[str], vehicle_type: str) -> bool:
    """A vehicle of several types (a fast open-topped skimmer) has all of the rules of each of its types."""
    return vehicle_type in vehicle_types


# -- Movement ----------------------------------------------------------------------------------------------------------


@rule("vehicles/moving-with-tracked-and-wheeled-vehicles")
def tracked_may_climb(obstacle_height: Any, tread_height: Any, above_ruin_ground_level: Any) -> Any:
    """A tracked or wheeled vehicle drives only up obstacles shorter than its treads or wheels, and never up into a
    ruin beyond its ground level."""
    return And(obstacle_height < tread_height, Not(above_ruin_ground_level))


@rule("vehicles/moving-with-tracked-and-wheeled-vehicles")
def has_moved(distance_moved: Any, pivoted: Any) -> Any:
    """Whether a vehicle moved: turning uses none of its movement, "but does count as moving".

    Interpretation: vehicles-pivot-counts-as-moving.
    """
    return Or(distance_moved > 0, pivoted)


@rule("vehicles/moving-with-skimmers")
def may_end_move_on_friendly_models() -> bool:
    """Vehicles move freely through friendly units but cannot end their move on friendly models."""
    return False


@rule("vehicles/moving-with-walkers")
def walker_may_climb(obstacle_height: Any, leg_height: Any, ruin_upper_floor: Any, pathway_up: Any) -> Any:
    """A walker climbs over obstacles only as tall as its legs, and up a ruin's floors only by a suitably sized
    pathway."""
    return And(obstacle_height <= leg_height, Or(Not(ruin_upper_floor), pathway_up))


@rule("vehicles/vehicle-speeds", "vehicles/heavy-vehicles", "vehicles/moving-with-walkers",
      "vehicles/vehicle-slowdowns")
def max_move(heavy: Any, walker: Any = False, movement_penalties: Any = 0) -> Any:
    """A vehicle's current maximum move: 12" (heavy 6", a walker 6"), less 3" for each crew stunned or movement
    damage result it suffers, never below 0 (the speed bands read this damaged speed)."""
    base = If(walker, WALKER_MOVE, If(heavy, HEAVY_MAX_MOVE, DEFAULT_MAX_MOVE))
    return Max(base - SLOWDOWN * movement_penalties, 0)


#: Vehicle Speeds, the printed bullets in order after a first row for the vehicle that did not move (the shooting
#: and close-combat rules read it). The text gives over half (full speed) and below half (half speed); exactly
#: half is the last row (interpretation vehicles-exactly-half-speed). A pivot counts as moving.
SPEED_TABLE = DecisionTable(
    name="m41-vehicle-speed",
    refs=("vehicles/vehicle-speeds", "vehicles/vehicle-slowdowns"),
    inputs=(Var("distance", 0, 18), Var("max_move", 0, 12), Var("pivoted", kind="bool")),
    assume=lambda distance, max_move, pivoted: Or(And(max_move == 0, distance == 0, Not(pivoted)),
                                                  And(max_move > 0, distance <= max_move + ROAD_BONUS)),
    rows=(
        Row("Remains stationary (did not move)", lambda distance, max_move, pivoted: And(distance == 0, Not(pivoted)),
            Speed.STATIONARY,
            overrides=("Moves below half speed: half speed", "Moves exactly half speed: half speed")),
        Row("Moves over half speed: full speed", lambda distance, max_move, pivoted: 2 * distance > max_move,
            Speed.FULL),
        Row("Moves below half speed: half speed", lambda distance, max_move, pivoted: 2 * distance < max_move,
            Speed.HALF),
        Row("Moves exactly half speed: half speed", lambda distance, max_move, pivoted: 2 * distance == max_move,
            Speed.HALF),
    ),
)


@rule("vehicles/vehicle-speeds", "vehicles/vehicle-slowdowns")
def speed_moved(distance: Any, max_move: Any, pivoted: Any = False) -> Any:
    """How fast a vehicle moved: stationary, half speed (up to half its current maximum move) or full speed (over
    half).

    Interpretation: vehicles-exactly-half-speed.
    """
    return SPEED_TABLE(distance=distance, max_move=max_move, pivoted=pivoted)


@rule("vehicles/immobilized")
def immobilised(current_max_move: Any) -> Any:
    """A vehicle whose movement is reduced to 0 is immobilised: it may not move or turn in place (its turret still
    rotates)."""
    return current_max_move <= 0


@rule("vehicles/difficult-terrain-effects", "vehicles/terrain-and-skimmers", "vehicles/terrain-and-walkers")
def takes_vehicle_terrain_test(walker: Any, skimmer: Any, through_difficult_or_dangerous: Any,
                               only_over_it: Any = False) -> Any:
    """Whether a vehicle rolls the vehicles' 2d6 terrain test: tracked vehicles and skimmers moving through (a
    skimmer not merely over) difficult or dangerous terrain do; walkers treat terrain as infantry do."""
    return And(Not(walker), through_difficult_or_dangerous, Not(And(skimmer, only_over_it)))


@rule("vehicles/difficult-terrain-effects")
def stuck_in_terrain(two_d6_total: Any) -> Any:
    """The 2d6 total of a vehicle's terrain test immobilises it (until the end of the following turn, 2" on in its
    direction of travel, where it lies) on a 2 or 3; anything else and it carries on."""
    return Or(two_d6_total == STUCK_TOTALS[0], two_d6_total == STUCK_TOTALS[1])


@rule("vehicles/difficult-terrain-effects")
def stuck_chance() -> Fraction:
    """The exact chance a vehicle's terrain test immobilises it: the 2d6 totals of 2 or 3 (3 of 36 throws)."""
    return dice.probability(dice.distribution("2D6"), stuck_in_terrain)


@rule("vehicles/terrain-and-walkers")
def walker_slowed_by_difficult_terrain(walker: Any) -> Any:
    """Walkers are slowed by difficult terrain as infantry are; other vehicles are not."""
    return walker


@rule("vehicles/roads")
def road_bonus(walker: Any, whole_move_along_road: Any) -> Any:
    """A non-walker vehicle following a road for its entire Movement phase may move up to 6" more."""
    return If(And(Not(walker), whole_move_along_road), ROAD_BONUS, 0)


# -- Shooting with vehicles --------------------------------------------------------------------------------------------


@rule("vehicles/shooting-with-crewed-vehicles", "vehicles/fast-vehicles", "vehicles/heavy-vehicles")
def vehicle_bs_modifier(speed: Any, heavy_salvo_or_ordnance: Any, fast: Any = False, heavy: Any = False) -> Any:
    """The BS modifier of a vehicle's weapon: -1 for heavy, salvo and ordnance weapons after moving at full
    speed, unless the vehicle is fast or heavy; nothing otherwise."""
    return If(And(speed == Speed.FULL, heavy_salvo_or_ordnance, Not(fast), Not(heavy)), -1, 0)


@rule("vehicles/gunnery-crew", "vehicles/shooting-with-walkers")
def most_targets(crew: Any, walker: Any = False) -> Any:
    """How many targets a vehicle may split its fire between: up to its crew count; a walker shoots all its
    weapons at a single target."""
    return If(walker, 1, crew)


@rule("vehicles/moving-flat-out", "vehicles/flat-out-with-skimmers", "vehicles/walkers-running")
def flat_out_distance(skimmer: Any, walker: Any = False) -> Any:
    """How far a vehicle moves flat out instead of shooting: 6", a skimmer 12"; a walker cannot (it runs)."""
    return If(walker, 0, If(skimmer, SKIMMER_FLAT_OUT, FLAT_OUT))


@rule("vehicles/flat-out-with-skimmers")
def to_hit_modifier_against(skimmer: Any, moved_flat_out: Any, is_immobilised: Any) -> Any:
    """Ranged attacks at a skimmer that moved flat out in its last Movement phase and is not immobilised are at
    -1 to hit."""
    return If(And(skimmer, moved_flat_out, Not(is_immobilised)), -1, 0)


@rule("vehicles/flat-out-with-skimmers")
def flat_out_mobility_hull_points(skimmer: Any, moving_flat_out: Any, mobility_damage: Any) -> Any:
    """A skimmer that suffers damage to its mobility while moving flat out loses an additional hull point."""
    return If(And(skimmer, moving_flat_out, mobility_damage), 1, 0)


@rule("vehicles/shooting-with-walkers")
def walker_bs_modifier(distance_moved: Any) -> Any:
    """Walkers always fire all their weapons, whatever they moved: no modifier."""
    return 0


#: Firing arcs by mounting, in degrees; a sponson's arc depends on its mounting (up to 180 or a little more), so the
#: text gives none. Every gun also swivels 45 degrees vertically.
ARC_DEGREES = {Mount.TURRET: 360, Mount.HULL: 45}


@rule("vehicles/firing-arcs")
def firing_arc(mount: Mount, on_turret_or_cupola: bool = False) -> int | None:
    """A weapon's horizontal arc: turret 360, hull 45, pintle 360 on a turret or cupola and 45 on the hull; a
    sponson's is the shape of its mounting (None: the model decides)."""
    if mount is Mount.PINTLE:
        return ARC_DEGREES[Mount.TURRET] if on_turret_or_cupola else ARC_DEGREES[Mount.HULL]
    return ARC_DEGREES.get(mount)


# -- Shooting at vehicles ----------------------------------------------------------------------------------------------


@rule("vehicles/cover")
def vehicle_in_cover(obscured_percent: Any) -> Any:
    """A vehicle is in cover when the facing targeted is at least 50% obscured by the terrain piece."""
    return obscured_percent >= 50


@rule("vehicles/cover")
def vehicle_cover_save(cover_save: Any) -> Any:
    """A vehicle's cover save is one worse than the terrain's (a 4+ gives 5+), never worse than 6+."""
    return Min(cover_save + 1, WORST_VEHICLE_COVER)


@rule("vehicles/hull-down")
def hull_down_armour(visible_facing_armour: Any, hidden_facing_armour: Any) -> Any:
    """A hull-down vehicle is hit on the higher of the visible and the hidden facing's armour."""
    return Max(visible_facing_armour, hidden_facing_armour)


@rule("vehicles/hull-down")
def hull_down_result(penetration: Any, roll: Any) -> Any:
    """Against a hull-down vehicle a penetrating hit becomes a glancing hit on a roll of 4+."""
    return If(And(penetration == Penetration.PENETRATING, roll >= HULL_DOWN_DOWNGRADE), Penetration.GLANCING,
              penetration)


@rule("vehicles/blast-and-template-weapons")
def blast_strength(strength: Any, centre_over_hull: Any) -> Any:
    """A blast marker's strength against a vehicle: full if its centre ends over the hull, half (rounding up)
    if only part of it covers the hull.

    Interpretation: vehicles-half-strength-rounds-up.
    """
    return If(centre_over_hull, strength, _half_rounding_up(strength))


@rule("vehicles/blast-and-template-weapons")
def blast_facing(barrage: Any, centre_over_hull: Any, facing_towards_firer: Any,
                 facing_towards_centre: Any) -> Any:
    """The facing a blast hits: the one facing the firer; a barrage counts from the marker's centre, and hits the
    side armour (the top) when the centre is over the vehicle."""
    return If(barrage, If(centre_over_hull, Facing.SIDE, facing_towards_centre), facing_towards_firer)


def _half_rounding_up(value: Any) -> Any:
    """Half a non-negative whole number, rounding up (z3's integer division floors as Python's // does)."""
    return (value + 1) / 2 if is_symbolic(value) else (value + 1) // 2


def _abs(value: Any) -> Any:
    return If(value < 0, -value, value)


#: Armour facings: the bounding rectangle of the hull (half length along the vehicle, half width across) cut by its
#: diagonals into four arcs; the attacker at (ahead, across) from the centre, outside the hull or touching its edge.
#: An attacker exactly on a diagonal is in the front or rear arc (interpretation vehicles-facing-on-the-diagonal).
FACING_TABLE = DecisionTable(
    name="m41-armour-facing",
    refs=("vehicles/armour-facings",),
    inputs=(Var("ahead", -12, 12), Var("across", -12, 12), Var("half_length", 1, 4), Var("half_width", 1, 4)),
    assume=lambda ahead, across, half_length, half_width: Or(_abs(ahead) >= half_length, _abs(across) >= half_width),
    rows=(
        Row("Front arc", lambda ahead, across, half_length, half_width:
            ahead * half_width >= _abs(across) * half_length, Facing.FRONT),
        Row("Side arc", lambda ahead, across, half_length, half_width:
            _abs(ahead) * half_width < _abs(across) * half_length, Facing.SIDE),
        Row("Rear arc", lambda ahead, across, half_length, half_width:
            -ahead * half_width >= _abs(across) * half_length, Facing.REAR),
    ),
)


@rule("vehicles/armour-facings")
def facing_hit(ahead: Any, across: Any, half_length: Any, half_width: Any) -> Any:
    """The facing an attacker at (ahead, across) of the vehicle's centre hits: the arc it stands in, between the
    diagonals of the hull's bounding rectangle.

    Interpretation: vehicles-facing-on-the-diagonal.
    """
    return FACING_TABLE(ahead=ahead, across=across, half_length=half_length, half_width=half_width)


#: Rolling for Armour Penetration, the three printed bullets in order: d6 + Strength against the Armour Value.
PENETRATION_TABLE = DecisionTable(
    name="m41-armour-penetration",
    refs=("vehicles/armour-penetration",),
    inputs=(Var("strength", 1, 14), Var("roll", 1, 6), Var("armour", 9, 14)),
    rows=(
        Row("Total less than the Armour Value: no effect",
            lambda strength, roll, armour: strength + roll < armour, Penetration.NO_EFFECT),
        Row("Total equal to the Armour Value: glancing hit",
            lambda strength, roll, armour: strength + roll == armour, Penetration.GLANCING),
        Row("Total greater than the Armour Value: penetrating hit",
            lambda strength, roll, armour: strength + roll > armour, Penetration.PENETRATING),
    ),
)


@rule("vehicles/armour-penetration", "vehicles/glancing-hits", "vehicles/penetrating-hits")
def penetration(strength: Any, roll: Any, armour: Any) -> Any:
    """The armour penetration roll: d6 + S below the AV has no effect, equal glances, above penetrates."""
    return PENETRATION_TABLE(strength=strength, roll=roll, armour=armour)


# -- The damage chart --------------------------------------------------------------------------------------------------

#: Damage Roll Modifiers, the AP rows as printed (the glancing row is added by damage_roll_modifier); AP 4 to 6
#: are not printed and modify nothing.
AP_MODIFIER_TABLE = DecisionTable(
    name="m41-damage-roll-ap-modifier",
    refs=("vehicles/damage-roll-modifiers",),
    inputs=(Var("ap", 1, NO_AP),),
    rows=(
        Row("AP '-': -1", lambda ap: ap == NO_AP, -1),
        Row("AP 3: +1", lambda ap: ap == 3, 1),
        Row("AP 2: +2", lambda ap: ap == 2, 2),
        Row("AP 1: +3", lambda ap: ap == 1, 3),
        Row("AP 4 to 6 (not printed): no modifier", lambda ap: And(ap >= 4, ap <= 6), 0),
    ),
)


@rule("vehicles/damage-roll-modifiers")
def damage_roll_modifier(glancing: Any, ap: Any) -> Any:
    """The modifier to a damage roll: -2 for a glancing hit, plus the AP's (AP '-' -1, AP 3 +1, AP 2 +2, AP 1
    +3)."""
    return If(glancing, -2, 0) + AP_MODIFIER_TABLE(ap=ap)


#: The Vehicle Damage Chart, its rows as printed; a modified roll below 1 reads the 1 row (interpretation
#: vehicles-damage-roll-below-one).
DAMAGE_CHART = DecisionTable(
    name="m41-vehicle-damage-chart",
    refs=("vehicles/damage-chart",),
    inputs=(Var("roll", -2, 9),),
    rows=(
        Row("1 No Extra Effect", lambda roll: roll <= 1, Damage.NO_EXTRA_EFFECT),
        Row("2 Crew Shaken", lambda roll: roll == 2, Damage.CREW_SHAKEN),
        Row("3 Crew Stunned", lambda roll: roll == 3, Damage.CREW_STUNNED),
        Row("4-6 Vehicle Damaged", lambda roll: And(roll >= 4, roll <= 6), Damage.VEHICLE_DAMAGED),
        Row("7+ On Fire!", lambda roll: roll >= 7, Damage.ON_FIRE),
    ),
)


@rule("vehicles/damage-chart", "vehicles/damage-roll-modifiers")
def damage_result(roll: Any, glancing: Any, ap: Any) -> Any:
    """The damage chart's result for a d6 roll of a glancing or penetrating hit of this AP.

    Interpretation: vehicles-damage-roll-below-one.
    """
    return DAMAGE_CHART(roll=roll + damage_roll_modifier(glancing, ap))


@rule("vehicles/damage-chart")
def results_bestowed(result: Damage) -> frozenset[Damage]:
    """The results a damage result brings with it: on fire bestows vehicle damaged, vehicle damaged bestows crew
    stunned, crew stunned bestows crew shaken (cumulative, revision 007)."""
    chain = (Damage.ON_FIRE, Damage.VEHICLE_DAMAGED, Damage.CREW_STUNNED, Damage.CREW_SHAKEN)
    return frozenset(chain[chain.index(result):]) if result in chain else frozenset()


@rule("vehicles/damage-chart")
def damaged_sub_rolls(result: Damage) -> int:
    """How many d6 rolls on the vehicle damaged sub-table a result makes: on fire two, vehicle damaged one."""
    return {Damage.ON_FIRE: 2, Damage.VEHICLE_DAMAGED: 1}.get(result, 0)


@rule("vehicles/penetrating-hits", "vehicles/glancing-hits", "vehicles/damage-chart")
def hull_points_lost(penetrating: Any, result: Any, already_on_fire: Any = False) -> Any:
    """Hull points one hit costs: one for a penetrating hit, one for a vehicle damaged or on fire result (glancing
    or penetrating: only one for on fire's two damaged rolls), and one more for a penetrating hit while the
    vehicle is already on fire.

    Interpretation: vehicles-glancing-damaged-costs-a-hull-point.
    Interpretation: vehicles-on-fire-hit-itself.
    """
    from_penetration = If(penetrating, 1, 0)
    from_result = If(result >= Damage.VEHICLE_DAMAGED, 1, 0)
    from_fire = If(And(penetrating, already_on_fire), 1, 0)
    return from_penetration + from_result + from_fire


@rule("vehicles/damage-chart")
def set_on_fire(already_on_fire: Any, result: Damage) -> Any:
    """Whether the vehicle is on fire after a damage result: an On Fire! result sets it aflame, and it stays so for
    the rest of the attack (it lasts until the end of the turn after the following), so the penetrating hits
    resolved after it cost the extra hull point.

    Interpretation: vehicles-hits-resolved-one-at-a-time.
    """
    return Or(already_on_fire, result == Damage.ON_FIRE)


@rule("vehicles/damage-chart")
def armour_after_damaged_result(armour: Any, sub_result: Any) -> Any:
    """The targeted facing's armour after a vehicle damaged sub-result: armour compromised (3) takes one point off,
    every other sub-result leaves it (the revision note's "-1 AV to facing").

    Interpretation: vehicles-armour-compromised-is-the-notes-result-5.
    """
    return If(sub_result == ARMOUR_COMPROMISED, armour - 1, armour)


@rule("vehicles/damage-roll-modifiers", "weapons/armour-rend")
def damage_roll_ap(ap: Any) -> Any:
    """The AP a damage roll reads on the modifier table: a rend weapon's negative AP is an AP score the table does
    not print (no modifier, as AP 4 to 6), not the "AP '-'" of a weapon without one.

    Interpretation: vehicles-rend-reads-no-damage-modifier.
    """
    return If(ap < 1, UNPRINTED_AP, ap)


@rule("vehicles/explodes", "vehicles/damage-chart")
def explodes(hull_points: Any, on_fire: Any) -> Any:
    """A vehicle that loses its final hull point while on fire explodes (otherwise it is wrecked); the hit that sets
    it aflame counts.

    Interpretation: vehicles-explodes-on-the-hit-that-sets-it-aflame.
    """
    return And(destroyed(hull_points), on_fire)


def _penetration_chances(strength: int, armour: int) -> dict[Penetration, Fraction]:
    chances = {kind: Fraction(0) for kind in Penetration}
    for roll in D6_FACES:
        chances[Penetration(penetration(strength, roll, armour))] += Fraction(1, 6)
    return chances


@rule("vehicles/damage-chart", "vehicles/damage-roll-modifiers")
def damage_distribution(glancing: bool, ap: int) -> dict[Damage, Fraction]:
    """The chance of each damage result for one glancing or penetrating hit of this AP (the d6 on the chart)."""
    chances = {result: Fraction(0) for result in Damage}
    for roll in D6_FACES:
        chances[Damage(damage_result(roll, glancing, ap))] += Fraction(1, 6)
    return chances


@rule("vehicles/armour-penetration", "vehicles/damage-chart")
def hull_point_chance(strength: int, armour: int, ap: int, already_on_fire: bool = False) -> Fraction:
    """The chance that one hit costs the vehicle at least one hull point, over the penetration d6 and the damage d6."""
    total = Fraction(0)
    for kind, chance in _penetration_chances(strength, armour).items():
        if kind is Penetration.NO_EFFECT:
            continue
        penetrating = kind is Penetration.PENETRATING
        for result, result_chance in damage_distribution(not penetrating, ap).items():
            if hull_points_lost(penetrating, result, already_on_fire) > 0:
                total += chance * result_chance
    return total


@rule("vehicles/disoriented-crew")
def crew_characteristic(value: Any, penalties: Any) -> Any:
    """A characteristic after cumulative crew shaken and stunned penalties, never below 0.

    Interpretation: vehicles-disoriented-stat-reaches-zero.
    """
    return Max(value - penalties, 0)


@rule("vehicles/disoriented-crew")
def characteristic_usable(value: Any) -> Any:
    """A vehicle reduced to 0 in a characteristic cannot use it ("stun-lock")."""
    return value > 0


@rule("vehicles/vehicle-degradation")
def damaged_sub_result_chances(already_suffered: frozenset[int]) -> dict[int, Fraction]:
    """Each vehicle damaged sub-result is suffered once: a repeat is re-rolled, so the next is equally likely to
    be any result not suffered yet (none once all six are)."""
    left = [face for face in D6_FACES if face not in already_suffered]
    return {face: Fraction(1, len(left)) for face in left}


@rule("vehicles/wrecked")
def crew_killed(is_passenger: Any, vehicle_destroyed: Any) -> Any:
    """A destroyed vehicle's drivers, gunners and other crew are killed; its passengers are not."""
    return And(vehicle_destroyed, Not(is_passenger))


@rule("vehicles/forming-wrecks")
def wreck_terrain() -> frozenset[str]:
    """A wreck is terrain: difficult, dangerous, and providing cover."""
    return frozenset({"difficult", "dangerous", "cover"})


@rule("vehicles/explodes")
def explosion_radius() -> dict[int, Fraction]:
    """How far an explosion's debris reaches: 3 + d3 inches."""
    return dice.distribution("D3+3")


@rule("vehicles/explodes")
def explosion_wounds(roll: Any) -> Any:
    """An explosion's hit wounds on a 4+, whatever the Toughness."""
    return roll >= EXPLOSION_WOUNDS_ON


# -- Close combat ------------------------------------------------------------------------------------------------------

#: Assaulting a vehicle without WS: the printed chart of the roll needed to hit by how far it moved.
CLOSE_COMBAT_HIT_TABLE = DecisionTable(
    name="m41-vehicle-close-combat-hit",
    refs=("vehicles/assaulting-crewed-vehicles",),
    inputs=(Var("speed", Speed.STATIONARY, Speed.FULL),),
    rows=(
        Row("did not move: 2+", lambda speed: speed == Speed.STATIONARY, 2),
        Row("moved at half speed: 3+", lambda speed: speed == Speed.HALF, 3),
        Row("moved at full speed: 4+", lambda speed: speed == Speed.FULL, 4),
    ),
)


@rule("vehicles/assaulting-crewed-vehicles")
def close_combat_hit_needed(speed: Any, moved_flat_out: Any = False, skimmer: Any = False,
                            open_topped: Any = False) -> Any:
    """The roll needed to hit a vehicle without WS in close combat: by its speed, one worse if it moved flat out,
    one worse for a skimmer, one better if open-topped."""
    return (CLOSE_COMBAT_HIT_TABLE(speed=speed) + If(moved_flat_out, 1, 0) + If(skimmer, 1, 0)
            - If(open_topped, 1, 0))


@rule("vehicles/subsequent-rounds", "vehicles/mobility-limited")
def locks_in_combat(has_weapon_skill: Any, mobility_limited: Any) -> Any:
    """Whether a vehicle is locked in (and locks others in) combat: only a combat-capable one (with a WS) that is
    not immobilised, movement impaired or shaken; combat with the others lasts one turn."""
    return And(has_weapon_skill, Not(mobility_limited))


@rule("vehicles/walkers-and-assault")
def walker_facing_in_combat(attacker_facing: Any, is_immobilised: Any, movement_impaired: Any,
                            stunned: Any) -> Any:
    """Hits on a walker in close combat roll against its front armour, unless it is immobilised, movement impaired
    or stunned (then the facing the attack comes from)."""
    return If(Or(is_immobilised, movement_impaired, stunned), attacker_facing, Facing.FRONT)


@rule("vehicles/walkers-and-grenades")
def grenade_to_hit_modifier(is_immobilised: Any, movement_impaired: Any, stunned: Any) -> Any:
    """A grenade attack on a walker is at -1 to hit unless the walker is immobilised, movement impaired or
    stunned."""
    return If(Or(is_immobilised, movement_impaired, stunned), 0, -1)


@rule("vehicles/mobility-limited")
def walker_attacks(attacks: Any, is_immobilised: Any, movement_impaired: Any, shaken: Any) -> Any:
    """A combat-capable vehicle's attacks: one fewer for each of immobilised, movement impaired and shaken (each
    counted once however many times it applies), never below 1."""
    lost = If(is_immobilised, 1, 0) + If(movement_impaired, 1, 0) + If(shaken, 1, 0)
    return Max(attacks - lost, 1)


@rule("vehicles/combat-resolution")
def combat_resolution_wounds(wounds_dealt: Any, hull_points_dealt: Any) -> Any:
    """Wounds counted for who won a combat: each hull point dealt counts as one wound."""
    return wounds_dealt + hull_points_dealt


@rule("vehicles/combat-resolution", "vehicles/vehicles-and-morale")
def vehicle_fails_break_check(lost_combat: Any) -> Any:
    """A vehicle that loses a combat counts as failing its break check (it takes no Morale check and never
    flees)."""
    return lost_combat


@rule("vehicles/combat-resolution")
def no_retreat_glances(roll: Any) -> Any:
    """No Retreat against a vehicle: each 'wound' it would suffer is a glancing hit on a roll of 6."""
    return roll == NO_RETREAT_GLANCE


# -- Tank shock and ramming --------------------------------------------------------------------------------------------


@rule("vehicles/tank-shock")
def tank_shock_tests(unit_is_vehicle: Any) -> dict[str, Any]:
    """What a unit tank shocked takes: a morale check and a pinning test; an enemy vehicle instead stops the shock
    and both vehicles suffer a ram."""
    return {"morale_check": Not(unit_is_vehicle), "pinning_test": Not(unit_is_vehicle), "ram": unit_is_vehicle}


@rule("vehicles/tank-shock")
def crushed(can_be_placed: Any) -> Any:
    """A model that cannot be placed out of the way of a tank shock is crushed and removed."""
    return Not(can_be_placed)


@rule("vehicles/death-or-glory")
def death_or_glory_model_removed(passed_leadership: Any, destroyed_or_immobilised: Any) -> Any:
    """The single model that attempts death or glory attacks only if it passes a Leadership test, and is removed
    unless it destroys or immobilises the vehicle.

    Interpretation: vehicles-death-or-glory-failed-test.
    """
    return Not(And(passed_leadership, destroyed_or_immobilised))


@rule("vehicles/ramming")
def ram_strength(armour_at_impact: Any, distance: Any, tank: Any) -> Any:
    """A ram hit's Strength: +1 for each point of armour above 10 at the point of impact, +1 for each 2" moved
    (rounding up), +1 for a tank (not a skimmer).

    Interpretation: vehicles-ram-counts-the-road.
    """
    return Max(armour_at_impact - ARMOUR_BASE, 0) + _half_rounding_up(distance) + If(tank, 1, 0)


@rule("vehicles/ramming")
def ram_may_shoot() -> bool:
    """A vehicle that rams may not shoot in that turn's Shooting phase."""
    return False
