"""Events that every group takes in turn, whatever their number: mortal wounds after the saves.

Each state arrives with its own law of how many events are still to come (the
mortal batches that followed the saves that led to it). The events go to the
model a ruleset names (``target``, e.g. 06.02's choice), one model at a time:
the model takes effective events until it is destroyed, and what is left of
the count goes on to the next model. Laws that reach the same state add up, so
the walk meets each state once.
"""

from __future__ import annotations

import heapq
from typing import Callable, Mapping

from flint import fmpq, fmpq_poly

from rules.engine.kernels import Kernel
from rules.engine.series import ZERO, correlate, dots, thin
from rules.engine.target import Group, State, run_of, wounds_left, with_group


def _mass(law: fmpq_poly) -> fmpq:
    return law(1) if not law.is_zero() else fmpq(0)


def consume(groups: tuple[Group, ...], target: Callable[[State], int | None], kernels: list[Kernel],
            start: Mapping[State, fmpq_poly]) -> dict[State, fmpq]:
    """The chance of each state once every state's events (``start[state]``: the law of their number) are taken."""
    final: dict[State, fmpq] = {}
    waiting: dict[State, fmpq_poly] = {}
    heap: list = []

    def finish(state: State, p) -> None:
        if p:
            final[state] = final.get(state, fmpq(0)) + p

    def push(state: State, law: fmpq_poly) -> None:
        if law.is_zero():
            return
        if state not in waiting:
            waiting[state] = ZERO
            heapq.heappush(heap, (-wounds_left(groups, state), state))
        waiting[state] += law

    for state, law in start.items():
        push(state, law)
    while heap:
        _, state = heapq.heappop(heap)
        law = waiting.pop(state)
        g = target(state)
        if g is None:
            finish(state, _mass(law))
            continue
        kernel = kernels[g]
        models, dead = run_of(groups, state, target, lambda h: (id(kernels[h]), groups[h].W))
        tops = [w for _, _, w, _ in models]
        capacity = sum(tops)
        residual = thin(law, kernel.keep, capacity)
        left = _mass(law)  # what is not finished here was left when the run was destroyed
        used = 0
        for h, alive, w, base in models:
            dies, stays = kernel.chain(w)
            for w2, value in zip(stays, dots(residual, list(stays.values()))):
                finish(with_group(base, h, alive, w2), value)
                left -= value
            used += w
            residual = correlate(residual.truncate(capacity - used + dies.degree() + 1), dies)
        if target(dead) is None:
            finish(dead, left)
        else:
            push(dead, correlate(law, kernel.destroys_raw(tops, law.degree())))
    return final
