"""z3 proofs about the quick-reference sheet's claims (ruleset ``quickref``).

Each builder calls the sheet's rule functions through their modules (``shooting.wound_roll_needed(...)``) so
``properties/test_quickref.py`` can swap in a broken copy and watch the proof fail. Proofs with
``expect="disproved"`` are findings (spec/quickref/annotations/findings/): two of the sheet's own claims that
answer the same question differently.
"""

from __future__ import annotations

from typing import Any

import z3

from properties.proofs import Built, proof
from rules.quickref import abilities, fight, movement, sequence, shooting, transports


def _between(symbol: Any, low: int, high: int) -> Any:
    return z3.And(symbol >= low, symbol <= high)


@proof("quickref-wound-roll-monotone", ("quickref:shooting/wound-roll",),
       "The Strength vs Toughness table always asks 2+ to 6+, a stronger weapon never needs a higher roll and a "
       "tougher target never a lower one.")
def _wound_monotone() -> Built:
    s, s2, t, t2 = z3.Ints("strength stronger toughness tougher")
    pre = [_between(s, 1, 30), _between(s2, 1, 30), _between(t, 1, 30), _between(t2, 1, 30), s2 >= s, t2 >= t]
    need = shooting.wound_roll_needed(s, t)
    goal = z3.And(_between(need, 2, 6), shooting.wound_roll_needed(s2, t) <= need,
                  shooting.wound_roll_needed(s, t2) >= need)
    return pre, goal, {"strength": s, "stronger": s2, "toughness": t, "tougher": t2}


@proof("quickref-sixes-and-ones-beat-modifiers",
       ("quickref:shooting/critical", "quickref:shooting/unmodified-one", "quickref:shooting/modifier-cap"),
       "An unmodified 6 always succeeds and an unmodified 1 always fails, whatever the modifiers and the roll "
       "needed; between them, modifiers count for at most -1 or +1.")
def _sixes_and_ones() -> Built:
    roll, modifier, needed = z3.Ints("roll modifier needed")
    pre = [_between(roll, 1, 6), _between(needed, 2, 7)]
    result = shooting.roll_succeeds(shooting.Roll.HIT, roll, modifier, needed)
    capped = shooting.roll_succeeds(shooting.Roll.HIT, roll, z3.If(modifier > 1, 1, z3.If(modifier < -1, -1, modifier)),
                                    needed)
    goal = z3.And(z3.Implies(roll == 6, result), z3.Implies(roll == 1, z3.Not(result)), result == capped)
    return pre, goal, {"roll": roll, "modifier": modifier, "needed": needed}


@proof("quickref-below-half-strength-is-strict", ("quickref:command-phase/battle-shock-step",),
       "A unit exactly at half its models (or a single model at exactly half its wounds) takes no Battle-shock "
       "test, and losing more models (wounds) never spares a unit that takes one.")
def _below_half() -> Built:
    ss, models, fewer, wounds, less, w = z3.Ints("starting_strength models fewer_models wounds fewer_wounds w")
    pre = [_between(ss, 2, 20), _between(models, 1, 20), models <= ss, _between(fewer, 1, 20), fewer <= models,
           _between(w, 1, 20), _between(wounds, 1, 20), wounds <= w, _between(less, 1, 20), less <= wounds]
    test = sequence.takes_battle_shock_test
    goal = z3.And(z3.Implies(2 * models == ss, z3.Not(test(False, ss, models))),
                  z3.Implies(2 * wounds == w, z3.Not(test(False, 1, 1, wounds, w))),
                  z3.Implies(test(False, ss, models), test(False, ss, fewer)),
                  z3.Implies(test(False, 1, 1, wounds, w), test(False, 1, 1, less, w)))
    return pre, goal, {"starting_strength": ss, "models": models, "fewer_models": fewer, "wounds": wounds,
                       "fewer_wounds": less, "w": w}


@proof("quickref-control-symmetric", ("quickref:objectives/control",),
       "An objective marker is controlled by one player or contested, a tie is always contested, and swapping the "
       "two Levels of Control swaps the controller.")
def _control() -> Built:
    l1, l2 = z3.Ints("level_1 level_2")
    c, swapped = sequence.controller(l1, l2), sequence.controller(l2, l1)
    goal = z3.And(z3.Or(c == 0, c == 1, c == 2), z3.Implies(l1 == l2, c == 0),
                  swapped == z3.If(c == 0, 0, 3 - c))
    return [l1 >= 0, l2 >= 0], goal, {"level_1": l1, "level_2": l2}


@proof("quickref-strategic-reserves-a-quarter", ("quickref:strategic-reserves/limit",),
       "Strategic Reserves never exceed a quarter of the army's points, and exactly a quarter without "
       "Fortifications is allowed.")
def _quarter() -> Built:
    r, a = z3.Ints("reserves_points army_points")
    fort = z3.Bool("fortification")
    allowed = movement.strategic_reserves_allowed(r, a, fort)
    goal = z3.And(z3.Implies(allowed, z3.And(4 * r <= a, z3.Not(fort))),
                  z3.Implies(z3.And(4 * r == a, z3.Not(fort)), allowed))
    return [r >= 0, a >= 0], goal, {"reserves_points": r, "army_points": a, "fortification": fort}


