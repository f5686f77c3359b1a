"""Run the hypothesis properties under pytest and turn each marked test into a check record.

A property says which sections it verifies with ``@pytest.mark.refs("03.03")`` (references of
other rulesets qualified: ``"missionpack:secondary/linebreaker"``);
tests without the marker (the mutation tests that check the checks) run under
plain pytest only. A hypothesis failure keeps its falsifying example as the
counterexample.
"""

from __future__ import annotations

import re
from typing import Callable

import pytest

from rules import spec
from rules40k import REPO_ROOT, interrupts
from rules40k.sentences import first_sentence

PROPERTIES = REPO_ROOT / "properties"


class _Collector:
    """A pytest plugin that records each refs-marked test's outcome."""

    def __init__(self, on_result: Callable[[dict], None] | None, ref: str | None = None,
                 rulesets: list[str] | None = None):
        self.ref = ref
        self.rulesets = rulesets
        self.records: list[dict] = []
        self.refs: dict[str, list[str]] = {}
        self.names: dict[str, str] = {}
        self.on_result = on_result
        self.session = None
        self.stopped: Exception | None = None  # what on_result raised: the run stops there and re-raises it

    def pytest_sessionstart(self, session):
        self.session = session

    def pytest_collection_modifyitems(self, session, config, items):
        kept = []
        for item in items:
            marker = item.get_closest_marker("refs")
            if marker is None or (self.ref and self.ref not in marker.args):
                continue
            if self.rulesets is not None and spec.ruleset_of(marker.args) not in self.rulesets:
                continue
            kept.append(item)
            self.refs[item.nodeid] = list(marker.args)
            self.names[item.nodeid] = property_title(item)
        items[:] = kept

    def pytest_runtest_logreport(self, report):
        if report.nodeid not in self.refs:
            return
        if report.when == "call" or (report.when == "setup" and report.outcome != "passed"):
            status = {"passed": "passed", "failed": "failed", "skipped": "skipped"}[report.outcome]
            text = str(report.longrepr) if report.longrepr else ""
            match = re.search(r"Falsifying example:.*?(?=\n\n|\Z)", text, re.S)
            record = {
                "id": f"property:{property_name(report.nodeid)}",
                "kind": "property",
                "ruleset": spec.ruleset_of(self.refs[report.nodeid]),
                "refs": self.refs[report.nodeid],
                "name": self.names[report.nodeid],
                "status": status,
                "detail": "" if status == "passed" else (text.strip().splitlines() or [""])[-1][:500],
                "counterexample": match.group(0) if match else None,
                "test": report.nodeid,
            }
            self.records.append(record)
            if self.on_result and self.stopped is None:
                try:
                    self.on_result(record)
                except Exception as error:  # raised through pytest it would become an internal error
                    self.stopped = error
                    self.session.shouldstop = str(error)


class Observer(_Collector):
    """The same records, taken from a pytest session that runs every test (the suite itself): each refs-marked
    test's outcome is recorded as it runs, and nothing is deselected. The site fixture reuses them instead of
    running the properties a second time (tests/conftest.py, ``built``)."""

    def __init__(self):
        super().__init__(None)

    def pytest_collection_modifyitems(self, session, config, items):
        for item in items:
            marker = item.get_closest_marker("refs")
            if marker is not None:
                self.refs[item.nodeid] = list(marker.args)
                self.names[item.nodeid] = property_title(item)

    def complete_for(self, nodeids: list[str]) -> list[dict] | None:
        """The records of exactly these properties, if every one of them has run in this session; else None."""
        recorded = {r["test"]: r for r in self.records}
        if not nodeids or any(n not in recorded for n in nodeids):
            return None
        return [recorded[n] for n in nodeids]


def property_title(item) -> str:
    """A property's name in words: its docstring's first sentence; a state machine's (``runTest``) is its
    machine class's docstring's, never "runTest"; the test's own name only when it has no docstring."""
    obj = getattr(item, "obj", None)
    if item.name == "runTest" and getattr(item, "cls", None) is not None:
        machine = getattr(obj, "_hypothesis_state_machine_class", None)  # set by hypothesis.stateful
        if machine is None:  # "Machine.TestCase": the class is the module's Machine
            machine = getattr(getattr(item, "module", None), item.cls.__qualname__.split(".")[0], None)
        obj = machine if machine is not None else item.cls
    return first_sentence(getattr(obj, "__doc__", None)) or property_name(item.nodeid)


