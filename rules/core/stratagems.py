"""Chapter 15, Stratagems: using them (15.01), and each core stratagem's WHEN, TARGET, restrictions and effect.

The WHEN lines of the core stratagems are one table (``STRATAGEM_WHEN``), their
restrictions another (``STRATAGEM_RESTRICTIONS``); each TARGET line is a
predicate. ``use_stratagem`` runs 15.01's sequence over the game state: select
the target, pay the CP (with any +1CP section), then the caller resolves the
effect.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, replace
from fractions import Fraction
from math import comb
from typing import Any, Sequence

from rules.core import core_concepts, shooting_phase
from rules.core.attack_sequence import Hit
from rules.logic import And, DecisionTable, If, Implies, Min, Not, Or, Row, Var
from rules.registry import rule
from rules.state import GameState, Phase, UnitState

SNAP_SHOOTING_RANGE = 24


@rule("15.09")
def snap_hit_roll(roll: Any) -> Any:
    """Snap shooting: only an unmodified 6 hits, whatever the BS and modifiers (and it is a critical hit)."""
    return If(roll == 6, Hit.CRITICAL_HIT, Hit.FAIL)


@rule("15.09")
def snap_target_allowed(visible: Any, distance: Any, eligible: Any) -> Any:
    """Snap shooting targets one visible, eligible enemy unit within 24"."""
    return And(visible, distance <= SNAP_SHOOTING_RANGE, eligible)


# 15.01 Using stratagems ------------------------------------------------------------------------


class CoreStratagem(enum.IntEnum):
    """The core stratagems, in the order of their section numbers."""

    COMMAND_RE_ROLL = 1  # 15.02
    EPIC_CHALLENGE = 2  # 15.03
    INSANE_BRAVERY = 3  # 15.04
    EXPLOSIVES = 4  # 15.05
    CRUSHING_IMPACT = 5  # 15.06
    RAPID_INGRESS = 6  # 15.07
    FIRE_OVERWATCH = 7  # 15.08
    SMOKESCREEN = 8  # 15.10
    HEROIC_INTERVENTION = 9  # 15.11
    COUNTEROFFENSIVE = 10  # 15.12

    @property
    def title(self) -> str:
        return self.name.replace("_", " ").title().replace("Re Roll", "Re-roll")


@rule("15.01", "01.07")
def may_use_stratagem(cp: Any, cost: Any, used_this_phase: Any, target_stratagems_this_phase: Any,
                      target_friendly: Any, target_battle_shocked: Any, more_than_one_allowed: Any = False) -> Any:
    """Whether a player may use a stratagem on a target under 15.01: enough CP for its cost (with any +1CP
    section), not used by them already this phase, a target they have not already targeted with a stratagem
    this phase (unless a rule allows it), and never their own battle-shocked unit (01.07)."""
    return And(cp >= cost, Not(used_this_phase),
               Or(more_than_one_allowed, target_stratagems_this_phase == 0),
               Implies(target_friendly, core_concepts.may_target_with_own_stratagems(target_battle_shocked)))


@rule("15.01")
def stratagem_cost(base_cost: Any, extra_cost: Any, use_extra_section: Any) -> Any:
    """The CP a use costs: the listed cost, plus a section's additional cost (e.g. +1CP) if that section is used."""
    return base_cost + If(use_extra_section, extra_cost, 0)


@rule("15.01")
def cp_after_use(cp: Any, cost: Any) -> Any:
    """Step 2 of the sequence: the CP total reduced by the cost."""
    return cp - cost


CORE_STRATAGEM_COST = DecisionTable(
    name="core-stratagem-cost",
    refs=("15.02", "15.03", "15.04", "15.05", "15.06", "15.07", "15.08", "15.10", "15.11", "15.12"),
    inputs=(Var("stratagem", CoreStratagem.COMMAND_RE_ROLL, CoreStratagem.COUNTEROFFENSIVE),),
    rows=(
        Row("COUNTEROFFENSIVE: 2CP", lambda stratagem: stratagem == CoreStratagem.COUNTEROFFENSIVE, 2),
        Row("every other core stratagem: 1CP", lambda stratagem: True, 1, otherwise=True),
    ),
)


