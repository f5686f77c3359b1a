"""The Core Rules' answers to the questions the quick-reference sheet's claims answer.

Each function here takes the same named inputs as the sheet's function it is compared with
(spec/quickref/annotations/concepts.yaml) and answers by calling the real Core Rules functions of
``rules.core``: it only translates inputs (a distance into two placed models, the sheet's move into the
Core Rules' move type) and never restates a Core Rules decision itself. Where the Core Rules answer through
geometry, the models are placed on an empty battlefield with 32 mm bases, ``horizontal`` inches apart at their
closest points and ``vertical`` inches apart in height.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from rules import battlefield as geo
from rules.battlefield import Category
from rules.core import aircraft as ca
from rules.core import attached_units
from rules.core import (attack_sequence, battle_round, charge_phase, command_phase, core_abilities, core_concepts,
                        datasheets, fight_phase, flying_and_surging, making_attacks, monsters_and_vehicles,
                        movement_phase, moving, objectives, other_concepts, shooting_phase, strategic_reserves,
                        terrain, transports)
from rules.core import stratagems as cs
from rules.model import Placed, PlacedUnit, Weapon
from rules.quickref import abilities as qa
from rules.quickref import fight as qf
from rules.quickref import movement as qm
from rules.quickref import reference as qr
from rules.quickref import shooting as qs
from rules.quickref import stratagems as qst
from rules.quickref import terrain as qtr
from rules.quickref import transports as qt
from rules.quickref.sequence import SINGLE_MODEL_W, CommandPhaseBusiness, Phase
from rules.state import GameState, MoveType, UnitState
from rules.state import Phase as CorePhase

# -- Placing models for the geometric rules ----------------------------------------------------------------------

BASE_MM = 32


def placed_pair(horizontal: Any, vertical: Any = 0, base_a: Any = BASE_MM, base_b: Any = BASE_MM,
                owner_b: int = 2) -> tuple[Placed, Placed]:
    """Two models whose bases' closest points are ``horizontal`` inches apart, at heights ``vertical`` apart."""
    a = Placed(Fraction(0), Fraction(0), base_mm=base_a, z=0, owner=1)
    b_radius = Placed(0, 0, base_mm=base_b).radius
    centre = a.radius + b_radius + Fraction(horizontal)
    return a, Placed(centre, Fraction(0), base_mm=base_b, z=Fraction(vertical), owner=owner_b)


# -- Turn sequence ----------------------------------------------------------------------------------------------

_PHASES = {Phase.COMMAND: CorePhase.COMMAND, Phase.MOVEMENT: CorePhase.MOVEMENT, Phase.SHOOTING: CorePhase.SHOOTING,
           Phase.CHARGE: CorePhase.CHARGE, Phase.FIGHT: CorePhase.FIGHT}


def _core_turn_order() -> list[CorePhase]:
    """The parts of a turn in the order 07.02's ``following_step`` walks them."""
    step = battle_round.following_step(1, 1, 1, CorePhase.START_OF_TURN, battle_round.START_OF_BATTLE_ROUND, 5)
    order: list[CorePhase] = []
    while step[2] != CorePhase.END_OF_TURN:
        if step[2] not in order:
            order.append(step[2])
        step = battle_round.following_step(1, 1, step[1], step[2], step[3], 5)
    return order


def phase_comes_before(phase: Any, other: Any) -> bool:
    order = _core_turn_order()
    return order.index(_PHASES[Phase(phase)]) < order.index(_PHASES[Phase(other)])


# -- Command phase ----------------------------------------------------------------------------------------------


def cp_after_command_step(cp_1: Any, cp_2: Any) -> tuple[Any, Any]:
    return command_phase.cp_after_gaining_core_cp(cp_1, cp_2)


_TRIGGERS = {CommandPhaseBusiness.GAIN_CP: command_phase.Trigger.GAINING_CORE_CP,
             CommandPhaseBusiness.OTHER_RULES: command_phase.Trigger.OTHER}


def resolved_before_battle_shock(business: Any) -> bool:
    step = command_phase.step_resolving(_TRIGGERS[CommandPhaseBusiness(business)])
    return step < command_phase.step_resolving(command_phase.Trigger.BATTLE_SHOCK_ROLL)


def takes_battle_shock_test(battle_shocked: Any, starting_strength: Any, models: Any, wounds: Any = 1,
                            w: Any = 1) -> Any:
    return command_phase.must_take_battle_shock_roll(battle_shocked, starting_strength, models, wounds, w)


def takes_battle_shock_test_with(battle_shocked: Any, starting_strength: Any, left: Any) -> Any:
    if starting_strength == 1:
        return bool(takes_battle_shock_test(battle_shocked, 1, 1, left, SINGLE_MODEL_W))
    if left > starting_strength:
        return None
    return bool(takes_battle_shock_test(battle_shocked, starting_strength, left))


def battle_shock_test_passed(roll: Any, leadership: Any) -> Any:
    return core_concepts.leadership_roll_succeeds(roll, [leadership])


def battle_shocked_after_next_battle_shock_step(below_half: Any, next_test_passed: Any) -> Any:
    """08.03: a battle-shocked unit must roll in the next Battle-shock step whatever its strength; the roll decides."""
    models_left = 1 if below_half else 2  # of a starting strength of 2
    must_roll = command_phase.must_take_battle_shock_roll(True, 2, models_left)
    return command_phase.battle_shocked_after_step_roll(True, next_test_passed) if must_roll else True


def level_of_control_contribution(oc: Any, battle_shocked_unit: Any) -> Any:
    """What a model adds to its player's level of control (the placeholder '-1' adds nothing, 02.02)."""
    return datasheets.level_of_control_contribution(core_concepts.objective_control(oc, battle_shocked_unit))


def own_stratagems_may_affect(battle_shocked_unit: Any) -> Any:
    return core_concepts.may_target_with_own_stratagems(battle_shocked_unit)


def fall_back_needs_desperate_escape(battle_shocked_unit: Any) -> Any:
    """The mode a unit must select when the player would rather retreat in order (09.07)."""
    mode = movement_phase.fall_back_mode(battle_shocked_unit, True)
    return mode == movement_phase.FallBackMode.DESPERATE_ESCAPE


# -- Objectives -------------------------------------------------------------------------------------------------


def within_range_of_objective_marker(horizontal: Any, vertical: Any) -> Any:
    model, spot = placed_pair(horizontal, vertical, base_b=geo.OBJECTIVE_MARKER_MM)
    marker = geo.objective_marker(spot.x, spot.y, spot.z)
    return geo.within_objective_marker_range(model, marker)


def level_of_control_of(oc_1: Any, oc_2: Any, oc_3: Any, in_range_1: Any, in_range_2: Any, in_range_3: Any) -> Any:
    models = [objectives.ModelInRange(oc) for oc, in_range in ((oc_1, in_range_1), (oc_2, in_range_2),
                                                                (oc_3, in_range_3)) if in_range]
    return objectives.level_of_control(models)


def controller(level_1: Any, level_2: Any, secured_by: Any, end_of_phase: Any) -> Any:
    """14.02 with 14.03's secured objectives (secured by nobody, player 1 or player 2)."""
    return objectives.objective_controller(level_1, level_2, secured_by, end_of_phase)


# -- Movement phase ---------------------------------------------------------------------------------------------


_MOVES = {qm.Move.REMAIN_STATIONARY: movement_phase.Move.REMAIN_STATIONARY, qm.Move.NORMAL: movement_phase.Move.NORMAL,
          qm.Move.ADVANCE: movement_phase.Move.ADVANCE, qm.Move.FALL_BACK: movement_phase.Move.FALL_BACK}
_M = 6  # any M characteristic a model can be moved with


def may_make_move(move: Any, engaged: Any) -> Any:
    return movement_phase.eligible_for_move(_MOVES[qm.Move(move)], True, engaged, False, False, _M)


def must_climb(height: Any, category: Any, infantry: Any) -> Any:
    """13.06 for a model crossing a feature of this category and height (INFANTRY/BEASTS/SWARM or not)."""
    passage = terrain.move_through_terrain(category, False, infantry, False, height)
    return passage == terrain.Passage.CLIMB


