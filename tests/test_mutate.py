"""`rules40k mutate`: the mutants are the changes they say, and the checks decide killed or survived.

The full run is a benchmark-style command; these tests run two mutants and one
baseline of one small module (about 20 s).
"""

from __future__ import annotations

import ast

from rules40k import cli, mutate

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


def test_the_checks_kill_a_broken_rule_and_pass_the_unbroken_one():
    refs = mutate.refs_of(MODULE)
    boundary = next(m for m in mutate.mutants(MODULE) if m.change == "level_2 > level_1 -> level_2 >= level_1")
    faced = mutate.checks_for(boundary, refs)
    assert faced == ["14.02", "14.03"]
    assert mutate.run_one(MODULE, None, faced, timeout=300)["killed"] is False
    killed = mutate.run_one(MODULE, boundary.index, faced, timeout=300)
    assert killed["killed"] is True and killed["by"]


def test_an_unknown_module_is_one_sentence(capsys):
    assert cli.main(["mutate", "--module", "core.nope"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "core.nope" in err[0]
