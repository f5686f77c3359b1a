"""z3 proofs about the sequence of a Tactical Deployment game: the battle-size tables (steps 1, 2, 3, 6), the
muster and terrain-collection limits, roll-offs and alternation, terrain placement, reserves, deployment and the
end of the battle.

Each builder calls the real functions through their modules (``battle_sizes.points_limit(...)``,
``sequence.reserve_units_allowed(...)``), which look their tables up at call time, so
``properties/test_missionpack_sequence.py`` can swap in a broken copy and watch the proof fail. Proofs with
``expect="disproved"`` are findings (spec/missionpack/annotations/findings/sequence.yaml).
"""

from __future__ import annotations

from typing import Any

import z3

from properties.proofs import Built, proof
from rules.missionpack import battle_sizes, sequence
from rules.missionpack.battle_sizes import BattleSize
from rules.missionpack.sequence import ObjectiveType, TerrainCategory

BATTLE_SIZE = "missionpack:sequence/01-select-battle-size"
MUSTER = "missionpack:sequence/02-muster-armies"
GATHER = "missionpack:sequence/03-gather-tactical-terrain"
BATTLEFIELD = "missionpack:sequence/06-create-the-battlefield"
TERRAIN_SETUP = "missionpack:sequence/10-set-up-tactical-terrain"
RESERVES = "missionpack:sequence/12-declare-reserves-and-transports"
DEPLOY = "missionpack:sequence/13-deploy-armies"
PRE_BATTLE = "missionpack:sequence/15-resolve-pre-battle-abilities"
STORAGE_FANE_POINTS = 40  # terrain/datasheet/storage-fane: "40 TERRAIN POINTS"


def _between(symbol: Any, low: int, high: int) -> Any:
    return z3.And(symbol >= low, symbol <= high)


def _two_sizes() -> tuple[list[Any], Any, Any, dict[str, Any]]:
    """Two battle sizes, the second at least as big as the first."""
    small, big = z3.Ints("battle_size bigger_battle_size")
    return [_between(small, 0, 3), _between(big, 0, 3), big >= small], small, big, {
        "battle_size": small, "bigger_battle_size": big}


def _grows(function: Any, small: Any, big: Any) -> Any:
    return function(big) >= function(small)


# -- Steps 1, 2, 3, 6: the battle-size tables ----------------------------------------------------------


@proof("missionpack-army-tables-grow-with-battle-size", (BATTLE_SIZE, MUSTER),
       "A bigger battle never has a shorter duration, a lower points limit or fewer starting Command points.")
def _army_grows() -> Built:
    pre, small, big, symbols = _two_sizes()
    goal = z3.And(*(_grows(f, small, big) for f in (battle_sizes.battle_duration_hours, battle_sizes.points_limit,
                                                     battle_sizes.starting_command_points)))
    return pre, goal, symbols


@proof("missionpack-terrain-table-grows-with-battle-size", (GATHER,),
       "A bigger battle never needs fewer terrain datasheets or terrain points, nor allows fewer repeats, "
       "CRITICAL FEATURE repeats or terrain points.")
def _terrain_grows() -> Built:
    pre, small, big, symbols = _two_sizes()
    columns = (battle_sizes.minimum_terrain_datasheets, battle_sizes.maximum_datasheet_repeats,
               battle_sizes.maximum_critical_feature_repeats, battle_sizes.minimum_terrain_points,
               battle_sizes.maximum_terrain_points)
    return pre, z3.And(*(_grows(f, small, big) for f in columns)), symbols


@proof("missionpack-battlefield-grows-with-battle-size", (BATTLEFIELD,),
       "A bigger battle is never played on fewer Battlezone boards or a smaller battlefield.")
def _battlefield_grows() -> Built:
    pre, small, big, symbols = _two_sizes()
    (w1, d1), (w2, d2) = battle_sizes.battlefield_size(small), battle_sizes.battlefield_size(big)
    goal = z3.And(_grows(battle_sizes.battlezone_boards, small, big), w2 >= w1, d2 >= d1)
    return pre, goal, symbols


@proof("missionpack-battlefield-is-its-boards", (BATTLEFIELD,),
       "Every battlefield's approximate size is exactly its number of Battlezone boards of 22\" x 30\" each.")
