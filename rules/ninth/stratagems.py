"""Stratagems, as the earlier edition's Basic Rules state them, and its seven Core Stratagems.

Using one pays its CP cost and needs enough CPs for it; the same Stratagem (by name, whatever the publication)
is used at most once per phase, except Stratagems used outside a phase. The Core Stratagems are data (cost and
moment, ``CORE_STRATAGEMS``, ``STRATAGEM_WHEN``) and, where they decide an outcome, functions: the rolls Command
Re-roll may follow, Cut Them Down's mortal wounds, Desperate Breakout's losses, Emergency Disembarkation's range
and losses, Fire Overwatch's unit, Counter-offensive's next fighter, Insane Bravery's automatic pass.
``StratagemLedger`` keeps one player's CPs and uses over a battle.
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any, Sequence

from rules.logic import And, DecisionTable, If, Implies, Not, Or, Row, Var
from rules.ninth import overwatch
from rules.registry import ruleset_rule

rule = ruleset_rule("ninth")

NOBODY = 0


def _key(name: str) -> str:
    """A Stratagem's name as compared: capitals and spacing aside, identical names are the same Stratagem."""
    return re.sub(r"\s+", " ", name).strip().casefold()


# Using Stratagems ---------------------------------------------------------------------------------------


@rule("stratagems/using-stratagems", "stratagems/unbound-armies")
def may_use_stratagem(cp: Any, cost: Any, used_this_phase: Any = False, used_during_a_phase: Any = True) -> Any:
    """Whether a player may use a Stratagem: they have at least its CP cost, and, for a Stratagem used during a
    phase, they have not used the same Stratagem in this phase. A Battle-forged and an Unbound army spend CPs
    alike, so the army type is no input."""
    return And(cp >= cost, Implies(used_during_a_phase, Not(used_this_phase)))


class Timing(enum.IntEnum):
    """When a Stratagem is used, as far as the once-per-phase limit asks."""

    BEFORE_THE_BATTLE = 1
    DURING_A_PHASE = 2
    END_OF_THE_BATTLE_ROUND = 3  # after the last phase of the battle round, in no phase


@rule("stratagems/using-stratagems")
def once_per_phase_limit_applies(timing: Any) -> Any:
    """Whether the once-per-phase limit counts this use: only for a Stratagem used during a phase (not one used
    'before the battle' or 'at the end of the battle round').

    Interpretation: prose-over-summary-bullets.
    """
    return timing == Timing.DURING_A_PHASE


@rule("stratagems/using-stratagems")
def cp_after_use(cp: Any, cost: Any) -> Any:
    """The CP total after using a Stratagem: reduced by its cost."""
    return cp - cost


@rule("stratagems/using-stratagems")
def same_stratagem(name: str, other: str) -> bool:
    """Whether two Stratagems count as the same: identical names (ignoring capitals and spacing), even when they
    appear in different publications."""
    return _key(name) == _key(other)


@rule("stratagems/unbound-armies")
def starting_command_points(battle_forged: Any, battle_forged_cp: Any, both_unbound: Any = False,
                            agreed_cp: Any = 0) -> Any:
    """The CPs an army starts the battle with: a Battle-forged army's usual total; an Unbound army none (it can
    still gain CPs by other means), unless both armies are Unbound and the players agreed a number beforehand."""
    return If(battle_forged, battle_forged_cp, If(both_unbound, agreed_cp, 0))


@rule("stratagems/unbound-armies")
def cp_after_gain(cp: Any, gained: Any) -> Any:
    """The CP total after a rule (e.g. a mission rule) gives CPs, to a Battle-forged or an Unbound army alike."""
    return cp + gained


@dataclass(frozen=True)
class StratagemLedger:
    """One player's CPs and Stratagem uses: the names used in the current phase and over the battle."""

    cp: int
    phase: str = "before the battle"
    used_this_phase: frozenset[str] = frozenset()
    used_this_battle: frozenset[str] = frozenset()

    def enter_phase(self, phase: str) -> "StratagemLedger":
        """A new phase starts (each player's turn has its own phases): no Stratagem used in it yet."""
        return replace(self, phase=phase, used_this_phase=frozenset())

    def gain(self, cp: int) -> "StratagemLedger":
        if cp < 0:
            raise ValueError("a gain of CPs is never negative")
        return replace(self, cp=cp_after_gain(self.cp, cp))


