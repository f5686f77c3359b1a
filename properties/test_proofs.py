"""Every registered z3 proof holds for the real rule functions, and fails for a broken copy."""

from __future__ import annotations

import dataclasses

import pytest

from properties import broken_rules
from properties import proofs
from rules import dice
from rules.core import core_concepts, datasheets, moving, other_concepts
from rules.logic import And, Not, Or


@pytest.mark.parametrize("name", sorted(proofs.load_all()))
def test_proof_holds(name):
    """Every registered proof (all proofs_* modules) gives its expected verdict: proved, or disproved for a finding."""
    broken_rules.assert_expected_verdict(name, counterexample=False)


def _one_sided_within(a, b, horizontal, vertical):
    """Measures with the first model's base only: a plausible asymmetric slip."""
    from rules.model import Placed

    return core_concepts.within_horizontally(a, Placed(b.x, b.y, base_mm=a.base_mm, z=b.z), horizontal)


# Each mutant breaks one rule function the way a plausible slip would; the named
# proof must then be disproved with a counterexample printed as @example(...).
MUTANTS = [
    ("d3-in-range-and-monotone", dice, "d3_from_d6", lambda face: face),
    ("d3-each-value-twice", dice, "d3_from_d6", lambda face: core_concepts.If(face <= 3, 1, core_concepts.If(face <= 4, 2, 3))),
    ("active-player-is-a-player", core_concepts, "opposing_player", lambda active: active),
    ("within-grows-with-distance", core_concepts, "within_horizontally",
     lambda a, b, inches: (a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y) == inches * inches),
    ("within-is-symmetric", core_concepts, "within",
     _one_sided_within),
    ("engagement-is-symmetric", moving, "within_engagement_range",
     lambda a, b: core_concepts.And(core_concepts.within_horizontally(a, b, 2), a.z - b.z <= 5)),
    ("coherent-units-are-nine-inches-across", moving, "in_coherency",
     lambda models: core_concepts.And(*(core_concepts.Or(*(core_concepts.within(m, o, 2, 5) for o in models if o is not m))
                                         for m in models))),
    ("two-model-coherency-is-two-inches", moving, "in_coherency",
     lambda models: core_concepts.within(models[0], models[1], 3, 5)),
    ("leadership-better-roll-never-fails", core_concepts, "leadership_roll_succeeds",
     lambda result, leaderships: core_concepts.And(*(result >= ld for ld in leaderships))),
    ("failed-battle-shock-roll-shocks", core_concepts, "battle_shocked_after_roll",
     lambda was_battle_shocked, roll_succeeded: was_battle_shocked),
    ("battle-shocked-models-control-nothing", core_concepts, "objective_control",
     lambda oc, battle_shocked: core_concepts.If(battle_shocked, 0, oc)),
    ("level-of-control-never-negative", datasheets, "level_of_control_contribution", lambda oc: oc),
    ("mortal-wound-table-checked-over-every-unit", other_concepts, "MORTAL_WOUND_MODEL",
     dataclasses.replace(other_concepts.MORTAL_WOUND_MODEL, assume=lambda wounded_non_character, non_character,
                         wounded_character, character: And(Or(Not(wounded_non_character), non_character),
                                                           Or(wounded_character, character),
                                                           Or(non_character, character)))),
]


@pytest.mark.parametrize("name,module,attribute,mutant", MUTANTS, ids=[m[0] for m in MUTANTS])
def test_proof_catches_a_broken_rule(monkeypatch, name, module, attribute, mutant):
    monkeypatch.setattr(module, attribute, mutant)
    result = proofs.check(proofs.PROOFS[name])
    assert result.status == "disproved"
    assert result.example.startswith("@example(")


def test_every_proof_rests_on_known_sections():
    """Every reference of every proof names a section of its ruleset (qualified unless it is a Core Rules one)."""
    from rules import spec

    for item in proofs.PROOFS.values():
        assert item.refs, item.id
        for ref in item.refs:
            ruleset, local = spec.split_ref(ref)
            assert ruleset in spec.rulesets() and local in spec.sections(ruleset), (item.id, ref)
