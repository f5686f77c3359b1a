"""Hypothesis profiles: `dev` (quick, default), `ci` (derandomized, more examples), `deep` (long runs),
`mutate` (what `rules40k mutate` runs each mutant under: 25 examples and state machines of 20 steps, for
thousands of mutants: fewer examples can only let more mutants survive, never inflate a score; derandomized, so a survivor is reproducible,
and no example database, so one mutant's failures never replay against the next).

Pick one with HYPOTHESIS_PROFILE=ci (the CI script does) or `pytest --hypothesis-profile=deep`.
"""

import os

from hypothesis import HealthCheck, settings

# too_slow is no verdict on a rule: on a loaded machine a whole drawn game can take long enough to trip it, and
# `verify` (dev by default) then failed a ledger property that passes.
settings.register_profile("dev", max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("ci", max_examples=200, deadline=None, derandomize=True,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("mutate", max_examples=25, stateful_step_count=20, deadline=None, derandomize=True,
                          database=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("deep", max_examples=3000, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))
