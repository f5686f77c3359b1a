"""Running a property against a deliberately broken rule: does it fail?

``@given`` keeps the settings it runs with on the test function; these helpers swap
them for one run, so a mutant's counterexample is found (generation only, no example
database) without being shrunk or explained, which proves nothing more.
"""

from __future__ import annotations

import contextlib
from typing import Any, Iterator

import pytest
from hypothesis import Phase, settings
from hypothesis.errors import HypothesisException

_SETTINGS = "_hypothesis_internal_use_settings"


#: The fewest examples a broken rule is given to show itself: whether it is caught must not depend on the profile
#: (the dev profile's 60 examples missed a broken objective_may_score that the ci profile's 200 catch).
LEAST_EXAMPLES = 200


def _for_mutants(current: settings, overrides: dict[str, Any]) -> settings:
    """Derandomized, so whether a broken rule is caught does not change from run to run (a catch that holds only
    for lucky seeds is a flaky test, not a check), and with at least ``LEAST_EXAMPLES``, whatever the profile."""
    return settings(current, **{"database": None, "phases": [Phase.explicit, Phase.generate], "derandomize": True,
                                "max_examples": max(current.max_examples, LEAST_EXAMPLES), **overrides})


@contextlib.contextmanager
def generating_only(check, **overrides: Any) -> Iterator[None]:
    """Within the block, ``check`` (a @given function) runs generation only, without the example database."""
    inner = getattr(check, _SETTINGS, None)
    if inner is not None:
        setattr(check, _SETTINGS, _for_mutants(inner, overrides))
    try:
        yield
    finally:
        if inner is not None:
            setattr(check, _SETTINGS, inner)


def generate_only(monkeypatch, check, **overrides: Any) -> None:
    """The same swap for the rest of a test, undone by pytest's ``monkeypatch``."""
    monkeypatch.setattr(check, _SETTINGS, _for_mutants(getattr(check, _SETTINGS), overrides))


def fails(check, max_examples: int = 500) -> bool:
    """Whether running ``check`` fails (a hypothesis property with up to ``max_examples`` generated examples)."""
    with generating_only(check, max_examples=max_examples, phases=[Phase.generate]):
        try:
            check()
        except (Exception, pytest.fail.Exception):
            return True
    return False


def fails_broken(monkeypatch, check, owner, attribute: str, broken, *args: Any, **kwargs: Any) -> None:
    """Assert that ``check`` (generation only) fails once ``owner.attribute`` is replaced by ``broken``, and that
    the failure is the property's own, not hypothesis giving up (a health check, nothing satisfiable)."""
    generate_only(monkeypatch, check)
    monkeypatch.setattr(owner, attribute, broken)
    with pytest.raises((Exception, pytest.fail.Exception)) as failure:
        check(*args, **kwargs)
    assert not isinstance(failure.value, HypothesisException), failure.value


def fails_broken_item(monkeypatch, check, mapping, key, broken, *args: Any, **kwargs: Any) -> None:
    """``fails_broken`` for a rule the code looks up in a registry: ``mapping[key]`` replaced by ``broken`` (an
    objective whose score function is broken, say)."""
    generate_only(monkeypatch, check)
    monkeypatch.setitem(mapping, key, broken)
    with pytest.raises((Exception, pytest.fail.Exception)) as failure:
        check(*args, **kwargs)
    assert not isinstance(failure.value, HypothesisException), failure.value
