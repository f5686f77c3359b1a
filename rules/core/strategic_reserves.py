"""Chapter 20, Strategic reserves: placing units, repositioned units, arriving, and the ingress move.

Limits and conditions are predicates over plain facts built with ``rules.logic``
(z3 proves things about them); the end-of-third-round destruction is a
first-match table with the book's exceptions as rows. Functions taking a
``GameState`` apply the decisions to the shared records. Whether a unit has made
an ingress move during the battle is not in the records, so it is a parameter.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from typing import Any, Collection, Sequence


from rules.core.core_concepts import within_horizontally
from rules.logic import And, DecisionTable, Implies, Max, Not, Or, Row, Var, is_symbolic
from rules.model import Placed
from rules.core import core_concepts
from rules.registry import rule
from rules.state import GameState, MoveType, UnitState

INGRESS_SET_UP_DISTANCE = 6
INGRESS_ENEMY_DISTANCE = 8
FIRST_ARRIVAL_ROUND = 2
DESTRUCTION_ROUND = 3


# 20.01 Placing units in strategic reserves -------------------------------------------------


@rule("20.01")
def may_place_in_reserves(declare_battle_formations: Any, fortification: Any) -> Any:
    """Units go into strategic reserves before the battle, in the Declare Battle Formations step, and never
    FORTIFICATIONS."""
    return And(declare_battle_formations, Not(fortification))


@rule("20.01")
def reserves_within_limit(reserves_points: Any, points_limit: Any) -> Any:
    """The combined points of strategic reserves cannot exceed 50% of the points limit: exactly half is allowed."""
    return 2 * reserves_points <= points_limit


@rule("20.01")
def reserves_points(units: Sequence[UnitState]) -> int:
    """The combined points value of the strategic reserves units, counting units embarked within TRANSPORTS that
    are themselves in strategic reserves."""
    in_reserves = {u.name for u in units if u.in_reserves and u.embarked_in is None}
    return sum(u.points for u in units if u.name in in_reserves or u.embarked_in in in_reserves)


@rule("20.01", "23.01")
def reserves_selection_legal(selected_points: Any, required_points: Any, points_limit: Any) -> Any:
    """Whether the units a player selects for strategic reserves keep within the limit, given the points of units
    a rule puts there regardless (AIRCRAFT, 23.01): those always go, count towards the total, and while they alone
    reach past 50% nothing else can be selected.

    Interpretation: reserves-limit-and-required-units.
    """
    return Or(reserves_within_limit(selected_points + required_points, points_limit), selected_points == 0)


# 20.02 Repositioned units -----------------------------------------------------------------


@rule("20.02")
def reposition(unit: UnitState) -> UnitState:
    """Remove a unit from the battlefield into strategic reserves as a repositioned unit. In the Movement phase
    this is allowed even after it moved; it keeps the moves it made this turn and any effect with a running
    duration (e.g. battle-shock)."""
    if not unit.on_battlefield or unit.destroyed:
        raise ValueError(f"{unit.name} is not on the battlefield, so it cannot be repositioned")
    return replace(unit, on_battlefield=False, in_reserves=True, repositioned=True, engaged=False)


@rule("20.02")
def made_move_this_turn(moves_this_turn: Sequence[MoveType], move: MoveType) -> bool:
    """Whether a unit made ``move`` this turn: a repositioned unit set up again in the same turn has still made
    the advance, fall-back or disembark move it made before it was removed."""
    return MoveType(move) in {MoveType(m) for m in moves_this_turn}


@rule("20.02")
def effect_still_applies(has_duration: Any, duration_running: Any, has_circumstances: Any,
                         circumstances_hold: Any) -> Any:
    """A rule affecting a unit for a duration or under circumstances keeps affecting it after it is removed from
    the battlefield for as long as the duration runs and the circumstances hold (and no longer)."""
    return And(Implies(has_duration, duration_running), Implies(has_circumstances, circumstances_hold))


# 20.03 Arriving from strategic reserves -----------------------------------------------------


@rule("20.03")
def may_arrive_in_round(battle_round: Any, earliest_round: Any = FIRST_ARRIVAL_ROUND) -> Any:
    """Strategic reserves arrive (by an ingress move) from the second battle round onwards, unless a rule states
    another ``earliest_round``."""
    return battle_round >= earliest_round


DESTROYED_AT_END_OF_THIRD_ROUND = DecisionTable(
    name="reserves-destroyed-at-end-of-third-round",
    refs=("20.03",),
    inputs=(Var("in_reserves", kind="bool"), Var("otherwise_stated", kind="bool"), Var("made_ingress_move", kind="bool"),
            Var("embarked", kind="bool"), Var("transport_made_ingress_move", kind="bool"),
            Var("repositioned", kind="bool"), Var("transport_repositioned", kind="bool")),
    # The transport's facts only exist for an embarked unit.
    assume=lambda embarked, transport_made_ingress_move, transport_repositioned, **_: And(
        Implies(transport_made_ingress_move, embarked), Implies(transport_repositioned, embarked)),
    rows=(
        Row("not a strategic reserves unit: unaffected", lambda in_reserves, **_: Not(in_reserves), False),
        Row("unless otherwise stated", lambda otherwise_stated, **_: otherwise_stated, False),
        Row("made one or more ingress moves", lambda made_ingress_move, **_: made_ingress_move, False),
        Row("exception: embarked within a TRANSPORT that has made an ingress move during the battle",
            lambda transport_made_ingress_move, **_: transport_made_ingress_move, False),
        Row("exception: repositioned units", lambda repositioned, **_: repositioned, False),
        Row("embarked within a repositioned TRANSPORT (as that TRANSPORT)",
            lambda transport_repositioned, **_: transport_repositioned, False),
        Row("otherwise: destroyed", lambda **_: True, True, otherwise=True),
    ),
    gap=False,
)


@rule("20.03")
def destroyed_at_end_of_third_round(in_reserves: Any, otherwise_stated: Any, made_ingress_move: Any, embarked: Any,
                                    transport_made_ingress_move: Any, repositioned: Any,
                                    transport_repositioned: Any) -> Any:
    """Whether a unit is destroyed at the end of the third battle round for still being in strategic reserves.

    Interpretation: passengers-share-transport-exception (the row for units embarked within a repositioned
    TRANSPORT).
    """
    return DESTROYED_AT_END_OF_THIRD_ROUND(
        in_reserves=in_reserves, otherwise_stated=otherwise_stated, made_ingress_move=made_ingress_move,
        embarked=embarked, transport_made_ingress_move=transport_made_ingress_move, repositioned=repositioned,
        transport_repositioned=transport_repositioned)


def is_reserves_unit(state: GameState, unit: UnitState) -> bool:
    """A strategic reserves unit: in strategic reserves itself or, if embarked, within a TRANSPORT that is (a
    passenger's own flag is ignored: it is wherever its TRANSPORT is)."""
    if unit.embarked_in is not None:
        return state.unit(unit.embarked_in).in_reserves
    return unit.in_reserves


@rule("20.03")
def end_of_third_battle_round(state: GameState, *, ingressed: Collection[str],
                              otherwise_stated: Collection[str] = ()) -> GameState:
    """At the end of the third battle round destroy every strategic reserves unit the exceptions do not spare.

    ``ingressed`` names the units that made an ingress move during the battle.
    """
    if state.battle_round != DESTRUCTION_ROUND:
        raise ValueError(f"strategic reserves are only destroyed at the end of battle round {DESTRUCTION_ROUND}")
    doomed = []
    for unit in state.units:
        if unit.destroyed:
            continue
        carrier = state.unit(unit.embarked_in) if unit.embarked_in else None
        if destroyed_at_end_of_third_round(
                in_reserves=is_reserves_unit(state, unit), otherwise_stated=unit.name in otherwise_stated,
                made_ingress_move=unit.name in ingressed, embarked=carrier is not None,
                transport_made_ingress_move=carrier is not None and carrier.name in ingressed,
                repositioned=unit.repositioned, transport_repositioned=carrier is not None and carrier.repositioned):
            doomed.append(unit.name)
    for name in doomed:
        state = state.with_unit(replace(state.unit(name), models=0)).note(
            f"{name} is destroyed: still in strategic reserves at the end of battle round 3")
    return state


# 20.04 Ingress move ------------------------------------------------------------------------




@rule("20.04")
def ingress_eligible(in_reserves: Any, embarked_in_reserves_transport: Any) -> Any:
    """A unit in strategic reserves can make an ingress move, unless it is embarked within a TRANSPORT that is
    itself in strategic reserves (it arrives inside that TRANSPORT)."""
    return And(in_reserves, Not(embarked_in_reserves_transport))


@rule("20.04")
def wholly_within_edge_distance(models: Sequence[Placed], width: Any, depth: Any,
                                distance: Any = INGRESS_SET_UP_DISTANCE) -> Any:
    """Whether every model is wholly within ``distance`` of one or more battlefield edges (and on the battlefield).

    Interpretation: ingress-edges-together. Each part of each base must be within the distance of some edge, so
    a base must not reach into the inner rectangle more than ``distance`` from every edge.
    """
    conditions = []
    for m in models:
        r = core_concepts.exact_beside(m.radius, m.x, m.y, width, depth, distance)
        on_table = And(m.x - r >= 0, m.y - r >= 0, m.x + r <= width, m.y + r <= depth)
        dx = Max(distance - m.x, 0, m.x - (width - distance))
        dy = Max(distance - m.y, 0, m.y - (depth - distance))
        inner_exists = And(2 * distance < width, 2 * distance < depth)
        conditions.append(And(on_table, Implies(inner_exists, dx * dx + dy * dy >= r * r)))
    return And(*conditions)


@rule("20.04")
def more_than_from_enemies(models: Sequence[Placed], enemies: Sequence[Placed],
                           inches: Any = INGRESS_ENEMY_DISTANCE) -> Any:
    """Whether every model is more than ``inches`` horizontally from every enemy model."""
    return And(*(Not(within_horizontally(m, e, inches)) for m in models for e in enemies))


@rule("20.04")
def ingress_restrictions_met(more_than_8_from_enemies: Any, in_opponents_deployment_zone: Any, battle_round: Any,
                             may_enter_opponents_zone: Any = False) -> Any:
    """The ingress move's restrictions on where models go, besides its set-up distance: more than 8" horizontally
    from all enemy units, and before the third battle round not within the opponent's deployment zone (unless a
    rule such as Deep Strike says otherwise). A rapid disembark after an ingress move keeps these (18.04)."""
    zone_ok = Or(Not(in_opponents_deployment_zone), battle_round >= DESTRUCTION_ROUND, may_enter_opponents_zone)
    return And(more_than_8_from_enemies, zone_ok)


@rule("20.04")
def ingress_position_allowed(wholly_within_6_of_edges: Any, more_than_8_from_enemies: Any,
                             in_opponents_deployment_zone: Any, battle_round: Any) -> Any:
    """Whether an arriving unit may be set up here: wholly within 6" of one or more battlefield edges, and the
    ingress restrictions (more than 8" from enemies; before round 3 not in the opponent's deployment zone)."""
    return And(wholly_within_6_of_edges,
               ingress_restrictions_met(more_than_8_from_enemies, in_opponents_deployment_zone, battle_round))


@rule("20.04")
def other_moves_barred_after_ingress(made_ingress_move: Any, charge_phase_started_since: Any,
                                     is_aircraft: Any = False) -> Any:
    """Whether a unit is barred from every move type but the ingress move: after an ingress move, until the next
    Charge phase starts; an AIRCRAFT unit always (23.02, taken here as the input ``is_aircraft``)."""
    return Or(And(made_ingress_move, Not(charge_phase_started_since)), is_aircraft)


@rule("20.03", "20.04")
def ingress(state: GameState, unit: str, *, position_allowed: bool, earliest_round: int = FIRST_ARRIVAL_ROUND) -> GameState:
    """Make an ingress move: an eligible strategic reserves unit, from the second battle round, is set up on the
    battlefield (with any units embarked within it, which stay embarked). A failed set up leaves it in reserves."""
    arriving = state.unit(unit)
    carrier = state.unit(arriving.embarked_in) if arriving.embarked_in else None
    if arriving.destroyed or not ingress_eligible(is_reserves_unit(state, arriving),
                                                  carrier is not None and carrier.in_reserves):
        raise ValueError(f"{unit} is not eligible to make an ingress move (20.04)")
    if not may_arrive_in_round(state.battle_round, earliest_round):
        raise ValueError(f"{unit} cannot arrive from strategic reserves in battle round {state.battle_round}")
    if not position_allowed:
        return state.note(f"{unit} cannot be set up for its ingress move and stays in strategic reserves")
    arrived = replace(arriving, on_battlefield=True, in_reserves=False, set_up_this_turn=True, selected_to_move=True,
                      moves=arriving.moves + (MoveType.INGRESS,), phase_moves=arriving.phase_moves + (MoveType.INGRESS,))
    return state.with_unit(arrived).note(f"{unit} arrives from strategic reserves (ingress move)")
