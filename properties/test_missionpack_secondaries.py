"""The mission pack's secondary objectives: the z3 proofs of properties/proofs_missionpack_secondaries.py have
their expected verdicts and each proved one is disproved for a plausible slip; hypothesis properties (one
stateful) with a broken rule each; the registry, the Cut Off the Head table and the actions checked against the
ingested text; the findings' and interpretations' quotes checked against the seed."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, note, settings
from hypothesis import Phase as Stage
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule, run_state_machine_as_test

from properties import broken_rules
from properties import proofs
from properties import proofs_missionpack_secondaries as secondary_proofs
from properties.mutation import fails
from rules import safe_yaml, spec
from rules.logic import DecisionTable, If, Min, Row, Var, evaluate_symbolically, is_symbolic
from rules.missionpack import scoring, secondaries
from rules40k import annotations

MINE = broken_rules.proofs_built_in(secondary_proofs)
SLUGS = sorted(ref.split("/", 1)[1] for ref in spec.sections("missionpack") if ref.startswith("secondary/"))
ANNOTATIONS = Path(spec.SPEC_ROOT) / "missionpack" / "annotations"
SEED = Path(spec.SPEC_ROOT).parent.parent / "shared" / "seeds" / "002_c2ee5ee173df7ed1.txt"


# -- The proofs ----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", MINE)
def test_secondary_proof_has_its_expected_verdict(name):
    broken_rules.assert_expected_verdict(name)


def _round_up(value):
    return (value + 9) / 10 if is_symbolic(value) else (value + 9) // 10


def _cut_table(points):
    """The Cut Off the Head table with other VICTORY POINTS cells (a transcription slip)."""
    return DecisionTable(
        name="cut-off-the-head-mutant", refs=("secondary/cut-off-the-head",),
        inputs=(Var("enemy_warlord_destroyed_in_round", 0, 5),),
        rows=tuple(Row(str(r), lambda enemy_warlord_destroyed_in_round, _r=r: enemy_warlord_destroyed_in_round == _r,
                       vp) for r, vp in points) + (Row("none", lambda **_: True, 0, otherwise=True),))


def _completes_at_the_end_of_the_battle(name, start_round):
    """Misreading "at the end of your next Command phase" as "or at the end of the battle" in the last round."""
    if secondaries.action(name).completes is secondaries.Completes.END_OF_NEXT_COMMAND_PHASE:
        return If(start_round < 5, start_round + 1, 5)
    return start_round


def _bring_it_down(small, large, cap=None):
    """Bring It Down with other worths per model (or a stray cap)."""
    def broken(battle_round, enemy_monsters_or_vehicles_destroyed_w10_or_less,
               enemy_monsters_or_vehicles_destroyed_w11_or_more):
        points = (small * enemy_monsters_or_vehicles_destroyed_w10_or_less
                  + large * enemy_monsters_or_vehicles_destroyed_w11_or_more)
        return points if cap is None else Min(points, cap)
    return broken


def _ritual_per_completion(battle_round, psychic_ritual_completions):
    """Psychic Ritual misread as 5 per completion once there are three."""
    return If(psychic_ritual_completions >= 3, 5 * psychic_ritual_completions, 0)


_real_start = {name: getattr(secondaries, name) for name in (
    "investigate_site_can_start", "deploy_scramblers_can_start", "pierce_the_veil_can_attempt")}

# (proof, attribute of rules.missionpack.secondaries, broken copy): a plausible slip that must turn the proof red.
MUTANTS = [
    # One moment: never negative, never more than the text states.
    ("engage-on-all-fronts-moment-award", "engage_on_all_fronts",
     lambda battle_round, table_quarters_held: If(table_quarters_held >= 4, 4, If(table_quarters_held == 3, 2, 0))),
    ("linebreaker-moment-award", "linebreaker",
     lambda battle_round, non_aircraft_units_wholly_within_opponent_deployment_zone:
         If(non_aircraft_units_wholly_within_opponent_deployment_zone >= 2, 5, 0)),
    ("domination-moment-award", "domination",
     lambda battle_round, objective_markers_controlled, objective_markers_on_battlefield:
         If(2 * objective_markers_controlled > objective_markers_on_battlefield, objective_markers_controlled, 0)),
    ("outright-domination-moment-award", "outright_domination",
     lambda battle_round, critical_features_controlled: 4 * critical_features_controlled),
    ("thin-their-ranks-moment-award", "thin_their_ranks", lambda battle_round, kill_points: _round_up(kill_points)),
    ("grind-them-down-moment-award", "grind_them_down",
     lambda battle_round, enemy_units_destroyed_this_round, friendly_units_destroyed_this_round:
         If(enemy_units_destroyed_this_round > friendly_units_destroyed_this_round,
            3 * (enemy_units_destroyed_this_round - friendly_units_destroyed_this_round), 0)),
    ("while-we-stand-we-fight-moment-award", "while_we_stand_we_fight",
     lambda battle_round, noted_models_on_battlefield: 5 * (noted_models_on_battlefield + 1)),
    ("targeted-destruction-moment-award", "targeted_destruction",
     lambda battle_round, enemy_units_destroyed_near_critical_features_this_round:
         5 * enemy_units_destroyed_near_critical_features_this_round),
    ("titan-hunter-moment-award", "titan_hunter",
     lambda battle_round, enemy_titanic_models_destroyed: 5 * enemy_titanic_models_destroyed),
    ("bring-it-down-moment-award", "bring_it_down", _bring_it_down(3, 2)),
    ("cut-off-the-head-moment-award", "CUT_OFF_THE_HEAD", _cut_table(((1, 15), (2, 10), (3, 6), (4, 3), (5, 1)))),
    ("assassinate-moment-award", "assassinate",
     lambda battle_round, enemy_character_models_destroyed: 4 * enemy_character_models_destroyed),
    ("stronghold-denial-moment-award", "stronghold_denial",
     lambda battle_round, enemy_building_units_destroyed: 6 * enemy_building_units_destroyed),
    ("raise-the-banners-high-moment-award", "raise_the_banners_high",
     lambda battle_round, objective_markers_with_your_banner: 2 * objective_markers_with_your_banner),
    ("investigate-sites-moment-award", "investigate_sites", lambda battle_round: 4),
    ("deploy-scramblers-moment-award", "deploy_scramblers",
     lambda battle_round, completed_in_your_deployment_zone, completed_in_opponent_deployment_zone,
     completed_more_than_6_from_either_deployment_zone:
         If(completed_in_your_deployment_zone >= 1, 10, 0) + If(completed_in_opponent_deployment_zone >= 1, 10, 0)
         + If(completed_more_than_6_from_either_deployment_zone >= 1, 10, 0)),
    ("teleport-homer-moment-award", "teleport_homer", lambda battle_round: If(battle_round == 1, 0, 5)),
    ("plant-demolition-charges-moment-award", "plant_demolition_charges",
     lambda battle_round, opponent_territory_features_with_explosives: 5 * opponent_territory_features_with_explosives),
    ("abhor-the-witch-moment-award", "abhor_the_witch",
     lambda battle_round, enemy_psyker_character_units_destroyed, other_enemy_psyker_units_destroyed:
         3 * enemy_psyker_character_units_destroyed + 5 * other_enemy_psyker_units_destroyed),
    ("mental-interrogation-moment-award", "mental_interrogation", lambda battle_round: 4),
    ("psychic-ritual-moment-award", "psychic_ritual", _ritual_per_completion),
    ("pierce-the-veil-moment-award", "pierce_the_veil",
     lambda battle_round, pierce_the_veil_completions: If(pierce_the_veil_completions >= 4, 15, 0)
     + If(pierce_the_veil_completions >= 2, 8, 0)),
    ("psychic-imprint-moment-award", "psychic_imprint",
     lambda battle_round, psychic_imprint_completed_this_round: If(psychic_imprint_completed_this_round, 3, 0)),
    # A whole battle against the 15 cap.
    ("engage-on-all-fronts-whole-battle", "engage_on_all_fronts",
     lambda battle_round, table_quarters_held: If(table_quarters_held >= 4, 4, If(table_quarters_held == 3, 2, 0))),
    ("linebreaker-whole-battle", "linebreaker",
     lambda battle_round, non_aircraft_units_wholly_within_opponent_deployment_zone:
         If(non_aircraft_units_wholly_within_opponent_deployment_zone >= 2, 5, 0)),
    ("domination-whole-battle", "domination",
     lambda battle_round, objective_markers_controlled, objective_markers_on_battlefield:
         If(2 * objective_markers_controlled > objective_markers_on_battlefield, objective_markers_controlled, 0)),
    ("grind-them-down-whole-battle", "grind_them_down",
     lambda battle_round, enemy_units_destroyed_this_round, friendly_units_destroyed_this_round:
         If(enemy_units_destroyed_this_round > friendly_units_destroyed_this_round,
            3 * (enemy_units_destroyed_this_round - friendly_units_destroyed_this_round), 0)),
    ("psychic-imprint-whole-battle", "psychic_imprint",
     lambda battle_round, psychic_imprint_completed_this_round: If(psychic_imprint_completed_this_round, 3, 0)),
    ("investigate-sites-whole-battle", "investigate_sites", lambda battle_round: 4),
    ("teleport-homer-whole-battle", "action_completion_round", _completes_at_the_end_of_the_battle),
    ("mental-interrogation-whole-battle", "mental_interrogation", lambda battle_round: 4),
    ("plant-demolition-charges-whole-battle", "action_completion_round", _completes_at_the_end_of_the_battle),
    ("raise-the-banners-high-whole-battle", "raise_the_banners_high",
     lambda battle_round, objective_markers_with_your_banner: 2 * objective_markers_with_your_banner),
    ("raise-the-banners-high-whole-battle", "action_completion_round",
     lambda name, start_round: start_round - 1),  # a banner raised before the first Command phase ends
    ("while-we-stand-we-fight-whole-battle", "while_we_stand_noted_models",
     lambda models_in_army, fortification_models: models_in_army - fortification_models),
    ("titan-hunter-whole-battle", "titan_hunter",
     lambda battle_round, enemy_titanic_models_destroyed: 5 * enemy_titanic_models_destroyed),
    ("cut-off-the-head-whole-battle", "CUT_OFF_THE_HEAD", _cut_table(((1, 15), (2, 10), (3, 6), (4, 3), (5, 1)))),
    ("deploy-scramblers-whole-battle", "deploy_scramblers",
     lambda battle_round, completed_in_your_deployment_zone, completed_in_opponent_deployment_zone,
     completed_more_than_6_from_either_deployment_zone:
         If(completed_in_your_deployment_zone >= 1, 10, 0) + If(completed_in_opponent_deployment_zone >= 1, 10, 0)
         + If(completed_more_than_6_from_either_deployment_zone >= 1, 10, 0)),
    ("psychic-ritual-whole-battle", "psychic_ritual", _ritual_per_completion),
    ("pierce-the-veil-whole-battle", "pierce_the_veil",
     lambda battle_round, pierce_the_veil_completions: If(pierce_the_veil_completions >= 4, 15, 0)
     + If(pierce_the_veil_completions >= 2, 8, 0)),
    # Per item: a stray cap of 12 (or 10), or fewer points for more.
    ("outright-domination-reaches-the-cap", "outright_domination",
     lambda battle_round, critical_features_controlled: Min(3 * critical_features_controlled, 12)),
    ("thin-their-ranks-reaches-the-cap", "thin_their_ranks",
     lambda battle_round, kill_points: Min(kill_points / 10, 12)),
    ("targeted-destruction-reaches-the-cap", "targeted_destruction",
     lambda battle_round, enemy_units_destroyed_near_critical_features_this_round:
         Min(4 * enemy_units_destroyed_near_critical_features_this_round, 12)),
    ("bring-it-down-reaches-the-cap", "bring_it_down", _bring_it_down(2, 3, cap=12)),
    ("assassinate-reaches-the-cap", "assassinate",
     lambda battle_round, enemy_character_models_destroyed: If(enemy_character_models_destroyed >= 5, 0,
                                                               3 * enemy_character_models_destroyed)),
    ("stronghold-denial-reaches-the-cap", "stronghold_denial",
     lambda battle_round, enemy_building_units_destroyed: Min(5 * enemy_building_units_destroyed, 10)),
    ("abhor-the-witch-reaches-the-cap", "abhor_the_witch",
     lambda battle_round, enemy_psyker_character_units_destroyed, other_enemy_psyker_units_destroyed:
         Min(5 * enemy_psyker_character_units_destroyed + 3 * other_enemy_psyker_units_destroyed, 12)),
    # The edges the text pins.
    ("domination-more-than-half", "domination",
     lambda battle_round, objective_markers_controlled, objective_markers_on_battlefield:
         If(2 * objective_markers_controlled >= objective_markers_on_battlefield, 3, 0)),
    ("cut-off-the-head-table", "CUT_OFF_THE_HEAD", _cut_table(((1, 13), (2, 10), (3, 3), (4, 6), (5, 1)))),
    ("cut-off-the-head-last-removal", "warlord_destroyed_in_round", lambda removal_rounds: removal_rounds[-1]),
    ("thin-their-ranks-rounds-down", "thin_their_ranks", lambda battle_round, kill_points: _round_up(kill_points)),
    ("thin-their-ranks-kill-points", "kill_points_for_destroyed_model",
     lambda wounds_characteristic: If(wounds_characteristic > 10, 10, 1)),
    ("bring-it-down-thresholds", "bring_it_down_points",
     lambda wounds_characteristic: If(wounds_characteristic < 10, 2, 3)),
    ("titan-hunter-table", "titan_hunter",
     lambda battle_round, enemy_titanic_models_destroyed: If(enemy_titanic_models_destroyed == 1, 10,
                                                             If(enemy_titanic_models_destroyed == 2, 12,
                                                                If(enemy_titanic_models_destroyed == 3, 15, 0)))),
    ("engage-on-all-fronts-quarters", "engage_on_all_fronts",
     lambda battle_round, table_quarters_held: If(table_quarters_held >= 3, 3, 0)),
    ("psychic-ritual-three-times", "psychic_ritual",
     lambda battle_round, psychic_ritual_completions: If(psychic_ritual_completions > 3, 15, 0)),
    ("pierce-the-veil-scored-once", "pierce_the_veil",
     lambda battle_round, pierce_the_veil_completions: If(pierce_the_veil_completions >= 4, 15, 0)
     + If(pierce_the_veil_completions >= 2, 8, 0)),
    ("abhor-the-witch-selection", "abhor_the_witch_selectable", lambda army_has_psykers: True),
    ("progressive-score-from-the-first-round", "linebreaker",
     lambda battle_round, non_aircraft_units_wholly_within_opponent_deployment_zone:
         If(battle_round == 1, 0, If(non_aircraft_units_wholly_within_opponent_deployment_zone >= 2, 4, 0))),
    ("teleport-homer-not-in-the-first-round", "teleport_homer", lambda battle_round: 4),
    ("teleport-homer-not-in-the-first-round", "action_completion_round", lambda name, start_round: start_round),
    ("banners-removed-by-opponent-control", "banner_stays_raised",
     lambda banner_raised, opponent_controls_marker_at_start_of_phase: banner_raised),
    ("action-start-conditions", "investigate_site_can_start",
     lambda infantry, character, within_6_of_centre, enemy_non_aircraft_within_6_of_centre:
         _real_start["investigate_site_can_start"](infantry, False, within_6_of_centre,
                                                   enemy_non_aircraft_within_6_of_centre)),
    ("action-start-conditions", "deploy_scramblers_can_start",
     lambda infantry, character, wholly_within_your_deployment_zone, wholly_within_opponent_deployment_zone,
     more_than_6_from_either_deployment_zone:
         _real_start["deploy_scramblers_can_start"](infantry, character, wholly_within_your_deployment_zone,
                                                    wholly_within_opponent_deployment_zone, False)),
    ("action-start-conditions", "pierce_the_veil_can_attempt",
     lambda psyker, character, within_6_of_opponent_battlefield_edge, more_than_6_from_enemy_models:
         _real_start["pierce_the_veil_can_attempt"](psyker, character, within_6_of_opponent_battlefield_edge, True)),
]


def test_every_proved_secondary_proof_has_a_mutant():
    proved = {name for name in MINE if proofs.PROOFS[name].expect == "proved"}
    assert proved == {f"missionpack-secondary-{m[0]}" for m in MUTANTS}


@pytest.mark.parametrize("name,attribute,mutant", MUTANTS, ids=[f"{m[0]}:{m[1]}" for m in MUTANTS])
def test_secondary_proof_catches_a_broken_rule(monkeypatch, name, attribute, mutant):
    monkeypatch.setattr(secondaries, attribute, mutant)
    result = proofs.check(proofs.PROOFS[f"missionpack-secondary-{name}"])
    assert result.status == "disproved", result.detail
    assert result.example.startswith("@example(")


# -- Each finding comes from the text, not from the check ----------------------------------------------------------


def test_round_five_finding_disappears_if_the_action_completed_at_the_end_of_the_battle(monkeypatch):
    monkeypatch.setattr(secondaries, "action_completion_round", _completes_at_the_end_of_the_battle)
    assert proofs.check(proofs.PROOFS["missionpack-secondary-started-actions-are-completed"]).status == "proved"


def test_raise_banners_finding_disappears_under_the_general_one_unit_rule(monkeypatch):
    monkeypatch.setattr(secondaries, "raise_banners_units_may_start",
                        lambda units_starting, markers_open_to_a_banner: units_starting <= 1)
    assert proofs.check(proofs.PROOFS["missionpack-secondary-one-unit-starts-each-action"]).status == "proved"


def test_contents_finding_disappears_with_two_action_secondaries(monkeypatch):
    monkeypatch.setattr(secondaries, "ACTIONS", secondaries.ACTIONS[:2])
    assert proofs.check(proofs.PROOFS["missionpack-secondary-two-secondaries-use-actions"]).status == "proved"


def test_pierce_the_veil_finding_is_the_printed_order(monkeypatch):
    """Matched in the code's order (4 times first, overriding), the statement the finding disproves holds."""
    monkeypatch.setattr(secondary_proofs, "printed_order_pierce_the_veil", lambda: secondaries.PIERCE_THE_VEIL)
    assert proofs.check(proofs.PROOFS["missionpack-secondary-pierce-the-veil-as-printed-reaches-15"]).status == "proved"


