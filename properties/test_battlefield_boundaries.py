"""The battlefield geometry at its boundaries, as checks ``rules40k mutate`` runs against rules/battlefield.py.

The geometry works in floats (interpretation geometry-battlefield-model): a distance within
``battlefield.TOLERANCE`` (1e-9 inch) of a limit counts as at the limit. These checks pin the boundary cases
(exact contact, a sight line grazing a corner or running along a wall, a crossing exactly 3" up, a base over an
area's edge), the convention itself (a distance of exactly the limit plus TOLERANCE, built so that the floats are
exact, is still at the limit; twice the tolerance is past it), the defaults scenarios rely on, and the refusal of
shapes that cannot stand on a battlefield.

Most are exhaustive over a handful of cases, so they need no hypothesis; ``rules40k mutate --module battlefield``
shows each failing for a broken geometry (a moved boundary, a dropped vertex, a swapped ``and``). The tests of
the recorded interpretations stay in tests/test_battlefield_geometry.py.
"""

from __future__ import annotations

import dataclasses
import math
from fractions import Fraction

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from properties import strategies as s
from properties import strategies_battlefield as sb
from rules import battlefield
from rules.battlefield import Battlefield, Body, DeploymentZone, GeometryError, Opening, TerrainArea, TerrainFeature
from rules.core import core_concepts, terrain

T = battlefield.TOLERANCE
TWO_INCH_BASE = "50.8"  # exactly 2" across: a radius of 1.0 in floats
R32 = Fraction(80, 127)  # the radius of a 32 mm base, in inches
SQUARE = ((0, 0), (10, 0), (10, 10), (0, 10))


def _field(*features: TerrainFeature, area=((0, 0), (40, 0), (40, 40), (0, 40)), **kwargs) -> Battlefield:
    return Battlefield(40, 40, areas=(TerrainArea(area, tuple(features)),), **kwargs)


def _points(x, y, z=0, height=1):
    """A model with no base (a point seen from above), so its sight lines are few and easy to aim."""
    return Body(x, y, 0, z=z, height=height)


def _eye(x, y, z):
    """A point model with no height either: exactly one sample point, so exactly one sight line to another."""
    return Body(x, y, 0, z=z, height=0)


# -- Distances at exact contact (01.04, 17.02) ---------------------------------------------------------------------


@pytest.mark.refs("01.04", "17.02")
def test_exact_contact_is_within():
    """Bases 2" apart are within 2" (not 1.99"); touching bases are within 0" horizontally and vertically."""
    a, b = Body(0, 0, TWO_INCH_BASE), Body(4, 0, TWO_INCH_BASE)
    assert battlefield.horizontal_distance(a, b) == 2.0
    assert battlefield.within(a, b, 2, 5) and not battlefield.within(a, b, Fraction(199, 100), 5)
    touching = Body(2, 0, TWO_INCH_BASE)
    assert battlefield.horizontal_distance(a, touching) == 0.0 and battlefield.within(a, touching, 0, 0)


@pytest.mark.refs("01.04")
def test_the_tolerance_is_a_billionth_of_an_inch():
    """1e-12" past a limit is at it, 1e-6" is past it; the exact Fractions of 01.04 agree away from the band."""
    a = Body(0, 0, TWO_INCH_BASE)
    assert battlefield.within(a, Body(4 + 1e-12, 0, TWO_INCH_BASE), 2, 5)
    assert not battlefield.within(a, Body(4 + 1e-6, 0, TWO_INCH_BASE), 2, 5)
    assert core_concepts.within(a, Body(4, 0, TWO_INCH_BASE), 2, 5)
    assert not core_concepts.within(a, Body(Fraction(4000001, 1000000), 0, TWO_INCH_BASE), 2, 5)


@pytest.mark.refs("01.04", "17.02")
def test_the_limit_plus_the_tolerance_is_still_within():
    """The convention at its very edge, in floats built to be exact: a plain distance, a horizontal one and a
    vertical one of exactly limit + TOLERANCE are within the limit; limit + 2 x TOLERANCE is not."""
    a = _eye(0, 0, 0)
    assert battlefield.distance(a, _eye(3 + T, 0, 0)) == 3 + T  # the floats are exact: the test is at the edge
    assert battlefield.within(a, _eye(3 + T, 0, 0), 3) and not battlefield.within(a, _eye(3 + 2 * T, 0, 0), 3)
    assert battlefield.within(a, _eye(3 + T, 0, 0), 3, 5) and not battlefield.within(a, _eye(3 + 2 * T, 0, 0), 3, 5)
    assert battlefield.within(a, _eye(0, 0, 5 + T), 3, 5) and not battlefield.within(a, _eye(0, 0, 5 + 2 * T), 3, 5)


