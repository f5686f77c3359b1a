"""The battlefield as geometry: models, FRAME models, terrain areas and features, objective markers.

Interpretation ``geometry-battlefield-model``: the battlefield is seen from
above, with heights. A model is a round base (a circle at the height ``z`` of
the surface it stands on) carrying a body ``height`` inches tall; a FRAME model
(17.02) is its outline from above, standing from ``z`` to ``z + height``. A
terrain feature is a prism (its footprint from the ground to its ``height``)
with openings (windows, doorways, gaps) where sight passes; a terrain area is a
polygon on the ground. Distances are measured between closest points
(horizontally in the plane, vertically between heights), exactly for the
formulas below and in floating point through shapely, with the tolerance
``TOLERANCE``. "Any part to any part" (06.01) is approximated by sight lines
between sample points of the two bodies, each tested exactly (in floats)
against every prism and terrain area.

The rule predicates the geometry feeds (hidden, obscuring, Solid, cover, the
movement table) live in ``rules.core.terrain`` and are looked up at call time,
so a test that swaps in a broken rule changes the geometry's answers too.
"""

from __future__ import annotations

import enum
import math
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any, Iterable, Iterator, Sequence

from rules.logic import DeferredModule
from rules.model import MM_PER_INCH, Placed
from rules.registry import rule

# numpy and shapely are imported on first use: the calculator and most commands never measure a battlefield.
np: Any = DeferredModule(globals(), "np", "numpy")
shapely: Any = DeferredModule(globals(), "shapely", "shapely", "shapely.affinity", "shapely.geometry.polygon")


def __getattr__(name: str) -> Any:
    """``battlefield.Point`` and the other shapely names this module once imported, for code that reads them here."""
    if name in ("Point", "Polygon", "LineString"):
        return getattr(shapely, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

#: Distances within this many inches of a limit count as at the limit (floats carry ~1e-14 inch of error).
TOLERANCE = 1e-9
#: A model stands this many inches tall unless its Body says otherwise (the rules never need the number).
DEFAULT_MODEL_HEIGHT = Fraction(3, 2)
#: Points sampled around a round base (at its foot, middle and top) for sight lines.
SIGHT_SAMPLES = 8
#: Segments per quarter circle when a round base must become a polygon (blocking sight, sweeping a move).
QUARTER_SEGMENTS = 8
#: An objective marker is a flat circle 40 mm across (rules appendix).
OBJECTIVE_MARKER_MM = 40

Point2 = tuple[Any, Any]
Outline = tuple[Point2, ...]


class GeometryError(ValueError):
    """A shape that cannot stand on a battlefield (a degenerate outline, a negative height)."""


class Category(enum.IntEnum):
    """Terrain categories (13.02): exposed (13.03), light (13.04) and dense (13.05)."""

    EXPOSED = 0
    LIGHT = 1
    DENSE = 2


def category_of(value: Any) -> Category:
    """A terrain category from its name ("dense"), number or member."""
    if isinstance(value, Category):
        return value
    if isinstance(value, str) and value.strip().upper() in Category.__members__:
        return Category[value.strip().upper()]
    if isinstance(value, int) and not isinstance(value, bool) and value in {c.value for c in Category}:
        return Category(value)
    raise GeometryError(f"{value!r} is not a terrain category (exposed, light or dense)")


# -- Shapes ----------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Body(Placed):
    """A model on the battlefield: a round base (``Placed``) with a body ``height`` inches tall above it.

    With an ``outline`` it is a FRAME model (17.02): the outline (inches, seen from above) is the whole
    model, and distances are measured to it rather than to any base; ``x, y`` is its central axis (or
    the centre of its base, ``base_mm``, if it has one; ``base_mm=0`` means no base).
    """

    height: Any = DEFAULT_MODEL_HEIGHT
    outline: Outline = ()

    @property
    def frame(self) -> bool:
        return bool(self.outline)


@dataclass(frozen=True)
class Opening:
    """A gap through a terrain feature (window, doorway, hole): sight passes where a line is inside
    ``outline`` (seen from above) between heights ``bottom`` and ``top``."""

    outline: Outline
    bottom: Any
    top: Any


@dataclass(frozen=True)
class TerrainFeature:
    """A terrain feature: its footprint, category (13.02), height, and any openings through it."""

    outline: Outline
    category: Any = Category.DENSE
    height: Any = 5
    openings: tuple[Opening, ...] = ()
    name: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "category", category_of(self.category))
        if self.height < 0:
            raise GeometryError(f"terrain feature {self.name or self.outline!r} has a negative height")


