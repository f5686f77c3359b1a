"""Checks of chapter 13 that worked examples cannot state: placements 13.01 refuses (an example can only expect an
answer), and the visibility table over every combination of its facts, including the combinations its own checks
leave out as impossible.

Each is exhaustive over a handful of cases, so it needs no hypothesis; ``rules40k mutate`` shows each one failing
for a broken rule (a dropped refusal, a message naming the wrong thing, a dropped row, a narrowed assumption).
"""

from __future__ import annotations

import itertools

import pytest

from rules.battlefield import TerrainFeature
from rules.core import terrain

MAT = ((0, 0), (8, 0), (8, 8), (0, 8))
PAST_THE_MAT = ((6, 6), (10, 6), (10, 7), (6, 7))
VISIBILITY_FACTS = ("line_of_sight", "unobscured_line", "target_hidden", "observer_is_enemy", "within_detection_range",
                    "lone_operative", "within_lone_operative_range")


def _every_combination():
    for values in itertools.product((False, True), repeat=len(VISIBILITY_FACTS)):
        yield dict(zip(VISIBILITY_FACTS, values))


@pytest.mark.refs("13.01")
def test_a_boundary_needs_features_wholly_within_it():
    """13.01: the boundary method places "one or more terrain features wholly within that boundary": a boundary
    with none is refused, and so is a feature reaching past it, named in the message (by its outline if it has no
    name), as the project's errors name what is wrong."""
    with pytest.raises(ValueError, match="needs one or more terrain features"):
        terrain.terrain_area("boundary", [], MAT)
    with pytest.raises(ValueError, match="feature 'ruin' is not wholly within"):
        terrain.terrain_area("boundary", [TerrainFeature(PAST_THE_MAT, name="ruin")], MAT)
    with pytest.raises(ValueError, match=r"feature \(\(6, 6\), .* is not wholly within"):
        terrain.terrain_area("boundary", [TerrainFeature(PAST_THE_MAT)], MAT)


@pytest.mark.refs("06.01", "13.07")
def test_never_visible_without_a_line_of_sight():
    """06.01, 13.07: whatever else holds, a model to which no line of sight can be drawn is not visible, even if a
    caller also claims an unobscured line (which cannot exist without a line of sight)."""
    for facts in _every_combination():
        if not facts["line_of_sight"]:
            assert not terrain.visible(**facts), facts


@pytest.mark.refs("13.07")
def test_visibility_table_checks_cover_every_sight_line_fact():
    """The visibility table's assumption, the domain its no-gap and no-overlap checks cover, leaves out exactly
    what cannot happen: an unobscured line of sight without a line of sight. Every other combination, among them
    the commonest unseen case (no line at all, so no unobscured one), stays checked."""
    for facts in _every_combination():
        possible = facts["line_of_sight"] or not facts["unobscured_line"]
        assert bool(terrain.VISIBILITY.assume(**facts)) == possible, facts
