"""The scoring proofs of properties/proofs_missionpack_scoring.py: each has its expected verdict, and each proved
one is disproved for a plausible slip in the function it rests on."""

from __future__ import annotations

import pytest

from properties import proofs
from properties import proofs_missionpack_scoring  # noqa: F401  (registers the proofs)
from rules.logic import If, Max, Min
from rules.missionpack import scoring

MINE = sorted(name for name, item in proofs.PROOFS.items()
              if item.build.__module__ == proofs_missionpack_scoring.__name__)


@pytest.mark.parametrize("name", MINE)
def test_scoring_proof_has_its_expected_verdict(name):
    item = proofs.PROOFS[name]
    result = proofs.check(item)
    assert result.status == item.expect, result.detail
    if item.expect == "disproved":
        assert result.counterexample and result.example.startswith("@example(")


def _primary(first, second, first_round_excluded=True, cap=15):
    def broken(battle_round, controlled, opponent_controlled):
        points = If(controlled >= first, 5, 0) + If(controlled >= second, 5, 0) + If(controlled > opponent_controlled, 5, 0)
        points = Min(points, cap) if cap is not None else points
        return If(battle_round == 1, 0, points) if first_round_excluded else points
    return broken


# (proof, attribute of rules.missionpack.scoring, broken copy): each a plausible slip that must turn the proof red.
MUTANTS = [
    ("missionpack-discounted-award-within-cap", "discounted_award", lambda so_far, award, cap: Min(award, cap)),
    ("missionpack-discounted-award-within-cap", "discounted_award", lambda so_far, award, cap: Max(award, 0)),
    ("missionpack-only-excess-is-discounted", "discounted_award",
     lambda so_far, award, cap: Max(Min(award, cap - so_far - 1), 0)),
    ("missionpack-total-at-most-100", "final_score",
     lambda primary, secondaries, battle_ready: Min(primary, 45) + Min(secondaries, 45) + If(battle_ready, 11, 0)),
    ("missionpack-total-at-most-100", "final_score",
     lambda primary, secondaries, battle_ready: Min(primary + secondaries, 90) + If(battle_ready, 10, 0) + 1),
    ("missionpack-total-never-decreases", "final_score",
     lambda primary, secondaries, battle_ready: Min(primary, 45) + Min(secondaries, 45) - If(battle_ready, 10, 0)),
    ("missionpack-objective-caps-are-45-15-90", "final_score",
     lambda primary, secondaries, battle_ready: Min(primary, 45) + Min(secondaries, 30) + If(battle_ready, 10, 0)),
    ("missionpack-most-points-wins", "victor", lambda a, d: If(a >= d, 1, -1)),
    ("missionpack-take-and-hold-at-most-15-never-round-1", "take_and_hold", _primary(1, 2, first_round_excluded=False)),
    ("missionpack-take-and-hold-at-most-15-never-round-1", "take_and_hold",
     lambda battle_round, controlled, opponent_controlled: If(battle_round == 1, 0, 5 * controlled)),
    ("missionpack-take-and-hold-monotone", "take_and_hold",
     lambda battle_round, controlled, opponent_controlled: If(controlled == 1, 5, 0)),
    ("missionpack-domination-at-most-15-never-round-1", "domination", _primary(2, 3, first_round_excluded=False)),
    ("missionpack-domination-monotone", "domination",
     lambda battle_round, controlled, opponent_controlled: If(controlled > opponent_controlled, 5, 0)
     + If(controlled == 2, 5, 0)),
    ("missionpack-primary-ledger-keeps-45", "discounted_award", lambda so_far, award, cap: award),
    ("missionpack-primary-ledger-keeps-45", "discounted_award",
     lambda so_far, award, cap: Max(Min(award - 1, cap - so_far), 0)),
]


@pytest.mark.parametrize("name,attribute,broken", MUTANTS, ids=[f"{m[0]}:{i}" for i, m in enumerate(MUTANTS)])
def test_scoring_proof_fails_on_a_broken_rule(name, attribute, broken, monkeypatch):
    assert name in MINE
    monkeypatch.setattr(scoring, attribute, broken)
    assert proofs.check(proofs.PROOFS[name]).status == "disproved"


def test_every_proved_scoring_proof_has_a_mutant():
    proved = {n for n in MINE if proofs.PROOFS[n].expect == "proved"}
    assert proved <= {m[0] for m in MUTANTS}


def test_battle_ready_finding_agrees_when_the_bonus_follows_the_note(monkeypatch):
    """The finding's disproof comes from the rule: a bonus keyed to Battle-forged would make it hold."""
    monkeypatch.setattr(scoring, "battle_ready_bonus", lambda every_model_battle_ready: If(True, 10, 0))
    assert proofs.check(proofs.PROOFS["missionpack-battle-ready-note-agrees"]).status == "proved"