@rule("stratagems/using-stratagems")
def use_stratagem(ledger: StratagemLedger, name: str, cost: int, *, timing: Timing = Timing.DURING_A_PHASE,
                  once_per_battle: bool = False) -> StratagemLedger:
    """Use the Stratagem ``name``: pay its cost (ValueError, nothing changed, without enough CPs, a second use of
    the same name in this phase, or a second use of a once-per-battle Stratagem)."""
    if cost < 0:
        raise ValueError(f"{name}: a Stratagem's cost is never negative")
    key = _key(name)
    during_a_phase = once_per_phase_limit_applies(timing)
    if not may_use_stratagem(ledger.cp, cost, key in ledger.used_this_phase, during_a_phase):
        reason = (f"it costs {cost}CP and {ledger.cp}CP are left" if ledger.cp < cost
                  else f"it was already used in this phase ({ledger.phase})")
        raise ValueError(f"cannot use {name}: {reason}")
    if once_per_battle and key in ledger.used_this_battle:
        raise ValueError(f"cannot use {name}: it can only be used once per battle")
    return replace(ledger, cp=cp_after_use(ledger.cp, cost),
                   used_this_phase=ledger.used_this_phase | ({key} if during_a_phase else set()),
                   used_this_battle=ledger.used_this_battle | {key})


# The Core Stratagems --------------------------------------------------------------------------------------


class CoreStratagem(enum.IntEnum):
    """The seven Core Stratagems, in the order they are printed."""

    COMMAND_RE_ROLL = 1
    CUT_THEM_DOWN = 2
    DESPERATE_BREAKOUT = 3
    EMERGENCY_DISEMBARKATION = 4
    FIRE_OVERWATCH = 5
    COUNTER_OFFENSIVE = 6
    INSANE_BRAVERY = 7


class Moment(enum.IntEnum):
    """The moments the Core Stratagems name."""

    AFTER_LISTED_ROLL = 1  # after one of Command Re-roll's rolls or tests
    ENEMY_FALLS_BACK = 2  # when an enemy unit Falls Back, before any of its models are moved
    YOUR_MOVEMENT_PHASE = 3  # in your Movement phase
    YOUR_TRANSPORT_DESTROYED = 4  # when a TRANSPORT model from your army is destroyed
    ENEMY_DECLARED_CHARGE_AT_YOU = 5  # after an enemy unit has declared a charge against units of your army
    ENEMY_UNIT_HAS_FOUGHT = 6  # after an enemy unit has fought in this turn
    BEFORE_YOUR_MORALE_TEST = 7  # before you take a Morale test for a unit in your army
    OTHER = 8


@dataclass(frozen=True)
class StratagemCard:
    """A Core Stratagem as printed: its title, section, CP cost, the moment it is used, and its once-per-battle
    limit."""

    title: str
    ref: str
    cost: int
    moment: Moment
    once_per_battle: bool = False


CORE_STRATAGEMS: dict[CoreStratagem, StratagemCard] = {
    CoreStratagem.COMMAND_RE_ROLL: StratagemCard(
        "Command Re-roll", "stratagems/command-re-roll", 1, Moment.AFTER_LISTED_ROLL),
    CoreStratagem.CUT_THEM_DOWN: StratagemCard(
        "Cut Them Down", "stratagems/cut-them-down", 1, Moment.ENEMY_FALLS_BACK),
    CoreStratagem.DESPERATE_BREAKOUT: StratagemCard(
        "Desperate Breakout", "stratagems/desperate-breakout", 2, Moment.YOUR_MOVEMENT_PHASE),
    CoreStratagem.EMERGENCY_DISEMBARKATION: StratagemCard(
        "Emergency Disembarkation", "stratagems/emergency-disembarkation", 1, Moment.YOUR_TRANSPORT_DESTROYED),
    CoreStratagem.FIRE_OVERWATCH: StratagemCard(
        "Fire Overwatch", "stratagems/fire-overwatch", 1, Moment.ENEMY_DECLARED_CHARGE_AT_YOU),
    CoreStratagem.COUNTER_OFFENSIVE: StratagemCard(
        "Counter-offensive", "stratagems/counter-offensive", 2, Moment.ENEMY_UNIT_HAS_FOUGHT),
    CoreStratagem.INSANE_BRAVERY: StratagemCard(
        "Insane Bravery", "stratagems/insane-bravery", 2, Moment.BEFORE_YOUR_MORALE_TEST, once_per_battle=True),
}

