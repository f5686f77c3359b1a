"""`rules40k mutate`: the mutants are the changes they say, and the checks decide killed or survived.

The full run is a benchmark-style command (README); these tests run a few mutants of one small module and a
small sample across every rules module (about a minute and a half in all).
"""

from __future__ import annotations

import ast
import json

import pytest

from rules40k import annotations, cli, coverage, mutate

MODULE = "rules.core.objectives"


def test_mutants_are_numbered_in_source_order_and_show_their_change():
    found = mutate.mutants(MODULE)
    assert [m.index for m in found] == list(range(len(found)))
    assert {"boundary", "constant", "logic", "not", "row", "domain"} <= {m.kind for m in found}
    changes = {m.change for m in found if m.function == "OBJECTIVE_CONTROL"}
    assert "level_2 > level_1 -> level_2 >= level_1" in changes
    assert any(c.endswith("-> (row dropped)") for c in changes)


def test_a_mutant_changes_exactly_one_place():
    original = ast.unparse(ast.parse(open(mutate._tree(MODULE)[1], encoding="utf-8").read()))
    for mutant in mutate.mutants(MODULE)[:10]:
        changed = mutate.mutated_source(MODULE, mutant.index)
        compile(changed, MODULE, "exec")
        assert changed != original
        before, after = mutant.change.split(" -> ")
        assert before in original and after in changed


def test_the_diff_is_of_the_real_source_line():
    found = mutate.mutants(MODULE)
    boundary = next(m for m in found if m.change == "level_2 > level_1 -> level_2 >= level_1")
    removed = [line for line in mutate.diff(boundary).splitlines() if line.startswith("-") and not line.startswith("---")]
    added = [line for line in mutate.diff(boundary).splitlines() if line.startswith("+") and not line.startswith("+++")]
    assert len(removed) == len(added) == 1
    assert removed[0].replace("level_2 > level_1", "level_2 >= level_1")[1:] == added[0][1:]
    row = next(m for m in found if m.kind == "row")
    lines = mutate.diff(row).splitlines()
    assert sum(line.startswith("-") and not line.startswith("---") for line in lines) >= 1
    assert not any(line.startswith("+") and not line.startswith("+++") for line in lines)


def test_the_checks_kill_a_broken_rule_and_pass_the_unbroken_one():
    refs = mutate.refs_of(MODULE)
    boundary = next(m for m in mutate.mutants(MODULE) if m.change == "level_2 > level_1 -> level_2 >= level_1")
    faced = mutate.checks_for(boundary, refs)
    assert faced == ["14.02", "14.03"]
    baseline = mutate.run_one(MODULE, None, faced)
    assert baseline["killed"] is False and "table:objective-control" in baseline["statuses"]
    assert "rules.core.objectives.determine_control" in baseline["called"]
    assert mutate.run_one(MODULE, None, faced, expected=baseline["statuses"])["killed"] is False
    killed = mutate.run_one(MODULE, boundary.index, faced, expected=baseline["statuses"])
    assert killed["killed"] is True and killed["by"]


def test_a_hang_is_killed_by_the_time_limit():
    answer = mutate._run_tasks([{"module": MODULE, "index": None, "refs": ["14.02"], "properties": [],
                                 "expected": None}], 1, timeout=0.01)[0]
    assert answer["killed"] is True and answer["by"].startswith("timeout")


def test_a_function_is_verified_only_when_called_and_a_mutant_of_it_is_killed():
    assert mutate.verified({"called": True, "killed": 1, "survived": 3})
    assert mutate.verified({"called": True, "killed": 0, "survived": 0})  # nothing to mutate: the call counts
    assert not mutate.verified({"called": False, "killed": 2, "survived": 0})
    assert not mutate.verified({"called": True, "killed": 0, "survived": 2})


