"""The scoring proofs of properties/proofs_missionpack_scoring.py: each has its expected verdict, and each proved
one is disproved for a plausible slip in the function it rests on."""

from __future__ import annotations

import re

import pytest

from properties import broken_rules
from properties import proofs
from properties import proofs_missionpack_scoring  # noqa: F401  (registers the proofs)
from rules import spec
from rules.logic import If, Max, Min
from rules.missionpack import scoring
from rules.missionpack.scoring import Event, Game, ScoringError, Timing

MINE = broken_rules.proofs_built_in(proofs_missionpack_scoring)


@pytest.mark.parametrize("name", MINE)
def test_scoring_proof_has_its_expected_verdict(name):
    broken_rules.assert_expected_verdict(name)


def _primary(first, second, first_round_excluded=True, cap=15):
    def broken(battle_round, controlled, opponent_controlled):
        points = If(controlled >= first, 5, 0) + If(controlled >= second, 5, 0) + If(controlled > opponent_controlled, 5, 0)
        points = Min(points, cap) if cap is not None else points
        return If(battle_round == 1, 0, points) if first_round_excluded else points
    return broken


# (proof, attribute of rules.missionpack.scoring, broken copy): each a plausible slip that must turn the proof red.
MUTANTS = [
    ("missionpack-discounted-award-within-cap", "discounted_award", lambda so_far, award, cap: Min(award, cap)),
    ("missionpack-discounted-award-within-cap", "discounted_award", lambda so_far, award, cap: Max(award, 0)),
    ("missionpack-only-excess-is-discounted", "discounted_award",
     lambda so_far, award, cap: Max(Min(award, cap - so_far - 1), 0)),
    ("missionpack-total-at-most-100", "final_score",
     lambda primary, secondaries, battle_ready: Min(primary, 45) + Min(secondaries, 45) + If(battle_ready, 11, 0)),
    ("missionpack-total-at-most-100", "final_score",
     lambda primary, secondaries, battle_ready: Min(primary + secondaries, 90) + If(battle_ready, 10, 0) + 1),
    ("missionpack-total-never-decreases", "final_score",
     lambda primary, secondaries, battle_ready: Min(primary, 45) + Min(secondaries, 45) - If(battle_ready, 10, 0)),
    ("missionpack-objective-caps-are-45-15-90", "final_score",
     lambda primary, secondaries, battle_ready: Min(primary, 45) + Min(secondaries, 30) + If(battle_ready, 10, 0)),
    ("missionpack-most-points-wins", "victor", lambda a, d: If(a >= d, 1, -1)),
    ("missionpack-take-and-hold-at-most-15-never-round-1", "take_and_hold", _primary(1, 2, first_round_excluded=False)),
    ("missionpack-take-and-hold-at-most-15-never-round-1", "take_and_hold",
     lambda battle_round, controlled, opponent_controlled: If(battle_round == 1, 0, 5 * controlled)),
    ("missionpack-take-and-hold-monotone", "take_and_hold",
     lambda battle_round, controlled, opponent_controlled: If(controlled == 1, 5, 0)),
    ("missionpack-domination-at-most-15-never-round-1", "domination", _primary(2, 3, first_round_excluded=False)),
    ("missionpack-domination-monotone", "domination",
     lambda battle_round, controlled, opponent_controlled: If(controlled > opponent_controlled, 5, 0)
     + If(controlled == 2, 5, 0)),
    ("missionpack-primary-ledger-keeps-45", "discounted_award", lambda so_far, award, cap: award),
    ("missionpack-primary-ledger-keeps-45", "discounted_award",
     lambda so_far, award, cap: Max(Min(award - 1, cap - so_far), 0)),
]


@pytest.mark.parametrize("name,attribute,broken", MUTANTS, ids=[f"{m[0]}:{i}" for i, m in enumerate(MUTANTS)])
def test_scoring_proof_fails_on_a_broken_rule(name, attribute, broken, monkeypatch):
    assert name in MINE
    monkeypatch.setattr(scoring, attribute, broken)
    assert proofs.check(proofs.PROOFS[name]).status == "disproved"


