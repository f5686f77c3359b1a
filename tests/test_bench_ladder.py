"""The benchmark ladder's peer: what `rules40k bench` compares must agree.

icepool (an exact dice library) is given its own formulation of each ladder target,
sharing no code with the calculator; on the small rungs both must give the same
distribution of models destroyed, Fraction for Fraction. Timings live in the
benchmark itself, never here.
"""

from __future__ import annotations

import pytest

from rules import calculator
from rules.scenario import read_scenario
from rules40k import bench_ladder

pytest.importorskip("icepool", reason="the bench extra (pip install -e '.[bench]') brings icepool")


@pytest.mark.parametrize("target", bench_ladder.TARGETS, ids=[t.name for t in bench_ladder.TARGETS])
@pytest.mark.parametrize("attacks", [10, 30])
def test_icepool_formulation_equals_the_calculator(target, attacks):
    exact = calculator.calculate(read_scenario(bench_ladder.scenario(target, attacks))).models_destroyed
    assert bench_ladder._icepool_models_destroyed(target, attacks) == exact


def test_icepool_formulation_notices_a_different_answer():
    """The comparison can fail: the attached unit without deferring the Captain's saves is another answer."""
    target = bench_ladder.TARGETS[-1]
    captain_saves_like_the_rest = bench_ladder.Target(target.name, target.damage, tuple(
        dict(m, Sv=3, InSv=None) if m["name"] == "Captain" else m for m in target.models))
    exact = calculator.calculate(read_scenario(bench_ladder.scenario(target, 20))).models_destroyed
    assert bench_ladder._icepool_models_destroyed(captain_saves_like_the_rest, 20) != exact


def test_the_changed_ladder_prints_its_table_in_the_terminal(monkeypatch, capsys):
    """`bench --ladder changed` without --json prints each run as a table row (it failed with a NameError before the
    table was made like every other): the warm-up's reason, each edit's seconds, checks rerun and whether it met
    the target."""
    from rules40k import bench_changed, cli

    report = {"target_seconds": 10, "hypothesis_profile": "dev", "runs": [
        {"edit": None, "everything": "no record", "seconds": 42.0, "rerun": 900, "reused": 0, "meets_target": True},
        {"edit": "rules.core.objectives.control", "everything": None, "seconds": 3.5, "rerun": 12, "reused": 888,
         "meets_target": True},
        {"edit": "rules.ninth.morale.attrition_result", "everything": None, "seconds": 12.25, "rerun": 40,
         "reused": 860, "meets_target": False}]}
    monkeypatch.setattr(bench_changed, "run", lambda progress=None: report)
    assert cli.main(["bench", "--ladder", "changed"]) == 0
    out = capsys.readouterr().out
    assert "(first: no record)" in out and "42.0" in out and "900" in out
    assert "rules.core.objectives.control" in out and "3.5" in out and "yes" in out
    assert "12.2" in out and "NO" in out and "hypothesis profile dev" in " ".join(out.split())
