"""999.m41's terrain, cover, movement and transports (ruleset ``m41``): the z3 proofs of
properties/proofs_m41_movement.py (each failing for a broken copy of the rule it rests on), hypothesis properties
(each failing for a broken rule), and exact chances for dangerous terrain against a count of every dice outcome."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from hypothesis import Phase as Stage
from hypothesis import example, given, settings
from hypothesis import strategies as st

from properties import broken_rules
from properties import proofs_m41_movement
from rules.logic import And, If, Not, Or
from rules.m41 import movement, terrain, transports
from rules.m41.movement import MovementType
from rules.m41.terrain import Cover, Terrain

MINE = broken_rules.proofs_built_in(proofs_m41_movement)
NO_EXPLAIN = settings(phases=[stage for stage in Stage if stage != Stage.explain])


# -- Proofs ------------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", MINE)
def test_movement_proof_has_its_expected_verdict(name):
    broken_rules.assert_expected_verdict(name)


def _cover_with_contact_ignored(terrain, base_contact, substantial, gone_to_ground):
    return Cover.LIGHT


# (proof, module, attribute, broken copy): each a plausible slip that must turn the proof "disproved".
MUTANTS = [
    ("m41-difficult-penalty-rounds-up", terrain, "difficult_terrain_penalty", lambda inches: inches / 3),
    ("m41-difficult-penalty-rounds-up", terrain, "DIFFICULT_STRETCH", 2),
    ("m41-difficult-farthest-is-the-most-affordable", terrain, "farthest_into_difficult",
     lambda movement, inches_to_the_edge=0: If(movement - inches_to_the_edge <= 0, 0,
                                               (movement - inches_to_the_edge) * 2 / 3)),
    ("m41-difficult-farthest-is-the-most-affordable", terrain, "farthest_into_difficult",
     lambda movement, inches_to_the_edge=0: movement - inches_to_the_edge
     - (movement - inches_to_the_edge + 3) / 4),  # no floor at 0 when the edge is out of reach
    ("m41-area-sight-bonus-before-block", terrain, "AREA_SIGHT_LIMIT", 5),
    ("m41-area-sight-bonus-before-block", terrain, "sight_passes_area_terrain", lambda inches_through: True),
    ("m41-cover-never-worse-in-base-contact-or-gone-to-ground", terrain, "cover_from_terrain",
     lambda terrain, base_contact=False, substantial=False, gone_to_ground=False:
         If(And(terrain == Terrain.TRENCH, gone_to_ground), Cover.NONE, Cover.LIGHT)),
    ("m41-cover-never-worse-in-base-contact-or-gone-to-ground", terrain, "cover_from_terrain",
     lambda terrain, base_contact=False, substantial=False, gone_to_ground=False:
         If(base_contact, Cover.LIGHT, Cover.MEDIUM)),
    ("m41-coherency-call-penalises-only-outside", movement, "CALLED_OUT_HIT_PENALTY", -2),
    ("m41-coherency-call-penalises-only-outside", movement, "coherency_call",
     lambda inches_to_nearest, skirmish=False: (inches_to_nearest > movement.coherency_range(skirmish),
                                                If(inches_to_nearest > movement.coherency_range(skirmish), -1, 0),
                                                True)),
    ("m41-no-disembarking-past-twelve-inches", transports, "NO_DISEMBARK_BEYOND", 13),
    ("m41-no-disembarking-past-twelve-inches", transports, "may_disembark",
     lambda vehicle_moved_inches, began_phase_aboard=True, movement_phase=True, embarked_this_turn=False,
     after_tank_shock_or_ram=False: And(began_phase_aboard, vehicle_moved_inches < 12)),
]


def test_every_proved_movement_proof_has_a_mutant():
    """Every proved proof of this area has at least one broken copy of its rule that it must catch."""
    broken_rules.assert_every_proved_proof_has_a_mutant(MINE, MUTANTS)


@pytest.mark.parametrize("name,module,attribute,mutant", MUTANTS,
                         ids=[f"{m[0]}:{m[2]}:{i}" for i, m in enumerate(MUTANTS)])
def test_movement_proof_catches_a_broken_rule(monkeypatch, name, module, attribute, mutant):
    broken_rules.assert_proof_catches(monkeypatch, name, module, attribute, mutant)


# -- Hypothesis properties ---------------------------------------------------------------------------------------------

distances = st.fractions(0, 30, max_denominator=8)


# Units of 1 to 16 models: some with many neighbours, the rest (0 to all) with few, so every bullet's edge occurs.
neighbour_counts = st.builds(lambda many, few, size, short:
                             [many] * (size - min(short, size)) + [few] * min(short, size), st.integers(2, 5), st.integers(0, 3), st.integers(1, 16), st.integers(0, 6))


def _needed(size: int) -> int:
    """The coherency bullets as printed: one other model, two in a unit of more than 7 (0 for a lone model)."""
    return 0 if size == 1 else (2 if size > 7 else 1)


@pytest.mark.refs("m41:movement/unit-coherency")
@NO_EXPLAIN
@given(neighbour_counts, st.integers(0, 16))
@example([3] * 9 + [2] * 4, 12)
@example([3] * 10 + [2] * 3, 12)
@example([1] * 8, 3)
def test_coherency_follows_the_bullets(neighbours, spread):
    """A unit is in coherency exactly when every model has the neighbours its unit's size needs, at most three
    models of a unit of more than 12 have fewer than three, and no model is more than 12" from the farthest."""
    size = len(neighbours)
    expected = (all(count >= _needed(size) for count in neighbours)
                and (size <= 12 or sum(count < 3 for count in neighbours) <= 3) and spread <= 12)
    assert movement.in_coherency(neighbours, spread) == expected