def _skies(fly: Any, move: Any) -> Any:
    return flying_and_surging.may_take_to_the_skies(fly, move in (qm.Move.NORMAL, qm.Move.ADVANCE, qm.Move.FALL_BACK,
                                                                  qm.Move.CHARGE))


def may_move_over_enemy_models(fly: Any, move: Any) -> Any:
    """03.01 keeps bases out of enemy models; taking to the skies (21.03) lets a FLYING model through them."""
    ordinarily = moving.may_move_through(1, 2)
    return movement_phase.may_move_through_model(ordinarily, True, False, _skies(fly, qm.Move(move)), False)


def distance_over_enemy_models(fly: Any, move: Any, maximum: Any) -> Any:
    """21.03: only a unit taking to the skies moves through enemy models, and its maximum distance is 2" less
    (the unit has no [HOVER])."""
    if not may_move_over_enemy_models(fly, move):
        return 0
    return flying_and_surging.skies_maximum_distance(maximum, True, False)


def climb_counts_when_flying(starts_or_ends_on_terrain: Any) -> Any:
    """21.03: a model taking to the skies counts no vertical distance (here, a 1" climb onto or off the feature)."""
    climbed = 1 if starts_or_ends_on_terrain else 0
    return flying_and_surging.distance_counted(0, climbed, True) > 0


def advance_distance(m: Any, advance_roll: Any) -> Any:
    return movement_phase.maximum_distance(movement_phase.Move.ADVANCE, m, advance_roll)


def advance_path_allowed(passes_within_engagement_range: Any, ends_within_engagement_range: Any) -> Any:
    """09.06 asks only where the move ends (After Moving: unengaged)."""
    return movement_phase.after_moving_conditions_met(movement_phase.Move.ADVANCE, ends_within_engagement_range)


def _allowed_after(move: movement_phase.Move, activity: Any) -> Any:
    advanced, fell_back = move == movement_phase.Move.ADVANCE, move == movement_phase.Move.FALL_BACK
    if qm.Activity(activity) == qm.Activity.SHOOT:
        barred = movement_phase.not_eligible_after_move(move, movement_phase.Activity.SHOOT)
        # A unit without [ASSAULT], [CLOSE-QUARTERS] or [INDIRECT FIRE] weapons, not a MONSTER/VEHICLE.
        return bool(shooting_phase.has_eligible_shooting_type(False, advanced, False, False, False, False)
                    and not barred)
    return charge_phase.eligible_to_declare_charge(True, True, False, advanced, fell_back)


def allowed_after_advance(activity: Any) -> Any:
    return _allowed_after(movement_phase.Move.ADVANCE, activity)


def fall_back_distance(m: Any) -> Any:
    return movement_phase.maximum_distance(movement_phase.Move.FALL_BACK, m)


def allowed_after_fall_back(activity: Any) -> Any:
    return _allowed_after(movement_phase.Move.FALL_BACK, activity)


def desperate_escape_tests(models: Any, moving_over_enemy: Any, battle_shocked: Any, fly: Any) -> Any:
    """09.07: only desperate escape lets models through enemy models (taking to the skies aside, 21.03), so a
    player whose models must cross enemy models without flying selects it; it makes a hazard roll per model."""
    through_needed = moving_over_enemy > 0 and not fly
    mode = movement_phase.fall_back_mode(battle_shocked, not through_needed)
    return movement_phase.fall_back_hazard_rolls(mode, models)


def models_destroyed_by_test(roll: Any, w: Any, monster_or_vehicle: Any) -> Any:
    """06.03's hazard roll, its mortal wounds inflicted one at a time (06.02) on a unit of five models of ``w``."""
    mortal = other_concepts.hazard_mortal_wounds(roll, monster_or_vehicle)
    wounds, destroyed = [w] * 5, 0
    for _ in range(mortal):
        wounds[destroyed] = other_concepts.wounds_after_mortal_wound(wounds[destroyed])
        if datasheets.is_destroyed_by_wounds(wounds[destroyed]):
            destroyed += 1
    return destroyed


# -- Reinforcements and reserves --------------------------------------------------------------------------------


def may_set_up_reserves_unit(units_still_to_move: Any) -> Any:
    """09.02: a strategic reserves unit is selected to move like any other and makes an ingress move, in any order."""
    selectable = movement_phase.may_select_to_move(False, False, True, False)
    eligible = movement_phase.eligible_for_move(movement_phase.Move.INGRESS, False, False, False,
                                                strategic_reserves.ingress_eligible(True, False), _M)
    return selectable and eligible


def far_enough_when_set_up(horizontal: Any, vertical: Any, inches: Any) -> Any:
    model, enemy = placed_pair(horizontal, vertical)
    return strategic_reserves.more_than_from_enemies([model], [enemy], inches)


def counts_as_normal_move(set_up_from_reserves_this_turn: Any) -> Any:
    moves = (MoveType.INGRESS,) if set_up_from_reserves_this_turn else ()
    return strategic_reserves.made_move_this_turn(moves, MoveType.NORMAL)


def destroyed_if_not_arrived(battle_round_ended: Any, last_battle_round: Any = qm.LAST_BATTLE_ROUND) -> Any:
    """20.03: destroyed at the end of the third battle round (and so by the end of any later one)."""
    third = strategic_reserves.DESTRUCTION_ROUND
    return battle_round_ended >= third and strategic_reserves.destroyed_at_end_of_third_round(
        True, False, False, False, False, False, False)


def strategic_reserves_allowed(reserves_points: Any, army_points: Any, fortification: Any) -> Any:
    return (strategic_reserves.reserves_within_limit(reserves_points, army_points)
            and strategic_reserves.may_place_in_reserves(True, fortification))


def strategic_reserves_may_arrive(battle_round: Any) -> Any:
    return strategic_reserves.may_arrive_in_round(battle_round)


def strategic_reserves_position_allowed(battle_round: Any, wholly_within_6_of_edge: Any,
                                        in_enemy_deployment_zone: Any) -> Any:
    """20.04 for a unit more than 8" from every enemy unit (that distance is compared on its own)."""
    return strategic_reserves.ingress_position_allowed(wholly_within_6_of_edge, True, in_enemy_deployment_zone,
                                                      battle_round)


def far_enough_from_enemy_models(distance: Any) -> Any:
    model, enemy = placed_pair(distance)
    return strategic_reserves.more_than_from_enemies([model], [enemy])


# -- Transports -------------------------------------------------------------------------------------------------

_TRANSPORT_MOVES = {qt.TransportMove.NOT_MOVED: transports.TransportMove.NOT_SELECTED,
                    qt.TransportMove.REMAINED_STATIONARY: transports.TransportMove.REMAINED_STATIONARY,
                    qt.TransportMove.NORMAL: transports.TransportMove.NORMAL,
                    qt.TransportMove.ADVANCE: transports.TransportMove.ADVANCE,
                    qt.TransportMove.FALL_BACK: transports.TransportMove.FALL_BACK}


def may_embark(move: Any, every_model_within_3: Any) -> Any:
    after = qm.Move(move) in (qm.Move.NORMAL, qm.Move.ADVANCE, qm.Move.FALL_BACK)
    return transports.may_embark(True, after, every_model_within_3, False, True, True, 10, 0, 1)


def may_do_second(embarked_first: Any) -> Any:
    """18.04: not having embarked this phase; 18.02: not set up on the battlefield this turn (a disembark sets up)."""
    if embarked_first:
        return transports.disembark_eligible(True, True, transports.TransportMove.NOT_SELECTED)
    return transports.may_embark(True, True, True, True, True, True, 10, 0, 1)


def may_disembark(transport_move: Any) -> Any:
    return transports.disembark_eligible(True, False, _TRANSPORT_MOVES[qt.TransportMove(transport_move)])


def disembark_set_up_distance(transport_move: Any, can_set_up_within_3: Any) -> Any:
    """18.04's mode and its set-up distance; a rapid or tactical disembark that cannot be set up is no move (03.02)."""
    mode = transports.disembark_mode(_TRANSPORT_MOVES[qt.TransportMove(transport_move)], can_set_up_within_3)
    if mode == transports.DisembarkMode.COMBAT:
        return transports.disembark_set_up_distance(mode)
    set_up = moving.set_up_succeeds(can_set_up_within_3, True, can_set_up_within_3, True)
    return transports.disembark_set_up_distance(mode) if set_up else qt.CANNOT_DISEMBARK


