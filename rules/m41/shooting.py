"""The Shooting Phase of Warhammer 999.m41 (004, lines 1301-1766), and the S−T chart the Assault chapter prints again.

The charts are decision tables in the printed rows' order: to-hit by BS, the S−T to-wound chart, the cover
bonuses. Each rule takes the unmodified D6 where the text reads one, so z3 can prove the charts monotone and the
floors and caps about the very functions. A "-1 to hit" raises the roll needed by one (general principles,
"Modifying target thresholds": a penalty of 1 is an increase in threshold of 1).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from rules.logic import And, DecisionTable, If, Min, Not, Or, Row, Var
from rules.registry import ruleset_rule

rule = ruleset_rule("m41")

D6_FACES = range(1, 7)
D3_FACES = range(1, 4)
MISSES_ALWAYS = 1  # a roll of 1 never hits (interpretation shooting-roll-of-one-misses)
HIGHEST_PRINTED_BS = 5
SNAP_SHOT_BS = 1  # "Snap shots are resolved at BS 1."
SNAP_BLAST_HIT_ON = 4  # "only score hits on a further dice roll of 4+"
TARGET_PRIORITY_RANGE = 15  # "closer and within 15”"
SIZE_TO_SHOOT_INTO_COMBAT = 4  # "at least four times the size of said models"
SIZE_WITH_A_CLEAR_SHOT = 2  # "the size restriction drops to twice the size"
RUN_BASE = 3  # "runs 3 + d3 inches"
WASTED_AIM_CANCELS_ON = 6  # "On a 6 you cancel an incoming hit"
WORST_COVER_SAVE = 6  # "to a minimum of 6+"
SMALL_BLAST_HITS = 1
SPLITFIRE_TARGETS = 2  # "between two separate enemy units"  # Wall of Death: "small blast weapons will hit 1"


# -- The sequence -----------------------------------------------------------------------------------------------------


@rule("shooting/the-shooting-sequence")
def shooting_stage(step: Any) -> Any:
    """Which pass of the phase a step (1-5) belongs to: step 1 for all units first, then steps 2-4, then step 5."""
    return If(step == 1, 1, If(step <= 4, 2, 3))


# -- To hit ------------------------------------------------------------------------------------------------------------

#: "Firer's BS 1 2 3 4 5 / To Hit Roll 6+ 5+ 4+ 3+ 2+", and past 5 "you dip into the negative buffer range. e.g 6 is
#: 1+, 7 is 0+": one row per printed column, then the buffer row.
TO_HIT_TABLE = DecisionTable(
    name="m41-to-hit-by-bs",
    refs=("shooting/to-hit",),
    inputs=(Var("ballistic_skill", 1, 10),),
    rows=(
        Row("BS 1: 6+", lambda ballistic_skill: ballistic_skill == 1, 6),
        Row("BS 2: 5+", lambda ballistic_skill: ballistic_skill == 2, 5),
        Row("BS 3: 4+", lambda ballistic_skill: ballistic_skill == 3, 4),
        Row("BS 4: 3+", lambda ballistic_skill: ballistic_skill == 4, 3),
        Row("BS 5: 2+", lambda ballistic_skill: ballistic_skill == 5, 2),
        Row("BS higher than 5: the negative buffer (6 is 1+, 7 is 0+)",
            lambda ballistic_skill: ballistic_skill > HIGHEST_PRINTED_BS, lambda ballistic_skill: 7 - ballistic_skill),
    ),
)


@rule("shooting/to-hit")
def to_hit_needed(ballistic_skill: Any) -> Any:
    """The D6 result a shot needs before modifiers: the chart's column for BS 1-5, 7 - BS past 5 (may be 0 or less)."""
    return TO_HIT_TABLE(ballistic_skill=ballistic_skill)


@rule("shooting/to-hit")
def hit_scored(unmodified_roll: Any, ballistic_skill: Any, penalty: Any = 0) -> Any:
    """Whether a shot hits: a roll of 1 never does; otherwise the roll must reach the chart's threshold raised by the
    to-hit penalty (a -1 to hit is a penalty of 1, a bonus a negative penalty).

    Interpretation: shooting-roll-of-one-misses.
    """
    return And(unmodified_roll != MISSES_ALWAYS, unmodified_roll >= to_hit_needed(ballistic_skill) + penalty)


