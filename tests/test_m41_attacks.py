"""999.m41 attacks through the shared engine: the defender's allocation order, refusals in one sentence, and
``calc --ruleset m41`` in the game's terms (the simulation and literal-engine checks are properties:
properties/test_m41_calculator.py)."""

from __future__ import annotations

import copy
import json

import pytest

from properties.test_m41_calculator import GUARDSMEN, SCENARIOS, SMALL
from rules import calculator
from rules.m41.attacks import RulesetCannot
from rules.m41.scenario import read_scenario
from rules40k.cli import main


def test_allocation_order_decides_who_takes_the_first_wound():
    """The defender's order is followed: listing the 2-wound sergeant first, one wound destroys no model."""
    data = copy.deepcopy(SMALL["sergeant last"])
    data["weapons"] = [{"name": "Lascannon", "count": 1, "type": "Heavy 1", "S": 9, "AP": 2, "BS": 4}]
    guard_first = calculator.calculate(read_scenario(data), ruleset="m41")
    data["choices"]["allocation_order"] = ["Sergeant", "Guardsman"]
    sergeant_first = calculator.calculate(read_scenario(data), ruleset="m41")
    # One shot: hit 2/3, S9 v T3 wounds on 2+ (5/6) and overpowers (2 wounds); AP2 pierces 5+: 5/9 unsaved.
    assert guard_first.models_destroyed[1] == sergeant_first.models_destroyed[1] == pytest.approx(5 / 9)
    assert guard_first.destroyed_by_group["Guardsman"][1] == sergeant_first.destroyed_by_group["Sergeant"][1]
    assert sergeant_first.destroyed_by_group["Guardsman"] == {0: 1}


REFUSED = [
    ({"weapons": [{"name": "Frag", "count": 1, "type": "Assault 1", "S": 3, "AP": 6, "BS": 4, "rules": ["Blast"]}],
      "formation": {"table": {"width": 72, "depth": 48}, "firer": {"x": 10, "y": 24}, "aim": {"x": 30, "y": 24},
                    "bases": [{"x": 30 + 2 * i, "y": 24, "diameter": 1} for i in range(10)]}},
     "Frag: Blast weapons hit by template, placed by rules.m41.blast_attacks"),  # the engine alone never places
    ({"weapons": [{"name": "Gun", "count": 1, "type": "Assault 1", "S": 3, "AP": 6, "BS": 4, "rules": ["Haywire"]}]},
     "Gun: the m41 calculator does not calculate Haywire"),
    ({"weapons": [{"name": "Gun", "count": 1, "type": "Assault 1", "S": 3, "AP": 6, "BS": 4, "rules": ["Poisoned"]}]},
     "Gun: Poisoned needs its value"),
    ({"weapons": [{"name": "Gun", "count": 1, "type": "Ordnance 1", "S": 8, "AP": 3, "BS": 4}],
      "context": {"snap_shots": True}}, "Gun: an Ordnance weapon cannot fire snap shots"),
    ({"weapons": [{"name": "Gun", "count": 1, "type": "Assault 1", "S": 3, "AP": 6, "BS": 4,
                   "rules": ["Twin-linked", "Preferred Enemy"]}]}, "Twin-Linked with Preferred Enemy"),
    ({"target": {"models": [GUARDSMEN, dict(GUARDSMEN, name="Veteran", Sv=4)]}},
     "target.models[1] differs from target.models[0] in T, saves, kind or rules"),
    ({"target": {"models": [dict(GUARDSMEN, name="Commissar", count=1, kind="character"), GUARDSMEN]}},
     "Guardsman takes wounds after a character"),
    ({"target": {"models": [dict(GUARDSMEN, rules=["Fearless"])]}},
     "target.models[0].rules: the m41 calculator does not calculate Fearless"),
    ({"weapons": [{"name": "Claw", "count": 1, "type": "Melee", "S": 3, "AP": 6, "WS": 4, "A": 1}],
      "target": {"models": [GUARDSMEN, dict(GUARDSMEN, name="Sergeant", count=1, WS=4)]}},
     "Claw: the target's models differ in WS"),
]


@pytest.mark.parametrize("change,words", REFUSED, ids=[w for _, w in REFUSED])
def test_what_the_calculator_does_not_calculate_is_refused_in_one_sentence(change, words):
    data = {**copy.deepcopy(SCENARIOS["bolters at guardsmen in cover"]), **copy.deepcopy(change)}
    with pytest.raises(RulesetCannot) as error:  # the engine's own refusal (calculate would place a blast first)
        calculator.Calculator(read_scenario(data), ruleset="m41").run()
    assert words in str(error.value) and "\n" not in str(error.value)


def test_cli_speaks_the_games_terms(capsys, tmp_path):
    """calc --ruleset m41 --explain names the rolls as a player makes them: to hit on N+, to wound on N+, the saves
    best first, Feel no Pain; --json gives exact ratios."""
    path = tmp_path / "s.json"
    path.write_text(json.dumps(SCENARIOS["overpower and feel no pain on multi-wound models"]))
    assert main(["calc", "--ruleset", "m41", str(path), "--explain"]) == 0
    out = capsys.readouterr().out
    assert "Models destroyed (Warhammer 999.m41)" in out
    assert "to hit on 3+: P(hit) = 66.7%" in out  # BS4
    assert "to wound on 2+" in out and "to wound on 5+" in out  # at T4: S7 (S-T 3) on 2+, S3 (S-T -1) on 5+
    assert "saves against Ogryn, best first: 6+; P(normal wound unsaved) = 83.3%" in out  # overpower: 5+ at -1
    assert "overpower: -1 armour, 2 wounds, no Feel no Pain" in out
    assert "Feel no Pain 5+ where allowed" in out
    assert main(["calc", "--ruleset", "m41", str(path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["ruleset"] == "m41" and data["steps"][0]["p_hit"] == "2/3"


def test_cli_bad_m41_scenario_is_one_sentence_and_exit_2(capsys, tmp_path):
    path = tmp_path / "s.json"
    data = copy.deepcopy(SCENARIOS["bolters at guardsmen in cover"])
    data["weapons"][0]["AP"] = 0
    path.write_text(json.dumps(data))
    plot = tmp_path / "p.svg"
    assert main(["calc", "--ruleset", "m41", str(path), "--plot", str(plot)]) == 2
    err = capsys.readouterr().err.strip().split("\n")
    assert len(err) == 1 and "weapons[0].AP must be 1 to 6, '-' or a rend of -1 to -3" in err[0], err
    assert not plot.exists()
    data["weapons"][0]["AP"] = 5
    data["weapons"][0]["rules"] = ["Blast"]
    path.write_text(json.dumps(data))
    assert main(["calc", "--ruleset", "m41", str(path)]) == 2
    err = capsys.readouterr().err.strip().split("\n")
    assert len(err) == 1 and "weapons[0] is a blast or template weapon, which hits the models under it" in err[0], err
