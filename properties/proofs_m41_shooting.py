"""z3 proofs about Warhammer 999.m41's Shooting Phase and Morale (ruleset ``m41``): the to-hit and S−T charts
monotone, a roll of 1 missing, the cover save's floor at 6+, Insane Heroism, the morale state machine.

Each builder calls the real rule functions through their modules so ``properties/test_m41_shooting.py`` can swap
in a broken copy and watch the proof fail. Proofs with ``expect="disproved"`` are findings
(spec/m41/annotations/findings/shooting.yaml): the text as printed fails them, and the code follows a recorded
interpretation instead.
"""

from __future__ import annotations

from typing import Any

import z3

from properties.proofs import Built, proof
from rules.logic import DecisionTable, Row, Var
from rules.m41 import assault, morale, shooting
from rules.m41.morale import Morale, When


def _between(symbol: Any, low: int, high: int) -> Any:
    return z3.And(symbol >= low, symbol <= high)


# -- To hit --------------------------------------------------------------------------------------------------------


@proof("m41-higher-bs-never-hits-worse", ("m41:shooting/to-hit",),
       "For every D6 roll and to-hit penalty (-3 to 3), a firer of higher BS (1 to 10) hits whenever a firer of "
       "lower BS does, and a bigger penalty never makes a miss a hit.")
def _to_hit_monotone() -> Built:
    roll, low, high, penalty, more = z3.Ints("roll low_bs high_bs penalty more_penalty")
    pre = [_between(roll, 1, 6), _between(low, 1, 10), _between(high, low, 10), _between(penalty, -3, 3),
           _between(more, penalty, 3)]
    goal = z3.And(z3.Implies(shooting.hit_scored(roll, low, penalty), shooting.hit_scored(roll, high, penalty)),
                  z3.Implies(shooting.hit_scored(roll, low, more), shooting.hit_scored(roll, low, penalty)))
    return pre, goal, {"roll": roll, "low_bs": low, "high_bs": high, "penalty": penalty, "more_penalty": more}


@proof("m41-roll-of-one-always-misses", ("m41:shooting/to-hit",),
       "A roll of 1 never hits, whatever the BS (1 to 10, into the negative buffer) and the to-hit bonus or "
       "penalty (-3 to 3), so BS 6 (1+) hits no more than BS 5 (2+).")
def _one_misses() -> Built:
    bs, penalty = z3.Ints("ballistic_skill penalty")
    goal = z3.And(z3.Not(shooting.hit_scored(1, bs, penalty)),
                  shooting.hitting_faces(6, 0) == shooting.hitting_faces(5, 0))
    return [_between(bs, 1, 10), _between(penalty, -3, 3)], goal, {"ballistic_skill": bs, "penalty": penalty}


@proof("m41-to-hit-faces-are-n-or-better", ("m41:shooting/to-hit", "m41:assault/to-hit"),
       "On both to-hit charts a higher D6 result never misses where a lower one hits (BS or WS 1 to 10, a bonus or "
       "penalty of -3 to 3), so the faces that hit are one result and every one above it: the calculator's "
       "re-roll and twin-linked chances, which take an N+, rest on this.")
def _to_hit_faces_are_a_threshold() -> Built:
    low, high, skill, other_ws, penalty = z3.Ints("low_roll high_roll skill defender_ws penalty")
    pre = [_between(low, 1, 6), _between(high, low, 6), _between(skill, 1, 10), _between(other_ws, 1, 10),
           _between(penalty, -3, 3)]
    goal = z3.And(z3.Implies(shooting.hit_scored(low, skill, penalty), shooting.hit_scored(high, skill, penalty)),
                  z3.Implies(assault.hits(low, skill, other_ws, penalty), assault.hits(high, skill, other_ws, penalty)))
    return pre, goal, {"low_roll": low, "high_roll": high, "skill": skill, "defender_ws": other_ws,
                       "penalty": penalty}


# -- To wound ------------------------------------------------------------------------------------------------------


@proof("m41-higher-strength-never-wounds-worse", ("m41:shooting/to-wound", "m41:assault/to-wound"),
       "On the S−T chart a higher Strength never needs a higher roll to wound and a higher Toughness never needs a "
       "lower one (S and T 1 to 10), and every result is 2+ to 6+.")
def _to_wound_monotone() -> Built:
    s, stronger, t, tougher = z3.Ints("strength stronger toughness tougher")
    pre = [_between(s, 1, 10), _between(stronger, s, 10), _between(t, 1, 10), _between(tougher, t, 10)]
    needed = shooting.to_wound_needed(s, t)
    goal = z3.And(shooting.to_wound_needed(stronger, t) <= needed, shooting.to_wound_needed(s, tougher) >= needed,
                  _between(needed, 2, 6))
    return pre, goal, {"strength": s, "stronger": stronger, "toughness": t, "tougher": tougher}


