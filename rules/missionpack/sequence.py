"""The sequence of a Tactical Deployment game (steps 1-17), the Tactical Terrain roster and mission objective types.

The battle-size tables live in ``rules.missionpack.battle_sizes`` (re-exported here). This module holds what the
steps decide over plain data: whether a mustered army (step 2) and a Tactical Terrain collection (step 3) are
legal, who chooses what after each roll-off (8, 9, 14), the order players alternate in (10, 13, 15), where a
terrain feature may be set up (10), the reserves limits and deadlines (12), where a model may be deployed (13)
and when the battle ends (16, 17, ending early). Step 4's tables are the missions module's, step 11's and 18's
scoring is ``rules.missionpack.scoring``'s.

Decision cores are dual-mode (``rules.logic``); validators over lists and dataclasses are plain Python built on
them and return the problems they find as sentences (an empty list: legal).
"""

from __future__ import annotations

import enum
import re
from collections import Counter
from dataclasses import dataclass
from typing import Any, Sequence

from rules.logic import And, DecisionTable, If, Implies, Not, Or, Row, Var
from rules.missionpack import battle_sizes, terrain
from rules.missionpack.battle_sizes import (  # noqa: F401  (re-exported: one definition of the battle sizes)
    BATTLE_SIZES,
    BattleSize,
    BattleSizeError,
    battle_size_index,
)
from rules.missionpack.scoring import BATTLE_ROUNDS
from rules.registry import ruleset_rule

rule = ruleset_rule("missionpack")

MUSTER = "sequence/02-muster-armies"
GATHER = "sequence/03-gather-tactical-terrain"
ROSTER = "sequence/tactical-terrain-roster"
TERRAIN_SETUP = "sequence/10-set-up-tactical-terrain"
RESERVES = "sequence/12-declare-reserves-and-transports"
DEPLOY = "sequence/13-deploy-armies"
PRE_BATTLE = "sequence/15-resolve-pre-battle-abilities"

# Players before the roll-off of step 8 are 1 and 2; after it they are the Attacker and the Defender.
NOBODY = 0


class Role(enum.IntEnum):
    ATTACKER = 1
    DEFENDER = 2


ROLE_NAMES = {Role.ATTACKER: "attacker", Role.DEFENDER: "defender"}


def other_player(player: Any) -> Any:
    """The opponent of player 1 or 2 (the Defender of the Attacker and the other way round)."""
    return 3 - player


# --------------------------------------------------------------------------
# 2. Muster armies


FORBIDDEN_DETACHMENT_KEYWORDS = ("CHAOS", "IMPERIUM", "AELDARI", "YNNARI", "TYRANIDS")
KNIGHT_ARMY_FACTIONS = ("IMPERIAL KNIGHTS", "CHAOS KNIGHTS")
ROLES_WITHOUT_REPETITION_LIMIT = ("Troops", "Dedicated Transport")
DAEMON_PRINCES = ("Daemon Prince", "Daemon Prince of Chaos", "Daemon Prince of Nurgle", "Daemon Prince of Tzeentch")
GENESTEALER_CULTS = "Genestealer Cults"
ASTRA_MILITARUM = "Astra Militarum"
FORTIFICATION_NETWORK = "Fortification Network"


@dataclass(frozen=True)
class MusteredUnit:
    """A unit on an army roster: its datasheet's title, Battlefield Role, Faction keywords and Codex."""

    datasheet: str
    role: str
    faction_keywords: tuple[str, ...] = ()
    codex: str = ""
    understrength: bool = False
    reinforcement_points: bool = False  # added to the army during the battle at a cost of Reinforcement points


@dataclass(frozen=True)
class Detachment:
    """A Detachment of a Battle-forged army: its kind ("Patrol", "Super-heavy", "Fortification Network", ...)."""

    kind: str
    units: tuple[MusteredUnit, ...] = ()
    specialist: bool = False


@dataclass(frozen=True)
class Army:
    """An army roster as step 2 checks it: battle size, Army Faction, Detachments and points."""

    battle_size: str
    faction: str
    detachments: tuple[Detachment, ...] = ()
    points: int = 0


@rule(MUSTER)
def army_composition_allowed(understrength_units: Any, specialist_detachments: Any) -> Any:
    """Whether the army avoids the two things step 2 bans outright: Understrength units and Specialist Detachments."""
    return And(understrength_units == 0, specialist_detachments == 0)


