"""The earlier edition's Movement phase: which moves a unit may make, how far, what a move forbids later in the
turn, Reinforcements, terrain and FLY, TRANSPORTS (embark, disembark, a destroyed transport's passengers) and
AIRCRAFT.

A unit within Engagement Range of enemy models may only Remain Stationary or Fall Back, unless the only enemy
models there are AIRCRAFT or it is an AIRCRAFT itself. Distances are in inches; "within" includes the distance
itself (interpretation within-inclusive).
"""

from __future__ import annotations

from fractions import Fraction
from math import comb
from typing import Any

from rules.logic import And, If, Not, Or
from rules.registry import ruleset_rule

rule = ruleset_rule("ninth")

D6_FACES = range(1, 7)
LOW_TERRAIN_INCHES = 1  # terrain this high or lower is moved over as if it were not there
EMBARK_RANGE = 3  # every model ends its move within 3" of the TRANSPORT
DISEMBARK_RANGE = 3  # set up wholly within 3" of the TRANSPORT
DESTROYED_TRANSPORT_LOSS_ROLL = 1  # each D6 of 1 destroys one model that disembarked

NORMAL_MOVE = "Normal Move"
ADVANCE = "Advance"
FALL_BACK = "Fall Back"
REMAIN_STATIONARY = "Remain Stationary"


@rule("movement-phase/move-units", "movement-phase/aircraft/engagement-range")
def engaged_for_moving(enemy_units_within_engagement_range: Any, enemy_aircraft_within_engagement_range: Any = 0,
                       aircraft: Any = False) -> Any:
    """Whether a unit selected to move counts as within Engagement Range for choosing its move: some enemy unit
    other than an AIRCRAFT is within its Engagement Range, and it is not an AIRCRAFT itself (an AIRCRAFT, and a
    unit only AIRCRAFT are near, still make a Normal Move or an Advance). The AIRCRAFT counted are some of the
    enemy units counted."""
    return And(enemy_units_within_engagement_range > enemy_aircraft_within_engagement_range, Not(aircraft))


@rule("movement-phase/move-units", "movement-phase/aircraft/engagement-range", "movement-phase/reinforcements")
def may_make_normal_move_or_advance(enemy_units_within_engagement_range: Any,
                                    enemy_aircraft_within_engagement_range: Any = 0, aircraft: Any = False,
                                    arrived_as_reinforcements: Any = False) -> Any:
    """Whether a unit may make a Normal Move or Advance this Movement phase: not engaged for moving, and not a
    unit that arrived as Reinforcements this turn."""
    return And(Not(engaged_for_moving(enemy_units_within_engagement_range, enemy_aircraft_within_engagement_range,
                                      aircraft)),
               Not(arrived_as_reinforcements))


@rule("movement-phase/move-units", "movement-phase/fall-back", "movement-phase/reinforcements")
def may_fall_back(enemy_units_within_engagement_range: Any, can_end_clear_of_enemies: Any = True,
                  arrived_as_reinforcements: Any = False) -> Any:
    """Whether a unit may Fall Back: it is within Engagement Range of an enemy unit when selected (Fall Back is the
    move out of it), each model can end the move outside Engagement Range of every enemy model ("if it cannot do
    this then it cannot Fall Back"), and it did not arrive as Reinforcements this turn."""
    return And(enemy_units_within_engagement_range > 0, can_end_clear_of_enemies, Not(arrived_as_reinforcements))


@rule("movement-phase/move-units", "movement-phase/remain-stationary", "movement-phase/reinforcements")
def may_remain_stationary(arrived_as_reinforcements: Any = False) -> Any:
    """Whether a unit may Remain Stationary: any unit may, except one that arrived as Reinforcements this turn."""
    return Not(arrived_as_reinforcements)


