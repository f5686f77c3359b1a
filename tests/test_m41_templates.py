"""999.m41's blasts, barrages and teardrops over a formation (rules/m41/templates.py on rules/engine/templates.py).

Expected values are worked by hand from 004's text: a small marker is 3" across, a large one 5" with the small
one inside; a Hit! (2 faces of 6, interpretation m41-weapons-scatter-die-faces) leaves the marker, an arrow moves
it 3d3 - BS for a blast (2d6 - BS for a barrage in sight, the full 2d6 out of sight), never below 0 and never
more than half the aim distance; a base touching the marker is under it (interpretation
m41-weapons-touching-base-is-under); a centre beyond the table's edge is a miss. 3d3 totals 3..9 come 1, 3, 6,
7, 6, 3, 1 times in 27; so a BS4 blast moves 0 (3d3 of 3 or 4), 1, 2, 3, 4, 5 inches with chances 4, 6, 7, 6,
3, 1 in 27 on an arrow.
"""

from __future__ import annotations

import json
import math
import random
import re
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.engine import templates as geometry
from rules.m41 import templates, weapons
from rules40k.cli import main

TABLE = {"width": 72, "depth": 48}


def formation(kind="blast", bs=4, aim=(34, 24), firer=(10, 24), bases=((34, 24, 1),), **weapon):
    data = {"table": dict(TABLE), "firer": {"x": firer[0], "y": firer[1]},
            "weapon": {"kind": kind, **({} if kind == "template" else {"BS": bs}), **weapon},
            "bases": [{"name": f"m{i}", "x": x, "y": y, "diameter": d} for i, (x, y, d) in enumerate(bases)]}
    if aim is not None:
        data["aim"] = {"x": aim[0], "y": aim[1]}
    return data


def blast_of(**kw) -> templates.BlastResult:
    return templates.blast(templates.read_formation(formation(**kw)))


def chance(share) -> float:
    return float(share[0]) + share[1]


# -- (1) worked by hand ---------------------------------------------------------------------------------------------


def test_one_model_under_the_aim_point_is_hit_unless_the_blast_moves_3_or_more():
    """1" base under a BS4 small blast aimed 24" away: hit when the centre moves 0, 1 or 2 (reach 1.5 + 0.5 = 2,
    touching counts): 2/6 + 4/6 x (4 + 6 + 7)/27 = 35/81 + 12/81 + 14/81 = 61/81; every ring is concentric with
    the base, so the answer is exact."""
    result = blast_of()
    assert result.hits() == {0: (Fraction(20, 81), 0.0), 1: (Fraction(61, 81), 0.0)}
    assert result.law.is_exact() and result.law.bound == 0
    assert result.model_chances() == [(Fraction(61, 81), 0.0)]


def test_a_close_aim_caps_the_scatter_at_half_the_distance():
    """Aimed 4" away, a BS1 blast (3d3 - 1 is up to 8) moves at most 2": the base under the aim point is always
    hit."""
    result = blast_of(bs=1, firer=(30, 24))
    assert result.hits() == {1: (Fraction(1), 0.0)}
    assert max(result.scatter) == 2


def test_two_far_apart_models_only_the_one_aimed_at_can_be_hit():
    """A second 1" base 20" from the aim point is beyond any BS4 scatter (5" at most, reach 2): the counts are the
    first model's alone, 20/81 none and 61/81 one."""
    result = blast_of(bases=((34, 24, 1), (54, 24, 1)))
    assert result.hits() == {0: (Fraction(20, 81), 0.0), 1: (Fraction(61, 81), 0.0)}
    assert result.model_chances()[1] == (Fraction(0), 0.0)


def test_a_model_exactly_at_the_edge_distance():
    """A 1" base 2" from the aim point touches the unmoved marker (hit on a Hit! and a zero move). Moved d", the
    centre reaches it within the directions where cos(angle) >= (d^2 + 4 - 4) / (4 d) = d / 4, a share
    acos(d/4) / pi: 1/3 at d = 2, none at d = 4 (tangent) or 5 (too far)."""
    result = blast_of(bases=((36, 24, 1),))
    expected = 35 / 81 + 4 / 27 * math.acos(1 / 4) / math.pi + 14 / 81 / 3 + 4 / 27 * math.acos(3 / 4) / math.pi
    got = chance(result.model_chances()[0])
    assert abs(got - expected) <= result.law.bound
    assert 0 < result.law.bound < 1e-9
    assert result.hits()[1][0] == Fraction(35, 81)  # the unmoved part, exact (the tangent ring at 4 is a miss)


def test_a_ring_along_a_base_reach_touches_it_all_round_where_other_bases_cut_it():
    """The base under the aim point is touched all round the ring of radius 2 (reach 1.5 + 0.5), so it is hit at
    moves 0, 1, 2 in every direction: 61/81, though eight bases around it cut that ring into pieces (read in
    floats, a point of that ring falls a rounding outside the reach as often as inside)."""
    result = blast_of(bases=((34, 24, 1), (36.5, 24, 1), (35.8, 25.8, 1), (34, 26.5, 1), (32.2, 25.8, 1),
                             (31.5, 24, 1), (32.2, 22.2, 1), (34, 21.5, 1), (35.8, 22.2, 1)))
    assert not result.law.is_exact()
    assert abs(chance(result.model_chances()[0]) - 61 / 81) <= result.law.bound


def test_a_ring_that_only_touches_a_base_is_never_read_at_the_touch():
    """Aimed 2" from the left edge, a centre moved 5" lies on a ring that a 2" base 2.5" straight along x (reach 1.5
    + 1 = 2.5) touches at one point only: no move of 5 covers it. The edge cuts the ring symmetrically about that
    point, so the on-table piece's middle is the touch itself; the touch must not be read as the piece's outcome."""
    read = templates.read_formation(formation(bs=1, aim=(2, 5), firer=(22, 5), bases=((4.5, 5, 2),)))
    exact, numeric, _ = geometry.ring_law(read.aim, 5, [geometry.Circle(Fraction(9, 2), 5, Fraction(5, 2))],
                                          read.table, lambda centre: templates.blast_outcome(read, centre))
    assert set(exact) | set(numeric) == {templates.MISS, ((), ())}


