"""999.m41 Terrain and Cover (chapter 4) and Types of Cover (chapter 5).

Difficult terrain costs 1" of movement for every 3" (or part of 3") moved inside it, the reading both of the
document's examples follow (finding terrain-difficult-whole-or-rounding-up). Dangerous terrain rolls a D6 per model
and every 1 forces a save. Area terrain obscures models completely inside it, gives its bonus to targets behind it
when the line of sight crosses at least 1" of it, and blocks sight past a cumulative 6". The cover each type of
terrain grants is the Types of Cover chapter's own table (COVER_BY_TERRAIN), not the shooting chapter's chart.
"""

from __future__ import annotations

from enum import IntEnum
from fractions import Fraction
from typing import Any

from rules.logic import And, DecisionTable, If, Not, Or, Row, Var, is_symbolic
from rules.registry import ruleset_rule

rule = ruleset_rule("m41")

DIFFICULT_STRETCH = 3  # "spend 1" of movement for every whole 3" inches ... rounding up"
DANGEROUS_ROLL = 1  # "For every result of a 1 the unit must pass a saving throw"
AREA_BONUS_THROUGH = 1  # "at least 1 cumulative inch of area terrain"
AREA_FIRER_IGNORES_BELOW = 2  # "less than 2" of the area terrain that they are inside"
AREA_SIGHT_LIMIT = 6  # "cannot be drawn through more than a cumulative 6""
FOREST_BONUS_BEYOND = 1  # forests: "fired through more than 1" of a forest"
TEMPLATE_HITS_ON_BUNKER = 6
LARGE_BLAST_HITS_ON_BUNKER = 5
SMALL_BLAST_HITS_ON_BUNKER = 3


def _ceil_div(value: Any, divisor: int) -> Any:
    """value / divisor rounded up, for whole values of 0 or more (z3's Int division floors like //)."""
    if is_symbolic(value):
        return (value + divisor - 1) / divisor
    return (value + divisor - 1) // divisor


# -- Difficult, dangerous, impassable ----------------------------------------------------------------------------------


@rule("terrain/difficult-terrain", "cover/forests", "cover/swamps-and-water")
def difficult_terrain_penalty(inches_in_difficult: Any) -> Any:
    """The inches of movement spent as a penalty for moving this many whole inches through, into or out of difficult
    terrain: 1" for every 3" or part of 3" (rounding up, the reading of both examples)."""
    return _ceil_div(inches_in_difficult, DIFFICULT_STRETCH)


@rule("terrain/difficult-terrain")
def movement_spent(inches_in_the_open: Any, inches_in_difficult: Any) -> Any:
    """The movement a model uses for a move: its inches outside and inside difficult terrain plus the penalty."""
    return inches_in_the_open + inches_in_difficult + difficult_terrain_penalty(inches_in_difficult)


@rule("terrain/difficult-terrain")
def farthest_into_difficult(movement: Any, inches_to_the_edge: Any = 0) -> Any:
    """How many whole inches a model with this movement can go into difficult terrain after reaching its edge: the
    most d with inches_to_the_edge + d + penalty(d) within the movement (none if the edge is out of reach)."""
    remaining = movement - inches_to_the_edge
    # d + ceil(d / 3) <= r holds exactly for d <= r - ceil(r / 4).
    return If(remaining <= 0, 0, remaining - _ceil_div(remaining, DIFFICULT_STRETCH + 1))


@rule("terrain/dangerous-terrain")
def dangerous_test_forces_save(roll: Any) -> Any:
    """Whether a model's dangerous terrain D6 forces the unit to pass a saving throw or suffer a wound (a 1)."""
    return roll == DANGEROUS_ROLL


@rule("terrain/dangerous-terrain")
def dangerous_wound_chance(save: int | None = None) -> Fraction:
    """The chance that one model's dangerous terrain test costs the unit a wound: a 1 on its D6, then a failed save
    (a save of N+ fails on 1 to N-1; None means no save, so every 1 wounds)."""
    faces = range(1, 7)
    forced = Fraction(sum(1 for roll in faces if dangerous_test_forces_save(roll)), 6)
    failed = Fraction(1) if save is None else Fraction(sum(1 for roll in faces if roll < save), 6)
    return forced * failed


@rule("terrain/dangerous-terrain")
def dangerous_wounds_distribution(models: int, save: int | None = None) -> dict[int, Fraction]:
    """The exact distribution of wounds a unit of this many models suffers crossing dangerous terrain (one D6 for
    every model; each wound is an independent chance of dangerous_wound_chance)."""
    chance = dangerous_wound_chance(save)
    out: dict[int, Fraction] = {0: Fraction(1)}
    for _ in range(models):
        step: dict[int, Fraction] = {}
        for wounds, p in out.items():
            step[wounds] = step.get(wounds, Fraction(0)) + p * (1 - chance)
            step[wounds + 1] = p * chance  # wounds rise in order: nothing has reached wounds + 1 yet
        out = step
    return {wounds: p for wounds, p in sorted(out.items()) if p}