@rule("movement-phase/move-units", "movement-phase/aircraft/engagement-range", "movement-phase/reinforcements")
def allowed_moves(enemy_units_within_engagement_range: int = 0, enemy_aircraft_within_engagement_range: int = 0,
                  aircraft: bool = False, arrived_as_reinforcements: bool = False,
                  can_end_clear_of_enemies: bool = True) -> list[str]:
    """The moves a unit selected in the Move Units step may choose from, in the text's order.

    Interpretation: reprint-where-the-web-page-is-silent.
    """
    out = []
    if may_make_normal_move_or_advance(enemy_units_within_engagement_range, enemy_aircraft_within_engagement_range,
                                       aircraft, arrived_as_reinforcements):
        out += [NORMAL_MOVE, ADVANCE]
    if may_fall_back(enemy_units_within_engagement_range, can_end_clear_of_enemies, arrived_as_reinforcements):
        out.append(FALL_BACK)
    if may_remain_stationary(arrived_as_reinforcements):
        out.append(REMAIN_STATIONARY)
    return out


@rule("movement-phase/normal-move", "movement-phase/fall-back", "movement-phase/remain-stationary",
      "movement-phase/advance")
def maximum_move(move_characteristic: Any, kind: str, advance_roll: Any = 0) -> Any:
    """How far each model may move: up to M for a Normal Move or Fall Back, M plus the Advance roll (one D6) for an
    Advance, nothing when Remaining Stationary."""
    if kind == ADVANCE:
        return move_characteristic + advance_roll
    if kind in (NORMAL_MOVE, FALL_BACK):
        return move_characteristic
    if kind == REMAIN_STATIONARY:
        return 0
    raise ValueError(f"{kind!r} is not a move (one of {NORMAL_MOVE}, {ADVANCE}, {FALL_BACK}, {REMAIN_STATIONARY})")


@rule("movement-phase/advance")
def advance_distance_distribution(move_characteristic: int) -> dict[int, Fraction]:
    """The exact distribution of how far an Advancing model may move: M + D6, each of M+1 .. M+6 a sixth."""
    return {move_characteristic + face: Fraction(1, 6) for face in D6_FACES}


@rule("movement-phase/advance", "movement-phase/fall-back")
def move_allows_shooting(advanced: Any = False, fell_back: Any = False, titanic: Any = False) -> Any:
    """Whether this turn's move leaves the unit free to shoot, by the Movement phase's rules: not after an Advance
    (the Assault weapon exception is a weapon-type rule, shooting-phase/ranged-weapon-types/assault), and not
    after Falling Back unless it is TITANIC."""
    return And(Not(advanced), Or(Not(fell_back), titanic))


@rule("movement-phase/fall-back")
def move_allows_psychic(fell_back: Any = False, titanic: Any = False) -> Any:
    """Whether this turn's move leaves the unit free to attempt to manifest psychic powers: not after Falling Back
    unless it is TITANIC (an Advance does not stop it)."""
    return Or(Not(fell_back), titanic)


@rule("movement-phase/advance", "movement-phase/fall-back")
def move_allows_charge(advanced: Any = False, fell_back: Any = False) -> Any:
    """Whether this turn's move leaves the unit free to declare a charge, by the Movement phase's wording ("in the
    same turn"): not after an Advance or a Fall Back, TITANIC or not. The Charge phase bars it for the whole
    battle round (charge.charge_eligible; finding charge-ban-turn-or-battle-round).

    Interpretation: charge-ban-lasts-the-battle-round."""
    return And(Not(advanced), Not(fell_back))


@rule("movement-phase/reinforcements", "rare-rules/repositioned-and-replacement-units")
def reinforcement_distance_moved(move_characteristic: Any, maximum_move_characteristic: Any = None) -> Any:
    """How far the models of a unit that arrived as Reinforcements count as having moved this Movement phase: their
    Move characteristic, or their maximum Move characteristic if they have a minimum one."""
    return move_characteristic if maximum_move_characteristic is None else maximum_move_characteristic


@rule("movement-phase/reinforcements")
def reinforcement_destroyed_at_end(set_up_on_battlefield: Any) -> Any:
    """Whether a Reinforcement unit counts as destroyed when the battle ends: it was never set up on the
    battlefield."""
    return Not(set_up_on_battlefield)


