"""Tactical Terrain (rules.missionpack.terrain): the proofs of properties/proofs_missionpack_terrain.py with their
verdicts and a broken copy for each proved one, hypothesis properties each failing on a plausible slip, the data
compared with the ingested pages, the decision tables' checks, and the recorded readings shown to differ."""

from __future__ import annotations

import dataclasses
import inspect
import re
from fractions import Fraction

import pytest
import z3
from hypothesis import given
from hypothesis import strategies as st

from properties import broken_rules
from properties import proofs
from properties import proofs_missionpack_terrain
from properties.mutation import fails
from rules import logic, spec
from rules.logic import And, If, Max, Not, Or, is_symbolic
from rules.missionpack import terrain
from rules.missionpack.terrain import Category, Trait
from rules.ninth import objective_markers
from rules40k import annotations

MINE = broken_rules.proofs_built_in(proofs_missionpack_terrain)
FINDINGS = {"missionpack-terrain-area-control-equal-secured-like-marker"}
SECTIONS = spec.sections("missionpack")


# -- Proofs -------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", MINE)
def test_terrain_proof_has_its_expected_verdict(name):
    item = proofs.PROOFS[name]
    result = proofs.check(item)
    assert result.status == item.expect == ("disproved" if name in FINDINGS else "proved"), result.detail
    if item.expect == "disproved":
        assert result.counterexample and result.example.startswith("@example(")


@pytest.mark.parametrize("name", MINE)
def test_terrain_proof_is_not_vacuous(name):
    """The preconditions can all hold at once, so "proved" is not proved about nothing."""
    pre, _goal, _symbols = proofs.PROOFS[name].build()
    solver = z3.Solver()
    solver.add(*pre)
    assert solver.check() == z3.sat


def _row(table: logic.DecisionTable, index: int, **changes) -> logic.DecisionTable:
    rows = list(table.rows)
    rows[index] = dataclasses.replace(rows[index], **changes)
    return dataclasses.replace(table, rows=tuple(rows))


T, C, A = terrain.TARGETING, terrain.COVER, terrain.AREA_TERRAIN_CONTROL


def _cover_bonus_heavy_on_ranged(light_cover, heavy_cover, ranged, receiving_cover, attacker_charged_this_turn,
                                 invulnerable):
    """Heavy Cover read as applying to the same (ranged) attacks as Light Cover."""
    light = If(light_cover, terrain.light_cover_save_bonus(ranged, receiving_cover, invulnerable), 0)
    heavy = If(heavy_cover, terrain.heavy_cover_save_bonus(ranged, receiving_cover, attacker_charged_this_turn,
                                                           invulnerable), 0)
    return light + heavy


