"""999.m41 (004), The Assault Phase: declaring charges and reactions, the 2d3 + 4" charge, charging into cover,
final volleys and heroic interventions, initiative steps, the WS-vs-WS hit chart, attacks, combat resolution,
break checks with the outnumbered table, no retreat, tactical withdrawal, harrying, pile ins and consolidation.

Functions take plain values (inches, counts, flags) and build their answer with rules.logic, so z3 can prove the
chart's monotonicity and the resolution's symmetry about the very functions the examples call.
"""

from __future__ import annotations

from enum import Enum
from fractions import Fraction
from typing import Any, Iterable

from rules import dice
from rules.logic import And, DecisionTable, If, Max, Min, Not, Or, Row, Var
from rules.registry import ruleset_rule

rule = ruleset_rule("m41")

CHARGE_DICE = "2D3+4"  # "you roll 2d3 and add 4”" (How far can models charge?), "2d3 + 4”" (Rolling for Charge)
CHARGE_BONUS = 4
MEASURE_IN_ASSAULT = 12  # "measure any distance up to 12”, or the highest theoretical charge distance"
REACTION_RANGE = 12  # "defending units within 12” of an enemy unit can declare a reaction"
RETREAT_NOW = "D3"  # "The unit immediately falls back d3”"
RETREAT_LATER = "D6"  # "they will fall back a further d6” at the end of the phase"
RETREAT_HIT_PENALTY = -1  # "suffer a -1 penalty to his this turn" (to hit, interpretation assault-retreat-penalty)
RETREAT_INITIATIVE_PENALTY = -3  # "and strike at -3 initiative"
COVER_INITIATIVE_BONUS = 3  # "the defenders get to strike at +3 initiative"
HEROIC_INTERVENTION_MOVE = 3  # "may now make a 3” move using the pile in rules towards the closest combat"
SUPPORT_DISTANCE = 1  # "those within 1” of a friendly model in base contact with an enemy can attack"
LAST_STEP = 0  # "every model which can attack must during the zero initiative step"
CONSOLIDATION_MOVE = 3  # "each model remaining may make a 3” move"
WITHDRAWAL_OPPONENT_MOVE = 1  # "The opposing force may consolidate at this time, but only 1” instead of the normal 3”"
MONSTROUS_FACTOR = 2  # Behemoth: "2 times that of their starting wounds", "wounds dealt ... count as 2"


class Reaction(Enum):
    """The three charge reactions (Reactions)."""

    HOLD_THE_LINE = "hold the line"
    COUNTER_ATTACK = "counter attack"
    RETREAT = "retreat"


@rule("assault/the-assault-sequence", "assault/the-charge", "assault/making-the-charge")
def assault_sequence() -> tuple[tuple[str, tuple[str, ...]], ...]:
    """The four parts of the assault phase and their steps in order; charge moves are rolled and made one unit at a
    time, starting with the controlling player."""
    return (("setting up charges", ("declare charges", "declare reactions")),
            ("moving models", ("move retreating models", "roll charge distances and move chargers", "pile ins")),
            ("fight with engaged models", ("final volley", "initiative steps")),
            ("determine assault results", ("count casualties", "break tests, pile ins and consolidation")))


@rule("assault/locked-in-combat")
def locked_in_combat(within_engagement_range: Any, combat_ended: Any = False) -> Any:
    """Models that enter engagement range are locked in combat, and stay locked until the combat ends (a unit can
    never unlock itself voluntarily)."""
    return And(within_engagement_range, Not(combat_ended))


# -- Setting up charges -------------------------------------------------------------------------------------------


@rule("assault/declaring-charges")
def measuring_range(highest_theoretical_charge: Any) -> Any:
    """How far a player may measure in the assault phase: 12", or his army's highest theoretical charge distance,
    whichever is higher."""
    return Max(MEASURE_IN_ASSAULT, highest_theoretical_charge)


@rule("assault/declaring-charges", "assault/how-far-can-models-charge", "assault/disallowed-charges")
def may_declare_charge(nearest_enemy_inches: Any, maximum_charge_inches: Any, locked_in_combat: Any = False,
                       ran: Any = False, gone_to_ground: Any = False, falling_back: Any = False) -> Any:
    """A unit may declare a charge with at least one enemy within its maximum charge distance ("A unit can never
    declare a charge if there are no enemies it can reach"), and not when locked in combat, having run in the
    shooting phase, gone to ground or falling back (the listed disallowed charges)."""
    return And(nearest_enemy_inches <= maximum_charge_inches,
               Not(Or(locked_in_combat, ran, gone_to_ground, falling_back)))


