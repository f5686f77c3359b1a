"""The calculator benchmark: exact results against a dice-rolling simulation, in the same run.

For each scenario: the exact calculation's time (best of ``repeats``) and peak
memory, then a simulation of the same rules run until the 95% confidence
interval of its mean models destroyed is within ±``precision`` (the number of
trials comes from the exact variance), with its time and the mean it reached; a simulation stopped by
``max_trials`` or ``max_seconds`` (default MAX_SIMULATION_SECONDS) has its time extrapolated.
Speed targets live here, not in timed tests.
"""

from __future__ import annotations

import json
import math
import random
import time
import tracemalloc
from pathlib import Path

from rules import calculator, scenario
from rules.engine import simulate as simulation
from rules40k import REPO_ROOT

SCENARIOS = (REPO_ROOT / "examples" / "bench-20-weapons.json", REPO_ROOT / "examples" / "bench-attached-unit.json")


def _variance(dist) -> float:
    mean = sum(k * p for k, p in dist.items())
    return float(sum((k - mean) ** 2 * p for k, p in dist.items()))


def timed(function, repeats: int, stop_after: float = math.inf, memory_under: float = math.inf):
    """Best time of ``repeats`` runs (fewer once a run takes over ``stop_after`` s), the peak memory in MiB of one
    more run, and the result. tracemalloc slows Python code several times over, so a run slower than
    ``memory_under`` seconds is not repeated to measure memory (None)."""
    best, result = math.inf, None
    for _ in range(repeats):
        start = time.perf_counter()
        result = function()
        best = min(best, time.perf_counter() - start)
        if best > stop_after:
            break
    if best > memory_under:
        return best, None, result
    tracemalloc.start()
    function()
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return best, peak / 2 ** 20, result


#: How long the simulation of one scenario may run, in seconds, unless ``--max-seconds`` says otherwise: a
#: precision of 1e-4 asks for tens of millions of trials (hours); past the limit the time is extrapolated.
MAX_SIMULATION_SECONDS = 20.0


def simulate(sc, result, precision: float, max_trials: int | None, seed: int, ruleset: str = "core",
             max_seconds: float = math.inf) -> dict:
    """The simulation of ``sc`` for a mean of models destroyed within ±``precision`` (95%): the trials that needs
    (from the exact variance), the trials run (at most ``max_trials``, and no more than ``max_seconds`` allow: the
    time is then extrapolated) and the mean. The trials run are always the first of the same seeded stream."""
    sigma = math.sqrt(_variance(result.models_destroyed))
    needed = max(1, math.ceil((1.96 * sigma / precision) ** 2))
    trials = needed if max_trials is None else min(needed, max_trials)
    simulator, rng = simulation.Simulator(sc, calculator.attack_rules(ruleset)), random.Random(seed)
    outcomes = []
    start = time.perf_counter()
    while len(outcomes) < trials and (not outcomes or time.perf_counter() - start < max_seconds):
        outcomes.append(simulator.trial(rng))
    seconds = time.perf_counter() - start
    capped = None if len(outcomes) == needed else "time" if len(outcomes) < trials else "trials"
    return {"simulation_trials_for_precision": needed, "simulation_trials_run": len(outcomes),
            "simulation_seconds": seconds, "simulation_seconds_for_precision": seconds / len(outcomes) * needed,
            "simulation_extrapolated": capped is not None, "simulation_capped_by": capped,
            "simulated_mean": sum(o.models_destroyed for o in outcomes) / len(outcomes)}


def bench_one(path: Path, repeats: int = 3, precision: float = 0.01, max_trials: int | None = None,
              seed: int = 1, max_seconds: float = MAX_SIMULATION_SECONDS) -> dict:
    sc = scenario.read_scenario(json.loads(path.read_text(encoding="utf-8")), str(path))
    exact_seconds, peak_mib, result = timed(lambda: calculator.calculate(sc), repeats)
    simulated = simulate(sc, result, precision, max_trials, seed, max_seconds=max_seconds)
    attacks = sum(float(sum(k * p for k, p in calculator.Calculator(sc).plan(w, sc.models[0].T).attacks.items()))
                  for w in sc.weapons)
    return {
        "scenario": path.name,
        "weapons": len(sc.weapons),
        "expected_attacks": attacks,
        "exact_seconds": exact_seconds,
        "exact_peak_mib": peak_mib,
        "expected_models_destroyed": float(result.expected_models_destroyed),
        **simulated,
        "simulated_mean_within_precision": abs(simulated["simulated_mean"] - float(result.expected_models_destroyed))
        <= precision * math.sqrt(simulated["simulation_trials_for_precision"] / simulated["simulation_trials_run"]),
        "exact_faster_by": simulated["simulation_seconds_for_precision"] / exact_seconds,
    }


def run(paths=SCENARIOS, **options) -> list[dict]:
    return [bench_one(Path(p), **options) for p in paths]
