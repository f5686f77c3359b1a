"""Exact dice distributions (01.05): D6, D3, nD6+k, as Fractions that sum to exactly 1.

Floats never appear: every probability is a ``fractions.Fraction``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Callable, Iterable, Mapping

from rules.logic import And, If
from rules.messages import shown
from rules.registry import rule

Distribution = dict[int, Fraction]

# Digits are ASCII only ([0-9], not \d): "٣" or "３" is no number a datasheet prints.
_EXPRESSION = re.compile(r"^\s*(?:(?P<count>[0-9]*)D(?P<sides>[36]))?\s*(?:(?P<sign>[+-])?\s*(?P<bonus>[0-9]+))?\s*$",
                         re.I)


class DiceError(ValueError):
    """A dice expression that is not of the forms 01.05 describes."""


@dataclass(frozen=True)
class DiceExpression:
    """``count`` dice of ``sides`` (6, or 3 for D3) plus ``bonus``: "2D6+3", "D3", "4"."""

    count: int
    sides: int
    bonus: int

    def __str__(self) -> str:
        if self.count == 0:
            return str(self.bonus)
        dice = f"{'' if self.count == 1 else self.count}D{self.sides}"
        return dice if self.bonus == 0 else f"{dice}{'+' if self.bonus > 0 else '-'}{abs(self.bonus)}"

    @property
    def minimum(self) -> int:
        return self.count + self.bonus

    @property
    def maximum(self) -> int:
        return self.count * self.sides + self.bonus


@rule("01.05")
def parse(text: str | int) -> DiceExpression:
    """Read a dice expression as printed on a datasheet ("D6+1", "2D6", "D3", "3")."""
    if isinstance(text, bool):
        raise DiceError(f"{shown(text)} is not a dice expression")
    if isinstance(text, int):
        if text < 0:
            raise DiceError(f"{shown(text)} is negative; a dice expression cannot be")
        return DiceExpression(0, 6, text)
    match = _EXPRESSION.match(str(text))
    if not match or not (match.group("sides") or match.group("bonus")):
        raise DiceError(f"{shown(text)} is not a dice expression (expected forms like D3, D6, 2D6, D6+1, 3)")
    try:
        sides = int(match.group("sides")) if match.group("sides") else 6
        count = (int(match.group("count")) if match.group("count") else 1) if match.group("sides") else 0
        bonus = int(match.group("bonus") or 0) * (-1 if match.group("sign") == "-" else 1)
    except ValueError:  # int() refuses thousands of digits (sys.get_int_max_str_digits)
        raise DiceError(f"{shown(text)} has a number too long to read") from None
    if match.group("sides") and count == 0:
        raise DiceError(f"{shown(text)} rolls zero dice")
    return DiceExpression(count, sides, bonus)


@rule("01.05")
def d3_from_d6(face: Any) -> Any:
    """A D3 is one D6 halved, rounding up: 1-2 give 1, 3-4 give 2, 5-6 give 3."""
    return If(face <= 2, 1, If(face <= 4, 2, 3))


@rule("01.05")
def meets_threshold(result: Any, threshold: Any) -> Any:
    """"N+" means a result of N or more (a 3+ roll succeeds on 3, 4, 5 or 6)."""
    return result >= threshold


@rule("01.05")
def in_range(result: Any, low: Any, high: Any) -> Any:
    """"L-H" means any result from L to H inclusive (1-3 covers 1, 2 and 3)."""
    return And(result >= low, result <= high)


def d6() -> Distribution:
    return {face: Fraction(1, 6) for face in range(1, 7)}


def d3() -> Distribution:
    out: Distribution = {}
    for face, p in d6().items():
        value = d3_from_d6(face)
        out[value] = out.get(value, Fraction(0)) + p
    return out


def convolve(a: Mapping[int, Fraction], b: Mapping[int, Fraction]) -> Distribution:
    """Distribution of the sum of two independent values."""
    out: Distribution = {}
    for x, px in a.items():
        for y, py in b.items():
            out[x + y] = out.get(x + y, Fraction(0)) + px * py
    return dict(sorted(out.items()))


@rule("01.05")
def distribution(expression: DiceExpression | str | int) -> Distribution:
    """The exact distribution of an expression's total: nD6+k sums n dice, then adds k."""
    expr = expression if isinstance(expression, DiceExpression) else parse(expression)
    single = d3() if expr.sides == 3 else d6()
    total: Distribution = {expr.bonus: Fraction(1)}
    for _ in range(expr.count):
        total = convolve(total, {v + 0: p for v, p in single.items()})
    return dict(sorted(total.items()))


def probability(dist: Mapping[int, Fraction], event: Callable[[int], bool]) -> Fraction:
    return sum((p for v, p in dist.items() if event(v)), Fraction(0))


def expected(dist: Mapping[int, Fraction]) -> Fraction:
    return sum((v * p for v, p in dist.items()), Fraction(0))


def is_distribution(dist: Mapping[int, Fraction]) -> bool:
    """Exactly sums to 1 with no negative probability."""
    return sum(dist.values(), Fraction(0)) == 1 and all(p >= 0 for p in dist.values())


def outcomes(expression: DiceExpression | str | int) -> Iterable[int]:
    return distribution(expression).keys()