@rule("assault/how-far-can-models-charge", "assault/rolling-for-charge-distance")
def charge_distance(first_d3: Any, second_d3: Any) -> Any:
    """A charge distance: two D3 added together, plus 4"."""
    return first_d3 + second_d3 + CHARGE_BONUS


@rule("assault/how-far-can-models-charge", "assault/rolling-for-charge-distance")
def charge_distance_distribution() -> dice.Distribution:
    """The exact distribution of a 2d3 + 4" charge: 6" to 10", 8" the most likely (3 in 9)."""
    return dice.distribution(CHARGE_DICE)


@rule("assault/rolling-for-charge-distance", "assault/failed-charges", "assault/moving-charging-models")
def charge_succeeds(charge_inches: Any, gap_inches: Any) -> Any:
    """A charge succeeds when the charge distance is enough to close the gap to the enemy (or to a friendly model
    already engaged); otherwise it fails."""
    return charge_inches >= gap_inches


@rule("assault/rolling-for-charge-distance", "assault/failed-charges")
def charge_chance(gap_inches: int, re_roll: bool = False) -> Fraction:
    """The exact chance a 2d3 + 4" charge closes a gap; with a re-roll of the charge distance (jump infantry
    charging with jump packs) a failed roll is rolled again once: 1 - (1 - p)^2."""
    once = dice.probability(charge_distance_distribution(), lambda inches: charge_succeeds(inches, gap_inches))
    return 1 - (1 - once) ** 2 if re_roll else once


@rule("assault/failed-charges")
def failed_charge_move(minimum_charge_inches: Any) -> Any:
    """A unit whose charge failed moves its minimum charge distance towards the closest enemy."""
    return minimum_charge_inches


# -- Reactions ------------------------------------------------------------------------------------------------------


@rule("assault/reactions", "assault/an-ongoing-combat")
def may_react(nearest_charging_enemy_inches: Any, already_in_combat: Any) -> Any:
    """A defending unit within 12" of an enemy unit may declare a reaction, unless it is already in combat."""
    return And(nearest_charging_enemy_inches <= REACTION_RANGE, Not(already_in_combat))


@rule("assault/hold-the-line", "assault/counter-attack", "assault/an-ongoing-combat")
def uses_defensive_cover_and_grenades(reaction: Reaction, already_in_combat: bool = False) -> bool:
    """Holding the line keeps the cover and defensive grenades; counter attacking and retreating give them up, and
    a unit in an ongoing combat uses neither."""
    return reaction is Reaction.HOLD_THE_LINE and not already_in_combat


@rule("assault/counter-attack")
def counts_as_charging(charged: Any, counter_attacked: Any) -> Any:
    """A unit counts as charging for this combat if it charged, or counter attacked."""
    return Or(charged, counter_attacked)


@rule("assault/retreat")
def retreat_moves() -> tuple[str, str]:
    """A retreating unit falls back d3" at once (after the reactions, before the charge rolls) and a further d6" at
    the end of the phase with the other fall back moves."""
    return RETREAT_NOW, RETREAT_LATER


@rule("assault/retreat")
def retreat_hit_modifier(retreated: Any, engaged_this_turn: Any) -> Any:
    """A retreating unit that becomes engaged this turn hits at -1 (interpretation assault-retreat-penalty)."""
    return If(And(retreated, engaged_this_turn), RETREAT_HIT_PENALTY, 0)


@rule("assault/retreat", "assault/charging-units-in-cover")
def defender_initiative(initiative: Any, held_the_line: Any = False, charged_through_cover: Any = False,
                        retreated_and_engaged: Any = False) -> Any:
    """A defender's initiative: +3 when the chargers came through difficult terrain, at it in area terrain or over
    cover, only if it held the line; -3 if it retreated and still became engaged this turn."""
    return (initiative + If(And(held_the_line, charged_through_cover), COVER_INITIATIVE_BONUS, 0)
            + If(retreated_and_engaged, RETREAT_INITIATIVE_PENALTY, 0))


