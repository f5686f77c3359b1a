"""Chapter 04, Making attacks: selecting weapons and targets, and the order attacks are resolved in."""

from __future__ import annotations

from typing import Any, Sequence

from rules.logic import And, DecisionTable, If, Not, Row, Var
from rules.model import Weapon
from rules.registry import rule


@rule("04.01")
def weapon_selection_is_legal(shooting: bool, selected: Sequence[Weapon], available: Sequence[Weapon]) -> bool:
    """Shooting: one or more of the model's ranged weapons. Fighting: exactly one of its melee weapons.

    A model without ranged (melee) weapons cannot make ranged (melee) attacks.
    """
    if not all(w in available for w in selected):
        return False
    kinds_ok = all((w.range is not None) == shooting for w in selected)
    return kinds_ok and (len(selected) >= 1 if shooting else len(selected) == 1)


@rule("04.02")
def shooting_target_is_valid(visible: Any, within_range: Any, unengaged: Any) -> Any:
    """Unless otherwise stated a ranged weapon's target is visible, within range and unengaged."""
    return And(visible, within_range, unengaged)


@rule("04.02")
def fighting_targets_are_valid(engaged_with_each: Sequence[Any], attacks: Any) -> Any:
    """A melee weapon's targets are all engaged with its model, and no more targets than its A."""
    return And(len(engaged_with_each) >= 1, len(engaged_with_each) <= attacks, *engaged_with_each)


@rule("04.02")
def target_count_allowed(shooting: Any, targets: Any, attacks: Any) -> Any:
    """How many enemy units one selected weapon may target: one while shooting; while fighting one or more, and
    no more than its attacks (each target takes at least one)."""
    return If(shooting, targets == 1, And(targets >= 1, targets <= attacks))


@rule("04.02")
def split_is_valid(declared: Sequence[Any], attacks: Any) -> Any:
    """Splitting melee attacks: at least one attack per target, all of the weapon's attacks declared."""
    return And(*(n >= 1 for n in declared), sum(declared) == attacks)


#: Abilities that act before or after the attack sequence (weapon selection, shooting types,
#: hazard rolls), not on how an attack is resolved. Interpretation: identical-attacks-abilities.
NOT_ACTING_ON_RESOLUTION = frozenset({"ASSAULT", "PISTOL", "CLOSE-QUARTERS", "ONE SHOT", "EXTRA ATTACKS", "HAZARDOUS"})


def _resolving_abilities(abilities) -> frozenset:
    names = set()
    for text in abilities:
        name = str(text).strip("[] ").upper()
        if not any(name == a or name.startswith(a + " ") or name.startswith(a + ":") for a in NOT_ACTING_ON_RESOLUTION):
            names.add(name)
    return frozenset(names)


@rule("04.03")
def identical_attacks(a: Weapon, b: Weapon, a_rules: frozenset = frozenset(), b_rules: frozenset = frozenset()) -> bool:
    """Identical attacks share BS/WS, S, AP and D and are affected by the same abilities and rules.

    Only abilities that act while the attack is resolved count: a bolt pistol's [PISTOL] does not
    stop it making identical attacks with boltguns (the book's own walkthrough).
    Interpretation: identical-attacks-abilities.
    """
    return (a.skill, a.S, a.AP, str(a.D), _resolving_abilities(a.abilities) | a_rules) == \
        (b.skill, b.S, b.AP, str(b.D), _resolving_abilities(b.abilities) | b_rules)


GATHER, SELECT_ENEMY_UNIT, DONE = 1, 2, 3

OTHER_ATTACKS = DecisionTable(
    name="other-attacks",
    refs=("04.03",),
    inputs=(Var("unused_against_same_unit", kind="bool"), Var("unresolved_against_other_unit", kind="bool")),
    rows=(
        Row("weapons targeting the same unit not yet used: return to Gather Attack Dice",
            lambda unused_against_same_unit, **_: unused_against_same_unit, GATHER,
            overrides=("weapons with unresolved attacks against a different unit: return to Select Enemy Unit",)),
        Row("weapons with unresolved attacks against a different unit: return to Select Enemy Unit",
            lambda unresolved_against_other_unit, **_: unresolved_against_other_unit, SELECT_ENEMY_UNIT),
        Row("all weapons have made all their attacks: the sequence ends",
            lambda unused_against_same_unit, unresolved_against_other_unit:
                And(Not(unused_against_same_unit), Not(unresolved_against_other_unit)), DONE),
    ),
)


@rule("04.03")
def next_step_after_attack_dice(unused_against_same_unit: Any, unresolved_against_other_unit: Any) -> Any:
    """Step 4 (Other Attacks): go back to gather more dice, pick another enemy unit, or finish."""
    return OTHER_ATTACKS(unused_against_same_unit=unused_against_same_unit,
                         unresolved_against_other_unit=unresolved_against_other_unit)


@rule("04.03")
def attack_dice_gathered(attacks_per_weapon: Sequence[Any]) -> Any:
    """Identical attacks are gathered together: the dice of each weapon add up (three A2 weapons give 6)."""
    total: Any = 0
    for attacks in attacks_per_weapon:
        total = total + attacks
    return total
