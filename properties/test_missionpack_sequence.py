"""The sequence of a Tactical Deployment game: the code tables against the ingested ones cell by cell, the z3
proofs of properties/proofs_missionpack_sequence.py (each with its expected verdict and, when proved, disproved for
a plausible slip), and hypothesis properties of the validators and orders, each shown failing on a broken copy."""

from __future__ import annotations

import dataclasses
import re
from collections import Counter

import pytest
from hypothesis import given, strategies as st

from properties import broken_rules
from properties import proofs
from properties import proofs_missionpack_sequence  # noqa: F401  (registers the proofs)
from properties.mutation import fails
from rules import registry, spec
from rules.logic import And, If, Implies, Not, Or
from rules.missionpack import battle_sizes, sequence
from rules.missionpack.battle_sizes import BATTLE_SIZES
from rules.missionpack.sequence import DeclaredUnit, MusteredUnit, TerrainDatasheet
from rules40k import annotations

SECTIONS = spec.sections("missionpack")
MINE = broken_rules.proofs_built_in(proofs_missionpack_sequence)


# --------------------------------------------------------------------------
# The code tables are the book's tables


def _table(ref: str, index: int = 0) -> dict:
    return SECTIONS[ref]["tables"][index]


def test_battle_duration_table_is_the_books():
    table = _table("sequence/01-select-battle-size")
    assert table["header"] == ["BATTLE SIZE", "BATTLE DURATION"]
    assert table["rows"] == [[size, f"Up to {hours} hour{'s' if hours > 1 else ''}"]
                             for size, hours in battle_sizes.BATTLES]
    assert [battle_sizes.battle_duration_hours(size) for size in BATTLE_SIZES] == [1, 2, 3, 4]


def test_army_table_is_the_books():
    table = _table("sequence/02-muster-armies")
    assert table["title"] == "ARMY" and table["header"] == ["BATTLE SIZE", "POINTS LIMIT", "COMMAND POINTS"]
    assert table["rows"] == [[size, str(points), str(cp)] for size, points, cp in battle_sizes.ARMY]
    for size, points, cp in battle_sizes.ARMY:
        assert (battle_sizes.points_limit(size), battle_sizes.starting_command_points(size)) == (points, cp)


def test_tactical_terrain_table_is_the_books():
    table = _table("sequence/03-gather-tactical-terrain")
    assert table["header"][0] == "BATTLE SIZE" and len(table["header"]) == 6
    assert table["rows"] == [[row[0], *map(str, row[1:])] for row in battle_sizes.TACTICAL_TERRAIN]
    columns = (battle_sizes.minimum_terrain_datasheets, battle_sizes.maximum_datasheet_repeats,
               battle_sizes.maximum_critical_feature_repeats, battle_sizes.minimum_terrain_points,
               battle_sizes.maximum_terrain_points)
    for row in table["rows"]:
        assert [str(column(row[0])) for column in columns] == row[1:]


def test_battlefield_table_is_the_books():
    """The first row is printed "Combat Patrol/IncurSION" (a merged, garbled cell): it serves both battle sizes."""
    table = _table("sequence/06-create-the-battlefield")
    assert table["header"] == ["BATTLE SIZE", "BATTLEFIELD SIZE"]
    assert len(table["rows"]) == len(battle_sizes.BATTLEFIELDS)
    for (label, cell), (sizes, boards, width, depth) in zip(table["rows"], battle_sizes.BATTLEFIELDS):
        assert label.lower() == "/".join(sizes).lower()
        assert cell == f'{boards} Battlezone boards (approximately {width}" x {depth}")'
        for size in sizes:
            assert battle_sizes.battlezone_boards(size) == boards
            assert battle_sizes.battlefield_size(size) == (width, depth)
    covered = [size for sizes, *_ in battle_sizes.BATTLEFIELDS for size in sizes]
    assert covered == list(BATTLE_SIZES)


def test_contents_points_per_side_agree_with_the_army_table():
    """The contents (inert) repeat each battle size's points; they agree with step 2's table."""
    text = SECTIONS["contents"]["text"]
    stated = re.findall(r"(Combat Patrol|Incursion|Strike Force|Onslaught) \(([\d,]+) points per side\)", text,
                        flags=re.IGNORECASE)
    assert [(size.lower(), int(points.replace(",", ""))) for size, points in stated] == [
        (size.lower(), points) for size, points, _ in battle_sizes.ARMY]