def test_action_rounds_finding_disappears_if_the_action_completed_in_its_own_round(monkeypatch):
    """Were Teleport Homer and Plant Demolitions completed in the battle round they start in, the two readings of
    "one action per battle round" would agree: the finding comes from "your next Command phase"."""
    monkeypatch.setattr(secondaries, "action_completion_round", lambda name, start_round: start_round)
    assert proofs.check(proofs.PROOFS["missionpack-secondary-action-rounds-readings-agree"]).status == "proved"


@pytest.mark.refs("missionpack:secondary/teleport-homer", "missionpack:secondary/plant-demolition-charges")
def test_one_unit_completes_a_two_round_action_four_times_not_twice(monkeypatch):
    """action-counts-in-its-start-round: one unit alone completes Teleport Homer in rounds 2, 3, 4 and 5 (4 times,
    16 victory points before the cap); under every-round-performed it may start only in rounds 1, 3 and 5, and the
    round-5 start never completes (2 times, 8). An action completed in its own round is 5 either way."""
    chosen = {r["id"]: r for r in annotations.interpretations("missionpack")}["action-counts-in-its-start-round"]
    assert chosen["chosen"] == "start-round"
    assert secondaries.one_unit_completions("Teleport Homer") == 4
    assert 4 * secondaries.teleport_homer(2) == 16
    monkeypatch.setattr(secondaries, "action_attempted_in_round",
                        lambda start_round, completion_round, battle_round:
                        battle_round in (start_round, completion_round))
    assert secondaries.one_unit_completions("Teleport Homer") == 2
    assert secondaries.one_unit_completions("Plant Demolitions") == 2
    assert secondaries.one_unit_completions("Investigate Site") == 5


