"""The calculator's command line and scenario schema: exact output, strict input."""

from __future__ import annotations

import io
import json
from fractions import Fraction
from pathlib import Path

import pytest

from rules import calculator, scenario
from rules40k import cli

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "intercessors.json"


def _scenario(**changes):
    data = json.loads(EXAMPLE.read_text())
    for path, value in changes.items():
        target = data
        keys = path.split(".")
        for key in keys[:-1]:
            target = target[int(key)] if key.isdigit() else target[key]
        target[keys[-1]] = value
    return data


def test_json_output_has_exact_reduced_fractions(capsys):
    assert cli.main(["calc", str(EXAMPLE), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    probabilities = [Fraction(p) for p in out["models_destroyed"].values()]
    assert sum(probabilities) == 1
    for text in out["models_destroyed"].values():
        n, d = map(int, text.split("/"))
        assert Fraction(n, d).numerator == n  # already reduced
    assert set(out["models_destroyed"]) == {str(k) for k in range(6)}
    expected = sum(int(k) * Fraction(p) for k, p in out["models_destroyed"].items())
    assert Fraction(out["expected_models_destroyed"]) == expected
    assert sum(Fraction(p) for p in out["wounds_lost"].values()) == 1


def test_expected_wounds_match_the_hand_calculation():
    """20 attacks, 2/3 hit, 1/2 wound (S4 v T4), 1/2 unsaved (3+ with AP-1 against a 5+ InSv), FNP 6+.

    Twenty 2-wound models, so no attack is ever lost to a destroyed unit and the product is exact.
    """
    result = calculator.calculate(scenario.read_scenario(_scenario(**{"target.models.0.count": 20})))
    assert result.expected_wounds_lost == 20 * Fraction(2, 3) * Fraction(1, 2) * Fraction(1, 2) * Fraction(5, 6)


def test_stdin_and_explain(monkeypatch, capsys):
    monkeypatch.setattr("sys.stdin", io.StringIO(EXAMPLE.read_text()))
    assert cli.main(["calc", "-", "--explain"]) == 0
    out = capsys.readouterr().out
    assert "P(hit) = 2/3" in out and "P(wound per hit) = 1/2" in out and "P(save fails) = 1/2" in out


def test_plot_is_written(tmp_path):
    target = tmp_path / "dist.svg"
    assert cli.main(["calc", str(EXAMPLE), "--plot", str(target)]) == 0
    assert target.read_text().lstrip().startswith("<?xml")


@pytest.mark.parametrize("change,message", [
    ({"weapons.0.Ap": -1}, "weapons[0].Ap is not a known key"),
    ({"weapons.0.AP": 1}, "weapons[0].AP must be 0 or a negative"),
    ({"weapons.0.skill": 7}, "weapons[0].skill must be from 2 to 6"),
    ({"weapons.0.A": "2D7"}, "weapons[0].A"),
    ({"weapons.0.abilities": ["RAPID FIRE"]}, "RAPID FIRE always takes the form"),
    ({"weapons.0.abilities": ["LASER EYES"]}, "not a weapon or core ability"),
    ({"target.models.0.W": 0}, "target.models[0].W must be from 1"),
    ({"target.models.0.FNP": 7}, "target.models[0].FNP must be from 2 to 6"),
    ({"context.hit_modifer": 1}, "context.hit_modifer is not a known key"),
    ({"context.attacker_charged": "yes"}, "context.attacker_charged must be true or false"),
])
def test_bad_scenarios_name_the_place(tmp_path, capsys, change, message):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(_scenario(**change)))
    plot = tmp_path / "never.svg"
    assert cli.main(["calc", str(path), "--json", "--plot", str(plot)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"rules40k calc: {path}: ") and message in err, err
    assert len(err.splitlines()) == 1
    assert not plot.exists()


def test_malformed_json_names_line_and_column(tmp_path, capsys):
    path = tmp_path / "broken.json"
    path.write_text('{"weapons": [\n  {"name": "x",,}]}')
    assert cli.main(["calc", str(path)]) == 2
    assert "line 2, column" in capsys.readouterr().err


def test_weapons_carry_damage_over():
    """A second weapon finds the model the first one wounded: two 1-damage shots kill a 2-wound model.

    Both shots hit automatically and wound on 2+ (5/6 each) against no save, so one model dies
    exactly when both wound; without carry-over the second shot would start on a fresh model.
    """
    one_shot = {"name": "sniper", "count": 1, "A": 1, "skill": 2, "S": 10, "AP": -6, "D": 1, "abilities": ["TORRENT"]}
    data = {"weapons": [one_shot, dict(one_shot, name="second")],
            "target": {"keywords": [], "models": [{"name": "Ogryn", "count": 2, "T": 5, "Sv": 7, "W": 2}]}}
    result = calculator.calculate(scenario.read_scenario(data))
    assert result.models_destroyed == {0: Fraction(11, 36), 1: Fraction(25, 36)}


def test_overkill_damage_is_lost():
    """Damage beyond a model's wounds does not spill to the next model (05.04): 6 damage kills one 1-wound model."""
    shot = {"name": "lascannon", "count": 1, "A": 1, "skill": 2, "S": 12, "AP": -6, "D": 6, "abilities": ["TORRENT"]}
    data = {"weapons": [shot], "target": {"keywords": [], "models": [{"name": "Guard", "count": 3, "T": 3, "Sv": 7, "W": 1}]}}
    result = calculator.calculate(scenario.read_scenario(data))
    assert result.models_destroyed == {0: Fraction(1, 6), 1: Fraction(5, 6)}


def _certain(weapon_extra=None, models=None, keywords=()):
    """A weapon that always hits and wounds except on the wound roll's unmodified 1, against no save."""
    weapon = {"name": "w", "count": 1, "A": 1, "skill": 2, "S": 10, "AP": -6, "D": 1, "abilities": ["TORRENT"]}
    weapon.update(weapon_extra or {})
    return scenario.read_scenario({"weapons": [weapon], "target": {"keywords": list(keywords), "models": models}})


def test_character_is_allocated_last():
    """05.03: the bodyguard group takes attacks before the CHARACTER, whatever the listed order."""
    models = [{"name": "Captain", "count": 1, "T": 4, "Sv": 7, "W": 1, "character": True, "role": "leader"},
              {"name": "Trooper", "count": 1, "T": 4, "Sv": 7, "W": 1}]
    result = calculator.calculate(_certain(models=models))
    (state, p), = [(s, p) for s, p in result.states.items() if s != ((1, 1), (1, 1))]
    assert state == ((1, 1), (0, 1))  # the Trooper died, the Captain stands


def test_precision_reaches_the_character():
    """24.28: a [PRECISION] weapon makes the visible CHARACTER group the current allocation group."""
    models = [{"name": "Captain", "count": 1, "T": 4, "Sv": 7, "W": 1, "character": True, "role": "leader"},
              {"name": "Trooper", "count": 1, "T": 4, "Sv": 7, "W": 1}]
    result = calculator.calculate(_certain({"abilities": ["TORRENT", "PRECISION"]}, models))
    assert ((0, 1), (1, 1)) in result.states


def test_attached_unit_uses_bodyguard_toughness():
    """19.02: against a T4 bodyguard with a T6 leader, an S4 attack wounds on 4+, not 5+."""
    models = [{"name": "Leader", "count": 1, "T": 6, "Sv": 7, "W": 4, "character": True, "role": "leader"},
              {"name": "Guard", "count": 3, "T": 4, "Sv": 7, "W": 1}]
    calc = calculator.Calculator(_certain({"S": 4}, models))
    assert calc.toughness(calc.initial) == 4
    assert calc.toughness(((1, 4), (0, 1))) == 6


def test_devastating_wounds_damage_one_model_per_critical():
    """24.10: 3 mortal wounds from one critical wound kill one 2-wound model; the third is lost."""
    sc = _certain({"abilities": ["DEVASTATING WOUNDS", "TORRENT", "ANTI-INFANTRY 2+"], "D": 3},
                  [{"name": "Intercessor", "count": 5, "T": 4, "Sv": 3, "W": 2}], keywords=["INFANTRY"])
    result = calculator.calculate(sc)
    assert result.models_destroyed == {0: Fraction(1, 6), 1: Fraction(5, 6)}
    assert result.wounds_lost == {0: Fraction(1, 6), 2: Fraction(5, 6)}