@dataclass(frozen=True)
class TerrainArea:
    """A terrain area (13.01): a polygon on the ground and the terrain features in it."""

    outline: Outline
    features: tuple[TerrainFeature, ...] = ()
    name: str = ""


@dataclass(frozen=True)
class DeploymentZone:
    """A player's deployment zone: a polygon on the ground."""

    player: int
    outline: Outline


@dataclass(frozen=True)
class Battlefield:
    """The battlefield: ``width`` x ``depth`` inches, deployment zones, terrain areas and objective markers."""

    width: Any = 44
    depth: Any = 60
    deployment_zones: tuple[DeploymentZone, ...] = ()
    areas: tuple[TerrainArea, ...] = ()
    objective_markers: tuple[Placed, ...] = ()
    solid_height: Any = 3  # 13.11: missions may change the height up to which the Solid rule applies

    def features(self) -> Iterator[TerrainFeature]:
        for area in self.areas:
            yield from area.features

    def zone(self, player: int) -> DeploymentZone:
        for zone in self.deployment_zones:
            if zone.player == player:
                return zone
        raise KeyError(f"player {player} has no deployment zone on this battlefield")


def _float(value: Any) -> float:
    return float(Fraction(value) if isinstance(value, str) else value)


def _radius(model: Placed) -> float:
    return float(Fraction(str(model.base_mm)) / 2 / MM_PER_INCH)


@lru_cache(maxsize=8192)
def polygon(outline: Outline) -> shapely.Polygon:
    """The shapely polygon of an outline (a ring of at least three points enclosing some area)."""
    if len(outline) < 3:
        raise GeometryError(f"outline {outline!r} needs at least three points")
    shape = shapely.Polygon([(_float(x), _float(y)) for x, y in outline])
    if not shape.is_valid or shape.area <= 0:
        raise GeometryError(f"outline {outline!r} is not a simple polygon enclosing an area")
    shapely.prepare(shape)
    return shape


@dataclass(frozen=True)
class _Flat:
    """A thing seen from above: a core geometry and a radius around it, and its vertical extent."""

    core: shapely.Geometry
    radius: float
    low: float | None
    high: float | None


def _flat(thing: Any) -> _Flat:
    """How distances see a thing: a round base is its centre plus its radius, at its base height (01.04); a
    FRAME model is its outline from its foot to its top (17.02); an area or zone is its polygon."""
    if isinstance(thing, Body) and thing.frame:
        z = _float(thing.z)
        return _Flat(polygon(thing.outline), 0.0, z, z + _float(thing.height))
    if isinstance(thing, Placed):
        z = _float(thing.z)
        return _Flat(shapely.Point(_float(thing.x), _float(thing.y)), _radius(thing), z, z)
    if isinstance(thing, (TerrainArea, DeploymentZone, TerrainFeature)):
        return _Flat(polygon(thing.outline), 0.0, None, None)
    if isinstance(thing, shapely.Geometry):
        return _Flat(thing, 0.0, None, None)
    raise GeometryError(f"{thing!r} is not something on the battlefield")


# -- Distances (01.04, 17.02) -------------------------------------------------------------------------------


@rule("17.02")
def horizontal_distance(a: Body | TerrainArea | DeploymentZone, b: Body | TerrainArea | DeploymentZone) -> float:
    """The horizontal distance between the closest points of two things: bases, FRAME models (to the closest
    point of the model, not its base), objective markers, terrain areas or zones (0 when they overlap).

    Interpretation: geometry-battlefield-model.
    """
    fa, fb = _flat(a), _flat(b)
    return max(0.0, fa.core.distance(fb.core) - fa.radius - fb.radius)


