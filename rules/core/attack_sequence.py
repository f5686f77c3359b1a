"""Chapter 05, Attack sequence: hit rolls, wound rolls, save rolls and inflicting damage.

The three roll tables are first-match decision tables in the book's order,
with the dice values the extraction lost restored (see restorations.yaml).
They run on ints for the calculator and on z3 terms for the proofs.
"""

from __future__ import annotations

import dataclasses
import enum
from dataclasses import dataclass
from typing import Any, Sequence

from rules.logic import And, Clamp, DecisionTable, Or, Row, Var
from rules.registry import rule


class Hit(enum.IntEnum):
    FAIL = 0
    HIT = 1
    CRITICAL_HIT = 2


class Wound(enum.IntEnum):
    FAIL = 0
    WOUND = 1
    CRITICAL_WOUND = 2


class Save(enum.IntEnum):
    """The outcome of checking a save roll: the attack fails (saved) or inflicts damage."""

    FAILS = 0
    INFLICTS_DAMAGE = 1


# 05.01 Hit rolls -----------------------------------------------------------------

HIT_ROLL = DecisionTable(
    name="hit-roll",
    refs=("05.01",),
    # roll: the unmodified D6; modifier: the capped hit-roll modifier; skill: the
    # attack's BS/WS after characteristic modifiers (7 means even a modified 6 misses).
    inputs=(Var("roll", 1, 6), Var("modifier", -1, 1), Var("skill", 2, 7)),
    rows=(
        Row("Unmodified 1: FAILS", lambda roll, **_: roll == 1, Hit.FAIL,
            overrides=("Equal to or greater than that attack's BS/WS characteristic: HIT",)),
        Row("Unmodified 6: CRITICAL HIT", lambda roll, **_: roll == 6, Hit.CRITICAL_HIT,
            overrides=("Equal to or greater than that attack's BS/WS characteristic: HIT",)),
        Row("Equal to or greater than that attack's BS/WS characteristic: HIT",
            lambda roll, modifier, skill: roll + modifier >= skill, Hit.HIT),
        Row("Any other result: FAILS", lambda **_: True, Hit.FAIL, otherwise=True),
    ),
)


@rule("05.01")
def hit_roll(roll: Any, modifier: Any, skill: Any) -> Any:
    """What one hit roll does: fail, hit, or critical hit (an unmodified 6 whatever the modifiers)."""
    return HIT_ROLL(roll=roll, modifier=modifier, skill=skill)


# 05.02 Wound rolls ---------------------------------------------------------------

WOUND_THRESHOLD = DecisionTable(
    name="strength-vs-toughness",
    refs=("05.02",),
    inputs=(Var("strength", 1, 30), Var("toughness", 1, 30)),
    # Read as first-match in the printed order, LESS would shadow HALF (every S at most
    # half of T is also less than T); the rows are exclusive bands instead.
    rows=(
        Row("Strength is TWICE (or more than twice) the Toughness: 2+",
            lambda strength, toughness: strength >= 2 * toughness, 2),
        Row("Strength is GREATER than the Toughness: 3+",
            lambda strength, toughness: And(strength > toughness, strength < 2 * toughness), 3),
        Row("Strength is EQUAL to the Toughness: 4+", lambda strength, toughness: strength == toughness, 4),
        Row("Strength is LESS than the Toughness: 5+",
            lambda strength, toughness: And(strength < toughness, 2 * strength > toughness), 5),
        Row("Strength is HALF (or less than half) the Toughness: 6+",
            lambda strength, toughness: 2 * strength <= toughness, 6),
    ),
)


@rule("05.02")
def wound_threshold(strength: Any, toughness: Any) -> Any:
    """The wound roll an attack needs, from its Strength against the target's Toughness (2+ to 6+).

    Interpretation: strength-vs-toughness-bands (LESS means less than but more than half).
    """
    return WOUND_THRESHOLD(strength=strength, toughness=toughness)


