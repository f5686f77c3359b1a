"""999.m41's General Principles, Models and Units and The Turn (ruleset ``m41``): the z3 proofs of
properties/proofs_m41_principles.py (each failing for a broken copy of the rule it rests on), hypothesis properties
(each failing for a broken rule), exact odds worked from the text, and the printed profile against the ingested
text."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import pytest
from hypothesis import Phase as Stage
from hypothesis import given, note, settings
from hypothesis import strategies as st

from properties import broken_rules
from properties import proofs
from properties import proofs_m41_principles
from rules import spec
from rules.logic import And, If, Max, Or
from rules.m41 import models, principles, turn
from rules.m41.models import Characteristic
from rules.m41.principles import Part, ScatterFace, Template

MINE = broken_rules.proofs_built_in(proofs_m41_principles)
NO_EXPLAIN = settings(phases=[stage for stage in Stage if stage != Stage.explain])


# -- Proofs ---------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", MINE)
def test_principles_proof_has_its_expected_verdict(name):
    broken_rules.assert_expected_verdict(name)


def _adding_after_multiplying(value, set_to=None, add=(), subtract=(), multiply=(), divide=()):
    """Multiplication and division before addition and subtraction: the order of earlier editions."""
    result = value if set_to is None else set_to
    for factor in multiply:
        result = result * factor
    for divisor in divide:
        result = models._divided_rounding_up(result, divisor)
    for bonus in add:
        result = result + bonus
    for penalty in subtract:
        result = result - penalty
    return result


def _dividing_rounding_down(value, set_to=None, add=(), subtract=(), multiply=(), divide=()):
    result = value if set_to is None else set_to
    for bonus in add:
        result = result + bonus
    for penalty in subtract:
        result = result - penalty
    for factor in multiply:
        result = result * factor
    for divisor in divide:
        result = result / divisor if models.is_symbolic(result, divisor) else result // divisor
    return result


# (proof, module, attribute, broken copy): each a plausible slip that must turn the proof "disproved".
MUTANTS = [
    ("m41-d3-is-a-d6-halved-rounding-up", principles, "d3_from_d6",
     lambda face: If(face <= 1, 1, If(face <= 3, 2, 3))),
    ("m41-d66-tens-then-ones", principles, "d66", lambda first_die, second_die: 10 * second_die + first_die),
    ("m41-nd6-adds-the-dice", principles, "dice_total", lambda faces: Max(*faces) * len(faces)),
    ("m41-distance-closest-point-to-closest-point", principles, "distance_between_objects",
     lambda point_to_point_distances: Max(*point_to_point_distances)),
    ("m41-measuring-only-in-its-phase", principles, "may_measure",
     lambda phase_the_distance_is_for, current_phase, only_to_check=False: phase_the_distance_is_for
     == current_phase),
    ("m41-penalty-raises-the-threshold", principles, "modified_threshold",
     lambda threshold, bonus, roll_under=False: threshold + bonus),
    ("m41-re-roll-once-and-the-second-counts", principles, "result_after_re_roll",
     lambda first_roll, second_roll, re_rolled: If(re_rolled, Max(first_roll, second_roll), first_roll)),
    ("m41-re-roll-once-and-the-second-counts", principles, "may_re_roll",
     lambda times_already_re_rolled: times_already_re_rolled <= 1),
    ("m41-scatter-hit-stays-arrow-moves-2d6", principles, "scatter_distance",
     lambda face, two_d6, modifier=0: Max(0, two_d6 + modifier)),
    ("m41-casualties-at-the-end-of-the-game", principles, "counts_as_casualty",
     lambda removed_as_casualty, removed_from_play=False, game_over=False, falling_back=False, on_the_table=True:
         Or(removed_as_casualty, removed_from_play)),
    ("m41-game-turn-is-both-player-turns", principles, "PLAYER_TURNS_PER_GAME_TURN", 1),
    ("m41-modifiers-set-add-subtract-multiply-divide", models, "apply_modifiers", _adding_after_multiplying),
    ("m41-modifiers-set-add-subtract-multiply-divide", models, "apply_modifiers", _dividing_rounding_down),
    ("m41-modified-characteristics-within-their-bounds", models, "INITIATIVE_FLOOR", 0),
    ("m41-modified-characteristics-within-their-bounds", models, "UNCAPPED", (Characteristic.A,)),
    ("m41-modified-characteristics-within-their-bounds", models, "armour_save", lambda value: value),
    ("m41-zero-strength-toughness-or-wounds-removes", models, "removed_for_zero_characteristics",
     lambda strength, toughness, wounds: Or(strength < 0, toughness <= 0, wounds <= 0)),
    ("m41-zero-strength-toughness-or-wounds-removes", models, "can_strike_blows",
     lambda weapon_skill, attacks: attacks > 0),
    ("m41-characteristic-test-six-fails-one-passes", models, "passes_characteristic_test",
     lambda roll, value: roll <= value),
    ("m41-leadership-twelve-fails-two-passes", models, "passes_leadership_test",
     lambda first_die, second_die, leadership: first_die + second_die <= leadership),
    ("m41-save-passes-at-or-over-natural-one-fails", models, "passes_save", lambda roll, save: roll >= save),
    ("m41-lower-armour-save-is-better", models, "is_better", lambda characteristic, value, than: value > than),
    ("m41-who-acts-in-each-phase", turn, "may_shoot", lambda attacking, overwatching=False: attacking),
    ("m41-first-turn-roll-is-fair", turn, "chooses_first_or_second",
     lambda first_roll, second_roll: If(first_roll >= second_roll, 1, 2)),
    ("m41-game-ends-not-before-six-rounds", turn, "MINIMUM_GAME_ROUNDS", 5),
]


def test_every_proved_principles_proof_has_a_mutant():
    broken_rules.assert_every_proved_proof_has_a_mutant(MINE, MUTANTS)


@pytest.mark.parametrize("name,module,attribute,mutant", MUTANTS,
                         ids=[f"{m[0]}:{m[2]}:{i}" for i, m in enumerate(MUTANTS)])
def test_principles_proof_catches_a_broken_rule(monkeypatch, name, module, attribute, mutant):
    broken_rules.assert_proof_catches(monkeypatch, name, module, attribute, mutant)


# A finding's proof turns "proved" when the rule is bent to the text it contradicts.
FINDING_BENDS = [
    ("m41-saves-as-the-characteristic-tests-they-are-called", models, "passes_save",
     lambda roll, save: And(roll != 1, roll != 6, roll >= save)),
    ("m41-six-turns-minimum-as-the-turn-terminology-reads", turn, "MINIMUM_GAME_ROUNDS", 3),
]


@pytest.mark.parametrize("name,module,attribute,bent", FINDING_BENDS, ids=[b[0] for b in FINDING_BENDS])
def test_principles_finding_holds_only_for_the_text_it_contradicts(monkeypatch, name, module, attribute, bent):
    """A finding's proof is disproved by the code and proved once the rule is bent to the contradicting text, so the
    counterexample comes from the contradiction, not from the proof."""
    monkeypatch.setattr(module, attribute, bent)
    assert proofs.check(proofs.PROOFS[name]).status == "proved"


# -- Hypothesis properties --------------------------------------------------------------------------------------------

save_values = st.integers(2, 6)


@pytest.mark.refs("m41:models/saving-throws")
@NO_EXPLAIN
@given(st.lists(save_values, min_size=1, max_size=5))
def test_successive_saves_best_first_each_one_worse_never_past_six(saves):
    """A model takes all its saves, the best (lowest) first, each later one at a further -1, never reduced beyond
    6+: the n-th save taken (from 0) is min(6, the n-th best save + n)."""
    taken = models.successive_saves(saves)
    note(f"{saves} -> {taken}")
    assert len(taken) == len(saves)
    assert taken[0] == min(saves)
    assert taken == [min(6, save + index) for index, save in enumerate(sorted(saves))]
    assert all(value <= 6 for value in taken)


@pytest.mark.refs("m41:models/saving-throws")
@NO_EXPLAIN
@given(st.lists(save_values, min_size=1, max_size=5), st.data())
def test_removing_a_save_never_raises_the_chance_of_surviving(saves, data):
    """Taking one save fewer never makes a wound likelier to be discarded, and the chance is that of at least one
    of the successive saves passing: 1 minus the product of their failures."""
    chance = models.chance_wound_is_saved(saves)
    fails = Fraction(1)
    for index, save in enumerate(sorted(saves)):
        fails *= 1 - Fraction(6 - max(2, min(6, save + index)) + 1, 6)
    assert chance == 1 - fails
    removed = data.draw(st.integers(0, len(saves) - 1))
    fewer = saves[:removed] + saves[removed + 1:]
    note(f"{saves} without #{removed}: {chance} vs {models.chance_wound_is_saved(fewer)}")
    assert models.chance_wound_is_saved(fewer) <= chance


@pytest.mark.refs("m41:models/multiple-modifiers", "m41:models/modifiers")
@NO_EXPLAIN
@given(st.sampled_from(list(Characteristic)), st.integers(0, 10), st.one_of(st.none(), st.integers(0, 10)),
       st.lists(st.integers(0, 4), max_size=2), st.lists(st.integers(0, 4), max_size=2),
       st.lists(st.integers(1, 3), max_size=2), st.lists(st.integers(1, 3), max_size=2))
def test_modified_characteristic_in_the_printed_order_then_bounded(characteristic, value, set_to, add, subtract,
                                                                     multiply, divide):
    """Several modifiers of each kind: set, every addition, every subtraction, every multiplication, every division
    (each rounding up), then the bounds (I at least 1, Sv at least 2, the rest at least 0, only A and W past 10)."""
    exact = Fraction(value if set_to is None else set_to) + sum(add) - sum(subtract)
    exact *= math.prod(multiply)
    for divisor in divide:
        exact = Fraction(math.ceil(exact / divisor))
    floor = {Characteristic.I: 1, Characteristic.SV: 2}.get(characteristic, 0)
    expected = max(floor, int(exact))
    if characteristic not in (Characteristic.A, Characteristic.W):
        expected = min(expected, 10) if characteristic != Characteristic.SV else max(2, min(int(exact), 10))
    result = models.modified_characteristic(characteristic, value, set_to, add, subtract, multiply, divide)
    note(f"{characteristic.name} {value} set {set_to} +{add} -{subtract} *{multiply} /{divide} = {result}")
    assert result == expected


@pytest.mark.refs("m41:principles/scatter", "m41:principles/scatter-dice")
@NO_EXPLAIN
@given(st.integers(-6, 6))
def test_scatter_distance_distribution_sums_to_one(modifier):
    """The scatter's distance over every face of the scatter dice and every 2d6 total sums to exactly one, stays put
    at least on a Hit! (1/3 with two Hit! faces of six), never moves a negative distance and never farther than 12 plus the modifier."""
    dist = principles.scatter_distance_distribution(modifier)
    note(str(dist))
    assert sum(dist.values()) == 1 and all(p > 0 for p in dist.values())
    assert min(dist) >= 0
    assert dist.get(0, 0) >= Fraction(1, 3)
    assert max(dist) == max(0, 12 + modifier)
    assert dist[max(dist)] == Fraction(4, 6) * Fraction(1, 36)  # an arrow (4 faces of 6) and a double 6


BROKEN = [
    (test_successive_saves_best_first_each_one_worse_never_past_six, models, "WORST_REDUCED_SAVE", 7),
    (test_successive_saves_best_first_each_one_worse_never_past_six, models, "successive_saves",
     lambda saves: [min(6, s + i) for i, s in enumerate(saves)]),
    (test_removing_a_save_never_raises_the_chance_of_surviving, models, "passes_save",
     lambda roll, save: roll > save),
    (test_removing_a_save_never_raises_the_chance_of_surviving, models, "successive_saves",
     lambda saves: sorted(saves, reverse=True)),
    (test_modified_characteristic_in_the_printed_order_then_bounded, models, "apply_modifiers",
     _adding_after_multiplying),
    (test_modified_characteristic_in_the_printed_order_then_bounded, models, "CAP", 12),
    (test_modified_characteristic_in_the_printed_order_then_bounded, models, "BEST_ARMOUR_SAVE", 3),
    (test_scatter_distance_distribution_sums_to_one, principles, "SCATTER_DICE_HIT_FACES", 1),
    (test_scatter_distance_distribution_sums_to_one, principles, "scatter_distance",
     lambda face, two_d6, modifier=0: If(face == ScatterFace.HIT, 0, two_d6 + modifier)),
]


@pytest.mark.parametrize("prop,module,attribute,mutant", BROKEN,
                         ids=[f"{b[0].__name__}:{b[2]}:{i}" for i, b in enumerate(BROKEN)])
def test_principles_property_fails_for_a_broken_rule(monkeypatch, prop, module, attribute, mutant):
    broken_rules.assert_property_fails(monkeypatch, prop, module, attribute, mutant)


def test_principles_properties_hold_unbroken():
    """The same properties pass on the real rules (so the failures above come from the mutants)."""
    broken_rules.assert_properties_hold(b[0] for b in BROKEN)


# -- The modifier order matters ----------------------------------------------------------------------------------------

OPERATIONS = ("set", "add", "subtract", "multiply", "divide")


def _in_order(order, value, set_to, bonus, penalty, factor, divisor):
    """One modifier of each kind applied in ``order`` (dividing rounds up), computed independently of the code."""
    result = value
    for op in order:
        result = {"set": lambda r: set_to, "add": lambda r: r + bonus, "subtract": lambda r: r - penalty,
                  "multiply": lambda r: r * factor, "divide": lambda r: math.ceil(Fraction(r, divisor))}[op](result)
    return result


SMALL_CASES = list(itertools.product(range(0, 4), range(0, 4), range(0, 3), range(0, 3), range(1, 4), range(1, 4)))


@pytest.mark.refs("m41:models/multiple-modifiers")
def test_the_modifier_order_matters_every_other_order_differs_somewhere():
    """Of the 120 orders of set, add, subtract, multiply and divide, the printed one agrees with the code on every
    small case, and every other order gives a different answer on some case, except the one that only swaps add
    and subtract (adding and subtracting commute, so it agrees everywhere)."""
    printed = OPERATIONS
    for value, set_to, bonus, penalty, factor, divisor in SMALL_CASES:
        assert models.apply_modifiers(value, set_to, [bonus], [penalty], [factor], [divisor]) == \
            _in_order(printed, value, set_to, bonus, penalty, factor, divisor)
    agreeing = [order for order in itertools.permutations(OPERATIONS)
                if all(_in_order(order, *case) == _in_order(printed, *case) for case in SMALL_CASES)]
    assert agreeing == [printed, ("set", "subtract", "add", "multiply", "divide")]
    reverse = tuple(reversed(printed))
    differing = next(case for case in SMALL_CASES if _in_order(reverse, *case) != _in_order(printed, *case))
    assert differing


# -- Exact odds worked from the text --------------------------------------------------------------------------------


@pytest.mark.refs("m41:models/leadership-tests")
def test_leadership_test_odds_for_every_leadership():
    """2d6 at most Ld passes, 12 fails and 2 passes: Ld 2 passes only on double 1 (1/36); Ld 7 on the 21 pairs of 7
    or less (7/12); Ld 11 and Ld 12 both on 35 of 36 (the 12 fails)."""
    ways = {total: 6 - abs(total - 7) for total in range(2, 13)}
    for leadership in range(2, 13):
        expected = Fraction(sum(n for total, n in ways.items() if total <= leadership and total != 12), 36)
        assert models.leadership_test_chance(leadership) == expected
    assert models.leadership_test_chance(2) == Fraction(1, 36)
    assert models.leadership_test_chance(7) == Fraction(21, 36)
    assert models.leadership_test_chance(11) == models.leadership_test_chance(12) == Fraction(35, 36)
    assert models.leadership_test_chance(0) == Fraction(1, 36)


@pytest.mark.refs("m41:models/characteristic-tests")
def test_characteristic_test_odds():
    """A d6 at most the value passes, a 6 fails and a 1 passes: value 0 or 1 passes 1 in 6, value 4 passes 4 in 6,
    values 5 and above 5 in 6."""
    assert [models.characteristic_test_chance(v) for v in range(0, 8)] == \
        [Fraction(n, 6) for n in (1, 1, 2, 3, 4, 5, 5, 5)]


@pytest.mark.refs("m41:models/saving-throws")
def test_save_odds_and_two_saves():
    """A 2+ save passes 5 in 6, a 6+ 1 in 6; a 3+ armour save then a 5+ (taken at -1, as a 6+): the wound gets
    through both with 2/6 * 5/6 = 10/36, so 26/36 = 13/18 is discarded."""
    assert [models.save_chance(s) for s in range(2, 7)] == [Fraction(n, 6) for n in (5, 4, 3, 2, 1)]
    assert models.chance_wound_is_saved([5, 3]) == Fraction(13, 18)
    assert models.successive_saves([6, 6, 6]) == [6, 6, 6]


@pytest.mark.refs("m41:principles/d66", "m41:principles/d3", "m41:principles/d6-and-2d6")
def test_dice_outcomes():
    """A d66 has 36 outcomes 11..66 with no 0s or 7s and above; a d3 is 1, 2, 3 each 1/3; 2d6 is 7 one time in 6."""
    outcomes = principles.d66_outcomes()
    assert len(outcomes) == len(set(outcomes)) == 36
    assert sorted(outcomes) == [10 * t + o for t in range(1, 7) for o in range(1, 7)]
    assert principles.d3_distribution() == {1: Fraction(1, 3), 2: Fraction(1, 3), 3: Fraction(1, 3)}
    two = principles.nd6_distribution(2)
    assert two[7] == Fraction(1, 6) and min(two) == 2 and max(two) == 12 and sum(two.values()) == 1
    assert principles.nd6_distribution(1) == {f: Fraction(1, 6) for f in range(1, 7)}
    with pytest.raises(ValueError):
        principles.nd6_distribution(0)


@pytest.mark.refs("m41:principles/re-rolls")
def test_re_rolling_failures_odds():
    """Re-rolling a failed 4+ once: 1/2 + 1/2 * 1/2 = 3/4; a failed 6+: 1/6 + 5/6 * 1/6 = 11/36."""
    assert principles.pass_chance_re_rolling_failures(4) == Fraction(3, 4)
    assert principles.pass_chance_re_rolling_failures(6) == Fraction(11, 36)


@pytest.mark.refs("m41:principles/line-of-sight")
def test_line_of_sight_from_body_to_body_only():
    """A line from the viewer's body to any part of the target's body gives sight; a line to or from only a base or
    wargear (a banner, wings, a tail past the base) does not."""
    assert principles.has_line_of_sight([(Part.HEAD, Part.LEGS)])
    assert principles.has_line_of_sight([(Part.BASE, Part.TORSO), (Part.ARMS, Part.ARMS)])
    assert not principles.has_line_of_sight([(Part.HEAD, Part.BASE), (Part.TORSO, Part.WARGEAR)])
    assert not principles.has_line_of_sight([(Part.WARGEAR, Part.HEAD)])
    assert not principles.has_line_of_sight([])


@pytest.mark.refs("m41:principles/blast-markers-and-templates")
def test_template_sizes_as_printed():
    """The small blast is 3" across, the large 5", the teardrop 8 1/4" long."""
    assert [principles.template_size(t) for t in Template] == [3, 5, Fraction(33, 4)]