@rule("shooting/to-hit")
def hitting_faces(ballistic_skill: Any, penalty: Any = 0) -> Any:
    """How many of a D6's six faces hit for this BS under this to-hit penalty."""
    total: Any = 0
    for face in D6_FACES:
        total = total + If(hit_scored(face, ballistic_skill, penalty), 1, 0)
    return total


@rule("shooting/to-hit")
def hit_chance(ballistic_skill: int, penalty: int = 0) -> Fraction:
    """The exact chance that one shot hits."""
    return Fraction(hitting_faces(ballistic_skill, penalty), len(D6_FACES))


@rule("shooting/snap-shots", "shooting/going-to-ground", "morale/falling-back-and-shooting")
def ballistic_skill_used(ballistic_skill: Any, snap_shot: Any) -> Any:
    """The BS a shot is resolved at: BS 1 for a snap shot, else the firer's own."""
    return If(snap_shot, SNAP_SHOT_BS, ballistic_skill)


@rule("shooting/snap-shots", "shooting/terrain-hopping")
def snap_blast_hit_stands(further_roll: Any) -> Any:
    """A hit a blast or template weapon scores with a snap shot counts only on a further D6 of 4+."""
    return further_roll >= SNAP_BLAST_HIT_ON


# -- To wound ----------------------------------------------------------------------------------------------------------

#: "Attackers S - Defenders T / To Wound roll": the five printed rows in order. The fourth row is printed "less
#: than 5+" with its number lost; read as "less than 0" it overlaps "-3 or less" and, first match, leaves it
#: nothing. The row is read as below 0 but above -3 (interpretation shooting-to-wound-less-than-row, finding
#: shooting-to-wound-less-than-overlaps).
TO_WOUND_TABLE = DecisionTable(
    name="m41-strength-minus-toughness",
    refs=("shooting/to-wound", "assault/to-wound"),
    inputs=(Var("strength", 1, 10), Var("toughness", 1, 10)),
    rows=(
        Row("2 or greater: 2+", lambda strength, toughness: strength - toughness >= 2, 2),
        Row("1: 3+", lambda strength, toughness: strength - toughness == 1, 3),
        Row("0: 4+", lambda strength, toughness: strength - toughness == 0, 4),
        Row("less than [0, above -3]: 5+",
            lambda strength, toughness: And(strength - toughness < 0, strength - toughness > -3), 5),
        Row("-3 or less: 6+", lambda strength, toughness: strength - toughness <= -3, 6),
    ),
)


@rule("shooting/to-wound", "assault/to-wound")
def to_wound_needed(strength: Any, toughness: Any) -> Any:
    """The D6 result a hit needs to wound, from the attacker's S minus the defender's T (2+ to 6+).

    Interpretation: shooting-to-wound-less-than-row.
    """
    return TO_WOUND_TABLE(strength=strength, toughness=toughness)


@rule("shooting/to-wound", "assault/to-wound")
def wound_scored(unmodified_roll: Any, strength: Any, toughness: Any) -> Any:
    """Whether a hit wounds: the D6 equals or beats the chart's result."""
    return unmodified_roll >= to_wound_needed(strength, toughness)


@rule("shooting/to-wound", "assault/to-wound")
def wound_chance(strength: int, toughness: int) -> Fraction:
    """The exact chance that one hit wounds."""
    return Fraction(sum(1 for face in D6_FACES if wound_scored(face, strength, toughness)), len(D6_FACES))


# -- Cover -------------------------------------------------------------------------------------------------------------

NO_COVER, LIGHT_COVER, MEDIUM_COVER, HEAVY_COVER = range(4)

#: "Cover Bonuses": the three cover save rows (the "-1 to hit" row is cover_hit_penalty).
COVER_SAVE_TABLE = DecisionTable(
    name="m41-cover-save",
    refs=("shooting/cover-bonuses",),
    inputs=(Var("cover", NO_COVER, HEAVY_COVER),),
    rows=(
        Row("Light cover: 5+", lambda cover: cover == LIGHT_COVER, 5),
        Row("Medium cover: 4+", lambda cover: cover == MEDIUM_COVER, 4),
        Row("Heavy cover: fortified positions. 3+", lambda cover: cover == HEAVY_COVER, 3),
        Row("no cover: no cover save (7+)", lambda cover: cover == NO_COVER, 7),
    ),
)


