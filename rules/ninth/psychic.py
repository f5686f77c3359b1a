"""The earlier edition's Psychic phase: which PSYKERS may manifest, the Psychic test (2D6 against the warp charge),
Perils of the Warp on a double 1 or double 6, Deny the Witch (2D6 beating the Psychic test's result), Smite and
its rising warp charge, and the once-per-battle-round limit on every power but Smite.

Chances are exact, counted over the 36 equally likely outcomes of 2D6.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from rules import dice
from rules.logic import And, If, Not, Or
from rules.registry import ruleset_rule

rule = ruleset_rule("ninth")

D6_FACES = range(1, 7)
TWO_D6 = [(first, second) for first in D6_FACES for second in D6_FACES]
DENY_RANGE = 24  # inches: a denying PSYKER is within 24" of the one manifesting
SMITE = "Smite"
SMITE_WARP_CHARGE = 5
SMITE_RANGE = 18  # inches
SMITE_STRONG_RESULT = 11  # a Psychic test of 11 or more: D6 mortal wounds instead of D3
PERILS_BLAST_RANGE = 6  # inches


@rule("psychic-phase", "movement-phase/fall-back")
def psyker_eligible(psyker: Any, fell_back: Any = False, titanic: Any = False) -> Any:
    """Whether a unit may be selected in its Psychic phase: a PSYKER that did not Fall Back this turn, unless it is
    TITANIC."""
    return And(psyker, Or(Not(fell_back), titanic))


@rule("psychic-phase/psychic-powers")
def knows_power(psyker: Any, power: str, powers_listed: tuple[str, ...] = ()) -> Any:
    """Whether a unit knows a psychic power: every PSYKER knows Smite, and the powers its datasheet and the other
    rules in use give it."""
    return And(psyker, Or(power == SMITE, power in powers_listed))


@rule("psychic-phase/manifesting-psychic-powers")
def may_attempt_power(power: str, attempted_this_battle_round: Any = False) -> Any:
    """Whether an army may attempt to manifest a power: Smite any number of times; any other power not if it was
    already attempted this battle round (by any PSYKER unit of the army)."""
    return Or(power == SMITE, Not(attempted_this_battle_round))


@rule("psychic-phase/psychic-tests")
def psychic_test_passed(total: Any, warp_charge: Any) -> Any:
    """Whether a Psychic test is passed: the 2D6 total equals or exceeds the power's warp charge."""
    return total >= warp_charge


@rule("psychic-phase/psychic-tests", "psychic-phase/perils-of-the-warp")
def perils_of_the_warp(first_die: Any, second_die: Any) -> Any:
    """Whether a Psychic test's dice bring Perils of the Warp: a double 1 or a double 6 (passed or not)."""
    return And(first_die == second_die, Or(first_die == 1, first_die == 6))


@rule("psychic-phase/psychic-tests")
def psychic_test_chance(warp_charge: int) -> Fraction:
    """The exact chance that a Psychic test passes: the 2D6 outcomes reaching the warp charge, out of 36."""
    return Fraction(sum(1 for a, b in TWO_D6 if psychic_test_passed(a + b, warp_charge)), len(TWO_D6))


@rule("psychic-phase/psychic-tests", "psychic-phase/perils-of-the-warp")
def perils_chance() -> Fraction:
    """The exact chance that a Psychic test brings Perils of the Warp: two outcomes (1-1 and 6-6) of 36."""
    return Fraction(sum(1 for a, b in TWO_D6 if perils_of_the_warp(a, b)), len(TWO_D6))


@rule("psychic-phase/manifesting-psychic-powers", "psychic-phase/deny-the-witch")
def may_attempt_deny(psyker: Any, distance_inches: Any, already_denied_attempt: Any = False) -> Any:
    """Whether an enemy unit may attempt to deny a power: a PSYKER within 24" of the manifesting PSYKER, and no
    attempt has been made yet to deny this power (only one is allowed).

    Interpretation: within-inclusive.
    """
    return And(psyker, distance_inches <= DENY_RANGE, Not(already_denied_attempt))


@rule("psychic-phase/deny-the-witch")
def deny_passed(deny_total: Any, psychic_test_result: Any) -> Any:
    """Whether a Deny the Witch test is passed: its 2D6 total is greater than the Psychic test's result (a tie
    does not deny)."""
    return deny_total > psychic_test_result


@rule("psychic-phase/deny-the-witch")
def deny_chance(psychic_test_result: int) -> Fraction:
    """The exact chance that a Deny the Witch test denies a power manifested with this Psychic test result: the 2D6
    outcomes beating it, out of 36."""
    return Fraction(sum(1 for a, b in TWO_D6 if deny_passed(a + b, psychic_test_result)), len(TWO_D6))


@rule("psychic-phase/manifesting-psychic-powers", "psychic-phase/perils-of-the-warp")
def power_manifested(psychic_test_passed_: Any, denied: Any = False, destroyed_by_perils: Any = False) -> Any:
    """Whether a power is manifested and its effects resolved: the Psychic test passed, no Deny the Witch test
    denied it, and Perils of the Warp did not destroy the PSYKER unit (then it fails automatically)."""
    return And(psychic_test_passed_, Not(denied), Not(destroyed_by_perils))


@rule("psychic-phase/smite")
def smite_warp_charge(other_attempts_this_phase: Any) -> Any:
    """Smite's warp charge: 5, plus 1 for each other attempt to manifest it by a unit of the same army this phase,
    successful or not."""
    return SMITE_WARP_CHARGE + other_attempts_this_phase


@rule("psychic-phase/smite")
def smite_mortal_wounds_dice(psychic_test_result: Any) -> Any:
    """The dice a manifested Smite's mortal wounds are rolled with: D6 if the Psychic test was 11 or more, else D3
    (as the number of sides: 3 or 6)."""
    return If(psychic_test_result >= SMITE_STRONG_RESULT, 6, 3)


@rule("psychic-phase/smite")
def smite_mortal_wounds_distribution(psychic_test_result: int) -> dict[int, Fraction]:
    """The exact distribution of the mortal wounds a manifested Smite inflicts: D3, or D6 after a test of 11+."""
    return dice.distribution(f"D{smite_mortal_wounds_dice(psychic_test_result)}")


@rule("psychic-phase/smite")
def smite_target_allowed(distance_inches: Any, visible: Any, closest_such_enemy: Any) -> Any:
    """Whether an enemy unit is the one Smite strikes: the closest enemy unit within 18" of and visible to the
    PSYKER. Interpretation: within-inclusive."""
    return And(distance_inches <= SMITE_RANGE, visible, closest_such_enemy)


@rule("psychic-phase/perils-of-the-warp")
def perils_mortal_wounds_distribution() -> dict[int, Fraction]:
    """The exact distribution of the mortal wounds Perils of the Warp inflicts on the PSYKER unit: D3."""
    return dice.distribution("D3")


@rule("psychic-phase/perils-of-the-warp")
def caught_by_perils_blast(psyker_destroyed_by_perils: Any, distance_inches: Any) -> Any:
    """Whether a unit suffers D3 mortal wounds as a PSYKER unit is destroyed by Perils of the Warp: it is within
    6" of that unit (friend or foe). Interpretation: within-inclusive."""
    return And(psyker_destroyed_by_perils, distance_inches <= PERILS_BLAST_RANGE)
