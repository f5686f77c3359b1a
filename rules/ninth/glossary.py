"""The earlier edition's glossary: the terms that pin behaviour of their own (improving and reducing WS, BS, Sv, AP
and invulnerable saves, 'or better' and 'or worse', the maximum and minimum value of a random characteristic,
doubles, highest and lowest dice results, dice treated as other values, automatic successes, how long a unit has
Advanced, Fallen Back or charged, the 3" moves, Psychic and Deny the Witch tests, ...). Terms that restate a rule
are tagged on that rule's function in rules.ninth.concepts, datasheets and battle_round.
"""

from __future__ import annotations

import enum
import re
from typing import Any, Iterable, Sequence

from rules.logic import And, If, Max, Min, Not, Or
from rules.registry import ruleset_rule

rule = ruleset_rule("ninth")


# -- Improving and reducing characteristics; or better, or worse ---------------------------------------------------


@rule("glossary/improving-ws-bs-and-sv-characteristics", "glossary/improving-an-invulnerable-save")
def improve_skill(value: Any, by: Any) -> Any:
    """Improving a WS, BS or Sv characteristic or an invulnerable save subtracts from the number before the plus
    sign (3+ improved by 1 is 2+)."""
    return value - by


@rule("glossary/reducing-ws-bs-and-sv-characteristics", "glossary/reducing-an-invulnerable-save")
def reduce_skill(value: Any, by: Any) -> Any:
    """Reducing a WS, BS or Sv characteristic or an invulnerable save adds to the number before the plus sign
    (3+ reduced by 1 is 4+)."""
    return value + by


@rule("glossary/or-better-ws-bs-sv-characteristics-invulnerable-saves")
def skill_is_better(value: Any, than: Any) -> Any:
    """A better WS, BS, Sv or invulnerable save has a lower number before the plus sign (2+ is better than 3+)."""
    return value < than


@rule("glossary/or-worse-ws-bs-sv-characteristics-invulnerable-saves")
def skill_is_worse(value: Any, than: Any) -> Any:
    """A worse WS, BS, Sv or invulnerable save has a higher number before the plus sign (3+ is worse than 2+)."""
    return value > than


@rule("glossary/improving-an-ap-characteristic")
def improve_ap(ap: Any, by: Any) -> Any:
    """Improving an AP subtracts from it (-1 improved by 1 is -2; 0 improved by 1 is -1)."""
    return ap - by


@rule("glossary/reducing-an-ap-characteristic")
def reduce_ap(ap: Any, by: Any) -> Any:
    """Reducing an AP adds to it, to a maximum of 0 (-1 reduced by 1 is 0; 0 reduced by 1 stays 0)."""
    return Min(0, ap + by)


@rule("glossary/or-better-ap-characteristics")
def ap_is_better(ap: Any, than: Any) -> Any:
    """A better AP has a higher number after the minus sign (AP 0 counts as -0): -2 is better than -1."""
    return -ap > -than


@rule("glossary/or-worse-ap-characteristics")
def ap_is_worse(ap: Any, than: Any) -> Any:
    """A worse AP has a lower number after the minus sign (AP 0 counts as -0): 0 is worse than -1."""
    return -ap < -than


# -- Dice: maximum and minimum values, doubles, highest and lowest, treated as -------------------------------------

_TERM = re.compile(r"^(?P<count>[0-9]*)D(?P<sides>[36])$|^(?P<number>[0-9]+)$", re.I)


def _dice_and_bonus(expression: str) -> tuple[list[tuple[int, int]], int]:
    """A random characteristic ('3+D3', '2D6', 'D6') as its dice, (count, sides) each, and its added number."""
    dice, bonus = [], 0
    for part in str(expression).replace(" ", "").split("+"):
        match = _TERM.match(part)
        if not match:
            raise ValueError(f"{expression!r} is not a random characteristic such as D3, 2D6 or 3+D3")
        if match.group("number"):
            bonus += int(match.group("number"))
        else:
            dice.append((int(match.group("count") or 1), int(match.group("sides"))))
    return dice, bonus


