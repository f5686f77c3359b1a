"""999.m41 (004), Psychic Powers: mastery levels and known powers, warp charge spent by warp level, the psychic test
(2d6 + mastery level against 6 + warp level, with the Leadership casting bonus), perils of the warp, deny the
witch and overcasting, with exact odds from rules.dice.
"""

from __future__ import annotations

import itertools
import re
from fractions import Fraction
from typing import Any

from rules.logic import And, DecisionTable, If, Not, Or, Row, Var
from rules.registry import ruleset_rule

rule = ruleset_rule("m41")

TEST_BASE = 6  # "higher than or equal to 6 plus the warp level of the power"
CASTING_DICE = 2  # "Roll 2d6 and add the psyker’s mastery level"
OVERCAST_DICE = 3  # "caster may roll a 3rd dice while casting"
LOWEST_WARP_CHARGE = -1  # "This may even bring the psyker to -1 warp charge"
PERILS_RANGE = 6  # "for every other unit within 6” of psyker up to d3 models suffer a wound"
FACES = range(1, 7)

#: The Leadership Casting Bonus table, its five rows as printed.
CASTING_BONUS_TABLE = DecisionTable(
    name="m41-psychic-casting-bonus",
    refs=("psychic/psychic-tests",),
    inputs=(Var("leadership", 0, 15),),
    rows=(
        Row("6 or less -2", lambda leadership: leadership <= 6, -2),
        Row("7 -1", lambda leadership: leadership == 7, -1),
        Row("8 0", lambda leadership: leadership == 8, 0),
        Row("9 +1", lambda leadership: leadership == 9, 1),
        Row("10 or more +2", lambda leadership: leadership >= 10, 2),
    ),
)


@rule("psychic/psychic-tests")
def casting_bonus(leadership: Any) -> Any:
    """The casting roll's bonus from the psyker's Leadership: -2 at 6 or less up to +2 at 10 or more."""
    return CASTING_BONUS_TABLE(leadership=leadership)


_PSYKER = re.compile(r"^\s*psyker\s*\(\s*([0-9]+)\s*\)\s*$", re.I)


@rule("psychic/mastery-levels")
def mastery_level(special_rule: str) -> int:
    """The mastery level in a psyker special rule: the number after it, in parenthesis ("Psyker (2)" is 2)."""
    match = _PSYKER.match(special_rule)
    if not match:
        raise ValueError(f"{special_rule!r} is not a psyker special rule with a mastery level, like 'Psyker (2)'")
    return int(match.group(1))


@rule("psychic/how-many-known-powers")
def known_powers(mastery_level: Any) -> Any:
    """Most psykers know one more power than their mastery level."""
    return mastery_level + 1


@rule("psychic/how-many-powers-can-be-cast", "psychic/warp-charge")
def warp_charge_at_start_of_turn(mastery_level: Any) -> Any:
    """A psyker gains warp charge equal to his mastery level at the start of every turn; what is left from the last
    turn is lost, so this is his whole pool."""
    return mastery_level


@rule("psychic/how-many-powers-can-be-cast", "psychic/warp-level", "psychic/overcast")
def may_attempt(warp_charge: Any, warp_level: Any, overcasting: Any = False, overcast_this_turn: Any = False) -> Any:
    """A psyker may attempt a power he has the warp charge for; overcasting (once per turn) lets him go down to -1."""
    floor = If(And(overcasting, Not(overcast_this_turn)), LOWEST_WARP_CHARGE, 0)
    return warp_charge - warp_level >= floor


@rule("psychic/warp-level", "psychic/how-many-powers-can-be-cast", "psychic/overcast")
def warp_charge_after(warp_charge: Any, warp_level: Any, extra_spent: Any = 0) -> Any:
    """Casting spends warp charge equal to the warp level (plus any extra overcast charge), whether or not the
    test is passed."""
    return warp_charge - warp_level - extra_spent


@rule("psychic/casting-psychic-powers")
def may_manifest(falling_back: Any, already_manifested_this_turn: Any,
                 arrived_from_reserve_this_turn: Any = False, start_of_movement_power: Any = False) -> Any:
    """A psyker cannot manifest while falling back (gone to ground is no bar), nor a power he already manifested
    this turn (a failed one may be tried again), nor a start-of-movement power on the turn he arrives from
    reserve."""
    return And(Not(falling_back), Not(already_manifested_this_turn),
               Not(And(arrived_from_reserve_this_turn, start_of_movement_power)))