@rule(MUSTER)
def detachment_keyword_allowed(keyword_is_forbidden: Any, fortification_network: Any) -> Any:
    """Whether a Faction keyword the Detachment's units share may be the one they have in common: not CHAOS,
    IMPERIUM, AELDARI, YNNARI or TYRANIDS, unless the Detachment is a Fortification Network.

    Interpretation: fortification-network-exception-scope.
    """
    return Or(Not(keyword_is_forbidden), fortification_network)


@rule(MUSTER)
def combat_patrol_detachments_allowed(knights_army: Any, patrol: Any, super_heavy: Any, other: Any) -> Any:
    """Whether a Combat Patrol army's Detachments are allowed: one Patrol Detachment and nothing else, or for an
    IMPERIAL KNIGHTS or CHAOS KNIGHTS army one Super-heavy Detachment and nothing else."""
    return If(knights_army, And(super_heavy == 1, patrol == 0, other == 0),
              And(patrol == 1, super_heavy == 0, other == 0))


DATASHEET_REPETITION = DecisionTable(
    name="datasheet-repetition-limit",
    refs=(MUSTER,),
    inputs=(Var("battle_size", 0, 3), Var("copies", 0, 6)),
    rows=(
        Row("Incursion: the same datasheet two times", lambda battle_size, copies: battle_size == BattleSize.INCURSION,
            lambda battle_size, copies: copies <= 2),
        Row("Strike Force: the same datasheet three times",
            lambda battle_size, copies: battle_size == BattleSize.STRIKE_FORCE,
            lambda battle_size, copies: copies <= 3),
        Row("Combat Patrol or Onslaught: no limit stated", lambda **_: True, True, otherwise=True),
    ),
    gap=False,
    notes={"gap": "The text limits repetition for Incursion and Strike Force only (finding "
                  "datasheet-repetition-limit-unstated)."},
)


@rule(MUSTER)
def datasheet_copies_allowed(battle_size: Any, copies: Any) -> Any:
    """Whether an army may include the same datasheet this many times (units subject to the limit only).

    Interpretation: repetition-limit-only-where-stated.
    """
    return DATASHEET_REPETITION(battle_size=battle_size_index(battle_size), copies=copies)


def _delete_words(title: str, words: str) -> str:
    return " ".join(re.sub(rf"\b{re.escape(words)}\b", " ", title).split())


@rule(MUSTER)
def same_datasheet_as(unit: MusteredUnit, astra_militarum_titles: Sequence[str] = ()) -> str:
    """The datasheet a unit counts as for the repetition limit: every Daemon Prince datasheet is one, and a Codex:
    Genestealer Cults title that matches a Codex: Astra Militarum title once 'Cult' or 'Brood Brothers' is
    deleted counts as that Astra Militarum datasheet (datasheets are otherwise told apart by title)."""
    if unit.datasheet in DAEMON_PRINCES:
        return DAEMON_PRINCES[0]
    if unit.codex == GENESTEALER_CULTS:
        for words in ("Cult", "Brood Brothers"):
            shortened = _delete_words(unit.datasheet, words)
            if shortened != unit.datasheet and shortened in astra_militarum_titles:
                return shortened
    return unit.datasheet


def _units(army: Army) -> list[MusteredUnit]:
    return [unit for detachment in army.detachments for unit in detachment.units]


@rule(MUSTER)
def datasheet_counts(army: Army) -> dict[str, int]:
    """How many times the army includes each datasheet that the repetition limit counts (Troops, Dedicated
    Transport and Reinforcement-point units are not counted)."""
    units = _units(army)
    # Only Astra Militarum titles in this army can change a count, so those are the ones matched against.
    astra = tuple(u.datasheet for u in units if u.codex == ASTRA_MILITARUM)
    counted = Counter(same_datasheet_as(u, astra) for u in units
                      if u.role not in ROLES_WITHOUT_REPETITION_LIMIT and not u.reinforcement_points)
    return dict(sorted(counted.items()))


def _shared_keywords(detachment: Detachment) -> set[str]:
    sets = [set(unit.faction_keywords) for unit in detachment.units]
    return set.intersection(*sets) if sets else set()