@rule("assault/charging-units-in-cover")
def charged_through_cover(through_difficult_terrain: Any, enemy_in_area_terrain: Any,
                          enemy_behind_cover_climbed_over: Any) -> Any:
    """Whether a charge is into cover: through difficult terrain, at an enemy in area terrain, or at one behind
    cover the chargers had to climb over (any one of the three)."""
    return Or(through_difficult_terrain, enemy_in_area_terrain, enemy_behind_cover_climbed_over)


# -- Moving, final volley, heroic intervention ---------------------------------------------------------------------


@rule("assault/hold-the-platform")
def hold_the_platform_attacks(charge_long_enough: Any, base_contact_possible: Any, in_range_of_contact: Any) -> Any:
    """Where the charge had the distance but no model could be placed in base contact, each model that was in
    range to make base contact makes a single attack (0 when the rule does not apply)."""
    return If(And(charge_long_enough, Not(base_contact_possible), in_range_of_contact), 1, 0)


@rule("assault/hold-the-platform")
def hold_the_platform_combat_ends(base_contact_possible: Any) -> Any:
    """At the end of the turn such a combat ends if no models can be brought into base contact."""
    return Not(base_contact_possible)


@rule("assault/fighting-through-walls")
def may_attack_through(gap_large_enough_to_move_through: Any) -> Any:
    """Models attack through a gap only if it is large enough to move through (never through solid walls)."""
    return gap_large_enough_to_move_through


@rule("assault/final-volley")
def may_fire_final_volley(held_the_line: Any, engaged_by_successful_charge: Any, fired_overwatch_this_phase: Any,
                          rapid_fire_assault_or_pistol: Any) -> Any:
    """A unit that held the line and was engaged by a successful charge fires its rapid fire, assault or pistol
    weapons, unless it already fired overwatch this phase."""
    return And(held_the_line, engaged_by_successful_charge, Not(fired_overwatch_this_phase),
               rapid_fire_assault_or_pistol)


@rule("assault/final-volley")
def final_volley_shot(target_in_cover: Any) -> dict:
    """A final volley shot: fired as a snap shot, ignoring range and line of sight, no cover save against it (the
    target's cover is accepted and deliberately unused)."""
    return {"snap_shot": True, "ignores_range_and_line_of_sight": True, "cover_save_allowed": False}


@rule("assault/final-volley")
def keeps_defensive_cover(held_the_line: Any, fired_final_volley: Any) -> Any:
    """A unit that fires a final volley loses its defensive bonuses from cover; one that holds without firing keeps
    them."""
    return And(held_the_line, Not(fired_final_volley))


@rule("assault/heroic-intervention")
def may_intervene(already_engaged: Any, inches_to_closest_combat: Any, joins_existing_combat: Any) -> Any:
    """After all charges are moved, an unengaged unit may make a 3" pile in move towards the closest combat, if it
    reaches base contact with a model already in that combat (never starting a new combat)."""
    return And(Not(already_engaged), inches_to_closest_combat <= HEROIC_INTERVENTION_MOVE, joins_existing_combat)


# -- The fight ------------------------------------------------------------------------------------------------------


@rule("assault/initiative-steps", "assault/which-models-can-attack")
def initiative_steps(initiatives: Iterable[int]) -> list[int]:
    """The initiative steps of a combat, highest first, each once, ending with step 0 at which every model that can
    attack must."""
    return sorted(set(initiatives) | {LAST_STEP}, reverse=True)


@rule("assault/modified-initiative")
def acting_initiative(initiative: Any, wargear_initiatives: Iterable[Any] = ()) -> Any:
    """The one step a model acts on: its initiative, or the modified step of the wargear it uses (the slowest, if
    several); no model acts on two steps."""
    steps = list(wargear_initiatives)
    return Min(*steps) if steps else initiative


@rule("assault/which-models-can-attack", "assault/initiative-steps")
def attack_step(initiative: int, steps: Iterable[int], holds: bool = False, able_at_own_step: bool = True) -> int:
    """The step a model attacks at: its own; the next step of the combat if it holds (once only) or cannot attack
    at its own; never later than step 0."""
    own = max(LAST_STEP, initiative)
    if not holds and able_at_own_step:
        return own
    later = [step for step in steps if step < own]
    return max(later) if later else LAST_STEP