def _battlefield_boards() -> Built:
    size = z3.Int("battle_size")
    width, depth = battle_sizes.battlefield_size(size)
    goal = width * depth == 22 * 30 * battle_sizes.battlezone_boards(size)
    return [_between(size, 0, 3)], goal, {"battle_size": size}


@proof("missionpack-terrain-points-minimum-within-maximum", (GATHER,),
       "In every battle size the minimum terrain points are no more than the maximum, and at least one datasheet "
       "is needed.")
def _terrain_min_max() -> Built:
    size = z3.Int("battle_size")
    goal = z3.And(battle_sizes.minimum_terrain_points(size) <= battle_sizes.maximum_terrain_points(size),
                  battle_sizes.minimum_terrain_datasheets(size) >= 1)
    return [_between(size, 0, 3)], goal, {"battle_size": size}


@proof("missionpack-critical-feature-repeats-within-repeats", (GATHER,),
       "A CRITICAL FEATURE datasheet's own repeat limit is never looser than every datasheet's limit.")
def _critical_within() -> Built:
    size = z3.Int("battle_size")
    goal = battle_sizes.maximum_critical_feature_repeats(size) <= battle_sizes.maximum_datasheet_repeats(size)
    return [_between(size, 0, 3)], goal, {"battle_size": size}


# -- Step 3: a collection -------------------------------------------------------------------------------


def _collection() -> tuple[list[Any], dict[str, Any]]:
    names = "battle_size datasheets_included terrain_points most_repeats most_critical_repeats"
    size, included, points, repeats, critical = z3.Ints(names)
    pre = [_between(size, 0, 3), included >= 0, points >= 0, _between(repeats, 0, included),
           _between(critical, 0, repeats), z3.Implies(included >= 1, repeats >= 1)]
    return pre, dict(zip(names.split(), (size, included, points, repeats, critical)))


@proof("missionpack-collection-needs-two-different-datasheets", (GATHER,),
       "A collection meeting the table always includes more datasheets than any one datasheet may be repeated, "
       "so it always has at least two different datasheets.")
def _two_different() -> Built:
    pre, s = _collection()
    meets = sequence.collection_meets_table(s["battle_size"], s["datasheets_included"], s["terrain_points"],
                                            s["most_repeats"], s["most_critical_repeats"])
    return pre, z3.Implies(meets, s["datasheets_included"] > s["most_repeats"]), s


@proof("missionpack-storage-fane-alone-makes-a-collection", (GATHER, "missionpack:terrain/datasheet/storage-fane"),
       "In every battle size, some number of the pack's own Storage Fane datasheet (40 terrain points) alone "
       "makes a legal Tactical Terrain collection.", expect="disproved")
def _storage_fane_alone() -> Built:
    size = z3.Int("battle_size")
    # Eleven or more Storage Fanes total over 400 terrain points, more than any battle size allows.
    options = [sequence.collection_meets_table(size, n, STORAGE_FANE_POINTS * n, n, 0) for n in range(0, 11)]
    return [_between(size, 0, 3)], z3.Or(*options), {"battle_size": size}


# -- Step 2: muster --------------------------------------------------------------------------------------


@proof("missionpack-datasheet-repetition-limited-in-every-battle-size", (MUSTER,),
       "In every battle size there is a number of copies of the same datasheet (not Troops or Dedicated "
       "Transport) that an army cannot include.", expect="disproved")
def _repetition_everywhere() -> Built:
    size, copies = z3.Ints("battle_size copies")
    goal = z3.Exists([copies], z3.And(copies >= 1, z3.Not(sequence.datasheet_copies_allowed(size, copies))))
    return [_between(size, 0, 3)], goal, {"battle_size": size}


@proof("missionpack-datasheet-repetition-two-then-three", (MUSTER,),
       "An Incursion army may include the same datasheet two times but not three, a Strike Force army three "
       "times but not four, and whatever Incursion allows Strike Force allows.")
def _repetition_limits() -> Built:
    copies = z3.Int("copies")
    allowed = sequence.datasheet_copies_allowed
    inc, sf = BattleSize.INCURSION.value, BattleSize.STRIKE_FORCE.value
    goal = z3.And(allowed(inc, 2), z3.Not(allowed(inc, 3)), allowed(sf, 3), z3.Not(allowed(sf, 4)),
                  z3.Implies(allowed(inc, copies), allowed(sf, copies)))
    return [copies >= 0], goal, {"copies": copies}


