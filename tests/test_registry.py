"""The @rule registry rejects malformed, unknown and duplicate references when the code is imported; data names
only what it registers or lists."""

from __future__ import annotations

import importlib
import sys

import pytest

from rules import registry


def test_unknown_reference_is_rejected():
    with pytest.raises(registry.RegistryError, match="'25.01' is not a section"):
        @registry.rule("25.01")
        def nowhere():  # pragma: no cover - never registered
            return None


def test_malformed_reference_is_rejected():
    with pytest.raises(registry.RegistryError, match="malformed reference '5.2'"):
        @registry.rule("5.2")
        def bad():  # pragma: no cover
            return None


def test_duplicate_registration_is_rejected():
    def twice():
        return None

    registry.rule("01.01")(twice)
    try:
        with pytest.raises(registry.RegistryError, match="registered twice for 01.01"):
            registry.rule("01.01")(twice)
    finally:
        key = ("core", "01.01")
        registry._REGISTRY[key] = [r for r in registry._REGISTRY[key] if r.function is not twice]
        registry._RULE_FUNCTIONS.discard(twice)


def test_no_reference_is_rejected():
    with pytest.raises(registry.RegistryError):
        registry.rule()


def test_registered_functions_know_their_source():
    rules = registry.load("core")
    coherency = [r for r in rules["03.03"] if r.qualname.endswith("in_coherency")][0]
    assert coherency.file == "rules/core/moving.py"
    assert coherency.line > 0
    assert coherency.doc.startswith("Every model within")


def test_rules_package_does_not_import_properties_or_the_generator():
    import subprocess
    import sys

    code = ("import sys, rules.core; "
            "bad = [m for m in sys.modules if m.split('.')[0] in {'properties', 'rules40k_site', 'rules40k'}]; "
            "print(bad); sys.exit(1 if bad else 0)")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.parametrize("path,words", [
    ("os.system", "'os.system' is not a function of the rules package"),
    ("this.s", "'this.s' is not a function of the rules package"),
    ("rules..moving", "is not a function of the rules package"),
    ("rules.core.moving._private", "is not a function of the rules package"),
    ("rules.core.moving.__class__", "is not a function of the rules package"),
    ("rules.dice", "is not a function of the rules package"),
    ("rules.os.system", "names no module of the rules package (rules.os does not exist)"),
    ("rules.core.moving.nothing", "names nothing: rules.core.moving has no 'nothing'"),
    ("rules.spec.load_yaml", "is neither a rule function (@rule) nor one meant for examples"),
    ("rules.registry.load", "is neither a rule function"),
    ("rules.quickref.core_views.Fraction", "is neither a rule function"),  # a class an adapter imports
    ("rules.quickref.core_views.geo", "is neither a rule function"),  # a module an adapter imports
    (5, "5 is not a function of the rules package"),
])
def test_data_names_no_function_but_rule_functions_and_those_for_examples(path, words):
    """An example's call or a concept map's compare that is no rule function is refused; a path outside the
    rules package before anything is imported (importing `this` would print the Zen of Python)."""
    with pytest.raises(registry.RegistryError) as refused:
        registry.named_function(path)
    assert words in str(refused.value) and "\n" not in str(refused.value)
    assert "this" not in sys.modules


def test_data_names_rule_functions_adapters_and_those_listed_for_examples():
    from rules.core import moving
    from rules.quickref import core_views, movement

    assert registry.named_function("rules.core.moving.in_coherency") is moving.in_coherency  # @rule
    assert registry.named_function("rules.quickref.core_views.phase_comes_before") is core_views.phase_comes_before
    assert registry.named_function("rules.quickref.movement.must_climb") is movement.must_climb  # FOR_EXAMPLES