def test_a_blast_aimed_on_the_table_edge_misses_in_half_the_directions_it_moves():
    """Aimed on the left edge (x = 0): a moving centre goes beyond the edge in half the directions, so the miss
    chance is (1 - 35/81) / 2 = 23/81."""
    result = blast_of(aim=(0, 24), firer=(24, 24), bases=((60, 24, 1),))
    assert abs(chance(result.miss()) - 23 / 81) <= result.law.bound
    assert result.miss()[0] == 0  # every moving ring is cut by the edge


def test_a_barrage_scatters_2d6_minus_bs_in_sight_and_the_full_2d6_out_of_sight():
    """1" base under a BS4 barrage's small marker: in sight it moves 2d6 - 4, within 2" when 2d6 <= 6 (15/36):
    2/6 + 4/6 x 15/36 = 11/18; out of sight the full 2d6 is within 2" only on a 2 (1/36): 1/3 + 1/54 = 19/54."""
    assert blast_of(kind="barrage").model_chances() == [(Fraction(11, 18), 0.0)]
    assert blast_of(kind="barrage", target_in_sight=False).model_chances() == [(Fraction(19, 54), 0.0)]


def test_a_large_blast_splits_the_inner_marker_from_the_outer_ring():
    """1" base under a BS4 large blast: under the inner 3" when the move is 0..2 (61/81), in the outer ring only
    at a move of 3 (reach 2.5 + 0.5 = 3; 4/6 x 6/27 = 12/81), clear at 4 or 5 (8/81)."""
    result = blast_of(kind="large blast")
    assert result.joint_hits() == {(0, 0): (Fraction(8, 81), 0.0), (0, 1): (Fraction(12, 81), 0.0),
                                   (1, 0): (Fraction(61, 81), 0.0)}


def test_the_teardrop_covers_a_line_straight_ahead_and_not_both_sides():
    """Three 1" bases in a line 2, 4 and 6" ahead of the firer fit under the 8 1/4" teardrop together; a base
    behind the firer and one ahead cannot both be covered by a template whose narrow end touches the firer."""
    spec = dict(kind="template", aim=None, narrow_width=1, wide_width=3)
    ahead = templates.teardrop(templates.read_formation(formation(bases=((12, 24, 1), (14, 24, 1), (16, 24, 1)),
                                                                  **spec)))
    assert ahead.covered == ["m0", "m1", "m2"]
    both_sides = templates.teardrop(templates.read_formation(formation(bases=((14, 24, 1), (6, 24, 1)), **spec)))
    assert len(both_sides.covered) == 1


TEARDROP_FORMATION = formation(kind="template", aim=None, narrow_width=0.75, wide_width=2.5, bases=(
    (14, 24, 1), (16, 26, 1), (17, 28, 1), (13, 27, 1), (18, 22, 1), (12, 18, 1), (15.2, 24.9, 1)))


def test_no_turn_of_the_teardrop_covers_more_than_the_sweep_finds():
    """Brute force over 3,600 turns: none covers more bases than the best turn the sweep found, and that turn
    covers what it says."""
    read = templates.read_formation(TEARDROP_FORMATION)
    best = templates.teardrop(read)
    pivot = (read.firer.x, read.firer.y)

    def covered(turn):
        return tuple(i for i, b in enumerate(read.bases)
                     if weapons.template_covers_base(geometry.teardrop_gap(
                         best.template, *geometry.teardrop_frame(pivot, turn, (b.x, b.y))), float(b.diameter)))

    assert covered(best.placement.turn) == best.placement.covered
    assert max(len(covered(math.tau * i / 3600)) for i in range(3600)) <= len(best.placement.covered)
    assert len(best.placement.covered) >= 3


def test_teardrop_gap_is_the_distance_to_the_hull_of_its_end_circles():
    """Narrow circle radius 0.5 centred 0.5 ahead, wide radius 1.5 centred 6.75 ahead (length 8.25): inside is
    0; straight behind the pivot by 1 is 1.5 - 0.5 = 1 from the narrow circle; 1 beyond the tip is 1 off."""
    drop = geometry.Teardrop(8.25, 0.5, 1.5)
    assert geometry.teardrop_gap(drop, 4, 0) == 0
    assert geometry.teardrop_gap(drop, -1, 0) == pytest.approx(1)
    assert geometry.teardrop_gap(drop, 9.25, 0) == pytest.approx(1)
    assert geometry.teardrop_gap(drop, 6.75, 2.5) == pytest.approx(1)
    side = geometry.teardrop_gap(drop, 3.5, 3)  # off the straight side: farther than from the hull's edge
    assert 0 < side < math.hypot(3.5 - 0.5, 3) - 0.5


# -- (2) a dice-rolling simulation of the same rules ----------------------------------------------------------------


