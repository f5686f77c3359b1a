"""z3 proofs about the mission pack's Tactical Terrain: the categories' targeting and cover, every trait's bounds,
control of terrain features (against the reprinted objective marker rule) and the Storage Fane.

Each builder calls the real functions of rules.missionpack.terrain (and rules.ninth.objective_markers) through
their modules at check time, so properties/test_missionpack_terrain.py can swap in a broken copy and see the proof
disproved. One proof is expected to be disproved: it is the finding area-terrain-equal-objective-secured
(spec/missionpack/annotations/findings/terrain.yaml).
"""

from __future__ import annotations

from typing import Any

import z3

from properties.proofs import Built, proof
from rules.missionpack import terrain
from rules.ninth import objective_markers

HILLS, OBSTACLES, AREA, BUILDINGS = (int(c) for c in terrain.Category)
NONE, HOLD, DEFEND = (int(r) for r in terrain.Reaction)


def _ref(*refs: str) -> tuple[str, ...]:
    return tuple(f"missionpack:{ref}" for ref in refs)


def _between(symbol: Any, low: int, high: int) -> Any:
    return z3.And(symbol >= low, symbol <= high)


def _bools(names: str) -> dict[str, Any]:
    return {name: z3.Bool(name) for name in names.split()}


# -- Categories ---------------------------------------------------------------------------------------------------

CATEGORY_REFS = _ref("terrain/category/hills", "terrain/category/obstacles", "terrain/category/area-terrain",
                     "terrain/category/buildings")


@proof("missionpack-terrain-only-enemy-buildings-attacked", CATEGORY_REFS,
       "Hills, Obstacles and Area Terrain can never be chosen as the target of an attack; of the four categories "
       "only an enemy Building can.")
def _targeting() -> Built:
    category, enemy = z3.Int("category"), z3.Bool("enemy")
    allowed = terrain.can_be_chosen_as_target(category, enemy)
    goal = allowed == z3.And(category == BUILDINGS, enemy)
    return [_between(category, HILLS, BUILDINGS)], goal, {"category": category, "enemy": enemy}


def _cover_inputs() -> tuple[list[Any], dict[str, Any]]:
    category = z3.Int("category")
    flags = _bools("infantry_beast_swarm within_3 clear_lines_to_whole_base within_feature "
                   "on_top_of_exposed_position")
    return [_between(category, HILLS, BUILDINGS)], {"category": category, **flags}


@proof("missionpack-terrain-cover-only-infantry-beast-swarm",
       _ref("terrain/categories", "terrain/category/hills", "terrain/category/obstacles",
            "terrain/category/area-terrain", "terrain/category/buildings"),
       "Only INFANTRY, BEAST and SWARM models ever receive the benefits of cover from a terrain category, only from "
       "an Obstacle within 3\" that blocks some line to their base or from Area Terrain they are within; never "
       "from Hills or Buildings.")
def _cover_who() -> Built:
    pre, s = _cover_inputs()
    cover = terrain.receives_cover(**s)
    obstacle = z3.And(s["category"] == OBSTACLES, s["within_3"], z3.Not(s["clear_lines_to_whole_base"]))
    area = z3.And(s["category"] == AREA, s["within_feature"])
    goal = z3.Implies(cover, z3.And(s["infantry_beast_swarm"], z3.Or(obstacle, area)))
    return pre, goal, s


@proof("missionpack-terrain-cover-given-where-stated",
       _ref("terrain/category/obstacles", "terrain/category/area-terrain"),
       "An INFANTRY, BEAST or SWARM model not on top of an Exposed Position feature does receive cover from an "
       "Obstacle within 3\" that blocks a line to its base, and from Area Terrain it is within.")
def _cover_given() -> Built:
    pre, s = _cover_inputs()
    cover = terrain.receives_cover(**s)
    obstacle = z3.And(s["category"] == OBSTACLES, s["within_3"], z3.Not(s["clear_lines_to_whole_base"]))
    area = z3.And(s["category"] == AREA, s["within_feature"])
    goal = z3.Implies(z3.And(s["infantry_beast_swarm"], z3.Not(s["on_top_of_exposed_position"]),
                             z3.Or(obstacle, area)), cover)
    return pre, goal, s