@rule("17.02")
def vertical_distance(a: Body | TerrainArea | DeploymentZone, b: Body | TerrainArea | DeploymentZone) -> float:
    """The vertical distance between the closest points of two things: a base at its height, a FRAME model over
    its whole height; terrain areas and zones lie at every height."""
    fa, fb = _flat(a), _flat(b)
    if fa.low is None or fb.low is None:
        return 0.0
    return max(0.0, fb.low - fa.high, fa.low - fb.high)


def distance(a: Body | TerrainArea, b: Body | TerrainArea) -> float:
    """The straight-line distance between the closest points of two things (horizontal and vertical together)."""
    return math.hypot(horizontal_distance(a, b), vertical_distance(a, b))


@rule("01.04", "17.02")
def within(a: Body | TerrainArea | DeploymentZone, b: Body | TerrainArea | DeploymentZone, inches: Any,
           vertical: Any = None) -> bool:
    """Whether any part of ``a`` is within ``inches`` of ``b``: horizontally and, if ``vertical`` is given,
    within that vertically; a plain "within X"" is the straight-line distance between closest points.

    Interpretation: within-any-part-wholly-every-part, plain-within-straight-line, within-inclusive.
    """
    if vertical is None:
        return distance(a, b) <= _float(inches) + TOLERANCE
    return (horizontal_distance(a, b) <= _float(inches) + TOLERANCE
            and vertical_distance(a, b) <= _float(vertical) + TOLERANCE)


def _footprint(model: Any, segments: int = QUARTER_SEGMENTS) -> shapely.Geometry:
    """A model's or area's shape from above as a polygon (a round base becomes a polygon inscribed in its circle)."""
    if isinstance(model, Body) and model.frame:
        return polygon(model.outline)
    if isinstance(model, Placed):
        r = _radius(model)
        centre = shapely.Point(_float(model.x), _float(model.y))
        return centre.buffer(r, quad_segs=segments) if r > 0 else centre
    return _flat(model).core


@rule("01.04")
def wholly_within(model: Body, shape: TerrainArea | DeploymentZone | Body, inches: Any = 0) -> bool:
    """Whether every part of a model (its base, or a FRAME model's outline) is within ``inches`` horizontally of
    a shape; with 0, whether it lies wholly inside an area or zone (touching its edge from inside counts).

    Interpretation: within-any-part-wholly-every-part. Exact (in floats) for 0; for more, the model's outline is
    replaced by a polygon around it and the shape's margin by a polygon inside it, so the answer errs towards
    "not wholly within", by at most about radius / 200 + inches / 3000 (under 0.01 inch for bases up to 2 inches
    across and margins up to 12 inches).
    """
    target = _flat(shape).core
    extra = _float(inches)
    if isinstance(model, Body) and model.frame:
        outline = polygon(model.outline)
    elif isinstance(model, Placed):
        centre, r = shapely.Point(_float(model.x), _float(model.y)), _radius(model)
        if extra == 0:
            if not target.covers(centre):
                return False
            edge = target.boundary if isinstance(target, shapely.Polygon) else target
            return r <= centre.distance(edge) + TOLERANCE
        # a polygon around the circle: its vertices lie at r / cos(pi / (4 * QUARTER_SEGMENTS)) from the centre;
        # a model without a base is its centre point
        outline = centre.buffer(r / math.cos(math.pi / (4 * QUARTER_SEGMENTS)), quad_segs=QUARTER_SEGMENTS) \
            if r > 0 else centre
    else:
        raise GeometryError(f"{model!r} is not a model")
    region = target if extra == 0 else target.buffer(extra, quad_segs=4 * QUARTER_SEGMENTS)
    return bool(region.buffer(TOLERANCE).covers(outline))


def unit_within(models: Iterable[Any], shape: Any, inches: Any, vertical: Any = None) -> bool:
    """A unit is within a distance if any of its models is."""
    return any(within(m, shape, inches, vertical) for m in models)


