"""The save walk (rules.engine.saves) against the save rolls made one at a time (rules.engine.literal).

The calculator's properties reach the walk through whole scenarios, where most targets meet the same threshold
group after group. The walk's hard paths are elsewhere: a group that fails on more faces than the one before it
(a *rise*, where the walk counts rolls as a Poisson number), a rise followed by a group that saves the next roll
(the sequence ends mid-range), several start states that differ only in the first run (worked as a family), runs
of alike groups, mortal batches counted beside the saves. Here each problem is drawn to have that shape: groups
of 1-3 models with thresholds that go up and down along the allocation order, start states with wounded models
and lost models, and a count law with mortal channels. Both engines get the same groups, kernels and counts,
so any difference is the walk's.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from properties.mutation import fails_broken
from rules.engine import kernels as k
from rules.engine import literal, saves
from rules.engine.attack_rules import WeaponPlan
from rules.engine.calculate import Engine, _mpq
from rules.engine.exact import Q, add, to_fraction
from rules.engine.series import q
from rules.engine.laws import Counts
from rules.engine.target import Group, initial_state

#: Damage laws and the chance a wound is lost (Feel No Pain 5+ keeps 2/3, 4+ keeps 1/2).
DAMAGES = ({1: Fraction(1)}, {2: Fraction(1)}, {1: Fraction(1, 3), 2: Fraction(1, 3), 3: Fraction(1, 3)})
LOST = (Fraction(1), Fraction(2, 3), Fraction(1, 2))
#: What one attack die turns into: (wounds to save, mortal batches) with chances; some with mortal batches.
PER_ATTACK = (
    {(0, 0): Fraction(1, 3), (1, 0): Fraction(2, 3)},
    {(0, 0): Fraction(1, 6), (1, 0): Fraction(1, 2), (2, 0): Fraction(1, 3)},
    {(0, 0): Fraction(1, 2), (1, 0): Fraction(1, 3), (0, 1): Fraction(1, 6)},
    {(0, 0): Fraction(1, 6), (1, 0): Fraction(1, 2), (1, 1): Fraction(1, 6), (2, 0): Fraction(1, 6)},
)


def _problem(counts_and_wounds, thresholds, damages, lost, per_attack, attacks, models, order, precision, starts,
             each=False):
    """Everything both engines take, from plain data (so explicit @examples read as the problem they pose)."""
    groups = tuple(Group(f"G{i}", count, w, 4, 4, None, None, False, "bodyguard")
                   for i, (count, w) in enumerate(counts_and_wounds))
    plan = WeaponPlan(None, {a: Fraction(1, len(attacks)) for a in attacks}, models, per_attack,
                      DAMAGES[0], DAMAGES[0])
    if each:  # each wound saved on its own: the save goes into the event, every roll "fails" (6 faces); a roll
        # of 1 always fails, so at least one face does
        events = [k.saved_or_lost(Fraction(max(t, 1), 6), DAMAGES[d], LOST[f])
                  for t, d, f in zip(thresholds, damages, lost)]
        thresholds = [6] * len(groups)
    else:
        events = [k.loss_law(DAMAGES[d], LOST[f]) for d, f in zip(damages, lost)]
    current = Engine.current(tuple(order), precision)
    return groups, plan, events, list(thresholds), current, starts


def _fast(groups, plan, events, thresholds, current, starts) -> dict:
    kernels = [k.kernel(k.key(law)) for law in events]
    out = saves.resolve(groups, current, thresholds, kernels, Counts(plan), {s: q(p) for s, p in starts.items()})
    return {(state, m): to_fraction(p) for state, channels in out.items() for m, p in enumerate(channels) if p}


def _literal(groups, plan, events, thresholds, current, starts) -> dict:
    engine = literal.Literal(groups, current, lambda state: None, lambda g, face: face <= thresholds[g],
                             [{n: _mpq(p) for n, p in law.items()} for law in events],
                             [{1: Q(1)}] * len(groups), {1: Q(1)}, False)
    out: dict = {}
    for start, chance in starts.items():
        for (wounds, batches), p in plan.wound_events.items():
            for state, r in engine.saves(start, wounds).items():
                add(out, (state, batches), _mpq(chance) * p * r)
    return {key: to_fraction(p) for key, p in out.items() if p}


@st.composite
def save_walks(draw):
    """A save step shaped to reach the walk's rises, ends, families and runs (see the module docstring)."""
    n = draw(st.integers(2, 5))
    counts_and_wounds = [(draw(st.integers(1, 3)), draw(st.integers(1, 3))) for _ in range(n)]
    thresholds = draw(st.lists(st.integers(0, 6), min_size=n, max_size=n))
    if draw(st.booleans()) and n >= 3:  # a rise then a drop below the risen range: the sequence ends mid-walk
        low, high = sorted(draw(st.lists(st.integers(1, 5), min_size=2, max_size=2, unique=True)))
        thresholds[:3] = [low, high, draw(st.integers(0, low))]
    damages = draw(st.lists(st.integers(0, 2), min_size=n, max_size=n))
    lost = draw(st.lists(st.integers(0, 2), min_size=n, max_size=n))
    if draw(st.booleans()):  # two alike groups in a row act as one run
        counts_and_wounds[1] = (counts_and_wounds[1][0], counts_and_wounds[0][1])
        thresholds[1], damages[1], lost[1] = thresholds[0], damages[0], lost[0]
    order = draw(st.permutations(range(n)))
    precision = draw(st.none() | st.integers(0, n - 1))
    initial = initial_state(Group("", c, w, 4, 4, None, None, False, "") for c, w in counts_and_wounds)
    starts = {initial: Fraction(1)}
    for _ in range(draw(st.integers(0, 4))):  # wounded and depleted states: families, runs wounded past their first
        state = list(initial)
        for g in draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=2, unique=True)):
            count, w = counts_and_wounds[g]
            state[g] = (draw(st.integers(0, count)), draw(st.integers(1, w)))
            if state[g][0] == 0:
                state[g] = (0, w)
        if any(alive for alive, _ in state):
            starts[tuple(state)] = Fraction(draw(st.integers(1, 3)))
    total = sum(starts.values())
    starts = {s: p / total for s, p in starts.items()}
    per_attack = draw(st.sampled_from(PER_ATTACK))
    attacks = draw(st.sampled_from([(1,), (1, 2), (2, 3)]))
    return _problem(counts_and_wounds, thresholds, damages, lost, per_attack, attacks, draw(st.integers(1, 3)), order,
                    precision, starts, each=draw(st.booleans()) and draw(st.booleans()))