@proof("missionpack-terrain-exposed-position-no-cover-on-top", _ref("terrain/trait/exposed-position"),
       "A model on top of an Exposed Position feature never receives the benefits of cover, whatever the category "
       "and the model's keywords.")
def _exposed() -> Built:
    pre, s = _cover_inputs()
    goal = z3.Implies(s["on_top_of_exposed_position"], z3.Not(terrain.receives_cover(**s)))
    return pre, goal, s


# -- Difficult Ground ---------------------------------------------------------------------------------------------


def _move_inputs() -> tuple[list[Any], dict[str, Any]]:
    max_move, move = z3.Real("max_move"), z3.Int("move")
    flags = _bools("moves_over_feature every_model_can_fly")
    return [max_move >= 0, _between(move, int(terrain.Move.NORMAL), int(terrain.Move.OTHER))], {
        "max_move": max_move, "move": move, **flags}


@proof("missionpack-terrain-difficult-ground-bounded", _ref("terrain/trait/difficult-ground"),
       "Difficult Ground never makes a maximum move negative, never increases it, and never takes more than 2\" "
       "off it.")
def _difficult_bounded() -> Built:
    pre, s = _move_inputs()
    result = terrain.difficult_ground_max_move(**s)
    goal = z3.And(result >= 0, result <= s["max_move"], result >= s["max_move"] - 2)
    return pre, goal, s


@proof("missionpack-terrain-difficult-ground-which-moves", _ref("terrain/trait/difficult-ground"),
       "Difficult Ground leaves the maximum move alone when every model can FLY, when the unit does not move over "
       "the feature, and for moves other than Normal Moves, Advances, Fall Backs and charge moves; otherwise a "
       "move of 2\" or more loses exactly 2\".")
def _difficult_which() -> Built:
    pre, s = _move_inputs()
    result = terrain.difficult_ground_max_move(**s)
    exempt = z3.Or(s["every_model_can_fly"], z3.Not(s["moves_over_feature"]), s["move"] == int(terrain.Move.OTHER))
    goal = z3.And(z3.Implies(exempt, result == s["max_move"]),
                  z3.Implies(z3.And(z3.Not(exempt), s["max_move"] >= 2), result == s["max_move"] - 2))
    return pre, goal, s


# -- Dense Cover, Obscuring ---------------------------------------------------------------------------------------


def _dense_inputs() -> tuple[list[Any], dict[str, Any]]:
    height, wounds = z3.Real("height_inches"), z3.Int("target_highest_wounds")
    flags = _bools("ranged clear_lines only_own_feature_between target_aircraft")
    return [height >= 0, wounds >= 1], {"height_inches": height, "target_highest_wounds": wounds, **flags}


@proof("missionpack-terrain-dense-cover-minus-one-never-large-targets", _ref("terrain/trait/dense-cover"),
       "Dense Cover only ever subtracts 1 from a hit roll (or nothing), never for a melee attack and never against "
       "an AIRCRAFT unit or a unit with a model of Wounds 18 or more.")
def _dense_bounds() -> Built:
    pre, s = _dense_inputs()
    modifier = terrain.dense_cover_hit_modifier(**s)
    exempt = z3.Or(z3.Not(s["ranged"]), s["target_aircraft"], s["target_highest_wounds"] >= 18)
    goal = z3.And(z3.Or(modifier == 0, modifier == -1), z3.Implies(exempt, modifier == 0))
    return pre, goal, s


@proof("missionpack-terrain-dense-cover-from-three-inches", _ref("terrain/trait/dense-cover"),
       "A Dense Cover feature below 3\" never penalises a hit roll, a taller one never penalises less, and one of "
       "exactly 3\" penalises a ranged attack whose lines cross it (not its own feature) at an ordinary target.")
def _dense_height() -> Built:
    pre, s = _dense_inputs()
    taller = z3.Real("taller_inches")
    modifier = terrain.dense_cover_hit_modifier(**s)
    at_taller = terrain.dense_cover_hit_modifier(**{**s, "height_inches": taller})
    at_three = terrain.dense_cover_hit_modifier(3, True, False, False, False, s["target_highest_wounds"])
    goal = z3.And(z3.Implies(s["height_inches"] < 3, modifier == 0), at_taller <= modifier,
                  z3.Implies(s["target_highest_wounds"] < 18, at_three == -1))
    return pre + [taller >= s["height_inches"]], goal, {**s, "taller_inches": taller}


