"""What damaging events do to one group's models, as count laws.

An *event* is one thing that may take wounds from the model a group is working
on: a failed save with its damage, a wound allocated and then saved or not, a
batch of mortal wounds. Each ruleset says what its events are (``loss_law``
and friends give the chance of losing 0, 1, 2, ... wounds); the kernel turns
that into the laws the engine combines:

- an event that loses no wound (the save held, or every Feel No Pain roll
  passed) changes nothing, so the kernel counts *effective* events, those that
  lose at least one wound: at most W of them destroy a model, so its laws are
  short polynomials;
- ``raw`` converts a law over effective events back to all events, which is
  what the next group sees after this one is destroyed.
"""

from __future__ import annotations

import math
from collections import Counter
from functools import lru_cache
from typing import Mapping

from flint import fmpq, fmpq_poly

from rules.engine.series import ONE, negative_binomial, q


def loss_law(damage: Mapping[int, object], lost) -> dict[int, fmpq]:
    """Wounds lost to one damaging event: its damage D, each of the D wounds lost with chance ``lost``
    (1 without Feel No Pain)."""
    lost = q(lost)
    out: dict[int, fmpq] = {}
    for d, p in damage.items():
        p = q(p)
        for k in range(d + 1):
            chance = p * math.comb(d, k) * lost ** k * (1 - lost) ** (d - k)
            if chance:
                out[k] = out.get(k, fmpq(0)) + chance
    return out


def saved_or_lost(fails, damage: Mapping[int, object], lost) -> dict[int, fmpq]:
    """Wounds lost to one wound allocated to a model and saved one at a time: the save fails with chance ``fails``."""
    fails = q(fails)
    out = {k: p * fails for k, p in loss_law(damage, lost).items()}
    out[0] = out.get(0, fmpq(0)) + 1 - fails
    return {k: p for k, p in out.items() if p}


def key(law: Mapping[int, fmpq]) -> tuple:
    return tuple(sorted(law.items()))


class Kernel:
    """One group's events, per model: how many effective events destroy it, and where it stands after fewer."""

    def __init__(self, loss: tuple):
        loss = dict(loss)
        self.null = loss.get(0, fmpq(0))  # the chance an event loses no wound
        self.keep = 1 - self.null  # the chance it is effective
        self.effective = ({k: p / self.keep for k, p in loss.items() if k > 0 and p} if self.keep else {})
        self._chains: dict[int, tuple[fmpq_poly, dict[int, fmpq_poly]]] = {}

    def chain(self, wounds: int) -> tuple[fmpq_poly, dict[int, fmpq_poly]]:
        """For a model with ``wounds`` left: (the law of the effective events that destroy it, and for each
        wounds-left value w the law of effective events after which it is alive with w left)."""
        found = self._chains.get(wounds)
        if found is None:
            alive = {wounds: fmpq(1)}
            stays = {wounds: [fmpq(1)]}
            dies = [fmpq(0)]
            events = 0
            losses = sorted(self.effective.items())
            at_least = {}  # the chance an effective event loses at least this many wounds
            running = fmpq(0)
            for lost, r in reversed(losses):
                running += r
                at_least[lost] = running
            while alive:
                events += 1
                after: dict[int, fmpq] = {}
                dead = fmpq(0)
                for left, p in alive.items():
                    dead += p * next((at_least[lost] for lost, _ in losses if lost >= left), fmpq(0))
                    for lost, r in losses:
                        if lost >= left:
                            break
                        after[left - lost] = after.get(left - lost, fmpq(0)) + p * r
                dies.append(dead)
                for left, p in after.items():
                    coefficients = stays.setdefault(left, [])
                    coefficients.extend([fmpq(0)] * (events - len(coefficients)))
                    coefficients.append(p)
                alive = after
            found = (fmpq_poly(dies), {left: fmpq_poly(c) for left, c in stays.items()})
            self._chains[wounds] = found
        return found

    def destroys(self, tops: list[int]) -> fmpq_poly:
        """The law of the effective events that destroy models with these wounds left, taken one after another."""
        law = ONE
        for top, count in Counter(tops).items():
            law = law * self.chain(top)[0] ** count
        return law

    def destroys_raw(self, tops: list[int], n: int) -> fmpq_poly:
        """The same in all events, mod x^(n+1). Seeing a law in all events is a substitution (a ring map): a
        short law is converted whole (one product); for many models, each distinct model's law is converted and
        raised to its power, which keeps the work short."""
        if self.null == 0:
            return self.destroys(tops).truncate(n + 1)
        if sum(tops) <= 64:
            return self.raw(self.destroys(tops), n)
        law = ONE
        for top, count in Counter(tops).items():
            law = law.mul_low(self.raw(self.chain(top)[0], n).pow_trunc(count, n + 1), n + 1)
        return law

    def raw(self, effective: fmpq_poly, n: int) -> fmpq_poly:
        """A law over effective events seen in all events, mod x^(n+1): each event is effective with chance keep,
        so effective(u) with u = keep x / (1 - null x), computed as P(x) / (1 - null x)^E for a polynomial P."""
        z, keep = self.null, self.keep
        if z == 0:
            return effective.truncate(n + 1)
        coeffs = effective.coeffs()
        top = len(coeffs) - 1
        one_minus = fmpq_poly([1, -z])
        powers = [ONE]
        for _ in range(top):
            powers.append(powers[-1] * one_minus)
        kept = fmpq_poly([0, keep])
        horner = fmpq_poly([coeffs[top]])
        for j in range(top - 1, -1, -1):
            horner = powers[top - j] * coeffs[j] + kept * horner
        return horner.mul_low(negative_binomial(z, top, n), n + 1)


@lru_cache(maxsize=1024)
def kernel(loss: tuple) -> Kernel:
    """The kernel of a loss law (given as sorted (wounds lost, chance) pairs), shared by every group that has it."""
    return Kernel(loss)
