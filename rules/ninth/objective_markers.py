"""Objective markers and Objective Secured, as the earlier edition's Basic Rules state them.

Control here counts models, not an OC characteristic: a player controls a marker while more of their models
are within range of it than the opponent's. Objective Secured is a labelled exception, matched first: a
player with a model with that ability in range takes the marker whatever the counts, unless an enemy model
in range has it (or a similar ability) too, when the counts decide as normal.

The counts given to ``control`` are the models that may control the marker: AIRCRAFT units and units with
the Fortifications Battlefield Role are left out, and so is a model counted towards another marker this
turn. ``eligible_models_in_range`` makes those counts from a list of models.

Results are 1 (the player controls the marker), -1 (the opponent does) and 0 (nobody does), so swapping the
two players negates the answer.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Collection, Mapping, Sequence

import z3

from rules.logic import And, DecisionTable, If, Not, Row, Var
from rules.registry import ruleset_rule

rule = ruleset_rule("ninth")

RANGE_HORIZONTAL = 3  # inches
RANGE_VERTICAL = 5  # inches
PLAYER, OPPONENT, NOBODY = 1, -1, 0


def _any(secured: Any) -> Any:
    """Whether a side has any Objective Secured model in range: given as a count, or as a flag."""
    if isinstance(secured, z3.BoolRef) or isinstance(secured, bool):
        return secured
    return secured >= 1


@rule("objective-markers")
def in_range(horizontal_inches: Any, vertical_inches: Any) -> Any:
    """Whether a model is in range of an objective marker: within 3" horizontally and 5" vertically of its
    closest part (exactly 3" and exactly 5" are within).

    Interpretation: within-inclusive.
    """
    return And(horizontal_inches <= RANGE_HORIZONTAL, vertical_inches <= RANGE_VERTICAL)


@rule("objective-markers")
def may_control(aircraft: Any, fortification: Any) -> Any:
    """Whether a model's unit can ever count towards controlling an objective marker: not an AIRCRAFT unit and
    not a unit with the Fortifications Battlefield Role."""
    return And(Not(aircraft), Not(fortification))


@dataclass(frozen=True)
class ModelNearMarker:
    """One model and an objective marker: distances to the marker's closest part and the facts that matter."""

    horizontal_inches: Any
    vertical_inches: Any = 0
    aircraft: Any = False
    fortification: Any = False
    objective_secured: Any = False  # the model has the Objective Secured ability (or, for the enemy, a similar one)
    counted_towards_another_marker: Any = False  # this turn


@rule("objective-markers", "objective-secured")
def counts_towards_marker(model: ModelNearMarker) -> Any:
    """Whether a model counts towards controlling this marker: in range, able to control markers, and not
    already counted towards another marker this turn.

    Interpretation: objective-secured-counts-once.
    """
    return And(in_range(model.horizontal_inches, model.vertical_inches),
               may_control(model.aircraft, model.fortification),
               Not(model.counted_towards_another_marker))


@rule("objective-markers", "objective-secured")
def eligible_models_in_range(models: Sequence[ModelNearMarker]) -> tuple[Any, Any]:
    """One player's counts for a marker: models that count towards controlling it, and how many of those have
    Objective Secured (AIRCRAFT and Fortifications excluded from both).

    Interpretation: objective-secured-counts-once.
    """
    total: Any = 0
    secured: Any = 0
    for model in models:
        counts = counts_towards_marker(model)
        total = total + If(counts, 1, 0)
        secured = secured + If(And(counts, model.objective_secured), 1, 0)
    return total, secured


