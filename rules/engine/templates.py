"""Templates over a formation, exactly where it can be: the geometry no edition owns.

A scattered marker's centre lands on a ring: the aim point plus a distance in a direction uniform on the circle.
For one distance, the outcome (which models are covered, whether the centre is on the table) can change only
where the ring crosses a circle around a model's base or a table edge, so the ring is cut at those crossings
and each piece's share is its length over 2 pi; the outcome of a piece is read by the ruleset's own test at a
point near its middle with exact rational coordinates (so a ring running along a base's reach, touching it all
round, is read as touching). A ring with no crossing has one outcome, read at exact points: that share is
exact. Crossing angles are irrational (arc cosines), so a cut ring's shares are floats with a stated bound.

Error bound. A crossing is computed from exact rationals: cos^2 and sin^2 of its half-angle are exact
Fractions, each rounded once to a float, square-rooted and passed to atan2 (about 1 ulp each), then added to
the direction of the centre (atan2 of rounded coordinates). Relative errors of 2 ulp in both arguments of
atan2 move its angle by at most 2 ulp absolute, so each crossing is within ENDPOINT_ERROR (1e-13 rad, some
hundred times the ulp sum at angles up to 2 pi) of the true one. A share moves by at most the errors of its two
ends, and a piece read at its middle can be misread only when it is shorter than the errors around it, so each
probability is off by at most (number of crossings) x ENDPOINT_ERROR / pi over a ring (the point read is
exact; it lies within a rounding of the middle, far inside any piece longer than the errors), and the mixture over
distances (exact weights summing to 1) keeps the largest ring bound.

The teardrop is placed, not scattered: turned about its firer, the set it covers changes only at the angles
where its edge touches a base, and the same cut-and-read sweep finds the turn covering the most.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Callable, Hashable, Mapping, Sequence

TAU = 2 * math.pi
ENDPOINT_ERROR = 1e-13  # radians: the most a computed crossing angle is off (module docstring)

Number = Fraction | float
Point = tuple[Number, Number]


@dataclass(frozen=True)
class Circle:
    """A circle in inches: a base's reach, or a table-free shape's edge."""

    x: Number
    y: Number
    radius: Number


@dataclass(frozen=True)
class Table:
    """The table: x from 0 to width, y from 0 to depth."""

    width: Number
    depth: Number


@dataclass
class Law:
    """A distribution over outcomes: ``exact`` shares (Fractions) plus ``numeric`` shares (floats) from cut
    rings, each numeric probability within ``bound`` of the truth."""

    exact: dict[Hashable, Fraction] = field(default_factory=dict)
    numeric: dict[Hashable, float] = field(default_factory=dict)
    bound: float = 0.0

    def outcomes(self) -> list:
        """Every outcome with a share: the exact ones first, then the numeric ones."""
        return list(self.exact) + [key for key in self.numeric if key not in self.exact]

    def is_exact(self) -> bool:
        """True when no ring was cut: every share is a Fraction."""
        return not self.numeric


def _angle(theta: float) -> float:
    """An angle in [0, 2 pi)."""
    theta = math.fmod(theta, TAU)
    return theta + TAU if theta < 0 else theta


def _half_angle(cos_squared: Fraction, cosine_negative: bool) -> float:
    """The angle in (0, pi) whose cosine has the given square and sign, from exact squares (see the bound)."""
    return math.atan2(math.sqrt(float(1 - cos_squared)), -math.sqrt(float(cos_squared)) if cosine_negative
                      else math.sqrt(float(cos_squared)))


def ring_meets_circle(aim: Point, distance: Number, circle: Circle) -> list[float]:
    """The directions in which a point ``distance`` from ``aim`` lies on the circle: two, or none when the ring
    misses it, lies wholly inside or outside it, or only touches it (one direction has no length)."""
    dx, dy = Fraction(circle.x) - Fraction(aim[0]), Fraction(circle.y) - Fraction(aim[1])
    d, r = Fraction(distance), Fraction(circle.radius)
    centre_squared = dx * dx + dy * dy
    if d == 0 or centre_squared == 0:
        return []
    numerator = d * d + centre_squared - r * r  # cos = numerator / (2 d L), L the distance to the centre
    cos_squared = numerator * numerator / (4 * d * d * centre_squared)
    if cos_squared >= 1:
        return []
    towards = math.atan2(float(dy), float(dx))
    half = _half_angle(cos_squared, numerator < 0)
    return [_angle(towards - half), _angle(towards + half)]


def ring_touches_circle(aim: Point, distance: Number, circle: Circle) -> list[float]:
    """The one direction in which the ring only touches the circle, or none: an outcome read there is not its
    neighbours' (a base touching the marker there and nowhere else), so it is never read there."""
    dx, dy = Fraction(circle.x) - Fraction(aim[0]), Fraction(circle.y) - Fraction(aim[1])
    d, r = Fraction(distance), Fraction(circle.radius)
    centre_squared = dx * dx + dy * dy
    numerator = d * d + centre_squared - r * r
    if d == 0 or centre_squared == 0 or numerator * numerator != 4 * d * d * centre_squared:
        return []
    towards = math.atan2(float(dy), float(dx))
    return [_angle(towards if numerator > 0 else towards + math.pi)]