@rule("terrain/impassible-terrain", "terrain/common-terrain-attributes", "cover/buildings")
def may_cross_impassable(impassable: Any, moves_over_terrain: Any) -> Any:
    """Whether a model may move across a piece of terrain: not if it is impassable, unless the model has the means
    to move over it (e.g. it can fly)."""
    return Or(Not(impassable), moves_over_terrain)


@rule("terrain/impassible-terrain", "terrain/common-terrain-attributes", "cover/buildings")
def may_end_inside(impassable: Any) -> Any:
    """Whether a model may end its move in a piece of terrain: impassable terrain cannot be moved into."""
    return Not(impassable)


@rule("terrain/vertically-impassible")
def may_move_onto_vertically_impassable(reached_without_climbing: Any, movement_left: Any,
                                        inches_to_the_top: Any) -> Any:
    """Whether a model may move onto a vertically impassable piece: only where it gets there without climbing, and
    only if its move is enough to make it up to the top."""
    return And(reached_without_climbing, movement_left >= inches_to_the_top)


# -- Area terrain and line of sight ------------------------------------------------------------------------------------


@rule("terrain/line-of-sight-into-area-terrain", "terrain/area-terrain")
def obscured_inside_area_terrain(completely_inside: Any, firer_outside: Any) -> Any:
    """Whether a model counts as obscured for being in area terrain: completely inside it, seen from outside it."""
    return And(completely_inside, firer_outside)


@rule("terrain/line-of-sight-through-area-terrain")
def bonus_through_area_terrain(inches_through: Any) -> Any:
    """Whether a target behind (not inside) area terrain gains its bonus: sight crosses at least 1" of it in all."""
    return inches_through >= AREA_BONUS_THROUGH


@rule("terrain/line-of-sight-through-area-terrain")
def firer_ignores_own_area_terrain(inches_of_own_terrain: Any) -> Any:
    """Whether a firer inside area terrain ignores its negative effects on shooting: its sight crosses less than 2"
    of the area terrain it is inside."""
    return inches_of_own_terrain < AREA_FIRER_IGNORES_BELOW


@rule("terrain/line-of-sight-through-area-terrain", "cover/forests")
def sight_passes_area_terrain(inches_through: Any) -> Any:
    """Whether line of sight may be drawn through this many cumulative inches of area terrain (6" at most)."""
    return inches_through <= AREA_SIGHT_LIMIT


@rule("cover/forests")
def forest_cover_through(inches_through: Any) -> Any:
    """Whether shots fired through a forest grant the target light cover: through more than 1" of it (the forest's
    own words, stricter than area terrain's "at least 1""; finding cover-forest-one-inch)."""
    return inches_through > FOREST_BONUS_BEYOND


@rule("terrain/hybrid-terrain")
def hybrid_obscured(obscured_as_area_terrain: Any, obscured_by_true_line_of_sight: Any) -> Any:
    """Hybrid terrain is area and regular terrain superimposed: a target obscured by either copy is obscured."""
    return Or(obscured_as_area_terrain, obscured_by_true_line_of_sight)


@rule("terrain/exposed-terrain")
def area_benefit_applies(obscured_as_area_terrain: Any, shot_from_exposed_direction: Any) -> Any:
    """Exposed terrain gives no area benefit to a target shot from the direction the players chose to leave open."""
    return And(obscured_as_area_terrain, Not(shot_from_exposed_direction))


# -- Types of Cover ----------------------------------------------------------------------------------------------------


class Terrain(IntEnum):
    """The types of terrain chapter 5 gives a cover bonus, in its order."""

    HILL = 1  # Hills and Plateaus
    CLOSED_SOLID = 2  # Closed Solids
    BUNKER = 3  # Bunkers and Fortifications
    RUIN = 4  # Ruins and Structures
    TRENCH = 5  # Trenches and Craters
    FOREST = 6  # Forests


class Cover(IntEnum):
    """Levels of cover (the shooting chapter turns them into saves)."""

    NONE = 0
    LIGHT = 1
    MEDIUM = 2
    HEAVY = 3


