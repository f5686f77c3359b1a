"""The checks each proof and property file makes of its own checks: every proof has its expected verdict, every proof
expected to hold catches at least one broken copy of its rule, and every property fails on a broken rule and holds on
the real one. Written once here, so a file keeps only its lists of proofs and broken copies."""

from __future__ import annotations

from types import ModuleType
from typing import Any, Iterable

from properties import mutation, proofs


def proofs_built_in(module: ModuleType) -> list[str]:
    """The names of the proofs a proofs_* module registers, sorted."""
    return sorted(name for name, item in proofs.PROOFS.items() if item.build.__module__ == module.__name__)


def assert_expected_verdict(name: str, *, counterexample: bool = True) -> None:
    """The proof ``name`` comes out as it expects; a disproved one (a finding) with a counterexample written as an
    @example line, unless ``counterexample`` is False."""
    item = proofs.PROOFS[name]
    result = proofs.check(item)
    assert result.status == item.expect, result.detail
    if counterexample and item.expect == "disproved":
        assert result.counterexample and result.example.startswith("@example("), result.detail


def assert_every_proved_proof_has_a_mutant(mine: Iterable[str], mutants: Iterable[tuple]) -> None:
    """Each proof of ``mine`` expected to hold is the first item of some broken-rule entry of ``mutants``, and no
    entry names a proof that is not expected to hold."""
    proved = {name for name in mine if proofs.PROOFS[name].expect == "proved"}
    assert proved == {entry[0] for entry in mutants}


def assert_proof_catches(monkeypatch, name: str, owner: Any, attribute: str, broken: Any, *,
                         example: bool = True) -> None:
    """With ``owner.attribute`` replaced by ``broken``, the proof ``name`` is disproved (with an @example line for
    the counterexample unless ``example`` is False)."""
    monkeypatch.setattr(owner, attribute, broken)
    result = proofs.check(proofs.PROOFS[name])
    assert result.status == "disproved", result.detail
    if example:
        assert result.example.startswith("@example("), result.example


def assert_property_fails(monkeypatch, prop: Any, owner: Any, attribute: str, broken: Any) -> None:
    """With ``owner.attribute`` replaced by ``broken``, the hypothesis property ``prop`` fails (generation only)."""
    monkeypatch.setattr(owner, attribute, broken)
    assert mutation.fails(prop)


def assert_properties_hold(props: Iterable[Any]) -> None:
    """The properties pass on the real rules, so a failure with a broken rule comes from the break."""
    for prop in set(props):
        assert not mutation.fails(prop, max_examples=100), prop.__name__