@pytest.mark.refs("01.04")
def test_more_than_horizontally_excludes_the_limit_plus_the_tolerance():
    """"More than 8\" horizontally" (Deep Strike, Infiltrators) is the negation of within: exactly 8" + TOLERANCE
    away is not more than 8", 8" + 2 x TOLERANCE is; every model against every other thing; nothing to keep away
    from is no obstacle."""
    model = _eye(0, 0, 0)
    assert not battlefield.more_than_horizontally([model], [_eye(8 + T, 0, 0)], 8)
    assert battlefield.more_than_horizontally([model], [_eye(8 + 2 * T, 0, 0)], 8)
    far, near = Body(20, 0, 32, z=10), Body(Fraction(17, 2), 0, 32)
    assert battlefield.more_than_horizontally([model], [far], 8)  # 10" up does not count: horizontally
    assert not battlefield.more_than_horizontally([model, far], [far, near], 8)
    assert battlefield.more_than_horizontally([model], [], 8)


@pytest.mark.refs("01.04", "17.02")
def test_terrain_areas_lie_at_every_height():
    """An area is a polygon on the ground that counts at every height: a model 5" up over it is 0" from it
    vertically (either way round) and within it."""
    area = TerrainArea(SQUARE)
    high = Body(5, 5, 32, z=5)
    assert battlefield.vertical_distance(high, area) == 0.0 == battlefield.vertical_distance(area, high)
    assert battlefield.within(high, area, 0) and battlefield.within_area(high, area)


@pytest.mark.refs("17.02")
def test_frame_models_measure_to_their_outline_and_height():
    """17.02: to the closest point of the FRAME model (its hull, not a base), over its whole height."""
    tank = Body(3, 2, 0, height=4, outline=((0, 0), (6, 0), (6, 4), (0, 4)))
    trooper = Body(8, 2, 32, z=6)
    assert battlefield.horizontal_distance(tank, trooper) == pytest.approx(2 - float(R32), abs=1e-12)
    assert battlefield.vertical_distance(tank, trooper) == 2.0  # from the top of the hull, not its foot
    assert battlefield.within(tank, trooper, 2, 5)


@pytest.mark.refs("06.01", "17.02")
def test_heights_not_given_are_the_documented_defaults():
    """A model whose height is not given stands DEFAULT_MODEL_HEIGHT = 1.5" tall, a terrain feature 5": the
    defaults every scenario and worked example that leaves a height out relies on."""
    hull = Body(3, 2, 0, outline=((0, 0), (6, 0), (6, 4), (0, 4)))
    assert battlefield.vertical_distance(hull, Body(3, 2, 32, z=Fraction(7, 2))) == 2.0
    assert {p[2] for p in battlefield.sample_points(Body(0, 0, 32))} == {0.0, 0.75, 1.5}
    crate = TerrainFeature(((0, 0), (4, 0), (4, 4), (0, 4)))
    assert crate.height == 5
    assert battlefield.on_terrain_section_height(_field(crate), Body(2, 2, z=5)) == 5.0


# -- Wholly within (01.04) -----------------------------------------------------------------------------------------


@pytest.mark.refs("01.04")
def test_wholly_within_an_area_is_exact_at_its_edge():
    """With no margin the test is exact: a base touching the area's edge from inside is wholly within it, and so
    is one TOLERANCE over it; 2 x TOLERANCE over is not. (Sides of 8": shapely's distance to a side divides by
    its length, exact for a power of two, so the centre is exactly 1 - TOLERANCE from the edge.)"""
    area = TerrainArea(((0, 0), (8, 0), (8, 8), (0, 8)))
    assert battlefield.wholly_within(Body(7, 4, TWO_INCH_BASE), area)
    assert battlefield.polygon(area.outline).boundary.distance(battlefield.Point(1 - T, 4)) + T == 1.0
    assert battlefield.wholly_within(Body(1 - T, 4, TWO_INCH_BASE), area)
    assert not battlefield.wholly_within(Body(1 - 2 * T, 4, TWO_INCH_BASE), area)


@pytest.mark.refs("01.04")
def test_wholly_within_a_margin_errs_towards_not():
    """A base whose far edge is exactly 6" from a zone is wholly within 6.01" of it but not 5.99"."""
    zone = TerrainArea(((0, 0), (44, 0), (44, 12), (0, 12)))
    model = Body(22, 17, TWO_INCH_BASE)
    assert battlefield.within(model, zone, 4) and not battlefield.within(model, zone, Fraction(399, 100))
    assert battlefield.wholly_within(model, zone, Fraction(601, 100))
    assert not battlefield.wholly_within(model, zone, Fraction(599, 100))


def _rotated_zone(angle: float) -> TerrainArea:
    """A 40" x 40" zone whose edge through the origin faces the direction ``angle`` (so the zone is p.u <= 0)."""
    u, v = (math.cos(angle), math.sin(angle)), (-math.sin(angle), math.cos(angle))
    corners = ((-40, -20), (0, -20), (0, 20), (-40, 20))
    return TerrainArea(tuple((a * u[0] + b * v[0], a * u[1] + b * v[1]) for a, b in corners))


