"""The quick-reference sheet's claims (ruleset ``quickref``): z3 proofs and hypothesis properties, each shown
failing on a broken copy of the rule it checks; the sheet's tables against the ingested text cell by cell; the
concept map against the coverage ledger; and the recorded readings shown to matter on a concrete case."""

from __future__ import annotations

import dataclasses
import re

import pytest
from hypothesis import given, note, strategies as st

from properties import broken_rules
from properties import mutation
from properties import proofs_quickref  # noqa: F401  (registers the proofs)
from rules import logic, registry, spec
from rules.logic import And, If, Not, Or
from rules.quickref import (abilities, charge, fight, movement, reference, sequence, shooting, stratagems, terrain,
                            transports)
from rules40k import annotations, compare, coverage

RULESET = "quickref"
MINE = broken_rules.proofs_built_in(proofs_quickref)


# -- z3 proofs -----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", MINE)
def test_quickref_proof_has_its_expected_verdict(name):
    broken_rules.assert_expected_verdict(name)


def _wound_table_less_and_half_swapped():
    """The 5+ and 6+ cells exchanged: a plausible transcription slip."""
    rows = []
    for row in shooting.WOUND_TABLE.rows:
        if row.label.startswith("Strength is LESS"):
            row = dataclasses.replace(row, then=6)
        elif row.label.startswith("Strength is HALF"):
            row = dataclasses.replace(row, then=5)
        rows.append(row)
    return dataclasses.replace(shooting.WOUND_TABLE, rows=tuple(rows))


def _grenade_on_threes(d1, d2, d3, d4, d5, d6, enemy_engaged, distance, visible):
    allowed = And(Not(enemy_engaged), distance <= 8, visible)
    wounds = sum(If(d >= 3, 1, 0) for d in (d1, d2, d3, d4, d5, d6))
    return allowed, If(allowed, wounds, 0)


# (proof, module, attribute, broken copy): each a plausible slip that must turn the proof "disproved".
MUTANTS = [
    ("quickref-wound-roll-monotone", shooting, "WOUND_TABLE", _wound_table_less_and_half_swapped()),
    ("quickref-sixes-and-ones-beat-modifiers", shooting, "capped_modifier", lambda total: total),
    ("quickref-below-half-strength-is-strict", sequence, "below_half_strength",
     lambda starting_strength, models, wounds=1, w=1: If(starting_strength == 1, 2 * wounds <= w,
                                                         2 * models <= starting_strength)),
    ("quickref-control-symmetric", sequence, "controller", lambda level_1, level_2: If(level_1 >= level_2, 1, 2)),
    ("quickref-strategic-reserves-a-quarter", movement, "strategic_reserves_allowed",
     lambda reserves_points, army_points, fortification: And(3 * reserves_points <= army_points, Not(fortification))),
    ("quickref-advance-adds-one-to-six", movement, "advance_distance", lambda m, advance_roll: m + advance_roll + 1),
    ("quickref-disembarking-close-is-safer", transports, "DESTROYED_TRANSPORT_TABLE",
     (('Wholly within 3"', 1, 3), ('Wholly within 6"', 1, 1))),
    ("quickref-saves-monotone", shooting, "save_fails",
     lambda roll, ap, save, modifier=0: Or(roll == 1, roll - ap < save)),
    ("quickref-heavy-only-when-stationary", abilities, "heavy_hit_modifier",
     lambda moved_inches, set_up_this_turn, engaged: If(And(moved_inches <= 3, Not(set_up_this_turn)), 1, 0)),
    ("quickref-grenade-counts-fours", stratagems, "grenade", _grenade_on_threes),
]


def test_every_proved_quickref_proof_has_a_mutant():
    broken_rules.assert_every_proved_proof_has_a_mutant(MINE, MUTANTS)


@pytest.mark.parametrize("name,module,attribute,mutant", MUTANTS, ids=[f"{m[0]}:{m[2]}" for m in MUTANTS])
def test_quickref_proof_catches_a_broken_rule(monkeypatch, name, module, attribute, mutant):
    broken_rules.assert_proof_catches(monkeypatch, name, module, attribute, mutant)


# -- Hypothesis properties -----------------------------------------------------------------------------------------

ocs = st.integers(0, 5)


@pytest.mark.refs("quickref:objectives/level-of-control")
@given(st.lists(ocs, max_size=10), ocs)
def test_quickref_level_of_control_adds_up(in_range, newcomer):
    """Adding a model within range adds exactly its OC, whatever order the models are counted in."""
    level = sequence.level_of_control(in_range)
    note(f"OCs {in_range} give {level}; with {newcomer} more")
    assert level >= 0
    assert sequence.level_of_control(in_range + [newcomer]) == level + newcomer
    assert sequence.level_of_control(list(reversed(in_range))) == level


