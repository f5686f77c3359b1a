"""z3 proofs about 999.m41's terrain, cover, movement and transports (ruleset ``m41``): the difficult terrain
penalty and how far a model gets into it, the cover table's monotony, coherency ranges, disembarking.

Each builder calls the real rule functions through their modules so ``properties/test_m41_movement.py`` can swap in
a broken copy and watch the proof fail. Proofs with ``expect="disproved"`` are findings
(spec/m41/annotations/findings/movement.yaml): the text as printed elsewhere (the shooting chapter's chart, the
Skirmish rule, the word "whole", the area terrain rule) fails them, and the code follows a recorded interpretation.
"""

from __future__ import annotations

from typing import Any

import z3

from properties.proofs import Built, proof
from rules.m41 import movement, terrain, transports
from rules.m41.terrain import Cover, Terrain


def _between(symbol: Any, low: int, high: int) -> Any:
    return z3.And(symbol >= low, symbol <= high)


def _cover_inputs() -> tuple[list, dict]:
    """Every terrain type of chapter 5's table and every combination of its three flags."""
    kind = z3.Int("terrain")
    flags = {name: z3.Bool(name) for name in ("base_contact", "substantial", "gone_to_ground")}
    return [_between(kind, Terrain.HILL, Terrain.FOREST)], {"terrain": kind, **flags}


# -- Difficult terrain -------------------------------------------------------------------------------------------------


@proof("m41-difficult-penalty-rounds-up", ("m41:terrain/difficult-terrain",),
       "The difficult terrain penalty for d inches (0 to 60, a window of ours) is d/3 rounded up: the least whole "
       "number of inches p with 3p >= d.")
def _penalty_rounds_up() -> Built:
    inches = z3.Int("inches")
    penalty = terrain.difficult_terrain_penalty(inches)
    return [_between(inches, 0, 60)], z3.And(3 * penalty >= inches, 3 * (penalty - 1) < inches), {"inches": inches}


@proof("m41-difficult-farthest-is-the-most-affordable", ("m41:terrain/difficult-terrain",),
       "With r inches of movement left at the edge of difficult terrain (r from -12 to 40, a window of ours), a "
       "model gets exactly as far in as the most whole inches d whose cost d + penalty(d) fits within r (0 when "
       "the edge is out of reach).")
def _farthest_affordable() -> Built:
    movement_left, edge = z3.Ints("movement edge")
    farthest = terrain.farthest_into_difficult(movement_left, edge)
    remaining = movement_left - edge

    def cost(inches: Any) -> Any:
        return terrain.movement_spent(0, inches)

    fits = z3.Or(z3.And(remaining <= 0, farthest == 0),
                 z3.And(remaining > 0, farthest >= 0, cost(farthest) <= remaining, cost(farthest + 1) > remaining))
    pre = [_between(movement_left, 0, 40), _between(edge, 0, 12)]
    return pre, fits, {"movement": movement_left, "edge": edge}


@proof("m41-difficult-penalty-counts-whole-stretches", ("m41:terrain/difficult-terrain",),
       "The penalty is 1 inch for every whole 3 inches moved in difficult terrain (d/3 rounded down), the word "
       "'whole' read alone; Example 1's 1 inch costing 1 inch disproves it.", expect="disproved")
def _whole_stretches() -> Built:
    inches = z3.Int("inches")
    return [_between(inches, 0, 60)], terrain.difficult_terrain_penalty(inches) == inches / 3, {"inches": inches}


# -- Area terrain and forests ------------------------------------------------------------------------------------------


@proof("m41-forest-cover-as-area-terrain", ("m41:cover/forests", "m41:terrain/line-of-sight-through-area-terrain"),
       "A forest is area terrain, so shots through it give the target light cover exactly when sight crosses at "
       "least 1 cumulative inch of it (0 to 12 inches, a window of ours), as the area terrain rule says.",
       expect="disproved")
def _forest_as_area() -> Built:
    inches = z3.Int("inches")
    goal = terrain.forest_cover_through(inches) == terrain.bonus_through_area_terrain(inches)
    return [_between(inches, 0, 12)], goal, {"inches": inches}


@proof("m41-area-sight-bonus-before-block", ("m41:terrain/line-of-sight-through-area-terrain",),
       "Every cumulative depth of area terrain that gives a target its bonus up to 6 inches still lets sight "
       "through, and sight never passes more than 6 inches (0 to 24 inches, a window of ours).")
def _area_window() -> Built:
    inches = z3.Int("inches")
    goal = z3.And(z3.Implies(z3.And(terrain.bonus_through_area_terrain(inches), inches <= 6),
                             terrain.sight_passes_area_terrain(inches)),
                  z3.Implies(inches > 6, z3.Not(terrain.sight_passes_area_terrain(inches))))
    return [_between(inches, 0, 24)], goal, {"inches": inches}


