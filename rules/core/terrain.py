"""Chapter 13, Terrain: placing terrain, categories, movement through terrain, cover, hidden, obscuring and solid.

The rules are tables and predicates over facts, built with ``rules.logic`` so z3
can reason about them; the facts come from the battlefield geometry in
``rules.battlefield`` (interpretation ``geometry-battlefield-model``), whose
sight lines ask the predicates here whether an area obscures and whether a gap
in a Solid feature lets sight through.
"""

from __future__ import annotations

import enum
from fractions import Fraction
from typing import Any, Iterable, Sequence

from rules import battlefield as geo
from rules.battlefield import Body, Category, TerrainArea, TerrainFeature
from rules.core import flying_and_surging
from rules.core.datasheets import has_keyword
from rules.logic import And, DecisionTable, If, Not, Or, Row, Var
from rules.registry import rule

#: Line of sight cannot cross an enclosed gap in a Solid feature this high or lower (13.11; missions may change it).
SOLID_HEIGHT = 3
#: A hidden model's detection range unless otherwise stated (13.09).
DETECTION_RANGE = 15
#: Other models move horizontally through dense features whose sections are this high or lower (13.06).
LOW_SECTION = 2
#: A model moving vertically stays within this distance horizontally of the feature (13.06).
CLIMB_REACH = Fraction(1, 2)


# 13.01 Placing terrain --------------------------------------------------------------------------------------------


class Placing(enum.IntEnum):
    """The three ways 13.01 gives of placing terrain features, each defining a terrain area."""

    BOUNDARY = 1  # a well-defined boundary (a base or mat) with features wholly within it
    ONE_FEATURE = 2  # one feature directly on the battlefield
    SEVERAL_FEATURES = 3  # two or more features that together define an area (its boundary agreed)


@rule("13.01")
def terrain_area(method: Any, features: Sequence[TerrainFeature], boundary: geo.Outline = (),
                 name: str = "") -> TerrainArea:
    """The terrain area a placement makes: the boundary's outline (features wholly within it), the one feature's
    own footprint, or the boundary the players agreed for two or more features placed together."""
    method = Placing[method.upper().replace(" ", "_")] if isinstance(method, str) else Placing(method)
    features = tuple(features)
    if method == Placing.ONE_FEATURE:
        if len(features) != 1:
            raise ValueError(f"placing one terrain feature directly needs exactly one feature, not {len(features)}")
        return TerrainArea(features[0].outline, features, name)
    if method == Placing.SEVERAL_FEATURES and len(features) < 2:
        raise ValueError("features that together define an area need two or more of them")
    if method == Placing.BOUNDARY and not features:
        raise ValueError("a terrain boundary needs one or more terrain features placed within it")
    if not boundary:
        raise ValueError("this placement needs the boundary of the terrain area (the mat's, or the one agreed)")
    area = TerrainArea(tuple(boundary), features, name)
    for feature in features:
        if not geo.wholly_within(Body(0, 0, 0, outline=feature.outline), area):
            raise ValueError(f"terrain feature {feature.name or feature.outline!r} is not wholly within the boundary "
                             "of its terrain area")
    return area


# 13.02-13.05 Terrain categories -----------------------------------------------------------------------------------

#: The book's examples of each category (13.03-13.05).
CATEGORY_EXAMPLES = {
    Category.EXPOSED: ("craters", "razorwire", "scattered debris"),
    Category.LIGHT: ("barricades", "low walls", "statuary"),
    Category.DENSE: ("buildings", "ruins", "armoured containers", "woods"),
}


def _kind(text: str) -> str:
    words = " ".join(text.lower().split())
    return words[:-1] if words.endswith("s") else words


@rule("13.02", "13.03", "13.04", "13.05")
def terrain_category(kind: str, agreed: Any = None) -> Category:
    """The one category a terrain feature belongs to: the one the mission or players set, else the category
    whose examples name that kind of feature (craters are exposed, barricades light, ruins dense)."""
    if agreed is not None:
        return geo.category_of(agreed)
    for category, examples in CATEGORY_EXAMPLES.items():
        if _kind(kind) in {_kind(e) for e in examples}:
            return category
    raise ValueError(f"{kind!r} is not one of the book's example features; the mission or the players decide "
                     "its terrain category")


@rule("13.05")
def area_categories(area: TerrainArea) -> frozenset[Category]:
    """The categories present within a terrain area: features sharing an area can belong to different ones."""
    return frozenset(feature.category for feature in area.features)


