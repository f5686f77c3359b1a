"""The earlier edition's core concepts, datasheets, battle round, Command phase and glossary (ruleset ``ninth``):
the z3 proofs of properties/proofs_ninth_concepts.py (each failing for a broken copy of the rule it rests on),
hypothesis properties (each failing for a broken rule), and the printed lists (phases, floored characteristics)
against the book's text."""

from __future__ import annotations

import itertools
import math
import re
from fractions import Fraction

import pytest
from hypothesis import Phase as Stage
from hypothesis import example, given, note, settings
from hypothesis import strategies as st

from properties import broken_rules
from properties import proofs_ninth_concepts
from rules import spec
from rules.logic import And, If, Max, Or
from rules.ninth import battle_round, concepts, datasheets, glossary
from rules.ninth.battle_round import Phase, Printing
from rules.ninth.datasheets import Characteristic

RULESET = "ninth"
MINE = broken_rules.proofs_built_in(proofs_ninth_concepts)
NO_EXPLAIN = settings(phases=[stage for stage in Stage if stage != Stage.explain])


# -- Proofs ---------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", MINE)
def test_concepts_proof_has_its_expected_verdict(name):
    broken_rules.assert_expected_verdict(name)


def _apply_adding_first(value, divide_by=(), multiply_by=(), add=(), subtract=()):
    """Additions and subtractions before division and multiplication: the order the text forbids."""
    exact = concepts._exact(value)
    if concepts.is_symbolic(value, *divide_by, *multiply_by, *add, *subtract) and not concepts.is_symbolic(exact):
        exact = concepts.logic.z3.RealVal(str(exact))
    for bonus in add:
        exact = exact + bonus
    for penalty in subtract:
        exact = exact - penalty
    for divisor in divide_by:
        exact = exact / concepts._exact(divisor)
    for factor in multiply_by:
        exact = exact * factor
    return concepts._round_up(exact)


def _apply_rounding_each_step(value, divide_by=(), multiply_by=(), add=(), subtract=()):
    """Fractions rounded up after each division rather than once at the end."""
    exact = concepts._exact(value)
    if concepts.is_symbolic(value, *divide_by, *multiply_by, *add, *subtract) and not concepts.is_symbolic(exact):
        exact = concepts.logic.z3.RealVal(str(exact))
    for divisor in divide_by:
        exact = concepts._exact(concepts._round_up(exact / concepts._exact(divisor)))
    for factor in multiply_by:
        exact = exact * factor
    for bonus in add:
        exact = exact + bonus
    for penalty in subtract:
        exact = exact - penalty
    return concepts._round_up(exact)


