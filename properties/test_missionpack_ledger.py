"""Properties of the mission pack's ledger itself (``rules.missionpack.scoring.replay`` and the sheet built on it),
over whole games drawn by ``properties.strategies_scoring``, impossible ones included: the caps of each battle round
and of the battle hold in every mission; holding more objective markers never scores less; "more objective markers
than their opponent" is strict; Domination asks one marker more than Take and Hold, condition for condition; a game no
battle can have is refused, naming its event; a conceded game's sheet says one thing.

The expected numbers come from the pack's text (the primaries' thresholds and "for a maximum of N" are read from
the ingested sections), never from the functions under test. Each property is run once more against a deliberately
broken rule function (``test_ledger_property_fails_for_a_broken_rule``) and must then fail.
"""

from __future__ import annotations

import dataclasses
import functools
import re

import pytest
from hypothesis import given, note
from hypothesis import strategies as st

from properties.mutation import fails_broken, fails_broken_item
from properties.proofs_missionpack_missions import MOMENT_MAXIMUM
from properties.strategies_scoring import IMPOSSIBLE, games, impossible_games, primary_missions, single_moment
from rules import spec
from rules.logic import If, Min
from rules.missionpack import missions, scoring, secondaries, sequence
from rules.missionpack.scoring import Game, ScoringError, Timing
from rules40k import annotations

SECTIONS = spec.sections("missionpack")
TAKE_AND_HOLD = primary_missions(missions.TAKE_AND_HOLD)
DOMINATION = primary_missions(missions.DOMINATION)
PRIMARY_REFS = tuple(f"missionpack:mission/{slug}/primary" for slug in missions.MISSIONS)
LEDGER_REFS = ("missionpack:sequence/18-determine-victor", "missionpack:mission-objectives",
               "missionpack:scoring-sheet")
WORDS = {"one": 1, "two": 2, "three": 3, "four": 4}


def primary_text(slug: str) -> str:
    return SECTIONS[f"mission/{slug}/primary"]["text"]


@functools.lru_cache(maxsize=None)
def thresholds(slug: str) -> tuple[int, ...]:
    """The primary's "They control N or more objective markers" conditions, as printed."""
    return tuple(WORDS[w] for w in re.findall(r"They control (\w+) or more objective markers", primary_text(slug)))


@functools.lru_cache(maxsize=None)
def text_maximum(slug: str) -> int:
    """The primary's "(for a maximum of N victory points)" for one Command phase."""
    return int(re.search(r"for a maximum of (\d+) victory points", primary_text(slug))[1])


def primary_cell(game: Game, player: str = "attacker") -> int:
    """The primary's cell of the one battle round a single-moment game scores in, as the ledger fills it."""
    event = game.events[0]
    return scoring.replay(game)[player].sheet.get(event.objective, {}).get(str(event.battle_round), 0)


def _refused(game: Game) -> bool:
    try:
        scoring.replay(game)
    except ScoringError:
        return True
    return False


# -- The caps of a battle round and of the battle -------------------------------------------------------------------


@st.composite
def repeated(draw, base=games()):
    """A game, sometimes with some of its moments recorded again (impossible: the ledger must refuse it), and how
    many were."""
    game = draw(base)
    events = list(game.events)
    copies = 0
    for _ in range(draw(st.integers(0, 3))):
        if not events:
            break
        i = draw(st.integers(0, len(events) - 1))
        events.insert(i + 1, events[i])
        copies += 1
    return dataclasses.replace(game, events=tuple(events)), copies