@st.composite
def falling_back(draw):
    models = draw(st.integers(1, 10))
    return models, draw(st.integers(0, models)), draw(st.booleans()), draw(st.booleans())


@pytest.mark.refs("quickref:movement/desperate-escape-who")
@given(falling_back())
def test_quickref_desperate_escape_tests_stay_within_the_unit(unit):
    """At most one test per model; every model of a Battle-shocked unit; none when no model crosses an enemy."""
    models, over, shocked, fly = unit
    tests = movement.desperate_escape_tests(models, over, shocked, fly)
    note(f"{models} models, {over} over enemies, battle-shocked {shocked}, fly {fly}: {tests} tests")
    assert 0 <= tests <= models
    if shocked:
        assert tests == models
    if not shocked and over == 0:
        assert tests == 0


@pytest.mark.refs("quickref:charge/select-targets", "quickref:charge/targets-within-12")
@given(st.integers(0, 20), st.integers(2, 12), st.integers(2, 12))
def test_quickref_charge_targets_do_not_wait_for_the_roll(distance, roll, other_roll):
    """Targets are chosen when the charge is declared: any unit within 12", whatever the Charge roll turns out."""
    chosen = charge.may_select_charge_target(distance, roll)
    assert chosen == charge.may_select_charge_target(distance, other_roll)
    assert chosen == (distance <= 12)


@pytest.mark.refs("quickref:coherency")
@given(st.integers(2, 20), st.integers(0, 4), st.integers(0, 4))
def test_quickref_bigger_units_need_more_neighbours(models, fewest, more):
    """More neighbours never break coherency; 2-6 models need one within 2", 7+ need two."""
    if more >= fewest and reference.in_coherency(models, fewest):
        assert reference.in_coherency(models, more)
    assert reference.in_coherency(models, 1) == (models <= 6)
    assert reference.in_coherency(models, 2)


@pytest.mark.refs("quickref:strategic-reserves/round-2", "quickref:strategic-reserves/round-3")
@given(st.integers(2, 5), st.booleans(), st.booleans())
def test_quickref_enemy_zone_opens_in_round_three(battle_round, edge, enemy_zone):
    """Wholly within 6" of an edge is always needed; the enemy deployment zone is barred in round 2 only."""
    allowed = movement.strategic_reserves_position_allowed(battle_round, edge, enemy_zone)
    assert allowed == (edge and (battle_round >= 3 or not enemy_zone))


BROKEN = [
    (test_quickref_level_of_control_adds_up, sequence, "level_of_control",
     lambda ocs_in_range: max(ocs_in_range, default=0)),
    (test_quickref_desperate_escape_tests_stay_within_the_unit, movement, "desperate_escape_tests",
     lambda models, moving_over_enemy, battle_shocked, fly: If(fly, 0, moving_over_enemy)),
    (test_quickref_charge_targets_do_not_wait_for_the_roll, charge, "may_select_charge_target",
     lambda distance, charge_roll: And(distance <= 12, distance <= charge_roll)),
    (test_quickref_bigger_units_need_more_neighbours, reference, "in_coherency",
     lambda models, fewest_other_models_within_2: fewest_other_models_within_2 >= 1),
    (test_quickref_enemy_zone_opens_in_round_three, movement, "strategic_reserves_position_allowed",
     lambda battle_round, wholly_within_6_of_edge, in_enemy_deployment_zone:
         And(wholly_within_6_of_edge, Not(in_enemy_deployment_zone))),
]


@pytest.mark.parametrize("prop,module,attribute,mutant", BROKEN, ids=[f"{b[0].__name__}:{b[2]}" for b in BROKEN])
def test_quickref_property_fails_for_a_broken_rule(monkeypatch, prop, module, attribute, mutant):
    broken_rules.assert_property_fails(monkeypatch, prop, module, attribute, mutant)


def test_quickref_properties_hold_unbroken():
    """The same properties pass on the real rules (so the failures above come from the mutants)."""
    for prop, *_ in BROKEN:
        assert not mutation.fails(prop, max_examples=100), prop.__name__


# -- Tables: as the sheet prints them, and free of defects ------------------------------------------------------------


def _table(ref: str) -> dict:
    (table,) = spec.sections(RULESET)[ref]["tables"]
    return table


def test_quickref_wound_table_matches_the_sheet_cell_by_cell():
    printed = _table("shooting/wound-roll")
    assert printed["header"] == ["STRENGTH VS TOUGHNESS", "D6"]
    coded = [(row.label.rsplit(": ", 1)[0], f"{row.then}+") for row in shooting.WOUND_TABLE.rows]
    assert coded == [tuple(row) for row in printed["rows"]]


def test_quickref_destroyed_transport_table_matches_the_sheet_cell_by_cell():
    printed = _table("transports/destroyed-test")
    assert printed["header"] == ["CAN DISEMBARK", "D6 RESULT"]
    coded = [[label, str(low) if low == high else f"{low} - {high}"]
             for label, low, high in transports.DESTROYED_TRANSPORT_TABLE]
    assert coded == printed["rows"]