OBJECTIVE_CONTROL = DecisionTable(
    name="ninth-objective-marker-control",
    refs=("objective-markers", "objective-secured"),
    inputs=(Var("models_in_range", 0, 4), Var("opponent_models_in_range", 0, 4),
            Var("objective_secured_in_range", 0, 4), Var("opponent_objective_secured_in_range", 0, 4)),
    # An Objective Secured model is one of its player's models in range.
    assume=lambda models_in_range, opponent_models_in_range, objective_secured_in_range,
    opponent_objective_secured_in_range: And(objective_secured_in_range <= models_in_range,
                                             opponent_objective_secured_in_range <= opponent_models_in_range),
    rows=(
        Row("Objective Secured: the player has a model with it in range and no enemy model in range has it",
            lambda objective_secured_in_range, opponent_objective_secured_in_range, **_:
                And(_any(objective_secured_in_range), Not(_any(opponent_objective_secured_in_range))),
            PLAYER, overrides=("the opponent has more models within range",
                               "the same number of models: nobody controls it")),
        Row("Objective Secured: the opponent has a model with it in range and no model of the player's has it",
            lambda objective_secured_in_range, opponent_objective_secured_in_range, **_:
                And(_any(opponent_objective_secured_in_range), Not(_any(objective_secured_in_range))),
            OPPONENT, overrides=("the player has more models within range",
                                 "the same number of models: nobody controls it")),
        Row("the player has more models within range",
            lambda models_in_range, opponent_models_in_range, **_: models_in_range > opponent_models_in_range,
            PLAYER),
        Row("the opponent has more models within range",
            lambda models_in_range, opponent_models_in_range, **_: opponent_models_in_range > models_in_range,
            OPPONENT),
        Row("the same number of models: nobody controls it", lambda **_: True, NOBODY, otherwise=True),
    ),
    gap=NOBODY,
    notes={"order": "Objective Secured is printed after the general rule but is its exception, so its rows "
                    "are matched first; with Objective Secured on both sides they do not apply and the counts "
                    "decide as normal."},
)


@rule("objective-markers", "objective-secured")
def control(models_in_range: Any, opponent_models_in_range: Any, objective_secured_in_range: Any = 0,
            opponent_objective_secured_in_range: Any = 0) -> Any:
    """Who controls an objective marker: 1 the player, -1 the opponent, 0 nobody.

    The counts are of models that may control markers (no AIRCRAFT or Fortifications, none counted towards
    another marker this turn); the Objective Secured arguments are how many of those models have the ability
    (or a flag). E.g. ``control(2, 5, 1, 0) == 1``: two Objective Secured models beat five without it.

    Interpretation: prose-over-summary-bullets.
    """
    return OBJECTIVE_CONTROL(models_in_range=models_in_range, opponent_models_in_range=opponent_models_in_range,
                             objective_secured_in_range=objective_secured_in_range,
                             opponent_objective_secured_in_range=opponent_objective_secured_in_range)


@rule("objective-markers", "objective-secured")
def control_from_models(models: Sequence[ModelNearMarker], opponent_models: Sequence[ModelNearMarker]) -> Any:
    """Who controls a marker, from both players' models near it (1, -1 or 0, as ``control``)."""
    count, secured = eligible_models_in_range(models)
    opponent_count, opponent_secured = eligible_models_in_range(opponent_models)
    return control(count, opponent_count, secured, opponent_secured)


@rule("objective-markers")
def models_counted_per_marker(markers_in_range: Mapping[str, Collection[str]],
                              chosen: Mapping[str, str] | None = None) -> dict[str, list[str]]:
    """Which of one player's models count towards which marker this turn: a model in range of one marker counts
    there; one in range of several counts only towards the marker chosen for it (a choice is required).

    ``markers_in_range`` maps each eligible model to the markers it is in range of; ``chosen`` maps models to the
    one marker selected for them this turn. Raises ValueError for a missing or impossible choice.
    """
    chosen = dict(chosen or {})
    unknown = set(chosen) - set(markers_in_range)
    if unknown:
        raise ValueError(f"a marker is chosen for {sorted(unknown)}, which are not models in range of any marker")
    counted: dict[str, list[str]] = {}
    for model, markers in sorted(markers_in_range.items()):
        markers = sorted(set(markers))
        if not markers:
            continue
        if len(markers) == 1 and model not in chosen:
            marker = markers[0]
        elif model not in chosen:
            raise ValueError(f"{model} is in range of {markers}: select the one marker it counts towards this turn")
        elif chosen[model] not in markers:
            raise ValueError(f"{model} is not in range of {chosen[model]!r}, so it cannot count towards it")
        else:
            marker = chosen[model]
        counted.setdefault(marker, []).append(model)
    return counted
