"""Tactical Terrain: controlling terrain features, datasheets, the four terrain categories, the twelve terrain
traits and the nine common terrain features of the mission pack.

Categories, traits and features are data (enums and frozen dataclasses, in the book's order and wording); each
category's and trait's rules are dual-mode functions over the facts they read (heights in inches, keywords,
whether a model is within a feature, whether straight lines can be drawn), so z3 proves facts about the very
functions the examples call (properties/proofs_missionpack_terrain.py). The geometry itself (can a 1mm line be
drawn, is a model wholly within a footprint) is a fact the caller states, as the text leaves it to the players.

Control results follow the reprinted basic rules' objective markers (``rules.ninth.objective_markers.control``):
1 for the player, -1 for their opponent, 0 for neither.
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass
from typing import Any, Iterable, Sequence

from rules.logic import And, DecisionTable, If, Max, Min, Not, Or, Row, Var, is_symbolic
from rules.ninth import overwatch
from rules.registry import ruleset_rule

rule = ruleset_rule("missionpack")

NEITHER = 0  # control results: 1 the player, -1 the opponent, 0 neither (as rules.ninth.objective_markers)

#: Difficult Ground subtracts this from the maximum distance a unit's models can move (inches).
DIFFICULT_GROUND_PENALTY = 2
#: Dense Cover and Obscuring act only from these heights (inches, measured from the feature's highest point).
DENSE_COVER_HEIGHT = 3
OBSCURING_HEIGHT = 5
#: Models with a Wounds characteristic of at least this are never hidden by Dense Cover or Obscuring.
LARGE_MODEL_WOUNDS = 18
#: A Defence Line charge or fight reaches a target this far away (inches).
DEFENCE_LINE_REACH = 2
#: Overwatch by a unit that Holds Steady hits on this roll (instead of ninth:overwatch's unmodified 6).
HOLD_STEADY_HIT = 5


# Terrain categories ------------------------------------------------------------------------------------------------


class Category(enum.IntEnum):
    """The four terrain categories, in the book's order."""

    HILLS = 1
    OBSTACLES = 2
    AREA_TERRAIN = 3
    BUILDINGS = 4


CATEGORY_NAMES = {Category.HILLS: "Hills", Category.OBSTACLES: "Obstacles", Category.AREA_TERRAIN: "Area Terrain",
                  Category.BUILDINGS: "Buildings"}
CATEGORY_REFS = {Category.HILLS: "terrain/category/hills", Category.OBSTACLES: "terrain/category/obstacles",
                 Category.AREA_TERRAIN: "terrain/category/area-terrain",
                 Category.BUILDINGS: "terrain/category/buildings"}


def _words(text: str) -> str:
    return " ".join(text.lower().replace("-", " ").split())


_CATEGORY_FORMS = {
    "hills": Category.HILLS, "hill": Category.HILLS,
    "obstacles": Category.OBSTACLES, "obstacle": Category.OBSTACLES, "obstacle terrain": Category.OBSTACLES,
    "obstacles terrain": Category.OBSTACLES,
    "area terrain": Category.AREA_TERRAIN, "area": Category.AREA_TERRAIN,
    "buildings": Category.BUILDINGS, "building": Category.BUILDINGS,
}


@rule("terrain/categories")
def category_named(name: str) -> Category:
    """The one category a printed name stands for ("Obstacles", "an Obstacle terrain feature", "Area Terrain");
    every terrain feature belongs to exactly one of the four."""
    words = re.sub(r"^(an?|the) ", "", _words(name))
    words = re.sub(r"( terrain)? features?$", "", words)
    if words not in _CATEGORY_FORMS:
        raise ValueError(f"{name!r} is not a terrain category; the four are " + ", ".join(CATEGORY_NAMES.values()))
    return _CATEGORY_FORMS[words]


@rule("terrain/category/hills", "terrain/category/buildings")
def is_terrain_feature(category: Any) -> Any:
    """Whether something of this category counts as a terrain feature: Hills are part of the battlefield itself and
    Buildings are units; Obstacles and Area Terrain are terrain features."""
    return And(category != Category.HILLS, category != Category.BUILDINGS)


@rule("terrain/category/hills", "terrain/category/obstacles", "terrain/category/area-terrain",
      "terrain/category/buildings")
def moved_over_with_normal_rules(category: Any) -> Any:
    """Whether models can move over (up, over and down) something of this category following the normal rules for
    movement: Hills, Obstacles and Area Terrain yes; models cannot be moved across Buildings."""
    return category != Category.BUILDINGS


@rule("terrain/category/hills", "terrain/category/obstacles", "terrain/category/area-terrain",
      "terrain/category/buildings")