def may_set_up_engaged(transport_move: Any, engaged_enemy_is_engaged_with_transport: Any) -> Any:
    """18.04 for a model set up 1" from its TRANSPORT (well within any set-up distance), engaged with an enemy unit,
    when the unit could not be set up unengaged within 3"."""
    mode = transports.disembark_mode(_TRANSPORT_MOVES[qt.TransportMove(transport_move)], False)
    transport, model = placed_pair(1, base_a=60, base_b=BASE_MM, owner_b=1)
    return transports.disembark_position_allowed(mode, model, transport, True, engaged_enemy_is_engaged_with_transport,
                                                 False, True)


def after_disembarking(transport_moved: Any) -> tuple[Any, Any]:
    """18.04's aftermath: a tactical disembark (TRANSPORT not yet moved) is followed by a normal or advance move and
    leaves charging open; a rapid disembark (after its normal move) ends the unit's moving and forbids a charge."""
    move = transports.TransportMove.NORMAL if transport_moved else transports.TransportMove.NOT_SELECTED
    aftermath = transports.disembark_aftermath(transports.disembark_mode(move, True))
    return bool(aftermath.then_normal_or_advance_move), not aftermath.not_eligible_to_charge


def counts_as_remained_stationary(disembarked: Any) -> Any:
    moves = (MoveType.DISEMBARK,) if disembarked else (MoveType.REMAIN_STATIONARY,)
    return strategic_reserves.made_move_this_turn(moves, MoveType.REMAIN_STATIONARY)


def destroyed_transport_mortal_wounds(roll: Any, can_disembark_within_3: Any) -> Any:
    """18.05's emergency disembark makes a hazard roll (06.03) per model, wherever the unit can be set up."""
    return other_concepts.hazard_mortal_wounds(roll, False)


def after_transport_destroyed(charge_eligible_otherwise: Any) -> tuple[Any, Any]:
    """(battle-shocked, counts as a normal move) for a unit after 18.05's emergency disembark, as
    ``transports.transport_destroyed`` leaves it (its move is an emergency disembark move, not a normal move).

    The sheet's second answer is whether a charge stays open; a normal move is what keeps it open there, so the
    Core Rules' answer to the same question is whether the unit made a normal move.
    """
    state = GameState(units=(UnitState("transport", 1), UnitState("passengers", 1, models=5, on_battlefield=False,
                                                                  embarked_in="transport")))
    after = transports.transport_destroyed(state, "transport", placeable={"passengers": 5}).unit("passengers")
    normal = strategic_reserves.made_move_this_turn(after.moves, MoveType.NORMAL)
    return after.battle_shocked, bool(normal and charge_eligible_otherwise)


# -- Shooting phase ---------------------------------------------------------------------------------------------



def eligible_to_shoot_after(move: Any) -> Any:
    """A unit without [ASSAULT] weapons, unengaged, after this move (09.06-09.07 and 10.02's shooting types)."""
    return _allowed_after(_MOVES[qm.Move(move)], qm.Activity.SHOOT)


def may_shoot(engaged: Any) -> Any:
    """A unit with no [CLOSE-QUARTERS], [ASSAULT] or [INDIRECT FIRE] weapons that is not a MONSTER/VEHICLE."""
    return shooting_phase.has_eligible_shooting_type(engaged, False, False, False, False, False)


def may_target(target_within_engagement_range_of_friendly: Any) -> Any:
    return making_attacks.shooting_target_is_valid(True, True, not target_within_engagement_range_of_friendly)


def big_guns_hit_modifier(situation: Any, pistol: Any) -> Any:
    """10.06 (an engaged MONSTER/VEHICLE shooting) and 17.03 (shooting an engaged MONSTER/VEHICLE), summed and
    capped as hit-roll modifiers are; a [PISTOL] is a [CLOSE-QUARTERS] weapon (24.27). The targets are not
    MONSTER/VEHICLE units except in the third situation."""
    situation = qs.BigGunsSituation(situation)
    shooter_engaged = situation != qs.BigGunsSituation.AT_ENGAGED_MONSTER
    target_engaged_with_shooter = situation == qs.BigGunsSituation.ENGAGED_SHOOTER_AT_ITS_FOE
    close = shooting_phase.close_quarters_hit_modifier(True, pistol, target_engaged_with_shooter) \
        if shooter_engaged else 0
    engaged_target = monsters_and_vehicles.engaged_monster_vehicle_hit_modifier(
        situation == qs.BigGunsSituation.AT_ENGAGED_MONSTER, pistol, target_engaged_with_shooter)
    return attack_sequence.capped_roll_modifier(close + engaged_target)


def may_select_new_target_while_attacking(unused_against_same_unit: Any, unresolved_against_other_unit: Any) -> Any:
    """04.03's Other Attacks step returns to gathering dice or to one of the units already targeted: never to
    selecting targets (04.02)."""
    step = making_attacks.next_step_after_attack_dice(unused_against_same_unit, unresolved_against_other_unit)
    return step not in (making_attacks.GATHER, making_attacks.SELECT_ENEMY_UNIT, making_attacks.DONE)


def target_allowed(visible: Any, within_range: Any) -> Any:
    return making_attacks.shooting_target_is_valid(visible, within_range, True)


def may_shoot_two_targets(first_target_allowed: Any, second_target_allowed: Any) -> Any:
    """04.02 selects a target for each weapon on its own."""
    return (making_attacks.shooting_target_is_valid(first_target_allowed, True, True)
            and making_attacks.shooting_target_is_valid(second_target_allowed, True, True))


def hit(roll: Any, skill: Any) -> Any:
    return attack_sequence.hit_roll(roll, 0, skill) != attack_sequence.Hit.FAIL


def wound_roll_needed(strength: Any, toughness: Any) -> Any:
    return attack_sequence.wound_threshold(strength, toughness)


def roll_together(same_skill_strength_ap_damage: Any, same_range_and_attacks: Any, same_abilities: Any,
                  same_target: Any) -> Any:
    """04.03: weapons targeting the unit being attacked whose attacks are identical gather their dice together."""
    first = Weapon("first", 24, 2, 3, 4, 0, 1)
    second = Weapon("second", 24 if same_range_and_attacks else 12, 2 if same_range_and_attacks else 3,
                    3 if same_skill_strength_ap_damage else 4, 4, 0, 1, () if same_abilities else ("LETHAL HITS",))
    return bool(making_attacks.identical_attacks(first, second) and same_target)


def roll_succeeds(kind: Any, roll: Any, modifier: Any, needed: Any) -> Any:
    """05.01 or 05.02 with the modifier capped as the Core Rules' reading caps it."""
    modifier = attack_sequence.capped_roll_modifier(modifier)
    if qs.Roll(kind) == qs.Roll.HIT:
        return attack_sequence.hit_roll(roll, modifier, needed) != attack_sequence.Hit.FAIL
    return attack_sequence.wound_roll(roll, modifier, needed) != attack_sequence.Wound.FAIL


def capped_modifier(total: Any) -> Any:
    return attack_sequence.capped_roll_modifier(total)


def allocating_player(attacking_player: Any) -> Any:
    """01.03: the attacking unit's player is the active player; 05.03's sequence is the opposing player's."""
    return core_concepts.opposing_player(attacking_player)


def must_allocate_to(lost_wounds: Any, had_attack_allocated_this_phase: Any) -> Any:
    """05.04 Select Model, asked both ways round for a group of two models (the first the one in question): is it
    the only choice? An attack already allocated to a model that saved it leaves no trace in the Core Rules."""
    first = 1 if lost_wounds else 2
    as_listed = attack_sequence.select_model([first, 2], [2, 2]) == 0
    reversed_ = attack_sequence.select_model([2, first], [2, 2]) == 1
    return as_listed and reversed_


def save_fails(roll: Any, ap: Any, save: Any, modifier: Any = 0) -> Any:
    return attack_sequence.save_check(roll, ap, save) == attack_sequence.Save.INFLICTS_DAMAGE