@proof("missionpack-combat-patrol-one-detachment", (MUSTER,),
       "A Combat Patrol army's Detachments are allowed only if there is exactly one: a Patrol Detachment, or for "
       "IMPERIAL KNIGHTS and CHAOS KNIGHTS armies a Super-heavy Detachment.")
def _combat_patrol() -> Built:
    knights = z3.Bool("knights_army")
    patrol, heavy, other = z3.Ints("patrol super_heavy other")
    allowed = sequence.combat_patrol_detachments_allowed(knights, patrol, heavy, other)
    goal = z3.Implies(allowed, z3.And(patrol + heavy + other == 1, z3.If(knights, heavy == 1, patrol == 1)))
    return [patrol >= 0, heavy >= 0, other >= 0], goal, {"knights_army": knights, "patrol": patrol,
                                                          "super_heavy": heavy, "other": other}


# -- Steps 8, 9, 14: roll-offs -----------------------------------------------------------------------------


@proof("missionpack-roll-off-winner-decides", ("missionpack:sequence/08-determine-attacker-and-defender",
                                                "missionpack:sequence/09-choose-deployment-zone",
                                                "missionpack:sequence/14-determine-first-turn"),
       "The roll-off winner gets the role and the turn they choose, the other player the other one, and the "
       "Attacker always gets the deployment zone the Defender did not select.")
def _roll_offs() -> Built:
    winner, zone = z3.Ints("roll_off_winner defender_zone")
    choose = z3.Bool("winner_takes_it")
    attacker = sequence.attacker(winner, choose)
    first = sequence.first_turn_player(winner, choose)
    attacker_zone = sequence.attacker_deployment_zone(zone)
    goal = z3.And(z3.Or(attacker == 1, attacker == 2), (attacker == winner) == choose,
                  z3.Or(first == 1, first == 2), (first == winner) == choose,
                  z3.Or(attacker_zone == 1, attacker_zone == 2), attacker_zone != zone)
    return [_between(winner, 1, 2), _between(zone, 1, 2)], goal, {
        "roll_off_winner": winner, "winner_takes_it": choose, "defender_zone": zone}


# -- Steps 10, 13, 15: alternation -------------------------------------------------------------------------


def _alternation_state() -> tuple[list[Any], dict[str, Any]]:
    """Any point of an alternation: each player has done 0..all of theirs, the starter at most one ahead."""
    names = "first_done second_done first_total second_total"
    fd, sd, ft, st = z3.Ints(names)
    pre = [_between(fd, 0, ft), _between(sd, 0, st),
           z3.Or(fd == sd, fd == sd + 1, fd == ft, sd == st)]
    return pre, dict(zip(names.split(), (fd, sd, ft, st)))


@proof("missionpack-alternation-never-stalls", (TERRAIN_SETUP, DEPLOY, PRE_BATTLE),
       "While either player has something left to set up or resolve, the player named next has something left; "
       "the starting player goes first and players take turns while both have some left.")
def _alternation() -> Built:
    pre, s = _alternation_state()
    fd, sd, ft, st = s["first_done"], s["second_done"], s["first_total"], s["second_total"]
    who = sequence.next_to_alternate(fd, sd, ft, st)
    both_left = z3.And(fd < ft, sd < st)
    goal = z3.And((who == 0) == z3.And(fd == ft, sd == st),
                  z3.Implies(who == 1, fd < ft), z3.Implies(who == 2, sd < st),
                  z3.Implies(z3.And(both_left, fd == sd), who == 1),
                  z3.Implies(z3.And(both_left, fd == sd + 1), who == 2))
    return pre, goal, s


def strict_alternation(first_done: Any, second_done: Any, first_total: Any, second_total: Any) -> Any:
    """Step 10's alternation as written: the players take turns, the Attacker first, whatever each has left
    (the totals are ignored: the text says nothing of a player who runs out)."""
    return z3.If(first_done <= second_done, 1, 2)


@proof("missionpack-terrain-alternation-as-written-always-has-a-datasheet", (TERRAIN_SETUP,),
       "As written (alternate one datasheet at a time, the Attacker first), the player whose turn it is to set up "
       "a datasheet always has one left while either player does.", expect="disproved")
