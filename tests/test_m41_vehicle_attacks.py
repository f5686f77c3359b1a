"""999.m41 attacks on a vehicle (rules/m41/vehicle_attacks.py on rules/engine/vehicle.py): a dice simulation that
rolls every d6 one at a time through the m41 rule functions agrees with the exact answer; properties of the exact
distributions (each failing for a broken rule); bad vehicle scenarios refused in one sentence."""

from __future__ import annotations

import json
import math
import random
import re
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from properties import mutation
from rules.m41 import assault, shooting, usr, vehicle_scenario, vehicles, weapons
from rules.m41.vehicle_attacks import calculate, outcome
from rules.m41.vehicle_scenario import read_vehicle_scenario
from rules.m41.vehicles import Damage, Penetration
from rules.m41.weapons import WeaponType
from rules40k import annotations, checks
from rules40k.cli import main

# -- A dice simulation: every d6 rolled one at a time, every rule a call to the m41 function for that roll ------------


def _d6(rng: random.Random) -> int:
    return rng.randint(1, 6)


def _hit(rng, weapon, target) -> bool:
    rolls = 2 if "Twin-linked" in weapon.rules else 1  # twin-linked: roll to hit twice
    for _ in range(rolls):
        roll = _d6(rng)
        if weapon.kind is WeaponType.MELEE:
            if target.weapon_skill is not None:
                hit = assault.hits(roll, weapon.skill, target.weapon_skill)
            else:
                hit = roll >= vehicles.close_combat_hit_needed(target.speed, target.flat_out,
                                                               "skimmer" in target.types,
                                                               "open-topped" in target.types)
        else:
            penalty = -vehicles.to_hit_modifier_against("skimmer" in target.types, target.flat_out, False)
            hit = shooting.hit_scored(roll, weapon.skill, penalty)
        if hit:
            return True
    return False


def _penetration_roll(rng, weapon, armour, within_half_range):
    """One hit's penetration outcome and the AP its damage roll reads, dice rolled as the text says."""
    ordnance = weapon.kind is WeaponType.ORDNANCE
    first = _d6(rng)
    roll = weapons.ordnance_roll(first, _d6(rng), True) if ordnance else first
    ap = vehicles.damage_roll_ap(weapon.ap)
    if "Haywire" in weapon.rules:
        return Penetration(usr.haywire_result(roll)), ap
    total = weapon.strength + usr.tank_hunters_penetration_bonus("Tank Hunters" in weapon.rules, True)
    for _ in range(usr.extra_penetration_dice("Armour Bane" in weapon.rules, "Melta" in weapon.rules,
                                              within_half_range, True)):
        total += _d6(rng)
    if "Rending" in weapon.rules and usr.rending_extra_penetration_d3(roll):
        total += (_d6(rng) + 1) // 2  # a d3: a d6 halved, rounding up
        ap = usr.rending_ap(roll, ap)
    against = usr.armour_value_against(armour, "Lance" in weapon.rules)
    return Penetration(vehicles.penetration(total, roll, against)), ap


def simulate_once(rng, scenario) -> tuple[int, bool, bool]:
    """One attack, hit by hit: (hull points lost, destroyed, exploded)."""
    target, context = scenario.target, scenario.context
    hull_points = target.hull_points
    armour = vehicles.armour_value(target.facing, target.front, target.side, target.rear)
    on_fire, suffered = False, set()
    for weapon in scenario.weapons:
        if weapon.kind is WeaponType.MELEE:
            dice_ = weapon.count * (weapon.attacks + (1 if weapons.charge_bonus_attack(context.charged, False) else 0))
        else:
            dice_ = weapon.count * weapons.shots_fired(weapon.kind, weapon.shots, context.moved,
                                                       context.within_half_range, weapon.stationary_shots)
        for _ in range(dice_):
            if vehicles.destroyed(hull_points) or not _hit(rng, weapon, target):
                continue
            kind, ap = _penetration_roll(rng, weapon, armour, context.within_half_range)
            if kind is Penetration.NO_EFFECT:
                continue
            result = Damage(vehicles.damage_result(_d6(rng), kind is Penetration.GLANCING, ap))
            hull_points -= vehicles.hull_points_lost(kind is Penetration.PENETRATING, result, on_fire)
            on_fire = bool(vehicles.set_on_fire(on_fire, result))
            for _ in range(vehicles.damaged_sub_rolls(result)):
                if len(suffered) == 6:
                    break
                sub = _d6(rng)
                while sub in suffered:  # Vehicle Degradation: re-roll as necessary
                    sub = _d6(rng)
                suffered.add(sub)
                armour = vehicles.armour_after_damaged_result(armour, sub)
    hull_points = max(hull_points, 0)
    return target.hull_points - hull_points, bool(vehicles.destroyed(hull_points)), \
        bool(vehicles.explodes(hull_points, on_fire))