def _obscuring_inputs() -> tuple[list[Any], dict[str, Any]]:
    height, wounds = z3.Real("height_inches"), z3.Int("target_wounds")
    flags = _bools("clear_line observer_on_or_within target_on_or_within target_aircraft")
    return [height >= 0, wounds >= 1], {"height_inches": height, "target_wounds": wounds, **flags}


@proof("missionpack-terrain-obscuring-never-hides-large-or-within", _ref("terrain/trait/obscuring"),
       "An Obscuring feature never hides an AIRCRAFT model, a model with a Wounds characteristic of 18 or more, or "
       "a model on or within it, and never blocks a line that avoids it.")
def _obscuring_exempt() -> Built:
    pre, s = _obscuring_inputs()
    blocks = terrain.obscuring_blocks_visibility(**s)
    goal = z3.Implies(blocks, z3.And(z3.Not(s["target_aircraft"]), s["target_wounds"] < 18,
                                     z3.Not(s["target_on_or_within"]), z3.Not(s["clear_line"])))
    return pre, goal, s


@proof("missionpack-terrain-obscuring-from-five-inches", _ref("terrain/trait/obscuring"),
       "An Obscuring feature below 5\" hides nothing; one of 5\" or more hides an ordinary model outside it from an "
       "observer outside it when every line between them crosses it.")
def _obscuring_height() -> Built:
    pre, s = _obscuring_inputs()
    blocks = terrain.obscuring_blocks_visibility(**s)
    ordinary = z3.And(z3.Not(s["clear_line"]), z3.Not(s["observer_on_or_within"]), z3.Not(s["target_on_or_within"]),
                      z3.Not(s["target_aircraft"]), s["target_wounds"] < 18)
    goal = z3.And(z3.Implies(s["height_inches"] < 5, z3.Not(blocks)),
                  z3.Implies(z3.And(s["height_inches"] >= 5, ordinary), blocks))
    return pre, goal, s


# -- Light Cover, Heavy Cover ---------------------------------------------------------------------------------------


@proof("missionpack-terrain-light-cover-never-invulnerable", _ref("terrain/trait/light-cover"),
       "Light Cover adds at most 1 to a saving throw, only against ranged attacks and never to an invulnerable "
       "saving throw.")
def _light() -> Built:
    s = _bools("ranged receiving_cover invulnerable")
    bonus = terrain.light_cover_save_bonus(**s)
    goal = z3.And(z3.Or(bonus == 0, bonus == 1),
                  z3.Implies(z3.Or(s["invulnerable"], z3.Not(s["ranged"]), z3.Not(s["receiving_cover"])), bonus == 0))
    return [], goal, s


@proof("missionpack-terrain-heavy-cover-never-ranged-or-after-charge", _ref("terrain/trait/heavy-cover"),
       "Heavy Cover adds at most 1 to a saving throw, never against a ranged attack, never against a model that made "
       "a charge move this turn and never to an invulnerable saving throw.")
def _heavy() -> Built:
    s = _bools("melee receiving_cover attacker_charged_this_turn invulnerable")
    bonus = terrain.heavy_cover_save_bonus(**s)
    goal = z3.And(z3.Or(bonus == 0, bonus == 1),
                  z3.Implies(z3.Or(z3.Not(s["melee"]), s["attacker_charged_this_turn"], s["invulnerable"]),
                             bonus == 0))
    return [], goal, s


@proof("missionpack-terrain-cover-bonus-at-most-one", _ref("terrain/categories"),
       "Whatever Light Cover and Heavy Cover a feature has, cover adds at most 1 to a saving throw, and a feature "
       "with neither trait adds nothing.")
def _cover_bonus() -> Built:
    s = _bools("light_cover heavy_cover ranged receiving_cover attacker_charged_this_turn invulnerable")
    bonus = terrain.cover_save_bonus(**s)
    goal = z3.And(bonus >= 0, bonus <= 1,
                  z3.Implies(z3.And(z3.Not(s["light_cover"]), z3.Not(s["heavy_cover"])), bonus == 0))
    return [], goal, s