def test_storage_fane_is_the_packs_datasheet():
    text = SECTIONS["terrain/datasheet/storage-fane"]["text"]
    fane = sequence.STORAGE_FANE
    assert f"{fane.points} TERRAIN POINTS" in text and f"consists of {fane.features} Storage Fane" in text
    assert "is an Area Terrain feature" in text and fane.category == sequence.TerrainCategory.AREA_TERRAIN
    assert f"BATTLEZONE KEYWORDS: {', '.join(fane.battlezones)}" in text and "CRITICAL FEATURE" not in text


def test_battle_sizes_are_the_books():
    assert "Combat Patrol, Incursion, Strike Force or Onslaught" in SECTIONS["sequence/01-select-battle-size"]["text"]
    assert [s.title for s in battle_sizes.BattleSize] == list(BATTLE_SIZES)
    assert sequence.BATTLE_SIZES is BATTLE_SIZES
    with pytest.raises(battle_sizes.BattleSizeError):
        battle_sizes.points_limit("Apocalypse")


@pytest.mark.refs("missionpack:sequence/01-select-battle-size", "missionpack:sequence/02-muster-armies")
def test_a_battle_size_named_any_way_reads_the_same_row():
    """The book's name, the ``BattleSize`` member and its index are one battle size (the tables compare sizes by
    index), and an index past the four is refused with the range in the sentence."""
    for index, title in enumerate(BATTLE_SIZES):
        member = battle_sizes.BattleSize(index)
        assert member.title == title
        assert {battle_sizes.battle_size_index(way) for way in (title, member, index)} == {index}
        assert battle_sizes.points_limit(member) == battle_sizes.points_limit(title)
    for bad in (-1, len(BATTLE_SIZES)):
        with pytest.raises(battle_sizes.BattleSizeError, match=rf"^battle size index {bad} is not 0 to 3$"):
            battle_sizes.battle_size_index(bad)


@pytest.mark.refs("missionpack:mission-objectives")
def test_objective_types_are_numbered_as_the_examples_and_the_proof_read_them():
    """The examples (sequence.yaml's header) and the proof missionpack-end-game-scores-once-at-the-end write an
    objective type as 1 End Game, 2 Progressive, 3 Progressive and End Game, the proof ranging over 1..3: each
    member must carry its number, or that range would miss one and the examples' 3 would name nothing."""
    assert {t.name: int(t) for t in sequence.ObjectiveType} == {
        "END_GAME": 1, "PROGRESSIVE": 2, "PROGRESSIVE_AND_END_GAME": 3}
    assert sequence.objective_type_from_timing(True, True) == 3


ROSTER_EXCHANGE = "each player must then provide a copy of their army roster for their opponent to read through"


@pytest.mark.refs("missionpack:sequence/02-muster-armies", "missionpack:sequence/03-gather-tactical-terrain")
def test_army_roster_provided_in_two_steps():
    """Finding army-roster-provided-twice: steps 2 and 3 each order the army rosters exchanged, step 2 before any
    Tactical Terrain is gathered, step 3 once it is; no step has a player show their Tactical Terrain roster."""
    steps = [ref for ref in SECTIONS if ref.startswith("sequence/")
             and ROSTER_EXCHANGE in SECTIONS[ref]["text"].lower()]
    assert steps == ["sequence/02-muster-armies", "sequence/03-gather-tactical-terrain"]
    assert [int(ref.split("/")[1][:2]) for ref in steps] == list(sequence.ROSTER_EXCHANGE_STEPS)
    step_2 = SECTIONS[steps[0]]["text"]
    assert "Tactical Terrain" not in step_2[:step_2.lower().index(ROSTER_EXCHANGE)]
    assert "After both players have mustered their army and gathered their Tactical Terrain, " + ROSTER_EXCHANGE \
        in SECTIONS[steps[1]]["text"].replace("Each player", "each player")
    shown = re.compile(r"Tactical Terrain roster[^.]*(opponent|provide|reveal)|(opponent|provide|reveal)[^.]*"
                       r"Tactical Terrain roster")
    assert not any(shown.search(SECTIONS[ref]["text"]) for ref in SECTIONS if ref.startswith("sequence/"))


