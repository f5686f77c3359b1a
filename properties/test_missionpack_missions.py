"""The missions: the proofs of properties/proofs_missionpack_missions.py have their verdicts and fail on broken
rules; the maxima they state are reached; the code's tables and mission data agree cell by cell with the ingested
text; each recorded interpretation changes an outcome; Sweep and Clear holds over whole battles."""

from __future__ import annotations

import dataclasses
import functools
import inspect
import re

import pytest
from hypothesis import given, note
from hypothesis import strategies as st

from properties import broken_rules
from properties import proofs
from properties import proofs_missionpack_missions as mp
from rules import logic, spec
from rules.logic import And, If, Or
from rules.missionpack import missions, scoring, sequence, terrain
from rules.missionpack.scoring import ScoringError, Timing
from rules40k import annotations

MINE = broken_rules.proofs_built_in(mp)
SECTIONS = spec.sections("missionpack")
INTERPRETATIONS = {i["id"]: i for i in annotations.interpretations("missionpack")}


@pytest.mark.parametrize("name", MINE)
def test_mission_proof_has_its_expected_verdict(name):
    broken_rules.assert_expected_verdict(name)


# -- Mutants ---------------------------------------------------------------------------------------------------------


def _broken_objective(name, make):
    """The objective ``name`` with its score function replaced by ``make(original)`` (same facts)."""
    item = scoring.OBJECTIVES[name]
    return dataclasses.replace(item, score=functools.wraps(item.score)(make(item.score)))


def _plus_one(score):
    return lambda battle_round, **facts: score(battle_round=battle_round, **facts) + 1


def _minus_one(score):
    return lambda battle_round, **facts: score(battle_round=battle_round, **facts) - 1


def _first_round_flipped(score, excluded):
    if excluded:  # the exclusion dropped: round 1 scores as round 2 would
        return lambda battle_round, **facts: score(battle_round=If(battle_round == 1, 2, battle_round), **facts)
    return lambda battle_round, **facts: If(battle_round == 1, 0, score(battle_round=battle_round, **facts))


def _last_round_bonus(score):
    return lambda battle_round, **facts: score(battle_round=battle_round, **facts) + If(battle_round == 5, 1, 0)


def _primary_without_round_one(score):
    return lambda battle_round, controlled, opponent_controlled: score(
        battle_round=If(battle_round == 1, 2, battle_round), controlled=controlled,
        opponent_controlled=opponent_controlled)


def _generic_mutants():
    """Per mission: a primary that scores in round 1; a secondary one point over its maximum, one below zero, with
    its first-round clause flipped, and with one point too many over a battle."""
    out = []
    for slug, item in missions.MISSIONS.items():
        secondary = scoring.OBJECTIVES[item.secondary]
        out += [
            (f"missionpack-{slug}-primary-per-command-phase", item.primary, _primary_without_round_one),
            (f"missionpack-{slug}-secondary-per-moment", item.secondary, _plus_one),
            (f"missionpack-{slug}-secondary-per-moment", item.secondary, _minus_one),
            (f"missionpack-{slug}-secondary-first-round", item.secondary,
             lambda score, excluded=not secondary.first_round: _first_round_flipped(score, excluded)),
            (f"missionpack-{slug}-secondary-per-battle", item.secondary, _last_round_bonus),
        ]
    return out


GENERIC = _generic_mutants()


@pytest.mark.parametrize("name,objective,make", GENERIC, ids=[f"{m[0]}:{i}" for i, m in enumerate(GENERIC)])
def test_mission_scoring_proof_fails_on_a_broken_objective(name, objective, make, monkeypatch):
    assert name in MINE
    monkeypatch.setitem(scoring.OBJECTIVES, objective, _broken_objective(objective, make))
    assert proofs.check(proofs.PROOFS[name]).status == "disproved"


def _table_without(table, label_start):
    return dataclasses.replace(table, rows=tuple(r for r in table.rows if not r.label.startswith(label_start)))


def _table_row(table, label_start, **changes):
    return dataclasses.replace(table, rows=tuple(dataclasses.replace(r, **changes) if r.label.startswith(label_start)
                                                 else r for r in table.rows))


