"""z3 proofs about 004's Organizing a Battle, Reserves and Missions (ruleset ``m41``): the continue rolls, night
fighting, apocalypse charts and Lords of War, the reserve arrivals, and the missions' scoring bounds.

Each builder calls the real rule functions through their modules so ``properties/test_m41_battle.py`` can swap in a
broken copy and watch the proof fail. Proofs with ``expect="disproved"`` are findings
(spec/m41/annotations/findings/battle.yaml): the text as printed fails them, and the code follows a recorded
interpretation instead.
"""

from __future__ import annotations

from typing import Any

import z3

from properties.proofs import Built, proof
from rules.m41 import battle, missions, reserves


def _between(symbol: Any, low: int, high: int) -> Any:
    return z3.And(symbol >= low, symbol <= high)


# -- Organizing a battle ----------------------------------------------------------------------------------------------


@proof("m41-continue-roll-never-easier-later", ("m41:battle/ending-the-game",),
       "The d6 roll needed to play a further round is none up to the 6th, and never lower for a later round than "
       "for an earlier one (3+, 4+, then 5+ for ever), so a later round is never likelier to be played.")
def _continue_roll_monotone() -> Built:
    earlier, later = z3.Ints("earlier_round later_round")
    pre = [_between(earlier, 1, 30), _between(later, 1, 30), earlier <= later]
    need_earlier, need_later = battle.roll_to_continue_into(earlier), battle.roll_to_continue_into(later)
    goal = z3.And(need_earlier <= need_later, z3.Implies(earlier <= 6, need_earlier == 0),
                  z3.Implies(later >= 7, z3.And(need_later >= 3, need_later <= 5)))
    return pre, goal, {"earlier_round": earlier, "later_round": later}


@proof("m41-night-cover-grows-with-distance", ("m41:battle/dusk-and-dawn",),
       "At night the cover bonus is +1 outside 12\" and +2 outside 24\", never more for a nearer attacker, and a "
       "unit stays targetable up to 36\"; an attacker with night vision gets no penalty at all.")
def _night_cover_monotone() -> Built:
    near, far = z3.Ints("near_distance far_distance")
    vision = z3.Bool("night_vision")
    pre = [_between(near, 0, 72), _between(far, 0, 72), near <= far]
    bonus_near = battle.night_fighting_cover_bonus(near, vision)
    bonus_far = battle.night_fighting_cover_bonus(far, vision)
    goal = z3.And(bonus_near <= bonus_far, _between(bonus_far, 0, 2),
                  z3.Implies(z3.Not(vision), z3.And(bonus_far == z3.If(far > 24, 2, z3.If(far > 12, 1, 0)),
                                                    battle.night_fighting_targetable(far, vision) == (far <= 36))),
                  z3.Implies(vision, z3.And(bonus_far == 0, battle.night_fighting_targetable(far, vision))))
    return pre, goal, {"near_distance": near, "far_distance": far, "night_vision": vision}


@proof("m41-lords-of-war-one-per-chart-only-in-apocalypse", ("m41:battle/lords-of-war", "m41:battle/apocalypse-games"),
       "A force takes one Force Organization chart up to 3000 points and two above; Lords of War are allowed only "
       "in apocalypse games, one per chart.")
def _lords_of_war() -> Built:
    points = z3.Int("game_points")
    charts, lords = battle.force_org_charts(points), battle.lords_of_war_allowed(points)
    goal = z3.And(charts == z3.If(points > 3000, 2, 1), lords == z3.If(points > 3000, charts, 0))
    return [_between(points, 0, 10000)], goal, {"game_points": points}


@proof("m41-apocalypse-range-gives-two-charts", ("m41:battle/apocalypse-games",),
       "Every game in the apocalypse range (\"from 3000 to 4000 points\") plays with two force org charts and "
       "Lords of War (false as printed: those come only \"above 3000 points\", so a 3000-point game has neither).",
       expect="disproved")
def _apocalypse_range() -> Built:
    points = z3.Int("game_points")
    goal = z3.And(battle.force_org_charts(points) == 2, battle.lords_of_war_allowed(points) > 0)
    return [_between(points, 3000, 4000)], goal, {"game_points": points}


@proof("m41-dark-flips-once", ("m41:battle/dusk-and-dawn",),
       "The light flips exactly when the cycle has changed: dark now is the start's darkness exclusive-or the "
       "change, and the change is rolled only from the bottom of round 4, on a 4+, and only once.")
