"""z3 proofs about 999.m41's General Principles, Models and Units and The Turn (ruleset ``m41``): the d3 and d66,
measuring between closest points, thresholds moved by bonuses and penalties, re-rolls, scatter, the modifier order
and bounds, zero-level characteristics, the three tests' natural results, and who acts in each phase.

Each builder calls the real rule functions through their modules so ``properties/test_m41_principles.py`` can swap
in a broken copy and watch the proof fail. Proofs with ``expect="disproved"`` are findings
(spec/m41/annotations/findings/principles.yaml).
"""

from __future__ import annotations

from typing import Any

import z3

from properties.proofs import Built, proof
from rules.m41 import models, principles, turn
from rules.m41.models import Characteristic
from rules.m41.principles import ScatterFace


def _between(symbol: Any, low: int, high: int) -> Any:
    return z3.And(symbol >= low, symbol <= high)


def _ceiling_of_quotient(value: Any, divisor: Any) -> Any:
    """ceil(value / divisor) over the reals, written independently of the code's integer trick."""
    return -z3.ToInt(-z3.ToReal(value) / z3.ToReal(z3.IntVal(divisor) if isinstance(divisor, int) else divisor))


# -- Dice --------------------------------------------------------------------------------------------------------------


@proof("m41-d3-is-a-d6-halved-rounding-up", ("m41:principles/d3",),
       "A d3 is the d6 halved rounding up, which is the printed 1 or 2 = 1, 3 or 4 = 2, 5 or 6 = 3, for every face.")
def _d3() -> Built:
    face = z3.Int("face")
    value = principles.d3_from_d6(face)
    table = z3.If(face <= 2, 1, z3.If(face <= 4, 2, 3))
    return [_between(face, 1, 6)], z3.And(value == _ceiling_of_quotient(face, 2), value == table), {"face": face}


@proof("m41-d66-tens-then-ones", ("m41:principles/d66",),
       "A d66 reads the first d6 as the tens and the second as the ones: every result is 11 to 66 with both digits "
       "1 to 6 (no 0s, no 7s or more), and different rolls give different results.")
def _d66() -> Built:
    a, b, c, d = z3.Ints("first second other_first other_second")
    value = principles.d66(a, b)
    digits = z3.And(value / 10 == a, value % 10 == b, value >= 11, value <= 66)
    distinct = z3.Implies(z3.Or(a != c, b != d), value != principles.d66(c, d))
    pre = [_between(x, 1, 6) for x in (a, b, c, d)]
    return pre, z3.And(digits, distinct), {"first": a, "second": b, "other_first": c, "other_second": d}


@proof("m41-nd6-adds-the-dice", ("m41:principles/d6-and-2d6", "m41:principles/dice"),
       "An nd6 result is the dice added together: 2d6 is 2 to 12 and 3d6 is 3 to 18, each the sum of its faces.")
def _nd6() -> Built:
    a, b, c = z3.Ints("a b c")
    two, three = principles.dice_total([a, b]), principles.dice_total([a, b, c])
    goal = z3.And(two == a + b, three == a + b + c, _between(two, 2, 12), _between(three, 3, 18))
    return [_between(x, 1, 6) for x in (a, b, c)], goal, {"a": a, "b": b, "c": c}


# -- Measuring, thresholds, re-rolls, scatter -------------------------------------------------------------------


@proof("m41-distance-closest-point-to-closest-point", ("m41:principles/measuring-distances",),
       "The distance between two units of two models each is the smallest of the four model-to-model distances: "
       "no pair is closer, and one pair is exactly that close.")
def _closest() -> Built:
    d = [[z3.Real(f"d{i}{j}") for j in range(2)] for i in range(2)]
    value = principles.distance_between_units(d)
    flat = [x for row in d for x in row]
    goal = z3.And(*(value <= x for x in flat), z3.Or(*(value == x for x in flat)))
    return [x >= 0 for x in flat], goal, {str(x): x for x in flat}