def uses_normal_visibility(category: Any) -> Any:
    """Whether a model on or behind something of this category uses the normal rules for visibility (every
    category does; only traits such as Obscuring change it)."""
    return Or(category == Category.HILLS, category == Category.OBSTACLES, category == Category.AREA_TERRAIN,
              category == Category.BUILDINGS)


TARGETING = DecisionTable(
    name="terrain-targeting",
    refs=("terrain/category/hills", "terrain/category/obstacles", "terrain/category/area-terrain",
          "terrain/category/buildings"),
    inputs=(Var("category", int(Category.HILLS), int(Category.BUILDINGS)), Var("enemy", kind="bool")),
    rows=(
        Row("Hills cannot be chosen as the target of an attack", lambda category, **_: category == Category.HILLS,
            False),
        Row("Obstacles cannot be chosen as the target of an attack",
            lambda category, **_: category == Category.OBSTACLES, False),
        Row("Area Terrain cannot be chosen as the target of an attack (units within it can)",
            lambda category, **_: category == Category.AREA_TERRAIN, False),
        Row("Buildings are friendly or enemy units: enemy Buildings can be attacked",
            lambda category, **_: category == Category.BUILDINGS, lambda enemy, **_: enemy),
    ),
    gap=False,
)


@rule("terrain/category/hills", "terrain/category/obstacles", "terrain/category/area-terrain",
      "terrain/category/buildings")
def can_be_chosen_as_target(category: Any, enemy: Any = True) -> Any:
    """Whether a Hill, Obstacle, Area Terrain feature or Building can itself be chosen as the target of an attack
    (``enemy``: it belongs to the attacker's opponent; only Buildings are units with an owner)."""
    return TARGETING(category=category, enemy=enemy)


@rule("terrain/category/obstacles")
def receives_cover_from_obstacle(infantry_beast_swarm: Any, within_3: Any, clear_lines_to_whole_base: Any) -> Any:
    """Whether a model receives the benefits of cover from an Obstacle: an INFANTRY, BEAST or SWARM model within 3"
    of it, unless straight lines from one point of the attacker reach every part of its base without crossing it."""
    return And(infantry_beast_swarm, within_3, Not(clear_lines_to_whole_base))


@rule("terrain/category/area-terrain")
def receives_cover_from_area_terrain(infantry_beast_swarm: Any, within_feature: Any) -> Any:
    """Whether a model receives the benefits of cover from an Area Terrain feature: an INFANTRY, BEAST or SWARM
    model within it."""
    return And(infantry_beast_swarm, within_feature)


COVER = DecisionTable(
    name="terrain-cover",
    refs=("terrain/categories", "terrain/category/hills", "terrain/category/obstacles",
          "terrain/category/area-terrain", "terrain/category/buildings", "terrain/trait/exposed-position"),
    inputs=(Var("category", int(Category.HILLS), int(Category.BUILDINGS)),
            Var("infantry_beast_swarm", kind="bool"), Var("within_3", kind="bool"),
            Var("clear_lines_to_whole_base", kind="bool"), Var("within_feature", kind="bool"),
            Var("on_top_of_exposed_position", kind="bool")),
    rows=(
        Row("Exposed Position: never while on top of the feature",
            lambda on_top_of_exposed_position, **_: on_top_of_exposed_position, False,
            overrides=("Obstacles: INFANTRY, BEAST or SWARM within 3\" unless clear lines reach its whole base",
                       "Area Terrain: INFANTRY, BEAST or SWARM within it")),
        Row("Hills: part of the battlefield, no additional benefits", lambda category, **_: category == Category.HILLS,
            False),
        Row("Obstacles: INFANTRY, BEAST or SWARM within 3\" unless clear lines reach its whole base",
            lambda category, **_: category == Category.OBSTACLES,
            lambda infantry_beast_swarm, within_3, clear_lines_to_whole_base, **_:
                receives_cover_from_obstacle(infantry_beast_swarm, within_3, clear_lines_to_whole_base)),
        Row("Area Terrain: INFANTRY, BEAST or SWARM within it",
            lambda category, **_: category == Category.AREA_TERRAIN,
            lambda infantry_beast_swarm, within_feature, **_:
                receives_cover_from_area_terrain(infantry_beast_swarm, within_feature)),
        Row("Buildings: units, not terrain features; the pack gives no cover from them",
            lambda category, **_: category == Category.BUILDINGS, False),
    ),
    gap=False,
)


@rule("terrain/categories", "terrain/category/hills", "terrain/category/obstacles", "terrain/category/area-terrain",
      "terrain/category/buildings", "terrain/trait/exposed-position")
