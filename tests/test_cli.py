"""The ``rules40k`` command line, called in-process (plus one run of the installed script)."""

from __future__ import annotations

import inspect
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from rules import spec as spec_access
from rules40k import checks, compare
from rules40k.cli import main

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, ANSI.sub("", out), ANSI.sub("", err)


def assert_one_line_error(err: str, verb: str) -> str:
    lines = err.strip().split("\n")
    assert len(lines) == 1 and err.strip(), f"expected one line on stderr, got {err!r}"
    assert lines[0].startswith(f"rules40k {verb}: "), lines[0]
    return lines[0]


# --------------------------------------------------------------------------
# coverage
# --------------------------------------------------------------------------


def test_coverage_json(capsys):
    code, out, err = run(capsys, "coverage", "--ruleset", "core", "--json")
    assert code == 0, err
    rows = json.loads(out)
    known = spec_access.sections("core")
    appendix = [ref for ref in known if ref.startswith("appendix/")]
    assert len(rows) == 156 + len(appendix)
    assert [r["ref"] for r in rows] == list(known)  # the book's order
    assert [r["ref"] for r in rows][:156] == sorted(r for r in known if not r.startswith("appendix/"))
    for row in rows:
        assert isinstance(row["ref"], str) and isinstance(row["title"], str) and row["title"]
        assert row["status"] in {"encoded", "inert", "deferred"}, f"{row['ref']} is {row['status']}"
        assert isinstance(row["functions"], list)
        assert all(isinstance(f, str) and f.startswith("rules.") and "." in f for f in row["functions"])
        assert isinstance(row["examples"], int) and not isinstance(row["examples"], bool)
        if row["status"] == "encoded":
            assert row["functions"]
        else:
            assert row["reason"].strip(), f"{row['ref']} is {row['status']} without a reason"
    early = [r for r in rows if r["ref"][:2] in {"01", "02", "03"}]
    assert len(early) == 7 + 7 + 4
    assert all(r["status"] == "encoded" for r in early), [r["ref"] for r in early if r["status"] != "encoded"]


@pytest.mark.parametrize("ruleset", ["missionpack", "ninth"])
def test_coverage_json_of_a_ruleset(capsys, ruleset):
    code, out, err = run(capsys, "coverage", "--ruleset", ruleset, "--json")
    assert code == 0, err
    rows = json.loads(out)
    assert [r["ref"] for r in rows] == list(spec_access.sections(ruleset))
    for row in rows:
        assert {"ref", "title", "status", "reason", "functions", "examples", "lines"} <= set(row)
        assert row["status"] in {"encoded", "inert"}, f"{row['ref']} is {row['status']}"
        assert len(row["lines"]) == 2 and row["lines"][0] <= row["lines"][1]


def test_coverage_of_every_ruleset(capsys):
    code, out, err = run(capsys, "coverage", "--json")
    assert code == 0, err
    rows = json.loads(out)
    assert {r["ruleset"] for r in rows} == set(spec_access.rulesets())
    assert len(rows) == sum(len(spec_access.sections(name)) for name in spec_access.rulesets())


@pytest.mark.parametrize("verb", [["coverage"], ["verify", "--no-properties"], ["show", "05.02"], ["site"],
                                  ["calc", "x.json"], ["bench"], ["ingest", "x.txt"]])
def test_unknown_ruleset_is_one_sentence_and_exit_2(capsys, verb, tmp_path):
    code, out, err = run(capsys, *verb, "--ruleset", "nope")
    assert code == 2
    assert "'nope' is not a ruleset" in assert_one_line_error(err, verb[0])


def test_document_is_an_alias_of_ruleset(capsys):
    code, out, err = run(capsys, "coverage", "--document", "ninth", "--json")
    assert code == 0, err
    assert [r["ref"] for r in json.loads(out)] == list(spec_access.sections("ninth"))


def test_calc_only_for_rulesets_with_a_calculator(capsys):
    code, out, err = run(capsys, "calc", "examples/intercessors.json", "--ruleset", "missionpack")
    assert code == 2
    message = assert_one_line_error(err, "calc")
    assert "the missionpack ruleset has no attack rules" in message and "core, ninth, quickref" in message
    code, out, err = run(capsys, "calc", "examples/intercessors.json", "--ruleset", "quickref", "--json")
    assert code == 0, err
    assert json.loads(out)["ruleset"] == "quickref"


# --------------------------------------------------------------------------
# show
# --------------------------------------------------------------------------


def test_show_a_qualified_reference(capsys):
    code, out, err = run(capsys, "show", "missionpack:secondary/linebreaker")
    assert code == 0, err
    assert "Linebreaker" in out and "(missionpack)" in out
    code, out, err = run(capsys, "show", "secondary/linebreaker", "--ruleset", "missionpack", "--json")
    assert code == 0, err
    assert json.loads(out)["ref"] == "secondary/linebreaker"


