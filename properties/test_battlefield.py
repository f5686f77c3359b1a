"""Hypothesis properties of the battlefield geometry and the terrain rules over it, each paired with a broken rule
that makes it fail (the BROKEN list at the end).

Floats: the geometry works in floats (interpretation geometry-battlefield-model); properties that compare two
computations allow ``TOLERANCE`` (1e-9 inch), and the comparison with the exact Fraction arithmetic of 01.04
skips cases within ``BAND`` (1e-6 inch) of the limit, where a float rounding may legitimately fall either way.
"""

from __future__ import annotations

import dataclasses
import math
from fractions import Fraction

import pytest
from hypothesis import assume, given, note
from hypothesis import strategies as st

from properties.mutation import generate_only
from properties import strategies as s
from properties import strategies_battlefield as sb
from rules import battlefield, dice
from rules.battlefield import Body, TerrainArea, TerrainFeature
from rules.core import core_abilities, core_concepts, terrain
from rules.logic import And, Max, Not, Or
from rules.model import Placed

TOLERANCE = battlefield.TOLERANCE
BAND = 1e-6
#: How many examples a property may try before it must have failed for a broken rule.
MUTANT_EXAMPLES = 300


# -- Distances and within (01.04, 17.02) ---------------------------------------------------------------------------


@pytest.mark.refs("01.04", "17.02")
@given(sb.bodies(frame=None, max_z=6), sb.bodies(frame=None, max_z=6))
def test_distance_is_symmetric(a, b):
    """The closest-point distance from A to B is the distance from B to A, for bases and FRAME models alike."""
    note(f"{a} / {b}")
    assert abs(battlefield.horizontal_distance(a, b) - battlefield.horizontal_distance(b, a)) <= TOLERANCE
    assert abs(battlefield.vertical_distance(a, b) - battlefield.vertical_distance(b, a)) <= TOLERANCE
    assert battlefield.within(a, b, 3, 5) == battlefield.within(b, a, 3, 5)


@pytest.mark.refs("01.04")
@given(sb.bodies(frame=None, max_z=6), sb.bodies(frame=None, max_z=6), s.inches(high=20), s.inches(high=20))
def test_within_grows_with_distance(a, b, d, more):
    """Anything within d inches is within any greater distance (plain, and horizontally-and-vertically)."""
    if battlefield.within(a, b, d):
        assert battlefield.within(a, b, d + more)
    if battlefield.within(a, b, d, d):
        assert battlefield.within(a, b, d + more, d + more)


@pytest.mark.refs("01.04", "13.08")
@given(sb.bodies(frame=None), sb.terrain_areas(max_features=0), s.inches(high=6))
def test_wholly_within_implies_within(model, area, d):
    """A model wholly within an area (or wholly within d inches of it) is within it (within d inches of it)."""
    if battlefield.wholly_within(model, area):
        assert battlefield.within_area(model, area)
    if battlefield.wholly_within(model, area, d):
        assert battlefield.within(model, area, d)


@pytest.mark.refs("13.08", "13.09")
@given(sb.terrain_areas(max_features=0), st.sampled_from(s.BASE_SIZES), st.floats(0, 1), st.floats(0, 1),
       st.floats(0, 0.99))
def test_a_model_on_an_area_is_within_it(area, base, u, v, overlap):
    """A model whose base centre is on the area, or whose base reaches over the area's edge, is within the area."""
    (x0, y0), _, (x1, y1), _ = area.outline
    inside = Body(x0 + (x1 - x0) * Fraction(u), y0 + (y1 - y0) * Fraction(v), base)
    assert battlefield.within_area(inside, area)
    radius = float(inside.radius)
    straddling = Body(Fraction(x1) + Fraction(radius * overlap), y0 + (y1 - y0) * Fraction(v), base)
    note(f"straddling the edge x = {x1}: {straddling}")
    assert battlefield.within_area(straddling, area)


@pytest.mark.refs("01.04")
@given(s.placed_models(spread=20, height=6), s.placed_models(spread=20, height=6), s.inches(high=12),
       s.inches(high=6))