@rule("shooting/cover-bonuses", "shooting/cover-saves")
def cover_save(cover: Any, monstrous_vehicle_or_bulky: Any = False) -> Any:
    """The cover save a model in this cover gets (7 = none): the chart's value, one worse for monstrous creatures,
    vehicles and bulky units but never worse than 6+ while it has cover."""
    printed = COVER_SAVE_TABLE(cover=cover)
    worsened = If(cover == NO_COVER, printed, Min(printed + 1, WORST_COVER_SAVE))
    return If(monstrous_vehicle_or_bulky, worsened, printed)


@rule("shooting/cover-bonuses", "shooting/going-to-ground")
def cover_hit_penalty(gone_to_ground: Any, moving_fast: Any, intervening_models: Any) -> Any:
    """The to-hit penalty of the chart's first row: -1 to hit when the target has gone to ground, is moving fast or
    is behind intervening models (one row, one -1).

    Interpretation: shooting-cover-hit-row-once.
    """
    return If(Or(gone_to_ground, moving_fast, intervening_models), 1, 0)


@rule("shooting/cover-saves")
def cover_applies(close_combat_attack: Any) -> Any:
    """Cover only protects against ranged attacks, never close combat attacks."""
    return Not(close_combat_attack)


@rule("shooting/obscured-targets")
def obscured(hidden_quarters: Any, through_or_in_area_terrain: Any) -> Any:
    """A target model is obscured when at least 25% of its body (``hidden_quarters`` of 4, or more) is hidden from
    the firer, or the shot goes through or into area terrain."""
    return Or(hidden_quarters >= 1, through_or_in_area_terrain)


@rule("shooting/intervening-enemies")
def obscured_by_enemies(through_gaps_of_an_enemy_unit: Any, over_the_enemy_unit: Any) -> Any:
    """Shooting through the gaps of an enemy unit makes the target obscured, unless the shot goes over it."""
    return And(through_gaps_of_an_enemy_unit, Not(over_the_enemy_unit))


@rule("shooting/intervening-friendlies", "shooting/own-unit")
def line_of_sight_through_friends(own_unit: Any, firer_taller_higher_or_hovering: Any) -> Any:
    """Whether a firer may see through friendly models: always through its own unit, through another friendly unit
    only over it (taller, on higher ground, hovering)."""
    return Or(own_unit, firer_taller_higher_or_hovering)


# -- Choosing targets --------------------------------------------------------------------------------------------------


@rule("shooting/disallowed-shooting")
def unit_may_shoot(locked_in_combat: Any, ran_or_overwatched: Any, went_to_ground_previous_turn: Any) -> Any:
    """Whether a unit may fire: not while locked in combat, nor having chosen to run or overwatch instead, nor having
    gone to ground the previous turn."""
    return Not(Or(locked_in_combat, ran_or_overwatched, went_to_ground_previous_turn))


@rule("shooting/disallowed-shooting", "shooting/shoot-the-big-ones")
def may_target_unit_in_combat(shoot_the_big_ones: Any) -> Any:
    """Most targets locked in close combat cannot be shot; Shoot the Big Ones is the exception."""
    return shoot_the_big_ones


@rule("shooting/which-models-can-fire", "shooting/line-of-sight-and-range")
def model_may_fire(sees_and_in_range_of_a_target_model: Any) -> Any:
    """Line of sight and range are per model: a model fires when it sees at least one model of the target unit in
    range."""
    return sees_and_in_range_of_a_target_model


@rule("shooting/splitfire", "shooting/line-of-sight-and-range")
def targets_allowed() -> int:
    """How many enemy units a unit may split its shots between: two ("two separate enemy units")."""
    return SPLITFIRE_TARGETS


@rule("shooting/target-priority")
def target_priority_test_needed(closer_unit_is_big: Any, closer_distance: Any, closer_unit_locked_in_combat: Any) -> Any:
    """Whether targeting a unit needs a Leadership test: a closer enemy unit (monstrous creature, vehicle or larger
    than the firers) is within 15" and not locked in combat."""
    return And(closer_unit_is_big, closer_distance <= TARGET_PRIORITY_RANGE, Not(closer_unit_locked_in_combat))