def _dark_flips_once() -> Built:
    started, changed, already = z3.Bools("started_dark light_changed already_changed")
    game_round, roll = z3.Ints("light_round light_roll")
    pre = [_between(game_round, 1, 20), _between(roll, 1, 6)]
    goal = z3.And(battle.is_dark(started, changed) == z3.Xor(started, changed),
                  battle.light_changes(game_round, roll, already)
                  == z3.And(z3.Not(already), game_round >= 4, roll >= 4))
    return pre, goal, {"started_dark": started, "light_changed": changed, "already_changed": already,
                       "light_round": game_round, "light_roll": roll}


# -- Reserves --------------------------------------------------------------------------------------------------------


@proof("m41-reserve-arrivals-as-printed", ("m41:reserves/arriving-from-reserves", "m41:reserves/double-size-games"),
       "Arrivals follow the printed table: one fewer for player 1 in rounds 1 to 4 (0/1, 1/2, 2/3, 3/4), 4 each "
       "from the 5th; never more for an earlier round; doubled in a double size game.")
def _arrivals_as_printed() -> Built:
    game_round, later = z3.Ints("arrival_round later_arrival_round")
    double = z3.Bool("double_size")
    pre = [_between(game_round, 1, 12), _between(later, 1, 12), game_round <= later]
    one = reserves.arrivals_allowed(game_round, 1, False)
    two = reserves.arrivals_allowed(game_round, 2, False)
    printed_two = z3.If(game_round >= 5, 4, game_round)
    printed_one = z3.If(game_round >= 5, 4, game_round - 1)
    goal = z3.And(one == printed_one, two == printed_two,
                  reserves.arrivals_allowed(later, 1, False) >= one,
                  reserves.arrivals_allowed(later, 2, False) >= two,
                  reserves.arrivals_allowed(game_round, 1, double) == z3.If(double, 2 * one, one),
                  reserves.arrivals_allowed(game_round, 2, double) == z3.If(double, 2 * two, two))
    return pre, goal, {"arrival_round": game_round, "later_arrival_round": later, "double_size": double}


@proof("m41-reserve-arrivals-as-the-sentence-says", ("m41:reserves/arriving-from-reserves",),
       "The arrival table agrees with the sentence above it (\"does not exceed the current game round, with the "
       "first player at a -1 penalty\") in every round (false as printed: from the 5th the table fixes 4 for both "
       "players, where the sentence allows player 2 five in the 5th and player 1 five in the 6th).",
       expect="disproved")
def _arrivals_sentence() -> Built:
    game_round, player = z3.Ints("arrival_round arrival_player")
    pre = [_between(game_round, 1, 12), _between(player, 1, 2)]
    goal = reserves.arrivals_allowed(game_round, player) == reserves.arrivals_by_the_sentence(game_round, player)
    return pre, goal, {"arrival_round": game_round, "arrival_player": player}


@proof("m41-mishap-casualties-capped", ("m41:reserves/deep-strike-mishap",),
       "A mishap roll of 1 removes one model per inch the scatter must change, never more models than the unit "
       "has and never fewer than none.")
def _mishap_casualties() -> Built:
    inches, models = z3.Ints("inches_changed unit_models")
    pre = [_between(inches, 0, 24), _between(models, 1, 30)]
    removed = reserves.mishap_casualties(inches, models)
    goal = z3.And(removed == z3.If(inches < models, inches, models), removed >= 0, removed <= models)
    return pre, goal, {"inches_changed": inches, "unit_models": models}


# -- Missions --------------------------------------------------------------------------------------------------------


@proof("m41-spearhead-outcome", ("m41:missions/spear-head/base-of-operations",),
       "Spear Head: when the game ends the one player holding the enemy base wins and both holding is a tie; "
       "before then a player wins only by holding it for two uncontested turns while the other holds nothing.")
def _spearhead() -> Built:
    one, two, ended = z3.Bools("one_holds two_holds game_ended")
    turns_one, turns_two = z3.Ints("one_uncontested_turns two_uncontested_turns")
    pre = [_between(turns_one, 0, 12), _between(turns_two, 0, 12),
           z3.Implies(z3.Not(one), turns_one == 0), z3.Implies(z3.Not(two), turns_two == 0)]
    outcome = missions.spearhead_outcome(one, two, turns_one, turns_two, ended)
    goal = z3.And(
        z3.Implies(ended, outcome == z3.If(z3.And(one, two), 3, z3.If(one, 1, z3.If(two, 2, 0)))),
        z3.Implies(z3.Not(ended), outcome == z3.If(z3.And(one, two), 0, z3.If(
            z3.And(one, turns_one >= 2), 1, z3.If(z3.And(two, turns_two >= 2), 2, 0)))))
    return pre, goal, {"one_holds": one, "two_holds": two, "game_ended": ended,
                       "one_uncontested_turns": turns_one, "two_uncontested_turns": turns_two}