def test_readings_differ_on_a_concrete_case():
    """Each ambiguity's readings give different victory points in one stated case."""
    # Psychic Ritual completed once by each of three PSYKER CHARACTER units.
    assert secondaries.psychic_ritual(5, 1 + 1 + 1) == 15 and secondaries.psychic_ritual(5, 1) == 0
    # A one-unit army of three models, all on the battlefield at the end: per model or per unit.
    assert secondaries.while_we_stand_we_fight(5, secondaries.while_we_stand_noted_models(3, 0)) == 15
    assert secondaries.while_we_stand_we_fight(5, 1) == 5
    # Psychic Imprint completed in round 1 only, scored at the end of round 2.
    assert secondaries.psychic_imprint(2, False) == 0 and secondaries.psychic_imprint(2, True) == 2
    # Five Pierce the Veil completions: "4 times" as at least 4, or as exactly 4 (then only "2 or more" holds).
    assert secondaries.pierce_the_veil(5, 5) == 15 and secondaries.pierce_the_veil(5, 5) != 8
    # Four quarters held, one of them also holding a unit within 6" of the centre.
    assert secondaries.engage_on_all_fronts(2, 4) == 3 and secondaries.engage_on_all_fronts(2, 3) == 2


# -- Hypothesis properties -----------------------------------------------------------------------------------------

