"""What one version of a ruleset says and does, as plain data: run against any tree of this project.

``python snapshot.py ROOT RULESET OUT.json [--checks [--properties]]`` imports ``rules`` and ``rules40k`` from ROOT (a
git revision exported to a folder, or the working tree) and writes the ruleset's section texts, a hash of
each rule function's source per section, every cell of every decision table, and (with ``--checks``) the
verdict of every example, table check and proof. It is run in a subprocess so that two versions never
share an interpreter, and it uses only the APIs every revision of the project has had, so an old
revision needs nothing of this file. Nothing here compares: rules40k.review.diff does.
"""

from __future__ import annotations

import enum
import hashlib
import inspect
import json
import sys
import time
from pathlib import Path
from typing import Any

MAX_TABLE_CELLS = 200_000


def _plain(value: Any) -> Any:
    """A cell's answer as JSON: enums by name, z3-free ints and bools as they are, anything else as text."""
    if isinstance(value, enum.Enum):
        return value.name
    if isinstance(value, (bool, int, str)) or value is None:
        return value
    return str(value)


def sections(ruleset: str) -> dict[str, dict]:
    from rules import spec

    try:
        found = spec.sections(ruleset)
    except (OSError, KeyError, TypeError):
        return {}
    return {ref: {"title": s.get("title", ""), "text": s.get("text", ""),
                  "chapter": (s.get("chapter") or {}).get("number", "")} for ref, s in found.items()}


def functions(ruleset: str) -> dict[str, list[dict]]:
    """Per section, each rule function's name and a hash of its source (what "the code changed" means)."""
    from rules import registry

    try:
        rules = registry.load(ruleset)
    except ModuleNotFoundError:
        return {}
    out: dict[str, list[dict]] = {}
    for ref, entries in rules.items():
        for entry in entries:
            try:
                source = inspect.getsource(inspect.unwrap(entry.function))
            except (OSError, TypeError):
                source = entry.qualname
            out.setdefault(ref, []).append({"qualname": entry.qualname,
                                            "source": hashlib.sha256(source.encode()).hexdigest()[:16]})
    return out


def table_cells(table: Any) -> list[list[Any]]:
    """Every input of a decision table's declared domain with its answer ("gap" where no row applies)."""
    from rules import logic

    cells = []
    for index, inputs in enumerate(table.concrete_domain()):
        if index >= MAX_TABLE_CELLS:
            break
        try:
            answer = _plain(table(**inputs))
        except logic.NoRowApplies:
            answer = "gap"
        cells.append([{k: _plain(v) for k, v in inputs.items()}, answer])
    return cells


def tables(ruleset: str) -> dict[str, dict]:
    from rules40k import checks

    try:
        found = checks.tables(ruleset)
    except ModuleNotFoundError:
        return {}
    return {t.name: {"refs": list(t.refs), "inputs": [v.name for v in t.inputs], "rows": t.labels(),
                     "cells": table_cells(t)} for t in found}


def verdicts(ruleset: str, properties: bool = False) -> dict[str, dict]:
    """Every example, table check, proof (and comparison; with ``properties``, every hypothesis property) of the
    ruleset: status, references and name."""
    from rules40k import checks

    try:
        results = checks.run_all(ruleset, properties=properties)
    except ModuleNotFoundError:
        return {}
    return {c["id"]: {"status": c["status"], "refs": c.get("refs", []), "kind": c.get("kind", ""),
                      "name": c.get("name", ""), "ruleset": c.get("ruleset", ruleset)} for c in results["checks"]
            if c.get("ruleset", ruleset) == ruleset}


def findings(ruleset: str) -> dict[str, dict]:
    try:
        from rules40k import annotations

        found = annotations.findings(ruleset)
    except (ImportError, AttributeError):
        return {}
    return {f["id"]: {"refs": list(f.get("refs") or []), "kind": f.get("kind", ""),
                      "summary": " ".join(str(f.get("summary", "")).split())} for f in found}


def take(ruleset: str, with_checks: bool, with_properties: bool = False) -> dict:
    timings: dict[str, float] = {}
    snapshot: dict[str, Any] = {"ruleset": ruleset}
    parts = [("sections", sections), ("functions", functions), ("tables", tables), ("findings", findings)]
    if with_checks:
        parts.append(("checks", lambda name: verdicts(name, with_properties)))
    for name, make in parts:
        start = time.perf_counter()
        snapshot[name] = make(ruleset)
        timings[name] = round(time.perf_counter() - start, 3)
    snapshot["timings"] = timings
    return snapshot


def main(argv: list[str]) -> int:
    root, ruleset, out = Path(argv[0]).resolve(), argv[1], Path(argv[2])
    here = str(Path(__file__).resolve().parent)
    sys.path[:] = [str(root)] + [p for p in sys.path if p not in (here, "")]
    # An editable install of the working tree adds a finder that would supply modules the old tree lacks.
    sys.meta_path[:] = [f for f in sys.meta_path
                        if not (f if isinstance(f, type) else type(f)).__module__.startswith("__editable__")]
    for name in [m for m in sys.modules if m.split(".")[0] in ("rules", "rules40k", "properties")]:
        del sys.modules[name]
    snapshot = take(ruleset, "--checks" in argv[3:], "--properties" in argv[3:])
    tmp = out.with_name(f".{out.name}.tmp")
    tmp.write_text(json.dumps(snapshot, sort_keys=True), encoding="utf-8")
    tmp.replace(out)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