_ALL_REFS = tuple(card.ref for card in CORE_STRATAGEMS.values())


def _is(which: CoreStratagem) -> Any:
    return lambda stratagem, **_: stratagem == which


CORE_STRATAGEM_COST = DecisionTable(
    name="ninth-core-stratagem-cost",
    refs=_ALL_REFS,
    inputs=(Var("stratagem", CoreStratagem.COMMAND_RE_ROLL, CoreStratagem.INSANE_BRAVERY),),
    rows=tuple(Row(f"{card.title.upper()}: {card.cost}CP", _is(which), card.cost)
               for which, card in CORE_STRATAGEMS.items()),
)


@rule(*_ALL_REFS)
def core_stratagem_cost(stratagem: Any) -> Any:
    """The CP cost printed on a Core Stratagem (2CP for Desperate Breakout, Counter-offensive and Insane Bravery;
    1CP for the others)."""
    return CORE_STRATAGEM_COST(stratagem=stratagem)


STRATAGEM_WHEN = DecisionTable(
    name="ninth-core-stratagem-when",
    refs=_ALL_REFS,
    inputs=(Var("stratagem", CoreStratagem.COMMAND_RE_ROLL, CoreStratagem.INSANE_BRAVERY),
            Var("moment", Moment.AFTER_LISTED_ROLL, Moment.OTHER)),
    rows=tuple(Row(f"{card.title.upper()}: {card.moment.name.lower().replace('_', ' ')}", _is(which),
                   (lambda expected: lambda moment, **_: moment == expected)(card.moment))
               for which, card in CORE_STRATAGEMS.items()),
    gap=False,
)


@rule(*_ALL_REFS)
def stratagem_when(stratagem: Any, moment: Any) -> Any:
    """Whether a Core Stratagem can be used at this moment (the moment its text names)."""
    return STRATAGEM_WHEN(stratagem=stratagem, moment=moment)


def _count(rolls: Sequence[Any], condition: Any) -> Any:
    total: Any = 0
    for roll in rolls:
        total = total + If(condition(roll), 1, 0)
    return total


# Command Re-roll -------------------------------------------------------------------------------------------


class Roll(enum.IntEnum):
    """Kinds of roll and test, as far as Command Re-roll asks."""

    HIT = 1
    WOUND = 2
    DAMAGE = 3
    SAVING_THROW = 4
    ADVANCE = 5
    CHARGE = 6
    PSYCHIC_TEST = 7
    DENY_THE_WITCH = 8
    NUMBER_OF_ATTACKS = 9  # the dice rolled to determine the number of attacks made by a weapon
    MORALE_TEST = 10
    OTHER = 11


COMMAND_RE_ROLL_ROLLS = DecisionTable(
    name="ninth-command-re-roll-rolls",
    refs=("stratagems/command-re-roll",),
    inputs=(Var("roll", Roll.HIT, Roll.OTHER),),
    rows=tuple(Row(label, (lambda kind: lambda roll: roll == kind)(kind), True) for kind, label in (
        (Roll.HIT, "a hit roll"), (Roll.WOUND, "a wound roll"), (Roll.DAMAGE, "a damage roll"),
        (Roll.SAVING_THROW, "a saving throw"), (Roll.ADVANCE, "an Advance roll"), (Roll.CHARGE, "a charge roll"),
        (Roll.PSYCHIC_TEST, "a Psychic test"), (Roll.DENY_THE_WITCH, "a Deny the Witch test"),
        (Roll.NUMBER_OF_ATTACKS, "the dice rolled to determine the number of attacks made by a weapon"),
    )) + (Row("any other roll or test (e.g. a Morale test): not listed", lambda roll: True, False, otherwise=True),),
    gap=False,
)