def test_float_geometry_agrees_with_exact_within(a, b, horizontal, vertical):
    """For round bases the float geometry gives the exact (Fraction) answer of 01.04, away from the limit."""
    gap = battlefield.horizontal_distance(a, b)
    assume(abs(gap - float(horizontal)) > BAND or gap == 0)
    assert battlefield.within(a, b, horizontal, vertical) == core_concepts.within(a, b, horizontal, vertical)


@pytest.mark.refs("17.02")
@given(sb.bodies(frame=True), st.integers(-360, 360))
def test_rotating_a_frame_turns_it_in_place(model, degrees):
    """Turning a FRAME model about its central axis keeps its shape, its axis and how far its outline reaches."""
    turned = battlefield.rotate_frame(model, degrees)
    before, after = battlefield.polygon(model.outline), battlefield.polygon(turned.outline)
    assert abs(before.area - after.area) <= 1e-9
    axis = battlefield.Point(float(model.x), float(model.y))
    assert abs(before.hausdorff_distance(axis) - after.hausdorff_distance(axis)) <= 1e-9
    assert (turned.x, turned.y, turned.z, turned.height) == (model.x, model.y, model.z, model.height)


@pytest.mark.refs("appendix/objectives-not-within-a-terrain-area")
@given(s.placed_models(spread=10, height=6), s.inches(high=10), s.inches(high=10))
def test_objective_marker_range_exact_and_float_agree(model, x, y):
    """The exact objective-marker range (Fractions) and the float geometry agree, away from the 3" limit."""
    marker = battlefield.objective_marker(x, y)
    gap = battlefield.horizontal_distance(model, marker)
    assume(abs(gap - 3) > BAND)
    exact = battlefield.within_objective_marker_range(model, marker)
    assert exact == battlefield.within(model, marker, 3, 5)
    assert exact == (gap <= 3 and abs(float(model.z)) <= 5)


# -- Visibility (06.01, 13.07, 13.09-13.11) ----------------------------------------------------------------------------


def _moved(area: TerrainArea, x, y) -> TerrainArea:
    """The same terrain area (features and openings too) moved so that its centre lies at (x, y)."""
    (x0, y0), _, (x1, y1), _ = area.outline
    dx, dy = Fraction(x) - (x0 + x1) / 2, Fraction(y) - (y0 + y1) / 2

    def shift(outline):
        return tuple((px + dx, py + dy) for px, py in outline)

    features = tuple(dataclasses.replace(f, outline=shift(f.outline), openings=tuple(
        dataclasses.replace(o, outline=shift(o.outline)) for o in f.openings)) for f in area.features)
    return dataclasses.replace(area, outline=shift(area.outline), features=features)


def _placed_at(model: Body, x, y, z=None) -> Body:
    """The same model moved so that its base centre (or FRAME axis) is at (x, y), its outline moving with it."""
    dx, dy = Fraction(x) - Fraction(model.x), Fraction(y) - Fraction(model.y)
    outline = tuple((Fraction(px) + dx, Fraction(py) + dy) for px, py in model.outline)
    return dataclasses.replace(model, x=Fraction(x), y=Fraction(y), z=model.z if z is None else z, outline=outline)


def _in_some_area(field, data, model):
    """The model as drawn, or (sometimes) moved to the centre of one of the battlefield's terrain areas."""
    if field.areas and data.draw(st.booleans(), label="move it into a terrain area"):
        area = data.draw(st.sampled_from(field.areas), label="area")
        (x0, y0), _, (x1, y1), _ = area.outline
        return _placed_at(model, (x0 + x1) / 2, (y0 + y1) / 2, 0)
    return model


@pytest.mark.refs("06.01", "13.07", "13.10", "13.11")
@given(sb.battlefields(max_areas=3), sb.bodies(max_z=4), sb.bodies(max_z=4), st.data())
def test_visibility_is_symmetric_without_hidden_models(field, a, b, data):
    """With no hidden model (no INFANTRY/BEASTS/SWARM keyword) and no Lone Operative, A sees B exactly when B sees A."""
    b = _in_some_area(field, data, b)
    seen = terrain.model_visible_on(field, a, b)
    note(f"A sees B: {seen}")
    assert seen == terrain.model_visible_on(field, b, a)