@rule("psychic/line-of-sight")
def may_target(line_of_sight: Any, psyker_embarked: Any, target_embarked_with_psyker: Any,
               target_embarked_elsewhere: Any) -> Any:
    """A power needs line of sight to its target; an embarked psyker targets only himself, his vehicle or a unit
    embarked with him, and a psyker outside a transport cannot target a unit embarked in one."""
    return If(psyker_embarked, target_embarked_with_psyker,
              And(line_of_sight, Not(target_embarked_elsewhere)))


@rule("psychic/psychic-tests")
def casting_score(dice_total: Any, mastery_level: Any, leadership: Any) -> Any:
    """The casting roll: the dice plus the mastery level plus the Leadership bonus."""
    return dice_total + mastery_level + casting_bonus(leadership)


@rule("psychic/psychic-tests")
def psychic_test_passed(dice_total: Any, mastery_level: Any, leadership: Any, warp_level: Any) -> Any:
    """The power is cast when the casting roll is 6 plus its warp level or more."""
    return casting_score(dice_total, mastery_level, leadership) >= TEST_BASE + warp_level


@rule("psychic/perils-of-the-warp", "psychic/casting-psychic-powers")
def perils(first_die: Any, second_die: Any) -> Any:
    """A double 1 or a double 6 on the psychic test is perils of the warp, whether the test passed or not."""
    return And(first_die == second_die, Or(first_die == 1, first_die == 6))


@rule("psychic/perils-of-the-warp")
def perils_wounds(psyker_destroyed: Any) -> dict:
    """Perils: the psyker suffers 1 wound, no saves of any kind; if it kills him, up to d3 models of every other
    unit within 6" suffer a wound, no saves."""
    return {"psyker_wounds": 1, "saves_allowed": False,
            "nearby_units_suffer": "D3" if psyker_destroyed else None, "within_inches": PERILS_RANGE}


def _chance(dice_count: int, event) -> Fraction:
    rolls = list(itertools.product(FACES, repeat=dice_count))
    return Fraction(sum(1 for faces in rolls if event(faces)), len(rolls))


@rule("psychic/psychic-tests", "psychic/overcast")
def psychic_test_chance(mastery_level: int, warp_level: int, leadership: int, overcast: bool = False) -> Fraction:
    """The exact chance to cast: 2d6 (3d6 when overcast with more charge than needed, the third dice added:
    interpretation psychic-third-dice-added) plus mastery level and Leadership bonus, at least 6 + warp level."""
    dice_count = OVERCAST_DICE if overcast else CASTING_DICE
    return _chance(dice_count, lambda faces: psychic_test_passed(sum(faces), mastery_level, leadership, warp_level))


@rule("psychic/perils-of-the-warp")
def perils_chance() -> Fraction:
    """The exact chance of perils on a 2d6 psychic test: a double 1 or a double 6, 2 in 36."""
    return _chance(CASTING_DICE, lambda faces: perils(faces[0], faces[1]))


@rule("psychic/deny-the-witch")
def denial_dice(mastery_level: Any, extra_dice_chosen: Any) -> Any:
    """Deny the witch rolls 1d6 plus up to one extra d6 per mastery level, as the denying player chooses."""
    return 1 + If(extra_dice_chosen > mastery_level, mastery_level, If(extra_dice_chosen < 0, 0, extra_dice_chosen))


@rule("psychic/deny-the-witch")
def denied(denial_total: Any, casting_total: Any) -> Any:
    """The power is dismantled only if the denial roll is higher than the caster's score (a tie stands)."""
    return denial_total > casting_total


@rule("psychic/deny-the-witch")
def deny_chance(mastery_level: int, casting_total: int) -> Fraction:
    """The exact chance a psyker of a mastery level, rolling all the dice he may, rolls higher than a casting
    score."""
    return _chance(denial_dice(mastery_level, mastery_level), lambda faces: denied(sum(faces), casting_total))


@rule("psychic/overcast")
def overcast_dice(warp_spent: Any, warp_level: Any) -> Any:
    """A power cast with more warp charge than it needs rolls a third dice."""
    return If(warp_spent > warp_level, OVERCAST_DICE, CASTING_DICE)


@rule("psychic/overcast")
def overcast_leadership_loss(warp_charge_left: Any, passed_leadership_test: Any) -> Any:
    """A psyker left at -1 warp charge takes a leadership test; failing costs 1 Ld for the rest of the game
    (cumulative)."""
    return If(And(warp_charge_left < 0, Not(passed_leadership_test)), 1, 0)


@rule("psychic/resolving-the-power", "psychic/casting-psychic-powers", "psychic/deny-the-witch")
def power_resolves(test_passed: Any, target_is_enemy: Any, denied_it: Any) -> Any:
    """A power resolves when its test passed and, aimed at an enemy, the enemy did not deny it."""
    return And(test_passed, Not(And(target_is_enemy, denied_it)))
