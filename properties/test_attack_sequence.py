"""The z3 proofs of chapters 05, 06 and 24 fail for a broken copy of the rule they are about (and, at the end,
hypothesis properties of 05.03's allocation groups and order, each paired with a broken rule).

``properties/test_proofs.py`` checks that every registered proof is proved for the real
rules. Here each proof of the attack sequence, mortal wounds, hazard rolls and weapon
abilities is paired with one (or more) plausible slips in the rule it rests on, which
must make it ``disproved`` with a ready-to-paste ``@example(...)`` counterexample.

Decision-table mutants are whole tables rebuilt with ``dataclasses.replace`` and
monkeypatched over the module attribute (``attack_sequence.WOUND_THRESHOLD``), so the
rule function and everything that calls it pick up the broken copy.
"""

from __future__ import annotations

import dataclasses

import pytest
import z3
from hypothesis import assume, given
from hypothesis import strategies as st

from properties import proofs
from properties.mutation import fails
from rules.core import attack_sequence, core_abilities, other_concepts
from rules.logic import And, Clamp, If, Min, Not, Or
from rules.logic import DecisionTable


def _with_rows(table: DecisionTable, rows) -> DecisionTable:
    return dataclasses.replace(table, rows=tuple(rows))


def _answers_swapped(table: DecisionTable, i: int, j: int) -> DecisionTable:
    """The labels stay in place but two answers trade rows: a misaligned "required result" column."""
    rows = list(table.rows)
    rows[i], rows[j] = (dataclasses.replace(rows[i], then=table.rows[j].then),
                        dataclasses.replace(rows[j], then=table.rows[i].then))
    return _with_rows(table, rows)


def _condition_replaced(table: DecisionTable, i: int, when) -> DecisionTable:
    rows = list(table.rows)
    rows[i] = dataclasses.replace(rows[i], when=when)
    return _with_rows(table, rows)


def _rows_reordered(table: DecisionTable, i: int, j: int) -> DecisionTable:
    rows = list(table.rows)
    rows[i], rows[j] = rows[j], rows[i]
    return _with_rows(table, rows)


WT, HR, WR, SC = (attack_sequence.WOUND_THRESHOLD, attack_sequence.HIT_ROLL, attack_sequence.WOUND_ROLL,
                  attack_sequence.SAVE_CHECK)

#: The wound table with the "twice" row read as "two more than" (and "greater" as "one more").
WOUND_THRESHOLD_TWO_MORE = _condition_replaced(
    _condition_replaced(WT, 0, lambda strength, toughness: strength >= toughness + 2),
    1, lambda strength, toughness: And(strength > toughness, strength < toughness + 2))

#: The wound table with the answers of "GREATER" (3+) and "EQUAL" (4+) swapped.
WOUND_THRESHOLD_SWAPPED = _answers_swapped(WT, 1, 2)

#: A save check that forgets the AP.
SAVE_CHECK_IGNORING_AP = _condition_replaced(SC, 2, lambda roll, sv, **_: roll >= sv)


