"""004's Weapons, AP and Saves and Unit Types chapters (ruleset ``m41``): the z3 proofs of
properties/proofs_m41_weapons.py (each failing for a broken copy of the rule it rests on), the exact scatter
distributions (summing to one, agreeing with the dice they come from), and the chapters' rules against their text,
each property seen to fail on a broken rule."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from hypothesis import Phase as Stage
from hypothesis import given, settings
from hypothesis import strategies as st

from properties import broken_rules, mutation, proofs_m41_weapons
from rules import spec
from rules.logic import And, If, Max, Min, z3
from rules.m41 import unit_types, weapons
from rules.m41.unit_types import Characteristic, UnitType
from rules.m41.weapons import NO_AP, NO_SAVE, StrengthKind, WeaponType

MINE = broken_rules.proofs_built_in(proofs_m41_weapons)
NO_EXPLAIN = settings(phases=[stage for stage in Stage if stage != Stage.explain])
D3 = range(1, 4)
D6 = range(1, 7)


def _text(ref: str) -> str:
    return spec.sections("m41")[ref]["text"].lower().replace("\n", " ")


# -- Proofs -------------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", MINE)
def test_weapons_proof_has_its_expected_verdict(name):
    broken_rules.assert_expected_verdict(name)


# (proof, module, attribute, broken copy): each a plausible slip that must turn the proof "disproved".
MUTANTS = [
    ("m41-weapons-save-never-better-than-printed", weapons, "rend_penalty", lambda ap: If(ap < 0, ap, 0)),
    ("m41-weapons-save-never-better-than-printed", weapons, "armour_save_needed",
     lambda save, ap, overpowered=False: If(weapons.armour_pierced(save, ap), NO_SAVE,
                                            save + weapons.rend_penalty(ap) + If(overpowered, 1, 0))),
    ("m41-weapons-better-ap-never-lets-a-worse-save", weapons, "armour_pierced",
     lambda save, ap: And(ap >= 1, save <= ap)),  # the comparison turned round: AP 2 would pierce only 2+
    ("m41-weapons-penetration-before-modifiers", weapons, "armour_save_needed",
     lambda save, ap, overpowered=False: If(weapons.armour_pierced(save + If(overpowered, 1, 0), ap), NO_SAVE,
                                            Min(save + If(overpowered, 1, 0), NO_SAVE))),
    ("m41-weapons-invulnerable-save-ignores-ap", weapons, "invulnerable_save_needed",
     lambda invulnerable_save, ap=NO_AP, overpowered=False: If(overpowered, invulnerable_save + 1, invulnerable_save)),
    ("m41-weapons-overpower-monotone-in-strength", weapons, "OVERPOWER_MARGIN", 2),
    ("m41-weapons-moving-never-adds-shots", weapons, "shots_fired",
     lambda weapon_type, shots, moved, within_half_range=False, stationary_shots=None, vehicle=False:
         If(weapon_type == WeaponType.SALVO, If(moved, stationary_shots, shots), shots)),
    ("m41-weapons-ordnance-picks-the-highest", weapons, "ordnance_roll",
     lambda first_die, second_die, ordnance: If(ordnance, first_die + second_die - 1, first_die)),
    ("m41-weapons-scatter-never-more-than-half-the-aim", weapons, "scatter_capped",
     lambda distance, aim_distance: Min(distance, aim_distance)),
    ("m41-weapons-scatter-capped-at-exactly-half", weapons, "_half",  # a third for a whole number of inches
     lambda distance: z3.ToReal(distance) / 3 if weapons.is_symbolic(distance) and distance.is_int() else distance / 2),
    ("m41-weapons-scatter-capped-at-exactly-half", weapons, "_half",  # a third for a real distance
     lambda distance: z3.ToReal(distance) / 2 if weapons.is_symbolic(distance) and distance.is_int() else distance / 3),
    ("m41-weapons-better-bs-never-scatters-farther", weapons, "blast_scatter",
     lambda arrow, three_d3, ballistic_skill, aim_distance:
         If(arrow, weapons.scatter_capped(Max(three_d3 + ballistic_skill - 8, 0), aim_distance), 0)),
    ("unit-types-every-type-moves-at-least-infantry", unit_types, "move_distance",
     lambda unit_type, jump_movement=False: If(unit_type == UnitType.SWARMS, 3, 6)),
    ("unit-types-swarm-attacks-fall-with-wounds", unit_types, "swarm_attacks",
     lambda attacks, wounds_lost: attacks - wounds_lost),
]


def test_every_proved_weapons_proof_has_a_mutant():
    broken_rules.assert_every_proved_proof_has_a_mutant(MINE, MUTANTS)


@pytest.mark.parametrize("name,module,attribute,mutant", MUTANTS,
                         ids=[f"{m[0]}:{m[2]}:{i}" for i, m in enumerate(MUTANTS)])
def test_weapons_proof_catches_a_broken_rule(monkeypatch, name, module, attribute, mutant):
    broken_rules.assert_proof_catches(monkeypatch, name, module, attribute, mutant, example=False)


# -- Scatter distributions -------------------------------------------------------------------------------------------


def _by_the_dice(scatter, hit_faces: int, dice: list[range]) -> dict[Fraction, Fraction]:
    """The distribution of ``scatter(arrow, total)`` over every face of the scatter die and the dice, each equally
    likely (the scatter die's first ``hit_faces`` faces are Hit!)."""
    outcomes: dict[Fraction, int] = {}
    combos = list(itertools.product(range(1, 7), *dice))
    for face, *rolled in combos:
        distance = Fraction(scatter(face > hit_faces, sum(rolled)))
        outcomes[distance] = outcomes.get(distance, 0) + 1
    return {d: Fraction(n, len(combos)) for d, n in sorted(outcomes.items())}


AIMS = (1, 3, 5, 8, 13, 24)


@pytest.mark.refs("m41:weapons/firing-blast-weapons")
def test_blast_scatter_distribution_sums_to_one_and_is_the_dice():
    """For every BS 1 to 10, aim distance and Hit! face count, a blast's scatter distribution sums to exactly one,
    never exceeds half the aim, and is what rolling the scatter die and three D3s gives."""
    for bs, aim, hits in itertools.product(range(1, 11), AIMS, (1, 2)):
        dist = weapons.blast_scatter_distribution(bs, aim, hits)
        assert sum(dist.values()) == 1 and all(p > 0 for p in dist.values())
        assert max(dist) <= Fraction(aim, 2)
        expected = _by_the_dice(lambda arrow, total: weapons.blast_scatter(arrow, total, bs, aim), hits, [D3] * 3)
        assert dist == expected, (bs, aim, hits)


@pytest.mark.refs("m41:weapons/barrage")
def test_barrage_scatter_distribution_sums_to_one_and_is_the_dice():
    """For every BS 1 to 10, aim distance, sight and Hit! face count, a barrage's scatter distribution sums to
    exactly one, never exceeds half the aim, and is what rolling the scatter die and 2D6 gives."""
    for bs, aim, sight, hits in itertools.product(range(1, 11), AIMS, (True, False), (1, 2)):
        dist = weapons.barrage_scatter_distribution(bs, aim, sight, hits)
        assert sum(dist.values()) == 1 and all(p > 0 for p in dist.values())
        assert max(dist) <= Fraction(aim, 2)
        expected = _by_the_dice(lambda arrow, total: weapons.barrage_scatter(arrow, total, bs, aim, sight), hits,
                                [D6] * 2)
        assert dist == expected, (bs, aim, sight, hits)


@pytest.mark.refs("m41:weapons/firing-blast-weapons")
def test_blast_stays_put_on_hit_or_a_low_roll():
    """A blast stays where aimed on a Hit! (2 faces of 6) or when 3d3 is no more than the BS: the chance is
    2/6 + 4/6 x P(3d3 <= BS), worked from 3d3's counts 1, 3, 6, 7, 6, 3, 1 of 27 for 3 to 9."""
    counts = {3: 1, 4: 3, 5: 6, 6: 7, 7: 6, 8: 3, 9: 1}
    for bs in range(1, 11):
        low = Fraction(sum(n for total, n in counts.items() if total <= bs), 27)
        assert weapons.blast_scatter_distribution(bs, 24)[0] == Fraction(2, 6) + Fraction(4, 6) * low


# -- Saves, shots and the profile ---------------------------------------------------------------------------------------


@pytest.mark.refs("m41:weapons/armour-piercing", "m41:weapons/armour-rend", "m41:weapons/overpower",
                  "m41:weapons/invulnerable-saves")
def test_save_needed_as_the_text_reads():
    """Every save 2+ to none against every AP (rend -3 to -1, 1 to 6, "-"), overpowered or not: an AP of 1 or more
    at or below the save's value denies it; otherwise rend's size and overpower's 1 worsen it, up to no save; an
    invulnerable save is untouched; a save passes on its number or more, never on a natural 1."""
    for save, ap, op in itertools.product(range(2, 8), [-3, -2, -1, *range(1, 8)], (False, True)):
        worsened = save + (-ap if ap < 0 else 0) + (1 if op else 0)
        expected = NO_SAVE if 1 <= ap <= save else min(worsened, NO_SAVE)
        assert weapons.armour_save_needed(save, ap, op) == expected, (save, ap, op)
        assert weapons.invulnerable_save_needed(min(save, 6), ap, op) == min(save, 6)
    for roll, needed in itertools.product(D6, range(1, 8)):
        assert weapons.save_holds(roll, needed) == (roll != 1 and roll >= needed)
    assert [weapons.save_chance(n) for n in (1, 2, 4, 6, 7)] == [Fraction(5, 6), Fraction(5, 6), Fraction(1, 2),
                                                                 Fraction(1, 6), 0]
    assert weapons.wounds_lost_to_unsaved_wound(False) == 1


@pytest.mark.refs("m41:weapons/overpower", "m41:weapons/blasts-and-large-blasts")
def test_overpower_beyond_the_chart_and_never_in_the_outer_ring():
    """An attack overpowers when S - T is 3 or more or a rule triggers it, never in a large blast's outer ring; the
    outer ring's AP is one worse, "-" staying "-"."""
    for s, t, rule, outer in itertools.product(range(1, 11), range(1, 11), (False, True), (False, True)):
        assert weapons.overpowers(s, t, rule, outer) == ((s - t >= 3 or rule) and not outer)
    for ap, inner in itertools.product([-1, *range(1, 8)], (False, True)):
        assert weapons.large_blast_ap(ap, inner) == (ap if inner or ap == NO_AP else ap + 1)


@pytest.mark.refs("m41:weapons/number-of-shots", "m41:weapons/assault-weapons", "m41:weapons/rapid-fire-weapons",
                  "m41:weapons/salvo-weapons", "m41:weapons/heavy-weapons", "m41:weapons/ordnance-weapons",
                  "m41:weapons/pistols")
def test_shots_by_type_as_the_text_reads():
    """Each type's shots: Assault and Pistol as printed moved or not, Rapid Fire double within half range, Salvo
    the first number after moving and the second otherwise, Heavy none after moving, Ordnance none after moving
    off a vehicle, Melee none in the shooting phase."""
    for kind, shots, extra, moved, half, vehicle in itertools.product(WeaponType, (1, 2, 3), (0, 2), *[(False, True)] * 3):
        stationary = shots + extra
        expected = {
            WeaponType.ASSAULT: shots, WeaponType.PISTOL: shots,
            WeaponType.RAPID_FIRE: 2 * shots if half else shots,
            WeaponType.SALVO: shots if moved else stationary,
            WeaponType.HEAVY: 0 if moved else shots,
            WeaponType.ORDNANCE: 0 if moved and not vehicle else shots,
            WeaponType.MELEE: 0,
        }[kind]
        assert weapons.shots_fired(kind, shots, moved, half, stationary, vehicle) == expected, kind
    assert weapons.shots_fired(WeaponType.SALVO, 4, False) == 4  # no second number: the first either way
    assert [weapons.pistols_fired(n) for n in range(4)] == [0, 1, 2, 2]
    assert (weapons.pistol_melee_attacks(True), weapons.pistol_melee_attacks(False)) == (1, 0)


@pytest.mark.refs("m41:weapons/ordnance-weapons", "m41:weapons/ordinance-barrage")
def test_ordnance_rules():
    """Ordnance cannot snap fire (every other type can), rolls two dice to wound or penetrate keeping the highest
    (a 4+ is 3/4, a 6+ 11/36), stops a non-vehicle bearer's other weapons and charge, makes a vehicle's other
    weapons snap shots; an Ordnance barrage cannot fire once any unit moved."""
    assert [weapons.may_fire_snap_shots(k) for k in WeaponType] == [k != WeaponType.ORDNANCE for k in WeaponType]
    assert weapons.roll_chance(4, True) == Fraction(3, 4) and weapons.roll_chance(6, True) == Fraction(11, 36)
    assert weapons.roll_chance(4, False) == Fraction(1, 2)
    assert (weapons.other_weapons_after_ordnance(False), weapons.other_weapons_after_ordnance(True)) == (0, 1)
    assert [weapons.may_charge_after_ordnance(f, v) for f, v in itertools.product((False, True), repeat=2)] == \
        [True, True, False, True]
    assert (weapons.may_fire_ordnance_barrage(False), weapons.may_fire_ordnance_barrage(True)) == (True, False)


TYPES = st.sampled_from(["Assault", "Rapid Fire", "Heavy", "Ordnance", "Pistol", "Melee"])


@pytest.mark.refs("m41:weapons/number-of-shots", "m41:weapons/type")
@NO_EXPLAIN
@given(TYPES, st.integers(1, 9), st.booleans(), st.sampled_from(["", ", Gets Hot!", ", Large Blast"]))
def test_read_type_reads_type_then_shots(kind, shots, written, rules):
    """A type is read with the number of shots after it (1 when none is written) and the special rules after a
    comma ignored; only Salvo takes two numbers."""
    text = f"{kind} {shots}" if written else kind
    assert weapons.read_type(text + rules) == (WeaponType[kind.upper().replace(" ", "_")], shots if written else 1,
                                               shots if written else 1)
    with pytest.raises(ValueError):
        weapons.read_type(f"{kind} {shots}/{shots + 1}")
    first, second = shots, shots + 2
    assert weapons.read_type(f"Salvo {first}/{second}{rules}") == (WeaponType.SALVO, first, second)
    with pytest.raises(ValueError):
        weapons.read_type(f"Salvo {first}")


@pytest.mark.refs("m41:weapons/strength", "m41:weapons/close-combat-weapons", "m41:weapons/melee-vs-ranged-weapons",
                  "m41:weapons/melee-type", "m41:weapons/ranged-weapons", "m41:weapons/range",
                  "m41:weapons/template-weapons")
def test_profile_columns():
    """Strength: a number as printed, User the wielder's, +N added, xN multiplied; a profile is melee only with
    range "-" and type Melee; melee weapons in the assault phase, ranged weapons in the shooting phase, pistols in
    both; a range bracket includes both ends; 'Template' or 'Hellstorm' in the type means the template."""
    for user, value in itertools.product(range(1, 7), range(1, 4)):
        assert [weapons.weapon_strength(user, k, value) for k in StrengthKind] == [value, user, user + value,
                                                                                  user * value]
    for dash, says, pistol, assault in itertools.product((False, True), repeat=4):
        melee = weapons.is_melee_weapon(dash, says)
        assert melee == (dash and says)
        assert weapons.usable_in_phase(melee, pistol, assault) == ((melee or pistol) if assault else not melee)
    assert [weapons.within_range(d, 48, 12) for d in (11, 12, 48, 49)] == [False, True, True, False]
    assert weapons.within_range(0, 24)
    assert [weapons.uses_template(t) for t in ("Template", "Hellstorm", "Assault 1, template", "Heavy 1",
                                               "Templated")] == [True, True, True, False, False]


@pytest.mark.refs("m41:weapons/grenades", "m41:weapons/barrage", "m41:weapons/firing-blast-weapons",
                  "m41:weapons/multiple-blasts", "m41:weapons/blast-weapons-and-re-rolls",
                  "m41:weapons/multi-level-terrain")
def test_grenades_and_blast_details():
    """Defensive grenades deny the charge's extra attack, assault grenades the initiative penalty; a barrage misses
    inside its minimum range, always pins; a blast off the table misses; blasts' hits are added; a re-roll takes
    the scatter die and 3d3 together; a blast is a cylinder as tall as it is wide."""
    assert [weapons.charge_bonus_attack(c, d) for c, d in itertools.product((False, True), repeat=2)] == \
        [False, False, True, False]
    assert (weapons.initiative_penalty_charging_into_cover(2, True),
            weapons.initiative_penalty_charging_into_cover(2, False)) == (0, 2)
    assert [weapons.barrage_misses_at_minimum_range(d, 12) for d in (11, 12, 13)] == [True, False, False]
    assert [weapons.has_pinning(b, p) for b, p in itertools.product((False, True), repeat=2)] == \
        [False, True, True, True]
    assert weapons.blast_misses(True) and not weapons.blast_misses(False)
    assert weapons.blast_hits_total([3, 0, 2]) == 5
    assert [weapons.blast_re_roll_allowed(a, b) for a, b in itertools.product((False, True), repeat=2)] == \
        [True, False, False, True]
    assert [weapons.blast_reaches_height(h, 3) for h in (-1, 0, 3, 4)] == [False, True, True, False]
    assert weapons.barrage_scatter(False, 12, 1, 48, False) == 0


@pytest.mark.refs("m41:weapons/template-weapons-placing", "m41:weapons/torrent", "m41:weapons/ranged-templates")
def test_template_placement():
    """At most 1" of a template out of sight and no friendly model touched; only flame templates ignore cover; a
    torrent's narrow end within 12" (a ranged template's within its range, in line) and its wide end no closer."""
    assert [weapons.template_placement_allowed(d, f) for d, f in ((0, False), (1, False), (2, False), (0, True))] \
        == [True, True, False, False]
    assert [weapons.template_ignores_cover(t, f) for t, f in itertools.product((False, True), repeat=2)] == \
        [False, False, False, True]
    assert [weapons.torrent_placement_allowed(n, w) for n, w in ((12, 12), (13, 20), (5, 4))] == [True, False, False]
    assert not weapons.torrent_placement_allowed(6, 10, 18, in_line=False, ranged_template=True)
    assert weapons.torrent_placement_allowed(6, 10, 18, in_line=False, ranged_template=False)
    assert weapons.torrent_placement_allowed(18, 20, 18, in_line=True, ranged_template=True)


# -- Unit types ------------------------------------------------------------------------------------------------------


MOVES = {UnitType.INFANTRY: 6, UnitType.JET_PACK_INFANTRY: 6, UnitType.BEASTS: 9, UnitType.MONSTROUS_CREATURE: 6,
         UnitType.DREADNOUGHT: 6, UnitType.MOBILE_WEAPONS_SYSTEM: 6, UnitType.BATTLESUIT: 6, UnitType.CAVALRY: 9,
         UnitType.BIKES: 12, UnitType.JET_BIKES: 12, UnitType.SWARMS: 6}
FLEE = {UnitType.JUMP_INFANTRY: 3, UnitType.JET_PACK_INFANTRY: 3, UnitType.BEASTS: 3, UnitType.CAVALRY: 3,
        UnitType.BIKES: 6, UnitType.JET_BIKES: 6}


@pytest.mark.refs("m41:unit-types/moving-with-infantry", "m41:unit-types/moving-with-jump-movement",
                  "m41:unit-types/moving-with-jet-packs", "m41:unit-types/beasts", "m41:unit-types/lumbering-behemoth",
                  "m41:unit-types/moving-with-cavalry", "m41:unit-types/moving-with-bikes", "m41:unit-types/jet-bikes",
                  "m41:unit-types/thruster-move", "m41:unit-types/turbo-boost")
def test_movement_and_fleeing_as_the_text_reads():
    """Moves: infantry 6", jump +3 with jump movement, beasts and cavalry +3, bikes +6, the rest infantry's; flee
    extras: jump, jet pack, beasts and cavalry 3", bikes 6"; turbo-boost 12" (jet bikes 18") and -1 to hit."""
    for unit_type, jump in itertools.product(UnitType, (False, True)):
        expected = 9 if unit_type == UnitType.JUMP_INFANTRY and jump else MOVES.get(unit_type, 6)
        assert unit_types.move_distance(unit_type, jump) == expected, unit_type
        assert unit_types.flee_extra(unit_type) == FLEE.get(unit_type, 0), unit_type
    assert (unit_types.turbo_boost_distance(False), unit_types.turbo_boost_distance(True)) == (12, 18)
    assert (unit_types.to_hit_modifier_against(True), unit_types.to_hit_modifier_against(False)) == (-1, 0)


@pytest.mark.refs("m41:unit-types/charging-with-infantry", "m41:unit-types/charging-with-jump-packs",
                  "m41:unit-types/thruster-move")
def test_charging_and_thrusting():
    """Infantry charge 4 + 2d3 (6 to 10); a jump-pack charge may re-roll it; jet packs thrust instead of charging."""
    assert sorted({unit_types.charge_distance(a + b) for a in D3 for b in D3}) == [6, 7, 8, 9, 10]
    assert unit_types.may_re_roll_charge_distance(True) and not unit_types.may_re_roll_charge_distance(False)
    assert [unit_types.may_thrust(j, c) for j, c in itertools.product((False, True), repeat=2)] == \
        [False, False, True, False]


@pytest.mark.refs("m41:unit-types/dangerous-descent", "m41:unit-types/lumbering-behemoth",
                  "m41:unit-types/unstable-footing", "m41:unit-types/treacherous-traversal",
                  "m41:unit-types/moving-with-cavalry", "m41:unit-types/moving-with-bikes",
                  "m41:unit-types/bikes-and-assault")
def test_terrain_pinning_and_counter_charges_by_type():
    """Difficult terrain slows infantry but not monstrous creatures, dreadnoughts, cavalry, bikes or a jump move;
    it is dangerous to cavalry, bikes and a jump move; cavalry climb 2" at a time; cavalry and bikes cannot be
    pinned; bikes cannot counter charge."""
    unhindered = {UnitType.MONSTROUS_CREATURE, UnitType.DREADNOUGHT, UnitType.CAVALRY, UnitType.BIKES,
                  UnitType.JET_BIKES}
    riders = {UnitType.CAVALRY, UnitType.BIKES, UnitType.JET_BIKES}
    for unit_type, jump in itertools.product(UnitType, (False, True)):
        jumping = unit_type == UnitType.JUMP_INFANTRY and jump
        assert unit_types.slowed_by_difficult_terrain(unit_type, jump) == (unit_type not in unhindered and not jumping)
        assert unit_types.difficult_terrain_is_dangerous(unit_type, jump) == (unit_type in riders or jumping)
        assert unit_types.may_be_pinned(unit_type) == (unit_type not in riders)
        assert unit_types.may_counter_charge(unit_type) == (unit_type not in {UnitType.BIKES, UnitType.JET_BIKES})
    assert [unit_types.cavalry_may_climb(h) for h in (1, 2, 3)] == [True, True, False]


@pytest.mark.refs("m41:unit-types/shooting-with-infantry", "m41:unit-types/big-guns-never-tire",
                  "m41:unit-types/dreadnoughts", "m41:unit-types/shooting-with-bikes")
def test_weapons_fired_by_type():
    """Infantry fire one weapon or two pistols, monstrous creatures two at one target, dreadnoughts all, bikes one
    per rider, never more than carried; a bike-mounted weapon fires in its 90 degree front arc, carried ones all
    round; a monstrous creature may use any ranged weapon but Ordnance in the assault phase."""
    for carried, pistols, riders in itertools.product(range(0, 5), (False, True), (1, 2)):
        assert unit_types.weapons_fired(UnitType.INFANTRY, carried, pistols) == min(carried, 2 if pistols else 1)
        assert unit_types.weapons_fired(UnitType.MONSTROUS_CREATURE, carried) == min(carried, 2)
        assert unit_types.weapons_fired(UnitType.DREADNOUGHT, carried) == carried
        assert unit_types.weapons_fired(UnitType.BIKES, carried, riders=riders) == min(carried, riders)
    assert [unit_types.may_split_fire(t) for t in UnitType] == [t != UnitType.MONSTROUS_CREATURE for t in UnitType]
    assert [unit_types.in_firing_arc(a, True) for a in (-46, -45, 45, 46)] == [False, True, True, False]
    assert unit_types.in_firing_arc(180, False)
    assert [unit_types.monstrous_may_use_in_assault(k) for k in WeaponType] == \
        [k not in (WeaponType.ORDNANCE, WeaponType.MELEE) for k in WeaponType]


@pytest.mark.refs("m41:unit-types/lumbering-behemoth", "m41:unit-types/dreadnoughts", "m41:unit-types/battlesuits",
                  "m41:unit-types/bikes-and-assault", "m41:unit-types/power-in-numbers", "m41:unit-types/swarms",
                  "m41:unit-types/jump-and-jet-pack-monstrous-creatures")
def test_monstrous_dreadnought_bike_and_swarm_rules():
    """Monstrous cover 1 worse to 6+ at most, no charge after walking away, only their own type may join them
    (dreadnoughts too); poison re-rolled against dreadnoughts and battlesuits, fleshbane against dreadnoughts;
    bikes that did not charge lose 1 WS, I and A to a minimum of 1; a swarm's attacks fall with lost wounds;
    swarms give no cover to monstrous creatures or vehicles; jump or jet packs give jump movement."""
    assert [unit_types.cover_save_of(c, True) for c in (3, 4, 5, 6)] == [4, 5, 6, 6]
    assert unit_types.cover_save_of(4, False) == 4
    assert not unit_types.may_charge_after_walking_away(True) and unit_types.may_charge_after_walking_away(False)
    for joining, has in itertools.product(UnitType, (False, True)):
        for kind in (UnitType.MONSTROUS_CREATURE, UnitType.DREADNOUGHT):
            assert unit_types.may_join(joining, has, kind) == (not has or joining == kind)
    for unit_type, poisoned, fleshbane in itertools.product(UnitType, (False, True), (False, True)):
        expected = ((poisoned and unit_type in (UnitType.DREADNOUGHT, UnitType.BATTLESUIT))
                    or (fleshbane and unit_type == UnitType.DREADNOUGHT))
        assert unit_types.successful_wound_re_rolled(unit_type, poisoned, fleshbane) == expected
    assert [unit_types.bike_combat_value(v, False) for v in (1, 2, 4)] == [1, 1, 3]
    assert unit_types.bike_combat_value(4, True) == 4
    assert [unit_types.swarm_attacks(4, lost) for lost in range(6)] == [4, 3, 2, 1, 0, 0]
    assert [unit_types.intervening_swarm_gives_cover(t) for t in (False, True)] == [True, False]
    assert not unit_types.intervening_swarm_gives_cover(False, False)
    assert [unit_types.has_jump_movement(a, b) for a, b in itertools.product((False, True), repeat=2)] == \
        [False, True, True, True]


SECTION_OF_RULES = {
    UnitType.BEASTS: ("unit-types/beasts",),
    UnitType.MONSTROUS_CREATURE: ("unit-types/lumbering-behemoth", "unit-types/big-guns-never-tire",
                                  "unit-types/crushing-blows"),
    UnitType.DREADNOUGHT: ("unit-types/dreadnoughts",),
    UnitType.MOBILE_WEAPONS_SYSTEM: ("unit-types/mobile-weapons-system",),
    UnitType.BATTLESUIT: ("unit-types/battlesuits",),
    UnitType.CAVALRY: ("unit-types/advance-charge",),
    UnitType.BIKES: ("unit-types/moving-with-bikes", "unit-types/shooting-with-bikes", "unit-types/bikes-and-assault"),
    UnitType.SWARMS: ("unit-types/swarms",),
}


@pytest.mark.refs("m41:unit-types/infantry", "m41:unit-types/beasts", "m41:unit-types/lumbering-behemoth",
                  "m41:unit-types/big-guns-never-tire", "m41:unit-types/crushing-blows", "m41:unit-types/dreadnoughts",
                  "m41:unit-types/mobile-weapons-system", "m41:unit-types/battlesuits", "m41:unit-types/advance-charge",
                  "m41:unit-types/moving-with-bikes", "m41:unit-types/shooting-with-bikes",
                  "m41:unit-types/bikes-and-assault", "m41:unit-types/swarms")
def test_special_rules_are_named_in_their_sections():
    """Each special rule a unit type is given is named in that type's sections (the hyphen of hit-and-run and
    'special' aside), infantry have none, and jet bikes have the bikes' rules."""
    assert unit_types.special_rules_of(UnitType.INFANTRY) == frozenset()
    assert unit_types.special_rules_of(UnitType.JET_BIKES) == unit_types.special_rules_of(UnitType.BIKES)
    for unit_type, refs in SECTION_OF_RULES.items():
        text = " ".join(_text(ref) for ref in refs)
        for name in unit_types.special_rules_of(unit_type):
            assert name.split()[0] in text and name.split()[-1] in text, (unit_type, name)
    assert len(unit_types.special_rules_of(UnitType.MONSTROUS_CREATURE)) == 5


@pytest.mark.refs("m41:unit-types/damaging-monstrous-creatures")
@NO_EXPLAIN
@given(st.lists(st.integers(0, 20), max_size=30))
def test_monstrous_damage_spreads_evenly(picks):
    """Choosing characteristics as damage_choices allows, wound after wound: never Wounds, no characteristic twice
    before every other once, so damage counts never differ by more than one; a first wound may worsen any of 8."""
    taken: dict[Characteristic, int] = {}
    assert unit_types.damage_choices(taken) == frozenset(unit_types.DAMAGEABLE) and len(unit_types.DAMAGEABLE) == 8
    for pick in picks:
        allowed = sorted(unit_types.damage_choices(taken))
        assert Characteristic.W not in allowed
        choice = allowed[pick % len(allowed)]
        taken[choice] = taken.get(choice, 0) + 1
        counts = [taken.get(c, 0) for c in unit_types.DAMAGEABLE]
        assert max(counts) - min(counts) <= 1
        assert sum(counts) == sum(taken.values())
    assert unit_types.legal_damage_sequence([Characteristic.WS, Characteristic.BS])
    assert not unit_types.legal_damage_sequence([Characteristic.WS, Characteristic.WS])


@pytest.mark.refs("m41:unit-types/damaging-monstrous-creatures")
def test_damaged_characteristic_is_worse_by_one_each_time():
    """Each damage worsens a characteristic by 1: a lower WS, BS, S, T, I, A or Ld, a higher Sv number."""
    for characteristic, times in itertools.product(unit_types.DAMAGEABLE, range(3)):
        expected = 3 + times if characteristic == Characteristic.SV else 5 - times
        printed = 3 if characteristic == Characteristic.SV else 5
        assert unit_types.damaged_value(characteristic, printed, times) == expected


# -- Broken rules --------------------------------------------------------------------------------------------------------


def _fails(check) -> bool:
    """Whether a check fails: a hypothesis property through mutation.fails, a plain test by running it."""
    if hasattr(check, "hypothesis"):
        return mutation.fails(check)
    try:
        check()
    except (AssertionError, ValueError, KeyError):
        return True
    return False


# (check, module, attribute, broken copy)
BROKEN = [
    (test_blast_scatter_distribution_sums_to_one_and_is_the_dice, weapons, "blast_scatter",
     lambda arrow, three_d3, ballistic_skill, aim_distance: If(arrow, weapons.scatter_capped(three_d3, aim_distance), 0)),
    (test_blast_scatter_distribution_sums_to_one_and_is_the_dice, weapons, "_scatter_distribution",
     lambda raw, aim_distance, hit_faces: {Fraction(v): p for v, p in raw.items()}),
    (test_barrage_scatter_distribution_sums_to_one_and_is_the_dice, weapons, "barrage_scatter_distribution",
     lambda ballistic_skill, aim_distance, target_in_sight, hit_faces=2:
         weapons.blast_scatter_distribution(ballistic_skill, aim_distance, hit_faces)),
    (test_blast_stays_put_on_hit_or_a_low_roll, weapons, "blast_scatter_distribution",
     lambda ballistic_skill, aim_distance, hit_faces=2: {Fraction(0): Fraction(1)}),
    (test_save_needed_as_the_text_reads, weapons, "rend_penalty", lambda ap: 0),
    (test_save_needed_as_the_text_reads, weapons, "save_holds", lambda roll, needed: roll >= needed),
    (test_overpower_beyond_the_chart_and_never_in_the_outer_ring, weapons, "LARGE_BLAST_OUTER_AP_PENALTY", 0),
    (test_shots_by_type_as_the_text_reads, weapons, "pistols_fired", lambda pistols_carried: pistols_carried),
    (test_ordnance_rules, weapons, "ordnance_roll", lambda first_die, second_die, ordnance: first_die),
    (test_read_type_reads_type_then_shots, weapons, "read_type",
     lambda type_text: (WeaponType[type_text.split(",")[0].rstrip(" 0123456789/").upper().replace(" ", "_")], 1, 1)),
    (test_profile_columns, weapons, "weapon_strength",
     lambda user_strength, kind, value=0: If(kind == StrengthKind.FIXED, value, user_strength + value)),
    (test_grenades_and_blast_details, weapons, "barrage_misses_at_minimum_range",
     lambda aim_distance, minimum_range: aim_distance <= minimum_range),
    (test_template_placement, weapons, "torrent_placement_allowed",
     lambda narrow_end_distance, wide_end_distance, reach=13, in_line=True, ranged_template=False:
         And(narrow_end_distance <= reach, wide_end_distance >= narrow_end_distance)),
    (test_movement_and_fleeing_as_the_text_reads, unit_types, "BIKE_EXTRA", 3),
    (test_charging_and_thrusting, unit_types, "CHARGE_BASE", 3),
    (test_terrain_pinning_and_counter_charges_by_type, unit_types, "may_be_pinned",
     lambda unit_type: unit_type != UnitType.CAVALRY),
    (test_weapons_fired_by_type, unit_types, "MONSTROUS_WEAPONS", 3),
    (test_monstrous_dreadnought_bike_and_swarm_rules, unit_types, "bike_combat_value",
     lambda value, charged_this_round: If(charged_this_round, value, Max(value - 1, 0))),
    (test_special_rules_are_named_in_their_sections, unit_types, "SPECIAL_RULES",
     {**unit_types.SPECIAL_RULES, UnitType.SWARMS: frozenset({"small targets", "fearless"})}),
    (test_monstrous_damage_spreads_evenly, unit_types, "damage_choices",
     lambda damage_taken: frozenset(unit_types.DAMAGEABLE)),
    (test_damaged_characteristic_is_worse_by_one_each_time, unit_types, "damaged_value",
     lambda characteristic, printed, times_damaged: printed - times_damaged),
]


@pytest.mark.parametrize("check,module,attribute,mutant", BROKEN,
                         ids=[f"{b[0].__name__}:{b[2]}:{i}" for i, b in enumerate(BROKEN)])
def test_weapons_property_fails_on_a_broken_rule(monkeypatch, check, module, attribute, mutant):
    monkeypatch.setattr(module, attribute, mutant)
    assert _fails(check)


def test_weapons_properties_hold_unbroken():
    """The same checks pass on the real rules (so the failures above come from the mutants)."""
    for check in {b[0] for b in BROKEN}:
        assert not _fails(check), check.__name__
