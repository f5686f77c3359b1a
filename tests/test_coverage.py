"""The coverage ledger tells the truth: every section accounted for, none deferred, no stale reasons."""

from __future__ import annotations

from rules import spec
from rules40k import annotations, coverage


def test_every_section_is_encoded_or_inert_with_a_reason():
    rows = coverage.ledger("core")
    assert {r["ref"] for r in rows} == set(spec.sections("core"))
    assert {r["status"] for r in rows} <= {"encoded", "inert"}
    assert all(r["reason"] for r in rows if r["status"] == "inert")


def test_no_encoded_section_keeps_a_stale_reason():
    assert coverage.stale_notes("core") == []


def test_every_section_has_a_worked_example():
    """Each section's functions are exercised by at least one outcome recorded as data."""
    counted = {e["ref"] for e in annotations.examples("core")}
    missing = sorted(set(spec.sections("core")) - counted)
    assert missing == [], missing
