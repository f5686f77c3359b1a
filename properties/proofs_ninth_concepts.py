"""z3 proofs about the earlier edition's core concepts, datasheets, battle round, Command phase and glossary
(ruleset ``ninth``): the D3 both ways, the modifier order, the floors at 1, Half-strength, unit coherency,
roll-offs, AP and skills improved and reduced.

Each builder calls the real rule functions through their modules so ``properties/test_ninth_concepts.py`` can swap
in a broken copy and watch the proof fail. Proofs with ``expect="disproved"`` are findings
(spec/ninth/annotations/findings/concepts.yaml): the text as printed (a glossary entry, a summary bullet, the other
printing) fails them, and the code follows a recorded interpretation instead.
"""

from __future__ import annotations

from typing import Any

import z3

from properties.proofs import Built, proof
from rules.ninth import battle_round, concepts, datasheets, glossary
from rules.ninth.battle_round import Phase, Printing
from rules.ninth.datasheets import Characteristic


def _between(symbol: Any, low: int, high: int) -> Any:
    return z3.And(symbol >= low, symbol <= high)


def _ceiling(value: Any) -> Any:
    return -z3.ToInt(-value)


def _modifier_facts() -> tuple[list, dict]:
    """A D6 roll and one modifier of each kind: a divisor and a factor of 1 to 3, an addition and a subtraction
    of 0 to 4 (a small window of ours)."""
    roll, divisor, factor, bonus, penalty = z3.Ints("roll divisor factor bonus penalty")
    pre = [_between(roll, 1, 6), _between(divisor, 1, 3), _between(factor, 1, 3), _between(bonus, 0, 4),
           _between(penalty, 0, 4)]
    return pre, {"roll": roll, "divisor": divisor, "factor": factor, "bonus": bonus, "penalty": penalty}


# -- Dice --------------------------------------------------------------------------------------------------------------


@proof("ninth-d3-halving-agrees-with-the-glossary-table", ("ninth:concepts/dice", "ninth:glossary/d3"),
       "The Dice section's D3 (a D6 halved, rounding up) and the glossary's table (1-2 is 1, 3-4 is 2, 5-6 is 3) "
       "give the same D3 for every face of the D6.")
def _d3_both_ways() -> Built:
    roll = z3.Int("roll")
    goal = concepts.d3_by_halving(roll) == glossary_d3(roll)
    return [_between(roll, 1, 6)], goal, {"roll": roll}


def glossary_d3(face: Any) -> Any:
    return concepts.d3_by_the_glossary_table(face)


@proof("ninth-modifiers-in-the-printed-order", ("ninth:concepts/dice",),
       "A modified dice roll is the roll divided, then multiplied, then added to, then subtracted from, rounded "
       "up once at the end, and counted as 1 if below 1: ceil(roll / divisor * factor + bonus - penalty), at "
       "least 1.")
def _modifier_order() -> Built:
    pre, f = _modifier_facts()
    r, d, m, a, s = (f[k] for k in ("roll", "divisor", "factor", "bonus", "penalty"))
    as_written = _ceiling(z3.ToReal(r) / z3.ToReal(d) * z3.ToReal(m) + z3.ToReal(a) - z3.ToReal(s))
    expected = z3.If(as_written < 1, 1, as_written)
    return pre, concepts.modified_dice_roll(r, [d], [m], [a], [s]) == expected, f


@proof("ninth-modified-roll-never-below-one-and-may-pass-six", ("ninth:concepts/dice",),
       "Whatever the modifiers, a modified roll is never below 1; without division or subtraction it is never "
       "below the roll itself (so a 6 with +1 is 7, above the dice's maximum).")
def _never_below_one() -> Built:
    pre, f = _modifier_facts()
    r, d, m, a, s = (f[k] for k in ("roll", "divisor", "factor", "bonus", "penalty"))
    result = concepts.modified_dice_roll(r, [d], [m], [a], [s])
    unreduced = concepts.modified_dice_roll(r, [], [m], [a], [])
    return pre, z3.And(result >= 1, unreduced >= r + a), f


@proof("ninth-characteristics-modified-as-dice-rolls",
       ("ninth:datasheets/modifying-characteristics", "ninth:concepts/dice"),
       "Both sections state the same modifier order: a Strength, Toughness, Attacks or Leadership characteristic "
       "of 1 to 6 under the same modifiers is modified exactly as a dice roll showing that number.")