@pytest.mark.refs("13.07", "13.09", "13.10")
@given(sb.battlefields(max_areas=2), sb.terrain_areas(min_features=1), sb.bodies(max_z=4), sb.bodies(max_z=4),
       st.sampled_from([(), ("INFANTRY",), ("VEHICLE",)]), st.booleans())
def test_adding_terrain_never_reveals_a_model(field, extra, observer, target, keywords, around_target):
    """Adding a terrain area (with its features) never makes a model visible that was not (nor a hidden one)."""
    if around_target:
        extra = _moved(extra, target.x, target.y)
    more = dataclasses.replace(field, areas=field.areas + (extra,))
    before = terrain.model_visible_on(field, observer, target, target_keywords=keywords)
    after = terrain.model_visible_on(more, observer, target, target_keywords=keywords)
    note(f"visible before {before}, after {after}")
    assert before or not after


@pytest.mark.refs("06.01", "13.08")
@given(sb.battlefields(max_areas=2), sb.bodies(frame=None, max_z=4), sb.bodies(frame=None, max_z=4), st.data())
def test_fully_visible_models_are_visible(field, observer, target, data):
    """A model that is fully visible is visible: some unobscured line of sight reaches it."""
    target = _in_some_area(field, data, target)
    if field.areas and data.draw(st.booleans(), label="put them either side of a terrain area"):
        (x0, y0), _, (x1, y1), _ = data.draw(st.sampled_from(field.areas), label="area").outline
        observer = _placed_at(observer, x0 - 4, (y0 + y1) / 2)
        target = _placed_at(target, x1 + 4, (y0 + y1) / 2)
    if battlefield.fully_visible_geometry(field, observer, target):
        assert battlefield.unobscured_line_of_sight(field, observer, target)


@pytest.mark.refs("13.09", "13.07")
@given(sb.battlefields(max_areas=2, categories=("dense", "light")), sb.bodies(max_z=2), sb.bodies(max_z=2),
       st.booleans(), st.data())
def test_hidden_models_unseen_beyond_detection_range(field, observer, target, shot, data):
    """An INFANTRY model hidden in a ruin is never visible to an enemy model more than 15" away."""
    target = _in_some_area(field, data, target)
    hidden = terrain.model_hidden_on(field, target, ("INFANTRY",), shot)
    visible = terrain.model_visible_on(field, observer, target, target_keywords=("INFANTRY",), target_unit_shot=shot)
    note(f"hidden {hidden}, visible {visible}, {battlefield.distance(observer, target):.2f} inches apart")
    if hidden and not battlefield.within(observer, target, 15):
        assert not visible


@st.composite
def _wall_between(draw):
    """Two models either side of a wall 8" high along x = 10-10.5 with one opening (a window or doorway)."""
    low = draw(s.inches(high=6, denominator=4))
    span = draw(s.inches(low=1, high=3, denominator=4))
    y0 = draw(s.inches(high=14, denominator=2))
    window = battlefield.Opening(((Fraction(99, 10), y0), (Fraction(106, 10), y0), (Fraction(106, 10), y0 + 4),
                                  (Fraction(99, 10), y0 + 4)), low, low + span)
    wall = TerrainFeature(((10, 0), (Fraction(21, 2), 0), (Fraction(21, 2), 20), (10, 20)), "light", 8, (window,))
    field = battlefield.Battlefield(30, 30, areas=(TerrainArea(((0, 0), (30, 0), (30, 20), (0, 20)), (wall,)),))
    observer = Body(5, draw(s.inches(low=2, high=18)), z=draw(s.inches(high=5, denominator=2)),
                    height=draw(st.sampled_from([1, 2, 4])))
    target = Body(15, draw(s.inches(low=2, high=18)), z=draw(s.inches(high=5, denominator=2)),
                  height=draw(st.sampled_from([1, 2, 4])))
    return field, observer, target


def _with_category(field, category):
    return dataclasses.replace(field, areas=tuple(
        dataclasses.replace(area, features=tuple(dataclasses.replace(f, category=category) for f in area.features))
        for area in field.areas))