def test_every_proved_scoring_proof_has_a_mutant():
    proved = {n for n in MINE if proofs.PROOFS[n].expect == "proved"}
    assert proved <= {m[0] for m in MUTANTS}


def test_battle_ready_finding_agrees_when_the_bonus_follows_the_note(monkeypatch):
    """The finding's disproof comes from the rule: a bonus keyed to Battle-forged would make it hold."""
    monkeypatch.setattr(scoring, "battle_ready_bonus", lambda every_model_battle_ready: If(True, 10, 0))
    assert proofs.check(proofs.PROOFS["missionpack-battle-ready-note-agrees"]).status == "proved"


# -- Gaps the mutation run found (issue 11) ---------------------------------------------------------------------------

PRIMARY_REFS = tuple(f"missionpack:{ref}" for name in ("take-and-hold", "domination")
                     for ref in scoring.entries_with("primary", name))
PACK = ("linebreaker", "assassinate", "thin-their-ranks")  # one per category


@pytest.mark.refs(*PRIMARY_REFS)
def test_primaries_are_registered_as_their_text_says():
    """Each primary's entry names its first section in book order and "cannot be scored in the first battle
    round"; its score function's most at one Command phase is the text's "(for a maximum of N victory points)"."""
    sections = spec.sections("missionpack")
    for name, attribute in (("take-and-hold", "take-and-hold"), ("domination-primary", "domination")):
        item = scoring.objective(name)
        refs = [ref for ref, section in sections.items()
                if (section.get("attributes") or {}).get("primary") == attribute]
        assert item.ref == refs[0] and item.kind == "primary"
        text = sections[item.ref]["text"]
        most = max(item.score(battle_round=r, controlled=c, opponent_controlled=o)
                   for r in range(1, 6) for c in range(7) for o in range(7))
        assert most == int(re.search(r"for a maximum of (\d+) victory points", text)[1])
        assert item.first_round is ("cannot be scored in the first battle round" not in text)


@pytest.mark.refs("missionpack:sequence/18-determine-victor")
def test_an_objective_reads_its_facts_and_the_ledger_supplies_the_rest():
    """A moment's record states the score function's facts; the battle round (and, for an objective scored both at
    the end of a round and of the battle, which moment it is) come from the moment itself."""
    scoring._load()
    headquarters = scoring.objective("operational-headquarters")
    assert headquarters.inputs() == ("controls_headquarters", "end_of_battle")
    assert headquarters.facts() == ("controls_headquarters",)
    assert scoring.objective("take-and-hold").inputs() == ("controlled", "opponent_controlled")


def _linebreaker_turns(rounds) -> Game:
    events = tuple(Event(r, "attacker", Timing.END_OF_TURN, "linebreaker",
                         {"non_aircraft_units_wholly_within_opponent_deployment_zone": 2}) for r in rounds)
    return Game("seize-ground", {"attacker": PACK, "defender": PACK}, {}, events)


@pytest.mark.refs("missionpack:sequence/18-determine-victor")
def test_the_ledger_counts_what_was_awarded_and_what_the_cap_discounted():
    """Linebreaker's 4 at the end of each of five turns awards 20; 15 count and the excess 5 is discounted."""
    sheet = scoring.replay(_linebreaker_turns(range(1, 6)))["attacker"]
    assert (sheet.objective_total("linebreaker"), sheet.awarded, sheet.discounted) == (15, 20, 5)
    untouched = scoring.replay(_linebreaker_turns(()))["defender"]
    assert (untouched.awarded, untouched.discounted) == (0, 0)


def _refused(game: Game, pattern: str) -> None:
    with pytest.raises(ScoringError, match=pattern):
        scoring.replay(game)