@pytest.mark.refs(*LEDGER_REFS, "missionpack:secondaries/selecting", *PRIMARY_REFS)
@given(repeated())
def test_caps_hold_in_every_battle_round_and_battle(case):
    """Whatever the ledger accepts, in every mission: each objective scored at most once at each moment of a player's
    battle round (one Command phase, one turn, one end of the round, one completion of an action) and an End Game
    objective once; so a primary's cell of a battle round is at most its "maximum of 15" (and 0 in the first round,
    which it "cannot be scored in"), a mission's own secondary's at most what one moment can award; the primary's
    total at most 45, each secondary's 15, the total 100. A game with no moment recorded twice is accepted."""
    game, copies = case
    note(f"{game.mission}: {len(game.events)} moments, {copies} recorded again")
    try:
        scores = scoring.replay(game)
    except ScoringError as error:
        note(f"refused: {error}")
        assert copies, error
        return
    moments: dict[tuple, int] = {}
    for event in game.events:
        key = (event.player, event.objective, event.battle_round if event.timing is not Timing.END_OF_BATTLE else "end",
               event.timing)
        moments[key] = moments.get(key, 0) + 1
    assert max(moments.values(), default=0) <= 1, moments
    for player, score in scores.items():
        primary = score.sheet.get(score.primary, {})
        assert primary.get("1", 0) == 0
        assert all(cell <= text_maximum(game.mission) for cell in primary.values()), primary
        own = missions.mission(game.mission).secondary
        if own in score.secondaries:
            for round_key, cell in score.sheet.get(own, {}).items():
                assert cell <= MOMENT_MAXIMUM[own], (own, round_key, cell)
        assert score.primary_total <= scoring.PRIMARY_CAP
        assert all(score.objective_total(name) <= scoring.SECONDARY_CAP for name in score.secondaries)
        assert 0 <= score.total <= scoring.MAXIMUM_SCORE


# -- The primaries: more markers, strictly more than the opponent, Domination against Take and Hold -----------------


@st.composite
def bumped(draw, *, primary: str):
    """A game of a mission whose primary is ``primary``, and the same game where the player controls more objective
    markers at one of its primary moments, or the opponent fewer."""
    game = draw(games(mission_slugs=primary_missions(primary)))
    moments = [i for i, e in enumerate(game.events) if e.objective == missions.mission(game.mission).primary]
    if not moments:
        return game, game, None
    i = draw(st.sampled_from(moments))
    event = game.events[i]
    more = draw(st.integers(0, 3))
    fewer = draw(st.integers(0, event.facts["opponent_controlled"]))
    facts = {"controlled": event.facts["controlled"] + more, "opponent_controlled": event.facts["opponent_controlled"]
             - fewer}
    events = list(game.events)
    events[i] = dataclasses.replace(event, facts=facts)
    return game, dataclasses.replace(game, events=tuple(events)), event.player


@pytest.mark.refs(*PRIMARY_REFS, *LEDGER_REFS)
@pytest.mark.parametrize("primary", [missions.TAKE_AND_HOLD, missions.DOMINATION])
@given(data=st.data())
def test_holding_more_markers_never_scores_less(primary, data):
    """In every mission, with either primary, a player who controls more objective markers at one of their Command
    phases, or whose opponent controls fewer, never ends the battle with fewer victory points from the primary, nor
    with a lower total, caps and all."""
    game, better, player = data.draw(bumped(primary=primary), label="games")
    if player is None:
        return
    before, after = scoring.replay(game)[player], scoring.replay(better)[player]
    note(f"{game.mission}: {before.sheet.get(before.primary)} -> {after.sheet.get(after.primary)}")
    assert after.primary_total >= before.primary_total
    assert after.total >= before.total


@pytest.mark.refs(*PRIMARY_REFS, *LEDGER_REFS)
@given(st.sampled_from(sorted(missions.MISSIONS)), st.integers(2, scoring.BATTLE_ROUNDS),
       st.sampled_from(scoring.PLAYERS), st.integers(0, 8), st.integers(0, 8))
def test_the_primary_scores_five_a_condition_and_more_than_is_strict(mission, battle_round, player, mine, theirs):
    """A primary's Command phase, in every mission, scores 5 for each condition as printed: each "They control N or
    more objective markers", and "more objective markers than their opponent controls", which equal numbers do not
    meet; at most the text's maximum."""
    expected = 5 * sum(mine >= n for n in thresholds(mission)) + 5 * (mine > theirs)
    got = primary_cell(single_moment(mission, battle_round, player, mine, theirs), player)
    assert got == min(expected, text_maximum(mission))
    if mine == theirs:
        assert got == 5 * sum(mine >= n for n in thresholds(mission))


@pytest.mark.refs(*PRIMARY_REFS, *LEDGER_REFS)
@given(st.sampled_from(TAKE_AND_HOLD), st.sampled_from(DOMINATION), st.integers(2, scoring.BATTLE_ROUNDS),
       st.integers(0, 7), st.integers(0, 7))