@rule("assault/which-models-can-attack", "assault/who-can-you-attack")
def may_attack(in_base_contact: Any, inches_to_friend_in_base_contact: Any) -> Any:
    """A model in base contact with an enemy attacks, and so does one within 1" of a friendly model that is."""
    return Or(in_base_contact, inches_to_friend_in_base_contact <= SUPPORT_DISTANCE)


@rule("assault/who-can-you-attack")
def may_be_attacked(in_base_contact: Any, inches_to_model_in_base_contact: Any, can_attack_the_attacker: Any) -> Any:
    """An enemy model may be attacked in base contact, within 1" of one in base contact, or whenever it can attack
    the attacker ("any model which can attack another can be attacked back")."""
    return Or(may_attack(in_base_contact, inches_to_model_in_base_contact), can_attack_the_attacker)


@rule("assault/pile-in-moves")
def pile_in_step(acting_step: Any) -> Any:
    """A model piles in (3") at the step it attacks at, the modified one if it uses initiative wargear."""
    return acting_step


@rule("assault/wound-allocation")
def must_allocate_to(has_allocated_wound_pending: Any, same_hit_group: Any) -> Any:
    """Once a wound of a hit group is allocated to a model, the group's next wounds must go to it until it is
    removed or the pool is empty; wounds never spill over to another hit group."""
    return And(has_allocated_wound_pending, same_hit_group)


@rule("assault/complex-combats", "assault/wound-allocation")
def same_target_group(same_model_kind: Any, same_ws: Any, same_toughness: Any, same_initiative: Any,
                      same_saves: Any) -> Any:
    """Hits are pooled by target kind: one kind of model (squad leaders included), widened to every model with the
    same WS, toughness, initiative and saves."""
    return Or(same_model_kind, And(same_ws, same_toughness, same_initiative, same_saves))


@rule("assault/complex-combats")
def may_choose_target(in_base_contact_with_an_enemy: Any, target_in_base_contact: Any) -> Any:
    """A model splits its attacks between kinds of enemy as it likes, but one in base contact must attack those it
    touches."""
    return Or(Not(in_base_contact_with_an_enemy), target_in_base_contact)


#: The WS chart as printed, three rows in order. "Equal or less than" also covers "Less than half"; the code reads
#: it as a band (less than half gets 5+), interpretation assault-ws-chart-bands; finding assault-ws-chart-overlap.
TO_HIT_TABLE = DecisionTable(
    name="m41-assault-ws-vs-ws",
    refs=("assault/to-hit",),
    inputs=(Var("attacker_ws", 1, 10), Var("defender_ws", 1, 10)),
    rows=(
        Row("Greater 3+", lambda attacker_ws, defender_ws: attacker_ws > defender_ws, 3),
        Row("Equal or less than 4+",
            lambda attacker_ws, defender_ws: And(attacker_ws <= defender_ws, 2 * attacker_ws >= defender_ws), 4),
        Row("Less than half 5+", lambda attacker_ws, defender_ws: 2 * attacker_ws < defender_ws, 5),
    ),
)


@rule("assault/to-hit")
def to_hit_needed(attacker_ws: Any, defender_ws: Any) -> Any:
    """The D6 a close combat attack needs to hit: 3+ against a lower WS, 4+ against an equal or higher one up to
    twice the attacker's, 5+ against more than twice (less than half).

    Interpretation: assault-ws-chart-bands.
    """
    return TO_HIT_TABLE(attacker_ws=attacker_ws, defender_ws=defender_ws)


@rule("assault/to-hit", "assault/retreat")
def hits(roll: Any, attacker_ws: Any, defender_ws: Any, modifier: Any = 0) -> Any:
    """Whether a close combat attack hits: the D6 with its modifier equals or beats the chart's result."""
    return roll + modifier >= to_hit_needed(attacker_ws, defender_ws)


@rule("assault/number-of-attacks", "assault/multiple-weapons", "assault/pistols", "assault/no-weapons",
      "characters/challenges")
def number_of_attacks(attacks: Any, counts_as_charging: Any = False, melee_weapons: Any = 0, pistols: Any = 0,
                      other_bonus: Any = 0, challenge_issued: Any = False) -> Any:
    """Attacks: the A characteristic, +1 for charging (lost if the player issued a challenge), +1 for two or more
    single-handed weapons, pistols counting as melee weapons (bonuses never stack, so +1 at most; a model with no
    weapon listed has none to count), plus other bonuses."""
    charge = If(And(counts_as_charging, Not(challenge_issued)), 1, 0)
    two_weapons = If(melee_weapons + pistols >= 2, 1, 0)
    return attacks + charge + two_weapons + other_bonus


