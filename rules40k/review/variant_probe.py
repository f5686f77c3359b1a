"""What replacing some of a ruleset's attributes changes: ``python variant_probe.py JOB.json OUT.json``.

Run in a fresh process by rules40k.review.variants, so the rule modules are loaded marked (rules40k.incremental)
before anything imports them: one run of every check of the ruleset records which functions each one calls.
Then, for each entry of the job (and all of them together), the entry's overrides are put in place and taken out
again (rules40k/review/worker.py's ``_apply``): every cell of every decision table, found by its place
("module.ATTRIBUTE"), is compared; the checks that call an overridden place are run again (not a table's own check, which is about the table it was planned with: its cells are compared
instead); the intent checks run;
and the m41 calculator sweeps its matchups, when the ruleset has one. "old" is the side with the overrides (the
variant), "new" the ruleset as encoded.
"""

from __future__ import annotations

import importlib
import json
import sys
import time
from pathlib import Path


def _tables(ruleset: str) -> dict[str, dict]:
    """Every decision table of the ruleset's rule modules by its place, with every cell of its domain."""

    from rules import logic, registry

    snapshot = importlib.import_module("rules40k.review.snapshot")  # (the package's own ``snapshot`` is a function)

    modules = sorted({r.function.__module__ for rules in registry.load(ruleset).values() for r in rules})
    found = {}
    for name in modules:
        for attribute, value in vars(importlib.import_module(name)).items():
            if isinstance(value, logic.DecisionTable):
                found[f"{name}.{attribute}"] = {"refs": list(value.refs), "inputs": [v.name for v in value.inputs],
                                                "rows": value.labels(), "cells": snapshot.table_cells(value)}
    return found


def _places(overrides: dict[str, str]) -> set[str]:
    """The overridden places as the call records name them ("module:attribute")."""
    return {f"{place.rpartition('.')[0]}:{place.rpartition('.')[2]}" for place in overrides}


def _intents(names: list[str]) -> dict[str, dict]:
    from rules40k.review import intents_m41

    return {name: intents_m41.INTENTS[name]() for name in names}


def _outcomes(ruleset: str, overrides: dict[str, str], new: dict | None = None) -> dict:
    """The calculator over the ruleset's sweep of matchups (rules40k/review/sweep_<ruleset>.py), with the overrides
    ("old") and without ("new"): the matchups that moved, and the models-destroyed ones in the form
    rules40k.review.sweep.plot_shift draws."""
    import importlib.util
    from fractions import Fraction

    if importlib.util.find_spec(f"rules40k.review.sweep_{ruleset}") is None:
        return {"applies": False, "why": f"{ruleset} has no sweep of matchups (rules40k/review/sweep_{ruleset}.py)"}
    sweep = importlib.import_module(f"rules40k.review.sweep_{ruleset}")
    from rules40k.review import worker

    new = new if new is not None else sweep.outcomes()  # (the ruleset as encoded: the same for every entry)
    undo = worker._apply(overrides)
    try:
        worker._clear_rule_caches()
        old = sweep.outcomes()
    finally:
        worker._restore(undo)
        worker._clear_rule_caches()
    moved = [{"matchup": name, "old": old[name], "new": new[name]} for name in new if old[name] != new[name]]
    models = [name for name in new if new[name].get("measure") == "models destroyed"
              and old[name].get("measure") == "models destroyed"]
    changed = [{"id": name, "shift": str(Fraction(new[name]["value"]) - Fraction(old[name]["value"]))}
               for name in models if old[name] != new[name]]
    shifts = [Fraction(c["shift"]) for c in changed]
    plot = {"counts": {"total": len(models), "changed": len(changed), "increased": sum(1 for x in shifts if x > 0),
                       "decreased": sum(1 for x in shifts if x < 0), "errors": 0, "not_comparable": 0},
            "changed": changed, "points": [[name, old[name]["value"], new[name]["value"]] for name in models]}
    return {"applies": True, "matchups": len(new), "moved": moved, "plot": plot}


def _run(item) -> dict:
    """A check's result; one that raises under overrides is an error verdict (the variant broke what it stands on)."""
    try:
        return item.run()
    except Exception as error:  # noqa: BLE001 - a verdict, not a crash
        return {"id": item.key, "status": "error", "detail": f"{type(error).__name__}: {error}"}