def save_always_fails(roll: Any, ap: Any = 0, save: Any = 2, invulnerable: Any = 0) -> Any:
    return attack_sequence.save_check(roll, ap, save, invulnerable) == attack_sequence.Save.INFLICTS_DAMAGE


def invulnerable_save_holds(roll: Any, ap: Any, invulnerable: Any) -> Any:
    return attack_sequence.save_check(roll, ap, 7, invulnerable) == attack_sequence.Save.FAILS


def attack_saved(roll: Any, ap: Any, save: Any, invulnerable: Any, use_invulnerable: Any) -> Any:
    """05.04 checks the InSv row and the Sv row in turn: no choice is made."""
    return attack_sequence.save_check(roll, ap, save, invulnerable) == attack_sequence.Save.FAILS


def models_destroyed_by_attack(damage: Any, w: Any) -> Any:
    group = attack_sequence.ModelGroupState("models", W=w, Sv=7, wounds=[w, w, w])
    return len(attack_sequence.resolve_save_rolls([group], ["models"], [1], 0, damage))


def mortal_wounds_first(normal_damage_pending: Any) -> Any:
    """06.02 for attacks that inflict mortal wounds and, unless it is saved, normal damage."""
    return other_concepts.damage_resolved_next(normal_damage_pending, True) == other_concepts.Damage.MORTAL_WOUNDS


def ranged_weapon_targets_allowed(targets: Any) -> Any:
    """04.02 WHILE SHOOTING, for a weapon of 10 attacks (enough for any split the fighting rule would allow)."""
    return making_attacks.target_count_allowed(True, targets, 10)


def wounds_lost_to_mortal_wound(save_roll: Any) -> Any:
    """06.02: a mortal wound takes one wound; its sequence has no save roll to use ``save_roll`` in."""
    return 3 - other_concepts.wounds_after_mortal_wound(3)


# -- Benefit of cover -------------------------------------------------------------------------------------------


def attack_gets_through(hit_roll: Any, save_roll: Any, skill: Any, save: Any, ap: Any) -> Any:
    """13.08: the target's benefit of cover worsens the attack's BS by 1 (05.01 with the worsened BS, 05.04)."""
    worsened = attack_sequence.modified_skill(skill, terrain.cover_skill_penalty(True), 0)
    hits = attack_sequence.hit_roll(hit_roll, 0, worsened) != attack_sequence.Hit.FAIL
    return hits and attack_sequence.save_check(save_roll, ap, save) == attack_sequence.Save.INFLICTS_DAMAGE


def cover_changes_the_attack(save: Any, ap: Any) -> Any:
    return terrain.cover_skill_penalty(True) != 0


def cover_bonus_for(instances: Any) -> Any:
    """The benefit of cover is had or not (13.08); what it changes, the BS, changes by 1."""
    return terrain.cover_skill_penalty(instances >= 1)


# -- Terrain ----------------------------------------------------------------------------------------------------
#
# The Core Rules sort terrain into categories by example (13.03-13.05): craters and scattered debris are
# exposed, barricades light, ruins and woods dense. They give hills no category, so claims about hills that
# depend on one are not compared.



def _climb(category: Category, height: Any, infantry: Any) -> Any:
    return terrain.move_through_terrain(category, False, infantry, False, height) == terrain.Passage.CLIMB


def must_climb_exposed(height: Any, infantry: Any) -> Any:
    return _climb(Category.EXPOSED, height, infantry)


def must_climb_dense(height: Any, infantry: Any) -> Any:
    return _climb(Category.DENSE, height, infantry)


def _crossable(category: Category, height: Any, infantry: Any) -> Any:
    """13.06: a model either moves through the feature or climbs it; either way it gets past."""
    passage = terrain.move_through_terrain(category, False, infantry, False, height)
    return passage in (terrain.Passage.THROUGH, terrain.Passage.CLIMB)


def may_cross_exposed(height: Any, infantry: Any) -> Any:
    return _crossable(Category.EXPOSED, height, infantry)


def may_cross_light(height: Any, infantry: Any) -> Any:
    return _crossable(Category.LIGHT, height, infantry)


def may_end_on_top(keyword: Any, stable_without_overhang: Any) -> Any:
    """13.06 SETTING UP OR ENDING A MOVE on a surface above ground level (no dense sections climbed)."""
    kw = qtr.Keyword(keyword)
    flags = terrain.upper_surface_keyword_flags(kw in (qtr.Keyword.INFANTRY, qtr.Keyword.BEASTS, qtr.Keyword.SWARM),
                                                kw == qtr.Keyword.FLY, kw == qtr.Keyword.MONSTER)
    return terrain.may_end_move_on_surface(False, flags, stable_without_overhang)


def ruins_movement(keyword: Any, stable_without_overhang: Any) -> tuple[Any, Any]:
    """13.06 for a dense feature (sections over 2" high), the model not taking to the skies."""
    kw = qtr.Keyword(keyword)
    infantry_beasts_swarm = kw in (qtr.Keyword.INFANTRY, qtr.Keyword.BEASTS, qtr.Keyword.SWARM)
    through = terrain.move_through_terrain(Category.DENSE, False, infantry_beasts_swarm, False, 5) \
        == terrain.Passage.THROUGH
    return bool(through), bool(may_end_on_top(keyword, stable_without_overhang))


def _visible_across(category: Category, line_of_sight: Any, every_line_crosses_it: Any) -> Any:
    """13.10: an obscuring terrain area that every sight line crosses (and neither model is within) hides the target."""
    obscured = every_line_crosses_it and terrain.is_obscuring_area([category])
    return terrain.visible(line_of_sight, bool(line_of_sight and not obscured))


def visible_across_exposed(line_of_sight: Any, every_line_crosses_it: Any) -> Any:
    return _visible_across(Category.EXPOSED, line_of_sight, every_line_crosses_it)


def visible_across_light(line_of_sight: Any, every_line_crosses_it: Any) -> Any:
    return _visible_across(Category.LIGHT, line_of_sight, every_line_crosses_it)


def visible_from_within_dense(line_of_sight: Any, every_line_crosses_it: Any) -> Any:
    """13.10 leaves out the obscuring areas either model is within: only the one the observer (or target) is in."""
    return terrain.visible(line_of_sight, line_of_sight)


def fully_visible(wholly_within_woods: Any, every_facing_part_seen: Any) -> Any:
    return other_concepts.model_fully_visible([every_facing_part_seen])


def _sight_across_dense(observer_aircraft_or_towering: Any, every_facing_part_seen: Any) -> Any:
    """A target seen only through or over a dense terrain area neither model is within: obscured (13.10), for
    every observer (23.03 exempts AIRCRAFT from Plunging Fire only)."""
    seen = terrain.visible(True, not terrain.is_obscuring_area([Category.DENSE]))
    if not seen:
        return qtr.Sight.NOT_VISIBLE
    fully = other_concepts.model_fully_visible([every_facing_part_seen])
    return qtr.Sight.FULLY_VISIBLE if fully else qtr.Sight.VISIBLE


def sight_through_woods(observer_aircraft_or_towering: Any, every_facing_part_seen: Any) -> Any:
    return _sight_across_dense(observer_aircraft_or_towering, every_facing_part_seen)


def sight_through_ruins(observer_aircraft_or_towering: Any, every_facing_part_seen: Any) -> Any:
    return _sight_across_dense(observer_aircraft_or_towering, every_facing_part_seen)


def model_in_cover(infantry: Any, position: Any, fully_visible_to: Any, within_3: Any = False) -> Any:
    """13.08 for one model: INFANTRY/BEASTS/SWARM within the terrain area, or not fully visible to the attacking
    model because of the terrain (whatever its category)."""
    within = qtr.Position(position) != qtr.Position.OUTSIDE
    hidden = qtr.FullyVisibleTo(fully_visible_to) == qtr.FullyVisibleTo.NONE
    return terrain.model_in_cover(infantry, within, hidden)


def charge_ends_close_enough(distance_to_enemy: Any) -> Any:
    """11.04: the charge move must end engaged (03.04) with its target."""
    return moving.within_engagement_range(*placed_pair(distance_to_enemy))


def may_fight_across(distance_to_enemy: Any) -> Any:
    """12.04-12.05: an engaged unit fights; engaged means within engagement range (03.04)."""
    engaged = moving.within_engagement_range(*placed_pair(distance_to_enemy))
    return fight_phase.eligible_to_fight(False, engaged, engaged, False)