# (proof, attribute of rules.missionpack.missions, broken copy): plausible slips that must turn the proof red.
MUTANTS = [
    ("missionpack-seize-ground-scores-one-marker", "seize_ground",
     lambda battle_round, player_a, controls_marker_a, controls_marker_b, controls_marker_c: sum(
         If(held, missions.table_points(missions.SEIZE_GROUND_TABLE, row, player_a), 0)
         for row, held in enumerate((controls_marker_a, controls_marker_b, controls_marker_c), 1))),
    ("missionpack-seize-ground-scores-one-marker", "seize_ground",
     lambda battle_round, player_a, controls_marker_a, controls_marker_b, controls_marker_c: If(
         controls_marker_a, missions.table_points(missions.SEIZE_GROUND_TABLE, 1, player_a),
         If(controls_marker_b, 2, If(controls_marker_c, missions.table_points(missions.SEIZE_GROUND_TABLE, 3,
                                                                                player_a), 0)))),
    ("missionpack-secure-strongholds-needs-own-marker", "secure_strongholds",
     lambda battle_round, controls_marker_in_own_deployment_zone, controls_marker_in_opponent_deployment_zone: If(
         battle_round == 1, 0, If(And(controls_marker_in_own_deployment_zone,
                                      controls_marker_in_opponent_deployment_zone), 5,
                                  If(Or(controls_marker_in_own_deployment_zone,
                                        controls_marker_in_opponent_deployment_zone), 1, 0)))),
    ("missionpack-offensive-push-needs-strictly-more", "offensive_push",
     lambda battle_round, markers_controlled_in_opponent_territory, markers_controlled_in_own_territory: If(
         markers_controlled_in_opponent_territory >= markers_controlled_in_own_territory, 3, 0)),
    ("missionpack-tallest-feature-ties", "controls_tallest",
     lambda heights, controlled: Or(*(And(mine, And(*(h > o for j, o in enumerate(heights) if j != i)))
                                      for i, (h, mine) in enumerate(zip(heights, controlled))))),
    ("missionpack-player-columns-mirror", "FORWARD_PUSH_TABLE", (("A", 1, 8), ("B", 2, 5), ("C", 4, 2), ("D", 8, 1))),
    ("missionpack-player-columns-mirror", "HARD_PUSH_TABLE",
     (("A", 1, 8), ("B", 2, 5), ("C", 3, 3), ("D", 4, 2), ("E", 8, 1))),
    ("missionpack-sweep-and-clear-held-until-taken", "SWEEP_AND_CLEAR",
     _table_row(missions.SWEEP_AND_CLEAR, "the opponent controls it",
                when=lambda held_by, by_models, end_of_phase: And(held_by != 0, by_models != 0,
                                                                  by_models != held_by))),
    ("missionpack-sweep-and-clear-held-until-taken", "SWEEP_AND_CLEAR",
     _table_without(missions.SWEEP_AND_CLEAR, "the opponent controls it")),
    ("missionpack-sweep-and-clear-basic-control-otherwise", "SWEEP_AND_CLEAR",
     _table_row(missions.SWEEP_AND_CLEAR, "held by nobody", then=0)),
    ("missionpack-sweep-and-clear-hold-taken-at-own-command-phase", "sweep_and_clear_holder",
     lambda held_by, by_models, end_of_phase, command_phase_of=0: If(
         end_of_phase, missions.sweep_and_clear_controller(held_by, by_models, end_of_phase), held_by)),
    ("missionpack-sweep-and-clear-hold-taken-at-own-command-phase", "sweep_and_clear_holder",
     lambda held_by, by_models, end_of_phase, command_phase_of=0: If(
         command_phase_of != 0, command_phase_of, held_by)),
    ("missionpack-base-of-operations-always-a-datasheet", "base_of_operations_eligible",
     lambda critical_feature, collection_has_critical_feature, points, highest_points: If(
         collection_has_critical_feature, critical_feature, points > highest_points)),
    ("missionpack-base-of-operations-placed-is-critical", "base_of_operations_eligible",
     lambda critical_feature, collection_has_critical_feature, points, highest_points: points >= highest_points),
    ("missionpack-base-of-operations-placed-is-critical", "base_of_operations_gains",
     lambda collection_has_critical_feature, has_heavy_cover: (logic.Not(collection_has_critical_feature),
                                                               logic.Not(collection_has_critical_feature))),
]


@pytest.mark.parametrize("name,attribute,broken", MUTANTS, ids=[f"{m[0]}:{i}" for i, m in enumerate(MUTANTS)])
def test_mission_proof_fails_on_a_broken_rule(name, attribute, broken, monkeypatch):
    assert name in MINE
    monkeypatch.setattr(missions, attribute, broken)
    assert proofs.check(proofs.PROOFS[name]).status == "disproved"


