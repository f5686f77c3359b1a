"""The earlier edition's two printings (ruleset ``ninth``: the reprint 002, the web page 003): every finding about
them is shown from the two texts themselves, and the showing fails when the comparison is broken."""

from __future__ import annotations

import pytest

from rules import spec
from rules40k import annotations, printings

RULESET = "ninth"
PROPERTY = "test_the_printings_differ_where_a_finding_says"
FINDINGS = [f for f in annotations.findings(RULESET) if f.get("check", "").startswith(f"property:{PROPERTY}[")]


def _within(lines, line: int) -> bool:
    return bool(lines) and lines[0] <= line <= lines[-1]


def unshown(finding: dict) -> list[str]:
    """Why the two texts do not show a finding (empty: they do). Each of its sections must be one that a printing
    lacks, or one printed twice whose texts differ past typography; for the latter, a quote of one printing from
    that section must be missing from the other printing's text of it (so the quoted words are the difference)."""
    rows = {row["ref"]: row for row in printings.compare(RULESET)}
    documents = {name: printing for printing, name in printings.documents(RULESET).items()}
    sections = spec.sections(RULESET)
    problems = []
    for ref in finding["refs"]:
        row = rows.get(ref)
        if row is None or row["status"] == "same":
            problems.append(f"{ref}: both printings print it alike")
            continue
        if row["status"] != "differs":
            continue
        texts = {printings.PRIMARY: printings.words(sections[ref]),
                 row["printing"]: printings.words(sections[ref]["printings"][row["printing"]])}
        shown = False
        for item in finding["evidence"]:
            printing = documents.get(item["document"])
            if printing in texts and _within(row["lines"][printing], item["line"]):
                other = next(name for name in texts if name != printing)
                shown |= " ".join(printings.normalise(item["quote"])) not in texts[other]
        if not shown:
            problems.append(f"{ref}: no quote of one printing's text of it is missing from the other's")
    return problems


@pytest.mark.parametrize("finding", [pytest.param(f, marks=pytest.mark.refs(*(f"{RULESET}:{r}" for r in f["refs"])),
                                                  id=f["id"]) for f in FINDINGS])
def test_the_printings_differ_where_a_finding_says(finding):
    """A finding about the printings names sections whose two printings differ, and quotes the difference."""
    assert not unshown(finding), unshown(finding)


def test_every_printings_finding_is_checked_here():
    """The property runs for every finding that names it (an id typed wrong would leave a finding unchecked)."""
    named = {f["check"] for f in annotations.findings(RULESET) if PROPERTY in f.get("check", "")}
    assert named == {f"property:{PROPERTY}[{f['id']}]" for f in FINDINGS} and FINDINGS


# -- Each fails on a broken comparison ------------------------------------------------------------------------


def _headings_for_text(printed: dict) -> str:
    """A broken reader: the section's heading instead of its text, so every printed-twice section reads alike."""
    return printed.get("heading") or ""


def _absent_read_as_alike(real):
    """A broken comparison: a section one printing lacks is counted as printed alike."""
    def compare(ruleset, *args):
        return [{**row, "status": "same"} if row["status"].startswith("only ") else row
                for row in real(ruleset, *args)]
    return compare


@pytest.mark.parametrize("finding", FINDINGS, ids=[f["id"] for f in FINDINGS])
def test_the_printings_property_fails_on_a_broken_comparison(monkeypatch, finding):
    rows = {row["ref"]: row["status"] for row in printings.compare(RULESET)}
    if any(rows[ref] == "differs" for ref in finding["refs"]):
        monkeypatch.setattr(printings, "printed_text", _headings_for_text)
    else:
        monkeypatch.setattr(printings, "compare", _absent_read_as_alike(printings.compare))
    with pytest.raises(AssertionError):
        test_the_printings_differ_where_a_finding_says(finding)
