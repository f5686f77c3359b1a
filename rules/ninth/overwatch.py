"""Overwatch, the earlier edition's shooting at a charging unit before its charge roll.

Only an unmodified hit roll of 6 hits, whatever the firing model's Ballistic Skill and whatever hit roll
modifiers apply, so the chance of a hit is 1/6 for every firing model. Overwatch shoots at the charging unit,
and rules that only let a unit be targeted while it is the closest target do not protect it.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from rules.logic import And, If, Not
from rules.registry import ruleset_rule

rule = ruleset_rule("ninth")

OVERWATCH_HIT = 6  # the unmodified hit roll Overwatch always needs
D6_FACES = range(1, 7)


@rule("overwatch")
def may_fire_overwatch(has_overwatch_rule: Any, target_of_the_charge: Any, enemy_within_engagement_range: Any,
                       charge_roll_made: Any = False) -> Any:
    """Whether a unit may fire Overwatch: a rule lets it, it is a target of the enemy's declared charge, no enemy
    unit is within Engagement Range of it, and the charge roll has not been made yet."""
    return And(has_overwatch_rule, target_of_the_charge, Not(enemy_within_engagement_range), Not(charge_roll_made))


@rule("overwatch")
def overwatch_hits(unmodified_roll: Any, ballistic_skill: Any = 3, modifier: Any = 0) -> Any:
    """Whether an Overwatch hit roll succeeds: only on an unmodified 6 (Ballistic Skill and modifiers are ignored,
    so the arguments are accepted and deliberately unused)."""
    return unmodified_roll == OVERWATCH_HIT


@rule("overwatch")
def overwatch_hitting_faces(ballistic_skill: Any = 3, modifier: Any = 0) -> Any:
    """How many of a D6's six faces hit when firing Overwatch, for a model of this Ballistic Skill under this
    modifier (always one)."""
    total: Any = 0
    for face in D6_FACES:
        total = total + If(overwatch_hits(face, ballistic_skill, modifier), 1, 0)
    return total


@rule("overwatch")
def overwatch_hit_chance(ballistic_skill: int = 3, modifier: int = 0) -> Fraction:
    """The chance that one Overwatch attack hits: hitting faces out of six (1/6 whatever the BS and modifiers)."""
    return Fraction(overwatch_hitting_faces(ballistic_skill, modifier), len(D6_FACES))


@rule("overwatch")
def overwatch_target_allowed(is_the_charging_unit: Any, targetable_only_if_closest: Any = False,
                             is_closest_target: Any = True) -> Any:
    """Whether a unit may be the target of Overwatch: exactly the charging unit, even where a rule (e.g. Look Out,
    Sir) would only let it be targeted while it is the closest target."""
    return is_the_charging_unit

