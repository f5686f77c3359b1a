"""Unit Types (004, chapter 14): how each non-vehicle unit type moves, flees, shoots and fights, monstrous creatures
and their damage, dreadnoughts, battlesuits, cavalry, bikes and swarms.

Movement is in inches. The chapter prints no movement chart; MOVE_TABLE gathers the distances its sections state,
in the chapter's order, so the table checks show every type has exactly one.
"""

from __future__ import annotations

import enum
from typing import Any, Iterable, Mapping

from rules.logic import And, DecisionTable, If, Max, Min, Not, Or, Row, Var
from rules.m41 import weapons
from rules.m41.weapons import WeaponType
from rules.registry import ruleset_rule

rule = ruleset_rule("m41")

INFANTRY_MOVE = 6  # "Infantry models can move 6” from their start point"
JUMP_EXTRA = 3  # "jump infantry can move an extra 3 inches" (and flee 3 more)
BEAST_EXTRA = 3  # "Beasts move, and flee an additional 3 inches"
CAVALRY_EXTRA = 3  # "move and flee an additional 3 inches"
BIKE_EXTRA = 6  # "bikes move, and flee an extra 6 inches"
JET_PACK_FLEE_EXTRA = 3  # "Jetpack infantry will flee an extra 3 inches"
CHARGE_BASE = 4  # "infantry charge 4 + 2d3 inches"
TURBO_BOOST = 12  # "when turbo boosting bikes may move up to 12”"
JET_BIKE_TURBO_EXTRA = 6  # "jetbikes can turbo-boost an additional 6”"
TURBO_BOOST_TO_HIT = -1  # "imposing a -1 to hit penalty"
CAVALRY_CLIMB = 2  # "can only move upwards 2” at a time"
MONSTROUS_COVER_PENALTY = 1  # "always suffer a -1 penalty to any cover saves"
WORST_COVER_SAVE = 6  # "to a minimum of 6+" (shooting, line 1463)
MONSTROUS_WEAPONS = 2  # "capable of shooting two weapons"
BIKE_ARC_HALF_ANGLE = 45  # "a 90∘ firing arc out of their front"


class UnitType(enum.IntEnum):
    """The chapter's unit types, in its order."""

    INFANTRY = 1
    JUMP_INFANTRY = 2
    JET_PACK_INFANTRY = 3
    BEASTS = 4
    MONSTROUS_CREATURE = 5
    DREADNOUGHT = 6
    MOBILE_WEAPONS_SYSTEM = 7
    BATTLESUIT = 8
    CAVALRY = 9
    BIKES = 10
    JET_BIKES = 11
    SWARMS = 12


class Characteristic(enum.IntEnum):
    """The profile's characteristics (WS, BS, S, T, W, I, A, Ld, Sv)."""

    WS = 1
    BS = 2
    S = 3
    T = 4
    W = 5
    I = 6  # noqa: E741 - the profile's own name
    A = 7
    LD = 8
    SV = 9


_BIKES = (UnitType.BIKES, UnitType.JET_BIKES)

