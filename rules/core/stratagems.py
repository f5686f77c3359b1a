"""Chapter 15, Stratagems: so far the snap shooting type used by Fire Overwatch.

Stratagem use, CP and the other core stratagems are encoded with the game-state model.
"""

from __future__ import annotations

from typing import Any

from rules.core.attack_sequence import Hit
from rules.logic import And, If
from rules.registry import rule

SNAP_SHOOTING_RANGE = 24


@rule("15.09")
def snap_hit_roll(roll: Any) -> Any:
    """Snap shooting: only an unmodified 6 hits, whatever the BS and modifiers (and it is a critical hit)."""
    return If(roll == 6, Hit.CRITICAL_HIT, Hit.FAIL)


@rule("15.09")
def snap_target_allowed(visible: Any, distance: Any, eligible: Any) -> Any:
    """Snap shooting targets one visible, eligible enemy unit within 24"."""
    return And(visible, distance <= SNAP_SHOOTING_RANGE, eligible)
