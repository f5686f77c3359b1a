"""004's Vehicles chapter (ruleset ``m41``): the z3 proofs of properties/proofs_m41_vehicles.py (each failing for a
broken copy of the rule it rests on), hypothesis properties of the damage distributions and hull-point chances
(each failing for a broken rule), and the printed charts against the document's text."""

from __future__ import annotations

import re
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from properties import broken_rules
from properties import proofs
from properties import proofs_m41_vehicles
from rules import spec
from rules.logic import And, If, Max, Min
from rules.m41 import vehicles
from rules.m41.vehicles import Damage, Penetration, Speed

MINE = broken_rules.proofs_built_in(proofs_m41_vehicles)


# -- Proofs ---------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", MINE)
def test_vehicles_proof_has_its_expected_verdict(name):
    broken_rules.assert_expected_verdict(name)


def _penetration_by_strength_only(strength, roll, armour):
    """Ignores the d6: a higher Armour Value is still never easier, but the lascannon's 4 no longer counts."""
    return If(strength < armour, Penetration.NO_EFFECT, If(strength == armour, Penetration.GLANCING,
                                                          Penetration.PENETRATING))


def _penetration_inverted(strength, roll, armour):
    """Thicker armour penetrated more easily: the total compared the wrong way round."""
    return vehicles.PENETRATION_TABLE(strength=strength, roll=roll, armour=28 - armour)


def _penetration_weaker_is_better(strength, roll, armour):
    return vehicles.PENETRATION_TABLE(strength=15 - strength, roll=roll, armour=armour)


def _ap_one_worst(glancing, ap):
    return If(glancing, -2, 0) + If(ap == 1, -1, vehicles.AP_MODIFIER_TABLE(ap=ap))


def _glance_heavier(glancing, ap):
    return If(glancing, 2, 0) + vehicles.AP_MODIFIER_TABLE(ap=ap)


def _hull_points_twice_on_fire(penetrating, result, already_on_fire=False):
    return If(penetrating, 1, 0) + If(result >= Damage.VEHICLE_DAMAGED, 1, 0) + If(result >= Damage.ON_FIRE, 1, 0) \
        + If(And(penetrating, already_on_fire), 1, 0)


def _hull_points_glances_free(penetrating, result, already_on_fire=False):
    return If(penetrating, 1 + If(result >= Damage.VEHICLE_DAMAGED, 1, 0) + If(already_on_fire, 1, 0), 0)


def _cover_unfloored(cover_save):
    return cover_save + 1


def _cover_better(cover_save):
    return Max(cover_save - 1, 2)


def _speed_exactly_half_full(distance, max_move, pivoted=False):
    return If(And(distance == 0, pivoted == False), Speed.STATIONARY,  # noqa: E712 - z3 needs the comparison
              If(2 * distance >= max_move, Speed.FULL, Speed.HALF))


def _speed_far_is_half(distance, max_move, pivoted=False):
    return If(And(distance == 0, pivoted == False), Speed.STATIONARY,  # noqa: E712
              If(distance > max_move, Speed.HALF, vehicles.SPEED_TABLE(distance=distance, max_move=max_move,
                                                                       pivoted=pivoted)))


def _pivot_stationary(distance, max_move, pivoted=False):
    return vehicles.SPEED_TABLE(distance=distance, max_move=max_move, pivoted=False)


def _close_combat_skimmer_easier(speed, moved_flat_out=False, skimmer=False, open_topped=False):
    return (vehicles.CLOSE_COMBAT_HIT_TABLE(speed=speed) + If(moved_flat_out, 1, 0) - If(skimmer, 1, 0)
            - If(open_topped, 1, 0))


def _close_combat_reversed(speed, moved_flat_out=False, skimmer=False, open_topped=False):
    return 4 - speed + If(moved_flat_out, 1, 0) + If(skimmer, 1, 0) - If(open_topped, 1, 0)