def test_domination_asks_one_marker_more_than_take_and_hold(hold_mission, domination_mission, battle_round, mine,
                                                            theirs):
    """Domination's thresholds are Take and Hold's plus one marker (two and three against one and two) and the third
    condition is the same, so Domination with one more marker on each side scores what Take and Hold scores, and
    with the same markers never more."""
    assert [n + 1 for n in thresholds(hold_mission)] == list(thresholds(domination_mission))
    hold = primary_cell(single_moment(hold_mission, battle_round, "attacker", mine, theirs))
    assert primary_cell(single_moment(domination_mission, battle_round, "attacker", mine + 1, theirs + 1)) == hold
    assert primary_cell(single_moment(domination_mission, battle_round, "attacker", mine, theirs)) <= hold


# -- Impossible games -------------------------------------------------------------------------------------------------


@pytest.mark.refs(*LEDGER_REFS, "missionpack:sequence/11-select-secondary-objectives", *PRIMARY_REFS,
                  "missionpack:sequence/14-determine-first-turn", "missionpack:sequence/16-begin-the-battle",
                  *(f"missionpack:{ref}" for ref in scoring.MISSION_SECONDARY_REFS),
                  *(f"missionpack:secondary/{name}" for name in secondaries.SECONDARIES))
@pytest.mark.parametrize("what", sorted(IMPOSSIBLE))
@given(data=st.data())
def test_an_impossible_game_is_refused_naming_its_event(what, data):
    """A moment recorded twice, an End Game objective scored twice, more completions of an action than the battle
    rounds allow, a player changing sides of the map or standing on the opponent's, a moment in a first battle round
    its objective cannot be scored in, a turn's moment after its battle round ended, a player's moment after the other
    player's turn of that round began, a moment before a phase of its turn already recorded, one battle round's turns
    in the other order than another's (or than the record's first_turn), a mission's own secondary chosen twice: each
    is refused with one sentence naming the event (or the selection) and what is wrong."""
    game, what, event = data.draw(impossible_games(what=what), label="game")
    note(f"{what}: event {event} of {[(e.battle_round, e.player, e.timing.value, e.objective) for e in game.events]}")
    with pytest.raises(ScoringError) as refusal:
        scoring.replay(game)
    message = str(refusal.value)
    note(message)
    assert IMPOSSIBLE[what] in message
    if event is not None:
        assert message.startswith(f"event {event} (")
    assert "\n" not in message


# -- A conceded game's sheet ------------------------------------------------------------------------------------------


@pytest.mark.refs("missionpack:sequence/ending-the-battle-early", "missionpack:scoring-sheet",
                  "missionpack:sequence/18-determine-victor")
@given(games(concede=True))
def test_a_sheet_says_one_thing_even_when_a_player_conceded(game):
    """Each objective's total is the sum of its column, and the player's total is the objective totals plus the
    Battle Ready score; a player who conceded has 0 everywhere, and the opponent wins."""
    sheet = scoring.scoring_sheet(game)
    for player in scoring.PLAYERS:
        half = sheet[player]
        for name, total in half["objective_totals"].items():
            assert total == sum(cells[name] for cells in half["rounds"].values()), (player, name)
        assert half["total"] == sum(half["objective_totals"].values()) + half["battle_ready_score"], player
        assert half["conceded"] == (game.conceded == player)
        if half["conceded"]:
            assert half["total"] == 0
            assert sheet["result"] == {"attacker": "Defender wins", "defender": "Attacker wins"}[player]


# -- Each property fails for a broken rule ----------------------------------------------------------------------------


def _primary(first, second, more_than=lambda mine, theirs: mine > theirs, cap=15):
    """A primary's score function with other thresholds, another "more than", or another maximum."""
    def broken(battle_round, controlled, opponent_controlled):
        points = (If(controlled >= first, 5, 0) + If(controlled >= second, 5, 0)
                  + If(more_than(controlled, opponent_controlled), 5, 0))
        return If(battle_round == 1, 0, Min(points, cap))
    return broken


def _objective(name, score):
    return dataclasses.replace(scoring.OBJECTIVES[name], score=score)