# (proof, module, attribute, broken copy): each a plausible slip that must turn the proof "disproved".
MUTANTS = [
    ("ninth-d3-halving-agrees-with-the-glossary-table", concepts, "d3_by_the_glossary_table",
     lambda d6_face: If(d6_face <= 2, 1, If(d6_face <= 3, 2, 3))),
    ("ninth-d3-halving-agrees-with-the-glossary-table", concepts, "d3_by_halving",
     lambda d6_face: If(d6_face <= 1, 1, If(d6_face <= 3, 2, 3))),  # halved rounding down, plus one
    ("ninth-modifiers-in-the-printed-order", concepts, "apply_modifiers", _apply_adding_first),
    ("ninth-modifiers-in-the-printed-order", concepts, "apply_modifiers", _apply_rounding_each_step),
    ("ninth-modified-roll-never-below-one-and-may-pass-six", concepts, "LOWEST_MODIFIED_ROLL", 0),
    ("ninth-modified-roll-never-below-one-and-may-pass-six", concepts, "modified_dice_roll",
     lambda roll, divide_by=(), multiply_by=(), add=(), subtract=():
         If(concepts.apply_modifiers(roll, divide_by, multiply_by, add, subtract) > 6, 6,
            Max(1, concepts.apply_modifiers(roll, divide_by, multiply_by, add, subtract)))),
    ("ninth-characteristics-modified-as-dice-rolls", datasheets, "apply_modifiers", _apply_adding_first),
    ("ninth-strength-toughness-attacks-leadership-floored-at-one", datasheets, "FLOORED_AT_ONE",
     (Characteristic.S, Characteristic.T, Characteristic.A)),
    ("ninth-strength-toughness-attacks-leadership-floored-at-one", datasheets, "FLOORED_AT_ONE",
     datasheets.WEB_BULLET_FLOORED_AT_ONE),
    ("ninth-roll-off-fair-and-ties-rolled-again", concepts, "roll_off_winner",
     lambda player_one_roll, player_two_roll: If(player_one_roll >= player_two_roll, 1, 2)),
    ("ninth-half-strength-fewer-than-half-and-monotone", concepts, "below_half_strength",
     lambda models_remaining, starting_strength: 2 * models_remaining <= starting_strength),
    ("ninth-coherency-one-other-model-two-from-six", concepts, "LARGE_UNIT", 7),
    ("ninth-coherency-one-other-model-two-from-six", concepts, "coherency_neighbours_needed",
     lambda models_in_unit: If(models_in_unit >= 6, 2, 1)),  # a lone model would be out of coherency
    ("ninth-engagement-range-inside-coherency-distance", concepts, "within_engagement_range",
     lambda horizontal_inches, vertical_inches: And(horizontal_inches < 1, vertical_inches < 5)),
    ("ninth-engagement-range-inside-coherency-distance", concepts, "COHERENCY_HORIZONTAL", 1),
    ("ninth-wholly-within-implies-within", concepts, "unit_wholly_within",
     lambda farthest_distance_of_each_model, specified_inches:
         Or(*(d <= specified_inches for d in farthest_distance_of_each_model))),
    ("ninth-improving-is-better-reducing-is-worse", glossary, "improve_skill", lambda value, by: value + by),
    ("ninth-ap-improved-better-reduced-never-above-zero", glossary, "reduce_ap", lambda ap, by: ap + by),
    ("ninth-ap-improved-better-reduced-never-above-zero", glossary, "ap_is_better", lambda ap, than: ap > than),
    ("ninth-phase-order-as-printed", battle_round, "PHASES",
     {**battle_round.PHASES, Printing.REPRINT: (Phase.COMMAND, Phase.MOVEMENT, Phase.SHOOTING, Phase.PSYCHIC,
                                                Phase.CHARGE, Phase.FIGHT, Phase.MORALE)}),
    ("ninth-battle-forged-bonus-one-cp", battle_round, "BATTLE_FORGED_CP_BONUS",
     {Printing.REPRINT: 2, Printing.WEB: 0}),
    ("ninth-out-of-phase-stratagems-only-in-their-phase", battle_round, "stratagem_usable",
     lambda stratagem_phase, current_phase, printing=Printing.REPRINT: True),
]


def test_every_proved_concepts_proof_has_a_mutant():
    broken_rules.assert_every_proved_proof_has_a_mutant(MINE, MUTANTS)


@pytest.mark.parametrize("name,module,attribute,mutant", MUTANTS,
                         ids=[f"{m[0]}:{m[2]}:{i}" for i, m in enumerate(MUTANTS)])
def test_concepts_proof_catches_a_broken_rule(monkeypatch, name, module, attribute, mutant):
    broken_rules.assert_proof_catches(monkeypatch, name, module, attribute, mutant)


# -- Hypothesis properties --------------------------------------------------------------------------------------------

faces = st.integers(1, 6)
small_lists = st.lists(st.integers(1, 4), max_size=3)


@pytest.mark.refs("ninth:concepts/dice")
@NO_EXPLAIN
@given(faces, small_lists, small_lists, st.lists(st.integers(0, 5), max_size=3),
       st.lists(st.integers(0, 5), max_size=3))