def test_show_a_reference_of_another_ruleset_is_one_sentence(capsys):
    code, out, err = run(capsys, "show", "secondary/linebreaker")
    assert code == 2
    assert "is not a section of the core spec" in assert_one_line_error(err, "show")


def test_show_prints_title_text_and_function_location(capsys):
    from rules.core import moving

    code, out, err = run(capsys, "show", "03.03")
    assert code == 0, err
    section = spec_access.sections("core")["03.03"]
    assert "COHERENCY" in out and section["title"] in out
    assert section["text"] in out
    function = inspect.unwrap(moving.in_coherency)
    line = inspect.getsourcelines(function)[1]
    assert "rules.core.moving.in_coherency" in out
    assert f"rules/core/moving.py:{line}" in out


def test_show_json(capsys):
    code, out, err = run(capsys, "show", "05.02", "--json")
    assert code == 0, err
    data = json.loads(out)
    section = spec_access.sections("core")["05.02"]
    assert data["ref"] == "05.02"
    assert data["title"] == section["title"]
    assert data["text"] == section["text"]
    assert data["cites"] == section["cites"]
    assert data["status"] in {"encoded", "inert", "deferred"}


@pytest.mark.parametrize("ref", ["99.99", "nonsense"])
def test_show_unknown_reference(capsys, ref):
    code, out, err = run(capsys, "show", ref)
    assert code == 2
    assert out == ""
    assert repr(ref) in assert_one_line_error(err, "show")


# --------------------------------------------------------------------------
# ingest
# --------------------------------------------------------------------------


def test_ingest_truncated_document_exits_2_and_writes_nothing(capsys, spec_root, truncated_document, snapshot):
    before = snapshot(spec_root)
    code, out, err = run(capsys, "ingest", str(truncated_document), "--document", "core", "--spec", str(spec_root))
    assert code == 2
    assert str(truncated_document) in assert_one_line_error(err, "ingest")
    assert snapshot(spec_root) == before
    assert not list(spec_root.rglob(".ingest-*"))


# --------------------------------------------------------------------------
# verify
# --------------------------------------------------------------------------


def test_verify_writes_results(capsys, tmp_path):
    """Examples, tables and proofs all pass, except recorded findings (the properties have their own run)."""
    output = tmp_path / "results.json"
    code, out, err = run(capsys, "verify", "--no-properties", "--output", str(output))
    assert code == 0, out + err
    results = json.loads(output.read_text(encoding="utf-8"))
    assert results["rulesets"] == list(spec_access.rulesets())
    assert results["checks"]
    assert {c["ruleset"] for c in results["checks"]} == set(spec_access.rulesets())
    failed = [c["id"] for c in results["checks"] if c["status"] not in checks.OK_STATUSES]
    assert failed == []
    assert set(results["summary"]) <= set(checks.OK_STATUSES) - {"skipped"}
    comparisons = [c for c in results["checks"] if c["kind"] == "comparison"]
    assert comparisons and {c["status"] for c in comparisons} <= set(compare.VERDICTS)
    assert {c["kind"] for c in results["checks"]} >= {"example", "table", "proof"}
    assert str(output) in out


def test_verify_runs_the_properties_of_a_section(capsys, tmp_path):
    """The hypothesis properties marked with a section run under verify and are recorded per section."""
    output = tmp_path / "results.json"
    code, out, err = run(capsys, "verify", "--ref", "01.05", "--output", str(output))
    assert code == 0, out + err
    checks = json.loads(output.read_text(encoding="utf-8"))["checks"]
    properties = [c for c in checks if c["kind"] == "property"]
    assert properties and all("01.05" in c["refs"] for c in properties)
    assert all(c["status"] == "passed" for c in properties)
    # ...among them one that rests on another section too (the calculator's exact distributions: 01.05 and 05.04)
    assert any(c["refs"] == ["01.05", "05.04"] for c in properties), [c["refs"] for c in properties]


def test_verify_one_ref(capsys, tmp_path):
    output = tmp_path / "results.json"
    code, out, err = run(capsys, "verify", "--ref", "03.03", "--output", str(output))
    assert code == 0, out + err
    checks = json.loads(output.read_text(encoding="utf-8"))["checks"]
    assert checks
    assert all("03.03" in c["refs"] for c in checks), [c["id"] for c in checks if "03.03" not in c["refs"]]