def unit_wholly_within(models: Iterable[Any], shape: Any, inches: Any = 0) -> bool:
    """A unit is wholly within if every one of its models is wholly within."""
    return all(wholly_within(m, shape, inches) for m in models)


def more_than_horizontally(models: Iterable[Any], others: Iterable[Any], inches: Any) -> bool:
    """Whether every model is more than ``inches`` horizontally from every other thing listed."""
    others = list(others)
    return all(horizontal_distance(m, o) > _float(inches) + TOLERANCE for m in models for o in others)


# -- Terrain areas ------------------------------------------------------------------------------------------


@rule("13.08", "13.09")
def within_area(model: Body, area: TerrainArea) -> bool:
    """Whether a model is within a terrain area: any part of its base (FRAME: of the model) on or inside the area.

    Interpretation: within-any-part-wholly-every-part.
    """
    return horizontal_distance(model, area) <= TOLERANCE


def areas_containing(battlefield: Battlefield, model: Body) -> list[TerrainArea]:
    """The terrain areas a model is within."""
    return [area for area in battlefield.areas if within_area(model, area)]


def area_at(battlefield: Battlefield, x: Any, y: Any) -> TerrainArea | None:
    """The first terrain area whose outline covers a point, if any."""
    point = shapely.Point(_float(x), _float(y))
    for area in battlefield.areas:
        if polygon(area.outline).covers(point):
            return area
    return None


def features_crossed(battlefield: Battlefield, model: Body, x: Any, y: Any) -> list[TerrainFeature]:
    """The terrain features a model's base (or FRAME outline) passes over or through moving straight to (x, y)."""
    start = _footprint(model)
    dx, dy = _float(x) - _float(model.x), _float(y) - _float(model.y)
    end = shapely.affinity.translate(start, dx, dy)
    swept = shapely.union_all([start, end, shapely.convex_hull(shapely.union(start, end))])
    return [f for f in battlefield.features() if shapely.intersection(swept, polygon(f.outline)).area > TOLERANCE]


# -- Sight lines (06.01, 13.10, 13.11) ------------------------------------------------------------------------
#
# A sight line is a straight segment between two sample points. Every shape that can block or cross it is cut
# into convex pieces, each a set of half-planes, so all the lines between two models are clipped at once
# (numpy, the Cyrus-Beck method): for each line, the range of t in [0, 1] where p + t (q - p) is inside.


@dataclass(frozen=True)
class _Convex:
    """A convex piece of a shape: inside where ``normals @ point <= offsets``; ``outer`` marks the half-planes
    whose edge lies on the shape's outline (a line running along such an edge is not inside)."""

    normals: np.ndarray
    offsets: np.ndarray
    outer: np.ndarray


def _convex(ring: Sequence[tuple[float, float]], outline: shapely.Geometry) -> _Convex:
    """The half-planes of a counter-clockwise convex ring."""
    normals, offsets, outer = [], [], []
    for (ax, ay), (bx, by) in zip(ring, ring[1:] + ring[:1]):
        dx, dy = bx - ax, by - ay
        norm = math.hypot(dx, dy)
        if norm < 1e-12:
            continue
        nx, ny = dy / norm, -dx / norm
        normals.append((nx, ny))
        offsets.append(nx * ax + ny * ay)
        outer.append(outline.boundary.distance(shapely.Point((ax + bx) / 2, (ay + by) / 2)) < 1e-9)
    return _Convex(np.array(normals), np.array(offsets), np.array(outer, dtype=bool))


def _turns_left(ring: Sequence[tuple[float, float]]) -> bool:
    """Whether a counter-clockwise ring turns left or runs straight at every vertex (it is convex). Judged by the
    turns rather than by comparing areas, which takes a polygon with a notch of tiny area for convex."""
    return all((bx - ax) * (cy - by) - (by - ay) * (cx - bx) >= 0
               for (ax, ay), (bx, by), (cx, cy) in zip(ring[-1:] + ring[:-1], ring, ring[1:] + ring[:1]))