@rule(MUSTER)
def muster_problems(army: Army) -> list[str]:
    """Everything step 2 forbids in an army roster, as sentences (none: the army may be used).

    Interpretation: fortification-network-exception-scope.
    Interpretation: repetition-limit-only-where-stated.
    """
    size = battle_size_index(army.battle_size)
    problems = []
    if not battle_sizes.within_points_limit(size, army.points):
        problems.append(f"the army's {army.points} points exceed the {battle_sizes.points_limit(size)}-point limit "
                        f"of {BATTLE_SIZES[size]}")
    units = _units(army)
    understrength = [u.datasheet for u in units if u.understrength]
    specialist = [d.kind for d in army.detachments if d.specialist]
    if not army_composition_allowed(len(understrength), len(specialist)):
        if understrength:
            problems.append(f"Understrength units cannot be included: {', '.join(understrength)}")
        if specialist:
            problems.append(f"Specialist Detachments cannot be included: {', '.join(specialist)}")
    for number, detachment in enumerate(army.detachments, 1):
        if not detachment.units:
            continue
        network = detachment.kind == FORTIFICATION_NETWORK
        shared = _shared_keywords(detachment)
        usable = sorted(k for k in shared if detachment_keyword_allowed(k in FORBIDDEN_DETACHMENT_KEYWORDS, network))
        if not usable:
            problems.append(f"the units of Detachment {number} ({detachment.kind}) share no Faction keyword they may "
                            f"have in common (shared: {', '.join(sorted(shared)) or 'none'})")
    if size == BattleSize.COMBAT_PATROL:
        kinds = Counter(d.kind for d in army.detachments)
        patrol, super_heavy = kinds.get("Patrol", 0), kinds.get("Super-heavy", 0)
        other = len(army.detachments) - patrol - super_heavy
        knights = army.faction in KNIGHT_ARMY_FACTIONS
        if not combat_patrol_detachments_allowed(knights, patrol, super_heavy, other):
            wanted = "one Super-heavy Detachment" if knights else "one Patrol Detachment"
            problems.append(f"a Combat Patrol army of {army.faction} includes {wanted} and no other Detachment")
    for title, copies in datasheet_counts(army).items():
        if not datasheet_copies_allowed(size, copies):
            problems.append(f"{title} is included {copies} times; {BATTLE_SIZES[size]} allows the same datasheet "
                            f"{2 if size == BattleSize.INCURSION else 3} times")
    return problems


# --------------------------------------------------------------------------
# 3. Gather Tactical Terrain, and the Tactical Terrain roster


ALL_BATTLEZONES = "ALL BATTLEZONES"
CRITICAL_FEATURE = "CRITICAL FEATURE"
# The four terrain categories (terrain/categories): 1 Hills, 2 Obstacles, 3 Area Terrain, 4 Buildings.
TerrainCategory = terrain.Category


@dataclass(frozen=True)
class TerrainDatasheet:
    """What step 3 reads from a Tactical Terrain datasheet: title, terrain points, Battlezone keywords (or
    ALL BATTLEZONES), CRITICAL FEATURE, how many terrain features it describes and their category."""

    title: str
    points: int
    battlezones: tuple[str, ...] = ()
    critical_feature: bool = False
    features: int = 1
    category: TerrainCategory = TerrainCategory.AREA_TERRAIN


def collected(sheet: terrain.TerrainDatasheet) -> TerrainDatasheet:
    """A full Tactical Terrain datasheet (``rules.missionpack.terrain``) as step 3 reads it."""
    return TerrainDatasheet(sheet.title, sheet.terrain_points, tuple(sheet.battlezone_keywords),
                            CRITICAL_FEATURE in sheet.other_keywords, sheet.features,
                            terrain.category_named(sheet.category))


# The pack's own datasheet (terrain/datasheet/storage-fane), as the terrain module records it.
STORAGE_FANE = collected(terrain.STORAGE_FANE)


