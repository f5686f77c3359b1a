"""z3 proofs about terrain (13), monsters and vehicles (17), other abilities (22), the core abilities that act
outside attacks (24) and objective markers (rules appendix).

Each builder calls the real rule functions through their modules, so a test can swap in a broken copy
(properties/test_terrain_proofs.py does, for every proof here). Two proofs are expected to be disproved:
they are findings (spec/core/annotations/findings/13-terrain.yaml and 24-core-abilities-battle.yaml).
"""

from __future__ import annotations

from typing import Any, Sequence

import z3

from properties.proofs import Built, proof
from rules import battlefield
from rules.core import core_abilities, flying_and_surging, monsters_and_vehicles, other_rules, terrain
from rules.logic import And, If, Max, Not, Or
from rules.model import Placed
from rules.state import MoveType

DENSE, LIGHT, EXPOSED = int(battlefield.Category.DENSE), int(battlefield.Category.LIGHT), int(battlefield.Category.EXPOSED)
THROUGH, CLIMB = int(terrain.Passage.THROUGH), int(terrain.Passage.CLIMB)


def _between(symbol: Any, low: int, high: int) -> Any:
    return z3.And(symbol >= low, symbol <= high)


def _movement_inputs() -> tuple[list[Any], dict[str, Any]]:
    """Every input of the terrain-movement rule: a category, a direction, keywords, a section height (any real
    0" or more), Super-heavy Walker and taking to the skies."""
    category = z3.Int("category")
    height = z3.Real("section_height")
    flags = {name: z3.Bool(name) for name in ("vertical", "infantry_beasts_swarm", "mobile", "super_heavy_walker",
                                               "taking_to_the_skies")}
    return [_between(category, EXPOSED, DENSE), height >= 0], {"category": category, "section_height": height, **flags}


def _passage(s: dict[str, Any], **changes: Any) -> Any:
    inputs = {**s, **changes}
    return terrain.move_through_terrain(inputs["category"], inputs["vertical"], inputs["infantry_beasts_swarm"],
                                        inputs["mobile"], inputs["section_height"], inputs["super_heavy_walker"],
                                        inputs["taking_to_the_skies"])


# -- 13.06 Terrain and movement ------------------------------------------------------------------------------------


@proof("terrain-movement-always-answers", ("13.06",),
       "Whatever the category, keywords, direction and section height, a model either moves through a terrain "
       "feature or climbs it: the rule never leaves a model without an answer.")
def _movement_answers() -> Built:
    pre, s = _movement_inputs()
    answer = terrain.TERRAIN_MOVEMENT(**{k: v for k, v in s.items() if k != "taking_to_the_skies"})
    return pre, z3.Or(answer == THROUGH, answer == CLIMB), s


@proof("infantry-moves-through-all-terrain", ("13.06",),
       "INFANTRY/BEASTS/SWARM models move horizontally and vertically through every category of terrain feature, "
       "whatever its height.")
def _infantry_through() -> Built:
    pre, s = _movement_inputs()
    return pre + [s["infantry_beasts_swarm"]], _passage(s) == THROUGH, s


@proof("exposed-and-light-never-hinder", ("13.03", "13.04", "13.06"),
       "Exposed and light terrain features never hinder any model, in either direction.")
def _exposed_light() -> Built:
    pre, s = _movement_inputs()
    return pre + [s["category"] != DENSE], _passage(s) == THROUGH, s


@proof("terrain-movement-monotone", ("13.06", "24.35"),
       "Gaining MOBILE or INFANTRY/BEASTS/SWARM, being a Super-heavy Walker, taking to the skies, or meeting a lower "
       "section never turns a move through a terrain feature into a climb.")