# (property, owner, attribute, broken[, the property's parameters]): each a plausible slip in what the ledger runs.
REFUSED = test_an_impossible_game_is_refused_naming_its_event
BROKEN = [
    (test_caps_hold_in_every_battle_round_and_battle, scoring, "moments_in_a_battle_round", lambda timing: 2),
    (test_caps_hold_in_every_battle_round_and_battle, sequence, "objective_may_score",
     lambda objective_type, end_of_battle, scored_at_end_of_battle=False: True),
    (test_caps_hold_in_every_battle_round_and_battle, scoring, "discounted_award", lambda so_far, award, cap: award),
    (REFUSED, scoring, "moments_in_a_battle_round", lambda timing: 2, {"what": "a moment scored twice"}),
    (REFUSED, sequence, "objective_may_score",
     lambda objective_type, end_of_battle, scored_at_end_of_battle=False:
         If(end_of_battle, objective_type != 2, objective_type != 1),
     {"what": "an End Game objective scored twice"}),
    (REFUSED, secondaries, "completions_in_a_battle", lambda name: 6,
     {"what": "more completions than a battle has rounds for"}),
    (REFUSED, missions, "same_side_all_battle", lambda player_a, player_a_before: True,
     {"what": "a player changing sides of the map"}),
    (REFUSED, missions, "opposite_sides", lambda player_a, opponent_player_a: True,
     {"what": "both players on one side of the map"}),
    (REFUSED, scoring, "scored_in_round", lambda first_round, battle_round: True,
     {"what": "a moment in the first battle round that cannot be scored in it"}),
    (REFUSED, scoring, "moment_stage", lambda timing: 2 if timing is Timing.END_OF_BATTLE else 0,
     {"what": "a turn's moment after the battle round ended"}),
    (REFUSED, scoring, "mission_secondary_chosen_at_most_once", lambda times_chosen: True,
     {"what": "a mission's own secondary chosen twice"}),
    (REFUSED, scoring, "moment_in_order", lambda turn, point, last_turn, last_point: True,
     {"what": "a player's moment after the other player's turn began"}),
    (REFUSED, scoring, "moment_in_order", lambda turn, point, last_turn, last_point: turn >= last_turn,
     {"what": "a moment before a point of its turn already recorded"}),
    (REFUSED, secondaries, "action_completion_point", lambda name: scoring.TurnPoint.END_OF_TURN,
     {"what": "a moment before a point of its turn already recorded"}),
    (REFUSED, scoring, "same_player_first", lambda first_this_round, first_before: True,
     {"what": "the first turn taken by different players"}),
    (test_a_sheet_says_one_thing_even_when_a_player_conceded, scoring, "conceded_points",
     lambda points, conceded: points),
]

# (property, objective, broken score function[, the property's parameters]): the primaries, swapped in the
# registry the ledger reads.
BROKEN_OBJECTIVES = [
    (test_holding_more_markers_never_scores_less, "take-and-hold",
     lambda battle_round, controlled, opponent_controlled: If(battle_round == 1, 0, If(controlled == 1, 5, 0)),
     {"primary": missions.TAKE_AND_HOLD}),
    (test_holding_more_markers_never_scores_less, "domination-primary",
     lambda battle_round, controlled, opponent_controlled:
         If(battle_round == 1, 0, If(controlled > opponent_controlled, 5, 0) + If(controlled == 2, 5, 0)),
     {"primary": missions.DOMINATION}),
    (test_the_primary_scores_five_a_condition_and_more_than_is_strict, "take-and-hold",
     _primary(1, 2, more_than=lambda mine, theirs: mine >= theirs)),
    (test_the_primary_scores_five_a_condition_and_more_than_is_strict, "domination-primary",
     _primary(2, 3, more_than=lambda mine, theirs: mine >= theirs)),
    (test_the_primary_scores_five_a_condition_and_more_than_is_strict, "take-and-hold", _primary(1, 2, cap=10)),
    (test_domination_asks_one_marker_more_than_take_and_hold, "domination-primary", _primary(1, 3)),
    (test_domination_asks_one_marker_more_than_take_and_hold, "take-and-hold", _primary(2, 2)),
    (test_caps_hold_in_every_battle_round_and_battle, "take-and-hold",
     lambda battle_round, controlled, opponent_controlled: If(battle_round == 1, 0, 5 * controlled)),
]