SIMULATED = {
    "lascannons and krak missiles at a Predator's side": {
        "weapons": [{"name": "lascannon", "count": 2, "type": "Heavy 1", "S": 9, "AP": 2, "BS": 4},
                    {"name": "krak", "count": 2, "type": "Heavy 1", "S": 8, "AP": 3, "BS": 4,
                     "rules": ["Tank Hunters", "Twin-linked"]}],
        "target": {"vehicle": {"name": "Predator", "front": 13, "side": 11, "rear": 10, "HP": 3}, "facing": "side"}},
    "bolters at a Rhino's rear (glances, AP 5)": {
        "weapons": [{"name": "bolter", "count": 6, "type": "Rapid Fire 1", "S": 4, "AP": 5, "BS": 4}],
        "target": {"vehicle": {"name": "Rhino", "front": 11, "side": 11, "rear": 10, "HP": 3}, "facing": "rear"},
        "context": {"within_half_range": True}},
    "melta and a battle cannon at a Land Raider": {
        "weapons": [{"name": "multi-melta", "count": 2, "type": "Heavy 1", "S": 8, "AP": 1, "BS": 4,
                     "rules": ["Melta"]},
                    {"name": "battle cannon", "count": 1, "type": "Ordnance 1", "S": 10, "AP": 2, "BS": 3}],
        "target": {"vehicle": {"name": "Land Raider", "front": 14, "side": 14, "rear": 14, "HP": 4},
                   "facing": "front"},
        "context": {"within_half_range": True}},
    "rending claws charging an open-topped Trukk": {
        "weapons": [{"name": "claws", "count": 3, "type": "Melee", "S": 4, "AP": "-", "WS": 4, "A": 2,
                     "rules": ["Rending"]}],
        "target": {"vehicle": {"name": "Trukk", "front": 10, "side": 10, "rear": 10, "HP": 3,
                               "types": ["open-topped", "fast"], "speed": "half"}, "facing": "rear"},
        "context": {"charged": True}},
    "power fists and haywire at a Dreadnought": {
        "weapons": [{"name": "power fist", "count": 2, "type": "Melee", "S": 8, "AP": 2, "WS": 4, "A": 2},
                    {"name": "haywire", "count": 2, "type": "Melee", "S": 3, "AP": "-", "WS": 4, "A": 1,
                     "rules": ["Haywire"]}],
        "target": {"vehicle": {"name": "Dreadnought", "front": 12, "side": 12, "rear": 10, "HP": 3,
                               "types": ["walker"], "WS": 4}, "facing": "front"}},
}


def _within_four_standard_errors(exact_mean: Fraction, samples: list[float], exact_variance: Fraction) -> None:
    mean = sum(samples) / len(samples)
    error = math.sqrt(float(exact_variance) / len(samples))
    if exact_variance == 0:
        assert mean == float(exact_mean)
    else:
        assert abs(mean - float(exact_mean)) <= 4 * error, (mean, float(exact_mean), error)


