"""`calc --ruleset m41` with blast, barrage and template weapons over a formation (rules.m41.blast_attacks,
rules40k/calc_blast.py): the answer in the game's terms, the exact and numeric parts in --json, and each refusal one
sentence naming the file and the place."""

from __future__ import annotations

import copy
import json
from fractions import Fraction

import pytest

from rules.m41 import blast_attacks
from rules.m41.scenario import ScenarioError, read_scenario
from rules40k.cli import main

LONE = {"table": {"width": 72, "depth": 48}, "firer": {"x": 12, "y": 24}, "aim": {"x": 36, "y": 24},
        "bases": [{"x": 36, "y": 24, "diameter": 1.25}]}
#: The worked example calc-m41-small-blast-at-one-model: hit 61/81, killed 1/2 of those.
GOOD = {"weapons": [{"name": "Frag missile", "count": 1, "type": "Heavy 1", "S": 4, "AP": 4, "BS": 4,
                     "rules": ["Blast"]}],
        "target": {"models": [{"name": "Scout", "count": 1, "WS": 4, "T": 4, "W": 1, "Sv": "-"}]},
        "formation": LONE}
#: A mob whose bases the scatter rings cross: the chances have numeric parts.
MOB = {"weapons": [{"name": "Frag shell", "count": 1, "type": "Heavy 1", "S": 5, "AP": 5, "BS": 3,
                    "rules": ["Large Blast"]}],
       "target": {"models": [{"name": "Boy", "count": 3, "WS": 4, "T": 4, "W": 1, "Sv": 6}]},
       "formation": {"table": {"width": 72, "depth": 48}, "firer": {"x": 10, "y": 24}, "aim": {"x": 34, "y": 24},
                     "bases": [{"x": 34, "y": 24, "diameter": 1.25}, {"x": 35.5, "y": 24.5, "diameter": 1.25},
                               {"x": 33, "y": 26, "diameter": 1.25}]}}


def _with(data: dict, path: str, value) -> dict:
    """A copy of ``data`` with one field (dotted path, list indexes as numbers) set; None deletes it."""
    out = copy.deepcopy(data)
    *parents, last = path.split(".")
    node = out
    for key in parents:
        node = node[int(key)] if isinstance(node, list) else node[key]
    key = int(last) if isinstance(node, list) else last
    if value is None:
        del node[key]
    else:
        node[key] = value
    return out


def _run(tmp_path, data, *flags) -> tuple[int, str, str]:
    path = tmp_path / "blast.json"
    path.write_text(json.dumps(data))
    import sys

    from io import StringIO

    out, err = StringIO(), StringIO()
    old = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = out, err
    try:
        code = main(["calc", "--ruleset", "m41", str(path), *flags])
    finally:
        sys.stdout, sys.stderr = old
    return code, out.getvalue(), err.getvalue()


def test_calc_prints_a_blast_in_the_games_terms(capsys, tmp_path):
    path = tmp_path / "blast.json"
    path.write_text(json.dumps(GOOD))
    assert main(["calc", "--ruleset", "m41", str(path), "--explain"]) == 0
    out = capsys.readouterr().out
    # 61/162 = 37.7% destroyed; 101/162 = 62.3% not; hits 61/81 = 75.3%.
    assert "37.7%" in out and "62.3%" in out and "Hits by Frag missile" in out and "75.3%" in out
    assert "Every chance is exact." in out
    assert "hits counted from where the marker or template fell (no to-hit roll)" in out
    assert "to wound on 4+" in out


