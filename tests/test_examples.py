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
