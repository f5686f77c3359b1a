"""999.m41's Assault Phase, Characters and Psychic Powers (ruleset ``m41``): the z3 proofs of
properties/proofs_m41_assault.py (each failing for a broken copy of the rule it rests on), hypothesis properties
(each failing for a broken rule), exact odds worked from the text, and the printed charts against the tables."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from hypothesis import Phase as Stage
from hypothesis import given, settings
from hypothesis import strategies as st

from properties import broken_rules
from properties import proofs_m41_assault
from rules import spec
from rules.logic import If
from rules.m41 import assault, characters, psychic

MINE = broken_rules.proofs_built_in(proofs_m41_assault)
NO_EXPLAIN = settings(phases=[stage for stage in Stage if stage != Stage.explain])
D3 = {1: 1, 2: 1, 3: 2, 4: 2, 5: 3, 6: 3}  # a D6 halved, rounding up


# -- Proofs ---------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", MINE)
def test_assault_proof_has_its_expected_verdict(name):
    broken_rules.assert_expected_verdict(name)


def _ws_literal_first_match(attacker_ws, defender_ws):
    """The chart read literally: 'Equal or less than' catches every lower WS, so 5+ never comes up."""
    return If(attacker_ws > defender_ws, 3, If(attacker_ws <= defender_ws, 4, 5))


# (proof, module, attribute, broken copy): each a plausible slip that must turn the proof "disproved".
MUTANTS = [
    ("m41-assault-ws-chart-higher-attacker-never-hits-worse", assault, "to_hit_needed",
     lambda attacker_ws, defender_ws: If(attacker_ws > defender_ws, 4, If(2 * attacker_ws < defender_ws, 5, 3))),
    ("m41-assault-ws-chart-higher-defender-never-hit-easier", assault, "to_hit_needed",
     lambda attacker_ws, defender_ws: If(attacker_ws > defender_ws, 3, If(2 * attacker_ws < defender_ws, 3, 4))),
    ("m41-assault-combat-resolution-symmetric", assault, "combat_result",
     lambda inflicted, suffered, destroyed_the_enemy=False, was_destroyed=False:
         If(destroyed_the_enemy, 1, If(suffered >= inflicted, -1, 1))),  # a tie lost by both
    ("m41-assault-outnumbered-more-enemies-never-a-smaller-penalty", assault, "outnumbered_modifier",
     lambda ours, theirs: (If(theirs > ours, -1, 0) + If(theirs >= 2 * ours, -2, 0) + If(theirs >= 3 * ours, -3, 0)
                           + If(theirs >= 4 * ours, -4, 0))),  # read as cumulative
    ("m41-psychic-casting-bonus-monotone", psychic, "casting_bonus",
     lambda leadership: If(leadership <= 6, -2, If(leadership == 7, -1, If(leadership == 8, 0,
                                                                             If(leadership == 9, 2, 1))))),
    ("m41-psychic-test-monotone", psychic, "psychic_test_passed",
     lambda dice_total, mastery_level, leadership, warp_level:
         dice_total - mastery_level + psychic.casting_bonus(leadership) >= 6 + warp_level),
]


def test_every_proved_assault_proof_has_a_mutant():
    broken_rules.assert_every_proved_proof_has_a_mutant(MINE, MUTANTS)


@pytest.mark.parametrize("name,module,attribute,mutant", MUTANTS,
                         ids=[f"{m[0]}:{m[2]}:{i}" for i, m in enumerate(MUTANTS)])
def test_assault_proof_catches_a_broken_rule(monkeypatch, name, module, attribute, mutant):
    broken_rules.assert_proof_catches(monkeypatch, name, module, attribute, mutant)


def test_literal_ws_chart_never_reaches_less_than_half():
    """Read literally in the printed order the WS chart never gives 5+, which the monotone proof misses but the
    recorded finding names: the bands reading is the one that reaches every row."""
    literal = {_ws_literal_first_match(a, d) for a in range(1, 11) for d in range(1, 11)}
    banded = {assault.to_hit_needed(a, d) for a in range(1, 11) for d in range(1, 11)}
    assert literal == {3, 4} and banded == {3, 4, 5}


# -- Hypothesis properties ------------------------------------------------------------------------------------------

faces = st.integers(1, 6)


@pytest.mark.refs("m41:assault/to-hit")
@NO_EXPLAIN
@given(st.integers(1, 10), st.integers(1, 10))
def test_ws_chart_bands(attacker_ws, defender_ws):
    """The WS chart: 3+ against a lower WS, 5+ when the attacker's WS is less than half the defender's, 4+ for
    every other equal or lower WS."""
    if attacker_ws > defender_ws:
        expected = 3
    elif Fraction(attacker_ws) < Fraction(defender_ws, 2):
        expected = 5
    else:
        expected = 4
    assert assault.to_hit_needed(attacker_ws, defender_ws) == expected


@pytest.mark.refs("m41:assault/combat-resolution")
@NO_EXPLAIN
@given(st.integers(0, 20), st.integers(0, 20), st.booleans(), st.booleans())
def test_combat_resolution_symmetric(inflicted, suffered, destroyed_the_enemy, was_destroyed):
    """Combat resolution: swapping the two sides swaps the result, and destroying the enemy (alone) wins."""
    one = assault.combat_result(inflicted, suffered, destroyed_the_enemy, was_destroyed)
    assert one == -assault.combat_result(suffered, inflicted, was_destroyed, destroyed_the_enemy)
    if destroyed_the_enemy and not was_destroyed:
        assert one == 1
    elif not destroyed_the_enemy and not was_destroyed:
        assert one == (suffered < inflicted) - (suffered > inflicted)


@pytest.mark.refs("m41:assault/outnumbered")
@NO_EXPLAIN
@given(st.integers(1, 30), st.integers(0, 130))
def test_outnumbered_penalty_is_the_largest_ratio(ours, theirs):
    """Outnumbered: -1 for more models, -N at N:1 for N of 2 to 4, the penalties not cumulative, none when not
    outnumbered."""
    expected = 0 if theirs <= ours else -min(4, max(1, theirs // ours))
    assert assault.outnumbered_modifier(ours, theirs) == expected


@pytest.mark.refs("m41:assault/number-of-attacks", "m41:assault/pistols", "m41:characters/challenges")
@NO_EXPLAIN
@given(st.integers(1, 5), st.booleans(), st.integers(0, 3), st.integers(0, 2), st.booleans())
def test_number_of_attacks(attacks, charged, melee_weapons, pistols, challenge_issued):
    """Attacks: A, +1 for charging unless the player issued a challenge, +1 (once) for two weapons, pistols counted
    as melee weapons."""
    expected = attacks + (charged and not challenge_issued) + (melee_weapons + pistols >= 2)
    assert assault.number_of_attacks(attacks, charged, melee_weapons, pistols, 0, challenge_issued) == expected


@pytest.mark.refs("m41:psychic/psychic-tests")
@NO_EXPLAIN
@given(st.integers(1, 4), st.integers(1, 3), st.integers(2, 12))
def test_psychic_test_chance_counts_the_2d6(mastery_level, warp_level, leadership):
    """The psychic test's chance is the share of the 36 rolls of 2d6 whose sum plus mastery level plus the Ld
    bonus (-2 at 6 or less, -1 at 7, 0 at 8, +1 at 9, +2 at 10 or more) is at least 6 + warp level."""
    bonus = -2 if leadership <= 6 else 2 if leadership >= 10 else leadership - 8
    passing = sum(1 for a, b in itertools.product(range(1, 7), repeat=2)
                  if a + b + mastery_level + bonus >= 6 + warp_level)
    assert psychic.psychic_test_chance(mastery_level, warp_level, leadership) == Fraction(passing, 36)


@pytest.mark.refs("m41:psychic/deny-the-witch")
@NO_EXPLAIN
@given(st.integers(0, 3), st.integers(2, 18))
def test_deny_chance_rolls_one_dice_plus_one_per_mastery_level(mastery_level, casting_total):
    """Deny the witch: 1d6 plus one d6 per mastery level, higher than the caster's score (a tie stands)."""
    count = 1 + mastery_level
    higher = sum(1 for roll in itertools.product(range(1, 7), repeat=count) if sum(roll) > casting_total)
    assert psychic.deny_chance(mastery_level, casting_total) == Fraction(higher, 6 ** count)