def test_the_roster_readings_differ_while_terrain_is_gathered():
    """army-roster-read-after-muster: a player gathering Tactical Terrain (two steps done) has read the opponent's
    army roster; under read-after-terrain they have not until step 3 is done. Both have by step 11, where
    secondaries are chosen "after ... the armies have been revealed"."""
    records = {r["id"]: r for r in annotations.interpretations("missionpack")}
    assert records["army-roster-read-after-muster"]["chosen"] == "after-muster"
    gathering = 2
    assert sequence.opponent_army_roster_read(gathering) is True
    assert (gathering >= sequence.ROSTER_EXCHANGE_STEPS[-1]) is False  # the other reading
    assert sequence.opponent_army_roster_read(1) is False
    assert all(sequence.opponent_army_roster_read(step) for step in range(3, 12))


@pytest.mark.refs("missionpack:sequence/03-gather-tactical-terrain")
def test_terrain_table_headed_army():
    """Finding terrain-table-headed-army: step 3's terrain table carries step 2's heading, ARMY."""
    army, terrain = _table("sequence/02-muster-armies"), _table("sequence/03-gather-tactical-terrain")
    assert army["title"] == terrain["title"] == "ARMY"


# --------------------------------------------------------------------------
# Proofs: verdicts and mutants


@pytest.mark.parametrize("name", MINE)
def test_sequence_proof_has_its_expected_verdict(name):
    broken_rules.assert_expected_verdict(name)


def _with_cell(table, label: str, value):
    """A battle-size table with one cell mistyped."""
    rows = tuple(dataclasses.replace(row, then=value) if row.label == label else row for row in table.rows)
    assert rows != table.rows, label
    return dataclasses.replace(table, rows=rows)


B, S = battle_sizes, sequence

