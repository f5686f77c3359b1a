"""A dice-rolling simulation of the same attack rules, to cross-check the exact calculator.

It shares the calculator's reading of the scenario (the per-weapon plan:
skill, modifiers, thresholds, damage) and the rule functions, but not its
probability bookkeeping: here every die is rolled, save rolls are sorted and
allocated one by one, and models are tracked individually. Agreement between
the two is a test of the calculator's distribution machinery.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass

from rules import dice
from rules.calculator import Calculator, Group
from rules.core import attack_sequence, core_abilities, shooting_phase, stratagems
from rules.core.attack_sequence import Hit, Save, Wound
from rules.scenario import Scenario


def _roll(rng: random.Random, dist: dict) -> int:
    """Draw from an exact distribution (mpq or Fraction probabilities)."""
    x = rng.random()
    acc = 0.0
    items = list(dist.items())
    for value, p in items:
        acc += float(p)
        if x < acc:
            return value
    return items[-1][0]


@dataclass
class Outcome:
    models_destroyed: int
    wounds_lost: int


class Simulator:
    """Roll one scenario many times."""

    def __init__(self, scenario: Scenario):
        self.calc = Calculator(scenario)
        self.scenario = scenario
        self.groups: tuple[Group, ...] = self.calc.groups

    def _state(self, models: list[list[int]]):
        """The calculator's compact state for the current models (to reuse its order and toughness rules)."""
        out = []
        for g, wounds in zip(self.groups, models):
            damaged = [w for w in wounds if w < g.W]
            out.append((len(wounds), damaged[0] if damaged else g.W))
        return tuple(out)

    def _hit(self, rng: random.Random, plan, weapon) -> Hit:
        ctx, has = self.scenario.context, {a.name for a in weapon.abilities}
        roll = rng.randint(1, 6)
        if "TORRENT" in has:
            return Hit.HIT
        if not weapon.melee and ctx.shooting_type == "snap":
            return Hit(stratagems.snap_hit_roll(roll))
        if not weapon.melee and ctx.shooting_type == "indirect" and "INDIRECT FIRE" in has:
            return Hit(shooting_phase.indirect_hit_roll(roll, plan.hit_modifier, plan.skill,
                                                        ctx.indirect_stationary_and_spotted))
        return Hit(attack_sequence.hit_roll(roll, plan.hit_modifier, plan.skill))

    def _wound(self, rng: random.Random, plan, twin_linked: bool) -> Wound:
        result = Wound(attack_sequence.wound_roll(rng.randint(1, 6), plan.wound_modifier, plan.required, plan.critical))
        non_critical = self.scenario.choices.twin_linked == "non-critical"
        if twin_linked and core_abilities.twin_linked_rerolls(result == Wound.FAIL, non_critical,
                                                              result == Wound.CRITICAL_WOUND):
            result = Wound(attack_sequence.wound_roll(rng.randint(1, 6), plan.wound_modifier, plan.required,
                                                      plan.critical))
        return result

    def _damage(self, rng: random.Random, models: list[list[int]], g: int, damage: int) -> None:
        """Damage to the selected model of group g (a wounded one if possible), Feel No Pain per wound."""
        group, wounds = self.groups[g], models[g]
        chosen = min(range(len(wounds)), key=lambda i: (wounds[i] == group.W, i))
        lost = sum(1 for _ in range(damage)
                   if core_abilities.wound_is_lost(rng.randint(1, 6), group.FNP or 7))
        left = attack_sequence.wounds_after_damage(wounds[chosen], lost)
        if left <= 0:
            wounds.pop(chosen)
        else:
            wounds[chosen] = left

    def trial(self, rng: random.Random) -> Outcome:
        models = [[g.W] * g.count for g in self.groups]
        for weapon in self.scenario.weapons:
            if not any(models):
                break
            state = self._state(models)
            plan = self.calc.plan(weapon, self.calc.toughness(state))
            names = {a.name for a in core_abilities.effective_abilities(weapon.abilities, self.scenario.target_keywords).values()}
            attacks = _roll(rng, plan.attacks)
            saves, criticals = 0, 0
            for _ in range(attacks):
                hit = self._hit(rng, plan, weapon)
                if hit == Hit.FAIL:
                    continue
                hits = 1
                if hit == Hit.CRITICAL_HIT and "SUSTAINED HITS" in names:
                    extra = core_abilities.effective_abilities(weapon.abilities, self.scenario.target_keywords)[
                        "SUSTAINED HITS"].value
                    extra = extra if isinstance(extra, int) else _roll(rng, dice.distribution(extra))
                    hits = core_abilities.sustained_hits(True, extra)
                if hit == Hit.CRITICAL_HIT and core_abilities.lethal_hit_wounds_automatically(
                        "LETHAL HITS" in names, self.scenario.choices.lethal_hits == "auto-wound"):
                    saves += 1
                    hits -= 1
                for _ in range(hits):
                    wound = self._wound(rng, plan, "TWIN-LINKED" in names)
                    if wound == Wound.CRITICAL_WOUND and plan.devastating:
                        criticals += 1
                    elif wound != Wound.FAIL:
                        saves += 1
            order = self.calc.allocation_order(state)
            precision = self.calc._precision_group(state, plan)
            for roll in sorted(rng.randint(1, 6) for _ in range(saves)):
                g = self.calc._current_group(self._state(models), order, precision)
                if g is None:
                    break
                group = self.groups[g]
                if attack_sequence.save_check(roll, weapon.AP, group.Sv, group.InSv or 0) == Save.INFLICTS_DAMAGE:
                    self._damage(rng, models, g, _roll(rng, plan.damage))
            for _ in range(criticals):
                g = self.calc._mortal_wound_group(self._state(models))
                if g is None:
                    break
                # D mortal wounds (24.10), one wound each (06.02), damaging this one model at most.
                self._damage(rng, models, g, core_abilities.devastating_mortal_wounds(True, _roll(rng, plan.damage)))
        destroyed = sum(g.count for g in self.groups) - sum(len(m) for m in models)
        total = sum(g.count * g.W for g in self.groups)
        return Outcome(destroyed, total - sum(sum(m) for m in models))

    def run(self, trials: int, seed: int = 0) -> list[Outcome]:
        rng = random.Random(seed)
        return [self.trial(rng) for _ in range(trials)]


def simulate(scenario: Scenario, trials: int, seed: int = 0) -> Counter:
    """How often each number of models was destroyed in ``trials`` simulated games."""
    return Counter(o.models_destroyed for o in Simulator(scenario).run(trials, seed))