def main(argv: list[str]) -> int:
    from rules40k import incremental

    incremental.watch_imports()
    job = json.loads(Path(argv[0]).read_text(encoding="utf-8"))
    ruleset = job["ruleset"]

    from rules40k import checks, domains
    from rules40k.review import diff, worker

    # The domain pins are data (what the rules allow an input), the same in every version; read them before any
    # override, since reading them looks each pinned table up by its name and a replaced table has another name.
    read_pins, pinned = domains.pins, {}

    def pins_read_once(ruleset: str, *rest):
        if (ruleset, *rest) not in pinned:
            pinned[(ruleset, *rest)] = read_pins(ruleset, *rest)
        return pinned[(ruleset, *rest)]

    domains.pins = pins_read_once

    timings = {}
    start = time.perf_counter()
    planned = [item for item in checks.plan(ruleset, properties=False) if item.run is not None]
    base, calls = {}, {}
    for item in planned:
        with incremental.watching(incremental.Record()) as record:
            result = item.run()
        base[item.key], calls[item.key] = result, record.calls
    before_tables = _tables(ruleset)
    intent_names = sorted({e["intent"] for e in job["entries"] if e.get("intent")})
    new_intents = _intents(intent_names)
    calculator_calls: set[str] = set()
    base_outcomes = None
    if job.get("sweep"):
        import importlib.util

        if importlib.util.find_spec(f"rules40k.review.sweep_{ruleset}") is not None:
            sweep_module = importlib.import_module(f"rules40k.review.sweep_{ruleset}")
            with incremental.watching(incremental.Record(files=False)) as record:
                base_outcomes = sweep_module.outcomes()
            calculator_calls = record.calls
    timings["baseline"] = round(time.perf_counter() - start, 2)

    def probe(overrides: dict[str, str], intents: list[str]) -> dict:
        places = _places(overrides)
        undo = worker._apply(overrides)
        try:
            worker._clear_rule_caches()
            tables = diff.diff_tables(_tables(ruleset), before_tables)["changed"]
            verdicts = []
            for item in planned:
                if calls[item.key] & places and item.kind != "table":
                    now = _run(item)
                    if now["status"] != base[item.key]["status"]:
                        verdicts.append({"id": now["id"], "name": now.get("name", ""), "refs": now.get("refs", []),
                                         "old": now["status"], "new": base[item.key]["status"],
                                         "detail": now.get("detail", "")})
            old_intents = _intents(intents)
        finally:
            worker._restore(undo)
            worker._clear_rule_caches()
        if not job.get("sweep"):
            outcomes = {"applies": False, "why": "not asked"}
        elif not overrides:
            outcomes = {"applies": False, "why": "no rule is replaced, so nothing can move"}
        else:
            outcomes = _outcomes(ruleset, overrides, base_outcomes)
        if outcomes.get("applies"):  # which replaced rules the calculator calls at all (none: nothing can move)
            outcomes["overrides_called"] = sorted(place.replace(":", ".") for place in places & calculator_calls)
            outcomes["overrides_not_called"] = sorted(place.replace(":", ".") for place in places - calculator_calls)
        return {"tables": tables, "checks": verdicts, "reran": sum(1 for i in planned if calls[i.key] & places and i.kind != "table"),
                "intents": {n: {"old": old_intents[n], "new": new_intents[n]} for n in intents},
                "outcomes": outcomes}

    entries = {}
    start = time.perf_counter()
    for entry in job["entries"]:
        intents = [entry["intent"]] if entry.get("intent") else []
        if entry["overrides"] or intents:
            entries[entry["id"]] = probe(entry["overrides"], intents)
    timings["entries"] = round(time.perf_counter() - start, 2)
    start = time.perf_counter()
    together = {place: source for e in job["entries"] for place, source in e["overrides"].items()}
    whole = probe(together, intent_names)
    timings["whole"] = round(time.perf_counter() - start, 2)
    out = Path(argv[1])
    out.write_text(json.dumps({"entries": entries, "whole": whole, "timings": timings, "checks": len(planned)},
                              default=str), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
    sys.exit(main(sys.argv[1:]))
