"""The counts one weapon entry's attacks produce, as exact laws.

Per attack die the ruleset's plan gives the chance of each (wounds to save,
mortal batches) pair. Over the entry's attacks, the engine needs the law of

- C(t): how many save rolls fail on the lowest t faces (each save roll is a fair
  D6, independent of everything else, so it is counted with chance t/6), and
- M: how many batches of mortal wounds follow,

jointly, because one attack die can give both. A joint law is kept as one
polynomial per value of M (a *channel*), each a law over C; without mortal
wounds there is one channel. The powers over the attacks are taken on a single
Kronecker-packed FLINT polynomial (C is the low index, M the high one), so the
work is a few big products however many attacks there are.
"""

from __future__ import annotations

from functools import cached_property

from flint import fmpq, fmpq_poly, fmpz_poly

from rules.engine.attack_rules import WeaponPlan
from rules.engine.series import ONE, ZERO, q


class Counts:
    """The laws of one plan's counts: ``law(share)`` is C jointly with M when each save roll counts with ``share``."""

    def __init__(self, plan: WeaponPlan):
        self.plan = plan
        most = max(plan.attacks_per_model) * plan.models
        self.rolls = most * max(n for n, _ in plan.per_attack)  # the most save rolls the entry can make
        self.width = most * max(m for _, m in plan.per_attack) + 1  # channels: mortal batches 0..width-1
        self._laws: dict = {}

    def law(self, share: fmpq) -> list[fmpq_poly]:
        """Channel m: the polynomial sum over k of P(C = k and M = m) x^k, where each save roll counts with ``share``."""
        found = self._laws.get(share)
        if found is None:
            found = self._laws[share] = self._law(share)
        return found

    def _law(self, share: fmpq) -> list[fmpq_poly]:
        stride = self.rolls + 1
        counted = fmpq_poly([1 - share, share])
        powers = [ONE]
        per_attack = ZERO
        for (n, m), p in self.plan.per_attack.items():
            while len(powers) <= n:
                powers.append(powers[-1] * counted)
            per_attack += powers[n].left_shift(m * stride) * q(p)
        per_model = ZERO
        power = ONE
        for a in range(max(self.plan.attacks_per_model) + 1):
            if a:
                power = power * per_attack
            chance = self.plan.attacks_per_model.get(a)
            if chance:
                per_model += power * q(chance)
        packed = per_model ** self.plan.models
        numerators = packed.numer().coeffs()
        denominator = packed.denom()
        return [fmpq_poly(fmpz_poly(numerators[m * stride:(m + 1) * stride]), denominator) for m in range(self.width)]

    @cached_property
    def all_rolls(self) -> list[fmpq_poly]:
        """The law of every save roll (and mortal batches): what a Poisson count of save rolls is undone against."""
        return self.law(fmpq(1))
