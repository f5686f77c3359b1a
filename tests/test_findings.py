"""Findings: each names a check that really shows it, and each expected disproof has a finding record."""

from __future__ import annotations

from properties import proofs
from rules import spec
from rules40k import annotations

FINDINGS = [f for name in spec.rulesets() for f in annotations.findings(name)]


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
    for name in spec.rulesets():
        interpretations = {i["id"] for i in annotations.interpretations(name)}
        for finding in annotations.findings(name):
            if finding.get("interpretation"):
                assert finding["interpretation"] in interpretations, (name, finding["id"])


def test_every_finding_names_a_check_that_exists():
    """A finding's check is a registered proof or a refs-marked property of its ruleset (a parametrized property's
    check may name one of its cases, ``property:NAME[ID]``)."""
    import re
    from pathlib import Path

    registry = proofs.load_all()
    sources = "\n".join(p.read_text(encoding="utf-8") for p in (Path(__file__).parents[1] / "properties").glob("test_*.py"))
    for finding in FINDINGS:
        check = finding.get("check", "")
        assert check, f"finding {finding['id']} names no check"
        kind, _, name = check.partition(":")
        if kind == "proof":
            assert name in registry, finding["id"]
        else:
            assert kind == "property" and re.search(rf"def {re.escape(name.partition('[')[0])}\(", sources), finding["id"]


def test_validation_reads_the_property_names_pytest_collects():
    """A finding's ``property:NAME`` is checked against names read from the properties' source (no pytest run); they
    are exactly the names the property runner records its checks under (parameters aside)."""
    from rules40k import property_runner

    collected = {property_runner.property_name(nodeid).partition("[")[0]
                 for nodeid in property_runner.collect_properties()}
    assert annotations.property_names() == collected