# Each mutant breaks one rule function the way a plausible slip would; the named
# proof must then be disproved with a counterexample printed as @example(...).
MUTANTS = [
    ("wound-threshold-in-range", attack_sequence, "WOUND_THRESHOLD", _with_rows(WT, WT.rows[:-1])),
    ("wound-threshold-monotone", attack_sequence, "WOUND_THRESHOLD", WOUND_THRESHOLD_SWAPPED),
    ("wound-threshold-ratio", attack_sequence, "WOUND_THRESHOLD", WOUND_THRESHOLD_TWO_MORE),
    ("hit-unmodified-one-fails", attack_sequence, "HIT_ROLL", _with_rows(HR, HR.rows[1:])),
    ("hit-unmodified-six-critical", attack_sequence, "HIT_ROLL",
     _condition_replaced(HR, 1, lambda roll, modifier, **_: roll + modifier >= 6)),
    ("hit-roll-monotone", attack_sequence, "HIT_ROLL",
     _condition_replaced(HR, 2, lambda roll, modifier, skill: roll - modifier >= skill)),
    ("wound-unmodified-one-fails", attack_sequence, "WOUND_ROLL", _with_rows(WR, WR.rows[1:])),
    ("wound-unmodified-six-critical", attack_sequence, "WOUND_ROLL",
     _condition_replaced(WR, 1, lambda roll, modifier, critical, **_: roll + modifier >= critical)),
    ("wound-roll-monotone", attack_sequence, "WOUND_ROLL",
     _condition_replaced(WR, 2, lambda roll, modifier, required, **_: roll + modifier == required)),
    ("modifier-limits", attack_sequence, "capped_roll_modifier", lambda total: Clamp(total, -1, 2)),
    ("modifier-limits", attack_sequence, "modified_skill",
     lambda skill, worsened, improved: Min(skill + worsened - improved, 7)),
    ("save-roll-monotone", attack_sequence, "SAVE_CHECK",
     _condition_replaced(SC, 1, lambda roll, insv, **_: And(insv > 0, roll == insv))),
    ("save-unmodified-one-inflicts", attack_sequence, "SAVE_CHECK", _with_rows(SC, SC.rows[1:])),
    ("save-better-armour-never-worse", attack_sequence, "SAVE_CHECK",
     _condition_replaced(SC, 2, lambda roll, ap, sv, **_: roll - ap >= sv)),
    ("save-ap-worsens-save-by-its-value", attack_sequence, "SAVE_CHECK", SAVE_CHECK_IGNORING_AP),
    ("invulnerable-save-ignores-ap", attack_sequence, "SAVE_CHECK",
     _condition_replaced(SC, 1, lambda roll, ap, insv, **_: And(insv > 0, roll + ap >= insv))),
    ("mortal-wounds-spare-characters", other_concepts, "MORTAL_WOUND_MODEL",
     _rows_reordered(other_concepts.MORTAL_WOUND_MODEL, 1, 2)),
    ("hazard-roll-fails-on-one-or-two", other_concepts, "hazard_roll_fails", lambda roll: roll <= 1),
    ("blast-extra-attacks-per-five", core_abilities, "blast_extra_attacks",
     lambda models_in_target, per_five=1: per_five * If(models_in_target >= 16, 4, If(
         models_in_target >= 11, 3, If(models_in_target >= 6, 2, If(models_in_target >= 1, 1, 0))))),
    ("cleave-extra-attacks-per-five", core_abilities, "cleave_extra_attacks",
     lambda models_in_target, per_five, single_target: core_abilities.blast_extra_attacks(models_in_target, per_five)),
    ("rapid-fire-only-within-half-range", core_abilities, "rapid_fire_extra_attacks",
     lambda per_weapon, within_half_range: per_weapon),
    ("melta-only-within-half-range", core_abilities, "melta_damage_bonus",
     lambda per_melta, within_half_range: If(within_half_range, 2 * per_melta, 0)),
    ("sustained-hits-add-x-on-criticals", core_abilities, "sustained_hits",
     lambda critical_hit, extra: If(critical_hit, extra, 0)),
    ("lethal-hits-only-on-criticals", core_abilities, "lethal_hit_wounds_automatically",
     lambda critical_hit, choose_automatic=True: choose_automatic),
    ("devastating-wounds-only-on-criticals", core_abilities, "devastating_mortal_wounds",
     lambda critical_wound, damage: If(critical_wound, 1, 0)),
    ("feel-no-pain-saves-on-x-or-more", core_abilities, "wound_is_lost",
     lambda roll, feel_no_pain: roll <= feel_no_pain),
    ("twin-linked-rerolls-failed-wounds", core_abilities, "twin_linked_rerolls",
     lambda first_result_failed, policy_all_non_critical=False, critical=False: Or(first_result_failed,
                                                                                  Not(critical))),
]

#: The proofs this file pairs with mutants (all registered in properties/proofs.py).
ATTACK_PROOFS = sorted({m[0] for m in MUTANTS})


def _ids(mutants):
    return [f"{name}[{attribute}]" for name, _module, attribute, _mutant in mutants]


@pytest.mark.parametrize("name,module,attribute,mutant", MUTANTS, ids=_ids(MUTANTS))
def test_attack_proof_catches_a_broken_rule(monkeypatch, name, module, attribute, mutant):
    assert proofs.check(proofs.PROOFS[name]).status == "proved"
    monkeypatch.setattr(module, attribute, mutant)
    result = proofs.check(proofs.PROOFS[name])
    assert result.status == "disproved", result.detail
    assert result.example.startswith("@example(") and result.counterexample


