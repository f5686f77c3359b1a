"""The calculator's command line and scenario schema: exact output, strict input."""

from __future__ import annotations

import io
import json
from fractions import Fraction
from pathlib import Path

import pytest

from rules import calculator, dice, messages, scenario
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
    assert "P(hit) = 66.7%" in out and "P(wound per hit) = 50.0%" in out and "P(save fails) = 50.0%" in out
    monkeypatch.setattr("sys.stdin", io.StringIO(EXAMPLE.read_text()))
    assert cli.main(["calc", "-", "--explain", "--exact"]) == 0
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


def test_which_models_fell_is_shown_per_group(tmp_path, capsys):
    """24.28, 05.03: a [PRECISION] pistol at the Captain (wounds on 2+: 5/6), then a plain pistol, which must go to a
    Bodyguard (5/6): the table reads each group's fate, the JSON the exact law of each group's losses."""
    pistol = {"count": 1, "A": 1, "skill": 3, "S": 8, "AP": 0, "D": 1}
    data = {"weapons": [{"name": "first pistol", **pistol, "abilities": ["TORRENT", "PRECISION"]},
                        {"name": "bolt pistol", **pistol, "abilities": ["TORRENT"]}],
            "target": {"keywords": ["INFANTRY"], "models": [
                {"name": "Bodyguard", "count": 2, "T": 4, "Sv": 7, "W": 1, "role": "bodyguard"},
                {"name": "Captain", "count": 1, "T": 4, "Sv": 7, "W": 1, "character": True, "role": "leader"}]}}
    path = tmp_path / "captain.json"
    path.write_text(json.dumps(data))
    assert cli.main(["calc", str(path)]) == 0
    out = capsys.readouterr().out
    assert "Captain: slain 83.3%." in out and "Bodyguard: all 2 destroyed 0%, 0.83 destroyed on average." in out
    assert cli.main(["calc", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["destroyed_by_group"] == {
        "Bodyguard": {"0": "1/6", "1": "5/6"}, "Captain": {"0": "1/6", "1": "5/6"}}


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


def _read(data):
    """read_scenario's verdict: None when accepted, else the error message."""
    try:
        scenario.read_scenario(data)
    except scenario.ScenarioError as error:
        return str(error)
    return None


@pytest.mark.parametrize("value,accepted", [
    (60, True), (61, False), (0, False), ("6D6+24", True), ("6D6+25", False), ("7D6", False),
    ("2D6-1", True), ("D6-1", False), ("D3-1", False), ("2D6-7", False), ("D6+60", False), ("d3", True),
])
def test_dice_ranges_of_A_and_D(value, accepted):
    """A and D: every result 1 to 60, at most 6 dice, a constant from -6 to 60 (README's table)."""
    for key in ("A", "D"):
        message = _read(_scenario(**{f"weapons.0.{key}": value, "weapons.0.count": 1}))
        assert (message is None) == accepted, message
        assert accepted or message.startswith(f"scenario: weapons[0].{key}")


@pytest.mark.parametrize("ability,accepted", [
    ("RAPID FIRE 20", True), ("RAPID FIRE 21", False), ("RAPID FIRE 0", False), ("MELTA 20", True),
    ("MELTA 21", False), ("BLAST 20", True), ("CLEAVE 0", False), ("SUSTAINED HITS D3", True),
    ("SUSTAINED HITS 3D6", True), ("SUSTAINED HITS 4D6", False), ("RAPID FIRE D3", False),
    ("ANTI-INFANTRY 2+", True), ("ANTI-INFANTRY 6+", True), ("ANTI-INFANTRY 1+", False), ("ANTI-INFANTRY 7+", False),
    ("FEEL NO PAIN 1+", False), ("RAPID FIRE ٣", False), ("RAPıD FIRE 1", False),
])
def test_ability_values(ability, accepted):
    """Numbered abilities take X from 1 to 20 (dice only where the calculator rolls them); ANTI X+ 2+ to 6+."""
    message = _read(_scenario(**{"weapons.0.abilities": [ability], "weapons.0.count": 1}))
    assert (message is None) == accepted, message
    assert accepted or message.startswith("scenario: weapons[0].abilities[0]: ")


def test_attack_cap_counts_the_most_every_ability_adds():
    """MAX_ATTACKS bounds count x (A's highest + RAPID FIRE X + BLAST/CLEAVE X per five models), all weapons summed."""
    weapon = {"name": "w", "count": 25, "A": "2D6+8", "skill": 3, "S": 4, "AP": 0, "D": 1}  # 25 x 20 = 500
    target = {"models": [{"name": "Guard", "count": 10, "T": 3, "Sv": 5, "W": 1}]}
    assert _read({"weapons": [weapon, dict(weapon, name="v")], "target": target}) is None  # exactly 1000
    over = dict(weapon, name="v", abilities=["BLAST"])  # 25 more: one per five of the ten models, twice
    message = _read({"weapons": [weapon, over], "target": target})
    assert message == ("scenario: weapons can roll up to 1050 attack dice in all (count x the most A and "
                       "[RAPID FIRE], [BLAST], [CLEAVE] can give); at most 1000")
    cleave = scenario.read_weapon(dict(weapon, abilities=["CLEAVE 2", "CLEAVE 1", "RAPID FIRE 3"]), "w")
    assert scenario.most_attacks(cleave, 10) == 25 * (20 + 3 + 2 * 2)


@pytest.mark.parametrize("change,message", [
    ({"target.models.0.count": 40, "target.models": [
        {"name": f"m{i}", "count": 40 if i < 2 else 21, "T": 4, "Sv": 3, "W": 1} for i in range(3)]},
     "target.models have 101 models in all"),
    ({"weapons": [{"name": f"w{i}", "count": 1, "A": 1, "skill": 3, "S": 4, "AP": 0, "D": 1} for i in range(51)]},
     "weapons must have from 1 to 50 entries, not 51"),
    ({"target.keywords": ["INFANTRY"] * 51}, "target.keywords must have from 0 to 50 entries"),
    ({"weapons.0.name": "x" * 101}, "weapons[0].name must be at most 100 characters, not 101"),
    ({"target.abilities": ["FOO BAR"]}, "target.abilities[0] is 'FOO BAR', which the calculator does not read"),
    ({"target.models.0.role": []}, "target.models[0].role must be one of bodyguard, leader, support, not a list"),
])
def test_sizes_and_types(change, message):
    """Lists, strings and model totals have caps; a value of the wrong type is named, never hashed or compared."""
    got = _read(_scenario(**change))
    assert got is not None and message in got, got


def test_shown_values_are_cut():
    """A huge value is never echoed whole: one short line whatever the input."""
    got = _read(_scenario(**{"weapons.0.A": "D6+" + "9" * 96}))
    assert got is not None and len(got) < 160 and "…" in got, got
    assert len(messages.shown("x" * 100_000)) == 60
    assert messages.shown(10 ** 5000) == "a number of more than 60 digits"
    with pytest.raises(dice.DiceError, match="has a number too long to read"):
        dice.parse("D6+" + "9" * 5000)  # int() refuses more than 4300 digits