def simulate(read: templates.Formation, trials: int, seed: int) -> list[list[int]]:
    """Roll the scatter die, the 3d3 or 2d6 die by die and a direction; decide with m41's rule functions."""
    rng = random.Random(seed)
    aim_distance = templates.aim_distance(read)
    marker = templates.BLAST_KINDS[read.kind]
    rows = []
    for _ in range(trials):
        arrow = rng.randint(1, 6) > weapons.SCATTER_HIT_FACES
        if read.kind in ("barrage", "large barrage"):
            roll = rng.randint(1, 6) + rng.randint(1, 6)
            distance = weapons.barrage_scatter(arrow, roll, read.ballistic_skill, aim_distance, read.target_in_sight)
        else:
            roll = sum(rng.randint(1, 3) for _ in range(3))
            distance = weapons.blast_scatter(arrow, roll, read.ballistic_skill, aim_distance)
        theta = rng.uniform(0, math.tau)
        x = float(read.aim[0]) + float(distance) * math.cos(theta)
        y = float(read.aim[1]) + float(distance) * math.sin(theta)
        if weapons.blast_misses(weapons.beyond_table_edge(x, y, read.table.width, read.table.depth)):
            rows.append([0] * len(read.bases))
            continue
        rows.append([int(weapons.blast_marker_covers_base((x - float(b.x)) ** 2 + (y - float(b.y)) ** 2, marker,
                                                          float(b.diameter))) for b in read.bases])
    return rows


SIMULATED = [
    formation(kind="large blast", bases=((34, 24, 1.25), (35.5, 24.5, 1.25), (33, 26, 1.25), (37, 22, 1.25),
                                         (31, 23, 1.25), (36, 27, 1.25))),
    formation(kind="barrage", bs=3, target_in_sight=False, aim=(3, 45), firer=(30, 20),
              bases=((3, 45, 1), (1, 46.5, 1), (5, 43, 2), (8, 46, 1))),
    formation(kind="blast", bs=2, aim=(20, 20), firer=(20, 30),
              bases=((21, 20, 1), (19, 18.5, 1), (23, 22, 1.5), (17, 23, 1))),
]


@pytest.mark.parametrize("data", SIMULATED, ids=["large-blast", "barrage-in-a-corner", "bs2-blast"])
def test_agrees_with_a_dice_rolling_simulation(data):
    """The exact mean models hit, and each model's chance, lie within 4 standard errors of 20,000 rolled shots."""
    read = templates.read_formation(data)
    result = templates.blast(read)
    rows = simulate(read, 20_000, seed=24)
    n = len(rows)
    totals = [sum(row) for row in rows]
    mean = sum(totals) / n
    sd = math.sqrt(sum((t - mean) ** 2 for t in totals) / (n - 1))
    exact_mean = sum(k * chance(share) for k, share in result.hits().items())
    assert abs(exact_mean - mean) <= 4 * sd / math.sqrt(n) + 1e-12
    for i, share in enumerate(result.model_chances()):
        p = sum(row[i] for row in rows) / n
        assert abs(chance(share) - p) <= 4 * math.sqrt(max(p * (1 - p), 1 / n) / n)


# -- (3) properties --------------------------------------------------------------------------------------------------


@st.composite
def formations(draw, extra=0):
    """A few bases on a grid of 2.5" cells near the aim point (so none overlap), a kind and a BS."""
    cells = draw(st.lists(st.tuples(st.integers(-3, 3), st.integers(-3, 3)), min_size=1 + extra, max_size=5 + extra,
                          unique=True))
    kind = draw(st.sampled_from(("blast", "large blast", "barrage")))
    bs = draw(st.integers(1, 5))
    aim = (draw(st.integers(2, 10)), draw(st.integers(2, 46)))  # near the left edge: the edge cuts rings too
    sizes = [draw(st.sampled_from((1, 1.25, 2))) for _ in cells]
    bases = tuple((aim[0] + Fraction(5, 2) * i, aim[1] + Fraction(5, 2) * j, d) for (i, j), d in zip(cells, sizes))
    bases = tuple((float(x), float(y), d) for x, y, d in bases if 1 <= x <= 71 and 1 <= y <= 47)
    return dict(kind=kind, bs=bs, aim=aim, firer=(aim[0] + 20, aim[1]), bases=bases or ((aim[0], aim[1], 1),))


def at_least(result, k: int) -> float:
    return sum(chance(share) for count, share in result.hits().items() if count >= k)


@settings(max_examples=25, deadline=None)
@given(formations())
def test_the_count_distribution_sums_to_one(kw):
    """The chances of 0, 1, 2... models hit add up to 1 (the miss counted as 0), within the stated bound."""
    result = blast_of(**kw)
    assert abs(sum(chance(share) for share in result.hits().values()) - 1) <= len(result.hits()) * result.law.bound
    assert sum(share[0] for share in result.hits().values()) <= 1


@settings(max_examples=20, deadline=None)
@given(formations(extra=1))
def test_adding_a_model_never_lowers_the_chance_of_hitting_at_least_k(kw):
    """A formation with one more base is hit at least k times at least as often as without it, for every k."""
    fewer = dict(kw, bases=kw["bases"][:-1] or kw["bases"])
    more, less = blast_of(**kw), blast_of(**fewer)
    slack = 4 * (more.law.bound + less.law.bound) * (1 + len(kw["bases"]))
    for k in range(len(kw["bases"]) + 1):
        assert at_least(more, k) >= at_least(less, k) - slack


@pytest.mark.parametrize("aim_distance", [4, 7, 24, Fraction(25, 2)])
@pytest.mark.parametrize("law", ["blast", "barrage"])
def test_a_bigger_bs_never_scatters_further(aim_distance, law):
    """For every distance t, a firer with BS + 1 scatters at most t at least as often as one with BS (exact)."""
    def scatter(bs):
        if law == "blast":
            return weapons.blast_scatter_distribution(bs, aim_distance)
        return weapons.barrage_scatter_distribution(bs, aim_distance, True)

    for bs in range(1, 10):
        worse, better = scatter(bs), scatter(bs + 1)
        for t in set(worse) | set(better):
            assert sum(p for d, p in better.items() if d <= t) >= sum(p for d, p in worse.items() if d <= t)


def test_a_bigger_bs_hits_the_model_aimed_at_at_least_as_often():
    """Through the whole formation law: BS 1 to 6 hit the base under the aim point no less often each step."""
    chances = [chance(blast_of(bs=bs).model_chances()[0]) for bs in range(1, 7)]
    assert chances == sorted(chances) and chances[0] < chances[-1]