@pytest.mark.refs("13.11")
@given(_wall_between())
def test_the_solid_rule_never_helps_sight(case):
    """Making a light wall with a window dense (so Solid) never lets a line of sight through that was blocked."""
    field, observer, target = case
    if battlefield.line_of_sight(_with_category(field, "dense"), observer, target):
        assert battlefield.line_of_sight(_with_category(field, "light"), observer, target)


@pytest.mark.refs("13.08")
@given(sb.battlefields(max_areas=2), sb.bodies(), st.data())
def test_infantry_within_a_terrain_area_has_cover(field, attacker, data):
    """An INFANTRY model within any terrain area meets 13.08's first condition whatever the attacker sees."""
    assume(field.areas)
    area = data.draw(st.sampled_from(field.areas))
    (x0, y0), _, (x1, y1), _ = area.outline
    model = Body((x0 + x1) / 2, (y0 + y1) / 2)
    assert terrain.model_in_cover(*terrain.cover_conditions_on(field, attacker, model, ("INFANTRY",)))


# -- Core abilities over the battlefield and dice (24) ---------------------------------------------------------------


@pytest.mark.refs("24.08")
@given(s.dice_expressions(max_dice=2, max_bonus=3).filter(lambda e: e != "0"), st.integers(1, 3))
def test_deadly_demise_distributions_are_exact(x, units):
    """Deadly Demise: the distributions sum to exactly 1, nothing happens 5 times in 6, and each unit within 6"
    expects X/6 mortal wounds."""
    one = core_abilities.deadly_demise_mortal_wounds(x)
    total = core_abilities.deadly_demise_total(x, units)
    assert dice.is_distribution(one) and dice.is_distribution(total)
    assert dice.expected(one) == dice.expected(dice.distribution(x)) / 6
    assert dice.expected(total) == units * dice.expected(one)
    assert one.get(0, 0) >= Fraction(5, 6)


@pytest.mark.refs("24.02", "24.31")
@given(st.lists(st.lists(st.sampled_from([3, 6, 8, 9, 12]), min_size=1, max_size=3, unique=True), min_size=1,
                max_size=6))
def test_scouts_distance_is_every_models_reach(model_scouts):
    """The unit's Scouts distance is one model's longest and no model's longest is shorter (interpretation
    scouts-slowest-model)."""
    chosen = core_abilities.scouts_distance(model_scouts)
    assert all(chosen <= max(scouts) for scouts in model_scouts)
    assert any(chosen == max(scouts) for scouts in model_scouts)


@pytest.mark.refs("24.09", "24.20", "24.32")
@given(st.lists(sb.bodies(spread=40), min_size=1, max_size=3), st.lists(sb.bodies(spread=40, owner=2), max_size=3))
def test_set_up_abilities_keep_eight_inches(models, enemies):
    """Deep Strike and Infiltrators positions, and scout move ends, are never within 8" horizontally of an enemy."""
    field = battlefield.Battlefield(52, 52, (battlefield.DeploymentZone(1, ((0, 0), (52, 0), (52, 10), (0, 10))),
                                             battlefield.DeploymentZone(2, ((0, 42), (52, 42), (52, 52), (0, 52)))))
    near = any(battlefield.horizontal_distance(m, e) <= 8 for m in models for e in enemies)
    if near:
        assert not core_abilities.deep_strike_set_up_on(field, models, enemies)
        assert not core_abilities.infiltrators_position_on(field, models, 1, enemies)
        assert not core_abilities.scout_move_on(field, models, models, 1, enemies, 6)


# -- Each property fails for a broken rule -------------------------------------------------------------------------------


def _one_sided(a, b):
    """Measures from A's base edge to B's centre: a plausible slip (a radius left out)."""
    fa, fb = battlefield._flat(a), battlefield._flat(b)
    return max(0.0, fa.core.distance(fb.core) - fa.radius)


def _centre_only(model, area):
    """'Within an area' as 'the base centre is inside': a plausible slip."""
    return battlefield.polygon(area.outline).covers(battlefield.Point(float(model.x), float(model.y)))