@pytest.mark.refs("missionpack:sequence/18-determine-victor")
def test_a_moment_the_game_cannot_have_is_refused_naming_it():
    """A record whose facts do not fit its objective, or whose moments run backwards, is one sentence naming the
    moment by its number (1 for the first); it is never scored some other way."""
    def game(*events, mission="seize-ground", chosen=PACK):
        return Game(mission, {"attacker": chosen, "defender": PACK}, {}, events)

    hold = {"controlled": 2, "opponent_controlled": 1}
    _refused(game(Event(2, "attacker", Timing.END_OF_COMMAND_PHASE, "take-and-hold", {**hold, "controlled": True})),
             r"^event 1 \(take-and-hold.*fact 'controlled' must be a whole number")
    _refused(game(Event(2, "attacker", Timing.END_OF_COMMAND_PHASE, "take-and-hold", {"controlled": 2})),
             r"needs the facts \['controlled', 'opponent_controlled'\]; missing \['opponent_controlled'\]$")
    _refused(game(Event(2, "attacker", Timing.END_OF_COMMAND_PHASE, "take-and-hold", {**hold, "turn": 2})),
             r"needs the facts .*; unknown \['turn'\]$")
    banners = ("raise-the-banners-high", "linebreaker", "assassinate")
    end = Event(5, "attacker", Timing.END_OF_BATTLE, "raise-the-banners-high",
                {"objective_markers_with_your_banner": 1})
    late = Event(5, "attacker", Timing.END_OF_COMMAND_PHASE, "raise-the-banners-high",
                 {"objective_markers_with_your_banner": 1})
    _refused(game(end, late, chosen=banners), r"^event 2 .*in the order they happen")
    assert scoring.replay(game(late, end, chosen=banners))["attacker"].objective_total("raise-the-banners-high") == 2


def _record(**changes):
    players = {"attacker": {"secondaries": list(PACK)}, "defender": {"secondaries": list(PACK)}}
    return {"mission": "seize-ground", "players": players,
            "events": [{"round": 2, "player": "attacker", "when": "end-of-command-phase", "objective": "take-and-hold",
                        "facts": {"controlled": 2, "opponent_controlled": 1}}], **changes}


@pytest.mark.refs("missionpack:scoring-sheet")
def test_a_game_record_that_cannot_be_read_is_one_sentence():
    """What ``rules40k score`` reads: each bad field is a ScoringError naming its place, never another exception."""
    assert scoring.read_game(_record()).events[0].facts == {"controlled": 2, "opponent_controlled": 1}
    cases = [
        ({"players": ["attacker", "defender"]}, r"players must name exactly the attacker and the defender"),
        ({"players": {"attacker": 5, "defender": {"secondaries": []}}}, r"players\.attacker needs a list"),
        ({"events": [{"round": "2", "player": "attacker", "when": "end-of-turn", "objective": "linebreaker"}]},
         r"events\[1\]: round must be a whole number"),
        ({"events": [{"round": 2, "player": "attacker", "when": "end-of-turn", "objective": "linebreaker",
                      "facts": {"non_aircraft_units_wholly_within_opponent_deployment_zone": 1001}}]},
         r"events\[1\]: fact .* whole number 0-1000"),
        ({"events": [{"round": 2, "player": "attacker", "when": "end-of-turn", "objective": "linebreaker",
                      "facts": {"non_aircraft_units_wholly_within_opponent_deployment_zone": [2]}}]},
         r"events\[1\]: fact .* whole number 0-1000"),
    ]
    for change, pattern in cases:
        with pytest.raises(ScoringError, match=r"^game\.yaml: " + pattern):
            scoring.read_game(_record(**change), "game.yaml")
    edge = _record(events=[{"round": 5, "player": "attacker", "when": "end-of-battle", "objective": "assassinate",
                            "facts": {"enemy_character_models_destroyed": 1000}}])
    assert scoring.read_game(edge).events[0].facts == {"enemy_character_models_destroyed": 1000}