@proof("m41-measuring-only-in-its-phase", ("m41:principles/pre-measuring",),
       "A distance may be measured only in the phase it is for, and never just to check: a weapon range (the "
       "shooting phase's) is never measured in the movement phase.")
def _pre_measure() -> Built:
    for_phase, now = z3.Ints("for_phase now")
    checking = z3.Bool("only_to_check")
    allowed = principles.may_measure(for_phase, now, checking)
    goal = z3.And(allowed == z3.And(for_phase == now, z3.Not(checking)),
                  z3.Not(principles.may_measure(int(principles.Phase.SHOOTING), int(principles.Phase.MOVEMENT))))
    pre = [_between(for_phase, 1, 3), _between(now, 1, 3)]
    return pre, goal, {"for_phase": for_phase, "now": now, "only_to_check": checking}


@proof("m41-penalty-raises-the-threshold", ("m41:principles/modifying-target-threshold",),
       "A -1 to hit raises the threshold by 1; on any roll, a bigger bonus never turns a pass into a failure, on a "
       "roll that must reach the threshold (to hit, saves) or not exceed it (leadership).")
def _threshold() -> Built:
    roll, threshold, low, high = z3.Ints("roll threshold low_bonus high_bonus")
    under = z3.Bool("roll_under")

    def passes(bonus: Any) -> Any:
        return principles.passes_threshold(roll, principles.modified_threshold(threshold, bonus, under), under)

    goal = z3.And(principles.modified_threshold(threshold, -1, False) == threshold + 1,
                  z3.Implies(z3.And(low <= high, passes(low)), passes(high)))
    pre = [_between(roll, 1, 12), _between(threshold, 2, 12), _between(low, -3, 3), _between(high, -3, 3)]
    return pre, goal, {"roll": roll, "threshold": threshold, "low_bonus": low, "high_bonus": high,
                       "roll_under": under}


@proof("m41-re-roll-once-and-the-second-counts", ("m41:principles/re-rolls",),
       "A re-rolled dice counts its second roll even when worse than the first, and a dice already re-rolled once "
       "may not be re-rolled again.")
def _re_roll() -> Built:
    first, second, times = z3.Ints("first second times")
    goal = z3.And(principles.result_after_re_roll(first, second, True) == second,
                  principles.result_after_re_roll(first, second, False) == first,
                  principles.may_re_roll(times) == (times == 0))
    return [_between(first, 1, 6), _between(second, 1, 6), _between(times, 0, 3)], goal, \
        {"first": first, "second": second, "times": times}


@proof("m41-scatter-hit-stays-arrow-moves-2d6", ("m41:principles/scatter",),
       "A Hit! leaves the object in place whatever the 2d6 and modifiers; an arrow moves it the 2d6 total plus the "
       "modifiers, never a negative distance.")
def _scatter() -> Built:
    two_d6, modifier = z3.Ints("two_d6 modifier")
    hit = principles.scatter_distance(int(ScatterFace.HIT), two_d6, modifier)
    arrow = principles.scatter_distance(int(ScatterFace.ARROW), two_d6, modifier)
    goal = z3.And(hit == 0, arrow == z3.If(two_d6 + modifier < 0, 0, two_d6 + modifier), arrow >= 0)
    return [_between(two_d6, 2, 12), _between(modifier, -12, 12)], goal, {"two_d6": two_d6, "modifier": modifier}


@proof("m41-casualties-at-the-end-of-the-game", ("m41:principles/removed-as-a-casualty",),
       "A model counts as a casualty when removed as one or from play, and at the end of the game also when falling "
       "back or off the table; before the end, a model on the table that was not removed is no casualty.")
def _casualty() -> Built:
    removed, from_play, over, falling, on_table = z3.Bools("removed from_play game_over falling_back on_table")
    value = principles.counts_as_casualty(removed, from_play, over, falling, on_table)
    goal = value == z3.Or(removed, from_play, z3.And(over, z3.Or(falling, z3.Not(on_table))))
    return [], goal, {"removed": removed, "from_play": from_play, "game_over": over, "falling_back": falling,
                      "on_table": on_table}