# -- Charge phase -----------------------------------------------------------------------------------------------



def _units_apart(distance: Any) -> tuple[PlacedUnit, PlacedUnit]:
    a, b = placed_pair(distance)
    return PlacedUnit((a,), owner=1, name="charger"), PlacedUnit((b,), owner=2, name="target")


def may_select_charge_target(distance: Any, charge_roll: Any) -> Any:
    """11.04: selected before moving, within 12" and within the maximum distance the Charge roll gave."""
    charger, target = _units_apart(distance)
    maximum = charge_phase.charge_roll_maximum_distance(charge_roll)
    return charge_phase.may_select_charge_target(charge_phase.charge_target_in_reach(charger, target, maximum))


def eligible_to_charge_after(move: Any) -> Any:
    return _allowed_after(_MOVES[qm.Move(move)], qm.Activity.CHARGE)


def charge_target_within_range(distance: Any, visible: Any) -> Any:
    """11.04 with a charge roll that is no limit here (12"); visibility is asked nowhere."""
    charger, target = _units_apart(distance)
    return charge_phase.may_select_charge_target(charge_phase.charge_target_in_reach(charger, target, 12))


def may_move_over_models_when_charging(fly: Any) -> Any:
    return may_move_over_enemy_models(fly, qm.Move.CHARGE)


def charge_distance_over_models(fly: Any, maximum: Any) -> Any:
    return distance_over_enemy_models(fly, qm.Move.CHARGE, maximum)


def charge_distance(dice_total: Any) -> Any:
    return charge_phase.charge_roll_maximum_distance(dice_total)


def charge_succeeds(can_reach_every_target: Any, in_unit_coherency: Any) -> Any:
    """11.04's charge move with no other enemy unit in the way, and 03.01's end of a move (coherency)."""
    possible = charge_phase.charge_move_possible([True], can_reach_every_target, False)
    return bool(possible and moving.move_can_end(True, in_unit_coherency, True, True))


def charge_move_allowed(moved: Any, charge_roll: Any) -> Any:
    return moving.move_is_within_maximum([moving.Step(moved)], charge_phase.charge_roll_maximum_distance(charge_roll))


def charge_path_allowed(passes_within_engagement_range_of_others: Any,
                        ends_within_engagement_range_of_others: Any) -> Any:
    """11.04 AFTER MOVING asks only where the unit ends."""
    return charge_phase.charge_move_can_end(True, ends_within_engagement_range_of_others)


def charge_model_end_allowed(can_reach_base_contact: Any, end_distance: Any) -> Any:
    """11.04 WHILE MOVING, for a model that could reach base contact (so within 1" and engaged) or could not."""
    a, b = placed_pair(end_distance)
    within_1 = core_concepts.within_horizontally(a, b, 1)
    engaged = moving.within_engagement_range(a, b)
    return charge_phase.charge_model_end_allowed(True, can_reach_base_contact, within_1, can_reach_base_contact,
                                                 engaged)


def gains_fights_first(made_charge_move: Any) -> Any:
    return charge_phase.has_fights_first_after_charge(made_charge_move)


# -- Fight phase ------------------------------------------------------------------------------------------------


def first_to_select(turn_player: Any) -> Any:
    return fight_phase.start_fight_step(turn_player).chooser


def must_select_a_unit(has_eligible_unit: Any, every_eligible_unit_more_than_5_from_enemies: Any) -> Any:
    """12.04 and the rules appendix: a player whose eligible units are all more than 5" from enemy units may pass."""
    may_pass = fight_phase.may_pass([every_eligible_unit_more_than_5_from_enemies])
    return bool(has_eligible_unit and not may_pass)


def newcomer_after_enemy_consolidation(already_selected_to_fight: Any) -> Any:
    """12.08 Engaging Consolidation: the opponent must select each such unit to fight, there and then."""
    made = fight_phase.units_made_to_fight(fight_phase.ConsolidationMode.ENGAGING, ["newcomer"],
                                           ["newcomer"] if already_selected_to_fight else [])
    return qf.Newcomer.FIGHTS_AT_ONCE if made else qf.Newcomer.NOTHING


def fights_in_fights_first_step(has_fights_first: Any, charged_this_turn: Any) -> Any:
    """11.04 gives every model of a unit that charged the ability; 24.13 makes it a Fights First unit."""
    every_model = charge_phase.has_fights_first_after_charge(charged_this_turn, has_fights_first)
    return core_abilities.fights_first_unit([every_model])


def step_after_fight_in_remaining(fights_first_unit_now_eligible: Any) -> Any:
    step, _ = fight_phase.after_fight(fight_phase.FightStep.REMAINING, 1, 1, fights_first_unit_now_eligible)
    return qf.FightStep(int(step))


def pile_in_allowed(moved: Any) -> Any:
    return moving.move_is_within_maximum([moving.Step(moved)], fight_phase.PILE_IN_DISTANCE)


def consolidation_allowed(moved: Any) -> Any:
    return moving.move_is_within_maximum([moving.Step(moved)], fight_phase.CONSOLIDATION_DISTANCE)


def moved_model_end_allowed(ends_closer: Any, can_reach_base_contact: Any, end_distance: Any) -> Any:
    """12.03 (and 12.08's ongoing and engaging modes): closer to the closest target, and engaged with it if possible."""
    engaged = moving.within_engagement_range(*placed_pair(end_distance))
    return fight_phase.moved_model_end_allowed(ends_closer, can_reach_base_contact, engaged)


def pile_in_can_end(in_unit_coherency: Any, within_engagement_range_of_an_enemy: Any,
                    every_model_kept_its_engagements: Any) -> Any:
    after = fight_phase.pile_in_can_end(within_engagement_range_of_an_enemy, every_model_kept_its_engagements)
    return moving.move_can_end(True, in_unit_coherency, True, after)


def model_may_fight(distance_to_enemy: Any, touches_friend_touching_enemy: Any) -> Any:
    """04.02 WHILE FIGHTING: a target must be engaged with the model that has the weapon."""
    engaged = moving.within_engagement_range(*placed_pair(distance_to_enemy))
    return making_attacks.fighting_targets_are_valid([engaged], 1)


def melee_selection_allowed(weapons_selected: Any) -> Any:
    available = [Weapon(f"blade {i}", None, 2, 3, 4, 0, 1) for i in range(3)]
    return making_attacks.weapon_selection_is_legal(False, available[:weapons_selected], available)


def next_attacks(unused_against_same_unit: Any, unresolved_against_other_unit: Any) -> Any:
    step = making_attacks.next_step_after_attack_dice(unused_against_same_unit, unresolved_against_other_unit)
    return {making_attacks.GATHER: qf.NextAttacks.SAME_UNIT, making_attacks.SELECT_ENEMY_UNIT: qf.NextAttacks.NEXT_UNIT,
            making_attacks.DONE: qf.NextAttacks.DONE}[step]


def resolved_together(same_skill_strength_ap_damage: Any, same_attacks: Any, same_abilities: Any) -> Any:
    """04.03: weapons making identical attacks are gathered and resolved together."""
    first = Weapon("first", None, 2, 3, 4, 0, 1)
    second = Weapon("second", None, 2 if same_attacks else 4, 3 if same_skill_strength_ap_damage else 4, 4, 0, 1,
                    () if same_abilities else ("LETHAL HITS",))
    return making_attacks.identical_attacks(first, second)


def _consolidation_mode(enemy_distance: Any, objective_distance: Any) -> Any:
    """12.08's modes for a unit this far from the closest enemy unit and objective (engaged: within 2")."""
    a, enemy = placed_pair(enemy_distance)
    engaged = moving.within_engagement_range(a, enemy)
    enemy_within_3 = core_concepts.within(a, enemy, 3, 3)
    model, spot = placed_pair(objective_distance, base_b=geo.OBJECTIVE_MARKER_MM)
    objective_within_3 = core_concepts.within(model, geo.objective_marker(spot.x, spot.y), 3, 3)
    return fight_phase.consolidation_mode(engaged, enemy_within_3, objective_within_3)


