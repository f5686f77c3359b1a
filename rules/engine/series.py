"""Exact truncated power series on FLINT, the arithmetic of the fast engine.

A count law (how many save rolls fail, how many events a model takes before it
dies) is a polynomial whose coefficient k is the chance of the count k. The
engine combines laws by FLINT's polynomial products (C code on GMP integers)
instead of Python loops over counts, which is what keeps a thousand attacks
into a hundred models under a second. Everything stays exact: ``fmpq``
coefficients, never floats.
"""

from __future__ import annotations

from functools import lru_cache

from flint import fmpq, fmpq_poly, fmpz, fmpz_poly

ONE = fmpq_poly([1])
ZERO = fmpq_poly([])


def q(value) -> fmpq:
    """Any exact number (int, Fraction, gmpy2.mpq, fmpq) as an fmpq."""
    if isinstance(value, fmpq):
        return value
    if isinstance(value, int):
        return fmpq(value)
    return fmpq(int(value.numerator), int(value.denominator))


def from_dist(dist) -> fmpq_poly:
    """A distribution {k: p} (k >= 0) as the polynomial sum of p x^k."""
    if not dist:
        return ZERO
    coeffs = [fmpq(0)] * (max(dist) + 1)
    for k, p in dist.items():
        coeffs[k] += q(p)
    return fmpq_poly(coeffs)


def constant(value) -> fmpq_poly:
    return fmpq_poly([q(value)])


def reverse(p: fmpq_poly, n: int) -> fmpq_poly:
    """x^n p(1/x), for a p of degree at most n."""
    if p.is_zero():
        return ZERO
    num = p.numer().coeffs()
    num.extend([0] * (n + 1 - len(num)))
    return fmpq_poly(fmpz_poly(num[::-1]), p.denom())


def correlate(r: fmpq_poly, d: fmpq_poly) -> fmpq_poly:
    """The count r leaves after a pointer distributed as d: sum over p of d(p) r(p + a), for a >= 0."""
    if d.is_zero() or r.is_zero():
        return ZERO
    n = d.degree()
    if n == 0:
        return r * d[0]
    return (r * reverse(d, n)).right_shift(n)


def dot(a: fmpq_poly, b: fmpq_poly) -> fmpq:
    """sum over k of a_k b_k."""
    if a.is_zero() or b.is_zero():
        return fmpq(0)
    if b.degree() > a.degree():
        a, b = b, a
    return dots(a, [b])[0]


def dots(a: fmpq_poly, laws: list[fmpq_poly]) -> list[fmpq]:
    """[dot(a, law) for law in laws]."""
    return [fmpq(n, d) if n else fmpq(0) for n, d in unreduced_dots(a, laws)]


def unreduced_dots(a: fmpq_poly, laws: list[fmpq_poly]) -> list[tuple[fmpz, fmpz]]:
    """[dot(a, law) for law in laws] as (numerator, denominator) pairs not reduced to lowest terms: whole-number
    products over common denominators (coefficients can have thousands of digits; reducing each result, or a
    product of polynomials to read one coefficient of, would cost more). See ``Sums``."""
    zero = (fmpz(0), fmpz(1))
    if a.is_zero():
        return [zero] * len(laws)
    longest = max((law.degree() for law in laws if not law.is_zero()), default=-1)
    head = a.truncate(longest + 1)
    if head.is_zero():
        return [zero] * len(laws)
    numerators, denominator = head.numer().coeffs(), head.denom()
    out = []
    for law in laws:
        if law.is_zero():
            out.append(zero)
            continue
        total = sum((x * y for x, y in zip(numerators, law.numer().coeffs()) if y), fmpz(0))
        out.append((total, denominator * law.denom()))
    return out


class Sums:
    """Sums of many exact terms, kept per denominator as whole numbers and reduced once, at the end: a walk adds up
    hundreds of thousands of terms whose numerators have thousands of digits, and reducing after each would cost
    a gcd each time."""

    def __init__(self):
        self.terms: dict = {}

    def add(self, value) -> None:
        """Add an fmpq, or a (numerator, denominator) pair."""
        numerator, denominator = (value.p, value.q) if isinstance(value, fmpq) else value
        if numerator:
            self.terms[denominator] = self.terms.get(denominator, 0) + numerator

    def value(self) -> fmpq:
        return sum((fmpq(n, d) for d, n in self.terms.items()), fmpq(0))