@pytest.mark.refs("01.04")
@given(st.floats(0, 2 * math.pi), st.integers(0, 12), st.sampled_from(s.BASE_SIZES))
@example(math.pi / 32, 2, TWO_INCH_BASE)  # the base polygon's edge-midpoint direction: where it is tightest
@example(0.3, 1, "32")
def test_wholly_within_a_margin_is_never_too_generous(angle, inches, base):
    """A base sticking out past a margin by a millionth of an inch is never wholly within it, whichever way the
    margin's edge faces; one inside by more than the documented error (radius/200 + inches/3000) always is."""
    zone, r = _rotated_zone(angle), float(Fraction(base) / 2 / Fraction(254, 10))
    u = (math.cos(angle), math.sin(angle))

    def at(d):
        return Body(d * u[0], d * u[1], base)

    assert not battlefield.wholly_within(at(inches - r + 1e-6), zone, inches)
    assert battlefield.wholly_within(at(inches - r - r / 200 - inches / 3000 - 1e-6), zone, inches)


# -- Terrain areas (13.08, 13.09) ------------------------------------------------------------------------------------


@pytest.mark.refs("01.04", "13.08", "13.09")
def test_a_base_overlapping_an_area_edge_is_within_it():
    """Within an area: any part of the base on or over its edge (touching from outside too); wholly: every part."""
    area = TerrainArea(SQUARE)
    assert battlefield.within_area(Body(Fraction(105, 10), 5), area)  # centre outside, base over the edge
    assert battlefield.within_area(Body(10 + R32, 5), area)  # touching the edge from outside
    assert not battlefield.within_area(Body(Fraction(107, 10), 5), area)  # 0.07" short of it
    assert battlefield.wholly_within(Body(9, 5), area) and not battlefield.wholly_within(Body(Fraction(95, 10), 5), area)


@pytest.mark.refs("13.08", "13.09")
def test_within_an_area_at_the_tolerance():
    """A point TOLERANCE outside an area's edge is within it (touching); 2 x TOLERANCE outside is not."""
    west = TerrainArea(((-10, -10), (0, -10), (0, 10), (-10, 10)))
    assert battlefield.horizontal_distance(_eye(T, 0, 0), west) == T
    assert battlefield.within_area(_eye(T, 0, 0), west) and not battlefield.within_area(_eye(2 * T, 0, 0), west)


@pytest.mark.refs("01.04")
def test_units_are_within_by_any_model_and_wholly_within_by_every_model():
    """Interpretation within-any-part-wholly-every-part: a unit is within if any model is, wholly within if every
    model is (horizontally and vertically when a vertical limit is given)."""
    zone = TerrainArea(SQUARE)
    inside, outside = Body(5, 5, 32), Body(15, 5, 32)
    assert battlefield.unit_within([outside, inside], zone, 0) and not battlefield.unit_within([outside], zone, 4)
    assert battlefield.unit_within([outside], zone, 5)
    assert battlefield.unit_wholly_within([inside, Body(2, 2, 32)], zone)
    assert not battlefield.unit_wholly_within([inside, outside], zone)
    assert battlefield.unit_wholly_within([inside, outside], zone, 6)
    up = Body(5, 5, 32, z=6)
    assert not battlefield.unit_within([inside], up, 3, 5) and battlefield.unit_within([inside], up, 3, 6)


@pytest.mark.refs("01.04")
def test_each_player_has_their_own_deployment_zone():
    """A battlefield's zone of player 2 is player 2's, not the other one; a player without one is an error."""
    south, north = ((0, 0), (44, 0), (44, 12), (0, 12)), ((0, 48), (44, 48), (44, 60), (0, 60))
    field = Battlefield(deployment_zones=(DeploymentZone(1, south), DeploymentZone(2, north)))
    assert field.zone(1).outline == south and field.zone(2).outline == north
    assert battlefield.wholly_within(Body(22, 54), field.zone(2)) and not battlefield.wholly_within(Body(22, 54),
                                                                                                     field.zone(1))
    with pytest.raises(KeyError, match="player 3 has no deployment zone"):
        field.zone(3)


@pytest.mark.refs("01.04")
def test_the_default_battlefield_is_a_strike_force_one():
    """Battlefield() is the mission pack's Strike Force battlefield, approximately 44" x 60"."""
    from rules.missionpack import battle_sizes

    _, _, width, depth = next(row for row in battle_sizes.BATTLEFIELDS if "Strike Force" in row[0])
    assert (Battlefield().width, Battlefield().depth) == (width, depth) == (44, 60)


# -- Shapes that cannot stand on a battlefield ------------------------------------------------------------------------