@rule("assault/pistols")
def pistol_attacks(pistols: Any) -> Any:
    """A model makes a single attack with a pistol, using its ranged profile as a melee weapon (never more)."""
    return Min(pistols, 1)


# -- Assault results ------------------------------------------------------------------------------------------------


@rule("assault/combat-resolution", "assault/behemoth")
def resolution_wounds(unsaved_on_ordinary: Any, unsaved_on_monstrous: Any = 0) -> Any:
    """A side's score: the unsaved wounds it inflicted in the fight, each wound on a monstrous creature counting 2
    (wounds from elsewhere, no retreat and harrying, are not passed in: they do not count)."""
    return unsaved_on_ordinary + MONSTROUS_FACTOR * unsaved_on_monstrous


@rule("assault/combat-resolution")
def combat_result(inflicted: Any, suffered: Any, destroyed_the_enemy: Any = False,
                  was_destroyed: Any = False) -> Any:
    """The result for one side: 1 won, 0 tie, -1 lost. Destroying the other side wins even after more casualties;
    otherwise whoever took more damage lost, equal damage ties (both sides destroyed ties too)."""
    return If(And(destroyed_the_enemy, Not(was_destroyed)), 1,
              If(And(was_destroyed, Not(destroyed_the_enemy)), -1,
                 If(And(was_destroyed, destroyed_the_enemy), 0,
                    If(suffered > inflicted, -1, If(inflicted > suffered, 1, 0)))))


@rule("assault/combat-resolution", "assault/no-retreat")
def lost_by(inflicted: Any, suffered: Any) -> Any:
    """How many points a side lost combat by (0 when it did not lose on wounds)."""
    return Max(suffered - inflicted, 0)


@rule("assault/outnumbered", "assault/behemoth")
def presence(models: Any, monstrous_starting_wounds: Any = 0) -> Any:
    """A side's count for outnumbering: its remaining models, each monstrous creature counting twice its starting
    wounds instead of one (pass the monstrous creatures' starting wounds summed, and leave them out of models)."""
    return models + MONSTROUS_FACTOR * monstrous_starting_wounds


#: The outnumbered table as printed, in order; "not cumulative", so each row is a band up to the next ratio
#: (interpretation assault-outnumbered-bands); the last row is the case the chart leaves out, no penalty.
OUTNUMBERED_TABLE = DecisionTable(
    name="m41-assault-outnumbered",
    refs=("assault/outnumbered",),
    inputs=(Var("ours", 1, 30), Var("theirs", 0, 130)),
    rows=(
        Row("Outnumbered -1", lambda ours, theirs: And(theirs > ours, theirs < 2 * ours), -1),
        Row("Outnumbered 2:1 -2", lambda ours, theirs: And(theirs >= 2 * ours, theirs < 3 * ours), -2),
        Row("Outnumbered 3:1 -3", lambda ours, theirs: And(theirs >= 3 * ours, theirs < 4 * ours), -3),
        Row("Outnumbered 4:1 -4", lambda ours, theirs: theirs >= 4 * ours, -4),
        Row("(not outnumbered) 0", lambda ours, theirs: True, 0, otherwise=True),
    ),
)


@rule("assault/outnumbered")
def outnumbered_modifier(ours: Any, theirs: Any) -> Any:
    """The Leadership penalty for being outnumbered, counted over the whole combat: -1, -2 at 2:1, -3 at 3:1, -4 at
    4:1 or more; only the largest applies.

    Interpretation: assault-outnumbered-bands.
    """
    return OUTNUMBERED_TABLE(ours=ours, theirs=theirs)


@rule("assault/outnumbered", "assault/break-checks", "characters/challenges")
def break_check_modifier(ours: Any, theirs: Any, split: Any = False, successive_rounds_lost: Any = 0,
                         last_man_standing: Any = False, refused_a_challenge: Any = False) -> Any:
    """The modifier to a losing unit's break check: the outnumbered penalty, -1 if its side is split out of
    coherency, -1 for each successive round lost (the rounds lost in a row before this one), -1 for the last man
    standing, and -1 if it refused a challenge (interpretation assault-successive-rounds)."""
    return (outnumbered_modifier(ours, theirs) - If(split, 1, 0) - successive_rounds_lost
            - If(last_man_standing, 1, 0) - If(refused_a_challenge, 1, 0))