def _attacks_unfloored(attacks, is_immobilised, movement_impaired, shaken):
    return attacks - If(is_immobilised, 1, 0) - If(movement_impaired, 1, 0) - If(shaken, 1, 0)


def _ram_rounding_down(armour_at_impact, distance, tank):
    return Max(armour_at_impact - 10, 0) + distance / 2 + If(tank, 1, 0)


_REAL_RAM_STRENGTH = vehicles.ram_strength


def _ram_capped(armour_at_impact, distance, tank):
    return Min(_REAL_RAM_STRENGTH(armour_at_impact, distance, tank), 11)


def _initiative_floored(value, penalties):
    return Max(value - penalties, 1)


def _chart_without_fire_hull_point(penetrating, result, already_on_fire=False):
    return If(penetrating, 1, 0) + If(And(result >= Damage.VEHICLE_DAMAGED, result < Damage.ON_FIRE), 1, 0) \
        + If(And(penetrating, already_on_fire), 1, 0)


def _damage_roll_no_modifier(roll, glancing, ap):
    return vehicles.DAMAGE_CHART(roll=roll)


# (proof, attribute of rules.m41.vehicles, broken copy): each a plausible slip that must turn the proof "disproved"
# (or, for a finding, "proved").
BROKEN = [
    ("m41-vehicles-higher-armour-never-penetrated-easier", "penetration", _penetration_inverted),
    ("m41-vehicles-higher-strength-never-penetrates-worse", "penetration", _penetration_weaker_is_better),
    ("m41-vehicles-better-ap-never-damages-less", "damage_roll_modifier", _ap_one_worst),
    ("m41-vehicles-better-ap-never-damages-less", "damage_roll_modifier", _glance_heavier),
    ("m41-vehicles-hull-points-per-hit", "hull_points_lost", _hull_points_twice_on_fire),
    ("m41-vehicles-hull-points-per-hit", "hull_points_lost", _hull_points_glances_free),
    ("m41-vehicles-hull-points-per-hit", "hull_points_lost", _chart_without_fire_hull_point),
    ("m41-vehicles-cover-save-one-worse-to-six", "vehicle_cover_save", _cover_unfloored),
    ("m41-vehicles-cover-save-one-worse-to-six", "vehicle_cover_save", _cover_better),
    ("m41-vehicles-speed-never-drops-with-distance", "speed_moved", _speed_far_is_half),
    ("m41-vehicles-faster-is-harder-to-hit-in-close-combat", "close_combat_hit_needed",
     _close_combat_skimmer_easier),
    ("m41-vehicles-faster-is-harder-to-hit-in-close-combat", "close_combat_hit_needed", _close_combat_reversed),
    ("m41-vehicles-mobility-limited-attacks-floor", "walker_attacks", _attacks_unfloored),
    ("m41-vehicles-ram-maximum-without-a-road", "ram_strength", _ram_rounding_down),
]

# Findings: a broken rule that makes the text's contradicted claim true turns the proof "proved".
FIXED_BY_BREAKING = [
    ("m41-vehicles-glances-never-cost-hull-points", "hull_points_lost", _hull_points_glances_free),
    ("m41-vehicles-pivot-alone-is-stationary", "speed_moved", _pivot_stationary),
    ("m41-vehicles-ram-never-above-eleven", "ram_strength", _ram_capped),
    ("m41-vehicles-initiative-never-below-one", "crew_characteristic", _initiative_floored),
]


@pytest.mark.parametrize("name, attribute, mutant", BROKEN, ids=[f"{b[0]}-{b[2].__name__}" for b in BROKEN])
def test_vehicles_proof_catches_a_broken_rule(monkeypatch, name, attribute, mutant):
    broken_rules.assert_proof_catches(monkeypatch, name, vehicles, attribute, mutant)