#: The chart with its fourth row read as printed: "less than" (below 0), 5+, before "-3 or less", 6+.
TO_WOUND_AS_PRINTED = DecisionTable(
    name="m41-strength-minus-toughness-as-printed",
    refs=("shooting/to-wound", "assault/to-wound"),
    inputs=(Var("strength", 1, 10), Var("toughness", 1, 10)),
    rows=(
        Row("2 or greater: 2+", lambda strength, toughness: strength - toughness >= 2, 2),
        Row("1: 3+", lambda strength, toughness: strength - toughness == 1, 3),
        Row("0: 4+", lambda strength, toughness: strength - toughness == 0, 4),
        Row("less than: 5+", lambda strength, toughness: strength - toughness < 0, 5),
        Row("-3 or less: 6+", lambda strength, toughness: strength - toughness <= -3, 6),
    ),
)


@proof("m41-to-wound-less-than-row-as-printed", ("m41:shooting/to-wound", "m41:assault/to-wound"),
       "Read as printed, the chart's 'less than' row (S−T below 0, 5+) still leaves the '-3 or less' row its 6+: "
       "every S−T of -3 or less needs a 6 to wound.", expect="disproved")
def _less_than_as_printed() -> Built:
    s, t = z3.Ints("strength toughness")
    pre = [_between(s, 1, 10), _between(t, 1, 10), s - t <= -3]
    return pre, TO_WOUND_AS_PRINTED(strength=s, toughness=t) == 6, {"strength": s, "toughness": t}


# -- Cover ---------------------------------------------------------------------------------------------------------


@proof("m41-cover-save-worsened-never-past-six", ("m41:shooting/cover-bonuses",),
       "A monstrous creature, vehicle or bulky unit in cover has a cover save one worse than the chart's, but never "
       "worse than 6+; out of cover nobody has one (7).")
def _cover_floor() -> Built:
    cover = z3.Int("cover")
    big = shooting.cover_save(cover, True)
    printed = shooting.cover_save(cover, False)
    goal = z3.If(cover == shooting.NO_COVER, z3.And(big == 7, printed == 7),
                 z3.And(big <= 6, big >= printed, z3.Or(big == printed + 1, big == 6)))
    return [_between(cover, shooting.NO_COVER, shooting.HEAVY_COVER)], goal, {"cover": cover}


# -- Morale --------------------------------------------------------------------------------------------------------


@proof("m41-insane-heroism-and-twelve", ("m41:morale/insane-heroism", "m41:morale/morale-check"),
       "Double 1s pass a morale check whatever the Ld (2 to 12) and penalty (0 to 3), a 12 always fails, and a "
       "higher Ld or a smaller penalty never turns a pass into a failure.")
def _insane_heroism() -> Built:
    a, b, ld, higher, penalty = z3.Ints("first_die second_die leadership higher_leadership penalty")
    pre = [_between(a, 1, 6), _between(b, 1, 6), _between(ld, 2, 12), _between(higher, ld, 12),
           _between(penalty, 0, 3)]
    goal = z3.And(morale.morale_check_passed(1, 1, ld, penalty), z3.Not(morale.morale_check_passed(6, 6, ld, 0)),
                  z3.Implies(morale.morale_check_passed(a, b, ld, penalty),
                             z3.And(morale.morale_check_passed(a, b, higher, penalty),
                                    morale.morale_check_passed(a, b, ld, 0))))
    return pre, goal, {"first_die": a, "second_die": b, "leadership": ld, "higher_leadership": higher,
                       "penalty": penalty}


@proof("m41-morale-state-machine-possible", ("m41:morale/morale-check", "m41:morale/when-to-fall-back",
                                             "m41:morale/rallying", "m41:morale/shaken"),
       "After any check a unit is steady, shaken, pinned or falling back; a passed check never worsens it; only a "
       "passed rally test ends falling back; a failure always leaves it shaken or falling back; and a steady unit "
       "failing an ordinary check is shaken, not fleeing.")
def _state_machine() -> Built:
    state = z3.Int("state")
    passed, losing, rallying = z3.Bools("passed for_losing_combat rallying")
    after = morale.state_after_check(state, passed, losing, rallying)
    fleeing = state == Morale.FALLING_BACK
    goal = z3.And(_between(after, Morale.STEADY, Morale.FALLING_BACK),
                  z3.Implies(z3.And(passed, z3.Not(fleeing)), after == state),
                  z3.Implies(fleeing, (after != Morale.FALLING_BACK) == z3.And(passed, rallying)),
                  z3.Implies(z3.Not(passed), z3.Or(after == Morale.SHAKEN, after == Morale.FALLING_BACK)),
                  z3.Implies(z3.And(state == Morale.STEADY, z3.Not(passed), z3.Not(losing)), after == Morale.SHAKEN),
                  z3.Implies(z3.And(z3.Not(fleeing), z3.Not(passed), z3.Or(losing, state != Morale.STEADY)),
                             after == Morale.FALLING_BACK))
    pre = [_between(state, Morale.STEADY, Morale.FALLING_BACK), z3.Implies(rallying, fleeing)]
    return pre, goal, {"state": state, "passed": passed, "for_losing_combat": losing, "rallying": rallying}


@proof("m41-every-morale-check-at-end-of-assault-phase", ("m41:morale/when-to-test", "m41:morale/rallying"),
       "As When to Test puts it, every morale check, whatever called for it (the rally test is one of its reasons), "
       "is taken at the end of the assault phase.", expect="disproved")
def _rally_timing() -> Built:
    rallying = z3.Bool("rallying")
    return [], morale.when_check_is_taken(rallying) == When.END_OF_ASSAULT_PHASE, {"rallying": rallying}
