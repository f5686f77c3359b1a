"""999.m41 Transport Vehicles (chapter 16's transports): capacity, embarking, disembarking, firing points and open
topped transports.

A unit embarks whole or not at all, wholly within 6" of an access point; it disembarks within 3" of an access point
and not within 1" of an enemy. A vehicle that moved more than 12" lets nobody out; at full speed they get out but
move no further. Open topped transports have no access or firing points: 3" of any point, everyone fires, and every
hull point lost wounds a passenger with no save.
"""

from __future__ import annotations

from typing import Any, Sequence

from rules.logic import And, If, Max, Min, Not, Or
from rules.registry import ruleset_rule

rule = ruleset_rule("m41")

EMBARK_RANGE = 6  # "wholly withing 6" of a transports access points"
DISEMBARK_RANGE = 3  # "within 3" of one of the vehicle's access points"
OPEN_TOPPED_RANGE = 3  # "within 3" of any point of the vehicle"
NO_DISEMBARK_BEYOND = 12  # "cannot disembark at all if the vehicle moved more than 12""
ENEMY_CLEARANCE = 1  # "cannot disembark within 1" of an enemy model"


@rule("transports/transport-capacity", "transports/who-can-use-a-transport-vehicle")
def may_board(unit_models: Any, already_aboard: Any, capacity: Any, infantry: Any = True,
              vehicle_allows_type: Any = False) -> Any:
    """Whether a unit fits in a transport: its whole unit alongside those aboard within the capacity (several units
    may share one), and only infantry unless the vehicle's rules allow the unit's type."""
    return And(already_aboard + unit_models <= capacity, Or(infantry, vehicle_allows_type))


@rule("transports/embarking", "transports/who-can-use-a-transport-vehicle", "transports/access-points")
def may_embark(inches_from_access_point: Sequence[Any], movement_phase: Any = True,
               disembarked_this_turn: Any = False, open_topped: Any = False) -> Any:
    """Whether a unit may voluntarily embark: in the Movement phase, not having disembarked this player turn, and
    every model wholly within 6" of an access point (3" of any point of an open topped vehicle) — all or none."""
    reach = If(open_topped, OPEN_TOPPED_RANGE, EMBARK_RANGE)
    every_model = And(*[distance <= reach for distance in inches_from_access_point])
    return And(movement_phase, Not(disembarked_this_turn), every_model)


@rule("transports/embarking")
def vehicle_may_move_after_embarking(vehicle_moved_before: Any) -> Any:
    """Whether the transport may move once a unit has got aboard: only if it had not moved before they did."""
    return Not(vehicle_moved_before)


@rule("transports/disembarking", "transports/embarking-and-disembarking")
def may_disembark(vehicle_moved_inches: Any, began_phase_aboard: Any = True, movement_phase: Any = True,
                  embarked_this_turn: Any = False, after_tank_shock_or_ram: Any = False) -> Any:
    """Whether a unit may voluntarily disembark: it began the Movement phase aboard, in that phase, not having
    embarked this player turn, the vehicle has not moved more than 12", and not after a tank shock or ram."""
    return And(began_phase_aboard, movement_phase, Not(embarked_this_turn),
               vehicle_moved_inches <= NO_DISEMBARK_BEYOND, Not(after_tank_shock_or_ram))


@rule("transports/disembarking", "transports/open-topped")
def disembark_position_allowed(inches_from_access_point: Any, inches_from_nearest_enemy: Any,
                               in_unit_coherency: Any = True, open_topped: Any = False) -> Any:
    """Whether a disembarking model may be placed here: within 3" of an access point (of any point if open topped),
    in unit coherency, and not within 1" of an enemy model."""
    return And(inches_from_access_point <= DISEMBARK_RANGE, in_unit_coherency,
               inches_from_nearest_enemy > ENEMY_CLEARANCE)


@rule("transports/disembarking")
def passengers_may_move_after(vehicle_moved_full_speed: Any) -> Any:
    """Whether disembarked passengers may move on: not if the vehicle moved at full speed; yes after half speed or
    before it moved."""
    return Not(vehicle_moved_full_speed)


@rule("transports/disembarking")
def vehicle_may_move_after_disembarking(vehicle_moved_before: Any, vehicle_moved_full_speed: Any) -> Any:
    """Whether the vehicle may move once its passengers got out: at up to full speed if it had not moved yet; never
    after a full speed move (the text is silent on a half speed move; read as: no further move)."""
    return Not(Or(vehicle_moved_before, vehicle_moved_full_speed))


@rule("transports/disembarking")
def forced_disembark_casualties(passengers: Any, room_for: Any) -> Any:
    """How many passengers compelled to disembark (e.g. the vehicle destroyed) are killed: those with no room."""
    return Max(passengers - room_for, 0)


@rule("transports/disembarking", "transports/assault-transports", "transports/open-topped")
def may_assault_after_disembarking(vehicle_moved_before: Any, assault_transport: Any = False,
                                   open_topped: Any = False) -> Any:
    """Whether a unit may launch an assault after disembarking: from an assault transport (every open topped vehicle
    is one), or if the vehicle did not move before the passengers got out."""
    return Or(assault_transport, open_topped, Not(vehicle_moved_before))


@rule("transports/disembarking", "transports/firing-points")
def passenger_counts_as_moved(disembarked: Any, fired_from_firing_point: Any) -> Any:
    """Whether a passenger counts as having moved when it shoots: after disembarking, and when firing from a firing
    point whether or not the vehicle moved."""
    return Or(disembarked, fired_from_firing_point)


@rule("transports/firing-points", "transports/open-topped")
def passengers_firing(passengers: Any, firing_points: Any, open_topped: Any = False) -> Any:
    """How many passengers may fire one weapon each from a transport: one for each firing point, every passenger if
    it is open topped."""
    return If(open_topped, passengers, Min(passengers, firing_points))


@rule("transports/open-topped")
def open_topped_passenger_wounds(hull_points_lost: Any, passengers: Any = 1) -> Any:
    """Wounds (no saves of any kind) open topped passengers suffer: one for each hull point the transport loses,
    while there are passengers."""
    return If(passengers > 0, hull_points_lost, 0)