def consolidation_at(enemy_distance: Any, objective_distance: Any) -> Any:
    mode = _consolidation_mode(enemy_distance, objective_distance)
    return {fight_phase.ConsolidationMode.NONE: qf.Consolidation.NONE,
            fight_phase.ConsolidationMode.ONGOING: qf.Consolidation.ENEMY,
            fight_phase.ConsolidationMode.ENGAGING: qf.Consolidation.ENEMY,
            fight_phase.ConsolidationMode.OBJECTIVE: qf.Consolidation.OBJECTIVE}[fight_phase.ConsolidationMode(mode)]


def consolidates_at(enemy_distance: Any, objective_distance: Any) -> Any:
    return consolidation_at(enemy_distance, objective_distance) != qf.Consolidation.NONE


# -- Universal special rules (the Core Rules' core abilities, 24) ---------------------------------------------------



def _more_than(distance: Any, inches: Any) -> Any:
    model, enemy = placed_pair(distance)
    return strategic_reserves.more_than_from_enemies([model], [enemy], inches)


def anti_critical_wound(roll: Any, x: Any, target_has_keyword: Any) -> Any:
    ability = core_abilities.parse_ability(f"[ANTI-VEHICLE {x}+]")
    threshold = core_abilities.critical_wound_threshold(ability, ["VEHICLE"] if target_has_keyword else ["INFANTRY"])
    return attack_sequence.wound_roll(roll, 0, 4, threshold) == attack_sequence.Wound.CRITICAL_WOUND


def may_shoot_after_advancing(has_assault_weapon: Any) -> Any:
    return (core_abilities.may_shoot_after_advancing(has_assault_weapon)
            and shooting_phase.assault_shooting_eligible(False, True, has_assault_weapon))


def blast(models_in_target: Any, target_within_engagement_range: Any) -> tuple[Any, Any]:
    """24.05's extra dice; 04.02 (and the FAQs) keep any ranged weapon, [BLAST] ones included, off engaged units."""
    allowed = making_attacks.shooting_target_is_valid(True, True, not target_within_engagement_range)
    return core_abilities.blast_extra_attacks(models_in_target), allowed


def deadly_demise_mortal_wounds(roll: Any, x: Any, distance: Any) -> Any:
    destroyed, near = placed_pair(distance)
    model = geo.Body(destroyed.x, destroyed.y, base_mm=destroyed.base_mm)
    unit = PlacedUnit((geo.Body(near.x, near.y, base_mm=near.base_mm),), owner=2, name="near")
    hit = core_abilities.deadly_demise_triggers(roll) and "near" in core_abilities.deadly_demise_units(model, [unit])
    return x if hit else 0


def deep_strike_position_allowed(distance_to_enemy: Any, in_enemy_deployment_zone: Any) -> Any:
    more_than_8 = _more_than(distance_to_enemy, core_abilities.SET_UP_ENEMY_DISTANCE)
    return core_abilities.deep_strike_position_allowed(True, False, more_than_8, in_enemy_deployment_zone, 2)


def devastating_models_destroyed(critical_wound: Any, damage: Any, w: Any) -> Any:
    """24.10: D mortal wounds (06.02, one wound each), at most one model damaged per critical wound."""
    mortal = core_abilities.devastating_mortal_wounds(critical_wound, damage)
    models = core_abilities.devastating_wounds_models_damaged(1 if critical_wound else 0)
    destroyed = 0
    for _ in range(models):
        wounds = w
        while mortal and not datasheets.is_destroyed_by_wounds(wounds):
            wounds, mortal = other_concepts.wounds_after_mortal_wound(wounds), mortal - 1
        destroyed += 1 if datasheets.is_destroyed_by_wounds(wounds) else 0
    return destroyed


def extra_attacks_selection_allowed(extra_selected: Any, other_selected: Any) -> Any:
    return core_abilities.extra_attacks_selection_is_legal(1, extra_selected, 1, other_selected)


def wound_not_lost(roll: Any, x: Any) -> Any:
    return not core_abilities.wound_is_lost(roll, x)


def fights_first_unit(models_with_ability: Any, models: Any) -> Any:
    return core_abilities.fights_first_unit([True] * models_with_ability + [False] * (models - models_with_ability))


def firing_deck_allowed(x: Any, models_firing: Any) -> Any:
    picks = [core_abilities.FiringDeckPick(f"model {i}", "passengers", "gun") for i in range(models_firing)]
    return core_abilities.firing_deck_problems(x, picks) == []


def fly_over_enemy_models(move: Any) -> Any:
    return may_move_over_enemy_models(True, move)


def fly_distance_over_enemy_models(move: Any, maximum: Any) -> Any:
    return distance_over_enemy_models(True, move, maximum)


def hazard_test(roll: Any, bearer: Any) -> Any:
    """24.15 makes 06.03 hazard rolls: 1-2 fails, 1 mortal wound, or 3 if every model is a MONSTER/VEHICLE."""
    mortal = other_concepts.hazard_mortal_wounds(roll, qa.Bearer(bearer) == qa.Bearer.MONSTER_OR_VEHICLE)
    return {0: qa.Hazard.NOTHING, 1: qa.Hazard.ONE_MORTAL_WOUND, 3: qa.Hazard.THREE_MORTAL_WOUNDS}[mortal]


def heavy_hit_modifier(moved_inches: Any, set_up_this_turn: Any, engaged: Any) -> Any:
    return core_abilities.heavy_hit_modifier(True, not engaged, set_up_this_turn, moved_inches)


def cover_applies(target_has_cover: Any, ignores_cover: Any) -> Any:
    return core_abilities.cover_applies(target_has_cover, ignores_cover)


def indirect_fire(roll: Any, skill: Any, target_visible: Any, stationary_and_spotted: Any) -> tuple[Any, Any]:
    """10.07 for an [INDIRECT FIRE] attack in indirect shooting, at a visible target or not."""
    hits = shooting_phase.indirect_hit_roll(roll, 0, skill, stationary_and_spotted) != attack_sequence.Hit.FAIL
    return hits, shooting_phase.indirect_target_has_cover(True)


def infiltrators_position_allowed(distance_to_enemy: Any, distance_to_enemy_zone: Any) -> Any:
    """24.20, the deployment zone standing ``distance_to_enemy_zone`` inches from the model's base."""
    model, enemy = placed_pair(distance_to_enemy)
    body = geo.Body(model.x, model.y, base_mm=model.base_mm)
    edge = model.radius + Fraction(distance_to_enemy_zone)
    zone = geo.DeploymentZone(2, ((edge, -10), (edge + 10, -10), (edge + 10, 10), (edge, 10)))
    near_enemy = geo.Body(enemy.x, enemy.y, base_mm=enemy.base_mm)
    return core_abilities.infiltrators_may_set_up(
        True, True, geo.more_than_horizontally([body], [zone], core_abilities.SET_UP_ENEMY_DISTANCE),
        geo.more_than_horizontally([body], [near_enemy], core_abilities.SET_UP_ENEMY_DISTANCE))


def lance_wound_modifier(charged_this_turn: Any) -> Any:
    return core_abilities.lance_wound_modifier(charged_this_turn)


def leader(leaders_already_attached: Any, bodyguard_models_left: Any) -> tuple[Any, Any]:
    """24.22/19.01 for attaching; 05.03's allocation order for whether the CHARACTER group can come first."""
    may_attach = attached_units.may_lead(attached_units.Role.LEADER, True, True, False, leaders_already_attached, 0)
    groups = [attack_sequence.Group("character", True, False)]
    if bodyguard_models_left:
        groups.append(attack_sequence.Group("bodyguard", False, False))
    return bool(may_attach), attack_sequence.allocation_order_is_legal(groups)


def wounds_automatically(critical_hit: Any, player_wants_wound_roll: Any) -> Any:
    return core_abilities.lethal_hit_wounds_automatically(critical_hit, not player_wants_wound_roll)


def melta_damage_bonus(x: Any, within_half_range: Any) -> Any:
    return core_abilities.melta_damage_bonus(x, within_half_range)


def may_fire_one_shot(already_fired_this_battle: Any) -> Any:
    return core_abilities.may_select_one_shot(already_fired_this_battle)