@rule("stratagems/command-re-roll")
def command_re_roll_allowed(roll: Any) -> Any:
    """Whether Command Re-roll can follow this roll or test: one of the nine it lists."""
    return COMMAND_RE_ROLL_ROLLS(roll=roll)


@rule("stratagems/command-re-roll")
def command_re_roll_dice(dice_rolled: Any) -> Any:
    """How many dice Command Re-roll rolls again: the whole roll, test or saving throw (both dice of a 2D6 charge
    roll or Psychic test)."""
    return dice_rolled


# Cut Them Down ---------------------------------------------------------------------------------------------


@rule("stratagems/cut-them-down")
def cut_them_down_dice(models_within_engagement_range: Any) -> Any:
    """How many D6 Cut Them Down rolls: one for each model of your army within Engagement Range of the enemy
    unit that Falls Back."""
    return models_within_engagement_range


@rule("stratagems/cut-them-down")
def cut_them_down_mortal_wounds(rolls: Sequence[Any]) -> Any:
    """The mortal wounds Cut Them Down inflicts: one for each 6."""
    return _count(rolls, lambda roll: roll == 6)


@rule("stratagems/cut-them-down")
def cut_them_down_expected_mortal_wounds(models_within_engagement_range: int) -> Fraction:
    """The expected mortal wounds from Cut Them Down: a sixth of a mortal wound per model rolling."""
    return Fraction(cut_them_down_dice(models_within_engagement_range), 6)


# Desperate Breakout ------------------------------------------------------------------------------------------


@rule("stratagems/desperate-breakout")
def desperate_breakout_target_allowed(your_movement_phase: Any, selected_to_move_this_phase: Any,
                                      within_engagement_range_of_enemy: Any) -> Any:
    """Desperate Breakout selects a unit of yours, in your Movement phase, that has not been selected to move this
    phase and is within Engagement Range of at least one enemy unit."""
    return And(your_movement_phase, Not(selected_to_move_this_phase), within_engagement_range_of_enemy)


@rule("stratagems/desperate-breakout")
def desperate_breakout_models_destroyed(rolls: Sequence[Any]) -> Any:
    """How many models of the unit Desperate Breakout destroys before it Falls Back: one for each 1 rolled (one
    D6 per model, so never more than the unit has)."""
    return _count(rolls, lambda roll: roll == 1)


@rule("stratagems/desperate-breakout")
def desperate_breakout_model_destroyed_after_fall_back(ends_within_engagement_range: Any) -> Any:
    """A model of the breaking-out unit is destroyed if its Fall Back move ends within Engagement Range of any
    enemy model (it may move across enemy models on the way)."""
    return ends_within_engagement_range


@rule("stratagems/desperate-breakout")
def may_act_after_breakout(used_desperate_breakout_this_turn: Any) -> Any:
    """Whether the unit may do anything else this turn (manifest psychic powers, shoot, charge, be selected to
    fight, ...): not after Desperate Breakout, whatever rule would allow it after Falling Back."""
    return Not(used_desperate_breakout_this_turn)


# Emergency Disembarkation ------------------------------------------------------------------------------------

NORMAL_DISEMBARK_DISTANCE = 3
EMERGENCY_DISEMBARK_DISTANCE = 6


@rule("stratagems/emergency-disembarkation")
def destroyed_transport_disembark_distance(emergency_disembarkation: Any) -> Any:
    """How far from a destroyed TRANSPORT its passengers are set up (wholly within): 6" with Emergency
    Disembarkation instead of the normal 3"."""
    return If(emergency_disembarkation, EMERGENCY_DISEMBARK_DISTANCE, NORMAL_DISEMBARK_DISTANCE)


@rule("stratagems/emergency-disembarkation")
def disembarked_model_lost(roll: Any, emergency_disembarkation: Any) -> Any:
    """Whether one D6 rolled for a model that disembarked from a destroyed TRANSPORT destroys a model: on a 1
    normally, on a 1 or 2 with Emergency Disembarkation."""
    return If(emergency_disembarkation, roll <= 2, roll == 1)


