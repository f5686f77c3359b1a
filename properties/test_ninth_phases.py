"""The earlier edition's Movement, Psychic, Charge, Fight and Morale phases and its Rare Rules (ruleset ``ninth``):
their z3 proofs (each failing for a broken copy of the rule it rests on), hypothesis properties (each failing for a
broken rule), the book's James' Chaos Terminators example, and their annotations against both printings."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import Phase as Stage
from hypothesis import example, given, note, settings
from hypothesis import strategies as st

from properties import broken_rules
from properties import proofs
from properties import proofs_ninth_phases
from rules import spec
from rules.logic import And, If, Not, Or
from rules.ninth import charge, fight, morale, movement, psychic, rare_rules
from rules.ninth.fight import Fighter
from rules40k import annotations

RULESET = "ninth"
SEEDS = Path("/work/shared/seeds")
REPRINT = SEEDS / "002_c2ee5ee173df7ed1.txt"
MINE = broken_rules.proofs_built_in(proofs_ninth_phases)
NO_EXPLAIN = settings(phases=[stage for stage in Stage if stage != Stage.explain])
TWO_D6 = Counter(a + b for a in range(1, 7) for b in range(1, 7))  # ways to roll each total: 1, 2, ..., 6, ..., 1


# -- Proofs ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", MINE)
def test_ninth_phases_proof_has_its_expected_verdict(name):
    broken_rules.assert_expected_verdict(name)


# (proof, module, attribute, broken copy): each a plausible slip that must turn the proof "disproved".
MUTANTS = [
    ("ninth-psychic-test-odds", psychic, "psychic_test_passed", lambda total, warp_charge: total > warp_charge),
    ("ninth-perils-on-double-one-or-six", psychic, "perils_of_the_warp",
     lambda first_die, second_die: And(first_die == second_die, Or(first_die == 1, first_die == 6, first_die == 3))),
    ("ninth-deny-needs-a-higher-total", psychic, "deny_passed",
     lambda deny_total, psychic_test_result: deny_total >= psychic_test_result),
    ("ninth-smite-warp-charge-and-damage", psychic, "smite_mortal_wounds_dice",
     lambda psychic_test_result: If(psychic_test_result > 11, 6, 3)),
    ("ninth-smite-warp-charge-and-damage", psychic, "smite_warp_charge",
     lambda other_attempts_this_phase: 5 + 2 * other_attempts_this_phase),
    ("ninth-engaged-units-fall-back-or-stay", movement, "engaged_for_moving",
     lambda enemy_units_within_engagement_range, enemy_aircraft_within_engagement_range=0, aircraft=False:
         enemy_units_within_engagement_range > 0),  # forgets both AIRCRAFT exceptions
    ("ninth-advance-and-fall-back-limits", movement, "move_allows_shooting",
     lambda advanced=False, fell_back=False, titanic=False: Or(Not(fell_back), titanic)),  # Advance forgotten
    ("ninth-advance-and-fall-back-limits", movement, "move_allows_psychic",
     lambda fell_back=False, titanic=False: Not(fell_back)),  # TITANIC forgotten
    ("ninth-charge-chance-monotone-in-distance", charge, "charge_succeeds",
     lambda charge_roll, distance_needed, move_possible=True: And(move_possible, charge_roll > distance_needed)),
    ("ninth-charge-eligibility-limits", charge, "charge_eligible",
     lambda closest_enemy_inches, advanced_this_battle_round=False, fell_back_this_battle_round=False,
     within_engagement_range=False, disembarked_from_destroyed_transport=False:
         And(closest_enemy_inches <= 12, Not(advanced_this_battle_round), Not(within_engagement_range),
             Not(disembarked_from_destroyed_transport))),
    ("ninth-heroic-intervention-limits", charge, "heroic_intervention_eligible",
     lambda character, horizontal_inches, vertical_inches, within_engagement_range=False, own_charge_phase=False,
     intervened_this_phase=False, disembarked_from_destroyed_transport=False:
         And(character, Not(within_engagement_range), horizontal_inches <= 3, vertical_inches <= 3,
             Not(own_charge_phase), Not(intervened_this_phase), Not(disembarked_from_destroyed_transport))),
    ("ninth-closing-moves-three-inches-closer", charge, "closing_move_allowed",
     lambda distance_moved, start_to_closest_enemy, end_to_closest_enemy, touching_enemy_at_start=False, limit=3:
         Or(distance_moved == 0, And(distance_moved <= limit, end_to_closest_enemy < start_to_closest_enemy))),
    ("ninth-fight-bands", fight, "fight_band",
     lambda made_charge_move_this_turn=False, fights_first_rule=False, fights_last_rule=False:
         If(Or(made_charge_move_this_turn, fights_first_rule), fight.FIRST,
            If(fights_last_rule, fight.LAST, fight.NORMAL))),  # first wins over last
    ("ninth-fight-bands", fight, "band_starter_is_active_player", lambda band: band == fight.FIRST),
    ("ninth-morale-test-ones-and-priority", morale, "morale_test_passed",
     lambda roll, destroyed_this_turn, highest_leadership, auto_pass=False, auto_fail=False:
         Or(auto_pass, And(Not(auto_fail), roll + destroyed_this_turn <= highest_leadership))),
    ("ninth-morale-test-ones-and-priority", morale, "morale_test_passed",
     lambda roll, destroyed_this_turn, highest_leadership, auto_pass=False, auto_fail=False:
         And(Not(auto_fail), Or(auto_pass, roll == 1, roll + destroyed_this_turn <= highest_leadership))),
    ("ninth-morale-never-negative", morale, "models_after_morale",
     lambda models, starting_strength, roll, destroyed_this_turn, highest_leadership, attrition_rolls,
     auto_pass=False, auto_fail=False, no_models_flee=False:  # every attrition roll counted, not one per model
         models - If(morale.morale_test_passed(roll, destroyed_this_turn, highest_leadership, auto_pass, auto_fail),
                     0, 1 + morale.attrition_losses(attrition_rolls, True, no_models_flee))),
    ("ninth-attrition-losses-bounded", morale, "attrition_losses",
     lambda rolls, below_half, no_models_flee=False:  # the model that fled the Morale test counted again
         If(no_models_flee, 0, sum((If(morale.attrition_flees(r, below_half), 1, 0) for r in rolls), 0) + 1)),
    ("ninth-attrition-losses-bounded", morale, "attrition_losses",
     lambda rolls, below_half, no_models_flee=False:
         sum((If(morale.attrition_flees(r, below_half), 1, 0) for r in rolls), 0)),  # ignores no-models-flee
    ("ninth-attrition-penalty-never-helps", morale, "attrition_result",
     lambda roll, below_half: If(below_half, roll - 1, roll)),  # no floor: a rolled 1 is 0 and stays
    ("ninth-cover-never-improves-invulnerable-saves", rare_rules, "cover_save_bonus",
     lambda benefit_of_cover, ranged_attack, invulnerable_save=False: If(And(benefit_of_cover, ranged_attack), 1, 0)),
    ("ninth-cover-never-improves-invulnerable-saves", rare_rules, "improved_cover_save_bonus",
     lambda improved_bonus, from_light_or_heavy_cover, invulnerable_save=False:
         If(from_light_or_heavy_cover, improved_bonus, 1)),
]


def test_every_proved_phases_proof_has_a_mutant():
    broken_rules.assert_every_proved_proof_has_a_mutant(MINE, MUTANTS)


@pytest.mark.parametrize("name,module,attribute,mutant", MUTANTS,
                         ids=[f"{m[0]}:{m[2]}:{i}" for i, m in enumerate(MUTANTS)])
def test_ninth_phases_proof_fails_on_a_broken_rule(monkeypatch, name, module, attribute, mutant):
    broken_rules.assert_proof_catches(monkeypatch, name, module, attribute, mutant)


def test_findings_proofs_hold_once_the_other_reading_is_taken(monkeypatch):
    """Each finding's proof is disproved only because the code follows its interpretation: switched to the other
    reading (the reprint's bonus for the web page's, the bare arithmetic for the floor), the proof holds."""
    monkeypatch.setattr(fight, "attacks_made", lambda a, n=0, printing=fight.WEB: a + If(n >= 2, n, 0))
    monkeypatch.setattr(morale, "attrition_result", lambda roll, below_half: If(below_half, roll - 1, roll))
    for name in ("ninth-printings-agree-on-paired-weapons", "ninth-attrition-as-bare-arithmetic"):
        assert proofs.check(proofs.PROOFS[name]).status == "proved", name


# -- Hypothesis properties ----------------------------------------------------------------------------------------


@pytest.mark.refs("ninth:psychic-phase/psychic-tests", "ninth:psychic-phase/perils-of-the-warp")
@NO_EXPLAIN
@given(st.integers(-2, 16))
def test_psychic_test_odds_are_exact(warp_charge):
    """The chance a Psychic test passes is the number of ways 2D6 reaches the warp charge, out of 36, counted
    independently from the totals' frequencies (1 way to roll 2, 2 to roll 3, ..., 6 to roll 7, ...); Perils
    follows 2 outcomes in 36."""
    ways = sum(n for total, n in TWO_D6.items() if total >= warp_charge)
    note(f"warp charge {warp_charge}: {ways} ways")
    assert psychic.psychic_test_chance(warp_charge) == Fraction(ways, 36)
    assert psychic.perils_chance() == Fraction(2, 36)


@pytest.mark.refs("ninth:psychic-phase/deny-the-witch")
@NO_EXPLAIN
@given(st.integers(2, 12), st.integers(2, 12))
def test_deny_chance_is_the_chance_to_beat_the_test(result, other):
    """The chance to deny a power is the number of 2D6 totals above the Psychic test's result, out of 36, and never
    grows with the result."""
    ways = sum(n for total, n in TWO_D6.items() if total > result)
    assert psychic.deny_chance(result) == Fraction(ways, 36)
    if other >= result:
        assert psychic.deny_chance(other) <= psychic.deny_chance(result)


@pytest.mark.refs("ninth:charge-phase/charging-with-a-unit")
@NO_EXPLAIN
@given(st.fractions(0, 14, max_denominator=4), st.fractions(0, 14, max_denominator=4))
def test_charge_chance_monotone_in_distance(distance, other):
    """A longer charge is never likelier to succeed, and the chance is the 2D6 ways to reach the distance out of 36."""
    short, long_ = sorted((distance, other))
    assert charge.charge_chance(long_) <= charge.charge_chance(short)
    assert charge.charge_chance(distance) == Fraction(sum(n for t, n in TWO_D6.items() if t >= distance), 36)


@st.composite
def morale_situations(draw):
    starting = draw(st.integers(1, 20))
    models = draw(st.integers(0, starting))
    return dict(models=models, starting_strength=starting, roll=draw(st.integers(1, 6)),
                destroyed_this_turn=draw(st.integers(0, 20)), highest_leadership=draw(st.integers(1, 10)),
                attrition_rolls=draw(st.lists(st.integers(1, 6), min_size=max(models - 1, 0),
                                              max_size=max(models - 1, 0))),
                auto_pass=draw(st.booleans()), auto_fail=draw(st.booleans()), no_models_flee=draw(st.booleans()))


@pytest.mark.refs("ninth:morale-phase/taking-a-morale-test", "ninth:morale-phase/combat-attrition-tests",
                  "ninth:rare-rules/morale-priority")
@NO_EXPLAIN
@given(morale_situations())
@example(dict(models=5, starting_strength=10, roll=4, destroyed_this_turn=5, highest_leadership=7,
              attrition_rolls=[1, 2, 5, 6], auto_pass=False, auto_fail=False, no_models_flee=False))
def test_morale_never_leaves_a_negative_model_count(situation):
    """After the Morale test and Combat Attrition a unit has between none and all of its models; a pass (or a rule
    that no models flee) loses none; a failure loses the fleeing model plus the 1s among the attrition rolls, each
    roll floored at 1 after the -1 below Half-strength."""
    left = morale.models_after_morale(**situation)
    models = situation["models"]
    note(f"{situation} -> {left}")
    assert 0 <= left <= models
    passed = morale.morale_test_passed(situation["roll"], situation["destroyed_this_turn"],
                                       situation["highest_leadership"], situation["auto_pass"], situation["auto_fail"])
    if passed or situation["no_models_flee"] or models == 0:
        assert left == models
    else:
        below = 2 * (models - 1) < situation["starting_strength"]
        ones = sum(1 for r in situation["attrition_rolls"] if (max(r - 1, 1) if below else r) == 1)
        assert left == models - 1 - ones


@pytest.mark.refs("ninth:morale-phase/combat-attrition-tests")
@NO_EXPLAIN
@given(st.lists(st.integers(1, 6), max_size=12), st.booleans())
def test_attrition_losses_bounded_and_penalty_never_helps(rolls, no_models_flee):
    """Combat Attrition makes between none and all of the remaining models flee, none under a rule that no models
    flee, and the same dice never lose fewer models below Half-strength than above it."""
    above = morale.attrition_losses(rolls, False, no_models_flee)
    below = morale.attrition_losses(rolls, True, no_models_flee)
    assert 0 <= above <= below <= len(rolls)
    if no_models_flee:
        assert below == 0
    else:
        assert above == rolls.count(1) and below == rolls.count(1) + rolls.count(2)


@pytest.mark.refs("ninth:morale-phase/combat-attrition-tests", "ninth:movement-phase/transports/destroyed-transports")
@NO_EXPLAIN
@given(st.integers(0, 12), st.booleans())
def test_loss_distributions_are_binomial(models, below_half):
    """The attrition and destroyed-transport loss distributions sum to 1, cover 0..n, and average n times the
    chance of one loss (1/6, or 2/6 below Half-strength)."""
    for dist, p in ((morale.attrition_loss_distribution(models, below_half), Fraction(2 if below_half else 1, 6)),
                    (movement.destroyed_transport_loss_distribution(models), Fraction(1, 6))):
        assert sorted(dist) == list(range(models + 1))
        assert sum(dist.values()) == 1
        assert sum(k * q for k, q in dist.items()) == models * p


@st.composite
def fighters(draw):
    names = draw(st.lists(st.sampled_from("ABCDEFGHIJ"), unique=True, max_size=8))
    return [Fighter(n, draw(st.sampled_from([1, 2])), draw(st.sampled_from([fight.FIRST, fight.NORMAL, fight.LAST])))
            for n in names]


@pytest.mark.refs("ninth:fight-phase", "ninth:fight-phase/charging-units-fight-first",
                  "ninth:rare-rules/always-fight-first-last")
@NO_EXPLAIN
@given(fighters(), st.sampled_from([1, 2]))
def test_fight_order_bands_and_alternation(units, active):
    """Every eligible unit fights once; no unit fights before a unit of an earlier band; within a band the named
    starter fights first and the players alternate while both have units left."""
    order = fight.fight_order(units, active)
    by_name = {u.name: u for u in units}
    note(f"{units}, active {active}: {order}")
    assert sorted(order) == sorted(by_name)
    bands = [by_name[n].band for n in order]
    assert bands == sorted(bands)
    for band in (fight.FIRST, fight.NORMAL, fight.LAST):
        players = [by_name[n].player for n in order if by_name[n].band == band]
        if len(set(players)) == 2:
            starter = active if band != fight.NORMAL else 3 - active
            assert players[0] == starter
            both = 2 * min(players.count(1), players.count(2))
            assert all(players[i] != players[i + 1] for i in range(both - 1))


@pytest.mark.refs("ninth:movement-phase/move-units", "ninth:movement-phase/aircraft/engagement-range")
@NO_EXPLAIN
@given(st.integers(0, 4), st.integers(0, 4), st.booleans(), st.booleans())
def test_engaged_units_only_fall_back_or_stay(units, aircraft_units, is_aircraft, arrived):
    """A unit with an enemy other than an AIRCRAFT within Engagement Range, itself no AIRCRAFT, can only Fall Back
    or Remain Stationary; a unit with no enemy there cannot Fall Back; Reinforcements make no move at all."""
    aircraft_units = min(aircraft_units, units)
    moves = movement.allowed_moves(units, aircraft_units, is_aircraft, arrived)
    if arrived:
        assert moves == []
    elif units > aircraft_units and not is_aircraft:
        assert moves == [movement.FALL_BACK, movement.REMAIN_STATIONARY]
    else:
        assert movement.NORMAL_MOVE in moves and movement.ADVANCE in moves
        assert (movement.FALL_BACK in moves) == (units > 0)


BROKEN = [
    (test_psychic_test_odds_are_exact, psychic, "psychic_test_passed", lambda total, warp_charge: total > warp_charge),
    (test_psychic_test_odds_are_exact, psychic, "perils_of_the_warp",
     lambda first_die, second_die: first_die == second_die),
    (test_deny_chance_is_the_chance_to_beat_the_test, psychic, "deny_passed",
     lambda deny_total, psychic_test_result: deny_total >= psychic_test_result),
    (test_charge_chance_monotone_in_distance, charge, "charge_succeeds",
     lambda charge_roll, distance_needed, move_possible=True: charge_roll >= int(distance_needed)),
    (test_morale_never_leaves_a_negative_model_count, morale, "attrition_flees",
     lambda roll, below_half: roll == 1),  # the -1 below Half-strength forgotten
    (test_morale_never_leaves_a_negative_model_count, morale, "below_half_strength",
     lambda models, starting_strength: models < starting_strength),  # any loss taken for Half-strength
    (test_attrition_losses_bounded_and_penalty_never_helps, morale, "attrition_result",
     lambda roll, below_half: If(below_half, roll - 1, roll)),
    (test_loss_distributions_are_binomial, morale, "attrition_flee_chance", lambda below_half: Fraction(1, 6)),
    (test_fight_order_bands_and_alternation, fight, "band_starter_is_active_player", lambda band: True),
    (test_engaged_units_only_fall_back_or_stay, movement, "engaged_for_moving",
     lambda enemy_units_within_engagement_range, enemy_aircraft_within_engagement_range=0, aircraft=False:
         And(enemy_units_within_engagement_range > 0, Not(aircraft))),
]


@pytest.mark.parametrize("prop,module,attribute,mutant", BROKEN,
                         ids=[f"{b[0].__name__}:{b[2]}" for b in BROKEN])
def test_ninth_phases_property_fails_for_a_broken_rule(monkeypatch, prop, module, attribute, mutant):
    broken_rules.assert_property_fails(monkeypatch, prop, module, attribute, mutant)


def test_ninth_phases_properties_hold_unbroken():
    """The same properties pass on the real rules (so the failures above come from the mutants)."""
    broken_rules.assert_properties_hold(b[0] for b in BROKEN)


# -- The book's examples that the layout places outside their section ---------------------------------------------


@pytest.mark.refs("ninth:fight-phase/make-close-combat-attacks")
def test_james_chaos_terminators_attacks():
    """James' Chaos Terminators (002 line 2898, 003 line 679): one model with A 3 and a lightning claw, two with A 2
    and power fists, two with A 2 and lightning claws make seven lightning claw attacks and four power fist attacks
    against the one enemy unit they are in Engagement Range of, resolved a profile at a time."""
    models = [(3, "lightning claw"), (2, "power fist"), (2, "power fist"), (2, "lightning claw"),
              (2, "lightning claw")]
    assert fight.attacks_by_weapon(models) == {"lightning claw": 7, "power fist": 4}
    assert fight.fight_steps()[-1] == "consolidate"
    assert "seven attacks against that unit using the lightning claws, and four using power fists" in (
        REPRINT.read_text(encoding="utf-8").splitlines()[2897])


# -- Annotations ----------------------------------------------------------------------------------------------------


def test_phases_evidence_quotes_are_on_their_lines_in_either_printing():
    """Every quote of findings/phases.yaml and interpretations/phases.yaml is on its cited line of the printing it
    names (the reprint 002 or the web page 003)."""
    base = Path(spec.__file__).resolve().parents[1] / "spec" / "ninth" / "annotations"
    import yaml

    documents = {}
    count = 0
    for kind in ("findings", "interpretations"):
        for record in yaml.safe_load((base / kind / "phases.yaml").read_text(encoding="utf-8")):
            for e in record["evidence"]:
                lines = documents.setdefault(e["document"], (SEEDS / e["document"]).read_text(
                    encoding="utf-8").splitlines())
                assert annotations.quoted_on(e["quote"], lines[e["line"] - 1]), (record["id"], e["line"])
                count += 1
    assert count >= 20


def test_phases_example_sources_cite_lines_of_their_sections():
    sections = spec.sections(RULESET)
    lines = REPRINT.read_text(encoding="utf-8").splitlines()
    mine = [e for e in annotations.examples(RULESET) if e["id"].startswith("phases-")]
    assert len(mine) >= 100
    for e in mine:
        line = e["source"]["line"]
        low, high = sections[e["ref"]]["lines"]
        assert lines[line - 1].strip() and low <= line <= high, e["id"]


def test_phases_sections_are_encoded_or_inert():
    """Every section of the six chapters has a rule function or an inert reason, and an encoded one an example."""
    from rules40k import coverage

    chapters = ("movement-phase", "psychic-phase", "charge-phase", "fight-phase", "morale-phase", "rare-rules")
    rows = [r for r in coverage.ledger(RULESET) if r["ref"].split("/")[0] in chapters]
    assert len(rows) == 56
    assert [r["ref"] for r in rows if r["status"] not in ("encoded", "inert")] == []
    assert [r["ref"] for r in rows if r["status"] == "encoded" and r["examples"] == 0] == []