# -- the command line ------------------------------------------------------------------------------------------------


def run_cli(tmp_path, capsys, data, *options):
    path = tmp_path / "formation.json"
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    code = main(["template", str(path), *options])
    out, err = capsys.readouterr()
    return code, out, err, path


def test_cli_prints_the_distribution_and_json_gives_exact_parts(tmp_path, capsys):
    code, out, err, _ = run_cli(tmp_path, capsys, formation(), "--json")
    assert code == 0, err
    report = json.loads(out)
    assert report["models_hit"]["1"]["exact"] == "61/81" and report["models_hit"]["1"]["numeric"] == 0
    assert report["bound"] == 0
    code, out, err, _ = run_cli(tmp_path, capsys, formation(kind="large blast"))
    assert code == 0 and "75.3%" in out and "Every chance is exact" in out  # 61/81 inner-only


def test_cli_draws_the_formation(tmp_path, capsys):
    plot = tmp_path / "f.svg"
    code, out, err, _ = run_cli(tmp_path, capsys, formation(bases=((34, 24, 1), (36, 24, 1))), "--plot", str(plot))
    assert code == 0, err
    assert plot.read_text().startswith("<?xml")
    code, out, err, _ = run_cli(tmp_path, capsys, TEARDROP_FORMATION, "--plot", str(tmp_path / "t.png"))
    assert code == 0 and "covers at most" in out and (tmp_path / "t.png").stat().st_size > 0


BAD = [
    (formation(bases=((34, 24, 1), (34.5, 24, 1))), "bases[1] overlaps bases[0]"),
    (formation(bases=((71.8, 24, 1),)), "bases[0] is off the"),
    (formation(kind="flamer"), "weapon.kind must be one of"),
    ({k: v for k, v in formation().items() if k != "table"}, "has no \"table\""),
    (formation(kind="template", aim=None), "weapon has no \"narrow_width\""),
    (formation(aim=None), "has no \"aim\""),
    (formation(bs=0), "weapon.BS must be"),
    (formation(bases=((34, 24, -1),)), "bases[0].diameter must be more than 0"),
    ("{\"table\": ", "not valid JSON"),
]


@pytest.mark.parametrize("data, words", BAD, ids=[w for _, w in BAD])
def test_a_bad_formation_is_one_sentence_naming_the_place_and_writes_nothing(tmp_path, capsys, data, words):
    plot = tmp_path / "never.png"
    code, out, err, path = run_cli(tmp_path, capsys, data, "--plot", str(plot))
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith(f"rules40k template: {path}: ") and words in err
    assert not plot.exists()


# -- the geometry's contracts, piece by piece -----------------------------------------------------------------------


def test_angles_are_kept_in_zero_to_two_pi():
    """_angle maps any angle to [0, 2 pi): 0 stays 0, 0.5 stays 0.5, -0.5 becomes 2 pi - 0.5."""
    assert geometry._angle(0.0) == 0.0 and geometry._angle(0.5) == 0.5
    assert geometry._angle(-0.5) == pytest.approx(math.tau - 0.5)


def test_a_ring_crosses_a_circle_at_the_law_of_cosines_angles():
    """Ring radius 1 about the origin, circle radius 1 about (1, 0): cos = (1 + 1 - 1) / 2 = 1/2, so +-pi/3; a
    circle of radius 2.9 about (1, 0) against a ring of radius 2: cos = (4 + 1 - 8.41) / 4 = -0.8525; a ring
    touching a circle from outside or inside crosses it nowhere, and a ring of radius 0 has no directions."""
    origin = (Fraction(0), Fraction(0))
    assert sorted(geometry.ring_meets_circle(origin, 1, geometry.Circle(1, 0, 1))) == pytest.approx(
        [math.pi / 3, math.tau - math.pi / 3])
    assert sorted(geometry.ring_meets_circle(origin, 2, geometry.Circle(1, 0, Fraction(29, 10)))) == pytest.approx(
        [math.acos(-0.8525), math.tau - math.acos(-0.8525)])
    assert geometry.ring_meets_circle(origin, 1, geometry.Circle(2, 0, 1)) == []
    assert geometry.ring_meets_circle(origin, 1, geometry.Circle(1, 0, 2)) == []
    assert geometry.ring_meets_circle(origin, 0, geometry.Circle(1, 0, 1)) == []
    assert geometry.ring_meets_circle(origin, 1, geometry.Circle(0, 0, 1)) == []


def test_a_ring_touches_a_circle_towards_it_from_outside_and_away_from_it_inside():
    """Ring radius 1 about the origin touches the circle of radius 1 about (2, 0) at direction 0, and the circle
    of radius 2 about (1, 0) (which holds it) at direction pi; a ring of radius 0, a concentric circle or a
    crossing circle is no touch."""
    origin = (Fraction(0), Fraction(0))
    assert geometry.ring_touches_circle(origin, 1, geometry.Circle(2, 0, 1)) == [0.0]
    assert geometry.ring_touches_circle(origin, 1, geometry.Circle(1, 0, 2)) == [pytest.approx(math.pi)]
    assert geometry.ring_touches_circle(origin, 0, geometry.Circle(1, 0, 1)) == []
    assert geometry.ring_touches_circle(origin, 1, geometry.Circle(0, 0, 1)) == []
    assert geometry.ring_touches_circle(origin, 1, geometry.Circle(1, 0, 1)) == []


def test_ring_points_are_different_exact_points_of_the_ring():
    """Every point lies exactly on the ring (radius 3 about (1, 2)) and no two are the same."""
    points = geometry.ring_points((1, 2), 3, 5)
    assert all((x - 1) ** 2 + (y - 2) ** 2 == 9 for x, y in points) and len(set(points)) == 5
    for theta in (0.3, 1.9, 3.3, 5.0):
        x, y = geometry.point_on_ring((1, 2), 3, theta)
        assert (x - 1) ** 2 + (y - 2) ** 2 == 9
        assert (float(x), float(y)) == pytest.approx((1 + 3 * math.cos(theta), 2 + 3 * math.sin(theta)))


