"""The @rule registry rejects malformed, unknown and duplicate references when the code is imported."""

from __future__ import annotations

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
