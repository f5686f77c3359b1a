"""Running a property against a deliberately broken rule: does it fail?"""

from __future__ import annotations

import pytest
from hypothesis import Phase, settings


def fails(check, max_examples: int = 500) -> bool:
    """Whether running ``check`` fails. A hypothesis property runs with many examples, without shrinking or the
    example database (a mutant's counterexample needs finding, not explaining); its own settings come back after."""
    inner = getattr(check, "_hypothesis_internal_use_settings", None)
    if inner is not None:
        check._hypothesis_internal_use_settings = settings(inner, max_examples=max_examples, database=None,
                                                            phases=[Phase.generate])
    try:
        check()
    except (Exception, pytest.fail.Exception):
        return True
    finally:
        if inner is not None:
            check._hypothesis_internal_use_settings = inner
    return False