@pytest.mark.refs("m41:models/characteristic-profile")
def test_space_marine_profile_as_printed():
    """The profile's header and the Space Marine's row, read from the ingested text, are the code's order and
    values (Sv 3+ as 3)."""
    text = spec.sections("m41")["models/characteristic-profile"]["text"]
    header = next(line for line in text.splitlines() if line.startswith("WS "))
    row = next(line for line in text.splitlines() if line.startswith("Space Marine"))
    assert header.split() == ["WS", "BS", "S", "T", "W", "I", "A", "Ld", "Sv"]
    assert [c.name for c in models.PROFILE_ORDER] == [h.upper() for h in header.split()]
    values = [int(v.rstrip("+")) for v in row.split()[2:]]
    assert models.profile(*values) == models.SPACE_MARINE


@pytest.mark.refs("m41:turn/a-game-round", "m41:turn/attacking-and-defending-players",
                  "m41:turn/the-three-phases")
def test_a_game_round_as_printed():
    """The first player's turn, then the second's, each movement, shooting, assault; the attacking player is the one
    whose turn it is."""
    assert [turn.attacking_player(n) for n in (1, 2)] == [turn.FIRST_PLAYER, turn.SECOND_PLAYER]
    assert turn.phases_of_a_player_turn() == (principles.Phase.MOVEMENT, principles.Phase.SHOOTING,
                                              principles.Phase.ASSAULT)
    assert turn.is_attacking_player(2, 2) and not turn.is_attacking_player(1, 2)


@pytest.mark.refs("m41:models/zero-level-characteristics")
def test_no_armour_save_and_zero_weapon_skill():
    """An Armour Save of '-' is no save at all; a 6+ is a save."""
    assert not models.has_armour_save(None) and models.has_armour_save(6)
