"""004's Organizing a Battle, Reserves and Missions (ruleset ``m41``): the z3 proofs of
properties/proofs_m41_battle.py (each failing for a broken copy of the rule it rests on), hypothesis properties
(each failing for a broken rule), and the printed lists (the game-prep steps, the missions' objectives, the
cross-references) against the chapter's own text."""

from __future__ import annotations

import re
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from properties import broken_rules
from properties import proofs_m41_battle
from rules import dice, spec
from rules.logic import And, If, Max, Or
from rules.m41 import battle, missions, reserves

MINE = broken_rules.proofs_built_in(proofs_m41_battle)


# -- Proofs ---------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", MINE)
def test_m41_battle_proof_has_its_expected_verdict(name):
    broken_rules.assert_expected_verdict(name)


# (proof, module, attribute, broken copy): each a plausible slip that must turn the proof "disproved".
MUTANTS = [
    ("m41-continue-roll-never-easier-later", battle, "roll_to_continue_into",
     lambda game_round: If(game_round <= 6, 0, If(game_round == 7, 3, If(game_round == 8, 4, 3)))),
    ("m41-continue-roll-never-easier-later", battle, "LAST_FIXED_ROUND", 5),
    ("m41-night-cover-grows-with-distance", battle, "night_fighting_cover_bonus",
     lambda distance, attacker_has_night_vision=False: If(distance > 24, 1, If(distance > 12, 2, 0))),
    ("m41-night-cover-grows-with-distance", battle, "night_fighting_targetable",
     lambda distance, attacker_has_night_vision=False: distance <= 36),
    ("m41-lords-of-war-one-per-chart-only-in-apocalypse", battle, "lords_of_war_allowed",
     lambda game_points: battle.force_org_charts(game_points)),
    ("m41-lords-of-war-one-per-chart-only-in-apocalypse", battle, "APOCALYPSE_ABOVE", 2999),
    ("m41-dark-flips-once", battle, "is_dark", lambda started_in_darkness, light_changed: started_in_darkness),
    ("m41-dark-flips-once", battle, "LIGHT_CHANGE_FROM_ROUND", 3),
    ("m41-reserve-arrivals-as-printed", reserves, "arrivals_allowed",
     lambda game_round, player, double_size=False: If(double_size, 2, 1)
     * reserves.arrivals_by_the_sentence(game_round, player)),
    ("m41-reserve-arrivals-as-printed", reserves, "arrivals_allowed",
     lambda game_round, player, double_size=False: reserves.ARRIVALS_TABLE(game_round=game_round, player=player)),
    ("m41-mishap-casualties-capped", reserves, "mishap_casualties", lambda inches_changed, models: inches_changed),
    ("m41-spearhead-outcome", missions, "spearhead_outcome",
     lambda one_holds, two_holds, one_turns, two_turns, game_ended:
         If(one_holds, If(Or(game_ended, one_turns >= 2), 1, 0), If(two_holds, If(Or(game_ended, two_turns >= 2),
                                                                                    2, 0), 0))),
    ("m41-spearhead-outcome", missions, "SPEARHEAD_TURNS_TO_WIN", 1),
    ("m41-mission-scores-bounded", missions, "capture_point_turn_score",
     lambda controlled, contested: controlled),
    ("m41-mission-scores-bounded", missions, "flag_capture_score",
     lambda flags_returned, flags_held: 2 * flags_returned + 2 * flags_held),
    ("m41-mission-scores-bounded", missions, "escaped_model_vp",
     lambda points_value, scoring, hq: If(And(scoring, hq), 4 * points_value,
                                          If(Or(scoring, hq), 2 * points_value, points_value))),
    ("m41-mission-scores-bounded", missions, "data_uplink_vp",
     lambda scoring_unit_in_contact, contested, already_scored_by_player:
         If(And(scoring_unit_in_contact, already_scored_by_player == False), 2, 0)),  # noqa: E712 (z3 term)
    ("m41-portal-opens-after-its-countdown", missions, "portal_timer",
     lambda starting_timer, player_turn: Max(starting_timer - player_turn, 0)),
    ("m41-rift-direct-hit-scatters-less", missions, "rift_scatter_distance",
     lambda dice_rolled, direct_hit: If(direct_hit, dice_rolled[0] + dice_rolled[3], sum(dice_rolled))),
]


def test_every_proved_m41_battle_proof_has_a_mutant():
    broken_rules.assert_every_proved_proof_has_a_mutant(MINE, MUTANTS)


@pytest.mark.parametrize("name,module,attribute,mutant", MUTANTS,
                         ids=[f"{m[0]}:{m[2]}:{i}" for i, m in enumerate(MUTANTS)])
def test_m41_battle_proof_catches_a_broken_rule(monkeypatch, name, module, attribute, mutant):
    broken_rules.assert_proof_catches(monkeypatch, name, module, attribute, mutant, example=False)


# -- Hypothesis properties --------------------------------------------------------------------------------------------