def test_modified_roll_applies_every_modifier_in_the_printed_order(roll, divisors, factors, bonuses, penalties):
    """Several modifiers of each kind: every division, then every multiplication, addition, subtraction, with
    fractions rounded up once at the end, and never below 1."""
    exact = Fraction(roll)
    for d in divisors:
        exact /= d
    for m in factors:
        exact *= m
    expected = max(1, math.ceil(exact + sum(bonuses) - sum(penalties)))
    result = concepts.modified_dice_roll(roll, divisors, factors, bonuses, penalties)
    note(f"{roll} / {divisors} * {factors} + {bonuses} - {penalties} = {result}")
    assert result == expected


@pytest.mark.refs("ninth:concepts/d33")
@NO_EXPLAIN
@given(faces, faces)
def test_d33_reads_two_d3s_as_tens_and_units(first, second):
    """A D33 is the first D3 as tens and the second as units: 11 to 33, units never above 3 (two D3s of 2 then
    1 make 21)."""
    result = concepts.d33(first, second)
    assert result == 10 * math.ceil(first / 2) + math.ceil(second / 2)
    assert result in {10 * t + u for t in (1, 2, 3) for u in (1, 2, 3)}


@pytest.mark.refs("ninth:concepts/d33")
def test_d33_the_web_pages_example():
    """"if you rolled two D3s and the first result was a 2 and the second was a 1, then the D33 result is a 21":
    a D6 of 3 or 4 makes a D3 of 2, one of 1 or 2 a D3 of 1."""
    assert {concepts.d33(a, b) for a in (3, 4) for b in (1, 2)} == {21}


dice_terms = st.tuples(st.integers(0, 3), st.sampled_from([3, 6]), st.integers(0, 4)).filter(
    lambda term: term[0] > 0 or term[2] > 0)


def _printed(term: tuple[int, int, int]) -> str:
    count, sides, bonus = term
    dice = f"{'' if count == 1 else count}D{sides}" if count else ""
    return "+".join(part for part in (str(bonus) if bonus else "", dice) if part)


@pytest.mark.refs("ninth:glossary/maximum-value", "ninth:glossary/minimum-value")
@NO_EXPLAIN
@given(dice_terms)
def test_maximum_and_minimum_values_are_the_extreme_rolls(term):
    """'3+D3', '2D6', 'D3': the maximum value is the highest total any roll of those dice gives, the minimum the
    lowest (every dice at its highest or lowest value)."""
    count, sides, bonus = term
    totals = [bonus + sum(faces_) for faces_ in itertools.product(range(1, sides + 1), repeat=count)]
    expression = _printed(term)
    note(f"{expression}: totals {min(totals)}..{max(totals)}")
    assert glossary.maximum_value(expression) == max(totals)
    assert glossary.minimum_value(expression) == min(totals)


@pytest.mark.refs("ninth:concepts/starting-strength", "ninth:glossary/half-strength")
@NO_EXPLAIN
@given(st.lists(st.integers(1, 10), min_size=1, max_size=4), st.data())
def test_merged_units_below_half_strength_of_their_summed_starting_strength(strengths, data):
    """Merged units: the combined unit's Starting Strength is the sum, and it is below Half-strength exactly when
    fewer than half that many models remain (an odd Starting Strength's half is not a whole model)."""
    combined = concepts.merged_starting_strength(strengths)
    remaining = data.draw(st.integers(0, combined))
    assert combined == sum(strengths)
    assert concepts.below_half_strength(remaining, combined) == (Fraction(remaining) < Fraction(combined, 2))
    assert concepts.split_starting_strengths([remaining, combined - remaining]) == [remaining, combined - remaining]


@pytest.mark.refs("ninth:glossary/units-save-characteristic", "ninth:glossary/units-leadership-characteristic")
@NO_EXPLAIN
@given(st.lists(st.integers(2, 6), min_size=1, max_size=8), st.lists(st.integers(4, 10), min_size=1, max_size=8))
def test_unit_save_most_common_and_leadership_highest(saves, leaderships):
    """A unit's Save is (one of) its most common Save(s); its Leadership is the highest of its models'."""
    choices = datasheets.unit_save_choices(saves)
    assert all(saves.count(c) >= saves.count(s) for c in choices for s in saves)
    assert all(saves.count(s) < saves.count(next(iter(choices))) for s in set(saves) - choices)
    assert datasheets.unit_leadership(leaderships) == max(leaderships)


