"""Battle sizes and the tables the sequence keys by them: steps 1, 2, 3 and 6 of a Tactical Deployment game.

Each table is kept twice over in one place: as the book's rows (``BATTLES``, ``ARMY``, ``TACTICAL_TERRAIN``,
``BATTLEFIELDS``, compared cell by cell with the ingested tables by a test) and, per numeric column, as a
first-match ``DecisionTable`` over the battle size built from those rows, so z3 can check each column (no gap,
no unreachable row) and prove what the book implies about them (a bigger battle never gets less of anything).

A battle size is written as the book names it ("Strike Force") or as its index in ``BATTLE_SIZES``
(0 Combat Patrol .. 3 Onslaught, also ``BattleSize``); the dual-mode functions take either, or a z3 integer.
"""

from __future__ import annotations

import enum
from typing import Any

from rules.logic import DecisionTable, Or, Row, Var
from rules.registry import ruleset_rule

rule = ruleset_rule("missionpack")

# The four battle sizes, smallest first (step 1); their index is the battle size the dual-mode tables read.
BATTLE_SIZES = ("Combat Patrol", "Incursion", "Strike Force", "Onslaught")


class BattleSize(enum.IntEnum):
    """A battle size by its index in ``BATTLE_SIZES`` (so the tables can compare sizes)."""

    COMBAT_PATROL = 0
    INCURSION = 1
    STRIKE_FORCE = 2
    ONSLAUGHT = 3

    @property
    def title(self) -> str:
        return BATTLE_SIZES[self.value]


class BattleSizeError(ValueError):
    """A battle size the pack does not have; the message lists the four it has."""


def battle_size_index(battle_size: Any) -> Any:
    """The index of a battle size given by name ("Strike Force", any case), ``BattleSize``, index or z3 term."""
    if isinstance(battle_size, enum.Enum):
        return battle_size.value
    if isinstance(battle_size, str):
        for index, title in enumerate(BATTLE_SIZES):
            if title.lower() == battle_size.strip().lower():
                return index
        raise BattleSizeError(f"{battle_size!r} is not a battle size (the pack has {', '.join(BATTLE_SIZES)})")
    if isinstance(battle_size, int) and not isinstance(battle_size, bool) and not 0 <= battle_size < len(BATTLE_SIZES):
        raise BattleSizeError(f"battle size index {battle_size} is not 0 to {len(BATTLE_SIZES) - 1}")
    return battle_size


# --------------------------------------------------------------------------
# The book's rows


# 1. SELECT BATTLE SIZE, table BATTLES: battle size, battle duration ("Up to N hour(s)": N).
BATTLES = (
    ("Combat Patrol", 1),
    ("Incursion", 2),
    ("Strike Force", 3),
    ("Onslaught", 4),
)

# 2. MUSTER ARMIES, table ARMY: battle size, points limit, Command points.
ARMY = (
    ("Combat Patrol", 500, 3),
    ("Incursion", 1000, 6),
    ("Strike Force", 2000, 12),
    ("Onslaught", 3000, 18),
)

# 3. GATHER TACTICAL TERRAIN, the table (also headed ARMY in the pack, see the finding terrain-table-headed-army):
# battle size, minimum number of terrain datasheets, maximum times each datasheet can be repeated, maximum times
# each CRITICAL FEATURE datasheet can be repeated, minimum terrain points, maximum terrain points.
TACTICAL_TERRAIN = (
    ("Combat Patrol", 2, 1, 1, 50, 100),
    ("Incursion", 3, 2, 1, 100, 150),
    ("Strike Force", 4, 3, 1, 150, 200),
    ("Onslaught", 5, 4, 2, 300, 400),
)

# 6. CREATE THE BATTLEFIELD, table BATTLEFIELDS: the battle sizes of the row (the first row serves two), Battlezone
# boards, and the approximate battlefield in inches (width, depth) as printed: 'approximately 44" x 30"'.
BATTLEFIELDS = (
    (("Combat Patrol", "Incursion"), 2, 44, 30),
    (("Strike Force",), 4, 44, 60),
    (("Onslaught",), 6, 44, 90),
)


def _by_size(name: str, ref: str, rows: tuple, column: int, sizes_of=lambda row: (row[0],)) -> DecisionTable:
    """One numeric column of a book table as a first-match table over the battle size, one row per book row."""
    def when(sizes: tuple[str, ...]):
        indexes = tuple(BATTLE_SIZES.index(size) for size in sizes)
        return lambda battle_size: Or(*(battle_size == index for index in indexes))

    return DecisionTable(
        name=name,
        refs=(ref,),
        inputs=(Var("battle_size", 0, len(BATTLE_SIZES) - 1),),
        rows=tuple(Row("/".join(sizes_of(row)), when(sizes_of(row)), row[column]) for row in rows),
    )


