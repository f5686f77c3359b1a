"""Missions (004's chapter 20): Spear Head, Zone Control, Flag Capture, Capture Point, Data Retrieval and
Labyrinthine Escape, with their objective setups and scoring, and the secondary objectives.

Distances are in inches; "within 3"" is read as 3" or less (interpretation battle-within-means-at-most).
"""

from __future__ import annotations

from typing import Any

from rules.logic import And, If, Max, Min, Not, Or
from rules.registry import ruleset_rule

rule = ruleset_rule("m41")

HOLD_RANGE = 3  # "only needs to remain within 3" of the marker" (and contesting "within 3"")
SPEARHEAD_TURNS_TO_WIN = 2  # "hold the objective uncontested for two consecutive turns"
CONTROL_ZONE_RADIUS = 4  # "all space within 4" of the objective marker"
ZONE_EXTRA_TURNS = 2  # "the zone remains so for two more player turns after this"
ZONE_SCATTER_DICE = 4  # "scattering 4d6""
FLAGS_FEW, FLAGS_MANY, FLAGS_MANY_ON = 5, 7, 3  # "either 5 or 7 flags ... on a roll of 3+ use 7, otherwise 5"
DROP_POINT_CLEARANCE = 12  # "anywhere on the table that is out of 12" of a flag"
FLAG_HELD_VP, FLAG_RETURNED_VP = 1, 2
CAPTURE_POINT_OBJECTIVES = 5
DATA_RETRIEVAL_OBJECTIVES = 7
DATA_UPLINK_VP = 2
PORTALS = 5
RIFTS_AFTER_PLAYER_TURN = 5  # "On any player turn past 5, roll a dice, if the roll is a 6"
RIFT_TIMER = 1  # "These portals start with a countdown timer of 1."
SECONDARY_VP = 1  # "They are all worth 1 victory point."
LABYRINTH_SECONDARY_FACTOR = 20  # "worth 20 times their normal points in this game mode"

#: The secondary objectives, as listed.
SECONDARY_OBJECTIVES = ("Kingslayer", "First blood", "Last laugh", "Heroic intervention",
                        "Causing a failed moral or pinning test on a unit holding an objective")


@rule("missions/spear-head/base-of-operations", "missions/capture-point/holding-points",
      "missions/flag-capture/get-the-flag")
def captures_objective(scoring_unit: Any, in_base_contact: Any) -> Any:
    """Whether a unit captures an objective (a base of operations, a capture point, a flag): a scoring unit comes
    into base contact with it."""
    return And(scoring_unit, in_base_contact)


@rule("missions/spear-head/base-of-operations", "missions/capture-point/holding-points",
      "missions/data-retrieval/data-uplink")
def within_holding_range(distance: Any) -> Any:
    """Whether a unit is near enough to keep holding an objective it captured, or to contest one: within 3"."""
    return distance <= HOLD_RANGE


# -- Spear Head ------------------------------------------------------------------------------------------------------


@rule("missions/spear-head/objective-setup")
def places_base_first(deployed_first: Any) -> Any:
    """Which player (1 or 2) places a base of operations first: the one who deployed second."""
    return If(deployed_first == 1, 2, 1)


@rule("missions/spear-head", "missions/spear-head/base-of-operations")
def spearhead_outcome(one_holds: Any, two_holds: Any, one_uncontested_turns: Any, two_uncontested_turns: Any,
                      game_ended: Any) -> Any:
    """Spear Head's primary result (0 none yet, 1 or 2 a winner, 3 a tie): a player holding the enemy's base wins
    once held uncontested for two consecutive turns, or by holding it when the game ends; while both hold the
    other's base the game goes on, and a game ending so is a tie.

    Interpretation: missions-spearhead-both-holding.
    """
    both = And(one_holds, two_holds)
    one_wins = And(one_holds, Or(game_ended, one_uncontested_turns >= SPEARHEAD_TURNS_TO_WIN))
    two_wins = And(two_holds, Or(game_ended, two_uncontested_turns >= SPEARHEAD_TURNS_TO_WIN))
    return If(both, If(game_ended, 3, 0), If(one_wins, 1, If(two_wins, 2, 0)))


@rule("missions/spear-head/base-of-operations")
def spearhead_turn_vp(holding_enemy_base: Any, contested: Any = False) -> Any:
    """Victory points at the end of a player's turn: 1 if holding the base of operations, contested or not (the
    contest is accepted and deliberately unused)."""
    return If(holding_enemy_base, 1, 0)


# -- Zone Control ------------------------------------------------------------------------------------------------------


@rule("missions/zone-control/the-control-zone", "missions/zone-control/objective-setup")
def in_control_zone(distance: Any) -> Any:
    """Whether a unit is on the control zone: all space within 4" of its marker."""
    return distance <= CONTROL_ZONE_RADIUS