@pytest.mark.refs("ninth:concepts/re-rolls")
@NO_EXPLAIN
@given(faces, st.sets(st.integers(1, 3), max_size=3))
def test_d3_re_rolls_read_the_halved_value(face, results):
    """A rule re-rolling D3 results of 1 re-rolls a D6 of 1 or 2: whether a D3 is re-rolled depends on the halved
    value only."""
    assert concepts.d3_result_re_rolled(face, results) == (math.ceil(face / 2) in results)


@pytest.mark.refs("ninth:concepts/keywords", "ninth:glossary/keyword", "ninth:glossary/keywords-comma-separated-list",
                  "ninth:glossary/keywords-multiples", "ninth:glossary/non-keyword")
@NO_EXPLAIN
@given(st.sets(st.sampled_from(["INFANTRY", "VEHICLE", "TERMINATOR", "GUARDIAN", "AELDARI", "FLY"]), max_size=4),
       st.lists(st.sampled_from(["INFANTRY", "VEHICLE", "TERMINATOR", "GUARDIAN", "AELDARI"]), min_size=1,
                max_size=3))
def test_keyword_lists_any_adjacent_every_non_none(keywords, listed):
    """Pluralisation never matters; a comma/'or' list matches if any keyword does, adjacent keywords if every one
    does, a non-KEYWORD only what lacks it."""
    plural = [k + "S" for k in listed]
    assert concepts.matches_any_keyword(keywords, plural) == any(k in keywords for k in listed)
    assert concepts.matches_every_keyword(keywords, plural) == all(k in keywords for k in listed)
    assert concepts.matches_non_keyword(keywords, listed[0]) == (listed[0] not in keywords)
    assert concepts.can_fly(keywords) == ("FLY" in keywords)


@pytest.mark.refs("ninth:concepts/battlefield-quarters")
@NO_EXPLAIN
@given(st.fractions(-2, 46, max_denominator=2), st.fractions(-2, 62, max_denominator=2), st.booleans(), st.booleans())
@example(Fraction(0), Fraction(0), False, False)
@example(Fraction(44), Fraction(60), True, True)
@example(Fraction(22), Fraction(30), True, False)
@example(Fraction(22), Fraction(30), False, True)
@example(Fraction(-1), Fraction(10), False, False)
@example(Fraction(45), Fraction(10), True, False)
@example(Fraction(10), Fraction(-1), False, False)
@example(Fraction(10), Fraction(61), False, True)
@example(Fraction(1, 2), Fraction(1, 2), False, False)
@example(Fraction(43), Fraction(59), True, True)
def test_quarters_divided_through_the_centre(x, y, right, far):
    """A 44" by 60" battlefield divided by lines through its centre (22" across, 30" deep): a point of the
    battlefield lies in the quarter on its side of each line (on a line, in those either side); a point off the
    battlefield lies in none."""
    on_battlefield = 0 <= x <= 44 and 0 <= y <= 60
    side_across = x >= 22 if right else x <= 22
    side_along = y >= 30 if far else y <= 30
    result = concepts.in_battlefield_quarter(x, y, 44, 60, right, far)
    note(f"({x}, {y}) in quarter right={right} far={far}: {result}")
    assert result == (on_battlefield and side_across and side_along)


def _adding_before_multiplying(value, divide_by=(), multiply_by=(), add=(), subtract=()):
    exact = Fraction(value) + sum(add) - sum(subtract)
    for d in divide_by:
        exact /= d
    for m in multiply_by:
        exact *= m
    return math.ceil(exact)