@pytest.mark.refs("01.04", "13.01")
def test_bad_shapes_are_refused():
    """A self-intersecting outline, an unknown category and a feature outside its boundary are refused."""
    with pytest.raises(GeometryError, match="not a simple polygon"):
        battlefield.polygon(((0, 0), (1, 1), (0, 1), (1, 0)))
    with pytest.raises(GeometryError, match="terrain category"):
        TerrainFeature(((0, 0), (1, 0), (1, 1)), "rubble")
    with pytest.raises(ValueError, match="not wholly within"):
        terrain.terrain_area("boundary", [TerrainFeature(((0, 0), (5, 0), (5, 5), (0, 5)))], ((1, 1), (4, 1), (4, 4), (1, 4)))


@pytest.mark.refs("01.04")
def test_outlines_must_enclose_an_area():
    """A triangle is the least outline; fewer points, points in a line, a self-intersecting ring (even one whose
    shoelace area is not 0) and a triangle too small for its area to be a float (2e-162 inch) are refused."""
    assert battlefield.polygon(((0, 0), (3, 0), (0, 4))).area == 6.0
    refused = {((0, 0), (1, 1)): "at least three points",
               ((0, 0), (1, 0), (2, 0)): "not a simple polygon",
               ((0, 0), (4, 4), (0, 4), (1, 0)): "not a simple polygon",
               ((0, 0), (2e-162, 0), (0, 2e-162)): "not a simple polygon"}
    for outline, message in refused.items():
        with pytest.raises(GeometryError, match=message):
            battlefield.polygon(outline)


@pytest.mark.refs("01.04")
def test_a_negative_height_is_refused_naming_the_feature():
    """A feature cannot be below the ground; the message names it, by its outline if it has no name."""
    with pytest.raises(GeometryError, match="terrain feature 'ruin' has a negative height"):
        TerrainFeature(SQUARE, height=-1, name="ruin")
    with pytest.raises(GeometryError, match=r"terrain feature \(\(0, 0\), \(10, 0\).* has a negative height"):
        TerrainFeature(SQUARE, height=-1)


@pytest.mark.refs("13.09", "13.10", "13.11")
def test_terrain_categories_by_name_number_or_member():
    """The three categories of 13.02 as data files give them: a name (any case, padded), a number 0-2 or the
    member; LIGHT and DENSE stay distinct. Anything else (a bool, another number, an unknown name, a float) is
    refused as not a category."""
    members = [battlefield.category_of(name) for name in ("exposed", "light", "dense")]
    assert [m.name for m in members] == ["EXPOSED", "LIGHT", "DENSE"]
    for number, member in enumerate(members):
        assert battlefield.category_of(number) is member
        assert battlefield.category_of(f" {member.name.lower().title()} ") is member
        assert battlefield.category_of(member) is member
    for bad in (True, False, 3, -1, 5, "swamp", "", 1.0, None):
        with pytest.raises(GeometryError, match="is not a terrain category"):
            battlefield.category_of(bad)


@pytest.mark.refs("06.01", "13.09", "13.11")
def test_light_terrain_is_neither_solid_nor_hiding():
    """13.11 gives Solid to dense features only and 13.09 hides INFANTRY only in an area with a dense feature:
    a light wall's low window lets sight through where a dense one's does not; a light-only area hides no one."""
    window = Opening(((Fraction(99, 10), 8), (Fraction(106, 10), 8), (Fraction(106, 10), 12), (Fraction(99, 10), 12)),
                     1, 2)
    wall = TerrainFeature(((10, 0), (Fraction(21, 2), 0), (Fraction(21, 2), 20), (10, 20)), "light", 8, (window,))
    a, b = _eye(5, 10, Fraction(3, 2)), _eye(15, 10, Fraction(3, 2))
    assert battlefield.line_of_sight(_field(wall), a, b)
    assert not battlefield.line_of_sight(_field(dataclasses.replace(wall, category="dense")), a, b)
    trooper = Body(30, 30)
    assert not terrain.model_hidden_on(_field(wall), trooper, ("INFANTRY",), False)
    assert terrain.model_hidden_on(_field(dataclasses.replace(wall, category="dense")), trooper, ("INFANTRY",), False)


# -- Sight lines at their boundaries (06.01, 13.10, 13.11) -----------------------------------------------------------


@pytest.mark.refs("06.01")
def test_a_sight_line_grazing_a_corner_passes():
    """A line touching a feature's corner is not blocked; one cutting 0.1" into it is."""
    observer, target = _points(0, 0), _points(10, 10)
    corner = TerrainFeature(((5, 3), (7, 3), (7, 5), (5, 5)), "dense", 10)  # touches the line y = x at (5, 5)
    into = TerrainFeature(((Fraction(49, 10), 3), (7, 3), (7, Fraction(51, 10)), (Fraction(49, 10), Fraction(51, 10))),
                          "dense", 10)
    assert battlefield.line_of_sight(_field(corner), observer, target)
    assert not battlefield.line_of_sight(_field(into), observer, target)


