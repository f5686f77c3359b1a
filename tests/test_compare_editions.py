"""`rules40k compare`: the same attack under several rulesets, side by side. Expected numbers are worked by hand from
each ruleset's text; the command only runs each ruleset's own calculator, so these check the wiring (which ruleset
reads which description, what is subtracted from what) and the output a person and a program read."""

from __future__ import annotations

import json
import re
from fractions import Fraction
from pathlib import Path

import pytest

from rules40k.cli import main

ANSI = re.compile(r"\x1b\[[0-9;]*m")

# One boltgun shot (BS 3+, S4, AP 0, D1) at one W1 T4 model with a 3+ save: hits on 3+ (4/6), wounds on 4+ (S = T:
# 3/6), the save fails on 1-2 (2/6): 2/3 x 1/2 x 1/3 = 1/9 under the Core Rules (05.01-05.04) and under the sheet
# (its Shooting phase steps 3-6 print the same rolls).
BOLTGUN = {"weapons": [{"name": "boltgun", "count": 1, "A": 1, "skill": 3, "S": 4, "AP": 0, "D": 1}],
           "target": {"models": [{"name": "Guardsman", "count": 2, "T": 4, "Sv": 3, "W": 1}]}}

# One [TORRENT] (hits without a roll) [DEVASTATING WOUNDS] attack, S1 against T10 (half or less: 6+), D2, at two W1
# models without a save: it wounds only on a 6, a critical wound (1/6), whose 2 damage become mortal wounds. The Core
# Rules apply them to one model at most (24.10: the excess is lost): one model destroyed with 1/6. The sheet lets
# mortal wounds go on to the next model: two destroyed with 1/6.
NEEDLE = {"weapons": [{"name": "needle", "count": 1, "A": 1, "skill": 3, "S": 1, "AP": 0, "D": 2,
                       "abilities": ["TORRENT", "DEVASTATING WOUNDS"]}],
          "target": {"models": [{"name": "Guardsman", "count": 2, "T": 10, "Sv": 7, "W": 1}]}}


def run(capsys, tmp_path: Path, scenario, *argv: str) -> tuple[int, str, str]:
    path = tmp_path / "scenario.json"
    path.write_text(json.dumps(scenario), encoding="utf-8")
    code = main(["compare", str(path), *argv])
    out, err = capsys.readouterr()
    return code, ANSI.sub("", out), ANSI.sub("", err)


def test_an_attack_both_rulesets_resolve_alike_differs_by_nothing(capsys, tmp_path):
    code, out, err = run(capsys, tmp_path, BOLTGUN, "--rulesets", "core,quickref", "--json")
    assert code == 0, err
    answer = json.loads(out)
    for name in ("core", "quickref"):
        assert answer["rulesets"][name]["models_destroyed"] == {"0": "8/9", "1": "1/9"}
    assert answer["differences"]["quickref"]["models_destroyed"] == {"0": "0/1", "1": "0/1"}
    assert answer["differences"]["quickref"]["largest_gap"] == "0/1"


def test_mortal_wounds_that_spill_over_move_the_chance_from_one_model_to_two(capsys, tmp_path):
    code, out, err = run(capsys, tmp_path, NEEDLE, "--rulesets", "core,quickref", "--json")
    assert code == 0, err
    answer = json.loads(out)
    assert answer["baseline"] == "core"
    assert answer["rulesets"]["core"]["models_destroyed"] == {"0": "5/6", "1": "1/6"}
    assert answer["rulesets"]["quickref"]["models_destroyed"] == {"0": "5/6", "2": "1/6"}
    diff = answer["differences"]["quickref"]
    assert diff["models_destroyed"] == {"0": "0/1", "1": "-1/6", "2": "1/6"}
    assert diff["expected_models_destroyed"] == "1/6" and diff["largest_gap"] == "1/6"


def test_the_baseline_is_the_first_ruleset_named(capsys, tmp_path):
    code, out, err = run(capsys, tmp_path, NEEDLE, "--rulesets", "quickref,core", "--json")
    assert code == 0, err
    diff = json.loads(out)["differences"]["core"]
    assert diff["models_destroyed"] == {"0": "0/1", "1": "1/6", "2": "-1/6"}


def test_the_text_reads_in_percentages_and_names(capsys, tmp_path):
    code, out, err = run(capsys, tmp_path, NEEDLE, "--rulesets", "core,quickref")
    assert code == 0, err
    assert "Core Rules" in out and "Quick-reference sheet" in out
    assert re.search(r"│\s+1 │\s+16\.7% │\s+0% │\s+-16\.7 pp │", out), out
    assert "+0.17 models" in out and "at most 16.7 percentage points" in out


def test_an_edition_restates_a_key_for_one_ruleset(capsys, tmp_path):
    """Under `editions`, the sheet reads a target of one model: the needle destroys it with 1/6 (one model at most),
    while the Core Rules keep the scenario's two models."""
    scenario = {**NEEDLE, "editions": {"quickref": {"target": {"models": [
        {"name": "Guardsman", "count": 1, "T": 10, "Sv": 7, "W": 1}]}}}}
    code, out, err = run(capsys, tmp_path, scenario, "--rulesets", "core,quickref", "--json")
    assert code == 0, err
    answer = json.loads(out)
    assert answer["rulesets"]["quickref"]["models_destroyed"] == {"0": "5/6", "1": "1/6"}
    assert answer["rulesets"]["core"]["models_destroyed"] == {"0": "5/6", "1": "1/6"}