@pytest.mark.parametrize("name", ATTACK_PROOFS)
def test_attack_proof_is_not_vacuous(name):
    """The preconditions can all hold at once, so "proved" is not proved about nothing."""
    pre, _goal, _symbols = proofs.PROOFS[name].build()
    solver = z3.Solver()
    solver.add(*pre)
    assert solver.check() == z3.sat


def test_every_attack_proof_is_registered_with_known_sections():
    from rules import spec

    sections = spec.sections("core")
    for name in ATTACK_PROOFS:
        assert name in proofs.PROOFS
        assert set(proofs.PROOFS[name].refs) <= set(sections), name


def test_reordering_exclusive_wound_bands_changes_nothing():
    """Why the wound-table mutants are answer swaps, not row reorderings.

    The strength-vs-toughness rows are exclusive bands (interpretation
    strength-vs-toughness-bands), so merely reordering them changes nothing: the
    swap that matters is of the answers. The mortal-wound table is first-match
    with overlapping rows, so there reordering two rows is the slip.
    """
    reordered = _rows_reordered(WT, 1, 2)
    for s in range(1, 13):
        for t in range(1, 13):
            assert reordered(strength=s, toughness=t) == WT(strength=s, toughness=t)
    assert any(WOUND_THRESHOLD_SWAPPED(strength=s, toughness=t) != WT(strength=s, toughness=t)
               for s in range(1, 13) for t in range(1, 13))


# -- 05.03: allocation groups and the defender's default order (hypothesis) ---------------------------------

#: One model: CHARACTER or not, W, Sv, InSv (None: no invulnerable save). Few values, so profiles repeat.
_MODELS = st.lists(st.tuples(st.booleans(), st.integers(1, 3), st.integers(2, 4), st.sampled_from([None, 4, 5])),
                   min_size=1, max_size=6)


@pytest.mark.refs("05.03")
@given(_MODELS)
def test_groups_are_one_per_character_and_one_per_profile(models):
    """05.03: two models share an allocation group exactly when neither is a CHARACTER and they have the same W, Sv
    and InSv; each CHARACTER model is a group of its own."""
    keys = [attack_sequence.group_key(character, i, w, sv, insv) for i, (character, w, sv, insv) in enumerate(models)]
    for i, (a, key_a) in enumerate(zip(models, keys)):
        for j, (b, key_b) in enumerate(zip(models, keys)):
            same = i == j or (not a[0] and not b[0] and a[1:] == b[1:])
            assert (key_a == key_b) == same, (a, b)


@pytest.mark.refs("05.03")
@given(st.lists(st.tuples(st.booleans(), st.booleans()), max_size=5))
def test_the_default_allocation_order_is_legal_and_keeps_the_listed_order(flags):
    """05.03: with no preference stated, the defender's order obeys all three restrictions and otherwise keeps
    the groups in the order listed. (Two wounded non-CHARACTER groups cannot both be first: no order is legal.)"""
    assume(sum(wounded and not character for character, wounded in flags) <= 1)
    groups = [attack_sequence.Group(f"group {i}", character, wounded) for i, (character, wounded) in enumerate(flags)]
    order = attack_sequence.default_allocation_order(groups)
    assert sorted(g.name for g in order) == sorted(g.name for g in groups)
    assert attack_sequence.allocation_order_is_legal(order)
    for kind in {(g.character, g.wounded) for g in groups}:
        alike = [g.name for g in groups if (g.character, g.wounded) == kind]
        assert [g.name for g in order if (g.character, g.wounded) == kind] == alike


def test_group_property_fails_when_characters_share_a_group(monkeypatch):
    """Grouping CHARACTER models by profile too breaks it."""
    monkeypatch.setattr(attack_sequence, "group_key", lambda character, model_index, w, sv, insv: (w, sv, insv))
    assert fails(test_groups_are_one_per_character_and_one_per_profile)


def test_default_order_property_fails_for_the_listed_order(monkeypatch):
    """Keeping the listed order whatever the restrictions breaks it."""
    monkeypatch.setattr(attack_sequence, "default_allocation_order", lambda groups: list(groups))
    assert fails(test_the_default_allocation_order_is_legal_and_keeps_the_listed_order)