def test_a_ring_crosses_the_table_edges_where_it_leaves_the_table():
    """On a 10" table, a ring of radius 2 about (1, 5) crosses x = 0 where cos = -1/2 (2 pi / 3, 4 pi / 3); one
    about (5, 1) crosses y = 0 where sin = -1/2 (7 pi / 6, 11 pi / 6); one about (2, 5) only touches x = 0."""
    table = geometry.Table(10, 10)
    assert sorted(geometry.ring_meets_table_edges((1, 5), 2, table)) == pytest.approx([2 * math.pi / 3,
                                                                                        4 * math.pi / 3])
    assert sorted(geometry.ring_meets_table_edges((5, 1), 2, table)) == pytest.approx([7 * math.pi / 6,
                                                                                        11 * math.pi / 6])
    assert sorted(geometry.ring_meets_table_edges((9, 5), 2, table)) == pytest.approx([math.pi / 3,
                                                                                        math.tau - math.pi / 3])
    assert sorted(geometry.ring_meets_table_edges((5, 9), 2, table)) == pytest.approx([math.pi / 6,
                                                                                        5 * math.pi / 6])
    assert geometry.ring_meets_table_edges((2, 5), 2, table) == []
    assert geometry.ring_meets_table_edges((2, 5), 0, table) == []


def _hull_gap(drop, along, across):
    """Distance to the hull of the two end circles by brute force: the hull is the union of the circles between
    them, centres and radii interpolated."""
    best = math.inf
    for i in range(4001):
        s = i / 4000
        centre = drop.narrow_centre + s * (drop.wide_centre - drop.narrow_centre)
        best = min(best, math.hypot(along - centre, across) - (drop.narrow + s * (drop.wide - drop.narrow)))
    return max(best, 0.0)


@pytest.mark.parametrize("point", [(3, 2), (5, -2.5), (0, 1), (-1, -1), (9.5, 1), (7, 0.5), (2, 0.3), (8, -3)])
def test_teardrop_gap_matches_the_hull_by_brute_force(point):
    """The closed form of the gap agrees with the brute-force distance to the hull of narrow radius 0.4 and wide
    radius 1.3 over length 8.25 with the narrow end 0.5 from the pivot."""
    drop = geometry.Teardrop(8.25, 0.4, 1.3, 0.5)
    assert geometry.teardrop_gap(drop, *point) == pytest.approx(_hull_gap(drop, *point), abs=1e-5)


@pytest.mark.parametrize("point, reach", [((4, 2), 0.5), ((6, -3), 1), ((-2, 1), 0.5), ((1.5, 0.2), 0.25)])
def test_every_turn_where_a_base_comes_under_the_teardrop_is_a_cut(point, reach):
    """Turning the template in 0.05 degree steps, wherever a base of that reach goes from under it to clear of it
    (or back), a turn the sweep cuts at lies within the step."""
    drop = geometry.Teardrop(8.25, 0.4, 1.3, 0.5)
    cuts = geometry.teardrop_turns_touching(drop, point, reach)
    steps = 7200
    under = [geometry.teardrop_gap(drop, *geometry.teardrop_frame((0, 0), math.tau * i / steps, point)) <= reach
             for i in range(steps + 1)]
    changes = [math.tau * (i + 0.5) / steps for i in range(steps) if under[i] != under[i + 1]]
    assert changes, "the case should have a change"
    for turn in changes:
        assert min(abs(math.remainder(turn - cut, math.tau)) for cut in cuts) <= math.tau / steps


def test_the_teardrop_is_sized_from_the_formation():
    """Widths are diameters of the end circles; the narrow end starts at the firer's base edge."""
    read = templates.read_formation(formation(kind="template", aim=None, narrow_width=1, wide_width=3,
                                              bases=((14, 24, 1),)))
    assert templates.teardrop(read).template == geometry.Teardrop(8.25, 0.5, 1.5, 0.0)
    assert read.ballistic_skill is None and read.firer.diameter == 0


# -- the reader's edges ----------------------------------------------------------------------------------------------


def test_bases_and_the_firer_may_touch_the_table_edge_and_each_other():
    """Touching is not overlapping, and a base whose edge is on the table's edge is on the table."""
    data = formation(bases=((0.5, 0.5, 1), (71.5, 47.5, 1), (34, 24, 1), (35, 24, 1)), aim=(0, 24))
    data["firer"] = {"x": 0.5, "y": 24, "diameter": 1}
    read = templates.read_formation(data)
    assert len(read.bases) == 4 and read.bases[0].name == "m0"
    data["bases"] = [{"x": 34, "y": 24, "diameter": 1}]
    assert templates.read_formation(data).bases[0].name == "model 1"
    templates.read_formation(formation(kind="template", aim=None, narrow_width=2, wide_width=2))
    big = formation(bases=((10, 10, 1),), aim=(20, 20), firer=(10, 20))
    big["table"] = {"width": 10 ** 6, "depth": 48}
    templates.read_formation(big)


READER_BAD = [
    (dict(bases=((71.6, 24, 1),)), "bases[0] is off"),
    (dict(bases=((34, 24, 1), (34.9, 24, 1))), "overlaps"),
    (dict(bases=((34, 24, "1"),)), "bases[0].diameter must be a number"),
    (dict(bases=((34, 24, 0),)), "bases[0].diameter must be more than 0"),
    (dict(bases=()), "bases must be a non-empty list"),
    (dict(bs=11), "weapon.BS must be"),
    (dict(kind="template", aim=None, narrow_width=3, wide_width=2), "narrow_width must be at most"),
    (dict(kind="template", aim=None, narrow_width=8, wide_width=8.5), "narrow_width must be at most"),
    (dict(aim=(72.5, 24)), "aim is off"),
]


