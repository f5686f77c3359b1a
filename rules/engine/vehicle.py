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

from rules.engine.exact import ONE, add, exact, to_fraction

Event = Hashable


class VehicleRules(Protocol):
    def hits(self, weapon: Any) -> Mapping[int, Fraction]: ...

    def hit(self, weapon: Any, state: Any) -> Iterable[tuple[Fraction, Any, Event]]: ...

    def finished(self, state: Any) -> bool: ...


def run(rules: VehicleRules, weapons: Sequence[Any], start: Any,
        count: Callable[[Event], bool] | None = None) -> dict[Any, Fraction]:
    """The distribution of the vehicle's state after every weapon's hits. With ``count``, each state is paired
    with how many hits had an event ``count`` accepts (``(state, n)``), so a ruleset can ask how often a damage
    result came up."""
    dist: dict = {(start, 0): ONE}
    for weapon in weapons:
        hits = rules.hits(weapon)
        transitions: dict = {}  # one state's next states under this weapon, worked out once
        after: dict = {}
        current = dist
        for k in range(max(hits, default=0) + 1):
            if k:
                current = _one_hit(rules, weapon, current, count, transitions)
            p = exact(hits.get(k, 0))
            for key, q in current.items():
                add(after, key, p * q)
        dist = after
    if count is None:
        return {state: to_fraction(p) for (state, _), p in dist.items()}
    return {key: to_fraction(p) for key, p in dist.items()}


def _one_hit(rules: VehicleRules, weapon: Any, dist: dict, count: Callable[[Event], bool] | None,
             transitions: dict) -> dict:
    out: dict = {}
    for (state, n), p in dist.items():
        if rules.finished(state):
            add(out, (state, n), p)
            continue
        if state not in transitions:
            transitions[state] = [(exact(q), after, event) for q, after, event in rules.hit(weapon, state)]
        for q, after, event in transitions[state]:
            add(out, (after, n + (count is not None and bool(count(event)))), p * q)
    return out


def marginal(dist: Mapping[Any, Fraction], key: Callable[[Any], Hashable]) -> dict[Hashable, Fraction]:
    """The distribution of ``key(state)`` (states with the same key merged), in key order."""
    out: dict = {}
    for state, p in dist.items():
        k = key(state)
        out[k] = out.get(k, Fraction(0)) + p
    return dict(sorted((k, p) for k, p in out.items() if p))