def receives_cover(category: Any, infantry_beast_swarm: Any, within_3: Any = False,
                   clear_lines_to_whole_base: Any = False, within_feature: Any = False,
                   on_top_of_exposed_position: Any = False) -> Any:
    """Whether a model is receiving the benefits of cover from a terrain feature of this category (Exposed Position:
    never while on top of it; behind it the category's rule applies)."""
    return COVER(category=category, infantry_beast_swarm=infantry_beast_swarm, within_3=within_3,
                 clear_lines_to_whole_base=clear_lines_to_whole_base, within_feature=within_feature,
                 on_top_of_exposed_position=on_top_of_exposed_position)


# Terrain traits ----------------------------------------------------------------------------------------------------


class Trait(enum.IntEnum):
    """The twelve terrain traits, in the book's order."""

    DEFENSIBLE = 1
    DEFENCE_LINE = 2
    BREACHABLE = 3
    DIFFICULT_GROUND = 4
    DENSE_COVER = 5
    UNSTABLE_POSITION = 6
    EXPOSED_POSITION = 7
    OBSCURING = 8
    LIGHT_COVER = 9
    HEAVY_COVER = 10
    SCALABLE = 11
    INSPIRING = 12

    @property
    def printed(self) -> str:
        return self.name.replace("_", " ").title()

    @property
    def ref(self) -> str:
        return "terrain/trait/" + self.name.lower().replace("_", "-")


@dataclass(frozen=True)
class FeatureTrait:
    """One trait as a feature lists it, with any keywords in brackets ("Inspiring (IMPERIUM)")."""

    trait: Trait
    keywords: tuple[str, ...] = ()

    @property
    def printed(self) -> str:
        return self.trait.printed + (f" ({', '.join(self.keywords)})" if self.keywords else "")


_BRACKETS = re.compile(r"^\s*(?P<name>[^()]+?)\s*(?:\((?P<keywords>[^()]*)\))?\s*$")


@rule("terrain/traits")
def trait_named(printed: str) -> FeatureTrait:
    """The terrain trait a printed entry names, with its bracketed keywords; an unknown name is an error."""
    match = _BRACKETS.match(printed)
    if match is None:
        raise ValueError(f"{printed!r} is not a terrain trait entry")
    words = _words(match["name"])
    for trait in Trait:
        if _words(trait.printed) == words:
            keywords = tuple(k.strip().upper() for k in (match["keywords"] or "").split(",") if k.strip())
            return FeatureTrait(trait, keywords)
    raise ValueError(f"{match['name']!r} is not a terrain trait; the traits are "
                     + ", ".join(t.printed for t in Trait))


@rule("terrain/traits")
def feature_traits(printed: Iterable[str]) -> tuple[FeatureTrait, ...]:
    """The traits a terrain feature has, from the names the players agreed on: each must exist, none twice."""
    traits = tuple(trait_named(name) for name in printed)
    seen = [t.trait for t in traits]
    repeated = sorted({t.printed for t in seen if seen.count(t) > 1})
    if repeated:
        raise ValueError(f"terrain trait listed twice: {', '.join(repeated)}")
    return traits


# Defensible ------------------------------------------------------------------------------------------------------


class Reaction(enum.IntEnum):
    """What a unit does through Defensible when an enemy unit declares a charge against it."""

    NONE = 0
    HOLD_STEADY = 1
    SET_TO_DEFEND = 2


@rule("terrain/trait/defensible")
def defensible_reaction_allowed(category: Any, infantry_unit: Any, every_model_on_or_in: Any,
                                every_model_within_3: Any, closest_line_crosses_feature: Any,
                                within_engagement_range: Any) -> Any:
    """Whether a unit charged by an enemy unit may Hold Steady or Set to Defend through a Defensible feature: an
    INFANTRY unit every model of which is on or in Area Terrain, or within 3" of an Obstacle that the line between
    the two units' closest models crosses; never while within Engagement Range of an enemy unit."""
    area = And(category == Category.AREA_TERRAIN, every_model_on_or_in)
    obstacle = And(category == Category.OBSTACLES, every_model_within_3, closest_line_crosses_feature)
    return And(infantry_unit, Or(area, obstacle), Not(within_engagement_range))


@rule("terrain/trait/defensible")
def overwatch_hit_roll_needed(reaction: Any) -> Any:
    """The roll an Overwatch attack needs to hit this phase: 5+ for a unit that Holds Steady, else the usual 6."""
    return If(reaction == Reaction.HOLD_STEADY, HOLD_STEADY_HIT, overwatch.OVERWATCH_HIT)


@rule("terrain/trait/defensible")
def may_fire_overwatch(reaction: Any, otherwise_may: Any) -> Any:
    """Whether a unit can fire Overwatch this phase: a unit that Sets to Defend cannot."""
    return And(otherwise_may, reaction != Reaction.SET_TO_DEFEND)