BATTLE_DURATION = _by_size("battle-duration-hours", "sequence/01-select-battle-size", BATTLES, 1)
POINTS_LIMIT = _by_size("points-limit", "sequence/02-muster-armies", ARMY, 1)
COMMAND_POINTS = _by_size("starting-command-points", "sequence/02-muster-armies", ARMY, 2)
MINIMUM_TERRAIN_DATASHEETS = _by_size("minimum-terrain-datasheets", "sequence/03-gather-tactical-terrain",
                                      TACTICAL_TERRAIN, 1)
MAXIMUM_DATASHEET_REPEATS = _by_size("maximum-terrain-datasheet-repeats", "sequence/03-gather-tactical-terrain",
                                     TACTICAL_TERRAIN, 2)
MAXIMUM_CRITICAL_FEATURE_REPEATS = _by_size("maximum-critical-feature-repeats", "sequence/03-gather-tactical-terrain",
                                            TACTICAL_TERRAIN, 3)
MINIMUM_TERRAIN_POINTS = _by_size("minimum-terrain-points", "sequence/03-gather-tactical-terrain", TACTICAL_TERRAIN, 4)
MAXIMUM_TERRAIN_POINTS = _by_size("maximum-terrain-points", "sequence/03-gather-tactical-terrain", TACTICAL_TERRAIN, 5)
BATTLEZONE_BOARDS = _by_size("battlezone-boards", "sequence/06-create-the-battlefield", BATTLEFIELDS, 1,
                             sizes_of=lambda row: row[0])
BATTLEFIELD_WIDTH = _by_size("battlefield-width", "sequence/06-create-the-battlefield", BATTLEFIELDS, 2,
                             sizes_of=lambda row: row[0])
BATTLEFIELD_DEPTH = _by_size("battlefield-depth", "sequence/06-create-the-battlefield", BATTLEFIELDS, 3,
                             sizes_of=lambda row: row[0])


# --------------------------------------------------------------------------
# The functions (each looks its table up at call time, so a test can swap in a broken copy)


@rule("sequence/01-select-battle-size")
def battle_duration_hours(battle_size: Any) -> Any:
    """The rough guide to a battle's length: a battle of this size should take up to this many hours."""
    return BATTLE_DURATION(battle_size=battle_size_index(battle_size))


@rule("sequence/02-muster-armies")
def points_limit(battle_size: Any) -> Any:
    """The points limit of each player's army for the battle size."""
    return POINTS_LIMIT(battle_size=battle_size_index(battle_size))


@rule("sequence/02-muster-armies")
def starting_command_points(battle_size: Any) -> Any:
    """The Command points each player starts mustering their army with, for the battle size."""
    return COMMAND_POINTS(battle_size=battle_size_index(battle_size))


@rule("sequence/02-muster-armies")
def within_points_limit(battle_size: Any, army_points: Any) -> Any:
    """Whether an army's points fit the battle size's points limit (a limit: equal to it is allowed)."""
    return army_points <= points_limit(battle_size)


@rule("sequence/03-gather-tactical-terrain")
def minimum_terrain_datasheets(battle_size: Any) -> Any:
    """How many terrain datasheets a Tactical Terrain collection must include at least.

    Interpretation: terrain-minimum-counts-inclusions.
    """
    return MINIMUM_TERRAIN_DATASHEETS(battle_size=battle_size_index(battle_size))


@rule("sequence/03-gather-tactical-terrain")
def maximum_datasheet_repeats(battle_size: Any) -> Any:
    """How many times each Tactical Terrain datasheet can be included in the same collection at most."""
    return MAXIMUM_DATASHEET_REPEATS(battle_size=battle_size_index(battle_size))


@rule("sequence/03-gather-tactical-terrain")
def maximum_critical_feature_repeats(battle_size: Any) -> Any:
    """How many times each CRITICAL FEATURE terrain datasheet can be included in the same collection at most."""
    return MAXIMUM_CRITICAL_FEATURE_REPEATS(battle_size=battle_size_index(battle_size))


@rule("sequence/03-gather-tactical-terrain")
def minimum_terrain_points(battle_size: Any) -> Any:
    """The fewest terrain points a collection may total for the battle size."""
    return MINIMUM_TERRAIN_POINTS(battle_size=battle_size_index(battle_size))


@rule("sequence/03-gather-tactical-terrain")
def maximum_terrain_points(battle_size: Any) -> Any:
    """The most terrain points a collection may total for the battle size."""
    return MAXIMUM_TERRAIN_POINTS(battle_size=battle_size_index(battle_size))


@rule("sequence/06-create-the-battlefield")
def battlezone_boards(battle_size: Any) -> Any:
    """How many Battlezone boards make the battlefield for the battle size (Combat Patrol and Incursion share a row)."""
    return BATTLEZONE_BOARDS(battle_size=battle_size_index(battle_size))


@rule("sequence/06-create-the-battlefield")
def battlefield_size(battle_size: Any) -> tuple[Any, Any]:
    """The approximate battlefield, width by depth in inches, for the battle size."""
    index = battle_size_index(battle_size)
    return BATTLEFIELD_WIDTH(battle_size=index), BATTLEFIELD_DEPTH(battle_size=index)