def _hidden_any_model(battlefield_, model, keywords, shot):
    """Hidden without the INFANTRY/BEASTS/SWARM condition: a plausible slip."""
    dense = any(battlefield.Category.DENSE in terrain.area_categories(a)
                for a in battlefield.areas_containing(battlefield_, model))
    return bool(dense and not shot)


BROKEN = [
    (test_distance_is_symmetric, battlefield, "horizontal_distance", _one_sided),
    (test_within_grows_with_distance, battlefield, "within",
     lambda a, b, inches, vertical=None: abs(battlefield.distance(a, b) - float(inches)) <= 1),
    (test_wholly_within_implies_within, battlefield, "wholly_within", lambda model, shape, inches=0: True),
    (test_a_model_on_an_area_is_within_it, battlefield, "within_area", _centre_only),
    (test_float_geometry_agrees_with_exact_within, battlefield, "horizontal_distance",
     lambda a, b: math.dist((float(a.x), float(a.y)), (float(b.x), float(b.y)))),
    (test_rotating_a_frame_turns_it_in_place, battlefield, "rotate_frame",
     lambda model, degrees: dataclasses.replace(model, outline=tuple(
         (x + 1, y) for x, y in model.outline))),
    (test_objective_marker_range_exact_and_float_agree, battlefield, "within_objective_marker_range",
     lambda model, marker: core_concepts.within(model, Placed(marker.x, marker.y, base_mm=0, z=marker.z), 3, 5)),
    (test_visibility_is_symmetric_without_hidden_models, terrain, "model_hidden_on", _hidden_any_model),
    (test_adding_terrain_never_reveals_a_model, terrain, "model_hidden",
     lambda infantry_beasts_or_swarm, within_area_with_dense_feature, unit_made_ranged_attacks_recently:
     And(infantry_beasts_or_swarm, Not(within_area_with_dense_feature), Not(unit_made_ranged_attacks_recently))),
    (test_fully_visible_models_are_visible, battlefield, "fully_visible_geometry", lambda *args, **kwargs: True),
    (test_hidden_models_unseen_beyond_detection_range, terrain, "hidden_model_visible_to",
     lambda hidden, observer_is_enemy, within_detection_range: Or(Not(hidden), within_detection_range,
                                                                  observer_is_enemy)),
    (test_the_solid_rule_never_helps_sight, terrain, "has_solid_rule",
     lambda category: category == battlefield.Category.LIGHT),
    (test_infantry_within_a_terrain_area_has_cover, terrain, "model_in_cover",
     lambda infantry_beasts_or_swarm, within_terrain_area, not_fully_visible_due_to_terrain:
     And(infantry_beasts_or_swarm, within_terrain_area, not_fully_visible_due_to_terrain)),
    (test_deadly_demise_distributions_are_exact, core_abilities, "deadly_demise_triggers", lambda roll: roll >= 5),
    (test_scouts_distance_is_every_models_reach, core_abilities, "scouts_distance_of",
     lambda has, values: Max(*(Max(*(v if f else 0 for f, v in zip(row, values))) for row in has))),
    (test_set_up_abilities_keep_eight_inches, battlefield, "more_than_horizontally",
     lambda models, others, inches: True),
]


def _without_shrinking(monkeypatch, prop) -> None:
    """Run a property only until it fails, from a fixed seed (so the verdict does not depend on luck), with up to
    MUTANT_EXAMPLES examples: shrinking (and explaining) a mutant's counterexample proves nothing more."""
    generate_only(monkeypatch, prop, derandomize=True, max_examples=MUTANT_EXAMPLES, report_multiple_bugs=False)


@pytest.mark.parametrize("prop,module,attribute,mutant", BROKEN, ids=[b[0].__name__ for b in BROKEN])
def test_property_fails_for_a_broken_rule(monkeypatch, prop, module, attribute, mutant):
    _without_shrinking(monkeypatch, prop)
    monkeypatch.setattr(module, attribute, mutant)
    with pytest.raises((Exception, pytest.fail.Exception)):
        prop()