WOUND_ROLL = DecisionTable(
    name="wound-roll",
    refs=("05.02", "24.03"),
    # critical: the lowest unmodified roll that is a critical wound (6, or Y with [ANTI-X Y+]).
    inputs=(Var("roll", 1, 6), Var("modifier", -1, 1), Var("required", 2, 6), Var("critical", 2, 6)),
    rows=(
        Row("Unmodified 1: FAILS", lambda roll, **_: roll == 1, Wound.FAIL,
            overrides=("Equal to or greater than the required result: WOUND",)),
        Row("Unmodified 6 (or Y+ with [ANTI-X Y+]): CRITICAL WOUND", lambda roll, critical, **_: roll >= critical,
            Wound.CRITICAL_WOUND,
            overrides=("Equal to or greater than the required result: WOUND", "Any other result: FAILS")),
        Row("Equal to or greater than the required result: WOUND",
            lambda roll, modifier, required, **_: roll + modifier >= required, Wound.WOUND),
        Row("Any other result: FAILS", lambda **_: True, Wound.FAIL, otherwise=True),
    ),
)


@rule("05.02")
def wound_roll(roll: Any, modifier: Any, required: Any, critical: Any = 6) -> Any:
    """What one wound roll does: fail, wound, or critical wound."""
    return WOUND_ROLL(roll=roll, modifier=modifier, required=required, critical=critical)


# 05.03 Save rolls: groups and allocation order ------------------------------------


@dataclass(frozen=True)
class Group:
    """An allocation group (05.03): one CHARACTER model, or all other models sharing W, Sv and InSv."""

    name: str
    character: bool
    wounded: bool


@rule("05.03")
def group_key(character: bool, model_index: int, w: int, sv: int, insv: int | None) -> tuple:
    """Which allocation group a model joins: its own if it is a CHARACTER, else by W, Sv and InSv."""
    return ("character", model_index) if character else ("models", w, sv, insv)


@rule("05.03")
def allocation_order_is_legal(order: Sequence[Group]) -> bool:
    """Whether a declared allocation order obeys all three restrictions of 05.03.

    A wounded non-CHARACTER group comes first; no CHARACTER group precedes a
    non-CHARACTER group; wounded CHARACTER groups precede unwounded ones.
    """
    conditions = []
    for i, group in enumerate(order):
        if group.wounded and not group.character:
            conditions.append(i == 0)
        for later in order[i + 1:]:
            conditions.append(Or(not group.character, later.character))
            if group.character and later.character:
                conditions.append(Or(group.wounded, not later.wounded))
    return bool(And(*conditions))


@rule("05.03")
def default_allocation_order(groups: Sequence[Group]) -> list[Group]:
    """The defender's order when they state no preference: listed order within what 05.03 allows."""
    ranked = sorted(range(len(groups)),
                    key=lambda i: (groups[i].character, not groups[i].wounded, i))
    return [groups[i] for i in ranked]


# 05.04 Inflict damage ------------------------------------------------------------

SAVE_CHECK = DecisionTable(
    name="save-roll",
    refs=("05.04",),
    # insv 0 means the models have no InSv characteristic; sv 7 means no armour save.
    inputs=(Var("roll", 1, 6), Var("ap", -6, 0), Var("sv", 2, 7), Var("insv", 0, 6)),
    assume=lambda insv, **_: insv != 1,
    rows=(
        Row("Unmodified 1: INFLICTS DAMAGE", lambda roll, **_: roll == 1, Save.INFLICTS_DAMAGE,
            overrides=("Invulnerable Save: result equal to or greater than the InSv characteristic: FAILS",
                       "Save and AP: modified result equal to or greater than the Sv characteristic: FAILS")),
        Row("Invulnerable Save: result equal to or greater than the InSv characteristic: FAILS",
            lambda roll, insv, **_: And(insv > 0, roll >= insv), Save.FAILS),
        Row("Save and AP: modified result equal to or greater than the Sv characteristic: FAILS",
            lambda roll, ap, sv, **_: roll + ap >= sv, Save.FAILS),
        Row("Any other result: INFLICTS DAMAGE", lambda **_: True, Save.INFLICTS_DAMAGE, otherwise=True),
    ),
)