@rule("movement-phase/moving-over-terrain", "movement-phase/flying", "charge-phase/charging-over-terrain",
      "charge-phase/flying-when-charging")
def vertical_distance_counted(terrain_height: Any, vertical_inches: Any, fly: Any = False,
                              charge_move: Any = False) -> Any:
    """How much of the vertical distance a model climbs up and/or down a terrain feature counts towards its move:
    none over terrain 1" high or lower; none for a FLY model's Normal Move, Advance or Fall Back; all of it
    otherwise (a FLY model's charge move climbs like any other model's)."""
    ignored = Or(terrain_height <= LOW_TERRAIN_INCHES, And(fly, Not(charge_move)))
    return If(ignored, 0, vertical_inches)


@rule("movement-phase/flying", "charge-phase/flying-when-charging", "movement-phase/aircraft/engagement-range")
def may_move_across_model(fly: Any = False, other_is_aircraft: Any = False) -> Any:
    """Whether a moving model may pass across another model (and its base) as if it were not there: a FLY model
    in a Normal Move, Advance, Fall Back or charge move may, and every model may cross AIRCRAFT. No move may end
    on top of another model."""
    return Or(fly, other_is_aircraft)


@rule("movement-phase/transports")
def within_transport_capacity(models_embarked: Any, models_embarking: Any, transport_capacity: Any) -> Any:
    """Whether a unit's models fit: a TRANSPORT's capacity can never be exceeded."""
    return models_embarked + models_embarking <= transport_capacity


@rule("movement-phase/transports/embark")
def may_embark(move_kind: str, farthest_model_inches: Any, transport_within_engagement_range: Any = False,
               disembarked_this_phase: Any = False) -> Any:
    """Whether a unit may embark: it made a Normal Move, Advance or Fall Back, every model ended within 3" of the
    friendly TRANSPORT (the farthest one decides), the TRANSPORT is not within Engagement Range of enemy models,
    and the unit did not disembark this phase. Interpretation: within-inclusive."""
    moved = move_kind in (NORMAL_MOVE, ADVANCE, FALL_BACK)
    return And(moved, farthest_model_inches <= EMBARK_RANGE, Not(transport_within_engagement_range),
               Not(disembarked_this_phase))


@rule("movement-phase/transports/embark")
def embarked_unit_counts_as(transport_move: str) -> str:
    """The kind of move a unit embarked within a TRANSPORT counts as having made this turn: the same as the
    TRANSPORT's (Normal Move, Advance, Fall Back or Remain Stationary)."""
    if transport_move not in (NORMAL_MOVE, ADVANCE, FALL_BACK, REMAIN_STATIONARY):
        raise ValueError(f"{transport_move!r} is not a move (one of {NORMAL_MOVE}, {ADVANCE}, {FALL_BACK}, "
                         f"{REMAIN_STATIONARY})")
    return transport_move


@rule("movement-phase/transports/disembark")
def may_disembark(started_phase_embarked: Any, transport_moved_this_phase: Any = False,
                  transport_destroyed: Any = False) -> Any:
    """Whether a unit may disembark in the Movement phase: it started the phase embarked and its TRANSPORT has not
    yet made a Normal Move, Advance or Fall Back this phase; a destroyed TRANSPORT's passengers always must."""
    return Or(transport_destroyed, And(started_phase_embarked, Not(transport_moved_this_phase)))


@rule("movement-phase/transports/disembark")
def disembark_set_up_allowed(farthest_part_inches: Any, within_engagement_range_of_enemy: Any = False) -> Any:
    """Whether a disembarking unit's set-up is allowed: wholly within 3" of the TRANSPORT (every part of every
    model, the farthest decides) and not within Engagement Range of any enemy models."""
    return And(farthest_part_inches <= DISEMBARK_RANGE, Not(within_engagement_range_of_enemy))


@rule("movement-phase/transports/disembark", "movement-phase/transports/embark")
def counts_as_moved(disembarked_this_turn: Any = False, moved: Any = False) -> Any:
    """Whether a unit counts as having moved this turn: it moved, or it disembarked (a unit that disembarked never
    counts as having Remained Stationary)."""
    return Or(moved, disembarked_this_turn)


