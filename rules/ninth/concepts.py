"""The earlier edition's Core Rules Definitions and Concepts: unit coherency, Engagement Range, within and wholly
within, dice and their modifiers, re-rolls, roll-offs, sequencing, Starting Strength and Half-strength, keywords
and friend and foe; with the glossary terms that restate them (tagged with both references).

Distances are given as numbers of inches (the distance between closest points, or for 'wholly within' to the
farthest point of a base), so z3 can reason about the very functions. Numbers come from this edition's text.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any, Iterable, Sequence

from rules import dice, logic
from rules.logic import And, DecisionTable, If, Max, Not, Or, Row, Var, is_symbolic
from rules.registry import ruleset_rule

rule = ruleset_rule("ninth")

# Unit coherency: 2" horizontally and 5" vertically; one other model, two others while the unit has 6+ models.
COHERENCY_HORIZONTAL = 2
COHERENCY_VERTICAL = 5
LARGE_UNIT = 6
# Engagement Range: 1" horizontally and 5" vertically.
ENGAGEMENT_HORIZONTAL = 1
ENGAGEMENT_VERTICAL = 5
# Dice: a roll can never be modified below 1.
LOWEST_MODIFIED_ROLL = 1


# -- Unit coherency ---------------------------------------------------------------------------------------------


@rule("concepts/unit-coherency", "glossary/unit-coherency")
def within_coherency_distance(horizontal_inches: Any, vertical_inches: Any) -> Any:
    """Whether two models of a unit are within 2" horizontally and 5" vertically of each other."""
    return And(horizontal_inches <= COHERENCY_HORIZONTAL, vertical_inches <= COHERENCY_VERTICAL)


@rule("concepts/unit-coherency")
def coherency_neighbours_needed(models_in_unit: Any) -> Any:
    """How many other models of its unit each model must be within coherency distance of: none for a lone
    model, one for a unit of two to five, two while the unit has six or more models."""
    return If(models_in_unit <= 1, 0, If(models_in_unit >= LARGE_UNIT, 2, 1))


@rule("concepts/unit-coherency", "glossary/unit-coherency")
def model_in_coherency(neighbours_within_coherency: Any, models_in_unit: Any) -> Any:
    """Whether a model is in unit coherency: enough other models of its unit within 2"/5" of it."""
    return neighbours_within_coherency >= coherency_neighbours_needed(models_in_unit)


@rule("concepts/unit-coherency", "glossary/unit-coherency", "glossary/out-of-coherency")
def unit_in_coherency(neighbours_of_each_model: Sequence[Any]) -> Any:
    """Whether a unit is in unit coherency: every model is (a move that cannot end so cannot be made; a unit
    that is not in the Morale phase is out of coherency)."""
    size = len(neighbours_of_each_model)
    return And(*(model_in_coherency(n, size) for n in neighbours_of_each_model))


@rule("concepts/unit-coherency")
def models_destroyed_for_want_of_room(models_to_set_up: int, models_that_fit_in_coherency: int) -> int:
    """Models that cannot be set up (no room, or not in unit coherency) are destroyed."""
    return max(0, models_to_set_up - models_that_fit_in_coherency)


# -- Engagement Range ----------------------------------------------------------------------------------------------


@rule("concepts/engagement-range", "glossary/engagement-range")
def within_engagement_range(horizontal_inches: Any, vertical_inches: Any) -> Any:
    """Whether two enemy models are within Engagement Range: within 1" horizontally and 5" vertically."""
    return And(horizontal_inches <= ENGAGEMENT_HORIZONTAL, vertical_inches <= ENGAGEMENT_VERTICAL)


@rule("concepts/engagement-range", "glossary/units-engagement-range")
def units_within_engagement_range(model_pairs_within: Iterable[Any]) -> Any:
    """Two units are within Engagement Range while any model of one is within Engagement Range of a model of the
    other (a unit's Engagement Range is the area its models' cover)."""
    return Or(*model_pairs_within)


@rule("concepts/engagement-range")
def may_set_up_model(within_engagement_range_of_an_enemy_model: Any) -> Any:
    """Models cannot be set up within Engagement Range of enemy models."""
    return Not(within_engagement_range_of_an_enemy_model)


# -- Measuring, within and wholly within ----------------------------------------------------------------------------


@rule("concepts/within-and-wholly-within", "glossary/within")
def within(distance_inches: Any, specified_inches: Any) -> Any:
    """'Within' a distance: at any distance not more than it (within 1" is not more than 1" away)."""
    return distance_inches <= specified_inches


@rule("concepts/within-and-wholly-within", "glossary/within", "glossary/unit-within")
def unit_within(closest_distance_of_each_model: Iterable[Any], specified_inches: Any) -> Any:
    """A unit is within a distance if any part of any model's base (or hull) is: any model's closest point."""
    return Or(*(within(d, specified_inches) for d in closest_distance_of_each_model))


@rule("concepts/within-and-wholly-within", "glossary/whole-unit-within")
def every_model_within(closest_distance_of_each_model: Iterable[Any], specified_inches: Any) -> Any:
    """'Every model in that unit is within': some part of every model's base (or hull) is within the distance."""
    return And(*(within(d, specified_inches) for d in closest_distance_of_each_model))