COVER_BY_TERRAIN = DecisionTable(
    name="m41-cover-by-terrain",
    refs=("cover/hills-and-plateaus", "cover/closed-solids", "cover/bunkers-and-fortifications",
          "cover/ruins-and-structures", "cover/trenches-and-craters", "cover/forests"),
    inputs=(Var("terrain", Terrain.HILL, Terrain.FOREST), Var("base_contact", kind="bool"),
            Var("substantial", kind="bool"), Var("gone_to_ground", kind="bool")),
    rows=(
        Row("Hills and plateaus: light cover", lambda terrain, **_: terrain == Terrain.HILL, Cover.LIGHT),
        Row("Closed solids, substantial (a boulder, a wrecked vehicle) and in base contact: medium cover",
            lambda terrain, base_contact, substantial, **_:
                And(terrain == Terrain.CLOSED_SOLID, base_contact, substantial), Cover.MEDIUM),
        Row("Closed solids otherwise: light cover",
            lambda terrain, base_contact, substantial, **_:
                And(terrain == Terrain.CLOSED_SOLID, Not(And(base_contact, substantial))), Cover.LIGHT),
        Row("Bunkers: models inside gain heavy cover", lambda terrain, **_: terrain == Terrain.BUNKER, Cover.HEAVY),
        Row("Ruins and walled structures, in base contact with the wall: medium cover",
            lambda terrain, base_contact, **_: And(terrain == Terrain.RUIN, base_contact), Cover.MEDIUM),
        Row("Ruins and walled structures otherwise: light cover",
            lambda terrain, base_contact, **_: And(terrain == Terrain.RUIN, Not(base_contact)), Cover.LIGHT),
        Row("Trenches and craters, in base contact and gone to ground: heavy cover instead of medium",
            lambda terrain, base_contact, gone_to_ground, **_:
                And(terrain == Terrain.TRENCH, base_contact, gone_to_ground), Cover.HEAVY),
        Row("Trenches and craters, in base contact: medium cover",
            lambda terrain, base_contact, gone_to_ground, **_:
                And(terrain == Terrain.TRENCH, base_contact, Not(gone_to_ground)), Cover.MEDIUM),
        Row("Trenches and craters otherwise: light cover",
            lambda terrain, base_contact, **_: And(terrain == Terrain.TRENCH, Not(base_contact)), Cover.LIGHT),
        Row("Forests: light cover", lambda terrain, **_: terrain == Terrain.FOREST, Cover.LIGHT),
    ),
    gap=Cover.NONE,
    notes={"inputs": "substantial is read only for closed solids and gone_to_ground only for trenches; the other "
                     "types' words do not depend on them."},
)


@rule("cover/hills-and-plateaus", "cover/closed-solids", "cover/bunkers-and-fortifications",
      "cover/ruins-and-structures", "cover/trenches-and-craters", "cover/forests")
def cover_from_terrain(terrain: Terrain, base_contact: Any = False, substantial: Any = False,
                       gone_to_ground: Any = False) -> Any:
    """The cover an obscured model gains from a type of terrain (Cover), by chapter 5's own words."""
    return COVER_BY_TERRAIN(terrain=terrain, base_contact=base_contact, substantial=substantial,
                            gone_to_ground=gone_to_ground)


@rule("cover/bunkers-and-fortifications")
def bunker_occupant_targetable(gone_to_ground: Any, blast_or_template: Any) -> Any:
    """Whether a model inside a bunker may be targeted: once gone to ground, only by blast and template weapons."""
    return Or(Not(gone_to_ground), blast_or_template)


@rule("cover/bunkers-and-fortifications")
def hits_on_hidden_bunker(template: Any, large_blast: Any, scatter_shows_hit: Any) -> Any:
    """The hits a template or blast weapon deals to models gone to ground in a bunker: a template 6; a blast only on
    a Hit symbol, then 5 for a large blast and 3 for a small one; any scatter misses."""
    blast_hits = If(large_blast, LARGE_BLAST_HITS_ON_BUNKER, SMALL_BLAST_HITS_ON_BUNKER)
    return If(template, TEMPLATE_HITS_ON_BUNKER, If(scatter_shows_hit, blast_hits, 0))


@rule("cover/ruins-and-structures")
def ruin_protects(completely_exposed_through_open_side: Any) -> Any:
    """Whether a ruin protects a target seen through a part of it with no wall (windows, doors and holes are not
    such parts): not if the target's models are completely exposed."""
    return Not(completely_exposed_through_open_side)


@rule("cover/ruins-and-structures")
def ruin_deep_strike_dangerous(deep_striking_into_walled_structure: Any) -> Any:
    """Units deep striking into a walled structure must take a Dangerous Terrain check."""
    return deep_striking_into_walled_structure


@rule("cover/trenches-and-craters")
def trench_protects(firer_above: Any, play_plunging_fire: Any = True) -> Any:
    """Whether a trench or crater protects against a firer: by the common practice of Plunging Fire, not against a
    firer above it (e.g. on a ruin's second floor)."""
    return Not(And(play_plunging_fire, firer_above))


@rule("cover/forests")
def forest_cover_inside(completely_inside: Any) -> Any:
    """Whether a model gains a forest's light cover for being in it: only completely inside."""
    return completely_inside


@rule("cover/swamps-and-water")
def swamp_protects(inside: Any) -> Any:
    """Swamps and water protect only models inside them and block no line of sight to models behind them."""
    return inside