#: The move each unit type's section states, in the chapter's order. Jump movement is a choice (jump or grounded);
#: monstrous creatures and dreadnoughts (Lumbering Behemoth) "move just like regular infantry"; jet bikes follow the
#: usual rules for bikes. Swarms, mobile weapons systems and battlesuits are given no move of their own: the last row
#: gives them infantry's, as the chapter says every type builds off the infantry rules (interpretation
#: unit-types-move-built-off-infantry).
MOVE_TABLE = DecisionTable(
    name="m41-unit-type-move",
    refs=("unit-types/moving-with-infantry", "unit-types/moving-with-jump-movement",
          "unit-types/moving-with-jet-packs", "unit-types/beasts", "unit-types/lumbering-behemoth",
          "unit-types/moving-with-cavalry", "unit-types/moving-with-bikes", "unit-types/jet-bikes"),
    inputs=(Var("unit_type", UnitType.INFANTRY, UnitType.SWARMS), Var("jump_movement", kind="bool")),
    rows=(
        Row("Infantry: 6\"", lambda unit_type, jump_movement: unit_type == UnitType.INFANTRY, INFANTRY_MOVE),
        Row("Jump infantry, jump movement: 6\" + 3\"",
            lambda unit_type, jump_movement: And(unit_type == UnitType.JUMP_INFANTRY, jump_movement),
            INFANTRY_MOVE + JUMP_EXTRA),
        Row("Jump infantry, grounded: 6\"",
            lambda unit_type, jump_movement: And(unit_type == UnitType.JUMP_INFANTRY, Not(jump_movement)),
            INFANTRY_MOVE),
        Row("Jet pack infantry: no extra movement, 6\"",
            lambda unit_type, jump_movement: unit_type == UnitType.JET_PACK_INFANTRY, INFANTRY_MOVE),
        Row("Beasts: 6\" + 3\"", lambda unit_type, jump_movement: unit_type == UnitType.BEASTS,
            INFANTRY_MOVE + BEAST_EXTRA),
        Row("Monstrous creatures and dreadnoughts: like regular infantry, 6\"",
            lambda unit_type, jump_movement: Or(unit_type == UnitType.MONSTROUS_CREATURE,
                                                unit_type == UnitType.DREADNOUGHT), INFANTRY_MOVE),
        Row("Cavalry: 6\" + 3\"", lambda unit_type, jump_movement: unit_type == UnitType.CAVALRY,
            INFANTRY_MOVE + CAVALRY_EXTRA),
        Row("Bikes and jet bikes: 6\" + 6\"",
            lambda unit_type, jump_movement: Or(unit_type == UnitType.BIKES, unit_type == UnitType.JET_BIKES),
            INFANTRY_MOVE + BIKE_EXTRA),
        Row("Mobile weapons systems, battlesuits, swarms: no move stated, infantry's 6\"",
            lambda unit_type, jump_movement: Or(unit_type == UnitType.MOBILE_WEAPONS_SYSTEM,
                                                unit_type == UnitType.BATTLESUIT, unit_type == UnitType.SWARMS),
            INFANTRY_MOVE),
    ),
)


@rule("unit-types/moving-with-infantry", "unit-types/jump-infantry", "unit-types/moving-with-jump-movement",
      "unit-types/jet-pack-infantry", "unit-types/moving-with-jet-packs", "unit-types/beasts",
      "unit-types/lumbering-behemoth", "unit-types/moving-with-cavalry", "unit-types/moving-with-bikes",
      "unit-types/jet-bikes")
def move_distance(unit_type: UnitType, jump_movement: Any = False) -> Any:
    """How far a model of this unit type moves in the movement phase (MOVE_TABLE); jump infantry choose jump or
    grounded movement."""
    return MOVE_TABLE(unit_type=unit_type, jump_movement=jump_movement)


@rule("unit-types/moving-with-jump-movement", "unit-types/thruster-move", "unit-types/beasts",
      "unit-types/moving-with-cavalry", "unit-types/moving-with-bikes", "unit-types/jet-bikes")
def flee_extra(unit_type: UnitType) -> Any:
    """Inches a fleeing model of this type adds to its fall back move: 3 for jump, jet pack, beasts and cavalry, 6
    for bikes and jet bikes, none otherwise."""
    return If(Or(unit_type == UnitType.BIKES, unit_type == UnitType.JET_BIKES), BIKE_EXTRA,
              If(Or(unit_type == UnitType.JUMP_INFANTRY, unit_type == UnitType.JET_PACK_INFANTRY,
                    unit_type == UnitType.BEASTS, unit_type == UnitType.CAVALRY), JUMP_EXTRA, 0))


@rule("unit-types/charging-with-infantry")
def charge_distance(two_d3: Any) -> Any:
    """Infantry charge 4 + 2d3 inches."""
    return CHARGE_BASE + two_d3


@rule("unit-types/charging-with-jump-packs")
def may_re_roll_charge_distance(jump_move_used_to_charge: Any) -> Any:
    """Charging with a jump move lets the unit re-roll its charge distance (and grants Hammer of Wrath)."""
    return jump_move_used_to_charge


