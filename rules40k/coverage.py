"""The coverage ledger: every section's status, computed, never claimed.

A section is ``encoded`` when at least one registered rule function names it,
``inert`` or ``deferred`` when status.yaml records a reason, and ``missing``
otherwise (which the tests treat as a failure: no section is silently left out).

An encoded section is also *verified* when every one of its functions is called by a check it faces and,
where it can be mutated, a mutant of it is killed (the measured mutation report, reports/mutation.json,
``rules40k mutate``); ``verified`` is None where its modules have not been measured on the current code.
"""

from __future__ import annotations

from collections import Counter

from rules import registry, spec
from rules40k import annotations

STATUSES = ("encoded", "inert", "deferred", "missing")


def ledger(document: str = "core", report: dict | None = None) -> list[dict]:
    """One row per section and appendix entry (or pack entry) of a ruleset, in the book's order; ``report`` is
    the mutation report to read verification from (default: the measured one)."""
    from rules40k import mutate

    rules = registry.load(document)
    verification = mutate.section_verification(document, report if report is not None else mutate.measured())
    notes = annotations.status_notes(document)
    example_counts = Counter(e["ref"] for e in annotations.examples(document))
    rows = []
    for ref, section in spec.sections(document).items():
        functions = rules.get(ref, [])
        chapter = section["chapter"]["number"]
        recorded = notes["sections"].get(ref) or notes["chapters"].get(chapter)
        if functions:
            status, reason = "encoded", ""
        elif recorded:
            status, reason = recorded["status"], recorded["reason"]
        else:
            status, reason = "missing", "no rule function and no recorded reason"
        rows.append({
            "ref": ref,
            "title": section["title"],
            "chapter": chapter,
            "status": status,
            "reason": reason,
            "functions": [f.qualname for f in functions],
            "sources": [f"{f.file}:{f.line}" for f in functions],
            "examples": example_counts.get(ref, 0),
            "lines": list(section.get("lines") or [section.get("line"), section.get("line")]),
            "printed_in": spec.section_printings(document, section),
            # the author's first-person working notes printed in the section: recorded apart, never rules
            "design_notes": sum(n.get("kind") == "design_note" for n in section.get("notes") or []),
            **(verification.get(ref) or {"verified": None, "unverified": [], "uncalled": [], "mutation": None}),
        })
    return rows  # in the order of the spec: the book's order


def stale_notes(document: str = "core") -> list[str]:
    """Sections that are encoded yet still carry an inert/deferred reason of their own."""
    rules = registry.load(document)
    notes = annotations.status_notes(document)
    return sorted(ref for ref in notes["sections"] if rules.get(ref))


def summary(rows: list[dict]) -> dict[str, int]:
    """How many rows have each status, how many encoded ones are verified, and how many there are."""
    counts = Counter(r["status"] for r in rows)
    return {status: counts.get(status, 0) for status in STATUSES} | {
        "verified": sum(r.get("verified") is True for r in rows), "total": len(rows)}