@pytest.mark.refs("06.01")
def test_a_sight_line_along_a_wall_face_passes():
    """A line running along a wall's face, however long, passes through none of its material; 0.1" inside, it is
    blocked."""
    wall = TerrainFeature(((5, 3), (7, 3), (7, 5), (5, 5)), "dense", 10)
    assert battlefield.line_of_sight(_field(wall), _points(0, 3), _points(10, 3))
    assert not battlefield.line_of_sight(_field(wall), _points(0, Fraction(31, 10)), _points(10, Fraction(31, 10)))


@pytest.mark.refs("06.01")
def test_a_sight_line_within_the_tolerance_of_a_wall_face_grazes_it():
    """A line that stays within TOLERANCE inside a wall's face (here 1e-12" in at one end, on the face or 2e-12"
    in at the other: tilted by exactly 1e-12" over 10") runs along the face, not through the wall; one 2e-9"
    inside all along is blocked."""
    wall = TerrainFeature(((5, 0), (7, 0), (7, 2), (5, 2)), "dense", 10)
    field = _field(wall, area=((-20, -20), (20, -20), (20, 20), (-20, 20)))
    assert battlefield.line_of_sight(field, _eye(0, 1e-12, 1), _eye(10, 0, 1))
    assert battlefield.line_of_sight(field, _eye(0, 1e-12, 1), _eye(10, 2e-12, 1))
    assert not battlefield.line_of_sight(field, _eye(0, 2e-9, 1), _eye(10, 2e-9, 1))


@pytest.mark.parametrize("sx,sy", [(1, 1), (1, -1), (-1, 1), (-1, -1)])
@pytest.mark.refs("06.01")
def test_a_sight_line_cutting_any_corner_of_a_feature_is_blocked(sx, sy):
    """Every corner of a feature is material: a line cutting across each corner of a square wall (0.35" deep)
    is blocked."""
    wall = TerrainFeature(((4, 4), (6, 4), (6, 6), (4, 6)), "dense", 10)
    mx, my = 5 + sx * Fraction(3, 4), 5 + sy * Fraction(3, 4)
    observer, target = _points(mx - 4 * sy, my + 4 * sx), _points(mx + 4 * sy, my - 4 * sx)
    assert not battlefield.line_of_sight(_field(wall), observer, target)


@pytest.mark.refs("06.01")
def test_an_l_shaped_wall_blocks_along_both_arms_but_not_in_its_notch():
    """A non-convex footprint is material along each arm, and only there: a line across an arm is blocked, one
    through the notch between the arms (inside the outline's convex hull) is not."""
    ell = TerrainFeature(((10, 0), (14, 0), (14, 1), (11, 1), (11, 4), (10, 4)), "dense", 5)
    assert not battlefield.line_of_sight(_field(ell), _points(13, -3), _points(13, 3))
    assert not battlefield.line_of_sight(_field(ell), _points(8, 3), _points(13, 3))
    assert battlefield.line_of_sight(_field(ell), _points(12, 2), _points(Fraction(27, 2), Fraction(7, 2)))


@pytest.mark.refs("06.01")
def test_sight_at_a_wall_top_and_window_edges_counts_the_tolerance():
    """A flat line within TOLERANCE of a wall's top passes over it, and one within TOLERANCE of a window's top or
    bottom passes through the window (light wall: no Solid rule); 2 x TOLERANCE away it is blocked."""
    low = TerrainFeature(((5, -5), (Fraction(11, 2), -5), (Fraction(11, 2), 5), (5, 5)), "light", 2)
    for z, seen in ((2 - T, True), (2 - 2 * T, False)):
        assert battlefield.line_of_sight(_field(low, area=((-20, -20), (20, -20), (20, 20), (-20, 20))),
                                         _eye(0, 0, z), _eye(10, 0, z)) is seen, z
    window = Opening(((Fraction(49, 10), -1), (Fraction(28, 5), -1), (Fraction(28, 5), 1), (Fraction(49, 10), 1)), 1, 2)
    wall = TerrainFeature(((5, -5), (Fraction(11, 2), -5), (Fraction(11, 2), 5), (5, 5)), "light", 8, (window,))
    for z, seen in ((2 + T, True), (2 + 2 * T, False), (1 - T, True), (1 - 2 * T, False)):
        assert battlefield.line_of_sight(_field(wall, area=((-20, -20), (20, -20), (20, 20), (-20, 20))),
                                         _eye(0, 0, z), _eye(10, 0, z)) is seen, z


#: Just over TOLERANCE from the origin, chosen so that it + TOLERANCE is a float and the strip below is exactly
#: TOLERANCE wide (1e-9 is an odd multiple of 2**-82, so the sum needs an even one).
_NEAR = T + 2 ** -81


