"""`rules40k verify --changed`: an edit reruns exactly the checks whose verdict it can change, and a verdict is
never reused when something it stands on changed.

Each test edits a copy of the project and runs the command there as a process, as a rules writer runs it, on
the ninth ruleset (about 250 checks: seconds). The expected checks are read off the rules and the example data by
hand: which worked examples call the edited function, which checks read the edited file.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path

import pytest

from rules40k import cli
from rules40k.bench_changed import copy_project, edit_function, verify

NINTH = ("--ruleset", "ninth", "--no-properties")
ACTIONS = Path("rules/ninth/actions.py")
ACTION_EXAMPLES = Path("spec/ninth/annotations/examples/actions.yaml")
#: The worked examples whose data call rules.ninth.actions.action_completed; no other function, table, proof or
#: property of the ninth ruleset calls it (grep).
CALLERS_OF_ACTION_COMPLETED = {"example:ninth:action-completed", "example:ninth:action-failed-not-completed"}


@pytest.fixture(scope="module")
def recorded(tmp_path_factory) -> Path:
    """A copy of the project after its first `--changed` run, which had no record to compare with."""
    root = copy_project(tmp_path_factory.mktemp("changed") / "project")
    first = verify(root, *NINTH)
    assert first["status"] == 0, first["stderr"]
    changed = first["answer"]["changed"]
    assert changed["everything"] == "there is no previous run to compare with"
    assert set(changed["rerun"]) == {check["id"] for check in first["answer"]["checks"]} and changed["reused"] == 0
    return root


@pytest.fixture
def project(recorded: Path, tmp_path: Path) -> Path:
    """A copy of the recorded project for one test to edit."""
    return Path(shutil.copytree(recorded, tmp_path / "project", ignore=shutil.ignore_patterns("__pycache__")))


def _results(root: Path) -> dict[str, dict]:
    return {check["id"]: check for check in json.loads((root / "build" / "results.json").read_text())["checks"]}


def _edit(root: Path, path: Path, old: str, new: str) -> None:
    text = (root / path).read_text(encoding="utf-8")
    assert text.count(old) == 1, f"{path}: {old!r}"
    (root / path).write_text(text.replace(old, new), encoding="utf-8")


def test_an_unchanged_tree_reruns_nothing_and_writes_the_same_results(project):
    before = _results(project)
    run = verify(project, *NINTH)
    assert run["status"] == 0 and run["answer"]["changed"]["rerun"] == {}
    assert run["answer"]["changed"]["reused"] == len(before)
    assert _results(project) == before


def test_an_edit_to_one_rule_function_reruns_exactly_the_checks_that_call_it(project):
    before = _results(project)
    # Break the rule: an action that failed now counts as completed.
    _edit(project, ACTIONS, "return And(completion_reached, Not(failed))", "return And(completion_reached, failed)")
    run = verify(project, *NINTH)
    changed = run["answer"]["changed"]
    assert set(changed["rerun"]) == CALLERS_OF_ACTION_COMPLETED
    assert set(changed["rerun"].values()) == {"rules.ninth.actions.action_completed changed"}
    assert changed["reused"] == len(before) - 2
    after = _results(project)
    assert run["status"] == 1
    assert {i for i, c in after.items() if c["status"] == "failed"} == CALLERS_OF_ACTION_COMPLETED
    assert {i: c for i, c in after.items() if i not in CALLERS_OF_ACTION_COMPLETED} == \
        {i: c for i, c in before.items() if i not in CALLERS_OF_ACTION_COMPLETED}
    # What a whole run of the edited tree says, check for check.
    full = verify(project, *NINTH, changed=False)
    assert {c["id"]: c for c in full["answer"]["checks"]} == after


def _examples_calling(root: Path, module: str) -> set[str]:
    """The ninth worked examples whose data call a function of ``module``."""
    import yaml

    return {f"example:ninth:{example['id']}" for path in (root / ACTION_EXAMPLES).parent.glob("*.yaml")
            for example in yaml.safe_load(path.read_text(encoding="utf-8")) or []
            if example["call"].startswith(f"{module}.")}


def test_an_edit_outside_functions_reruns_the_checks_that_use_the_module_and_not_the_others(project):
    _edit(project, ACTIONS, "D6_FACES = range(1, 7)\n", "D6_FACES = range(1, 7)  # a die's faces\n")
    changed = verify(project, *NINTH)["answer"]["changed"]
    into_actions = _examples_calling(project, "rules.ninth.actions")
    into_stratagems = _examples_calling(project, "rules.ninth.stratagems")  # stratagems.py imports nothing of it
    assert into_actions and into_stratagems
    assert into_actions <= set(changed["rerun"]) and not into_stratagems & set(changed["rerun"])
    assert set(changed["rerun"].values()) == {"rules.ninth.actions (outside its functions) changed"}


def test_an_edit_to_a_worked_example_reruns_that_example_and_a_new_one_runs(project):
    _edit(project, ACTION_EXAMPLES, "  args: {completion_reached: true, failed: false}\n  expect: true",
          "  args: {completion_reached: true, failed: false}\n  expect: false")
    text = (project / ACTION_EXAMPLES).read_text(encoding="utf-8")
    (project / ACTION_EXAMPLES).write_text(text + "\n- id: action-completed-again\n  ref: performing-actions\n"
                                           "  name: An action that reaches its completion without failing is "
                                           "completed (again)\n  source: {kind: text, title: PERFORMING ACTIONS, "
                                           "line: 2954}\n  call: rules.ninth.actions.action_completed\n"
                                           "  args: {completion_reached: true, failed: false}\n  expect: true\n",
                                           encoding="utf-8")
    run = verify(project, *NINTH)
    assert run["answer"]["changed"]["rerun"] == {"example:ninth:action-completed": "its data changed",
                                                 "example:ninth:action-completed-again": "a new check"}
    after = _results(project)
    assert run["status"] == 1 and after["example:ninth:action-completed"]["status"] == "failed"
    assert after["example:ninth:action-completed-again"]["status"] == "passed"


def test_an_edit_to_a_spec_file_reruns_the_checks_that_read_it(project):
    # domains.yaml pins the inputs of the ruleset's decision tables and proofs: its tables and proofs read it.
    before = _results(project)
    with open(project / "spec" / "ninth" / "annotations" / "domains.yaml", "a", encoding="utf-8") as handle:
        handle.write("# reviewed again\n")
    changed = verify(project, *NINTH)["answer"]["changed"]
    assert set(changed["rerun"]) == {i for i in before if i.startswith(("table:ninth:", "proof:ninth"))}
    assert set(changed["rerun"].values()) == {"spec/ninth/annotations/domains.yaml changed"}


def test_what_no_check_owns_reruns_every_check_and_says_why(project):
    with open(project / "rules40k" / "compare.py", "a", encoding="utf-8") as handle:
        handle.write("# the runner changed\n")
    changed = verify(project, *NINTH)["answer"]["changed"]
    assert changed["everything"] == "rules40k/compare.py changed, and every check stands on it"
    assert len(changed["rerun"]) == len(_results(project)) and changed["reused"] == 0
    profile = os.environ.get("HYPOTHESIS_PROFILE", "dev")
    other = "mutate" if profile != "mutate" else "dev"
    changed = verify(project, *NINTH, env={"HYPOTHESIS_PROFILE": other})["answer"]["changed"]
    assert changed["everything"] == f"the hypothesis profile changed ({profile} → {other})"


def test_an_edit_to_a_property_file_reruns_its_properties(project):
    first = verify(project, "--ruleset", "ninth")  # the properties' first run
    assert first["status"] == 0, first["stderr"]
    every_property = {c["id"] for c in first["answer"]["checks"] if c["kind"] == "property"}
    assert set(first["answer"]["changed"]["rerun"]) == every_property
    properties = {c["id"] for c in first["answer"]["checks"]
                  if c["kind"] == "property" and c["test"].startswith("properties/test_ninth.py::")}
    assert 0 < len(properties) < len(every_property)
    with open(project / "properties" / "test_ninth.py", "a", encoding="utf-8") as handle:
        handle.write("# edited\n")
    changed = verify(project, "--ruleset", "ninth")["answer"]["changed"]
    assert set(changed["rerun"]) == properties
    assert set(changed["rerun"].values()) == {"properties/test_ninth.py changed"}


def test_an_edit_that_leaves_an_equivalent_mutant_stale_is_refused_as_a_full_run_refuses_it(project):
    # mutants.yaml records the ModelNearMarker default's "0 -> 1" as equivalent; a float default has no such mutant.
    _edit(project, Path("rules/ninth/objective_markers.py"), "    vertical_inches: Any = 0\n",
          "    vertical_inches: Any = 0.0\n")
    for changed in (True, False):
        run = verify(project, *NINTH, changed=changed)
        assert run["status"] == 2 and run["answer"] is None
        assert "mutants.yaml: line" in run["stderr"] and "no mutant of rules.ninth.objective_markers" in run["stderr"]
        assert "\n" not in run["stderr"]


def test_an_unreadable_record_reruns_every_check(project):
    (project / "build" / "verify-cache.json").write_text("{not json", encoding="utf-8")
    changed = verify(project, *NINTH)["answer"]["changed"]
    assert changed["everything"] == "the last run's record (verify-cache.json) cannot be read"
    assert changed["reused"] == 0


def test_a_process_that_imported_the_rules_first_reruns_everything_and_keeps_no_record(capsys, tmp_path):
    import rules.ninth  # noqa: F401 - as any test process has

    cache = cli.BUILD_ROOT / "verify-cache.json"
    before = cache.read_bytes() if cache.exists() else None
    assert cli.main(["verify", "--changed", *NINTH, "--output", str(tmp_path / "results.json")]) == 0
    out = capsys.readouterr().out
    assert re.search(r"^reran all [\d,]+ checks: this process imported the rules before it could watch what the "
                     r"checks call$", out, re.M)
    assert (cache.read_bytes() if cache.exists() else None) == before


def test_a_record_that_cannot_be_written_is_one_sentence_before_any_check(project):
    before = (project / "build" / "results.json").read_bytes()
    (project / "build" / "verify-cache.json").unlink()
    (project / "build" / "verify-cache.json").mkdir()
    run = verify(project, *NINTH)
    assert run["status"] == 2 and run["answer"] is None
    assert run["stderr"] == f"rules40k verify: {project / 'build' / 'verify-cache.json'}: is a folder, not a file"
    assert (project / "build" / "results.json").read_bytes() == before


def test_the_benchmarks_edit_changes_the_functions_source_and_nothing_else(tmp_path):
    root = tmp_path / "project"
    (root / "rules" / "ninth").mkdir(parents=True)
    shutil.copy2(cli.REPO_ROOT / ACTIONS, root / ACTIONS)
    before = (root / ACTIONS).read_text(encoding="utf-8")
    edit_function(root, "rules.ninth.actions.action_completed")
    after = (root / ACTIONS).read_text(encoding="utf-8")
    added = [line for line in after.splitlines() if line not in before.splitlines()]
    assert added == ["    # edited by rules40k bench"]
    body = after.split("def action_completed", 1)[1].split("\n\n\n", 1)[0]
    assert "# edited by rules40k bench\n    return And(completion_reached, Not(failed))" in body


def test_changed_takes_no_ref(capsys):
    assert cli.main(["verify", "--changed", "--ref", "05.02"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("rules40k verify: --changed works on whole rulesets") and "\n" not in err
