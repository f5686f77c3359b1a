"""The sheet's Core Stratagems: what each costs, when it is used, what it targets and what it does."""

from __future__ import annotations

import enum
from typing import Any, Sequence

from rules.logic import And, DecisionTable, If, Min, Not, Or, Row, Var
from rules.quickref import movement
from rules.quickref.sequence import Phase
from rules.registry import ruleset_rule

rule = ruleset_rule("quickref")


class Stratagem(enum.IntEnum):
    """The sheet's Core Stratagems in printed order."""

    COMMAND_RE_ROLL = 1
    COUNTER_OFFENSIVE = 2
    EPIC_CHALLENGE = 3
    TANK_SHOCK = 4
    INSANE_BRAVERY = 5
    GRENADE = 6
    RAPID_INGRESS = 7
    SMOKESCREEN = 8
    FIRE_OVERWATCH = 9
    GO_TO_GROUND = 10
    HEROIC_INTERVENTION = 11


class Moment(enum.IntEnum):
    """The moments of a phase the WHEN lines of the sheet (and of the Core Rules) name."""

    START_OF_PHASE = 1
    DURING_PHASE = 2  # any other moment
    END_OF_PHASE = 3
    AFTER_ROLL = 4  # just after you make a roll for a unit or model of your army
    BEFORE_BATTLE_SHOCK_TEST = 5
    AFTER_FAILED_BATTLE_SHOCK_TEST = 6
    AFTER_SELECTED_TO_FIGHT = 7  # just after a unit of your army is selected to fight
    AFTER_FRIENDLY_CHARGE_MOVE = 8  # just after a unit of your army ends a Charge move
    AFTER_ENEMY_FOUGHT = 9  # just after an enemy unit has fought
    AFTER_ENEMY_SELECTED_TARGETS = 10
    ENEMY_SET_UP_OR_MOVES = 11  # an enemy unit is set up, or starts or ends a Normal, Advance, Fall Back or Charge move
    AFTER_ENEMY_CHARGE_MOVE = 12  # just after an enemy unit ends a Charge move


COST = {Stratagem.COMMAND_RE_ROLL: 1, Stratagem.COUNTER_OFFENSIVE: 2, Stratagem.EPIC_CHALLENGE: 1,
        Stratagem.TANK_SHOCK: 1, Stratagem.INSANE_BRAVERY: 1, Stratagem.GRENADE: 1, Stratagem.RAPID_INGRESS: 1,
        Stratagem.SMOKESCREEN: 1, Stratagem.FIRE_OVERWATCH: 1, Stratagem.GO_TO_GROUND: 1,
        Stratagem.HEROIC_INTERVENTION: 2}

COSTS = ("stratagems/command-re-roll/cost", "stratagems/counter-offensive/cost", "stratagems/epic-challenge/cost",
         "stratagems/tank-shock/cost", "stratagems/insane-bravery/cost", "stratagems/grenade/cost",
         "stratagems/rapid-ingress/cost", "stratagems/smokescreen/cost", "stratagems/fire-overwatch/cost",
         "stratagems/go-to-ground/cost", "stratagems/heroic-intervention/cost")


@rule(*COSTS)
def stratagem_cost(stratagem: Any, into_the_fray: Any = False) -> Any:
    """The CP printed beside each Stratagem's name: 2CP for Counter-offensive and Heroic Intervention, 1CP for the
    others."""
    cost: Any = 0
    for which, cp in COST.items():
        cost = If(stratagem == which, cp, cost)
    return cost