def pistol(target_engaged_with_unit: Any, other_ranged_weapons_selected: Any,
           monster_or_vehicle: Any) -> tuple[Any, Any]:
    """24.27 = 24.07: close-quarters shooting (10.06) for a unit engaged with the enemy."""
    target = shooting_phase.close_quarters_target_allowed(monster_or_vehicle, True, False, target_engaged_with_unit)
    selection = core_abilities.close_quarters_selection_is_legal(True, other_ranged_weapons_selected,
                                                                 monster_or_vehicle, True)
    if not monster_or_vehicle:
        # 10.06 WHILE SHOOTING: other models select only [CLOSE-QUARTERS] weapons.
        selection = selection and not other_ranged_weapons_selected
    return target, selection


def may_allocate_to_character(character_visible: Any, precision: Any) -> Any:
    if not precision:
        return False
    return core_abilities.precision_current_group([0] if character_visible else []) is not None


def rapid_fire_extra_attacks(x: Any, within_half_range: Any) -> Any:
    return core_abilities.rapid_fire_extra_attacks(x, within_half_range)


def scout_move_allowed(moved: Any, x: Any, distance_to_enemy: Any) -> Any:
    return core_abilities.scout_move_can_end(_more_than(distance_to_enemy, core_abilities.SCOUT_ENEMY_DISTANCE),
                                             moved, x)


def stealth_hit(roll: Any, skill: Any, other_modifier: Any) -> Any:
    """24.33: the benefit of cover (13.08: BS worsened by 1); the other modifier is a capped hit-roll modifier."""
    cover = core_abilities.stealth_gives_cover(True, True)
    worsened = attack_sequence.modified_skill(skill, terrain.cover_skill_penalty(cover), 0)
    modifier = attack_sequence.capped_roll_modifier(other_modifier)
    return attack_sequence.hit_roll(roll, modifier, worsened) != attack_sequence.Hit.FAIL


def sustained_hits(critical_hit: Any, x: Any) -> Any:
    return core_abilities.sustained_hits(critical_hit, x)


def hits_automatically(torrent: Any) -> Any:
    return core_abilities.torrent_hits_automatically(torrent)


def may_reroll_wound(first_result_failed: Any) -> Any:
    """24.38 under the widest re-roll policy the function knows (every non-critical result)."""
    return core_abilities.twin_linked_rerolls(first_result_failed, True, False)


# -- Core Stratagems --------------------------------------------------------------------------------------------
#
# Go to Ground has no Core Rules counterpart. Tank Shock is compared with Crushing Impact (15.06), the Core Rules'
# stratagem for a charging VEHICLE's impact, and Grenade with Explosives (15.05), which EXPLOSIVES/GRENADES units use.


_STRATAGEMS = {qst.Stratagem.COMMAND_RE_ROLL: cs.CoreStratagem.COMMAND_RE_ROLL,
               qst.Stratagem.COUNTER_OFFENSIVE: cs.CoreStratagem.COUNTEROFFENSIVE,
               qst.Stratagem.EPIC_CHALLENGE: cs.CoreStratagem.EPIC_CHALLENGE,
               qst.Stratagem.TANK_SHOCK: cs.CoreStratagem.CRUSHING_IMPACT,
               qst.Stratagem.INSANE_BRAVERY: cs.CoreStratagem.INSANE_BRAVERY,
               qst.Stratagem.GRENADE: cs.CoreStratagem.EXPLOSIVES,
               qst.Stratagem.RAPID_INGRESS: cs.CoreStratagem.RAPID_INGRESS,
               qst.Stratagem.SMOKESCREEN: cs.CoreStratagem.SMOKESCREEN,
               qst.Stratagem.FIRE_OVERWATCH: cs.CoreStratagem.FIRE_OVERWATCH,
               qst.Stratagem.HEROIC_INTERVENTION: cs.CoreStratagem.HEROIC_INTERVENTION}

# The moments the sheet names, as far as the Core Rules' WHEN lines tell them apart (the others are "during").
_MOMENTS = {qst.Moment.START_OF_PHASE: cs.Moment.START_OF_PHASE, qst.Moment.DURING_PHASE: cs.Moment.DURING_PHASE,
            qst.Moment.END_OF_PHASE: cs.Moment.END_OF_PHASE, qst.Moment.AFTER_ROLL: cs.Moment.AFTER_ROLL,
            qst.Moment.BEFORE_BATTLE_SHOCK_TEST: cs.Moment.BEFORE_BATTLE_SHOCK_ROLL,
            qst.Moment.AFTER_FAILED_BATTLE_SHOCK_TEST: cs.Moment.DURING_PHASE,
            qst.Moment.AFTER_SELECTED_TO_FIGHT: cs.Moment.AFTER_SELECTED_TO_FIGHT,
            qst.Moment.AFTER_FRIENDLY_CHARGE_MOVE: cs.Moment.AFTER_CHARGE_MOVE,
            qst.Moment.AFTER_ENEMY_FOUGHT: cs.Moment.AFTER_ENEMY_ATTACKS_RESOLVED,
            qst.Moment.AFTER_ENEMY_SELECTED_TARGETS: cs.Moment.DURING_PHASE,
            qst.Moment.ENEMY_SET_UP_OR_MOVES: cs.Moment.DURING_PHASE,
            qst.Moment.AFTER_ENEMY_CHARGE_MOVE: cs.Moment.DURING_PHASE}


def stratagem_cost(stratagem: Any, into_the_fray: Any = False) -> Any:
    """15.01: the printed cost, plus Heroic Intervention's +1CP when its Into the Fray mode is selected."""
    core = _STRATAGEMS[qst.Stratagem(stratagem)]
    extra = cs.heroic_intervention_extra_cost(cs.HeroicMode.INTO_THE_FRAY if into_the_fray else
                                              cs.HeroicMode.LEAP_TO_DEFEND)
    return cs.stratagem_cost(cs.core_stratagem_cost(core), extra, core == cs.CoreStratagem.HEROIC_INTERVENTION)


def stratagem_when(stratagem: Any, phase: Any, your_turn: Any, moment: Any,
                   character_engaged_with_attached_unit: Any = True) -> Any:
    return cs.stratagem_when(_STRATAGEMS[qst.Stratagem(stratagem)], _PHASES[Phase(phase)], your_turn,
                             _MOMENTS[qst.Moment(moment)])


_ROLLS = {qst.RollKind.HIT: cs.Roll.HIT, qst.RollKind.WOUND: cs.Roll.WOUND, qst.RollKind.DAMAGE: cs.Roll.DAMAGE,
          qst.RollKind.SAVE: cs.Roll.SAVE, qst.RollKind.ADVANCE: cs.Roll.ADVANCE, qst.RollKind.CHARGE: cs.Roll.CHARGE,
          # The Core Rules' desperate escape and [HAZARDOUS] weapons make hazard rolls (09.07, 24.15).
          qst.RollKind.DESPERATE_ESCAPE: cs.Roll.HAZARD, qst.RollKind.HAZARDOUS: cs.Roll.HAZARD,
          qst.RollKind.NUMBER_OF_ATTACKS: cs.Roll.NUMBER_OF_ATTACKS, qst.RollKind.BATTLE_SHOCK: cs.Roll.BATTLE_SHOCK}


def command_re_roll_allowed(roll: Any) -> Any:
    return cs.command_re_roll_allowed(_ROLLS[qst.RollKind(roll)])


def dice_rerolled(roll: Any, dice_rolled: Any) -> Any:
    return cs.command_re_roll_dice(_ROLLS[qst.RollKind(roll)], dice_rolled)


def counter_offensive_target(engaged: Any, selected_to_fight: Any, engaged_at_start_of_fight_step: Any,
                             charged_this_turn: Any) -> Any:
    eligible = fight_phase.eligible_to_fight(selected_to_fight, engaged, engaged_at_start_of_fight_step,
                                             charged_this_turn)
    return cs.counteroffensive_target_allowed(eligible)


def may_be_selected_next(is_counter_offensive_unit: Any) -> Any:
    return cs.next_fight_selection_allowed(True, is_counter_offensive_unit)


def epic_challenge_target(character_model: Any) -> Any:
    """15.03 targets the CHARACTER unit and then selects one CHARACTER model in it: the model must be one."""
    return cs.epic_challenge_gives_precision(character_model, True)