# -- Defensible, Defence Line ---------------------------------------------------------------------------------------


@proof("missionpack-terrain-defensible-who-reacts", _ref("terrain/trait/defensible"),
       "Only an INFANTRY unit outside Engagement Range of every enemy unit can Hold Steady or Set to Defend: every "
       "model on or in Defensible Area Terrain, or every model within 3\" of a Defensible Obstacle that the line "
       "between the closest models crosses.")
def _defensible() -> Built:
    category = z3.Int("category")
    s = {"category": category, **_bools("infantry_unit every_model_on_or_in every_model_within_3 "
                                        "closest_line_crosses_feature within_engagement_range")}
    allowed = terrain.defensible_reaction_allowed(**s)
    area = z3.And(category == AREA, s["every_model_on_or_in"])
    obstacle = z3.And(category == OBSTACLES, s["every_model_within_3"], s["closest_line_crosses_feature"])
    goal = allowed == z3.And(s["infantry_unit"], z3.Not(s["within_engagement_range"]), z3.Or(area, obstacle))
    return [_between(category, HILLS, BUILDINGS)], goal, s


@proof("missionpack-terrain-defensible-reactions", _ref("terrain/trait/defensible"),
       "Holding Steady makes Overwatch hit on 5+ (never harder than the usual 6); a unit that Sets to Defend fires no "
       "Overwatch and gets +1 to hit only with melee weapons and only until the end of the next Fight phase.")
def _reactions() -> Built:
    reaction = z3.Int("reaction")
    s = {"reaction": reaction, **_bools("otherwise_may melee next_fight_phase_ended")}
    needed = terrain.overwatch_hit_roll_needed(reaction)
    fires = terrain.may_fire_overwatch(reaction, s["otherwise_may"])
    plus = terrain.set_to_defend_hit_modifier(reaction, s["melee"], s["next_fight_phase_ended"])
    goal = z3.And(
        needed <= 6, needed >= 5, z3.Implies(reaction == HOLD, needed == 5), z3.Implies(reaction != HOLD, needed == 6),
        z3.Implies(reaction == DEFEND, z3.Not(fires)), z3.Implies(reaction != DEFEND, fires == s["otherwise_may"]),
        z3.Or(plus == 0, plus == 1),
        plus == z3.If(z3.And(reaction == DEFEND, s["melee"], z3.Not(s["next_fight_phase_ended"])), 1, 0))
    return [_between(reaction, NONE, DEFEND)], goal, s


@proof("missionpack-terrain-defence-line-reach", _ref("terrain/trait/defence-line"),
       "A Defence Line never spoils a charge or fight within Engagement Range, and beyond it only lets a charge end "
       "touching the feature within 2\" of a target within 1\" of it, and a unit fight a target across it within 2\".")
def _defence_line() -> Built:
    distance = z3.Real("distance_to_target")
    s = _bools("within_engagement_range target_within_1_of_feature ends_touching_feature target_on_opposite_side")
    charge = terrain.defence_line_charge_ends_validly(s["within_engagement_range"], s["target_within_1_of_feature"],
                                                      s["ends_touching_feature"], distance)
    fight = terrain.defence_line_may_fight(s["within_engagement_range"], s["target_on_opposite_side"], distance)
    engaged = s["within_engagement_range"]
    goal = z3.And(
        z3.Implies(engaged, z3.And(charge, fight)),
        z3.Implies(z3.And(charge, z3.Not(engaged)),
                   z3.And(distance <= 2, s["ends_touching_feature"], s["target_within_1_of_feature"])),
        z3.Implies(z3.And(fight, z3.Not(engaged)), z3.And(distance <= 2, s["target_on_opposite_side"])),
        z3.Implies(z3.And(distance <= 2, s["target_on_opposite_side"]), fight))
    return [distance >= 0], goal, {**s, "distance_to_target": distance}


# -- Breachable, Scalable, Unstable Position, Inspiring ------------------------------------------------------------


@proof("missionpack-terrain-breachable-only-infantry-beast-swarm",
       _ref("terrain/trait/breachable", "terrain/trait/scalable"),
       "Only INFANTRY, BEAST and SWARM models move through a feature's walls (Breachable) or floors (Scalable) "
       "without impediment, and they always can through a feature with the matching trait.")