def test_every_proved_mission_proof_has_a_mutant():
    proved = {n for n in MINE if proofs.PROOFS[n].expect == "proved"}
    assert proved <= {m[0] for m in MUTANTS} | {m[0] for m in GENERIC}


# -- The maxima the proofs state are reached -------------------------------------------------------------------------

#: For each mission secondary, facts that earn its most at one moment (Operational Headquarters: at the end of the
#: battle; its battle-round moments use end_of_battle false).
BEST = {
    "seize-ground": {"player_a": True, "controls_marker_a": True, "controls_marker_b": True, "controls_marker_c": True},
    "measured-advance": {"controls_both_markers_a": True, "controls_marker_in_opponent_territory": True},
    "vantage-point": {"controls_tallest_in_own_territory": True, "controls_tallest_in_opponent_territory": True},
    "vital-ground": {"controls_marker_in_opponent_deployment_zone": True,
                     "markers_controlled_outside_deployment_zones": 2},
    "forward-push": {"player_a": True, "marker": "D"},
    "secure-strongholds": {"controls_marker_in_own_deployment_zone": True,
                           "controls_marker_in_opponent_deployment_zone": True},
    "spoils-of-audacity": {"controls_marker_in_opponent_territory": True, "markers_controlled_outside_territories": 2},
    "bounding-advance": {"controls_marker_in_own_territory": True, "controls_marker_in_opponent_territory": True},
    "encirclement": {"controls_both_markers_a": True},
    "operational-headquarters": {"controls_headquarters": True, "end_of_battle": True},
    "offensive-push": {"markers_controlled_in_opponent_territory": 1, "markers_controlled_in_own_territory": 0},
    "the-high-ground": {"controls_tallest_in_own_territory": True, "controls_tallest_in_opponent_territory": True},
    "hard-push": {"player_a": False, "marker": "A"},
    "vital-assets": {"qualifying_markers_in_own_territory": 2, "qualifying_markers_controlled": 2},
    "deny-the-foe": {"controls_both_markers_in_own_territory": True, "markers_controlled_in_opponent_territory": 1},
    "stand-your-ground": {"markers_a_controlled": 2},
    "aggressive-capitulation": {"controls_both_markers_in_opponent_deployment_zone": True},
}


def test_every_mission_secondary_is_registered_once_with_its_missions():
    assert set(missions.SECONDARIES) == set(BEST) == set(mp.MOMENT_MAXIMUM) == set(mp.BATTLE_MAXIMUM)
    for slug, item in missions.MISSIONS.items():
        objective = scoring.OBJECTIVES[item.secondary]
        assert objective is missions.SECONDARIES[item.secondary] and slug in objective.missions
        assert objective.kind == "secondary" and objective.category is None
        assert objective.ref in {f"mission/{m}/secondary" for m in objective.missions}
    assert scoring.OBJECTIVES["secure-strongholds"].missions == ("base-of-operations", "entrenched-defences")


@pytest.mark.parametrize("name", sorted(BEST))
def test_moment_maximum_is_reached(name):
    item = scoring.OBJECTIVES[name]
    assert item.score(battle_round=2, **BEST[name]) == mp.MOMENT_MAXIMUM[name]


def _battle_total(name):
    item = scoring.OBJECTIVES[name]
    total = 0
    for timing in item.timings:
        for battle_round in ([5] if timing is Timing.END_OF_BATTLE else range(1, 6)):
            facts = dict(BEST[name])
            if "end_of_battle" in facts:
                facts["end_of_battle"] = timing is Timing.END_OF_BATTLE
            total += item.score(battle_round=battle_round, **facts)
    return total


@pytest.mark.parametrize("name", sorted(BEST))
def test_battle_maximum_is_reached(name):
    assert _battle_total(name) == mp.BATTLE_MAXIMUM[name]


def test_which_mission_secondaries_can_reach_the_cap():
    """Every mission's own secondary can reach the 15 cap except Operational Headquarters (4 x 2 + 5 = 13); Offensive
    Push and Vital Assets reach it exactly, and only by scoring in all five battle rounds."""
    short = {name for name, total in mp.BATTLE_MAXIMUM.items() if total < scoring.SECONDARY_CAP}
    exact = {name for name, total in mp.BATTLE_MAXIMUM.items() if total == scoring.SECONDARY_CAP}
    assert short == {"operational-headquarters"}
    assert exact == {"offensive-push", "vital-assets"}


