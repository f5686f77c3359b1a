"""999.m41 as it stood in revision 006, rebuilt from revision 007's notes (004, lines 15-74).

Each function or table here is the old rule one note describes precisely enough to rebuild, tagged on that
note's section. spec/m41/versions/006.yaml says which 007 attribute each one replaces in the ``m41@006``
version (``rules40k review m41@006 m41@007``), and which notes are too vague to rebuild. Nothing here is
called by revision 007's rules: only the review puts these in place of the 007 ones.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Sequence

from rules.logic import And, DecisionTable, If, Not, Row, Var
from rules.m41.vehicles import Damage
from rules.registry import ruleset_rule

rule = ruleset_rule("m41")

#: Shooting note: "Changed to-wound chart 6+ criteria to be -3 or less, rather than less than half." The 6+ row
#: read "less than half" (S below half the T: 2*S < T); the other rows are 007's, in the printed order, the 5+ row
#: keeping what the 6+ row does not take (interpretation revision-006-less-than-half).
TO_WOUND_TABLE = DecisionTable(
    name="m41-006-strength-minus-toughness",
    refs=("front/revision-007/shooting-phase", "front/revision-007/assault-phase"),
    inputs=(Var("strength", 1, 10), Var("toughness", 1, 10)),
    rows=(
        Row("2 or greater: 2+", lambda strength, toughness: strength - toughness >= 2, 2),
        Row("1: 3+", lambda strength, toughness: strength - toughness == 1, 3),
        Row("0: 4+", lambda strength, toughness: strength - toughness == 0, 4),
        Row("less than [0, at least half]: 5+",
            lambda strength, toughness: And(strength - toughness < 0, Not(2 * strength < toughness)), 5),
        Row("less than half: 6+", lambda strength, toughness: 2 * strength < toughness, 6),
    ),
)


@rule("front/revision-007/shooting-phase", "front/revision-007/assault-phase")
def to_wound_needed(strength: Any, toughness: Any) -> Any:
    """The D6 result a hit needed to wound on 006's chart, whose 6+ row read "less than half"."""
    return TO_WOUND_TABLE(strength=strength, toughness=toughness)


@rule("front/revision-007/general-principles")
def successive_saves(saves: Sequence[int]) -> list[int]:
    """006's successive saves: "Changed saves to be always taken in best-save-first order, and added limit of 6+ to
    successive saving throw reduction" - before, the defender chose the order and each later save was one worse
    with no 6+ limit (past 6+ it cannot pass). The order returned is best first, the choice that saves most
    often (swapping two adjacent saves a < b at penalties k, k+1 fails (a+k-1)(b+k) against (b+k-1)(a+k) times
    out of 36: best first is smaller by b-a)."""
    return [save + penalty for penalty, save in enumerate(sorted(saves))]


SCARE_RADIUS = 12  # Morale note: "Changed 12” scare radius to 6”."


@rule("front/revision-007/morale")
def near_a_fallen_back_friend_test(distance_to_friend_that_fell_back: Any) -> Any:
    """006's scare radius: "Changed 12” scare radius to 6”" - before, a unit within 12" of a friendly unit which
    had fallen back had to test."""
    return distance_to_friend_that_fell_back <= SCARE_RADIUS

FLEE_BASE = 3  # Morale note: "Fleeing is now d6 from 3+d6."


@rule("front/revision-007/morale")
def fall_back_distance(d6_roll: Any) -> Any:
    """006's fleeing move: "Fleeing is now d6 from 3+d6" - before, 3 plus the d6, in inches."""
    return FLEE_BASE + d6_roll


@rule("front/revision-007/usrs")
def twin_linked_hit_chance(needed: int, may_reroll_failed: bool = False) -> Fraction:
    """006's twin-linked: "Changed twin-linked to be 'roll to hit twice' so it explicitly stacks with other
    re-rolls" - before, it re-rolled failed hits, so a second re-roll adds nothing (a roll is re-rolled once):
    p + (1-p)p whether or not another rule re-rolls."""
    from rules.m41.usr import chance_at_least

    p = chance_at_least(needed)
    return p + (1 - p) * p


@rule("front/revision-007/usrs")
def below_half_strength_penalty_applies(below_half_strength: Any, knows_no_fear: Any) -> Any:
    """006's ATSKNF: "ATSKNF to ignore below half strengh penalty" - before, a unit below half strength suffered
    the penalty, ATSKNF or not."""
    return below_half_strength


@rule("front/revision-007/vehicles")
def results_bestowed(result: Damage) -> frozenset[Damage]:
    """006's damage results: "All results are now cumulative" - before, a result was only itself (no extra effect
    brings nothing)."""
    return frozenset() if result == Damage.NO_EXTRA_EFFECT else frozenset({result})


@rule("front/revision-007/vehicles")
def damaged_sub_rolls(result: Damage) -> int:
    """006's On Fire: "On Fire now causes 2 vehicle damage results" - before, one, like vehicle damaged."""
    return {Damage.ON_FIRE: 1, Damage.VEHICLE_DAMAGED: 1}.get(result, 0)


@rule("front/revision-007/vehicles")
def hull_points_lost(penetrating: Any, result: Any, already_on_fire: Any = False) -> Any:
    """006's hull points: "Only pens cause hull points by default" - before, a glancing hit cost one as a
    penetrating hit does (the rest as 007: one for vehicle damaged or on fire, one more for a penetrating hit while
    on fire). Every hit that reaches the chart is glancing or penetrating, so each costs one."""
    from_result = If(result >= Damage.VEHICLE_DAMAGED, 1, 0)
    from_fire = If(And(penetrating, already_on_fire), 1, 0)
    return 1 + from_result + from_fire
