"""999.m41's General Principles (chapter 2): measuring, dice (d3, d66, the scatter dice), modifying rolls against
thresholds, re-rolls, line of sight, casualties, blast markers and scatter, game turns and player turns.

Every number here comes from 004's text (spec/m41/chapters/03-principles.yaml); probabilities are exact Fractions.
"""

from __future__ import annotations

import enum
from fractions import Fraction
from typing import Any, Iterable, Sequence

from rules.dice import convolve
from rules.logic import And, If, Max, Min, Not, Or
from rules.registry import ruleset_rule

rule = ruleset_rule("m41")

D6_FACES = range(1, 7)


# -- Measuring ---------------------------------------------------------------------------------------------------------


@rule("principles/measuring-distances")
def distance_between_objects(point_to_point_distances: Sequence[Any]) -> Any:
    """The distance between two models or objects, given the distances between pairs of their points: always from
    the closest point to the closest point, so the smallest of them."""
    return Min(*point_to_point_distances)


@rule("principles/measuring-distances")
def distance_between_units(model_to_model_distances: Sequence[Sequence[Any]]) -> Any:
    """The distance between two units, given each pair of models' distances (one row per model of the first unit):
    measured between the closest models of the two units."""
    return Min(*(distance_between_objects(row) for row in model_to_model_distances))


class Phase(enum.IntEnum):
    """The three phases of a player turn, in the order they are played (principles/turn-overview)."""

    MOVEMENT = 1
    SHOOTING = 2
    ASSAULT = 3


@rule("principles/pre-measuring")
def may_measure(phase_the_distance_is_for: Any, current_phase: Any, only_to_check: Any = False) -> Any:
    """Whether a distance may be measured: never out of its phase (no weapon ranges in the movement phase), freely in
    its phase (weapon ranges in the shooting phase), but never between units simply for the sake of checking."""
    return And(phase_the_distance_is_for == current_phase, Not(only_to_check))


# -- Dice --------------------------------------------------------------------------------------------------------------


@rule("principles/dice", "principles/d6-and-2d6")
def dice_total(faces: Sequence[Any]) -> Any:
    """The result of rolling nd6: roll the indicated number of six-sided dice and add them together."""
    total: Any = 0
    for face in faces:
        total = total + face
    return total


@rule("principles/dice", "principles/d6-and-2d6")
def nd6_distribution(count: int) -> dict[int, Fraction]:
    """The exact distribution of nd6 (the sum of ``count`` six-sided dice, each face 1/6)."""
    if count < 1:
        raise ValueError(f"nd6 rolls at least one dice, not {count}")
    one = {face: Fraction(1, len(D6_FACES)) for face in D6_FACES}
    total = one
    for _ in range(count - 1):
        total = convolve(total, one)
    return total


@rule("principles/d3")
def d3_from_d6(face: Any) -> Any:
    """A d3 is a d6 halved, rounding up: 1 or 2 = 1, 3 or 4 = 2, 5 or 6 = 3."""
    return If(face <= 2, 1, If(face <= 4, 2, 3))


@rule("principles/d3")
def d3_distribution() -> dict[int, Fraction]:
    """The exact distribution of a d3, read off the six faces of the d6 it is rolled with."""
    out: dict[int, Fraction] = {}
    for face in D6_FACES:
        value = d3_from_d6(face)
        out[value] = out.get(value, Fraction(0)) + Fraction(1, len(D6_FACES))
    return out


@rule("principles/d66")
def d66(first_die: Any, second_die: Any) -> Any:
    """A d66: two d6 rolled one after the other, the first counting as the tens and the second as the ones."""
    return 10 * first_die + second_die


@rule("principles/d66")
def d66_outcomes() -> list[int]:
    """Every result a d66 can give, each with chance 1/36: 11..16, 21..26, ..., 61..66."""
    return [d66(first, second) for first in D6_FACES for second in D6_FACES]


class ScatterFace(enum.IntEnum):
    """What a face of the scatter dice shows: an arrow (a direction) or the Hit! symbol."""

    ARROW = 0
    HIT = 1


# The printed text names the marks ("arrows and a Hit! symbol") but not how many faces carry which; the count is the
# interpretation principles-scatter-dice-hit-faces (spec/m41/annotations/interpretations/principles.yaml).
SCATTER_DICE_HIT_FACES = 2
SCATTER_DICE_FACES = 6


@rule("principles/scatter-dice")
def scatter_dice_faces() -> tuple[ScatterFace, ...]:
    """The six faces of the scatter dice: the Hit! faces, then the arrows."""
    return (ScatterFace.HIT,) * SCATTER_DICE_HIT_FACES + (ScatterFace.ARROW,) * (SCATTER_DICE_FACES
                                                                                - SCATTER_DICE_HIT_FACES)


@rule("principles/scatter-dice")
def scatter_hit_chance() -> Fraction:
    """The chance that the scatter dice shows a Hit!: Hit! faces out of all its faces."""
    faces = scatter_dice_faces()
    return Fraction(sum(1 for face in faces if face == ScatterFace.HIT), len(faces))


# -- Modifying rolls and thresholds ---------------------------------------------------------------------------------


@rule("principles/modifying-dice-rolls")
def modified_roll(roll: Any, modifier: Any) -> Any:
    """A roll noted d6 plus or minus a number: the number is added to (or subtracted from) the dice (d6+2 on a 1 to
    6 gives 3 to 8)."""
    return roll + modifier


