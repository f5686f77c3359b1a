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
- the chance that a wound a model would lose is lost (Feel No Pain).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Mapping

from rules.engine.exact import ONE, Dist, add, convolve
from rules.engine.target import Group, State


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
        pair = lambda a, b: (a[0] + b[0], a[1] + b[1])  # noqa: E731
        one = {(0, 0): ONE}
        powers = [one]
        for _ in range(max(self.attacks)):
            powers.append(convolve(powers[-1], self.per_attack, pair))
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