@proof("m41-mission-scores-bounded",
       ("m41:missions/capture-point/holding-points", "m41:missions/flag-capture/scoring-flags",
        "m41:missions/data-retrieval/data-uplink", "m41:missions/labyrinthine-escape/the-power-shield"),
       "Scores stay within what the missions allow: Capture Point at most 5 a turn (one per uncontested objective "
       "of the 5), flags at most 2 each (at most 14 for 7 flags), a terminal 0 or 2, an escaped model between its "
       "points value and twice that.")
def _scores_bounded() -> Built:
    controlled, contested, returned, held, points = z3.Ints("controlled contested returned held points_value")
    contact, marker_contested, scored, scoring, hq = z3.Bools("in_contact marker_contested scored scoring hq")
    pre = [_between(controlled, 0, 5), _between(contested, 0, 5), contested <= controlled, returned >= 0,
           held >= 0, returned + held <= 7, _between(points, 0, 1000)]
    turn = missions.capture_point_turn_score(controlled, contested)
    flags = missions.flag_capture_score(returned, held)
    uplink = missions.data_uplink_vp(contact, marker_contested, scored)
    escaped = missions.escaped_model_vp(points, scoring, hq)
    goal = z3.And(turn == controlled - contested, _between(turn, 0, 5),
                  flags == 2 * returned + held, flags <= 2 * (returned + held), flags <= 14,
                  z3.Or(uplink == 0, uplink == 2),
                  (uplink == 2) == z3.And(contact, z3.Not(marker_contested), z3.Not(scored)),
                  escaped >= points, escaped <= 2 * points,
                  (escaped == 2 * points) == z3.Or(scoring, hq, points == 0))
    return pre, goal, {"controlled": controlled, "contested": contested, "returned": returned, "held": held,
                       "points_value": points, "in_contact": contact, "marker_contested": marker_contested,
                       "scored": scored, "scoring": scoring, "hq": hq}


@proof("m41-portal-opens-after-its-countdown", ("m41:missions/labyrinthine-escape/countdown-timer",),
       "A portal with a 2d6 countdown ticks down at the start of each player turn but the first: it is open from "
       "player turn countdown+1 on and never before, and its counter never goes below 0.")
def _portal() -> Built:
    timer, turn = z3.Ints("portal_countdown player_turn")
    pre = [_between(timer, 1, 12), _between(turn, 1, 30)]
    goal = z3.And(missions.portal_active(timer, turn) == (turn >= timer + 1),
                  missions.portal_timer(timer, turn) >= 0,
                  z3.Implies(turn == 1, missions.portal_timer(timer, turn) == timer))
    return pre, goal, {"portal_countdown": timer, "player_turn": turn}


@proof("m41-rift-direct-hit-scatters-less", ("m41:missions/labyrinthine-escape/extra-rifts",),
       "An extra rift scatters the 4d6 total, or on a direct hit only its lowest and highest dice: never farther "
       "than the total, and at least 2\" either way.")
def _rift() -> Built:
    dice = z3.Ints("rift_die_1 rift_die_2 rift_die_3 rift_die_4")
    hit = z3.Bool("direct_hit")
    pre = [_between(d, 1, 6) for d in dice]
    total = sum(dice)
    scatter = missions.rift_scatter_distance(tuple(dice), hit)
    lowest = z3.If(z3.And(*(dice[0] <= d for d in dice)), dice[0], z3.If(z3.And(*(dice[1] <= d for d in dice)),
                   dice[1], z3.If(z3.And(*(dice[2] <= d for d in dice)), dice[2], dice[3])))
    highest = z3.If(z3.And(*(dice[0] >= d for d in dice)), dice[0], z3.If(z3.And(*(dice[1] >= d for d in dice)),
                    dice[1], z3.If(z3.And(*(dice[2] >= d for d in dice)), dice[2], dice[3])))
    goal = z3.And(scatter == z3.If(hit, lowest + highest, total), scatter <= total, scatter >= 2)
    symbols = {f"rift_die_{i + 1}": d for i, d in enumerate(dice)}
    return pre, goal, {**symbols, "direct_hit": hit}
