"""The z3 proofs of chapters 18-20 hold (or, for findings, are disproved) and each fails on a broken rule."""

from __future__ import annotations

import dataclasses

import pytest

from properties import proofs
from properties import proofs_transports as pt
from rules.core import attached_units, strategic_reserves, transports
from rules.logic import And, If, Not, Or

OURS = sorted(name for name, item in proofs.load_all().items() if item.build.__module__ == pt.__name__)


@pytest.mark.parametrize("name", OURS)
def test_proof_has_its_expected_verdict(name):
    item = proofs.PROOFS[name]
    result = proofs.check(item)
    assert result.status == item.expect, result.detail
    if item.expect == "disproved":
        assert result.example.startswith("@example(")


# Plausible slips, each breaking one rule function the named proof rests on.

def _no_combat_fallback(transport_move, tactical_set_up_possible):
    """Forgets 'Otherwise, you must select combat disembark'."""
    rapid = Or(transport_move == 2, transport_move == 5)
    tactical = And(Or(transport_move == 0, transport_move == 1), tactical_set_up_possible)
    return If(rapid, 1, If(tactical, 2, 0))


def _tactical_first(transport_move, tactical_set_up_possible):
    """Assesses tactical disembark first, whatever the TRANSPORT did."""
    return If(tactical_set_up_possible, 2, If(Or(transport_move == 2, transport_move == 5), 1, 3))


def _tactical_without_set_up_check(transport_move, tactical_set_up_possible):
    """Drops 'and if you can set up your unit as described below'."""
    return If(Or(transport_move == 2, transport_move == 5), 1, If(Or(transport_move == 0, transport_move == 1), 2, 3))


def _embark_after_set_up(battle_round_started, after_normal_advance_or_fall_back, every_model_within_3,
                         set_up_this_turn, eligible_per_datasheet, friendly, capacity, used, needed):
    """Forgets 'That unit was not set up on the battlefield this turn'."""
    return And(battle_round_started, after_normal_advance_or_fall_back, friendly, every_model_within_3,
               eligible_per_datasheet, transports.has_room(capacity, used, needed))


def _without_row(table, prefix):
    rows = tuple(row for row in table.rows if not row.label.startswith(prefix))
    return dataclasses.replace(table, rows=rows)


def _ignores_attack_window(**facts):
    """Ends the ability the moment its source dies, even mid-attack."""
    return attached_units.ATTACHED_ABILITY(**{**facts, "attack_resolving": False})


_NO_STAR = _without_row(attached_units.ATTACHED_ABILITY, "*")

MUTANTS = [
    ("disembark-mode-always-chosen", transports, "disembark_mode", _no_combat_fallback),
    ("disembark-modes-mutually-exclusive", transports, "disembark_mode", _tactical_first),
    ("rapid-disembark-forced-after-ingress", transports, "disembark_mode", _tactical_first),
    ("combat-disembark-when-tactical-cannot-set-up", transports, "disembark_mode", _tactical_without_set_up_check),
    ("combat-disembark-allows-every-tactical-position", transports, "disembark_set_up_distance",
     lambda mode: If(mode == 3, 2, 3)),
    ("rapid-disembark-keeps-ingress-restrictions", strategic_reserves, "ingress_restrictions_met",
     lambda far, in_zone, battle_round, may_enter=False: far),
    ("embarking-never-exceeds-capacity", transports, "has_room", lambda capacity, used, needed: needed <= capacity),
    ("no-embark-disembark-loop", transports, "may_embark", _embark_after_set_up),
    ("emergency-disembark-accounts-for-every-model", transports, "emergency_disembark_outcome",
     lambda models, placeable: (placeable, 0)),
    ("reserves-limit-is-half", strategic_reserves, "reserves_within_limit", lambda points, limit: 2 * points < limit),
    ("reserves-formation-always-possible", strategic_reserves, "reserves_selection_legal",
     lambda selected, required, limit: 2 * (selected + required) <= limit),
    ("passengers-share-transport-fate", strategic_reserves, "destroyed_at_end_of_third_round",
     pt.destruction_as_written()),
    ("reserves-exceptions-spare-arrivals", strategic_reserves, "destroyed_at_end_of_third_round",
     _without_row(strategic_reserves.DESTROYED_AT_END_OF_THIRD_ROUND, "exception: repositioned")),
    ("reserves-arrive-from-round-two-by-themselves", strategic_reserves, "ingress_eligible",
     lambda in_reserves, embarked_in_reserves_transport: in_reserves),
    ("ingress-position-restrictions", strategic_reserves, "ingress_restrictions_met",
     lambda far, in_zone, battle_round, may_enter=False: And(far, Or(Not(in_zone), battle_round >= 2))),
    ("one-leader-and-one-support-per-bodyguard", attached_units, "may_lead",
     lambda role, muster, can_lead, leading, leaders, supports, more=False:
         And(muster, can_lead, Not(leading), leaders + supports < 2)),
    ("destroyed-triggers-only-for-the-whole-attached-unit", attached_units, "destroyed_rules_trigger",
     lambda attached, models_left, started, started_left: started),
    ("attached-ability-table-covers-every-possible-state", attached_units, "ATTACHED_ABILITY",
     dataclasses.replace(attached_units.ATTACHED_ABILITY,  # forgets that a bodyguard source lives with its unit
                         assume=lambda source_alive, attack_resolving, **_: Or(Not(attack_resolving),
                                                                               Not(source_alive)))),
    ("attached-abilities-last-while-their-source", attached_units, "ability_applies", _ignores_attack_window),
    ("while-leading-ability-needs-a-battle-start-attached", attached_units, "ability_applies",
     lambda **facts: _NO_STAR(**facts)),
]


def test_every_proof_of_ours_has_a_mutant():
    proved = {name for name in OURS if proofs.PROOFS[name].expect == "proved"}
    assert proved == {m[0] for m in MUTANTS}


@pytest.mark.parametrize("name,module,attribute,mutant", MUTANTS, ids=[m[0] for m in MUTANTS])
def test_proof_catches_a_broken_rule(monkeypatch, name, module, attribute, mutant):
    monkeypatch.setattr(module, attribute, mutant)
    result = proofs.check(proofs.PROOFS[name])
    assert result.status == "disproved", name
    assert result.example.startswith("@example(")


def test_findings_hold_for_the_code_that_follows_the_interpretations():
    """The two findings' statements, checked against the real functions instead of the literal text, are proved."""
    assert proofs.check(proofs.PROOFS["passengers-share-transport-fate"]).status == "proved"
    assert proofs.check(proofs.PROOFS["reserves-formation-always-possible"]).status == "proved"