@rule("concepts/within-and-wholly-within", "glossary/wholly-within")
def unit_wholly_within(farthest_distance_of_each_model: Iterable[Any], specified_inches: Any) -> Any:
    """A model is wholly within if every part of its base (or hull) is (its farthest point); a unit is wholly
    within if every model is."""
    return And(*(within(d, specified_inches) for d in farthest_distance_of_each_model))


@rule("concepts/measuring-distances", "glossary/nearest")
def chooses_among_equidistant(controller_of_the_unit_using_the_rule: Any) -> Any:
    """Where a rule refers to the closest unit or model and several are equidistant, the player controlling the
    unit using the rule selects which is closest."""
    return controller_of_the_unit_using_the_rule


# -- Dice ------------------------------------------------------------------------------------------------------------


@rule("concepts/dice")
def d3_by_halving(d6_face: Any) -> Any:
    """A D3 as the Dice section makes it: the D6 halved, rounding fractions up (the smallest whole number whose
    double is at least the face)."""
    return If(d6_face <= 2 * 1, 1, If(d6_face <= 2 * 2, 2, 3))


@rule("glossary/d3")
def d3_by_the_glossary_table(d6_face: Any) -> Any:
    """A D3 as the glossary's table makes it: 1-2 is 1, 3-4 is 2, 5-6 is 3 (modifiers apply after this)."""
    return If(And(d6_face >= 1, d6_face <= 2), 1, If(And(d6_face >= 3, d6_face <= 4), 2, 3))


@rule("concepts/d33")
def d33(first_d6: Any, second_d6: Any) -> Any:
    """A D33 (web page only): two D3s one after the other, the first the tens and the second the units."""
    return 10 * d3_by_halving(first_d6) + d3_by_halving(second_d6)


@rule("concepts/dice", "glossary/roll-result", "glossary/dice-result")
def roll_result(dice_results: Sequence[Any]) -> Any:
    """2D6, 3D6 and so on: the dice results added together (the roll result, before any modifier)."""
    total: Any = 0
    for result in dice_results:
        total = total + result
    return total


def _exact(value: Any) -> Any:
    """A value fractions can be taken of: a Fraction, or a z3 real."""
    if is_symbolic(value):
        return logic.z3.ToReal(value) if value.sort() == logic.z3.IntSort() else value
    return Fraction(value)


def _round_up(value: Any) -> Any:
    if is_symbolic(value):
        return -logic.z3.ToInt(-value)
    return math.ceil(value)