@rule("13.05")
def area_meets_requirement(area: TerrainArea, required: Sequence[Any]) -> bool:
    """Whether a terrain area has every terrain category a mission's deployment map asks for."""
    return {geo.category_of(c) for c in required} <= area_categories(area)


# 13.06 Terrain and movement ----------------------------------------------------------------------------------------


class Passage(enum.IntEnum):
    """How a model may cross a terrain feature: through it, or only by moving vertically to ascend and descend."""

    THROUGH = 1
    CLIMB = 2


_DENSE_OTHERS = "Dense: other models horizontally, provided all sections the base moves through are 2\" or less"
_WALKER = "SUPER-HEAVY WALKER (24.35): horizontally through sections 4\" or less, in a normal, advance or fall-back move"
_OTHERWISE_CLIMB = ("otherwise: move vertically to ascend or descend such sections (not through ceilings and "
                    "floors)")

TERRAIN_MOVEMENT = DecisionTable(
    name="move-through-terrain",
    refs=("13.06", "24.35"),
    inputs=(Var("category", Category.EXPOSED, Category.DENSE), Var("vertical", kind="bool"),
            Var("infantry_beasts_swarm", kind="bool"), Var("mobile", kind="bool"), Var("section_height", 0, 6),
            Var("super_heavy_walker", kind="bool")),
    rows=(
        Row("Exposed/Light: all models, horizontally and vertically",
            lambda category, **_: category != Category.DENSE, Passage.THROUGH),
        Row("Dense: INFANTRY/BEASTS/SWARM/MOBILE models horizontally",
            lambda vertical, infantry_beasts_swarm, mobile, **_: And(Not(vertical), Or(infantry_beasts_swarm, mobile)),
            Passage.THROUGH),
        Row("Dense: INFANTRY/BEASTS/SWARM models vertically",
            lambda vertical, infantry_beasts_swarm, **_: And(vertical, infantry_beasts_swarm), Passage.THROUGH),
        Row(_DENSE_OTHERS,
            lambda vertical, section_height, **_: And(Not(vertical), section_height <= LOW_SECTION), Passage.THROUGH),
        Row(_WALKER,
            lambda vertical, section_height, super_heavy_walker, **_: And(super_heavy_walker, Not(vertical),
                                                                          section_height <= 4),
            Passage.THROUGH),
        Row(_OTHERWISE_CLIMB, lambda **_: True, Passage.CLIMB, otherwise=True),
    ),
)


@rule("13.06")
def move_through_terrain(category: Any, vertical: Any, infantry_beasts_swarm: Any, mobile: Any, section_height: Any,
                         super_heavy_walker: Any = False, taking_to_the_skies: Any = False) -> Any:
    """Whether a model can move through a terrain feature (horizontally or vertically) or must climb it: by the
    feature's category, the model's keywords and the height of the sections its base would move through.

    ``super_heavy_walker``: the unit has that ability and is making a normal, advance or fall-back move (24.35);
    ``taking_to_the_skies``: 21.03 lets a FLYING model through every category.
    """
    ordinary = TERRAIN_MOVEMENT(category=category, vertical=vertical, infantry_beasts_swarm=infantry_beasts_swarm,
                                mobile=mobile, section_height=section_height, super_heavy_walker=super_heavy_walker)
    through = flying_and_surging.may_move_through_terrain(ordinary == Passage.THROUGH, taking_to_the_skies)
    return If(through, Passage.THROUGH, Passage.CLIMB)


@rule("13.06")
def terrain_passage(category: Any, keywords: Sequence[str], vertical: bool, section_height: Any,
                    super_heavy_walker: bool = False, taking_to_the_skies: bool = False) -> Passage:
    """``move_through_terrain`` for a model with these keywords (INFANTRY/BEASTS/SWARM, MOBILE)."""
    return move_through_terrain(geo.category_of(category), vertical, has_keyword(keywords, "INFANTRY/BEASTS/SWARM"),
                                has_keyword(keywords, "MOBILE"), section_height, super_heavy_walker,
                                taking_to_the_skies)


@rule("13.06")
def passages_for_move(battlefield: geo.Battlefield, model: Body, keywords: Sequence[str], x: Any, y: Any,
                      super_heavy_walker: bool = False, taking_to_the_skies: bool = False) -> dict[str, Passage]:
    """For a straight move to (x, y): how the model may cross each terrain feature its base passes over (by
    name). A move through a terrain area that crosses no feature meets no terrain rule at all."""
    out = {}
    for index, feature in enumerate(geo.features_crossed(battlefield, model, x, y)):
        out[feature.name or f"feature {index + 1}"] = terrain_passage(
            feature.category, keywords, False, feature.height, super_heavy_walker, taking_to_the_skies)
    return out