@rule("15.12", "15.02", "15.03", "15.04", "15.05", "15.06", "15.07", "15.08", "15.10", "15.11")
def core_stratagem_cost(stratagem: Any) -> Any:
    """The CP cost printed on a core stratagem (2CP for Counteroffensive, 1CP for the others)."""
    return CORE_STRATAGEM_COST(stratagem=stratagem)


class Moment(enum.IntEnum):
    """The moments a stratagem's WHEN line names."""

    START_OF_PHASE = 1
    DURING_PHASE = 2  # any other time in the phase
    END_OF_PHASE = 3
    AFTER_ROLL = 4  # just after you make a roll for a friendly unit or model
    BEFORE_BATTLE_SHOCK_ROLL = 5  # just before you make a battle-shock roll for a friendly unit
    AFTER_SELECTED_TO_FIGHT = 6  # just after a friendly unit is selected to fight
    AFTER_CHARGE_MOVE = 7  # just after a friendly unit ends a charge move
    AFTER_ENEMY_ATTACKS_RESOLVED = 8  # just after an enemy unit has resolved its attacks


def _is(stratagem: Any, which: CoreStratagem) -> Any:
    return stratagem == which


def _a_phase(phase: Any) -> Any:
    return And(phase >= Phase.COMMAND, phase <= Phase.FIGHT)


STRATAGEM_WHEN = DecisionTable(
    name="core-stratagem-when",
    refs=("15.02", "15.03", "15.04", "15.05", "15.06", "15.07", "15.08", "15.10", "15.11", "15.12"),
    inputs=(Var("stratagem", CoreStratagem.COMMAND_RE_ROLL, CoreStratagem.COUNTEROFFENSIVE),
            Var("phase", Phase.START_OF_TURN, Phase.END_OF_TURN), Var("your_turn", kind="bool"),
            Var("moment", Moment.START_OF_PHASE, Moment.AFTER_ENEMY_ATTACKS_RESOLVED)),
    rows=(
        Row("COMMAND RE-ROLL: any phase, just after you make one of the listed rolls",
            lambda stratagem, **_: _is(stratagem, CoreStratagem.COMMAND_RE_ROLL),
            lambda phase, moment, **_: And(_a_phase(phase), moment == Moment.AFTER_ROLL)),
        Row("EPIC CHALLENGE: Fight phase, just after a friendly CHARACTER unit is selected to fight",
            lambda stratagem, **_: _is(stratagem, CoreStratagem.EPIC_CHALLENGE),
            lambda phase, moment, **_: And(phase == Phase.FIGHT, moment == Moment.AFTER_SELECTED_TO_FIGHT)),
        Row("INSANE BRAVERY: Battle-shock step of your Command phase, just before a battle-shock roll",
            lambda stratagem, **_: _is(stratagem, CoreStratagem.INSANE_BRAVERY),
            lambda phase, your_turn, moment, **_:
                And(phase == Phase.COMMAND, your_turn, moment == Moment.BEFORE_BATTLE_SHOCK_ROLL)),
        Row("EXPLOSIVES: your Shooting phase",
            lambda stratagem, **_: _is(stratagem, CoreStratagem.EXPLOSIVES),
            lambda phase, your_turn, **_: And(phase == Phase.SHOOTING, your_turn)),
        Row("CRUSHING IMPACT: your Charge phase, just after a friendly MONSTER/VEHICLE unit ends a charge move",
            lambda stratagem, **_: _is(stratagem, CoreStratagem.CRUSHING_IMPACT),
            lambda phase, your_turn, moment, **_:
                And(phase == Phase.CHARGE, your_turn, moment == Moment.AFTER_CHARGE_MOVE)),
        Row("RAPID INGRESS: end of your opponent's Movement phase",
            lambda stratagem, **_: _is(stratagem, CoreStratagem.RAPID_INGRESS),
            lambda phase, your_turn, moment, **_:
                And(phase == Phase.MOVEMENT, Not(your_turn), moment == Moment.END_OF_PHASE)),
        Row("FIRE OVERWATCH: end of your opponent's Movement phase",
            lambda stratagem, **_: _is(stratagem, CoreStratagem.FIRE_OVERWATCH),
            lambda phase, your_turn, moment, **_:
                And(phase == Phase.MOVEMENT, Not(your_turn), moment == Moment.END_OF_PHASE)),
        Row("SMOKESCREEN: start of your opponent's Shooting phase",
            lambda stratagem, **_: _is(stratagem, CoreStratagem.SMOKESCREEN),
            lambda phase, your_turn, moment, **_:
                And(phase == Phase.SHOOTING, Not(your_turn), moment == Moment.START_OF_PHASE)),
        Row("HEROIC INTERVENTION: end of your opponent's Charge phase",
            lambda stratagem, **_: _is(stratagem, CoreStratagem.HEROIC_INTERVENTION),
            lambda phase, your_turn, moment, **_:
                And(phase == Phase.CHARGE, Not(your_turn), moment == Moment.END_OF_PHASE)),
        Row("COUNTEROFFENSIVE: Fight step of your opponent's Fight phase, just after an enemy unit has resolved "
            "its attacks",
            lambda stratagem, **_: _is(stratagem, CoreStratagem.COUNTEROFFENSIVE),
            lambda phase, your_turn, moment, **_:
                And(phase == Phase.FIGHT, Not(your_turn), moment == Moment.AFTER_ENEMY_ATTACKS_RESOLVED)),
    ),
    gap=False,
)