def test_moment_caps_are_the_stated_ones():
    """Where a mission's secondary says "for a maximum of N victory points", N is the most its score function awards
    at one moment (proved by missionpack-<mission>-secondary-per-moment), and only those two say so."""
    stated = {}
    for slug in missions.MISSIONS:
        found = re.search(r"for a maximum of (\d+) victory points", _secondary_text(slug))
        if found:
            stated[missions.mission(slug).secondary] = int(found[1])
    assert stated == {"vital-ground": 7, "spoils-of-audacity": 7}
    assert all(mp.MOMENT_MAXIMUM[name] == cap for name, cap in stated.items())


# -- The registrations say what the text says ------------------------------------------------------------------------


def _secondary_text(slug):
    return SECTIONS[f"mission/{slug}/secondary"]["text"]


@pytest.mark.parametrize("slug", list(missions.MISSIONS))
def test_secondary_timing_and_first_round_follow_the_text(slug):
    text = _secondary_text(slug).replace("**", "")
    objective = missions.secondary_of(slug)
    timings = set()
    if "at the end of each of your command phases" in text.lower():
        timings.add(Timing.END_OF_COMMAND_PHASE)
    if "at the end of the battle round" in text.lower():
        timings.add(Timing.END_OF_BATTLE_ROUND)
    if "(Action)" in text:
        timings.add(Timing.ACTION_COMPLETED)
    if "at the end of the battle if" in text:
        timings.add(Timing.END_OF_BATTLE)
    assert set(objective.timings) == timings
    assert objective.first_round == ("cannot be scored in the first battle round" not in text)
    assert (mp.MOMENT_MAXIMUM[objective.name] == 7) == ("for a maximum of 7 victory points" in text)
    assert SECTIONS[f"mission/{slug}/secondary"]["attributes"]["secondary"].lower() == objective.title.lower()


def test_secure_strongholds_scores_alike_in_both_missions():
    """Registered once: the scoring paragraph is word for word the same in Base of Operations and Entrenched
    Defences (only the flavour text differs by a comma)."""
    def scoring_paragraph(slug):
        return next(p for p in _secondary_text(slug).split("\n\n") if p.startswith("At the end of each of your"))
    assert scoring_paragraph("base-of-operations") == scoring_paragraph("entrenched-defences")


def _cells(ref):
    (table,) = SECTIONS[ref]["tables"]
    assert table["header"] == ["OBJECTIVE MARKER", "PLAYER A VICTORY POINTS", "PLAYER B VICTORY POINTS"]
    return [tuple(row) for row in table["rows"]]


@pytest.mark.parametrize("ref,table", [
    ("mission/seize-ground/secondary", missions.SEIZE_GROUND_TABLE),
    ("mission/forward-outpost/secondary", missions.FORWARD_PUSH_TABLE),
    ("mission/aggressive-strike/secondary", missions.HARD_PUSH_TABLE),
])
def test_player_tables_match_the_text_cell_by_cell(ref, table):
    assert _cells(ref) == [(label, str(a), str(b)) for label, a, b in table]


def test_mission_tables_match_step_4_cell_by_cell():
    tables = SECTIONS["sequence/04-determine-mission"]["tables"]
    assert [t["title"] for t in tables] == [f"{size.upper()} MISSIONS" for size in missions.BATTLE_SIZES]
    for size, table in zip(missions.BATTLE_SIZES, tables):
        die, slugs = missions.MISSION_TABLES[size]
        assert table["header"] == [die, "MISSION"]
        expected = [[str(roll), f"{missions.MISSIONS[s].title} (pg {missions.MISSIONS[s].page})"]
                    for roll, s in enumerate(slugs, 1)]
        assert table["rows"] == expected


def test_every_roll_of_the_die_picks_a_mission_of_that_battle_size():
    """Exhaustive: each result of each table picks a different mission of that size, and together all of them."""
    for size in missions.BATTLE_SIZES:
        die, _slugs = missions.MISSION_TABLES[size]
        rolled = [missions.mission_for_roll(size, roll) for roll in range(1, int(die[1:]) + 1)]
        assert all(m.battle_size == size for m in rolled)
        assert tuple(rolled) == missions.missions_for(size)
    assert sum(len(missions.missions_for(size)) for size in missions.BATTLE_SIZES) == len(missions.MISSIONS) == 18