@rule("13.06")
def move_is_unimpeded(passages: Iterable[Any]) -> Any:
    """A move is unimpeded by terrain if the model can move through every feature it crosses (none: unimpeded)."""
    return And(*(p == Passage.THROUGH for p in passages))


@rule("13.06")
def climb_stays_close(horizontal_distance_to_feature: Any) -> Any:
    """While moving vertically a model must remain within 1/2" horizontally of the terrain feature."""
    return 2 * horizontal_distance_to_feature <= 1


@rule("13.06")
def distance_moved_climbing(horizontal: Any, up: Any, down: Any) -> Any:
    """The distance moved vertically up and down is added to the distance moved since the unit began the move."""
    return horizontal + up + down


@rule("13.06")
def upper_surface_keyword_flags(infantry_beasts_swarm: Any, fly: Any, monster: Any) -> Any:
    """Only INFANTRY/BEASTS/SWARM/FLY/MONSTER models may be set up or end a move above ground level."""
    return Or(infantry_beasts_swarm, fly, monster)


@rule("13.06")
def upper_surface_keywords(keywords: Sequence[str]) -> bool:
    """``upper_surface_keyword_flags`` for a model with these keywords."""
    return bool(upper_surface_keyword_flags(has_keyword(keywords, "INFANTRY/BEASTS/SWARM"), has_keyword(keywords, "FLY"),
                                            has_keyword(keywords, "MONSTER")))


@rule("13.06")
def dense_climb_forbids_ending(on_ground_level: Any, climbed_dense_sections: Any) -> Any:
    """The Dense bullet: a model that had to ascend or descend a dense feature's sections (more than 2" high, no
    keyword letting it through) cannot end that move on a surface of that feature above ground level."""
    return And(Not(on_ground_level), climbed_dense_sections)


@rule("13.06")
def upper_surface_allowed(keyword_allowed: Any, stable_without_overhang: Any) -> Any:
    """SETTING UP OR ENDING A MOVE: above ground level, only with a listed keyword, stable and with no part of
    the base overhanging the surface's outer edge."""
    return And(keyword_allowed, stable_without_overhang)


_BAN = ("Dense: a model that had to ascend or descend the feature's sections cannot end that move on a surface of "
        "it above ground level")
_GROUND = "the ground level of a terrain feature: any model"
_LISTED = "above ground level: INFANTRY/BEASTS/SWARM/FLY/MONSTER, stable, no part of the base overhanging"

END_OF_MOVE_SURFACE = DecisionTable(
    name="end-move-on-terrain-surface",
    refs=("13.06",),
    inputs=(Var("on_ground_level", kind="bool"), Var("keyword_allowed", kind="bool"),
            Var("stable_without_overhang", kind="bool"), Var("climbed_dense_sections", kind="bool")),
    rows=(
        Row(_BAN, lambda on_ground_level, climbed_dense_sections, **_:
            dense_climb_forbids_ending(on_ground_level, climbed_dense_sections), False,
            # Interpretation dense-climb-ban-wins: the specific ban beats the general permission (a finding).
            overrides=(_LISTED,)),
        Row(_GROUND, lambda on_ground_level, **_: on_ground_level, True),
        Row(_LISTED, lambda keyword_allowed, stable_without_overhang, **_:
            upper_surface_allowed(keyword_allowed, stable_without_overhang), True),
        Row("otherwise: not above ground level", lambda **_: True, False, otherwise=True),
    ),
    gap=False,
)


@rule("13.06")
def may_end_move_on_surface(on_ground_level: Any, keyword_allowed: Any, stable_without_overhang: Any,
                            climbed_dense_sections: Any = False) -> Any:
    """Whether a model may be set up or end a move on a surface of a terrain feature.

    Interpretation: dense-climb-ban-wins (a MONSTER or FLY model that had to climb a dense feature cannot end its
    move on top of it, although the keyword list alone would allow it).
    """
    return END_OF_MOVE_SURFACE(on_ground_level=on_ground_level, keyword_allowed=keyword_allowed,
                               stable_without_overhang=stable_without_overhang,
                               climbed_dense_sections=climbed_dense_sections)