# Each explicit example poses one of the walk's paths, so they are met however few examples are drawn.
_RISE_THEN_END = _problem([(2, 1), (1, 2), (2, 1)], [2, 4, 1], [0, 0, 0], [0, 0, 0], PER_ATTACK[1], (2, 3), 3,
                          [0, 1, 2], None, {((2, 1), (1, 2), (2, 1)): Fraction(1)})
_RISE_WITH_FEEL_NO_PAIN = _problem([(1, 2), (2, 2), (1, 3)], [1, 3, 5], [2, 1, 0], [1, 2, 0], PER_ATTACK[3], (1, 2),
                                   3, [0, 1, 2], None, {((1, 2), (2, 2), (1, 3)): Fraction(1)})
_FAMILY = _problem([(3, 2), (2, 1)], [3, 5], [0, 0], [1, 0], PER_ATTACK[2], (1, 2), 3, [0, 1], None,
                   {((3, 2), (2, 1)): Fraction(1, 2), ((2, 1), (2, 1)): Fraction(1, 4), ((1, 2), (2, 1)): Fraction(1, 4)})
_RUN_AND_RISE = _problem([(2, 1), (2, 1), (1, 2), (2, 1)], [2, 2, 4, 3], [0, 0, 0, 1], [0, 0, 1, 0], PER_ATTACK[1],
                         (2, 3), 2, [0, 1, 2, 3], None, {((2, 1), (2, 1), (1, 2), (2, 1)): Fraction(2, 3),
                                                         ((1, 1), (2, 1), (1, 2), (2, 1)): Fraction(1, 3)})
#: Two alike groups in a run, the second with a model fewer in one start state: the states do not differ only in
#: the group the rolls start on, so they are not one family (the fast engine once worked them as one, and put the
#: losses of the shorter run into the wrong group).
_RUN_SHORTER_PAST_ITS_FIRST_GROUP = _problem(
    [(2, 1), (2, 1), (1, 2), (2, 1)], [2, 2, 4, 3], [0, 0, 0, 1], [0, 0, 1, 0], PER_ATTACK[1], (2, 3), 2,
    [0, 1, 2, 3], None, {((2, 1), (2, 1), (1, 2), (2, 1)): Fraction(2, 3),
                         ((2, 1), (1, 1), (1, 2), (2, 1)): Fraction(1, 3)})