@pytest.mark.parametrize("changes, words", READER_BAD, ids=[w for _, w in READER_BAD])
def test_the_reader_refuses_with_the_place(changes, words):
    """Each bad formation is refused with a sentence naming the place."""
    with pytest.raises(templates.FormationError, match=re.escape(words)):
        templates.read_formation(formation(**changes))


def test_the_reader_refuses_a_firer_off_the_table_and_a_table_over_a_million_inches():
    """A 1" firer base centred 0.4" from the edge hangs off; a table of 1,000,001" is refused."""
    data = formation()
    data["firer"] = {"x": 0.4, "y": 24, "diameter": 1}
    with pytest.raises(templates.FormationError, match="firer is off"):
        templates.read_formation(data)
    data = formation()
    data["table"]["width"] = 10 ** 6 + 1
    with pytest.raises(templates.FormationError, match="table.width must be at most"):
        templates.read_formation(data)


def test_the_aim_distance_is_exact_when_rational():
    """3-4-5 gives 5; half an inch gives 1/2; a diagonal of half an inch each way is sqrt(1/2), not rational."""
    def distance(aim):
        return templates.aim_distance(templates.read_formation(formation(firer=(10, 10), aim=aim)))

    assert distance((13, 14)) == 5 and distance((10.5, 10)) == Fraction(1, 2)
    assert distance((10.5, 10.5)) == Fraction(math.sqrt(0.5)) and distance((11, 11)) == Fraction(math.sqrt(2))


def test_a_miss_counts_as_no_model_hit():
    """Aimed on the left edge at a base there, a large blast's miss (23/81 of shots) is part of 0 hits, and of
    the (0, 0) split."""
    result = blast_of(kind="large blast", aim=(0, 24), firer=(24, 24), bases=((0.5, 24, 1),))
    assert chance(result.hits()[0]) >= chance(result.miss()) > 0.28
    assert chance(result.joint_hits()[(0, 0)]) == pytest.approx(chance(result.hits()[0]))


# -- the geometry's edge cases, worked by hand (mutation survivors of rules.engine.templates) ---------------------


def test_a_ring_crossing_a_circle_just_past_the_perpendicular_meets_it_on_the_near_side():
    """The unit ring about the origin and the circle (x - 1)^2 + y^2 = 1.44: subtracting, 1 - 2x + 1 = 1.44, so
    they cross at x = 0.28, at the angles +-acos(0.28) (the near side: a cosine above 0, however small)."""
    angles = geometry.ring_meets_circle((0, 0), 1, geometry.Circle(1, 0, Fraction(6, 5)))
    assert sorted(angles) == pytest.approx(sorted([math.acos(0.28), 2 * math.pi - math.acos(0.28)]))


def test_a_ring_touching_a_circle_from_outside_touches_it_towards_its_centre():
    """A ring of 1/4" about the origin and a circle of 1/4" centred 1/2" away along x touch at (1/4, 0): the
    direction 0, towards the circle's centre, not away from it."""
    assert geometry.ring_touches_circle((0, 0), Fraction(1, 4), geometry.Circle(Fraction(1, 2), 0, Fraction(1, 4))) \
        == [0.0]


TEARDROP = geometry.Teardrop(8.25, 0.5, 1.5)  # a flamer's: 1" and 3" ends, the narrow end at the pivot


def test_a_point_beside_the_narrow_end_is_measured_to_the_side_line():
    """The hull's side is the line tangent to both end circles (centres 0.5 and 6.75 along the axis, radii 0.5 and
    1.5): its unit normal n has n_along x 6.25 = 0.5 - 1.5, so n = (across 0.98712, along -0.16), and it lies at
    n . C1 + 0.5 = 0.42. A point 1" along and 2" across is n . P - 0.42 = 1.97424 - 0.16 - 0.42 = 1.39424 outside
    it (nearer than the narrow circle, sqrt(4.25) - 0.5 = 1.5616)."""
    assert geometry.teardrop_gap(TEARDROP, 1.0, 2.0) == pytest.approx(1.39424, abs=1e-5)


def test_the_turns_at_which_a_grown_end_circle_passes_through_a_point():
    """A point 1" from the pivot and a base's reach of 1/2": the narrow circle grown to radius 1, centred 1/2" out,
    passes through it when 1 + 1/4 - 2 x 1/2 x cos(phi) = 1, cos(phi) = 1/4: turns of +-acos(1/4) about its
    bearing (0). The wide circle (centre 6.75, radius 2) never reaches it."""
    turns = geometry.teardrop_turns_touching(TEARDROP, (1.0, 0.0), 0.5)
    for expected in (math.acos(0.25), 2 * math.pi - math.acos(0.25)):
        assert any(abs(turn - expected) < 1e-9 for turn in turns), (expected, turns)


def test_a_point_no_end_circle_can_reach_is_touched_only_by_the_sides():
    """3" out with a reach of 1/2": the grown narrow circle would need cos(phi) = (9 + 1/4 - 1) / 3 = 2.75 and the
    grown wide circle (9 + 45.5625 - 4) / 40.5 = 1.248, both past 1, so only the two side lines touch it, each at
    two turns: 4 turns."""
    assert len(geometry.teardrop_turns_touching(TEARDROP, (3.0, 0.0), 0.5)) == 4


def test_a_point_inside_the_side_lines_reach_is_touched_by_no_side():
    """0.6" out with a reach of 1/2": the grown sides lie 0.92" from the pivot (0.16 x 0.5 - 1 = -0.92), farther
    than the point, so no side passes through it; only the grown narrow circle does (cos(phi) = (0.36 + 0.25 - 1)
    / 0.6 = -0.65: two turns)."""
    assert len(geometry.teardrop_turns_touching(TEARDROP, (0.6, 0.0), 0.5)) == 2