@pytest.mark.refs("m41:vehicles/armour-penetration", "m41:vehicles/damage-chart", "m41:vehicles/explodes")
@pytest.mark.parametrize("name", sorted(SIMULATED))
def test_exact_answer_agrees_with_rolling_the_dice(name):
    """The exact chances of hull points lost, destroyed and exploded lie within 4 standard errors of 3000 attacks
    simulated die by die through the m41 rule functions (fixed seed)."""
    mapping = SIMULATED[name]
    scenario = read_vehicle_scenario(mapping)
    result = calculate(scenario)
    rng = random.Random(24_2)
    runs = [simulate_once(rng, scenario) for _ in range(3000)]
    lost = result.hull_points_lost
    mean = sum((k * p for k, p in lost.items()), Fraction(0))
    variance = sum((k * k * p for k, p in lost.items()), Fraction(0)) - mean ** 2
    _within_four_standard_errors(mean, [r[0] for r in runs], variance)
    for index, chance in ((1, result.destroyed), (2, result.exploded)):
        _within_four_standard_errors(chance, [float(r[index]) for r in runs], chance * (1 - chance))


# -- Properties of the exact answer --------------------------------------------------------------------------------

strengths = st.integers(3, 10)
aps = st.sampled_from([1, 2, 3, 4, 6, "-", -1])
rule_sets = st.lists(st.sampled_from(["Twin-linked", "Melta", "Lance", "Tank Hunters", "Rending"]), max_size=2,
                     unique=True)


def _scenario(strength, ap, bs, count, rules, armour, hull_points):
    return {"weapons": [{"name": "gun", "count": count, "type": "Heavy 1", "S": strength, "AP": ap, "BS": bs,
                         "rules": rules}],
            "target": {"vehicle": {"name": "tank", "front": armour, "side": 10, "rear": 10, "HP": hull_points},
                       "facing": "front"},
            "context": {"within_half_range": True}}


@pytest.mark.refs("m41:vehicles/armour-penetration", "m41:vehicles/damage-chart")
@given(strengths, aps, st.integers(2, 5), st.integers(1, 3), rule_sets, st.integers(9, 14), st.integers(1, 4))
@settings(deadline=None, max_examples=30, derandomize=True, database=None)
def test_every_distribution_sums_to_one(strength, ap, bs, count, rules, armour, hull_points):
    """Every distribution of the answer sums to exactly 1; destroyed is wrecked plus exploded and is the chance of
    losing every hull point; only a destroyed vehicle that is on fire explodes."""
    answer = outcome(_scenario(strength, ap, bs, count, rules, armour, hull_points))
    for dist in [answer["hull_points_lost"], answer["armour_after"], answer["hits"],
                 *answer["results_rolled"].values(), *answer["results_suffered"].values(),
                 *answer["penetration"].values()]:
        assert sum(dist.values()) == 1 and all(p > 0 for p in dist.values())
    assert sum(answer["first_penetration"].values()) == 1
    assert answer["destroyed"] == answer["wrecked"] + answer["exploded"]
    assert answer["exploded"] <= min(answer["destroyed"], answer["on_fire"])  # only a destroyed burning vehicle
    assert answer["destroyed"] == answer["hull_points_lost"].get(hull_points, 0)
    assert max(answer["hull_points_lost"]) <= hull_points


@pytest.mark.refs("m41:vehicles/armour-penetration", "m41:vehicles/armour-values")
@given(strengths, aps, st.integers(2, 5), st.integers(1, 2), rule_sets, st.integers(9, 13), st.integers(1, 3))
@settings(deadline=None, max_examples=30, derandomize=True, database=None)
def test_more_armour_never_makes_the_vehicle_likelier_to_die(strength, ap, bs, count, rules, armour, hull_points):
    """One point more armour on the facing attacked never raises the chance the vehicle is destroyed, nor the
    expected hull points lost."""
    thin = outcome(_scenario(strength, ap, bs, count, rules, armour, hull_points))
    thick = outcome(_scenario(strength, ap, bs, count, rules, armour + 1, hull_points))
    assert thick["destroyed"] <= thin["destroyed"]

    def mean(dist):
        return sum((k * p for k, p in dist.items()), Fraction(0))

    assert mean(thick["hull_points_lost"]) <= mean(thin["hull_points_lost"])


def _penetration_thick_is_easier(strength, roll, armour):
    return vehicles.PENETRATION_TABLE(strength=strength, roll=roll, armour=28 - armour)


def _sub_results_uniform_over_six(already_suffered):
    """Forgets the re-roll: a repeated sub-result is lost, so the chances of what follows no longer sum to 1."""
    return {face: Fraction(1, 6) for face in range(1, 7) if face not in already_suffered}