@rule("15.02", "15.03", "15.04", "15.05", "15.06", "15.07", "15.08", "15.10", "15.11", "15.12")
def stratagem_when(stratagem: Any, phase: Any, your_turn: Any, moment: Any) -> Any:
    """Whether a core stratagem's WHEN line allows it now: this phase, whose turn, and this moment."""
    return STRATAGEM_WHEN(stratagem=stratagem, phase=phase, your_turn=your_turn, moment=moment)


STRATAGEM_RESTRICTIONS = DecisionTable(
    name="core-stratagem-restrictions",
    refs=("15.04", "15.07"),
    inputs=(Var("stratagem", CoreStratagem.COMMAND_RE_ROLL, CoreStratagem.COUNTEROFFENSIVE),
            Var("battle_round", 1, 5), Var("used_this_battle", kind="bool")),
    rows=(
        Row("INSANE BRAVERY: you cannot use this stratagem more than once per battle",
            lambda stratagem, **_: _is(stratagem, CoreStratagem.INSANE_BRAVERY),
            lambda used_this_battle, **_: Not(used_this_battle)),
        Row("RAPID INGRESS: you cannot use this stratagem during the first battle round",
            lambda stratagem, **_: _is(stratagem, CoreStratagem.RAPID_INGRESS),
            lambda battle_round, **_: battle_round >= 2),
        Row("the other core stratagems: no RESTRICTIONS section", lambda **_: True, True, otherwise=True),
    ),
    gap=False,
)


@rule("15.04", "15.07")
def stratagem_restrictions_allow(stratagem: Any, battle_round: Any, used_this_battle: Any) -> Any:
    """Whether a core stratagem's RESTRICTIONS allow it: Insane Bravery once per battle, Rapid Ingress never in
    the first battle round."""
    return STRATAGEM_RESTRICTIONS(stratagem=stratagem, battle_round=battle_round, used_this_battle=used_this_battle)


# 15.02 Command Re-roll ---------------------------------------------------------------------------


class Roll(enum.IntEnum):
    """Kinds of roll, as far as Command Re-roll asks."""

    ADVANCE = 1
    CHARGE = 2
    DAMAGE = 3
    HAZARD = 4
    HIT = 5
    SAVE = 6
    WOUND = 7
    NUMBER_OF_ATTACKS = 8  # a roll to determine the number of attacks generated with a weapon
    BATTLE_SHOCK = 9
    LEADERSHIP = 10
    OTHER = 11  # e.g. the D6 of Explosives or Crushing Impact