def _breachable() -> Built:
    s = _bools("infantry_beast_swarm breachable scalable through_floors")
    through = terrain.moves_through_without_impediment(**s)
    trait = z3.If(s["through_floors"], s["scalable"], s["breachable"])
    goal = through == z3.And(s["infantry_beast_swarm"], trait)
    return [], goal, s


@proof("missionpack-terrain-scalable-who-ends-on-top", _ref("terrain/trait/scalable"),
       "On a Scalable feature, a model that is not INFANTRY, BEAST or SWARM and cannot FLY never ends a move on top "
       "(or on an upper floor); models that can FLY may; any model may on the ground floor.")
def _scalable() -> Built:
    s = _bools("on_top_or_upper_floor infantry_beast_swarm can_fly")
    allowed = terrain.scalable_allows_position(**s)
    goal = z3.And(
        z3.Implies(z3.And(s["on_top_or_upper_floor"], z3.Not(s["infantry_beast_swarm"]), z3.Not(s["can_fly"])),
                   z3.Not(allowed)),
        z3.Implies(s["can_fly"], allowed), z3.Implies(s["infantry_beast_swarm"], allowed),
        z3.Implies(z3.Not(s["on_top_or_upper_floor"]), allowed))
    return [], goal, s


@proof("missionpack-terrain-unstable-never-end-on-top", _ref("terrain/trait/unstable-position"),
       "No model is ever set up or ends a move on top of an Unstable Position feature, and any model may move over "
       "it.")
def _unstable() -> Built:
    s = _bools("on_top ends_move_or_set_up")
    allowed = terrain.unstable_position_allows_position(**s)
    goal = z3.And(z3.Implies(z3.And(s["on_top"], s["ends_move_or_set_up"]), z3.Not(allowed)),
                  z3.Implies(z3.Not(s["ends_move_or_set_up"]), allowed))
    return [], goal, s


@proof("missionpack-terrain-inspiring-bounded", _ref("terrain/trait/inspiring"),
       "Inspiring adds at most 1 to Leadership, nothing to a unit not wholly within 6\", and nothing to a unit "
       "without the bracketed keyword when the feature lists one.")
def _inspiring() -> Built:
    s = _bools("wholly_within_6 keywords_in_brackets unit_has_keyword")
    bonus = terrain.inspiring_leadership_bonus(**s)
    goal = z3.And(z3.Or(bonus == 0, bonus == 1), z3.Implies(z3.Not(s["wholly_within_6"]), bonus == 0),
                  z3.Implies(z3.And(s["keywords_in_brackets"], z3.Not(s["unit_has_keyword"])), bonus == 0),
                  z3.Implies(z3.And(s["wholly_within_6"], z3.Not(s["keywords_in_brackets"])), bonus == 1))
    return [], goal, s


# -- Controlling terrain features ----------------------------------------------------------------------------------

CONTROL = _ref("controlling-terrain-features")


def _control_inputs() -> tuple[list[Any], dict[str, Any]]:
    s = {name: z3.Int(name) for name in ("models", "opponent_models", "objective_secured",
                                         "opponent_objective_secured")}
    pre = [s["objective_secured"] >= 0, s["opponent_objective_secured"] >= 0,
           s["objective_secured"] <= s["models"], s["opponent_objective_secured"] <= s["opponent_models"]]
    return pre, s


def _marker(s: dict[str, Any]) -> Any:
    return objective_markers.control(s["models"], s["opponent_models"], s["objective_secured"],
                                     s["opponent_objective_secured"])


@proof("missionpack-terrain-area-control-never-both", CONTROL,
       "Area Terrain is controlled by at most one player: swapping the two players' counts swaps the controller, and "
       "a player with no models wholly on or within it never controls it.")
def _never_both() -> Built:
    pre, s = _control_inputs()
    mine = terrain.area_terrain_controller(s["models"], s["opponent_models"], s["objective_secured"],
                                           s["opponent_objective_secured"])
    theirs = terrain.area_terrain_controller(s["opponent_models"], s["models"], s["opponent_objective_secured"],
                                             s["objective_secured"])
    goal = z3.And(z3.Or(mine == 1, mine == 0, mine == -1), theirs == -mine,
                  z3.Implies(s["models"] == 0, mine != 1))
    return pre, goal, s


