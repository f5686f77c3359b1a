"""A dice-rolling simulation of a ruleset's attacks, to cross-check the exact engine.

It shares the ruleset's reading of the scenario (plans, groups, orders, the
save and Feel No Pain chances) but none of the engine's probability
bookkeeping: every die is rolled, save rolls are sorted (or made one by one),
each wound goes to a model tracked on its own. A ruleset can roll an attack's
own dice too (``roll_attack``, with its hit and wound functions); otherwise an
attack's outcome is drawn from its plan. Agreement of the two is a test of the
engine's arithmetic; the exact properties test the rest.
"""

from __future__ import annotations

import bisect
import math
import random
from collections import Counter
from dataclasses import dataclass
from typing import Mapping

from rules.engine.attack_rules import AttackRules
from rules.engine.calculate import Engine


def draw(rng: random.Random, dist: Mapping) -> object:
    """One outcome of an exact distribution (mpq, fmpq or Fraction chances), drawn exactly: no float rounding."""
    total, thresholds, values = _table(dist)
    return values[bisect.bisect_right(thresholds, rng.randrange(total))]


def chance(rng: random.Random, p) -> bool:
    """True with the exact chance p."""
    return rng.randrange(int(_denominator(p))) < int(_numerator(p))


_TABLES: dict[int, tuple] = {}


def _table(dist: Mapping) -> tuple[int, list[int], list]:
    """A distribution as whole-number cumulative thresholds over a common denominator (kept per dict)."""
    key = id(dist)
    found = _TABLES.get(key)
    if found is None or found[0] is not dist:
        items = list(dist.items())
        denominator = math.lcm(*(int(_denominator(p)) for _, p in items))
        thresholds, running = [], 0
        for _, p in items:
            running += int(_numerator(p)) * (denominator // int(_denominator(p)))
            thresholds.append(running)
        if len(_TABLES) > 4096:
            _TABLES.clear()
        found = _TABLES[key] = (dist, (denominator, thresholds, [v for v, _ in items]))
    return found[1]


def _numerator(p):
    return p.p if hasattr(p, "p") else p.numerator


def _denominator(p):
    return p.q if hasattr(p, "q") else p.denominator


@dataclass
class Outcome:
    models_destroyed: int
    wounds_lost: int


class Simulator:
    """Roll one scenario many times under one ruleset's attack rules."""

    def __init__(self, scenario, rules: AttackRules):
        self.scenario, self.rules = scenario, rules
        self.engine = Engine(scenario, rules)
        self.groups = self.engine.groups

    def _state(self, models: list[list[int]]):
        """The engine's compact state for the models left (to use the ruleset's order and toughness)."""
        out = []
        for group, wounds in zip(self.groups, models):
            damaged = [w for w in wounds if w < group.W]
            out.append((len(wounds), damaged[0] if damaged else group.W))
        return tuple(out)

    def _damage(self, rng: random.Random, models: list[list[int]], g: int, damage: int) -> None:
        """Damage to group g's model that has lost wounds if there is one; Feel No Pain rolled per wound."""
        group, wounds = self.groups[g], models[g]
        chosen = min(range(len(wounds)), key=lambda i: (wounds[i] == group.W, i))
        lost_chance = self.rules.wound_lost(group)
        lost = sum(1 for _ in range(damage) if chance(rng, lost_chance))
        left = wounds[chosen] - lost
        if left <= 0:
            wounds.pop(chosen)
        else:
            wounds[chosen] = left

    def trial(self, rng: random.Random) -> Outcome:
        engine, rules = self.engine, self.rules
        models = [[g.W] * g.count for g in self.groups]
        for weapon in self.scenario.weapons:
            if not any(models):
                break
            state = self._state(models)
            plan = engine.plan(weapon, engine.toughness(state))
            current = engine.current(engine.order(state), engine.precision(state, plan))
            roll_attack = getattr(rules, "roll_attack", None)
            wounds, batches = 0, 0
            for _ in range(draw(rng, plan.attacks)):
                n, m = roll_attack(rng, self.scenario, plan) if roll_attack else draw(rng, plan.per_attack)
                wounds += n
                batches += m
            if rules.saves == "sorted":
                for roll in sorted(rng.randint(1, 6) for _ in range(wounds)):
                    g = current(self._state(models))
                    if g is None:
                        break
                    if roll <= rules.failing_faces(self.groups[g], plan):
                        self._damage(rng, models, g, draw(rng, plan.damage))
            else:
                for _ in range(wounds):
                    g = current(self._state(models))
                    if g is None:
                        break
                    if chance(rng, rules.save_fails(self.groups[g], plan)):
                        self._damage(rng, models, g, draw(rng, plan.damage))
            for _ in range(batches):
                mortal = draw(rng, plan.mortal_damage)
                for one in ([1] * mortal if rules.mortal_wounds == "spill" else [mortal]):
                    g = engine.mortal_target(self._state(models))
                    if g is None:
                        break
                    self._damage(rng, models, g, one)
        destroyed = sum(g.count for g in self.groups) - sum(len(m) for m in models)
        total = sum(g.count * g.W for g in self.groups)
        return Outcome(destroyed, total - sum(sum(m) for m in models))

    def run(self, trials: int, seed: int = 0) -> list[Outcome]:
        rng = random.Random(seed)
        return [self.trial(rng) for _ in range(trials)]


def simulate(scenario, rules: AttackRules, trials: int, seed: int = 0) -> Counter:
    """How often each number of models was destroyed in ``trials`` simulated games."""
    return Counter(o.models_destroyed for o in Simulator(scenario, rules).run(trials, seed))