@rule("terrain/trait/defensible")
def set_to_defend_hit_modifier(reaction: Any, melee: Any, next_fight_phase_ended: Any) -> Any:
    """What Set to Defend adds to a hit roll of a model in the unit: +1 for melee weapons until the end of the next
    Fight phase, else nothing.

    Reads the fragment printed after the summary box as the end of the Set to Defend sentence (restoration
    defensible-displaced-fragment).
    """
    return If(And(reaction == Reaction.SET_TO_DEFEND, melee, Not(next_fight_phase_ended)), 1, 0)


# Defence Line ----------------------------------------------------------------------------------------------------


@rule("terrain/trait/defence-line")
def defence_line_charge_ends_validly(within_engagement_range: Any, target_within_1_of_feature: Any,
                                     ends_touching_feature: Any, distance_to_target: Any) -> Any:
    """Whether a charge move may end where it does: within Engagement Range of its target as usual, or, against a
    target within 1" of a Defence Line, touching that feature and within 2" of the target."""
    across = And(target_within_1_of_feature, ends_touching_feature, distance_to_target <= DEFENCE_LINE_REACH)
    return Or(within_engagement_range, across)


@rule("terrain/trait/defence-line")
def defence_line_may_fight(within_engagement_range: Any, target_on_opposite_side: Any,
                           distance_to_target: Any) -> Any:
    """Whether a unit is eligible to fight (and its models may make melee attacks) against a target: within
    Engagement Range as usual, or on the opposite side of a Defence Line and within 2".

    Reads the fragment printed after the summary box as the end of the eligibility sentence (restoration
    defence-line-displaced-fragment).
    """
    return Or(within_engagement_range, And(target_on_opposite_side, distance_to_target <= DEFENCE_LINE_REACH))


# Breachable, Scalable, Unstable Position ----------------------------------------------------------------------------


@rule("terrain/trait/breachable")
def moves_through_without_impediment(infantry_beast_swarm: Any, breachable: Any, scalable: Any = False,
                                     through_floors: Any = False) -> Any:
    """Whether a model moves through a feature's walls, girders, chains and foliage (Breachable), or its floors,
    ceilings and gantries (Scalable), without impediment: INFANTRY, BEAST and SWARM models only."""
    return And(infantry_beast_swarm, If(through_floors, scalable, breachable))


@rule("terrain/trait/scalable")
def scalable_allows_position(on_top_or_upper_floor: Any, infantry_beast_swarm: Any, can_fly: Any) -> Any:
    """Whether a model may be set up or end a move there on a Scalable feature: on top of an Obstacle or on an
    upper floor of Area Terrain only INFANTRY, BEAST, SWARM and FLY models; the ground floor any model."""
    return Or(Not(on_top_or_upper_floor), infantry_beast_swarm, can_fly)


@rule("terrain/trait/unstable-position")
def unstable_position_allows_position(on_top: Any, ends_move_or_set_up: Any = True) -> Any:
    """Whether a model may be there on an Unstable Position feature: it can move up, over and down it but can
    neither be set up nor end a move on top of it."""
    return Not(And(on_top, ends_move_or_set_up))


# Difficult Ground --------------------------------------------------------------------------------------------------


class Move(enum.IntEnum):
    """The kinds of move Difficult Ground slows (and the others, which it does not)."""

    NORMAL = 1
    ADVANCE = 2
    FALL_BACK = 3
    CHARGE = 4
    OTHER = 5  # pile in, consolidate, Heroic Intervention and any other move


@rule("terrain/trait/difficult-ground")
def difficult_ground_max_move(max_move: Any, moves_over_feature: Any, every_model_can_fly: Any,
                              move: Any = Move.NORMAL) -> Any:
    """The maximum distance every model of a unit can move: 2" less (to a minimum of 0) when it makes a Normal
    Move, Advance, Fall Back or charge move over a Difficult Ground feature, however low; unchanged if every model
    can FLY."""
    slowed = And(moves_over_feature, Not(every_model_can_fly), move >= Move.NORMAL, move <= Move.CHARGE)
    return If(slowed, Max(max_move - DIFFICULT_GROUND_PENALTY, 0), max_move)


# Dense Cover and Obscuring -------------------------------------------------------------------------------------------