@rule("principles/modifying-target-threshold")
def modified_threshold(threshold: Any, bonus: Any, roll_under: Any = False) -> Any:
    """The target threshold after a bonus (positive) or penalty (negative): the dice is unchanged and the threshold
    moves, down for a bonus on a roll that must reach it (a -1 to hit raises it by 1), up for a bonus on a roll
    that must not exceed it (a +1 to a leadership test)."""
    return If(roll_under, threshold + bonus, threshold - bonus)


@rule("principles/modifying-target-threshold")
def passes_threshold(roll: Any, threshold: Any, roll_under: Any = False) -> Any:
    """Whether an unmodified roll passes a threshold: at least it for an armour save or to hit, at most it for a
    leadership test."""
    return If(roll_under, roll <= threshold, roll >= threshold)


@rule("principles/re-rolls")
def may_re_roll(times_already_re_rolled: Any) -> Any:
    """Whether a dice may be re-rolled: no single dice is re-rolled more than once, whatever the source."""
    return times_already_re_rolled == 0


@rule("principles/re-rolls")
def result_after_re_roll(first_roll: Any, second_roll: Any, re_rolled: Any) -> Any:
    """The roll that counts: the second roll when the dice was re-rolled, even if it is worse than the first."""
    return If(re_rolled, second_roll, first_roll)


@rule("principles/re-rolls")
def pass_chance_re_rolling_failures(threshold: int) -> Fraction:
    """The exact chance of reaching ``threshold`` on a d6 when a failed roll is re-rolled once and the second roll
    counts: pass first, or fail and pass the re-roll."""
    passing = Fraction(sum(1 for face in D6_FACES if face >= threshold), len(D6_FACES))
    return passing + (1 - passing) * passing


# -- Line of sight, casualties ---------------------------------------------------------------------------------------


class Part(enum.IntEnum):
    """A part of a model a line of sight may be traced to or from."""

    HEAD = 1
    TORSO = 2
    ARMS = 3
    LEGS = 4
    BASE = 5
    WARGEAR = 6  # weapons, banners, wings, antennae, tails: extraneous features past the base


BODY = (Part.HEAD, Part.TORSO, Part.ARMS, Part.LEGS)


@rule("principles/line-of-sight")
def has_line_of_sight(unblocked_lines: Iterable[tuple[Part, Part]]) -> bool:
    """Whether a model sees another, given the unblocked straight lines (from a part of the viewer to a part of the
    target): one must run from the viewer's body (head, torso, arms or legs) to any part of the target's body; the
    base and extraneous wargear do not count."""
    return any(source in BODY and target in BODY for source, target in unblocked_lines)


@rule("principles/removed-as-a-casualty")
def counts_as_casualty(removed_as_casualty: Any, removed_from_play: Any = False, game_over: Any = False,
                       falling_back: Any = False, on_the_table: Any = True) -> Any:
    """Whether a model counts as a casualty: removed as one, removed from play by a special rule or attack, or, at the
    end of the game, in a unit falling back or not on the table (ongoing reserves and the like)."""
    return Or(removed_as_casualty, removed_from_play, And(game_over, Or(falling_back, Not(on_the_table))))


@rule("principles/removed-as-a-casualty")
def unit_destroyed(models_remaining: Any) -> Any:
    """A unit is destroyed when all of its models have been removed."""
    return models_remaining <= 0


# -- Blast markers, templates, scatter ------------------------------------------------------------------------------


class Template(enum.IntEnum):
    SMALL_BLAST = 1
    LARGE_BLAST = 2
    TEARDROP = 3


@rule("principles/blast-markers-and-templates")
def template_size(template: Template) -> Fraction:
    """The printed size in inches: a small blast 3" across, a large blast 5" across, the teardrop 8 1/4" long."""
    return {Template.SMALL_BLAST: Fraction(3), Template.LARGE_BLAST: Fraction(5),
            Template.TEARDROP: Fraction(33, 4)}[Template(template)]


@rule("principles/scatter")
def scatter_distance(face: Any, two_d6: Any, modifier: Any = 0) -> Any:
    """How far a scattered object moves, in inches: nowhere on a Hit!; on an arrow, the 2d6 total changed by any
    modifiers, and never less than nothing (interpretation principles-scatter-distance-floor)."""
    return If(face == ScatterFace.HIT, 0, Max(0, two_d6 + modifier))


@rule("principles/scatter")
def scatter_distance_distribution(modifier: int = 0) -> dict[int, Fraction]:
    """The exact distribution of a scatter's distance: each face of the scatter dice with each 2d6 total."""
    faces = scatter_dice_faces()
    out: dict[int, Fraction] = {}
    for face in faces:
        for total, chance in nd6_distribution(2).items():
            distance = scatter_distance(face, total, modifier)
            out[distance] = out.get(distance, Fraction(0)) + chance / len(faces)
    return dict(sorted(out.items()))


# -- Game turns and player turns ------------------------------------------------------------------------------------

PLAYER_TURNS_PER_GAME_TURN = 2


@rule("principles/game-turns-and-player-turns")
def game_turn_of(player_turn: Any) -> Any:
    """The game turn a player turn (counted from 1) belongs to: a game turn consists of both player turns."""
    return (player_turn + PLAYER_TURNS_PER_GAME_TURN - 1) / PLAYER_TURNS_PER_GAME_TURN \
        if not isinstance(player_turn, int) else -(-player_turn // PLAYER_TURNS_PER_GAME_TURN)


@rule("principles/game-turns-and-player-turns")
def turns_in_player_turns(turns: Any, prefaced_with_game: Any = False) -> Any:
    """How many player turns a number of 'turns' spans: 'turn' on its own means a player turn, 'game turn' both."""
    return If(prefaced_with_game, turns * PLAYER_TURNS_PER_GAME_TURN, turns)
