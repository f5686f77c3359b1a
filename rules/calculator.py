"""The exact attack outcome calculator: a scenario under a ruleset's attack rules, through the one engine.

``calculate(scenario)`` is the Core Rules' answer; ``calculate(scenario, ruleset="quickref")`` the same
scenario under the quick-reference sheet's rules. The engine (``rules.engine``) knows no edition; each
ruleset with attack rules has a module ``rules.<ruleset>.attacks`` whose ``RULES`` it uses. Every
probability is an exact rational (``fractions.Fraction`` in the result).
"""

from __future__ import annotations

import importlib
from typing import Any, Mapping

from rules.engine.attack_rules import AttackRules, WeaponPlan  # noqa: F401  (re-exported for callers)
from rules.engine.calculate import METHODS, Engine, Result
from rules.engine.exact import add as _add  # noqa: F401  (the site's charts add chances the same way)
from rules.engine.exact import fractions as _fractions  # noqa: F401
from rules.engine.exact import rerolled, to_fraction  # noqa: F401
from rules.scenario import Scenario

#: Engine names accepted by ``calculate``: "fast" (also "chain", its former name) and "literal".
ENGINES = METHODS + ("chain",)


class NoAttackRules(ValueError):
    """A ruleset that has no attack rules to calculate with."""


def attack_rules(ruleset: str = "core") -> AttackRules:
    """The attack rules of a ruleset (``rules.<ruleset>.attacks.RULES``)."""
    try:
        module = importlib.import_module(f"rules.{ruleset}.attacks")
    except ModuleNotFoundError as error:
        if error.name in (f"rules.{ruleset}", f"rules.{ruleset}.attacks"):
            raise NoAttackRules(f"the {ruleset} ruleset has no attack rules") from None
        raise
    return module.RULES


class Calculator(Engine):
    """One scenario under one ruleset's attack rules; build once, then ``run()``."""

    def __init__(self, scenario: Scenario, engine: str = "fast", ruleset: str = "core"):
        if engine not in ENGINES:
            raise ValueError(f"unknown engine {engine!r}: fast or literal")
        rules = attack_rules(ruleset)
        if not rules.weapon_types:
            for i, weapon in enumerate(scenario.weapons):
                if weapon.type is not None:
                    raise ValueError(f"weapons[{i}].type: the {ruleset} ruleset's weapons have no type (a type is "
                                     "the earlier edition's, --ruleset ninth); give the weapon's abilities instead")
        super().__init__(scenario, rules, "fast" if engine == "chain" else engine)


def scenario_reader(ruleset: str = "core"):
    """The scenario reader of a ruleset: its own ``rules.<ruleset>.scenario.read_scenario`` if it has one (m41's
    weapons and targets speak its own terms), else the shared ``rules.scenario.read_scenario``."""
    try:
        return importlib.import_module(f"rules.{ruleset}.scenario").read_scenario
    except ModuleNotFoundError as error:
        if error.name not in (f"rules.{ruleset}", f"rules.{ruleset}.scenario"):
            raise
    from rules.scenario import read_scenario
    return read_scenario


def calculate(scenario: Scenario, engine: str = "fast", ruleset: str = "core") -> Result | Any:
    """The exact outcome of a scenario (the Python entry point of ``rules40k calc``). A ruleset's attack rules may
    answer a scenario the engine's units of models cannot hold (``AttackRules.answer``: 999.m41's vehicles, and its
    blasts over a formation), each with a result of its own."""
    own = attack_rules(ruleset).answer(scenario)
    return own if own is not None else Calculator(scenario, engine, ruleset).run()


def outcome(scenario: Mapping, ruleset: str = "core") -> dict:
    """Read a scenario mapping and return the headline distributions as Fractions (for example data), and each
    weapon's step as ``calc --explain`` prints it (``steps``), so an example can pin one of the step's numbers."""
    result = calculate(scenario_reader(ruleset)(scenario), ruleset=ruleset)
    return {"models_destroyed": result.models_destroyed, "wounds_lost": result.wounds_lost,
            "expected_models_destroyed": result.expected_models_destroyed,
            "expected_wounds_lost": result.expected_wounds_lost, "destroyed_by_group": result.destroyed_by_group,
            "steps": result.steps}