def _movement_monotone() -> Built:
    pre, s = _movement_inputs()
    lower = z3.Real("lower_height")
    through = _passage(s) == THROUGH
    goal = z3.And(*(z3.Implies(through, _passage(s, **{flag: True}) == THROUGH)
                    for flag in ("mobile", "infantry_beasts_swarm", "super_heavy_walker", "taking_to_the_skies")),
                  z3.Implies(through, _passage(s, section_height=lower) == THROUGH))
    return pre + [lower >= 0, lower <= s["section_height"]], goal, {**s, "lower_height": lower}


@proof("dense-climb-only-above-two-inches", ("13.06",),
       "A model without INFANTRY/BEASTS/SWARM/MOBILE that is not a Super-heavy Walker or taking to the skies must "
       "climb a dense feature exactly when it moves vertically or a section is more than 2\" high.")
def _dense_two_inches() -> Built:
    pre, s = _movement_inputs()
    pre += [s["category"] == DENSE, z3.Not(s["infantry_beasts_swarm"]), z3.Not(s["mobile"]),
            z3.Not(s["super_heavy_walker"]), z3.Not(s["taking_to_the_skies"])]
    goal = (_passage(s) == CLIMB) == z3.Or(s["vertical"], s["section_height"] > 2)
    return pre, goal, s


def _ending_inputs() -> tuple[list[Any], dict[str, Any]]:
    names = ("infantry_beasts_swarm", "fly", "monster", "mobile", "stable_without_overhang")
    s: dict[str, Any] = {name: z3.Bool(name) for name in names}
    s["section_height"] = z3.Real("section_height")
    return [s["section_height"] >= 0], s


@proof("end-move-rules-never-disagree", ("13.06",),
       "The Dense bullet's ban (a model that had to climb a dense feature cannot end on it above ground level) and "
       "SETTING UP OR ENDING A MOVE's permission (INFANTRY/BEASTS/SWARM/FLY/MONSTER, stable) never both apply.",
       expect="disproved")
def _end_move_disagree() -> Built:
    pre, s = _ending_inputs()
    climbed = terrain.move_through_terrain(DENSE, False, s["infantry_beasts_swarm"], s["mobile"],
                                           s["section_height"]) == CLIMB
    keyword_allowed = terrain.upper_surface_keyword_flags(s["infantry_beasts_swarm"], s["fly"], s["monster"])
    both = z3.And(terrain.dense_climb_forbids_ending(False, climbed),
                  terrain.upper_surface_allowed(keyword_allowed, s["stable_without_overhang"]))
    return pre, z3.Not(both), s


@proof("end-move-above-ground-needs-keyword", ("13.06",),
       "Above ground level, a model can only end a move on a terrain feature with a listed keyword, stable and not "
       "overhanging, and never on top of a dense feature it had to climb; on ground level it always can.")
def _end_move_sound() -> Built:
    ground, keyword, stable, climbed = z3.Bools("on_ground_level keyword_allowed stable_without_overhang "
                                                "climbed_dense_sections")
    allowed = terrain.may_end_move_on_surface(ground, keyword, stable, climbed)
    goal = z3.And(z3.Implies(ground, allowed),
                  z3.Implies(z3.And(z3.Not(ground), allowed), z3.And(keyword, stable, z3.Not(climbed))))
    return [], goal, {"on_ground_level": ground, "keyword_allowed": keyword, "stable_without_overhang": stable,
                      "climbed_dense_sections": climbed}


# -- 13.07-13.11 Visibility ---------------------------------------------------------------------------------------------


def _visibility_inputs() -> tuple[list[Any], dict[str, Any]]:
    names = ("line_of_sight", "unobscured_line", "target_hidden", "observer_is_enemy", "within_detection_range",
             "lone_operative", "within_lone_operative_range")
    s = {name: z3.Bool(name) for name in names}
    return [z3.Implies(s["unobscured_line"], s["line_of_sight"])], s


def _visible(s: dict[str, Any]) -> Any:
    return terrain.visible(**s)


