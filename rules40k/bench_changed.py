"""The rules writer's feedback loop, timed: `rules40k verify --changed` answering a one-function edit.

The project (rules/, rules40k/, properties/, spec/, pyproject.toml and the last `--changed` run's record in
build/) is copied to a temporary folder in build/, and every run below is a whole `rules40k verify --changed`
process started there, as a rules writer starts it. A first run brings the copy's record up to date (every check
when there is no record yet: minutes, once). Then each function of ``EDITS`` in turn is edited (a comment line
added inside its body: new source, same behaviour, so every verdict stays as it was) and the run that answers the
edit is timed, against ``TARGET_SECONDS``, with the checks it reran. The copy is removed afterwards.
"""

from __future__ import annotations

import ast
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

from rules40k import BUILD_ROOT, REPO_ROOT

TARGET_SECONDS = 10.0

#: One rule function of each kind of ruleset: a short one checked by its worked examples, a mission's scoring
#: that examples and a ledger property call, and a core rule with examples, a decision table and proofs.
EDITS = ("rules.ninth.actions.action_completed", "rules.missionpack.secondaries.linebreaker",
         "rules.core.moving.move_can_end")

PROJECT_PARTS = ("rules", "rules40k", "properties", "spec", "pyproject.toml")


def copy_project(destination: Path, record: Path | None = None) -> Path:
    """A copy of the project's code and spec in ``destination`` (created), with ``record`` (a `--changed` run's
    record) as its own build/verify-cache.json when given."""
    destination.mkdir()
    for name in PROJECT_PARTS:
        source = REPO_ROOT / name
        if source.is_dir():
            shutil.copytree(source, destination / name, ignore=shutil.ignore_patterns("__pycache__", ".hypothesis"))
        else:
            shutil.copy2(source, destination / name)
    if record is not None and record.is_file():
        (destination / "build").mkdir()
        shutil.copy2(record, destination / "build" / "verify-cache.json")
    return destination


def verify(root: Path, *options: str, changed: bool = True, env: dict | None = None, timeout: float = 1800) -> dict:
    """`rules40k verify --changed --json` (or without ``--changed``) run as a process in the copy ``root``: its exit
    status, the seconds the whole process took, its printed answer (None if it printed none) and its standard
    error."""
    environment = {**os.environ, **(env or {}), "PYTHONPATH": str(root)}
    if environment.get("PYTHONDONTWRITEBYTECODE") == "":  # an empty value still counts as set for Python
        del environment["PYTHONDONTWRITEBYTECODE"]
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "rules40k", "verify", *(["--changed"] if changed else []), "--json",
                           *options], cwd=root, env=environment, capture_output=True, text=True, timeout=timeout)
    seconds = time.perf_counter() - started
    try:
        answer = json.loads(done.stdout)
    except ValueError:
        answer = None
    return {"status": done.returncode, "seconds": seconds, "answer": answer, "stderr": done.stderr.strip()}


def edit_function(root: Path, function: str, line: str = "# edited by rules40k bench") -> None:
    """Add a comment line inside a top-level function's body in the copy ``root`` (before its last statement)."""
    module, _, name = function.rpartition(".")
    path = root.joinpath(*module.split(".")).with_suffix(".py")
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    found = [node for node in ast.parse("".join(lines)).body if isinstance(node, ast.FunctionDef) and node.name == name]
    if not found:
        raise ValueError(f"{module} has no top-level function {name}")
    last = found[0].body[-1]
    indent = lines[last.lineno - 1][:last.col_offset]
    lines.insert(last.lineno - 1, f"{indent}{line}\n")
    path.write_text("".join(lines), encoding="utf-8")


def _row(function: str | None, run: dict) -> dict:
    changed = (run["answer"] or {}).get("changed") or {}
    return {"edit": function, "seconds": run["seconds"], "status": run["status"],
            "rerun": len(changed.get("rerun", {})), "reused": changed.get("reused"),
            "everything": changed.get("everything"), "reasons": sorted(set(changed.get("rerun", {}).values())),
            "meets_target": function is None or (run["status"] == 0 and run["seconds"] < TARGET_SECONDS),
            **({"error": run["stderr"][-300:]} if run["answer"] is None else {})}


#: The copy's processes keep their compiled bytecode, as Python does by default: a rules writer's second run imports
#: from it. (This machine's environment sets PYTHONDONTWRITEBYTECODE, which made every run compile the project again:
#: half of a run's start-up.) The copy is thrown away afterwards.
BYTECODE = {"PYTHONDONTWRITEBYTECODE": ""}


def profile() -> str:
    """The hypothesis profile the runs use: the one `verify` itself would (HYPOTHESIS_PROFILE, default dev)."""
    return os.environ.get("HYPOTHESIS_PROFILE") or "dev"


def run(edits: tuple[str, ...] = EDITS, progress=None) -> dict:
    """The warm-up run and one timed run per edited function (see the module's docstring)."""
    BUILD_ROOT.mkdir(exist_ok=True)
    from rules40k import atomic, incremental

    folder = atomic.temporary_folder(".bench-changed-", BUILD_ROOT)
    try:
        root = copy_project(folder / "project", incremental.CACHE)
        rows = [_row(None, verify(root, env=BYTECODE))]
        if progress:
            progress(rows[-1])
        for function in edits:
            edit_function(root, function)
            rows.append(_row(function, verify(root, env=BYTECODE)))
            if progress:
                progress(rows[-1])
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return {"target_seconds": TARGET_SECONDS, "hypothesis_profile": profile(), "runs": rows}