@rule(GATHER)
def collection_meets_table(battle_size: Any, datasheets_included: Any, terrain_points: Any, most_repeats: Any,
                           most_critical_feature_repeats: Any = 0) -> Any:
    """Whether a collection's totals meet the battle size's row: enough datasheets, terrain points between the
    minimum and maximum (both allowed), and no datasheet (nor CRITICAL FEATURE datasheet) repeated too often.

    Interpretation: terrain-minimum-counts-inclusions.
    Interpretation: terrain-points-between-inclusive.
    """
    size = battle_size_index(battle_size)
    return And(
        datasheets_included >= battle_sizes.minimum_terrain_datasheets(size),
        terrain_points >= battle_sizes.minimum_terrain_points(size),
        terrain_points <= battle_sizes.maximum_terrain_points(size),
        most_repeats <= battle_sizes.maximum_datasheet_repeats(size),
        most_critical_feature_repeats <= battle_sizes.maximum_critical_feature_repeats(size),
    )


@rule(GATHER)
def collection_battlezones(collection: Sequence[TerrainDatasheet]) -> list[str]:
    """The Battlezone keywords every datasheet of the collection has in common, those with ALL BATTLEZONES aside
    (none: the collection breaks the Battlezone rule, unless every datasheet has ALL BATTLEZONES)."""
    specific = [set(d.battlezones) for d in collection if ALL_BATTLEZONES not in d.battlezones]
    if not specific:
        return [ALL_BATTLEZONES] if collection else []
    return sorted(set.intersection(*specific))


@rule(GATHER)
def terrain_collection_problems(battle_size: Any, collection: Sequence[TerrainDatasheet]) -> list[str]:
    """Everything step 3 forbids in a Tactical Terrain collection (a datasheet listed once per inclusion), as
    sentences (none: the collection may be used).

    Interpretation: terrain-minimum-counts-inclusions.
    Interpretation: terrain-points-between-inclusive.
    """
    size = battle_size_index(battle_size)
    name = BATTLE_SIZES[size]
    counts = Counter(d.title for d in collection)
    critical = Counter(d.title for d in collection if d.critical_feature)
    points = sum(d.points for d in collection)
    problems = []
    if len(collection) < battle_sizes.minimum_terrain_datasheets(size):
        problems.append(f"{name} needs at least {battle_sizes.minimum_terrain_datasheets(size)} terrain datasheets, "
                        f"not {len(collection)}")
    low, high = battle_sizes.minimum_terrain_points(size), battle_sizes.maximum_terrain_points(size)
    if not low <= points <= high:
        problems.append(f"the collection totals {points} terrain points; {name} needs {low} to {high}")
    for title, copies in sorted(counts.items()):
        limit = (battle_sizes.maximum_critical_feature_repeats(size) if title in critical
                 else battle_sizes.maximum_datasheet_repeats(size))
        if copies > limit:
            kind = "CRITICAL FEATURE datasheet" if title in critical else "datasheet"
            problems.append(f"{title} is included {copies} times; {name} allows each {kind} {limit}")
    if collection and not collection_battlezones(collection):
        problems.append("the datasheets have no Battlezone keyword in common (nor ALL BATTLEZONES)")
    return problems


#: The steps after which a player provides a copy of their army roster for their opponent to read through.
ROSTER_EXCHANGE_STEPS = (2, 3)


@rule(MUSTER, GATHER)
def opponent_army_roster_read(steps_completed: Any) -> Any:
    """Whether a player has read their opponent's army roster once the first ``steps_completed`` steps are done:
    from the end of step 2 (muster armies), so before either player gathers Tactical Terrain; step 3's exchange is a
    second copy of the same roster.

    Interpretation: army-roster-read-after-muster.
    """
    return steps_completed >= ROSTER_EXCHANGE_STEPS[0]


@rule(ROSTER)
def tactical_terrain_roster(collection: Sequence[TerrainDatasheet]) -> dict[str, Any]:
    """The Tactical Terrain roster of a collection: one line per datasheet (quantity, terrain points), the total
    number of terrain features and the total terrain points.

    Interpretation: roster-quantity-counts-datasheets.
    """
    lines: dict[str, list[Any]] = {}
    for datasheet in collection:
        line = lines.setdefault(datasheet.title, [datasheet.title, 0, 0])
        line[1] += 1
        line[2] += datasheet.points
    return {
        "battlezone": ", ".join(collection_battlezones(collection)),
        "lines": list(lines.values()),
        "total_terrain_features": sum(d.features for d in collection),
        "total_terrain_points": sum(d.points for d in collection),
    }


# --------------------------------------------------------------------------
# 8, 9, 14. Roll-offs and choices


