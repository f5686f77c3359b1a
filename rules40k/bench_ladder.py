"""The benchmark ladder: the exact calculator against icepool and the simulation, 10 to 400 attacks.

Each rung is one weapon firing N attacks (BS 3+, S5, AP-1) at one of four
targets, each with its own damage: 20 one-wound models (D1), 10 three-wound
models (D3), one 12-wound model with Feel No Pain 5+ (D6) and a three-group
attached unit (10 bodyguards, a Captain with a 4+ invulnerable save and a
Lieutenant; 2D6), so every allocation path is timed. icepool is the
peer: a general exact dice library, given the best formulation we know for the
same rules (a Markov chain over the unit's state, attack by attack, through
``icepool.map(..., repeat=N)``; for the attached unit, save rolls the Captain
would pass are counted and resolved after the others, as sorting the save rolls
requires). Its distribution must equal the calculator's, or the rung says so.
The simulation runs a capped number of trials and its time for the precision
the exact answer makes possible is extrapolated, as in ``rules40k.bench``.
"""

from __future__ import annotations

import math
import sys
import time
from dataclasses import dataclass
from fractions import Fraction

from rules40k import REPO_ROOT, interrupts

SIZES = (10, 40, 100, 200, 400)


@dataclass(frozen=True)
class Target:
    name: str
    damage: str
    models: tuple[dict, ...]


TARGETS = (
    Target("20xW1", "1", ({"name": "Boy", "count": 20, "T": 4, "Sv": 5, "W": 1},)),
    Target("10xW3", "D3", ({"name": "Gravis", "count": 10, "T": 4, "Sv": 3, "W": 3},)),
    Target("W12+FNP", "D6", ({"name": "Daemon Prince", "count": 1, "T": 10, "Sv": 3, "W": 12, "FNP": 5},)),
    Target("attached", "2D6", (
        {"name": "Intercessor", "count": 10, "T": 4, "Sv": 3, "W": 2},
        {"name": "Captain", "count": 1, "T": 4, "Sv": 2, "W": 5, "InSv": 4, "character": True, "role": "leader"},
        {"name": "Lieutenant", "count": 1, "T": 4, "Sv": 3, "W": 4, "character": True, "role": "leader"})),
)

WEAPON = {"name": "Bolt rifles", "skill": 3, "S": 5, "AP": -1}


