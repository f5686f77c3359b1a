"""Hypothesis properties of chapters 01-03, each paired with a broken rule that makes it fail."""

from __future__ import annotations

from fractions import Fraction

import pytest
import z3
from hypothesis import example, given, note
from hypothesis import strategies as st

from properties import strategies as s
from rules import dice, logic
from rules.core import core_concepts, datasheets, moving
from rules.model import Placed


@pytest.mark.refs("01.05")
@given(s.dice_expressions())
def test_dice_distributions_are_exact(expression):
    """01.05: every dice expression is a distribution summing to exactly 1, over min..max, with the right mean."""
    parsed = dice.parse(expression)
    dist = dice.distribution(expression)
    note(f"{expression} -> {dist}")
    assert dice.is_distribution(dist)
    assert min(dist) == parsed.minimum and max(dist) == parsed.maximum
    assert dice.expected(dist) == parsed.count * Fraction(parsed.sides + 1, 2) + parsed.bonus


#: Every expression ``parse`` can return: a constant (0 or more, counted in D6 as parse counts it), or one to
#: four D3 or D6 with a bonus of either sign ("D6-1" reads as well as "D6+1").
_EXPRESSIONS = st.one_of(st.builds(dice.DiceExpression, st.just(0), st.just(6), st.integers(0, 12)),
                         st.builds(dice.DiceExpression, st.integers(1, 4), st.sampled_from([3, 6]), st.integers(-6, 6)))


@pytest.mark.refs("01.05")
@given(_EXPRESSIONS)
@example(dice.DiceExpression(0, 6, 0))
@example(dice.DiceExpression(1, 6, 1))
@example(dice.DiceExpression(2, 3, -1))
def test_dice_expressions_print_as_datasheets_print_them(expression):
    """01.05: an expression prints in the form a datasheet gives it ("D6", "2D3-1", "4"), which reads back as the
    same expression, and the number 4 is the same expression as the text "4"."""
    text = str(expression)
    note(text)
    assert dice.parse(text) == expression
    assert not text.startswith("1D") and not text.endswith(("+0", "-0"))
    if expression.count == 0:
        assert dice.parse(expression.bonus) == expression


@pytest.mark.refs("01.05")
@given(st.one_of(st.integers(max_value=-1), st.booleans(), st.none(),
                 st.sampled_from(["", "  ", "D", "D4", "2D", "0D6", "D6+", "+", "six", "1.5", "D6x"])))
def test_what_is_no_dice_expression_is_refused(text):
    """01.05: a negative number, true/false, or text of none of the forms D3, D6, 2D6, D6+1, 3 is refused as such
    (a DiceError, never some other error from deeper in the code)."""
    with pytest.raises(dice.DiceError):
        dice.parse(text)


@pytest.mark.refs("01.05")
@given(s.dice_expressions(), st.integers(1, 7))
def test_a_roll_of_n_or_more_counts_the_totals_that_meet_it(expression, n):
    """01.05: every total from the least to the most an expression can roll comes up, and the chance of "N+" is
    the chance of the totals of N or more (on one D6, 3+ is 4 in 6)."""
    dist = dice.distribution(expression)
    parsed = dice.parse(expression)
    assert sorted(dice.outcomes(expression)) == list(range(parsed.minimum, parsed.maximum + 1))
    chance = dice.probability(dist, lambda total: dice.meets_threshold(total, n))
    assert chance == sum((p for total, p in dist.items() if total >= n), Fraction(0))
    assert dice.probability(dist, lambda total: False) == 0
    assert dice.probability(dice.distribution("D6"), lambda face: dice.meets_threshold(face, n)) == Fraction(7 - n, 6)


@pytest.mark.refs("01.05")
@given(s.dice_expressions(), st.integers(31, 40))
def test_a_distribution_is_whole_and_never_negative(expression, impossible):
    """A total listed with chance 0 keeps a distribution one; a negative chance spoils it even when the chances
    still add up to exactly 1. (31 and more: no expression drawn here reaches 4D6+6 = 30.)"""
    dist = dice.distribution(expression)
    assert dice.is_distribution({**dist, impossible: Fraction(0)})
    low = min(dist)
    skewed = {**dist, low: dist[low] + 1, impossible: Fraction(-1)}
    assert sum(skewed.values()) == 1 and not dice.is_distribution(skewed)