def ring_points(aim: Point, distance: Number, count: int) -> list[Point]:
    """``count`` different points of the ring with exact rational coordinates (the rational parametrisation of
    the circle: t = 0, 1, 2, ...)."""
    ax, ay, d = Fraction(aim[0]), Fraction(aim[1]), Fraction(distance)
    return [(ax + d * (1 - t * t) / (1 + t * t), ay + d * 2 * t / (1 + t * t)) for t in range(count)]


def ring_meets_table_edges(aim: Point, distance: Number, table: Table) -> list[float]:
    """The directions in which a point ``distance`` from ``aim`` crosses one of the table's four edge lines."""
    d = Fraction(distance)
    if d == 0:
        return []
    out: list[float] = []
    for offset, along_x in ((-Fraction(aim[0]), True), (Fraction(table.width) - Fraction(aim[0]), True),
                            (-Fraction(aim[1]), False), (Fraction(table.depth) - Fraction(aim[1]), False)):
        ratio = offset / d  # cos (edge x = const) or sin (edge y = const) of the crossing direction
        if ratio * ratio >= 1:
            continue
        half = _half_angle(ratio * ratio, ratio < 0)  # the angle in (0, pi) whose cosine is ratio
        if along_x:
            out += [_angle(half), _angle(-half)]
        else:
            out += [_angle(math.pi / 2 - half), _angle(math.pi / 2 + half)]
    return out


def point_on_ring(aim: Point, distance: Number, theta: float) -> Point:
    """A point of the ring with exact rational coordinates in direction ``theta`` (to within a rounding of its
    tangent): read there, an outcome is exact even where the ring runs along a base's reach."""
    turned = abs(_angle(theta) - math.pi) < math.pi / 2  # the far half: measure from the opposite point
    t = Fraction(math.tan((_angle(theta) - (math.pi if turned else 0)) / 2))
    sign = -1 if turned else 1
    d = Fraction(distance)
    return (Fraction(aim[0]) + sign * d * (1 - t * t) / (1 + t * t), Fraction(aim[1]) + sign * d * 2 * t / (1 + t * t))


def sweep(cuts: Sequence[float], outcome_at: Callable[[float], Hashable]) -> dict[Hashable, float]:
    """Shares of the circle of directions by outcome, given every angle where the outcome can change: each piece
    between neighbouring cuts is read at its middle and weighs its length over 2 pi."""
    angles = sorted(set(cuts))
    shares: dict[Hashable, float] = {}
    for i, start in enumerate(angles):
        end = angles[i + 1] if i + 1 < len(angles) else angles[0] + TAU
        key = outcome_at(_angle((start + end) / 2))
        shares[key] = shares.get(key, 0.0) + (end - start) / TAU
    return shares


def ring_law(aim: Point, distance: Number, circles: Sequence[Circle], table: Table | None,
             outcome_at: Callable[[Point], Hashable]) -> tuple[dict[Hashable, Fraction], dict[Hashable, float], float]:
    """Where a centre ``distance`` from ``aim`` in a uniform direction leads: (exact shares, numeric shares,
    bound). ``outcome_at`` reads the outcome at a centre point; ``circles`` and ``table`` are every line across
    which it can change."""
    cuts = [theta for circle in circles for theta in ring_meets_circle(aim, distance, circle)]
    if table is not None:
        cuts += ring_meets_table_edges(aim, distance, table)
    touches = [theta for circle in circles for theta in ring_touches_circle(aim, distance, circle)]
    if not cuts:  # one outcome all round but at the points where a circle only touches the ring: read it at
        # exact points, one more than twice those, and keep the outcome most of them agree on
        readings = [outcome_at(point) for point in ring_points(aim, distance, 2 * len(touches) + 1)]
        return {max(readings, key=readings.count): Fraction(1)}, {}, 0.0
    shares = sweep(cuts + touches, lambda theta: outcome_at(point_on_ring(aim, distance, theta)))
    return {}, shares, len(cuts) * ENDPOINT_ERROR / math.pi


def scattered_law(aim: Point, distances: Mapping[Number, Fraction], circles: Sequence[Circle],
                  table: Table | None, outcome_at: Callable[[Point], Hashable]) -> Law:
    """The distribution of outcomes for a centre scattered from ``aim`` by a distance law (exact weights) in a
    direction uniform on the circle; distance 0 leaves it on the aim point."""
    law = Law()
    for distance, weight in distances.items():
        exact, numeric, bound = ring_law(aim, distance, circles, table, outcome_at)
        for key, share in exact.items():
            law.exact[key] = law.exact.get(key, Fraction(0)) + weight * share
        for key, share in numeric.items():
            law.numeric[key] = law.numeric.get(key, 0.0) + float(weight) * share
        law.bound = max(law.bound, bound)
    return law