@rule("sequence/08-determine-attacker-and-defender")
def attacker(roll_off_winner: Any, winner_chooses_attacker: Any) -> Any:
    """Which player (1 or 2) is the Attacker: the roll-off winner decides, taking the role or giving it away."""
    return If(winner_chooses_attacker, roll_off_winner, other_player(roll_off_winner))


@rule("sequence/09-choose-deployment-zone")
def attacker_deployment_zone(defender_zone: Any) -> Any:
    """The Attacker's deployment zone (1 or 2): the one the Defender did not select."""
    return 3 - defender_zone


@rule("sequence/14-determine-first-turn")
def first_turn_player(roll_off_winner: Any, winner_takes_first_turn: Any) -> Any:
    """Who takes the first turn: the roll-off winner declares first or second."""
    return If(winner_takes_first_turn, roll_off_winner, other_player(roll_off_winner))


# --------------------------------------------------------------------------
# Alternation (10, 13, 15)


@rule(TERRAIN_SETUP, DEPLOY, PRE_BATTLE)
def next_to_alternate(first_done: Any, second_done: Any, first_total: Any, second_total: Any) -> Any:
    """Who goes next when players alternate, the player who starts being 1: 1 or 2, or 0 when both are done;
    once one player has nothing left, the other carries on with the rest.

    Interpretation: alternation-remainder.
    """
    first_left = first_done < first_total
    second_left = second_done < second_total
    return If(And(first_left, second_left), If(first_done <= second_done, 1, 2),
              If(first_left, 1, If(second_left, 2, NOBODY)))


def alternate(first: Sequence[Any], second: Sequence[Any]) -> list[tuple[int, Any]]:
    """The items of two players in the order they alternate (1 starts), each tagged with its player (1 or 2)."""
    done = [0, 0]
    items = (list(first), list(second))
    out: list[tuple[int, Any]] = []
    while (who := next_to_alternate(done[0], done[1], len(items[0]), len(items[1]))) != NOBODY:
        out.append((who, items[who - 1][done[who - 1]]))
        done[who - 1] += 1
    return out


# --------------------------------------------------------------------------
# 10. Set up Tactical Terrain

TERRAIN_MARKER_RANGE = 9  # wholly within 9" of the centre of a terrain marker
TERRAIN_CLEARANCE = 3  # not within 3" of the battlefield edge or of another terrain feature


@rule(TERRAIN_SETUP)
def terrain_setup_order(collection: Sequence[TerrainDatasheet]) -> list[TerrainDatasheet]:
    """The order a player sets up their collection: highest terrain points first; datasheets of equal cost in
    the order the player chose (the order they are listed in)."""
    return sorted(collection, key=lambda datasheet: -datasheet.points)


@rule(TERRAIN_SETUP)
def may_be_set_up_first(points: Any, highest_points: Any) -> Any:
    """Whether a datasheet may be the first a player sets up (the one the terrain-marker rule puts by a terrain
    marker): one of the highest terrain points cost in their collection, the player choosing among ties."""
    return points >= highest_points


@rule(TERRAIN_SETUP)
def terrain_setup_sequence(attacker_collection: Sequence[TerrainDatasheet],
                           defender_collection: Sequence[TerrainDatasheet]) -> list[tuple[str, str]]:
    """Who sets up which datasheet, in order: alternating one datasheet at a time from the Attacker, each player
    in their own cost order; once one player is done the other sets up the rest.

    Interpretation: alternation-remainder.
    """
    order = alternate(terrain_setup_order(attacker_collection), terrain_setup_order(defender_collection))
    return [(ROLE_NAMES[Role(who)], datasheet.title) for who, datasheet in order]


@rule(TERRAIN_SETUP)
def terrain_marker_rule_met(markers_in_territory: Any, markers_with_a_feature: Any,
                            distance_to_free_marker: Any) -> Any:
    """Whether a terrain feature meets the terrain-marker rule: while some terrain marker in the player's territory
    has no feature wholly within 9" of it, the next feature must be set up wholly within 9" of such a marker's
    centre (``distance_to_free_marker``: how far the feature's farthest part is from the closest such centre)."""
    return Implies(markers_with_a_feature < markers_in_territory, distance_to_free_marker <= TERRAIN_MARKER_RANGE)


