"""What a ruleset supplies to the attack engine: its attack rules, each step decided by its own tagged functions.

The engine (``rules.engine.calculate``) knows dice, unit states, allocation
groups, the chain of events and its exact arithmetic; it knows no edition. A
ruleset subclasses ``AttackRules`` and answers, for its own rules:

- how the target's models form groups, in which order they take attacks, which
  group a [PRECISION]-like rule picks, which model mortal wounds go to;
- what one weapon entry does up to the saves (``plan``): attack dice, what each
  attack die turns into (wounds to save, critical wounds whose damage becomes
  mortal wounds), damage;
- how a save meets a group: ``saves = "sorted"`` (every save roll made, then
  resolved lowest result first into the current allocation group, each failing
  on its lowest ``failing_faces``) or ``"each"`` (each wound allocated to the
  current model and saved on its own, failing with chance ``save_fails``);
- how mortal wounds land: ``mortal_wounds = "batch"`` (a critical wound's damage
  as mortal wounds on one model, the excess lost) or ``"spill"`` (each mortal
  wound one wound, spilling over to the next model);
- the chance that a wound a model would lose is lost (Feel No Pain); with ``saves = "each"``, ``wound_event`` may
  give the whole law of one wound (saved or not, then the wounds lost) when it depends on the weapon.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Callable, Mapping

from rules.engine.exact import ONE, Dist, add, convolve, power
from rules.engine.target import Group, State


def _pair(a: tuple[int, int], b: tuple[int, int]) -> tuple[int, int]:
    return a[0] + b[0], a[1] + b[1]


def one_attack(hit: Mapping[str, Any], wound: Mapping[str, Any], *, devastating: bool, lethal: Callable[[], bool],
               extra_hits: Mapping[int, Any], hits_scored: Callable[[int], int]) -> Dist:
    """What one attack die turns into: the chance of each (wounds that go to saves, critical wounds whose damage
    becomes mortal wounds). ``hit`` and ``wound`` give the chance of "fail", "hit"/"wound" and "critical";
    ``devastating``: a critical wound becomes mortal wounds; ``lethal()``: a critical hit wounds without a wound
    roll; a critical hit scores ``hits_scored(x)`` hits for each ``x`` of ``extra_hits`` (the ruleset's
    [SUSTAINED HITS]). The ruleset decides each of these with its own rule functions; this is the arithmetic."""
    per_hit: Dist = {}
    for outcome, p in wound.items():
        add(per_hit, (0, 0) if outcome == "fail" else (0, 1) if outcome == "critical" and devastating else (1, 0), p)
    out: Dist = {}
    for outcome, p in hit.items():
        if outcome == "fail":
            add(out, (0, 0), p)
            continue
        critical = outcome == "critical"
        first = {(1, 0): ONE} if critical and lethal() else per_hit
        extra: Dist = {(0, 0): ONE}
        if critical:
            extra = {}
            for x, px in extra_hits.items():
                for k, q in power(per_hit, hits_scored(x) - 1, (0, 0), _pair)[-1].items():
                    add(extra, k, px * q)
        for k, q in convolve(first, extra, _pair).items():
            add(out, k, p * q)
    return out


@dataclass(frozen=True, eq=False)
class WeaponPlan:
    """What one weapon entry's attacks do against the target, up to the saves, as exact distributions.

    Plans compare by identity: the engine keys its work on a plan object, and a
    ruleset hands back the same object for the same weapon and toughness.
    """

    weapon: Any  # the scenario's WeaponSpec
    attacks_per_model: Mapping[int, Any]  # attack dice one model rolls, with what its abilities add
    models: int  # models making these attacks
    per_attack: Mapping[tuple[int, int], Any]  # (wounds to save, mortal batches) one attack die turns into
    damage: Mapping[int, Any]  # the damage of a wound whose save fails
    mortal_damage: Mapping[int, Any]  # mortal wounds in one batch (a critical wound's damage)
    precision: bool = False  # the attacks may pick a CHARACTER group first
    explain: Mapping[str, Any] = field(default_factory=dict)  # the step's numbers, for --explain

    @cached_property
    def attacks(self) -> Dist:
        """The attack dice of the whole entry."""
        out: Dist = {0: ONE}
        for _ in range(self.models):
            out = convolve(out, self.attacks_per_model)
        return out

    @cached_property
    def mortal(self) -> bool:
        return any(m for (_, m) in self.per_attack)

    @cached_property
    def wound_events(self) -> Dist:
        """Chance of each (wounds to save, mortal batches) over the whole entry; the literal engine's input.
        It costs the square of the attacks, so the fast engine never builds it."""
        powers = power(self.per_attack, max(self.attacks), (0, 0), _pair)
        out: Dist = {}
        for n, p in self.attacks.items():
            for k, r in powers[n].items():
                add(out, k, p * r)
        return out


class AttackRules:
    """A ruleset's attack rules. Subclasses implement every method with that ruleset's tagged rule functions."""

    ruleset = ""
    saves = "sorted"
    mortal_wounds = "batch"
    weapon_types = False  # whether its weapons have a type (the earlier edition's Assault, Heavy, ...); else refused

    def answer(self, scenario) -> Any:
        """The ruleset's own answer to a scenario that is not a unit of models under ordinary attacks (a vehicle,
        blasts placed over a formation), or None: the engine answers it."""
        return None

    def groups(self, scenario) -> tuple[Group, ...]:
        raise NotImplementedError

    def toughness(self, groups: tuple[Group, ...], state: State) -> int:
        raise NotImplementedError

    def allocation_order(self, groups: tuple[Group, ...], state: State, choices) -> tuple[int, ...]:
        """The groups in the order they take attacks; a group left out never takes one."""
        raise NotImplementedError

    def precision_group(self, groups: tuple[Group, ...], state: State, plan: WeaponPlan, choices) -> int | None:
        """The group the attacks must go to first while it lasts, if the rules let the attacker pick one."""
        return None

    def mortal_target(self, groups: tuple[Group, ...], state: State) -> int | None:
        """The group whose model the next mortal wound goes to (None: nobody can take it)."""
        raise NotImplementedError

    def plan(self, scenario, weapon, toughness: int, groups: tuple[Group, ...]) -> WeaponPlan:
        raise NotImplementedError

    def failing_faces(self, group: Group, plan: WeaponPlan) -> int:
        """``saves == "sorted"``: a save roll against this group fails on its lowest this many faces (and only those)."""
        raise NotImplementedError

    def save_fails(self, group: Group, plan: WeaponPlan) -> Any:
        """``saves == "each"``: the chance one wound allocated to a model of this group is not saved."""
        raise NotImplementedError

    def wound_lost(self, group: Group) -> Any:
        """The chance that one wound a model of this group would lose is lost (1 without Feel No Pain)."""
        raise NotImplementedError

    def wound_event(self, group: Group, plan: WeaponPlan) -> Mapping[int, Any]:
        """``saves == "each"``: the chance of each number of wounds a model of this group loses to one wound
        allocated to it. By default the save fails with ``save_fails``, then the plan's damage is lost wound by wound
        with ``wound_lost``; a ruleset whose wounds differ within one weapon (a rending 6 at another AP, a Feel No
        Pain that some wounds deny) gives the mixture instead."""
        from rules.engine.kernels import saved_or_lost

        return saved_or_lost(self.save_fails(group, plan), plan.damage, self.wound_lost(group))
