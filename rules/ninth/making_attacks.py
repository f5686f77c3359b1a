"""Making Attacks, the earlier edition's attack sequence: hit roll, wound roll, allocation, saving throw, damage,
then invulnerable saves, mortal wounds and ignoring wounds (002's reprint; 003 prints the same text and adds the
web page's Fast Dice Rolling).

Each function decides one step for one attack and takes the unmodified D6 where the text reads it, so z3 can
prove the caps and the unmodified 1 and 6 about the very function the calculator calls.
"""

from __future__ import annotations

from typing import Any

from rules.logic import And, Clamp, DecisionTable, If, Max, Min, Not, Or, Row, Var
from rules.registry import ruleset_rule

rule = ruleset_rule("ninth")

ALWAYS_SUCCEEDS = 6  # "An unmodified hit roll of 6 always scores a hit" (and a wound roll of 6 always wounds)
ALWAYS_FAILS = 1  # "an unmodified hit roll of 1 always fails" (and a wound roll's, and a saving throw's)
MODIFIER_CAP = 1  # "can never be modified by more than -1 or +1"


@rule("making-attacks/hit-roll", "making-attacks/wound-roll")
def capped_roll_modifier(total: Any) -> Any:
    """The modifier a hit or wound roll gets: the cumulative total, -2 or worse changed to -1, +2 or better to +1."""
    return Clamp(total, -MODIFIER_CAP, MODIFIER_CAP)


@rule("making-attacks/hit-roll")
def hit_scored(unmodified_roll: Any, modifier: Any, skill: Any, automatically_hits: Any = False) -> Any:
    """Whether an attack scores a hit: no roll for a weapon that automatically hits; else an unmodified 6 hits, an
    unmodified 1 fails, and otherwise the roll with its capped modifier must equal or beat the BS (the WS in melee)."""
    return Or(automatically_hits, unmodified_roll == ALWAYS_SUCCEEDS,
              And(unmodified_roll != ALWAYS_FAILS, unmodified_roll + capped_roll_modifier(modifier) >= skill))


#: The wound roll table in the printed rows' order, first match: TWICE comes first and so overrides GREATER, as
#: printed. The LOWER row stops above half: read literally (any S below T) it would come first and leave the HALF
#: row nothing (interpretation ninth-wound-table-bands).
WOUND_TABLE = DecisionTable(
    name="ninth-strength-vs-toughness",
    refs=("making-attacks/wound-roll",),
    inputs=(Var("strength", 1, 30), Var("toughness", 1, 30)),
    rows=(
        Row("Is the Strength TWICE (or more) than the Toughness: 2+",
            lambda strength, toughness: strength >= 2 * toughness, 2,
            overrides=("Is the Strength GREATER than the Toughness: 3+",)),
        Row("Is the Strength GREATER than the Toughness: 3+",
            lambda strength, toughness: strength > toughness, 3),
        Row("Is the Strength EQUAL to the Toughness: 4+", lambda strength, toughness: strength == toughness, 4),
        Row("Is the Strength LOWER than the Toughness: 5+",
            lambda strength, toughness: And(strength < toughness, 2 * strength > toughness), 5),
        Row("Is the Strength HALF (or less) than the Toughness: 6+",
            lambda strength, toughness: 2 * strength <= toughness, 6),
    ),
)


@rule("making-attacks/wound-roll")
def wound_roll_needed(strength: Any, toughness: Any) -> Any:
    """The D6 result a wound roll needs, from the attack's Strength against the target's Toughness (2+ to 6+).

    Interpretation: ninth-wound-table-bands.
    """
    return WOUND_TABLE(strength=strength, toughness=toughness)


@rule("making-attacks/wound-roll")
def wound_scored(unmodified_roll: Any, modifier: Any, strength: Any, toughness: Any) -> Any:
    """Whether a hit wounds: an unmodified 6 always does, an unmodified 1 never, otherwise the roll with its capped
    modifier must equal or beat the table's result."""
    return Or(unmodified_roll == ALWAYS_SUCCEEDS,
              And(unmodified_roll != ALWAYS_FAILS,
                  unmodified_roll + capped_roll_modifier(modifier) >= wound_roll_needed(strength, toughness)))