# (proof, attribute of rules.missionpack.terrain, broken copy): each a plausible slip that must turn the proof red.
MUTANTS = [
    ("missionpack-terrain-only-enemy-buildings-attacked", "TARGETING", _row(T, 3, then=True)),
    ("missionpack-terrain-only-enemy-buildings-attacked", "TARGETING", _row(T, 2, then=True)),
    ("missionpack-terrain-cover-only-infantry-beast-swarm", "COVER",
     _row(C, 2, then=lambda within_3, clear_lines_to_whole_base, **_: And(within_3, Not(clear_lines_to_whole_base)))),
    ("missionpack-terrain-cover-only-infantry-beast-swarm", "COVER", _row(C, 4, then=True)),
    ("missionpack-terrain-cover-given-where-stated", "COVER",
     _row(C, 3, then=lambda infantry_beast_swarm, within_3, **_: And(infantry_beast_swarm, within_3))),
    ("missionpack-terrain-exposed-position-no-cover-on-top", "COVER", dataclasses.replace(C, rows=C.rows[1:])),
    ("missionpack-terrain-difficult-ground-bounded", "difficult_ground_max_move",
     lambda max_move, moves_over_feature, every_model_can_fly, move=1:
         If(And(moves_over_feature, Not(every_model_can_fly), move <= 4), max_move - 2, max_move)),
    ("missionpack-terrain-difficult-ground-bounded", "difficult_ground_max_move",
     lambda max_move, moves_over_feature, every_model_can_fly, move=1:
         If(And(moves_over_feature, Not(every_model_can_fly), move <= 4), Max(max_move - 3, 0), max_move)),
    ("missionpack-terrain-difficult-ground-which-moves", "difficult_ground_max_move",
     lambda max_move, moves_over_feature, every_model_can_fly, move=1:
         If(And(moves_over_feature, move <= 4), Max(max_move - 2, 0), max_move)),
    ("missionpack-terrain-difficult-ground-which-moves", "difficult_ground_max_move",
     lambda max_move, moves_over_feature, every_model_can_fly, move=1:
         If(And(moves_over_feature, Not(every_model_can_fly)), Max(max_move - 2, 0), max_move)),
    ("missionpack-terrain-dense-cover-minus-one-never-large-targets", "dense_cover_hit_modifier",
     lambda height_inches, ranged, clear_lines, only_own_feature_between, target_aircraft, target_highest_wounds:
         If(And(height_inches >= 3, ranged, Not(clear_lines), Not(only_own_feature_between), Not(target_aircraft),
                target_highest_wounds <= 18), -1, 0)),
    ("missionpack-terrain-dense-cover-from-three-inches", "dense_cover_hit_modifier",
     lambda height_inches, ranged, clear_lines, only_own_feature_between, target_aircraft, target_highest_wounds:
         If(And(height_inches > 3, ranged, Not(clear_lines), Not(only_own_feature_between), Not(target_aircraft),
                target_highest_wounds < 18), -1, 0)),
    ("missionpack-terrain-obscuring-never-hides-large-or-within", "obscuring_blocks_visibility",
     lambda height_inches, clear_line, observer_on_or_within, target_on_or_within, target_aircraft, target_wounds:
         And(height_inches >= 5, Not(clear_line), Not(observer_on_or_within), Not(target_aircraft),
             target_wounds < 18)),
    ("missionpack-terrain-obscuring-never-hides-large-or-within", "obscuring_blocks_visibility",
     lambda height_inches, clear_line, observer_on_or_within, target_on_or_within, target_aircraft, target_wounds:
         And(height_inches >= 5, Not(clear_line), Not(observer_on_or_within), Not(target_on_or_within),
             Not(target_aircraft), target_wounds <= 18)),
    ("missionpack-terrain-obscuring-from-five-inches", "obscuring_blocks_visibility",
     lambda height_inches, clear_line, observer_on_or_within, target_on_or_within, target_aircraft, target_wounds:
         And(height_inches > 5, Not(clear_line), Not(observer_on_or_within), Not(target_on_or_within),
             Not(target_aircraft), target_wounds < 18)),
    ("missionpack-terrain-light-cover-never-invulnerable", "light_cover_save_bonus",
     lambda ranged, receiving_cover, invulnerable: If(And(ranged, receiving_cover), 1, 0)),
    ("missionpack-terrain-heavy-cover-never-ranged-or-after-charge", "heavy_cover_save_bonus",
     lambda melee, receiving_cover, attacker_charged_this_turn, invulnerable:
         If(And(melee, receiving_cover, Not(invulnerable)), 1, 0)),
    ("missionpack-terrain-cover-bonus-at-most-one", "cover_save_bonus", _cover_bonus_heavy_on_ranged),
    ("missionpack-terrain-defensible-who-reacts", "defensible_reaction_allowed",
     lambda category, infantry_unit, every_model_on_or_in, every_model_within_3, closest_line_crosses_feature,
     within_engagement_range: And(infantry_unit, Or(And(category == 3, every_model_on_or_in),
                                                    And(category == 2, every_model_within_3,
                                                        closest_line_crosses_feature)))),
    ("missionpack-terrain-defensible-who-reacts", "defensible_reaction_allowed",
     lambda category, infantry_unit, every_model_on_or_in, every_model_within_3, closest_line_crosses_feature,
     within_engagement_range: And(infantry_unit, Not(within_engagement_range),
                                  Or(And(category == 3, every_model_on_or_in),
                                     And(category == 2, every_model_within_3)))),
    ("missionpack-terrain-defensible-reactions", "set_to_defend_hit_modifier",
     lambda reaction, melee, next_fight_phase_ended: If(And(reaction == 2, Not(next_fight_phase_ended)), 1, 0)),
    ("missionpack-terrain-defensible-reactions", "may_fire_overwatch", lambda reaction, otherwise_may: otherwise_may),
    ("missionpack-terrain-defence-line-reach", "defence_line_charge_ends_validly",
     lambda within_engagement_range, target_within_1_of_feature, ends_touching_feature, distance_to_target:
         Or(within_engagement_range, And(target_within_1_of_feature, ends_touching_feature, distance_to_target <= 3))),
    ("missionpack-terrain-defence-line-reach", "defence_line_may_fight",
     lambda within_engagement_range, target_on_opposite_side, distance_to_target:
         Or(within_engagement_range, And(target_on_opposite_side, distance_to_target < 2))),
    ("missionpack-terrain-breachable-only-infantry-beast-swarm", "moves_through_without_impediment",
     lambda infantry_beast_swarm, breachable, scalable=False, through_floors=False: And(infantry_beast_swarm,
                                                                                         breachable)),
    ("missionpack-terrain-scalable-who-ends-on-top", "scalable_allows_position",
     lambda on_top_or_upper_floor, infantry_beast_swarm, can_fly: Or(Not(on_top_or_upper_floor), infantry_beast_swarm)),
    ("missionpack-terrain-unstable-never-end-on-top", "unstable_position_allows_position",
     lambda on_top, ends_move_or_set_up=True: Not(on_top)),
    ("missionpack-terrain-inspiring-bounded", "inspiring_leadership_bonus",
     lambda wholly_within_6, keywords_in_brackets, unit_has_keyword: If(wholly_within_6, 1, 0)),
    ("missionpack-terrain-area-control-never-both", "AREA_TERRAIN_CONTROL",
     _row(A, 0, when=lambda objective_secured, opponent_objective_secured, **_:
          objective_secured >= opponent_objective_secured)),
    ("missionpack-terrain-area-control-never-both", "AREA_TERRAIN_CONTROL",
     _row(A, 2, when=lambda models, opponent_models, objective_secured, opponent_objective_secured:
          And(objective_secured == 0, opponent_objective_secured == 0, models >= opponent_models))),
    ("missionpack-terrain-area-control-like-marker-unless-both-secured", "AREA_TERRAIN_CONTROL",
     dataclasses.replace(A, rows=A.rows[2:])),
    ("missionpack-terrain-obstacle-control-is-marker-control", "obstacle_controller",
     lambda models_in_range, opponent_models_in_range, objective_secured_in_range,
     opponent_objective_secured_in_range: terrain.area_terrain_controller(
         models_in_range, opponent_models_in_range, objective_secured_in_range, opponent_objective_secured_in_range)),
    ("missionpack-terrain-ammunition-storage-half-rounded-down", "ammunition_storage_grenade_models",
     lambda n: (n + 1) / 2 if is_symbolic(n) else (n + 1) // 2),
    ("missionpack-terrain-ammunition-storage-half-rounded-down", "grenade_models_this_phase",
     lambda n, selected: If(selected, terrain.ammunition_storage_grenade_models(n), 1)),
    ("missionpack-terrain-ammunition-storage-rerolls-only-ones", "ammunition_storage_rerolls_hit",
     lambda hit_roll, ranged, wholly_within: And(ranged, wholly_within, hit_roll <= 2)),
    ("missionpack-terrain-ammunition-storage-one-unit", "may_select_for_ammunition_storage",
     lambda start_of_your_shooting_phase, unit_wholly_within, units_already_selected, your_datasheet=True:
         And(your_datasheet, start_of_your_shooting_phase, unit_wholly_within)),
    ("missionpack-terrain-ammunition-storage-one-unit", "may_select_for_ammunition_storage",
     lambda start_of_your_shooting_phase, unit_wholly_within, units_already_selected, your_datasheet=True:
         And(start_of_your_shooting_phase, unit_wholly_within, units_already_selected == 0)),
]


def test_every_proved_terrain_proof_has_a_mutant():
    assert {m[0] for m in MUTANTS} == set(MINE) - FINDINGS


@pytest.mark.parametrize("name,attribute,mutant", MUTANTS, ids=[f"{m[0]}[{m[1]}]" for m in MUTANTS])
def test_terrain_proof_catches_a_broken_rule(monkeypatch, name, attribute, mutant):
    broken_rules.assert_proof_catches(monkeypatch, name, terrain, attribute, mutant)


def test_equal_secured_finding_disappears_under_the_rejected_reading(monkeypatch):
    """Under the tie-falls-to-models reading (the fallback to model counts whenever Objective Secured does not
    decide) Area Terrain matches objective markers on an Objective Secured tie: the finding is exactly that choice."""
    rows = list(A.rows)
    rows[2] = dataclasses.replace(rows[2], when=lambda models, opponent_models, objective_secured,
                                  opponent_objective_secured: And(objective_secured == opponent_objective_secured,
                                                                  models > opponent_models))
    rows[3] = dataclasses.replace(rows[3], when=lambda models, opponent_models, objective_secured,
                                  opponent_objective_secured: And(objective_secured == opponent_objective_secured,
                                                                  opponent_models > models))
    monkeypatch.setattr(terrain, "AREA_TERRAIN_CONTROL", dataclasses.replace(A, rows=tuple(rows)))
    assert proofs.check(proofs.PROOFS["missionpack-terrain-area-control-equal-secured-like-marker"]).status == "proved"


# -- Hypothesis properties ------------------------------------------------------------------------------------------

inches = st.fractions(min_value=0, max_value=24, max_denominator=8)
#: Heights and Wounds characteristics, half of the time at the thresholds the traits name.
heights = inches | st.sampled_from([Fraction(2), Fraction(3), Fraction(5), Fraction(49, 10)])
wounds = st.integers(1, 30) | st.sampled_from([17, 18])


@pytest.mark.refs("missionpack:terrain/trait/difficult-ground")
@given(inches, st.booleans(), st.booleans(), st.sampled_from(list(terrain.Move)))
def test_difficult_ground_never_negative_or_increased(max_move, over, fly, move):
    """Difficult Ground never gives a negative maximum move, never a greater one, and takes at most 2" off."""
    result = terrain.difficult_ground_max_move(max_move, over, fly, move)
    assert 0 <= result <= max_move
    assert result >= max_move - 2


@pytest.mark.refs("missionpack:controlling-terrain-features")
@given(st.integers(0, 12), st.integers(0, 12), st.data())
def test_area_terrain_never_controlled_by_both_players(models, opponent_models, data):
    """Seen from either player, Area Terrain has one controller at most: the two views never both claim it."""
    secured = data.draw(st.integers(0, models))
    opponent_secured = data.draw(st.integers(0, opponent_models))
    mine = terrain.area_terrain_controller(models, opponent_models, secured, opponent_secured)
    theirs = terrain.area_terrain_controller(opponent_models, models, opponent_secured, secured)
    assert mine in (1, 0, -1)
    assert theirs == -mine


@pytest.mark.refs("missionpack:terrain/trait/dense-cover")
@given(heights, st.booleans(), st.booleans(), st.booleans(), st.booleans(), wounds)
def test_dense_cover_only_ever_minus_one(height, ranged, clear, own, aircraft, w):
    """Dense Cover gives -1 or nothing, never against AIRCRAFT or a unit with a model of Wounds 18+, never below 3"."""
    modifier = terrain.dense_cover_hit_modifier(height, ranged, clear, own, aircraft, w)
    assert modifier in (0, -1)
    if aircraft or w >= 18 or height < 3 or not ranged:
        assert modifier == 0


@pytest.mark.refs("missionpack:terrain/trait/light-cover", "missionpack:terrain/trait/heavy-cover")
@given(st.booleans(), st.booleans(), st.booleans(), st.booleans(), st.booleans(), st.booleans())
def test_cover_never_improves_an_invulnerable_save(light, heavy, ranged, cover, charged, invulnerable):
    """Neither Light Cover nor Heavy Cover ever adds to an invulnerable saving throw, and together at most 1."""
    bonus = terrain.cover_save_bonus(light, heavy, ranged, cover, charged, invulnerable)
    assert 0 <= bonus <= 1
    if invulnerable:
        assert bonus == 0


@pytest.mark.refs("missionpack:terrain/datasheets", "missionpack:terrain/traits")
@given(st.lists(st.sampled_from([t.printed for t in Trait]), unique=True, max_size=5),
       st.text(alphabet="abcdefghijklmnopqrstuvwxyz ", min_size=3, max_size=12))
def test_datasheet_traits_must_exist(traits, invented):
    """A datasheet listing only terrain traits is fine; adding a name that is no trait is a problem."""
    sheet = dataclasses.replace(terrain.STORAGE_FANE, traits=tuple(traits))
    assert terrain.datasheet_problems(sheet) == []
    if " ".join(invented.lower().split()) in {t.printed.lower() for t in Trait} or not invented.strip():
        return
    broken = dataclasses.replace(sheet, traits=tuple(traits) + (invented,))
    assert any("is not a terrain trait" in p for p in terrain.datasheet_problems(broken))


PROPERTY_MUTANTS = [
    (test_difficult_ground_never_negative_or_increased, "difficult_ground_max_move",
     lambda max_move, moves_over_feature, every_model_can_fly, move=1:
         If(And(moves_over_feature, Not(every_model_can_fly)), max_move - 2, max_move)),
    (test_area_terrain_never_controlled_by_both_players, "AREA_TERRAIN_CONTROL",
     _row(A, 0, when=lambda objective_secured, opponent_objective_secured, **_:
          objective_secured >= opponent_objective_secured)),
    (test_dense_cover_only_ever_minus_one, "dense_cover_hit_modifier",
     lambda height_inches, ranged, clear_lines, only_own_feature_between, target_aircraft, target_highest_wounds:
         If(And(height_inches >= 3, ranged, Not(clear_lines), Not(only_own_feature_between), Not(target_aircraft),
                target_highest_wounds <= 18), -1, 0)),
    (test_cover_never_improves_an_invulnerable_save, "light_cover_save_bonus",
     lambda ranged, receiving_cover, invulnerable: If(And(ranged, receiving_cover), 1, 0)),
    (test_datasheet_traits_must_exist, "feature_traits",
     lambda printed: tuple(terrain.trait_named(p) for p in printed if p.title() in {t.printed for t in Trait})),
]


@pytest.mark.parametrize("check,attribute,mutant", PROPERTY_MUTANTS, ids=[m[0].__name__ for m in PROPERTY_MUTANTS])
def test_terrain_property_catches_a_broken_rule(monkeypatch, check, attribute, mutant):
    assert not fails(check, max_examples=100)
    monkeypatch.setattr(terrain, attribute, mutant)
    assert fails(check)


# -- Data against the ingested pages --------------------------------------------------------------------------------


def _line(text: str, label: str) -> str:
    match = re.search(rf"^{label}: (.+)$", text, re.MULTILINE)
    assert match, f"no {label!r} line"
    return match[1].strip()


@pytest.mark.parametrize("feature", terrain.COMMON_FEATURES, ids=[f.name for f in terrain.COMMON_FEATURES])
def test_common_feature_matches_its_page(feature):
    """Number, category and traits (names, order, brackets) as the ingested entry prints them."""
    section = SECTIONS[feature.ref]
    assert section["attributes"]["number"] == feature.number
    assert section["title"].lower() == feature.name.lower()
    assert _line(section["text"], "Terrain Category") == feature.category
    assert [t.strip() for t in _line(section["text"], "Terrain Traits").split(",")] == list(feature.traits)


def test_common_features_are_all_the_entries():
    printed = sorted(ref for ref in SECTIONS if ref.startswith("terrain/common/"))
    assert sorted(f.ref for f in terrain.COMMON_FEATURES) == printed


def test_a_common_feature_with_an_unknown_trait_is_rejected():
    broken = dataclasses.replace(terrain.COMMON_FEATURES[0], traits=("Scalable", "Fortified"))
    with pytest.raises(ValueError, match="Ruins: 'Fortified' is not a terrain trait"):
        terrain.validate_common_features((broken,) + terrain.COMMON_FEATURES[1:])


def test_every_trait_and_category_is_an_entry():
    for trait in Trait:
        assert SECTIONS[trait.ref]["title"] == trait.printed
    for category, ref in terrain.CATEGORY_REFS.items():
        assert SECTIONS[ref]["title"] == terrain.CATEGORY_NAMES[category]
    assert [t.printed for t in Trait] == [SECTIONS[r]["title"] for r in SECTIONS if r.startswith("terrain/trait/")]


def test_storage_fane_matches_its_datasheet():
    text = SECTIONS["terrain/datasheet/storage-fane"]["text"]
    sheet = terrain.STORAGE_FANE
    assert f"{sheet.terrain_points} TERRAIN POINTS" in text
    assert f"consists of {sheet.features} Storage Fane terrain feature" in text
    assert f"A Storage Fane is an {sheet.category} feature" in text
    assert re.findall(r"^- (.+)$", text, re.MULTILINE) == list(sheet.traits)
    assert _line(text, "BATTLEZONE KEYWORDS").split(", ") == list(sheet.battlezone_keywords)
    assert _line(text, "OTHER KEYWORDS").split(", ") == list(sheet.other_keywords)
    assert [name for name, _ in sheet.abilities] == re.findall(r"^([A-Z][a-z]+ [A-Z][a-z]+): ", text, re.MULTILINE)


def test_hills_and_buildings_are_not_controlled():
    for category in ("Hills", Category.BUILDINGS):
        with pytest.raises(ValueError, match="not terrain features"):
            terrain.terrain_feature_controller(category, 3, 1, 0, 0)


def test_obstacle_and_area_control_differ_as_written():
    """Two Objective Secured models out of two beat one Objective Secured model with nineteen others on Area Terrain,
    but lose an Obstacle (the counts decide when both sides have the ability)."""
    assert terrain.terrain_feature_controller("Area Terrain", 2, 20, 2, 1) == 1
    assert terrain.terrain_feature_controller("Obstacles", 2, 20, 2, 1) == objective_markers.control(2, 20, 2, 1) == -1


@pytest.mark.parametrize("table", [T, C, A], ids=lambda t: t.name)
def test_terrain_table_has_no_gap_or_conflict(table):
    report = logic.check_table(table)
    assert report.ok, report.problems()
    assert logic.enumerate_agreement(table) == []


def test_concrete_and_symbolic_agree_on_the_trait_functions():
    """Each trait function gives the same answer on Python values as on z3 constants built from them."""
    cases = [
        (terrain.dense_cover_hit_modifier, dict(height_inches=3, ranged=True, clear_lines=False,
                                                only_own_feature_between=False, target_aircraft=False,
                                                target_highest_wounds=17)),
        (terrain.obscuring_blocks_visibility, dict(height_inches=5, clear_line=False, observer_on_or_within=False,
                                                   target_on_or_within=False, target_aircraft=False, target_wounds=1)),
        (terrain.difficult_ground_max_move, dict(max_move=1, moves_over_feature=True, every_model_can_fly=False,
                                                 move=4)),
        (terrain.ammunition_storage_grenade_models, dict(models_equipped_with_grenades=5)),
        (terrain.area_terrain_controller, dict(models=3, opponent_models=10, objective_secured=2,
                                               opponent_objective_secured=2)),
        (terrain.obstacle_controller, dict(models_in_range=3, opponent_models_in_range=10,
                                           objective_secured_in_range=2, opponent_objective_secured_in_range=2)),
    ]
    for function, inputs in cases:
        assert logic.evaluate_symbolically(function, inputs) == function(**inputs), function.__name__


# -- Recorded readings -------------------------------------------------------------------------------------------

RECORDS = {r["id"]: r for r in annotations.interpretations("missionpack")}
FINDING_RECORDS = {f["id"]: f for f in annotations.findings("missionpack")}


def test_equal_objective_secured_gives_terrain_to_neither():
    record = RECORDS["area-terrain-equal-objective-secured"]
    chosen = terrain.area_terrain_controller(10, 3, 2, 2)
    tie_falls_to_models = 1  # 10 models against 3
    assert record["chosen"] == "literal"
    assert (chosen, tie_falls_to_models) == (0, 1)
    finding = FINDING_RECORDS["area-terrain-equal-objective-secured"]
    assert finding["check"] == "proof:missionpack-terrain-area-control-equal-secured-like-marker"
    assert finding["interpretation"] == record["id"]


def test_models_within_obscuring_see_out():
    assert RECORDS["obscuring-models-within-see-out"]["chosen"] == "see-and-be-seen"
    chosen = terrain.obscuring_blocks_visibility(6, False, True, False, False, 1)
    seen_only_reading = True  # the prose exempts only the model within from being hidden
    assert (chosen, seen_only_reading) == (False, True)


def test_only_the_owner_uses_ammunition_storage():
    assert RECORDS["ammunition-storage-owner"]["chosen"] == "owner"
    # The opponent of the player whose collection includes the Storage Fane, at the start of their own Shooting
    # phase, with a unit wholly within it:
    chosen = terrain.may_select_for_ammunition_storage(True, True, 0, your_datasheet=False)
    either_player_reading = True
    assert (chosen, either_player_reading) == (False, True)


def test_every_interpretation_named_in_terrain_code_is_recorded():
    named = set()
    for value in vars(terrain).values():
        if inspect.isfunction(value) and value.__module__ == terrain.__name__:
            named.update(re.findall(r"Interpretation:\s*([a-z0-9-]+)", value.__doc__ or ""))
    assert named == {"area-terrain-equal-objective-secured", "obscuring-models-within-see-out",
                     "ammunition-storage-owner"}
    assert named <= set(RECORDS)


# -- Gaps the mutation run found (issue 11) ---------------------------------------------------------------------------


@pytest.mark.refs("missionpack:terrain/categories", "missionpack:terrain/trait/defensible",
                  "missionpack:terrain/trait/difficult-ground")
def test_numbers_the_examples_use_name_the_members_they_say():
    """terrain.yaml's header writes categories, Defensible reactions and moves as numbers (1 Hills .. 4 Buildings,
    0 none .. 2 Set to Defend, 1 Normal .. 5 any other), and the Difficult Ground proof ranges over Normal..Other:
    each member must carry its number, or an example's number would name another member or none."""
    assert {c.name: int(c) for c in Category} == {"HILLS": 1, "OBSTACLES": 2, "AREA_TERRAIN": 3, "BUILDINGS": 4}
    assert {r.name: int(r) for r in terrain.Reaction} == {"NONE": 0, "HOLD_STEADY": 1, "SET_TO_DEFEND": 2}
    assert {m.name: int(m) for m in terrain.Move} == {"NORMAL": 1, "ADVANCE": 2, "FALL_BACK": 3, "CHARGE": 4,
                                                      "OTHER": 5}


DATASHEET_CASES = [  # (changed fields of the Storage Fane, the one problem expected)
    ({"terrain_points": 0}, None),
    ({"terrain_points": -5}, "its terrain points -5 are not a whole number of 0 or more"),
    ({"terrain_points": "40"}, "its terrain points '40' are not a whole number of 0 or more"),
    ({"features": 0}, "it comprises 0 terrain features, not one or more"),
    ({"abilities": (("Ammunition Storage",),)}, "ability ('Ammunition Storage',) needs a name and its rules"),
    ({"abilities": (("  ", "re-roll hit rolls of 1"),)}, "ability ('  ', 're-roll hit rolls of 1') needs a name"),
    ({"other_keywords": ("TERRAIN", "Area")}, "'Area' is not a keyword (keywords are printed in capitals)"),
    ({"traits": ("Light Cover", "Scalable", "Light Cover")}, "terrain trait listed twice: Light Cover"),
]


@pytest.mark.refs("missionpack:terrain/datasheets", "missionpack:terrain/traits")
def test_a_datasheet_with_one_fault_has_exactly_that_problem():
    """Each field of a Tactical Terrain datasheet is checked on its own: one fault is one sentence naming the
    datasheet (terrain points are a number, 0 included; a feature at least; abilities named, with their rules;
    keywords in capitals; a trait once), and ``validate_datasheet`` refuses the sheet with its first problem."""
    for change, problem in DATASHEET_CASES:
        sheet = dataclasses.replace(terrain.STORAGE_FANE, **change)
        found = terrain.datasheet_problems(sheet)
        if problem is None:
            assert found == [] and terrain.validate_datasheet(sheet) is sheet
            continue
        assert len(found) == 1 and found[0].startswith(f"Storage Fane: {problem}"), (change, found)
        with pytest.raises(ValueError, match=re.escape(found[0])):
            terrain.validate_datasheet(sheet)
    twice = dataclasses.replace(terrain.STORAGE_FANE, description=" ", features=0)
    with pytest.raises(ValueError, match=r"^Storage Fane: it has no description$"):
        terrain.validate_datasheet(twice)