@rule("unit-types/thruster-move")
def may_thrust(jet_pack: Any, charged_this_phase: Any) -> Any:
    """Jet pack infantry may make a thrust move (2d6" in any direction) in their assault phase instead of charging."""
    return And(jet_pack, Not(charged_this_phase))


@rule("unit-types/dangerous-descent", "unit-types/lumbering-behemoth", "unit-types/unstable-footing",
      "unit-types/treacherous-traversal")
def slowed_by_difficult_terrain(unit_type: UnitType, jump_movement: Any = False) -> Any:
    """Whether difficult terrain slows a model: not monstrous creatures or dreadnoughts (Lumbering Behemoth), nor
    cavalry and bikes (full distance), nor jump infantry using their jump move."""
    return Not(Or(unit_type == UnitType.MONSTROUS_CREATURE, unit_type == UnitType.DREADNOUGHT,
                  unit_type == UnitType.CAVALRY, unit_type == UnitType.BIKES, unit_type == UnitType.JET_BIKES,
                  And(unit_type == UnitType.JUMP_INFANTRY, jump_movement)))


@rule("unit-types/dangerous-descent", "unit-types/charging-with-jump-packs", "unit-types/unstable-footing",
      "unit-types/treacherous-traversal")
def difficult_terrain_is_dangerous(unit_type: UnitType, jump_movement: Any = False) -> Any:
    """Whether a model moving through difficult terrain takes dangerous terrain tests: cavalry and bikes always,
    jump infantry when using their jump move (charging too)."""
    return Or(unit_type == UnitType.CAVALRY, unit_type == UnitType.BIKES, unit_type == UnitType.JET_BIKES,
              And(unit_type == UnitType.JUMP_INFANTRY, jump_movement))


@rule("unit-types/moving-with-cavalry")
def cavalry_may_climb(height: Any) -> Any:
    """Cavalry can only move upwards 2" at a time."""
    return height <= CAVALRY_CLIMB


@rule("unit-types/moving-with-cavalry", "unit-types/moving-with-bikes")
def may_be_pinned(unit_type: UnitType) -> Any:
    """Cavalry and bikes cannot be pinned."""
    return Not(Or(unit_type == UnitType.CAVALRY, unit_type == UnitType.BIKES, unit_type == UnitType.JET_BIKES))


@rule("unit-types/turbo-boost", "unit-types/jet-bikes")
def turbo_boost_distance(jet_bike: Any) -> Any:
    """A bike's 'run': a turbo-boost of up to 12", 6" more for a jet bike."""
    return TURBO_BOOST + If(jet_bike, JET_BIKE_TURBO_EXTRA, 0)


@rule("unit-types/turbo-boost")
def to_hit_modifier_against(turbo_boosted: Any) -> Any:
    """A bike that turbo-boosted imposes -1 to hit on shooting and melee attacks against it."""
    return If(turbo_boosted, TURBO_BOOST_TO_HIT, 0)


# -- Shooting ---------------------------------------------------------------------------------------------------------


@rule("unit-types/shooting-with-infantry", "unit-types/big-guns-never-tire", "unit-types/dreadnoughts",
      "unit-types/shooting-with-bikes")
def weapons_fired(unit_type: UnitType, weapons_carried: Any, pistols_only: Any = False,
                  riders: Any = 1) -> Any:
    """How many weapons a model fires in the shooting phase: infantry one, or two pistols; monstrous creatures two
    (at the same target); dreadnoughts all they are equipped with; bikes one for every infantry model on the bike."""
    allowed = If(unit_type == UnitType.DREADNOUGHT, weapons_carried,
                 If(unit_type == UnitType.MONSTROUS_CREATURE, MONSTROUS_WEAPONS,
                    If(Or(unit_type == UnitType.BIKES, unit_type == UnitType.JET_BIKES), riders,
                       If(pistols_only, 2, 1))))
    return Min(allowed, weapons_carried)