def _convex_pieces(shape: shapely.Geometry) -> tuple[_Convex, ...]:
    """A polygon as convex pieces: itself if convex, else its triangles."""
    shape = shapely.geometry.polygon.orient(shape, 1.0)
    ring = list(shape.exterior.coords)[:-1]
    if _turns_left(ring) and not shape.interiors:
        return (_convex(ring, shape),)
    triangles = shapely.constrained_delaunay_triangles(shape)
    return tuple(_convex(list(shapely.geometry.polygon.orient(t, 1.0).exterior.coords)[:-1], shape)
                 for t in triangles.geoms)


@lru_cache(maxsize=4096)
def _outline_pieces(outline: Outline) -> tuple[_Convex, ...]:
    return _convex_pieces(polygon(outline))


def _clip(start: np.ndarray, step: np.ndarray, piece: _Convex, interior: bool) -> tuple[np.ndarray, np.ndarray]:
    """For lines ``start + t * step`` (t in [0, 1]), the range [enter, leave] inside a convex piece (empty when
    enter >= leave). With ``interior``, a line lying along the outline is outside."""
    num = piece.offsets[None, :] - start @ piece.normals.T
    den = step @ piece.normals.T
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = num / den
    rising, falling = den > 1e-12, den < -1e-12
    leave = np.minimum(1.0, np.where(rising, ratio, np.inf).min(axis=1))
    enter = np.maximum(0.0, np.where(falling, ratio, -np.inf).max(axis=1))
    need = np.where(piece.outer[None, :] & interior, TOLERANCE, -TOLERANCE)
    outside = (~(rising | falling) & (num < need)).any(axis=1)
    return enter, np.where(outside, -1.0, leave)


def _height_window(p: np.ndarray, q: np.ndarray, low: float, high: float, closed_top: bool) -> tuple[np.ndarray, np.ndarray]:
    """For lines p-q, the range of t where the height lies in [low, high) (or [low, high])."""
    pz, dz = p[:, 2], q[:, 2] - p[:, 2]
    flat = np.abs(dz) < 1e-15
    top_ok = (pz <= high + TOLERANCE) if closed_top else (pz < high - TOLERANCE)
    flat_in = (pz >= low - TOLERANCE) & top_ok
    with np.errstate(divide="ignore", invalid="ignore"):
        a, b = (low - pz) / dz, (high - pz) / dz
    lo = np.where(flat, np.where(flat_in, 0.0, 1.0), np.minimum(a, b))
    hi = np.where(flat, np.where(flat_in, 1.0, 0.0), np.maximum(a, b))
    return lo, hi


@dataclass(frozen=True)
class _Prism:
    """Something that blocks sight: a footprint from ``low`` up to ``high``, with openings where sight passes."""

    pieces: tuple[_Convex, ...]
    shape: shapely.Geometry
    low: float
    high: float
    openings: tuple[tuple[tuple[_Convex, ...], float, float, bool], ...] = ()  # pieces, bottom, top, enclosed
    solid: bool = False
    solid_height: float = 3.0


def _feature_prism(feature: TerrainFeature, solid_height: float) -> _Prism:
    from rules.core import terrain

    top = _float(feature.height)
    openings = tuple((_outline_pieces(o.outline), _float(o.bottom), _float(o.top), _float(o.top) < top)
                     for o in feature.openings)
    return _Prism(_outline_pieces(feature.outline), polygon(feature.outline), 0.0, top, openings,
                  bool(terrain.has_solid_rule(feature.category)), solid_height)


def _model_prism(model: Body | Placed) -> _Prism:
    z = _float(model.z)
    shape = _footprint(model)
    pieces = _outline_pieces(model.outline) if isinstance(model, Body) and model.frame else _convex_pieces(shape)
    return _Prism(pieces, shape, z, z + _float(getattr(model, "height", DEFAULT_MODEL_HEIGHT)))