def precision_for(selected_character_model: Any, melee_attack: Any) -> Any:
    return cs.epic_challenge_gives_precision(selected_character_model, melee_attack)


def tank_shock_target(kind: Any) -> Any:
    kind = qst.UnitKind(kind)
    return cs.crushing_impact_target_allowed(kind in (qst.UnitKind.MONSTER, qst.UnitKind.VEHICLE), True)


def tank_shock_extremes(weapon_strength: Any, enemy_toughness: Any, model_toughness: Any) -> tuple[Any, Any]:
    """15.06 rolls as many D6 as the model's T: its 5+ hurt the enemy, its 1s your unit, 6 at most each."""
    best = cs.crushing_impact_mortal_wounds([5] * model_toughness, model_toughness)
    worst = cs.crushing_impact_mortal_wounds([1] * model_toughness, model_toughness)
    return best.enemy_unit, worst.own_unit


def insane_bravery_target(battle_shocked: Any) -> Any:
    """15.04's target, and 15.01/01.07: a player never targets their own battle-shocked unit with a stratagem."""
    return bool(cs.insane_bravery_target_allowed(True) and cs.may_use_stratagem(1, 1, False, 0, True, battle_shocked))


def battle_shocked_after_insane_bravery(roll: Any, leadership: Any) -> Any:
    succeeded = cs.battle_shock_roll_succeeds(roll, [leadership], True)
    return command_phase.battle_shocked_after_step_roll(False, succeeded)


def grenade_target(grenades: Any, engaged: Any, selected_to_shoot: Any, advanced: Any) -> Any:
    eligible = shooting_phase.eligible_to_shoot(True, selected_to_shoot)
    return cs.explosives_target_allowed(engaged, grenades, eligible, advanced)


def grenade(d1: Any, d2: Any, d3: Any, d4: Any, d5: Any, d6: Any, enemy_engaged: Any, distance: Any,
            visible: Any) -> tuple[Any, Any]:
    allowed = cs.explosives_enemy_allowed(enemy_engaged, distance, visible)
    return allowed, cs.explosives_mortal_wounds([d1, d2, d3, d4, d5, d6]) if allowed else 0


def rapid_ingress_target(in_reserves: Any, aircraft: Any) -> Any:
    return cs.rapid_ingress_target_allowed(in_reserves, aircraft)


def rapid_ingress_position_allowed(distance_to_enemy: Any, battle_round: Any, wholly_within_6_of_edge: Any,
                                   in_enemy_deployment_zone: Any) -> Any:
    """15.07: an ingress move (20.04)."""
    more_than_8 = far_enough_from_enemy_models(distance_to_enemy)
    return strategic_reserves.ingress_position_allowed(wholly_within_6_of_edge, more_than_8, in_enemy_deployment_zone,
                                                      battle_round)


def rapid_ingress_allowed_in_round(battle_round: Any) -> Any:
    return cs.stratagem_restrictions_allow(cs.CoreStratagem.RAPID_INGRESS, battle_round, False)


def smokescreen_target(smoke: Any, targeted_by_the_attacking_unit: Any) -> Any:
    return cs.smokescreen_target_allowed(smoke)


def smokescreen_effect(attack_targets_smoke_unit: Any) -> tuple[Any, Any]:
    """15.10 gives the benefit of cover only; no hit-roll modifier."""
    return cs.smokescreen_benefit_of_cover(attack_targets_smoke_unit, False), 0


def overwatch_unit_allowed(distance_to_enemy: Any, engaged: Any, titanic: Any) -> Any:
    return cs.fire_overwatch_target_allowed(engaged, titanic)


def overwatch_may_target(is_the_enemy_unit: Any, distance: Any, visible: Any) -> Any:
    """15.09: any one visible, eligible enemy unit within 24" of the unit."""
    return cs.snap_target_allowed(visible, distance, True)


def overwatch_hits(roll: Any, skill: Any, modifier: Any) -> Any:
    return cs.snap_hit_roll(roll) != attack_sequence.Hit.FAIL


def heroic_intervention_target(distance_to_enemy: Any, engaged: Any) -> Any:
    return cs.heroic_intervention_target_allowed(engaged, distance_to_enemy, False, False)


def heroic_charge_target_allowed(enemy: Any) -> Any:
    """15.11 in its 1CP mode, Leap to Defend: enemy units that made a charge move this phase (within reach)."""
    charged = qst.EnemyUnit(enemy) != qst.EnemyUnit.ONE_THAT_DID_NOT_CHARGE
    return cs.heroic_intervention_charge_target_allowed(cs.HeroicMode.LEAP_TO_DEFEND, charged, False, True)


def heroic_intervention_restrictions(vehicle: Any) -> tuple[Any, Any]:
    """15.11's TARGET (a VEHICLE only if a CHARACTER/WALKER) for a unit 6" away; its charge is a charge (11.04)."""
    kind = qst.VehicleKind(vehicle)
    allowed = cs.heroic_intervention_target_allowed(False, 6, kind != qst.VehicleKind.NOT_A_VEHICLE,
                                                    kind in (qst.VehicleKind.WALKER, qst.VehicleKind.CHARACTER))
    return allowed, charge_phase.has_fights_first_after_charge(True)


def may_use_again(used_this_phase: Any) -> Any:
    return cs.may_use_stratagem(2, 1, used_this_phase, 0, True, False)


# -- Rule reference ---------------------------------------------------------------------------------------------



def starts_in_reserves(aircraft: Any) -> Any:
    return ca.must_be_placed_in_strategic_reserves(aircraft)


def aircraft_may_make_move(move: Any) -> Any:
    """23.02: an AIRCRAFT unit is eligible for the ingress move only."""
    return ca.aircraft_may_make_move(True, False)


def aircraft_to_strategic_reserves(crosses_edge: Any, cannot_make_20_inch_move: Any, end_of_opponents_turn: Any) -> Any:
    return ca.returns_to_strategic_reserves(True, True, end_of_opponents_turn)


def near_aircraft(move: Any) -> tuple[Any, Any]:
    core_move = _MOVES[qm.Move(move)]
    eligible = movement_phase.eligible_for_move(core_move, True, True, False, False, _M,
                                                engaged_solely_with_aircraft=True)
    return bool(eligible), movement_phase.after_moving_conditions_met(core_move, True)


def may_move_below_aircraft(move: Any) -> Any:
    return ca.may_move_through_aircraft_model(True)


def may_charge_or_fight_aircraft(can_fly: Any) -> tuple[Any, Any]:
    return ca.may_select_as_charge_target(True, can_fly), ca.may_make_melee_attack(False, can_fly, True, False)


def aircraft_in_combat(target_can_fly: Any) -> tuple[Any, Any, Any, Any]:
    return (ca.aircraft_may_declare_charge(True), fight_phase.eligible_to_pile_in(True, True, False, False, True),
            fight_phase.eligible_to_consolidate(True, True, True),
            ca.may_make_melee_attack(True, True, False, target_can_fly))


def ignores_aircraft_for_closest(can_fly: Any) -> Any:
    return ca.ignore_when_selecting_enemies(True, True, can_fly)


def line_in_coherency(models: Any, gap: Any) -> Any:
    """03.03 for ``models`` 32 mm bases in a straight line, ``gap`` inches between neighbouring bases."""
    step = Fraction(gap) + 2 * Placed(0, 0, base_mm=BASE_MM).radius
    line = [Placed(i * step, Fraction(0), base_mm=BASE_MM) for i in range(models)]
    return moving.in_coherency(line)


def within_engagement_range(horizontal: Any, vertical: Any) -> Any:
    return moving.within_engagement_range(*placed_pair(horizontal, vertical))


def visibility(first: Any, second: Any) -> tuple[Any, Any, Any, Any]:
    def parts(seen: Any) -> list[bool]:
        return {qr.Parts.NONE: [False, False], qr.Parts.SOME: [True, False],
                qr.Parts.EVERY_FACING_PART: [True, True]}[qr.Parts(seen)]

    models = [parts(first), parts(second)]
    visible = [other_concepts.model_visible(p) for p in models]
    fully = [other_concepts.model_fully_visible(p) for p in models]
    return (visible[0], fully[0], other_concepts.unit_visible(visible), other_concepts.unit_fully_visible(fully))