@lru_cache(maxsize=4096)
def geometric(z: fmpq, n: int) -> fmpq_poly:
    """1/(1 - z x) mod x^(n+1)."""
    if z == 0 or n == 0:
        return ONE
    coeffs = [fmpq(1)]
    for _ in range(n):
        coeffs.append(coeffs[-1] * z)
    return fmpq_poly(coeffs)


def prefix_sums(p: fmpq_poly, n: int) -> fmpq_poly:
    """Coefficient k is p_0 + ... + p_k, up to k = n."""
    return p.mul_low(geometric(fmpq(1), n), n + 1)


@lru_cache(maxsize=256)
def _factorials(n: int) -> tuple:
    f = [1] * (n + 1)
    for k in range(1, n + 1):
        f[k] = f[k - 1] * k
    return tuple(f)


@lru_cache(maxsize=256)
def _borel_scale(rate: fmpq, n: int) -> tuple[tuple, int]:
    """Whole numbers s_k and a common denominator D with rate^k / k! = s_k / D, for k <= n."""
    a, b = int(rate.p), int(rate.q)
    fact = _factorials(n)
    return tuple(a ** k * b ** (n - k) * (fact[n] // fact[k]) for k in range(n + 1)), b ** n * fact[n]


def borel(c: fmpq_poly, rate: fmpq, n: int) -> fmpq_poly:
    """sum_k c_k (rate mu)^k / k!, k <= n: a law over counts weighed by a Poisson(rate mu) count, as a series in mu.

    This is how a count that a Poisson count must reach turns into a weight; the
    engine only uses it once a group's saves span two separately counted ranges of
    faces (see ``rules.engine.sorted_saves``).
    """
    if c.is_zero():
        return ZERO
    if rate == 0:
        return constant(c[0])
    scale, denominator = _borel_scale(rate, n)
    c = c.truncate(n + 1)
    num = c.numer().coeffs()
    return fmpq_poly(fmpz_poly([int(x) * s for x, s in zip(num, scale)]), c.denom() * denominator)


@lru_cache(maxsize=256)
def negative_binomial(z: fmpq, power: int, n: int) -> fmpq_poly:
    """1/(1 - z x)^power mod x^(n+1): coefficient k is C(power - 1 + k, k) z^k."""
    if z == 0 or power == 0 or n == 0:
        return ONE
    a, b = int(z.p), int(z.q)
    numerators = []
    binomial, top, bottom = 1, 1, b ** n  # C(power-1+k, k), a^k, b^(n-k)
    for k in range(n + 1):
        numerators.append(binomial * top * bottom)
        binomial = binomial * (power + k) // (k + 1)
        top *= a
        bottom //= b
    return fmpq_poly(fmpz_poly(numerators), b ** n)


@lru_cache(maxsize=256)
def exp_series(rate: fmpq, n: int) -> fmpq_poly:
    """e^(rate mu) mod mu^(n+1)."""
    if rate == 0 or n == 0:
        return ONE
    coeffs = [fmpq(1)]
    for k in range(1, n + 1):
        coeffs.append(coeffs[-1] * rate / k)
    return fmpq_poly(coeffs)


def factorial_weights(law: fmpq_poly) -> fmpq_poly:
    """Coefficient n is law_n n!: dotted with a series in mu it gives sum_n P(N = n) n! [mu^n] (de-Poissonisation)."""
    if law.is_zero():
        return ZERO
    n = law.degree()
    fact = _factorials(n)
    return fmpq_poly(fmpz_poly([int(x) * fact[k] for k, x in enumerate(law.numer().coeffs())]), law.denom())


def thin(r: fmpq_poly, keep: fmpq, most: int) -> fmpq_poly:
    """The law of the count that survives thinning (each counted thing kept with chance ``keep``), up to ``most``.

    That is r(1 - keep + keep y), truncated after y^most: by Taylor coefficients at
    1 - keep when few are needed, by a composition otherwise.
    """
    if r.is_zero():
        return ZERO
    if keep == 1:
        return r.truncate(most + 1)
    z = 1 - keep
    if most < 12:
        out = []
        derivative = r
        scale = fmpq(1)
        for e in range(most + 1):
            if derivative.is_zero():
                break
            out.append(derivative(z) * scale)
            derivative = derivative.derivative()
            scale = scale * keep / (e + 1)
        return fmpq_poly(out)
    return r(fmpq_poly([z, keep])).truncate(most + 1)