def _characteristics_as_dice() -> Built:
    pre, f = _modifier_facts()
    r, d, m, a, s = (f[k] for k in ("roll", "divisor", "factor", "bonus", "penalty"))
    characteristic = z3.Int("characteristic")
    floored = z3.Or(*(characteristic == int(c) for c in (Characteristic.S, Characteristic.T, Characteristic.A,
                                                           Characteristic.LD)))
    as_characteristic = datasheets.modified_characteristic(characteristic, r, None, [d], [m], [a], [s])
    return pre + [floored], as_characteristic == concepts.modified_dice_roll(r, [d], [m], [a], [s]), \
        {**f, "characteristic": characteristic}


@proof("ninth-strength-toughness-attacks-leadership-floored-at-one",
       ("ninth:datasheets/modifying-characteristics", "ninth:glossary/modifying-characteristics"),
       "Regardless of the modifiers, a Strength, Toughness, Attacks or Leadership characteristic is never modified "
       "below 1, and those are the only characteristics that are floored at 1.")
def _floors() -> Built:
    pre, f = _modifier_facts()
    r, d, m, a, s = (f[k] for k in ("roll", "divisor", "factor", "bonus", "penalty"))
    characteristic = z3.Int("characteristic")
    printed = z3.Or(*(characteristic == int(c) for c in (Characteristic.S, Characteristic.T, Characteristic.A,
                                                         Characteristic.LD)))
    result = datasheets.modified_characteristic(characteristic, r, None, [d], [m], [a], [s])
    goal = z3.And(z3.Implies(printed, result >= 1), datasheets.never_modified_below_one(characteristic) == printed)
    pre = pre + [_between(characteristic, int(min(Characteristic)), int(max(Characteristic)))]
    return pre, goal, {**f, "characteristic": characteristic}


# -- Re-rolls, roll-offs, sequencing -----------------------------------------------------------------------------------


@proof("ninth-roll-off-fair-and-ties-rolled-again", ("ninth:concepts/roll-offs", "ninth:glossary/roll-off"),
       "A roll-off is won by the higher D6; swapping the two players' dice swaps the winner, and only equal dice "
       "(a tie) are rolled again.")
def _roll_off() -> Built:
    first, second = z3.Ints("roll_1 roll_2")
    winner = concepts.roll_off_winner(first, second)
    swapped = concepts.roll_off_winner(second, first)
    goal = z3.And(z3.Or(winner == 1, winner == 2, winner == 0),
                  (winner == 1) == (swapped == 2), (winner == 0) == (first == second),
                  z3.Implies(first > second, winner == 1))
    return [_between(first, 1, 6), _between(second, 1, 6)], goal, {"roll_1": first, "roll_2": second}


@proof("ninth-re-roll-every-dice-as-the-glossary-says", ("ninth:concepts/re-rolls", "ninth:glossary/re-roll"),
       "As the glossary puts it, re-rolling a dice roll re-rolls all of the dice involved in that roll (where the "
       "rule allowing it says nothing otherwise).",
       expect="disproved")
def _re_roll_glossary() -> Built:
    several, specific, otherwise = z3.Bools("roll_of_several_dice_added rule_names_specific_dice_results "
                                            "rule_says_otherwise")
    goal = concepts.re_rolls_every_dice(several, specific, otherwise)
    return [z3.Not(otherwise)], goal, {"roll_of_several_dice_added": several,
                                       "rule_names_specific_dice_results": specific, "rule_says_otherwise": otherwise}


@proof("ninth-sequencing-as-summarised", ("ninth:concepts/sequencing",),
       "As the summary bullet puts it, the player whose turn it is chooses the order of rules that must be "
       "resolved at the same time.", expect="disproved")
def _sequencing_bullet() -> Built:
    during, start_or_end = z3.Bools("during_the_battle at_start_or_end_of_a_battle_round")
    chooser = concepts.who_orders_simultaneous_rules(during, start_or_end)
    return [z3.Implies(start_or_end, during)], chooser == concepts.TURN_PLAYER, \
        {"during_the_battle": during, "at_start_or_end_of_a_battle_round": start_or_end}


# -- Starting Strength, casualties, coherency, Engagement Range --------------------------------------------------------