@rule("shooting/shoot-the-big-ones", "shooting/get-a-clear-shot")
def may_shoot_the_big_one(size_ratio: Any, obscured_by_engaged_friends: Any, clear_shot: Any,
                          blast_or_template: Any) -> Any:
    """Whether a model may shoot an enemy locked in combat: not with blast or template weapons, not 25% obscured by
    the friends it fights, and at least four times their size (twice with a clear shot)."""
    needed = If(clear_shot, SIZE_WITH_A_CLEAR_SHOT, SIZE_TO_SHOOT_INTO_COMBAT)
    return And(Not(blast_or_template), Not(obscured_by_engaged_friends), size_ratio >= needed)


@rule("shooting/shoot-the-big-ones")
def shoot_the_big_ones_penalty() -> int:
    """The to-hit penalty for shooting into a combat: -1."""
    return 1


@rule("shooting/how-many-shooting-attacks", "shooting/moving-and-shooting")
def weapons_fired(weapons_carried: Any, monstrous_or_vehicle: Any, pistols_carried: Any = 0) -> Any:
    """How many weapons a model fires: all for monstrous creatures and vehicles, a pair of pistols, otherwise one."""
    return If(monstrous_or_vehicle, weapons_carried, If(pistols_carried >= 2, 2, Min(weapons_carried, 1)))


# -- Running -----------------------------------------------------------------------------------------------------------


@rule("shooting/running")
def may_run(attacking_player: Any, shoots_this_turn: Any) -> Any:
    """Only the attacking player's units run, and instead of shooting."""
    return And(attacking_player, Not(shoots_this_turn))


@rule("shooting/running")
def run_distance(d3_roll: Any) -> Any:
    """Inches a unit runs: 3 + D3."""
    return RUN_BASE + d3_roll


@rule("shooting/running")
def may_charge_after_running(ran: Any) -> Any:
    """A unit that ran in the shooting phase cannot charge in the following assault phase."""
    return Not(ran)


@rule("shooting/fleet")
def may_reroll_run(fleet: Any, already_rerolled: Any) -> Any:
    """A model with fleet may re-roll its run roll (a dice is never re-rolled twice)."""
    return And(fleet, Not(already_rerolled))


@rule("shooting/running", "shooting/fleet")
def run_distribution(fleet: bool = False) -> dict[int, Fraction]:
    """The exact run distances, fleet re-rolling a D3 of 1 (the only result below the D3's average of 2)."""
    out: dict[int, Fraction] = {}
    for first in D3_FACES:
        kept = D3_FACES if (fleet and may_reroll_run(fleet, False) and first < 2) else (first,)
        for d3 in kept:
            distance = run_distance(d3)
            out[distance] = out.get(distance, Fraction(0)) + Fraction(1, len(D3_FACES) * len(kept))
    return out


# -- Wasted aim and allocation -----------------------------------------------------------------------------------------


@rule("shooting/wasted-aim")
def wasted_aim_dice(models_removed_this_phase: Any, incoming_hits: Any) -> Any:
    """Dice rolled for wasted aim: one per model removed this phase, at most one per incoming hit."""
    return Min(models_removed_this_phase, incoming_hits)


@rule("shooting/wasted-aim")
def hits_cancelled(wasted_aim_rolls: list[int], incoming_hits: int) -> int:
    """Incoming hits cancelled: one per 6 among the wasted-aim dice, never more than the hits."""
    return Min(sum(1 for roll in wasted_aim_rolls if roll >= WASTED_AIM_CANCELS_ON), incoming_hits)


@rule("shooting/wound-allocation")
def must_allocate_to(model_has_a_wound_allocated: Any, model_removed: Any) -> Any:
    """Once a wound is allocated to a model, the following wounds go to it until it is removed as a casualty."""
    return And(model_has_a_wound_allocated, Not(model_removed))


