"""The sheet's transports: embarking, disembarking, and what happens when a Transport is destroyed."""

from __future__ import annotations

import enum
from typing import Any

from rules.logic import And, If, Not, Or
from rules.quickref.movement import Move
from rules.registry import ruleset_rule

rule = ruleset_rule("quickref")

EMBARK_DISTANCE = 3
DISEMBARK_DISTANCE = 3


class TransportMove(enum.IntEnum):
    """What the Transport has done so far this Movement phase."""

    NOT_MOVED = 0  # not yet moved
    REMAINED_STATIONARY = 1
    NORMAL = 2
    ADVANCE = 3
    FALL_BACK = 4


@rule("transports/embark")
def may_embark(move: Any, every_model_within_3: Any) -> Any:
    """A unit embarks when every model ends a Normal, Advance or Fall Back move within 3" of a friendly Transport."""
    return And(Or(move == Move.NORMAL, move == Move.ADVANCE, move == Move.FALL_BACK), every_model_within_3)


@rule("transports/embark-and-disembark")
def may_do_second(embarked_first: Any) -> Any:
    """A unit cannot both Embark and Disembark in the same phase, in either order (``embarked_first``: it embarked
    and would now disembark; otherwise it disembarked and would now embark)."""
    return False


@rule("transports/disembark-eligibility")
def may_disembark(transport_move: Any) -> Any:
    """A unit embarked at the start of the Movement phase can Disembark only if its Transport has not Advanced or
    Fallen Back."""
    return And(transport_move != TransportMove.ADVANCE, transport_move != TransportMove.FALL_BACK)


CANNOT_DISEMBARK = 0


@rule("transports/disembark-within-3")
def disembark_set_up_distance(transport_move: Any, can_set_up_within_3: Any) -> Any:
    """Disembarking models are set up wholly within 3" of the Transport; a unit that cannot be set up so cannot
    Disembark (0)."""
    return If(can_set_up_within_3, DISEMBARK_DISTANCE, CANNOT_DISEMBARK)


@rule("transports/disembark-not-engaged")
def may_set_up_engaged(transport_move: Any, engaged_enemy_is_engaged_with_transport: Any) -> Any:
    """Disembarking models cannot be set up within Engagement Range of enemy models (the unit then cannot Disembark),
    whoever those enemies are."""
    return False


@rule("transports/disembark-before-transport-moves", "transports/disembark-after-transport-moves")
def after_disembarking(transport_moved: Any) -> tuple[Any, Any]:
    """(may still move, may charge) this turn: before the Transport moves the unit acts normally; after it moves the
    unit cannot Move or Charge but otherwise acts normally."""
    return Not(transport_moved), Not(transport_moved)


@rule("transports/disembark-not-stationary")
def counts_as_remained_stationary(disembarked: Any) -> Any:
    """A unit that Disembarks does not count as Remaining Stationary (one that stayed embarked and did nothing does)."""
    return Not(disembarked)


#: The table under WHEN TRANSPORT DESTROYED: where the unit can disembark, and the D6 results that suffer 1MW.
DESTROYED_TRANSPORT_TABLE = (
    ('Wholly within 3"', 1, 1),
    ('Wholly within 6"', 1, 3),
)


@rule("transports/destroyed-test")
def destroyed_transport_mortal_wounds(roll: Any, can_disembark_within_3: Any) -> Any:
    """Each embarked model rolls a D6 when its Transport is destroyed: 1 mortal wound on a 1 if the unit can
    disembark wholly within 3", on a 1-3 if only wholly within 6"."""
    (_, low3, high3), (_, low6, high6) = DESTROYED_TRANSPORT_TABLE
    hit = If(can_disembark_within_3, And(roll >= low3, roll <= high3), And(roll >= low6, roll <= high6))
    return If(hit, 1, 0)


@rule("transports/destroyed-aftermath")
def after_transport_destroyed(charge_eligible_otherwise: Any) -> tuple[Any, Any]:
    """(Battle-shocked, counts as a Normal move that leaves a charge open): the unit is Battle-shocked and its
    disembarking counts as a Normal move, which stops no charge."""
    return True, charge_eligible_otherwise