def _shift(models, dx, dy):
    return [Placed(m.x + dx, m.y + dy, m.base_mm, m.z, m.name, m.owner) for m in models]


@pytest.mark.refs("03.03")
@given(s.units(min_size=2, max_size=5, spread=10), st.randoms(use_true_random=False), s.inches(high=30), s.inches(high=30))
def test_coherency_ignores_order_and_position(unit, rnd, dx, dy):
    """03.03: coherency depends on the models' relative positions only."""
    models = list(unit.models)
    shuffled = models[:]
    rnd.shuffle(shuffled)
    assert moving.in_coherency(models) == moving.in_coherency(shuffled) == moving.in_coherency(_shift(models, dx, dy))


@pytest.mark.refs("03.03")
@given(s.units(min_size=1, max_size=6, spread=20), st.randoms(use_true_random=False))
def test_regaining_coherency_always_ends_coherent(unit, rnd):
    """03.03: removing models in any order the player picks ends with a coherent unit and nothing lost track of."""
    order = list(range(len(unit.models)))
    rnd.shuffle(order)
    kept, removed = moving.regain_coherency(unit.models, order)
    note(f"kept {len(kept)}, removed {len(removed)}")
    assert moving.in_coherency(kept)
    assert sorted(map(id, kept + removed)) == sorted(map(id, unit.models))
    assert len(kept) >= 1


@pytest.mark.refs("03.04")
@given(s.units(max_size=3, owner=1, height=6), s.units(max_size=3, owner=2, height=6))
def test_engagement_is_mutual(unit, enemy):
    """03.04: if my unit is engaged with yours, yours is engaged with mine."""
    assert moving.units_engaged(unit, enemy) == moving.units_engaged(enemy, unit)


def _real(value: Fraction) -> z3.ArithRef:
    return z3.Q(value.numerator, value.denominator)


@pytest.mark.refs("03.03", "01.04")
@given(s.units(min_size=2, max_size=4, spread=8, height=6))
def test_coherency_is_the_same_concretely_and_in_z3(unit):
    """Same code, two backends: in_coherency on Fractions equals its z3 term evaluated at the same point."""
    symbols = [(z3.Real(f"x{i}"), z3.Real(f"y{i}"), z3.Real(f"z{i}")) for i in range(len(unit.models))]
    symbolic = [Placed(x, y, m.base_mm, z) for (x, y, z), m in zip(symbols, unit.models)]
    term = moving.in_coherency(symbolic)
    subst = []
    for (x, y, z), m in zip(symbols, unit.models):
        subst += [(x, _real(m.x)), (y, _real(m.y)), (z, _real(m.z))]
    assert z3.is_true(z3.simplify(z3.substitute(term, *subst))) == moving.in_coherency(unit.models)


@pytest.mark.refs("01.06")
@given(s.leaderships(), st.integers(2, 12))
def test_leadership_chance_never_falls_when_a_model_joins(lds, extra):
    """01.06: adding a model (another Ld to beat) never lowers the chance of passing."""
    with_extra = core_concepts.leadership_roll_chance(lds + [extra])
    assert with_extra >= core_concepts.leadership_roll_chance(lds)
    assert 0 <= with_extra <= 1


_VALID_PROFILE = {"name": "Trooper", "M": '6"', "T": 4, "Sv": "3+", "W": 2, "Ld": "6+", "OC": 2}
_IMPOSSIBLE = st.one_of(
    st.tuples(st.just("Sv"), st.sampled_from(["1+", "7+", "0", "x"])),
    st.tuples(st.just("W"), st.sampled_from([0, -2, "two"])),
    st.tuples(st.just("T"), st.sampled_from([0, -1])),
    st.tuples(st.just("Ld"), st.sampled_from(["13+", "1+"])),
    st.tuples(st.just("OC"), st.sampled_from([-2, "-3"])),
    st.tuples(st.just("M"), st.sampled_from(["-2", "fast"])),
)


@pytest.mark.refs("02.02")
@given(_IMPOSSIBLE)
def test_impossible_characteristics_are_rejected(bad):
    """02.02: a profile no datasheet could print is refused, with the place named."""
    key, value = bad
    with pytest.raises(datasheets.DatasheetError, match=key):
        datasheets.read_profile({**_VALID_PROFILE, key: value}, "test profile")