@rule("unit-types/big-guns-never-tire")
def may_split_fire(unit_type: UnitType) -> Any:
    """A monstrous creature's two weapons must shoot at the same target."""
    return unit_type != UnitType.MONSTROUS_CREATURE


@rule("unit-types/shooting-with-infantry", "unit-types/shooting-with-bikes")
def in_firing_arc(degrees_from_front: Any, mounted_on_bike: Any) -> Any:
    """Infantry and the weapons bike riders carry fire all round (360 degrees); weapons mounted on a bike have a 90
    degree arc out of its front (45 each side)."""
    return Or(Not(mounted_on_bike), And(degrees_from_front >= -BIKE_ARC_HALF_ANGLE,
                                        degrees_from_front <= BIKE_ARC_HALF_ANGLE))


@rule("unit-types/big-guns-never-tire")
def monstrous_may_use_in_assault(weapon_type: WeaponType) -> Any:
    """Whether a monstrous creature may attack in the assault phase with one of its ranged weapons as if it were a
    pistol: fired as snap shots, so not an Ordnance weapon, which cannot fire snap shots (finding
    unit-types-big-guns-snap-shots-ordnance); never generating bonus attacks."""
    return And(weapon_type != WeaponType.MELEE, weapons.may_fire_snap_shots(weapon_type))


# -- Monstrous creatures, dreadnoughts, battlesuits --------------------------------------------------------------------


@rule("unit-types/lumbering-behemoth")
def cover_save_of(cover_save: Any, monstrous: Any) -> Any:
    """A monstrous creature's cover saves are 1 worse, never worse than 6+ (the shooting chapter's minimum)."""
    return If(monstrous, Min(cover_save + MONSTROUS_COVER_PENALTY, WORST_COVER_SAVE), cover_save)


@rule("unit-types/lumbering-behemoth")
def may_charge_after_walking_away(walked_away_from_combat: Any) -> Any:
    """A monstrous creature that walked away from a combat may not charge again that turn."""
    return Not(walked_away_from_combat)


@rule("unit-types/lumbering-behemoth", "unit-types/dreadnoughts")
def may_join(joining_unit_type: UnitType, unit_has_type: Any, joined_type: UnitType) -> Any:
    """No model that is not itself a monstrous creature (a dreadnought) may join a unit that includes one."""
    return Or(Not(unit_has_type), joining_unit_type == joined_type)


#: The characteristics a lost wound may worsen: every one but Wounds.
DAMAGEABLE = tuple(c for c in Characteristic if c != Characteristic.W)


@rule("unit-types/damaging-monstrous-creatures")
def damage_choices(damage_taken: Mapping[Characteristic, int]) -> frozenset[Characteristic]:
    """The characteristics the owner may worsen by 1 when a monstrous creature loses a Wound: any other than W, but
    none a second time before every other has been damaged once (those damaged least so far)."""
    counts = {c: damage_taken.get(c, 0) for c in DAMAGEABLE}
    least = min(counts.values())
    return frozenset(c for c, n in counts.items() if n == least)


@rule("unit-types/damaging-monstrous-creatures")
def damaged_value(characteristic: Characteristic, printed: int, times_damaged: int) -> int:
    """A damaged characteristic is worse by 1 each time: lower for WS, BS, S, T, I, A and Ld, a higher number for
    the Sv (a 3+ becomes 4+); a restored Wound restores it (fewer times damaged)."""
    return printed + times_damaged if characteristic == Characteristic.SV else printed - times_damaged


@rule("unit-types/dreadnoughts", "unit-types/battlesuits")
def successful_wound_re_rolled(unit_type: UnitType, poisoned: Any, fleshbane: Any = False) -> Any:
    """Successful wounds from Poisoned attacks are re-rolled against dreadnoughts and battlesuits, and from
    Fleshbane attacks against dreadnoughts."""
    return Or(And(poisoned, Or(unit_type == UnitType.DREADNOUGHT, unit_type == UnitType.BATTLESUIT)),
              And(fleshbane, unit_type == UnitType.DREADNOUGHT))