def test_verify_one_ref_of_another_ruleset(capsys, tmp_path):
    output = tmp_path / "results.json"
    code, out, err = run(capsys, "verify", "--ref", "missionpack:sequence/18-determine-victor", "--no-properties",
                         "--output", str(output))
    assert code == 0, out + err
    checks = json.loads(output.read_text(encoding="utf-8"))["checks"]
    assert checks and all("missionpack:sequence/18-determine-victor" in c["refs"] for c in checks)
    assert {c["kind"] for c in checks} >= {"proof"}


def test_verify_unknown_ref(capsys, tmp_path):
    output = tmp_path / "results.json"
    code, out, err = run(capsys, "verify", "--ref", "99.99", "--output", str(output))
    assert code == 2
    assert "'99.99'" in assert_one_line_error(err, "verify")
    assert not output.exists()


# --------------------------------------------------------------------------
# the installed console script
# --------------------------------------------------------------------------


def test_console_script_help(tmp_path):
    script = Path(sys.executable).parent / "rules40k"
    command = str(script) if script.exists() else shutil.which("rules40k")
    if command is None:
        pytest.skip("the rules40k console script is not installed (pip install -e .)")
    result = subprocess.run([command, "--help"], capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("usage: rules40k")
    for verb in ("ingest", "show", "coverage", "verify", "site"):
        assert verb in result.stdout


# --------------------------------------------------------------------------
# score
# --------------------------------------------------------------------------

GAME = Path(__file__).resolve().parents[1] / "examples" / "game-take-the-high-ground.yaml"


def test_score_prints_the_sheet_as_json(capsys):
    code, out, err = run(capsys, "score", str(GAME), "--json")
    assert code == 0, err
    sheet = json.loads(out)
    assert sheet["mission"] == "Take the High Ground" and sheet["battle_size"] == "Strike Force"
    attacker = sheet["attacker"]
    assert attacker["objective_totals"] == {"take-and-hold": 45, "the-high-ground": 15, "assassinate": 6,
                                            "linebreaker": 15}
    assert attacker["rounds"]["5"]["linebreaker"] == 3  # 4 awarded, 3 left under the cap of 15
    assert attacker["total"] == 91 and sheet["defender"]["total"] == 51
    assert sheet["result"] == "Attacker wins"


def test_score_prints_a_table(capsys):
    code, out, err = run(capsys, "score", str(GAME))
    assert code == 0, err
    assert "Attacker: 91 / 100 victory points" in out and "Result: Attacker wins" in out


PACK = "linebreaker, assassinate, thin-their-ranks"


def _impossible_game(events: list[str], attacker: str = PACK, defender: str = PACK,
                     mission: str = "seize-ground") -> str:
    return (f"mission: {mission}\nplayers: {{attacker: {{secondaries: [{attacker}]}}, "
            f"defender: {{secondaries: [{defender}]}}}}\nevents:\n" + "".join(f"  - {e}\n" for e in events))


_HOLD = "{round: 2, player: attacker, when: end-of-command-phase, objective: take-and-hold, facts: {controlled: 2, " \
        "opponent_controlled: 1}}"
_SEIZE = ("{{round: {r}, player: attacker, when: end-of-battle-round, objective: seize-ground, "
          "facts: {{player_a: {a}, controls_marker_a: true, controls_marker_b: false, controls_marker_c: false}}}}")
# Games no battle can have (issue 20): the ledger's refusal names the event, exit 2, nothing on standard output.
_IMPOSSIBLE_GAMES = [
    ({"events": [_HOLD] * 3},
     "event 2 (take-and-hold, battle round 2, attacker): Take and Hold scores once at the end of each of a player's "
     "Command phases"),
    ({"events": ["{round: 5, player: attacker, when: end-of-battle, objective: assassinate, "
                 "facts: {enemy_character_models_destroyed: 1}}"] * 2},
     "event 2 (assassinate, battle round 5, attacker): Assassinate scores once at the end of the battle"),
    ({"events": ["{round: 3, player: attacker, when: action-completed, objective: investigate-sites, facts: {}}"] * 3,
      "attacker": "investigate-sites, linebreaker, assassinate"},
     "event 2 (investigate-sites, battle round 3, attacker): Investigate Site can be completed once a battle round"),
    ({"events": ["{round: 2, player: attacker, when: end-of-battle-round, objective: psychic-imprint, "
                 "facts: {psychic_imprint_completed_this_round: true}}"] * 2,
      "attacker": "psychic-imprint, linebreaker, assassinate"},
     "event 2 (psychic-imprint, battle round 2, attacker): Psychic Imprint scores once for a player at the end of "
     "each battle round"),
    ({"events": [_SEIZE.format(r=1, a="true"), _SEIZE.format(r=2, a="false")],
      "attacker": "seize-ground, linebreaker, assassinate"},
     "event 2 (seize-ground, battle round 2, attacker): the attacker is Player A at event 1 and cannot be Player B"),
    ({"events": ["{round: 1, player: attacker, when: end-of-command-phase, objective: take-and-hold, "
                 "facts: {controlled: 2, opponent_controlled: 1}}"]},
     "Take and Hold cannot be scored in the first battle round"),
    ({"events": [], "attacker": "seize-ground, seize-ground, linebreaker"},
     "'seize-ground' is chosen 2 times: a mission's own secondary objective can be chosen for only one"),
    # Turn order inside a battle round: the defender's Command phase ends the attacker's turn; a Command phase
    # cannot follow the end of its own turn.
    ({"events": [_HOLD, _HOLD.replace("attacker", "defender"),
                 "{round: 2, player: attacker, when: end-of-turn, objective: linebreaker, "
                 "facts: {non_aircraft_units_wholly_within_opponent_deployment_zone: 2}}"]},
     "event 3 (linebreaker, battle round 2, attacker): the attacker's turn of battle round 2 had ended when the "
     "defender's began (event 2)"),
    ({"events": ["{round: 2, player: attacker, when: end-of-turn, objective: linebreaker, "
                 "facts: {non_aircraft_units_wholly_within_opponent_deployment_zone: 2}}", _HOLD]},
     "event 2 (take-and-hold, battle round 2, attacker): the attacker's turn reached the end of the turn at event 1"),
]


@pytest.mark.parametrize("text,words", [
    ("mission: nowhere\nplayers: {attacker: {secondaries: [a, b, c]}, defender: {secondaries: [a, b, c]}}\n",
     "'nowhere' is not a mission"),
    ("mission: seize-ground\nplayers: {attacker: {secondaries: [linebreaker, engage-on-all-fronts, assassinate]}, "
     "defender: {secondaries: [linebreaker, assassinate, thin-their-ranks]}}\n", "from each category"),
    ("mission: seize-ground\nplayers: {attacker: {secondaries: [linebreaker, assassinate, thin-their-ranks]}, "
     "defender: {secondaries: [linebreaker, assassinate, thin-their-ranks]}}\nevents:\n"
     "  - {round: 2, player: attacker, when: end-of-battle-round, objective: linebreaker, facts: "
     "{non_aircraft_units_wholly_within_opponent_deployment_zone: 2}}\n", "not end-of-battle-round"),
    ("mission: seize-ground\nplayers: {attacker: {secondaries: [linebreaker, assassinate, thin-their-ranks]}, "
     "defender: {secondaries: [linebreaker, assassinate, thin-their-ranks]}}\nevents:\n"
     "  - {round: 2, player: attacker, when: end-of-turn, objective: linebreaker, facts: {}}\n", "missing"),
    ("mission: seize-ground\nplayers: {attacker: {secondaries: [linebreaker, assassinate, thin-their-ranks]}, "
     "defender: {secondaries: [linebreaker, assassinate, thin-their-ranks]}}\nevents:\n"
     "  - {round: 7, player: attacker, when: end-of-turn, objective: linebreaker, facts: {}}\n", "5 battle rounds"),
    ("mission: seize-ground\nplayers: {attacker: {secondaries: [linebreaker, assassinate, thin-their-ranks]}, "
     "defender: {secondaries: [linebreaker, assassinate, thin-their-ranks]}}\nevents:\n"
     "  - {round: 2, player: attacker, when: end-of-command-phase, objective: take-and-hold, "
     "facts: {controlled: true, opponent_controlled: 1}}\n", "must be a whole number"),
    ("mission: forward-outpost\nplayers: {attacker: {secondaries: [forward-push, assassinate, thin-their-ranks]}, "
     "defender: {secondaries: [linebreaker, assassinate, thin-their-ranks]}}\nevents:\n"
     "  - {round: 2, player: attacker, when: action-completed, objective: forward-push, "
     "facts: {player_a: true, marker: Z}}\n", "cannot be scored with these facts"),
    ("mission: seize-ground\nfirst_turn: both\nplayers: {attacker: {secondaries: [linebreaker, assassinate, "
     "thin-their-ranks]}, defender: {secondaries: [linebreaker, assassinate, thin-their-ranks]}}\n",
     "first_turn must be the attacker or the defender"),
    ("mission: [unclosed\n", "not valid YAML"),
    ("- just\n- a list\n", "a game is a mapping"),
] + [(_impossible_game(**game), words) for game, words in _IMPOSSIBLE_GAMES])
def test_score_rejects_a_bad_game_with_one_sentence(capsys, tmp_path, text, words):
    game = tmp_path / "game.yaml"
    game.write_text(text, encoding="utf-8")
    code, out, err = run(capsys, "score", str(game))
    assert code == 2
    line = assert_one_line_error(err, "score")
    assert words in line and str(game) in line, line
    assert out == ""