def test_mission_data_matches_the_briefings_primaries_and_layout():
    pages = spec.load_yaml(spec.SPEC_ROOT / "missionpack" / "annotations" / "layout.yaml")["pages"]
    for slug, item in missions.MISSIONS.items():
        briefing = SECTIONS[f"mission/{slug}/briefing"]
        assert briefing["attributes"]["battle_size"] == item.battle_size
        assert briefing["heading"] == f"{item.battle_size.upper()} MISSION"
        assert briefing["attributes"]["mission"].lower() == item.title.lower()
        primary = SECTIONS[f"mission/{slug}/primary"]["attributes"]["primary"]
        assert {"take-and-hold": missions.TAKE_AND_HOLD, "domination": missions.DOMINATION}[primary] == item.primary
        assert pages[str(item.page)] == f"mission/{slug}/briefing"
    assert list(missions.MISSIONS) == [ref.split("/")[1] for ref in SECTIONS if ref.endswith("/briefing")]


def test_unknown_missions_sizes_and_rolls_are_one_sentence():
    with pytest.raises(ScoringError, match="'nowhere' is not a mission"):
        missions.mission("nowhere")
    with pytest.raises(ScoringError, match="'Skirmish' is not a battle size"):
        missions.missions_for("Skirmish")
    with pytest.raises(ScoringError, match="selected with a D3: 4"):
        missions.mission_for_roll("Onslaught", 4)
    with pytest.raises(ScoringError, match="'E' is not one of its objective markers"):
        missions.forward_push(2, True, "E")


# -- Each interpretation changes an outcome --------------------------------------------------------------------------


def test_player_a_reading_decides_forward_push():
    """The Attacker deploys on the side the map labels Player B and completes Forward Push on marker A: 8 under the
    chosen reading (Player A is a side of the map), 1 if Player A were the Attacker."""
    assert INTERPRETATIONS["player-a-is-a-side-of-the-map"]["chosen"] == "side-of-the-map"
    chosen = missions.forward_push(2, player_a=False, marker="A")
    attacker_reading = missions.forward_push(2, player_a=True, marker="A")
    assert (chosen, attacker_reading) == (8, 1)


def test_seize_ground_takes_the_best_marker():
    """Player A controls markers A and C: the best one scores 4; a nominated marker could score 1; never 5."""
    assert INTERPRETATIONS["seize-ground-best-marker"]["chosen"] == "best-marker"
    best = missions.seize_ground(3, True, True, False, True)
    assert best == 4 and best != 1 + 4


def test_sweep_and_clear_keeps_a_held_marker_until_the_phase_ends():
    """Mid-phase the opponent has more models in range of a marker player 1 holds: player 1 still controls it;
    under the basic rules the opponent already would."""
    assert INTERPRETATIONS["sweep-and-clear-until-end-of-phase"]["chosen"] == "until-end-of-phase"
    assert missions.sweep_and_clear_controller(1, 2, end_of_phase=False) == 1
    assert missions.sweep_and_clear_controller(1, 2, end_of_phase=True) == 2


def test_vital_assets_with_no_qualifying_marker():
    """No marker of the territory is on Area Terrain or by an Obstacle: 3 as written (all of none), 0 if a marker is
    needed."""
    assert INTERPRETATIONS["vital-assets-all-of-none"]["chosen"] == "all-of-none-scores"
    assert missions.vital_assets(1, 0, 0) == 3
    assert missions.vital_assets(1, 1, 0) == 0


def test_vital_assets_finding_disappears_when_a_marker_is_needed(monkeypatch):
    monkeypatch.setattr(missions, "vital_assets", lambda battle_round, qualifying_markers_in_own_territory,
                        qualifying_markers_controlled: If(And(qualifying_markers_in_own_territory >= 1,
                                                              qualifying_markers_controlled
                                                              >= qualifying_markers_in_own_territory), 3, 0))
    assert proofs.check(proofs.PROOFS["missionpack-vital-assets-needs-a-controlled-marker"]).status == "proved"


def _sheet(title, points, category="Area Terrain", traits=(), keywords=(), features=1):
    return terrain.TerrainDatasheet(title, f"{features} {title} terrain feature(s)", points, features, category,
                                    tuple(traits), (), ("BATTLEZONE MANUFACTURUM",), ("TERRAIN",) + tuple(keywords))