@pytest.mark.refs("m41:transports/embarking")
@NO_EXPLAIN
@given(st.lists(distances, min_size=1, max_size=12), st.booleans())
def test_embarking_is_all_or_none(distances_of_models, open_topped):
    """A unit may embark exactly when every one of its models is within 6" of an access point (3" of any point of
    an open topped vehicle): one model out of range keeps them all out."""
    reach = 3 if open_topped else 6
    expected = all(distance <= reach for distance in distances_of_models)
    assert transports.may_embark(distances_of_models, open_topped=open_topped) == expected


@pytest.mark.refs("m41:transports/firing-points", "m41:transports/open-topped")
@NO_EXPLAIN
@given(st.integers(0, 20), st.integers(0, 6), st.booleans())
def test_passengers_firing(passengers, firing_points, open_topped):
    """One passenger fires for each firing point, never more than are aboard; every passenger of an open topped
    transport fires."""
    expected = passengers if open_topped else min(passengers, firing_points)
    assert transports.passengers_firing(passengers, firing_points, open_topped) == expected


@pytest.mark.refs("m41:movement/moving-through-other-models", "m41:movement/engagement-range")
@NO_EXPLAIN
@given(st.booleans(), st.booleans(), st.booleans())
def test_end_of_move_never_on_friends_or_touching_enemies(on_friend, touching_enemy, assaulting):
    """A model never ends its move on a friendly model, and touches an enemy only when launching an assault."""
    allowed = movement.may_end_move_at(on_friend, touching_enemy, assaulting)
    assert allowed == (not on_friend and (not touching_enemy or assaulting))


@pytest.mark.refs("m41:movement/moving-through-other-models", "m41:movement/jump-movement",
                  "m41:movement/hover-movement")
@NO_EXPLAIN
@given(st.booleans(), st.sampled_from(list(MovementType)))
def test_passing_through_models(friendly, kind):
    """Grounded models pass through friendly models only; jump and hover models move over any model; only hover
    models do not count as on the ground."""
    assert movement.may_pass_through(friendly, kind) == (friendly or kind != MovementType.GROUNDED)
    assert movement.counts_as_on_the_ground(kind) == (kind != MovementType.HOVER)


@pytest.mark.refs("m41:movement/split-levels")
@NO_EXPLAIN
@given(distances, distances, st.booleans())
def test_split_levels(vertical, horizontal, skirmish):
    """Models on levels less than 5" apart are coherent when within coherency range (1 5/8", 3" for Skirmish)
    horizontally; 5" or more apart they are not."""
    reach = 3 if skirmish else Fraction(13, 8)
    assert movement.split_level_coherent(vertical, horizontal, skirmish) == (vertical < 5 and horizontal <= reach)


@pytest.mark.refs("m41:transports/disembarking")
@NO_EXPLAIN
@given(distances, distances, st.booleans())
def test_disembark_position(from_access_point, from_enemy, coherent):
    """A disembarking model goes within 3" of an access point, in coherency, and more than 1" from any enemy."""
    allowed = transports.disembark_position_allowed(from_access_point, from_enemy, coherent)
    assert allowed == (from_access_point <= 3 and coherent and from_enemy > 1)