@rule("making-attacks/allocate-attack")
def must_allocate_to(lost_wounds: Any, attacks_allocated_this_phase: Any) -> Any:
    """Whether an attack must go to this model: it has already lost wounds or had attacks allocated to it this
    phase (otherwise the defender may pick any model of the unit, in range and visible or not)."""
    return Or(lost_wounds, attacks_allocated_this_phase)


@rule("making-attacks/saving-throw")
def armour_save_holds(unmodified_roll: Any, ap: Any, save: Any) -> Any:
    """Whether a saving throw against the Save characteristic succeeds: the roll modified by the AP equals or
    beats the Sv, and an unmodified 1 always fails (a Sv of 7+ means no save: the roll never reaches it)."""
    return And(unmodified_roll != ALWAYS_FAILS, unmodified_roll + ap >= save)


@rule("making-attacks/invulnerable-saves")
def invulnerable_save_holds(unmodified_roll: Any, ap: Any, invulnerable_save: Any) -> Any:
    """Whether a saving throw against an invulnerable save succeeds: never modified by the AP (accepted and
    deliberately unused), an unmodified 1 failing as it does for every saving throw."""
    return And(unmodified_roll != ALWAYS_FAILS, unmodified_roll >= invulnerable_save)


@rule("making-attacks/invulnerable-saves")
def failing_faces_of_the_save_used(armour_failing_faces: Any, invulnerable_failing_faces: Any) -> Any:
    """A model with an invulnerable save uses either it or its Sv, not both, chosen when the attack is allocated
    (before the roll): the defender takes the one that fails on fewer faces.

    Interpretation: ninth-save-chosen-before-rolling.
    """
    return Min(armour_failing_faces, invulnerable_failing_faces)


@rule("making-attacks/inflict-damage", "making-attacks/mortal-wounds")
def wounds_lost(damage: Any, wounds_left: Any) -> Any:
    """The wounds a model loses to one attack's damage (or to mortal wounds): one per point, no more than it has
    left (it is destroyed at 0)."""
    return Min(damage, wounds_left)


@rule("making-attacks/inflict-damage", "making-attacks/mortal-wounds")
def damage_carried_to_next_model(damage: Any, wounds_left: Any, mortal_wounds: Any) -> Any:
    """Damage left over once the model is destroyed that goes on to another model of the unit: an attack's excess
    damage is lost; excess mortal wound damage is not, it keeps being allocated."""
    return If(mortal_wounds, Max(damage - wounds_left, 0), 0)


@rule("making-attacks/inflict-damage")
def destroyed(wounds_left: Any) -> Any:
    """A model whose wounds are reduced to 0 or less is destroyed."""
    return wounds_left <= 0


@rule("making-attacks/mortal-wounds")
def mortal_wounds_suffered(mortal_wounds: Any, normal_damage_saved: Any, damage_modifier: Any = 0) -> Any:
    """Mortal wounds an attack inflicts besides its normal damage: all of them, even when the normal damage is
    saved, and a modifier to the weapon's damage does not change them (each one point of damage, no save); the
    last two arguments are accepted and deliberately unused."""
    return mortal_wounds


@rule("making-attacks/mortal-wounds")
def resolve_mortal_wounds_first(normal_damage_left: Any, mortal_wounds_left: Any) -> Any:
    """Whether the mortal wounds of an attack are resolved now: only once its normal damage is resolved."""
    return And(mortal_wounds_left, Not(normal_damage_left))


@rule("making-attacks/ignoring-wounds")
def ignore_rules_used(rules_the_model_has: Any) -> Any:
    """How many rules a model may use to try to ignore one wound it loses (mortal wounds included): one at most."""
    return Min(rules_the_model_has, 1)


@rule("making-attacks/ignoring-wounds")
def wound_ignored(roll: Any, ignored_on: Any) -> Any:
    """Whether a rule that ignores a wound on a D6 of X+ ignores it: the roll equals or beats X."""
    return roll >= ignored_on


@rule("making-attacks/fast-dice-rolling")
def may_roll_together(same_skill: Any, same_strength_and_ap: Any, same_damage: Any, same_abilities: Any,
                      same_target: Any) -> Any:
    """Fast dice rolling (the web page's Hints and Tips): attacks roll their hits and wounds together only with the
    same BS or WS, S and AP, Damage and abilities, at the same unit; saves are still made one at a time.

    Interpretation: web-page-rule-where-the-reprint-is-silent.
    """
    return And(same_skill, same_strength_and_ap, same_damage, same_abilities, same_target)
