"""Findings: each names a check that really shows it, and each expected disproof has a finding record."""

from __future__ import annotations

from properties import proofs
from rules40k import annotations

FINDINGS = annotations.findings("core")


def test_every_finding_proof_is_disproved_with_a_counterexample():
    registry = proofs.load_all()
    for finding in FINDINGS:
        check = finding.get("check", "")
        if not check.startswith("proof:"):
            continue
        item = registry[check.removeprefix("proof:")]
        assert item.expect == "disproved", finding["id"]
        result = proofs.check(item)
        assert result.status == "disproved" and result.counterexample, finding["id"]


def test_every_expected_disproof_is_a_recorded_finding():
    recorded = {f.get("check") for f in FINDINGS}
    for name, item in proofs.load_all().items():
        if item.expect == "disproved":
            assert f"proof:{name}" in recorded, f"proof {name} expects a disproof but no finding records it"


def test_findings_follow_recorded_interpretations():
    interpretations = {i["id"] for i in annotations.interpretations("core")}
    for finding in FINDINGS:
        if finding.get("interpretation"):
            assert finding["interpretation"] in interpretations, finding["id"]