def _alternation_as_written() -> Built:
    pre, s = _alternation_state()
    fd, sd, ft, st = s["first_done"], s["second_done"], s["first_total"], s["second_total"]
    who = strict_alternation(fd, sd, ft, st)
    goal = z3.Implies(z3.Or(fd < ft, sd < st), z3.If(who == 1, fd < ft, sd < st))
    return pre + [ft >= 2, st >= 2], goal, s


# -- Step 10: placement -------------------------------------------------------------------------------------


@proof("missionpack-terrain-placement-clearances", (TERRAIN_SETUP,),
       "A terrain feature may be set up only wholly within its owner's territory, more than 3\" from the "
       "battlefield edge and from other terrain (unless allowed closer), wholly within 9\" of a free terrain "
       "marker while one is left, and never as an Obstacle or Building on an objective marker; exactly 3\" from "
       "the edge is too close.")
def _placement() -> Built:
    names = "edge other category markers covered reach"
    edge, other, category, markers, covered, reach = z3.Ints(names)
    territory, on_marker, closer = z3.Bools("wholly_within_territory on_objective_marker closer_allowed")
    allowed = sequence.terrain_feature_may_be_set_up(territory, edge, other, category, on_marker, markers, covered,
                                                     reach, closer)
    hard = z3.Or(category == int(TerrainCategory.OBSTACLES), category == int(TerrainCategory.BUILDINGS))
    goal = z3.And(
        z3.Implies(allowed, z3.And(territory, edge > 3, z3.Implies(z3.Not(closer), other > 3),
                                   z3.Implies(covered < markers, reach <= 9), z3.Not(z3.And(on_marker, hard)))),
        z3.Not(sequence.terrain_feature_may_be_set_up(True, 3, 10, category, False)),
        sequence.terrain_feature_may_be_set_up(True, 4, 4, category, False),
    )
    pre = [_between(category, 1, 4), markers >= 0, _between(covered, 0, markers), edge >= 0, other >= 0, reach >= 0]
    symbols = dict(zip(names.split(), (edge, other, category, markers, covered, reach)))
    return pre, goal, {**symbols, "wholly_within_territory": territory, "on_objective_marker": on_marker,
                       "closer_allowed": closer}


# -- Step 12: reserves --------------------------------------------------------------------------------------


@proof("missionpack-reserve-units-exactly-half-allowed", (RESERVES,),
       "Exactly half the army's units may be Strategic Reserve and/or Reinforcement units, one more may not, and "
       "fewer are always allowed.")
def _reserve_units() -> Built:
    reserve, fewer, total = z3.Ints("reserve_units fewer_units total_units")
    allowed = sequence.reserve_units_allowed
    goal = z3.And(z3.Implies(2 * reserve == total, allowed(reserve, total)),
                  z3.Implies(2 * reserve > total, z3.Not(allowed(reserve, total))),
                  z3.Implies(allowed(reserve, total), allowed(fewer, total)))
    return [total >= 0, _between(reserve, 0, total), _between(fewer, 0, reserve)], goal, {
        "reserve_units": reserve, "fewer_units": fewer, "total_units": total}


@proof("missionpack-reserve-points-exactly-half-refused", (RESERVES,),
       "Strategic Reserve and Reinforcement units worth exactly half the army's points are not allowed; any less "
       "is.")
def _reserve_points() -> Built:
    reserve, total = z3.Ints("reserve_points army_points")
    allowed = sequence.reserve_points_allowed
    goal = z3.And(z3.Implies(2 * reserve == total, z3.Not(allowed(reserve, total))),
                  z3.Implies(2 * reserve < total, allowed(reserve, total)))
    return [total >= 1, _between(reserve, 0, total)], goal, {"reserve_points": reserve, "army_points": total}


@proof("missionpack-reserves-arrive-in-rounds-two-or-three", (RESERVES,),
       "A unit declared in reserves before the battle can arrive in battle rounds 2 and 3 only (later it is "
       "already destroyed), and one put into Strategic Reserves after the battle began is never destroyed for it.")