COMMAND_RE_ROLL_ROLLS = DecisionTable(
    name="command-re-roll-rolls",
    refs=("15.02",),
    inputs=(Var("roll", Roll.ADVANCE, Roll.OTHER),),
    rows=tuple(Row(f"{label}", (lambda kind: lambda roll: roll == kind)(kind), True) for kind, label in (
        (Roll.ADVANCE, "Advance roll"), (Roll.CHARGE, "Charge roll"), (Roll.DAMAGE, "Damage roll"),
        (Roll.HAZARD, "Hazard roll"), (Roll.HIT, "Hit roll"), (Roll.SAVE, "Save roll"), (Roll.WOUND, "Wound roll"),
        (Roll.NUMBER_OF_ATTACKS, "A roll to determine the number of attacks generated with a weapon"),
    )) + (Row("any other roll: not listed", lambda roll: True, False, otherwise=True),),
    gap=False,
)


@rule("15.02")
def command_re_roll_allowed(roll: Any, rolled_by_you_for_friendly_unit: Any = True) -> Any:
    """Whether Command Re-roll can follow this roll: one of its listed kinds, made by you for a friendly unit
    or model (a battle-shock or leadership roll is not one of them)."""
    return And(COMMAND_RE_ROLL_ROLLS(roll=roll), rolled_by_you_for_friendly_unit)


COMMAND_RE_ROLL_DICE = DecisionTable(
    name="command-re-roll-dice",
    refs=("15.02",),
    inputs=(Var("roll", Roll.ADVANCE, Roll.OTHER), Var("dice_rolled", 1, 6)),
    rows=(
        Row("a charge roll: re-roll it in full", lambda roll, **_: roll == Roll.CHARGE,
            lambda dice_rolled, **_: dice_rolled,
            overrides=("more than one dice rolled together: re-roll one of them",)),
        Row("more than one dice rolled together: re-roll one of them", lambda dice_rolled, **_: dice_rolled > 1, 1),
        Row("one dice: re-roll that roll", lambda **_: True, 1, otherwise=True),
    ),
)


@rule("15.02")
def command_re_roll_dice(roll: Any, dice_rolled: Any) -> Any:
    """How many of the dice rolled together Command Re-roll re-rolls: one of them, except a charge roll, which is
    re-rolled in full."""
    return COMMAND_RE_ROLL_DICE(roll=roll, dice_rolled=dice_rolled)


# 15.03 Epic Challenge ---------------------------------------------------------------------------


@rule("15.03")
def epic_challenge_target_allowed(character_unit: Any, just_selected_to_fight: Any) -> Any:
    """Epic Challenge targets the friendly CHARACTER unit that was just selected to fight."""
    return And(character_unit, just_selected_to_fight)


@rule("15.03")
def epic_challenge_gives_precision(selected_character_model: Any, melee_weapon: Any) -> Any:
    """Until the end of the phase, the melee weapons of the one selected CHARACTER model have [PRECISION]."""
    return And(selected_character_model, melee_weapon)


# 15.04 Insane Bravery -----------------------------------------------------------------------------


@rule("15.04", "01.07")
def battle_shock_roll_succeeds(roll: Any, leaderships: Sequence[Any], insane_bravery: Any = False) -> Any:
    """A battle-shock roll succeeds if the leadership roll does (01.07), or automatically under Insane Bravery."""
    return Or(insane_bravery, core_concepts.leadership_roll_succeeds(roll, leaderships))


@rule("15.04")
def insane_bravery_target_allowed(about_to_take_battle_shock_roll: Any) -> Any:
    """Insane Bravery targets the friendly unit whose battle-shock roll is about to be made."""
    return about_to_take_battle_shock_roll


# 15.05 Explosives -------------------------------------------------------------------------------------