PROPERTY_BROKEN = [
    (test_more_armour_never_makes_the_vehicle_likelier_to_die, "penetration", _penetration_thick_is_easier),
    (test_every_distribution_sums_to_one, "explodes", lambda hull_points, on_fire: on_fire),
    (test_every_distribution_sums_to_one, "damaged_sub_result_chances", _sub_results_uniform_over_six),
]


@pytest.mark.parametrize("prop, attribute, mutant", PROPERTY_BROKEN,
                         ids=[f"{p.__name__}-{attr}" for p, attr, _ in PROPERTY_BROKEN])
def test_vehicle_attack_property_fails_for_a_broken_rule(monkeypatch, prop, attribute, mutant):
    monkeypatch.setattr(vehicles, attribute, mutant)
    assert mutation.fails(prop, max_examples=60)


@pytest.mark.parametrize("example", [e for e in annotations.examples("m41") if e["id"].startswith("vehicle-attacks")],
                         ids=lambda e: e["id"])
def test_vehicle_attack_example(example):
    """The hand-worked examples of spec/m41/annotations/examples/vehicle-attacks.yaml (also run by
    tests/test_examples.py; here so a mutant of the vehicle modules faces them)."""
    result = checks.run_example(example, "m41")
    assert result["status"] == "passed", result["detail"]


# -- Bad vehicle scenarios -----------------------------------------------------------------------------------------

GOOD = {"weapons": [{"name": "lascannon", "count": 1, "type": "Heavy 1", "S": 9, "AP": 2, "BS": 4}],
        "target": {"vehicle": {"name": "Rhino", "front": 11, "side": 11, "rear": 10, "HP": 3}, "facing": "front"}}


def _with(path: str, value):
    data = json.loads(json.dumps(GOOD))
    *parents, last = path.split(".")
    node = data
    for part in parents:
        node = node[int(part)] if part.isdigit() else node[part]
    if value is KeyError:
        del node[last]
    else:
        node[int(last) if last.isdigit() else last] = value
    return data


BAD = [
    (_with("target.facing", "top"), "target.facing must be front, side or rear"),
    (_with("target.vehicle.front", 15), "target.vehicle.front must be a whole number from 1 to 14"),
    (_with("target.vehicle.HP", 0), "target.vehicle.HP must be a whole number from 1 to 20"),
    (_with("target.vehicle.HP", KeyError), "target.vehicle has no 'HP'"),
    (_with("target.vehicle.types", ["hover tank"]), "target.vehicle.types must be a list of vehicle types"),
    (_with("target.vehicle.speed", "ramming"), "target.vehicle.speed must be stationary, half or full"),
    (_with("target.vehicle.flat_out", "yes"), "target.vehicle.flat_out must be true or false"),
    (_with("target.vehicle.armour", 12), "target.vehicle.armour is not a key here"),
    (_with("weapons.0.AP", 0), "weapons[0].AP must be 1 to 6, '-' or a rend of -1 to -3"),
    (_with("weapons.0.S", "9"), "weapons[0].S must be a whole number from 1 to 10"),
    (_with("weapons.0.type", "Heavy"), None),
    (_with("weapons.0.type", "Lots 3"), "weapons[0].type: 'Lots 3' is not a weapon type"),
    (_with("weapons.0.BS", KeyError), "weapons[0] has no 'BS'"),
    (_with("weapons.0.rules", ["Blast"]), "weapons[0].rules[0]: a Blast weapon hits a vehicle by where"),
    (_with("weapons.0.rules", ["Unstoppable"]), "weapons[0].rules[0]: 'Unstoppable' is not a rule"),
    (_with("context", {"moved": 1}), "context.moved must be true or false"),
    (_with("weapons", []), "weapons must be a non-empty list"),
]


@pytest.mark.parametrize("data, words", [b for b in BAD if b[1]], ids=[b[1] for b in BAD if b[1]])
def test_a_bad_vehicle_scenario_is_one_sentence_naming_the_place(capsys, tmp_path, data, words):
    path = tmp_path / "vehicle.json"
    path.write_text(json.dumps(data))
    code = main(["calc", "--ruleset", "m41", str(path)])
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    lines = err.strip().split("\n")
    assert len(lines) == 1 and str(path) in lines[0] and words in lines[0], err


