"""The book's worked examples, run from data: one parametrised test, each case named by its sentence."""

from __future__ import annotations

import pytest

from rules import spec
from rules40k import annotations, checks

EXAMPLES = annotations.examples("core")
EVERY = [(name, e) for name in spec.rulesets() for e in annotations.examples(name)]


@pytest.mark.parametrize("ruleset,example", EVERY, ids=[f"{name}: {e['name']}" for name, e in EVERY])
def test_worked_example(ruleset, example):
    result = checks.run_example(example, ruleset)
    assert result["status"] == "passed", result["detail"]


def test_every_chapter_one_to_three_section_has_an_example():
    refs = {e["ref"] for e in EXAMPLES}
    from rules import spec

    wanted = {r for r in spec.sections("core") if r[:2] in {"01", "02", "03"}}
    assert wanted <= refs, sorted(wanted - refs)


def test_a_wrong_expectation_fails():
    example = dict(EXAMPLES[0], expect="certainly not this")
    assert checks.run_example(example)["status"] == "failed"


def test_enum_values_in_example_data_become_members():
    """A move written "fall-back" must reach the rule as MoveType.FALL_BACK: as a string it equals no member,
    and an example about it would test nothing."""
    from rules.state import MoveType, UnitState

    unit = checks._convert({"name": "X", "owner": 1, "phase_moves": ["fall-back", "NORMAL", "remain stationary"]},
                           UnitState)
    assert unit.phase_moves == (MoveType.FALL_BACK, MoveType.NORMAL, MoveType.REMAIN_STATIONARY)
    with pytest.raises(checks.ExampleError, match="'sprint' is not a MoveType"):
        checks._convert(["sprint"], tuple[MoveType, ...])