@rule("terrain/trait/dense-cover")
def dense_cover_hit_modifier(height_inches: Any, ranged: Any, clear_lines: Any, only_own_feature_between: Any,
                             target_aircraft: Any, target_highest_wounds: Any) -> Any:
    """What Dense Cover adds to the hit roll of an attack: -1 for a ranged attack whose lines to the target cross a
    Dense Cover feature at least 3" tall (``clear_lines``: lines reach every part of one target model's base
    without crossing any); nothing if the only such feature crossed is the one the attacker is on, within, or
    within 3" of (an Obstacle), or if the target is AIRCRAFT or has a model with a Wounds characteristic of 18+."""
    penalised = And(height_inches >= DENSE_COVER_HEIGHT, ranged, Not(clear_lines), Not(only_own_feature_between),
                    Not(target_aircraft), target_highest_wounds < LARGE_MODEL_WOUNDS)
    return If(penalised, -1, 0)


@rule("terrain/trait/dense-cover")
def only_own_dense_feature_between(category: Any, attacker_on_or_within: Any, attacker_within_3: Any,
                                   lines_cross_only_that_feature: Any) -> Any:
    """Whether the attacker shoots only through its own Dense Cover feature: the only feature with the trait its
    lines cross is the Area Terrain it is on or within, or the Obstacle it is within 3" of."""
    own = Or(And(category == Category.AREA_TERRAIN, attacker_on_or_within),
             And(category == Category.OBSTACLES, attacker_within_3))
    return And(own, lines_cross_only_that_feature)


@rule("terrain/trait/obscuring")
def obscuring_blocks_visibility(height_inches: Any, clear_line: Any, observer_on_or_within: Any,
                                target_on_or_within: Any, target_aircraft: Any, target_wounds: Any) -> Any:
    """Whether an Obscuring feature hides a target model from an observer: it is at least 5" tall and no straight
    line between them avoids it, unless either model is on or within it, or the target is AIRCRAFT or has a Wounds
    characteristic of 18+ (the reverse does not hold: an AIRCRAFT observer is hidden from like any other).

    Interpretation: obscuring-models-within-see-out.
    """
    return And(height_inches >= OBSCURING_HEIGHT, Not(clear_line), Not(observer_on_or_within),
               Not(target_on_or_within), Not(target_aircraft), target_wounds < LARGE_MODEL_WOUNDS)


# Light Cover, Heavy Cover ------------------------------------------------------------------------------------------


@rule("terrain/trait/light-cover")
def light_cover_save_bonus(ranged: Any, receiving_cover: Any, invulnerable: Any) -> Any:
    """What Light Cover adds to the saving throw against an attack that wounds: +1 against a ranged attack for a
    model receiving the benefits of cover from the feature; invulnerable saving throws are not affected."""
    return If(And(ranged, receiving_cover, Not(invulnerable)), 1, 0)


@rule("terrain/trait/heavy-cover")
def heavy_cover_save_bonus(melee: Any, receiving_cover: Any, attacker_charged_this_turn: Any,
                           invulnerable: Any) -> Any:
    """What Heavy Cover adds to the saving throw against an attack that wounds: +1 against a melee attack for a model
    receiving the benefits of cover, unless the attacking model made a charge move this turn; invulnerable saving
    throws are not affected."""
    return If(And(melee, receiving_cover, Not(attacker_charged_this_turn), Not(invulnerable)), 1, 0)


@rule("terrain/categories")
def cover_save_bonus(light_cover: Any, heavy_cover: Any, ranged: Any, receiving_cover: Any,
                     attacker_charged_this_turn: Any, invulnerable: Any) -> Any:
    """What receiving the benefits of cover from a feature adds to a saving throw: whatever its Light Cover and
    Heavy Cover traits give (a feature with neither gives nothing)."""
    light = If(light_cover, light_cover_save_bonus(ranged, receiving_cover, invulnerable), 0)
    heavy = If(heavy_cover, heavy_cover_save_bonus(Not(ranged), receiving_cover, attacker_charged_this_turn,
                                                   invulnerable), 0)
    return light + heavy


# Inspiring -------------------------------------------------------------------------------------------------------


@rule("terrain/trait/inspiring")
def inspiring_leadership_bonus(wholly_within_6: Any, keywords_in_brackets: Any, unit_has_keyword: Any) -> Any:
    """What Inspiring adds to a unit's Leadership: +1 while it is wholly within 6" of the feature, and only for
    units with the bracketed keyword if the feature lists one."""
    return If(And(wholly_within_6, Or(Not(keywords_in_brackets), unit_has_keyword)), 1, 0)


@rule("terrain/trait/inspiring")
def inspiring_bonus_for(printed: str, unit_keywords: Iterable[str], wholly_within_6: bool) -> int:
    """The Leadership bonus a listed trait ("Inspiring (IMPERIUM)") gives a unit with these keywords (a unit needs
    every bracketed keyword; the pack only ever lists one); any other trait gives none."""
    listed = trait_named(printed)
    if listed.trait != Trait.INSPIRING:
        return 0
    have = {k.upper() for k in unit_keywords}
    return inspiring_leadership_bonus(wholly_within_6, bool(listed.keywords), all(k in have for k in listed.keywords))


