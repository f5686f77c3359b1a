"""The battlefield geometry at its boundaries, and the recorded interpretations it rests on.

The geometry works in floats (interpretation geometry-battlefield-model): a distance within
``battlefield.TOLERANCE`` (1e-9 inch) of a limit counts as at the limit. These tests pin the boundary cases
(exact contact, a sight line grazing a corner, a crossing exactly 3" up, a base over an area's edge) and show,
for each interpretation, a case where the chosen reading and a rejected one part ways.
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import pytest

from rules import battlefield
from rules.battlefield import Battlefield, Body, Opening, TerrainArea, TerrainFeature
from rules.core import core_abilities, core_concepts, terrain
from rules.model import PlacedUnit
from rules40k import annotations

RECORDS = {r["id"]: r for r in annotations.interpretations("core")}
TWO_INCH_BASE = "50.8"  # exactly 2" across
R32 = Fraction(80, 127)  # the radius of a 32 mm base, in inches


def _field(*features: TerrainFeature, area=((0, 0), (40, 0), (40, 40), (0, 40)), **kwargs) -> Battlefield:
    return Battlefield(40, 40, areas=(TerrainArea(area, tuple(features)),), **kwargs)


# -- Distances at exact contact ------------------------------------------------------------------------------------


def test_exact_contact_is_within():
    a, b = Body(0, 0, TWO_INCH_BASE), Body(4, 0, TWO_INCH_BASE)
    assert battlefield.horizontal_distance(a, b) == 2.0
    assert battlefield.within(a, b, 2, 5) and not battlefield.within(a, b, Fraction(199, 100), 5)
    touching = Body(2, 0, TWO_INCH_BASE)
    assert battlefield.horizontal_distance(a, touching) == 0.0 and battlefield.within(a, touching, 0, 0)


def test_the_tolerance_is_a_billionth_of_an_inch():
    a = Body(0, 0, TWO_INCH_BASE)
    assert battlefield.within(a, Body(4 + 1e-12, 0, TWO_INCH_BASE), 2, 5)
    assert not battlefield.within(a, Body(4 + 1e-6, 0, TWO_INCH_BASE), 2, 5)
    # the exact Fraction arithmetic of 01.04 agrees away from the tolerance band
    assert core_concepts.within(a, Body(4, 0, TWO_INCH_BASE), 2, 5)
    assert not core_concepts.within(a, Body(Fraction(4000001, 1000000), 0, TWO_INCH_BASE), 2, 5)


def test_frame_models_measure_to_their_outline_and_height():
    tank = Body(3, 2, 0, height=4, outline=((0, 0), (6, 0), (6, 4), (0, 4)))
    trooper = Body(8, 2, 32, z=6)
    assert battlefield.horizontal_distance(tank, trooper) == pytest.approx(2 - float(R32), abs=1e-12)
    assert battlefield.vertical_distance(tank, trooper) == 2.0  # from the top of the hull, not its foot
    assert battlefield.within(tank, trooper, 2, 5)


def test_wholly_within_a_margin_errs_towards_not():
    zone = TerrainArea(((0, 0), (44, 0), (44, 12), (0, 12)))
    model = Body(22, 17, TWO_INCH_BASE)  # its far edge is 6" from the zone, exactly
    assert battlefield.within(model, zone, 4) and not battlefield.within(model, zone, Fraction(399, 100))
    assert battlefield.wholly_within(model, zone, Fraction(601, 100))
    assert not battlefield.wholly_within(model, zone, Fraction(599, 100))


# -- Terrain areas -----------------------------------------------------------------------------------------------------


def test_a_base_overlapping_an_area_edge_is_within_it():
    area = TerrainArea(((0, 0), (10, 0), (10, 10), (0, 10)))
    assert battlefield.within_area(Body(Fraction(105, 10), 5), area)  # centre outside, base over the edge
    assert battlefield.within_area(Body(10 + R32, 5), area)  # touching the edge from outside
    assert not battlefield.within_area(Body(Fraction(107, 10), 5), area)  # 0.07" short of it
    assert battlefield.wholly_within(Body(9, 5), area) and not battlefield.wholly_within(Body(Fraction(95, 10), 5), area)


# -- Sight lines at their boundaries ----------------------------------------------------------------------------------


def _points(x, y, z=0, height=1):
    """A model with no base (a point seen from above), so its sight lines are few and easy to aim."""
    return Body(x, y, 0, z=z, height=height)


def test_a_sight_line_grazing_a_corner_passes():
    observer, target = _points(0, 0), _points(10, 10)
    corner = TerrainFeature(((5, 3), (7, 3), (7, 5), (5, 5)), "dense", 10)  # touches the line y = x at (5, 5)
    into = TerrainFeature(((Fraction(49, 10), 3), (7, 3), (7, Fraction(51, 10)), (Fraction(49, 10), Fraction(51, 10))),
                          "dense", 10)
    assert battlefield.line_of_sight(_field(corner), observer, target)
    assert not battlefield.line_of_sight(_field(into), observer, target)


def test_a_sight_line_grazing_an_obscuring_area_is_not_obscured():
    observer, target = _points(0, 0), _points(10, 10)
    wood = TerrainFeature(((6, 3), (6.5, 3), (6.5, 3.5), (6, 3.5)), "light", 1)
    touching = Battlefield(40, 40, areas=(TerrainArea(((5, 3), (7, 3), (7, 5), (5, 5)), (wood,)),))
    crossing = Battlefield(40, 40, areas=(TerrainArea(((5, 3), (7, 3), (7, Fraction(51, 10)), (5, Fraction(51, 10))),
                                                      (wood,)),))
    assert battlefield.unobscured_line_of_sight(touching, observer, target)
    assert not battlefield.unobscured_line_of_sight(crossing, observer, target)


def test_solid_stops_a_line_crossing_exactly_three_inches_up():
    window = Opening(((Fraction(99, 10), 0), (Fraction(106, 10), 0), (Fraction(106, 10), 20), (Fraction(99, 10), 20)),
                     Fraction(5, 2), Fraction(16, 5))
    wall = TerrainFeature(((10, 0), (Fraction(21, 2), 0), (Fraction(21, 2), 20), (10, 20)), "dense", 8, (window,))
    a, b = _points(5, 10, z=Fraction(3, 2), height=3), _points(15, 10, z=Fraction(3, 2), height=3)
    assert 3.0 in {p[2] for p in battlefield.sample_points(a)}
    assert not battlefield.line_of_sight(_field(wall), a, b)
    assert battlefield.line_of_sight(_field(wall, solid_height=Fraction(299, 100)), a, b)
    assert battlefield.line_of_sight(_field(dataclasses.replace(wall, category="light")), a, b)


def test_a_model_standing_exactly_three_inches_up():
    crate = TerrainFeature(((0, 0), (4, 0), (4, 4), (0, 4)), "dense", 3)
    on_top = Body(2, 2, z=3)
    assert battlefield.on_terrain_section_height(_field(crate), on_top) == 3.0  # "3\" or more" for 22.05
    assert battlefield.vertical_distance(on_top, Body(8, 2, z=8)) == 5.0
    assert battlefield.within(on_top, Body(8, 2, z=8), 6, 5)


def test_fully_visible_needs_every_facing_point():
    observer, target = Body(0, 10), Body(10, 10)
    half_wall = TerrainFeature(((5, 10), (Fraction(51, 10), 10), (Fraction(51, 10), 12), (5, 12)), "dense", 5)
    field = Battlefield(40, 40, areas=(TerrainArea(half_wall.outline, (half_wall,)),))
    assert battlefield.line_of_sight(field, observer, target)
    assert not battlefield.fully_visible_geometry(field, observer, target)
    assert battlefield.fully_visible_geometry(Battlefield(40, 40), observer, target)


def test_other_units_models_block_sight_but_the_two_units_do_not():
    observer, target = _points(0, 0), _points(10, 0)
    between = Body(5, 0, 60, height=3)
    assert battlefield.line_of_sight(Battlefield(40, 40), observer, target)
    assert not battlefield.line_of_sight(Battlefield(40, 40), observer, target, others=[between])


def test_bad_shapes_are_refused():
    with pytest.raises(battlefield.GeometryError, match="not a simple polygon"):
        battlefield.polygon(((0, 0), (1, 1), (0, 1), (1, 0)))
    with pytest.raises(battlefield.GeometryError, match="terrain category"):
        TerrainFeature(((0, 0), (1, 0), (1, 1)), "rubble")
    with pytest.raises(ValueError, match="not wholly within"):
        terrain.terrain_area("boundary", [TerrainFeature(((0, 0), (5, 0), (5, 5), (0, 5)))], ((1, 1), (4, 1), (4, 4), (1, 4)))


# -- The interpretations: where the chosen reading and a rejected one differ -------------------------------------------


def test_geometry_model_ignores_the_one_millimetre_width():
    """Chosen: zero-width sight lines. A slit 0.5 mm wide lets one through, which a 1 mm line could not pass."""
    slit = Fraction(5, 10) / Fraction(254, 10)  # 0.5 mm in inches
    left = TerrainFeature(((5, -10), (6, -10), (6, -slit / 2), (5, -slit / 2)), "light", 10)
    right = TerrainFeature(((5, slit / 2), (6, slit / 2), (6, 10), (5, 10)), "light", 10)
    chosen = battlefield.line_of_sight(_field(left, right, area=((4, -11), (7, -11), (7, 11), (4, 11))),
                                       _points(0, 0), _points(10, 0))
    one_mm_reading = slit * Fraction(254, 10) >= 1
    assert RECORDS["geometry-battlefield-model"]["chosen"] == "top-down-with-heights"
    assert (chosen, one_mm_reading) == (True, False)


def test_within_counts_any_part_of_the_base():
    area = TerrainArea(((0, 0), (10, 0), (10, 10), (0, 10)))
    model = Body(Fraction(105, 10), 5)
    chosen = battlefield.within_area(model, area)
    centre_reading = battlefield.polygon(area.outline).covers(battlefield.Point(10.5, 5))
    assert RECORDS["within-any-part-wholly-every-part"]["chosen"] == "any-part-every-part"
    assert (chosen, centre_reading) == (True, False)


def test_plain_within_is_a_straight_line():
    low, high = Body(0, 0, 0), Body(10, 0, 0, z=12)
    chosen = battlefield.within(low, high, 15)
    horizontal_reading = battlefield.horizontal_distance(low, high) <= 15
    assert RECORDS["plain-within-straight-line"]["chosen"] == "straight-line"
    assert (chosen, horizontal_reading) == (False, True)


def test_solid_is_judged_where_the_line_crosses():
    door = Opening(((Fraction(99, 10), 0), (Fraction(106, 10), 0), (Fraction(106, 10), 20), (Fraction(99, 10), 20)), 2, 4)
    wall = TerrainFeature(((10, 0), (Fraction(21, 2), 0), (Fraction(21, 2), 20), (10, 20)), "dense", 8, (door,))
    a, b = _points(5, 10, z=Fraction(7, 2), height=0), _points(15, 10, z=Fraction(7, 2), height=0)
    chosen = battlefield.line_of_sight(_field(wall), a, b)  # the line crosses the doorway 3.5" up
    lowest_point_reading = not (door.bottom <= 3)  # the doorway starts 2" up, so it would stop every line
    assert RECORDS["solid-gap-pointwise"]["chosen"] == "pointwise"
    assert (chosen, lowest_point_reading) == (True, False)


def test_the_dense_ban_beats_the_keyword_list():
    chosen = terrain.may_end_move_on_surface(on_ground_level=False, keyword_allowed=True, stable_without_overhang=True,
                                             climbed_dense_sections=True)
    list_reading = terrain.upper_surface_allowed(True, True)
    assert RECORDS["dense-climb-ban-wins"]["chosen"] == "ban-wins"
    assert (chosen, list_reading) == (False, True)


def test_scouts_follow_the_slowest_model():
    from properties import proofs_terrain

    unit = [[6, 8], [6, 8, 9]]
    values = [6, 8, 9]
    chosen = core_abilities.scouts_distance(unit)
    printed = proofs_terrain.scouts_distance_as_printed([[v in s for v in values] for s in unit], values)
    assert RECORDS["scouts-slowest-model"]["chosen"] == "slowest-model"
    assert (chosen, printed) == (8, 9)


def test_a_dedicated_transport_scouts_at_its_slowest_passenger():
    passengers = [[6], [6], [9]]  # one unit with Scouts 6", one with Scouts 9"
    chosen = core_abilities.dedicated_transport_scout_distance(passengers)
    each_unit_reading = max(max(s) for s in passengers)  # the player picks the 9" unit's X
    assert RECORDS["scouts-dedicated-transport-distance"]["chosen"] == "embarked-models-slowest"
    assert (chosen, each_unit_reading) == (6, 9)


def test_deadly_demise_hits_friendly_units_too():
    wreck = Body(20, 20, 0, height=3, outline=((17, 18), (23, 18), (23, 22), (17, 22)))
    units = [PlacedUnit((Body(20, 24),), owner=1, name="Intercessors"), PlacedUnit((Body(28, 20),), owner=2, name="Foes")]
    chosen = core_abilities.deadly_demise_units(wreck, units)
    enemy_reading = [u.name for u in units if u.owner != 1 and u.name in chosen]
    assert RECORDS["deadly-demise-every-unit"]["chosen"] == "every-unit"
    assert (chosen, enemy_reading) == (["Intercessors", "Foes"], ["Foes"])