@rule(TERRAIN_SETUP)
def may_stand_on_objective_marker(category: Any) -> Any:
    """Whether a terrain feature of this category may be set up on top of an objective marker (not Obstacles or
    Buildings)."""
    return Or(category == TerrainCategory.HILLS, category == TerrainCategory.AREA_TERRAIN)


@rule(TERRAIN_SETUP)
def objective_marker_moves(category: Any, on_objective_marker: Any) -> Any:
    """Whether an objective marker is moved on top of a terrain feature set up on it (a Hill or Area Terrain),
    as close as possible to where it was."""
    return And(on_objective_marker, may_stand_on_objective_marker(category))


@rule(TERRAIN_SETUP)
def terrain_feature_may_be_set_up(wholly_within_own_territory: Any, distance_to_battlefield_edge: Any,
                                  distance_to_other_terrain: Any, category: Any, on_objective_marker: Any,
                                  markers_in_territory: Any = 0, markers_with_a_feature: Any = 0,
                                  distance_to_free_marker: Any = 0, closer_terrain_allowed: Any = False) -> Any:
    """Whether a terrain feature may be set up where it is placed: wholly within its owner's territory, meeting the
    terrain-marker rule, more than 3" from the battlefield edge and (unless a rule allows it) from any other
    terrain feature, and not an Obstacle or Building on an objective marker. A datasheet's own rules prevail."""
    return And(
        wholly_within_own_territory,
        terrain_marker_rule_met(markers_in_territory, markers_with_a_feature, distance_to_free_marker),
        distance_to_battlefield_edge > TERRAIN_CLEARANCE,
        Or(closer_terrain_allowed, distance_to_other_terrain > TERRAIN_CLEARANCE),
        Implies(on_objective_marker, may_stand_on_objective_marker(category)),
    )


@rule(TERRAIN_SETUP)
def terrain_used_in_battle(collection: Sequence[TerrainDatasheet], cannot_be_set_up: Sequence[str] = ()) -> list[str]:
    """The datasheets of a collection used in the battle: a feature that cannot be set up is not used."""
    return [d.title for d in terrain_setup_order(collection) if d.title not in set(cannot_be_set_up)]


# --------------------------------------------------------------------------
# 12. Declare reserves and transports


@rule(RESERVES)
def reserve_units_allowed(reserve_units: Any, total_units: Any) -> Any:
    """Whether this many Strategic Reserve and/or Reinforcement units are allowed: no more than half the army's
    units (exactly half is allowed)."""
    return 2 * reserve_units <= total_units


@rule(RESERVES)
def reserve_points_allowed(reserve_points: Any, army_points: Any) -> Any:
    """Whether Strategic Reserve and Reinforcement units worth this many points are allowed: less than half the
    army's points (exactly half is not)."""
    return 2 * reserve_points < army_points


@rule(RESERVES)
def may_arrive_from_reserves(battle_round: Any) -> Any:
    """Whether Strategic Reserve and Reinforcement units may arrive on the battlefield in this battle round
    (never in the first)."""
    return battle_round >= 2


@rule(RESERVES)
def destroyed_in_reserves(battle_rounds_completed: Any, arrived: Any,
                          placed_in_reserves_after_battle_began: Any) -> Any:
    """Whether a Strategic Reserve or Reinforcement unit (and any unit embarked within it) counts as destroyed: it
    has not arrived by the end of the third battle round and was not put into Strategic Reserves after the first
    battle round started."""
    return And(Not(arrived), Not(placed_in_reserves_after_battle_began), battle_rounds_completed >= 3)


RESERVE_STARTS = ("strategic reserves", "elsewhere")


@dataclass(frozen=True)
class DeclaredUnit:
    """A unit as step 12 declares it: where it starts ("battlefield", "strategic reserves", or "elsewhere" for a
    Reinforcement unit), its points and the TRANSPORT it is embarked within, if any."""

    name: str
    points: int
    starts: str = "battlefield"
    embarked_in: str | None = None


def _off_the_battlefield(units: Sequence[DeclaredUnit]) -> list[DeclaredUnit]:
    by_name = {unit.name: unit for unit in units}

    def off(unit: DeclaredUnit, seen: frozenset = frozenset()) -> bool:
        if unit.starts in RESERVE_STARTS:
            return True
        carrier = by_name.get(unit.embarked_in or "")
        return carrier is not None and carrier.name not in seen and off(carrier, seen | {unit.name})

    return [unit for unit in units if off(unit)]