@proof("m41-game-turn-is-both-player-turns", ("m41:principles/game-turns-and-player-turns",),
       "Player turns 2k-1 and 2k make up game turn k, and 'turns' prefaced with game count twice as many player "
       "turns.")
def _game_turn() -> Built:
    k, n = z3.Ints("k n")
    goal = z3.And(principles.game_turn_of(2 * k - 1) == k, principles.game_turn_of(2 * k) == k,
                  principles.turns_in_player_turns(n, True) == 2 * n, principles.turns_in_player_turns(n, False) == n)
    return [_between(k, 1, 20), _between(n, 1, 20)], goal, {"k": k, "n": n}


# -- Characteristics ------------------------------------------------------------------------------------------------


def _modifier_symbols() -> tuple[list, dict]:
    """A value, a set and one addition and subtraction as symbols; the factor and divisor (1 to 3) are enumerated
    (FACTORS_AND_DIVISORS) so the goal stays linear for z3."""
    value, set_to, bonus, penalty = z3.Ints("value set_to bonus penalty")
    pre = [_between(value, 0, 10), _between(set_to, 0, 10), _between(bonus, 0, 5), _between(penalty, 0, 5)]
    return pre, {"value": value, "set_to": set_to, "bonus": bonus, "penalty": penalty}


FACTORS_AND_DIVISORS = [(factor, divisor) for factor in (1, 2, 3) for divisor in (1, 2, 3)]


@proof("m41-modifiers-set-add-subtract-multiply-divide", ("m41:models/multiple-modifiers",),
       "Under one modifier of each kind (factors and divisors 1 to 3), a value is set, then added to, then "
       "subtracted from, then multiplied, then divided (rounding up): ceil((set + bonus - penalty) * factor / "
       "divisor); without a set, the value itself takes the set's place.")
def _order() -> Built:
    pre, f = _modifier_symbols()
    v, s, a, b = (f[k] for k in ("value", "set_to", "bonus", "penalty"))
    goal = z3.And(*(z3.And(models.apply_modifiers(v, s, [a], [b], [m], [d]) == _ceiling_of_quotient((s + a - b) * m, d),
                           models.apply_modifiers(v, None, [a], [b], [m], [d])
                           == _ceiling_of_quotient((v + a - b) * m, d))
                    for m, d in FACTORS_AND_DIVISORS))
    return pre, goal, f


@proof("m41-modified-characteristics-within-their-bounds", ("m41:models/modifiers", "m41:models/armour-save"),
       "Whatever the modifiers, Initiative is never below 1, every other characteristic never below 0, only Attacks "
       "and Wounds above 10, and an Armour Save never better than 2+; a value within its bounds is left alone.")
def _bounds() -> Built:
    pre, f = _modifier_symbols()
    v, s, a, b = (f[k] for k in ("value", "set_to", "bonus", "penalty"))
    c, raw = z3.Ints("characteristic raw")
    is_ = {name: c == int(member) for name, member in Characteristic.__members__.items()}
    floor = z3.If(is_["I"], 1, z3.If(is_["SV"], 2, 0))
    within = []
    for m, d in FACTORS_AND_DIVISORS:
        result = models.modified_characteristic(c, v, s, [a], [b], [m], [d])
        within.append(z3.And(result >= floor, z3.Implies(z3.Not(z3.Or(is_["A"], is_["W"])), result <= 10)))
    goal = z3.And(*within, z3.Implies(z3.And(raw >= floor, z3.Or(raw <= 10, is_["A"], is_["W"])),
                                      models.bounded(c, raw) == raw))
    pre = pre + [_between(c, 1, 9), _between(raw, -5, 20)]
    return pre, goal, {**f, "characteristic": c, "raw": raw}


@proof("m41-zero-strength-toughness-or-wounds-removes", ("m41:models/zero-level-characteristics",),
       "A model is removed as a casualty exactly when its Strength, Toughness or Wounds has come down to 0 (the "
       "modifiers' floor); Weapon Skill 0 is hit automatically and strikes no blows, and no Attacks strike none.")
