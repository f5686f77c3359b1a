"""The z3 proofs of properties/proofs_terrain.py: each holds (or, for a finding, fails) for the real rules, and each
is disproved for a plausible slip in the rule it rests on, with a ready-to-paste ``@example(...)``.

Decision-table mutants are whole tables rebuilt with ``dataclasses.replace`` and monkeypatched over the module
attribute, so the rule function that calls the table picks up the broken copy.
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import pytest
import z3

from properties import proofs, proofs_terrain
from rules import battlefield
from rules.core import core_abilities, monsters_and_vehicles, other_rules, strategic_reserves, terrain
from rules.logic import And, DecisionTable, If, Max, Not, Or
from rules.model import Placed

TERRAIN_PROOFS = sorted(name for name, item in proofs.load_all().items()
                        if item.build.__module__ == proofs_terrain.__name__)
FINDINGS = {"end-move-rules-never-disagree", "scouts-as-printed-stays-within-every-models-reach"}


def _condition(table: DecisionTable, index: int, when) -> DecisionTable:
    rows = list(table.rows)
    rows[index] = dataclasses.replace(rows[index], when=when)
    return dataclasses.replace(table, rows=tuple(rows))


def _rows(table: DecisionTable, order) -> DecisionTable:
    return dataclasses.replace(table, rows=tuple(table.rows[i] for i in order))


TM, EM, VIS = terrain.TERRAIN_MOVEMENT, terrain.END_OF_MOVE_SURFACE, terrain.VISIBILITY
MTM, SO = monsters_and_vehicles.MOVE_THROUGH_MODELS, core_abilities.SCOUTS_OPTION
DENSE = battlefield.Category.DENSE

# (proof, module, attribute, broken copy): each a slip someone could make writing the rule.
MUTANTS = [
    ("terrain-movement-always-answers", terrain, "TERRAIN_MOVEMENT", _rows(TM, range(len(TM.rows) - 1))),
    ("infantry-moves-through-all-terrain", terrain, "TERRAIN_MOVEMENT",
     _condition(TM, 2, lambda vertical, infantry_beasts_swarm, section_height, **_:
                And(vertical, infantry_beasts_swarm, section_height <= 2))),
    ("exposed-and-light-never-hinder", terrain, "TERRAIN_MOVEMENT",
     _condition(TM, 0, lambda category, **_: category == battlefield.Category.EXPOSED)),
    ("terrain-movement-monotone", terrain, "TERRAIN_MOVEMENT",
     _condition(TM, 3, lambda vertical, section_height, **_: And(Not(vertical), section_height == 2))),
    ("dense-climb-only-above-two-inches", terrain, "TERRAIN_MOVEMENT",
     _condition(TM, 3, lambda vertical, section_height, **_: And(Not(vertical), section_height < 2))),
    ("end-move-above-ground-needs-keyword", terrain, "END_OF_MOVE_SURFACE", _rows(EM, (1, 2, 0, 3))),
    ("visible-only-along-an-unobscured-line", terrain, "VISIBILITY", _rows(VIS, (0, 2, 3, 4))),
    ("hidden-unseen-beyond-detection-range", terrain, "VISIBILITY",
     _condition(VIS, 2, lambda target_hidden, within_detection_range, **_:
                And(target_hidden, Not(within_detection_range)))),
    ("lone-operative-visibility-agrees", terrain, "VISIBILITY",
     _condition(VIS, 3, lambda lone_operative, within_lone_operative_range, **_:
                And(lone_operative, Not(within_lone_operative_range)))),
    ("hidden-needs-terrain-and-quiet", terrain, "model_hidden",
     lambda infantry_beasts_or_swarm, within_area_with_dense_feature, unit_made_ranged_attacks_recently:
     And(infantry_beasts_or_swarm, within_area_with_dense_feature)),
    ("obscuring-needs-light-or-dense", terrain, "is_obscuring_area",
     lambda feature_categories: Or(*(c == DENSE for c in feature_categories))),
    ("solid-only-at-three-inches-or-less", terrain, "gap_blocks_sight",
     lambda solid, height_above_ground, solid_height=3: And(solid, height_above_ground < solid_height)),
    ("enemy-monster-vehicle-blocks-ordinary-moves", monsters_and_vehicles, "MOVE_THROUGH_MODELS",
     _condition(MTM, 1, lambda mover_monster_or_vehicle, normal_or_advance, **_:
                And(mover_monster_or_vehicle, normal_or_advance))),
    ("monster-vehicle-through-infantry-in-normal-moves", monsters_and_vehicles, "MOVE_THROUGH_MODELS",
     _condition(MTM, 1, lambda mover_monster_or_vehicle, other_monster_or_vehicle, normal_or_advance, fall_back, **_:
                And(mover_monster_or_vehicle, Or(normal_or_advance, fall_back), Not(other_monster_or_vehicle)))),
    ("walker-never-through-enemy-titanic", monsters_and_vehicles, "MOVE_THROUGH_MODELS",
     _condition(MTM, 2, lambda super_heavy_walker, normal_or_advance, fall_back, **_:
                And(super_heavy_walker, Or(normal_or_advance, fall_back)))),
    ("move-through-table-checked-over-every-move-type", monsters_and_vehicles, "MOVE_THROUGH_MODELS",
     dataclasses.replace(MTM, assume=lambda normal_or_advance, fall_back, **_: Not(Or(normal_or_advance, fall_back)))),
    ("walker-battle-shock-only-with-mobile-on-a-one", core_abilities, "walker_battle_shocked",
     lambda chose_mobile, roll: And(chose_mobile, roll <= 2)),
    ("aura-bearer-always-in-range", other_rules, "in_aura_range",
     lambda bearer_on_battlefield, is_bearer, within_range: And(bearer_on_battlefield, within_range)),
    ("wargear-until-bearer-destroyed", other_rules, "wargear_ability_applies",
     lambda held_by_a_model, bearer_destroyed: Not(bearer_destroyed)),
    ("deadly-demise-only-on-a-six", core_abilities, "deadly_demise_triggers", lambda roll: roll >= 5),
    ("deep-strike-widens-ingress", core_abilities, "deep_strike_position_allowed",
     lambda every, edges, more8, opp, battle_round: If(every, Not(opp), strategic_reserves.ingress_position_allowed(
         edges, more8, opp, battle_round))),
    ("fights-first-needs-every-model", core_abilities, "fights_first_unit", lambda flags: Or(*flags)),
    ("firing-deck-needs-passengers", core_abilities, "firing_deck_applies",
     lambda own_shooting_phase, transport_selected_to_shoot, units_embarked:
     And(own_shooting_phase, transport_selected_to_shoot, units_embarked >= 0)),
    ("hover-agrees-with-taking-to-the-skies", core_abilities, "skies_distance_penalty", lambda hover: If(hover, 1, 2)),
    ("infiltrators-keep-their-distance", core_abilities, "infiltrators_may_set_up",
     lambda every, deploying, zone, enemies: And(every, deploying, Or(zone, enemies))),
    ("scouts-options-need-every-model", core_abilities, "SCOUTS_OPTION", _rows(SO, (1, 2, 3, 0, 4))),
    ("scouts-chosen-within-every-models-reach", core_abilities, "scouts_distance_of",
     lambda has, values: Max(*(Max(*(If(f, v, 0) for f, v in zip(row, values))) for row in has))),
    ("scout-move-ends-beyond-eight", core_abilities, "scout_move_can_end",
     lambda more_than_8_from_enemy_units, moved_inches, scouts_x: more_than_8_from_enemy_units),
    ("objective-marker-range-to-its-edge", battlefield, "objective_marker",
     lambda x, y, z=0, name="": Placed(x, y, base_mm=0, z=z)),
]


def _ids(mutants):
    return [f"{name}[{attribute}]" for name, _module, attribute, _mutant in mutants]


@pytest.mark.parametrize("name", TERRAIN_PROOFS)
def test_terrain_proof_verdict(name):
    """Every proof here is proved for the real rules, except the findings, which are disproved as expected."""
    item = proofs.PROOFS[name]
    result = proofs.check(item)
    assert result.status == item.expect == ("disproved" if name in FINDINGS else "proved"), result.detail


@pytest.mark.parametrize("name,module,attribute,mutant", MUTANTS, ids=_ids(MUTANTS))
def test_terrain_proof_catches_a_broken_rule(monkeypatch, name, module, attribute, mutant):
    assert proofs.check(proofs.PROOFS[name]).status == "proved"
    monkeypatch.setattr(module, attribute, mutant)
    result = proofs.check(proofs.PROOFS[name])
    assert result.status == "disproved", result.detail
    assert result.example.startswith("@example(") and result.counterexample


def test_every_terrain_proof_has_a_mutant():
    assert {m[0] for m in MUTANTS} == set(TERRAIN_PROOFS) - FINDINGS


@pytest.mark.parametrize("name", TERRAIN_PROOFS)
def test_terrain_proof_is_not_vacuous(name):
    """The preconditions can all hold at once, so "proved" is not proved about nothing."""
    pre, _goal, _symbols = proofs.PROOFS[name].build()
    solver = z3.Solver()
    solver.add(*pre)
    assert solver.check() == z3.sat


def test_end_move_finding_needs_the_monster_and_fly_keywords(monkeypatch):
    """The disagreement comes from MONSTER and FLY in the keyword list: without them the two rules never clash."""
    monkeypatch.setattr(terrain, "upper_surface_keyword_flags", lambda infantry_beasts_swarm, fly, monster:
                        infantry_beasts_swarm)
    assert proofs.check(proofs.PROOFS["end-move-rules-never-disagree"]).status == "proved"


def test_end_move_finding_counterexample_is_a_climbing_flyer_or_monster():
    result = proofs.check(proofs.PROOFS["end-move-rules-never-disagree"])
    cx = result.counterexample
    assert result.status == "disproved"
    assert (cx["monster"] or cx["fly"]) and not cx["infantry_beasts_swarm"] and not cx["mobile"]
    assert Fraction(cx["section_height"].removeprefix("Fraction(").rstrip(")").replace(", ", "/")) > 2


def test_scouts_as_printed_reproduces_the_books_examples():
    """The literal reading gives the book's answers (8" and 6"), so only z3's counterexample tells the readings apart."""
    def printed(model_scouts):
        values = sorted({v for s in model_scouts for v in s})
        return proofs_terrain.scouts_distance_as_printed([[v in s for v in values] for s in model_scouts], values)

    assert printed([[6, 8]] * 6) == 8 == core_abilities.scouts_distance([[6, 8]] * 6)
    assert printed([[6]] + [[8]] * 5) == 6 == core_abilities.scouts_distance([[6]] + [[8]] * 5)
    assert (printed([[6, 8], [6, 8, 9]]), core_abilities.scouts_distance([[6, 8], [6, 8, 9]])) == (9, 8)


def test_terrain_proofs_rest_on_known_sections():
    from rules import spec

    sections = spec.sections("core")
    for name in TERRAIN_PROOFS:
        assert set(proofs.PROOFS[name].refs) <= set(sections), name