@pytest.mark.refs("m41:assault/rolling-for-charge-distance", "m41:assault/how-far-can-models-charge")
@NO_EXPLAIN
@given(faces, faces, st.integers(0, 12), st.booleans())
def test_charge_distance_is_two_d3_plus_four(first, second, gap, re_roll):
    """A charge roll is two D3 (D6s halved, rounding up) plus 4"; the chance to close a gap counts the 36 pairs of
    D6, and a re-roll (jump packs) tries again once after a failure."""
    assert assault.charge_distance(D3[first], D3[second]) == D3[first] + D3[second] + 4
    closes = Fraction(sum(1 for a, b in itertools.product(range(1, 7), repeat=2) if D3[a] + D3[b] + 4 >= gap), 36)
    assert assault.charge_chance(gap, re_roll) == (1 - (1 - closes) ** 2 if re_roll else closes)


@pytest.mark.refs("m41:characters/lost-in-the-heat-of-battle")
@NO_EXPLAIN
@given(st.lists(st.tuples(st.integers(1, 12), st.integers(0, 14)), min_size=1, max_size=3))
def test_hits_reach_a_character_only_after_every_model(units):
    """A character near several units takes hits only once every model of each has one."""
    sizes = [size for size, _ in units]
    hits = [hit for _, hit in units]
    assert characters.may_allocate_to_character(hits, sizes) == all(hit >= size for size, hit in units)
    assert characters.hits_before_character(sizes) == sum(sizes) + 1