NO_EXPLAIN = settings(phases=[stage for stage in Stage if stage != Stage.explain])


@pytest.mark.refs("missionpack:secondary/thin-their-ranks")
@NO_EXPLAIN
@given(st.integers(0, 400), st.integers(0, 40))
def test_kill_point_victory_points_round_down_and_never_fall(tally, more):
    """Thin Their Ranks: the tally divided by 10 and rounded down, so more kill points never score less."""
    points = secondaries.thin_their_ranks(5, tally)
    note(f"{tally} kill points -> {points} VP")
    assert 10 * points <= tally < 10 * points + 10
    assert secondaries.thin_their_ranks(5, tally + more) >= points


@pytest.mark.refs("missionpack:secondary/thin-their-ranks")
@NO_EXPLAIN
@given(st.lists(st.integers(1, 30), max_size=40), st.integers(10, 30))
def test_each_large_model_destroyed_adds_one_victory_point(wounds, large):
    """Thin Their Ranks: destroying one more model of Wounds 10 or more adds exactly one victory point."""
    tally = sum(secondaries.kill_points_for_destroyed_model(w) for w in wounds)
    more = tally + secondaries.kill_points_for_destroyed_model(large)
    note(f"models of W {wounds}: {tally} kill points; one more of W{large}: {more}")
    assert secondaries.thin_their_ranks(5, more) == secondaries.thin_their_ranks(5, tally) + 1