COLLECTION = (_sheet("Ruined Walls", 50, "Obstacle"), _sheet("Storage Fane", 40), _sheet("Woods", 30))


def test_headquarters_is_the_costliest_area_terrain():
    """The costliest datasheet is an Obstacle: the chosen reading declares the 40-point Area Terrain; the other
    reading (the costliest datasheet, which must be Area Terrain) leaves nothing to declare."""
    assert INTERPRETATIONS["headquarters-among-area-terrain"]["chosen"] == "costliest-area-terrain"
    assert missions.headquarters_candidates(COLLECTION) == ("Storage Fane",)
    costliest = max(COLLECTION, key=lambda s: s.terrain_points)
    assert costliest.category != "Area Terrain"


def test_operational_headquarters_needs_area_terrain():
    assert INTERPRETATIONS["headquarters-needs-area-terrain"]["chosen"] == "cannot-select"
    assert missions.may_select_operational_headquarters(COLLECTION)
    assert not missions.may_select_operational_headquarters(COLLECTION[:1])


def test_headquarters_finding_disappears_with_an_area_terrain_datasheet(monkeypatch):
    """The finding comes from collections without Area Terrain: if every datasheet were eligible it would hold."""
    monkeypatch.setattr(missions, "headquarters_eligible", lambda area_terrain, points, highest: True)
    assert proofs.check(proofs.PROOFS["missionpack-operational-headquarters-always-has-a-feature"]).status == "proved"


def test_player_label_finding_disappears_when_both_columns_agree(monkeypatch):
    monkeypatch.setattr(missions, "FORWARD_PUSH_TABLE", tuple((label, a, a) for label, a, _b in
                                                              missions.FORWARD_PUSH_TABLE))
    assert proofs.check(proofs.PROOFS["missionpack-player-label-decides-nothing"]).status == "proved"


def test_base_of_operations_every_feature_of_the_datasheet_gains():
    """A Barricades datasheet (several features) is placed: it gains CRITICAL FEATURE and Heavy Cover as a whole."""
    assert INTERPRETATIONS["base-of-operations-whole-datasheet"]["chosen"] == "whole-datasheet"
    collection = (_sheet("Barricades and Fuel Pipes", 45, "Obstacle", ("Defence Line", "Light Cover"), features=3),
                  _sheet("Woods", 30))
    placed = missions.base_of_operations_placement(collection, "Barricades and Fuel Pipes")
    assert placed.features == 3
    assert "CRITICAL FEATURE" in placed.other_keywords and "Heavy Cover" in placed.traits
    with pytest.raises(ValueError, match="cannot be the datasheet placed"):
        missions.base_of_operations_placement(collection, "Woods")


@pytest.mark.refs("missionpack:mission/base-of-operations/rules", "missionpack:sequence/10-set-up-tactical-terrain")
def test_base_of_operations_sets_up_the_placed_datasheet_first():
    """base-of-operations-placed-first: a 30-point CRITICAL FEATURE datasheet in a collection with a 50-point Obstacle
    and 35-point Woods is set up first (by the terrain marker), then 50, then 35; under cost-order-stands the Obstacle
    would come first, by the same marker."""
    assert INTERPRETATIONS["base-of-operations-placed-first"]["chosen"] == "placed-first"
    collection = (_sheet("Ruined Walls", 50, "Obstacle"), _sheet("Sanctum", 30, keywords=("CRITICAL FEATURE",)),
                  _sheet("Woods", 35))
    assert missions.base_of_operations_setup_order(collection, "Sanctum") == ["Sanctum", "Ruined Walls", "Woods"]
    cost_order = [d.title for d in sequence.terrain_setup_order([sequence.collected(s) for s in collection])]
    assert cost_order == ["Ruined Walls", "Woods", "Sanctum"]
    # Without a CRITICAL FEATURE datasheet the mission places the costliest, and the readings agree.
    plain = (collection[0], collection[2], _sheet("Crater", 20))
    assert missions.base_of_operations_setup_order(plain, "Ruined Walls") == ["Ruined Walls", "Woods", "Crater"]
    with pytest.raises(ValueError, match="cannot be the datasheet placed"):
        missions.base_of_operations_setup_order(collection, "Woods")