@rule("glossary/maximum-value")
def dice_maximum(dice: Any, sides: Any, bonus: Any = 0) -> Any:
    """A roll of ``dice`` D``sides`` plus ``bonus`` at its maximum: every dice at its highest possible value.
    Interpretation: maximum-value-rule-over-example (the glossary's own example makes 3+D3 5, not 6)."""
    return dice * sides + bonus


@rule("glossary/minimum-value")
def dice_minimum(dice: Any, sides: Any, bonus: Any = 0) -> Any:
    """A roll of ``dice`` D``sides`` plus ``bonus`` at its minimum: every dice at its lowest possible value (1)."""
    return dice * 1 + bonus


@rule("glossary/maximum-value")
def maximum_value(expression: str) -> int:
    """A random characteristic or roll at its maximum (D3 is 3, 2D6 is 12, 3+D3 is 6: the printed example says
    5). Interpretation: maximum-value-rule-over-example."""
    dice, bonus = _dice_and_bonus(expression)
    return sum(dice_maximum(count, sides) for count, sides in dice) + bonus


@rule("glossary/minimum-value")
def minimum_value(expression: str) -> int:
    """A random characteristic or roll at its minimum: every dice at its lowest value (D6 is 1, 2D6 is 2, 3+D3
    is 4)."""
    dice, bonus = _dice_and_bonus(expression)
    return sum(dice_minimum(count, sides) for count, sides in dice) + bonus


@rule("glossary/double")
def is_double(dice_results: Sequence[Any]) -> Any:
    """A double: a roll that includes any two dice of the same result."""
    return Or(*(dice_results[i] == dice_results[j]
                for i in range(len(dice_results)) for j in range(i + 1, len(dice_results))))


@rule("glossary/highest-dice-result")
def highest_dice_result(dice_results: Sequence[Any]) -> Any:
    """The highest dice result's value (where several dice share it, the active player picks which is 'the'
    highest dice; the value is the same)."""
    return Max(*dice_results)


@rule("glossary/lowest-dice-result")
def lowest_dice_result(dice_results: Sequence[Any]) -> Any:
    """The lowest dice result's value (where several dice share it, the active player picks which is 'the'
    lowest dice)."""
    return Min(*dice_results)


@rule("glossary/treated-as-dice-roll", "glossary/counts-as-dice-roll", "glossary/considered-to-be-dice-roll")
def rule_triggers(rolled: Any, treated_as: Any, trigger_value: Any) -> Any:
    """A dice result treated as another value sets off every rule that value would have, had it been rolled."""
    return Or(rolled == trigger_value, treated_as == trigger_value)


@rule("glossary/automatically-successful", "glossary/automatically-passes", "glossary/automatically-hit",
      "glossary/automatically-wound")
def dice_result_rules_apply(automatically_successful: Any) -> Any:
    """Rules that take effect on a particular dice or roll result do not, where the roll is automatically
    successful (no dice are rolled: an automatic hit goes straight to the wound roll, an automatic wound to
    allocation)."""
    return Not(automatically_successful)


@rule("glossary/automatically-successful")
def models_flee_after_morale(morale_test_automatically_successful: Any, models_that_would_flee: Any) -> Any:
    """An automatically successful Morale test (or Combat Attrition test): no models flee."""
    return If(morale_test_automatically_successful, 0, models_that_would_flee)


# -- How long a unit has Advanced, Fallen Back, charged ... ----------------------------------------------------------


class Until(enum.IntEnum):
    START_OF_CONTROLLERS_NEXT_COMMAND_PHASE = enum.auto()
    END_OF_THE_TURN = enum.auto()
    ANY_MODEL_MOVES = enum.auto()


class Status(enum.IntEnum):
    ADVANCED = enum.auto()
    FALLEN_BACK = enum.auto()
    CHARGED = enum.auto()
    BEEN_CHARGED = enum.auto()
    HEROICALLY_INTERVENED = enum.auto()
    REMAINED_STATIONARY = enum.auto()


STATUS_LASTS = {
    Status.ADVANCED: Until.START_OF_CONTROLLERS_NEXT_COMMAND_PHASE,
    Status.FALLEN_BACK: Until.START_OF_CONTROLLERS_NEXT_COMMAND_PHASE,
    Status.CHARGED: Until.END_OF_THE_TURN,
    Status.BEEN_CHARGED: Until.END_OF_THE_TURN,
    Status.HEROICALLY_INTERVENED: Until.END_OF_THE_TURN,
    Status.REMAINED_STATIONARY: Until.ANY_MODEL_MOVES,
}


