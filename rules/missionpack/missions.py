"""The eighteen missions of the pack (Combat Patrol, Incursion, Strike Force, Onslaught): which mission a roll
picks (step 4), each mission's battle size, primary and own secondary objective, and the two missions' special
rules (Steady Advance's Sweep and Clear, Base of Operations' critical feature). Setting up Tactical Terrain
(step 10) is ``rules.missionpack.sequence``'s; datasheets are ``rules.missionpack.terrain.TerrainDatasheet``.

Each mission's own secondary objective is an ``Objective`` of ``rules.missionpack.scoring``: a dual-mode function
from the facts of one scoring moment to its victory points, so the per-moment and whole-battle maxima and the
"cannot be scored in the first battle round" clauses are proved about these very functions
(properties/proofs_missionpack_missions.py). The primaries (Take and Hold, Domination) live in ``scoring``.

The deployment maps are pictures the text lost: where an objective reads a map (which marker is labelled A, which
marker lies in whose territory), the fact is part of the game record (``controls_both_markers_a``), never guessed.
Player A and Player B, the labels of the Seize Ground, Forward Push and Hard Push tables, are a side of the map
(Interpretation: player-a-is-a-side-of-the-map); the record states ``player_a``.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Sequence

from rules.messages import shown
from rules.logic import And, DecisionTable, If, Max, Min, Not, Or, Row, Var, is_symbolic
from rules.missionpack import scoring, sequence, terrain
from rules.missionpack.battle_sizes import BATTLE_SIZES
from rules.missionpack.scoring import Objective, ScoringError, Timing
from rules.registry import ruleset_rule

rule = ruleset_rule("missionpack")

TAKE_AND_HOLD = "take-and-hold"
DOMINATION = "domination-primary"


@dataclass(frozen=True)
class Mission:
    """One mission: its slug (the references' middle part), title, battle size, primary and own secondary
    objective (names in ``scoring.OBJECTIVES``) and the page the step-4 table prints for it."""

    slug: str
    title: str
    battle_size: str
    primary: str
    secondary: str
    page: int


# In book order (the contents and step 4's tables list them so).
MISSIONS: dict[str, Mission] = {m.slug: m for m in (
    Mission("seize-ground", "Seize Ground", "Combat Patrol", TAKE_AND_HOLD, "seize-ground", 28),
    Mission("steady-advance", "Steady Advance", "Combat Patrol", TAKE_AND_HOLD, "measured-advance", 30),
    Mission("vantage-point", "Vantage Point", "Combat Patrol", TAKE_AND_HOLD, "vantage-point", 32),
    Mission("meeting-engagement", "Meeting Engagement", "Incursion", TAKE_AND_HOLD, "vital-ground", 36),
    Mission("forward-outpost", "Forward Outpost", "Incursion", TAKE_AND_HOLD, "forward-push", 38),
    Mission("base-of-operations", "Base of Operations", "Incursion", TAKE_AND_HOLD, "secure-strongholds", 40),
    Mission("firesweep", "Firesweep", "Incursion", TAKE_AND_HOLD, "spoils-of-audacity", 42),
    Mission("denied-front", "Denied Front", "Incursion", TAKE_AND_HOLD, "bounding-advance", 44),
    Mission("encircling-manoeuvre", "Encircling Manoeuvre", "Incursion", TAKE_AND_HOLD, "encirclement", 46),
    Mission("protect-the-nerve-centre", "Protect the Nerve Centre", "Strike Force", TAKE_AND_HOLD,
            "operational-headquarters", 50),
    Mission("drawn-battle-lines", "Drawn Battle Lines", "Strike Force", DOMINATION, "offensive-push", 52),
    Mission("take-the-high-ground", "Take the High Ground", "Strike Force", TAKE_AND_HOLD, "the-high-ground", 54),
    Mission("aggressive-strike", "Aggressive Strike", "Strike Force", TAKE_AND_HOLD, "hard-push", 56),
    Mission("protected-assets", "Protected Assets", "Strike Force", TAKE_AND_HOLD, "vital-assets", 58),
    Mission("deny-the-foe", "Deny the Foe", "Strike Force", TAKE_AND_HOLD, "deny-the-foe", 60),
    Mission("entrenched-defences", "Entrenched Defences", "Onslaught", DOMINATION, "secure-strongholds", 64),
    Mission("stand-your-ground", "Stand Your Ground", "Onslaught", DOMINATION, "stand-your-ground", 66),
    Mission("smashed-bastions", "Smashed Bastions", "Onslaught", DOMINATION, "aggressive-capitulation", 68),
)}


def mission(slug: str) -> Mission:
    """The mission with this slug; an unknown slug is one clear sentence (``ScoringError``)."""
    if slug not in MISSIONS:
        raise ScoringError(f"{shown(slug)} is not a mission of the mission pack (known: {', '.join(MISSIONS)})")
    return MISSIONS[slug]


def _battle_size(battle_size: str) -> str:
    if battle_size not in BATTLE_SIZES:
        raise ScoringError(f"{shown(battle_size)} is not a battle size of the mission pack "
                           f"(known: {', '.join(BATTLE_SIZES)})")
    return battle_size


# --------------------------------------------------------------------------
# Step 4: determine mission; each briefing's heading names its battle size


@rule(*(f"mission/{slug}/briefing" for slug in MISSIONS))
def mission_battle_size(slug: str) -> str:
    """The battle size a mission is played at, as its briefing's heading ("COMBAT PATROL MISSION") states."""
    return mission(slug).battle_size


@rule("sequence/04-determine-mission")
def missions_for(battle_size: str) -> tuple[Mission, ...]:
    """The missions the players can choose from for their chosen battle size, in book order."""
    size = _battle_size(battle_size)
    return tuple(m for m in MISSIONS.values() if m.battle_size == size)


#: Step 4's random tables: the die each battle size rolls and its missions by result, as printed.
MISSION_TABLES: dict[str, tuple[str, tuple[str, ...]]] = {
    "Combat Patrol": ("D3", ("seize-ground", "steady-advance", "vantage-point")),
    "Incursion": ("D6", ("meeting-engagement", "forward-outpost", "base-of-operations", "firesweep", "denied-front",
                         "encircling-manoeuvre")),
    "Strike Force": ("D6", ("protect-the-nerve-centre", "drawn-battle-lines", "take-the-high-ground",
                            "aggressive-strike", "protected-assets", "deny-the-foe")),
    "Onslaught": ("D3", ("entrenched-defences", "stand-your-ground", "smashed-bastions")),
}


@rule("sequence/04-determine-mission")
def mission_for_roll(battle_size: str, roll: int) -> Mission:
    """The mission a roll selects at random for a battle size (a D3 for Combat Patrol and Onslaught, a D6 otherwise)."""
    die, slugs = MISSION_TABLES[_battle_size(battle_size)]
    if isinstance(roll, bool) or not isinstance(roll, int) or not 1 <= roll <= len(slugs):
        raise ScoringError(f"a {battle_size} mission is selected with a {die}: {shown(roll)} is not a result of it")
    return MISSIONS[slugs[roll - 1]]


@rule("sequence/04-determine-mission")
def may_play_mission(battle_size: str, slug: str) -> bool:
    """Whether the players may choose a mission for their battle size (only that size's missions)."""
    return mission(slug).battle_size == _battle_size(battle_size)


def primary_award(slug: str, battle_round: Any, controlled: Any, opponent_controlled: Any) -> Any:
    """A mission's primary objective at the end of a Command phase (the mission picks Take and Hold or Domination)."""
    return scoring.OBJECTIVES[mission(slug).primary].score(battle_round=battle_round, controlled=controlled,
                                                           opponent_controlled=opponent_controlled)


# --------------------------------------------------------------------------
# Player A / Player B tables


#: Seize Ground's table: objective marker label, Player A's victory points, Player B's victory points.
SEIZE_GROUND_TABLE = (("A", 1, 4), ("B", 2, 2), ("C", 4, 1))
#: Forward Push's table, as above.
FORWARD_PUSH_TABLE = (("A", 1, 8), ("B", 2, 4), ("C", 4, 2), ("D", 8, 1))
#: Hard Push's table, as above.
HARD_PUSH_TABLE = (("A", 1, 8), ("B", 2, 5), ("C", 3, 3), ("D", 5, 2), ("E", 8, 1))
MARKER_TABLES = {"seize-ground": SEIZE_GROUND_TABLE, "forward-push": FORWARD_PUSH_TABLE, "hard-push": HARD_PUSH_TABLE}


def table_points(table: Sequence[tuple[str, int, int]], row: int, player_a: Any) -> Any:
    """The victory points of one row (1 = the first marker) for Player A or Player B; 0 outside the table."""
    points: Any = 0
    for index, (_label, a_points, b_points) in enumerate(table, 1):
        points = If(row == index, If(player_a, a_points, b_points), points)
    return points


def marker_row(table: Sequence[tuple[str, int, int]], marker: Any, objective: str) -> Any:
    """The row of an objective marker's label ("A" is 1); z3 callers pass the row number itself."""
    if is_symbolic(marker):
        return marker
    labels = [label for label, _a, _b in table]
    if marker not in labels:
        raise ScoringError(f"{objective}: {shown(marker)} is not one of its objective markers ({', '.join(labels)})")
    return labels.index(marker) + 1


# --------------------------------------------------------------------------
# The missions' own secondary objectives


def _secondary(name: str, title: str, missions: tuple[str, ...], timings: tuple[Timing, ...], score: Any,
               **extra: Any) -> Objective:
    return scoring.register(Objective(name, title, f"mission/{missions[0]}/secondary", "secondary", timings, score,
                                      category=None, missions=missions, **extra))


PLAYER_A = "player_a"  # the fact of the Player A / Player B tables: whether the scoring player is Player A
SIDE_REFS = ("mission/seize-ground/secondary", "mission/forward-outpost/secondary",
             "mission/aggressive-strike/secondary", "sequence/09-choose-deployment-zone")


@rule(*SIDE_REFS)
def same_side_all_battle(player_a: Any, player_a_before: Any) -> Any:
    """Whether a player is Player A at a moment exactly when they were at an earlier one: Player A is a side of the map,
    and a player deploys on one side for the whole battle.

    Interpretation: player-a-is-a-side-of-the-map.
    """
    return player_a == player_a_before


@rule(*SIDE_REFS)
def opposite_sides(player_a: Any, opponent_player_a: Any) -> Any:
    """Whether two players' Player A flags can both be true: one player is Player A and the other Player B, the two
    sides of the map.

    Interpretation: player-a-is-a-side-of-the-map.
    """
    return player_a != opponent_player_a


@rule("mission/seize-ground/secondary")
def seize_ground(battle_round: Any, player_a: bool, controls_marker_a: bool, controls_marker_b: bool,
                 controls_marker_c: bool) -> Any:
    """Seize Ground at the end of a battle round: the table's points for the best objective marker the player controls.

    Interpretation: seize-ground-best-marker; player-a-is-a-side-of-the-map.
    """
    controlled = (controls_marker_a, controls_marker_b, controls_marker_c)
    values = [If(held, table_points(SEIZE_GROUND_TABLE, row, player_a), 0) for row, held in enumerate(controlled, 1)]
    return Max(0, *values)


@rule("mission/steady-advance/secondary")
def measured_advance(battle_round: Any, controls_both_markers_a: bool,
                     controls_marker_in_opponent_territory: bool) -> Any:
    """Measured Advance at the end of a battle round: 2 for both markers labelled A, 3 for the one in the opponent's
    territory (any or all)."""
    return If(controls_both_markers_a, 2, 0) + If(controls_marker_in_opponent_territory, 3, 0)


@rule("mission/vantage-point/secondary")
def vantage_point(battle_round: Any, controls_tallest_in_own_territory: bool,
                  controls_tallest_in_opponent_territory: bool) -> Any:
    """Vantage Point at the end of a battle round: 1 for the tallest terrain feature in the player's territory,
    3 for the tallest in the opponent's (any or all)."""
    return If(controls_tallest_in_own_territory, 1, 0) + If(controls_tallest_in_opponent_territory, 3, 0)


@rule("mission/vantage-point/secondary", "mission/take-the-high-ground/secondary")
def controls_tallest(heights: Sequence[Any], controlled: Sequence[Any]) -> Any:
    """Whether a player controls the tallest terrain feature of a territory: any of the features tied for highest."""
    tallest = [And(*(height >= other for other in heights)) for height in heights]
    return Or(*(And(top, mine) for top, mine in zip(tallest, controlled)))


@rule("mission/meeting-engagement/secondary")
def vital_ground(battle_round: Any, controls_marker_in_opponent_deployment_zone: bool,
                 markers_controlled_outside_deployment_zones: int) -> Any:
    """Vital Ground at the end of the player's Command phase: 3 for the marker in the opponent's deployment zone,
    2 for each controlled marker in neither zone, at most 7, nothing in the first battle round."""
    points = (If(controls_marker_in_opponent_deployment_zone, 3, 0)
              + 2 * markers_controlled_outside_deployment_zones)
    return If(battle_round == 1, 0, Min(points, 7))


@rule("mission/forward-outpost/secondary")
def forward_push(battle_round: Any, player_a: bool, marker: str) -> Any:
    """Forward Push when the action completes at the end of the player's turn: the table's points for the marker it
    was performed on (the one it started on, controlled or not by then).

    Interpretation: player-a-is-a-side-of-the-map; push-scores-the-marker-it-started-on.
    """
    return table_points(FORWARD_PUSH_TABLE, marker_row(FORWARD_PUSH_TABLE, marker, "Forward Push"), player_a)


PUSH_REFS = ("mission/forward-outpost/secondary", "mission/aggressive-strike/secondary")


@rule(*PUSH_REFS)
def push_can_start(within_range_of_objective_marker: Any, you_control_that_marker: Any) -> Any:
    """Whether a unit may start Forward Push or Hard Push at the start of your Movement phase (before it could move):
    any unit, no keyword asked, within range of an objective marker you control; the action is performed on that
    marker (the general conditions of ninth:performing-actions apply on top).

    Interpretation: push-scores-the-marker-it-started-on.
    """
    return And(within_range_of_objective_marker, you_control_that_marker)


@rule("mission/base-of-operations/secondary", "mission/entrenched-defences/secondary")
def secure_strongholds(battle_round: Any, controls_marker_in_own_deployment_zone: bool,
                       controls_marker_in_opponent_deployment_zone: bool) -> Any:
    """Secure Strongholds at the end of the player's Command phase: 1 for the marker in their own deployment zone,
    5 for both deployment zones' markers, nothing in the first battle round."""
    both = And(controls_marker_in_own_deployment_zone, controls_marker_in_opponent_deployment_zone)
    points = If(both, 5, If(controls_marker_in_own_deployment_zone, 1, 0))
    return If(battle_round == 1, 0, points)


@rule("mission/firesweep/secondary")
def spoils_of_audacity(battle_round: Any, controls_marker_in_opponent_territory: bool,
                       markers_controlled_outside_territories: int) -> Any:
    """Spoils of Audacity at the end of the player's Command phase: 3 for the marker wholly within the opponent's
    territory, 2 for each controlled marker wholly within neither, at most 7, nothing in the first battle round."""
    points = If(controls_marker_in_opponent_territory, 3, 0) + 2 * markers_controlled_outside_territories
    return If(battle_round == 1, 0, Min(points, 7))


@rule("mission/denied-front/secondary")
def bounding_advance(battle_round: Any, controls_marker_in_own_territory: bool,
                     controls_marker_in_opponent_territory: bool) -> Any:
    """Bounding Advance at the end of a battle round: 1 for the marker in the player's territory, 3 for the one in
    the opponent's (any or all), nothing in the first battle round."""
    points = If(controls_marker_in_own_territory, 1, 0) + If(controls_marker_in_opponent_territory, 3, 0)
    return If(battle_round == 1, 0, points)


@rule("mission/encircling-manoeuvre/secondary")
def encirclement(battle_round: Any, controls_both_markers_a: bool) -> Any:
    """Encirclement at the end of a battle round: 5 for controlling both objective markers labelled A."""
    return If(controls_both_markers_a, 5, 0)


@rule("mission/protect-the-nerve-centre/secondary")
def operational_headquarters(battle_round: Any, controls_headquarters: bool, end_of_battle: bool) -> Any:
    """Operational Headquarters: 2 at the end of a battle round and 5 at the end of the battle for controlling the
    declared Area Terrain feature, nothing in the first battle round.

    ``end_of_battle`` tells the End Game moment from the end of the fifth battle round, which also scores.
    """
    return If(end_of_battle, If(controls_headquarters, 5, 0),
              If(battle_round == 1, 0, If(controls_headquarters, 2, 0)))


CRITICAL_FEATURE = "CRITICAL FEATURE"
HEAVY_COVER = terrain.Trait.HEAVY_COVER.printed


def _is_area_terrain(sheet: terrain.TerrainDatasheet) -> bool:
    return terrain.category_named(sheet.category) == terrain.Category.AREA_TERRAIN


def _is_critical(sheet: terrain.TerrainDatasheet) -> bool:
    return CRITICAL_FEATURE in sheet.other_keywords


@rule("mission/protect-the-nerve-centre/secondary")
def headquarters_eligible(area_terrain: Any, points: Any, highest_area_terrain_points: Any) -> Any:
    """Whether a datasheet's feature may be declared the headquarters: Area Terrain of the highest cost among the
    player's Area Terrain.

    Interpretation: headquarters-among-area-terrain.
    """
    return And(area_terrain, points >= highest_area_terrain_points)


def headquarters_candidates(collection: Sequence[terrain.TerrainDatasheet]) -> tuple[str, ...]:
    """The datasheets (titles) whose feature a player may declare for Operational Headquarters (none without Area
    Terrain)."""
    highest = max((sheet.terrain_points for sheet in collection if _is_area_terrain(sheet)), default=0)
    return tuple(sheet.title for sheet in collection
                 if headquarters_eligible(_is_area_terrain(sheet), sheet.terrain_points, highest))


@rule("mission/protect-the-nerve-centre/secondary")
def may_select_operational_headquarters(collection: Sequence[terrain.TerrainDatasheet]) -> bool:
    """Whether a player can select Operational Headquarters: only with an Area Terrain feature to declare.

    Interpretation: headquarters-needs-area-terrain.
    """
    return bool(headquarters_candidates(collection))


@rule("mission/drawn-battle-lines/secondary")
def offensive_push(battle_round: Any, markers_controlled_in_opponent_territory: int,
                   markers_controlled_in_own_territory: int) -> Any:
    """Offensive Push at the end of a battle round: 3 for controlling more markers in the opponent's territory than
    in the player's own."""
    return If(markers_controlled_in_opponent_territory > markers_controlled_in_own_territory, 3, 0)


@rule("mission/take-the-high-ground/secondary")
def the_high_ground(battle_round: Any, controls_tallest_in_own_territory: bool,
                    controls_tallest_in_opponent_territory: bool) -> Any:
    """The High Ground at the end of a battle round: 4 for controlling the tallest terrain feature of both
    territories."""
    return If(And(controls_tallest_in_own_territory, controls_tallest_in_opponent_territory), 4, 0)


@rule("mission/aggressive-strike/secondary")
def hard_push(battle_round: Any, player_a: bool, marker: str) -> Any:
    """Hard Push when the action completes at the end of the player's turn: the table's points for the marker it was
    performed on (the one it started on, controlled or not by then).

    Interpretation: player-a-is-a-side-of-the-map; push-scores-the-marker-it-started-on.
    """
    return table_points(HARD_PUSH_TABLE, marker_row(HARD_PUSH_TABLE, marker, "Hard Push"), player_a)


@rule("mission/protected-assets/secondary")
def vital_assets(battle_round: Any, qualifying_markers_in_own_territory: int,
                 qualifying_markers_controlled: int) -> Any:
    """Vital Assets at the end of a battle round: 3 for controlling all the markers of the player's territory that
    are on or within Area Terrain or wholly within 6" of an Obstacle (all of none included).

    Interpretation: vital-assets-all-of-none.
    """
    return If(qualifying_markers_controlled >= qualifying_markers_in_own_territory, 3, 0)


@rule("mission/deny-the-foe/secondary")
def deny_the_foe(battle_round: Any, controls_both_markers_in_own_territory: bool,
                 markers_controlled_in_opponent_territory: int) -> Any:
    """Deny the Foe at the end of a battle round: 2 for both markers of the player's territory, 3 for one or more in
    the opponent's (any or all), nothing in the first battle round."""
    points = (If(controls_both_markers_in_own_territory, 2, 0)
              + If(markers_controlled_in_opponent_territory >= 1, 3, 0))
    return If(battle_round == 1, 0, points)


@rule("mission/stand-your-ground/secondary")
def stand_your_ground(battle_round: Any, markers_a_controlled: int) -> Any:
    """Stand Your Ground at the end of a battle round: 2 for one of the markers labelled A, 5 for both, nothing in
    the first battle round."""
    points = If(markers_a_controlled >= 2, 5, If(markers_a_controlled >= 1, 2, 0))
    return If(battle_round == 1, 0, points)


@rule("mission/smashed-bastions/secondary")
def aggressive_capitulation(battle_round: Any, controls_both_markers_in_opponent_deployment_zone: bool) -> Any:
    """Aggressive Capitulation at the end of the player's Command phase: 5 for both markers wholly within the
    opponent's deployment zone, nothing in the first battle round."""
    return If(battle_round == 1, 0, If(controls_both_markers_in_opponent_deployment_zone, 5, 0))


_ROUND = (Timing.END_OF_BATTLE_ROUND,)
_COMMAND = (Timing.END_OF_COMMAND_PHASE,)
_ACTION = (Timing.ACTION_COMPLETED,)

SECONDARIES: dict[str, Objective] = {o.name: o for o in (
    _secondary("seize-ground", "Seize Ground", ("seize-ground",), _ROUND, seize_ground, side_fact=PLAYER_A),
    _secondary("measured-advance", "Measured Advance", ("steady-advance",), _ROUND, measured_advance),
    _secondary("vantage-point", "Vantage Point", ("vantage-point",), _ROUND, vantage_point),
    _secondary("vital-ground", "Vital Ground", ("meeting-engagement",), _COMMAND, vital_ground, first_round=False),
    _secondary("forward-push", "Forward Push", ("forward-outpost",), _ACTION, forward_push, action="Forward Push",
               side_fact=PLAYER_A),
    _secondary("secure-strongholds", "Secure Strongholds", ("base-of-operations", "entrenched-defences"), _COMMAND,
               secure_strongholds, first_round=False),
    _secondary("spoils-of-audacity", "Spoils of Audacity", ("firesweep",), _COMMAND, spoils_of_audacity,
               first_round=False),
    _secondary("bounding-advance", "Bounding Advance", ("denied-front",), _ROUND, bounding_advance,
               first_round=False),
    _secondary("encirclement", "Encirclement", ("encircling-manoeuvre",), _ROUND, encirclement),
    _secondary("operational-headquarters", "Operational Headquarters", ("protect-the-nerve-centre",),
               (Timing.END_OF_BATTLE_ROUND, Timing.END_OF_BATTLE), operational_headquarters, first_round=False),
    _secondary("offensive-push", "Offensive Push", ("drawn-battle-lines",), _ROUND, offensive_push),
    _secondary("the-high-ground", "The High Ground", ("take-the-high-ground",), _ROUND, the_high_ground),
    _secondary("hard-push", "Hard Push", ("aggressive-strike",), _ACTION, hard_push, action="Hard Push",
               side_fact=PLAYER_A),
    _secondary("vital-assets", "Vital Assets", ("protected-assets",), _ROUND, vital_assets, limits=(
        ("qualifying_markers_controlled", "qualifying_markers_in_own_territory",
         "the qualifying objective markers a player controls are among those of their territory"),)),
    _secondary("deny-the-foe", "Deny the Foe", ("deny-the-foe",), _ROUND, deny_the_foe, first_round=False, limits=(
        ("markers_controlled_in_opponent_territory", 2, "each player's territory holds two objective markers ('both "
         "the objective markers in your territory')"),)),
    _secondary("stand-your-ground", "Stand Your Ground", ("stand-your-ground",), _ROUND, stand_your_ground,
               first_round=False, limits=(("markers_a_controlled", 2, "the mission has two objective markers labelled "
                                           "A ('both of the objective markers labelled A')"),)),
    _secondary("aggressive-capitulation", "Aggressive Capitulation", ("smashed-bastions",), _COMMAND,
               aggressive_capitulation, first_round=False),
)}


def secondary_of(slug: str) -> Objective:
    """A mission's own secondary objective."""
    return SECONDARIES[mission(slug).secondary]


# --------------------------------------------------------------------------
# Steady Advance: Sweep and Clear

NOBODY = 0  # the controller of a marker neither player controls

SWEEP_AND_CLEAR = DecisionTable(
    name="sweep-and-clear",
    refs=("mission/steady-advance/rules",),
    inputs=(Var("held_by", 0, 2), Var("by_models", 0, 2), Var("end_of_phase", kind="bool")),
    # held_by: the player who controlled the marker at the end of their Command phase and still keeps it;
    # by_models: who controls it by the basic rules (more models in range, Objective Secured).
    rows=(
        Row("the opponent controls it at the end of a later phase: it is theirs",
            lambda held_by, by_models, end_of_phase:
                And(held_by != NOBODY, by_models != NOBODY, by_models != held_by, end_of_phase),
            lambda by_models, **_: by_models,
            overrides=("held: it remains under its player's control, even with no models in range",)),
        Row("held: it remains under its player's control, even with no models in range",
            lambda held_by, **_: held_by != NOBODY, lambda held_by, **_: held_by),
        Row("held by nobody: controlled as the basic rules say", lambda held_by, **_: held_by == NOBODY,
            lambda by_models, **_: by_models),
    ),
    notes={"held": "Interpretation: sweep-and-clear-until-end-of-phase."},
)


@rule("mission/steady-advance/rules")
def sweep_and_clear_controller(held_by: Any, by_models: Any, end_of_phase: Any) -> Any:
    """Who controls an objective marker in Steady Advance: a held marker stays with its player, even with no models
    in range, until the opponent controls it at the end of a phase.

    Interpretation: sweep-and-clear-until-end-of-phase.
    """
    return SWEEP_AND_CLEAR(held_by=held_by, by_models=by_models, end_of_phase=end_of_phase)


@rule("mission/steady-advance/rules")
def sweep_and_clear_holder(held_by: Any, by_models: Any, end_of_phase: Any, command_phase_of: Any = NOBODY) -> Any:
    """Who holds a marker after a moment: the player who controls it at the end of their Command phase holds it;
    the hold ends when the opponent takes it. ``command_phase_of``: whose Command phase just ended, 0 for none.
    """
    controller = sweep_and_clear_controller(held_by, by_models, end_of_phase)
    kept = If(And(held_by != NOBODY, controller != held_by), NOBODY, held_by)
    return If(And(command_phase_of != NOBODY, controller == command_phase_of), command_phase_of, kept)


# --------------------------------------------------------------------------
# Base of Operations: the critical feature by the terrain marker


@rule("mission/base-of-operations/rules")
def base_of_operations_eligible(critical_feature: Any, collection_has_critical_feature: Any, points: Any,
                                highest_points: Any) -> Any:
    """Whether a datasheet may be the one placed within 9" of the player's terrain marker: one with CRITICAL FEATURE if
    the collection has any, else one of the highest terrain cost (the player chooses among ties)."""
    return If(collection_has_critical_feature, critical_feature, points >= highest_points)


@rule("mission/base-of-operations/rules")
def base_of_operations_gains(collection_has_critical_feature: Any, has_heavy_cover: Any) -> tuple[Any, Any]:
    """What the placed datasheet gains for the battle: (CRITICAL FEATURE, Heavy Cover), both only when the collection
    had no CRITICAL FEATURE datasheet, Heavy Cover only if it lacks it."""
    gains_keyword = Not(collection_has_critical_feature)
    return gains_keyword, And(gains_keyword, Not(has_heavy_cover))


def base_of_operations_choices(collection: Sequence[terrain.TerrainDatasheet]) -> tuple[str, ...]:
    """The datasheets (titles) of a collection a player may place within 9" of the terrain marker in their
    territory."""
    any_critical = any(_is_critical(sheet) for sheet in collection)
    highest = max((sheet.terrain_points for sheet in collection), default=0)
    return tuple(sheet.title for sheet in collection
                 if base_of_operations_eligible(_is_critical(sheet), any_critical, sheet.terrain_points, highest))


@rule("mission/base-of-operations/rules", "sequence/10-set-up-tactical-terrain")
def base_of_operations_setup_order(collection: Sequence[terrain.TerrainDatasheet], title: str) -> list[str]:
    """The order a player sets up their collection in Base of Operations: the datasheet the mission rules place by
    the terrain marker (``title``) first, as the first feature the terrain-marker rule puts there, then the rest
    highest terrain points first (step 10).

    Interpretation: base-of-operations-placed-first.
    """
    base_of_operations_placement(collection, title)  # refuses a datasheet the mission rules do not allow there
    rest = list(collection)
    rest.remove(next(sheet for sheet in collection if sheet.title == title))
    return [title] + [sheet.title for sheet in sequence.terrain_setup_order([sequence.collected(s) for s in rest])]


def base_of_operations_placement(collection: Sequence[terrain.TerrainDatasheet],
                                 title: str) -> terrain.TerrainDatasheet:
    """The chosen datasheet as it stands in the battle, the keyword and trait it gains included.

    Interpretation: base-of-operations-whole-datasheet.
    """
    choices = base_of_operations_choices(collection)
    if title not in choices:
        raise ValueError(f"Base of Operations: {title!r} cannot be the datasheet placed by the terrain marker "
                         f"(the collection allows {', '.join(choices) or 'none'})")
    sheet = next(s for s in collection if s.title == title)
    any_critical = any(_is_critical(s) for s in collection)
    has_heavy_cover = any(terrain.trait_named(t).trait == terrain.Trait.HEAVY_COVER for t in sheet.traits)
    keyword, heavy_cover = base_of_operations_gains(any_critical, has_heavy_cover)
    return replace(sheet, other_keywords=sheet.other_keywords + ((CRITICAL_FEATURE,) if keyword else ()),
                   traits=sheet.traits + ((HEAVY_COVER,) if heavy_cover else ()))