@rule("concepts/dice", "datasheets/modifying-characteristics", "glossary/total")
def apply_modifiers(value: Any, divide_by: Sequence[Any] = (), multiply_by: Sequence[Any] = (),
                    add: Sequence[Any] = (), subtract: Sequence[Any] = ()) -> Any:
    """All modifiers together, in the printed order: every division, then every multiplication, then every
    addition, then every subtraction; fractions rounded up once, after all of them."""
    exact = _exact(value)
    if any(is_symbolic(m) for m in (*divide_by, *multiply_by, *add, *subtract)) and not is_symbolic(exact):
        exact = logic.z3.RealVal(str(exact))
    for divisor in divide_by:
        exact = exact / _exact(divisor)
    for factor in multiply_by:
        exact = exact * factor
    for bonus in add:
        exact = exact + bonus
    for penalty in subtract:
        exact = exact - penalty
    return _round_up(exact)


@rule("concepts/dice")
def modified_dice_roll(roll: Any, divide_by: Sequence[Any] = (), multiply_by: Sequence[Any] = (),
                       add: Sequence[Any] = (), subtract: Sequence[Any] = ()) -> Any:
    """A dice roll after its modifiers: it may go above the dice's maximum but never below 1 (a result below 1
    counts as 1)."""
    return Max(LOWEST_MODIFIED_ROLL, apply_modifiers(roll, divide_by, multiply_by, add, subtract))


# -- Re-rolls and roll-offs --------------------------------------------------------------------------------------------


@rule("concepts/re-rolls", "glossary/re-roll")
def may_re_roll(times_already_re_rolled: Any) -> Any:
    """A dice can never be re-rolled more than once."""
    return times_already_re_rolled == 0


@rule("concepts/re-rolls", "glossary/re-roll")
def re_rolls_every_dice(roll_of_several_dice_added: Any, rule_names_specific_dice_results: Any,
                        rule_says_otherwise: Any = False) -> Any:
    """Whether re-rolling a roll re-rolls all of its dice: a roll of several dice added together is re-rolled
    whole unless otherwise stated, but a rule that lets specific dice results be re-rolled re-rolls only those
    dice. Interpretation: re-roll-prose-over-glossary (the glossary says all dice, always)."""
    return Or(Not(roll_of_several_dice_added), And(Not(rule_names_specific_dice_results), Not(rule_says_otherwise)))


@rule("concepts/re-rolls")
def d3_result_re_rolled(d6_face: Any, results_to_re_roll: Iterable[Any]) -> Any:
    """A rule re-rolling given results of a D3 reads the halved value, not the D6: re-rolling 1s re-rolls a D6
    of 1 or 2."""
    value = d3_by_halving(d6_face)
    return Or(*(value == result for result in results_to_re_roll))


@rule("concepts/re-rolls")
def unmodified_result(first_result: Any, re_rolled: Any = False, re_roll_result: Any = 0) -> Any:
    """The 'unmodified' result: after any re-roll, before any modifier."""
    return If(re_rolled, re_roll_result, first_result)


ROLL_OFF_AGAIN = 0


@rule("concepts/roll-offs", "glossary/roll-off")
def roll_off_winner(player_one_roll: Any, player_two_roll: Any) -> Any:
    """Who wins a roll-off of one unmodified, un-re-rolled D6 each: 1 or 2 for the higher, 0 (roll again) on a
    tie."""
    return If(player_one_roll > player_two_roll, 1, If(player_two_roll > player_one_roll, 2, ROLL_OFF_AGAIN))


@rule("concepts/roll-offs", "glossary/roll-off")
def roll_off_win_chance(player: int) -> Fraction:
    """The chance that a player eventually wins a roll-off (ties rolled again until someone wins)."""
    faces = list(dice.outcomes("D6"))
    outcomes = [roll_off_winner(a, b) for a in faces for b in faces]
    decided = [o for o in outcomes if o != ROLL_OFF_AGAIN]
    return Fraction(decided.count(player), len(decided))


# -- Sequencing -------------------------------------------------------------------------------------------------------

TURN_PLAYER, ROLL_OFF = 1, 2

