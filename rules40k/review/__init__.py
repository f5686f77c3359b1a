"""Errata review: what a change to the rules does to play, not just which words moved.

``review(old, new)`` compares two versions of a ruleset (git revisions of this project, the working
tree) part by part: the text of each section (matched by content, so a renumbering is not a delete
and an add), every cell of every decision table, the verdict of every example, table check and proof,
the findings, the calculator's outcomes over a standard sweep of matchups, and the sections whose code
and wording went different ways. Two rulesets that encode the same concepts (the quick reference and
the Core Rules) are compared through their concept map instead (rules40k.review.rulesets).

Each version is snapshotted in its own subprocess (rules40k/review/snapshot.py), so two revisions
never share an interpreter; a git revision's snapshot is cached under build/review-trees/.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from concurrent.futures import Executor
from pathlib import Path
from typing import Any, Callable

from rules40k.review import diff
from rules40k.review.versions import ReviewError, Version, materialise, resolve

SNAPSHOT_SCRIPT = Path(__file__).resolve().parent / "snapshot.py"

__all__ = ["ReviewError", "review", "snapshot", "resolve"]


#: How long one snapshot may take, in seconds (``rules40k review --timeout``): a few seconds to a minute with the
#: checks on two cores; the hypothesis properties (``--properties``) take longer.
SNAPSHOT_TIMEOUT = 600.0
SNAPSHOT_TIMEOUT_WITH_PROPERTIES = 3600.0


def snapshot(version: Version, ruleset: str, checks: bool = True, properties: bool = False,
             timeout: float | None = None) -> dict:
    """One version's snapshot, taken in a subprocess against its tree (cached for a git revision)."""
    return snapshots([version], ruleset, checks, properties, timeout)[0]


def snapshots(versions: list[Version], ruleset: str, checks: bool = True, properties: bool = False,
              timeout: float | None = None) -> list[dict]:
    """Each version's snapshot, those not cached taken side by side, each in its own process against its tree; a
    snapshot that has not finished within ``timeout`` seconds (a module that hangs at import) is killed and is a
    ReviewError. The processes die with this one, Ctrl-C and SIGKILL included (rules40k.interrupts)."""
    from rules40k import atomic, interrupts

    if timeout is None:
        timeout = SNAPSHOT_TIMEOUT_WITH_PROPERTIES if checks and properties else SNAPSHOT_TIMEOUT
    suffix = ".checks" if checks else ""
    suffix += ".properties" if checks and properties else ""
    cached = {v: v.root.parent / f"{v.name}.{ruleset}{suffix}.json" for v in versions if v.kind == "git"}
    wanted = list(dict.fromkeys(v for v in versions if not (v in cached and cached[v].is_file())))
    outs = {v: Path(v.root.parent if v.kind == "git" else v.root / "build") /
            f".snapshot-{v.name}-{ruleset}-{time.monotonic_ns()}.json" for v in wanted}
    commands = []
    for version in wanted:
        outs[version].parent.mkdir(parents=True, exist_ok=True)
        command = [sys.executable, str(SNAPSHOT_SCRIPT), str(version.root), ruleset, str(outs[version])]
        commands.append(command + (["--checks"] + (["--properties"] if properties else []) if checks else []))
    taken = {}
    try:
        try:
            results = interrupts.run(commands, timeout, cwds=[v.root for v in wanted])
        except subprocess.TimeoutExpired as late:
            version = wanted[commands.index(late.cmd)]
            raise ReviewError(f"the snapshot of {version.label} did not finish within {timeout:g} s (a rule module "
                              "that hangs when imported?); --timeout gives it longer") from None
        for version, result in zip(wanted, results):
            if result.returncode != 0:
                last = (result.stderr.strip().splitlines() or ["no output"])[-1]
                raise ReviewError(f"the snapshot of {version.label} failed: {last[:300]}")
            try:
                taken[version] = json.loads(outs[version].read_text(encoding="utf-8"))
            except (OSError, ValueError):  # a module of the tree ended the process (os._exit) before the snapshot
                raise ReviewError(f"the snapshot of {version.label} ended without writing its result (does "
                                  "importing the tree's code end the process?)") from None
    finally:
        for out in outs.values():
            out.unlink(missing_ok=True)
    for version, data in taken.items():
        if version in cached:
            atomic.write_text(cached[version], json.dumps(data, sort_keys=True))
    return [taken[v] if v in taken else json.loads(cached[v].read_text(encoding="utf-8")) for v in versions]


def outcomes(old: Version, new: Version, *, executor: Executor | None = None,
             progress: Callable[[str, int, int], None] | None = None, grid: list[dict] | None = None,
             rulesets: tuple[str | None, str | None] = (None, None)) -> dict:
    """The calculator over the standard grid of matchups, under both versions (each side under the attack rules
    of its ruleset in ``rulesets``; None: the Core Rules), and what moved (as JSON-ready "p/q" strings)."""
    from rules40k.review import sweep

    grid = grid if grid is not None else sweep.standard_grid()
    results = {}
    for side, version, ruleset in (("old", old, rulesets[0]), ("new", new, rulesets[1])):
        tick = (lambda done, total, side=side: progress(f"sweep {side}", done, total)) if progress else None
        results[side] = sweep.run_sweep(grid, root=str(version.root), executor=executor, progress=tick,
                                        ruleset=ruleset)
    return sweep.comparison_json(sweep.compare_sweeps(results["old"], results["new"], grid))


def review(old_text: str, new_text: str = "worktree", *, ruleset: str = "core", checks: bool = True,
           properties: bool = False, sweep: bool = True, executor: Executor | None = None,
           progress: Callable[[str, int, int], None] | None = None, timeout: float | None = None) -> dict[str, Any]:
    """Everything that differs between two versions, with the time each part took (``timeout``: each snapshot's
    limit, see ``snapshots``)."""
    old, new = resolve(old_text), resolve(new_text)
    if (old.kind == "ruleset") != (new.kind == "ruleset"):
        raise ReviewError("compare two revisions of the project, or two rulesets, not one of each")
    if old.kind == "ruleset":
        from rules40k.review import rulesets

        return rulesets.review_rulesets(old.name, new.name, sweep=sweep, executor=executor, progress=progress)
    timings: dict[str, float] = {}
    start = time.perf_counter()
    old, new = materialise(old), materialise(new)
    timings["export"] = time.perf_counter() - start
    start = time.perf_counter()
    before, after = snapshots([old, new], ruleset, checks, properties, timeout)
    timings["snapshots"] = time.perf_counter() - start
    report = diff.review_snapshots(before, after)
    report.update({"ruleset": ruleset, "old": old.label, "new": new.label, "kind": "revisions",
                   "snapshot_timings": {"old": before.get("timings", {}), "new": after.get("timings", {})}})
    if sweep:
        start = time.perf_counter()
        report["outcomes"] = outcomes(old, new, executor=executor, progress=progress)
        timings["outcomes"] = time.perf_counter() - start
    report["counts"] = diff.counts(report)
    report["unchanged"] = not any(report["counts"].values())
    report["timings"] = {k: round(v, 2) for k, v in timings.items()}
    return report
