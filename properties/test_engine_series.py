"""The attack engine's exact series arithmetic (rules.engine.series) against the definitions it states.

Every chance the calculator gives passes through these helpers, so each is checked on its own against a plain
Fraction computation of what its docstring says, truncation included: a series "mod x^(n+1)" has no term past
x^n. The calculator's properties check the same code end to end; these catch what those cannot see, such as a
shortcut taken at the wrong value or a series one term too long that the callers happen not to read.
"""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
from flint import fmpq, fmpq_poly
from hypothesis import example, given
from hypothesis import strategies as st

from properties.mutation import fails_broken
from rules.engine import kernels, series

CHANCES = st.fractions(0, 1, max_denominator=12)
COEFFICIENTS = st.lists(st.fractions(-3, 3, max_denominator=6), max_size=8)
SIZES = st.integers(0, 14)


def _poly(coefficients: list[Fraction]) -> fmpq_poly:
    return fmpq_poly([fmpq(c.numerator, c.denominator) for c in coefficients])


def _list(p: fmpq_poly) -> list[Fraction]:
    """The coefficients, without trailing zeros (FLINT keeps none)."""
    return [Fraction(int(c.p), int(c.q)) for c in p.coeffs()]


def _trimmed(coefficients: list[Fraction]) -> list[Fraction]:
    out = list(coefficients)
    while out and out[-1] == 0:
        out.pop()
    return out


def _fmpq(x: Fraction) -> fmpq:
    return fmpq(x.numerator, x.denominator)


@pytest.mark.refs("01.05")
@given(st.dictionaries(st.integers(0, 8), CHANCES, max_size=5), COEFFICIENTS, SIZES)
def test_distributions_reversals_and_dots_are_their_definitions(dist, coefficients, n):
    """A distribution is the polynomial of its chances; reverse(p, n) is x^n p(1/x); dot and unreduced_dots are
    the sum over k of a_k b_k, whichever side is longer or zero."""
    chances = [dist.get(k, Fraction(0)) for k in range(max(dist, default=-1) + 1)]
    assert _list(series.from_dist(dist)) == _trimmed(chances)
    p = _poly(coefficients)
    n = max(n, len(_list(p)) - 1)
    padded = _list(p) + [Fraction(0)] * (n + 1 - len(_list(p)))
    assert _list(series.reverse(p, n)) == _trimmed(padded[::-1])
    b = _poly(list(dist.values()))
    expected = sum((x * y for x, y in zip(_list(p), _list(b))), Fraction(0))
    assert series.dot(p, b) == _fmpq(expected) and series.dot(b, p) == _fmpq(expected)
    assert series.dots(p, [b, series.ZERO]) == [_fmpq(expected), fmpq(0)]
    assert series.dots(p, [series.ZERO]) == [fmpq(0)]


@pytest.mark.refs("01.05")
@given(CHANCES, SIZES, COEFFICIENTS)
def test_geometric_and_prefix_sums_stop_at_x_to_the_n(z, n, coefficients):
    """geometric(z, n) is 1 + z x + ... + z^n x^n; prefix_sums(p, n) has p_0 + ... + p_k at k, up to k = n."""
    assert _list(series.geometric(_fmpq(z), n)) == _trimmed([z ** k for k in range(n + 1)])
    p = _poly(coefficients)
    sums = [sum(_list(p)[:k + 1], Fraction(0)) for k in range(n + 1)]
    assert _list(series.prefix_sums(p, n)) == _trimmed(sums)


@pytest.mark.refs("01.05")
@given(COEFFICIENTS, st.sampled_from([Fraction(0), Fraction(1), Fraction(1, 2), Fraction(5, 6), Fraction(3)]),
       SIZES)
