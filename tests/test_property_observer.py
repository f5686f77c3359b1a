"""The site fixture may reuse the suite's own run of the properties: the observer's records of a session that ran
them are the records `verify` makes running them itself, and it answers only when every planned one has run."""

from __future__ import annotations

import pytest

from rules40k import property_runner

FILE = "properties/test_ninth_concepts.py"


def test_the_observed_records_are_the_ones_verify_makes():
    nodeids = sorted(property_runner.collect_properties(rulesets=["ninth"]))
    nodeids = [n for n in nodeids if n.startswith(FILE)]
    assert len(nodeids) > 5
    observer = property_runner.Observer()
    pytest.main([str(property_runner.PROPERTIES / "test_ninth_concepts.py"), *property_runner._QUIET],
                 plugins=[observer])
    observed = observer.complete_for(nodeids)
    assert observed is not None
    run = {r["test"]: r for r in property_runner.run_properties(nodeids=nodeids)}
    assert [r for r in observed] == [run[n] for n in nodeids]
    assert observer.complete_for(nodeids + ["properties/test_nowhere.py::test_x"]) is None