# (property, module, attribute, broken copy)
BROKEN = [
    (test_modified_roll_applies_every_modifier_in_the_printed_order, concepts, "apply_modifiers",
     _adding_before_multiplying),
    (test_modified_roll_applies_every_modifier_in_the_printed_order, concepts, "apply_modifiers",
     _apply_rounding_each_step),
    (test_d33_reads_two_d3s_as_tens_and_units, concepts, "d33",
     lambda first_d6, second_d6: 10 * concepts.d3_by_halving(second_d6) + concepts.d3_by_halving(first_d6)),
    (test_maximum_and_minimum_values_are_the_extreme_rolls, glossary, "dice_maximum",
     lambda dice, sides, bonus=0: dice * (sides - 1) + bonus + 1),
    (test_maximum_and_minimum_values_are_the_extreme_rolls, glossary, "dice_minimum",
     lambda dice, sides, bonus=0: bonus + 1),
    (test_merged_units_below_half_strength_of_their_summed_starting_strength, concepts, "below_half_strength",
     lambda models_remaining, starting_strength: 2 * models_remaining <= starting_strength),
    (test_unit_save_most_common_and_leadership_highest, datasheets, "unit_save_choices",
     lambda saves: {min(saves)}),
    (test_d3_re_rolls_read_the_halved_value, concepts, "d3_result_re_rolled",
     lambda d6_face, results_to_re_roll: d6_face in set(results_to_re_roll)),
    (test_keyword_lists_any_adjacent_every_non_none, concepts, "_keyword", lambda word: word.strip().upper()),
    (test_quarters_divided_through_the_centre, concepts, "in_battlefield_quarter",
     lambda x, y, width, depth, right_half, far_half: And(
         If(right_half, 2 * x > width, 2 * x < width), If(far_half, 2 * y > depth, 2 * y < depth))),
]


@pytest.mark.parametrize("prop,module,attribute,mutant", BROKEN,
                         ids=[f"{b[0].__name__}:{b[2]}:{i}" for i, b in enumerate(BROKEN)])
def test_concepts_property_fails_for_a_broken_rule(monkeypatch, prop, module, attribute, mutant):
    broken_rules.assert_property_fails(monkeypatch, prop, module, attribute, mutant)


def test_concepts_properties_hold_unbroken():
    """The same properties pass on the real rules (so the failures above come from the mutants)."""
    broken_rules.assert_properties_hold(b[0] for b in BROKEN)


# -- Plain checks: exact chances, the printed lists --------------------------------------------------------------------


@pytest.mark.refs("ninth:concepts/roll-offs", "ninth:glossary/roll-off")
def test_roll_off_each_player_wins_half_the_time():
    """Ties are rolled again, so each player's chance is 15 wins in the 30 decided pairs of D6s: 1/2."""
    assert concepts.roll_off_win_chance(1) == concepts.roll_off_win_chance(2) == Fraction(1, 2)


def _printed_phases(text: str) -> list[str]:
    return [name.title() for name in re.findall(r"^\d\. ([A-Z]+) PHASE$", text, re.M)]


@pytest.mark.refs("ninth:battle-round")
def test_phase_order_is_the_printed_list_in_each_printing():
    """The reprint lists seven phases and the web page six (no Morale phase); next_phase walks each list in its
    printed order and ends the turn after its last phase."""
    section = spec.sections(RULESET)["battle-round"]
    for printing, text in ((Printing.REPRINT, section["text"]), (Printing.WEB, section["printings"]["web"]["text"])):
        printed = _printed_phases(text)
        assert [p.name.title() for p in battle_round.PHASES[printing]] == printed
        walked, phase = [], battle_round.PHASES[printing][0]
        while phase != battle_round.END_OF_TURN:
            walked.append(Phase(phase).name.title())
            phase = battle_round.next_phase(phase, printing)
        assert walked == printed
    assert len(battle_round.PHASES[Printing.REPRINT]) == 7 and len(battle_round.PHASES[Printing.WEB]) == 6