@rule("stratagems/emergency-disembarkation")
def disembarked_models_destroyed(rolls: Sequence[Any], emergency_disembarkation: Any = True) -> Any:
    """How many disembarked models are destroyed (your choice which): one per losing roll."""
    return _count(rolls, lambda roll: disembarked_model_lost(roll, emergency_disembarkation))


@rule("stratagems/emergency-disembarkation")
def affected_by_explodes(emergency_disembarkation: Any) -> Any:
    """Whether the passengers are affected by the destroyed model's Explodes ability (or equivalent): not with
    Emergency Disembarkation (they roll for losses instead)."""
    return Not(emergency_disembarkation)


@rule("stratagems/emergency-disembarkation")
def may_charge_or_heroically_intervene(disembarked_from_destroyed_transport_this_turn: Any) -> Any:
    """Whether a unit may declare a charge or perform a Heroic Intervention: not in the turn it disembarked from a
    destroyed TRANSPORT."""
    return Not(disembarked_from_destroyed_transport_this_turn)


# Fire Overwatch ------------------------------------------------------------------------------------------------

FIRE_OVERWATCH_UNITS = 1  # "one of the units that was chosen as the target of that charge"


@rule("stratagems/fire-overwatch", "overwatch")
def fire_overwatch_unit_allowed(target_of_that_charge: Any, enemy_within_engagement_range: Any,
                                charge_roll_made: Any = False) -> Any:
    """Whether Fire Overwatch can let this unit fire Overwatch: it is a target of the charge just declared, and
    Overwatch's own conditions hold (no enemy within Engagement Range, before the charge roll)."""
    return overwatch.may_fire_overwatch(True, target_of_that_charge, enemy_within_engagement_range,
                                        charge_roll_made)


# Counter-offensive ----------------------------------------------------------------------------------------------


@rule("stratagems/counter-offensive")
def counter_offensive_allowed(enemy_unit_has_just_fought: Any, have_eligible_unit: Any) -> Any:
    """Counter-offensive is used after an enemy unit has fought this turn, on one of your own eligible units."""
    return And(enemy_unit_has_just_fought, have_eligible_unit)


@rule("stratagems/counter-offensive")
def fights_next(player_due_next: Any, counter_offensive_by: Any = NOBODY) -> Any:
    """Which player fights next (1 or 2): the one who used Counter-offensive, else whoever was due."""
    return If(counter_offensive_by != NOBODY, counter_offensive_by, player_due_next)


# Insane Bravery ----------------------------------------------------------------------------------------------------


@rule("stratagems/insane-bravery")
def insane_bravery_allowed(used_this_battle: Any) -> Any:
    """Whether Insane Bravery can be used: only once per battle."""
    return Not(used_this_battle)


@rule("stratagems/insane-bravery")
def morale_test_passed(passed_on_the_dice: Any, insane_bravery: Any = False) -> Any:
    """Whether a Morale test is passed: automatically under Insane Bravery (no dice are rolled), else as the dice
    decide."""
    return Or(insane_bravery, passed_on_the_dice)


@rule("stratagems/insane-bravery")
def morale_dice_rolled(insane_bravery: Any) -> Any:
    """Whether dice are rolled for the Morale test: not under Insane Bravery."""
    return Not(insane_bravery)


@rule(*_ALL_REFS)
def use_core_stratagem(ledger: StratagemLedger, stratagem: CoreStratagem, moment: Moment) -> StratagemLedger:
    """Use a Core Stratagem at a moment: its WHEN must fit, then it is paid as any Stratagem (Insane Bravery once
    per battle)."""
    card = CORE_STRATAGEMS[CoreStratagem(stratagem)]
    if not stratagem_when(stratagem, moment):
        raise ValueError(f"{card.title} cannot be used at the moment {Moment(moment).name.lower()}")
    if card.once_per_battle and not insane_bravery_allowed(_key(card.title) in ledger.used_this_battle):
        raise ValueError(f"{card.title} can only be used once per battle")
    return use_stratagem(ledger, card.title, core_stratagem_cost(stratagem), once_per_battle=card.once_per_battle)