STRATAGEM_WHEN = DecisionTable(
    name="quickref-stratagem-when",
    refs=tuple(f"stratagems/{s}/when" for s in (
        "command-re-roll", "counter-offensive", "epic-challenge", "tank-shock", "insane-bravery", "grenade",
        "rapid-ingress", "smokescreen", "fire-overwatch", "go-to-ground", "heroic-intervention")),
    inputs=(Var("stratagem", Stratagem.COMMAND_RE_ROLL, Stratagem.HEROIC_INTERVENTION),
            Var("phase_", Phase.COMMAND, Phase.FIGHT), Var("your_turn", kind="bool"),
            Var("moment", Moment.START_OF_PHASE, Moment.AFTER_ENEMY_CHARGE_MOVE),
            Var("character_engaged_with_attached_unit", kind="bool")),
    rows=(
        Row("COMMAND RE-ROLL: in any phase, just after you have made one of the listed rolls or tests",
            lambda stratagem, **_: stratagem == Stratagem.COMMAND_RE_ROLL,
            lambda moment, **_: moment == Moment.AFTER_ROLL),
        Row("COUNTER-OFFENSIVE: Fight phase, just after an enemy unit has fought",
            lambda stratagem, **_: stratagem == Stratagem.COUNTER_OFFENSIVE,
            lambda phase_, moment, **_: And(phase_ == Phase.FIGHT, moment == Moment.AFTER_ENEMY_FOUGHT)),
        Row("EPIC CHALLENGE: Fight phase, when a CHARACTER unit within Engagement Range of an Attached unit is "
            "selected to fight",
            lambda stratagem, **_: stratagem == Stratagem.EPIC_CHALLENGE,
            lambda phase_, moment, character_engaged_with_attached_unit, **_:
                And(phase_ == Phase.FIGHT, moment == Moment.AFTER_SELECTED_TO_FIGHT,
                    character_engaged_with_attached_unit)),
        Row("TANK SHOCK: your Charge phase", lambda stratagem, **_: stratagem == Stratagem.TANK_SHOCK,
            lambda phase_, your_turn, **_: And(phase_ == Phase.CHARGE, your_turn)),
        Row("INSANE BRAVERY: Battle-shock step of your Command phase, just after a failed Battle-shock test",
            lambda stratagem, **_: stratagem == Stratagem.INSANE_BRAVERY,
            lambda phase_, your_turn, moment, **_:
                And(phase_ == Phase.COMMAND, your_turn, moment == Moment.AFTER_FAILED_BATTLE_SHOCK_TEST)),
        Row("GRENADE: your Shooting phase", lambda stratagem, **_: stratagem == Stratagem.GRENADE,
            lambda phase_, your_turn, **_: And(phase_ == Phase.SHOOTING, your_turn)),
        Row("RAPID INGRESS: end of your opponent's Movement phase",
            lambda stratagem, **_: stratagem == Stratagem.RAPID_INGRESS,
            lambda phase_, your_turn, moment, **_:
                And(phase_ == Phase.MOVEMENT, Not(your_turn), moment == Moment.END_OF_PHASE)),
        Row("SMOKESCREEN: your opponent's Shooting phase, just after an enemy unit has selected its targets",
            lambda stratagem, **_: stratagem == Stratagem.SMOKESCREEN,
            lambda phase_, your_turn, moment, **_:
                And(phase_ == Phase.SHOOTING, Not(your_turn), moment == Moment.AFTER_ENEMY_SELECTED_TARGETS)),
        Row("FIRE OVERWATCH: your opponent's Movement or Charge phase, when an enemy unit is set up or starts or "
            "ends a Normal, Advance, Fall Back or Charge move",
            lambda stratagem, **_: stratagem == Stratagem.FIRE_OVERWATCH,
            lambda phase_, your_turn, moment, **_:
                And(Or(phase_ == Phase.MOVEMENT, phase_ == Phase.CHARGE), Not(your_turn),
                    moment == Moment.ENEMY_SET_UP_OR_MOVES)),
        Row("GO TO GROUND: your opponent's Shooting phase, just after an enemy unit has selected its targets",
            lambda stratagem, **_: stratagem == Stratagem.GO_TO_GROUND,
            lambda phase_, your_turn, moment, **_:
                And(phase_ == Phase.SHOOTING, Not(your_turn), moment == Moment.AFTER_ENEMY_SELECTED_TARGETS)),
        Row("HEROIC INTERVENTION: your opponent's Charge phase, just after an enemy unit ends a Charge move",
            lambda stratagem, **_: stratagem == Stratagem.HEROIC_INTERVENTION,
            lambda phase_, your_turn, moment, **_:
                And(phase_ == Phase.CHARGE, Not(your_turn), moment == Moment.AFTER_ENEMY_CHARGE_MOVE)),
    ),
    gap=False,
)

