"""`rules40k calc --ruleset m41` for a scenario whose target is a vehicle: reading, the exact answer, printing.

The terminal shows the answer in the game's terms (hull points lost, destroyed, wrecked or exploded, the damage
results in percentages); --json gives every distribution as exact "p/q"; --explain each weapon's to-hit and
armour penetration step.
"""

from __future__ import annotations

import argparse
from fractions import Fraction
from typing import Any



def _ratios(dist: dict) -> dict[str, str]:
    from rules40k.cli import _ratio

    return {str(k): _ratio(p) for k, p in dist.items()}


def vehicle_json(result: Any) -> dict:
    """The machine output: every chance an exact reduced "p/q" string."""
    from rules40k.cli import _ratio

    return {
        "ruleset": "m41", "target": "vehicle", "vehicle": result.vehicle, "hull_points": result.hull_points,
        "hull_points_lost": _ratios(result.hull_points_lost),
        "destroyed": _ratio(result.destroyed), "wrecked": _ratio(result.wrecked), "exploded": _ratio(result.exploded),
        "on_fire": _ratio(result.on_fire), "armour_after": _ratios(result.armour_after),
        "damaged_sub_results": _ratios(result.sub_results),
        "results_rolled": {name: _ratios(d) for name, d in result.results_rolled.items()},
        "results_suffered": {name: _ratios(d) for name, d in result.results_suffered.items()},
        "penetration": {name: _ratios(d) for name, d in result.penetration.items()},
        "steps": [{"weapon": s["weapon"], "dice": s["dice"], "p_hit": _ratio(s["p_hit"]), "hits": _ratios(s["hits"]),
                   "armour": s["armour"],
                   "penetration": {f"{kind.name} AP{ap}": _ratio(p) for (kind, ap), p in s["penetration"].items()}}
                  for s in result.steps],
    }


def _at_least_once(dist: dict) -> Fraction:
    return 1 - dist.get(0, Fraction(0))


def _mean(dist: dict) -> Fraction:
    return sum((k * p for k, p in dist.items()), Fraction(0))


def show(result: Any, source: str, args: argparse.Namespace) -> int:
    """Print a vehicle scenario's answer (rules.m41.vehicle_attacks.calculate, through calculator.calculate)."""
    from rules.m41 import vehicle_attacks
    from rules40k.cli import _console, _percent, _ratio, _table

    if args.json:
        import json

        print(json.dumps(vehicle_json(result), indent=2))
        return 0
    exact = (lambda p: (_ratio(p),)) if args.exact else (lambda p: ())  # noqa: E731
    console = _console()
    table = _table(title=f"Hull points lost: {result.vehicle} ({result.hull_points} HP), 999.m41")
    for column in ("hull points", "chance", "at least this many") + (("exact chance",) if args.exact else ()):
        table.add_column(column, justify="right")
    tail = Fraction(1)
    for lost, p in result.hull_points_lost.items():
        table.add_row(str(lost), _percent(p), _percent(tail), *exact(p))
        tail -= p
    console.print(table)
    console.print(f"Destroyed {_percent(result.destroyed)}: wrecked {_percent(result.wrecked)}, exploded "
                  f"{_percent(result.exploded)}" + (f" (exactly {_ratio(result.destroyed)})" if args.exact else "")
                  + f". On fire {_percent(result.on_fire)}.")
    results = _table(title="Damage results (suffered counts those bestowed by a worse result)")
    for column in ("result", "rolled at least once", "times rolled (mean)", "suffered at least once"):
        results.add_column(column, justify="right")
    for name, dist in result.results_rolled.items():
        suffered = result.results_suffered.get(name)
        results.add_row(name.replace("_", " ").title(), _percent(_at_least_once(dist)), f"{float(_mean(dist)):.2f}",
                        _percent(_at_least_once(suffered)) if suffered else "")
    console.print(results)
    subs = ", ".join(f"{sub}: {_percent(p)}" for sub, p in result.sub_results.items())
    console.print(f"Vehicle damaged sub-results suffered: {subs}.")
    if args.explain:
        for step in result.steps:
            console.rule(step["weapon"])
            kinds = vehicle_attacks.penetration_kinds(step["penetration"])
            shown = _ratio if args.exact else _percent
            console.print(f"{step['dice']} to-hit dice, P(hit) = {shown(step['p_hit'])}, hits ≈ "
                          f"{float(_mean(step['hits'])):.3f}\nagainst AV{step['armour']}: " + ", ".join(
                              f"{kind.replace('_', ' ').lower()} {shown(p)}" for kind, p in kinds.items())
                          + " (later hits roll against the armour as earlier results left it)")
    return 0
