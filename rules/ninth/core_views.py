"""The Core Rules' answers to the questions the earlier edition's rules answer, for ``rules40k review ninth core``.

Each function here takes the same named inputs as the ``rules.ninth`` function it is compared with
(spec/ninth/annotations/concepts.yaml) and answers by calling the real Core Rules functions of ``rules.core``: it only
translates the earlier edition's inputs into the Core Rules' terms (a kind of roll, a count of models into a level of
control) and never restates a Core Rules decision itself. Where the editions have no common term, the translation
is stated in the docstring, and the concept map's note repeats it.
"""

from __future__ import annotations

from typing import Any

from rules.core import attack_sequence, core_abilities, moving, objectives, strategic_reserves
from rules.core import stratagems as cs
from rules.core.attack_sequence import Hit, Save
from rules.ninth.stratagems import Roll
from rules.quickref.core_views import placed_pair

#: The earlier edition's kinds of roll (Command Re-roll's list) as the Core Rules name them; a Psychic test, a Deny
#: the Witch test and a Morale test have no Core Rules counterpart and are "any other roll".
_CORE_ROLL = {Roll.HIT: cs.Roll.HIT, Roll.WOUND: cs.Roll.WOUND, Roll.DAMAGE: cs.Roll.DAMAGE,
              Roll.SAVING_THROW: cs.Roll.SAVE, Roll.ADVANCE: cs.Roll.ADVANCE, Roll.CHARGE: cs.Roll.CHARGE,
              Roll.PSYCHIC_TEST: cs.Roll.OTHER, Roll.DENY_THE_WITCH: cs.Roll.OTHER,
              Roll.NUMBER_OF_ATTACKS: cs.Roll.NUMBER_OF_ATTACKS, Roll.MORALE_TEST: cs.Roll.OTHER,
              Roll.OTHER: cs.Roll.OTHER}


def command_re_roll_allowed(roll: Any) -> Any:
    """15.02: whether Command Re-roll can follow a roll of this kind (made by you for a friendly unit)."""
    return cs.command_re_roll_allowed(_CORE_ROLL[Roll(roll)], True)


def command_re_roll_dice(roll: Any, dice_rolled: Any) -> Any:
    """15.02: how many of the dice rolled together Command Re-roll rolls again."""
    return cs.command_re_roll_dice(_CORE_ROLL[Roll(roll)], dice_rolled)


def overwatch_hits(unmodified_roll: Any) -> Any:
    """15.08-15.09: Fire Overwatch shoots with snap shooting, whose hit roll hits only on an unmodified 6."""
    return cs.snap_hit_roll(unmodified_roll) != Hit.FAIL


def control(models_in_range: Any, opponent_models_in_range: Any) -> Any:
    """14.02: who controls an objective marker (1 the player, -1 the opponent, 0 nobody), each model in range
    counted with an OC of 1 (the earlier edition counts models; the Core Rules add up OC characteristics, and have
    no Objective Secured: nothing translates it, so it is no input here)."""
    controller = objectives.objective_controller(models_in_range, opponent_models_in_range)
    return {1: 1, 2: -1, objectives.NOBODY: 0}[controller]


def may_arrive(battle_round: Any) -> Any:
    """20.03: whether a Strategic Reserves unit may arrive in this battle round (no rule states another round)."""
    return strategic_reserves.may_arrive_in_round(battle_round)


def may_use_stratagem(cp: Any, cost: Any, used_this_phase: Any) -> Any:
    """15.01: whether a player may use a Stratagem, on a friendly unit they have not targeted with a Stratagem this
    phase and that is not battle-shocked (the earlier edition has no such conditions)."""
    return cs.may_use_stratagem(cp, cost, used_this_phase, 0, True, False)


def within_engagement_range(horizontal_inches: Any, vertical_inches: Any) -> Any:
    """03.04: whether two enemy models are within Engagement Range, placed ``horizontal_inches`` apart at their
    bases' closest points and ``vertical_inches`` apart in height."""
    return moving.within_engagement_range(*placed_pair(horizontal_inches, vertical_inches))


def hit_scored(unmodified_roll: Any, modifier: Any, skill: Any) -> Any:
    """05.01: whether a hit roll hits (a critical hit is a hit), its modifiers capped as 05.01 caps them."""
    return attack_sequence.hit_roll(unmodified_roll, attack_sequence.capped_roll_modifier(modifier), skill) != Hit.FAIL


def wound_roll_needed(strength: Any, toughness: Any) -> Any:
    """05.02: the wound roll an attack needs from its Strength against the target's Toughness."""
    return attack_sequence.wound_threshold(strength, toughness)


def armour_save_holds(unmodified_roll: Any, ap: Any, save: Any) -> Any:
    """05.03-05.04: whether a save roll against the Save characteristic stops the attack (no invulnerable save)."""
    return attack_sequence.save_check(unmodified_roll, ap, save, 0) == Save.FAILS


def invulnerable_save_holds(unmodified_roll: Any, ap: Any, invulnerable_save: Any) -> Any:
    """05.03-05.04: whether a save roll against an invulnerable save stops the attack (a model with no Save
    characteristic to use instead: Sv 7)."""
    return attack_sequence.save_check(unmodified_roll, ap, 7, invulnerable_save) == Save.FAILS


def rapid_fire_attacks(attacks: Any, target_within_half_range: Any, rapid_fire_x: Any) -> Any:
    """24.30: a [RAPID FIRE X] weapon's attacks: its A, and X more when the target is within half range (the Core
    Rules' X need not equal A, which the earlier edition's doubling assumes)."""
    return attacks + core_abilities.rapid_fire_extra_attacks(rapid_fire_x, target_within_half_range)


def heavy_hit_modifier(heavy: Any, unit_moved: Any) -> Any:
    """24.16: a [HEAVY] weapon's hit modifier in its own Shooting phase, the unit unengaged and not set up this turn,
    having moved 6" (a Normal move) or not at all; INFANTRY or not, which the Core Rules do not ask."""
    return core_abilities.heavy_hit_modifier(True, True, False, 6 if unit_moved else 0) if heavy else 0


def blast_attacks(rolled: Any, models_in_target: Any) -> Any:
    """24.05: a [BLAST] weapon's attacks against a unit: what was rolled, and one more for every five models."""
    return rolled + core_abilities.blast_extra_attacks(models_in_target, 1)