# (proof, module, attribute, broken copy): each a plausible slip that must turn the proof "disproved".
MUTANTS = [
    ("missionpack-army-tables-grow-with-battle-size", B, "COMMAND_POINTS",
     _with_cell(B.COMMAND_POINTS, "Strike Force", 5)),
    ("missionpack-army-tables-grow-with-battle-size", B, "POINTS_LIMIT", _with_cell(B.POINTS_LIMIT, "Onslaught", 1500)),
    ("missionpack-army-tables-grow-with-battle-size", B, "BATTLE_DURATION",
     _with_cell(B.BATTLE_DURATION, "Incursion", 0)),
    ("missionpack-terrain-table-grows-with-battle-size", B, "MINIMUM_TERRAIN_POINTS",
     _with_cell(B.MINIMUM_TERRAIN_POINTS, "Onslaught", 130)),
    ("missionpack-terrain-table-grows-with-battle-size", B, "MAXIMUM_DATASHEET_REPEATS",
     _with_cell(B.MAXIMUM_DATASHEET_REPEATS, "Strike Force", 1)),
    ("missionpack-terrain-table-grows-with-battle-size", B, "MAXIMUM_CRITICAL_FEATURE_REPEATS",
     _with_cell(B.MAXIMUM_CRITICAL_FEATURE_REPEATS, "Onslaught", 0)),
    ("missionpack-battlefield-grows-with-battle-size", B, "BATTLEZONE_BOARDS",
     _with_cell(B.BATTLEZONE_BOARDS, "Onslaught", 3)),
    ("missionpack-battlefield-is-its-boards", B, "BATTLEFIELD_DEPTH", _with_cell(B.BATTLEFIELD_DEPTH, "Onslaught", 80)),
    ("missionpack-terrain-points-minimum-within-maximum", B, "MINIMUM_TERRAIN_POINTS",
     _with_cell(B.MINIMUM_TERRAIN_POINTS, "Incursion", 160)),
    ("missionpack-critical-feature-repeats-within-repeats", B, "MAXIMUM_CRITICAL_FEATURE_REPEATS",
     _with_cell(B.MAXIMUM_CRITICAL_FEATURE_REPEATS, "Combat Patrol", 2)),
    ("missionpack-collection-needs-two-different-datasheets", B, "MINIMUM_TERRAIN_DATASHEETS",
     _with_cell(B.MINIMUM_TERRAIN_DATASHEETS, "Combat Patrol", 1)),
    ("missionpack-collection-needs-two-different-datasheets", S, "collection_meets_table",
     lambda battle_size, datasheets_included, terrain_points, most_repeats, most_critical_feature_repeats=0:
         And(terrain_points >= B.minimum_terrain_points(battle_size),
             terrain_points <= B.maximum_terrain_points(battle_size))),
    ("missionpack-datasheet-repetition-two-then-three", S, "DATASHEET_REPETITION",
     dataclasses.replace(S.DATASHEET_REPETITION, rows=tuple(
         dataclasses.replace(r, then=lambda battle_size, copies: copies < 3) if r.label.startswith("Strike") else r
         for r in S.DATASHEET_REPETITION.rows))),
    ("missionpack-combat-patrol-one-detachment", S, "combat_patrol_detachments_allowed",
     lambda knights_army, patrol, super_heavy, other: If(knights_army, super_heavy >= 1, patrol >= 1)),
    ("missionpack-roll-off-winner-decides", S, "attacker",
     lambda roll_off_winner, winner_chooses_attacker: roll_off_winner),
    ("missionpack-roll-off-winner-decides", S, "attacker_deployment_zone", lambda defender_zone: defender_zone),
    ("missionpack-alternation-never-stalls", S, "next_to_alternate",
     lambda first_done, second_done, first_total, second_total: If(first_done <= second_done, 1, 2)),
    ("missionpack-alternation-never-stalls", S, "next_to_alternate",
     lambda first_done, second_done, first_total, second_total:
         If(And(first_done < first_total, second_done < second_total), If(second_done <= first_done, 2, 1),
            If(first_done < first_total, 1, If(second_done < second_total, 2, 0)))),
    ("missionpack-terrain-placement-clearances", S, "TERRAIN_CLEARANCE", 2),
    ("missionpack-terrain-placement-clearances", S, "may_stand_on_objective_marker", lambda category: True),
    ("missionpack-terrain-placement-clearances", S, "terrain_marker_rule_met",
     lambda markers_in_territory, markers_with_a_feature, distance_to_free_marker: distance_to_free_marker <= 12),
    ("missionpack-reserve-units-exactly-half-allowed", S, "reserve_units_allowed",
     lambda reserve_units, total_units: 2 * reserve_units < total_units),
    ("missionpack-reserve-points-exactly-half-refused", S, "reserve_points_allowed",
     lambda reserve_points, army_points: 2 * reserve_points <= army_points),
    ("missionpack-reserves-arrive-in-rounds-two-or-three", S, "may_arrive_from_reserves",
     lambda battle_round: battle_round >= 1),
    ("missionpack-reserves-arrive-in-rounds-two-or-three", S, "destroyed_in_reserves",
     lambda battle_rounds_completed, arrived, placed_in_reserves_after_battle_began:
         And(Not(arrived), battle_rounds_completed >= 3)),
    ("missionpack-deployment-clearances", S, "fortification_placement_allowed", lambda distance_to_nearest_terrain:
     distance_to_nearest_terrain >= 3),
    ("missionpack-deployment-clearances", S, "large_model_unit_may", lambda activity, battle_round: True),
    ("missionpack-deployment-clearances", S, "too_large_for_deployment_zone",
     lambda smallest_dimension, deployment_zone_depth: smallest_dimension >= deployment_zone_depth),
    ("missionpack-battle-ends-after-five-rounds", S, "battle_continues",
     lambda battle_rounds_completed, ended_by_agreement=False, one_player_left=False, remaining_player_plays_on=True:
         And(battle_rounds_completed <= 5, Not(ended_by_agreement),
             Implies(one_player_left, remaining_player_plays_on))),
    ("missionpack-battle-ends-after-five-rounds", S, "battle_continues",
     lambda battle_rounds_completed, ended_by_agreement=False, one_player_left=False, remaining_player_plays_on=True:
         And(battle_rounds_completed < 5, Not(ended_by_agreement), Not(one_player_left))),
    ("missionpack-end-game-scores-once-at-the-end", S, "objective_may_score",
     lambda objective_type, end_of_battle, scored_at_end_of_battle=False:
         If(end_of_battle, objective_type != 2, objective_type != 1)),
    ("missionpack-end-game-scores-once-at-the-end", S, "objective_may_score",
     lambda objective_type, end_of_battle, scored_at_end_of_battle=False: Or(end_of_battle, objective_type != 1)),
]


def test_every_proved_sequence_proof_has_a_mutant():
    broken_rules.assert_every_proved_proof_has_a_mutant(MINE, MUTANTS)