EXPLOSIVES_DICE = 6
EXPLOSIVES_RANGE = 8


@rule("15.05")
def explosives_target_allowed(engaged: Any, explosives_or_grenades: Any, eligible_to_shoot: Any,
                              advanced: Any) -> Any:
    """Explosives targets a friendly unengaged EXPLOSIVES/GRENADES unit that is eligible to shoot and did not
    make an advance move this turn."""
    return And(Not(engaged), explosives_or_grenades, eligible_to_shoot, Not(advanced))


@rule("15.05")
def explosives_enemy_allowed(enemy_engaged: Any, distance: Any, visible: Any) -> Any:
    """The enemy unit Explosives hits: unengaged, within 8" of and visible to the selected model."""
    return And(Not(enemy_engaged), distance <= EXPLOSIVES_RANGE, visible)


@rule("15.05")
def explosives_mortal_wounds(rolls: Sequence[Any]) -> Any:
    """Six D6: each 4+ is one mortal wound on the enemy unit."""
    if len(rolls) != EXPLOSIVES_DICE:
        raise ValueError(f"Explosives rolls six D6, not {len(rolls)}")
    total: Any = 0
    for roll in rolls:
        total = total + If(roll >= 4, 1, 0)
    return total


@rule("15.05")
def explosives_mortal_wound_chances() -> dict[int, Fraction]:
    """The exact chance of each number of mortal wounds from Explosives (each D6 is a 4+ half the time)."""
    return {k: Fraction(comb(EXPLOSIVES_DICE, k), 2 ** EXPLOSIVES_DICE) for k in range(EXPLOSIVES_DICE + 1)}


# 15.06 Crushing Impact ---------------------------------------------------------------------------------

CRUSHING_IMPACT_CAP = 6


@rule("15.06")
def crushing_impact_target_allowed(monster_or_vehicle: Any, just_ended_charge_move: Any) -> Any:
    """Crushing Impact targets the friendly MONSTER/VEHICLE unit that just ended a charge move."""
    return And(monster_or_vehicle, just_ended_charge_move)


@dataclass(frozen=True)
class CrushingImpact:
    """The mortal wounds Crushing Impact inflicts on your own unit and on the enemy unit."""

    own_unit: Any
    enemy_unit: Any


@rule("15.06")
def crushing_impact_mortal_wounds(rolls: Sequence[Any], toughness: int) -> CrushingImpact:
    """As many D6 as the selected model's T: each 1 is a mortal wound on your unit, each 5+ one on the enemy
    unit, at most 6 on each unit."""
    if len(rolls) != toughness:
        raise ValueError(f"Crushing Impact rolls one D6 per point of T ({toughness}), not {len(rolls)}")
    ones: Any = 0
    fives: Any = 0
    for roll in rolls:
        ones = ones + If(roll == 1, 1, 0)
        fives = fives + If(roll >= 5, 1, 0)
    return CrushingImpact(Min(ones, CRUSHING_IMPACT_CAP), Min(fives, CRUSHING_IMPACT_CAP))


# 15.07 Rapid Ingress ----------------------------------------------------------------------------------


@rule("15.07")
def rapid_ingress_target_allowed(in_strategic_reserves: Any, aircraft: Any) -> Any:
    """Rapid Ingress targets a friendly unit in strategic reserves that is not an AIRCRAFT unit."""
    return And(in_strategic_reserves, Not(aircraft))


# 15.08 Fire Overwatch and 15.09 Snap shooting ----------------------------------------------------------


@rule("15.08")
def fire_overwatch_target_allowed(engaged: Any, titanic: Any) -> Any:
    """Fire Overwatch targets a friendly unengaged unit that is not TITANIC."""
    return And(Not(engaged), Not(titanic))


@rule("15.08", "15.09")
def fire_overwatch_shooting_type() -> shooting_phase.ShootingType:
    """The unit targeted by Fire Overwatch shoots using snap shooting, whatever else it is eligible for."""
    return shooting_phase.ShootingType.SNAP


