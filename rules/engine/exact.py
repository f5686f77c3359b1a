"""Exact probabilities for the attack engine: small distributions as dicts of GMP rationals.

A ruleset's attack rules build the chances of one die (hit, wound, damage) with
these helpers; the engine turns them into series (``rules.engine.series``).
Never floats: GMP's mpq inside (an order of magnitude faster than
``fractions.Fraction``), ``Fraction`` at the boundary.
"""

from __future__ import annotations

import math
from fractions import Fraction
from functools import lru_cache
from typing import Any, Callable, Mapping

import gmpy2

from rules import dice

Dist = dict
Q = gmpy2.mpq
ONE, ZERO, SIXTH = Q(1), Q(0), Q(1, 6)


def exact(value: Any) -> Any:
    """A Fraction (or int) as the engine's rational type."""
    if isinstance(value, Fraction):
        return Q(value.numerator, value.denominator)
    return Q(value)


def to_fraction(value: Any) -> Fraction:
    """An exact rational (mpq, fmpq, int) back as a Fraction, for callers and JSON.

    Both GMP and FLINT keep their rationals in lowest terms, so the Fraction is built without reducing it again
    (a gcd of two numbers of tens of thousands of digits costs milliseconds, and a result has thousands of them).
    """
    if isinstance(value, int):
        return Fraction(value)
    numerator = getattr(value, "numerator", None)
    if numerator is None:  # flint.fmpq names them p and q
        numerator, denominator = int(value.p), int(value.q)
    else:
        numerator, denominator = int(numerator), int(value.denominator)
    return _coprime(numerator, denominator)


def _coprime(numerator: int, denominator: int) -> Fraction:
    """A Fraction from a numerator and a positive denominator already in lowest terms."""
    build = getattr(Fraction, "_from_coprime_ints", None)  # Python 3.12 and later
    if build is not None:
        return build(numerator, denominator)
    return Fraction(numerator, denominator, _normalize=False)  # Python 3.11


def fractions(dist: Mapping) -> Dist:
    return {k: to_fraction(p) for k, p in dist.items()}


def mean(dist: Mapping) -> Any:
    return sum((k * p for k, p in dist.items()), ZERO)


def exact_dist(dist: Mapping) -> Dist:
    return {k: exact(p) for k, p in dist.items()}


def add(dist: Dist, key, p) -> None:
    """dist[key] += p, skipping zero chances (so a distribution lists only what can happen)."""
    if p:
        dist[key] = dist.get(key, ZERO) + p


def rerolled(single: Mapping, again: Callable[[Any], Any]) -> Dist:
    """One roll's outcomes when a result that ``again(result)`` accepts is re-rolled once: the second result
    stands, whatever it is (``single`` is the distribution of one roll)."""
    out: Dist = {}
    for first, p in single.items():
        if again(first):
            for second, q in single.items():
                add(out, second, p * q)
        else:
            add(out, first, p)
    return out


def convolve(a: Mapping, b: Mapping, combine=lambda x, y: x + y) -> Dist:
    out: Dist = {}
    for x, px in a.items():
        for y, py in b.items():
            add(out, combine(x, y), px * py)
    return out


def power(dist: Mapping, n: int, zero, combine) -> list[Dist]:
    """dist convolved with itself 0..n times."""
    powers = [{zero: ONE}]
    for _ in range(n):
        powers.append(convolve(powers[-1], dist, combine))
    return powers


def as_dist(value) -> Dist:
    """A number or a dice expression as a distribution of its results."""
    if isinstance(value, dice.DiceExpression):
        return exact_dist(dice.distribution(value))
    return {int(value): ONE}


@lru_cache(maxsize=None)
def binomial(n: int, p) -> tuple:
    """P(k successes in n trials), k = 0..n, exactly (p given as a Fraction or an mpq)."""
    p = exact(p) if isinstance(p, Fraction) else p
    q = 1 - p
    return tuple(math.comb(n, k) * p ** k * q ** (n - k) for k in range(n + 1))