def _zero_level() -> Built:
    s, t, w, ws, a, penalty = z3.Ints("strength toughness wounds weapon_skill attacks penalty")
    s_after = models.modified_characteristic(int(Characteristic.S), s, subtract=[penalty])
    removed = models.removed_for_zero_characteristics(s_after, t, w)
    goal = z3.And(removed == z3.Or(s <= penalty, t == 0, w == 0),
                  models.hit_automatically_in_close_combat(ws) == (ws == 0),
                  models.can_strike_blows(ws, a) == z3.And(ws != 0, a != 0))
    pre = [_between(x, 0, 10) for x in (s, t, w, ws, a, penalty)]
    return pre, goal, {"strength": s, "toughness": t, "wounds": w, "weapon_skill": ws, "attacks": a,
                       "penalty": penalty}


@proof("m41-characteristic-test-six-fails-one-passes", ("m41:models/characteristic-tests",),
       "A characteristic test passes on a d6 at most the value, except that a natural 6 always fails and a 1 "
       "always passes; a higher value never passes less often.")
def _characteristic_test() -> Built:
    roll, value, higher = z3.Ints("roll value higher")
    passes = models.passes_characteristic_test
    goal = z3.And(z3.Not(passes(6, value)), passes(1, value),
                  z3.Implies(z3.And(roll >= 2, roll <= 5), passes(roll, value) == (roll <= value)),
                  z3.Implies(z3.And(higher >= value, passes(roll, value)), passes(roll, higher)))
    pre = [_between(roll, 1, 6), _between(value, 0, 10), _between(higher, 0, 10)]
    return pre, goal, {"roll": roll, "value": value, "higher": higher}


@proof("m41-leadership-twelve-fails-two-passes", ("m41:models/leadership-tests",),
       "A Leadership test passes on 2d6 at most the Leadership, except that a natural 12 always fails and a "
       "natural 2 always passes; a higher Leadership never passes less often.")
def _leadership_test() -> Built:
    a, b, ld, higher = z3.Ints("first second leadership higher")
    passes = models.passes_leadership_test
    total = a + b
    goal = z3.And(z3.Implies(total == 12, z3.Not(passes(a, b, ld))), z3.Implies(total == 2, passes(a, b, ld)),
                  z3.Implies(z3.And(total > 2, total < 12), passes(a, b, ld) == (total <= ld)),
                  z3.Implies(z3.And(higher >= ld, passes(a, b, ld)), passes(a, b, higher)))
    pre = [_between(a, 1, 6), _between(b, 1, 6), _between(ld, 0, 12), _between(higher, 0, 12)]
    return pre, goal, {"first": a, "second": b, "leadership": ld, "higher": higher}


@proof("m41-save-passes-at-or-over-natural-one-fails", ("m41:models/saving-throws",),
       "A saving throw passes on a d6 at least the save, a natural 1 always fails (even against a save improved "
       "to 1+ or better by a modifier), and a better (lower) save never passes less often.")
def _save() -> Built:
    roll, save, better = z3.Ints("roll save better")
    passes = models.passes_save
    goal = z3.And(z3.Not(passes(1, save)), z3.Implies(roll >= 2, passes(roll, save) == (roll >= save)),
                  z3.Implies(z3.And(better <= save, passes(roll, save)), passes(roll, better)))
    return [_between(roll, 1, 6), _between(save, 0, 7), _between(better, 0, 7)], goal, \
        {"roll": roll, "save": save, "better": better}


@proof("m41-lower-armour-save-is-better", ("m41:models/armour-save", "m41:models/weapon-skill",
                                           "m41:models/leadership"),
       "A lower Armour Save is better than a higher one, and for every other characteristic a higher value is "
       "better.")
def _better() -> Built:
    c, x, y = z3.Ints("characteristic value than")
    goal = models.is_better(c, x, y) == z3.If(c == int(Characteristic.SV), x < y, x > y)
    return [_between(c, 1, 9), _between(x, 0, 10), _between(y, 0, 10)], goal, {"characteristic": c, "value": x,
                                                                                 "than": y}


