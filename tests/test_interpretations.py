"""Recorded interpretations: where the readings differ in outcome, show the divergence on a case.

Each test computes the outcome the code gives (the chosen reading) and the
outcome of the rejected reading on the same case, and checks they differ, so
the record on the site points at a real choice.
"""

from __future__ import annotations

import re

from rules import registry
from rules.core import core_concepts, datasheets
from rules.model import Placed
from rules40k import annotations

RECORDS = {r["id"]: r for r in annotations.interpretations("core")}


def test_placeholder_oc_adds_nothing_to_level_of_control():
    battle_shocked_unit = [core_concepts.objective_control(2, battle_shocked=True)] * 5
    chosen = sum(datasheets.level_of_control_contribution(oc) for oc in battle_shocked_unit)
    minus_one_reading = sum(battle_shocked_unit)
    assert RECORDS["placeholder-characteristics"]["chosen"] == "placeholder"
    assert (chosen, minus_one_reading) == (0, -5)


def test_within_includes_the_exact_distance():
    a, b = Placed(0, 0, base_mm="50.8"), Placed(4, 0, base_mm="50.8")  # closest points exactly 2" apart
    chosen = core_concepts.within_horizontally(a, b, 2)
    gap = 4 - a.radius - b.radius
    exclusive_reading = gap < 2
    assert RECORDS["within-inclusive"]["chosen"] == "inclusive"
    assert (chosen, exclusive_reading) == (True, False)


def test_a_successful_roll_does_not_clear_battle_shock():
    chosen = core_concepts.battle_shocked_after_roll(was_battle_shocked=True, roll_succeeded=True)
    clearing_reading = not True
    assert RECORDS["battle-shock-success-does-not-clear"]["chosen"] == "success-leaves-state"
    assert (chosen, clearing_reading) == (True, False)


def test_plural_keywords_match_their_singular():
    chosen = datasheets.has_keyword(["MONSTER"], "MONSTERS")
    exact_reading = "MONSTER" == "MONSTERS"
    assert (chosen, exact_reading) == (True, False)


def test_every_interpretation_named_in_code_is_recorded():
    named = set()
    for rules in registry.load("core").values():
        for rule in rules:
            named.update(re.findall(r"Interpretation:\s*([a-z0-9-]+)", rule.doc))
    assert named, "no rule docstring names an interpretation"
    assert named <= set(RECORDS), sorted(named - set(RECORDS))


def test_interpretation_refs_are_sections():
    from rules import spec

    sections = spec.sections("core")
    for record in RECORDS.values():
        assert set(record["refs"]) <= set(sections), record["id"]


def test_strength_half_the_toughness_needs_a_six():
    """Under the printed first-match order LESS would shadow HALF; the bands reading gives 6+."""
    import dataclasses

    from rules import logic
    from rules.core import attack_sequence

    chosen = attack_sequence.wound_threshold(1, 4)
    table = attack_sequence.WOUND_THRESHOLD
    literal_rows = tuple(
        dataclasses.replace(row, when=(lambda strength, toughness: strength < toughness))
        if row.label.startswith("Strength is LESS") else row for row in table.rows)
    literal = dataclasses.replace(table, rows=literal_rows)
    assert (chosen, literal(strength=1, toughness=4)) == (6, 5)
    # The literal reading is the finding: its HALF row can never be reached.
    assert logic.check_table(literal).unreachable == ["Strength is HALF (or less than half) the Toughness: 6+"]


def test_pistol_does_not_break_identical_attacks():
    """The book gathers a bolt pistol's dice with boltguns'; comparing every ability would not."""
    from rules.core import making_attacks
    from rules.model import Weapon

    boltgun = Weapon("Boltgun", 24, 2, 3, 4, 0, 1)
    bolt_pistol = Weapon("Bolt pistol", 12, 1, 3, 4, 0, 1, ("PISTOL",))
    chosen = making_attacks.identical_attacks(boltgun, bolt_pistol)
    every_ability_reading = set(boltgun.abilities) == set(bolt_pistol.abilities)
    assert (chosen, every_ability_reading) == (True, False)
    # Abilities that do act on resolution still separate the attacks.
    assert not making_attacks.identical_attacks(boltgun, Weapon("Boltgun", 24, 2, 3, 4, 0, 1, ("LETHAL HITS",)))