@rule("glossary/advances-advanced", "glossary/fell-back-fallen-back", "glossary/has-charged",
      "glossary/has-been-charged", "glossary/heroically-intervened", "glossary/remained-stationary")
def status_lasts_until(status: Status) -> Until:
    """How long a unit (and every model in it) keeps a status: Advanced and Fallen Back until the start of its
    controller's next Command phase; charged, been charged and Heroically Intervened until the end of the turn;
    Remained Stationary until any of its models moves."""
    return STATUS_LASTS[Status(status)]


@rule("glossary/remained-stationary")
def has_remained_stationary(remained_stationary_or_no_movement_phase_yet: Any, a_model_has_moved_since: Any) -> Any:
    """A unit has Remained Stationary if it did so in its Movement phase (or its controller has had none yet),
    until any of its models moves for any reason."""
    return And(remained_stationary_or_no_movement_phase_yet, Not(a_model_has_moved_since))


# -- Moves and tests the glossary sums up ------------------------------------------------------------------------------

THREE_INCH_MOVE = 3


@rule("glossary/pile-in-move", "glossary/consolidation-move", "glossary/heroic-intervention")
def three_inch_move_allowed(distance_inches: Any, ends_closer_to_the_closest_enemy_model: Any) -> Any:
    """A pile-in, consolidation or Heroic Intervention move: up to 3", ending closer to the closest enemy model."""
    return And(distance_inches <= THREE_INCH_MOVE, ends_closer_to_the_closest_enemy_model)


@rule("glossary/psychic-test")
def psychic_test_passed(roll_2d6: Any, warp_charge: Any) -> Any:
    """A Psychic test (2D6) succeeds if it equals or exceeds the power's warp charge value."""
    return roll_2d6 >= warp_charge


@rule("glossary/deny-the-witch-test")
def deny_the_witch_passed(deny_roll_2d6: Any, psychic_test_roll: Any) -> Any:
    """A Deny the Witch test (2D6) must exceed the Psychic test's result."""
    return deny_roll_2d6 > psychic_test_roll


@rule("glossary/successfully-manifested", "glossary/fails-to-manifest")
def successfully_manifested(psychic_test_roll: Any, warp_charge: Any, deny_roll: Any = 0) -> Any:
    """A power is manifested if its Psychic test succeeded and no Deny the Witch test did; otherwise the PSYKER
    failed to manifest it."""
    return And(psychic_test_passed(psychic_test_roll, warp_charge),
               Not(deny_the_witch_passed(deny_roll, psychic_test_roll)))


@rule("glossary/overwatch-attack")
def overwatch_attack_hits(unmodified_hit_roll: Any) -> Any:
    """An Overwatch attack's hit roll needs an unmodified 6."""
    return unmodified_hit_roll == 6


@rule("glossary/mortal-wounds", "glossary/ignoring-wounds")
def saving_throw_allowed(mortal_wound: Any) -> Any:
    """No saving throw of any kind against mortal wounds (rules that ignore wounds still apply)."""
    return Not(mortal_wound)


@rule("glossary/ignoring-wounds")
def ignore_rules_usable(rules_that_could_ignore_the_wound: Any) -> Any:
    """Each time a model would lose a wound, at most one rule that would ignore it can be used."""
    return Min(1, rules_that_could_ignore_the_wound)


@rule("glossary/eligible-target")
def eligible_target(within_engagement_range_of_your_units: Any, models_in_range_and_visible: Any) -> Any:
    """An eligible target for a ranged weapon: not within Engagement Range of any unit of your army, with at
    least one model within the weapon's range and visible to the shooting model."""
    return And(Not(within_engagement_range_of_your_units), models_in_range_and_visible >= 1)


@rule("glossary/transport-capacity")
def may_embark(models_aboard_after: Any, transport_capacity: Any) -> Any:
    """A unit cannot embark if it would take the TRANSPORT model past its transport capacity."""
    return models_aboard_after <= transport_capacity


