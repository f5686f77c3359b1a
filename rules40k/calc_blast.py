"""`rules40k calc --ruleset m41` for a scenario with blast, barrage or template weapons and its "formation".

The terminal shows models destroyed and the hits each marker gives in percentages; each chance is an exact part
plus, where a scatter ring crosses a base or the table's edge, a numeric part within the stated bound. --exact
shows the parts; --json gives them apart ("p/q" and a float); --plot draws the summed chances.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any


def _part(share: tuple) -> dict:
    from rules40k.cli import _ratio

    return {"exact": _ratio(share[0]), "numeric": share[1], "probability": float(share[0]) + share[1]}


def blast_json(result: Any) -> dict:
    """Machine output: every chance as its exact part and numeric part, with the bound."""
    return {
        "ruleset": "m41", "exact": result.is_exact, "bound": result.bound,
        "models_destroyed": {str(k): _part(v) for k, v in result.models_destroyed.items()},
        "expected_models_destroyed": _part(result.expected_models_destroyed),
        "wounds_lost": {str(k): _part(v) for k, v in result.wounds_lost.items()},
        "expected_wounds_lost": _part(result.expected_wounds_lost),
        "destroyed_by_group": {name: {str(k): _part(v) for k, v in law.items()}
                               for name, law in result.destroyed_by_group.items()},
        "hits": {name: {f"{inner},{outer}": _part(v) for (inner, outer), v in law.items()}
                 for name, law in result.hits.items()},
    }


def _total(share: tuple) -> float:
    return float(share[0]) + share[1]


def show(result: Any, source: str, args: argparse.Namespace) -> int:
    """Print the answer to a scenario with blasts or templates (rules.m41.blast_attacks, through
    calculator.calculate)."""
    from rules40k.cli import _console, _percent, _ratio, _table, plot_distribution

    scenario = result.scenario
    if args.plot:
        summed = SimpleNamespace(scenario=scenario,
                                 models_destroyed={k: _total(v) for k, v in result.models_destroyed.items()},
                                 wounds_lost={k: _total(v) for k, v in result.wounds_lost.items()})
        plot_distribution(summed, Path(args.plot))
    if args.json:
        print(json.dumps(blast_json(result), indent=2))
        return 0
    parts = (lambda s: (_ratio(s[0]), f"{s[1]:.9f}")) if args.exact else (lambda s: ())  # noqa: E731
    console = _console()
    table = _table(title="Models destroyed (999.m41, blasts and templates placed over the formation)")
    for column in ("models", "chance", "at least this many") + (("exact part", "numeric part") if args.exact else ()):
        table.add_column(column, justify="right")
    tail = 1.0
    for k, share in result.models_destroyed.items():
        table.add_row(str(k), _percent(_total(share)), _percent(max(tail, 0.0)), *parts(share))
        tail -= _total(share)
    console.print(table)
    console.print(f"Expected: {_total(result.expected_models_destroyed):.2f} models destroyed, "
                  f"{_total(result.expected_wounds_lost):.2f} wounds lost.")
    for name, law in result.hits.items():
        ring = any(outer for _, outer in law)  # a large blast's outer ring hit something
        hits = _table(title=f"Hits by {name}'s markers (inner 3\" at full profile, outer ring AP worse by 1)"
                      if ring else f"Hits by {name}")
        for column in ("hits", "outer ring", "chance") if ring else ("hits", "chance"):
            hits.add_column(column, justify="right")
        for (inner, outer), share in law.items():
            hits.add_row(str(inner), *((str(outer),) if ring else ()), _percent(_total(share)))
        console.print(hits)
    console.print("Every chance is exact." if result.is_exact else
                  f"Exact parts are exact; each chance's numeric part (scatter rings crossing a base or the table's "
                  f"edge) is within {result.bound:.1e} of the truth.")
    if args.explain:
        from rules.m41.attacks import M41AttackRules

        chance = (lambda v: _ratio(v)) if args.exact else _percent  # noqa: E731
        for step in result.steps:  # one run's steps: its attack count and running totals are that run's, so cut
            console.rule(step["weapon"] + (" (outer ring)" if step.get("outer_ring") else ""))
            console.print("\n".join(M41AttackRules.describe(step, chance).splitlines()[1:-1]))
    return 0