def sample_points(model: Any) -> list[tuple[float, float, float]]:
    """Points of a model that sight lines are drawn from and to: around its base (or along its FRAME outline) at
    its foot, middle and top, and the middle of its top."""
    z = _float(model.z)
    height = _float(getattr(model, "height", DEFAULT_MODEL_HEIGHT))
    levels = (z, z + height / 2, z + height)
    if isinstance(model, Body) and model.frame:
        ring = [(x, y) for x, y in list(polygon(model.outline).exterior.coords)[:-1]]
        ring = ring + [((ax + bx) / 2, (ay + by) / 2) for (ax, ay), (bx, by) in zip(ring, ring[1:] + ring[:1])]
        centre = polygon(model.outline).centroid
        top = (centre.x, centre.y)
    else:
        r, cx, cy = _radius(model), _float(model.x), _float(model.y)
        ring = [(cx + r * math.cos(2 * math.pi * k / SIGHT_SAMPLES), cy + r * math.sin(2 * math.pi * k / SIGHT_SAMPLES))
                for k in range(SIGHT_SAMPLES)] if r > 0 else [(cx, cy)]
        top = (cx, cy)
    points = [(px, py, level) for level in levels for px, py in ring]
    points.append((top[0], top[1], z + height))
    return list(dict.fromkeys(points))


def facing_points(model: Any, observer: Any) -> list[tuple[float, float, float]]:
    """The sample points of a model on the side facing the observer: those from which a line towards the
    observer's centre does not pass through the model's own outline."""
    shape = _footprint(model)
    ox, oy = _float(observer.x), _float(observer.y)
    out = []
    for px, py, pz in sample_points(model):
        if math.hypot(px - ox, py - oy) < 1e-12:
            continue
        if not shapely.LineString([(px, py), (ox, oy)]).relate_pattern(shape, "T********"):
            out.append((px, py, pz))
    return out


def _spans(p: np.ndarray, q: np.ndarray, pieces: Sequence[_Convex], low: float, high: float, *, interior: bool,
           closed_top: bool) -> list[tuple[np.ndarray, np.ndarray]]:
    """Per convex piece, the range of t where each line is inside the piece and between the two heights."""
    start, step = p[:, :2], q[:, :2] - p[:, :2]
    lo, hi = _height_window(p, q, low, high, closed_top)
    out = []
    for piece in pieces:
        enter, leave = _clip(start, step, piece, interior)
        out.append((np.maximum(enter, lo), np.minimum(leave, hi)))
    return out


def _uncovered(spans: Sequence[tuple[float, float]], holes: Sequence[tuple[float, float]]) -> float:
    """The total length of some ranges once other ranges are removed."""
    total = 0.0
    for start, end in spans:
        cursor, left = start, 0.0
        for a, b in sorted(holes):
            if b <= cursor:
                continue
            if a >= end:
                break
            left += max(0.0, a - cursor)
            cursor = max(cursor, b)
        total += left + max(0.0, end - cursor)
    return total


def _blocked(p: np.ndarray, q: np.ndarray, prism: _Prism) -> np.ndarray:
    """Which sight lines pass through the prism's material, or (Solid, 13.11) cross one of its enclosed openings
    where the rule forbids sight."""
    from rules.core import terrain

    length = np.linalg.norm(q - p, axis=1)
    material = _spans(p, q, prism.pieces, prism.low, prism.high, interior=True, closed_top=False)
    inside = np.zeros(len(p), dtype=bool)
    for enter, leave in material:
        inside |= (leave - enter) * length > TOLERANCE
    if not prism.openings:
        return inside
    gaps = [(_spans(p, q, pieces, bottom, top, interior=False, closed_top=True), pieces, bottom, top, enclosed)
            for pieces, bottom, top, enclosed in prism.openings]
    blocked = np.zeros(len(p), dtype=bool)
    for i in np.flatnonzero(inside):
        spans = [(e[i], l[i]) for e, l in material if (l[i] - e[i]) * length[i] > TOLERANCE]
        holes = [(e[i], l[i]) for spans_, *_ in gaps for e, l in spans_ if l[i] > e[i]]
        if _uncovered(spans, holes) * length[i] > TOLERANCE:
            blocked[i] = True
            continue
        # where the line crosses the feature's surface through a gap, at that height (13.11)
        for t in {t for span in spans for t in span}:
            point = p[i] + t * (q[i] - p[i])
            for _spans_, pieces, bottom, top, enclosed in gaps:
                on_gap = bottom - TOLERANCE <= point[2] <= top + TOLERANCE and any(
                    bool((piece.normals @ point[:2] <= piece.offsets + TOLERANCE).all()) for piece in pieces)
                if on_gap and terrain.gap_blocks_sight(prism.solid and enclosed, float(point[2]), prism.solid_height):
                    blocked[i] = True
    return blocked