def test_every_function_listed_for_examples_is_one_that_data_calls():
    """FOR_EXAMPLES holds no stale entry: each is a function, no rule function (those need no listing), and an
    example or a concept map calls it."""
    from rules import spec
    from rules40k import annotations, compare

    named = set()
    for ruleset in spec.rulesets():
        named |= {example["call"] for example in annotations.examples(ruleset)}
        named |= {entry["compare"][side] for entry in compare.concept_map(ruleset) if "compare" in entry
                  for side in (ruleset, "core")}
    called = {f"{f.__module__}.{f.__qualname__}" for f in map(registry.named_function, named)}
    for listed in sorted(registry.FOR_EXAMPLES):
        module, _, name = listed.rpartition(".")
        function = getattr(importlib.import_module(module), name)
        assert function not in registry._RULE_FUNCTIONS, f"{listed} is a rule function: it needs no listing"
        assert listed in called, f"{listed}: no example or concept map calls it"


def test_a_three_part_path_names_a_function_of_a_top_level_module():
    from rules import calculator

    assert registry.named_function("rules.calculator.outcome") is calculator.outcome  # FOR_EXAMPLES


def test_data_names_an_enumeration_defined_where_it_says():
    from rules.quickref import sequence, stratagems

    assert registry.named_enum("rules.quickref.stratagems.Stratagem") is stratagems.Stratagem
    assert registry.named_enum("rules.quickref.sequence.Phase") is sequence.Phase


@pytest.mark.parametrize("path,words", [
    ("rules.quickref.stratagems.Phase", "is not an enumeration (IntEnum) defined in rules.quickref.stratagems"),
    ("rules.quickref.stratagems.tank_shock_extremes", "is not an enumeration (IntEnum)"),
    ("rules.logic.DecisionTable", "is not an enumeration (IntEnum) defined in rules.logic"),  # a class, no enum
    ("rules.quickref.stratagems._private", "is not an enumeration of the rules package (rules.<module>.<enumeration>)"),
])
def test_data_names_no_enumeration_imported_from_elsewhere_nor_anything_else(path, words):
    """Phase is an IntEnum that rules.quickref.stratagems imports from rules.quickref.sequence: refused there."""
    with pytest.raises(registry.RegistryError) as refused:
        registry.named_enum(path)
    assert words in str(refused.value)


class Undocumented:
    pass


def test_a_rule_without_a_docstring_has_an_empty_doc():
    def bare():
        return None

    entry = registry.RuleFunction("01.01", "core", bare, "tests.bare", "tests/test_registry.py", 1)
    assert entry.doc == ""


def test_a_class_is_located_by_its_source():
    """No code object: the file and first line come from the class's source (relative to the repository)."""
    import inspect

    assert registry._source_location(Undocumented) == ("tests/test_registry.py",
                                                       inspect.getsourcelines(Undocumented)[1])


def test_a_class_without_source_is_located_nowhere(monkeypatch):
    import types

    module = types.ModuleType("sourceless")
    module.__file__ = "/nonexistent/sourceless.py"
    monkeypatch.setitem(sys.modules, "sourceless", module)
    ghost = type("Ghost", (), {"__module__": "sourceless"})
    assert registry._source_location(ghost) == ("<unknown>", 0)


def test_all_rules_are_those_of_one_ruleset():
    core, missionpack = registry.load("core"), registry.load("missionpack")
    assert "03.03" in core and "secondary/linebreaker" in missionpack
    assert not set(core) & set(missionpack)
    assert {entry.document for entries in core.values() for entry in entries} == {"core"}
    assert {entry.document for entries in missionpack.values() for entry in entries} == {"missionpack"}


def test_a_sections_functions_and_every_registered_function_are_found():
    """The ledger and the site ask the registry for a section's functions (functions_for) and the edition comparison
    for every registered function (rule_functions): objective control (14.02) is decided by determine_control, a
    reference no function is tagged with has none, and the whole list holds the functions of every ruleset."""
    from rules.core import objectives
    from rules.m41 import weapons

    registry.load("core")
    registry.load("m41")
    found = registry.functions_for("14.02", "core")
    assert objectives.determine_control in [f.function for f in found]
    assert {f.qualname for f in found} >= {"rules.core.objectives.determine_control",
                                          "rules.core.objectives.within_range_of_terrain_objective"}
    assert registry.functions_for("14.02", "m41") == [] and registry.functions_for("99.99") == []
    every = registry.rule_functions()
    assert objectives.determine_control in every and weapons.large_blast_ap in every
    assert len(every) == len(set(every)) >= len({f.function for fs in registry.all_rules("core").values() for f in fs})