@rule("glossary/minimum-move")
def destroyed_for_minimum_move(moved_at_least_minimum: Any, strategic_reserves_used: Any) -> Any:
    """A model with a minimum Move that cannot move at least that far in its Movement phase is destroyed,
    unless the Strategic Reserves rules are being used."""
    return And(Not(moved_at_least_minimum), Not(strategic_reserves_used))


@rule("glossary/minimum-move")
def minimum_and_maximum_move(move: str) -> tuple[int, int]:
    """A Move of two values with a dash ('20-60"'): the lower is the minimum Move, the higher the maximum."""
    low, high = sorted(int(part.strip().rstrip('"')) for part in move.split("-"))
    return low, high


@rule("glossary/reinforcement-unit")
def reinforcement_counts_as_destroyed(set_up_on_the_battlefield_by_the_end: Any) -> Any:
    """A Reinforcement unit not set up on the battlefield by the end of the battle counts as destroyed."""
    return Not(set_up_on_the_battlefield_by_the_end)


@rule("glossary/reinforcement-unit")
def is_reinforcement_unit(starts_on_the_battlefield: Any, embarked_in_transport_on_the_battlefield: Any) -> Any:
    """A unit that starts the battle elsewhere than on the battlefield (and not embarked in a TRANSPORT that is on
    it) is a Reinforcement unit."""
    return And(Not(starts_on_the_battlefield), Not(embarked_in_transport_on_the_battlefield))


MOVES_BARRED_AFTER_ARRIVAL = ("Normal Move", "Advance", "Fall Back", "Remain Stationary")


@rule("glossary/setting-up-a-reinforcement-unit")
def may_make_move_after_arrival(move: str) -> bool:
    """A Reinforcement unit set up this turn cannot make a Normal Move, Advance, Fall Back or Remain Stationary
    (it counts as having moved)."""
    return move.casefold() not in {m.casefold() for m in MOVES_BARRED_AFTER_ARRIVAL}


@rule("glossary/in-terrain")
def unit_in_terrain(each_model_partially_on_or_within: Iterable[Any]) -> Any:
    """A unit is in terrain if any of its models is partially on or within a terrain feature."""
    return Or(*each_model_partially_on_or_within)


@rule("glossary/wholly-in-terrain")
def unit_wholly_in_terrain(each_model_entirely_on_or_within: Iterable[Any]) -> Any:
    """A unit is wholly in terrain if every model is entirely on or within a terrain feature."""
    return And(*each_model_entirely_on_or_within)


@rule("glossary/single-target-model", "glossary/single-target-unit")
def shooting_at_a_single_target(target_of_each_attack: Iterable[Any]) -> bool:
    """A model (or unit) shoots at a single target if all its attacks (all its shooting models') have the same
    target unit."""
    return len(set(target_of_each_attack)) == 1


@rule("glossary/end-of-the-phase")
def may_use_rule_during_the_phase(an_end_of_phase_rule_has_taken_effect: Any) -> Any:
    """Once an end-of-phase rule has taken effect, no rule that takes place during that phase can be used."""
    return Not(an_end_of_phase_rule_has_taken_effect)


@rule("glossary/when", "glossary/immediately")
def resolution_order(effects: Sequence[tuple[str, bool]]) -> list[str]:
    """Effects in the order they take effect: those triggered 'when' (or 'immediately') something happens before
    any others, the rest in their given order."""
    return [name for name, when in effects if when] + [name for name, when in effects if not when]


CAUSE_ATTACK, CAUSE_MORTAL_WOUND, CAUSE_OUTRIGHT_DESTRUCTION, CAUSE_OTHER = range(4)


@rule("glossary/model-destroys-a-model", "glossary/model-destroys-a-unit", "glossary/unit-destroys-a-unit")
def destroyed_by_that_model(cause: Any, latter_is_the_last_model_of_its_unit: Any = False) -> tuple[Any, Any]:
    """Whether a model destroyed another (an attack it made, a mortal wound from a rule it uses, or a rule it uses
    that destroys outright) and whether it thereby destroyed that unit (the last remaining model); a unit
    destroys a unit when one of its models does."""
    model = Or(cause == CAUSE_ATTACK, cause == CAUSE_MORTAL_WOUND, cause == CAUSE_OUTRIGHT_DESTRUCTION)
    return model, And(model, latter_is_the_last_model_of_its_unit)
