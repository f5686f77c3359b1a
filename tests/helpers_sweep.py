"""Stand-in rule functions for the outcome sweep tests (tests/test_review_sweep.py), used as overrides.

They must not import ``rules``: an override replaces a rule function, and these stand on their own.
"""

from __future__ import annotations


def wound_threshold_no_two_plus(strength: int, toughness: int) -> int:
    """05.02's Strength-against-Toughness table with its best band removed: twice the Toughness needs 3+."""
    if strength > toughness:
        return 3
    if strength == toughness:
        return 4
    if 2 * strength > toughness:
        return 5
    return 6