# 15.10 Smokescreen ------------------------------------------------------------------------------------


@rule("15.10")
def smokescreen_target_allowed(smoke: Any) -> Any:
    """Smokescreen targets a friendly SMOKE unit."""
    return smoke


@rule("15.10")
def smokescreen_benefit_of_cover(targets_smoke_unit: Any, not_fully_visible_because_of_smoke_models: Any) -> Any:
    """Until the end of the phase, an attack gives its target cover if it targets the SMOKE unit, or a unit not
    fully visible to the attacker because of the SMOKE unit's models."""
    return Or(targets_smoke_unit, not_fully_visible_because_of_smoke_models)


# 15.11 Heroic Intervention ------------------------------------------------------------------------------

HEROIC_INTERVENTION_RANGE = 12
INTO_THE_FRAY_RANGE = 6
INTO_THE_FRAY_CHARGE_CAP = 6


class HeroicMode(enum.IntEnum):
    """The modes of Heroic Intervention, one of which must be selected before the charge roll."""

    LEAP_TO_DEFEND = 1
    INTO_THE_FRAY = 2


@rule("15.11")
def heroic_intervention_target_allowed(engaged: Any, distance_to_nearest_enemy: Any, vehicle: Any,
                                       character_or_walker: Any) -> Any:
    """Heroic Intervention targets a friendly unengaged unit within 12" of an enemy unit; a VEHICLE unit only if
    it is a CHARACTER/WALKER unit."""
    return And(Not(engaged), distance_to_nearest_enemy <= HEROIC_INTERVENTION_RANGE,
               Implies(vehicle, character_or_walker))


@rule("15.11", "15.01")
def heroic_intervention_extra_cost(mode: Any) -> Any:
    """The additional CP of the selected mode: +1CP for Into the Fray, nothing for Leap to Defend.

    Interpretation: into-the-fray-costs-one-more.
    """
    return If(mode == HeroicMode.INTO_THE_FRAY, 1, 0)


@rule("15.11", "15.01")
def heroic_intervention_modes(cp: Any) -> tuple[HeroicMode, ...]:
    """The modes a player with ``cp`` CP can select for Heroic Intervention (cost and any +1CP included)."""
    base = core_stratagem_cost(CoreStratagem.HEROIC_INTERVENTION)
    return tuple(mode for mode in HeroicMode if cp >= stratagem_cost(base, heroic_intervention_extra_cost(mode), True))


@rule("15.11")
def heroic_intervention_charge_roll(roll: Any, mode: Any) -> Any:
    """The charge roll after the mode: Into the Fray changes a result above 6 (after modifiers) to 6."""
    return If(And(mode == HeroicMode.INTO_THE_FRAY, roll > INTO_THE_FRAY_CHARGE_CAP), INTO_THE_FRAY_CHARGE_CAP, roll)


HEROIC_INTERVENTION_TARGETS = DecisionTable(
    name="heroic-intervention-charge-targets",
    refs=("15.11",),
    inputs=(Var("mode", HeroicMode.LEAP_TO_DEFEND, HeroicMode.INTO_THE_FRAY),
            Var("made_charge_move_this_phase", kind="bool"), Var("within_six", kind="bool"),
            Var("within_maximum_distance", kind="bool")),
    rows=(
        Row("Leap to Defend: only enemy units that made a charge move this phase and are within the maximum distance",
            lambda mode, **_: mode == HeroicMode.LEAP_TO_DEFEND,
            lambda made_charge_move_this_phase, within_maximum_distance, **_:
                And(made_charge_move_this_phase, within_maximum_distance)),
        Row("Into the Fray: any enemy units within 6\" of your unit and within the maximum distance",
            lambda mode, **_: mode == HeroicMode.INTO_THE_FRAY,
            lambda within_six, within_maximum_distance, **_: And(within_six, within_maximum_distance)),
    ),
    gap=False,
)