@proof("visible-only-along-an-unobscured-line", ("06.01", "13.07", "13.10"),
       "A model is only ever visible if a line of sight can be drawn to it that crosses no obscuring terrain area.")
def _visible_needs_line() -> Built:
    pre, s = _visibility_inputs()
    return pre, z3.Implies(_visible(s), z3.And(s["line_of_sight"], s["unobscured_line"])), s


@proof("hidden-unseen-beyond-detection-range", ("13.07", "13.09"),
       "A hidden model is never visible to an enemy model outside its detection range, and friendly models see it as "
       "they would see any model.")
def _hidden_range() -> Built:
    pre, s = _visibility_inputs()
    v = _visible(s)
    goal = z3.And(
        z3.Implies(z3.And(s["target_hidden"], s["observer_is_enemy"], z3.Not(s["within_detection_range"])), z3.Not(v)),
        z3.Implies(z3.And(z3.Not(s["observer_is_enemy"]), s["unobscured_line"]), v))
    return pre, goal, s


@proof("lone-operative-visibility-agrees", ("13.07", "24.24"),
       "With a clear unobscured line and no hidden model, the visibility rule and Lone Operative's own rule agree "
       "on every case (attached or not, enemy or not, within range or not).")
def _lone_operative() -> Built:
    pre, s = _visibility_inputs()
    pre += [s["unobscured_line"], z3.Not(s["target_hidden"])]
    agree = _visible(s) == core_abilities.lone_operative_visible(z3.Not(s["lone_operative"]), s["observer_is_enemy"],
                                                                 s["within_lone_operative_range"])
    return pre, agree, s


@proof("hidden-needs-terrain-and-quiet", ("13.09",),
       "A model is hidden exactly when it is INFANTRY/BEASTS/SWARM within a terrain area holding a dense feature and "
       "its unit made no ranged attacks this turn or the previous one; a hidden model beyond detection range is "
       "unseen by the hidden rule's own predicate too.")
def _hidden() -> Built:
    ibs, dense, shot, enemy, within = z3.Bools("infantry_beasts_swarm within_area_with_dense_feature "
                                               "unit_made_ranged_attacks_recently observer_is_enemy "
                                               "within_detection_range")
    hidden = terrain.model_hidden(ibs, dense, shot)
    goal = z3.And(hidden == z3.And(ibs, dense, z3.Not(shot)),
                  terrain.hidden_model_visible_to(hidden, enemy, within) == z3.Or(z3.Not(hidden), z3.Not(enemy), within))
    return [], goal, {"infantry_beasts_swarm": ibs, "within_area_with_dense_feature": dense,
                      "unit_made_ranged_attacks_recently": shot, "observer_is_enemy": enemy,
                      "within_detection_range": within}


@proof("obscuring-needs-light-or-dense", ("13.10",),
       "A terrain area with up to three features is obscuring exactly when one of them is light or dense.")
def _obscuring() -> Built:
    cats = z3.Ints("category_1 category_2 category_3")
    goal = terrain.is_obscuring_area(cats) == z3.Or(*(c != EXPOSED for c in cats))
    return [_between(c, EXPOSED, DENSE) for c in cats], goal, {f"category_{i + 1}": c for i, c in enumerate(cats)}


@proof("solid-only-at-three-inches-or-less", ("13.11", "13.05"),
       "The Solid rule only stops sight through a gap 3\" or less from ground level, and only in dense features.")
def _solid() -> Built:
    category = z3.Int("category")
    height = z3.Real("height_above_ground")
    blocks = terrain.gap_blocks_sight(terrain.has_solid_rule(category), height)
    return [_between(category, EXPOSED, DENSE), height >= 0], blocks == z3.And(category == DENSE, height <= 3), {
        "category": category, "height_above_ground": height}


# -- 17.01 and 24.35 Moving through models ----------------------------------------------------------------------------