@rule("shooting/blast-weapons")
def blast_models_wounded(unsaved_wounds: Any, models_in_unit: Any) -> Any:
    """A blast weapon's wounds go one to a model: as many models take one as there are wounds, at most the whole
    unit (what is left over is lost)."""
    return Min(unsaved_wounds, models_in_unit)


@rule("shooting/existing-wounded-targets")
def must_continue_on_wounded_model(wounded_by_this_unit: Any) -> Any:
    """A model wounded by another unit is ignored: allocation starts again, so only a model wounded by this unit's
    wound pool must take the next wound."""
    return wounded_by_this_unit


@rule("shooting/no-more-targets")
def may_discard_remaining_wounds(models_visible_and_in_range: Any) -> Any:
    """Left-over wounds may be discarded once no model is visible to or in range of the attackers."""
    return models_visible_and_in_range == 0


@rule("shooting/complex-units-and-hit-groups", "shooting/units-in-partial-cover",
      "shooting/units-in-partial-cover-continued")
def hit_dice_per_group(hit_dice: int, group_sizes: list[int]) -> list[int]:
    """Hit dice counted out to hit groups: starting with the defender's nominated group (the first), one per model,
    then the next group, round and round until all the dice are divided up."""
    counts = [0] * len(group_sizes)
    left = hit_dice
    while left > 0 and sum(group_sizes) > 0:
        for index, size in enumerate(group_sizes):
            given = Min(size, left)
            counts[index] += given
            left -= given
    return counts


# -- Overwatch ---------------------------------------------------------------------------------------------------------


@rule("shooting/overwatch")
def may_enter_overwatch(attacking_player: Any, shoots_this_turn: Any) -> Any:
    """Only the attacking player puts units into overwatch, instead of shooting."""
    return And(attacking_player, Not(shoots_this_turn))


@rule("shooting/overwatch")
def models_in_overwatch(models_in_unit: Any, unit_enters: Any) -> Any:
    """All or nothing: the whole unit enters overwatch, or none of it."""
    return If(unit_enters, models_in_unit, 0)


@rule("shooting/during-the-shooting-phase")
def overwatch_firer_may_shoot(killed_this_phase: Any) -> Any:
    """Overwatch in the shooting phase is simultaneous with the other shooting: a model fires even if killed this
    phase."""
    return True


@rule("shooting/overwatch", "shooting/terrain-hopping", "shooting/movement-not-in-the-movement-phase")
def overwatch_may_target(in_line_of_sight: Any, moved_through_line_of_sight: Any) -> Any:
    """An overwatching unit targets an enemy it sees or that moved through its line of sight this turn."""
    return Or(in_line_of_sight, moved_through_line_of_sight)


@rule("shooting/terrain-hopping", "shooting/as-response-to-a-charge")
def overwatch_hit_penalty(target_out_of_sight_now: Any, against_a_charge: Any) -> Any:
    """The to-hit penalty of an overwatch attack: -1 at a target that moved out of sight (terrain hopping), -1
    against a charge."""
    return If(target_out_of_sight_now, 1, 0) + If(against_a_charge, 1, 0)


@rule("shooting/terrain-hopping")
def overwatch_snap_shot(blast_or_template: Any, target_out_of_sight_now: Any) -> Any:
    """Blast and template weapons fire as snap shots at a terrain-hopping target."""
    return And(blast_or_template, target_out_of_sight_now)


TEMPLATE, LARGE_BLAST, SMALL_BLAST = range(3)


@rule("shooting/wall-of-death")
def wall_of_death_hits(weapon: Any, first_d3: Any, second_d3: Any) -> Any:
    """Models an overwatch template or blast automatically hits against a charge: template 2D3, large blast D3,
    small blast 1."""
    return If(weapon == TEMPLATE, first_d3 + second_d3, If(weapon == LARGE_BLAST, first_d3, SMALL_BLAST_HITS))


@rule("shooting/wall-of-death")
def wall_of_death_distribution(weapon: int) -> dict[int, Fraction]:
    """The exact distribution of the models hit by a Wall of Death."""
    out: dict[int, Fraction] = {}
    for first in D3_FACES:
        for second in D3_FACES:
            hits = wall_of_death_hits(weapon, first, second)
            out[hits] = out.get(hits, Fraction(0)) + Fraction(1, len(D3_FACES) ** 2)
    return out