def test_a_template_held_off_the_pivot_touches_a_point_behind_it_nowhere():
    """A template whose narrow end starts 10" out (a big firer's base) and a point 1" from the pivot with no reach:
    the end circles are 9.5" and more away, and the sides lie 0.16 x 10.5 - 0.5 = 1.18" out, past the point: no
    turn touches it."""
    assert geometry.teardrop_turns_touching(geometry.Teardrop(8.25, 0.5, 1.5, 10.0), (1.0, 0.0), 0.0) == []


def test_the_best_turn_for_one_base_ahead_points_at_it():
    """One base 4" straight ahead along x: the turns covering it form one piece symmetric about 0 (it wraps past
    2 pi), so the best turn is 0 and the base is covered."""
    best = geometry.best_teardrop_turn(TEARDROP, (0, 0), [(4, 0)], [0.5], lambda gap, i: gap <= 0.5)
    assert best.covered == (0,)
    assert min(best.turn, 2 * math.pi - best.turn) == pytest.approx(0, abs=1e-9)


def test_a_point_inside_the_grown_narrow_end_is_touched_at_no_turn():
    """0.4" from the pivot with a reach of 1/2": the grown narrow circle (centre 0.5, radius 1) holds it whatever
    the turn (0.4 + 0.5 < 1: cos(phi) would be (0.16 + 0.25 - 1) / 0.4 = -1.475), the grown wide circle is far
    ((0.16 + 45.5625 - 4) / 5.4 = 7.7) and the sides 0.92" out: no turn touches it."""
    assert geometry.teardrop_turns_touching(TEARDROP, (0.4, 0.0), 0.5) == []


def test_the_best_turn_for_a_base_by_the_pivot_spans_every_turn_whose_narrow_end_reaches_it():
    """0.6" from the pivot with a reach of 1/2": covered while the grown narrow circle (centre 0.5 along the axis,
    radius 1) holds it, 0.36 + 0.25 - 0.6 cos(phi) <= 1, i.e. cos(phi) >= -0.65 (the sides lie 0.92" out and the
    grown wide circle is past reach: nothing else touches it). Two cuts, at +-acos(-0.65) about its bearing 0: the
    covering piece wraps past 2 pi, is centred on turn 0 and is 2 acos(-0.65) wide; the other, behind, covers
    nothing."""
    best = geometry.best_teardrop_turn(TEARDROP, (0, 0), [(0.6, 0)], [0.5], lambda gap, i: gap <= 0.5)
    assert best.covered == (0,)
    assert best.width == pytest.approx(2 * math.acos(-0.65), abs=1e-9)
    assert min(best.turn, 2 * math.pi - best.turn) == pytest.approx(0, abs=1e-9)


def _drawn(monkeypatch, result):
    """The figure template_command.plot draws, caught before it is written."""
    from rules40k import atomic, template_command

    caught = {}
    monkeypatch.setattr(atomic, "write_figure", lambda figure, path: caught.setdefault("figure", figure))
    template_command.plot(result, Path("unused.png"))
    return caught["figure"]


def test_the_blast_picture_shows_the_table_rings_markers_and_each_models_chance(monkeypatch):
    """The large blast at six Boyz (examples/m41-large-blast-at-boyz.json): BS4 scatters 0 to 5" (3d3 - 4), so
    the centre's rings are 1" to 5" about the aim point (34, 24), the marker 5" across with its inner 3"; every base
    is drawn at its place and size with its chance in percent; the view holds the firer (10, 24), the aim point
    +-(5 + 2.5)" and 2" more: x from 8 to 43.5, y from 14.5 to 33.5, on an 8 by 7 inch figure."""
    from matplotlib.patches import Circle, Rectangle

    from rules.m41 import templates

    result = templates.blast(templates.read_formation(json.loads(
        (Path(__file__).resolve().parent.parent / "examples" / "m41-large-blast-at-boyz.json").read_text())))
    figure = _drawn(monkeypatch, result)
    axis = figure.axes[0]
    assert tuple(figure.get_size_inches()) == (8, 7)
    table = [p for p in axis.patches if isinstance(p, Rectangle)][0]
    assert (table.get_x(), table.get_y(), table.get_width(), table.get_height()) == (0, 0, 72, 48)
    circles = [(tuple(p.center), p.radius, p.get_linestyle()) for p in axis.patches if isinstance(p, Circle)]
    about_aim = sorted((r, style) for centre, r, style in circles if centre == (34.0, 24.0))
    assert [r for r, style in about_aim if style == "--"] == [1, 2, 3, 4, 5]  # no ring for a Hit!
    assert (2.5, "solid") in about_aim and (1.5, ":") in about_aim  # the marker, and its inner 3"
    chances = [float(e) + n for e, n in result.model_chances()]
    labels = {text.get_text() for text in axis.texts}
    for base, chance in zip(result.formation.bases, chances):
        assert ((float(base.x), float(base.y)), float(base.diameter) / 2, "solid") in circles
        assert f"{100 * chance:.0f}%" in labels
    assert axis.get_xlim() == pytest.approx((8, 43.5)) and axis.get_ylim() == pytest.approx((14.5, 33.5))
    assert axis.get_title() == "Large blast, BS4: chance each model is hit"