@pytest.mark.refs("m41:terrain/difficult-terrain")
@NO_EXPLAIN
@given(st.integers(0, 40), st.integers(0, 40))
def test_difficult_terrain_cost(open_inches, difficult_inches):
    """A move's cost is its inches plus 1" for every 3" (or part of 3") of it in difficult terrain."""
    stretches = next(k for k in itertools.count() if 3 * k >= difficult_inches)
    assert terrain.movement_spent(open_inches, difficult_inches) == open_inches + difficult_inches + stretches


# (property, module, attribute, broken copy)
BROKEN = [
    (test_coherency_follows_the_bullets, movement, "THREE_NEIGHBOURS_ABOVE", 13),
    (test_coherency_follows_the_bullets, movement, "MAX_SPREAD", 13),
    (test_coherency_follows_the_bullets, movement, "neighbours_required", lambda unit_size: 1),
    (test_embarking_is_all_or_none, transports, "may_embark",
     lambda inches_from_access_point, movement_phase=True, disembarked_this_turn=False, open_topped=False:
         Or(*[distance <= 6 for distance in inches_from_access_point])),
    (test_embarking_is_all_or_none, transports, "OPEN_TOPPED_RANGE", 6),
    (test_passengers_firing, transports, "passengers_firing",
     lambda passengers, firing_points, open_topped=False: firing_points),
    (test_end_of_move_never_on_friends_or_touching_enemies, movement, "may_end_move_at",
     lambda on_a_friendly_model, touching_an_enemy_model, launching_an_assault=False: Not(on_a_friendly_model)),
    (test_passing_through_models, movement, "counts_as_on_the_ground", lambda movement_type: True),
    (test_passing_through_models, movement, "flies_over_models",
     lambda movement_type: movement_type == MovementType.JUMP),
    (test_split_levels, movement, "SPLIT_LEVEL_LIMIT", 6),
    (test_split_levels, movement, "SKIRMISH_COHERENCY_RANGE", 2),
    (test_disembark_position, transports, "ENEMY_CLEARANCE", 0),
    (test_disembark_position, transports, "DISEMBARK_RANGE", 6),
    (test_difficult_terrain_cost, terrain, "difficult_terrain_penalty", lambda inches_in_difficult:
     inches_in_difficult // 3),
]


@pytest.mark.parametrize("prop,module,attribute,mutant", BROKEN,
                         ids=[f"{b[0].__name__}:{b[2]}:{i}" for i, b in enumerate(BROKEN)])
def test_movement_property_fails_for_a_broken_rule(monkeypatch, prop, module, attribute, mutant):
    broken_rules.assert_property_fails(monkeypatch, prop, module, attribute, mutant)


def test_movement_properties_hold_unbroken():
    """The same properties pass on the real rules (so the failures above come from the mutants)."""
    broken_rules.assert_properties_hold(b[0] for b in BROKEN)


# -- Plain checks: exact chances ---------------------------------------------------------------------------------------


def _counted_wounds(models: int, save: int | None) -> dict[int, Fraction]:
    """Wounds counted over every outcome of each model's dangerous terrain D6 and its saving throw D6."""
    counts: dict[int, int] = {}
    faces = range(1, 7)
    for rolls in itertools.product(faces, repeat=2 * models):
        wounds = sum(1 for i in range(models)
                     if rolls[2 * i] == 1 and (save is None or rolls[2 * i + 1] < save))
        counts[wounds] = counts.get(wounds, 0) + 1
    total = 6 ** (2 * models)
    return {wounds: Fraction(n, total) for wounds, n in sorted(counts.items())}


@pytest.mark.refs("m41:terrain/dangerous-terrain")
@pytest.mark.parametrize("models,save", [(0, None), (1, None), (1, 1), (1, 2), (1, 8), (2, 4), (2, 7), (3, None), (3, 3)])
def test_dangerous_terrain_distribution_counts_every_dice(models, save):
    """The exact distribution of dangerous terrain wounds equals a count over every D6 each model rolls and
    every saving throw it then takes (a save of 7+ or 8+ always fails, 2+ fails on a 1, 1+ never)."""
    assert terrain.dangerous_wounds_distribution(models, save) == _counted_wounds(models, save)


@pytest.mark.refs("m41:terrain/dangerous-terrain")
def test_dangerous_terrain_fails_for_a_broken_rule(monkeypatch):
    """Forcing saves on 1s and 2s breaks the count check above."""
    monkeypatch.setattr(terrain, "dangerous_test_forces_save", lambda roll: roll <= 2)
    assert terrain.dangerous_wounds_distribution(1, None) != _counted_wounds(1, None)