WHENS = STRATAGEM_WHEN.refs


@rule(*WHENS)
def stratagem_when(stratagem: Any, phase: Any, your_turn: Any, moment: Any,
                   character_engaged_with_attached_unit: Any = True) -> Any:
    """Whether a Stratagem's WHEN line allows it now: the phase, whose turn, the moment (and for Epic Challenge
    whether the CHARACTER unit is within Engagement Range of an Attached unit)."""
    return STRATAGEM_WHEN(stratagem=stratagem, phase_=phase, your_turn=your_turn, moment=moment,
                          character_engaged_with_attached_unit=character_engaged_with_attached_unit)


# Command Re-roll ------------------------------------------------------------------------------------------------


class RollKind(enum.IntEnum):
    """The rolls and tests Command Re-roll names (and others it does not)."""

    HIT = 1
    WOUND = 2
    DAMAGE = 3
    SAVE = 4
    ADVANCE = 5
    CHARGE = 6
    DESPERATE_ESCAPE = 7
    HAZARDOUS = 8
    NUMBER_OF_ATTACKS = 9
    BATTLE_SHOCK = 10


@rule("stratagems/command-re-roll/when")
def command_re_roll_allowed(roll: Any) -> Any:
    """Command Re-roll follows a Hit, Wound, Damage, saving, Advance or Charge roll, a Desperate Escape or Hazardous
    test, or a roll for the number of attacks (a Battle-shock test is not one of them)."""
    return And(roll >= RollKind.HIT, roll <= RollKind.NUMBER_OF_ATTACKS)


@rule("stratagems/command-re-roll/effect", "dice")
def dice_rerolled(roll: Any, dice_rolled: Any) -> Any:
    """You re-roll that roll, test or saving throw: every dice of it (dice added together are re-rolled together)."""
    return dice_rolled


# Counter-offensive ----------------------------------------------------------------------------------------------


@rule("stratagems/counter-offensive/target")
def counter_offensive_target(engaged: Any, selected_to_fight: Any, engaged_at_start_of_fight_step: Any,
                             charged_this_turn: Any) -> Any:
    """A unit of your army within Engagement Range of an enemy unit that has not yet been selected to fight."""
    return And(engaged, Not(selected_to_fight))


@rule("stratagems/counter-offensive/effect")
def may_be_selected_next(is_counter_offensive_unit: Any) -> Any:
    """Your unit fights next: the next unit selected to fight is that one."""
    return is_counter_offensive_unit


# Epic Challenge -------------------------------------------------------------------------------------------------


@rule("stratagems/epic-challenge/target")
def epic_challenge_target(character_model: Any) -> Any:
    """One CHARACTER model in your unit."""
    return character_model


@rule("stratagems/epic-challenge/effect")
def precision_for(selected_character_model: Any, melee_attack: Any) -> Any:
    """Until the end of the phase that model's melee attacks have PRECISION."""
    return And(selected_character_model, melee_attack)


# Tank Shock ----------------------------------------------------------------------------------------------------


class UnitKind(enum.IntEnum):
    INFANTRY = 0
    MONSTER = 1
    VEHICLE = 2


@rule("stratagems/tank-shock/target")
def tank_shock_target(kind: Any) -> Any:
    """One VEHICLE unit from your army."""
    return kind == UnitKind.VEHICLE


TANK_SHOCK_CAP = 6
TANK_SHOCK_BONUS_DICE = 2


@rule("stratagems/tank-shock/effect")
def tank_shock_dice(weapon_strength: Any, enemy_toughness: Any) -> Any:
    """As many D6 as the melee weapon's Strength, two more if it beats the enemy unit's Toughness."""
    return weapon_strength + If(weapon_strength > enemy_toughness, TANK_SHOCK_BONUS_DICE, 0)