@rule("missions/zone-control/the-control-zone", "missions/zone-control")
def zone_points(action: str, fearless: Any = False, warlord_took_part: Any = False) -> Any:
    """Points for one zone action: 1 for each player turn ended on the zone, 1 for forcing an opponent off it (2 if
    the unit forced off was fearless or had a fearless independent character), 1 for a complete capture; 1 more for
    any of them when a Warlord took part.

    Interpretation: missions-zone-fearless-unit-forced-off.
    """
    if action == "turn ended on the zone":
        base: Any = 1
    elif action == "forced an opponent off":
        base = If(fearless, 2, 1)
    elif action == "complete capture":
        base = 1
    else:
        raise ValueError(f"{action!r} is not a zone control action")
    return base + If(warlord_took_part, 1, 0)


@rule("missions/zone-control/zone-capture")
def zone_moves_after_player_turn(activated_on_player_turn: Any) -> Any:
    """The player turn at whose end the zone moves: it stays for the turn it is activated and two more."""
    return activated_on_player_turn + ZONE_EXTRA_TURNS


@rule("missions/zone-control/zone-capture")
def zone_scatter(dice: tuple[Any, ...], position: Any, table_length: Any) -> Any:
    """Where the zone lands along its scatter line: moved 4d6" (it always moves, a hit included), continuing from
    the opposite side when it scatters off the table."""
    if len(dice) != ZONE_SCATTER_DICE:
        raise ValueError(f"the zone scatters {ZONE_SCATTER_DICE}d6, not {len(dice)} dice")
    return (position + sum(dice)) % table_length


@rule("missions/zone-control/zone-capture")
def may_force_scatter_reroll(own_points: Any, opponent_points: Any) -> Any:
    """Whether a player may force the zone's scatter to be re-rolled: the one with fewer points may."""
    return own_points < opponent_points


# -- Flag Capture ------------------------------------------------------------------------------------------------------


@rule("missions/flag-capture/objective-setup", "missions/flag-capture")
def flags_in_play(roll: Any) -> Any:
    """How many flags the game uses: 7 on a d6 of 3+, otherwise 5."""
    return If(roll >= FLAGS_MANY_ON, FLAGS_MANY, FLAGS_FEW)


@rule("missions/flag-capture/objective-setup")
def drop_point_allowed(distance_to_nearest_flag: Any) -> Any:
    """Whether a drop point may be placed here: out of 12" of every flag (more than 12")."""
    return distance_to_nearest_flag > DROP_POINT_CLEARANCE


@rule("missions/flag-capture/get-the-flag")
def may_carry_another_flag(flags_carried: Any, surviving_models: Any, fleeing: Any = False) -> Any:
    """Whether a unit may take one more flag: it carries no more flags than it has surviving members, and a
    fleeing unit drops all its flags."""
    return And(Not(fleeing), flags_carried + 1 <= surviving_models)


@rule("missions/flag-capture/passing-flags")
def may_pass_flag(giver_in_coherency: Any, taker_in_coherency: Any) -> Any:
    """Whether a flag may pass between two units: both can keep unit coherency to it at once."""
    return And(giver_in_coherency, taker_in_coherency)


@rule("missions/flag-capture/dropped-flags")
def flag_dropped(carrier_eliminated: Any, ally_in_coherency: Any, chose_to_drop: Any = False) -> Any:
    """Whether a flag is dropped where it rests: its carrier chose to drop it, or was eliminated with no allied
    unit close enough (unit coherency) to take it."""
    return Or(chose_to_drop, And(carrier_eliminated, Not(ally_in_coherency)))


@rule("missions/flag-capture/scoring-flags")
def flag_vp(within_3_of_own_drop_point: Any, held_by_scoring_unit: Any) -> Any:
    """Victory points for one flag at the end of the game: 2 if within 3" of the player's drop point, else 1 if a
    scoring unit holds it.

    Interpretation: missions-flag-counted-once.
    """
    return If(within_3_of_own_drop_point, FLAG_RETURNED_VP, If(held_by_scoring_unit, FLAG_HELD_VP, 0))


@rule("missions/flag-capture/scoring-flags")
def flag_capture_score(flags_returned: Any, flags_held: Any) -> Any:
    """A player's flag capture total: 2 for each flag at the drop point, 1 for each other flag held by a scoring
    unit."""
    return FLAG_RETURNED_VP * flags_returned + FLAG_HELD_VP * flags_held


# -- Capture Point ----------------------------------------------------------------------------------------------------


@rule("missions/capture-point", "missions/capture-point/holding-points")
def capture_point_turn_score(controlled: Any, contested: Any) -> Any:
    """Points at the start of a player's turn: 1 for every objective the player controls that is not contested."""
    return Max(controlled - contested, 0)


@rule("missions/capture-point/holding-points")
def contests_capture_point(distance: Any, enemy_controlled: Any) -> Any:
    """Whether a unit (any unit) contests an objective: it is within 3" of one the enemy controls."""
    return And(enemy_controlled, distance <= HOLD_RANGE)


# -- Data Retrieval --------------------------------------------------------------------------------------------------