_MODEL_FLAGS = ("friendly", "mover_monster_or_vehicle", "other_monster_or_vehicle", "normal_or_advance", "fall_back",
                "other_titanic", "super_heavy_walker", "taking_to_the_skies")


def _through_models(s: dict[str, Any], **changes: Any) -> Any:
    inputs = {**s, **changes}
    return monsters_and_vehicles.may_move_through_model(*(inputs[name] for name in _MODEL_FLAGS))


@proof("enemy-monster-vehicle-blocks-ordinary-moves", ("17.01", "03.01"),
       "Unless it takes to the skies or is a Super-heavy Walker, no model is ever moved through an enemy "
       "MONSTER/VEHICLE model, and every model can be moved through friendly models.")
def _monster_vehicle_block() -> Built:
    s = {name: z3.Bool(name) for name in _MODEL_FLAGS}
    pre = [z3.Not(z3.And(s["normal_or_advance"], s["fall_back"]))]
    goal = z3.And(
        z3.Implies(z3.And(z3.Not(s["friendly"]), s["other_monster_or_vehicle"], z3.Not(s["super_heavy_walker"]),
                          z3.Not(s["taking_to_the_skies"])), z3.Not(_through_models(s))),
        z3.Implies(s["friendly"], _through_models(s)))
    return pre, goal, s


@proof("monster-vehicle-through-infantry-in-normal-moves", ("17.01",),
       "A MONSTER/VEHICLE model in a normal or advance move can be moved through any enemy model that is not a "
       "MONSTER/VEHICLE, and in a charge (neither move) it cannot unless it flies.")
def _monster_vehicle_through() -> Built:
    s = {name: z3.Bool(name) for name in _MODEL_FLAGS}
    pre = [z3.Not(z3.And(s["normal_or_advance"], s["fall_back"])), s["mover_monster_or_vehicle"],
           z3.Not(s["friendly"]), z3.Not(s["other_monster_or_vehicle"]), z3.Not(s["super_heavy_walker"]),
           z3.Not(s["taking_to_the_skies"])]
    return pre, _through_models(s) == s["normal_or_advance"], s


@proof("walker-never-through-enemy-titanic", ("24.35",),
       "A Super-heavy Walker (not taking to the skies) is never moved through an enemy TITANIC model (TITANIC models "
       "being MONSTERS or VEHICLES), but in a normal, advance or fall-back move it passes every other enemy model.")
def _walker_titanic() -> Built:
    s = {name: z3.Bool(name) for name in _MODEL_FLAGS}
    pre = [z3.Not(z3.And(s["normal_or_advance"], s["fall_back"])), s["super_heavy_walker"], z3.Not(s["friendly"]),
           z3.Not(s["taking_to_the_skies"]), z3.Implies(s["other_titanic"], s["other_monster_or_vehicle"])]
    goal = z3.And(z3.Implies(s["other_titanic"], z3.Not(_through_models(s))),
                  z3.Implies(z3.And(z3.Not(s["other_titanic"]), z3.Or(s["normal_or_advance"], s["fall_back"])),
                             _through_models(s)))
    return pre, goal, s


@proof("move-through-table-checked-over-every-move-type", ("17.01",),
       "The move-through table's checks (its assume) admit every type of move a model makes: a normal or advance "
       "move, a fall-back move and every other move, each as may_move_through describes it, whatever the models.")
def _move_through_every_move_type() -> Built:
    s = {name: z3.Bool(name) for name in _MODEL_FLAGS if name != "taking_to_the_skies"}
    table = monsters_and_vehicles.MOVE_THROUGH_MODELS
    goal = z3.And(*(table.assume(**{**s, "normal_or_advance": z3.BoolVal(move in (MoveType.NORMAL, MoveType.ADVANCE)),
                                    "fall_back": z3.BoolVal(move == MoveType.FALL_BACK)}) for move in MoveType))
    return [], goal, s