@pytest.mark.refs("06.01", "13.10")
def test_a_hedge_exactly_the_tolerance_thick_neither_blocks_nor_obscures():
    """A light hedge (its own obscuring area) exactly TOLERANCE thick, just out of the observer's reach, is
    crossed for TOLERANCE: no more than a touch, so it neither blocks sight (5" tall) nor obscures it (even
    flat); twice as thick, it does both."""
    def hedge(width, height):
        outline = ((_NEAR, -5), (_NEAR + width, -5), (_NEAR + width, 5), (_NEAR, 5))
        return Battlefield(40, 40, areas=(TerrainArea(outline, (TerrainFeature(outline, "light", height),)),))

    observer, target = _eye(0, 0, 1), _eye(1, 0, 1)  # a line of length 1 from the origin: its t is its x
    assert (_NEAR + T) - _NEAR == T and not battlefield.within_area(observer, hedge(T, 5).areas[0])
    assert battlefield.line_of_sight(hedge(T, 5), observer, target)
    assert not battlefield.line_of_sight(hedge(2 * T, 5), observer, target)
    assert battlefield.unobscured_line_of_sight(hedge(T, 0), observer, target)
    assert not battlefield.unobscured_line_of_sight(hedge(2 * T, 0), observer, target)


@pytest.mark.refs("06.01")
def test_a_doorway_within_the_tolerance_of_a_model_against_the_wall_lets_it_see():
    """A model standing against a light wall sees through a doorway whose edge is TOLERANCE in front of it (the
    line runs through bare wall for exactly TOLERANCE); 2 x TOLERANCE of bare wall blocks it."""
    def wall(edge):
        door = Opening(((edge, -1), (Fraction(3, 5), -1), (Fraction(3, 5), 1), (edge, 1)), 0, 2)
        return _field(TerrainFeature(((0, -5), (Fraction(1, 2), -5), (Fraction(1, 2), 5), (0, 5)), "light", 5, (door,)),
                      area=((-20, -20), (20, -20), (20, 20), (-20, 20)))

    observer, target = _eye(0, 0, 1), _eye(1, 0, 1)
    assert battlefield.line_of_sight(wall(T), observer, target)
    assert not battlefield.line_of_sight(wall(2 * T), observer, target)


@pytest.mark.refs("06.01", "13.11")
def test_solid_stops_a_line_crossing_exactly_three_inches_up():
    """13.11: "3\" or less": a line crossing an enclosed window exactly 3" up is stopped; not if a mission makes it
    2.99", nor in a light wall."""
    window = Opening(((Fraction(99, 10), 0), (Fraction(106, 10), 0), (Fraction(106, 10), 20), (Fraction(99, 10), 20)),
                     Fraction(5, 2), Fraction(16, 5))
    wall = TerrainFeature(((10, 0), (Fraction(21, 2), 0), (Fraction(21, 2), 20), (10, 20)), "dense", 8, (window,))
    a, b = _points(5, 10, z=Fraction(3, 2), height=3), _points(15, 10, z=Fraction(3, 2), height=3)
    assert 3.0 in {p[2] for p in battlefield.sample_points(a)}
    assert not battlefield.line_of_sight(_field(wall), a, b)
    assert battlefield.line_of_sight(_field(wall, solid_height=Fraction(299, 100)), a, b)
    assert battlefield.line_of_sight(_field(dataclasses.replace(wall, category="light")), a, b)


@pytest.mark.refs("06.01", "13.11")
def test_solid_lets_sight_through_windows_more_than_three_inches_up():
    """13.11's figure: through a dense feature's enclosed window more than 3" from ground level (at 4") units see
    each other; through one at 2" they do not (the default battlefield's Solid height is 13.11's 3")."""
    def wall(bottom, top):
        window = Opening(((Fraction(99, 10), 8), (Fraction(106, 10), 8), (Fraction(106, 10), 12),
                          (Fraction(99, 10), 12)), bottom, top)
        return TerrainFeature(((10, 0), (Fraction(21, 2), 0), (Fraction(21, 2), 20), (10, 20)), "dense", 8, (window,))

    assert Battlefield().solid_height == 3
    assert battlefield.line_of_sight(_field(wall(Fraction(7, 2), 5)), _eye(5, 10, 4), _eye(15, 10, 4))
    assert not battlefield.line_of_sight(_field(wall(1, Fraction(5, 2))), _eye(5, 10, 2), _eye(15, 10, 2))


@pytest.mark.refs("06.01", "13.11")
def test_solid_ignores_gaps_open_to_the_top_and_windows_the_line_misses():
    """13.11 forbids sight across *enclosed* gaps: a breach running up to the top of a dense wall is not one, so a
    line 1.5" up through it passes, even with an enclosed low window elsewhere in the same wall."""
    breach = Opening(((Fraction(99, 10), 8), (Fraction(106, 10), 8), (Fraction(106, 10), 12), (Fraction(99, 10), 12)),
                     1, 4)
    window = Opening(((Fraction(99, 10), 15), (Fraction(106, 10), 15), (Fraction(106, 10), 17),
                      (Fraction(99, 10), 17)), 1, Fraction(5, 2))
    wall = TerrainFeature(((10, 0), (Fraction(21, 2), 0), (Fraction(21, 2), 20), (10, 20)), "dense", 4, (breach, window))
    a, b = _eye(5, 10, Fraction(3, 2)), _eye(15, 10, Fraction(3, 2))
    assert battlefield.line_of_sight(_field(wall), a, b)
    assert not battlefield.line_of_sight(_field(wall), _eye(5, 16, Fraction(3, 2)), _eye(15, 16, Fraction(3, 2)))