def test_the_plot_is_drawn(capsys, tmp_path):
    plot = tmp_path / "compare.svg"
    code, _, err = run(capsys, tmp_path, NEEDLE, "--rulesets", "core,quickref", "--plot", str(plot))
    assert code == 0, err
    svg = plot.read_text(encoding="utf-8")
    assert "Difference from Core Rules" in svg and "Quick-reference sheet" in svg


@pytest.mark.parametrize("scenario,argv,message", [
    (BOLTGUN, ["--rulesets", "core"], "--rulesets 'core': name at least two rulesets to compare"),
    (BOLTGUN, ["--rulesets", "core,core"], "names a ruleset twice"),
    (BOLTGUN, ["--rulesets", "core,missionpack"], "'missionpack' is not a ruleset with attack rules"),
    (BOLTGUN, ["--rulesets", "core,"], "an empty name"),
    ({**BOLTGUN, "editions": {"nowhere": {}}}, ["--rulesets", "core,quickref"],
     "editions.nowhere: not one of the rulesets compared (core, quickref)"),
    ({**BOLTGUN, "editions": {"quickref": {"mission": 1}}}, ["--rulesets", "core,quickref"],
     "editions.quickref.mission: not a scenario key an edition can restate"),
    ({**BOLTGUN, "editions": []}, ["--rulesets", "core,quickref"], "editions must map ruleset names"),
    ({"weapons": [{"name": "x", "count": 1, "A": 1, "skill": 9, "S": 4, "AP": 0, "D": 1}],
      "target": BOLTGUN["target"]}, ["--rulesets", "core,quickref"], "(under core)"),
])
def test_a_bad_request_is_one_sentence_and_writes_nothing(capsys, tmp_path, scenario, argv, message):
    plot = tmp_path / "compare.svg"
    code, out, err = run(capsys, tmp_path, scenario, *argv, "--plot", str(plot))
    assert code == 2 and out == ""
    lines = err.strip().split("\n")
    assert len(lines) == 1 and lines[0].startswith("rules40k compare: ") and message in lines[0], err
    assert not plot.exists()


def test_a_plot_of_another_kind_is_refused(capsys, tmp_path):
    code, _, err = run(capsys, tmp_path, BOLTGUN, "--rulesets", "core,quickref", "--plot", str(tmp_path / "x.gif"))
    assert code == 2 and "must be an .svg, .png or .pdf file" in err


# One frag grenade (D6 attacks, BS 3+, S3, AP 0, D1) at ten Guardsmen (T3, Sv 5+, W1). Each attack slays one: hit on 3+
# (2/3), wound on 4+ (S = T: 1/2), the save fails on 1-4 (2/3): 2/9. The Core Rules' [BLAST] adds one attack die per
# five models (24.05): D6 + 2, 5.5 on average, 5.5 x 2/9 = 11/9. The earlier edition's Blast makes at least 3 attacks
# against 6 to 10 models (Blast Weapons, rule 1): 3 with 3/6, then 4, 5, 6 with 1/6 each, 4 on average: 8/9.
FRAG = {"weapons": [{"name": "frag grenade", "count": 1, "A": "D6", "skill": 3, "S": 3, "AP": 0, "D": 1,
                     "abilities": ["BLAST"]}],
        "target": {"models": [{"name": "Guardsman", "count": 10, "T": 3, "Sv": 5, "W": 1}]},
        "editions": {"ninth": {"weapons": [{"name": "frag grenade", "count": 1, "A": "D6", "type": "Grenade",
                                            "skill": 3, "S": 3, "AP": 0, "D": 1, "abilities": ["Blast"]}]}}}


def test_blast_of_each_edition_against_ten_models(capsys, tmp_path):
    code, out, err = run(capsys, tmp_path, FRAG, "--rulesets", "core,ninth", "--json")
    assert code == 0, err
    answer = json.loads(out)
    assert answer["rulesets"]["core"]["expected_models_destroyed"] == "11/9"
    assert answer["rulesets"]["ninth"]["expected_models_destroyed"] == "8/9"
    assert answer["differences"]["ninth"]["expected_models_destroyed"] == "-1/3"
    # No model slain: all 3 attacks fail (7/9 each) with 1/2, or all 4, 5 or 6 with 1/6 each.
    q = Fraction(7, 9)
    none = Fraction(1, 2) * q ** 3 + Fraction(1, 6) * (q ** 4 + q ** 5 + q ** 6)
    assert answer["rulesets"]["ninth"]["models_destroyed"]["0"] == f"{none.numerator}/{none.denominator}"
    assert "7" not in answer["rulesets"]["ninth"]["models_destroyed"]  # never more than six attacks


def test_the_earlier_edition_refuses_a_weapon_without_its_type(capsys, tmp_path):
    scenario = {key: value for key, value in FRAG.items() if key != "editions"}
    code, out, err = run(capsys, tmp_path, scenario, "--rulesets", "core,ninth")
    assert code == 2 and out == "" and "(under ninth)" in err and len(err.strip().split("\n")) == 1, err