def _reserve_window() -> Built:
    battle_round, completed = z3.Ints("battle_round battle_rounds_completed")
    open_window = z3.And(sequence.may_arrive_from_reserves(battle_round),
                         z3.Not(sequence.destroyed_in_reserves(battle_round - 1, False, False)))
    goal = z3.And(open_window == z3.Or(battle_round == 2, battle_round == 3),
                  z3.Not(sequence.destroyed_in_reserves(completed, False, True)),
                  z3.Not(sequence.destroyed_in_reserves(completed, True, False)))
    return [_between(battle_round, 1, 5), _between(completed, 0, 5)], goal, {
        "battle_round": battle_round, "battle_rounds_completed": completed}


# -- Step 13: deployment -------------------------------------------------------------------------------------


@proof("missionpack-deployment-clearances", (DEPLOY,),
       "A Fortification exactly 3\" from terrain is too close and one further away is not; a model too large for "
       "its deployment zone must touch the battlefield edge, any other must be wholly within the zone; and the "
       "large model's unit is barred from each listed activity in the first battle round only.")
def _deployment() -> Built:
    distance, battle_round, smallest, depth = z3.Ints("distance battle_round smallest_dimension zone_depth")
    within, touching = z3.Bools("wholly_within_zone touching_edge")
    large = sequence.too_large_for_deployment_zone(smallest, depth)
    placed = sequence.model_deployment_allowed(within, large, touching)
    bans = [sequence.large_model_unit_may(activity, battle_round) == (battle_round != 1)
            for activity in sequence.LARGE_MODEL_FIRST_ROUND_BANS]
    goal = z3.And(z3.Not(sequence.fortification_placement_allowed(3)),
                  sequence.fortification_placement_allowed(distance) == (distance > 3),
                  placed == z3.If(smallest > depth, touching, within), *bans)
    pre = [distance >= 0, _between(battle_round, 1, 5), smallest >= 0, depth >= 0]
    return pre, goal, {"distance": distance, "battle_round": battle_round, "smallest_dimension": smallest,
                       "zone_depth": depth, "wholly_within_zone": within, "touching_edge": touching}


# -- Steps 16, 17, ending early -----------------------------------------------------------------------------


@proof("missionpack-battle-ends-after-five-rounds", ("missionpack:sequence/16-begin-the-battle",
                                                      "missionpack:sequence/17-ending-the-battle",
                                                      "missionpack:sequence/ending-the-battle-early"),
       "No battle continues once five battle rounds are complete; before that, a battle nobody ended goes on, and "
       "a battle with one player left goes on exactly when that player plays on.")
def _battle_ends() -> Built:
    completed = z3.Int("battle_rounds_completed")
    agreed, alone, plays_on = z3.Bools("ended_by_agreement one_player_left plays_on")
    goes_on = sequence.battle_continues(completed, agreed, alone, plays_on)
    goal = z3.And(z3.Implies(completed >= 5, z3.Not(goes_on)),
                  z3.Implies(z3.And(completed < 5, z3.Not(agreed)), goes_on == z3.Or(z3.Not(alone), plays_on)),
                  z3.Implies(agreed, z3.Not(goes_on)))
    return [completed >= 0], goal, {"battle_rounds_completed": completed, "ended_by_agreement": agreed,
                                    "one_player_left": alone, "plays_on": plays_on}


# -- Mission objectives --------------------------------------------------------------------------------------


@proof("missionpack-end-game-scores-once-at-the-end", ("missionpack:mission-objectives",),
       "An End Game objective scores only at the end of the battle and only once; a Progressive one only during "
       "the battle; an objective scoring at both moments is Progressive and End Game.")
def _objective_types() -> Built:
    kind = z3.Int("objective_type")
    end, before, during, at_end = z3.Bools("end_of_battle scored_at_end during at_end")
    may = sequence.objective_may_score(kind, end, before)
    derived = sequence.objective_type_from_timing(during, at_end)
    goal = z3.And(
        z3.Implies(z3.And(kind == int(ObjectiveType.END_GAME), may), z3.And(end, z3.Not(before))),
        z3.Implies(z3.And(kind == int(ObjectiveType.PROGRESSIVE), may), z3.Not(end)),
        z3.Implies(z3.And(kind == int(ObjectiveType.PROGRESSIVE), z3.Not(end)), may),
        (derived == int(ObjectiveType.PROGRESSIVE_AND_END_GAME)) == z3.And(during, at_end),
    )
    return [_between(kind, 1, 3), z3.Or(during, at_end)], goal, {
        "objective_type": kind, "end_of_battle": end, "scored_at_end": before, "during": during, "at_end": at_end}