@pytest.mark.refs("missionpack:secondary/domination")
@NO_EXPLAIN
@given(st.integers(0, 12).flatmap(lambda total: st.tuples(st.integers(0, total), st.just(total))),
       st.integers(1, 5))
def test_domination_needs_more_than_half(markers, battle_round):
    """Domination scores 3 exactly when you control more markers than you do not; exactly half scores nothing."""
    controlled, total = markers
    award = secondaries.domination(battle_round, controlled, total)
    note(f"{controlled} of {total} markers -> {award}")
    assert award == (3 if controlled > total - controlled else 0)


@pytest.mark.refs("missionpack:secondary/cut-off-the-head")
@NO_EXPLAIN
@given(st.lists(st.integers(1, 5), max_size=4), st.integers(1, 5))
def test_cut_off_the_head_counts_the_last_removal(removals, later):
    """Cut Off the Head: the round of the WARLORD's last removal counts, and a later last removal never scores more."""
    counted = secondaries.warlord_destroyed_in_round(removals)
    award = secondaries.cut_off_the_head(5, counted)
    note(f"removed in rounds {removals} -> counted round {counted} -> {award} VP")
    assert counted == (max(removals) if removals else 0)
    assert award == dict(secondaries.CUT_OFF_THE_HEAD_POINTS).get(counted, 0)
    if removals:
        last_later = secondaries.warlord_destroyed_in_round(removals + [max(later, counted)])
        assert secondaries.cut_off_the_head(5, last_later) <= award


@pytest.mark.refs("missionpack:secondary/pierce-the-veil")
@NO_EXPLAIN
@given(st.integers(0, 5), st.integers(0, 5))
def test_pierce_the_veil_more_completions_never_score_less(completions, more):
    """Pierce the Veil, scored once: 0, 8 or 15, and completing the psychic action more often never scores less."""
    award = secondaries.pierce_the_veil(5, completions)
    assert award in (0, 8, 15)
    assert secondaries.pierce_the_veil(5, min(completions + more, 5)) >= award


