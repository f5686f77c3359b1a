"""Hypothesis properties of chapters 01-03, each paired with a broken rule that makes it fail."""

from __future__ import annotations

from fractions import Fraction

import pytest
import z3
from hypothesis import given, note
from hypothesis import strategies as st

from properties import strategies as s
from rules import dice, logic
from rules.core import core_concepts, datasheets, moving
from rules.model import Placed, PlacedUnit


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


# -- Each property fails for a broken rule -----------------------------------------------------


BROKEN = [
    (test_dice_distributions_are_exact, dice, "d3", lambda: {1: Fraction(1, 2), 2: Fraction(1, 3), 3: Fraction(1, 3)}),
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
