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
    assert cell in [{k: v for k, v in d.items() if k != "label"} for d in compare.differing_cells(_entry(claim), RULESET)]


def test_verdicts_are_computed_for_every_claim_of_the_map():
    results = compare.compare_ruleset(RULESET)
    assert {r["status"] for r in results} <= set(compare.VERDICTS)
    assert all(r["cells"] > 0 for r in results if "compared" in r)


def test_no_agreement_rests_on_one_function_or_on_too_few_inputs():
    """An "agrees" verdict is a comparison that could have found a difference: two different functions, and at least
    MIN_CASES distinct inputs; any other comparison that finds none says so in its verdict."""
    from rules40k.checks import resolve

    entries = {e["claim"]: e for e in compare.concept_map(RULESET) if "compare" in e}
    for result in compare.compare_ruleset(RULESET):
        if result["status"] != "agrees":
            continue
        entry = entries[result["refs"][0].split(":", 1)[1]]
        mine, theirs = (resolve(entry["compare"][side]) for side in (RULESET, "core"))
        assert mine is not theirs, result["id"]
        distinct = {tuple(sorted(cell.items())) for cell in compare.cells(compare._domain(entry["compare"]["inputs"], ""))}
        assert len(distinct) == result["cells"] >= compare.MIN_CASES, result["id"]


def _verdict(entry: dict) -> dict:
    return compare.compare(entry, RULESET)


def test_a_comparison_of_one_function_with_itself_cannot_tell():
    entry = {**_entry("shooting/hit-roll")}
    entry["compare"] = {**entry["compare"], "core": entry["compare"][RULESET]}
    verdict = _verdict(entry)
    assert verdict["status"] == "cannot-tell"
    assert verdict["detail"].startswith("same code on both sides, cannot tell: both sides are rules.quickref.")


def test_the_modifier_cap_is_the_sheets_own_code_on_both_sides():
    """05.01's cap is interpretation roll-modifier-cap, whose evidence is the sheet's own line: the comparison is the
    sheet against itself."""
    verdict = _verdict(_entry("shooting/modifier-cap"))
    assert verdict["status"] == "cannot-tell"
    assert "capped_roll_modifier" in verdict["detail"] and "roll-modifier-cap" in verdict["detail"]


def test_a_comparison_on_one_or_two_inputs_says_so():
    one, two = _verdict(_entry("stratagems/fire-overwatch/cost")), _verdict(_entry("usr/torrent"))
    assert (one["status"], one["cells"]) == ("agrees-on-few", 1)
    assert one["detail"].startswith("agrees on one case only (stratagem fire overwatch)")
    assert (two["status"], two["cells"]) == ("agrees-on-few", 2)
    assert two["detail"].startswith("agrees on 2 cases only (torrent no; torrent yes)")


def test_objective_control_is_compared_with_secured_objectives():
    """14.03: a secured objective stays with the securing player until the other's level of control is greater at
    the end of a phase; the sheet has no secured objectives. Of the 7 x 7 pairs of levels (7 ties, 21 each way),
    secured by nobody: no difference; secured by a player, at the end of a phase: the 7 ties (theirs, not contested);
    not at the end of a phase: the 7 ties and the 21 where the other player leads. 2 x (7 + 28) = 70."""
    verdict = _verdict(_entry("objectives/control"))
    assert verdict["status"] == "differs"
    assert verdict["differing"] == 70 and verdict["cells"] == 7 * 7 * 3 * 2
    cell = {"level_1": 0, "level_2": 0, "secured_by": 1, "end_of_phase": False}
    assert {"inputs": cell, "label": "level 1 0, level 2 0, secured by 1, end of phase no", RULESET: 0, "core": 1} \
        in verdict["differences"]


@pytest.mark.parametrize("claim", ["usr/fly", "movement/fly-over-enemy", "charge/fly"])
def test_flying_over_enemy_models_costs_two_inches_in_the_core_rules(claim):
    """21.03: taking to the skies subtracts 2" from the maximum distance; the sheet takes nothing off."""
    cells = list(compare.differing_cells(_entry(claim), RULESET))
    assert cells and all(c[RULESET] - c["core"] == 2 for c in cells)


def test_every_differing_input_is_counted_and_a_sample_kept():
    """The verdict counts them all and keeps the first SAMPLE; its sentence states the same total."""
    entry = _entry("command-phase/battle-shock-step")
    every = list(compare.differing_cells(entry, RULESET))
    verdict = _verdict(entry)
    assert verdict["differing"] == len(every) > compare.SAMPLE
    assert verdict["differences"] == every[:compare.SAMPLE]
    assert verdict["detail"].startswith(f"{len(every)} of {verdict['cells']} inputs differ")


def test_inputs_are_shown_by_name():
    entry = _entry("stratagems/fire-overwatch/when")
    labels = [c["label"] for c in compare.differing_cells(entry, RULESET)] or \
        [compare.cell_words(c) for c in compare.cells(compare._domain(entry["compare"]["inputs"], ""))]
    assert labels[0].startswith("stratagem fire overwatch, phase ")
    assert not any(char.isdigit() for label in labels for char in label.split("moment")[0])


def test_no_claim_is_left_printed_alike_but_unencoded():
    assert not [r["id"] for r in compare.compare_ruleset(RULESET) if r["status"] == "not-encoded"]
