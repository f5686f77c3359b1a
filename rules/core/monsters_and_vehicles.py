"""Chapter 17, Monsters and vehicles: moving through models (17.01), FRAME models (17.02) and shooting at
engaged MONSTER/VEHICLE units (17.03).

Which models a model can be moved through is a first-match table joining 03.01, 17.01 and 24.35 (21.03's
taking to the skies is applied on top); FRAME geometry is in ``rules.battlefield``.
"""

from __future__ import annotations

from typing import Any, Sequence

from rules.core.datasheets import has_keyword
from rules.logic import And, DecisionTable, If, Not, Or, Row, Var
from rules.registry import rule
from rules.state import MoveType


@rule("17.03")
def engaged_monster_vehicle_may_be_targeted(target_monster_or_vehicle: Any, own_shooting_phase: Any) -> Any:
    """In your Shooting phase an engaged enemy MONSTER/VEHICLE unit can be targeted by ranged attacks."""
    return And(target_monster_or_vehicle, own_shooting_phase)


@rule("17.03")
def engaged_monster_vehicle_hit_modifier(target_engaged_monster_or_vehicle: Any, close_quarters_weapon: Any,
                                         attacker_engaged_with_target: Any) -> Any:
    """-1 to hit against an engaged MONSTER/VEHICLE, except [CLOSE-QUARTERS] attacks from a unit engaged with it."""
    exempt = And(close_quarters_weapon, attacker_engaged_with_target)
    return If(And(target_engaged_monster_or_vehicle, Not(exempt)), -1, 0)


# 17.01 Moving monsters and vehicles -----------------------------------------------------------------------------

_FRIENDLY = "a friendly model: any model can be moved through it (03.01)"
_MONSTER_VEHICLE = ("a MONSTER/VEHICLE model in a normal or advance move: through enemy models too, except other "
                    "MONSTER/VEHICLE models (17.01)")
_WALKER = ("a SUPER-HEAVY WALKER model in a normal, advance or fall-back move: through any model, MONSTER/VEHICLE "
           "included, except TITANIC models (24.35)")

MOVE_THROUGH_MODELS = DecisionTable(
    name="move-through-models",
    refs=("03.01", "17.01", "24.35"),
    inputs=(Var("friendly", kind="bool"), Var("mover_monster_or_vehicle", kind="bool"),
            Var("other_monster_or_vehicle", kind="bool"), Var("other_titanic", kind="bool"),
            Var("normal_or_advance", kind="bool"), Var("fall_back", kind="bool"),
            Var("super_heavy_walker", kind="bool")),
    # A move is one type at a time.
    assume=lambda normal_or_advance, fall_back, **_: Not(And(normal_or_advance, fall_back)),
    rows=(
        Row(_FRIENDLY, lambda friendly, **_: friendly, True),
        Row(_MONSTER_VEHICLE,
            lambda mover_monster_or_vehicle, other_monster_or_vehicle, normal_or_advance, **_:
            And(mover_monster_or_vehicle, normal_or_advance, Not(other_monster_or_vehicle)), True),
        Row(_WALKER,
            lambda super_heavy_walker, normal_or_advance, fall_back, other_titanic, **_:
            And(super_heavy_walker, Or(normal_or_advance, fall_back), Not(other_titanic)), True),
        Row("otherwise: an enemy model's base cannot be moved through (03.01)", lambda **_: True, False,
            otherwise=True),
    ),
    gap=False,
)


@rule("17.01")
def may_move_through_model(friendly: Any, mover_monster_or_vehicle: Any, other_monster_or_vehicle: Any,
                           normal_or_advance: Any, fall_back: Any = False, other_titanic: Any = False,
                           super_heavy_walker: Any = False, taking_to_the_skies: Any = False) -> Any:
    """Whether a model can be moved through another model: friendly ones always; MONSTER/VEHICLE models in a normal
    or advance move through enemy models that are not MONSTER/VEHICLE; SUPER-HEAVY WALKER models (24.35) and
    FLYING models taking to the skies (21.03) further."""
    from rules.core import flying_and_surging

    ordinary = MOVE_THROUGH_MODELS(friendly=friendly, mover_monster_or_vehicle=mover_monster_or_vehicle,
                                   other_monster_or_vehicle=other_monster_or_vehicle, other_titanic=other_titanic,
                                   normal_or_advance=normal_or_advance, fall_back=fall_back,
                                   super_heavy_walker=super_heavy_walker)
    return flying_and_surging.may_move_through_model(ordinary, taking_to_the_skies)


@rule("17.01")
def may_move_through(mover_keywords: Sequence[str], other_keywords: Sequence[str], friendly: bool, move: MoveType,
                     super_heavy_walker: bool = False, taking_to_the_skies: bool = False) -> bool:
    """``may_move_through_model`` for models with these keywords, in a move of this type."""
    move = MoveType(move) if isinstance(move, str) else move
    return bool(may_move_through_model(
        friendly, has_keyword(mover_keywords, "MONSTER/VEHICLE"), has_keyword(other_keywords, "MONSTER/VEHICLE"),
        move in (MoveType.NORMAL, MoveType.ADVANCE), move == MoveType.FALL_BACK,
        has_keyword(other_keywords, "TITANIC"), super_heavy_walker, taking_to_the_skies))


# 17.02 Frame ------------------------------------------------------------------------------------------------------
# Measuring to the closest point of a FRAME model and turning one about its central axis are geometry:
# rules.battlefield.horizontal_distance, vertical_distance, within and rotate_frame (registered for 17.02).


@rule("17.02")
def measure_to_closest_point_of_model(frame: Any, otherwise_stated: Any = False) -> Any:
    """Whether distances to and from a model are measured to the closest point of the model itself (FRAME,
    unless otherwise stated) rather than to its base (01.04)."""
    return And(frame, Not(otherwise_stated))