@proof("ninth-half-strength-fewer-than-half-and-monotone",
       ("ninth:concepts/starting-strength", "ninth:glossary/half-strength"),
       "A unit is below Half-strength exactly when it has fewer models than half its Starting Strength (exactly "
       "half is not below), and losing more models never lifts it back above.")
def _half_strength() -> Built:
    models, fewer, strength = z3.Ints("models_remaining fewer_models starting_strength")
    pre = [strength >= 1, _between(models, 0, strength), _between(fewer, 0, models)]
    goal = z3.And(concepts.below_half_strength(models, strength) == (2 * models < strength),
                  z3.Implies(concepts.below_half_strength(models, strength),
                             concepts.below_half_strength(fewer, strength)),
                  z3.Not(concepts.below_half_strength(models, 2 * models)))
    return pre, goal, {"models_remaining": models, "fewer_models": fewer, "starting_strength": strength}


@proof("ninth-suffered-casualties-as-the-glossary-says", ("ninth:glossary/suffered-casualties",
                                                        "ninth:glossary/morale-test"),
       "As the glossary puts it, a unit that has suffered casualties (fewer models than its Starting Strength) "
       "takes a Morale test in the Morale phase.", expect="disproved")
def _suffered_casualties() -> Built:
    models, strength, destroyed = z3.Ints("models_remaining starting_strength models_destroyed_this_turn")
    pre = [strength >= 1, _between(models, 1, strength), _between(destroyed, 0, strength - models)]
    goal = z3.Implies(concepts.has_suffered_casualties(models, strength), concepts.takes_morale_test(destroyed))
    return pre, goal, {"models_remaining": models, "starting_strength": strength,
                       "models_destroyed_this_turn": destroyed}


@proof("ninth-coherency-one-other-model-two-from-six", ("ninth:concepts/unit-coherency",),
       "A model is in unit coherency with one other model of its unit within 2\"/5\" while the unit has two to "
       "five models, with two others while it has six or more, and a lone model always; more neighbours never "
       "break coherency.")
def _coherency() -> Built:
    neighbours, size = z3.Ints("neighbours size")
    pre = [size >= 1, _between(neighbours, 0, size - 1)]
    coherent = concepts.model_in_coherency(neighbours, size)
    needed = z3.If(size == 1, 0, z3.If(size >= 6, 2, 1))
    goal = z3.And(coherent == (neighbours >= needed),
                  z3.Implies(z3.And(coherent, neighbours + 1 <= size - 1),
                             concepts.model_in_coherency(neighbours + 1, size)))
    return pre, goal, {"neighbours": neighbours, "size": size}


@proof("ninth-engagement-range-inside-coherency-distance",
       ("ninth:concepts/engagement-range", "ninth:concepts/unit-coherency", "ninth:concepts/within-and-wholly-within"),
       "Engagement Range (1\" horizontally, 5\" vertically) and unit coherency (2\", 5\") include their limits "
       "('within' is 'not more than'), and two models within Engagement Range are within coherency distance.")
def _engagement_inside_coherency() -> Built:
    h, v = z3.Reals("horizontal_inches vertical_inches")
    goal = z3.And(z3.Implies(concepts.within_engagement_range(h, v), concepts.within_coherency_distance(h, v)),
                  concepts.within_engagement_range(h, v) == z3.And(h <= 1, v <= 5),
                  concepts.within_coherency_distance(h, v) == z3.And(h <= 2, v <= 5))
    return [h >= 0, v >= 0], goal, {"horizontal_inches": h, "vertical_inches": v}


@proof("ninth-wholly-within-implies-within", ("ninth:concepts/within-and-wholly-within", "ninth:glossary/wholly-within",
                                              "ninth:glossary/unit-within", "ninth:glossary/whole-unit-within"),
       "A unit of three models wholly within a distance (every part of every base) has every model within it, "
       "and so is within it; every model within means the unit is within.")
def _wholly_within() -> Built:
    closest = z3.Reals("closest_1 closest_2 closest_3")
    farthest = z3.Reals("farthest_1 farthest_2 farthest_3")
    distance = z3.Real("distance")
    pre = [z3.And(c >= 0, c <= f) for c, f in zip(closest, farthest)] + [distance >= 0]
    goal = z3.And(z3.Implies(concepts.unit_wholly_within(farthest, distance),
                             concepts.every_model_within(closest, distance)),
                  z3.Implies(concepts.every_model_within(closest, distance), concepts.unit_within(closest, distance)),
                  concepts.unit_within(closest, distance) == z3.Or(*(c <= distance for c in closest)),
                  concepts.unit_wholly_within(farthest, distance) == z3.And(*(f <= distance for f in farthest)))
    symbols = {f"closest_{i + 1}": c for i, c in enumerate(closest)}
    symbols.update({f"farthest_{i + 1}": f for i, f in enumerate(farthest)})
    return pre, goal, {**symbols, "distance": distance}