@pytest.mark.parametrize("name,module,attribute,mutant", MUTANTS,
                         ids=[f"{m[0]}-{m[2]}-{i}" for i, m in enumerate(MUTANTS)])
def test_sequence_proof_catches_a_broken_rule(monkeypatch, name, module, attribute, mutant):
    assert hasattr(module, attribute)
    broken_rules.assert_proof_catches(monkeypatch, name, module, attribute, mutant)


def test_repetition_finding_disappears_if_every_size_had_a_limit(monkeypatch):
    """Under a reading that limits every battle size (e.g. three times for Onslaught, two for Combat Patrol) the
    statement holds: the finding is exactly the two unstated rows."""
    monkeypatch.setattr(sequence, "datasheet_copies_allowed",
                        lambda battle_size, copies: copies <= If(Or(battle_size == 0, battle_size == 1), 2, 3))
    item = proofs.PROOFS["missionpack-datasheet-repetition-limited-in-every-battle-size"]
    assert proofs.check(item).status == "proved"


def test_alternation_finding_disappears_under_the_remainder_reading(monkeypatch):
    """With the reading the code follows (the player with datasheets left carries on) the statement holds."""
    monkeypatch.setattr(proofs_missionpack_sequence, "strict_alternation", sequence.next_to_alternate)
    item = proofs.PROOFS["missionpack-terrain-alternation-as-written-always-has-a-datasheet"]
    assert proofs.check(item).status == "proved"


def test_storage_fane_finding_needs_a_second_datasheet():
    """The finding is about the Storage Fane alone: with one more datasheet (of a suitable cost) every battle size
    has a legal collection."""
    other = TerrainDatasheet("Other", 0, ("BATTLEZONE MANUFACTURUM",))
    for size in BATTLE_SIZES:
        assert _some_legal_collection_with(size, other), size


def _some_legal_collection_with(size: str, other: TerrainDatasheet) -> list | None:
    for points in range(5, 401, 5):
        candidate = dataclasses.replace(other, points=points)
        for fanes in range(0, 5):
            for others in range(0, 5):
                collection = [sequence.STORAGE_FANE] * fanes + [candidate] * others
                if collection and not sequence.terrain_collection_problems(size, collection):
                    return collection
    return None


# --------------------------------------------------------------------------
# Hypothesis properties

ZONE = ("BATTLEZONE MANUFACTURUM",)
DATASHEETS = [sequence.STORAGE_FANE] + [
    TerrainDatasheet(f"Datasheet {i}", points, ZONE, critical_feature=critical, features=features)
    for i, (points, critical, features) in enumerate([(20, False, 2), (35, False, 1), (50, True, 1), (60, False, 3),
                                                       (75, True, 1), (100, False, 1)])]

collections = st.lists(st.sampled_from(DATASHEETS), max_size=12)
sizes = st.sampled_from(BATTLE_SIZES)


@pytest.mark.refs("missionpack:sequence/03-gather-tactical-terrain")
@given(size=sizes, collection=collections)
def test_terrain_validator_agrees_with_the_table(size, collection):
    """A collection of one Battlezone passes the validator exactly when its totals meet the battle size's row."""
    counts = Counter(d.title for d in collection)
    critical = Counter(d.title for d in collection if d.critical_feature)
    meets = sequence.collection_meets_table(size, len(collection), sum(d.points for d in collection),
                                            max(counts.values(), default=0), max(critical.values(), default=0))
    assert (not sequence.terrain_collection_problems(size, collection)) == meets


@pytest.mark.refs("missionpack:sequence/tactical-terrain-roster")
@given(collection=collections)
def test_roster_totals_add_up(collection):
    """The roster's quantities add up to the datasheets included, its points to the total terrain points, and the
    total number of features counts every feature each included datasheet describes."""
    roster = sequence.tactical_terrain_roster(collection)
    assert sum(quantity for _, quantity, _ in roster["lines"]) == len(collection)
    assert sum(points for _, _, points in roster["lines"]) == roster["total_terrain_points"]
    assert roster["total_terrain_features"] >= len(collection)