def _report(module: str, sha: str, called: bool) -> dict:
    function = {"module": module, "name": "f", "refs": ["14.02"], "line": 1, "called": called,
                "killed": 1, "survived": 0, "equivalent": 0, "not run": 0}
    row = {"module": module, "index": 0, "function": "f", "refs": ["14.02"], "status": "killed", "killed": True}
    return {"modules": {module: {"sha256": sha, "complete": True}}, "functions": {f"{module}.f": function},
            "mutants": [row]}


def test_a_report_keeps_only_modules_whose_source_is_unchanged(tmp_path):
    fresh, edited = MODULE, "rules.core.charge_phase"
    previous = mutate.merge(_report(fresh, mutate._digest(fresh), True) | {"mutants": []},
                            _report(fresh, mutate._digest(fresh), True))
    both = mutate.merge(previous, _report(edited, "0" * 64, True))
    path = tmp_path / "mutation.json"
    path.write_text(json.dumps(both))
    read = mutate.measured(path)
    assert set(read["modules"]) == {fresh} and read["stale"] == [edited]
    assert set(read["functions"]) == {f"{fresh}.f"}
    path.write_text("{}")
    with pytest.raises(mutate.ReportError, match="mutation.json"):
        mutate.measured(path)


def test_the_ledger_reads_verified_from_the_report():
    report = mutate._report({}, [], {})
    rows = {r["ref"]: r for r in coverage.ledger("core", report)}
    assert rows["14.02"]["verified"] is None  # not measured
    functions = {}
    for row in [r for r in rows.values() if r["ref"] == "14.02"]:
        for name in row["functions"]:
            module, _, top = name.rpartition(".")
            functions[name] = {"module": module, "name": top, "called": top != "determine_control",
                               "killed": 1, "survived": 0}
    report = mutate._report({}, [], functions)
    row = next(r for r in coverage.ledger("core", report) if r["ref"] == "14.02")
    assert row["verified"] is False and row["uncalled"] == ["rules.core.objectives.determine_control"]


def _equivalents_file(tmp_path, text: str):
    folder = tmp_path / "core" / "annotations"
    folder.mkdir(parents=True)
    (folder / "mutants.yaml").write_text(text)
    return tmp_path


def test_an_equivalent_mutant_is_recorded_with_its_reason(tmp_path):
    root = _equivalents_file(tmp_path, "- module: rules.core.objectives\n  function: OBJECTIVE_CONTROL\n"
                                       "  change: level_2 > level_1 -> level_2 >= level_1\n  occurrence: 1\n"
                                       "  why: a test entry\n")
    recorded = mutate.equivalents("core", root)
    assert list(recorded.values()) == ["a test entry"]


@pytest.mark.parametrize("text, phrase", [
    ("- module: rules.core.objectives\n  function: OBJECTIVE_CONTROL\n  change: 7 -> 8\n  why: x\n", "no mutant"),
    ("- module: rules.core.objectives\n  function: OBJECTIVE_CONTROL\n  change: 0 -> 1\n  why: x\n", "occurrence"),
    ("- module: rules.ninth.actions\n  function: f\n  change: 0 -> 1\n  why: x\n", "not a rule module"),
    ("- module: rules.core.objectives\n  function: determine_control\n  change: 0 -> 1\n", "needs module"),
    ("- module: rules.core.objectives\n  function: OBJECTIVE_CONTROL\n  change: 2 -> 3\n  occurrence: 2\n"
     "  why: x\n- module: rules.core.objectives\n  function: OBJECTIVE_CONTROL\n  change: 2 -> 3\n"
     "  occurrence: 2\n  why: y\n", "twice"),
])
def test_a_bad_equivalents_file_is_one_sentence_with_its_line(tmp_path, text, phrase):
    root = _equivalents_file(tmp_path, text)
    with pytest.raises(annotations.AnnotationError) as caught:
        mutate.equivalents("core", root)
    assert phrase in str(caught.value) and "mutants.yaml: line" in str(caught.value)


