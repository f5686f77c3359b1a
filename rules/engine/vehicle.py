"""The exact attack sequence against one vehicle: a Markov chain over the vehicle's state, hit by hit.

A vehicle's damage is not a count of independent wounds: one hit can lower the armour the next hit rolls against,
or set it on fire so later hits cost more. So the engine follows the distribution of the vehicle's whole state
through the hits, one hit at a time, merging equal states (the chain stays as small as the distinct states the
rules can reach). It knows no edition; a ruleset supplies ``VehicleRules``:

- ``hits(weapon)``: the distribution of how many hits a weapon lands (its to-hit step);
- ``hit(weapon, state)``: what one hit does, as ``(chance, next state, event)`` triples (the event names what the
  hit's damage roll gave, or None), the chances summing to 1;
- ``finished(state)``: a state later hits cannot change (the vehicle is destroyed).

Weapons fire in the order given; every chance is an exact rational (``Fraction`` at the boundary).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Callable, Hashable, Iterable, Mapping, Protocol, Sequence

from rules.engine.exact import ONE, ZERO, add, exact, to_fraction

Event = Hashable


class VehicleRules(Protocol):
    def hits(self, weapon: Any) -> Mapping[int, Fraction]: ...

    def hit(self, weapon: Any, state: Any) -> Iterable[tuple[Fraction, Any, Event]]: ...

    def finished(self, state: Any) -> bool: ...


def run(rules: VehicleRules, weapons: Sequence[Any], start: Any,
        count: Callable[[Event], bool] | None = None) -> dict[Any, Fraction]:
    """The distribution of the vehicle's state after every weapon's hits. With ``count``, each state is paired
    with how many hits had an event ``count`` accepts (``(state, n)``), so a ruleset can ask how often a damage
    result came up.

    Inside, each state is numbered the first time it is reached and the chain runs on (number, n) pairs (a
    ruleset's state is a dataclass: hashing it at every step cost more than the arithmetic), and a finished state
    leaves the chain as soon as it is reached: the hits after it change nothing, so it stands for every count of
    hits from there on."""
    numbers: dict = {start: 0}
    states, finished = [start], [bool(rules.finished(start))]
    dist: dict = {(0, 0): ONE}
    for weapon in weapons:
        hits = {k: exact(p) for k, p in rules.hits(weapon).items() if p}
        moves: dict = {}  # one state's next states under this weapon, worked out once
        after: dict = {}
        current = _leave_finished(dist, finished, after, ONE)
        landed, tail = 0, sum(hits.values(), ZERO)  # the chance of at least ``landed`` hits
        while tail:
            if landed:  # the chain after ``landed`` hits, built on the one after one fewer
                reached = _one_hit(rules, weapon, current, count, moves, numbers, states, finished)
                current = _leave_finished(reached, finished, after, tail)
            chance = hits.get(landed, ZERO)
            for key, q in current.items() if chance else ():
                add(after, key, chance * q)
            landed, tail = landed + 1, tail - chance
        dist = after
    if count is None:
        return {states[number]: to_fraction(p) for (number, _), p in dist.items()}
    return {(states[number], n): to_fraction(p) for (number, n), p in dist.items()}


def _leave_finished(dist: dict, finished: list[bool], after: dict, share: Any) -> dict:
    """``dist`` without its finished states, which go to ``after`` weighted by ``share`` (the chance the weapon
    lands at least the hits that reached them)."""
    going = {}
    for key, q in dist.items():
        if finished[key[0]]:
            add(after, key, share * q)
        else:
            going[key] = q
    return going


def _moves(rules: VehicleRules, weapon: Any, state: Any, count: Callable[[Event], bool] | None, numbers: dict,
           states: list, finished: list[bool]) -> list[tuple[Any, int, int]]:
    """One hit's moves from ``state``: (chance, next state's number, 1 if ``count`` accepts its event else 0)."""
    out = []
    for q, after, event in rules.hit(weapon, state):
        if not q:
            continue  # a move that cannot happen: left out, so every chance the chain holds is above 0
        if after not in numbers:
            numbers[after] = len(states)
            states.append(after)
            finished.append(bool(rules.finished(after)))
        out.append((exact(q), numbers[after], int(count is not None and bool(count(event)))))
    return out


def _one_hit(rules: VehicleRules, weapon: Any, dist: dict, count: Callable[[Event], bool] | None, moves: dict,
             numbers: dict, states: list, finished: list[bool]) -> dict:
    out: dict = {}
    get = out.get
    for (number, n), p in dist.items():
        if number not in moves:
            moves[number] = _moves(rules, weapon, states[number], count, numbers, states, finished)
        for q, after, counted in moves[number]:  # p and q above 0: no zero chance enters (add, inlined here)
            key = (after, n + counted)
            out[key] = get(key, ZERO) + p * q
    return out


def marginal(dist: Mapping[Any, Fraction], key: Callable[[Any], Hashable]) -> dict[Hashable, Fraction]:
    """The distribution of ``key(state)`` (states with the same key merged), in key order."""
    out: dict = {}
    for state, p in dist.items():
        k = key(state)
        out[k] = out.get(k, Fraction(0)) + p
    return dict(sorted((k, p) for k, p in out.items() if p))
