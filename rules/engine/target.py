"""The target unit as the engine sees it: allocation groups, and states of those groups.

A ruleset decides how the target's models form groups (05.03's allocation groups,
or one group per model entry); the engine only needs each group's size and
characteristics. A unit *state* is a tuple with one ``(alive, top)`` pair per
group: how many of its models are left, and the wounds left on the model that
takes the next damage (a wounded one if there is one, else a fresh one). Every
rule this project encodes sends damage to a group's wounded model first, so a
group has at most one wounded model and the pair describes it completely.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Iterable, Mapping



State = tuple[tuple[int, int], ...]


@dataclass(frozen=True)
class Group:
    """Models the engine treats alike: same W, saves and Feel No Pain, damaged one at a time."""

    name: str
    count: int
    W: int
    T: int
    Sv: int
    InSv: int | None
    FNP: int | None
    character: bool
    role: str  # "bodyguard", or "leader"/"support" inside an attached unit


def initial_state(groups: Iterable[Group]) -> State:
    return tuple((g.count, g.W) for g in groups)


def destroyed(state: State) -> bool:
    return all(alive == 0 for alive, _ in state)


def models_left(state: State) -> int:
    return sum(alive for alive, _ in state)


def wounds_left(groups: tuple[Group, ...], state: State) -> int:
    return sum((alive - 1) * g.W + top for g, (alive, top) in zip(groups, state) if alive)


def with_group(state: State, g: int, alive: int, top: int) -> State:
    return state[:g] + ((alive, top),) + state[g + 1:]


def run_of(groups: tuple[Group, ...], state: State, current: Callable[[State], int | None],
           key: Callable[[int], object]) -> tuple[list[tuple[int, int, int, State]], State]:
    """The models that take events one after another from ``state``, while the group taking them has the same
    ``key`` (kernel and threshold) as the first: consecutive groups alike act as one group. Returns each model as
    (its group, that group's models left while it is worked on, its wounds left, the state it is worked on in),
    and the state once they are all destroyed."""
    models = []
    g = current(state)
    first = key(g) if g is not None else None
    while g is not None and key(g) == first:
        alive, top = state[g]
        for i, w in enumerate([top] + [groups[g].W] * (alive - 1)):
            models.append((g, alive - i, w, state))
        state = with_group(state, g, 0, groups[g].W)
        g = current(state)
    return models, state


def models_destroyed(groups: tuple[Group, ...], dist: Mapping[State, Any]) -> dict:
    """The chance of each number of models destroyed (in the chances' own exact type)."""
    total = sum(g.count for g in groups)
    return _tally(dist, lambda state: total - models_left(state))


def destroyed_in_group(groups: tuple[Group, ...], dist: Mapping[State, Any], g: int) -> dict:
    """The chance of each number of group g's models destroyed: which models fell, not only how many."""
    return _tally(dist, lambda state: groups[g].count - state[g][0])


def wounds_lost(groups: tuple[Group, ...], dist: Mapping[State, Any]) -> dict:
    total = sum(g.count * g.W for g in groups)
    return _tally(dist, lambda state: total - wounds_left(groups, state))


def _tally(dist: Mapping[State, Any], number: Callable[[State], int]) -> dict:
    out: dict = {}
    for state, p in dist.items():
        if p:
            key = number(state)
            out[key] = out[key] + p if key in out else p
    return dict(sorted(out.items()))
