"""The coverage ledger tells the truth for every ruleset: every entry accounted for, none deferred, no stale reasons."""

from __future__ import annotations

import pytest

from rules import spec
from rules40k import annotations, coverage

RULESETS = list(spec.rulesets())


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_section_is_encoded_or_inert_with_a_reason(ruleset):
    rows = coverage.ledger(ruleset)
    assert {r["ref"] for r in rows} == set(spec.sections(ruleset))
    assert {r["status"] for r in rows} <= {"encoded", "inert"}, [r["ref"] for r in rows if r["status"] not in
                                                                 {"encoded", "inert"}]
    assert all(r["reason"] for r in rows if r["status"] == "inert")


@pytest.mark.parametrize("ruleset", RULESETS)
def test_no_encoded_section_keeps_a_stale_reason(ruleset):
    assert coverage.stale_notes(ruleset) == []


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_encoded_section_has_a_worked_example(ruleset):
    """Each encoded section's functions are exercised by at least one outcome recorded as data."""
    counted = {e["ref"] for e in annotations.examples(ruleset)}
    encoded = {r["ref"] for r in coverage.ledger(ruleset) if r["status"] == "encoded"}
    missing = sorted(encoded - counted)
    assert missing == [], missing


@pytest.mark.parametrize("ruleset", RULESETS)
def test_rows_carry_their_source_lines(ruleset):
    for row in coverage.ledger(ruleset):
        first, last = row["lines"]
        assert isinstance(first, int) and isinstance(last, int) and 1 <= first <= last, row["ref"]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_examples_status_notes_and_annotations_name_real_entries(ruleset):
    known = set(spec.sections(ruleset))
    for example in annotations.examples(ruleset):
        assert example["ref"] in known, (example["id"], example["ref"])
    notes = annotations.status_notes(ruleset)["sections"]
    assert set(notes) <= known, sorted(set(notes) - known)
    for entry in annotations.interpretations(ruleset) + annotations.findings(ruleset):
        for ref in entry["refs"]:
            assert ref in known or spec.split_ref(ref)[0] != ruleset, (entry["id"], ref)