@pytest.mark.refs("missionpack:sequence/10-set-up-tactical-terrain")
@given(attacker=collections, defender=collections)
def test_terrain_setup_sequence(attacker, defender):
    """Every datasheet is set up once; the Attacker starts; each player goes from their most to their least
    expensive; nobody sets up twice in a row while the other still has a datasheet left."""
    order = sequence.terrain_setup_sequence(attacker, defender)
    assert Counter(t for p, t in order if p == "attacker") == Counter(d.title for d in attacker)
    assert Counter(t for p, t in order if p == "defender") == Counter(d.title for d in defender)
    if attacker:
        assert order[0][0] == "attacker"
    cost = {d.title: d.points for d in DATASHEETS}
    for player in ("attacker", "defender"):
        costs = [cost[t] for p, t in order if p == player]
        assert costs == sorted(costs, reverse=True)
    left = {"attacker": len(attacker), "defender": len(defender)}
    previous = None
    for player, _ in order:
        other = "defender" if player == "attacker" else "attacker"
        assert not (player == previous and left[other] > 0)
        left[player] -= 1
        previous = player


@pytest.mark.refs("missionpack:sequence/13-deploy-armies")
@given(defender=st.integers(0, 12), attacker=st.integers(0, 12))
def test_deployment_order(defender, attacker):
    """The Defender sets up first, players alternate one unit at a time, and whoever has units left once the other
    is done deploys them all."""
    d_units, a_units = [f"d{i}" for i in range(defender)], [f"a{i}" for i in range(attacker)]
    order = sequence.deployment_order(d_units, a_units)
    assert [u for p, u in order if p == "defender"] == d_units and [u for p, u in order if p == "attacker"] == a_units
    if d_units:
        assert order[0][0] == "defender"
    both = min(defender, attacker)
    assert [p for p, _ in order[:2 * both]] == ["defender", "attacker"] * both


starts = st.sampled_from(("battlefield", "strategic reserves", "elsewhere"))
units = st.lists(st.tuples(st.sampled_from((10, 20, 30, 60)), starts,
                           st.booleans()), min_size=1, max_size=10)


def _declared(raw) -> list[DeclaredUnit]:
    """Units from generated data: a unit flagged to embark rides in the first unit (as its TRANSPORT)."""
    out = []
    for i, (points, starts, embark) in enumerate(raw):
        out.append(DeclaredUnit(f"u{i}", points, "battlefield" if (embark and i) else starts,
                                "u0" if (embark and i) else None))
    return out


@pytest.mark.refs("missionpack:sequence/12-declare-reserves-and-transports")
@given(raw=units)
def test_reserves_count_passengers_and_limits(raw):
    """Units embarked within a reserve TRANSPORT count with it; the unit limit allows exactly half, the points
    limit refuses exactly half."""
    declared = _declared(raw)
    result = sequence.reserves_declaration(declared)
    transport_off = declared[0].starts != "battlefield"
    off = [u for u in declared if u.starts != "battlefield" or (u.embarked_in == "u0" and transport_off)]
    assert result["reserve_units"] == len(off)
    assert result["reserve_points"] == sum(u.points for u in off)
    assert result["units_allowed"] == (2 * len(off) <= len(declared))
    assert result["points_allowed"] == (2 * result["reserve_points"] < result["army_points"])


roles = st.sampled_from(("HQ", "Troops", "Elites", "Fast Attack", "Heavy Support", "Dedicated Transport"))
army_units = st.lists(st.tuples(st.sampled_from(("Chaos Lord", "Daemon Prince", "Daemon Prince of Nurgle",
                                                 "Havocs", "Rhino")), roles, st.booleans()), max_size=10)


@pytest.mark.refs("missionpack:sequence/02-muster-armies")
@given(size=st.sampled_from(("Incursion", "Strike Force")), raw=army_units)
def test_repetition_limit_counts_what_the_text_counts(size, raw):
    """An Incursion or Strike Force army breaks the repetition limit exactly when some datasheet (every Daemon
    Prince being one) appears more than two or three times outside Troops, Dedicated Transports and
    Reinforcement-point units."""
    built = tuple(MusteredUnit(title, role, ("HERETIC ASTARTES",), reinforcement_points=reinforced)
                  for title, role, reinforced in raw)
    army = sequence.Army(size, "CHAOS", (sequence.Detachment("Battalion", built),), points=500)
    counted = Counter("Daemon Prince" if title.startswith("Daemon Prince") else title
                      for title, role, reinforced in raw
                      if role not in ("Troops", "Dedicated Transport") and not reinforced)
    limit = 2 if size == "Incursion" else 3
    broken = any(copies > limit for copies in counted.values())
    assert any("times;" in p for p in sequence.muster_problems(army)) == broken


