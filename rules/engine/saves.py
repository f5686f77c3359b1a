"""The save step, exactly and fast: wounds to save turned into the target's states, group by group.

Why it can work group by group. Save rolls are fair D6s, independent of
everything else. Under ``saves = "sorted"`` they are resolved lowest first into
the current allocation group, and a group fails a roll on its lowest t faces; so
the sorted sequence of rolls is consumed from the front: the first group takes
rolls while they are at most its t and until it is destroyed, then the next
group takes over *from the same place*, and the first roll a group saves ends
the sequence (every later roll is higher). The state at the end therefore
depends only on how many events each group needed (a property of its models,
its damage and Feel No Pain: the *kernel*) and on how many rolls fell at or below
each group's t. The engine follows a *pointer* (how many rolls the destroyed
groups took, as a law) through the allocation order:

- a group whose t is no higher than the previous one's can only take rolls at or
  below its t: what it gets is the count C(t) minus the pointer (a *residual*,
  one polynomial product), and the earlier groups' needs are implied, because
  C(t) is at most C of any higher t;
- a group whose t is higher than the previous one's (a *rise*) first takes what
  is left of the previous range of faces, then fresh faces. The two ranges' counts
  are dependent through the total, so from a rise on the engine counts the save
  rolls as a Poisson number (a formal series in mu whose coefficients it undoes at
  the end against the true law of the total): Poisson counts of disjoint ranges
  of faces are independent, and a range's leftover is again a residual.

Within a group, models die one after another, each after a number of effective
events with a short law (``rules.engine.kernels``), so the residual is followed
model by model with products of short polynomials. ``saves = "each"`` (each
wound saved on its own by the model it is allocated to) is the same walk with one
range of faces holding every wound, the save folded into the kernel.
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass, field
from typing import Callable, Mapping

from flint import fmpq, fmpq_poly

from rules.engine.kernels import Kernel
from rules.engine.laws import Counts
from rules.engine.series import (ONE, ZERO, Sums, borel, constant, correlate, dot, dots, exp_series, unreduced_dots, factorial_weights,
                                 geometric, prefix_sums, q, thin)
from rules.engine.target import Group, State, run_of, wounds_left, with_group


@dataclass
class _Entry:
    """Mass waiting at a state, with faces lo..hi the range being consumed."""

    pointer: fmpq_poly = field(default_factory=lambda: ZERO)  # no earlier range exhausted: a plain pointer law
    poisson: list = field(default_factory=list)  # after a rise: [(weight of the exhausted ranges in mu, pointer)]


class _Walk:
    def __init__(self, groups: tuple[Group, ...], current: Callable[[State], int | None], thresholds: list[int],
                 kernels: list[Kernel], counts: Counts):
        self.groups, self.current, self.thresholds, self.kernels = groups, current, thresholds, kernels
        self.counts = counts
        self.n = counts.rolls
        self.width = counts.width
        self.final: dict[State, list] = {}
        self.entries: dict = {}
        self.heap: list = []
        self._duals: dict = {}

    # -- bookkeeping ----------------------------------------------------------------------------------

    def law(self, hi: int) -> list[fmpq_poly]:
        return self.counts.law(fmpq(hi, 6))

    def finish(self, state: State, channels: list) -> None:
        """Add to a state's mass, per channel (each an fmpq or an unreduced (numerator, denominator) pair)."""
        found = self.final.get(state)
        if found is None:
            found = self.final[state] = [Sums() for _ in range(self.width)]
        for sums, value in zip(found, channels):
            sums.add(value)

    def push(self, state: State, lo: int, hi: int, pointer: fmpq_poly | None = None, poisson=None) -> None:
        key = (state, lo, hi)
        entry = self.entries.get(key)
        if entry is None:
            entry = self.entries[key] = _Entry()
            heapq.heappush(self.heap, (-wounds_left(self.groups, state), lo, hi, state))
        if pointer is not None:
            entry.pointer += pointer
        if poisson is not None:
            weight, d = poisson
            if d.degree() == 0:  # items whose pointers are mere numbers go on as one, their weights added up
                for i, (other, e) in enumerate(entry.poisson):
                    if e == ONE:
                        entry.poisson[i] = (other + weight * d[0], ONE)
                        return
                entry.poisson.append((weight * d[0], ONE))
            else:
                entry.poisson.append(poisson)

    # -- plain pointers: the true laws of C(hi) -------------------------------------------------------

    def waiting(self, pointer: fmpq_poly, hi: int) -> list:
        """The mass of a pointer whose rolls were all at or below hi: sum over p of pointer(p) P(C(hi) >= p)."""
        if pointer.degree() == 0:
            return [pointer[0] * _mass(channel) for channel in self.law(hi)]
        cumulative = prefix_sums(pointer, self.n)
        return [dot(channel, cumulative) for channel in self.law(hi)]

    # -- after a rise: Poisson counts, undone through their duals -------------------------------------
    #
    # A weight W(mu) reached at the end is worth dot(W e^(mu(6-hi)/6), undo) in each channel, where undo_n is
    # P(N = n, M = m) n!: the Poisson count of save rolls undone against the true law of N. Everything the walk
    # does to a weight is linear, so it moves that dual to the entry instead: one product per entry, and from
    # there on the group's models are followed with plain numbers, as with a plain pointer.

    def dual(self, hi: int) -> list[fmpq_poly]:
        found = self._duals.get(hi)
        if found is None:
            higher = exp_series(fmpq(6 - hi, 6), self.n)
            found = self._duals[hi] = [correlate(factorial_weights(channel), higher)
                                       for channel in self.counts.all_rolls]
        return found

    def against(self, weight: fmpq_poly, hi: int) -> list[fmpq_poly]:
        """The dual of one entry's weight: per channel, what a count law of faces lo..hi is worth from there."""
        return [correlate(u, weight) for u in self.dual(hi)]

    def waiting_mu(self, duals: list, pointer: fmpq_poly, lo: int, hi: int) -> list:
        cumulative = prefix_sums(pointer, self.n)
        return [dot(cumulative, borel(v, fmpq(hi - lo + 1, 6), self.n)) for v in duals]

    def available_mu(self, duals: list, pointer: fmpq_poly, lo: int, hi: int, kernel: Kernel,
                     capacity: int) -> tuple[list, list]:
        """Per channel: the worth of e = 0..capacity effective events left for the run (a residual, as a
        polynomial) and the worth of every count past the pointer. Count e's law over the rolls of the range is
        pointer(x) (keep x)^e / (1 - null x)^(e+1); its worth is its Poisson weight dotted with the dual, which is
        the Taylor coefficient e, at null, of the dual's Borel image correlated with the pointer, times keep^e:
        one thinning of one series."""
        rate = fmpq(hi - lo + 1, 6)
        cumulative = prefix_sums(pointer, self.n)
        residuals, totals = [], []
        for v in duals:
            scaled = borel(v, rate, self.n)
            seen = correlate(scaled, pointer) if pointer.degree() > 0 else scaled * pointer[0]
            residuals.append(thin(seen, kernel.keep, capacity))
            totals.append(dot(cumulative, scaled))
        return residuals, totals

    # -- one run of models ----------------------------------------------------------------------------

    def run_from(self, state: State) -> tuple[list, State]:
        """The models that take rolls one after another from ``state`` (groups alike act as one), and the state
        once they are all destroyed."""
        return run_of(self.groups, state, self.current,
                      lambda g: (id(self.kernels[g]), self.thresholds[g], self.groups[g].W))

    def take(self, models: list, kernel: Kernel, residuals: list, left: list, keep: bool = True) -> list:
        """Follow a run's models with per-channel residuals of effective events (the run's capacity at most) and
        total masses ``left``; finish each state a model stops in (unless ``keep`` is False) and return the mass
        left when the whole run is destroyed."""
        capacity = sum(w for _, _, w, _ in models)
        used = 0
        lefts = [Sums() for _ in left]
        for sums, value in zip(lefts, left):
            sums.add(value)
        for g, alive, w, base in models:
            dies, stays = kernel.chain(w)
            found = [unreduced_dots(r, list(stays.values())) for r in residuals]
            for j, w2 in enumerate(stays):
                values = [column[j] for column in found]
                if keep:
                    self.finish(with_group(base, g, alive, w2), values)
                for m, (n, d) in enumerate(values):
                    lefts[m].add((-n, d))
            used += w
            still = capacity - used  # what the models left can still take
            residuals = [correlate(r.truncate(still + dies.degree() + 1), dies) for r in residuals]
        return [sums.value() for sums in lefts]

    # -- the walk -------------------------------------------------------------------------------------

    def run(self, start: Mapping[State, object]) -> None:
        families: dict = {}
        for state, p in start.items():
            families.setdefault(self._family(state), []).append((state, p))
        for key, members in families.items():
            if key is None or len(members) == 1:
                for state, p in members:
                    self.push(state, 1, 6, pointer=constant(p))
            else:
                self._first_step(key, members)
        while self.heap:
            _, lo, hi, state = heapq.heappop(self.heap)
            self.step(state, lo, hi, self.entries.pop((state, lo, hi)))

    def step(self, state: State, lo: int, hi: int, entry: _Entry) -> None:
        g = self.current(state)
        t = self.thresholds[g] if g is not None else 0
        pointer = entry.pointer if not entry.pointer.is_zero() else None
        end = g is None or t < lo  # nobody left to take a roll, or the next roll is saved: the sequence ends
        shrink = not end and t < hi  # only faces lo..t go on: a roll in t+1..hi ends the sequence
        if pointer is not None and (end or shrink):
            stopped = self.waiting(pointer, hi)
            if shrink:
                stopped = [a - b for a, b in zip(stopped, self.waiting(pointer, t))]
            self.finish(state, stopped)
        poisson = [(weight, d, self.against(weight, t if shrink else hi)) for weight, d in entry.poisson]
        if end or shrink:
            for weight, d, duals in poisson:
                stopped = self.waiting_mu(self.against(weight, hi) if shrink else duals, d, lo, hi)
                if shrink:
                    stopped = [a - b for a, b in zip(stopped, self.waiting_mu(duals, d, lo, t))]
                self.finish(state, stopped)
        if end:
            return
        hi = min(hi, t)
        rise = t > hi
        kernel = self.kernels[g]
        models, dead = self.run_from(state)
        tops = [w for _, _, w, _ in models]
        capacity = sum(tops)  # effective events that surely destroy the run
        stops = self._stops(dead, lo)
        destroyed = None if stops else kernel.destroys_raw(tops, self.n)
        if pointer is not None and not rise:
            raw = [correlate(channel, pointer) for channel in self.law(hi)]
            left = self.take(models, kernel, [thin(r, kernel.keep, capacity) for r in raw], [_mass(r) for r in raw])
            if stops:
                self.finish(dead, left)
            else:
                self.push(dead, lo, hi, pointer=pointer.mul_low(destroyed, self.n + 1))
        if rise:
            if pointer is not None:
                poisson.append((ONE, pointer, self.against(ONE, hi)))
            for weight, d, _ in poisson:
                self._rise(models, kernel, weight, d, lo, hi, t, capacity)
        for weight, d, duals in poisson:
            residuals, totals = self.available_mu(duals, d, lo, hi, kernel, capacity)
            left = self.take(models, kernel, residuals, totals, keep=not rise)
            if stops:
                self.finish(dead, left)
            else:
                self.push(dead, lo, hi, poisson=(weight, d.mul_low(destroyed, self.n + 1)))

    def _rise(self, models: list, kernel: Kernel, weight: fmpq_poly, pointer: fmpq_poly, lo: int, hi: int, t: int,
              capacity: int) -> None:
        """The run has taken every roll of faces lo..hi and is still there: it goes on into the fresh faces
        hi+1..t, each state it can be in carrying the weight of the range it used up. That weight is the Poisson
        weight of the pointer times the law, in all rolls, of the effective events that leave the run there and
        of any ineffective ones after them."""
        rate = fmpq(hi - lo + 1, 6)
        after = geometric(kernel.null, self.n).mul_low(pointer, self.n + 1)  # and any ineffective events after
        before = ONE  # effective events that destroyed the models before this one
        for g, alive, w, base_state in models:
            dies, stays = kernel.chain(w)
            for w2, stay in stays.items():
                seen = kernel.raw(before * stay, self.n).mul_low(after, self.n + 1)
                here = weight.mul_low(borel(seen, rate, self.n), self.n + 1)
                if not here.is_zero():
                    self.push(with_group(base_state, g, alive, w2), hi + 1, t, poisson=(here, ONE))
            before = before * dies

    # -- many states before a weapon, alike but for the run they start in -------------------------------------

    def _family(self, state: State):
        """States that differ only in the group the weapon's rolls start on (its first model's wounds, how many
        models it has left) take the same walk from a shifted start: they are worked out together. The key is the
        state once the run is destroyed, the group the run starts on, its kernel and threshold, and the other groups
        of the run as they stand (the walk's finishes land in the run's groups by how many models are left, so
        those must agree); None if the run has a wounded model past its first (its models are then not a first
        model and fresh ones)."""
        g = self.current(state)
        if g is None:
            return None
        models, dead = self.run_from(state)
        if any(w != self.groups[h].W for h, _, w, _ in models[1:]):
            return None
        rest = tuple(sorted({(h, state[h]) for h, _, _, _ in models if h != g}))
        return dead, g, id(self.kernels[g]), self.thresholds[g], self.groups[g].W, rest

    def _first_step(self, key, members: list) -> None:
        """The first step of a family of start states (see ``_family``), worked out once per first model's wounds.

        A state's finishes are those of the shared walk scaled by its chance; where they land depends only on how
        many of the run's models are left, so for each first model's wounds and each wounds-left value, every
        state's contributions are one correlation of two short polynomials (the states' chances by their run's
        length, the walk's finishes by model). The pointer the destroyed run leaves is likewise one Horner sum in
        the law of a fresh model."""
        dead, g, _, t, W, _ = key
        kernel = self.kernels[g]
        runs = [(q(p), self.run_from(state)[0]) for state, p in members]
        longest = max((models for _, models in runs), key=len)
        landing = {len(longest) - i: (g, alive, base) for i, (g, alive, _, base) in enumerate(longest)}
        capacity = max(sum(w for _, _, w, _ in models) for _, models in runs)  # the most events a member's run takes
        laws = self.law(t)
        totals = [_mass(channel) for channel in laws]
        base = self.counts.law(fmpq(t, 6) * kernel.keep) if kernel.keep != 1 else laws  # thinned at the source
        base = [channel.truncate(capacity + 1) for channel in base]
        by_top: dict = {}  # first model's wounds -> {models in the run: the states' summed chance}
        for p, models in runs:
            weights = by_top.setdefault(models[0][2], {})
            weights[len(models)] = weights.get(len(models), fmpq(0)) + p
        stops = self._stops(dead, 1)
        left = [fmpq(0)] * self.width
        by_count: dict = {}  # models in the run -> summed chance x the first model's law in all events
        for top, weights in by_top.items():
            longest_here = max(weights)
            residuals = base
            finishes: dict = {}  # wounds left -> per channel, the walk's finishes by model index
            finished = [[fmpq(0)] * self.width]  # mass finished before model i, per channel
            for i in range(longest_here):
                dies, stays = kernel.chain(top if i == 0 else W)
                found = [dots(r, list(stays.values())) for r in residuals]
                mass = list(finished[-1])
                for j, w2 in enumerate(stays):
                    column = finishes.setdefault(w2, [[] for _ in range(self.width)])
                    for m in range(self.width):
                        column[m].extend([fmpq(0)] * (i - len(column[m])))
                        column[m].append(found[m][j])
                        mass[m] += found[m][j]
                finished.append(mass)
                residuals = [correlate(r, dies) for r in residuals]
            chances = fmpq_poly([weights.get(k, fmpq(0)) for k in range(longest_here + 1)])
            for w2, columns in finishes.items():
                by_left = [correlate(chances, fmpq_poly(column)) for column in columns]
                for r in range(1, longest_here + 1):
                    values = [law[r] for law in by_left]
                    if any(values):
                        g, alive, base_state = landing[r]
                        self.finish(with_group(base_state, g, alive, w2), values)
            for count, p in weights.items():
                if stops:
                    left = [a + p * (b - c) for a, b, c in zip(left, totals, finished[count])]
                else:
                    by_count[count] = by_count.get(count, ZERO) + kernel.raw(kernel.chain(top)[0], self.n) * p
        if stops:
            self.finish(dead, left)
            return
        fresh = kernel.raw(kernel.chain(W)[0], self.n)
        pointer = ZERO
        for count in range(max(by_count), 0, -1):  # Horner in the law of one fresh model
            pointer = pointer.mul_low(fresh, self.n + 1) + by_count.get(count, ZERO)
        self.push(dead, 1, t, pointer=pointer)

    def _stops(self, state: State, lo: int) -> bool:
        """Whether the sequence ends at this state whatever is left (nobody to take a roll, or a roll saved)."""
        g = self.current(state)
        return g is None or self.thresholds[g] < lo


def _mass(law: fmpq_poly) -> fmpq:
    return law(1) if not law.is_zero() else fmpq(0)


def resolve(groups: tuple[Group, ...], current: Callable[[State], int | None], thresholds: list[int],
            kernels: list[Kernel], counts: Counts, start: Mapping[State, object]) -> dict[State, list]:
    """The joint law of the state after one weapon's saves and its mortal batches still to come.

    ``current(state)`` is the group the next wound goes to; ``thresholds[g]`` the faces of a save roll that fail
    against group g (6 for every group when each wound is saved on its own: the save is then in the kernel);
    ``kernels[g]`` what an event does to g's models; ``start`` the states before the weapon with their chances.
    Returns {state: [P(state and m mortal batches) for m = 0, 1, ...]}.
    """
    walk = _Walk(groups, current, thresholds, kernels, counts)
    walk.run({s: q(p) for s, p in start.items()})
    return {state: [sums.value() for sums in channels] for state, channels in walk.final.items()}
