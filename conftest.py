"""The suite's session: one observer records the outcome of every refs-marked property as the suite runs it, so the
site fixture (tests/conftest.py, ``built``) reuses those outcomes instead of running the properties again."""

from __future__ import annotations


def pytest_configure(config):
    from rules40k import property_runner

    if not config.pluginmanager.has_plugin("rules40k-property-observer"):
        config.pluginmanager.register(property_runner.Observer(), "rules40k-property-observer")