@proof("quickref-advance-adds-one-to-six", ("quickref:movement/advance-distance",),
       "An Advance moves M plus 1 to 6 inches: never less than M+1, never more than M+6.")
def _advance() -> Built:
    m, roll = z3.Ints("m advance_roll")
    distance = movement.advance_distance(m, roll)
    return [m >= 0, _between(roll, 1, 6)], z3.And(distance >= m + 1, distance <= m + 6), {"m": m, "advance_roll": roll}


@proof("quickref-disembarking-close-is-safer", ("quickref:transports/destroyed-test",),
       "When a Transport is destroyed, a unit that can disembark wholly within 3\" never suffers a mortal wound on "
       "a roll that would spare a unit only able to disembark wholly within 6\".")
def _transport() -> Built:
    roll = z3.Int("roll")
    near = transports.destroyed_transport_mortal_wounds(roll, True)
    far = transports.destroyed_transport_mortal_wounds(roll, False)
    return [_between(roll, 1, 6)], near <= far, {"roll": roll}


@proof("quickref-saves-monotone", ("quickref:shooting/saving-throw", "quickref:shooting/save-unmodified-one"),
       "A better Save, a higher roll or a weaker AP never lets more damage through, and a 1 always does.")
def _saves() -> Built:
    roll, roll2, ap, ap2, sv, sv2 = z3.Ints("roll higher_roll ap weaker_ap save better_save")
    pre = [_between(roll, 1, 6), _between(roll2, 1, 6), roll2 >= roll, _between(ap, -6, 0), _between(ap2, -6, 0),
           ap2 >= ap, _between(sv, 2, 7), _between(sv2, 2, 7), sv2 <= sv]
    fails = shooting.save_fails
    goal = z3.And(z3.Implies(fails(roll2, ap, sv), fails(roll, ap, sv)),
                  z3.Implies(fails(roll, ap2, sv), fails(roll, ap, sv)),
                  z3.Implies(fails(roll, ap, sv2), fails(roll, ap, sv)), fails(1, ap, sv))
    return pre, goal, {"roll": roll, "higher_roll": roll2, "ap": ap, "weaker_ap": ap2, "save": sv, "better_save": sv2}


@proof("quickref-heavy-only-when-stationary", ("quickref:usr/heavy",),
       "HEAVY's +1 to hit comes only to a unit that did not move and was not set up this turn.")
def _heavy() -> Built:
    moved = z3.Int("moved_inches")
    set_up, engaged = z3.Bools("set_up_this_turn engaged")
    bonus = abilities.heavy_hit_modifier(moved, set_up, engaged)
    goal = z3.And(z3.Or(bonus == 0, bonus == 1), z3.Implies(bonus == 1, z3.And(moved == 0, z3.Not(set_up))))
    return [moved >= 0], goal, {"moved_inches": moved, "set_up_this_turn": set_up, "engaged": engaged}


@proof("quickref-grenade-counts-fours", ("quickref:stratagems/grenade/effect",),
       "Grenade inflicts exactly one mortal wound per D6 of 4+ on an enemy it may select: 0 to 6.")
def _grenade() -> Built:
    dice = z3.Ints("d1 d2 d3 d4 d5 d6")
    distance = z3.Int("distance")
    allowed, wounds = _grenade_call(dice, distance)
    fours = sum(z3.If(d >= 4, 1, 0) for d in dice)
    goal = z3.And(allowed == (distance <= 8), wounds == z3.If(allowed, fours, 0), _between(wounds, 0, 6))
    return [_between(d, 1, 6) for d in dice] + [distance >= 0], goal, {
        **{f"d{i}": d for i, d in enumerate(dice, 1)}, "distance": distance}


def _grenade_call(dice: list, distance: Any) -> tuple[Any, Any]:
    from rules.quickref import stratagems

    return stratagems.grenade(*dice, enemy_engaged=False, distance=distance, visible=True)


# -- Findings: two claims of the sheet that answer the same question differently --------------------------------


@proof("quickref-desperate-escape-claims-agree", ("quickref:movement/desperate-escape-who",
                                                   "quickref:usr/desperate-escape"),
       "The Fall Back bullet and the DESPERATE ESCAPE rule call for the same number of Desperate Escape tests.",
       expect="disproved")
def _desperate_escape() -> Built:
    models, over = z3.Ints("models moving_over_enemy")
    shocked, fly = z3.Bools("battle_shocked fly")
    pre = [_between(models, 1, 20), _between(over, 0, 20), over <= models]
    goal = movement.desperate_escape_tests(models, over, shocked, fly) == \
        abilities.desperate_escape_tests(models, over, shocked, fly)
    return pre, goal, {"models": models, "moving_over_enemy": over, "battle_shocked": shocked, "fly": fly}


@proof("quickref-consolidation-bullets-agree",
       ("quickref:fight/consolidate-end", "quickref:fight/consolidate-objective"),
       "The consolidation bullet as printed ('or no models can Pile In') and the objective-marker fallback that "
       "follows it send a consolidating unit to the same place.", expect="disproved")
def _consolidation() -> Built:
    enemy, objective = z3.Bools("can_end_within_engagement_range can_end_within_range_of_objective")
    goal = fight.consolidation_as_printed(enemy) == fight.consolidation(enemy, objective)
    return [], goal, {"can_end_within_engagement_range": enemy, "can_end_within_range_of_objective": objective}
