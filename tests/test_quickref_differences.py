"""Claims of the quick-reference sheet that the Core Rules decide differently, by computation: the comparison's
verdict is 'differs', and the worked examples of spec/quickref/annotations/examples/differences.yaml show the two
answers side by side on one input."""

from __future__ import annotations

import pytest

from rules40k import annotations, checks, compare

RULESET = "quickref"
DIFFERING = {
    "strategic-reserves/limit": "25% of the army's points against 20.01's 50%",
    "fight/alternate": "the player whose turn it is not selects first, against 12.04's player whose turn it is",
    "engagement-range": "1\" horizontally against 03.04's 2\"",
    "stratagems/heroic-intervention/cost": "2CP against 15.11's 1CP (Leap to Defend)",
}


def _entry(claim: str) -> dict:
    return next(e for e in compare.concept_map(RULESET) if e["claim"] == claim)


@pytest.mark.parametrize("claim", sorted(DIFFERING))
def test_claim_differs_from_the_core_rules(claim):
    result = compare.compare(_entry(claim), RULESET)
    assert result["status"] == "differs", result["detail"]
    assert result["differences"]


@pytest.mark.parametrize("claim", sorted(DIFFERING))
def test_difference_examples_show_both_answers(claim):
    examples = [e for e in annotations.examples(RULESET) if e["ref"] == claim and e["id"].startswith("diff-")]
    mine = [e for e in examples if ".core_views." not in e["call"]]
    theirs = [e for e in examples if ".core_views." in e["call"]]
    assert len(mine) == len(theirs) == 1, claim
    assert mine[0]["args"] == theirs[0]["args"]
    assert mine[0]["expect"] != theirs[0]["expect"]
    for example in examples:
        assert checks.run_example(example, RULESET)["status"] == "passed", example["id"]
    cell = {"inputs": mine[0]["args"], RULESET: mine[0]["expect"], "core": theirs[0]["expect"]}
    assert cell in compare.compare(_entry(claim), RULESET)["differences"]


def test_verdicts_are_computed_for_every_claim_of_the_map():
    results = compare.compare_ruleset(RULESET)
    assert {r["status"] for r in results} <= set(compare.VERDICTS)
    assert all(r["cells"] > 0 for r in results if r["status"] != "not-covered")