@pytest.mark.refs("ninth:datasheets/modifying-characteristics", "ninth:glossary/modifying-characteristics")
def test_floored_characteristics_are_the_printed_lists():
    """The reprint's bullet and glossary floor S, T, A and Ld; the web page's bullet adds I."""
    section = spec.sections(RULESET)["datasheets/modifying-characteristics"]
    names = {"S": Characteristic.S, "T": Characteristic.T, "A": Characteristic.A, "I": Characteristic.I,
             "Ld": Characteristic.LD}

    def floored(text: str) -> tuple:
        (listed,) = re.findall(r"^\W*([A-Za-z, ]+) can never be modified below 1\.", text, re.M)
        return tuple(names[n] for n in re.split(r",\s*|\s+and\s+", listed.strip()))

    assert floored(section["text"]) == datasheets.FLOORED_AT_ONE
    assert floored(section["printings"]["web"]["text"]) == datasheets.WEB_BULLET_FLOORED_AT_ONE
    for characteristic in Characteristic:
        assert datasheets.never_modified_below_one(characteristic) == (characteristic in datasheets.FLOORED_AT_ONE)


@pytest.mark.refs("ninth:datasheets/profiles", "ninth:datasheets/modifying-characteristics",
                  "ninth:glossary/null-characteristics")
def test_dash_characteristics():
    """'-' is never modified; a '-' Strength or Leadership uses Toughness instead; '-' Move, WS/A and BS forbid
    moving, fighting in melee and ranged attacks."""
    assert datasheets.modified_characteristic(Characteristic.S, "-", add=[2]) == "-"
    assert datasheets.characteristic_for_a_rule(Characteristic.LD, "-", toughness=5) == 5
    assert datasheets.characteristic_for_a_rule(Characteristic.A, "-", toughness=5) == "-"
    assert not datasheets.can_move("-") and datasheets.can_move(6)
    assert not datasheets.can_fight_in_melee(3, "-") and not datasheets.can_fight_in_melee("-", 2)
    assert not datasheets.can_make_ranged_attacks("-") and datasheets.can_make_ranged_attacks(4)


@pytest.mark.refs("ninth:datasheets/modifying-characteristics")
def test_replacement_comes_before_modifiers():
    """A characteristic replaced by a value is modified from the new value (replace Toughness 4 by 6, then -1:
    5, not 3)."""
    assert datasheets.modified_characteristic(Characteristic.T, 4, replaced_by=6, subtract=[1]) == 5


@pytest.mark.refs("ninth:datasheets/weapons")
def test_bad_weapon_strength_is_refused_with_its_value():
    """A weapon Strength that is not 'User', a number, '+N', '-N' or 'xN' is refused, naming the value."""
    with pytest.raises(ValueError, match="'S9'"):
        datasheets.attack_strength("S9", 4)


@pytest.mark.refs("ninth:concepts/sequencing")
def test_sequencing_table_covers_exactly_the_moments_that_occur():
    """A start or end of a battle round is during the battle; the table's domain is the three moments that can
    occur (before or after the battle, during a turn, at the start or end of a battle round), and the roll-off
    row answers both moments outside a turn."""
    moments = [(m["during_the_battle"], m["at_start_or_end_of_a_battle_round"])
               for m in concepts.SEQUENCING.concrete_domain()]
    assert sorted(moments) == [(False, False), (True, False), (True, True)]
    assert [concepts.who_orders_simultaneous_rules(*m) for m in sorted(moments)] == [
        concepts.ROLL_OFF, concepts.TURN_PLAYER, concepts.ROLL_OFF]


@pytest.mark.refs("ninth:concepts/keywords")
def test_unchosen_keyword_is_refused():
    """A <KEYWORD> in angle brackets that the player has not chosen a value for is refused, naming it."""
    with pytest.raises(ValueError, match="<CHAPTER>"):
        concepts.chosen_keyword("<CHAPTER>", {})


@pytest.mark.refs("ninth:datasheets/modifying-characteristics")
def test_characteristic_that_is_neither_number_nor_dash_is_refused():
    """A characteristic that is neither a number nor '-' is refused, naming the value."""
    with pytest.raises(ValueError, match="'x'"):
        datasheets.modified_characteristic(Characteristic.S, "x")