@proof("walker-battle-shock-only-with-mobile-on-a-one", ("24.35",),
       "A Super-heavy Walker is battle-shocked after its move exactly when it chose MOBILE and rolled a 1.")
def _walker_shock() -> Built:
    mobile = z3.Bool("chose_mobile")
    roll = z3.Int("roll")
    goal = core_abilities.walker_battle_shocked(mobile, roll) == z3.And(mobile, roll == 1)
    return [_between(roll, 1, 6)], goal, {"chose_mobile": mobile, "roll": roll}


# -- 22 Other abilities ------------------------------------------------------------------------------------------------


@proof("aura-bearer-always-in-range", ("22.01",),
       "While on the battlefield, an aura's bearer is always within range of its own aura; off the battlefield, "
       "nothing is.")
def _aura() -> Built:
    on, bearer, within = z3.Bools("bearer_on_battlefield is_bearer within_range")
    in_range = other_rules.in_aura_range(on, bearer, within)
    goal = z3.And(z3.Implies(z3.And(on, bearer), in_range), z3.Implies(z3.Not(on), z3.Not(in_range)),
                  z3.Implies(z3.And(on, within), in_range))
    return [], goal, {"bearer_on_battlefield": on, "is_bearer": bearer, "within_range": within}


@proof("wargear-until-bearer-destroyed", ("22.04",),
       "A model's wargear ability applies exactly until its bearer is destroyed; a unit's applies throughout.")
def _wargear() -> Built:
    model, destroyed = z3.Bools("held_by_a_model bearer_destroyed")
    applies = other_rules.wargear_ability_applies(model, destroyed)
    return [], applies == z3.Or(z3.Not(model), z3.Not(destroyed)), {"held_by_a_model": model,
                                                                     "bearer_destroyed": destroyed}


# -- 24 Core abilities ---------------------------------------------------------------------------------------------------


@proof("deadly-demise-only-on-a-six", ("24.08",), "Deadly Demise is resolved on a 6 and on nothing else.")
def _deadly_demise() -> Built:
    roll = z3.Int("roll")
    return [_between(roll, 1, 6)], core_abilities.deadly_demise_triggers(roll) == (roll == 6), {"roll": roll}


@proof("deep-strike-widens-ingress", ("24.09", "20.04"),
       "Deep Strike only adds places to set up: anything an ingress move allows, it allows; and it never allows a "
       "place within 8\" horizontally of an enemy unit.")
def _deep_strike() -> Built:
    edges, more8, opp = z3.Bools("wholly_within_6_of_edges more_than_8_from_enemies in_opponents_deployment_zone")
    battle_round = z3.Int("battle_round")
    from rules.core import strategic_reserves

    ingress = strategic_reserves.ingress_position_allowed(edges, more8, opp, battle_round)
    deep = core_abilities.deep_strike_position_allowed(True, edges, more8, opp, battle_round)
    goal = z3.And(z3.Implies(ingress, deep), z3.Implies(deep, more8))
    return [_between(battle_round, 1, 5)], goal, {"wholly_within_6_of_edges": edges, "more_than_8_from_enemies": more8,
                                                  "in_opponents_deployment_zone": opp, "battle_round": battle_round}


@proof("fights-first-needs-every-model", ("24.13",), "A three-model unit is a Fights First unit exactly when all three have the ability.")
def _fights_first() -> Built:
    flags = z3.Bools("model_1 model_2 model_3")
    return [], core_abilities.fights_first_unit(flags) == z3.And(*flags), {f"model_{i + 1}": f for i, f in enumerate(flags)}


@proof("firing-deck-needs-passengers", ("24.14",),
       "Firing Deck is only resolved in your Shooting phase, when the TRANSPORT is selected to shoot with one or more "
       "units embarked; after it, the embarked units cannot shoot that turn.")