def scenario(target: Target, attacks: int) -> dict:
    """The rung's scenario as ``rules40k calc`` reads it: attacks/10 models with A10 (one model for 10)."""
    weapon = dict(WEAPON, count=max(attacks // 10, 1), A=10 if attacks >= 10 else attacks, D=target.damage)
    return {"weapons": [weapon], "target": {"keywords": ["INFANTRY"], "models": [dict(m) for m in target.models]}}


# -- icepool's formulation (written from the rules, sharing no code with the calculator) -------------


def icepool_states_the_problem(target: Target, weapon: dict | None = None) -> str | None:
    """Why the icepool formulation below cannot state a target's problem, or None if it can: one hit per attack,
    one or two ranges of failing save rolls (a deferred count for the second), bodyguards before CHARACTERs."""
    weapon = weapon or WEAPON
    if weapon.get("abilities"):
        return f"the formulation knows no weapon abilities ({', '.join(weapon['abilities'])})"
    bands = {min(max(min(m["Sv"] - weapon["AP"], m.get("InSv") or 7) - 1, 1), 6) for m in target.models}
    return None if len(bands) <= 2 else f"{len(bands)} different save rolls fail (the formulation knows two)"


def _icepool_models_destroyed(target: Target, attacks: int, weapon: dict | None = None) -> dict[int, Fraction]:
    import icepool

    weapon = weapon or WEAPON
    skill, strength, ap = weapon["skill"], weapon["S"], weapon["AP"]
    toughness = max(m["T"] for m in target.models)
    need = (2 if strength >= 2 * toughness else 3 if strength > toughness else 4 if strength == toughness
            else 6 if 2 * strength <= toughness else 5)
    p_wound = Fraction(7 - skill, 6) * Fraction(7 - need, 6)
    # Allocation order: bodyguard models first, then the CHARACTERs as listed.
    groups = sorted(target.models, key=lambda m: bool(m.get("character")))
    fails = []  # the highest save roll that fails, per group (a 1 always fails)
    for m in groups:
        needed = min(m["Sv"] - ap, m.get("InSv") or 7)
        fails.append(min(max(needed - 1, 1), 6))
    low, high = min(fails), max(fails)
    damage = {"1": icepool.Die([1]), "D3": icepool.d3, "D6": icepool.d6, "2D6": 2 @ icepool.d6}[target.damage]

    def lost(m):  # wounds lost from one unsaved attack: each Feel No Pain roll below X+ loses a wound
        keep = Fraction(m["FNP"] - 1, 6) if m.get("FNP") else Fraction(1)
        per_wound = icepool.Die({1: keep.numerator, 0: keep.denominator - keep.numerator})
        return damage.map(lambda d: d @ per_wound)

    losses = [lost(m) for m in groups]
    # Per attack: 0 = nothing, 1 = a failed save every group fails, 2 = a roll only some groups fail (deferred).
    chances = {0: 1 - p_wound + p_wound * Fraction(6 - high, 6), 1: p_wound * Fraction(low, 6),
               2: p_wound * Fraction(high - low, 6)}
    scale = math.lcm(*(c.denominator for c in chances.values()))
    event = icepool.Die({k: int(c * scale) for k, c in chances.items() if c})
    start = tuple((m["count"], m["W"]) for m in groups)

    def damaged(state, threshold):
        for g, (alive, top) in enumerate(state):
            if alive:
                if fails[g] < threshold:
                    return None
                def hit(n, g=g, alive=alive, top=top):
                    left = top - n
                    new = (alive - 1, groups[g]["W"]) if left <= 0 else (alive, left)
                    return state[:g] + (new,) + state[g + 1:]
                return losses[g].map(hit)
        return None

    def attack(state, outcome):
        unit, deferred = state
        if outcome == 0 or not any(alive for alive, _ in unit):
            return state
        if outcome == 2:
            return unit, deferred + 1
        after = damaged(unit, low)
        return state if after is None else after.map(lambda u: (u, deferred))

    def deferred_rolls(state):
        unit, deferred = state
        def roll(u):
            after = damaged(u, high)
            return u if after is None else after

        for _ in range(deferred):
            unit = icepool.map(roll, unit, star=False)
        return unit

    chain = icepool.map(attack, icepool.Die([(start, 0)]), event, repeat=attacks, star=False)
    final = icepool.map(deferred_rolls, chain, star=False)
    models = sum(m["count"] for m in groups)
    out: dict[int, Fraction] = {}
    for unit, weight in final.items():
        k = models - sum(alive for alive, _ in unit)
        out[k] = out.get(k, Fraction(0)) + Fraction(weight, final.denominator())
    return dict(sorted(out.items()))


def rung(target: Target, attacks: int, repeats: int = 1, trials: int = 200, seed: int = 1,
         icepool_budget: float = 60.0) -> dict:
    """One rung: calculator, icepool (unless an earlier rung of this target went past its budget) and simulation."""
    from rules import calculator
    from rules.scenario import read_scenario
    from rules40k.bench import simulate, timed

    sc = read_scenario(scenario(target, attacks), "ladder")
    exact_s, exact_mib, result = timed(lambda: calculator.calculate(sc), repeats, stop_after=1, memory_under=5)
    row = {"target": target.name, "damage": target.damage, "attacks": attacks, "exact_seconds": exact_s,
           "exact_peak_mib": exact_mib, "expected_models_destroyed": float(result.expected_models_destroyed)}
    try:
        import icepool  # noqa: F401
    except ImportError:
        row["icepool"] = "not installed (pip install -e '.[bench]')"
    else:
        if icepool_budget > 0:
            peer_s, peer_mib, peer = timed(lambda: _icepool_models_destroyed(target, attacks), repeats,
                                           stop_after=1, memory_under=5)
            row.update(icepool_seconds=peer_s, icepool_peak_mib=peer_mib, icepool_agrees=peer == result.models_destroyed,
                       icepool_over_exact=peer_s / exact_s)
        else:
            row["icepool"] = "skipped: an earlier rung of this target took longer than the budget"
    row.update(simulate(sc, result, 0.01, trials, seed))
    row["simulation_over_exact"] = row["simulation_seconds_for_precision"] / exact_s
    return row


def calc_process_seconds(repeats: int = 5) -> float:
    """Whole-process time of ``rules40k calc`` on the small example (best of ``repeats``): start-up included."""
    example = str(REPO_ROOT / "examples" / "intercessors.json")
    best = math.inf
    for _ in range(repeats):
        start = time.perf_counter()
        done = interrupts.run([[sys.executable, "-m", "rules40k", "calc", example]])[0]
        if done.returncode != 0:
            raise RuntimeError(f"rules40k calc {example} failed: {done.stderr.strip()[-200:]}")
        best = min(best, time.perf_counter() - start)
    return best


def run(sizes=SIZES, targets=TARGETS, repeats: int = 1, trials: int = 200, icepool_budget: float = 60.0,
        progress=None) -> dict:
    """The whole ladder, plus the whole-process time of a small ``rules40k calc``."""
    rows = []
    for target in targets:
        budget = icepool_budget
        for attacks in sizes:
            row = rung(target, attacks, repeats, trials, icepool_budget=budget)
            if row.get("icepool_seconds", 0) > budget:
                budget = 0
            rows.append(row)
            if progress:
                progress(row)
    return {"rungs": rows, "calc_process_seconds": calc_process_seconds()}