@rule("13.06", "13.11")
def may_end_move_through_enclosed_part(solid: Any, height_above_ground: Any, solid_height: Any = SOLID_HEIGHT) -> Any:
    """With the Solid rule, a model cannot end a move with any part of it through an enclosed part of the feature
    3" or less from ground level (a door or window), so protruding parts cannot see past the rule."""
    return Not(gap_blocks_sight(solid, height_above_ground, solid_height))


# 13.07 Terrain and visibility ----------------------------------------------------------------------------------------

VISIBILITY = DecisionTable(
    name="visible",
    refs=("06.01", "13.07", "13.09", "13.10", "24.24"),
    inputs=(Var("line_of_sight", kind="bool"), Var("unobscured_line", kind="bool"), Var("target_hidden", kind="bool"),
            Var("observer_is_enemy", kind="bool"), Var("within_detection_range", kind="bool"),
            Var("lone_operative", kind="bool"), Var("within_lone_operative_range", kind="bool")),
    # An unobscured sight line is a sight line.
    assume=lambda line_of_sight, unobscured_line, **_: Or(Not(unobscured_line), line_of_sight),
    rows=(
        Row("no line of sight can be drawn (06.01, with the Solid rule, 13.11)",
            lambda line_of_sight, **_: Not(line_of_sight), False),
        Row("Obscuring: every line of sight crosses an obscuring terrain area neither model is within (13.10)",
            lambda unobscured_line, **_: Not(unobscured_line), False),
        Row("Hidden: an enemy model outside the hidden model's detection range (13.09)",
            lambda target_hidden, observer_is_enemy, within_detection_range, **_:
            Not(hidden_model_visible_to(target_hidden, observer_is_enemy, within_detection_range)), False),
        Row("Lone Operative, not attached: an enemy model not within X\" of the unit (24.24)",
            lambda lone_operative, observer_is_enemy, within_lone_operative_range, **_:
            And(lone_operative, observer_is_enemy, Not(within_lone_operative_range)), False),
        Row("otherwise: visible", lambda **_: True, True, otherwise=True),
    ),
    gap=False,
)


@rule("13.07")
def visible(line_of_sight: Any, unobscured_line: Any, target_hidden: Any = False, observer_is_enemy: Any = True,
            within_detection_range: Any = True, lone_operative: Any = False,
            within_lone_operative_range: Any = True) -> Any:
    """Whether a model is visible to another, once terrain (Solid, Obscuring, Hidden) and Lone Operative have
    had their say."""
    return VISIBILITY(line_of_sight=line_of_sight, unobscured_line=unobscured_line, target_hidden=target_hidden,
                      observer_is_enemy=observer_is_enemy, within_detection_range=within_detection_range,
                      lone_operative=lone_operative, within_lone_operative_range=within_lone_operative_range)


@rule("13.07")
def model_visible_on(battlefield: geo.Battlefield, observer: Body, target: Body, *, target_keywords: Sequence[str] = (),
                     target_unit_shot: bool = False, observer_is_enemy: bool = True, others: Sequence[Body] = (),
                     detection_range: Any = DETECTION_RANGE, lone_operative_range: Any = None,
                     target_attached: bool = False, target_unit: Sequence[Body] = ()) -> bool:
    """Whether ``target`` is visible to ``observer`` on this battlefield: a sight line past terrain features and
    other units' models (06.01, 13.11), not every one crossing an obscuring area (13.10), and, if the target is
    hidden (13.09) or a Lone Operative (24.24), an enemy observer close enough.

    Interpretation: geometry-battlefield-model, plain-within-straight-line.
    """
    line = geo.line_of_sight(battlefield, observer, target, others)
    unobscured = line and geo.unobscured_line_of_sight(battlefield, observer, target, others)
    hidden = model_hidden_on(battlefield, target, target_keywords, target_unit_shot)
    lone = lone_operative_range is not None and not target_attached
    unit = tuple(target_unit) or (target,)
    return bool(visible(line, unobscured, hidden, observer_is_enemy,
                        geo.within(observer, target, detection_range),
                        lone, lone and geo.unit_within(unit, observer, lone_operative_range)))


# 13.08 Benefit of cover (feeds the attack sequence) -------------------------------------------------------------------