SEQUENCING = DecisionTable(
    name="ninth-sequencing",
    refs=("concepts/sequencing",),
    inputs=(Var("during_the_battle", kind="bool"), Var("at_start_or_end_of_a_battle_round", kind="bool")),
    assume=lambda during_the_battle, at_start_or_end_of_a_battle_round:
        Or(Not(at_start_or_end_of_a_battle_round), during_the_battle),
    rows=(
        Row("before or after the battle, or at the start or end of a battle round: the players roll off",
            lambda during_the_battle, at_start_or_end_of_a_battle_round:
                Or(Not(during_the_battle), at_start_or_end_of_a_battle_round), ROLL_OFF,
            overrides=("during the battle: the player whose turn it is",)),
        Row("during the battle: the player whose turn it is", lambda during_the_battle, **_: during_the_battle,
            TURN_PLAYER),
    ),
)


@rule("concepts/sequencing", "glossary/discard-lowest-highest-dice-result")
def who_orders_simultaneous_rules(during_the_battle: Any, at_start_or_end_of_a_battle_round: Any = False) -> Any:
    """Who decides the order of rules resolved at the same time: the player whose turn it is during the battle;
    the winner of a roll-off before or after the battle or at the start or end of a battle round.
    Interpretation: prose-over-summary-bullets (the bullet names only the player whose turn it is)."""
    return SEQUENCING(during_the_battle=during_the_battle,
                      at_start_or_end_of_a_battle_round=at_start_or_end_of_a_battle_round)


# -- Starting Strength, Half-strength, destroyed -----------------------------------------------------------------------


@rule("concepts/starting-strength", "glossary/half-strength")
def below_half_strength(models_remaining: Any, starting_strength: Any) -> Any:
    """Below Half-strength: fewer models than half the Starting Strength (exactly half is not below)."""
    return 2 * models_remaining < starting_strength


@rule("concepts/starting-strength", "glossary/starting-strength")
def split_starting_strengths(models_in_each_new_unit: Sequence[int]) -> list[int]:
    """A unit split during the battle: each new unit's Starting Strength is its number of models."""
    return list(models_in_each_new_unit)


@rule("concepts/starting-strength")
def merged_starting_strength(starting_strengths: Sequence[Any]) -> Any:
    """Units merged into one: the combined unit's Starting Strength is the sum of theirs."""
    return roll_result(starting_strengths)


@rule("concepts/starting-strength")
def unit_destroyed(models_remaining: Any) -> Any:
    """A unit is destroyed when every model in it has been destroyed."""
    return models_remaining == 0


BY_AN_ATTACK, BY_FLEEING, BY_A_MORTAL_WOUND, BY_A_RULE_THAT_DESTROYS_OUTRIGHT, BY_OTHER_MEANS = range(5)


@rule("concepts/starting-strength")
def destroyed_by_your_army(last_model_destroyed: Any, by_your_army: Any) -> Any:
    """Whether an enemy unit was destroyed by you: its last model fell to an attack by one of your models, fled,
    or fell to a mortal wound or an outright-destroying rule one of your models is using; other means do not
    count."""
    fled = last_model_destroyed == BY_FLEEING
    yours = And(by_your_army, Or(last_model_destroyed == BY_AN_ATTACK, last_model_destroyed == BY_A_MORTAL_WOUND,
                                 last_model_destroyed == BY_A_RULE_THAT_DESTROYS_OUTRIGHT))
    return Or(fled, yours)


@rule("glossary/suffered-casualties")
def has_suffered_casualties(models_remaining: Any, starting_strength: Any) -> Any:
    """The glossary's 'suffered casualties': fewer models remaining than the Starting Strength."""
    return models_remaining < starting_strength


@rule("glossary/morale-test", "glossary/casualties-suffered")
def takes_morale_test(models_destroyed_this_turn: Any) -> Any:
    """A unit takes a Morale test in the Morale phase if models of it were destroyed this turn (the casualties it
    suffered are that number of models). Interpretation: morale-test-models-destroyed-this-turn."""
    return models_destroyed_this_turn > 0


