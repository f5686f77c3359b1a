"""Organizing a Battle (004's chapter 18): the twelve game-prep steps, the force organisation and its points
restrictions, apocalypse games, the mission and deployment rolls, objectives and scoring units, dusk and dawn with
night fighting, the dead zone, the game's variable length and annihilation.

Each function decides one thing the text pins (a count, a roll, a distance, an order) with rules.logic so z3 can
prove things about the very function; the two printed d6 charts are decision tables in the printed rows' order.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from rules.logic import And, DecisionTable, If, Not, Or, Row, Var
from rules.registry import ruleset_rule

rule = ruleset_rule("m41")

#: The game-prep list of "Agree on the Game Size", in its printed order (numbers 1 to 12).
GAME_PREP_STEPS = (
    "Setup & argue about the table",
    "Choose forces",
    "Roll for mission type",
    "Place objectives",
    "Roll for night fighting",
    "Roll for table direction",
    "Roll to see who deploys first",
    "Deploy forces",
    "Deploy infiltrators",
    "Roll to see who goes first",
    "Pre-game scout moves",
    "Game starts!",
)

STANDARD_GAME_POINTS = (1000, 2000)  # "Standard games of warhammer range from 1000 points to 2000 points"
MINIMUM_HQ = 1  # "at least one Headquarters selection"
MINIMUM_TROOPS = 2  # "and two Troops selections"
APOCALYPSE_ABOVE = 3000  # "When playing a game above 3000 points, you can play with two force org charts"
APOCALYPSE_CHARTS = 2
OBJECTIVE_EDGE_GAP = 6  # "The objectives may not be placed within 6" of the table edge."
DARKNESS_ON = 4  # "Roll a d6, and on a 4+ the game starts in darkness."
LIGHT_CHANGES_ON = 4  # "also a 4+"
LIGHT_CHANGE_FROM_ROUND = 4  # "Starting on the bottom of turn 4"
DEAD_ZONE = 24  # "a 24" dead zone centered along its axis of play"
LAST_FIXED_ROUND = 6  # "Starting at the end of the 6th round, one of the players will roll a dice"
#: The roll that continues the game into a round: "A 7th will occur on a 3+, An 8th will occur on a 4+, A 9th and
#: here on after will occur on a 5+".
CONTINUE_ON = {7: 3, 8: 4}
CONTINUE_LATER_ON = 5


# -- Game prep ------------------------------------------------------------------------------------------------------


@rule("battle/agree-on-the-game-size")
def game_prep_step_number(step: str) -> int:
    """Where a step comes in setting up a game: its number in the printed list (1 to 12)."""
    return GAME_PREP_STEPS.index(step) + 1


@rule("battle/agree-on-the-game-size")
def comes_before(first: str, second: str) -> bool:
    """Whether one game-prep step is done before another, by the printed list."""
    return game_prep_step_number(first) < game_prep_step_number(second)


#: What the chapter's own text says comes before what, as (earlier step, later step, section, line of 004, the
#: words on that line that say so): the printed list must agree with each.
ORDER_STATED = (
    ("Setup & argue about the table", "Choose forces", "battle/how-much-terrain", 5742,
     "create your army list after you create your"),
    ("Setup & argue about the table", "Roll for mission type", "battle/choosing-a-mission", 5756,
     "After the table is all setup, players must select a mission."),
    ("Place objectives", "Roll for table direction", "battle/placing-objectives", 5820,
     "Objectives are placed before table"),
    ("Place objectives", "Roll for table direction", "battle/battlefield-orientation", 5847,
     "objectives placed, its time to establish the deployment zones."),
    ("Roll for table direction", "Roll to see who deploys first", "battle/deploying-forces", 5893,
     "With the table now all ready for models to be placed."),
    ("Roll to see who deploys first", "Deploy forces", "battle/deploying-forces", 5894,
     "Its time to roll to see who deploys first!"),
    ("Deploy forces", "Deploy infiltrators", "battle/infiltrators-and-scouts", 5925,
     "After deploying all their normal units, players will deploy infil-"),
    ("Deploy forces", "Roll to see who goes first", "battle/who-goes-first", 5933,
     "After both players are done positioning their models,"),
    ("Deploy infiltrators", "Roll to see who goes first", "battle/who-goes-first", 5933,
     "After both players are done positioning their models,"),
    ("Roll to see who goes first", "Pre-game scout moves", "battle/infiltrators-and-scouts", 5927,
     "Scouts make their scout move after rolling for"),
    ("Pre-game scout moves", "Game starts!", "battle/infiltrators-and-scouts", 5928,
     "but before the start of said turn."),
)


@rule("battle/agree-on-the-game-size", "battle/how-much-terrain", "battle/choosing-a-mission",
      "battle/battlefield-orientation", "battle/deploying-forces", "battle/infiltrators-and-scouts",
      "battle/who-goes-first")
def order_disagreements(steps: tuple[str, ...] = GAME_PREP_STEPS) -> list[tuple[str, str, str, int, str]]:
    """The orders the chapter's text states (ORDER_STATED) that a list of game-prep steps breaks: none for the
    printed list."""
    return [stated for stated in ORDER_STATED if steps.index(stated[0]) > steps.index(stated[1])]


@rule("battle/agree-on-the-game-size")
def is_standard_game_size(points: Any) -> Any:
    """Whether a game's points value is in the standard range, 1000 to 2000 points (larger and smaller games are
    allowed: "you can play as large and as small as you wish")."""
    return And(points >= STANDARD_GAME_POINTS[0], points <= STANDARD_GAME_POINTS[1])


@rule("battle/agree-on-the-game-size")
def randomised_points_range(start: int, dice: int) -> tuple[int, int]:
    """The lowest and highest final points value when a collection of d6 is added to a start just below the goal
    (1200 points and 60 d6 give 1260 to 1560).

    Interpretation: battle-random-points-added.
    """
    return start + dice, start + 6 * dice


# -- Force organisation -----------------------------------------------------------------------------------------------


@rule("battle/hq", "battle/troops", "battle/the-force-organization-chart", "battle/choosing-your-force",
      "battle/unit-battlefield-roles")
def compulsory_choices_met(hq_choices: Any, troops_choices: Any) -> Any:
    """Whether a force has its compulsory selections: at least one HQ and two Troops."""
    return And(hq_choices >= MINIMUM_HQ, troops_choices >= MINIMUM_TROOPS)


@rule("battle/points-restrictions", "battle/elites", "battle/fast-attack", "battle/heavy-support")
def points_restrictions_met(troops_points: Any, elites_points: Any, fast_attack_points: Any,
                            heavy_support_points: Any) -> Any:
    """Whether the points in elites, fast attack and heavy support are each no more than the points in troops
    (400 points of heavy support needs 400 points of troops)."""
    return And(elites_points <= troops_points, fast_attack_points <= troops_points,
               heavy_support_points <= troops_points)


@rule("battle/points-restrictions")
def unit_allowed_at_game_size(game_points: Any, unit_minimum_game_points: Any) -> Any:
    """Whether a unit with a minimum game size may be taken: a Land Raider (1300) cannot be in a smaller game."""
    return game_points >= unit_minimum_game_points


@rule("battle/dedicated-transports", "battle/other-exceptions")
def counts_toward_force_organisation(dedicated_transport: Any, outside_the_chart: Any) -> Any:
    """Whether a unit takes a choice of the Force Organization chart: dedicated transports and the Codex units
    said to be outside the chart do not."""
    return And(Not(dedicated_transport), Not(outside_the_chart))


@rule("battle/unit-availability")
def availability_met(units_taken: Any, minimum: Any, maximum: Any = None) -> Any:
    """Whether an army meets a unit entry's availability: (1+) needs at least one, (0-1) allows none or one; a
    missing maximum ("1+") sets no cap."""
    if maximum is None:
        return units_taken >= minimum
    return And(units_taken >= minimum, units_taken <= maximum)


@rule("battle/apocalypse-games")
def force_org_charts(game_points: Any) -> Any:
    """How many Force Organization charts a force may fill: two in a game above 3000 points, else one.

    Interpretation: battle-apocalypse-above-3000.
    """
    return If(game_points > APOCALYPSE_ABOVE, APOCALYPSE_CHARTS, 1)


@rule("battle/apocalypse-games", "battle/lords-of-war")
def is_apocalypse_game(game_points: Any) -> Any:
    """Whether a game is apocalypse sized, the only size that allows Lords of War: above 3000 points.

    Interpretation: battle-apocalypse-above-3000.
    """
    return game_points > APOCALYPSE_ABOVE


@rule("battle/lords-of-war")
def lords_of_war_allowed(game_points: Any) -> Any:
    """How many Lords of War a force may take: one per force org chart multiplier in an apocalypse game, none
    otherwise."""
    return If(is_apocalypse_game(game_points), force_org_charts(game_points), 0)


# -- Mission and objectives -------------------------------------------------------------------------------------------

#: "Die Roll Mission Type", the printed rows in order.
MISSION_TABLE = DecisionTable(
    name="m41-mission-type",
    refs=("battle/choosing-a-mission",),
    inputs=(Var("roll", 1, 6),),
    rows=(
        Row("1 Spearhead", lambda roll: roll == 1, 1),
        Row("2 Labyrinthine Escape", lambda roll: roll == 2, 2),
        Row("3 Data Retrieval", lambda roll: roll == 3, 3),
        Row("4 Capture Point", lambda roll: roll == 4, 4),
        Row("5 Control Zone", lambda roll: roll == 5, 5),
        Row("6 Flag Capture", lambda roll: roll == 6, 6),
    ),
)

#: The missions by the table's numbers, named as the Missions chapter heads them (interpretation
#: battle-mission-names).
MISSIONS = {1: "Spear Head", 2: "Labyrinthine Escape", 3: "Data Retrieval", 4: "Capture Point", 5: "Zone Control",
            6: "Flag Capture"}


@rule("battle/choosing-a-mission")
def mission_rolled(roll: int) -> str:
    """The mission a d6 picks, by the printed table (the Missions chapter's name for it).

    Interpretation: battle-mission-names.
    """
    return MISSIONS[MISSION_TABLE(roll=roll)]


@rule("battle/placing-objectives")
def objective_count_allowed(objectives: Any) -> Any:
    """Whether a number of objectives may be placed: "There are always an odd number of objectives"."""
    return And(objectives >= 1, objectives % 2 == 1)


@rule("battle/placing-objectives", "missions/capture-point/placing-objectives",
      "missions/data-retrieval/placing-objectives")
def objective_position_allowed(inches_from_table_edge: Any) -> Any:
    """Whether an objective may be placed this far from the nearest table edge: not within 6", so more than 6".

    Interpretation: battle-within-means-at-most.
    """
    return inches_from_table_edge > OBJECTIVE_EDGE_GAP


@rule("battle/placing-objectives")
def objectives_each_player_places(objectives: int) -> int:
    """How many objectives each player places: one goes in the centre, the rest are divided between the two."""
    return (objectives - 1) // 2


@rule("battle/reversing-the-order")
def objectives_allowed_in_a_deployment_zone(placed_after_table_orientation: Any) -> Any:
    """The most objectives one deployment zone may hold: one when they are placed after the orientation is
    decided; otherwise the text sets no cap (returned as None)."""
    return 1 if placed_after_table_orientation else None


@rule("battle/scoring-units", "battle/securing-and-contesting-objectives", "battle/objectives")
def is_scoring_unit(vehicle: Any, monstrous_creature: Any, swarm: Any) -> Any:
    """Whether a unit scores objectives: all units except vehicles, monstrous creatures and swarms."""
    return Not(Or(vehicle, monstrous_creature, swarm))


@rule("battle/scoring-units", "battle/securing-and-contesting-objectives")
def can_contest_objectives(vehicle: Any = False, monstrous_creature: Any = False, swarm: Any = False) -> Any:
    """Whether a unit contests objectives: every unit does, scoring or not (the kind of unit is accepted and
    deliberately unused)."""
    return True


# -- Dusk and dawn, night fighting -------------------------------------------------------------------------------------


@rule("battle/dusk-and-dawn")
def starts_in_darkness(roll: Any) -> Any:
    """Whether the game starts at night: a d6 of 4+."""
    return roll >= DARKNESS_ON


@rule("battle/dusk-and-dawn")
def light_changes(game_round: Any, roll: Any, already_changed: Any) -> Any:
    """Whether the day/night cycle turns at the bottom of this game round: rolled from round 4 on, on a 4+, and
    only until it has changed once."""
    return And(Not(already_changed), game_round >= LIGHT_CHANGE_FROM_ROUND, roll >= LIGHT_CHANGES_ON)


@rule("battle/dusk-and-dawn")
def is_dark(started_in_darkness: Any, light_changed: Any) -> Any:
    """Whether it is night now: the start's light, flipped once the cycle has changed."""
    return If(light_changed, Not(started_in_darkness), started_in_darkness)


@rule("battle/dusk-and-dawn")
def chance_still_unchanged_after(game_round: int) -> Fraction:
    """The chance the light has not changed by the end of a game round: one 4+ roll at the bottom of each round
    from the 4th, each failing half the time."""
    rolls = max(0, game_round - LIGHT_CHANGE_FROM_ROUND + 1)
    return Fraction(LIGHT_CHANGES_ON - 1, 6) ** rolls


@rule("battle/dusk-and-dawn")
def night_fighting_cover_bonus(distance: Any, attacker_has_night_vision: Any = False) -> Any:
    """The bonus to a defending unit's cover save at night from its attacker's distance: +1 outside 12", +2
    instead outside 24" (beyond 36" it cannot be targeted at all; see night_fighting_targetable). Night fighting
    gives no protection from attackers with night vision or acute senses (usr/night-vision).

    Interpretation: battle-outside-means-farther.
    """
    return If(attacker_has_night_vision, 0, If(distance > 24, 2, If(distance > 12, 1, 0)))


@rule("battle/dusk-and-dawn")
def night_fighting_targetable(distance: Any, attacker_has_night_vision: Any = False) -> Any:
    """Whether a unit may be targeted at night: not from outside 36", unless the attacker has night vision."""
    return Or(attacker_has_night_vision, distance <= 36)


# -- Deployment ------------------------------------------------------------------------------------------------------

#: "Die Roll Deployment Shape", the printed rows in order.
DEPLOYMENT_TABLE = DecisionTable(
    name="m41-deployment-shape",
    refs=("battle/deployment-and-dead-zones",),
    inputs=(Var("roll", 1, 6),),
    rows=(
        Row("1 Surprise Engagement", lambda roll: roll == 1, 1),
        Row("2-4 Pitched Battle", lambda roll: And(roll >= 2, roll <= 4), 2),
        Row("5-6 Vanguard Strike", lambda roll: And(roll >= 5, roll <= 6), 3),
    ),
)

DEPLOYMENTS = {1: "Surprise Engagement", 2: "Pitched Battle", 3: "Vanguard Strike"}
#: The axis each deployment is played along.
DEPLOYMENT_AXIS = {"Surprise Engagement": "long", "Pitched Battle": "short", "Vanguard Strike": "diagonal"}


@rule("battle/deployment-and-dead-zones")
def deployment_rolled(roll: int) -> str:
    """The deployment shape a d6 picks, by the printed table."""
    return DEPLOYMENTS[DEPLOYMENT_TABLE(roll=roll)]


@rule("battle/surprise-engagement", "battle/pitched-battle", "battle/vanguard-strike")
def deployment_axis(deployment: str) -> str:
    """The axis of play: the long axis for a surprise engagement, the short for a pitched battle, a diagonal for
    vanguard strike."""
    return DEPLOYMENT_AXIS[deployment]


@rule("battle/deployment-and-dead-zones", "battle/deploying-forces")
def may_deploy_at(inches_from_centre_line: Any) -> Any:
    """Whether a model may be deployed this far from the line across the middle of the axis of play: the 24" dead
    zone is centred on it, so not nearer than 12"."""
    return 2 * inches_from_centre_line >= DEAD_ZONE


@rule("battle/deploying-forces", "battle/who-goes-first")
def roll_off_winner(player_one_roll: Any, player_two_roll: Any) -> Any:
    """Who wins the d6 roll to deploy first (and picks the side) or to choose the first turn: the higher roll;
    0 is a tie, rolled again.

    Interpretation: battle-roll-off-ties.
    """
    return If(player_one_roll > player_two_roll, 1, If(player_two_roll > player_one_roll, 2, 0))


@rule("battle/infiltrators-and-scouts")
def scout_placed_in_overwatch(belongs_to_second_player: Any) -> Any:
    """Whether a scout unit goes into overwatch after its scout move: those of the player going second do."""
    return belongs_to_second_player


# -- Ending the game -------------------------------------------------------------------------------------------------


@rule("battle/ending-the-game")
def roll_to_continue_into(game_round: Any) -> Any:
    """The d6 roll needed at the end of the previous round for a game round to be played: none (0) up to the 6th,
    3+ for the 7th, 4+ for the 8th, 5+ for the 9th and every one after."""
    return If(game_round <= LAST_FIXED_ROUND, 0,
              If(game_round == 7, CONTINUE_ON[7], If(game_round == 8, CONTINUE_ON[8], CONTINUE_LATER_ON)))


@rule("battle/ending-the-game")
def chance_to_continue_into(game_round: int) -> Fraction:
    """The chance that the game, having finished the round before, goes on into this round."""
    needed = roll_to_continue_into(game_round)
    return Fraction(1) if needed == 0 else Fraction(7 - needed, 6)


@rule("battle/ending-the-game")
def chance_game_reaches(game_round: int) -> Fraction:
    """The chance the game lasts to (at least) this round: certain up to the 6th, then each continue roll must
    succeed."""
    chance = Fraction(1)
    for later in range(LAST_FIXED_ROUND + 1, game_round + 1):
        chance *= chance_to_continue_into(later)
    return chance


@rule("battle/ending-the-game")
def game_length_distribution(longest: int) -> dict[int, Fraction]:
    """The chance the game lasts exactly N rounds, for N from 6 to ``longest - 1``, and the chance it lasts
    ``longest`` rounds or more at ``longest`` (the game has no last round, so the tail is gathered there)."""
    out = {}
    for rounds in range(LAST_FIXED_ROUND, longest):
        out[rounds] = chance_game_reaches(rounds) - chance_game_reaches(rounds + 1)
    out[longest] = chance_game_reaches(longest)
    return out


@rule("battle/annihilation", "battle/victory-points")
def winner(player_one_vp: Any, player_two_vp: Any, player_one_destroyed: Any = False,
           player_two_destroyed: Any = False, annihilation_applies: Any = True) -> Any:
    """Who wins (1 or 2; 0 a draw): a player whose forces are completely destroyed loses whatever the victory
    points (unless the mission sets annihilation aside); otherwise whoever has the most victory points.

    Interpretation: battle-equal-points-draw.
    """
    one_annihilated = And(annihilation_applies, player_one_destroyed, Not(player_two_destroyed))
    two_annihilated = And(annihilation_applies, player_two_destroyed, Not(player_one_destroyed))
    by_points = If(player_one_vp > player_two_vp, 1, If(player_two_vp > player_one_vp, 2, 0))
    return If(one_annihilated, 2, If(two_annihilated, 1, by_points))