@rule(RESERVES)
def reserves_declaration(units: Sequence[DeclaredUnit]) -> dict[str, Any]:
    """The step 12 limits for an army's declaration: its Strategic Reserve and Reinforcement units (those embarked
    within such a TRANSPORT included) against half its units and half its points.

    Interpretation: embarked-units-count-against-unit-limit.
    """
    for unit in units:
        if unit.starts not in ("battlefield",) + RESERVE_STARTS:
            raise ValueError(f"{unit.name}: a unit starts on the battlefield, in strategic reserves or elsewhere, "
                             f"not {unit.starts!r}")
    off = _off_the_battlefield(units)
    reserve_points, army_points = sum(u.points for u in off), sum(u.points for u in units)
    return {
        "reserve_units": len(off),
        "total_units": len(units),
        "reserve_points": reserve_points,
        "army_points": army_points,
        "units_allowed": bool(reserve_units_allowed(len(off), len(units))),
        "points_allowed": bool(reserve_points_allowed(reserve_points, army_points)),
    }


# --------------------------------------------------------------------------
# 13. Deploy armies

FORTIFICATION_CLEARANCE = 3

# What a unit with a model too large for its deployment zone cannot do in the first battle round.
LARGE_MODEL_FIRST_ROUND_BANS = (
    "normal move", "advance", "fall back", "manifest psychic power", "deny psychic power", "ranged attack",
    "declare charge", "heroic intervention", "action", "psychic action",
)


@rule(DEPLOY)
def deployment_order(defender_units: Sequence[str], attacker_units: Sequence[str]) -> list[tuple[str, str]]:
    """Who sets up which unit, in order: alternating one unit at a time from the Defender; once one player has
    deployed all their units, the other deploys the rest."""
    order = alternate(defender_units, attacker_units)
    return [(ROLE_NAMES[Role.DEFENDER if who == 1 else Role.ATTACKER], unit) for who, unit in order]


@rule(DEPLOY)
def too_large_for_deployment_zone(smallest_dimension: Any, deployment_zone_depth: Any) -> Any:
    """Whether a model is too large to be set up wholly within its deployment zone: its smallest dimension is
    greater than the zone's depth."""
    return smallest_dimension > deployment_zone_depth


@rule(DEPLOY)
def model_deployment_allowed(wholly_within_deployment_zone: Any, too_large: Any, touching_battlefield_edge: Any) -> Any:
    """Whether a model is set up where step 13 allows: wholly within its deployment zone, or, for a model too large
    for it, touching its own battlefield edge."""
    return If(too_large, touching_battlefield_edge, wholly_within_deployment_zone)


@rule(DEPLOY)
def large_model_unit_may(activity: str, battle_round: Any) -> Any:
    """Whether the unit of a model set up touching the battlefield edge because of its size may do this (one of
    ``LARGE_MODEL_FIRST_ROUND_BANS`` or anything else) in this battle round: none of those in the first."""
    if activity not in LARGE_MODEL_FIRST_ROUND_BANS:
        return True
    return battle_round != 1


@rule(DEPLOY)
def large_model_counted_move(move: Any, maximum_move: Any = None) -> Any:
    """How far such a model counts as having moved in its first Movement phase: its Move, or its maximum Move if
    it has a minimum Move."""
    return move if maximum_move is None else maximum_move


@rule(DEPLOY)
def fortification_placement_allowed(distance_to_nearest_terrain: Any) -> Any:
    """Whether a unit with the Fortifications Battlefield Role may be set up this far from the nearest terrain
    feature (not within 3")."""
    return distance_to_nearest_terrain > FORTIFICATION_CLEARANCE


@rule(DEPLOY)
def first_after_deployment(attacker_has: Any, defender_has: Any, roll_off_winner: Any) -> Any:
    """Who sets up the first unit that deploys 'after both armies have deployed' (1 Attacker, 2 Defender, 0 none):
    the roll-off winner if both players have such units, otherwise the one who has them.

    Interpretation: alternation-remainder.
    """
    return If(And(attacker_has, defender_has), roll_off_winner,
              If(attacker_has, int(Role.ATTACKER), If(defender_has, int(Role.DEFENDER), NOBODY)))