# -- Glossary: improving and reducing ----------------------------------------------------------------------------------


@proof("ninth-improving-is-better-reducing-is-worse",
       ("ninth:glossary/improving-ws-bs-and-sv-characteristics", "ninth:glossary/reducing-ws-bs-and-sv-characteristics",
        "ninth:glossary/or-better-ws-bs-sv-characteristics-invulnerable-saves",
        "ninth:glossary/or-worse-ws-bs-sv-characteristics-invulnerable-saves"),
       "Improving a WS, BS, Sv or invulnerable save by 1 or more makes it better, reducing it makes it worse, "
       "and improving then reducing by the same amount gives it back.")
def _skills() -> Built:
    value, by = z3.Ints("skill by")
    pre = [_between(value, 2, 6), _between(by, 1, 3)]
    goal = z3.And(glossary.skill_is_better(glossary.improve_skill(value, by), value),
                  glossary.skill_is_worse(glossary.reduce_skill(value, by), value),
                  glossary.reduce_skill(glossary.improve_skill(value, by), by) == value,
                  glossary.skill_is_better(value, value + 1), glossary.skill_is_worse(value + 1, value))
    return pre, goal, {"skill": value, "by": by}


@proof("ninth-ap-improved-better-reduced-never-above-zero",
       ("ninth:glossary/improving-an-ap-characteristic", "ninth:glossary/reducing-an-ap-characteristic",
        "ninth:glossary/or-better-ap-characteristics", "ninth:glossary/or-worse-ap-characteristics"),
       "Improving an AP makes it better (-2 is better than -1); reducing it never takes it above 0 and never makes "
       "it better; better and worse are each other's converse.")
def _ap() -> Built:
    ap, other, by = z3.Ints("ap other_ap by")
    pre = [_between(ap, -6, 0), _between(other, -6, 0), _between(by, 1, 3)]
    reduced = glossary.reduce_ap(ap, by)
    goal = z3.And(glossary.ap_is_better(glossary.improve_ap(ap, by), ap), reduced <= 0,
                  z3.Not(glossary.ap_is_better(reduced, ap)),
                  glossary.ap_is_better(ap, other) == glossary.ap_is_worse(other, ap),
                  z3.Implies(ap < 0, glossary.ap_is_worse(reduced, ap)))
    return pre, goal, {"ap": ap, "other_ap": other, "by": by}


@proof("ninth-maximum-value-as-the-glossary-example", ("ninth:glossary/maximum-value",),
       "As the glossary's example puts it, 3+D3 at its maximum value is 5.", expect="disproved")
def _maximum_example() -> Built:
    bonus = z3.Int("bonus")
    return [bonus == 3], glossary.dice_maximum(1, 3, bonus) == 5, {"bonus": bonus}


# -- Battle round and Command phase: the two printings -----------------------------------------------------------------


@proof("ninth-web-page-fight-phase-progresses-to-a-listed-phase", ("ninth:battle-round",),
       "On the web page, the phase its Fight phase says to progress to (the Morale phase) follows the Fight phase "
       "in the order its battle round lists.", expect="disproved")
def _web_fight_to_morale() -> Built:
    phase = z3.Int("phase")
    goal = z3.Implies(phase == int(Phase.FIGHT),
                      battle_round.next_phase(phase, Printing.WEB) == int(battle_round.FIGHT_PHASE_PROGRESSES_TO))
    return [_between(phase, int(Phase.COMMAND), int(Phase.FIGHT))], goal, {"phase": phase}


@proof("ninth-both-printings-same-phases", ("ninth:battle-round",),
       "The reprint and the web page resolve the same phases of a turn in the same order.", expect="disproved")
def _phases_both_printings() -> Built:
    phase = z3.Int("phase")
    goal = battle_round.next_phase(phase, Printing.REPRINT) == battle_round.next_phase(phase, Printing.WEB)
    return [_between(phase, int(Phase.COMMAND), int(Phase.MORALE))], goal, {"phase": phase}