@pytest.mark.refs("02.07")
@given(st.lists(st.sampled_from(["Bolt rifle", "Bolt pistol", "Chainsword", "Grenade"]), min_size=1, max_size=4),
       st.lists(st.sampled_from(["Plasma gun", "Power fist"]), max_size=2))
def test_wargear_option_swaps_exactly_the_named_items(loadout, new_items):
    """02.07: an option removes one of each replaced item and adds each new one, nothing else."""
    from rules.model import WargearOption

    option = WargearOption("Trooper", (loadout[0],), tuple(new_items))
    after = datasheets.apply_wargear_option(loadout, option)
    assert len(after) == len(loadout) - 1 + len(new_items)
    assert sorted(after) == sorted(loadout[1:] + new_items)


@pytest.mark.refs("01.01", "01.03")
@given(st.integers(-2, 5))
@example(1)
@example(2)
@example(3)
def test_a_battle_is_between_players_1_and_2(player):
    """Two players, each the other's opponent (01.03): a battle begins with either of them taking the first
    turn, and with no other number, which is refused."""
    from rules.core import battle_round

    if player in (1, 2):
        state = battle_round.begin_battle(player)
        assert (state.first_player, state.turn_player) == (player, player)
        assert core_concepts.opposing_player(player) in (1, 2)
    else:
        with pytest.raises(ValueError):
            battle_round.begin_battle(player)


# -- Each property fails for a broken rule -----------------------------------------------------


BROKEN = [
    (test_dice_distributions_are_exact, dice, "d3", lambda: {1: Fraction(1, 2), 2: Fraction(1, 3), 3: Fraction(1, 3)}),
    (test_dice_expressions_print_as_datasheets_print_them, dice.DiceExpression, "__str__",
     lambda self: f"{self.count}D{self.sides}+{self.bonus}"),
    (test_what_is_no_dice_expression_is_refused, dice, "parse", lambda text: dice.DiceExpression(0, 6, 0)),
    (test_a_roll_of_n_or_more_counts_the_totals_that_meet_it, dice, "probability",
     lambda dist, event: sum((p for v, p in dist.items() if event(v + 1)), Fraction(0))),
    (test_a_distribution_is_whole_and_never_negative, dice, "is_distribution",
     lambda dist: sum(dist.values(), Fraction(0)) == 1),
    (test_coherency_ignores_order_and_position, moving, "in_coherency",
     lambda models: models[0].x <= models[-1].x),
    (test_regaining_coherency_always_ends_coherent, moving, "regain_coherency",
     lambda models, order: (list(models), [])),
    (test_engagement_is_mutual, moving, "units_engaged",
     lambda unit, enemy: unit.owner == 1 and bool(unit.models) and bool(enemy.models)),
    (test_leadership_chance_never_falls_when_a_model_joins, core_concepts, "leadership_roll_succeeds",
     lambda result, leaderships: logic.And(*(result >= ld for ld in leaderships))),
    (test_impossible_characteristics_are_rejected, datasheets, "read_profile", lambda data, where: data),
    (test_wargear_option_swaps_exactly_the_named_items, datasheets, "apply_wargear_option",
     lambda loadout, option: tuple(loadout) + tuple(option.with_)),
    (test_a_battle_is_between_players_1_and_2, core_concepts, "PLAYERS", (1, 2, 3)),
]


@pytest.mark.parametrize("prop,module,attribute,mutant", BROKEN, ids=[b[0].__name__ for b in BROKEN])
def test_property_fails_for_a_broken_rule(monkeypatch, prop, module, attribute, mutant):
    monkeypatch.setattr(module, attribute, mutant)
    with pytest.raises((Exception, pytest.fail.Exception)):
        prop()


def test_cross_backend_property_fails_for_a_python_only_shortcut(monkeypatch):
    """A rule written with Python ``and`` (wrong on z3 values) breaks the two-backend agreement."""
    original = moving.in_coherency

    def shortcut(models):
        if any(logic.is_symbolic(m.x) for m in models):
            return z3.BoolVal(True)
        return original(models)

    monkeypatch.setattr(moving, "in_coherency", shortcut)
    with pytest.raises((Exception, pytest.fail.Exception)):
        test_coherency_is_the_same_concretely_and_in_z3()