def property_name(nodeid: str) -> str:
    """A property's name: its test function, or for a state machine (``test_x::runTest``) the name it is bound to."""
    parts = nodeid.split("::")
    return parts[-2] if parts[-1] == "runTest" and len(parts) > 2 else parts[-1]


_QUIET = ["-o", "addopts=", "-p", "no:cacheprovider", "-p", "no:terminal"]


def collect_properties(ref: str | None = None, rulesets: list[str] | None = None) -> dict[str, list[str]]:
    """Each refs-marked property's pytest node id with the sections it verifies (collection only)."""
    collector = _Collector(None, ref, rulesets)
    pytest.main([str(PROPERTIES), "--collect-only", *_QUIET], plugins=[collector])
    interrupts.check()  # pytest turns Ctrl-C into an exit code
    return collector.refs


def count_properties(ref: str | None = None, rulesets: list[str] | None = None) -> int:
    """How many refs-marked properties there are, for the progress bar."""
    return len(collect_properties(ref, rulesets))


def module_of(nodeid: str) -> str:
    """The module a property's node id names: "properties/test_x.py::test_y" -> "properties.test_x"."""
    return nodeid.split("::")[0].removesuffix(".py").replace("/", ".")


class _EveryTest(_Collector):
    """Records every test it runs (marked or not) as checked by ``mark``: a support module's own tests."""

    def __init__(self, on_result: Callable[[dict], None], mark: str):
        super().__init__(on_result)
        self.mark = mark

    def pytest_collection_modifyitems(self, session, config, items):
        for item in items:
            self.refs[item.nodeid] = [self.mark]
            self.names[item.nodeid] = property_title(item)

    def pytest_runtest_logreport(self, report):
        if report.nodeid in self.refs and (report.when == "call" or (report.when == "setup" and report.outcome != "passed")):
            record = {"id": f"test:{report.nodeid}", "kind": "test", "refs": [self.mark], "status": report.outcome,
                      "detail": "" if report.outcome == "passed" else str(report.longrepr or "")[-300:]}
            if self.on_result and self.stopped is None:
                try:
                    self.on_result(record)
                except Exception as error:
                    self.stopped = error
                    self.session.shouldstop = str(error)


def run_tests(paths: tuple[str, ...], mark: str, on_result: Callable[[dict], None]) -> None:
    """Run the test files ``paths`` (relative to the repository) in this process, each test's outcome to
    ``on_result`` as a check of ``mark``; stops after the test where ``on_result`` raises, and re-raises it."""
    collector = _EveryTest(on_result, mark)
    code = pytest.main([*(str(PROPERTIES.parent / path) for path in paths), *_QUIET], plugins=[collector])
    interrupts.check()
    if collector.stopped is not None:
        raise collector.stopped
    if code not in (0, 1):
        raise RuntimeError(f"pytest could not run {', '.join(paths)} (exit code {code})")


def run_properties(on_result: Callable[[dict], None] | None = None, ref: str | None = None,
                   rulesets: list[str] | None = None, nodeids: list[str] | None = None,
                   plugins: tuple = ()) -> list[dict]:
    """Run every refs-marked property (optionally only those of some rulesets, of one qualified reference,
    or the given node ids), with any further pytest ``plugins``. If ``on_result`` raises, the run stops after
    that property and re-raises it."""
    if nodeids is not None and not nodeids:
        return []  # no target at all would make pytest run whatever it finds in the current folder
    collector = _Collector(on_result, ref, rulesets)
    targets = [str(PROPERTIES.parent / nodeid) for nodeid in nodeids] if nodeids is not None else [str(PROPERTIES)]
    code = pytest.main([*targets, *_QUIET], plugins=[collector, *plugins])
    interrupts.check()
    if collector.stopped is not None:
        raise collector.stopped
    if code not in (0, 1, 5):
        raise RuntimeError(f"pytest could not run the properties in {PROPERTIES} (exit code {code})")
    return collector.records