@rule("movement-phase/transports/destroyed-transports")
def destroyed_transport_losses(rolls: list[int]) -> int:
    """How many models a destroyed TRANSPORT's passengers lose: one D6 per model set up, one model destroyed for
    each 1."""
    return sum(1 for roll in rolls if roll == DESTROYED_TRANSPORT_LOSS_ROLL)


@rule("movement-phase/transports/destroyed-transports")
def destroyed_transport_loss_distribution(models_set_up: int) -> dict[int, Fraction]:
    """The exact distribution of models lost when ``models_set_up`` models disembark from a destroyed TRANSPORT:
    each of the D6s is a 1 with chance 1/6, so k are lost with chance C(n, k) (1/6)^k (5/6)^(n-k)."""
    if models_set_up < 0:
        raise ValueError(f"models_set_up must not be negative, got {models_set_up}")
    one = Fraction(1, 6)
    return {k: comb(models_set_up, k) * one ** k * (1 - one) ** (models_set_up - k) for k in range(models_set_up + 1)}


@rule("movement-phase/transports/destroyed-transports", "charge-phase/heroic-interventions")
def may_charge_or_intervene_after_disembarking(disembarked_from_destroyed_transport: Any) -> Any:
    """Whether a unit may declare a charge or perform a Heroic Intervention this turn: not once it disembarked
    from a destroyed TRANSPORT this turn."""
    return Not(disembarked_from_destroyed_transport)


@rule("movement-phase/aircraft/minimum-move")
def aircraft_move_limits(minimum_move: Any, maximum_move: Any, modifier: Any = 0) -> tuple[Any, Any]:
    """An AIRCRAFT's minimum and maximum Move after a modifier: both are modified."""
    return minimum_move + modifier, maximum_move + modifier


@rule("movement-phase/aircraft/minimum-move")
def aircraft_move_allowed(least_moved_part_inches: Any, farthest_moved_part_inches: Any, minimum_move: Any,
                          maximum_move: Any) -> Any:
    """Whether an AIRCRAFT's Movement phase move is allowed: every part of its base ends at least its minimum Move
    from where it started (the part that moved least decides) and no part moves further than its maximum Move (the
    part that moved farthest decides)."""
    return And(least_moved_part_inches >= minimum_move, farthest_moved_part_inches <= maximum_move)


@rule("movement-phase/aircraft/minimum-move")
def aircraft_destroyed_for_minimum_move(can_make_minimum_move: Any, would_cross_battlefield_edge: Any = False,
                                        using_strategic_reserves: Any = False) -> Any:
    """Whether an AIRCRAFT is removed and counts as destroyed (with any models embarked within it): it cannot make
    its minimum move, or that move would cross the battlefield edge, unless the Strategic Reserves rule is used."""
    return And(Or(Not(can_make_minimum_move), would_cross_battlefield_edge), Not(using_strategic_reserves))


@rule("movement-phase/aircraft/engagement-range")
def may_end_move_near(enemy_model_within_engagement_range: Any) -> Any:
    """Whether a model may end any kind of move where it is: not within Engagement Range of an enemy model,
    AIRCRAFT or not (it may pass through an enemy AIRCRAFT's Engagement Range on the way)."""
    return Not(enemy_model_within_engagement_range)


@rule("movement-phase/aircraft/heroic-interventions-pile-ins-and-consolidations")
def counts_as_closest_enemy(enemy_is_aircraft: Any, mover_can_fly: Any = False) -> Any:
    """Whether an enemy model counts when finding the closest enemy model for a Heroic Intervention, pile-in or
    consolidation move: AIRCRAFT are left out unless the moving unit can FLY."""
    return Or(Not(enemy_is_aircraft), mover_can_fly)



@rule("movement-phase")
def movement_phase_steps() -> list[str]:
    """The Movement phase's two steps, in order: move units, then set up Reinforcements."""
    return ["Move Units", "Reinforcements"]