# Controlling terrain features ----------------------------------------------------------------------------------------


def objective_marker_control() -> Any:
    """The reprinted basic rules' objective marker control (``rules.ninth.objective_markers.control``), imported
    when first needed so neither ruleset's package depends on the other's import order."""
    from rules.ninth import objective_markers

    return objective_markers.control


@rule("controlling-terrain-features")
def obstacle_controller(models_in_range: Any, opponent_models_in_range: Any, objective_secured_in_range: Any,
                        opponent_objective_secured_in_range: Any) -> Any:
    """Who controls an Obstacle for a mission objective: as if it were an objective marker (the same counts of models
    in range and of Objective Secured models in range)."""
    return objective_marker_control()(models_in_range, opponent_models_in_range, objective_secured_in_range,
                                      opponent_objective_secured_in_range)


AREA_TERRAIN_CONTROL = DecisionTable(
    name="terrain-area-control",
    refs=("controlling-terrain-features",),
    inputs=(Var("models", 0, 4), Var("opponent_models", 0, 4), Var("objective_secured", 0, 4),
            Var("opponent_objective_secured", 0, 4)),
    assume=lambda models, opponent_models, objective_secured, opponent_objective_secured:
        And(objective_secured <= models, opponent_objective_secured <= opponent_models),
    rows=(
        Row("the player has more Objective Secured models wholly on or within it",
            lambda objective_secured, opponent_objective_secured, **_:
                objective_secured > opponent_objective_secured, 1),
        Row("the opponent has more Objective Secured models wholly on or within it",
            lambda objective_secured, opponent_objective_secured, **_:
                opponent_objective_secured > objective_secured, -1),
        Row("no Objective Secured models there: the player has more models wholly on or within it",
            lambda models, opponent_models, objective_secured, opponent_objective_secured:
                And(objective_secured == 0, opponent_objective_secured == 0, models > opponent_models), 1),
        Row("no Objective Secured models there: the opponent has more models wholly on or within it",
            lambda models, opponent_models, objective_secured, opponent_objective_secured:
                And(objective_secured == 0, opponent_objective_secured == 0, opponent_models > models), -1),
        Row("otherwise neither player controls it", lambda **_: True, NEITHER, otherwise=True),
    ),
    gap=9,
    notes={"equal-objective-secured": "With the same number (more than 0) of Objective Secured models on each side "
                                      "neither row about them applies and the fallback to models applies only if "
                                      "there are none: neither player controls it (finding "
                                      "area-terrain-equal-objective-secured)."},
)


@rule("controlling-terrain-features")
def area_terrain_controller(models: Any, opponent_models: Any, objective_secured: Any,
                            opponent_objective_secured: Any) -> Any:
    """Who controls an Area Terrain feature for a mission objective: the player with more Objective Secured models
    wholly on or within it; if there are none there, the player with more models wholly on or within it.

    Interpretation: area-terrain-equal-objective-secured (equal numbers of them: neither player).
    """
    return AREA_TERRAIN_CONTROL(models=models, opponent_models=opponent_models, objective_secured=objective_secured,
                                opponent_objective_secured=opponent_objective_secured)


@rule("controlling-terrain-features")
def terrain_feature_controller(category: Category | str, models: Any, opponent_models: Any, objective_secured: Any,
                               opponent_objective_secured: Any) -> Any:
    """Who controls a terrain feature for a mission objective (the counts are of models in range for an Obstacle,
    of models wholly on or within it for Area Terrain); Hills and Buildings are not terrain features to control."""
    category = category_named(category) if isinstance(category, str) else Category(category)
    if category == Category.OBSTACLES:
        return obstacle_controller(models, opponent_models, objective_secured, opponent_objective_secured)
    if category == Category.AREA_TERRAIN:
        return area_terrain_controller(models, opponent_models, objective_secured, opponent_objective_secured)
    raise ValueError(f"{CATEGORY_NAMES[category]} are not terrain features (Hills are part of the battlefield, "
                     "Buildings are units): the pack gives no way to control them")


# Common terrain features ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class CommonFeature:
    """One of the common terrain features: its number, name, category and traits as printed, in printed order."""

    number: int
    name: str
    category: str
    traits: tuple[str, ...]

    @property
    def ref(self) -> str:
        return "terrain/common/" + self.name.lower().replace(" ", "-")