# --------------------------------------------------------------------------
# 15. Resolve pre-battle abilities

PRE_BATTLE_STRATAGEM_STEP = DecisionTable(
    name="pre-battle-stratagem-step",
    refs=(MUSTER, RESERVES, PRE_BATTLE),
    inputs=(Var("upgrades_units", kind="bool"), Var("sets_up_elsewhere", kind="bool")),
    rows=(
        Row("upgrades units: used when mustering (step 2)", lambda upgrades_units, sets_up_elsewhere: upgrades_units,
            2, overrides=("sets up a unit elsewhere: used when declaring reserves (step 12)",
                          "any other Stratagem used before the battle: step 15")),
        Row("sets up a unit elsewhere: used when declaring reserves (step 12)",
            lambda upgrades_units, sets_up_elsewhere: sets_up_elsewhere, 12,
            overrides=("any other Stratagem used before the battle: step 15",)),
        Row("any other Stratagem used before the battle: step 15", lambda **_: True, 15, otherwise=True),
    ),
    notes={"overlap": "No Stratagem is known to do both; the upgrade rule is listed first, as step 2 comes first."},
)


@rule(MUSTER, RESERVES, PRE_BATTLE)
def pre_battle_stratagem_step(upgrades_units: Any, sets_up_elsewhere: Any) -> Any:
    """The step in which a Stratagem used before the battle is used: 2 if it upgrades units, 12 if it sets up a
    unit elsewhere than the battlefield, otherwise 15."""
    return PRE_BATTLE_STRATAGEM_STEP(upgrades_units=upgrades_units, sets_up_elsewhere=sets_up_elsewhere)


@rule(PRE_BATTLE)
def pre_battle_order(first_turn_items: Sequence[str], second_turn_items: Sequence[str]) -> list[tuple[str, str]]:
    """The order players resolve pre-battle abilities and Stratagems: alternating, starting with the player who
    takes the first turn.

    Interpretation: alternation-remainder.
    """
    return [("first" if who == 1 else "second", item) for who, item in alternate(first_turn_items, second_turn_items)]


# --------------------------------------------------------------------------
# 16, 17 and ending the battle early


@rule("sequence/16-begin-the-battle", "sequence/17-ending-the-battle", "sequence/ending-the-battle-early")
def battle_continues(battle_rounds_completed: Any, ended_by_agreement: Any = False, one_player_left: Any = False,
                     remaining_player_plays_on: Any = True) -> Any:
    """Whether another battle round (or turn) is played: not after five battle rounds, not once both players agreed
    to end the battle, and, when only one player is left (the other conceded or had no models at the start of
    their turn), only if that player chooses to play on."""
    return And(battle_rounds_completed < BATTLE_ROUNDS, Not(ended_by_agreement),
               Implies(one_player_left, remaining_player_plays_on))


# --------------------------------------------------------------------------
# Mission objectives


class ObjectiveType(enum.IntEnum):
    """How a mission objective is scored: at the end of the battle, during it, or both."""

    END_GAME = 1
    PROGRESSIVE = 2
    PROGRESSIVE_AND_END_GAME = 3


@rule("mission-objectives")
def objective_may_score(objective_type: Any, end_of_battle: Any, scored_at_end_of_battle: Any = False) -> Any:
    """Whether an objective may score at this moment: End Game objectives once, at the end of the battle;
    Progressive ones during the battle, as often as the objective says (the scoring ledger asks this of every
    moment it replays, so the proof missionpack-end-game-scores-once-at-the-end is about what it runs)."""
    return If(end_of_battle,
              And(objective_type != ObjectiveType.PROGRESSIVE, Not(scored_at_end_of_battle)),
              objective_type != ObjectiveType.END_GAME)


@rule("mission-objectives")
def objective_type_from_timing(scores_during_battle: Any, scores_at_end_of_battle: Any) -> Any:
    """The type of an objective from when it scores (during the battle, at its end, or both)."""
    return If(And(scores_during_battle, scores_at_end_of_battle), ObjectiveType.PROGRESSIVE_AND_END_GAME,
              If(scores_at_end_of_battle, ObjectiveType.END_GAME, ObjectiveType.PROGRESSIVE))