@pytest.mark.refs("m41:battle/ending-the-game")
@given(st.integers(7, 40))
def test_game_length_distribution_sums_to_one_and_reaching_is_monotone(longest):
    """The game's length, from 6 rounds with a 7th on 3+, an 8th on 4+ and every later one on 5+, is a
    distribution summing to one, and the chance of reaching a round never grows with the round."""
    law = battle.game_length_distribution(longest)
    assert dice.is_distribution(law)
    assert min(law) == 6
    reach = [battle.chance_game_reaches(n) for n in range(1, longest + 2)]
    assert all(later <= earlier for earlier, later in zip(reach, reach[1:]))
    assert law[6] == Fraction(1, 3)  # the 7th needs 3+: 2/3 go on
    if longest > 8:
        # Reaching round N >= 9: 2/3 (3+) * 1/2 (4+) * (1/3 for each 5+ from the 9th).
        assert battle.chance_game_reaches(longest) == Fraction(1, 3) * Fraction(1, 3) ** (longest - 8)


@pytest.mark.refs("m41:reserves/arriving-from-reserves", "m41:reserves/double-size-games")
@given(st.integers(1, 30), st.sampled_from([1, 2]), st.booleans())
def test_reserve_arrivals_never_exceed_the_table(game_round, player, double_size):
    """The units arriving in a round never exceed the printed table (doubled only in a double size game): player 1
    one fewer than player 2 in rounds 1 to 4, four each from the 5th."""
    printed = {1: (0, 1), 2: (1, 2), 3: (2, 3), 4: (3, 4)}.get(game_round, (4, 4))[player - 1]
    allowed = reserves.arrivals_allowed(game_round, player, double_size)
    assert allowed == (2 * printed if double_size else printed)
    assert allowed <= (8 if double_size else 4)


@pytest.mark.refs("m41:missions/flag-capture/scoring-flags", "m41:missions/flag-capture/objective-setup")
@given(st.integers(1, 6), st.lists(st.tuples(st.booleans(), st.booleans()), max_size=7))
def test_flag_scores_within_twice_the_flags(roll, flags):
    """A player's flags score 2 each at the drop point and 1 each held by a scoring unit, so never more than twice
    the flags in play (5, or 7 on a 3+)."""
    in_play = missions.flags_in_play(roll)
    flags = flags[:in_play]
    total = sum(missions.flag_vp(returned, held) for returned, held in flags)
    assert total == sum(2 if returned else 1 if held else 0 for returned, held in flags)
    assert total <= 2 * in_play
    assert in_play == (7 if roll >= 3 else 5)


@pytest.mark.refs("m41:missions/zone-control/zone-capture")
@given(st.tuples(*[st.integers(1, 6)] * 4), st.integers(0, 71), st.integers(48, 72))
def test_zone_always_lands_on_the_table_after_moving(rolled, position, length):
    """The zone moves 4d6" (4 to 24) every time and wraps to the opposite side, so it always lands on the table and
    never where it was (on a table longer than 24")."""
    position %= length
    landed = missions.zone_scatter(rolled, position, length)
    assert 0 <= landed < length
    assert landed != position
    assert (landed - position) % length == sum(rolled)


# (property, module, attribute, broken copy)
BROKEN = [
    (test_game_length_distribution_sums_to_one_and_reaching_is_monotone, battle, "chance_to_continue_into",
     lambda game_round: Fraction(1) if game_round <= 6 else Fraction(2, 3)),
    (test_game_length_distribution_sums_to_one_and_reaching_is_monotone, battle, "game_length_distribution",
     lambda longest: {n: battle.chance_game_reaches(n) - battle.chance_game_reaches(n + 1)
                      for n in range(6, longest + 1)}),
    (test_reserve_arrivals_never_exceed_the_table, reserves, "arrivals_allowed",
     lambda game_round, player, double_size=False: If(double_size, 2, 1)
     * reserves.arrivals_by_the_sentence(game_round, player)),
    (test_flag_scores_within_twice_the_flags, missions, "flag_vp",
     lambda within_3_of_own_drop_point, held_by_scoring_unit:
         2 * (1 if within_3_of_own_drop_point else 0) + (1 if held_by_scoring_unit else 0)),
    (test_flag_scores_within_twice_the_flags, missions, "FLAGS_MANY_ON", 4),
    (test_zone_always_lands_on_the_table_after_moving, missions, "zone_scatter",
     lambda dice_rolled, position, table_length: min(position + sum(dice_rolled), table_length)),
]


@pytest.mark.parametrize("prop,module,attribute,mutant", BROKEN,
                         ids=[f"{b[0].__name__}:{b[2]}:{i}" for i, b in enumerate(BROKEN)])
def test_m41_battle_property_fails_for_a_broken_rule(monkeypatch, prop, module, attribute, mutant):
    broken_rules.assert_property_fails(monkeypatch, prop, module, attribute, mutant)