# --------------------------------------------------------------------------
# Each property fails on a broken copy


PROPERTY_MUTANTS = [
    (test_terrain_validator_agrees_with_the_table, sequence, "collection_meets_table",
     lambda battle_size, datasheets_included, terrain_points, most_repeats, most_critical_feature_repeats=0:
         And(datasheets_included >= B.minimum_terrain_datasheets(battle_size),
             terrain_points >= B.minimum_terrain_points(battle_size),
             terrain_points < B.maximum_terrain_points(battle_size),
             most_repeats <= B.maximum_datasheet_repeats(battle_size))),
    (test_terrain_validator_agrees_with_the_table, sequence, "terrain_collection_problems",
     lambda battle_size, collection: [] if len(collection) >= B.minimum_terrain_datasheets(battle_size) else ["few"]),
    (test_roster_totals_add_up, sequence, "tactical_terrain_roster",
     lambda collection: {"lines": [[d.title, 1, d.points] for d in {d.title: d for d in collection}.values()],
                         "total_terrain_features": len(set(collection)),
                         "total_terrain_points": sum(d.points for d in collection)}),
    (test_terrain_setup_sequence, sequence, "terrain_setup_order",
     lambda collection: sorted(collection, key=lambda d: d.points)),
    (test_terrain_setup_sequence, sequence, "next_to_alternate",
     lambda first_done, second_done, first_total, second_total:
         If(first_done < first_total, 1, If(second_done < second_total, 2, 0))),
    (test_deployment_order, sequence, "deployment_order",
     lambda defender_units, attacker_units: [("defender" if who == 2 else "attacker", u)
                                             for who, u in sequence.alternate(attacker_units, defender_units)]),
    (test_reserves_count_passengers_and_limits, sequence, "_off_the_battlefield",
     lambda units: [u for u in units if u.starts != "battlefield"]),
    (test_reserves_count_passengers_and_limits, sequence, "reserve_points_allowed",
     lambda reserve_points, army_points: 2 * reserve_points <= army_points),
    (test_repetition_limit_counts_what_the_text_counts, sequence, "ROLES_WITHOUT_REPETITION_LIMIT", ("Troops",)),
    (test_repetition_limit_counts_what_the_text_counts, sequence, "DAEMON_PRINCES", ("Daemon Prince",)),
]


@pytest.mark.parametrize("check,module,attribute,mutant", PROPERTY_MUTANTS,
                         ids=[f"{m[0].__name__}-{m[2]}" for m in PROPERTY_MUTANTS])
def test_sequence_property_catches_a_broken_rule(monkeypatch, check, module, attribute, mutant):
    assert hasattr(module, attribute)
    monkeypatch.setattr(module, attribute, mutant)
    assert fails(check)


def test_every_property_has_a_mutant():
    marked = {name for name, value in globals().items()
              if name.startswith("test_") and hasattr(value, "hypothesis")}
    assert marked == {m[0].__name__ for m in PROPERTY_MUTANTS}


# --------------------------------------------------------------------------
# Interpretations: the readings differ on a concrete case

RECORDS = {r["id"]: r for r in annotations.interpretations("missionpack")}
MY_RECORDS = ("repetition-limit-only-where-stated", "alternation-remainder", "terrain-minimum-counts-inclusions",
              "terrain-points-between-inclusive", "fortification-network-exception-scope",
              "embarked-units-count-against-unit-limit", "roster-quantity-counts-datasheets",
              "terrain-table-heading-slip")


def test_interpretations_named_in_the_sequence_are_recorded():
    named = set()
    for rules in registry.load("missionpack").values():
        for item in rules:
            if item.function.__module__ in (sequence.__name__, battle_sizes.__name__):
                named.update(re.findall(r"Interpretation:\s*([a-z0-9-]+)", item.doc))
    assert named <= set(RECORDS), sorted(named - set(RECORDS))
    assert set(MY_RECORDS) <= set(RECORDS)
    for name in MY_RECORDS:
        assert set(RECORDS[name]["refs"]) <= set(SECTIONS), name