@rule("13.08")
def model_in_cover(infantry_beasts_or_swarm: Any, within_terrain_area: Any,
                   not_fully_visible_due_to_terrain: Any) -> Any:
    """One model's claim to cover: INFANTRY/BEASTS/SWARM within a terrain area, or hidden in part by terrain."""
    return Or(And(infantry_beasts_or_swarm, within_terrain_area), not_fully_visible_due_to_terrain)


@rule("13.08")
def unit_has_benefit_of_cover(models_in_cover: Sequence[Any]) -> Any:
    """A unit has the benefit of cover against a ranged attack only if every one of its models is in cover."""
    return And(*models_in_cover)


@rule("13.08")
def cover_skill_penalty(has_benefit_of_cover: Any) -> Any:
    """Against a unit with the benefit of cover, the attack's BS is worsened by 1."""
    return If(has_benefit_of_cover, 1, 0)


@rule("13.08")
def cover_conditions_on(battlefield: geo.Battlefield, attacker: Body, model: Body,
                        keywords: Sequence[str]) -> tuple[bool, bool, bool]:
    """The facts 13.08 asks of one target model on this battlefield: INFANTRY/BEASTS/SWARM, within a terrain area,
    and not fully visible to the attacking model because of terrain features or obscuring areas (only terrain
    counts, so other models are left out)."""
    return (bool(has_keyword(keywords, "INFANTRY/BEASTS/SWARM")), bool(geo.areas_containing(battlefield, model)),
            not geo.fully_visible_geometry(battlefield, attacker, model, terrain_only=True))


@rule("13.08")
def unit_has_cover_on(battlefield: geo.Battlefield, attacker: Body, target: Sequence[Body],
                      target_keywords: Sequence[str]) -> bool:
    """Whether a target unit has the benefit of cover against a ranged attack by ``attacker``: every model meets
    one of the two conditions."""
    return bool(unit_has_benefit_of_cover([model_in_cover(*cover_conditions_on(battlefield, attacker, m, target_keywords))
                                           for m in target]))


# 13.09 Hidden ----------------------------------------------------------------------------------------------------------


@rule("13.09")
def model_hidden(infantry_beasts_or_swarm: Any, within_area_with_dense_feature: Any,
                 unit_made_ranged_attacks_recently: Any) -> Any:
    """A model is hidden while it is INFANTRY/BEASTS/SWARM within a terrain area holding a dense feature and its
    unit made no ranged attacks this turn or the previous turn."""
    return And(infantry_beasts_or_swarm, within_area_with_dense_feature, Not(unit_made_ranged_attacks_recently))


@rule("13.09")
def hidden_model_visible_to(hidden: Any, observer_is_enemy: Any, within_detection_range: Any) -> Any:
    """A hidden model can only be visible to enemy models within its detection range (others see it as usual)."""
    return Or(Not(hidden), Not(observer_is_enemy), within_detection_range)


@rule("13.09")
def detection_range(stated: Any = None) -> Any:
    """A model's detection range: 15" unless a rule states another."""
    return DETECTION_RANGE if stated is None else stated


@rule("13.09")
def model_hidden_on(battlefield: geo.Battlefield, model: Body, keywords: Sequence[str],
                    unit_made_ranged_attacks_recently: bool) -> bool:
    """``model_hidden`` for a model on this battlefield (within a terrain area holding a dense feature)."""
    dense_area = any(Category.DENSE in area_categories(area) for area in geo.areas_containing(battlefield, model))
    return bool(model_hidden(has_keyword(keywords, "INFANTRY/BEASTS/SWARM"), dense_area,
                             unit_made_ranged_attacks_recently))


# 13.10 Obscuring -------------------------------------------------------------------------------------------------------


@rule("13.10")
def is_obscuring_area(feature_categories: Sequence[Any]) -> Any:
    """A terrain area is obscuring if it contains one or more light or dense terrain features."""
    return Or(*(c != Category.EXPOSED for c in feature_categories))


# 13.11 Solid -----------------------------------------------------------------------------------------------------------


@rule("13.11")
def has_solid_rule(category: Any) -> Any:
    """Dense terrain features have the Solid rule."""
    return category == Category.DENSE


@rule("13.11")
def gap_blocks_sight(solid: Any, height_above_ground: Any, solid_height: Any = SOLID_HEIGHT) -> Any:
    """A sight line cannot cross an enclosed gap in a Solid feature's surface at 3" or less from ground level
    (some missions change the height).

    Interpretation: solid-gap-pointwise (what counts is the height at which the line crosses the gap).
    """
    return And(solid, height_above_ground <= solid_height)
