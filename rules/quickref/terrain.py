"""The sheet's terrain pieces (craters and rubble, hills, battlefield debris, woods, ruins, barricades and fuel
pipes): how models move over them, what they do to visibility, and when they give the Benefit of Cover."""

from __future__ import annotations

import enum
from typing import Any

from rules.logic import And, If, Not, Or
from rules.quickref.movement import TerrainPassage, terrain_passage
from rules.registry import ruleset_rule

rule = ruleset_rule("quickref")


class Position(enum.IntEnum):
    """Where a model stands relative to a piece of area terrain."""

    OUTSIDE = 0
    PARTLY_WITHIN = 1
    WHOLLY_WITHIN = 2


class FullyVisibleTo(enum.IntEnum):
    """To which models of the attacking unit the target model is fully visible."""

    NONE = 0  # not to the attacking model either
    SOME = 1  # to the attacking model, but not to every model of its unit
    EVERY = 2


class Keyword(enum.IntEnum):
    """The keyword that decides how a model deals with ruins."""

    INFANTRY = 1
    BEASTS = 2
    SWARM = 3
    FLY = 4
    MONSTER = 5
    VEHICLE = 6


class Sight(enum.IntEnum):
    """How well an observing model sees a target."""

    NOT_VISIBLE = 0
    VISIBLE = 1
    FULLY_VISIBLE = 2


# Movement ------------------------------------------------------------------------------------------------------


@rule("terrain/craters/movement", "terrain/hills/movement", "terrain/woods/movement")
def moves_as_normal(height: Any) -> Any:
    """Models move over it as the normal rules say: freely if 2" or less high, climbing if taller."""
    return terrain_passage(height)


def must_climb_as_normal(height: Any, infantry: Any) -> Any:
    """Whether a model must climb it (the comparison's question; the sheet asks only its height)."""
    return moves_as_normal(height) == TerrainPassage.CLIMB


@rule("terrain/debris/movement", "terrain/barricades/movement")
def may_cross(height: Any, infantry: Any) -> Any:
    """Models can move up, over and down it."""
    return True


@rule("terrain/debris/end-on-top", "terrain/barricades/end-on-top")
def may_end_on_top(keyword: Any, stable_without_overhang: Any) -> Any:
    """No model can be set up or end a move on top of it."""
    return False


@rule("terrain/ruins/movement")
def ruins_movement(keyword: Any, stable_without_overhang: Any) -> tuple[Any, Any]:
    """(moves through, may be set up or end a move on its upper floors): INFANTRY, BEASTS and FLY models move
    through ruins normally and may stand on them if no base overhangs; other models neither."""
    listed = Or(keyword == Keyword.INFANTRY, keyword == Keyword.BEASTS, keyword == Keyword.FLY)
    return listed, And(listed, stable_without_overhang)


# Visibility ----------------------------------------------------------------------------------------------------


@rule("terrain/craters/visibility", "terrain/hills/visibility", "terrain/debris/visibility",
      "terrain/barricades/visibility", "terrain/woods/see-out", "terrain/ruins/see-in-and-out")
def visible_as_normal(line_of_sight: Any, every_line_crosses_it: Any) -> Any:
    """Visibility as normal: a model is visible if a line of sight reaches it, whatever terrain the line crosses
    (for woods and ruins: when the observer, or the target, is within them)."""
    return line_of_sight


@rule("terrain/woods/never-fully-visible")
def fully_visible(wholly_within_woods: Any, every_facing_part_seen: Any) -> Any:
    """A model wholly within woods is never fully visible; otherwise it is when every facing part can be seen."""
    return And(Not(wholly_within_woods), every_facing_part_seen)


@rule("terrain/woods/looking-through")
def sight_through_woods(observer_aircraft_or_towering: Any, every_facing_part_seen: Any) -> Any:
    """Looking through or over woods no target is fully visible, except to AIRCRAFT and TOWERING models."""
    full = And(observer_aircraft_or_towering, every_facing_part_seen)
    return If(full, Sight.FULLY_VISIBLE, Sight.VISIBLE)


@rule("terrain/ruins/no-sight-through")
def sight_through_ruins(observer_aircraft_or_towering: Any, every_facing_part_seen: Any) -> Any:
    """Nothing is seen over or through ruins, except by AIRCRAFT and TOWERING models, which see normally."""
    return If(observer_aircraft_or_towering, If(every_facing_part_seen, Sight.FULLY_VISIBLE, Sight.VISIBLE),
              Sight.NOT_VISIBLE)


# Benefit of Cover ----------------------------------------------------------------------------------------------


@rule("terrain/craters/cover")
def cover_if_wholly_within(infantry: Any, position: Any, fully_visible_to: Any) -> Any:
    """Craters and rubble give the Benefit of Cover to a model wholly within them."""
    return position == Position.WHOLLY_WITHIN


@rule("terrain/hills/cover", "terrain/debris/cover")
def cover_if_not_fully_visible(infantry: Any, position: Any, fully_visible_to: Any) -> Any:
    """The Benefit of Cover for a model not fully visible to every model in the attacking unit.

    Interpretation: quickref-not-fully-visible-to-every-model.
    """
    return fully_visible_to != FullyVisibleTo.EVERY


@rule("terrain/woods/cover", "terrain/ruins/cover")
def cover_if_wholly_within_or_hidden(infantry: Any, position: Any, fully_visible_to: Any) -> Any:
    """Woods and ruins: the Benefit of Cover if wholly within, or not fully visible to every model in the firing unit.

    Interpretation: quickref-not-fully-visible-to-every-model.
    """
    return Or(position == Position.WHOLLY_WITHIN, fully_visible_to != FullyVisibleTo.EVERY)


BARRICADE_COVER_DISTANCE = 3


@rule("terrain/barricades/cover")
def cover_behind_barricade(infantry: Any, position: Any, fully_visible_to: Any, within_3: Any) -> Any:
    """Barricades and fuel pipes: the Benefit of Cover if within 3" of them and not fully visible to every model in
    the attacking unit.

    Interpretation: quickref-not-fully-visible-to-every-model.
    """
    return And(within_3, fully_visible_to != FullyVisibleTo.EVERY)


# Fighting across barricades -----------------------------------------------------------------------------------

ACROSS_DISTANCE = 2


@rule("terrain/barricades/charge")
def charge_ends_close_enough(distance_to_enemy: Any) -> Any:
    """A charge against an enemy within 1" of a barricade succeeds ending against the barricade within 2" of it."""
    return distance_to_enemy <= ACROSS_DISTANCE


@rule("terrain/barricades/fight")
def may_fight_across(distance_to_enemy: Any) -> Any:
    """Models are eligible to fight targets on the other side of a barricade within 2"."""
    return distance_to_enemy <= ACROSS_DISTANCE