@pytest.mark.refs("06.01")
def test_sight_lines_start_at_the_recorded_sample_points():
    """The sample points interpretation geometry-battlefield-model records: a round base's edge at 8 points, a
    FRAME outline's corners and edge midpoints, each at the model's foot, middle and top, and the middle of its
    top."""
    def rounded(points):
        return sorted(tuple(round(c, 9) + 0.0 for c in p) for p in points)

    base = Body(0, 0, TWO_INCH_BASE, z=1, height=2)
    ring = [(math.cos(k * math.pi / 4), math.sin(k * math.pi / 4)) for k in range(8)]
    assert rounded(battlefield.sample_points(base)) == rounded(
        [(x, y, z) for x, y in ring for z in (1, 2, 3)] + [(0, 0, 3)])
    hull = Body(2, 1, 0, z=1, height=2, outline=((0, 0), (4, 0), (4, 2), (0, 2)))
    ring = [(0, 0), (2, 0), (4, 0), (4, 1), (4, 2), (2, 2), (0, 2), (0, 1)]
    assert rounded(battlefield.sample_points(hull)) == rounded(
        [(x, y, z) for x, y in ring for z in (1, 2, 3)] + [(2, 1, 3)])


@pytest.mark.refs("06.01", "13.08")
def test_fully_visible_needs_every_facing_point():
    """13.08 "fully visible": a thin wall hiding part of the target leaves it visible but not fully visible."""
    observer, target = Body(0, 10), Body(10, 10)
    half_wall = TerrainFeature(((5, 10), (Fraction(51, 10), 10), (Fraction(51, 10), 12), (5, 12)), "dense", 5)
    field = Battlefield(40, 40, areas=(TerrainArea(half_wall.outline, (half_wall,)),))
    assert battlefield.line_of_sight(field, observer, target)
    assert not battlefield.fully_visible_geometry(field, observer, target)
    assert battlefield.fully_visible_geometry(Battlefield(40, 40), observer, target)


@pytest.mark.refs("06.01", "13.08")
@given(sb.bodies(frame=None, max_z=4), sb.bodies(frame=None, max_z=4))
@example(Body(5, 5, "32", z=4), Body(5, 5, "32"))  # standing right above it: no part of it faces sideways
def test_nothing_hides_anything_on_an_empty_battlefield(observer, target):
    """With no terrain and no other models, every model is visible and fully visible to every other, even one
    standing on a ledge right above it."""
    assert battlefield.line_of_sight(Battlefield(), observer, target)
    assert battlefield.fully_visible_geometry(Battlefield(), observer, target)


@pytest.mark.refs("06.01")
def test_other_units_models_block_sight_but_the_two_units_do_not():
    """06.01: models of other units block sight (a 60 mm base, a 32 mm one); the two units' own do not count."""
    observer, target = _points(0, 0), _points(10, 0)
    assert battlefield.line_of_sight(Battlefield(40, 40), observer, target)
    assert not battlefield.line_of_sight(Battlefield(40, 40), observer, target, others=[Body(5, 0, 60, height=3)])
    assert not battlefield.line_of_sight(Battlefield(40, 40), observer, target, others=[Body(5, 0, 32, height=3)])
    assert battlefield.line_of_sight(Battlefield(40, 40), observer, target, others=[Body(5, 2, 32, height=3)])


@pytest.mark.refs("06.01", "13.10")
def test_a_sight_line_grazing_an_obscuring_area_is_not_obscured():
    """13.10 "crosses": touching an obscuring area's corner does not cross it; cutting 0.1" into it does."""
    observer, target = _points(0, 0), _points(10, 10)
    wood = TerrainFeature(((6, 3), (6.5, 3), (6.5, 3.5), (6, 3.5)), "light", 1)
    touching = Battlefield(40, 40, areas=(TerrainArea(((5, 3), (7, 3), (7, 5), (5, 5)), (wood,)),))
    crossing = Battlefield(40, 40, areas=(TerrainArea(((5, 3), (7, 3), (7, Fraction(51, 10)), (5, Fraction(51, 10))),
                                                      (wood,)),))
    assert battlefield.unobscured_line_of_sight(touching, observer, target)
    assert not battlefield.unobscured_line_of_sight(crossing, observer, target)


# -- Standing on and moving over terrain features ---------------------------------------------------------------------