COMMON_FEATURES: tuple[CommonFeature, ...] = (
    CommonFeature(1, "Ruins", "Area Terrain", ("Scalable", "Breachable", "Light Cover", "Defensible", "Obscuring")),
    CommonFeature(2, "Craters", "Area Terrain", ("Light Cover", "Difficult Ground")),
    # Printed "ARMoured CONTAINERS" (a garbled heading); the name is the one the lead's restoration gives.
    CommonFeature(3, "Armoured Containers", "Obstacles", ("Light Cover", "Scalable", "Exposed Position")),
    CommonFeature(4, "Barricades and Fuel Pipes", "Obstacles",
                  ("Defence Line", "Light Cover", "Heavy Cover", "Defensible", "Unstable Position",
                   "Difficult Ground")),
    CommonFeature(5, "Woods", "Area Terrain", ("Dense Cover", "Breachable", "Defensible", "Difficult Ground")),
    CommonFeature(6, "Battlefield Debris", "Obstacles", ("Exposed Position",)),
    CommonFeature(7, "Industrial Structure", "Area Terrain", ("Scalable", "Breachable", "Dense Cover", "Defensible")),
    CommonFeature(8, "Imperial Statuary", "Obstacles", ("Light Cover", "Unstable Position", "Inspiring (IMPERIUM)")),
    CommonFeature(9, "Ruined Walls", "Obstacles",
                  ("Defence Line", "Breachable", "Dense Cover", "Defensible", "Unstable Position")),
)

_COMMON_REFS = tuple(f.ref for f in COMMON_FEATURES)


def validate_common_features(features: Sequence[CommonFeature]) -> None:
    """Every common feature is numbered in order, has a category that exists and only traits that exist (raises
    ValueError naming the feature)."""
    for index, feature in enumerate(features, 1):
        if feature.number != index:
            raise ValueError(f"common terrain feature {feature.name!r} is numbered {feature.number}, expected {index}")
        try:
            category_named(feature.category)
            feature_traits(feature.traits)
        except ValueError as error:
            raise ValueError(f"common terrain feature {feature.number}. {feature.name}: {error}") from None


validate_common_features(COMMON_FEATURES)


def common_feature(name: str) -> CommonFeature:
    """The common terrain feature of that name (or number)."""
    for feature in COMMON_FEATURES:
        if _words(feature.name) == _words(str(name)) or str(feature.number) == str(name):
            return feature
    raise ValueError(f"{name!r} is not one of the common terrain features: "
                     + ", ".join(f.name for f in COMMON_FEATURES))


@rule("terrain/common", *_COMMON_REFS)
def common_feature_category(name: str) -> Category:
    """The terrain category of a common terrain feature (Ruins are Area Terrain, Ruined Walls are Obstacles)."""
    return category_named(common_feature(name).category)


@rule("terrain/common", *_COMMON_REFS)
def common_feature_traits(name: str) -> tuple[FeatureTrait, ...]:
    """The terrain traits of a common terrain feature, in printed order (Imperial Statuary's Inspiring carries
    IMPERIUM in brackets)."""
    return feature_traits(common_feature(name).traits)


def common_feature_has(name: str, trait: Trait | str) -> bool:
    """Whether a common terrain feature has a terrain trait."""
    wanted = trait if isinstance(trait, Trait) else trait_named(trait).trait
    return any(t.trait == wanted for t in common_feature_traits(name))


# Tactical Terrain datasheets -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TerrainDatasheet:
    """A Tactical Terrain datasheet: title, description (what and how many features), terrain points, category,
    traits, abilities (name and text) and keywords in two lines, Battlezone keywords and other keywords."""

    title: str
    description: str
    terrain_points: int
    features: int
    category: str
    traits: tuple[str, ...]
    abilities: tuple[tuple[str, str], ...]
    battlezone_keywords: tuple[str, ...]
    other_keywords: tuple[str, ...]


_BATTLEZONE = re.compile(r"^(BATTLEZONE [A-Z][A-Z' -]*|ALL BATTLEZONES)$")


