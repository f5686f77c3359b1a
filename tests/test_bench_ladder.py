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
