"""Public hypothesis strategies for battlefields: models (round bases and FRAME outlines), terrain features with
openings, terrain areas and whole battlefields.

Every strategy takes keyword-only arguments, so call sites read in the rules' terms:
``battlefields(max_areas=2, spread=30)``. Coordinates are exact Fractions (eighths of an inch by default); the
geometry turns them into floats (interpretation geometry-battlefield-model).
"""

from __future__ import annotations

from fractions import Fraction

from hypothesis import strategies as st

from properties.strategies import BASE_SIZES, inches
from rules import battlefield
from rules.battlefield import Battlefield, Body, Opening, TerrainArea, TerrainFeature

CATEGORIES = ("exposed", "light", "dense")


def rectangles(*, spread: int = 30, min_size: int = 1, max_size: int = 8,
               denominator: int = 4) -> st.SearchStrategy[tuple[tuple[Fraction, Fraction], ...]]:
    """An axis-aligned rectangle's outline (counter-clockwise) inside a ``spread``-inch square."""
    def build(x, y, w, d):
        return ((x, y), (x + w, y), (x + w, y + d), (x, y + d))

    size = inches(low=min_size, high=max_size, denominator=denominator).filter(lambda v: v > 0)
    return st.builds(build, inches(high=spread, denominator=denominator), inches(high=spread, denominator=denominator),
                     size, size)


def bodies(*, spread: int = 30, max_z: int = 0, owner: int = 1, frame: bool | None = False) -> st.SearchStrategy[Body]:
    """A model: a round base from BASE_SIZES (``frame=False``), a FRAME model with a rectangular outline turned by a
    multiple of 15 degrees (``frame=True``), or either (``frame=None``); standing at most ``max_z`` inches up."""
    z = inches(high=max_z) if max_z else st.just(Fraction(0))
    height = st.sampled_from([Fraction(1), Fraction(3, 2), Fraction(3), Fraction(5)])
    round_bases = st.builds(Body, x=inches(high=spread), y=inches(high=spread), base_mm=st.sampled_from(BASE_SIZES),
                            z=z, owner=st.just(owner), height=height)

    def frame_model(x, y, w, d, turn, zz, h):
        outline = ((x - w / 2, y - d / 2), (x + w / 2, y - d / 2), (x + w / 2, y + d / 2), (x - w / 2, y + d / 2))
        model = Body(x, y, 0, zz, "", owner, h, outline)
        return battlefield.rotate_frame(model, turn) if turn else model

    side = inches(low=1, high=6, denominator=2).filter(lambda v: v > 0)
    frames = st.builds(frame_model, inches(high=spread), inches(high=spread), side, side,
                       st.sampled_from(range(0, 180, 15)), z, height)
    if frame is None:
        return st.one_of(round_bases, frames)
    return frames if frame else round_bases


def terrain_features(*, outline: tuple, categories: tuple[str, ...] = CATEGORIES,
                     openings: bool = True) -> st.SearchStrategy[TerrainFeature]:
    """A terrain feature on ``outline``: a category, a height of 0-8", and perhaps an opening through its whole
    footprint between two heights (a window or doorway)."""
    def build(category, height, window):
        gaps = ()
        if window is not None and height > 0:
            bottom, span = window
            gaps = (Opening(outline, min(bottom, height), min(bottom + span, height)),)
        return TerrainFeature(outline, category, height, gaps)

    window = st.tuples(inches(high=6, denominator=2), inches(low=1, high=3, denominator=2)) if openings else st.none()
    return st.builds(build, st.sampled_from(categories), inches(high=8, denominator=2),
                     st.one_of(st.none(), window))


@st.composite
def terrain_areas(draw, *, spread: int = 30, min_features: int = 0, max_features: int = 2,
                  categories: tuple[str, ...] = CATEGORIES) -> TerrainArea:
    """A rectangular terrain area with ``min_features`` to ``max_features`` features placed wholly within it."""
    x0, y0 = draw(inches(high=spread, denominator=2)), draw(inches(high=spread, denominator=2))
    w, d = draw(inches(low=2, high=10, denominator=2)), draw(inches(low=2, high=10, denominator=2))
    outline = ((x0, y0), (x0 + w, y0), (x0 + w, y0 + d), (x0, y0 + d))
    features = []
    for _ in range(draw(st.integers(min_features, max(min_features, max_features)))):
        fx = draw(st.fractions(x0, x0 + w - Fraction(1, 2)).map(lambda v: Fraction(round(v * 4), 4)))
        fy = draw(st.fractions(y0, y0 + d - Fraction(1, 2)).map(lambda v: Fraction(round(v * 4), 4)))
        fw = draw(st.fractions(Fraction(1, 4), x0 + w - fx).map(lambda v: max(Fraction(1, 4), Fraction(int(v * 4), 4))))
        fd = draw(st.fractions(Fraction(1, 4), y0 + d - fy).map(lambda v: max(Fraction(1, 4), Fraction(int(v * 4), 4))))
        fw, fd = max(Fraction(1, 4), min(fw, x0 + w - fx)), max(Fraction(1, 4), min(fd, y0 + d - fy))
        feature_outline = ((fx, fy), (fx + fw, fy), (fx + fw, fy + fd), (fx, fy + fd))
        features.append(draw(terrain_features(outline=feature_outline, categories=categories)))
    return TerrainArea(outline, tuple(features))


def battlefields(*, spread: int = 30, max_areas: int = 3, categories: tuple[str, ...] = CATEGORIES,
                 solid_height: int = 3) -> st.SearchStrategy[Battlefield]:
    """A battlefield ``spread`` + 12 inches square with up to ``max_areas`` terrain areas."""
    return st.builds(lambda areas: Battlefield(spread + 12, spread + 12, areas=tuple(areas), solid_height=solid_height),
                     st.lists(terrain_areas(spread=spread, categories=categories), max_size=max_areas))