@rule("unit-types/jump-and-jet-pack-monstrous-creatures", "unit-types/jump-and-jet-pack-battlesuits")
def has_jump_movement(jump_pack: Any, jet_pack: Any) -> Any:
    """Jump and jet pack monstrous creatures and battlesuits gain the jump and jet pack infantry abilities: jump
    movement with either."""
    return Or(jump_pack, jet_pack)


#: The special rules each unit type's sections grant, in the text's words.
SPECIAL_RULES: dict[UnitType, frozenset[str]] = {
    UnitType.INFANTRY: frozenset(),
    UnitType.JUMP_INFANTRY: frozenset(),
    UnitType.JET_PACK_INFANTRY: frozenset(),
    UnitType.BEASTS: frozenset({"move through cover", "fleet", "fear"}),
    UnitType.MONSTROUS_CREATURE: frozenset({"bulky", "fear", "relentless", "hammer of wrath", "smash"}),
    UnitType.DREADNOUGHT: frozenset({"fearless", "lumbering behemoth", "crushing blows", "big guns never tire",
                                     "relentless"}),
    UnitType.MOBILE_WEAPONS_SYSTEM: frozenset({"relentless", "bulky"}),
    UnitType.BATTLESUIT: frozenset({"relentless", "bulky"}),
    UnitType.CAVALRY: frozenset({"hammer of wrath", "fleet"}),
    UnitType.BIKES: frozenset({"jink", "skirmish", "relentless", "hit and run", "hammer of wrath"}),
    UnitType.JET_BIKES: frozenset({"jink", "skirmish", "relentless", "hit and run", "hammer of wrath"}),
    UnitType.SWARMS: frozenset({"small targets", "vulnerable to blasts"}),
}


@rule("unit-types/infantry", "unit-types/beasts", "unit-types/lumbering-behemoth", "unit-types/big-guns-never-tire",
      "unit-types/crushing-blows", "unit-types/dreadnoughts", "unit-types/mobile-weapons-system",
      "unit-types/battlesuits", "unit-types/advance-charge", "unit-types/moving-with-bikes",
      "unit-types/shooting-with-bikes", "unit-types/bikes-and-assault", "unit-types/swarms")
def special_rules_of(unit_type: UnitType) -> frozenset[str]:
    """The special rules a unit type has by its sections (infantry none)."""
    return SPECIAL_RULES[UnitType(unit_type)]


# -- Bikes and swarms in combat ----------------------------------------------------------------------------------------


@rule("unit-types/bikes-and-assault")
def bike_combat_value(value: Any, charged_this_round: Any) -> Any:
    """A bike's WS, I and A in combat: 1 lower if it did not charge that round, to a minimum of 1."""
    return If(charged_this_round, value, Max(value - 1, 1))


@rule("unit-types/bikes-and-assault")
def may_counter_charge(unit_type: UnitType) -> Any:
    """Bikes cannot counter charge."""
    return Not(Or(unit_type == UnitType.BIKES, unit_type == UnitType.JET_BIKES))


@rule("unit-types/power-in-numbers")
def swarm_attacks(attacks: Any, wounds_lost: Any) -> Any:
    """A swarm loses one attack for every lost wound (interpretation unit-types-swarm-attacks), never below 0."""
    return Max(attacks - wounds_lost, 0)


@rule("unit-types/swarms")
def intervening_swarm_gives_cover(target_is_monstrous_or_vehicle: Any, would_give_cover: Any = True) -> Any:
    """Intervening swarms never offer a cover save to monstrous creatures or vehicles."""
    return And(would_give_cover, Not(target_is_monstrous_or_vehicle))


def legal_damage_sequence(choices: Iterable[Characteristic]) -> bool:
    """Whether a sequence of characteristics chosen for successive lost wounds keeps to damage_choices."""
    taken: dict[Characteristic, int] = {}
    for choice in choices:
        if choice not in damage_choices(taken):
            return False
        taken[choice] = taken.get(choice, 0) + 1
    return True