def test_equivalents_match_only_the_modules_asked_for(tmp_path):
    """`verify --changed` rechecks the entries of the modules edited since they last matched, and no others."""
    root = _equivalents_file(tmp_path, "- module: rules.core.objectives\n  function: OBJECTIVE_CONTROL\n"
                                       "  change: 7 -> 8\n  why: x\n")
    assert list(mutate.equivalents("core", root, modules=set()).values()) == ["x"]
    with pytest.raises(annotations.AnnotationError, match="no mutant"):
        mutate.equivalents("core", root, modules={"rules.core.objectives"})


def test_a_sample_across_every_rules_module_runs_within_the_ci_budget(tmp_path, capsys):
    """What CI runs: a small random sample of the mutants of every module of every ruleset."""
    output = tmp_path / "sample.json"
    assert cli.main(["mutate", "--sample", "4", "--seed", "11", "--output", str(output)]) == 0
    report = json.loads(output.read_text())
    assert len(report["mutants"]) == 4
    assert all(row["status"] in mutate.STATUSES for row in report["mutants"])
    assert report["functions"] == {}  # a sample says nothing about which functions the checks call
    assert "Mutation score per module" in capsys.readouterr().out


def test_an_unknown_module_is_one_sentence(capsys):
    assert cli.main(["mutate", "--module", "core.nope"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "core.nope" in err[0]


def test_a_recheck_keeps_the_killed_rows_and_runs_the_rest():
    module = "rules.core.aircraft"
    found = mutate.mutants(module)
    fake = {(module, m.index): {"module": module, "index": m.index, "killed": True, "by": "earlier run",
                                "status": "killed", "refs": [], "function": m.function} for m in found[1:]}
    report = mutate.run([module], jobs=2, killed_before=fake)
    rows = {row["index"]: row for row in report["mutants"]}
    assert sorted(rows) == [m.index for m in found]
    assert all(rows[m.index]["by"] == "earlier run" for m in found[1:])
    assert rows[found[0].index]["by"] != "earlier run" and rows[found[0].index]["status"] in mutate.STATUSES
    assert report["modules"][module]["complete"] and report["functions"]


def test_a_recheck_needs_a_whole_run_of_the_same_source(tmp_path, capsys):
    output = tmp_path / "mutation.json"
    assert cli.main(["mutate", "--module", "core.aircraft", "--recheck", "--output", str(output)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "rules.core.aircraft has no whole run" in err[0]


def test_a_support_module_faces_its_own_tests_run_in_process():
    """rules.messages holds no rule: its mutants face tests/test_messages.py, run where the mutant is served."""
    module = "rules.messages"
    assert module in mutate.modules_of("core")
    refs = mutate.refs_of(module)
    assert refs["cut"] == ["tests:rules.messages"]
    longer = next(m for m in mutate.mutants(module) if m.function == "cut" and m.kind == "boundary")
    faced = mutate.checks_for(longer, refs)
    baseline = mutate.run_one(module, None, faced)
    assert baseline["killed"] is False and baseline["ran"] >= 5
    assert all(check.startswith("test:tests/test_messages.py::") for check in baseline["statuses"])
    killed = mutate.run_one(module, longer.index, faced, expected=baseline["statuses"])
    assert killed["killed"] is True and "test_messages" in killed["by"]


def test_the_baseline_records_calls_of_the_commands_modules_too(monkeypatch):
    """A measured module under rules40k/ (a command's printing) is judged by whether its tests call it, like a rule
    module: the `template` command's test calls its run, as_json and read."""
    test = "tests/test_m41_templates.py::test_the_template_commands_json_and_text_as_a_reader_gets_them"
    monkeypatch.setitem(mutate.SUPPORT_TESTS, "rules40k.template_command", (test,))
    baseline = mutate.run_checks([mutate.SUPPORT_MARK + "rules40k.template_command"], [])
    assert baseline["killed"] is False and list(baseline["statuses"].values()) == ["passed"]
    assert {f"rules40k.template_command.{name}" for name in ("run", "as_json", "read")} <= set(baseline["called"])
    assert "rules40k.template_command.plot" not in baseline["called"]