# -- The turn ---------------------------------------------------------------------------------------------------------


@proof("m41-who-acts-in-each-phase", ("m41:turn/movement-phase", "m41:turn/shooting-phase", "m41:turn/assault-phase",
                                      "m41:principles/turn-overview"),
       "Only the attacking player moves and charges; the defending player shoots only with overwatching units, and "
       "first; both players fight with their units in combat.")
def _who_acts() -> Built:
    attacking, overwatching, in_combat = z3.Bools("attacking overwatching in_combat")
    goal = z3.And(turn.may_move(attacking) == attacking, turn.may_charge(attacking) == attacking,
                  turn.may_shoot(attacking, overwatching) == z3.Or(attacking, overwatching),
                  turn.shoots_first(attacking) == z3.Not(attacking),
                  turn.may_fight(attacking, in_combat) == in_combat)
    return [], goal, {"attacking": attacking, "overwatching": overwatching, "in_combat": in_combat}


@proof("m41-first-turn-roll-is-fair", ("m41:turn/who-gets-the-first-turn",),
       "The higher d6 chooses to go first or second; swapping the dice swaps the chooser, and equal dice choose "
       "nobody.")
def _first_turn() -> Built:
    a, b = z3.Ints("first_roll second_roll")
    chooser, swapped = turn.chooses_first_or_second(a, b), turn.chooses_first_or_second(b, a)
    goal = z3.And(chooser == z3.If(a > b, 1, z3.If(b > a, 2, 0)), swapped == z3.If(chooser == 0, 0, 3 - chooser))
    return [_between(a, 1, 6), _between(b, 1, 6)], goal, {"first_roll": a, "second_roll": b}


@proof("m41-game-ends-not-before-six-rounds", ("m41:turn/the-end-of-the-game",),
       "The turn limit never ends the game before 6 game rounds are complete; eliminating an army or meeting the "
       "victory condition ends it at any time.")
def _end() -> Built:
    rounds = z3.Int("rounds")
    limit, eliminated, victory = z3.Bools("turn_limit_reached army_eliminated victory_condition")
    over = turn.game_over(rounds, limit, eliminated, victory)
    goal = over == z3.Or(z3.And(rounds >= 6, limit), eliminated, victory)
    return [_between(rounds, 0, 12)], goal, {"rounds": rounds, "turn_limit_reached": limit,
                                             "army_eliminated": eliminated, "victory_condition": victory}


# -- Findings (expected disproved) ------------------------------------------------------------------------------------


@proof("m41-saves-as-the-characteristic-tests-they-are-called", ("m41:models/saving-throws",
                                                                  "m41:models/characteristic-tests"),
       "A saving throw taken as the characteristic test the text calls it (so a natural 6 always fails) passes on "
       "exactly the rolls the Saving Throws section passes.", expect="disproved")
def _saves_as_tests() -> Built:
    roll, save = z3.Ints("roll save")
    as_section = models.passes_save(roll, save)
    as_characteristic_test = z3.And(as_section, roll != 6)
    return [_between(roll, 1, 6), _between(save, 2, 6)], as_section == as_characteristic_test, \
        {"roll": roll, "save": save}


@proof("m41-six-turns-minimum-as-the-turn-terminology-reads", ("m41:turn/the-end-of-the-game",
                                                                "m41:principles/game-turns-and-player-turns"),
       "The End of the Game's '6 turns minimum', read with the General Principles' terminology ('turn' alone is a "
       "player turn), is as many player turns as the 6 game rounds the game length counts.", expect="disproved")
def _six_turns() -> Built:
    printed_turns = z3.Int("printed_turns")
    as_read = principles.turns_in_player_turns(printed_turns, False)
    as_game_length = principles.turns_in_player_turns(turn.MINIMUM_GAME_ROUNDS, True)
    return [printed_turns == 6], as_read == as_game_length, {"printed_turns": printed_turns}