# -- Units, friend and foe, keywords -----------------------------------------------------------------------------------


@rule("concepts/units", "glossary/friendly-models-friendly-units", "glossary/enemy", "glossary/controller")
def friendly(army_of_one: Any, army_of_other: Any) -> Any:
    """Two models or units are friendly if they are in the same army, enemies otherwise."""
    return army_of_one == army_of_other


@rule("concepts/units")
def rule_affects_unit(says_friendly: Any, says_enemy: Any, unit_is_friendly: Any) -> Any:
    """A rule for friendly units affects friendly units, one for enemy units enemy units, and one that says
    neither affects all units, whoever's army they are in."""
    return If(says_friendly, unit_is_friendly, If(says_enemy, Not(unit_is_friendly), True))


def _keyword(word: str) -> str:
    """A keyword as matched: case and a plural 's' aside (pluralisation does not affect matching)."""
    word = word.strip().upper()
    return word.removesuffix("S")


@rule("concepts/keywords", "glossary/keyword", "datasheets/keywords")
def has_keyword(keywords: Iterable[str], wanted: str) -> bool:
    """Whether a unit or model with these keywords matches a keyworded rule (pluralisation aside)."""
    return _keyword(wanted) in {_keyword(k) for k in keywords}


@rule("concepts/keywords")
def unit_keywords(keywords_of_each_model: Iterable[Iterable[str]]) -> set[str]:
    """A unit whose models have different keywords has all the keywords of all its models."""
    return {k for model in keywords_of_each_model for k in model}


@rule("concepts/keywords")
def chosen_keyword(keyword: str, choices: dict[str, str]) -> str:
    """A keyword in angular brackets (<CHAPTER>) reads as the keyword chosen when the unit was added to the army."""
    if keyword.startswith("<") and keyword not in choices:
        raise ValueError(f"no keyword was chosen for {keyword} when the unit was added to the army")
    return choices.get(keyword, keyword)


@rule("glossary/keywords-comma-separated-list")
def matches_any_keyword(keywords: Iterable[str], listed: Iterable[str]) -> bool:
    """'IMMORTALS, DEATHMARKS or LYCHGUARD': any one of the listed keywords matching is enough."""
    keywords = list(keywords)
    return any(has_keyword(keywords, k) for k in listed)


@rule("glossary/keywords-multiples")
def matches_every_keyword(keywords: Iterable[str], adjacent: Iterable[str]) -> bool:
    """'AELDARI GUARDIANS': each of the adjacent keywords must match."""
    keywords = list(keywords)
    return all(has_keyword(keywords, k) for k in adjacent)


@rule("glossary/non-keyword")
def matches_non_keyword(keywords: Iterable[str], excluded: str) -> bool:
    """'non-VEHICLE': matches only what does not have that keyword."""
    return not has_keyword(keywords, excluded)


@rule("concepts/army")
def power_level(power_ratings: Sequence[Any]) -> Any:
    """An army's Power Level: the Power Ratings of all its units added up."""
    return roll_result(power_ratings)


@rule("concepts/battlefield-quarters")
def in_battlefield_quarter(x: Any, y: Any, width: Any, depth: Any, right_half: Any, far_half: Any) -> Any:
    """Whether a point of the battlefield (x across its width, y across its depth, from a corner) lies in a quarter,
    the quarters divided by one horizontal and one vertical line through the centre. Interpretation:
    quarter-lines-belong-to-both (a point on a dividing line lies in the quarters either side of it)."""
    across = If(right_half, 2 * x >= width, 2 * x <= width)
    along = If(far_half, 2 * y >= depth, 2 * y <= depth)
    return And(x >= 0, x <= width, y >= 0, y <= depth, across, along)


@rule("glossary/can-fly")
def can_fly(keywords: Iterable[str]) -> bool:
    """'Can FLY': a model or unit with the FLY keyword."""
    return has_keyword(keywords, "FLY")