def test_calc_json_gives_exact_parts_and_a_zero_numeric_part_where_no_ring_is_cut(capsys, tmp_path):
    path = tmp_path / "blast.json"
    path.write_text(json.dumps(GOOD))
    assert main(["calc", "--ruleset", "m41", str(path), "--json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer["exact"] is True and answer["bound"] == 0
    assert answer["models_destroyed"]["1"] == {"exact": "61/162", "numeric": 0.0, "probability": 61 / 162}
    assert answer["hits"]["Frag missile"] == {"0,0": {"exact": "20/81", "numeric": 0.0, "probability": 20 / 81},
                                              "1,0": {"exact": "61/81", "numeric": 0.0, "probability": 61 / 81}}


def test_cut_rings_give_numeric_parts_within_the_stated_bound(capsys, tmp_path):
    """Three bases the rings cross: the chances still sum to 1 (exact part plus numeric part, to the bound), the
    answer is marked not exact, and --exact shows both parts."""
    result = blast_attacks.calculate(read_scenario(MOB))
    assert not result.is_exact and 0 < result.bound < 1e-9
    total = sum(float(e) + n for e, n in result.models_destroyed.values())
    assert abs(total - 1) <= result.bound * 10 + 1e-12
    hits = sum(float(e) + n for e, n in result.hits["Frag shell"].values())
    assert abs(hits - 1) <= result.bound * 10 + 1e-12
    path = tmp_path / "mob.json"
    path.write_text(json.dumps(MOB))
    assert main(["calc", "--ruleset", "m41", str(path), "--exact"]) == 0
    out = capsys.readouterr().out
    assert "numeric part" in out and "exact part" in out and "of the truth" in out
    assert "outer ring" in out  # a large blast's hits split by ring


def test_a_hit_law_is_the_same_whatever_the_order_of_entries():
    """Two blast entries: their hits are independent, so listing them the other way round changes nothing."""
    data = copy.deepcopy(GOOD)
    data["weapons"].append({"name": "Frag shell", "count": 1, "type": "Heavy 1", "S": 6, "AP": 4, "BS": 4,
                            "rules": ["Large Blast"]})
    swapped = copy.deepcopy(data)
    swapped["weapons"].reverse()
    assert blast_attacks.outcome(data)["models_destroyed"] == blast_attacks.outcome(swapped)["models_destroyed"]


def test_heavy_blasts_after_moving_place_no_marker():
    """A Heavy weapon fires no shots after moving (weapons/heavy-weapons): nothing is hit, nothing destroyed."""
    data = _with(GOOD, "context", {"moved": True})
    assert blast_attacks.outcome(data)["models_destroyed"] == {0: Fraction(1)}
    assert blast_attacks.outcome(_with(data, "weapons.0.rules", ["Blast", "Relentless"]))["models_destroyed"] == {
        0: Fraction(101, 162), 1: Fraction(61, 162)}


def test_rending_in_the_outer_ring_is_ap2_and_the_ring_cannot_overpower():
    """A large blast S4 rending at the lone model, 2+ save, AP- : inner 61/81, outer 12/81. A wound on 4-5 is
    saved on 2+ (5/6); a rending 6 is AP2 whatever the ring (pierces the 2+: no save). Per hit: 2/6 x 1/6 + 1/6 =
    2/36 + 6/36 = 8/36 = 2/9 killed, in either ring: 73/81 x 2/9 = 146/729."""
    data = _with(_with(GOOD, "weapons.0.rules", ["Large Blast", "Rending"]), "weapons.0.AP", "-")
    data = _with(data, "target.models.0.Sv", 2)
    assert blast_attacks.outcome(data)["models_destroyed"][1] == Fraction(146, 729)


def test_plot_writes_the_summed_chances(tmp_path, capsys):
    path = tmp_path / "blast.json"
    path.write_text(json.dumps(MOB))
    picture = tmp_path / "mob.png"
    assert main(["calc", "--ruleset", "m41", str(path), "--plot", str(picture)]) == 0
    assert picture.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert main(["calc", "--ruleset", "m41", str(path), "--plot", str(tmp_path / "mob.gif")]) == 2
    assert not (tmp_path / "mob.gif").exists()


BAD = [
    (_with(GOOD, "formation", None), "weapons[0] is a blast or template weapon"),
    (_with(_with(GOOD, "weapons.0.rules", []), "weapons.0.name", "Boltgun"),
     "formation: no weapon is a blast, barrage or template weapon"),
    (_with(GOOD, "target.models.0.count", 2), "formation.bases has 1 base(s) but target.models has 2 model(s)"),
    (_with(GOOD, "target.models.0.W", 2), "target.models[0]: blast wounds go one to a model"),
    (_with(GOOD, "weapons.0.rules", ["Blast", "Twin-linked"]), "weapons[0]: a twin-linked blast rolls for scatter"),
    (_with(GOOD, "context", {"snap_shots": True}), "context.snap_shots: Frag missile's hits as a snap shot"),
    (_with(GOOD, "weapons.0", {"name": "Claw", "count": 1, "type": "Melee", "S": 4, "AP": 4, "WS": 4, "A": 1,
                               "rules": ["Blast"]}), "weapons[0]: a melee weapon cannot be a blast weapon"),
    (_with(GOOD, "weapons.0.rules", ["Template"]), "formation lacks \"narrow_width\" for Frag missile's teardrop"),
    (_with(GOOD, "weapons.0.rules", ["Template", "Blast"]), "weapons[0].rules: a weapon is a Template or a Blast"),
    (_with(GOOD, "formation.range", 3), "formation.range is not a formation field"),
    (_with(GOOD, "formation", [1]), "formation must be an object"),
    (_with(GOOD, "formation.aim", None), "the formation has no \"aim\""),
    (_with(_with(GOOD, "formation.bases", [{"x": 36, "y": 24, "diameter": 1.25}, {"x": 36.5, "y": 24,
                                                                                  "diameter": 1.25}]),
           "target.models.0.count", 2), "formation: bases[1] overlaps bases[0]"),
    (_with(GOOD, "formation.table.width", 0), "formation: table.width must be more than 0"),
    (_with(GOOD, "formation.target_in_sight", "yes"), "formation.target_in_sight must be true or false"),
]


@pytest.mark.parametrize("data, words", BAD, ids=[b[1] for b in BAD])
def test_a_bad_blast_scenario_is_one_sentence_naming_the_place(tmp_path, data, words):
    code, out, err = _run(tmp_path, data)
    assert code == 2 and out == "", (out, err)
    lines = err.strip().split("\n")
    assert len(lines) == 1 and "blast.json" in lines[0] and words in lines[0], err
    with pytest.raises(ScenarioError):
        read_scenario(data)


def test_the_readme_example_answers(capsys):
    """examples/m41-frag-and-boltguns-at-boyz.json, as the README shows it."""
    assert main(["calc", "--ruleset", "m41", "examples/m41-frag-and-boltguns-at-boyz.json"]) == 0
    out = capsys.readouterr().out
    assert "Hits by Frag missile" in out and "models destroyed" in out and "of the truth" in out


def test_a_marker_that_misses_loses_nothing_in_any_group():
    """The lone one-wound Scout (worked example calc-m41-small-blast-at-one-model): the marker misses it with 20/81
    and a hit wounds on 4+ (1/2), so it is destroyed (and loses its 1 wound) with 61/81 x 1/2 = 61/162, and with
    101/162 nothing is lost: the misses count as none lost, for the unit and for its group."""
    result = blast_attacks.calculate(read_scenario(GOOD))
    expected = {0: (Fraction(101, 162), 0.0), 1: (Fraction(61, 162), 0.0)}
    assert result.models_destroyed == result.wounds_lost == expected
    assert result.destroyed_by_group == {"Scout": expected}


def test_the_bound_is_the_geometrys_bound_summed_over_the_numeric_parts():
    """One large blast at the mob whose bases the rings cross: every numeric part is within the geometry's bound of
    the truth, so the stated bound is that bound times the parts that have a numeric part, plus the float rounding
    of the sums (2^-52 per summed term: here fewer than 100 terms): sound (the chances sum to 1 within it) and no
    looser than that."""
    from rules.m41 import templates

    sc = read_scenario(MOB)
    geometry = templates.blast(blast_attacks.formation_for(sc, sc.weapons[0], "large blast"))
    parts = sum(1 for _, numeric in geometry.joint_hits().values() if numeric)
    result = blast_attacks.calculate(sc)
    assert parts > 0 and geometry.law.bound > 0
    rounding = result.bound - geometry.law.bound * parts
    assert 0 < rounding < 100 * blast_attacks.ROUNDING
    assert abs(sum(float(e) + n for e, n in result.hits["Frag shell"].values()) - 1) <= result.bound


def test_explain_shows_every_weapon_of_the_longest_run_with_its_saves(tmp_path):
    """A frag missile and a boltgun at the lone Scout (no save): when the marker misses only the boltgun fires, so
    --explain shows a run in which both fired: the missile's counted hits and the boltgun's BS4 (3+, 2/3), each
    with its to wound (S4 at T4: 4+) and its saves (none: every wound unsaved)."""
    data = copy.deepcopy(GOOD)
    data["weapons"].append({"name": "Boltgun", "count": 1, "type": "Assault 1", "S": 4, "AP": 5, "BS": 4})
    code, out, err = _run(tmp_path, data, "--explain")
    assert code == 0, err
    assert "hits counted from where the marker or template fell (no to-hit roll)" in out
    assert "to hit on 3+: P(hit) = 66.7%" in out
    assert out.count("to wound on 4+") == 2
    assert out.count("saves against Scout, best first: none; P(normal wound unsaved) = 100%") == 2


def test_calc_json_is_laid_out_as_calcs_other_json_answers(tmp_path):
    """--json for blasts is indented by two spaces, as every other `rules40k calc --json` answer is."""
    code, out, err = _run(tmp_path, GOOD, "--json")
    assert code == 0, err
    assert out == json.dumps(json.loads(out), indent=2) + "\n"


def test_the_stated_bound_is_the_documented_sum():
    """The bound, term by term as blast_attacks says: each marker's numeric parts within the geometry's bound, plus
    one float rounding (2^-52, twice the unit roundoff: a product then a sum) per summed term: each of the
    marker's (inner, outer) outcomes plus 3 in its convolution, then the entries' product and the mixture (one
    per way the markers fall, plus the entries and 3). One large blast at the mob: one marker, one entry."""
    from rules.m41 import templates

    sc = read_scenario(MOB)
    geometry = templates.blast(blast_attacks.formation_for(sc, sc.weapons[0], "large blast"))
    joint = geometry.joint_hits()
    parts = sum(1 for _, numeric in joint.values() if numeric)
    rounding = 2.0 ** -52 * ((len(joint) + 3) + (1 + len(joint) + 3))
    assert blast_attacks.calculate(sc).bound == pytest.approx(geometry.law.bound * parts + rounding, rel=1e-12, abs=0)


def test_explain_shows_the_likeliest_way_the_markers_fall():
    """A large blast at the lone model: the model is under the inner 3" with 61/81 and in the outer ring only
    with 12/81, one weapon step either way; --explain shows the likelier: the full profile, not the outer ring's."""
    data = _with(GOOD, "weapons.0.rules", ["Large Blast"])
    steps = blast_attacks.calculate(read_scenario(data)).steps
    assert len(steps) == 1 and steps[0]["outer_ring"] is False
