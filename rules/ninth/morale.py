"""The earlier edition's Morale phase: the Morale test (D6 plus models destroyed this turn against the unit's
highest Leadership; an unmodified 1 always passes), the one model that flees on a failure, Combat Attrition tests
(a D6 per remaining model, -1 below Half-strength, each 1 flees), and the unit coherency checks.

A modified roll is never below 1 (the edition's dice rules), so below Half-strength a rolled 1 or 2 flees; Stu's
Skitarii Rangers example depends on it (interpretation attrition-roll-never-below-one). Exact distributions are
binomial: each remaining model's D6 flees independently.
"""

from __future__ import annotations

from fractions import Fraction
from math import comb
from typing import Any

from rules.logic import And, If, Max, Not, Or
from rules.registry import ruleset_rule

rule = ruleset_rule("ninth")

D6_FACES = range(1, 7)
ATTRITION_FLEE_RESULT = 1
BELOW_HALF_STRENGTH_PENALTY = 1


@rule("morale-phase/morale-tests", "rare-rules/resurrected-models")
def destroyed_for_morale(destroyed_this_turn: Any, returned_this_turn: Any = 0) -> Any:
    """How many of a unit's models count as destroyed this turn for its Morale test: those destroyed, less those
    a rule returned to the unit in the same turn."""
    return destroyed_this_turn - returned_this_turn


@rule("morale-phase/morale-tests", "rare-rules/resurrected-models")
def must_take_morale_test(destroyed_this_turn: Any, returned_this_turn: Any = 0) -> Any:
    """Whether a unit takes a Morale test: it has had models destroyed this turn (returned ones not counted)."""
    return destroyed_for_morale(destroyed_this_turn, returned_this_turn) > 0


@rule("morale-phase/taking-a-morale-test", "rare-rules/morale-priority")
def morale_test_passed(roll: Any, destroyed_this_turn: Any, highest_leadership: Any, auto_pass: Any = False,
                       auto_fail: Any = False) -> Any:
    """Whether a Morale test is passed: an unmodified 1, or D6 plus the models destroyed this turn equal to or less
    than the unit's highest Leadership. A rule that passes it automatically beats one that fails it.

    Interpretation: reprint-where-the-web-page-is-silent.
    """
    on_the_dice = Or(roll == 1, roll + destroyed_this_turn <= highest_leadership)
    return Or(auto_pass, And(Not(auto_fail), on_the_dice))


@rule("morale-phase/taking-a-morale-test")
def morale_fail_chance(destroyed_this_turn: int, highest_leadership: int) -> Fraction:
    """The exact chance that a Morale test fails (no rule passing or failing it outright)."""
    fails = sum(1 for roll in D6_FACES if not morale_test_passed(roll, destroyed_this_turn, highest_leadership))
    return Fraction(fails, len(D6_FACES))


@rule("morale-phase/combat-attrition-tests")
def below_half_strength(models: Any, starting_strength: Any) -> Any:
    """Whether a unit is below Half-strength: fewer models than half its Starting Strength."""
    return 2 * models < starting_strength


@rule("morale-phase/combat-attrition-tests")
def attrition_result(roll: Any, below_half: Any) -> Any:
    """A Combat Attrition test's result: the D6, less 1 below Half-strength, never below 1.

    Interpretation: attrition-roll-never-below-one.
    """
    return If(below_half, Max(roll - BELOW_HALF_STRENGTH_PENALTY, 1), roll)


@rule("morale-phase/combat-attrition-tests")
def attrition_flees(roll: Any, below_half: Any) -> Any:
    """Whether one Combat Attrition test makes a model flee: its result is 1."""
    return attrition_result(roll, below_half) == ATTRITION_FLEE_RESULT


@rule("morale-phase/combat-attrition-tests", "rare-rules/morale-priority")
def attrition_losses(rolls: list[Any], below_half: Any, no_models_flee: Any = False) -> Any:
    """How many more models flee after the Combat Attrition tests: one per fleeing roll (one roll per remaining
    model), none under a rule that says no models flee (it beats any rule adding fleeing models)."""
    total: Any = 0
    for roll in rolls:
        total = total + If(attrition_flees(roll, below_half), 1, 0)
    return If(no_models_flee, 0, total)


@rule("morale-phase/combat-attrition-tests")
def attrition_flee_chance(below_half: bool) -> Fraction:
    """The exact chance that one Combat Attrition test makes a model flee: 1/6, or 2/6 below Half-strength."""
    return Fraction(sum(1 for roll in D6_FACES if attrition_flees(roll, below_half)), len(D6_FACES))


@rule("morale-phase/combat-attrition-tests")
def attrition_loss_distribution(models_left: int, below_half: bool) -> dict[int, Fraction]:
    """The exact distribution of the models lost to Combat Attrition tests for ``models_left`` remaining models:
    k flee with chance C(n, k) p^k (1-p)^(n-k), p from attrition_flee_chance."""
    if models_left < 0:
        raise ValueError(f"models_left must not be negative, got {models_left}")
    p = attrition_flee_chance(below_half)
    return {k: comb(models_left, k) * p ** k * (1 - p) ** (models_left - k) for k in range(models_left + 1)}


@rule("morale-phase/taking-a-morale-test", "morale-phase/combat-attrition-tests")
def models_after_morale(models: Any, starting_strength: Any, roll: Any, destroyed_this_turn: Any,
                        highest_leadership: Any, attrition_rolls: list[Any], auto_pass: Any = False,
                        auto_fail: Any = False, no_models_flee: Any = False) -> Any:
    """How many models a unit has after its Morale test and any Combat Attrition tests: on a failure one model
    flees (none under a rule that no models flee), then the first ``models - 1`` attrition rolls count, with -1 if
    the unit is then below Half-strength."""
    passed = morale_test_passed(roll, destroyed_this_turn, highest_leadership, auto_pass, auto_fail)
    first_flees = And(Not(passed), Not(no_models_flee), models > 0)
    left = models - If(first_flees, 1, 0)
    below = below_half_strength(left, starting_strength)
    losses: Any = 0
    for index, attrition_roll in enumerate(attrition_rolls):
        losses = losses + If(And(first_flees, index < left, attrition_flees(attrition_roll, below)), 1, 0)
    return left - losses


@rule("morale-phase/morale-tests")
def morale_test_order(units_per_player: dict[int, list[str]], active_player: int) -> list[str]:
    """The order Morale tests are taken in: players alternate, starting with the player whose turn is taking place;
    once one has none left, the other takes all their remaining tests one at a time."""
    if active_player not in (1, 2):
        raise ValueError(f"active_player must be 1 or 2, got {active_player!r}")
    queues = {p: list(units_per_player.get(p, [])) for p in (1, 2)}
    order, turn = [], active_player
    while queues[1] or queues[2]:
        if not queues[turn]:
            turn = 3 - turn
        order.append(queues[turn].pop(0))
        turn = 3 - turn
    return order


@rule("morale-phase/unit-coherency-checks")
def coherency_removals(group_sizes: list[int], kept_group: int) -> int:
    """How many models a player removes from a unit out of coherency: all but the single group they keep (these
    removals never make the unit take another Morale test)."""
    if not 0 <= kept_group < len(group_sizes):
        raise ValueError(f"kept_group must index one of the {len(group_sizes)} groups, got {kept_group}")
    return sum(group_sizes) - group_sizes[kept_group]


@rule("morale-phase")
def morale_phase_steps() -> list[str]:
    """The Morale phase's two steps, in order: Morale tests, then unit coherency checks."""
    return ["Morale Tests", "Unit Coherency Checks"]