@proof("ninth-phase-order-as-printed", ("ninth:battle-round",),
       "In the reprint a turn's phases run Command, Movement, Psychic, Shooting, Charge, Fight, Morale, each once, "
       "and the turn ends after the Morale phase.")
def _phase_order() -> Built:
    phase = z3.Int("phase")
    goal = z3.And(z3.Implies(phase < int(Phase.MORALE), battle_round.next_phase(phase, Printing.REPRINT) == phase + 1),
                  z3.Implies(phase == int(Phase.MORALE),
                             battle_round.next_phase(phase, Printing.REPRINT) == battle_round.END_OF_TURN))
    return [_between(phase, int(Phase.COMMAND), int(Phase.MORALE))], goal, {"phase": phase}


@proof("ninth-battle-forged-bonus-in-both-printings", ("ninth:command-phase", "ninth:glossary/battle-forged-cp-bonus"),
       "Both printings give a Battle-forged army the same Command points at the start of its Command phase.",
       expect="disproved")
def _cp_bonus_both() -> Built:
    cp = z3.Int("cp")
    forged = z3.Bool("battle_forged")
    goal = (battle_round.cp_after_battle_forged_bonus(cp, forged, Printing.REPRINT)
            == battle_round.cp_after_battle_forged_bonus(cp, forged, Printing.WEB))
    return [cp >= 0], goal, {"cp": cp, "battle_forged": forged}


@proof("ninth-battle-forged-bonus-one-cp", ("ninth:command-phase", "ninth:glossary/battle-forged-cp-bonus"),
       "In the reprint a Battle-forged army gains exactly 1CP at the start of its Command phase, and any other "
       "army none.")
def _cp_bonus() -> Built:
    cp = z3.Int("cp")
    forged = z3.Bool("battle_forged")
    after = battle_round.cp_after_battle_forged_bonus(cp, forged, Printing.REPRINT)
    return [cp >= 0], after == z3.If(forged, cp + 1, cp), {"cp": cp, "battle_forged": forged}


@proof("ninth-floors-as-the-web-bullet", ("ninth:datasheets/modifying-characteristics",),
       "As the web page's summary bullet puts it, S, T, A, I and Ld can never be modified below 1.",
       expect="disproved")
def _web_floors() -> Built:
    characteristic = z3.Int("characteristic")
    listed = z3.Or(*(characteristic == int(c) for c in datasheets.WEB_BULLET_FLOORED_AT_ONE))
    goal = z3.Implies(listed, datasheets.never_modified_below_one(characteristic))
    return [_between(characteristic, int(min(Characteristic)), int(max(Characteristic)))], goal, \
        {"characteristic": characteristic}


@proof("ninth-out-of-phase-stratagems-in-both-printings", ("ninth:battle-round/out-of-phase-rules",),
       "Both printings allow the same Stratagems while a unit acts as if it were another phase.", expect="disproved")
def _out_of_phase_both() -> Built:
    stratagem_phase, current = z3.Ints("stratagem_phase current_phase")
    pre = [_between(stratagem_phase, int(Phase.COMMAND), int(Phase.MORALE)),
           _between(current, int(Phase.COMMAND), int(Phase.MORALE))]
    goal = (battle_round.stratagem_usable(stratagem_phase, current, Printing.REPRINT)
            == battle_round.stratagem_usable(stratagem_phase, current, Printing.WEB))
    return pre, goal, {"stratagem_phase": stratagem_phase, "current_phase": current}


@proof("ninth-out-of-phase-stratagems-only-in-their-phase", ("ninth:battle-round/out-of-phase-rules",),
       "In the reprint a Stratagem for a specific phase is usable only in that phase, even while a unit acts as "
       "if it were that phase in another.")
def _out_of_phase() -> Built:
    stratagem_phase, current = z3.Ints("stratagem_phase current_phase")
    pre = [_between(stratagem_phase, int(Phase.COMMAND), int(Phase.MORALE)),
           _between(current, int(Phase.COMMAND), int(Phase.MORALE))]
    goal = (battle_round.stratagem_usable(stratagem_phase, current, Printing.REPRINT)
            == (stratagem_phase == current))
    return pre, goal, {"stratagem_phase": stratagem_phase, "current_phase": current}