def test_m41_battle_properties_hold_unbroken():
    """The same properties pass on the real rules (so the failures above come from the mutants)."""
    broken_rules.assert_properties_hold(b[0] for b in BROKEN)


# -- Plain checks: the printed lists against the text ---------------------------------------------------------------


def _section_text(ref: str) -> str:
    return " ".join(spec.sections("m41")[ref]["text"].split())


@pytest.mark.refs("m41:battle/agree-on-the-game-size")
def test_game_prep_steps_are_the_printed_list():
    """The twelve game-prep steps are the printed list, in its numbered order (read from the ingested text)."""
    text = _section_text("battle/agree-on-the-game-size")
    numbered = re.findall(r"(\d+)\. (.+?)(?= \d+\. |$)", text[text.index("1. Setup"):])
    assert [int(n) for n, _ in numbered] == list(range(1, 13))
    assert [step.rstrip(".") for _, step in numbered] == [s.rstrip(".") for s in battle.GAME_PREP_STEPS]


@pytest.mark.refs("m41:battle/agree-on-the-game-size", "m41:battle/placing-objectives",
                  "m41:battle/infiltrators-and-scouts", "m41:battle/who-goes-first")
def test_game_prep_list_agrees_with_the_chapter_text():
    """Every order the chapter's text states (objectives before table sides, infiltrators after deploying, scouts
    after the roll for first turn and before it starts, ...) holds in the printed list; a swapped list breaks it."""
    assert battle.order_disagreements() == []
    swapped = list(battle.GAME_PREP_STEPS)
    swapped[3], swapped[5] = swapped[5], swapped[3]  # table direction before objectives
    assert [(a, b) for a, b, *_ in battle.order_disagreements(tuple(swapped))] == [
        ("Place objectives", "Roll for table direction")] * 2
    late_scouts = [s for s in battle.GAME_PREP_STEPS if s != "Pre-game scout moves"]
    late_scouts.insert(8, "Pre-game scout moves")  # scouting before the roll for first turn
    assert any(b == "Pre-game scout moves" for _, b, *_ in battle.order_disagreements(tuple(late_scouts)))


@pytest.mark.refs("m41:battle/agree-on-the-game-size")
def test_stated_orders_quote_their_lines():
    """Each stated order names a section of these chapters, a document line inside that section, and words that
    line of 004 prints."""
    held = spec.held_documents()[spec.printing_document("m41")]["path"]
    document = held.read_text(encoding="utf-8").split("\n")
    for _, _, ref, line, quote in battle.ORDER_STATED:
        first, last = spec.sections("m41")[ref]["lines"]
        assert first <= line <= last, (ref, line)
        assert quote in document[line - 1], (line, quote)


@pytest.mark.refs("m41:battle/placing-objectives", "m41:missions/spear-head/objective-setup")
def test_spear_head_places_an_even_number_of_objectives():
    """"There are always an odd number of objectives", but Spear Head gives each player one marker (two, and none
    in the centre); every other mission's count is odd."""
    counts = {mission: missions.objective_markers(mission) for mission in battle.MISSIONS.values()}
    assert counts["Flag Capture"] == 7 and missions.objective_markers("Flag Capture", flag_roll=2) == 5
    odd = {mission for mission, n in counts.items() if battle.objective_count_allowed(n)}
    assert set(counts) - odd == {"Spear Head"}


@pytest.mark.refs("m41:battle/securing-and-contesting-objectives")
def test_dangling_page_reference():
    """Among these chapters' sections only Securing and Contesting Objectives cites "page ??", a page that was never
    filled in (the missions chapter it means is missions/)."""
    refs = [r for r in spec.sections("m41") if r.split("/")[0] in ("battle", "reserves", "missions")]
    dangling = [r for r in refs if "page ??" in _section_text(r)]
    assert dangling == ["battle/securing-and-contesting-objectives"]


@pytest.mark.refs("m41:battle/choosing-a-mission", "m41:battle/deployment-and-dead-zones",
                  "m41:reserves/deep-strike-mishap")
def test_d6_charts_have_the_printed_rows():
    """The mission, deployment and mishap charts have the printed rows in the printed order, and each face of the
    d6 gives the printed entry."""
    assert [battle.mission_rolled(r) for r in range(1, 7)] == [
        "Spear Head", "Labyrinthine Escape", "Data Retrieval", "Capture Point", "Zone Control", "Flag Capture"]
    assert [battle.deployment_rolled(r) for r in range(1, 7)] == [
        "Surprise Engagement"] + ["Pitched Battle"] * 3 + ["Vanguard Strike"] * 2
    assert [reserves.mishap_rolled(r) for r in range(1, 7)] == [
        "casualties", "further scatter", "further scatter"] + ["back to reserves"] * 3
    text = _section_text("battle/choosing-a-mission")
    assert [label.split(" ", 1)[1] for label in battle.MISSION_TABLE.labels()] == re.findall(
        r"\d (Spearhead|Labyrinthine Escape|Data Retrieval|Capture Point|Control Zone|Flag Capture)", text)