@rule("stratagems/tank-shock/effect")
def tank_shock_mortal_wounds(rolls: Sequence[Any]) -> Any:
    """For each 5+, 1 mortal wound on the enemy unit, 6 at most."""
    total: Any = 0
    for roll in rolls:
        total = total + If(roll >= 5, 1, 0)
    return Min(total, TANK_SHOCK_CAP)


def tank_shock_extremes(weapon_strength: Any, enemy_toughness: Any, model_toughness: Any) -> tuple[Any, Any]:
    """(mortal wounds on the enemy if every dice shows 5+, on your own unit if every dice shows 1)."""
    dice = tank_shock_dice(weapon_strength, enemy_toughness)
    return tank_shock_mortal_wounds([5] * dice), 0


# Insane Bravery --------------------------------------------------------------------------------------------------


@rule("stratagems/insane-bravery/target")
def insane_bravery_target(battle_shocked: Any) -> Any:
    """The unit the test was just taken for, though Battle-shocked units cannot normally be affected by Stratagems."""
    return True


@rule("stratagems/insane-bravery/effect")
def battle_shocked_after_insane_bravery(roll: Any, leadership: Any) -> Any:
    """The test is treated as passed: the unit is not Battle-shocked."""
    return False


# Grenade --------------------------------------------------------------------------------------------------------

GRENADE_RANGE = 8


@rule("stratagems/grenade/target")
def grenade_target(grenades: Any, engaged: Any, selected_to_shoot: Any, advanced: Any) -> Any:
    """A GRENADES unit not within Engagement Range of enemy units that has not been selected to shoot this phase."""
    return And(grenades, Not(engaged), Not(selected_to_shoot))


@rule("stratagems/grenade/effect")
def grenade(d1: Any, d2: Any, d3: Any, d4: Any, d5: Any, d6: Any, enemy_engaged: Any, distance: Any,
            visible: Any) -> tuple[Any, Any]:
    """(may select the enemy unit, mortal wounds): an enemy unit not within Engagement Range of your units, within
    8" and visible; six D6, each 4+ one mortal wound."""
    allowed = And(Not(enemy_engaged), distance <= GRENADE_RANGE, visible)
    wounds: Any = 0
    for roll in (d1, d2, d3, d4, d5, d6):
        wounds = wounds + If(roll >= 4, 1, 0)
    return allowed, If(allowed, wounds, 0)


# Rapid Ingress -------------------------------------------------------------------------------------------------


@rule("stratagems/rapid-ingress/target")
def rapid_ingress_target(in_reserves: Any, aircraft: Any) -> Any:
    """One unit from your army that is in Reserves."""
    return in_reserves


@rule("stratagems/rapid-ingress/effect")
def rapid_ingress_position_allowed(distance_to_enemy: Any, battle_round: Any, wholly_within_6_of_edge: Any,
                                   in_enemy_deployment_zone: Any) -> Any:
    """It arrives as in the Reinforcements step: where Strategic Reserves may be set up."""
    return And(movement.strategic_reserves_position_allowed(battle_round, wholly_within_6_of_edge,
                                                            in_enemy_deployment_zone),
               movement.far_enough_from_enemy_models(distance_to_enemy))


@rule("stratagems/rapid-ingress/restrictions")
def rapid_ingress_allowed_in_round(battle_round: Any) -> Any:
    """Not to arrive in a battle round the unit could not normally arrive in (Strategic Reserves: from round 2)."""
    return movement.strategic_reserves_may_arrive(battle_round)


# Smokescreen ---------------------------------------------------------------------------------------------------


@rule("stratagems/smokescreen/target")
def smokescreen_target(smoke: Any, targeted_by_the_attacking_unit: Any) -> Any:
    """A SMOKE unit selected as the target of one or more of the attacking unit's attacks."""
    return And(smoke, targeted_by_the_attacking_unit)