def _fact_values(slug):
    out = {}
    for name in scoring.OBJECTIVES[slug].facts():
        domain = secondary_proofs.FACTS[name]
        out[name] = st.booleans() if domain == "bool" else st.integers(domain[0], domain[1] if domain[1] else 200)
    return st.fixed_dictionaries(out)


@pytest.mark.refs(*(f"missionpack:secondary/{slug}" for slug in SLUGS))
@NO_EXPLAIN
@given(st.sampled_from(SLUGS).flatmap(lambda slug: st.tuples(st.just(slug), _fact_values(slug))), st.integers(1, 5))
def test_concrete_and_z3_scores_agree(case, battle_round):
    """Every secondary's score function gives the same victory points computed on ints and built as a z3 term."""
    slug, facts = case
    function = getattr(secondaries, scoring.OBJECTIVES[slug].score.__name__)
    args = {"battle_round": battle_round, **facts}
    note(f"{slug} {args}")
    assert evaluate_symbolically(function, args) == function(**args)


# The broken copies for the properties: (property, attribute, mutant).
PROPERTY_MUTANTS = [
    (test_kill_point_victory_points_round_down_and_never_fall, "thin_their_ranks",
     lambda battle_round, kill_points: (kill_points + 5) // 10),
    (test_each_large_model_destroyed_adds_one_victory_point, "kill_points_for_destroyed_model",
     lambda wounds_characteristic: 10 if wounds_characteristic > 10 else 1),
    (test_domination_needs_more_than_half, "domination",
     lambda battle_round, objective_markers_controlled, objective_markers_on_battlefield:
         3 if 2 * objective_markers_controlled >= objective_markers_on_battlefield else 0),
    (test_cut_off_the_head_counts_the_last_removal, "warlord_destroyed_in_round",
     lambda removal_rounds: min(removal_rounds, default=0)),
    (test_pierce_the_veil_more_completions_never_score_less, "pierce_the_veil",
     lambda battle_round, pierce_the_veil_completions:
         15 if pierce_the_veil_completions == 4 else 8 if pierce_the_veil_completions >= 2 else 0),
    (test_concrete_and_z3_scores_agree, "_whole_tens",
     lambda value: value / 10 if is_symbolic(value) else round(value / 10)),
]


@pytest.mark.parametrize("check,attribute,mutant", PROPERTY_MUTANTS, ids=[m[0].__name__ for m in PROPERTY_MUTANTS])
def test_secondary_property_catches_a_broken_rule(monkeypatch, check, attribute, mutant):
    monkeypatch.setattr(secondaries, attribute, mutant)
    assert fails(check)


# -- A stateful game of Raise the Banners High ----------------------------------------------------------------------

PHASES = ("Command", "Movement", "Psychic", "Shooting", "Charge", "Fight", "Morale")


class RaiseTheBanners(RuleBasedStateMachine):
    """Five battle rounds of one player's Raise the Banners High: their turn and their opponent's, phase by phase.

    Banners are raised by actions started at the end of the Movement phase and completed at the end of the turn,
    removed when the opponent controls their marker at the start of a phase, and scored at the end of each of
    the player's Command phases and at the end of the battle.
    """

    @initialize(markers=st.integers(1, 6))
    def setup(self, markers):
        self.markers = markers
        self.round = 0
        self.banners: set[int] = set()
        self.scores: list[tuple[str, int]] = []
        self.controlled_at_last_phase_start: set[int] = set()
        self.banners_at_last_phase_start: set[int] = set()
        note(f"{markers} objective markers")

    def _start_phase(self, opponent_controls):
        self.banners = {m for m in self.banners
                        if secondaries.banner_stays_raised(True, m in opponent_controls)}
        self.controlled_at_last_phase_start = set(opponent_controls)
        self.banners_at_last_phase_start = set(self.banners)

    @rule(data=st.data())
    def play_battle_round(self, data):
        if self.round == scoring.BATTLE_ROUNDS:
            return
        self.round += 1
        markers = range(self.markers)
        starting: set[int] = set()
        for turn in ("your", "opponent's"):
            # Which markers the opponent controls changes during a turn only now and then.
            controls = data.draw(st.sets(st.sampled_from(markers)), label=f"{turn} turn: opponent controls")
            changes = data.draw(st.sets(st.sampled_from(PHASES), max_size=2), label="control changes at")
            for phase in PHASES:
                if phase in changes:
                    controls = data.draw(st.sets(st.sampled_from(markers)), label=f"{phase}: opponent controls")
                self._start_phase(controls)
                if turn == "your" and phase == "Command":
                    award = secondaries.raise_the_banners_high(self.round, len(self.banners))
                    self.scores.append((f"round {self.round} Command phase", award))
                    note(f"round {self.round}: banners {sorted(self.banners)} -> {award}")
                if turn == "your" and phase == "Movement":
                    enemies = data.draw(st.sets(st.sampled_from(markers)), label="enemy units in range of")
                    wanted = data.draw(st.sets(st.sampled_from(markers)), label="INFANTRY units start on")
                    open_markers = {m for m in markers if secondaries.raise_banners_can_start(
                        True, True, m in self.banners, m in enemies)}
                    if secondaries.raise_banners_units_may_start(len(wanted & open_markers), len(open_markers)):
                        starting = wanted & open_markers
            if turn == "your":
                failed = data.draw(st.sets(st.sampled_from(sorted(starting))) if starting else st.just(set()),
                                   label="actions failed")
                self.banners |= starting - failed
                note(f"end of round {self.round} turn: banners raised on {sorted(starting - failed)}")
        if self.round == scoring.BATTLE_ROUNDS:
            self.scores.append(("end of the battle", secondaries.raise_the_banners_high(5, len(self.banners))))

    @invariant()
    def no_banner_where_the_opponent_took_control(self):
        if hasattr(self, "banners"):
            assert not self.banners_at_last_phase_start & self.controlled_at_last_phase_start

    @invariant()
    def nothing_scored_before_a_banner_can_be_raised(self):
        if getattr(self, "scores", None):
            assert self.scores[0] == ("round 1 Command phase", 0)

    @invariant()
    def at_most_five_points_per_marker(self):
        if getattr(self, "scores", None):
            assert sum(points for _, points in self.scores) <= 5 * self.markers


@pytest.mark.refs("missionpack:secondary/raise-the-banners-high")
def test_raise_the_banners_high_keeps_its_rules():
    """Random games of Raise the Banners High: no banner survives the opponent's control at the start of a phase,
    the first Command phase scores nothing, and a battle awards at most 5 per objective marker."""
    run_state_machine_as_test(RaiseTheBanners, settings=settings(max_examples=60, stateful_step_count=6, deadline=None,
                                                                 phases=[p for p in Stage if p != Stage.explain],
                                                                 suppress_health_check=[HealthCheck.too_slow]))


@pytest.mark.parametrize("attribute,mutant", [
    ("banner_stays_raised", lambda banner_raised, opponent_controls_marker_at_start_of_phase: banner_raised),
    ("raise_the_banners_high", lambda battle_round, objective_markers_with_your_banner:
        2 * objective_markers_with_your_banner),
], ids=["banner-never-removed", "two-points-per-banner"])
def test_banner_machine_catches_a_broken_rule(monkeypatch, attribute, mutant):
    monkeypatch.setattr(secondaries, attribute, mutant)
    with pytest.raises((Exception, pytest.fail.Exception)):
        run_state_machine_as_test(RaiseTheBanners, settings=settings(max_examples=300, stateful_step_count=6,
                                                                     deadline=None, derandomize=True,
                                                                     phases=[Stage.generate],
                                                                     suppress_health_check=list(HealthCheck)))


# -- The registry and the actions against the ingested text --------------------------------------------------------


def test_every_secondary_is_registered_under_its_slug():
    assert sorted(secondaries.SECONDARIES) == SLUGS
    for slug in SLUGS:
        entry = spec.sections("missionpack")[f"secondary/{slug}"]
        item = scoring.OBJECTIVES[slug]
        assert (item.kind, item.ref, item.title) == ("secondary", f"secondary/{slug}", entry["title"])
        assert item.category == entry["attributes"]["category"]


@pytest.mark.parametrize("slug", SLUGS)
def test_timings_follow_the_printed_objective_type(slug):
    """End Game objectives score at the end of the battle only; progressive ones during it; Raise the Banners
    High (progressive and End Game) both."""
    kind = spec.sections("missionpack")[f"secondary/{slug}"]["attributes"]["objective"]
    timings = set(scoring.OBJECTIVES[slug].timings)
    end = scoring.Timing.END_OF_BATTLE
    if kind == "end-game":
        assert timings == {end}
    elif kind == "progressive":
        assert end not in timings and timings
    else:
        assert kind == "progressive-and-end-game" and end in timings and len(timings) == 2


def test_every_fact_has_a_domain_in_the_proofs():
    facts = {name for slug in SLUGS for name in scoring.OBJECTIVES[slug].facts()}
    assert facts == set(secondary_proofs.FACTS)


def test_cut_off_the_head_table_matches_the_book_cell_by_cell():
    table = spec.sections("missionpack")["secondary/cut-off-the-head"]["tables"][0]
    assert table["header"] == ["BATTLE ROUND", "VICTORY POINTS"]
    assert [tuple(int(cell) for cell in row) for row in table["rows"]] == list(secondaries.CUT_OFF_THE_HEAD_POINTS)
    for battle_round, points in secondaries.CUT_OFF_THE_HEAD_POINTS:
        assert secondaries.cut_off_the_head(5, battle_round) == points


ACTION_HEADING = re.compile(
    r"^(?P<name>[A-Z][A-Za-z ]+?) \((?P<psychic>Psychic )?Action(?: – Warp Charge (?P<wc>\d+))?\):", re.M)


@pytest.mark.refs(*sorted({f"missionpack:{a.ref}" for a in secondaries.ACTIONS}))
def test_actions_match_the_printed_headings():
    """Each action's name, kind and Warp Charge value as printed in its secondary's text (the pack's secondaries and
    the missions' own), and no other action."""
    printed = {}
    for ref in (*(f"secondary/{slug}" for slug in SLUGS), *scoring.MISSION_SECONDARY_REFS):
        for match in ACTION_HEADING.finditer(spec.sections("missionpack")[ref]["text"]):
            printed[match["name"]] = (ref, bool(match["psychic"]), int(match["wc"]) if match["wc"] else None)
    assert printed == {a.name: (a.ref, a.psychic, a.warp_charge) for a in secondaries.ACTIONS}


@pytest.mark.parametrize("item", secondaries.ACTIONS, ids=[a.name for a in secondaries.ACTIONS])
def test_action_start_and_completion_follow_the_printed_words(item):
    """When each action starts ("at the start of your Movement phase", "at the end of ...", "in/during your Psychic
    phase") and completes, as its own paragraph prints it."""
    text = spec.sections("missionpack")[item.ref]["text"]
    paragraph = text.split(f"{item.name} ({'Psychic ' if item.psychic else ''}Action")[1]
    assert item.starts.value in paragraph[:300]
    if item.psychic:
        assert item.completes is secondaries.Completes.WHEN_PERFORMED
    else:
        assert f"completed {item.completes.value}" in paragraph
    several = "One or more" in paragraph[:200]
    assert item.several_units == several


def action_completes_after_it_starts() -> None:
    """Every action, started in any battle round at the point of the turn its text names, is completed (if ever) no
    earlier: later in the same turn (a psychic action in the Psychic phase it is attempted in) or at the end of the
    next Command phase. Exhaustive over the actions and the five battle rounds."""
    for item in secondaries.ACTIONS:
        start = secondaries.action_start_point(item.name)
        for battle_round in range(1, scoring.BATTLE_ROUNDS + 1):
            done = secondaries.action_completion_round(item.name, battle_round)
            if done != secondaries.NEVER:
                assert (done, secondaries.action_completion_point(item.name)) >= (battle_round, start), \
                    (item.name, battle_round)


@pytest.mark.refs(*sorted({f"missionpack:{a.ref}" for a in secondaries.ACTIONS}))
def test_every_action_completes_after_it_starts():
    """Every action of the pack completes no earlier than it starts, in its round and its turn.

    Checked for every action over every battle round it can start in; the two push actions start at the start of
    the Movement phase, before the unit could move.
    """
    action_completes_after_it_starts()
    # The start timings as printed: the two push actions before the unit could move, the rest after it moved or
    # in the Psychic phase.
    assert {a.name for a in secondaries.ACTIONS if secondaries.action_start_point(a.name)
            is scoring.TurnPoint.START_OF_MOVEMENT_PHASE} == {"Forward Push", "Hard Push"}


@pytest.mark.parametrize("attribute,broken", [
    ("action_start_point", lambda name: scoring.TurnPoint.END_OF_TURN),
    ("action_completion_round", lambda name, start_round: start_round),
    ("action_completion_point", lambda name: scoring.TurnPoint.END_OF_COMMAND_PHASE),
])
def test_action_timing_check_fails_on_a_broken_rule(monkeypatch, attribute, broken):
    """A psychic action started at the end of the turn, Teleport Homer completed in the Command phase of the round it
    started in, or every action completed at the end of the Command phase: each completes before it starts."""
    monkeypatch.setattr(secondaries, attribute, broken)
    with pytest.raises(AssertionError):
        action_completes_after_it_starts()


def test_interpretations_named_in_docstrings_are_recorded():
    recorded = {entry["id"] for entry in annotations.interpretations("missionpack")}
    named = set()
    for value in vars(secondaries).values():
        doc = getattr(value, "__doc__", None) or ""
        named |= set(re.findall(r"Interpretation: ([a-z0-9-]+)", doc))
    assert named and named <= recorded


def _my_evidence():
    cases = []
    for kind in ("findings", "interpretations"):
        data = safe_yaml.read(ANNOTATIONS / kind / "secondaries.yaml")
        for entry in data:
            for item in entry["evidence"]:
                cases.append(pytest.param(item, id=f"{kind}:{entry['id']}:{item['line']}"))
    return cases


@pytest.mark.parametrize("evidence", _my_evidence())
def test_evidence_quote_is_on_the_cited_line(evidence):
    if not SEED.exists():
        pytest.skip(f"{SEED} is absent")
    line = SEED.read_text(encoding="utf-8").split("\n")[evidence["line"] - 1].replace("**", "")
    assert evidence["quote"].replace("**", "") in line, f"line {evidence['line']} is {line!r}"


def test_findings_name_existing_checks_and_interpretations():
    findings = safe_yaml.read(ANNOTATIONS / "findings" / "secondaries.yaml")
    recorded = {entry["id"] for entry in annotations.interpretations("missionpack")}
    known = set(spec.sections("missionpack"))
    for entry in findings:
        kind, _, name = entry["check"].partition(":")
        assert kind == "proof" and proofs.PROOFS[name].expect == "disproved"
        assert entry["interpretation"] in recorded
        assert set(entry["refs"]) <= known
