"""The attack engine: one scenario's exact outcome under one ruleset's attack rules.

Weapons are resolved in the listed order against the same target, damage
carrying over; before each weapon, the states that meet it alike (same
toughness, allocation order and first group) go through it together. A weapon's
saves are resolved by ``rules.engine.saves``, its mortal wounds after them by
``rules.engine.one_count``; ``method="literal"`` follows the rules step by step
instead (``rules.engine.literal``), the reference the fast method is tested
against. Every chance is exact.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Mapping

from flint import fmpq, fmpq_poly

from rules import dice
from rules.engine import kernels as k
from rules.engine import literal, one_count, saves
from rules.engine.attack_rules import AttackRules, WeaponPlan
from rules.engine.exact import ONE, Q, Dist, add, mean, to_fraction
from rules.engine.laws import Counts
from rules.engine.series import from_dist, q
from rules.engine.target import (Group, State, destroyed, destroyed_in_group, initial_state, models_destroyed,
                                 wounds_lost)

METHODS = ("fast", "literal")


@dataclass
class Result:
    """The engine's answer: distributions of the unit's state and of the headline numbers, exact."""

    scenario: Any
    ruleset: str
    groups: tuple[Group, ...]
    states: dict
    models_destroyed: dict
    wounds_lost: dict
    steps: list[dict]
    method: str = "fast"  # which engine answered: "fast", or "literal" (the rules step by step)

    @property
    def expected_models_destroyed(self) -> Fraction:
        return dice.expected(self.models_destroyed)

    @property
    def expected_wounds_lost(self) -> Fraction:
        return dice.expected(self.wounds_lost)

    @property
    def destroyed_by_group(self) -> dict[str, dict[int, Fraction]]:
        """Per group (by name): the chance of each number of its models destroyed; which models fell, not only
        how many (a Captain slain, or a Bodyguard in his place)."""
        return {group.name: destroyed_in_group(self.groups, self.states, g) for g, group in enumerate(self.groups)}


def _mean(dist: Mapping[int, Any]) -> Fraction:
    return to_fraction(sum((k * p for k, p in dist.items()), 0))


def _mpq(value) -> Any:
    return Q(int(value.p), int(value.q)) if isinstance(value, fmpq) else Q(value)


class Engine:
    """One scenario under one ruleset's attack rules; build once, then ``run()``."""

    def __init__(self, scenario, rules: AttackRules, method: str = "fast"):
        if method not in METHODS:
            raise ValueError(f"unknown method {method!r}: {' or '.join(METHODS)}")
        self.scenario, self.rules, self.method = scenario, rules, method
        self.groups = rules.groups(scenario)
        self.initial = initial_state(self.groups)
        self._plans: dict = {}

    # -- what the ruleset decides, remembered --------------------------------------------------------

    def plan(self, weapon, toughness: int) -> WeaponPlan:
        key = (weapon, toughness)
        if key not in self._plans:
            self._plans[key] = self.rules.plan(self.scenario, weapon, toughness, self.groups)
        return self._plans[key]

    def toughness(self, state: State) -> int:
        return self.rules.toughness(self.groups, state)

    def order(self, state: State) -> tuple[int, ...]:
        return self.rules.allocation_order(self.groups, state, self.scenario.choices)

    def precision(self, state: State, plan: WeaponPlan) -> int | None:
        return self.rules.precision_group(self.groups, state, plan, self.scenario.choices)

    def mortal_target(self, state: State) -> int | None:
        return self.rules.mortal_target(self.groups, state)

    @staticmethod
    def current(order: tuple[int, ...], precision: int | None):
        """The group the next wound goes to: the picked group while it lasts, then the first left in the order."""
        def current(state: State) -> int | None:
            if precision is not None and state[precision][0] > 0:
                return precision
            for g in order:
                if state[g][0] > 0:
                    return g
            return None
        return current

    def losses(self, plan: WeaponPlan) -> tuple[list[dict], list[dict]]:
        """Per group: wounds one event takes from its model, and one mortal batch (or, spilling, one mortal wound)."""
        lost = [self.rules.wound_lost(g) for g in self.groups]
        if self.rules.saves == "each":
            events = [self.rules.wound_event(g, plan) for g in self.groups]
        else:
            events = [k.loss_law(plan.damage, chance) for chance in lost]
        mortal_damage = {1: 1} if self.rules.mortal_wounds == "spill" else plan.mortal_damage
        return events, [k.loss_law(mortal_damage, chance) for chance in lost]

    def thresholds(self, plan: WeaponPlan) -> list[int]:
        if self.rules.saves == "each":
            return [6] * len(self.groups)
        return [self.rules.failing_faces(g, plan) for g in self.groups]

    # -- the run --------------------------------------------------------------------------------------

    def run(self) -> Result:
        dist: dict = {self.initial: fmpq(1) if self.method == "fast" else ONE}
        steps = []
        for weapon in self.scenario.weapons:
            after: dict = {}
            alike: dict = {}
            for state, p in dist.items():
                if destroyed(state):
                    after[state] = after.get(state, 0) + p
                    continue
                plan = self.plan(weapon, self.toughness(state))
                order, first = self.order(state), self.precision(state, plan)
                alike.setdefault((id(plan), order, first), (plan, order, first, {}))[3][state] = p
            for plan, order, first, start in alike.values():
                resolve = self._fast if self.method == "fast" else self._literal
                for state, p in resolve(plan, self.current(order, first), start).items():
                    after[state] = after.get(state, 0) + p
            dist = {s: p for s, p in after.items() if p}
            steps.append(self._explain(weapon, dist))
        convert = lambda d: {key: to_fraction(p) for key, p in d.items()}  # noqa: E731
        return Result(self.scenario, self.rules.ruleset, self.groups, convert(dist),
                      convert(models_destroyed(self.groups, dist)), convert(wounds_lost(self.groups, dist)), steps,
                      self.method)

    def _fast(self, plan: WeaponPlan, current, start: Mapping[State, Any]) -> dict:
        counts = Counts(plan)
        events, mortal = self.losses(plan)
        kernels = [k.kernel(k.key(law)) for law in events]
        if counts.rolls:
            after = saves.resolve(self.groups, current, self.thresholds(plan), kernels, counts, start)
        else:  # no wound goes to a save: every state stays, with the law of its mortal batches
            law = counts.all_rolls
            after = {s: [q(p) * channel[0] for channel in law] for s, p in start.items()}
        if not plan.mortal:
            return {s: channels[0] for s, channels in after.items()}
        batches = {s: fmpq_poly(channels) for s, channels in after.items()}
        if self.rules.mortal_wounds == "spill":  # a batch of D mortal wounds is D single wounds
            wounds = from_dist(plan.mortal_damage)
            batches = {s: law(wounds) for s, law in batches.items()}
        return one_count.consume(self.groups, self.mortal_target, [k.kernel(k.key(law)) for law in mortal], batches)

    def _literal(self, plan: WeaponPlan, current, start: Mapping[State, Any]) -> Dist:
        events, mortal = self.losses(plan)
        thresholds = self.thresholds(plan)
        as_mpq = lambda law: {n: _mpq(p) for n, p in law.items()}  # noqa: E731
        fails = None if self.rules.saves == "each" else (lambda g, face: face <= thresholds[g])
        engine = literal.Literal(self.groups, current, self.mortal_target, fails, [as_mpq(e) for e in events],
                                 [as_mpq(m) for m in mortal], {d: _mpq(q(p)) for d, p in plan.mortal_damage.items()},
                                 self.rules.mortal_wounds == "spill")
        out: Dist = {}
        for state, p in start.items():
            for s2, r in engine.weapon(state, plan.wound_events).items():
                add(out, s2, p * r)
        return out

    def _explain(self, weapon, dist: Mapping[State, Any]) -> dict:
        """What --explain prints for one weapon: the ruleset's numbers, then the engine's."""
        plan = self.plan(weapon, self.toughness(self.initial))
        first = self.current(self.order(self.initial), self.precision(self.initial, plan))(self.initial)
        group = self.groups[first] if first is not None else None
        if group is None:
            unsaved = Q(0)
        elif self.rules.saves == "each":
            unsaved = _mpq(q(self.rules.save_fails(group, plan)))
        else:
            unsaved = Q(self.rules.failing_faces(group, plan), 6)
        attacks = mean(plan.attacks)
        step = {"weapon": weapon.name, **plan.explain, "expected_attacks": attacks,
                "expected_wounds_to_save": attacks * sum((n * p for (n, _), p in plan.per_attack.items()), Q(0)),
                "expected_mortal_wound_attacks": attacks * sum((m * p for (_, m), p in plan.per_attack.items()), Q(0)),
                "first_group": group.name if group else None, "p_save_fails": unsaved,
                "expected_damage_per_unsaved": mean(plan.damage),
                "expected_models_destroyed_so_far": _mean(models_destroyed(self.groups, dist)),
                "expected_wounds_lost_so_far": _mean(wounds_lost(self.groups, dist))}
        return {key: to_fraction(v) if isinstance(v, (type(ONE), fmpq)) else v for key, v in step.items()}