def test_a_weapon_type_without_shots_reads_as_one(capsys, tmp_path):
    """'Heavy' with no number fires one shot (weapons/number-of-shots), so the lascannon answer is unchanged."""
    assert outcome(_with("weapons.0.type", "Heavy")) == outcome(GOOD)


def test_calc_prints_the_answer_in_the_games_terms_and_exact_json(capsys, tmp_path):
    path = tmp_path / "rhino.json"
    path.write_text(json.dumps(GOOD))
    assert main(["calc", "--ruleset", "m41", str(path), "--explain"]) == 0
    out = capsys.readouterr().out
    assert "Hull points lost: Rhino (3 HP)" in out and "Destroyed 0%" in out and "37.0%" in out  # 10/27
    assert main(["calc", "--ruleset", "m41", str(path), "--json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer["hull_points_lost"] == {"0": "1/2", "1": "7/54", "2": "10/27"}  # as the example works it
    assert answer["steps"][0]["p_hit"] == "2/3"


def _edge(weapon=None, vehicle=None, target=None, top=None):
    data = {"weapons": [{"name": "gun", "count": 1, "type": "Heavy 1", "S": 8, "AP": 3, "BS": 4, **(weapon or {})}],
            "target": {"vehicle": {"name": "tank", "front": 12, "side": 11, "rear": 10, "HP": 3, **(vehicle or {})},
                       "facing": "front", **(target or {})}}
    return {**data, **(top or {})}



@pytest.mark.parametrize("weapon, vehicle", [
    ({"AP": 6}, {}), ({"AP": -3}, {}), ({"AP": 1}, {}), ({"count": 1000}, {}), ({"BS": 10}, {}), ({"BS": 1}, {}),
    ({"S": 10}, {}), ({}, {"side": 1, "rear": 1}), ({}, {"WS": 1}), ({}, {"WS": 10}), ({}, {"HP": 20}),
    ({"type": "Melee", "WS": 4, "A": 10}, {}), ({"type": "Melee", "WS": 4, "A": 1}, {}),
])
def test_the_vehicle_reader_takes_every_value_at_the_edges_of_its_ranges(weapon, vehicle):
    """The documented ranges are inclusive: AP 1 to 6 or a rend down to -3, count up to 1000, BS, WS and A 1 to 10,
    armour from 1 (a damaged profile), hull points up to 20; a melee weapon is read with its A."""
    data = _edge(weapon, vehicle)
    if weapon.get("type") == "Melee":
        del data["weapons"][0]["BS"]
    read = vehicle_scenario.read_vehicle_scenario(data)
    if weapon.get("type") == "Melee":
        assert read.weapons[0].attacks == weapon["A"]
    else:
        assert read.weapons[0].attacks == 0
    assert vehicle_scenario.is_vehicle_scenario(data)


@pytest.mark.parametrize("weapon, vehicle, place", [
    ({"AP": 7}, {}, "weapons[0].AP"), ({"AP": -4}, {}, "weapons[0].AP"), ({"count": 1001}, {}, "weapons[0].count"),
    ({"BS": 11}, {}, "weapons[0].BS"), ({"type": "Melee", "WS": 4, "A": 11}, {}, "weapons[0].A"),
    ({"type": "Melee", "WS": 11, "A": 1}, {}, "weapons[0].WS"), ({"WS": 4}, {}, "weapons[0].WS"),
    ({"A": 2}, {}, "weapons[0].A"), ({"name": "gun", "type": " "}, {}, "weapons[0].type"),
    ({}, {"WS": 11}, "target.vehicle.WS"), ({}, {"side": 0}, "target.vehicle.side"),
    ({}, {"rear": 0}, "target.vehicle.rear"),
])
def test_the_vehicle_reader_refuses_one_past_each_edge_naming_the_place(weapon, vehicle, place):
    """One past a range, a weapon key of the other kind, or an empty type: one sentence naming the place."""
    data = _edge(weapon, vehicle)
    if weapon.get("type") == "Melee":
        del data["weapons"][0]["BS"]
    with pytest.raises(ValueError, match=re.escape(place)):
        vehicle_scenario.read_vehicle_scenario(data)


def test_only_a_mapping_with_a_vehicle_target_is_a_vehicle_scenario():
    """A list, a scenario whose target is not a mapping, or a target of models is not a vehicle scenario."""
    assert not vehicle_scenario.is_vehicle_scenario([])
    assert not vehicle_scenario.is_vehicle_scenario({"target": ["vehicle"]})
    assert not vehicle_scenario.is_vehicle_scenario({"target": {"models": []}})


def _mean(dist: dict) -> Fraction:
    return sum((k * p for k, p in dist.items()), Fraction(0))


@pytest.mark.parametrize("name", SIMULATED)
def test_the_damage_counts_add_up_as_the_chart_says(name):
    """Every glancing or penetrating hit rolls once on the damage chart, so the expected rolls of all its results
    add up to the expected glancing and penetrating hits; results are cumulative (revision 007: each bestows every
    lesser one but No Extra Effect), so Crew Shaken is suffered once for every roll of Shaken or worse; and a
    Vehicle Damaged sub-result is only ever suffered through a Vehicle Damaged (or worse) result."""
    answer = outcome(SIMULATED[name])
    rolled, suffered = answer["results_rolled"], answer["results_suffered"]
    assert sum(_mean(d) for d in rolled.values()) == sum(_mean(d) for d in answer["penetration"].values())
    worse = ("CREW_SHAKEN", "CREW_STUNNED", "VEHICLE_DAMAGED", "ON_FIRE")
    assert _mean(suffered["CREW_SHAKEN"]) == sum(_mean(rolled[r]) for r in worse)
    some_damaged = 1 - suffered["VEHICLE_DAMAGED"].get(0, Fraction(0))
    assert all(0 <= p <= some_damaged for p in answer["sub_results"].values())


def test_calc_prints_each_damage_result_as_the_chart_gives_it(capsys, tmp_path):
    """One lascannon (BS4: 2/3; S9 + D6 against AV11: a 2 glances, 3-6 penetrate) at a Rhino's front: a glance
    1/9, a penetration 4/9. AP2 adds 2 to the damage roll, a glance takes 2: a glance rolls the d6 as it is (1 No
    Extra Effect, 2 Shaken, 3 Stunned, 4-6 Vehicle Damaged), a penetration 3-8 (1 Stunned, 2-4 Damaged, 5-6 On
    Fire). So No Extra Effect 1/54 (1.9%), Shaken 1/54, Stunned 5/54 (9.3%), Damaged 5/18 (27.8%), On Fire 4/27
    (14.8%); one shot rolls each at most once, so the mean is the chance. Suffered, cumulative: Shaken by Shaken or
    worse 29/54 (53.7%), Stunned 28/54 (51.9%), Damaged 23/54 (42.6%). Hull points: none lost first, so "at least
    this many" starts at 100%; --json is indented by 2."""
    path = tmp_path / "rhino.json"
    path.write_text(json.dumps(GOOD))
    assert main(["calc", "--ruleset", "m41", str(path)]) == 0
    rows = {line.split("│")[1].strip(): [cell.strip() for cell in line.split("│")[2:-1]]
            for line in capsys.readouterr().out.splitlines() if line.count("│") == 5}
    assert rows["No Extra Effect"] == ["1.9%", "0.02", ""]
    assert rows["Crew Shaken"] == ["1.9%", "0.02", "53.7%"]
    assert rows["Crew Stunned"] == ["9.3%", "0.09", "51.9%"]
    assert rows["Vehicle Damaged"] == ["27.8%", "0.28", "42.6%"]
    assert rows["On Fire"] == ["14.8%", "0.15", "14.8%"]
    assert main(["calc", "--ruleset", "m41", str(path)]) == 0
    first = next(line for line in capsys.readouterr().out.splitlines() if line.count("│") == 4)
    assert [cell.strip() for cell in first.split("│")[1:-1]] == ["0", "50.0%", "100%"]
    assert main(["calc", "--ruleset", "m41", str(path), "--json"]) == 0
    assert capsys.readouterr().out.startswith('{\n  "ruleset": "m41"')