@proof("missionpack-terrain-area-control-like-marker-unless-both-secured",
       CONTROL + ("ninth:objective-markers", "ninth:objective-secured"),
       "Unless both players have Objective Secured models wholly on or within it, Area Terrain is controlled as an "
       "objective marker would be by the same models.")
def _like_marker() -> Built:
    pre, s = _control_inputs()
    area = terrain.area_terrain_controller(**s)
    goal = z3.Implies(z3.Or(s["objective_secured"] == 0, s["opponent_objective_secured"] == 0), area == _marker(s))
    return pre, goal, s


@proof("missionpack-terrain-area-control-equal-secured-like-marker",
       CONTROL + ("ninth:objective-markers", "ninth:objective-secured"),
       "With the same number of Objective Secured models on each side wholly on or within it, Area Terrain is "
       "controlled as an objective marker would be (by the player with more models).",
       expect="disproved")
def _equal_secured() -> Built:
    pre, s = _control_inputs()
    area = terrain.area_terrain_controller(**s)
    equal = z3.And(s["objective_secured"] >= 1, s["objective_secured"] == s["opponent_objective_secured"])
    return pre, z3.Implies(equal, area == _marker(s)), s


@proof("missionpack-terrain-obstacle-control-is-marker-control", CONTROL + ("ninth:objective-markers",),
       "An Obstacle is controlled exactly as an objective marker with the same models in range.")
def _obstacle() -> Built:
    pre, s = _control_inputs()
    obstacle = terrain.obstacle_controller(s["models"], s["opponent_models"], s["objective_secured"],
                                           s["opponent_objective_secured"])
    return pre, obstacle == _marker(s), s


# -- Storage Fane ------------------------------------------------------------------------------------------------

FANE = _ref("terrain/datasheet/storage-fane")


@proof("missionpack-terrain-ammunition-storage-half-rounded-down", FANE,
       "Ammunition Storage lets half the models with Grenades, rounding down, resolve attacks with them: never more "
       "than half, never a whole model less; a selected unit beats the usual one model exactly when it has four or "
       "more such models.")
def _half() -> Built:
    n, selected = z3.Int("models_equipped_with_grenades"), z3.Bool("selected")
    half = terrain.ammunition_storage_grenade_models(n)
    with_ability = terrain.grenade_models_this_phase(n, True)
    without = terrain.grenade_models_this_phase(n, False)
    goal = z3.And(2 * half <= n, n <= 2 * half + 1, with_ability == half,
                  (with_ability > without) == (n >= 4), without == z3.If(n >= 1, 1, 0),
                  terrain.grenade_models_this_phase(n, selected) <= n)
    return [n >= 0], goal, {"models_equipped_with_grenades": n, "selected": selected}


@proof("missionpack-terrain-ammunition-storage-rerolls-only-ones", FANE,
       "Ammunition Storage re-rolls only a hit roll of 1, only for a ranged attack by a model wholly within the "
       "Storage Fane.")
def _reroll() -> Built:
    roll = z3.Int("hit_roll")
    s = _bools("ranged wholly_within")
    rerolled = terrain.ammunition_storage_rerolls_hit(roll, s["ranged"], s["wholly_within"])
    goal = rerolled == z3.And(roll == 1, s["ranged"], s["wholly_within"])
    return [_between(roll, 1, 6)], goal, {"hit_roll": roll, **s}


@proof("missionpack-terrain-ammunition-storage-one-unit", FANE,
       "Ammunition Storage selects at most one unit, only at the start of its owner's Shooting phase and only one "
       "wholly within the Storage Fane.")
def _select() -> Built:
    already = z3.Int("units_already_selected")
    s = _bools("start_of_your_shooting_phase unit_wholly_within your_datasheet")
    may = terrain.may_select_for_ammunition_storage(s["start_of_your_shooting_phase"], s["unit_wholly_within"],
                                                    already, s["your_datasheet"])
    goal = z3.And(z3.Implies(already >= 1, z3.Not(may)),
                  z3.Implies(may, z3.And(s["start_of_your_shooting_phase"], s["unit_wholly_within"],
                                         s["your_datasheet"])))
    return [already >= 0], goal, {"units_already_selected": already, **s}