@pytest.mark.parametrize("table", [shooting.WOUND_TABLE, stratagems.STRATAGEM_WHEN], ids=lambda t: t.name)
def test_quickref_tables_have_no_defects_and_both_backends_agree(table):
    assert logic.check_table(table).ok, logic.check_table(table).problems()
    assert logic.enumerate_agreement(table) == []


# -- The concept map and the coverage ledger -----------------------------------------------------------------------


def test_every_encoded_claim_has_a_concept_entry_and_every_concept_a_claim():
    rows = {r["ref"]: r["status"] for r in coverage.ledger(RULESET)}
    encoded = {ref for ref, status in rows.items() if status == "encoded"}
    inert = {ref for ref, status in rows.items() if status == "inert"}
    mapped = [entry["claim"] for entry in compare.concept_map(RULESET)]
    assert len(mapped) == len(set(mapped))
    assert sorted(encoded - set(mapped)) == []
    assert sorted(set(mapped) - encoded - inert) == []


def test_every_comparison_calls_a_quickref_function_and_a_core_view():
    for entry in compare.concept_map(RULESET):
        if "compare" in entry:
            assert entry["compare"][RULESET].startswith("rules.quickref."), entry["claim"]
            assert not entry["compare"][RULESET].startswith("rules.quickref.core_views."), entry["claim"]
            assert entry["compare"]["core"].startswith("rules.quickref.core_views."), entry["claim"]


def test_every_interpretation_named_in_quickref_code_is_recorded():
    named = set()
    for rules in registry.load(RULESET).values():
        for rule in rules:
            named.update(re.findall(r"Interpretation:\s*([a-z0-9-]+)", rule.doc))
    recorded = {i["id"] for i in annotations.interpretations(RULESET)}
    assert named and named <= recorded, sorted(named - recorded)


# -- Recorded readings: each chosen reading gives another answer than the rejected one on some case --------------


def test_below_half_reading_spares_a_model_at_exactly_half():
    chosen = sequence.takes_battle_shock_test(False, 1, 1, 2, 4)
    half_or_less = 2 * 2 <= 4
    assert (chosen, half_or_less) == (False, True)


def test_within_nine_reading_refuses_exactly_nine():
    chosen = movement.far_enough_from_enemy_models(9)
    at_least_nine = 9 >= 9
    assert (chosen, at_least_nine) == (False, True)


def test_any_point_reading_refuses_a_move_that_passes_engagement_range():
    chosen = movement.advance_path_allowed(True, False)
    end_only = not False
    assert (chosen, end_only) == (False, True)


def test_not_every_reading_gives_cover_against_a_model_that_sees_fully():
    chosen = terrain.cover_if_not_fully_visible(False, terrain.Position.OUTSIDE, terrain.FullyVisibleTo.SOME)
    none_reading = terrain.FullyVisibleTo.SOME == terrain.FullyVisibleTo.NONE
    assert (chosen, none_reading) == (True, False)


def test_save_chosen_before_rolling_can_choose_badly():
    chosen = shooting.attack_saved(4, -3, 3, 5, use_invulnerable=False)
    after_the_roll = shooting.attack_saved(4, -3, 3, 5, True) or shooting.attack_saved(4, -3, 3, 5, False)
    assert (chosen, after_the_roll) == (False, False)
    chosen = shooting.attack_saved(5, -3, 3, 5, use_invulnerable=False)
    after_the_roll = shooting.attack_saved(5, -3, 3, 5, True) or chosen
    assert (chosen, after_the_roll) == (False, True)


def test_consolidation_fallback_reading_moves_to_the_marker():
    chosen = fight.consolidation(False, True)
    as_printed = fight.consolidation_as_printed(False)
    assert (chosen, as_printed) == (fight.Consolidation.OBJECTIVE, fight.Consolidation.NONE)


def test_charge_every_target_reading_fails_a_half_reached_charge():
    chosen = charge.charge_succeeds(False, True)  # one of two targets reachable: not every target
    any_reading = True
    assert (chosen, any_reading) == (False, True)


def test_bands_reading_gives_half_strength_a_six():
    chosen = shooting.wound_roll_needed(2, 4)
    literal_rows = tuple(dataclasses.replace(row, when=lambda strength, toughness: strength < toughness)
                         if row.label.startswith("Strength is LESS") else row for row in shooting.WOUND_TABLE.rows)
    literal = dataclasses.replace(shooting.WOUND_TABLE, rows=literal_rows)
    assert (chosen, literal(strength=2, toughness=4)) == (6, 5)
    assert logic.check_table(literal).unreachable == ["Strength is HALF (or less than half) the Toughness.: 6+"]