def _firing_deck() -> Built:
    phase, selected, used = z3.Bools("own_shooting_phase transport_selected_to_shoot firing_deck_resolved_this_turn")
    embarked = z3.Int("units_embarked")
    goal = z3.And(core_abilities.firing_deck_applies(phase, selected, embarked) == z3.And(phase, selected, embarked >= 1),
                  z3.Implies(used, z3.Not(core_abilities.embarked_units_eligible_to_shoot(used))))
    return [embarked >= 0], goal, {"own_shooting_phase": phase, "transport_selected_to_shoot": selected,
                                   "units_embarked": embarked, "firing_deck_resolved_this_turn": used}


@proof("hover-agrees-with-taking-to-the-skies", ("24.17", "21.03"),
       "Taking to the skies costs exactly the 24.17 penalty (2\", or nothing with [HOVER]) as 21.03 computes it.")
def _hover() -> Built:
    maximum = z3.Int("maximum")
    hover = z3.Bool("hover")
    goal = flying_and_surging.skies_maximum_distance(maximum, True, hover) == maximum - core_abilities.skies_distance_penalty(hover)
    return [maximum >= 0], goal, {"maximum": maximum, "hover": hover}


@proof("infiltrators-keep-their-distance", ("24.20",),
       "Infiltrators may only be set up during deployment, with every model having the ability, more than 8\" from the "
       "opponent's deployment zone and from every enemy unit.")
def _infiltrators() -> Built:
    every, deploying, zone, enemies = z3.Bools("every_model_has_infiltrators during_deployment "
                                               "more_than_8_from_opponents_zone more_than_8_from_enemy_units")
    allowed = core_abilities.infiltrators_may_set_up(every, deploying, zone, enemies)
    return [], allowed == z3.And(every, deploying, zone, enemies), {
        "every_model_has_infiltrators": every, "during_deployment": deploying,
        "more_than_8_from_opponents_zone": zone, "more_than_8_from_enemy_units": enemies}


@proof("scouts-options-need-every-model", ("24.31",),
       "Scouts gives a unit nothing unless every model has it; it sets up a unit only from strategic reserves, and "
       "moves a DEDICATED TRANSPORT only if every embarked model has Scouts and it is wholly within the zone.")
def _scouts_options() -> Built:
    names = ("every_model_has_scouts", "in_strategic_reserves", "wholly_within_deployment_zone",
             "embarked_in_dedicated_transport", "transport_wholly_within_deployment_zone",
             "every_embarked_model_has_scouts")
    s = {name: z3.Bool(name) for name in names}
    option = core_abilities.scouts_option(*(s[n] for n in names))
    options = core_abilities.ScoutsOption
    pre = [z3.Not(z3.And(s["in_strategic_reserves"], s["wholly_within_deployment_zone"])),
           z3.Not(z3.And(s["in_strategic_reserves"], s["embarked_in_dedicated_transport"])),
           z3.Not(z3.And(s["wholly_within_deployment_zone"], s["embarked_in_dedicated_transport"]))]
    goal = z3.And(
        z3.Implies(z3.Not(s["every_model_has_scouts"]), option == int(options.NONE)),
        z3.Implies(option == int(options.SET_UP_IN_DEPLOYMENT_ZONE), s["in_strategic_reserves"]),
        z3.Implies(option == int(options.SCOUT_MOVE), s["wholly_within_deployment_zone"]),
        z3.Implies(option == int(options.DEDICATED_TRANSPORT_SCOUT_MOVE),
                   z3.And(s["every_embarked_model_has_scouts"], s["transport_wholly_within_deployment_zone"])))
    return pre, goal, s


_SCOUT_VALUES = (6, 8, 9)
_SCOUT_MODELS = 3


def _scouts_inputs() -> tuple[list[Any], list[list[Any]], dict[str, Any]]:
    """Three models, each with some of Scouts 6", 8" and 9" (at least one)."""
    has = [[z3.Bool(f"model_{m + 1}_scouts_{v}") for v in _SCOUT_VALUES] for m in range(_SCOUT_MODELS)]
    return [z3.Or(*row) for row in has], has, {str(flag): flag for row in has for flag in row}