@pytest.mark.parametrize("name, attribute, mutant", FIXED_BY_BREAKING, ids=[f[0] for f in FIXED_BY_BREAKING])
def test_vehicles_finding_turns_with_the_rule_it_rests_on(monkeypatch, name, attribute, mutant):
    monkeypatch.setattr(vehicles, attribute, mutant)
    assert proofs.check(proofs.PROOFS[name]).status == "proved"


def test_the_exactly_half_interpretation_is_a_real_choice():
    """The rejected reading (exactly half is full speed) differs from the code at 6" of 12"."""
    assert (vehicles.speed_moved(6, 12), _speed_exactly_half_full(6, 12)) == (Speed.HALF, Speed.FULL)


# -- Hypothesis properties --------------------------------------------------------------------------------------------

aps = st.integers(1, vehicles.NO_AP)
strengths = st.integers(1, 14)
armours = st.integers(9, 14)


@pytest.mark.refs("m41:vehicles/damage-chart", "m41:vehicles/damage-roll-modifiers")
@given(st.booleans(), aps)
def test_damage_distribution_sums_to_one(glancing, ap):
    """The damage chart's results for one glancing or penetrating hit of any AP have chances summing to exactly 1,
    each a multiple of 1/6 (one d6)."""
    chances = vehicles.damage_distribution(glancing, ap)
    assert sum(chances.values()) == 1
    assert all(chance >= 0 and (chance * 6).denominator == 1 for chance in chances.values())
    expected_modifier = (-2 if glancing else 0) + {vehicles.NO_AP: -1, 3: 1, 2: 2, 1: 3}.get(ap, 0)
    for roll in vehicles.D6_FACES:
        modified = roll + expected_modifier
        printed = 1 if modified <= 1 else 7 if modified >= 7 else 4 if modified >= 4 else modified
        assert vehicles.damage_result(roll, glancing, ap) == printed


@pytest.mark.refs("m41:vehicles/armour-penetration", "m41:vehicles/damage-chart")
@given(strengths, armours, aps, st.booleans())
def test_hull_point_chance_by_hand(strength, armour, ap, on_fire):
    """The chance one hit costs a hull point is the penetrating faces (always one) plus the glancing face times the
    chance its damage roll reaches 4 (Vehicle Damaged or worse)."""
    penetrating = Fraction(sum(1 for roll in range(1, 7) if strength + roll > armour), 6)
    glancing = Fraction(sum(1 for roll in range(1, 7) if strength + roll == armour), 6)
    modifier = -2 + {vehicles.NO_AP: -1, 3: 1, 2: 2, 1: 3}.get(ap, 0)
    damaged = Fraction(sum(1 for roll in range(1, 7) if roll + modifier >= 4), 6)
    assert vehicles.hull_point_chance(strength, armour, ap, on_fire) == penetrating + glancing * damaged


@pytest.mark.refs("m41:vehicles/armour-penetration")
@given(strengths, armours, aps)
def test_thicker_armour_never_loses_hull_points_more_often(strength, armour, ap):
    """One point more armour never raises the chance a hit costs a hull point, and one point more Strength never
    lowers it."""
    chance = vehicles.hull_point_chance(strength, armour, ap)
    if armour < 14:
        assert vehicles.hull_point_chance(strength, armour + 1, ap) <= chance
    if strength < 14:
        assert vehicles.hull_point_chance(strength + 1, armour, ap) >= chance


@pytest.mark.refs("m41:vehicles/vehicle-degradation")
@given(st.frozensets(st.integers(1, 6), max_size=5))
def test_degradation_rerolls_spread_evenly(already):
    """Re-rolling repeated vehicle damaged results leaves the results not yet suffered, equally likely, summing
    to 1."""
    chances = vehicles.damaged_sub_result_chances(already)
    assert set(chances) == set(range(1, 7)) - already
    assert sum(chances.values()) == 1 and len(set(chances.values())) == 1


def _distribution_drops_on_fire(glancing, ap):
    chances = {result: Fraction(0) for result in Damage}
    for roll in vehicles.D6_FACES:
        result = Damage(vehicles.damage_result(roll, glancing, ap))
        if result is not Damage.ON_FIRE:
            chances[result] += Fraction(1, 6)
    return chances


