"""Strategic Reserves, as the earlier edition's Basic Rules state them: placing units (Battle-forged armies only,
paid in CPs by combined Power Rating), arriving from the second battle round, where arriving units are set up,
large models, and AIRCRAFT.

``RESERVES_COST`` is the printed table, row by row, with its "etc." row continuing the pattern (each band of 10
Power one CP more) and the unprinted combined Power Rating 0 in the first band. Set-up conditions are predicates
over plain facts (distances in inches, flags), so z3 proves things about them.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any, Sequence

from rules.logic import And, DecisionTable, If, Implies, Not, Or, Row, Var, is_symbolic
from rules.registry import ruleset_rule

rule = ruleset_rule("ninth")

BAND_WIDTH = 10  # Power Rating per CP band
FIRST_ARRIVAL_ROUND = 2
ENEMY_ZONE_OPEN_ROUND = 3
EDGE_DISTANCE = 6  # inches: wholly within 6" of a battlefield edge
ENEMY_DISTANCE = 9  # inches: not within 9" of enemy models (AIRCRAFT: more than 9")
OWN_EDGE_EXCEPTION_DISTANCE = 1  # inches: within 1" of their own battlefield edge
LARGE_MODEL_DIMENSION = 6  # inches: a smallest dimension greater than this cannot fit wholly within 6"


@rule("strategic-reserves")
def strategic_reserves_apply(starts_elsewhere_by_own_rules: Any) -> Any:
    """Whether these rules apply to a unit not deployed at the start: not to a unit whose own rules set it up
    somewhere other than the battlefield (it is set up as those rules say)."""
    return Not(starts_elsewhere_by_own_rules)


# Placing units into Strategic Reserves ---------------------------------------------------------------------


@rule("strategic-reserves/placing-units")
def may_place_in_strategic_reserves(battle_forged: Any, before_the_battle: Any = True,
                                    starts_elsewhere_by_own_rules: Any = False) -> Any:
    """Whether a unit can be placed into Strategic Reserves: only from a Battle-forged army, before the battle
    (unless a rule says otherwise), and not a unit using its own rules to start elsewhere."""
    return And(battle_forged, before_the_battle, strategic_reserves_apply(starts_elsewhere_by_own_rules))


def _whole_bands(power: Any) -> Any:
    """Completed bands of 10 Power below ``power`` (``power`` is never negative, where z3 and Python divide alike)."""
    return power / BAND_WIDTH if is_symbolic(power) else power // BAND_WIDTH


def _band(low: int, high: int) -> Any:
    return lambda combined_power_rating: And(combined_power_rating >= low, combined_power_rating <= high)


PRINTED_BANDS = ((1, 9, 1), (10, 19, 2), (20, 29, 3), (30, 39, 4), (40, 49, 5))  # (low, high, CPs) as printed

RESERVES_COST = DecisionTable(
    name="ninth-strategic-reserves-cost",
    refs=("strategic-reserves/placing-units",),
    inputs=(Var("combined_power_rating", 0, 120),),
    rows=tuple(Row(f"{low}-{high}: {cp}CP", _band(low, high), cp) for low, high, cp in PRINTED_BANDS) + (
        Row("etc.: each further band of 10 Power one CP more",
            lambda combined_power_rating: combined_power_rating >= 50,
            lambda combined_power_rating: _whole_bands(combined_power_rating) + 1),
        Row("0 (not printed): taken as part of the first 10-wide band",
            lambda combined_power_rating: combined_power_rating == 0, 1),
    ),
    gap=-1,
    notes={"etc.": "Interpretation reserves-cost-bands-continue.",
           "0": "Interpretation reserves-cost-zero-power."},
)


@rule("strategic-reserves/placing-units")
def reserves_cost(combined_power_rating: Any) -> Any:
    """The CPs to place units into Strategic Reserves, by their combined Power Rating: 1CP for 1-9, 2CP for 10-19,
    and so on, one more CP for each further 10 (e.g. 5CP for 40-49, 6CP for 50-59).

    Interpretation: reserves-cost-bands-continue; reserves-cost-zero-power.
    """
    return RESERVES_COST(combined_power_rating=combined_power_rating)


@dataclass(frozen=True)
class ReserveUnit:
    """A unit chosen for Strategic Reserves, its Power Rating, and the TRANSPORT it is embarked within (if any)."""

    name: str
    power_rating: int
    embarked_in: str | None = None


@rule("strategic-reserves/placing-units")
def combined_power_rating(units: Sequence[ReserveUnit]) -> int:
    """The combined Power Rating of the units placed into Strategic Reserves, counting units embarked within a
    TRANSPORT that is itself placed there (a passenger of a TRANSPORT left out is refused)."""
    names = {unit.name for unit in units}
    for unit in units:
        if unit.power_rating < 0:
            raise ValueError(f"{unit.name}: a Power Rating is never negative")
        if unit.embarked_in is not None and unit.embarked_in not in names:
            raise ValueError(f"{unit.name} is embarked within {unit.embarked_in}, which is not placed into "
                             "Strategic Reserves")
    return sum(unit.power_rating for unit in units)


@rule("strategic-reserves/placing-units")
def reserves_affordable(cp: Any, combined_power_rating: Any) -> Any:
    """Whether the player has enough CPs for the band of the units chosen (if not, they must choose fewer)."""
    return cp >= reserves_cost(combined_power_rating)


@rule("strategic-reserves/placing-units")
def cp_after_placing(cp: Any, combined_power_rating: Any) -> Any:
    """The CP total after paying for the units placed into Strategic Reserves."""
    return cp - reserves_cost(combined_power_rating)


@rule("strategic-reserves/placing-units")
def place_into_reserves(cp: int, units: Sequence[ReserveUnit], battle_forged: bool) -> int:
    """Place ``units`` into Strategic Reserves before the battle and return the CPs left (ValueError if the army is
    not Battle-forged or cannot pay for the band; no units placed costs nothing)."""
    if not units:
        return cp
    if not may_place_in_strategic_reserves(battle_forged):
        raise ValueError("only a Battle-forged army can place units into Strategic Reserves")
    power = combined_power_rating(units)
    if not reserves_affordable(cp, power):
        raise ValueError(f"combined Power Rating {power} costs {reserves_cost(power)}CP and only {cp}CP are left: "
                         "place fewer units into Strategic Reserves")
    return cp_after_placing(cp, power)


# Arriving and setting up -----------------------------------------------------------------------------------


@rule("strategic-reserves/arriving")
def may_arrive(battle_round: Any, reinforcements_step_of_your_movement_phase: Any = True) -> Any:
    """Whether a Strategic Reserve unit can arrive now: in the Reinforcements step of one of your Movement phases,
    never in the first battle round."""
    return And(reinforcements_step_of_your_movement_phase, battle_round >= FIRST_ARRIVAL_ROUND)


@rule("strategic-reserves/setting-up")
def edge_set_up_allowed(battle_round: Any, wholly_within_6_of_a_non_enemy_edge: Any,
                        any_model_in_enemy_deployment_zone: Any) -> Any:
    """Whether an arriving unit's place by the edges is allowed: wholly within 6" of a battlefield edge other than
    the enemy's, and, in the second battle round, no model within the enemy's deployment zone.

    Interpretation: enemy-zone-ban-second-round-only.
    """
    return And(battle_round >= FIRST_ARRIVAL_ROUND, wholly_within_6_of_a_non_enemy_edge,
               Implies(battle_round < ENEMY_ZONE_OPEN_ROUND, Not(any_model_in_enemy_deployment_zone)))


@rule("strategic-reserves/setting-up")
def clear_of_enemies(closest_enemy_inches: Any, within_1_of_own_edge: Any = False,
                     wholly_within_own_deployment_zone: Any = False) -> Any:
    """Whether an arriving unit is far enough from the enemy: no model within 9" of any enemy model (exactly 9" is
    within), unless it is set up within 1" of its own battlefield edge and wholly within its own deployment zone,
    where it may even be set up within Engagement Range.

    Interpretation: within-inclusive; prose-over-summary-bullets.
    """
    return Or(closest_enemy_inches > ENEMY_DISTANCE, And(within_1_of_own_edge, wholly_within_own_deployment_zone))


@rule("strategic-reserves/setting-up")
def set_up_allowed(battle_round: Any, wholly_within_6_of_a_non_enemy_edge: Any,
                   any_model_in_enemy_deployment_zone: Any, closest_enemy_inches: Any,
                   within_1_of_own_edge: Any = False, wholly_within_own_deployment_zone: Any = False) -> Any:
    """Whether an arriving Strategic Reserve unit (not a large model or an AIRCRAFT placed freely) may be set up
    here: its battle round allows arrival, it is placed by the edges as that round allows, and clear of enemies."""
    return And(edge_set_up_allowed(battle_round, wholly_within_6_of_a_non_enemy_edge,
                                   any_model_in_enemy_deployment_zone),
               clear_of_enemies(closest_enemy_inches, within_1_of_own_edge, wholly_within_own_deployment_zone))


@rule("strategic-reserves/setting-up")
def counts_as_charged(set_up_within_engagement_range: Any) -> Any:
    """Whether an arriving unit counts as having made a charge move this turn (so it can fight units within
    Engagement Range and no Overwatch can be fired at it): if it was set up within Engagement Range of enemies."""
    return set_up_within_engagement_range


@rule("strategic-reserves/setting-up", "overwatch")
def overwatch_allowed_against(set_up_within_engagement_range: Any) -> Any:
    """Whether Overwatch attacks can be made against an arriving unit: not if it was set up within Engagement
    Range of enemy models."""
    return Not(counts_as_charged(set_up_within_engagement_range))


@rule("strategic-reserves/setting-up")
def large_model(smallest_dimension_inches: Any) -> Any:
    """Whether a model is too large to be set up wholly within 6" of an edge: its smallest dimension is greater
    than 6" (exactly 6" fits)."""
    return smallest_dimension_inches > LARGE_MODEL_DIMENSION


@rule("strategic-reserves/setting-up")
def large_model_set_up_allowed(battle_round: Any, touching_your_battlefield_edge: Any, closest_enemy_inches: Any,
                               wholly_within_own_deployment_zone: Any = False) -> Any:
    """Whether a large model may be set up here instead of wholly within 6" of an edge: its battle round allows
    arrival, it touches your battlefield edge, and it is clear of enemies (touching your edge, it is within 1" of
    it, so wholly within your deployment zone it may be set up within 9" of enemies).

    Interpretation: within-inclusive.
    """
    return And(battle_round >= FIRST_ARRIVAL_ROUND, touching_your_battlefield_edge,
               clear_of_enemies(closest_enemy_inches, touching_your_battlefield_edge,
                                wholly_within_own_deployment_zone))


class Activity(enum.IntEnum):
    """What a unit may want to do in the turn it arrives from Strategic Reserves."""

    NORMAL_MOVE = 1
    ADVANCE = 2
    FALL_BACK = 3
    REMAIN_STATIONARY = 4
    MANIFEST_OR_DENY_PSYCHIC_POWERS = 5
    RANGED_ATTACKS = 6
    DECLARE_CHARGE = 7
    HEROIC_INTERVENTION = 8
    ACTIONS_OR_PSYCHIC_ACTIONS = 9
    FIGHT = 10


def _among(activity: Any, *kinds: Activity) -> Any:
    return Or(*(activity == kind for kind in kinds))


ARRIVAL_TURN = DecisionTable(
    name="ninth-strategic-reserves-arrival-turn",
    refs=("strategic-reserves/setting-up", "strategic-reserves/aircraft"),
    inputs=(Var("activity", Activity.NORMAL_MOVE, Activity.FIGHT), Var("large_model", kind="bool"),
            Var("aircraft", kind="bool")),
    rows=(
        Row("no Strategic Reserve unit makes a Normal Move, Advances, Falls Back or Remains Stationary in the "
            "turn it arrives",
            lambda activity, **_: _among(activity, Activity.NORMAL_MOVE, Activity.ADVANCE, Activity.FALL_BACK,
                                         Activity.REMAIN_STATIONARY), False),
        Row("a large model's unit also manifests or denies no psychic powers, makes no ranged attacks, declares no "
            "charge, performs no Heroic Intervention and no actions or psychic actions",
            lambda activity, large_model, **_: And(large_model, _among(
                activity, Activity.MANIFEST_OR_DENY_PSYCHIC_POWERS, Activity.RANGED_ATTACKS,
                Activity.DECLARE_CHARGE, Activity.HEROIC_INTERVENTION, Activity.ACTIONS_OR_PSYCHIC_ACTIONS)),
            False),
        Row("AIRCRAFT never declare a charge in the turn they arrive",
            lambda activity, aircraft, **_: And(aircraft, activity == Activity.DECLARE_CHARGE), False),
        Row("otherwise it acts normally (shoots, charges, fights, ...)", lambda **_: True, True, otherwise=True),
    ),
    gap=False,
)


@rule("strategic-reserves/setting-up", "strategic-reserves/aircraft")
def may_in_arrival_turn(activity: Any, large_model: Any = False, aircraft: Any = False) -> Any:
    """Whether a unit may do this in the turn it arrived from Strategic Reserves."""
    return ARRIVAL_TURN(activity=activity, large_model=large_model, aircraft=aircraft)


@rule("strategic-reserves/setting-up")
def distance_moved_on_arrival(move_characteristic: Any) -> Any:
    """How far an arriving model counts as having moved in that Movement phase: its Move characteristic."""
    return move_characteristic


@rule("strategic-reserves/setting-up")
def counts_as_destroyed_at_end_of_battle(still_in_strategic_reserves: Any) -> Any:
    """Whether a Strategic Reserve unit counts as destroyed: if it is still not set up on the battlefield at the end
    of the battle (stated only in the summary bullets).

    Interpretation: reserves-not-arrived-count-destroyed.
    """
    return still_in_strategic_reserves


# AIRCRAFT ---------------------------------------------------------------------------------------------------


@rule("strategic-reserves/aircraft")
def aircraft_set_up_allowed(closest_enemy_inches: Any) -> Any:
    """Whether an AIRCRAFT model arriving from Strategic Reserves may be set up here, anywhere on the battlefield
    instead of by an edge: more than 9" from every enemy model (exactly 9" is not)."""
    return closest_enemy_inches > ENEMY_DISTANCE


@rule("strategic-reserves/aircraft")
def aircraft_may_move_off_edge(battle_forged: Any, your_movement_phase: Any, move_reaches_edge: Any) -> Any:
    """Whether an AIRCRAFT unit may move off the battlefield edge into Strategic Reserves: in your Movement phase,
    with a Battle-forged army, if its Move lets part of its base (or hull) touch the edge."""
    return And(battle_forged, your_movement_phase, move_reaches_edge)


@rule("strategic-reserves/aircraft")
def aircraft_placed_into_reserves(battle_forged: Any, moved_off_edge: Any, cannot_make_minimum_move: Any = False,
                                  forced_off_by_minimum_move: Any = False) -> Any:
    """Whether an AIRCRAFT unit (with any units embarked within it) goes into Strategic Reserves during the battle:
    in a Battle-forged army, when it moved off the edge, cannot make its minimum move, or is forced off the
    battlefield by it."""
    return And(battle_forged, Or(moved_off_edge, cannot_make_minimum_move, forced_off_by_minimum_move))


@rule("strategic-reserves/aircraft")
def aircraft_reserves_cost(placed_during_the_battle: Any, combined_power_rating: Any) -> Any:
    """The CPs an AIRCRAFT costs to go into Strategic Reserves: nothing when it goes there during the battle this
    way; before the battle, the usual band."""
    return If(placed_during_the_battle, 0, reserves_cost(combined_power_rating))
