"""z3 proofs about 999.m41's Assault Phase, Characters and Psychic Powers (ruleset ``m41``): the WS chart monotone
both ways, combat resolution symmetric, the outnumbered penalty and the casting bonus monotone, the psychic test
monotone in mastery level and warp level.

Each builder calls the real rule functions through their modules so ``properties/test_m41_assault.py`` can swap in
a broken copy and watch the proof fail. The proof with ``expect="disproved"`` is a finding
(spec/m41/annotations/findings/assault.yaml): the WS chart's rows as printed overlap.
"""

from __future__ import annotations

from typing import Any

import z3

from properties.proofs import Built, proof
from rules.m41 import assault, psychic


def _between(symbol: Any, low: int, high: int) -> Any:
    return z3.And(symbol >= low, symbol <= high)


@proof("m41-assault-ws-chart-higher-attacker-never-hits-worse", ("m41:assault/to-hit",),
       "For any defender's WS, an attacker with a higher WS never needs a higher roll to hit (WS 1 to 10).")
def _ws_monotone_attacker() -> Built:
    low, high, defender = z3.Ints("attacker_ws higher_attacker_ws defender_ws")
    pre = [_between(low, 1, 10), _between(high, 1, 10), _between(defender, 1, 10), high >= low]
    goal = assault.to_hit_needed(high, defender) <= assault.to_hit_needed(low, defender)
    return pre, goal, {"attacker_ws": low, "higher_attacker_ws": high, "defender_ws": defender}


@proof("m41-assault-ws-chart-higher-defender-never-hit-easier", ("m41:assault/to-hit",),
       "For any attacker's WS, a defender with a higher WS is never hit on a lower roll (WS 1 to 10).")
def _ws_monotone_defender() -> Built:
    attacker, low, high = z3.Ints("attacker_ws defender_ws higher_defender_ws")
    pre = [_between(attacker, 1, 10), _between(low, 1, 10), _between(high, 1, 10), high >= low]
    goal = assault.to_hit_needed(attacker, high) >= assault.to_hit_needed(attacker, low)
    return pre, goal, {"attacker_ws": attacker, "defender_ws": low, "higher_defender_ws": high}


@proof("m41-assault-ws-chart-rows-as-printed-never-overlap", ("m41:assault/to-hit",),
       "Read as printed, 'Equal or less than' (4+) and 'Less than half' (5+) never both describe the same pair of "
       "WS, so the chart gives each pair one roll.", expect="disproved")
def _ws_printed_rows_overlap() -> Built:
    attacker, defender = z3.Ints("attacker_ws defender_ws")
    equal_or_less = attacker <= defender
    less_than_half = 2 * attacker < defender
    pre = [_between(attacker, 1, 10), _between(defender, 1, 10)]
    return pre, z3.Not(z3.And(equal_or_less, less_than_half)), {"attacker_ws": attacker, "defender_ws": defender}


@proof("m41-assault-combat-resolution-symmetric", ("m41:assault/combat-resolution",),
       "Swapping the two sides swaps the result: what one side wins the other loses, and a tie is a tie for both.")
def _resolution_symmetric() -> Built:
    inflicted, suffered = z3.Ints("inflicted suffered")
    destroyed_the_enemy, was_destroyed = z3.Bools("destroyed_the_enemy was_destroyed")
    pre = [inflicted >= 0, suffered >= 0]
    one = assault.combat_result(inflicted, suffered, destroyed_the_enemy, was_destroyed)
    other = assault.combat_result(suffered, inflicted, was_destroyed, destroyed_the_enemy)
    return pre, z3.And(one == -other, z3.Or(one == -1, one == 0, one == 1)), {
        "inflicted": inflicted, "suffered": suffered, "destroyed_the_enemy": destroyed_the_enemy,
        "was_destroyed": was_destroyed}


@proof("m41-assault-outnumbered-more-enemies-never-a-smaller-penalty", ("m41:assault/outnumbered",),
       "More enemy models never make the outnumbered penalty smaller, it is 0 unless the enemy has more models, "
       "and it stays between -4 and 0 ('not cumulative').")
def _outnumbered_monotone() -> Built:
    ours, theirs, more = z3.Ints("ours theirs more_theirs")
    pre = [_between(ours, 1, 30), _between(theirs, 0, 130), _between(more, 0, 130), more >= theirs]
    penalty = assault.outnumbered_modifier(ours, theirs)
    goal = z3.And(assault.outnumbered_modifier(ours, more) <= penalty, penalty >= -4, penalty <= 0,
                  z3.Implies(theirs <= ours, penalty == 0))
    return pre, goal, {"ours": ours, "theirs": theirs, "more_theirs": more}


@proof("m41-psychic-casting-bonus-monotone", ("m41:psychic/psychic-tests",),
       "A higher Leadership never gives a smaller casting bonus, and the bonus stays between -2 and +2.")
def _casting_bonus_monotone() -> Built:
    low, high = z3.Ints("leadership higher_leadership")
    pre = [_between(low, 0, 15), _between(high, 0, 15), high >= low]
    bonus = psychic.casting_bonus(low)
    goal = z3.And(psychic.casting_bonus(high) >= bonus, bonus >= -2, bonus <= 2)
    return pre, goal, {"leadership": low, "higher_leadership": high}


@proof("m41-psychic-test-monotone", ("m41:psychic/psychic-tests",),
       "A roll that casts a power also casts it for a psyker of a higher mastery level, and casts any power of a "
       "lower warp level.")
def _psychic_test_monotone() -> Built:
    total, level, higher_level, warp, lower_warp, leadership = z3.Ints(
        "dice_total mastery_level higher_mastery_level warp_level lower_warp_level leadership")
    pre = [_between(total, 2, 12), _between(level, 1, 4), _between(higher_level, 1, 4), higher_level >= level,
           _between(warp, 1, 3), _between(lower_warp, 1, 3), lower_warp <= warp, _between(leadership, 0, 15)]
    passed = psychic.psychic_test_passed(total, level, leadership, warp)
    goal = z3.Implies(passed, z3.And(psychic.psychic_test_passed(total, higher_level, leadership, warp),
                                     psychic.psychic_test_passed(total, level, leadership, lower_warp)))
    return pre, goal, {"dice_total": total, "mastery_level": level, "higher_mastery_level": higher_level,
                       "warp_level": warp, "lower_warp_level": lower_warp, "leadership": leadership}