@pytest.mark.refs("missionpack:mission/forward-outpost/secondary", "missionpack:mission/aggressive-strike/secondary")
def test_a_push_scores_the_marker_it_started_on():
    """push-scores-the-marker-it-started-on: Player A's Forward Push started on marker D scores its 8 at the end of
    the turn even if the player no longer controls D then (still-controlled would score 0); a unit may only start it
    by a marker its player controls. Hard Push alike (marker E: 8)."""
    assert INTERPRETATIONS["push-scores-the-marker-it-started-on"]["chosen"] == "started-on"
    assert missions.push_can_start(True, True) and not missions.push_can_start(True, False)
    assert not missions.push_can_start(False, True)
    assert missions.forward_push(2, True, "D") == 8 and missions.hard_push(2, True, "E") == 8
    assert "control" not in " ".join(inspect.signature(missions.forward_push).parameters)  # no fact at completion


def test_base_of_operations_order_finding_disappears_if_the_mission_placed_the_costliest(monkeypatch):
    """Were the CRITICAL FEATURE datasheet the costliest, or the mission to place the costliest whatever its
    keywords, the statement the finding disproves would hold: the clash comes from the text's first paragraph."""
    monkeypatch.setattr(missions, "base_of_operations_eligible",
                        lambda critical_feature, collection_has_critical_feature, points, highest_points:
                        points >= highest_points)
    name = "missionpack-base-of-operations-placement-follows-setup-order"
    assert proofs.check(proofs.PROOFS[name]).status == "proved"


# -- Sweep and Clear over whole battles ------------------------------------------------------------------------------

PHASES = ("Command", "Movement", "Psychic", "Shooting", "Charge", "Fight", "Morale")


@st.composite
def battles(draw):
    """The basic-rules controller of one objective marker at the end of every phase of a battle (0, 1 or 2), with
    which player takes the first turn."""
    first = draw(st.sampled_from((1, 2)))
    ends = [draw(st.sampled_from((0, 1, 2))) for _ in range(5 * 2 * len(PHASES))]
    return first, ends


@pytest.mark.refs("missionpack:mission/steady-advance/rules")
@given(battles())
def test_sweep_and_clear_over_a_battle(battle):
    """Read straight from the text: once a player controls the marker at the end of their Command phase it is theirs
    at every later end of phase until one at which the opponent controls it by the basic rules; before anybody holds
    it, the basic rules decide."""
    first, ends = battle
    held = 0
    holder_since = None  # the text's own reading, kept independently of the rule function
    for index, by_models in enumerate(ends):
        turn, phase = divmod(index, len(PHASES))
        player = first if turn % 2 == 0 else 3 - first
        command = player if PHASES[phase] == "Command" else 0
        controller = missions.sweep_and_clear_controller(held, by_models, True)
        if holder_since is not None and by_models not in (0, holder_since):
            holder_since = None
        expected = holder_since if holder_since is not None else by_models
        note(f"turn {turn + 1} ({player}) end of {PHASES[phase]}: models say {by_models}, holder {held} -> "
             f"controller {controller}")
        assert controller == expected
        if command and expected == command:
            holder_since = command
        held = missions.sweep_and_clear_holder(held, by_models, True, command)
        assert held == (holder_since or 0)


@pytest.mark.parametrize("attribute,broken", [
    ("sweep_and_clear_holder", lambda held_by, by_models, end_of_phase, command_phase_of=0:
        missions.sweep_and_clear_controller(held_by, by_models, end_of_phase)),
    ("SWEEP_AND_CLEAR", _table_without(missions.SWEEP_AND_CLEAR, "the opponent controls it")),
    ("sweep_and_clear_holder", lambda held_by, by_models, end_of_phase, command_phase_of=0: If(
        And(command_phase_of != 0, by_models == command_phase_of), command_phase_of, held_by)),
])
def test_sweep_and_clear_property_fails_on_a_broken_rule(attribute, broken, monkeypatch):
    broken_rules.assert_property_fails(monkeypatch, test_sweep_and_clear_over_a_battle, missions, attribute, broken)


# -- Tables and the ledger --------------------------------------------------------------------------------------------


def test_sweep_and_clear_table_has_no_gap_and_agrees_in_both_modes():
    report = logic.check_table(missions.SWEEP_AND_CLEAR)
    assert report.ok, report.problems()
    assert logic.enumerate_agreement(missions.SWEEP_AND_CLEAR) == []


