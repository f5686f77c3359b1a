"""Inputs that would make a verb hang or grow without end: each is refused early, capped or timed out, with one
sentence (exit 2) or an answer that says what was capped; a legal input of the largest size still answers fast."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
import yaml

from rules.missionpack import scoring
from rules40k.cli import main

REPO = Path(__file__).resolve().parents[1]


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


# --------------------------------------------------------------------------
# score: a battle has room for a bounded number of scoring moments
# --------------------------------------------------------------------------

#: Worked from the pack's text: Take and Hold scores "at the end of each player's Command phase" but "cannot be
#: scored in the first battle round" (rounds 2-5: 4); Raise the Banners High scores "at the end of each of your
#: Command phases, and ... at the end of the battle" (5 + 1 = 6); Linebreaker "at the end of your turn" (5) and
#: The High Ground, the mission's own, at the end of each battle round (5): 20 a player, 40 a game.
MOST_MOMENTS = 40
SELECTED = ["raise-the-banners-high", "linebreaker", "the-high-ground"]


def _busiest_game() -> dict:
    """A legal game of Take the High Ground in which both players score at every moment their objectives can."""
    events = []
    for battle_round in range(1, 6):
        for player in scoring.PLAYERS:
            if battle_round > 1:
                events.append({"round": battle_round, "player": player, "when": "end-of-command-phase",
                               "objective": "take-and-hold", "facts": {"controlled": 2, "opponent_controlled": 2}})
            events.append({"round": battle_round, "player": player, "when": "end-of-command-phase",
                           "objective": "raise-the-banners-high", "facts": {"objective_markers_with_your_banner": 1}})
            events.append({"round": battle_round, "player": player, "when": "end-of-turn", "objective": "linebreaker",
                           "facts": {"non_aircraft_units_wholly_within_opponent_deployment_zone": 2}})
        for player in scoring.PLAYERS:
            events.append({"round": battle_round, "player": player, "when": "end-of-battle-round",
                           "objective": "the-high-ground",
                           "facts": {"controls_tallest_in_own_territory": True,
                                     "controls_tallest_in_opponent_territory": True}})
    for player in scoring.PLAYERS:
        events.append({"round": 5, "player": player, "when": "end-of-battle", "objective": "raise-the-banners-high",
                       "facts": {"objective_markers_with_your_banner": 1}})
    return {"mission": "take-the-high-ground",
            "players": {player: {"secondaries": SELECTED} for player in scoring.PLAYERS}, "events": events}


def _write(tmp_path: Path, game: dict, extra_events: str = "") -> Path:
    path = tmp_path / "game.yaml"
    path.write_text(yaml.safe_dump(game, sort_keys=False, width=1000) + extra_events, encoding="utf-8")
    return path


def test_the_most_moments_a_battle_has_room_for():
    assert scoring.most_moments_in_a_battle() == MOST_MOMENTS


def test_a_game_with_every_moment_scored_is_legal_and_one_more_is_refused(capsys, tmp_path):
    game = _busiest_game()
    assert len(game["events"]) == MOST_MOMENTS
    code, out, err = run(capsys, "score", str(_write(tmp_path, game)), "--json")
    assert code == 0, err
    # Take and Hold 10 (one or more markers, two or more, not more than the opponent) in 4 rounds; Raise the
    # Banners High 1 at 6 moments; Linebreaker 4 in 5 turns and The High Ground 4 in 5 rounds, each capped at 15
    assert yaml.safe_load(out)["attacker"]["total"] == 40 + 6 + 15 + 15
    once_more = {"round": 5, "player": "defender", "when": "end-of-battle", "objective": "linebreaker", "facts": {}}
    game["events"].append(once_more)
    code, out, err = run(capsys, "score", str(_write(tmp_path, game)))
    assert code == 2 and out == ""
    assert f"events[{MOST_MOMENTS + 1}]: a battle has room for at most {MOST_MOMENTS} scoring moments" in err, err


def test_an_earlier_moments_own_refusal_comes_before_the_count(capsys, tmp_path):
    game = _busiest_game()
    first = {**game["events"][6], "round": 1}  # the attacker's Take and Hold, moved to the first battle round
    assert first["objective"] == "take-and-hold"
    game["events"].insert(0, first)  # 41 moments in all
    code, out, err = run(capsys, "score", str(_write(tmp_path, game)))
    assert code == 2 and out == ""
    assert "event 1 (take-and-hold, battle round 1, attacker): Take and Hold cannot be scored in the first" in err


@pytest.mark.parametrize("first_bad", [False, True], ids=["repeated-moment", "bad-first-moment"])
def test_a_hundred_thousand_moments_are_refused_without_reading_them(capsys, tmp_path, first_bad):
    """13 MB of moments: the reader stops at the 41st, so the answer (the first bad moment) comes at once."""
    game = _busiest_game()
    moment = "- {round: 2, player: attacker, when: end-of-command-phase, objective: take-and-hold, facts: " \
             "{controlled: 2, opponent_controlled: 1}}\n"
    game["events"] = game["events"][:1] if first_bad else []
    path = _write(tmp_path, game)
    if first_bad:
        path.write_text(path.read_text(encoding="utf-8").replace("round: 1", "round: 0", 1), encoding="utf-8")
    else:
        path.write_text(path.read_text(encoding="utf-8").replace("events: []", "events:"), encoding="utf-8")
    with path.open("a", encoding="utf-8") as file:
        file.write(moment * 100_000)
    start = time.monotonic()
    code, out, err = run(capsys, "score", str(path))
    assert time.monotonic() - start < 3
    assert code == 2 and out == ""
    if first_bad:
        assert "event 1 (raise-the-banners-high, battle round 0, attacker): a battle lasts 5 battle rounds" in err, err
    else:
        assert "event 2 (take-and-hold, battle round 2, attacker): Take and Hold scores once" in err, err


def test_players_after_a_list_too_long_are_not_needed_for_the_refusal(capsys, tmp_path):
    moment = "- {round: 2, player: attacker, when: end-of-turn, objective: linebreaker, facts: {}}\n"
    path = tmp_path / "game.yaml"
    path.write_text("mission: take-the-high-ground\nevents:\n" + moment * 1000 + "players: {}\n", encoding="utf-8")
    code, out, err = run(capsys, "score", str(path))
    assert code == 2 and out == ""
    assert f"events[{MOST_MOMENTS + 1}]: a battle has room for at most {MOST_MOMENTS}" in err, err


# --------------------------------------------------------------------------
# bench FILE: the simulation stops at a time limit and says so
# --------------------------------------------------------------------------

SCENARIO = str(REPO / "examples" / "intercessors.json")


def test_bench_simulation_is_capped_by_time_and_says_so(capsys):
    """±0.0001 needs about 250 million trials here (hours); --max-seconds 1 stops it after a second."""
    start = time.monotonic()
    code, out, err = run(capsys, "bench", SCENARIO, "--precision", "1e-4", "--max-seconds", "1", "--repeats", "1")
    assert time.monotonic() - start < 10
    assert code == 0, err
    assert "intercessors.json: the simulation stopped after" in out
    assert "(the --max-seconds 1 limit); its time is extrapolated" in out


def test_bench_caps_the_simulation_by_default(capsys, monkeypatch):
    from rules40k import bench

    monkeypatch.setattr(bench, "MAX_SIMULATION_SECONDS", 0.5)
    code, out, err = run(capsys, "bench", SCENARIO, "--precision", "1e-4", "--repeats", "1", "--json")
    assert code == 0, err
    row = json.loads(out)[0]
    assert row["simulation_capped_by"] == "time" and row["simulation_extrapolated"]
    assert 0 < row["simulation_trials_run"] < row["simulation_trials_for_precision"]


def test_bench_max_seconds_is_for_scenario_files(capsys):
    code, out, err = run(capsys, "bench", "--max-seconds", "5")
    assert code == 2 and out == ""
    assert "--max-seconds limits the simulation of scenario files" in err


def test_a_capped_simulation_runs_the_first_trials_of_the_same_stream():
    from rules import calculator, scenario
    from rules.engine import simulate as simulation
    from rules40k import bench

    sc = scenario.read_scenario(json.loads(Path(SCENARIO).read_text(encoding="utf-8")), SCENARIO)
    result = calculator.calculate(sc)
    row = bench.simulate(sc, result, 1e-4, 300, seed=7)
    outcomes = simulation.Simulator(sc, calculator.attack_rules("core")).run(300, 7)
    assert row["simulation_capped_by"] == "trials" and row["simulation_trials_run"] == 300
    assert row["simulated_mean"] == sum(o.models_destroyed for o in outcomes) / 300