def _crossing(p: np.ndarray, q: np.ndarray, pieces: Sequence[_Convex]) -> np.ndarray:
    """Which lines, seen from above, pass through the inside of a shape (touching its edge or a corner does not
    count; a line seen from above as a point counts if that point is inside)."""
    start, step = p[:, :2], q[:, :2] - p[:, :2]
    flat_length = np.linalg.norm(step, axis=1)
    out = np.zeros(len(p), dtype=bool)
    for piece in pieces:
        enter, leave = _clip(start, step, piece, True)
        out |= (leave > enter) & (((leave - enter) * flat_length > TOLERANCE) | (flat_length < 1e-12))
    return out


def _terrain(battlefield: Battlefield) -> tuple[list[_Prism], list[tuple[TerrainArea, bool]]]:
    """The battlefield's terrain prisms, and its terrain areas with whether each is obscuring (13.10)."""
    from rules.core import terrain

    solid_height = _float(battlefield.solid_height)
    prisms = [_feature_prism(f, solid_height) for f in battlefield.features()]
    areas = [(area, bool(terrain.is_obscuring_area([f.category for f in area.features]))) for area in battlefield.areas]
    return prisms, areas


def _counting_lines(battlefield: Battlefield, observer: Any, target: Any, others: Sequence[Any], *, obscuring: bool,
                    terrain_only: bool = False, targets: Sequence[tuple[float, float, float]] | None = None) -> np.ndarray:
    """The matrix (observer sample x target point) of sight lines that count: not blocked by a terrain feature
    (with its openings and the Solid rule) or another unit's model, and, with ``obscuring``, crossing no obscuring
    terrain area that neither model is within."""
    sources = np.array(sample_points(observer), dtype=float)
    ends = np.array(targets if targets is not None else sample_points(target), dtype=float).reshape(-1, 3)
    if not len(ends):
        return np.zeros((len(sources), 0), dtype=bool)
    p = np.repeat(sources, len(ends), axis=0)
    q = np.tile(ends, (len(sources), 1))
    hull = shapely.convex_hull(shapely.union(_footprint(observer), _footprint(target)))
    prisms, areas = _terrain(battlefield)
    blockers = prisms + ([] if terrain_only else [_model_prism(m) for m in others])
    ok = np.ones(len(p), dtype=bool)
    if obscuring:
        for area, is_obscuring in areas:
            if is_obscuring and polygon(area.outline).intersects(hull) and not within_area(observer, area) \
                    and not within_area(target, area):
                ok &= ~_crossing(p, q, _outline_pieces(area.outline))
    for prism in blockers:
        if ok.any() and prism.shape.intersects(hull):
            live = np.flatnonzero(ok)
            ok[live] = ~_blocked(p[live], q[live], prism)
    return ok.reshape(len(sources), len(ends))


@rule("06.01")
def line_of_sight(battlefield: Battlefield, observer: Body, target: Body, others: Sequence[Body] = ()) -> bool:
    """Whether a sight line can be drawn from some part of the observer to some part of the target, past the
    terrain features (with their openings and the Solid rule) and the models of other units (``others``: leave
    out the models of both units, which 06.01 ignores).

    Interpretation: geometry-battlefield-model.
    """
    return bool(_counting_lines(battlefield, observer, target, others, obscuring=False).any())


