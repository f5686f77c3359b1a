"""Chapter 19, Attached units: so far the Toughness an attack uses against one (19.02)."""

from __future__ import annotations

from typing import Sequence

from rules.registry import rule


@rule("19.02")
def attached_unit_toughness(bodyguard_toughness: Sequence[int], leader_toughness: Sequence[int]) -> int:
    """Use the highest T among the bodyguard models left; only if none are left, the highest leader/support T."""
    if bodyguard_toughness:
        return max(bodyguard_toughness)
    if leader_toughness:
        return max(leader_toughness)
    raise ValueError("an attack cannot target a unit with no models")
