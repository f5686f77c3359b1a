"""The earlier edition's Rare Rules that decide something: the benefit of cover outside terrain (Light Cover),
which cover benefits an attack ignores, improved cover, shooting and fighting again, non-shooting abilities, the
attacker's and the Morale priorities, who rolls for an explosion, and what a repositioned or replacement unit
keeps. Fighting first or last is fight.fight_band; resurrected models are morale.destroyed_for_morale.
"""

from __future__ import annotations

from typing import Any

from rules.logic import And, If, Not, Or
from rules.registry import ruleset_rule

rule = ruleset_rule("ninth")

LIGHT_COVER_BONUS = 1
SAVE_TRAITS = ("Light Cover", "Heavy Cover")  # terrain traits that improve a saving throw
HIT_PENALTY_TRAITS = ("Dense Cover",)  # terrain traits that impose a hit roll penalty
IGNORE_SAVE_COVER = "save"  # 'does not receive the benefit of cover to its saving throw'
IGNORE_HIT_COVER = "hit"  # 'does not receive the benefits of cover that impose penalties on hit rolls'
IGNORE_ALL_COVER = "all"  # 'does not receive the benefit of cover'


@rule("rare-rules/benefits-of-cover-when-not-in-terrain")
def cover_save_bonus(benefit_of_cover: Any, ranged_attack: Any, invulnerable_save: Any = False) -> Any:
    """What a rule granting the benefit of cover outside terrain adds to a saving throw: as Light Cover, +1 against
    an attack made with a ranged weapon, nothing to an invulnerable save or against a melee attack."""
    return If(And(benefit_of_cover, ranged_attack, Not(invulnerable_save)), LIGHT_COVER_BONUS, 0)


@rule("rare-rules/ignoring-the-benefits-of-cover")
def cover_traits_ignored(kind: str, traits: list[str]) -> list[str]:
    """Which of the target's terrain traits an attack ignores: those improving saves ('to its saving throw'),
    those imposing hit penalties ('that impose penalties on hit rolls'), or all of them ('the benefit of
    cover' unqualified). Obscuring still blocks visibility whatever the rule says."""
    if kind == IGNORE_SAVE_COVER:
        chosen = [t for t in traits if t in SAVE_TRAITS]
    elif kind == IGNORE_HIT_COVER:
        chosen = [t for t in traits if t in HIT_PENALTY_TRAITS]
    elif kind == IGNORE_ALL_COVER:
        chosen = [t for t in traits if t != "Obscuring"]
    else:
        raise ValueError(f"kind must be {IGNORE_SAVE_COVER!r}, {IGNORE_HIT_COVER!r} or {IGNORE_ALL_COVER!r}, "
                         f"got {kind!r}")
    return chosen


@rule("rare-rules/improving-the-benefits-of-cover")
def improved_cover_save_bonus(improved_bonus: Any, from_light_or_heavy_cover: Any,
                              invulnerable_save: Any = False) -> Any:
    """What a rule improving the benefit of cover (e.g. 'add 2 instead of 1') adds to a saving throw: as written
    from Light or Heavy Cover, +1 from any other terrain trait (on top of that terrain's own benefits), nothing to
    an invulnerable save."""
    return If(invulnerable_save, 0, If(from_light_or_heavy_cover, improved_bonus, 1))


@rule("rare-rules/shoot-again")
def may_shoot_again_with(eligible_to_shoot: Any, already_shot_with_it_this_phase: Any) -> Any:
    """Whether a rule to shoot again lets a model fire a weapon one additional time: the unit is eligible to shoot
    when the rule is used and the model already shot with that weapon earlier in the phase."""
    return And(eligible_to_shoot, already_shot_with_it_this_phase)


@rule("rare-rules/non-shooting-abilities")
def may_use_instead_of_shooting(own_shooting_phase: Any, advanced: Any = False, fell_back: Any = False,
                                within_engagement_range: Any = False, has_ranged_weapons: Any = True) -> Any:
    """Whether an ability used 'instead of shooting' may be used: only in its own Shooting phase, whether or not it
    Advanced, Fell Back, is within Engagement Range or has ranged weapons (accepted and deliberately unused)."""
    return own_shooting_phase


@rule("rare-rules/fight-again")
def may_fight_again(within_engagement_range: Any, made_charge_move_this_turn: Any = False) -> Any:
    """Whether a rule to fight again may be used on a unit: only while it is eligible to fight."""
    return Or(within_engagement_range, made_charge_move_this_turn)


@rule("rare-rules/attackers-priority")
def hit_roll_needed(attacker_always_hits_on: Any, target_only_hit_on: Any) -> Any:
    """The hit roll needed when an attacker's 'always hits on N+' meets a target's 'can only be hit on M+': the
    attacking model's rule takes precedence."""
    return attacker_always_hits_on


@rule("rare-rules/explodes")
def explosion_roller(controlling_player: Any, opponent: Any) -> Any:
    """Who rolls to see whether a destroyed model explodes, whether nearby units suffer damage and how much: always
    the player controlling that model."""
    return controlling_player


@rule("rare-rules/repositioned-and-replacement-units")
def triggers_reinforcement_rules(set_back_up_on_battlefield: Any) -> Any:
    """Whether rules triggered by (or applying to) units 'set up on the battlefield as Reinforcements' apply to a
    unit: they do to every unit removed and set back up, repositioned or replacing a destroyed unit (point 1)."""
    return set_back_up_on_battlefield


@rule("rare-rules/repositioned-and-replacement-units")
def repositioned_counts_as_fallen_back(fell_back_before: Any, removed_from_engagement_range: Any = False) -> Any:
    """Whether a unit set back up counts as having Fallen Back: only if it Fell Back before it was removed; being
    removed from within Engagement Range is no Fall Back."""
    return fell_back_before


@rule("rare-rules/repositioned-and-replacement-units")
def repositioned_counts_as_advanced(advanced_this_battle_round: Any, replaces_destroyed_unit: Any = False) -> Any:
    """Whether a unit set back up still counts as having Advanced: it Advanced this battle round and it is a
    repositioned unit, not one replacing a destroyed unit (points 5-8 do not apply to those)."""
    return And(advanced_this_battle_round, Not(replaces_destroyed_unit))


@rule("rare-rules/repositioned-and-replacement-units")
def destroyed_models_count_for_morale(destroyed_this_turn_before_removal: Any,
                                      replaces_destroyed_unit: Any = False) -> Any:
    """How many of a repositioned unit's models destroyed this turn before it was removed still count towards its
    Morale tests: all of them, unless it is a replacement unit (points 5-8 do not apply)."""
    return If(replaces_destroyed_unit, 0, destroyed_this_turn_before_removal)


@rule("rare-rules/repositioned-and-replacement-units")
def repositioned_wounds_lost(wounds_lost_before_removal: Any, replaces_destroyed_unit: Any = False) -> Any:
    """How many wounds a model of a repositioned unit has lost when set back up: those it had lost (none for a new,
    full-strength replacement unit)."""
    return If(replaces_destroyed_unit, 0, wounds_lost_before_removal)


@rule("rare-rules/repositioned-and-replacement-units", "movement-phase/reinforcements")
def repositioned_may_move(set_back_up_this_turn: Any) -> Any:
    """Whether a unit set back up on the battlefield may make a Normal Move, Advance, Fall Back or Remain
    Stationary that turn: no (as Reinforcements)."""
    return Not(set_back_up_this_turn)