def test_borel_and_exp_are_their_series(coefficients, rate, n):
    """borel(c, rate, n) is the sum over k <= n of c_k rate^k mu^k / k!; exp_series(rate, n) is e^(rate mu) up to
    mu^n."""
    c = _poly(coefficients)
    cs = _list(c) + [Fraction(0)] * (n + 1)
    expected = [cs[k] * rate ** k / math.factorial(k) for k in range(n + 1)]
    assert _list(series.borel(c, _fmpq(rate), n)) == _trimmed(expected)
    assert _list(series.exp_series(_fmpq(rate), n)) == _trimmed([rate ** k / math.factorial(k) for k in range(n + 1)])


@pytest.mark.refs("01.05")
@given(st.sampled_from([Fraction(0), Fraction(1), Fraction(1, 3), Fraction(5, 6), Fraction(2)]), st.integers(0, 5),
       SIZES)
def test_negative_binomial_is_its_series(z, power, n):
    """negative_binomial(z, power, n) is 1/(1 - z x)^power up to x^n: C(power - 1 + k, k) z^k at k."""
    expected = [math.comb(power - 1 + k, k) * z ** k if power else Fraction(k == 0) for k in range(n + 1)]
    assert _list(series.negative_binomial(_fmpq(z), power, n)) == _trimmed(expected)


@pytest.mark.refs("01.05")
@given(st.lists(st.fractions(-3, 3, max_denominator=6), max_size=24),
       st.sampled_from([Fraction(1), Fraction(1, 2), Fraction(1, 6), Fraction(5, 6)]), st.integers(0, 20))
def test_thinning_keeps_each_with_its_chance_up_to_most(coefficients, keep, most):
    """thin(r, keep, most) is r(1 - keep + keep y) up to y^most: sum over n >= e of r_n C(n, e) keep^e (1-keep)^(n-e)."""
    r = _poly(coefficients)
    rs = _list(r)
    expected = [sum((rs[n] * math.comb(n, e) * keep ** e * (1 - keep) ** (n - e) for n in range(e, len(rs))),
                    Fraction(0)) for e in range(most + 1)]
    assert _list(series.thin(r, _fmpq(keep), most)) == _trimmed(expected)


def _geometric_one_too_long(z, n):
    """A broken series: one term past x^n."""
    return fmpq_poly([z ** k for k in range(n + 2)])


def _thin_one_too_long(r, keep, most):
    return r(fmpq_poly([1 - keep, keep])).truncate(most + 2)


@pytest.mark.parametrize("check,attribute,broken", [
    (test_geometric_and_prefix_sums_stop_at_x_to_the_n, "geometric", _geometric_one_too_long),
    (test_thinning_keeps_each_with_its_chance_up_to_most, "thin", _thin_one_too_long),
], ids=["geometric one term too long", "thinning one term too long"])
def test_series_property_fails_for_a_broken_helper(monkeypatch, check, attribute, broken):
    fails_broken(monkeypatch, check, series, attribute, broken)


@pytest.mark.refs("01.05")
@given(st.dictionaries(st.integers(1, 6), st.integers(1, 4), min_size=1, max_size=3),
       st.sampled_from([Fraction(1), Fraction(1, 6), Fraction(1, 2), Fraction(5, 6)]),
       st.lists(st.integers(1, 8), min_size=1, max_size=12), st.integers(0, 30))
@example({2: 1}, Fraction(1, 2), [8] * 10, 50)  # more than 64 wounds: each model's law raised to its power
def test_a_kernels_laws_in_all_events_stop_at_x_to_the_n(weights, lost, tops, n):
    """Kernel.raw and Kernel.destroys_raw are laws "mod x^(n+1)": no term past x^n, and the same first terms
    whatever longer n they are asked for (a wound is lost with chance ``lost``: below 1, Feel No Pain makes some
    events ineffective)."""
    total = sum(weights.values())
    damage = {d: Fraction(w, total) for d, w in weights.items()}
    k = kernels.kernel(kernels.key(kernels.loss_law(damage, _fmpq(lost))))
    effective = k.chain(max(tops))[0]
    for law, longer in ((k.raw(effective, n), k.raw(effective, n + 3)),
                        (k.destroys_raw(tops, n), k.destroys_raw(tops, n + 3))):
        assert law.degree() <= n
        assert law == longer.truncate(n + 1)