@rule("stratagems/smokescreen/effect")
def smokescreen_effect(attack_targets_smoke_unit: Any) -> tuple[Any, Any]:
    """(Benefit of Cover, hit modifier): until the end of the phase your unit has the Benefit of Cover and Stealth
    (-1 to hit by ranged attacks)."""
    return attack_targets_smoke_unit, If(attack_targets_smoke_unit, -1, 0)


# Fire Overwatch -------------------------------------------------------------------------------------------------

OVERWATCH_RANGE = 24


@rule("stratagems/fire-overwatch/target")
def overwatch_unit_allowed(distance_to_enemy: Any, engaged: Any, titanic: Any) -> Any:
    """A unit within 24" of that enemy unit that would be eligible to shoot in your Shooting phase (not within
    Engagement Range of enemy units)."""
    return And(distance_to_enemy <= OVERWATCH_RANGE, Not(engaged))


@rule("stratagems/fire-overwatch/effect")
def overwatch_may_target(is_the_enemy_unit: Any, distance: Any, visible: Any) -> Any:
    """Your unit shoots that enemy unit (visible, as in your Shooting phase), no other."""
    return And(is_the_enemy_unit, visible)


@rule("stratagems/fire-overwatch/restrictions")
def overwatch_hits(roll: Any, skill: Any, modifier: Any) -> Any:
    """Only an unmodified Hit roll of 6 hits, whatever the BS or modifiers (and the Stratagem once per turn)."""
    return roll == 6


# Go to Ground ---------------------------------------------------------------------------------------------------


@rule("stratagems/go-to-ground/target")
def go_to_ground_target(infantry: Any, targeted_by_the_attacking_unit: Any) -> Any:
    """An INFANTRY unit selected as the target of one or more of the attacking unit's attacks."""
    return And(infantry, targeted_by_the_attacking_unit)


GO_TO_GROUND_INVULNERABLE = 6


@rule("stratagems/go-to-ground/effect")
def go_to_ground_effect(targeted: Any) -> tuple[Any, Any]:
    """(Invulnerable Save, Benefit of Cover) of the unit's models until the end of the phase: a 6+ invulnerable
    save and the Benefit of Cover."""
    return If(targeted, GO_TO_GROUND_INVULNERABLE, 0), targeted


# Heroic Intervention ----------------------------------------------------------------------------------------------

HEROIC_RANGE = 6


@rule("stratagems/heroic-intervention/target")
def heroic_intervention_target(distance_to_enemy: Any, engaged: Any) -> Any:
    """A unit within 6" of that enemy unit that could declare a charge against it (not within Engagement Range)."""
    return And(distance_to_enemy <= HEROIC_RANGE, Not(engaged))


class EnemyUnit(enum.IntEnum):
    """Which enemy unit a Heroic Intervention could charge."""

    THE_ONE_THAT_CHARGED = 1  # whose Charge move triggered the Stratagem
    ANOTHER_THAT_CHARGED = 2  # another enemy unit that made a Charge move this phase
    ONE_THAT_DID_NOT_CHARGE = 3


@rule("stratagems/heroic-intervention/effect")
def heroic_charge_target_allowed(enemy: Any) -> Any:
    """The charge targets only that enemy unit."""
    return enemy == EnemyUnit.THE_ONE_THAT_CHARGED


class VehicleKind(enum.IntEnum):
    NOT_A_VEHICLE = 0
    WALKER = 1
    CHARACTER = 2  # a VEHICLE CHARACTER that is not a WALKER
    OTHER = 3


@rule("stratagems/heroic-intervention/restrictions")
def heroic_intervention_restrictions(vehicle: Any) -> tuple[Any, Any]:
    """(may be selected, gets a Charge bonus): a VEHICLE only if a WALKER; no Charge bonus (Fights First) even if
    the charge succeeds."""
    return Or(vehicle == VehicleKind.NOT_A_VEHICLE, vehicle == VehicleKind.WALKER), False


# Rule reference: Stratagems ----------------------------------------------------------------------------------------


@rule("stratagems/once-per-phase")
def may_use_again(used_this_phase: Any) -> Any:
    """The same Stratagem cannot be used more than once in the same phase."""
    return Not(used_this_phase)