# -- Cover by terrain --------------------------------------------------------------------------------------------------


@proof("m41-cover-never-worse-in-base-contact-or-gone-to-ground", ("m41:cover/closed-solids",
                                                                  "m41:cover/ruins-and-structures",
                                                                  "m41:cover/trenches-and-craters"),
       "For every type of terrain, being in base contact with it or going to ground never lowers the cover it "
       "grants, and every obscured model gains at least light cover.")
def _cover_monotone() -> Built:
    pre, f = _cover_inputs()

    def cover(contact: Any, ground: Any) -> Any:
        return terrain.cover_from_terrain(f["terrain"], contact, f["substantial"], ground)

    loose = cover(False, False)
    goal = z3.And(cover(True, f["gone_to_ground"]) >= cover(False, f["gone_to_ground"]),
                  cover(f["base_contact"], True) >= cover(f["base_contact"], False), loose >= Cover.LIGHT)
    return pre, goal, f


@proof("m41-closed-solid-base-contact-medium-as-charted", ("m41:cover/closed-solids", "m41:shooting/cover-bonuses"),
       "As the shooting chapter's chart says, a model in base contact with any closed solid has medium cover; "
       "chapter 5 gives medium only for a substantial one.", expect="disproved")
def _closed_solid_as_charted() -> Built:
    pre, f = _cover_inputs()
    goal = z3.Implies(z3.And(f["terrain"] == Terrain.CLOSED_SOLID, f["base_contact"]),
                      terrain.cover_from_terrain(**f) == Cover.MEDIUM)
    return pre, goal, f


@proof("m41-heavy-cover-only-fortified-as-charted", ("m41:cover/trenches-and-craters", "m41:shooting/cover-bonuses"),
       "As the shooting chapter's chart says, heavy cover comes only from fortified positions (bunkers); chapter 5 "
       "also gives it to a model gone to ground in a trench.", expect="disproved")
def _heavy_as_charted() -> Built:
    pre, f = _cover_inputs()
    goal = z3.Implies(terrain.cover_from_terrain(**f) == Cover.HEAVY, f["terrain"] == Terrain.BUNKER)
    return pre, goal, f


# -- Coherency ---------------------------------------------------------------------------------------------------------


@proof("m41-coherency-normal-range-as-skirmish-says", ("m41:movement/unit-coherency", "m41:usr/skirmish"),
       "The normal unit coherency range is 1 1/2 inches, as the Skirmish rule calls it; the Movement chapter "
       "prints 1 5/8 inches.", expect="disproved")
def _coherency_as_skirmish_says() -> Built:
    skirmish = z3.Bool("skirmish")
    goal = z3.Implies(z3.Not(skirmish), movement.coherency_range(skirmish) == z3.Q(3, 2))
    return [], goal, {"skirmish": skirmish}


@proof("m41-coherency-call-penalises-only-outside", ("m41:movement/unit-coherency",),
       "A called model is moved back with -1 to hit exactly when it is outside the coherency range (1 5/8 inches, "
       "3 for Skirmish), and the opponent may call again exactly then.")
def _coherency_call() -> Built:
    distance = z3.Real("distance")
    skirmish = z3.Bool("skirmish")
    back, modifier, again = movement.coherency_call(distance, skirmish)
    outside = distance > z3.If(skirmish, z3.RealVal(3), z3.Q(13, 8))
    goal = z3.And(back == outside, again == outside, modifier == z3.If(outside, -1, 0))
    return [distance >= 0], goal, {"distance": distance, "skirmish": skirmish}


# -- Transports --------------------------------------------------------------------------------------------------------


@proof("m41-no-disembarking-past-twelve-inches", ("m41:transports/disembarking",),
       "Whatever else holds, nobody may disembark from a vehicle that moved more than 12 inches, and a unit that "
       "began aboard may get out in its Movement phase after a move of 12 inches or less (no tank shock or ram, "
       "not embarked this turn).")
def _disembark_twelve() -> Built:
    moved = z3.Int("moved")
    flags = {name: z3.Bool(name) for name in ("began", "phase", "embarked", "rammed")}
    allowed = transports.may_disembark(moved, flags["began"], flags["phase"], flags["embarked"], flags["rammed"])
    ordinary = z3.And(flags["began"], flags["phase"], z3.Not(flags["embarked"]), z3.Not(flags["rammed"]))
    goal = z3.And(z3.Implies(moved > 12, z3.Not(allowed)), z3.Implies(z3.And(moved <= 12, ordinary), allowed))
    return [_between(moved, 0, 36)], goal, {"moved": moved, **flags}
