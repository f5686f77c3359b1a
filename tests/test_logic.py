"""rules.logic: the same code runs concretely and symbolically, and table checks catch broken tables."""

from __future__ import annotations

import dataclasses
import itertools

import pytest
import z3

from rules import dice, logic
from rules.core import core_concepts
from rules40k import checks


def test_operations_agree_on_both_backends():
    x, y = z3.Ints("x y")
    for a, b in itertools.product(range(-3, 4), repeat=2):
        cases = {
            "If": (logic.If(a < b, a, b), logic.If(x < y, x, y)),
            "Min": (logic.Min(a, b, 0), logic.Min(x, y, 0)),
            "Max": (logic.Max(a, b, 0), logic.Max(x, y, 0)),
            "Clamp": (logic.Clamp(a, -1, 1), logic.Clamp(x, -1, 1)),
            "And": (logic.And(a > 0, b > 0), logic.And(x > 0, y > 0)),
            "Or": (logic.Or(a > 0, b > 0), logic.Or(x > 0, y > 0)),
            "Not": (logic.Not(a > b), logic.Not(x > y)),
            "Implies": (logic.Implies(a > 0, b > 0), logic.Implies(x > 0, y > 0)),
        }
        for name, (concrete, symbolic) in cases.items():
            value = z3.simplify(z3.substitute(symbolic, (x, z3.IntVal(a)), (y, z3.IntVal(b))))
            value = z3.is_true(value) if z3.is_bool(value) else value.as_long()
            assert value == concrete, (name, a, b)


def test_concrete_and_symbolic_tables_agree_exhaustively():
    tables = checks.tables("core")
    assert tables, "no decision tables registered"
    for table in tables:
        assert logic.enumerate_agreement(table) == [], table.name


def test_d3_agrees_exhaustively():
    for face in range(1, 7):
        assert logic.evaluate_symbolically(dice.d3_from_d6, {"face": face}) == dice.d3_from_d6(face)


def test_every_registered_table_passes_its_checks():
    for table in checks.tables("core"):
        report = logic.check_table(table)
        assert report.ok, (table.name, report.problems())


def _swap(table: logic.DecisionTable, i: int, j: int) -> logic.DecisionTable:
    rows = list(table.rows)
    rows[i], rows[j] = rows[j], rows[i]
    return dataclasses.replace(table, rows=tuple(rows))


def test_swapping_two_rows_of_a_real_table_fails_its_check():
    broken = _swap(core_concepts.ACTIVE_PLAYER, 1, 2)
    report = logic.check_table(broken)
    assert not report.ok
    assert any("does not declare that it overrides" in p for p in report.problems())
    # The original order is fine, so it is the swap the check caught.
    assert logic.check_table(core_concepts.ACTIVE_PLAYER).ok


def test_a_gap_is_found_with_a_witness():
    table = logic.DecisionTable(
        name="gappy", refs=(), inputs=(logic.Var("roll", 1, 6),),
        rows=(logic.Row("low", lambda roll: roll <= 2, 0), logic.Row("high", lambda roll: roll >= 5, 1)),
    )
    report = logic.check_table(table)
    assert report.gap is not None and report.gap["roll"] in (3, 4)
    with pytest.raises(logic.NoRowApplies):
        table(roll=3)


def test_an_unreachable_row_is_found():
    table = logic.DecisionTable(
        name="shadowed", refs=(), inputs=(logic.Var("roll", 1, 6),),
        rows=(
            logic.Row("anything", lambda roll: roll >= 1, 0, otherwise=True),
            logic.Row("six", lambda roll: roll == 6, 1),
        ),
    )
    assert logic.check_table(table).unreachable == ["six"]


def test_a_stale_override_is_reported():
    table = logic.DecisionTable(
        name="stale", refs=(), inputs=(logic.Var("roll", 1, 6),),
        rows=(
            logic.Row("six", lambda roll: roll == 6, 1, overrides=("nothing",)),
            logic.Row("rest", lambda roll: roll < 6, 0),
        ),
    )
    assert logic.check_table(table).stale_overrides == [("six", "nothing")]


def test_symbolic_table_term_is_a_z3_expression():
    syms = core_concepts.ACTIVE_PLAYER.symbols()
    term = core_concepts.ACTIVE_PLAYER(**syms)
    assert isinstance(term, z3.ExprRef)


def test_an_input_is_a_flag_of_zero_or_one_unless_its_bounds_are_given():
    """Var's declared defaults (low 0, high 1) and its domain: every whole number from low to high, both included."""
    assert list(logic.Var("n").values()) == [0, 1]
    assert list(logic.Var("roll", 1, 6).values()) == [1, 2, 3, 4, 5, 6]
    assert list(logic.Var("flag", kind="bool").values()) == [False, True]


def test_the_symbolic_answer_where_no_row_applies_is_minus_one_unless_the_table_says():
    rows = (logic.Row("low", lambda roll: roll <= 2, 0), logic.Row("high", lambda roll: roll >= 5, 1))
    roll = z3.Int("roll")
    for table, gap in ((logic.DecisionTable("gappy", (), (logic.Var("roll", 1, 6),), rows), -1),
                       (logic.DecisionTable("gappy", (), (logic.Var("roll", 1, 6),), rows, gap=9), 9)):
        term = table(roll=roll)
        answers = [z3.simplify(z3.substitute(term, (roll, z3.IntVal(value)))).as_long() for value in range(1, 7)]
        assert answers == [0, 0, gap, gap, 1, 1]