# -- The teardrop: two circles and the hull around them -----------------------------------------------------------


@dataclass(frozen=True)
class Teardrop:
    """A teardrop template turned about a pivot: its narrow end's circle (radius ``narrow``) touches a point
    ``offset`` from the pivot, its length runs out from there, its wide end is a circle of radius ``wide``, and
    the template is the hull of the two circles."""

    length: float
    narrow: float
    wide: float
    offset: float = 0.0

    @property
    def narrow_centre(self) -> float:
        """How far along the axis from the pivot the narrow end's circle is centred."""
        return self.offset + self.narrow

    @property
    def wide_centre(self) -> float:
        """How far along the axis from the pivot the wide end's circle is centred."""
        return self.offset + self.length - self.wide


def teardrop_gap(template: Teardrop, along: float, across: float) -> float:
    """How far a point (``along`` the axis from the pivot, ``across`` it) lies outside the template, 0 inside:
    the distance to the hull of the two end circles."""
    a, b = template.narrow, template.wide
    h = template.wide_centre - template.narrow_centre
    x, y = abs(across), along - template.narrow_centre
    slope = (a - b) / h  # the sides' tilt: sine of their angle to the axis
    cosine = math.sqrt(1 - slope * slope)
    k = -slope * x + cosine * y
    if k < 0:
        gap = math.hypot(x, y) - a
    elif k > cosine * h:
        gap = math.hypot(x, y - h) - b
    else:
        gap = cosine * x + slope * y - a
    return max(gap, 0.0)


def teardrop_turns_touching(template: Teardrop, point: Point, reach: float) -> list[float]:
    """The turns of the template about the pivot (at the origin) at which its edge, grown by ``reach``, passes
    through ``point``: every turn where covering a base of that reach can begin or end (a superset)."""
    px, py = float(point[0]), float(point[1])
    s = math.hypot(px, py)
    if s == 0:
        return []
    bearing = math.atan2(py, px)
    offsets: list[float] = []  # the point's angle off the template's axis at a touch
    for centre, radius in ((template.narrow_centre, template.narrow + reach),
                           (template.wide_centre, template.wide + reach)):
        cosine = (s * s + centre * centre - radius * radius) / (2 * s * centre)
        if -1 < cosine < 1:
            offsets += [math.acos(cosine), -math.acos(cosine)]
    a, b = template.narrow + reach, template.wide + reach
    h = template.wide_centre - template.narrow_centre
    normal_along = (b - a) / h
    normal_across = math.sqrt(max(1 - normal_along * normal_along, 0.0))
    level = normal_along * template.narrow_centre - a  # the side line: normal . p = level
    if -1 < level / s < 1:
        for sign in (1, -1):
            direction = math.atan2(sign * normal_across, normal_along)
            offsets += [direction + math.acos(level / s), direction - math.acos(level / s)]
    return [_angle(bearing - offset) for offset in offsets]


def teardrop_frame(pivot: Point, turn: float, point: Point) -> tuple[float, float]:
    """A point's place in the frame of a template turned ``turn`` about ``pivot``: (along, across)."""
    dx, dy = float(point[0]) - float(pivot[0]), float(point[1]) - float(pivot[1])
    return dx * math.cos(turn) + dy * math.sin(turn), -dx * math.sin(turn) + dy * math.cos(turn)


@dataclass
class Placement:
    """The best turn found: the covered indices, the turn (radians, the middle of the best piece) and the width
    of the piece of turns covering that many (radians)."""

    covered: tuple[int, ...]
    turn: float
    width: float


def best_teardrop_turn(template: Teardrop, pivot: Point, points: Sequence[Point], reaches: Sequence[float],
                       covers: Callable[[float, int], bool]) -> Placement:
    """The turn of the template about ``pivot`` covering the most of the given points (each with a reach, a
    base's radius); ``covers(gap, index)`` is the ruleset's test. Ties go to the widest piece of turns."""
    cuts: list[float] = []
    for (px, py), reach in zip(points, reaches):
        cuts += teardrop_turns_touching(template, (float(px) - float(pivot[0]), float(py) - float(pivot[1])),
                                        reach)
    angles = sorted(set(cuts)) or [0.0]
    best = Placement((), 0.0, 0.0)
    for i, start in enumerate(angles):
        end = angles[i + 1] if i + 1 < len(angles) else angles[0] + TAU
        turn = _angle((start + end) / 2)
        covered = tuple(j for j, point in enumerate(points)
                        if covers(teardrop_gap(template, *teardrop_frame(pivot, turn, point)), j))
        if (len(covered), end - start) > (len(best.covered), best.width):
            best = Placement(covered, turn, end - start)
    return best
