"""Chapter 18, Transports: capacity, embarking, disembarking, the disembark and emergency disembark moves.

Eligibility and while-moving conditions are predicates over plain facts built
with ``rules.logic``, so the same code runs on Python values and on z3 terms;
the disembark mode is a first-match table in the book's order. The functions
taking a ``GameState`` apply those decisions to the shared records.

Facts the shared records do not hold (whether a unit embarked this phase, how
many of its models can be placed) are parameters.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any, Mapping, Sequence


from rules.core.core_concepts import within_vertically
from rules.core.datasheets import has_keyword
from rules.logic import And, Clamp, DecisionTable, If, Implies, Not, Or, Row, Var, is_symbolic
from rules.model import Placed
from rules.core import core_concepts
from rules.registry import rule
from rules.state import GameState, MoveType, Phase, UnitState




def wholly_within_horizontally(model: Placed, other: Placed, inches: Any) -> Any:
    """Whether every point of ``model``'s base is within ``inches`` of the closest part of ``other``'s base.

    For round bases the farthest point of one base lies its radius beyond its
    centre, so this compares the centre distance with ``inches`` plus the other
    radius minus this one (squared, so exact on Fractions and z3 reals).
    """
    dx, dy = model.x - other.x, model.y - other.y
    reach = inches + core_concepts.exact_beside(other.radius - model.radius, dx, dy, inches)
    return And(reach >= 0, dx * dx + dy * dy <= reach * reach)


def wholly_within(model: Placed, other: Placed, inches: Any) -> Any:
    """Wholly within ``inches`` of ``other``: horizontally for the whole base, and in height."""
    return And(wholly_within_horizontally(model, other, inches), within_vertically(model, other, inches))


# 18.01 Transport capacity -------------------------------------------------------------


@dataclass(frozen=True)
class TransportCapacity:
    """A TRANSPORT's capacity as its datasheet prints it.

    ``models`` places; ``keywords``: a model must have one of these to embark
    (empty: any friendly model); ``excluded``: models with any of these cannot;
    ``space``: (keyword, places) pairs for models that take up more than one place.
    """

    models: int
    keywords: tuple[str, ...] = ()
    excluded: tuple[str, ...] = ()
    space: tuple[tuple[str, int], ...] = ()


@rule("18.01")
def model_type_fits(capacity: TransportCapacity, model_keywords: Sequence[str]) -> bool:
    """Whether a model is of a type the capacity takes: one of its named keywords (if any) and none excluded."""
    allowed = not capacity.keywords or has_keyword(model_keywords, "/".join(capacity.keywords))
    barred = bool(capacity.excluded) and has_keyword(model_keywords, "/".join(capacity.excluded))
    return bool(allowed and not barred)


@rule("18.01")
def model_space(capacity: TransportCapacity, model_keywords: Sequence[str]) -> int:
    """How many places one model takes up: 1, or the most the datasheet gives any of its keywords."""
    sizes = [places for keyword, places in capacity.space if has_keyword(model_keywords, keyword)]
    return max(sizes, default=1)


@rule("18.01")
def unit_space(capacity: TransportCapacity, models_keywords: Sequence[Sequence[str]]) -> int:
    """Places a whole unit takes up: the sum over its models (a unit is never split between transports)."""
    return sum(model_space(capacity, keywords) for keywords in models_keywords)


@rule("18.01")
def has_room(capacity: Any, used: Any, needed: Any) -> Any:
    """Whether a TRANSPORT with ``used`` of its ``capacity`` places taken has room for ``needed`` more.

    More than one unit can share a TRANSPORT, so ``used`` counts every unit
    already embarked; only the total is limited.
    """
    return used + needed <= capacity


@rule("18.01")
def may_start_embarked(declare_battle_formations: Any, friendly: Any, type_fits: Any, capacity: Any, used: Any,
                       needed: Any) -> Any:
    """Before the battle a unit can start embarked only in the Declare Battle Formations step, in a friendly
    TRANSPORT that takes its models and has room left for the whole unit."""
    return And(declare_battle_formations, friendly, type_fits, has_room(capacity, used, needed))


# 18.02 Embarking ---------------------------------------------------------------------------

#: The move types after which a unit can embark.
EMBARKING_MOVES = (MoveType.NORMAL, MoveType.ADVANCE, MoveType.FALL_BACK)

#: Steps before the battle, in order: Muster Armies (19.01), then the three the FAQ on scout moves orders; the
#: battle rounds begin after the last.
PRE_BATTLE_STEPS = ("Muster Armies", "Declare Battle Formations", "Resolve Pre-battle Abilities", "Begin the Battle")


@rule("18.02")
def may_embark(battle_round_started: Any, after_normal_advance_or_fall_back: Any, every_model_within_3: Any,
               set_up_this_turn: Any, eligible_per_datasheet: Any, friendly: Any, capacity: Any, used: Any,
               needed: Any) -> Any:
    """Whether a unit can embark within a TRANSPORT now: once the first battle round has started, right after
    a normal, advance or fall-back move, all four conditions met (within 3", not set up this turn, of a type the
    datasheet allows, room for every model), and both friendly."""
    return And(battle_round_started, after_normal_advance_or_fall_back, friendly, every_model_within_3,
               Not(set_up_this_turn), eligible_per_datasheet, has_room(capacity, used, needed))


@rule("18.02", "appendix/faq-can-a-unit-embark-within-a-transport-after-making-a-scout")
def may_embark_after_move(move: MoveType, step: str) -> bool:
    """Whether a move made in ``step`` can be followed by embarking: only a normal, advance or fall-back move
    made once the battle has begun. A scout move fails both: it is made in the Resolve Pre-battle Abilities step,
    after the Declare Battle Formations step (the only time a unit can start embarked) and before the battle begins.
    """
    if step not in PRE_BATTLE_STEPS and step != "battle round":
        raise ValueError(f"{step!r} is neither a pre-battle step the rules order nor 'battle round'")
    return step == "battle round" and MoveType(move) in EMBARKING_MOVES


def embarked_units(state: GameState, transport: str) -> list[UnitState]:
    """The units embarked within ``transport`` (not destroyed)."""
    return [u for u in state.units if u.embarked_in == transport and not u.destroyed]


def space_taken(unit: UnitState, capacity: TransportCapacity) -> int:
    """Places a unit takes in a transport, treating its models alike (the records hold unit keywords only)."""
    return unit.models * model_space(capacity, tuple(unit.keywords))


_EMBARK_REFUSALS = {
    "battle_round_started": "the battle has not started",
    "after_normal_advance_or_fall_back": "it did not just make a normal, advance or fall-back move",
    "every_model_within_3": "a model is more than 3\" from the transport",
    "set_up_this_turn": "it was set up on the battlefield this turn",
    "eligible_per_datasheet": "the transport's datasheet does not let it embark",
    "friendly": "the transport is not friendly",
}


@rule("18.02")
def embark(state: GameState, unit: str, transport: str, *, capacity: TransportCapacity, every_model_within_3: bool,
           eligible_per_datasheet: bool = True) -> GameState:
    """Embark a unit that has just made a normal, advance or fall-back move: the active player removes it from
    the battlefield and it is embarked within the TRANSPORT; a ValueError says why it cannot."""
    mover, carrier = state.unit(unit), state.unit(transport)
    if not carrier.on_battlefield or carrier.destroyed:
        raise ValueError(f"{unit} cannot embark within {transport}: the transport is not on the battlefield")
    if not mover.on_battlefield or mover.destroyed:
        raise ValueError(f"{unit} cannot embark within {transport}: it is not on the battlefield")
    used = sum(space_taken(u, capacity) for u in embarked_units(state, transport))
    needed = space_taken(mover, capacity)
    last = MoveType(mover.phase_moves[-1]) if mover.phase_moves else None
    facts = {
        "battle_round_started": state.step not in PRE_BATTLE_STEPS,
        "after_normal_advance_or_fall_back": last in EMBARKING_MOVES,
        "every_model_within_3": every_model_within_3,
        "set_up_this_turn": mover.set_up_this_turn,
        "eligible_per_datasheet": eligible_per_datasheet and model_type_fits(capacity, tuple(mover.keywords)),
        "friendly": mover.owner == carrier.owner,
        "capacity": capacity.models, "used": used, "needed": needed,
    }
    if not may_embark(**facts):
        reasons = [why for key, why in _EMBARK_REFUSALS.items() if bool(facts[key]) == (key == "set_up_this_turn")]
        if not has_room(capacity.models, used, needed):
            reasons.append("the transport has no room for every model")
        raise ValueError(f"{unit} cannot embark within {transport}: {'; '.join(reasons) or 'not allowed'}")
    moved = replace(mover, on_battlefield=False, embarked_in=transport, engaged=False)
    return state.with_unit(moved).note(f"{unit} embarks within {transport} ({used + needed}/{capacity.models} places)")


# 18.03 Disembarking -----------------------------------------------------------------------


@rule("18.03")
def may_disembark_in_phase(phase: Any, unit_owner: Any, active_player: Any) -> Any:
    """A unit can disembark (by a disembark move) only in the Movement phase of the player it belongs to."""
    return And(phase == Phase.MOVEMENT, unit_owner == active_player)


# 18.04 Disembark move ------------------------------------------------------------------------


class TransportMove(enum.IntEnum):
    """What the TRANSPORT has done so far this phase, as far as the disembark move asks."""

    NOT_SELECTED = 0
    REMAINED_STATIONARY = 1
    NORMAL = 2
    ADVANCE = 3
    FALL_BACK = 4
    INGRESS = 5
    OTHER = 6  # any other move type, e.g. a surge move


class DisembarkMode(enum.IntEnum):
    RAPID = 1
    TACTICAL = 2
    COMBAT = 3


_TRANSPORT_MOVES = {MoveType.REMAIN_STATIONARY: TransportMove.REMAINED_STATIONARY, MoveType.NORMAL: TransportMove.NORMAL,
                    MoveType.ADVANCE: TransportMove.ADVANCE, MoveType.FALL_BACK: TransportMove.FALL_BACK,
                    MoveType.INGRESS: TransportMove.INGRESS}


def transport_move(phase_moves: Sequence[MoveType]) -> TransportMove:
    """The transport's move this phase in the disembark move's terms: an advance or fall-back move it made this
    phase, even one before it was repositioned and arrived again (20.02: it has still made that move), else its
    last move; none: not yet selected."""
    if not phase_moves:
        return TransportMove.NOT_SELECTED
    moves = [MoveType(m) for m in phase_moves]
    barring = [m for m in moves if m in (MoveType.ADVANCE, MoveType.FALL_BACK)]
    return _TRANSPORT_MOVES.get((barring or moves)[-1], TransportMove.OTHER)


@rule("18.04")
def disembark_eligible(transport_on_battlefield: Any, embarked_this_phase: Any, transport_move: Any) -> Any:
    """A unit can make a disembark move if its TRANSPORT is on the battlefield, it did not embark this phase and
    the TRANSPORT has not made an advance or fall-back move this phase."""
    return And(transport_on_battlefield, Not(embarked_this_phase),
               transport_move != TransportMove.ADVANCE, transport_move != TransportMove.FALL_BACK)


DISEMBARK_MODE = DecisionTable(
    name="disembark-mode",
    refs=("18.04",),
    inputs=(Var("transport_move", TransportMove.NOT_SELECTED, TransportMove.OTHER),
            Var("tactical_set_up_possible", kind="bool")),
    # The mode is selected only for an eligible unit: its TRANSPORT did not advance or fall back this phase.
    assume=lambda transport_move, **_: And(transport_move != TransportMove.ADVANCE,
                                           transport_move != TransportMove.FALL_BACK),
    rows=(
        Row("Rapid Disembark: that TRANSPORT made a normal or ingress move this phase (must)",
            lambda transport_move, **_: Or(transport_move == TransportMove.NORMAL,
                                           transport_move == TransportMove.INGRESS),
            DisembarkMode.RAPID),
        Row("Tactical Disembark: otherwise, if it remained stationary or has not yet been selected to move, and "
            "the unit can be set up (must)",
            lambda transport_move, tactical_set_up_possible: And(
                Or(transport_move == TransportMove.REMAINED_STATIONARY, transport_move == TransportMove.NOT_SELECTED),
                tactical_set_up_possible),
            DisembarkMode.TACTICAL),
        Row("Combat Disembark: otherwise (must)", lambda **_: True, DisembarkMode.COMBAT, otherwise=True),
    ),
)


@rule("18.04")
def disembark_mode(transport_move: Any, tactical_set_up_possible: Any) -> Any:
    """The disembark mode an eligible unit must select (modes are mandatory and assessed in order, 09 'Selecting
    modes'); ``tactical_set_up_possible``: the unit can be set up wholly within 3" and unengaged."""
    return DISEMBARK_MODE(transport_move=transport_move, tactical_set_up_possible=tactical_set_up_possible)


@rule("18.04")
def disembark_set_up_distance(mode: Any) -> Any:
    """Rapid and tactical disembarks set up within 3" of the TRANSPORT, combat disembarks within 6"."""
    return If(mode == DisembarkMode.COMBAT, 6, 3)


@rule("18.04")
def disembark_position_allowed(mode: Any, model: Placed, transport: Placed, engaged: Any,
                               engaged_only_with_transports_opponents: Any, transport_ingressed_this_turn: Any,
                               meets_ingress_restrictions: Any) -> Any:
    """Whether a disembarking model may be set up here: wholly within the mode's set-up distance of the TRANSPORT;
    unengaged, except that a combat disembark may engage units the TRANSPORT is engaged with; and after the
    TRANSPORT's ingress move this turn a rapid disembark keeps that move's restrictions.

    Interpretation: rapid-disembark-keeps-ingress-restrictions (``meets_ingress_restrictions`` comes from
    ``strategic_reserves.ingress_restrictions_met``).
    """
    distance_ok = wholly_within(model, transport, disembark_set_up_distance(mode))
    engagement_ok = Or(Not(engaged), And(mode == DisembarkMode.COMBAT, engaged_only_with_transports_opponents))
    ingress_ok = Implies(And(mode == DisembarkMode.RAPID, transport_ingressed_this_turn), meets_ingress_restrictions)
    return And(distance_ok, engagement_ok, ingress_ok)


@rule("18.04")
def disembark_hazard_rolls(mode: Any, models: Any) -> Any:
    """A combat disembark makes a hazard roll for each model in the unit, before moving; the others make none."""
    return If(mode == DisembarkMode.COMBAT, models, 0)


@dataclass(frozen=True)
class DisembarkAftermath:
    """What holds after a disembark move: battle-shock, no charge this turn, and whether a move must follow."""

    battle_shocked: Any
    not_eligible_to_charge: Any
    then_normal_or_advance_move: Any


@rule("18.04")
def disembark_aftermath(mode: Any) -> DisembarkAftermath:
    """After moving: rapid - no charge this turn; tactical - select the unit for a normal or advance move;
    combat - battle-shocked and no charge this turn."""
    return DisembarkAftermath(
        battle_shocked=mode == DisembarkMode.COMBAT,
        not_eligible_to_charge=Or(mode == DisembarkMode.RAPID, mode == DisembarkMode.COMBAT),
        then_normal_or_advance_move=mode == DisembarkMode.TACTICAL,
    )


@rule("18.03", "18.04")
def disembark(state: GameState, unit: str, *, tactical_set_up_possible: bool, embarked_this_phase: bool = False,
              set_up_succeeds: bool = True) -> tuple[GameState, DisembarkMode | None]:
    """Make a disembark move with an embarked unit in its player's Movement phase; returns the new state and the
    mode used. A failed set up (03.02) leaves it embarked and not selected to move (mode None)."""
    mover = state.unit(unit)
    if mover.embarked_in is None:
        raise ValueError(f"{unit} is not embarked within a transport")
    carrier = state.unit(mover.embarked_in)
    if not may_disembark_in_phase(state.phase, mover.owner, state.turn_player):
        raise ValueError(f"{unit} can only disembark in its own player's Movement phase")
    moved_so_far = transport_move(carrier.phase_moves)
    if not disembark_eligible(carrier.on_battlefield and not carrier.destroyed, embarked_this_phase, moved_so_far):
        raise ValueError(f"{unit} is not eligible to disembark from {carrier.name} (18.04)")
    mode = DisembarkMode(disembark_mode(moved_so_far, tactical_set_up_possible))
    if not set_up_succeeds:
        return state.note(f"{unit} cannot be set up for a {mode.name.lower()} disembark and stays embarked"), None
    after = disembark_aftermath(mode)
    moved = replace(mover, on_battlefield=True, embarked_in=None, set_up_this_turn=True,
                    moves=mover.moves + (MoveType.DISEMBARK,), phase_moves=mover.phase_moves + (MoveType.DISEMBARK,),
                    selected_to_move=True, battle_shocked=mover.battle_shocked or bool(after.battle_shocked))
    return state.with_unit(moved).note(f"{unit} makes a {mode.name.lower()} disembark from {carrier.name}"), mode


# 18.05 Emergency disembark move -------------------------------------------------------------------

EMERGENCY_SET_UP_DISTANCE = 6


@rule("18.05")
def emergency_position_allowed(model: Placed, transport: Placed, engaged: Any, as_close_as_possible: Any) -> Any:
    """Whether a model making an emergency disembark may be set up here: wholly within 6" of the destroyed
    TRANSPORT, as close as possible to it, and unengaged (03.02; no exception as for combat disembarks)."""
    return And(wholly_within(model, transport, EMERGENCY_SET_UP_DISTANCE), as_close_as_possible, Not(engaged))


@rule("18.05")
def emergency_disembark_outcome(models: Any, placeable: Any) -> tuple[Any, Any]:
    """(models set up, models destroyed): each model that cannot be set up is destroyed, instead of the unit
    returning to the TRANSPORT (03.02), which is gone. ``placeable`` is how many of them fit."""
    set_up = Clamp(placeable, 0, models)
    return set_up, models - set_up


@rule("18.05")
def emergency_hazard_rolls(models: Any) -> Any:
    """An emergency disembark makes a hazard roll for each model in the unit (06.03), before moving."""
    return models


@rule("18.03", "18.05")
def transport_destroyed(state: GameState, transport: str, *, placeable: Mapping[str, int]) -> GameState:
    """A TRANSPORT is destroyed: before it is removed, an emergency disembark move for each unit embarked within it
    (models that cannot be set up are destroyed; the survivors are battle-shocked), then the TRANSPORT goes.

    ``placeable`` maps each embarked unit to how many of its models can be set up. The hazard rolls' mortal
    wounds are resolved by 06.03, not here.
    """
    carrier = state.unit(transport)
    for passenger in embarked_units(state, transport):
        kept, lost = emergency_disembark_outcome(passenger.models, placeable.get(passenger.name, 0))
        moved = replace(passenger, models=kept, on_battlefield=kept > 0, embarked_in=None, set_up_this_turn=True,
                        battle_shocked=True, moves=passenger.moves + (MoveType.EMERGENCY_DISEMBARK,),
                        phase_moves=passenger.phase_moves + (MoveType.EMERGENCY_DISEMBARK,))
        state = state.with_unit(moved).note(
            f"{passenger.name} makes an emergency disembark from {transport}: {emergency_hazard_rolls(passenger.models)} "
            f"hazard rolls, {kept} models set up, {lost} destroyed")
    removed = replace(carrier, models=0, on_battlefield=False)
    return state.with_unit(removed).note(f"{transport} is removed from the battlefield")