@rule("assault/break-checks", "assault/our-weapons-are-useless", "assault/fleeing-from-combat")
def break_check_failed(roll_2d6: Any, leadership: Any, modifier: Any, chose_to_fail: Any = False) -> Any:
    """A break check is a leadership test (2d6 at or under the modified Ld, a natural 12 failing, a natural 2
    passing); a player whose side lost may choose to fail it. A unit that fails falls back."""
    passed = Or(roll_2d6 == 2, And(roll_2d6 != 12, roll_2d6 <= leadership + modifier))
    return Or(chose_to_fail, Not(passed))


@rule("assault/break-checks")
def takes_break_checks(result: Any) -> Any:
    """Only the side that lost (result -1) takes break checks, each of its units separately."""
    return result == -1


@rule("assault/no-retreat")
def no_retreat_wounds(lost_by_points: Any, failed: Any, all_friendly_units_failed: Any) -> Any:
    """A no-retreat unit that failed its break check (or takes none, counted as failed) suffers a wound per point
    lost by, saves as normal, only if every friendly unit in the combat failed too."""
    return If(And(failed, all_friendly_units_failed), lost_by_points, 0)


@rule("assault/tactical-withdrawal")
def may_withdraw(won: Any, opponents_broke_or_fled: Any) -> Any:
    """A winning unit may disengage with a consolidation move, unless its opponents already broke or fled."""
    return And(won, Not(opponents_broke_or_fled))


@rule("assault/tactical-withdrawal", "assault/consolidation")
def consolidation_move(opponent_withdrew: Any) -> Any:
    """A consolidation move is 3"; against a unit that tactically withdrew, 1"."""
    return If(opponent_withdrew, WITHDRAWAL_OPPONENT_MOVE, CONSOLIDATION_MOVE)


@rule("assault/tactical-withdrawal")
def after_withdrawal(withdrew: Any) -> dict:
    """A unit that withdrew may not harry this turn, nor charge or heroically intervene next turn."""
    return {"may_harry": not withdrew, "may_charge_next_turn": not withdrew,
            "may_intervene_next_turn": not withdrew}


@rule("assault/harrying", "assault/harrying-piling-in-and-consolidation")
def harrying_attempts(fleeing_enemy_models: Any, own_models: Any, all_enemy_units_fled: Any,
                      withdrew: Any = False) -> Any:
    """Initiative tests the victors take: one per fleeing enemy model (one model each), only when every enemy unit
    broke and fled, and never for a unit that tactically withdrew."""
    return If(And(all_enemy_units_fled, Not(withdrew)), Min(fleeing_enemy_models, own_models), 0)


@rule("assault/harrying")
def harrying_test_passed(roll: Any, initiative: Any) -> Any:
    """An initiative test: a D6 at or under the initiative passes; a 6 always fails and a 1 always passes. Each pass
    is one extra wound, saves as normal."""
    return Or(roll == 1, And(roll != 6, roll <= initiative))


@rule("assault/harrying")
def harrying_expected_wounds(attempts: int, initiative: int) -> Fraction:
    """The exact expected wounds of a harrying: attempts times the chance of passing one initiative test."""
    passing = sum(1 for face in range(1, 7) if harrying_test_passed(face, initiative))
    return Fraction(attempts * passing, 6)


@rule("assault/pile-ins")
def must_pile_in(engaged_this_turn: Any, in_base_contact: Any) -> Any:
    """At the end of the phase a model of a unit that fought this turn, not itself in base contact, must move up to
    3" towards the enemy of the combat (the defending player first)."""
    return And(engaged_this_turn, Not(in_base_contact))


@rule("assault/pile-ins", "assault/hold-the-platform")
def combat_ends(any_model_in_base_contact_after_pile_ins: Any) -> Any:
    """A combat ends when the pile ins of both sides bring no models into base contact; they may then consolidate."""
    return Not(any_model_in_base_contact_after_pile_ins)


@rule("assault/consolidation")
def consolidation_allowed(end_inches_to_enemy: Any) -> Any:
    """A consolidation move may not start a new combat: it cannot end in base contact with an enemy."""
    return end_inches_to_enemy > 0