# (property, module, attribute, broken copy)
BROKEN = [
    (test_ws_chart_bands, assault, "to_hit_needed", _ws_literal_first_match),
    (test_ws_chart_bands, assault, "to_hit_needed",
     lambda attacker_ws, defender_ws: If(attacker_ws > defender_ws, 3, If(2 * attacker_ws <= defender_ws, 5, 4))),
    (test_combat_resolution_symmetric, assault, "combat_result",
     lambda inflicted, suffered, destroyed_the_enemy=False, was_destroyed=False:
         If(destroyed_the_enemy, 1, If(suffered > inflicted, -1, 1))),
    (test_outnumbered_penalty_is_the_largest_ratio, assault, "outnumbered_modifier",
     lambda ours, theirs: If(theirs > ours, -1, 0)),
    (test_number_of_attacks, assault, "number_of_attacks",
     lambda attacks, counts_as_charging=False, melee_weapons=0, pistols=0, other_bonus=0, challenge_issued=False:
         attacks + If(counts_as_charging, 1, 0) + If(melee_weapons + pistols >= 2, 1, 0) + other_bonus),
    (test_psychic_test_chance_counts_the_2d6, psychic, "casting_bonus",
     lambda leadership: If(leadership <= 6, -2, If(leadership >= 10, 2, 0))),
    (test_deny_chance_rolls_one_dice_plus_one_per_mastery_level, psychic, "denied",
     lambda denial_total, casting_total: denial_total >= casting_total),
    (test_charge_distance_is_two_d3_plus_four, assault, "CHARGE_DICE", "2D6+4"),
    (test_hits_reach_a_character_only_after_every_model, characters, "hits_before_character",
     lambda models_in_each_unit: sum(models_in_each_unit)),
]


@pytest.mark.parametrize("prop,module,attribute,mutant", BROKEN,
                         ids=[f"{b[0].__name__}:{b[2]}:{i}" for i, b in enumerate(BROKEN)])
def test_assault_property_fails_for_a_broken_rule(monkeypatch, prop, module, attribute, mutant):
    broken_rules.assert_property_fails(monkeypatch, prop, module, attribute, mutant)


def test_assault_properties_hold_unbroken():
    """The same properties pass on the real rules (so the failures above come from the mutants)."""
    broken_rules.assert_properties_hold(b[0] for b in BROKEN)


# -- Plain checks: exact chances, the printed charts ----------------------------------------------------------------


@pytest.mark.refs("m41:assault/how-far-can-models-charge", "m41:assault/rolling-for-charge-distance")
def test_charge_distance_distribution_six_to_ten():
    """2d3 + 4": 6" and 10" one way each of 9, 7" and 9" two ways, 8" three ways (1+3, 2+2, 3+1)."""
    assert assault.charge_distance_distribution() == {6: Fraction(1, 9), 7: Fraction(2, 9), 8: Fraction(3, 9),
                                                       9: Fraction(2, 9), 10: Fraction(1, 9)}


@pytest.mark.refs("m41:psychic/perils-of-the-warp")
def test_perils_two_in_thirty_six():
    """Perils of the warp comes on a double 1 or a double 6: 2 of the 36 rolls of 2d6, passed or not."""
    assert psychic.perils_chance() == Fraction(2, 36)
    assert psychic.perils(1, 1) and psychic.perils(6, 6) and not psychic.perils(3, 3) and not psychic.perils(1, 6)


@pytest.mark.refs("m41:characters/look-out-sir")
def test_look_out_sir_half_the_time():
    """Look out sir works on a 4+: three faces of six."""
    assert characters.look_out_sir_chance() == Fraction(1, 2)
    assert [characters.look_out_sir(face) for face in range(1, 7)] == [False] * 3 + [True] * 3


def _section_lines(ref):
    return {line.strip() for line in spec.sections("m41")[ref]["text"].splitlines()}


@pytest.mark.parametrize("table,ref", [(assault.TO_HIT_TABLE, "assault/to-hit"),
                                       (assault.OUTNUMBERED_TABLE, "assault/outnumbered"),
                                       (psychic.CASTING_BONUS_TABLE, "psychic/psychic-tests")])
def test_tables_print_the_charts_rows_in_order(table, ref):
    """Every printed row of a chart is a row of its table, in the printed order (the one unprinted catch-all row,
    'not outnumbered', aside)."""
    text = spec.sections("m41")[ref]["text"]
    printed = [row.label for row in table.rows if not row.otherwise]
    assert all(label in _section_lines(ref) for label in printed), printed
    positions = [text.index(label) for label in printed]
    assert positions == sorted(positions)


@pytest.mark.refs("m41:psychic/mastery-levels")
def test_mastery_level_read_from_the_special_rule():
    """'psyker (2) means that the psyker is master level 2'; anything else is refused with a sentence."""
    assert psychic.mastery_level("psyker (2)") == psychic.mastery_level("Psyker(2)") == 2
    with pytest.raises(ValueError, match="not a psyker special rule"):
        psychic.mastery_level("psyker")