@rule("05.04")
def save_check(roll: Any, ap: Any, sv: Any, insv: Any = 0) -> Any:
    """Whether a save roll stops the attack (FAILS) or lets it inflict damage."""
    return SAVE_CHECK(roll=roll, ap=ap, sv=sv, insv=insv)


@rule("05.04")
def select_model(remaining: Sequence[int], full_wounds: Sequence[int]) -> int:
    """Index of the model in the current allocation group that takes the attack: a wounded one if possible.

    ``remaining``/``full_wounds`` list the group's living models; among several
    candidates the defender chooses, and the default is the first listed.
    """
    for i, (left, full) in enumerate(zip(remaining, full_wounds)):
        if left < full:
            return i
    return 0


@rule("05.04")
def wounds_after_damage(remaining: Any, damage: Any) -> Any:
    """The selected model loses wounds equal to the damage; at 0 or fewer it is destroyed.

    Damage beyond the model's remaining wounds is lost with it: it never spills
    onto another model.
    """
    return remaining - damage


@rule("05.04")
def save_results_in_resolution_order(results: Sequence[int]) -> list[int]:
    """Save rolls are resolved from the lowest result to the highest."""
    return sorted(results)


# Modifiers (the Core Rules leave "Modifying Dice Rolls" and "Characteristic Modifiers" to the app) ---


@rule("05.01", "05.02")
def capped_roll_modifier(total: Any) -> Any:
    """The sum of all modifiers to a hit or wound roll counts at most +1 and at least -1.

    Interpretation: roll-modifier-cap.
    """
    return Clamp(total, -1, 1)


@rule("05.01")
def modified_skill(skill: Any, worsened: Any, improved: Any) -> Any:
    """An attack's BS/WS after characteristic modifiers: never better than 2+, at worst 7+ (only a critical hit lands).

    Interpretation: skill-characteristic-limits.
    """
    return Clamp(skill + worsened - improved, 2, 7)


@dataclass
class ModelGroupState:
    """An allocation group during a save step: its characteristics and each living model's remaining wounds."""

    name: str
    W: int
    Sv: int
    InSv: int | None = None
    character: bool = False
    wounds: list[int] | None = None

    def __post_init__(self) -> None:
        if self.wounds is None:
            self.wounds = [self.W]


@rule("05.04")
def resolve_save_rolls(groups: Sequence[ModelGroupState], order: Sequence[str], save_rolls: Sequence[int],
                       ap: int, damage: Sequence[int] | int) -> list[str]:
    """Resolve given save rolls, lowest first, into the current allocation group; return destroyed models.

    ``order`` is the declared allocation order (group names); ``damage`` is the
    attack's D, or one D per inflicting attack in resolution order. Attacks left
    when every model is destroyed are lost. The groups given are not changed.
    """
    by_name = {g.name: dataclasses.replace(g, wounds=list(g.wounds or [g.W])) for g in groups}
    damages = list(damage) if not isinstance(damage, int) else None
    destroyed: list[str] = []
    for roll in save_results_in_resolution_order(save_rolls):
        current = next((by_name[n] for n in order if by_name[n].wounds), None)
        if current is None:
            break  # all models destroyed: excess attacks are lost
        if save_check(roll, ap, current.Sv, current.InSv or 0) == Save.FAILS:
            continue
        d = damage if damages is None else damages.pop(0)
        i = select_model(current.wounds, [current.W] * len(current.wounds))
        current.wounds[i] = wounds_after_damage(current.wounds[i], d)
        if current.wounds[i] <= 0:
            current.wounds.pop(i)
            destroyed.append(current.name)
    return destroyed
