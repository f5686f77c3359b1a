"""The reference engine: the rules followed step by step, exactly, with no shortcut.

Every wound of a weapon entry is pooled; under ``saves = "sorted"`` the save
rolls are sorted and resolved one at a time from the lowest (face by face: given
r rolls left, all showing v or more, the number showing exactly v is binomial
with chance 1/(7 - v)); under ``"each"`` each wound is allocated to the current
model and saved on its own. Then each batch of mortal wounds goes to the model
the ruleset names. Its cost grows with the cube of the attacks, so it is only
run on small scenarios, as the fast engine's (``rules.engine.saves``) reference.
"""

from __future__ import annotations

from typing import Callable, Mapping

from rules.engine.exact import ONE, ZERO, Dist, Q, add, binomial
from rules.engine.target import Group, State, with_group


class Literal:
    """One weapon entry, literally, from one state at a time."""

    def __init__(self, groups: tuple[Group, ...], current: Callable[[State], int | None],
                 mortal_target: Callable[[State], int | None], fails: Callable[[int, int], bool] | None,
                 loss: list[Mapping[int, object]], mortal_loss: list[Mapping[int, object]],
                 mortal_damage: Mapping[int, object], spill: bool):
        """``fails(g, face)``: a save roll of ``face`` fails against group g (None: each wound is saved on its own,
        the save inside ``loss``); ``loss[g]``: wounds one event takes from g's model; ``mortal_loss[g]``: the same
        for one mortal batch (or, with ``spill``, for one mortal wound, ``mortal_damage`` of them per batch). All
        chances are the engine's mpq rationals."""
        self.groups, self.current, self.mortal_target = groups, current, mortal_target
        self.fails, self.loss, self.mortal_loss = fails, loss, mortal_loss
        self.mortal_damage, self.spill = mortal_damage, spill

    def event(self, state: State, g: int, loss: Mapping[int, object]) -> Dist:
        """One event on group g's model: it loses wounds by ``loss``; the excess over its wounds is lost with it."""
        alive, top = state[g]
        out: Dist = {}
        for lost, p in loss.items():
            if lost >= top:
                add(out, with_group(state, g, alive - 1, self.groups[g].W), p)
            else:
                add(out, with_group(state, g, alive, top - lost), p)
        return out

    def _then(self, dist: Mapping[State, object], step) -> Dist:
        out: Dist = {}
        for state, p in dist.items():
            for s2, q in step(state).items():
                add(out, s2, p * q)
        return out

    def saves(self, state: State, wounds: int) -> Dist:
        if self.fails is None:
            dist: Dist = {state: ONE}
            for _ in range(wounds):
                dist = self._then(dist, self._each)
            return dist
        return self._sorted(state, wounds)

    def _each(self, state: State) -> Dist:
        g = self.current(state)
        return {state: ONE} if g is None else self.event(state, g, self.loss[g])

    def _sorted(self, state: State, wounds: int) -> Dist:
        current: Dist = {(state, wounds): ONE}
        done: Dist = {}
        for face in range(1, 7):
            after: Dist = {}
            for (st, left), p in current.items():
                g = self.current(st)
                if left == 0 or g is None or not self.fails(g, face):
                    add(done, st, p)  # saved, and so is every higher roll: the sequence ends
                    continue
                weights = (ZERO,) * left + (ONE,) if face == 6 else binomial(left, Q(1, 7 - face))
                chain: list[Dist] = [{st: ONE}]
                for k, w in enumerate(weights):
                    while len(chain) <= k:
                        chain.append(self._then(chain[-1], lambda s, f=face: self._one_roll(s, f)))
                    if w:
                        for s2, r in chain[k].items():
                            add(after, (s2, left - k), p * w * r)
            current = after
        for (st, _), p in current.items():
            add(done, st, p)
        return done

    def _one_roll(self, state: State, face: int) -> Dist:
        g = self.current(state)
        if g is None or not self.fails(g, face):
            return {state: ONE}
        return self.event(state, g, self.loss[g])

    def mortal(self, state: State, batches: int) -> Dist:
        dist: Dist = {state: ONE}
        for _ in range(batches):
            if self.spill:
                batch: Dist = {}
                for wounds, p in self.mortal_damage.items():
                    one: Dist = {s: q for s, q in dist.items()}
                    for _ in range(wounds):
                        one = self._then(one, self._mortal_one)
                    for s, q in one.items():
                        add(batch, s, q * p)
                dist = batch
            else:
                dist = self._then(dist, self._mortal_one)
        return dist

    def _mortal_one(self, state: State) -> Dist:
        g = self.mortal_target(state)
        return {state: ONE} if g is None else self.event(state, g, self.mortal_loss[g])

    def weapon(self, state: State, wound_events: Mapping[tuple[int, int], object]) -> Dist:
        """The states after one weapon entry from ``state``: every (wounds, mortal batches) outcome, literally."""
        out: Dist = {}
        for (wounds, batches), p in wound_events.items():
            for s2, q in self.saves(state, wounds).items():
                for s3, r in self.mortal(s2, batches).items():
                    add(out, s3, p * q * r)
        return out
