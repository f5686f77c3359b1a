"""Rules appendix: starting strength and half-strength, destroyed, revived and the other appendix entries."""

from __future__ import annotations