@rule("13.10")
def unobscured_line_of_sight(battlefield: Battlefield, observer: Body, target: Body,
                              others: Sequence[Body] = ()) -> bool:
    """Whether some sight line between the two models is clear and crosses no obscuring terrain area (areas
    either model is within do not count); if none is, the two models are not visible to each other.

    Interpretation: geometry-battlefield-model (a line that only touches an area's edge does not cross it).
    """
    return bool(_counting_lines(battlefield, observer, target, others, obscuring=True).any())


@rule("06.01", "13.08")
def fully_visible_geometry(battlefield: Battlefield, observer: Body, target: Body, others: Sequence[Body] = (),
                           terrain_only: bool = False) -> bool:
    """Whether every part of the target facing the observer can be seen from some part of the observer by a clear
    sight line crossing no obscuring terrain area; with ``terrain_only`` only terrain blocks (13.08 asks whether
    a model is not fully visible *due to terrain*).

    Interpretation: geometry-battlefield-model.
    """
    facing = facing_points(target, observer)
    lines = _counting_lines(battlefield, observer, target, others, obscuring=True, terrain_only=terrain_only,
                            targets=facing)
    return bool(lines.any(axis=0).all())


def on_terrain_section_height(battlefield: Battlefield, model: Body) -> float:
    """The height of the tallest terrain feature section a model's base (or outline) stands over, 0 on open
    ground (used for 'a section of a terrain feature that is 3" or more in height', 22.05, and for whether a
    model is on ground level)."""
    shape = _footprint(model)
    tallest = 0.0
    for feature in battlefield.features():
        if polygon(feature.outline).intersection(shape).area > TOLERANCE:
            tallest = max(tallest, _float(feature.height))
    return tallest


# -- FRAME models (17.02) --------------------------------------------------------------------------------------


@rule("17.02")
def rotate_frame(model: Body, degrees: Any) -> Body:
    """A FRAME model without a base turns any amount about its central axis (through ``x, y``), kept upright: its
    outline turns, its position and height do not (one with a base turns about its base's centre, the same point).
    """
    if not model.frame:
        raise GeometryError("only a FRAME model (a Body with an outline) is rotated with rotate_frame")
    turned = shapely.affinity.rotate(polygon(model.outline), _float(degrees), origin=(_float(model.x), _float(model.y)))
    ring = tuple((round(x, 12) + 0.0, round(y, 12) + 0.0) for x, y in list(turned.exterior.coords)[:-1])
    return Body(model.x, model.y, model.base_mm, model.z, model.name, model.owner, model.height, ring)


# -- Objective markers (rules appendix) --------------------------------------------------------------------------

OBJECTIVES_APPENDIX = "appendix/objectives-not-within-a-terrain-area"


@rule(OBJECTIVES_APPENDIX)
def objective_marker(x: Any, y: Any, z: Any = 0, name: str = "") -> Placed:
    """The objective marker for an objective's location point: a flat circle 40 mm across centred on it (models
    move through markers and may end a move on top of one, so it is never an obstacle)."""
    return Placed(x, y, base_mm=OBJECTIVE_MARKER_MM, z=z, name=name, owner=0)


@rule(OBJECTIVES_APPENDIX, "14.01")
def objective_at(battlefield: Battlefield, x: Any, y: Any, name: str = "") -> TerrainArea | Placed:
    """What an objective is: the terrain area its location point coincides with (a terrain objective, 14.01), or
    else an objective marker centred on that point."""
    area = area_at(battlefield, x, y)
    return area if area is not None else objective_marker(x, y, name=name)


@rule(OBJECTIVES_APPENDIX)
def within_objective_marker_range(model: Body, marker: Placed) -> Any:
    """A model is within range of an objective marker while within 3" horizontally and 5" vertically of it,
    measured to and from the closest part of the marker (and of the base; of the model, if FRAME).

    Exact for round bases (Fractions, or z3 terms for proofs); FRAME models go through the float geometry.
    """
    if isinstance(model, Body) and model.frame:
        return within(model, marker, 3, 5)
    from rules.core import core_concepts

    return core_concepts.within(model, marker, 3, 5)