@pytest.mark.refs("05.03", "05.04", "06.02")
@example(_RISE_THEN_END)
@example(_RISE_WITH_FEEL_NO_PAIN)
@example(_FAMILY)
@example(_RUN_AND_RISE)
@example(_RUN_SHORTER_PAST_ITS_FIRST_GROUP)
@given(save_walks())
def test_save_walk_gives_the_rolls_made_one_at_a_time(problem):
    """05.03-05.04, 06.02: every save roll made, then resolved lowest first into the current group, gives the same
    joint law of (state, mortal batches) whether rolled one at a time or walked group by group."""
    assert _fast(*problem) == _literal(*problem)


@pytest.mark.refs("05.03", "05.04", "06.02")
@pytest.mark.parametrize("problem,paths", [
    (_RISE_THEN_END, {"_rise", "waiting_mu"}), (_RISE_WITH_FEEL_NO_PAIN, {"_rise", "available_mu"}),
    (_FAMILY, {"_first_step"}), (_RUN_AND_RISE, {"_rise", "_first_step"})], ids=["rise then end", "rise with FNP",
                                                                                  "family", "run and rise"])
def test_explicit_walks_reach_the_paths_they_name(monkeypatch, problem, paths):
    """The explicit examples are worth keeping only if the walk takes the paths they were written for."""
    taken = set()
    for name in paths:
        original = getattr(saves._Walk, name)

        def spy(self, *args, _name=name, _original=original, **kwargs):
            taken.add(_name)
            return _original(self, *args, **kwargs)
        monkeypatch.setattr(saves._Walk, name, spy)
    _fast(*problem)
    assert taken == paths


#: Formations for the threshold sweep, each with start states that reach a path of the walk: wounded models and a
#: group already destroyed (families, and states alike but for the group the rolls start on); one-wound models
#: without Feel No Pain after a rise (a run destroyed by exactly one event); two alike groups whose second has a
#: wounded model (a run wounded past its first model, in two start states).
FORMATIONS = {
    "wounded starts": dict(counts_and_wounds=[(2, 1), (1, 2), (1, 2)], damages=[0, 2, 0], lost=[0, 1, 0],
                           starts={((2, 1), (1, 2), (1, 2)): Fraction(1, 2), ((1, 1), (1, 2), (1, 2)): Fraction(1, 4),
                                   ((2, 1), (1, 1), (1, 2)): Fraction(1, 4)}),
    "one-wound models": dict(counts_and_wounds=[(1, 1), (1, 1), (2, 1)], damages=[0, 0, 0], lost=[0, 0, 0],
                             starts={((1, 1), (1, 1), (2, 1)): Fraction(1, 2), ((0, 1), (1, 1), (2, 1)): Fraction(1, 4),
                                     ((1, 1), (0, 1), (2, 1)): Fraction(1, 4)}),
    "wounded past the first": dict(counts_and_wounds=[(1, 2), (2, 2), (1, 1)], damages=[0, 0, 0], lost=[0, 0, 2],
                                   starts={((1, 2), (2, 2), (1, 1)): Fraction(1, 4),
                                           ((1, 1), (2, 1), (1, 1)): Fraction(1, 4),
                                           ((1, 2), (2, 1), (1, 1)): Fraction(1, 4),
                                           ((1, 2), (1, 1), (1, 1)): Fraction(1, 4)}),
}


@pytest.mark.refs("05.03", "05.04", "06.02")
@pytest.mark.parametrize("formation", list(FORMATIONS))
@pytest.mark.parametrize("pattern", list(product((1, 3, 5), repeat=3)), ids=lambda p: "t=" + "".join(map(str, p)))
def test_every_threshold_pattern_of_three_groups(pattern, formation):
    """05.03, 06.02: three groups in a row, each failing on 1, 3 or 5 faces: every rise and drop the walk can meet
    on three groups, from the start states of each formation."""
    f = FORMATIONS[formation]
    problem = _problem(f["counts_and_wounds"], list(pattern), f["damages"], f["lost"], PER_ATTACK[3], (1, 2), 2,
                       [0, 1, 2], None, f["starts"])
    assert _fast(*problem) == _literal(*problem)


_WAITING_MU = saves._Walk.waiting_mu


def _waiting_mu_one_face_short(self, duals, pointer, lo, hi):
    """A broken walk: after a rise, a waiting pointer's range is counted one face short."""
    return _WAITING_MU(self, duals, pointer, lo, hi - 1) if hi > lo else _WAITING_MU(self, duals, pointer, lo, hi)


def test_save_walk_property_fails_for_a_broken_walk(monkeypatch):
    fails_broken(monkeypatch, test_save_walk_gives_the_rolls_made_one_at_a_time, saves._Walk, "waiting_mu",
                 _waiting_mu_one_face_short)