def _hull_point_chance_pens_only(strength, armour, ap, already_on_fire=False):
    return Fraction(sum(1 for roll in range(1, 7) if strength + roll > armour), 6)


def _hull_point_chance_thick_easier(strength, armour, ap, already_on_fire=False):
    return Fraction(sum(1 for roll in range(1, 7) if strength + roll >= 28 - armour), 6)


def _degradation_uniform_over_six(already):
    return {face: Fraction(1, 6) for face in range(1, 7) if face not in already}


PROPERTY_BROKEN = [
    (test_damage_distribution_sums_to_one, "damage_distribution", _distribution_drops_on_fire),
    (test_damage_distribution_sums_to_one, "damage_roll_modifier", _glance_heavier),
    (test_hull_point_chance_by_hand, "hull_point_chance", _hull_point_chance_pens_only),
    (test_thicker_armour_never_loses_hull_points_more_often, "hull_point_chance", _hull_point_chance_thick_easier),
    (test_degradation_rerolls_spread_evenly, "damaged_sub_result_chances", _degradation_uniform_over_six),
]


@pytest.mark.parametrize("prop, attribute, mutant", PROPERTY_BROKEN,
                         ids=[f"{p[0].__name__}-{p[2].__name__}" for p in PROPERTY_BROKEN])
def test_vehicles_property_fails_for_a_broken_rule(monkeypatch, prop, attribute, mutant):
    broken_rules.assert_property_fails(monkeypatch, prop, vehicles, attribute, mutant)


def test_vehicles_properties_hold_unbroken():
    """The same properties pass on the real rules (so the failures above come from the mutants)."""
    broken_rules.assert_properties_hold(b[0] for b in PROPERTY_BROKEN)


# -- Plain checks: exact chances and the printed charts against the text -----------------------------------------------


def _section(ref: str) -> str:
    return spec.sections("m41")[ref]["text"]


@pytest.mark.refs("m41:vehicles/difficult-terrain-effects")
def test_stuck_chance_is_three_in_thirty_six():
    """A vehicle's terrain test immobilises it on 2d6 totals of 2 or 3: (1,1), (1,2), (2,1), 3 of 36 throws."""
    assert vehicles.stuck_chance() == Fraction(3, 36)


@pytest.mark.refs("m41:vehicles/damage-chart")
def test_damage_chart_rows_are_the_printed_rows():
    """The damage chart table's rows are the chart's printed rolls and names, in the printed order."""
    printed = re.findall(r"^(1|2|3|4-6|7\+) ([A-Z][a-z]+(?: [A-Z][a-z]+)*!?)", _section("vehicles/damage-chart"), re.M)
    assert [f"{roll} {name}" for roll, name in printed] == vehicles.DAMAGE_CHART.labels()


@pytest.mark.refs("m41:vehicles/damage-roll-modifiers")
def test_ap_modifier_rows_are_the_printed_rows():
    """The AP modifier table's rows (and the glancing hit's -2) are the printed modifiers, in the printed order."""
    text = _section("vehicles/damage-roll-modifiers")
    printed = re.findall(r"^(Glancing hit|AP ’-’|AP \d) ([−+]\d)$", text, re.M)
    assert printed[0] == ("Glancing hit", "−2")
    assert vehicles.damage_roll_modifier(True, 4) == -2
    for (label, value), row in zip(printed[1:], vehicles.AP_MODIFIER_TABLE.rows):
        number = int(value.replace("−", "-"))
        assert row.label == f"{label.replace('’', chr(39))}: {value.replace('−', '-')}"
        assert row.then == number


