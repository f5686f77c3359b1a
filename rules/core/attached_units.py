"""Chapter 19, Attached units: forming them, attacking them, their keywords and their abilities.

Also the rules appendix entry on units with mixed keywords, which 19.03 applies
to attached units. Conditions are predicates over plain facts built with
``rules.logic``; which abilities still apply (19.04) is a first-match table.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, replace
from typing import Any, Collection, Sequence

from rules.core.datasheets import has_keyword
from rules.logic import And, DecisionTable, If, Not, Or, Row, Var
from rules.registry import rule
from rules.state import UnitState


class Role(enum.IntEnum):
    """What a component unit is in an attached unit."""

    BODYGUARD = 0
    LEADER = 1
    SUPPORT = 2


# 19.01 Forming attached units ----------------------------------------------------------------


@dataclass(frozen=True)
class Attachment:
    """One choice made in the Muster Armies step: ``unit`` (a leader or support unit) leads ``bodyguard``."""

    unit: str
    role: Role
    bodyguard: str


@rule("19.01")
def may_lead(role: Any, muster_armies_step: Any, can_lead: Any, already_leading: Any, bodyguard_leaders: Any,
             bodyguard_supports: Any, more_allowed: Any = False) -> Any:
    """Whether a leader or support unit can be attached to a bodyguard unit: in the Muster Armies step, a bodyguard
    unit it can lead (as the app lists), one bodyguard unit per leader/support unit, and, unless a rule states
    otherwise (``more_allowed``), at most one leader unit and one support unit per bodyguard unit."""
    room = If(role == Role.LEADER, bodyguard_leaders < 1, bodyguard_supports < 1)
    return And(role != Role.BODYGUARD, muster_armies_step, can_lead, Not(already_leading), Or(room, more_allowed))


@rule("19.01")
def attachment_problems(attachments: Sequence[Attachment], can_lead: Collection[tuple[str, str]],
                        more_allowed: Collection[str] = ()) -> list[str]:
    """Why a set of Muster Armies choices breaks 19.01 (empty if it does not): each leader/support unit leads one
    bodyguard unit it can lead; each bodyguard unit has at most one leader and one support unit (unless named in
    ``more_allowed``)."""
    problems = []
    led: dict[str, str] = {}
    counts: dict[tuple[str, Role], int] = {}
    allowed = {tuple(pair) for pair in can_lead}
    for a in attachments:
        a = replace(a, role=Role(a.role))
        if a.role == Role.BODYGUARD:
            problems.append(f"{a.unit} is a bodyguard unit, not a leader or support unit")
            continue
        if a.unit in led:
            problems.append(f"{a.unit} already leads {led[a.unit]}, so it cannot also lead {a.bodyguard}")
            continue
        if (a.unit, a.bodyguard) not in allowed:
            problems.append(f"{a.unit} cannot lead {a.bodyguard}")
            continue
        taken = counts.get((a.bodyguard, a.role), 0)
        if not may_lead(a.role, True, True, False, taken if a.role == Role.LEADER else 0,
                        taken if a.role == Role.SUPPORT else 0, a.bodyguard in more_allowed):
            problems.append(f"{a.bodyguard} already has a {a.role.name.lower()} unit attached")
            continue
        led[a.unit] = a.bodyguard
        counts[(a.bodyguard, a.role)] = taken + 1
    return problems


@rule("19.01", "19.03")
def form_attached_unit(bodyguard: UnitState, attached: Sequence[UnitState]) -> UnitState:
    """The attached unit a bodyguard unit and its leader/support units form: a single unit for all rules purposes,
    with all their models and points and all of their keywords."""
    if not attached:
        raise ValueError(f"{bodyguard.name} has no leader or support unit attached, so it is not an attached unit")
    parts = [bodyguard, *attached]
    if len({u.owner for u in parts}) != 1:
        raise ValueError(f"{bodyguard.name}: only friendly units form an attached unit")
    return replace(
        bodyguard,
        name=" + ".join(u.name for u in [*attached, bodyguard]),
        keywords=unit_keywords([u.keywords for u in parts]),
        models=sum(u.models for u in parts),
        starting_strength=sum(u.starting_strength for u in parts),
        points=sum(u.points for u in parts),
    )


# 19.02 Attacking attached units ----------------------------------------------------------------


@rule("19.02")
def attached_unit_toughness(bodyguard_toughness: Sequence[int], leader_toughness: Sequence[int]) -> int:
    """Use the highest T among the bodyguard models left; only if none are left, the highest leader/support T."""
    if bodyguard_toughness:
        return max(bodyguard_toughness)
    if leader_toughness:
        return max(leader_toughness)
    raise ValueError("an attack cannot target a unit with no models")


@rule("19.02")
def destroyed_rules_trigger(attached: Any, models_left: Any, destroyed_model_started_battle_in_unit: Any,
                            started_battle_models_left: Any) -> Any:
    """Whether destroying a model now triggers the rules triggered when a unit is destroyed: for an attached unit
    only when it was the last model that started the battle in that unit (a component wiped out does not count);
    otherwise when the unit's last model goes (appendix 'Destroyed'). Counts are after the model is removed.

    Interpretation: attached-unit-destroyed-triggers.
    """
    return If(attached, And(destroyed_model_started_battle_in_unit, started_battle_models_left == 0),
              models_left == 0)


# 19.03 Keywords in attached units; appendix: mixed keywords in units ---------------------------------


@rule("19.03", "appendix/mixed-keywords-in-units")
def unit_keywords(model_keywords: Sequence[Collection[str]]) -> frozenset[str]:
    """A unit whose models have different keywords (an attached unit, or mixed models) has every keyword of every
    model in it, while those models are part of it; pass the keywords of the models (or component units) present."""
    return frozenset(keyword for keywords in model_keywords for keyword in keywords)


class Scope(enum.IntEnum):
    """Whether a keyword rule is about units with the keyword or about models with it."""

    UNITS = 1
    MODELS = 2


@rule("19.03", "appendix/mixed-keywords-in-units")
def keyword_rule_applies(scope: Scope, wanted: str, model_keywords: Collection[str],
                         unit_keywords: Collection[str]) -> bool:
    """Whether a rule for units (or models) with keyword ``wanted`` affects a model: for units, any model of a unit
    that has it (attacks target units, so [ANTI-PSYKER] counts a PSYKER leader for every attack on its unit); for
    models, only a model with it itself, since models do not gain the keywords of other models in their unit."""
    if scope == Scope.UNITS:
        return has_keyword(tuple(unit_keywords), wanted)
    return has_keyword(tuple(model_keywords), wanted)


# 19.04 Abilities in attached units -----------------------------------------------------------------


class Source(enum.IntEnum):
    """The source of an ability/rule that affects an attached unit (19.04's table)."""

    LEADER_OR_SUPPORT = 1
    BODYGUARD = 2
    SPECIFIC_MODEL = 3


def _while_source_or_attack(source_alive: Any, attack_resolving: Any, **_: Any) -> Any:
    return Or(source_alive, attack_resolving)


_STAR_ROW = ("* the leader/support unit's own 'while leading' ability after its bodyguard unit is destroyed: only "
             "if it started the battle in an attached unit")
_LEADER_ROW = "leader/support unit: until the last model in that unit is destroyed"
_BODYGUARD_ROW = "bodyguard unit: until the last model in that unit is destroyed"
_MODEL_ROW = "a specific model: until that model is destroyed"

ATTACHED_ABILITY = DecisionTable(
    name="attached-unit-ability-applies",
    refs=("19.04",),
    inputs=(Var("affects_single_model", kind="bool"), Var("model_is_that_model", kind="bool"),
            Var("source", Source.LEADER_OR_SUPPORT, Source.SPECIFIC_MODEL), Var("source_alive", kind="bool"),
            Var("attack_resolving", kind="bool"), Var("while_leading_ability", kind="bool"),
            Var("bodyguard_alive", kind="bool"), Var("started_battle_attached", kind="bool")),
    # attack_resolving: the source's last model was destroyed by an attack and the attacking unit has not resolved
    # all its attacks yet, so it is not alive; a bodyguard source is alive exactly when the bodyguard unit is.
    assume=lambda source, source_alive, attack_resolving, bodyguard_alive, **_: And(
        Or(Not(attack_resolving), Not(source_alive)),
        Or(source != Source.BODYGUARD, source_alive == bodyguard_alive)),
    rows=(
        Row("an ability/rule affecting a single specified model: only ever that model",
            lambda affects_single_model, **_: affects_single_model,
            lambda model_is_that_model, **_: model_is_that_model,
            # The rows for unit-wide abilities begin "Otherwise" in the book.
            overrides=(_STAR_ROW, _LEADER_ROW, _BODYGUARD_ROW, _MODEL_ROW)),
        Row(_STAR_ROW,
            lambda source, while_leading_ability, bodyguard_alive, **_: And(
                source == Source.LEADER_OR_SUPPORT, while_leading_ability, Not(bodyguard_alive)),
            lambda started_battle_attached, source_alive, attack_resolving, **_: And(
                started_battle_attached, Or(source_alive, attack_resolving)),
            overrides=(_LEADER_ROW,)),
        Row(_LEADER_ROW,
            lambda source, **_: source == Source.LEADER_OR_SUPPORT, _while_source_or_attack),
        Row(_BODYGUARD_ROW,
            lambda source, **_: source == Source.BODYGUARD, _while_source_or_attack),
        Row(_MODEL_ROW,
            lambda source, **_: source == Source.SPECIFIC_MODEL, _while_source_or_attack),
    ),
    gap=False,
)


@rule("19.04")
def ability_applies(affects_single_model: Any, model_is_that_model: Any, source: Any, source_alive: Any,
                    attack_resolving: Any, while_leading_ability: Any = False, bodyguard_alive: Any = True,
                    started_battle_attached: Any = True) -> Any:
    """Whether an ability/rule conferred within an attached unit applies to a model of it now: while its source
    (leader/support unit, bodyguard unit or specific model) has a model left, or until the attacking unit has
    resolved all its attacks if an attack destroyed that last model. A revived source applies again.

    ``source_alive`` is a current fact, so a model that is later revived brings its abilities back (19.04's note
    'Only in death does duty end').
    """
    return ATTACHED_ABILITY(affects_single_model=affects_single_model, model_is_that_model=model_is_that_model,
                            source=source, source_alive=source_alive, attack_resolving=attack_resolving,
                            while_leading_ability=while_leading_ability, bodyguard_alive=bodyguard_alive,
                            started_battle_attached=started_battle_attached)
