"""The hard ladder: legal scenarios the calculator once refused or spent minutes on, timed in fresh processes.

Each rung is one scenario (``RUNGS``): an attached unit of three groups whose save rolls fail on three different
ranges of faces and whose Feel No Pain differ (40, 120 and 400 attacks with [SUSTAINED HITS 1] and D3), eleven
W12 models (6, 60 and 600 attacks), a hundred W1 models in three save groups (1,000 attacks) and a target of 1,000
wounds (1,000 attacks of D6). Each is calculated in a process of its own, so its peak memory is the whole
process's resident set (the exact arithmetic runs in C, where Python's own tracing would not see it), against the
targets: under 2 s and 500 MB each. icepool is timed beside it where its formulation
(``rules40k.bench_ladder``) can state the problem, within a time budget per target.
"""

from __future__ import annotations

import json
import sys
import time
from fractions import Fraction

from rules40k import interrupts
from rules40k.bench_ladder import Target, _icepool_models_destroyed, icepool_states_the_problem

SECONDS_TARGET = 2.0
MIB_TARGET = 500.0

_ATTACHED = Target("attached 3 saves", "D3", (
    {"name": "Bodyguard", "count": 20, "T": 4, "Sv": 4, "W": 2, "FNP": 6},
    {"name": "Captain", "count": 1, "T": 4, "Sv": 2, "W": 5, "InSv": 4, "FNP": 5, "character": True,
     "role": "leader"},
    {"name": "Lieutenant", "count": 1, "T": 4, "Sv": 3, "W": 4, "FNP": 4, "character": True, "role": "leader"}))
_BIG = Target("11xW12", "D6", ({"name": "Brute", "count": 11, "T": 10, "Sv": 3, "W": 12},))
_HORDE = Target("100xW1", "1", ({"name": "Recruit", "count": 40, "T": 3, "Sv": 6, "W": 1},
                                 {"name": "Trooper", "count": 40, "T": 3, "Sv": 5, "W": 1},
                                 {"name": "Veteran", "count": 20, "T": 3, "Sv": 4, "W": 1}))
_HUGE = Target("1000 wounds", "D6", ({"name": "Titan", "count": 25, "T": 12, "Sv": 2, "W": 40, "FNP": 5},))

_BOLTER = {"skill": 3, "S": 4, "AP": 0, "abilities": ["SUSTAINED HITS 1"]}
_GUN = {"skill": 3, "S": 9, "AP": -2}
_LASGUN = {"skill": 4, "S": 3, "AP": 0}
_CANNON = {"skill": 3, "S": 12, "AP": -3}

#: (target, weapon, attacks, models x A): the rungs, in order.
RUNGS = (
    (_ATTACHED, _BOLTER, 40, (20, 2)), (_ATTACHED, _BOLTER, 120, (40, 3)), (_ATTACHED, _BOLTER, 400, (100, 4)),
    (_BIG, _GUN, 6, (2, 3)), (_BIG, _GUN, 60, (20, 3)), (_BIG, _GUN, 600, (100, 6)),
    (_HORDE, _LASGUN, 1000, (100, 10)),
    (_HUGE, _CANNON, 1000, (100, 10)),
)


def scenario(target: Target, weapon: dict, shape: tuple[int, int]) -> dict:
    models, attacks = shape
    line = {"name": "weapon", "count": models, "A": attacks, "D": target.damage, **weapon}
    line["abilities"] = list(weapon.get("abilities", ()))
    return {"weapons": [line], "target": {"keywords": ["INFANTRY"], "models": [dict(m) for m in target.models]}}


_ONE_RUN = """import json, sys, time
from rules import calculator, scenario
sc = scenario.read_scenario(json.loads(sys.stdin.read()), 'rung')
start = time.perf_counter()
result = calculator.calculate(sc)
took = time.perf_counter() - start
peak = next(int(line.split()[1]) for line in open('/proc/self/status') if line.startswith('VmHWM'))
print(json.dumps({'seconds': took, 'peak_mib': peak / 1024,
                  'models_destroyed': {str(k): f'{p.numerator}/{p.denominator}' for k, p in result.models_destroyed.items()}}))
"""


def _measure(data: dict, repeats: int) -> dict:
    """``repeats`` fresh processes, each calculating the scenario once from cold: the best time, the largest peak
    resident memory (the whole process, the interpreter and its imports included), and the answer."""
    runs = []
    for _ in range(repeats):
        done = interrupts.run([[sys.executable, "-c", _ONE_RUN]], input=json.dumps(data))[0]
        if done.returncode != 0:
            raise RuntimeError(f"a hard-ladder run failed: {(done.stderr.strip().splitlines() or ['no output'])[-1]}")
        runs.append(json.loads(done.stdout))
    return {"seconds": min(r["seconds"] for r in runs), "peak_mib": max(r["peak_mib"] for r in runs),
            "models_destroyed": runs[0]["models_destroyed"]}


def rung(target: Target, weapon: dict, attacks: int, shape: tuple[int, int], repeats: int = 1,
         icepool_budget: float = 60.0) -> dict:
    measured = _measure(scenario(target, weapon, shape), repeats)
    exact = {int(k): Fraction(v) for k, v in measured["models_destroyed"].items()}
    row = {"target": target.name, "damage": target.damage, "attacks": attacks, "exact_seconds": measured["seconds"],
           "peak_mib": measured["peak_mib"], "expected_models_destroyed": float(sum(k * p for k, p in exact.items())),
           "meets_targets": measured["seconds"] < SECONDS_TARGET and measured["peak_mib"] < MIB_TARGET}
    why_not = icepool_states_the_problem(target, weapon)
    if why_not:
        row["icepool"] = f"cannot state it: {why_not}"
    elif icepool_budget <= 0:
        row["icepool"] = "skipped: an earlier rung of this target took longer than the budget"
    else:
        try:
            import icepool  # noqa: F401
        except ImportError:
            row["icepool"] = "not installed (pip install -e '.[bench]')"
        else:
            start = time.perf_counter()
            peer = _icepool_models_destroyed(target, attacks, weapon)
            row.update(icepool_seconds=time.perf_counter() - start, icepool_agrees=peer == exact)
            row["icepool_over_exact"] = row["icepool_seconds"] / row["exact_seconds"]
    return row


def run(repeats: int = 1, icepool_budget: float = 60.0, progress=None) -> list[dict]:
    rows, budgets = [], {}
    for target, weapon, attacks, shape in RUNGS:
        row = rung(target, weapon, attacks, shape, repeats, budgets.get(target.name, icepool_budget))
        if row.get("icepool_seconds", 0) > icepool_budget:
            budgets[target.name] = 0
        rows.append(row)
        if progress:
            progress(row)
    return rows
