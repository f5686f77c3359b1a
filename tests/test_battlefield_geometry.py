"""The recorded interpretations the battlefield geometry rests on: for each, a case where the chosen reading and
a rejected one part ways.

The boundary cases of the geometry itself (exact contact, a sight line grazing a corner, a crossing exactly 3"
up, a base over an area's edge, the TOLERANCE convention) are checks ``rules40k mutate`` runs, in
properties/test_battlefield_boundaries.py.
"""

from __future__ import annotations

from fractions import Fraction

from rules import battlefield
from rules.battlefield import Battlefield, Body, Opening, TerrainArea, TerrainFeature
from rules.core import core_abilities, terrain
from rules.model import PlacedUnit
from rules40k import annotations

RECORDS = {r["id"]: r for r in annotations.interpretations("core")}


def _field(*features: TerrainFeature, area=((0, 0), (40, 0), (40, 40), (0, 40)), **kwargs) -> Battlefield:
    return Battlefield(40, 40, areas=(TerrainArea(area, tuple(features)),), **kwargs)


def _points(x, y, z=0, height=1):
    """A model with no base (a point seen from above), so its sight lines are few and easy to aim."""
    return Body(x, y, 0, z=z, height=height)


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