@rule("terrain/datasheets")
def datasheet_problems(sheet: TerrainDatasheet) -> list[str]:
    """What a Tactical Terrain datasheet lacks or gets wrong (empty if it is complete): a title, a description, a
    whole number of terrain points, at least one feature, a category and traits that exist, named abilities, and
    its keywords split into Battlezone keywords and other keywords."""
    problems = []
    if not sheet.title.strip():
        problems.append("it has no title")
    if not sheet.description.strip():
        problems.append("it has no description")
    if isinstance(sheet.terrain_points, bool) or not isinstance(sheet.terrain_points, int) or sheet.terrain_points < 0:
        problems.append(f"its terrain points {sheet.terrain_points!r} are not a whole number of 0 or more")
    if isinstance(sheet.features, bool) or not isinstance(sheet.features, int) or sheet.features < 1:
        problems.append(f"it comprises {sheet.features!r} terrain features, not one or more")
    for check, value in ((category_named, sheet.category), (feature_traits, sheet.traits)):
        try:
            check(value)
        except ValueError as error:
            problems.append(str(error))
    for entry in sheet.abilities:
        if len(entry) != 2 or not all(isinstance(part, str) and part.strip() for part in entry):
            problems.append(f"ability {entry!r} needs a name and its rules")
    if not sheet.battlezone_keywords:
        problems.append("it has no Battlezone keyword")
    for keyword in sheet.battlezone_keywords:
        if not _BATTLEZONE.match(keyword):
            problems.append(f"{keyword!r} is not a Battlezone keyword")
    for keyword in sheet.other_keywords:
        if _BATTLEZONE.match(keyword):
            problems.append(f"Battlezone keyword {keyword!r} is on the other keywords line")
        elif not keyword.strip() or keyword != keyword.upper():
            problems.append(f"{keyword!r} is not a keyword (keywords are printed in capitals)")
    return [f"{sheet.title or 'datasheet'}: {p}" for p in problems]


def validate_datasheet(sheet: TerrainDatasheet) -> TerrainDatasheet:
    """The datasheet itself if it is complete; else ValueError with its first problem."""
    problems = datasheet_problems(sheet)
    if problems:
        raise ValueError(problems[0])
    return sheet


STORAGE_FANE = validate_datasheet(TerrainDatasheet(
    title="Storage Fane",
    description="1 Storage Fane terrain feature, with one pipeway access point",
    terrain_points=40,
    features=1,
    category="Area Terrain",
    traits=("Breachable", "Defensible", "Light Cover", "Scalable"),
    abilities=(("Ammunition Storage", "one selected unit wholly within throws Grenades with up to half its grenadiers; "
                                      "ranged attacks from models wholly within re-roll hit rolls of 1"),),
    battlezone_keywords=("BATTLEZONE MANUFACTURUM",),
    other_keywords=("TERRAIN", "AREA", "RUINS", "PIPEWAY", "STORAGE FANE"),
))

#: The Tactical Terrain datasheets the pack prints, by title.
DATASHEETS = {sheet.title: sheet for sheet in (STORAGE_FANE,)}


@rule("terrain/datasheet/storage-fane")
def storage_fane() -> TerrainDatasheet:
    """The Storage Fane datasheet: 40 terrain points for 1 Area Terrain feature with Breachable, Defensible, Light
    Cover and Scalable, BATTLEZONE MANUFACTURUM."""
    return STORAGE_FANE


@rule("terrain/datasheet/storage-fane")
def may_select_for_ammunition_storage(start_of_your_shooting_phase: Any, unit_wholly_within: Any,
                                      units_already_selected: Any, your_datasheet: Any = True) -> Any:
    """Whether a unit may be selected for Ammunition Storage: at the start of your Shooting phase, one unit wholly
    within the Storage Fane, by the player whose Tactical Terrain collection includes it (``your_datasheet``).

    Interpretation: ammunition-storage-owner.
    """
    return And(your_datasheet, start_of_your_shooting_phase, unit_wholly_within, units_already_selected == 0)


def _half_rounded_down(count: Any) -> Any:
    # z3's integer division of a count of 0 or more by 2 rounds down, as Python's // does.
    return count / 2 if is_symbolic(count) else count // 2


@rule("terrain/datasheet/storage-fane")
def ammunition_storage_grenade_models(models_equipped_with_grenades: Any) -> Any:
    """How many models of the selected unit equipped with Grenades can resolve attacks with them this phase: up to
    half of them, rounding down (half of 5 is 2)."""
    return _half_rounded_down(models_equipped_with_grenades)


@rule("terrain/datasheet/storage-fane")
def grenade_models_this_phase(models_equipped_with_grenades: Any, selected: Any) -> Any:
    """How many models of a unit can resolve attacks with Grenades this phase: just one (if it has any) unless the
    unit was selected for Ammunition Storage, then up to half of them, rounding down (selecting is optional: a
    unit with fewer than four such models gains nothing from it, and one with a single such model would lose it).
    """
    return If(selected, ammunition_storage_grenade_models(models_equipped_with_grenades),
              Min(models_equipped_with_grenades, 1))


@rule("terrain/datasheet/storage-fane")
def ammunition_storage_rerolls_hit(hit_roll: Any, ranged: Any, wholly_within: Any) -> Any:
    """Whether Ammunition Storage re-rolls a hit roll: a hit roll of 1 for a ranged attack by a model wholly within
    the Storage Fane."""
    return And(ranged, wholly_within, hit_roll == 1)