@pytest.mark.parametrize("case", BROKEN, ids=[f"{b[0].__name__}[{b[2]}]" for b in BROKEN])
def test_ledger_property_fails_for_a_broken_rule(monkeypatch, case):
    prop, owner, attribute, broken, *parameters = case
    fails_broken(monkeypatch, prop, owner, attribute, broken, **(parameters[0] if parameters else {}))


def test_every_impossibility_has_a_broken_rule():
    assert {b[4]["what"] for b in BROKEN if len(b) > 4} == set(IMPOSSIBLE)


@pytest.mark.parametrize("case", BROKEN_OBJECTIVES,
                         ids=[f"{b[0].__name__}[{b[1]}:{i}]" for i, b in enumerate(BROKEN_OBJECTIVES)])
def test_ledger_property_fails_for_a_broken_primary(monkeypatch, case):
    prop, name, broken, *parameters = case
    fails_broken_item(monkeypatch, prop, scoring.OBJECTIVES, name, _objective(name, broken),
                      **(parameters[0] if parameters else {}))


def test_every_ledger_property_has_a_broken_rule():
    properties = {value for name, value in globals().items()
                  if name.startswith("test_") and hasattr(value, "hypothesis")}
    assert properties == {b[0] for b in BROKEN + BROKEN_OBJECTIVES}


# -- The readings the ledger follows ----------------------------------------------------------------------------------

RECORDS = {r["id"]: r for r in annotations.interpretations("missionpack")}


def test_interpretations_named_by_the_ledgers_rules_are_recorded():
    """Every reading a docstring of the ledger's modules names ("Interpretation: a; b (why)") is recorded."""
    named = set()
    for module in (scoring, missions, secondaries, sequence):
        for value in vars(module).values():
            for line in re.findall(r"Interpretation: ([^\n]*)", getattr(value, "__doc__", None) or ""):
                named |= {piece.strip().split(" ")[0].rstrip(".") for piece in line.split(";")}
    assert {"cannot-be-scored-is-refused", "one-completion-a-battle-round", "conceded-sheet-shows-zero"} <= named
    assert named <= set(RECORDS), sorted(named - set(RECORDS))


def test_a_first_round_primary_is_refused_not_scored_nothing():
    """cannot-be-scored-is-refused: the chosen reading refuses the record; the other would accept it for 0."""
    assert RECORDS["cannot-be-scored-is-refused"]["chosen"] == "refused"
    game = single_moment("seize-ground", 1, "attacker", 2, 1)
    assert _refused(game)
    assert scoring.OBJECTIVES["take-and-hold"].award(game.events[0]) == 0  # what the other reading would record


def test_investigate_sites_once_a_battle_round():
    """one-completion-a-battle-round: two units completing Investigate Site in one battle round score 3 (the second
    refused) under the chosen reading, 6 under once-a-unit; over a battle at most 15 either way, reached in five
    rounds rather than three."""
    assert RECORDS["one-completion-a-battle-round"]["chosen"] == "once-a-battle-round"
    pack = ("investigate-sites", "linebreaker", "assassinate")
    once = Game("seize-ground", {p: pack for p in scoring.PLAYERS}, {},
                (scoring.Event(2, "attacker", Timing.ACTION_COMPLETED, "investigate-sites", {}),))
    twice = dataclasses.replace(once, events=once.events * 2)
    assert scoring.replay(once)["attacker"].objective_total("investigate-sites") == 3
    assert _refused(twice)
    assert secondaries.investigate_sites(2) * len(twice.events) == 6  # what the other reading would score


def test_a_conceding_players_sheet_reads_zero():
    """conceded-sheet-shows-zero: the conceding player's cells read 0, where the other reading would show 15."""
    assert RECORDS["conceded-sheet-shows-zero"]["chosen"] == "zero-everywhere"
    game = dataclasses.replace(single_moment("seize-ground", 2, "attacker", 2, 1), conceded="attacker")
    half = scoring.scoring_sheet(game)["attacker"]
    assert (half["rounds"]["2"]["take-and-hold"], half["total"]) == (0, 0)
    assert scoring.replay(game)["attacker"].objective_total("take-and-hold") == 15  # as played