@rule("missions/data-retrieval", "missions/data-retrieval/data-uplink")
def data_uplink_vp(scoring_unit_in_contact: Any, contested: Any, already_scored_by_player: Any) -> Any:
    """Victory points when a unit reaches a terminal: 2 on the player's first capture of it (a scoring unit in
    base contact with an uncontested marker), none for one the player already scored.

    Interpretation: missions-data-scored-once-per-player.
    """
    return If(And(scoring_unit_in_contact, Not(contested), Not(already_scored_by_player)), DATA_UPLINK_VP, 0)


# -- Labyrinthine Escape --------------------------------------------------------------------------------------------


@rule("missions/labyrinthine-escape/placing-objectives", "missions/labyrinthine-escape/countdown-timer")
def portal_timer(starting_timer: Any, player_turn: Any) -> Any:
    """A portal's countdown at the start of a player turn (after its tick): it ticks down at the start of every
    player turn but the first, and stops at 0."""
    return Max(starting_timer - (player_turn - 1), 0)


@rule("missions/labyrinthine-escape/countdown-timer")
def portal_active(starting_timer: Any, player_turn: Any) -> Any:
    """Whether a portal is open in this player turn: its countdown has reached 0."""
    return portal_timer(starting_timer, player_turn) == 0


@rule("missions/labyrinthine-escape/countdown-timer")
def portal_removed(active: Any, contested_at_end_of_turn: Any) -> Any:
    """Whether an open portal's marker is removed at the end of the turn: no one is contesting it."""
    return And(active, Not(contested_at_end_of_turn))


@rule("missions/labyrinthine-escape/the-power-shield", "missions/labyrinthine-escape/escape-and-live")
def escaped_model_vp(points_value: Any, scoring: Any, hq: Any) -> Any:
    """Victory points for one model that escaped: its points value, double if it is scoring or an HQ (an HQ is
    double whether scoring or not).

    Interpretation: missions-escaped-hq-double.
    """
    return If(Or(scoring, hq), 2 * points_value, points_value)


@rule("missions/labyrinthine-escape/escape-and-live")
def annihilation_applies(mission: str) -> bool:
    """Whether losing every unit on the table loses the game: not in Labyrinthine Escape, where escaped units
    still count."""
    return mission != "Labyrinthine Escape"


@rule("missions/labyrinthine-escape/extra-rifts")
def extra_rift_opens(player_turn: Any, roll: Any) -> Any:
    """Whether an extra rift opens: a d6 of 6 on a player turn past the 5th."""
    return And(player_turn > RIFTS_AFTER_PLAYER_TURN, roll == 6)


@rule("missions/labyrinthine-escape/extra-rifts")
def extra_rift_active(opened_on_player_turn: Any, player_turn: Any) -> Any:
    """Whether an extra rift is open: it starts with a countdown of 1, which ticks down at the start of the next
    player turn."""
    return player_turn - opened_on_player_turn >= RIFT_TIMER


@rule("missions/labyrinthine-escape/extra-rifts")
def rift_scatter_distance(dice: tuple[Any, ...], direct_hit: Any) -> Any:
    """How far an extra rift scatters from the centre: the 4d6 total, or on a direct hit only the lowest and the
    highest of the dice."""
    if len(dice) != ZONE_SCATTER_DICE:
        raise ValueError(f"a rift scatters {ZONE_SCATTER_DICE}d6, not {len(dice)} dice")
    total: Any = 0
    for die in dice:
        total = total + die
    lowest, highest = dice[0], dice[0]
    for die in dice[1:]:
        lowest, highest = Min(lowest, die), Max(highest, die)
    return If(direct_hit, lowest + highest, total)


@rule("missions/secondary-objectives", "missions/labyrinthine-escape/secondary-objectives")
def secondary_objective_vp(mission: str) -> int:
    """Victory points for one secondary objective: 1, or 20 times that in Labyrinthine Escape."""
    return SECONDARY_VP * (LABYRINTH_SECONDARY_FACTOR if mission == "Labyrinthine Escape" else 1)


# -- Objectives per mission ----------------------------------------------------------------------------------------


@rule("missions/spear-head/objective-setup", "missions/zone-control/objective-setup",
      "missions/flag-capture/objective-setup", "missions/capture-point/placing-objectives",
      "missions/data-retrieval/placing-objectives", "missions/labyrinthine-escape/placing-objectives")
def objective_markers(mission: str, flag_roll: Any = 6) -> Any:
    """How many objective markers a mission puts on the table: Spear Head one base of operations per player, Zone
    Control the one control zone, Flag Capture its flags (5 or 7) and no drop points (special markers placed
    later), Capture Point 5, Data Retrieval 7, Labyrinthine Escape 5 portals."""
    counts = {"Spear Head": 2, "Zone Control": 1, "Capture Point": CAPTURE_POINT_OBJECTIVES,
              "Data Retrieval": DATA_RETRIEVAL_OBJECTIVES, "Labyrinthine Escape": PORTALS}
    if mission == "Flag Capture":
        return flags_in_play(flag_roll)
    return counts[mission]
