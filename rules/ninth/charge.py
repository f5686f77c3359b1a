"""The earlier edition's Charge phase: which units may declare a charge and at whom, the 2D6 charge roll and the
exact chance it covers a distance, and Heroic Interventions (who may perform one, and its 3" move).

Overwatch, fired before the charge roll, is rules.ninth.overwatch. Distances are in inches; "within" includes the
distance itself (interpretation within-inclusive).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from rules.logic import And, Not, Or
from rules.registry import ruleset_rule

rule = ruleset_rule("ninth")

D6_FACES = range(1, 7)
CHARGE_RANGE = 12  # inches: an eligible unit is within 12" of an enemy unit; its targets are within 12" of it
HEROIC_HORIZONTAL = 3  # inches
HEROIC_VERTICAL = 5  # inches
HEROIC_INTERVENTION_MOVE = 3  # inches


@rule("charge-phase/charges", "movement-phase/transports/destroyed-transports")
def charge_eligible(closest_enemy_inches: Any, advanced_this_battle_round: Any = False,
                    fell_back_this_battle_round: Any = False, within_engagement_range: Any = False,
                    disembarked_from_destroyed_transport: Any = False) -> Any:
    """Whether a unit may declare a charge: within 12" of an enemy unit at the start of the Charge phase, it has
    neither Advanced nor Fallen Back this battle round, it starts the phase outside Engagement Range of every
    enemy unit, and it did not disembark from a destroyed TRANSPORT this turn.

    Interpretation: charge-ban-lasts-the-battle-round. Interpretation: within-inclusive.
    """
    return And(closest_enemy_inches <= CHARGE_RANGE, Not(advanced_this_battle_round),
               Not(fell_back_this_battle_round), Not(within_engagement_range),
               Not(disembarked_from_destroyed_transport))


@rule("charge-phase/charging-with-a-unit")
def charge_target_allowed(distance_inches: Any) -> Any:
    """Whether an enemy unit may be a target of the charge: within 12" of the charging unit (it need not be
    visible)."""
    return distance_inches <= CHARGE_RANGE


@rule("charge-phase/charging-with-a-unit", "charge-phase/charging-over-terrain")
def charge_succeeds(charge_roll: Any, distance_needed: Any, move_possible: Any = True) -> Any:
    """Whether a charge succeeds: the 2D6 charge roll is at least the distance the unit needs (measured with any
    climbing it must count) to end in unit coherency and within Engagement Range of every target without moving
    within Engagement Range of an enemy unit it did not target (``move_possible``: such a move exists at all, e.g.
    it need not end mid-climb)."""
    return And(move_possible, charge_roll >= distance_needed)


@rule("charge-phase/charging-with-a-unit")
def charge_chance(distance_needed: Fraction | int) -> Fraction:
    """The exact chance that a charge roll of 2D6 covers ``distance_needed`` inches, out of the 36 outcomes."""
    hits = sum(1 for a in D6_FACES for b in D6_FACES if charge_succeeds(a + b, distance_needed))
    return Fraction(hits, len(D6_FACES) ** 2)


@rule("charge-phase/heroic-interventions", "movement-phase/transports/destroyed-transports")
def heroic_intervention_eligible(character: Any, horizontal_inches: Any, vertical_inches: Any,
                                 within_engagement_range: Any = False, own_charge_phase: Any = False,
                                 intervened_this_phase: Any = False,
                                 disembarked_from_destroyed_transport: Any = False) -> Any:
    """Whether a unit may perform a Heroic Intervention: a CHARACTER, outside Engagement Range of every enemy unit
    but within 3" horizontally and 5" vertically of an enemy unit (the closest one's distances), in the enemy's
    Charge phase, not already done this phase, and not after disembarking from a destroyed TRANSPORT this turn.

    Interpretation: within-inclusive.
    """
    return And(character, Not(within_engagement_range), horizontal_inches <= HEROIC_HORIZONTAL,
               vertical_inches <= HEROIC_VERTICAL, Not(own_charge_phase), Not(intervened_this_phase),
               Not(disembarked_from_destroyed_transport))


@rule("charge-phase/performing-a-heroic-intervention", "fight-phase/pile-in", "fight-phase/consolidate")
def closing_move_allowed(distance_moved: Any, start_to_closest_enemy: Any, end_to_closest_enemy: Any,
                         touching_enemy_at_start: Any = False, limit: Any = HEROIC_INTERVENTION_MOVE) -> Any:
    """Whether a model's Heroic Intervention, pile-in or consolidation move is allowed: up to 3", ending closer to
    the closest enemy model; a model already touching an enemy model cannot move (it still counts as having
    piled in or consolidated). A model that does not move is allowed.

    Interpretation: printings-differ-only-in-wording.
    """
    stays = distance_moved == 0
    moves_closer = And(distance_moved <= limit, end_to_closest_enemy < start_to_closest_enemy,
                       Not(touching_enemy_at_start))
    return Or(stays, moves_closer)


@rule("charge-phase")
def charge_phase_steps() -> list[str]:
    """The Charge phase's two steps, in order: the player's charges, then the opponent's Heroic Interventions."""
    return ["Charges", "Heroic Interventions"]