def test_a_mission_secondary_through_the_ledger():
    """Vital Ground's 7 in each of rounds 2-5 (28 awarded) counts 15; a Forward Push chosen in another mission is
    refused with a sentence."""
    pack = [n for n, o in scoring.OBJECTIVES.items() if o.kind == "secondary" and not o.missions]
    categories, others = set(), []
    for name in pack:
        item = scoring.OBJECTIVES[name]
        if item.category not in categories and item.selectable is None:
            categories.add(item.category)
            others.append(name)
    chosen = ("vital-ground",) + tuple(others[:2])
    events = tuple(scoring.Event(r, "attacker", Timing.END_OF_COMMAND_PHASE, "vital-ground",
                                 {"controls_marker_in_opponent_deployment_zone": True,
                                  "markers_controlled_outside_deployment_zones": 3}) for r in range(2, 6))
    game = scoring.Game("meeting-engagement", {"attacker": chosen, "defender": chosen}, {}, events)
    sheet = scoring.replay(game)["attacker"]
    assert sheet.objective_total("vital-ground") == 15 and sheet.awarded == 28 and sheet.discounted == 13
    with pytest.raises(ScoringError, match="Forward Push|forward-push"):
        scoring.replay(dataclasses.replace(game, secondaries={"attacker": ("forward-push",) + tuple(others[:2]),
                                                              "defender": chosen}))


def test_primary_award_follows_the_mission():
    """Two markers to the opponent's one: 15 under Take and Hold (Seize Ground), 10 under Domination (Drawn Battle
    Lines: two or more, not three, more than the opponent)."""
    assert missions.primary_award("seize-ground", 2, 2, 1) == 15
    assert missions.primary_award("drawn-battle-lines", 2, 2, 1) == 10
    assert re.search(r"DOMINATION", SECTIONS["mission/drawn-battle-lines/primary"]["text"])


# -- Gaps the mutation run found (issue 11) ---------------------------------------------------------------------------


@pytest.mark.refs("missionpack:sequence/04-determine-mission")
def test_a_roll_the_die_cannot_show_picks_no_mission():
    """Only the die's results select a mission: 0, -1, one past the die (4 on a D3, 7 on a D6), a flag or a word
    are refused with one sentence, never read as some row of the table (0 as its last row, say)."""
    for size in missions.BATTLE_SIZES:
        die, slugs = missions.MISSION_TABLES[size]
        for roll in (0, -1, len(slugs) + 1, True, "2"):
            with pytest.raises(ScoringError, match=f"selected with a {die}"):
                missions.mission_for_roll(size, roll)


@pytest.mark.refs("missionpack:mission/seize-ground/secondary", "missionpack:mission/forward-outpost/secondary",
                  "missionpack:mission/aggressive-strike/secondary")
def test_marker_tables_read_their_cells_and_nothing_outside():
    """Each Player A / Player B table gives a row's printed cell for the player's side, and 0 for a row it does not
    have (what a z3 caller gets for an unconstrained row)."""
    for table in missions.MARKER_TABLES.values():
        for row in range(-1, len(table) + 3):
            for player_a in (True, False):
                cell = table[row - 1][1 if player_a else 2] if 1 <= row <= len(table) else 0
                assert missions.table_points(table, row, player_a) == cell, (table[0], row, player_a)


@pytest.mark.refs("missionpack:mission/base-of-operations/rules")
def test_a_datasheet_that_cannot_be_placed_is_refused_naming_those_that_can():
    """Base of Operations: with no CRITICAL FEATURE datasheet only the costliest may be placed; choosing another is
    one sentence that names the allowed choice."""
    collection = (_sheet("Barricades and Fuel Pipes", 45, "Obstacle", features=3), _sheet("Woods", 30))
    with pytest.raises(ValueError, match=r"'Woods' cannot be .* \(the collection allows Barricades and Fuel Pipes\)$"):
        missions.base_of_operations_placement(collection, "Woods")


@pytest.mark.refs("missionpack:sequence/04-determine-mission",
                  *(f"missionpack:mission/{slug}/primary" for slug in missions.MISSIONS))
def test_the_mission_decides_which_primary_scores():
    """Step 4's mission brings its briefing's primary: two markers to the opponent's one in round 2 score 15 where
    the briefing names Take and Hold (one or more, two or more, more than the opponent) and 10 where it names
    Domination (two or more, not three or more, more than the opponent)."""
    expected = {"take-and-hold": 15, "domination": 10}
    for slug in missions.MISSIONS:
        named = SECTIONS[f"mission/{slug}/primary"]["attributes"]["primary"]
        assert missions.primary_award(slug, 2, 2, 1) == expected[named], slug