@pytest.mark.refs("01.04", "17.02")
def test_a_model_standing_exactly_three_inches_up():
    """On a 3" crate a model stands over a section "3\" or more" in height (22.05), 5" below one at 8"."""
    crate = TerrainFeature(((0, 0), (4, 0), (4, 4), (0, 4)), "dense", 3)
    on_top = Body(2, 2, z=3)
    assert battlefield.on_terrain_section_height(_field(crate), on_top) == 3.0
    assert battlefield.on_terrain_section_height(_field(crate), Body(10, 10)) == 0.0
    assert battlefield.vertical_distance(on_top, Body(8, 2, z=8)) == 5.0
    assert battlefield.within(on_top, Body(8, 2, z=8), 6, 5)


@pytest.mark.refs("01.04", "17.02")
def test_standing_over_a_section_needs_more_than_a_touch():
    """A FRAME hull overlapping a crate by exactly TOLERANCE square inches only touches it (open ground); twice
    that, it stands over the 3" section."""
    crate = TerrainFeature(((0, 0), (4, 0), (4, 4), (0, 4)), "dense", 3)

    def hull(reach):
        return Body(-1, Fraction(1, 2), 0, height=2, outline=((-2, 0), (reach, 0), (reach, 1), (-2, 1)))

    assert battlefield.on_terrain_section_height(_field(crate), hull(T)) == 0.0
    assert battlefield.on_terrain_section_height(_field(crate), hull(2 * T)) == 3.0


@pytest.mark.refs("01.04", "13.06")
def test_a_straight_move_crosses_the_features_its_base_passes_over():
    """The features a base sweeps over moving straight (13.06): the crate in its path, not the wall beside it, nor
    a sliver whose overlap with the swept band is exactly TOLERANCE square inches (a touch)."""
    crate = TerrainFeature(((4, -1), (6, -1), (6, 1), (4, 1)), "dense", 2, name="crate")
    wall = TerrainFeature(((4, 3), (6, 3), (6, 4), (4, 4)), "dense", 2, name="wall")
    sliver = TerrainFeature(((0, 0), (T, 0), (T, 1), (0, 1)), "light", 1, name="sliver")
    field = Battlefield(40, 40, areas=(TerrainArea(((-2, -2), (12, -2), (12, 5), (-2, 5)), (crate, wall, sliver)),))
    model = Body(0, 0, TWO_INCH_BASE)
    assert battlefield.features_crossed(field, model, 10, 0) == [crate]
    assert battlefield.features_crossed(field, model, 0, -10) == []
    wider = dataclasses.replace(sliver, outline=((0, 0), (2 * T, 0), (2 * T, 1), (0, 1)))
    assert battlefield.features_crossed(dataclasses.replace(field, areas=(TerrainArea(
        field.areas[0].outline, (crate, wider)),)), model, 10, 0) == [crate, wider]


# -- Two bugs the mutants led to (fixed in rules/battlefield.py) -------------------------------------------------------


@pytest.mark.refs("01.04")
def test_a_model_without_a_base_is_wholly_within_a_margin_around_its_point():
    """A model with no base (base_mm 0) is its point: wholly within 2" of a zone it stands in, and not of one 3"
    away. (The margin branch once buffered the point by 0, an empty shape that nothing covers.)"""
    zone = DeploymentZone(1, SQUARE)
    assert battlefield.wholly_within(Body(5, 5, 0), zone, 2)
    assert battlefield.wholly_within(Body(11, 5, 0), zone, 2)
    assert not battlefield.wholly_within(Body(13, 5, 0), zone, 2)


@pytest.mark.refs("06.01")
def test_a_wall_with_a_tiny_notch_still_blocks_at_its_corner():
    """A dense 10" square wall whose top edge has a notch a millionth of an inch wide and deep blocks a line across its
    corner like the plain square does (06.01). (A convexity test by area once took the notched outline for convex,
    and the notch's edges then cut away most of the wall.)"""
    notched = TerrainFeature(((0, 0), (10, 0), (10, 10), (5 + 1e-6, 10), (5, 10 - 1e-6), (5 - 1e-6, 10), (0, 10)),
                             "dense", 5)
    plain = TerrainFeature(SQUARE, "dense", 5)
    for wall in (plain, notched):
        assert not battlefield.line_of_sight(_field(wall, area=((-5, -5), (20, -5), (20, 20), (-5, 20))),
                                             _points(-2, 8), _points(3, 12)), wall


@pytest.mark.refs("06.01")
@pytest.mark.parametrize("start", range(7))
def test_the_notch_is_found_wherever_the_outline_starts(start):
    """The convexity test looks at every vertex: the notched wall blocks the corner line whichever vertex its
    outline lists first (a test that skipped or misaligned one vertex would miss the notch for some start)."""
    ring = ((0, 0), (10, 0), (10, 10), (5 + 1e-6, 10), (5, 10 - 1e-6), (5 - 1e-6, 10), (0, 10))
    notched = TerrainFeature(ring[start:] + ring[:start], "dense", 5)
    assert not battlefield.line_of_sight(_field(notched, area=((-5, -5), (20, -5), (20, 20), (-5, 20))),
                                         _points(-2, 8), _points(3, 12))