@rule("15.11")
def heroic_intervention_charge_target_allowed(mode: Any, made_charge_move_this_phase: Any, within_six: Any,
                                              within_maximum_distance: Any) -> Any:
    """Which enemy units the selected mode lets the unit select as charge targets."""
    return HEROIC_INTERVENTION_TARGETS(mode=mode, made_charge_move_this_phase=made_charge_move_this_phase,
                                       within_six=within_six, within_maximum_distance=within_maximum_distance)


# 15.12 Counteroffensive ----------------------------------------------------------------------------------


@rule("15.12")
def counteroffensive_target_allowed(eligible_to_fight: Any) -> Any:
    """Counteroffensive targets a friendly unit that is eligible to fight."""
    return eligible_to_fight


@rule("15.12")
def next_fight_selection_allowed(counteroffensive_unit_waiting: Any, is_counteroffensive_unit: Any) -> Any:
    """Until the Counteroffensive unit has been selected to fight, it must be the next unit its player selects."""
    return Or(Not(counteroffensive_unit_waiting), is_counteroffensive_unit)


# Over the game state ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Occasion:
    """The facts a core stratagem's WHEN and TARGET lines ask about, beyond the game state.

    ``subject`` names the unit the moment is about (the unit that rolled, is about to take a battle-shock
    roll, was selected to fight or ended a charge move).
    """

    moment: Moment = Moment.DURING_PHASE
    subject: str | None = None
    roll: Roll = Roll.OTHER
    distance_to_nearest_enemy: Any = 99
    mode: HeroicMode = HeroicMode.LEAP_TO_DEFEND


def target_allowed(stratagem: CoreStratagem, unit: UnitState, occasion: Occasion) -> Any:
    """The TARGET line of a core stratagem, on a unit's recorded facts."""
    subject = occasion.subject == unit.name
    if stratagem == CoreStratagem.COMMAND_RE_ROLL:
        return command_re_roll_allowed(occasion.roll, subject)
    if stratagem == CoreStratagem.EPIC_CHALLENGE:
        return epic_challenge_target_allowed(unit.has("CHARACTER"), subject)
    if stratagem == CoreStratagem.INSANE_BRAVERY:
        return insane_bravery_target_allowed(subject)
    if stratagem == CoreStratagem.EXPLOSIVES:
        eligible = shooting_phase.eligible_to_shoot(unit.on_battlefield, unit.selected_to_shoot, unit.started_action,
                                                    unit.has("TITANIC"))
        return explosives_target_allowed(unit.engaged, unit.has("EXPLOSIVES/GRENADES"), eligible, unit.advanced)
    if stratagem == CoreStratagem.CRUSHING_IMPACT:
        return crushing_impact_target_allowed(unit.has("MONSTER/VEHICLE"), subject)
    if stratagem == CoreStratagem.RAPID_INGRESS:
        return rapid_ingress_target_allowed(unit.in_reserves, unit.has("AIRCRAFT"))
    if stratagem == CoreStratagem.FIRE_OVERWATCH:
        return And(unit.on_battlefield, fire_overwatch_target_allowed(unit.engaged, unit.has("TITANIC")))
    if stratagem == CoreStratagem.SMOKESCREEN:
        return And(unit.on_battlefield, smokescreen_target_allowed(unit.has("SMOKE")))
    if stratagem == CoreStratagem.HEROIC_INTERVENTION:
        return And(unit.on_battlefield, heroic_intervention_target_allowed(
            unit.engaged, occasion.distance_to_nearest_enemy, unit.has("VEHICLE"), unit.has("CHARACTER/WALKER")))
    if stratagem == CoreStratagem.COUNTEROFFENSIVE:
        return counteroffensive_target_allowed(unit.eligible_to_fight)
    raise ValueError(f"{stratagem!r} is not a core stratagem")


def use_cost(stratagem: CoreStratagem, occasion: Occasion) -> Any:
    """The CP a use of a core stratagem costs, with Into the Fray's +1CP when that mode is selected."""
    extra = heroic_intervention_extra_cost(occasion.mode) if stratagem == CoreStratagem.HEROIC_INTERVENTION else 0
    return stratagem_cost(core_stratagem_cost(stratagem), extra, extra > 0)