@pytest.mark.refs("m41:vehicles/assaulting-crewed-vehicles")
def test_close_combat_chart_rows_are_the_printed_rows():
    """The close-combat hit table's rows are the printed speeds and rolls, in order: 2+, 3+, 4+."""
    printed = re.findall(r"(did not move|moved at half speed|moved at full speed) (\d)\+$",
                         _section("vehicles/assaulting-crewed-vehicles"), re.M)
    assert [f"{speed}: {roll}+" for speed, roll in printed] == vehicles.CLOSE_COMBAT_HIT_TABLE.labels()
    assert [vehicles.close_combat_hit_needed(speed) for speed in Speed] == [int(roll) for _, roll in printed]


@pytest.mark.refs("m41:vehicles/armour-and-hull-points")
def test_printed_profiles_read_by_their_columns():
    """The chapter's two printed profiles (Hammerhead Gunship, Sentinel) read by the printed columns."""
    text = _section("vehicles/armour-and-hull-points")
    hammerhead = [int(v) for v in re.search(r"Hammerhead Gunship ([\d ]+)", text).group(1).split()]
    sentinel = [int(v) for v in re.search(r"Sentinal ([\d ]+)", text).group(1).split()]
    assert vehicles.vehicle_profile(tuple(hammerhead)) == {"BS": 4, "Front": 13, "Side": 12, "Rear": 10, "Hp": 4}
    walker = vehicles.vehicle_profile(tuple(sentinel), walker=True)
    assert (walker["WS"], walker["S"], walker["Front"], walker["I"], walker["A"], walker["Hp"]) == (3, 6, 10, 2, 2, 2)
    with pytest.raises(ValueError):
        vehicles.vehicle_profile(tuple(hammerhead), walker=True)


@pytest.mark.refs("m41:vehicles/armour-penetration", "m41:vehicles/glancing-hits")
def test_lascannon_example():
    """The chapter's example: a lascannon (S9) rolling 4 against a Predator's front (AV13) totals 13, a glance."""
    assert vehicles.penetration(9, 4, 13) == Penetration.GLANCING
    assert vehicles.penetration(9, 3, 13) == Penetration.NO_EFFECT
    assert vehicles.penetration(9, 5, 13) == Penetration.PENETRATING


@pytest.mark.refs("m41:vehicles/armour-facings")
def test_facing_table_covers_attackers_outside_or_touching_the_hull():
    """The facing table's checks run over every attacker outside the hull or touching its edge (base contact in
    close combat), and over none inside it."""
    outside = vehicles.FACING_TABLE.assume
    assert outside(ahead=2, across=0, half_length=2, half_width=1)  # touching the front edge
    assert outside(ahead=0, across=-1, half_length=2, half_width=1)  # touching a side
    assert outside(ahead=-2, across=1, half_length=2, half_width=1)  # a rear corner
    assert not outside(ahead=1, across=0, half_length=2, half_width=1)
    assert not outside(ahead=-1, across=0, half_length=2, half_width=1)
    assert vehicles.facing_hit(2, 0, 2, 1) == vehicles.Facing.FRONT
    assert vehicles.facing_hit(-2, 1, 2, 1) == vehicles.Facing.REAR


@pytest.mark.refs("m41:vehicles/immobilized", "m41:vehicles/vehicle-speeds", "m41:vehicles/roads")
def test_speed_table_covers_the_moves_the_rules_allow():
    """The speed table's checks run over every move up to the maximum and a road's 6" more, and over no move or
    turn of an immobilised vehicle (maximum move 0)."""
    allowed = vehicles.SPEED_TABLE.assume
    assert allowed(distance=0, max_move=0, pivoted=False)
    assert not allowed(distance=1, max_move=0, pivoted=False)
    assert not allowed(distance=0, max_move=0, pivoted=True)
    assert allowed(distance=18, max_move=12, pivoted=False)
    assert allowed(distance=0, max_move=12, pivoted=True)
    assert not allowed(distance=19, max_move=12, pivoted=False)
    assert allowed(distance=9, max_move=3, pivoted=True)
    assert not allowed(distance=10, max_move=3, pivoted=True)
