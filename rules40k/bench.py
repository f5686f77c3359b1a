"""The calculator benchmark: exact results against a dice-rolling simulation, in the same run.

For each scenario: the exact calculation's time (best of ``repeats``) and peak
memory, then a simulation of the same rules run until the 95% confidence
interval of its mean models destroyed is within ±``precision`` (the number of
trials comes from the exact variance), with its time and the mean it reached.
Speed targets live here, not in timed tests.
"""

from __future__ import annotations

import json
import math
import time
import tracemalloc
from pathlib import Path

from rules import calculator, scenario, simulation
from rules40k import REPO_ROOT

SCENARIOS = (REPO_ROOT / "examples" / "bench-20-weapons.json", REPO_ROOT / "examples" / "bench-attached-unit.json")


def _variance(dist) -> float:
    mean = sum(k * p for k, p in dist.items())
    return float(sum((k - mean) ** 2 * p for k, p in dist.items()))


def bench_one(path: Path, repeats: int = 3, precision: float = 0.01, max_trials: int | None = None,
              seed: int = 1) -> dict:
    sc = scenario.read_scenario(json.loads(path.read_text(encoding="utf-8")), str(path))
    times = []
    result = None
    for _ in range(repeats):
        start = time.perf_counter()
        result = calculator.calculate(sc)
        times.append(time.perf_counter() - start)
    tracemalloc.start()
    calculator.calculate(sc)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    sigma = math.sqrt(_variance(result.models_destroyed))
    needed = max(1, math.ceil((1.96 * sigma / precision) ** 2))
    trials = needed if max_trials is None else min(needed, max_trials)
    start = time.perf_counter()
    outcomes = simulation.Simulator(sc).run(trials, seed)
    sim_time = time.perf_counter() - start
    sim_mean = sum(o.models_destroyed for o in outcomes) / trials
    per_trial = sim_time / trials
    attacks = sum(float(sum(k * p for k, p in calculator.Calculator(sc).plan(w, sc.models[0].T).attacks.items()))
                  for w in sc.weapons)
    return {
        "scenario": path.name,
        "weapons": len(sc.weapons),
        "expected_attacks": attacks,
        "exact_seconds": min(times),
        "exact_peak_mib": peak / 2 ** 20,
        "expected_models_destroyed": float(result.expected_models_destroyed),
        "simulation_trials_for_precision": needed,
        "simulation_trials_run": trials,
        "simulation_seconds": sim_time,
        "simulation_seconds_for_precision": per_trial * needed,
        "simulation_extrapolated": trials < needed,
        "simulated_mean": sim_mean,
        "simulated_mean_within_precision": abs(sim_mean - float(result.expected_models_destroyed))
        <= precision * math.sqrt(needed / trials),
        "exact_faster_by": per_trial * needed / min(times),
    }


def run(paths=SCENARIOS, **options) -> list[dict]:
    return [bench_one(Path(p), **options) for p in paths]