def refusal(state: GameState, player: int, stratagem: CoreStratagem, target: str, occasion: Occasion) -> str | None:
    """Why ``player`` cannot use ``stratagem`` on ``target`` now (None if they can)."""
    unit = state.unit(target)
    if unit.destroyed:
        return f"{target} is destroyed"
    if unit.owner != player:
        return f"the core stratagems target friendly units, and {target} belongs to player {unit.owner}"
    if not stratagem_when(stratagem, state.phase, state.turn_player == player, occasion.moment):
        return f"{stratagem.title} cannot be used at this moment ({state.phase.name}, {occasion.moment.name})"
    if not stratagem_restrictions_allow(stratagem, state.battle_round,
                                        (player, stratagem.title) in state.stratagems_used_this_battle):
        return f"the restrictions of {stratagem.title} forbid it now"
    if not target_allowed(stratagem, unit, occasion):
        return f"{target} is not a valid target of {stratagem.title}"
    cost = use_cost(stratagem, occasion)
    if not may_use_stratagem(state.cp_of(player), cost, (player, stratagem.title) in state.stratagems_used_this_phase,
                             unit.stratagems_on_it, True, unit.battle_shocked):
        return (f"15.01 forbids it: {state.cp_of(player)}CP for a cost of {cost}CP, used this phase "
                f"{(player, stratagem.title) in state.stratagems_used_this_phase}, {target} already targeted "
                f"{unit.stratagems_on_it} times, battle-shocked {unit.battle_shocked}")
    return None


@rule("15.01")
def use_stratagem(state: GameState, player: int, stratagem: CoreStratagem, target: str,
                  occasion: Occasion = Occasion()) -> GameState:
    """Use a core stratagem: 1. select its target, 2. pay its CP (refused without enough), 3. its effect follows.

    Records the use for the once-per-phase and once-per-battle restrictions and the target's count of
    stratagems this phase. Raises ValueError with the reason if the stratagem cannot be used.
    """
    reason = refusal(state, player, stratagem, target, occasion)
    if reason:
        raise ValueError(reason)
    unit = state.unit(target)
    cost = use_cost(stratagem, occasion)
    used = (player, stratagem.title)
    state = state.with_cp(player, cp_after_use(state.cp_of(player), cost))
    state = state.with_unit(replace(unit, stratagems_on_it=unit.stratagems_on_it + 1))
    state = replace(state, stratagems_used_this_phase=state.stratagems_used_this_phase | {used},
                    stratagems_used_this_battle=state.stratagems_used_this_battle | {used})
    return state.note(f"player {player} uses {stratagem.title} ({cost}CP) on {target}: "
                      f"{state.cp_of(player)}CP left")


def moments_in_step(phase: Phase, step: str) -> tuple[Moment, ...]:
    """The moments of a stratagem's WHEN line that can come up in a step of the turn."""
    if step.startswith("start of") and phase not in (Phase.START_OF_TURN, Phase.END_OF_TURN):
        return (Moment.START_OF_PHASE,)
    if step.startswith("end of") and phase not in (Phase.START_OF_TURN, Phase.END_OF_TURN):
        return (Moment.END_OF_PHASE,)
    return {
        "battle-shock": (Moment.BEFORE_BATTLE_SHOCK_ROLL,),
        "move units": (Moment.DURING_PHASE, Moment.AFTER_ROLL),
        "shoot": (Moment.DURING_PHASE, Moment.AFTER_ROLL),
        "charge": (Moment.DURING_PHASE, Moment.AFTER_ROLL, Moment.AFTER_CHARGE_MOVE),
        "fight": (Moment.DURING_PHASE, Moment.AFTER_ROLL, Moment.AFTER_SELECTED_TO_FIGHT,
                  Moment.AFTER_ENEMY_ATTACKS_RESOLVED),
    }.get(step, (Moment.DURING_PHASE,))