def _reach(row: Sequence[Any]) -> Any:
    """A model's longest Scouts distance."""
    return Max(*(If(flag, value, 0) for flag, value in zip(row, _SCOUT_VALUES)))


def scouts_distance_as_printed(has: Sequence[Sequence[Any]], values: Sequence[int]) -> Any:
    """24.02 read literally: the lowest number not shared by every model; if every number is shared, any of them
    (the highest is taken, as the book's first example allows)."""
    present = [Or(*(row[i] for row in has)) for i in range(len(values))]
    shared = [And(*(row[i] for row in has)) for i in range(len(values))]
    result: Any = 0
    for i in range(len(values)):  # the highest number present, as the fallback
        result = If(present[i], values[i], result)
    for i in reversed(range(len(values))):  # the lowest unshared number present wins
        result = If(And(present[i], Not(shared[i])), values[i], result)
    return result


@proof("scouts-as-printed-stays-within-every-models-reach", ("24.02", "24.31"),
       "Read as printed, the Scouts number a unit must select is never more than some model's longest Scouts "
       "distance.", expect="disproved")
def _scouts_printed() -> Built:
    pre, has, symbols = _scouts_inputs()
    chosen = scouts_distance_as_printed(has, _SCOUT_VALUES)
    return pre, z3.And(*(chosen <= _reach(row) for row in has)), symbols


@proof("scouts-chosen-within-every-models-reach", ("24.02", "24.31"),
       "The Scouts distance the code selects is no more than any model's longest Scouts distance, and is one of "
       "them (the slowest model's).")
def _scouts_chosen() -> Built:
    pre, has, symbols = _scouts_inputs()
    chosen = core_abilities.scouts_distance_of(has, _SCOUT_VALUES)
    goal = z3.And(*(chosen <= _reach(row) for row in has), z3.Or(*(chosen == _reach(row) for row in has)))
    return pre, goal, symbols


@proof("scout-move-ends-beyond-eight", ("24.32",),
       "A scout move only starts wholly within the deployment zone in the Resolve Pre-battle Abilities step, and only "
       "ends more than 8\" from all enemy units having moved no more than X\".")
def _scout_move() -> Built:
    step, zone, far = z3.Bools("pre_battle_abilities_step wholly_within_deployment_zone more_than_8_from_enemy_units")
    moved, x = z3.Reals("moved_inches scouts_x")
    goal = z3.And(core_abilities.scout_move_eligible(step, zone) == z3.And(step, zone),
                  core_abilities.scout_move_can_end(far, moved, x) == z3.And(far, moved <= x))
    return [moved >= 0, x >= 0], goal, {"pre_battle_abilities_step": step, "wholly_within_deployment_zone": zone,
                                        "more_than_8_from_enemy_units": far, "moved_inches": moved, "scouts_x": x}


# -- Rules appendix: objective markers -------------------------------------------------------------------------------


@proof("objective-marker-range-to-its-edge", ("appendix/objectives-not-within-a-terrain-area",),
       "A 32 mm model is within range of an objective marker exactly when its base comes within 3\" of the marker's "
       "40 mm circle horizontally and within 5\" of it vertically (so a model touching the marker always is).")
def _marker() -> Built:
    x, y, z = z3.Reals("x y z")
    model = Placed(x, y, base_mm=32, z=z)
    marker = battlefield.objective_marker(0, 0)
    reach = 3 + z3.Q(16, 254) * 10 + z3.Q(20, 254) * 10  # 3" plus the two radii (16 mm and 20 mm)
    goal = battlefield.within_objective_marker_range(model, marker) == z3.And(x * x + y * y <= reach * reach,
                                                                              z <= 5, z >= -5)
    return [], goal, {"x": x, "y": y, "z": z}
