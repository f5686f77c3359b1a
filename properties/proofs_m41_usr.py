"""z3 proofs about the Universal Special Rules of 999.m41 (ruleset ``m41``): feel no pain's bounds, the caps of
hard to hit, lance and sniper, poison never worse than the Strength's roll and better for a better value, the
haywire chart rising with the roll, Gets Hot! only on a first 1, cleave's one extra hit.

Each builder calls the real rule functions through their module so ``properties/test_m41_usr.py`` can swap in a
broken copy and watch the proof fail.
"""

from __future__ import annotations

from typing import Any

import z3

from properties.proofs import Built, proof
from rules.m41 import usr


def _between(symbol: Any, low: int, high: int) -> Any:
    return z3.And(symbol >= low, symbol <= high)


@proof("m41-feel-no-pain-bounds", ("m41:usr/feel-no-pain",),
       "Feel no pain never ignores a wound on a roll below its value, nor against AP1 or AP2, overpower, instant "
       "death or a wound no armour save can ever be taken against; with none of those it ignores every roll that "
       "reaches its value.")
def _feel_no_pain_bounds() -> Built:
    roll, ap, fnp = z3.Ints("roll ap feel_no_pain")
    overpower, instant_death, no_save = z3.Bools("overpower instant_death no_armour_save_ever")
    saved = usr.feel_no_pain_saves(roll, ap, fnp, overpower, instant_death, no_save)
    blocked = z3.Or(roll < fnp, z3.And(ap >= 1, ap <= 2), overpower, instant_death, no_save)
    goal = saved == z3.Not(blocked)
    return ([_between(roll, 1, 6), _between(ap, 1, 7), _between(fnp, 2, 6)], goal,
            {"roll": roll, "ap": ap, "feel_no_pain": fnp, "overpower": overpower, "instant_death": instant_death,
             "no_armour_save_ever": no_save})


@proof("m41-hard-to-hit-at-most-minus-one", ("m41:usr/hard-to-hit",),
       "However many sources make a model hard to hit, a ranged attack against it is at -1, never more; with none "
       "it is at 0, and close combat attacks are never penalised.")
def _hard_to_hit() -> Built:
    sources = z3.Int("hard_to_hit_sources")
    ranged = z3.Bool("ranged_attack")
    penalty = usr.hard_to_hit_penalty(sources, ranged)
    goal = penalty == z3.If(z3.And(ranged, sources >= 1), -1, 0)
    return [_between(sources, 0, 5)], goal, {"hard_to_hit_sources": sources, "ranged_attack": ranged}


@proof("m41-lance-caps-armour-at-twelve", ("m41:usr/lance",),
       "A lance counts armour above 12 as 12 and leaves 12 or less as it is: the armour it faces is min(AV, 12).")
def _lance() -> Built:
    armour = z3.Int("armour_value")
    goal = usr.armour_value_against(armour, True) == z3.If(armour > 12, 12, armour)
    return [_between(armour, 9, 15)], goal, {"armour_value": armour}


@proof("m41-sniper-wounds-on-four-at-worst", ("m41:usr/sniper",),
       "A sniper weapon never needs worse than 4+ to wound, and never worse than its Strength would need.")
def _sniper() -> Built:
    needed = z3.Int("needed")
    result = usr.sniper_wound_needed(needed)
    goal = z3.And(result <= 4, result <= needed, z3.Or(result == 4, result == needed))
    return [_between(needed, 2, 7)], goal, {"needed": needed}


@proof("m41-ranged-poison-better-value-never-worse", ("m41:usr/poisoned",),
       "A ranged poisoned attack never needs a worse wound roll than its Strength gives, and a better (lower) "
       "poison value never needs a worse roll than a worse one (revision 007's reworked poison).")
def _poison_monotone() -> Built:
    needed, better, worse = z3.Ints("needed better_poison worse_poison")
    with_better = usr.poisoned_ranged_wound_needed(needed, better)
    with_worse = usr.poisoned_ranged_wound_needed(needed, worse)
    goal = z3.And(with_better <= needed, with_better <= with_worse)
    return ([_between(needed, 2, 7), _between(better, 2, 6), _between(worse, 2, 6), better <= worse], goal,
            {"needed": needed, "better_poison": better, "worse_poison": worse})


@proof("m41-haywire-rises-with-the-roll", ("m41:usr/haywire",),
       "The haywire chart gives no effect on a 1, a glancing hit on 2 to 5 and a penetrating hit on a 6: never a "
       "lesser result for a higher roll.")
def _haywire() -> Built:
    roll, higher = z3.Ints("roll higher_roll")
    result, other = usr.haywire_result(roll), usr.haywire_result(higher)
    goal = z3.And(other >= result,
                  result == z3.If(roll == 1, usr.NO_EFFECT, z3.If(roll == 6, usr.PENETRATING, usr.GLANCING)))
    return [_between(roll, 1, 6), _between(higher, 1, 6), higher >= roll], goal, {"roll": roll, "higher_roll": higher}


@proof("m41-gets-hot-only-on-a-first-one", ("m41:usr/gets-hot", "m41:usr/gets-hot/re-rolls"),
       "Gets Hot! wounds the bearer exactly when the first roll is a 1 and the weapon is not on a vehicle.")
def _gets_hot() -> Built:
    first = z3.Int("first_roll")
    vehicle = z3.Bool("mounted_on_vehicle")
    goal = usr.gets_hot_wound(first, vehicle) == z3.And(first == 1, z3.Not(vehicle))
    return [_between(first, 1, 6)], goal, {"first_roll": first, "mounted_on_vehicle": vehicle}


@proof("m41-cleave-one-extra-hit-on-its-value", ("m41:usr/cleave", "m41:usr/on-an-n-plus"),
       "A cleave to-hit roll scores no hit when it misses, one hit when it hits below the cleave value, and two "
       "when it hits on the cleave value or more.")
def _cleave() -> Built:
    roll, needed, cleave_on = z3.Ints("roll needed cleave_on")
    hits = usr.cleave_hits(roll, needed, cleave_on)
    goal = hits == z3.If(roll < needed, 0, z3.If(roll >= cleave_on, 2, 1))
    return ([_between(roll, 1, 6), _between(needed, 2, 6), _between(cleave_on, 2, 6)], goal,
            {"roll": roll, "needed": needed, "cleave_on": cleave_on})


@proof("m41-cover-bonuses-improve-and-penalties-worsen", ("m41:usr/bulky", "m41:usr/small-targets",
                                                         "m41:usr/stealth", "m41:usr/sniper", "m41:usr/ignores-cover"),
       "Each of small targets and stealth improves a cover save by exactly 1 and each of bulky, sniper and "
       "ignores cover -1 worsens it by exactly 1, whatever else applies.")
def _cover() -> Built:
    cover = z3.Int("cover_save")
    flags = z3.Bools("bulky small_targets stealth sniper ignores_cover_minus_one")
    bulky, small, stealth, sniper, minus = flags
    got = usr.cover_save_needed(cover, bulky, small, stealth, sniper, minus)

    def one(flag: Any) -> Any:
        return z3.If(flag, 1, 0)

    goal = got == cover + one(bulky) + one(sniper) + one(minus) - one(small) - one(stealth)
    names = ("bulky", "small_targets", "stealth", "sniper", "ignores_cover_minus_one")
    return [_between(cover, 2, 6)], goal, {"cover_save": cover, **dict(zip(names, flags))}