def test_repetition_readings_differ_at_onslaught():
    chosen = sequence.datasheet_copies_allowed("Onslaught", 4)
    extended = 4 <= 3  # three times, as at Strike Force
    assert RECORDS["repetition-limit-only-where-stated"]["chosen"] == "as-written"
    assert (chosen, extended) == (True, False)


def test_alternation_readings_differ_when_one_runs_out():
    attacker = [TerrainDatasheet(f"A{i}", 40 - i) for i in range(4)]
    defender = [TerrainDatasheet(f"D{i}", 40 - i) for i in range(2)]
    chosen = sequence.terrain_setup_sequence(attacker, defender)
    stopped = chosen[:4]  # the alternation ends when the Defender has nothing left
    assert RECORDS["alternation-remainder"]["chosen"] == "other-player-continues"
    assert (len(chosen), len(stopped)) == (6, 4)


def test_minimum_datasheet_readings_differ():
    a, b = TerrainDatasheet("A", 40, ZONE), TerrainDatasheet("B", 40, ZONE)
    chosen = not sequence.terrain_collection_problems("Incursion", [a, a, b])
    distinct = len({"A", "B"}) >= B.minimum_terrain_datasheets("Incursion")
    assert RECORDS["terrain-minimum-counts-inclusions"]["chosen"] == "inclusions"
    assert (chosen, distinct) == (True, False)


def test_between_readings_differ_at_the_maximum():
    chosen = sequence.collection_meets_table("Combat Patrol", 2, 100, 1)
    exclusive = 50 < 100 < 100
    assert RECORDS["terrain-points-between-inclusive"]["chosen"] == "inclusive"
    assert (chosen, exclusive) == (True, False)


def test_fortification_network_readings_differ():
    network = sequence.Detachment("Fortification Network", (
        MusteredUnit("Aegis Defence Line", "Fortifications", ("IMPERIUM",)),
        MusteredUnit("Firestorm Redoubt", "Fortifications", ())))
    chosen = not sequence.muster_problems(sequence.Army("Incursion", "ADEPTUS ASTARTES", (network,), 500))
    whole_requirement_lifted = True  # a Fortification Network would need no keyword in common at all
    assert RECORDS["fortification-network-exception-scope"]["chosen"] == "keyword-ban-only"
    assert (chosen, whole_requirement_lifted) == (False, True)


def test_embarked_unit_readings_differ():
    units = [DeclaredUnit(f"Transport {i}", 10, "strategic reserves") for i in range(4)]
    units += [DeclaredUnit(f"Squad {i}", 10, embarked_in=f"Transport {i}") for i in range(4)]
    units += [DeclaredUnit(f"Other {i}", 100) for i in range(2)]
    chosen = sequence.reserves_declaration(units)
    transports_only = sequence.reserve_units_allowed(4, 10)
    assert RECORDS["embarked-units-count-against-unit-limit"]["chosen"] == "count"
    assert (chosen["reserve_units"], chosen["units_allowed"], transports_only) == (8, False, True)


def test_roster_readings_differ_for_multi_feature_datasheets():
    pipes = TerrainDatasheet("Fuel Pipes", 25, ZONE, features=3)
    chosen = sequence.tactical_terrain_roster([pipes, pipes])["total_terrain_features"]
    quantities = sum(q for _, q, _ in sequence.tactical_terrain_roster([pipes, pipes])["lines"])
    assert RECORDS["roster-quantity-counts-datasheets"]["chosen"] == "inclusions-and-features"
    assert (chosen, quantities) == (6, 2)


def test_terrain_heading_readings_differ():
    """Read as "the ARMY table", step 2's table would set no terrain limits at all."""
    assert RECORDS["terrain-table-heading-slip"]["chosen"] == "step-three-table"
    assert _table("sequence/03-gather-tactical-terrain")["header"] != _table("sequence/02-muster-armies")["header"]


# --------------------------------------------------------------------------
# Step 12 and the basic rules it uses


def test_pack_reserves_never_arrive_when_the_basic_rules_forbid():
    """Step 12 uses the basic rules' Strategic Reserves: it only narrows when reserves may arrive."""
    ninth = pytest.importorskip("rules.ninth.strategic_reserves")
    for battle_round in range(1, 6):
        if sequence.may_arrive_from_reserves(battle_round):
            assert ninth.may_arrive(battle_round)