def test_the_teardrop_picture_outlines_the_placed_template(monkeypatch):
    """A flamer along a line of three Guardsmen (the worked example's formation): the outline runs from the firer's
    base edge (x = 10.5) out to the template's far end 8 1/4" on (x = 18.75), every point of it on the template's
    edge; the covered bases are shaded as certain (100%)."""
    from matplotlib.patches import Polygon

    from rules.m41 import templates

    formation = templates.read_formation({
        "table": {"width": 72, "depth": 48}, "firer": {"x": 10, "y": 24, "diameter": 1},
        "weapon": {"kind": "template", "narrow_width": 1, "wide_width": 3},
        "bases": [{"x": 12, "y": 24, "diameter": 1}, {"x": 14, "y": 24, "diameter": 1},
                  {"x": 16, "y": 24, "diameter": 1}]})
    result = templates.teardrop(formation)
    axis = _drawn(monkeypatch, result).axes[0]
    outline = [p for p in axis.patches if isinstance(p, Polygon)][0].get_xy()
    assert min(x for x, _ in outline) == pytest.approx(10.5, abs=1e-6)
    assert max(x for x, _ in outline) == pytest.approx(18.75, abs=1e-6)
    assert max(abs(y - 24) for _, y in outline) == pytest.approx(1.5, abs=1e-3)  # the wide end, 3" across
    assert [text.get_text() for text in axis.texts] == ["100%", "100%", "100%"]
    assert axis.get_title() == "Teardrop: 3 model(s) covered at best"


def test_the_template_commands_json_and_text_as_a_reader_gets_them(tmp_path, capsys):
    """--json is indented by 2 and gives the exact part apart: for the six Boyz, 3 models hit has the exact part
    35/81 (a Hit!, 1/3, and a scatter of 0, 2/3 x 4/27: the README's example). A teardrop that can cover no model
    says so: "none"."""
    boyz = json.loads((Path(__file__).resolve().parent.parent / "examples" / "m41-large-blast-at-boyz.json").read_text())
    code, out, _, _ = run_cli(tmp_path, capsys, boyz, "--json")
    assert code == 0 and out.startswith('{\n  "kind": "large blast"')
    answer = json.loads(out)
    assert answer["models_hit"]["3"]["exact"] == "35/81"
    parts = [*answer["models_hit"].values(), answer["miss_beyond_table_edge"], *answer["model_chances"].values()]
    assert any(part["numeric"] > 0 for part in parts)  # rings cut by bases: the probability is exact + numeric
    for part in parts:
        assert part["probability"] == pytest.approx(float(Fraction(part["exact"])) + part["numeric"], abs=1e-15)
    far = {"table": {"width": 72, "depth": 48}, "firer": {"x": 10, "y": 24, "diameter": 1},
           "weapon": {"kind": "template", "narrow_width": 1, "wide_width": 3},
           "bases": [{"name": "Far", "x": 40, "y": 24, "diameter": 1}]}
    code, out, _, _ = run_cli(tmp_path, capsys, far)
    assert code == 0 and "covers at most 0 model(s): none" in out


def test_the_blast_picture_stops_an_inch_past_the_table(monkeypatch):
    """A small blast aimed into the corner (1, 1) by a firer at (47, 1) of a 48 by 24 table: the view would run
    from 1 - (scatter 5 + marker 1.5) - 2 = -7.5 to 47 + 2 = 49, and from -7.5 to 1 + 6.5 + 2 = 9.5; it stops an inch
    past each edge it reaches: x from -1 to 49, y from -1 to 9.5."""
    from rules.m41 import templates

    result = templates.blast(templates.read_formation({
        "table": {"width": 48, "depth": 24}, "firer": {"x": 47, "y": 1}, "aim": {"x": 1, "y": 1},
        "weapon": {"kind": "blast", "BS": 4}, "bases": [{"x": 1, "y": 1, "diameter": 1}]}))
    axis = _drawn(monkeypatch, result).axes[0]
    assert axis.get_xlim() == pytest.approx((-1, 49)) and axis.get_ylim() == pytest.approx((-1, 9.5))


def test_the_blast_picture_stops_an_inch_past_the_far_edges(monkeypatch):
    """The same small blast aimed at (46.5, 22.5), near the far corner, by a firer at (2, 20): the view would run
    from 2 - 2 = 0 to 46.5 + 6.5 + 2 = 55, and from 22.5 - 6.5 - 2 = 14 to 22.5 + 6.5 + 2 = 31; it stops an inch
    past the far edges: x from 0 to 49, y from 14 to 25."""
    from rules.m41 import templates

    result = templates.blast(templates.read_formation({
        "table": {"width": 48, "depth": 24}, "firer": {"x": 2, "y": 20}, "aim": {"x": 46.5, "y": 22.5},
        "weapon": {"kind": "blast", "BS": 4}, "bases": [{"x": 46.5, "y": 22.5, "diameter": 1}]}))
    axis = _drawn(monkeypatch, result).axes[0]
    assert axis.get_xlim() == pytest.approx((0, 49)) and axis.get_ylim() == pytest.approx((14, 25))


def test_the_blast_picture_shades_and_labels_each_base_by_its_chance(monkeypatch):
    """Each base is filled with the colour its chance has on the colour bar, which runs from 0 (never hit) to 1
    (always), and its percentage sits on the top of its base (its centre plus its radius)."""
    import matplotlib

    from rules.m41 import templates

    result = templates.blast(templates.read_formation(json.loads(
        (Path(__file__).resolve().parent.parent / "examples" / "m41-large-blast-at-boyz.json").read_text())))
    figure = _drawn(monkeypatch, result)
    axis, bar = figure.axes
    assert bar.get_ylim() == pytest.approx((0, 1)) and bar.get_ylabel() == "chance the model is hit"
    shade = matplotlib.colormaps["Reds"]
    faces = {tuple(p.center): tuple(p.get_facecolor()) for p in axis.patches if hasattr(p, "center")}
    labels = {text.xy: text.get_text() for text in axis.texts}
    for base, (exact, numeric) in zip(result.formation.bases, result.model_chances()):
        chance = float(exact) + numeric
        assert faces[(float(base.x), float(base.y))] == pytest.approx(shade(chance))
        assert labels[(float(base.x), float(base.y) + float(base.diameter) / 2)] == f"{100 * chance:.0f}%"
