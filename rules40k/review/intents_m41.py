"""Did revision 007 of 999.m41 do what its notes say? Each check states one note's intent about the rules in force.

A check reads the m41 rule functions through their modules at call time, so the review runs it under each
version's overrides (spec/m41/versions/006.yaml): it should hold for 007 and, where the note changed something
to make it hold, fail for 006, with the case that shows it. Where a note compares with the old rule ("really
cranks up the power of penetrating hits"), the old rule is rules/m41/revision006.py's, named directly.

Each returns {"verdict": "holds" | "fails", "claim": what is checked, "counterexample": the case, or None}.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

STRENGTHS = TOUGHNESSES = range(1, 11)  # the charts' domain (spec/m41/annotations/domains.yaml)
NEEDED = range(2, 7)  # to-hit rolls from 2+ to 6+
BOLT_GUN = (4, 8)  # "bolt-guns wound t8 on a 5+": a bolt-gun is Strength 4
OLD_BOLT_GUN_NEEDS = 5


def _verdict(claim: str, counterexample: Any = None) -> dict:
    return {"verdict": "holds" if counterexample is None else "fails", "claim": claim,
            "counterexample": counterexample}


def to_wound_covers_s3_to_t5() -> dict:
    """Shooting note: "This range covers all the cases between s3 to t5 without making it so bolt-guns wound t8 on
    a 5+ still". Read (interpretation revision-007-s3-to-t5) as: for every Strength of 3 or more against every
    Toughness of 5 or less the chart in force asks what 006's chart asked, and S4 against T8 no longer needs 5+.
    Proved with z3 over shooting.to_wound_needed, the function the calculator calls."""
    import z3

    from rules.m41 import revision006, shooting

    claim = ("S3+ against T5 or less needs what it needed in 006, and a bolt-gun (S4) no longer wounds T8 on a 5+")
    strength, toughness = z3.Ints("strength toughness")
    solver = z3.Solver()
    solver.add(strength >= 3, strength <= max(STRENGTHS), toughness >= min(TOUGHNESSES), toughness <= 5)
    solver.add(shooting.to_wound_needed(strength, toughness) != revision006.to_wound_needed(strength, toughness))
    if solver.check() == z3.sat:
        model = solver.model()
        s, t = model[strength].as_long(), model[toughness].as_long()
        return _verdict(claim, {"strength": s, "toughness": t, "needs": shooting.to_wound_needed(s, t),
                                "006 needed": revision006.to_wound_needed(s, t)})
    bolt = shooting.to_wound_needed(*BOLT_GUN)
    if bolt == OLD_BOLT_GUN_NEEDS:
        return _verdict(claim, {"strength": BOLT_GUN[0], "toughness": BOLT_GUN[1], "needs": bolt})
    return _verdict(claim)


def twin_linked_stacks_with_rerolls() -> dict:
    """USR note: twin-linked is "roll to hit twice" "so it explicitly stacks with other re-rolls": at every to-hit
    roll from 2+ to 6+, a twin-linked attack that may also re-roll failed hits hits more often than a re-roll of
    failed hits alone."""
    from rules.m41 import usr

    claim = "with another re-roll, twin-linked hits more often than that re-roll alone (2+ to 6+)"
    for needed in NEEDED:
        both, alone = usr.twin_linked_hit_chance(needed, may_reroll_failed=True), usr.reroll_failed_chance(needed)
        if not both > alone:
            return _verdict(claim, {"needed": needed, "twin-linked and re-roll": str(both), "re-roll alone": str(alone)})
    return _verdict(claim)


POISON_VALUES = range(2, 7)


def poison_better_value_never_worse() -> dict:
    """USR note: poison reworked "to not have weird circumstances where its actually worse to have a better poison
    value": for every roll needed at the normal Strength, ranged and melee, with and without poison immunity, a
    better (lower) poison value never wounds less often."""
    from rules.m41 import usr

    claim = "a better poison value never wounds less often (every need 2+ to 6+, ranged and melee, immune or not)"
    for needed in NEEDED:
        for melee in (False, True):
            for immune in (False, True):
                chances = [usr.poisoned_wound_chance(needed, poison, melee, immune) for poison in POISON_VALUES]
                for better, worse in zip(POISON_VALUES, POISON_VALUES[1:]):
                    if chances[better - POISON_VALUES[0]] < chances[worse - POISON_VALUES[0]]:
                        return _verdict(claim, {"needed": needed, "melee": melee, "immune": immune,
                                                f"poison {better}+": str(chances[better - POISON_VALUES[0]]),
                                                f"poison {worse}+": str(chances[worse - POISON_VALUES[0]])})
    return _verdict(claim)


def _penetrating_hit_effects(results_bestowed, damaged_sub_rolls, hull_points_lost, ap: int) -> tuple[Fraction, ...]:
    """Per penetrating hit of this AP: the expected damage results suffered, vehicle damaged rolls and hull points."""
    from rules.m41 import vehicles

    totals = [Fraction(0)] * 3
    for result, chance in vehicles.damage_distribution(False, ap).items():
        effects = (len(results_bestowed(result)), damaged_sub_rolls(result), hull_points_lost(True, result))
        totals = [total + chance * effect for total, effect in zip(totals, effects)]
    return tuple(totals)


def penetrating_hits_cranked_up() -> dict:
    """Vehicles note: results made cumulative (and On Fire two results) "really cranks up the power of penetrating
    hits": at every AP, a penetrating hit brings at least as many damage results, vehicle damaged rolls and hull
    points on average as under 006's rules, and strictly more of something at some AP."""
    from rules.m41 import revision006, vehicles

    claim = ("per penetrating hit, at every AP, no fewer expected damage results, damaged rolls and hull points "
             "than in 006, and more at some AP")
    more = False
    for ap in range(1, vehicles.NO_AP + 1):
        now = _penetrating_hit_effects(vehicles.results_bestowed, vehicles.damaged_sub_rolls,
                                       vehicles.hull_points_lost, ap)
        before = _penetrating_hit_effects(revision006.results_bestowed, revision006.damaged_sub_rolls,
                                          revision006.hull_points_lost, ap)
        if any(a < b for a, b in zip(now, before)):
            return _verdict(claim, {"AP": ap, "now": [str(x) for x in now], "006": [str(x) for x in before]})
        more = more or now != before
    return _verdict(claim, None if more else {"every AP": "the same as in 006: nothing cranked up"})


INTENTS = {check.__name__: check for check in (to_wound_covers_s3_to_t5, twin_linked_stacks_with_rerolls,
                                                 poison_better_value_never_worse, penetrating_hits_cranked_up)}
